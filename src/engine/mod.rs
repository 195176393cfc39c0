//! The search engines: the hot code. Each keeps a fully propagated state, branches on the most
//! constrained cell, and backtracks by copying state. No allocation, I/O or `dyn` in the loop.
//!
//! - [`generic`]: any R×C box shape up to 64×64 (u64 candidate masks), plain: the engine up to
//!   12×12 and the cross-check.
//! - [`nine`]: a specialised 9×9 bitboard engine, with everything only it uses (tables, a
//!   second branching rule, the table of subtree counts, band-wide word operations).
//! - [`big`]: boards above 12×12: cell and position views, locked candidates, conflict-weighted
//!   branching; `u16`, `u32` or `u64` masks by side.
//! - [`bands`]: counting by bands, the count-mode strategy every engine's search can hand a
//!   filled band to.
//! - [`select`]: which engine runs a puzzle ([`EngineChoice`], `with_engine!`).
//!
//! A new engine implements [`Engine`] and gets a branch in `select`'s `with_engine!`.

pub(crate) mod bands;
pub(crate) mod big;
pub(crate) mod generic;
pub(crate) mod nine;
pub(crate) mod pages;
pub(crate) mod select;

pub use select::EngineChoice;

use crate::puzzle::Puzzle;
use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use std::ops::ControlFlow;

/// What [`Engine::expand`] found at a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expansion {
    /// Every cell is determined: the state is a solution.
    Solved,
    /// The state branched on `choices` candidates; the children that survived propagation were
    /// pushed in search order (dead ones were not, so fewer than `choices` may be pushed).
    Branched {
        /// Branching factor (children before propagation).
        choices: usize,
    },
}

/// A search engine state. Always kept propagated: constructors and [`Engine::expand`] only
/// ever hand out states on which the engine's propagation rules have run to a fixpoint (naked
/// singles and hidden singles in rows at least; each engine documents its rules).
pub trait Engine: Sized + Clone + Send + Sync {
    /// The propagated state of a puzzle; `None` when propagation already proves there is no
    /// solution, and always when two givens clash (the solver relies on this: it looks for the
    /// clash, to name it, only when there is no state).
    fn new(puzzle: &Puzzle) -> Option<Self>;

    /// Search the whole subtree below this state; `weight` is its share of the root tree
    /// (1.0 at the root), used for progress.
    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()>;

    /// [`Engine::search`], keeping what is left where it stops: the parts of the subtree it
    /// did not finish, as propagated states with their weights, in search order. What the
    /// search found and these parts make up the whole subtree when it stopped on the shared
    /// node budget (the caller checks the reason). `None` where this engine does not keep
    /// them (the default): a search that stops must be run again from the start.
    #[allow(clippy::type_complexity)]
    fn search_resumable<S: Sink>(
        &self,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
    ) -> (ControlFlow<()>, Option<Vec<(Self, f64)>>) {
        (self.search(ctx, weight), None)
    }

    /// Whether [`Engine::search_resumable`] keeps what is left: it returns `Some` exactly
    /// then. A serial try that runs out of nodes then loses nothing, and may be short (see
    /// `solver::serial_budget`).
    fn resumes(&self) -> bool {
        false
    }

    /// Branch once: push the propagated children (in search order) onto `out`.
    fn expand(&self, out: &mut Vec<Self>) -> Expansion;

    /// Branch once as counting by bands does (`bands`): on a cell of the first band (its
    /// first `rows` rows), which is filled first; `None` once it is filled (a boundary: its
    /// search counts what lies below through the band plan).
    fn expand_bands(&self, out: &mut Vec<Self>, rows: usize) -> Option<Expansion>;

    /// The determined values, 0 where still open (N² entries, row-major).
    fn values(&self) -> Vec<u8>;

    /// Number of cells not yet determined.
    fn open_cells(&self) -> usize;
}

/// Tests: the solutions below state `e`, searched on this thread, stopped at `limit`.
#[cfg(test)]
pub(crate) fn count_below<E: Engine>(e: &E, limit: Option<u64>) -> u128 {
    let shared = crate::solver::Shared::new(limit);
    let mut sink = crate::sink::CountSink;
    let mut ctx = crate::solver::Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    ctx.stats.solutions
}

#[cfg(test)]
mod tests {
    use super::generic::Generic;
    use super::nine::Nine;
    use super::Engine;
    use crate::puzzle::Puzzle;
    use crate::shape::Shape;

    /// Pseudo-random 9×9 puzzles with a few givens and one clash planted in a row, a column or
    /// a box: neither engine gives a state.
    #[test]
    fn clashing_givens_give_no_state() {
        let shape = Shape::NINE;
        let houses = shape.houses();
        let mut x = 0x6A09_E667u32;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as usize % n
        };
        for _ in 0..3000 {
            let mut cells = vec![0u8; 81];
            for _ in 0..next(20) {
                cells[next(81)] = 1 + next(9) as u8;
            }
            let house = &houses[next(houses.len())];
            let (a, b) = (house[next(9)], house[next(9)]);
            if a == b {
                continue;
            }
            let d = 1 + next(9) as u8;
            cells[a] = d;
            cells[b] = d;
            let p = Puzzle::new(shape, cells).unwrap();
            assert!(p.has_conflict());
            assert!(Nine::new(&p).is_none(), "{}", p.to_line());
            assert!(Generic::new(&p).is_none(), "{}", p.to_line());
        }
    }
}
