//! Shape casts (R-GAME-6): where a circle or a rectangle moving along `o + t·d` (d a unit
//! vector, t ≥ 0, the shape's centre at `o + t·d`) first touches a body's shape or a wall.
//!
//! A moving shape A touches a still shape B exactly when A's centre lies in the Minkowski sum
//! of B and A mirrored through its centre: the set of centres at which the two overlap. So
//! a cast is a ray from A's centre against that sum, with the formulas of [`super::ray`]:
//!
//! | moving A | still B | the sum around B's centre |
//! |---|---|---|
//! | circle r_A | circle r_B | circle of radius `r_A + r_B` |
//! | rectangle h_A | rectangle h_B | rectangle of half extents `h_A + h_B` |
//! | circle r_A | rectangle h_B | rectangle h_B rounded by r_A |
//! | rectangle h_A | circle r_B | rectangle h_A rounded by r_B |
//!
//! The sum's outward normal at the hit is the normal of B's surface at the contact, pointing
//! from B towards A. Shapes are closed: a cast that starts touching or overlapping B hits it
//! at distance 0 with normal `−d` and the contact point at A's centre, as a ray that starts
//! inside a shape does.

use glam::Vec2;

use super::ray::{RayContact, ray_circle, ray_rect, ray_rounded_rect, ray_wall};
use super::walls::Wall;
use crate::physics::body::Shape;

/// Where a moving shape first touches another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CastContact {
    /// How far the moving shape's centre travels until it touches, px.
    pub(crate) distance: f32,
    /// Unit normal of the touched shape's surface at the contact, towards the moving shape.
    pub(crate) normal: Vec2,
    /// The point where the two touch (the moving centre if they overlap at the start).
    pub(crate) point: Vec2,
}

/// The first contact of `moving`, its centre travelling along `origin + t·direction`, with
/// `target` at `position`.
pub(crate) fn cast_shape(
    moving: &Shape,
    origin: Vec2,
    direction: Vec2,
    target: &Shape,
    position: Vec2,
) -> Option<CastContact> {
    let hit = match (*moving, *target) {
        (Shape::Circle { radius: a }, Shape::Circle { radius: b }) => {
            ray_circle(origin, direction, position, a + b)
        }
        (Shape::Rect { half_extents: a }, Shape::Rect { half_extents: b }) => {
            ray_rect(origin, direction, position, a + b)
        }
        (Shape::Circle { radius }, Shape::Rect { half_extents }) => {
            ray_rounded_rect(origin, direction, position, half_extents, radius)
        }
        (Shape::Rect { half_extents }, Shape::Circle { radius }) => {
            ray_rounded_rect(origin, direction, position, half_extents, radius)
        }
    }?;
    let centre = origin + hit.distance * direction;
    Some(CastContact {
        distance: hit.distance,
        normal: hit.normal,
        point: contact_point(moving, centre, target, position, &hit, origin),
    })
}

/// Where the two shapes touch, the moving one's centre at `centre`.
///
/// - a circle B (whatever A is) is touched at its surface point along the normal,
///   `c_B + n·r_B`: the normal of the sum points from B's centre through the contact;
/// - a rectangle B touched by a circle A at A's surface point towards B, `c_A − n·r_A`;
/// - two rectangles touch along a segment of the face (or at a corner): the middle of the
///   overlap of their extents on each axis, which is the face's coordinate on the normal's
///   axis and the middle of the shared stretch of the face on the other.
fn contact_point(
    moving: &Shape,
    centre: Vec2,
    target: &Shape,
    position: Vec2,
    hit: &RayContact,
    origin: Vec2,
) -> Vec2 {
    if hit.distance == 0.0 {
        return origin;
    }
    match (*moving, *target) {
        (_, Shape::Circle { radius }) => position + hit.normal * radius,
        (Shape::Circle { radius }, Shape::Rect { .. }) => centre - hit.normal * radius,
        (Shape::Rect { half_extents: a }, Shape::Rect { half_extents: b }) => {
            let low = (centre - a).max(position - b);
            let high = (centre + a).min(position + b);
            0.5 * (low + high)
        }
    }
}

/// The first contact of `moving`, its centre travelling along `origin + t·direction`, with
/// the solid side of `wall`: a ray against the wall for the shape's deepest point towards it,
/// which reaches `reach(−n)` beyond the centre. The contact point is that deepest point on
/// the wall's line (for a rectangle, the middle of its face).
pub(crate) fn cast_wall(
    moving: &Shape,
    origin: Vec2,
    direction: Vec2,
    wall: &Wall,
) -> Option<CastContact> {
    let reach = moving.reach(wall.normal);
    let hit = ray_wall(origin, direction, wall, reach)?;
    let point = if hit.distance == 0.0 {
        origin
    } else {
        origin + hit.distance * direction - wall.normal * reach
    };
    Some(CastContact { distance: hit.distance, normal: hit.normal, point })
}
