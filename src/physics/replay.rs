//! Replay and rewind (issue 18, R-SCN-2): a session as its inputs, step by step.
//!
//! The world is deterministic: the same world given the same calls between the same steps
//! ends in the same state, bit for bit. So a session is its start (a [`SceneFile`] with
//! its solver state) and its inputs: every call that changed the world, as an [`Input`],
//! with the step count at which it was made. Pausing is simply taking no steps. A
//! [`Recorder`] owns the world, applies each input and notes it, every
//! [`InputLog::CHECK_INTERVAL`] steps notes the state hash, and at the end the hash of the
//! end state; [`InputLog::replay`] applies the inputs to the start again and verifies those
//! hashes on the way.
//!
//! A drag is its calls: grab, each new drag target, release with its throw velocity. The
//! pointer samples that made the throw velocity ([`VelocityTracker`](super::VelocityTracker))
//! stay in the layer that reads the pointer; the log keeps their result.
//!
//! With a [`Timeline`] the recorder also rewinds: [`Recorder::rewind_to`] restores the
//! newest snapshot at or before the step, steps on with the recorded inputs to it, and
//! drops what came after, so the session resumes from there on a new course.

use std::fmt;

use glam::Vec2;

use super::body::{BodyDesc, BodyHandle, CollisionLayers, Material};
use super::collision::WallId;
use super::config::PhysicsConfig;
use super::timeline::Timeline;
#[cfg(feature = "serde")]
use super::world::SceneError;
use super::world::{PhysicsError, SceneFile, Snapshot, World};

/// One call that changes a world, as data: what a [`Recorder`] notes and a replay applies.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[allow(missing_docs)] // each variant is the `World` method of its name, fields its arguments
pub enum Input {
    /// [`World::add_body`]; `handle` is the handle it returned (a replay checks it).
    AddBody { desc: BodyDesc, handle: BodyHandle },
    /// [`World::remove_body`].
    RemoveBody(BodyHandle),
    /// [`World::remove_bodies`].
    RemoveBodies(Vec<BodyHandle>),
    /// [`World::clear`].
    Clear,
    /// [`World::grab`].
    Grab(BodyHandle),
    /// [`World::set_drag_target`].
    SetDragTarget { body: BodyHandle, target: Vec2 },
    /// [`World::move_held_directly`].
    MoveHeldDirectly { body: BodyHandle, target: Vec2 },
    /// [`World::release`].
    Release { body: BodyHandle, throw_velocity: Vec2 },
    /// [`World::set_config`].
    SetConfig(PhysicsConfig),
    /// [`World::set_gravity_enabled`].
    SetGravityEnabled(bool),
    /// [`World::set_bounds`].
    SetBounds { min: Vec2, max: Vec2 },
    /// [`World::set_wall_enabled`].
    SetWallEnabled { wall: WallId, enabled: bool },
    /// [`World::set_position`].
    SetPosition { body: BodyHandle, position: Vec2 },
    /// [`World::set_angle`].
    SetAngle { body: BodyHandle, angle: f32 },
    /// [`World::set_velocity`].
    SetVelocity { body: BodyHandle, velocity: Vec2 },
    /// [`World::set_angular_velocity`].
    SetAngularVelocity { body: BodyHandle, angular_velocity: f32 },
    /// [`World::set_material`].
    SetMaterial { body: BodyHandle, material: Material },
    /// [`World::set_layers`].
    SetLayers { body: BodyHandle, layers: CollisionLayers },
    /// [`World::set_sensor`].
    SetSensor { body: BodyHandle, sensor: bool },
    /// [`World::set_collision_events`].
    SetCollisionEvents { body: BodyHandle, report: bool },
    /// [`World::set_force`].
    SetForce { body: BodyHandle, force: Vec2 },
    /// [`World::add_force`].
    AddForce { body: BodyHandle, force: Vec2 },
    /// [`World::set_torque`].
    SetTorque { body: BodyHandle, torque: f32 },
    /// [`World::add_torque`].
    AddTorque { body: BodyHandle, torque: f32 },
    /// [`World::set_gravity_scale`].
    SetGravityScale { body: BodyHandle, scale: f32 },
    /// [`World::apply_impulse`].
    ApplyImpulse { body: BodyHandle, impulse: Vec2 },
    /// [`World::apply_impulse_at`].
    ApplyImpulseAt { body: BodyHandle, impulse: Vec2, point: Vec2 },
    /// [`World::wake`].
    Wake(BodyHandle),
    /// [`World::wake_all`].
    WakeAll,
    /// [`World::forget_contact_impulses`].
    ForgetContactImpulses,
}

impl Input {
    /// Makes the call on `world`. Returns the handle of an added body.
    pub fn apply(&self, world: &mut World) -> Result<Option<BodyHandle>, PhysicsError> {
        use Input::*;
        match self {
            AddBody { desc, .. } => return world.add_body(*desc).map(Some),
            RemoveBody(h) => {
                world.remove_body(*h)?;
            }
            RemoveBodies(handles) => {
                world.remove_bodies(handles.iter().copied());
            }
            Clear => world.clear(),
            Grab(h) => world.grab(*h)?,
            SetDragTarget { body, target } => world.set_drag_target(*body, *target)?,
            MoveHeldDirectly { body, target } => world.move_held_directly(*body, *target)?,
            Release { body, throw_velocity } => world.release(*body, *throw_velocity)?,
            SetConfig(config) => world.set_config(config.clone())?,
            SetGravityEnabled(on) => world.set_gravity_enabled(*on),
            SetBounds { min, max } => world.set_bounds(*min, *max)?,
            SetWallEnabled { wall, enabled } => world.set_wall_enabled(*wall, *enabled),
            SetPosition { body, position } => world.set_position(*body, *position)?,
            SetAngle { body, angle } => world.set_angle(*body, *angle)?,
            SetVelocity { body, velocity } => world.set_velocity(*body, *velocity)?,
            SetAngularVelocity { body, angular_velocity } => {
                world.set_angular_velocity(*body, *angular_velocity)?
            }
            SetMaterial { body, material } => world.set_material(*body, *material)?,
            SetLayers { body, layers } => world.set_layers(*body, *layers)?,
            SetSensor { body, sensor } => world.set_sensor(*body, *sensor)?,
            SetCollisionEvents { body, report } => world.set_collision_events(*body, *report)?,
            SetForce { body, force } => world.set_force(*body, *force)?,
            AddForce { body, force } => world.add_force(*body, *force)?,
            SetTorque { body, torque } => world.set_torque(*body, *torque)?,
            AddTorque { body, torque } => world.add_torque(*body, *torque)?,
            SetGravityScale { body, scale } => world.set_gravity_scale(*body, *scale)?,
            ApplyImpulse { body, impulse } => world.apply_impulse(*body, *impulse)?,
            ApplyImpulseAt { body, impulse, point } => {
                world.apply_impulse_at(*body, *impulse, *point)?
            }
            Wake(h) => world.wake(*h)?,
            WakeAll => world.wake_all(),
            ForgetContactImpulses => world.forget_contact_impulses(),
        }
        Ok(None)
    }
}

/// An input with the step count at which it was made: after that many steps, before the
/// next one.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LoggedInput {
    /// The world's step count when it was made.
    pub step: u64,
    /// The call.
    pub input: Input,
}

/// A session's inputs from its start step to its end step, with state hashes to check a
/// replay against (see the module docs).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct InputLog {
    /// The format version, [`InputLog::VERSION`].
    pub version: u32,
    /// The step count of the world the session started from.
    pub start_step: u64,
    /// The step count at its end.
    pub end_step: u64,
    /// The inputs in the order they were made.
    pub inputs: Vec<LoggedInput>,
    /// `(step, state hash)` after every [`InputLog::CHECK_INTERVAL`]-th step and after the
    /// last step of a finished recording, each before that step's inputs. The last step's
    /// is noted only when no input followed it: by the end of the recording the state before
    /// those inputs is gone, and [`end_hash`](Self::end_hash) checks the state after them.
    pub checks: Vec<(u64, u64)>,
    /// The state hash at the end of a finished recording, after the inputs made after its
    /// last step; [`replay`](Self::replay) checks it once it has made them. `None` while
    /// recording, and in a log written before it was kept (left out of the file then).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub end_hash: Option<u64>,
}

/// Why a replay or a rewind failed.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayError {
    /// The world is not at the step the log starts from.
    WrongStart {
        /// The log's start step.
        expected: u64,
        /// The world's step count.
        found: u64,
    },
    /// An input that was accepted when recorded is refused now: the replay went astray.
    Refused {
        /// The step of the input.
        step: u64,
        /// Why the world refused it.
        error: PhysicsError,
    },
    /// The world's state hash differs from the one recorded: the replay went astray.
    Diverged {
        /// The step of the check.
        step: u64,
        /// The hash recorded.
        expected: u64,
        /// The hash found.
        found: u64,
    },
    /// The log itself is malformed (checked before a replay takes a step): a step out of
    /// order or out of the log's range, or a span longer than [`InputLog::MAX_STEPS`].
    InvalidLog {
        /// The field, as `end_step`, `inputs[3].step` or `checks[1]`.
        field: String,
        /// Its value (a step).
        value: u64,
        /// The values allowed there.
        allowed: String,
    },
    /// A rewind to a step the timeline does not reach (or a recorder without a timeline).
    OutOfReach {
        /// The step asked for.
        step: u64,
        /// The oldest step reachable, if any.
        oldest: Option<u64>,
        /// The newest step (the world's now).
        newest: u64,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::WrongStart { expected, found } => {
                write!(f, "the log starts at step {expected}, the world is at step {found}")
            }
            ReplayError::Refused { step, error } => {
                write!(f, "replay: an input of step {step} was refused: {error}")
            }
            ReplayError::Diverged { step, expected, found } => write!(
                f,
                "replay diverged at step {step}: state hash {found:#018x}, recorded {expected:#018x}"
            ),
            ReplayError::InvalidLog { field, value, allowed } => {
                write!(f, "invalid input log: {field} is {value}, allowed {allowed}")
            }
            ReplayError::OutOfReach { step, oldest: Some(oldest), newest } => {
                write!(
                    f,
                    "cannot rewind to step {step}: the timeline reaches {oldest} ..= {newest}"
                )
            }
            ReplayError::OutOfReach { step, oldest: None, .. } => {
                write!(f, "cannot rewind to step {step}: no timeline is kept")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl InputLog {
    /// The version of the log format this build writes and reads.
    pub const VERSION: u32 = 1;

    /// Steps between two state hashes in the log.
    pub const CHECK_INTERVAL: u64 = 60;

    /// The most steps a log may span, `end_step − start_step`: 2^26, 155 hours at 120 Hz.
    /// A replay of a longer log is refused rather than stepping practically forever.
    pub const MAX_STEPS: u64 = 1 << 26;

    /// An empty log starting at `step`.
    pub fn new(step: u64) -> Self {
        InputLog {
            version: Self::VERSION,
            start_step: step,
            end_step: step,
            inputs: Vec::new(),
            checks: Vec::new(),
            end_hash: None,
        }
    }

    /// Ends the recording of `world`, which is at the end of the log now: notes the hash of
    /// the last step among the checks unless inputs came after it, and the hash of the end,
    /// after them, as [`end_hash`](Self::end_hash). One state hash, so it costs a pass over
    /// the bodies; hashing every step instead, to keep the state before such inputs, would
    /// cost that pass at every step of the recording.
    pub(crate) fn note_end(&mut self, world: &World) {
        let end = self.end_step;
        let hash = world.state_hash();
        let inputs_after = self.inputs.last().is_some_and(|i| i.step == end);
        if end > self.start_step
            && !inputs_after
            && self.checks.last().is_none_or(|&(s, _)| s != end)
        {
            self.checks.push((end, hash));
        }
        self.end_hash = Some(hash);
    }

    /// Checks what a replay relies on, naming the first field that breaks it:
    /// `end_step` in `start_step ..= start_step + MAX_STEPS`; the inputs' steps rising (or
    /// equal) within `start_step ..= end_step`; the checks' steps strictly rising within
    /// `start_step + 1 ..= end_step` (a check follows a step). A replay would otherwise
    /// skip an input or a check out of place without a word.
    pub fn validate(&self) -> Result<(), ReplayError> {
        let (start, end) = (self.start_step, self.end_step);
        let invalid = |field: String, value: u64, allowed: String| {
            Err(ReplayError::InvalidLog { field, value, allowed })
        };
        let last = start.saturating_add(Self::MAX_STEPS);
        if !(start..=last).contains(&end) {
            let allowed =
                format!("{start} ..= {last} (from start_step, at most {} steps)", Self::MAX_STEPS);
            return invalid("end_step".into(), end, allowed);
        }
        let mut lowest = start;
        for (i, logged) in self.inputs.iter().enumerate() {
            if !(lowest..=end).contains(&logged.step) {
                let allowed =
                    format!("{lowest} ..= {end} (in step order, within start_step ..= end_step)");
                return invalid(format!("inputs[{i}].step"), logged.step, allowed);
            }
            lowest = logged.step;
        }
        let mut lowest = start.checked_add(1);
        for (i, &(step, _)) in self.checks.iter().enumerate() {
            match lowest {
                Some(low) if (low..=end).contains(&step) => lowest = step.checked_add(1),
                _ => {
                    let low = lowest.map_or_else(|| "none".to_owned(), |low| low.to_string());
                    let allowed = format!(
                        "{low} ..= {end} (rising step order, within start_step + 1 ..= end_step)"
                    );
                    return invalid(format!("checks[{i}] step"), step, allowed);
                }
            }
        }
        Ok(())
    }

    /// Replays the log on `world`, which must be the session's start (for instance loaded
    /// from the scene file saved with the log): applies each input at its step and steps at
    /// the config's time step up to `end_step`, calling `after_step` after every step, and
    /// checks the recorded hashes and added handles on the way; then makes the inputs of
    /// `end_step` and checks [`end_hash`](Self::end_hash). A malformed log (see
    /// [`validate`](Self::validate)) is refused before the first step.
    pub fn replay(
        &self,
        world: &mut World,
        mut after_step: impl FnMut(&World),
    ) -> Result<(), ReplayError> {
        self.validate()?;
        if world.step_count() != self.start_step {
            return Err(ReplayError::WrongStart {
                expected: self.start_step,
                found: world.step_count(),
            });
        }
        advance(world, &self.inputs, &self.checks, self.end_step, &mut after_step)?;
        // Inputs made after the last step belong to the session too.
        let mut tail = self.inputs.iter().filter(|i| i.step == self.end_step);
        tail.try_for_each(|logged| apply_logged(world, logged))?;
        match self.end_hash.map(|expected| (expected, world.state_hash())) {
            Some((expected, found)) if found != expected => {
                Err(ReplayError::Diverged { step: self.end_step, expected, found })
            }
            _ => Ok(()),
        }
    }
}

/// Steps `world` to step `to`, applying the inputs of each step before it and checking the
/// hashes recorded for each step reached.
fn advance(
    world: &mut World,
    inputs: &[LoggedInput],
    checks: &[(u64, u64)],
    to: u64,
    after_step: &mut impl FnMut(&World),
) -> Result<(), ReplayError> {
    let from = world.step_count();
    let mut next = inputs.partition_point(|i| i.step < from);
    let mut check = checks.partition_point(|&(s, _)| s <= from);
    while world.step_count() < to {
        let now = world.step_count();
        while let Some(logged) = inputs.get(next).filter(|i| i.step == now) {
            apply_logged(world, logged)?;
            next += 1;
        }
        let dt = world.config().time_step;
        world.step(dt).map_err(|error| ReplayError::Refused { step: now, error })?;
        let now = world.step_count();
        if let Some(&(step, expected)) = checks.get(check).filter(|&&(s, _)| s == now) {
            check += 1;
            let found = world.state_hash();
            if found != expected {
                return Err(ReplayError::Diverged { step, expected, found });
            }
        }
        after_step(world);
    }
    Ok(())
}

/// Applies one logged input, checking that an added body gets the handle it got before.
fn apply_logged(world: &mut World, logged: &LoggedInput) -> Result<(), ReplayError> {
    let step = logged.step;
    let added = logged.input.apply(world).map_err(|error| ReplayError::Refused { step, error })?;
    match (&logged.input, added) {
        (Input::AddBody { handle, .. }, Some(got)) if got != *handle => {
            let error =
                crate::physics::world::invalid("handle", got, format!("{handle}, as recorded"));
            Err(ReplayError::Refused { step, error })
        }
        _ => Ok(()),
    }
}

/// A world that notes every input it is given, for replay, and optionally keeps a
/// [`Timeline`] to rewind (see the module docs).
///
/// Recording costs a push per input and a state hash every
/// [`InputLog::CHECK_INTERVAL`] steps; the timeline a snapshot every
/// [`Timeline::interval`] steps.
#[derive(Clone, Debug)]
pub struct Recorder {
    world: World,
    start: Snapshot,
    log: InputLog,
    timeline: Option<Timeline>,
}

impl Recorder {
    /// Starts recording `world` as it is now.
    pub fn new(world: World) -> Self {
        let log = InputLog::new(world.step_count());
        Recorder { start: world.snapshot(), world, log, timeline: None }
    }

    /// Starts recording `world`, keeping `timeline` to rewind; its first snapshot is
    /// `world` as it is now.
    ///
    /// The timeline must be empty (fresh from [`Timeline::new`] or
    /// [`Timeline::covering`], or emptied with [`Timeline::clear`]): a snapshot it held
    /// already would be of another world, or of this one before the recording started,
    /// without the inputs that led from it, and a rewind to it would swap that world in.
    /// One holding snapshots is refused, naming `timeline` and how many it holds.
    pub fn with_timeline(world: World, mut timeline: Timeline) -> Result<Self, PhysicsError> {
        if !timeline.is_empty() {
            let held = format!("{} snapshots held", timeline.len());
            let allowed = "0 snapshots (an empty timeline: the recording's start is its first)";
            return Err(crate::physics::world::invalid("timeline", held, allowed));
        }
        timeline.observe(&world);
        Ok(Recorder { timeline: Some(timeline), ..Recorder::new(world) })
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The inputs so far.
    pub fn log(&self) -> &InputLog {
        &self.log
    }

    /// The timeline, if one is kept.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timeline.as_ref()
    }

    /// The world the recording started from, as a scene file with its solver state: save
    /// it beside the log, and [`InputLog::replay`] on the world it loads replays the session.
    pub fn start_scene(&self) -> SceneFile {
        SceneFile::capture(&self.start.restore())
    }

    /// The world the recording started from.
    pub fn start_world(&self) -> World {
        self.start.restore()
    }

    /// Makes the call `input` on the world and notes it if the world accepts it (a refused
    /// call changes nothing and is not noted). An added body's handle is noted with it.
    pub fn apply(&mut self, mut input: Input) -> Result<Option<BodyHandle>, PhysicsError> {
        let added = input.apply(&mut self.world)?;
        if let (Input::AddBody { handle, .. }, Some(got)) = (&mut input, added) {
            *handle = got;
        }
        self.log.inputs.push(LoggedInput { step: self.world.step_count(), input });
        Ok(added)
    }

    /// Adds a body ([`World::add_body`]) and notes it.
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyHandle, PhysicsError> {
        let handle = BodyHandle { index: u32::MAX, generation: 0 }; // noted as the one given
        let added = self.apply(Input::AddBody { desc, handle })?;
        added.ok_or(PhysicsError::StaleHandle(handle))
    }

    /// One step at the config's time step; notes the state hash every
    /// [`InputLog::CHECK_INTERVAL`] steps and gives the timeline its snapshot when due.
    pub fn step(&mut self) -> Result<(), PhysicsError> {
        let dt = self.world.config().time_step;
        self.world.step(dt)?;
        let now = self.world.step_count();
        self.log.end_step = now;
        if (now - self.log.start_step).is_multiple_of(InputLog::CHECK_INTERVAL) {
            self.log.checks.push((now, self.world.state_hash()));
        }
        if let Some(timeline) = &mut self.timeline {
            timeline.observe(&self.world);
        }
        Ok(())
    }

    /// Takes the world back to step `step` (after that many steps, before that step's
    /// inputs) and forgets what came after: the nearest snapshot at or before it, then the
    /// recorded inputs and steps up to it, which reproduce the recorded states bit for bit.
    /// Recording goes on from there.
    pub fn rewind_to(&mut self, step: u64) -> Result<(), ReplayError> {
        let newest = self.world.step_count();
        let oldest = self.timeline.as_ref().and_then(Timeline::oldest_step);
        let snapshot = self.timeline.as_ref().and_then(|t| t.at_or_before(step));
        let (Some(snapshot), true) = (snapshot, step <= newest) else {
            return Err(ReplayError::OutOfReach { step, oldest, newest });
        };
        let mut world = snapshot.restore();
        advance(&mut world, &self.log.inputs, &self.log.checks, step, &mut |_| {})?;
        self.world = world;
        self.log.inputs.retain(|i| i.step < step);
        self.log.checks.retain(|&(s, _)| s <= step);
        self.log.end_step = step;
        if let Some(timeline) = &mut self.timeline {
            timeline.forget_after(step);
        }
        Ok(())
    }

    /// Ends the recording: the world, and the log with the state hash of its end
    /// ([`InputLog::end_hash`], and among the checks unless inputs followed the last step).
    pub fn finish(mut self) -> (World, InputLog) {
        self.log.note_end(&self.world);
        (self.world, self.log)
    }
}

#[cfg(feature = "serde")]
impl InputLog {
    /// The log as RON text, an input to a line.
    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new().depth_limit(2);
        // Plain data of numbers and lists: serialising it cannot fail.
        ron::ser::to_string_pretty(self, pretty).unwrap_or_default()
    }

    /// Reads a log from RON text, refusing another version, unknown fields and bad syntax.
    pub fn from_ron(text: &str) -> Result<InputLog, SceneError> {
        let log: InputLog =
            ron::from_str(text).map_err(|e| crate::physics::scene_file::explain(text, e))?;
        if log.version != Self::VERSION {
            return Err(SceneError::Version { found: Some(log.version) });
        }
        Ok(log)
    }

    /// Writes the log to `path` as RON (beside the start's scene file).
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), SceneError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_ron())
            .map_err(|e| SceneError::Io(format!("{}: {e}", path.display())))
    }

    /// Reads a log from the RON file at `path`, refusing one larger than
    /// [`SceneFile::MAX_BYTES`] before reading it.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<InputLog, SceneError> {
        let text = crate::physics::scene_file::read_limited(path.as_ref())?;
        Self::from_ron(&text)
    }
}
