//! What the engines report to while they search: the exact solution limit shared by all
//! workers, the stop flag, and progress counters read by a ticker.
//!
//! The hot loop touches only plain fields of [`Ctx`]; shared atomics are read and written
//! once every [`FLUSH_EVERY`] nodes (relaxed), or once per accepted solution when a limit is set.

use crate::engine::bands::Plan;
use crate::sink::{Sink, Stats};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// Nodes between two flushes of a worker's progress into the shared counters.
pub const FLUSH_EVERY: u32 = 2048;

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
    stop: AtomicU8,
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

    /// Ask every worker to stop (they notice within [`FLUSH_EVERY`] nodes).
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
    fn reserve(&self, k: u64) -> u64 {
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

/// One worker's view of a search: its sink, its statistics, and its unflushed progress.
pub struct Ctx<'a, S: Sink> {
    /// Where accepted solutions go.
    pub sink: &'a mut S,
    /// The shared limit, stop flag and progress counters.
    pub shared: &'a Shared,
    /// This worker's statistics.
    pub stats: Stats,
    /// Counting by bands: the plan of this search (count-only searches, see
    /// `engine::bands`), or `None` for the plain search.
    pub(crate) bands: Option<&'a Plan>,
    /// Whether the engine may use its tables (the 9×9 engine's subtree counts); a short
    /// attempt does without, as their memory costs more to touch than they save.
    pub(crate) tables: bool,
    pending_nodes: u32,
    pending_solutions: u64,
    pending_done: f64,
}

impl<'a, S: Sink> Ctx<'a, S> {
    /// A worker context.
    pub fn new(sink: &'a mut S, shared: &'a Shared) -> Ctx<'a, S> {
        Ctx {
            sink,
            shared,
            stats: Stats::default(),
            bands: None,
            tables: true,
            pending_nodes: 0,
            pending_solutions: 0,
            pending_done: 0.0,
        }
    }

    /// The same context, with the engine's tables allowed or not.
    pub(crate) fn with_tables(mut self, tables: bool) -> Ctx<'a, S> {
        self.tables = tables;
        self
    }

    /// The same context, counting by bands with `plan` (count-only sinks).
    pub(crate) fn with_bands(mut self, plan: Option<&'a Plan>) -> Ctx<'a, S> {
        debug_assert!(plan.is_none() || !S::NEEDS_GRID);
        self.bands = plan;
        self
    }

    /// Count one search node; every [`FLUSH_EVERY`] nodes publish progress and check for a stop.
    #[inline(always)]
    pub fn node(&mut self) -> ControlFlow<()> {
        self.stats.nodes += 1;
        self.pending_nodes += 1;
        if self.pending_nodes >= FLUSH_EVERY {
            return self.flush();
        }
        ControlFlow::Continue(())
    }

    /// Count one guess (a trial assignment at a branching cell).
    #[inline(always)]
    pub fn guess(&mut self) {
        self.stats.guesses += 1;
    }

    /// A dead end of weight `w` (a contradiction): only progress accounting.
    #[inline(always)]
    pub fn dead_end(&mut self, w: f64) {
        self.pending_done += w;
    }

    /// `k` solutions found without grids in a subtree of weight `w` (count-only sinks).
    #[inline]
    pub fn solutions(&mut self, k: u64, w: f64) -> ControlFlow<()> {
        self.pending_done += w;
        let granted = self.shared.reserve(k);
        self.stats.solutions += granted as u128;
        self.pending_solutions = self.pending_solutions.saturating_add(granted);
        let flow = if granted > 0 {
            self.sink.count(granted)
        } else {
            ControlFlow::Continue(())
        };
        if granted < k {
            return ControlFlow::Break(());
        }
        self.after_sink(flow)
    }

    /// `k` solutions (any number; 0 is a dead end) counted in a subtree of weight `w`.
    pub fn solutions_wide(&mut self, k: u128, w: f64) -> ControlFlow<()> {
        if k == 0 {
            self.dead_end(w);
            return ControlFlow::Continue(());
        }
        let mut left = k;
        while left > u128::from(u64::MAX) {
            self.solutions(u64::MAX, 0.0)?;
            left -= u128::from(u64::MAX);
        }
        self.solutions(left as u64, w)
    }

    /// One solution with its grid, in a leaf of weight `w`.
    #[inline]
    pub fn solution(&mut self, grid: &[u8], w: f64) -> ControlFlow<()> {
        self.pending_done += w;
        if self.shared.reserve(1) == 0 {
            return ControlFlow::Break(());
        }
        self.stats.solutions += 1;
        self.pending_solutions = self.pending_solutions.saturating_add(1);
        let flow = self.sink.solution(grid);
        self.after_sink(flow)
    }

    /// After delivering solutions: a sink's stop stops everyone; a limit just used up stops us.
    #[inline]
    fn after_sink(&mut self, flow: ControlFlow<()>) -> ControlFlow<()> {
        if flow.is_break() {
            self.shared.request_stop(StopReason::Sink);
            return flow;
        }
        if self.shared.stop.load(Relaxed) != 0 {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// True when a limit is set and already used up by the workers.
    #[inline]
    pub fn limit_reached(&self) -> bool {
        self.shared.stop.load(Relaxed) == StopReason::Limit as u8
    }

    /// Publish progress and check the stop conditions.
    #[cold]
    pub fn flush(&mut self) -> ControlFlow<()> {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes as u64, Relaxed);
        self.pending_nodes = 0;
        if self.pending_solutions > 0 {
            self.shared
                .solutions
                .fetch_add(self.pending_solutions, Relaxed);
            self.pending_solutions = 0;
        }
        self.shared.add_done(self.pending_done);
        self.pending_done = 0.0;
        if self.shared.must_stop() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

impl<S: Sink> Drop for Ctx<'_, S> {
    fn drop(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.pending_nodes as u64, Relaxed);
        self.shared
            .solutions
            .fetch_add(self.pending_solutions, Relaxed);
        self.shared.add_done(self.pending_done);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::CountSink;

    #[test]
    fn limit_is_exact_for_batches() {
        let shared = Shared::new(Some(10));
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        assert!(ctx.solutions(4, 0.0).is_continue());
        assert!(ctx.solutions(4, 0.0).is_continue());
        assert!(ctx.solutions(4, 0.0).is_break());
        assert!(ctx.solutions(4, 0.0).is_break());
        let exact = Shared::new(Some(8));
        let mut sink2 = CountSink;
        let mut ctx2 = Ctx::new(&mut sink2, &exact);
        assert!(ctx2.solutions(4, 0.0).is_continue());
        assert!(
            ctx2.solutions(4, 0.0).is_break(),
            "limit used up exactly: stop now"
        );
        assert_eq!(ctx2.stats.solutions, 8);
        assert_eq!(ctx.stats.solutions, 10);
        assert_eq!(shared.stopped(), Some(StopReason::Limit));
    }

    #[test]
    fn unlimited_counts_everything() {
        let shared = Shared::new(None);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        for _ in 0..1000 {
            assert!(ctx.solutions(u64::MAX / 2, 0.0).is_continue());
        }
        assert_eq!(ctx.stats.solutions, 1000 * (u64::MAX / 2) as u128);
        assert_eq!(shared.stopped(), None);
    }
}
