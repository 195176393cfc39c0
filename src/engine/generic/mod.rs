//! The generic engine: any R×C box shape up to 64×64.
//!
//! A state is one `u64` candidate mask per cell, the value of each cell, and the digits already
//! placed in each house. Propagation applies naked singles (through a queue of cells whose mask
//! fell to one bit), hidden singles (a once/twice bit sweep per house) and the rules'
//! propagators ([`crate::rules`]; only those whose cells changed since the state's last
//! fixpoint run again), to a fixpoint. Without rules, the search branches on the open cell
//! with the fewest candidates, one child per candidate. With rules, it branches two ways, as
//! the Interactive Sudoku Solver does: a digit in the cell with the highest conflict score per
//! candidate (or in the better of a house digit's two places), then, back at the node, that
//! digit out of that cell, propagated, and a fresh choice. It backtracks by copying the state
//! into a preallocated stack of levels, so the loop does not allocate.

mod search;
mod state;
mod tables;
#[cfg(test)]
mod tests;

pub use tables::Tables;

use super::{Engine, Expansion};
use crate::puzzle::Puzzle;
use crate::shape::Shape;
use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use search::{search_level, search_scored, Hot, Scratch};
use state::State;
use std::ops::ControlFlow;
use std::sync::Arc;
use tables::Scores;

/// A propagated state of the generic engine.
#[derive(Debug, Clone)]
pub struct Generic {
    t: Arc<Tables>,
    st: State,
    /// The conflict scores of this puzzle's searches, shared with the states made from its
    /// root (see `tables::Scores`).
    scores: Arc<Scores>,
}

impl Generic {
    /// The shape of this state.
    pub fn shape(&self) -> Shape {
        self.t.shape
    }

    /// Each cell's candidates after propagation, as bit masks (a placed cell: its digit's bit).
    pub(crate) fn candidate_masks(&self) -> Vec<u64> {
        self.st
            .cand
            .iter()
            .zip(&self.st.value)
            .map(|(&c, &v)| if v == 0 { c } else { 1u64 << (v - 1) })
            .collect()
    }
}

impl Generic {
    /// The root of `puzzle` with tables `t` (its shape's, or its rules'), propagated; `None`
    /// where that leaves no solution.
    fn with_tables(puzzle: &Puzzle, t: Arc<Tables>) -> Option<Generic> {
        let mut st = State::empty(&t);
        let mut work = t.work();
        let queue = &mut work.queue;
        if let Some(initial) = &t.initial {
            for (cell, &m) in initial.iter().enumerate() {
                st.cand[cell] &= m;
                if st.cand[cell] == 0 {
                    return None;
                }
                if st.cand[cell] & (st.cand[cell] - 1) == 0 {
                    queue.push(cell as u16);
                }
            }
        }
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 && st.value[cell] == 0 {
                st.assign_any(&t, cell, 1u64 << (v - 1), queue).ok()?;
            } else if v != 0 && st.value[cell] != v {
                return None;
            }
        }
        st.propagate(&t, &mut work).ok()?;
        Some(Generic {
            t,
            st,
            scores: Arc::default(),
        })
    }
}

impl Engine for Generic {
    fn new(puzzle: &Puzzle) -> Option<Generic> {
        Generic::with_tables(puzzle, Tables::for_puzzle(puzzle))
    }

    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()> {
        let mut scratch = Scratch::new(&self.t, &self.st, &self.scores);
        if !scratch.scores.is_empty() {
            // Rules (never counted by bands).
            debug_assert!(ctx.bands.is_none());
            return self.search_rules(scratch, ctx, weight, false).0;
        }
        search_level(&self.t, &mut scratch, 0, ctx, weight, 0)
    }

    /// Where the rules' conflict scores choose, the search keeps what is left when it stops.
    fn search_resumable<S: Sink>(
        &self,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
    ) -> (ControlFlow<()>, Option<Vec<(Generic, f64)>>) {
        if !self.resumes() {
            return (self.search(ctx, weight), None);
        }
        let scratch = Scratch::new(&self.t, &self.st, &self.scores);
        let (flow, rest) = self.search_rules(scratch, ctx, weight, true);
        (flow, Some(rest))
    }

    fn resumes(&self) -> bool {
        // Where the rules' conflict scores choose.
        !self.t.priority.is_empty()
    }

    fn expand(&self, out: &mut Vec<Generic>) -> Expansion {
        if self.st.open == 0 {
            return Expansion::Solved;
        }
        // Where conflict scores choose, the split follows what the searches so far learned.
        let cell = match self.scores.get(&self.t) {
            Some(l) => self.st.branch_cell_scored(&l.scores, Hot::of(&l.digits)),
            None => self.st.branch_cell(),
        };
        self.expand_at(cell, out)
    }

    fn expand_bands(&self, out: &mut Vec<Generic>, rows: usize) -> Option<Expansion> {
        if self.st.open == 0 {
            return Some(Expansion::Solved);
        }
        let band = rows * self.t.n;
        if self.st.filled_bands(&self.t, rows) > 0 {
            return None;
        }
        Some(self.expand_at(self.st.branch_cell_in(0..band), out))
    }

    fn values(&self) -> Vec<u8> {
        self.st.value.clone()
    }

    fn open_cells(&self) -> usize {
        self.st.open
    }
}

impl Generic {
    /// The search where the rules' conflict scores choose, from `scratch` made for this state:
    /// its scores go on to the next search of the puzzle (see `tables::Scores`), and where
    /// `keep`, what it left when it stopped (see `Engine::search_resumable`).
    fn search_rules<S: Sink>(
        &self,
        mut scratch: Scratch,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
        keep: bool,
    ) -> (ControlFlow<()>, Vec<(Generic, f64)>) {
        if keep {
            scratch.rest = Some(Vec::new());
        }
        let flow = search_scored(&self.t, &mut scratch, 0, ctx, weight);
        scratch.learn(&self.scores);
        let rest = scratch.rest.take().unwrap_or_default();
        let rest = rest
            .into_iter()
            .map(|(st, w)| {
                let t = Arc::clone(&self.t);
                let scores = Arc::clone(&self.scores);
                (Generic { t, st, scores }, w)
            })
            .collect();
        (flow, rest)
    }

    /// Branch on `cell`: its propagated children, in search order.
    fn expand_at(&self, cell: usize, out: &mut Vec<Generic>) -> Expansion {
        let mut cands = self.st.cand[cell];
        let choices = cands.count_ones() as usize;
        let mut work = self.t.work();
        work.all = false;
        while cands != 0 {
            let bit = cands & cands.wrapping_neg();
            cands &= cands - 1;
            let mut child = self.st.clone();
            if child.try_digit(&self.t, &mut work, cell, bit).is_ok() {
                out.push(Generic {
                    t: Arc::clone(&self.t),
                    st: child,
                    scores: Arc::clone(&self.scores),
                });
            }
        }
        Expansion::Branched { choices }
    }
}

/// Tests: the count of `p` on this thread, its redundant sums retired after `after` runs below
/// one useful run in `ratio` (see `rules::Yields`); `None` where its tables have no rules.
#[cfg(test)]
pub(crate) fn count_retiring(p: &Puzzle, after: u32, ratio: u32) -> Option<u128> {
    // Tables of its own (those `Tables::for_puzzle` keeps are shared).
    let shape = p.shape();
    let mut t = Tables::build(shape, Some(crate::rules::compile(shape, p.rules()?)));
    t.props.as_mut()?.set_retirement(after, ratio);
    let Some(e) = Generic::with_tables(p, Arc::new(t)) else {
        return Some(0);
    };
    Some(super::count_below(&e, None))
}
