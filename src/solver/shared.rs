//! The state every worker of one search shares: the exact solution limit, the stop flag, and
//! progress counters read by a ticker. Workers touch it through their [`Ctx`](super::Ctx),
//! once every [`FLUSH_EVERY`](super::ctx::FLUSH_EVERY) nodes (relaxed), or once per accepted
//! solution when a limit is set. [`Cancel`] and [`Progress`] are the caller's handles on it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
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
    /// The node budget ran out (used by the serial try before splitting).
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

/// A handle that stops a search from any thread: put a clone in [`Options::cancel`] and call
/// [`Cancel::cancel`]; the search stops within a few thousand nodes with
/// [`StopReason::Cancelled`]. One handle may stop many searches (a Ctrl-C handler's).
///
/// [`Options::cancel`]: crate::Options::cancel
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A handle not yet cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stop every search that holds this handle.
    pub fn cancel(&self) {
        self.0.store(true, Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Relaxed)
    }
}

/// A search's progress, for another thread to read while it runs (a progress bar): put a
/// clone in [`Options::progress`]. The counters are flushed every few thousand nodes; a
/// search that starts again from scratch (after its serial try) starts them again.
///
/// [`Options::progress`]: crate::Options::progress
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<Counters>);

/// The counters behind a [`Progress`].
#[derive(Debug, Default)]
struct Counters {
    nodes: AtomicU64,
    solutions: AtomicU64,
    /// The finished share of the tree, fixed point ([`DONE_SCALE`]).
    done: AtomicU64,
    /// The search was split across threads (see [`Progress::is_split`]).
    split: AtomicBool,
}

impl Progress {
    /// Counters at zero.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Work done so far, in search nodes: the nodes visited, and in a count by bands each
    /// combination its tails walk (about a node's cost). A measure of progress: the outcome's
    /// [`Stats::nodes`](crate::Stats::nodes) counts search nodes only.
    pub fn nodes(&self) -> u64 {
        self.0.nodes.load(Relaxed)
    }

    /// Solutions accepted so far (saturating at `u64::MAX`).
    pub fn solutions(&self) -> u64 {
        self.0.solutions.load(Relaxed)
    }

    /// Fraction of the search tree finished, 0.0..=1.0 (each leaf weighs the product of
    /// 1/branching along its path: Knuth's measure).
    pub fn fraction_done(&self) -> f64 {
        self.0.fraction_done()
    }

    /// Whether the search was split across threads after its serial try (which it then
    /// threw away: the counters started again from zero). A search on one thread, or one that
    /// ends within its serial try, is never split.
    pub fn is_split(&self) -> bool {
        self.0.split.load(Relaxed)
    }
}

impl Counters {
    fn fraction_done(&self) -> f64 {
        (self.done.load(Relaxed) as f64 / DONE_SCALE).min(1.0)
    }
}

/// State shared by every worker of one search; it borrows the caller's handles.
#[derive(Debug)]
pub struct Shared<'a> {
    limit: Option<u64>,
    reserved: AtomicU64,
    pub(super) stop: AtomicU8,
    cancel: Option<&'a Cancel>,
    deadline: Option<Instant>,
    node_budget: AtomicU64,
    /// Nodes, solutions and the finished share of the tree, flushed every few thousand nodes,
    /// unless the caller gave counters to watch (`progress`).
    own: Counters,
    progress: Option<&'a Progress>,
    /// Counting by bands keeps its counts in the tables the workers share (see
    /// [`Shared::share_tables`]).
    shares_tables: AtomicBool,
    /// Tests: the workers flush every this many nodes (see `Ctx::node`).
    #[cfg(test)]
    pub(crate) flush_every: std::sync::atomic::AtomicU32,
}

impl<'a> Shared<'a> {
    /// A search that stops after `limit` solutions (exactly), or never when `None`.
    pub fn new(limit: Option<u64>) -> Shared<'a> {
        Shared {
            limit,
            reserved: AtomicU64::new(0),
            stop: AtomicU8::new(0),
            cancel: None,
            deadline: None,
            node_budget: AtomicU64::new(u64::MAX),
            own: Counters::default(),
            progress: None,
            shares_tables: AtomicBool::new(false),
            #[cfg(test)]
            flush_every: std::sync::atomic::AtomicU32::new(super::ctx::FLUSH_EVERY),
        }
    }

    /// Also stop when this handle is cancelled.
    pub fn with_cancel(mut self, cancel: Option<&'a Cancel>) -> Shared<'a> {
        self.cancel = cancel;
        self
    }

    /// Report progress to these counters (else to counters of its own).
    pub fn with_progress(mut self, progress: Option<&'a Progress>) -> Shared<'a> {
        self.progress = progress;
        self
    }

    /// Also stop at this instant.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Shared<'a> {
        self.deadline = deadline;
        self
    }

    /// Stop once the workers together have visited about this many nodes (`u64::MAX`: never).
    pub fn set_node_budget(&self, nodes: u64) {
        self.node_budget.store(nodes, Relaxed);
    }

    /// The node budget set last ([`Shared::set_node_budget`]).
    pub fn node_budget(&self) -> u64 {
        self.node_budget.load(Relaxed)
    }

    /// Forget everything counted so far (limit reservations, progress, a budget stop), keeping
    /// the limit, cancel flag and deadline: for re-running a search from scratch.
    pub fn reset(&self) {
        self.reserved.store(0, Relaxed);
        let c = self.counters();
        c.nodes.store(0, Relaxed);
        c.solutions.store(0, Relaxed);
        c.done.store(0, Relaxed);
        self.stop.store(0, Relaxed);
    }

    /// Record that the search is split across threads from here on (after a [`reset`]).
    ///
    /// [`reset`]: Shared::reset
    pub fn mark_split(&self) {
        self.counters().split.store(true, Relaxed);
    }

    /// Have counting by bands keep its counts in the tables its workers share, from the serial
    /// try on (a search that will split): what the try counted then stands for the workers
    /// (the try itself is thrown away when it runs out).
    pub(crate) fn share_tables(&self) {
        self.shares_tables.store(true, Relaxed);
    }

    /// Whether counting by bands keeps its counts in the shared tables ([`Shared::share_tables`],
    /// set before the serial try of every search that may split).
    pub(crate) fn tables_shared(&self) -> bool {
        self.shares_tables.load(Relaxed)
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

    /// The progress counters: the caller's, or these.
    #[inline]
    fn counters(&self) -> &Counters {
        self.progress.map_or(&self.own, |p| &p.0)
    }

    /// Nodes visited so far (flushed every few thousand nodes).
    pub fn nodes(&self) -> u64 {
        self.counters().nodes.load(Relaxed)
    }

    /// Fraction of the search tree finished (see [`Progress::fraction_done`]).
    pub fn fraction_done(&self) -> f64 {
        self.counters().fraction_done()
    }

    /// Record a finished part of the tree (used by the parallel layer for pruned children).
    pub fn add_done(&self, weight: f64) {
        if weight > 0.0 {
            let done = (weight * DONE_SCALE) as u64;
            self.counters().done.fetch_add(done, Relaxed);
        }
    }

    /// Count `k` units of work done outside search nodes (a band tail's combinations, one
    /// each: about a node's cost) as nodes, toward the node budget and the nodes shown.
    pub(crate) fn add_work(&self, k: u64) {
        self.counters().nodes.fetch_add(k, Relaxed);
    }

    /// Add a worker's unflushed nodes, solutions and finished weight to the counters.
    pub(super) fn publish(&self, nodes: u64, solutions: u64, done: f64) {
        let c = self.counters();
        c.nodes.fetch_add(nodes, Relaxed);
        if solutions > 0 {
            c.solutions.fetch_add(solutions, Relaxed);
        }
        self.add_done(done);
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
        if let Some(cancel) = self.cancel {
            if cancel.is_cancelled() {
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
        if self.nodes() >= self.node_budget.load(Relaxed) {
            self.request_stop(StopReason::Budget);
            return true;
        }
        false
    }
}
