//! Large tables on transparent huge pages where the system offers them.
//!
//! The counting tables (band arrangements, counts below band boundaries) are megabytes of slots
//! touched at random. With 4 KiB pages a count of a few milliseconds spends a fifth of its time
//! in page faults (one per page, each mapping and zeroing 4 KiB), and its lookups miss the TLB.
//! A [`Slab`] of at least half a huge page is allocated on a huge-page boundary and advised to
//! the kernel as huge-page memory (`madvise(MADV_HUGEPAGE)`, Linux) before it is first written,
//! so each 2 MiB of it costs one fault. Where the advice is not taken (another system, or
//! transparent huge pages off), it is ordinary memory.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Huge pages are 2 MiB on x86-64 and on most arm64 kernels.
const HUGE: usize = 2 << 20;

/// The length (a power of two, given powers of two) to start a growing table of `size`-byte
/// slots at: as many as fill one huge page where huge pages are advised (its first fault maps
/// all of it), else `small`; never above `max`.
pub(crate) fn first_len(size: usize, small: usize, max: usize) -> usize {
    let len = if cfg!(target_os = "linux") {
        let fit = HUGE / size.max(1);
        if fit.is_power_of_two() {
            fit
        } else {
            fit.next_power_of_two() / 2
        }
    } else {
        small
    };
    len.max(small).min(max)
}

/// A fixed-length slice of plain `Copy` values that owns its memory: `n` copies of a value on
/// huge-page-aligned, huge-page-advised memory when large enough.
pub(crate) struct Slab<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: a `Slab` owns its values exclusively, like a `Box<[T]>`.
unsafe impl<T: Copy + Send> Send for Slab<T> {}
// SAFETY: shared access only reads, like `&[T]`.
unsafe impl<T: Copy + Sync> Sync for Slab<T> {}

impl<T: Copy> Slab<T> {
    /// `n` copies of `value`.
    ///
    /// # Panics
    /// When the size overflows `isize` (as `vec!` would); aborts when memory runs out.
    pub(crate) fn filled(n: usize, value: T) -> Slab<T> {
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size overflows");
        if bytes == 0 {
            return Slab {
                ptr: NonNull::dangling(),
                len: n,
                layout: Layout::new::<()>(),
            };
        }
        let huge = bytes >= HUGE / 2;
        let layout = if huge {
            Layout::from_size_align(bytes.next_multiple_of(HUGE), HUGE)
        } else {
            Layout::array::<T>(n)
        }
        .expect("table size overflows");
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw.cast::<T>()) else {
            alloc::handle_alloc_error(layout)
        };
        if huge {
            advise(raw, layout.size());
        }
        for i in 0..n {
            // SAFETY: `i < n` and the allocation holds `n` values of `T`, suitably aligned
            // (`HUGE` is a multiple of every alignment).
            unsafe { ptr.as_ptr().add(i).write(value) };
        }
        Slab {
            ptr,
            len: n,
            layout,
        }
    }
}

impl<T: Copy> Deref for Slab<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values (or is dangling with `len` values of a
        // zero-sized total), owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for Slab<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for Slab<T> {
    fn drop(&mut self) {
        if self.layout.size() != 0 {
            // SAFETY: allocated in `filled` with this very layout; `T: Copy` needs no drop.
            unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
        }
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for Slab<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Slab({} values)", self.len)
    }
}

/// Advise `len` bytes from `start` (a huge-page boundary) as huge-page memory.
#[cfg(target_os = "linux")]
fn advise(start: *mut u8, len: usize) {
    // SAFETY: madvise only changes how the kernel backs these pages, which are an allocation
    // of ours not yet read or written; MADV_HUGEPAGE never discards contents. A failure (no
    // transparent huge pages) leaves ordinary pages.
    unsafe {
        libc::madvise(start.cast(), len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slabs_hold_n_copies_small_and_huge() {
        for n in [0, 1, 1000, 3 << 18] {
            let mut v = Slab::filled(n, 7u64);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 7));
            if let Some(last) = v.last_mut() {
                *last = 9;
                assert_eq!(v[n - 1], 9);
            }
        }
        let lines = Slab::filled(40_000, [[1u64; 4]; 2]);
        assert_eq!(lines.len(), 40_000);
        assert_eq!(lines.as_ptr() as usize % HUGE, 0);
    }

    #[test]
    fn first_lengths_stay_within_bounds() {
        assert_eq!(first_len(64, 1 << 11, 1 << 10), 1 << 10);
        let n = first_len(56, 1 << 12, 1 << 30);
        assert!(n.is_power_of_two() && n >= 1 << 12);
        assert!(!cfg!(target_os = "linux") || (n * 56 <= HUGE && n * 112 > HUGE));
    }
}
