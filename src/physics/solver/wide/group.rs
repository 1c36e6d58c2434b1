//! Groups of four contacts in structure-of-arrays layout, and their solves: the formulas of
//! [`impulse`] on four lanes, between a gather of the bodies' velocities and a scatter back.

use glam::{Mat4, Vec4};

use super::f4::{F4, Lanes};
use super::{ENTRY_BYTES, LANES};
use crate::physics::solver::impulse::{
    self, Constraint, EffectiveMasses, Impulses, InverseMasses, Velocity,
};
use crate::physics::solver::lane::Lane;

/// The velocity entry at byte `offset` of `velocities`, without a bounds check: the one
/// `unsafe` of the wide kernel. A checked index on each of the 16 loads and stores of a
/// group solve would cost a compare and a branch each in the innermost loop.
///
/// Sound because `velocities` is always [`WideContacts`](super::WideContacts)' own and
/// `offset` one of the body offsets its groups hold (the gathers and scatters of the group
/// solves are the only callers, and [`WideContacts::solve`](super::WideContacts::solve) is
/// the only caller of those). Every such offset is `ENTRY_BYTES · i` with
/// `i < velocities.len()`:
/// * only [`load`](super::WideContacts::load) and
///   [`load_prepared`](super::WideContacts::load_prepared) write the offsets and the
///   velocities, both through one function, `lay_out`, which the points below call `load`
///   (the fields are private to `wide`; `solve` and `store` change neither the groups'
///   offsets nor the length of the velocities);
/// * `load` fills the velocities with one entry per solver body and then the sink, so
///   `velocities.len() = bodies.len() + 1`, and the sink is entry `bodies.len()`;
/// * each offset `load` writes is `offset_of(i)` (which it asserts does not overflow) of the
///   sink's index (dummy lanes, stores of immovable bodies) or of a contact's `c.a` or `c.b`,
///   which `load` has used to index `bodies.bodies` (a checked index, which panics before the
///   group is written if it is out of range), so less than `bodies.len()`;
/// * `load` writes every lane of every group it keeps (the groups keep last step's contents,
///   whose indices may be out of range now): the contacts' lanes and the dummy lanes, and it
///   asserts that each colour received exactly its count of contacts, which is what makes
///   the contacts' lanes exactly the lanes that are not dummies. A `load` that panics leaves
///   no batch, so `solve` solves no group;
/// * before the first `load` (`WideContacts::default()`) there are no groups.
#[inline(always)]
fn entry(velocities: &mut [Vec4], offset: u32) -> &mut Vec4 {
    debug_assert!(offset.is_multiple_of(ENTRY_BYTES), "offset {offset} is not an entry's");
    debug_assert!(((offset / ENTRY_BYTES) as usize) < velocities.len(), "offset {offset}");
    // SAFETY: `offset = ENTRY_BYTES · i` with `i < velocities.len()` (see above), so this is
    // entry i: in bounds, aligned, and borrowed through the `&mut` of `velocities`.
    unsafe { &mut *velocities.as_mut_ptr().byte_add(offset as usize) }
}

/// Loads the velocities `(v.x, v.y, ω, 0)` of the bodies at byte `offsets` and transposes
/// them into lanes (glam's `Mat4::transpose`, 8 shuffles).
#[inline(always)]
fn gather(velocities: &mut [Vec4], offsets: &[u32; LANES]) -> Velocity<F4> {
    let [a, b, c, d] = offsets.map(|offset| *entry(velocities, offset));
    let lanes = Mat4::from_cols(a, b, c, d).transpose();
    Velocity { x: F4(lanes.x_axis), y: F4(lanes.y_axis), angular: F4(lanes.z_axis) }
}

/// Transposes the lanes back into `(v.x, v.y, ω, 0)` per body and stores them at byte
/// offsets `targets` (the body, or the sink for immovable bodies and dummy lanes).
#[inline(always)]
fn scatter(v: &Velocity<F4>, velocities: &mut [Vec4], targets: &[u32; LANES]) {
    let bodies = Mat4::from_cols(v.x.0, v.y.0, v.angular.0, Vec4::ZERO).transpose();
    let columns = [bodies.x_axis, bodies.y_axis, bodies.z_axis, bodies.w_axis];
    for (&target, column) in targets.iter().zip(columns) {
        *entry(velocities, target) = column;
    }
}

/// Four contacts whose bodies cannot turn ([`impulse::solve_linear`]).
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
    /// Effective mass 1/K_n, which is also 1/K_t: with 1/I = 0 for both bodies,
    /// `K = 1/m_A + 1/m_B` along any direction ([`impulse::effective_mass_denominator`]).
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

    /// The inverse masses in lanes; `1/I` is 0 for both bodies.
    #[inline(always)]
    fn inverse_masses(&self) -> InverseMasses<F4> {
        InverseMasses {
            mass_a: F4::new(self.inverse_mass_a),
            mass_b: F4::new(self.inverse_mass_b),
            inertia_a: F4::ZERO,
            inertia_b: F4::ZERO,
        }
    }

    /// The effective masses of the four contacts from their inverse masses:
    /// [`impulse::effective_mass_denominator`] without levers and with `1/I = 0`, which is
    /// `K = 1/m_A + 1/m_B` to the bit, so `1/K_t = 1/K_n` (0 where `K = 0`: two immovable
    /// bodies, dummy lanes).
    #[inline(always)]
    pub(super) fn set_masses(&mut self) {
        let k = impulse::effective_mass_denominator(&self.inverse_masses(), (F4::ZERO, F4::ZERO));
        self.normal_mass = k.inverse_or_zero().to_array();
    }

    /// One solve of the four contacts ([`impulse::solve_linear`], with its `ACCUMULATED`).
    ///
    /// `velocities` must be those of the [`WideContacts`](super::WideContacts) that holds
    /// this group: its offsets are read without bounds checks (see [`entry`]).
    #[inline(always)]
    pub(super) fn solve<const ACCUMULATED: bool>(&mut self, velocities: &mut [Vec4]) {
        let (mut a, mut b) = (gather(velocities, &self.a), gather(velocities, &self.b));
        let m = self.inverse_masses();
        let normal_mass = F4::new(self.normal_mass);
        // The levers and the rolling terms are not read by `solve_linear`.
        let constraint = Constraint {
            normal: (F4::new(self.normal_x), F4::new(self.normal_y)),
            normal_levers: (F4::ZERO, F4::ZERO),
            tangent_levers: (F4::ZERO, F4::ZERO),
            masses: EffectiveMasses {
                normal: normal_mass,
                tangent: normal_mass,
                rolling: F4::ZERO,
            },
            friction: F4::new(self.friction),
            rolling_limit: F4::ZERO,
            bounce: F4::new(self.bounce),
        };
        let mut impulses = Impulses {
            normal: F4::new(self.normal_impulse),
            tangent: F4::new(self.tangent_impulse),
            rolling: F4::ZERO,
        };
        impulse::solve_linear::<_, ACCUMULATED>(&constraint, &m, &mut impulses, &mut a, &mut b);
        self.normal_impulse = impulses.normal.to_array();
        self.tangent_impulse = impulses.tangent.to_array();
        scatter(&a, velocities, &self.store_a);
        scatter(&b, velocities, &self.store_b);
    }
}

/// Four contacts of which a body can turn ([`impulse::solve_rolling`]).
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

    /// The inverse masses and inertias of both sides, in lanes.
    #[inline(always)]
    fn inverse_masses(&self) -> InverseMasses<F4> {
        InverseMasses {
            mass_a: F4::new(self.inverse_mass_a),
            mass_b: F4::new(self.inverse_mass_b),
            inertia_a: F4::new(self.inverse_inertia_a),
            inertia_b: F4::new(self.inverse_inertia_b),
        }
    }

    /// The effective masses of the four contacts from their levers and inverse masses
    /// ([`impulse::effective_masses`]).
    #[inline(always)]
    pub(super) fn set_masses(&mut self) {
        let masses = impulse::effective_masses(
            &self.inverse_masses(),
            (F4::new(self.normal_lever_a), F4::new(self.normal_lever_b)),
            (F4::new(self.tangent_lever_a), F4::new(self.tangent_lever_b)),
        );
        self.normal_mass = masses.normal.to_array();
        self.tangent_mass = masses.tangent.to_array();
        self.rolling_mass = masses.rolling.to_array();
    }

    /// One solve of the four contacts ([`impulse::solve_rolling`], with its `ACCUMULATED`).
    ///
    /// `velocities` must be those of the [`WideContacts`](super::WideContacts) that holds
    /// this group: its offsets are read without bounds checks (see [`entry`]).
    #[inline(always)]
    pub(super) fn solve<const ACCUMULATED: bool>(&mut self, velocities: &mut [Vec4]) {
        let (mut a, mut b) = (gather(velocities, &self.a), gather(velocities, &self.b));
        let m = self.inverse_masses();
        let constraint = Constraint {
            normal: (F4::new(self.normal_x), F4::new(self.normal_y)),
            normal_levers: (F4::new(self.normal_lever_a), F4::new(self.normal_lever_b)),
            tangent_levers: (F4::new(self.tangent_lever_a), F4::new(self.tangent_lever_b)),
            masses: EffectiveMasses {
                normal: F4::new(self.normal_mass),
                tangent: F4::new(self.tangent_mass),
                rolling: F4::new(self.rolling_mass),
            },
            friction: F4::new(self.friction),
            rolling_limit: F4::new(self.rolling_limit),
            bounce: F4::new(self.bounce),
        };
        let mut impulses = Impulses {
            normal: F4::new(self.normal_impulse),
            tangent: F4::new(self.tangent_impulse),
            rolling: F4::new(self.rolling_impulse),
        };
        impulse::solve_rolling::<_, ACCUMULATED>(&constraint, &m, &mut impulses, &mut a, &mut b);
        self.normal_impulse = impulses.normal.to_array();
        self.tangent_impulse = impulses.tangent.to_array();
        self.rolling_impulse = impulses.rolling.to_array();
        scatter(&a, velocities, &self.store_a);
        scatter(&b, velocities, &self.store_b);
    }
}
