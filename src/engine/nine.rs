//! The specialised 9×9 engine: a band bitboard in the JCZSolve / fsss2 tradition, written from
//! the published ideas (no code copied).
//!
//! # Representation
//! For each digit `d` and band `b` (rows `3b..3b+3`) one `u32` holds the 27 cells of the band
//! (bit `9 * (row % 3) + col`) where `d` is still possible: `cand[3 * d + b]`. A placed digit
//! keeps its bit (so every digit has, in every band, at least one position per row and per box,
//! exactly one once solved); `unsolved[b]` holds the open cells of each band.
//!
//! # Propagation
//! Changed digit-bands are kept in a 27-bit dirty mask. Processing one:
//! - **locked candidates inside the band**: the 3×3 "mini-row" matrix (row × box of the band,
//!   set where the digit still has a position) must contain a permutation (the digit goes once
//!   in each row and once in each box of the band); mini-rows in no such permutation are
//!   removed (a 512-entry table). This is box–line reduction (pointing and claiming) done
//!   exactly for the band, and detects empty rows and boxes.
//! - **hidden singles in rows**: a row of the band with one position left, on an open cell,
//!   places the digit there: the cell leaves the other digits and `unsolved`, and its column
//!   leaves the digit's other two bands.
//!
//! When no digit-band is dirty: **naked singles** (a once/twice sweep over the nine digits per
//! band; an open cell with no candidate is a contradiction), then, when that too is quiet,
//! **hidden singles in columns and boxes** (per digit, a once/twice sweep over the nine row
//! segments; empty columns are contradictions). Placing a single only clears the digit from the
//! cell's row and box inside its band and marks the band dirty: the row-single rule finishes it.
//!
//! # Search
//! Branch on the first cell with two candidates, else on a cell with the fewest; children are
//! copies of the 120-byte state. In count mode (`!S::NEEDS_GRID`) a state whose open cells all
//! have exactly two candidates is counted without branching: with no hidden single left, every
//! open digit of every house then has exactly two positions, so the constraints are equations
//! `x ⊕ y = c` between two-valued cells, and the state has either no solution or `2^k`, `k` the
//! number of connected components; fixing one cell of a component and propagating settles the
//! whole component and tells which (see [`Nine::count_bivalue`]).

use super::{Engine, Expansion};
use crate::control::Ctx;
use crate::puzzle::Puzzle;
use crate::shape::Shape;
use crate::sink::Sink;
use std::ops::ControlFlow;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The contradiction marker of propagation.
#[derive(Debug)]
struct Dead;

/// `MINI[x]` for a 9-bit row segment `x`: bit `k` set when box `k` of the row holds a bit.
const MINI: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if x & (7 << (3 * k)) != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// `PERM_KEEP[m]` for a 3×3 mini-row matrix `m` (bit `3 * row + box`): the 27-bit mask of the
/// mini-rows that lie on some permutation (row → box) contained in `m`; 0 when none is.
const PERM_KEEP: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            let p = PERMS[i];
            let bits = (1 << p[0]) | (1 << (3 + p[1])) | (1 << (6 + p[2]));
            if m & bits == bits {
                t[m] |= (7 << (3 * p[0])) | (7 << (9 + 3 * p[1])) | (7 << (18 + 3 * p[2]));
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `KEEP[p]` for a band cell `p`: the band minus `p`'s row and box, plus `p` itself.
const KEEP: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let mut mask = BAND & !(0x1FF << (9 * r));
        let mut q = 0;
        while q < 3 {
            mask &= !(7 << (9 * q + 3 * (c / 3)));
            q += 1;
        }
        t[p] = mask | (1 << p);
        p += 1;
    }
    t
};

/// `ONE_COL_BOX[o]` for a 9-bit column-occupancy `o`: the bits of `o` that are alone in their
/// box (3-bit group).
const ONE_COL_BOX: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut o = 0;
    while o < 512 {
        let mut k = 0;
        while k < 3 {
            let g = (o >> (3 * k)) & 7;
            if g == 1 || g == 2 || g == 4 {
                t[o] |= (g << (3 * k)) as u16;
            }
            k += 1;
        }
        o += 1;
    }
    t
};

/// Spread a 9-bit column set over the three rows of a band.
#[inline(always)]
fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// Fold the three rows of a band onto one 9-bit column set.
#[inline(always)]
fn fold(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1FF
}

/// `SINGLE[x]` for a 9-bit row segment `x`: `x` when it has exactly one bit, else 0.
const SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        if x != 0 && x & (x - 1) == 0 {
            t[x] = x as u16;
        }
        x += 1;
    }
    t
};

/// The dirty bits of every digit of band `b`.
const BAND_DIRTY: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// The dirty bits of digit `d` in the three bands.
const DIGIT_DIRTY: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut d = 0;
    while d < 9 {
        t[d] = (1 << d) | (1 << (9 + d)) | (1 << (18 + d));
        d += 1;
    }
    t
};

/// A propagated 9×9 state (plain data, 120 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nine {
    /// `cand[9 * band + digit]`: the band cells where the digit is possible (placed included).
    cand: [u32; 27],
    /// The open cells of each band.
    unsolved: [u32; 3],
}

/// Where and how to branch.
#[derive(Debug, Clone, Copy)]
struct Branch {
    band: usize,
    pos: usize,
    /// Candidate digits of the cell (bit `d`).
    digits: u32,
    /// Every open cell has exactly two candidates.
    all_bivalue: bool,
}

impl Nine {
    /// The state with nothing placed and nothing propagated.
    fn blank() -> Nine {
        Nine {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
        }
    }

    /// True when every cell is placed.
    #[inline(always)]
    fn solved(&self) -> bool {
        (self.unsolved[0] | self.unsolved[1] | self.unsolved[2]) == 0
    }

    /// Put digit `d` in band cell `p` of band `b`: clear the digit from the cell's row and box in
    /// the band and mark it dirty (the row-single rule then places it). Dead when not possible.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, p: usize, dirty: &mut u32) -> Result<(), Dead> {
        let i = 9 * b + d;
        if self.cand[i] & (1 << p) == 0 {
            return Err(Dead);
        }
        self.cand[i] &= KEEP[p];
        *dirty |= 1 << i;
        Ok(())
    }

    /// Process one changed digit-band: locked candidates inside the band (row–box), columns
    /// locked inside a box of the band (box–column: they leave the digit's other bands), then
    /// hidden singles in its rows, placed at once. The digit-bands this changes are marked in
    /// `dirty`; this one's mark is cleared.
    #[inline(always)]
    fn process(&mut self, i: usize, dirty: &mut u32) -> Result<(), Dead> {
        let (b, d) = (i / 9, i % 9);
        let a = self.cand[i];
        let m = MINI[(a & 0x1FF) as usize] as usize
            | (MINI[((a >> 9) & 0x1FF) as usize] as usize) << 3
            | (MINI[((a >> 18) & 0x1FF) as usize] as usize) << 6;
        let a = a & PERM_KEEP[m];
        if a == 0 {
            return Err(Dead);
        }
        let cols = spread(ONE_COL_BOX[fold(a) as usize] as u32);
        let mut digit_mark = 0;
        for k in 0..3 {
            let x = self.cand[9 * k + d];
            digit_mark |= (((x & cols) != 0) as u32) << (9 * k);
            self.cand[9 * k + d] = x & !cols;
        }
        self.cand[i] = a;
        let mut mark = digit_mark << d;
        let s = (SINGLE[(a & 0x1FF) as usize] as u32
            | (SINGLE[((a >> 9) & 0x1FF) as usize] as u32) << 9
            | (SINGLE[((a >> 18) & 0x1FF) as usize] as u32) << 18)
            & self.unsolved[b];
        if s != 0 {
            self.unsolved[b] &= !s;
            let base = 9 * b;
            let mut band_mark = 0;
            for e in 0..9 {
                let x = self.cand[base + e];
                band_mark |= (((x & s) != 0) as u32) << e;
                self.cand[base + e] = x & !s;
            }
            self.cand[i] = a;
            mark |= band_mark << base;
        }
        *dirty |= mark & !(1 << i);
        Ok(())
    }

    /// Naked singles of every band; dead on an open cell without candidates.
    #[inline(always)]
    fn naked_singles(&mut self, dirty: &mut u32) -> Result<(), Dead> {
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[9 * b + d];
                two |= one & x;
                one |= x;
            }
            if u & !one != 0 {
                return Err(Dead);
            }
            let singles = u & !two;
            if singles != 0 {
                for d in 0..9 {
                    let mut s = singles & self.cand[9 * b + d];
                    while s != 0 {
                        let p = s.trailing_zeros() as usize;
                        s &= s - 1;
                        self.place(d, b, p, dirty)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Hidden singles in columns and boxes; dead on a column without a position for a digit.
    #[inline(always)]
    fn hidden_singles(&mut self, dirty: &mut u32) -> Result<(), Dead> {
        for d in 0..9 {
            let a = [self.cand[d], self.cand[9 + d], self.cand[18 + d]];
            let mut o = [0u32; 3];
            let mut t = [0u32; 3];
            for b in 0..3 {
                let (r0, r1, r2) = (a[b] & 0x1FF, (a[b] >> 9) & 0x1FF, a[b] >> 18);
                o[b] = r0 | r1 | r2;
                t[b] = (r0 & r1) | (r2 & (r0 | r1));
            }
            let once = o[0] | o[1] | o[2];
            let twice = t[0] | t[1] | t[2] | (o[0] & o[1]) | (o[2] & (o[0] | o[1]));
            if once != 0x1FF {
                return Err(Dead);
            }
            let col_single = once & !twice;
            for b in 0..3 {
                let cols = col_single | (ONE_COL_BOX[o[b] as usize] as u32 & !t[b]);
                let mut s = a[b] & spread(cols) & self.unsolved[b];
                while s != 0 {
                    let p = s.trailing_zeros() as usize;
                    s &= s - 1;
                    self.place(d, b, p, dirty)?;
                }
            }
        }
        Ok(())
    }

    /// Propagate to a fixpoint from the digit-bands marked in `dirty`.
    #[inline(always)]
    fn propagate<const HIDDEN: bool>(&mut self, mut dirty: u32) -> Result<(), Dead> {
        loop {
            while dirty != 0 {
                let mut sweep = dirty;
                dirty = 0;
                while sweep != 0 {
                    let i = sweep.trailing_zeros() as usize;
                    sweep &= sweep - 1;
                    self.process(i, &mut dirty)?;
                }
            }
            self.naked_singles(&mut dirty)?;
            if dirty != 0 {
                continue;
            }
            if !HIDDEN || self.solved() {
                return Ok(());
            }
            self.hidden_singles(&mut dirty)?;
            if dirty == 0 {
                return Ok(());
            }
        }
    }

    /// A propagated copy of this state with digit `d` put in band cell `p` of band `b`.
    #[inline(always)]
    fn child<const HIDDEN: bool>(&self, d: usize, b: usize, p: usize) -> Option<Nine> {
        let mut c = *self;
        let mut dirty = 0;
        c.place(d, b, p, &mut dirty).ok()?;
        c.propagate::<HIDDEN>(dirty).ok()?;
        Some(c)
    }

    /// The candidate digits of band cell `p` of band `b` (bit `d`).
    #[inline(always)]
    fn digits_at(&self, b: usize, p: usize) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.cand[9 * b + d] >> p) & 1) << d;
        }
        m
    }

    /// The branching cell of an unsolved propagated state: the first open cell with two
    /// candidates, else the first with the fewest.
    #[inline(always)]
    fn branch(&self) -> Branch {
        let mut first: Option<(usize, usize)> = None;
        let mut all_bivalue = true;
        for b in 0..3 {
            let u = self.unsolved[b];
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[9 * b + d];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let biv = u & two & !three;
            if biv != u {
                all_bivalue = false;
            }
            if biv != 0 && first.is_none() {
                first = Some((b, biv.trailing_zeros() as usize));
            }
        }
        if let Some((band, pos)) = first {
            return Branch {
                band,
                pos,
                digits: self.digits_at(band, pos),
                all_bivalue,
            };
        }
        self.branch_fewest()
    }

    /// The first open cell with the fewest candidates (no cell has two).
    #[cold]
    #[inline(never)]
    fn branch_fewest(&self) -> Branch {
        let mut best = Branch {
            band: 0,
            pos: 0,
            digits: 0,
            all_bivalue: false,
        };
        let mut best_n = u32::MAX;
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let p = u.trailing_zeros() as usize;
                u &= u - 1;
                let digits = self.digits_at(b, p);
                let n = digits.count_ones();
                if n < best_n {
                    best_n = n;
                    best = Branch {
                        band: b,
                        pos: p,
                        digits,
                        all_bivalue: false,
                    };
                    if n <= 3 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The number of solutions of a state whose open cells all have two candidates: 0 or a
    /// power of two (see the module docs). Fix one cell per component, propagate, double.
    #[inline(never)]
    fn count_bivalue(&self) -> u64 {
        let mut st = *self;
        let mut k = 0u32;
        loop {
            let (b, u) = match st.unsolved.iter().position(|&u| u != 0) {
                Some(b) => (b, st.unsolved[b]),
                None => return 1u64 << k,
            };
            let p = u.trailing_zeros() as usize;
            let d = st.digits_at(b, p).trailing_zeros() as usize;
            match st.child::<true>(d, b, p) {
                Some(c) => st = c,
                None => return 0,
            }
            k += 1;
        }
    }

    /// The grid (1..=9, 0 where open), row-major.
    fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut s = self.cand[9 * b + d] & !self.unsolved[b];
                while s != 0 {
                    let p = s.trailing_zeros() as usize;
                    s &= s - 1;
                    g[27 * b + p] = d as u8 + 1;
                }
            }
        }
        g
    }

    /// The propagated children of an unsolved state, in search order, and the branching factor.
    fn children(&self, mut f: impl FnMut(Nine)) -> usize {
        let br = self.branch();
        let mut ds = br.digits;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            if let Some(c) = self.child::<true>(d, br.band, br.pos) {
                f(c);
            }
        }
        br.digits.count_ones() as usize
    }
}

/// Whether the search applies hidden singles in columns and boxes at every node.
const SEARCH_HIDDEN: bool = false;

/// Depth-first search below a propagated state of weight `w`.
fn search_rec<S: Sink>(st: &Nine, ctx: &mut Ctx<'_, S>, w: f64) -> ControlFlow<()> {
    ctx.node()?;
    if st.solved() {
        return if S::NEEDS_GRID {
            ctx.solution(&st.grid(), w)
        } else {
            ctx.solutions(1, w)
        };
    }
    let br = st.branch();
    if !S::NEEDS_GRID && br.all_bivalue {
        // The count needs hidden singles applied everywhere.
        let mut full = *st;
        if full.propagate::<true>(0).is_err() {
            ctx.dead_end(w);
            return ControlFlow::Continue(());
        }
        if full != *st {
            return search_rec(&full, ctx, w);
        }
        let k = st.count_bivalue();
        return if k == 0 {
            ctx.dead_end(w);
            ControlFlow::Continue(())
        } else {
            ctx.solutions(k, w)
        };
    }
    let cw = w / br.digits.count_ones() as f64;
    let mut ds = br.digits;
    while ds != 0 {
        let d = ds.trailing_zeros() as usize;
        ds &= ds - 1;
        ctx.guess();
        match st.child::<SEARCH_HIDDEN>(d, br.band, br.pos) {
            Some(c) => search_rec(&c, ctx, cw)?,
            None => {
                ctx.node()?;
                ctx.dead_end(cw);
            }
        }
    }
    ControlFlow::Continue(())
}

impl Engine for Nine {
    fn new(puzzle: &Puzzle) -> Option<Nine> {
        assert_eq!(
            puzzle.shape(),
            Shape::NINE,
            "the 9×9 engine got another shape"
        );
        let mut st = Nine::blank();
        let mut dirty = 0;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let (b, p) = (cell / 27, cell % 27);
                st.place(v as usize - 1, b, p, &mut dirty).ok()?;
            }
        }
        st.propagate::<true>(BAND).ok()?;
        Some(st)
    }

    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()> {
        search_rec(self, ctx, weight)
    }

    fn expand(&self, out: &mut Vec<Nine>) -> Expansion {
        if self.solved() {
            return Expansion::Solved;
        }
        let choices = self.children(|c| out.push(c));
        Expansion::Branched { choices }
    }

    fn values(&self) -> Vec<u8> {
        self.grid().to_vec()
    }

    fn open_cells(&self) -> usize {
        self.unsolved.iter().map(|u| u.count_ones() as usize).sum()
    }
}

thread_local! { static CNT: std::cell::Cell<[u64; 5]> = const { std::cell::Cell::new([0; 5]) }; }
/// debug
pub fn counters() -> [u64; 5] {
    CNT.with(|c| c.get())
}
