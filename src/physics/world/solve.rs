//! The velocity solve of the step (§6–§9): the solver's bodies and contacts loaded, warm
//! started from the cache, solved, and the impulses stored for the next step.

use super::*;

/// px/s: a warm-started contact that was hit this step (faster than the bounce threshold)
/// and still pushes after the passes while its bodies separate faster than this (beyond
/// its bounce target) was started from too large an impulse; its island is solved again
/// with the warm start around it scaled down (D10). Under gravity also the margin of the
/// look over the contacts across gravity that decides whether the guard runs at all.
const OVERSHOOT_SPEED: f32 = 1.0;

impl World {
    /// Sequential impulses (§6–§9): load the bodies, compute effective masses and bounce
    /// targets, warm start, iterate, store the impulses for next step. The solved velocities
    /// stay in `self.scratch.solver.bodies`; `integrate_positions` writes them back to the bodies.
    pub(super) fn solve_velocities(&mut self, dt: f32) {
        self.load_solver_bodies();
        // With the rule switch `warm_starting` off (R-LAB-1) no normal passes the test below:
        // every contact starts from zero impulses, and the cache is still kept (and read for
        // the collision events' bits), so switching it on again resumes at once.
        let threshold = if self.config.warm_starting {
            self.config.warm_start_normal_threshold
        } else {
            f32::INFINITY
        };
        let mut warm_started = 0;
        // Taken out of the cache: `store_impulses` puts every contact back, so only the
        // entries of pairs not in contact this step are left for its sweep.
        let follows = self.follows_contacts();
        let mut cache = self.warm_start_cache.removals();
        let wall_base = self.slots.len() as u32;
        // The group of A's slot, or B's for a wall contact (see `store_impulses`).
        let group_of = |c: &SolverContact| (if c.a >= wall_base { c.b } else { c.a }) as usize;
        let mut warm_start = |contact: &mut SolverContact, cached: CachedImpulse| {
            // A normal that turned too far makes the old impulse meaningless (R-SI-2).
            if cached.normal.dot(contact.normal) >= threshold {
                contact.normal_impulse = cached.normal_impulse;
                contact.tangent_impulse = cached.tangent_impulse;
                contact.rolling_impulse = cached.rolling_impulse;
                warm_started += 1;
            }
        };
        let contacts = self.scratch.contacts.iter_mut().zip(&self.scratch.contact_keys);
        let was_reported = &mut self.scratch.was_reported;
        was_reported.clear();
        if follows {
            // While collision events are followed (R-GAME-1), also whether each contact's
            // pair was reported touching last step: the cache keeps that bit.
            for (contact, key) in contacts {
                let found = cache.remove_reported(group_of(contact), key);
                was_reported.push(found.is_some_and(|(_, reported)| reported));
                if let Some((cached, _)) = found {
                    warm_start(contact, cached);
                }
            }
        } else {
            for (contact, key) in contacts {
                if let Some(cached) = cache.remove(group_of(contact), key) {
                    warm_start(contact, cached);
                }
            }
        }
        self.stats.warm_started = warm_started;
        self.scratch.carried.clear();
        self.scratch.carried.extend(
            self.scratch
                .contacts
                .iter()
                .map(|c| (c.normal_impulse, c.tangent_impulse, c.rolling_impulse)),
        );
        // `solver::scalar::warm_start`, then `solve_order.build`, in one pass.
        // The projection's contacts are gathered on the way (its inverse masses are those
        // of the solver bodies, which nothing changes before the projection).
        let projection = &mut self.scratch.projection;
        projection.clear();
        self.scratch.solve_order.warm_start_and_build(
            &self.scratch.contacts,
            &mut self.scratch.solver.bodies,
            |c, inverse_mass_a, inverse_mass_b| projection.add(c, inverse_mass_a, inverse_mass_b),
        );
        // Room for a re-solve of every contact (D1, D10), made in every step, so that the
        // first re-solve, or a larger one than before, does not allocate in a steady run.
        let n = self.scratch.contacts.len();
        let (order, targets) = (&mut self.scratch.resolve_order, &mut self.scratch.bounce_targets);
        order.reserve(n.saturating_sub(order.len()));
        targets.reserve(n.saturating_sub(targets.len()));
        // Prepares, then solves four contacts of a colour at a time; equal to the reference
        // `solver::scalar::prepare` and `velocity_iterations` passes of
        // `solver::scalar::solve_in_order` over `solve_order.order()`.
        let (rules, passes) = (self.target_rules(dt), self.velocity_passes());
        let bounces = self.scratch.solve_order.solve_passes(
            &mut self.scratch.contacts,
            &mut self.scratch.solver,
            &rules,
            passes,
            self.config.accumulated_clamping,
        );
        // An island whose bounces or warm start raised its energy is solved again (D1, D10),
        // and without gravity every island with a bounce, under gravity a row on the floor
        // struck along it (D15). Under gravity and without a bounce, one look over the
        // contacts first: the guard has something to find only where a contact across
        // gravity was thrown apart (D10).
        let weightless = !self.gravity_enabled || self.config.gravity == Vec2::ZERO;
        let thrown = |down: Vec2| {
            let scratch = &self.scratch;
            let (contacts, carried) = (&scratch.contacts, &scratch.carried);
            solver::any_thrown_apart(
                contacts,
                carried,
                &scratch.solver.bodies,
                down,
                OVERSHOOT_SPEED,
            )
        };
        let look = bounces
            || (warm_started > 0
                && (weightless
                    || (self.guards_warm_start()
                        && self.stacking_direction().is_some_and(thrown))));
        if look && self.find_gains(dt) && self.pardon_kinematic_pushes() {
            self.solve_again(dt);
            if weightless && self.warm_start_still_raised() {
                self.solve_again(dt);
            }
        }
        // The solved velocities are written back to the bodies by `integrate_positions`, in
        // its pass over the bodies: nothing reads them before.
        self.store_impulses();
    }

    /// Marks the islands to solve again (`EnergyGuard::find_gains`): those whose bounces
    /// raised their energy above the step start (D1), with gravity off every one with a
    /// bounce and with gravity a row on the floor struck along it (D15), those whose warm
    /// start raised the energy or left a hit contact overshooting (D10; under gravity in
    /// islands where nothing rests on anything movable), and with gravity those with a
    /// contact across gravity that its warm start throws apart faster than the bounce
    /// threshold (D10). Returns whether any is marked.
    ///
    /// Under gravity only contacts across gravity: a warm start carries the weight of a
    /// pile, and while a pile settles it raises the energy too (the lab's 16-box tower and
    /// its 100 : 1 bouncy stack gain up to 20-fold in single steps). Scaling it down there,
    /// even to the root of an allowance of 0.1 px of lift and only around the bodies that
    /// gained, let the tower sink past its slop at smaller allowances and, with the rest
    /// rule of D8 and D9, kept `rain(4000)` and the lab's 150-body bin awake past their
    /// limits.
    pub(super) fn find_gains(&mut self, dt: f32) -> bool {
        // The velocities the solve started from: the slots still hold them.
        let loaded = &mut self.scratch.loaded_velocity;
        loaded.clear();
        loaded.extend(self.slots.iter().map(|s| {
            s.body.as_ref().map_or((Vec2::ZERO, 0.0), |b| (b.velocity, b.angular_velocity))
        }));
        loaded.resize(self.slots.len() + WALL_COUNT, (Vec2::ZERO, 0.0));
        self.scratch.energy_guard.find_gains(
            &self.scratch.contacts,
            &self.scratch.carried,
            &self.scratch.solver.bodies,
            &self.scratch.solver.start_velocity,
            &self.scratch.loaded_velocity,
            self.half_kick(dt),
            &self.scratch.island_root,
            self.stacking_direction(),
            self.config.restitution_threshold,
            OVERSHOOT_SPEED,
            self.guards_warm_start(),
        )
    }

    /// Whether D10 may act: it rests on the passes lowering the energy and on the bounce
    /// threshold, so with the rule switch `accumulated_clamping` or
    /// `restitution_threshold_enabled` off (R-LAB-1) the lab shows what those rules prevent,
    /// not what D10 makes of it.
    pub(super) fn guards_warm_start(&self) -> bool {
        self.config.accumulated_clamping && self.config.restitution_threshold_enabled
    }

    /// Exempts from the energy guard every island a moving kinematic body touches: the
    /// guard holds an island to the energy it started the step with, but a kinematic body
    /// does work on what it pushes (a paddle hitting a ball), and its own energy counts in
    /// no balance (its mass is infinite). Returns whether an island is left to solve again.
    pub(super) fn pardon_kinematic_pushes(&mut self) -> bool {
        if self.scratch.moving_kinematic == 0 {
            return true;
        }
        let moving = |i: u32| {
            self.slots
                .get(i as usize)
                .and_then(|s| s.body.as_ref())
                .is_some_and(is_moving_kinematic)
        };
        for c in &self.scratch.contacts[..self.scratch.body_contact_count] {
            for (kinematic, pushed) in [(c.a, c.b), (c.b, c.a)] {
                if moving(kinematic) && self.scratch.awake_dynamic[pushed as usize] {
                    self.scratch.energy_guard.pardon(&self.scratch.island_root, pushed as usize);
                }
            }
        }
        self.scratch.energy_guard.any_gained()
    }

    /// D10's last resort, without gravity: keeps marked the islands whose warm start still
    /// raised their energy after [`Self::solve_again`] (`EnergyGuard::keep_still_raised`)
    /// and takes their warm start away, so that solving them once more starts from zero
    /// impulses. From zero impulses the inelastic passes only lower the energy and the
    /// bounce guard holds the bounces to the step start's
    /// (`energy_never_grows_without_drag_or_spawn`). Returns whether any island is left.
    pub(super) fn warm_start_still_raised(&mut self) -> bool {
        let guard = &mut self.scratch.energy_guard;
        if !guard.keep_still_raised(&self.scratch.solver.bodies, &self.scratch.island_root) {
            return false;
        }
        let (bodies, island) = (&self.scratch.solver.bodies, &self.scratch.island_root);
        for (c, carried) in self.scratch.contacts.iter().zip(&mut self.scratch.carried) {
            if guard.contact_gained(bodies, island, c) {
                *carried = (0.0, 0.0, 0.0);
            }
        }
        true
    }

    /// The islands marked by [`Self::find_gains`] are solved again: from their warm start,
    /// scaled down where it raised the island's energy (D10,
    /// `EnergyGuard::limit_warm_start`), with every contact driven to 0 (inelastic), then
    /// one bounce pass that adds each contact's own bounce, then the bounce guard (see the
    /// `solver` module docs). Bounce targets inside the passes keep a pile that something
    /// bounced on from being pressed together, but when a bouncing body pushes a follower,
    /// they drive the follower to the leader's rebound speed: energy from nothing (D1). A
    /// warm start carries last step's impulses, an impact's too; when the passes cannot take
    /// them back, it throws a heavy body back from a light one (D10). Only such islands pay
    /// for the second solve.
    ///
    /// Islands that take their impacts in turn (every island without gravity, a row on the
    /// floor struck along it under gravity: `EnergyGuard::in_turn`): the impacts come
    /// first, one collision of two bodies after another (`solver::impacts_in_turn`), then
    /// the warm start and the inelastic passes, which leave the contacts the impacts set
    /// apart alone; the energy guard then holds the island's whole change to its start
    /// energy (D15). No pile rests on a contact of two movable bodies there, so nothing is
    /// pressed together.
    pub(super) fn solve_again(&mut self, dt: f32) {
        let kick = self.half_kick(dt);
        let (guard, island) = (&self.scratch.energy_guard, &self.scratch.island_root);
        // Back to the velocities before the warm start.
        let loaded = self.scratch.loaded_velocity.iter();
        for (i, (solved, &velocities)) in
            self.scratch.solver.bodies.iter_mut().zip(loaded).enumerate()
        {
            if solved.inverse_mass > 0.0 && guard.gained(island, i) {
                (solved.velocity, solved.angular_velocity) = velocities;
            }
        }
        self.scratch.resolve_order.clear();
        self.scratch.bounce_targets.clear();
        // List order: any fixed order converges and keeps the step deterministic, and this
        // one converges faster than the passes' colour order (in colour order the piles slept
        // up to 4.5 s later: docs/benchmarks.md, "The second solve four contacts at a
        // time"). (Room for every contact was made by `solve_velocities`.)
        for index in 0..self.scratch.contacts.len() as u32 {
            let c = &mut self.scratch.contacts[index as usize];
            if guard.contact_gained(&self.scratch.solver.bodies, island, c) {
                (c.normal_impulse, c.tangent_impulse, c.rolling_impulse) =
                    self.scratch.carried[index as usize];
                c.restitution_impulse = 0.0;
                self.scratch.bounce_targets.push(c.bounce_velocity);
                if guard.bounces_apart(&self.scratch.solver.bodies, island, c) {
                    c.bounce_velocity = 0.0;
                }
                self.scratch.resolve_order.push(index);
            }
        }
        self.stats.solved_again += self.scratch.resolve_order.len();
        let passes = self.velocity_passes();
        // The contacts of the islands whose impacts come one after another (D15): every
        // island without gravity, the flat ones with bounces across gravity under it.
        let (guard, bodies) = (&self.scratch.energy_guard, &self.scratch.solver.bodies);
        let in_turn = &mut self.scratch.in_turn_order;
        in_turn.clear();
        in_turn.extend(self.scratch.resolve_order.iter().copied().filter(|&index| {
            let c = &self.scratch.contacts[index as usize];
            guard.in_turn(bodies, island, c) && guard.hands_on(c)
        }));
        if !in_turn.is_empty() {
            let threshold = self.target_rules(dt).restitution_threshold;
            solver::impacts_in_turn(
                &mut self.scratch.contacts,
                &mut self.scratch.solver.bodies,
                &self.scratch.in_turn_order,
                &self.scratch.solver.held,
                threshold,
                passes,
            );
        }
        let bodies = &mut self.scratch.solver.bodies;
        self.scratch.energy_guard.warm_start_limited(
            &mut self.scratch.contacts,
            &self.scratch.resolve_order,
            bodies,
            &self.scratch.island_root,
            &mut self.scratch.before_bounce,
        );
        // In list order, four contacts at a time: level by level, bit for bit the list
        // order's solves (`SolveOrder::solve_subset`).
        self.scratch.solve_order.solve_subset(
            &mut self.scratch.contacts,
            bodies,
            &self.scratch.resolve_order,
            passes,
            self.config.accumulated_clamping,
        );
        for (&index, &target) in self.scratch.resolve_order.iter().zip(&self.scratch.bounce_targets)
        {
            self.scratch.contacts[index as usize].bounce_velocity = target;
        }
        // The islands whose impacts came in turn are held to the velocities the solve
        // started from (under gravity to their energy across it: `row_start`); the others'
        // bounces follow in their own pass (D1), held from the velocities the passes left.
        let (guard, loaded) = (&self.scratch.energy_guard, &self.scratch.loaded_velocity);
        let island = &self.scratch.island_root;
        let before = bodies.iter().zip(loaded).enumerate().map(|(i, (b, &started))| {
            let now = (b.velocity, b.angular_velocity);
            if b.inverse_mass > 0.0 && guard.gained(island, i) && guard.body_in_turn(island, i) {
                guard.row_start(started, now)
            } else {
                now
            }
        });
        self.scratch.before_bounce.clear();
        self.scratch.before_bounce.extend(before);
        let any_in_turn = !self.scratch.in_turn_order.is_empty();
        if solver::restitute_in_order(
            &mut self.scratch.contacts,
            bodies,
            &self.scratch.resolve_order,
            |c, bodies| guard.bounces_apart(bodies, island, c) && !guard.in_turn(bodies, island, c),
        ) || any_in_turn
        {
            self.scratch.energy_guard.limit_bounces(
                &mut self.scratch.contacts,
                bodies,
                &self.scratch.before_bounce,
                kick,
                &self.scratch.island_root,
            );
        }
    }

    /// The velocity passes of this step: `velocity_iterations`, half again as many (rounded
    /// down) while the world settles (deviation D12 of docs/physics.md).
    ///
    /// A deep pile "breathes": it sinks and rises as a whole with a period of about 0.4 s,
    /// the residue of eight passes on a stack 40–60 bodies deep, and bodies at the crests
    /// keep restarting their rest, so its one island sleeps late (R-REST-3). The residue
    /// shrinks with more passes; the settings of the projection do not move it. More passes
    /// only while most awake bodies already rest and none is fast enough to bounce cost a
    /// moving world nothing.
    pub(super) fn velocity_passes(&self) -> u32 {
        let passes = self.config.velocity_iterations;
        if self.stats.settling { passes + passes / 2 } else { passes }
    }

    /// The rules of the passes' normal targets (§7, §10) with the rule switches of R-LAB-1
    /// applied: the bounce threshold (0 when switched off: every approach bounces) and
    /// Baumgarte's bias rate `β/dt` (0 unless `position_correction` is `Baumgarte`).
    pub(super) fn target_rules(&self, dt: f32) -> TargetRules {
        let config = &self.config;
        TargetRules {
            restitution_threshold: if config.restitution_threshold_enabled {
                config.restitution_threshold
            } else {
                0.0
            },
            bias_rate: if config.position_correction == PositionCorrection::Baumgarte {
                config.position_correction_factor / dt
            } else {
                0.0
            },
            slop: config.penetration_slop,
            inverse_dt: 1.0 / dt,
        }
    }

    /// Half of gravity's kick in one step, `½·g·dt` (zero with gravity off): the shift from
    /// start and end velocities to the mid-step ones the energy guard measures.
    pub(super) fn half_kick(&self, dt: f32) -> Vec2 {
        if self.gravity_enabled { 0.5 * dt * self.config.gravity } else { Vec2::ZERO }
    }

    /// Fills the solver arrays: bodies by slot, then the walls; only awake dynamic bodies
    /// can be moved by an impulse (everything else has inverse mass 0, R-BODY-2). Kinematic
    /// bodies enter with their velocity, static and sleeping ones at rest.
    ///
    /// Two rule switches of R-LAB-1 act here, each in a pass of its own that runs only when
    /// it is off: with `restitution_from_step_start` off the "start" velocities the bounces
    /// and the energy guard read are those after gravity (so the guard is fooled the same
    /// way), and with `hand_absorbs_bounces` off no body counts as held for the bounces.
    ///
    /// Each entry is written once: `resize` only fills entries the arrays did not have last
    /// step (none while the slot count holds), and the loops overwrite every entry.
    pub(super) fn load_solver_bodies(&mut self) {
        let n = self.slots.len() + WALL_COUNT;
        let solver = &mut self.scratch.solver;
        solver.bodies.resize(n, SolverBody::default());
        solver.start_velocity.resize(n, (Vec2::ZERO, 0.0));
        solver.held.resize(n, false);
        let mut entries = solver
            .bodies
            .iter_mut()
            .zip(solver.start_velocity.iter_mut())
            .zip(solver.held.iter_mut());
        // `&mut entries`: the zip stops at the last slot, leaving the walls' entries.
        for (slot, ((solved, start), held)) in self.slots.iter().zip(&mut entries) {
            // Kinematic bodies too: their contacts read their velocity; their inverse
            // masses are 0, so nothing writes it (R-GAME-4).
            if let Some(b) = slot.body.as_ref().filter(|b| enters_solver(b)) {
                *solved = SolverBody {
                    velocity: b.velocity,
                    angular_velocity: b.angular_velocity,
                    inverse_mass: b.inverse_mass,
                    inverse_inertia: b.inverse_inertia,
                };
                *start = (b.previous_velocity, b.previous_angular_velocity);
                *held = b.held;
            } else {
                *solved = SolverBody::default();
                *start = (Vec2::ZERO, 0.0);
                *held = false;
            }
        }
        for ((solved, start), held) in entries {
            *solved = SolverBody::default();
            *start = (Vec2::ZERO, 0.0);
            *held = false;
        }
        if !self.config.restitution_from_step_start {
            // After gravity: the velocities just loaded (zero where nothing entered).
            for (solved, start) in solver.bodies.iter().zip(solver.start_velocity.iter_mut()) {
                *start = (solved.velocity, solved.angular_velocity);
            }
        }
        if !self.config.hand_absorbs_bounces {
            solver.held.fill(false);
        }
    }

    /// Keeps this step's impulses for warm starting, and those of sleeping contacts, which
    /// were not solved but will be needed when their island wakes. `solve_velocities` took
    /// this step's contacts out of the cache, so the sweep only sees the others: without
    /// sleeping bodies, just the pairs that separated.
    ///
    /// With them goes each pair's `reported` bit (R-GAME-1): a reported pair that leaves the
    /// cache has ended, and so has a sleeping one whose bodies both stopped reporting.
    pub(super) fn store_impulses(&mut self) {
        self.find_reported_contacts();
        let (slots, slot_of_id) = (&self.slots, &self.slot_of_id);
        let passive = |bits: u64| {
            let (generation, id) = ((bits >> 32) as u32, bits as u32 as usize);
            generation == WALL_GENERATION
                || slot_of_id.get(id).and_then(|&slot| slots.get(slot as usize)).is_some_and(|s| {
                    s.generation == generation
                        && s.body.as_ref().is_some_and(|b| !is_awake_dynamic(b))
                })
        };
        let contacts = self.scratch.contacts.iter().zip(&self.scratch.contact_keys);
        let fresh = contacts.map(|(c, &key)| {
            let normal_impulse = carried_normal_impulse(c);
            let impulse = CachedImpulse {
                normal: c.normal,
                normal_impulse,
                tangent_impulse: c.tangent_impulse,
                rolling_impulse: c.rolling_impulse,
            };
            (key, impulse)
        });
        // Grouped by the slot of the key's body (`group_body`), so that the lookups of the next
        // step, in contact order, read the cache in slot order too.
        let group_of = |key| slot_of_id[solver::group_body(key)] as usize;
        // A body's contact flags, for a handle that `passive` found valid (0 for a wall).
        let flags_of = |bits: u64| {
            let slot = slot_of_id.get(bits as u32 as usize).and_then(|&s| slots.get(s as usize));
            slot.and_then(|s| s.body.as_ref()).map_or(0, Body::contact_flags)
        };
        let (ends, mut kept_reported) = (&mut self.contact_events.pending_ends, 0);
        let keep = |(a, b): PairKey, reported: &mut bool| {
            let kept = passive(a) && passive(b);
            if *reported {
                if kept && flags_of(a) | flags_of(b) != 0 {
                    kept_reported += 1;
                } else {
                    *reported = false;
                    ends.push(events::ended((a, b)));
                }
            }
            kept
        };
        // Each contact's `reported` bit: all clear while no body has flags.
        let reported = &self.scratch.reported[..];
        if reported.is_empty() {
            let fresh = fresh.map(|(key, impulse)| (key, impulse, false));
            self.warm_start_cache.rebuild(slots.len(), group_of, keep, fresh);
        } else {
            let fresh = fresh.zip(reported).map(|((key, impulse), &r)| (key, impulse, r));
            self.warm_start_cache.rebuild(slots.len(), group_of, keep, fresh);
        }
        self.contact_events.kept_reported = kept_reported;
    }
}

/// The normal impulse a contact carries into the next step's warm start (§6, deviation D13
/// of docs/physics.md): its accumulated impulse, less the impulse of an impact that bounced
/// in this step, `J = m_n·(1 + e)·|v_impact|` (§6's impulse with restitution, §7), which
/// stops the approach and sends the bodies off at their bounce target
/// (`|v_impact| = v_bounce / e`). What is left is what the contact carried beyond the
/// impact, such as the weight resting on it. (In an island that D1 solved again the bounce
/// is in `restitution_impulse` instead, which is not carried, so there this takes off the
/// bounce's share too: a little less than the load is carried.)
///
/// Why: warm starting is for resting contacts. An impact's impulse applied again in the next
/// step pushes bodies that already separate, and under gravity no guard takes it back: a
/// stack of a steel box on a rubber ball on a rubber box (`mixed(60, 11)`) was driven up at
/// 145 px/s over four steps, its kinetic energy growing sevenfold, and such bursts kept
/// bouncy piles awake.
fn carried_normal_impulse(c: &SolverContact) -> f32 {
    if c.bounce_velocity > 0.0 {
        // A bounce target is set only for an impact with restitution above 0 (§7).
        let impact = c.bounce_velocity / c.restitution;
        let spent = c.normal_mass * (1.0 + c.restitution) * impact;
        let left = c.normal_impulse - spent;
        if left > 0.0 { left } else { 0.0 }
    } else {
        c.normal_impulse
    }
}
