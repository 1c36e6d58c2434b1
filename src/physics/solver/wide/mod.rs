//! The velocity passes four contacts at a time: the same Gauss-Seidel sweep as the scalar
//! `scalar::solve_in_order`, laid out so that the processor solves four independent contacts
//! with one instruction per operation (SSE2 on x86_64), like Box2D v3's `contact_solver.c`
//! (`b2SolveContactTwoPointsTask` over `b2ContactConstraintSIMD`).
//!
//! # Why the result is the sequential one
//! [`SolveOrder`] colours the contacts so that two contacts of one colour share no movable
//! body. Solving a colour's contacts one after the other, no contact reads a velocity that
//! another contact of the colour writes, so solving four of them side by side reads and
//! writes exactly the same numbers. Immovable bodies (walls, static and sleeping bodies,
//! inverse mass 0) may appear in several lanes: they are read, never written, as in the
//! scalar path. Each lane performs the operations of the scalar solve in the same order with
//! the same roundings (no fused multiply-add): both call the same formulas of
//! [`impulse`](super::impulse), on `f32` and on [`F4`](f4::F4) lanes, so the velocities and
//! impulses are bit-equal to the reference path's; `wide_passes_equal_the_reference_bit_for_bit`
//! (in `wide/tests.rs`) checks that on random contact sets.
//!
//! The islands solved again are solved in list order, and the same groups give that order
//! too: there a batch is not a colour but a *level* (`SolveOrder::solve_subset`), a set of
//! contacts that share no movable body and depend only on the levels before it
//! (`wide_passes_over_a_subset_equal_the_list_order_bit_for_bit`).
//!
//! # Layout
//! Per step, [`WideContacts::load`] does the work of the scalar `prepare` (levers, bounce
//! targets, and the effective masses four contacts at a time, bit-equal to `prepare`'s) and
//! copies
//! * the bodies' velocities into an array of `(v.x, v.y, ω, 0)`, one 16-byte register per
//!   body, plus one *sink* entry at the end. A group loads its four bodies of a side with
//!   four aligned loads and transposes them into `v.x`, `v.y` and `ω` lanes (glam's
//!   `Mat4::transpose`, 8 shuffles), and stores them back the same way. A lane whose body is
//!   immovable stores into the sink instead: no branch, and groups sharing a wall do not
//!   wait on each other's stores. Nothing reads the sink but dummy lanes.
//! * each colour's contacts into groups of [`LANES`], structure of arrays (one `[f32; 4]`
//!   per field), padded with dummy lanes that point at the sink and whose masses and
//!   inverse masses are all 0: a dummy lane computes a zero impulse.
//!
//! The scalar solve has two kinds of contact, and so do the groups (`wide/group.rs`):
//! * **linear**: neither body can turn (`rolling_mass` 0: boxes, walls, static bodies):
//!   [`impulse::solve_linear`](super::impulse::solve_linear), in `LinearGroup`s.
//! * **rolling**: at least one body turns (circles):
//!   [`impulse::solve_rolling`](super::impulse::solve_rolling), in `RollingGroup`s.
//!
//! Within a colour the order of contacts does not change the result, so each colour's
//! linear contacts fill linear groups and its rolling contacts rolling groups: one *batch*.
//! The contacts of the overflow colour (more than 64 colours needed) share bodies and must be
//! solved one after the other in list order, after the wide colours, as in
//! `SolveOrder::order`: each gets a batch of its own, one group with three dummy lanes.
//!
//! [`WideContacts::store`] copies the effective masses and the accumulated impulses back into
//! the [`SolverContact`]s, where warm starting, the bounce pass and the contact reports read
//! them, and the velocities of the movable bodies back into the [`SolverBody`]s. All buffers
//! live in [`WideContacts`] and keep their memory across steps.

use glam::{Vec2, Vec4};

use super::contact::{
    SolverBodies, SolverBody, SolverContact, TargetRules, set_levers_and_bounce, set_position_bias,
};
use super::impulse::EffectiveMasses;
#[cfg(doc)]
use super::order::SolveOrder;
use group::{LinearGroup, RollingGroup};

mod f4;
mod group;

#[cfg(test)]
mod tests;

/// Contacts solved side by side: 4 `f32` fill one SSE2 register.
pub const LANES: usize = 4;

/// Marks a dummy lane in the lists of contact indices.
const NO_CONTACT: u32 = u32::MAX;

/// Bytes per entry of the velocities. The groups hold where a body's entry lies as a byte
/// offset, `ENTRY_BYTES · index`: an index is scaled by 16 for each of the 16 loads and
/// stores of a group solve, a shift each, as no x86 address scales by more than 8.
const ENTRY_BYTES: u32 = std::mem::size_of::<Vec4>() as u32;

/// The byte offset of velocity entry `index` (see [`ENTRY_BYTES`]).
#[inline]
fn offset_of(index: u32) -> u32 {
    index * ENTRY_BYTES
}

/// Groups solved one after the other: a colour's linear groups, then its rolling groups.
/// Stores where the batch ends in [`WideContacts`]' two group lists.
#[derive(Clone, Copy, Debug, Default)]
struct Batch {
    linear_end: u32,
    rolling_end: u32,
}

/// The coloured contacts in groups of [`LANES`] and a copy of the body velocities, rebuilt
/// each step, memory kept.
#[derive(Clone, Debug, Default)]
pub struct WideContacts {
    /// `(v.x, v.y, ω, 0)` per solver body, then the sink.
    velocities: Vec<Vec4>,
    linear: Vec<LinearGroup>,
    rolling: Vec<RollingGroup>,
    /// The contact index of each lane, [`NO_CONTACT`] for dummies.
    linear_contacts: Vec<[u32; LANES]>,
    rolling_contacts: Vec<[u32; LANES]>,
    batches: Vec<Batch>,
    /// Per colour, the next free lane (group · [`LANES`] + lane) of its linear and of its
    /// rolling groups, while loading.
    next_lane: Vec<[u32; 2]>,
}

/// Whether a contact between `a` and `b` goes to a rolling group: a body can turn,
/// `1/I_A + 1/I_B > 0`, which is the scalar path's `rolling_mass ≠ 0` for finite inverse
/// inertias (every body's).
#[inline]
pub(crate) fn is_rolling(a: &SolverBody, b: &SolverBody) -> bool {
    a.inverse_inertia + b.inverse_inertia > 0.0
}

impl WideContacts {
    /// Copies the velocities and lays out the contacts in groups, colour by colour:
    /// `colour_of(i)` is contact i's colour (64 for the overflow), `counts[k]` how many
    /// linear and rolling contacts colour k has. On the way it does the work of the scalar
    /// `prepare`: each contact gets its levers and bounce target (`set_levers_and_bounce`,
    /// shared with `prepare`), and the groups their effective masses four at a time
    /// (`set_masses`). Needs the warm-start impulses. Returns whether a contact has a bounce
    /// target.
    ///
    /// The groups are sized from the counts first, so that one pass over the contacts in
    /// list order can put each into its place: colour k's linear contacts fill its linear
    /// groups in list order, lane after lane, as they come in `SolveOrder::order`; each
    /// overflow contact gets the next overflow group and a batch of its own.
    pub fn load(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &SolverBodies,
        rules: &TargetRules,
        colour_of: impl Fn(usize) -> usize,
        counts: &[[u32; 2]],
    ) -> bool {
        // Cut to one length, so that the checked index of a contact's body into the solver
        // bodies also covers its indices into the other two (the compiler drops their checks).
        let solver = &bodies.bodies[..];
        let (starts, held) = (&bodies.start_velocity[..solver.len()], &bodies.held[..solver.len()]);
        let mut bounces = false;
        let every = 0..contacts.len() as u32;
        self.lay_out(contacts, solver, colour_of, counts, every, |c| {
            set_levers_and_bounce(c, starts, held, rules);
            bounces |= c.bounce_velocity != 0.0;
        });
        if rules.bias_rate != 0.0 {
            self.add_position_bias(contacts, rules);
        }
        bounces
    }

    /// [`load`](Self::load) for the contacts `subset` alone (ascending indices), which have
    /// been prepared already (levers, bounce targets, position bias): the islands that the
    /// world solves again (`solve_again`). `colour_of(i)` is contact i's level and
    /// `counts[k]` how many linear and rolling contacts level k has, with an empty overflow
    /// last (`SolveOrder::solve_subset`); `colour_of` is asked only for the subset's
    /// contacts. The effective masses are computed again from the levers, to the same bits.
    pub fn load_prepared(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &[SolverBody],
        colour_of: impl Fn(usize) -> usize,
        counts: &[[u32; 2]],
        subset: &[u32],
    ) {
        self.lay_out(contacts, bodies, colour_of, counts, subset.iter().copied(), |_| {});
    }

    /// The part of [`load`](Self::load) common to both loads: copies the velocities and
    /// lays out the contacts `indices` (ascending) in groups, colour by colour, calling
    /// `prepare` on each contact before its lanes are written, then computes the groups'
    /// effective masses.
    fn lay_out(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &[SolverBody],
        colour_of: impl Fn(usize) -> usize,
        counts: &[[u32; 2]],
        indices: impl Iterator<Item = u32>,
        mut prepare: impl FnMut(&mut SolverContact),
    ) {
        self.velocities.clear();
        self.velocities.extend(
            bodies.iter().map(|b| Vec4::new(b.velocity.x, b.velocity.y, b.angular_velocity, 0.0)),
        );
        self.velocities.push(Vec4::ZERO);
        // Every byte offset fits in a u32 (the sink's is the largest).
        assert!(bodies.len() < (u32::MAX / ENTRY_BYTES) as usize, "too many bodies");
        let sink = offset_of(bodies.len() as u32);

        // The first lane of each colour's groups, and one batch per colour in use. The
        // batches are built aside and handed to `solve` only after the checks below: a load
        // that panics half-way (and is caught) leaves no batch to solve stale groups with.
        let mut batches = std::mem::take(&mut self.batches);
        batches.clear();
        self.next_lane.clear();
        let (mut linear_groups, mut rolling_groups) = (0, 0);
        let (wide_colours, overflow) = counts.split_at(counts.len().saturating_sub(1));
        for &[linear, rolling] in wide_colours {
            self.next_lane.push([linear_groups * LANES as u32, rolling_groups * LANES as u32]);
            linear_groups += linear.div_ceil(LANES as u32);
            rolling_groups += rolling.div_ceil(LANES as u32);
            if linear + rolling > 0 {
                batches.push(Batch { linear_end: linear_groups, rolling_end: rolling_groups });
            }
        }
        // Overflow contacts: one group each, after the colours' groups.
        let mut overflow_next = [linear_groups, rolling_groups];
        let [overflow_linear, overflow_rolling] = overflow.first().copied().unwrap_or([0; 2]);
        let (linear_total, rolling_total) = (
            (linear_groups + overflow_linear) as usize,
            (rolling_groups + overflow_rolling) as usize,
        );
        // The groups keep last step's contents: filling every group with dummies first would
        // copy each whole group once more per step. Instead every lane is written once,
        // below: a contact's lanes in the loop over the contacts, the dummy lanes (the tail
        // of each colour's last group, lanes 1.. of each overflow group) here. The check after the
        // loop makes sure that each colour got exactly its count of contacts, so no lane keeps
        // an index of an earlier step (which [`solve`](Self::solve) relies on).
        //
        // Room first for the most groups this many contacts can need outside the overflow (a
        // quarter of them, and a part-filled group per colour), whichever kind they are: a
        // colouring that packs worse than any before then does not allocate in a steady run.
        let room = contacts.len().div_ceil(LANES) + counts.len();
        self.linear.reserve(room.saturating_sub(self.linear.len()));
        self.linear_contacts.reserve(room.saturating_sub(self.linear_contacts.len()));
        self.rolling.reserve(room.saturating_sub(self.rolling.len()));
        self.rolling_contacts.reserve(room.saturating_sub(self.rolling_contacts.len()));
        self.linear.resize(linear_total, LinearGroup::dummy(sink));
        self.linear_contacts.resize(linear_total, [NO_CONTACT; LANES]);
        self.rolling.resize(rolling_total, RollingGroup::dummy(sink));
        self.rolling_contacts.resize(rolling_total, [NO_CONTACT; LANES]);
        for (&[linear, rolling], &[linear_start, rolling_start]) in
            wide_colours.iter().zip(&self.next_lane)
        {
            let (linear_end, rolling_end) = (linear_start + linear, rolling_start + rolling);
            for slot in linear_end..linear_end.next_multiple_of(LANES as u32) {
                let (group, lane) = (slot as usize / LANES, slot as usize % LANES);
                self.linear[group].set_dummy_lane(lane, sink);
                self.linear_contacts[group][lane] = NO_CONTACT;
            }
            for slot in rolling_end..rolling_end.next_multiple_of(LANES as u32) {
                let (group, lane) = (slot as usize / LANES, slot as usize % LANES);
                self.rolling[group].set_dummy_lane(lane, sink);
                self.rolling_contacts[group][lane] = NO_CONTACT;
            }
        }
        for group in linear_groups as usize..linear_total {
            for lane in 1..LANES {
                self.linear[group].set_dummy_lane(lane, sink);
                self.linear_contacts[group][lane] = NO_CONTACT;
            }
        }
        for group in rolling_groups as usize..rolling_total {
            for lane in 1..LANES {
                self.rolling[group].set_dummy_lane(lane, sink);
                self.rolling_contacts[group][lane] = NO_CONTACT;
            }
        }

        // The gather offset and the store offset of a body.
        let targets = |i: u32, body: &SolverBody| {
            let offset = offset_of(i);
            (offset, if body.inverse_mass > 0.0 { offset } else { sink })
        };
        for index in indices {
            let (c, colour) = (&mut contacts[index as usize], colour_of(index as usize));
            let (body_a, body_b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
            prepare(c);
            let (a, store_a) = targets(c.a, body_a);
            let (b, store_b) = targets(c.b, body_b);
            let kind = usize::from(is_rolling(body_a, body_b));
            let slot = match self.next_lane.get_mut(colour) {
                Some(next) => {
                    next[kind] += 1;
                    (next[kind] - 1) as usize
                }
                None => {
                    overflow_next[kind] += 1;
                    let [linear_end, rolling_end] = overflow_next;
                    batches.push(Batch { linear_end, rolling_end });
                    (overflow_next[kind] - 1) as usize * LANES
                }
            };
            let (group, lane) = (slot / LANES, slot % LANES);
            if kind == 1 {
                let g = &mut self.rolling[group];
                (g.a[lane], g.store_a[lane], g.b[lane], g.store_b[lane]) = (a, store_a, b, store_b);
                g.normal_x[lane] = c.normal.x;
                g.normal_y[lane] = c.normal.y;
                g.normal_lever_a[lane] = c.normal_levers.0;
                g.normal_lever_b[lane] = c.normal_levers.1;
                g.tangent_lever_a[lane] = c.tangent_levers.0;
                g.tangent_lever_b[lane] = c.tangent_levers.1;
                g.inverse_mass_a[lane] = body_a.inverse_mass;
                g.inverse_mass_b[lane] = body_b.inverse_mass;
                g.inverse_inertia_a[lane] = body_a.inverse_inertia;
                g.inverse_inertia_b[lane] = body_b.inverse_inertia;
                g.friction[lane] = c.friction;
                g.bounce[lane] = c.normal_target();
                g.rolling_limit[lane] = c.rolling_limit;
                g.normal_impulse[lane] = c.normal_impulse;
                g.tangent_impulse[lane] = c.tangent_impulse;
                g.rolling_impulse[lane] = c.rolling_impulse;
                self.rolling_contacts[group][lane] = index;
            } else {
                let g = &mut self.linear[group];
                (g.a[lane], g.store_a[lane], g.b[lane], g.store_b[lane]) = (a, store_a, b, store_b);
                g.normal_x[lane] = c.normal.x;
                g.normal_y[lane] = c.normal.y;
                g.inverse_mass_a[lane] = body_a.inverse_mass;
                g.inverse_mass_b[lane] = body_b.inverse_mass;
                g.friction[lane] = c.friction;
                g.bounce[lane] = c.normal_target();
                g.normal_impulse[lane] = c.normal_impulse;
                g.tangent_impulse[lane] = c.tangent_impulse;
                self.linear_contacts[group][lane] = index;
            }
        }
        // Every colour filled exactly its lanes, and the overflow exactly its groups: then
        // every lane was written this step (see above). Counts that do not match the colours
        // stop here, before a group with a stale index could be solved.
        let mut start = [0, 0];
        for (&[linear, rolling], next) in wide_colours.iter().zip(&self.next_lane) {
            assert_eq!(*next, [start[0] + linear, start[1] + rolling], "colour counts");
            start[0] += linear.next_multiple_of(LANES as u32);
            start[1] += rolling.next_multiple_of(LANES as u32);
        }
        assert_eq!(overflow_next, [linear_total as u32, rolling_total as u32], "overflow count");
        self.batches = batches;
        for group in &mut self.linear {
            group.set_masses();
        }
        for group in &mut self.rolling {
            group.set_masses();
        }
    }

    /// Baumgarte's bias on every contact and its lane's target (the rule switch
    /// `position_correction`, R-LAB-1): a pass of its own, so that the load above carries
    /// nothing of it while the switch is at the spec's rule.
    fn add_position_bias(&mut self, contacts: &mut [SolverContact], rules: &TargetRules) {
        for (group, indices) in self.linear.iter_mut().zip(&self.linear_contacts) {
            for (lane, &index) in indices.iter().enumerate() {
                if let Some(c) = contacts.get_mut(index as usize) {
                    set_position_bias(c, rules);
                    group.bounce[lane] = c.normal_target();
                }
            }
        }
        for (group, indices) in self.rolling.iter_mut().zip(&self.rolling_contacts) {
            for (lane, &index) in indices.iter().enumerate() {
                if let Some(c) = contacts.get_mut(index as usize) {
                    set_position_bias(c, rules);
                    group.bounce[lane] = c.normal_target();
                }
            }
        }
    }

    /// One Gauss-Seidel pass: the batches in order (the wide colours, then the overflow
    /// contacts one by one; or the levels of a subset), each batch's groups in order. Equal
    /// to `scalar::solve_in_order` over `SolveOrder::order` (or over the subset) with the
    /// same `accumulated` (the rule switch `accumulated_clamping`, R-LAB-1, chosen here once
    /// per pass).
    ///
    /// The groups read and write the velocities without bounds checks; `group::entry` says
    /// why every offset they hold is in range.
    pub fn solve(&mut self, accumulated: bool) {
        if accumulated {
            self.solve_batches::<true>();
        } else {
            self.solve_batches::<false>();
        }
    }

    /// [`solve`](Self::solve) with the clamping chosen.
    fn solve_batches<const ACCUMULATED: bool>(&mut self) {
        let velocities = &mut self.velocities[..];
        let (mut linear_start, mut rolling_start) = (0, 0);
        for batch in &self.batches {
            let (linear_end, rolling_end) = (batch.linear_end as usize, batch.rolling_end as usize);
            for group in &mut self.linear[linear_start..linear_end] {
                group.solve::<ACCUMULATED>(velocities);
            }
            for group in &mut self.rolling[rolling_start..rolling_end] {
                group.solve::<ACCUMULATED>(velocities);
            }
            (linear_start, rolling_start) = (linear_end, rolling_end);
        }
    }

    /// Copies the effective masses and the accumulated impulses back into `contacts` and the
    /// velocities of the movable bodies back into `bodies`.
    pub fn store(&self, contacts: &mut [SolverContact], bodies: &mut [SolverBody]) {
        for (group, indices) in self.linear.iter().zip(&self.linear_contacts) {
            for (lane, &index) in indices.iter().enumerate() {
                if let Some(c) = contacts.get_mut(index as usize) {
                    let normal = group.normal_mass[lane];
                    c.set_masses(EffectiveMasses { normal, tangent: normal, rolling: 0.0 });
                    c.normal_impulse = group.normal_impulse[lane];
                    c.tangent_impulse = group.tangent_impulse[lane];
                }
            }
        }
        for (group, indices) in self.rolling.iter().zip(&self.rolling_contacts) {
            for (lane, &index) in indices.iter().enumerate() {
                if let Some(c) = contacts.get_mut(index as usize) {
                    c.set_masses(EffectiveMasses {
                        normal: group.normal_mass[lane],
                        tangent: group.tangent_mass[lane],
                        rolling: group.rolling_mass[lane],
                    });
                    c.normal_impulse = group.normal_impulse[lane];
                    c.tangent_impulse = group.tangent_impulse[lane];
                    c.rolling_impulse = group.rolling_impulse[lane];
                }
            }
        }
        for (body, v) in bodies.iter_mut().zip(&self.velocities) {
            if body.inverse_mass > 0.0 {
                body.velocity = Vec2::new(v.x, v.y);
                body.angular_velocity = v.z;
            }
        }
    }
}
