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

use crate::engine::pages::{self, Slab};

/// The key layout for one plan's shape and givens.
#[derive(Debug, Clone)]
pub(super) struct Places {
    /// `cols^s` for each stack `s`.
    pow: [u8; 8],
    /// Bits of one histogram count (up to `rows` digits share a place).
    cbits: u32,
    /// Bits of the histogram (the given digits' descriptions follow it).
    hist_bits: u32,
    /// The histogram fits in one word.
    narrow: bool,
    /// Bits of a place.
    pbits: u32,
    /// Bits of a digit's fixed rows (`rows` fields of row + 1).
    fbits: u32,
    /// Per band: the digits without a given.
    free: Vec<u64>,
    /// Per band: the digits with givens and their fixed rows (`rows` fields, row + 1 each).
    given: Vec<Vec<(u8, u32)>>,
    /// The shape's tag in the table: the same for every puzzle of the shape.
    pub(super) tag: u64,
    /// The side and the number of places.
    n: usize,
    places: usize,
    /// What digit `d` at place `p` adds to band `b`'s key (a histogram count, or its given's
    /// field; the fourth word is 0), in chunks of 32 places: `parts[(b * n + d) * chunks + p /
    /// 32][p % 32]`. A key is the sum of its digits' parts (fields never overflow, so adding
    /// is placing). With at most 32 places (9×9 and smaller) a digit's parts are one chunk,
    /// indexed without bounds checks. Empty until [`Places::make_keys`]: the plans that only
    /// estimate a turn's cost never make a key.
    parts: Vec<[Part; 32]>,
    /// Chunks of a digit's parts (`places` / 32, rounded up).
    chunks: usize,
}

/// Most words of a key (the [`Cache`] slot holds three and the count).
pub(super) const KEY_WORDS: usize = 3;

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
        // A band has at most (rows!)^n arrangements (each column's digits in some order): the
        // table keeps counts below 2^63.
        let factorial = (1..=rows as u64).product::<u64>();
        if (factorial as f64).log2() * n as f64 >= 63.0 {
            return None;
        }
        let hist_bits = places as u32 * cbits;
        // Keys are summed word by word: no histogram count may straddle two words (a given's
        // field may, as only its digit adds to it).
        if hist_bits > 64 && 64 % cbits != 0 {
            return None;
        }
        if (hist_bits + n as u32 * (pbits + fbits)).div_ceil(64) as usize > KEY_WORDS {
            return None;
        }
        let mut pow = [0u8; 8];
        for (s, p) in pow.iter_mut().enumerate().take(rows) {
            *p = cols.pow(s as u32) as u8;
        }
        let bands = n / rows;
        let mut free = vec![crate::shape::all_digits(n); bands];
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
        let out = Places {
            pow,
            cbits,
            hist_bits,
            narrow: hist_bits <= 64,
            pbits,
            fbits,
            free,
            given,
            tag: 1 << 63 | (rows as u64) << 8 | cols as u64,
            n,
            places,
            parts: Vec::new(),
            chunks: places.div_ceil(32),
        };
        Some(out)
    }

    /// Make the table of digits' parts that [`Places::key`] sums (once).
    pub(super) fn make_keys(&mut self) {
        if self.parts.is_empty() {
            self.parts = self.make_parts();
        }
    }

    /// The table of digits' parts of keys (see [`Places::parts`]), made by the definition of
    /// a key ([`Places::key_of`]) on one digit at a time.
    fn make_parts(&self) -> Vec<[Part; 32]> {
        let (n, places, chunks) = (self.n, self.places, self.chunks);
        let bands = self.free.len();
        let mut parts = vec![[[0u64; 4]; 32]; bands * n * chunks];
        for b in 0..bands {
            for d in 0..n {
                for p in 0..places {
                    // Digit `d` at place `p`, the others left out.
                    let mut bytes = [0u8; 16];
                    bytes[d] = p as u8;
                    let mut key = [0u64; KEY_WORDS];
                    self.key_of(b, u128::from_le_bytes(bytes), Some(d), &mut key);
                    parts[(b * n + d) * chunks + p / 32][p % 32] = [key[0], key[1], key[2], 0];
                }
            }
        }
        parts
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
    #[inline(always)]
    pub(super) fn key(&self, b: usize, places: u128, key: &mut [u64; KEY_WORDS]) {
        debug_assert!(!self.parts.is_empty(), "keys made (make_keys)");
        let place = places.to_le_bytes();
        let (n, chunks) = (self.n, self.chunks);
        let parts = &self.parts[b * n * chunks..(b + 1) * n * chunks];
        let sum = if chunks > 1 {
            let mut sum = [0u64; 4];
            for (c, &p) in parts.chunks_exact(chunks).zip(&place) {
                add_part(&mut sum, &c[usize::from(p) / 32], p);
            }
            sum
        } else if let Ok(parts) = <&[[Part; 32]; 9]>::try_from(parts) {
            // 9×9: the digits' loop unrolled, without bounds checks.
            sum_parts(parts.iter().zip(&place))
        } else {
            sum_parts(parts.iter().zip(&place))
        };
        *key = [sum[0], sum[1], sum[2]];
    }

    /// [`Places::key`] by its definition (with `only`, of that digit alone, for the table of
    /// parts): a histogram of the free digits' places, then each given digit's place and rows.
    fn key_of(&self, b: usize, places: u128, only: Option<usize>, key: &mut [u64; KEY_WORDS]) {
        *key = [0; KEY_WORDS];
        let keep = only.map_or(u64::MAX, |d| 1 << d);
        let mut f = self.free[b] & keep;
        // Digit `d`'s place is byte `d`.
        let place = places.to_le_bytes();
        if self.narrow {
            // The histogram fits one word (9×9 and smaller).
            let mut h = 0u64;
            while f != 0 {
                let d = f.trailing_zeros() as usize;
                f &= f - 1;
                h += 1u64 << (self.cbits * u32::from(place[d]));
            }
            key[0] = h;
        } else {
            let mut h = 0u128;
            while f != 0 {
                let d = f.trailing_zeros() as usize;
                f &= f - 1;
                h += 1u128 << (self.cbits * u32::from(place[d]));
            }
            key[0] = h as u64;
            key[1] = (h >> 64) as u64;
        }
        let width = self.pbits + self.fbits;
        let mut bit = self.hist_bits;
        for &(d, rows) in &self.given[b] {
            if keep >> d & 1 == 0 {
                bit += width;
                continue;
            }
            let v = u64::from(place[usize::from(d)]) | u64::from(rows) << self.pbits;
            let (w, o) = ((bit / 64) as usize, bit % 64);
            key[w] |= v << o;
            if o + width > 64 {
                key[w + 1] |= v >> (64 - o);
            }
            bit += width;
        }
    }
}

/// A digit's part of a key: the key's three words and a zero (four words sum in two vector
/// registers).
type Part = [u64; 4];

/// Add to `sum` the part of a digit at place `p` (its chunk of 32 places `chunk`), word by word
/// (no histogram count straddles two words, see [`Places::new`], so no carry crosses them).
#[inline(always)]
fn add_part(sum: &mut Part, chunk: &[Part; 32], p: u8) {
    for (s, &x) in sum.iter_mut().zip(&chunk[usize::from(p) % 32]) {
        *s = s.wrapping_add(x);
    }
}

/// The sum of the parts of digits at their places (each digit's one chunk with the place).
#[inline(always)]
fn sum_parts<'a>(digits: impl Iterator<Item = (&'a [Part; 32], &'a u8)>) -> Part {
    let mut sum = [0u64; 4];
    for (chunk, &p) in digits {
        add_part(&mut sum, chunk, p);
    }
    sum
}

/// Two slots of the [`Cache`]: one cache line.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
struct Line([[u64; 4]; 2]);

// SAFETY: words only (all zero is `Line::default()`); `Copy`, so no drop glue.
unsafe impl pages::Zeroable for Line {
    fn zero() -> Line {
        Line::default()
    }
}

/// The count in a slot's last word is marked by this bit (a slot without it is free).
const TAKEN: u64 = 1 << 63;

/// A per-thread table of arrangements by [`Places`] key: slots of the key's three words and
/// the count (below 2^63), two to a cache line, a key in either slot of its line. Keys are
/// exact and belong to one shape (the table is made anew for another shape: see
/// [`Cache::shape`]). Starts small, doubles keeping its entries when as many entries were
/// put as it has slots, up to its size limit; then new entries replace old ones.
pub(super) struct Cache {
    lines: Slab<Line>,
    mask: usize,
    put: usize,
    max_lines: usize,
    shape: u64,
}

impl Cache {
    /// A table of at most about `bytes` bytes, for the shape tagged `shape`.
    pub(super) fn new(shape: u64, bytes: usize) -> Cache {
        let max_lines = (bytes / 64).max(2).next_power_of_two();
        // Two huge pages to start with: in one, the ~40,000 band structures of a 9×9 count
        // with millions of solutions filled the two-slot lines past half, and evictions had a
        // fifth of the arrangements counted twice (6% of the time of such counts).
        let n =
            (2 * pages::first_len(std::mem::size_of::<Line>(), 1 << 11, max_lines)).min(max_lines);
        Cache {
            lines: Slab::zeroed(n),
            mask: n - 1,
            put: 0,
            max_lines,
            shape,
        }
    }

    /// The shape whose keys it holds.
    pub(super) fn shape(&self) -> u64 {
        self.shape
    }

    /// The hash of `key` that places it in a table (its high half picks the line).
    #[inline]
    pub(super) fn hash(key: &[u64; KEY_WORDS]) -> u64 {
        // Every bit of the key reaches the high half of the last product, where the line
        // is read from (the low bits of a product see only the low bits of its factors).
        let h = (key[0] ^ key[2].rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h ^ h >> 29 ^ key[1]).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }

    #[inline]
    fn line(&self, hash: u64) -> usize {
        (hash >> 32) as usize & self.mask
    }

    /// Start loading the line of the key whose [`Cache::hash`] is `hash` into the cache.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p: *const Line = &self.lines[self.line(hash)];
            // SAFETY: a prefetch is a hint and never faults; `p` points into `lines`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The count stored for `key` (whose [`Cache::hash`] is `hash`), if any: in its line, or,
    /// where that line is full, in the line beside it (see [`Cache::put`]).
    #[inline]
    pub(super) fn get(&self, key: &[u64; KEY_WORDS], hash: u64) -> Option<u64> {
        let i = self.line(hash);
        let found = |line: &Line| {
            line.0
                .iter()
                .find(|s| s[3] & TAKEN != 0 && s[..3] == key[..])
                .map(|s| s[3] & !TAKEN)
        };
        let line = &self.lines[i];
        found(line).or_else(|| {
            if line.0[1][3] & TAKEN != 0 {
                found(&self.lines[i ^ 1])
            } else {
                None
            }
        })
    }

    /// Remember `count` (below 2^63) for `key` (whose [`Cache::hash`] is `hash`), not in the
    /// table: in a free slot of its line, else of the line beside it (the two share 128
    /// bytes, which the processor fetches together), else in place of one of its line's two.
    /// (With one line alone, a table half full counted a ninth of a sparse count's
    /// arrangements twice: three keys often fall on one line.)
    #[inline]
    pub(super) fn put(&mut self, key: &[u64; KEY_WORDS], hash: u64, count: u64) {
        debug_assert!(count & TAKEN == 0);
        if self.put >= 2 * (self.mask + 1) && self.mask + 1 < self.max_lines {
            self.grow();
        }
        self.put += 1;
        let slot = [key[0], key[1], key[2], count | TAKEN];
        let i = self.line(hash);
        for l in [i, i ^ 1] {
            if let Some(s) = self.lines[l].0.iter_mut().find(|s| s[3] & TAKEN == 0) {
                *s = slot;
                return;
            }
        }
        self.lines[i].0[self.put & 1] = slot;
    }

    #[cold]
    fn grow(&mut self) {
        let n = 2 * (self.mask + 1);
        let old = std::mem::replace(&mut self.lines, Slab::zeroed(n));
        self.mask = n - 1;
        self.put = 0;
        for s in old.iter().flat_map(|l| l.0.iter()) {
            if s[3] & TAKEN != 0 {
                let key = [s[0], s[1], s[2]];
                self.put(&key, Cache::hash(&key), s[3] & !TAKEN);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full line lends its neighbour's free slots: three keys of one line are all found
    /// again; past four, a found count is always the one put for its key (a table is exact,
    /// only forgetful), and a key of a line with a free slot is never lost.
    #[test]
    fn a_full_line_spills_into_its_neighbour() {
        let mut rng = crate::rng::SplitMix64::new(0x5EED_F11E_D00D);
        // Four lines (eight slots): the table cannot grow past them.
        let mut t = Cache::new(7, 4 * 64);
        assert_eq!(t.mask, 3);
        let key =
            |rng: &mut crate::rng::SplitMix64| [rng.next_u64(), rng.next_u64(), rng.next_u64()];
        // Keys by line, until one line has five.
        let mut by_line: Vec<Vec<[u64; KEY_WORDS]>> = vec![Vec::new(); 4];
        let crowded = loop {
            let k = key(&mut rng);
            let l = t.line(Cache::hash(&k));
            by_line[l].push(k);
            if by_line[l].len() == 5 {
                break l;
            }
        };
        let keys = &by_line[crowded];
        for (v, k) in keys[..3].iter().enumerate() {
            t.put(k, Cache::hash(k), v as u64);
        }
        for (v, k) in keys[..3].iter().enumerate() {
            assert_eq!(
                t.get(k, Cache::hash(k)),
                Some(v as u64),
                "key {v} of a full line"
            );
        }
        for (v, k) in keys.iter().enumerate().skip(3) {
            t.put(k, Cache::hash(k), v as u64);
        }
        // Now two lines hold five keys of one: one was replaced, the rest are found.
        let found = keys
            .iter()
            .enumerate()
            .filter(|&(v, k)| {
                let got = t.get(k, Cache::hash(k));
                assert!(
                    got.is_none_or(|g| g == v as u64),
                    "a wrong count for key {v}"
                );
                got.is_some()
            })
            .count();
        assert_eq!(found, 4);
        // Random keys and counts, many more than the slots: whatever is found is right.
        let mut t = Cache::new(7, 4 * 64);
        let mut put = Vec::new();
        for i in 0..200u64 {
            let k = key(&mut rng);
            t.put(&k, Cache::hash(&k), i);
            put.push((k, i));
            for (k, v) in &put {
                assert!(t.get(k, Cache::hash(k)).is_none_or(|g| g == *v));
            }
        }
    }

    /// The key summed from the table of digits' parts is the key by its definition, for
    /// random places of every shape with keys, with and without givens.
    #[test]
    fn keys_from_parts_are_keys_by_definition() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        for (rows, cols) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 4),
            (4, 2),
            (3, 4),
            (4, 3),
        ] {
            let n = rows * cols;
            for givens in [0, 3, 12] {
                let mut fixed = vec![0u64; n * n];
                for _ in 0..givens {
                    let cell = rng.below(n * n);
                    fixed[cell] = 1 << rng.below(n);
                }
                let Some(mut p) = Places::new(rows, cols, n, &fixed) else {
                    continue;
                };
                p.make_keys();
                for b in 0..n / rows {
                    for _ in 0..50 {
                        let mut bytes = [0u8; 16];
                        for x in &mut bytes[..n] {
                            *x = rng.below(p.places) as u8;
                        }
                        let places = u128::from_le_bytes(bytes);
                        let (mut fast, mut slow) = ([0; KEY_WORDS], [0; KEY_WORDS]);
                        p.key(b, places, &mut fast);
                        p.key_of(b, places, None, &mut slow);
                        assert_eq!(fast, slow, "{rows}x{cols} band {b} {bytes:?}");
                    }
                }
            }
        }
    }
}
