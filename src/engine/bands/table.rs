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
use std::sync::atomic::fence;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

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
            slots: Slab::zeroed(n * stride),
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
        index(tag, key, self.mask)
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
        let old = std::mem::replace(&mut self.slots, Slab::zeroed(n * stride));
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

/// The slot of `key` under `tag` in a table of `mask + 1` slots.
#[inline]
fn index(tag: u64, key: &[u64], mask: usize) -> usize {
    let mut h = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &w in key {
        h = (h.rotate_left(26) ^ w).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    }
    (h >> 32) as usize & mask
}

fn prev_power_of_two(x: usize) -> usize {
    if x.is_power_of_two() {
        x
    } else {
        x.next_power_of_two() / 2
    }
}

/// A table of counts shared by the threads of a split search: fixed size (made on first use,
/// entries replace older ones), without locks. Each slot is a sequence word, the tag, the key
/// and the count, all atomic words: a writer makes the sequence odd (a compare-and-swap that
/// only one writer wins: a slot being written is skipped, as a cache may), writes, and makes it
/// even again; a reader takes an entry only if the sequence was even and unchanged around its
/// reads, so it never sees half of one entry and half of another.
pub(crate) struct SharedTable {
    words: usize,
    mask: usize,
    slots: Slab<AtomicU64>,
}

impl SharedTable {
    /// A table for keys of `words` words, of about `bytes` bytes.
    pub(crate) fn new(words: usize, bytes: usize) -> SharedTable {
        let stride = words + 4;
        let n = prev_power_of_two((bytes / (8 * stride)).max(2));
        SharedTable {
            words,
            mask: n - 1,
            slots: Slab::zeroed(n * stride),
        }
    }

    #[inline]
    fn index(&self, tag: u64, key: &[u64]) -> usize {
        index(tag, key, self.mask)
    }

    fn slot(&self, i: usize) -> &[AtomicU64] {
        let stride = self.words + 4;
        &self.slots[i * stride..(i + 1) * stride]
    }

    /// The count stored for `key` under `tag` (not 0), if any.
    pub(crate) fn get(&self, tag: u64, key: &[u64]) -> Option<u128> {
        debug_assert_eq!(key.len(), self.words);
        let i = self.index(tag, key);
        let w = self.words;
        for j in [i, i ^ 1] {
            let s = self.slot(j);
            let seq = s[0].load(Acquire);
            if seq & 1 != 0 || s[1].load(Relaxed) != tag {
                continue;
            }
            let same = s[2..2 + w]
                .iter()
                .zip(key)
                .all(|(a, &b)| a.load(Relaxed) == b);
            let count =
                u128::from(s[2 + w].load(Relaxed)) | u128::from(s[3 + w].load(Relaxed)) << 64;
            fence(Acquire);
            if same && s[0].load(Relaxed) == seq {
                return Some(count);
            }
        }
        None
    }

    /// Remember `count` for `key` under `tag` (not 0), in a slot not holding `tag`'s kind of
    /// entry (`fresh`) if one of its two is free, else the first; skipped while another thread
    /// writes that slot.
    pub(crate) fn put(&self, tag: u64, key: &[u64], count: u128, fresh: &impl Fn(u64) -> bool) {
        debug_assert!(tag != 0);
        let i = self.index(tag, key);
        let j = if fresh(self.slot(i)[1].load(Relaxed)) && !fresh(self.slot(i ^ 1)[1].load(Relaxed))
        {
            i ^ 1
        } else {
            i
        };
        let s = self.slot(j);
        let seq = s[0].load(Relaxed);
        if seq & 1 != 0
            || s[0]
                .compare_exchange(seq, seq + 1, Acquire, Relaxed)
                .is_err()
        {
            return;
        }
        fence(Release);
        let w = self.words;
        s[1].store(tag, Relaxed);
        for (a, &b) in s[2..2 + w].iter().zip(key) {
            a.store(b, Relaxed);
        }
        s[2 + w].store(count as u64, Relaxed);
        s[3 + w].store((count >> 64) as u64, Relaxed);
        s[0].store(seq + 2, Release);
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

    #[test]
    fn the_shared_table_keeps_whole_entries_across_threads() {
        let t = SharedTable::new(2, 1 << 16);
        let fresh = |tag: u64| tag >> 8 == 3;
        assert_eq!(t.get(3 << 8, &[1, 2]), None);
        t.put(3 << 8, &[1, 2], u128::MAX - 9, &fresh);
        assert_eq!(t.get(3 << 8, &[1, 2]), Some(u128::MAX - 9));
        assert_eq!(t.get(3 << 8 | 1, &[1, 2]), None, "another kind");
        assert_eq!(t.get(3 << 8, &[2, 1]), None);
        // Four threads write and read overlapping keys whose count is a function of the key:
        // every hit must be that count (a torn entry would mix two).
        std::thread::scope(|sc| {
            for id in 0..4u64 {
                let t = &t;
                sc.spawn(move || {
                    for r in 0..20_000u64 {
                        let k = (r * 7 + id * 13) % 3_000;
                        let count = u128::from(k) << 64 | u128::from(k * 3 + 1);
                        t.put(3 << 8, &[k, !k], count, &fresh);
                        let q = (r * 11 + id) % 3_000;
                        if let Some(v) = t.get(3 << 8, &[q, !q]) {
                            assert_eq!(v, u128::from(q) << 64 | u128::from(q * 3 + 1));
                        }
                    }
                });
            }
        });
    }
}
