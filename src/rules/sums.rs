//! Sums: killer cages (different digits: the digit sets that make the sum), little killers
//! and arrows (repeats allowed: bounds).

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
}

impl Sum {
    /// A linear sum; repeats allowed.
    pub(super) fn linear(_n: usize, cells: &[usize], coef: &[i64], target: i64) -> Sum {
        Sum {
            cells: cells.iter().map(|&c| c as u16).collect(),
            coef: coef.to_vec(),
            target,
            combos: None,
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
        }
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        match &self.combos {
            Some(combos) => self.run_combos(combos, m),
            None => self.run_bounds(m),
        }
    }

    /// Different digits: keep the digits of the digit sets that still fit.
    fn run_combos<M: Masks>(&self, combos: &[u64], m: &mut M) -> Result<bool, Contradiction> {
        let (mut union, mut fixed) = (0u64, 0u64);
        for &c in &self.cells {
            let mask = m.mask(usize::from(c));
            union |= mask;
            if mask & mask.wrapping_sub(1) == 0 {
                fixed |= mask;
            }
        }
        let mut allowed = 0u64;
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
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        for &c in &self.cells {
            changed |= m.restrict(usize::from(c), allowed)?;
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

#[inline]
fn div_ceil(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}
