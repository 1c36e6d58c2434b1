//! Groups of four contacts in structure-of-arrays layout, and their solves.

use glam::{Mat4, Vec4};

use super::f4::{F4, Lanes};
use super::{ENTRY_BYTES, LANES};

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
pub(super) struct LinearGroup {
    /// Byte offsets of A's and B's velocities ([`ENTRY_BYTES`] · index), read by the gather.
    pub(super) a: [u32; LANES],
    pub(super) b: [u32; LANES],
    /// Where the scatter stores A and B: the same, or the sink for immovable bodies.
    pub(super) store_a: [u32; LANES],
    pub(super) store_b: [u32; LANES],
    /// Unit normal from A to B.
    pub(super) normal_x: Lanes,
    pub(super) normal_y: Lanes,
    /// 1/m of A and B; 0 for immovable bodies and dummy lanes.
    pub(super) inverse_mass_a: Lanes,
    pub(super) inverse_mass_b: Lanes,
    /// Effective mass 1/K_n, which is also 1/K_t: with 1/I = 0 for both bodies, the lever
    /// terms of `K` are `(r × d)²·0 = +0` along any d, and `K = 1/m_A + 1/m_B` (§6, §8).
    pub(super) normal_mass: Lanes,
    /// μ (§8).
    pub(super) friction: Lanes,
    /// The normal velocity to drive toward: the bounce target −e·v_n, or 0 (§7).
    pub(super) bounce: Lanes,
    /// Accumulated P_n and P_t.
    pub(super) normal_impulse: Lanes,
    pub(super) tangent_impulse: Lanes,
}

impl LinearGroup {
    /// Four dummy lanes: bodies at the sink (at byte offset `sink`), all masses 0, so each
    /// computes a zero impulse.
    pub(super) fn dummy(sink: u32) -> LinearGroup {
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
    pub(super) fn set_dummy_lane(&mut self, lane: usize, sink: u32) {
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
    pub(super) fn set_masses(&mut self) {
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
    pub(super) unsafe fn solve(&mut self, velocities: &mut [Vec4]) {
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
pub(super) struct RollingGroup {
    /// Byte offsets of A's and B's velocities ([`ENTRY_BYTES`] · index), read by the gather.
    pub(super) a: [u32; LANES],
    pub(super) b: [u32; LANES],
    /// Where the scatter stores A and B: the same, or the sink for immovable bodies.
    pub(super) store_a: [u32; LANES],
    pub(super) store_b: [u32; LANES],
    /// Unit normal from A to B.
    pub(super) normal_x: Lanes,
    pub(super) normal_y: Lanes,
    /// `r_A × n`, `r_B × n`.
    pub(super) normal_lever_a: Lanes,
    pub(super) normal_lever_b: Lanes,
    /// `r_A × t`, `r_B × t`.
    pub(super) tangent_lever_a: Lanes,
    pub(super) tangent_lever_b: Lanes,
    /// 1/m and 1/I of A and B; 0 for immovable bodies and dummy lanes.
    pub(super) inverse_mass_a: Lanes,
    pub(super) inverse_mass_b: Lanes,
    pub(super) inverse_inertia_a: Lanes,
    pub(super) inverse_inertia_b: Lanes,
    /// Effective masses 1/K_n, 1/K_t and 1/(1/I_A + 1/I_B).
    pub(super) normal_mass: Lanes,
    pub(super) tangent_mass: Lanes,
    pub(super) rolling_mass: Lanes,
    /// μ (§8) and μ_r·r (§9).
    pub(super) friction: Lanes,
    pub(super) rolling_limit: Lanes,
    /// The normal velocity to drive toward: the bounce target −e·v_n, or 0 (§7).
    pub(super) bounce: Lanes,
    /// Accumulated P_n, P_t and P_r.
    pub(super) normal_impulse: Lanes,
    pub(super) tangent_impulse: Lanes,
    pub(super) rolling_impulse: Lanes,
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
    pub(super) fn dummy(sink: u32) -> RollingGroup {
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
    pub(super) fn set_dummy_lane(&mut self, lane: usize, sink: u32) {
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
    pub(super) fn set_masses(&mut self) {
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
    pub(super) unsafe fn solve(&mut self, velocities: &mut [Vec4]) {
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
