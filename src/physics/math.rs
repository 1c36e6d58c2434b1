//! Small 2D helpers shared by the solver stages.
//!
//! The spec (§1) fixes one cross product for every formula: `a × b = a.x·b.y − a.y·b.x`.
//! With y pointing down on screen, a positive angle turns clockwise; the formulas do not
//! care as long as this one definition is used everywhere.

use glam::Vec2;

/// The scalar 2D cross product `a × b = a.x·b.y − a.y·b.x` (§1).
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// `ω × r` for a scalar angular velocity ω: `ω·(−r.y, r.x)` (§6).
#[inline]
pub fn cross_scalar_vec(omega: f32, r: Vec2) -> Vec2 {
    Vec2::new(-omega * r.y, omega * r.x)
}

/// The tangent `t = (−n.y, n.x)` of a contact normal (§8).
#[inline]
pub fn tangent(normal: Vec2) -> Vec2 {
    Vec2::new(-normal.y, normal.x)
}

/// `1/k`, or 0 when `k` is 0 (two immovable partners have no effective mass).
#[inline]
pub fn inverse_or_zero(k: f32) -> f32 {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_product_follows_the_spec_definition() {
        assert_eq!(cross(Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)), 1.0);
        assert_eq!(cross(Vec2::new(2.0, 3.0), Vec2::new(5.0, 7.0)), 2.0 * 7.0 - 3.0 * 5.0);
    }

    #[test]
    fn omega_cross_r_is_perpendicular_to_r() {
        let r = Vec2::new(3.0, -4.0);
        let v = cross_scalar_vec(2.0, r);
        assert_eq!(v.dot(r), 0.0);
        assert_eq!(v.length(), 10.0);
    }
}
