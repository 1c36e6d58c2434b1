//! The number type the impulse formulas are written over: one contact's `f32` (the scalar
//! path) or four contacts' `F4` side by side (the wide kernel).
//!
//! The formulas in [`impulse`](super::impulse) are generic over [`Lane`] and instantiated
//! for both, so each is written once. Both instances must give the same bits for the same
//! contact: every operation of a lane is one IEEE-754 operation with round-to-nearest per
//! lane (SSE2 `addps` rounds each lane as `addss` does), the compiler neither fuses a
//! multiply and an add nor reorders additions of floats, and the comparisons below are the
//! same selects in both types.

use std::ops::{Add, Mul, Neg, Sub};

use crate::physics::math;

/// Arithmetic on one contact (`f32`) or on four side by side (the wide kernel's `F4`).
pub(super) trait Lane:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
    /// 0 in every lane.
    const ZERO: Self;

    /// `x` where `x > low`, else `low` (so `low` where x is NaN): the clamp `P ≥ low` of an
    /// accumulated impulse.
    fn at_least(self, low: Self) -> Self;

    /// `x` clamped to `[−limit, limit]` (limit ≥ 0): the upper bound first (`x` where
    /// `x < limit`, else `limit`), then the lower bound as in [`at_least`](Self::at_least).
    fn within(self, limit: Self) -> Self;

    /// `1/k`, or 0 where `k ≤ 0` ([`math::inverse_or_zero`]).
    fn inverse_or_zero(self) -> Self;
}

/// One contact. Plain compares instead of `f32::max` and `f32::min`, whose NaN handling
/// costs instructions the inner loop does not need.
impl Lane for f32 {
    const ZERO: f32 = 0.0;

    #[inline(always)]
    fn at_least(self, low: f32) -> f32 {
        if self > low { self } else { low }
    }

    #[inline(always)]
    fn within(self, limit: f32) -> f32 {
        let x = if self < limit { self } else { limit };
        if x > -limit { x } else { -limit }
    }

    #[inline(always)]
    fn inverse_or_zero(self) -> f32 {
        math::inverse_or_zero(self)
    }
}
