//! The settling before sleep (§11, deviation D9 of docs/physics.md): an island about to fall
//! asleep with a contact deeper than sleep allows gets more projection passes over its own
//! contacts first, so that sleep freezes no overlap (R-REST-2). An island that no settling can
//! free, its bodies still between three failures in a row, sleeps as it is (D17).

use super::settle_overlaps::overlaps_after_settling;
use super::sleep::DEEP_FOR_SLEEP;
use super::walls::{SettleWalls, centre_settled_wider_bodies};
use super::*;
use crate::physics::body::settle_failures;

impl World {
    /// An island about to fall asleep with a contact deeper than slop + 0.5 px is settled
    /// first (§11, deviation D9 of docs/physics.md): more projection passes over its
    /// contacts alone, bottom first (`Projection::settle`), up to [`SETTLE_PASSES`], until
    /// every one is within slop + 0.25 px, taking out only what lies deeper than slop +
    /// 0.125 px. If one is still deeper than slop + 0.5 px after them, or a body they moved
    /// now overlaps a neighbour or a wall that much (`overlaps_after_settling`, tested
    /// exactly, with the step's pair rule: no sensor, layers that interact), or a
    /// contact was deeper than slop + [`SETTLE_REACH`] before, the island stays awake as it
    /// was, and the bodies of its deep contacts start their rest again; at the third such
    /// failure in a row with those bodies still, it falls asleep as it is instead
    /// ([`SETTLE_ATTEMPTS`], deviation D17).
    ///
    /// Why: R-REST-2 asks that sleep freeze no overlap deeper than slop + 0.5 px. In a
    /// pile of very unequal masses a few contacts stay that deep for good (steel pressed
    /// into wood: every step's velocity passes leave the steel sinking a little, and the
    /// step's two projection passes lift it back as far), so their island could never
    /// sleep. Once it sleeps nothing sinks any more, and the extra passes take the overlap
    /// out for good. With the projection switched off (R-LAB-1) nothing is settled: such
    /// an island stays awake.
    pub(super) fn settle_before_sleep(&mut self) {
        let down = self.stacking_direction();
        let (brake_bounds, open, enabled) =
            (self.brake_bounds(), self.open_bounds(), self.wall_enabled);
        let time_to_sleep = self.config.time_to_sleep;
        let n = self.slots.len();
        let scratch = &mut self.scratch;
        let (roots, island_rest) = (&scratch.island_root[..n], &mut scratch.island_rest[..]);
        // The islands to settle, marked at their roots: ready, with a deep body.
        let settling = &mut scratch.settling;
        settling.clear();
        settling.resize(scratch.positions.len(), false);
        let mut any = false;
        for (&deep, &root) in scratch.deep.iter().zip(roots) {
            if deep && root != u32::MAX && island_rest[root as usize] >= time_to_sleep {
                settling[root as usize] = true;
                any = true;
            }
        }
        if !any {
            return;
        }
        // Then every body of those islands, at its position after the brake.
        for index in 0..n {
            let root = roots[index];
            if root != u32::MAX && settling[root as usize] {
                settling[index] = true;
                if let Some(body) = &self.slots[index].body {
                    scratch.positions[index] = body.position;
                }
            }
        }
        let (positions, starts) = (&mut scratch.positions, &scratch.start_positions);
        let walls = SettleWalls { walls: &self.walls, enabled, open, brake: brake_bounds, starts };
        let slop = self.config.penetration_slop;
        // An island with a contact beyond the passes' reach stays awake, whole; its bodies
        // that deep count the failure (D17) and start their rest again, as those of a failed
        // settling do below.
        scratch.projection.keep_only(settling, &mut scratch.settle_projection);
        let deep = &mut scratch.deep;
        scratch.settle_projection.mark_deep(positions, starts, slop + SETTLE_REACH, deep);
        let wedged = &mut scratch.wedged;
        wedged.clear();
        wedged.resize(n, Wedged::Unknown);
        let mut hopeless = false;
        for (index, slot) in self.slots.iter_mut().enumerate() {
            let Some(body) = slot.body.as_mut().filter(|_| settling[index] && deep[index]) else {
                continue;
            };
            let root = roots[index] as usize;
            island_rest[root] = 0.0;
            wedged[root] = wedged[root].count(count_failed_settling(body));
            body.rest_time = 0.0;
            hopeless = true;
        }
        if hopeless {
            for index in 0..n {
                let root = roots[index];
                settling[index] &= root != u32::MAX && island_rest[root as usize] >= time_to_sleep;
            }
            scratch.projection.keep_only(settling, &mut scratch.settle_projection);
        }
        let projecting = self.config.position_correction == PositionCorrection::Projection;
        // Only what lies deeper than slop + 0.25 px is taken out, down to slop + 0.125 px:
        // the contacts a pile rests on at about the slop stay as they are, so the columns
        // are lifted by their deep contacts' excess alone, not by every contact's.
        let settings = ProjectionSettings {
            iterations: SETTLE_PASSES,
            factor: self.config.position_correction_factor,
            slop: slop + 0.25 * DEEP_FOR_SLEEP,
            max_correction: self.config.max_position_correction,
        };
        let target = slop + 0.5 * DEEP_FOR_SLEEP;
        if projecting {
            scratch.settle_projection.settle(positions, starts, &settings, down, target);
            // The passes know only the step's contacts: a body they moved may now overlap
            // a neighbour or a wall it did not touch at the step's start. Such pairs, found
            // exactly, join the contacts (a wall, or a neighbour outside the settling
            // islands, as immovable), and the passes run again, for a few rounds.
            for _ in 0..SETTLE_ROUNDS {
                let at = |index: usize, body: &Body| {
                    if settling[index] { positions[index] } else { body.position }
                };
                let found = overlaps_after_settling(&self.slots, &walls, at, settings.slop);
                if found.is_empty() {
                    break;
                }
                // Walls come after the slots.
                let inverse_mass = |index: usize| {
                    let body = self.slots.get(index).and_then(|slot| slot.body.as_ref());
                    body.filter(|_| settling[index]).map_or(0.0, |b| b.inverse_mass)
                };
                for o in found {
                    scratch.settle_projection.add_found(
                        (o.moved as u32, o.other as u32),
                        o.normal,
                        o.depth,
                        (inverse_mass(o.moved), inverse_mass(o.other)),
                        positions,
                        starts,
                    );
                }
                scratch.settle_projection.settle(positions, starts, &settings, down, target);
            }
            // A body wider than the world stays centred (D3, `forget_centred_wall_contacts`).
            centre_settled_wider_bodies(&self.slots, settling, positions, brake_bounds);
        }
        // Whatever is still deeper than sleep allows keeps its island awake; the others
        // take their settled positions.
        scratch.settle_projection.mark_deep(positions, starts, slop + DEEP_FOR_SLEEP, deep);
        for index in (0..n).filter(|&index| settling[index] && deep[index]) {
            island_rest[roots[index] as usize] = 0.0;
        }
        // The passes know only the step's contacts: a body they moved may now overlap a
        // neighbour or a wall it did not touch at the step's start, and sleep would freeze
        // that. Every moved body is tested exactly against the bodies near it and the walls.
        let at = |index: usize, body: &Body| {
            let root = roots[index];
            let settles = settling[index] && island_rest[root as usize] >= time_to_sleep;
            if settles { positions[index] } else { body.position }
        };
        for overlap in overlaps_after_settling(&self.slots, &walls, at, slop + DEEP_FOR_SLEEP) {
            island_rest[roots[overlap.moved] as usize] = 0.0;
        }
        // A failed island's bodies still too deep count the failure; one whose every such
        // body has now failed SETTLE_ATTEMPTS times in a row is wedged: it sleeps as it is.
        // (An island beyond reach counted its failure above, and settles nothing here.)
        let wedged = &mut scratch.wedged;
        for (index, slot) in self.slots.iter_mut().enumerate() {
            let Some(body) = slot.body.as_mut() else { continue };
            let root = roots[index] as usize;
            if root == u32::MAX as usize
                || !settling[root]
                || island_rest[root] >= time_to_sleep
                || !deep[index]
            {
                continue;
            }
            wedged[root] = wedged[root].count(count_failed_settling(body));
        }
        for (rest, _) in island_rest.iter_mut().zip(&*wedged).filter(|w| *w.1 == Wedged::Yes) {
            *rest = time_to_sleep;
        }
        let island_rest = &*island_rest;
        for (index, slot) in self.slots.iter_mut().enumerate() {
            let Some(body) = slot.body.as_mut() else { continue };
            let root = roots[index];
            if root == u32::MAX || !scratch.settling[root as usize] {
                continue;
            }
            if scratch.wedged[root as usize] == Wedged::Yes {
                // Asleep where it is, its overlaps as the step's passes hold them.
            } else if island_rest[root as usize] >= time_to_sleep {
                // Put there, not moved there: the pose it is drawn at from the step's
                // start on, too. It sleeps, so no later step remembers its pose again
                // (a world asleep skips its steps), and interpolation would draw it
                // between the two poses for good.
                body.position = scratch.positions[index];
                body.previous_position = body.position;
            } else if scratch.deep[index] {
                body.rest_time = 0.0;
            }
        }
    }
}

/// Whether a failed settling's island is wedged (D17), read at its root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Wedged {
    /// No body of it counted yet.
    #[default]
    Unknown,
    /// Every body still too deep has failed [`SETTLE_ATTEMPTS`] times in a row.
    Yes,
    /// Some body still too deep has failed fewer times.
    No,
}

impl Wedged {
    /// The island's answer once one more of its bodies still too deep has counted
    /// `failures` failed settlings in a row.
    fn count(self, failures: u8) -> Self {
        match self {
            Self::Unknown | Self::Yes if failures == SETTLE_ATTEMPTS => Self::Yes,
            _ => Self::No,
        }
    }
}

/// Counts a failed settling for a body still too deep after it (D17), and returns the count:
/// one more if it stayed within [`WEDGED_DRIFT`] of where its rest began (where the last
/// failure restarted it), else 1, a new run; at most [`SETTLE_ATTEMPTS`].
fn count_failed_settling(body: &mut Body) -> u8 {
    let stayed = (body.position - body.anchor).length_squared() <= WEDGED_DRIFT * WEDGED_DRIFT;
    let failures = if stayed { settle_failures(body.flags) + 1 } else { 1 };
    let failures = failures.min(SETTLE_ATTEMPTS);
    body.flags = (body.flags & !SETTLE_FAILURES) | (failures * SETTLE_FAILURE);
    failures
}

/// How many settlings in a row must have failed for an island's bodies still too deep after
/// them, each staying where it was in between, for the island to fall asleep as it is (§11,
/// deviation D17 of docs/physics.md): the third failure, two rests of `time_to_sleep` after
/// the first (1 s at the defaults). At most 3, the count's two bits ([`SETTLE_FAILURES`]).
///
/// Why: an island the passes cannot settle because its bodies do not fit (a column of
/// boxes from the floor to the ceiling, taller than the world) would fail every
/// `time_to_sleep` for good, and stay awake paying a whole step, its bodies still. No
/// motion can take that overlap out, so R-REST-2 cannot be met there; the island keeps
/// the overlaps it holds, which the step's passes hold at their least.
pub(super) const SETTLE_ATTEMPTS: u8 = 3;

/// How far a body may have moved between two failed settlings of its island and still
/// count as having stayed where it was, px (D17). A wedged column does not move at all; a
/// pile whose deep contact the step's passes are still working out moves more than this in
/// the 0.5 s between two tries.
const WEDGED_DRIFT: f32 = 0.01;

/// How many projection passes at most settle an island before it sleeps (D9).
const SETTLE_PASSES: u32 = 128;

/// The deepest contact an island may have beyond the slop, px, for the passes to settle
/// it before it sleeps (D9): as far as one of the step's own passes may move a contact
/// (the default `max_position_correction`). Deeper overlaps, of a body squeezed against a
/// wall, are left to the step's own passes; an island that deep whose bodies stay still
/// through three tries sleeps as it is (D17). (The walls a body wider than the world is
/// centred between are not among its contacts: `forget_centred_wall_contacts`.)
///
/// It was 2 px, a few times what sleep allows, until `mixed(2000, 1)` was traced: an ice
/// circle on the floor under a force chain of the pile (a normal impulse of 2.7·10⁶ a step)
/// held the box above it 3.4 px deep, shrinking by about 0.1 px/s, so its island, at rest
/// from 12 s on, stayed awake until the contact came within reach at 20.7 s (18.0 s after the
/// last arrival). With 6 px it sleeps 5.60 s after the last arrival, every contact settled
/// (the exact test of the moved bodies still guards R-REST-2); the other piles and
/// R-SLP-5's 40 seeds of `mixed(60, s)` sleep at the same step as before, and so they do
/// with no reach at all.
const SETTLE_REACH: f32 = 6.0;

/// How many times at most the settling of D9 adds the pairs it made overlap and runs its
/// passes again.
const SETTLE_ROUNDS: usize = 4;
