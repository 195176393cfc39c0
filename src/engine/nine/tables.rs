//! The 9×9 engine's constant tables (built at compile time) and its band-word helpers.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

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

/// The six permutations `i -> PERMS[k][i]` of three things: rows to boxes in a band's
/// mini-row matrix (`PERM_KEEP`), bands to columns in a stack's mini-column matrix
/// (`configs`).
pub(super) const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// `PERM_KEEP[m]` for a 3×3 mini-row matrix `m` (bit `3 * row + box`): the 27-bit mask of the
/// mini-rows that lie on some permutation (row → box) contained in `m`; 0 when none is.
pub(super) const PERM_KEEP: [u32; 512] = {
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
pub(super) const KEEP: [u32; 27] = {
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
pub(super) const ONE_COL_BOX: [u16; 512] = {
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
pub(super) const MINI_AT: [[u16; 512]; 3] = {
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
pub(super) const SINGLE_AT: [[u32; 512]; 3] = {
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
pub(super) const COL_LOCK: [u32; 512] = {
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
pub(super) const OTHER: [(u8, u8); 27] = {
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
pub(super) const SINGLE: [u16; 512] = {
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
