//! The solver's view of bodies and contacts, their views as one lane of the impulse
//! formulas ([`impulse`](super::impulse)), and the levers and bounce target every solver
//! path computes alike (§6, §7).

use glam::Vec2;

#[cfg(test)]
use super::impulse::{Constraint, Impulses};
use super::impulse::{EffectiveMasses, InverseMasses, Velocity};
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

    /// The velocities as the impulse formulas read them.
    #[inline(always)]
    pub(super) fn velocities(&self) -> Velocity<f32> {
        Velocity { x: self.velocity.x, y: self.velocity.y, angular: self.angular_velocity }
    }

    /// Takes the velocities the impulse formulas computed.
    #[inline(always)]
    pub(super) fn set_velocities(&mut self, v: Velocity<f32>) {
        (self.velocity, self.angular_velocity) = (Vec2::new(v.x, v.y), v.angular);
    }
}

/// The inverse masses of bodies `a` and `b` as the impulse formulas read them.
#[inline(always)]
pub(super) fn inverse_masses(a: &SolverBody, b: &SolverBody) -> InverseMasses<f32> {
    InverseMasses {
        mass_a: a.inverse_mass,
        mass_b: b.inverse_mass,
        inertia_a: a.inverse_inertia,
        inertia_b: b.inverse_inertia,
    }
}

/// The bodies the solver works on, one entry per solver index (bodies by slot, then the four
/// walls with inverse mass 0), and what the bounce targets need of the step start.
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
    /// Baumgarte's separating velocity `β/dt·max(depth − slop, 0)`, added to the normal
    /// target of the passes; 0 unless the rule switch `position_correction` is
    /// `Baumgarte` (R-LAB-1). Not a bounce: the energy guard does not count it, the bounce
    /// pass keeps it in its target.
    pub position_bias: f32,
    /// Accumulated normal impulse P_n ≥ 0 of the passes, kept for warm starting.
    pub normal_impulse: f32,
    /// The bounce added by [`restitute`](super::restitution::restitute) (§7);
    /// `normal_impulse + restitution_impulse ≥ 0`. A bounce is not a load, so it is not
    /// carried to the next step.
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
            position_bias: 0.0,
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

    /// Whether the two bodies met in this step, as events and the contact list report it:
    /// they overlap or touch (depth ≥ 0), or, for a stacking contact still a gap apart
    /// (D14), the solver pushed them apart (an impulse above 0: a box stopped or bounced on
    /// its support from the gap). Read after the solve.
    pub fn touches(&self) -> bool {
        self.depth >= 0.0 || self.total_normal_impulse() > 0.0
    }

    /// The normal velocity the passes drive toward: the bounce target plus Baumgarte's
    /// bias (+0 unless switched on, and the bounce target is never −0, so then the target
    /// is the bounce target to the bit).
    #[inline(always)]
    pub(super) fn normal_target(&self) -> f32 {
        self.bounce_velocity + self.position_bias
    }

    /// What the impulse formulas read of this contact.
    #[cfg(test)]
    #[inline(always)]
    pub(super) fn constraint(&self) -> Constraint<f32> {
        Constraint {
            normal: (self.normal.x, self.normal.y),
            normal_levers: self.normal_levers,
            tangent_levers: self.tangent_levers,
            masses: EffectiveMasses {
                normal: self.normal_mass,
                tangent: self.tangent_mass,
                rolling: self.rolling_mass,
            },
            friction: self.friction,
            rolling_limit: self.rolling_limit,
            bounce: self.normal_target(),
        }
    }

    /// The accumulated impulses of the passes.
    #[cfg(test)]
    #[inline(always)]
    pub(super) fn impulses(&self) -> Impulses<f32> {
        Impulses {
            normal: self.normal_impulse,
            tangent: self.tangent_impulse,
            rolling: self.rolling_impulse,
        }
    }

    /// Takes the accumulated impulses the passes computed.
    #[cfg(test)]
    #[inline(always)]
    pub(super) fn set_impulses(&mut self, p: Impulses<f32>) {
        (self.normal_impulse, self.tangent_impulse, self.rolling_impulse) =
            (p.normal, p.tangent, p.rolling);
    }

    /// Takes the effective masses the scalar `prepare` or the wide load
    /// computed.
    #[inline(always)]
    pub(super) fn set_masses(&mut self, masses: EffectiveMasses<f32>) {
        (self.normal_mass, self.tangent_mass, self.rolling_mass) =
            (masses.normal, masses.tangent, masses.rolling);
    }
}

/// What the preparation of the passes reads of the config (§7, §10), with the rule
/// switches (R-LAB-1) already applied by the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetRules {
    /// No bounce below this impact speed, px/s; 0 with `restitution_threshold_enabled`
    /// off, so that every approach bounces.
    pub restitution_threshold: f32,
    /// Baumgarte's `β/dt`, 1/s: `position_correction_factor / dt` with
    /// `position_correction` set to `Baumgarte`, else 0 (no bias).
    pub bias_rate: f32,
    /// The depth the bias leaves alone, px (`penetration_slop`).
    pub slop: f32,
    /// 1/dt, 1/s: the speed that closes a stacking contact's gap in one step (D14).
    pub inverse_dt: f32,
}

impl TargetRules {
    /// The spec's targets: bounces above `restitution_threshold`, no bias.
    #[cfg(test)]
    pub fn bounces_above(restitution_threshold: f32) -> Self {
        TargetRules { restitution_threshold, bias_rate: 0.0, slop: 0.0, inverse_dt: 120.0 }
    }
}

/// The part of a contact's preparation that needs no inverse masses: the levers `r × n`,
/// `r × t` and the bounce target `−e·v_n` of the step start (§7). `start_velocity` and
/// `held` are those of [`SolverBodies`].
///
/// The bounce uses the velocities at the start of the step, before gravity and warm start:
/// with the velocity after gravity, a ball would leave with `e·(v + g·dt)` instead of `e·v`,
/// and an e = 1 ball would gain height on every bounce (R-RES-5). Below
/// `restitution_threshold` nothing bounces (R-RES-4), and held bodies never bounce (R-RES-6).
/// (The world fills `start_velocity` and `held` according to the rule switches of
/// R-LAB-1, so the rules can be switched off without a branch here.)
///
/// A contact whose bodies are still a gap apart (boxes stacked along gravity, with the gap
/// as a negative depth: deviation D14 of docs/physics.md) gets the target `v_n ≥ −gap/dt`
/// instead, as its position bias: the passes let the gap close within the step and no
/// further, so a box stops on its support in the step it arrives instead of falling into
/// it. It bounces only if its approach at the step start closes the gap within the step
/// (`gap/dt ≤ −v_n`), and then from the gap.
#[inline(always)]
pub(super) fn set_levers_and_bounce(
    c: &mut SolverContact,
    start_velocity: &[(Vec2, f32)],
    held: &[bool],
    rules: &TargetRules,
) {
    let restitution_threshold = rules.restitution_threshold;
    let (a, b) = (c.a as usize, c.b as usize);
    let t = tangent(c.normal);
    c.normal_levers = (cross(c.r_a, c.normal), cross(c.r_b, c.normal));
    c.tangent_levers = (cross(c.r_a, t), cross(c.r_b, t));

    let (va, wa) = start_velocity[a];
    let (vb, wb) = start_velocity[b];
    let start_relative = (vb + cross_scalar_vec(wb, c.r_b)) - (va + cross_scalar_vec(wa, c.r_a));
    let impact = start_relative.dot(c.normal);
    let held = held[a] || held[b];
    let gap = if c.depth < 0.0 { -c.depth } else { 0.0 };
    let bounces = impact < -restitution_threshold && !held && gap * rules.inverse_dt <= -impact;
    c.bounce_velocity = if bounces { -c.restitution * impact } else { 0.0 };
    if gap > 0.0 && !bounces {
        c.position_bias = c.depth * rules.inverse_dt;
    }
}

/// Baumgarte's position bias `β/dt·max(depth − slop, 0)`, with `rules.bias_rate` = β/dt: a
/// separating velocity proportional to the overlap at detection, which the passes add to
/// the bounce target (R-LAB-1; §10 explains why the spec projects positions instead). Only
/// called with the bias switched on; a contact starts with none. A contact still a gap
/// apart keeps the target of its gap (D14, `set_levers_and_bounce`).
#[inline]
pub(super) fn set_position_bias(c: &mut SolverContact, rules: &TargetRules) {
    if c.depth < 0.0 {
        return;
    }
    let excess = c.depth - rules.slop;
    c.position_bias = rules.bias_rate * if excess > 0.0 { excess } else { 0.0 };
}

/// Stores a solved body. Immovable ones (inverse mass 0) never change and are not written,
/// so contacts sharing a wall do not wait on each other's stores.
#[inline]
pub(super) fn write_back(bodies: &mut [SolverBody], index: usize, body: SolverBody) {
    if body.inverse_mass > 0.0 {
        bodies[index] = body;
    }
}
