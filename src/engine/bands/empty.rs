//! Empty boards whose boxes are two rows high (or, turned, two columns wide), counted without
//! a search: the 8×8 with 2×4 boxes (29,136,487,207,403,520 grids) in under a tenth of a
//! second.
//!
//! With 2×C boxes (N = 2C digits) a band is two rows and two stacks of C columns. Each digit is
//! in each row once and in each box once, so within a band it lies in one column of each stack,
//! and the digit pairs of a stack's C columns are a *perfect matching* of the N digits. How
//! many ways the band's two rows can be laid out depends only on its two matchings: their union
//! is a set of even cycles (a pair in both matchings is a cycle of two), and each cycle goes
//! into the two rows one way or the other, 2^cycles in all ([`Counter::weight`]).
//!
//! So the grids are counted band by band over the columns' pairs, from what each column still
//! lacks ([`Counter::below`]): the last band takes what is left; the last two are counted per
//! stack as a histogram of the pairs of matchings (this band's, the last band's) its choices
//! make, the two stacks' histograms joined through the weights; one band more is summed over
//! the matchings of its own choices. The first band is made canonical: its first row renamed
//! 1..N (N! grids each), its second row's first stack taking the other stack's digits in order
//! (C! choices that count alike), and of the second stack's permutations one per cycle type
//! (those of a type count alike: renaming the first stack's digits and permuting its columns
//! in step conjugates them).
//!
//! Counting by bands ([`super::Plan`]) asks [`Counter::below`] for the bands below a boundary
//! that hold no givens, on the same boards: there the grid above is any filling, and what
//! each column lacks is all that the count below depends on.
//!
//! Boards of 4 to 8 cells a side: with 2×5 boxes (10×10) four bands lie below the first, and
//! the sums over two bands' choices before the histograms are beyond this module.

use crate::shape::Shape;
use std::collections::HashMap;
use std::rc::Rc;

/// The most columns of a box two rows high (boxes 2×4: 8×8 boards).
const MOST_COLS: usize = 4;

/// The most histogram entries a [`Counter`] keeps (24 bytes each).
const LAST_TWO_MOST: usize = 1 << 20;

/// The most bands below a boundary that [`Counter::below`] counts.
pub(super) const MOST_BELOW: usize = 3;

/// Whether boards with boxes two rows high and `cols` wide are counted here.
pub(super) fn fits(cols: usize) -> bool {
    (2..=MOST_COLS).contains(&cols)
}

/// The number of grids of the empty board of `shape` when its boxes are two rows high (or two
/// columns wide) and it has 4 to 8 cells a side; `None` for every other shape.
pub(crate) fn grids(shape: Shape) -> Option<u128> {
    let cols = match (shape.box_rows(), shape.box_cols()) {
        (2, c) => c,
        (r, 2) => r,
        _ => return None,
    };
    fits(cols).then(|| Counter::new(cols).grids())
}

/// A matching as each digit's partner (digits `0..n`).
type Matching = [u8; 2 * MOST_COLS];

/// The pairs `(a, b, k)` of a histogram: `k` ways with matchings `a` and `b`.
type Histogram = Vec<(usize, usize, u64)>;

/// The tables of one box width (with the histograms met so far: one per thread).
pub(super) struct Counter {
    /// Columns of a stack (C).
    cols: usize,
    /// Digits (N = 2C).
    n: usize,
    /// Every perfect matching of the digits.
    matchings: Vec<Matching>,
    /// A matching's position in `matchings`, by [`key`].
    index: HashMap<u32, usize>,
    /// 2^cycles of the union of matchings `i` and `j`, at `i * k + j` (`k` matchings).
    weights: Vec<u64>,
    /// The histograms of a stack's last two bands, by its columns' lacking digits (shared
    /// with their callers, not copied).
    last_two: HashMap<u64, Rc<Histogram>>,
    /// The entries of the histograms in `last_two`.
    kept: usize,
}

/// A matching's key: each digit's partner in 3 bits.
fn key(m: &Matching, n: usize) -> u32 {
    (0..n).fold(0, |k, d| k | u32::from(m[d]) << (3 * d))
}

/// The matching whose pairs are `pairs` (two digits each, as bits).
fn matching_of(pairs: &[u16]) -> Matching {
    let mut m = [0u8; 2 * MOST_COLS];
    for &p in pairs {
        let a = p.trailing_zeros() as u8;
        let b = (p & (p - 1)).trailing_zeros() as u8;
        m[a as usize] = b;
        m[b as usize] = a;
    }
    m
}

/// Every perfect matching of the digits in `free`, completing `m`.
fn all_matchings(free: u16, m: &mut Matching, out: &mut Vec<Matching>) {
    if free == 0 {
        out.push(*m);
        return;
    }
    let a = free.trailing_zeros() as usize;
    let mut rest = free & (free - 1);
    while rest != 0 {
        let b = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        (m[a], m[b]) = (b as u8, a as u8);
        all_matchings(free & !(1 << a | 1 << b), m, out);
    }
}

/// The cycles of the union of two perfect matchings of `n` digits.
fn cycles(x: &Matching, y: &Matching, n: usize) -> u32 {
    let mut seen = 0u16;
    let mut count = 0;
    for start in 0..n {
        if seen >> start & 1 == 1 {
            continue;
        }
        count += 1;
        let mut d = start;
        loop {
            let e = x[d] as usize;
            seen |= 1 << d | 1 << e;
            d = y[e] as usize;
            if d == start {
                break;
            }
        }
    }
    count
}

/// Calls `f` with every way to give each column of a stack two of the digits it lacks
/// (`lacking[i]`, as bits), each digit to one column: the columns' pairs.
fn each_choice(lacking: &[u16], f: &mut impl FnMut(&[u16])) {
    fn go(
        lacking: &[u16],
        i: usize,
        used: u16,
        pairs: &mut [u16; MOST_COLS],
        f: &mut impl FnMut(&[u16]),
    ) {
        if i == lacking.len() {
            f(&pairs[..i]);
            return;
        }
        let open = lacking[i] & !used;
        let mut a_bits = open;
        while a_bits != 0 {
            let a = a_bits & a_bits.wrapping_neg();
            a_bits &= a_bits - 1;
            let mut b_bits = a_bits;
            while b_bits != 0 {
                let b = b_bits & b_bits.wrapping_neg();
                b_bits &= b_bits - 1;
                pairs[i] = a | b;
                go(lacking, i + 1, used | a | b, pairs, f);
            }
        }
    }
    go(lacking, 0, 0, &mut [0; MOST_COLS], f);
}

/// `lacking` packed in one word (8 bits a column), for the histograms' table.
fn pack(lacking: &[u16]) -> u64 {
    lacking
        .iter()
        .enumerate()
        .fold(0, |k, (i, &s)| k | u64::from(s) << (8 * i))
}

impl Counter {
    pub(super) fn new(cols: usize) -> Counter {
        let n = 2 * cols;
        let mut matchings = Vec::new();
        all_matchings((1u16 << n) - 1, &mut [0; 2 * MOST_COLS], &mut matchings);
        let index = (matchings.iter().enumerate())
            .map(|(i, m)| (key(m, n), i))
            .collect();
        let weights = (matchings.iter())
            .flat_map(|x| matchings.iter().map(move |y| 1u64 << cycles(x, y, n)))
            .collect();
        Counter {
            cols,
            n,
            matchings,
            index,
            weights,
            last_two: HashMap::new(),
            kept: 0,
        }
    }

    /// Columns of a stack.
    pub(super) fn cols(&self) -> usize {
        self.cols
    }

    /// The matchings.
    fn k(&self) -> usize {
        self.matchings.len()
    }

    /// The layouts of a band whose stacks' matchings are `i` and `j`.
    fn weight(&self, i: usize, j: usize) -> u64 {
        self.weights[i * self.k() + j]
    }

    /// The position of the matching made of `pairs`.
    fn position(&self, pairs: &[u16]) -> usize {
        self.index[&key(&matching_of(pairs), self.n)]
    }

    /// Every grid of the empty board.
    fn grids(&mut self) -> u128 {
        let (c, n) = (self.cols, self.n);
        // The second row: the first stack takes the digits c..n in order; the second stack
        // the digits 0..c, permuted by `tau`, one permutation per cycle type.
        let mut by_type: HashMap<Vec<usize>, (Vec<usize>, u128)> = HashMap::new();
        for tau in permutations(c) {
            let entry = by_type.entry(cycle_type(&tau)).or_insert((tau, 0));
            entry.1 += 1;
        }
        let mut types: Vec<_> = by_type.into_values().collect();
        types.sort();
        let sum: u128 = (types.into_iter())
            .map(|(tau, alike)| alike * self.first_band(&tau))
            .sum();
        sum * factorial(n) * factorial(c)
    }

    /// The grids whose first row is 1..N (digits `0..n` here) and whose second row holds, in
    /// the first stack, the digits `c..n` in order and, in the second, `tau`.
    fn first_band(&mut self, tau: &[usize]) -> u128 {
        let (c, n) = (self.cols, self.n);
        let all = (1u16 << n) - 1;
        let lacking: Vec<u16> = (0..n)
            .map(|col| {
                let second = if col < c { c + col } else { tau[col - c] };
                all & !(1 << col | 1 << second)
            })
            .collect();
        self.below(&lacking[..c], &lacking[c..])
    }

    /// The completions of the bands below a boundary where each column of the first stack
    /// lacks `a[i]` and each of the second `b[i]` (as bits; the same number in every column,
    /// two for each band left, at most [`MOST_BELOW`] bands), none of them given.
    pub(super) fn below(&mut self, a: &[u16], b: &[u16]) -> u128 {
        match a[0].count_ones() / 2 {
            1 => u128::from(self.weight(self.position(a), self.position(b))),
            2 => {
                let (ha, hb) = (self.histogram(a), self.histogram(b));
                let mut sum = 0u128;
                for &(x, y, p) in ha.iter() {
                    for &(u, v, q) in hb.iter() {
                        sum += u128::from(p * q * self.weight(x, u) * self.weight(y, v));
                    }
                }
                sum
            }
            3 => self.below_three(a, b),
            left => unreachable!("{left} bands below the first: boards up to 8×8"),
        }
    }

    /// The histogram of a stack's last two bands: for each way to choose the next band's
    /// pairs from `lacking`, its matching and the last band's (what is left).
    fn histogram(&mut self, lacking: &[u16]) -> Rc<Histogram> {
        let packed = pack(lacking);
        if let Some(h) = self.last_two.get(&packed) {
            return Rc::clone(h);
        }
        if self.kept >= LAST_TWO_MOST {
            // A thread's memory stays bounded over a long batch: start again.
            self.last_two.clear();
            self.kept = 0;
        }
        let mut counts: HashMap<(usize, usize), u64> = HashMap::new();
        let mut rest = [0u16; MOST_COLS];
        each_choice(lacking, &mut |pairs| {
            for (i, p) in pairs.iter().enumerate() {
                rest[i] = lacking[i] & !p;
            }
            let key = (self.position(pairs), self.position(&rest[..pairs.len()]));
            *counts.entry(key).or_insert(0) += 1;
        });
        let mut h: Histogram = counts.into_iter().map(|((x, y), k)| (x, y, k)).collect();
        h.sort_unstable();
        self.kept += h.len();
        let h = Rc::new(h);
        self.last_two.insert(packed, Rc::clone(&h));
        h
    }

    /// For each matching of a stack's next band, the sum of the histograms of the two bands
    /// after it over the choices with that matching.
    fn next_three(&mut self, lacking: &[u16]) -> HashMap<usize, Histogram> {
        let mut sums: HashMap<usize, HashMap<(usize, usize), u64>> = HashMap::new();
        let mut rest = [0u16; MOST_COLS];
        each_choice(lacking, &mut |pairs| {
            for (i, p) in pairs.iter().enumerate() {
                rest[i] = lacking[i] & !p;
            }
            let m = self.position(pairs);
            let h = self.histogram(&rest[..pairs.len()]);
            let sum = sums.entry(m).or_default();
            for &(x, y, k) in h.iter() {
                *sum.entry((x, y)).or_insert(0) += k;
            }
        });
        (sums.into_iter())
            .map(|(m, s)| (m, s.into_iter().map(|((x, y), k)| (x, y, k)).collect()))
            .collect()
    }

    /// [`Counter::below`] with three bands left: Σ over the next band's matchings `m` (first
    /// stack) and `m'` (second) of weight(m, m') · Σ hA[m](x, y) · weight(x, u) ·
    /// weight(y, v) · hB[m'](u, v), the inner sum as hA[m] against W · hB[m'] · W.
    fn below_three(&mut self, a: &[u16], b: &[u16]) -> u128 {
        let k = self.k();
        let (ha, hb) = (self.next_three(a), self.next_three(b));
        let mut sum = 0u128;
        let mut t = vec![0u64; k * k];
        let mut z = vec![0u64; k * k];
        let mut rows = vec![false; k];
        for (&mb, h) in &hb {
            // t = hB[m'] · W, by the histogram's entries; then z = W · t.
            t.fill(0);
            rows.fill(false);
            for &(u, v, q) in h {
                rows[u] = true;
                let (row, w) = (
                    &mut t[u * k..(u + 1) * k],
                    &self.weights[v * k..(v + 1) * k],
                );
                for (t, w) in row.iter_mut().zip(w) {
                    *t += q * w;
                }
            }
            z.fill(0);
            for x in 0..k {
                let zrow = &mut z[x * k..(x + 1) * k];
                for u in (0..k).filter(|&u| rows[u]) {
                    let w = self.weights[x * k + u];
                    for (z, t) in zrow.iter_mut().zip(&t[u * k..(u + 1) * k]) {
                        *z += w * t;
                    }
                }
            }
            for (&ma, h) in &ha {
                let inner: u128 = h
                    .iter()
                    .map(|&(x, y, p)| u128::from(p * z[x * k + y]))
                    .sum();
                sum += u128::from(self.weight(ma, mb)) * inner;
            }
        }
        sum
    }
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for len in 0..n {
        out = (out.into_iter())
            .flat_map(|p| {
                (0..=len).map(move |at| {
                    let mut q = p.clone();
                    q.insert(at, len);
                    q
                })
            })
            .collect();
    }
    out
}

/// The lengths of a permutation's cycles, sorted.
fn cycle_type(p: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; p.len()];
    let mut lengths = Vec::new();
    for start in 0..p.len() {
        let (mut i, mut len) = (start, 0);
        while !seen[i] {
            seen[i] = true;
            i = p[i];
            len += 1;
        }
        if len > 0 {
            lengths.push(len);
        }
    }
    lengths.sort_unstable();
    lengths
}

fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchings_and_their_cycles() {
        let c = Counter::new(4);
        assert_eq!(c.k(), 105);
        // A matching with itself: one cycle of two per pair.
        assert!((0..c.k()).all(|i| c.weight(i, i) == 16));
        // Every pair of matchings: 1 to 4 cycles, symmetric.
        for i in 0..c.k() {
            for j in 0..c.k() {
                assert_eq!(c.weight(i, j), c.weight(j, i));
                assert!((2..=16).contains(&c.weight(i, j)));
            }
        }
        // {01 23 45 67} and {12 34 56 70}: one cycle through all eight.
        let x = c.position(&[0b11, 0b1100, 0b11_0000, 0b1100_0000]);
        let y = c.position(&[0b110, 0b1_1000, 0b110_0000, 0b1000_0001]);
        assert_eq!(c.weight(x, y), 2);
    }

    #[test]
    fn known_counts() {
        let shape = |r, c| Shape::new(r, c).unwrap();
        assert_eq!(grids(shape(2, 2)), Some(288));
        assert_eq!(grids(shape(2, 3)), Some(28_200_960));
        assert_eq!(grids(shape(3, 2)), Some(28_200_960));
        assert_eq!(grids(shape(3, 3)), None);
        assert_eq!(grids(shape(2, 5)), None);
    }

    /// The canonical first bands stand for all: on 6×6 every first band whose first row is
    /// 1..6 counted on its own sums to the grids over 6!.
    #[test]
    fn every_first_band_of_the_6x6() {
        let mut c = Counter::new(3);
        let all = 0b11_1111u16;
        let mut sum = 0;
        for sigma in permutations(3) {
            for tau in permutations(3) {
                let lacking: Vec<u16> = (0..6)
                    .map(|col| {
                        let second = if col < 3 {
                            3 + sigma[col]
                        } else {
                            tau[col - 3]
                        };
                        all & !(1 << col | 1 << second)
                    })
                    .collect();
                sum += c.below(&lacking[..3], &lacking[3..]);
            }
        }
        assert_eq!(sum * factorial(6), 28_200_960);
    }

    /// Canonical first bands of the 8×8 against counting by bands (`engine::bands`, which
    /// enumerates column sets and arranges rows: no matchings) on the puzzle of that band with
    /// one more given in the last row, summed over its 8 values (the bands below then hold a
    /// given, so the count does not use this module); and the count by bands of the band's
    /// puzzle alone, which does (the tail below the first band).
    #[test]
    fn first_bands_of_the_8x8_agree_with_counting_by_bands() {
        use crate::solver::{count, CountBy, Options};
        use crate::Puzzle;
        let shape = Shape::new(2, 4).unwrap();
        let mut c = Counter::new(4);
        let options = Options {
            count_by: CountBy::Bands,
            ..Options::default()
        };
        let taus: &[[usize; 4]] = if cfg!(debug_assertions) {
            &[[1, 2, 3, 0]]
        } else {
            &[[0, 1, 2, 3], [1, 2, 3, 0], [1, 0, 3, 2]]
        };
        for tau in taus {
            let mut cells = vec![0u8; 64];
            for col in 0..8 {
                cells[col] = col as u8 + 1;
                cells[8 + col] = if col < 4 { col + 5 } else { tau[col - 4] + 1 } as u8;
            }
            let band = Puzzle::new(shape, cells.clone()).unwrap();
            let mut by_values = 0;
            for v in 1..=8 {
                cells[63] = v;
                let p = Puzzle::new(shape, cells.clone()).unwrap();
                by_values += crate::solver::on_search_stack(|| count(&p, &options)).solutions;
            }
            let whole = crate::solver::on_search_stack(|| count(&band, &options)).solutions;
            assert_eq!(c.first_band(tau), by_values, "{tau:?}");
            assert_eq!(whole, by_values, "{tau:?}");
        }
    }

    #[test]
    fn the_empty_8x8() {
        let shape = |r, c| Shape::new(r, c).unwrap();
        assert_eq!(grids(shape(2, 4)), Some(29_136_487_207_403_520));
        assert_eq!(grids(shape(4, 2)), Some(29_136_487_207_403_520));
    }
}
