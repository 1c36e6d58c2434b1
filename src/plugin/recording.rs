//! Recording a session in a Bevy app and playing it back (issue 18, R-SCN-2).
//!
//! The core is deterministic: a session is its start (a [`SceneFile`] with the solver's state)
//! and its inputs, each core call that changed the world with the step count it was made at
//! ([`InputLog`]). Every change the plugin makes to the core goes through one function,
//! `PhysicsWorld::apply`, which notes the call while a recording runs: spawns, despawns,
//! component writes (teleports, velocities, materials, forces, layers, sensors), drags and
//! throws, config, gravity, wall and bounds changes, and clears. Pauses need no note: a
//! paused app takes no steps. A drag's pointer samples stay in the drag layer; the log keeps
//! what they made (each drag target and the throw velocity).
//!
//! Playing back ([`PlayPhysicsRecording`]) loads the start as a scene load does, then, before
//! each step, makes the calls the log holds for it, spawning and despawning the entities of
//! the bodies they add and remove, and after each step compares the state hash the log
//! holds for it (every [`InputLog::CHECK_INTERVAL`] steps and at the end), and after the
//! last step's calls its [`end_hash`](InputLog::end_hash). A divergence or a
//! refused call ends the playback with a [`PhysicsWarning`](super::PhysicsWarning); so does
//! a change from anywhere else (a drag, a component write, a config edit), which takes the
//! session over from that step on. At the log's end the app simply goes on. However a
//! playback ends, the bodies its log left held are let go at rest: no pointer of the app
//! holds them (a playback starts with every grip forgotten, as a load does).
//!
//! What the log cannot see: calls made on [`PhysicsWorld::world_mut`] while recording (the
//! first one is warned about), and a load, which ends the recording (it replaces the world).
//! A rewind ([`PhysicsRewind`](super::PhysicsRewind)) while recording takes the log back to
//! the step it lands on, so the recording stays a true account of the world's course.

use std::path::Path;

use bevy::ecs::system::Command;
use bevy::prelude::*;

use super::events::{CollisionEventsEnabled, Sensor};
use super::motion::{ConstantForce, ConstantTorque, GravityScale};
use super::physics_world::{PhysicsWorld, WarnAndSend};
use super::scene::{adopt_world, follow_world_settings, spawn_body_entity};
use crate::physics::{
    BodyDesc, BodyHandle, CollisionLayers, Input, InputLog, LoggedInput, PhysicsError, ReplayError,
    SceneError, SceneFile,
};

/// A recorded session: the world it started from and every input after it.
///
/// Save it as two RON files ([`save`](Self::save)): the start is an ordinary scene file, the
/// inputs an [`InputLog`].
#[derive(Clone, Debug, PartialEq)]
pub struct SessionRecording {
    /// The world when the recording started, with the solver's state.
    pub start: SceneFile,
    /// Every input from there, with state hashes to check a replay against.
    pub log: InputLog,
}

impl SessionRecording {
    /// Writes the start to `start` and the inputs to `inputs`.
    pub fn save(
        &self,
        start: impl AsRef<Path>,
        inputs: impl AsRef<Path>,
    ) -> Result<(), SceneError> {
        self.start.save(start)?;
        self.log.save(inputs)
    }

    /// Reads a recording saved by [`save`](Self::save).
    pub fn load(start: impl AsRef<Path>, inputs: impl AsRef<Path>) -> Result<Self, SceneError> {
        Ok(SessionRecording { start: SceneFile::load(start)?, log: InputLog::load(inputs)? })
    }
}

/// What the plugin's session is doing: nothing, recording, or playing back.
#[derive(Debug, Default)]
pub(crate) struct Session {
    mode: Mode,
    /// A recording a load ended, kept for [`PhysicsWorld::stop_recording`].
    ended: Option<SessionRecording>,
}

#[derive(Debug, Default)]
enum Mode {
    #[default]
    Idle,
    Recording {
        recording: Box<SessionRecording>,
        /// Whether the first call of `world_mut` was warned about.
        warned: bool,
    },
    Playing(Box<Playback>),
}

#[derive(Debug)]
struct Playback {
    log: InputLog,
    /// The first input not yet made.
    next: usize,
    /// The first check not yet compared.
    check: usize,
}

impl Session {
    /// `world_mut` was called: the log cannot see what it does.
    pub(crate) fn note_direct_access(&mut self) {
        if let Mode::Recording { warned, .. } = &mut self.mode
            && !*warned
        {
            *warned = true;
            warn!(
                "PhysicsWorld::world_mut() while a session is recorded: calls made there are \
                 not in the recording, and its replay may go astray (its state hashes will say)"
            );
        }
    }
}

impl PhysicsWorld {
    /// Makes the call `input` on the core world: the one way the plugin changes it, so that
    /// a recording sees every change. While a recording runs, an accepted call is noted with
    /// the step count (an added body with the handle it got); a playback that is still
    /// running ends here, since the call did not come from its log (see the module docs).
    pub(crate) fn apply(&mut self, mut input: Input) -> Result<Option<BodyHandle>, PhysicsError> {
        if let Mode::Playing(playback) = &self.session.mode {
            let step = self.world().step_count();
            info!(
                "playback taken over at step {step} of {}: a change from outside the log",
                playback.log.end_step
            );
            self.end_playback();
        }
        let added = input.apply(self.core_mut())?;
        let step = self.world().step_count();
        if let Mode::Recording { recording, .. } = &mut self.session.mode {
            if let (Input::AddBody { handle, .. }, Some(got)) = (&mut input, added) {
                *handle = got;
            }
            recording.log.inputs.push(LoggedInput { step, input });
        }
        Ok(added)
    }

    /// Adds a body through [`apply`](Self::apply).
    pub(crate) fn add_body(&mut self, desc: BodyDesc) -> Result<BodyHandle, PhysicsError> {
        // Noted with the handle the core gives it.
        let placeholder = BodyHandle { index: u32::MAX, generation: 0 };
        let added = self.apply(Input::AddBody { desc, handle: placeholder })?;
        added.ok_or(PhysicsError::StaleHandle(placeholder))
    }

    /// One step of the core world; a recording notes its end step and, every
    /// [`InputLog::CHECK_INTERVAL`] steps, its state hash; a playback compares the hash it
    /// holds for this step. Returns the warning of a playback that diverged.
    pub(crate) fn step_session(&mut self, dt: f32) -> Result<Option<String>, PhysicsError> {
        self.core_mut().step(dt)?;
        let now = self.world().step_count();
        // The state hash costs a pass over the bodies: only on the steps that note or check it.
        let due = match &self.session.mode {
            Mode::Idle => false,
            Mode::Recording { recording, .. } => {
                (now - recording.log.start_step).is_multiple_of(InputLog::CHECK_INTERVAL)
            }
            Mode::Playing(playback) => playback.log.checks[playback.check..]
                .iter()
                .find(|&&(step, _)| step >= now)
                .is_some_and(|&(step, _)| step == now),
        };
        let hash = due.then(|| self.world().state_hash());
        match &mut self.session.mode {
            Mode::Idle => Ok(None),
            Mode::Recording { recording, .. } => {
                recording.log.end_step = now;
                if let Some(hash) = hash {
                    recording.log.checks.push((now, hash));
                }
                Ok(None)
            }
            Mode::Playing(playback) => {
                let checks = &playback.log.checks;
                playback.check +=
                    checks[playback.check..].iter().take_while(|c| c.0 <= now).count();
                let expected = checks[..playback.check].last().filter(|c| c.0 == now).map(|c| c.1);
                match (expected, hash) {
                    (Some(expected), Some(found)) if expected != found => {
                        self.end_playback();
                        let error = ReplayError::Diverged { step: now, expected, found };
                        Ok(Some(format!("playback ended: {error}")))
                    }
                    _ => Ok(None),
                }
            }
        }
    }

    /// Starts recording the session from the world as it is now (a recording already running
    /// starts again). Save what [`stop_recording`](Self::stop_recording) returns.
    pub fn start_recording(&mut self) {
        // A playback ends: the recording starts from where it got to.
        self.end_playback();
        let start = SceneFile::capture(self.world());
        let log = InputLog::new(self.world().step_count());
        let recording = Box::new(SessionRecording { start, log });
        self.session.mode = Mode::Recording { recording, warned: false };
        self.session.ended = None;
    }

    /// Ends the recording and returns it, with the state hash of its end (see
    /// [`InputLog::end_hash`]); or the recording a load ended, if any. `None` if nothing was
    /// recorded.
    pub fn stop_recording(&mut self) -> Option<SessionRecording> {
        match std::mem::take(&mut self.session.mode) {
            Mode::Recording { mut recording, .. } => {
                recording.log.note_end(self.world());
                Some(*recording)
            }
            other => {
                self.session.mode = other;
                self.session.ended.take()
            }
        }
    }

    /// The inputs recorded so far, while a recording runs.
    pub fn recording(&self) -> Option<&InputLog> {
        match &self.session.mode {
            Mode::Recording { recording, .. } => Some(&recording.log),
            _ => None,
        }
    }

    /// While a recording plays back: the step it is at and the step its log ends at.
    pub fn playback_progress(&self) -> Option<(u64, u64)> {
        match &self.session.mode {
            Mode::Playing(playback) => Some((self.world().step_count(), playback.log.end_step)),
            _ => None,
        }
    }

    /// Ends a playback; the app goes on from where it is, with every body the log held let go
    /// at rest.
    pub fn stop_playback(&mut self) {
        self.end_playback();
    }

    /// Ends a playback, if one runs, and lets go at rest of every body its log left held: no
    /// pointer of this app holds them (a playback starts with no grip, see `adopt_world`), and
    /// a recording may stop while a body is held, so nothing else would ever let them go.
    fn end_playback(&mut self) {
        if matches!(self.session.mode, Mode::Playing(_)) {
            self.session.mode = Mode::Idle;
            self.release_held();
        }
    }

    /// A load replaces the world: a recording ends (kept for `stop_recording`), a playback
    /// stops.
    pub(crate) fn end_session_for_load(&mut self) {
        if matches!(self.session.mode, Mode::Recording { .. }) {
            self.session.ended = self.stop_recording();
            warn!("the session recording ended at the load: record again after it");
        }
        self.stop_playback();
    }

    /// A rewind lands on `landed`, the core world of a snapshot: a recording forgets what
    /// came after it (the snapshot is the recorded state bit for bit, so the log stays true);
    /// a playback stops.
    ///
    /// A snapshot is taken right after its step, before the calls that precede the next one.
    /// A recording started at that step count may hold some of those calls in its start
    /// already, so the snapshot of its own start step is not its start: landing there, the
    /// recording starts again from the snapshot.
    pub(crate) fn rewind_session(&mut self, landed: &crate::physics::World) {
        self.stop_playback();
        let step = landed.step_count();
        if let Mode::Recording { recording, .. } = &mut self.session.mode {
            let log = &mut recording.log;
            if step < log.start_step {
                // Before the recording began: it cannot go back there.
                self.session.ended = self.stop_recording();
                warn!("the session recording ended: the rewind went back before its start");
                return;
            }
            if step == log.start_step {
                recording.start = SceneFile::capture(landed);
                recording.log = InputLog::new(step);
                return;
            }
            log.inputs.retain(|i| i.step < step);
            log.checks.retain(|&(s, _)| s <= step);
            log.end_step = step;
        }
    }
}

/// Plays a [`SessionRecording`] back: loads its start in place of every body (as
/// [`LoadPhysicsScene`](super::LoadPhysicsScene) does, but a held body stays held, as
/// recorded), then makes the log's calls before each step and checks its state hashes. A
/// start the core refuses changes nothing and is reported as a
/// [`PhysicsWarning`](super::PhysicsWarning).
#[derive(Clone, Debug)]
pub struct PlayPhysicsRecording(pub SessionRecording);

impl Command for PlayPhysicsRecording {
    type Out = ();

    fn apply(self, world: &mut World) {
        let SessionRecording { start, log } = self.0;
        // An input or a check out of order or range would be skipped without a word.
        if let Err(error) = log.validate() {
            return world.warn_and_send(None, format!("recording refused: {error}"));
        }
        let core = match start.to_world() {
            Ok(core) if core.step_count() == log.start_step => core,
            Ok(core) => {
                let error =
                    ReplayError::WrongStart { expected: log.start_step, found: core.step_count() };
                return world.warn_and_send(None, format!("recording refused: {error}"));
            }
            Err(error) => return world.warn_and_send(None, format!("recording refused: {error}")),
        };
        // As for a load: a resource of the plugin removed in this frame is put back first.
        super::resources::restore_removed_resources(world);
        world.resource_mut::<PhysicsWorld>().end_session_for_load();
        adopt_world(world, core, false);
        super::rewind::restart(world);
        let mut physics = world.resource_mut::<PhysicsWorld>();
        info!("playing back steps {} to {}", log.start_step, log.end_step);
        physics.session.mode = Mode::Playing(Box::new(Playback { log, next: 0, check: 0 }));
    }
}

/// Whether a recording plays back: the run condition of [`play_back_inputs`].
pub(crate) fn playing_back(physics: Res<PhysicsWorld>) -> bool {
    matches!(physics.session.mode, Mode::Playing(_))
}

/// Makes the calls the playing log holds for the coming step, spawning an entity for each
/// body added and despawning those of removed bodies, and puts the config, gravity, bounds
/// and walls resources and the bodies' material and contact components in line with what
/// the calls changed, so that no other system takes them for a change of its own. At the
/// log's end the playback is over.
pub(crate) fn play_back_inputs(world: &mut World) {
    let mut physics = world.resource_mut::<PhysicsWorld>();
    let now = physics.world().step_count();
    let Mode::Playing(playback) = &mut physics.session.mode else { return };
    let from = playback.next;
    let count = playback.log.inputs[from..].iter().take_while(|i| i.step <= now).count();
    playback.next += count;
    let due: Vec<LoggedInput> = playback.log.inputs[from..from + count].to_vec();
    let finished = now >= playback.log.end_step;
    for logged in due {
        let mut physics = world.resource_mut::<PhysicsWorld>();
        // Made before the step the playback is at (a log out of order, or from before its
        // start): the course it belongs to has passed.
        let added = (logged.step == now).then(|| logged.input.apply(physics.core_mut()));
        let problem = match (&logged.input, &added) {
            (_, None) => Some(format!("a recorded call of step {} comes too late", logged.step)),
            (_, Some(Err(error))) => Some(format!("a recorded call was refused: {error}")),
            (Input::AddBody { handle, .. }, Some(Ok(Some(got)))) if got != handle => {
                Some(format!("a body got handle {got}, recorded {handle}"))
            }
            _ => None,
        };
        if let Some(problem) = problem {
            physics.end_playback();
            // A body added under another handle is the world's now: it gets its entity.
            if let (Input::AddBody { .. }, Some(Ok(Some(got)))) = (&logged.input, added) {
                spawn_body_entity(world, got);
            }
            return world.warn_and_send(None, format!("playback ended at step {now}: {problem}"));
        }
        follow_in_ecs(world, &logged.input);
    }
    if finished {
        let mut physics = world.resource_mut::<PhysicsWorld>();
        // The end state, after the inputs of the last step, as the recording ended.
        let found = physics.world().state_hash();
        let expected = match &physics.session.mode {
            Mode::Playing(playback) => playback.log.end_hash,
            _ => None,
        };
        physics.end_playback();
        if let Some(expected) = expected.filter(|&expected| expected != found) {
            let error = ReplayError::Diverged { step: now, expected, found };
            return world.warn_and_send(None, format!("playback ended: {error}"));
        }
        info!("playback finished at step {now}: every recorded state hash matched");
    }
}

/// Puts the app's entities and resources in line with a call the playback made on the core.
fn follow_in_ecs(world: &mut World, input: &Input) {
    let physics = world.resource::<PhysicsWorld>();
    let entity_of = |h: &BodyHandle| physics.entity(*h);
    // The entities the call is about, found before anything changes.
    let entities: Vec<Entity> = match input {
        Input::RemoveBody(handle) => entity_of(handle).into_iter().collect(),
        Input::RemoveBodies(handles) => handles.iter().filter_map(entity_of).collect(),
        Input::Clear => physics.linked_entities().collect(),
        Input::SetMaterial { body, .. }
        | Input::SetSensor { body, .. }
        | Input::SetCollisionEvents { body, .. }
        | Input::SetLayers { body, .. }
        | Input::SetForce { body, .. }
        | Input::SetTorque { body, .. }
        | Input::SetGravityScale { body, .. } => entity_of(body).into_iter().collect(),
        _ => Vec::new(),
    };
    match input {
        Input::AddBody { handle, .. } => {
            spawn_body_entity(world, *handle);
        }
        Input::RemoveBody(_) | Input::RemoveBodies(_) | Input::Clear => {
            despawn_unlinked(world, entities);
        }
        Input::SetConfig(_)
        | Input::SetGravityEnabled(_)
        | Input::SetBounds { .. }
        | Input::SetWallEnabled { .. } => follow_world_settings(world),
        Input::SetMaterial { material, .. } => {
            for entity in entities {
                if let Some(mut component) = world.get_mut::<super::PhysicsMaterial>(entity) {
                    component.0 = *material;
                }
            }
        }
        Input::SetSensor { sensor, .. } => mark(world, &entities, sensor.then_some(Sensor)),
        Input::SetCollisionEvents { report, .. } => {
            mark(world, &entities, report.then_some(CollisionEventsEnabled));
        }
        // Every layer is what no component says.
        Input::SetLayers { layers, .. } => {
            mark(world, &entities, (*layers != CollisionLayers::ALL).then_some(*layers));
        }
        // A force, torque or gravity scale the entity shows as a component (one its body had
        // at the start, see `spawn_body_entity`) follows the core: left at the old value, it
        // would be handed back to the core as a write of the game's, ending the playback.
        // One the entity does not have stays away.
        Input::SetForce { force, .. } => {
            let force = world.resource::<PhysicsWorld>().mapping().vector_to_bevy(*force);
            follow_component(world, &entities, |c: &mut ConstantForce| c.0 = force);
        }
        Input::SetTorque { torque, .. } => {
            let torque = world.resource::<PhysicsWorld>().mapping().angle_to_bevy(*torque);
            follow_component(world, &entities, |c: &mut ConstantTorque| c.0 = torque);
        }
        Input::SetGravityScale { scale, .. } => {
            follow_component(world, &entities, |c: &mut GravityScale| c.0 = *scale);
        }
        // The write-back after the step shows poses and velocities.
        _ => {}
    }
}

/// Sets the component `C` of those of `entities` that have one.
fn follow_component<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    entities: &[Entity],
    set: impl Fn(&mut C),
) {
    for &entity in entities {
        if let Some(mut component) = world.get_mut::<C>(entity) {
            set(&mut component);
        }
    }
}

/// Gives `entities` the component `C` (`Some`) or takes it away (`None`).
fn mark<C: Component + Copy>(world: &mut World, entities: &[Entity], marker: Option<C>) {
    for &entity in entities {
        let mut entity = world.entity_mut(entity);
        match marker {
            Some(marker) => {
                entity.insert(marker);
            }
            None => {
                entity.remove::<C>();
            }
        }
    }
}

/// Despawns entities whose bodies the core no longer has, unlinking them first, so that
/// their despawn hook queues no removal of its own.
fn despawn_unlinked(world: &mut World, entities: Vec<Entity>) {
    for entity in entities {
        let _ = world.resource_mut::<PhysicsWorld>().unlink(entity);
        world.despawn(entity);
    }
}
