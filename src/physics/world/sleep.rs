//! Islands and sleep (§11): rest without jitter.
//!
//! A solver with finitely many passes always leaves tiny residual motion, so a stack would
//! visibly "breathe" or creep. Resting bodies are therefore frozen:
//! 1. Each body counts how long it has been nearly still without a break: on average
//!    since its rest began `|v| ≤ 4 px/s` and `|ω| ≤ 0.1 rad/s` (deviation D8 of
//!    docs/physics.md, see `still`).
//! 2. Bodies touching directly or through others form an **island** (union-find over the
//!    body–body contacts). Walls and static bodies join no island; otherwise everything on
//!    the floor would be one.
//! 3. An island falls asleep when **all** its bodies have rested for `time_to_sleep`
//!    (0.5 s) and none moves faster than the bounce threshold, nor is a circle whose
//!    surface turns that fast (D8: one just struck keeps its velocity); each body records
//!    its island. If one of its contacts is then deeper than slop + 0.5 px, more
//!    projection passes settle the island first, and it stays awake if they cannot (D9,
//!    `settle_before_sleep` in `settle.rs`), unless they failed three times in a row with
//!    nothing moving: then it sleeps as it is (D17).
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
//! The other way round, a pile with bouncy bodies may sleep late: a rubber ball (e = 0.8)
//! thrown up at 1,000 px/s may bounce for seconds, as §7 says it must, and each landing on
//! the pile keeps its island awake (docs/physics.md, O2).

use std::collections::HashSet;

use super::settle_overlaps::Cells;
use super::*;

impl World {
    /// Wakes every sleeping island touched by an awake dynamic body or a moving kinematic
    /// one (§11, R-SLP-4, R-GAME-4), and gives its bodies the gravity of this step of
    /// `dt`, which `start_bodies` passed them by as sleepers (`kick_woken`): their contacts
    /// start from the impulses that held them up when they fell asleep, and without the
    /// weight those impulses carried, a woken pile jumped up at `g·dt` (8 px/s), a whole
    /// pile's worth of energy from nothing at every wake.
    /// Returns whether any island woke.
    pub(super) fn wake_touched_sleepers(&mut self, dt: f32) -> bool {
        // Bodies only fall asleep as part of a registered island (`update_sleep`).
        if self.sleeping_islands.is_empty() {
            return false;
        }
        let mut woke = false;
        for i in 0..self.scratch.body_contact_count {
            let (a, b) = (self.scratch.contacts[i].a as usize, self.scratch.contacts[i].b as usize);
            // Two bodies awake at the gather sleep in neither slot (waking only wakes): the
            // flags, read in order, spare most contacts of a pile two reads of body slots
            // at scattered places.
            let awake = &self.scratch.awake_dynamic;
            if awake[a] && awake[b] {
                continue;
            }
            for (sleeper, other) in [(a, b), (b, a)] {
                let (Some(s), Some(o)) = (&self.slots[sleeper].body, &self.slots[other].body)
                else {
                    continue;
                };
                if s.sleeping && (is_awake_dynamic(o) || is_moving_kinematic(o)) {
                    if let Some(id) = s.sleep_island() {
                        self.wake_island_in_step(id, Some(dt));
                    }
                    woke = true;
                }
            }
        }
        woke
    }

    /// The islands of this step: union-find over the contacts between awake dynamic bodies.
    /// Walls and static bodies join no island, or everything on the floor would be one.
    /// The solver limits warm starts per island, and the sleep test uses them (§11).
    ///
    /// Which slots hold an awake dynamic body comes from `gather_bodies` as a flag per slot:
    /// the contacts test two flags instead of two body slots at scattered places.
    pub(super) fn find_islands(&mut self) {
        let n = self.slots.len();
        self.scratch.union_find.reset(n);
        // A local slice: its pointer and length stay in registers across the unions' writes
        // (through `self` they would be reloaded for every contact).
        let awake_dynamic = &self.scratch.awake_dynamic[..];
        for c in &self.scratch.contacts[..self.scratch.body_contact_count] {
            if awake_dynamic[c.a as usize] && awake_dynamic[c.b as usize] {
                self.scratch.union_find.union(c.a, c.b);
            }
        }
        // Written once per slot (no fill with u32::MAX first, no bounds checks).
        let union_find = &mut self.scratch.union_find;
        self.scratch.island_root.clear();
        self.scratch.island_root.extend(self.scratch.awake_dynamic.iter().enumerate().map(
            |(index, &awake)| {
                if awake { union_find.find(index as u32) } else { u32::MAX }
            },
        ));
    }

    /// Rest timers and sleep of this step's islands (§11).
    ///
    /// An island falls asleep when all its bodies have rested for `time_to_sleep` and none
    /// moves faster than `restitution_threshold` (at least ten times `sleep_linear_speed`),
    /// nor is a circle whose surface (`r·|ω|`) turns that fast (D8); its members are frozen
    /// and remember the island, so that it wakes as a whole (R-SLP-1..3).
    pub(super) fn update_sleep(&mut self, dt: f32) {
        let (linear, angular) = (self.config.sleep_linear_speed, self.config.sleep_angular_speed);
        let min_span = self.config.time_to_sleep;
        // The bounce threshold, and never below the speed at which a body may still hold
        // others up (40 px/s at the defaults): with the threshold set to 0 (every approach
        // bounces) a pile's residue would otherwise keep it awake for good.
        let fast_speed = self.config.restitution_threshold.max(self.resting_speed());
        let fast_squared = fast_speed * fast_speed;
        let n = self.slots.len();
        self.scratch.island_rest.clear();
        self.scratch.island_rest.resize(n, f32::INFINITY);
        // As a local, its pointer and length stay in registers across the writes to bodies.
        let island_rest = &mut self.scratch.island_rest[..];
        // Each awake body's rest timer, and its island's least rest time, in one pass that
        // also counts the awake and the sleeping bodies for the stats.
        let (mut awake, mut sleeping, mut holding) = (0, 0, false);
        let per_slot = self.slots.iter_mut().zip(&self.scratch.island_root);
        for ((slot, &root), &deep) in per_slot.zip(&self.scratch.deep) {
            let Some(body) = slot.body.as_mut() else { continue };
            if !is_awake_dynamic(body) {
                sleeping += usize::from(body.sleeping);
                continue;
            }
            awake += 1;
            // At rest: slow on average since its rest began, counting what the projection
            // and the brake moved (`still`, deviations D6 and D8 of docs/physics.md). A
            // contact deeper than slop + 0.5 px is settled before the island sleeps
            // (`settle_before_sleep`, D9). A held body never rests (§13), nor does a
            // dynamic sensor, so that its overlaps stay current (R-GAME-2).
            // Entering or leaving a contact deeper than slop + 0.5 px starts a rest shorter
            // than `time_to_sleep` over (D9): the projection is still at work there. A rest
            // in a deep contact counts on, so that an island whose deep contacts last (and
            // whose bodies are still) comes to `settle_before_sleep`.
            if (body.flags & DEEP != 0) != deep {
                body.flags ^= DEEP;
                if body.rest_time < min_span {
                    body.rest_time = 0.0;
                }
            }
            holding |= body.held;
            let resting = !body.held
                && body.flags & SENSOR == 0
                && still(body, (linear, angular), min_span, dt);
            body.rest_time = if resting { body.rest_time + dt } else { 0.0 };
            // A body that moved starts its count of failed settlings again (D17).
            if !resting {
                body.flags &= !SETTLE_FAILURES;
            }
            // A body faster than the bounce threshold, or a circle whose surface turns that
            // fast, holds its island awake, keeping its own rest (D8, "Struck"): one struck
            // within the reach of a long rest must not fall asleep with its velocity, and a
            // pile's momentary jolts cost only the steps they last. (Boxes do not turn.)
            let surface = match body.shape {
                Shape::Circle { radius } => radius * body.angular_velocity,
                Shape::Rect { .. } => 0.0,
            };
            let fast =
                body.velocity.length_squared() > fast_squared || surface * surface > fast_squared;
            let counted = if fast { 0.0 } else { body.rest_time };
            // A compare instead of f32::min, whose NaN rules cost several instructions: a
            // rest time is 0 or a sum of positive steps, never NaN (nor −0).
            let rest = &mut island_rest[root as usize];
            *rest = if counted < *rest { counted } else { *rest };
        }
        if holding {
            self.restart_rests_in_held_islands();
        }
        let awake_islands = (0..n).filter(|&i| self.scratch.island_root[i] == i as u32).count();
        self.stats.awake_islands = awake_islands;
        self.stats.bodies = self.body_count;
        (self.stats.awake, self.stats.sleeping) = (awake, sleeping);
        if !self.config.sleeping_enabled {
            self.stats.sleeping_islands = self.sleeping_islands.len();
            return;
        }

        self.settle_before_sleep();
        self.scratch.island_id.clear();
        self.scratch.island_id.resize(n, u32::MAX);
        let time_to_sleep = self.config.time_to_sleep;
        for index in 0..n {
            let root = self.scratch.island_root[index];
            if root == u32::MAX || self.scratch.island_rest[root as usize] < time_to_sleep {
                continue;
            }
            let id = if self.scratch.island_id[root as usize] == u32::MAX {
                let id = self.next_island_id;
                // Wraps past `NO_ISLAND`, which marks a body in no island.
                self.next_island_id = match self.next_island_id.wrapping_add(1) {
                    NO_ISLAND => 0,
                    next => next,
                };
                self.scratch.island_id[root as usize] = id;
                id
            } else {
                self.scratch.island_id[root as usize]
            };
            if let Some(body) = self.slots[index].body.as_mut() {
                body.sleeping = true;
                body.sleep_island = id;
                // Its island settled (D9): no contact of its is still that deep (D16). Woken,
                // it may have been freed: it is settled again before it sleeps (D17).
                body.flags &= !(EMBEDDED | SETTLE_FAILURES);
                body.velocity = Vec2::ZERO;
                body.angular_velocity = 0.0;
                *self.sleeping_islands.entry(id).or_insert(0) += 1;
                self.stats.awake -= 1;
                self.stats.sleeping += 1;
            }
        }
        self.stats.sleeping_islands = self.sleeping_islands.len();
    }

    /// Wakes a body's island (no-op when awake).
    pub fn wake(&mut self, handle: BodyHandle) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        self.wake_slot(index);
        Ok(())
    }

    /// Wakes every body, and starts every awake body's rest again: what calls it changes
    /// how all bodies move (gravity, the config, a wall, the bounds), and a body that had
    /// rested almost `time_to_sleep` would otherwise fall asleep in its first steps of
    /// falling, within the 2 px a rest may wander (D8).
    pub fn wake_all(&mut self) {
        self.edited();
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            if body.sleeping {
                wake_body(body);
            }
            body.rest_time = 0.0;
        }
        self.sleeping_islands.clear();
        self.stats.sleeping_islands = 0;
    }

    pub(super) fn wake_slot(&mut self, index: usize) {
        let island = self.slots[index].body.as_ref().and_then(Body::sleep_island);
        if let Some(id) = island {
            self.wake_island(id);
        }
    }

    /// A hand moves its island (§13): no body of an island with a held body counts rest
    /// (D8). Such an island never sleeps anyway, but what rests on a held body counted its
    /// rest on, and D8's reach grows with the rest (after 2 s, 8 px): carried away from
    /// under it, the body slept in the air at once. Two passes over the slots, in steps in
    /// which a body is held.
    fn restart_rests_in_held_islands(&mut self) {
        let (slots, roots) = (&mut self.slots, &self.scratch.island_root);
        let island_rest = &mut self.scratch.island_rest;
        // A rest below zero marks an island with a held body.
        for (slot, &root) in slots.iter().zip(roots) {
            if root != u32::MAX && slot.body.as_ref().is_some_and(|b| b.held) {
                island_rest[root as usize] = -1.0;
            }
        }
        for (slot, &root) in slots.iter_mut().zip(roots) {
            if root != u32::MAX
                && island_rest[root as usize] < 0.0
                && let Some(body) = slot.body.as_mut()
            {
                body.rest_time = 0.0;
            }
        }
        for rest in island_rest.iter_mut().filter(|rest| **rest < 0.0) {
            *rest = 0.0;
        }
    }

    /// After an edit of a body's velocity (`set_velocity`, `set_angular_velocity`,
    /// `apply_impulse_at`) that found it at `before` (velocity, spin): a body the edit sped
    /// up by more than a rest threshold (`|v| > |v_before| + sleep_linear_speed`, or the same
    /// for the spin) starts its rest again (R-SLP-1).
    ///
    /// Why: waking wakes a sleeping island, but a body still awake keeps its rest time, and
    /// the mean of D8 counts its new motion against the whole rest so far. A ball resting
    /// on the floor, set sliding at 100 px/s one step before it would sleep, moved 0.8 px a
    /// step, within the 2 px a rest may wander, fell asleep in the second step and lost the
    /// 100 px/s. An edit that only turns a velocity round keeps the rest: D8 lets a body
    /// that swings in place rest, and a test drives such a swing through these calls.
    pub(super) fn restart_rest_if_sped_up(&mut self, index: usize, before: (Vec2, f32)) {
        let (linear, angular) = (self.config.sleep_linear_speed, self.config.sleep_angular_speed);
        let Some(body) = self.slots[index].body.as_mut() else { return };
        if body.velocity.length() > before.0.length() + linear
            || body.angular_velocity.abs() > before.1.abs() + angular
        {
            body.rest_time = 0.0;
            // A support set moving (a platform sent down) leaves what rested on it.
            self.restart_rests_on_slot(index);
        }
    }

    /// Wakes a whole sleeping island (R-SLP-4): every body that carries its id. One pass
    /// over the bodies; waking is an event (a touch, a grab, a deletion), not per-step work.
    pub(super) fn wake_island(&mut self, id: u32) {
        self.wake_island_in_step(id, None);
    }

    /// [`wake_island`](Self::wake_island), inside a step of `dt` after its gravity
    /// (`Some(dt)`: the woken bodies get it now), or between steps (`None`).
    fn wake_island_in_step(&mut self, id: u32, dt: Option<f32>) {
        if self.sleeping_islands.remove(&id).is_none() {
            return;
        }
        for index in 0..self.slots.len() {
            let Some(body) = self.slots[index].body.as_mut() else { continue };
            if body.sleep_island == id {
                wake_body(body);
                if let Some(dt) = dt {
                    self.kick_woken(index, dt);
                }
            }
        }
        self.stats.sleeping_islands = self.sleeping_islands.len();
    }

    /// Starts again the rest of every awake dynamic body that touched, in the last step, a
    /// body whose handle bits `support` accepts: a support that went away (removed,
    /// teleported, made a sensor or given other layers) or was set moving. What rested on
    /// it starts to fall, and a rest of almost `time_to_sleep` would end in sleep within
    /// its first 2 px (D8). Sleepers there are woken by
    /// [`wake_islands_and_near`](Self::wake_islands_and_near).
    ///
    /// The pairs come from the warm-start cache, keyed by handles: snapshots and scene
    /// files keep it, so a restored world restarts the same rests as the live one did (the
    /// step's contact list is scratch, empty after a restore). One pass over the cache: an
    /// edit, not per-step work.
    pub(super) fn restart_rests_on(&mut self, support: impl Fn(u64) -> bool) {
        let (cache, slots, slot_of_id) =
            (&self.warm_start_cache, &mut self.slots, &self.slot_of_id);
        for (a, b) in cache.keys() {
            for (held_by, resting) in [(a, b), (b, a)] {
                if (resting >> 32) as u32 == solver::WALL_GENERATION || !support(held_by) {
                    continue;
                }
                let handle = BodyHandle::from_bits(resting);
                let Some(&index) = slot_of_id.get(handle.index as usize) else { continue };
                let Some(slot) = slots.get_mut(index as usize) else { continue };
                if slot.generation != handle.generation {
                    continue;
                }
                if let Some(body) = slot.body.as_mut().filter(|b| is_awake_dynamic(b)) {
                    body.rest_time = 0.0;
                }
            }
        }
    }

    /// [`restart_rests_on`](Self::restart_rests_on) the body in slot `index`.
    pub(super) fn restart_rests_on_slot(&mut self, index: usize) {
        let bits = self.slots[index].handle().to_bits();
        self.restart_rests_on(|h| h == bits);
    }

    /// px/s: an awake body no faster than this may hold up what rests on it (ten times
    /// `sleep_linear_speed`, 40 px/s at the defaults; see `may_support`).
    pub(super) fn resting_speed(&self) -> f32 {
        10.0 * self.config.sleep_linear_speed
    }

    /// Wakes sleepers whose boxes touch slot `index`'s box (a static or teleported body
    /// changes their support without a contact telling them).
    pub(super) fn wake_near(&mut self, index: usize) {
        if let Some(body) = &self.slots[index].body {
            let aabb = body.aabb();
            self.wake_islands_and_near(&[], &[aabb]);
        }
    }

    /// Wakes, in one pass over the bodies, the sleeping `islands` and every island with a
    /// sleeper whose box touches one of `boxes` (within [`NEAR_MARGIN`]): what
    /// [`wake_island`](Self::wake_island) and [`wake_near`](Self::wake_near) do for one
    /// body, for many at once. Waking only ever clears sleep, so the order does not matter
    /// and the result is that of the calls one by one.
    ///
    /// The boxes go into a grid of cells at least as large as the largest box, so each box
    /// covers at most four cells and a sleeper looks only at the boxes of the cells it
    /// touches: O(bodies + boxes), not O(bodies × boxes).
    pub(super) fn wake_islands_and_near(&mut self, islands: &[u32], boxes: &[(Vec2, Vec2)]) {
        if self.sleeping_islands.is_empty() {
            return;
        }
        let mut woken: HashSet<u32> =
            islands.iter().copied().filter(|id| self.sleeping_islands.contains_key(id)).collect();
        // Built at the first sleeper whose island is not woken already: removing whole
        // islands, or a whole pile, needs no grid at all.
        let mut grid = None;
        for body in self.slots.iter().filter_map(|s| s.body.as_ref()).filter(|b| b.sleeping) {
            if let Some(id) = body.sleep_island().filter(|id| !woken.contains(id))
                && grid.get_or_insert_with(|| BoxGrid::new(boxes)).touches(body.aabb())
            {
                woken.insert(id);
            }
        }
        if woken.is_empty() {
            return;
        }
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            if body.sleeping && woken.contains(&body.sleep_island) {
                wake_body(body);
            }
        }
        self.sleeping_islands.retain(|id, _| !woken.contains(id));
        self.stats.sleeping_islands = self.sleeping_islands.len();
    }
}

/// How much deeper than the slop a contact may be when its island falls asleep, px: the
/// bound of R-REST-2 (§11, deviation D9).
pub(super) const DEEP_FOR_SLEEP: f32 = 0.5;

/// How close a sleeper's box must come to a changed body's box to be woken, px.
pub(super) const NEAR_MARGIN: f32 = 1.0;

/// Boxes sorted into square cells, for "does this box touch any of them" in O(1) per box
/// of about the cells' size.
struct BoxGrid<'a> {
    boxes: &'a [(Vec2, Vec2)],
    cell: f32,
    cells: HashMap<(i64, i64), Vec<u32>>,
}

impl<'a> BoxGrid<'a> {
    /// The grid of `boxes`, each grown by [`NEAR_MARGIN`], in cells at least as large as
    /// the largest grown box.
    fn new(boxes: &'a [(Vec2, Vec2)]) -> Self {
        let margin = Vec2::splat(NEAR_MARGIN);
        let largest = boxes.iter().map(|&(min, max)| (max - min + 2.0 * margin).max_element());
        let cell = largest.fold(1.0, f32::max);
        let mut cells: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
        for (i, &(min, max)) in boxes.iter().enumerate() {
            Cells::covering(cell, min - margin, max + margin)
                .for_each(|key| cells.entry(key).or_default().push(i as u32));
        }
        BoxGrid { boxes, cell, cells }
    }

    /// Whether [`touches`](Self::touches) looks the box `(min, max)` up cell by cell: unless
    /// it covers more cells than there are boxes.
    fn walks_cells(&self, (min, max): (Vec2, Vec2)) -> bool {
        Cells::covering(self.cell, min, max).count() <= self.boxes.len() as u64
    }

    /// Whether the box `(min, max)` touches one of the grown boxes.
    ///
    /// A box that covers more cells than there are boxes (a sleeper of 20,000 px next to a
    /// teleported 24 px ball: 590,000 cells of 26 px) tests the boxes one by one instead:
    /// the same answer, with work bounded by the number of boxes.
    fn touches(&self, (min, max): (Vec2, Vec2)) -> bool {
        let margin = Vec2::splat(NEAR_MARGIN);
        let meets = |&(bmin, bmax): &(Vec2, Vec2)| {
            min.cmple(bmax + margin).all() && (bmin - margin).cmple(max).all()
        };
        if !self.walks_cells((min, max)) {
            return self.boxes.iter().any(meets);
        }
        Cells::covering(self.cell, min, max).any(|key| {
            let listed = self.cells.get(&key);
            listed.is_some_and(|list| list.iter().any(|&i| meets(&self.boxes[i as usize])))
        })
    }
}

/// Wakes one member of a sleeping island; its rest timer starts again.
pub(super) fn wake_body(body: &mut Body) {
    body.sleeping = false;
    body.sleep_island = NO_ISLAND;
    body.rest_time = 0.0;
}

/// Whether an awake, not held body is still on average (§11, deviation D8 of
/// docs/physics.md): since the start of its current rest (its `anchor`, `rest_angle`) it
/// has moved at most `sleep_linear_speed` and turned at most `sleep_angular_speed` times
/// the time elapsed, and never counted less than `time_to_sleep` (`min_span`).
///
/// The specification tests the speeds of the moment. In a deep pile the solver's residue
/// makes bodies vibrate in place: a body that swings 0.5 px back and forth every 0.4 s is at
/// 8 px/s at times though it goes nowhere, and in a pile of thousands one body or another
/// is always at such a peak, so the island's timer never completes (`pour(4000)` slept
/// 18.7 s after arrival). The mean speed over the rest keeps the threshold's meaning for
/// steady motion (a body creeping at more than 4 px/s never rests, one creeping at less
/// does, as before) and lets a vibration smaller than `sleep_linear_speed · time_to_sleep`
/// (2 px) rest. A rest starts at the pose before the step, so the first step's motion counts.
fn still(body: &mut Body, (linear, angular): (f32, f32), min_span: f32, dt: f32) -> bool {
    if body.rest_time == 0.0 {
        body.anchor = body.previous_position;
        body.rest_angle = body.previous_angle;
    }
    let span = (body.rest_time + dt).max(min_span);
    let (reach, turn) = (linear * span, angular * span);
    (body.position - body.anchor).length_squared() <= reach * reach
        && (body.angle - body.rest_angle).abs() <= turn
}

/// What deviation D12 of docs/physics.md asks of the bodies at a step's start: how many are
/// awake, how many of those are resting (`rest_time > 0`), and the largest awake speed.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RestCensus {
    awake: u32,
    resting: u32,
    fastest_squared: f32,
}

impl RestCensus {
    /// Counts `body` if it is awake and dynamic.
    #[inline(always)]
    pub(super) fn count(&mut self, body: &Body) {
        if is_awake_dynamic(body) {
            self.awake += 1;
            // A rest in a deep contact (D9) is not counted, as before D9 let it count on.
            self.resting += u32::from(body.rest_time > 0.0 && body.flags & DEEP == 0);
            let speed_squared = body.velocity.length_squared();
            if speed_squared > self.fastest_squared {
                self.fastest_squared = speed_squared;
            }
        }
    }

    /// Whether the world settles (D12): some body awake, at least half of the awake bodies
    /// resting, and none faster than `bounce_speed` (the restitution threshold: no body
    /// that could bounce off a resting one).
    pub(super) fn settling(&self, bounce_speed: f32) -> bool {
        self.awake > 0
            && 2 * self.resting >= self.awake
            && self.fastest_squared < bounce_speed * bounce_speed
    }
}

#[cfg(test)]
mod box_grid_tests {
    use super::*;

    /// The wake test's grid (R-SLP-4): a sleeper's box far larger than the changed boxes
    /// (20,000 px next to a teleported 24 px ball: 590,000 cells of 26 px, walked for each
    /// edit) is tested box by box, a box of about the cells' size among many boxes is
    /// looked up in its cells, and both give the answers of testing every box.
    #[test]
    fn a_huge_sleepers_box_is_tested_box_by_box_with_the_answers_of_every_box_r_slp_4() {
        let ball = [(Vec2::new(100.0, 100.0), Vec2::new(124.0, 124.0))];
        let grid = BoxGrid::new(&ball);
        let huge = (Vec2::splat(-19_900.0), Vec2::splat(100.0));
        assert!(!grid.walks_cells(huge), "a 20,000 px box walked {} cells", 770 * 770);
        assert!(grid.touches(huge));
        assert!(!grid.touches((Vec2::splat(-20_000.0), Vec2::splat(98.0))));

        // Many small boxes: a small box is looked up in the cells, a huge one is not, and
        // every answer is that of testing every box.
        let mut seed = 7_u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32
        };
        let mut random_box = |size: f32| {
            let min = Vec2::new(next(), next()) * 4_000.0;
            (min, min + Vec2::new(next(), next()) * size + 1.0)
        };
        let boxes: Vec<_> = (0..200).map(|_| random_box(40.0)).collect();
        let grid = BoxGrid::new(&boxes);
        assert!(grid.walks_cells(boxes[0]), "a box of the cells' size");
        for size in [10.0, 40.0, 400.0, 20_000.0] {
            for _ in 0..200 {
                let query = random_box(size);
                let margin = Vec2::splat(NEAR_MARGIN);
                let every = boxes.iter().any(|&(bmin, bmax)| {
                    query.0.cmple(bmax + margin).all() && (bmin - margin).cmple(query.1).all()
                });
                assert_eq!(grid.touches(query), every, "{query:?}");
            }
        }
        assert!(!grid.walks_cells((Vec2::ZERO, Vec2::splat(20_000.0))));
    }
}
