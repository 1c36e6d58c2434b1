//! Collision events (R-GAME-1): when a reported pair starts and stops touching.
//!
//! A body opts in with [`BodyDesc::collision_events`] or
//! [`World::set_collision_events`]; a pair is reported when either of its bodies opted in or
//! is a sensor (a sensor exists to report its overlaps). After each step
//! [`World::collision_events`] holds that step's events; the next step clears them first.
//!
//! Each contact period of a reported pair has exactly one start and one end:
//!
//! - **Contacts** (body–body and wall) are followed by the warm-start cache, which already
//!   keeps every touching pair from one step to the next, sleeping pairs included, and looks
//!   each contact up once per step (`solve_velocities`). Each entry carries a `reported` bit.
//!   A contact reported now whose entry was not reported has started; a reported entry that
//!   leaves the cache (its pair no longer touches: `store_impulses`) has ended. The cache
//!   keeps the pairs that the step could not test, those of which neither body was an awake
//!   dynamic body (two sleepers, a sleeper and a static body, a sleeper and a wall); they
//!   still touch. So an island falling asleep ends nothing and waking starts nothing again.
//! - **Sensor overlaps** have no cache entry: the world keeps the reported ones in a hash
//!   map with the last step that found them, with the same rule for untested pairs.
//!
//! A removed body's pairs end in the next step (the event names its stale handle), as do
//! pairs that are no longer reported (both bodies opted out) or no longer touch because of
//! new layers, and `World::clear` ends every pair.
//!
//! A world in which no body has flags does no work here. With every body reporting, a step
//! reads one more bit per cache lookup and compares it per contact; no hashing.

use std::hash::{BuildHasherDefault, Hasher};

use super::filters::set_flag;
use super::*;
use crate::physics::body::REPORTS;

/// A reported pair starting or stopping to touch (R-GAME-1).
///
/// `a` is always a body: the one of the lower handle index for two bodies, the body for a
/// body and a wall. Read them with [`World::collision_events`] after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionEvent {
    /// The pair touches this step and did not in the step before.
    Started {
        /// Body A.
        a: BodyHandle,
        /// What A touches: a body or a wall.
        b: BodyOrWall,
        /// Contact point, px (the middle of the overlap, as [`ContactInfo::point`]).
        point: Vec2,
        /// Unit normal from A to B.
        normal: Vec2,
        /// The normal impulse of this step on B (A received the opposite), including the
        /// bounce: how hard the two met. 0 for a sensor's overlap.
        normal_impulse: f32,
        /// Whether this is a sensor's overlap, which no impulse acts on (R-GAME-2).
        sensor: bool,
    },
    /// The pair touched and does not any more (or one of its bodies was removed).
    Ended {
        /// Body A (a stale handle if A was removed).
        a: BodyHandle,
        /// What A touched.
        b: BodyOrWall,
        /// Whether it was a sensor's overlap.
        sensor: bool,
    },
}

impl CollisionEvent {
    /// The two sides of the pair.
    pub fn pair(&self) -> (BodyHandle, BodyOrWall) {
        match *self {
            CollisionEvent::Started { a, b, .. } | CollisionEvent::Ended { a, b, .. } => (a, b),
        }
    }

    /// Whether it is a sensor's overlap.
    pub fn is_sensor(&self) -> bool {
        match *self {
            CollisionEvent::Started { sensor, .. } | CollisionEvent::Ended { sensor, .. } => sensor,
        }
    }

    /// What `body` touches in this event: the other side, if `body` is one of the two.
    pub fn partner_of(&self, body: BodyHandle) -> Option<BodyOrWall> {
        match self.pair() {
            (a, b) if a == body => Some(b),
            (a, BodyOrWall::Body(b)) if b == body => Some(BodyOrWall::Body(a)),
            _ => None,
        }
    }
}

/// A hash of pair keys (two well-spread integers) for the sensors' overlaps: a multiply and
/// a rotation per word, then the high half folded onto the low half, which picks the bucket.
/// The standard hasher (SipHash) resists chosen keys at several times the cost; pair keys
/// come from the world, not from an adversary. Deterministic, so that two worlds fed the
/// same calls report the same events in the same order.
#[derive(Clone, Copy, Debug, Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        // 2⁶⁴/φ: odd, with well-mixed bits.
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

/// The reported pairs that touch and the last step's events.
#[derive(Clone, Debug, Default)]
pub(super) struct ContactEvents {
    /// The sensors' reported overlaps (contacts are followed by the warm-start cache).
    /// Each with the last step (its number before it ran) that found it.
    touching: HashMap<PairKey, u64, BuildHasherDefault<PairHasher>>,
    events: Vec<CollisionEvent>,
    /// Ends found before the step reports: by `store_impulses` (pairs that left the cache
    /// or stopped being reported while asleep) and by `World::clear`.
    pub(super) pending_ends: Vec<CollisionEvent>,
    /// Reported pairs the cache kept without a contact this step (asleep), counted by
    /// `store_impulses`.
    pub(super) kept_reported: usize,
    /// Reported pairs in the cache after the last step: while there are any, or any body
    /// has flags, the step follows the contacts' `reported` bits.
    cached_reported: usize,
}

impl ContactEvents {
    /// The sensors' overlaps in progress, each with the last step that found it, sorted by
    /// pair, and the ends waiting for the next step: what carries over to the next step
    /// (a scene file's solver state, `world/scene.rs`).
    pub(super) fn carried_over(&self) -> (Vec<(PairKey, u64)>, &[CollisionEvent]) {
        let mut overlaps: Vec<(PairKey, u64)> =
            self.touching.iter().map(|(&k, &s)| (k, s)).collect();
        overlaps.sort_unstable();
        (overlaps, &self.pending_ends)
    }

    /// The events' state carried over from a step: the sensors' `overlaps`, the `pending`
    /// ends, and how many pairs the warm-start cache holds as reported.
    pub(super) fn restored(
        overlaps: impl IntoIterator<Item = (PairKey, u64)>,
        pending: Vec<CollisionEvent>,
        cached_reported: usize,
    ) -> Self {
        ContactEvents {
            touching: overlaps.into_iter().collect(),
            pending_ends: pending,
            cached_reported,
            ..ContactEvents::default()
        }
    }

    /// Forgets the last step's events (at the start of a step).
    pub(super) fn clear_events(&mut self) {
        self.events.clear();
    }

    /// Ends every reported pair the cache holds (its bodies are all being removed).
    pub(super) fn end_all_cached(&mut self, cache: &ContactCache) {
        let ends = cache.reported_keys().map(ended);
        self.pending_ends.extend(ends);
        self.cached_reported = 0;
    }

    /// Notes that the overlap `key` is found in step `now`; one not found before starts,
    /// with the event `started()`.
    fn touch(&mut self, key: PairKey, now: u64, started: impl FnOnce() -> CollisionEvent) {
        // Most pairs touched last step too: a lookup, and a second hash only for a new pair.
        if let Some(seen) = self.touching.get_mut(&key) {
            *seen = now;
        } else {
            self.touching.insert(key, now);
            self.events.push(started());
        }
    }
}

/// The end of the contact of pair `key` (contacts are never a sensor's).
pub(super) fn ended(key: PairKey) -> CollisionEvent {
    let (a, b) = sides(key);
    CollisionEvent::Ended { a, b, sensor: false }
}

/// The two sides of a pair key: a body and a body, or a wall (A in the key) and a body.
fn sides(key: PairKey) -> (BodyHandle, BodyOrWall) {
    if (key.0 >> 32) as u32 == WALL_GENERATION {
        (BodyHandle::from_bits(key.1), BodyOrWall::Wall(WallId::ALL[key.0 as u32 as usize]))
    } else {
        (BodyHandle::from_bits(key.0), BodyOrWall::Body(BodyHandle::from_bits(key.1)))
    }
}

impl World {
    /// The collision events of the last step (R-GAME-1): the ends in the order of their
    /// pairs, then the starts in the order of the step's contacts (body pairs, wall
    /// contacts, sensor overlaps). Cleared at the start of the next step.
    pub fn collision_events(&self) -> &[CollisionEvent] {
        &self.contact_events.events
    }

    /// Whether the contacts of a body are reported as [`CollisionEvent`]s (R-GAME-1). Takes
    /// effect in the next step; switching it off ends the body's reported pairs there,
    /// unless the other body reports them too. Wakes nothing: the physics is unchanged.
    pub fn set_collision_events(
        &mut self,
        handle: BodyHandle,
        report: bool,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        self.update_contact_rules(index, |body| set_flag(&mut body.flags, REPORTS, report));
        Ok(())
    }

    /// Whether the step follows its contacts' `reported` bits: while some body has flags
    /// or the cache holds reported pairs (which may end).
    pub(super) fn follows_contacts(&self) -> bool {
        self.flagged_bodies > 0 || self.contact_events.cached_reported > 0
    }

    /// Which of the step's contacts are reported, into `scratch.reported`: those with a
    /// body that has flags (none while no body has any), and that touch
    /// (`SolverContact::touches`): a stacking contact still a gap apart (D14) is reported
    /// only once the solver pushed on it.
    pub(super) fn find_reported_contacts(&mut self) {
        let scratch = &mut self.scratch;
        scratch.reported.clear();
        if self.flagged_bodies == 0 {
            return;
        }
        // Filled by `gather_bodies` while some body has flags.
        let flags = &scratch.contact_flags[..];
        let body_contacts = scratch.body_contact_count;
        scratch.reported.extend(scratch.contacts.iter().enumerate().map(|(i, c)| {
            // A wall contact's A is the wall (its solver index lies past the slots).
            let a = if i < body_contacts { flags[c.a as usize] } else { 0 };
            a | flags[c.b as usize] != 0 && c.touches()
        }));
    }

    /// Finds the step's starting and ending reported pairs (see the module docs); the last
    /// phase of the step, with this step's contacts, impulses and awake flags at hand.
    pub(super) fn report_collision_events(&mut self) {
        if !self.follows_contacts()
            && self.contact_events.touching.is_empty()
            && self.contact_events.pending_ends.is_empty()
        {
            return;
        }
        let mut ends = std::mem::take(&mut self.contact_events.pending_ends);
        if self.follows_contacts() {
            self.report_contacts(&mut ends);
        }
        self.report_overlaps(&mut ends);
        // The ends first, in the order of their pairs: a pair that turns from a contact into
        // a sensor's overlap (or back) ends one period and starts the next in the same step.
        ends.sort_unstable_by_key(CollisionEvent::pair);
        let events = &mut self.contact_events.events;
        events.extend_from_slice(&ends);
        events.rotate_right(ends.len());
        ends.clear();
        self.contact_events.pending_ends = ends; // the buffer, for the next step
    }

    /// The contacts: each one's `reported` bit of last step (`scratch.was_reported`, from
    /// the cache) against this step's. Pairs that left the cache ended in `store_impulses`.
    fn report_contacts(&mut self, ends: &mut Vec<CollisionEvent>) {
        let mut reported_now = 0;
        let scratch = &self.scratch;
        let contacts =
            scratch.contacts.iter().zip(&scratch.contact_keys).zip(&scratch.was_reported);
        for (i, ((c, &key), &was)) in contacts.enumerate() {
            let now = scratch.reported.get(i).copied().unwrap_or(false);
            reported_now += usize::from(now);
            if now && !was {
                let (a, b) = sides(key);
                // A wall contact's normal points from the wall to the body: turned round,
                // from the body (A of the event) to the wall.
                let normal = if i < scratch.body_contact_count { c.normal } else { -c.normal };
                let normal_impulse = c.total_normal_impulse();
                self.contact_events.events.push(CollisionEvent::Started {
                    a,
                    b,
                    point: c.point,
                    normal,
                    normal_impulse,
                    sensor: false,
                });
            } else if was && !now {
                ends.push(ended(key)); // still touching, no longer reported
            }
        }
        self.contact_events.cached_reported = self.contact_events.kept_reported + reported_now;
    }

    /// The sensors' overlaps, followed in a hash map: a pair not yet known has started;
    /// a known pair not found has ended unless the step could not have found it.
    fn report_overlaps(&mut self, ends: &mut Vec<CollisionEvent>) {
        let tracker = &mut self.contact_events;
        let now = self.steps;
        let scratch = &self.scratch;
        // Each pair comes once: `found` counts the distinct pairs.
        let mut found = 0;
        for overlap in &scratch.sensor_overlaps {
            let (a, b) =
                (&scratch.colliders[overlap.a as usize], &scratch.colliders[overlap.b as usize]);
            let key = (a.handle_bits, b.handle_bits);
            let m = overlap.manifold;
            found += 1;
            tracker.touch(key, now, || {
                let (a, b) = sides(key);
                let (point, normal) = (m.point, m.normal);
                CollisionEvent::Started { a, b, point, normal, normal_impulse: 0.0, sensor: true }
            });
        }
        if found == tracker.touching.len() {
            return; // every pair overlapping before was found again: none ended
        }
        // The pairs this step did not find: ended, unless untested (both sides passive) and
        // still reported.
        let (slots, slot_of_id, awake) = (&self.slots, &self.slot_of_id, &scratch.awake_dynamic);
        let untested = |bits: u64| -> Option<u8> {
            let index = *slot_of_id.get(bits as u32 as usize)? as usize;
            let slot = &slots[index];
            let body = slot.body.as_ref().filter(|_| slot.handle_bits() == bits)?;
            (!awake.get(index).copied().unwrap_or(false)).then_some(body.contact_flags())
        };
        let still_touching = |key: PairKey| matches!((untested(key.0), untested(key.1)), (Some(a), Some(b)) if a | b != 0);
        tracker.touching.retain(|&key, &mut seen| {
            let keep = seen == now || still_touching(key);
            if !keep {
                let (a, b) = sides(key);
                ends.push(CollisionEvent::Ended { a, b, sensor: true });
            }
            keep
        });
    }
}
