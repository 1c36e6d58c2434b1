//! Bevy's ambiguity checker finds no pair of our systems with conflicting access and no
//! order, in any schedule the plugin adds systems to.
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::ecs::schedule::{
    InternedScheduleLabel, LogLevel, ScheduleBuildSettings, ScheduleLabel, Schedules,
};
use bevy::prelude::*;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Builds `label`'s schedule with ambiguities as errors; returns the error text, if any.
fn ambiguities(app: &mut App, label: InternedScheduleLabel) -> Option<String> {
    let world = app.world_mut();
    let mut schedule = world.resource_mut::<Schedules>().remove(label)?;
    schedule.set_build_settings(ScheduleBuildSettings {
        ambiguity_detection: LogLevel::Error,
        ..default()
    });
    let error = schedule.initialize(world).err().map(|e| e.to_string(schedule.graph(), world));
    world.resource_mut::<Schedules>().insert(schedule);
    error
}

#[test]
fn no_ambiguities_among_the_plugin_systems() {
    let plugin = SandboxPhysicsPlugin::default().walls_follow_window(true);
    let mut app = app_with(plugin, frame_60());
    for label in [
        FixedUpdate.intern(),
        Update.intern(),
        PreUpdate.intern(),
        PostUpdate.intern(),
        PreStartup.intern(),
    ] {
        if let Some(error) = ambiguities(&mut app, label) {
            panic!("{label:?}: {error}");
        }
    }
    // The schedules still run as built.
    frames(&mut app, 3);
    assert_eq!(steps(&app), 6);
}
