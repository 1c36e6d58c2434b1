//! The materials of a contact mixed into its coefficients (§7, §8, §9), for body–body and
//! body–wall contacts alike.

use crate::physics::body::Shape;

/// Friction of a contact: the geometric mean `√(μ_A·μ_B)` of its bodies' coefficients (§8).
///
/// Equal coefficients, the common case, skip the square root. It is the slowest step of the
/// narrow phase after the one in the shape test, and in IEEE arithmetic `√(μ·μ)` rounds back
/// to exactly `μ` whenever `μ·μ` does not underflow (`μ` = 0 or above about 1.1e-19; checked
/// for every f32 up to the material limit 2): the result is the same bit for bit.
#[inline]
pub fn mixed_friction(friction_a: f32, friction_b: f32) -> f32 {
    if friction_a == friction_b { friction_a } else { (friction_a * friction_b).sqrt() }
}

/// Restitution of a contact: the larger of its bodies' coefficients (§7).
///
/// A compare instead of `f32::max`, whose NaN rules cost a compare, a mask and three blends
/// per contact: restitutions are checked to lie in [0, 1], never NaN, and for them this is
/// the same maximum (of +0 and −0, where `f32::max` may return either, it returns A's).
#[inline]
pub fn mixed_restitution(restitution_a: f32, restitution_b: f32) -> f32 {
    if restitution_b > restitution_a { restitution_b } else { restitution_a }
}

/// The rolling lever of a contact between two bodies: its radius of curvature
/// `1/(1/r_A + 1/r_B)` from the bodies' curvatures `1/r` (0 for a flat side): r for a circle
/// on a flat side, and 0, no rolling resistance, for two flat sides (§9).
#[inline]
pub fn pair_rolling_lever(curvature_a: f32, curvature_b: f32) -> f32 {
    let curvature = curvature_a + curvature_b;
    if curvature > 0.0 { 1.0 / curvature } else { 0.0 }
}

/// The rolling lever of a body against a wall, which is flat: the body's own rolling radius,
/// r for a circle (the limit of [`pair_rolling_lever`] for a flat partner, taken directly),
/// and the largest finite value for a rectangle, which never turns, so that its rolling
/// resistance is never used.
#[inline]
pub fn wall_rolling_lever(shape: &Shape) -> f32 {
    shape.rolling_radius().min(f32::MAX)
}
