//! Regression tests for the defects the property tests, hostile-input tests and the fuzzer of
//! issue 7 found. Each names the defect, the shrunk case it came from, and why it is not
//! vacuous (it failed before the fix).

mod invariants;

use bevy_sandbox_physics::physics::{BodyDesc, PhysicsConfig, World, scenes};
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

/// Issue 7, found by the energy property (gravity toggled off over a resting pile gave
/// energy from nothing): the impulses kept for warm starting carried the weight of the
/// resting boxes (m·g·dt per step). Re-applied after gravity was switched off (or changed
/// through the config) they pushed the pile apart: a settled 55-box pyramid flew apart at
/// up to 9 px/s. A gravity or time-step change now forgets them. Before the fix the kinetic
/// energy after the toggle was 3.5·10⁵ instead of ≈ 0.
#[test]
fn switching_gravity_off_does_not_launch_a_resting_pile_r_slp_4() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let settled = || {
        let mut world = scenes::pyramid(10, 30.0).build(config.clone()).expect("scene");
        for _ in 0..600 {
            world.step(config.time_step).expect("step");
        }
        assert!(world.kinetic_energy() < 1e-3, "settled: {}", world.kinetic_energy());
        world
    };
    let mut toggled = settled();
    toggled.set_gravity_enabled(false);
    let mut weightless = settled();
    weightless
        .set_config(PhysicsConfig { gravity: Vec2::ZERO, ..config.clone() })
        .expect("valid config");
    for world in [&mut toggled, &mut weightless] {
        for _ in 0..60 {
            world.step(config.time_step).expect("step");
            let fastest = world.bodies().map(|(_, b)| b.velocity().length()).fold(0.0, f32::max);
            assert!(fastest < 0.01, "a body of the weightless pile moves at {fastest} px/s");
        }
    }
}
