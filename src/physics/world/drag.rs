//! Drag and throw (§13): a held body heads for its drag target and is let go with a throw.

use super::*;

impl World {
    /// Grabs a dynamic body: it is held, feels no gravity, never bounces and never sleeps;
    /// its island wakes (R-DRAG-2). Its drag target starts at its position, clamped as every
    /// target is so the whole body fits in the world (R-DRAG-1): a body resting a little
    /// into the floor, or left outside by [`set_bounds`](Self::set_bounds), is not held
    /// there.
    pub fn grab(&mut self, handle: BodyHandle) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        self.wake_slot(index);
        let position = self.slots[index].body.as_ref().map_or(Vec2::ZERO, |b| b.position);
        let target = self.clamp_inside(index, position);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.held = true;
            body.anchor = target;
            body.rest_time = 0.0;
        }
        Ok(())
    }

    /// Moves a held body's target. The target is clamped so the whole body fits in the
    /// world (R-DRAG-1).
    pub fn set_drag_target(
        &mut self,
        handle: BodyHandle,
        target: Vec2,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.held_slot_of(handle)?;
        if !target.is_finite() {
            return Err(invalid("drag target", target, "finite numbers"));
        }
        let clamped = self.clamp_inside(index, target);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.anchor = clamped;
        }
        Ok(())
    }

    /// Paused drag: moves a held body straight to the (clamped) target, with no velocity and
    /// no throw (R-DRAG-4). Its island is awake, so whatever it supported falls on resume.
    pub fn move_held_directly(
        &mut self,
        handle: BodyHandle,
        target: Vec2,
    ) -> Result<(), PhysicsError> {
        self.edited();
        self.set_drag_target(handle, target)?;
        let index = self.held_slot_of(handle)?;
        self.wake_near(index);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.position = body.anchor;
            body.previous_position = body.position;
            body.velocity = Vec2::ZERO;
            body.angular_velocity = 0.0;
        }
        self.spatial_index.invalidate();
        self.wake_near(index);
        Ok(())
    }

    /// Lets go of a held body with `throw_velocity` (clamped to `max_speed`, R-TUN-1, unless
    /// the rule switch `speed_limit` is off, R-LAB-1).
    pub fn release(
        &mut self,
        handle: BodyHandle,
        throw_velocity: Vec2,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.held_slot_of(handle)?;
        if !throw_velocity.is_finite() {
            return Err(invalid("throw velocity", throw_velocity, "finite numbers"));
        }
        let (max_speed, _) = self.config.speed_limits();
        if let Some(body) = self.slots[index].body.as_mut() {
            body.held = false;
            body.velocity = crate::physics::math::clamp_length(throw_velocity, max_speed);
        }
        Ok(())
    }

    /// Clamps every held body's target again (R-DRAG-1), after the world it must fit in
    /// shrank: the bounds moved, or a wall came back. A target left outside would drag its
    /// body into the wall, and a scene file of the world, which clamps targets on loading,
    /// would not resume it bit for bit. A target inside stays as it is, to the bit.
    pub(super) fn clamp_drag_targets(&mut self) {
        for index in 0..self.slots.len() {
            let held = self.slots[index].body.as_ref().filter(|b| b.held);
            let Some(target) = held.map(|b| b.anchor) else { continue };
            let clamped = self.clamp_inside(index, target);
            if let Some(body) = self.slots[index].body.as_mut() {
                body.anchor = clamped;
            }
        }
    }

    /// `target` moved so the body of slot `index` fits in the world (centred if it cannot).
    /// A switched-off wall does not hold it: on its side the target only stays within
    /// [`MAX_COORDINATE`] of the origin, where bodies may be placed.
    pub(super) fn clamp_inside(&self, index: usize, target: Vec2) -> Vec2 {
        let half = self.slots[index].body.as_ref().map_or(Vec2::ZERO, |b| b.shape.half_size());
        self.fit_inside(half, target)
    }

    /// `p` moved so that a body of half size `half` centred there fits in the world (centred
    /// on an axis it cannot fit), a switched-off wall's side only within [`MAX_COORDINATE`]:
    /// where the walls bring a body in. For drag targets, and for a dynamic body that joins a
    /// world rebuilt by the plugin from outside its walls.
    pub(crate) fn fit_inside(&self, half: Vec2, p: Vec2) -> Vec2 {
        let (min, max) = self.placement_bounds();
        let low = min + half;
        let high = max - half;
        // A body wider than the world (`low > high` on an axis) is centred on it.
        let centre = 0.5 * (min + max);
        Vec2::new(
            if low.x <= high.x { p.x.clamp(low.x, high.x) } else { centre.x },
            if low.y <= high.y { p.y.clamp(low.y, high.y) } else { centre.y },
        )
    }
}
