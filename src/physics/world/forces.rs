//! Forces, torques, impulses and the gravity scale (R-GAME-5): how game code pushes a
//! dynamic body besides setting its velocity.
//!
//! # Where they are kept
//! Most bodies feel gravity alone. The few with a force, a torque or a gravity scale other
//! than 1 have an entry in a sparse map keyed by handle index ([`Forces`]) and the flag
//! `Body::forced`, which fits in the padding of [`Body`]: the pass over all bodies reads no
//! more memory than before, and the map is walked once per step only when it is not empty.
//! A force stays until the user changes it (it is not cleared by a step); setting force and
//! torque to 0 and the scale to 1 removes the entry.
//!
//! # Integration (§3)
//! Semi-implicit Euler, as for gravity: in the first half of the step a forced body gets
//! ```text
//! v ← v + (s·g + F/m)·dt        s the gravity scale, g only while gravity is on
//! ω ← ω + (τ/I)·dt              1/I = 0 for a rectangle: a torque never turns it
//! ```
//! and the position then moves with the new velocity. Over n steps of a constant force a
//! body at rest reaches `v = n·(F/m)·dt` exactly as under gravity: `Δv = F·t/m`. The new
//! velocity is clamped to `max_speed` (and ω to the spin limit) at once, before the solver
//! sees it (§12): a force may be huge, a velocity entering the solver may not.
//!
//! # Impulses
//! An impulse J applied at the world point p changes the velocities between steps, as a
//! blow would:
//! ```text
//! Δv = J/m,   Δω = (r × J)/I   with the lever r = p − x from the centre (§1's a × b)
//! ```
//! A circle hit off-centre spins; a rectangle (1/I = 0) never does. Applied at the centre
//! (r = 0) it only changes v. The results are clamped like any velocity the user sets.
//!
//! # Which bodies
//! Only dynamic bodies have a mass for a force to act on: static and kinematic bodies refuse
//! forces, torques, impulses and gravity scales with [`PhysicsError::NotDynamic`] (a
//! kinematic body is steered by its velocity alone). Held bodies are carried by the hand and
//! feel neither gravity nor forces while held (R-DRAG-2); sleepers are frozen, as under
//! gravity, until something wakes them. Every call that changes a body's forces wakes its
//! island.

use super::step::integrate_velocity;
use super::*;
use crate::physics::body::check_gravity_scale;

/// The forces on one body beyond plain gravity (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Forces {
    /// Persistent force, px·mass/s².
    pub(super) force: Vec2,
    /// Persistent torque, clockwise on screen positive (§1).
    pub(super) torque: f32,
    /// Multiplies gravity for this body.
    pub(super) gravity_scale: f32,
}

impl Forces {
    /// No force, no torque, plain gravity: a body with these needs no entry.
    pub(super) const NONE: Forces = Forces { force: Vec2::ZERO, torque: 0.0, gravity_scale: 1.0 };
}

/// The largest force, torque or impulse component accepted. Any finite value would do for
/// the step (the velocity is clamped before the solver sees it), but `J/m` of an impulse near
/// `f32::MAX` overflows to infinity; 1e30 is far above anything a game needs (a 10 000 px
/// square of the densest material has a mass of 1e12).
pub(super) const MAX_FORCE: f32 = 1.0e30;

/// Refuses a non-finite or too large force or impulse, naming `field`.
fn check_vector(field: &'static str, value: Vec2) -> Result<(), PhysicsError> {
    if value.is_finite() && value.abs().max_element() <= MAX_FORCE {
        Ok(())
    } else {
        Err(invalid(field, value, format!("finite, each component within ±{MAX_FORCE:e}")))
    }
}

/// Refuses a non-finite or too large torque, naming `field`.
fn check_scalar(field: &'static str, value: f32) -> Result<(), PhysicsError> {
    if value.is_finite() && value.abs() <= MAX_FORCE {
        Ok(())
    } else {
        Err(invalid(field, value, format!("finite, within ±{MAX_FORCE:e}")))
    }
}

impl World {
    /// Sets the persistent force on a dynamic body (px·mass/s², y down) and wakes its
    /// island. It acts every step, `v += F/m·dt` (§3), until changed; a force of zero ends
    /// it. Each component must be finite and within ±1e30.
    pub fn set_force(&mut self, handle: BodyHandle, force: Vec2) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        check_vector("force", force)?;
        self.update_forces(index, handle, |f| f.force = force);
        Ok(())
    }

    /// Adds to the persistent force on a dynamic body (see [`set_force`](Self::set_force)).
    /// The sum must stay within the same limits.
    pub fn add_force(&mut self, handle: BodyHandle, force: Vec2) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        check_vector("force", force)?;
        let sum = self.forces_of(handle).force + force;
        check_vector("force", sum)?;
        self.update_forces(index, handle, |f| f.force = sum);
        Ok(())
    }

    /// The persistent force on a body (zero for static and kinematic bodies).
    pub fn force(&self, handle: BodyHandle) -> Result<Vec2, PhysicsError> {
        self.slot_of(handle)?;
        Ok(self.forces_of(handle).force)
    }

    /// Sets the persistent torque on a dynamic body (clockwise on screen positive, §1) and
    /// wakes its island: `ω += τ/I·dt` every step. Rectangles never turn (1/I = 0), so on them
    /// it has no effect. Finite and within ±1e30.
    pub fn set_torque(&mut self, handle: BodyHandle, torque: f32) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        check_scalar("torque", torque)?;
        self.update_forces(index, handle, |f| f.torque = torque);
        Ok(())
    }

    /// Adds to the persistent torque on a dynamic body (see [`set_torque`](Self::set_torque)).
    pub fn add_torque(&mut self, handle: BodyHandle, torque: f32) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        check_scalar("torque", torque)?;
        let sum = self.forces_of(handle).torque + torque;
        check_scalar("torque", sum)?;
        self.update_forces(index, handle, |f| f.torque = sum);
        Ok(())
    }

    /// The persistent torque on a body (zero for static and kinematic bodies).
    pub fn torque(&self, handle: BodyHandle) -> Result<f32, PhysicsError> {
        self.slot_of(handle)?;
        Ok(self.forces_of(handle).torque)
    }

    /// Sets how strongly gravity pulls a dynamic body (1 normal, 0 floats, 2 twice as hard,
    /// negative up; within −100 ..= 100) and wakes its island.
    pub fn set_gravity_scale(
        &mut self,
        handle: BodyHandle,
        scale: f32,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        let mut problems = Vec::new();
        check_gravity_scale(scale, &mut problems);
        if !problems.is_empty() {
            return Err(PhysicsError::Invalid(ConfigError { problems }));
        }
        self.update_forces(index, handle, |f| f.gravity_scale = scale);
        Ok(())
    }

    /// A body's gravity scale (1 unless set; static and kinematic bodies feel no gravity
    /// whatever it says).
    pub fn gravity_scale(&self, handle: BodyHandle) -> Result<f32, PhysicsError> {
        self.slot_of(handle)?;
        Ok(self.forces_of(handle).gravity_scale)
    }

    /// Applies the impulse `impulse` (mass·px/s) at a dynamic body's centre: `Δv = J/m`,
    /// clamped to `max_speed`. Wakes its island. Finite, each component within ±1e30.
    pub fn apply_impulse(&mut self, handle: BodyHandle, impulse: Vec2) -> Result<(), PhysicsError> {
        self.edited();
        let centre = self.body(handle).map_or(Vec2::ZERO, Body::position);
        self.apply_impulse_at(handle, impulse, centre)
    }

    /// Applies the impulse `impulse` at the world point `point`: `Δv = J/m` and, for a
    /// circle, `Δω = (r × J)/I` with `r = point − centre` (rectangles never turn). The point
    /// may lie anywhere (a lever outside the body works as one would); it must be finite.
    /// Velocities are clamped as for [`set_velocity`](Self::set_velocity). Wakes the island.
    pub fn apply_impulse_at(
        &mut self,
        handle: BodyHandle,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.dynamic_slot_of(handle)?;
        check_vector("impulse", impulse)?;
        if !point.is_finite() {
            return Err(invalid("point", point, "finite numbers"));
        }
        self.wake_slot(index);
        let (max_speed, max_spin) = self.config.speed_limits();
        let mut before = (Vec2::ZERO, 0.0);
        if let Some(body) = self.slots[index].body.as_mut() {
            before = (body.velocity, body.angular_velocity);
            let dv = impulse * body.inverse_mass;
            body.velocity = crate::physics::math::clamp_length(body.velocity + dv, max_speed);
            // In f64: a lever of 1e7 px times an impulse of 1e30 overflows an f32.
            let r = (point - body.position).as_dvec2();
            let j = impulse.as_dvec2();
            let turn = f64::from(body.inverse_inertia) * (r.x * j.y - r.y * j.x);
            let spin = f64::from(body.angular_velocity) + turn;
            body.angular_velocity = spin.clamp(-f64::from(max_spin), f64::from(max_spin)) as f32;
        }
        self.restart_rest_if_sped_up(index, before);
        Ok(())
    }

    /// The forces kept for the body of `handle` (none: [`Forces::NONE`]).
    pub(super) fn forces_of(&self, handle: BodyHandle) -> Forces {
        self.forces.get(&handle.index).copied().unwrap_or(Forces::NONE)
    }

    /// Changes the forces of the dynamic body in slot `index`, wakes its island, and keeps
    /// the map sparse: an entry that no longer differs from plain gravity is removed.
    pub(super) fn update_forces(
        &mut self,
        index: usize,
        handle: BodyHandle,
        change: impl FnOnce(&mut Forces),
    ) {
        self.wake_slot(index);
        let old = self.forces_of(handle);
        let mut forces = old;
        change(&mut forces);
        let forced = forces != Forces::NONE;
        if forced {
            self.forces.insert(handle.index, forces);
        } else {
            self.forces.remove(&handle.index);
        }
        if let Some(body) = self.slots[index].body.as_mut() {
            body.set_forced(forced);
            // A new force, torque or gravity scale starts the body's rest again, as an edit
            // of its velocity does (`restart_rest_if_sped_up`): it may start the body moving
            // from rest, within the 2 px a rest may wander for its first steps (D8).
            if forces != old {
                body.rest_time = 0.0;
            }
        }
    }

    /// The first half of semi-implicit Euler for the forced bodies, after `start_bodies`
    /// skipped their gravity: `v ← v + (s·g + F/m)·dt`, `ω ← ω + (τ/I)·dt` (§3), clamped to
    /// the speed limits at once (§12). Each entry touches only its own body, so the order of
    /// the map does not matter.
    pub(super) fn apply_forces(&mut self, dt: f32) {
        for (&id, forces) in &self.forces {
            let slot = self.slot_of_id[id as usize] as usize;
            if let Some(body) = self.slots[slot].body.as_mut() {
                kick_forced(body, forces, (self.gravity_enabled, &self.config), dt);
            }
        }
    }

    /// The first half of semi-implicit Euler for a body woken inside the step, after
    /// `start_bodies` passed it by as a sleeper (§3, §11): gravity's kick, or its forces'
    /// for a forced body.
    pub(super) fn kick_woken(&mut self, index: usize, dt: f32) {
        let slot = &mut self.slots[index];
        let Some(body) = slot.body.as_mut() else { return };
        if body.forced() {
            if let Some(forces) = self.forces.get(&slot.id) {
                kick_forced(body, forces, (self.gravity_enabled, &self.config), dt);
            }
        } else if self.gravity_enabled {
            integrate_velocity(body, self.config.gravity * dt);
        }
    }
}

/// `v ← v + (s·g + F/m)·dt`, `ω ← ω + (τ/I)·dt` for an awake dynamic body that is not held
/// (§3, R-GAME-5), clamped to the speed limits at once (§12); `gravity_on` and `config`
/// give the gravity.
fn kick_forced(
    body: &mut Body,
    forces: &Forces,
    (gravity_on, config): (bool, &PhysicsConfig),
    dt: f32,
) {
    if !is_awake_dynamic(body) || body.held {
        return;
    }
    let gravity = if gravity_on { config.gravity } else { Vec2::ZERO };
    let (max_speed, max_spin) = config.speed_limits();
    // `F·(dt/m)`, not `(F/m)·dt`: F/m of a force near 1e30 on a light body would overflow,
    // F·(dt/m) stays finite for every accepted force.
    let dv = gravity * (forces.gravity_scale * dt) + forces.force * (body.inverse_mass * dt);
    body.velocity = crate::physics::math::clamp_length(body.velocity + dv, max_speed);
    let spin = body.angular_velocity + forces.torque * (body.inverse_inertia * dt);
    body.angular_velocity = spin.clamp(-max_spin, max_spin);
}
