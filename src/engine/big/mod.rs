//! The engine for boards above 12×12 (it runs any shape, for the tests): two views of
//! one state, more inference per node, and conflict-weighted branching.
//!
//! # State
//! Beside each open cell's candidate digits, the state keeps for every house and digit the
//! positions in the house where the digit can still go (a mask over the house's `N` cells).
//! An elimination updates both views (the cell, and the digit's positions in the cell's three
//! houses); a change to a digit's positions in a house marks that (house, digit) pair for
//! review. Masks are `u16`, `u32` or `u64` by board size ([`mask`]): the engine is compiled
//! once per width.
//!
//! # Propagation (to a fixpoint)
//! - **naked singles**: a cell with one candidate takes it;
//! - **hidden singles**: a digit with one position in a house takes it; none is a
//!   contradiction (as is a cell without candidates);
//! - **hidden pairs**: two digits with the same two positions in a house leave those two
//!   cells no other candidate;
//! - **locked candidates**, both ways: a digit whose positions in a box lie in one row (or
//!   column) of the box leaves the rest of that row (column) — pointing; a digit whose positions
//!   in a row (or column) lie in one box leaves the rest of the box — claiming. With the
//!   position view these are a few mask operations per reviewed pair.
//!
//! # Search
//! Branch on the open cell with the fewest candidates per unit of *conflict weight*: every
//! contradiction met in the search adds one to the weight of the house where it showed (or of
//! the three houses of an emptied cell), and a cell weighs the sum of its houses' weights
//! (dom/wdeg, Boussemart et al. 2004). The search thus turns to the parts of the board where
//! its attempts fail, as a SAT solver's activity scores do; on the hardest 16×16 puzzles it
//! visits far fewer nodes than fewest-candidates-first (README, Design). (Branching on (house,
//! digit) pairs with fewer positions than any cell has candidates was tried: more nodes on
//! most puzzles.) States are copied into a preallocated stack of levels (no allocation in
//! the loop). Counting by bands ([`super::bands`]) branches on cells of the first open band
//! only.

pub mod mask;

use super::{Engine, Expansion};
use crate::puzzle::Puzzle;
use crate::shape::Shape;
use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use mask::{Iter, Mask};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

/// Precomputed geometry of one shape, shared by every state of that shape.
#[derive(Debug)]
pub struct Tables<M: Mask> {
    shape: Shape,
    n: usize,
    cells: usize,
    /// Rows and columns of a box.
    br: usize,
    bc: usize,
    /// Boxes across (stacks).
    stacks: usize,
    full: M,
    /// `houses[h * n + i]`: cell `i` of house `h` (rows, columns, boxes; boxes row-major).
    houses: Vec<u16>,
    /// The row, column and box house of each cell.
    cell_houses: Vec<[u16; 3]>,
    /// The position of each cell in its row, column and box.
    cell_slots: Vec<[u8; 3]>,
    /// `box_row[k]`: the positions of box row `k` in a box.
    box_row: Vec<M>,
    /// `box_col[k]`: the positions of box column `k` in a box.
    box_col: Vec<M>,
    /// `row_stack[s]`: the positions of stack `s` in a row.
    row_stack: Vec<M>,
    /// `col_band[b]`: the positions of band `b` in a column.
    col_band: Vec<M>,
}

impl<M: Mask> Tables<M> {
    fn build(shape: Shape) -> Tables<M> {
        let (n, br, bc) = (shape.side(), shape.box_rows(), shape.box_cols());
        let cells = shape.cells();
        let list = shape.houses();
        let mut cell_houses = vec![[0u16; 3]; cells];
        let mut cell_slots = vec![[0u8; 3]; cells];
        for (h, house) in list.iter().enumerate() {
            for (i, &c) in house.iter().enumerate() {
                cell_houses[c][h / n] = h as u16;
                cell_slots[c][h / n] = i as u8;
            }
        }
        let houses = list
            .iter()
            .flat_map(|h| h.iter().map(|&c| c as u16))
            .collect();
        let box_row = (0..br)
            .map(|k| (0..bc).fold(M::ZERO, |m, j| m | M::bit(k * bc + j)))
            .collect();
        let box_col = (0..bc)
            .map(|k| (0..br).fold(M::ZERO, |m, i| m | M::bit(i * bc + k)))
            .collect();
        let stacks = n / bc;
        let row_stack = (0..stacks)
            .map(|s| (0..bc).fold(M::ZERO, |m, j| m | M::bit(s * bc + j)))
            .collect();
        let col_band = (0..n / br)
            .map(|b| (0..br).fold(M::ZERO, |m, i| m | M::bit(b * br + i)))
            .collect();
        Tables {
            shape,
            n,
            cells,
            br,
            bc,
            stacks,
            full: M::ones(n),
            houses,
            cell_houses,
            cell_slots,
            box_row,
            box_col,
            row_stack,
            col_band,
        }
    }

    /// The shared tables for a shape (built once per shape and width per process).
    pub fn get(shape: Shape) -> Arc<Tables<M>> {
        // One cache per width (statics are shared by all instantiations of a generic function,
        // so the cache is keyed by the width too).
        type Cache = Mutex<Vec<(usize, Shape, Arc<dyn std::any::Any + Send + Sync>)>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
        for (bits, s, t) in guard.iter() {
            if *bits == M::BITS && *s == shape {
                if let Ok(t) = Arc::clone(t).downcast::<Tables<M>>() {
                    return t;
                }
            }
        }
        let t = Arc::new(Tables::<M>::build(shape));
        guard.push((
            M::BITS,
            shape,
            Arc::clone(&t) as Arc<dyn std::any::Any + Send + Sync>,
        ));
        t
    }

    #[inline(always)]
    fn cell_at(&self, h: usize, i: usize) -> usize {
        self.houses[h * self.n + i] as usize
    }
}

/// The contradiction marker of propagation.
#[derive(Debug)]
struct Dead;

/// One search state (see the module docs). Solved cells have no candidates; a placed digit has
/// no positions in its houses.
#[derive(Debug, Clone)]
struct State<M: Mask> {
    cand: Vec<M>,
    /// `pos[h * n + d]`: the positions of digit `d` in house `h`.
    pos: Vec<M>,
    /// The digits placed in each house.
    placed: Vec<M>,
    value: Vec<u8>,
    open: usize,
}

/// What propagation works through: cells that fell to one candidate, and (house, digit) pairs
/// whose positions changed (each once, through a bitset).
struct Queues {
    singles: Vec<u16>,
    pairs: Vec<u32>,
    marked: Vec<u64>,
    /// Conflicts per house so far in this search (the branching heuristic's weights).
    weights: Vec<u32>,
}

impl Queues {
    /// Queues for a board of side `n`.
    fn new(n: usize) -> Queues {
        let pairs = 3 * n * n;
        Queues {
            singles: Vec::with_capacity(n * n),
            pairs: Vec::with_capacity(pairs),
            marked: vec![0; pairs.div_ceil(64)],
            weights: vec![1; 3 * n],
        }
    }

    /// A conflict in house `h`.
    #[cold]
    fn blame(&mut self, h: usize) {
        if let Some(w) = self.weights.get_mut(h) {
            *w = w.saturating_add(1);
        }
    }

    /// A conflict at cell `c` (its three houses).
    #[cold]
    fn blame_cell<M: Mask>(&mut self, t: &Tables<M>, c: usize) {
        for k in 0..3 {
            self.blame(t.cell_houses[c][k] as usize);
        }
    }

    #[inline(always)]
    fn mark(&mut self, pair: usize) {
        let (w, b) = (pair / 64, 1u64 << (pair % 64));
        if self.marked[w] & b == 0 {
            self.marked[w] |= b;
            self.pairs.push(pair as u32);
        }
    }

    #[inline(always)]
    fn next_pair(&mut self) -> Option<usize> {
        let p = self.pairs.pop()? as usize;
        self.marked[p / 64] &= !(1u64 << (p % 64));
        Some(p)
    }

    /// Forget everything queued (after a contradiction).
    fn clear(&mut self) {
        self.singles.clear();
        while self.next_pair().is_some() {}
    }
}

impl<M: Mask> State<M> {
    fn empty(t: &Tables<M>) -> State<M> {
        let all = M::ones(t.n);
        State {
            cand: vec![t.full; t.cells],
            pos: vec![all; 3 * t.n * t.n],
            placed: vec![M::ZERO; 3 * t.n],
            value: vec![0; t.cells],
            open: t.cells,
        }
    }

    #[inline(always)]
    fn copy_from(&mut self, o: &State<M>) {
        self.cand.copy_from_slice(&o.cand);
        self.pos.copy_from_slice(&o.pos);
        self.placed.copy_from_slice(&o.placed);
        self.value.copy_from_slice(&o.value);
        self.open = o.open;
    }

    /// Take digit `d` out of open cell `c`.
    #[inline(always)]
    fn eliminate(&mut self, t: &Tables<M>, c: usize, d: usize, q: &mut Queues) -> Result<(), Dead> {
        let b = M::bit(d);
        let m = self.cand[c];
        if m & b == M::ZERO {
            return Ok(());
        }
        let m = m & !b;
        self.cand[c] = m;
        for k in 0..3 {
            let h = t.cell_houses[c][k] as usize;
            let p = h * t.n + d;
            self.pos[p] &= !M::bit(t.cell_slots[c][k] as usize);
            q.mark(p);
        }
        if m.rest() == M::ZERO {
            if m == M::ZERO {
                q.blame_cell(t, c);
                return Err(Dead);
            }
            q.singles.push(c as u16);
        }
        Ok(())
    }

    /// Put digit `d` in open cell `c`.
    fn assign(&mut self, t: &Tables<M>, c: usize, d: usize, q: &mut Queues) -> Result<(), Dead> {
        let b = M::bit(d);
        if self.value[c] != 0 {
            return if self.value[c] as usize == d + 1 {
                Ok(())
            } else {
                q.blame_cell(t, c);
                Err(Dead)
            };
        }
        if self.cand[c] & b == M::ZERO {
            q.blame_cell(t, c);
            return Err(Dead);
        }
        let n = t.n;
        // The digit's other positions in the cell's houses, before they are dropped.
        let mut peers = [M::ZERO; 3];
        for (k, peer) in peers.iter_mut().enumerate() {
            let h = t.cell_houses[c][k] as usize;
            if self.placed[h] & b != M::ZERO {
                q.blame(h);
                return Err(Dead);
            }
            self.placed[h] |= b;
            *peer = self.pos[h * n + d] & !M::bit(t.cell_slots[c][k] as usize);
            self.pos[h * n + d] = M::ZERO;
        }
        self.value[c] = d as u8 + 1;
        self.open -= 1;
        // The cell leaves the other digits' positions.
        let others = self.cand[c] & !b;
        self.cand[c] = M::ZERO;
        for e in Iter(others) {
            for k in 0..3 {
                let h = t.cell_houses[c][k] as usize;
                let p = h * n + e;
                self.pos[p] &= !M::bit(t.cell_slots[c][k] as usize);
                q.mark(p);
            }
        }
        // The digit leaves the cell's peers.
        for (k, &m) in peers.iter().enumerate() {
            let h = t.cell_houses[c][k] as usize;
            for i in Iter(m) {
                self.eliminate(t, t.cell_at(h, i), d, q)?;
            }
        }
        Ok(())
    }

    /// Review one (house, digit) pair: hidden single, contradiction, hidden pair, locked
    /// candidates.
    #[inline]
    fn review(&mut self, t: &Tables<M>, pair: usize, q: &mut Queues) -> Result<(), Dead> {
        let n = t.n;
        let (h, d) = (pair / n, pair % n);
        if self.placed[h] & M::bit(d) != M::ZERO {
            return Ok(());
        }
        let m = self.pos[pair];
        if m.rest() == M::ZERO {
            if m == M::ZERO {
                q.blame(h);
                return Err(Dead);
            }
            return self.assign(t, t.cell_at(h, m.low()), d, q);
        }
        if m.rest().rest() == M::ZERO {
            // Hidden pair: another digit with the same two positions in this house; those two
            // cells hold these two digits and nothing else (half the nodes on hard 16×16 to
            // 36×36 puzzles; naked pairs as well gained nothing more).
            for e in 0..n {
                if e != d && self.pos[h * n + e] == m {
                    let keep = M::bit(d) | M::bit(e);
                    for i in Iter(m) {
                        let c = t.cell_at(h, i);
                        for x in Iter(self.cand[c] & !keep) {
                            self.eliminate(t, c, x, q)?;
                        }
                    }
                    break;
                }
            }
        }
        match h / n {
            0 => {
                // A row: positions inside one stack lock the digit in that box.
                let r = h;
                let s = m.low() / t.bc;
                if m & !t.row_stack[s] == M::ZERO {
                    let bx = 2 * n + (r / t.br) * t.stacks + s;
                    let rest = self.pos[bx * n + d] & !t.box_row[r % t.br];
                    for i in Iter(rest) {
                        self.eliminate(t, t.cell_at(bx, i), d, q)?;
                    }
                }
            }
            1 => {
                // A column: positions inside one band lock the digit in that box.
                let c = h - n;
                let b = m.low() / t.br;
                if m & !t.col_band[b] == M::ZERO {
                    let bx = 2 * n + b * t.stacks + c / t.bc;
                    let rest = self.pos[bx * n + d] & !t.box_col[c % t.bc];
                    for i in Iter(rest) {
                        self.eliminate(t, t.cell_at(bx, i), d, q)?;
                    }
                }
            }
            _ => {
                // A box: positions inside one of its rows (columns) lock the digit there.
                let k = h - 2 * n;
                let (band, stack) = (k / t.stacks, k % t.stacks);
                let i = m.low() / t.bc;
                if m & !t.box_row[i] == M::ZERO {
                    let r = band * t.br + i;
                    let rest = self.pos[r * n + d] & !t.row_stack[stack];
                    for j in Iter(rest) {
                        self.eliminate(t, t.cell_at(r, j), d, q)?;
                    }
                }
                let j = m.low() % t.bc;
                if m & !t.box_col[j] == M::ZERO {
                    let c = stack * t.bc + j;
                    let col = n + c;
                    let rest = self.pos[col * n + d] & !t.col_band[band];
                    for i in Iter(rest) {
                        self.eliminate(t, t.cell_at(col, i), d, q)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Propagate to a fixpoint. The queues are empty on return, also on a contradiction.
    fn propagate(&mut self, t: &Tables<M>, q: &mut Queues) -> Result<(), Dead> {
        let result = self.propagate_inner(t, q);
        if result.is_err() {
            q.clear();
        }
        result
    }

    fn propagate_inner(&mut self, t: &Tables<M>, q: &mut Queues) -> Result<(), Dead> {
        loop {
            while let Some(c) = q.singles.pop() {
                let c = c as usize;
                if self.value[c] == 0 {
                    let m = self.cand[c];
                    if m == M::ZERO {
                        q.blame_cell(t, c);
                        return Err(Dead);
                    }
                    self.assign(t, c, m.low(), q)?;
                }
            }
            match q.next_pair() {
                Some(p) => self.review(t, p, q)?,
                None => return Ok(()),
            }
        }
    }

    /// Where to branch: the open cell of `range` with the fewest candidates per unit of
    /// conflict weight (the conflicts of its three houses so far in this search: dom/wdeg),
    /// the first such.
    fn choice(&self, t: &Tables<M>, w: &[u32], range: std::ops::Range<usize>) -> usize {
        // Compare k1 / w1 < k2 / w2 as k1 * w2 < k2 * w1 (at most 64 · 3 · u32::MAX: no
        // overflow), the first open cell taken as it comes.
        let (mut best, mut bk, mut bw) = (usize::MAX, 0u64, 0u64);
        for c in range {
            let m = self.cand[c];
            if m != M::ZERO {
                let k = u64::from(m.count());
                let hs = t.cell_houses[c];
                let wt = hs.iter().map(|&h| u64::from(w[h as usize])).sum::<u64>();
                if best == usize::MAX || k * bw < bk * wt {
                    (best, bk, bw) = (c, k, wt);
                }
            }
        }
        best
    }

    /// The leading bands (`rows` rows each) with every cell placed.
    fn filled_bands(&self, t: &Tables<M>, rows: usize) -> usize {
        self.value
            .chunks_exact(rows * t.n)
            .take_while(|b| b.iter().all(|&v| v != 0))
            .count()
    }

    /// The digits (bit `d`) each column lacks in the first `k` bands, into `rem`.
    fn lacking(&self, t: &Tables<M>, rows: usize, k: usize, rem: &mut [u64]) {
        rem.fill(t.full.wide());
        for (cell, &v) in self.value[..k * rows * t.n].iter().enumerate() {
            rem[cell % t.n] &= !(1u64 << (v - 1));
        }
    }
}

/// A propagated state of the big engine.
#[derive(Debug, Clone)]
pub struct Big<M: Mask> {
    t: Arc<Tables<M>>,
    st: State<M>,
}

/// Per-search scratch: one state per depth, grown on first use, and the queues.
struct Scratch<M: Mask> {
    levels: Vec<State<M>>,
    q: Queues,
}

fn search_level<M: Mask, S: Sink>(
    t: &Tables<M>,
    scratch: &mut Scratch<M>,
    depth: usize,
    ctx: &mut Ctx<'_, S>,
    weight: f64,
    mut asked: usize,
) -> ControlFlow<()> {
    ctx.node()?;
    let (cell, mut alts) = {
        let st = &scratch.levels[depth];
        if st.open == 0 {
            return ctx.solved(&st.value, weight);
        }
        let w = &scratch.q.weights;
        let cell = match ctx.bands {
            None => st.choice(t, w, 0..t.cells),
            Some(plan) => {
                // Counting by bands: at a new boundary, the plan counts what lies below;
                // else (or where it declines: `asked`) branch on a cell of the first open band.
                let rows = plan.rows();
                let k = st.filled_bands(t, rows);
                let lacking = |rem: &mut [u64]| st.lacking(t, rows, k, rem);
                if let Some(flow) = ctx.band_boundary(k, &mut asked, t.n, weight, lacking) {
                    return flow;
                }
                let band = rows * t.n;
                st.choice(t, w, k * band..(k + 1) * band)
            }
        };
        (cell, st.cand[cell])
    };
    let w = weight / alts.count() as f64;
    if scratch.levels.len() == depth + 1 {
        let fresh = scratch.levels[depth].clone();
        scratch.levels.push(fresh);
    }
    while alts != M::ZERO {
        let digit = alts.low();
        alts = alts.rest();
        ctx.guess();
        // The last alternative reuses the parent's level: nothing left to undo.
        let level = if alts == M::ZERO {
            depth
        } else {
            let (parent, rest) = scratch.levels.split_at_mut(depth + 1);
            rest[0].copy_from(&parent[depth]);
            depth + 1
        };
        let child = &mut scratch.levels[level];
        let q = &mut scratch.q;
        let ok = match child.assign(t, cell, digit, q) {
            Ok(()) => child.propagate(t, q),
            Err(Dead) => {
                q.clear();
                Err(Dead)
            }
        };
        match ok {
            Ok(()) => search_level(t, scratch, level, ctx, w, asked)?,
            Err(Dead) => {
                ctx.node()?;
                ctx.dead_end(w);
            }
        }
    }
    ControlFlow::Continue(())
}

impl<M: Mask> Big<M> {
    /// The shape of this state.
    pub fn shape(&self) -> Shape {
        self.t.shape
    }

    /// Branch on `cell`: its propagated children, in search order.
    fn expand_on(&self, cell: usize, out: &mut Vec<Big<M>>) -> Expansion {
        let t = &self.t;
        let alts = self.st.cand[cell];
        let mut q = Queues::new(t.n);
        for digit in Iter(alts) {
            let mut child = self.st.clone();
            let ok = child
                .assign(t, cell, digit, &mut q)
                .and_then(|()| child.propagate(t, &mut q));
            q.clear();
            if ok.is_ok() {
                out.push(Big {
                    t: Arc::clone(t),
                    st: child,
                });
            }
        }
        Expansion::Branched {
            choices: alts.count() as usize,
        }
    }
}

impl<M: Mask> Engine for Big<M> {
    fn new(puzzle: &Puzzle) -> Option<Big<M>> {
        let t = Tables::<M>::get(puzzle.shape());
        debug_assert!(t.n <= M::BITS);
        let mut st = State::empty(&t);
        let mut q = Queues::new(t.n);
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 && st.assign(&t, cell, v as usize - 1, &mut q).is_err() {
                return None;
            }
        }
        st.propagate(&t, &mut q).ok()?;
        Some(Big { t, st })
    }

    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()> {
        let mut scratch = Scratch {
            levels: vec![self.st.clone()],
            q: Queues::new(self.t.n),
        };
        search_level(&self.t, &mut scratch, 0, ctx, weight, 0)
    }

    fn expand(&self, out: &mut Vec<Big<M>>) -> Expansion {
        if self.st.open == 0 {
            return Expansion::Solved;
        }
        let w = vec![1; 3 * self.t.n];
        self.expand_on(self.st.choice(&self.t, &w, 0..self.t.cells), out)
    }

    fn expand_bands(&self, out: &mut Vec<Big<M>>, rows: usize) -> Option<Expansion> {
        if self.st.open == 0 {
            return Some(Expansion::Solved);
        }
        if self.st.filled_bands(&self.t, rows) > 0 {
            return None;
        }
        let w = vec![1; 3 * self.t.n];
        Some(self.expand_on(self.st.choice(&self.t, &w, 0..rows * self.t.n), out))
    }

    fn values(&self) -> Vec<u8> {
        self.st.value.clone()
    }

    fn open_cells(&self) -> usize {
        self.st.open
    }
}

#[cfg(test)]
mod tests;
