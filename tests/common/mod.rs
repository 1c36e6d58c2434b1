//! Helpers shared by the physics tests.
#![allow(dead_code)]

use bevy_sandbox_physics::physics::{Body, BodyDesc, BodyHandle, PhysicsConfig, World, collide};
use glam::Vec2;

/// Default time step, 1/120 s.
pub const DT: f32 = 1.0 / 120.0;

/// Asserts |actual − expected| ≤ tolerance, with both values in the message.
#[track_caller]
pub fn assert_close(actual: f32, expected: f32, tolerance: f32, what: &str) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: got {actual}, expected {expected} ± {tolerance} (off by {})",
        (actual - expected).abs()
    );
}

/// Asserts |actual − expected| ≤ relative·|expected|.
#[track_caller]
pub fn assert_relative(actual: f32, expected: f32, relative: f32, what: &str) {
    assert_close(actual, expected, relative * expected.abs(), what);
}

/// A world of `size` with `config`.
pub fn world_with(size: Vec2, config: PhysicsConfig) -> World {
    World::new(size, config).expect("valid world")
}

/// A default 800 × 600 world.
pub fn world() -> World {
    world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default())
}

/// Config without gravity.
pub fn no_gravity() -> PhysicsConfig {
    PhysicsConfig { gravity: Vec2::ZERO, ..PhysicsConfig::default() }
}

/// Steps `n` times at the config's time step.
pub fn run(world: &mut World, n: usize) {
    let dt = world.config().time_step;
    for _ in 0..n {
        world.step(dt).expect("step");
    }
}

/// Adds a body, panicking with the error if refused.
pub fn add(world: &mut World, desc: BodyDesc) -> BodyHandle {
    world.add_body(desc).expect("valid body")
}

/// Position of a body.
pub fn pos(world: &World, h: BodyHandle) -> Vec2 {
    world.body(h).expect("body exists").position()
}

/// Velocity of a body.
pub fn vel(world: &World, h: BodyHandle) -> Vec2 {
    world.body(h).expect("body exists").velocity()
}

/// Steps until every dynamic body sleeps or `max_steps` pass; returns the steps taken.
pub fn run_until_asleep(world: &mut World, max_steps: usize) -> Option<usize> {
    let dt = world.config().time_step;
    for i in 1..=max_steps {
        world.step(dt).expect("step");
        if world.bodies().all(|(_, b)| !b.is_dynamic() || b.is_sleeping()) {
            return Some(i);
        }
    }
    None
}

/// The deepest overlap of any two bodies, px, by testing every pair (sleeping pairs have no
/// contact to report it).
pub fn deepest_pair(w: &World) -> f32 {
    deepest_pair_among(w, |_| true)
}

/// [`deepest_pair`] among the bodies `keep` selects, px: every pair whose boxes overlap
/// along x, found by a sweep over the boxes sorted by their left edge.
pub fn deepest_pair_among(w: &World, keep: impl Fn(&Body) -> bool) -> f32 {
    let mut bodies: Vec<_> = w
        .bodies()
        .filter(|(_, b)| keep(b))
        .map(|(_, b)| (b.shape(), b.position(), b.shape().half_size()))
        .collect();
    bodies.sort_by(|a, b| (a.1.x - a.2.x).total_cmp(&(b.1.x - b.2.x)));
    let mut deepest = 0.0_f32;
    for (i, &(sa, pa, ha)) in bodies.iter().enumerate() {
        for &(sb, pb, hb) in &bodies[i + 1..] {
            if pb.x - hb.x > pa.x + ha.x {
                break;
            }
            if let Some(m) = collide(&sa, pa, &sb, pb) {
                deepest = deepest.max(m.depth);
            }
        }
    }
    deepest
}

/// How deep any body is inside the walls, px (from the bodies, not the contacts: a sleeping
/// body has no contact).
pub fn deepest_in_wall(w: &World) -> f32 {
    let (min, max) = w.bounds();
    w.bodies()
        .map(|(_, b)| {
            let (low, high) = b.aabb();
            (min - low).max_element().max((high - max).max_element())
        })
        .fold(0.0, f32::max)
}

/// The names the `pub use` statements of `source` export, in order (for the public-API
/// tests).
pub fn exported(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find("\npub use ") {
        let statement = &rest[start + 9..];
        let end = statement.find(';').expect("a pub use ends with ;");
        let list = &statement[..end];
        let inner = match (list.find('{'), list.rfind('}')) {
            (Some(open), Some(close)) => &list[open + 1..close],
            _ => list.rsplit("::").next().unwrap_or(list),
        };
        names.extend(inner.split(',').map(str::trim).filter(|n| !n.is_empty()).map(String::from));
        rest = &statement[end..];
    }
    names
}

/// Twelve boxes of 50 × 51.64 px stacked from the floor to the ceiling of a 600 px world:
/// together 19.68 px taller than the room they have, so their 13 contacts (11 between boxes,
/// the floor and the ceiling) overlap by 19.68 px in all however they move, and boxes do not
/// turn. Returns the world and the boxes, bottom first.
pub fn wedged_column() -> (World, Vec<BodyHandle>) {
    let mut w = world();
    let boxes = (0..12)
        .map(|i| {
            let y = 600.0 - (i as f32 + 0.5) * 50.0;
            add(&mut w, BodyDesc::rect(Vec2::new(50.0, 51.64), Vec2::new(400.0, y)))
        })
        .collect();
    (w, boxes)
}
