//! The ways a band can take its digits from the columns, stack by stack, and the checks that
//! drop the ways with no arrangement before anything is looked up.
//!
//! In a band each stack's columns share out every digit once (each box holds each digit once),
//! `rows` digits per column, each column taking only digits it still lacks. The stacks choose
//! independently; the rows couple them. Two checks cut the combinations early:
//! - a column's digits must have some order down the band that keeps the givens (a digit
//!   given in a row elsewhere in the band stays out of that row here): a way whose column has
//!   none is dropped at once;
//! - each digit needs a different row in every stack. The rows a digit can take in a stack
//!   (over the orders of its column) make the stack's *signature*; by Hall's theorem, two
//!   stacks must offer each digit two rows together, and all of them every row (exact for
//!   bands of two or three rows, which have as many stacks as rows).

use super::Plan;

/// Words of a way in a list: the `cols` column masks come first, then these. The way's row
/// signature in its band (see [`Hall`]; with the next band's, where they share a word).
pub(super) const SIG: usize = 0;
/// The signature of the next band (the next band offers every row unless it is the last), or
/// 0 where it shares [`SIG`]'s word.
pub(super) const SIG_NEXT: usize = 1;
/// The digits' places in this band (two words, see `places`).
pub(super) const PLACES: usize = 2;
/// The digits' places in the next band (two words).
pub(super) const PLACES_NEXT: usize = 4;
/// Words after the column masks.
pub(super) const EXTRA: usize = 6;

/// The most steps [`Plan::passing`] takes through the stacks' ways of one boundary.
const PASSING_STEPS: u32 = 1 << 14;

/// What [`Plan::passing`] found of one boundary's tail.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Passing {
    /// The combinations of the next band's ways that pass Hall's condition.
    pub(super) combos: f64,
    /// The ways of the last stack (the one with the most ways, walked innermost) that the tail
    /// walks through: all of them for each combination of the other stacks' ways that passes.
    pub(super) last_ways: f64,
}

impl Plan {
    /// Append to `out` the ways stack `s` can share its digits among its columns in band `b`
    /// (`cols + EXTRA` words a way): every digit to one column that still lacks it and does
    /// not get it lower down (a given there), `rows` digits per column, the band's givens
    /// kept; ways whose columns have no order (in this band, or in the next one when it is the
    /// last and takes the rest) are left out.
    pub(super) fn stack_choices(&self, b: usize, s: usize, rem: &[u64], out: &mut Vec<u64>) {
        let (n, cols, rows) = (self.n, self.cols, self.rows);
        let c0 = s * cols;
        // The columns (bit j) each digit may go to.
        let mut allowed = [0u64; 64];
        for (j, c) in (c0..c0 + cols).enumerate() {
            let ok = rem[c] & !self.below[b * n + c];
            for (d, a) in allowed[..n].iter_mut().enumerate() {
                *a |= (ok >> d & 1) << j;
            }
        }
        for (j, c) in (c0..c0 + cols).enumerate() {
            let mut g = self.given[b * n + c];
            while g != 0 {
                let d = g.trailing_zeros() as usize;
                g &= g - 1;
                allowed[d] &= 1 << j;
            }
        }
        if allowed[..n].contains(&0) {
            return;
        }
        // Digits with the fewest columns first.
        let mut order = [0u8; 64];
        for (i, o) in order[..n].iter_mut().enumerate() {
            *o = i as u8;
        }
        order[..n].sort_unstable_by_key(|&d| allowed[d as usize].count_ones());
        let mut masks = [0u64; 64];
        let mut room = [rows as u8; 64];
        let next_is_last = b + 2 == self.bands;
        let mut rest = [0u64; 64];
        share(
            0,
            &order[..n],
            &allowed,
            &mut masks[..cols],
            &mut room[..cols],
            &mut |masks| {
                let Some(here) = self.signature(b, c0, masks) else {
                    return;
                };
                let next = if next_is_last {
                    for (j, r) in rest[..cols].iter_mut().enumerate() {
                        *r = rem[c0 + j] & !masks[j];
                    }
                    match self.signature(b + 1, c0, &rest[..cols]) {
                        Some(sig) => sig,
                        None => return,
                    }
                } else {
                    self.hall.as_ref().map_or(0, |h| h.one)
                };
                // Both signatures in one word where they fit (see `Hall::packed`).
                let (here, next) = match &self.hall {
                    Some(h) if h.packed => (here | next << 32, 0),
                    _ => (here, next),
                };
                let (mut places, mut places_next) = (0u128, 0u128);
                if let Some(p) = &self.places {
                    for (j, &m) in masks.iter().enumerate() {
                        places |= p.part(s, j, m);
                        if next_is_last {
                            places_next |= p.part(s, j, rest[j]);
                        }
                    }
                }
                out.extend_from_slice(masks);
                out.extend_from_slice(&[
                    here,
                    next,
                    places as u64,
                    (places >> 64) as u64,
                    places_next as u64,
                    (places_next >> 64) as u64,
                ]);
            },
        );
    }

    /// The row signature of one stack of band `b` whose columns `c0..` hold the digits
    /// `masks`: for each digit, the rows (`rows` bits at bit `rows * d`) where it can stand in
    /// some order of its column that keeps the band's givens; `None` when some column has no
    /// such order. 0 when signatures are not kept (see [`Hall`]).
    pub(super) fn signature(&self, b: usize, c0: usize, masks: &[u64]) -> Option<u64> {
        let (n, rows) = (self.n, self.rows);
        if rows > 8 {
            return Some(0);
        }
        let mut sig = 0u64;
        for (j, &m) in masks.iter().enumerate() {
            let c = c0 + j;
            let mut digits = [0usize; 8];
            let mut x = m;
            for d in digits.iter_mut().take(rows) {
                *d = x.trailing_zeros() as usize;
                x &= x.wrapping_sub(1);
            }
            let ok = |d: usize| self.row_ok[(b * n + c) * n + d];
            let mut reach = [0u8; 8];
            if rows <= 4 {
                // Look the orders up: the column's digits' allowed rows, side by side.
                let idx = digits[..rows]
                    .iter()
                    .enumerate()
                    .fold(0usize, |a, (i, &d)| a | usize::from(ok(d)) << (rows * i));
                let r = reach_table(rows)[idx];
                if r == 0 {
                    return None;
                }
                for (i, x) in reach[..rows].iter_mut().enumerate() {
                    *x = (r >> (rows * i)) as u8 & ((1 << rows) - 1);
                }
            } else if !orders(&digits[..rows], &ok, 0, 0, &mut [0u8; 8], &mut reach) {
                return None;
            }
            if self.hall.is_some() {
                for (i, &d) in digits[..rows].iter().enumerate() {
                    sig |= u64::from(reach[i]) << (rows * d);
                }
            }
        }
        Some(sig)
    }

    /// The combinations of one way per stack (`lists[s]`: stack `s`'s ways, as
    /// [`Plan::stack_choices`] lists them) that pass Hall's condition, the ones a tail goes on
    /// to look up; and the ways of the last stack the tail walks through for them (every way of
    /// the last stack, the tail's longest list, for each combination of the others that passes);
    /// or the plain product of the lists' lengths for both where walking them would take more
    /// than [`PASSING_STEPS`] steps. For the orientation estimate.
    pub(super) fn passing(&self, lists: &[Vec<u64>]) -> Passing {
        let stride = self.stride();
        let mut order: Vec<&[u64]> = lists.iter().map(|l| &l[..]).collect();
        // The shortest lists outermost, as the tail does.
        order.sort_by_key(|l| l.len());
        let product: f64 = order.iter().map(|l| (l.len() / stride) as f64).product();
        if product == 0.0 {
            return Passing::default();
        }
        let mut steps = PASSING_STEPS;
        let mut sigs = [[0u64; 2]; 8];
        let mut walk = Passing::default();
        match self.passing_from(&order, 0, &mut sigs, &mut steps, &mut walk) {
            Some(()) => walk,
            None => Passing {
                combos: product,
                last_ways: product,
            },
        }
    }

    fn passing_from(
        &self,
        lists: &[&[u64]],
        s: usize,
        sigs: &mut [[u64; 2]; 8],
        steps: &mut u32,
        walk: &mut Passing,
    ) -> Option<()> {
        let last = s + 1 == lists.len();
        let before_last = s + 2 == lists.len();
        for way in lists[s].chunks_exact(self.stride()) {
            *steps = steps.checked_sub(1)?;
            let extra = &way[self.cols..];
            let sig = [extra[SIG], extra[SIG_NEXT]];
            if !self.hall_ok(&sigs[..s], sig, last) {
                continue;
            }
            if last {
                walk.combos += 1.0;
            } else {
                if before_last {
                    walk.last_ways += (lists[s + 1].len() / self.stride()) as f64;
                }
                sigs[s] = sig;
                self.passing_from(lists, s + 1, sigs, steps, walk)?;
            }
        }
        Some(())
    }

    /// [`Plan::hall_ok`] for the last stack after two others (signatures `a` and `b`), all
    /// signatures packed (bands of three rows, nine wide or less): the checks written out.
    #[inline]
    pub(super) fn hall_ok_third(&self, a: u64, b: u64, sig: u64) -> bool {
        let Some(h) = &self.hall else { return true };
        debug_assert!(h.packed && h.rows == 3);
        (a | b | sig) == h.full && h.pairs(a | sig) == h.low && h.pairs(b | sig) == h.low
    }

    /// Whether the signatures of the stacks chosen so far (`before`) and a new one can still
    /// give every digit a different row in each stack (Hall's condition on pairs, and on all
    /// the stacks once `last`), in this band and in the next.
    #[inline]
    pub(super) fn hall_ok(&self, before: &[[u64; 2]], sig: [u64; 2], last: bool) -> bool {
        let Some(h) = &self.hall else { return true };
        for k in 0..if h.packed { 1 } else { 2 } {
            let mut all = sig[k];
            for prev in before {
                if h.pairs(prev[k] | sig[k]) != h.low {
                    return false;
                }
                all |= prev[k];
            }
            if last && all != h.full {
                return false;
            }
        }
        true
    }
}

/// Give digit `order[i]` and the following ones a column each (see [`Plan::stack_choices`]).
fn share(
    i: usize,
    order: &[u8],
    allowed: &[u64; 64],
    masks: &mut [u64],
    room: &mut [u8],
    out: &mut impl FnMut(&[u64]),
) {
    let Some(&d) = order.get(i) else {
        out(masks);
        return;
    };
    let mut cs = allowed[d as usize];
    while cs != 0 {
        let j = cs.trailing_zeros() as usize;
        cs &= cs - 1;
        if room[j] == 0 {
            continue;
        }
        room[j] -= 1;
        masks[j] |= 1 << d;
        share(i + 1, order, allowed, masks, room, out);
        masks[j] &= !(1 << d);
        room[j] += 1;
    }
}

/// Try every order of a column's `digits` down the band's rows (`ok(d)`: the rows digit `d`
/// may take); `reach[i]` collects the rows digit `i` takes in some order. True when there is
/// one.
fn orders(
    digits: &[usize],
    ok: &impl Fn(usize) -> u8,
    i: usize,
    used: u8,
    rows_of: &mut [u8; 8],
    reach: &mut [u8; 8],
) -> bool {
    if i == digits.len() {
        for (r, &row) in reach.iter_mut().zip(rows_of.iter()).take(digits.len()) {
            *r |= row;
        }
        return true;
    }
    let mut free = ok(digits[i]) & !used;
    let mut any = false;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        rows_of[i] = bit;
        any |= orders(digits, ok, i + 1, used | bit, rows_of, reach);
    }
    any
}

/// For bands of `rows` ≤ 4 rows: indexed by the allowed rows of a column's digits side by side
/// (`rows` bits each), the rows each can take in some order of the column, side by side
/// likewise; 0 when there is no order.
fn reach_table(rows: usize) -> &'static [u16] {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<Vec<u16>>; 5] = [const { OnceLock::new() }; 5];
    TABLES[rows].get_or_init(|| {
        let digits: Vec<usize> = (0..rows).collect();
        (0..1usize << (rows * rows))
            .map(|idx| {
                let ok = |i: usize| (idx >> (rows * i)) as u8 & ((1 << rows) - 1);
                let mut reach = [0u8; 8];
                if !orders(&digits, &ok, 0, 0, &mut [0u8; 8], &mut reach) {
                    return 0;
                }
                (0..rows).fold(0u16, |a, i| a | u16::from(reach[i]) << (rows * i))
            })
            .collect()
    })
}

/// Hall's condition on row signatures, for bands of two or three rows (as many stacks as
/// rows).
#[derive(Debug, Clone)]
pub(super) struct Hall {
    rows: usize,
    /// A way's signatures of its band and of the next share its first word (this band's in
    /// the low 32 bits), where each fits in 32 bits: one check covers both bands.
    packed: bool,
    /// The lowest bit of each digit's group (of both bands, when `packed`).
    low: u64,
    /// Every bit of every digit's group (of both bands, when `packed`).
    full: u64,
    /// Every bit of every digit's group, of one band: the signature of a band that offers
    /// every digit every row.
    pub(super) one: u64,
}

impl Hall {
    /// Whether [`Plan::hall_ok_third`] applies: three rows, signatures packed.
    pub(super) fn third(&self) -> bool {
        self.packed && self.rows == 3
    }

    pub(super) fn new(rows: usize, n: usize) -> Option<Hall> {
        if !(2..=3).contains(&rows) || rows * n > 64 {
            return None;
        }
        let low = (0..n).fold(0u64, |m, d| m | 1 << (rows * d));
        let one = low * ((1 << rows) - 1);
        let packed = rows * n <= 32;
        let both = |x: u64| if packed { x | x << 32 } else { x };
        Some(Hall {
            rows,
            packed,
            low: both(low),
            full: both(one),
            one,
        })
    }

    /// The lowest bit of each group of `u` that holds at least two bits.
    #[inline]
    fn pairs(&self, u: u64) -> u64 {
        let p = if self.rows == 2 {
            u & u >> 1
        } else {
            (u & u >> 1) | (u & u >> 2) | (u >> 1 & u >> 2)
        };
        p & self.low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reach_table_knows_the_orders() {
        // Three digits, all rows allowed: each can take any row.
        let t = reach_table(3);
        assert_eq!(t[0o777], 0o777);
        // Digit 0 only row 0, digit 1 rows {0,1}: digit 1 must take row 1, digit 2 row 2.
        assert_eq!(t[0o7 << 6 | 0o3 << 3 | 0o1], 0o4 << 6 | 0o2 << 3 | 0o1);
        // Two digits both only row 0: no order.
        assert_eq!(t[0o7 << 6 | 0o1 << 3 | 0o1], 0);
    }

    #[test]
    fn hall_pairs() {
        let h = Hall::new(3, 2).unwrap();
        // Digit 0 offered {0} and {0}: fails; digit 1 {1} and {2}: fine.
        assert_eq!(h.pairs(0o1 | 0o1) & 0o1, 0);
        assert_eq!(h.pairs(0o2 << 3 | 0o4 << 3) >> 3 & 1, 1);
    }
}
