//! Loading a scene (R-SCN-1): every value is checked before a new world is built from it,
//! so a refused scene changes nothing. Whatever [`SceneFile::capture`] writes loads: a body
//! outside the bounds included, which a world holds after [`World::set_bounds`] or once a
//! kinematic body moved out, while no value that breaks the step gets in.

use super::forces::MAX_FORCE;
use super::scene::{CachedContact, SceneBody, SceneError, SceneFile, SolverState};
use super::settle::SETTLE_ATTEMPTS;
use super::*;
use crate::physics::config::SPEED_CEILINGS;

/// A scene error at `at` for one field.
fn refuse(
    at: impl Into<String>,
    field: &'static str,
    value: impl fmt::Display,
    allowed: impl Into<String>,
) -> SceneError {
    let problem = FieldError { field, value: value.to_string(), allowed: allowed.into() };
    SceneError::Invalid { at: at.into(), error: ConfigError { problems: vec![problem] } }
}

/// A world error as a scene error at `at`.
fn located(at: &str, error: PhysicsError) -> SceneError {
    match error {
        PhysicsError::Invalid(error) => SceneError::Invalid { at: at.into(), error },
        other => SceneError::Invalid {
            at: at.into(),
            error: ConfigError {
                problems: vec![FieldError {
                    field: "value",
                    value: other.to_string(),
                    allowed: "a valid value".into(),
                }],
            },
        },
    }
}

/// Whether `ids` holds each of `0..n` exactly once.
fn is_permutation(ids: impl Iterator<Item = u32>, n: usize) -> bool {
    let mut seen = vec![false; n];
    let mut count = 0;
    for id in ids {
        match seen.get_mut(id as usize) {
            Some(s) if !*s => *s = true,
            _ => return false,
        }
        count += 1;
    }
    count == n
}

impl SceneFile {
    /// The version of the scene format this build writes and reads.
    pub const VERSION: u32 = 1;

    /// The most bodies a scene may hold: ten times the largest world the benchmarks step.
    pub const MAX_BODIES: usize = 200_000;

    /// Builds the world the scene describes, after checking every value: the version, the
    /// bounds and config as [`World::new`] and [`World::set_bounds`] check them, each body
    /// as [`World::add_body`] checks it (and its force, sleep and hold) but for where it
    /// lies, and the solver state against the bodies. The first problem found is returned,
    /// naming where it is, the field and its allowed range.
    ///
    /// A body's centre may lie anywhere within ±2^40 px of the origin, outside the bounds
    /// too: a world holds such bodies (a static body left outside by
    /// [`World::set_bounds`], a kinematic one that moved out, a dynamic one before the walls
    /// push it back in, one flown far through a switched-off wall), and a file of it must
    /// load. [`check_inside`](Self::check_inside) refuses them where that is wanted.
    ///
    /// With a solver state the world steps bit for bit as the one
    /// [`capture`](Self::capture) took it from; without, it starts fresh.
    pub fn to_world(&self) -> Result<World, SceneError> {
        if self.version != Self::VERSION {
            return Err(SceneError::Version { found: Some(self.version) });
        }
        if self.bodies.len() > Self::MAX_BODIES {
            return Err(SceneError::TooLarge {
                what: format!("{} bodies", self.bodies.len()),
                limit: Self::MAX_BODIES as u64,
            });
        }
        let (min, max) = (self.bounds.min, self.bounds.max);
        let mut world = World::new(Vec2::splat(1.0e3), self.config.clone())
            .map_err(|e| located("config", e))?;
        world.set_bounds(min, max).map_err(|e| located("bounds", e))?;
        let walls = self.walls;
        world.wall_enabled = [walls.left, walls.right, walls.top, walls.floor];
        world.gravity_enabled = self.gravity_enabled;
        for (i, body) in self.bodies.iter().enumerate() {
            check_scene_body(body)
                .map_err(|error| SceneError::Invalid { at: format!("bodies[{i}]"), error })?;
        }
        if let Some(state) = &self.solver_state {
            check_solver_state(state, self.bodies.len())?;
        }
        world.place_bodies(&self.bodies, self.solver_state.as_ref());
        if let Some(state) = &self.solver_state {
            world.restore_solver_state(state);
        }
        Ok(world)
    }

    /// Refuses a body whose centre lies where [`World::add_body`] would not place it in the
    /// scene's world ([`World::can_place`]): a dynamic body outside the bounds, or beyond a
    /// switched-off wall farther than [`MAX_COORDINATE`] from the origin; a static or
    /// kinematic one farther than that. The error names the body (`bodies[i]`), its position
    /// and the range for its kind.
    ///
    /// [`to_world`](Self::to_world) loads such a body, since a world may hold one; this is for
    /// a caller that moves a file into walls of its own and wants refused what no longer fits
    /// (the sandbox fits each file into its window).
    pub fn check_inside(&self) -> Result<(), SceneError> {
        let mut world = World::new(Vec2::splat(1.0e3), PhysicsConfig::default())
            .map_err(|e| located("config", e))?;
        world.set_bounds(self.bounds.min, self.bounds.max).map_err(|e| located("bounds", e))?;
        let walls = self.walls;
        world.wall_enabled = [walls.left, walls.right, walls.top, walls.floor];
        match self.bodies.iter().position(|body| !world.can_place(body.kind, body.position)) {
            Some(i) => Err(refuse(
                format!("bodies[{i}]"),
                "position",
                self.bodies[i].position,
                world.placement_range(self.bodies[i].kind),
            )),
            None => Ok(()),
        }
    }
}

/// How far from the origin a scene body's centre may lie, px, on each axis: 2^40, about
/// 1.1·10¹². Bodies are placed within [`MAX_COORDINATE`] (10⁹ px), but one flying through a
/// switched-off wall goes on. No step takes it past 2^40: the most a body moves in a step,
/// `SPEED_CEILING` × 1/30 s ≈ 33,333 px, is less than half the spacing of `f32`s there
/// (2^17 px), so `x + v·dt` rounds back to `x`. Every position a world reaches loads, and
/// the step's sums of two coordinates stay far from overflowing.
const MAX_SCENE_COORDINATE: f32 = (1u64 << 40) as f32;

/// Every problem of one scene body, as `add_body` and the force, sleep and drag calls would
/// find them, but for its position: anywhere within [`MAX_SCENE_COORDINATE`] of the origin.
fn check_scene_body(body: &SceneBody) -> Result<(), ConfigError> {
    let mut problems = Vec::new();
    body.desc().check(&mut problems);
    if body.position.is_finite() && body.position.abs().max_element() > MAX_SCENE_COORDINATE {
        problems.push(FieldError {
            field: "position",
            value: format!("{}", body.position),
            allowed: "finite, each coordinate within ±2^40 px (1099511627776) of the origin".into(),
        });
    }
    let mut problem = |field, value: String, allowed: &str| {
        problems.push(FieldError { field, value, allowed: allowed.into() });
    };
    let within = |x: f32| x.is_finite() && x.abs() <= MAX_FORCE;
    let dynamic = body.kind == BodyKind::Dynamic;
    if !(within(body.force.x) && within(body.force.y)) {
        problem("force", body.force.to_string(), "finite, each component within ±1e30");
    } else if !dynamic && body.force != Vec2::ZERO {
        problem("force", body.force.to_string(), "zero for a static or kinematic body");
    }
    if !within(body.torque) {
        problem("torque", body.torque.to_string(), "finite, within ±1e30");
    } else if !dynamic && body.torque != 0.0 {
        problem("torque", body.torque.to_string(), "zero for a static or kinematic body");
    }
    if !(body.rest_time.is_finite() && body.rest_time >= 0.0) {
        problem("rest_time", body.rest_time.to_string(), "finite, at least 0 s");
    }
    if let Some(anchor) = body.rest_anchor
        && !anchor.is_finite()
    {
        problem("rest_anchor", anchor.to_string(), "finite numbers");
    }
    if !body.rest_angle.is_finite() {
        problem("rest_angle", body.rest_angle.to_string(), "finite");
    }
    if body.settle_failures > SETTLE_ATTEMPTS {
        problem(
            "settle_failures",
            body.settle_failures.to_string(),
            &format!("0 ..= {SETTLE_ATTEMPTS}"),
        );
    }
    if let Some(id) = body.sleep_island {
        if id == NO_ISLAND {
            problem("sleep_island", id.to_string(), "0 ..= 4294967294");
        } else if !dynamic {
            problem("sleep_island", id.to_string(), "None for a static or kinematic body");
        } else if body.drag_target.is_some() {
            problem("sleep_island", id.to_string(), "None for a held body (drag_target set)");
        }
    }
    if let Some(target) = body.drag_target {
        if !target.is_finite() {
            problem("drag_target", target.to_string(), "finite numbers");
        } else if !dynamic {
            problem("drag_target", target.to_string(), "None for a static or kinematic body");
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(ConfigError { problems }) }
}

impl World {
    /// Puts the checked bodies into the world: in the slots and under the handles of the
    /// solver state, or in order under fresh handles.
    fn place_bodies(&mut self, bodies: &[SceneBody], state: Option<&SolverState>) {
        let ids = bodies.len() + state.map_or(0, |s| s.free.len());
        self.slots = (0..ids as u32).map(|id| Slot { id, generation: 0, body: None }).collect();
        self.slot_of_id = (0..ids as u32).collect();
        if let Some(state) = state {
            for (place, &id) in state.slots.iter().enumerate() {
                self.slots[place].id = id;
                self.slot_of_id[id as usize] = place as u32;
            }
            for free in &state.free {
                self.slots[self.slot_of_id[free.index as usize] as usize].generation =
                    free.generation;
            }
            self.free_ids = state.free.iter().map(|h| h.index).collect();
        }
        // A fresh start clamps speeds and spins as `add_body` does. A resume keeps them: the
        // world held them so (above `max_speed` after the speed limit was switched off or
        // `max_speed` lowered, until its next step clamps them), and a clamp here would
        // change its course. Either way they stay below the ceilings no world exceeds.
        let (max_speed, max_spin) = match state {
            Some(_) => SPEED_CEILINGS,
            None => self.config.speed_limits(),
        };
        let mut last_island = None;
        for (i, scene_body) in bodies.iter().enumerate() {
            let handle =
                state.map_or(BodyHandle { index: i as u32, generation: 0 }, |s| s.handles[i]);
            let index = self.slot_of_id[handle.index as usize] as usize;
            let desc = scene_body.desc();
            let mut body = Body::from_desc(&desc, max_speed, max_spin);
            // A speed the world clamped may exceed the limit by the rounding of the clamp;
            // clamped again it would change in the last bits, so it is kept as it is. (A
            // spin is clamped to the limit exactly: clamped again, it stays.)
            let kept = max_speed * (1.0 + 1.0e-5);
            if body.kind != BodyKind::Static && desc.velocity.length_squared() <= kept * kept {
                body.velocity = desc.velocity;
            }
            body.rest_time = scene_body.rest_time;
            if scene_body.deep_contact {
                body.flags |= DEEP;
            }
            // Only an awake dynamic body is ever set into others: the flag of another is
            // dropped.
            if scene_body.embedded
                && body.kind == BodyKind::Dynamic
                && scene_body.sleep_island.is_none()
            {
                body.flags |= EMBEDDED;
                self.embedded_bodies = true;
            }
            // Only an awake dynamic body counts failed settlings (D17).
            if body.kind == BodyKind::Dynamic && scene_body.sleep_island.is_none() {
                body.flags |= scene_body.settle_failures * SETTLE_FAILURE;
            }
            if let Some(anchor) = scene_body.rest_anchor {
                (body.anchor, body.rest_angle) = (anchor, scene_body.rest_angle);
            }
            if let Some(id) = scene_body.sleep_island {
                body.sleeping = true;
                body.sleep_island = id;
                *self.sleeping_islands.entry(id).or_insert(0) += 1;
                last_island = last_island.max(Some(id));
            }
            let forces = Forces {
                force: scene_body.force,
                torque: scene_body.torque,
                gravity_scale: scene_body.gravity_scale,
            };
            let forced = body.kind == BodyKind::Dynamic && forces != Forces::NONE;
            body.set_forced(forced);
            if forced {
                self.forces.insert(handle.index, forces);
            }
            self.count_contact_rules(&body, 1);
            self.slots[index].generation = handle.generation;
            self.slots[index].body = Some(body);
            self.body_count += 1;
            if let Some(target) = scene_body.drag_target {
                // Clamped as `set_drag_target` clamps it (a clamp leaves a clamped target as
                // it is).
                let target = self.clamp_inside(index, target);
                if let Some(body) = self.slots[index].body.as_mut() {
                    body.held = true;
                    body.anchor = target;
                }
            }
        }
        self.next_island_id = match last_island.map_or(0, |id| id.wrapping_add(1)) {
            NO_ISLAND => 0,
            next => next,
        };
        // The counts of the stats, as a step would leave them: a loaded world shown before
        // its first step (paused, say) reports its bodies, not the zeros of no step.
        let bodies = self.slots.iter().filter_map(|s| s.body.as_ref());
        let (awake, sleeping) = bodies.fold((0, 0), |(awake, sleeping), b| {
            (awake + usize::from(is_awake_dynamic(b)), sleeping + usize::from(b.sleeping))
        });
        (self.stats.bodies, self.stats.awake, self.stats.sleeping) =
            (self.body_count, awake, sleeping);
        self.stats.sleeping_islands = self.sleeping_islands.len();
        let room = self.slots.len();
        self.scratch.reorder_keys.reserve(room);
        self.scratch.new_slot_of.reserve(room);
        self.sleeping_islands.reserve(room.saturating_sub(self.sleeping_islands.len()));
    }

    /// The rest of a checked solver state: step count, island id, the
    /// warm-start cache and the events in progress.
    fn restore_solver_state(&mut self, state: &SolverState) {
        self.steps = state.step;
        self.next_island_id = state.next_island_id;
        let entries: Vec<_> = state.contacts.iter().map(cache_entry).collect();
        self.restore_cache(&entries);
        let reported = state.contacts.iter().filter(|c| c.reported).count();
        let overlaps = state.sensor_overlaps.iter().map(|&(a, b, step)| ((a, b), step));
        self.contact_events =
            ContactEvents::restored(overlaps, state.pending_ends.clone(), reported);
    }
}

/// A cache entry from its scene form.
fn cache_entry(c: &CachedContact) -> snapshot::CacheEntry {
    let impulse = CachedImpulse {
        normal: c.normal,
        normal_impulse: c.normal_impulse,
        tangent_impulse: c.tangent_impulse,
        rolling_impulse: c.rolling_impulse,
    };
    ((c.a, c.b), impulse, c.reported)
}

/// Checks a solver state against a scene of `bodies` bodies: one handle per body, the
/// handle ids and free ids together `0..n` once each, the slots a permutation of them,
/// each cached contact and sensor overlap a valid key (impulses finite and within
/// ±[`MAX_CACHED_IMPULSE`]), each pending event a contact's end between valid sides, and
/// the step count at most [`MAX_STEP`].
///
/// A sensor overlap's step is the number, before it ran, of the last step that found it,
/// so below the step count: the next step, number `step`, keeps an overlap stamped with
/// its own number as found even where it is gone, reporting its end a step late, and one
/// stamped later claims a step that never ran.
fn check_solver_state(state: &SolverState, bodies: usize) -> Result<(), SceneError> {
    let at = |field: &str| format!("solver_state.{field}");
    if state.step > MAX_STEP {
        return Err(refuse(at("step"), "step", state.step, format!("0 ..= {MAX_STEP} (2^53)")));
    }
    if state.handles.len() != bodies {
        let allowed =
            format!("one handle per body ({bodies}); delete solver_state after editing bodies");
        return Err(refuse(at("handles"), "handles", state.handles.len(), allowed));
    }
    let ids = bodies + state.free.len();
    let every_id = state.handles.iter().chain(&state.free);
    if !is_permutation(every_id.clone().map(|h| h.index), ids) {
        let allowed = format!("handle and free ids together 0 ..= {} once each", ids as i64 - 1);
        return Err(refuse(at("handles"), "index", "repeated or out of range", allowed));
    }
    if let Some(h) = every_id.clone().find(|h| h.generation == WALL_GENERATION) {
        return Err(refuse(at("handles"), "generation", h.generation, "0 ..= 4294967294"));
    }
    if state.slots.len() != ids || !is_permutation(state.slots.iter().copied(), ids) {
        let allowed = format!("each id 0 ..= {} once", ids as i64 - 1);
        return Err(refuse(
            at("slots"),
            "slots",
            format!("{} entries", state.slots.len()),
            allowed,
        ));
    }
    if state.next_island_id == NO_ISLAND {
        return Err(refuse(at("next_island_id"), "next_island_id", NO_ISLAND, "0 ..= 4294967294"));
    }
    let mut keys: Vec<PairKey> = state.contacts.iter().map(|c| (c.a, c.b)).collect();
    for (i, c) in state.contacts.iter().enumerate() {
        let here = at(&format!("contacts[{i}]"));
        check_key(&here, (c.a, c.b), ids)?;
        let forgotten = c.normal.x.is_nan() && c.normal.y.is_nan();
        if !(forgotten || c.normal.is_finite()) {
            return Err(refuse(here, "normal", c.normal, "finite, or NaN for forgotten impulses"));
        }
        let impulses = [
            ("normal_impulse", c.normal_impulse),
            ("tangent_impulse", c.tangent_impulse),
            ("rolling_impulse", c.rolling_impulse),
        ];
        for (field, x) in impulses {
            if !x.is_finite() || x.abs() > MAX_CACHED_IMPULSE {
                let allowed = format!("finite, within ±{MAX_CACHED_IMPULSE:e}");
                return Err(refuse(here, field, x, allowed));
            }
        }
    }
    keys.sort_unstable();
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        return Err(refuse(at("contacts"), "a, b", format!("{:?}", w[0]), "each pair once"));
    }
    for (i, &(a, b, found)) in state.sensor_overlaps.iter().enumerate() {
        let here = at(&format!("sensor_overlaps[{i}]"));
        check_key(&here, (a, b), ids)?;
        if a == b {
            return Err(refuse(here, "a, b", format!("({a}, {b})"), "two different bodies"));
        }
        if found >= state.step {
            let allowed = match state.step.checked_sub(1) {
                Some(last) => format!("0 ..= {last} (before solver_state.step, {})", state.step),
                None => "none: solver_state.step is 0, no step has found an overlap".to_owned(),
            };
            return Err(refuse(here, "step", found, allowed));
        }
    }
    for (i, event) in state.pending_ends.iter().enumerate() {
        check_pending_end(&at(&format!("pending_ends[{i}]")), event, ids)?;
    }
    let mut overlaps: Vec<PairKey> =
        state.sensor_overlaps.iter().map(|&(a, b, _)| (a, b)).collect();
    overlaps.sort_unstable();
    if let Some(w) = overlaps.windows(2).find(|w| w[0] == w[1]) {
        return Err(refuse(at("sensor_overlaps"), "pair", format!("{:?}", w[0]), "each pair once"));
    }
    Ok(())
}

/// The largest step count a scene may hold: 2^53, 2.4 million years at 120 Hz, far beyond
/// any run and far from the counter's wrap.
const MAX_STEP: u64 = 1 << 53;

/// The largest warm-start impulse a scene may hold. The heaviest body (a 20,000 px square at
/// density 1e4) has mass 4e12 and speeds stop at `SPEED_CEILING` (1e6 px/s), so no step's
/// impulse exceeds about 1e19; impulses from about 2e37 turn the solver's sums infinite and
/// then NaN.
const MAX_CACHED_IMPULSE: f32 = 1.0e20;

/// Checks a pair key `(a, b)` of the solver state at `here`: A a body's handle bits or a wall
/// 0 ..= 3, B a body's, both naming handle ids below `ids`.
fn check_key(here: &str, (a, b): PairKey, ids: usize) -> Result<(), SceneError> {
    let wall = (a >> 32) as u32 == WALL_GENERATION;
    if wall && a as u32 >= WALL_COUNT as u32 {
        return Err(refuse(here, "a", a, "a body's handle bits or a wall 0 ..= 3"));
    }
    if solver::group_body((a, b)) >= ids {
        return Err(refuse(here, "a", a, format!("a handle id below {ids}")));
    }
    if b as u32 as usize >= ids || (b >> 32) as u32 == WALL_GENERATION {
        return Err(refuse(here, "b", b, format!("a body's handle bits, id below {ids}")));
    }
    Ok(())
}

/// Checks one of the solver state's pending events at `here`: what the step fills the list
/// with, the end of a contact (`CollisionEvent::Ended`, not a sensor's: those are followed in
/// `sensor_overlaps`), between a body and another body or a wall, each body a handle id below
/// `ids` (a removed body's stale handle included).
fn check_pending_end(here: &str, event: &CollisionEvent, ids: usize) -> Result<(), SceneError> {
    let CollisionEvent::Ended { a, b, sensor } = *event else {
        return Err(refuse(here, "event", "Started", "Ended (the end of a contact)"));
    };
    if sensor {
        return Err(refuse(here, "sensor", sensor, "false (a contact's end)"));
    }
    let body = |h: BodyHandle| (h.index as usize) < ids && h.generation != WALL_GENERATION;
    if !body(a) {
        return Err(refuse(here, "a", a, format!("a body's handle, id below {ids}")));
    }
    if let BodyOrWall::Body(b) = b {
        if !body(b) {
            return Err(refuse(here, "b", b, format!("a body's handle, id below {ids}")));
        }
        if a == b {
            return Err(refuse(here, "b", b, "a body other than a, or a wall"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::WallId;

    /// R-SCN-1: a body flown through a switched-off wall at the speed ceiling and the longest
    /// step stops gaining at ±2^40 px (`MAX_SCENE_COORDINATE`), and a file of the world there
    /// loads and steps bit for bit. Not vacuous: past 2^40 a file is refused, and at 10⁹ px
    /// (`MAX_COORDINATE`, where `add_body` places bodies) the flight is not over.
    #[test]
    fn a_body_flown_as_far_as_a_step_takes_it_saves_a_file_that_loads_r_scn_1() {
        let config = PhysicsConfig { speed_limit: false, ..PhysicsConfig::default() };
        let mut world = World::new(Vec2::new(800.0, 600.0), config).expect("valid");
        world.set_gravity_enabled(false);
        world.set_wall_enabled(WallId::Left, false);
        world.set_wall_enabled(WallId::Right, false);
        let start = MAX_SCENE_COORDINATE - 100_000.0;
        for (x, vx) in [(start, 2.0e6), (-start, -2.0e6)] {
            let handle = world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
            let handle = handle.expect("inside");
            world.set_velocity(handle, Vec2::new(vx, 0.0)).expect("clamped to the ceiling");
            let index = world.slot_of(handle).expect("just added");
            if let Some(body) = world.slots[index].body.as_mut() {
                (body.position, body.previous_position) = (Vec2::new(x, 300.0), Vec2::ZERO);
            }
        }
        for _ in 0..10 {
            world.step(1.0 / 30.0).expect("a valid step");
        }
        let far: Vec<Vec2> = world.bodies().map(|(_, b)| b.position()).collect();
        let edge = Vec2::new(MAX_SCENE_COORDINATE, 300.0);
        assert_eq!(far, [edge, edge * Vec2::new(-1.0, 1.0)], "stopped at ±2^40");
        let mut loaded = SceneFile::capture(&world).to_world().unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..10 {
            assert_eq!(loaded.state_hash(), world.state_hash());
            world.step(1.0 / 30.0).expect("a valid step");
            loaded.step(1.0 / 30.0).expect("a valid step");
        }
        let mut beyond = SceneFile::capture(&world);
        beyond.bodies[0].position.x = MAX_SCENE_COORDINATE * (1.0 + f32::EPSILON);
        let refused = beyond.to_world().expect_err("beyond 2^40").to_string();
        assert!(refused.contains("bodies[0]") && refused.contains("2^40"), "{refused}");
    }
}
