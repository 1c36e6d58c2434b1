//! Drawing bodies between two physics steps (§3, R-FIX-1, R-FIX-2).
//!
//! The simulation runs at a fixed 120 Hz, the screen at whatever rate it likes. Drawing the
//! latest physics pose would show a body moving 2 steps in one 60 Hz frame and 0 or 1 in a
//! 144 Hz frame: visible stutter. Instead each frame draws
//!
//! ```text
//! pose = lerp(previous, current, alpha),   alpha = Time<Fixed>::overstep_fraction()
//! ```
//!
//! where `previous` and `current` are the poses before and after the last step
//! ([`PhysicsPose`]) and `alpha` is the part of a step that has accumulated since. At constant
//! velocity the drawn position is then exactly the physics trajectory one step in the past,
//! so it advances by the same amount every frame of the same length. This is the scheme of
//! Bevy's `physics_in_fixed_timestep` example, and the "Fix your timestep" article by Glenn
//! Fiedler.
//!
//! A body with [`NoInterpolation`] is drawn at `current`. A `Transform` someone else wrote
//! since the last frame (a teleport waiting for the next step) is left alone.

use bevy::prelude::*;

use super::components::{NoInterpolation, PhysicsPose, Sleeping};
use super::physics_world::PhysicsWorld;
use super::schedule::PhysicsSystems;

/// Writes every body's `Transform` once per frame, interpolated between the last two physics
/// poses ([`PhysicsSystems::Interpolate`], in `Update`).
///
/// It is the only writer of the bodies' `Transform`s: without it they stay where they were
/// spawned (or teleported), and an app draws the bodies from [`PhysicsPose`] itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsInterpolationPlugin;

impl Plugin for PhysicsInterpolationPlugin {
    fn build(&self, app: &mut App) {
        // Skipped in a frame in which `PhysicsWorld` was removed (it is back in the next).
        app.add_systems(
            Update,
            interpolate_transforms
                .in_set(PhysicsSystems::Interpolate)
                .run_if(resource_exists::<PhysicsWorld>),
        );
    }
}

/// Writes every simulated body's `Transform` (x, y and rotation; z and scale are kept).
///
/// A `Transform` already at the drawn pose (a body at rest or asleep) is left unwritten, so
/// its change tick stays.
///
/// A sleeping body is visited only in a frame after a step that changed its [`PhysicsPose`]:
/// the step in which it fell asleep, and the next, whose start makes its previous pose equal
/// to its current one (every step remembers every body's pose), so that it is then drawn at
/// that pose, whatever the frame's `alpha`. After that it is not visited at all: a world
/// asleep costs a change tick per body here, not an interpolation (issue 20).
#[expect(clippy::type_complexity, reason = "the sleepers' change filter")]
pub(crate) fn interpolate_transforms(
    fixed: Res<Time<Fixed>>,
    physics: Res<PhysicsWorld>,
    mut bodies: Query<
        (Entity, &mut PhysicsPose, &mut Transform, Has<NoInterpolation>),
        Or<(Without<Sleeping>, Changed<PhysicsPose>)>,
    >,
) {
    let alpha = fixed.overstep_fraction().clamp(0.0, 1.0);
    for (entity, mut pose, mut transform, snap) in &mut bodies {
        if pose.transform_moved(&transform) || physics.handle(entity).is_none() {
            continue;
        }
        let drawn = if snap { pose.current() } else { pose.interpolated(alpha) };
        let translation = drawn.translation.extend(transform.translation.z);
        let rotation = Quat::from_rotation_z(drawn.angle);
        if transform.translation != translation || transform.rotation != rotation {
            transform.translation = translation;
            transform.rotation = rotation;
            pose.remember_transform(&transform);
        }
    }
}
