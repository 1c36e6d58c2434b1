//! Rewind in a Bevy app (issue 18, R-SCN-2): [`PhysicsRewindPlugin`] keeps a snapshot of the
//! core world every few steps, and [`PhysicsRewind::request_rewind`] takes the app back to
//! one of them.
//!
//! A snapshot is the core world as a step left it (`physics::Timeline`): restored, it steps
//! on bit for bit as the world did from there. A rewind lands on a snapshot, not between two:
//! the plugin does not log the app's inputs (drags, spawns, writes to components), so it
//! could not re-simulate a step between two snapshots exactly. With the default interval of
//! 12 steps the snapshots lie 0.1 s apart at 120 Hz; single steps from there (see
//! [`PhysicsControls::request_single_step`]) reach every step after one.
//!
//! A rewind is a load (see [`load_scene`](super::load_scene)): every entity with a
//! [`Collider`](super::Collider) is despawned and one entity per body is spawned with the
//! body's components, and [`PhysicsConfig`](crate::physics::PhysicsConfig), the gravity
//! switch and [`PhysicsBounds`](super::PhysicsBounds) take the snapshot's values. So the
//! app's own components on body entities (sprites, game data, `ConstantForce`) do not come
//! back; an app that needs them adds them again to new body entities, as after a load. The
//! snapshots later than the one rewound to stay until the world steps, so a scrubbing user
//! can go forward again; the first step drops them, since it starts a new future. A load
//! ([`load_scene`](super::load_scene)) starts the timeline again at the loaded world: it
//! has a step count of its own, and the old world's snapshots are not its past.
//!
//! Memory is bounded twice: the snapshots reach [`PhysicsRewindPlugin::seconds`] back, and
//! hold at most [`PhysicsRewindPlugin::max_bytes`] (the oldest go first, so a large world
//! reaches less far back). A snapshot of 2,000 bodies in a pile holds about 0.4 MB; taking
//! it costs about 0.15 ms once per interval (`docs/scene-files.md`).

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use super::physics_world::{PhysicsWarning, PhysicsWorld, WarnAndSend};
use super::resources::RestoreRemoved;
use super::scene::adopt_world;
use super::schedule::{PhysicsSchedule, PhysicsSystems};
use crate::physics::{PhysicsConfig, Timeline};

/// Keeps the last [`seconds`](Self::seconds) of the simulation in snapshots, for
/// [`PhysicsRewind`]. Not part of [`SandboxPhysicsPlugin`](super::SandboxPhysicsPlugin):
/// add it after that plugin when you want a rewind.
///
/// A rewind lands on a snapshot (the newest at or before the step asked for) and the world
/// steps on from there bit for bit as it did; it does not re-simulate to a step between two
/// snapshots, since the plugin logs the app's inputs only while a session is recorded
/// ([`PhysicsWorld::start_recording`](super::PhysicsWorld::start_recording); a rewind then
/// takes the recording back to the step it lands on). Like a load
/// ([`load_scene`](super::load_scene)) it despawns every body entity and spawns one per body,
/// so the app's own components on body entities do not come back. The snapshots after the
/// one landed on stay until the world steps (scrubbing forward works); a load starts the
/// timeline again. Memory is bounded by [`seconds`](Self::seconds) and
/// [`max_bytes`](Self::max_bytes).
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_sandbox_physics::plugin::PhysicsRewindPlugin;
/// use bevy_sandbox_physics::prelude::*;
///
/// App::new()
///     .add_plugins((DefaultPlugins, SandboxPhysicsPlugin::default()))
///     .add_plugins(PhysicsRewindPlugin::default())
///     .run();
/// ```
///
/// A field outside its allowed range is refused when the plugin is built, with a warning
/// (logged, and sent as a [`PhysicsWarning`] when the simulation plugin is already there)
/// naming the field and the range, and its default is used instead: a NaN `seconds` would
/// otherwise turn into 0 and the rewind reach about one interval back.
#[derive(Clone, Debug)]
pub struct PhysicsRewindPlugin {
    /// How far back a rewind reaches, s: more than 0, at most
    /// [`MAX_SECONDS`](Self::MAX_SECONDS). Default 10.
    pub seconds: f32,
    /// Steps between two snapshots: at least 1, at most the steps in
    /// [`seconds`](Self::seconds) (a longer interval would keep a single snapshot for more
    /// than the span). Default 12: 0.1 s at 120 Hz.
    pub interval: u64,
    /// The most bytes the snapshots may hold, at least 1; beyond it the oldest are dropped
    /// (the newest always stays). Default 256 MB (at 2,000 bodies, 10 s hold about 40 MB).
    pub max_bytes: usize,
}

impl Default for PhysicsRewindPlugin {
    fn default() -> Self {
        Self { seconds: 10.0, interval: 12, max_bytes: 256 << 20 }
    }
}

impl PhysicsRewindPlugin {
    /// The longest reach allowed, s: an hour.
    pub const MAX_SECONDS: f32 = 3600.0;

    /// These settings with each field outside its range replaced by its default, and a
    /// message for each one replaced. `time_step` is the config's, s.
    fn checked(&self, time_step: f32) -> (Self, Vec<String>) {
        let default = Self::default();
        let mut refused = Vec::new();
        let mut checked = self.clone();
        if !(self.seconds > 0.0 && self.seconds <= Self::MAX_SECONDS) {
            refused.push(format!(
                "PhysicsRewindPlugin::seconds {:?} refused (allowed: more than 0, at most {}); \
                 using the default {}",
                self.seconds,
                Self::MAX_SECONDS,
                default.seconds
            ));
            checked.seconds = default.seconds;
        }
        let span = (f64::from(checked.seconds) / f64::from(time_step)).ceil().max(1.0) as u64;
        if !(1..=span).contains(&self.interval) {
            let fallback = default.interval.min(span);
            refused.push(format!(
                "PhysicsRewindPlugin::interval {} refused (allowed: 1 ..= {span}, the steps in \
                 {} s); using {fallback}",
                self.interval, checked.seconds
            ));
            checked.interval = fallback;
        }
        if self.max_bytes == 0 {
            refused.push(format!(
                "PhysicsRewindPlugin::max_bytes 0 refused (allowed: at least 1); using the \
                 default {}",
                default.max_bytes
            ));
            checked.max_bytes = default.max_bytes;
        }
        (checked, refused)
    }
}

impl Plugin for PhysicsRewindPlugin {
    fn build(&self, app: &mut App) {
        let time_step = app
            .world()
            .get_resource::<PhysicsConfig>()
            .map_or(PhysicsConfig::default().time_step, |c| c.time_step);
        let (settings, refused) = self.checked(time_step);
        // Sent only if the app has the message (the simulation plugin adds it); logged anyway.
        for message in refused {
            if app.world().contains_resource::<Messages<PhysicsWarning>>() {
                app.world_mut().warn_and_send(None, message);
            } else {
                warn!("{message}");
            }
        }
        app.insert_resource(PhysicsRewind::new(&settings, time_step))
            .restore_when_removed("with no snapshot yet: the next step takes one", move |world| {
                let time_step = world
                    .get_resource::<PhysicsConfig>()
                    .map_or(PhysicsConfig::default().time_step, |c| c.time_step);
                PhysicsRewind::new(&settings, time_step)
            })
            .add_systems(
                First,
                apply_rewind
                    .run_if(rewind_requested)
                    .after(super::resources::restore_removed_resources),
            )
            .add_systems(
                PhysicsSchedule,
                take_snapshot.in_set(PhysicsSystems::Writeback).after(super::sync::write_back),
            );
    }
}

/// The snapshots kept for a rewind, and a rewind asked for (see [`PhysicsRewindPlugin`]).
#[derive(Resource, Debug)]
pub struct PhysicsRewind {
    timeline: Timeline,
    max_bytes: usize,
    request: Option<u64>,
    /// While false, no snapshot is taken (the ones held stay). Default true.
    pub recording: bool,
}

impl PhysicsRewind {
    fn new(settings: &PhysicsRewindPlugin, time_step: f32) -> Self {
        let timeline = Timeline::covering_every(settings.seconds, time_step, settings.interval);
        Self { timeline, max_bytes: settings.max_bytes, request: None, recording: true }
    }

    /// The snapshots.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// The steps a rewind reaches: the oldest and the newest snapshot's step count.
    pub fn reach(&self) -> Option<(u64, u64)> {
        self.timeline.oldest_step().zip(self.timeline.newest_step())
    }

    /// The step of the snapshot a rewind to `step` lands on: the newest at or before it.
    pub fn landing_step(&self, step: u64) -> Option<u64> {
        self.timeline.steps().rev().find(|&s| s <= step)
    }

    /// The snapshot just before `step` (for "back one"), or the oldest.
    pub fn step_before(&self, step: u64) -> Option<u64> {
        self.timeline.steps().rev().find(|&s| s < step).or(self.timeline.oldest_step())
    }

    /// The snapshot just after `step` (for "forward one"), or the newest.
    pub fn step_after(&self, step: u64) -> Option<u64> {
        self.timeline.steps().find(|&s| s > step).or(self.timeline.newest_step())
    }

    /// Asks to take the world back to the newest snapshot at or before `step`, at the start
    /// of the next frame. A step older than every snapshot is refused then with a
    /// [`PhysicsWarning`].
    pub fn request_rewind(&mut self, step: u64) {
        self.request = Some(step);
    }

    /// The rewind asked for and not yet done.
    pub fn requested(&self) -> Option<u64> {
        self.request
    }

    /// The bytes the snapshots hold.
    pub fn memory_bytes(&self) -> usize {
        self.timeline.memory_bytes()
    }
}

fn rewind_requested(rewind: Res<PhysicsRewind>) -> bool {
    rewind.request.is_some()
}

/// Starts the timeline again from the world as it is now: after a load, whose world has a
/// step count of its own, so the old world's snapshots would lie in its past or its future.
pub(crate) fn restart(world: &mut World) {
    if !world.contains_resource::<PhysicsRewind>() {
        return;
    }
    world.resource_scope(|world, mut rewind: Mut<PhysicsRewind>| {
        rewind.timeline.clear();
        rewind.request = None;
        rewind.timeline.observe(world.resource::<PhysicsWorld>().world());
    });
}

/// Drops every snapshot, and a requested rewind: the world was replaced by one that has none
/// of its past (see `simulation::rebuilt_world`). The next step takes the first snapshot.
pub(crate) fn forget(world: &mut World) {
    if let Some(mut rewind) = world.get_resource_mut::<PhysicsRewind>() {
        rewind.timeline.clear();
        rewind.request = None;
    }
}

/// After a step: drops the snapshots of a future a rewind left behind, takes a snapshot when
/// one is due, and keeps the timeline within its bytes.
fn take_snapshot(physics: Res<PhysicsWorld>, mut rewind: ResMut<PhysicsRewind>) {
    if !physics.stepped_last_run() || !rewind.recording {
        return;
    }
    let world = physics.world();
    let rewind = &mut *rewind;
    rewind.timeline.forget_after(world.step_count().saturating_sub(1));
    if rewind.timeline.observe(world) {
        rewind.timeline.forget_oldest_beyond(rewind.max_bytes);
    }
}

/// Carries out a requested rewind (see [`PhysicsRewind::request_rewind`]).
fn apply_rewind(world: &mut World) {
    let Some(step) = world.resource_mut::<PhysicsRewind>().request.take() else {
        return;
    };
    let Some(core) = world.resource::<PhysicsRewind>().timeline.restore(step) else {
        let oldest = world.resource::<PhysicsRewind>().timeline.oldest_step();
        let message = match oldest {
            Some(oldest) => {
                format!("rewind to step {step} refused: the oldest snapshot is of step {oldest}")
            }
            None => format!("rewind to step {step} refused: no snapshot is kept yet"),
        };
        world.warn_and_send(None, message);
        return;
    };
    world.resource_mut::<PhysicsWorld>().rewind_session(&core);
    adopt_world(world, core, true);
}
