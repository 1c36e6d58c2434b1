//! Putting back a resource of the plugin that was removed (R-PLUG-1).
//!
//! Every part of the plugin reads its resources in every frame or step, and Bevy fails a
//! system whose `Res` or `ResMut` is missing ("Parameter `ResMut<PhysicsConfig>` failed
//! validation"), which panics the app. Removing one is a write the plugin cannot take, so it
//! is treated like any other refused write: one [`PhysicsWarning`](super::PhysicsWarning)
//! naming the resource, and the resource is put back.
//!
//! - Each part registers its public resources with
//!   [`restore_when_removed`](RestoreRemoved::restore_when_removed), with what comes back.
//! - [`restore_removed_resources`] puts back whatever is missing, first thing in `First`
//!   and at the start of every fixed step (`run_physics_schedule`), so no frame and no step
//!   starts without them, wherever in the frame the removal happened.
//! - The parts' systems outside the fixed step (in `PreUpdate`, `Update`, the panel's pass)
//!   have run conditions on the resources they read ([`simulation_present`] and
//!   `resource_exists`): in the frame of a removal they skip until the next repair.
//!
//! What comes back is what is in force: the core's config, walls and bounds, the last valid
//! time scale and wall insets; everything else as at startup. A removed
//! [`PhysicsWorld`](super::PhysicsWorld) takes the core world with it, so its restorer
//! (`PhysicsSimulationPlugin`'s) builds an empty one with the settings in force and has every
//! body entity registered again from its components on the next step: no body is lost.
//!
//! The plugin's private resources are not in the list: no code outside the crate can name
//! them to remove them.

use bevy::prelude::*;
use bevy::utils::prelude::ShortName;

use super::controls::{
    PhysicsBounds, PhysicsControls, PhysicsTimeScale, WallInsets, WallsFollowWindow,
};
use super::motion::PhysicsWalls;
use super::physics_world::{PhysicsWorld, WarnAndSend};
use crate::physics::PhysicsConfig;

/// How to put back one resource.
struct Restorer {
    /// The resource's type name, for the warning.
    name: String,
    /// What comes back, for the warning.
    what: &'static str,
    present: fn(&World) -> bool,
    restore: Box<dyn Fn(&mut World) + Send + Sync>,
}

/// The resources [`restore_removed_resources`] puts back, in the order they were registered
/// (the simulation's first: the others' restorers read the core world).
#[derive(Resource, Default)]
pub(crate) struct RemovableResources(Vec<Restorer>);

/// Registration of a resource to put back when it is removed.
pub(crate) trait RestoreRemoved {
    /// Puts `R` back with `restore`'s value whenever it is found missing; `what` says what
    /// that value is ("the config in force"), for the warning.
    fn restore_when_removed<R: Resource>(
        &mut self,
        what: &'static str,
        restore: impl Fn(&mut World) -> R + Send + Sync + 'static,
    ) -> &mut Self;
}

impl RestoreRemoved for App {
    fn restore_when_removed<R: Resource>(
        &mut self,
        what: &'static str,
        restore: impl Fn(&mut World) -> R + Send + Sync + 'static,
    ) -> &mut Self {
        self.init_resource::<RemovableResources>();
        self.world_mut().resource_mut::<RemovableResources>().0.push(Restorer {
            name: ShortName::of::<R>().to_string(),
            what,
            present: |world| world.contains_resource::<R>(),
            restore: Box::new(move |world| {
                let value = restore(world);
                world.insert_resource(value);
            }),
        });
        self
    }
}

/// Puts back every registered resource that is missing, each with one warning naming it.
///
/// An exclusive system: a resource is back at once, before any other system runs. When all
/// are there, as always but after a removal, it costs one lookup per resource.
pub(crate) fn restore_removed_resources(world: &mut World) {
    let Some(restorers) = world.get_resource::<RemovableResources>() else { return };
    if restorers.0.iter().all(|restorer| (restorer.present)(world)) {
        return;
    }
    world.resource_scope(|world, restorers: Mut<RemovableResources>| {
        for restorer in &restorers.0 {
            if (restorer.present)(world) {
                continue;
            }
            (restorer.restore)(world);
            let message = format!(
                "{} was removed, and the plugin's systems need it: it was put back ({}). \
                 Change its value instead of removing it",
                restorer.name, restorer.what
            );
            world.warn_and_send(None, message);
        }
    });
}

/// Whether every public resource of the simulation is there: the run condition of the
/// plugin's systems outside the fixed step, which skip the rest of a frame in which one was
/// removed ([`restore_removed_resources`] puts it back at the start of the next).
#[expect(clippy::too_many_arguments, reason = "one parameter per resource")]
pub(crate) fn simulation_present(
    physics: Option<Res<PhysicsWorld>>,
    config: Option<Res<PhysicsConfig>>,
    controls: Option<Res<PhysicsControls>>,
    bounds: Option<Res<PhysicsBounds>>,
    walls: Option<Res<PhysicsWalls>>,
    scale: Option<Res<PhysicsTimeScale>>,
    insets: Option<Res<WallInsets>>,
    follow: Option<Res<WallsFollowWindow>>,
) -> bool {
    physics.is_some()
        && config.is_some()
        && controls.is_some()
        && bounds.is_some()
        && walls.is_some()
        && scale.is_some()
        && insets.is_some()
        && follow.is_some()
}
