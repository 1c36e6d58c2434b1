//! The world: bodies, walls, and the simulation step in the order of §4 (R-STEP-1).
//!
//! # Integration (§3)
//! Each step uses the semi-implicit (symplectic) Euler method with a fixed `dt`:
//! ```text
//! v ← v + g·dt        first the velocity …
//! x ← x + v·dt        … then the position with the NEW velocity
//! θ ← θ + ω·dt
//! ```
//! Explicit Euler (position from the old velocity) gains energy on every oscillation and
//! orbit and goes unstable; the semi-implicit form costs the same and stays stable. For free
//! fall it gives exactly `v = n·g·dt` and `s = g·dt²·n(n+1)/2` after n steps: the analytic
//! `½·g·t²` times `(1 + 1/n)`, 1.7 % after 0.5 s (R-INT-1, R-INT-2).
//!
//! # The step (§4)
//! [`World::step`] reads like the spec's flow chart: drag controller, remember state,
//! integrate velocities, broad phase, narrow phase, wake touched sleepers, wall contacts,
//! solve impulses, clamp speeds, integrate positions, position correction, emergency brake,
//! update sleep. Each phase is one method below with the formula it evaluates.
//!
//! # Walls (§5)
//! The four sides of the world rectangle are half-planes `n·p ≥ offset` with their normal
//! pointing into the world. Walls are never bodies: their contacts use a solver entry with
//! inverse mass 0, so they go through the same formulas as everything else (R-BODY-2).
//! Each wall can be switched off for open worlds (R-GAME-7, `walls.rs`).
//!
//! # The emergency brake (§10)
//! No body may end a step more than `max_wall_penetration` (12 px) inside a wall. The margin
//! is larger than the deepest a free body can reach in one step (`max_speed·dt ≈ 10.8 px`),
//! so ordinary impacts are always left to the solver and the brake only acts in extreme
//! cases, such as a held body squeezing another into a wall. If it acted on normal impacts it
//! would move positions and add potential energy (R-POS-3).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use glam::{Vec2, Vec4};

use self::union_find::UnionFind;
use crate::physics::body::{
    Body, BodyDesc, BodyHandle, BodyKind, CollisionLayers, DEEP, EMBEDDED, NO_ISLAND, SENSOR,
    SETTLE_FAILURE, SETTLE_FAILURES, Shape,
};
use crate::physics::collision::{self, BodyOrWall, BroadPhase, Proxy, ProxyState, Wall, WallId};
use crate::physics::config::{
    ConfigError, FieldError, MIN_BODY_SIZE, PhysicsConfig, PositionCorrection,
};
use crate::physics::solver::{
    self, CachedImpulse, ContactCache, EnergyGuard, PairKey, Projection, ProjectionSettings,
    SolveOrder, SolverBodies, SolverBody, SolverContact, TargetRules, WALL_GENERATION,
};

mod drag;
mod edit;
mod events;
mod filters;
mod forces;
mod query;
mod reorder;
mod scene;
mod scene_build;
mod scratch;
mod settle;
mod settle_overlaps;
mod sleep;
mod snapshot;
mod solve;
mod spatial;
mod spatial_index;
mod step;
mod union_find;
mod walls;

#[cfg(test)]
mod settle_overlaps_tests;
#[cfg(test)]
mod settled_tests;
#[cfg(test)]
mod sleep_tests;
#[cfg(test)]
mod spatial_index_tests;

pub use events::CollisionEvent;
use events::ContactEvents;
use forces::Forces;
pub use query::{ContactInfo, Island, PhaseTimings, StepStats};
use reorder::{REORDER_INTERVAL, REORDER_MIN_BODIES};
pub use scene::{
    CachedContact, SceneBody, SceneBounds, SceneError, SceneFile, SceneWalls, SolverState,
};
use scratch::{Collider, Scratch, SensorOverlap};
pub(crate) use snapshot::Snapshot;
pub use spatial::{QueryFilter, RayHit, ShapeHit};
use spatial_index::SpatialIndex;
pub use step::MIN_STEP;
use walls::{WallBrake, WallCollider};

/// How far from the origin a body may be placed or a wall stand, px, on each axis.
///
/// Beyond a switched-off wall a body may be placed anywhere up to here (and may fly on
/// beyond). Without a bound, coordinates near `f32::MAX` overflowed in sums of two of them
/// (a box placed at 1.8·10³⁸ px got a NaN angle in its first step), and the spatial index
/// had to span them. At 10⁹ px an `f32` still resolves 64 px.
pub const MAX_COORDINATE: f32 = 1.0e9;

/// Errors of the world API. None of them changes the world.
#[derive(Clone, Debug, PartialEq)]
pub enum PhysicsError {
    /// The handle's body was removed (or never existed).
    StaleHandle(BodyHandle),
    /// A body description, value or config was refused; every bad field is named.
    Invalid(ConfigError),
    /// The operation needs a dynamic body (not a static or kinematic one).
    NotDynamic(BodyHandle),
}

impl fmt::Display for PhysicsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhysicsError::StaleHandle(h) => write!(f, "{h} does not exist (removed or stale)"),
            PhysicsError::Invalid(e) => write!(f, "{e}"),
            PhysicsError::NotDynamic(h) => {
                let why = "is not dynamic (static or kinematic) and cannot be moved this way";
                write!(f, "{h} {why} (allowed: a dynamic body)")
            }
        }
    }
}

impl std::error::Error for PhysicsError {}

impl From<ConfigError> for PhysicsError {
    fn from(e: ConfigError) -> Self {
        PhysicsError::Invalid(e)
    }
}

pub(crate) fn invalid(
    field: &'static str,
    value: impl fmt::Display,
    allowed: impl Into<String>,
) -> PhysicsError {
    PhysicsError::Invalid(ConfigError {
        problems: vec![FieldError { field, value: value.to_string(), allowed: allowed.into() }],
    })
}

/// Where a body is stored. The handle's index is the slot's `id`, not its place in
/// `World::slots`: the step may move slots to keep bodies that touch close together in
/// memory (`World::reorder_slots`), and `slot_of_id` finds a handle's slot.
#[derive(Clone, Debug)]
struct Slot {
    /// The handle index of the body stored here (of the last one, while the slot is free).
    id: u32,
    generation: u32,
    body: Option<Body>,
}

impl Slot {
    /// The handle of the body stored here, as bits: the warm-start key of its contacts.
    fn handle_bits(&self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.id)
    }

    fn handle(&self) -> BodyHandle {
        BodyHandle { index: self.id, generation: self.generation }
    }
}

/// The four walls in order: left, right, top, floor.
const WALL_COUNT: usize = 4;

/// A 2D world of circles and axis-aligned rectangles inside four walls.
///
/// Coordinates follow §1: px, y down, origin top-left, gravity (0, +980) px/s².
#[derive(Clone, Debug)]
pub struct World {
    config: PhysicsConfig,
    bounds_min: Vec2,
    bounds_max: Vec2,
    walls: [Wall; WALL_COUNT],
    /// Which walls act, in the order of [`WallId::ALL`](crate::physics::WallId::ALL): a
    /// switched-off wall has no contacts and no brake (R-GAME-7).
    wall_enabled: [bool; WALL_COUNT],
    gravity_enabled: bool,
    slots: Vec<Slot>,
    /// For each handle index (id), the slot that holds it.
    slot_of_id: Vec<u32>,
    /// Ids whose slot is free, for reuse with the next generation.
    free_ids: Vec<u32>,
    body_count: usize,
    /// Forces, torques and gravity scales other than 1, by handle index: rare, so kept
    /// apart from the bodies (`forces.rs`, R-GAME-5). Walked in index order; each entry
    /// changes only its own body, so the order does not change the result.
    forces: BTreeMap<u32, Forces>,
    /// The step's working memory: buffers rebuilt every step (see [`Scratch`]).
    scratch: Scratch,
    broad_phase: BroadPhase,
    warm_start_cache: ContactCache,
    /// Sleeping islands by id, with their member count. The members themselves carry the id
    /// (`Body::sleep_island`), so falling asleep stores no list and the steady-state step
    /// allocates nothing.
    sleeping_islands: HashMap<u32, u32>,
    next_island_id: u32,
    /// Bodies whose layers are not [`CollisionLayers::ALL`]: while there are none, the
    /// broad phase skips the layer test (R-GAME-3).
    layered_bodies: usize,
    /// Bodies that are sensors or report their contacts: while there are none, the narrow
    /// phase reads no contact flags and the step reports no events (R-GAME-1, R-GAME-2).
    flagged_bodies: usize,
    /// Some awake dynamic body may be set into others (D16), as the last step left them
    /// (or a scene file put them): while none is, the step does no work for D16 beyond one
    /// comparison per contact, and reads no body's flag for it.
    embedded_bodies: bool,
    /// The pairs that touch and the last step's collision events (R-GAME-1).
    contact_events: ContactEvents,
    stats: StepStats,
    steps: u64,
    /// The count of the last step in which a body could move (some body was awake, a
    /// kinematic one moved, or the slots were sorted): the key of the spatial index, which
    /// a sleeping world keeps from step to step.
    moved_at_step: u64,
    /// The last step found nothing to move (no body pairing at its contact phases, no slot
    /// sorted) and nothing was edited since: the next step would change nothing but the
    /// step count, so it is skipped (`World::step`). Every public method that takes
    /// `&mut self` clears it first ([`World::edited`]).
    settled: bool,
    /// The grid of the spatial queries, built by the first query after a change. Stale after
    /// every step in which a body could move; a method that moves, adds or removes a body
    /// between steps calls `spatial_index.invalidate()` (see `world/spatial_index.rs`).
    spatial_index: SpatialIndex,
}

impl World {
    /// An empty world of `size` px (from (0, 0) to `size`) with `config`.
    pub fn new(size: Vec2, config: PhysicsConfig) -> Result<Self, PhysicsError> {
        config.validate()?;
        let mut world = Self {
            config,
            bounds_min: Vec2::ZERO,
            bounds_max: Vec2::ONE,
            walls: [Wall { normal: Vec2::X, offset: 0.0 }; WALL_COUNT],
            wall_enabled: [true; WALL_COUNT],
            gravity_enabled: true,
            slots: Vec::new(),
            slot_of_id: Vec::new(),
            free_ids: Vec::new(),
            body_count: 0,
            forces: BTreeMap::new(),
            scratch: Scratch::default(),
            broad_phase: BroadPhase::default(),
            warm_start_cache: ContactCache::default(),
            sleeping_islands: HashMap::new(),
            next_island_id: 0,
            layered_bodies: 0,
            flagged_bodies: 0,
            embedded_bodies: false,
            contact_events: ContactEvents::default(),
            stats: StepStats::default(),
            steps: 0,
            moved_at_step: 0,
            settled: false,
            spatial_index: SpatialIndex::default(),
        };
        world.set_bounds(Vec2::ZERO, size)?;
        Ok(world)
    }

    // ----------------------------------------------------------------------------------
    // Bodies
    // ----------------------------------------------------------------------------------

    /// Adds a body. The description is checked first: sizes from `MIN_BODY_SIZE` up, a
    /// positive finite density, friction in [0, 2], restitution in [0, 1], finite values,
    /// a gravity scale in −100 ..= 100, and a centre where a body of its kind may be placed
    /// ([`can_place`](Self::can_place)): a dynamic body's inside the world (on the open side
    /// of a switched-off wall, up to [`MAX_COORDINATE`] from the origin), a static or
    /// kinematic body's anywhere within [`MAX_COORDINATE`].
    /// A speed above `max_speed` is clamped (unless the rule switch `speed_limit` is off).
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyHandle, PhysicsError> {
        self.edited();
        let mut problems = Vec::new();
        desc.check(&mut problems);
        if problems.is_empty() && !self.can_place(desc.kind, desc.position) {
            problems.push(FieldError {
                field: "position",
                value: format!("{}", desc.position),
                allowed: self.placement_range(desc.kind),
            });
        }
        if !problems.is_empty() {
            return Err(PhysicsError::Invalid(ConfigError { problems }));
        }
        let (max_speed, max_spin) = self.config.speed_limits();
        let mut body = Body::from_desc(&desc, max_speed, max_spin);
        // Only a dynamic body feels gravity; its scale, when not 1, goes to the sparse map.
        body.set_forced(body.kind == BodyKind::Dynamic && desc.gravity_scale != 1.0);
        // A sensor holds nothing up: sleepers under it need not feel it (R-GAME-2).
        let immovable = body.kind != BodyKind::Dynamic && !desc.sensor;
        self.count_contact_rules(&body, 1);
        let index = match self.free_ids.pop() {
            Some(id) => {
                let index = self.slot_of_id[id as usize] as usize;
                self.slots[index].body = Some(body);
                index
            }
            None => {
                let id = self.slots.len() as u32;
                self.slots.push(Slot { id, generation: 0, body: Some(body) });
                self.slot_of_id.push(id);
                // Room for a sort of every slot, made here and not in the step.
                let room = self.slots.capacity();
                self.scratch
                    .reorder_keys
                    .reserve(room.saturating_sub(self.scratch.reorder_keys.len()));
                self.scratch
                    .new_slot_of
                    .reserve(room.saturating_sub(self.scratch.new_slot_of.len()));
                // At most an island per slot: room for all of them asleep, so that more
                // islands falling asleep at once than ever before do not allocate in a step.
                self.sleeping_islands.reserve(room.saturating_sub(self.sleeping_islands.len()));
                id as usize
            }
        };
        self.body_count += 1;
        let handle = self.slots[index].handle();
        if self.slots[index].body.as_ref().is_some_and(Body::forced) {
            let forces = Forces { gravity_scale: desc.gravity_scale, ..Forces::NONE };
            self.forces.insert(handle.index, forces);
        }
        self.spatial_index.invalidate();
        if immovable {
            // A static or kinematic body appearing under sleepers must be felt by them.
            self.wake_near(index);
        }
        Ok(handle)
    }

    /// Removes a body and wakes its island, so that bodies it supported fall (R-SLP-4), and
    /// the sleepers whose boxes touch its box. Its touching pairs that reported collision
    /// events end with a [`CollisionEvent::Ended`] among the next step's events.
    ///
    /// The awake bodies that touched a removed support start their rests again, so that
    /// they fall instead of falling asleep in the air (D8).
    ///
    /// O(1) while nothing sleeps and the body moves faster than ten times
    /// `sleep_linear_speed`; with sleeping islands a pass over the bodies, and for a slower,
    /// a static or a kinematic body a pass over the warm-start cache (the last step's
    /// pairs). To remove many bodies at once, [`remove_bodies`](Self::remove_bodies) makes
    /// one pass of each for all.
    pub fn remove_body(&mut self, handle: BodyHandle) -> Result<Body, PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        let body = self.take_body(index).ok_or(PhysicsError::StaleHandle(handle))?;
        self.wake_islands_and_near(body.sleep_island().as_slice(), &[body.aabb()]);
        if may_support(&body, self.resting_speed()) {
            let bits = handle.to_bits();
            self.restart_rests_on(|h| h == bits);
        }
        Ok(body)
    }

    /// Removes the bodies of `handles` (stale handles and repeats are skipped) and returns
    /// how many it removed. The world ends as after [`remove_body`](Self::remove_body) for
    /// each in turn, but the waking of their islands and of the sleepers near them takes one
    /// pass over the bodies for all of them, and the rests restarted around the supports
    /// among them one pass over the warm-start cache, so removing k bodies costs
    /// O(bodies + pairs + k).
    pub fn remove_bodies(&mut self, handles: impl IntoIterator<Item = BodyHandle>) -> usize {
        self.edited();
        let (mut islands, mut boxes) = (Vec::new(), Vec::new());
        let sleepers = !self.sleeping_islands.is_empty();
        let mut removed = 0;
        // By handle index: a stale cache entry of an earlier body in the same slot id only
        // restarts a rest more (harmless), and a lookup costs an index, not a hash.
        let (mut supports, mut any_support) = (Vec::new(), false);
        let resting = self.resting_speed();
        for handle in handles {
            let Ok(index) = self.slot_of(handle) else { continue };
            let Some(body) = self.take_body(index) else { continue };
            if may_support(&body, resting) {
                if supports.is_empty() {
                    supports.resize(self.slot_of_id.len(), false);
                }
                supports[handle.index as usize] = true;
                any_support = true;
            }
            if sleepers {
                // Bodies of one island mostly come in a row: note each run's island once.
                if let Some(id) = body.sleep_island()
                    && islands.last() != Some(&id)
                {
                    islands.push(id);
                }
                boxes.push(body.aabb());
            }
            removed += 1;
        }
        if self.body_count == 0 {
            // Nothing is left to wake (a whole world despawned at once).
            self.sleeping_islands.clear();
            self.stats.sleeping_islands = 0;
        } else {
            self.wake_islands_and_near(&islands, &boxes);
            if any_support {
                let support = |bits: u64| supports.get(bits as u32 as usize).copied() == Some(true);
                self.restart_rests_on(support);
            }
        }
        removed
    }

    /// Removes every body, in one pass over the slots.
    pub fn clear(&mut self) {
        self.edited();
        // In the order of the handles, as removing them one by one would free their ids.
        for index in 0..self.slot_of_id.len() {
            let slot = self.slot_of_id[index] as usize;
            self.take_body(slot);
        }
        self.contact_events.end_all_cached(&self.warm_start_cache);
        self.warm_start_cache.clear();
        self.sleeping_islands.clear();
        self.forces.clear();
        self.stats.sleeping_islands = 0;
    }

    /// Takes the body out of slot `index`: the slot's generation moves on, so the handle goes
    /// stale, and its id is free for the next body.
    fn take_body(&mut self, index: usize) -> Option<Body> {
        let slot = &mut self.slots[index];
        let body = slot.body.take()?;
        slot.generation = slot.generation.wrapping_add(1) % WALL_GENERATION;
        if body.forced() {
            self.forces.remove(&slot.id);
        }
        self.free_ids.push(slot.id);
        self.body_count -= 1;
        self.count_contact_rules(&body, -1);
        self.spatial_index.invalidate();
        Some(body)
    }

    // ----------------------------------------------------------------------------------
    // World settings
    // ----------------------------------------------------------------------------------

    /// The config in force.
    pub fn config(&self) -> &PhysicsConfig {
        &self.config
    }

    /// Replaces the config if it is valid; otherwise the old one stays in force and the
    /// error names every bad field (R-CFG-3). A change wakes every body, so that sleepers
    /// feel, say, a new gravity on the next step (R-CFG-2).
    pub fn set_config(&mut self, config: PhysicsConfig) -> Result<(), ConfigError> {
        self.edited();
        config.validate()?;
        if config != self.config {
            // Kept impulses carry the old weight per step (m·g·dt): re-applied under another
            // gravity or step they push resting bodies apart.
            if config.gravity != self.config.gravity || config.time_step != self.config.time_step {
                self.forget_contact_impulses();
            }
            self.config = config;
            self.wake_all();
        }
        Ok(())
    }

    /// Whether gravity acts.
    pub fn gravity_enabled(&self) -> bool {
        self.gravity_enabled
    }

    /// Switches gravity on or off and wakes every body (R-SLP-4).
    ///
    /// The impulses kept for warm starting carried the weight of resting bodies; re-applied
    /// without gravity they would launch a resting pile, so a toggle forgets them.
    pub fn set_gravity_enabled(&mut self, enabled: bool) {
        self.edited();
        if enabled != self.gravity_enabled {
            self.forget_contact_impulses();
        }
        self.gravity_enabled = enabled;
        self.wake_all();
    }

    /// World rectangle (min, max) in px.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        (self.bounds_min, self.bounds_max)
    }

    /// The four walls (left, right, top, floor) as half-planes.
    pub fn walls(&self) -> &[Wall; 4] {
        &self.walls
    }

    /// Moves the walls to the rectangle `min ..= max` and wakes every body. Each side must
    /// be at least `2·MIN_BODY_SIZE` long. Held bodies' drag targets are clamped into the
    /// new bounds (R-DRAG-1). Dynamic bodies left outside are pushed back in
    /// over the next steps by the walls' contacts and, past `max_wall_penetration`, the
    /// emergency brake; static and kinematic bodies stay where they are (a kinematic one
    /// moves on at its velocity), since neither acts on them.
    pub fn set_bounds(&mut self, min: Vec2, max: Vec2) -> Result<(), PhysicsError> {
        self.edited();
        let size = max - min;
        if !(min.is_finite()
            && max.is_finite()
            && size.x >= 2.0 * MIN_BODY_SIZE
            && size.y >= 2.0 * MIN_BODY_SIZE)
        {
            return Err(invalid(
                "bounds",
                format!("{min} ..= {max}"),
                format!("finite, each side at least {} px", 2.0 * MIN_BODY_SIZE),
            ));
        }
        if size.x > 1.0e7 || size.y > 1.0e7 {
            return Err(invalid("bounds", format!("{min} ..= {max}"), "each side at most 1e7 px"));
        }
        if min.min_element() < -MAX_COORDINATE || max.max_element() > MAX_COORDINATE {
            return Err(invalid(
                "bounds",
                format!("{min} ..= {max}"),
                "every corner within ±1e9 px of the origin",
            ));
        }
        self.bounds_min = min;
        self.bounds_max = max;
        self.walls = [
            Wall { normal: Vec2::X, offset: min.x },
            Wall { normal: -Vec2::X, offset: -max.x },
            Wall { normal: Vec2::Y, offset: min.y },
            Wall { normal: -Vec2::Y, offset: -max.y },
        ];
        self.clamp_drag_targets();
        self.wake_all();
        Ok(())
    }

    // ----------------------------------------------------------------------------------
    // Internals
    // ----------------------------------------------------------------------------------

    fn slot_of(&self, handle: BodyHandle) -> Result<usize, PhysicsError> {
        let index = self.slot_of_id.get(handle.index as usize).map(|&index| index as usize);
        match index.map(|index| (index, &self.slots[index])) {
            Some((index, slot)) if slot.generation == handle.generation && slot.body.is_some() => {
                Ok(index)
            }
            _ => Err(PhysicsError::StaleHandle(handle)),
        }
    }

    fn dynamic_slot_of(&self, handle: BodyHandle) -> Result<usize, PhysicsError> {
        let index = self.slot_of(handle)?;
        match &self.slots[index].body {
            Some(b) if b.kind == BodyKind::Dynamic => Ok(index),
            _ => Err(PhysicsError::NotDynamic(handle)),
        }
    }

    /// The slot of a body whose velocity the user may set: dynamic or kinematic.
    fn moving_slot_of(&self, handle: BodyHandle) -> Result<usize, PhysicsError> {
        let index = self.slot_of(handle)?;
        match &self.slots[index].body {
            Some(b) if b.kind != BodyKind::Static => Ok(index),
            _ => Err(PhysicsError::NotDynamic(handle)),
        }
    }

    fn held_slot_of(&self, handle: BodyHandle) -> Result<usize, PhysicsError> {
        let index = self.dynamic_slot_of(handle)?;
        match &self.slots[index].body {
            Some(b) if b.held => Ok(index),
            _ => Err(invalid("handle", handle, "a body that is held (call grab first)")),
        }
    }
}

/// Whether removing `body` may take away the support of awake bodies at rest on it (see
/// `restart_rests_on`): a static or kinematic body, or an awake dynamic body no faster
/// than `resting` (ten times `sleep_linear_speed`). A fast body (a bullet) needs no look
/// over the warm-start cache, and a sleeping one's island is woken whole. By its velocity,
/// not its rest time, which an earlier removal may have restarted: removing bodies one by
/// one and all at once must end alike.
fn may_support(body: &Body, resting: f32) -> bool {
    body.kind != BodyKind::Dynamic
        || (!body.sleeping && body.velocity.length_squared() <= resting * resting)
}

/// Moves under the solver this step: dynamic and not asleep.
fn is_awake_dynamic(body: &Body) -> bool {
    body.kind == BodyKind::Dynamic && !body.sleeping
}

/// A kinematic body with a velocity (R-GAME-4): it pairs with every body in the broad
/// phase and wakes the sleepers it touches. At rest it is passive, like a static body, so
/// a pile resting against a stopped platform can sleep.
fn is_moving_kinematic(body: &Body) -> bool {
    body.kind == BodyKind::Kinematic
        && (body.velocity != Vec2::ZERO || body.angular_velocity != 0.0)
}

/// Enters the solver with its velocity: an awake dynamic body (movable) or a kinematic one
/// (inverse mass 0, its velocity read by its contacts and never written).
fn enters_solver(body: &Body) -> bool {
    body.kind != BodyKind::Static && !body.sleeping
}
