//! The solver: the one search routine behind every mode. Pick the engine for the shape, try
//! serially, split across workers when the tree turns out big, and report an [`Outcome`].
//!
//! - this file: [`Options`], [`search`] and its conveniences, the count-mode strategy
//!   (counting by bands or not);
//! - `shared`: the state every worker of one search shares (the exact limit, the stop flag,
//!   progress counters), and the [`Cancel`] and [`Progress`] handles on it;
//! - `ctx`: a worker's view ([`Ctx`]): what the engines report to;
//! - `parallel`: splitting the tree into sub-problems and running them on rayon;
//! - `pool`: the global rayon pool, started when a search first splits.

pub(crate) mod ctx;
pub(crate) mod parallel;
mod pool;
pub(crate) mod shared;

pub use ctx::Ctx;
pub use pool::start_global_pool;
pub use shared::{Cancel, Progress, Shared, StopReason};

use crate::engine::bands::{self, Estimate, Plan};
use crate::engine::select::with_engine;
use crate::engine::{Engine, EngineChoice};
use crate::puzzle::{Conflict, Puzzle};
use crate::shape::Shape;
use crate::sink::{CollectSink, CountSink, Sink, Stats};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// The worker threads a front end runs for `requested`: as asked, or (`None`, or 0 as ripgrep
/// reads `-j 0`) every core the process may use. The cores are read once: asking costs some
/// microseconds (cgroup files), more than a whole small search. The command line and the Python
/// package both ask here.
pub fn worker_threads(requested: Option<usize>) -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    match requested {
        Some(n) if n > 0 => n,
        _ => *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// How to search: how many threads, when to stop, and a handle to stop it from outside.
///
/// ```
/// use std::time::Duration;
/// use sudoku_enum::{count, Cancel, Options, Puzzle, Shape};
///
/// let cancel = Cancel::new(); // keep a clone; `cancel.cancel()` from any thread stops the search
/// let options = Options {
///     limit: Some(1000),
///     timeout: Some(Duration::from_secs(10)),
///     cancel: Some(cancel.clone()),
///     ..Options::default()
/// };
/// let outcome = count(&Puzzle::empty(Shape::NINE), &options);
/// assert_eq!((outcome.solutions, outcome.complete()), (1000, false));
/// ```
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads for this one search (1, the default, and 0: serial). More split the
    /// search tree across the current rayon pool once a serial try shows it is big. (The front
    /// ends' `-j 0` and `threads=0`, every core, go through [`worker_threads`] first.)
    pub threads: usize,
    /// Stop after exactly this many solutions (`None`: search the whole tree).
    pub limit: Option<u64>,
    /// Give up after this long ([`StopReason::TimedOut`]); the clock starts with the search.
    pub timeout: Option<Duration>,
    /// Give up at this instant ([`StopReason::TimedOut`]): one deadline for many searches.
    pub deadline: Option<Instant>,
    /// Stop when this handle is cancelled ([`StopReason::Cancelled`]).
    pub cancel: Option<Cancel>,
    /// Report progress here (nodes, solutions, fraction of the tree done) for another thread
    /// to read while the search runs.
    pub progress: Option<Progress>,
    /// Which engine runs the search (a cross-check; the default picks by shape).
    pub engine: EngineChoice,
    /// How count-only searches (no solutions wanted, no limit under 2^16) count.
    pub count_by: CountBy,
    /// Where a count goes by bands, count on this turn of the puzzle, not the one the
    /// estimates pick: its index among the turns (on 9×9, 0–2 each band first and the other
    /// two in order, 3–5 the same on the transposed board; see `engine::bands::orient`), where
    /// the board has it, else by the plain search. For measuring the choice of turn (the
    /// command line's hidden `count --turn`, which also counts by bands); `None` by default.
    #[doc(hidden)]
    pub turn: Option<usize>,
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
            limit: None,
            timeout: None,
            deadline: None,
            cancel: None,
            progress: None,
            engine: EngineChoice::Auto,
            count_by: CountBy::Auto,
            turn: None,
        }
    }
}

impl Options {
    /// The state the workers of one search with these options share; the timeout's clock
    /// starts now.
    pub(crate) fn shared(&self) -> Shared<'_> {
        let timeout = self.timeout.map(|t| Instant::now() + t);
        let deadline = match (timeout, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Shared::new(self.limit)
            .with_deadline(deadline)
            .with_cancel(self.cancel.as_ref())
            .with_progress(self.progress.as_ref())
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions accepted (exact when `stopped` is `None`; at most the limit). After a stop
    /// (timeout, Ctrl-C) a lower bound, and a loose one for a count by bands: a boundary's
    /// completions are added only once they are all counted, so an early stop may report
    /// few or none.
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
    /// The search stopped (a limit below 2, the sink, a timeout, Ctrl-C) before the verdict
    /// was known.
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

    /// The verdict: a complete search is decisive; a stopped one (a limit, the sink, a timeout,
    /// Ctrl-C) only once two solutions were seen (`Multiple`), else `Unknown` (a limit of 1
    /// proves nothing about a second solution).
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

/// Pieces per worker where a split search goes on from its serial try (see [`run_engine`]).
const RESUMED_PER_WORKER: usize = 64;

/// The nodes of this search's serial try: [`serial_budget`]'s, or in tests what
/// [`TRY_BUDGET`] says on this thread (and then the workers flush, and may stop, at every node).
fn try_budget(shape: Shape, resumes: bool, bands: bool, _shared: &Shared) -> u64 {
    #[cfg(test)]
    if let Some(nodes) = TRY_BUDGET.get() {
        _shared
            .flush_every
            .store(1, std::sync::atomic::Ordering::Relaxed);
        return nodes;
    }
    let budget = serial_budget(shape, resumes);
    if bands {
        budget.min(BANDS_TRY)
    } else {
        budget
    }
}

/// Tests: a pool of `threads` workers with the stack a search needs ([`SEARCH_STACK`]).
#[cfg(test)]
pub(crate) fn test_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(SEARCH_STACK)
        .build()
        .expect("a pool of test threads")
}

/// Tests: the empty 6×6 (2×3 boxes) with the anti-king rule, 74,160 solutions: a small
/// search where rules choose the branches.
#[cfg(test)]
pub(crate) fn anti_king_six() -> Puzzle {
    let mut rules = crate::rules::Rules::new();
    rules.push(crate::rules::Rule::AntiKing);
    Puzzle::empty(Shape::new(2, 3).expect("a 2x3 box")).with_checked_rules(rules)
}

#[cfg(test)]
thread_local! {
    /// A serial try of this many nodes for the searches started on this thread (tests: small
    /// searches split after a few nodes, so that the try's part and what it left are checked).
    pub(crate) static TRY_BUDGET: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Nodes the serial try may visit before a multi-threaded search splits the tree: enough that
/// the searches that end in microseconds never start a thread.
///
/// Where the engine keeps what the try left ([`Engine::resumes`]: the rules' conflict scores
/// choose, and the try's work stands), [`RESUMED_TRY`]; else the try is thrown away when it
/// runs out, and the budget grows with the board, up to 50,000 nodes.
fn serial_budget(shape: Shape, resumes: bool) -> u64 {
    if resumes {
        return RESUMED_TRY;
    }
    ((1u64 << 22) / shape.cells() as u64).clamp(2048, 50_000)
}

/// The serial try of a count by bands (the nodes of its search and its tails' combinations,
/// see `bands::Watch`): the plain attempt before it has shown that its tree is not small, and
/// the try is thrown away when it runs out (what its tails counted stays in the shared
/// tables). With 50,000 (the 9×9 budget) sparse counts of 20–130 ms on one thread took as long
/// on two, or longer (much of their work done in the try, then again split). With 8,192 (and
/// the tables shared from the try on), 41 sparse and truth-file counts took 0.78 of that wall
/// time on two threads (this project's 2-core machine), 1.07–1.1 times less than on one in
/// all: the larger up to 1.3 times less, the smallest (20 ms) a few ms more, for the second
/// worker's tables and the split. A batch of 150 small 6×6 counts took as long as before.
const BANDS_TRY: u64 = 8192;

/// The serial try where the engine keeps what it left: a node with rules costs up to about
/// 30 µs (50,000 of a hard killer took a second). On this project's 2-core machine, every ISS
/// collection puzzle sudoku-enum answers (143) checked in a process of its own, `check -j2`:
/// 18.4 s in all with a try of 50,000 nodes, 13.3 s with 6,000, 12.2–13.1 s with 2,000, 12.5 s
/// with 1,000 and 12.9 s with 500; "MATHEMAGIC_KILLERS" #0–#11 13.7–14.2 s to 9.6–9.7 s (6,000);
/// the 115 that take under 50 ms the same (0.35 s). (A measurement on an older build had
/// found an eighth of 50,000 9% slower on 137 of them, on two threads.)
const RESUMED_TRY: u64 = 2048;

/// Search `puzzle` as `options` say, pushing each solution into `sink`: the one search behind
/// every mode. A serial search uses `sink` itself, in search order. A search split across
/// threads gives each piece of the tree (numbered in search order) its own sink,
/// [`Sink::fork`], and hands it back through [`Sink::join`] when that piece is done; solutions
/// reach each piece's sink in search order.
///
/// The search recurses once per branching: a large board can need more stack than a thread
/// started with `std::thread::spawn` has (2 MiB; a 64×64 needs about 4 MiB in a release
/// build), and overflowing it aborts the process. Call it on the main thread or on threads
/// built with [`SEARCH_STACK`].
///
/// ```
/// use std::ops::ControlFlow;
/// use sudoku_enum::{search, FnSink, Options, Puzzle, Shape, Verdict};
///
/// let mut sink = FnSink(|grid: &[u8]| {
///     println!("{:?}", &grid[..4]);
///     ControlFlow::Continue(())
/// });
/// let options = Options { limit: Some(3), ..Options::default() };
/// let outcome = search(&Puzzle::empty(Shape::new(2, 2).unwrap()), &options, &mut sink);
/// assert_eq!((outcome.solutions, outcome.verdict()), (3, Verdict::Multiple));
/// ```
pub fn search<S: Sink + Send>(puzzle: &Puzzle, options: &Options, sink: &mut S) -> Outcome {
    search_in(puzzle, options, &options.shared(), sink)
}

/// [`search`] with the shared state made by the caller (a node budget, a limit other than
/// `options.limit`, counters to watch).
pub fn search_in<S: Sink + Send>(
    puzzle: &Puzzle,
    options: &Options,
    shared: &Shared,
    sink: &mut S,
) -> Outcome {
    // A pool's workers (the caller's `install`) have the stack their pool was built with, and
    // the search must split in that pool.
    if cfg!(debug_assertions) && !ON_SEARCH_STACK.get() && rayon::current_thread_index().is_none() {
        return on_search_stack(|| search_here(puzzle, options, shared, sink));
    }
    search_here(puzzle, options, shared, sink)
}

thread_local! {
    /// Whether this thread was started by [`on_search_stack`].
    static ON_SEARCH_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run `f` on a thread with [`SEARCH_STACK`], waiting for it: what a debug build's search
/// needs (its frames take more than 16 MiB on an empty 9×9, where a release build's take less
/// than 2 MiB), so that a debug build of a program or of the tests does not overflow the
/// caller's stack ([`search_in`] does so outside rayon pools). Where no thread can be started,
/// `f` runs here.
pub(crate) fn on_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    // Taken by the thread, or left here when none starts.
    let slot = std::sync::Mutex::new(Some(f));
    let take = || slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    let ran = std::thread::scope(|scope| {
        let started = std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || {
                ON_SEARCH_STACK.set(true);
                take().map(|f| f())
            });
        match started.map(|t| t.join()) {
            Ok(Ok(out)) => out,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => None,
        }
    });
    match (ran, take()) {
        (Some(out), _) => out,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the thread that took `f` answered"),
    }
}

/// [`search_in`] on this thread.
fn search_here<S: Sink + Send>(
    puzzle: &Puzzle,
    options: &Options,
    shared: &Shared,
    sink: &mut S,
) -> Outcome {
    // Clashing givens give no root state (see `Engine::new`), so the clash check, which names
    // the two givens, only runs for puzzles without one: a batch of valid puzzles skips it.
    // Variant rules cross bands: no counting by bands for them.
    let by_bands = options.count_by != CountBy::Search
        && puzzle.is_classic()
        && !S::NEEDS_GRID
        && shared.limit().is_none_or(|n| n >= BANDS_LIMIT);
    let stats = if by_bands {
        count_by_bands(puzzle, options, shared, sink)
    } else {
        with_engine!(puzzle, options.engine, |root| {
            run_engine(&root, puzzle.shape(), options, shared, sink, None)
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

/// The stack a thread needs to run a search on any board: the search recurses once per
/// branching, up to a level per cell (4,096 on 64×64, about 4 MiB in a release build; debug
/// builds use many times more per level, beyond the 8 MiB of a main thread even on 9×9).
/// Threads that run searches, a rayon pool's workers included (their default is 2 MiB), should
/// be built with it: `rayon::ThreadPoolBuilder::new().stack_size(sudoku_enum::SEARCH_STACK)`.
/// A search that splits with no pool started starts the global one so
/// ([`start_global_pool`]). In a debug build, [`search`] called outside a rayon pool runs on a
/// thread of its own with this stack.
/// Address space only: the pages a search does not reach are never touched.
pub const SEARCH_STACK: usize = if cfg!(debug_assertions) {
    1 << 30
} else {
    64 << 20
};

/// Counting by bands runs for count-only searches without a limit or with one at least this
/// large (small limits end in a few nodes anyway).
const BANDS_LIMIT: u64 = 1 << 16;

/// Nodes of the plain search before counting turns to bands: puzzles with few solutions are
/// done by then, before any orientation is measured.
const PLAIN_NODES: u64 = 1 << 13;

/// The first stage of the plain attempt on boards up to 9×9 ([`PLAIN_NODES`] the second):
/// most puzzles with few solutions are done by then.
const PLAIN_FIRST: u64 = 1 << 11;

/// A plain tree extrapolated from the first stage to more nodes than this skips the second,
/// which it would not finish (on 40 sparse 9×9 puzzles with 10⁴–5·10⁶ solutions, none
/// finished in [`PLAIN_NODES`]; the two stages' extrapolations were within 4 times of each
/// other). The second stage's nodes cost about 1 ms. Not on larger boards: there the first
/// stage's nodes cost 2 ms, which the 12×12 puzzles that go on lost (13.4 s to 13.7 s on 24
/// sparse ones).
const PLAIN_FAR: f64 = (1u64 << 17) as f64;

/// Random dives per orientation when choosing how to turn a puzzle for counting by bands
/// ([`choose_turn`]), and per round of the further dives for close estimates.
const ORIENT_PROBES: usize = 24;

/// [`ORIENT_PROBES`] for turns whose estimates go on below the next band
/// ([`Estimate::deep`]): a dive reaches the deep bands' large tails rarely. With 24 dives the
/// estimate of one sparse 15×15 count (5 bands) came 60 times below the time the count took,
/// with 96 within 2 times.
const DEEP_PROBES: usize = 96;

/// Dives per orientation before the turns far dearer than the best are dropped (see
/// [`choose_turn`]; where the estimates are fitted, boards of three bands, or go on below the
/// next band, [`Estimate::deep`]). Of the six turns
/// of a sparse 9×9 puzzle none to four are dropped (about two on average): on 60 sparse
/// puzzles with 10⁴–5·10⁷ solutions no count took 0.1% more instructions (callgrind), and
/// they took 1–1.6% fewer in all (up to 11% on the smaller counts).
const ORIENT_FIRST: usize = 8;

/// The share of the best turn's estimated cost that further dives may take (see
/// [`choose_turn`]): close estimates get more dives only where the count is worth it. With
/// the fitted prices of 28 November (estimates about three times higher, so three times the
/// dives), 0.01 and 0.06 each took 3% more CPU time than 0.03 on 44 held-out sparse 9×9
/// counts.
const ORIENT_SHARE: f64 = 0.03;

/// The most the further dives of [`choose_turn`] may cost (in the unit of [`Estimate`]): turns
/// that are alike (an empty grid's) stay within each other's errors however many dives they
/// get, and the dives do not watch the stop conditions.
const ORIENT_MOST: f64 = 5_000.0;

/// The cost of a dive in the unit of [`Estimate`] (microseconds, roughly: 3.5–6.4 µs
/// measured on 9×9 puzzles; since 28 November the dives of boards of three bands also count
/// the boundaries shared after renaming and the last stack's ways, about 15% more, and this
/// budget unit was left as it was).
const DIVE_COST: f64 = 4.5;

/// The cost of a node of the plain search in the unit of the estimates that are not fitted
/// (boards of two bands, or four and more: about three microseconds, see `OTHER_BANDS` in
/// `src/engine/bands/orient.rs`), for choosing between the two. Both sides are rough (the
/// plain tree extrapolated from the attempt's progress was 18 times too small on one 9×9
/// puzzle), so the value leans to bands. Set on 54 sparse 8×8, 9×9 and 12×12 puzzles with
/// 10⁴–10⁹ solutions: where the bands' estimate came below 0.7 nodes' worth, counting by bands
/// was as fast or up to 30 times faster, but for two puzzles (2.5 times slower); above it,
/// slower every time. The estimates of boards of three bands have their own bar since
/// ([`PLAIN_NODE_MICROS`]).
const PLAIN_NODE_COST: f64 = 0.7;

/// [`PLAIN_NODE_COST`] for the estimates fitted in microseconds (boards of three bands): since
/// their prices were fitted to the turns' times (28 November), they come about 2.9 times
/// higher than before (the median over 95 sparse 9×9 puzzles' turns), so the bar moved with
/// them: 70 sparse 9×9 puzzles with 10⁴–10⁶ solutions (seeds 41 and 42), where the plain
/// search and the bands are closest, took the same CPU time in all (1,054 ms and 1,055 ms).
const PLAIN_NODE_MICROS: f64 = 2.0;

/// [`PLAIN_NODE_COST`] for the estimates that price the bands below the next one
/// ([`Estimate::deep`]) as if no boundary of theirs came twice: the table of counts below
/// boundaries finds some again. Three times: on 72 sparse 12×12 and 15×15 puzzles (10–10⁷
/// solutions), where those estimates came within three times of the plain search's, counting
/// by bands was the faster or near it; further out, up to 70 times slower.
const PLAIN_NODE_DEEP: f64 = 3.0 * PLAIN_NODE_COST;

/// What a plain search node costs in the unit of `estimate`.
fn per_node(estimate: &Estimate) -> f64 {
    if estimate.fitted() {
        PLAIN_NODE_MICROS
    } else if estimate.deep() {
        PLAIN_NODE_DEEP
    } else {
        PLAIN_NODE_COST
    }
}

/// [`search`] for count-only sinks: an empty board whose boxes are two rows high (or two
/// columns wide), up to 8×8, is counted in closed form ([`bands::empty`]; not with
/// [`CountBy::Bands`], which always counts by bands); otherwise the plain search first, for
/// [`PLAIN_NODES`] nodes or fewer
/// ([`plain_attempt`]; none with [`CountBy::Bands`]); if it has not finished, counting by
/// bands on the orientation of the puzzle with the least estimated cost ([`choose_turn`]),
/// unless that costs more than the plain search's whole tree (extrapolated from the attempt)
/// would, in which case the plain search runs again, to the end. The statistics, or `None`
/// when the puzzle has no root state.
fn count_by_bands<S: Sink + Send>(
    puzzle: &Puzzle,
    options: &Options,
    shared: &Shared,
    sink: &mut S,
) -> Option<Stats> {
    if options.count_by == CountBy::Auto && puzzle.givens() == 0 {
        if let Some(grids) = bands::empty::grids(puzzle.shape()) {
            let mut ctx = Ctx::new(sink, shared);
            let _ = ctx.solutions_wide(grids, 1.0);
            return Some(ctx.stats);
        }
    }
    // The plain search's tree size, extrapolated from the share of it the attempt finished.
    let mut plain_nodes = f64::INFINITY;
    let plain = if options.count_by == CountBy::Bands {
        None
    } else {
        let attempt = with_engine!(puzzle, options.engine, |root| {
            plain_attempt(&root, puzzle.shape(), shared)
        })?;
        plain_nodes = attempt.tree;
        attempt.finished
    };
    if let Some(stats) = plain {
        // Finished (or stopped by the limit or from outside): hand the count over.
        let flow = sink.count(stats.solutions.min(u128::from(u64::MAX)) as u64);
        if flow.is_break() && shared.stopped().is_none() {
            shared.request_stop(StopReason::Sink);
        }
        return Some(stats);
    }
    shared.reset();
    let best = choose_turn(puzzle, options, shared).filter(|(nodes, ..)| *nodes <= plain_nodes);
    let Some((_, turned, mut plan)) = best else {
        // Counting by bands looks dearer than the plain search (sparse givens on boards whose
        // first band has many fillings): search plainly, as `CountBy::Search` does.
        return with_engine!(puzzle, options.engine, |root| {
            run_engine(&root, puzzle.shape(), options, shared, sink, None)
        });
    };
    plan.make_keys();
    with_engine!(&turned, options.engine, |root| {
        run_engine(&root, puzzle.shape(), options, shared, sink, Some(&plan))
    })
}

/// What the plain attempt of [`count_by_bands`] found.
#[derive(Debug)]
struct Attempt {
    /// The statistics, where it finished (or was stopped by the limit or from outside).
    finished: Option<Stats>,
    /// The plain search's tree size, extrapolated from the share of it the attempt finished
    /// (infinite where it finished none).
    tree: f64,
    /// The nodes it visited (its last stage), for the tests.
    #[cfg(test)]
    nodes: u64,
}

/// The plain search below `root` for [`PLAIN_NODES`] nodes, its count kept privately. In two
/// stages on boards up to 9×9: a tree that the first ([`PLAIN_FIRST`] nodes) shows to be far
/// beyond the second's budget ([`PLAIN_FAR`]) skips the second.
fn plain_attempt<E: Engine>(root: &E, shape: Shape, shared: &Shared) -> Attempt {
    let stages: &[u64] = if shape.side() <= 9 {
        &[PLAIN_FIRST, PLAIN_NODES]
    } else {
        &[PLAIN_NODES]
    };
    let (mut stats, mut tree) = (Stats::default(), f64::INFINITY);
    for (stage, &budget) in stages.iter().enumerate() {
        if stage > 0 {
            shared.reset();
        }
        shared.set_node_budget(budget);
        stats = {
            let mut sink = CountSink;
            let mut ctx = Ctx::new(&mut sink, shared).with_tables(false);
            let _ = root.search(&mut ctx, 1.0);
            ctx.stats
        };
        shared.set_node_budget(u64::MAX);
        let done = shared.fraction_done();
        if done > 0.0 {
            tree = stats.nodes as f64 / done;
        }
        if shared.stopped() != Some(StopReason::Budget) || tree > PLAIN_FAR {
            break;
        }
    }
    Attempt {
        finished: (shared.stopped() != Some(StopReason::Budget)).then_some(stats),
        tree,
        #[cfg(test)]
        nodes: stats.nodes,
    }
}

/// The orientation of `puzzle` to count by bands ([`bands::orientations`]) with the least
/// estimated cost, that cost in plain search nodes ([`PLAIN_NODE_COST`], [`PLAIN_NODE_MICROS`])
/// and its plan (without keys, see [`Plan::unkeyed`]); `None` when none can be counted so.
/// Every turn gets [`ORIENT_FIRST`] dives; the turns whose estimate exceeds the best's by more
/// than two standard errors (each side's) are dropped, and the rest get [`ORIENT_PROBES`] in
/// all ([`DEEP_PROBES`] where the estimates go on below the next band); then, while another
/// turn's estimate is within one standard error of the best's (each side's error counted),
/// those turns and the best get as many again, as long as the dives stay within
/// [`ORIENT_SHARE`] of the best estimate and [`ORIENT_MOST`] in all.
/// Turns whose bands are two rows high and five or more (10×10 with 2×5 boxes, 12×12 with
/// 2×6, and larger): the dives price only the next band, and below it each of four or more
/// bands multiplies the work unseen. On 33 sparse 10×10 and 12×12 puzzles (10–10⁶ solutions)
/// the estimates came 2 to 100 times below the plain search's tree, and counting by bands took
/// 59 s in all against the plain search's 2.9 s (32.6 s against 0.3 s for one 12×12); it was
/// faster on 3, by at most 0.1 s. So the plain search counts them (unless `--count-by bands`
/// asks for bands).
fn too_deep(shape: Shape) -> bool {
    shape.box_rows() == 2 && shape.side() / 2 >= 5
}

fn choose_turn(puzzle: &Puzzle, options: &Options, shared: &Shared) -> Option<(f64, Puzzle, Plan)> {
    struct Turn {
        puzzle: Puzzle,
        plan: Option<Plan>,
        estimate: Estimate,
    }
    let mut turns: Vec<Turn> = bands::orientations(puzzle)
        .into_iter()
        .map(|o| o.apply(puzzle))
        .filter(|p| options.count_by == CountBy::Bands || !too_deep(p.shape()))
        .map(|puzzle| Turn {
            puzzle,
            plan: None,
            estimate: Estimate::new(1),
        })
        .collect();
    if let Some(i) = options.turn {
        // One turn asked for: the dives only estimate its cost (the plain search is still
        // preferred where that costs less, unless counting by bands was asked for too).
        if i >= turns.len() {
            return None;
        }
        turns = vec![turns.swap_remove(i)];
    }
    let dive = |t: &mut Turn, dives: usize| {
        let dived = with_engine!(&t.puzzle, options.engine, |root| {
            if t.plan.is_none() {
                t.plan = Plan::unkeyed(t.puzzle.shape(), &root.values());
            }
            t.plan
                .as_ref()
                .map(|plan| t.estimate.dive(&root, plan, dives))
        });
        if dived.flatten().is_none() {
            t.estimate = Estimate::infinite();
        }
    };
    // Turns are compared by their estimates as they are, though a 6×6 board's turns of three
    // bands have fitted estimates and its turns of two bands not: compared in plain nodes
    // instead ([`per_node`]), the 6×6 counts of 28 November took 15–21% more instructions.
    let least = |turns: &[Turn]| {
        (0..turns.len()).min_by(|&i, &j| {
            turns[i]
                .estimate
                .mean()
                .total_cmp(&turns[j].estimate.mean())
        })
    };
    // A first round of dives, then the turns far dearer than the best (by two standard errors
    // of each) are dropped before the rest get the full round.
    // A timeout or Ctrl-C during the estimates (a dive of an empty 9×9 takes milliseconds):
    // no turn, and the plain search that follows stops at once.
    for t in &mut turns {
        if shared.must_stop() {
            return None;
        }
        dive(t, ORIENT_FIRST);
    }
    let best = &turns[least(&turns)?].estimate;
    let bound = best.mean() + 2.0 * best.error();
    if bound.is_finite()
        && turns
            .iter()
            .all(|t| t.estimate.fitted() || t.estimate.deep())
    {
        turns.retain(|t| t.estimate.mean() - 2.0 * t.estimate.error() <= bound);
    }
    for t in &mut turns {
        if shared.must_stop() {
            return None;
        }
        let probes = if t.estimate.deep() {
            DEEP_PROBES
        } else {
            ORIENT_PROBES
        };
        dive(t, probes - ORIENT_FIRST);
    }
    let mut spent = 0.0;
    loop {
        let best = least(&turns)?;
        let (mean, error) = (turns[best].estimate.mean(), turns[best].estimate.error());
        let rivals: Vec<usize> = (0..turns.len())
            .filter(|&i| {
                let e = &turns[i].estimate;
                i != best && e.mean() - e.error() <= mean + error
            })
            .collect();
        let more = ((rivals.len() + 1) * ORIENT_PROBES) as f64 * DIVE_COST;
        let close = turns[best].estimate.fitted() && !rivals.is_empty();
        let budget = (ORIENT_SHARE * mean).min(ORIENT_MOST);
        if !mean.is_finite() || !close || spent + more > budget || shared.must_stop() {
            let t = turns.swap_remove(best);
            return match (mean.is_finite(), t.plan) {
                (true, Some(plan)) => Some((mean / per_node(&t.estimate), t.puzzle, plan)),
                _ => None,
            };
        }
        for i in rivals.into_iter().chain([best]) {
            dive(&mut turns[i], ORIENT_PROBES);
        }
        spent += more;
    }
}

/// Search below `root` into `sink`: serially, or (with threads) a serial try first, then split
/// across the workers when the try ran out of nodes. With a band `plan`, counting by bands.
fn run_engine<E: Engine, S: Sink + Send>(
    root: &E,
    shape: Shape,
    options: &Options,
    shared: &Shared,
    sink: &mut S,
    plan: Option<&Plan>,
) -> Stats {
    if options.threads <= 1 {
        return search_serially(root, shared, sink, plan);
    }
    // A serial try: most puzzles finish in microseconds; don't spawn for them. The try keeps
    // what it finds to itself. A try that runs out of nodes is thrown away, unless the engine
    // kept what it left (see `Engine::search_resumable`): then what it found stands, and only
    // the rest is split.
    if plan.is_some() {
        shared.share_tables();
    }
    // The caller's node budget (see `Shared::set_node_budget`) holds for the try and the
    // split search together.
    let budget = shared.node_budget();
    let try_nodes = try_budget(shape, root.resumes(), plan.is_some(), shared).min(budget);
    shared.set_node_budget(try_nodes);
    let (tried, grids, counted, rest) = if S::NEEDS_GRID {
        let mut collect = CollectSink::default();
        let (stats, rest) = try_serially(root, shared, &mut collect, None);
        (stats, collect.solutions, 0, rest)
    } else {
        let (stats, rest) = try_serially(root, shared, &mut CountSink, plan);
        (stats, Vec::new(), stats.solutions, rest)
    };
    shared.set_node_budget(budget);
    if shared.stopped() != Some(StopReason::Budget) || try_nodes == budget {
        let mut tried = tried;
        let mut flow = ControlFlow::Continue(());
        for (i, g) in grids.iter().enumerate() {
            flow = sink.solution(g);
            if flow.is_break() {
                // The sink took these and no more (the one it stopped at counts, as in a
                // serial search): the outcome says so, not what the try found.
                tried.solutions = i as u128 + 1;
                break;
            }
        }
        if counted > 0 && flow.is_continue() {
            flow = sink.count(counted as u64);
        }
        if flow.is_break() && shared.stopped().is_none() {
            shared.request_stop(StopReason::Sink);
        }
        return tried;
    }
    shared.reset();
    shared.mark_split();
    if budget != u64::MAX {
        shared.set_node_budget(budget.saturating_sub(tried.nodes).max(1));
    }
    // Many more pieces than workers: balance comes from the number of pieces, not from guessing
    // their size. Fewer for big boards, whose states are large, and where the try left the
    // rest of its tree (for sinks that want grids: count-only ones share the pieces as they
    // go, see `parallel::run_sharing`): there the rules' conflict scores choose, and each
    // piece's search starts from the scores the last one ended with, so that more pieces cost
    // more guesses ("LITTLE_KILLER_SNIPES#9", counted on two threads when the pieces were
    // cut up front: 2.18 million guesses on one thread; 3.3, 3.1, 3.2 and 4.8 million with
    // 16, 32, 64 and 256 pieces per worker, 15.5 s with 64 against 22.3 s on one thread).
    let per_worker = match (&rest, shape.cells() <= 144) {
        (Some(_), _) => RESUMED_PER_WORKER,
        (None, true) => 256,
        (None, false) => 32,
    };
    let target = options.threads * per_worker;
    let Some(rest) = rest else {
        let subs = parallel::sub_problems(root, target, shared, plan);
        return parallel::run(&subs, options.threads, shared, sink, plan);
    };
    // The try's part of the tree comes first in search order: its solutions go to the sink
    // (counted against the limit again, which the reset forgot), then the rest, split.
    let mut stats = Stats {
        solutions: 0,
        ..tried
    };
    let left: f64 = rest.iter().map(|(_, w)| w).sum();
    {
        let mut ctx = Ctx::new(sink, shared);
        ctx.dead_end(1.0 - left);
        let mut flow = ControlFlow::Continue(());
        for g in &grids {
            flow = ctx.solution(g, 0.0);
            if flow.is_break() {
                break;
            }
        }
        if counted > 0 && flow.is_continue() {
            flow = ctx.solutions_wide(counted, 0.0);
        }
        stats.solutions = ctx.stats.solutions;
        if flow.is_break() {
            return stats;
        }
    }
    let pieces = rest
        .into_iter()
        .map(|(state, weight)| parallel::SubProblem { state, weight })
        .collect();
    if !S::IN_ORDER && plan.is_none() {
        // The pieces' order does not matter, so they are shared as they go.
        stats += parallel::run_sharing(pieces, options.threads, shared, sink);
        return stats;
    }
    let subs = parallel::split(pieces, target, shared, plan);
    stats += parallel::run(&subs, options.threads, shared, sink, plan);
    stats
}

/// The serial try of [`run_engine`]: the search below `root` on this thread, into `sink`, and
/// what it left where the engine keeps that (only where a puzzle's rules choose the branches:
/// never when counting by bands).
#[allow(clippy::type_complexity)]
fn try_serially<E: Engine, S: Sink>(
    root: &E,
    shared: &Shared,
    sink: &mut S,
    plan: Option<&Plan>,
) -> (Stats, Option<Vec<(E, f64)>>) {
    let mut ctx = Ctx::new(sink, shared).with_bands(plan);
    let (_, rest) = root.search_resumable(&mut ctx, 1.0);
    debug_assert_eq!(
        rest.is_some(),
        root.resumes(),
        "the try's budget assumed otherwise"
    );
    (ctx.stats, rest)
}

/// The whole tree below `root`, on this thread, into `sink`.
fn search_serially<E: Engine, S: Sink>(
    root: &E,
    shared: &Shared,
    sink: &mut S,
    plan: Option<&Plan>,
) -> Stats {
    let mut ctx = Ctx::new(sink, shared).with_bands(plan);
    let _ = root.search(&mut ctx, 1.0);
    ctx.stats
}

/// Count the solutions (exactly, or up to `options.limit`). A convenience over [`search`].
///
/// ```
/// use sudoku_enum::{count, Options, Puzzle, Shape};
///
/// let grids_6x6 = count(&Puzzle::empty(Shape::new(2, 3).unwrap()), &Options::default());
/// assert_eq!(grids_6x6.solutions, 28_200_960);
/// ```
pub fn count(puzzle: &Puzzle, options: &Options) -> Outcome {
    search(puzzle, options, &mut CountSink)
}

/// The solutions as row-major value vectors (all of them, or the first `options.limit`), in
/// search order when the search is serial (one thread, the default). A convenience over
/// [`search`].
pub fn solutions(puzzle: &Puzzle, options: &Options) -> Vec<Vec<u8>> {
    let mut sink = CollectSink::default();
    search(puzzle, options, &mut sink);
    sink.solutions
}

/// The first solution in search order, if there is one.
pub fn solve(puzzle: &Puzzle) -> Option<Vec<u8>> {
    let first = Options {
        limit: Some(1),
        ..Options::default()
    };
    solutions(puzzle, &first).pop()
}

/// True when the puzzle has exactly one solution (a count up to 2).
pub fn is_unique(puzzle: &Puzzle) -> bool {
    let two = Options {
        limit: Some(2),
        ..Options::default()
    };
    count(puzzle, &two).verdict() == Verdict::Unique
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up_to(limit: u64) -> Options {
        Options {
            limit: Some(limit),
            ..Options::default()
        }
    }

    fn nine(s: &str) -> Puzzle {
        let cells = s
            .bytes()
            .map(|b| if b == b'.' || b == b'0' { 0 } else { b - b'0' })
            .collect();
        Puzzle::new(Shape::NINE, cells).unwrap()
    }

    /// A sink that stops at its first solution took one, on any number of threads: the
    /// outcome of a split search whose serial try finished (the try's solutions are handed to
    /// the sink afterwards) says so too, not what the try found.
    #[test]
    fn a_sink_that_stops_is_counted_as_it_took() {
        struct First(u32);
        impl Sink for First {
            const NEEDS_GRID: bool = true;
            fn solution(&mut self, _: &[u8]) -> ControlFlow<()> {
                self.0 += 1;
                ControlFlow::Break(())
            }
            fn fork(&self, _: usize) -> First {
                First(0)
            }
            fn join(&mut self, _: usize, part: First) {
                self.0 += part.0;
            }
        }
        let two = nine(
            "....34.255..8.2473.4..59.61......58.63...814...8.4..3....487.56..592....2.7...39.",
        );
        let pool = test_pool(2);
        for p in [two, Puzzle::empty(Shape::new(2, 2).unwrap())] {
            for threads in [1, 2] {
                let options = Options {
                    threads,
                    ..Options::default()
                };
                let mut sink = First(0);
                let out = pool.install(|| search(&p, &options, &mut sink));
                assert_eq!(sink.0, 1, "threads {threads}");
                assert_eq!(
                    (out.solutions, out.stopped, out.verdict()),
                    (1, Some(StopReason::Sink), Verdict::Unknown),
                    "threads {threads}"
                );
            }
        }
    }

    #[test]
    fn verdicts() {
        let unique = nine(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        );
        assert_eq!(count(&unique, &up_to(2)).verdict(), Verdict::Unique);
        let invalid = nine(&format!("11{}", ".".repeat(79)));
        let o = count(&invalid, &up_to(2));
        assert_eq!(o.verdict(), Verdict::Invalid);
        let c = o.conflict.unwrap();
        assert_eq!(
            (c.first.as_str(), c.second.as_str(), c.house.as_str()),
            ("r1c1", "r1c2", "row 1")
        );
        let unsolvable = nine(
            "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..",
        );
        assert_eq!(count(&unsolvable, &up_to(2)).verdict(), Verdict::Unsolvable);
        let empty = Puzzle::empty(Shape::NINE);
        let o = count(&empty, &up_to(2));
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
        let serial = count(&p2, &Options::default());
        assert_eq!(serial.solutions, 39_168);
        let pool = test_pool(3);
        let par = pool.install(|| {
            count(
                &p2,
                &Options {
                    threads: 3,
                    ..Options::default()
                },
            )
        });
        assert_eq!(par.solutions, 39_168);
        assert!(par.complete());
    }

    /// The empty 6×6 with the anti-king rule (a rule: conflict scores choose the branches):
    /// 74,160 solutions (an independent backtracker counted them) in 97,109 nodes, past the
    /// serial try's 2,048. Split across threads, the search goes on from where the try
    /// stopped: every solution counted once, the try's among them, and a limit exact.
    #[test]
    fn a_split_search_goes_on_from_its_try() {
        let p = anti_king_six();
        const ALL: u128 = 74_160;
        let serial = count(&p, &Options::default());
        assert_eq!((serial.solutions, serial.complete()), (ALL, true));
        assert!(serial.stats.nodes > serial_budget(p.shape(), true));
        let pool = test_pool(3);
        let on_three = |limit: Option<u64>| Options {
            threads: 3,
            limit,
            ..Options::default()
        };
        pool.install(|| {
            let par = count(&p, &on_three(None));
            assert_eq!((par.solutions, par.complete()), (ALL, true));
            for limit in [1, 30_000, 60_000, 74_159, 74_160, 80_000] {
                let par = count(&p, &on_three(Some(limit)));
                assert_eq!(par.solutions, ALL.min(u128::from(limit)), "limit {limit}");
            }
            for limit in [None, Some(60_000)] {
                let grids = solutions(&p, &on_three(limit));
                let want = limit.map_or(ALL as usize, |n| n as usize);
                assert_eq!(grids.len(), want);
                assert!(grids.iter().all(|g| p.is_solution(g)));
                let distinct: std::collections::HashSet<_> = grids.iter().collect();
                assert_eq!(distinct.len(), want);
            }
        });
    }

    /// A caller's node budget holds for a search split across threads, its serial try and its
    /// workers together, whether the budget ends within the try or after it splits: the
    /// search stops for the budget near it, with distinct valid solutions; a budget beyond the
    /// tree changes nothing.
    #[test]
    fn a_split_search_keeps_its_callers_node_budget() {
        let six = Shape::new(2, 3).unwrap();
        let anti_king = anti_king_six();
        let mut first_row = Puzzle::empty(six);
        for (i, v) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
            first_row.set(i, v);
        }
        let pool = test_pool(3);
        let three = Options {
            threads: 3,
            ..Options::default()
        };
        pool.install(|| {
            for (p, all) in [(&anti_king, 74_160), (&first_row, 39_168)] {
                for budget in [1_000, 20_000, 1 << 40] {
                    let shared = three.shared();
                    shared.set_node_budget(budget);
                    let mut sink = CollectSink::default();
                    let o = search_in(p, &three, &shared, &mut sink);
                    if budget == 1 << 40 {
                        assert!(o.complete());
                        assert_eq!(sink.solutions.len(), all);
                    } else {
                        assert_eq!(
                            o.stopped,
                            Some(StopReason::Budget),
                            "budget {budget} {all} {:?}",
                            o.stats
                        );
                        let most = budget + 4 * u64::from(ctx::FLUSH_EVERY);
                        assert!(o.stats.nodes <= most, "{} nodes", o.stats.nodes);
                        assert!(sink.solutions.len() < all);
                    }
                    assert!(sink.solutions.iter().all(|g| p.is_solution(g)));
                    let distinct: std::collections::HashSet<_> = sink.solutions.iter().collect();
                    assert_eq!(distinct.len(), sink.solutions.len());
                }
            }
        });
    }

    /// `-j N` is N workers; no `-j`, and `-j 0` as ripgrep reads it, every core (it was one).
    #[test]
    fn zero_threads_means_every_core() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(worker_threads(None), cores);
        assert_eq!(worker_threads(Some(0)), cores);
        assert_eq!(worker_threads(Some(1)), 1);
        assert_eq!(worker_threads(Some(3)), 3);
    }

    /// Where rules choose the branches, a search of a few thousand nodes splits: its serial try
    /// is [`RESUMED_TRY`] nodes (the engine keeps what the try left). The same work on a board
    /// without rules stays on one thread (its try, up to 50,000 nodes, would be lost).
    #[test]
    fn rules_searches_split_after_a_short_try() {
        let six = Shape::new(2, 3).unwrap();
        let anti_king = anti_king_six();
        let plain = Puzzle::empty(six);
        let pool = test_pool(2);
        const LIMIT: u64 = 10_000;
        for (p, splits) in [(&anti_king, true), (&plain, false)] {
            // Serially, between the two tries' sizes.
            let nodes = count(p, &up_to(LIMIT)).stats.nodes;
            assert!(
                (RESUMED_TRY..20_000).contains(&nodes),
                "{nodes} nodes (splits: {splits})"
            );
            let progress = Progress::new();
            let options = Options {
                threads: 2,
                limit: Some(LIMIT),
                progress: Some(progress.clone()),
                ..Options::default()
            };
            let out = pool.install(|| count(p, &options));
            assert_eq!(out.solutions, u128::from(LIMIT));
            assert_eq!(progress.is_split(), splits, "splits: {splits}");
        }
    }

    /// A serial count by bands visits few nodes: its solutions reach the progress counters
    /// every few tails as well (they had come only at the end: a progress bar showed none).
    #[test]
    fn a_serial_count_by_bands_shows_its_solutions_as_it_goes() {
        struct Watching {
            progress: Progress,
            counted: u64,
            seen: u64,
        }
        impl Sink for Watching {
            const NEEDS_GRID: bool = false;
            fn solution(&mut self, _: &[u8]) -> ControlFlow<()> {
                unreachable!("counted without grids")
            }
            fn count(&mut self, k: u64) -> ControlFlow<()> {
                self.counted += k;
                self.seen = self.seen.max(self.progress.solutions());
                ControlFlow::Continue(())
            }
            fn fork(&self, _: usize) -> Self {
                unreachable!("one thread")
            }
            fn join(&mut self, _: usize, _: Self) {}
        }
        // A sparse puzzle (the one of `close_turns_get_more_dives`): thousands of tails.
        let p = nine(
            "...71.....................6....6........8.7..2..179..3.6.....5...8...6....26..8..",
        );
        let progress = Progress::new();
        let options = Options {
            threads: 1,
            count_by: CountBy::Bands,
            progress: Some(progress.clone()),
            ..Options::default()
        };
        let mut sink = Watching {
            progress: progress.clone(),
            counted: 0,
            seen: 0,
        };
        // No flush by nodes (its first band's nodes would publish too): only by tails.
        let shared = options.shared();
        shared
            .flush_every
            .store(u32::MAX, std::sync::atomic::Ordering::Relaxed);
        let out = search_in(&p, &options, &shared, &mut sink);
        assert_eq!(out.solutions, 90_504_578);
        assert!(out.stats.nodes < 100_000, "{} nodes", out.stats.nodes);
        assert!(
            sink.seen > 0 && sink.seen < sink.counted,
            "seen {} of {}",
            sink.seen,
            sink.counted
        );
        assert_eq!(progress.solutions(), 90_504_578);
    }

    /// A held-out sparse puzzle (90,504,578 solutions) whose turns' first estimates are close:
    /// the further dives settle on turn 1 (97 ms of CPU), where the first 24 dives of each
    /// choose another (turn 2, 153 ms, with the prices before 28 November; with the prices
    /// since, the test still fails without the further dives).
    #[test]
    fn close_turns_get_more_dives() {
        let p = nine(
            "...71.....................6....6........8.7..2..179..3.6.....5...8...6....26..8..",
        );
        let (_, turned, _) = choose_turn(&p, &Options::default(), &Options::default().shared())
            .expect("three bands");
        assert_eq!(turned, bands::orientations(&p)[1].apply(&p));
        // Past the deadline (or cancelled), no estimate is made: no turn, and the plain
        // search that follows stops at once (the dives of an empty 9×9 take milliseconds).
        let late = Options {
            deadline: Some(Instant::now()),
            ..Options::default()
        };
        assert!(choose_turn(&p, &late, &late.shared()).is_none());
        let empty = Puzzle::empty(Shape::NINE);
        let o = count(&empty, &late);
        assert_eq!(o.stopped, Some(StopReason::TimedOut));
    }

    /// A turn asked for is the one counted: each of a sparse puzzle's six turns gives the same
    /// count, over a first band searched to its own number of nodes (the six differ), and a
    /// turn the board does not have leaves the count to the plain search (none of those).
    #[test]
    fn a_turn_asked_for_is_the_one_counted() {
        let p = nine(
            "...7...43..7..6.1......56.....5.....5..6..7..4..1.92.......3......9...8.....6....",
        );
        let on = |turn: Option<usize>| {
            let options = Options {
                count_by: CountBy::Bands,
                turn,
                ..Options::default()
            };
            count(&p, &options)
        };
        let chosen = on(None);
        assert_eq!(chosen.solutions, 1_331_650);
        let nodes: Vec<u64> = (0..6)
            .map(|t| {
                let o = on(Some(t));
                assert_eq!(o.solutions, chosen.solutions, "turn {t}");
                let (_, turned, _) = choose_turn(
                    &p,
                    &Options {
                        turn: Some(t),
                        ..Options::default()
                    },
                    &Options::default().shared(),
                )
                .expect("nine by nine has six turns");
                assert_eq!(turned, bands::orientations(&p)[t].apply(&p), "turn {t}");
                o.stats.nodes
            })
            .collect();
        let mut distinct = nodes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 6, "{nodes:?}");
        assert!(
            nodes.contains(&chosen.stats.nodes),
            "{nodes:?} {}",
            chosen.stats.nodes
        );
        let none = on(Some(6));
        assert_eq!(none.solutions, chosen.solutions);
        assert!(
            !nodes.contains(&none.stats.nodes),
            "{nodes:?} {}",
            none.stats.nodes
        );
    }

    /// A 12×12 puzzle with 2×6 boxes (410,740 solutions): counted by bands two rows high it
    /// took 32.6 s, by the plain search 0.3 s. No such turn is chosen, unless asked for.
    #[test]
    fn turns_of_many_two_row_bands_are_left_to_the_plain_search() {
        let text = "......95A4.......9B87.12.1...84C2B56.B....3A17894.5...12839C......A6B574.....5249C372.7.9C615AB8....8..7C14B7.1..489326A......C36921.2....7B48A5";
        let shape = Shape::new(2, 6).unwrap();
        let p = crate::parse::parse_one(
            text,
            &crate::parse::ParseOptions {
                shape: Some(shape),
                ..Default::default()
            },
        )
        .unwrap();
        let auto = Options::default();
        let turn = choose_turn(&p, &auto, &auto.shared());
        assert!(turn.is_none_or(|(_, t, _)| !too_deep(t.shape())));
        let bands = Options {
            count_by: CountBy::Bands,
            ..Options::default()
        };
        assert!(choose_turn(&p, &bands, &bands.shared()).is_some());
        assert!(too_deep(Shape::new(2, 5).unwrap()) && too_deep(Shape::new(2, 6).unwrap()));
        assert!(!too_deep(Shape::new(2, 4).unwrap()) && !too_deep(Shape::new(3, 4).unwrap()));
    }

    /// A 12×12 puzzle (4×3 boxes) whose first band is all but empty above eight full rows
    /// (118,368 solutions): its turns of four bands three rows high, priced by the next band
    /// alone, came to 305,000 plain nodes' worth against the plain tree's 601,000, and counting
    /// by bands took 5.8 s against the plain search's 0.08 s. Priced below the next band too,
    /// they come dearer than the plain tree, which then counts it.
    #[test]
    fn deep_turns_are_priced_below_the_next_band() {
        let text = "........................3...................3...537C81B426A96A479B351C28C12A369875B498B254C6A371123B6C7A94854785A9126B3CAC63284B5917B9541783CA62";
        let shape = Shape::new(4, 3).unwrap();
        let options = crate::parse::ParseOptions {
            shape: Some(shape),
            ..Default::default()
        };
        let p = crate::parse::parse_one(text, &options).unwrap();
        let auto = Options::default();
        let (nodes, turned, _) = choose_turn(&p, &auto, &auto.shared()).expect("a turn");
        assert_eq!(turned.shape().box_rows(), 3);
        let plain = on_search_stack(|| {
            let shared = auto.shared();
            with_engine!(&p, auto.engine, |root| plain_attempt(
                &root,
                p.shape(),
                &shared
            ))
            .expect("a root state")
        });
        assert!(plain.finished.is_none());
        assert!(nodes > plain.tree, "bands {nodes}, plain {}", plain.tree);
    }

    /// The plain attempt on 9×9: a sparse puzzle whose tree the first stage shows to be far
    /// stops there (1,020,602 solutions); one whose tree is a few thousand nodes goes on to
    /// the second stage and finishes it (5,545 solutions). 12×12 puzzles have one stage.
    #[test]
    fn the_plain_attempt_stops_early_on_far_trees() {
        // The engines' searches, called here directly: on the stack a debug build needs.
        let attempt = |p: &Puzzle| {
            on_search_stack(|| {
                let options = Options::default();
                let shared = options.shared();
                with_engine!(p, options.engine, |root| plain_attempt(
                    &root,
                    p.shape(),
                    &shared
                ))
                .expect("a root state")
            })
        };
        let far = nine(
            "....1....76..58......7....8...5.2..........79.......24.9...4...32.......4.......6",
        );
        let a = attempt(&far);
        assert!(a.finished.is_none() && a.tree > PLAIN_FAR && a.nodes <= PLAIN_FIRST);
        let near = nine(
            "..79....2......97..1...2..........9.935....16..6....8......61.91..25...8.9..18...",
        );
        let a = attempt(&near);
        assert!(a.nodes > PLAIN_FIRST);
        assert_eq!(a.finished.map(|s| s.solutions), Some(5545));
        let twelve: Vec<u8> = concat!(
            "4.5......C....9A4.1..8...1B..........6.....832499.8.2......C.31C.....B......3...",
            "..8....3...5697BB5.....7........7C3..1..C.3B...17...8...A..9.3.4"
        )
        .bytes()
        .map(|b| match b {
            b'.' => 0,
            b'A'..=b'C' => b - b'A' + 10,
            _ => b - b'0',
        })
        .collect();
        let a = attempt(&Puzzle::new(Shape::new(3, 4).unwrap(), twelve).unwrap());
        assert!(a.finished.is_none() && a.tree > PLAIN_FAR && a.nodes > PLAIN_FIRST);
    }

    #[test]
    fn solutions_respect_the_limit() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let sols = solutions(&p, &up_to(10));
        assert_eq!(sols.len(), 10);
        assert!(sols.iter().all(|s| p.is_solution(s)));
        assert_eq!(solutions(&p, &up_to(1000)).len(), 288);
        assert_eq!(solve(&p).as_ref(), sols.first());
    }
}
