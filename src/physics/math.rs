//! Small 2D helpers shared by the solver stages, the ray queries and the narrow phase.
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

/// `v` with its length clamped to `max` (≥ 0), for every finite `v`.
///
/// `Vec2::clamp_length_max` squares the length, which overflows to infinity above about
/// 1.8e19 and turns the vector into zero: a body thrown at 1e20 px/s would stop instead of
/// flying at `max`. This computes the same bits as it below the overflow and, above it,
/// scales `v` down by its largest component first, so the direction survives.
#[inline]
pub fn clamp_length(v: Vec2, max: f32) -> Vec2 {
    let length_squared = v.length_squared();
    if length_squared <= max * max {
        v
    } else if length_squared.is_finite() {
        max * (v / length_squared.sqrt())
    } else {
        // The square overflowed: `normalize_finite` scales by the largest component first.
        normalize_finite(v).map_or(v, |unit| max * unit)
    }
}

/// The unit vector along `v`, for every finite `v` but zero; `None` for zero and non-finite.
///
/// `v / v.length()` squares the components: above about 1.8e19 the square overflows to
/// infinity, and below about 1e-19 it is subnormal (losing digits) or 0, so that a direction
/// such as (1e20, 0) or (1e-23, 0) could not be normalised. This computes the same bits as
/// `v / v.length()` where the square is a normal f32 and otherwise scales `v` by its largest
/// component first, which makes that component ±1 exactly ([`clamp_length`] uses it so).
#[inline]
pub(crate) fn normalize_finite(v: Vec2) -> Option<Vec2> {
    if !v.is_finite() || v == Vec2::ZERO {
        return None;
    }
    let length_squared = v.length_squared();
    if length_squared.is_finite() && length_squared >= f32::MIN_POSITIVE {
        return Some(v / length_squared.sqrt());
    }
    let scaled = v / v.abs().max_element();
    Some(scaled / scaled.length())
}

/// The ray's entry into and exit from the box `|m.x| ≤ h.x, |m.y| ≤ h.y` around its centre,
/// in the box's frame (`m` the origin relative to the centre): the slab method. On each axis
/// the ray is between the two faces for `t` between `(−h − m)/d` and `(h − m)/d`; it is in
/// the box where the two intervals overlap. On an axis the ray runs parallel to (`d = 0`), it
/// is between the faces always or never. Returns `(entry, exit, entry normal)`; the entry
/// normal is that of the face crossed last, the diagonal of both when the ray enters through
/// a corner exactly.
pub(crate) fn slabs(m: Vec2, direction: Vec2, half: Vec2) -> Option<(f32, f32, Vec2)> {
    let mut entry = [f32::NEG_INFINITY; 2];
    let mut exit = f32::INFINITY;
    for axis in 0..2 {
        let (m, d, h) = (m[axis], direction[axis], half[axis]);
        if d == 0.0 {
            if m.abs() > h {
                return None;
            }
            continue;
        }
        let (near, far) = ((-h.copysign(d) - m) / d, (h.copysign(d) - m) / d);
        entry[axis] = near;
        exit = exit.min(far);
    }
    let enter = entry[0].max(entry[1]);
    if enter > exit || exit < 0.0 {
        return None;
    }
    // The face crossed last faces against the ray on its axis.
    let face = |axis: usize| {
        let mut n = Vec2::ZERO;
        n[axis] = -direction[axis].signum();
        n
    };
    let normal = match entry[0].partial_cmp(&entry[1]) {
        Some(std::cmp::Ordering::Greater) => face(0),
        Some(std::cmp::Ordering::Less) => face(1),
        _ => (face(0) + face(1)).normalize_or(-direction),
    };
    Some((enter, exit, normal))
}

/// How far the ray from `m`, inside the box of half extents `half` around the origin, runs
/// along `direction` until it leaves the box: the exit of [`slabs`] (the depth of a body
/// set into others, D16 of docs/physics.md).
pub(crate) fn box_exit(m: Vec2, direction: Vec2, half: Vec2) -> f32 {
    slabs(m, direction, half).map_or(0.0, |(_, exit, _)| exit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clamped_length_keeps_the_direction_of_every_finite_vector() {
        let max = 1296.0;
        for v in [
            Vec2::new(3.0, 4.0),
            Vec2::new(3000.0, -4000.0),
            Vec2::new(1.0e20, 0.0),
            Vec2::new(-1.0e20, 1.0e20),
            Vec2::new(f32::MAX, f32::MAX),
            Vec2::new(0.0, -f32::MAX),
        ] {
            let clamped = clamp_length(v, max);
            assert!(clamped.is_finite(), "{v} -> {clamped}");
            let expected = if v.length() <= max { v.length() } else { max };
            assert!((clamped.length() - expected).abs() <= 1e-3 * expected, "{v} -> {clamped}");
            // The direction of v, computed in f64 where nothing overflows.
            let d = v.as_dvec2() / v.as_dvec2().length();
            let c = clamped.as_dvec2() / clamped.as_dvec2().length();
            assert!((d - c).length() < 1e-6, "{v} -> {clamped}: direction lost");
        }
        // Below the overflow, the same bits as glam's clamp.
        for v in [Vec2::new(3000.0, -4000.0), Vec2::new(1.0e18, 7.0), Vec2::new(0.1, 0.2)] {
            assert_eq!(clamp_length(v, max), v.clamp_length_max(max));
        }
    }

    #[test]
    fn every_finite_non_zero_vector_normalises_to_its_direction_r_game_6() {
        let tiny = f32::from_bits(1); // the smallest subnormal, 1.4e-45
        for v in [
            Vec2::new(3.0, 4.0),
            Vec2::new(1.0e20, 0.0),
            Vec2::new(-1.0e20, 3.0e19),
            Vec2::new(f32::MAX, -f32::MAX),
            Vec2::new(1.0e-23, 0.0),
            Vec2::new(3.0e-30, -4.0e-30),
            Vec2::new(tiny, tiny),
            Vec2::new(0.0, -tiny),
            Vec2::new(1.0, 1.0e-38),
        ] {
            let unit = normalize_finite(v).unwrap_or_else(|| panic!("{v} refused"));
            // The direction of v, computed in f64 where nothing overflows or underflows.
            let d = v.as_dvec2() / v.as_dvec2().length();
            assert!((unit.as_dvec2() - d).length() < 1e-6, "{v} -> {unit}");
        }
        // Where the square is a normal f32, the same bits as dividing by the length.
        for v in [Vec2::new(3.0, 4.0), Vec2::new(-0.1, 0.7), Vec2::new(1.0e18, 7.0)] {
            assert_eq!(normalize_finite(v), Some(v / v.length()));
        }
        for v in [Vec2::ZERO, -Vec2::ZERO, Vec2::new(f32::NAN, 1.0), Vec2::new(0.0, f32::INFINITY)]
        {
            assert_eq!(normalize_finite(v), None, "{v}");
        }
    }

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
