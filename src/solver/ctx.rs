//! What the engines report to while they search: a worker's [`Ctx`], its sink, its statistics
//! and its unflushed progress. The hot loop touches only plain fields of the `Ctx`; the
//! [`Shared`] state is read and written once every [`FLUSH_EVERY`] nodes, or once per
//! accepted solution when a limit is set.

use super::shared::{Shared, StopReason};
use crate::engine::bands::{Plan, Tail};
use crate::sink::{Sink, Stats};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

/// Nodes between two flushes of a worker's progress into the shared counters.
pub const FLUSH_EVERY: u32 = 2048;

/// One worker's view of a search: its sink, its statistics, and its unflushed progress.
pub struct Ctx<'a, S: Sink> {
    /// Where accepted solutions go.
    pub sink: &'a mut S,
    /// The shared limit, stop flag and progress counters.
    pub shared: &'a Shared<'a>,
    /// This worker's statistics.
    pub stats: Stats,
    /// Counting by bands: the plan of this search (count-only searches, see
    /// `engine::bands`), or `None` for the plain search.
    pub(crate) bands: Option<&'a Plan>,
    /// Whether the engine may use its tables (the 9×9 engine's subtree counts); a short
    /// attempt does without, as their memory costs more to touch than they save.
    pub(crate) tables: bool,
    /// Where the search shares its piece with idle workers (see `parallel::run_sharing`): set
    /// while one waits for work; the first worker to flush after takes it down and stops, to
    /// leave what is left of its piece to the others (`yielded`).
    hungry: Option<&'a AtomicBool>,
    /// Whether this search stopped to share its piece.
    pub(crate) yielded: bool,
    /// Tests: flush every this many nodes (the shared state's `flush_every`).
    #[cfg(test)]
    flush_every: u32,
    pending_nodes: u32,
    pending_solutions: u64,
    pending_done: f64,
    /// Band tails counted since the last flush: a count by bands visits few nodes, so its
    /// solutions are published every [`TAILS_PER_PUBLISH`] tails as well.
    pending_tails: u32,
}

/// Band tails between two publications of a worker's counters (see [`Ctx::band_boundary`]).
const TAILS_PER_PUBLISH: u32 = 64;

impl<'a, S: Sink> Ctx<'a, S> {
    /// A worker context.
    pub fn new(sink: &'a mut S, shared: &'a Shared<'a>) -> Ctx<'a, S> {
        Ctx {
            sink,
            shared,
            stats: Stats::default(),
            bands: None,
            tables: true,
            hungry: None,
            yielded: false,
            #[cfg(test)]
            flush_every: shared.flush_every.load(Relaxed),
            pending_nodes: 0,
            pending_solutions: 0,
            pending_done: 0.0,
            pending_tails: 0,
        }
    }

    /// The same context, with the engine's tables allowed or not.
    pub(crate) fn with_tables(mut self, tables: bool) -> Ctx<'a, S> {
        self.tables = tables;
        self
    }

    /// The same context, stopping to share its piece when `hungry` is set (see
    /// [`Ctx::yielded`]).
    pub(crate) fn sharing(mut self, hungry: &'a AtomicBool) -> Ctx<'a, S> {
        self.hungry = Some(hungry);
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
        #[cfg(not(test))]
        let every = FLUSH_EVERY;
        #[cfg(test)]
        let every = self.flush_every;
        if self.pending_nodes >= every {
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

    /// Whether the sink wants nothing from the subtree below a node whose open cells'
    /// candidates are `cand` and whose digits are `value` (0 where open): see [`Sink::dull`].
    #[inline(always)]
    pub(crate) fn dull(&self, cand: &[u64], value: &[u8]) -> bool {
        S::PRUNES && self.sink.dull(cand, value)
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

    /// A band tail's `k` solutions (any number) in a subtree of weight `w`; every
    /// [`TAILS_PER_PUBLISH`] tails the counters are published (only they: the tails checked the
    /// stop conditions), so that a progress bar of a serial count by bands, which visits few
    /// nodes, sees its solutions as they come.
    #[inline]
    pub(crate) fn tail_counted(&mut self, k: u128, w: f64) -> ControlFlow<()> {
        let flow = self.solutions_wide(k, w);
        self.pending_tails += 1;
        if self.pending_tails >= TAILS_PER_PUBLISH {
            self.publish();
        }
        flow
    }

    /// Counting by bands, at a state of weight `w` whose first `k` bands are filled: at a
    /// boundary not asked about yet (`k > *asked`) the plan counts what lies below, and `Some`
    /// says the state is settled (counted, or the search must stop). `None` where there is no
    /// plan or it declines (then `*asked` becomes `k`): the search fills band `k` by cells.
    /// `lacking` writes the digits each of the `n` columns lacks above the boundary.
    #[inline]
    pub(crate) fn band_boundary(
        &mut self,
        k: usize,
        asked: &mut usize,
        n: usize,
        w: f64,
        lacking: impl FnOnce(&mut [u64]),
    ) -> Option<ControlFlow<()>> {
        let plan = self.bands?;
        if k <= *asked {
            return None;
        }
        let mut rem = [0u64; 64];
        lacking(&mut rem[..n]);
        match plan.tail(k, &rem[..n], self.shared, w) {
            Tail::Count(count, w) => Some(self.tail_counted(count, w)),
            Tail::Stopped => Some(ControlFlow::Break(())),
            Tail::Declined => {
                *asked = k;
                None
            }
        }
    }

    /// A solved state of weight `w` (its values, row-major): one solution, with its grid when
    /// the sink wants grids.
    #[inline]
    pub fn solved(&mut self, grid: &[u8], w: f64) -> ControlFlow<()> {
        if S::NEEDS_GRID {
            self.solution(grid, w)
        } else {
            self.solutions(1, w)
        }
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

    /// Publish the counters not yet published.
    fn publish(&mut self) {
        self.shared.publish(
            self.pending_nodes as u64,
            self.pending_solutions,
            self.pending_done,
        );
        self.pending_nodes = 0;
        self.pending_solutions = 0;
        self.pending_done = 0.0;
        self.pending_tails = 0;
    }

    /// Publish progress and check the stop conditions.
    #[cold]
    pub fn flush(&mut self) -> ControlFlow<()> {
        self.publish();
        if self.shared.must_stop() {
            return ControlFlow::Break(());
        }
        if let Some(hungry) = self.hungry {
            if hungry.load(Relaxed) && hungry.swap(false, Relaxed) {
                self.yielded = true;
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

impl<S: Sink> Drop for Ctx<'_, S> {
    fn drop(&mut self) {
        self.shared.publish(
            self.pending_nodes as u64,
            self.pending_solutions,
            self.pending_done,
        );
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
