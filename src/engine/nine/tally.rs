//! What a 9×9 search reports to: the worker's [`Ctx`] itself, or a [`Trial`] that counts the
//! solutions of one bounded attempt privately, so that an attempt given up on leaves no trace.
//!
//! The uniqueness check runs a staged search (see `nine`'s module docs) that may be given up
//! and started again plainly. It runs under a `Trial`: the solutions of an attempt that
//! finished (or hit the limit, or was stopped from outside) are then handed to the `Ctx` in one
//! go, those of an attempt that ran out of nodes are forgotten, and the plain search starts
//! from the same state.

use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use crate::solver::shared::Shared;
use std::ops::ControlFlow;

/// The calls a search makes while it walks its tree (the same as [`Ctx`]'s).
pub trait Tally {
    /// Whether solutions must be delivered as grids (else counted with [`Tally::solutions`]).
    const NEEDS_GRID: bool;

    /// One search node; `Break` stops the search.
    fn node(&mut self) -> ControlFlow<()>;

    /// One trial assignment at a branch.
    fn guess(&mut self);

    /// A dead end of weight `w`.
    fn dead_end(&mut self, w: f64);

    /// `k` solutions counted in a subtree of weight `w`.
    fn solutions(&mut self, k: u64, w: f64) -> ControlFlow<()>;

    /// One solution with its grid, in a leaf of weight `w`.
    fn solution(&mut self, grid: &[u8], w: f64) -> ControlFlow<()>;

    /// `k` solutions (any number; 0 is a dead end) counted in a subtree of weight `w`.
    fn solutions_wide(&mut self, k: u128, w: f64) -> ControlFlow<()>;

    /// [`Tally::solutions_wide`] for a band tail's count (see `Ctx::tail_counted`).
    fn tail_counted(&mut self, k: u128, w: f64) -> ControlFlow<()> {
        self.solutions_wide(k, w)
    }

    /// The solutions accepted so far (for the table of subtree counts).
    fn found(&self) -> u128;

    /// The search's shared state (for work that checks the stop conditions itself).
    fn shared(&self) -> &Shared<'_>;
}

impl<S: Sink> Tally for Ctx<'_, S> {
    const NEEDS_GRID: bool = S::NEEDS_GRID;

    #[inline(always)]
    fn node(&mut self) -> ControlFlow<()> {
        Ctx::node(self)
    }

    #[inline(always)]
    fn guess(&mut self) {
        Ctx::guess(self)
    }

    #[inline(always)]
    fn dead_end(&mut self, w: f64) {
        Ctx::dead_end(self, w)
    }

    #[inline(always)]
    fn solutions(&mut self, k: u64, w: f64) -> ControlFlow<()> {
        Ctx::solutions(self, k, w)
    }

    #[inline(always)]
    fn solution(&mut self, grid: &[u8], w: f64) -> ControlFlow<()> {
        Ctx::solution(self, grid, w)
    }

    #[inline(always)]
    fn solutions_wide(&mut self, k: u128, w: f64) -> ControlFlow<()> {
        Ctx::solutions_wide(self, k, w)
    }

    #[inline(always)]
    fn tail_counted(&mut self, k: u128, w: f64) -> ControlFlow<()> {
        Ctx::tail_counted(self, k, w)
    }

    #[inline(always)]
    fn found(&self) -> u128 {
        self.stats.solutions
    }

    fn shared(&self) -> &Shared<'_> {
        self.shared
    }
}

/// How a bounded attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// The attempt ran out of nodes: its solutions were forgotten, the caller goes on.
    GaveUp,
    /// The attempt is over and its solutions were handed to the context: the subtree is
    /// settled (`Continue`), or the search must stop (`Break`: the limit was reached, or a stop
    /// came from outside).
    Done(ControlFlow<()>),
}

/// A private solution counter for one bounded attempt at a subtree, in count-only searches
/// under a limit. Nodes still go through the tally underneath (statistics, the stop checks).
pub struct Trial<'p, T: Tally> {
    inner: &'p mut T,
    limit: u64,
    found: u64,
    nodes_left: u64,
    gave_up: bool,
}

impl<'p, T: Tally> Trial<'p, T> {
    /// Run `search` on a probe allowed `nodes` nodes and at most `limit` solutions; then hand
    /// its solutions to `inner` as a subtree of weight `w`, unless it ran out of nodes.
    pub fn attempt(
        inner: &'p mut T,
        limit: u64,
        nodes: u64,
        w: f64,
        search: impl FnOnce(&mut Trial<'p, T>) -> ControlFlow<()>,
    ) -> Attempt {
        debug_assert!(!T::NEEDS_GRID, "a probe only counts");
        let mut trial = Trial {
            inner,
            limit,
            found: 0,
            nodes_left: nodes,
            gave_up: false,
        };
        let flow = search(&mut trial);
        if trial.gave_up {
            return Attempt::GaveUp;
        }
        let inner = trial.inner;
        let handed = if trial.found == 0 {
            inner.dead_end(w);
            ControlFlow::Continue(())
        } else {
            inner.solutions(trial.found, w)
        };
        // A stop from outside (`flow` broke below the limit) stops the caller too.
        Attempt::Done(if flow.is_break() { flow } else { handed })
    }
}

impl<T: Tally> Tally for Trial<'_, T> {
    const NEEDS_GRID: bool = false;

    #[inline(always)]
    fn node(&mut self) -> ControlFlow<()> {
        if self.nodes_left == 0 {
            self.gave_up = true;
            return ControlFlow::Break(());
        }
        self.nodes_left -= 1;
        self.inner.node()
    }

    #[inline(always)]
    fn guess(&mut self) {
        self.inner.guess()
    }

    /// Progress is reported for the whole attempt at its end.
    #[inline(always)]
    fn dead_end(&mut self, _w: f64) {}

    #[inline(always)]
    fn solutions(&mut self, k: u64, _w: f64) -> ControlFlow<()> {
        self.found = self.found.saturating_add(k);
        if self.found >= self.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    #[inline(always)]
    fn solution(&mut self, _grid: &[u8], w: f64) -> ControlFlow<()> {
        self.solutions(1, w)
    }

    /// A trial only runs under small limits: a count beyond 64 bits saturates, as `found` does.
    #[inline(always)]
    fn solutions_wide(&mut self, k: u128, w: f64) -> ControlFlow<()> {
        self.solutions(u64::try_from(k).unwrap_or(u64::MAX), w)
    }

    #[inline(always)]
    fn found(&self) -> u128 {
        self.found as u128
    }

    fn shared(&self) -> &Shared<'_> {
        self.inner.shared()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::CountSink;
    use crate::solver::ctx::FLUSH_EVERY;
    use crate::solver::{Cancel, Shared};

    /// A made-up search: `k` solutions, one per node, then stop.
    fn walk<T: Tally>(t: &mut T, k: u64) -> ControlFlow<()> {
        for _ in 0..k {
            t.node()?;
            t.solutions(1, 0.0)?;
        }
        ControlFlow::Continue(())
    }

    #[test]
    fn a_finished_attempt_hands_its_solutions_over() {
        let shared = Shared::new(Some(100));
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let got = Trial::attempt(&mut ctx, 100, 10, 1.0, |p| walk(p, 7));
        assert_eq!(got, Attempt::Done(ControlFlow::Continue(())));
        assert_eq!(ctx.stats.solutions, 7);
        assert_eq!(ctx.stats.nodes, 7);
    }

    #[test]
    fn an_attempt_out_of_nodes_is_forgotten() {
        let shared = Shared::new(Some(100));
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let got = Trial::attempt(&mut ctx, 100, 5, 1.0, |p| walk(p, 7));
        assert_eq!(got, Attempt::GaveUp);
        assert_eq!(ctx.stats.solutions, 0);
        assert_eq!(ctx.stats.nodes, 5, "the nodes visited still count");
        // The search goes on under the same context.
        let got = Trial::attempt(&mut ctx, 100, 50, 1.0, |p| walk(p, 7));
        assert_eq!(got, Attempt::Done(ControlFlow::Continue(())));
        assert_eq!(ctx.stats.solutions, 7);
    }

    #[test]
    fn the_limit_stops_an_attempt_and_the_search() {
        let shared = Shared::new(Some(2));
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let got = Trial::attempt(&mut ctx, 2, 10, 1.0, |p| walk(p, 7));
        assert_eq!(got, Attempt::Done(ControlFlow::Break(())));
        assert_eq!(ctx.stats.solutions, 2);
        assert_eq!(ctx.stats.nodes, 2);
        assert!(ctx.limit_reached());
    }

    #[test]
    fn a_stop_from_outside_keeps_what_was_found() {
        let cancel = Cancel::new();
        cancel.cancel();
        let shared = Shared::new(Some(1 << 40)).with_cancel(Some(&cancel));
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let n = 3 * FLUSH_EVERY as u64;
        let got = Trial::attempt(&mut ctx, 1 << 40, n, 1.0, |p| walk(p, n));
        assert_eq!(got, Attempt::Done(ControlFlow::Break(())));
        // The flush at node FLUSH_EVERY sees the flag; the solutions before it are real.
        assert_eq!(ctx.stats.solutions, FLUSH_EVERY as u128 - 1);
    }
}
