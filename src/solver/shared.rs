//! The state every worker of one search shares: the exact solution limit, the stop flag, and
//! progress counters read by a ticker. Workers touch it through their [`Ctx`](super::Ctx),
//! once every [`FLUSH_EVERY`](super::ctx::FLUSH_EVERY) nodes (relaxed), or once per accepted
//! solution when a limit is set.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// Fixed-point scale of the "fraction of the tree done" counter.
const DONE_SCALE: f64 = (1u64 << 62) as f64;

/// Why a search stopped before exhausting its tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum StopReason {
    /// The solution limit was reached.
    Limit = 1,
    /// The user interrupted (Ctrl-C, SIGTERM) or a caller cancelled.
    Cancelled = 2,
    /// The per-puzzle time limit passed.
    TimedOut = 3,
    /// The node budget ran out (used by the serial probe before splitting).
    Budget = 4,
    /// The sink asked to stop (e.g. a write failed).
    Sink = 5,
}

impl StopReason {
    fn from_u8(v: u8) -> Option<StopReason> {
        Some(match v {
            1 => StopReason::Limit,
            2 => StopReason::Cancelled,
            3 => StopReason::TimedOut,
            4 => StopReason::Budget,
            5 => StopReason::Sink,
            _ => return None,
        })
    }
}

/// State shared by every worker of one search.
#[derive(Debug)]
pub struct Shared {
    limit: Option<u64>,
    reserved: AtomicU64,
    pub(super) stop: AtomicU8,
    cancel: Option<&'static AtomicBool>,
    deadline: Option<Instant>,
    node_budget: AtomicU64,
    /// Nodes visited so far (flushed every few thousand nodes).
    pub nodes: AtomicU64,
    /// Solutions accepted so far (flushed; saturating display counter).
    pub solutions: AtomicU64,
    done: AtomicU64,
}

impl Shared {
    /// A search that stops after `limit` solutions (exactly), or never when `None`.
    pub fn new(limit: Option<u64>) -> Shared {
        Shared {
            limit,
            reserved: AtomicU64::new(0),
            stop: AtomicU8::new(0),
            cancel: None,
            deadline: None,
            node_budget: AtomicU64::new(u64::MAX),
            nodes: AtomicU64::new(0),
            solutions: AtomicU64::new(0),
            done: AtomicU64::new(0),
        }
    }

    /// Also stop when this flag becomes true (e.g. set by a Ctrl-C handler).
    pub fn with_cancel(mut self, flag: &'static AtomicBool) -> Shared {
        self.cancel = Some(flag);
        self
    }

    /// Also stop at this instant.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Shared {
        self.deadline = deadline;
        self
    }

    /// Stop once the workers together have visited about this many nodes (`u64::MAX`: never).
    pub fn set_node_budget(&self, nodes: u64) {
        self.node_budget.store(nodes, Relaxed);
    }

    /// Forget everything counted so far (limit reservations, progress, a budget stop), keeping
    /// the limit, cancel flag and deadline: for re-running a search from scratch.
    pub fn reset(&self) {
        self.reserved.store(0, Relaxed);
        self.nodes.store(0, Relaxed);
        self.solutions.store(0, Relaxed);
        self.done.store(0, Relaxed);
        self.stop.store(0, Relaxed);
    }

    /// The solution limit.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Ask every worker to stop (they notice within [`FLUSH_EVERY`](super::ctx::FLUSH_EVERY) nodes).
    pub fn request_stop(&self, reason: StopReason) {
        let _ = self
            .stop
            .compare_exchange(0, reason as u8, Relaxed, Relaxed);
    }

    /// Why the search stopped early, if it did.
    pub fn stopped(&self) -> Option<StopReason> {
        StopReason::from_u8(self.stop.load(Relaxed))
    }

    /// Fraction of the search tree finished, 0.0..=1.0 (each leaf weighs the product of
    /// 1/branching along its path: Knuth's measure).
    pub fn fraction_done(&self) -> f64 {
        (self.done.load(Relaxed) as f64 / DONE_SCALE).min(1.0)
    }

    /// Record a finished part of the tree (used by the parallel layer for pruned children).
    pub fn add_done(&self, weight: f64) {
        if weight > 0.0 {
            self.done.fetch_add((weight * DONE_SCALE) as u64, Relaxed);
        }
    }

    /// Reserve up to `k` solutions under the limit; returns how many were granted.
    #[inline]
    pub(super) fn reserve(&self, k: u64) -> u64 {
        match self.limit {
            None => k,
            Some(limit) => {
                let before = self.reserved.fetch_add(k, Relaxed);
                if before >= limit {
                    self.request_stop(StopReason::Limit);
                    0
                } else {
                    let granted = k.min(limit - before);
                    if before + granted >= limit {
                        self.request_stop(StopReason::Limit);
                    }
                    granted
                }
            }
        }
    }

    /// Check the external conditions (cancel flag, deadline, budget); true when the search must stop.
    pub(crate) fn must_stop(&self) -> bool {
        if self.stop.load(Relaxed) != 0 {
            return true;
        }
        if let Some(flag) = self.cancel {
            if flag.load(Relaxed) {
                self.request_stop(StopReason::Cancelled);
                return true;
            }
        }
        if let Some(deadline) = self.deadline {
            if Instant::now() >= deadline {
                self.request_stop(StopReason::TimedOut);
                return true;
            }
        }
        if self.nodes.load(Relaxed) >= self.node_budget.load(Relaxed) {
            self.request_stop(StopReason::Budget);
            return true;
        }
        false
    }
}
