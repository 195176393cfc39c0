//! True candidates: for every cell, the digits that appear in at least one solution, with the
//! number of solutions through each, capped (what setters ask while they set a puzzle: a
//! puzzle is unique exactly when every cell has one true candidate).
//!
//! It never enumerates every solution of a puzzle with billions: one search, stopped at the
//! cap, covers the candidates of its solutions first; then each candidate not yet seen `cap`
//! times is asked about alone, as a search of the puzzle with that one more given, stopped at
//! the cap. Every solution found is kept (distinct, at most `cap` per candidate asked about),
//! and counts are read off them, so the solutions of one question also answer others.

use crate::engine::generic::Generic;
use crate::engine::Engine;
use crate::puzzle::{Conflict, Puzzle};
use crate::shape::Shape;
use crate::sink::{CollectSink, Stats};
use crate::solver::{search, Options, StopReason};
use std::collections::HashSet;
use std::time::Instant;

/// The true candidates of a puzzle and the solutions through each, capped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    shape: Shape,
    cap: u64,
    /// `counts[cell * N + d - 1]`: solutions seen with `d` in `cell`, at most `cap`.
    counts: Vec<u64>,
    /// Why the work stopped before every candidate was decided (timeout, Ctrl-C); the counts
    /// are then lower bounds.
    pub stopped: Option<StopReason>,
    /// Clashing givens: the puzzle is invalid and was not searched.
    pub conflict: Option<Conflict>,
    /// Nodes, guesses and solutions of every search made, added up.
    pub stats: Stats,
    /// The searches made: the first, then one per candidate asked about.
    pub searches: u64,
}

impl Candidates {
    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cap on the counts.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// Solutions with `digit` (1..=N) in `cell` (row-major index): exact below the cap,
    /// the cap when there are at least that many; 0 when `digit` is not a true candidate.
    pub fn count(&self, cell: usize, digit: u8) -> u64 {
        self.counts[cell * self.shape.side() + usize::from(digit) - 1]
    }

    /// The true candidates of `cell` as a bit mask (bit `d - 1` for digit `d`).
    pub fn mask(&self, cell: usize) -> u64 {
        let n = self.shape.side();
        self.counts[cell * n..(cell + 1) * n]
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .fold(0, |m, (d, _)| m | 1 << d)
    }

    /// The true candidates of `cell`, in increasing order.
    pub fn digits(&self, cell: usize) -> Vec<u8> {
        let n = self.shape.side();
        (1..=n as u8).filter(|&d| self.count(cell, d) > 0).collect()
    }

    /// True when every candidate was decided (no timeout or interruption).
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }

    /// At least one solution was found.
    pub fn solvable(&self) -> bool {
        self.counts.iter().any(|&c| c > 0)
    }

    /// True when the puzzle has exactly one solution (every cell one true candidate); only
    /// meaningful when [`Candidates::complete`].
    pub fn is_unique(&self) -> bool {
        self.solvable() && (0..self.shape.cells()).all(|c| self.mask(c).count_ones() == 1)
    }
}

/// Counts read off distinct solutions.
struct Tally {
    n: usize,
    cap: u64,
    counts: Vec<u64>,
    seen: HashSet<Vec<u8>>,
}

impl Tally {
    fn add(&mut self, grid: Vec<u8>) {
        let n = self.n;
        for (cell, &v) in grid.iter().enumerate() {
            let c = &mut self.counts[cell * n + usize::from(v) - 1];
            *c = (*c + 1).min(self.cap);
        }
        self.seen.insert(grid);
    }

    fn add_new(&mut self, grids: Vec<Vec<u8>>) {
        for g in grids {
            if !self.seen.contains(&g) {
                self.add(g);
            }
        }
    }
}

/// The true candidates of `puzzle` with the solutions through each, counted up to `cap`
/// (at least 1; 1 asks only which digits are candidates). `options` gives the threads of
/// each search, a timeout or deadline for the whole work, and a cancel handle; its limit is
/// ignored.
///
/// ```
/// use sudoku_enum::{candidates, Options, Puzzle, Shape};
///
/// // The 4x4 board with its first row given: 12 solutions, each candidate in 2 to 6 of them.
/// let mut p = Puzzle::empty(Shape::new(2, 2).unwrap());
/// for (cell, d) in [1, 2, 3, 4].into_iter().enumerate() {
///     p.set(cell, d);
/// }
/// let c = candidates(&p, &Options::default(), 8);
/// assert_eq!(c.digits(4), vec![3, 4]); // r2c1 sees 1 and 2 in its box
/// assert_eq!(c.count(0, 1), 8); // all 12 solutions, capped at 8
/// ```
pub fn candidates(puzzle: &Puzzle, options: &Options, cap: u64) -> Candidates {
    let cap = cap.max(1);
    let shape = puzzle.shape();
    let n = shape.side();
    let started = Instant::now();
    let deadline = match (options.timeout.map(|t| started + t), options.deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let each = Options {
        limit: Some(cap),
        timeout: None,
        deadline,
        ..options.clone()
    };
    let mut result = Candidates {
        shape,
        cap,
        counts: vec![0; shape.cells() * n],
        stopped: None,
        conflict: None,
        stats: Stats::default(),
        searches: 0,
    };
    let mut tally = Tally {
        n,
        cap,
        counts: vec![0; shape.cells() * n],
        seen: HashSet::new(),
    };
    // The first search: its solutions cover candidates; if it ends below the cap, it saw
    // every solution and every count is exact.
    let mut sink = CollectSink::default();
    let first = search(puzzle, &each, &mut sink);
    result.searches += 1;
    result.stats += first.stats;
    if first.conflict.is_some() {
        result.conflict = first.conflict;
        return result;
    }
    tally.add_new(sink.solutions);
    let exhausted = first.complete();
    if let (Some(reason), false) = (first.stopped, first.solutions >= u128::from(cap)) {
        result.stopped = Some(reason);
    }
    if !exhausted && result.stopped.is_none() {
        // The digits propagation leaves open: the only ones worth asking about.
        let masks = Generic::new(puzzle).map(|g| g.candidate_masks());
        let Some(masks) = masks else {
            // (not reached: the search found solutions)
            result.counts = tally.counts;
            return result;
        };
        'cells: for (cell, &mask) in masks.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                if tally.counts[cell * n + d] >= cap {
                    continue;
                }
                let mut one_more = puzzle.clone();
                one_more.set(cell, d as u8 + 1);
                let mut sink = CollectSink::default();
                let o = search(&one_more, &each, &mut sink);
                result.searches += 1;
                result.stats += o.stats;
                let found = sink.solutions.len() as u64;
                tally.add_new(sink.solutions);
                if let Some(reason) = o.stopped.filter(|_| found < cap) {
                    result.stopped = Some(reason);
                    break 'cells;
                }
                // Every solution through this candidate is now known (or `cap` of them).
                debug_assert!(tally.counts[cell * n + d] >= found.min(cap));
            }
        }
    }
    result.counts = tally.counts;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::solutions;

    /// Counts by the definition: every solution, then per candidate.
    fn by_enumeration(p: &Puzzle, cap: u64) -> Vec<u64> {
        let n = p.shape().side();
        let mut counts = vec![0; p.shape().cells() * n];
        for s in solutions(p, &Options::default()) {
            for (cell, &v) in s.iter().enumerate() {
                counts[cell * n + usize::from(v) - 1] += 1;
            }
        }
        counts.iter().map(|&c| c.min(cap)).collect()
    }

    #[test]
    fn agree_with_enumeration_on_4x4_and_6x6() {
        let mut x = 0x9E37_79B9u32;
        let mut next = |k: usize| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as usize % k
        };
        for (r, c, givens) in [(2, 2, 0), (2, 2, 2), (2, 2, 4), (2, 3, 8), (2, 3, 12)] {
            let shape = Shape::new(r, c).unwrap();
            for _ in 0..20 {
                // Givens taken from a solution, so that most puzzles are solvable.
                let some = Options {
                    limit: Some(200),
                    ..Options::default()
                };
                let grids = solutions(&Puzzle::empty(shape), &some);
                let grid = &grids[next(grids.len())];
                let mut p = Puzzle::empty(shape);
                for _ in 0..givens {
                    let cell = next(shape.cells());
                    p.set(cell, grid[cell]);
                }
                if r * c == 6 && givens < 10 {
                    // keep the enumeration small
                    continue;
                }
                for cap in [1, 3, 8] {
                    let got = candidates(&p, &Options::default(), cap);
                    assert!(got.complete());
                    assert_eq!(got.counts, by_enumeration(&p, cap), "{p:?} cap {cap}");
                }
            }
        }
    }

    #[test]
    fn unique_and_unsolvable_and_invalid() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let p = crate::parse::parse_one(line, &Default::default()).unwrap();
        let c = candidates(&p, &Options::default(), 8);
        assert!(c.is_unique() && c.complete());
        assert_eq!(c.searches, 1);
        let bad = crate::parse::parse_one(
            "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..",
            &Default::default(),
        )
        .unwrap();
        let c = candidates(&bad, &Options::default(), 8);
        assert!(!c.solvable() && c.complete());
        let clash =
            crate::parse::parse_one(&format!("11{}", ".".repeat(79)), &Default::default()).unwrap();
        assert!(candidates(&clash, &Options::default(), 8)
            .conflict
            .is_some());
    }

    #[test]
    fn empty_9x9_has_every_candidate_at_the_cap() {
        let c = candidates(&Puzzle::empty(Shape::NINE), &Options::default(), 8);
        assert!(c.complete());
        assert!(c.counts.iter().all(|&k| k == 8));
    }
}
