//! Band-wide word operations of the 9×9 engine (`nine`), with an SSE2 version on x86-64 (part
//! of the x86-64 baseline: no detection needed) and a portable one elsewhere; the two are
//! checked against each other.

/// Clear the cells of `s` from the nine digit words of a band; the words that held any of them
/// (bit `e` for `band[e]`).
#[inline(always)]
pub(super) fn clear_cells(band: &mut [u32; 9], s: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        clear_cells_sse2(band, s)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        clear_cells_portable(band, s)
    }
}

/// [`clear_cells`], one word at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn clear_cells_portable(band: &mut [u32; 9], s: u32) -> u32 {
    let mut held = 0;
    for (e, x) in band.iter_mut().enumerate() {
        held |= ((*x & s != 0) as u32) << e;
        *x &= !s;
    }
    held
}

/// [`clear_cells`], four words at a time (words 0–3 and 4–7), then word 8.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn clear_cells_sse2(band: &mut [u32; 9], s: u32) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
        _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128,
    };
    let p = band.as_mut_ptr() as *mut __m128i;
    // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics are available. `p` and
    // `p.add(1)` address words 0..4 and 4..8 of `band`, which holds nine: both 16-byte
    // accesses lie inside it, and the unaligned load and store forms need no alignment. The
    // exclusive borrow of `band` rules out any other access meanwhile.
    let (e0, e1) = unsafe {
        let sv = _mm_set1_epi32(s as i32);
        let zero = _mm_setzero_si128();
        let x0 = _mm_loadu_si128(p);
        let x1 = _mm_loadu_si128(p.add(1));
        // Lanes whose word misses every cell of `s`: all ones.
        let e0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
            _mm_and_si128(x0, sv),
            zero,
        )));
        let e1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
            _mm_and_si128(x1, sv),
            zero,
        )));
        _mm_storeu_si128(p, _mm_andnot_si128(sv, x0));
        _mm_storeu_si128(p.add(1), _mm_andnot_si128(sv, x1));
        (e0 as u32, e1 as u32)
    };
    let x8 = band[8];
    band[8] = x8 & !s;
    (!(e0 | e1 << 4) & 0xFF) | ((x8 & s != 0) as u32) << 8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator.
    fn next(x: &mut u32) -> u32 {
        *x ^= *x << 13;
        *x ^= *x >> 17;
        *x ^= *x << 5;
        *x
    }

    #[test]
    fn clear_cells_agrees_with_the_portable_version() {
        let mut x = 0x1234_5678;
        for round in 0..20_000 {
            let mut band = [0u32; 9];
            for w in &mut band {
                // Sparse and dense words, some empty.
                *w = next(&mut x) & next(&mut x) & ((1 << 27) - 1);
                if round % 7 == 0 {
                    *w = 0;
                }
            }
            let s = match round % 3 {
                0 => 1 << (next(&mut x) % 27),
                1 => next(&mut x) & next(&mut x) & ((1 << 27) - 1),
                _ => 0,
            };
            let mut fast = band;
            let mut slow = band;
            let held = clear_cells(&mut fast, s);
            assert_eq!(held, clear_cells_portable(&mut slow, s), "{band:?} {s:#x}");
            assert_eq!(fast, slow);
            for (e, &w) in band.iter().enumerate() {
                assert_eq!(fast[e], w & !s);
                assert_eq!(held >> e & 1 == 1, w & s != 0);
            }
        }
    }
}
