//! Impulse-based contact resolution: sequential impulses with accumulated clamping and warm
//! starting (§6), restitution (§7), Coulomb friction (§8) and rolling resistance (§9).
//!
//! # The collision impulse (§6)
//! The velocity of the contact point of B relative to A, with lever arms r from each centre of
//! mass to the contact point and `ω × r = ω·(−r.y, r.x)`:
//! ```text
//! v_rel = (v_B + ω_B × r_B) − (v_A + ω_A × r_A),      v_n = v_rel · n
//! ```
//! An impulse `P = λ·n` acts positively on B and negatively on A. The normal velocity then
//! changes linearly in λ:
//! ```text
//! v_n' = v_n + λ·K,      K = 1/m_A + 1/m_B + (r_A × n)²/I_A + (r_B × n)²/I_B
//! ```
//! and Newton's impact law `v_n' = −e·v_n` gives `λ = −(1 + e)·v_n / K`. `1/K` is the
//! effective mass of the contact (R-IMP-1). For circles r ∥ n and rectangles have 1/I = 0, so
//! the rotational terms of K vanish for the normal: normal impulses never create torque
//! (R-IMP-3). Only friction makes circles roll.
//!
//! # Many contacts: sequential impulses (§6)
//! Contacts influence each other, so they are solved in turn, `velocity_iterations` times
//! (Gauss-Seidel). Two details make it converge to the physical answer:
//! 1. The *accumulated* impulse is clamped (`P_n ≥ 0`), not the increment of one pass, so a
//!    later pass may take back too much of an earlier one (R-SI-1).
//! 2. Warm starting applies last step's accumulated impulses first; resting contacts barely
//!    change, so the start is nearly right. A normal that turned (`n_old·n_new` < 0.95) drops
//!    it (R-SI-2).
//!
//! Each contact is solved in the order normal → friction → rolling resistance (R-SI-3): the
//! two latter are bounded by the normal impulse, and solving them after it makes their bounds
//! hold exactly for the current normal impulse after every pass.
//!
//! # Energy
//! With the bodies' velocities `v = v₀ + M⁻¹Jᵀλ` for contact impulses λ, the kinetic energy is
//! a quadratic in λ: `E(λ) = E₀ + λ·Jv₀ + ½ λ·(JM⁻¹Jᵀ)λ`. One normal solve with target 0 sets
//! its λ to the minimum of E along that coordinate within `P_n ≥ 0`, so inelastic normal
//! solves are coordinate descent on E (friction and rolling are too, except when a later
//! pass lowers `P_n` and their bound shrinks).
//!
//! **Restitution.** The passes drive a bouncing contact to its target `v_n' = −e·v_n` while
//! every other contact keeps `v_n ≥ 0`: a pile that something bounced on is held up by the
//! same passes, which keeps overlaps small (without targets in the passes, the rain scene
//! ended with 1,500 pairs overlapping by more than 1 px instead of none). But when a
//! bouncing body pushes a follower, the targets drive the follower to the leader's rebound
//! speed (+20 % energy in the regression test). So an island with a bounce target that ends
//! the passes with more kinetic energy than at the step start is solved again: inelastic
//! passes, then one pass that adds each contact's own bounce ([`restitute`], the order Box2D
//! v3 uses), and [`EnergyGuard`] scales the bounces of a simultaneous impact of three bodies
//! down to the island's energy at the step start.
//!
//! Not solved: the descent starts from the warm start, which can lie above E₀. After an
//! impact the carried impulses are far too large (a heavy box rams a light one into a wall:
//! 8 passes through the light box cannot take the heavy box's impulse back, and the heavy
//! box is thrown back). Scaling each island's warm start to its least energy cured that, but
//! weakened every pile a body fell onto (the pile sank and never slept); re-solving islands
//! that gained energy from zero impulses made an 820-box pyramid, whose 8 passes leave
//! residues above E₀ while it settles, sag every 19 steps. A third cure, also reverted
//! (branch `energy`, commit eab98c0): after the solve, scale the velocities of every island
//! that ended above its start energy back down to it (toward rest if it touches a wall,
//! about its centre of mass if not; every contact constraint is homogeneous in the
//! velocities, so they still hold). It makes the energy property pass with warm starting
//! and friction on (24,000 random worlds) and measured how common the gain is: islands
//! gained in 868 of rain_4000's 1,200 steps, some several-fold, and in almost none from
//! zero impulses. But those gains are what holds a pile up that 8 passes alone cannot:
//! rain_4000 ended with 1,358 pairs overlapping by more than 1 px instead of none (still
//! 1,307 when only gains beyond every body moving at 4 px/s were taken back, 124 beyond
//! 50 px/s; 18 when only islands hit by an impact in the last 8 steps were guarded, and
//! then the energy property failed again on a pile's +1.7 %). See the open regression test.

use glam::Vec2;

use super::math::{cross, cross_scalar_vec, inverse_or_zero, tangent};
use super::wide_solver::{self, WideContacts};

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
    fn apply(&mut self, sign: f32, r: Vec2, p: Vec2, angular: f32) {
        self.velocity += p * (sign * self.inverse_mass);
        self.angular_velocity += sign * self.inverse_inertia * (cross(r, p) + angular);
    }
}

/// The velocity of B's contact point relative to A's, along the unit direction `d`, with the
/// levers `(r_A × d, r_B × d)`:
/// `v_rel·d = (v_B − v_A)·d + ω_B (r_B × d) − ω_A (r_A × d)`, because `(ω × r)·d = ω (r × d)`.
#[inline]
fn relative_speed(a: &SolverBody, b: &SolverBody, d: Vec2, levers: (f32, f32)) -> f32 {
    (b.velocity - a.velocity).dot(d) + b.angular_velocity * levers.1 - a.angular_velocity * levers.0
}

/// Applies `λ` along `d` at the given levers: minus on A, plus on B.
#[inline]
fn push_apart(a: &mut SolverBody, b: &mut SolverBody, d: Vec2, levers: (f32, f32), lambda: f32) {
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
    /// Empties all arrays, keeping their memory.
    pub fn clear(&mut self) {
        self.bodies.clear();
        self.start_velocity.clear();
        self.held.clear();
    }

    /// Appends one entry.
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

/// The single-contact impulse `λ = −(1 + e)·v_n / K` (§6, R-IMP-1), or 0 when separating.
pub fn collision_impulse(normal_velocity: f32, restitution: f32, k: f32) -> f32 {
    if normal_velocity >= 0.0 || k <= 0.0 {
        return 0.0;
    }
    -(1.0 + restitution) * normal_velocity / k
}

/// Effective masses and the bounce target of every contact (§6, §7).
///
/// The bounce uses the velocities at the start of the step, before gravity and warm start:
/// with the velocity after gravity, a ball would leave with `e·(v + g·dt)` instead of `e·v`,
/// and an e = 1 ball would gain height on every bounce (R-RES-5). Below
/// `restitution_threshold` nothing bounces (R-RES-4), and held bodies never bounce (R-RES-6).
///
/// The reference path: [`SolveOrder::solve_passes`] computes the same numbers (levers and
/// bounce with `set_levers_and_bounce`, the masses four contacts at a time) while it lays
/// the contacts out for the wide passes.
pub fn prepare(contacts: &mut [SolverContact], bodies: &SolverBodies, restitution_threshold: f32) {
    for c in contacts {
        let (body_a, body_b) = (&bodies.bodies[c.a as usize], &bodies.bodies[c.b as usize]);
        let im = (body_a.inverse_mass, body_b.inverse_mass);
        let ii = (body_a.inverse_inertia, body_b.inverse_inertia);
        let t = tangent(c.normal);
        c.normal_mass = inverse_or_zero(effective_mass_denominator(im, ii, c.r_a, c.r_b, c.normal));
        c.tangent_mass = inverse_or_zero(effective_mass_denominator(im, ii, c.r_a, c.r_b, t));
        c.rolling_mass = inverse_or_zero(ii.0 + ii.1);
        set_levers_and_bounce(c, &bodies.start_velocity, &bodies.held, restitution_threshold);
    }
}

/// The part of [`prepare`] that needs no inverse masses: the levers `r × n`, `r × t` and the
/// bounce target `−e·v_n` of the step start (0 below the threshold or when held).
/// `start_velocity` and `held` are those of [`SolverBodies`].
#[inline(always)]
pub(crate) fn set_levers_and_bounce(
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

/// Applies the accumulated impulses carried over from the last step (R-SI-2).
pub fn warm_start(contacts: &[SolverContact], bodies: &mut [SolverBody]) {
    for c in contacts {
        warm_start_contact(c, bodies);
    }
}

/// The warm start of one contact: its carried impulses, minus on A, plus on B.
#[inline(always)]
fn warm_start_contact(c: &SolverContact, bodies: &mut [SolverBody]) {
    let p = c.normal * c.normal_impulse + tangent(c.normal) * c.tangent_impulse;
    bodies[c.a as usize].apply(-1.0, c.r_a, p, c.rolling_impulse);
    bodies[c.b as usize].apply(1.0, c.r_b, p, c.rolling_impulse);
}

/// One Gauss-Seidel pass over all contacts in list order: normal, then friction, then
/// rolling (R-SI-3). The reference path; the world solves in [`SolveOrder`] instead.
pub fn solve(contacts: &mut [SolverContact], bodies: &mut [SolverBody]) {
    for c in contacts {
        solve_contact(c, bodies);
    }
}

/// One Gauss-Seidel pass over all contacts in `order` (see [`SolveOrder`]): the reference
/// for [`SolveOrder::solve_passes`], which the world calls and which gives the same bits
/// four contacts at a time.
pub fn solve_in_order(contacts: &mut [SolverContact], bodies: &mut [SolverBody], order: &[u32]) {
    for &index in order {
        solve_contact(&mut contacts[index as usize], bodies);
    }
}

/// [`warm_start`] for the contacts listed in `order`.
pub fn warm_start_in_order(contacts: &[SolverContact], bodies: &mut [SolverBody], order: &[u32]) {
    for &index in order {
        warm_start(std::slice::from_ref(&contacts[index as usize]), bodies);
    }
}

/// [`restitute`] for the contacts listed in `order`; returns whether any bounced.
pub fn restitute_in_order(
    contacts: &mut [SolverContact],
    bodies: &mut [SolverBody],
    order: &[u32],
) -> bool {
    let mut bounced = false;
    for &index in order {
        bounced |= restitute(std::slice::from_mut(&mut contacts[index as usize]), bodies);
    }
    bounced
}

/// The bounces after inelastic passes (§7, R-RES-1..6), for the islands solved again (see
/// the module docs): one pass that drives each bouncing contact's normal velocity to its
/// target `−e·v_n`, in list order.
///
/// A contact bounces only if it had a bounce target from the step start (faster than the
/// threshold, not held) and pushed in the passes (`P_n > 0`): a contact that never pushed
/// took no part in the impact. The bounce is clamped so that the total normal impulse stays
/// `≥ 0`. Solved alone, a contact gets exactly `λ = −(1 + e)·v_n / K` in total (R-IMP-1):
/// the passes contribute `−v_n / K`, this pass `−e·v_n / K`.
///
/// Returns whether any contact bounced.
pub fn restitute(contacts: &mut [SolverContact], bodies: &mut [SolverBody]) -> bool {
    let mut bounced = false;
    for c in contacts {
        if c.bounce_velocity == 0.0 || c.normal_impulse == 0.0 {
            continue;
        }
        bounced = true;
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (mut a, mut b) = (bodies[ia], bodies[ib]);
        let v_n = relative_speed(&a, &b, c.normal, c.normal_levers);
        let accumulated = at_least(
            c.restitution_impulse - c.normal_mass * (v_n - c.bounce_velocity),
            -c.normal_impulse,
        );
        push_apart(&mut a, &mut b, c.normal, c.normal_levers, accumulated - c.restitution_impulse);
        c.restitution_impulse = accumulated;
        write_back(bodies, ia, a);
        write_back(bodies, ib, b);
    }
    bounced
}

/// A line search over the kinetic energy of each island that keeps the bounces from adding
/// energy (see the module docs).
///
/// The bounces change the velocities from `v₀` to `v₀ + Δv`; scaled by s, they give an
/// island the kinetic energy
/// ```text
/// E(s) = E(0) + s·Σ (m v₀·Δv + I ω₀ Δω) + ½ s²·Σ (m |Δv|² + I Δω²) = E(0) + s·slope + ½ s²·curvature
/// ```
/// One bounce alone returns `e²` of the energy of approach (R-RES-1), but bounces applied
/// one contact after the other in a simultaneous impact of three bodies can return more
/// than the bodies brought in. An island's bounces are scaled down, if needed, until its
/// energy is that of the step start: `E(s) = E_start`, the positive root of the quadratic.
///
/// The contacts' bounce impulses are scaled with the velocities. Islands, not the whole
/// world, so that one impact does not limit a distant one.
#[derive(Clone, Debug, Default)]
pub struct EnergyGuard {
    gained: Vec<bool>,
    start: Vec<f32>,
    base: Vec<f32>,
    slope: Vec<f32>,
    curvature: Vec<f32>,
    scale: Vec<f32>,
}

impl EnergyGuard {
    /// Marks the islands that have a bounce target (`bounce_velocity ≠ 0`) and end the
    /// passes with more energy than they started the step with (`start`: the velocities
    /// before gravity). Returns whether any is marked. See [`Self::gained`]; the start
    /// energies are kept for [`Self::limit_bounces`].
    ///
    /// The energy is measured at mid-step velocities, `v₀ + kick` before and `v − kick`
    /// after, with `kick = ½·g·dt`: that is what semi-implicit Euler conserves. Per unit
    /// mass, with `x' = x + v·dt`, the integrator's energy `½v² + g·y − ½·g·v·dt` (y up)
    /// changes in a step by exactly `½|v − kick|² − ½|v₀ + kick|²`. Plain kinetic energy
    /// would let a bounce that sends a light body up, fed by a heavy one coming down, gain
    /// `m·|g|·|v|·dt/2` of it.
    pub fn find_bounce_gains(
        &mut self,
        contacts: &[SolverContact],
        bodies: &[SolverBody],
        start: &[(Vec2, f32)],
        kick: Vec2,
        island: &[u32],
    ) -> bool {
        let n = bodies.len();
        self.gained.clear();
        self.gained.resize(n, false);
        let mut any = false;
        for c in contacts.iter().filter(|c| c.bounce_velocity != 0.0) {
            let movable = if bodies[c.a as usize].inverse_mass > 0.0 { c.a } else { c.b };
            self.gained[island[movable as usize] as usize] = true;
            any = true;
        }
        if !any {
            return false;
        }
        self.start.clear();
        self.start.resize(n, 0.0);
        self.base.clear();
        self.base.resize(n, 0.0);
        for (i, body) in bodies.iter().enumerate() {
            if body.inverse_mass > 0.0 && self.gained[island[i] as usize] {
                let k = island[i] as usize;
                let (v0, w0) = start[i];
                self.start[k] += kinetic_energy(body, (v0 + kick, w0));
                self.base[k] += kinetic_energy(body, (body.velocity - kick, body.angular_velocity));
            }
        }
        let mut gained = false;
        for k in 0..n {
            // f32 sums over the island: a relative margin for their rounding.
            self.gained[k] &= self.base[k] > self.start[k] * (1.0 + 1e-5);
            gained |= self.gained[k];
        }
        gained
    }

    /// Whether solver body `i`'s island was marked by [`Self::find_bounce_gains`].
    pub fn gained(&self, island: &[u32], i: usize) -> bool {
        self.gained.get(island[i] as usize).copied().unwrap_or(false)
    }

    /// Scales each island's bounces (the change from `before`) so that it ends with no more
    /// energy than it had at the step start, as measured by the [`Self::find_bounce_gains`]
    /// that marked it (at mid-step velocities). `island` gives each movable body's island,
    /// any index below `bodies.len()` shared by its members; immovable bodies are ignored.
    pub fn limit_bounces(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &mut [SolverBody],
        before: &[(Vec2, f32)],
        kick: Vec2,
        island: &[u32],
    ) {
        self.measure(bodies, before, kick, island);
        self.scale.clear();
        for k in 0..self.slope.len() {
            let (base, slope, curvature) = (self.base[k], self.slope[k], self.curvature[k]);
            let allowed = self.start[k] - base;
            let s = if base + slope + 0.5 * curvature <= self.start[k] || curvature <= 0.0 {
                1.0
            } else if allowed >= 0.0 {
                // The positive root of ½·c·s² + slope·s − allowed = 0.
                let root = (slope * slope + 2.0 * curvature * allowed).sqrt();
                ((root - slope) / curvature).clamp(0.0, 1.0)
            } else {
                (-slope / curvature).clamp(0.0, 1.0)
            };
            self.scale.push(s);
        }
        self.rescale(bodies, before, island);
        for c in contacts {
            let s = self.scale_of(bodies, island, c);
            if s != 1.0 {
                c.restitution_impulse *= s;
            }
        }
    }

    /// Per island: the energy at `before − kick`, and the slope and curvature of E(s) toward
    /// the bodies' present velocities (less the kick).
    fn measure(
        &mut self,
        bodies: &[SolverBody],
        before: &[(Vec2, f32)],
        kick: Vec2,
        island: &[u32],
    ) {
        let n = bodies.len();
        for sums in [&mut self.base, &mut self.slope, &mut self.curvature] {
            sums.clear();
            sums.resize(n, 0.0);
        }
        for (i, body) in bodies.iter().enumerate() {
            if body.inverse_mass <= 0.0 {
                continue;
            }
            let (v0, w0) = before[i];
            let (dv, dw) = (body.velocity - v0, body.angular_velocity - w0);
            let mass = 1.0 / body.inverse_mass;
            let inertia = inverse_or_zero(body.inverse_inertia);
            let k = island[i] as usize;
            self.base[k] += kinetic_energy(body, (v0 - kick, w0));
            self.slope[k] += mass * (v0 - kick).dot(dv) + inertia * w0 * dw;
            self.curvature[k] += mass * dv.length_squared() + inertia * dw * dw;
        }
    }

    /// Moves each body to `before + s·(now − before)` with its island's scale.
    fn rescale(&self, bodies: &mut [SolverBody], before: &[(Vec2, f32)], island: &[u32]) {
        for (i, body) in bodies.iter_mut().enumerate() {
            if body.inverse_mass <= 0.0 {
                continue;
            }
            let s = self.scale[island[i] as usize];
            if s != 1.0 {
                let (v0, w0) = before[i];
                body.velocity = v0 + (body.velocity - v0) * s;
                body.angular_velocity = w0 + (body.angular_velocity - w0) * s;
            }
        }
    }

    /// The scale of a contact's island (that of its movable body).
    fn scale_of(&self, bodies: &[SolverBody], island: &[u32], c: &SolverContact) -> f32 {
        let movable = if bodies[c.a as usize].inverse_mass > 0.0 { c.a } else { c.b };
        self.scale[island[movable as usize] as usize]
    }
}

/// `½ m |v|² + ½ I ω²` of a body with the velocities `(v, ω)`.
fn kinetic_energy(body: &SolverBody, (v, w): (Vec2, f32)) -> f32 {
    0.5 * v.length_squared() / body.inverse_mass
        + 0.5 * w * w * inverse_or_zero(body.inverse_inertia)
}

/// Colours of the contact graph: contacts of one colour share no movable body.
///
/// Each contact reads and writes its two bodies. Solved in list order, where neighbours
/// usually share a body, every solve waits for the one before it: a single long dependency
/// chain. Solved colour by colour, consecutive contacts are independent and the processor
/// overlaps them. Greedy colouring (each contact takes the lowest colour neither of its
/// movable bodies has yet) is O(n); immovable partners (walls, static and sleeping bodies,
/// inverse mass 0) are never written and conflict with nothing. Contacts beyond 64 colours
/// go last, in list order. Gauss-Seidel converges in any order and this one is fixed, so the
/// simulation stays deterministic. On the 820-box pyramid it halved the solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOrder {
    body_colours: Vec<u64>,
    /// The colour of each contact, [`OVERFLOW_COLOUR`] for those that found none.
    contact_colours: Vec<u8>,
    /// Per colour, how many of its contacts are linear and how many rolling (see
    /// [`wide_solver`](super::wide_solver)): the wide load sizes the groups from these.
    counts: Vec<[u32; 2]>,
    wide: WideContacts,
}

/// What [`SolveOrder`]'s colouring writes (see `SolveOrder::colouring`).
struct Colouring<'a> {
    body_colours: &'a mut [u64],
    /// One per contact, sized by `reset`, written in list order: the next at `coloured`. (A
    /// push checked for room and reloaded the vector's length, capacity and pointer each
    /// time.)
    contact_colours: &'a mut [u8],
    coloured: usize,
    counts: &'a mut [[u32; 2]; OVERFLOW_COLOUR + 1],
}

impl Colouring<'_> {
    /// Gives the next contact the lowest colour neither of its movable bodies has yet.
    /// Returns the inverse masses of A and B.
    #[inline(always)]
    fn colour(&mut self, c: &SolverContact, bodies: &[SolverBody]) -> (f32, f32) {
        let (a, b) = (c.a as usize, c.b as usize);
        let (body_a, body_b) = (&bodies[a], &bodies[b]);
        let (movable_a, movable_b) = (body_a.inverse_mass > 0.0, body_b.inverse_mass > 0.0);
        let used = if movable_a { self.body_colours[a] } else { 0 }
            | if movable_b { self.body_colours[b] } else { 0 };
        let colour = (!used).trailing_zeros() as usize; // 64 when all are taken
        if colour < OVERFLOW_COLOUR {
            if movable_a {
                self.body_colours[a] |= 1 << colour;
            }
            if movable_b {
                self.body_colours[b] |= 1 << colour;
            }
        }
        self.contact_colours[self.coloured] = colour as u8;
        self.coloured += 1;
        self.counts[colour][usize::from(wide_solver::is_rolling(body_a, body_b))] += 1;
        (body_a.inverse_mass, body_b.inverse_mass)
    }
}

/// The colour of contacts that found no free colour among the 64.
pub(crate) const OVERFLOW_COLOUR: usize = 64;

impl SolveOrder {
    /// Colours `contacts` and counts each colour's linear and rolling contacts.
    pub fn build(&mut self, contacts: &[SolverContact], bodies: &[SolverBody]) {
        self.reset(bodies.len(), contacts.len());
        let mut colouring = self.colouring(bodies.len());
        for c in contacts {
            colouring.colour(c, bodies);
        }
    }

    /// [`warm_start`], then [`build`](Self::build), in one pass over the contacts: each
    /// contact is warm started and coloured while it and its bodies are at hand. The warm
    /// start changes only velocities, which the colouring does not read, and applies the
    /// impulses in list order as `warm_start` does: the same velocities and colours.
    ///
    /// `each` is called with every contact, in list order, and its bodies' inverse masses
    /// (A, B), which the colouring has loaded anyway: the world builds the position
    /// projection's contacts from them ([`Projection::add`](super::position_solver::Projection::add)).
    pub fn warm_start_and_build(
        &mut self,
        contacts: &[SolverContact],
        bodies: &mut [SolverBody],
        mut each: impl FnMut(&SolverContact, f32, f32),
    ) {
        self.reset(bodies.len(), contacts.len());
        let mut colouring = self.colouring(bodies.len());
        for c in contacts {
            warm_start_contact(c, bodies);
            let (inverse_mass_a, inverse_mass_b) = colouring.colour(c, bodies);
            each(c, inverse_mass_a, inverse_mass_b);
        }
    }

    /// No body has a colour yet; room for the colours of `contact_count` contacts.
    fn reset(&mut self, body_count: usize, contact_count: usize) {
        self.body_colours.clear();
        self.body_colours.resize(body_count, 0);
        self.contact_colours.clear();
        self.contact_colours.resize(contact_count, 0);
        self.counts.clear();
        self.counts.resize(OVERFLOW_COLOUR + 1, [0; 2]);
    }

    /// The arrays the colouring writes, after [`reset`](Self::reset), as slices of known
    /// length: the body colours as long as the bodies, so that the checked index of a body
    /// covers its colour too, and the counts as an array the colour always indexes.
    fn colouring(&mut self, body_count: usize) -> Colouring<'_> {
        Colouring {
            body_colours: &mut self.body_colours[..body_count],
            contact_colours: &mut self.contact_colours,
            coloured: 0,
            counts: (&mut self.counts[..]).try_into().expect("reset sized the counts"),
        }
    }

    /// Contact indices, colour by colour, each colour in list order, the overflow colour
    /// last: the order of the passes, for the reference path [`solve_in_order`].
    pub fn order(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.contact_colours.len() as u32).collect();
        order.sort_by_key(|&i| self.contact_colours[i as usize]); // stable
        order
    }

    /// The colour of each contact, 0 to 63, or 64 for those solved one by one after all
    /// colours.
    pub fn colours(&self) -> &[u8] {
        &self.contact_colours
    }

    /// [`prepare`], then `iterations` Gauss-Seidel passes over `contacts` in this order, four
    /// contacts of a colour at a time ([`wide_solver`]). The contacts
    /// (effective masses, levers, bounce targets, impulses) and the velocities equal those of
    /// [`prepare`] and `iterations` calls of [`solve_in_order`] with
    /// [`order`](Self::order), the reference path. Needs [`build`](Self::build) and the warm
    /// start. Returns whether a contact has a bounce target (for [`restitute`]).
    pub fn solve_passes(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &mut SolverBodies,
        restitution_threshold: f32,
        iterations: u32,
    ) -> bool {
        let bounces = self.wide.load(
            contacts,
            bodies,
            restitution_threshold,
            &self.contact_colours,
            &self.counts,
        );
        for _ in 0..iterations {
            self.wide.solve();
        }
        self.wide.store(contacts, &mut bodies.bodies);
        bounces
    }
}

/// Normal, friction and rolling resistance of one contact.
#[inline]
fn solve_contact(c: &mut SolverContact, bodies: &mut [SolverBody]) {
    let (ia, ib) = (c.a as usize, c.b as usize);
    // Work on copies and write back once: the two bodies of a contact are distinct.
    let (mut a, mut b) = (bodies[ia], bodies[ib]);

    if c.rolling_mass == 0.0 {
        // Neither body can turn (boxes, walls, static bodies): the same two solves with
        // the angular terms left out, because they are all zero.
        solve_linear(c, &mut a, &mut b);
        write_back(bodies, ia, a);
        write_back(bodies, ib, b);
        return;
    }

    // Normal: drive v_n to the bounce target (0 without one); accumulated P_n ≥ 0.
    let v_n = relative_speed(&a, &b, c.normal, c.normal_levers);
    let accumulated = at_least(c.normal_impulse - c.normal_mass * (v_n - c.bounce_velocity), 0.0);
    push_apart(&mut a, &mut b, c.normal, c.normal_levers, accumulated - c.normal_impulse);
    c.normal_impulse = accumulated;

    // Friction: stop sliding along t = (−n.y, n.x) within |P_t| ≤ μ·P_n (Coulomb, §8).
    // The impulse acts at the contact point, so for circles it also spins them.
    let t = tangent(c.normal);
    let v_t = relative_speed(&a, &b, t, c.tangent_levers);
    let limit = c.friction * c.normal_impulse;
    let accumulated = within(c.tangent_impulse - c.tangent_mass * v_t, limit);
    push_apart(&mut a, &mut b, t, c.tangent_levers, accumulated - c.tangent_impulse);
    c.tangent_impulse = accumulated;

    // Rolling resistance: an angular impulse on ω_B − ω_A with effective mass
    // 1/(1/I_A + 1/I_B), clamped to μ_r·r·P_n, the impulse of the torque M ≤ μ_r·N·r (§9).
    if c.rolling_mass > 0.0 {
        let relative_spin = b.angular_velocity - a.angular_velocity;
        let limit = c.rolling_limit * c.normal_impulse;
        let accumulated = within(c.rolling_impulse - c.rolling_mass * relative_spin, limit);
        let lambda = accumulated - c.rolling_impulse;
        c.rolling_impulse = accumulated;
        a.angular_velocity -= a.inverse_inertia * lambda;
        b.angular_velocity += b.inverse_inertia * lambda;
    }

    write_back(bodies, ia, a);
    write_back(bodies, ib, b);
}

/// `max(x, low)` as one instruction: the solver's values are never NaN, so the NaN rules of
/// `f32::max` (several instructions on x86) are not needed in the inner loop.
#[inline]
fn at_least(x: f32, low: f32) -> f32 {
    if x > low { x } else { low }
}

/// `x` clamped to `[−limit, limit]` (limit ≥ 0), the accumulated-impulse clamp.
#[inline]
fn within(x: f32, limit: f32) -> f32 {
    let x = if x < limit { x } else { limit };
    if x > -limit { x } else { -limit }
}

/// Stores a solved body. Immovable ones (inverse mass 0) never change and are not written,
/// so contacts sharing a wall do not wait on each other's stores.
#[inline]
fn write_back(bodies: &mut [SolverBody], index: usize, body: SolverBody) {
    if body.inverse_mass > 0.0 {
        bodies[index] = body;
    }
}

/// Normal and friction of a contact whose bodies cannot turn (1/I = 0 for both): the solve of
/// [`solve`] without the angular terms, which vanish exactly.
#[inline]
fn solve_linear(c: &mut SolverContact, a: &mut SolverBody, b: &mut SolverBody) {
    let v_n = (b.velocity - a.velocity).dot(c.normal);
    let accumulated = at_least(c.normal_impulse - c.normal_mass * (v_n - c.bounce_velocity), 0.0);
    let p = c.normal * (accumulated - c.normal_impulse);
    c.normal_impulse = accumulated;
    a.velocity -= p * a.inverse_mass;
    b.velocity += p * b.inverse_mass;

    let t = tangent(c.normal);
    let v_t = (b.velocity - a.velocity).dot(t);
    let limit = c.friction * c.normal_impulse;
    let accumulated = within(c.tangent_impulse - c.tangent_mass * v_t, limit);
    let p = t * (accumulated - c.tangent_impulse);
    c.tangent_impulse = accumulated;
    a.velocity -= p * a.inverse_mass;
    b.velocity += p * b.inverse_mass;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(velocity: Vec2, angular_velocity: f32, mass: f32, inertia: f32) -> SolverBody {
        SolverBody {
            velocity,
            angular_velocity,
            inverse_mass: 1.0 / mass,
            inverse_inertia: inverse_or_zero(inertia),
        }
    }

    fn two_bodies(va: Vec2, vb: Vec2, ma: f32, mb: f32) -> SolverBodies {
        let mut bodies = SolverBodies::default();
        bodies.push(body(va, 0.0, ma, 0.0), (va, 0.0), false);
        bodies.push(body(vb, 0.0, mb, 0.0), (vb, 0.0), false);
        bodies
    }

    #[test]
    fn accumulated_impulse_never_pulls_r_si_1() {
        // Separating bodies: the solver must apply nothing (P_n stays 0, not negative).
        let mut bodies = two_bodies(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0), 1.0, 1.0);
        let mut contacts = [SolverContact::new(
            0,
            1,
            Vec2::X,
            1.0,
            Vec2::ZERO,
            Vec2::ZERO,
            Vec2::ZERO,
            0.5,
            0.0,
            0.0,
        )];
        prepare(&mut contacts, &bodies, 50.0);
        for _ in 0..8 {
            solve(&mut contacts, &mut bodies.bodies);
        }
        assert_eq!(contacts[0].normal_impulse, 0.0);
        assert_eq!(bodies.bodies[1].velocity, Vec2::new(10.0, 0.0));
    }

    #[test]
    fn a_later_pass_can_take_back_an_earlier_impulse_r_si_1() {
        // A over-pushed by a warm start: accumulated clamping lets the solver reduce P_n to
        // exactly what stops the approach, never below 0.
        let mut bodies = two_bodies(Vec2::ZERO, Vec2::new(-1.0, 0.0), 1.0, 1.0);
        let mut contacts = [SolverContact::new(
            0,
            1,
            Vec2::X,
            1.0,
            Vec2::ZERO,
            Vec2::ZERO,
            Vec2::ZERO,
            0.0,
            0.0,
            0.0,
        )];
        contacts[0].normal_impulse = 5.0;
        prepare(&mut contacts, &bodies, 50.0);
        warm_start(&contacts, &mut bodies.bodies);
        solve(&mut contacts, &mut bodies.bodies);
        // Perfectly inelastic: both end at the common velocity −0.5, impulse 0.5.
        assert!((contacts[0].normal_impulse - 0.5).abs() < 1e-6);
        assert!((bodies.bodies[0].velocity.x + 0.5).abs() < 1e-6);
        assert!((bodies.bodies[1].velocity.x + 0.5).abs() < 1e-6);
    }

    #[test]
    fn friction_and_rolling_are_solved_after_the_normal_in_each_pass_r_si_3() {
        // A disc (A) sliding and spinning on an immovable floor (B), no warm start, one pass.
        // Solved before the normal, friction and rolling would see P_n = 0 and do nothing;
        // after it, both hit their bounds μ·P_n and μ_r·r·P_n of this very pass.
        let mut bodies = SolverBodies::default();
        let v = Vec2::new(100.0, 50.0);
        bodies.push(body(v, 3.0, 2.0, 4.0), (v, 3.0), false);
        bodies.push(SolverBody::default(), (Vec2::ZERO, 0.0), false);
        let (friction, rolling_limit) = (0.001, 0.05); // both bounds bind
        let r_a = Vec2::new(0.0, 20.0);
        let mut contacts = [SolverContact::new(
            0,
            1,
            Vec2::Y,
            0.5,
            Vec2::new(0.0, 20.0),
            r_a,
            Vec2::ZERO,
            friction,
            0.0,
            rolling_limit,
        )];
        prepare(&mut contacts, &bodies, 50.0);
        solve(&mut contacts, &mut bodies.bodies);
        let c = contacts[0];
        assert!(c.normal_impulse > 0.0);
        assert!((c.tangent_impulse.abs() - friction * c.normal_impulse).abs() < 1e-4);
        assert!((c.rolling_impulse.abs() - rolling_limit * c.normal_impulse).abs() < 1e-4);
    }

    #[test]
    fn contacts_of_one_colour_share_no_movable_body() {
        // A chain 0–1–2–3 plus contacts with an immovable body 4 (a wall).
        let mut bodies = SolverBodies::default();
        for _ in 0..4 {
            bodies.push(body(Vec2::ZERO, 0.0, 1.0, 0.0), (Vec2::ZERO, 0.0), false);
        }
        bodies.push(SolverBody::default(), (Vec2::ZERO, 0.0), false);
        let pairs = [(0, 1), (1, 2), (2, 3), (4, 0), (4, 1), (4, 2), (4, 3), (0, 2)];
        let contacts: Vec<_> = pairs
            .iter()
            .map(|&(a, b)| {
                SolverContact::new(
                    a,
                    b,
                    Vec2::X,
                    0.0,
                    Vec2::ZERO,
                    Vec2::ZERO,
                    Vec2::ZERO,
                    0.0,
                    0.0,
                    0.0,
                )
            })
            .collect();
        let mut order = SolveOrder::default();
        order.build(&contacts, &bodies.bodies);
        let mut seen = order.order();
        seen.sort_unstable();
        assert_eq!(seen, (0..pairs.len() as u32).collect::<Vec<_>>(), "each contact once");
        // Walk the colours: within one, no movable body twice.
        let colour_of: Vec<usize> = order.contact_colours.iter().map(|&c| c as usize).collect();
        for i in 0..pairs.len() {
            for j in i + 1..pairs.len() {
                if colour_of[i] == colour_of[j] {
                    let movable = |k: u32| k < 4;
                    let (a, b) = pairs[i];
                    let (c, d) = pairs[j];
                    for x in [a, b].into_iter().filter(|&x| movable(x)) {
                        assert!(x != c && x != d, "contacts {i} and {j} share body {x}");
                    }
                }
            }
        }
        // The wall alone never forces a new colour: the four wall contacts fit in few.
        assert!(colour_of.iter().max().copied().unwrap_or(0) < 4);
    }

    #[test]
    fn normal_impulses_create_no_torque_on_circles_r_imp_3() {
        // Circle A with its lever arm along n: r × n = 0, so K has no rotational term.
        let mut bodies = SolverBodies::default();
        bodies.push(
            body(Vec2::new(100.0, 0.0), 2.0, 1.0, 2.0),
            (Vec2::new(100.0, 0.0), 2.0),
            false,
        );
        bodies.push(body(Vec2::ZERO, 0.0, 1.0, 2.0), (Vec2::ZERO, 0.0), false);
        let mut contacts = [SolverContact::new(
            0,
            1,
            Vec2::X,
            0.5,
            Vec2::new(10.0, 0.0),
            Vec2::new(10.0, 0.0),
            Vec2::new(-10.0, 0.0),
            0.0,
            1.0,
            0.0,
        )];
        prepare(&mut contacts, &bodies, 50.0);
        solve(&mut contacts, &mut bodies.bodies);
        assert_eq!(bodies.bodies[0].angular_velocity, 2.0);
        assert_eq!(bodies.bodies[1].angular_velocity, 0.0);
    }
}
