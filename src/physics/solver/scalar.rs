//! The scalar path of the sequential impulses: one contact at a time, in list order or in a
//! given order. The reference the wide kernel (`wide`) must equal bit for bit; the world
//! itself solves four contacts at a time ([`SolveOrder`]) and uses only the warm start of
//! one contact from here.

#[cfg(test)]
use super::contact::{
    SolverBodies, TargetRules, inverse_masses, set_levers_and_bounce, set_position_bias, write_back,
};
use super::contact::{SolverBody, SolverContact};
#[cfg(test)]
use super::impulse;
#[cfg(doc)]
use super::order::SolveOrder;
use crate::physics::math::tangent;

/// Levers, bounce target ([`set_levers_and_bounce`]), position bias
/// ([`set_position_bias`], when on) and effective masses
/// ([`effective_masses`](impulse::effective_masses)) of every contact (§6, §7).
///
/// The reference path: [`SolveOrder::solve_passes`] computes the same numbers with the same
/// functions (the masses four contacts at a time) while it lays the contacts out for the
/// wide passes.
#[cfg(test)]
pub fn prepare(contacts: &mut [SolverContact], bodies: &SolverBodies, rules: &TargetRules) {
    for c in contacts {
        set_levers_and_bounce(c, &bodies.start_velocity, &bodies.held, rules);
        if rules.bias_rate != 0.0 {
            set_position_bias(c, rules);
        }
        let m = inverse_masses(&bodies.bodies[c.a as usize], &bodies.bodies[c.b as usize]);
        c.set_masses(impulse::effective_masses(&m, c.normal_levers, c.tangent_levers));
    }
}

/// Applies the accumulated impulses carried over from the last step (R-SI-2).
#[cfg(test)]
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
        solve_contact::<true>(c, bodies);
    }
}

/// One Gauss-Seidel pass over all contacts in `order` (see [`SolveOrder`]): the reference
/// for [`SolveOrder::solve_passes`], which the world calls and which gives the same bits
/// four contacts at a time. `accumulated` is the rule switch `accumulated_clamping`
/// (R-LAB-1), chosen once per pass.
#[cfg(test)]
pub fn solve_in_order(
    contacts: &mut [SolverContact],
    bodies: &mut [SolverBody],
    order: &[u32],
    accumulated: bool,
) {
    if accumulated {
        for &index in order {
            solve_contact::<true>(&mut contacts[index as usize], bodies);
        }
    } else {
        for &index in order {
            solve_contact::<false>(&mut contacts[index as usize], bodies);
        }
    }
}

/// Normal, friction and rolling resistance of one contact
/// ([`solve_rolling`](impulse::solve_rolling)), or normal and friction alone when neither
/// body can turn ([`solve_linear`](impulse::solve_linear)). `ACCUMULATED` as there.
#[cfg(test)]
#[inline]
fn solve_contact<const ACCUMULATED: bool>(c: &mut SolverContact, bodies: &mut [SolverBody]) {
    let (ia, ib) = (c.a as usize, c.b as usize);
    // Work on copies and write back once: the two bodies of a contact are distinct.
    let (mut a, mut b) = (bodies[ia], bodies[ib]);
    let m = inverse_masses(&a, &b);
    let (mut va, mut vb) = (a.velocities(), b.velocities());
    let mut impulses = c.impulses();
    if c.rolling_mass == 0.0 {
        // Neither body can turn (boxes, walls, static bodies).
        impulse::solve_linear::<_, ACCUMULATED>(
            &c.constraint(),
            &m,
            &mut impulses,
            &mut va,
            &mut vb,
        );
    } else {
        impulse::solve_rolling::<_, ACCUMULATED>(
            &c.constraint(),
            &m,
            &mut impulses,
            &mut va,
            &mut vb,
        );
    }
    c.set_impulses(impulses);
    a.set_velocities(va);
    b.set_velocities(vb);
    write_back(bodies, ia, a);
    write_back(bodies, ib, b);
}
