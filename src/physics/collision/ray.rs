//! Rays against the shapes (R-GAME-6): where the ray `p(t) = o + t·d` (d a unit vector,
//! t ≥ 0) first meets a circle, a rectangle, a rounded rectangle or a wall.
//!
//! Every shape is **solid and closed**: a ray whose origin lies inside a shape or on its
//! boundary meets it at once, `t = 0`, and since there is no surface crossing to take a normal
//! from, the normal is `−d` (pointing back along the ray). Avian and Rapier call this a
//! "solid" ray cast and make it optional; here it is the only kind. A ray that only grazes a
//! shape (touches its boundary without entering) meets it at the touching point.
//!
//! Each test works in the shape's frame, `m = o − c`, so that its numbers stay as small as
//! the shape and its distance from the origin.

use glam::Vec2;

use crate::physics::math::slabs;

use super::walls::Wall;

/// Where a ray first meets a shape: the distance along the ray and the unit normal of the
/// shape's surface there, pointing out of the shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RayContact {
    /// `t` of the first point of the shape on the ray, px (d is a unit vector).
    pub(crate) distance: f32,
    /// Outward unit normal at that point; `−d` when the origin is inside.
    pub(crate) normal: Vec2,
}

impl RayContact {
    /// The contact of a ray that starts inside the shape.
    fn inside(direction: Vec2) -> Self {
        RayContact { distance: 0.0, normal: -direction }
    }
}

/// The ray against the disc `|p − c| ≤ r`.
///
/// With `m = o − c` and `b = m·d`, `|m + t·d|² = r²` is `t² + 2bt + |m|² − r² = 0`, so
/// `t = −b − √(b² − |m|² + r²)`. The discriminant is taken as `r² − |m − b·d|²`, the squared
/// radius less the squared distance of the centre from the ray's line: the same number
/// (`|m − b·d|² = |m|² − b²` for a unit d), without the cancellation of two large squares when
/// the origin is far away. Zero is a grazing ray, which meets the disc at one point.
pub(crate) fn ray_circle(
    origin: Vec2,
    direction: Vec2,
    centre: Vec2,
    radius: f32,
) -> Option<RayContact> {
    let m = origin - centre;
    if m.length_squared() <= radius * radius {
        return Some(RayContact::inside(direction));
    }
    let b = m.dot(direction);
    if b > 0.0 {
        // Outside and heading away: the disc lies behind the origin.
        return None;
    }
    let off_line = m - b * direction;
    let discriminant = radius * radius - off_line.length_squared();
    if discriminant < 0.0 {
        return None;
    }
    let distance = (-b - discriminant.sqrt()).max(0.0);
    let normal = (m + distance * direction).normalize_or(-direction);
    Some(RayContact { distance, normal })
}

/// The ray against the axis-aligned rectangle of half extents `half` around `centre`.
pub(crate) fn ray_rect(
    origin: Vec2,
    direction: Vec2,
    centre: Vec2,
    half: Vec2,
) -> Option<RayContact> {
    let m = origin - centre;
    if m.x.abs() <= half.x && m.y.abs() <= half.y {
        return Some(RayContact::inside(direction));
    }
    let (enter, _, normal) = slabs(m, direction, half)?;
    Some(RayContact { distance: enter.max(0.0), normal })
}

/// The ray against a rounded rectangle: every point within `radius` of the rectangle of half
/// extents `half` around `centre` (the Minkowski sum of the rectangle and a disc).
///
/// Its boundary is four flat faces (the rectangle's, moved out by `radius`) joined by four
/// quarter circles around the rectangle's corners. The ray first meets the enclosing box of
/// half extents `half + radius`. Where it enters that box beside a face, that is the hit.
/// Where it enters in a corner square (beyond the rectangle on both axes), the rounded shape
/// is that corner's disc, and the ray hits that disc or nothing: to reach a face's band from
/// the corner square it would cross the band's end, which lies inside the disc.
pub(crate) fn ray_rounded_rect(
    origin: Vec2,
    direction: Vec2,
    centre: Vec2,
    half: Vec2,
    radius: f32,
) -> Option<RayContact> {
    let m = origin - centre;
    // Distance from the rectangle: the length of the part of |m| − h that is positive.
    let beyond = (m.abs() - half).max(Vec2::ZERO);
    if beyond.length_squared() <= radius * radius {
        return Some(RayContact::inside(direction));
    }
    let (enter, _, normal) = slabs(m, direction, half + radius)?;
    let enter = enter.max(0.0);
    let at = m + enter * direction;
    if at.x.abs() > half.x && at.y.abs() > half.y {
        let corner = Vec2::new(half.x.copysign(at.x), half.y.copysign(at.y));
        return ray_circle(m, direction, corner, radius);
    }
    Some(RayContact { distance: enter, normal })
}

/// The ray against the solid side of a wall, `n·p ≤ offset` (the wall's normal n points into
/// the world), for a point that reaches `reach` towards the wall (0 for a ray, the shape's
/// reach along −n for a shape cast). The point touches the wall where
/// `n·p(t) − reach = offset`: `t = (n·o − reach − offset) / (−n·d)`, if the ray heads out of
/// the world (`n·d < 0`).
pub(crate) fn ray_wall(
    origin: Vec2,
    direction: Vec2,
    wall: &Wall,
    reach: f32,
) -> Option<RayContact> {
    let separation = wall.normal.dot(origin) - reach - wall.offset;
    if separation <= 0.0 {
        return Some(RayContact::inside(direction));
    }
    let closing = -wall.normal.dot(direction);
    if closing <= 0.0 {
        return None;
    }
    Some(RayContact { distance: separation / closing, normal: wall.normal })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ray_meets_a_disc_where_the_quadratic_says_r_game_6() {
        // Origin 100 px left of the centre of an r = 20 disc, along +x: t = 100 − 20.
        let hit = ray_circle(Vec2::ZERO, Vec2::X, Vec2::new(100.0, 0.0), 20.0).expect("hit");
        assert_eq!(hit, RayContact { distance: 80.0, normal: -Vec2::X });
        // 12 px off the centre line: t = 100 − √(20² − 12²) = 84, n = (−16, 12)/20.
        let hit = ray_circle(Vec2::ZERO, Vec2::X, Vec2::new(100.0, -12.0), 20.0).expect("hit");
        assert!((hit.distance - 84.0).abs() < 1e-4);
        assert!((hit.normal - Vec2::new(-0.8, 0.6)).length() < 1e-5);
        // Behind the origin, and beside the ray: no hit.
        assert!(ray_circle(Vec2::ZERO, -Vec2::X, Vec2::new(100.0, 0.0), 20.0).is_none());
        assert!(ray_circle(Vec2::ZERO, Vec2::X, Vec2::new(100.0, 20.5), 20.0).is_none());
    }

    #[test]
    fn a_ray_meets_a_box_on_the_face_it_crosses_last_r_game_6() {
        let (c, h) = (Vec2::new(100.0, 50.0), Vec2::new(20.0, 10.0));
        let hit = ray_rect(Vec2::new(0.0, 55.0), Vec2::X, c, h).expect("left face");
        assert_eq!(hit, RayContact { distance: 80.0, normal: -Vec2::X });
        let hit = ray_rect(Vec2::new(90.0, 0.0), Vec2::Y, c, h).expect("top face");
        assert_eq!(hit, RayContact { distance: 40.0, normal: -Vec2::Y });
        assert!(ray_rect(Vec2::new(0.0, 61.0), Vec2::X, c, h).is_none());
    }

    #[test]
    fn a_rounded_box_is_met_on_its_corner_arc_r_game_6() {
        // Rectangle ±10 around the origin, rounded by 5: a ray along y = 13 from the left
        // enters the corner square and meets the arc around (−10, 10) where
        // (x + 10)² + 3² = 5², x = −14.
        let hit =
            ray_rounded_rect(Vec2::new(-50.0, 13.0), Vec2::X, Vec2::ZERO, Vec2::splat(10.0), 5.0)
                .expect("arc");
        assert!((hit.distance - 36.0).abs() < 1e-4);
        assert!((hit.normal - Vec2::new(-0.8, 0.6)).length() < 1e-5);
        // Along y = 14.9 it still cuts the arc (4.9 px from the corner, less than 5), along
        // y = 15.1 it passes beyond the whole shape.
        assert!(
            ray_rounded_rect(Vec2::new(-50.0, 14.9), Vec2::X, Vec2::ZERO, Vec2::splat(10.0), 5.0)
                .is_some()
        );
        assert!(
            ray_rounded_rect(Vec2::new(-50.0, 15.1), Vec2::X, Vec2::ZERO, Vec2::splat(10.0), 5.0)
                .is_none()
        );
    }
}
