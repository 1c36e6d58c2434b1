//! Spatial queries at the edges of f32 (R-GAME-6): directions of any finite length but 0,
//! and paths so long or so shallow that a target lies beyond the largest f32.
//!
//! A cast's direction only says which way: any finite non-zero vector is normalised, however
//! large or small, and gives the hits of its unit vector. A target the path reaches only
//! at a distance f32 cannot hold (a wall met at a grazing angle, a body seen from near
//! `f32::MAX`) is not hit: no hit carries an infinite or NaN distance or point.

mod common;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyOrWall, PhysicsError, QueryFilter, RayHit, Shape, ShapeHit, WallId, World,
};
use common::{add, assert_close, no_gravity, world_with};
use glam::Vec2;

/// Rounding of distances and points below 1000 px, with room for a square root and for a
/// unit direction an ulp off (as in `physics_queries.rs`).
const TOLERANCE: f32 = 1e-3;

/// An 800 × 600 world without gravity, walls at x = 0, 800 and y = 0, 600, with a circle and
/// a box to hit.
fn world_with_targets() -> World {
    let mut world = world_with(Vec2::new(800.0, 600.0), no_gravity());
    add(&mut world, BodyDesc::circle(20.0, Vec2::new(600.0, 300.0)));
    add(&mut world, BodyDesc::rect(Vec2::new(60.0, 40.0), Vec2::new(300.0, 450.0)));
    world
}

#[track_caller]
fn assert_finite_ray_hits(hits: &[RayHit], what: &str) {
    for hit in hits {
        assert!(
            hit.distance.is_finite() && hit.point.is_finite() && hit.normal.is_finite(),
            "{what}: {hit:?}"
        );
    }
}

#[track_caller]
fn assert_finite_shape_hit(hit: Option<ShapeHit>, what: &str) {
    if let Some(hit) = hit {
        assert!(
            hit.distance.is_finite() && hit.point.is_finite() && hit.normal.is_finite(),
            "{what}: {hit:?}"
        );
    }
}

#[track_caller]
fn assert_same_hit(actual: (BodyOrWall, f32, Vec2, Vec2), expected: (BodyOrWall, f32, Vec2, Vec2)) {
    assert_eq!(actual.0, expected.0, "target");
    assert_close(actual.1, expected.1, TOLERANCE, "distance");
    assert!((actual.2 - expected.2).length() <= TOLERANCE, "point {actual:?} vs {expected:?}");
    assert!((actual.3 - expected.3).length() <= TOLERANCE, "normal {actual:?} vs {expected:?}");
}

fn ray_parts(h: RayHit) -> (BodyOrWall, f32, Vec2, Vec2) {
    (h.target, h.distance, h.point, h.normal)
}

fn shape_parts(h: ShapeHit) -> (BodyOrWall, f32, Vec2, Vec2) {
    (h.target, h.distance, h.point, h.normal)
}

#[test]
fn a_wall_met_only_beyond_the_largest_f32_is_not_hit_r_game_6() {
    let mut world = world_with(Vec2::new(800.0, 600.0), no_gravity());
    let all = QueryFilter::default();
    let centre = Vec2::new(400.0, 300.0);
    // Nearly along +x: the floor 300 px down lies 3e40 px along the ray, beyond f32.
    let shallow = Vec2::new(1.0, 1.0e-38);
    let hits = world.ray_cast_all(centre, shallow, f32::INFINITY, &all).expect("valid");
    assert_finite_ray_hits(&hits, "all walls");
    let targets: Vec<_> = hits.iter().map(|h| (h.target, h.distance)).collect();
    assert_eq!(targets, [(BodyOrWall::Wall(WallId::Right), 400.0)]);
    // With the right wall off, nothing is in reach: no first hit, no hits, no shape hit.
    world.set_wall_enabled(WallId::Right, false);
    assert_eq!(world.ray_cast(centre, shallow, f32::INFINITY, &all), Ok(None));
    assert_eq!(world.ray_cast_all(centre, shallow, f32::INFINITY, &all), Ok(Vec::new()));
    for shape in [Shape::circle(10.0), Shape::rect(40.0, 20.0)] {
        let hit = world.shape_cast(shape, centre, shallow, f32::INFINITY, &all);
        assert_eq!(hit, Ok(None), "{shape:?}");
    }
}

#[test]
fn a_body_seen_from_beyond_the_largest_f32_gives_no_infinite_hit_r_game_6() {
    let world = world_with_targets();
    let bodies = QueryFilter::default().with_walls(false);
    // From near −f32::MAX on both axes towards the bodies: about 4.8e38 px away, which f32
    // cannot hold. Each query must answer with finite hits (or none), never inf or NaN.
    let far = Vec2::splat(-3.0e38);
    for direction in [Vec2::ONE, Vec2::new(1.0, 1.001), Vec2::new(1.001, 1.0)] {
        let first = world.ray_cast(far, direction, f32::INFINITY, &bodies).expect("valid");
        assert_finite_ray_hits(first.as_slice(), "ray_cast");
        let all = world.ray_cast_all(far, direction, f32::INFINITY, &bodies).expect("valid");
        assert_finite_ray_hits(&all, "ray_cast_all");
        for shape in [Shape::circle(10.0), Shape::rect(40.0, 20.0)] {
            let hit = world.shape_cast(shape, far, direction, f32::INFINITY, &bodies);
            assert_finite_shape_hit(hit.expect("valid"), "shape_cast");
        }
    }
}

#[test]
fn a_huge_or_tiny_finite_direction_gives_the_hits_of_its_unit_direction_r_game_6() {
    let world = world_with_targets();
    let all = QueryFilter::default();
    let circle = Shape::circle(10.0);
    // Lengths whose square overflows or underflows f32 (to 0, or to a subnormal that has
    // lost digits), up to the largest f32 and down to where the direction itself starts
    // losing digits; along an axis, down to the smallest subnormal.
    let scales = [1.0e20, 3.0e38, 1.0e-20, 1.0e-23, 1.0e-30, 1.0e-38];
    let smallest = f32::from_bits(1); // 1.4e-45
    // Towards the circle along +x, and down-right towards the box; each hits a body first.
    for (origin, unit, smallest) in [
        (Vec2::new(100.0, 300.0), Vec2::X, Some(smallest)),
        (Vec2::new(150.0, 250.0), Vec2::new(0.6, 0.8), None),
    ] {
        let ray = world.ray_cast(origin, unit, f32::INFINITY, &all).expect("valid").expect("hit");
        assert!(matches!(ray.target, BodyOrWall::Body(_)), "{ray:?}");
        let hits = world.ray_cast_all(origin, unit, f32::INFINITY, &all).expect("valid");
        let cast = world.shape_cast(circle, origin, unit, f32::INFINITY, &all).expect("valid");
        let cast = cast.expect("a shape hit");
        for scale in scales.into_iter().chain(smallest) {
            let d = unit * scale;
            let what = format!("direction {d}");
            let got = world.ray_cast(origin, d, f32::INFINITY, &all);
            let got = got.unwrap_or_else(|e| panic!("{what}: {e}")).expect("hit");
            assert_same_hit(ray_parts(got), ray_parts(ray));
            let got = world.ray_cast_all(origin, d, f32::INFINITY, &all).expect("valid");
            assert_eq!(got.len(), hits.len(), "{what}: {got:?}");
            for (g, h) in got.into_iter().zip(&hits) {
                assert_same_hit(ray_parts(g), ray_parts(*h));
            }
            let got = world.shape_cast(circle, origin, d, f32::INFINITY, &all).expect("valid");
            assert_same_hit(shape_parts(got.expect("a shape hit")), shape_parts(cast));
        }
    }
}

#[test]
fn a_zero_or_non_finite_direction_is_still_refused_with_its_field_named_r_game_6() {
    let world = world_with_targets();
    let f = QueryFilter::default();
    let origin = Vec2::new(100.0, 300.0);
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let circle = Shape::circle(10.0);
    for bad in
        [Vec2::ZERO, -Vec2::ZERO, Vec2::new(nan, 1.0), Vec2::new(1.0, inf), Vec2::NEG_INFINITY]
    {
        for result in [
            world.ray_cast(origin, bad, 10.0, &f).map(|_| ()),
            world.ray_cast_all(origin, bad, 10.0, &f).map(|_| ()),
            world.shape_cast(circle, origin, bad, 10.0, &f).map(|_| ()),
        ] {
            match result {
                Err(PhysicsError::Invalid(e)) => {
                    let fields: Vec<_> = e.problems.iter().map(|p| p.field).collect();
                    assert_eq!(fields, ["direction"], "{bad}");
                    let message = e.to_string();
                    assert!(message.contains("finite numbers, not (0, 0)"), "{bad}: {message}");
                }
                other => panic!("{bad}: expected a refusal, got {other:?}"),
            }
        }
    }
}
