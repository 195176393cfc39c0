//! Large tables on transparent huge pages where the system offers them.
//!
//! The counting tables (band arrangements, counts below band boundaries) are megabytes of slots
//! touched at random. With 4 KiB pages a count of a few milliseconds spends a fifth of its time
//! in page faults (one per page, each mapping and zeroing 4 KiB), and its lookups miss the TLB.
//! A [`Slab`] of at least half a huge page is mapped on a huge-page boundary and advised to
//! the kernel as huge-page memory (`madvise(MADV_HUGEPAGE)`, Linux) before it is first touched,
//! so each 2 MiB of it costs one fault, and faulted in at once (`MADV_POPULATE_WRITE`), zeroed
//! by the kernel. Where the advice is not taken (another system, or transparent huge pages
//! off), it is ordinary memory. Every table of the count is on a slab, the one its workers
//! share too: that one (8 MiB) took 1,600 faults on 4 KiB pages, 5 ms or more of a count of
//! 30 ms on two threads.

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

/// A fixed-length slice of values without drop glue that owns its memory: `n` zeros
/// ([`Slab::zeroed`]), on huge-page-aligned, huge-page-advised memory when large enough.
pub(crate) struct Slab<T> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
    /// The memory is a mapping of its own ([`Slab::zeroed`]), not the allocator's.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    mapped: bool,
}

/// Values whose every byte may be zero.
///
/// # Safety
/// The value with all bytes zero is a valid value of the type, and the type has no drop glue
/// (a [`Slab`] never drops its values).
pub(crate) unsafe trait Zeroable: Sized {
    fn zero() -> Self;
}

// SAFETY: every bit pattern is a `u64`; no drop glue.
unsafe impl Zeroable for u64 {
    fn zero() -> u64 {
        0
    }
}

// SAFETY: an `AtomicU64` has the layout of a `u64`; no drop glue.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {
    fn zero() -> Self {
        Self::new(0)
    }
}

// SAFETY: a `Slab` owns its values exclusively, like a `Box<[T]>`.
unsafe impl<T: Send> Send for Slab<T> {}
// SAFETY: shared access is to `&[T]`.
unsafe impl<T: Sync> Sync for Slab<T> {}

impl<T> Slab<T> {
    /// Room for `n` values, not yet written (every caller writes them all before the slab is
    /// read or dropped): huge-page-aligned and advised when at least half a huge page.
    ///
    /// # Panics
    /// When the size overflows `isize` (as `vec!` would); aborts when memory runs out.
    fn uninit(n: usize) -> Slab<T> {
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size overflows");
        if bytes == 0 {
            return Slab {
                ptr: NonNull::dangling(),
                len: n,
                layout: Layout::new::<()>(),
                mapped: false,
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
        Slab {
            ptr,
            len: n,
            layout,
            mapped: false,
        }
    }
}

impl<T: Zeroable> Slab<T> {
    /// `n` zero values. At least half a huge page (Linux): a mapping of its own, advised as
    /// huge pages and faulted in for writing at once, zeroed by the kernel, rather than
    /// allocated and written with zeros (a table is read before it is written, so its pages
    /// must be faulted in for writing: pages first read map the shared zero page, and fault
    /// again at the first write). In a C loop on this project's machine, 8 MiB came up in
    /// about 0.45 ms so, and in 0.9 ms allocated and written. Elsewhere, and below half a huge
    /// page, allocated and written.
    ///
    /// # Panics
    /// When the size overflows `isize` (as `vec!` would); aborts when memory runs out.
    pub(crate) fn zeroed(n: usize) -> Slab<T> {
        #[cfg(target_os = "linux")]
        {
            let bytes = n.saturating_mul(std::mem::size_of::<T>());
            if bytes >= HUGE / 2 && bytes <= isize::MAX as usize - HUGE {
                let size = bytes.next_multiple_of(HUGE);
                if let Ok(layout) = Layout::from_size_align(size, HUGE) {
                    if let Some(ptr) = map_huge(size) {
                        return Slab {
                            ptr: ptr.cast(),
                            len: n,
                            layout,
                            mapped: true,
                        };
                    }
                }
            }
        }
        let slab = Slab::<T>::uninit(n);
        for i in 0..n {
            // SAFETY: `i < n`, in the allocation of `n` values (see `uninit`).
            unsafe { slab.ptr.as_ptr().add(i).write(T::zero()) };
        }
        slab
    }
}

/// A fresh anonymous mapping of `size` bytes (a multiple of [`HUGE`]) on a huge-page boundary,
/// advised as huge pages and populated for writing (zeroed); `None` where it cannot be mapped.
#[cfg(target_os = "linux")]
fn map_huge(size: usize) -> Option<NonNull<u8>> {
    use libc::c_void;
    let len = size.checked_add(HUGE)?;
    // SAFETY: a new private anonymous mapping; no memory of ours is involved.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    let start = raw as usize;
    let aligned = start.next_multiple_of(HUGE);
    let (head, tail) = (aligned - start, start + len - (aligned + size));
    let at = aligned as *mut c_void;
    // SAFETY: the head and the tail are the parts of the mapping just made that lie outside
    // `size` bytes from `aligned`; the advice is on those bytes, which nothing has touched.
    unsafe {
        if head > 0 {
            libc::munmap(raw, head);
        }
        if tail > 0 {
            libc::munmap(at.cast::<u8>().add(size).cast(), tail);
        }
        libc::madvise(at, size, libc::MADV_HUGEPAGE);
        // Kernels before 5.14 do not know this advice: then the pages are written once here.
        if libc::madvise(at, size, libc::MADV_POPULATE_WRITE) != 0 {
            std::ptr::write_bytes(at.cast::<u8>(), 0, size);
        }
    }
    NonNull::new(at.cast())
}

impl<T> Deref for Slab<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values (or is dangling with `len` values of a
        // zero-sized total), owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for Slab<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for Slab<T> {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if self.mapped {
            // SAFETY: mapped by `map_huge` with this size; the slab's values need no drop.
            unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.layout.size()) };
            return;
        }
        if self.layout.size() != 0 {
            // SAFETY: allocated in `uninit` with this very layout; the values need no drop
            // (`Zeroable`).
            unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
        }
    }
}

impl<T> std::fmt::Debug for Slab<T> {
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
    fn slabs_hold_n_zeros_small_and_huge() {
        for n in [0, 1, 1000, 3 << 18] {
            let mut v = Slab::<u64>::zeroed(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0));
            if let Some(last) = v.last_mut() {
                *last = 9;
                assert_eq!(v[n - 1], 9);
            }
            if n >= 3 << 18 {
                assert_eq!(v.as_ptr() as usize % HUGE, 0);
            }
        }
        let atoms = Slab::<std::sync::atomic::AtomicU64>::zeroed(1 << 18);
        atoms[5].store(3, std::sync::atomic::Ordering::Relaxed);
        let sum: u64 = atoms
            .iter()
            .map(|a| a.load(std::sync::atomic::Ordering::Relaxed))
            .sum();
        assert_eq!((atoms.as_ptr() as usize % HUGE, sum), (0, 3));
    }

    #[test]
    fn first_lengths_stay_within_bounds() {
        assert_eq!(first_len(64, 1 << 11, 1 << 10), 1 << 10);
        let n = first_len(56, 1 << 12, 1 << 30);
        assert!(n.is_power_of_two() && n >= 1 << 12);
        assert!(!cfg!(target_os = "linux") || (n * 56 <= HUGE && n * 112 > HUGE));
    }
}
