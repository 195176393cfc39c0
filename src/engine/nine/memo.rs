//! A transposition table for exhaustive counting: the number of completions of a search state,
//! keyed by everything that decides it (for the 9×9 engine: its open cells and their
//! candidates, see `Nine::memo_key`).
//!
//! Counting trees repeat themselves: two different fillings of one band often leave the same
//! open cells with the same candidates below, and from there the same number of completions.
//! A table of fixed size per thread (direct-mapped, always replace) remembers recent subtree
//! counts; the full key is stored and compared, so a hit is exact, never a hash guess.
//! The table is allocated once per thread (zeroed pages, touched as used) and kept across
//! searches and puzzles: a key describes a whole sub-problem, whichever puzzle it came from.

use std::cell::RefCell;

/// Words of a key.
pub const KEY_WORDS: usize = 15;

/// A key: the complete description of a sub-problem. Never all zero (an all-zero key is an
/// empty slot).
pub type Key = [u64; KEY_WORDS];

/// log2 of the slots per thread (2^16 slots of 128 bytes: 8 MiB).
const SLOT_BITS: u32 = 16;

/// One slot: a key (words `0..KEY_WORDS`) and the number of completions below it (the last
/// word). Plain integers, so the table is allocated as zeroed pages.
type Slot = [u64; KEY_WORDS + 1];

/// A fixed-size table of subtree counts.
pub struct Memo {
    slots: Box<[Slot]>,
}

impl Memo {
    fn new() -> Memo {
        Memo {
            slots: vec![[0; KEY_WORDS + 1]; 1 << SLOT_BITS].into_boxed_slice(),
        }
    }

    /// The slot of a key.
    #[inline(always)]
    fn index(key: &Key) -> usize {
        let mut h = 0u64;
        for &w in key {
            h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        (h >> (64 - SLOT_BITS)) as usize
    }

    /// The remembered count of `key`'s sub-problem, if any.
    #[inline(always)]
    pub fn get(&self, key: &Key) -> Option<u64> {
        let slot = &self.slots[Self::index(key)];
        (slot[..KEY_WORDS] == key[..]).then_some(slot[KEY_WORDS])
    }

    /// Remember that `key`'s sub-problem has `count` completions.
    #[inline(always)]
    pub fn put(&mut self, key: &Key, count: u64) {
        debug_assert!(
            key.iter().any(|&w| w != 0),
            "an all-zero key is an empty slot"
        );
        let slot = &mut self.slots[Self::index(key)];
        slot[..KEY_WORDS].copy_from_slice(key);
        slot[KEY_WORDS] = count;
    }
}

thread_local! {
    static TABLE: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// Run `f` with this thread's table (allocated on first use), or with `None` when the table is
/// already in use on this thread (a nested search).
pub fn with_table<R>(f: impl FnOnce(Option<&mut Memo>) -> R) -> R {
    TABLE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => f(Some(slot.get_or_insert_with(Memo::new))),
        Err(_) => f(None),
    })
}

/// Empty this thread's table (for benchmarks that count the same puzzle again and must not
/// find it remembered, and for tests).
pub fn clear_table() {
    TABLE.with(|cell| {
        if let Ok(mut slot) = cell.try_borrow_mut() {
            *slot = None;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_exact_keys_only() {
        let mut m = Memo::new();
        let mut a = [0u64; KEY_WORDS];
        a[3] = 7;
        let mut b = a;
        b[14] = 1;
        assert_eq!(m.get(&a), None);
        m.put(&a, 42);
        assert_eq!(m.get(&a), Some(42));
        assert_eq!(m.get(&b), None);
        m.put(&b, 5);
        assert_eq!(m.get(&b), Some(5));
        // An empty slot never answers for a real key.
        assert_eq!(Memo::new().get(&a), None);
    }

    #[test]
    fn the_table_is_per_thread_and_not_reentrant() {
        with_table(|outer| {
            assert!(outer.is_some());
            with_table(|inner| assert!(inner.is_none()));
        });
    }
}
