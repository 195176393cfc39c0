//! The search engines: the hot code. Each keeps a fully propagated state, branches on the most
//! constrained cell, and backtracks by copying state. No allocation, I/O or `dyn` in the loop.
//!
//! - [`big`]: boards above 12×12: cell and position views, locked candidates, conflict-weighted
//!   branching; `u16`, `u32` or `u64` masks by side.
//! - [`generic`]: any R×C box shape up to 64×64 (u64 candidate masks), plain: the engine up to
//!   12×12 and the cross-check.
//! - [`nine`]: a specialised 9×9 bitboard engine.
//! - [`configs`]: the 9×9 engine's second branching rule (a digit's configuration in a band
//!   or stack), for the hard part of uniqueness checks.
//! - [`tally`]: what the 9×9 search reports to: the worker's context, or a private counter for
//!   a bounded attempt.
//! - `lanes`: band-wide word operations of the 9×9 engine (SSE2 on x86-64, portable
//!   elsewhere).
//! - [`memo`]: the table of subtree counts that exhaustive 9×9 counting keeps per thread.

pub mod bands;
pub mod big;
pub mod configs;
pub mod generic;
mod lanes;
pub mod memo;
pub mod nine;
pub mod tally;

use crate::control::Ctx;
use crate::puzzle::Puzzle;
use crate::sink::Sink;
use std::ops::ControlFlow;

/// The one engine-selection rule: the 9×9 engine for 3×3 boxes; the big engine ([`big::Big`],
/// at the narrowest mask width the side fits) for sides above 12, where its inference pays
/// (hard 14×14 to 25×25 puzzles: 8–115 times fewer nodes); the plain generic engine for the
/// other shapes up to 12×12 (its nodes are cheaper, and there even minimal puzzles take a few
/// dozen nodes: it counts the 6×6 grids twice as fast and sparse 12×12 puzzles 20% faster)
/// and when asked for (a cross-check). `with_engine!(puzzle, choice, |root|
/// expr)` builds the propagated root state of the chosen engine and evaluates `expr` with it
/// (generic over the engine type), giving `Some(expr)`, or `None` when propagation alone
/// proves there is no solution.
macro_rules! with_engine {
    ($puzzle:expr, $choice:expr, |$root:ident| $body:expr) => {{
        let puzzle: &$crate::puzzle::Puzzle = $puzzle;
        let shape = puzzle.shape();
        if $choice == $crate::solver::EngineChoice::Generic
            || (shape.side() <= 12 && shape != $crate::shape::Shape::NINE)
        {
            <$crate::engine::generic::Generic as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        } else if shape == $crate::shape::Shape::NINE {
            <$crate::engine::nine::Nine as $crate::engine::Engine>::new(puzzle).map(|$root| $body)
        } else if shape.side() <= 16 {
            <$crate::engine::big::Big<u16> as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        } else if shape.side() <= 32 {
            <$crate::engine::big::Big<u32> as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        } else {
            <$crate::engine::big::Big<u64> as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        }
    }};
}
pub(crate) use with_engine;

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

    /// Branch once: push the propagated children (in search order) onto `out`.
    fn expand(&self, out: &mut Vec<Self>) -> Expansion;

    /// Branch once as counting by bands does ([`bands`]): on a cell of the first band (its
    /// first `rows` rows), which is filled first; `None` once it is filled (a boundary: its
    /// search counts what lies below through the band plan).
    fn expand_bands(&self, out: &mut Vec<Self>, rows: usize) -> Option<Expansion>;

    /// The determined values, 0 where still open (N² entries, row-major).
    fn values(&self) -> Vec<u8>;

    /// Number of cells not yet determined.
    fn open_cells(&self) -> usize;
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
