//! What the world tells about itself: bodies, contacts, islands, energies, statistics and a
//! state hash.

use std::time::Duration;

use super::*;

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
    /// Contacts solved again, without bounce targets, because the targets or the warm start
    /// raised their island's kinetic energy (D1, D10; see `World::step`'s solve), counted
    /// once per further solve.
    pub solved_again: usize,
    /// Bodies the emergency brake had to push back this step (§10).
    pub braked: usize,
    /// Whether the world was settling at the step's start, so that the step solved with half
    /// again as many passes as `velocity_iterations`: sleeping on, at least half of the
    /// awake bodies resting, and none faster than `restitution_threshold` (deviation D12 of
    /// docs/physics.md).
    pub settling: bool,
    /// Whether this step sorted the slots into space order first (`World::step` does so
    /// in large worlds whose touching bodies lie far apart in memory).
    pub slots_sorted: bool,
    /// Whether the step was skipped because nothing could move: nothing awake, no kinematic
    /// body moving, and no edit since a step that found as much (§11). The world is then
    /// exactly as the step before left it.
    pub skipped: bool,
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
    /// Depth at detection, px; negative for boxes stacked a gap apart that already pushed
    /// (deviation D14 of docs/physics.md).
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

impl ContactInfo {
    /// The impulse of the step on B as a vector, `n·P_n + t·P_t` with the tangent
    /// `t = (−n.y, n.x)` (A received the opposite).
    pub fn impulse(&self) -> Vec2 {
        self.normal * self.normal_impulse
            + crate::physics::math::tangent(self.normal) * self.tangent_impulse
    }
}

/// A group of bodies touching directly or through others (§11).
#[derive(Clone, Debug, PartialEq)]
pub struct Island {
    /// Its members.
    pub bodies: Vec<BodyHandle>,
    /// Whether it sleeps.
    pub sleeping: bool,
}

impl World {
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

    /// Every body, in the order the world stores them, which it changes as it sorts itself
    /// (§5 keeps neighbours close in memory). Reads the storage front to back, so a sum over
    /// all bodies is several times cheaper than through [`bodies`](Self::bodies), whose
    /// handle order visits the storage at random once the world has sorted it.
    pub fn bodies_in_storage_order(&self) -> impl Iterator<Item = (BodyHandle, &Body)> + '_ {
        self.slots.iter().filter_map(|slot| slot.body.as_ref().map(|b| (slot.handle(), b)))
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

    /// Counts and timings of the last step.
    pub fn stats(&self) -> &StepStats {
        &self.stats
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.steps
    }

    /// The contacts of the last step (body–body first, then walls): the pairs that touch.
    /// Boxes stacked a gap apart along gravity have a contact in the solver before they
    /// touch (deviation D14 of docs/physics.md); it is listed only once it pushed (an
    /// impulse above 0), with its gap as a negative `depth`.
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo> + '_ {
        let wall_base = self.slots.len() as u32;
        self.scratch.contacts.iter().filter(|c| c.touches()).filter_map(move |c| {
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
        for (index, &root) in self.scratch.island_root.iter().enumerate() {
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

    /// How many bodies share `handle`'s island after the last step (the body included), the
    /// same island [`islands`](Self::islands) lists it in; `None` for a body in no island
    /// (static, kinematic, or added since the last step) and for a stale handle.
    ///
    /// One pass over the bodies without allocating: cheap enough for an inspector each frame.
    pub fn island_size(&self, handle: BodyHandle) -> Option<usize> {
        let index = self.slot_of(handle).ok()?;
        let body = self.slots[index].body.as_ref()?;
        if body.sleeping {
            let id = body.sleep_island()?;
            return Some(
                self.bodies().filter(|(_, b)| b.sleeping && b.sleep_island() == Some(id)).count(),
            );
        }
        let root = *self.scratch.island_root.get(index).filter(|&&root| root != u32::MAX)?;
        let members = self.scratch.island_root.iter().zip(&self.slots);
        Some(
            members
                .filter(|(r, slot)| **r == root && slot.body.as_ref().is_some_and(|b| !b.sleeping))
                .count(),
        )
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

    /// Whether `p` lies where a dynamic body's centre may be placed: inside the world
    /// rectangle, which is open on the side of each switched-off wall (R-GAME-7) up to
    /// [`MAX_COORDINATE`] from the origin.
    pub fn contains_point(&self, p: Vec2) -> bool {
        let (min, max) = self.placement_bounds();
        p.cmpge(min).all() && p.cmple(max).all()
    }

    /// Whether a body of `kind` may be placed (added, teleported) with its centre at `p`: a
    /// dynamic body inside the walls ([`contains_point`](Self::contains_point)), a static or
    /// kinematic one anywhere within [`MAX_COORDINATE`] of the origin on each axis.
    ///
    /// Why: the walls and the brake act on dynamic bodies only. A kinematic body leaves the
    /// world at its velocity and a static one stays where [`set_bounds`](Self::set_bounds)
    /// leaves it; a game that makes one out there (a platform sliding in from off screen), or
    /// gives it a new shape or kind there, must not be refused for where it is.
    pub fn can_place(&self, kind: BodyKind, p: Vec2) -> bool {
        match kind {
            BodyKind::Dynamic => self.contains_point(p),
            BodyKind::Static | BodyKind::Kinematic => {
                p.is_finite() && p.abs().max_element() <= MAX_COORDINATE
            }
        }
    }

    /// The description that would re-create the body of `handle` as it is now, with its
    /// gravity scale (which [`Body::desc`] leaves at 1).
    pub fn body_desc(&self, handle: BodyHandle) -> Result<BodyDesc, PhysicsError> {
        let body = self.body(handle).ok_or(PhysicsError::StaleHandle(handle))?;
        Ok(BodyDesc { gravity_scale: self.forces_of(handle).gravity_scale, ..body.desc() })
    }
}
