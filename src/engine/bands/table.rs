//! A table of counts for the band counter, one per thread: the number of ways to complete a
//! sub-problem, keyed by a tag (which puzzle and which question) and the sub-problem's digit
//! sets (or another exact description), packed into words.
//!
//! Slots are plain `u64` words. Each key may sit in one of two neighbouring slots; a new entry
//! takes a free or stale one, else the first. The full key is stored and compared: a hit is
//! exact. Entries of earlier puzzles are stale once the tag changes, so nothing needs clearing
//! between puzzles. The table starts at one huge page (see [`crate::engine::pages`]; elsewhere
//! small, as the first touch of a 4 KiB page costs more than many lookups) and doubles, keeping
//! its entries, each time it has taken as many entries as three quarters of its slots, up to
//! its size limit; from then on new entries replace old ones.

use crate::engine::pages::{self, Slab};

/// The table: slots of `1 + words + 2` words each (tag, key, count as two halves).
pub(crate) struct Table {
    words: usize,
    mask: usize,
    slots: Slab<u64>,
    /// Entries put since the last growth (replacements included).
    taken: usize,
    /// The most slots it may grow to.
    max_slots: usize,
}

/// Slots of a new table.
const FIRST_SLOTS: usize = 1 << 12;

impl Table {
    /// A table for keys of `words` words that grows to about `bytes` bytes at most.
    pub(crate) fn new(words: usize, bytes: usize) -> Table {
        let stride = words + 3;
        let max_slots = prev_power_of_two((bytes / (8 * stride)).max(2));
        let n = pages::first_len(8 * stride, FIRST_SLOTS, max_slots);
        Table {
            words,
            mask: n - 1,
            slots: zeroed(n * stride),
            taken: 0,
            max_slots,
        }
    }

    /// Key words per entry.
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    #[inline]
    fn index(&self, tag: u64, key: &[u64]) -> usize {
        let mut h = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for &w in key {
            h = (h.rotate_left(26) ^ w).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        }
        (h >> 32) as usize & self.mask
    }

    #[inline]
    fn slot(&self, i: usize) -> &[u64] {
        let stride = self.words + 3;
        &self.slots[i * stride..(i + 1) * stride]
    }

    /// The count stored for `(tag, key)`, if any. `tag` is never 0 (a free slot).
    #[inline]
    pub(crate) fn get(&self, tag: u64, key: &[u64]) -> Option<u128> {
        debug_assert_eq!(key.len(), self.words);
        let i = self.index(tag, key);
        for j in [i, i ^ 1] {
            let s = self.slot(j);
            if s[0] == tag && s[1..=self.words].iter().zip(key).all(|(a, b)| a == b) {
                let w = self.words;
                return Some(u128::from(s[w + 1]) | u128::from(s[w + 2]) << 64);
            }
        }
        None
    }

    /// Remember `count` for `(tag, key)`; `fresh` tells whether a slot's tag is of the current
    /// puzzle (an entry of another puzzle is stale and taken first).
    #[inline]
    pub(crate) fn put(&mut self, tag: u64, key: &[u64], count: u128, fresh: &impl Fn(u64) -> bool) {
        debug_assert!(tag != 0);
        if 4 * self.taken >= 3 * (self.mask + 1) && self.mask + 1 < self.max_slots {
            self.grow(fresh);
        }
        let i = self.index(tag, key);
        let first = self.slot(i)[0];
        let j = if first != 0 && fresh(first) && !fresh(self.slot(i ^ 1)[0]) {
            i ^ 1
        } else {
            i
        };
        let stride = self.words + 3;
        let s = &mut self.slots[j * stride..(j + 1) * stride];
        self.taken += 1;
        s[0] = tag;
        s[1..=self.words].copy_from_slice(key);
        s[self.words + 1] = count as u64;
        s[self.words + 2] = (count >> 64) as u64;
    }

    /// Double the slots, keeping the current puzzle's entries.
    #[cold]
    fn grow(&mut self, fresh: &impl Fn(u64) -> bool) {
        let stride = self.words + 3;
        let n = 2 * (self.mask + 1);
        let old = std::mem::replace(&mut self.slots, zeroed(n * stride));
        self.mask = n - 1;
        self.taken = 0;
        for s in old.chunks_exact(stride) {
            if s[0] != 0 && fresh(s[0]) {
                let count = u128::from(s[self.words + 1]) | u128::from(s[self.words + 2]) << 64;
                self.put(s[0], &s[1..=self.words], count, fresh);
            }
        }
    }
}

/// `len` zero words, written out (on huge pages where advised): a table is read before it is
/// written, and fresh zero pages mapped for a read take a second fault at the first write.
fn zeroed(len: usize) -> Slab<u64> {
    Slab::filled(len, 0)
}

fn prev_power_of_two(x: usize) -> usize {
    if x.is_power_of_two() {
        x
    } else {
        x.next_power_of_two() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_keys_tags_and_two_ways() {
        let mut t = Table::new(2, 4096);
        let fresh = |tag: u64| tag >> 8 == 7;
        assert_eq!(t.get(7 << 8, &[1, 2]), None);
        t.put(7 << 8, &[1, 2], 5, &fresh);
        t.put(7 << 8 | 1, &[1, 2], u128::MAX - 3, &fresh);
        assert_eq!(t.get(7 << 8, &[1, 2]), Some(5));
        assert_eq!(t.get(7 << 8 | 1, &[1, 2]), Some(u128::MAX - 3));
        assert_eq!(t.get(7 << 8, &[1, 3]), None);
        assert_eq!(t.get(8 << 8, &[1, 2]), None, "another puzzle's tag");
        // Many entries: every hit is a real one.
        for k in 0..1000u64 {
            t.put(9 << 8, &[k, !k], u128::from(k) * 3, &|tag| tag >> 8 == 9);
        }
        for k in 0..1000u64 {
            if let Some(v) = t.get(9 << 8, &[k, !k]) {
                assert_eq!(v, u128::from(k) * 3);
            }
        }
    }

    #[test]
    fn it_grows_keeping_its_entries() {
        let mut t = Table::new(1, 1 << 20);
        let fresh = |tag: u64| tag == 5;
        for k in 0..10_000u64 {
            t.put(5, &[k], u128::from(k), &fresh);
        }
        assert!(t.mask + 1 > FIRST_SLOTS);
        // Growing kept everything: 10,000 entries in at least 13,333 slots, two ways each.
        let kept = (0..10_000u64)
            .filter(|&k| t.get(5, &[k]) == Some(u128::from(k)))
            .count();
        assert!(kept > 9_000, "{kept}");
        assert!(t.slots.len() * 8 <= 1 << 20);
    }
}
