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
//! [`Engine::expand`](crate::engine::Engine::expand) and inside `search` they cost more than the nodes they save
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
//! nearly empty grids, so the staged search counts privately (a [`tally::Trial`]) and is given
//! up after `STAGED_NODES` nodes (2^13, about a millisecond); plain searches then start
//! again, bounded and each with the digits in another order (a relabelled state: one value
//! order can hide the solutions of a puzzle that has millions), the last one unbounded. A state
//! with 16 filled cells or fewer cannot have one solution (no 16-clue puzzle has): its check
//! goes to those plain searches at once (`FEWEST_UNIQUE`). (Configurations from the root would
//! visit fewer nodes on the hardest puzzles, but puzzles with many solutions find their
//! solutions later: see the README's Design section.)
//!
//! **Remembered subtree counts.** Counting without a small limit (count-only sinks, no limit
//! under 2^16), a state with 12 to 48 open cells looks up its key (the open cells and their
//! candidates, `Nine::memo_key`) in the thread's [`memo`] table before searching, and stores
//! its subtree's count after a search that ran to the end. Counting trees repeat sub-problems
//! (two fillings of a band that leave the same candidates below).
//!
//! # Builds
//! The search, the root propagation and the bivalue count are compiled for each `Isa`: the
//! target's baseline (`Portable`) and, on x86-64 CPUs that have AVX2, BMI1, BMI2, LZCNT and
//! POPCNT, `V3`, chosen at run time by [`Engine::new`](crate::engine::Engine::new) and
//! [`Engine::search`](crate::engine::Engine::search). The search
//! recurses through its `Isa`, so a whole tree runs one build; `V3` takes fewer instructions
//! (three-operand vector forms, `andn`, `blsr`, `tzcnt`, `popcnt`). Both builds are the same
//! source, and a test checks that they reach the same root states and walk the same trees.
//!
//! # Files
//! This file holds the state and its propagation; [`tables`] the constant tables; `search`
//! the search, its strategies and its builds (and the [`Engine`](crate::engine::Engine) implementation); [`configs`]
//! the second branching rule; [`tally`] what a search reports to; [`memo`] the table of
//! subtree counts; `lanes` band-wide word operations.

mod configs;
mod lanes;
pub(crate) mod memo;
mod search;
mod tables;
mod tally;
#[cfg(test)]
mod tests;

use memo::{Key, KEY_WORDS};
use tables::{
    fold, spread, BAND, COL_LOCK, KEEP, MINI_AT, ONE_COL_BOX, OTHER, PERM_KEEP, SINGLE_AT,
};

/// The contradiction marker of propagation.
#[derive(Debug)]
struct Dead;

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
        self.fewest_in(b, 2).0
    }

    /// The first open cell of band `b` with the fewest candidates, stopping at the first with
    /// at most `enough`, and its count (`u32::MAX` when the band is filled).
    /// `all_bivalue` is not computed (false).
    #[inline(always)]
    fn fewest_in(&self, b: usize, enough: u32) -> (Branch, u32) {
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
                if n <= enough {
                    break;
                }
            }
        }
        (best, best_n)
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
        let mut best = self.fewest_in(0, 3);
        for b in 1..3 {
            if best.1 <= 3 {
                break;
            }
            let here = self.fewest_in(b, 3);
            if here.1 < best.1 {
                best = here;
            }
        }
        best.0
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
    fn memo_key(&self) -> Key {
        let mut w = [0u32; 2 * KEY_WORDS];
        for (i, x) in w.iter_mut().take(27).enumerate() {
            *x = self.cand[i] & self.unsolved[i / 9];
        }
        w[27..30].copy_from_slice(&self.unsolved);
        let mut key = [0u64; KEY_WORDS];
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
