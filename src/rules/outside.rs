//! Clues outside the grid: sandwich sums.

use super::{range_mask, Contradiction, Line, Masks};
use crate::shape::Shape;

/// The cells of a row or column, in order.
pub(super) fn line_cells(shape: Shape, line: Line) -> Vec<usize> {
    let n = shape.side();
    match line {
        Line::Row(r) => (0..n).map(|c| r * n + c).collect(),
        Line::Col(c) => (0..n).map(|r| r * n + c).collect(),
    }
}

/// A sandwich sum: the digits between the 1 and the N of a line sum to `sum`. Up to 16×16,
/// exact over placements and digit sets: for each place of the 1 and the N and each set of
/// digits (2 to N-1) of the sum that fills the cells between, the cells between keep that set's
/// digits and the cells outside the others, where every cell has one and the cells together
/// can hold them all; a cell keeps what some such choice leaves it. Larger boards keep the 1
/// and the N where some placement of both leaves a feasible sum between them and, once only
/// one placement is left, bound the digits between.
#[derive(Debug)]
pub(super) struct Sandwich {
    cells: Vec<u16>,
    sum: i64,
    n: usize,
    /// Up to 16×16: the sets of digits from 2 to N-1 (bit d - 1 for digit d) that make the
    /// sum, 64 to a chunk.
    sets: Option<Vec<Chunk>>,
}

/// Up to 64 of a sandwich's digit sets, indexed so that a word's bits stand for its sets.
#[derive(Debug)]
struct Chunk {
    /// The sets.
    sets: Vec<u64>,
    /// `by_size[k]`: the sets of `k` digits.
    by_size: Vec<u64>,
    /// `inside[h][x]`: the sets that hold one of the middle digits `x` (bit i for digit
    /// `2 + HALF * h + i`), and `outside[h][x]` those whose rest does: a cell's sets are the
    /// unions of its two halves'.
    inside: [Vec<u64>; 2],
    outside: [Vec<u64>; 2],
}

/// The sets of digits from 2 to `top` that sum to `sum`, each with `mask`, as masks (bit
/// `d - 1` for digit `d`) pushed to `out`: the digits chosen from the greatest down, within the
/// most the digits left can add.
fn middle_sets(top: u32, sum: u32, mask: u64, out: &mut Vec<u64>) {
    if sum == 0 {
        out.push(mask);
        return;
    }
    // 2 + 3 + ... + top.
    if top < 2 || sum > top * (top + 1) / 2 - 1 {
        return;
    }
    if top <= sum {
        middle_sets(top - 1, sum - top, mask | 1 << (top - 1), out);
    }
    middle_sets(top - 1, sum, mask, out);
}

/// The middle digits (2 to N-1, at most 14) are looked up in two halves of this many.
const HALF: usize = 7;

/// The largest side for which a sandwich lists its digit sets (2^14 subsets to sift).
const SETS_SIDE: usize = 16;

impl Sandwich {
    pub(super) fn new(shape: Shape, line: Line, sum: u32) -> Sandwich {
        let n = shape.side();
        let sets = (2..=SETS_SIDE).contains(&n).then(|| {
            let middle = crate::shape::all_digits(n) & !(1 | 1 << (n - 1));
            // The sets of the digits 2..=N-1 that sum to `sum` (bit d - 1 of a mask for digit
            // d), chosen digit by digit (trying all 2^14 subsets cost a 16×16 0.11 ms a
            // sandwich), in increasing order.
            let mut sets = Vec::new();
            middle_sets(n as u32 - 1, sum, 0, &mut sets);
            sets.sort_unstable();
            sets.chunks(64)
                .map(|sets| {
                    let mut by_size = vec![0; n - 1];
                    for (j, &set) in sets.iter().enumerate() {
                        by_size[set.count_ones() as usize] |= 1 << j;
                    }
                    // The sets that a half's digits `x` meet (bits shifted to the middle
                    // digits: bit 1 is digit 2), or whose rests they meet.
                    // A digit's sets first, then each `x`'s as the union of its lowest
                    // digit's and those of the rest of `x`.
                    let meeting = |half: usize, rests: bool| -> Vec<u64> {
                        let single: Vec<u64> = (0..HALF)
                            .map(|i| {
                                let bit = 1u64 << (1 + HALF * half + i) & middle;
                                sets.iter().enumerate().fold(0, |acc, (j, &set)| {
                                    let side = if rests { middle & !set } else { set };
                                    acc | u64::from(bit & side != 0) << j
                                })
                            })
                            .collect();
                        let mut out = vec![0u64; 1 << HALF];
                        for x in 1..out.len() {
                            out[x] = out[x & (x - 1)] | single[x.trailing_zeros() as usize];
                        }
                        out
                    };
                    Chunk {
                        sets: sets.to_vec(),
                        by_size,
                        inside: [meeting(0, false), meeting(1, false)],
                        outside: [meeting(0, true), meeting(1, true)],
                    }
                })
                .collect()
        });
        Sandwich {
            cells: line_cells(shape, line)
                .into_iter()
                .map(|c| c as u16)
                .collect(),
            sum: i64::from(sum),
            n,
            sets,
        }
    }

    /// The exact filter over placements and digit sets (see the type's docs). The sets are
    /// bits of a word (64 to a [`Chunk`]): for each cell, the sets it could take a digit of
    /// between the 1 and the N, and those it could outside; a placement's fitting sets are
    /// then the sets of its size that every cell between and every cell outside allows
    /// (running ANDs), whose digits the cells of each side hold together (running ORs).
    fn run_sets<M: Masks>(&self, chunks: &[Chunk], m: &mut M) -> Result<bool, Contradiction> {
        let n = self.n;
        let (one, top) = (1u64, 1u64 << (n - 1));
        let middle = crate::shape::all_digits(n) & !(one | top);
        let mut masks = [0u64; SETS_SIDE];
        for (i, &c) in self.cells.iter().enumerate() {
            masks[i] = m.mask(usize::from(c));
        }
        // The union of the cells before `i`, and of those from `i` on.
        let (mut or_before, mut or_from) = ([0u64; SETS_SIDE + 1], [0u64; SETS_SIDE + 1]);
        for i in 0..n {
            or_before[i + 1] = or_before[i] | masks[i];
            or_from[n - 1 - i] = or_from[n - i] | masks[n - 1 - i];
        }
        // The cells that can hold the 1, and the N (bits).
        let (mut ones, mut tops) = (0u64, 0u64);
        for (i, &x) in masks[..n].iter().enumerate() {
            ones |= (x & one) << i;
            tops |= (x >> (n - 1) & 1) << i;
        }
        // Each cell's ends (1 or N) where some placement fits, and its middle digits where
        // some placement and set fits.
        let (mut support, mut digits) = ([0u64; SETS_SIDE], [0u64; SETS_SIDE]);
        for chunk in chunks {
            // The sets each cell can take a digit of between (`inside`) and outside.
            let (mut inside, mut outside) = ([0u64; SETS_SIDE], [0u64; SETS_SIDE]);
            const LOW: u64 = (1 << HALF) - 1;
            for i in 0..n {
                let (lo, hi) = (
                    (masks[i] >> 1 & LOW) as usize,
                    (masks[i] >> (1 + HALF) & LOW) as usize,
                );
                inside[i] = chunk.inside[0][lo] | chunk.inside[1][hi];
                outside[i] = chunk.outside[0][lo] | chunk.outside[1][hi];
            }
            // The sets every cell before `i` allows outside, and every cell from `i` on.
            let (mut out_before, mut out_from) =
                ([u64::MAX; SETS_SIDE + 1], [u64::MAX; SETS_SIDE + 1]);
            for i in 0..n {
                out_before[i + 1] = out_before[i] & outside[i];
                out_from[n - 1 - i] = out_from[n - i] & outside[n - 1 - i];
            }
            for p in 0..n {
                // The places q > p of the other end.
                let partners = (if masks[p] & one != 0 { tops } else { 0 }
                    | if masks[p] & top != 0 { ones } else { 0 })
                    & !((2 << p) - 1);
                if partners == 0 {
                    continue;
                }
                // For each q: the union of the fitting sets, and of their rests (a cell's
                // candidates in some fitting set or rest are its candidates in their union).
                let (mut held, mut rests) = ([0u64; SETS_SIDE], [0u64; SETS_SIDE]);
                // The cells strictly between p and q: the sets they all allow, their union.
                let (mut between, mut union) = (u64::MAX, 0u64);
                for q in p + 1..n {
                    if q > p + 1 {
                        between &= inside[q - 1];
                        union |= masks[q - 1];
                    }
                    if partners >> q & 1 == 0 {
                        continue;
                    }
                    let outer = or_before[p] | or_from[q + 1];
                    let mut fitting =
                        chunk.by_size[q - p - 1] & between & out_before[p] & out_from[q + 1];
                    let mut fits = false;
                    while fitting != 0 {
                        let set = chunk.sets[fitting.trailing_zeros() as usize];
                        fitting &= fitting - 1;
                        let rest = middle & !set;
                        if union & set == set && outer & rest == rest {
                            fits = true;
                            held[q] |= set;
                            rests[q] |= rest;
                        }
                    }
                    if fits {
                        if masks[p] & one != 0 && masks[q] & top != 0 {
                            support[p] |= one;
                            support[q] |= top;
                        }
                        if masks[p] & top != 0 && masks[q] & one != 0 {
                            support[p] |= top;
                            support[q] |= one;
                        }
                    }
                }
                // A cell after p lies between p and every q after it, outside for every q
                // before it; a cell before p lies outside for every q.
                let (mut later, mut earlier) = (0u64, 0u64);
                for i in (p + 1..n).rev() {
                    digits[i] |= later;
                    later |= held[i];
                }
                for i in p + 1..n {
                    digits[i] |= earlier;
                    earlier |= rests[i];
                }
                for d in &mut digits[..p] {
                    *d |= earlier;
                }
            }
        }
        for i in 0..n {
            support[i] |= masks[i] & digits[i];
        }
        let mut changed = false;
        for (i, &c) in self.cells.iter().enumerate() {
            changed |= m.restrict(usize::from(c), support[i])?;
        }
        Ok(changed)
    }

    /// The row's or column's cells.
    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        let n = self.n;
        if n < 2 {
            // One cell, both 1 and N: nothing lies between them.
            return if self.sum == 0 {
                Ok(false)
            } else {
                Err(Contradiction)
            };
        }
        if let Some(sets) = &self.sets {
            return self.run_sets(sets, m);
        }
        let (one, top) = (1u64, 1u64 << (n - 1));
        let crusts = one | top;
        let mut masks = [0u64; crate::shape::MAX_SIDE];
        for (i, &c) in self.cells.iter().enumerate() {
            masks[i] = m.mask(usize::from(c));
        }
        let (mut can_one, mut can_top) = (0u64, 0u64);
        let mut placements = 0;
        let mut last = (0, 0);
        for p in 0..n {
            for q in p + 1..n {
                let (at_p, at_q) = (masks[p] & crusts, masks[q] & crusts);
                let one_first = at_p & one != 0 && at_q & top != 0;
                let top_first = at_p & top != 0 && at_q & one != 0;
                if !(one_first || top_first) || !self.fits(&masks[p + 1..q]) {
                    continue;
                }
                if one_first {
                    can_one |= 1 << p;
                    can_top |= 1 << q;
                }
                if top_first {
                    can_top |= 1 << p;
                    can_one |= 1 << q;
                }
                placements += 1;
                last = (p, q);
            }
        }
        if placements == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        for (i, &c) in self.cells.iter().enumerate() {
            let mut allowed = !crusts;
            if can_one >> i & 1 == 1 {
                allowed |= one;
            }
            if can_top >> i & 1 == 1 {
                allowed |= top;
            }
            changed |= m.restrict(usize::from(c), allowed)?;
        }
        if placements == 1 {
            let (p, q) = last;
            let inner: Vec<u64> = (p + 1..q)
                .map(|i| m.mask(usize::from(self.cells[i])) & !crusts)
                .collect();
            let (lo, hi) = inner.iter().fold((0, 0), |(lo, hi), &x| {
                let (a, b) = span(x);
                (lo + a, hi + b)
            });
            for (j, i) in (p + 1..q).enumerate() {
                let (a, b) = span(inner[j]);
                let allowed = range_mask(self.sum - (hi - b), self.sum - (lo - a));
                changed |= m.restrict(usize::from(self.cells[i]), allowed)?;
            }
        }
        Ok(changed)
    }

    /// Can the digits between (not 1 or N, all different) sum to the target?
    fn fits(&self, between: &[u64]) -> bool {
        let n = self.n as i64;
        let crusts = 1u64 | 1u64 << (n - 1);
        let k = between.len() as i64;
        if k > n - 2 {
            return false;
        }
        let (mut lo, mut hi) = (0, 0);
        for &mask in between {
            let x = mask & !crusts;
            if x == 0 {
                return false;
            }
            let (a, b) = span(x);
            lo += a;
            hi += b;
        }
        // k different digits from 2..=N-1.
        let least = k * (k + 3) / 2; // 2 + 3 + ... + (k+1)
        let most = k * (2 * n - 1 - k) / 2; // (N-1) + ... + (N-k)
        lo.max(least) <= self.sum && self.sum <= hi.min(most)
    }
}

#[inline]
fn span(mask: u64) -> (i64, i64) {
    (
        i64::from(mask.trailing_zeros()) + 1,
        64 - i64::from(mask.leading_zeros()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::sums::tests::Grid;

    #[test]
    fn middle_sets_are_every_set_of_the_middle_digits_with_the_sum() {
        for n in 2..=SETS_SIDE as u32 {
            for sum in 0..=n * n / 2 + 3 {
                let mut plain: Vec<u64> = (0u64..1 << (n - 2))
                    .filter(|s| {
                        (0..n - 2)
                            .filter(|i| s >> i & 1 == 1)
                            .map(|i| i + 2)
                            .sum::<u32>()
                            == sum
                    })
                    .map(|s| s << 1)
                    .collect();
                plain.sort_unstable();
                let mut sets = Vec::new();
                middle_sets(n - 1, sum, 0, &mut sets);
                sets.sort_unstable();
                assert_eq!(sets, plain, "n {n}, sum {sum}");
            }
        }
    }

    /// The filter over placements and digit sets keeps exactly what its definition keeps
    /// (written out here the plain way): for each place of the 1 and the N and each set of
    /// middle digits that fills the cells between and makes the sum, where every cell holds a
    /// digit of its side and each side's cells together hold all of theirs, the cells keep
    /// their candidates of their side (and the ends theirs); where none fits, a contradiction.
    /// On 4×4, 6×6, 9×9, 12×12 and 16×16 rows (12×12 and 16×16: middle digits in both of the
    /// filter's halves; 16×16: most sums with more than 64 sets, in several chunks).
    #[test]
    fn sets_keep_exactly_what_some_placement_leaves() {
        for (rows, cols, rounds, seed) in [
            (2, 3, 4000, 0x5A4D_7C11_E0F3_2B69u64),
            (3, 3, 2000, 0x1F2E_3D4C_5B6A_7988),
            (3, 4, 800, 0x7C3A_91E5_4D20_B6F1),
            (2, 2, 2000, 0x3B8F_06D2_A95C_E147),
            // Most sums of a 16×16 row have more than 64 sets: several chunks.
            (4, 4, 300, 0x6E21_C4A7_F03B_58D9),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let (pruned, dead) = against_definition(shape, rounds, seed);
            // The test means something: runs prune and find contradictions.
            assert!(
                pruned > rounds / 40 && dead > rounds / 40,
                "{rows}x{cols}: {pruned} {dead}"
            );
        }
    }

    /// `rounds` random rows of `shape` and sums, the filter against its definition; the rows
    /// it narrowed, and those it found dead.
    fn against_definition(shape: Shape, rounds: usize, seed: u64) -> (usize, usize) {
        let n = shape.side();
        let (one, top) = (1u64, 1u64 << (n - 1));
        let middle = ((1u64 << n) - 1) & !(one | top);
        let digit_sum = |set: u64| -> u32 {
            (0..n as u32)
                .filter(|d| set >> d & 1 == 1)
                .map(|d| d + 1)
                .sum()
        };
        let most = digit_sum(middle) as usize;
        let mut rng = crate::rng::SplitMix64::new(seed);
        let (mut pruned, mut dead) = (0, 0);
        for _ in 0..rounds {
            let sum: u32 = rng.below(most + 2) as u32;
            let sandwich = Sandwich::new(shape, Line::Row(0), sum);
            let masks: Vec<u64> = (0..n).map(|_| 1 + rng.below((1 << n) - 1) as u64).collect();
            // Every set of middle digits that makes the sum.
            let sets: Vec<u64> = (0..=middle)
                .filter(|&s| s & !middle == 0 && digit_sum(s) == sum)
                .collect();
            let mut want = vec![0u64; n];
            let mut fits = false;
            for p in 0..n {
                for q in p + 1..n {
                    for (a, b) in [(one, top), (top, one)] {
                        if masks[p] & a == 0 || masks[q] & b == 0 {
                            continue;
                        }
                        for &set in &sets {
                            if set.count_ones() as usize != q - p - 1 {
                                continue;
                            }
                            let rest = middle & !set;
                            let side = |i: usize| if i > p && i < q { set } else { rest };
                            let others = || (0..n).filter(|&i| i != p && i != q);
                            let union = |between: bool| {
                                others()
                                    .filter(|&i| (i > p && i < q) == between)
                                    .fold(0, |u, i| u | masks[i])
                            };
                            if others().any(|i| masks[i] & side(i) == 0)
                                || union(true) & set != set
                                || union(false) & rest != rest
                            {
                                continue;
                            }
                            fits = true;
                            want[p] |= a;
                            want[q] |= b;
                            for i in others() {
                                want[i] |= masks[i] & side(i);
                            }
                        }
                    }
                }
            }
            let mut grid = Grid(masks.clone());
            let got = sandwich.run(&mut grid);
            if fits {
                assert!(got.is_ok(), "{masks:?} {sum}");
                assert_eq!(grid.0, want, "{masks:?} {sum}");
                pruned += usize::from(want != masks);
            } else {
                assert!(got.is_err(), "{masks:?} {sum}");
                dead += 1;
            }
        }
        (pruned, dead)
    }
}
