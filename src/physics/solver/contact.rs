//! The solver's view of bodies and contacts, and the formulas every solver path shares:
//! the effective mass, the single-contact impulse, the levers and bounce target, and the
//! accumulated-impulse clamps (§6–§9).

use glam::Vec2;

use crate::physics::math::{cross, cross_scalar_vec, tangent};

/// What the inner loop reads and writes of one body: 20 bytes, so a body's velocity and its
/// inverse masses arrive in one cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverBody {
    /// Linear velocity, px/s.
    pub velocity: Vec2,
    /// Angular velocity, rad/s.
    pub angular_velocity: f32,
    /// 1/m, 0 for walls, static and sleeping bodies.
    pub inverse_mass: f32,
    /// 1/I, 0 for walls, rectangles, static and sleeping bodies.
    pub inverse_inertia: f32,
}

impl SolverBody {
    /// Applies impulse `p` at lever arm `r` and an angular impulse `angular`, with `sign`
    /// +1 for B and −1 for A (actio = reactio).
    #[inline]
    pub(super) fn apply(&mut self, sign: f32, r: Vec2, p: Vec2, angular: f32) {
        self.velocity += p * (sign * self.inverse_mass);
        self.angular_velocity += sign * self.inverse_inertia * (cross(r, p) + angular);
    }
}

/// The velocity of B's contact point relative to A's, along the unit direction `d`, with the
/// levers `(r_A × d, r_B × d)`:
/// `v_rel·d = (v_B − v_A)·d + ω_B (r_B × d) − ω_A (r_A × d)`, because `(ω × r)·d = ω (r × d)`.
#[inline]
pub(super) fn relative_speed(a: &SolverBody, b: &SolverBody, d: Vec2, levers: (f32, f32)) -> f32 {
    (b.velocity - a.velocity).dot(d) + b.angular_velocity * levers.1 - a.angular_velocity * levers.0
}

/// Applies `λ` along `d` at the given levers: minus on A, plus on B.
#[inline]
pub(super) fn push_apart(
    a: &mut SolverBody,
    b: &mut SolverBody,
    d: Vec2,
    levers: (f32, f32),
    lambda: f32,
) {
    a.velocity -= d * (lambda * a.inverse_mass);
    a.angular_velocity -= lambda * a.inverse_inertia * levers.0;
    b.velocity += d * (lambda * b.inverse_mass);
    b.angular_velocity += lambda * b.inverse_inertia * levers.1;
}

/// The bodies the solver works on, one entry per solver index (bodies by slot, then the four
/// walls with inverse mass 0), and what `prepare` needs of the step start.
#[derive(Clone, Debug, Default)]
pub struct SolverBodies {
    /// Velocities and inverse masses.
    pub bodies: Vec<SolverBody>,
    /// Linear and angular velocity at the start of the step (before gravity and warm start).
    pub start_velocity: Vec<(Vec2, f32)>,
    /// Held by a drag controller: no restitution for its contacts (§7, R-RES-6).
    pub held: Vec<bool>,
}

impl SolverBodies {
    /// Appends one entry.
    #[cfg(test)]
    pub fn push(&mut self, body: SolverBody, start_velocity: (Vec2, f32), held: bool) {
        self.bodies.push(body);
        self.start_velocity.push(start_velocity);
        self.held.push(held);
    }
}

/// One contact as the solver sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverContact {
    /// Solver index of A.
    pub a: u32,
    /// Solver index of B.
    pub b: u32,
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// Depth at detection, px.
    pub depth: f32,
    /// Contact point, px.
    pub point: Vec2,
    /// Lever arm from A's centre to the point.
    pub r_a: Vec2,
    /// Lever arm from B's centre to the point.
    pub r_b: Vec2,
    /// Mixed friction coefficient √(μ_A·μ_B) (§8).
    pub friction: f32,
    /// Mixed restitution max(e_A, e_B) (§7).
    pub restitution: f32,
    /// μ_r · r: the rolling impulse is clamped to this times the normal impulse (§9).
    pub rolling_limit: f32,
    /// `r_A × n`, `r_B × n`: how an impulse along n turns A and B (0 for our shapes, R-IMP-3).
    pub normal_levers: (f32, f32),
    /// `r_A × t`, `r_B × t`: how a friction impulse turns A and B.
    pub tangent_levers: (f32, f32),
    /// Effective mass along the normal, 1/K_n.
    pub normal_mass: f32,
    /// Effective mass along the tangent, 1/K_t.
    pub tangent_mass: f32,
    /// Effective mass for ω_B − ω_A, 1/(1/I_A + 1/I_B).
    pub rolling_mass: f32,
    /// Normal velocity the contact should separate with: −e·v_n at the step start, or 0.
    pub bounce_velocity: f32,
    /// Accumulated normal impulse P_n ≥ 0 of the passes, kept for warm starting.
    pub normal_impulse: f32,
    /// The bounce added by [`restitute`] (§7); `normal_impulse + restitution_impulse ≥ 0`.
    /// A bounce is not a load, so it is not carried to the next step.
    pub restitution_impulse: f32,
    /// Accumulated friction impulse, |P_t| ≤ μ·P_n.
    pub tangent_impulse: f32,
    /// Accumulated rolling impulse, |P_r| ≤ μ_r·r·P_n.
    pub rolling_impulse: f32,
}

impl SolverContact {
    /// A contact between solver bodies `a` and `b` with no impulses yet.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        a: u32,
        b: u32,
        normal: Vec2,
        depth: f32,
        point: Vec2,
        r_a: Vec2,
        r_b: Vec2,
        friction: f32,
        restitution: f32,
        rolling_limit: f32,
    ) -> Self {
        Self {
            a,
            b,
            normal,
            depth,
            point,
            r_a,
            r_b,
            friction,
            restitution,
            rolling_limit,
            normal_levers: (0.0, 0.0),
            tangent_levers: (0.0, 0.0),
            normal_mass: 0.0,
            tangent_mass: 0.0,
            rolling_mass: 0.0,
            bounce_velocity: 0.0,
            normal_impulse: 0.0,
            restitution_impulse: 0.0,
            tangent_impulse: 0.0,
            rolling_impulse: 0.0,
        }
    }

    /// The whole normal impulse of the step: the inelastic passes' and the bounce.
    pub fn total_normal_impulse(&self) -> f32 {
        self.normal_impulse + self.restitution_impulse
    }
}

/// `K = 1/m_A + 1/m_B + (r_A × d)²/I_A + (r_B × d)²/I_B` along direction `d` (§6, §8).
#[inline]
#[cfg(test)]
pub fn effective_mass_denominator(
    inverse_mass: (f32, f32),
    inverse_inertia: (f32, f32),
    r_a: Vec2,
    r_b: Vec2,
    d: Vec2,
) -> f32 {
    let ra_d = cross(r_a, d);
    let rb_d = cross(r_b, d);
    inverse_mass.0
        + inverse_mass.1
        + ra_d * ra_d * inverse_inertia.0
        + rb_d * rb_d * inverse_inertia.1
}

/// The part of [`prepare`](super::scalar::prepare) that needs no inverse masses: the levers `r × n`, `r × t` and the
/// bounce target `−e·v_n` of the step start (0 below the threshold or when held).
/// `start_velocity` and `held` are those of [`SolverBodies`].
#[inline(always)]
pub(super) fn set_levers_and_bounce(
    c: &mut SolverContact,
    start_velocity: &[(Vec2, f32)],
    held: &[bool],
    restitution_threshold: f32,
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let t = tangent(c.normal);
    c.normal_levers = (cross(c.r_a, c.normal), cross(c.r_b, c.normal));
    c.tangent_levers = (cross(c.r_a, t), cross(c.r_b, t));

    let (va, wa) = start_velocity[a];
    let (vb, wb) = start_velocity[b];
    let start_relative = (vb + cross_scalar_vec(wb, c.r_b)) - (va + cross_scalar_vec(wa, c.r_a));
    let impact = start_relative.dot(c.normal);
    let held = held[a] || held[b];
    c.bounce_velocity =
        if impact < -restitution_threshold && !held { -c.restitution * impact } else { 0.0 };
}

/// `f32::max` (several instructions on x86) are not needed in the inner loop.
#[inline]
pub(super) fn at_least(x: f32, low: f32) -> f32 {
    if x > low { x } else { low }
}

/// `x` clamped to `[−limit, limit]` (limit ≥ 0), the accumulated-impulse clamp.
#[inline]
pub(super) fn within(x: f32, limit: f32) -> f32 {
    let x = if x < limit { x } else { limit };
    if x > -limit { x } else { -limit }
}

/// Stores a solved body. Immovable ones (inverse mass 0) never change and are not written,
/// so contacts sharing a wall do not wait on each other's stores.
#[inline]
pub(super) fn write_back(bodies: &mut [SolverBody], index: usize, body: SolverBody) {
    if body.inverse_mass > 0.0 {
        bodies[index] = body;
    }
}
