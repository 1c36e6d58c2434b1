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
//!
//! # The emergency brake (§10)
//! No body may end a step more than `max_wall_penetration` (12 px) inside a wall. The margin
//! is larger than the deepest a free body can reach in one step (`max_speed·dt ≈ 10.8 px`),
//! so ordinary impacts are always left to the solver and the brake only acts in extreme
//! cases, such as a held body squeezing another into a wall. If it acted on normal impacts it
//! would move positions and add potential energy (R-POS-3).
//!
//! # Rest without jitter: sleeping (§11)
//! A solver with finitely many passes always leaves tiny residual motion, so a stack would
//! visibly "breathe" or creep. Resting bodies are therefore frozen:
//! 1. Each body counts how long it has been nearly still without a break
//!    (`|v| ≤ 4 px/s` and `|ω| ≤ 0.1 rad/s`).
//! 2. Bodies touching directly or through others form an **island** (union-find over the
//!    body–body contacts). Walls and static bodies join no island; otherwise everything on
//!    the floor would be one.
//! 3. An island falls asleep when **all** its bodies have rested for `time_to_sleep`
//!    (0.5 s); each body records its island.
//! 4. Sleepers are neither integrated nor solved, which also saves time.
//! 5. Waking is always for the whole island: on a touch by an awake dynamic body, on a grab,
//!    on a gravity toggle or config change, and when one of its bodies is removed.
//!
//! Why islands and not single bodies? A sleeping body could lie under an awake one; the awake
//! one wakes it, both rest, one falls asleep first, the other wakes it again, forever. And
//! why wake the whole island? Two sleepers are never tested against each other. If the
//! bottom box of a sleeping stack were woken and knocked away in the same step, nobody would
//! notice that the boxes above lost their support and they would sleep on in mid-air. As all
//! bodies that touch fell asleep together, waking them together is enough (R-SLP-1..4).
//!
//! Like every speed-threshold sleep, this can freeze a state that is not a true equilibrium
//! (a circle resting slightly off-centre on another may fall asleep while it slowly starts to
//! roll off); the effect is limited to a few px, and stricter thresholds would make resting
//! piles sleep later.
//!
//! The other way round, a deep pile of very unequal masses may never sleep. In
//! `scenes::mixed(2000, 3)` (all four materials; steel is 13 times as dense as wood) seven
//! bodies of 2000 sleep after 20 s, because the one island never has 60 quiet steps in a
//! row: every 0.4 s or so a few bodies move at 4–8 px/s. One cause, traced body by body: a
//! heavy circle's shallow contact (0.05 px deep, below the slop, so the projection never
//! deepens it) thins out while the projection of its other contacts moves it, until the
//! contact is lost for a step and the circle drops onto its support. The same pile is all
//! asleep after 9.8 s with steel's density cut to 2, after 9.6 s with equal densities,
//! after 10.4 s with 32 velocity passes instead of 8, and after 8.3 s with the projection
//! off: 8 Gauss–Seidel passes at a 13:1 mass ratio leave a residue that the projection
//! turns into this creep (issue 6).

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use glam::{Vec2, Vec4};

use super::body::{Body, BodyDesc, BodyHandle, BodyKind, NO_ISLAND, Shape};
use super::broad_phase::{BroadPhase, Proxy, ProxyState};
use super::config::{ConfigError, FieldError, MIN_BODY_SIZE, PhysicsConfig};
use super::contact_cache::{self, CachedImpulse, ContactCache, PairKey, WALL_GENERATION};
use super::contact_solver::{
    self, EnergyGuard, SolveOrder, SolverBodies, SolverBody, SolverContact,
};
use super::narrow_phase::{self, Wall};
use super::position_solver;
use super::union_find::UnionFind;

/// Errors of the world API. None of them changes the world.
#[derive(Clone, Debug, PartialEq)]
pub enum PhysicsError {
    /// The handle's body was removed (or never existed).
    StaleHandle(BodyHandle),
    /// A body description, value or config was refused; every bad field is named.
    Invalid(ConfigError),
    /// The operation needs a dynamic body.
    NotDynamic(BodyHandle),
}

impl fmt::Display for PhysicsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhysicsError::StaleHandle(h) => write!(f, "{h} does not exist (removed or stale)"),
            PhysicsError::Invalid(e) => write!(f, "{e}"),
            PhysicsError::NotDynamic(h) => write!(f, "{h} is static and cannot be moved this way"),
        }
    }
}

impl std::error::Error for PhysicsError {}

impl From<ConfigError> for PhysicsError {
    fn from(e: ConfigError) -> Self {
        PhysicsError::Invalid(e)
    }
}

fn invalid(
    field: &'static str,
    value: impl fmt::Display,
    allowed: impl Into<String>,
) -> PhysicsError {
    PhysicsError::Invalid(ConfigError {
        problems: vec![FieldError { field, value: value.to_string(), allowed: allowed.into() }],
    })
}

/// Counts and timings of the last step, per phase of §4.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepStats {
    /// Bodies in the world.
    pub bodies: usize,
    /// Awake dynamic bodies.
    pub awake: usize,
    /// Sleeping bodies.
    pub sleeping: usize,
    /// Candidate pairs from the broad phase.
    pub pairs: usize,
    /// Body–body contacts.
    pub body_contacts: usize,
    /// Body–wall contacts.
    pub wall_contacts: usize,
    /// Islands of awake bodies.
    pub awake_islands: usize,
    /// Sleeping islands.
    pub sleeping_islands: usize,
    /// Contacts that started from last step's impulses (warm start, §6).
    pub warm_started: usize,
    /// Contacts solved a second time, without bounce targets, because the targets raised
    /// their island's kinetic energy (see `World::step`'s solve).
    pub solved_again: usize,
    /// Bodies the emergency brake had to push back this step (§10).
    pub braked: usize,
    /// Whether this step sorted the slots into space order first (`World::step` does so
    /// in large worlds whose touching bodies lie far apart in memory).
    pub slots_sorted: bool,
    /// Time per phase.
    pub timings: PhaseTimings,
}

/// Wall-clock time per phase of the last step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhaseTimings {
    /// Drag controller, remembering state, integrating velocities.
    pub integrate_velocities: Duration,
    /// Sweep and prune.
    pub broad_phase: Duration,
    /// Body–body tests and waking touched sleepers.
    pub narrow_phase: Duration,
    /// Wall contacts.
    pub walls: Duration,
    /// Sequential impulses (prepare, warm start, iterations, store).
    pub solve_velocities: Duration,
    /// The speed clamp and position integration (one pass over the bodies).
    pub integrate_positions: Duration,
    /// Projection and the emergency brake.
    pub correct_positions: Duration,
    /// Islands and sleep.
    pub sleep: Duration,
    /// The whole step.
    pub total: Duration,
}

/// A contact as seen from outside, for debug drawing and tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactInfo {
    /// Body A, or `None` for a wall.
    pub a: Option<BodyHandle>,
    /// Body B.
    pub b: BodyHandle,
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// Depth at detection, px.
    pub depth: f32,
    /// Contact point, px.
    pub point: Vec2,
    /// Accumulated normal impulse of the step.
    pub normal_impulse: f32,
    /// Accumulated friction impulse of the step.
    pub tangent_impulse: f32,
    /// Accumulated rolling-resistance impulse of the step.
    pub rolling_impulse: f32,
}

/// A group of bodies touching directly or through others (§11).
#[derive(Clone, Debug, PartialEq)]
pub struct Island {
    /// Its members.
    pub bodies: Vec<BodyHandle>,
    /// Whether it sleeps.
    pub sleeping: bool,
}

/// What the narrow phase reads of a body, packed in 40 bytes: the pairs visit bodies in
/// sweep order, scattered over the slots, and each visit to a slot would load two cache
/// lines of a 120-byte body for these few fields.
#[derive(Clone, Copy, Debug)]
struct Collider {
    shape: Shape,
    position: Vec2,
    friction: f32,
    restitution: f32,
    /// `1 / rolling_radius`: 1/r for a circle, 0 for a rectangle (§9).
    curvature: f32,
    /// The body's handle bits, its warm-start key.
    handle_bits: u64,
}

impl Default for Collider {
    fn default() -> Self {
        Collider {
            shape: Shape::Circle { radius: 1.0 },
            position: Vec2::ZERO,
            friction: 0.0,
            restitution: 0.0,
            curvature: 0.0,
            handle_bits: 0,
        }
    }
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

/// Worlds of at least this many bodies keep their slots in space order when their touching
/// bodies lie far apart in memory (`World::reorder_slots`). Below it the per-step arrays fit
/// in a core's 1 MiB L2 cache whatever the order, and a sort would only cost time.
pub const REORDER_MIN_BODIES: usize = 4_096;

/// Steps between two looks at the order of the slots: bodies in a pile stay near their
/// neighbours for many steps. On 20,000 circles a look costs about 0.65 ms and a look with
/// a sort 0.8 ms, a tenth of a step, once in 64 steps.
pub const REORDER_INTERVAL: u64 = 64;

/// Side of the square cells by which the slots are sorted, px: row after row of cells
/// (64 px tall, about two rows of bodies of the usual sizes), left to right within a row.
/// Fixed cells, so that a settled pile's order stays sorted while its bodies shift by a
/// fraction of a pixel.
pub const REORDER_CELL: f32 = 64.0;

/// A 2D world of circles and axis-aligned rectangles inside four walls.
///
/// Coordinates follow §1: px, y down, origin top-left, gravity (0, +980) px/s².
#[derive(Clone, Debug)]
pub struct World {
    config: PhysicsConfig,
    bounds_min: Vec2,
    bounds_max: Vec2,
    walls: [Wall; WALL_COUNT],
    gravity_enabled: bool,
    slots: Vec<Slot>,
    /// For each handle index (id), the slot that holds it.
    slot_of_id: Vec<u32>,
    /// Ids whose slot is free, for reuse with the next generation.
    free_ids: Vec<u32>,
    /// `reorder_slots`' buffers, sized with the slots by `add_body`, so that a sort allocates
    /// nothing: each slot's sort key with its index, and the new index of each old slot.
    reorder_keys: Vec<(u64, u32)>,
    new_slot_of: Vec<u32>,
    body_count: usize,
    broad_phase: BroadPhase,
    proxies: Vec<Proxy>,
    /// Per slot, what the narrow phase reads of its body (filled by `find_pairs`).
    colliders: Vec<Collider>,
    /// Wall contacts and their keys found by `gather_bodies`, for `collide_walls`.
    wall_contacts: Vec<SolverContact>,
    wall_keys: Vec<PairKey>,
    pairs: Vec<(u32, u32)>,
    /// Body–body contacts first, then wall contacts.
    contacts: Vec<SolverContact>,
    body_contact_count: usize,
    /// Warm-start key of each contact: the two handles' bits.
    contact_keys: Vec<PairKey>,
    warm_start_cache: ContactCache,
    solver: SolverBodies,
    solve_order: SolveOrder,
    positions: Vec<Vec2>,
    start_positions: Vec<Vec2>,
    union_find: UnionFind,
    energy_guard: EnergyGuard,
    projection: position_solver::Projection,
    before_bounce: Vec<(Vec2, f32)>,
    carried: Vec<(f32, f32, f32)>,
    resolve_order: Vec<u32>,
    bounce_targets: Vec<f32>,
    island_root: Vec<u32>,
    /// Per slot: holds an awake dynamic body (from `gather_bodies` to the end of the step).
    awake_dynamic: Vec<bool>,
    island_rest: Vec<f32>,
    island_id: Vec<u32>,
    /// Sleeping islands by id, with their member count. The members themselves carry the id
    /// (`Body::sleep_island`), so falling asleep stores no list and the steady-state step
    /// allocates nothing (issue 7).
    sleeping_islands: HashMap<u32, u32>,
    next_island_id: u32,
    stats: StepStats,
    steps: u64,
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
            gravity_enabled: true,
            slots: Vec::new(),
            slot_of_id: Vec::new(),
            free_ids: Vec::new(),
            reorder_keys: Vec::new(),
            new_slot_of: Vec::new(),
            body_count: 0,
            broad_phase: BroadPhase::default(),
            proxies: Vec::new(),
            colliders: Vec::new(),
            wall_contacts: Vec::new(),
            wall_keys: Vec::new(),
            pairs: Vec::new(),
            contacts: Vec::new(),
            body_contact_count: 0,
            contact_keys: Vec::new(),
            warm_start_cache: ContactCache::default(),
            solver: SolverBodies::default(),
            solve_order: SolveOrder::default(),
            positions: Vec::new(),
            start_positions: Vec::new(),
            union_find: UnionFind::default(),
            energy_guard: EnergyGuard::default(),
            projection: position_solver::Projection::default(),
            before_bounce: Vec::new(),
            carried: Vec::new(),
            resolve_order: Vec::new(),
            bounce_targets: Vec::new(),
            island_root: Vec::new(),
            awake_dynamic: Vec::new(),
            island_rest: Vec::new(),
            island_id: Vec::new(),
            sleeping_islands: HashMap::new(),
            next_island_id: 0,
            stats: StepStats::default(),
            steps: 0,
        };
        world.set_bounds(Vec2::ZERO, size)?;
        Ok(world)
    }

    // ----------------------------------------------------------------------------------
    // The step (§4, R-STEP-1)
    // ----------------------------------------------------------------------------------

    /// Advances the world by `dt` seconds in the order of §4.
    ///
    /// `dt` must be finite, positive and at most 1/30 s; the config's speed limit assumes
    /// `config.time_step`, so pass that unless you know better.
    pub fn step(&mut self, dt: f32) -> Result<(), PhysicsError> {
        if !(dt > 0.0 && dt <= 1.0 / 30.0) {
            return Err(invalid("dt", dt, "0 < dt ≤ 1/30 s"));
        }
        let start = Instant::now();
        let mut clock = start;
        let lap = |clock: &mut Instant| {
            let now = Instant::now();
            let elapsed = now - *clock;
            *clock = now;
            elapsed
        };
        self.stats.braked = 0;
        self.stats.solved_again = 0;
        self.stats.slots_sorted = false;
        if self.body_count >= REORDER_MIN_BODIES && self.steps.is_multiple_of(REORDER_INTERVAL) {
            self.reorder_slots(); // memory only: where the bodies are stored, not what they do
        }

        self.start_bodies(dt); //          drag v = (target − x)·rate (§13), remember the state
        //                                 (§3, §7), v += g·dt (§3): one pass over the bodies
        self.stats.timings.integrate_velocities = lap(&mut clock);

        let (mut broad, mut narrow) = (Duration::ZERO, Duration::ZERO);
        loop {
            self.gather_bodies(); //       proxies, colliders, awake flags, wall contacts (§5)
            self.find_pairs(); //          sweep and prune (§5)
            broad += lap(&mut clock);
            self.collide_bodies(); //      body–body contacts, warm-start lookup (§5, §6)
            let woke = self.wake_touched_sleepers(); // whole islands (§11)
            narrow += lap(&mut clock);
            if !woke {
                break;
            }
            // A woken island's own contacts were skipped as sleeper pairs: find them now.
        }
        self.stats.timings.broad_phase = broad;
        self.stats.timings.narrow_phase = narrow;

        self.collide_walls(); //           half-planes, found by `gather_bodies` (§5)
        self.find_islands(); //            union-find over body–body contacts (§11)
        self.stats.timings.walls = lap(&mut clock);

        self.solve_velocities(dt); //      warm start, then N × (normal, friction, rolling) (§6–§9)
        self.stats.timings.solve_velocities = lap(&mut clock);

        self.integrate_positions(dt); //   clamp speeds (§12), then x += v·dt, θ += ω·dt (§3)
        self.stats.timings.integrate_positions = lap(&mut clock);

        self.correct_positions(); //       projection, position_iterations times, then the
        //                                 emergency brake as each body is written back (§10)
        self.stats.timings.correct_positions = lap(&mut clock);

        self.update_sleep(dt); //          islands by union-find (§11)
        self.stats.timings.sleep = lap(&mut clock);

        self.stats.timings.total = start.elapsed();
        self.steps += 1;
        Ok(())
    }

    /// Sorts the slots into space order when that brings the bodies that touch at least
    /// twice as close together in memory.
    ///
    /// Every per-step array (colliders, solver bodies and velocities, positions, islands) is
    /// indexed by slot, and the contacts visit them in sweep order. Bodies added in random
    /// order scatter those visits over the whole arrays, which on large worlds outgrow the
    /// cache: 20,000 circles added in random order stepped about 1.4 times as slowly as the
    /// same circles added row by row. The measure is the mean distance, in slots, between
    /// the two bodies of last step's body–body contacts, now and in the sorted order. A
    /// world added row by row is left as it is (its contacts are about as close as sorted
    /// ones, and its slots stay in the order of the handles, in which the Bevy layer reads
    /// the bodies); so is a sorted world whose bodies have only shifted a little.
    ///
    /// The step calls it first, every [`REORDER_INTERVAL`] steps, in worlds of at least
    /// [`REORDER_MIN_BODIES`] bodies: the per-step arrays a sort leaves stale (the contacts
    /// and islands of the last step) are all rebuilt before anything reads them. The look
    /// (the keys, their sort, the two distances) is most of the cost of a sort.
    fn reorder_slots(&mut self) {
        self.find_sorted_order();
        let new_slot_of = &self.new_slot_of;
        let (mut now, mut sorted) = (0u64, 0u64);
        for c in &self.contacts[..self.body_contact_count] {
            now += u64::from(c.a.abs_diff(c.b));
            sorted += u64::from(new_slot_of[c.a as usize].abs_diff(new_slot_of[c.b as usize]));
        }
        if now > 2 * sorted {
            self.move_slots_into_sorted_order();
        }
    }

    /// Sorts the slots into space order, whatever their order now.
    #[cfg(test)]
    fn sort_slots(&mut self) {
        self.find_sorted_order();
        self.move_slots_into_sorted_order();
    }

    /// The space order of the slots, into `reorder_keys` (new slot → old slot) and
    /// `new_slot_of` (old slot → new slot): rows of [`REORDER_CELL`] cells from the top of
    /// the world, then cells from left to right, the order in which the banded sweep finds
    /// the pairs; empty slots last.
    fn find_sorted_order(&mut self) {
        let origin = self.bounds_min;
        // A float converts to an unsigned integer saturating: 0 left of or above the origin.
        let cell = |x: f32| ((x / REORDER_CELL) as u32).min(u32::MAX - 1);
        self.reorder_keys.clear();
        self.reorder_keys.extend(self.slots.iter().enumerate().map(|(index, slot)| {
            let key = slot.body.as_ref().map_or(u64::MAX, |body| {
                let p = body.position - origin;
                (u64::from(cell(p.y)) << 32) | u64::from(cell(p.x))
            });
            (key, index as u32)
        }));
        // The old index breaks ties: the order depends on the world's state alone, and
        // bodies of one cell keep their order.
        self.reorder_keys.sort_unstable();
        self.new_slot_of.clear();
        self.new_slot_of.resize(self.slots.len(), 0);
        for (new, &(_, old)) in self.reorder_keys.iter().enumerate() {
            self.new_slot_of[old as usize] = new as u32;
        }
    }

    /// Moves the slots into the order `find_sorted_order` found. Handles name an id, not a
    /// slot (`slot_of_id`), and pairs are oriented by id, so the move changes no handle, no
    /// warm-start key and no impulse sign; the order of the contacts, and so of the
    /// Gauss-Seidel passes, follows the slots.
    ///
    /// The slots are permuted in place and the other buffers were sized with the slots
    /// (`add_body`), so the move allocates nothing.
    fn move_slots_into_sorted_order(&mut self) {
        // Slot `new` takes the body of slot `old`: the permutation applied one cycle at a
        // time, by swaps along the cycle. Each entry of `reorder_keys` is marked as it is
        // used (`new_slot_of` holds the permutation from here on).
        const MOVED: u32 = u32::MAX;
        let n = self.slots.len();
        for start in 0..n {
            let mut new = start;
            while self.reorder_keys[new].1 != MOVED {
                let old = std::mem::replace(&mut self.reorder_keys[new].1, MOVED) as usize;
                if old == start {
                    break;
                }
                self.slots.swap(new, old);
                new = old;
            }
        }
        for (index, slot) in self.slots.iter().enumerate() {
            self.slot_of_id[slot.id as usize] = index as u32;
        }
        self.broad_phase.renumber(&self.new_slot_of);
        let slot_of_id = &self.slot_of_id;
        let group_of = |key| slot_of_id[contact_cache::group_body(key)] as usize;
        self.warm_start_cache.regroup(n, group_of);
        self.stats.slots_sorted = true;
    }

    /// The first three phases of §4, body by body in one pass over the slots: each touches
    /// only its own body, so doing them together gives the same result as three passes and
    /// reads each body once instead of three times.
    fn start_bodies(&mut self, dt: f32) {
        let rate = self.config.drag_rate;
        let kick = self.gravity_enabled.then_some(self.config.gravity * dt);
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            apply_drag(body, rate);
            remember_state(body);
            if let Some(dv) = kick {
                integrate_velocity(body, dv);
            }
        }
    }

    /// One pass over the bodies for everything the contact phases read of them, so that each
    /// 120-byte body is loaded once: the proxies of the sweep, the [`Collider`]s of the narrow
    /// phase, the awake flags of the islands, and the contacts with the walls (§5, R-COL-6),
    /// which `collide_walls` appends after the body–body contacts.
    fn gather_bodies(&mut self) {
        // Each entry is written once into the spare capacity: a collider and an awake flag
        // per slot, a proxy per body (a push checks for room each time).
        let n = self.slots.len();
        let proxies = room_for(&mut self.proxies, n);
        let colliders = room_for(&mut self.colliders, n);
        let awake_flags = room_for(&mut self.awake_dynamic, n);
        let mut proxy_count = 0;
        self.wall_contacts.clear();
        self.wall_keys.clear();
        let walls = WallCollider {
            walls: &self.walls,
            min: self.bounds_min,
            max: self.bounds_max,
            wall_base: self.slots.len() as u32,
            friction: self.config.wall_friction,
            restitution: self.config.wall_restitution,
            rolling_resistance: self.config.rolling_resistance,
        };
        let per_slot = colliders.iter_mut().zip(awake_flags.iter_mut());
        for (index, (slot, (collider, awake_flag))) in self.slots.iter().zip(per_slot).enumerate() {
            let Some(body) = &slot.body else {
                collider.write(Collider::default());
                awake_flag.write(false);
                continue;
            };
            let (min, max) = body.aabb();
            let awake = is_awake_dynamic(body);
            let state = if awake { ProxyState::Awake } else { ProxyState::Passive };
            // At most one proxy per slot: `proxy_count` ≤ `index` < n.
            proxies[proxy_count].write(Proxy { index: index as u32, min, max, state });
            proxy_count += 1;
            let handle_bits = slot.handle_bits();
            collider.write(Collider {
                shape: body.shape,
                position: body.position,
                friction: body.material.friction,
                restitution: body.material.restitution,
                curvature: 1.0 / body.shape.rolling_radius(),
                handle_bits,
            });
            awake_flag.write(awake);
            if awake {
                let found = (&mut self.wall_contacts, &mut self.wall_keys);
                walls.collide(index as u32, handle_bits, body, (min, max), found);
            }
        }
        // SAFETY: the loop wrote a collider and an awake flag for each of the `n` slots, and
        // the first `proxy_count` proxies (`room_for` made room for `n` of each).
        unsafe {
            self.colliders.set_len(n);
            self.awake_dynamic.set_len(n);
            self.proxies.set_len(proxy_count);
        }
    }

    /// Sweep and prune over the proxies; pairs without an awake dynamic body are skipped.
    fn find_pairs(&mut self) {
        self.broad_phase.find_pairs(&self.proxies, &mut self.pairs);
        self.stats.pairs = self.pairs.len();
    }

    /// Exact tests of the candidate pairs (§5), with the warm-start impulses of last step.
    fn collide_bodies(&mut self) {
        let rolling_resistance = self.config.rolling_resistance;
        // At most one contact per pair, written once each into the spare capacity, at a
        // running count: a push checked for room and reloaded the vector's length,
        // capacity and pointer from `self` each time, twice per contact.
        let candidates = self.pairs.len();
        let contacts = room_for(&mut self.contacts, candidates);
        let keys = room_for(&mut self.contact_keys, candidates);
        let colliders = &self.colliders[..];
        let mut count = 0;
        // The broad phase pairs only slots that hold a body, so both colliders are real.
        for &(ia, ib) in &self.pairs {
            // A is the body of the lower handle index, whatever slots the two are stored in
            // now: a pair keeps its orientation, and so its warm-start key and the sign of
            // its impulses, when `reorder_slots` moves the bodies.
            let (ia, ib) = if colliders[ia as usize].handle_bits as u32
                <= colliders[ib as usize].handle_bits as u32
            {
                (ia, ib)
            } else {
                (ib, ia)
            };
            let (a, b) = (&colliders[ia as usize], &colliders[ib as usize]);
            let Some(m) = narrow_phase::collide(&a.shape, a.position, &b.shape, b.position) else {
                continue;
            };
            // Friction mixes by geometric mean (a smooth partner makes the contact smooth),
            // restitution by maximum (a rubber ball bounces off a wooden block) (§7, §8).
            let friction = narrow_phase::mixed_friction(a.friction, b.friction);
            let restitution = narrow_phase::mixed_restitution(a.restitution, b.restitution);
            // The rolling lever is the contact's radius of curvature 1/(1/r_A + 1/r_B):
            // r for a circle on a flat side, infinite (no rolling) for two flat sides (§9).
            let curvature = a.curvature + b.curvature;
            let lever = if curvature > 0.0 { 1.0 / curvature } else { 0.0 };
            let contact = SolverContact::new(
                ia,
                ib,
                m.normal,
                m.depth,
                m.point,
                m.point - a.position,
                m.point - b.position,
                friction,
                restitution,
                rolling_resistance * lever,
            );
            // One contact per pair at most: `count` < `candidates`, the room made.
            contacts[count].write(contact);
            keys[count].write((a.handle_bits, b.handle_bits));
            count += 1;
        }
        // SAFETY: the first `count` contacts and keys were written above (`room_for` made
        // room for `candidates` ≥ `count` of each; the indexing checks it too).
        unsafe {
            self.contacts.set_len(count);
            self.contact_keys.set_len(count);
        }
        self.body_contact_count = self.contacts.len();
        self.stats.body_contacts = self.contacts.len();
    }

    /// Wakes every sleeping island touched by an awake dynamic body (§11, R-SLP-4).
    /// Returns whether any island woke.
    fn wake_touched_sleepers(&mut self) -> bool {
        // Bodies only fall asleep as part of a registered island (`update_sleep`).
        if self.sleeping_islands.is_empty() {
            return false;
        }
        let mut woke = false;
        for i in 0..self.body_contact_count {
            let (a, b) = (self.contacts[i].a as usize, self.contacts[i].b as usize);
            for (sleeper, other) in [(a, b), (b, a)] {
                let (Some(s), Some(o)) = (&self.slots[sleeper].body, &self.slots[other].body)
                else {
                    continue;
                };
                if s.sleeping && is_awake_dynamic(o) {
                    self.wake_slot(sleeper);
                    woke = true;
                }
            }
        }
        woke
    }

    /// Contacts of awake dynamic bodies with the four half-plane walls (§5, R-COL-6), found
    /// by `gather_bodies` in slot order, after the body–body contacts.
    fn collide_walls(&mut self) {
        self.contacts.extend_from_slice(&self.wall_contacts);
        self.contact_keys.extend_from_slice(&self.wall_keys);
        self.stats.wall_contacts = self.contacts.len() - self.body_contact_count;
    }

    /// Sequential impulses (§6–§9): load the bodies, compute effective masses and bounce
    /// targets, warm start, iterate, store the impulses for next step. The solved velocities
    /// stay in `self.solver.bodies`; `integrate_positions` writes them back to the bodies.
    fn solve_velocities(&mut self, dt: f32) {
        self.load_solver_bodies();
        let threshold = self.config.warm_start_normal_threshold;
        let mut warm_started = 0;
        // Taken out of the cache: `store_impulses` puts every contact back, so only the
        // entries of pairs not in contact this step are left for its sweep.
        let mut cache = self.warm_start_cache.removals();
        let wall_base = self.slots.len() as u32;
        for (contact, key) in self.contacts.iter_mut().zip(&self.contact_keys) {
            // The group of A's slot, or B's for a wall contact (see `store_impulses`).
            let group = if contact.a >= wall_base { contact.b } else { contact.a };
            if let Some(cached) = cache.remove(group as usize, key) {
                // A normal that turned too far makes the old impulse meaningless (R-SI-2).
                if cached.normal.dot(contact.normal) >= threshold {
                    contact.normal_impulse = cached.normal_impulse;
                    contact.tangent_impulse = cached.tangent_impulse;
                    contact.rolling_impulse = cached.rolling_impulse;
                    warm_started += 1;
                }
            }
        }
        self.stats.warm_started = warm_started;
        self.carried.clear();
        self.carried.extend(
            self.contacts.iter().map(|c| (c.normal_impulse, c.tangent_impulse, c.rolling_impulse)),
        );
        // `contact_solver::warm_start`, then `solve_order.build`, in one pass.
        // The projection's contacts are gathered on the way (its inverse masses are those
        // of the solver bodies, which nothing changes before the projection).
        let projection = &mut self.projection;
        projection.clear();
        self.solve_order.warm_start_and_build(
            &self.contacts,
            &mut self.solver.bodies,
            |c, inverse_mass_a, inverse_mass_b| projection.add(c, inverse_mass_a, inverse_mass_b),
        );
        // Prepares, then solves four contacts of a colour at a time; equal to the reference
        // `contact_solver::prepare` and `velocity_iterations` passes of
        // `contact_solver::solve_in_order` over `solve_order.order()`.
        let bounces = self.solve_order.solve_passes(
            &mut self.contacts,
            &mut self.solver,
            self.config.restitution_threshold,
            self.config.velocity_iterations,
        );
        if bounces
            && self.energy_guard.find_bounce_gains(
                &self.contacts,
                &self.solver.bodies,
                &self.solver.start_velocity,
                self.half_kick(dt),
                &self.island_root,
            )
        {
            self.solve_again_without_bounce_targets(dt);
        }
        // The solved velocities are written back to the bodies by `integrate_positions`, in
        // its pass over the bodies: nothing reads them before.
        self.store_impulses();
    }

    /// The islands in which the bounce targets raised the kinetic energy above that of the
    /// step start (before gravity: gravity's kick in a bounce step is not returned, R-RES-5)
    /// are solved again: from their warm start, with every contact driven to 0
    /// (inelastic), then one bounce pass that adds each contact's own bounce, then the bounce
    /// guard (see `contact_solver`'s module docs). Bounce targets inside the passes keep a
    /// pile that something bounced on from being pressed together (without them the rain
    /// scene ended with 1,500 pairs overlapping by more than 1 px instead of none), but when
    /// a bouncing body pushes a follower, they drive the follower to the leader's rebound
    /// speed: energy from nothing. Only such islands pay for the second solve.
    fn solve_again_without_bounce_targets(&mut self, dt: f32) {
        let kick = self.half_kick(dt);
        let (guard, island) = (&self.energy_guard, &self.island_root);
        // Back to the velocities before the warm start: the slots still hold them, as the
        // solve writes them back only at its end.
        let slots = self.slots.iter().map(|s| s.body.as_ref());
        for (i, (solved, body)) in self.solver.bodies.iter_mut().zip(slots).enumerate() {
            if let Some(body) =
                body.filter(|_| solved.inverse_mass > 0.0 && guard.gained(island, i))
            {
                (solved.velocity, solved.angular_velocity) = (body.velocity, body.angular_velocity);
            }
        }
        self.resolve_order.clear();
        self.bounce_targets.clear();
        // List order: any fixed order converges and keeps the step deterministic. Room for
        // every contact, so a larger re-solve than before does not allocate mid-run.
        self.resolve_order.reserve(self.contacts.len());
        self.bounce_targets.reserve(self.contacts.len());
        for index in 0..self.contacts.len() as u32 {
            let c = &mut self.contacts[index as usize];
            let movable =
                if self.solver.bodies[c.a as usize].inverse_mass > 0.0 { c.a } else { c.b };
            if guard.gained(island, movable as usize) {
                (c.normal_impulse, c.tangent_impulse, c.rolling_impulse) =
                    self.carried[index as usize];
                c.restitution_impulse = 0.0;
                self.bounce_targets.push(c.bounce_velocity);
                c.bounce_velocity = 0.0;
                self.resolve_order.push(index);
            }
        }
        self.stats.solved_again = self.resolve_order.len();
        let bodies = &mut self.solver.bodies;
        contact_solver::warm_start_in_order(&self.contacts, bodies, &self.resolve_order);
        for _ in 0..self.config.velocity_iterations {
            contact_solver::solve_in_order(&mut self.contacts, bodies, &self.resolve_order);
        }
        for (&index, &target) in self.resolve_order.iter().zip(&self.bounce_targets) {
            self.contacts[index as usize].bounce_velocity = target;
        }
        self.before_bounce.clear();
        self.before_bounce.extend(bodies.iter().map(|b| (b.velocity, b.angular_velocity)));
        if contact_solver::restitute_in_order(&mut self.contacts, bodies, &self.resolve_order) {
            self.energy_guard.limit_bounces(
                &mut self.contacts,
                bodies,
                &self.before_bounce,
                kick,
                &self.island_root,
            );
        }
    }

    /// Half of gravity's kick in one step, `½·g·dt` (zero with gravity off): the shift from
    /// start and end velocities to the mid-step ones the energy guard measures.
    fn half_kick(&self, dt: f32) -> Vec2 {
        if self.gravity_enabled { 0.5 * dt * self.config.gravity } else { Vec2::ZERO }
    }

    /// Fills the solver arrays: bodies by slot, then the walls; only awake dynamic bodies
    /// can be moved by an impulse (everything else has inverse mass 0, R-BODY-2).
    ///
    /// Each entry is written once into the arrays' spare capacity: a push checks for room
    /// each time, and filling with defaults first writes the arrays twice.
    fn load_solver_bodies(&mut self) {
        let n = self.slots.len() + WALL_COUNT;
        let solver = &mut self.solver;
        let (bodies, starts, helds) = (
            room_for(&mut solver.bodies, n),
            room_for(&mut solver.start_velocity, n),
            room_for(&mut solver.held, n),
        );
        let mut entries = bodies.iter_mut().zip(starts.iter_mut()).zip(helds.iter_mut());
        let mut written = 0;
        // `&mut entries`: the zip stops at the last slot, leaving the walls' entries.
        for (slot, ((solved, start), held)) in self.slots.iter().zip(&mut entries) {
            written += 1;
            if let Some(b) = slot.body.as_ref().filter(|b| is_awake_dynamic(b)) {
                solved.write(SolverBody {
                    velocity: b.velocity,
                    angular_velocity: b.angular_velocity,
                    inverse_mass: b.inverse_mass,
                    inverse_inertia: b.inverse_inertia,
                });
                start.write((b.previous_velocity, b.previous_angular_velocity));
                held.write(b.held);
            } else {
                solved.write(SolverBody::default());
                start.write((Vec2::ZERO, 0.0));
                held.write(false);
            }
        }
        for ((solved, start), held) in entries {
            written += 1;
            solved.write(SolverBody::default());
            start.write((Vec2::ZERO, 0.0));
            held.write(false);
        }
        assert_eq!(written, n, "solver bodies written");
        // SAFETY: by the assert, each array's first `n` entries were written above, one per
        // slot and one per wall (`room_for` made room for `n`).
        unsafe {
            solver.bodies.set_len(n);
            solver.start_velocity.set_len(n);
            solver.held.set_len(n);
        }
    }

    /// Keeps this step's impulses for warm starting, and those of sleeping contacts, which
    /// were not solved but will be needed when their island wakes. `solve_velocities` took
    /// this step's contacts out of the cache, so the sweep only sees the others: without
    /// sleeping bodies, just the pairs that separated.
    fn store_impulses(&mut self) {
        let (slots, slot_of_id) = (&self.slots, &self.slot_of_id);
        let passive = |bits: u64| {
            let (generation, id) = ((bits >> 32) as u32, bits as u32 as usize);
            generation == WALL_GENERATION
                || slot_of_id.get(id).and_then(|&slot| slots.get(slot as usize)).is_some_and(|s| {
                    s.generation == generation
                        && s.body.as_ref().is_some_and(|b| !is_awake_dynamic(b))
                })
        };
        let fresh = self.contacts.iter().zip(&self.contact_keys).map(|(c, &key)| {
            let impulse = CachedImpulse {
                normal: c.normal,
                normal_impulse: c.normal_impulse,
                tangent_impulse: c.tangent_impulse,
                rolling_impulse: c.rolling_impulse,
            };
            (key, impulse)
        });
        // Grouped by the slot of the key's body (`group_body`), so that the lookups of the next
        // step, in contact order, read the cache in slot order too.
        let group_of = |key| slot_of_id[contact_cache::group_body(key)] as usize;
        let keep = |(a, b)| passive(a) && passive(b);
        self.warm_start_cache.rebuild(slots.len(), group_of, keep, fresh);
    }

    /// Writes the solved velocities back (the end of `solve_velocities`), clamps the speeds
    /// (§12), then semi-implicit Euler's second half with the NEW velocity (§3), body by
    /// body in one pass over the slots (each touches only its own body). On
    /// the way it copies what the projection starts from, each slot's position now and at
    /// the step start (zero for empty slots and the walls), saving it a pass of its own.
    fn integrate_positions(&mut self, dt: f32) {
        let max_speed = self.config.max_speed;
        let max_spin = self.config.max_angular_speed();
        // Written once each into the spare capacity: cheaper than a push per slot, and
        // than filling with zeros first.
        let n = self.slots.len() + WALL_COUNT;
        let positions = room_for(&mut self.positions, n);
        let starts = room_for(&mut self.start_positions, n);
        let copies = positions.iter_mut().zip(starts.iter_mut());
        // Sliced to `n`: the zip is then exactly `n` long whatever the solver arrays hold.
        let mut per_slot = self.solver.bodies[..n].iter().zip(copies);
        // `&mut per_slot`: the zip stops at the last slot, leaving the walls' entries.
        for (slot, (solved, (position, start))) in self.slots.iter_mut().zip(&mut per_slot) {
            let Some(body) = slot.body.as_mut() else {
                position.write(Vec2::ZERO);
                start.write(Vec2::ZERO);
                continue;
            };
            if is_awake_dynamic(body) {
                // The end of the velocity solve: its velocities back to the body.
                body.velocity = solved.velocity;
                body.angular_velocity = solved.angular_velocity;
                clamp_speed(body, max_speed, max_spin);
                integrate_position(body, dt);
            }
            position.write(body.position);
            start.write(body.previous_position);
        }
        for (_, (position, start)) in per_slot {
            position.write(Vec2::ZERO);
            start.write(Vec2::ZERO);
        }
        // SAFETY: the first `n` entries of both were written above, one per slot and one
        // per wall (`room_for` made room for `n`).
        unsafe {
            self.positions.set_len(n);
            self.start_positions.set_len(n);
        }
    }

    /// Position projection over all contacts (§10, R-POS-1, R-POS-2).
    fn correct_positions(&mut self) {
        // `positions` and `start_positions` were filled by `integrate_positions`, the
        // projection's contacts by `solve_velocities`.
        self.projection.run_added(
            &mut self.positions,
            &self.start_positions,
            &position_solver::ProjectionSettings {
                iterations: self.config.position_iterations,
                factor: self.config.position_correction_factor,
                slop: self.config.penetration_slop,
                max_correction: self.config.max_position_correction,
            },
        );
        // The brake reads only its own body's projected position: it runs as each body is
        // written back, saving a pass over the bodies.
        let brake = WallBrake {
            walls: &self.walls,
            min: self.bounds_min,
            max: self.bounds_max,
            limit: self.config.max_wall_penetration,
        };
        let mut braked = 0;
        for (slot, &position) in self.slots.iter_mut().zip(&self.positions) {
            if let Some(body) = slot.body.as_mut().filter(|b| is_awake_dynamic(b)) {
                body.position = position;
                braked += usize::from(brake.apply(body));
            }
        }
        self.stats.braked = braked;
    }

    /// The islands of this step: union-find over the contacts between awake dynamic bodies.
    /// Walls and static bodies join no island, or everything on the floor would be one.
    /// The solver limits warm starts per island, and the sleep test uses them (§11).
    ///
    /// Which slots hold an awake dynamic body comes from `gather_bodies` as a flag per slot:
    /// the contacts test two flags instead of two body slots at scattered places.
    fn find_islands(&mut self) {
        let n = self.slots.len();
        self.union_find.reset(n);
        // A local slice: its pointer and length stay in registers across the unions' writes
        // (through `self` they were reloaded for every contact).
        let awake_dynamic = &self.awake_dynamic[..];
        for c in &self.contacts[..self.body_contact_count] {
            if awake_dynamic[c.a as usize] && awake_dynamic[c.b as usize] {
                self.union_find.union(c.a, c.b);
            }
        }
        // Written once per slot (no fill with u32::MAX first, no bounds checks).
        let union_find = &mut self.union_find;
        self.island_root.clear();
        self.island_root.extend(
            self.awake_dynamic.iter().enumerate().map(|(index, &awake)| {
                if awake { union_find.find(index as u32) } else { u32::MAX }
            }),
        );
    }

    /// Rest timers and sleep of this step's islands (§11).
    ///
    /// An island falls asleep when all its bodies have rested for `time_to_sleep`; its
    /// members are frozen and remember the island, so that it wakes as a whole (R-SLP-1..3).
    fn update_sleep(&mut self, dt: f32) {
        let (linear, angular) = (self.config.sleep_linear_speed, self.config.sleep_angular_speed);
        let n = self.slots.len();
        self.island_rest.clear();
        self.island_rest.resize(n, f32::INFINITY);
        // As a local, its pointer and length stay in registers across the writes to bodies.
        let island_rest = &mut self.island_rest[..];
        // Each awake body's rest timer, and its island's least rest time, in one pass that
        // also counts the awake and the sleeping bodies for the stats.
        let (mut awake, mut sleeping) = (0, 0);
        for (slot, &root) in self.slots.iter_mut().zip(&self.island_root) {
            let Some(body) = slot.body.as_mut() else { continue };
            if !is_awake_dynamic(body) {
                sleeping += usize::from(body.sleeping);
                continue;
            }
            awake += 1;
            let resting =
                body.velocity.length() <= linear && body.angular_velocity.abs() <= angular;
            body.rest_time = if resting && !body.held { body.rest_time + dt } else { 0.0 };
            // A compare instead of f32::min, whose NaN rules cost several instructions: a
            // rest time is 0 or a sum of positive steps, never NaN (nor −0).
            let rest = &mut island_rest[root as usize];
            *rest = if body.rest_time < *rest { body.rest_time } else { *rest };
        }
        let awake_islands = (0..n).filter(|&i| self.island_root[i] == i as u32).count();
        self.stats.awake_islands = awake_islands;
        self.stats.bodies = self.body_count;
        (self.stats.awake, self.stats.sleeping) = (awake, sleeping);
        if !self.config.sleeping_enabled {
            self.stats.sleeping_islands = self.sleeping_islands.len();
            return;
        }

        self.island_id.clear();
        self.island_id.resize(n, u32::MAX);
        let time_to_sleep = self.config.time_to_sleep;
        for index in 0..n {
            let root = self.island_root[index];
            if root == u32::MAX || self.island_rest[root as usize] < time_to_sleep {
                continue;
            }
            let id = if self.island_id[root as usize] == u32::MAX {
                let id = self.next_island_id;
                // Wraps past `NO_ISLAND`, which marks a body in no island.
                self.next_island_id = match self.next_island_id.wrapping_add(1) {
                    NO_ISLAND => 0,
                    next => next,
                };
                self.island_id[root as usize] = id;
                id
            } else {
                self.island_id[root as usize]
            };
            if let Some(body) = self.slots[index].body.as_mut() {
                body.sleeping = true;
                body.sleep_island = id;
                body.velocity = Vec2::ZERO;
                body.angular_velocity = 0.0;
                *self.sleeping_islands.entry(id).or_insert(0) += 1;
                self.stats.awake -= 1;
                self.stats.sleeping += 1;
            }
        }
        self.stats.sleeping_islands = self.sleeping_islands.len();
    }

    // ----------------------------------------------------------------------------------
    // Bodies
    // ----------------------------------------------------------------------------------

    /// Adds a body. The description is checked first: sizes from `MIN_BODY_SIZE` up, a
    /// positive finite density, friction in [0, 2], restitution in [0, 1], finite values,
    /// and a centre inside the world. A speed above `max_speed` is clamped.
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyHandle, PhysicsError> {
        let mut problems = Vec::new();
        desc.check(&mut problems);
        if problems.is_empty() && !self.contains_point(desc.position) {
            problems.push(FieldError {
                field: "position",
                value: format!("{}", desc.position),
                allowed: format!("inside the world {} ..= {}", self.bounds_min, self.bounds_max),
            });
        }
        if !problems.is_empty() {
            return Err(PhysicsError::Invalid(ConfigError { problems }));
        }
        let body = Body::from_desc(&desc, self.config.max_speed, self.config.max_angular_speed());
        let is_static = body.kind == BodyKind::Static;
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
                self.reorder_keys.reserve(room.saturating_sub(self.reorder_keys.len()));
                self.new_slot_of.reserve(room.saturating_sub(self.new_slot_of.len()));
                id as usize
            }
        };
        self.body_count += 1;
        if is_static {
            // A static body appearing under sleepers must be felt by them.
            self.wake_near(index);
        }
        Ok(self.slots[index].handle())
    }

    /// Removes a body and wakes its island, so that bodies it supported fall (R-SLP-4).
    pub fn remove_body(&mut self, handle: BodyHandle) -> Result<Body, PhysicsError> {
        let index = self.slot_of(handle)?;
        self.wake_slot(index);
        self.wake_near(index);
        let slot = &mut self.slots[index];
        let body = slot.body.take().ok_or(PhysicsError::StaleHandle(handle))?;
        slot.generation = slot.generation.wrapping_add(1) % WALL_GENERATION;
        self.free_ids.push(slot.id);
        self.body_count -= 1;
        Ok(body)
    }

    /// Removes every body.
    pub fn clear(&mut self) {
        let handles: Vec<_> = self.handles().collect();
        for handle in handles {
            let _ = self.remove_body(handle);
        }
        self.warm_start_cache.clear();
        self.sleeping_islands.clear();
    }

    /// The body of `handle`, if it exists.
    pub fn body(&self, handle: BodyHandle) -> Option<&Body> {
        self.slot_of(handle).ok().and_then(|index| self.slots[index].body.as_ref())
    }

    /// Whether `handle` refers to a body in the world.
    pub fn contains(&self, handle: BodyHandle) -> bool {
        self.body(handle).is_some()
    }

    /// Every body with its handle, in the order of the handles' indices.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body)> + '_ {
        self.slot_of_id.iter().filter_map(|&index| {
            let slot = &self.slots[index as usize];
            slot.body.as_ref().map(|b| (slot.handle(), b))
        })
    }

    /// Every handle, in the order of their indices.
    pub fn handles(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.bodies().map(|(h, _)| h)
    }

    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.body_count
    }

    /// The topmost (last added) body containing `point`, if any.
    pub fn body_at(&self, point: Vec2) -> Option<BodyHandle> {
        self.bodies().filter(|(_, b)| b.contains(point)).map(|(h, _)| h).last()
    }

    /// Teleports a body (no interpolation smear) and wakes its island.
    pub fn set_position(&mut self, handle: BodyHandle, position: Vec2) -> Result<(), PhysicsError> {
        let index = self.slot_of(handle)?;
        if !position.is_finite() {
            return Err(invalid("position", position, "finite numbers"));
        }
        if !self.contains_point(position) {
            return Err(invalid(
                "position",
                position,
                format!("inside the world {} ..= {}", self.bounds_min, self.bounds_max),
            ));
        }
        self.wake_slot(index);
        self.wake_near(index);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.position = position;
            body.previous_position = position;
            body.drag_target = position;
        }
        self.wake_near(index);
        Ok(())
    }

    /// Turns a circle to `angle` (rad, clockwise on screen) without smearing the
    /// interpolation, and wakes its island. Rectangles never turn: for them this is a no-op.
    pub fn set_angle(&mut self, handle: BodyHandle, angle: f32) -> Result<(), PhysicsError> {
        let index = self.slot_of(handle)?;
        if !angle.is_finite() {
            return Err(invalid("angle", angle, "a finite number"));
        }
        let turns = self.slots[index]
            .body
            .as_ref()
            .is_some_and(|b| matches!(b.shape, Shape::Circle { .. }));
        if turns {
            self.wake_slot(index);
            if let Some(body) = self.slots[index].body.as_mut() {
                body.angle = angle;
                body.previous_angle = angle;
            }
        }
        Ok(())
    }

    /// Sets a dynamic body's velocity (clamped to `max_speed`) and wakes its island.
    pub fn set_velocity(&mut self, handle: BodyHandle, velocity: Vec2) -> Result<(), PhysicsError> {
        let index = self.dynamic_slot_of(handle)?;
        if !velocity.is_finite() {
            return Err(invalid("velocity", velocity, "finite numbers"));
        }
        self.wake_slot(index);
        let max_speed = self.config.max_speed;
        if let Some(body) = self.slots[index].body.as_mut() {
            body.velocity = velocity.clamp_length_max(max_speed);
        }
        Ok(())
    }

    /// Sets a dynamic circle's angular velocity (clamped) and wakes its island.
    pub fn set_angular_velocity(
        &mut self,
        handle: BodyHandle,
        omega: f32,
    ) -> Result<(), PhysicsError> {
        let index = self.dynamic_slot_of(handle)?;
        if !omega.is_finite() {
            return Err(invalid("angular_velocity", omega, "a finite number"));
        }
        self.wake_slot(index);
        let max_spin = self.config.max_angular_speed();
        if let Some(body) = self.slots[index].body.as_mut().filter(|b| b.inverse_inertia > 0.0) {
            body.angular_velocity = omega.clamp(-max_spin, max_spin);
        }
        Ok(())
    }

    /// Sets a body's material (mass follows the density) and wakes its island.
    pub fn set_material(
        &mut self,
        handle: BodyHandle,
        material: super::Material,
    ) -> Result<(), PhysicsError> {
        let index = self.slot_of(handle)?;
        let body = self.slots[index].body.as_ref().ok_or(PhysicsError::StaleHandle(handle))?;
        let desc = BodyDesc { material, ..self.desc_of(body) };
        let mut problems = Vec::new();
        desc.check(&mut problems);
        if !problems.is_empty() {
            return Err(PhysicsError::Invalid(ConfigError { problems }));
        }
        self.wake_slot(index);
        let fresh = Body::from_desc(&desc, self.config.max_speed, self.config.max_angular_speed());
        if let Some(body) = self.slots[index].body.as_mut() {
            body.material = material;
            body.inverse_mass = fresh.inverse_mass;
            body.inverse_inertia = fresh.inverse_inertia;
        }
        Ok(())
    }

    /// The description that would re-create this body as it is now.
    pub fn desc_of(&self, body: &Body) -> BodyDesc {
        BodyDesc {
            shape: body.shape,
            kind: body.kind,
            material: body.material,
            position: body.position,
            velocity: body.velocity,
            angle: body.angle,
            angular_velocity: body.angular_velocity,
        }
    }

    /// Drops every impulse kept for warm starting, so the next step solves from zero.
    pub fn forget_contact_impulses(&mut self) {
        self.warm_start_cache.clear();
    }

    /// Wakes a body's island (no-op when awake).
    pub fn wake(&mut self, handle: BodyHandle) -> Result<(), PhysicsError> {
        let index = self.slot_of(handle)?;
        self.wake_slot(index);
        Ok(())
    }

    /// Wakes every body.
    pub fn wake_all(&mut self) {
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            if body.sleeping {
                wake_body(body);
            }
        }
        self.sleeping_islands.clear();
        self.stats.sleeping_islands = 0;
    }

    // ----------------------------------------------------------------------------------
    // Drag and throw (§13)
    // ----------------------------------------------------------------------------------

    /// Grabs a dynamic body: it is held, feels no gravity, never bounces and never sleeps;
    /// its island wakes (R-DRAG-2). Its drag target starts at its position.
    pub fn grab(&mut self, handle: BodyHandle) -> Result<(), PhysicsError> {
        let index = self.dynamic_slot_of(handle)?;
        self.wake_slot(index);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.held = true;
            body.drag_target = body.position;
            body.rest_time = 0.0;
        }
        Ok(())
    }

    /// Moves a held body's target. The target is clamped so the whole body fits in the
    /// world (R-DRAG-1).
    pub fn set_drag_target(
        &mut self,
        handle: BodyHandle,
        target: Vec2,
    ) -> Result<(), PhysicsError> {
        let index = self.held_slot_of(handle)?;
        if !target.is_finite() {
            return Err(invalid("drag target", target, "finite numbers"));
        }
        let clamped = self.clamp_inside(index, target);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.drag_target = clamped;
        }
        Ok(())
    }

    /// Paused drag: moves a held body straight to the (clamped) target, with no velocity and
    /// no throw (R-DRAG-4). Its island is awake, so whatever it supported falls on resume.
    pub fn move_held_directly(
        &mut self,
        handle: BodyHandle,
        target: Vec2,
    ) -> Result<(), PhysicsError> {
        self.set_drag_target(handle, target)?;
        let index = self.held_slot_of(handle)?;
        self.wake_near(index);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.position = body.drag_target;
            body.previous_position = body.position;
            body.velocity = Vec2::ZERO;
            body.angular_velocity = 0.0;
        }
        self.wake_near(index);
        Ok(())
    }

    /// Lets go of a held body with `throw_velocity` (clamped to `max_speed`, R-TUN-1).
    pub fn release(
        &mut self,
        handle: BodyHandle,
        throw_velocity: Vec2,
    ) -> Result<(), PhysicsError> {
        let index = self.held_slot_of(handle)?;
        if !throw_velocity.is_finite() {
            return Err(invalid("throw velocity", throw_velocity, "finite numbers"));
        }
        let max_speed = self.config.max_speed;
        if let Some(body) = self.slots[index].body.as_mut() {
            body.held = false;
            body.velocity = throw_velocity.clamp_length_max(max_speed);
        }
        Ok(())
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
        config.validate()?;
        if config != self.config {
            // Kept impulses carry the old weight per step (m·g·dt): re-applied under another
            // gravity or step they push resting bodies apart (issue 7 regression).
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
    /// be at least `2·MIN_BODY_SIZE` long; bodies left outside are pushed back in by the
    /// walls and the emergency brake over the next steps.
    pub fn set_bounds(&mut self, min: Vec2, max: Vec2) -> Result<(), PhysicsError> {
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
        self.bounds_min = min;
        self.bounds_max = max;
        self.walls = [
            Wall { normal: Vec2::X, offset: min.x },
            Wall { normal: -Vec2::X, offset: -max.x },
            Wall { normal: Vec2::Y, offset: min.y },
            Wall { normal: -Vec2::Y, offset: -max.y },
        ];
        self.wake_all();
        Ok(())
    }

    /// Counts and timings of the last step.
    pub fn stats(&self) -> &StepStats {
        &self.stats
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.steps
    }

    /// The contacts of the last step (body–body first, then walls).
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo> + '_ {
        let wall_base = self.slots.len() as u32;
        self.contacts.iter().filter_map(move |c| {
            let handle = |i: u32| {
                let slot = self.slots.get(i as usize)?;
                slot.body.as_ref()?;
                Some(slot.handle())
            };
            let a = if c.a >= wall_base { None } else { Some(handle(c.a)?) };
            Some(ContactInfo {
                a,
                b: handle(c.b)?,
                normal: c.normal,
                depth: c.depth,
                point: c.point,
                normal_impulse: c.total_normal_impulse(),
                tangent_impulse: c.tangent_impulse,
                rolling_impulse: c.rolling_impulse,
            })
        })
    }

    /// The islands after the last step: awake ones (from its contacts) and sleeping ones,
    /// each with its members in the order of their handles.
    pub fn islands(&self) -> Vec<Island> {
        let mut awake: HashMap<u32, Vec<BodyHandle>> = HashMap::new();
        for (index, &root) in self.island_root.iter().enumerate() {
            if root == u32::MAX {
                continue;
            }
            let Some(slot) = self.slots.get(index) else { continue };
            if slot.body.as_ref().is_some_and(|b| !b.sleeping) {
                awake.entry(root).or_default().push(slot.handle());
            }
        }
        // Members in the order of their handles, whatever slots they are stored in.
        let mut islands: Vec<Island> = awake
            .into_values()
            .map(|mut bodies| {
                bodies.sort_unstable();
                Island { bodies, sleeping: false }
            })
            .collect();
        let mut asleep: HashMap<u32, Vec<BodyHandle>> = HashMap::new();
        for (handle, body) in self.bodies() {
            if let Some(id) = body.sleep_island().filter(|_| body.sleeping) {
                asleep.entry(id).or_default().push(handle);
            }
        }
        islands.extend(asleep.into_values().map(|bodies| Island { bodies, sleeping: true }));
        islands.sort_by_key(|island| island.bodies.first().copied());
        islands
    }

    /// Kinetic energy of all bodies, ½mv² + ½Iω².
    pub fn kinetic_energy(&self) -> f64 {
        self.bodies().map(|(_, b)| f64::from(b.kinetic_energy())).sum()
    }

    /// Potential energy in the gravity field, −m·g·x (0 with gravity off).
    pub fn potential_energy(&self) -> f64 {
        if !self.gravity_enabled {
            return 0.0;
        }
        let g = self.config.gravity.as_dvec2();
        self.bodies()
            .filter(|(_, b)| b.inverse_mass > 0.0)
            .map(|(_, b)| -f64::from(b.mass()) * g.dot(b.position.as_dvec2()))
            .sum()
    }

    /// A hash of every body's handle, position, velocity and angle (bit-exact), for
    /// determinism checks.
    pub fn state_hash(&self) -> u64 {
        // FNV-1a over the raw bits.
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut feed = |bits: u64| {
            for byte in bits.to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (handle, body) in self.bodies() {
            feed(handle.to_bits());
            for x in [
                body.position.x,
                body.position.y,
                body.velocity.x,
                body.velocity.y,
                body.angle,
                body.angular_velocity,
            ] {
                feed(u64::from(x.to_bits()));
            }
            feed(u64::from(body.sleeping));
        }
        hash
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

    fn held_slot_of(&self, handle: BodyHandle) -> Result<usize, PhysicsError> {
        let index = self.dynamic_slot_of(handle)?;
        match &self.slots[index].body {
            Some(b) if b.held => Ok(index),
            _ => Err(invalid("handle", handle, "a body that is held (call grab first)")),
        }
    }

    /// Whether `p` lies inside the world rectangle (where a body's centre may be placed).
    pub fn contains_point(&self, p: Vec2) -> bool {
        p.cmpge(self.bounds_min).all() && p.cmple(self.bounds_max).all()
    }

    /// `target` moved so the body of slot `index` fits in the world (centred if it cannot).
    fn clamp_inside(&self, index: usize, target: Vec2) -> Vec2 {
        let half = self.slots[index].body.as_ref().map_or(Vec2::ZERO, |b| b.shape.half_size());
        let low = self.bounds_min + half;
        let high = self.bounds_max - half;
        let centre = 0.5 * (self.bounds_min + self.bounds_max);
        Vec2::new(
            if low.x <= high.x { target.x.clamp(low.x, high.x) } else { centre.x },
            if low.y <= high.y { target.y.clamp(low.y, high.y) } else { centre.y },
        )
    }

    fn wake_slot(&mut self, index: usize) {
        let island = self.slots[index].body.as_ref().and_then(Body::sleep_island);
        if let Some(id) = island {
            self.wake_island(id);
        }
    }

    /// Wakes a whole sleeping island (R-SLP-4): every body that carries its id. One pass
    /// over the bodies; waking is an event (a touch, a grab, a deletion), not per-step work.
    fn wake_island(&mut self, id: u32) {
        if self.sleeping_islands.remove(&id).is_none() {
            return;
        }
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            if body.sleep_island == id {
                wake_body(body);
            }
        }
        self.stats.sleeping_islands = self.sleeping_islands.len();
    }

    /// Wakes sleepers whose boxes touch slot `index`'s box (a static or teleported body
    /// changes their support without a contact telling them).
    fn wake_near(&mut self, index: usize) {
        let Some(body) = &self.slots[index].body else { return };
        let (min, max) = body.aabb();
        let margin = Vec2::splat(1.0);
        let touched: Vec<u32> = self
            .slots
            .iter()
            .filter_map(|s| s.body.as_ref())
            .filter(|b| b.sleeping)
            .filter(|b| {
                let (bmin, bmax) = b.aabb();
                bmin.cmple(max + margin).all() && (min - margin).cmple(bmax).all()
            })
            .filter_map(Body::sleep_island)
            .collect();
        for id in touched {
            self.wake_island(id);
        }
    }
}

/// Wakes one member of a sleeping island; its rest timer starts again.
fn wake_body(body: &mut Body) {
    body.sleeping = false;
    body.sleep_island = NO_ISLAND;
    body.rest_time = 0.0;
}

/// Empties `v` and returns room for `n` entries in its spare capacity (allocating only if
/// it has less), to be written before `set_len(n)`.
fn room_for<T>(v: &mut Vec<T>, n: usize) -> &mut [std::mem::MaybeUninit<T>] {
    v.clear();
    v.reserve(n);
    &mut v.spare_capacity_mut()[..n]
}

/// Whether the box `(low, high)` lies strictly inside the bounds `(min, max)`:
/// `low > min` and `high < max` on both axes, tested as `(low, max) > (min, high)` in one
/// compare of four lanes (the same four IEEE compares; two Vec2 compares took four
/// compares and branches).
#[inline]
fn strictly_inside((low, high): (Vec2, Vec2), (min, max): (Vec2, Vec2)) -> bool {
    let greater = Vec4::new(low.x, low.y, max.x, max.y);
    let smaller = Vec4::new(min.x, min.y, high.x, high.y);
    greater.cmpgt(smaller).all()
}

/// Moves under the solver this step: dynamic and not asleep.
fn is_awake_dynamic(body: &Body) -> bool {
    body.kind == BodyKind::Dynamic && !body.sleeping
}

/// A held body heads for its target: `v = (target − position)·rate` (§13, R-DRAG-1).
fn apply_drag(body: &mut Body, rate: f32) {
    if body.held {
        body.velocity = (body.drag_target - body.position) * rate;
    }
}

/// Keeps the pose for interpolation and the velocity for restitution (§3, §7).
fn remember_state(body: &mut Body) {
    body.previous_position = body.position;
    body.previous_angle = body.angle;
    body.previous_velocity = body.velocity;
    body.previous_angular_velocity = body.angular_velocity;
}

/// Semi-implicit Euler, first half: `v ← v + g·dt` (§3, R-INT-1), with `dv = g·dt` (only
/// called with gravity on). Held bodies are carried by the hand and feel no gravity
/// (R-DRAG-2); sleepers are frozen (R-SLP-3).
fn integrate_velocity(body: &mut Body, dv: Vec2) {
    if is_awake_dynamic(body) && !body.held {
        body.velocity += dv;
    }
}

/// Clamps |v| to `max_speed` and |ω| to `max_spin = max_speed / MIN_BODY_SIZE` (§12,
/// R-TUN-1).
///
/// The spin is clamped by `f32::clamp`'s two compares, written out: `f32::clamp` also
/// checks `min ≤ max` for every body (a compare and branch the loop could not hoist), and
/// `max_spin` is positive.
fn clamp_speed(body: &mut Body, max_speed: f32, max_spin: f32) {
    body.velocity = body.velocity.clamp_length_max(max_speed);
    let spin = body.angular_velocity;
    let spin = if spin < -max_spin { -max_spin } else { spin };
    body.angular_velocity = if spin > max_spin { max_spin } else { spin };
}

/// Semi-implicit Euler, second half: `x ← x + v·dt`, `θ ← θ + ω·dt` with the NEW velocity
/// (§3, R-INT-1).
fn integrate_position(body: &mut Body, dt: f32) {
    body.position += body.velocity * dt;
    body.angle += body.angular_velocity * dt;
}

/// The emergency brake: no body ends a step more than `limit` (`max_wall_penetration`)
/// inside a wall (§10, R-POS-3).
///
/// The margin (12 px) exceeds the deepest a free body can get in one step
/// (`max_speed·dt ≈ 10.8 px`), so ordinary impacts are always left to the solver; the
/// brake only acts in extreme cases, such as a dragged body squeezing another into a
/// wall. A body wider than the world is centred on that axis instead.
struct WallBrake<'a> {
    walls: &'a [Wall; WALL_COUNT],
    min: Vec2,
    max: Vec2,
    limit: f32,
}

impl WallBrake<'_> {
    /// Brakes one awake dynamic body; returns whether it had to be moved.
    fn apply(&self, body: &mut Body) -> bool {
        let (min, max, limit) = (self.min, self.max, self.limit);
        // Strictly inside the bounds: it fits on both axes and is in no wall at all.
        let (low, high) = body.aabb();
        if strictly_inside((low, high), (min, max)) {
            return false;
        }
        let before = body.position;
        let half = body.shape.half_size();
        for axis in 0..2 {
            if 2.0 * half[axis] > max[axis] - min[axis] {
                body.position[axis] = 0.5 * (min[axis] + max[axis]);
                body.velocity[axis] = 0.0;
            }
        }
        for wall in self.walls {
            // A body centred above cannot fit on this axis: pushing it out of one wall
            // would push it out of the world through the other (issue 7 regression).
            let axis = if wall.normal.x != 0.0 { 0 } else { 1 };
            if 2.0 * half[axis] > max[axis] - min[axis] {
                continue;
            }
            let depth = wall.penetration(&body.shape, body.position);
            if depth > limit {
                body.position += wall.normal * (depth - limit);
                let into_wall = body.velocity.dot(wall.normal);
                if into_wall < 0.0 {
                    body.velocity -= wall.normal * into_wall;
                }
            }
        }
        body.position != before
    }
}

/// What the wall test needs of the world: the four half-planes and the bounds.
struct WallCollider<'a> {
    walls: &'a [Wall; WALL_COUNT],
    min: Vec2,
    max: Vec2,
    /// Solver index of the first wall (the slot count).
    wall_base: u32,
    friction: f32,
    restitution: f32,
    rolling_resistance: f32,
}

impl WallCollider<'_> {
    /// Appends the contacts of the awake dynamic body in slot `index` with the walls, and
    /// their warm-start keys (§5, R-COL-6). `(min, max)` is the body's `aabb()`, which the
    /// caller has at hand.
    fn collide(
        &self,
        index: u32,
        handle_bits: u64,
        body: &Body,
        (min, max): (Vec2, Vec2),
        (contacts, keys): (&mut Vec<SolverContact>, &mut Vec<PairKey>),
    ) {
        // Most bodies touch no wall: a box strictly inside the bounds touches none of the
        // four. Exact, not an estimate: `min.x > bounds.x` is the left wall's
        // `n·p − reach − offset > 0` with n = (1, 0), reach = hw; likewise for the others.
        if strictly_inside((min, max), (self.min, self.max)) {
            return;
        }
        for (w, wall) in self.walls.iter().enumerate() {
            let Some(m) = wall.collide(&body.shape, body.position) else { continue };
            let contact = SolverContact::new(
                self.wall_base + w as u32,
                index,
                m.normal,
                m.depth,
                m.point,
                Vec2::ZERO,
                m.point - body.position,
                (self.friction * body.material.friction).sqrt(),
                narrow_phase::mixed_restitution(self.restitution, body.material.restitution),
                self.rolling_resistance * body.shape.rolling_radius().min(f32::MAX),
            );
            let wall_key = (u64::from(WALL_GENERATION) << 32) | w as u64;
            contacts.push(contact);
            keys.push((wall_key, handle_bits));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::scenes::{self, SceneRng};

    /// A pile of 300 circles and boxes, added in random order, after `steps` steps, sleeping
    /// off unless `sleeping`.
    fn shuffled_pile(steps: usize, sleeping: bool) -> World {
        let mut rng = SceneRng::new(7);
        let config = PhysicsConfig { sleeping_enabled: sleeping, ..PhysicsConfig::default() };
        let mut world = World::new(Vec2::new(900.0, 700.0), config).expect("a valid world");
        let mut cells: Vec<(usize, usize)> = (0..300).map(|i| (i % 20, i / 20)).collect();
        rng.shuffle(&mut cells);
        for (column, row) in cells {
            // Sideways jitter, so that the columns collapse into one pile.
            let x = 60.0 + 40.0 * column as f32 + rng.range(-10.0, 10.0);
            let position = Vec2::new(x, 660.0 - 40.0 * row as f32);
            let desc = if rng.unit() < 0.5 {
                BodyDesc::circle(rng.range(12.0, 18.0), position)
            } else {
                BodyDesc::rect(Vec2::new(rng.range(24.0, 36.0), rng.range(24.0, 36.0)), position)
            };
            world.add_body(desc).expect("a body inside the world");
        }
        for _ in 0..steps {
            world.step(1.0 / 120.0).expect("a valid step");
        }
        world
    }

    fn same_body(a: &Body, b: &Body) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    /// Every contact of the last step that could have been warm started was: the contacts
    /// of a settled pile all persist from one step to the next.
    fn all_warm_started(world: &World) -> bool {
        let stats = world.stats();
        let contacts = stats.body_contacts + stats.wall_contacts;
        contacts > 300 && stats.warm_started * 100 >= contacts * 98
    }

    #[test]
    fn sorted_slots_keep_every_handle_its_body() {
        let world = shuffled_pile(120, false);
        let mut moved = world.clone();
        moved.sort_slots();
        let slots_moved = moved.slots.iter().enumerate().filter(|(i, s)| s.id as usize != *i);
        assert!(slots_moved.count() > 200, "a shuffled pile's slots are out of order");
        let before: Vec<_> = world.bodies().collect();
        let after: Vec<_> = moved.bodies().collect();
        assert_eq!(before.len(), after.len());
        for ((h1, b1), (h2, b2)) in before.iter().zip(&after) {
            assert_eq!(h1, h2, "bodies() keeps the order of the handles");
            assert!(same_body(b1, b2), "{h1}: {b1:?} became {b2:?}");
            assert!(same_body(moved.body(*h1).expect("a live handle"), b1));
        }
    }

    #[test]
    fn sorted_slots_lie_in_rows_of_cells() {
        let mut world = shuffled_pile(60, false);
        world.sort_slots();
        let origin = world.bounds_min;
        let keys: Vec<(u32, u32)> = world
            .slots
            .iter()
            .filter_map(|s| s.body.as_ref())
            .map(|b| {
                let cell = (b.position - origin) / REORDER_CELL;
                (cell.y as u32, cell.x as u32)
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "rows of cells, left to right");
        assert!(keys.first().map(|k| k.0) < keys.last().map(|k| k.0), "a pile spans rows");
    }

    /// The step sorts a large world whose touching bodies lie far apart in memory, once, and
    /// neither a world added row by row nor a small one.
    #[test]
    fn only_scattered_slots_of_large_worlds_are_sorted() {
        let rows = scenes::large(REORDER_MIN_BODIES, 5);
        let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
        let mut in_rows = rows.build(config.clone()).expect("the scene builds");
        let mut shuffled = scenes::shuffled(&rows, 3).build(config).expect("the scene builds");
        for step in 0..=3 * REORDER_INTERVAL {
            in_rows.step(1.0 / 120.0).expect("a valid step");
            shuffled.step(1.0 / 120.0).expect("a valid step");
            // The look at step 0 has no contacts to judge by; the one at step 64 sorts.
            let sorts = step == REORDER_INTERVAL;
            assert!(!in_rows.stats().slots_sorted, "step {step}: rows were sorted");
            assert_eq!(shuffled.stats().slots_sorted, sorts, "step {step}");
        }
        let mut small = shuffled_pile(REORDER_INTERVAL as usize, false);
        small.step(1.0 / 120.0).expect("a valid step");
        assert!(!small.stats().slots_sorted, "a small world is never sorted");
    }

    /// A world added row by row is left in the order of its handles.
    #[test]
    fn a_world_added_row_by_row_keeps_its_order() {
        let mut world =
            World::new(Vec2::new(900.0, 700.0), PhysicsConfig::default()).expect("a valid world");
        for i in 0..300 {
            let position = Vec2::new(60.0 + 40.0 * (i % 20) as f32, 660.0 - 40.0 * (i / 20) as f32);
            world.add_body(BodyDesc::circle(15.0, position)).expect("a body inside the world");
        }
        for _ in 0..120 {
            world.step(1.0 / 120.0).expect("a valid step");
        }
        assert!(world.stats().body_contacts > 250, "the rows have settled into a pile");
        world.reorder_slots();
        assert!(world.slots.iter().enumerate().all(|(i, s)| s.id as usize == i));
        let mut shuffled = shuffled_pile(120, false);
        shuffled.reorder_slots();
        assert!(shuffled.slots.iter().enumerate().any(|(i, s)| s.id as usize != i));
    }

    /// Adds, removals, steps and sorts in random order: after each, every handle added and
    /// not removed finds its own body, every removed one is stale, and `slot_of_id` and the
    /// slots' ids agree (a freed id reused after a sort must find its moved slot).
    #[test]
    fn handles_survive_sorts_between_adds_and_removals() {
        let mut rng = SceneRng::new(3);
        let mut world =
            World::new(Vec2::new(1200.0, 900.0), PhysicsConfig::default()).expect("a valid world");
        // Each live handle with the radius it was added with, which nothing changes.
        let mut live: Vec<(BodyHandle, f32)> = Vec::new();
        let mut removed: Vec<BodyHandle> = Vec::new();
        let mut sorts = 0;
        for op in 0..3000 {
            match rng.next_u64() % 10 {
                0..=4 => {
                    let radius = rng.range(12.0, 20.0);
                    let position = Vec2::new(rng.range(30.0, 1170.0), rng.range(30.0, 870.0));
                    let handle =
                        world.add_body(BodyDesc::circle(radius, position)).expect("inside");
                    live.push((handle, radius));
                }
                5..=6 if !live.is_empty() => {
                    let (handle, _) =
                        live.swap_remove((rng.next_u64() % live.len() as u64) as usize);
                    world.remove_body(handle).expect("a live handle");
                    removed.push(handle);
                }
                7 => world.step(1.0 / 120.0).expect("a valid step"),
                _ => {
                    let before = world.slots.clone();
                    world.sort_slots();
                    sorts +=
                        usize::from(before.iter().zip(&world.slots).any(|(a, b)| a.id != b.id));
                }
            }
            for &(handle, radius) in &live {
                let body = world.body(handle).unwrap_or_else(|| panic!("op {op}: {handle} lost"));
                assert_eq!(body.shape(), Shape::circle(radius), "op {op}: {handle}");
            }
            for &handle in &removed {
                assert!(!world.contains(handle), "op {op}: removed {handle} still found");
            }
            assert_eq!(world.body_count(), live.len());
            assert_eq!(world.bodies().count(), live.len());
            for (index, slot) in world.slots.iter().enumerate() {
                assert_eq!(world.slot_of_id[slot.id as usize] as usize, index, "op {op}");
            }
        }
        assert!(sorts > 50, "only {sorts} sorts moved slots");
    }

    /// Pairs are oriented by handle and the cache is regrouped, so every contact finds last
    /// step's impulses after the move, with their signs (a lost or flipped warm start would
    /// jolt a resting pile), wall contacts included.
    #[test]
    fn sorted_slots_keep_every_warm_start() {
        let mut world = shuffled_pile(240, false);
        let mut moved = world.clone();
        moved.sort_slots();
        world.step(1.0 / 120.0).expect("a valid step");
        moved.step(1.0 / 120.0).expect("a valid step");
        assert!(world.stats().body_contacts > 350, "a pile, not 20 columns of 15 (280)");
        assert!(all_warm_started(&world));
        assert!(all_warm_started(&moved), "{:?}", moved.stats());
        assert_eq!(moved.stats().warm_started, world.stats().warm_started);
        assert_eq!(moved.stats().body_contacts, world.stats().body_contacts);
        let impulses = |w: &World| {
            let mut found: Vec<_> = w
                .contacts()
                .map(|c| (c.a.map(BodyHandle::to_bits), c.b.to_bits(), c.normal_impulse))
                .collect();
            found.sort_by_key(|x| (x.0, x.1));
            found
        };
        for (c1, c2) in impulses(&world).iter().zip(&impulses(&moved)) {
            assert_eq!((c1.0, c1.1), (c2.0, c2.1), "the same pairs, oriented alike");
            // Only the order of the Gauss-Seidel passes differs: the impulses agree to
            // well within what one pass changes in a resting pile.
            assert!((c1.2 - c2.2).abs() <= 0.02 * c1.2.abs().max(1.0), "{c1:?} vs {c2:?}");
        }
    }

    /// A sleeping pile keeps its contacts' impulses in the cache; after a sort they must
    /// still be found when the pile wakes.
    #[test]
    fn a_sleeping_pile_sorted_wakes_warm_started() {
        let mut world = shuffled_pile(1200, true);
        assert_eq!(world.stats().awake, 0, "the pile sleeps after 10 s");
        world.sort_slots();
        world.wake_all();
        world.step(1.0 / 120.0).expect("a valid step");
        assert!(all_warm_started(&world), "{:?}", world.stats());
    }
}
