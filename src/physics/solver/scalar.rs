//! The scalar path of the sequential impulses: one contact at a time, in list order or in a
//! given order. The reference the wide kernel (`wide`) must equal bit for bit, and the
//! path of the islands solved again without bounce targets (`restitution`).

#[cfg(test)]
use super::contact::{SolverBodies, effective_mass_denominator, set_levers_and_bounce};
use super::contact::{
    SolverBody, SolverContact, at_least, push_apart, relative_speed, within, write_back,
};
#[cfg(doc)]
use super::order::SolveOrder;
#[cfg(test)]
use crate::physics::math::inverse_or_zero;
use crate::physics::math::tangent;

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
#[cfg(test)]
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

/// Applies the accumulated impulses carried over from the last step (R-SI-2).
pub fn warm_start(contacts: &[SolverContact], bodies: &mut [SolverBody]) {
    for c in contacts {
        warm_start_contact(c, bodies);
    }
}

/// The warm start of one contact: its carried impulses, minus on A, plus on B.
#[inline(always)]
pub(super) fn warm_start_contact(c: &SolverContact, bodies: &mut [SolverBody]) {
    let p = c.normal * c.normal_impulse + tangent(c.normal) * c.tangent_impulse;
    bodies[c.a as usize].apply(-1.0, c.r_a, p, c.rolling_impulse);
    bodies[c.b as usize].apply(1.0, c.r_b, p, c.rolling_impulse);
}

/// One Gauss-Seidel pass over all contacts in list order: normal, then friction, then
/// rolling (R-SI-3). The reference path; the world solves in [`SolveOrder`] instead.
#[cfg(test)]
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
