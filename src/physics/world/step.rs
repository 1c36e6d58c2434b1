//! The step (§4): its phases in order, and the per-body passes of integration (§3).

use std::time::Duration;

use super::filters::sensor_bits;
use super::sleep::{DEEP_FOR_SLEEP, RestCensus};
use crate::physics::clock::Stopwatch;

use super::*;

/// Passes beyond `position_iterations` a step may give the contacts of bodies set into
/// others (deviation D16 of docs/physics.md). Measured on R-REST-4's 5,000 bodies added at
/// one point, deepest overlap after 10 s: 15.1 px with none, 1.91, 1.37, 1.50, 1.31 and
/// 2.11 px with 10, 20, 30, 50 and 70. With 100 the heap churns (36 px after 10 s): the
/// passes then push bodies so far within a step that they land deep in bodies they had no
/// contact with, which sets those into others in turn.
const EMBEDDED_PASSES: u32 = 30;

/// The shortest step [`World::step`] takes, s. Rates such as Baumgarte's `β·depth/dt`
/// overflowed to infinity, and then NaN, for a dt near 1e-36 s; at 1 µs they stay finite
/// (a 10,000 px overlap gives 10¹⁰ px/s, which the speed clamps then bound).
pub const MIN_STEP: f32 = 1.0e-6;

impl World {
    /// Advances the world by `dt` seconds in the order of §4.
    ///
    /// `dt` must be between [`MIN_STEP`] (1 µs) and 1/30 s; the config's speed limit assumes
    /// `config.time_step`, so pass that unless you know better.
    pub fn step(&mut self, dt: f32) -> Result<(), PhysicsError> {
        if !(MIN_STEP..=1.0 / 30.0).contains(&dt) {
            return Err(invalid("dt", dt, "1e-6 s ≤ dt ≤ 1/30 s"));
        }
        // Wall-clock statistics only; a clock that works on every target (`clock.rs`).
        let mut clock = Stopwatch::start();
        self.stats.braked = 0;
        self.stats.solved_again = 0;
        self.stats.slots_sorted = false;
        self.contact_events.clear_events();
        let sorts = self.sorts_before_next_step();
        self.stats.skipped = self.settled && !sorts;
        if self.stats.skipped {
            // Nothing can move: the step would give the state it starts from (see
            // `settled`), so only its count moves on.
            self.stats.timings = PhaseTimings { total: clock.total(), ..PhaseTimings::default() };
            self.steps += 1;
            return Ok(());
        }
        if sorts {
            self.reorder_slots(); // memory only: where the bodies are stored, not what they do
        }

        self.start_bodies(dt); //          drag v = (target − x)·rate (§13), remember the state
        //                                 (§3, §7), v += g·dt (§3): one pass over the bodies
        self.stats.timings.integrate_velocities = clock.lap();

        let (mut broad, mut narrow) = (Duration::ZERO, Duration::ZERO);
        loop {
            self.gather_bodies(); //       proxies, colliders, awake flags, wall contacts (§5)
            self.find_pairs(); //          sweep and prune (§5)
            broad += clock.lap();
            self.collide_bodies(); //      body–body contacts, warm-start lookup (§5, §6)
            let woke = self.wake_touched_sleepers(dt); // whole islands (§11)
            narrow += clock.lap();
            if !woke {
                break;
            }
            // A woken island's own contacts were skipped as sleeper pairs: find them now.
        }
        self.stats.timings.broad_phase = broad;
        self.stats.timings.narrow_phase = narrow;

        self.collide_walls(); //           half-planes, found by `gather_bodies` (§5)
        self.find_islands(); //            union-find over body–body contacts (§11)
        self.stats.timings.walls = clock.lap();

        self.solve_velocities(dt); //      warm start, then N × (normal, friction, rolling) (§6–§9)
        self.stats.timings.solve_velocities = clock.lap();

        self.integrate_positions(dt); //   clamp speeds (§12), then x += v·dt, θ += ω·dt (§3)
        self.stats.timings.integrate_positions = clock.lap();

        self.correct_positions(); //         projection, position_iterations times, then the
        //                                 emergency brake as each body is written back (§10)
        self.stats.timings.correct_positions = clock.lap();

        self.update_sleep(dt); //          islands by union-find (§11)
        self.report_collision_events(); // pairs that started or stopped touching (R-GAME-1)
        self.stats.timings.sleep = clock.lap();

        self.stats.timings.total = clock.total();
        // The queries' index stays valid through a step in which nothing could move: no
        // body pairing at the contact phases (a body that fell asleep in this step still
        // was), no sorted slots.
        let moved = self.anything_pairs() || self.stats.slots_sorted;
        if moved {
            self.moved_at_step = self.steps + 1;
        }
        // A step in which nothing paired moved no body: it only made each body's previous
        // pose its pose, kept the sleepers' warm starts and reported the ends of pairs
        // whose bodies stopped reporting. The next one, unless something is edited, would
        // do nothing at all (`settled_tests.rs` checks this against whole steps).
        self.settled = !moved && self.stats.braked == 0;
        self.steps += 1;
        Ok(())
    }

    /// Which way gravity pulls (a unit vector), for the stacking contacts of D14 and the
    /// settling of D9; `None` without gravity.
    pub(super) fn stacking_direction(&self) -> Option<Vec2> {
        (self.gravity_enabled && self.config.gravity != Vec2::ZERO)
            .then(|| self.config.gravity.normalize())
    }

    /// Notes an edit between steps: the next step is a whole one. Called first by every
    /// public method that takes `&mut self`.
    pub(super) fn edited(&mut self) {
        self.settled = false;
    }

    /// The first three phases of §4, body by body in one pass over the slots: each touches
    /// only its own body, so doing them together gives the same result as three passes and
    /// reads each body once instead of three times. On the way, with sleeping on, it counts
    /// whether the world settles (`StepStats::settling`, D12).
    pub(super) fn start_bodies(&mut self, dt: f32) {
        let rate = self.config.drag_rate;
        let kick = self.gravity_enabled.then_some(self.config.gravity * dt);
        // Whether the world settles (D12), from the velocities before gravity; only read
        // with sleeping on.
        let census_on = self.config.sleeping_enabled;
        let mut census = RestCensus::default();
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            apply_drag(body, rate);
            remember_state(body);
            if census_on {
                census.count(body);
            }
            if let Some(dv) = kick {
                integrate_velocity(body, dv);
            }
        }
        self.stats.settling = census_on && census.settling(self.config.restitution_threshold);
        // The few bodies with forces or a gravity scale (R-GAME-5), skipped above.
        if !self.forces.is_empty() {
            self.apply_forces(dt);
        }
    }

    /// One pass over the bodies for everything the contact phases read of them, so that each
    /// 120-byte slot is loaded once: the proxies of the sweep, the [`Collider`]s of the narrow
    /// phase, the awake flags of the islands, and the contacts with the walls (§5, R-COL-6),
    /// which `collide_walls` appends after the body–body contacts.
    pub(super) fn gather_bodies(&mut self) {
        // A collider and an awake flag per slot, each written once: `resize` only fills
        // entries the arrays did not have last step (none while the slot count holds), and
        // the loop overwrites every entry.
        let n = self.slots.len();
        self.scratch.colliders.resize(n, Collider::default());
        self.scratch.awake_dynamic.resize(n, false);
        // Layers and contact flags only while some body has them (R-GAME-1..3).
        let (layered, flagged) = (self.layered_bodies > 0, self.flagged_bodies > 0);
        if layered {
            self.scratch.layers.resize(n, CollisionLayers::ALL);
        }
        if flagged {
            self.scratch.contact_flags.resize(n, 0);
        }
        // The sweep's boxes grow each way by half how far the narrow phase reaches beyond a
        // shape, so that it pairs what `collide_bodies` may find: shapes that touch within
        // the contact tolerance (D11), and boxes a gap apart along gravity (D14).
        let grow_circle = Vec2::splat(0.5 * collision::CONTACT_TOLERANCE);
        let grow_box = match self.stacking_direction() {
            Some(_) => Vec2::splat(0.5 * collision::STACK_MARGIN),
            None => grow_circle,
        };
        let (open_min, open_max) = self.open_bounds();
        let proxies = &mut self.scratch.proxies;
        proxies.clear();
        proxies.reserve(n);
        self.scratch.wall_contacts.clear();
        self.scratch.wall_keys.clear();
        let walls = WallCollider {
            walls: &self.walls,
            enabled: self.wall_enabled,
            min: open_min,
            max: open_max,
            wall_base: self.slots.len() as u32,
            friction: self.config.wall_friction,
            restitution: self.config.wall_restitution,
            rolling_resistance: self.config.rolling_resistance,
        };
        let (mut moving_kinematic, mut rectangles) = (0, 0);
        let per_slot = self.scratch.colliders.iter_mut().zip(self.scratch.awake_dynamic.iter_mut());
        for (index, (slot, (collider, awake_flag))) in self.slots.iter().zip(per_slot).enumerate() {
            let Some(body) = &slot.body else {
                *collider = Collider::default();
                *awake_flag = false;
                continue;
            };
            let (min, max) = body.aabb();
            let awake = is_awake_dynamic(body);
            // A moving kinematic body pairs like an awake one: it must meet the sleepers it
            // drives into, to wake them (R-GAME-4). Walls never touch it.
            let pairs = awake || is_moving_kinematic(body);
            moving_kinematic += usize::from(pairs && !awake);
            let state = if pairs { ProxyState::Awake } else { ProxyState::Passive };
            let grow = match body.shape {
                Shape::Rect { .. } => {
                    rectangles += 1;
                    grow_box
                }
                Shape::Circle { .. } => grow_circle,
            };
            proxies.push(Proxy { index: index as u32, min: min - grow, max: max + grow, state });
            let handle_bits = slot.handle_bits();
            *collider = Collider {
                shape: body.shape,
                position: body.position,
                friction: body.material.friction,
                restitution: body.material.restitution,
                curvature: 1.0 / body.shape.rolling_radius(),
                handle_bits,
            };
            *awake_flag = awake;
            if layered {
                self.scratch.layers[index] = body.layers;
            }
            if flagged {
                self.scratch.contact_flags[index] = body.contact_flags();
            }
            if awake {
                let found = (&mut self.scratch.wall_contacts, &mut self.scratch.wall_keys);
                walls.collide(index as u32, handle_bits, body, (min, max), found);
            }
        }
        self.scratch.moving_kinematic = moving_kinematic;
        self.scratch.rectangles = rectangles;
        // Which awake dynamic bodies are set into others (D16), per solver index (the walls,
        // never set into anything, after the slots): read only while one may be, so built
        // only then, in a pass of its own (a body's flag lies in another cache line than
        // what the gather reads).
        self.scratch.embedded.clear();
        if self.embedded_bodies {
            let awake = &self.scratch.awake_dynamic;
            let flags = self.slots.iter().zip(awake).map(|(slot, &awake)| {
                awake && slot.body.as_ref().is_some_and(|b| b.flags & EMBEDDED != 0)
            });
            self.scratch.embedded.extend(flags);
            self.scratch.embedded.extend_from_slice(&[false; WALL_COUNT]);
        }
    }

    /// Sweep and prune over the proxies; pairs without an awake dynamic body, and pairs
    /// whose layers do not interact (R-GAME-3), are skipped.
    ///
    /// A moving kinematic body is an awake proxy, so the sweep also pairs it with static,
    /// kinematic and sleeping bodies. Of these only a sleeper is worth a contact (it must
    /// wake); two bodies that no impulse moves would get a contact with an infinite
    /// effective mass, so those pairs are dropped here, in worlds with a moving kinematic
    /// body only.
    ///
    /// A pair needs an awake proxy, so a world in which nothing is awake (every body asleep
    /// or static, no kinematic body moving) skips the sweep: about 300 of the 770
    /// instructions per body of a sleeping world's step (callgrind, `scenes::large(2500, 5)`
    /// asleep). The sweep's pairs and their order are a function of this step's proxies
    /// alone (left edge, then slot), so skipping it changes no later step.
    pub(super) fn find_pairs(&mut self) {
        if !self.anything_pairs() {
            self.scratch.pairs.clear();
            self.stats.pairs = 0;
            return;
        }
        let layers = (self.layered_bodies > 0).then_some(&self.scratch.layers[..]);
        self.broad_phase.find_pairs(&self.scratch.proxies, layers, &mut self.scratch.pairs);
        if self.scratch.moving_kinematic > 0 {
            let (awake, slots) = (&self.scratch.awake_dynamic, &self.slots);
            let sleeps = |i: u32| slots[i as usize].body.as_ref().is_some_and(|b| b.sleeping);
            self.scratch
                .pairs
                .retain(|&(a, b)| awake[a as usize] || awake[b as usize] || sleeps(a) || sleeps(b));
        }
        self.stats.pairs = self.scratch.pairs.len();
    }

    /// Whether some proxy of the last `gather_bodies` pairs: an awake dynamic body or a
    /// moving kinematic one. Without one no pair can be found, and no body moves.
    fn anything_pairs(&self) -> bool {
        self.scratch.moving_kinematic > 0 || self.scratch.awake_dynamic.contains(&true)
    }

    /// Exact tests of the candidate pairs (§5), with the warm-start impulses of last step.
    ///
    /// Shapes up to [`collision::CONTACT_TOLERANCE`] apart touch, at depth 0 (deviation D11
    /// of docs/physics.md): a stack placed exactly touching stays at depth 0 while its passes
    /// converge, and there the rounding of two positions decided whether the contact was
    /// found. Lost for a step, the bodies above fell 0.07 px freely and landed again: a jolt
    /// that restarted their rest. Two boxes whose faces are up to
    /// [`collision::STACK_MARGIN`] apart along gravity get a contact before they touch, with
    /// the gap as a negative depth (D14, `collision::collide_in_step`).
    ///
    /// A sensor's overlaps are set aside for the events, without a contact (R-GAME-2); an
    /// overlap of two sensors is dropped.
    pub(super) fn collide_bodies(&mut self) {
        let down = self.stacking_direction();
        // At most one contact per pair: room for one per candidate, so the pushes below
        // never allocate in the steady state.
        let candidates = self.scratch.pairs.len();
        let colliders = &self.scratch.colliders[..];
        let found = FoundContacts {
            colliders,
            flags: (self.flagged_bodies > 0).then_some(&self.scratch.contact_flags[..]),
            rolling_resistance: self.config.rolling_resistance,
            contacts: &mut self.scratch.contacts,
            keys: &mut self.scratch.contact_keys,
            overlaps: &mut self.scratch.sensor_overlaps,
            deep_found: false,
        };
        found.contacts.clear();
        found.keys.clear();
        found.overlaps.clear();
        found.contacts.reserve(candidates);
        found.keys.reserve(candidates);
        // A world of circles (at most one body in eight a rectangle) tests its candidates
        // four at a time: four pairs of circles side by side, the same bits as one by one
        // (`collision::collide_circles`): the narrow phase of 4,000 circles at rest takes
        // 0.11 ms instead of 0.16–0.26 ms (`rain_4000`, sleeping off). In worlds with more
        // rectangles few fours are all circles, and trying cost more than it saved (the
        // narrow phase of `mixed_2000` 0.043 → 0.055 ms). The contacts keep the order of
        // the candidates either way.
        let deep_found = if self.scratch.rectangles * 8 <= colliders.len() {
            found.test_circles_side_by_side(&self.scratch.pairs, down)
        } else {
            found.test_one_by_one(&self.scratch.pairs, down)
        };
        if deep_found || !self.scratch.embedded.is_empty() {
            self.embed_bodies(down);
        }
        self.scratch.body_contact_count = self.scratch.contacts.len();
        self.stats.body_contacts = self.scratch.contacts.len();
    }

    /// Sets the awake dynamic bodies of every contact deeper than [`EMBEDDED_DEPTH`] into
    /// others (D16), and gives such a contact, and every contact of a body set into others,
    /// the contact D16 gives them (`collision::embedded_manifold`). After the narrow phase,
    /// so that which of a body's contacts take it does not depend on the order of the pairs,
    /// and kept out of its loop, which it slowed by half even when no body was set into
    /// others.
    ///
    /// [`EMBEDDED_DEPTH`]: collision::EMBEDDED_DEPTH
    fn embed_bodies(&mut self, down: Option<Vec2>) {
        let deep = |c: &SolverContact| c.depth > collision::EMBEDDED_DEPTH;
        // Filled by the gather while a body was set into others at the step's start; all
        // false otherwise.
        let embedded = &mut self.scratch.embedded;
        embedded.resize(self.slots.len() + WALL_COUNT, false);
        let awake = &self.scratch.awake_dynamic;
        for c in self.scratch.contacts.iter().filter(|c| deep(c)) {
            for i in [c.a as usize, c.b as usize] {
                embedded[i] |= awake[i];
            }
        }
        let colliders = &self.scratch.colliders;
        for c in &mut self.scratch.contacts {
            if !(deep(c) || embedded[c.a as usize] || embedded[c.b as usize]) {
                continue;
            }
            let (a, b) = (&colliders[c.a as usize], &colliders[c.b as usize]);
            let (pa, pb) = ((&a.shape, a.position), (&b.shape, b.position));
            // The pair touched a moment ago, at the same positions.
            let Some(m) = collision::collide_in_step(pa, pb, down) else { continue };
            let direction = || collision::pair_direction(a.handle_bits, b.handle_bits);
            let m = collision::embedded_manifold(pa, pb, direction, m);
            (c.normal, c.depth, c.point) = (m.normal, m.depth, m.point);
            (c.r_a, c.r_b) = (m.point - a.position, m.point - b.position);
        }
    }

    /// Contacts of awake dynamic bodies with the four half-plane walls (§5, R-COL-6), found
    /// by `gather_bodies` in slot order, after the body–body contacts.
    pub(super) fn collide_walls(&mut self) {
        self.scratch.contacts.extend_from_slice(&self.scratch.wall_contacts);
        self.scratch.contact_keys.extend_from_slice(&self.scratch.wall_keys);
        self.stats.wall_contacts = self.scratch.contacts.len() - self.scratch.body_contact_count;
    }

    /// Writes the solved velocities back (the end of `solve_velocities`), clamps the speeds
    /// (§12), then semi-implicit Euler's second half with the NEW velocity (§3), body by
    /// body in one pass over the slots (each touches only its own body). On
    /// the way it copies what the projection starts from, each slot's position now and at
    /// the step start (zero for empty slots and the walls), saving it a pass of its own.
    pub(super) fn integrate_positions(&mut self, dt: f32) {
        // (∞, ∞) with the speed limit switched off (R-LAB-1): the clamps below keep every
        // velocity then.
        let (max_speed, max_spin) = self.config.speed_limits();
        // Each entry written once: `resize` only fills entries the arrays did not have last
        // step (none while the slot count holds), and the loops overwrite every entry.
        let n = self.slots.len() + WALL_COUNT;
        self.scratch.positions.resize(n, Vec2::ZERO);
        self.scratch.start_positions.resize(n, Vec2::ZERO);
        let copies = self.scratch.positions.iter_mut().zip(self.scratch.start_positions.iter_mut());
        // Sliced to `n`: the zip is then exactly `n` long whatever the solver arrays hold.
        let mut per_slot = self.scratch.solver.bodies[..n].iter().zip(copies);
        // `&mut per_slot`: the zip stops at the last slot, leaving the walls' entries.
        for (slot, (solved, (position, start))) in self.slots.iter_mut().zip(&mut per_slot) {
            let Some(body) = slot.body.as_mut() else {
                *position = Vec2::ZERO;
                *start = Vec2::ZERO;
                continue;
            };
            if is_awake_dynamic(body) {
                // The end of the velocity solve: its velocities back to the body.
                body.velocity = solved.velocity;
                body.angular_velocity = solved.angular_velocity;
                clamp_speed(body, max_speed, max_spin);
                integrate_position(body, dt);
            } else if body.kind == BodyKind::Kinematic {
                // Moved by its own velocity alone, which no contact changed (R-GAME-4);
                // clamped in case `max_speed` was lowered since it was set (§12).
                clamp_speed(body, max_speed, max_spin);
                integrate_position(body, dt);
            }
            *position = body.position;
            *start = body.previous_position;
        }
        for (_, (position, start)) in per_slot {
            *position = Vec2::ZERO;
            *start = Vec2::ZERO;
        }
    }

    /// Position projection over all contacts (§10, R-POS-1, R-POS-2), then the emergency
    /// brake. With the rule switches (R-LAB-1), no projection unless `position_correction`
    /// is `Projection` (Baumgarte's correction is a velocity, added in the solve), and no
    /// brake with `emergency_brake` off.
    pub(super) fn correct_positions(&mut self) {
        // `positions` and `start_positions` were filled by `integrate_positions`, the
        // projection's contacts by `solve_velocities`.
        let projecting = self.config.position_correction == PositionCorrection::Projection;
        let settings = ProjectionSettings {
            iterations: if projecting { self.config.position_iterations } else { 0 },
            factor: self.config.position_correction_factor,
            slop: self.config.penetration_slop,
            max_correction: self.config.max_position_correction,
        };
        let (positions, starts) = (&mut self.scratch.positions, &self.scratch.start_positions);
        self.scratch.projection.run_added(positions, starts, &settings);
        // Bodies set into others get more passes (D16), and the bodies that stay so are
        // found (without the projection, by the rule switch, only found).
        let any_embedded = !self.scratch.embedded.is_empty();
        if any_embedded {
            let passes = if projecting { EMBEDDED_PASSES } else { 0 };
            self.scratch.projection.free_embedded(
                positions,
                starts,
                &mut self.scratch.embedded,
                &mut self.scratch.still_embedded,
                &settings,
                (passes, DEEP_FOR_SLEEP),
            );
        }
        // The brake reads only its own body's projected position: it runs as each body is
        // written back, saving a pass over the bodies.
        // With the rule switch `emergency_brake` off (R-LAB-1) the brake's bounds are
        // infinite: every body lies strictly inside them, and `apply` returns at its first
        // test, as for a body far from the walls.
        let (brake_min, brake_max) = self.brake_bounds();
        let brake = WallBrake {
            walls: &self.walls,
            enabled: self.wall_enabled,
            min: brake_min,
            max: brake_max,
            limit: self.config.max_wall_penetration,
        };
        let (mut braked, mut centred) = (0, false);
        let still_embedded = &self.scratch.still_embedded;
        let mut embedded_left = false;
        for (index, (slot, &position)) in
            self.slots.iter_mut().zip(&self.scratch.positions).enumerate()
        {
            let Some(body) = slot.body.as_mut().filter(|b| is_awake_dynamic(b)) else {
                continue;
            };
            body.position = position;
            if any_embedded {
                let embedded = still_embedded[index];
                body.flags = if embedded { body.flags | EMBEDDED } else { body.flags & !EMBEDDED };
                embedded_left |= embedded;
            }
            let done = brake.apply(body);
            braked += usize::from(done.moved);
            centred |= done.centred;
        }
        // The walls a body wider than the world lies in by design (D3) are no deep contacts.
        if self.config.sleeping_enabled && centred {
            self.forget_centred_wall_contacts();
        }
        // The bodies in a contact the projection left deeper than R-REST-2 lets an island
        // fall asleep with (slop + 0.5 px): their island is settled before it sleeps (§11,
        // deviation D9, `settle_before_sleep`). What the projection and the brake moved
        // counts as motion through the position itself (D8). Only sleep reads the marks,
        // so a world without sleeping skips the pass.
        let deep = &mut self.scratch.deep;
        if self.config.sleeping_enabled {
            let limit = self.config.penetration_slop + DEEP_FOR_SLEEP;
            let (positions, starts) = (&self.scratch.positions, &self.scratch.start_positions);
            self.scratch.projection.mark_deep(positions, starts, limit, deep);
        } else {
            deep.clear();
            deep.resize(self.slots.len(), false);
        }
        // One that falls asleep in this step loses the flag then (D9 has settled it); one
        // removed keeps this true for one more step at most.
        self.embedded_bodies = embedded_left;
        self.stats.braked = braked;
    }
}

/// A held body heads for its target: `v = (target − position)·rate` (§13, R-DRAG-1).
pub(super) fn apply_drag(body: &mut Body, rate: f32) {
    if body.held {
        body.velocity = (body.anchor - body.position) * rate;
    }
}

/// Keeps the pose for interpolation and the velocity for restitution (§3, §7).
pub(super) fn remember_state(body: &mut Body) {
    body.previous_position = body.position;
    body.previous_angle = body.angle;
    body.previous_velocity = body.velocity;
    body.previous_angular_velocity = body.angular_velocity;
}

/// Semi-implicit Euler, first half: `v ← v + g·dt` (§3, R-INT-1), with `dv = g·dt` (only
/// called with gravity on). Held bodies are carried by the hand and feel no gravity
/// (R-DRAG-2); sleepers are frozen (R-SLP-3); static and kinematic bodies feel none. A body
/// with forces or a gravity scale gets its own kick in `apply_forces` (R-GAME-5).
pub(super) fn integrate_velocity(body: &mut Body, dv: Vec2) {
    if is_awake_dynamic(body) && !body.held && !body.forced() {
        body.velocity += dv;
    }
}

/// Clamps |v| to `max_speed` and |ω| to `max_spin = max_speed / MIN_BODY_SIZE` (§12,
/// R-TUN-1); both are ∞ with the rule switch `speed_limit` off (R-LAB-1), which keeps every
/// velocity.
///
/// The spin is clamped by `f32::clamp`'s two compares, written out: `f32::clamp` also
/// checks `min ≤ max` for every body (a compare and branch the loop could not hoist), and
/// `max_spin` is positive.
pub(super) fn clamp_speed(body: &mut Body, max_speed: f32, max_spin: f32) {
    body.velocity = crate::physics::math::clamp_length(body.velocity, max_speed);
    let spin = body.angular_velocity;
    let spin = if spin < -max_spin { -max_spin } else { spin };
    body.angular_velocity = if spin > max_spin { max_spin } else { spin };
}

/// Semi-implicit Euler, second half: `x ← x + v·dt`, `θ ← θ + ω·dt` with the NEW velocity
/// (§3, R-INT-1).
pub(super) fn integrate_position(body: &mut Body, dt: f32) {
    body.position += body.velocity * dt;
    body.angle += body.angular_velocity * dt;
}

/// Where the narrow phase puts what it finds (`World::collide_bodies`).
struct FoundContacts<'a> {
    colliders: &'a [Collider],
    /// The bodies' flags, while some body has any.
    flags: Option<&'a [u8]>,
    rolling_resistance: f32,
    contacts: &'a mut Vec<SolverContact>,
    keys: &'a mut Vec<PairKey>,
    overlaps: &'a mut Vec<SensorOverlap>,
    /// Whether a contact is deeper than one step's motion makes (D16): one predicted compare
    /// per contact here, the rest after the loop and only when needed.
    deep_found: bool,
}

impl FoundContacts<'_> {
    /// The pair with A the body of the lower handle index, whatever slots the two are stored
    /// in now: a pair keeps its orientation, and so its warm-start key and the sign of its
    /// impulses, when `reorder_slots` moves the bodies.
    #[inline(always)]
    fn oriented(&self, (ia, ib): (u32, u32)) -> (u32, u32) {
        let bits = |i: u32| self.colliders[i as usize].handle_bits as u32;
        if bits(ia) <= bits(ib) { (ia, ib) } else { (ib, ia) }
    }

    /// Tests one candidate pair (`collision::collide_in_step`). The broad phase pairs only
    /// slots that hold a body, so both colliders are real.
    #[inline(always)]
    fn test(&mut self, pair: (u32, u32), down: Option<Vec2>) {
        let (ia, ib) = self.oriented(pair);
        let (a, b) = (&self.colliders[ia as usize], &self.colliders[ib as usize]);
        if let Some(m) =
            collision::collide_in_step((&a.shape, a.position), (&b.shape, b.position), down)
        {
            self.add(ia, ib, m);
        }
    }

    /// Tests `pairs` one by one. Its own function, so that the loop of a world with many
    /// rectangles compiles as if the side-by-side tests did not exist: sharing a loop with
    /// them, even a branch that never took them made the narrow phase of `mixed_2000` a
    /// tenth slower.
    ///
    /// Both end the narrow phase's loop: they take the lists and return `deep_found`.
    #[inline(never)]
    fn test_one_by_one(mut self, pairs: &[(u32, u32)], down: Option<Vec2>) -> bool {
        for &pair in pairs {
            self.test(pair, down);
        }
        self.deep_found
    }

    /// Tests `pairs` four at a time where all four are pairs of circles, the others one by
    /// one, in their order.
    #[inline(never)]
    fn test_circles_side_by_side(mut self, pairs: &[(u32, u32)], down: Option<Vec2>) -> bool {
        let (quads, rest) = pairs.as_chunks::<{ collision::PAIRS }>();
        for quad in quads {
            if !self.test_circles(quad) {
                for &pair in quad {
                    self.test(pair, down);
                }
            }
        }
        for &pair in rest {
            self.test(pair, down);
        }
        self.deep_found
    }

    /// Tests four candidate pairs side by side if all are pairs of circles
    /// (`collision::collide_circles`, with `collide_in_step`'s tolerance), and returns
    /// whether they were.
    #[inline(always)]
    fn test_circles(&mut self, quad: &[(u32, u32); collision::PAIRS]) -> bool {
        let mut circles = collision::CirclePairs::default();
        let mut oriented = [(0, 0); collision::PAIRS];
        for (i, &pair) in quad.iter().enumerate() {
            let (ia, ib) = self.oriented(pair);
            let (a, b) = (&self.colliders[ia as usize], &self.colliders[ib as usize]);
            let (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) = (a.shape, b.shape)
            else {
                return false;
            };
            (circles.centre_a[i], circles.radius_a[i]) = (a.position, ra);
            (circles.centre_b[i], circles.radius_b[i]) = (b.position, rb);
            oriented[i] = (ia, ib);
        }
        let found = collision::collide_circles(&circles, collision::CONTACT_TOLERANCE);
        for (&(ia, ib), m) in oriented.iter().zip(found) {
            if let Some(m) = m {
                self.add(ia, ib, m);
            }
        }
        true
    }

    /// Adds the contact `m` of the colliders `ia` and `ib` (A the lower handle index): a
    /// solver contact with its warm-start key, or a sensor's overlap (R-GAME-2), or nothing
    /// for two sensors. Always inlined: the narrow phase's loop calls it from two places,
    /// and out of line it slowed the one-by-one tests of boxes by half.
    #[inline(always)]
    fn add(&mut self, ia: u32, ib: u32, m: collision::Manifold) {
        let (a, b) = (&self.colliders[ia as usize], &self.colliders[ib as usize]);
        // Tested per contact rather than per candidate, and only while some body has flags:
        // the loop of a world without sensors gains one predicted branch.
        if let Some(flags) = self.flags {
            let sensors = sensor_bits(flags[ia as usize], flags[ib as usize]);
            // A sensor overlaps or not: a box still a gap apart (D14) is not inside it.
            if sensors == SENSOR && m.depth >= 0.0 {
                self.overlaps.push(SensorOverlap { a: ia, b: ib, manifold: m });
            }
            if sensors != 0 {
                return; // two sensors: nothing
            }
        }
        self.deep_found |= m.depth > collision::EMBEDDED_DEPTH;
        // Friction mixes by geometric mean (a smooth partner makes the contact smooth),
        // restitution by maximum (a rubber ball bounces off a wooden block) (§7, §8).
        let friction = collision::mixed_friction(a.friction, b.friction);
        let restitution = collision::mixed_restitution(a.restitution, b.restitution);
        let lever = collision::pair_rolling_lever(a.curvature, b.curvature);
        self.contacts.push(SolverContact::new(
            ia,
            ib,
            m.normal,
            m.depth,
            m.point,
            m.point - a.position,
            m.point - b.position,
            friction,
            restitution,
            self.rolling_resistance * lever,
        ));
        self.keys.push((a.handle_bits, b.handle_bits));
    }
}
