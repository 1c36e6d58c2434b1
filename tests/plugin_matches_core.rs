//! The plugin adds no physics of its own: a scene built from entities evolves bit for bit as
//! the same scene in a bare core `World`, step for step (R-STEP-1 through the Bevy layer).
#![cfg(feature = "bevy")]

mod plugin_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy_sandbox_physics::physics::PhysicsConfig;
use bevy_sandbox_physics::physics::scenes::{self, Scene};
use bevy_sandbox_physics::plugin::{CoordinateMapping, body_components};
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Builds `scene` both ways and compares them after every step for `count` steps.
fn assert_plugin_matches_core(scene: &Scene, count: u64) {
    let config = PhysicsConfig::default();
    let mut core = scene.build(config.clone()).expect("valid scene");

    // Bevy bounds whose top-left corner is the origin: the mapping is then (x, −y), exact in
    // both directions, so the entities start at the scene's positions bit for bit.
    let bounds = Rect::from_corners(Vec2::new(0.0, -scene.size.y), Vec2::new(scene.size.x, 0.0));
    let mapping = CoordinateMapping::from_bounds(bounds);
    // Frames of exactly one fixed step.
    let frame = Duration::from_secs_f64(1.0 / 120.0);
    let mut app = app_with(SandboxPhysicsPlugin::default().bounds(bounds), frame);
    let entities: Vec<Entity> = scene
        .bodies
        .iter()
        .map(|desc| {
            let components = body_components(desc, mapping);
            let position = components.3.translation.truncate();
            assert_eq!(mapping.position_to_core(position), desc.position);
            spawn(&mut app, components)
        })
        .collect();

    let mut slept = false;
    for step in 1..=count {
        app.update();
        core.step(config.time_step).expect("step");
        let plugin = physics(&app).world();
        assert_eq!(plugin.step_count(), core.step_count(), "one step per frame");
        assert_eq!(
            plugin.state_hash(),
            core.state_hash(),
            "{}: step {step}: the plugin's world differs from the core's",
            scene.name
        );
        slept |= plugin.stats().sleeping > 0;
    }
    assert!(slept, "{}: the comparison reached sleeping islands", scene.name);
    // The components show the same state, in Bevy's frame.
    for (&entity, (handle, body)) in entities.iter().zip(core.bodies()) {
        assert_eq!(physics(&app).handle(entity), Some(handle));
        let pose = get::<PhysicsPose>(&app, entity).current();
        assert_eq!(pose.translation, mapping.position_to_bevy(body.position()));
        assert_eq!(get::<LinearVelocity>(&app, entity).0, mapping.vector_to_bevy(body.velocity()));
        assert_eq!(app.world().get::<Sleeping>(entity).is_some(), body.is_sleeping());
    }
}

#[test]
fn a_mixed_scene_through_the_plugin_equals_the_core_step_for_step() {
    assert_plugin_matches_core(&scenes::mixed(40, 11), 900);
}

#[test]
fn a_pyramid_through_the_plugin_equals_the_core_step_for_step() {
    assert_plugin_matches_core(&scenes::pyramid(8, 40.0), 600);
}
