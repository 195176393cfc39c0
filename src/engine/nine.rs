//! The specialised 9×9 engine: a band bitboard in the JCZSolve / fsss2 tradition, written from
//! the published ideas (no code copied).
//!
//! # Representation
//! For each digit `d` and band `b` (rows `3b..3b+3`) one `u32` holds the 27 cells of the band
//! (bit `9 * (row % 3) + col`) where `d` is still possible: `cand[9 * b + d]`. A placed digit
//! keeps its bit (so every digit has, in every band, at least one position per row and per box,
//! exactly one once solved); `unsolved[b]` holds the open cells of each band.
//!
//! # Propagation
//! Digit-bands that changed are marked in a 27-bit dirty mask and processed in sweeps in
//! ascending order (a digit-band hit several times is seen once: what a sweep changes waits for
//! the next one, unless the sweep still has that digit-band to process, which then sees the
//! change and drops the mark). Processing one:
//! - **locked candidates, row–box**: the 3×3 "mini-row" matrix (row × box of the band, set
//!   where the digit still has a position) must contain a permutation (the digit goes once in
//!   each row and once in each box of the band); mini-rows on no such permutation are removed
//!   (a 512-entry table). This is pointing and claiming done exactly for the band, and it
//!   detects empty rows and boxes.
//! - **locked candidates, box–column**: a column holding all of the digit's positions in one box
//!   of the band (a placed digit included) leaves the digit's other two bands.
//! - **hidden singles in rows**: a row of the band with one position left, on an open cell,
//!   places the digit there: the cell leaves the other digits and `unsolved`.
//!
//! Only the digit-bands that really changed are marked (branch-free, from the bits removed).
//! When nothing is dirty: **naked singles** (a once/twice sweep over the nine digits of each
//! band that changed since the last such sweep; an open cell with no candidate is a
//! contradiction). Placing a single only clears the
//! digit from the cell's row and box inside its band and marks it dirty: the row-single rule
//! finishes the job.
//!
//! **Hidden singles in columns and boxes** (per digit, a once/twice sweep over the nine row
//! segments, for the digits that changed since the last such sweep; an empty column is a
//! contradiction) run when the rest is quiet, in the bivalue count below only: at the root, in
//! [`Engine::expand`] and inside `search` they cost more than the nodes they save
//! (`SEARCH_HIDDEN`). (Hidden singles in boxes and rows are found by the band rules above.)
//!
//! # Search
//! Branch on the first cell with two candidates, else on the first cell with the fewest
//! candidates; children are copies of the 120-byte state (no allocation). In count mode
//! (`!S::NEEDS_GRID`) a state whose open cells all have exactly two candidates is counted
//! without branching: once no hidden single is left, every open digit of every house then has
//! exactly two positions (a house with `k` open cells has `2k` candidates for `k` digits, each
//! needing two), so the constraints are equations `x ⊕ y = c` between two-valued cells, and the
//! state has either no solution or `2^k`, `k` the number of connected components; fixing one
//! cell of a component and propagating settles the whole component and tells which (see
//! `Nine::count_bivalue`). The leaves are then reported with one `ctx.solutions(2^k, w)`.
//!
//! **Staged uniqueness checks.** Counting under a limit of at most [`STAGED_LIMIT`] (the
//! uniqueness check counts to 2) with a count-only sink, the search branches on cells as above
//! for its first `CELL_NODES` nodes (16), which settles easy puzzles and finds the solutions of
//! puzzles that have many; then, at each node, it applies locked candidates on the stack side
//! and branches on *stack configurations* ([`configs`]: the placement of one digit in a stack,
//! up to six children that each fix three mini-columns). Configuration branching can thrash on
//! nearly empty grids, so the staged search counts privately (a [`Probe`]) and is given up
//! after `STAGED_NODES` nodes (2^15, a few milliseconds); the plain search then starts again.
//! On 1,000 forum-hardest puzzles this visits 195 k nodes instead of 326 k, for 18% fewer
//! instructions; 12% fewer on top1465, 1–2% on puzzles that propagation all but solves.
//! (Configurations from the root visit 175 k nodes on the hardest puzzles, but puzzles with
//! many solutions find them later: 30% more instructions on the serg set.)
//!
//! **Remembered subtree counts.** Counting without a small limit (count-only sinks, no limit
//! under 2^16), a state with 12 to 48 open cells looks up its key (the open cells and their
//! candidates, `Nine::memo_key`) in the thread's [`memo`] table before searching, and stores
//! its subtree's count after a search that ran to the end. Counting trees repeat sub-problems
//! (two fillings of a band that leave the same candidates below): the first band plus a
//! fourth row takes 94 k nodes instead of 359 k, the first-band puzzle 0.86 G nodes for its
//! 7.8 G solutions.
//!
//! # Builds
//! The search, the root propagation and the bivalue count are compiled for each `Isa`: the
//! target's baseline (`Portable`) and, on x86-64 CPUs that have AVX2, BMI1, BMI2, LZCNT and
//! POPCNT, `V3`, chosen at run time by [`Engine::new`] and [`Engine::search`]. The search
//! recurses through its `Isa`, so a whole tree runs one build; `V3` takes about 10% fewer
//! instructions (three-operand vector forms, `andn`, `blsr`, `tzcnt`, `popcnt`). Both builds
//! are the same source, and a test checks that they reach the same root states and walk the
//! same trees.

use super::bands::{Plan, Tail};
use super::configs::{self, Choice, Split};
use super::lanes;
use super::memo::{self, Memo};
use super::tally::{Attempt, Probe, Tally};
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
pub(super) const MINI: [u8; 512] = {
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

/// `MINI_AT[k][x]`: `MINI[x]` for row `k` of a band, in place in the mini-row matrix.
const MINI_AT: [[u16; 512]; 3] = {
    let mut t = [[0u16; 512]; 3];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            t[k][x] = (MINI[x] as u16) << (3 * k);
            k += 1;
        }
        x += 1;
    }
    t
};

/// `SINGLE_AT[k][x]`: `SINGLE[x]` for row `k` of a band, in place in the band.
const SINGLE_AT: [[u32; 512]; 3] = {
    let mut t = [[0u32; 512]; 3];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            t[k][x] = (SINGLE[x] as u32) << (9 * k);
            k += 1;
        }
        x += 1;
    }
    t
};

/// `COL_LOCK[o]` for a 9-bit column occupancy `o` of a digit in a band: the columns of `o`
/// alone in their box, spread over the three rows of a band (what leaves the other bands).
const COL_LOCK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut o = 0;
    while o < 512 {
        let c = ONE_COL_BOX[o] as u32;
        t[o] = c | c << 9 | c << 18;
        o += 1;
    }
    t
};

/// `OTHER[i]` for a digit-band `i = 9 * band + digit`: the same digit's two other bands.
const OTHER: [(u8, u8); 27] = {
    let mut t = [(0u8, 0u8); 27];
    let mut i = 0;
    while i < 27 {
        let (b, d) = (i / 9, i % 9);
        t[i] = ((9 * ((b + 1) % 3) + d) as u8, (9 * ((b + 2) % 3) + d) as u8);
        i += 1;
    }
    t
};

/// Spread a 9-bit column set over the three rows of a band.
#[inline(always)]
pub(super) fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// Fold the three rows of a band onto one 9-bit column set.
#[inline(always)]
pub(super) fn fold(a: u32) -> u32 {
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

    /// The propagated root state of a 9×9 grid (`cells`: 81 values, 0 for open); `None` when
    /// givens clash or propagation finds no solution. The body of [`Isa::root`].
    #[inline(always)]
    fn root_state(cells: &[u8]) -> Option<Nine> {
        let mut st = Nine::blank();
        let given = given_cells(cells);
        // Each given takes its digit's row and box in its band and its column in every band
        // (its own cell too, given back below). A given whose cell an earlier given of its
        // digit took clashes with it.
        let mut own = [0u32; 27];
        for (b, &g) in given.iter().enumerate() {
            let mut g = g;
            while g != 0 {
                let p = g.trailing_zeros() as usize;
                g &= g - 1;
                let d = cells[27 * b + p] as usize - 1;
                let i = 9 * b + d;
                if st.cand[i] & (1 << p) == 0 {
                    return None;
                }
                st.cand[i] &= KEEP[p];
                let col = !spread(1 << (p % 9));
                st.cand[d] &= col;
                st.cand[9 + d] &= col;
                st.cand[18 + d] &= col;
                own[i] |= 1 << p;
            }
        }
        // The given cells leave every digit but their own.
        for (b, &g) in given.iter().enumerate() {
            st.unsolved[b] = BAND & !g;
            let band = 9 * b..9 * b + 9;
            for (c, &o) in st.cand[band.clone()].iter_mut().zip(&own[band]) {
                *c = (*c & !g) | o;
            }
        }
        // As at every node of the search: column hidden singles are left to branching (a full
        // pass here costs uniqueness checks of puzzles with many givens about 7% and saves
        // almost no nodes).
        st.propagate::<SEARCH_HIDDEN>(BAND, BAND).ok()?;
        Some(st)
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
    /// `dirty`; this one's mark is cleared, also when an earlier call of the same sweep set it:
    /// it is processed now, with that change (3–4% fewer instructions: no second visit).
    #[inline(always)]
    fn process(&mut self, i: usize, dirty: &mut u32) -> Result<(), Dead> {
        let b = i / 9;
        let a = self.cand[i];
        let m = (MINI_AT[0][(a & 0x1FF) as usize]
            | MINI_AT[1][((a >> 9) & 0x1FF) as usize]
            | MINI_AT[2][(a >> 18) as usize]) as usize;
        let a = a & PERM_KEEP[m];
        if a == 0 {
            return Err(Dead);
        }
        let cols = COL_LOCK[fold(a) as usize];
        let (j1, j2) = (OTHER[i].0 as usize, OTHER[i].1 as usize);
        let (x1, x2) = (self.cand[j1], self.cand[j2]);
        self.cand[j1] = x1 & !cols;
        self.cand[j2] = x2 & !cols;
        self.cand[i] = a;
        let mut mark = ((x1 & cols != 0) as u32) << j1 | ((x2 & cols != 0) as u32) << j2;
        let s = (SINGLE_AT[0][(a & 0x1FF) as usize]
            | SINGLE_AT[1][((a >> 9) & 0x1FF) as usize]
            | SINGLE_AT[2][(a >> 18) as usize])
            & self.unsolved[b];
        if s != 0 {
            self.unsolved[b] &= !s;
            let base = 9 * b;
            let band_mark = self
                .band_mut(b)
                .map_or(0, |band| lanes::clear_cells(band, s));
            self.cand[i] = a;
            mark |= band_mark << base;
        }
        *dirty = (*dirty | mark) & !(1 << i);
        Ok(())
    }

    /// The nine digit words of band `b` (`None` only for `b >= 3`).
    #[inline(always)]
    fn band_mut(&mut self, b: usize) -> Option<&mut [u32; 9]> {
        self.cand.get_mut(9 * b..9 * b + 9)?.try_into().ok()
    }

    /// Naked singles of every band; dead on an open cell without candidates.
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

    /// Hidden singles in columns and boxes of the digits in `digits` (bit `d`); dead on a
    /// column without a position for a digit.
    #[inline(always)]
    fn hidden_singles(&mut self, mut digits: u32, dirty: &mut u32) -> Result<(), Dead> {
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
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

    /// Propagate to a fixpoint from the digit-bands marked in `dirty`. With `HIDDEN`, hidden
    /// singles in columns and boxes are applied too, checked for the digits that changed and
    /// those of `hid` (a digit-band mask: `BAND` when the state may hold any, 0 when it came
    /// out of a `HIDDEN` propagation: a digit whose positions did not change keeps its
    /// column and box counts).
    #[inline(always)]
    fn propagate<const HIDDEN: bool>(&mut self, mut dirty: u32, mut hid: u32) -> Result<(), Dead> {
        loop {
            // The digit-bands processed since the last naked-singles sweep: only their bands
            // can hold new naked singles (every change marks its digit-band dirty).
            let mut touched = 0;
            while dirty != 0 {
                let mut sweep = dirty;
                touched |= sweep;
                dirty = 0;
                while sweep != 0 {
                    let i = sweep.trailing_zeros() as usize;
                    sweep &= sweep - 1;
                    self.process(i, &mut dirty)?;
                }
            }
            self.naked_singles(touched, &mut dirty)?;
            hid |= touched;
            if dirty != 0 {
                continue;
            }
            if !HIDDEN || self.solved() {
                return Ok(());
            }
            self.hidden_singles(fold(hid), &mut dirty)?;
            hid = 0;
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
        // With `HIDDEN`, `self` came out of a `HIDDEN` propagation (`count_bivalue`).
        c.propagate::<HIDDEN>(dirty, 0).ok()?;
        Some(c)
    }

    /// The propagated child keeping configuration `alt` of a configuration split.
    #[inline(always)]
    fn config_child(&self, split: Split, alt: usize) -> Option<Nine> {
        let mut c = *self;
        let dirty = configs::restrict(&mut c.cand, split, alt);
        c.propagate::<SEARCH_HIDDEN>(dirty, 0).ok()?;
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
            all_bivalue &= biv == u;
            if biv != 0 && first.is_none() {
                first = Some((b, biv.trailing_zeros() as usize));
            }
        }
        match first {
            Some((band, pos)) => Branch {
                band,
                pos,
                digits: self.digits_at(band, pos),
                all_bivalue,
            },
            None => self.branch_fewest(),
        }
    }

    /// The branching cell inside band `b` (which has an open cell): the first open cell with
    /// two candidates, else the first with the fewest. `all_bivalue` is not computed (false).
    #[inline(always)]
    fn branch_in_band(&self, b: usize) -> Branch {
        let mut best = Branch {
            band: b,
            pos: 0,
            digits: 0,
            all_bivalue: false,
        };
        let mut best_n = u32::MAX;
        let mut u = self.unsolved[b];
        while u != 0 {
            let p = u.trailing_zeros() as usize;
            u &= u - 1;
            let digits = self.digits_at(b, p);
            let n = digits.count_ones();
            if n < best_n {
                best_n = n;
                best.pos = p;
                best.digits = digits;
                if n <= 2 {
                    break;
                }
            }
        }
        best
    }

    /// The number of leading bands with every cell placed.
    #[inline(always)]
    fn filled_bands(&self) -> usize {
        self.unsolved.iter().take_while(|&&u| u == 0).count()
    }

    /// The digits each column lacks in the first `k` bands (all placed), into `rem`.
    fn lacking(&self, k: usize, rem: &mut [u64; 9]) {
        *rem = [0x1FF; 9];
        for b in 0..k {
            for d in 0..9 {
                let mut cols = fold(self.cand[9 * b + d]);
                while cols != 0 {
                    rem[cols.trailing_zeros() as usize] &= !(1 << d);
                    cols &= cols - 1;
                }
            }
        }
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
    /// power of two (see the module docs). Fix one cell per component, propagate, double. The
    /// body of [`Isa::count_bivalue`].
    #[inline(always)]
    fn count_bivalue(&self) -> u64 {
        // Propagation keeps every open cell at two candidates (a cell that loses one is placed);
        // the argument needs hidden singles applied everywhere, so propagate fully first.
        let mut st = *self;
        if st.propagate::<true>(0, BAND).is_err() {
            return 0;
        }
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

    /// The key of this state's sub-problem for the count table: the open cells and their
    /// candidates. The number of completions depends on nothing else: a placed digit is never
    /// a candidate of an open cell that sees it (placing clears it from the cell's row and box,
    /// the column-lock rule from its column in the other bands), so each house's missing
    /// digits are its open cells' candidates, unless fewer than its open cells (then the
    /// state has no completion, whatever was placed).
    #[inline(always)]
    fn memo_key(&self) -> memo::Key {
        let mut w = [0u32; 2 * memo::KEY_WORDS];
        for (i, x) in w.iter_mut().take(27).enumerate() {
            *x = self.cand[i] & self.unsolved[i / 9];
        }
        w[27..30].copy_from_slice(&self.unsolved);
        let mut key = [0u64; memo::KEY_WORDS];
        for (k, pair) in key.iter_mut().zip(w.chunks_exact(2)) {
            *k = pair[0] as u64 | (pair[1] as u64) << 32;
        }
        key
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
    fn children(&self, f: impl FnMut(Nine)) -> usize {
        self.children_at(self.branch(), f)
    }

    /// The propagated children of branching on `br`, in search order, and the branching factor.
    fn children_at(&self, br: Branch, mut f: impl FnMut(Nine)) -> usize {
        let mut ds = br.digits;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            if let Some(c) = self.child::<SEARCH_HIDDEN>(d, br.band, br.pos) {
                f(c);
            }
        }
        br.digits.count_ones() as usize
    }
}

/// Whether the search applies hidden singles in columns and boxes at every node.
const SEARCH_HIDDEN: bool = false;

/// The open-cell counts of the states whose subtree counts are remembered: below the range a
/// subtree costs less than a table probe, above it repeats are rare.
const MEMO_OPEN: std::ops::RangeInclusive<usize> = 12..=48;

/// Whether a search under this context remembers subtree counts: count-only sinks, and no
/// limit small enough to end the search in a few nodes anyway.
fn wants_memo<S: Sink>(ctx: &Ctx<'_, S>) -> bool {
    !S::NEEDS_GRID && ctx.tables && ctx.shared.limit().map_or(true, |n| n >= 1 << 16)
}

/// What a search does besides walking the tree (see the module docs).
enum Mode<'m> {
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

impl Mode<'_> {
    /// A shorter borrow of the same mode, for a child.
    #[inline(always)]
    fn reborrow(&mut self) -> Mode<'_> {
        match self {
            Mode::Plain => Mode::Plain,
            Mode::Memo(m) => Mode::Memo(m),
            Mode::Staged(left) => Mode::Staged(left),
            Mode::Bands(plan, asked) => Mode::Bands(plan, *asked),
        }
    }
}

/// A set of CPU instructions the search is compiled for. The search recurses through
/// [`Isa::search`], so a tree runs one build of the code from its root down.
trait Isa: Copy {
    /// [`search_rec`] compiled for this instruction set.
    fn search<T: Tally>(self, st: &Nine, t: &mut T, w: f64, mode: Mode<'_>) -> ControlFlow<()>;

    /// [`Nine::root_state`] compiled for this instruction set.
    fn root(self, cells: &[u8]) -> Option<Nine>;

    /// [`Nine::count_bivalue`] compiled for this instruction set (not inlined: leaves only).
    fn count_bivalue(self, st: &Nine) -> u64;
}

/// The target's baseline instructions (any x86-64, arm64, …).
#[derive(Debug, Clone, Copy)]
struct Portable;

impl Isa for Portable {
    fn search<T: Tally>(self, st: &Nine, t: &mut T, w: f64, mode: Mode<'_>) -> ControlFlow<()> {
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
struct V3(());

#[cfg(target_arch = "x86_64")]
impl V3 {
    /// A `V3` when this CPU has its instructions.
    fn detect() -> Option<V3> {
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
    fn search<T: Tally>(self, st: &Nine, t: &mut T, w: f64, mode: Mode<'_>) -> ControlFlow<()> {
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
    mode: Mode<'_>,
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
    mode: Mode<'_>,
) -> ControlFlow<()> {
    t.node()?;
    match mode {
        Mode::Plain => search_node(isa, st, t, w, Mode::Plain),
        Mode::Memo(m) => {
            if !MEMO_OPEN.contains(&st.open_cells()) {
                return search_node(isa, st, t, w, Mode::Memo(m));
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
            search_node(isa, st, t, w, Mode::Memo(&mut *m))?;
            if let Ok(n) = u64::try_from(t.found() - before) {
                m.put(&key, n);
            }
            ControlFlow::Continue(())
        }
        Mode::Staged(left) => {
            *left = left.saturating_sub(1);
            search_node(isa, st, t, w, Mode::Staged(left))
        }
        Mode::Bands(plan, mut asked) => {
            let k = st.filled_bands();
            if k > asked && k < 3 {
                let mut rem = [0u64; 9];
                st.lacking(k, &mut rem);
                match plan.tail(k, &rem, t.shared(), w) {
                    Tail::Count(n, w) => return t.solutions_wide(n, w),
                    Tail::Stopped => return ControlFlow::Break(()),
                    Tail::Declined => asked = k,
                }
            }
            search_node(isa, st, t, w, Mode::Bands(plan, asked))
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
    mut mode: Mode<'_>,
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
fn search_step<I: Isa, T: Tally>(isa: I, st: &Nine, t: &mut T, w: f64, mode: Mode<'_>) -> Step {
    if st.solved() {
        return Step::Done(if T::NEEDS_GRID {
            t.solution(&st.grid(), w)
        } else {
            t.solutions(1, w)
        });
    }
    let mut br = st.branch();
    if let Mode::Bands(..) = mode {
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
    if matches!(&mode, Mode::Staged(left) if **left == 0) {
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
    mut mode: Mode<'_>,
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
    mut mode: Mode<'_>,
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
pub const STAGED_LIMIT: u64 = 2;

/// Nodes a staged search branches on cells before it turns to configurations.
const CELL_NODES: u64 = 16;

/// Nodes a staged search may take in all before it starts again, plain (see the module docs).
const STAGED_NODES: u64 = 1 << 15;

/// Whether a search under this context is staged: count-only sinks under a small limit.
fn wants_stages<S: Sink>(ctx: &Ctx<'_, S>) -> bool {
    !S::NEEDS_GRID && ctx.shared.limit().is_some_and(|n| n <= STAGED_LIMIT)
}

/// A staged search under `limit` (at most [`STAGED_LIMIT`]), counted privately; should it use
/// up [`STAGED_NODES`] nodes (configuration branching can thrash on nearly empty grids), what
/// it found is forgotten and the plain search starts again from `st`.
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
fn search_staged_with<I: Isa, S: Sink>(
    isa: I,
    st: &Nine,
    ctx: &mut Ctx<'_, S>,
    w: f64,
    limit: u64,
    cell_nodes: u64,
    nodes: u64,
) -> ControlFlow<()> {
    let mut left = cell_nodes;
    let attempt = Probe::attempt(ctx, limit, nodes, w, |p| {
        isa.search(st, p, w, Mode::Staged(&mut left))
    });
    match attempt {
        Attempt::Done(flow) => flow,
        Attempt::GaveUp => isa.search(st, ctx, w, Mode::Plain),
    }
}

impl Nine {
    /// [`Engine::search`] compiled for `isa`.
    fn search_with<I: Isa, S: Sink>(
        &self,
        isa: I,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
    ) -> ControlFlow<()> {
        if let Some(plan) = ctx.bands {
            isa.search(self, ctx, weight, Mode::Bands(plan, 0))
        } else if wants_memo(ctx) {
            memo::with_table(|m| match m {
                Some(m) => isa.search(self, ctx, weight, Mode::Memo(m)),
                None => isa.search(self, ctx, weight, Mode::Plain),
            })
        } else if wants_stages(ctx) {
            let limit = ctx.shared.limit().unwrap_or(STAGED_LIMIT);
            search_staged(isa, self, ctx, weight, limit)
        } else {
            isa.search(self, ctx, weight, Mode::Plain)
        }
    }
}

/// The given (non-zero) cells of each band of a 9×9 grid, gathered eight cells at a time
/// without branches (a branch per cell would be mispredicted often).
#[inline(always)]
fn given_cells(cells: &[u8]) -> [u32; 3] {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let mut bits = 0u128;
    let mut chunks = cells.chunks_exact(8);
    for (k, c) in chunks.by_ref().enumerate() {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // Bit 7 of each byte: set when the byte is not zero (no carry crosses a byte).
        let high = (((x & LOW7) + LOW7) | x) & !LOW7;
        // The eight flags, gathered into the top byte by one multiplication.
        let flags = ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u128;
        bits |= flags << (8 * k);
    }
    for (k, &v) in chunks.remainder().iter().enumerate() {
        bits |= ((v != 0) as u128) << (cells.len() / 8 * 8 + k);
    }
    [
        (bits & BAND as u128) as u32,
        ((bits >> 27) & BAND as u128) as u32,
        ((bits >> 54) & BAND as u128) as u32,
    ]
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
        assert_eq!(ONE_COL_BOX[0b011_100_001], 0b000_100_001);
        for (p, keep) in KEEP.iter().enumerate() {
            assert_eq!(keep.count_ones(), 27 - 9 - 6 + 1, "cell {p}");
            assert_ne!(keep & (1 << p), 0);
        }
    }

    #[test]
    fn agrees_with_generic_on_small_samples() {
        for line in SAMPLES {
            let p = puzzle(line);
            assert_eq!(
                count_puzzle::<Nine>(&p, Some(2)),
                count_puzzle::<Generic>(&p, Some(2)),
                "{line}"
            );
        }
    }

    #[test]
    fn first_band_with_three_more_rows_matches_generic() {
        let line = format!("{BAND1}214365897365897214897214365{}", ".".repeat(27));
        let p = puzzle(&line);
        let ours = count_puzzle::<Nine>(&p, None);
        assert!(ours > 0);
        assert_eq!(ours, count_puzzle::<Generic>(&p, None));
        // Two more rows given, a few more columns open: still quick, many solutions.
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let p = puzzle(&line);
        let ours = count_puzzle::<Nine>(&p, None);
        assert!(ours > 100, "{ours}");
        assert_eq!(ours, count_puzzle::<Generic>(&p, None));
    }

    /// The count without the table of subtree counts.
    fn count_plain(p: &Puzzle) -> u128 {
        let Some(e) = Nine::new(p) else { return 0 };
        let shared = Shared::new(None);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = Portable.search(&e, &mut ctx, 1.0, Mode::Plain);
        ctx.stats.solutions
    }

    #[test]
    fn remembered_counts_are_exact() {
        // Puzzles whose trees repeat sub-problems, counted with a cold table, again with a warm
        // one (hits at the root), in an order that mixes them; against the plain search.
        let lines = [
            format!("{BAND1}214365897{}", ".".repeat(45)),
            format!("{BAND1}231564897{}", ".".repeat(45)),
            format!("{BAND1}214365897365897214{}", ".".repeat(36)),
            format!("{}214365897{BAND1}", ".".repeat(45)),
        ];
        let plain: Vec<u128> = lines.iter().map(|l| count_plain(&puzzle(l))).collect();
        assert!(plain.iter().all(|&n| n > 1000), "{plain:?}");
        memo::clear_table();
        for round in 0..2 {
            for (l, &want) in lines.iter().zip(&plain).rev() {
                let p = puzzle(l);
                assert_eq!(count_puzzle::<Nine>(&p, None), want, "round {round}: {l}");
            }
        }
        // A limit large enough for the table: still exactly min(limit, total), also when a
        // remembered count overshoots it.
        let p = puzzle(&lines[0]);
        for limit in [65_536, 633_311, 633_312, 700_000] {
            assert_eq!(
                count_puzzle::<Nine>(&p, Some(limit)),
                (limit as u128).min(633_312)
            );
        }
    }

    #[test]
    fn a_stopped_subtree_is_not_remembered() {
        // Stop a cold count early with a node budget, then count again: a partial subtree
        // count must not have been stored.
        let p = puzzle(&format!("{BAND1}214365897{}", ".".repeat(45)));
        memo::clear_table();
        let e = Nine::new(&p).unwrap();
        let shared = Shared::new(None);
        shared.set_node_budget(5_000);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        assert!(e.search(&mut ctx, 1.0).is_break());
        assert!(ctx.stats.solutions < 633_312);
        assert_eq!(count_puzzle::<Nine>(&p, None), 633_312);
    }

    /// Count under `limit`, plain (`stages` None) or staged with `(cell_nodes, nodes)`; the
    /// count and the nodes visited.
    fn count_mode(p: &Puzzle, limit: u64, stages: Option<(u64, u64)>) -> (u128, u64) {
        let Some(e) = Nine::new(p) else { return (0, 0) };
        let shared = Shared::new(Some(limit));
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = match stages {
            Some((cells, nodes)) => {
                search_staged_with(Portable, &e, &mut ctx, 1.0, limit, cells, nodes)
            }
            None => Portable.search(&e, &mut ctx, 1.0, Mode::Plain),
        };
        (ctx.stats.solutions, ctx.stats.nodes)
    }

    #[test]
    fn staged_checks_agree_with_the_plain_search() {
        // Hard unique puzzles (settled on configurations), puzzles with many solutions, nearly
        // empty grids (where configuration branching thrashes), no solution.
        let mut lines: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
        lines.push(".".repeat(81));
        lines.push(format!("1{}", ".".repeat(80)));
        lines.push(format!("{BAND1}{}", ".".repeat(54)));
        lines.push(format!("12{}", ".".repeat(79)));
        lines.push(format!("11{}", ".".repeat(79)));
        for line in &lines {
            let p = puzzle(line);
            for limit in 1..=STAGED_LIMIT {
                let (plain, _) = count_mode(&p, limit, None);
                for cells in [0, 1, 5, CELL_NODES] {
                    for nodes in [1, 100, STAGED_NODES] {
                        let (staged, _) = count_mode(&p, limit, Some((cells, nodes)));
                        assert_eq!(staged, plain, "limit {limit}, {cells}/{nodes}: {line}");
                    }
                }
                assert_eq!(count_puzzle::<Nine>(&p, Some(limit)), plain, "{line}");
            }
        }
        // The empty grid on configurations at once: no solution in the allowance, so the
        // plain search starts again and finds two.
        let empty = puzzle(&".".repeat(81));
        let (n, nodes) = count_mode(&empty, 2, Some((0, STAGED_NODES)));
        assert_eq!(n, 2);
        assert!(
            nodes > STAGED_NODES,
            "{nodes} nodes: was the attempt given up?"
        );
    }

    /// Count under `limit` with the search compiled for `isa`: the count and the nodes visited.
    #[cfg(target_arch = "x86_64")]
    fn count_isa<I: Isa>(isa: I, p: &Puzzle, limit: Option<u64>) -> (u128, u64) {
        let Some(e) = Nine::new(p) else { return (0, 0) };
        let shared = Shared::new(limit);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = e.search_with(isa, &mut ctx, 1.0);
        (ctx.stats.solutions, ctx.stats.nodes)
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_v3_build_walks_the_same_trees() {
        let Some(v3) = V3::detect() else {
            eprintln!("this CPU lacks AVX2/BMI2: only the portable build can run here");
            return;
        };
        // Uniqueness checks (staged), multi-solution counts, an exhaustive count (remembered
        // subtrees), no solution: same counts, same nodes.
        let mut lines: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
        lines.push(format!("{BAND1}214365897{}", ".".repeat(45)));
        lines.push(format!("12{}", ".".repeat(79)));
        lines.push(".".repeat(81));
        for line in &lines {
            let p = puzzle(line);
            assert_eq!(v3.root(p.cells()), Portable.root(p.cells()), "{line}");
            for limit in [Some(1), Some(2), Some(1000), None] {
                if limit.is_none() && line.matches('.').count() > 60 {
                    continue;
                }
                memo::clear_table();
                let portable = count_isa(Portable, &p, limit);
                memo::clear_table();
                assert_eq!(
                    count_isa(v3, &p, limit),
                    portable,
                    "limit {limit:?}: {line}"
                );
            }
        }
        // Root states of random grids, clashing or not, sparse or dense.
        let mut x = 0x3C6E_F372u32;
        let mut next = |n: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % n) as usize
        };
        for round in 0..5000 {
            let mut cells = [0u8; 81];
            for _ in 0..next(10 + round % 40) {
                cells[next(81)] = 1 + next(9) as u8;
            }
            assert_eq!(v3.root(&cells), Portable.root(&cells), "{cells:?}");
        }
    }

    #[test]
    fn given_cells_match_a_cell_by_cell_reading() {
        let mut x = 0x2545_F491u32;
        for _ in 0..1000 {
            let mut cells = [0u8; 81];
            for c in cells.iter_mut() {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                // Mostly empty, values 1..=9, and a few odd bytes (0x80 and up).
                *c = match x % 8 {
                    0..=4 => 0,
                    5 => 0x80 | (x >> 8) as u8,
                    _ => 1 + (x >> 8) as u8 % 9,
                };
            }
            let mut want = [0u32; 3];
            for (cell, &v) in cells.iter().enumerate() {
                if v != 0 {
                    want[cell / 27] |= 1 << (cell % 27);
                }
            }
            assert_eq!(given_cells(&cells), want, "{cells:?}");
        }
    }

    #[test]
    fn first_band_with_one_more_row() {
        // Cross-checked with the sudoku crate (peer harness).
        let line = format!("{BAND1}214365897{}", ".".repeat(45));
        assert_eq!(count_puzzle::<Nine>(&puzzle(&line), None), 633_312);
    }

    #[test]
    fn expansion_partitions_the_count() {
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let root = Nine::new(&puzzle(&line)).unwrap();
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
        let s = Nine::new(&puzzle(solved)).unwrap();
        assert_eq!(s.expand(&mut Vec::new()), Expansion::Solved);
        assert_eq!(s.open_cells(), 0);
        assert_eq!(s.values(), puzzle(solved).cells());
    }

    #[test]
    fn solutions_are_valid_keep_givens_and_limits_are_exact() {
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let p = puzzle(&line);
        let e = Nine::new(&p).unwrap();
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
        let e = Nine::new(&p).unwrap();
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
        assert!(Nine::new(&puzzle(&line)).is_none());
    }
}
