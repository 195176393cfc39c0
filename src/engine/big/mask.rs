//! Bit masks of one width: `u16` for boards up to 16×16, `u32` up to 32×32, `u64` up to 64×64.
//! The engine is instantiated once per width, so a 16×16 state is a quarter of a 64-bit one.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of up to `BITS` small integers (digits, or positions in a house).
pub trait Mask:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Capacity.
    const BITS: usize;
    /// `{i}`.
    fn bit(i: usize) -> Self;
    /// `{0, …, n-1}`.
    fn ones(n: usize) -> Self;
    /// Number of elements.
    fn count(self) -> u32;
    /// The smallest element (the set is not empty).
    fn low(self) -> usize;
    /// The set without its smallest element.
    fn rest(self) -> Self;
    /// Whether the set has exactly one element.
    #[inline]
    fn single(self) -> bool {
        self != Self::ZERO && self.rest() == Self::ZERO
    }
    /// As a `u64`.
    fn wide(self) -> u64;
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: $t = 0;
            const BITS: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn bit(i: usize) -> $t {
                1 << i
            }
            #[inline(always)]
            fn ones(n: usize) -> $t {
                if n >= <Self as Mask>::BITS {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn low(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn rest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn wide(self) -> u64 {
                self as u64
            }
        }
    };
}

mask!(u16);
mask!(u32);
mask!(u64);

/// The elements of a mask, smallest first.
#[derive(Debug, Clone, Copy)]
pub struct Iter<M: Mask>(pub M);

impl<M: Mask> Iterator for Iter<M> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == M::ZERO {
            return None;
        }
        let i = self.0.low();
        self.0 = self.0.rest();
        Some(i)
    }
}
