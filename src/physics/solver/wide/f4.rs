//! The lane type of the wide kernel: four `f32` in one register.

use std::ops::{Add, Mul, Neg, Sub};

use glam::Vec4;

use super::LANES;
use crate::physics::solver::lane::Lane;

/// One field of a group: a value per lane.
pub(super) type Lanes = [f32; LANES];

/// Four `f32` in one register, one per lane: glam's `Vec4`, which on x86_64 is an SSE
/// register (`__m128`) operated on with the SSE2 instructions every x86_64 processor has, and
/// elsewhere glam's portable (NEON, wasm or scalar) version.
///
/// A register type rather than `[f32; 4]` with per-lane loops: LLVM splits such arrays into
/// scalars and re-vectorizes them along the wrong axis (a body's x and y in one register),
/// with shuffles around most operations.
///
/// Each operator is one IEEE operation per lane, no fused multiply-add, so every lane rounds
/// as the scalar solve does (see [`Lane`]).
#[derive(Clone, Copy, Debug)]
pub struct F4(pub(super) Vec4);

impl F4 {
    /// The lanes of `values`, lane 0 first.
    #[inline(always)]
    pub(super) fn new(values: Lanes) -> F4 {
        F4(Vec4::from_array(values))
    }

    /// The lanes as an array, lane 0 first.
    #[inline(always)]
    pub(super) fn to_array(self) -> Lanes {
        self.0.to_array()
    }
}

impl Lane for F4 {
    const ZERO: F4 = F4(Vec4::ZERO);

    /// On x86_64 glam's `max` is `maxps(x, low)`, which returns its first operand where it
    /// is greater and the second otherwise: the select of `f32`'s `at_least`.
    #[inline(always)]
    fn at_least(self, low: F4) -> F4 {
        F4(self.0.max(low.0))
    }

    /// `minps(x, limit)` (x where it is less, else limit), then `maxps` with `−limit`: the
    /// selects of `f32`'s `within`, in the same order.
    #[inline(always)]
    fn within(self, limit: F4) -> F4 {
        F4(self.0.min(limit.0).max(-limit.0))
    }

    /// `divps` rounds each lane as `divss` does; the compare selects 0 where `k ≤ 0`.
    #[inline(always)]
    fn inverse_or_zero(self) -> F4 {
        F4(Vec4::select(self.0.cmpgt(Vec4::ZERO), Vec4::ONE / self.0, Vec4::ZERO))
    }
}

impl Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, rhs: F4) -> F4 {
        F4(self.0 + rhs.0)
    }
}

impl Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, rhs: F4) -> F4 {
        F4(self.0 - rhs.0)
    }
}

impl Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, rhs: F4) -> F4 {
        F4(self.0 * rhs.0)
    }
}

impl Neg for F4 {
    type Output = F4;
    /// Flips the sign bits, as scalar negation does.
    #[inline(always)]
    fn neg(self) -> F4 {
        F4(-self.0)
    }
}
