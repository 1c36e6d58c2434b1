//! The formulas of the velocity passes, each written once over a [`Lane`]: the effective
//! masses, the relative speed, the impulse along a direction, and the normal → friction →
//! rolling update of a contact (§6, §8, §9).
//!
//! The scalar path instantiates them for one contact at a time (`f32`), the wide kernel for
//! four contacts side by side (the wide kernel's `F4`). Both perform the same operations in
//! the same order, so they give the same bits (see [`lane`](super::lane));
//! `wide_passes_equal_the_reference_bit_for_bit` checks it on random contact sets. The
//! derivation of the impulse is in the module docs of [`solver`](super).
//!
//! A contact comes in two kinds, and each kind's update is written once:
//! * [`solve_rolling`]: at least one body turns (circles). Normal and friction with the lever
//!   terms, then rolling resistance.
//! * [`solve_linear`]: neither body can turn (`1/I = 0` for both: boxes, walls, static
//!   bodies). Normal and friction without the angular terms, which vanish.

use super::lane::Lane;

/// A body's velocity as the passes see it: one body's, or one body's per lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct Velocity<L> {
    /// Linear velocity, px/s.
    pub x: L,
    pub y: L,
    /// Angular velocity ω, rad/s.
    pub angular: L,
}

/// The inverse masses `1/m` and inverse inertias `1/I` of a contact's bodies A and B; 0 for
/// immovable bodies (and for rectangles' `1/I`).
#[derive(Clone, Copy, Debug)]
pub(super) struct InverseMasses<L> {
    pub mass_a: L,
    pub mass_b: L,
    pub inertia_a: L,
    pub inertia_b: L,
}

/// What the passes read of a contact; the fields are those of
/// [`SolverContact`](super::SolverContact).
#[derive(Clone, Copy, Debug)]
pub(super) struct Constraint<L> {
    /// Unit normal n from A to B.
    pub normal: (L, L),
    /// `r_A × n`, `r_B × n`.
    pub normal_levers: (L, L),
    /// `r_A × t`, `r_B × t`.
    pub tangent_levers: (L, L),
    /// 1/K_n, 1/K_t and 1/(1/I_A + 1/I_B) ([`effective_masses`]).
    pub masses: EffectiveMasses<L>,
    /// μ (§8).
    pub friction: L,
    /// μ_r·r (§9).
    pub rolling_limit: L,
    /// The normal velocity to drive toward: the bounce target −e·v_n, or 0 (§7).
    pub bounce: L,
}

/// The accumulated impulses of a contact: P_n ≥ 0, |P_t| ≤ μ·P_n, |P_r| ≤ μ_r·r·P_n.
#[derive(Clone, Copy, Debug)]
pub(super) struct Impulses<L> {
    pub normal: L,
    pub tangent: L,
    pub rolling: L,
}

/// The effective masses of a contact ([`effective_masses`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct EffectiveMasses<L> {
    /// 1/K_n.
    pub normal: L,
    /// 1/K_t.
    pub tangent: L,
    /// 1/(1/I_A + 1/I_B).
    pub rolling: L,
}

/// The tangent `t = (−n.y, n.x)` of a normal (§8), as [`tangent`](crate::physics::math::tangent).
#[inline(always)]
pub(super) fn tangent<L: Lane>(normal: (L, L)) -> (L, L) {
    (-normal.1, normal.0)
}

/// The denominator of the effective mass along the unit direction `d`, with the levers
/// `(r_A × d, r_B × d)` (§6, §8):
/// ```text
/// K = 1/m_A + 1/m_B + (r_A × d)²/I_A + (r_B × d)²/I_B
/// ```
/// An impulse λ along d changes the relative speed along d by λ·K, so 1/K is the impulse per
/// unit of speed (R-IMP-1). When neither body can turn (`1/I = 0` for both) the lever terms
/// are `+0` along any d, and `K = 1/m_A + 1/m_B` to the bit.
#[inline(always)]
pub(super) fn effective_mass_denominator<L: Lane>(m: &InverseMasses<L>, levers: (L, L)) -> L {
    m.mass_a + m.mass_b + levers.0 * levers.0 * m.inertia_a + levers.1 * levers.1 * m.inertia_b
}

/// The effective masses of a contact: `1/K_n` and `1/K_t` from
/// [`effective_mass_denominator`] along the normal and the tangent, and for the rolling
/// resistance, an angular impulse on `ω_B − ω_A`, `1/(1/I_A + 1/I_B)` (§6, §8, §9). Each is 0
/// where its denominator is 0: two immovable bodies (or dummy lanes) have no effective mass.
#[inline(always)]
pub(super) fn effective_masses<L: Lane>(
    m: &InverseMasses<L>,
    normal_levers: (L, L),
    tangent_levers: (L, L),
) -> EffectiveMasses<L> {
    EffectiveMasses {
        normal: effective_mass_denominator(m, normal_levers).inverse_or_zero(),
        tangent: effective_mass_denominator(m, tangent_levers).inverse_or_zero(),
        rolling: (m.inertia_a + m.inertia_b).inverse_or_zero(),
    }
}

/// The velocity of B relative to A along `d`, without the turning: `(v_B − v_A)·d`.
#[inline(always)]
pub(super) fn linear_speed<L: Lane>(a: &Velocity<L>, b: &Velocity<L>, d: (L, L)) -> L {
    (b.x - a.x) * d.0 + (b.y - a.y) * d.1
}

/// The velocity of B's contact point relative to A's along the unit direction `d`, with the
/// levers `(r_A × d, r_B × d)`, because `(ω × r)·d = ω (r × d)`:
/// ```text
/// v_rel·d = (v_B − v_A)·d + ω_B (r_B × d) − ω_A (r_A × d)
/// ```
#[inline(always)]
pub(super) fn relative_speed<L: Lane>(
    a: &Velocity<L>,
    b: &Velocity<L>,
    d: (L, L),
    levers: (L, L),
) -> L {
    linear_speed(a, b, d) + b.angular * levers.1 - a.angular * levers.0
}

/// Applies the impulse λ along `d` at the levers `(r_A × d, r_B × d)`, minus on A, plus on B
/// (actio = reactio):
/// ```text
/// v_A −= d·(λ/m_A),   ω_A −= (λ/I_A)(r_A × d),   v_B += d·(λ/m_B),   ω_B += (λ/I_B)(r_B × d)
/// ```
#[inline(always)]
pub(super) fn push_apart<L: Lane>(
    a: &mut Velocity<L>,
    b: &mut Velocity<L>,
    m: &InverseMasses<L>,
    d: (L, L),
    levers: (L, L),
    lambda: L,
) {
    let share_a = lambda * m.mass_a;
    a.x = a.x - d.0 * share_a;
    a.y = a.y - d.1 * share_a;
    a.angular = a.angular - lambda * m.inertia_a * levers.0;
    let share_b = lambda * m.mass_b;
    b.x = b.x + d.0 * share_b;
    b.y = b.y + d.1 * share_b;
    b.angular = b.angular + lambda * m.inertia_b * levers.1;
}

/// [`push_apart`] for bodies that cannot turn: the impulse `p = d·λ` first, then
/// `v_A −= p/m_A`, `v_B += p/m_B`. It rounds differently from `d·(λ/m)`; the linear contacts
/// keep this order, which the pinned state hashes hold.
#[inline(always)]
fn push_apart_linear<L: Lane>(
    a: &mut Velocity<L>,
    b: &mut Velocity<L>,
    m: &InverseMasses<L>,
    d: (L, L),
    lambda: L,
) {
    let (px, py) = (d.0 * lambda, d.1 * lambda);
    a.x = a.x - px * m.mass_a;
    a.y = a.y - py * m.mass_a;
    b.x = b.x + px * m.mass_b;
    b.y = b.y + py * m.mass_b;
}

/// The new accumulated normal impulse: the one that drives the normal speed `v_n` to
/// `target`, clamped to at least `floor` (§6):
/// ```text
/// P' = max(P − (v_n − target)/K_n, floor)
/// ```
/// The passes clamp `P_n ≥ 0`: the *accumulated* impulse, not one pass's increment, so a
/// later pass may take back too much of an earlier one, but the contact never pulls
/// (R-SI-1). The bounce pass clamps its own impulse so that the total stays ≥ 0.
#[inline(always)]
pub(super) fn normal_update<L: Lane>(impulse: L, mass: L, speed: L, target: L, floor: L) -> L {
    (impulse - mass * (speed - target)).at_least(floor)
}

/// The new accumulated impulse that stops the speed `speed` (sliding or spinning), clamped
/// to `[−bound, bound]`: `P' = clamp(P − speed/K, ±bound)`. Friction's bound is `μ·P_n`
/// (Coulomb, §8), rolling resistance's `μ_r·r·P_n` (§9).
#[inline(always)]
fn bounded_update<L: Lane>(impulse: L, mass: L, speed: L, bound: L) -> L {
    (impulse - mass * speed).within(bound)
}

/// The passes' normal update, [`normal_update`] with the floor 0, or with the rule switch
/// `accumulated_clamping` off (`ACCUMULATED = false`, R-LAB-1) the clamp of one pass's
/// increment instead of the sum's:
/// ```text
/// P' = P + max(−(v_n − target)/K_n, 0)
/// ```
/// No pass can then take back an earlier pass's excess: `P_n` only grows within a step.
/// The switch is a compile-time parameter, so the default passes carry no branch.
#[inline(always)]
fn passes_normal_update<L: Lane, const ACCUMULATED: bool>(
    impulse: L,
    mass: L,
    speed: L,
    target: L,
) -> L {
    if ACCUMULATED {
        normal_update(impulse, mass, speed, target, L::ZERO)
    } else {
        impulse + (-(mass * (speed - target))).at_least(L::ZERO)
    }
}

/// The passes' bounded update, [`bounded_update`], or with `accumulated_clamping` off
/// (R-LAB-1) the clamp of one pass's increment: `P' = P + clamp(−speed/K, ±bound)`, so the
/// sum may exceed the bound.
#[inline(always)]
fn passes_bounded_update<L: Lane, const ACCUMULATED: bool>(
    impulse: L,
    mass: L,
    speed: L,
    bound: L,
) -> L {
    if ACCUMULATED {
        bounded_update(impulse, mass, speed, bound)
    } else {
        impulse + (-(mass * speed)).within(bound)
    }
}

/// One solve of a contact of which a body can turn: normal, then friction, then rolling
/// resistance (R-SI-3), on the bodies' velocities `a` and `b`. `ACCUMULATED` is the rule
/// switch `accumulated_clamping` (true: the spec's rule, R-SI-1; see
/// [`passes_normal_update`]).
#[inline(always)]
pub(super) fn solve_rolling<L: Lane, const ACCUMULATED: bool>(
    c: &Constraint<L>,
    m: &InverseMasses<L>,
    p: &mut Impulses<L>,
    a: &mut Velocity<L>,
    b: &mut Velocity<L>,
) {
    // Normal: drive v_n to the bounce target (0 without one); accumulated P_n ≥ 0.
    let v_n = relative_speed(a, b, c.normal, c.normal_levers);
    let normal = passes_normal_update::<L, ACCUMULATED>(p.normal, c.masses.normal, v_n, c.bounce);
    push_apart(a, b, m, c.normal, c.normal_levers, normal - p.normal);
    p.normal = normal;

    // Friction: stop sliding along t = (−n.y, n.x) within |P_t| ≤ μ·P_n (Coulomb, §8).
    // The impulse acts at the contact point, so for circles it also spins them.
    let t = tangent(c.normal);
    let v_t = relative_speed(a, b, t, c.tangent_levers);
    let bound = c.friction * p.normal;
    let tangential =
        passes_bounded_update::<L, ACCUMULATED>(p.tangent, c.masses.tangent, v_t, bound);
    push_apart(a, b, m, t, c.tangent_levers, tangential - p.tangent);
    p.tangent = tangential;

    // Rolling resistance: an angular impulse on ω_B − ω_A with effective mass
    // 1/(1/I_A + 1/I_B), clamped to μ_r·r·P_n, the impulse of the torque M ≤ μ_r·N·r (§9).
    let spin = b.angular - a.angular;
    let bound = c.rolling_limit * p.normal;
    let rolling = passes_bounded_update::<L, ACCUMULATED>(p.rolling, c.masses.rolling, spin, bound);
    let lambda = rolling - p.rolling;
    a.angular = a.angular - m.inertia_a * lambda;
    b.angular = b.angular + m.inertia_b * lambda;
    p.rolling = rolling;
}

/// One solve of a contact whose bodies cannot turn: the normal and friction of
/// [`solve_rolling`] with the angular terms left out, because they are all zero, and with
/// the impulse applied by [`push_apart_linear`]. ω is left unchanged and `P_r` untouched.
/// Only `normal`, the normal and tangent masses, `friction` and `bounce` of `c` are read.
/// `ACCUMULATED` as in [`solve_rolling`].
#[inline(always)]
pub(super) fn solve_linear<L: Lane, const ACCUMULATED: bool>(
    c: &Constraint<L>,
    m: &InverseMasses<L>,
    p: &mut Impulses<L>,
    a: &mut Velocity<L>,
    b: &mut Velocity<L>,
) {
    let v_n = linear_speed(a, b, c.normal);
    let normal = passes_normal_update::<L, ACCUMULATED>(p.normal, c.masses.normal, v_n, c.bounce);
    push_apart_linear(a, b, m, c.normal, normal - p.normal);
    p.normal = normal;

    let t = tangent(c.normal);
    let v_t = linear_speed(a, b, t);
    let bound = c.friction * p.normal;
    let tangential =
        passes_bounded_update::<L, ACCUMULATED>(p.tangent, c.masses.tangent, v_t, bound);
    push_apart_linear(a, b, m, t, tangential - p.tangent);
    p.tangent = tangential;
}
