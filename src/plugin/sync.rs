//! Keeping the core world and the entities in step: bodies in, user writes in, one step,
//! results out.
//!
//! Each fixed run (see [`PhysicsSystems`](super::PhysicsSystems)):
//!
//! 1. [`register_bodies`]: a new or changed [`Collider`] or [`RigidBody`] (re)builds the body;
//!    bodies are added in the order of their entity index, so the same spawns give the same
//!    world. A new entity refused (say, outside the walls) waits in [`WaitingBodies`] and is
//!    judged again when its data change; one without a component its collider requires,
//!    until it has them all again.
//! 2. [`apply_user_writes`]: a `Transform` or velocity that differs from what the plugin last
//!    wrote is the user's and goes to the core (teleport, push), as does a material written
//!    since the last step that differs from the body's; each wakes the body's island.
//! 3. [`step_world`]: one `World::step(time_step)`, unless paused.
//! 4. [`write_back`]: the new pose goes into [`PhysicsPose`], the velocities into their
//!    components, and the [`Sleeping`] marker follows the core (inserted and removed by
//!    [`apply_sleep_markers`], which runs only when an island fell asleep or woke).
//!
//! Despawning, disabling and the components a body needs are kept in step by
//! [`lifecycle`](super::lifecycle).
//!
//! # Telling the plugin's writes from the user's
//! The plugin writes `Transform` (every frame) and the velocities (every step) itself, so Bevy's
//! change detection cannot tell who wrote them. [`PhysicsPose`] remembers the values the plugin
//! wrote last; a component holding anything else was written by someone else. A user value
//! equal to the plugin's is indistinguishable, and needs no action anyway.
//!
//! # Each write is judged once
//! A refused write (a NaN translation or rotation, a NaN or infinite z, a teleport outside the
//! walls, a NaN velocity, an invalid material or collider) gets one [`PhysicsWarning`] naming
//! the entity, the field and what is allowed, and the component is put back to its last valid
//! value: the next step finds the plugin's own value there and has nothing to judge. A refused
//! spawn has no valid value to go back to; it waits, and its warning says until when.
//!
//! # Parents, scale, rotation
//! Bodies are simulated in world space and the plugin reads and writes `Transform` as world
//! coordinates, so a body entity must be top-level: one with a parent (`ChildOf`) is refused,
//! or taken out of the simulation when it gets one ([`refuse_parented_body`]), until the
//! parent is removed. `Transform::scale` is ignored (the collider keeps its size), and
//! rectangles never rotate: a rotation written to one is put back to the identity, so what is
//! drawn is what collides. Each of these two is said once per entity. A circle turns to a
//! rotation about z, its angle; any other rotation (about x, a zero quaternion) is refused
//! like a NaN one, once per write, and put back (at spawn, to the identity: the circle starts
//! at angle 0).

use std::ops::DerefMut;

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

use super::components::{
    AngularVelocity, BodyPose, Collider, LinearVelocity, PhysicsMaterial, PhysicsPose, RigidBody,
    Sleeping, VisualScale, is_rotation_about_z, rotation_angle,
};
use super::controls::PhysicsControls;
use super::coords::CoordinateMapping;
use super::events::{CollisionEventsEnabled, Sensor};
use super::lifecycle::{RequiredPresent, UnlinkLater, refuse_incomplete};
use super::physics_world::{PhysicsWarning, PhysicsWorld, WarnAndSend};
use crate::physics::{
    Body, BodyDesc, BodyHandle, BodyKind, CollisionLayers, Input, MAX_COORDINATE, Shape,
};

/// A core body's pose in Bevy's frame.
pub(super) fn pose_of(mapping: CoordinateMapping, position: Vec2, angle: f32) -> BodyPose {
    BodyPose {
        translation: mapping.position_to_bevy(position),
        angle: mapping.angle_to_bevy(angle),
    }
}

/// Logs a refusal (or what the plugin ignores) and sends it as a [`PhysicsWarning`].
pub(super) fn refuse(warnings: &mut impl WarnAndSend, entity: Entity, message: String) {
    warnings.warn_and_send(Some(entity), format!("entity {entity}: {message}"));
}

/// What a body's `Transform` translation z may be, as the warnings say it.
const Z_ALLOWED: &str = "a finite z, which orders drawing and picking";

/// What a refused spawn's warning says about when the entity is judged again.
const NOT_SIMULATED_UNTIL: &str =
    "the entity is not simulated until its Transform or one of its physics components changes";

/// The entities refused at spawn, each judged again by [`register_bodies`] once its
/// `Transform`, velocities, material, collider or kind change, or, refused for its parent,
/// once `ChildOf` is removed, or, refused for lacking a component its collider requires, once
/// it has them all.
#[derive(Resource, Debug, Default)]
pub(crate) struct WaitingBodies(Vec<WaitingBody>);

#[derive(Clone, Copy, Debug)]
struct WaitingBody {
    entity: Entity,
    until: Until,
    /// Refused for its parent: once complete again (see [`Until::Complete`]) it goes back to
    /// waiting for its parent to go, if it still has one, without a second warning.
    for_parent: bool,
}

/// What a waiting entity waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Until {
    /// One of its physics components or its `Transform` changes.
    Changed,
    /// `ChildOf` is removed (which changes none of its components).
    Unparented,
    /// It has every component a [`Collider`] requires again (see
    /// [`refuse_incomplete`](super::lifecycle::refuse_incomplete)).
    Complete,
}

impl Until {
    /// What a refused spawn waits for: its parent's removal, or a change.
    fn spawn(parent: bool) -> Self {
        if parent { Until::Unparented } else { Until::Changed }
    }
}

impl WaitingBodies {
    /// The entities waiting.
    pub(crate) fn entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.0.iter().map(|w| w.entity)
    }

    /// Adds `entity` to the list, once, and says whether it was added: a child refused again
    /// (its collider changed, say) is still in it.
    pub(crate) fn wait(&mut self, entity: Entity, until: Until) -> bool {
        let new = !self.0.iter().any(|w| w.entity == entity);
        if new {
            self.0.push(WaitingBody { entity, until, for_parent: until == Until::Unparented });
        }
        new
    }
}

/// Adds a body for each new collider and rebuilds the body of a changed collider or kind.
///
/// A new entity is refused with one warning, and waits in [`WaitingBodies`] until its data
/// change, when it has a parent (`ChildOf`: bodies live in world space, see
/// [`refuse_parented_body`]), a non-finite `Transform` translation (z included) or
/// rotation, a translation outside the walls, or a value the core refuses (a size outside
/// `MIN_BODY_SIZE ..= MAX_BODY_SIZE`, a non-finite velocity). One that lacks a component its
/// collider requires (removed while it had no body: disabled, waiting, or before its first
/// step) waits until it has them all again ([`refuse_incomplete`]). A simulated body whose
/// collider or kind turns invalid keeps its body and gets its old collider and kind back.
#[expect(clippy::type_complexity, reason = "a query over the body's components")]
pub(crate) fn register_bodies(
    mut physics: ResMut<PhysicsWorld>,
    mut waiting: ResMut<WaitingBodies>,
    mut bodies: ParamSet<(
        Query<Entity, Or<(Changed<Collider>, Changed<RigidBody>)>>,
        Query<(
            &mut Collider,
            &mut RigidBody,
            Ref<PhysicsMaterial>,
            Ref<Transform>,
            Ref<LinearVelocity>,
            Ref<AngularVelocity>,
            &mut PhysicsPose,
            Has<ChildOf>,
            (Option<&CollisionLayers>, Has<Sensor>, Has<CollisionEventsEnabled>),
        )>,
    )>,
    required: Query<RequiredPresent, With<Collider>>,
    mut warnings: MessageWriter<PhysicsWarning>,
    mut retry: Local<Vec<Entity>>,
) {
    // Bodies changed while a component their collider requires was missing, judged again.
    let mut entities: Vec<Entity> = bodies.p0().iter().chain(retry.drain(..)).collect();
    if !waiting.0.is_empty() {
        let mut query = bodies.p1();
        // Despawned entities, removed colliders and disabled entities (judged again when
        // enabled, see `rejoin_when_enabled`) leave the list; changed ones are retried.
        waiting.0.retain_mut(|w| {
            let Ok((collider, kind, material, transform, velocity, spin, _, parent, _)) =
                query.get_mut(w.entity)
            else {
                // A collider still, but without a component it requires (removed while it
                // waited): it waits for them all, said once.
                let Ok(present) = required.get(w.entity) else { return false };
                if w.until != Until::Complete {
                    w.until = Until::Complete;
                    refuse_incomplete(&mut warnings, w.entity, present);
                }
                return true;
            };
            // Refused for its parent, it would be refused again as long as it has one (and
            // its `Transform` may hold the plugin's last write, from before it had one).
            let changed = match w.until {
                // Already told about its parent: it waits for it to go again, unsaid.
                Until::Complete if parent && w.for_parent => {
                    w.until = Until::Unparented;
                    false
                }
                Until::Complete => true,
                Until::Unparented => !parent,
                Until::Changed => {
                    collider.is_changed()
                        || kind.is_changed()
                        || material.is_changed()
                        || transform.is_changed()
                        || velocity.is_changed()
                        || spin.is_changed()
                }
            };
            if changed {
                entities.push(w.entity);
            }
            !changed
        });
        // Still waiting: refused already, and not again for a change that does not end its
        // wait.
        let still: EntityHashSet = waiting.entities().collect();
        entities.retain(|entity| !still.contains(entity));
    }
    // Index order is spawn order in a fresh world (`Entity`'s own order is not).
    entities.sort_unstable_by_key(|entity| entity.index_u32());
    entities.dedup();
    let mapping = physics.mapping();
    let mut query = bodies.p1();
    for entity in entities {
        let Ok((
            mut collider,
            mut rigid_body,
            material,
            transform,
            velocity,
            spin,
            mut pose,
            parent,
            (layers, sensor, collision_events),
        )) = query.get_mut(entity)
        else {
            // Without a component its collider requires: without a body (disabled until now,
            // say), it waits for them, since nothing could put them back; with one, the body
            // puts them back (`put_back_required_components`), and its change is judged then.
            if physics.handle(entity).is_some() {
                retry.push(entity);
            } else if let Ok(present) = required.get(entity)
                && waiting.wait(entity, Until::Complete)
            {
                refuse_incomplete(&mut warnings, entity, present);
            }
            continue;
        };
        let (shape, kind) = (collider.shape(), rigid_body.kind());
        let old = physics.handle(entity);
        let desc = match old.and_then(|h| physics.world().body_desc(h).ok()) {
            Some(body) if body.shape == shape && body.kind == kind => continue,
            // The whole description, the gravity scale the core keeps apart included.
            Some(body) => BodyDesc { shape, kind, ..body },
            None => {
                // A dynamic body a removed world held outside its walls (moved past it) rejoins
                // the rebuilt one at the nearest place inside, where those walls took it.
                let mut placed = *transform;
                let (at, core) =
                    (mapping.position_to_core(placed.translation.truncate()), physics.world());
                if kind == BodyKind::Dynamic
                    && physics.rejoining.contains(&entity)
                    && !core.contains_point(at)
                {
                    let inside = mapping.position_to_bevy(core.fit_inside(shape.half_size(), at));
                    (placed.translation.x, placed.translation.y) = (inside.x, inside.y);
                }
                let spawn =
                    judge_spawn(&physics, &placed, kind, parent).map(|(position, angle)| {
                        BodyDesc {
                            shape,
                            kind,
                            material: material.0,
                            position,
                            velocity: mapping.vector_to_core(velocity.0),
                            angle,
                            angular_velocity: mapping.angle_to_core(spin.0),
                            layers: layers.copied().unwrap_or_default(),
                            sensor,
                            collision_events,
                            gravity_scale: 1.0,
                        }
                    });
                match spawn {
                    Ok(desc) => desc,
                    Err(message) => {
                        refuse(&mut warnings, entity, format!("{message}; {NOT_SIMULATED_UNTIL}"));
                        waiting.wait(entity, Until::spawn(parent));
                        continue;
                    }
                }
            }
        };
        let handle = match physics.add_body(desc) {
            Ok(handle) => handle,
            Err(error) => {
                let message = match old.and_then(|h| physics.world().body(h)) {
                    Some(body) => {
                        // Named by what changed: a kinematic body past the walls may take a
                        // new collider there, but not become dynamic.
                        let changed = match (body.shape() != shape, body.kind() != kind) {
                            (true, true) => "Collider and RigidBody",
                            (false, true) => "RigidBody",
                            _ => "Collider",
                        };
                        *collider = Collider::from_shape(body.shape());
                        *rigid_body = kind_of(body);
                        format!(
                            "{changed} refused ({error}); the body keeps its old collider and kind"
                        )
                    }
                    None => {
                        waiting.wait(entity, Until::spawn(parent));
                        format!("body refused ({error}); {NOT_SIMULATED_UNTIL}")
                    }
                };
                refuse(&mut warnings, entity, message);
                continue;
            }
        };
        if let Some(old) = old {
            // The rebuilt body replaces the old one; removing it wakes its island.
            let _ = physics.apply(Input::RemoveBody(old));
        } else {
            pose.adopt(&transform, velocity.0, spin.0, shape);
            if let Some(body) = physics.world().body(handle) {
                let now = pose_of(mapping, body.position(), body.angle());
                pose.set(now, now);
            }
        }
        physics.link(entity, handle);
    }
    // Each entity of a rebuilt world rejoins in its first step (or is refused, and waits).
    physics.rejoining.clear();
}

/// Judges a new body's place: its position and angle in the core's frame, or why it is
/// refused (naming the field and what is allowed). A dynamic body's centre must lie inside
/// the walls, a static or kinematic body's anywhere the core places one
/// ([`World::can_place`](crate::physics::World::can_place)).
fn judge_spawn(
    physics: &PhysicsWorld,
    transform: &Transform,
    kind: BodyKind,
    parent: bool,
) -> Result<(Vec2, f32), String> {
    let mapping = physics.mapping();
    if parent {
        return Err("has a parent (ChildOf), and bodies must be top-level entities: the plugin \
                    reads and writes Transform as world coordinates (allowed: no ChildOf)"
            .into());
    }
    let translation = transform.translation.truncate();
    let position = mapping.position_to_core(translation);
    if !position.is_finite() {
        return Err(format!(
            "Transform translation {translation} is not finite (allowed: finite x and y)"
        ));
    }
    if !physics.world().can_place(kind, position) {
        let (min, max) = physics.world().bounds();
        let (problem, allowed) = match kind {
            BodyKind::Dynamic => {
                let walls = mapping.rect_to_bevy(min, max);
                ("lies outside the walls", format!("x and y inside the walls {walls:?}"))
            }
            _ => ("lies too far out", format!("x and y within about {MAX_COORDINATE:e} px")),
        };
        return Err(format!("Transform translation {translation} {problem} (allowed: {allowed})"));
    }
    // z is not simulated, but it orders drawing and picking: a NaN would put the body above
    // every other in the picking and make the interpolation rewrite the `Transform` each frame.
    let z = transform.translation.z;
    if !z.is_finite() {
        return Err(format!("Transform translation z {z} is not finite (allowed: {Z_ALLOWED})"));
    }
    let rotation = transform.rotation;
    if !rotation.is_finite() {
        return Err(format!(
            "Transform rotation {rotation} is not finite (allowed: a finite rotation about z)"
        ));
    }
    // A circle whose rotation is not about z starts at angle 0, and its `Transform` is put
    // back to the identity with a warning, as a rectangle's is (see `PhysicsPose::adopt`).
    let angle = if is_rotation_about_z(rotation) { rotation_angle(rotation) } else { 0.0 };
    Ok((position, mapping.angle_to_core(angle)))
}

pub(super) fn kind_of(body: &Body) -> RigidBody {
    RigidBody::from_kind(body.kind())
}

/// Takes a simulated body whose entity was given a parent out of the simulation, with a
/// warning: bodies live in world space, and the plugin reads and writes `Transform` as world
/// coordinates. The entity waits in [`WaitingBodies`] until `ChildOf` is removed.
///
/// While [`PhysicsWorld`] is out of the world (`World::resource_scope::<PhysicsWorld>`), the
/// observer cannot reach the entity ↔ body map: it notes the entity in [`UnlinkLater`], and
/// [`unlink_on_return`](super::lifecycle::unlink_on_return) refuses it the same way when the
/// resource is back, if it still has a parent then (without that, the body stayed simulated
/// in world space, its entity drawn relative to its parent, and nothing was said). So it
/// does while the warnings' queue is out: the refusal must be said, in the next frame.
pub(crate) fn refuse_parented_body(
    inserted: On<Insert, ChildOf>,
    physics: Option<ResMut<PhysicsWorld>>,
    waiting: Option<ResMut<WaitingBodies>>,
    later: Option<ResMut<UnlinkLater>>,
    warnings: Option<ResMut<Messages<PhysicsWarning>>>,
) {
    let entity = inserted.entity;
    let physics = physics.filter(|physics| !physics.is_stale());
    let (Some(mut physics), Some(mut waiting), Some(mut warnings)) = (physics, waiting, warnings)
    else {
        if let Some(mut later) = later {
            later.parented.push(entity);
        }
        return;
    };
    leave_for_parent(&mut physics, &mut waiting, &mut *warnings, entity);
}

/// Takes the body of `entity`, which has a parent, out of the simulation with one warning,
/// and has the entity wait until `ChildOf` is removed; nothing if it has no body. One that
/// waits already (refused for a parent it was given before) is not warned about again.
pub(crate) fn leave_for_parent(
    physics: &mut PhysicsWorld,
    waiting: &mut WaitingBodies,
    warnings: &mut impl WarnAndSend,
    entity: Entity,
) {
    if physics.unlink_and_queue(entity) && waiting.wait(entity, Until::Unparented) {
        refuse(warnings, entity, PARENTED.into());
    }
}

/// The warning about a body entity given a parent.
pub(crate) const PARENTED: &str = "was given a parent (ChildOf), and bodies must be \
                                   top-level entities (allowed: no ChildOf): the body left the \
                                   simulation; the entity is not simulated until its ChildOf \
                                   is removed";

/// What a user may write to a body, as `apply_user_writes` reads it.
type UserWritable = (
    Entity,
    &'static mut Transform,
    &'static mut LinearVelocity,
    &'static mut AngularVelocity,
    &'static mut PhysicsMaterial,
    &'static mut PhysicsPose,
    Has<VisualScale>,
);

/// Hands the user's writes to the core: teleports, velocities and materials; a written
/// `Transform` z, which stays the game's, is only judged (it must be finite).
///
/// Each write is judged once: a refused value gets one warning naming the field and what is
/// allowed, and the component is put back to its last valid value, so the next step finds
/// nothing new. A `Transform` scale other than 1 is pointed out once per entity (colliders
/// keep their size) when its `Transform` is written, unless the entity has [`VisualScale`].
///
/// Only bodies with one of these components changed since the last run are looked at: the
/// plugin writes the pose it remembers together with the component it remembers it for
/// (the write-back, the interpolation, a refused write put back), so a body none of whose
/// components changed holds exactly what the plugin last wrote. A sleeping world's step thus
/// costs a change-tick test per body, not a comparison of its components (`cargo bench
/// --bench plugin_overhead -- --asleep`). Of the bodies looked at, the common case, the
/// plugin's own write, reads only the components: the body's handle is looked up once
/// something differs, and a material is compared with the core's only when the component
/// changed.
#[expect(clippy::type_complexity, reason = "the change filter of the writable components")]
pub(crate) fn apply_user_writes(
    mut physics: ResMut<PhysicsWorld>,
    mut bodies: Query<
        UserWritable,
        Or<(
            Changed<Transform>,
            Changed<LinearVelocity>,
            Changed<AngularVelocity>,
            Changed<PhysicsMaterial>,
        )>,
    >,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    let mapping = physics.mapping();
    for (entity, mut transform, mut velocity, mut spin, mut material, mut pose, visual) in
        &mut bodies
    {
        let moved = pose.transform_moved(&transform);
        let z_moved = pose.z_moved(&transform);
        let scaled = !pose.scale_noticed && !visual && transform.scale.truncate() != Vec2::ONE;
        let pushed = velocity.0 != pose.written_velocity;
        let spun = spin.0 != pose.written_angular_velocity;
        if !(moved || z_moved || scaled || pushed || spun || material.is_changed()) {
            continue;
        }
        let Some(handle) = physics.handle(entity) else { continue };

        // z is the game's (the plugin keeps it), but it must stay finite: it orders drawing
        // and picking. Judged apart from x and y, so that a new z teleports nothing.
        if z_moved {
            let z = transform.translation.z;
            if z.is_finite() {
                pose.written_z = z;
            } else {
                transform.translation.z = pose.written_z;
                refuse(
                    &mut warnings,
                    entity,
                    format!(
                        "Transform translation z {z} refused (allowed: {Z_ALLOWED}); Transform \
                         z put back to {}",
                        pose.written_z
                    ),
                );
            }
        }

        if moved {
            apply_transform(&mut physics, &mut warnings, entity, handle, &mut transform, &mut pose);
        }

        if scaled {
            refuse(
                &mut warnings,
                entity,
                format!(
                    "Transform scale {} is ignored: the collider keeps its size (allowed: scale \
                     1; scale the Collider instead); this is said once per entity",
                    transform.scale
                ),
            );
            pose.scale_noticed = true;
        }

        if pushed {
            let wanted = mapping.vector_to_core(velocity.0);
            if let Err(error) = physics.apply(Input::SetVelocity { body: handle, velocity: wanted })
            {
                refuse(&mut warnings, entity, format!("LinearVelocity refused ({error})"));
                let kept = physics.world().body(handle).map_or(Vec2::ZERO, Body::velocity);
                velocity.0 = mapping.vector_to_bevy(kept);
            }
            pose.written_velocity = velocity.0;
        }

        if spun {
            let wanted = mapping.angle_to_core(spin.0);
            let spin_to = Input::SetAngularVelocity { body: handle, angular_velocity: wanted };
            if let Err(error) = physics.apply(spin_to) {
                refuse(&mut warnings, entity, format!("AngularVelocity refused ({error})"));
                let kept = physics.world().body(handle).map_or(0.0, Body::angular_velocity);
                spin.0 = mapping.angle_to_bevy(kept);
            }
            pose.written_angular_velocity = spin.0;
        }

        if !material.is_changed() {
            continue;
        }
        let Some(current) = physics.world().body(handle).map(Body::material) else { continue };
        if material.0 != current
            && let Err(error) =
                physics.apply(Input::SetMaterial { body: handle, material: material.0 })
        {
            refuse(&mut warnings, entity, format!("PhysicsMaterial refused ({error})"));
            material.0 = current;
        }
    }
}

/// Judges a `Transform` someone else wrote: a new translation teleports the body, a new
/// rotation about z turns a circle.
///
/// A refused translation or rotation (not finite, outside the walls, for a circle not a
/// rotation about z) is put back to the plugin's last value with a warning. Rectangles never
/// rotate: a rotation written to one is put back to the identity, with a warning the first
/// time for each entity.
fn apply_transform(
    physics: &mut PhysicsWorld,
    warnings: &mut MessageWriter<PhysicsWarning>,
    entity: Entity,
    handle: BodyHandle,
    transform: &mut Mut<Transform>,
    pose: &mut PhysicsPose,
) {
    let mapping = physics.mapping();
    let Some(body) = physics.world().body(handle) else { return };
    let circle = matches!(body.shape(), Shape::Circle { .. });
    let mut teleported = false;
    // An unmoved translation keeps the core position bit for bit (the round trip through
    // Bevy's frame may not).
    if pose.translation_moved(transform) {
        let translation = transform.translation.truncate();
        let position = mapping.position_to_core(translation);
        match physics.apply(Input::SetPosition { body: handle, position }) {
            Ok(_) => teleported = true,
            Err(error) => {
                refuse(
                    warnings,
                    entity,
                    format!("teleport to {translation} refused ({error}); Transform put back"),
                );
                let kept = pose.written_translation.unwrap_or(pose.current().translation);
                transform.translation.x = kept.x;
                transform.translation.y = kept.y;
            }
        }
    }
    if pose.rotation_moved(transform) {
        let rotation = transform.rotation;
        // A circle's angle is its rotation about z: any other rotation (about x, a zero or
        // huge quaternion) has no angle to take, and was read as some angle silently.
        if !rotation.is_finite() || (circle && !is_rotation_about_z(rotation)) {
            refuse(
                warnings,
                entity,
                format!(
                    "Transform rotation {rotation} refused (allowed: a finite rotation about z, \
                     a unit quaternion such as Quat::from_rotation_z(angle)); Transform put back"
                ),
            );
            transform.rotation = pose.written_rotation;
        } else if circle {
            let angle = mapping.angle_to_core(rotation_angle(rotation));
            // Finite, so only a stale handle could refuse it: nothing to turn then.
            teleported |= physics.apply(Input::SetAngle { body: handle, angle }).is_ok();
        } else {
            if !pose.rotation_noticed {
                refuse(
                    warnings,
                    entity,
                    format!(
                        "Transform rotation {rotation} is put back to the identity: rectangles \
                         never rotate (allowed: the identity); this is said once per entity"
                    ),
                );
                pose.rotation_noticed = true;
            }
            transform.rotation = Quat::IDENTITY;
        }
    }
    if teleported && let Some(body) = physics.world().body(handle) {
        let now = pose_of(mapping, body.position(), body.angle());
        pose.set(now, now);
    }
    // The values now in the `Transform` are the body's: the next frame draws it from there.
    pose.remember_transform(transform);
}

/// Runs one step of `time_step` seconds, unless paused (a requested single step runs anyway).
pub(crate) fn step_world(
    mut physics: ResMut<PhysicsWorld>,
    mut controls: ResMut<PhysicsControls>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    let single_step = controls.single_step;
    if single_step {
        controls.single_step = false;
    }
    if controls.paused && !single_step {
        physics.set_stepped(false);
        return;
    }
    let dt = physics.world().config().time_step;
    match physics.step_session(dt) {
        Ok(diverged) => {
            if let Some(message) = diverged {
                warnings.warn_and_send(None, message);
            }
            physics.set_stepped(true);
            if physics.world().collision_events().is_empty() {
                // No event of this step names a removed body: forget them here, and
                // `send_collision_events` (and its command sync point) need not run.
                physics.take_departed();
            }
        }
        Err(error) => {
            let message = format!("step refused: {error}");
            warnings.warn_and_send(None, message);
            physics.set_stepped(false);
        }
    }
}

/// Writes the step's results into the components: poses and velocities; a [`Sleeping`]
/// marker to insert or remove goes to [`SleepMarkerChanges`].
///
/// A component that already holds the value is left unwritten, so its change tick stays.
///
/// After a step the core skipped because nothing could move (`StepStats::skipped`, §11),
/// there is nothing to write: the core is as the step before left it, which the last run
/// wrote, and every user write since went to the core as an edit, after which the core
/// takes a whole step. Only a [`Sleeping`] marker added or removed by someone else since
/// still needs the whole pass.
pub(crate) fn write_back(
    physics: Res<PhysicsWorld>,
    mut sleep_markers: ResMut<SleepMarkerChanges>,
    mut bodies: Query<(
        Entity,
        &mut PhysicsPose,
        &mut LinearVelocity,
        &mut AngularVelocity,
        Has<Sleeping>,
    )>,
    added_markers: Query<(), Added<Sleeping>>,
    mut removed_markers: RemovedComponents<Sleeping>,
) {
    let stepped = physics.stepped_last_run();
    // The markers are looked at only after a skipped step: `Added` scans every sleeper.
    if stepped && physics.world().stats().skipped {
        let touched = removed_markers.read().count() > 0 || !added_markers.is_empty();
        if !touched {
            return;
        }
    } else {
        removed_markers.clear();
    }
    let mapping = physics.mapping();
    for (entity, mut pose, mut velocity, mut spin, marked) in &mut bodies {
        let Some(body) = physics.handle(entity).and_then(|h| physics.world().body(h)) else {
            continue;
        };
        let current = pose_of(mapping, body.position(), body.angle());
        // Without a step the body stands still: drawing it between two older poses would
        // make a paused body shake with the frame timing.
        let previous = if stepped {
            pose_of(mapping, body.previous_position(), body.previous_angle())
        } else {
            current
        };
        let linear = set_if_neq(&mut velocity, mapping.vector_to_bevy(body.velocity()));
        let angular = set_if_neq(&mut spin, mapping.angle_to_bevy(body.angular_velocity()));
        // Remember the velocities the components hold (see `set_if_neq`), so that the next
        // comparison with them is exact.
        if pose.previous() != previous
            || pose.current() != current
            || pose.written_velocity != linear
            || pose.written_angular_velocity != angular
        {
            pose.record_step(previous, current, linear, angular);
        }
        if body.is_sleeping() != marked {
            sleep_markers.0.push((entity, body.is_sleeping()));
        }
    }
}

/// The [`Sleeping`] markers the write-back found out of date: each entity with whether it
/// should have one.
#[derive(Resource, Debug, Default)]
pub(crate) struct SleepMarkerChanges(Vec<(Entity, bool)>);

/// Whether the write-back found a [`Sleeping`] marker to insert or remove: the run condition
/// of [`apply_sleep_markers`].
pub(crate) fn sleep_markers_pending(changes: Res<SleepMarkerChanges>) -> bool {
    !changes.0.is_empty()
}

/// Inserts and removes the [`Sleeping`] markers listed in [`SleepMarkerChanges`].
///
/// An exclusive system that runs only when an island fell asleep or woke: the write-back then
/// needs no `Commands`, whose sync point would cost every step a round trip through the
/// executor.
pub(crate) fn apply_sleep_markers(world: &mut World) {
    let mut changes = std::mem::take(&mut world.resource_mut::<SleepMarkerChanges>().0);
    for &(entity, sleeping) in &changes {
        // Gone since the write-back (despawned by an observer): nothing to mark.
        let Ok(mut entity) = world.get_entity_mut(entity) else { continue };
        if sleeping {
            entity.insert(Sleeping);
        } else {
            entity.remove::<Sleeping>();
        }
    }
    // Hand the buffer back, so that the write-back does not allocate again.
    changes.clear();
    world.resource_mut::<SleepMarkerChanges>().0 = changes;
}

/// Writes `value` into a velocity component unless it already holds an equal one, and returns
/// what the component holds now: `value`, or the equal old value (a +0.0 where `value` has
/// −0.0).
///
/// The result comes from registers, not from reading the component back: a read right after
/// the write would stall on the store, on every body of every step.
fn set_if_neq<C, V>(component: &mut Mut<C>, value: V) -> V
where
    C: DerefMut<Target = V>,
    V: PartialEq + Copy,
{
    let held = ***component;
    if held == value {
        held
    } else {
        ***component = value;
        value
    }
}
