//! Helpers shared by the plugin tests: a headless app with a manual clock (as Avian's
//! `create_app`/`tick_app` and leafwing's `build_app`).
#![allow(dead_code)]

use std::time::Duration;

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::prelude::*;

/// 1/60 s.
pub fn frame_60() -> Duration {
    Duration::from_secs_f64(1.0 / 60.0)
}

/// 1/144 s.
pub fn frame_144() -> Duration {
    Duration::from_secs_f64(1.0 / 144.0)
}

/// A headless app (`MinimalPlugins`) with the plugin, whose clock advances `frame` per update.
///
/// The first update has already run: it starts the clocks (its delta is 0, so no step ran).
pub fn app_with(plugin: SandboxPhysicsPlugin, frame: Duration) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugin));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    app.finish();
    app.cleanup();
    app.update();
    app
}

/// `app_with` the default plugin and 1/60 s frames.
pub fn app() -> App {
    app_with(SandboxPhysicsPlugin::default(), frame_60())
}

/// Runs `n` frames.
pub fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// Runs frames until one step has happened (with 1/60 s frames: one frame, two steps).
pub fn step_once(app: &mut App) {
    let before = steps(app);
    while steps(app) == before {
        app.update();
    }
}

/// Steps taken by the core so far.
pub fn steps(app: &App) -> u64 {
    app.world().resource::<PhysicsWorld>().step_count()
}

/// The physics resource.
pub fn physics(app: &App) -> &PhysicsWorld {
    app.world().resource::<PhysicsWorld>()
}

/// Spawns `bundle` and returns its entity.
pub fn spawn(app: &mut App, bundle: impl Bundle) -> Entity {
    app.world_mut().spawn(bundle).id()
}

/// A component of `entity`.
pub fn get<C: Component + Clone>(app: &App, entity: Entity) -> C {
    app.world().get::<C>(entity).cloned().expect("the entity has the component")
}

/// The entity's drawn position (Transform x, y).
pub fn drawn(app: &App, entity: Entity) -> Vec2 {
    get::<Transform>(app, entity).translation.truncate()
}

/// The plugin's warnings since the last call.
pub fn take_warnings(app: &mut App) -> Vec<PhysicsWarning> {
    app.world_mut().resource_mut::<Messages<PhysicsWarning>>().drain().collect()
}

/// The physics settings with gravity switched off.
pub fn gravity_off(app: &mut App) {
    app.world_mut().resource_mut::<PhysicsControls>().gravity_enabled = false;
}
