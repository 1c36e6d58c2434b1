//! Collision events (R-GAME-1): when a reported pair starts and stops touching.
//!
//! A body opts in with [`BodyDesc::collision_events`] or
//! [`World::set_collision_events`]; a pair is reported when either of its bodies opted in or
//! is a sensor (a sensor exists to report its overlaps). After each step
//! [`World::collision_events`] holds that step's events; the next step clears them first.
//!
//! The world remembers the reported pairs that touch, by the handle bits of the two bodies
//! (or of the wall and the body), with the last step that found them in contact. Each step
//! looks up the reported pairs among its contacts and sensor overlaps: a pair not yet known
//! has started. Then every known pair the step did not find has ended, unless the step could
//! not have found it: when neither of its bodies was an awake dynamic body (two sleepers, a
//! sleeper and a static body, a sleeper and a wall), the pair is untested and still touches.
//! So an island falling asleep ends nothing and waking starts nothing again: a contact
//! period has exactly one start and one end. A removed body's pairs end in the next step
//! (the event names its stale handle), as do pairs that are no longer reported (both bodies
//! opted out) or no longer touch because of new layers.
//!
//! Only reported pairs are remembered, so a world in which no body opted in does no work
//! here; with every body opted in, the cost is one hash lookup per contact and one pass over
//! the remembered pairs per step.

use std::collections::hash_map::Entry;
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

/// What is remembered of a touching pair.
#[derive(Clone, Copy, Debug)]
struct Touch {
    /// The last step (its number before it ran) that found the pair touching.
    seen: u64,
    /// A sensor's overlap.
    sensor: bool,
}

/// A hash of pair keys, which are two well-spread integers: a multiply and a rotation per
/// word, then the high half folded onto the low half (which picks the bucket). The
/// standard hasher (SipHash) is built to resist chosen keys, and costs several times as
/// much per lookup; pair keys come from the world, not from an adversary. Deterministic,
/// so that two worlds fed the same calls report the same events in the same order.
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
    touching: HashMap<PairKey, Touch, BuildHasherDefault<PairHasher>>,
    events: Vec<CollisionEvent>,
}

impl ContactEvents {
    /// Forgets the last step's events (at the start of a step).
    pub(super) fn clear_events(&mut self) {
        self.events.clear();
    }

    /// Notes that the pair `key` touches in step `now`; a pair not touching before starts,
    /// with the event `started()`.
    #[inline]
    fn touch(
        &mut self,
        key: PairKey,
        now: u64,
        sensor: bool,
        started: impl FnOnce() -> CollisionEvent,
    ) {
        match self.touching.entry(key) {
            Entry::Occupied(mut touch) => touch.get_mut().seen = now,
            Entry::Vacant(place) => {
                place.insert(Touch { seen: now, sensor });
                self.events.push(started());
            }
        }
    }
}

/// The handle packed in `bits` (`BodyHandle::to_bits`).
fn handle_of(bits: u64) -> BodyHandle {
    BodyHandle { index: bits as u32, generation: (bits >> 32) as u32 }
}

/// The two sides of a pair key: a body and a body, or a wall (A in the key) and a body.
fn sides(key: PairKey) -> (BodyHandle, BodyOrWall) {
    if (key.0 >> 32) as u32 == WALL_GENERATION {
        (handle_of(key.1), BodyOrWall::Wall(WallId::ALL[key.0 as u32 as usize]))
    } else {
        (handle_of(key.0), BodyOrWall::Body(handle_of(key.1)))
    }
}

impl World {
    /// The collision events of the last step (R-GAME-1): the starts in the order of the
    /// step's contacts (body pairs, wall contacts, sensor overlaps), then the ends in the
    /// order of their pairs. Cleared at the start of the next step.
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
        let index = self.slot_of(handle)?;
        self.update_contact_rules(index, |body| set_flag(&mut body.contact_flags, REPORTS, report));
        Ok(())
    }

    /// Finds the step's starting and ending reported pairs (see the module docs); the last
    /// phase of the step, with this step's contacts, impulses and awake flags at hand.
    pub(super) fn report_collision_events(&mut self) {
        let tracker = &mut self.contact_events;
        if self.flagged_bodies == 0 && tracker.touching.is_empty() {
            return;
        }
        let now = self.steps;
        let scratch = &self.scratch;
        if self.flagged_bodies > 0 {
            // Filled by `gather_bodies` while some body has flags.
            let flags = &scratch.contact_flags[..];
            let body_contacts = scratch.body_contact_count;
            let contacts = scratch.contacts.iter().zip(&scratch.contact_keys);
            for (i, (c, &key)) in contacts.enumerate() {
                let body_pair = i < body_contacts;
                // A wall contact's A is the wall (its solver index lies past the slots).
                let reported =
                    flags[c.b as usize] | if body_pair { flags[c.a as usize] } else { 0 };
                if reported == 0 {
                    continue;
                }
                tracker.touch(key, now, false, || {
                    let (a, b) = sides(key);
                    // A wall contact's normal points from the wall to the body: turned round,
                    // from the body (A of the event) to the wall.
                    let normal = if body_pair { c.normal } else { -c.normal };
                    let normal_impulse = c.total_normal_impulse();
                    CollisionEvent::Started {
                        a,
                        b,
                        point: c.point,
                        normal,
                        normal_impulse,
                        sensor: false,
                    }
                });
            }
            for overlap in &scratch.sensor_overlaps {
                let (a, b) = (
                    &scratch.colliders[overlap.a as usize],
                    &scratch.colliders[overlap.b as usize],
                );
                let key = (a.handle_bits, b.handle_bits);
                let m = overlap.manifold;
                tracker.touch(key, now, true, || {
                    let (a, b) = sides(key);
                    CollisionEvent::Started {
                        a,
                        b,
                        point: m.point,
                        normal: m.normal,
                        normal_impulse: 0.0,
                        sensor: true,
                    }
                });
            }
        }
        // The pairs this step did not find: ended, unless untested (both sides passive) and
        // still reported.
        let (slots, slot_of_id, awake) = (&self.slots, &self.slot_of_id, &scratch.awake_dynamic);
        let untested = |bits: u64| -> Option<u8> {
            let index = *slot_of_id.get(bits as u32 as usize)? as usize;
            let slot = &slots[index];
            let body = slot.body.as_ref().filter(|_| slot.handle_bits() == bits)?;
            (!awake.get(index).copied().unwrap_or(false)).then_some(body.contact_flags)
        };
        let still_touching = |key: PairKey| {
            let flags_b = untested(key.1);
            let flags_a =
                if (key.0 >> 32) as u32 == WALL_GENERATION { Some(0) } else { untested(key.0) };
            matches!((flags_a, flags_b), (Some(a), Some(b)) if a | b != 0)
        };
        let first_end = tracker.events.len();
        let events = &mut tracker.events;
        tracker.touching.retain(|&key, touch| {
            let keep = touch.seen == now || still_touching(key);
            if !keep {
                let (a, b) = sides(key);
                events.push(CollisionEvent::Ended { a, b, sensor: touch.sensor });
            }
            keep
        });
        // In the order of their pairs, not of the hash table.
        events[first_end..].sort_unstable_by_key(CollisionEvent::pair);
    }
}
