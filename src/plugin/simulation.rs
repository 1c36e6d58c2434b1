//! [`PhysicsSimulationPlugin`]: the core world as a resource, stepped in its own schedule.

use bevy::app::{RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::time::TimeSystems;

use super::DEFAULT_BOUNDS;
use super::components::{
    AngularVelocity, Collider, LinearVelocity, NoInterpolation, PhysicsMaterial, PhysicsPose,
    RigidBody, Sleeping, VisualScale,
};
use super::config::PhysicsClocks;
use super::controls::{
    PhysicsBounds, PhysicsControls, PhysicsTimeScale, WallInsets, WallsFollowWindow,
};
use super::coords::CoordinateMapping;
use super::drag::{DragState, release_all};
use super::events::{CollisionEnd, CollisionEventsEnabled, CollisionStart, Sensor};
use super::motion::{ConstantForce, ConstantTorque, GravityScale, PhysicsWalls};
use super::physics_world::{InForce, PhysicsWarning, PhysicsWorld, WarnAndSend};
use super::resources::RestoreRemoved;
use super::schedule::{PHASES, PhysicsSchedule, PhysicsSystems, run_physics_schedule};
use super::{config, controls, events, lifecycle, motion, recording, resources, sync};
use crate::physics::{CollisionLayers, Input, Material, PhysicsConfig, WallId, World};

/// The simulation: [`PhysicsWorld`], [`PhysicsConfig`], [`PhysicsControls`],
/// [`PhysicsBounds`], and the fixed step that keeps the core and the entities in step
/// ([`PhysicsSchedule`]). Every other part of
/// [`SandboxPhysicsPlugin`](super::SandboxPhysicsPlugin) builds on it.
#[derive(Clone, Debug)]
pub struct PhysicsSimulationPlugin {
    /// The initial config (an app that already has a `PhysicsConfig` resource keeps that one).
    pub config: PhysicsConfig,
    /// The initial walls in Bevy world coordinates. Their top-left corner becomes the core's
    /// origin for good.
    pub bounds: Rect,
    /// Keep the walls at the primary window's rectangle around the origin, minus
    /// [`WallInsets`], at the start ([`WallsFollowWindow`] switches it at run time).
    pub walls_follow_window: bool,
}

impl Default for PhysicsSimulationPlugin {
    fn default() -> Self {
        Self {
            config: PhysicsConfig::default(),
            bounds: DEFAULT_BOUNDS,
            walls_follow_window: false,
        }
    }
}

impl PhysicsSimulationPlugin {
    /// The core world for the plugin's settings; invalid ones fall back to the defaults
    /// with a warning.
    fn build_world(&self, config: &mut PhysicsConfig) -> (World, Rect) {
        let mut bounds = self.bounds;
        if let Err(error) = config.validate() {
            warn!("SandboxPhysicsPlugin: config refused, using the defaults: {error}");
            *config = PhysicsConfig::default();
        }
        loop {
            match World::new(bounds.size(), config.clone()) {
                Ok(world) => return (world, bounds),
                Err(error) if bounds != DEFAULT_BOUNDS => {
                    warn!(
                        "SandboxPhysicsPlugin: bounds {bounds:?} refused ({error}); using {:?}",
                        DEFAULT_BOUNDS
                    );
                    bounds = DEFAULT_BOUNDS;
                }
                // The defaults are valid; the core's own tests prove it.
                Err(error) => panic!("the default physics world is invalid: {error}"),
            }
        }
    }
}

/// Seconds since the first reading, from Bevy's platform clock (on the web:
/// `performance.now()` through `web-time`); the core's phase clock on wasm32 (R-WEB-1).
#[cfg(target_arch = "wasm32")]
fn web_clock_seconds() -> f64 {
    use bevy::platform::time::Instant;
    use std::sync::OnceLock;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64()
}

impl Plugin for PhysicsSimulationPlugin {
    fn build(&self, app: &mut App) {
        // The core times its phases with std's `Instant`, which panics in a browser; there it
        // reads Bevy's web clock (`performance.now()`) instead, so the step-time plot works.
        #[cfg(target_arch = "wasm32")]
        crate::physics::set_phase_clock(web_clock_seconds);
        let mut config =
            app.world().get_resource::<PhysicsConfig>().cloned().unwrap_or(self.config.clone());
        let (world, bounds) = self.build_world(&mut config);
        let mapping = CoordinateMapping::from_bounds(bounds);
        let physics = PhysicsWorld::new(world, mapping);
        let in_force =
            WorldInForce { shared: physics.in_force.clone(), mapping, size: bounds.size() };

        app.insert_resource(PhysicsClocks::new(&config, 1.0))
            .insert_resource(config)
            .insert_resource(physics)
            .insert_resource(in_force)
            .insert_resource(PhysicsBounds(bounds))
            .init_resource::<WallInsets>()
            .init_resource::<controls::WallInsetsInForce>()
            .insert_resource(WallsFollowWindow(self.walls_follow_window))
            .init_resource::<PhysicsControls>()
            .init_resource::<PhysicsTimeScale>()
            .init_resource::<sync::SleepMarkerChanges>()
            .init_resource::<sync::WaitingBodies>()
            .init_resource::<lifecycle::UnlinkLater>()
            .init_resource::<PhysicsWalls>()
            .init_resource::<motion::GameComponentRemovals>()
            .add_message::<PhysicsWarning>()
            .add_message::<CollisionStart>()
            .add_message::<CollisionEnd>()
            .register_type::<PhysicsConfig>()
            .register_type::<Material>()
            .register_type::<PhysicsControls>()
            .register_type::<PhysicsTimeScale>()
            .register_type::<PhysicsBounds>()
            .register_type::<WallInsets>()
            .register_type::<WallsFollowWindow>()
            .register_type::<Collider>()
            .register_type::<RigidBody>()
            .register_type::<PhysicsMaterial>()
            .register_type::<LinearVelocity>()
            .register_type::<AngularVelocity>()
            .register_type::<Sleeping>()
            .register_type::<NoInterpolation>()
            .register_type::<VisualScale>()
            .register_type::<PhysicsPose>()
            .register_type::<PhysicsWalls>()
            .register_type::<ConstantForce>()
            .register_type::<ConstantTorque>()
            .register_type::<GravityScale>()
            .register_type::<Sensor>()
            .register_type::<CollisionEventsEnabled>()
            .register_type::<CollisionLayers>();

        // A removed resource is put back, with a warning (R-PLUG-1): the world first, since
        // the others come back with what its core holds.
        let follow = self.walls_follow_window;
        app.restore_when_removed(
            "an empty world with the settings in force; every body entity joins it again on \
             the next step, from its components",
            rebuilt_world,
        )
        .restore_when_removed("the config in force", |world| {
            world.resource::<PhysicsWorld>().world().config().clone()
        })
        .restore_when_removed("running, gravity as in force", |world| PhysicsControls {
            gravity_enabled: world.resource::<PhysicsWorld>().world().gravity_enabled(),
            ..default()
        })
        .restore_when_removed("the walls in force", |world| {
            let physics = world.resource::<PhysicsWorld>();
            let (min, max) = physics.world().bounds();
            PhysicsBounds(physics.mapping().rect_to_bevy(min, max))
        })
        .restore_when_removed("the last valid insets", |world| {
            world.resource::<controls::WallInsetsInForce>().0
        })
        .restore_when_removed("as at startup", move |_| WallsFollowWindow(follow))
        .restore_when_removed("the time scale in force", |world| {
            PhysicsTimeScale(world.resource::<PhysicsClocks>().scale)
        })
        .restore_when_removed("the walls switched as in force", |world| {
            let core = world.resource::<PhysicsWorld>();
            let mut walls = PhysicsWalls::NONE;
            for wall in WallId::ALL {
                walls.set(wall, core.world().wall_enabled(wall));
            }
            walls
        });

        // The physics runs in its own single-threaded schedule, started by one system in
        // `FixedUpdate`: the multi-threaded executor would hand each system to a worker
        // thread, a round trip per system and step (`benches/plugin_overhead.rs` shows it),
        // while the systems run in a fixed order anyway and a second thread has nothing to do.
        let mut schedule = Schedule::new(PhysicsSchedule);
        schedule.set_executor(SingleThreadedExecutor::new());
        app.add_schedule(schedule)
            .configure_sets(PhysicsSchedule, PHASES.chain())
            .add_systems(
                PhysicsSchedule,
                (
                    (
                        lifecycle::remove_despawned_bodies,
                        controls::clear_bodies.run_if(controls::clear_requested),
                        config::apply_config,
                        controls::apply_controls,
                        motion::apply_walls,
                        sync::register_bodies,
                        sync::apply_user_writes,
                        motion::apply_removed_game_components,
                        motion::apply_motion_components,
                        events::apply_contact_components,
                        recording::play_back_inputs.run_if(recording::playing_back),
                    )
                        .chain()
                        .in_set(PhysicsSystems::Prepare),
                    sync::step_world.in_set(PhysicsSystems::Step),
                    (
                        sync::write_back,
                        events::send_collision_events.run_if(events::collision_events_pending),
                        sync::apply_sleep_markers.run_if(sync::sleep_markers_pending),
                    )
                        .chain()
                        .in_set(PhysicsSystems::Writeback),
                ),
            )
            .configure_sets(FixedUpdate, PHASES.chain())
            .add_systems(FixedUpdate, run_physics_schedule.in_set(PhysicsSystems::Step))
            .add_systems(PreStartup, config::time_fixed_loop)
            // Removed resources put back before anything else of the frame.
            .add_systems(First, resources::restore_removed_resources.before(TimeSystems))
            // A stale world put back is rebuilt before anything reads its bodies.
            .add_systems(
                First,
                rebuild_stale_world
                    .after(resources::restore_removed_resources)
                    .before(lifecycle::remove_despawned_bodies),
            )
            .add_systems(
                First,
                lifecycle::remove_despawned_bodies.after(resources::restore_removed_resources),
            )
            // After the queued unlinks, so that a body despawned or disabled inside a
            // `resource_scope` is not mistaken for a simulated one; no sync point needed.
            .add_systems(
                First,
                lifecycle::put_back_required_components
                    .after_ignore_deferred(lifecycle::remove_despawned_bodies),
            )
            // Before Bevy's time update, which advances `Time<Virtual>` with its speed and max
            // delta: the plugin's clocks put back if something else changed them.
            .add_systems(
                First,
                config::keep_clocks.after(resources::restore_removed_resources).before(TimeSystems),
            )
            // Again before the fixed loop: a timestep changed since would time its steps.
            .add_systems(
                RunFixedMainLoop,
                config::keep_clocks.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
            )
            .add_observer(sync::refuse_parented_body)
            .add_observer(lifecycle::leave_when_disabled)
            .add_observer(lifecycle::unlink_on_return)
            .add_observer(remember_settings)
            .add_observer(lifecycle::rejoin_when_enabled)
            .add_observer(motion::note_removed_layers)
            // A new speed and its max delta, together, for the next frame's time update; the
            // insets, then the walls that follow the window. Skipped in a frame in which one
            // of the simulation's resources was removed, until it is put back.
            .add_systems(
                PreUpdate,
                (
                    controls::apply_time_scale,
                    (controls::check_wall_insets, controls::follow_window).chain(),
                )
                    .run_if(resources::simulation_present),
            );
    }
}

/// The [`PhysicsWorld`] in force, and how to build another: what the app's worlds share
/// (the identity of the one in force and the settings it last left the app with), the
/// startup mapping (the core's frame stays put for good) and the startup size of the core
/// world.
#[derive(Resource, Debug)]
pub(crate) struct WorldInForce {
    /// Shared with every world the app builds ([`PhysicsWorld::in_force`]).
    shared: std::sync::Arc<InForce>,
    mapping: CoordinateMapping,
    size: Vec2,
}

impl WorldInForce {
    /// Whether `physics` is the world in force (not stale).
    pub(crate) fn is(&self, physics: &PhysicsWorld) -> bool {
        std::sync::Arc::ptr_eq(&self.shared, &physics.in_force) && !physics.is_stale()
    }
}

/// Has the [`PhysicsWorld`] in force leave its config and walls as the last valid ones as it
/// leaves the app (removed, taken by `World::resource_scope`, or replaced by an insert); one
/// dropped by an assignment through `ResMut` leaves them as it is dropped.
///
/// A world rebuilt in its place takes the settings from their resources. One that holds a
/// value written in the same frame and not yet refused (a NaN gravity, walls of 5 × 5 px)
/// was replaced by the defaults (the startup walls), and the last valid settings were lost
/// with the removed world; now the rebuilt world takes these, and the next step refuses the
/// resource's value with a warning and puts these back, as it would have.
pub(crate) fn remember_settings(
    _leaving: On<Discard, PhysicsWorld>,
    physics: Option<Res<PhysicsWorld>>,
) {
    if let Some(physics) = physics {
        physics.leave_settings();
    }
}

/// A [`PhysicsWorld`] in place of one that was removed (R-PLUG-1), with the settings in force.
///
/// The core world went with the resource, so there is nothing to restore the bodies from
/// but their entities. They are not lost: the world is built as at startup (the same
/// `CoordinateMapping`, so the core's frame stays put), with the config, walls, wall
/// switches and gravity the resources hold, and every entity that was simulated is marked
/// for [`sync::register_bodies`], which adds it on the next step from its components, at its
/// last physics pose ([`PhysicsPose::current`]), unless the game had teleported it since (a
/// dynamic body the walls had moved past comes in at the nearest place inside them).
/// Contacts, sleep and a session being recorded start afresh; a body held by a pointer is let
/// go; the rewind's snapshots, of a world with another step count, are dropped.
fn rebuilt_world(world: &mut bevy::ecs::world::World) -> PhysicsWorld {
    let in_force = world.resource::<WorldInForce>();
    let (mapping, size) = (in_force.mapping, in_force.size);
    let shared = in_force.shared.clone();
    let (last_config, min, max) = shared.settings();
    let last_bounds = mapping.rect_to_bevy(min, max);
    let config = world
        .get_resource::<PhysicsConfig>()
        .filter(|config| config.validate().is_ok())
        .cloned()
        .unwrap_or(last_config);
    // The size was accepted at startup, with a valid config.
    let core = World::new(size, config)
        .or_else(|_| World::new(size, PhysicsConfig::default()))
        .expect("the startup size and the default config are valid");
    // The clocks follow the config in force, which may be a change not yet applied.
    config::retime_world(world, core.config());
    let mut physics = PhysicsWorld::new(core, mapping);
    // In force before it is inserted: `lifecycle::unlink_on_return` takes any other world
    // inserted for a stale one, and every other world of the app is stale from now on.
    physics.take_over(&shared);
    // The walls the resource holds, or else the last valid ones.
    let bounds = world.get_resource::<PhysicsBounds>().map(|bounds| bounds.0);
    for bounds in bounds.into_iter().chain([last_bounds]) {
        let (min, max) = mapping.rect_to_core(bounds);
        if physics.apply(Input::SetBounds { min, max }).is_ok() {
            break;
        }
    }
    if let Some(walls) = world.get_resource::<PhysicsWalls>() {
        for wall in WallId::ALL {
            let _ = physics.apply(Input::SetWallEnabled { wall, enabled: walls.get(wall) });
        }
    }
    if let Some(controls) = world.get_resource::<PhysicsControls>() {
        let _ = physics.apply(Input::SetGravityEnabled(controls.gravity_enabled));
    }

    // Every entity that was simulated (its pose remembers a `Transform`) and still may be.
    // One that lost its `Transform` or `PhysicsPose` with the world has no body to take them
    // back from: marked too, so that `register_bodies` refuses it with a warning and has it
    // wait until they are back (a filter on them would pass it by for good, unsaid).
    let mut bodies = world.query_filtered::<
        (Entity, &mut Collider, Option<&PhysicsPose>, Option<&mut Transform>),
        Without<ChildOf>,
    >();
    let waiting: bevy::ecs::entity::EntityHashSet = world
        .get_resource::<sync::WaitingBodies>()
        .map(|w| w.entities().collect())
        .unwrap_or_default();
    for (entity, mut collider, pose, transform) in bodies.iter_mut(world) {
        if let (Some(pose), Some(mut transform)) = (pose, transform) {
            // Refused at spawn, it waits for its data to change, as before. One whose pose
            // was written over (`PhysicsPose::default()`) but that does not wait is judged
            // as a new spawn: passed by, it was never simulated again, unsaid.
            if pose.written_translation.is_none() {
                if !waiting.contains(&entity) {
                    collider.set_changed();
                }
                continue;
            }
            if !pose.transform_moved(&transform) {
                let now = pose.current();
                transform.translation.x = now.translation.x;
                transform.translation.y = now.translation.y;
                transform.rotation = Quat::from_rotation_z(now.angle);
                physics.rejoining.insert(entity);
            }
        }
        collider.set_changed();
    }
    // A body entity given a parent while the resource was away is refused as it would have
    // been (the loop above passed it by).
    lifecycle::refuse_parented_after_rebuild(world);
    // No pointer holds a body of the new world (not yet in `world`: nothing to release there).
    if world.contains_resource::<DragState>() {
        let released = release_all(world);
        world.insert_resource(released);
    }
    super::rewind::forget(world);
    physics
}

/// Rebuilds a stale [`PhysicsWorld`] (R-PLUG-1): one the game took out of the app and put back
/// after the plugin had built another in its place ([`WorldInForce`] names that one).
///
/// Such a world missed every change made in between: despawns and spawns, colliders and
/// kinds, teleports, sleep markers, parents, the config, walls and bounds. Its bodies are
/// not the entities' any more, and the entities are what the game and the plugin read and
/// write; so it is treated as a removed one: replaced by a world rebuilt from the settings in
/// force, which every body entity joins again on the next step, from its components, with one
/// warning. Until then (the put-back's frame) it names no entity: `unlink_on_return` unlinks
/// them all as it comes back, and what the hooks and observers see meanwhile is noted for
/// the world in force. A world put back by assignment through `ResMut`, which no hook or
/// observer sees, is found here as well, and until then names what it named when it left.
///
/// Runs in `First` and at the start of every fixed step, after the removed resources are put
/// back: one compare when the world is the one in force.
pub(crate) fn rebuild_stale_world(world: &mut bevy::ecs::world::World) {
    let (Some(physics), Some(in_force)) =
        (world.get_resource::<PhysicsWorld>(), world.get_resource::<WorldInForce>())
    else {
        return;
    };
    if in_force.is(physics) {
        return;
    }
    let rebuilt = rebuilt_world(world);
    world.insert_resource(rebuilt);
    world.warn_and_send(
        None,
        "PhysicsWorld was put back after the plugin had built another in its place: it missed \
         every change made since it was taken out, so it was rebuilt (an empty world with the \
         settings in force; every body entity joins it again on the next step, from its \
         components). Keep the PhysicsWorld in the app: change it instead of taking it out"
            .into(),
    );
}
