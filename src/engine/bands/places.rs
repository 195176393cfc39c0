//! Keys of band arrangements that forget the digits' names.
//!
//! How many ways a band's rows can be filled ([`super::arrange`]) depends only on the band's
//! structure: which column of each stack holds each digit, and the rows its givens fix it to.
//! Give each digit its *place*, the columns it takes in the stacks as one number (column `j`
//! of stack `s` counts `j · cols^s`); then a band is described, whatever its digits are called,
//! by how many digits without givens have each place (a histogram) and the place and fixed
//! rows of each digit with givens. Bands that are relabellings of each other share this key,
//! in every puzzle of the shape, so the count of a band structure is computed once.
//!
//! Places are carried as bytes (digit `d` in byte `d` of a `u128`, so boards up to 16×16):
//! a stack's part of them is added to the others' without carries.

/// The key layout for one plan's shape and givens.
#[derive(Debug, Clone)]
pub(super) struct Places {
    /// `cols^s` for each stack `s`.
    pow: [u8; 8],
    /// Bits of one histogram count (up to `rows` digits share a place).
    cbits: u32,
    /// Bits of a place.
    pbits: u32,
    /// Bits of a digit's fixed rows (`rows` fields of row + 1).
    fbits: u32,
    /// Per band: the digits without a given.
    free: Vec<u64>,
    /// Per band: the digits with givens and their fixed rows (`rows` fields, row + 1 each).
    given: Vec<Vec<(u8, u32)>>,
    /// Words of a key.
    words: usize,
    /// The shape's tag in the table: the same for every puzzle of the shape.
    pub(super) tag: u64,
}

/// Most words of a key.
pub(super) const KEY_WORDS: usize = 8;

fn bits_for(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

impl Places {
    /// The layout for bands of `rows` rows and stacks of `cols` columns (side `n`), with the
    /// givens `fixed` (as in [`super::Plan`]); `None` where keys would not fit (boards above
    /// 16×16, or too many places).
    pub(super) fn new(rows: usize, cols: usize, n: usize, fixed: &[u64]) -> Option<Places> {
        let places = cols.checked_pow(rows as u32)?;
        let (cbits, pbits, rbits) = (bits_for(rows), bits_for(places - 1), bits_for(rows));
        let fbits = rows as u32 * rbits;
        if n > 16 || places > 256 || places as u32 * cbits > 128 || rows > 8 {
            return None;
        }
        let words = 2 + (n as u32 * (pbits + fbits)).div_ceil(64) as usize;
        if words > KEY_WORDS {
            return None;
        }
        let mut pow = [0u8; 8];
        for (s, p) in pow.iter_mut().enumerate().take(rows) {
            *p = cols.pow(s as u32) as u8;
        }
        let bands = n / rows;
        let mut free = vec![(1u64 << n) - 1; bands];
        let mut given = vec![Vec::new(); bands];
        for b in 0..bands {
            let mut rows_of = [0u32; 64];
            for r in 0..rows {
                for c in 0..n {
                    let x = fixed[(b * rows + r) * n + c];
                    if x != 0 {
                        let d = x.trailing_zeros() as usize;
                        rows_of[d] |= ((r + 1) as u32) << ((c / cols) as u32 * rbits);
                        free[b] &= !x;
                    }
                }
            }
            given[b] = (0..n)
                .filter(|&d| rows_of[d] != 0)
                .map(|d| (d as u8, rows_of[d]))
                .collect();
        }
        Some(Places {
            pow,
            cbits,
            pbits,
            fbits,
            free,
            given,
            words,
            tag: 1 << 63 | (rows as u64) << 8 | cols as u64,
        })
    }

    /// Words of a key.
    pub(super) fn words(&self) -> usize {
        self.words
    }

    /// The part of the places that column `j` of stack `s` holding `digits` contributes.
    #[inline]
    pub(super) fn part(&self, s: usize, j: usize, digits: u64) -> u128 {
        let v = u128::from(self.pow[s]) * j as u128;
        let mut out = 0u128;
        let mut x = digits;
        while x != 0 {
            out |= v << (8 * x.trailing_zeros());
            x &= x - 1;
        }
        out
    }

    /// The places of a band whose column `c` holds `sets[c]` (stacks of `cols` columns).
    pub(super) fn of_sets(&self, cols: usize, sets: &[u64]) -> u128 {
        sets.iter()
            .enumerate()
            .map(|(c, &m)| self.part(c / cols, c % cols, m))
            .sum()
    }

    /// The key of band `b` whose digits have the places `places` (byte `d`), into `key`.
    #[inline]
    pub(super) fn key(&self, b: usize, places: u128, key: &mut [u64; KEY_WORDS]) {
        let mut h = 0u128;
        let mut f = self.free[b];
        while f != 0 {
            let d = f.trailing_zeros();
            f &= f - 1;
            let p = (places >> (8 * d)) as u8 as u32;
            h += 1u128 << (self.cbits * p);
        }
        key[0] = h as u64;
        key[1] = (h >> 64) as u64;
        for w in &mut key[2..self.words] {
            *w = 0;
        }
        let width = self.pbits + self.fbits;
        let mut bit = 0u32;
        for &(d, rows) in &self.given[b] {
            let p = (places >> (8 * u32::from(d))) as u8 as u64;
            let v = p | u64::from(rows) << self.pbits;
            let (w, o) = (2 + (bit / 64) as usize, bit % 64);
            key[w] |= v << o;
            if o + width > 64 {
                key[w + 1] |= v >> (64 - o);
            }
            bit += width;
        }
    }
}
