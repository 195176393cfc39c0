//! Where solutions go. The search pushes each accepted solution into a [`Sink`]; the sink's
//! return value can stop the search (ripgrep's searcher sink is the model).

use std::ops::{AddAssign, ControlFlow};

/// Receives the solutions a search accepts (after the limit check).
pub trait Sink {
    /// `false` lets the engine count solutions without materialising grids
    /// (it then calls [`Sink::count`] instead of [`Sink::solution`]).
    const NEEDS_GRID: bool;

    /// One solution: `grid` holds N² values, row-major, 1..=N.
    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()>;

    /// `k` solutions counted without grids (only called when `NEEDS_GRID` is false).
    fn count(&mut self, _k: u64) -> ControlFlow<()> {
        ControlFlow::Continue(())
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
}

/// A sink that keeps every solution in memory (for small results, tests and `solve`).
#[derive(Debug, Default, Clone)]
pub struct CollectSink {
    /// Solutions in the order they were accepted.
    pub solutions: Vec<Vec<u8>>,
}

impl Sink for CollectSink {
    const NEEDS_GRID: bool = true;

    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        self.solutions.push(grid.to_vec());
        ControlFlow::Continue(())
    }
}

/// A sink that calls a closure for each solution.
pub struct FnSink<F>(pub F);

impl<F: FnMut(&[u8]) -> ControlFlow<()>> Sink for FnSink<F> {
    const NEEDS_GRID: bool = true;

    #[inline]
    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        (self.0)(grid)
    }
}

/// Search statistics; they add up across workers.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: propagated states visited.
    pub nodes: u64,
    /// Guesses: trial assignments made at branching cells.
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
