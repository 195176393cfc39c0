//! Sums: killer cages (different digits: the digit sets that make the sum, the digits every
//! such set holds placed or cleared from a shared house), little killers, arrows and the law of
//! leftovers' derived sums (repeats allowed, but cells that share a house differ: the sums
//! each group of such cells can make, combined group by group; bounds where the partial sums
//! do not fit 128 values).

use super::{range_mask, Contradiction, Masks};

/// `Σ coef[i] · digit(cells[i]) = target`.
#[derive(Debug)]
pub(super) struct Sum {
    cells: Vec<u16>,
    coef: Vec<i64>,
    target: i64,
    /// For cages (different digits, coefficients 1, N ≤ 16): every set of `cells.len()`
    /// digits that sums to the target.
    combos: Option<Vec<u64>>,
    /// For cages and sums with groups: the houses that hold two or more of the cells (see
    /// `link_houses`).
    links: Vec<Link>,
    /// For sums with repeats whose partial sums fit 128 values: the least partial sum (the
    /// filter `run_reach` counts sums from it).
    reach_base: Option<i64>,
    /// For `run_reach`: the cells in runs that must hold different digits (see `group`), in
    /// order; one cell each until `group` is called.
    groups: Vec<Group>,
}

/// Cells of a sum (`cells[start..start + len]`, one to three) with one coefficient that must
/// hold different digits (they share a house, a cage or a rule's different pair).
#[derive(Debug)]
struct Group {
    start: usize,
    len: usize,
    coef: i64,
}

/// The assignments of different digits to a group's two or three cells: the sums they make
/// (bit `s` for sum `s`), the digits each cell takes in one, and the digits every one uses.
#[derive(Debug, Clone, Copy)]
struct Made {
    sums: u128,
    support: [u64; 3],
    required: u64,
}

/// The assignments of different digits to the cells of `ms` (two or three candidate masks)
/// whose sum is one of `allowed`. Exact: loops over the first cells' digits, the last cell's
/// digits as one mask.
#[inline]
fn assignments(ms: &[u64], allowed: u128) -> Made {
    let mut out = Made {
        sums: 0,
        support: [0; 3],
        required: u64::MAX,
    };
    // The last cell's digits (bit d - 1 for digit d) that make an allowed sum with `base`
    // (the others' digits' sum) and are none of `used`.
    let last = |mask: u64, used: u64, base: u32| -> u64 {
        // Sum base + d is bit base + d of `allowed`: d's bit d - 1 is bit base + 1 of it.
        ((allowed >> (base + 1)) as u64) & mask & !used
    };
    let single = |m: u64| if m & m.wrapping_sub(1) == 0 { m } else { 0 };
    let mut a_bits = ms[0];
    while a_bits != 0 {
        let a = a_bits & a_bits.wrapping_neg();
        a_bits &= a_bits - 1;
        let va = a.trailing_zeros() + 1;
        if ms.len() == 2 {
            let b = last(ms[1], a, va);
            if b != 0 {
                out.sums |= u128::from(b) << (va + 1);
                out.support[0] |= a;
                out.support[1] |= b;
                out.required &= a | single(b);
            }
            continue;
        }
        let mut b_bits = ms[1] & !a;
        while b_bits != 0 {
            let b = b_bits & b_bits.wrapping_neg();
            b_bits &= b_bits - 1;
            let vb = b.trailing_zeros() + 1;
            let c = last(ms[2], a | b, va + vb);
            if c != 0 {
                out.sums |= u128::from(c) << (va + vb + 1);
                out.support[0] |= a;
                out.support[1] |= b;
                out.support[2] |= c;
                out.required &= a | b | single(c);
            }
        }
    }
    out
}

/// The most digit sets a group of a sum may have (n choose its cells): bounds the cost of
/// walking its assignments.
const GROUP_SETS: usize = 256;

/// The most cells of a group of a sum: larger groups prune more but cost more than they save
/// (measured on the ISS killer and little-killer puzzles).
const GROUP_CELLS: usize = 3;

/// The most cells the exact filter of sums with repeats takes.
const REACH_CELLS: usize = 16;

/// A house that holds some of a cage's cells: a digit the cage must hold, whose places in the
/// cage all lie in this house, leaves the house's other cells.
#[derive(Debug)]
struct Link {
    /// The cage's cells in the house (bit `i`: the cage's `i`-th cell).
    members: u64,
    /// The house's cells outside the cage.
    others: Vec<u16>,
}

impl Sum {
    /// A linear sum; repeats allowed.
    pub(super) fn linear(n: usize, cells: &[usize], coef: &[i64], target: i64) -> Sum {
        // Every partial sum lies between the negative terms at their most and the positive
        // ones at theirs.
        let n = n as i64;
        let base: i64 = coef.iter().filter(|&&k| k < 0).map(|&k| k * n).sum();
        let top: i64 = coef.iter().filter(|&&k| k > 0).map(|&k| k * n).sum();
        let fits = cells.len() <= REACH_CELLS && top - base < 128 && n <= 16;
        let groups = if fits {
            (0..cells.len())
                .map(|i| Group {
                    start: i,
                    len: 1,
                    coef: coef[i],
                })
                .collect()
        } else {
            Vec::new()
        };
        Sum {
            cells: cells.iter().map(|&c| c as u16).collect(),
            coef: coef.to_vec(),
            target,
            combos: None,
            links: Vec::new(),
            reach_base: fits.then_some(base),
            groups,
        }
    }

    /// Gather a sum's cells (repeats allowed) into groups that must hold different digits:
    /// `differ(a, b)` says whether two cells must. Greedy: each cell joins the first group of
    /// its coefficient whose cells it all differs from, while the group's digit sets stay few.
    /// Cells are reordered group by group.
    pub(super) fn group(&mut self, n: usize, differ: impl Fn(u16, u16) -> bool) {
        if self.reach_base.is_none() || self.cells.is_empty() {
            return;
        }
        // Cells that all differ, with one coefficient of 1 or -1: a cage (of the target, or
        // of its opposite).
        let k = self.coef[0];
        let all_differ = self
            .cells
            .iter()
            .enumerate()
            .all(|(i, &a)| self.cells[i + 1..].iter().all(|&b| differ(a, b)));
        if k.abs() == 1 && self.coef.iter().all(|&x| x == k) && all_differ && self.target * k > 0 {
            let cells: Vec<usize> = self.cells.iter().map(|&c| usize::from(c)).collect();
            *self = Sum::cage(n, &cells, (self.target * k) as u32);
            return;
        }
        let mut groups: Vec<(i64, Vec<u16>)> = Vec::new();
        for (&c, &k) in self.cells.iter().zip(&self.coef) {
            let fits = |g: &&mut (i64, Vec<u16>)| {
                g.0 == k
                    && g.1.len() < GROUP_CELLS
                    && g.1.iter().all(|&o| differ(o, c))
                    && choose(n, g.1.len() + 1) <= GROUP_SETS
            };
            match groups.iter_mut().find(|g| fits(g)) {
                Some(g) => g.1.push(c),
                None => groups.push((k, vec![c])),
            }
        }
        self.cells.clear();
        self.coef.clear();
        self.groups.clear();
        for (k, cells) in groups {
            self.groups.push(Group {
                start: self.cells.len(),
                len: cells.len(),
                coef: k,
            });
            self.coef.extend(cells.iter().map(|_| k));
            self.cells.extend(cells);
        }
    }

    /// A killer cage with a sum: different digits.
    pub(super) fn cage(n: usize, cells: &[usize], sum: u32) -> Sum {
        let k = cells.len() as u32;
        let combos = (n <= 16).then(|| {
            (0u64..1 << n)
                .filter(|m| m.count_ones() == k)
                .filter(|m| {
                    let s: u32 = (0..n as u32)
                        .filter(|d| m >> d & 1 == 1)
                        .map(|d| d + 1)
                        .sum();
                    s == sum
                })
                .collect()
        });
        Sum {
            cells: cells.iter().map(|&c| c as u16).collect(),
            coef: vec![1; cells.len()],
            target: i64::from(sum),
            combos,
            links: Vec::new(),
            reach_base: None,
            groups: Vec::new(),
        }
    }

    /// Note the houses (each a list of cells) that hold two or more of a cage's or a grouped
    /// sum's cells (at most 64 cells): required digits then leave the rest of such a house.
    pub(super) fn link_houses(&mut self, houses: &[Vec<u16>]) {
        if (self.combos.is_none() && self.groups.iter().all(|g| g.len < 2)) || self.cells.len() > 64
        {
            return;
        }
        for house in houses {
            let members = self
                .cells
                .iter()
                .enumerate()
                .filter(|(_, c)| house.contains(c))
                .fold(0u64, |m, (i, _)| m | 1 << i);
            if members.count_ones() >= 2 {
                let others = house
                    .iter()
                    .copied()
                    .filter(|c| !self.cells.contains(c))
                    .collect();
                self.links.push(Link { members, others });
            }
        }
    }

    /// The sum's cells.
    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        match (&self.combos, self.reach_base) {
            (Some(combos), _) => self.run_combos(combos, m),
            (None, Some(base)) => self.run_reach(base, m),
            (None, None) => self.run_bounds(m),
        }
    }

    /// Different digits: keep the digits of the digit sets that still fit.
    fn run_combos<M: Masks>(&self, combos: &[u64], m: &mut M) -> Result<bool, Contradiction> {
        let (union, fixed) = union_placed(self.cells.iter().map(|&c| m.mask(usize::from(c))));
        let (mut allowed, mut required) = (0u64, u64::MAX);
        'combos: for &combo in combos {
            if combo & fixed != fixed || combo & union != combo {
                continue;
            }
            for &c in &self.cells {
                if m.mask(usize::from(c)) & combo == 0 {
                    continue 'combos;
                }
            }
            allowed |= combo;
            required &= combo;
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        for &c in &self.cells {
            changed |= m.restrict(usize::from(c), allowed)?;
        }
        changed |= self.place_required(0..self.cells.len(), required & !fixed, m)?;
        Ok(changed)
    }

    /// Digits the cells of `range` must hold (different digits, none placed yet): one place
    /// left is a hidden single; places all in one house clear the digit from the rest of that
    /// house.
    fn place_required<M: Masks>(
        &self,
        range: std::ops::Range<usize>,
        mut digits: u64,
        m: &mut M,
    ) -> Result<bool, Contradiction> {
        let mut changed = false;
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let mut places = 0u64;
            for i in range.clone() {
                if m.mask(usize::from(self.cells[i])) & bit != 0 {
                    places |= 1 << i;
                }
            }
            match places.count_ones() {
                0 => return Err(Contradiction),
                1 => {
                    let cell = self.cells[places.trailing_zeros() as usize];
                    changed |= m.restrict(usize::from(cell), bit)?;
                }
                _ => {
                    for link in &self.links {
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

    /// Repeats allowed but for the groups of cells that must differ: each cell keeps the
    /// digits of its group's assignments (different digits) whose sum some choice of the
    /// other groups' sums completes to the target. Partial sums
    /// (less `base`) are bits of a `u128`: `before[i]` the sums the groups before `i` can
    /// make, `after` those the groups from `i` on must make.
    fn run_reach<M: Masks>(&self, base: i64, m: &mut M) -> Result<bool, Contradiction> {
        let goal = self.target - base;
        if !(0..128).contains(&goal) {
            return Err(Contradiction);
        }
        let step = |set: u128, by: i64| -> u128 {
            if by >= 0 {
                set << by
            } else {
                set >> -by
            }
        };
        // All the partial sums of `sums` (a group's sums) times `coef` added to `from`.
        let spread = |from: u128, mut sums: u128, coef: i64| {
            let mut out = 0;
            while sums != 0 {
                let s = i64::from(sums.trailing_zeros() as u8);
                sums &= sums - 1;
                out |= step(from, coef * s);
            }
            out
        };
        let mut masks = [0u64; REACH_CELLS];
        for (mask, &c) in masks.iter_mut().zip(&self.cells) {
            *mask = m.mask(usize::from(c));
        }
        let k = self.groups.len();
        let mut before = [0u128; REACH_CELLS + 1];
        let mut made = [0u128; REACH_CELLS];
        // The assignments of the groups of two or three cells.
        let mut ways = [Made {
            sums: 0,
            support: [0; 3],
            required: 0,
        }; REACH_CELLS];
        before[0] = 1 << -base;
        for (i, g) in self.groups.iter().enumerate() {
            made[i] = if g.len == 1 {
                u128::from(masks[g.start]) << 1
            } else {
                ways[i] = assignments(&masks[g.start..g.start + g.len], u128::MAX);
                ways[i].sums
            };
            before[i + 1] = spread(before[i], made[i], g.coef);
        }
        if before[k] >> goal & 1 == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        let mut after: u128 = 1 << goal;
        for (i, g) in self.groups.iter().enumerate().rev() {
            // The group's sums that the other groups complete to the target.
            let mut sums = 0u128;
            let mut rest = made[i];
            while rest != 0 {
                let s = rest.trailing_zeros();
                rest &= rest - 1;
                if step(before[i], g.coef * i64::from(s)) & after != 0 {
                    sums |= 1 << s;
                }
            }
            let cut = sums != made[i];
            let cells = &self.cells[g.start..g.start + g.len];
            if g.len == 1 {
                if cut {
                    changed |= m.restrict(usize::from(cells[0]), (sums >> 1) as u64)?;
                }
            } else {
                let w = if cut {
                    assignments(&masks[g.start..g.start + g.len], sums)
                } else {
                    ways[i]
                };
                for (j, &c) in cells.iter().enumerate() {
                    changed |= m.restrict(usize::from(c), w.support[j])?;
                }
                let (_, fixed) = union_placed(masks[g.start..g.start + g.len].iter().copied());
                if w.required & !fixed != 0 {
                    changed |=
                        self.place_required(g.start..g.start + g.len, w.required & !fixed, m)?;
                }
            }
            after = spread(after, sums, -g.coef);
        }
        Ok(changed)
    }

    /// Repeats allowed: each cell keeps the digits for which the others' least and greatest
    /// contributions can still make the target, until nothing changes.
    fn run_bounds<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        let mut changed = false;
        loop {
            let (mut lo, mut hi) = (0i64, 0i64);
            for (&c, &k) in self.cells.iter().zip(&self.coef) {
                let mask = m.mask(usize::from(c));
                let (a, b) = span(mask);
                let (x, y) = if k >= 0 {
                    (k * a, k * b)
                } else {
                    (k * b, k * a)
                };
                lo += x;
                hi += y;
            }
            if self.target < lo || self.target > hi {
                return Err(Contradiction);
            }
            let mut again = false;
            for (&c, &k) in self.cells.iter().zip(&self.coef) {
                let cell = usize::from(c);
                let mask = m.mask(cell);
                let (a, b) = span(mask);
                let (x, y) = if k >= 0 {
                    (k * a, k * b)
                } else {
                    (k * b, k * a)
                };
                // k·d must lie in [target - (hi - y), target - (lo - x)].
                let (want_lo, want_hi) = (self.target - (hi - y), self.target - (lo - x));
                let allowed = if k > 0 {
                    range_mask(div_ceil(want_lo, k), want_hi.div_euclid(k))
                } else {
                    let k = -k;
                    range_mask(div_ceil(-want_hi, k), (-want_lo).div_euclid(k))
                };
                if m.restrict(cell, allowed)? {
                    again = true;
                }
            }
            if !again {
                return Ok(changed);
            }
            changed = true;
        }
    }
}

/// The least and greatest digit of a mask (not empty).
#[inline]
fn span(mask: u64) -> (i64, i64) {
    (
        i64::from(mask.trailing_zeros()) + 1,
        64 - i64::from(mask.leading_zeros()),
    )
}

/// The union of some candidate masks, and the digits of those that are placed (one bit).
#[inline]
fn union_placed(masks: impl IntoIterator<Item = u64>) -> (u64, u64) {
    masks.into_iter().fold((0, 0), |(union, placed), mask| {
        let one = if mask & mask.wrapping_sub(1) == 0 {
            mask
        } else {
            0
        };
        (union | mask, placed | one)
    })
}

/// n choose k (saturating).
fn choose(n: usize, k: usize) -> usize {
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

#[inline]
fn div_ceil(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `assignments` against every assignment of digits, on pseudo-random masks and sums.
    #[test]
    fn assignments_match_brute_force() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..3000 {
            let len = 2 + round % 2;
            let n = if round % 3 == 0 { 16 } else { 9 };
            let full = (1u64 << n) - 1;
            let ms: Vec<u64> = (0..len)
                .map(|_| {
                    let m = next() & next() & full;
                    if m == 0 {
                        1 << (next() % n)
                    } else {
                        m
                    }
                })
                .collect();
            let allowed = if round % 4 == 0 {
                u128::MAX
            } else {
                u128::from(next()) | u128::from(next()) << 64
            };
            let (mut sums, mut support, mut required) = (0u128, [0u64; 3], u64::MAX);
            let digits = |m: u64| (0..n).filter(move |d| m >> d & 1 == 1);
            let mut visit = |ds: &[u64]| {
                let set = ds.iter().fold(0u64, |s, &d| s | 1 << d);
                let sum: u64 = ds.iter().map(|d| d + 1).sum();
                if set.count_ones() as usize == ds.len() && allowed >> sum & 1 == 1 {
                    sums |= 1 << sum;
                    for (s, &d) in support.iter_mut().zip(ds) {
                        *s |= 1 << d;
                    }
                    required &= set;
                }
            };
            for a in digits(ms[0]) {
                for b in digits(ms[1]) {
                    if len == 2 {
                        visit(&[a, b]);
                    } else {
                        for c in digits(ms[2]) {
                            visit(&[a, b, c]);
                        }
                    }
                }
            }
            let got = assignments(&ms, allowed);
            assert_eq!(got.sums, sums, "{ms:?}");
            assert_eq!(got.support, support, "{ms:?}");
            if sums != 0 {
                assert_eq!(got.required, required, "{ms:?}");
            }
        }
    }
}
