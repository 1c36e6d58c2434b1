//! Forces, torques, gravity scales, impulses and open walls for game code (R-GAME-5,
//! R-GAME-7): the Bevy face of the core's `World::set_force`, `set_torque`,
//! `set_gravity_scale`, `apply_impulse(_at)` and `set_wall_enabled`.
//!
//! Components are in Bevy's frame (y up, counter-clockwise positive) and mapped to the
//! core's (y down, clockwise positive) by the [`CoordinateMapping`](super::CoordinateMapping). Each fixed step,
//! [`apply_motion_components`] gives the core the values the components hold; a refused
//! value (not finite, too large, written to a body that is not dynamic) gets one warning and
//! the component is put back to what the core keeps, so the warning does not repeat. A body
//! turned static or kinematic keeps its components: they wait, without a warning, and act
//! again once it is dynamic.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

use super::events::{CollisionEventsEnabled, Sensor, set_contact_rules};
use super::physics_world::{PhysicsWarning, PhysicsWorld, WarnAndSend};
use crate::physics::{Body, BodyHandle, CollisionLayers, Input, PhysicsError, WallId};

/// A force applied to a dynamic body at its centre in every step until it is changed or
/// removed, in Bevy's frame (px·mass/s², where mass is area × density): `Δv = F·dt/m` per step.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
#[component(on_remove = note_removed)]
pub struct ConstantForce(pub Vec2);

/// A torque applied to a dynamic circle in every step until it is changed or removed,
/// counter-clockwise positive: `Δω = τ·dt/I` per step. Rectangles never turn.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
#[component(on_remove = note_removed)]
pub struct ConstantTorque(pub f32);

/// How strongly gravity pulls this body: 1 is normal, 0 floats, −1 falls up. Allowed:
/// −100 ..= 100. Removing the component sets it back to 1.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
#[component(on_remove = note_removed)]
pub struct GravityScale(pub f32);

impl Default for GravityScale {
    fn default() -> Self {
        Self(1.0)
    }
}

/// Which of the four walls act (R-GAME-7). Default: all four. A platformer switches off the
/// ceiling and the sides; bodies that leave through an open side keep going.
///
/// Changing the resource takes effect in the next fixed step and wakes every body.
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct PhysicsWalls {
    /// The wall at the left edge of the bounds.
    pub left: bool,
    /// The wall at the right edge.
    pub right: bool,
    /// The wall at the top edge (the ceiling).
    pub top: bool,
    /// The wall at the bottom edge (the floor).
    pub floor: bool,
}

impl Default for PhysicsWalls {
    fn default() -> Self {
        Self::ALL
    }
}

impl PhysicsWalls {
    /// All four walls: the sandbox's box.
    pub const ALL: Self = Self { left: true, right: true, top: true, floor: true };
    /// No walls at all: an open world.
    pub const NONE: Self = Self { left: false, right: false, top: false, floor: false };

    /// Whether `wall` acts.
    pub fn get(&self, wall: WallId) -> bool {
        match wall {
            WallId::Left => self.left,
            WallId::Right => self.right,
            WallId::Top => self.top,
            WallId::Floor => self.floor,
        }
    }

    /// Switches `wall` on or off.
    pub fn set(&mut self, wall: WallId, enabled: bool) {
        match wall {
            WallId::Left => self.left = enabled,
            WallId::Right => self.right = enabled,
            WallId::Top => self.top = enabled,
            WallId::Floor => self.floor = enabled,
        }
    }
}

/// Why an operation on a body entity was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyError {
    /// The entity has no simulated body (no collider, despawned, or waiting after a refusal).
    NotABody(Entity),
    /// The core refused the operation; the error names the field and the allowed range.
    Refused(PhysicsError),
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyError::NotABody(entity) => write!(f, "entity {entity} has no simulated body"),
            BodyError::Refused(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BodyError {}

impl PhysicsWorld {
    fn body_handle(&self, entity: Entity) -> Result<BodyHandle, BodyError> {
        self.handle(entity).ok_or(BodyError::NotABody(entity))
    }

    /// Gives a dynamic body an instant change of momentum `J` at its centre, in Bevy's frame:
    /// `Δv = J/m`. Wakes the body.
    pub fn apply_impulse(&mut self, entity: Entity, impulse: Vec2) -> Result<(), BodyError> {
        let handle = self.body_handle(entity)?;
        let impulse = self.mapping().vector_to_core(impulse);
        self.apply(Input::ApplyImpulse { body: handle, impulse })
            .map(drop)
            .map_err(BodyError::Refused)
    }

    /// Gives a dynamic body an impulse `J` at the world point `point` (Bevy's frame):
    /// `Δv = J/m`, and a circle turns by `Δω = (r × J)/I` with `r` from its centre to the
    /// point. Wakes the body.
    pub fn apply_impulse_at(
        &mut self,
        entity: Entity,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), BodyError> {
        let handle = self.body_handle(entity)?;
        let mapping = self.mapping();
        let (impulse, point) = (mapping.vector_to_core(impulse), mapping.position_to_core(point));
        self.apply(Input::ApplyImpulseAt { body: handle, impulse, point })
            .map(drop)
            .map_err(BodyError::Refused)
    }
}

/// Gives the core the force, torque and gravity scale the components hold. Runs in every
/// fixed step after the bodies are registered; a value equal to the core's costs one
/// comparison. Removed components are handled by [`apply_removed_game_components`].
///
/// A static or kinematic body takes none of them (the core holds no force, no torque and a
/// gravity scale of 1 for it). A component the body had before its [`RigidBody`] changed to
/// one of those kinds is not the game's write: it is left as it is, without a word, and acts
/// again once the body is dynamic. Only a value written while the body is not dynamic (the
/// component changed since the last step) is refused, with one warning, and put back to what
/// the core keeps for such a body. Telling the two apart is why the change tick is read:
/// both look the same to the core, which refuses either.
///
/// [`RigidBody`]: super::RigidBody
#[expect(clippy::type_complexity, reason = "a query over the optional motion components")]
pub(crate) fn apply_motion_components(
    mut physics: ResMut<PhysicsWorld>,
    mut bodies: Query<
        (
            Entity,
            Option<&mut ConstantForce>,
            Option<&mut ConstantTorque>,
            Option<&mut GravityScale>,
        ),
        Or<(With<ConstantForce>, With<ConstantTorque>, With<GravityScale>)>,
    >,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    let mapping = physics.mapping();
    for (entity, force, torque, scale) in &mut bodies {
        let Some(handle) = physics.handle(entity) else { continue };
        let dynamic = physics.world().body(handle).is_some_and(Body::is_dynamic);
        // Judged only if the body can take it or the game wrote it just now.
        let judged = |changed: bool| dynamic || changed;
        if let Some(mut force) = force.filter(|f| judged(f.is_changed())) {
            let kept = physics.world().force(handle).unwrap_or(Vec2::ZERO);
            let wanted = mapping.vector_to_core(force.0);
            if wanted != kept
                && let Err(error) = physics.apply(Input::SetForce { body: handle, force: wanted })
            {
                warn_refused(&mut warnings, entity, "ConstantForce", &error);
                force.0 = mapping.vector_to_bevy(kept);
            }
        }
        if let Some(mut torque) = torque.filter(|t| judged(t.is_changed())) {
            let kept = physics.world().torque(handle).unwrap_or(0.0);
            let wanted = mapping.angle_to_core(torque.0);
            if wanted != kept
                && let Err(error) = physics.apply(Input::SetTorque { body: handle, torque: wanted })
            {
                warn_refused(&mut warnings, entity, "ConstantTorque", &error);
                torque.0 = mapping.angle_to_bevy(kept);
            }
        }
        if let Some(mut scale) = scale.filter(|s| judged(s.is_changed())) {
            let kept = physics.world().gravity_scale(handle).unwrap_or(1.0);
            if scale.0 != kept
                && let Err(error) =
                    physics.apply(Input::SetGravityScale { body: handle, scale: scale.0 })
            {
                warn_refused(&mut warnings, entity, "GravityScale", &error);
                scale.0 = kept;
            }
        }
    }
}

fn warn_refused(
    warnings: &mut MessageWriter<PhysicsWarning>,
    entity: Entity,
    component: &str,
    error: &PhysicsError,
) {
    let message = format!(
        "entity {entity}: {component} refused ({error}); it was put back to the body's value"
    );
    warnings.warn_and_send(Some(entity), message);
}

/// Entities that lost a game component ([`ConstantForce`], [`ConstantTorque`],
/// [`GravityScale`], [`Sensor`], [`CollisionEventsEnabled`], `CollisionLayers`) since the
/// last fixed step, noted by the components' `on_remove` hooks.
///
/// Not `RemovedComponents`: its messages last two frames, and at a high frame rate the fixed
/// step may not run for longer than that (at 1,000 frames per second and 120 steps per
/// second, seven frames in eight have no step).
#[derive(Resource, Default)]
pub(crate) struct GameComponentRemovals(Vec<Entity>);

/// The `on_remove` hook of the game components: notes the entity for
/// [`apply_removed_game_components`].
pub(crate) fn note_removed(mut world: DeferredWorld, context: HookContext) {
    if let Some(mut removals) = world.get_resource_mut::<GameComponentRemovals>() {
        removals.0.push(context.entity);
    }
}

/// Notes an entity whose `CollisionLayers` (the core's type, so no hook of ours) was removed.
pub(crate) fn note_removed_layers(
    removed: On<Remove, CollisionLayers>,
    mut removals: ResMut<GameComponentRemovals>,
) {
    removals.0.push(removed.entity);
}

/// Takes back what removed game components gave the core: no force or torque, gravity scale
/// 1, not a sensor, no events, every layer. A despawned entity has no body any more and is
/// skipped; one that got the component back keeps it.
#[expect(clippy::type_complexity, reason = "a query over the game components")]
pub(crate) fn apply_removed_game_components(
    mut physics: ResMut<PhysicsWorld>,
    mut removals: ResMut<GameComponentRemovals>,
    bodies: Query<(
        Has<ConstantForce>,
        Has<ConstantTorque>,
        Has<GravityScale>,
        Has<Sensor>,
        Has<CollisionEventsEnabled>,
        Option<&CollisionLayers>,
    )>,
) {
    if removals.0.is_empty() {
        return;
    }
    for entity in removals.0.drain(..) {
        let (Some(handle), Ok((force, torque, scale, sensor, events, layers))) =
            (physics.handle(entity), bodies.get(entity))
        else {
            continue;
        };
        // Each call below is allowed for any live body it is made for (the force calls for
        // dynamic ones, whose values are the only ones that can differ from the defaults).
        let world = physics.world();
        let reset_force = !force && world.force(handle).is_ok_and(|f| f != Vec2::ZERO);
        let reset_torque = !torque && world.torque(handle).is_ok_and(|t| t != 0.0);
        let reset_scale = !scale && world.gravity_scale(handle).is_ok_and(|s| s != 1.0);
        if reset_force {
            let _ = physics.apply(Input::SetForce { body: handle, force: Vec2::ZERO });
        }
        if reset_torque {
            let _ = physics.apply(Input::SetTorque { body: handle, torque: 0.0 });
        }
        if reset_scale {
            let _ = physics.apply(Input::SetGravityScale { body: handle, scale: 1.0 });
        }
        // What the remaining components say; a removed one says the default.
        let layers = layers.copied().unwrap_or_default();
        set_contact_rules(&mut physics, handle, sensor, events, layers);
    }
}

/// Switches the core's walls to match [`PhysicsWalls`] when the resource changed.
pub(crate) fn apply_walls(walls: Res<PhysicsWalls>, mut physics: ResMut<PhysicsWorld>) {
    if !walls.is_changed() {
        return;
    }
    for wall in WallId::ALL {
        if physics.world().wall_enabled(wall) != walls.get(wall) {
            let enabled = walls.get(wall);
            let _ = physics.apply(Input::SetWallEnabled { wall, enabled });
        }
    }
}
