//! The configuration-branching 9×9 engine: band bitboards in the JCZSolve / fsss2 tradition,
//! with the band and stack "configurations" of tdoku's write-up for inference and branching.
//! Written from the published ideas (no code copied).
//!
//! It is not chosen as an engine of its own: [`super::nine::Nine`] hands it the subtrees of a
//! uniqueness check that are still open after a few lean nodes (see `nine`'s docs). Per node it
//! costs about twice the lean engine, and it visits half the nodes on hard puzzles; on puzzles
//! with many solutions, or nearly empty grids, it does worse (without triads its branching can
//! thrash: the empty grid under a limit of 2 finds no solution in millions of nodes), which is
//! why `Nine` bounds it. It implements [`Engine`] all the same, so that the tests can check it
//! alone against the generic engine, and `examples/nine_bench --engine configs` can time it.
//!
//! # Representation
//! For each digit `d` and band `b` (rows `3b..3b+3`) one `u32` holds the 27 cells of the band
//! (bit `9 * (row % 3) + col`) where `d` is still possible: `cand[9 * b + d]`. A placed digit
//! keeps its bit (so every digit has, in every band, at least one position per row and per box,
//! exactly one once solved); `unsolved[b]` holds the open cells of each band.
//!
//! # Configurations
//! In a band a digit occupies one *mini-row* (a row's three cells in one box) of each row and of
//! each box: its mini-rows form a permutation row → box, one of six. The 3×3 matrix of mini-rows
//! where the digit is still possible (bit `3 * row + box`) allows the permutations it contains,
//! the digit's *band configurations*. Likewise in a stack (three columns of boxes) the digit takes
//! one *mini-column* per band and per column: its *stack configurations*, permutations band →
//! column inside the matrix of mini-columns (bit `3 * band + column`).
//!
//! # Propagation
//! Changed digit-bands are marked in a 27-bit dirty mask and handled a digit at a time
//! ([`Configs::process_digit`]), in sweeps:
//! - **locked candidates, both ways**: mini-rows on no band configuration and mini-columns on no
//!   stack configuration are removed (three 512-entry table lookups a band or stack), repeated
//!   until the digit is stable. This is pointing and claiming for rows and columns, and with the
//!   next rule it finds every hidden single in boxes and columns too (a box, or a column, with one
//!   position for the digit leaves it one mini-row, so one position in that row).
//! - **hidden singles in rows**: a row with one position left, on an open cell, places the digit
//!   there: the cell leaves the other digits and `unsolved`.
//!
//! When nothing is dirty: **naked singles** (a once/twice sweep over the nine digits of each band
//! that changed; an open cell with no candidate is a contradiction). A state handed out is
//! therefore free of naked and hidden singles. Processing a digit records its number of band and
//! stack configurations (`Configs::conf`), which the branching rule reads.
//!
//! Tried and left out: tdoku's *triads* (each mini-row holds exactly three digits, so one with
//! three candidate digits holds them all, and one that three digits need leaves the others) cut
//! the hard tree by another fifth but cost more per node than they saved.
//!
//! # Search
//! Branch on the band or stack with the fewest configurations in all (its digits' counts
//! summed), on its digit with the fewest (at least two): each child keeps one configuration, so
//! three mini-rows (mini-columns) at once. When every digit's configurations are settled, branch
//! on the first cell with the fewest candidates. On the hardest puzzles this visits 0.5 times
//! the nodes of branching on a two-candidate cell. Children are copies of the 192-byte state (no
//! allocation). In count mode (`!S::NEEDS_GRID`) a state whose open cells all have
//! exactly two candidates is counted without branching: with no hidden single left every open
//! digit of every house then has exactly two positions (a house with `k` open cells has `2k`
//! candidates for `k` digits, each needing two), so the constraints are equations `x ⊕ y = c`
//! between two-valued cells, and the state has either no solution or `2^k`, `k` the number of
//! connected components; fixing one cell of a component and propagating settles the whole
//! component and tells which (see `Configs::count_bivalue`). The leaves are then reported with one
//! `ctx.solutions(2^k, w)`.

use super::tally::Tally;
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

/// The six permutations `i -> j` of a 3×3 matrix (bit `3 * i + j`).
const PERM_BITS: [u16; 6] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 6];
    let mut i = 0;
    while i < 6 {
        let p = PERMS[i];
        t[i] = (1 << p[0]) | (1 << (3 + p[1])) | (1 << (6 + p[2]));
        i += 1;
    }
    t
};

/// `KEEP9[m]` for a 3×3 matrix `m`: its entries that lie on some permutation contained in `m`
/// (0 when none is).
const KEEP9: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            let pb = PERM_BITS[i] as usize;
            if m & pb == pb {
                t[m] |= pb as u16;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `NPERM[m]`: how many permutations the 3×3 matrix `m` contains (its configurations).
const NPERM: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            let pb = PERM_BITS[i] as usize;
            if m & pb == pb {
                t[m] += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `MINI[x]` for a 9-bit row segment `x`: bit `k` set when box `k` of the row holds a bit.
const MINI: [u16; 512] = {
    let mut t = [0u16; 512];
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

/// `CELLS9[m]` for a mini-row matrix `m` (bit `3 * row + box`): the band cells of its mini-rows.
const CELLS9: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut r = 0;
        while r < 3 {
            let mut k = 0;
            while k < 3 {
                if m & (1 << (3 * r + k)) != 0 {
                    t[m] |= 7 << (9 * r + 3 * k);
                }
                k += 1;
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// `PERM_KEEP[m]` for a mini-row matrix `m`: the band cells of the mini-rows on some band
/// configuration (`CELLS9[KEEP9[m]]`, one lookup).
const PERM_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = CELLS9[KEEP9[m] as usize];
        m += 1;
    }
    t
};

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

/// `STACKS[o]` for the column occupancy `o` of band 0: its three mini-column triples in place
/// in the three stack matrices (stack `s` at bits `9 * s`, band 0 at bits `0..3` of each);
/// shift left by `3 * k` for band `k`.
const STACKS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut o = 0;
    while o < 512 {
        let mut s = 0;
        while s < 3 {
            t[o] |= (((o >> (3 * s)) & 7) as u32) << (9 * s);
            s += 1;
        }
        o += 1;
    }
    t
};

/// `COLS[m]` for a stack-0 matrix `m` (bit `3 * band + column`): the columns it keeps, as
/// the three bands' 9-bit column sets side by side (band `k` at bits `9 * k`); shift left by
/// `3 * s` for stack `s`.
const COLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            t[m] |= (((m >> (3 * k)) & 7) as u32) << (9 * k);
            k += 1;
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

/// The three digit-band bits of digit 0 in a dirty mask; shift left by `d` for digit `d`.
const DIGIT_BANDS: u32 = 1 | 1 << 9 | 1 << 18;

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

/// The mini-row matrix of a digit-band (bit `3 * row + box`).
#[inline(always)]
fn mini(a: u32) -> usize {
    (MINI[(a & 0x1FF) as usize]
        | MINI[((a >> 9) & 0x1FF) as usize] << 3
        | MINI[(a >> 18) as usize] << 6) as usize
}

/// The three stack matrices of a digit (stack `s` at bits `9 * s`, bit `3 * band + column`).
#[inline(always)]
fn stacks(a: [u32; 3]) -> u32 {
    STACKS[fold(a[0]) as usize]
        | STACKS[fold(a[1]) as usize] << 3
        | STACKS[fold(a[2]) as usize] << 6
}

/// The row-singles of a digit-band: the bits alone in their row.
#[inline(always)]
fn row_singles(a: u32) -> u32 {
    (SINGLE[(a & 0x1FF) as usize] as u32)
        | (SINGLE[((a >> 9) & 0x1FF) as usize] as u32) << 9
        | (SINGLE[(a >> 18) as usize] as u32) << 18
}

/// `PERMS_IN[m]`: the permutations contained in the 3×3 matrix `m` (bit `i` for
/// `PERM_BITS[i]`).
const PERMS_IN: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            let pb = PERM_BITS[i] as usize;
            if m & pb == pb {
                t[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// A propagated 9×9 state (plain data, 192 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Configs {
    /// `cand[9 * band + digit]`: the band cells where the digit is possible (placed included).
    cand: [u32; 27],
    /// The open cells of each band.
    unsolved: [u32; 3],
    /// `conf[d]`: digit `d`'s number of configurations in each band (bytes 0..3) and stack
    /// (bytes 3..6), as of its last processing (which follows its last change).
    conf: [u64; 9],
}

/// What a branch splits.
#[derive(Debug, Clone, Copy)]
enum Split {
    /// An open cell (band cell `pos` of `band`): a child per candidate digit.
    Cell { band: usize, pos: usize },
    /// Digit-band `i` (`9 * band + digit`): a child per band configuration.
    Band { i: usize },
    /// Digit `d` in stack `s`: a child per stack configuration.
    Stack { s: usize, d: usize },
}

/// Where and how to branch.
#[derive(Debug, Clone, Copy)]
struct Branch {
    split: Split,
    /// The children: candidate digits of the cell (bit `d`), or configurations (bit `i` for
    /// `PERM_BITS[i]`).
    alts: u32,
}

impl Configs {
    /// The state with nothing placed and nothing propagated.
    fn blank() -> Configs {
        Configs {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            conf: [0x0606_0606_0606; 9],
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

    /// Process digit `d` in its three bands: locked candidates both ways (mini-rows on no band
    /// configuration, mini-columns on no stack configuration) until the digit is stable, then
    /// hidden singles in its rows, placed at once. The other digit-bands this changes are marked
    /// in `dirty`, the digit's own changed bands in `touched` (for the naked-singles sweep).
    #[inline(always)]
    fn process_digit(&mut self, d: usize, dirty: &mut u32, touched: &mut u32) -> Result<(), Dead> {
        let old = [self.cand[d], self.cand[9 + d], self.cand[18 + d]];
        let mut a = old;
        let (m, v) = loop {
            let m = [mini(a[0]), mini(a[1]), mini(a[2])];
            for k in 0..3 {
                a[k] &= PERM_KEEP[m[k]];
            }
            let v = stacks(a);
            let cols = COLS[KEEP9[(v & 0x1FF) as usize] as usize]
                | COLS[KEEP9[((v >> 9) & 0x1FF) as usize] as usize] << 3
                | COLS[KEEP9[(v >> 18) as usize] as usize] << 6;
            let b = [
                a[0] & spread(cols & 0x1FF),
                a[1] & spread((cols >> 9) & 0x1FF),
                a[2] & spread(cols >> 18),
            ];
            if (b[0] == 0) | (b[1] == 0) | (b[2] == 0) {
                return Err(Dead);
            }
            if b == a {
                break (m, v);
            }
            a = b;
        };
        self.conf[d] = NPERM[m[0]] as u64
            | (NPERM[m[1]] as u64) << 8
            | (NPERM[m[2]] as u64) << 16
            | (NPERM[(v & 0x1FF) as usize] as u64) << 24
            | (NPERM[((v >> 9) & 0x1FF) as usize] as u64) << 32
            | (NPERM[(v >> 18) as usize] as u64) << 40;
        let mut mark = 0u32;
        for b in 0..3 {
            let x = a[b];
            *touched |= ((x != old[b]) as u32) << (9 * b + d);
            self.cand[9 * b + d] = x;
            let s = row_singles(x) & self.unsolved[b];
            if s != 0 {
                self.unsolved[b] &= !s;
                let base = 9 * b;
                let mut band_mark = 0;
                for e in 0..9 {
                    let y = self.cand[base + e];
                    band_mark |= (((y & s) != 0) as u32) << e;
                    self.cand[base + e] = y & !s;
                }
                self.cand[base + d] = x;
                mark |= band_mark << base;
            }
        }
        *dirty |= mark & !(DIGIT_BANDS << d);
        Ok(())
    }

    /// Naked singles of the bands in `touched` (digit-band mask); dead on an open cell without
    /// candidates.
    #[inline(always)]
    fn naked_singles(&mut self, touched: u32, dirty: &mut u32) -> Result<(), Dead> {
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 || touched & (0x1FF << (9 * b)) == 0 {
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
            let mut singles = u & !two;
            while singles != 0 {
                let p = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                // An earlier single of this sweep may have taken the cell's last candidate.
                let digits = self.digits_at(b, p);
                if digits == 0 {
                    return Err(Dead);
                }
                self.place(digits.trailing_zeros() as usize, b, p, dirty)?;
            }
        }
        Ok(())
    }

    /// Propagate to a fixpoint from the digit-bands marked in `dirty`.
    #[inline(always)]
    fn propagate(&mut self, mut dirty: u32) -> Result<(), Dead> {
        loop {
            // The digit-bands changed since the last naked-singles sweep: only their bands can
            // hold new naked singles.
            let mut touched = 0;
            while dirty != 0 {
                let mut sweep = fold(dirty);
                touched |= dirty;
                dirty = 0;
                while sweep != 0 {
                    let d = sweep.trailing_zeros() as usize;
                    sweep &= sweep - 1;
                    self.process_digit(d, &mut dirty, &mut touched)?;
                }
            }
            self.naked_singles(touched, &mut dirty)?;
            if dirty == 0 {
                return Ok(());
            }
        }
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

    /// True when every open cell has exactly two candidates.
    #[inline(always)]
    fn all_bivalue(&self) -> bool {
        let mut all = true;
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[9 * b + d];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            all &= (self.unsolved[b] & !(two & !three)) == 0;
        }
        all
    }

    /// Where to branch in an unsolved propagated state: the band or stack with the fewest
    /// configurations in all, on its digit with the fewest (at least two); when every digit's
    /// configurations are settled, the first open cell with the fewest candidates.
    #[inline(always)]
    fn branch(&self) -> Branch {
        // Bytes: the bands' and stacks' configuration totals (each digit has at least one, so
        // a total of 9 means all are settled).
        let total: u64 = self.conf.iter().sum();
        let (mut best, mut lane) = (u64::MAX, usize::MAX);
        for l in 0..6 {
            let t = (total >> (8 * l)) & 0xFF;
            if t > 9 && t < best {
                (best, lane) = (t, l);
            }
        }
        if lane == usize::MAX {
            return self.branch_cell();
        }
        let (mut least, mut at) = (u64::MAX, 0);
        for d in 0..9 {
            let n = (self.conf[d] >> (8 * lane)) & 0xFF;
            if n > 1 && n < least {
                (least, at) = (n, d);
            }
        }
        let split = if lane < 3 {
            Split::Band { i: 9 * lane + at }
        } else {
            Split::Stack { s: lane - 3, d: at }
        };
        Branch {
            split,
            alts: self.alternatives(split),
        }
    }

    /// The children of a split, as in [`Branch::alts`].
    #[inline(always)]
    fn alternatives(&self, split: Split) -> u32 {
        match split {
            Split::Cell { band, pos } => self.digits_at(band, pos),
            Split::Band { i } => PERMS_IN[mini(self.cand[i])] as u32,
            Split::Stack { s, d } => {
                let v = stacks([self.cand[d], self.cand[9 + d], self.cand[18 + d]]);
                PERMS_IN[((v >> (9 * s)) & 0x1FF) as usize] as u32
            }
        }
    }

    /// The first open cell with the fewest candidates.
    #[cold]
    #[inline(never)]
    fn branch_cell(&self) -> Branch {
        let mut best = Branch {
            split: Split::Cell { band: 0, pos: 0 },
            alts: 0,
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
                        split: Split::Cell { band: b, pos: p },
                        alts: digits,
                    };
                    if n <= 2 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The propagated child of alternative `alt` of a split (see [`Branch::alts`]); `None` when
    /// propagation finds a contradiction.
    #[inline(always)]
    fn child(&self, split: Split, alt: usize) -> Option<Configs> {
        let mut c = *self;
        let dirty = match split {
            Split::Cell { band, pos } => {
                let i = 9 * band + alt;
                c.cand[i] &= KEEP[pos];
                1 << i
            }
            Split::Band { i } => {
                c.cand[i] &= CELLS9[PERM_BITS[alt] as usize];
                1 << i
            }
            Split::Stack { s, d } => {
                let cols = COLS[PERM_BITS[alt] as usize] << (3 * s);
                let other = 0x1FF & !(7 << (3 * s));
                for k in 0..3 {
                    c.cand[9 * k + d] &= spread(((cols >> (9 * k)) & 0x1FF) | other);
                }
                DIGIT_BANDS << d
            }
        };
        c.propagate(dirty).ok()?;
        Some(c)
    }

    /// The number of solutions of a propagated state whose open cells all have two candidates:
    /// 0 or a power of two (see the module docs). Fix one cell per component, propagate, double.
    #[inline(never)]
    fn count_bivalue(&self) -> u64 {
        let mut st = *self;
        let mut k = 0u32;
        loop {
            let Some(b) = st.unsolved.iter().position(|&u| u != 0) else {
                return 1u64 << k;
            };
            let p = st.unsolved[b].trailing_zeros() as usize;
            let d = st.digits_at(b, p).trailing_zeros() as usize;
            match st.child(Split::Cell { band: b, pos: p }, d) {
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
    fn children(&self, mut f: impl FnMut(Configs)) -> usize {
        let br = self.branch();
        let mut alts = br.alts;
        while alts != 0 {
            let alt = alts.trailing_zeros() as usize;
            alts &= alts - 1;
            if let Some(c) = self.child(br.split, alt) {
                f(c);
            }
        }
        br.alts.count_ones() as usize
    }
}

/// Depth-first search below a propagated state of weight `w`.
fn search_rec<T: Tally>(st: &Configs, ctx: &mut T, w: f64) -> ControlFlow<()> {
    ctx.node()?;
    if st.solved() {
        return if T::NEEDS_GRID {
            ctx.solution(&st.grid(), w)
        } else {
            ctx.solutions(1, w)
        };
    }
    if !T::NEEDS_GRID && st.all_bivalue() {
        let k = st.count_bivalue();
        return if k == 0 {
            ctx.dead_end(w);
            ControlFlow::Continue(())
        } else {
            ctx.solutions(k, w)
        };
    }
    let br = st.branch();
    let cw = w / br.alts.count_ones() as f64;
    let mut alts = br.alts;
    while alts != 0 {
        let alt = alts.trailing_zeros() as usize;
        alts &= alts - 1;
        ctx.guess();
        match st.child(br.split, alt) {
            Some(c) => search_rec(&c, ctx, cw)?,
            None => {
                ctx.node()?;
                ctx.dead_end(cw);
            }
        }
    }
    ControlFlow::Continue(())
}

impl Configs {
    /// The propagated state with the candidates `cand` and open cells `unsolved` of a lean
    /// [`super::nine::Nine`] state (the same band layout); `None` on a contradiction.
    pub(super) fn from_bands(cand: [u32; 27], unsolved: [u32; 3]) -> Option<Configs> {
        let mut st = Configs {
            cand,
            unsolved,
            conf: [0x0606_0606_0606; 9],
        };
        st.propagate(BAND).ok()?;
        Some(st)
    }

    /// [`Engine::search`] reporting to any [`Tally`].
    pub(super) fn search_with<T: Tally>(&self, t: &mut T, weight: f64) -> ControlFlow<()> {
        search_rec(self, t, weight)
    }
}

impl Engine for Configs {
    fn new(puzzle: &Puzzle) -> Option<Configs> {
        assert_eq!(
            puzzle.shape(),
            Shape::NINE,
            "the 9×9 engine got another shape"
        );
        let mut st = Configs::blank();
        let mut dirty = 0;
        let cells = puzzle.cells();
        // The given cells of each band, gathered without branches (a branch per cell would be
        // mispredicted often).
        let mut given = [0u32; 3];
        for (cell, &v) in cells.iter().enumerate() {
            given[cell / 27] |= ((v != 0) as u32) << (cell % 27);
        }
        for (b, &g) in given.iter().enumerate() {
            let mut g = g;
            while g != 0 {
                let p = g.trailing_zeros() as usize;
                g &= g - 1;
                let d = cells[27 * b + p] as usize - 1;
                st.place(d, b, p, &mut dirty).ok()?;
                // Settle the given at once: the cell leaves the other digits, the column the
                // digit's other bands (in its own band `place` cleared the column but the cell).
                for k in 0..3 {
                    st.cand[9 * k + d] &= !spread(1 << (p % 9));
                }
                for e in 0..9 {
                    st.cand[9 * b + e] &= !(1 << p);
                }
                st.cand[9 * b + d] |= 1 << p;
                st.unsolved[b] &= !(1 << p);
            }
        }
        st.propagate(BAND).ok()?;
        Some(st)
    }

    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()> {
        search_rec(self, ctx, weight)
    }

    fn expand(&self, out: &mut Vec<Configs>) -> Expansion {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Shared;
    use crate::engine::generic::Generic;
    use crate::sink::{CollectSink, CountSink};

    const BAND1: &str = "123456789456789123789123456";

    fn puzzle(line: &str) -> Puzzle {
        assert_eq!(line.len(), 81);
        let cells = line
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        Puzzle::new(Shape::NINE, cells).unwrap()
    }

    fn count<E: Engine>(e: &E, limit: Option<u64>) -> u128 {
        let shared = Shared::new(limit);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = e.search(&mut ctx, 1.0);
        ctx.stats.solutions
    }

    fn count_puzzle<E: Engine>(p: &Puzzle, limit: Option<u64>) -> u128 {
        E::new(p).map_or(0, |e| count(&e, limit))
    }

    /// A few puzzles: no solution, unique ones, several solutions.
    const SAMPLES: [&str; 5] = [
        ".....2.8..7.6......1.....92....263.99..7.......8.1567.....61.4.........35...97...",
        "...............1.2...34..5...6.......7..5.8...6.......4....7.8.5...3.....1.9.....",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        "123456789456789123789123456214365897365897214....................................",
    ];

    #[test]
    fn tables() {
        // The full mini-row matrix keeps everything; a matrix without a permutation nothing.
        assert_eq!(PERM_KEEP[0x1FF], BAND);
        assert_eq!(PERM_KEEP[0b000_000_111], 0);
        // A diagonal matrix keeps exactly its three mini-rows.
        assert_eq!(PERM_KEEP[0b100_010_001], 7 | 7 << 12 | 7 << 24);
        assert_eq!(MINI[0b000_010_000], 0b010);
        assert_eq!(SINGLE[0b000_100_000], 0b000_100_000);
        assert_eq!(SINGLE[0b000_100_001], 0);
        assert_eq!(
            (NPERM[0x1FF], NPERM[0b100_010_001], NPERM[0b011_011_000]),
            (6, 1, 0)
        );
        // Two permutations sharing one entry: both kept, in PERMS_IN and in KEEP9.
        let two = PERM_BITS[0] | PERM_BITS[1];
        assert_eq!(NPERM[two as usize], 2);
        assert_eq!(PERMS_IN[two as usize], 0b11);
        assert_eq!(KEEP9[two as usize | 0b010_000_000], two);
        for (p, keep) in KEEP.iter().enumerate() {
            assert_eq!(keep.count_ones(), 27 - 9 - 6 + 1, "cell {p}");
            assert_ne!(keep & (1 << p), 0);
        }
    }

    #[test]
    fn matrices_match_a_cell_by_cell_reading() {
        // Pseudo-random digit positions: the mini-row and mini-column matrices read through the
        // tables equal those read cell by cell, and COLS inverts STACKS.
        let mut x = 0x9E37_79B9u32;
        for _ in 0..2000 {
            let mut a = [0u32; 3];
            for w in a.iter_mut() {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *w = x & BAND;
            }
            let mut rows = [0usize; 3];
            let mut stack = 0u32;
            for (k, &w) in a.iter().enumerate() {
                for p in 0..27 {
                    if w & (1 << p) != 0 {
                        let (r, c) = (p / 9, p % 9);
                        rows[k] |= 1 << (3 * r + c / 3);
                        stack |= 1 << (9 * (c / 3) + 3 * k + c % 3);
                    }
                }
            }
            assert_eq!([mini(a[0]), mini(a[1]), mini(a[2])], rows);
            assert_eq!(stacks(a), stack);
            for s in 0..3 {
                let m = ((stack >> (9 * s)) & 0x1FF) as usize;
                let cols = COLS[m] << (3 * s);
                for (k, &w) in a.iter().enumerate() {
                    assert_eq!((cols >> (9 * k)) & 0x1FF, fold(w) & (7 << (3 * s)));
                }
            }
        }
    }

    #[test]
    fn agrees_with_generic_on_small_samples() {
        for line in SAMPLES {
            let p = puzzle(line);
            assert_eq!(
                count_puzzle::<Configs>(&p, Some(2)),
                count_puzzle::<Generic>(&p, Some(2)),
                "{line}"
            );
        }
    }

    #[test]
    fn first_band_with_three_more_rows_matches_generic() {
        let line = format!("{BAND1}214365897365897214897214365{}", ".".repeat(27));
        let p = puzzle(&line);
        let ours = count_puzzle::<Configs>(&p, None);
        assert!(ours > 0);
        assert_eq!(ours, count_puzzle::<Generic>(&p, None));
        // Two more rows given, a few more columns open: still quick, many solutions.
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let p = puzzle(&line);
        let ours = count_puzzle::<Configs>(&p, None);
        assert!(ours > 100, "{ours}");
        assert_eq!(ours, count_puzzle::<Generic>(&p, None));
    }

    #[test]
    fn first_band_with_one_more_row() {
        // Cross-checked with the sudoku crate (peer harness).
        let line = format!("{BAND1}214365897{}", ".".repeat(45));
        assert_eq!(count_puzzle::<Configs>(&puzzle(&line), None), 633_312);
    }

    #[test]
    fn expansion_partitions_the_count() {
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let root = Configs::new(&puzzle(&line)).unwrap();
        let total = count(&root, None);
        // Two levels of expansion.
        let mut kids = Vec::new();
        let Expansion::Branched { choices } = root.expand(&mut kids) else {
            panic!("solved?")
        };
        assert!(choices >= kids.len() && !kids.is_empty());
        let mut sum = 0;
        for k in &kids {
            assert!(k.open_cells() < root.open_cells());
            let mut grandkids = Vec::new();
            match k.expand(&mut grandkids) {
                Expansion::Solved => sum += 1,
                Expansion::Branched { .. } => {
                    sum += grandkids.iter().map(|g| count(g, None)).sum::<u128>()
                }
            }
        }
        assert_eq!(sum, total);
        // A solved state says so.
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let s = Configs::new(&puzzle(solved)).unwrap();
        assert_eq!(s.expand(&mut Vec::new()), Expansion::Solved);
        assert_eq!(s.open_cells(), 0);
        assert_eq!(s.values(), puzzle(solved).cells());
    }

    #[test]
    fn solutions_are_valid_keep_givens_and_limits_are_exact() {
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let p = puzzle(&line);
        let e = Configs::new(&p).unwrap();
        let total = count(&e, None);
        for limit in [1u64, 2, 5, 64, 1_000_000] {
            let shared = Shared::new(Some(limit));
            let mut sink = CollectSink::default();
            let mut ctx = Ctx::new(&mut sink, &shared);
            let _ = e.search(&mut ctx, 1.0);
            drop(ctx);
            assert_eq!(sink.solutions.len() as u128, total.min(limit as u128));
            for s in &sink.solutions {
                assert!(p.is_solution(s), "{s:?}");
            }
            let mut sorted = sink.solutions.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), sink.solutions.len(), "duplicates");
            // Count mode with the same limit agrees.
            assert_eq!(count(&e, Some(limit)), total.min(limit as u128));
        }
    }

    #[test]
    fn values_keep_the_givens() {
        let p = puzzle(SAMPLES[2]);
        let e = Configs::new(&p).unwrap();
        let v = e.values();
        for (i, &g) in p.cells().iter().enumerate() {
            if g != 0 {
                assert_eq!(v[i], g);
            }
        }
        assert_eq!(e.open_cells(), v.iter().filter(|&&x| x == 0).count());
    }

    #[test]
    fn clashing_givens_give_no_state() {
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "11");
        assert!(Configs::new(&puzzle(&line)).is_none());
    }
}
