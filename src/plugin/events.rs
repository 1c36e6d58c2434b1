//! Collision events, sensors and collision layers for game code (R-GAME-1 … R-GAME-3): the
//! Bevy face of the core's `World::collision_events`, `set_sensor`, `set_collision_events` and
//! `set_layers`.
//!
//! A body opts in to events with [`CollisionEventsEnabled`] (a [`Sensor`] always reports its
//! overlaps). After every step each event of the core becomes one [`CollisionStart`] or
//! [`CollisionEnd`] message, and is triggered as an entity event on each body entity of the
//! pair that still exists, seen from that body (`entity` is the body, `other` its partner,
//! the normal points from the body to the partner), so `On<CollisionStart>` observers on a
//! body hear exactly its own collisions. A body despawned while it touched something ends
//! its pairs in the next step: the message names the despawned entity.
//!
//! [`CollisionLayers`] is the core's type used as a component: a body without it is on every
//! layer and meets every layer.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use super::physics_world::PhysicsWorld;
use super::spatial::EntityOrWall;
use crate::physics::{BodyHandle, BodyOrWall, CollisionEvent, CollisionLayers, Input};

/// Makes a body a sensor (R-GAME-2): it reports its overlaps as collision events but takes
/// part in no impulse, no projection and no sleep; other bodies pass through it. A dynamic
/// sensor still falls and still stays inside the walls; two sensors ignore each other.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
#[component(on_remove = super::motion::note_removed)]
pub struct Sensor;

/// Makes a body report its collisions as [`CollisionStart`] and [`CollisionEnd`] (R-GAME-1).
/// Bodies without it (and not sensors) cost nothing for events.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
#[component(on_remove = super::motion::note_removed)]
pub struct CollisionEventsEnabled;

/// Two bodies, or a body and a wall, started touching (or a sensor started overlapping a
/// body) in the last step.
///
/// Sent as a message once per pair (`entity` is the pair's first body), and triggered on
/// each body entity of the pair as seen from it.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CollisionStart {
    /// The body this event is about.
    pub entity: Entity,
    /// What it touched.
    pub other: EntityOrWall,
    /// The contact point, px (Bevy's frame).
    pub point: Vec2,
    /// Unit normal from `entity` towards `other`.
    pub normal: Vec2,
    /// The normal impulse of the step between the two: how hard they met (0 for a sensor).
    pub normal_impulse: f32,
    /// Whether this is a sensor's overlap, which no impulse acts on.
    pub sensor: bool,
}

/// Two bodies, or a body and a wall, stopped touching in the last step (or one of them was
/// despawned). Sleeping does not end a contact.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CollisionEnd {
    /// The body this event is about (a despawned entity, if it ended by the despawn).
    pub entity: Entity,
    /// What it touched.
    pub other: EntityOrWall,
    /// Whether it was a sensor's overlap.
    pub sensor: bool,
}

/// Gives the core the sensor flag, the event opt-in and the layers the components hold,
/// for the bodies whose components were added or changed since the last step (removals:
/// [`apply_removed_game_components`](super::motion::apply_removed_game_components)).
#[expect(clippy::type_complexity, reason = "a query over the changed contact components")]
pub(crate) fn apply_contact_components(
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<
        (Entity, Has<Sensor>, Has<CollisionEventsEnabled>, Option<&CollisionLayers>),
        Or<(Added<Sensor>, Added<CollisionEventsEnabled>, Changed<CollisionLayers>)>,
    >,
) {
    for (entity, sensor, events, layers) in &changed {
        let Some(handle) = physics.handle(entity) else { continue };
        let layers = layers.copied().unwrap_or_default();
        set_contact_rules(&mut physics, handle, sensor, events, layers);
    }
}

/// Gives the body of `handle` these sensor flag, event opt-in and layers, each only if it
/// differs from the core's: each setter wakes the body.
pub(crate) fn set_contact_rules(
    physics: &mut PhysicsWorld,
    handle: BodyHandle,
    sensor: bool,
    events: bool,
    layers: CollisionLayers,
) {
    let Some(body) = physics.world().body(handle) else { return };
    let (was_sensor, was_reporting, old_layers) =
        (body.is_sensor(), body.reports_collisions(), body.layers());
    // The handle is live (just read), so the setters cannot fail.
    if was_sensor != sensor {
        let _ = physics.apply(Input::SetSensor { body: handle, sensor });
    }
    if was_reporting != events {
        let _ = physics.apply(Input::SetCollisionEvents { body: handle, report: events });
    }
    if old_layers != layers {
        let _ = physics.apply(Input::SetLayers { body: handle, layers });
    }
}

/// Whether the last step produced collision events: the run condition of
/// [`send_collision_events`], so that a world without events runs no command sync point.
pub(crate) fn collision_events_pending(physics: Res<PhysicsWorld>) -> bool {
    physics.stepped_last_run() && !physics.world().collision_events().is_empty()
}

/// Sends the last step's collision events as messages and triggers them on the bodies.
pub(crate) fn send_collision_events(
    mut physics: ResMut<PhysicsWorld>,
    mut starts: MessageWriter<CollisionStart>,
    mut ends: MessageWriter<CollisionEnd>,
    mut commands: Commands,
) {
    if !physics.stepped_last_run() {
        // Paused: the removals wait for the step that reports them.
        return;
    }
    let departed = physics.take_departed();
    if physics.world().collision_events().is_empty() {
        return;
    }
    let departed: HashMap<BodyHandle, Entity> = departed.into_iter().collect();
    let mapping = physics.mapping();
    let entity_of = |handle| physics.entity(handle).or_else(|| departed.get(&handle).copied());
    for event in physics.world().collision_events() {
        let (a, b) = event.pair();
        let Some(a) = entity_of(a) else { continue };
        let other = match b {
            BodyOrWall::Body(handle) => match entity_of(handle) {
                Some(entity) => EntityOrWall::Entity(entity),
                None => continue,
            },
            BodyOrWall::Wall(wall) => EntityOrWall::Wall(wall),
        };
        let alive = |entity: Entity| physics.handle(entity).is_some();
        match *event {
            CollisionEvent::Started { point, normal, normal_impulse, sensor, .. } => {
                let start = CollisionStart {
                    entity: a,
                    other,
                    point: mapping.position_to_bevy(point),
                    normal: mapping.vector_to_bevy(normal),
                    normal_impulse,
                    sensor,
                };
                starts.write(start);
                if alive(a) {
                    commands.trigger(start);
                }
                if let EntityOrWall::Entity(b) = other
                    && alive(b)
                {
                    commands.trigger(CollisionStart {
                        entity: b,
                        other: EntityOrWall::Entity(a),
                        normal: -start.normal,
                        ..start
                    });
                }
            }
            CollisionEvent::Ended { sensor, .. } => {
                let end = CollisionEnd { entity: a, other, sensor };
                ends.write(end);
                if alive(a) {
                    commands.trigger(end);
                }
                if let EntityOrWall::Entity(b) = other
                    && alive(b)
                {
                    commands.trigger(CollisionEnd {
                        entity: b,
                        other: EntityOrWall::Entity(a),
                        sensor,
                    });
                }
            }
        }
    }
}
