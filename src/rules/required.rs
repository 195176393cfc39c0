//! The digit sets a line or a cage of different digits may hold (a cage's sets of its sum, a
//! renban's runs): the sets that still fit, each cell keeping the digits they leave it; and
//! the digits every fitting set holds, placed where one cell is left for them, cleared from
//! every cell that sees all their places ([`Exclusions`]; on boards above 32×32, from the
//! rest of a house that holds them all).

use super::{Contradiction, Masks};

/// A house that holds two or more of a line's or a cage's cells: a digit they must hold, whose
/// places all lie in this house, leaves the house's other cells (used where there are no
/// [`Exclusions`], which find this and more).
#[derive(Debug)]
pub(super) struct Link {
    /// The cells in the house (bit `i`: the `i`-th cell; 64 cells at most).
    members: u64,
    /// The house's cells outside the line or cage.
    others: Vec<u16>,
}

/// The houses that hold two or more of `cells` (at most 64), as links, in the order of
/// `houses`; `houses_of[cell]`: the houses that hold `cell`.
pub(super) fn links(cells: &[u16], houses: &[Vec<u16>], houses_of: &[Vec<usize>]) -> Vec<Link> {
    // Each house's cells among `cells` (bits by position).
    let mut held = vec![0u64; houses.len()];
    for (i, &c) in cells.iter().enumerate() {
        for &h in &houses_of[usize::from(c)] {
            held[h] |= 1 << i;
        }
    }
    held.iter()
        .enumerate()
        .filter(|(_, members)| members.count_ones() >= 2)
        .map(|(h, &members)| Link {
            members,
            others: houses[h]
                .iter()
                .copied()
                .filter(|c| !cells.contains(c))
                .collect(),
        })
        .collect()
}

/// Each cell's peers as bits (every cell that must hold another digit: a house or a
/// different pair holds both): a digit that must go in one of some cells leaves every cell
/// that is a peer of them all. This finds what [`Link`]s find (a house that holds all the
/// places) and more: places in different houses, which the cells that see both exclude
/// (the Interactive Sudoku Solver's cell exclusions).
#[derive(Debug)]
pub(super) struct Exclusions {
    /// Words per cell.
    words: usize,
    /// `bits[cell * words..][..words]`: bit `c` for each peer `c` of `cell`.
    bits: Vec<u64>,
}

impl Exclusions {
    /// The most cells of a board whose peers are kept as bits (32×32; larger boards use the
    /// links alone).
    pub(super) const MAX_CELLS: usize = 1024;

    /// The peers of the board's `cells` cells: the cells of each house, and the different
    /// pairs. `None` above [`Exclusions::MAX_CELLS`].
    pub(super) fn new(
        cells: usize,
        houses: &[Vec<u16>],
        different: &[(u16, u16)],
    ) -> Option<Exclusions> {
        if cells > Self::MAX_CELLS {
            return None;
        }
        let words = cells.div_ceil(64);
        let mut bits = vec![0u64; cells * words];
        let mut add = |a: u16, b: u16| {
            if a != b {
                let (a, b) = (usize::from(a), usize::from(b));
                bits[a * words + b / 64] |= 1 << (b % 64);
                bits[b * words + a / 64] |= 1 << (a % 64);
            }
        };
        for house in houses {
            for (i, &a) in house.iter().enumerate() {
                for &b in &house[i + 1..] {
                    add(a, b);
                }
            }
        }
        for &(a, b) in different {
            add(a, b);
        }
        Some(Exclusions { words, bits })
    }

    /// Whether cells `a` and `b` must hold different digits (a house or a different pair
    /// holds both; never a cell and itself).
    #[inline]
    pub(super) fn differ(&self, a: usize, b: usize) -> bool {
        self.of(a)[b / 64] >> (b % 64) & 1 == 1
    }

    /// The peers of `cell`.
    #[inline]
    fn of(&self, cell: usize) -> &[u64] {
        &self.bits[cell * self.words..(cell + 1) * self.words]
    }

    /// Clear digit `bit` from every cell that is a peer of each of `cells` (one of which
    /// must hold it).
    #[inline]
    pub(super) fn clear_common<M: Masks>(
        &self,
        cells: impl Iterator<Item = usize>,
        bit: u64,
        m: &mut M,
    ) -> Result<bool, Contradiction> {
        // Boards of at most 128 cells (9×9, 10×10, 11×11) with their words as constants: the
        // loops unroll (the general form cost the hard killers 3% of their instructions).
        match self.words {
            1 => self.clear_common_in::<1, M>(cells, bit, m),
            2 => self.clear_common_in::<2, M>(cells, bit, m),
            _ => self.clear_common_in::<{ Self::MAX_CELLS / 64 }, M>(cells, bit, m),
        }
    }

    /// Tests: whether [`Exclusions::clear_common`] would narrow some cell.
    #[cfg(test)]
    fn would_clear<M: Masks>(&self, cells: impl Iterator<Item = usize>, bit: u64, m: &M) -> bool {
        let mut common = vec![u64::MAX; self.words];
        for c in cells {
            for (w, &p) in common.iter_mut().zip(self.of(c)) {
                *w &= p;
            }
        }
        (0..common.len() * 64).any(|c| common[c / 64] >> (c % 64) & 1 == 1 && m.open(c) & bit != 0)
    }

    /// [`Exclusions::clear_common`] with at most `W` words per cell.
    #[inline(always)]
    fn clear_common_in<const W: usize, M: Masks>(
        &self,
        cells: impl Iterator<Item = usize>,
        bit: u64,
        m: &mut M,
    ) -> Result<bool, Contradiction> {
        let words = self.words.min(W);
        let mut common = [u64::MAX; W];
        for c in cells {
            for (w, &p) in common[..words].iter_mut().zip(self.of(c)) {
                *w &= p;
            }
        }
        let mut changed = false;
        for (w, &word) in common[..words].iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let c = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                changed |= m.restrict(c, !bit)?;
            }
        }
        Ok(changed)
    }
}

/// The positions of the set bits of `mask`, lowest first.
#[inline]
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// The most cells whose digit sets `keep_sets` narrows cell by cell (a cage with sets has at
/// most 16: its digits are different, and there are at most 16).
const SET_CELLS: usize = 16;

/// `let $ms: &mut [u64]`, `$len` (at most 64) zero words on the stack: [`SET_CELLS`] where
/// they fit (the cages, the groups of sums), else 64. Zeroing 64 words on every call had cost
/// the killers 1% of their instructions.
macro_rules! scratch {
    ($ms:ident, $len:expr) => {
        let len = $len;
        let (mut small, mut big);
        let $ms: &mut [u64] = if len <= SET_CELLS {
            small = [0u64; SET_CELLS];
            &mut small[..len]
        } else {
            big = [0u64; 64];
            &mut big[..len]
        };
    };
}

/// Cells' candidates within one digit set (which they must hold, one digit each): the digit
/// a cell left with one takes from the others, to a fixpoint. Whether every cell keeps a
/// digit and no two are left the same one.
#[inline]
fn naked_singles(within: &mut [u64]) -> bool {
    let mut taken = 0u64;
    // The cells not yet left with one digit (at most `SET_CELLS`): the rounds visit only
    // them.
    let mut open = (1u64 << within.len()) - 1;
    loop {
        let mut fresh = 0u64;
        for i in bits(open) {
            let w = within[i];
            if w & w.wrapping_sub(1) == 0 {
                if w == 0 || fresh & w != 0 {
                    return false;
                }
                fresh |= w;
                open &= !(1 << i);
            }
        }
        if fresh == 0 {
            return true;
        }
        taken |= fresh;
        for i in bits(open) {
            within[i] &= !taken;
        }
    }
}

/// Cells of different digits that hold one of `sets` (each as many digits as there are
/// cells): a set still fits where every cell meets it and, `by_singles`, where every cell
/// keeps a digit of it once the digits of cells left with one are taken from the others (up
/// to [`SET_CELLS`] cells); without, where no cell is the only one to take two of its
/// digits (ISS's unique values of a line: "Hard renban 1" and "2" 7% and 12% fewer nodes,
/// as much less time); each cell keeps the digits the fitting sets leave it, and the digits
/// every fitting set holds are `place`d. `Err` when no set fits.
///
/// Cages narrow by singles (the collection's killers: 19% fewer nodes, 5% less time);
/// renbans do not (ISS's three hard renbans took 3-28% fewer nodes with them, but two of
/// the three 10-13% more time).
pub(super) fn keep_sets<M: Masks>(
    cells: &[u16],
    links: &[Link],
    peers: Option<&Exclusions>,
    sets: &[u64],
    by_singles: bool,
    m: &mut M,
) -> Result<bool, Contradiction> {
    // Each cell's candidates, read once (at most 64 cells: a line or cage of different
    // digits on a board of at most 64).
    scratch!(ms, cells.len());
    let (mut union, mut twice, mut fixed, mut ones) = (0u64, 0u64, 0u64, 0u32);
    for (mask, &c) in ms.iter_mut().zip(cells) {
        *mask = m.mask(usize::from(c));
        let mask = *mask;
        twice |= union & mask;
        union |= mask;
        if mask & mask.wrapping_sub(1) == 0 {
            fixed |= mask;
            ones += 1;
        }
    }
    let (mut allowed, mut every) = (0u64, u64::MAX);
    let mut changed = false;
    if by_singles && cells.len() <= SET_CELLS {
        // Every set that fits holds the digits of the cells left with one, once each: the
        // other cells lose them before the sets are tried, and only those others are narrowed
        // set by set (a cell left with one keeps its digit in every set that fits).
        if ones != fixed.count_ones() {
            return Err(Contradiction);
        }
        let (mut open, mut at, mut k) = ([0u64; SET_CELLS], [0u8; SET_CELLS], 0);
        for (i, &mask) in ms.iter().enumerate() {
            if mask & mask.wrapping_sub(1) != 0 {
                let rest = mask & !fixed;
                if rest == 0 {
                    return Err(Contradiction);
                }
                (open[k], at[k]) = (rest, i as u8);
                k += 1;
            }
        }
        let (open, at) = (&open[..k], &at[..k]);
        let mut support = [0u64; SET_CELLS];
        (allowed, every) = fit_sets(open, sets, fixed, union, &mut support);
        if allowed == 0 {
            return Err(Contradiction);
        }
        for (&i, &keep) in at.iter().zip(&support) {
            changed |= m.restrict(usize::from(cells[usize::from(i)]), keep)?;
        }
    } else {
        let unique = union & !twice;
        'sets: for &set in sets {
            if set & fixed != fixed || set & union != set {
                continue;
            }
            for &mask in ms.iter() {
                let w = mask & set;
                // Two of the set's digits that only this cell can take: one goes missing.
                let only = w & unique;
                if w == 0 || only & only.wrapping_sub(1) != 0 {
                    continue 'sets;
                }
            }
            allowed |= set;
            every &= set;
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        for &c in cells {
            changed |= m.restrict(usize::from(c), allowed)?;
        }
    }
    if every & !fixed != 0 {
        changed |= place(cells, links, peers, 0..cells.len(), every & !fixed, m)?;
    }
    Ok(changed)
}

/// The set loop of [`keep_sets`] by singles: of the `sets` within `union` that hold `fixed`
/// (the digits of the cells left with one), those where every one of the `open` cells (the
/// others, without `fixed`) keeps a digit once naked singles within the set are taken from the
/// others; each open cell's digits in them go to its `support`. Returns the union of those
/// sets and their intersection (0 and all ones when none fits).
#[inline(always)]
fn fit_sets(
    open: &[u64],
    sets: &[u64],
    fixed: u64,
    union: u64,
    support: &mut [u64; SET_CELLS],
) -> (u64, u64) {
    // Eight cells of at most 16 digits: the cages of boards up to 16×16 with eight cells or
    // fewer open, nearly every run (6% fewer instructions on "MATHEMAGIC_KILLERS#0").
    #[cfg(target_arch = "x86_64")]
    if open.len() <= LANES && union >> 16 == 0 {
        return fit_sets_sse2(open, sets, fixed, union, support);
    }
    fit_sets_scalar(open, sets, fixed, union, support)
}

/// [`fit_sets`] cell by cell.
#[inline(always)]
fn fit_sets_scalar(
    open: &[u64],
    sets: &[u64],
    fixed: u64,
    union: u64,
    support: &mut [u64; SET_CELLS],
) -> (u64, u64) {
    let (mut allowed, mut every) = (0u64, u64::MAX);
    let mut within = [0u64; SET_CELLS];
    let within = &mut within[..open.len()];
    'narrow: for &set in sets {
        if set & fixed != fixed || set & union != set {
            continue;
        }
        let mut single = false;
        for (w, &mask) in within.iter_mut().zip(open) {
            *w = mask & set;
            if *w == 0 {
                continue 'narrow;
            }
            single |= *w & (*w - 1) == 0;
        }
        if single && !naked_singles(within) {
            continue;
        }
        for (s, w) in support.iter_mut().zip(within.iter()) {
            *s |= w;
        }
        allowed |= set;
        every &= set;
    }
    (allowed, every)
}

/// The cells [`fit_sets_sse2`] takes: 16-bit lanes of one SSE2 register.
#[cfg(target_arch = "x86_64")]
const LANES: usize = 8;

/// [`fit_sets`] with the open cells' candidates (at most [`LANES`] cells, digits below 17) in
/// the lanes of one register: each set is tested against every cell at once (no cell without
/// a digit of it, none left with one), and the cell-by-cell naked singles run only where a
/// cell is left with one.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fit_sets_sse2(
    open: &[u64],
    sets: &[u64],
    fixed: u64,
    union: u64,
    support: &mut [u64; SET_CELLS],
) -> (u64, u64) {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi16, _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi16,
    };
    let k = open.len();
    debug_assert!(k <= LANES && union >> 16 == 0);
    // The lanes past the open cells hold every digit: they never lack one or hold a single
    // (the byte mask `live` leaves them out of both tests anyway).
    let mut lanes = [u16::MAX; LANES];
    for (l, &m) in lanes.iter_mut().zip(open) {
        *l = m as u16;
    }
    let live = (1i32 << (2 * k)) - 1;
    let (mut allowed, mut every) = (0u64, u64::MAX);
    let mut within = [0u64; LANES];
    // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics are available. The loads
    // and stores address `lanes` or `spill`, each an array of eight u16 (16 bytes), whole; the
    // unaligned forms need no alignment.
    unsafe {
        let cells = _mm_loadu_si128(lanes.as_ptr().cast::<__m128i>());
        let zero = _mm_setzero_si128();
        let one = _mm_set1_epi16(1);
        let mut kept = zero;
        for &set in sets {
            if set & fixed != fixed || set & union != set {
                continue;
            }
            let w = _mm_and_si128(cells, _mm_set1_epi16(set as u16 as i16));
            // A cell without a digit of the set.
            if _mm_movemask_epi8(_mm_cmpeq_epi16(w, zero)) & live != 0 {
                continue;
            }
            // A cell left with one digit (w & (w - 1) == 0; no lane is zero here).
            let lone = _mm_cmpeq_epi16(_mm_and_si128(w, _mm_sub_epi16(w, one)), zero);
            let w = if _mm_movemask_epi8(lone) & live != 0 {
                let mut spill = [0u16; LANES];
                _mm_storeu_si128(spill.as_mut_ptr().cast::<__m128i>(), w);
                for (x, &y) in within.iter_mut().zip(&spill) {
                    *x = u64::from(y);
                }
                if !naked_singles(&mut within[..k]) {
                    continue;
                }
                for (y, &x) in spill.iter_mut().zip(&within[..k]) {
                    *y = x as u16;
                }
                _mm_loadu_si128(spill.as_ptr().cast::<__m128i>())
            } else {
                w
            };
            kept = _mm_or_si128(kept, w);
            allowed |= set;
            every &= set;
        }
        _mm_storeu_si128(lanes.as_mut_ptr().cast::<__m128i>(), kept);
    }
    for (s, &l) in support.iter_mut().zip(&lanes[..k]) {
        *s = u64::from(l);
    }
    (allowed, every)
}

/// Digits `cells[range]` must hold, each once: one place left is a hidden single; two or
/// more clear the digit from every cell that is a peer of them all (`peers`; without, from
/// the rest of a linked house that holds them all).
pub(super) fn place<M: Masks>(
    cells: &[u16],
    links: &[Link],
    peers: Option<&Exclusions>,
    range: std::ops::Range<usize>,
    mut digits: u64,
    m: &mut M,
) -> Result<bool, Contradiction> {
    let mut changed = false;
    // The candidates of the cells of `range` (`ms[j]`: cell `range.start + j`), read once; a
    // hidden single below narrows its cell's here too (the peers cleared are not among the
    // cells: none of them holds the digit).
    scratch!(ms, range.len());
    for (x, &c) in ms.iter_mut().zip(&cells[range.clone()]) {
        *x = m.mask(usize::from(c));
    }
    while digits != 0 {
        let bit = digits & digits.wrapping_neg();
        digits &= digits - 1;
        // The digit's places, as bits of `cells` (as the links' members are).
        let mut places = 0u64;
        for (j, &x) in ms.iter().enumerate() {
            if x & bit != 0 {
                places |= 1 << (range.start + j);
            }
        }
        match places.count_ones() {
            0 => return Err(Contradiction),
            1 => {
                let i = places.trailing_zeros() as usize;
                changed |= m.restrict(usize::from(cells[i]), bit)?;
                ms[i - range.start] = bit;
            }
            _ => {
                if let Some(ex) = peers {
                    let at = bits(places).map(|i| usize::from(cells[i]));
                    if m.cleared_before(cells.as_ptr(), bit, places) {
                        // The tests hold the memo to what it skips: nothing to clear.
                        #[cfg(test)]
                        assert!(!ex.would_clear(at, bit, m), "a clear skipped that narrows");
                        continue;
                    }
                    changed |= ex.clear_common(at, bit, m)?;
                    continue;
                }
                for link in links {
                    if places & !link.members == 0 {
                        for &c in &link.others {
                            changed |= m.restrict(usize::from(c), !bit)?;
                        }
                    }
                }
            }
        }
    }
    Ok(changed)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::sums::tests::{every_assignment, kept_support, Grid};

    /// Runs of three narrowed by singles: 1, 12, 123 is 1, 2, 3 (the only run that fits is
    /// 123; the 1 takes its digit from the others, then the 2). Without, the 3 alone is
    /// placed (its one place).
    #[test]
    fn runs_narrow_cell_by_cell() {
        let runs: Vec<u64> = (0..4).map(|lo| 0b111 << lo).collect();
        let mut grid = Grid(vec![0b1, 0b11, 0b111]);
        assert!(keep_sets(&[0, 1, 2], &[], None, &runs, true, &mut grid).unwrap());
        assert_eq!(grid.0, vec![0b1, 0b10, 0b100]);
        let mut grid = Grid(vec![0b1, 0b11, 0b111]);
        assert!(keep_sets(&[0, 1, 2], &[], None, &runs, false, &mut grid).unwrap());
        assert_eq!(grid.0, vec![0b1, 0b11, 0b100]);
        // Two cells left the same digit: no run fits.
        let mut grid = Grid(vec![0b1, 0b1, 0b111]);
        assert!(keep_sets(&[0, 1, 2], &[], None, &runs, true, &mut grid).is_err());
    }

    /// The cages' filter, on random candidates of 2 to 6 cells (some left with one digit,
    /// some with the same one), against its definition written plainly: a digit set of the
    /// sum fits where it holds the digits of the cells left with one and lies within the
    /// cells' digits, and where each cell keeps a digit of it once naked singles within it
    /// are taken from the other cells (no cell left with none, no two with the same one);
    /// each cell keeps the digits the fitting sets leave it, and a digit every fitting set
    /// holds with one place left is placed there.
    #[test]
    fn cages_keep_what_their_definition_keeps() {
        fn plainly(masks: &[u64], sets: &[u64]) -> Option<Vec<u64>> {
            let union = masks.iter().fold(0, |u, m| u | m);
            let fixed = masks
                .iter()
                .filter(|m| m.count_ones() <= 1)
                .fold(0, |u, m| u | m);
            let mut support = vec![0u64; masks.len()];
            let (mut any, mut every) = (false, u64::MAX);
            'sets: for &set in sets {
                if set & union != set || set & fixed != fixed {
                    continue;
                }
                let mut within: Vec<u64> = masks.iter().map(|m| m & set).collect();
                let mut done = vec![false; within.len()];
                loop {
                    let mut taken = 0u64;
                    for (i, w) in within.iter().enumerate() {
                        if w.count_ones() == 0
                            || (w.count_ones() == 1 && !done[i] && taken & w != 0)
                        {
                            continue 'sets;
                        }
                        if w.count_ones() == 1 && !done[i] {
                            taken |= w;
                        }
                    }
                    if taken == 0 {
                        break;
                    }
                    for (i, w) in within.iter_mut().enumerate() {
                        if w.count_ones() == 1 && taken & *w != 0 && !done[i] {
                            done[i] = true;
                        } else if !done[i] {
                            *w &= !taken;
                        }
                    }
                    // A cell left with one digit another cell took earlier has none now.
                    for (i, w) in within.iter().enumerate() {
                        if done[i]
                            && within
                                .iter()
                                .enumerate()
                                .any(|(j, x)| j != i && done[j] && x == w)
                        {
                            continue 'sets;
                        }
                    }
                }
                for (s, w) in support.iter_mut().zip(&within) {
                    *s |= w;
                }
                any = true;
                every &= set;
            }
            if !any {
                return None;
            }
            let mut out: Vec<u64> = masks.iter().zip(&support).map(|(m, s)| m & s).collect();
            for d in 0..9 {
                let bit = 1u64 << d;
                if every & !fixed & bit != 0 {
                    let places: Vec<usize> =
                        (0..out.len()).filter(|&i| out[i] & bit != 0).collect();
                    match places.len() {
                        0 => return None,
                        1 => out[places[0]] = bit,
                        _ => {}
                    }
                }
            }
            Some(out)
        }
        let mut rng = crate::rules::tests::Rng(0x9e37_79b9_7f4a_7c15);
        let mut fits = 0;
        for trial in 0..20_000 {
            let k = 2 + rng.next(5);
            let sum = (k * (k + 1) / 2 + rng.next(k * (9 - k) + 1)) as u32;
            let sets: Vec<u64> = (0u64..1 << 9)
                .filter(|m| m.count_ones() as usize == k)
                .filter(|m| {
                    (0..9)
                        .filter(|d| m >> d & 1 == 1)
                        .map(|d| d + 1)
                        .sum::<u32>()
                        == sum
                })
                .collect();
            let masks: Vec<u64> = (0..k)
                .map(|_| match rng.next(4) {
                    0 => 1 << rng.next(9),
                    _ => 1 + rng.next(511) as u64,
                })
                .collect();
            let cells: Vec<u16> = (0..k as u16).collect();
            let mut grid = Grid(masks.clone());
            let got = keep_sets(&cells, &[], None, &sets, true, &mut grid)
                .ok()
                .map(|_| grid.0);
            let want = plainly(&masks, &sets);
            assert_eq!(got, want, "trial {trial}: masks {masks:?}, sum {sum}");
            fits += usize::from(want.is_some());
        }
        // Both outcomes are met often.
        assert!((2_000..18_000).contains(&fits), "{fits}");
    }

    /// The set loop in SSE2 lanes gives what the cell-by-cell loop gives: random candidates
    /// of one to eight open cells (some left with one digit, some with the same one), digits
    /// up to 9 or 16, random sets of the cells' size and some that hold the fixed digits.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn set_loop_in_lanes_is_the_set_loop() {
        let mut rng = crate::rules::tests::Rng(0x2545_f491_4f6c_dd1d);
        let mut fits = 0;
        for trial in 0..20_000 {
            let n = if trial % 2 == 0 { 9 } else { 16 };
            let full = (1u64 << n) - 1;
            let k = 1 + rng.next(LANES);
            let fixed = match rng.next(3) {
                0 => 0,
                _ => 1 << rng.next(n) | 1 << rng.next(n),
            } & full;
            let open: Vec<u64> = (0..k)
                .map(|_| {
                    let m = match rng.next(4) {
                        0 => 1 << rng.next(n),
                        1 => rng.next(1 << n) as u64 & rng.next(1 << n) as u64,
                        _ => rng.next(1 << n) as u64,
                    } & full
                        & !fixed;
                    if m == 0 {
                        1 << rng.next(n) & !fixed | 1
                    } else {
                        m
                    }
                })
                .collect();
            let union = open.iter().fold(fixed, |u, m| u | m);
            let size = k + fixed.count_ones() as usize;
            let sets: Vec<u64> = (0..1 + rng.next(24))
                .map(|_| {
                    let mut set = if rng.next(2) == 0 { fixed } else { 0 };
                    while (set.count_ones() as usize) < size.min(n) {
                        set |= 1 << rng.next(n);
                    }
                    set
                })
                .collect();
            let (mut lanes, mut cells) = ([0u64; SET_CELLS], [0u64; SET_CELLS]);
            let got = fit_sets_sse2(&open, &sets, fixed, union, &mut lanes);
            let want = fit_sets_scalar(&open, &sets, fixed, union, &mut cells);
            assert_eq!(
                (got, lanes),
                (want, cells),
                "trial {trial}: {open:?} {sets:?}"
            );
            fits += usize::from(want.0 != 0);
        }
        // Both outcomes are met often.
        assert!((2_000..18_000).contains(&fits), "{fits}");
    }

    /// The houses of a 4×4 board, as the rules keep them.
    pub(in crate::rules) fn houses_4x4() -> Vec<Vec<u16>> {
        crate::shape::Shape::new(2, 2)
            .unwrap()
            .houses()
            .iter()
            .map(|h| h.iter().map(|&c| c as u16).collect())
            .collect()
    }

    /// A digit the cells 1 (row 0, column 1) and 7 (row 1, column 3) of a 4×4 board must
    /// hold between them, which share no house: it leaves the cells that see both (2, 3, 4
    /// and 5), and with a different pair (1, 6) also cell 6; no other cell.
    #[test]
    fn required_digits_leave_the_cells_that_see_every_place() {
        let houses = houses_4x4();
        let digit = 0b100;
        for (different, lose) in [
            (vec![], vec![2, 3, 4, 5]),
            (vec![(1, 6)], vec![2, 3, 4, 5, 6]),
        ] {
            let ex = Exclusions::new(16, &houses, &different).unwrap();
            let mut grid = Grid(vec![0b1111; 16]);
            assert!(place(&[1, 7], &[], Some(&ex), 0..2, digit, &mut grid).unwrap());
            for (c, &m) in grid.0.iter().enumerate() {
                assert_eq!(m & digit == 0, lose.contains(&c), "cell {c}");
            }
            // Without the peers, no house links the two cells: nothing changes.
            let mut grid = Grid(vec![0b1111; 16]);
            assert!(!place(&[1, 7], &[], None, 0..2, digit, &mut grid).unwrap());
        }
    }

    /// Without singles, a set two of whose digits only one cell can take no longer fits:
    /// cells 12, 34 and 35 cannot make 123 (1 and 2 both need the first cell), so of 123 and
    /// 234 only 234 fits, and its 4 goes to the one cell left for it: 2, 4, 3. (Were 123 kept,
    /// 4 would not be in every fitting set, and the second cell would keep 34.)
    #[test]
    fn two_digits_only_one_cell_takes_rule_out_a_set() {
        let mut grid = Grid(vec![0b11, 0b1100, 0b10100]);
        assert!(keep_sets(&[0, 1, 2], &[], None, &[0b111, 0b1110], false, &mut grid).unwrap());
        assert_eq!(grid.0, vec![0b10, 0b1000, 0b100]);
    }

    /// Random sets and candidates of up to five different cells, by singles or not: every
    /// digit of an assignment that makes one of the sets is kept; no set fits only where
    /// there is none.
    #[test]
    fn kept_digits_cover_every_assignment() {
        let mut rng = crate::rng::SplitMix64::new(0x6A09_E667_F3BC_C908);
        let mut next = move |k: u64| rng.below(k as usize) as u64;
        let n = 7u64;
        let (mut narrowed, mut dead) = (0, 0);
        for _ in 0..3000 {
            let len = 2 + next(4) as usize;
            let cells: Vec<u16> = (0..len as u16).collect();
            let sets: Vec<u64> = (0..1 + next(4))
                .map(|_| {
                    let mut set = 0u64;
                    while (set.count_ones() as usize) < len {
                        set |= 1 << next(n);
                    }
                    set
                })
                .collect();
            let masks: Vec<u64> = (0..len)
                .map(|_| match next(3) {
                    0 => 1 << next(n),
                    _ => 1 + next((1 << n) - 1),
                })
                .collect();
            // Every assignment of different digits whose digits are one of the sets.
            let mut support = vec![0u64; len];
            for a in every_assignment(n as usize, &masks, |_, _| true) {
                let bits: Vec<u64> = a.iter().map(|&d| 1 << (d - 1)).collect();
                if sets.contains(&bits.iter().fold(0, |u, &b| u | b)) {
                    for (s, &b) in support.iter_mut().zip(&bits) {
                        *s |= b;
                    }
                }
            }
            let mut grid = Grid(masks.clone());
            let got = keep_sets(&cells, &[], None, &sets, next(4) > 0, &mut grid);
            if kept_support(got, &grid.0, &support, &(&masks, &sets)) {
                narrowed += usize::from(grid.0 != masks);
            } else {
                dead += 1;
            }
        }
        assert!(narrowed > 100 && dead > 100, "{narrowed} {dead}");
    }
}
