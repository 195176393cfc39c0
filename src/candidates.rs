//! True candidates: for every cell, the digits that appear in at least one solution, with the
//! number of solutions through each, capped (what setters ask while they set a puzzle: a
//! puzzle is unique exactly when every cell has one true candidate).
//!
//! It never enumerates every solution of a puzzle with billions: one search, stopped at the
//! cap, covers the candidates of its solutions first. What it leaves open is decided in rounds
//! of growing node budgets ([`Rounds`]) by two means: a *sweep*, one search of the whole tree
//! that skips every subtree whose digits have all been seen `cap` times already, and
//! *questions*, each candidate not yet seen `cap` times asked about alone, as a search of the
//! puzzle with that one more given, stopped at the cap. Every solution found is kept
//! (distinct), and counts are read off them, so the solutions of one search also answer
//! others.

use crate::engine::generic::Generic;
use crate::engine::select::runs_generic;
use crate::engine::{Engine, EngineChoice};
use crate::puzzle::{Conflict, Puzzle};
use crate::shape::Shape;
use crate::sink::{Sink, Stats};
use crate::solver::ctx::FLUSH_EVERY;
use crate::solver::parallel::on_workers;
use crate::solver::{search, search_in, Options, StopReason};
use std::cell::Cell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// The true candidates of a puzzle and the solutions through each, capped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    shape: Shape,
    cap: u64,
    /// `counts[cell * N + d - 1]`: solutions seen with `d` in `cell`, at most `cap`.
    counts: Vec<u64>,
    /// Why the work stopped before every candidate was decided (timeout, Ctrl-C); the counts
    /// are then lower bounds, and a digit not seen in a cell may yet be one of its candidates.
    pub stopped: Option<StopReason>,
    /// Clashing givens: the puzzle is invalid and was not searched.
    pub conflict: Option<Conflict>,
    /// Nodes, guesses and solutions of every search made, added up.
    pub stats: Stats,
    /// The searches made: the first, then each sweep and each question (see the module).
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
    /// the cap when there are at least that many; 0 when `digit` is not a true candidate,
    /// or not a digit of the board (0, or above N).
    ///
    /// # Panics
    /// When `cell` is not a cell of the board (N² or more), as an index out of bounds.
    pub fn count(&self, cell: usize, digit: u8) -> u64 {
        let n = self.shape.side();
        assert!(cell < n * n, "cell {cell} of a board of {} cells", n * n);
        match usize::from(digit) {
            d @ 1.. if d <= n => self.counts[cell * n + d - 1],
            _ => 0,
        }
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

/// Counts read off distinct solutions, and each cell's digits seen `cap` times.
struct Tally {
    n: usize,
    cap: u64,
    counts: Vec<u64>,
    /// Per cell, the digits (bit `d - 1`) seen `cap` times.
    full: Vec<u64>,
    seen: HashSet<Vec<u8>>,
}

impl Tally {
    fn new(shape: Shape, cap: u64) -> Tally {
        Tally {
            n: shape.side(),
            cap,
            counts: vec![0; shape.cells() * shape.side()],
            full: vec![0; shape.cells()],
            seen: HashSet::new(),
        }
    }

    /// Count `grid` unless it was counted before; true when it is new.
    fn add(&mut self, grid: &[u8]) -> bool {
        if self.seen.contains(grid) {
            return false;
        }
        self.count(grid);
        self.seen.insert(grid.to_vec());
        true
    }

    /// Count `grid`.
    fn count(&mut self, grid: &[u8]) {
        let n = self.n;
        for (cell, &v) in grid.iter().enumerate() {
            self.bump(cell * n + usize::from(v) - 1, 1);
        }
    }

    /// Add the counts of one search's solutions (`counts`, as [`Grids`] makes them), which
    /// no other search will find again (none follows).
    fn absorb(&mut self, counts: &[u64]) {
        for (i, &k) in counts.iter().enumerate() {
            if k > 0 {
                self.bump(i, k);
            }
        }
    }

    /// Add `k` to count `i` (`cell * N + d`), up to the cap.
    fn bump(&mut self, i: usize, k: u64) {
        let c = &mut self.counts[i];
        *c = c.saturating_add(k).min(self.cap);
        if *c == self.cap {
            self.full[i / self.n] |= 1 << (i % self.n);
        }
    }

    /// Whether digit index `d` of `cell` has been seen `cap` times.
    fn saturated(&self, cell: usize, d: usize) -> bool {
        self.full[cell] >> d & 1 != 0
    }
}

/// The sink of a sweep (see [`Rounds`]): every new solution counted into the tally, and a
/// subtree skipped when every digit its cells can still take has been seen `cap` times
/// already, so that nothing below it can change a count (how the Interactive Sudoku Solver
/// finds its true candidates). `full` is its copy of the tally's digits at the cap.
struct Sweep<'a> {
    tally: &'a Mutex<Tally>,
    full: Vec<u64>,
    /// The cell found wanting last (looked at first: it often still is).
    last: Cell<usize>,
}

impl<'a> Sweep<'a> {
    fn new(tally: &'a Mutex<Tally>) -> Sweep<'a> {
        Sweep {
            tally,
            full: lock(tally).full.clone(),
            last: Cell::new(0),
        }
    }
}

impl Sink for Sweep<'_> {
    const NEEDS_GRID: bool = true;
    const IN_ORDER: bool = false;
    const PRUNES: bool = true;

    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        let mut tally = lock(self.tally);
        if tally.add(grid) {
            self.full.copy_from_slice(&tally.full);
        }
        ControlFlow::Continue(())
    }

    fn fork(&self, _piece: usize) -> Self {
        Sweep::new(self.tally)
    }

    fn join(&mut self, _piece: usize, _part: Self) {}

    #[inline]
    fn dull(&self, cand: &[u64], value: &[u8]) -> bool {
        let wants = |cell: usize| {
            let m = match value[cell] {
                0 => cand[cell],
                v => 1 << (v - 1),
            };
            m & !self.full[cell] != 0
        };
        if wants(self.last.get()) {
            return false;
        }
        match (0..value.len()).find(|&c| wants(c)) {
            Some(c) => {
                self.last.set(c);
                false
            }
            None => true,
        }
    }
}

/// The solutions of a search side by side in one buffer (a large cap's millions of them are
/// freed at once: one allocation each took a second to give back after Ctrl-C), and, for the
/// first search, the count of each cell's digits over them, made as they come (counting them
/// afterwards took as long).
#[derive(Debug)]
struct Grids {
    cells: Vec<u8>,
    /// `counts[cell * side + d - 1]`: the solutions with `d` in `cell`; empty where not kept.
    counts: Vec<u64>,
    /// Cells of a grid.
    width: usize,
    side: usize,
}

impl Grids {
    /// For a board of `shape`, counting its digits when `counting`.
    fn new(shape: Shape, counting: bool) -> Grids {
        let counts = if counting {
            vec![0; shape.cells() * shape.side()]
        } else {
            Vec::new()
        };
        Grids {
            cells: Vec::new(),
            counts,
            width: shape.cells(),
            side: shape.side(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.cells.chunks_exact(self.width)
    }
}

impl Sink for Grids {
    const NEEDS_GRID: bool = true;

    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        if !self.counts.is_empty() {
            for (cell, &v) in grid.iter().enumerate() {
                self.counts[cell * self.side + usize::from(v) - 1] += 1;
            }
        }
        self.cells.extend_from_slice(grid);
        ControlFlow::Continue(())
    }

    fn fork(&self, _piece: usize) -> Grids {
        Grids {
            cells: Vec::new(),
            counts: vec![0; self.counts.len()],
            width: self.width,
            side: self.side,
        }
    }

    fn join(&mut self, _piece: usize, part: Grids) {
        if self.cells.is_empty() {
            self.cells = part.cells;
        } else {
            self.cells.extend_from_slice(&part.cells);
        }
        for (c, p) in self.counts.iter_mut().zip(&part.counts) {
            *c += p;
        }
    }
}

/// Lock `m`, whether or not a worker panicked while it held it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What `m` holds, whether or not a worker panicked while it held it.
fn take<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The node budgets of [`Rounds`]: the first sweep's, as a multiple of the nodes the first
/// search took to find `cap` solutions (0: no sweeps), and a question's in the first round
/// (each round after allows [`GROWTH`] times as many).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budgets {
    pub(crate) sweep_first: u64,
    pub(crate) question_first: u64,
}

impl Budgets {
    /// What [`candidates`] uses. Four times the first search's nodes let the sweep finish at
    /// once where solutions are few and far between (the first 8 of 186 took 122,000 nodes
    /// there, the sweep 379,000).
    pub(crate) const DEFAULT: Budgets = Budgets {
        sweep_first: 4,
        question_first: 1 << 10,
    };
    /// Questions alone, each to its end.
    pub(crate) const QUESTIONS: Budgets = Budgets {
        sweep_first: 0,
        question_first: u64::MAX,
    };
    /// Tests: one sweep, to its end.
    #[cfg(test)]
    pub(crate) const SWEEP: Budgets = Budgets {
        sweep_first: u64::MAX,
        question_first: u64::MAX,
    };
}

/// How much a question's budget grows from one round to the next.
const GROWTH: u64 = 4;

/// Deciding the candidates the first search left open, in rounds of growing node budgets.
/// Each round first sweeps the whole tree ([`Sweep`], a pruned enumeration; the first sweep
/// with a multiple of the first search's nodes, each later one with as many nodes as all the
/// work so far), then asks about every candidate still undecided (a search of the puzzle with
/// that one more given, stopped at the cap or at the round's budget, which grows [`GROWTH`]
/// times a round). A sweep that ends decides every candidate; a question decides its own when
/// it ends within its budget. Questions pay where solutions are many (each finds its `cap` at
/// once: the empty boards, where a sweep wanders), the sweep where questions must search large
/// trees to find few solutions or none (variants with a few hundred solutions whose wrong
/// digits fail late: one such took 264 questions and 19 million nodes, and its sweep takes
/// 379,000). As the budgets grow geometrically, neither costs more than a small factor over
/// the better one. Sweeps split across the caller's threads as any search does (within their
/// budgets), and a round's questions are shared among the threads (see [`Rounds::ask`]).
struct Rounds<'a> {
    puzzle: &'a Puzzle,
    options: &'a Options,
    budgets: Budgets,
    tally: &'a Mutex<Tally>,
    result: &'a mut Candidates,
}

/// How a budgeted search ended.
enum Ended {
    /// It searched what it was asked to (or stopped at the cap).
    Done,
    /// It ran out of its node budget.
    Budget,
    /// The caller's deadline or cancel handle stopped it.
    Stopped(StopReason),
}

impl Rounds<'_> {
    /// Search `puzzle` with `options` and about `budget` nodes at most into `sink`.
    fn run<S: Sink + Send>(
        &mut self,
        puzzle: &Puzzle,
        options: &Options,
        budget: u64,
        sink: &mut S,
    ) -> Ended {
        let (ended, stats) = budgeted(puzzle, options, budget, sink);
        self.result.searches += 1;
        self.result.stats += stats;
        ended
    }

    /// Decide every candidate of `open` (cell, digit index); `Err` with the reason where the
    /// caller's deadline or cancel handle stopped the work first. `first` is the nodes the
    /// first search took to find `cap` solutions.
    fn decide(&mut self, mut open: Vec<(usize, usize)>, first: u64) -> Result<(), StopReason> {
        // The threads of each question are `ask`'s to choose.
        let question = Options {
            limit: Some(lock(self.tally).cap),
            timeout: None,
            ..self.options.clone()
        };
        // The sweep needs the engine that asks its sink (see `Sink::dull`); it runs on the
        // caller's threads, its pieces shared as they go (`Sink::IN_ORDER`).
        let sweep = Options {
            limit: None,
            timeout: None,
            engine: EngineChoice::Generic,
            ..self.options.clone()
        };
        let sweeps = self.budgets.sweep_first > 0;
        // A search looks at its budget every `FLUSH_EVERY` nodes: a sweep gets that at
        // least (small trees are swept within it, sparing their questions).
        let mut sweep_budget = first
            .saturating_mul(self.budgets.sweep_first)
            .max(u64::from(FLUSH_EVERY));
        let mut budget = self.budgets.question_first;
        loop {
            if sweeps {
                let mut sink = Sweep::new(self.tally);
                match self.run(self.puzzle, &sweep, sweep_budget, &mut sink) {
                    Ended::Done => return Ok(()),
                    Ended::Budget => {}
                    Ended::Stopped(reason) => return Err(reason),
                }
            }
            let mut left = self.ask(&open, &question, budget)?;
            left.retain(|&(cell, d)| !lock(self.tally).saturated(cell, d));
            if left.is_empty() {
                return Ok(());
            }
            open = left;
            // As many nodes as everything so far.
            sweep_budget = self.result.stats.nodes;
            budget = budget.saturating_mul(GROWTH);
        }
    }

    /// Ask about every candidate of `open` not seen `cap` times yet, each with `budget` nodes
    /// (see [`question`]); the ones whose questions ran out of it are returned, in `open`'s
    /// order. Budgeted questions are shared among the caller's threads, each worker taking
    /// the next one in turn on one thread (a question's solutions spare the others theirs as
    /// soon as they are counted). Questions without a budget, or fewer than threads (the last
    /// rounds' hard ones), are asked one after the other, each split across the threads.
    fn ask(
        &mut self,
        open: &[(usize, usize)],
        options: &Options,
        budget: u64,
    ) -> Result<Vec<(usize, usize)>, StopReason> {
        let (puzzle, tally) = (self.puzzle, self.tally);
        let threads = self.options.threads;
        let asking: Vec<(usize, usize)> = {
            let t = lock(tally);
            open.iter()
                .copied()
                .filter(|&(cell, d)| !t.saturated(cell, d))
                .collect()
        };
        let serial = budget == u64::MAX || threads == 1 || asking.len() < threads;
        let each = Options {
            threads: if serial { threads } else { 1 },
            ..options.clone()
        };
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let all = Mutex::new(Asked::default());
        let work = || {
            let mut mine = Asked::default();
            while !stop.load(Relaxed) {
                let Some(&at) = asking.get(next.fetch_add(1, Relaxed)) else {
                    break;
                };
                if let Some(q) = question(puzzle, tally, at, &each, budget) {
                    mine.note(at, q);
                    if mine.stopped.is_some() {
                        stop.store(true, Relaxed);
                    }
                }
            }
            lock(&all).merge(mine);
        };
        if serial {
            work();
        } else {
            on_workers(threads, work);
        }
        let mut asked = take(all);
        asked.left.sort_unstable();
        self.result.searches += asked.searches;
        self.result.stats += asked.stats;
        match asked.stopped {
            Some(reason) => Err(reason),
            None => Ok(asked.left),
        }
    }
}

/// Search `puzzle` with `options` and about `budget` nodes at most (the search looks at its
/// budget every [`FLUSH_EVERY`] nodes) into `sink`: how it ended, and its statistics.
fn budgeted<S: Sink + Send>(
    puzzle: &Puzzle,
    options: &Options,
    budget: u64,
    sink: &mut S,
) -> (Ended, Stats) {
    let shared = options.shared();
    shared.set_node_budget(budget);
    let o = search_in(puzzle, options, &shared, sink);
    let ended = match o.stopped {
        None | Some(StopReason::Limit) => Ended::Done,
        Some(StopReason::Budget) => Ended::Budget,
        Some(reason) => Ended::Stopped(reason),
    };
    (ended, o.stats)
}

/// Ask about digit index `d` of `cell` with `budget` nodes (a search of `puzzle` with that
/// one more given, stopped at the cap) and count what it finds into `tally`; `None` where the
/// digit has been seen `cap` times already.
fn question(
    puzzle: &Puzzle,
    tally: &Mutex<Tally>,
    (cell, d): (usize, usize),
    options: &Options,
    budget: u64,
) -> Option<(Ended, Stats)> {
    if lock(tally).saturated(cell, d) {
        return None;
    }
    let mut one_more = puzzle.clone();
    one_more.set(cell, d as u8 + 1);
    let mut sink = Grids::new(puzzle.shape(), false);
    let asked = budgeted(&one_more, options, budget, &mut sink);
    let mut tally = lock(tally);
    for g in sink.iter() {
        tally.add(g);
    }
    Some(asked)
}

/// What the workers of one round's questions found: the candidates left undecided, their
/// searches' statistics, and why they were stopped, if they were.
#[derive(Default)]
struct Asked {
    left: Vec<(usize, usize)>,
    stats: Stats,
    searches: u64,
    stopped: Option<StopReason>,
}

impl Asked {
    fn note(&mut self, at: (usize, usize), (ended, stats): (Ended, Stats)) {
        self.searches += 1;
        self.stats += stats;
        match ended {
            Ended::Done => {}
            Ended::Budget => self.left.push(at),
            Ended::Stopped(reason) => self.stopped = Some(reason),
        }
    }

    fn merge(&mut self, other: Asked) {
        self.left.extend(other.left);
        self.stats += other.stats;
        self.searches += other.searches;
        self.stopped = self.stopped.or(other.stopped);
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
    candidates_with(puzzle, options, cap, Budgets::DEFAULT)
}

/// [`candidates`] with the node budgets of its rounds given.
pub(crate) fn candidates_with(
    puzzle: &Puzzle,
    options: &Options,
    cap: u64,
    budgets: Budgets,
) -> Candidates {
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
    let mut tally = Tally::new(shape, cap);
    // The first search: its solutions cover candidates; if it ends below the cap, it saw
    // every solution and every count is exact.
    let mut sink = Grids::new(shape, true);
    let first = search(puzzle, &each, &mut sink);
    result.searches += 1;
    result.stats += first.stats;
    if first.conflict.is_some() {
        result.conflict = first.conflict;
        return result;
    }
    let exhausted = first.complete();
    if let (Some(reason), false) = (first.stopped, first.solutions >= u128::from(cap)) {
        result.stopped = Some(reason);
    }
    let more = !exhausted && result.stopped.is_none();
    if more {
        for g in sink.iter() {
            tally.add(g);
        }
    } else {
        // No search follows (every solution seen, or a timeout or Ctrl-C): the counts as they
        // are (remembering millions of solutions, a large cap's, took seconds after Ctrl-C).
        tally.absorb(&sink.counts);
    }
    if more {
        // The digits propagation leaves open: the only ones worth asking about.
        let open: Vec<(usize, usize)> = Generic::new(puzzle)
            .map(|g| g.candidate_masks())
            .unwrap_or_default()
            .iter()
            .enumerate()
            .flat_map(|(cell, &mask)| {
                (0..n)
                    .filter(move |&d| mask >> d & 1 != 0)
                    .map(move |d| (cell, d))
            })
            .collect();
        let tally = Mutex::new(tally);
        // Sweeps run on the generic engine (see `Sink::dull`); where the puzzle runs on
        // another, questions alone (classic 9×9 and big boards, whose engines refute wrong
        // digits fast, and where a sweep's nodes would cost several of theirs): on one thread
        // each to its end; on more, in rounds, so that they can be shared among the threads.
        let budgets = if runs_generic(puzzle, options.engine) {
            budgets
        } else if options.threads > 1 {
            Budgets {
                sweep_first: 0,
                ..budgets
            }
        } else {
            Budgets::QUESTIONS
        };
        let decided = Rounds {
            puzzle,
            options: &each,
            budgets,
            tally: &tally,
            result: &mut result,
        }
        .decide(open, first.stats.nodes);
        if let Err(reason) = decided {
            result.stopped = Some(reason);
        }
        result.counts = take(tally).counts;
        return result;
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
                    let want = by_enumeration(&p, cap);
                    for budgets in [Budgets::DEFAULT, Budgets::QUESTIONS, Budgets::SWEEP] {
                        let got = candidates_with(&p, &Options::default(), cap, budgets);
                        assert!(got.complete());
                        assert_eq!(got.counts, want, "{p:?} cap {cap} {budgets:?}");
                    }
                }
            }
        }
    }

    /// Digits outside 1..=N have no solutions through them (the count of digit N + 1 read
    /// the next cell's digit 1).
    #[test]
    fn digits_off_the_board_count_nothing() {
        let p = Puzzle::new(
            Shape::new(2, 2).unwrap(),
            vec![1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        )
        .unwrap();
        let c = candidates(&p, &Options::default(), 8);
        assert_eq!((c.count(0, 1), c.count(2, 3), c.count(2, 1)), (8, 8, 0));
        assert_eq!((c.count(0, 0), c.count(1, 5), c.count(15, 255)), (0, 0, 0));
        assert_eq!(c.digits(2), [3, 4]);
    }

    /// On three workers (searches split after a serial try of a few nodes), a classic 9×9
    /// puzzle's questions go in rounds shared among the workers, where one thread asks each
    /// to its end: the same counts as enumeration. 217 and 231 solutions (multi_truth_dev).
    #[test]
    fn agree_with_enumeration_on_three_workers() {
        let pool = crate::solver::test_pool(3);
        let three = Options {
            threads: 3,
            ..Options::default()
        };
        for (line, all) in [
            (
                ".9.5.2.....8..........1...6..1.7.5.48..6......3.......1....6..5..2...4...5.9...32",
                217,
            ),
            (
                ".34286.5..8..13..41.2.7..8...1...7.842.86...........4..4.69857......1............",
                231,
            ),
        ] {
            let p = crate::parse::parse_one(line, &Default::default()).unwrap();
            assert_eq!(solutions(&p, &Options::default()).len(), all);
            for cap in [1, 8] {
                let want = by_enumeration(&p, cap);
                let got = pool.install(|| {
                    crate::solver::TRY_BUDGET.set(Some(5));
                    let c = candidates(&p, &three, cap);
                    crate::solver::TRY_BUDGET.set(None);
                    c
                });
                assert!(got.complete());
                assert_eq!(got.counts, want, "{line} cap {cap}");
                assert!(got.searches > 1, "questions were asked");
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
