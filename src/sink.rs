//! Where solutions go. The search pushes each accepted solution into a [`Sink`]; the sink's
//! return value can stop the search (ripgrep's searcher sink is the model).

use std::ops::{AddAssign, ControlFlow};

/// Receives the solutions a search accepts (after the limit check); returning `Break` stops
/// the search ([`StopReason::Sink`](crate::StopReason::Sink)).
///
/// A search split across threads gives each piece of its tree a sink of its own: [`Sink::fork`]
/// makes it from the sink passed to [`search`](crate::search), and [`Sink::join`] gives it back
/// when the piece is done (or abandoned after a stop). Pieces are numbered in search order, and
/// finish in any order; a sink that does not need them in order ([`Sink::IN_ORDER`]) may see
/// them numbered in the order the workers took them (a search split as it goes, for puzzles
/// with variant rules). A search on several threads first tries the puzzle on the calling
/// thread alone; the solutions of that try go to the sink passed to `search` itself, before
/// any `fork` (most puzzles never split). After a `Break`, other workers may still deliver a
/// few solutions before they see the stop; to stop after N in all, count in a shared atomic
/// or, simpler, set [`Options::limit`](crate::Options::limit), which is exact.
pub trait Sink {
    /// `false` lets the engine count solutions without materialising grids
    /// (it then calls [`Sink::count`] instead of [`Sink::solution`]).
    const NEEDS_GRID: bool;

    /// Whether the pieces of a split search must be numbered in search order (so that the
    /// sink can hand on their solutions in that order); `false` lets a search with variant
    /// rules share its pieces among the workers as it goes, each searched from the conflict
    /// scores learned before it. By default, where the sink needs grids.
    const IN_ORDER: bool = Self::NEEDS_GRID;

    /// One solution: `grid` holds N² values, row-major, 1..=N.
    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()>;

    /// `k` solutions counted without grids (only called when `NEEDS_GRID` is false).
    fn count(&mut self, _k: u64) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The sink for piece `piece` of a search split across threads.
    fn fork(&self, piece: usize) -> Self
    where
        Self: Sized;

    /// Piece `piece`'s sink, back when the piece is done: take what it holds.
    fn join(&mut self, piece: usize, part: Self)
    where
        Self: Sized;

    /// Whether the sink may ask the search to skip subtrees it wants nothing from (see
    /// [`Sink::dull`]); only the generic engine asks.
    const PRUNES: bool = false;

    /// Whether the subtree below a node holds nothing the sink wants: the search then skips
    /// it. The node's cells hold the digits `value` (0 where open) and the open ones the
    /// candidates `cand` (bit `d - 1` for digit `d`; a placed cell's entry is not read).
    /// Called only when [`Sink::PRUNES`], by the generic engine, at every node.
    fn dull(&self, _cand: &[u64], _value: &[u8]) -> bool {
        false
    }
}

/// A sink that only counts (the search keeps the count in its [`Stats`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct CountSink;

impl Sink for CountSink {
    const NEEDS_GRID: bool = false;

    #[inline]
    fn solution(&mut self, _grid: &[u8]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn fork(&self, _piece: usize) -> CountSink {
        CountSink
    }

    fn join(&mut self, _piece: usize, _part: CountSink) {}
}

/// A sink that keeps every solution in memory (for small results, tests and `solve`).
#[derive(Debug, Default, Clone)]
pub struct CollectSink {
    /// Solutions in the order they were accepted: search order in a serial search; in a
    /// split search, each piece's in search order, the pieces in the order they finished.
    pub solutions: Vec<Vec<u8>>,
}

impl Sink for CollectSink {
    const NEEDS_GRID: bool = true;

    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        self.solutions.push(grid.to_vec());
        ControlFlow::Continue(())
    }

    fn fork(&self, _piece: usize) -> CollectSink {
        CollectSink::default()
    }

    fn join(&mut self, _piece: usize, part: CollectSink) {
        self.solutions.extend(part.solutions);
    }
}

/// A sink that calls a closure for each solution; a search split across threads calls a
/// clone of it in each piece.
#[derive(Debug, Clone)]
pub struct FnSink<F>(pub F);

impl<F: FnMut(&[u8]) -> ControlFlow<()> + Clone> Sink for FnSink<F> {
    const NEEDS_GRID: bool = true;

    #[inline]
    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        (self.0)(grid)
    }

    fn fork(&self, _piece: usize) -> FnSink<F> {
        self.clone()
    }

    fn join(&mut self, _piece: usize, _part: FnSink<F>) {}
}

/// Search statistics; they add up across workers.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: propagated states visited (the state left after a two-way branch's
    /// removal is the same node, propagated again).
    pub nodes: u64,
    /// Guesses: trial assignments made at branching cells (where a puzzle's rules choose, each
    /// digit tried in a two-way branch; the digit's removal that follows is not a guess).
    pub guesses: u64,
    /// Solutions accepted (after the limit).
    pub solutions: u128,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.guesses += o.guesses;
        self.solutions += o.solutions;
    }
}
