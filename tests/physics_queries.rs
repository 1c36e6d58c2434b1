//! Spatial queries (R-GAME-6): point and box queries, ray casts (first hit and all hits) and
//! shape casts, with layer filters, exclusions and walls.
//!
//! The geometry is checked against analytic values: a ray meets a circle where the quadratic
//! `|o + t·d − c|² = r²` has its smaller root, a box where the slab intervals first overlap,
//! and a moving shape where a ray meets the Minkowski sum of the two shapes. The numbers are
//! chosen so that the answers are exact in f32 or nearly so: positions below 1000 px carry
//! about 6e-5 px of rounding, a square root a few ulps more, so `TOLERANCE` = 1e-3 px is far
//! above the rounding and far below any mistake. `physics_queries_index.rs` checks the
//! lookup through the index against a scan of every body on random scenes.

mod common;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, BodyOrWall, CollisionLayers, PhysicsConfig, PhysicsError, QueryFilter,
    RayHit, Shape, ShapeHit, WallId, World,
};
use common::{add, assert_close, no_gravity, run, world_with};
use glam::Vec2;

/// Rounding of positions and distances below 1000 px, with room for a square root (see the
/// module docs).
const TOLERANCE: f32 = 1e-3;

/// Bodies only: the walls left out, so that a miss is `None`.
fn bodies_only() -> QueryFilter {
    QueryFilter::default().with_walls(false)
}

/// An 800 × 600 world without gravity.
fn still_world() -> World {
    world_with(Vec2::new(800.0, 600.0), no_gravity())
}

#[track_caller]
fn assert_vec_close(actual: Vec2, expected: Vec2, what: &str) {
    assert!(
        (actual - expected).length() <= TOLERANCE,
        "{what}: got {actual}, expected {expected} ± {TOLERANCE}"
    );
}

#[track_caller]
fn assert_ray_hit(
    hit: Option<RayHit>,
    target: BodyHandle,
    distance: f32,
    point: Vec2,
    normal: Vec2,
) {
    let hit = hit.expect("a hit");
    assert_eq!(hit.target, BodyOrWall::Body(target), "target");
    assert_close(hit.distance, distance, TOLERANCE, "distance");
    assert_vec_close(hit.point, point, "point");
    assert_vec_close(hit.normal, normal, "normal");
}

#[track_caller]
fn assert_shape_hit(
    hit: Option<ShapeHit>,
    target: BodyOrWall,
    distance: f32,
    point: Vec2,
    normal: Vec2,
) {
    let hit = hit.expect("a hit");
    assert_eq!(hit.target, target, "target");
    assert_close(hit.distance, distance, TOLERANCE, "distance");
    assert_vec_close(hit.point, point, "point");
    assert_vec_close(hit.normal, normal, "normal");
}

fn ray(world: &World, origin: Vec2, direction: Vec2) -> Option<RayHit> {
    world.ray_cast(origin, direction, f32::INFINITY, &bodies_only()).expect("valid ray")
}

// ------------------------------------------------------------------------------------------
// Rays against circles and boxes
// ------------------------------------------------------------------------------------------

#[test]
fn a_ray_hits_a_circle_at_the_analytic_point_and_normal_r_game_6() {
    let mut world = still_world();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    // Through the centre: t = 300 − 20, normal against the ray.
    assert_ray_hit(
        ray(&world, Vec2::new(100.0, 300.0), Vec2::X),
        ball,
        280.0,
        Vec2::new(380.0, 300.0),
        -Vec2::X,
    );
    // 12 px above the centre line: the chord's half length is √(20² − 12²) = 16, so
    // t = 300 − 16 and n = (−16, −12)/20.
    assert_ray_hit(
        ray(&world, Vec2::new(100.0, 288.0), Vec2::X),
        ball,
        284.0,
        Vec2::new(384.0, 288.0),
        Vec2::new(-0.8, -0.6),
    );
    // From below, along a direction of length 5: normalised, so distances stay in px.
    assert_ray_hit(
        ray(&world, Vec2::new(400.0, 500.0), Vec2::new(0.0, -5.0)),
        ball,
        180.0,
        Vec2::new(400.0, 320.0),
        Vec2::Y,
    );
    // Pointing away, and passing beside it.
    assert!(ray(&world, Vec2::new(100.0, 300.0), -Vec2::X).is_none());
    assert!(ray(&world, Vec2::new(100.0, 279.0), Vec2::X).is_none());
}

#[test]
fn a_ray_grazing_a_circle_touches_it_at_the_tangent_point_r_game_6() {
    let mut world = still_world();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    // Along y = 280, exactly one radius above the centre: the tangent point (400, 280),
    // where the normal is perpendicular to the ray.
    assert_ray_hit(
        ray(&world, Vec2::new(100.0, 280.0), Vec2::X),
        ball,
        300.0,
        Vec2::new(400.0, 280.0),
        -Vec2::Y,
    );
    assert!(ray(&world, Vec2::new(100.0, 279.99), Vec2::X).is_none(), "0.01 px beyond");
}

#[test]
fn a_ray_hits_a_box_on_its_faces_edges_and_corners_r_game_6() {
    let mut world = still_world();
    // 80 × 40 around (400, 300): faces at x = 360, 440 and y = 280, 320.
    let block = add(&mut world, BodyDesc::rect(Vec2::new(80.0, 40.0), Vec2::new(400.0, 300.0)));
    let left = Vec2::new(100.0, 310.0);
    assert_ray_hit(ray(&world, left, Vec2::X), block, 260.0, Vec2::new(360.0, 310.0), -Vec2::X);
    let below = Vec2::new(420.0, 590.0);
    assert_ray_hit(ray(&world, below, -Vec2::Y), block, 270.0, Vec2::new(420.0, 320.0), Vec2::Y);
    // Along the line of the top face: it grazes the face and is met at its first point, the
    // corner (360, 280), where it crosses the left face's line.
    let along_top = Vec2::new(100.0, 280.0);
    assert_ray_hit(
        ray(&world, along_top, Vec2::X),
        block,
        260.0,
        Vec2::new(360.0, 280.0),
        -Vec2::X,
    );
    assert!(ray(&world, Vec2::new(100.0, 279.99), Vec2::X).is_none(), "0.01 px above the top");
    // Diagonally into the top-left corner: both faces are crossed at t = 60·√2, and the
    // normal is the corner's diagonal.
    let diagonal = Vec2::new(1.0, 1.0).normalize();
    assert_ray_hit(
        ray(&world, Vec2::new(300.0, 220.0), diagonal),
        block,
        60.0 * 2f32.sqrt(),
        Vec2::new(360.0, 280.0),
        -diagonal,
    );
    // Steeper than the diagonal, through the top face next to the corner: the top face's
    // normal. From (350, 230) along (1, 3)/√10 it crosses y = 280 at x = 350 + 50/3.
    let steep = Vec2::new(1.0, 3.0).normalize();
    let t = 50.0 / steep.y;
    assert_ray_hit(
        ray(&world, Vec2::new(350.0, 230.0), steep),
        block,
        t,
        Vec2::new(350.0 + 50.0 / 3.0, 280.0),
        -Vec2::Y,
    );
}

#[test]
fn a_ray_starting_inside_a_body_hits_it_at_distance_zero_against_its_direction_r_game_6() {
    let mut world = still_world();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
    let block = add(&mut world, BodyDesc::rect(Vec2::new(80.0, 40.0), Vec2::new(400.0, 300.0)));
    let d = Vec2::new(0.6, 0.8);
    assert_ray_hit(ray(&world, Vec2::new(205.0, 295.0), d), ball, 0.0, Vec2::new(205.0, 295.0), -d);
    assert_ray_hit(
        ray(&world, Vec2::new(430.0, 310.0), d),
        block,
        0.0,
        Vec2::new(430.0, 310.0),
        -d,
    );
    // On the boundary counts as inside (shapes are closed), even heading away.
    let on_face = Vec2::new(440.0, 300.0);
    assert_ray_hit(ray(&world, on_face, Vec2::X), block, 0.0, on_face, -Vec2::X);
    // All hits from inside the ball: the ball at 0, then the box's left face at 160.
    let hits = world
        .ray_cast_all(Vec2::new(200.0, 300.0), Vec2::X, f32::INFINITY, &bodies_only())
        .expect("valid ray");
    let targets: Vec<_> = hits.iter().map(|h| (h.target, h.distance)).collect();
    assert_eq!(targets, [(BodyOrWall::Body(ball), 0.0), (BodyOrWall::Body(block), 160.0)]);
}

#[test]
fn a_hit_just_beyond_max_distance_is_missed_and_one_just_within_is_found_r_game_6() {
    let mut world = still_world();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    let origin = Vec2::new(100.0, 300.0);
    let cast = |max: f32| world.ray_cast(origin, Vec2::X, max, &bodies_only()).expect("valid");
    // The hit lies at exactly 280 px (exact in f32): a closed limit includes it.
    assert!(cast(279.99).is_none(), "0.01 px short");
    assert_ray_hit(cast(280.0), ball, 280.0, Vec2::new(380.0, 300.0), -Vec2::X);
    assert_ray_hit(cast(280.01), ball, 280.0, Vec2::new(380.0, 300.0), -Vec2::X);
    // Zero length: only a body at the origin.
    assert!(cast(0.0).is_none());
    let inside = world.ray_cast(Vec2::new(400.0, 300.0), Vec2::X, 0.0, &bodies_only());
    assert_eq!(inside.expect("valid").map(|h| h.distance), Some(0.0));
    // And for all hits and shape casts alike.
    let all = |max: f32| world.ray_cast_all(origin, Vec2::X, max, &bodies_only()).expect("valid");
    assert!(all(279.99).is_empty());
    assert_eq!(all(280.01).len(), 1);
    let circle = Shape::circle(10.0);
    let sweep =
        |max: f32| world.shape_cast(circle, origin, Vec2::X, max, &bodies_only()).expect("valid");
    assert!(sweep(269.99).is_none(), "the circle touches at 300 − 30");
    assert_close(sweep(270.01).expect("hit").distance, 270.0, TOLERANCE, "distance");
}

#[test]
fn ray_cast_all_reports_every_body_once_nearest_first_r_game_6() {
    let mut world = world_with(Vec2::new(3000.0, 600.0), no_gravity());
    // A row of small bodies along y = 300 and one long static bar across the row, far larger
    // than the grid's cells (twice the mean box size, about 90 px with the 40 small circles
    // off the ray): it overlaps more cells than a body is listed in, so every query tests it.
    for i in 0..40 {
        add(&mut world, BodyDesc::circle(12.0, Vec2::new(100.0 + 30.0 * i as f32, 100.0)));
    }
    let mut expected = Vec::new();
    for i in 0..10 {
        let x = 200.0 + 100.0 * i as f32;
        let handle = if i % 2 == 0 {
            add(&mut world, BodyDesc::circle(15.0, Vec2::new(x, 300.0)))
        } else {
            add(&mut world, BodyDesc::rect(Vec2::new(30.0, 30.0), Vec2::new(x, 300.0)))
        };
        expected.push((BodyOrWall::Body(handle), x - 15.0 - 50.0));
    }
    let bar =
        add(&mut world, BodyDesc::rect(Vec2::new(2000.0, 24.0), Vec2::new(2200.0, 300.0)).fixed());
    expected.push((BodyOrWall::Body(bar), 1200.0 - 50.0));
    expected.push((BodyOrWall::Wall(WallId::Right), 3000.0 - 50.0));
    let hits = world
        .ray_cast_all(Vec2::new(50.0, 300.0), Vec2::X, f32::INFINITY, &QueryFilter::default())
        .expect("valid ray");
    assert_eq!(hits.len(), expected.len(), "{hits:?}");
    for (hit, (target, distance)) in hits.iter().zip(&expected) {
        assert_eq!(hit.target, *target);
        assert_close(hit.distance, *distance, TOLERANCE, "distance");
    }
    // The first hit of the same ray is the first of them; from the far end, the bar.
    assert_eq!(ray(&world, Vec2::new(50.0, 300.0), Vec2::X).map(|h| h.target), Some(expected[0].0));
    assert_eq!(
        ray(&world, Vec2::new(2950.0, 300.0), -Vec2::X).map(|h| h.target),
        Some(BodyOrWall::Body(bar))
    );
}

#[test]
fn a_far_hit_on_a_large_body_does_not_hide_a_nearer_small_one_r_game_6() {
    let mut world = world_with(Vec2::new(1600.0, 900.0), no_gravity());
    // Filler far from the ray keeps the mean box small (cells of about 50 px), so the big
    // disc spans too many cells to be listed per cell and is tested first by every cast.
    for i in 0..50 {
        add(&mut world, BodyDesc::circle(12.0, Vec2::new(100.0 + 28.0 * i as f32, 850.0)));
    }
    // A disc of radius 200 whose centre lies 190 px below the ray y = 300: it is met at
    // x = 600 − √(200² − 190²) ≈ 537.55. The small disc ahead of it is met at x = 488, after
    // several cells of walking with the big disc's hit already known.
    add(&mut world, BodyDesc::circle(200.0, Vec2::new(600.0, 490.0)).fixed());
    let small = add(&mut world, BodyDesc::circle(12.0, Vec2::new(500.0, 300.0)));
    assert_ray_hit(
        ray(&world, Vec2::new(0.0, 300.0), Vec2::X),
        small,
        488.0,
        Vec2::new(488.0, 300.0),
        -Vec2::X,
    );
    let hit = world
        .shape_cast(
            Shape::circle(5.0),
            Vec2::new(0.0, 300.0),
            Vec2::X,
            f32::INFINITY,
            &bodies_only(),
        )
        .expect("valid");
    assert_eq!(hit.map(|h| h.target), Some(BodyOrWall::Body(small)));
}

// ------------------------------------------------------------------------------------------
// Shape casts
// ------------------------------------------------------------------------------------------

#[test]
fn a_circle_cast_meets_a_circle_where_a_ray_meets_the_summed_radius_r_game_6() {
    let mut world = still_world();
    let ball = BodyOrWall::Body(add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))));
    let circle = Shape::circle(10.0);
    let cast = |origin: Vec2| {
        world.shape_cast(circle, origin, Vec2::X, f32::INFINITY, &bodies_only()).expect("valid")
    };
    // Head on: the centres 30 px apart at x = 370; they touch at the ball's surface.
    assert_shape_hit(cast(Vec2::new(100.0, 300.0)), ball, 270.0, Vec2::new(380.0, 300.0), -Vec2::X);
    // 18 px above: √(30² − 18²) = 24, centre at x = 376, n = (−24, −18)/30, contact at
    // c + 20·n = (384, 288).
    assert_shape_hit(
        cast(Vec2::new(100.0, 282.0)),
        ball,
        276.0,
        Vec2::new(384.0, 288.0),
        Vec2::new(-0.8, -0.6),
    );
    assert!(cast(Vec2::new(100.0, 269.9)).is_none(), "30.1 px off the line");
}

#[test]
fn a_circle_cast_rounds_the_corner_of_a_box_r_game_6() {
    let mut world = still_world();
    let block = BodyOrWall::Body(add(
        &mut world,
        BodyDesc::rect(Vec2::new(80.0, 40.0), Vec2::new(400.0, 300.0)),
    ));
    let cast = |shape: Shape, origin: Vec2| {
        world.shape_cast(shape, origin, Vec2::X, f32::INFINITY, &bodies_only()).expect("valid")
    };
    // A circle of radius 10 along y = 274, 6 px above the top face's line: it meets the
    // corner (360, 280) when its centre is 10 px from it, (x − 360)² + 6² = 10², x = 352:
    // the rounded corner of the Minkowski sum, n = (−8, −6)/10, contact at the corner.
    let circle = Shape::circle(10.0);
    let origin = Vec2::new(100.0, 274.0);
    assert_shape_hit(
        cast(circle, origin),
        block,
        252.0,
        Vec2::new(360.0, 280.0),
        Vec2::new(-0.8, -0.6),
    );
    // Along the face band the sum is flat: along y = 300 it touches the face at x = 350.
    let head_on = Vec2::new(100.0, 300.0);
    assert_shape_hit(cast(circle, head_on), block, 250.0, Vec2::new(360.0, 300.0), -Vec2::X);
    // A ray along y = 274 passes above the box; a 20 px square there has a square corner and
    // meets the left face at x = 350, its contact the middle of the shared stretch
    // y = 280 ..= 284.
    assert!(ray(&world, origin, Vec2::X).is_none());
    let square = Shape::rect(20.0, 20.0);
    assert_shape_hit(cast(square, origin), block, 250.0, Vec2::new(360.0, 282.0), -Vec2::X);
    // Beyond the corner's reach: 10.1 px above the top face.
    assert!(cast(circle, Vec2::new(100.0, 269.9)).is_none());
}

#[test]
fn a_box_cast_meets_boxes_and_circles_through_their_minkowski_sums_r_game_6() {
    let mut world = still_world();
    let block = BodyOrWall::Body(add(
        &mut world,
        BodyDesc::rect(Vec2::new(80.0, 40.0), Vec2::new(400.0, 300.0)),
    ));
    let ball = BodyOrWall::Body(add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 100.0))));
    let cast = |shape: Shape, origin: Vec2, direction: Vec2| {
        world.shape_cast(shape, origin, direction, f32::INFINITY, &bodies_only()).expect("valid")
    };
    // Box vs box: a 20 × 10 box along y = 290 meets the summed box (half 50 × 25) at
    // x = 350; the faces share y = 285 ..= 295, contact at its middle on the face x = 360.
    let small = Shape::rect(20.0, 10.0);
    assert_shape_hit(
        cast(small, Vec2::new(100.0, 290.0), Vec2::X),
        block,
        250.0,
        Vec2::new(360.0, 290.0),
        -Vec2::X,
    );
    // Upwards into the bottom face: the summed box's bottom at y = 325; the box's top face
    // x = 420 ..= 440 lies under the block's bottom face, contact at its middle.
    assert_shape_hit(
        cast(small, Vec2::new(430.0, 500.0), -Vec2::Y),
        block,
        175.0,
        Vec2::new(430.0, 320.0),
        Vec2::Y,
    );
    // Box vs circle: a 20 × 20 box along y = 100 touches the ball with its face at x = 380.
    let square = Shape::rect(20.0, 20.0);
    assert_shape_hit(
        cast(square, Vec2::new(100.0, 100.0), Vec2::X),
        ball,
        270.0,
        Vec2::new(380.0, 100.0),
        -Vec2::X,
    );
    // Along y = 78, 12 px above the box's corner path: its corner (c + (10, 10)) meets the
    // ball where the rounded sum's arc around (390, 90) is crossed, (x − 390)² + 12² = 20²,
    // x = 374; contact at the ball's surface point c + 20·(−0.8, −0.6) = (384, 88).
    assert_shape_hit(
        cast(square, Vec2::new(100.0, 78.0), Vec2::X),
        ball,
        274.0,
        Vec2::new(384.0, 88.0),
        Vec2::new(-0.8, -0.6),
    );
}

#[test]
fn a_shape_cast_starting_in_contact_hits_at_distance_zero_r_game_6() {
    let mut world = still_world();
    let ball = BodyOrWall::Body(add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))));
    let d = Vec2::new(0.0, -1.0);
    // Overlapping, and exactly touching (30 px apart for radii 20 + 10).
    for origin in [Vec2::new(410.0, 300.0), Vec2::new(430.0, 300.0)] {
        let hit = world
            .shape_cast(Shape::circle(10.0), origin, d, f32::INFINITY, &bodies_only())
            .expect("valid");
        assert_shape_hit(hit, ball, 0.0, origin, -d);
    }
}

// ------------------------------------------------------------------------------------------
// Walls
// ------------------------------------------------------------------------------------------

#[test]
fn a_switched_off_wall_is_not_hit_r_game_6_r_game_7() {
    let mut world = still_world(); // walls at x = 0, 800 and y = 0, 600
    let centre = Vec2::new(400.0, 300.0);
    world.set_wall_enabled(WallId::Right, false);
    let all = QueryFilter::default();
    assert_eq!(world.ray_cast(centre, Vec2::X, f32::INFINITY, &all), Ok(None), "open side");
    let box_cast = world.shape_cast(Shape::rect(40.0, 20.0), centre, Vec2::X, 1.0e6, &all);
    assert_eq!(box_cast, Ok(None), "a shape passes the open side too");
    world.set_wall_enabled(WallId::Right, true);
    let hit = world.ray_cast(centre, Vec2::X, f32::INFINITY, &all).expect("valid");
    assert_eq!(hit.map(|h| h.target), Some(BodyOrWall::Wall(WallId::Right)), "back on");
}

#[test]
fn rays_and_shape_casts_hit_the_walls_unless_the_filter_leaves_them_out_r_game_6() {
    let world = still_world(); // walls at x = 0, 800 and y = 0, 600
    let all = QueryFilter::default();
    let centre = Vec2::new(400.0, 300.0);
    let hit = world.ray_cast(centre, Vec2::X, f32::INFINITY, &all).expect("valid");
    let wall = |id| BodyOrWall::Wall(id);
    assert_eq!(
        hit,
        Some(RayHit {
            target: wall(WallId::Right),
            distance: 400.0,
            point: Vec2::new(800.0, 300.0),
            normal: -Vec2::X
        })
    );
    // Diagonally down-left from (150, 500): the floor (100 px down) before the left wall
    // (150 px left).
    let d = Vec2::new(-1.0, 1.0).normalize();
    let hit = world.ray_cast(Vec2::new(150.0, 500.0), d, f32::INFINITY, &all).expect("valid");
    let hit = hit.expect("a wall");
    assert_eq!(hit.target, wall(WallId::Floor));
    assert_close(hit.distance, 100.0 * 2f32.sqrt(), TOLERANCE, "distance");
    assert_vec_close(hit.normal, -Vec2::Y, "floor normal");
    // Left out by the filter, and beyond max_distance.
    assert_eq!(world.ray_cast(centre, Vec2::X, f32::INFINITY, &bodies_only()), Ok(None));
    assert_eq!(world.ray_cast(centre, Vec2::X, 399.0, &all), Ok(None));
    // A ray starting outside the world starts inside a wall.
    let outside = Vec2::new(-10.0, 300.0);
    let hit = world.ray_cast(outside, Vec2::X, f32::INFINITY, &all).expect("valid");
    assert_eq!(
        hit.map(|h| (h.target, h.distance, h.normal)),
        Some((wall(WallId::Left), 0.0, -Vec2::X))
    );
    // Every wall the ray crosses, nearest first: from outside the left wall to the right.
    let hits = world.ray_cast_all(outside, Vec2::X, f32::INFINITY, &all).expect("valid");
    let targets: Vec<_> = hits.iter().map(|h| (h.target, h.distance)).collect();
    assert_eq!(targets, [(wall(WallId::Left), 0.0), (wall(WallId::Right), 810.0)]);
    // Shape casts stop when the shape's edge reaches the wall: a circle of radius 10 down
    // to the floor, a 40 × 20 box left to the wall; contacts at the wall.
    let circle = world.shape_cast(Shape::circle(10.0), centre, Vec2::Y, f32::INFINITY, &all);
    assert_shape_hit(
        circle.expect("valid"),
        wall(WallId::Floor),
        290.0,
        Vec2::new(400.0, 600.0),
        -Vec2::Y,
    );
    let slab = world.shape_cast(Shape::rect(40.0, 20.0), centre, -Vec2::X, f32::INFINITY, &all);
    assert_shape_hit(
        slab.expect("valid"),
        wall(WallId::Left),
        380.0,
        Vec2::new(0.0, 300.0),
        Vec2::X,
    );
}

#[test]
fn a_body_in_front_of_a_wall_is_hit_before_it_r_game_6() {
    let mut world = still_world();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(700.0, 300.0)));
    let hit =
        world.ray_cast(Vec2::new(100.0, 300.0), Vec2::X, f32::INFINITY, &QueryFilter::default());
    assert_ray_hit(hit.expect("valid"), ball, 580.0, Vec2::new(680.0, 300.0), -Vec2::X);
}

// ------------------------------------------------------------------------------------------
// Point and box queries
// ------------------------------------------------------------------------------------------

#[test]
fn a_point_query_includes_the_boundary_r_game_6() {
    let mut world = still_world();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    let block = add(&mut world, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(430.0, 300.0)));
    let at = |p: Vec2| world.bodies_at_point(p, &QueryFilter::default()).expect("valid point");
    assert_eq!(at(Vec2::new(380.0, 300.0)), [ball], "on the circle");
    assert_eq!(at(Vec2::new(415.0, 300.0)), [ball, block], "in both");
    assert_eq!(at(Vec2::new(450.0, 320.0)), [block], "the box's corner");
    assert!(at(Vec2::new(450.01, 300.0)).is_empty());
    assert!(at(Vec2::new(5000.0, -300.0)).is_empty(), "far outside the world");
}

#[test]
fn a_box_query_reports_a_circle_near_its_corner_only_when_it_reaches_in_r_game_6() {
    let mut world = still_world();
    // The query box 300..=400 × 200..=300; a circle of radius 20 beyond its corner
    // (400, 300) along the diagonal, its box overlapping the query's.
    let d = Vec2::new(1.0, 1.0).normalize();
    let near = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0) + d * 19.5));
    let far = add(&mut world, BodyDesc::circle(20.0, Vec2::new(300.0, 200.0) - d * 20.5));
    let boxed = add(&mut world, BodyDesc::rect(Vec2::new(30.0, 30.0), Vec2::new(415.0, 250.0)));
    let found = world
        .bodies_in_aabb(Vec2::new(300.0, 200.0), Vec2::new(400.0, 300.0), &QueryFilter::default())
        .expect("valid box");
    assert_eq!(found, [near, boxed], "the far circle's box overlaps, the circle does not");
    assert!(!found.contains(&far));
    // A box of zero size is a point.
    let point = world.bodies_in_aabb(
        Vec2::new(415.0, 250.0),
        Vec2::new(415.0, 250.0),
        &QueryFilter::default(),
    );
    assert_eq!(point.expect("valid"), [boxed]);
}

// ------------------------------------------------------------------------------------------
// Filters
// ------------------------------------------------------------------------------------------

#[test]
fn layer_filters_and_exclusions_leave_bodies_out_of_every_query_r_game_6() {
    let mut world = still_world();
    // Two bodies on layer 1 and one on layer 2, in a row along y = 300.
    let on = |layer: u32| CollisionLayers::new(layer, u32::MAX);
    let first = add(&mut world, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)).with_layers(on(1)));
    let second = add(
        &mut world,
        BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(300.0, 300.0)).with_layers(on(2)),
    );
    let third = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)).with_layers(on(1)));
    let layer_2 = bodies_only().with_layers(CollisionLayers::new(u32::MAX, 2));
    let not_first = bodies_only().excluding(first);
    let (min, max) = (Vec2::new(150.0, 250.0), Vec2::new(450.0, 350.0));
    let origin = Vec2::new(100.0, 300.0);

    let everything = bodies_only();
    assert_eq!(world.bodies_in_aabb(min, max, &everything), Ok(vec![first, second, third]));
    assert_eq!(world.bodies_in_aabb(min, max, &layer_2), Ok(vec![second]));
    assert_eq!(world.bodies_in_aabb(min, max, &not_first), Ok(vec![second, third]));
    assert_eq!(world.bodies_at_point(Vec2::new(200.0, 300.0), &layer_2), Ok(vec![]));
    assert_eq!(world.bodies_at_point(Vec2::new(200.0, 300.0), &not_first), Ok(vec![]));
    let first_hit = |filter: &QueryFilter| {
        world.ray_cast(origin, Vec2::X, f32::INFINITY, filter).expect("valid").map(|h| h.target)
    };
    assert_eq!(first_hit(&everything), Some(BodyOrWall::Body(first)));
    assert_eq!(first_hit(&layer_2), Some(BodyOrWall::Body(second)));
    assert_eq!(first_hit(&not_first), Some(BodyOrWall::Body(second)));
    assert_eq!(first_hit(&not_first.clone().excluding(second)), Some(BodyOrWall::Body(third)));
    let all = world.ray_cast_all(origin, Vec2::X, f32::INFINITY, &layer_2).expect("valid");
    assert_eq!(all.iter().map(|h| h.target).collect::<Vec<_>>(), [BodyOrWall::Body(second)]);
    let swept = world
        .shape_cast(Shape::circle(5.0), origin, Vec2::X, f32::INFINITY, &not_first)
        .expect("valid");
    assert_eq!(swept.map(|h| h.target), Some(BodyOrWall::Body(second)));
    // A filter on no layer finds nothing; a body on no layer is found by no filter.
    let nothing = bodies_only().with_layers(CollisionLayers::NONE);
    assert_eq!(world.bodies_in_aabb(min, max, &nothing), Ok(vec![]));
    let hidden = add(
        &mut world,
        BodyDesc::circle(20.0, Vec2::new(600.0, 300.0)).with_layers(CollisionLayers::NONE),
    );
    assert!(
        !world
            .bodies_at_point(Vec2::new(600.0, 300.0), &everything)
            .expect("valid")
            .contains(&hidden)
    );
}

// ------------------------------------------------------------------------------------------
// Queries between steps see the bodies where they are
// ------------------------------------------------------------------------------------------

#[test]
fn queries_see_the_bodies_where_they_are_after_steps_and_edits_r_game_6() {
    let mut world = world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default());
    let filter = QueryFilter::default();
    let ball = add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 100.0)));
    let at = |world: &World, p: Vec2| world.bodies_at_point(p, &filter).expect("valid");
    assert_eq!(at(&world, Vec2::new(400.0, 100.0)), [ball]);
    // Half a second of free fall moves it ½·g·t²·(1 + 1/n) ≈ 123 px down (§3).
    run(&mut world, 60);
    let now = world.body(ball).expect("alive").position();
    assert!(now.y > 200.0, "it fell to {now}");
    assert!(at(&world, Vec2::new(400.0, 100.0)).is_empty(), "not where it was");
    assert_eq!(at(&world, now), [ball]);
    world.set_position(ball, Vec2::new(100.0, 100.0)).expect("teleport");
    assert_eq!(at(&world, Vec2::new(100.0, 100.0)), [ball]);
    assert!(at(&world, now).is_empty());
    world.grab(ball).expect("grab");
    world.move_held_directly(ball, Vec2::new(600.0, 100.0)).expect("move");
    assert_eq!(at(&world, Vec2::new(600.0, 100.0)), [ball]);
    let copy = world.clone();
    assert_eq!(at(&copy, Vec2::new(600.0, 100.0)), [ball], "a clone answers alike");
    world.remove_body(ball).expect("remove");
    assert!(at(&world, Vec2::new(600.0, 100.0)).is_empty());
    let fresh = add(&mut world, BodyDesc::circle(20.0, Vec2::new(600.0, 100.0)));
    assert_eq!(at(&world, Vec2::new(600.0, 100.0)), [fresh]);
    world.clear();
    assert!(at(&world, Vec2::new(600.0, 100.0)).is_empty());
    assert_eq!(world.ray_cast(Vec2::new(600.0, 100.0), Vec2::X, 1000.0, &bodies_only()), Ok(None));
}

// ------------------------------------------------------------------------------------------
// Hostile input
// ------------------------------------------------------------------------------------------

/// The fields an error names.
fn fields(result: Result<impl std::fmt::Debug, PhysicsError>) -> Vec<&'static str> {
    match result {
        Err(PhysicsError::Invalid(e)) => e.problems.iter().map(|p| p.field).collect(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn hostile_query_input_is_refused_with_the_field_and_range_named_r_game_6() {
    let mut world = still_world();
    add(&mut world, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    let hash = world.state_hash();
    let f = QueryFilter::default();
    let ok = Vec2::new(100.0, 300.0);
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    for bad in [Vec2::new(nan, 0.0), Vec2::new(0.0, inf), Vec2::new(-inf, 1.0)] {
        assert_eq!(fields(world.ray_cast(bad, Vec2::X, 10.0, &f)), ["origin"]);
        assert_eq!(fields(world.ray_cast_all(bad, Vec2::X, 10.0, &f)), ["origin"]);
        assert_eq!(
            fields(world.shape_cast(Shape::circle(5.0), bad, Vec2::X, 10.0, &f)),
            ["origin"]
        );
        assert_eq!(fields(world.bodies_at_point(bad, &f)), ["point"]);
        assert_eq!(fields(world.bodies_in_aabb(bad, ok, &f)), ["min"]);
        assert_eq!(fields(world.bodies_in_aabb(ok, bad, &f)), ["max"]);
        assert_eq!(fields(world.ray_cast(ok, bad, 10.0, &f)), ["direction"]);
    }
    // A zero direction is refused; one whose squared length underflows to 0 or overflows
    // is a direction all the same (physics_queries_extremes.rs checks its hits).
    assert_eq!(fields(world.ray_cast(ok, Vec2::ZERO, 10.0, &f)), ["direction"]);
    for fine in [Vec2::splat(1e-30), Vec2::splat(3e38)] {
        assert!(world.ray_cast(ok, fine, 10.0, &f).is_ok(), "{fine}");
    }
    for bad in [-1.0, -f32::MIN_POSITIVE, nan, -inf] {
        assert_eq!(fields(world.ray_cast(ok, Vec2::X, bad, &f)), ["max_distance"], "{bad}");
    }
    // Every bad field at once is named.
    assert_eq!(
        fields(world.ray_cast(Vec2::splat(nan), Vec2::ZERO, nan, &f)),
        ["origin", "direction", "max_distance"]
    );
    assert_eq!(
        fields(world.bodies_in_aabb(Vec2::new(10.0, 0.0), Vec2::new(5.0, 20.0), &f)),
        ["max"]
    );
    for shape in [Shape::circle(-1.0), Shape::circle(nan), Shape::circle(1e5)] {
        assert_eq!(fields(world.shape_cast(shape, ok, Vec2::X, 10.0, &f)), ["shape.radius"]);
    }
    let flat = Shape::Rect { half_extents: Vec2::new(5.0, inf) };
    assert_eq!(fields(world.shape_cast(flat, ok, Vec2::X, 10.0, &f)), ["shape.half_extents"]);
    // The message names the allowed range.
    let message = world.ray_cast(ok, Vec2::X, -1.0, &f).expect_err("refused").to_string();
    assert!(message.contains("max_distance") && message.contains("0 ..= infinity"), "{message}");
    // An infinite max distance, a ray along an axis from far away and a zero-sized cast
    // shape are fine; nothing changed.
    assert!(world.ray_cast(ok, Vec2::X, inf, &f).expect("valid").is_some());
    assert!(
        world
            .ray_cast(Vec2::new(-1e30, 300.0), Vec2::X, inf, &bodies_only())
            .expect("valid")
            .is_some()
    );
    assert!(world.shape_cast(Shape::circle(0.0), ok, Vec2::X, inf, &f).expect("valid").is_some());
    assert_eq!(world.state_hash(), hash);
}
