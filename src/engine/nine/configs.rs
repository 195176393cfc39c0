//! Configurations: the second branching rule of the 9×9 engine, after tdoku's
//! write-up (band and stack configurations), written from the published idea (no code copied).
//!
//! In a stack (three columns of boxes) a digit occupies one *mini-column* (a column's three
//! cells in one band) of each band and of each column: its mini-columns form a permutation
//! band → column, one of six. The 3×3 matrix of mini-columns where the digit is still possible
//! (bit `3 * band + column`) allows the permutations it contains, the digit's *stack
//! configurations*. (Bands have configurations too, of mini-rows; `nine`'s propagation already
//! keeps only the mini-rows on one, and choosing among bands as well saved almost no nodes for
//! more instructions, so only stacks are split.)
//!
//! At each node of the late phase `choose` first removes the mini-columns on no configuration
//! (locked candidates on the stack side: claiming and pointing for columns, which `nine`'s
//! propagation does only partly), and finds a state with a stack matrix without configuration
//! dead; when it removed something the caller propagates and asks again. Then
//! it picks the stack with the fewest configurations in all (its digits' counts summed), and in
//! it the digit with the fewest (at least two); each child of the split keeps one
//! configuration (`restrict`): three mini-columns at once. On hard puzzles this visits fewer
//! nodes than branching on a two-candidate cell; on puzzles with many
//! solutions it finds them later, and on nearly empty grids it can thrash, so `nine` uses it
//! only for the hard part of uniqueness checks, bounded.

use super::tables::{fold, spread, PERMS};

/// The six permutations `i -> j` of a 3×3 matrix (bit `3 * i + j`), in the order of `PERMS`.
const PERM_BITS: [u16; 6] = {
    let mut t = [0u16; 6];
    let mut i = 0;
    while i < 6 {
        let p = PERMS[i];
        t[i] = (1 << p[0]) | (1 << (3 + p[1])) | (1 << (6 + p[2]));
        i += 1;
    }
    t
};

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

/// `KEEP9[m]` for a 3×3 matrix `m`: its entries on some permutation contained in `m` (0 when
/// none is).
const KEEP9: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            if PERMS_IN[m] & (1 << i) != 0 {
                t[m] |= PERM_BITS[i];
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
        t[m] = PERMS_IN[m].count_ones() as u8;
        m += 1;
    }
    t
};

/// `GROUPS[x]` for a 9-bit `x`: its three 3-bit groups spaced out to bits `9 * g` (group `g`).
/// It reads both ways between columns and stack matrices:
/// - for the column occupancy `o` of band 0, `GROUPS[o]` is its three mini-column triples in
///   place in the three stack matrices (stack `s` at bits `9 * s`, band 0 at bits `0..3` of
///   each); shift left by `3 * k` for band `k`;
/// - for a stack-0 matrix `m` (bit `3 * band + column`), `GROUPS[m]` is the columns it keeps,
///   as the three bands' 9-bit column sets side by side (band `k` at bits `9 * k`); shift left
///   by `3 * s` for stack `s`.
const GROUPS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut g = 0;
        while g < 3 {
            t[x] |= (((x >> (3 * g)) & 7) as u32) << (9 * g);
            g += 1;
        }
        x += 1;
    }
    t
};

/// The three digit-band bits of digit 0 in a dirty mask; shift left by `d` for digit `d`.
const DIGIT_BANDS: u32 = 1 | 1 << 9 | 1 << 18;

/// The three stack matrices of a digit (stack `s` at bits `9 * s`, bit `3 * band + column`).
#[inline(always)]
fn stacks(a: [u32; 3]) -> u32 {
    GROUPS[fold(a[0]) as usize]
        | GROUPS[fold(a[1]) as usize] << 3
        | GROUPS[fold(a[2]) as usize] << 6
}

/// A configuration split: a child per stack configuration of digit `d` in stack `s`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Split {
    s: usize,
    d: usize,
}

/// What `choose` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    /// A stack matrix holds no configuration: the state is dead.
    Dead,
    /// Mini-columns on no configuration were removed from these digit-bands (a dirty mask):
    /// propagate, then choose again.
    Locked(u32),
    /// Split here; the children are bit `i` for the `i`-th permutation.
    Split(Split, u32),
    /// Every digit's stack configurations are settled.
    Settled,
}

/// Locked candidates on the stack side, then the split of a propagated state
/// (`cand[9 * band + digit]`, as in `nine`): the stack with the fewest configurations in all,
/// and in it the digit with the fewest (at least two).
#[inline(always)]
pub(super) fn choose(cand: &mut [u32; 27]) -> Choice {
    let mut n = [[0u8; 9]; 3];
    let mut total = [0u32; 3];
    let mut mats = [0u32; 9];
    let mut dirty = 0;
    for d in 0..9 {
        let v = stacks([cand[d], cand[9 + d], cand[18 + d]]);
        let k = [
            KEEP9[(v & 0x1FF) as usize],
            KEEP9[((v >> 9) & 0x1FF) as usize],
            KEEP9[(v >> 18) as usize],
        ];
        let keep = k[0] as u32 | (k[1] as u32) << 9 | (k[2] as u32) << 18;
        if keep != v {
            if k[0] == 0 || k[1] == 0 || k[2] == 0 {
                return Choice::Dead;
            }
            let cols =
                GROUPS[k[0] as usize] | GROUPS[k[1] as usize] << 3 | GROUPS[k[2] as usize] << 6;
            for b in 0..3 {
                let i = 9 * b + d;
                let x = cand[i] & spread((cols >> (9 * b)) & 0x1FF);
                dirty |= ((x != cand[i]) as u32) << i;
                cand[i] = x;
            }
        }
        mats[d] = keep;
        for (s, &m) in k.iter().enumerate() {
            let c = NPERM[m as usize];
            n[s][d] = c;
            total[s] += c as u32;
        }
    }
    if dirty != 0 {
        return Choice::Locked(dirty);
    }
    // A stack whose nine digits have one configuration each is settled.
    let (mut best, mut s) = (u32::MAX, usize::MAX);
    for (l, &t) in total.iter().enumerate() {
        if t > 9 && t < best {
            (best, s) = (t, l);
        }
    }
    if s == usize::MAX {
        return Choice::Settled;
    }
    let (mut least, mut d) = (u8::MAX, 0);
    for (e, &k) in n[s].iter().enumerate() {
        if k > 1 && k < least {
            (least, d) = (k, e);
        }
    }
    let m = ((mats[d] >> (9 * s)) & 0x1FF) as usize;
    Choice::Split(Split { s, d }, PERMS_IN[m] as u32)
}

/// Keep only configuration `alt` of a split in `cand`; the digit-bands that may have changed
/// (a dirty mask for `nine`'s propagation).
#[inline(always)]
pub(super) fn restrict(cand: &mut [u32; 27], split: Split, alt: usize) -> u32 {
    let Split { s, d } = split;
    let cols = GROUPS[PERM_BITS[alt] as usize] << (3 * s);
    let other = 0x1FF & !(7 << (3 * s));
    for k in 0..3 {
        cand[9 * k + d] &= spread(((cols >> (9 * k)) & 0x1FF) | other);
    }
    DIGIT_BANDS << d
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAND: u32 = (1 << 27) - 1;

    #[test]
    fn tables() {
        assert_eq!(
            (NPERM[0x1FF], NPERM[0b100_010_001], NPERM[0b011_011_000]),
            (6, 1, 0)
        );
        let two = PERM_BITS[0] | PERM_BITS[1];
        assert_eq!(NPERM[two as usize], 2);
        assert_eq!(PERMS_IN[two as usize], 0b11);
        assert_eq!(PERM_BITS.iter().map(|&p| p.count_ones()).sum::<u32>(), 18);
    }

    /// Pseudo-random digit positions in three bands.
    fn random_bands(x: &mut u32) -> [u32; 3] {
        let mut a = [0u32; 3];
        for w in a.iter_mut() {
            *x ^= *x << 13;
            *x ^= *x >> 17;
            *x ^= *x << 5;
            *w = *x & BAND;
        }
        a
    }

    #[test]
    fn matrices_match_a_cell_by_cell_reading() {
        // The mini-column matrices read through the tables equal those read cell by cell, and
        // GROUPS read the other way gives back the columns.
        let mut x = 0x9E37_79B9u32;
        for _ in 0..2000 {
            let a = random_bands(&mut x);
            let mut stack = 0u32;
            for (k, &w) in a.iter().enumerate() {
                for p in 0..27 {
                    if w & (1 << p) != 0 {
                        let c = p % 9;
                        stack |= 1 << (9 * (c / 3) + 3 * k + c % 3);
                    }
                }
            }
            assert_eq!(stacks(a), stack);
            for s in 0..3 {
                let m = ((stack >> (9 * s)) & 0x1FF) as usize;
                let cols = GROUPS[m] << (3 * s);
                for (k, &w) in a.iter().enumerate() {
                    assert_eq!((cols >> (9 * k)) & 0x1FF, fold(w) & (7 << (3 * s)));
                }
            }
        }
    }

    #[test]
    fn the_children_of_a_split_partition_its_configurations() {
        // Each child keeps exactly one configuration of the split digit in the split stack (the
        // mini-columns of that permutation), the other stacks untouched.
        let mut x = 0x1234_5678u32;
        let mut splits = 0;
        'puzzles: for _ in 0..500 {
            let mut cand = [BAND; 27];
            for d in 0..9 {
                let a = random_bands(&mut x);
                for b in 0..3 {
                    cand[9 * b + d] = a[b] | (x & BAND);
                }
            }
            let (split, alts) = loop {
                let before = cand;
                match choose(&mut cand) {
                    Choice::Split(split, alts) => break (split, alts),
                    Choice::Locked(dirty) => {
                        // Only removals, only in the digit-bands reported, and afterwards
                        // every mini-column of every stack is on some configuration.
                        for i in 0..27 {
                            assert_eq!(cand[i] & !before[i], 0);
                            assert_eq!(cand[i] != before[i], dirty & (1 << i) != 0);
                        }
                        for d in 0..9 {
                            let v = stacks([cand[d], cand[9 + d], cand[18 + d]]);
                            for s in 0..3 {
                                let m = ((v >> (9 * s)) & 0x1FF) as usize;
                                assert_eq!(KEEP9[m] as usize, m);
                            }
                        }
                    }
                    Choice::Dead | Choice::Settled => continue 'puzzles,
                }
            };
            assert_eq!(choose(&mut cand.clone()), Choice::Split(split, alts));
            splits += 1;
            let mut kids = alts;
            while kids != 0 {
                let alt = kids.trailing_zeros() as usize;
                kids &= kids - 1;
                let mut c = cand;
                let dirty = restrict(&mut c, split, alt);
                for i in 0..27 {
                    assert_eq!(c[i] & !cand[i], 0, "restrict only removes");
                    if dirty & (1 << i) == 0 {
                        assert_eq!(c[i], cand[i]);
                    }
                }
                let Split { s, d } = split;
                let v = stacks([c[d], c[9 + d], c[18 + d]]);
                assert_eq!((v >> (9 * s)) & 0x1FF, PERM_BITS[alt] as u32);
                let before = stacks([cand[d], cand[9 + d], cand[18 + d]]);
                let others = !(0x1FF << (9 * s));
                assert_eq!(v & others, before & others);
            }
        }
        assert!(splits > 100, "only {splits} splits");
    }

    #[test]
    fn a_stack_without_configuration_is_dead() {
        // Digit 0 only in column 0 of every band: its first stack matrix is one column.
        let mut cand = [BAND; 27];
        for b in 0..3 {
            cand[9 * b] = 1 | 1 << 9 | 1 << 18;
        }
        assert_eq!(choose(&mut cand), Choice::Dead);
    }
}
