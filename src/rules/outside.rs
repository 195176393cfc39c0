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
    /// sum, by their size.
    sets: Option<Vec<Vec<u64>>>,
}

/// The largest side for which a sandwich lists its digit sets (2^14 subsets to sift).
const SETS_SIDE: usize = 16;

impl Sandwich {
    pub(super) fn new(shape: Shape, line: Line, sum: u32) -> Sandwich {
        let n = shape.side();
        let sets = (2..=SETS_SIDE).contains(&n).then(|| {
            let mut by_size = vec![Vec::new(); n - 1];
            // Subsets of the digits 2..=N-1: bit i of `s` is digit i + 2 (bit i + 1 of a mask).
            for s in 0u64..1 << (n - 2) {
                let digits: u32 = (0..n as u32 - 2)
                    .filter(|i| s >> i & 1 == 1)
                    .map(|i| i + 2)
                    .sum();
                if digits == sum {
                    by_size[s.count_ones() as usize].push(s << 1);
                }
            }
            by_size
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

    /// The exact filter over placements and digit sets (see the type's docs).
    fn run_sets<M: Masks>(&self, sets: &[Vec<u64>], m: &mut M) -> Result<bool, Contradiction> {
        let n = self.n;
        let (one, top) = (1u64, 1u64 << (n - 1));
        let middle = crate::shape::all_digits(n) & !(one | top);
        let mut masks = [0u64; crate::shape::MAX_SIDE];
        for (i, &c) in self.cells.iter().enumerate() {
            masks[i] = m.mask(usize::from(c));
        }
        let mut support = [0u64; crate::shape::MAX_SIDE];
        for p in 0..n {
            for q in p + 1..n {
                let one_first = masks[p] & one != 0 && masks[q] & top != 0;
                let top_first = masks[p] & top != 0 && masks[q] & one != 0;
                if !(one_first || top_first) {
                    continue;
                }
                // The union of the fitting sets, and of their rests: a cell's candidates in some
                // fitting set (or rest) are its candidates in their union, so the cells take
                // their support once per placement.
                let (mut fits, mut inside, mut outside) = (false, 0u64, 0u64);
                for &set in &sets[q - p - 1] {
                    let rest = middle & !set;
                    // Each cell between has a digit of the set, each outside one of the rest,
                    // and each side's cells can hold its digits.
                    let (mut inner, mut outer) = (0u64, 0u64);
                    let mut ok = true;
                    for (i, &x) in masks[..n].iter().enumerate() {
                        if i == p || i == q {
                            continue;
                        }
                        let want = if i > p && i < q { set } else { rest };
                        if x & want == 0 {
                            ok = false;
                            break;
                        }
                        if i > p && i < q {
                            inner |= x;
                        } else {
                            outer |= x;
                        }
                    }
                    if !ok || inner & set != set || outer & rest != rest {
                        continue;
                    }
                    fits = true;
                    inside |= set;
                    outside |= rest;
                }
                if fits {
                    for (i, s) in support[..n].iter_mut().enumerate() {
                        if i != p && i != q {
                            let want = if i > p && i < q { inside } else { outside };
                            *s |= masks[i] & want;
                        }
                    }
                    if one_first {
                        support[p] |= one;
                        support[q] |= top;
                    }
                    if top_first {
                        support[p] |= top;
                        support[q] |= one;
                    }
                }
            }
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
            return Ok(false);
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

    /// The filter over placements and digit sets keeps exactly what its definition keeps
    /// (written out here the plain way): for each place of the 1 and the N and each set of
    /// middle digits that fills the cells between and makes the sum, where every cell holds a
    /// digit of its side and each side's cells together hold all of theirs, the cells keep
    /// their candidates of their side (and the ends theirs); where none fits, a contradiction.
    #[test]
    fn sets_keep_exactly_what_some_placement_leaves() {
        let n = 6;
        let shape = Shape::new(2, 3).unwrap();
        let (one, top) = (1u64, 1u64 << (n - 1));
        let middle = ((1u64 << n) - 1) & !(one | top);
        let digit_sum = |set: u64| -> u32 {
            (0..n as u32)
                .filter(|d| set >> d & 1 == 1)
                .map(|d| d + 1)
                .sum()
        };
        let mut rng = crate::rng::SplitMix64::new(0x5A4D_7C11_E0F3_2B69);
        let (mut pruned, mut dead) = (0, 0);
        for _ in 0..4000 {
            let sum: u32 = rng.below(15) as u32;
            let sandwich = Sandwich::new(shape, Line::Row(0), sum);
            let masks: Vec<u64> = (0..n).map(|_| 1 + rng.below((1 << n) - 1) as u64).collect();
            let mut want = vec![0u64; n];
            let mut fits = false;
            for p in 0..n {
                for q in p + 1..n {
                    for (a, b) in [(one, top), (top, one)] {
                        if masks[p] & a == 0 || masks[q] & b == 0 {
                            continue;
                        }
                        for set in (0..=middle).filter(|&s| s & !middle == 0) {
                            if set.count_ones() as usize != q - p - 1 || digit_sum(set) != sum {
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
        // The test means something: runs prune and find contradictions.
        assert!(pruned > 100 && dead > 100, "{pruned} {dead}");
    }
}
