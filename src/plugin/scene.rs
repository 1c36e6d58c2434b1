//! Scene files in a Bevy app (R-SCN-1): save the simulation as a RON [`SceneFile`], and load
//! one in place of every body.
//!
//! Saving captures the core world as it is ([`PhysicsWorld::scene_file`]). Loading
//! ([`LoadPhysicsScene`], a command) first builds the file's world, which checks every field,
//! so a broken file changes nothing: it is refused with a
//! [`PhysicsWarning`](super::PhysicsWarning) naming what is wrong. Then every entity with a
//! [`Collider`] is despawned (disabled ones too), the core world is replaced by the file's,
//! and one entity per body is spawned with its components
//! ([`body_components`] plus layers, sensor and event flags, and [`Sleeping`] for sleepers),
//! linked to its body as it is, so that the next step is the file's next step bit for bit.
//! The [`PhysicsConfig`], gravity switch and [`PhysicsBounds`] resources take the file's
//! values. What the file cannot hold: the app's own components on the old entities (sprites,
//! game data), and a drag, since no pointer holds the loaded body: held bodies are let go at
//! rest.

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::ecs::system::Command;
use bevy::prelude::*;

use super::components::{Collider, PhysicsPose, Sleeping, body_components};
use super::config::retime_world;
use super::controls::{PhysicsBounds, PhysicsControls};
use super::drag::{DragState, remove_held_markers};
use super::events::{CollisionEventsEnabled, Sensor};
use super::motion::{ConstantForce, ConstantTorque, GravityScale, PhysicsWalls};
use super::physics_world::{PhysicsWorld, WarnAndSend};
use crate::physics::{BodyHandle, CollisionLayers, PhysicsConfig, SceneError, SceneFile, WallId};

impl PhysicsWorld {
    /// The whole simulation as a scene file: bounds, walls, config, every body, and the
    /// solver's state, so that a load resumes it bit for bit.
    pub fn scene_file(&self) -> SceneFile {
        SceneFile::capture(self.world())
    }
}

/// Replaces every body with the bodies of a scene file; a file the core refuses changes
/// nothing and is reported as a [`PhysicsWarning`](super::PhysicsWarning).
///
/// It builds the file's world first (checking every field), then despawns every entity with
/// a [`Collider`] (disabled ones too), swaps the core world and spawns one entity per body
/// ([`body_components`] plus layers, sensor and event flags, and [`Sleeping`]) linked to its
/// body as it is, so the next step is the file's next step bit for bit. The
/// [`PhysicsConfig`], the gravity switch and [`PhysicsBounds`] take the file's values. The
/// app's own components on the old entities are gone, and a held body is let go at rest (no
/// pointer holds it).
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_sandbox_physics::physics::SceneFile;
/// use bevy_sandbox_physics::plugin::LoadPhysicsScene;
///
/// fn load(mut commands: Commands) {
///     match SceneFile::load("tower.ron") {
///         Ok(file) => commands.queue(LoadPhysicsScene(file)),
///         Err(error) => warn!("tower.ron: {error}"),
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct LoadPhysicsScene(pub SceneFile);

impl Command for LoadPhysicsScene {
    type Out = ();

    fn apply(self, world: &mut World) {
        if let Err(error) = load_scene(world, &self.0) {
            let message = format!("scene file refused, the world stays as it was: {error}");
            world.warn_and_send(None, message);
        }
    }
}

/// Loads `file` in place of every body; returns the number of bodies spawned. A session
/// being recorded ends here ([`PhysicsWorld::stop_recording`] still returns it).
pub fn load_scene(world: &mut World, file: &SceneFile) -> Result<usize, SceneError> {
    let core = file.to_world()?;
    // A resource of the plugin removed in this frame is put back first, with its warning
    // (R-PLUG-1): the load reads and writes them.
    super::resources::restore_removed_resources(world);
    world.resource_mut::<PhysicsWorld>().end_session_for_load();
    let bodies = adopt_world(world, core, true);
    super::rewind::restart(world);
    Ok(bodies)
}

/// Puts `core` in place of the app's core world, as a load does (see [`load_scene`]): held
/// bodies let go if `release_held` (a playback keeps them held, as recorded), every body
/// entity despawned (every pointer's grip forgotten with it), one entity per body spawned and
/// linked, and the config, gravity switch and bounds resources set to the world's. Returns the number of bodies spawned. A rewind
/// (`rewind.rs`) uses it too; a rewind while recording notes the releases.
///
/// Disabled body entities (Bevy's `Disabled`) go with the others, through `Allow<Disabled>`:
/// the world they belonged to is gone, and one enabled later would join the loaded world as
/// a stranger (or, as before, never be simulated again).
pub(crate) fn adopt_world(
    world: &mut World,
    core: crate::physics::World,
    release_held: bool,
) -> usize {
    let old: Vec<Entity> =
        world.query_filtered::<Entity, (With<Collider>, Allow<Disabled>)>().iter(world).collect();
    for entity in old {
        world.despawn(entity);
    }
    // Every grip held one of the despawned entities: forgotten without a call on the new
    // world, whose handles may name other bodies (and whose held bodies, in a playback, are
    // the log's). A release through `apply` would also end the playback it starts.
    if let Some(mut drag) = world.get_resource_mut::<DragState>() {
        drag.forget_grips();
    }
    // Their `Held` markers went with them, but for an entity that lost its collider since
    // its grip was taken (the drag controller would have let go of it in the next frame):
    // no grip is left to let go of, so its marker goes here.
    remove_held_markers(world);
    // A clear asked for before it in this frame is done by it (the world is replaced whole);
    // left standing, it ran in the next step and wiped the world just adopted.
    if let Some(mut controls) = world.get_resource_mut::<PhysicsControls>() {
        controls.clear_requested = false;
    }
    let mut physics = world.resource_mut::<PhysicsWorld>();
    physics.replace_world(core);
    if release_held {
        // No pointer holds a loaded body.
        physics.release_held();
    }

    let handles: Vec<_> = physics.world().bodies().map(|(h, _)| h).collect();
    for &handle in &handles {
        spawn_body_entity(world, handle);
    }
    follow_world_settings(world);
    handles.len()
}

/// Puts the [`PhysicsConfig`], gravity switch, [`PhysicsBounds`] and [`PhysicsWalls`]
/// resources in line with the core world, each only where it differs (a new `time_step`
/// re-times the fixed loop), so that no system takes them for a change of the app's. A load,
/// a rewind and a playback's calls use it.
pub(crate) fn follow_world_settings(world: &mut World) {
    let physics = world.resource::<PhysicsWorld>();
    let core = physics.world();
    let config = core.config().clone();
    let gravity = core.gravity_enabled();
    let (min, max) = core.bounds();
    let bounds = PhysicsBounds(physics.mapping().rect_to_bevy(min, max));
    let mut walls = PhysicsWalls::NONE;
    for wall in WallId::ALL {
        walls.set(wall, core.wall_enabled(wall));
    }
    world.resource_mut::<PhysicsBounds>().set_if_neq(bounds);
    world.resource_mut::<PhysicsWalls>().set_if_neq(walls);
    if world.resource::<PhysicsControls>().gravity_enabled != gravity {
        world.resource_mut::<PhysicsControls>().gravity_enabled = gravity;
    }
    if world.resource_mut::<PhysicsConfig>().set_if_neq(config.clone()) {
        retime_world(world, &config);
    }
}

/// Spawns the entity of the core body `handle` with its components ([`body_components`] plus
/// layers, sensor and event flags, [`ConstantForce`], [`ConstantTorque`] and [`GravityScale`]
/// where the core holds other than the defaults, and [`Sleeping`] for a sleeper) and links
/// it, its pose the body's as it is; nothing if there is no such body.
pub(crate) fn spawn_body_entity(world: &mut World, handle: BodyHandle) {
    let physics = world.resource::<PhysicsWorld>();
    let mapping = physics.mapping();
    let core = physics.world();
    let (Some(body), Ok(desc)) = (core.body(handle), core.body_desc(handle)) else { return };
    let sleeping = body.is_sleeping();
    let force = core.force(handle).unwrap_or(Vec2::ZERO);
    let torque = core.torque(handle).unwrap_or(0.0);
    let components = body_components(&desc, mapping);
    let mut pose = PhysicsPose::default();
    pose.adopt(&components.3, components.4.0, components.5.0, desc.shape);
    let now = super::components::BodyPose {
        translation: mapping.position_to_bevy(desc.position),
        angle: mapping.angle_to_bevy(desc.angle),
    };
    pose.set(now, now);
    let mut entity = world.spawn((components, pose));
    if desc.layers != CollisionLayers::ALL {
        entity.insert(desc.layers);
    }
    if desc.sensor {
        entity.insert(Sensor);
    }
    if desc.collision_events {
        entity.insert(CollisionEventsEnabled);
    }
    // The game components of what the core holds beyond the body's description, so that the
    // entity shows them and removing one takes it back as for a body the game spawned.
    if force != Vec2::ZERO {
        entity.insert(ConstantForce(mapping.vector_to_bevy(force)));
    }
    if torque != 0.0 {
        entity.insert(ConstantTorque(mapping.angle_to_bevy(torque)));
    }
    if desc.gravity_scale != 1.0 {
        entity.insert(GravityScale(desc.gravity_scale));
    }
    if sleeping {
        entity.insert(Sleeping);
    }
    let id = entity.id();
    world.resource_mut::<PhysicsWorld>().link(id, handle);
}
