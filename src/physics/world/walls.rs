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
use crate::physics::collision::WallId;

impl World {
    /// Switches one wall on or off (R-GAME-7) and wakes every body, so that a pile resting
    /// on a floor that went away falls. A switched-off wall has no contacts and no
    /// brake; bodies may be added, teleported and dragged beyond its line. Switched on
    /// again, it pushes the bodies behind it back in like any wall (with contacts and, past
    /// `max_wall_penetration`, the brake).
    pub fn set_wall_enabled(&mut self, wall: WallId, enabled: bool) {
        self.edited();
        if self.wall_enabled[wall.index()] != enabled {
            self.wall_enabled[wall.index()] = enabled;
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

    /// Where a body's centre may be placed, for error messages.
    pub(super) fn placement_range(&self) -> String {
        let (min, max) = self.placement_bounds();
        format!("inside the world {min} ..= {max}")
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

impl WallBrake<'_> {
    /// Brakes one awake dynamic body; returns whether it had to be moved.
    pub(super) fn apply(&self, body: &mut Body) -> bool {
        let (min, max, limit) = (self.min, self.max, self.limit);
        // Strictly inside the bounds: it fits on both axes and is in no wall at all.
        let (low, high) = body.aabb();
        if strictly_inside((low, high), (min, max)) {
            return false;
        }
        let before = body.position;
        let half = body.shape.half_size();
        for axis in 0..2 {
            if 2.0 * half[axis] > max[axis] - min[axis] {
                body.position[axis] = 0.5 * (min[axis] + max[axis]);
                body.velocity[axis] = 0.0;
            }
        }
        for (wall, _) in self.walls.iter().zip(self.enabled).filter(|&(_, on)| on) {
            // A body centred above cannot fit on this axis: pushing it out of one wall
            // would push it out of the world through the other.
            let axis = if wall.normal.x != 0.0 { 0 } else { 1 };
            if 2.0 * half[axis] > max[axis] - min[axis] {
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
        body.position != before
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
        // Most bodies touch no wall: a box strictly inside the bounds touches none of the
        // four. Exact, not an estimate: `min.x > bounds.x` is the left wall's
        // `n·p − reach − offset > 0` with n = (1, 0), reach = hw; likewise for the others.
        // A switched-off wall's side of the open bounds is infinite: never touched.
        if strictly_inside((min, max), (self.min, self.max)) {
            return;
        }
        for (w, wall) in self.walls.iter().enumerate() {
            if !self.enabled[w] {
                continue;
            }
            let Some(m) = wall.collide(&body.shape, body.position) else { continue };
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
        }
    }
}
