//! Regression tests for the defects the property tests, hostile-input tests and the fuzzer of
//! issue 7 found. Each names the defect, the shrunk case it came from, and why it is not
//! vacuous (it failed before the fix).

mod invariants;

use bevy_sandbox_physics::physics::{BodyDesc, PhysicsConfig, World};
use glam::Vec2;
use invariants::*;

/// Issue 7, found by `random_worlds_and_operations_keep_every_invariant` (shrunk to one
/// circle of radius 327 px in a 200 × 200 px world): the emergency brake centred a body
/// wider than the world, then pushed it out of the left wall and back out of the right one,
/// leaving its centre at (−115, −115), outside the world. A body that cannot fit must stay
/// centred on that axis (R-POS-3). Before the fix this failed after the first step.
#[test]
fn a_body_larger_than_the_world_stays_centred_r_pos_3() {
    let mut world = World::new(Vec2::splat(200.0), PhysicsConfig::default()).expect("world");
    let big = world.add_body(BodyDesc::circle(327.0, Vec2::new(0.5, 100.0))).expect("body");
    let wide = world
        .add_body(BodyDesc::rect(Vec2::new(300.0, 40.0), Vec2::new(190.0, 20.0)))
        .expect("body");
    for _ in 0..120 {
        world.step(PhysicsConfig::default().time_step).expect("step");
        check_finite(&world).expect("finite");
        check_contained(&world).expect("contained");
    }
    let centre = world.body(big).expect("big").position();
    assert!((centre - Vec2::splat(100.0)).length() < 1e-3, "circle at {centre}");
    let wide = world.body(wide).expect("wide").position();
    assert!((wide.x - 100.0).abs() < 1e-3, "too wide on x only: centred on x, at {wide}");
}
