//! A body entity's life beside its body: despawned, disabled, or stripped of a component it
//! needs.
//!
//! Despawning an entity (or removing its collider) unlinks it at once, through the collider's
//! `on_remove` hook [`unlink_body`], and queues its body; [`remove_despawned_bodies`] takes
//! all queued bodies out of the core together and wakes their islands (R-SLP-4), first thing
//! in the next frame and in the next fixed step. A hook rather than `RemovedComponents`
//! because the fixed loop may not run in a given frame, and removal messages do not wait for
//! it. A despawn inside `World::resource_scope::<PhysicsWorld>`, which takes the resource
//! out of the world while it runs, is noted in [`UnlinkLater`] and unlinked as soon as the
//! resource is back ([`unlink_on_return`]), as are a disabled body and a body given a parent
//! there.
//!
//! Removing one of the components a [`Collider`] requires (`Transform`, the velocities,
//! [`PhysicsPose`], [`RigidBody`], [`PhysicsMaterial`]) from a simulated body is refused as
//! any refused write is (one warning, then repaired): the systems that keep the entity in
//! step need them all, and without one the body went on colliding with nothing to show it.
//! [`put_back_required_components`] puts each back from the body at the start of the next
//! frame, with one warning naming it. Removed while the entity has no body (disabled, or
//! waiting after a refused spawn), there is nothing to put it back from: when the entity
//! would join the simulation it is refused instead ([`refuse_incomplete`]), with one warning
//! naming the component, and waits until it has them all again.
//!
//! # Disabled entities
//! An entity given Bevy's `Disabled` component vanishes from every query that does not ask
//! for it, the plugin's included, so its body would go on colliding and moving in the core
//! with nothing to show it. A disabled body entity leaves the simulation as a despawned one
//! does ([`leave_when_disabled`]), but the entity stays as it was; once `Disabled` is removed
//! ([`rejoin_when_enabled`]) the body comes back from its components, judged as a new spawn
//! (at its `Transform`, with its velocities). No warning: disabling is the game's choice, not
//! a refused value. A clear, a load and a rewind despawn disabled body entities with the
//! others.

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::query::Allow;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

use super::components::{
    AngularVelocity, Collider, LinearVelocity, PhysicsMaterial, PhysicsPose, RigidBody, Sleeping,
};
use super::physics_world::{PhysicsWarning, PhysicsWorld, WarnAndSend};
use super::simulation::WorldInForce;
use super::sync::{PARENTED, Until, WaitingBodies, kind_of, leave_for_parent, pose_of, refuse};

/// Takes the body of an entity given Bevy's `Disabled` out of the simulation, as a despawn
/// would, and leaves the entity as it is.
///
/// A disabled entity is in no query that does not name `Disabled`: without this its body
/// stayed in the core, an invisible body that kept colliding (and, dynamic, kept moving while
/// its entity's pose stood still). [`rejoin_when_enabled`] brings it back. While
/// [`PhysicsWorld`] is out of the world (`World::resource_scope`) the entity waits in
/// [`UnlinkLater`], as for a despawn.
pub(crate) fn leave_when_disabled(
    disabled: On<Insert, Disabled>,
    physics: Option<ResMut<PhysicsWorld>>,
    later: Option<ResMut<UnlinkLater>>,
) {
    if let Some(mut physics) = physics.filter(|physics| !physics.is_stale()) {
        physics.unlink_and_queue(disabled.entity);
    } else if let Some(mut later) = later {
        later.entities.push(disabled.entity);
    }
}

/// Brings a body entity back into the simulation when its `Disabled` is removed: its
/// [`Collider`] is marked changed, so [`register_bodies`](super::sync::register_bodies) judges it on the next step like a
/// new spawn, from the components as they are then (a refusal warns and waits as usual).
///
/// Marked rather than added here: the entity is judged with the rest, in entity order, by the
/// one system that adds bodies. One that lost a component its collider requires while it was
/// disabled is refused there with a warning, and waits until the component is back
/// ([`refuse_incomplete`]). The observer runs before `Disabled` is gone, hence
/// `Allow<Disabled>`; on a despawn it marks a collider about to go, which is harmless.
pub(crate) fn rejoin_when_enabled(
    enabled: On<Remove, Disabled>,
    mut colliders: Query<&mut Collider, Allow<Disabled>>,
) {
    if let Ok(mut collider) = colliders.get_mut(enabled.entity) {
        collider.set_changed();
    }
}

/// The [`Collider`]'s `on_remove` hook, run when an entity is despawned or loses its
/// collider: forgets the entity at once and queues its body for [`remove_despawned_bodies`],
/// so no system, query or event of this frame can hand out an entity without a body.
///
/// A component hook, not an observer: a hook is a plain function call, where an observer
/// runs as a system, and despawning 20,000 bodies paid about 0.45 µs each for the observer
/// and the command it queued (`benches/plugin_despawn.rs`). It does no more than that: a
/// hook cannot tell a despawn from a removal, so whether a [`Sleeping`] marker must go is
/// left to [`remove_despawned_bodies`], one query lookup per entity there instead of a
/// component lookup by type here (about 110 of the 1,800 instructions a despawn of a body
/// costs, measured with callgrind).
///
/// While [`PhysicsWorld`] is out of the world (taken by `World::resource_scope`, or removed
/// and put back by hand), the hook cannot reach the entity ↔ body map; it notes the entity in
/// [`UnlinkLater`] instead, one push, and [`unlink_on_return`] unlinks it when the resource
/// is back ([`remove_despawned_bodies`] first thing in the next frame or fixed step, if it is
/// not by then). Without that, the body stayed in the core for good with no entity:
/// invisible, and still in everyone's way.
pub(crate) fn unlink_body(mut world: DeferredWorld, context: HookContext) {
    if let Some(mut physics) = world.get_resource_mut::<PhysicsWorld>()
        && !physics.is_stale()
    {
        physics.unlink_and_queue(context.entity);
    } else if let Some(mut later) = world.get_resource_mut::<UnlinkLater>() {
        later.entities.push(context.entity);
    }
}

/// Entities to unlink that were noted while [`PhysicsWorld`] was out of the world (inside a
/// `World::resource_scope::<PhysicsWorld>`): despawned, their collider removed, disabled, or
/// given a parent. [`unlink_on_return`] unlinks them when the resource is back, or
/// [`remove_despawned_bodies`] before anything else looks at the bodies. Empty but in the
/// rarest of cases, so the hook's common path stays one call.
///
/// An entity noted here is unlinked only if it is still linked to a body under the same
/// `Entity` (index and generation), so a later entity that reuses the index is never taken
/// for it; and should that later entity be linked first, `PhysicsWorld::link` takes the
/// stale entry's body out itself.
#[derive(Resource, Debug, Default)]
pub(crate) struct UnlinkLater {
    /// Despawned, their collider removed, or disabled.
    pub(crate) entities: Vec<Entity>,
    /// Given a parent ([`refuse_parented_body`](super::sync::refuse_parented_body)): refused
    /// as that observer refuses them, with a warning, if they still have a parent then.
    pub(crate) parented: Vec<Entity>,
}

impl UnlinkLater {
    /// Whether `entity` left the simulation (despawned, its collider removed, disabled, or
    /// given a parent) while [`PhysicsWorld`] was out of the world: still linked to its body
    /// until [`remove_despawned_bodies`] runs, but no query or hover may name it.
    pub(crate) fn is_leaving(&self, entity: Entity) -> bool {
        self.entities.contains(&entity) || self.parented.contains(&entity)
    }

    /// Unlinks the noted entities from `physics`, and refuses the noted children that still
    /// have a parent (`has_parent`) as [`refuse_parented_body`](super::sync::refuse_parented_body)
    /// does. A child despawned or disabled since has left already, and a disabled one is
    /// judged when enabled.
    fn unlink(
        &mut self,
        physics: &mut PhysicsWorld,
        waiting: &mut WaitingBodies,
        warnings: &mut impl WarnAndSend,
        has_parent: impl Fn(Entity) -> bool,
    ) {
        for entity in self.entities.drain(..) {
            physics.unlink_and_queue(entity);
        }
        for entity in self.parented.drain(..) {
            if has_parent(entity) {
                leave_for_parent(physics, waiting, warnings, entity);
            }
        }
    }
}

/// Unlinks the entities noted in [`UnlinkLater`] as soon as [`PhysicsWorld`] is back in the
/// world: at the end of a `World::resource_scope::<PhysicsWorld>` (Bevy inserts the resource
/// again), or when a removed one is put back. Without this the entity ↔ body map kept naming
/// them until the next frame or fixed step began: `PhysicsWorld::entity` handed out an entity
/// despawned in the scope, and `PhysicsWorld::handle` a body for it, to every system that ran
/// after the scope in that frame.
///
/// A stale world (put back after the plugin had built another in its place) missed every
/// change in between, and its map may name entities despawned since: it names none from
/// now on, and is rebuilt before its next step
/// ([`rebuild_stale_world`](super::simulation::rebuild_stale_world)). While it is in the
/// app, what the hook and the observers see is noted in [`UnlinkLater`] for the world in
/// force, as while no world is in the app: should that one be put back instead, it learns
/// of the despawns, parents and disablings it missed.
///
/// Every input is optional, as the observer runs whenever the resource is inserted: with
/// the warnings' queue out of the world too (a scope inside a scope), or `WaitingBodies`
/// missing, the children noted wait for the next frame's
/// [`remove_despawned_bodies`], which can warn about them.
pub(crate) fn unlink_on_return(
    _returned: On<Insert, PhysicsWorld>,
    physics: Option<ResMut<PhysicsWorld>>,
    later: Option<ResMut<UnlinkLater>>,
    in_force: Option<Res<WorldInForce>>,
    waiting: Option<ResMut<WaitingBodies>>,
    parented: Query<(), With<ChildOf>>,
    warnings: Option<ResMut<Messages<PhysicsWarning>>>,
) {
    let (Some(mut physics), Some(mut later)) = (physics, later) else { return };
    if in_force.map_or(physics.is_stale(), |in_force| !in_force.is(&physics)) {
        // What was noted waits for the world in force (put back, or rebuilt in this one's
        // place), as do the changes until then (`unlink_body` and the observers note them).
        let stale: Vec<Entity> = physics.linked_entities().collect();
        for entity in stale {
            physics.unlink_and_queue(entity);
        }
        return;
    }
    let (Some(mut waiting), Some(mut warnings)) = (waiting, warnings) else {
        for entity in later.entities.drain(..) {
            physics.unlink_and_queue(entity);
        }
        return;
    };
    let has_parent = |entity| parented.contains(entity);
    later.unlink(&mut physics, &mut waiting, &mut *warnings, has_parent);
}

/// Refuses, as [`refuse_parented_body`](super::sync::refuse_parented_body) does, the body entities given a parent while
/// [`PhysicsWorld`] was removed, for the world rebuilt in its place (which re-adds only the
/// top-level ones): the observer could not reach the entity ↔ body map then, and the body
/// its note named is not in the rebuilt core. Without this the child was neither simulated
/// nor warned about, and not simulated again once its parent went. One that waits already
/// (given a parent before the removal) is not warned about again. A child without
/// [`PhysicsPose`] (removed too while the world was out) cannot tell whether it was
/// simulated: it is refused as well, rather than passed by for good, unsaid.
pub(crate) fn refuse_parented_after_rebuild(world: &mut World) {
    let mut children =
        world.query_filtered::<(Entity, Option<&PhysicsPose>), (With<Collider>, With<ChildOf>)>();
    let children: Vec<Entity> = children
        .iter(world)
        .filter(|(_, pose)| pose.is_none_or(|pose| pose.written_translation.is_some()))
        .map(|(entity, _)| entity)
        .collect();
    for entity in children {
        let mut waiting = world.get_resource_mut::<WaitingBodies>();
        if waiting.as_mut().is_some_and(|waiting| waiting.wait(entity, Until::Unparented)) {
            refuse(world, entity, PARENTED.into());
        }
    }
}

/// Takes the bodies of the entities despawned since it last ran out of the core, in one call
/// for all of them, and wakes their islands (R-SLP-4): despawning k bodies costs one pass over
/// the bodies, not k. Runs first in every frame and first in every fixed step, so neither the
/// picking nor a step ever sees a despawned body.
///
/// An entity that lost its collider, or was disabled, but lives on loses its [`Sleeping`]
/// marker here too (a disabled one is seen through `Allow<Disabled>`).
pub(crate) fn remove_despawned_bodies(
    physics: Option<ResMut<PhysicsWorld>>,
    mut later: ResMut<UnlinkLater>,
    mut waiting: ResMut<WaitingBodies>,
    sleeping: Query<(), (With<Sleeping>, Allow<Disabled>)>,
    parented: Query<(), With<ChildOf>>,
    mut warnings: MessageWriter<PhysicsWarning>,
    mut commands: Commands,
) {
    let Some(mut physics) = physics else { return };
    // Those the hook and the observers could not unlink while the resource was out of the
    // world, if it has not come back since (`unlink_on_return` unlinks them then).
    later.unlink(&mut physics, &mut waiting, &mut warnings, |entity| parented.contains(entity));
    for entity in physics.pending_entities() {
        // Despawned entities fail `contains`: one lookup each.
        if sleeping.contains(entity) {
            commands.entity(entity).try_remove::<Sleeping>();
        }
    }
    physics.remove_pending();
}

/// Whether an entity has each of the components a [`Collider`] requires, in the order of
/// [`REQUIRED`]. Archetype flags only: a query of them conflicts with no other.
pub(crate) type RequiredPresent = (
    Has<Transform>,
    Has<LinearVelocity>,
    Has<AngularVelocity>,
    Has<PhysicsPose>,
    Has<RigidBody>,
    Has<PhysicsMaterial>,
);

/// The names of the components a [`Collider`] requires, as the warnings say them.
const REQUIRED: [&str; 6] = [
    "Transform",
    "LinearVelocity",
    "AngularVelocity",
    "PhysicsPose",
    "RigidBody",
    "PhysicsMaterial",
];

/// Refuses an entity without a body that lacks a component its [`Collider`] requires, with
/// one warning naming what is missing and what is allowed (R-PLUG-1); the caller has it wait
/// until it has them all.
///
/// Such a component was removed while the entity had no body (disabled, waiting after a
/// refused spawn, or before its first step), so [`put_back_required_components`] had no
/// body to put it back from. Nor is a default put back: `Transform::IDENTITY`,
/// `RigidBody::Dynamic` or the default material would silently move a body, make a static
/// one fall or change what it is made of. Without this, the entity was not simulated and
/// never judged again, even once the component was back, and nothing was said.
pub(crate) fn refuse_incomplete(
    warnings: &mut MessageWriter<PhysicsWarning>,
    entity: Entity,
    present: (bool, bool, bool, bool, bool, bool),
) {
    let (a, b, c, d, e, f) = present;
    let missing: Vec<&str> = [a, b, c, d, e, f]
        .into_iter()
        .zip(REQUIRED)
        .filter_map(|(has, name)| (!has).then_some(name))
        .collect();
    let (names, it) = (missing.join(", "), if missing.len() == 1 { "it" } else { "them" });
    refuse(
        warnings,
        entity,
        format!(
            "{names} missing, and its Collider requires {it} (allowed: an entity with all of \
             {}); removed while the entity had no body, so there is nothing to put {it} back \
             from: the entity is not simulated until {it} {} inserted again",
            REQUIRED.join(", "),
            if missing.len() == 1 { "is" } else { "are" }
        ),
    );
}

/// The collider entities that lack one of the components a [`Collider`] requires: someone
/// removed it (Bevy inserts them all with the collider).
type LacksRequired = (
    With<Collider>,
    Or<(
        Without<Transform>,
        Without<LinearVelocity>,
        Without<AngularVelocity>,
        Without<PhysicsPose>,
        Without<RigidBody>,
        Without<PhysicsMaterial>,
    )>,
);

/// Puts back the components a [`Collider`] requires, removed from an entity whose body is
/// simulated: `Transform`, [`LinearVelocity`], [`AngularVelocity`], [`PhysicsPose`],
/// [`RigidBody`] and [`PhysicsMaterial`], each from the body as it is now, with one warning
/// naming them (R-PLUG-1). Runs in `First`, so a removal is answered at the start of the next
/// frame, before the fixed steps.
///
/// Without it the body went on being simulated and colliding while its entity was no longer
/// kept in step (the write-back needs the pose and velocities, the interpolation the pose and
/// the `Transform`, the user writes all of them): an invisible collider, and nothing said.
/// Put back rather than taken out of the simulation, as every other refused write is: the
/// way to take a body out is to remove its collider (or to disable the entity), and a game
/// that removed a velocity by mistake keeps its body.
///
/// `Transform` comes back at the body's pose, with the z and scale of the entity's
/// `GlobalTransform` (its last propagated `Transform`: bodies are top-level); a velocity at the
/// body's velocity; [`PhysicsPose`] at the body's pose, adopting the components as the
/// plugin's own values, as for a new body. The pose remembers what is put back, so nothing
/// put back is taken for a write of the game's.
///
/// Found by a query of the collider entities without one of them ([`LacksRequired`]), an
/// archetype filter: a frame in which nothing was removed costs a look at the few (empty)
/// archetypes it matches, and a despawn costs nothing here. `RemovedComponents` would have
/// cost every despawned body a lookup per component (about 190 instructions a body for six,
/// measured with callgrind, as much as the collider's hook), and hooks more. An entity found
/// that has no body (refused at spawn, with a parent, or not yet judged) is left to
/// [`register_bodies`](super::sync::register_bodies), which refuses it with a warning
/// ([`refuse_incomplete`]) and has it wait until the components are back; a disabled one is
/// judged so when it is enabled.
#[expect(clippy::type_complexity, reason = "a query over the optional required components")]
pub(crate) fn put_back_required_components(
    physics: Option<Res<PhysicsWorld>>,
    mut lacking: Query<
        (
            Entity,
            Option<&Transform>,
            Option<&GlobalTransform>,
            Option<&LinearVelocity>,
            Option<&AngularVelocity>,
            Option<&mut PhysicsPose>,
            Has<RigidBody>,
            Has<PhysicsMaterial>,
        ),
        LacksRequired,
    >,
    mut commands: Commands,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    let Some(physics) = physics else { return };
    let mapping = physics.mapping();
    for (entity, transform, global, velocity, spin, pose, has_kind, has_material) in &mut lacking {
        let Some(body) = physics.handle(entity).and_then(|h| physics.world().body(h)) else {
            continue;
        };
        let now = pose_of(mapping, body.position(), body.angle());
        let mut missing = Vec::new();
        let mut put_back = commands.entity(entity);
        let (transform, put_transform) = match transform {
            Some(transform) => (*transform, false),
            None => {
                missing.push("Transform");
                let mut put = global.map_or(Transform::IDENTITY, |g| g.compute_transform());
                put.translation = now.translation.extend(put.translation.z);
                put.rotation = Quat::from_rotation_z(now.angle);
                put_back.insert(put);
                (put, true)
            }
        };
        let (velocity, put_velocity) = match velocity {
            Some(velocity) => (velocity.0, false),
            None => {
                missing.push("LinearVelocity");
                let put = mapping.vector_to_bevy(body.velocity());
                put_back.insert(LinearVelocity(put));
                (put, true)
            }
        };
        let (spin, put_spin) = match spin {
            Some(spin) => (spin.0, false),
            None => {
                missing.push("AngularVelocity");
                let put = mapping.angle_to_bevy(body.angular_velocity());
                put_back.insert(AngularVelocity(put));
                (put, true)
            }
        };
        match pose {
            Some(mut pose) => {
                // What was put back is the plugin's own value, not a write to judge.
                if put_transform {
                    pose.remember_transform(&transform);
                }
                if put_velocity {
                    pose.written_velocity = velocity;
                }
                if put_spin {
                    pose.written_angular_velocity = spin;
                }
                // The write-back skipped the entity while a velocity was missing.
                if pose.current() != now {
                    pose.set(now, now);
                }
            }
            None => {
                missing.push("PhysicsPose");
                let mut put = PhysicsPose::default();
                put.adopt(&transform, velocity, spin, body.shape());
                put.set(now, now);
                put_back.insert(put);
            }
        }
        if !has_kind {
            missing.push("RigidBody");
            put_back.insert(kind_of(body));
        }
        if !has_material {
            missing.push("PhysicsMaterial");
            put_back.insert(PhysicsMaterial(body.material()));
        }
        let (names, it) = (missing.join(", "), if missing.len() == 1 { "it" } else { "them" });
        refuse(
            &mut warnings,
            entity,
            format!(
                "{names} removed from a simulated body, which needs {it}; put back from the body \
                 (allowed: to take a body out of the simulation, remove its Collider or insert \
                 Disabled)"
            ),
        );
    }
}
