//! The one search routine behind every mode: pick the engine for the shape, probe serially,
//! split across workers when the tree turns out big, and report an [`Outcome`].

pub(crate) mod ctx;
pub mod parallel;
mod shared;

pub use ctx::Ctx;
pub use shared::{Shared, StopReason};

use crate::engine::bands::{self, Plan};
use crate::engine::select::with_engine;
use crate::engine::{Engine, EngineChoice};
use crate::puzzle::{Conflict, Puzzle};
use crate::shape::Shape;
use crate::sink::{CollectSink, CountSink, Sink, Stats};
use std::ops::ControlFlow;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Workers for one puzzle (1 = serial). Uses the current rayon pool.
    pub threads: usize,
    /// Which engine runs 9×9 puzzles.
    pub engine: EngineChoice,
    /// How count-only searches (no solutions wanted, no limit under 2^16) count.
    pub count_by: CountBy,
}

/// How a count-only search counts (see `engine::bands`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CountBy {
    /// The plain search for a few thousand nodes; if it has not finished, counting by bands.
    #[default]
    Auto,
    /// Always the plain search (with the 9×9 engine's table of subtree counts).
    Search,
    /// Counting by bands from the start.
    Bands,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            engine: EngineChoice::Auto,
            count_by: CountBy::Auto,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions accepted (exact when `stopped` is `None`; at most the limit).
    pub solutions: u128,
    /// Why the search stopped early; `None` when it exhausted the tree.
    pub stopped: Option<StopReason>,
    /// Nodes, guesses, solutions summed over workers.
    pub stats: Stats,
    /// Clashing givens: the puzzle is invalid and was not searched.
    pub conflict: Option<Conflict>,
}

/// The answer to "how many solutions?" in the four words users ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// Two or more (the count may be a lower bound when a limit stopped the search).
    Multiple,
    /// No solution although the givens do not clash.
    Unsolvable,
    /// Givens clash in a row, column or box.
    Invalid,
    /// The search was cut short (timeout, Ctrl-C) before the verdict was known.
    Unknown,
}

impl Verdict {
    /// The word used in output: `unique`, `multiple`, `unsolvable`, `invalid`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Unsolvable => "unsolvable",
            Verdict::Invalid => "invalid",
            Verdict::Unknown => "unknown",
        }
    }
}

impl Outcome {
    /// True when the whole tree was searched (the count is exact).
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }

    /// The verdict: complete searches and limit stops are decisive; other stops are only
    /// decisive once two solutions were seen.
    pub fn verdict(&self) -> Verdict {
        if self.conflict.is_some() {
            return Verdict::Invalid;
        }
        match (self.solutions, self.stopped) {
            (n, _) if n >= 2 => Verdict::Multiple,
            (0, None) => Verdict::Unsolvable,
            (1, None) => Verdict::Unique,
            _ => Verdict::Unknown,
        }
    }
}

/// Nodes the serial probe may visit before a multi-threaded search splits the tree.
fn probe_budget(shape: Shape) -> u64 {
    ((1u64 << 22) / shape.cells() as u64).clamp(2048, 50_000)
}

/// Search `puzzle` with the limit, cancel flag and deadline in `shared`. Each sub-problem gets a
/// sink from `make_sink(i)` and hands it back through `finish(i, sink)` when done; a serial run
/// uses sub-problem 0 only. Solutions reach sinks in search order within each sub-problem.
pub fn search<S, M, F>(
    puzzle: &Puzzle,
    options: &Options,
    shared: &Shared,
    make_sink: M,
    finish: F,
) -> Outcome
where
    S: Sink,
    M: Fn(usize) -> S + Sync,
    F: Fn(usize, S) + Sync,
{
    // Clashing givens give no root state (see `Engine::new`), so the clash check, which names
    // the two givens, only runs for puzzles without one: a batch of valid puzzles skips it.
    let by_bands = options.count_by != CountBy::Search
        && !S::NEEDS_GRID
        && shared.limit().map_or(true, |n| n >= BANDS_LIMIT);
    let stats = if by_bands {
        count_by_bands(puzzle, options, shared, make_sink, finish)
    } else {
        with_engine!(puzzle, options.engine, |root| {
            run_engine(
                &root,
                puzzle.shape(),
                options,
                shared,
                make_sink,
                finish,
                None,
            )
        })
    };
    match stats {
        Some(stats) => Outcome {
            solutions: stats.solutions,
            stopped: shared.stopped(),
            stats,
            conflict: None,
        },
        None => Outcome {
            solutions: 0,
            stopped: None,
            stats: Stats::default(),
            conflict: puzzle.conflict(),
        },
    }
}

/// Counting by bands runs for count-only searches without a limit or with one at least this
/// large (small limits end in a few nodes anyway).
const BANDS_LIMIT: u64 = 1 << 16;

/// Nodes of the plain search before counting turns to bands: puzzles with few solutions are
/// done by then, before any orientation is measured.
const PLAIN_NODES: u64 = 1 << 13;

/// Random dives per orientation when choosing how to turn a puzzle for counting by bands.
const ORIENT_PROBES: usize = 24;

/// The cost of a node of the plain search in the unit of [`bands::cost`] (microseconds,
/// roughly), for choosing between the two: a little above what 12×12 nodes cost here.
const PLAIN_NODE_COST: f64 = 0.4;

/// [`search`] for count-only sinks: the plain search first, for [`PLAIN_NODES`] nodes (its
/// count kept privately; none with [`CountBy::Bands`]); if it has not finished, counting by
/// bands on the orientation of the puzzle with the least estimated cost ([`bands::cost`]),
/// unless that costs more than the plain search's whole tree (extrapolated from the attempt)
/// would, in which case the plain search runs again, to the end. The statistics, or `None`
/// when the puzzle has no root state.
fn count_by_bands<S, M, F>(
    puzzle: &Puzzle,
    options: &Options,
    shared: &Shared,
    make_sink: M,
    finish: F,
) -> Option<Stats>
where
    S: Sink,
    M: Fn(usize) -> S + Sync,
    F: Fn(usize, S) + Sync,
{
    // The plain search's tree size, extrapolated from the share of it the attempt finished.
    let mut plain_nodes = f64::INFINITY;
    let plain = if options.count_by == CountBy::Bands {
        None
    } else {
        with_engine!(puzzle, options.engine, |root| {
            shared.set_node_budget(PLAIN_NODES);
            let stats = {
                let mut sink = CountSink;
                let mut ctx = Ctx::new(&mut sink, shared).with_tables(false);
                let _ = root.search(&mut ctx, 1.0);
                ctx.stats
            };
            shared.set_node_budget(u64::MAX);
            let done = shared.fraction_done();
            if done > 0.0 {
                plain_nodes = stats.nodes as f64 / done;
            }
            (shared.stopped() != Some(StopReason::Budget)).then_some(stats)
        })?
    };
    if let Some(stats) = plain {
        // Finished (or stopped by the limit or from outside): hand the count over.
        let mut sink = make_sink(0);
        let flow = sink.count(stats.solutions.min(u128::from(u64::MAX)) as u64);
        if flow.is_break() && shared.stopped().is_none() {
            shared.request_stop(StopReason::Sink);
        }
        finish(0, sink);
        return Some(stats);
    }
    shared.reset();
    let mut best: Option<(f64, Puzzle)> = None;
    for o in bands::orientations(puzzle) {
        let turned = o.apply(puzzle);
        let cost = with_engine!(&turned, options.engine, |root| {
            Plan::new(turned.shape(), &root.values()).map_or(f64::INFINITY, |plan| {
                bands::cost(&root, &plan, ORIENT_PROBES, 1)
            })
        });
        let cost = cost.unwrap_or(f64::INFINITY);
        if best.as_ref().map_or(true, |(c, _)| cost < *c) {
            best = Some((cost, turned));
        }
    }
    if best
        .as_ref()
        .map_or(true, |(cost, _)| *cost > PLAIN_NODE_COST * plain_nodes)
    {
        // Counting by bands looks dearer than the plain search (sparse givens on boards whose
        // first band has many fillings): search plainly, as `CountBy::Search` does.
        return with_engine!(puzzle, options.engine, |root| {
            run_engine(
                &root,
                puzzle.shape(),
                options,
                shared,
                make_sink,
                finish,
                None,
            )
        });
    }
    let turned = best.map_or_else(|| puzzle.clone(), |(_, p)| p);
    with_engine!(&turned, options.engine, |root| {
        let plan = Plan::new(turned.shape(), &root.values());
        run_engine(
            &root,
            puzzle.shape(),
            options,
            shared,
            make_sink,
            finish,
            plan.as_ref(),
        )
    })
}

fn run_engine<E, S, M, F>(
    root: &E,
    shape: Shape,
    options: &Options,
    shared: &Shared,
    make_sink: M,
    finish: F,
    plan: Option<&Plan>,
) -> Stats
where
    E: Engine,
    S: Sink,
    M: Fn(usize) -> S + Sync,
    F: Fn(usize, S) + Sync,
{
    if options.threads <= 1 {
        let mut sink = make_sink(0);
        let stats = {
            let mut ctx = Ctx::new(&mut sink, shared).with_bands(plan);
            let _ = root.search(&mut ctx, 1.0);
            ctx.stats
        };
        finish(0, sink);
        return stats;
    }
    // Probe: most puzzles finish in microseconds; don't spawn for them. The probe keeps what it
    // finds to itself, so a probe that runs out of budget is simply thrown away.
    shared.set_node_budget(probe_budget(shape));
    let (probe_stats, grids, counted) = if S::NEEDS_GRID {
        let mut collect = CollectSink::default();
        let stats = probe(root, shared, &mut collect, None);
        (stats, collect.solutions, 0)
    } else {
        let stats = probe(root, shared, &mut CountSink, plan);
        (stats, Vec::new(), stats.solutions)
    };
    shared.set_node_budget(u64::MAX);
    if shared.stopped() != Some(StopReason::Budget) {
        let mut sink = make_sink(0);
        let mut flow = ControlFlow::Continue(());
        for g in &grids {
            flow = sink.solution(g);
            if flow.is_break() {
                break;
            }
        }
        if counted > 0 && flow.is_continue() {
            flow = sink.count(counted as u64);
        }
        if flow.is_break() && shared.stopped().is_none() {
            shared.request_stop(StopReason::Sink);
        }
        finish(0, sink);
        return probe_stats;
    }
    shared.reset();
    // Many more pieces than workers: balance comes from the number of pieces, not from guessing
    // their size. Fewer for big boards, whose states are large.
    let per_worker = if shape.cells() <= 144 { 256 } else { 32 };
    let subs = parallel::split(root, options.threads * per_worker, shared, plan);
    parallel::run(&subs, options.threads, shared, make_sink, finish, plan)
}

fn probe<E: Engine, S: Sink>(
    root: &E,
    shared: &Shared,
    sink: &mut S,
    plan: Option<&Plan>,
) -> Stats {
    let mut ctx = Ctx::new(sink, shared).with_bands(plan);
    let _ = root.search(&mut ctx, 1.0);
    ctx.stats
}

/// Count solutions, stopping at `limit` (exactly). A convenience over [`search`].
pub fn count(puzzle: &Puzzle, limit: Option<u64>, options: &Options) -> Outcome {
    let shared = Shared::new(limit);
    search(puzzle, options, &shared, |_| CountSink, |_, _| {})
}

/// The first `limit` solutions in search order (serial), as row-major value vectors.
pub fn solutions(puzzle: &Puzzle, limit: u64) -> Vec<Vec<u8>> {
    let shared = Shared::new(Some(limit));
    let out = std::sync::Mutex::new(Vec::new());
    search(
        puzzle,
        &Options::default(),
        &shared,
        |_| CollectSink::default(),
        |_, s: CollectSink| {
            out.lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(s.solutions)
        },
    );
    out.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// True when the puzzle has exactly one solution (count up to 2).
pub fn is_unique(puzzle: &Puzzle) -> bool {
    count(puzzle, Some(2), &Options::default()).verdict() == Verdict::Unique
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine(s: &str) -> Puzzle {
        let cells = s
            .bytes()
            .map(|b| if b == b'.' || b == b'0' { 0 } else { b - b'0' })
            .collect();
        Puzzle::new(Shape::NINE, cells).unwrap()
    }

    #[test]
    fn verdicts() {
        let unique = nine(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        );
        assert_eq!(
            count(&unique, Some(2), &Options::default()).verdict(),
            Verdict::Unique
        );
        let invalid = nine(&format!("11{}", ".".repeat(79)));
        let o = count(&invalid, Some(2), &Options::default());
        assert_eq!(o.verdict(), Verdict::Invalid);
        let c = o.conflict.unwrap();
        assert_eq!(
            (c.first.as_str(), c.second.as_str(), c.house.as_str()),
            ("r1c1", "r1c2", "row 1")
        );
        let unsolvable = nine(
            "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..",
        );
        assert_eq!(
            count(&unsolvable, Some(2), &Options::default()).verdict(),
            Verdict::Unsolvable
        );
        let empty = Puzzle::empty(Shape::NINE);
        let o = count(&empty, Some(2), &Options::default());
        assert_eq!(
            (o.verdict(), o.solutions, o.complete()),
            (Verdict::Multiple, 2, false)
        );
    }

    #[test]
    fn parallel_equals_serial() {
        let p = Puzzle::empty(Shape::new(2, 3).unwrap());
        let mut p2 = p.clone();
        // fix the first row: 28,200,960 / 720 = 39,168 completions
        for (i, v) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
            p2.set(i, v);
        }
        let serial = count(&p2, None, &Options::default());
        assert_eq!(serial.solutions, 39_168);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let par = pool.install(|| {
            count(
                &p2,
                None,
                &Options {
                    threads: 3,
                    ..Options::default()
                },
            )
        });
        assert_eq!(par.solutions, 39_168);
        assert!(par.complete());
    }

    #[test]
    fn solutions_respect_the_limit() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let sols = solutions(&p, 10);
        assert_eq!(sols.len(), 10);
        assert!(sols.iter().all(|s| p.is_solution(s)));
        assert_eq!(solutions(&p, 1000).len(), 288);
    }
}
