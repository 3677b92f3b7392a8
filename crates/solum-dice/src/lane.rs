//! Machine integers for the engine's inner loops. A caller proves a bound before the loop
//! (the largest weight a sum can reach fits the type), so wrapping arithmetic is exact there
//! and nothing is checked inside: the keep walk ([`crate::keep`]) and the sums of exploding
//! dice ([`crate::exploding`]) run on these.

/// An integer with wrapping `+` and `×`: `u64` or `u128` where the bound fits, or a wider
/// type of the caller's own.
pub(crate) trait Lane: Copy + Default + PartialEq {
    fn from_u128(x: u128) -> Self;
    fn wadd(self, other: Self) -> Self;
    fn wmul(self, other: Self) -> Self;
}

/// A machine integer lane that also subtracts and reads back as `u128`.
pub(crate) trait Operand: Lane {
    fn to_u128(self) -> u128;
    fn wsub(self, other: Self) -> Self;
}

macro_rules! machine_lane {
    ($($t:ty),*) => {$(
        impl Lane for $t {
            fn from_u128(x: u128) -> Self {
                // Truncation is intended: callers pass values the bound proves fit.
                x as $t
            }
            fn wadd(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn wmul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
        }

        impl Operand for $t {
            fn to_u128(self) -> u128 {
                self as u128
            }
            fn wsub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
        }
    )*};
}

machine_lane!(u32, u64, u128);
