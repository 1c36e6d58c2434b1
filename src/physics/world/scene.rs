//! Scene files (issue 18, R-SCN-1): a whole world as plain data, to save, edit by hand and
//! load again.
//!
//! A [`SceneFile`] has two parts:
//!
//! - **The description**, which a person reads and edits: the bounds, which walls act,
//!   gravity on or off, the config, and every body with its shape, kind, material, pose,
//!   velocity, spin, layers, sensor and event flags, gravity scale, force and torque, and
//!   its sleep (the island it sleeps in and how long it has rested) and hold (its drag
//!   target). A file of only this part loads as a fresh start: handles numbered in the
//!   order of the bodies, no contact impulses remembered, step count 0.
//! - **The solver state** ([`SolverState`]), optional: what else the next step reads, so
//!   that a loaded world steps bit for bit as the saved one (the same `state_hash` at every
//!   step): the step count, the handles and the free ids, the order of the slots, the next
//!   island id, the warm-start impulses and the collision events in progress. Delete it after editing the bodies; a file whose state does not fit its
//!   bodies is refused.
//!
//! Loading ([`SceneFile::to_world`]) checks everything first and builds a new [`World`], so
//! a refused file changes nothing. Reading and writing RON is `scene_file.rs` (feature
//! `serde`); `docs/scene-files.md` describes the format.

use std::fmt;

use super::*;
use crate::physics::body::{Material, settle_failures};

/// A whole world as plain data (see the module docs of `world/scene.rs` and
/// `docs/scene-files.md`). [`SceneFile::capture`] takes it from a world,
/// [`SceneFile::to_world`] builds a world from it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SceneFile {
    /// The format version, [`SceneFile::VERSION`]; a file of another version is refused.
    pub version: u32,
    /// The world rectangle, px.
    pub bounds: SceneBounds,
    /// Which walls act (R-GAME-7).
    pub walls: SceneWalls,
    /// Whether gravity acts.
    pub gravity_enabled: bool,
    /// The config.
    pub config: PhysicsConfig,
    /// The bodies, in the order of their handles.
    pub bodies: Vec<SceneBody>,
    /// What the next step needs besides the description, for a bit-exact resume.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub solver_state: Option<SolverState>,
}

/// The world rectangle of a scene, px (y down).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SceneBounds {
    /// The top-left corner.
    pub min: Vec2,
    /// The bottom-right corner.
    pub max: Vec2,
}

/// Which walls of a scene act; a switched-off wall lets bodies pass (R-GAME-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SceneWalls {
    /// The left wall, at `bounds.min.x`.
    pub left: bool,
    /// The right wall, at `bounds.max.x`.
    pub right: bool,
    /// The top wall, at `bounds.min.y`.
    pub top: bool,
    /// The floor, at `bounds.max.y`.
    pub floor: bool,
}

impl Default for SceneWalls {
    fn default() -> Self {
        SceneWalls { left: true, right: true, top: true, floor: true }
    }
}

/// One body of a scene: its description and its state. Every field but `shape` and
/// `position` may be left out of a file and takes the default written beside it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SceneBody {
    /// Shape and size: `Circle(radius: r)` or `Rect(half_extents: (hw, hh))`, px.
    pub shape: Shape,
    /// `Dynamic` (default), `Static` or `Kinematic`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::dynamic"))]
    pub kind: BodyKind,
    /// Density, friction, restitution (default: wood).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::wood"))]
    pub material: Material,
    /// Centre, px; finite, each coordinate within ±2^40 px of the origin. Outside the
    /// bounds too: a world holds such bodies (left outside by [`World::set_bounds`], a
    /// kinematic body that moved out, one flown through a switched-off wall), and a file of
    /// it loads them there ([`SceneFile::check_inside`] refuses them where that is wanted).
    pub position: Vec2,
    /// Velocity, px/s (default 0). Without a solver state a speed above the limit in force
    /// is clamped as [`World::add_body`] clamps it; with one it is kept (as the world held
    /// it), up to `SPEED_CEILING`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero_vec"))]
    pub velocity: Vec2,
    /// Angle, rad (default 0; rectangles keep 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero"))]
    pub angle: f32,
    /// Angular velocity, rad/s (default 0; circles only), clamped as `velocity` is.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero"))]
    pub angular_velocity: f32,
    /// Collision layers (default: every layer).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::all_layers"))]
    pub layers: CollisionLayers,
    /// A sensor (default false, R-GAME-2).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::not"))]
    pub sensor: bool,
    /// Reports its contacts as events (default false, R-GAME-1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::not"))]
    pub collision_events: bool,
    /// Gravity scale, −100 ..= 100 (default 1, R-GAME-5).
    #[cfg_attr(
        feature = "serde",
        serde(default = "serde_skip::one_value", skip_serializing_if = "serde_skip::one")
    )]
    pub gravity_scale: f32,
    /// Persistent force, finite, each component within ±1e30 (default 0; dynamic only).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero_vec"))]
    pub force: Vec2,
    /// Persistent torque, finite, within ±1e30 (default 0; dynamic only).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero"))]
    pub torque: f32,
    /// `Some(id)`: asleep, in the sleeping island `id` (bodies of one id wake together);
    /// dynamic bodies only, not held. Default `None`: awake.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub sleep_island: Option<u32>,
    /// How long it has rested without a break, s (default 0; finite, at least 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero"))]
    pub rest_time: f32,
    /// Where its current rest began (§11, deviation D8 of docs/physics.md): `Some` while
    /// `rest_time` is above 0 and the body is not held, else `None` (default; a rest that
    /// has no anchor starts at the body's position). Finite numbers.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub rest_anchor: Option<Vec2>,
    /// Its angle where its current rest began, rad (default 0; read with `rest_anchor`
    /// only; finite).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero"))]
    pub rest_angle: f32,
    /// In a contact deeper than slop + 0.5 px at its last step (§11, deviation D9 of
    /// docs/physics.md): a rest shorter than `time_to_sleep` starts over when this changes
    /// (default false).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::not"))]
    pub deep_contact: bool,
    /// Set into other bodies (deviation D16 of docs/physics.md): its contacts leave along
    /// the line of centres and get more projection passes until they are within slop +
    /// 0.5 px (default false).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::not"))]
    pub embedded: bool,
    /// How many settlings before sleep in a row failed for its island while it stayed where
    /// it was (§11, deviation D17 of docs/physics.md): at 3 the island falls asleep as it
    /// is. 0 to 3 (default 0); kept only for an awake dynamic body.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "serde_skip::zero_u8"))]
    pub settle_failures: u8,
    /// `Some(target)`: held by a drag controller, heading for `target` (§13); dynamic
    /// bodies only. Default `None`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub drag_target: Option<Vec2>,
}

impl SceneBody {
    /// An awake body of `desc`, not held, with no force.
    pub fn new(desc: BodyDesc) -> Self {
        SceneBody {
            shape: desc.shape,
            kind: desc.kind,
            material: desc.material,
            position: desc.position,
            velocity: desc.velocity,
            angle: desc.angle,
            angular_velocity: desc.angular_velocity,
            layers: desc.layers,
            sensor: desc.sensor,
            collision_events: desc.collision_events,
            gravity_scale: desc.gravity_scale,
            force: Vec2::ZERO,
            torque: 0.0,
            sleep_island: None,
            rest_time: 0.0,
            rest_anchor: None,
            rest_angle: 0.0,
            deep_contact: false,
            embedded: false,
            settle_failures: 0,
            drag_target: None,
        }
    }

    /// The description that adds this body to a world (without its state).
    pub fn desc(&self) -> BodyDesc {
        BodyDesc {
            shape: self.shape,
            kind: self.kind,
            material: self.material,
            position: self.position,
            velocity: self.velocity,
            angle: self.angle,
            angular_velocity: self.angular_velocity,
            layers: self.layers,
            sensor: self.sensor,
            collision_events: self.collision_events,
            gravity_scale: self.gravity_scale,
        }
    }
}

/// What the next step reads besides the description: with it a loaded world steps bit for
/// bit as the saved one. Machine state, not meant for editing (see `docs/scene-files.md`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SolverState {
    /// Steps taken ([`World::step_count`]); the slot sorting of large worlds runs on it.
    pub step: u64,
    /// The handle of each body, in the order of `bodies`. Written as one string of hex
    /// words, each handle's bits ([`BodyHandle::to_bits`]): a list of `(index:, generation:)`
    /// took a seventh of the time to read a 10,000-body file (a list is still read).
    #[cfg_attr(feature = "serde", serde(with = "crate::physics::scene_file::hex_words"))]
    pub handles: Vec<BodyHandle>,
    /// The free handle ids with the generation their next body gets, in the order they are
    /// reused (the last first). Written as `handles` is.
    #[cfg_attr(feature = "serde", serde(with = "crate::physics::scene_file::hex_words"))]
    pub free: Vec<BodyHandle>,
    /// The handle id stored in each slot, in slot order (the step iterates slots in this
    /// order, and the order changes results in the last bits). Written as one string of hex
    /// words (a list of numbers is still read).
    #[cfg_attr(feature = "serde", serde(with = "crate::physics::scene_file::hex_words"))]
    pub slots: Vec<u32>,
    /// The id the next island that falls asleep gets.
    pub next_island_id: u32,
    /// The warm-start cache: last step's contact impulses (§6), in the cache's order.
    pub contacts: Vec<CachedContact>,
    /// Sensor overlaps in progress (R-GAME-2): pair key and the last step that found it
    /// (its number before it ran, so below `step`).
    pub sensor_overlaps: Vec<(u64, u64, u64)>,
    /// Collision events waiting for the next step (ends of removed bodies' pairs).
    pub pending_ends: Vec<CollisionEvent>,
}

/// One entry of the warm-start cache (§6): a pair and its impulses of the last step.
///
/// Written as one string of hex words, the bits of its fields in order,
/// `"a b nx ny normal tangent rolling reported"`: a file holds two or three per body, and
/// RON reads them as numbers several times slower than the rest of the file.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct CachedContact {
    /// Body A's handle bits ([`BodyHandle::to_bits`]), or a wall as `0xffffffff << 32 | n`
    /// with n the wall's number (left, right, top, floor).
    pub a: u64,
    /// Body B's handle bits.
    pub b: u64,
    /// The contact normal the impulses belong to (NaN: forgotten impulses).
    pub normal: Vec2,
    /// Accumulated normal impulse.
    pub normal_impulse: f32,
    /// Accumulated friction impulse.
    pub tangent_impulse: f32,
    /// Accumulated rolling-resistance impulse.
    pub rolling_impulse: f32,
    /// Whether the pair is reported touching (collision events, R-GAME-1).
    pub reported: bool,
}

/// [`CachedContact`] as written: its fields as hex words of their bits, in order, and
/// the `reported` bit as 0 or 1 (RON reads a string of hex digits many times faster than
/// the eight numbers it holds, and the bits are exact by construction).
#[cfg(feature = "serde")]
impl From<CachedContact> for String {
    fn from(c: CachedContact) -> Self {
        let mut text = String::with_capacity(CachedContact::WORDS_LEN);
        c.write_words(&mut text);
        text
    }
}

#[cfg(feature = "serde")]
impl CachedContact {
    /// The length of its words: two of 16 hex digits, five of 8, one digit, 7 spaces.
    pub(crate) const WORDS_LEN: usize = 2 * 16 + 5 * 8 + 1 + 7;

    /// Appends its hex words to `out` (see [`From<CachedContact> for String`]): by table,
    /// since `format!` of the eight words took half the time to save a 10,000-body file.
    pub(crate) fn write_words(&self, out: &mut String) {
        let bits = |x: f32| u64::from(x.to_bits());
        crate::physics::scene_file::push_hex(out, self.a, 16);
        out.push(' ');
        crate::physics::scene_file::push_hex(out, self.b, 16);
        for word in [
            self.normal.x,
            self.normal.y,
            self.normal_impulse,
            self.tangent_impulse,
            self.rolling_impulse,
        ] {
            out.push(' ');
            crate::physics::scene_file::push_hex(out, bits(word), 8);
        }
        out.push_str(if self.reported { " 1" } else { " 0" });
    }
}

#[cfg(feature = "serde")]
impl TryFrom<String> for CachedContact {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        let refuse =
            || format!("a cached contact as 8 hex words (a b nx ny n t r reported), not {text:?}");
        let mut words = text.split_ascii_whitespace();
        let mut word = |digits: usize| {
            let w = words.next().filter(|w| w.len() == digits).ok_or_else(refuse)?;
            u64::from_str_radix(w, 16).map_err(|_| refuse())
        };
        let (a, b) = (word(16)?, word(16)?);
        let mut float = || word(8).map(|w| f32::from_bits(w as u32));
        let normal = Vec2::new(float()?, float()?);
        let (normal_impulse, tangent_impulse, rolling_impulse) = (float()?, float()?, float()?);
        let reported = match word(1)? {
            0 => false,
            1 => true,
            _ => return Err(refuse()),
        };
        if words.next().is_some() {
            return Err(refuse());
        }
        Ok(CachedContact {
            a,
            b,
            normal,
            normal_impulse,
            tangent_impulse,
            rolling_impulse,
            reported,
        })
    }
}

/// Why a scene could not be read or loaded. Loading changes nothing: it builds a new world.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    /// Not a scene in RON: a syntax error, a truncated file, a value of the wrong type, a
    /// missing or unknown field.
    Syntax {
        /// Line of the error, from 1 (0 when unknown).
        line: usize,
        /// Column of the error, from 1 (0 when unknown).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A scene file or input log of another version (or none).
    Version {
        /// The version the file gives, if any.
        found: Option<u32>,
    },
    /// More bodies than [`SceneFile::MAX_BODIES`] (or a file larger than its byte limit),
    /// refused before they are read.
    TooLarge {
        /// What is too large.
        what: String,
        /// The limit.
        limit: u64,
    },
    /// A value out of range: `at` names where (`config`, `bounds`, `bodies[3]`,
    /// `solver_state.slots`), the error each field and its allowed range.
    Invalid {
        /// Where in the scene.
        at: String,
        /// The fields and their allowed ranges.
        error: ConfigError,
    },
    /// The file could not be read or written.
    Io(String),
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Syntax { line, column, message } => {
                write!(f, "scene file, line {line}, column {column}: {message}")
            }
            SceneError::Version { found: Some(v) } => write!(
                f,
                "file version {v} cannot be read: this build reads version {}",
                SceneFile::VERSION
            ),
            SceneError::Version { found: None } => {
                write!(
                    f,
                    "scene file has no `version` field (this build reads {})",
                    SceneFile::VERSION
                )
            }
            SceneError::TooLarge { what, limit } => {
                write!(f, "scene file too large: {what}, at most {limit} allowed")
            }
            SceneError::Invalid { at, error } => write!(f, "scene file, {at}: {error}"),
            SceneError::Io(message) => write!(f, "scene file: {message}"),
        }
    }
}

impl std::error::Error for SceneError {}

impl SceneFile {
    /// An empty scene of the world rectangle `min ..= max` with `config`: every wall on,
    /// gravity on, no bodies, no solver state.
    pub fn new(min: Vec2, max: Vec2, config: PhysicsConfig) -> Self {
        SceneFile {
            version: SceneFile::VERSION,
            bounds: SceneBounds { min, max },
            walls: SceneWalls::default(),
            gravity_enabled: true,
            config,
            bodies: Vec::new(),
            solver_state: None,
        }
    }

    /// The whole world as data, with its solver state: [`to_world`](Self::to_world) gives a
    /// world that steps bit for bit as this one.
    pub fn capture(world: &World) -> Self {
        if world.sorts_before_next_step() {
            // The next step would sort the slots by last step's contacts, which the file does
            // not keep: the file keeps the slots as that step will leave them (`snapshot.rs`).
            let mut sorted = world.clone();
            sorted.reorder_slots();
            return Self::capture_as_is(&sorted);
        }
        Self::capture_as_is(world)
    }

    fn capture_as_is(world: &World) -> Self {
        let [left, right, top, floor] = world.wall_enabled;
        let mut handles = Vec::with_capacity(world.body_count);
        let bodies = world
            .bodies()
            .map(|(handle, body)| {
                handles.push(handle);
                let forces = world.forces_of(handle);
                let resting = body.rest_time > 0.0 && !body.held;
                SceneBody {
                    force: forces.force,
                    torque: forces.torque,
                    sleep_island: body.sleep_island().filter(|_| body.sleeping),
                    rest_time: body.rest_time,
                    rest_anchor: resting.then_some(body.anchor),
                    rest_angle: if resting { body.rest_angle } else { 0.0 },
                    deep_contact: body.flags & DEEP != 0,
                    embedded: body.flags & EMBEDDED != 0,
                    settle_failures: settle_failures(body.flags),
                    drag_target: body.drag_target(),
                    ..SceneBody::new(BodyDesc {
                        gravity_scale: forces.gravity_scale,
                        ..body.desc()
                    })
                }
            })
            .collect();
        let free = world
            .free_ids
            .iter()
            .map(|&id| world.slots[world.slot_of_id[id as usize] as usize].handle())
            .collect();
        let contacts = world
            .cache_entries()
            .into_iter()
            .map(|(key, impulse, reported)| CachedContact {
                a: key.0,
                b: key.1,
                normal: impulse.normal,
                normal_impulse: impulse.normal_impulse,
                tangent_impulse: impulse.tangent_impulse,
                rolling_impulse: impulse.rolling_impulse,
                reported,
            })
            .collect();
        let (overlaps, pending) = world.contact_events.carried_over();
        SceneFile {
            version: SceneFile::VERSION,
            bounds: SceneBounds { min: world.bounds_min, max: world.bounds_max },
            walls: SceneWalls { left, right, top, floor },
            gravity_enabled: world.gravity_enabled,
            config: world.config.clone(),
            bodies,
            solver_state: Some(SolverState {
                step: world.steps,
                handles,
                free,
                slots: world.slots.iter().map(|s| s.id).collect(),
                next_island_id: world.next_island_id,
                contacts,
                sensor_overlaps: overlaps.into_iter().map(|((a, b), s)| (a, b, s)).collect(),
                pending_ends: pending.to_vec(),
            }),
        }
    }
}

/// The tests `skip_serializing_if` runs, so that a saved body lists only what differs
/// from the defaults. Bitwise: a −0.0 is written, as loading it as +0.0 would change the
/// state hash.
#[cfg(feature = "serde")]
mod serde_skip {
    use glam::Vec2;

    use crate::physics::body::{BodyKind, CollisionLayers, Material};

    pub(super) fn zero(x: &f32) -> bool {
        x.to_bits() == 0
    }
    pub(super) fn zero_vec(v: &Vec2) -> bool {
        zero(&v.x) && zero(&v.y)
    }
    pub(super) fn one(x: &f32) -> bool {
        x.to_bits() == 1.0f32.to_bits()
    }
    pub(super) fn one_value() -> f32 {
        1.0
    }
    pub(super) fn not(b: &bool) -> bool {
        !*b
    }
    pub(super) fn zero_u8(x: &u8) -> bool {
        *x == 0
    }
    pub(super) fn all_layers(layers: &CollisionLayers) -> bool {
        *layers == CollisionLayers::ALL
    }
    pub(super) fn dynamic(kind: &BodyKind) -> bool {
        *kind == BodyKind::Dynamic
    }
    pub(super) fn wood(m: &Material) -> bool {
        let bits = |m: &Material| [m.density, m.friction, m.restitution].map(f32::to_bits);
        bits(m) == bits(&Material::WOOD)
    }
}
