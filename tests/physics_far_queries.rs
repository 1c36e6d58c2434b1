//! Spatial queries far from the origin (R-CFG-3, R-GAME-6): a world whose bounds lie at
//! 3e12 px, and an open world (a wall switched off) with a body 3e12 px out. Any finite
//! coordinates are valid input, so the queries must answer them, find the body and not
//! panic. The index's margin for rounding is a millionth of the coordinates' magnitude,
//! 3e6 px there; before it counted towards the grid's cell cap, the grid of one body had
//! 75,000² cells of 80 px, the cell count overflowed a u32 and the first query panicked
//! (index out of bounds) after allocating 5 GB. The cap itself is checked in the crate's
//! `spatial_index_tests.rs`.
//!
//! At 3e12 an f32 is a multiple of 2¹⁸ = 262,144 px, so every position here is one: the
//! points and the body's centre are the same floats, and a ray starts whole steps away.

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyOrWall, PhysicsConfig, QueryFilter, Shape, WallId, World,
};
use glam::Vec2;

/// The spacing of f32 values between 2⁴¹ and 2⁴² (3e12 lies there), px.
const STEP_AT_3E12: f32 = 262_144.0;

fn bodies_only() -> QueryFilter {
    QueryFilter::default().with_walls(false)
}

#[test]
fn queries_in_a_world_whose_bounds_lie_at_3e12_px_find_its_body_without_panicking_r_cfg_3() {
    let mut world =
        World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("a valid world");
    let min = Vec2::splat(3.0e12);
    world.set_bounds(min, min + Vec2::splat(1.0e6)).expect("finite bounds, side ≤ 1e7 px");
    let centre = min + Vec2::splat(5.0e5);
    let ball = world.add_body(BodyDesc::circle(20.0, centre)).expect("a body inside");
    let centre = world.body(ball).expect("the ball").position();

    let at = world.bodies_at_point(centre, &QueryFilter::default()).expect("a finite point");
    assert_eq!(at, [ball], "the point query");
    let boxed = world
        .bodies_in_aabb(centre - 10.0, centre + 10.0, &QueryFilter::default())
        .expect("a valid box");
    assert_eq!(boxed, [ball], "the box query");
    let beside = world
        .bodies_at_point(centre + Vec2::new(STEP_AT_3E12, 0.0), &QueryFilter::default())
        .expect("a finite point");
    assert!(beside.is_empty(), "a point one float step (262,144 px) away: {beside:?}");

    let origin = centre - Vec2::new(STEP_AT_3E12, 0.0);
    let hit = world
        .ray_cast(origin, Vec2::X, f32::INFINITY, &bodies_only())
        .expect("a valid ray")
        .expect("the ray meets the ball");
    assert_eq!(hit.target, BodyOrWall::Body(ball));
    assert!((hit.distance - (STEP_AT_3E12 - 20.0)).abs() <= 1.0, "distance {}", hit.distance);
    let cast = world
        .shape_cast(Shape::Circle { radius: 5.0 }, origin, Vec2::X, f32::INFINITY, &bodies_only())
        .expect("a valid cast")
        .expect("the cast meets the ball");
    assert_eq!(cast.target, BodyOrWall::Body(ball));
}

#[test]
fn queries_in_an_open_world_with_a_body_3e12_px_out_find_it_without_panicking_r_cfg_3() {
    let mut world =
        World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("a valid world");
    world.set_wall_enabled(WallId::Right, false);
    let far_centre = Vec2::new(3.0e12, 300.0);
    let far = world.add_body(BodyDesc::circle(20.0, far_centre)).expect("beyond the open wall");
    let at = |world: &World, point: Vec2| {
        world.bodies_at_point(point, &QueryFilter::default()).expect("a finite point")
    };
    // The far body alone: its grid is as far out as its box.
    assert_eq!(at(&world, far_centre), [far], "the far body alone");
    let ray = |world: &World| {
        let hit = world
            .ray_cast(Vec2::new(400.0, 300.0), Vec2::X, f32::INFINITY, &bodies_only())
            .expect("a valid ray")
            .expect("the ray meets the far body");
        assert_eq!(hit.target, BodyOrWall::Body(far));
        assert!((hit.distance - 3.0e12).abs() <= 2.0 * STEP_AT_3E12, "distance {}", hit.distance);
    };
    ray(&world);

    // And with a body near the origin: one grid over both.
    let near = world.add_body(BodyDesc::circle(20.0, Vec2::new(200.0, 300.0))).expect("a body");
    assert_eq!(at(&world, far_centre), [far], "the far body");
    assert_eq!(at(&world, Vec2::new(200.0, 300.0)), [near], "the near body");
    assert!(at(&world, Vec2::new(400.0, 300.0)).is_empty(), "between them");
    let boxed = world
        .bodies_in_aabb(Vec2::ZERO, Vec2::new(4.0e12, 600.0), &QueryFilter::default())
        .expect("a valid box");
    assert_eq!(boxed, [far, near], "a box over both, in the order of their handles");
    ray(&world);
    // From beyond the far body, back to the left: the far body first, then the near one.
    let back = world
        .ray_cast_all(Vec2::new(4.0e12, 300.0), -Vec2::X, f32::INFINITY, &bodies_only())
        .expect("a valid ray");
    let targets: Vec<_> = back.iter().map(|hit| hit.target).collect();
    assert_eq!(targets, [BodyOrWall::Body(far), BodyOrWall::Body(near)]);
}
