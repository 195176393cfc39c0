//! The 9×9 search: the strategies of one search (plain, remembered counts, staged uniqueness
//! checks, counting by bands), compiled once per instruction set, and the [`Engine`]
//! implementation that picks the build at run time (see the module docs of `nine`).

use super::configs::{self, Choice, Split};
use super::memo::{self, Memo};
use super::tally::{Attempt, Tally, Trial};
use super::{Branch, Nine, SEARCH_HIDDEN};
use crate::engine::bands::{Plan, Tail};
use crate::engine::{Engine, Expansion};
use crate::puzzle::Puzzle;
use crate::shape::Shape;
use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use std::ops::ControlFlow;

/// The open-cell counts of the states whose subtree counts are remembered: below the range a
/// subtree costs less than a table probe, above it repeats are rare.
const MEMO_OPEN: std::ops::RangeInclusive<usize> = 12..=48;

/// Whether a search under this context remembers subtree counts: count-only sinks, and no
/// limit small enough to end the search in a few nodes anyway.
fn wants_memo<S: Sink>(ctx: &Ctx<'_, S>) -> bool {
    !S::NEEDS_GRID && ctx.tables && ctx.shared.limit().is_none_or(|n| n >= 1 << 16)
}

/// What a search does besides walking the tree (see the module docs).
pub(super) enum Strategy<'m> {
    /// Nothing: the plain search.
    Plain,
    /// Remember subtree counts in this table (count-only sinks without a small limit).
    Memo(&'m mut Memo),
    /// A staged uniqueness check: branch on cells while the counter (nodes left) is above 0,
    /// then on configurations.
    Staged(&'m mut u64),
    /// Counting by bands ([`bands`]): branch in the first open band; at a new boundary the
    /// plan counts what lies below. The number is the last boundary at which the plan
    /// declined (0: none).
    Bands(&'m Plan, usize),
}

impl Strategy<'_> {
    /// A shorter borrow of the same mode, for a child.
    #[inline(always)]
    fn reborrow(&mut self) -> Strategy<'_> {
        match self {
            Strategy::Plain => Strategy::Plain,
            Strategy::Memo(m) => Strategy::Memo(m),
            Strategy::Staged(left) => Strategy::Staged(left),
            Strategy::Bands(plan, asked) => Strategy::Bands(plan, *asked),
        }
    }
}

/// A set of CPU instructions the search is compiled for. The search recurses through
/// [`Isa::search`], so a tree runs one build of the code from its root down.
pub(super) trait Isa: Copy {
    /// [`search_rec`] compiled for this instruction set.
    fn search<T: Tally>(self, st: &Nine, t: &mut T, w: f64, mode: Strategy<'_>) -> ControlFlow<()>;

    /// [`Nine::root_state`] compiled for this instruction set.
    fn root(self, cells: &[u8]) -> Option<Nine>;

    /// [`Nine::count_bivalue`] compiled for this instruction set (not inlined: leaves only).
    fn count_bivalue(self, st: &Nine) -> u64;
}

/// The target's baseline instructions (any x86-64, arm64, …).
#[derive(Debug, Clone, Copy)]
pub(super) struct Portable;

impl Isa for Portable {
    fn search<T: Tally>(self, st: &Nine, t: &mut T, w: f64, mode: Strategy<'_>) -> ControlFlow<()> {
        search_rec(self, st, t, w, mode)
    }

    fn root(self, cells: &[u8]) -> Option<Nine> {
        Nine::root_state(cells)
    }

    #[inline(never)]
    fn count_bivalue(self, st: &Nine) -> u64 {
        st.count_bivalue()
    }
}

/// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (about x86-64-v3: Haswell, Zen and later),
/// detected at run time: about 10% fewer instructions than [`Portable`] (three-operand and
/// bit-manipulation forms). Only [`V3::detect`] makes one, so holding one proves the CPU
/// has them.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
pub(super) struct V3(());

#[cfg(target_arch = "x86_64")]
impl V3 {
    /// A `V3` when this CPU has its instructions.
    pub(super) fn detect() -> Option<V3> {
        let found = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt");
        found.then_some(V3(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Isa for V3 {
    #[inline(always)]
    fn search<T: Tally>(self, st: &Nine, t: &mut T, w: f64, mode: Strategy<'_>) -> ControlFlow<()> {
        // SAFETY: `search_v3` needs the features it is compiled with; `self` exists only when
        // `V3::detect` found them on this CPU.
        unsafe { search_v3(self, st, t, w, mode) }
    }

    #[inline(always)]
    fn root(self, cells: &[u8]) -> Option<Nine> {
        // SAFETY: as for `search`: `self` proves the CPU has `root_v3`'s features.
        unsafe { root_v3(cells) }
    }

    #[inline(always)]
    fn count_bivalue(self, st: &Nine) -> u64 {
        // SAFETY: as for `search`: `self` proves the CPU has `count_bivalue_v3`'s features.
        unsafe { count_bivalue_v3(st) }
    }
}

/// [`Nine::count_bivalue`] compiled for [`V3`].
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, LZCNT and POPCNT (a [`V3`] proves it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
#[inline(never)]
unsafe fn count_bivalue_v3(st: &Nine) -> u64 {
    st.count_bivalue()
}

/// [`Nine::root_state`] compiled for [`V3`].
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, LZCNT and POPCNT (a [`V3`] proves it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn root_v3(cells: &[u8]) -> Option<Nine> {
    Nine::root_state(cells)
}

/// [`search_rec`] compiled for [`V3`].
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, LZCNT and POPCNT (a [`V3`] proves it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn search_v3<T: Tally>(
    isa: V3,
    st: &Nine,
    t: &mut T,
    w: f64,
    mode: Strategy<'_>,
) -> ControlFlow<()> {
    search_rec(isa, st, t, w, mode)
}

/// Depth-first search below a propagated state of weight `w`, compiled for `isa` (the body of
/// [`Isa::search`]: children recurse through `isa`, so the whole tree runs the same code).
#[inline(always)]
fn search_rec<I: Isa, T: Tally>(
    isa: I,
    st: &Nine,
    t: &mut T,
    w: f64,
    mode: Strategy<'_>,
) -> ControlFlow<()> {
    t.node()?;
    match mode {
        Strategy::Plain => search_node(isa, st, t, w, Strategy::Plain),
        Strategy::Memo(m) => {
            if !MEMO_OPEN.contains(&st.open_cells()) {
                return search_node(isa, st, t, w, Strategy::Memo(m));
            }
            let key = st.memo_key();
            if let Some(n) = m.get(&key) {
                return if n == 0 {
                    t.dead_end(w);
                    ControlFlow::Continue(())
                } else {
                    t.solutions(n, w)
                };
            }
            let before = t.found();
            // Only a subtree searched to the end is remembered: `?` leaves on a stop.
            search_node(isa, st, t, w, Strategy::Memo(&mut *m))?;
            if let Ok(n) = u64::try_from(t.found() - before) {
                m.put(&key, n);
            }
            ControlFlow::Continue(())
        }
        Strategy::Staged(left) => {
            *left = left.saturating_sub(1);
            search_node(isa, st, t, w, Strategy::Staged(left))
        }
        Strategy::Bands(plan, mut asked) => {
            let k = st.filled_bands();
            if k > asked && k < 3 {
                let mut rem = [0u64; 9];
                st.lacking(k, &mut rem);
                match plan.tail(k, &rem, t.shared(), w) {
                    Tail::Count(n, w) => return t.tail_counted(n, w),
                    Tail::Stopped => return ControlFlow::Break(()),
                    Tail::Declined => asked = k,
                }
            }
            search_node(isa, st, t, w, Strategy::Bands(plan, asked))
        }
    }
}

/// [`search_rec`] at a node already counted.
#[inline(always)]
fn search_node<I: Isa, T: Tally>(
    isa: I,
    st: &Nine,
    t: &mut T,
    w: f64,
    mut mode: Strategy<'_>,
) -> ControlFlow<()> {
    // The node reduced by locked candidates (configuration phase), searched in its place.
    let mut reduced: Nine;
    let mut st = st;
    loop {
        match search_step(isa, st, t, w, mode.reborrow()) {
            Step::Done(flow) => return flow,
            Step::Again(c) => {
                reduced = c;
                st = &reduced;
            }
        }
    }
}

/// What [`search_step`] did with a node.
enum Step {
    /// Searched it (or stopped).
    Done(ControlFlow<()>),
    /// Reduced it by locked candidates on the stack side: search this state in its place.
    Again(Nine),
}

/// [`search_node`]'s work on one state: search it, or reduce it (a loop, not a recursive call,
/// so that the whole search runs [`Isa::search`]'s code).
#[inline(always)]
fn search_step<I: Isa, T: Tally>(isa: I, st: &Nine, t: &mut T, w: f64, mode: Strategy<'_>) -> Step {
    if st.solved() {
        return Step::Done(if T::NEEDS_GRID {
            t.solution(&st.grid(), w)
        } else {
            t.solutions(1, w)
        });
    }
    let mut br = st.branch();
    if let Strategy::Bands(..) = mode {
        let k = st.filled_bands();
        if br.band != k && !br.all_bivalue {
            br = st.branch_in_band(k);
        }
    }
    if !T::NEEDS_GRID && br.all_bivalue {
        let k = isa.count_bivalue(st);
        return Step::Done(if k == 0 {
            t.dead_end(w);
            ControlFlow::Continue(())
        } else {
            t.solutions(k, w)
        });
    }
    if matches!(&mode, Strategy::Staged(left) if **left == 0) {
        let mut cand = st.cand;
        match configs::choose(&mut cand) {
            Choice::Split(split, alts) => {
                return Step::Done(search_configs(isa, st, t, w, mode, split, alts))
            }
            Choice::Locked(dirty) => {
                let mut c = Nine { cand, ..*st };
                if c.propagate::<SEARCH_HIDDEN>(dirty, 0).is_err() {
                    t.dead_end(w);
                    return Step::Done(ControlFlow::Continue(()));
                }
                return Step::Again(c);
            }
            Choice::Dead => {
                t.dead_end(w);
                return Step::Done(ControlFlow::Continue(()));
            }
            Choice::Settled => {}
        }
    }
    Step::Done(search_cells(isa, st, t, w, mode, br))
}

/// [`search_step`]'s children on a branching cell.
#[inline(always)]
fn search_cells<I: Isa, T: Tally>(
    isa: I,
    st: &Nine,
    t: &mut T,
    w: f64,
    mut mode: Strategy<'_>,
    br: Branch,
) -> ControlFlow<()> {
    let cw = w / br.digits.count_ones() as f64;
    let mut ds = br.digits;
    while ds != 0 {
        let d = ds.trailing_zeros() as usize;
        ds &= ds - 1;
        t.guess();
        match st.child::<SEARCH_HIDDEN>(d, br.band, br.pos) {
            Some(c) => isa.search(&c, t, cw, mode.reborrow())?,
            None => {
                t.node()?;
                t.dead_end(cw);
            }
        }
    }
    ControlFlow::Continue(())
}

/// [`search_step`]'s children on a configuration split (`alts`: its configurations).
#[inline(always)]
fn search_configs<I: Isa, T: Tally>(
    isa: I,
    st: &Nine,
    t: &mut T,
    w: f64,
    mut mode: Strategy<'_>,
    split: Split,
    alts: u32,
) -> ControlFlow<()> {
    // `choose` reports a stack without configuration as `Choice::Dead`, not as a split.
    debug_assert!(
        alts.count_ones() >= 2,
        "a split has two configurations or more"
    );
    let cw = w / alts.count_ones() as f64;
    let mut alts = alts;
    while alts != 0 {
        let alt = alts.trailing_zeros() as usize;
        alts &= alts - 1;
        t.guess();
        match st.config_child(split, alt) {
            Some(c) => isa.search(&c, t, cw, mode.reborrow())?,
            None => {
                t.node()?;
                t.dead_end(cw);
            }
        }
    }
    ControlFlow::Continue(())
}

/// The largest limit for which a count-only search is staged (see the module docs).
pub(super) const STAGED_LIMIT: u64 = 2;

/// Nodes a staged search branches on cells before it turns to configurations.
pub(super) const CELL_NODES: u64 = 16;

/// Nodes a staged search may take in all before it starts again, plain (see the module docs).
/// The most any puzzle of the 17-clue, top1465, forum-hardest and serg sets takes is 1,905
/// (their guesses are the same at 2^13 as at 2^15, the bound before); a puzzle that thrashes
/// loses less: ISS's "Classic sudoku, was slow (3)" 36,892 guesses (4.2 ms) at 2^15, 9,244
/// (1.1 ms) at 2^13; the worst of 12,000 made puzzles of 16–19 givens in the top rows (many
/// solutions) 13,939 to 9,240; 12,000 of 14–16 givens anywhere (their restarts' bounds are
/// eighths of this one) 333,376 guesses in all to 318,016, the worst 20,501 to 5,141.
pub(super) const STAGED_NODES: u64 = 1 << 13;

/// The fewest filled cells of a 9×9 with one solution: no puzzle of 16 clues has one (McGuire,
/// Tugemann and Civario, 2014, by exhaustive search), and a state is a puzzle whose clues are
/// its filled cells. A check of a state with fewer has nothing to prove unique, so it skips
/// the staged search (made to prove uniqueness) for the plain ones (made to find solutions):
/// 11,987 random 9×9 puzzles of 14-16 givens took 516 k nodes staged, 323 k so. The count
/// does not depend on this: only the order of the work does.
pub(super) const FEWEST_UNIQUE: usize = 17;

/// Whether a search under this context is staged: count-only sinks under a small limit.
fn wants_stages<S: Sink>(ctx: &Ctx<'_, S>) -> bool {
    !S::NEEDS_GRID && ctx.shared.limit().is_some_and(|n| n <= STAGED_LIMIT)
}

/// A staged search under `limit` (at most [`STAGED_LIMIT`]), counted privately; should it use
/// up [`STAGED_NODES`] nodes (configuration branching can thrash on nearly empty grids), what
/// it found is forgotten and plain searches start again from `st` (see [`restarts`]).
fn search_staged<I: Isa, S: Sink>(
    isa: I,
    st: &Nine,
    ctx: &mut Ctx<'_, S>,
    w: f64,
    limit: u64,
) -> ControlFlow<()> {
    search_staged_with(isa, st, ctx, w, limit, CELL_NODES, STAGED_NODES)
}

/// [`search_staged`] with `cell_nodes` instead of [`CELL_NODES`] and `nodes` instead of
/// [`STAGED_NODES`].
pub(super) fn search_staged_with<I: Isa, S: Sink>(
    isa: I,
    st: &Nine,
    ctx: &mut Ctx<'_, S>,
    w: f64,
    limit: u64,
    cell_nodes: u64,
    nodes: u64,
) -> ControlFlow<()> {
    let mut left = cell_nodes;
    let attempt = Trial::attempt(ctx, limit, nodes, w, |p| {
        isa.search(st, p, w, Strategy::Staged(&mut left))
    });
    match attempt {
        Attempt::Done(flow) => flow,
        Attempt::GaveUp => restarts(isa, st, ctx, w, limit, nodes),
    }
}

/// The digit orders of the bounded plain searches after a staged one (see [`restarts`]): the
/// puzzle's own, then reversed, then two others.
pub(super) const RESTART_ORDERS: [[u8; 9]; 4] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [4, 0, 8, 2, 6, 1, 7, 3, 5],
    [3, 6, 0, 8, 1, 5, 2, 7, 4],
];

/// Plain searches after a staged one gave up: a search that tries the digits in one order can
/// enter a large subtree without solutions first while a puzzle has millions of them (ISS's
/// "Classic sudoku, was slow (3)": 244,541 nodes to find two of its 148 million solutions; 30
/// with most other orders). Each search is bounded, counted privately and tries the digits in
/// another order (the state relabelled: the count does not depend on the labels), the bound
/// growing fourfold from an eighth of the staged one (1 k, 4 k, 16 k nodes); the last search
/// is not bounded. A tree that must be walked whole costs at most those 21 k nodes more.
fn restarts<I: Isa, S: Sink>(
    isa: I,
    st: &Nine,
    ctx: &mut Ctx<'_, S>,
    w: f64,
    limit: u64,
    nodes: u64,
) -> ControlFlow<()> {
    let mut budget = (nodes / 8).max(1);
    for order in &RESTART_ORDERS[..RESTART_ORDERS.len() - 1] {
        let relabelled = st.relabelled(order);
        let attempt = Trial::attempt(ctx, limit, budget, w, |p| {
            isa.search(&relabelled, p, w, Strategy::Plain)
        });
        match attempt {
            Attempt::Done(flow) => return flow,
            Attempt::GaveUp => budget = budget.saturating_mul(4),
        }
    }
    let last = st.relabelled(&RESTART_ORDERS[RESTART_ORDERS.len() - 1]);
    isa.search(&last, ctx, w, Strategy::Plain)
}

impl Nine {
    /// [`Engine::search`] compiled for `isa`.
    pub(super) fn search_with<I: Isa, S: Sink>(
        &self,
        isa: I,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
    ) -> ControlFlow<()> {
        if let Some(plan) = ctx.bands {
            isa.search(self, ctx, weight, Strategy::Bands(plan, 0))
        } else if wants_memo(ctx) {
            memo::with_table(|m| match m {
                Some(m) => isa.search(self, ctx, weight, Strategy::Memo(m)),
                None => isa.search(self, ctx, weight, Strategy::Plain),
            })
        } else if wants_stages(ctx) {
            let limit = ctx.shared.limit().unwrap_or(STAGED_LIMIT);
            if self.open_cells() > 81 - FEWEST_UNIQUE {
                // Too few cells filled for one solution: the plain searches find two sooner.
                restarts(isa, self, ctx, weight, limit, STAGED_NODES)
            } else {
                search_staged(isa, self, ctx, weight, limit)
            }
        } else {
            isa.search(self, ctx, weight, Strategy::Plain)
        }
    }
}

impl Nine {
    /// The state with digit `d` renamed `order[d]` (0-based): a fixpoint stays one, and every
    /// count is the same.
    pub(super) fn relabelled(&self, order: &[u8; 9]) -> Nine {
        let mut out = *self;
        for band in 0..3 {
            for (d, &to) in order.iter().enumerate() {
                out.cand[9 * band + usize::from(to)] = self.cand[9 * band + d];
            }
        }
        out
    }

    /// The propagated child keeping configuration `alt` of a configuration split.
    #[inline(always)]
    fn config_child(&self, split: Split, alt: usize) -> Option<Nine> {
        let mut c = *self;
        let dirty = configs::restrict(&mut c.cand, split, alt);
        c.propagate::<SEARCH_HIDDEN>(dirty, 0).ok()?;
        Some(c)
    }
}

impl Engine for Nine {
    fn new(puzzle: &Puzzle) -> Option<Nine> {
        assert_eq!(
            puzzle.shape(),
            Shape::NINE,
            "the 9×9 engine got another shape"
        );
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = V3::detect() {
            return v3.root(puzzle.cells());
        }
        Portable.root(puzzle.cells())
    }

    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()> {
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = V3::detect() {
            return self.search_with(v3, ctx, weight);
        }
        self.search_with(Portable, ctx, weight)
    }

    fn expand(&self, out: &mut Vec<Nine>) -> Expansion {
        if self.solved() {
            return Expansion::Solved;
        }
        let choices = self.children(|c| out.push(c));
        Expansion::Branched { choices }
    }

    fn expand_bands(&self, out: &mut Vec<Nine>, rows: usize) -> Option<Expansion> {
        debug_assert_eq!(rows, 3);
        if self.solved() {
            return Some(Expansion::Solved);
        }
        if self.unsolved[0] == 0 {
            return None;
        }
        let choices = self.children_at(self.branch_in_band(0), |c| out.push(c));
        Some(Expansion::Branched { choices })
    }

    fn values(&self) -> Vec<u8> {
        self.grid().to_vec()
    }

    fn open_cells(&self) -> usize {
        self.unsolved.iter().map(|u| u.count_ones() as usize).sum()
    }
}
