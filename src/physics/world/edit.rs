//! Edits of single bodies: teleports, velocities, materials. Each wakes the body's island.

use super::*;

impl World {
    /// Teleports a body (no interpolation smear) and wakes its island. The position is
    /// checked as [`add_body`](Self::add_body) checks a new body's, for the body's kind
    /// ([`can_place`](Self::can_place)).
    pub fn set_position(&mut self, handle: BodyHandle, position: Vec2) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        if !position.is_finite() {
            return Err(invalid("position", position, "finite numbers"));
        }
        let kind = self.slots[index].body.as_ref().map_or(BodyKind::Dynamic, |b| b.kind);
        if !self.can_place(kind, position) {
            return Err(invalid("position", position, self.placement_range(kind)));
        }
        self.wake_slot(index);
        self.wake_near(index);
        self.restart_rests_on_slot(index);
        if let Some(body) = self.slots[index].body.as_mut() {
            body.position = position;
            body.previous_position = position;
            body.anchor = position;
            // Teleported into the air, it must fall, not finish its rest there (D8).
            body.rest_time = 0.0;
        }
        self.spatial_index.invalidate();
        self.wake_near(index);
        Ok(())
    }

    /// Turns a circle to `angle` (rad, clockwise on screen) without smearing the
    /// interpolation, and wakes its island. Rectangles never turn: for them this is a no-op.
    pub fn set_angle(&mut self, handle: BodyHandle, angle: f32) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        if !angle.is_finite() {
            return Err(invalid("angle", angle, "a finite number"));
        }
        let turns = self.slots[index]
            .body
            .as_ref()
            .is_some_and(|b| matches!(b.shape, Shape::Circle { .. }));
        if turns {
            self.wake_slot(index);
            if let Some(body) = self.slots[index].body.as_mut() {
                body.angle = angle;
                body.previous_angle = angle;
            }
        }
        Ok(())
    }

    /// Sets a dynamic or kinematic body's velocity (clamped to `max_speed` unless the rule
    /// switch `speed_limit` is off, R-LAB-1) and wakes its island. A kinematic body keeps it until it is set again (R-GAME-4).
    pub fn set_velocity(&mut self, handle: BodyHandle, velocity: Vec2) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.moving_slot_of(handle)?;
        if !velocity.is_finite() {
            return Err(invalid("velocity", velocity, "finite numbers"));
        }
        self.wake_slot(index);
        let (max_speed, _) = self.config.speed_limits();
        let mut before = (Vec2::ZERO, 0.0);
        if let Some(body) = self.slots[index].body.as_mut() {
            before = (body.velocity, body.angular_velocity);
            body.velocity = crate::physics::math::clamp_length(velocity, max_speed);
        }
        self.restart_rest_if_sped_up(index, before);
        Ok(())
    }

    /// Sets a dynamic or kinematic circle's angular velocity (clamped) and wakes its
    /// island. Rectangles never turn: for them this is a no-op.
    pub fn set_angular_velocity(
        &mut self,
        handle: BodyHandle,
        omega: f32,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.moving_slot_of(handle)?;
        if !omega.is_finite() {
            return Err(invalid("angular_velocity", omega, "a finite number"));
        }
        self.wake_slot(index);
        let (_, max_spin) = self.config.speed_limits();
        let circle = |b: &&mut Body| matches!(b.shape, Shape::Circle { .. });
        let Some(body) = self.slots[index].body.as_mut().filter(circle) else { return Ok(()) };
        let before = (body.velocity, body.angular_velocity);
        body.angular_velocity = omega.clamp(-max_spin, max_spin);
        self.restart_rest_if_sped_up(index, before);
        Ok(())
    }

    /// Sets a body's material (mass follows the density) and wakes its island.
    pub fn set_material(
        &mut self,
        handle: BodyHandle,
        material: crate::physics::Material,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        let body = self.slots[index].body.as_ref().ok_or(PhysicsError::StaleHandle(handle))?;
        let desc = BodyDesc { material, ..body.desc() };
        let mut problems = Vec::new();
        desc.check(&mut problems);
        if !problems.is_empty() {
            return Err(PhysicsError::Invalid(ConfigError { problems }));
        }
        self.wake_slot(index);
        let fresh = Body::from_desc(&desc, self.config.max_speed, self.config.max_angular_speed());
        if let Some(body) = self.slots[index].body.as_mut() {
            body.material = material;
            body.inverse_mass = fresh.inverse_mass;
            body.inverse_inertia = fresh.inverse_inertia;
        }
        Ok(())
    }

    /// Drops every impulse kept for warm starting, so the next step solves from zero. (The
    /// cache keeps its pairs, which collision events follow.)
    pub fn forget_contact_impulses(&mut self) {
        self.edited();
        self.warm_start_cache.forget_impulses();
    }
}
