//! The system sets and the schedule of one physics step.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// The plugin's system sets, in the order they run.
///
/// `Prepare`, `Step` and `Writeback` are chained in [`PhysicsSchedule`], which runs once per
/// fixed step; `Interpolate` runs in `Update`.
///
/// In `FixedUpdate` the same three sets are chained around the one system that runs
/// [`PhysicsSchedule`] (it is in `Step`). Order your `FixedUpdate` systems against them:
/// `.before(PhysicsSystems::Prepare)` to push bodies on the coming step,
/// `.after(PhysicsSystems::Writeback)` to read its results. A system that must run between
/// two phases (after the step, before the write-back, say) goes into [`PhysicsSchedule`]
/// itself, ordered against the sets there.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSystems {
    /// Config, controls, new bodies and user writes go to the core.
    Prepare,
    /// One step of the core world.
    Step,
    /// Results go back into the components.
    Writeback,
    /// `Update`: interpolated `Transform`s (and, after them, the debug drawing).
    Interpolate,
}

/// The three phases of a fixed step, in order.
pub(crate) const PHASES: (PhysicsSystems, PhysicsSystems, PhysicsSystems) =
    (PhysicsSystems::Prepare, PhysicsSystems::Step, PhysicsSystems::Writeback);

/// The schedule of one physics step: [`PhysicsSystems::Prepare`], [`PhysicsSystems::Step`] and
/// [`PhysicsSystems::Writeback`], run once per fixed step from `FixedUpdate`.
///
/// Its executor is single-threaded: its systems run in a fixed order on the thread that runs
/// `FixedUpdate`, with no hand-off to a worker thread between them.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhysicsSchedule;

/// Runs [`PhysicsSchedule`]: the plugin's one system in `FixedUpdate`.
///
/// First it puts back any of the plugin's resources removed since the frame started (by a
/// system in `PreUpdate` or `FixedUpdate`, say): the step's systems read them all; and it
/// rebuilds a stale `PhysicsWorld` put back since (`simulation::rebuild_stale_world`).
pub(crate) fn run_physics_schedule(world: &mut World) {
    super::resources::restore_removed_resources(world);
    super::simulation::rebuild_stale_world(world);
    // The schedule is only missing while it runs; it never runs itself.
    let _ = world.try_run_schedule(PhysicsSchedule);
}
