//! The walls in the step: contacts of the bodies with the four half-planes (§5), the
//! emergency brake that keeps bodies from sinking deep into a wall (§10), and switching
//! walls off for open worlds (R-GAME-7).
//!
//! # Open worlds
//! A switched-off wall has no contacts and no brake: bodies pass its line and keep going at
//! their velocity, falling forever through an open floor (until the speed limit of §12
//! holds them at `max_speed`). The bounds stay the rectangle of the four wall lines; only
//! what they restrict changes. Seen from the step, a switched-off wall moves to infinity:
//! the *open bounds* are the bounds with the side of each switched-off wall at ±∞, and every
//! rule that kept bodies inside the bounds keeps them inside the open bounds instead:
//! where a body may be added or teleported, where a drag target is clamped, the wall
//! contacts and the brake. A body wider than the world is centred only between two walls
//! that both act (D3); with one of them off the other pushes it out as usual.

use super::*;
use crate::physics::collision::{Manifold, WallId};

impl World {
    /// Switches one wall on or off (R-GAME-7) and wakes every body, so that a pile resting
    /// on a floor that went away falls. A switched-off wall has no contacts and no
    /// brake; bodies may be added, teleported and dragged beyond its line. Switched on
    /// again, it pushes the dynamic bodies behind it back in like any wall (with contacts
    /// and, past `max_wall_penetration`, the brake), and the drag targets beyond it are
    /// clamped back inside (R-DRAG-1).
    pub fn set_wall_enabled(&mut self, wall: WallId, enabled: bool) {
        self.edited();
        if self.wall_enabled[wall.index()] != enabled {
            self.wall_enabled[wall.index()] = enabled;
            self.clamp_drag_targets();
            self.wake_all();
        }
    }

    /// Whether a wall acts (all four do unless switched off).
    pub fn wall_enabled(&self, wall: WallId) -> bool {
        self.wall_enabled[wall.index()]
    }

    /// The bounds with the side of each switched-off wall at ±∞: where bodies may be placed
    /// and where the walls keep them. Equal to the bounds while all four walls act.
    pub(super) fn open_bounds(&self) -> (Vec2, Vec2) {
        let [left, right, top, floor] = self.wall_enabled;
        let open = |on: bool, at: f32, away: f32| if on { at } else { away };
        let (min, max) = (self.bounds_min, self.bounds_max);
        (
            Vec2::new(open(left, min.x, f32::NEG_INFINITY), open(top, min.y, f32::NEG_INFINITY)),
            Vec2::new(open(right, max.x, f32::INFINITY), open(floor, max.y, f32::INFINITY)),
        )
    }

    /// Where a body's centre may be placed: the open bounds, each open side ending
    /// [`MAX_COORDINATE`] from the origin (`set_bounds` keeps the walls within it).
    pub(super) fn placement_bounds(&self) -> (Vec2, Vec2) {
        let (min, max) = self.open_bounds();
        (min.max(Vec2::splat(-MAX_COORDINATE)), max.min(Vec2::splat(MAX_COORDINATE)))
    }

    /// Where the centre of a body of `kind` may be placed, for error messages (see
    /// [`can_place`](Self::can_place)).
    pub(super) fn placement_range(&self, kind: BodyKind) -> String {
        if kind == BodyKind::Dynamic {
            let (min, max) = self.placement_bounds();
            format!("inside the world {min} ..= {max}")
        } else {
            format!("within {MAX_COORDINATE:e} px of the origin on each axis")
        }
    }
}

/// Whether the box `(low, high)` lies strictly inside the bounds `(min, max)`:
/// `low > min` and `high < max` on both axes, tested as `(low, max) > (min, high)` in one
/// compare of four lanes (the same four IEEE compares; two Vec2 compares would take four
/// compares and branches).
#[inline]
pub(super) fn strictly_inside((low, high): (Vec2, Vec2), (min, max): (Vec2, Vec2)) -> bool {
    let greater = Vec4::new(low.x, low.y, max.x, max.y);
    let smaller = Vec4::new(min.x, min.y, high.x, high.y);
    greater.cmpgt(smaller).all()
}

/// The emergency brake: no body ends a step more than `limit` (`max_wall_penetration`)
/// inside a wall (§10, R-POS-3).
///
/// The margin (12 px) exceeds the deepest a free body can get in one step
/// (`max_speed·dt ≈ 10.8 px`), so ordinary impacts are always left to the solver; the
/// brake only acts in extreme cases, such as a dragged body squeezing another into a
/// wall. A body wider than the world is centred on that axis instead (between two walls
/// that act: with either switched off, the open bounds on that axis are infinite).
pub(super) struct WallBrake<'a> {
    pub(super) walls: &'a [Wall; WALL_COUNT],
    /// Which walls act.
    pub(super) enabled: [bool; WALL_COUNT],
    /// The open bounds (see the module docs).
    pub(super) min: Vec2,
    pub(super) max: Vec2,
    pub(super) limit: f32,
}

/// What the brake did to one body: whether it moved it, and whether it centred it on an
/// axis on which it is wider than the world (D3; `moved` is false if it was centred
/// already).
#[derive(Clone, Copy, Debug)]
pub(super) struct Braked {
    pub(super) moved: bool,
    pub(super) centred: bool,
}

impl WallBrake<'_> {
    /// Brakes one awake dynamic body.
    pub(super) fn apply(&self, body: &mut Body) -> Braked {
        let (min, max, limit) = (self.min, self.max, self.limit);
        // Strictly inside the bounds: it fits on both axes and is in no wall at all.
        let (low, high) = body.aabb();
        if strictly_inside((low, high), (min, max)) {
            return Braked { moved: false, centred: false };
        }
        let before = body.position;
        let half = body.shape.half_size();
        let wider = wider_than_bounds(half, (min, max));
        for axis in (0..2).filter(|&axis| wider[axis]) {
            body.position[axis] = 0.5 * (min[axis] + max[axis]);
            body.velocity[axis] = 0.0;
        }
        for (wall, _) in self.walls.iter().zip(self.enabled).filter(|&(_, on)| on) {
            // A body centred above cannot fit on this axis: pushing it out of one wall
            // would push it out of the world through the other.
            if wider[wall_axis(wall)] {
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
        Braked { moved: body.position != before, centred: wider[0] || wider[1] }
    }
}

/// On which axes a body of half size `half` is wider than the bounds `(min, max)` (the
/// brake's): there the brake centres it (D3).
#[inline]
pub(super) fn wider_than_bounds(half: Vec2, (min, max): (Vec2, Vec2)) -> [bool; 2] {
    [0, 1].map(|axis| 2.0 * half[axis] > max[axis] - min[axis])
}

/// The axis a wall bounds: 0 for the side walls, 1 for the top and the floor.
fn wall_axis(wall: &Wall) -> usize {
    if wall.normal.x != 0.0 { 0 } else { 1 }
}

impl World {
    /// The bounds the brake keeps bodies in: the open bounds, infinite with the rule switch
    /// `emergency_brake` off (R-LAB-1), so that every body lies strictly inside them.
    pub(super) fn brake_bounds(&self) -> (Vec2, Vec2) {
        if self.config.emergency_brake {
            self.open_bounds()
        } else {
            (Vec2::NEG_INFINITY, Vec2::INFINITY)
        }
    }

    /// Takes out of the step's projection, after its passes, the contacts of the walls on
    /// an axis on which the brake centres their body (D3), for the sleep rule of D9 that
    /// reads them next (`mark_deep`, `settle_before_sleep`).
    ///
    /// Why: such a body lies `(its size − the world's) / 2` deep in both walls of that
    /// axis for good, by design, and no projection can take that out. D9 read those two
    /// contacts as deep: a body 1000 × 40 px resting alone on the floor of an 800 × 600 px
    /// world, its rest counting on at 0 px/s, had two wall contacts 100 px deep, beyond the
    /// settling's reach (`SETTLE_REACH` past the slop), so its island was kept awake in
    /// every step from its 77th on, and never slept (nor did a circle of radius 400 centred between floor
    /// and top, or the box with two small bodies on it, within 15 s). Without those
    /// contacts they fall asleep 0.64, 0.52 and 0.93 s after the start
    /// (`a_body_wider_than_the_world_falls_asleep_once_it_rests_r_slp_3`). The brake's
    /// centring itself was never counted as motion (D6): it leaves a centred body where it
    /// is. Only worlds with such a body come here.
    pub(super) fn forget_centred_wall_contacts(&mut self) {
        let bounds = self.brake_bounds();
        let wall_base = self.slots.len() as u32;
        let (slots, walls) = (&self.slots, &self.walls);
        self.scratch.projection.remove_where(|a, b| {
            let (Some(wall), Some(body)) = (
                a.checked_sub(wall_base).and_then(|w| walls.get(w as usize)),
                slots.get(b as usize).and_then(|slot| slot.body.as_ref()),
            ) else {
                return false;
            };
            wider_than_bounds(body.shape.half_size(), bounds)[wall_axis(wall)]
        });
    }
}

/// Centres, at the settled `positions` of D9 (`settle_before_sleep`), each body of
/// `settling` that is wider than the brake's `bounds` on an axis, as the brake does at
/// every step's end (D3): the settling knows no walls on that axis, and a body must not
/// fall asleep off the centre. The exact tests that follow see it there.
pub(super) fn centre_settled_wider_bodies(
    slots: &[Slot],
    settling: &[bool],
    positions: &mut [Vec2],
    (min, max): (Vec2, Vec2),
) {
    for (index, slot) in slots.iter().enumerate().filter(|&(index, _)| settling[index]) {
        let Some(body) = &slot.body else { continue };
        let wider = wider_than_bounds(body.shape.half_size(), (min, max));
        for axis in (0..2).filter(|&axis| wider[axis]) {
            positions[index][axis] = 0.5 * (min[axis] + max[axis]);
        }
    }
}

/// What the wall test needs of the world: the four half-planes, which of them act, and the
/// open bounds.
pub(super) struct WallCollider<'a> {
    pub(super) walls: &'a [Wall; WALL_COUNT],
    pub(super) enabled: [bool; WALL_COUNT],
    pub(super) min: Vec2,
    pub(super) max: Vec2,
    /// Solver index of the first wall (the slot count).
    pub(super) wall_base: u32,
    pub(super) friction: f32,
    pub(super) restitution: f32,
    pub(super) rolling_resistance: f32,
}

impl WallCollider<'_> {
    /// Appends the contacts of the awake dynamic body in slot `index` with the walls, and
    /// their warm-start keys (§5, R-COL-6). `(min, max)` is the body's `aabb()`, which the
    /// caller has at hand.
    pub(super) fn collide(
        &self,
        index: u32,
        handle_bits: u64,
        body: &Body,
        (min, max): (Vec2, Vec2),
        (contacts, keys): (&mut Vec<SolverContact>, &mut Vec<PairKey>),
    ) {
        let (walls, open) = ((self.walls, self.enabled), (self.min, self.max));
        for_each_touching(walls, open, &body.shape, body.position, (min, max), |w, m| {
            let contact = SolverContact::new(
                self.wall_base + w as u32,
                index,
                m.normal,
                m.depth,
                m.point,
                Vec2::ZERO,
                m.point - body.position,
                collision::mixed_friction(self.friction, body.material.friction),
                collision::mixed_restitution(self.restitution, body.material.restitution),
                self.rolling_resistance * collision::wall_rolling_lever(&body.shape),
            );
            let wall_key = (u64::from(WALL_GENERATION) << 32) | w as u64;
            contacts.push(contact);
            keys.push((wall_key, handle_bits));
        });
    }
}

/// The step's wall test (§5, R-COL-6): calls `touch` with the index and the contact (A =
/// wall, B = body) of each wall that acts (`enabled`) and touches a body of `shape` at
/// `position`, whose box there is `(min, max)`. `open` are the open bounds.
#[inline(always)]
fn for_each_touching(
    (walls, enabled): (&[Wall; WALL_COUNT], [bool; WALL_COUNT]),
    open: (Vec2, Vec2),
    shape: &Shape,
    position: Vec2,
    (min, max): (Vec2, Vec2),
    mut touch: impl FnMut(usize, Manifold),
) {
    // Most bodies touch no wall: a box strictly inside the bounds touches none of the
    // four. Exact, not an estimate: `min.x > bounds.x` is the left wall's
    // `n·p − reach − offset > 0` with n = (1, 0), reach = hw; likewise for the others.
    // A switched-off wall's side of the open bounds is infinite: never touched.
    if strictly_inside((min, max), open) {
        return;
    }
    for (w, wall) in walls.iter().enumerate() {
        if !enabled[w] {
            continue;
        }
        if let Some(m) = wall.collide(shape, position) {
            touch(w, m);
        }
    }
}

/// The walls as the settling of D9 tests a body it moved against them
/// (`overlaps_after_settling`), as it tests the body's neighbours: the step's wall test at
/// the settled position.
///
/// Why: the settling's passes know only the step's contacts. A body they pushed sideways,
/// or against a neighbour found only after them, could be put into a wall it did not
/// touch, and sleep would freeze it there, or, with nothing to stop the push, outside the
/// world.
pub(super) struct SettleWalls<'a> {
    pub(super) walls: &'a [Wall; WALL_COUNT],
    /// Which walls act.
    pub(super) enabled: [bool; WALL_COUNT],
    /// The open bounds, as the step's wall test takes them.
    pub(super) open: (Vec2, Vec2),
    /// The brake's bounds: on an axis on which a body is wider, it is centred between the
    /// walls (D3), and these are not its contacts (`forget_centred_wall_contacts`).
    pub(super) brake: (Vec2, Vec2),
    /// Each solver index's position at the step's start, where the step found the walls'
    /// contacts.
    pub(super) starts: &'a [Vec2],
}

impl SettleWalls<'_> {
    /// Calls `touch` with the index and the contact (A = wall, B = body) of each wall that a
    /// body at `position` touches and that the step found no contact of (the body in slot
    /// `index` touched it not at the step's start): the contacts it had are among the
    /// settling's passes, whose depths `mark_deep` reads. The walls of an axis on which the
    /// body is wider than the brake's bounds are left out (D3).
    pub(super) fn for_each_new(
        &self,
        index: usize,
        body: &Body,
        position: Vec2,
        mut touch: impl FnMut(usize, Manifold),
    ) {
        let (shape, half, start) = (&body.shape, body.shape.half_size(), self.starts[index]);
        let walls = (self.walls, self.enabled);
        let mut touched_at_start = [false; WALL_COUNT];
        for_each_touching(walls, self.open, shape, start, (start - half, start + half), |w, _| {
            touched_at_start[w] = true
        });
        let wider = wider_than_bounds(half, self.brake);
        let box_there = (position - half, position + half);
        for_each_touching(walls, self.open, shape, position, box_there, |w, m| {
            if !touched_at_start[w] && !wider[wall_axis(&self.walls[w])] {
                touch(w, m);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D3 at D9's settled positions (R-POS-3): a settling body wider than the world on x
    /// goes back to the centre on x alone, one that fits and one not settling stay where
    /// the passes left them.
    #[test]
    fn the_settling_puts_a_body_wider_than_the_world_back_at_the_centre_r_pos_3() {
        let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).unwrap();
        let wide = BodyDesc::rect(Vec2::new(1000.0, 40.0), Vec2::new(400.0, 570.0));
        for desc in [wide, BodyDesc::circle(20.0, Vec2::new(300.0, 530.0)), wide] {
            world.add_body(desc).unwrap();
        }
        let settled = [Vec2::new(400.3, 569.8), Vec2::new(300.2, 529.9), Vec2::new(399.5, 570.0)];
        let mut positions = settled.to_vec();
        let settling = [true, true, false];
        centre_settled_wider_bodies(&world.slots, &settling, &mut positions, world.brake_bounds());
        let expected = [Vec2::new(400.0, 569.8), settled[1], settled[2]];
        assert_eq!(positions, expected);
    }
}
