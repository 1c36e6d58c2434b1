//! The velocity passes four contacts at a time: the same Gauss-Seidel sweep as
//! [`solve_in_order`], laid out so that the processor solves four independent contacts with
//! one instruction per operation (SSE2 on x86_64), like Box2D v3's `contact_solver.c`
//! (`b2SolveContactTwoPointsTask` over `b2ContactConstraintSIMD`).
//!
//! # Why the result is the sequential one
//! [`SolveOrder`] colours the contacts so that two contacts of one colour share no movable
//! body. Solving a colour's contacts one after the other, no contact reads a velocity that
//! another contact of the colour writes, so solving four of them side by side reads and
//! writes exactly the same numbers. Immovable bodies (walls, static and sleeping bodies,
//! inverse mass 0) may appear in several lanes: they are read, never written, as in
//! [`solve_in_order`]. Each lane performs the operations of the scalar solve in the same
//! order with the same roundings (no fused multiply-add), so the velocities and impulses
//! are bit-equal to the reference path's; the test at the end of this file checks that on
//! random contact sets.
//!
//! # Layout
//! Per step, [`WideContacts::load`] does the work of the scalar `prepare` (levers, bounce
//! targets, and the effective masses four contacts at a time, bit-equal to `prepare`'s) and
//! copies
//! * the bodies' velocities into an array of `(v.x, v.y, ω, 0)`, one 16-byte register per
//!   body, plus one *sink* entry at the end. A group loads its four bodies of a side with
//!   four aligned loads and transposes them into `v.x`, `v.y` and `ω` lanes (glam's
//!   `Mat4::transpose`, 8 shuffles), and stores them back the same way. A lane whose body is
//!   immovable stores into the sink instead: no branch, and groups sharing a wall do not
//!   wait on each other's stores. Nothing reads the sink but dummy lanes.
//! * each colour's contacts into groups of [`LANES`], structure of arrays (one `[f32; 4]`
//!   per field), padded with dummy lanes that point at the sink and whose masses and
//!   inverse masses are all 0: a dummy lane computes a zero impulse.
//!
//! The scalar solve has two kinds of contact, and so do the groups:
//! * **linear**: neither body can turn (`rolling_mass` 0: boxes, walls, static bodies). The
//!   scalar path drops the angular terms (`solve_linear`); so does `LinearGroup::solve`.
//! * **rolling**: at least one body turns (circles). Normal and friction with the lever
//!   terms, then rolling resistance, as in the general scalar path (`RollingGroup::solve`).
//!
//! Within a colour the order of contacts does not change the result, so each colour's
//! linear contacts fill linear groups and its rolling contacts rolling groups: one *batch*.
//! The contacts of the overflow colour (more than 64 colours needed) share bodies and must be
//! solved one after the other in list order, after the wide colours, as in
//! [`SolveOrder::order`]: each gets a batch of its own, one group with three dummy lanes.
//!
//! [`WideContacts::store`] copies the effective masses and the accumulated impulses back into
//! the [`SolverContact`]s, where warm starting, the bounce pass and the contact reports read
//! them, and the velocities of the movable bodies back into the [`SolverBody`]s. All buffers
//! live in [`WideContacts`] and keep their memory across steps.

use std::ops::{Add, Mul, Neg, Sub};

use glam::{Mat4, Vec2, Vec4};

use super::contact::{SolverBodies, SolverBody, SolverContact, set_levers_and_bounce};
#[cfg(doc)]
use super::{order::SolveOrder, scalar::solve_in_order};

/// Contacts solved side by side: 4 `f32` fill one SSE2 register.
pub const LANES: usize = 4;

/// One field of a group: a value per lane.
type Lanes = [f32; LANES];

/// Four `f32` in one register, one per lane: glam's `Vec4`, which on x86_64 is an SSE
/// register (`__m128`) operated on with the SSE2 instructions every x86_64 processor has, and
/// elsewhere glam's portable (NEON, wasm or scalar) version.
///
/// Why not `[f32; 4]` with per-lane loops: LLVM split the arrays into scalars and
/// re-vectorized them along the wrong axis (a body's x and y in one register), with shuffles
/// around most operations; the solve took 275 instructions per linear group instead of ~110.
///
/// Each operator is one IEEE operation per lane, no fused multiply-add, so every lane rounds
/// as the scalar solve does.
#[derive(Clone, Copy, Debug)]
pub struct F4(Vec4);

impl F4 {
    /// All lanes 0.
    #[inline(always)]
    fn zero() -> F4 {
        F4(Vec4::ZERO)
    }

    /// The lanes of `values`, lane 0 first.
    #[inline(always)]
    fn new(values: Lanes) -> F4 {
        F4(Vec4::from_array(values))
    }

    /// The lanes as an array, lane 0 first.
    #[inline(always)]
    fn to_array(self) -> Lanes {
        self.0.to_array()
    }

    /// `max(x, low)` per lane, the scalar `if x > low { x } else { low }`: on x86_64 glam's
    /// `max` is `maxps(x, low)`, which returns its first operand where it is greater and
    /// the second otherwise: the same select.
    #[inline(always)]
    fn at_least(self, low: F4) -> F4 {
        F4(self.0.max(low.0))
    }

    /// `1/k` per lane, or 0 where `k ≤ 0`, as the scalar `inverse_or_zero`: `divps` rounds
    /// each lane as `divss` does.
    #[inline(always)]
    fn inverse_or_zero(self) -> F4 {
        F4(Vec4::select(self.0.cmpgt(Vec4::ZERO), Vec4::ONE / self.0, Vec4::ZERO))
    }

    /// `x` clamped to `[−limit, limit]` per lane, as the scalar `within`: the upper bound
    /// first (`minps(x, limit)`: x where it is less, else limit), then the lower.
    #[inline(always)]
    fn within(self, limit: F4) -> F4 {
        F4(self.0.min(limit.0).max(-limit.0))
    }
}

impl Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, rhs: F4) -> F4 {
        F4(self.0 + rhs.0)
    }
}

impl Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, rhs: F4) -> F4 {
        F4(self.0 - rhs.0)
    }
}

impl Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, rhs: F4) -> F4 {
        F4(self.0 * rhs.0)
    }
}

impl Neg for F4 {
    type Output = F4;
    /// Flips the sign bits, as scalar negation does.
    #[inline(always)]
    fn neg(self) -> F4 {
        F4(-self.0)
    }
}
/// Marks a dummy lane in the lists of contact indices.
const NO_CONTACT: u32 = u32::MAX;

/// Bytes per entry of the velocities. The groups hold where a body's entry lies as a byte
/// offset, `ENTRY_BYTES · index`: an index is scaled by 16 for each of the 16 loads and
/// stores of a group solve, a shift each, as no x86 address scales by more than 8.
const ENTRY_BYTES: u32 = std::mem::size_of::<Vec4>() as u32;

/// The byte offset of velocity entry `index` (see [`ENTRY_BYTES`]).
#[inline]
fn offset_of(index: u32) -> u32 {
    index * ENTRY_BYTES
}

/// The velocities of one side (A or B) of a group's four contacts, one lane per contact.
#[derive(Clone, Copy)]
struct Side {
    vx: F4,
    vy: F4,
    w: F4,
}

impl Side {
    /// Loads the velocities `(v.x, v.y, ω, 0)` of the bodies at byte `offsets` and
    /// transposes them into lanes.
    ///
    /// # Safety
    /// Every offset must be `ENTRY_BYTES · i` with `i < velocities.len()`. The groups of
    /// [`WideContacts`] guarantee it for their own velocities (see [`WideContacts::solve`]).
    #[inline(always)]
    unsafe fn gather(velocities: &[Vec4], offsets: &[u32; LANES]) -> Side {
        let base = velocities.as_ptr();
        let [a, b, c, d] = offsets.map(|offset| {
            debug_assert!(offset % ENTRY_BYTES == 0);
            debug_assert!(((offset / ENTRY_BYTES) as usize) < velocities.len());
            // SAFETY: the caller guarantees `offset = ENTRY_BYTES · i` with
            // `i < velocities.len()`: this is entry i, in bounds and aligned.
            unsafe { *base.byte_add(offset as usize) }
        });
        let lanes = Mat4::from_cols(a, b, c, d).transpose();
        Side { vx: F4(lanes.x_axis), vy: F4(lanes.y_axis), w: F4(lanes.z_axis) }
    }

    /// Transposes the lanes back into `(v.x, v.y, ω, 0)` per body and stores them at byte
    /// offsets `targets` (the body, or the sink for immovable bodies and dummy lanes).
    ///
    /// # Safety
    /// Every target must be `ENTRY_BYTES · i` with `i < velocities.len()`, as for
    /// [`gather`](Self::gather).
    #[inline(always)]
    unsafe fn scatter(&self, velocities: &mut [Vec4], targets: &[u32; LANES]) {
        let bodies = Mat4::from_cols(self.vx.0, self.vy.0, self.w.0, Vec4::ZERO).transpose();
        let columns = [bodies.x_axis, bodies.y_axis, bodies.z_axis, bodies.w_axis];
        let base = velocities.as_mut_ptr();
        for (&target, column) in targets.iter().zip(columns) {
            debug_assert!(target % ENTRY_BYTES == 0);
            debug_assert!(((target / ENTRY_BYTES) as usize) < velocities.len());
            // SAFETY: the caller guarantees `target = ENTRY_BYTES · i` with
            // `i < velocities.len()`: this is entry i, in bounds and aligned.
            unsafe { *base.byte_add(target as usize) = column };
        }
    }
}

/// Four contacts whose bodies cannot turn (the scalar path's `solve_linear`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct LinearGroup {
    /// Byte offsets of A's and B's velocities ([`ENTRY_BYTES`] · index), read by the gather.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Where the scatter stores A and B: the same, or the sink for immovable bodies.
    store_a: [u32; LANES],
    store_b: [u32; LANES],
    /// Unit normal from A to B.
    normal_x: Lanes,
    normal_y: Lanes,
    /// 1/m of A and B; 0 for immovable bodies and dummy lanes.
    inverse_mass_a: Lanes,
    inverse_mass_b: Lanes,
    /// Effective mass 1/K_n, which is also 1/K_t: with 1/I = 0 for both bodies, the lever
    /// terms of `K` are `(r × d)²·0 = +0` along any d, and `K = 1/m_A + 1/m_B` (§6, §8).
    normal_mass: Lanes,
    /// μ (§8).
    friction: Lanes,
    /// The normal velocity to drive toward: the bounce target −e·v_n, or 0 (§7).
    bounce: Lanes,
    /// Accumulated P_n and P_t.
    normal_impulse: Lanes,
    tangent_impulse: Lanes,
}

impl LinearGroup {
    /// Four dummy lanes: bodies at the sink (at byte offset `sink`), all masses 0, so each
    /// computes a zero impulse.
    fn dummy(sink: u32) -> LinearGroup {
        LinearGroup {
            a: [sink; LANES],
            b: [sink; LANES],
            store_a: [sink; LANES],
            store_b: [sink; LANES],
            ..LinearGroup::default()
        }
    }

    /// Makes `lane` a dummy lane, as in [`dummy`](Self::dummy). The pattern names every
    /// field, so that a new field cannot be forgotten.
    fn set_dummy_lane(&mut self, lane: usize, sink: u32) {
        let LinearGroup {
            a,
            b,
            store_a,
            store_b,
            normal_x,
            normal_y,
            inverse_mass_a,
            inverse_mass_b,
            normal_mass,
            friction,
            bounce,
            normal_impulse,
            tangent_impulse,
        } = self;
        for index in [a, b, store_a, store_b] {
            index[lane] = sink;
        }
        for value in [
            normal_x,
            normal_y,
            inverse_mass_a,
            inverse_mass_b,
            normal_mass,
            friction,
            bounce,
            normal_impulse,
            tangent_impulse,
        ] {
            value[lane] = 0.0;
        }
    }

    /// The effective masses of the four contacts from their inverse masses, as the scalar
    /// `prepare`: `1/K` with `K = 1/m_A + 1/m_B` (see [`normal_mass`](Self::normal_mass)),
    /// 0 where `K = 0` (two immovable bodies, dummy lanes).
    #[inline(always)]
    fn set_masses(&mut self) {
        let k = F4::new(self.inverse_mass_a) + F4::new(self.inverse_mass_b);
        self.normal_mass = k.inverse_or_zero().to_array();
    }

    /// One solve of the four contacts: normal, then friction, each in the scalar order of
    /// operations of `solve_linear` (ω is carried through unchanged):
    /// ```text
    /// v_n = (v_B − v_A)·n,   P_n' = max(P_n − v_n/K_n, 0),   p = n (P_n' − P_n)
    /// v_A −= p/m_A,   v_B += p/m_B
    /// v_t = (v_B − v_A)·t,   P_t' = clamp(P_t − v_t/K_t, ±μ P_n'),   the same with t
    /// ```
    ///
    /// # Safety
    /// Every offset in `a`, `b`, `store_a` and `store_b` must be `ENTRY_BYTES · i` with
    /// `i < velocities.len()`.
    #[inline(always)]
    unsafe fn solve(&mut self, velocities: &mut [Vec4]) {
        // SAFETY: the caller guarantees that the four offset lists are in range.
        let (mut a, mut b) =
            unsafe { (Side::gather(velocities, &self.a), Side::gather(velocities, &self.b)) };
        let (nx, ny) = (F4::new(self.normal_x), F4::new(self.normal_y));
        let (ima, imb) = (F4::new(self.inverse_mass_a), F4::new(self.inverse_mass_b));

        // Normal: drive v_n to the bounce target, accumulated P_n ≥ 0.
        let normal_impulse = F4::new(self.normal_impulse);
        let v_n = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny;
        let accumulated = (normal_impulse
            - F4::new(self.normal_mass) * (v_n - F4::new(self.bounce)))
        .at_least(F4::zero());
        let lambda = accumulated - normal_impulse;
        let (px, py) = (nx * lambda, ny * lambda);
        let normal_impulse = accumulated;
        (a.vx, a.vy) = (a.vx - px * ima, a.vy - py * ima);
        (b.vx, b.vy) = (b.vx + px * imb, b.vy + py * imb);

        // Friction along t = (−n.y, n.x), |P_t| ≤ μ·P_n.
        let tangent_impulse = F4::new(self.tangent_impulse);
        let (tx, ty) = (-ny, nx);
        let v_t = (b.vx - a.vx) * tx + (b.vy - a.vy) * ty;
        let limit = F4::new(self.friction) * normal_impulse;
        let accumulated = (tangent_impulse - F4::new(self.normal_mass) * v_t).within(limit);
        let lambda = accumulated - tangent_impulse;
        let (px, py) = (tx * lambda, ty * lambda);
        (a.vx, a.vy) = (a.vx - px * ima, a.vy - py * ima);
        (b.vx, b.vy) = (b.vx + px * imb, b.vy + py * imb);
        self.normal_impulse = normal_impulse.to_array();
        self.tangent_impulse = accumulated.to_array();

        // SAFETY: as for the gathers.
        unsafe {
            a.scatter(velocities, &self.store_a);
            b.scatter(velocities, &self.store_b);
        }
    }
}

/// Four contacts of which a body can turn (the scalar path's general `solve_contact`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct RollingGroup {
    /// Byte offsets of A's and B's velocities ([`ENTRY_BYTES`] · index), read by the gather.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Where the scatter stores A and B: the same, or the sink for immovable bodies.
    store_a: [u32; LANES],
    store_b: [u32; LANES],
    /// Unit normal from A to B.
    normal_x: Lanes,
    normal_y: Lanes,
    /// `r_A × n`, `r_B × n`.
    normal_lever_a: Lanes,
    normal_lever_b: Lanes,
    /// `r_A × t`, `r_B × t`.
    tangent_lever_a: Lanes,
    tangent_lever_b: Lanes,
    /// 1/m and 1/I of A and B; 0 for immovable bodies and dummy lanes.
    inverse_mass_a: Lanes,
    inverse_mass_b: Lanes,
    inverse_inertia_a: Lanes,
    inverse_inertia_b: Lanes,
    /// Effective masses 1/K_n, 1/K_t and 1/(1/I_A + 1/I_B).
    normal_mass: Lanes,
    tangent_mass: Lanes,
    rolling_mass: Lanes,
    /// μ (§8) and μ_r·r (§9).
    friction: Lanes,
    rolling_limit: Lanes,
    /// The normal velocity to drive toward: the bounce target −e·v_n, or 0 (§7).
    bounce: Lanes,
    /// Accumulated P_n, P_t and P_r.
    normal_impulse: Lanes,
    tangent_impulse: Lanes,
    rolling_impulse: Lanes,
}

/// The inverse masses of both sides of a rolling group, in lanes.
struct InverseMasses {
    mass_a: F4,
    mass_b: F4,
    inertia_a: F4,
    inertia_b: F4,
}

impl RollingGroup {
    /// Four dummy lanes: bodies at the sink (at byte offset `sink`), all masses 0, so each
    /// computes a zero impulse.
    fn dummy(sink: u32) -> RollingGroup {
        RollingGroup {
            a: [sink; LANES],
            b: [sink; LANES],
            store_a: [sink; LANES],
            store_b: [sink; LANES],
            ..RollingGroup::default()
        }
    }

    /// Makes `lane` a dummy lane, as in [`dummy`](Self::dummy). The pattern names every
    /// field, so that a new field cannot be forgotten.
    fn set_dummy_lane(&mut self, lane: usize, sink: u32) {
        let RollingGroup {
            a,
            b,
            store_a,
            store_b,
            normal_x,
            normal_y,
            normal_lever_a,
            normal_lever_b,
            tangent_lever_a,
            tangent_lever_b,
            inverse_mass_a,
            inverse_mass_b,
            inverse_inertia_a,
            inverse_inertia_b,
            normal_mass,
            tangent_mass,
            rolling_mass,
            friction,
            rolling_limit,
            bounce,
            normal_impulse,
            tangent_impulse,
            rolling_impulse,
        } = self;
        for index in [a, b, store_a, store_b] {
            index[lane] = sink;
        }
        for value in [
            normal_x,
            normal_y,
            normal_lever_a,
            normal_lever_b,
            tangent_lever_a,
            tangent_lever_b,
            inverse_mass_a,
            inverse_mass_b,
            inverse_inertia_a,
            inverse_inertia_b,
            normal_mass,
            tangent_mass,
            rolling_mass,
            friction,
            rolling_limit,
            bounce,
            normal_impulse,
            tangent_impulse,
            rolling_impulse,
        ] {
            value[lane] = 0.0;
        }
    }

    /// `v_rel·d = (v_B − v_A)·d + ω_B (r_B × d) − ω_A (r_A × d)`, as the scalar
    /// `relative_speed`.
    #[inline(always)]
    fn relative_speed(a: &Side, b: &Side, d: (F4, F4), levers: (F4, F4)) -> F4 {
        (b.vx - a.vx) * d.0 + (b.vy - a.vy) * d.1 + b.w * levers.1 - a.w * levers.0
    }

    /// `λ` along `d` at the given levers, minus on A, plus on B, as the scalar `push_apart`:
    /// `v_A −= d (λ/m_A)`, `ω_A −= λ/I_A (r_A × d)`, and plus for B.
    #[inline(always)]
    fn push_apart(
        (a, b): (&mut Side, &mut Side),
        m: &InverseMasses,
        d: (F4, F4),
        levers: (F4, F4),
        lambda: F4,
    ) {
        let sa = lambda * m.mass_a;
        a.vx = a.vx - d.0 * sa;
        a.vy = a.vy - d.1 * sa;
        a.w = a.w - lambda * m.inertia_a * levers.0;
        let sb = lambda * m.mass_b;
        b.vx = b.vx + d.0 * sb;
        b.vy = b.vy + d.1 * sb;
        b.w = b.w + lambda * m.inertia_b * levers.1;
    }

    /// The effective masses of the four contacts from their levers and inverse masses, in
    /// the order of operations of the scalar `prepare` (§6, §8, §9):
    /// ```text
    /// K_d = 1/m_A + 1/m_B + (r_A × d)²/I_A + (r_B × d)²/I_B   for d = n and d = t
    /// 1/K_n,   1/K_t,   1/(1/I_A + 1/I_B),   each 0 where its K is 0
    /// ```
    #[inline(always)]
    fn set_masses(&mut self) {
        let m = self.inverse_masses();
        let k = |(lever_a, lever_b): (Lanes, Lanes)| {
            let (la, lb) = (F4::new(lever_a), F4::new(lever_b));
            m.mass_a + m.mass_b + la * la * m.inertia_a + lb * lb * m.inertia_b
        };
        let normal = k((self.normal_lever_a, self.normal_lever_b));
        let tangent = k((self.tangent_lever_a, self.tangent_lever_b));
        self.normal_mass = normal.inverse_or_zero().to_array();
        self.tangent_mass = tangent.inverse_or_zero().to_array();
        self.rolling_mass = (m.inertia_a + m.inertia_b).inverse_or_zero().to_array();
    }

    /// The inverse masses and inertias of both sides, in lanes.
    #[inline(always)]
    fn inverse_masses(&self) -> InverseMasses {
        InverseMasses {
            mass_a: F4::new(self.inverse_mass_a),
            mass_b: F4::new(self.inverse_mass_b),
            inertia_a: F4::new(self.inverse_inertia_a),
            inertia_b: F4::new(self.inverse_inertia_b),
        }
    }

    /// One solve of the four contacts: normal, friction, rolling resistance (R-SI-3), each
    /// in the scalar order of operations (see `solve_contact` for the physics):
    /// ```text
    /// P_n' = max(P_n − v_n/K_n, 0)
    /// P_t' = clamp(P_t − v_t/K_t, ±μ P_n')
    /// P_r' = clamp(P_r − (ω_B − ω_A)/(1/I_A + 1/I_B), ±μ_r r P_n')
    /// ```
    ///
    /// # Safety
    /// Every offset in `a`, `b`, `store_a` and `store_b` must be `ENTRY_BYTES · i` with
    /// `i < velocities.len()`.
    #[inline(always)]
    unsafe fn solve(&mut self, velocities: &mut [Vec4]) {
        // SAFETY: the caller guarantees that the four offset lists are in range.
        let (mut a, mut b) =
            unsafe { (Side::gather(velocities, &self.a), Side::gather(velocities, &self.b)) };
        let m = self.inverse_masses();

        // Normal: drive v_n to the bounce target, accumulated P_n ≥ 0.
        let normal_impulse = F4::new(self.normal_impulse);
        let n = (F4::new(self.normal_x), F4::new(self.normal_y));
        let levers = (F4::new(self.normal_lever_a), F4::new(self.normal_lever_b));
        let v_n = Self::relative_speed(&a, &b, n, levers);
        let accumulated = (normal_impulse
            - F4::new(self.normal_mass) * (v_n - F4::new(self.bounce)))
        .at_least(F4::zero());
        Self::push_apart((&mut a, &mut b), &m, n, levers, accumulated - normal_impulse);
        let normal_impulse = accumulated;

        // Friction along t = (−n.y, n.x), |P_t| ≤ μ·P_n.
        let tangent_impulse = F4::new(self.tangent_impulse);
        let t = (-n.1, n.0);
        let levers = (F4::new(self.tangent_lever_a), F4::new(self.tangent_lever_b));
        let v_t = Self::relative_speed(&a, &b, t, levers);
        let limit = F4::new(self.friction) * normal_impulse;
        let accumulated = (tangent_impulse - F4::new(self.tangent_mass) * v_t).within(limit);
        Self::push_apart((&mut a, &mut b), &m, t, levers, accumulated - tangent_impulse);
        self.tangent_impulse = accumulated.to_array();

        // Rolling resistance on ω_B − ω_A, |P_r| ≤ μ_r·r·P_n (§9).
        let rolling_impulse = F4::new(self.rolling_impulse);
        let relative_spin = b.w - a.w;
        let limit = F4::new(self.rolling_limit) * normal_impulse;
        let accumulated =
            (rolling_impulse - F4::new(self.rolling_mass) * relative_spin).within(limit);
        let lambda = accumulated - rolling_impulse;
        a.w = a.w - m.inertia_a * lambda;
        b.w = b.w + m.inertia_b * lambda;
        self.rolling_impulse = accumulated.to_array();
        self.normal_impulse = normal_impulse.to_array();

        // SAFETY: as for the gathers.
        unsafe {
            a.scatter(velocities, &self.store_a);
            b.scatter(velocities, &self.store_b);
        }
    }
}

/// Groups solved one after the other: a colour's linear groups, then its rolling groups.
/// Stores where the batch ends in [`WideContacts`]' two group lists.
#[derive(Clone, Copy, Debug, Default)]
struct Batch {
    linear_end: u32,
    rolling_end: u32,
}

/// The coloured contacts in groups of [`LANES`] and a copy of the body velocities, rebuilt
/// each step, memory kept.
#[derive(Clone, Debug, Default)]
pub struct WideContacts {
    /// `(v.x, v.y, ω, 0)` per solver body, then the sink.
    velocities: Vec<Vec4>,
    linear: Vec<LinearGroup>,
    rolling: Vec<RollingGroup>,
    /// The contact index of each lane, [`NO_CONTACT`] for dummies.
    linear_contacts: Vec<[u32; LANES]>,
    rolling_contacts: Vec<[u32; LANES]>,
    batches: Vec<Batch>,
    /// Per colour, the next free lane (group · [`LANES`] + lane) of its linear and of its
    /// rolling groups, while loading.
    next_lane: Vec<[u32; 2]>,
}

/// Whether a contact between `a` and `b` goes to a rolling group: a body can turn,
/// `1/I_A + 1/I_B > 0`, which is the scalar path's `rolling_mass ≠ 0` for finite inverse
/// inertias (every body's).
#[inline]
pub(crate) fn is_rolling(a: &SolverBody, b: &SolverBody) -> bool {
    a.inverse_inertia + b.inverse_inertia > 0.0
}

impl WideContacts {
    /// Copies the velocities and lays out the contacts in groups, colour by colour:
    /// `colours[i]` is contact i's colour (64 for the overflow), `counts[k]` how many
    /// linear and rolling contacts colour k has. On the way it does the work of the scalar
    /// `prepare`: each contact gets its levers and bounce target (`set_levers_and_bounce`,
    /// shared with `prepare`), and the groups their effective masses four at a time
    /// (`set_masses`). Needs the warm-start impulses. Returns whether a contact has a bounce
    /// target.
    ///
    /// The groups are sized from the counts first, so that one pass over the contacts in
    /// list order can put each into its place: colour k's linear contacts fill its linear
    /// groups in list order, lane after lane, as they come in [`SolveOrder::order`]; each
    /// overflow contact gets the next overflow group and a batch of its own.
    pub fn load(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &SolverBodies,
        restitution_threshold: f32,
        colours: &[u8],
        counts: &[[u32; 2]],
    ) -> bool {
        self.velocities.clear();
        self.velocities.extend(
            bodies
                .bodies
                .iter()
                .map(|b| Vec4::new(b.velocity.x, b.velocity.y, b.angular_velocity, 0.0)),
        );
        self.velocities.push(Vec4::ZERO);
        // Every byte offset fits in a u32 (the sink's is the largest).
        assert!(bodies.bodies.len() < (u32::MAX / ENTRY_BYTES) as usize, "too many bodies");
        let sink = offset_of(bodies.bodies.len() as u32);

        // The first lane of each colour's groups, and one batch per colour in use. The
        // batches are built aside and handed to `solve` only after the checks below: a load
        // that panics half-way (and is caught) leaves no batch to solve stale groups with.
        let mut batches = std::mem::take(&mut self.batches);
        batches.clear();
        self.next_lane.clear();
        let (mut linear_groups, mut rolling_groups) = (0, 0);
        let (wide_colours, overflow) = counts.split_at(counts.len().saturating_sub(1));
        for &[linear, rolling] in wide_colours {
            self.next_lane.push([linear_groups * LANES as u32, rolling_groups * LANES as u32]);
            linear_groups += linear.div_ceil(LANES as u32);
            rolling_groups += rolling.div_ceil(LANES as u32);
            if linear + rolling > 0 {
                batches.push(Batch { linear_end: linear_groups, rolling_end: rolling_groups });
            }
        }
        // Overflow contacts: one group each, after the colours' groups.
        let mut overflow_next = [linear_groups, rolling_groups];
        let [overflow_linear, overflow_rolling] = overflow.first().copied().unwrap_or([0; 2]);
        let (linear_total, rolling_total) = (
            (linear_groups + overflow_linear) as usize,
            (rolling_groups + overflow_rolling) as usize,
        );
        // The groups keep last step's contents: filling every group with dummies first cost a
        // copy of the whole group per group. Instead every lane is written once, below: a
        // contact's lanes in the loop over the contacts, the dummy lanes (the tail of each
        // colour's last group, lanes 1.. of each overflow group) here. The check after the
        // loop makes sure that each colour got exactly its count of contacts, so no lane keeps
        // an index of an earlier step (which [`solve`](Self::solve) relies on).
        self.linear.resize(linear_total, LinearGroup::dummy(sink));
        self.linear_contacts.resize(linear_total, [NO_CONTACT; LANES]);
        self.rolling.resize(rolling_total, RollingGroup::dummy(sink));
        self.rolling_contacts.resize(rolling_total, [NO_CONTACT; LANES]);
        for (&[linear, rolling], &[linear_start, rolling_start]) in
            wide_colours.iter().zip(&self.next_lane)
        {
            let (linear_end, rolling_end) = (linear_start + linear, rolling_start + rolling);
            for slot in linear_end..linear_end.next_multiple_of(LANES as u32) {
                let (group, lane) = (slot as usize / LANES, slot as usize % LANES);
                self.linear[group].set_dummy_lane(lane, sink);
                self.linear_contacts[group][lane] = NO_CONTACT;
            }
            for slot in rolling_end..rolling_end.next_multiple_of(LANES as u32) {
                let (group, lane) = (slot as usize / LANES, slot as usize % LANES);
                self.rolling[group].set_dummy_lane(lane, sink);
                self.rolling_contacts[group][lane] = NO_CONTACT;
            }
        }
        for group in linear_groups as usize..linear_total {
            for lane in 1..LANES {
                self.linear[group].set_dummy_lane(lane, sink);
                self.linear_contacts[group][lane] = NO_CONTACT;
            }
        }
        for group in rolling_groups as usize..rolling_total {
            for lane in 1..LANES {
                self.rolling[group].set_dummy_lane(lane, sink);
                self.rolling_contacts[group][lane] = NO_CONTACT;
            }
        }

        // The gather offset and the store offset of a body.
        let targets = |i: u32, body: &SolverBody| {
            let offset = offset_of(i);
            (offset, if body.inverse_mass > 0.0 { offset } else { sink })
        };
        let mut bounces = false;
        // Cut to one length, so that the checked index of a contact's body into `solver`
        // also covers its indices into the other two (the compiler drops their checks).
        let solver = &bodies.bodies[..];
        let (starts, held) = (&bodies.start_velocity[..solver.len()], &bodies.held[..solver.len()]);
        for (index, (c, &colour)) in contacts.iter_mut().zip(colours).enumerate() {
            let (body_a, body_b) = (&solver[c.a as usize], &solver[c.b as usize]);
            set_levers_and_bounce(c, starts, held, restitution_threshold);
            bounces |= c.bounce_velocity != 0.0;
            let (a, store_a) = targets(c.a, body_a);
            let (b, store_b) = targets(c.b, body_b);
            let kind = usize::from(is_rolling(body_a, body_b));
            let slot = match self.next_lane.get_mut(colour as usize) {
                Some(next) => {
                    next[kind] += 1;
                    (next[kind] - 1) as usize
                }
                None => {
                    overflow_next[kind] += 1;
                    let [linear_end, rolling_end] = overflow_next;
                    batches.push(Batch { linear_end, rolling_end });
                    (overflow_next[kind] - 1) as usize * LANES
                }
            };
            let (group, lane) = (slot / LANES, slot % LANES);
            let index = index as u32;
            if kind == 1 {
                let g = &mut self.rolling[group];
                (g.a[lane], g.store_a[lane], g.b[lane], g.store_b[lane]) = (a, store_a, b, store_b);
                g.normal_x[lane] = c.normal.x;
                g.normal_y[lane] = c.normal.y;
                g.normal_lever_a[lane] = c.normal_levers.0;
                g.normal_lever_b[lane] = c.normal_levers.1;
                g.tangent_lever_a[lane] = c.tangent_levers.0;
                g.tangent_lever_b[lane] = c.tangent_levers.1;
                g.inverse_mass_a[lane] = body_a.inverse_mass;
                g.inverse_mass_b[lane] = body_b.inverse_mass;
                g.inverse_inertia_a[lane] = body_a.inverse_inertia;
                g.inverse_inertia_b[lane] = body_b.inverse_inertia;
                g.friction[lane] = c.friction;
                g.bounce[lane] = c.bounce_velocity;
                g.rolling_limit[lane] = c.rolling_limit;
                g.normal_impulse[lane] = c.normal_impulse;
                g.tangent_impulse[lane] = c.tangent_impulse;
                g.rolling_impulse[lane] = c.rolling_impulse;
                self.rolling_contacts[group][lane] = index;
            } else {
                let g = &mut self.linear[group];
                (g.a[lane], g.store_a[lane], g.b[lane], g.store_b[lane]) = (a, store_a, b, store_b);
                g.normal_x[lane] = c.normal.x;
                g.normal_y[lane] = c.normal.y;
                g.inverse_mass_a[lane] = body_a.inverse_mass;
                g.inverse_mass_b[lane] = body_b.inverse_mass;
                g.friction[lane] = c.friction;
                g.bounce[lane] = c.bounce_velocity;
                g.normal_impulse[lane] = c.normal_impulse;
                g.tangent_impulse[lane] = c.tangent_impulse;
                self.linear_contacts[group][lane] = index;
            }
        }
        // Every colour filled exactly its lanes, and the overflow exactly its groups: then
        // every lane was written this step (see above). Counts that do not match the colours
        // stop here, before a group with a stale index could be solved.
        let mut start = [0, 0];
        for (&[linear, rolling], next) in wide_colours.iter().zip(&self.next_lane) {
            assert_eq!(*next, [start[0] + linear, start[1] + rolling], "colour counts");
            start[0] += linear.next_multiple_of(LANES as u32);
            start[1] += rolling.next_multiple_of(LANES as u32);
        }
        assert_eq!(overflow_next, [linear_total as u32, rolling_total as u32], "overflow count");
        self.batches = batches;
        for group in &mut self.linear {
            group.set_masses();
        }
        for group in &mut self.rolling {
            group.set_masses();
        }
        bounces
    }

    /// One Gauss-Seidel pass: the batches in order (the wide colours, then the overflow
    /// contacts one by one), each batch's groups in order. Equal to [`solve_in_order`] over
    /// [`SolveOrder::order`].
    ///
    /// The groups gather and scatter without bounds checks (they were ~48 instructions per
    /// group, a sixth of a linear group's solve). Every body offset a group holds is
    /// `ENTRY_BYTES · i` with `i < self.velocities.len()`:
    /// * only [`load`](Self::load) writes the groups and the velocities (the fields are
    ///   private, and `solve` and [`store`](Self::store) change neither the groups' offsets
    ///   nor the length of the velocities);
    /// * `load` fills the velocities with one entry per solver body and then the sink, so
    ///   `self.velocities.len() = bodies.len() + 1`, and the sink is entry `bodies.len()`;
    /// * each offset `load` writes is `offset_of(i)` (which it asserts does not overflow)
    ///   of the sink's index (dummy lanes, stores of immovable bodies) or of a contact's
    ///   `c.a` or `c.b`, which `load` has used to index `bodies.bodies` (a checked index,
    ///   which panics before the group is written if it is out of range), so less than
    ///   `bodies.len()`;
    /// * `load` writes every lane of every group it keeps (the groups keep last step's
    ///   contents, whose indices may be out of range now): the contacts' lanes and the dummy
    ///   lanes, and it asserts that each colour received exactly its count of contacts,
    ///   which is what makes the contacts' lanes exactly the lanes that are not dummies;
    /// * before the first `load` (`WideContacts::default()`) there are no groups.
    pub fn solve(&mut self) {
        let velocities = &mut self.velocities[..];
        let (mut linear_start, mut rolling_start) = (0, 0);
        for batch in &self.batches {
            let (linear_end, rolling_end) = (batch.linear_end as usize, batch.rolling_end as usize);
            for group in &mut self.linear[linear_start..linear_end] {
                // SAFETY: the group's offsets are in range, as argued above.
                unsafe { group.solve(velocities) };
            }
            for group in &mut self.rolling[rolling_start..rolling_end] {
                // SAFETY: the group's offsets are in range, as argued above.
                unsafe { group.solve(velocities) };
            }
            (linear_start, rolling_start) = (linear_end, rolling_end);
        }
    }

    /// Copies the effective masses and the accumulated impulses back into `contacts` and the
    /// velocities of the movable bodies back into `bodies`.
    pub fn store(&self, contacts: &mut [SolverContact], bodies: &mut [SolverBody]) {
        for (group, indices) in self.linear.iter().zip(&self.linear_contacts) {
            for (lane, &index) in indices.iter().enumerate() {
                if let Some(c) = contacts.get_mut(index as usize) {
                    c.normal_mass = group.normal_mass[lane];
                    c.tangent_mass = group.normal_mass[lane];
                    c.rolling_mass = 0.0;
                    c.normal_impulse = group.normal_impulse[lane];
                    c.tangent_impulse = group.tangent_impulse[lane];
                }
            }
        }
        for (group, indices) in self.rolling.iter().zip(&self.rolling_contacts) {
            for (lane, &index) in indices.iter().enumerate() {
                if let Some(c) = contacts.get_mut(index as usize) {
                    c.normal_mass = group.normal_mass[lane];
                    c.tangent_mass = group.tangent_mass[lane];
                    c.rolling_mass = group.rolling_mass[lane];
                    c.normal_impulse = group.normal_impulse[lane];
                    c.tangent_impulse = group.tangent_impulse[lane];
                    c.rolling_impulse = group.rolling_impulse[lane];
                }
            }
        }
        for (body, v) in bodies.iter_mut().zip(&self.velocities) {
            if body.inverse_mass > 0.0 {
                body.velocity = Vec2::new(v.x, v.y);
                body.angular_velocity = v.z;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::solver::order::SolveOrder;
    use crate::physics::solver::scalar::{prepare, solve_in_order, warm_start};

    /// xorshift64*: a small deterministic generator, enough for test inputs.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        /// Uniform in `[low, high)`.
        fn range(&mut self, low: f32, high: f32) -> f32 {
            low + (high - low) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn vec(&mut self, size: f32) -> Vec2 {
            Vec2::new(self.range(-size, size), self.range(-size, size))
        }
    }

    /// Random bodies: immovable ones (inverse masses 0, some moving, as a wall never does),
    /// boxes (1/I = 0) and discs, with random velocities and masses; body 0 is a disc.
    fn random_bodies(rng: &mut Rng, count: usize) -> SolverBodies {
        let mut bodies = SolverBodies::default();
        for i in 0..count {
            let velocity = rng.vec(300.0);
            let angular_velocity = rng.range(-10.0, 10.0);
            let body = match if i == 0 { 3 } else { rng.below(4) } {
                0 => SolverBody { velocity, angular_velocity, ..SolverBody::default() },
                1 => SolverBody {
                    velocity,
                    angular_velocity: 0.0,
                    inverse_mass: 1.0 / rng.range(0.1, 50.0),
                    inverse_inertia: 0.0,
                },
                _ => SolverBody {
                    velocity,
                    angular_velocity,
                    inverse_mass: 1.0 / rng.range(0.1, 50.0),
                    inverse_inertia: 1.0 / rng.range(1.0, 5000.0),
                },
            };
            let start = (body.velocity + rng.vec(20.0), body.angular_velocity);
            bodies.push(body, start, rng.below(8) == 0);
        }
        bodies
    }

    /// Random contacts between distinct bodies, with random normals, levers, coefficients
    /// and warm-start impulses; `hub` makes body 0 touch every `hub`-th contact, so that
    /// more than 64 colours are needed and the overflow path runs too.
    fn random_contacts(
        rng: &mut Rng,
        bodies: usize,
        count: usize,
        hub: usize,
    ) -> Vec<SolverContact> {
        (0..count)
            .map(|i| {
                let a = if hub > 0 && i % hub == 0 { 0 } else { rng.below(bodies) };
                let b = (a + 1 + rng.below(bodies - 1)) % bodies;
                let angle = rng.range(0.0, std::f32::consts::TAU);
                let normal = Vec2::new(angle.cos(), angle.sin());
                let mut c = SolverContact::new(
                    a as u32,
                    b as u32,
                    normal,
                    rng.range(0.0, 2.0),
                    rng.vec(400.0),
                    rng.vec(30.0),
                    rng.vec(30.0),
                    rng.range(0.0, 1.0),
                    rng.range(0.0, 1.0),
                    rng.range(0.0, 5.0),
                );
                if rng.below(4) != 0 {
                    c.normal_impulse = rng.range(0.0, 100.0);
                    c.tangent_impulse = rng.range(-30.0, 30.0);
                    c.rolling_impulse = rng.range(-30.0, 30.0);
                }
                c
            })
            .collect()
    }

    /// All bits of a contact's prepared state and impulses.
    fn contact_bits(c: &SolverContact) -> [u32; 13] {
        [
            c.normal_levers.0,
            c.normal_levers.1,
            c.tangent_levers.0,
            c.tangent_levers.1,
            c.normal_mass,
            c.tangent_mass,
            c.rolling_mass,
            c.bounce_velocity,
            c.normal_impulse,
            c.restitution_impulse,
            c.tangent_impulse,
            c.rolling_impulse,
            c.friction,
        ]
        .map(f32::to_bits)
    }

    /// The wide path against the reference: the same random contact sets, warm started, then
    /// [`prepare`] and 8 passes of [`solve_in_order`] over the colour order on one copy, and
    /// [`SolveOrder::solve_passes`] (which prepares while it loads the groups) on the other.
    /// Each lane performs the scalar operations in the scalar order, so the prepared values,
    /// velocities and impulses must be bit-equal (not merely close); the sets cover both
    /// group kinds, partly filled groups, immovable bodies shared between lanes, held bodies,
    /// bounce targets, and the overflow colour.
    /// The world's fused pass equals `warm_start`, then `build`: the same velocities to the
    /// bit, the same colours and counts.
    #[test]
    fn warm_start_and_build_equals_warm_start_then_build() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for (body_count, contact_count, hub) in [(3, 5, 0), (40, 100, 0), (120, 400, 3)] {
            let bodies = random_bodies(&mut rng, body_count);
            let contacts = random_contacts(&mut rng, body_count, contact_count, hub);
            let (mut reference, mut fused) = (bodies.bodies.clone(), bodies.bodies.clone());
            let (mut reference_order, mut fused_order) =
                (SolveOrder::default(), SolveOrder::default());
            warm_start(&contacts, &mut reference);
            reference_order.build(&contacts, &reference);
            fused_order.warm_start_and_build(&contacts, &mut fused, |_, _, _| {});
            let bits =
                |b: &SolverBody| [b.velocity.x, b.velocity.y, b.angular_velocity].map(f32::to_bits);
            assert!(reference.iter().map(bits).eq(fused.iter().map(bits)));
            assert_eq!(reference_order.colours(), fused_order.colours());
            assert_eq!(reference_order.order(), fused_order.order());
        }
    }

    #[test]
    fn wide_passes_equal_the_reference_bit_for_bit() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut order = SolveOrder::default();
        let shapes = [
            (2, 1, 0),
            (3, 5, 0),
            (10, 7, 0),
            (40, 100, 0),
            (200, 600, 0),
            (120, 400, 3),
            (90, 300, 2),
        ];
        for round in 0..40 {
            let (body_count, contact_count, hub) = shapes[round % shapes.len()];
            let mut bodies = random_bodies(&mut rng, body_count);
            let mut contacts = random_contacts(&mut rng, body_count, contact_count, hub);
            warm_start(&contacts, &mut bodies.bodies);
            order.build(&contacts, &bodies.bodies);

            let (mut reference_contacts, mut reference_bodies) = (contacts.clone(), bodies.clone());
            prepare(&mut reference_contacts, &reference_bodies, 50.0);
            let reference_order = order.order();
            for _ in 0..8 {
                solve_in_order(
                    &mut reference_contacts,
                    &mut reference_bodies.bodies,
                    &reference_order,
                );
            }
            let bounces = order.solve_passes(&mut contacts, &mut bodies, 50.0, 8);

            let bits =
                |b: &SolverBody| [b.velocity.x, b.velocity.y, b.angular_velocity].map(f32::to_bits);
            for (i, (wide, reference)) in
                bodies.bodies.iter().zip(&reference_bodies.bodies).enumerate()
            {
                assert_eq!(bits(wide), bits(reference), "round {round}, body {i}");
            }
            for (i, (wide, reference)) in contacts.iter().zip(&reference_contacts).enumerate() {
                assert_eq!(
                    contact_bits(wide),
                    contact_bits(reference),
                    "round {round}, contact {i}"
                );
            }
            assert_eq!(
                bounces,
                reference_contacts.iter().any(|c| c.bounce_velocity != 0.0),
                "round {round}"
            );
            if hub > 0 {
                let overflow = order.colours().iter().filter(|&&c| c == 64).count();
                assert!(overflow > 0, "round {round}: the hub should overflow 64 colours");
            }
        }
    }

    /// The unchecked gathers rely on `load` having run to its end (see `WideContacts::solve`).
    /// A load that panics (here: counts that claim a contact the list does not have) and is
    /// caught must not leave last step's groups, with body indices far beyond the new
    /// bodies, to the next `solve`: it leaves no batch at all, and `solve` does nothing.
    #[test]
    fn a_load_that_panics_leaves_nothing_to_solve() {
        let bodies = |n: usize| {
            let mut set = SolverBodies::default();
            for _ in 0..n {
                let body =
                    SolverBody { velocity: Vec2::ONE, inverse_mass: 1.0, ..SolverBody::default() };
                set.push(body, (Vec2::ZERO, 0.0), false);
            }
            set
        };
        let contact = |a, b| {
            SolverContact::new(
                a,
                b,
                Vec2::Y,
                1.0,
                Vec2::ZERO,
                Vec2::ZERO,
                Vec2::ZERO,
                0.5,
                0.0,
                0.0,
            )
        };
        let mut wide = WideContacts::default();
        wide.load(&mut [contact(998, 999)], &bodies(1000), 50.0, &[0], &[[1, 0], [0, 0]]);
        wide.solve();
        let small = bodies(2);
        let load = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wide.load(&mut [], &small, 50.0, &[], &[[1, 0], [0, 0]]);
        }));
        assert!(load.is_err(), "counts that do not match the contacts must be refused");
        assert!(wide.batches.is_empty(), "a failed load left {} batches", wide.batches.len());
        wide.solve();
        assert_eq!(wide.velocities.len(), 3, "two bodies and the sink");
    }
}
