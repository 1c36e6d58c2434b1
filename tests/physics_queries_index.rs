//! Spatial queries through the index (R-GAME-6): point, box, ray and shape-cast queries on
//! random scenes find exactly what a scan of every body finds. The exact geometry of each
//! test is checked against analytic values in `physics_queries.rs`; here only the lookup
//! is in question: which bodies the grid offers, and when a cast stops walking.

mod common;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyOrWall, CollisionLayers, PhysicsConfig, QueryFilter, Shape, World,
};
use common::{add, no_gravity, run, world_with};
use glam::Vec2;
use proptest::prelude::*;

/// Bodies only: the walls left out.
fn bodies_only() -> QueryFilter {
    QueryFilter::default().with_walls(false)
}

/// Whether the body overlaps the box, by the textbook tests: boxes on both axes; for a
/// circle, the box's point nearest its centre within the radius.
fn scan_overlaps(shape: Shape, position: Vec2, min: Vec2, max: Vec2) -> bool {
    let half = shape.half_size();
    let boxes = (position - half).cmple(max).all() && min.cmple(position + half).all();
    match shape {
        Shape::Circle { radius } => {
            boxes && (position.clamp(min, max) - position).length_squared() <= radius * radius
        }
        Shape::Rect { .. } => boxes,
    }
}

/// A random scene: small bodies (12 … 40 px) and a few long ones (up to 1500 px), some
/// static, on random layers, stepped a few times so that they settle into contact.
fn random_world(bodies: &[(bool, f32, f32, f32, f32, bool, u32)], steps: usize) -> World {
    let size = Vec2::new(1600.0, 900.0);
    let mut world = world_with(size, PhysicsConfig::default());
    for &(circle, x, y, a, b, fixed, layer) in bodies {
        let position = Vec2::new(x, y) * size;
        let shape = if circle { Shape::circle(a) } else { Shape::rect(2.0 * a, 2.0 * b) };
        let mut desc =
            BodyDesc::new(shape, position).with_layers(CollisionLayers::new(1 << layer, u32::MAX));
        if fixed {
            desc = desc.fixed();
        }
        add(&mut world, desc);
    }
    run(&mut world, steps);
    world
}

fn body_strategy() -> impl Strategy<Value = (bool, f32, f32, f32, f32, bool, u32)> {
    let size = prop_oneof![9 => 12.0f32..40.0, 1 => 40.0f32..750.0];
    (
        any::<bool>(),
        0.0f32..=1.0,
        0.0f32..=1.0,
        size,
        12.0f32..40.0,
        proptest::bool::weighted(0.2),
        0u32..3,
    )
}

/// Every hit of a cast, by a scan: each body alone in a world of the same size, where the
/// index holds only it. The exact tests start from the cast's origin whatever else is in the
/// world, so the distances must be equal to the last bit.
fn scanned_casts(
    world: &World,
    shape: Option<Shape>,
    origin: Vec2,
    direction: Vec2,
    max: f32,
) -> Vec<(BodyOrWall, f32)> {
    let (min, bounds_max) = world.bounds();
    let mut found = Vec::new();
    for (handle, body) in world.bodies() {
        // Walls far beyond the bodies: a body pushed against a wall may have its centre
        // just outside the world, where no body may be added.
        let mut alone = world_with(bounds_max - min, no_gravity());
        alone.set_bounds(min - 1000.0, bounds_max + 1000.0).expect("valid bounds");
        add(&mut alone, body.desc());
        let filter = bodies_only();
        let distance = match shape {
            None => {
                alone.ray_cast(origin, direction, max, &filter).expect("valid").map(|h| h.distance)
            }
            Some(s) => alone
                .shape_cast(s, origin, direction, max, &filter)
                .expect("valid")
                .map(|h| h.distance),
        };
        found.extend(distance.map(|d| (BodyOrWall::Body(handle), d)));
    }
    found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    found
}

/// The first hit of a ray (`shape` None) or a shape cast, as (target, distance).
fn first_hit(
    world: &World,
    shape: Option<Shape>,
    origin: Vec2,
    direction: Vec2,
    max: f32,
) -> Option<(BodyOrWall, f32)> {
    let filter = bodies_only();
    match shape {
        None => world
            .ray_cast(origin, direction, max, &filter)
            .map(|h| h.map(|h| (h.target, h.distance))),
        Some(s) => world
            .shape_cast(s, origin, direction, max, &filter)
            .map(|h| h.map(|h| (h.target, h.distance))),
    }
    .expect("valid cast")
}

/// A point (as a fraction of the world, a little beyond it too), a box size and a filter
/// layer (3: the default filter).
fn box_query() -> impl Strategy<Value = ((f32, f32), (f32, f32), u32)> {
    ((-0.2f32..1.2, -0.2f32..1.2), (0.0f32..300.0, 0.0f32..300.0), 0u32..4)
}

/// An origin (as a fraction of the world, also beyond it), an angle, a max distance (often
/// infinite), the kind of cast (0 ray, 1 circle, 2 box) and the cast shape's size.
fn cast_query() -> impl Strategy<Value = ((f32, f32), f32, f32, u32, f32)> {
    let max = prop_oneof![Just(f32::INFINITY), 0.0f32..1500.0];
    ((-0.3f32..1.3, -0.3f32..1.3), 0.0f32..std::f32::consts::TAU, max, 0u32..3, 1.0f32..30.0)
}

fn cases(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(cases(48))]

    /// The index finds exactly the bodies a scan of every body finds, for points and boxes
    /// anywhere (also outside the world), whatever the layers of the filter.
    #[test]
    fn point_and_box_queries_match_a_scan_of_every_body_r_game_6(
        bodies in proptest::collection::vec(body_strategy(), 0..120),
        steps in 0usize..4,
        queries in proptest::collection::vec(box_query(), 1..12),
    ) {
        let world = random_world(&bodies, steps);
        let size = Vec2::new(1600.0, 900.0);
        for ((x, y), (w, h), layer) in queries {
            let point = Vec2::new(x, y) * size;
            let filter = match layer {
                3 => QueryFilter::default(),
                l => QueryFilter::default().with_layers(CollisionLayers::new(u32::MAX, 1 << l)),
            };
            let scan_point: Vec<_> = world
                .bodies()
                .filter(|(h, b)| b.contains(point) && filter.accepts(*h, b))
                .map(|(h, _)| h)
                .collect();
            prop_assert_eq!(world.bodies_at_point(point, &filter).expect("valid"), scan_point);
            let (min, max) = (point, point + Vec2::new(w, h));
            let scan_box: Vec<_> = world
                .bodies()
                .filter(|(_, b)| scan_overlaps(b.shape(), b.position(), min, max))
                .filter(|(h, b)| filter.accepts(*h, b))
                .map(|(h, _)| h)
                .collect();
            prop_assert_eq!(world.bodies_in_aabb(min, max, &filter).expect("valid"), scan_box);
        }
    }

    /// The first hit and all hits of rays and shape casts through the index are those of a
    /// scan of every body, to the last bit.
    #[test]
    fn casts_find_the_hits_a_scan_of_every_body_finds_r_game_6(
        bodies in proptest::collection::vec(body_strategy(), 1..300),
        steps in 0usize..3,
        casts in proptest::collection::vec(cast_query(), 1..6),
    ) {
        let world = random_world(&bodies, steps);
        let size = Vec2::new(1600.0, 900.0);
        for ((x, y), angle, max, kind, r) in casts {
            let origin = Vec2::new(x, y) * size;
            let direction = Vec2::from_angle(angle);
            let shape = match kind {
                0 => None,
                1 => Some(Shape::circle(r)),
                _ => Some(Shape::rect(2.0 * r, r)),
            };
            let scan = scanned_casts(&world, shape, origin, direction, max);
            let first = first_hit(&world, shape, origin, direction, max);
            prop_assert_eq!(first, scan.first().copied());
            if shape.is_none() {
                let all = world.ray_cast_all(origin, direction, max, &bodies_only());
                let all = all.expect("valid").into_iter().map(|h| (h.target, h.distance));
                prop_assert_eq!(all.collect::<Vec<_>>(), scan);
            }
        }
    }
}

/// R-GAME-6: a sleeping world keeps its query index from step to step (no body moves), and
/// every way a body moves again makes it stale: a teleport between steps, and a step after
/// a wake. Each query is checked against the bodies' positions; in a debug build the index
/// also checks itself against the bodies and panics if it was kept when it must not be.
#[test]
fn queries_in_a_sleeping_world_stay_right_across_steps_and_a_teleport_r_game_6() {
    let scene = bevy_sandbox_physics::physics::scenes::tower(4, 40.0);
    let mut world = scene.build(PhysicsConfig::default()).unwrap();
    let handles: Vec<_> = world.handles().collect();
    assert!(common::run_until_asleep(&mut world, 600).is_some(), "the tower falls asleep");
    let found_at = |world: &World, handle| {
        let centre = world.body(handle).unwrap().position();
        world.bodies_at_point(centre, &bodies_only()).unwrap()
    };
    for _ in 0..3 {
        run(&mut world, 20);
        assert_eq!(world.stats().awake, 0);
        for &handle in &handles {
            assert_eq!(found_at(&world, handle), vec![handle], "asleep");
        }
    }
    // A teleport between steps: found at the new place at once, and no longer at the old.
    let top = handles[3];
    let old = world.body(top).unwrap().position();
    world.set_position(top, old - Vec2::new(300.0, 0.0)).unwrap();
    assert_eq!(found_at(&world, top), vec![top], "teleported");
    assert!(world.bodies_at_point(old, &bodies_only()).unwrap().is_empty(), "left its place");
    // It falls after the next steps: the index follows it.
    run(&mut world, 30);
    assert!(world.body(top).unwrap().position().y > old.y - 1.0, "it fell");
    assert_eq!(found_at(&world, top), vec![top], "after falling");
}
