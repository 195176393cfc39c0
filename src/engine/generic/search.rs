//! The two searches (fewest candidates first without rules; conflict scores and two-way
//! branches with them) and their per-search scratch.

use super::state::{Blame, Dead, State, Work};
use super::tables::{Learned, Scores, Tables};
use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use std::ops::ControlFlow;

/// Per-search scratch: one state per depth, grown on first use, the singles queue, and for
/// puzzles with rules the conflict scores of the cells.
pub(super) struct Scratch {
    levels: Vec<State>,
    work: Work,
    /// Each cell's priority plus the dead ends met in its guesses and in its houses and rules
    /// (empty: plain MRV), halved every `DECAY` dead ends.
    pub(super) scores: Vec<u32>,
    /// Each digit's dead ends (guessed in the cell where they showed), quartered with the
    /// cells' halvings.
    digits: Vec<u32>,
    /// The digit with the most dead ends, where it stands out.
    hot: Hot,
    countdown: u32,
    /// Where the search keeps what is left when it stops (`Engine::search_resumable`): the
    /// states not searched to the end, with their weights, deepest (earliest) first.
    pub(super) rest: Option<Vec<(State, f64)>>,
}

/// The digit that has met the most dead ends lately, where it clearly leads (as the
/// Interactive Sudoku Solver's value scores): a cell holding it gains a fifth of its count,
/// so the search goes where that digit is tight.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Hot {
    /// The digit's bit (0: none leads).
    pub(super) digit: u64,
    /// Its dead ends.
    pub(super) score: u64,
}

impl Hot {
    /// The leading digit of `counts`: the most dead ends, at least one per digit and more
    /// than 1.5 times the fewest (nonzero); else none.
    pub(super) fn of(counts: &[u32]) -> Hot {
        let (mut max, mut at, mut min) = (0u32, 0usize, u32::MAX);
        for (d, &c) in counts.iter().enumerate() {
            if c > max {
                (max, at) = (c, d);
            }
            if c != 0 && c < min {
                min = c;
            }
        }
        if (max as usize) < counts.len() || u64::from(max) * 2 <= u64::from(min) * 3 {
            Hot::default()
        } else {
            Hot {
                digit: 1 << at,
                score: u64::from(max),
            }
        }
    }
}

/// A cell holding the hot digit gains its dead ends divided by this (ISS's fifth: a half or a
/// tenth took the collection's 137 puzzles 6–10% more guesses and 5–25% more time).
pub(super) const HOT_SHARE: u64 = 5;

/// How many dead ends pass between two halvings of the conflict scores.
const DECAY: u32 = 1 << 14;

impl Scratch {
    pub(super) fn new(t: &Tables, root: &State, kept: &Scores) -> Scratch {
        let learned = kept.get(t);
        let hot = learned
            .as_ref()
            .map_or_else(Hot::default, |l| Hot::of(&l.digits));
        let (scores, digits, countdown) = match learned {
            Some(l) => (l.scores, l.digits, l.countdown),
            None => (t.priority.clone(), vec![0; t.n], DECAY),
        };
        Scratch {
            levels: vec![root.clone()],
            work: Work {
                all: false,
                ..t.work()
            },
            scores,
            digits,
            hot,
            countdown,
            rest: None,
        }
    }

    /// The search stopped at the unexplored state of level `depth`, of weight `w`: keep it
    /// where what is left is kept.
    #[cold]
    fn keep(&mut self, depth: usize, w: f64) {
        if let Some(rest) = &mut self.rest {
            rest.push((self.levels[depth].clone(), w));
        }
    }

    /// The search stopped below level `depth` after trying digit `bit` in `cell`: what is
    /// left at this level, of weight `w`, is its state without that digit there, kept
    /// propagated; false where that fails (nothing is left: a dead end).
    #[cold]
    fn keep_refuted(&mut self, t: &Tables, depth: usize, cell: usize, bit: u64, w: f64) -> bool {
        if self.rest.is_none() {
            return true;
        }
        let mut st = self.levels[depth].clone();
        // A copy, not a level: its clears are not noted.
        self.work.cleared.level = None;
        if st.refute(t, &mut self.work, cell, bit).is_err() {
            return false;
        }
        if let Some(rest) = &mut self.rest {
            rest.push((st, w));
        }
        true
    }

    /// Keep this search's conflict scores for the next search of the same puzzle.
    pub(super) fn learn(&self, kept: &Scores) {
        if self.scores.is_empty() {
            return;
        }
        kept.set(Learned {
            scores: self.scores.clone(),
            digits: self.digits.clone(),
            countdown: self.countdown,
        });
    }

    /// Level `depth + 1` made a copy of level `depth` (the levels grow as the search goes
    /// deeper, then are reused); its index.
    #[inline]
    fn child_of(&mut self, depth: usize) -> usize {
        if self.levels.len() == depth + 1 {
            let fresh = self.levels[depth].clone();
            self.levels.push(fresh);
        } else {
            let (parent, rest) = self.levels.split_at_mut(depth + 1);
            rest[0].copy_from(&parent[depth]);
        }
        self.work.cleared.renew(depth + 1);
        depth + 1
    }

    /// A guess of digit `bit` in `cell` met a dead end that showed in `blame`: one more for
    /// the guessed cell and for every cell of the house or rule where it showed (dom/wdeg, as
    /// the big engine weighs houses: the cells of the constraints that fail get branched on
    /// first), and one more for the digit (see [`Hot`]). Where `Tables::placed_blame`,
    /// `cell` and `bit` are the last placement before the dead end, and the house or rule's
    /// cells are not blamed (a cell left without candidates still is). Only the search where
    /// scores choose (`search_scored`) keeps them.
    #[inline]
    fn conflict(&mut self, t: &Tables, cell: usize, bit: u64, blame: Blame) {
        debug_assert!(!self.scores.is_empty());
        let cells: &[u16] = match blame {
            Blame::Cell(c) => {
                self.scores[c] += 1;
                &[]
            }
            _ if t.placed_blame => &[],
            Blame::House(h) => t.house(h),
            Blame::Unit(u) => t.props.as_ref().map_or(&[][..], |p| p.unit_cells(u)),
        };
        for &x in cells {
            self.scores[usize::from(x)] += 1;
        }
        self.scores[cell] += 1;
        self.digits[bit.trailing_zeros() as usize] += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.scores.iter_mut().for_each(|s| *s >>= 1);
            self.digits.iter_mut().for_each(|s| *s >>= 2);
            self.countdown = DECAY;
        }
        self.hot = Hot::of(&self.digits);
    }

    /// Where `Tables::last_blame`, one more for the cell placed last before a dead end (the
    /// guessed cell where nothing else was placed), besides what [`Scratch::conflict`] blamed.
    #[inline]
    fn blame_last(&mut self, t: &Tables, last: Option<(usize, u64)>) {
        if let (true, Some((cell, _))) = (t.last_blame, last) {
            self.scores[cell] += 1;
        }
    }
}

/// The search without rules: k ways at the open cell with the fewest candidates (in the
/// first open band when counting by bands), one child per candidate.
pub(super) fn search_level<S: Sink>(
    t: &Tables,
    scratch: &mut Scratch,
    depth: usize,
    ctx: &mut Ctx<'_, S>,
    weight: f64,
    mut asked: usize,
) -> ControlFlow<()> {
    ctx.node()?;
    let (cell, mut cands) = {
        let st = &scratch.levels[depth];
        if st.open == 0 {
            return ctx.solved(&st.value, weight);
        }
        if ctx.dull(&st.cand, &st.value) {
            ctx.dead_end(weight);
            return ControlFlow::Continue(());
        }
        let cell = match ctx.bands {
            None => st.branch_cell(),
            Some(plan) => {
                // Counting by bands: at a new boundary, the plan counts what lies below;
                // else (or where it declines: `asked`) branch in the first open band.
                let rows = plan.rows();
                let k = st.filled_bands(t, rows);
                let lacking = |rem: &mut [u64]| st.lacking(t, rows, k, rem);
                if let Some(flow) = ctx.band_boundary(k, &mut asked, t.n, weight, lacking) {
                    return flow;
                }
                let band = rows * t.n;
                st.branch_cell_in(k * band..(k + 1) * band)
            }
        };
        (cell, st.cand[cell])
    };
    let w = weight / f64::from(cands.count_ones());
    while cands != 0 {
        let bit = cands & cands.wrapping_neg();
        cands &= cands - 1;
        ctx.guess();
        // The last candidate reuses the parent's level: no copy needed, nothing left to undo.
        let level = if cands == 0 {
            depth
        } else {
            scratch.child_of(depth)
        };
        let ok = scratch.levels[level].try_digit(t, &mut scratch.work, cell, bit);
        match ok {
            Ok(()) => search_level(t, scratch, level, ctx, w, asked)?,
            Err(_) => {
                ctx.node()?;
                ctx.dead_end(w);
            }
        }
    }
    ControlFlow::Continue(())
}

/// The search where conflict scores choose (puzzles with rules): two ways at each branch,
/// as the Interactive Sudoku Solver branches. One child takes the chosen digit in the chosen
/// cell (or a house's digit in the better of its two places); then this node drops that digit
/// from the cell, propagates, and chooses afresh with the scores the child left: a cell that
/// failed its first digit need not be the best place to go on.
pub(super) fn search_scored<S: Sink>(
    t: &Tables,
    scratch: &mut Scratch,
    depth: usize,
    ctx: &mut Ctx<'_, S>,
    weight: f64,
) -> ControlFlow<()> {
    if ctx.node().is_break() {
        scratch.keep(depth, weight);
        return ControlFlow::Break(());
    }
    let mut left = weight;
    loop {
        let st = &scratch.levels[depth];
        if st.open == 0 {
            return ctx.solved(&st.value, left);
        }
        if ctx.dull(&st.cand, &st.value) {
            ctx.dead_end(left);
            return ControlFlow::Continue(());
        }
        let cell = st.branch_cell_scored(&scratch.scores, scratch.hot);
        let cands = st.cand[cell];
        let mut choice = (cell, cands & cands.wrapping_neg(), cands.count_ones());
        if t.house_pairs && choice.2 > 2 {
            if let Some((bit, first, _)) = st.pair(t, &scratch.scores, cell) {
                choice = (first, bit, 2);
            }
        }
        let (cell, bit, choices) = choice;
        let w = left / f64::from(choices);
        left -= w;
        ctx.guess();
        let child = scratch.child_of(depth);
        scratch.work.cleared.level = Some(child);
        let flow = match scratch.levels[child].try_digit(t, &mut scratch.work, cell, bit) {
            Ok(()) => search_scored(t, scratch, child, ctx, w),
            Err(Dead(blame)) => {
                let last = scratch.levels[child].last_placed();
                let (c, b) = match last {
                    Some(last) if t.placed_blame => last,
                    _ => (cell, bit),
                };
                scratch.conflict(t, c, b, blame);
                scratch.blame_last(t, last);
                ctx.dead_end(w);
                ctx.node()
            }
        };
        if flow.is_break() {
            if !scratch.keep_refuted(t, depth, cell, bit, left) {
                ctx.dead_end(left);
            }
            return flow;
        }
        // The other way: not that digit there.
        let st = &mut scratch.levels[depth];
        let rest = st.cand[cell] & !bit;
        scratch.work.cleared.level = Some(depth);
        if let Err(Dead(blame)) = st.refute(t, &mut scratch.work, cell, bit) {
            // Scored as a failure of the cell's next digit (or of the last placement).
            let last = st.last_placed();
            let (c, b) = match last {
                Some(last) if t.placed_blame => last,
                _ => (cell, rest & rest.wrapping_neg()),
            };
            scratch.conflict(t, c, b, blame);
            scratch.blame_last(t, last);
            ctx.dead_end(left);
            return ControlFlow::Continue(());
        }
    }
}
