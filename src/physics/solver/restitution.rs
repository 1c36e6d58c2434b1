//! Restitution (§7): the bounce pass after inelastic passes, and the energy guard that keeps
//! simultaneous bounces from adding energy.

use glam::Vec2;

use super::contact::{SolverBody, SolverContact, inverse_masses, write_back};
use super::impulse::{Velocity, normal_update, push_apart, relative_speed};
use super::scalar::warm_start_contact;
use crate::physics::math::inverse_or_zero;

/// [`restitute`] for the contacts listed in `order` that `take` accepts; returns whether any
/// bounced.
pub fn restitute_in_order(
    contacts: &mut [SolverContact],
    bodies: &mut [SolverBody],
    order: &[u32],
    take: impl Fn(&SolverContact, &[SolverBody]) -> bool,
) -> bool {
    let mut bounced = false;
    for &index in order {
        let c = &mut contacts[index as usize];
        if take(c, bodies) {
            bounced |= restitute(std::slice::from_mut(c), bodies);
        }
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
        let m = inverse_masses(&a, &b);
        let (mut va, mut vb) = (a.velocities(), b.velocities());
        let n = (c.normal.x, c.normal.y);
        let v_n = relative_speed(&va, &vb, n, c.normal_levers);
        // The bounce target, plus Baumgarte's bias when the rule switch asks for it
        // (R-LAB-1; +0 otherwise, which keeps the target's bits), as in the passes.
        let accumulated = normal_update(
            c.restitution_impulse,
            c.normal_mass,
            v_n,
            c.normal_target(),
            -c.normal_impulse,
        );
        push_apart(&mut va, &mut vb, &m, n, c.normal_levers, accumulated - c.restitution_impulse);
        c.restitution_impulse = accumulated;
        a.set_velocities(va);
        b.set_velocities(vb);
        write_back(bodies, ia, a);
        write_back(bodies, ib, b);
    }
    bounced
}

/// Impacts one after another, without gravity or in a row on the floor (§7, deviation D15 of
/// docs/physics.md): up to `sweeps` sweeps over the contacts listed in `order`, in which
/// every contact whose bodies approach faster than `threshold` *now* (after the impacts
/// before it) gets the impulse of a collision of two bodies,
/// ```text
/// λ = −(1 + e)·v_n / K,   so that   v_n' = −e·v_n,
/// ```
/// added to its `restitution_impulse`. Sweeps end early once none is hit. Contacts with
/// e = 0 and held bodies' contacts (the hand absorbs the impact, R-RES-6) are left to the
/// inelastic passes that follow.
///
/// Why: a collision of two bodies alone loses `½·μ_red·(1 − e²)·v_n²` (R-RES-1) and never
/// gains, so a sequence of them never adds energy, and through a row of touching equal
/// balls with e = 1 it hands the first ball's speed on from ball to ball to the last, as
/// in Newton's cradle. The passes' step-start targets give a contact that is at rest at
/// the step start no bounce: the row moved off as a block and the first ball came back
/// (5.3 % of the energy lost for five balls).
pub fn impacts_in_turn(
    contacts: &mut [SolverContact],
    bodies: &mut [SolverBody],
    order: &[u32],
    held: &[bool],
    threshold: f32,
    sweeps: u32,
) {
    for _ in 0..sweeps {
        let mut hit = false;
        for &index in order {
            let c = &mut contacts[index as usize];
            let (ia, ib) = (c.a as usize, c.b as usize);
            if c.restitution <= 0.0 || held[ia] || held[ib] {
                continue;
            }
            let (mut a, mut b) = (bodies[ia], bodies[ib]);
            let (mut va, mut vb) = (a.velocities(), b.velocities());
            let n = (c.normal.x, c.normal.y);
            let v_n = relative_speed(&va, &vb, n, c.normal_levers);
            if v_n >= -threshold {
                continue;
            }
            let impulse = -(1.0 + c.restitution) * v_n * c.normal_mass;
            push_apart(&mut va, &mut vb, &inverse_masses(&a, &b), n, c.normal_levers, impulse);
            c.restitution_impulse += impulse;
            a.set_velocities(va);
            b.set_velocities(vb);
            write_back(bodies, ia, a);
            write_back(bodies, ib, b);
            hit = true;
        }
        if !hit {
            break;
        }
    }
}

/// |n·down| below which a contact's normal lies across gravity (within 0.06° of
/// perpendicular to it): a box's side, a side wall. Such a contact carries no weight.
const ACROSS_GRAVITY: f32 = 1e-3;

/// |n·down| below which two bodies touch side by side rather than one resting on the other
/// (within 1.15° of perpendicular to gravity): the tilt of two 12 px circles whose heights
/// differ by the slop, 0.5 px / 24 px ≈ 0.021. Balls spawned into a row on the floor settle
/// some 0.1 px apart in height, far beyond [`ACROSS_GRAVITY`]; such a contact carries at most
/// 2 % of a push as weight.
const SIDE_BY_SIDE: f32 = 0.02;

/// An island with a contact that has a bounce target.
const BOUNCED: u16 = 1;
/// An island with a contact that started from a carried normal impulse.
const WARM_STARTED: u16 = 2;
/// An island with a warm-started contact that still pushes after the passes although its
/// bodies separate faster than its target plus the overshoot speed.
const OVERSHOT: u16 = 4;
/// An island whose warm start raised its kinetic energy.
const RAISED: u16 = 8;
/// An island solved again with its bounces in their own pass (D1, D15).
const OWN_BOUNCES: u16 = 16;
/// An island whose impacts are taken one after another ([`impacts_in_turn`], D15): without
/// gravity every island, under gravity one in which nothing rests on anything movable, all
/// bounces lie across gravity and an impact has a body to be handed on to (a row of balls
/// or boxes on the floor, struck along it).
const IN_TURN: u16 = 32;
/// Under gravity, an island with a contact of two movable bodies that are not side by side
/// ([`SIDE_BY_SIDE`]): one rests on the other, or may.
const STACKED: u16 = 64;
/// Under gravity, an island with a bounce target on a contact that does not lie across
/// gravity (within [`SIDE_BY_SIDE`]).
const BOUNCED_ALONG: u16 = 128;
/// Under gravity, an island with a bounce target on a contact of two movable bodies side by
/// side.
const BOUNCED_BETWEEN: u16 = 256;
/// Under gravity, an island with a contact of two movable bodies side by side that has no
/// bounce target: a body an impact can be handed on to.
const RESTING_BETWEEN: u16 = 512;
/// Under gravity, an island with a warm-started contact across gravity: it counts as
/// [`WARM_STARTED`] only if the island is not [`STACKED`].
const WARM_STARTED_FLAT: u16 = 1024;

/// A line search over the kinetic energy of each island that keeps the bounces (D1) and the
/// warm start (D10, [`Self::warm_start_limited`]) from adding energy (see the module docs).
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
    /// Per island: [`BOUNCED`], [`WARM_STARTED`], [`OVERSHOT`], [`RAISED`], [`OWN_BOUNCES`],
    /// [`IN_TURN`], [`STACKED`], [`BOUNCED_ALONG`], [`BOUNCED_BETWEEN`], [`RESTING_BETWEEN`]
    /// and [`WARM_STARTED_FLAT`] bits.
    kind: Vec<u16>,
    /// Per solver body: a body of a contact that overshot, or of a contact that touches a
    /// body whose energy a warm start raised.
    near: Vec<bool>,
    /// Per solver body: its energy was raised (see [`Self::find_gains`]).
    raised_body: Vec<bool>,
    /// Under gravity, the warm-started contacts across gravity that were hit and overshot
    /// (see `overshot`) without being thrown apart: they mark their island [`OVERSHOT`] if
    /// it is not [`STACKED`].
    flat_overshots: Vec<u32>,
    /// Which way gravity pulls, as [`Self::find_gains`] was told (`None`: no gravity).
    down: Option<Vec2>,
    gained: Vec<bool>,
    /// Per island: the plain kinetic energy with the velocities the solve started from, and
    /// with those it finished with.
    entered: Vec<f32>,
    finished: Vec<f32>,
    start: Vec<f32>,
    base: Vec<f32>,
    slope: Vec<f32>,
    curvature: Vec<f32>,
    scale: Vec<f32>,
}

impl EnergyGuard {
    /// Marks the islands to solve again (D1 and D10 of docs/physics.md) and returns whether
    /// any is marked. See [`Self::gained`]; the energies are kept for
    /// [`Self::warm_start_limited`] and [`Self::limit_bounces`].
    ///
    /// These islands are marked:
    /// * one with a bounce target (`bounce_velocity ≠ 0`) that ends the passes with more
    ///   energy than it started the step with (`start`: the velocities before gravity),
    ///   measured at mid-step velocities (below): its bounces are applied again in their
    ///   own pass (D1). Without gravity, every island with a bounce target, and under
    ///   gravity one in which every contact of two movable bodies is side by side
    ///   ([`SIDE_BY_SIDE`]), every bounce target lies across gravity, and one contact of
    ///   two movable bodies bounces while another does not (a row on the floor struck
    ///   along it): its impacts are taken one after another ([`impacts_in_turn`], D15);
    /// * with `guard_warm_start` and without gravity (`down` is `None`), one with a
    ///   warm-started contact (`carried`: the impulses the passes started from, by contact)
    ///   whose plain kinetic energy after the passes exceeds that of the velocities it
    ///   entered the solve with (`loaded`: before the warm start). The inelastic passes
    ///   minimise exactly that energy from their start (the `solver` module docs), so the
    ///   warm start raised it (D10). Its bodies that gained are remembered. Under gravity
    ///   the same for an island in which nothing rests on anything movable (not
    ///   [`STACKED`]), with its warm-started contacts across gravity and the energy of the
    ///   velocities across gravity (`across`: the part along it is the step's fall);
    /// * with `guard_warm_start` and without gravity, or under gravity in an island that is
    ///   not [`STACKED`], one with a warm-started contact (across gravity) that was hit
    ///   this step and still pushes although its bodies separate faster than its target
    ///   plus `overshoot` (see `overshot`; D10);
    /// * with `guard_warm_start` and gravity along `down`, one with a warm-started contact
    ///   across gravity (a box's side, a side wall: it carries no weight) that still pushes
    ///   although its bodies separate faster than its target plus `impact_speed`, the bounce
    ///   threshold (see `thrown_apart`; D10). Its second solve scales only such contacts'
    ///   warm starts and keeps its bounces in the passes.
    ///
    /// The bounces' energy is measured at mid-step velocities, `v₀ + kick` before and
    /// `v − kick` after, with `kick = ½·g·dt`: that is what semi-implicit Euler conserves.
    /// Per unit mass, with `x' = x + v·dt`, the integrator's energy `½v² + g·y − ½·g·v·dt`
    /// (y up) changes in a step by exactly `½|v − kick|² − ½|v₀ + kick|²`. Plain kinetic
    /// energy would let a bounce that sends a light body up, fed by a heavy one coming
    /// down, gain `m·|g|·|v|·dt/2` of it.
    #[allow(clippy::too_many_arguments)]
    pub fn find_gains(
        &mut self,
        contacts: &[SolverContact],
        carried: &[(f32, f32, f32)],
        bodies: &[SolverBody],
        start: &[(Vec2, f32)],
        loaded: &[(Vec2, f32)],
        kick: Vec2,
        island: &[u32],
        down: Option<Vec2>,
        impact_speed: f32,
        overshoot: f32,
        guard_warm_start: bool,
    ) -> bool {
        let n = bodies.len();
        let weightless = down.is_none();
        self.down = down;
        self.kind.clear();
        self.kind.resize(n, 0);
        self.near.clear();
        self.near.resize(n, false);
        let mut any = false;
        self.flat_overshots.clear();
        for (index, (c, &(carried_normal, _, _))) in contacts.iter().zip(carried).enumerate() {
            let mut kind = if c.bounce_velocity != 0.0 { BOUNCED } else { 0 };
            // Under gravity a warm start carries weight: D10 scales only those of contacts
            // across gravity (see the world's `find_gains`).
            if guard_warm_start && carried_normal > 0.0 && guards(down, c) {
                kind |= if weightless { WARM_STARTED } else { WARM_STARTED_FLAT };
                let hit_and_overshot =
                    |c| overshot(c, carried_normal, bodies, start, impact_speed, overshoot);
                let pushes_apart = c.normal_impulse > 0.0
                    && match down {
                        None => hit_and_overshot(c),
                        Some(_) => thrown_apart(c, bodies, impact_speed),
                    };
                if pushes_apart {
                    kind |= OVERSHOT;
                    for i in [c.a as usize, c.b as usize] {
                        self.near[i] |= bodies[i].inverse_mass > 0.0;
                    }
                } else if !weightless && c.normal_impulse > 0.0 && hit_and_overshot(c) {
                    // Decided once the island is known to be flat (below).
                    self.flat_overshots.push(index as u32);
                }
            }
            if let Some(down) = down {
                let both_movable = bodies[c.a as usize].inverse_mass > 0.0
                    && bodies[c.b as usize].inverse_mass > 0.0;
                if !side_by_side(down, c) {
                    if both_movable {
                        self.kind[island[movable(c, bodies)] as usize] |= STACKED;
                    }
                    if kind & BOUNCED != 0 {
                        kind |= BOUNCED_ALONG;
                    }
                } else if both_movable {
                    kind |= if kind & BOUNCED != 0 { BOUNCED_BETWEEN } else { RESTING_BETWEEN };
                }
            }
            if kind == 0 {
                continue;
            }
            self.kind[island[movable(c, bodies)] as usize] |= kind;
            any = true;
        }
        // A contact across gravity in an island where nothing rests on anything movable
        // carries no weight: there its warm start is judged as without gravity (D10), and a
        // hit contact that overshot counts, the impulse carried from an impact that the
        // passes could not take back.
        for kind in &mut self.kind {
            if *kind & (WARM_STARTED_FLAT | STACKED) == WARM_STARTED_FLAT {
                *kind |= WARM_STARTED;
            }
        }
        for &index in &self.flat_overshots {
            let c = &contacts[index as usize];
            let k = island[movable(c, bodies)] as usize;
            if self.kind[k] & STACKED == 0 {
                self.kind[k] |= OVERSHOT;
                for i in [c.a as usize, c.b as usize] {
                    self.near[i] |= bodies[i].inverse_mass > 0.0;
                }
            }
        }
        self.gained.clear();
        self.gained.resize(n, false);
        if !any {
            return false;
        }
        for sums in [&mut self.start, &mut self.base, &mut self.entered, &mut self.finished] {
            sums.clear();
            sums.resize(n, 0.0);
        }
        for (i, body) in bodies.iter().enumerate() {
            if body.inverse_mass > 0.0 && self.kind[island[i] as usize] != 0 {
                let k = island[i] as usize;
                let (v0, w0) = start[i];
                let (v1, w1) = loaded[i];
                self.start[k] += kinetic_energy(body, (v0 + kick, w0));
                self.entered[k] += kinetic_energy(body, (across(down, v1), w1));
                self.base[k] += kinetic_energy(body, (body.velocity - kick, body.angular_velocity));
                let finished = (across(down, body.velocity), body.angular_velocity);
                self.finished[k] += kinetic_energy(body, finished);
            }
        }
        let (mut gained, mut raised) = (false, false);
        for k in 0..n {
            // f32 sums over the island: a relative margin for their rounding.
            let (kind, base) = (self.kind[k], self.base[k]);
            if kind & WARM_STARTED != 0 && self.finished[k] > self.entered[k] * (1.0 + 1e-5) {
                self.kind[k] |= RAISED;
                raised = true;
            }
            // Without gravity every island with a bounce is solved again, its impacts one
            // after another (D15), and so is one under gravity whose bounces all lie across
            // gravity and in which no movable body rests on another; any other under
            // gravity only if its bounces gained (D1).
            let bounced = kind & BOUNCED != 0;
            let in_turn = weightless
                || (kind & (BOUNCED_BETWEEN | RESTING_BETWEEN)
                    == BOUNCED_BETWEEN | RESTING_BETWEEN
                    && kind & (STACKED | BOUNCED_ALONG) == 0);
            if in_turn {
                self.kind[k] |= IN_TURN;
            }
            if bounced && (in_turn || base > self.start[k] * (1.0 + 1e-5)) {
                self.kind[k] |= OWN_BOUNCES;
            }
            self.gained[k] = self.kind[k] & (OVERSHOT | RAISED | OWN_BOUNCES) != 0;
            gained |= self.gained[k];
        }
        if raised {
            self.find_raised_bodies(contacts, bodies, loaded, island);
        }
        gained
    }

    /// In the islands whose warm start raised their energy, the bodies that gained, and the
    /// contacts that touch them: their bodies are marked as
    /// `near`, like those of a contact that overshot.
    fn find_raised_bodies(
        &mut self,
        contacts: &[SolverContact],
        bodies: &[SolverBody],
        loaded: &[(Vec2, f32)],
        island: &[u32],
    ) {
        self.raised_body.clear();
        self.raised_body.resize(bodies.len(), false);
        for (i, body) in bodies.iter().enumerate() {
            if body.inverse_mass > 0.0 && self.kind[island[i] as usize] & RAISED != 0 {
                let (v1, w1) = loaded[i];
                let entered = kinetic_energy(body, (across(self.down, v1), w1));
                let finished =
                    kinetic_energy(body, (across(self.down, body.velocity), body.angular_velocity));
                self.raised_body[i] = finished > entered * (1.0 + 1e-5);
            }
        }
        for c in contacts {
            if self.raised_body[c.a as usize] || self.raised_body[c.b as usize] {
                for i in [c.a as usize, c.b as usize] {
                    self.near[i] |= bodies[i].inverse_mass > 0.0;
                }
            }
        }
    }

    /// Warm starts the contacts listed in `order` (all of the islands marked by
    /// [`Self::find_gains`]), scaled down where the warm start did harm (D10). `bodies` hold
    /// the velocities the solve started from (`loaded`); `before` is a buffer.
    ///
    /// Which warm starts are scaled: in an island whose warm start raised its energy, or in
    /// which a hit contact overshot, those of the contacts that touch a body near the
    /// culprit (a body that gained, its partners, or the hit contact's bodies: for a light
    /// box hit against a wall, the hit and the wall's contact behind it); in any other
    /// island marked, all of them. The others are applied first, whole; then the
    /// scaled ones, along the line `v(s) = before + s·Δv` of plain kinetic energy (what the
    /// passes minimise)
    /// ```text
    /// E(s) = E(0) + s·slope + ½ s²·curvature.
    /// ```
    /// After a hit, or where the line raises the energy, s is its least energy
    /// `−slope / curvature` ∈ [0, 1], one per island; elsewhere s = 1. The least energy,
    /// not the root `E(s) = E(0)`: at the root a heavy body that a repeated impact impulse
    /// threw back would leave as fast as it came; at the least energy it stops. Under
    /// gravity only the warm starts of contacts across gravity are on the line: the others
    /// carry weight.
    pub fn warm_start_limited(
        &mut self,
        contacts: &mut [SolverContact],
        order: &[u32],
        bodies: &mut [SolverBody],
        island: &[u32],
        before: &mut Vec<(Vec2, f32)>,
    ) {
        let down = self.down;
        let on_line = |kind: &[u16], near: &[bool], bodies: &[SolverBody], c: &SolverContact| {
            let k = island[movable(c, bodies)] as usize;
            if kind[k] & (RAISED | OVERSHOT) != 0 {
                (near[c.a as usize] || near[c.b as usize]) && guards(down, c)
            } else {
                kind[k] & WARM_STARTED != 0 && guards(down, c)
            }
        };
        for &index in order {
            let c = &contacts[index as usize];
            if !on_line(&self.kind, &self.near, bodies, c) {
                warm_start_contact(c, bodies);
            }
        }
        before.clear();
        before.extend(bodies.iter().map(|b| (b.velocity, b.angular_velocity)));
        for &index in order {
            let c = &contacts[index as usize];
            if on_line(&self.kind, &self.near, bodies, c) {
                warm_start_contact(c, bodies);
            }
        }
        self.measure(bodies, before, Vec2::ZERO, island, false);
        self.scale.clear();
        for k in 0..self.slope.len() {
            let (slope, curvature) = (self.slope[k], self.curvature[k]);
            let (base, kind) = (self.base[k], self.kind[k]);
            let raised = base + slope + 0.5 * curvature > base * (1.0 + 1e-5);
            let s = if curvature > 0.0
                && (kind & OVERSHOT != 0 || (kind & WARM_STARTED != 0 && raised))
            {
                (-slope / curvature).clamp(0.0, 1.0)
            } else {
                1.0
            };
            self.scale.push(s);
        }
        self.rescale(bodies, before, island);
        for &index in order {
            let c = &mut contacts[index as usize];
            let s = self.scale_of(bodies, island, c);
            if s != 1.0 && on_line(&self.kind, &self.near, bodies, c) {
                c.normal_impulse *= s;
                c.tangent_impulse *= s;
                c.rolling_impulse *= s;
            }
        }
    }

    /// After a second solve: keeps marked only the islands with a warm start that still end
    /// with more plain kinetic energy than they entered the solve with (`entered`, kept by
    /// [`Self::find_gains`]), and returns whether any is left. Those are solved a third time
    /// without their warm start (D10): the scaled line of [`Self::warm_start_limited`]
    /// leaves the warm starts far from the bodies that gained whole, and in a dense pile of
    /// very unequal masses what those carry can still raise the energy.
    pub fn keep_still_raised(&mut self, bodies: &[SolverBody], island: &[u32]) -> bool {
        self.finished.clear();
        self.finished.resize(bodies.len(), 0.0);
        for (i, body) in bodies.iter().enumerate() {
            if body.inverse_mass > 0.0 && self.gained[island[i] as usize] {
                let k = island[i] as usize;
                self.finished[k] += kinetic_energy(body, (body.velocity, body.angular_velocity));
            }
        }
        let mut any = false;
        for k in 0..self.gained.len() {
            self.gained[k] = self.gained[k]
                && self.kind[k] & WARM_STARTED != 0
                && self.finished[k] > self.entered[k] * (1.0 + 1e-5);
            any |= self.gained[k];
        }
        any
    }

    /// Unmarks solver body `i`'s island: energy it gained from outside, from a moving
    /// kinematic body that pushed it (R-GAME-4), is work done on it, not a gain to undo.
    pub fn pardon(&mut self, island: &[u32], i: usize) {
        if let Some(gained) = self.gained.get_mut(island[i] as usize) {
            *gained = false;
        }
    }

    /// Whether any island is still marked.
    pub fn any_gained(&self) -> bool {
        self.gained.iter().any(|&g| g)
    }

    /// Whether contact `c`'s island, solved again, applies its bounces in their own pass
    /// after inelastic passes (D1; without gravity after its impacts, D15). Otherwise (an
    /// island under gravity solved again for its warm start alone) the passes keep the
    /// bounce targets, as in the first solve.
    pub fn bounces_apart(&self, bodies: &[SolverBody], island: &[u32], c: &SolverContact) -> bool {
        let k = island[movable(c, bodies)] as usize;
        self.kind.get(k).is_some_and(|kind| kind & OWN_BOUNCES != 0)
    }

    /// Whether contact `c`'s island takes its impacts one after another
    /// ([`impacts_in_turn`], D15): its bounces are then no business of the bounce pass.
    pub fn in_turn(&self, bodies: &[SolverBody], island: &[u32], c: &SolverContact) -> bool {
        self.body_in_turn(island, movable(c, bodies))
    }

    /// Whether solver body `i`'s island takes its impacts one after another.
    pub fn body_in_turn(&self, island: &[u32], i: usize) -> bool {
        self.kind.get(island[i] as usize).is_some_and(|kind| kind & IN_TURN != 0)
    }

    /// Whether contact `c` of an island that takes its impacts in turn is one of those
    /// impacts: any contact without gravity, under gravity one across it. The floor's and
    /// a static support's contacts carry the row's weight and are left to the passes.
    pub fn hands_on(&self, c: &SolverContact) -> bool {
        self.down.is_none_or(|down| side_by_side(down, c))
    }

    /// The velocities [`Self::limit_bounces`] holds a body of an island that takes its
    /// impacts in turn to: `started`, those the solve started from; under gravity only their
    /// part across gravity, with the part along it of `now`, so that the step's fall and
    /// the floor's support stay off the line (a body's own gravity scale, a force or a hand
    /// change the fall, and the island's energy across gravity is what the impacts move).
    pub fn row_start(&self, started: (Vec2, f32), now: (Vec2, f32)) -> (Vec2, f32) {
        match self.down {
            None => started,
            Some(down) => (across(Some(down), started.0) + now.0.dot(down) * down, started.1),
        }
    }

    /// Whether island `k` takes its impacts in turn under gravity: its energy is measured
    /// across gravity, from [`Self::row_start`].
    fn row_under_gravity(&self, k: usize) -> bool {
        self.down.is_some() && self.kind[k] & IN_TURN != 0
    }

    /// Whether solver body `i`'s island was marked by [`Self::find_gains`].
    pub fn gained(&self, island: &[u32], i: usize) -> bool {
        self.gained.get(island[i] as usize).copied().unwrap_or(false)
    }

    /// Whether contact `c`'s island (that of its movable body) is marked.
    pub fn contact_gained(&self, bodies: &[SolverBody], island: &[u32], c: &SolverContact) -> bool {
        self.gained(island, movable(c, bodies))
    }

    /// Scales each island's bounces (the change from `before`) so that it ends with no more
    /// energy than it had at the step start, as measured by the [`Self::find_gains`]
    /// that marked it (at mid-step velocities). An island that took its impacts in turn
    /// under gravity is held instead to its energy across gravity at `before` (see
    /// [`Self::row_start`]). `island` gives each movable body's island, any index below
    /// `bodies.len()` shared by its members; immovable bodies are ignored.
    pub fn limit_bounces(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &mut [SolverBody],
        before: &[(Vec2, f32)],
        kick: Vec2,
        island: &[u32],
    ) {
        self.measure(bodies, before, kick, island, true);
        self.scale.clear();
        for k in 0..self.slope.len() {
            let (base, slope, curvature) = (self.base[k], self.slope[k], self.curvature[k]);
            let start = if self.row_under_gravity(k) { base } else { self.start[k] };
            let allowed = start - base;
            let s = if base + slope + 0.5 * curvature <= start || curvature <= 0.0 {
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
    /// the bodies' present velocities (less the kick). With `rows`, an island that took its
    /// impacts in turn under gravity is measured across gravity, without the kick.
    fn measure(
        &mut self,
        bodies: &[SolverBody],
        before: &[(Vec2, f32)],
        kick: Vec2,
        island: &[u32],
        rows: bool,
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
            let v0 =
                if rows && self.row_under_gravity(k) { across(self.down, v0) } else { v0 - kick };
            self.base[k] += kinetic_energy(body, (v0, w0));
            self.slope[k] += mass * v0.dot(dv) + inertia * w0 * dw;
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
        self.scale[island[movable(c, bodies)] as usize]
    }
}

/// The solver body whose island a contact belongs to: A, or B when A is immovable (a wall
/// or a static body, which join no island).
fn movable(c: &SolverContact, bodies: &[SolverBody]) -> usize {
    (if bodies[c.a as usize].inverse_mass > 0.0 { c.a } else { c.b }) as usize
}

/// Whether contact `c`, warm started, was hit this step (its bodies approached faster than
/// `impact_speed` at the step start, `start`) and still pushes its bodies apart although,
/// after the passes, they separate faster than its target plus `overshoot`.
fn overshot(
    c: &SolverContact,
    carried: f32,
    bodies: &[SolverBody],
    start: &[(Vec2, f32)],
    impact_speed: f32,
    overshoot: f32,
) -> bool {
    if !thrown_apart(c, bodies, overshoot) {
        return false;
    }
    let n = (c.normal.x, c.normal.y);
    let at_start = |i: u32| {
        let (v, w) = start[i as usize];
        Velocity { x: v.x, y: v.y, angular: w }
    };
    let approach = -relative_speed(&at_start(c.a), &at_start(c.b), n, c.normal_levers);
    approach > impact_speed && carried > c.normal_mass * approach
}

/// Whether a contact across gravity (`down`), warm started (`carried`), is thrown apart
/// (`thrown_apart`): the one look over the contacts that, under gravity and without a
/// bounce, decides whether [`EnergyGuard::find_gains`] has anything to find (D10).
pub fn any_thrown_apart(
    contacts: &[SolverContact],
    carried: &[(f32, f32, f32)],
    bodies: &[SolverBody],
    down: Vec2,
    speed: f32,
) -> bool {
    contacts.iter().zip(carried).any(|(c, &(carried_normal, _, _))| {
        carried_normal > 0.0
            && c.normal_impulse > 0.0
            && guards(Some(down), c)
            && thrown_apart(c, bodies, speed)
    })
}

/// `v` without its part along gravity (`down`; all of `v` without gravity). The energy by
/// which D10 judges a warm start under gravity: in an island where nothing rests on
/// anything movable, the part along gravity is the step's fall, which the floor takes.
fn across(down: Option<Vec2>, v: Vec2) -> Vec2 {
    match down {
        None => v,
        Some(down) => v - v.dot(down) * down,
    }
}

/// Whether contact `c`'s bodies touch side by side, not one on the other ([`SIDE_BY_SIDE`]).
fn side_by_side(down: Vec2, c: &SolverContact) -> bool {
    c.normal.dot(down).abs() < SIDE_BY_SIDE
}

/// Whether the guard may scale contact `c`'s warm start (D10): any contact without gravity
/// (`down` is `None`), only one across gravity with it.
fn guards(down: Option<Vec2>, c: &SolverContact) -> bool {
    down.is_none_or(|down| c.normal.dot(down).abs() < ACROSS_GRAVITY)
}

/// Whether contact `c`'s bodies separate after the passes faster than its target plus
/// `speed`. For a warm-started contact that still pushes, with the bounce threshold as
/// `speed`, that is what a contact that does not bounce never may: its carried impulse
/// threw them apart (D10 under gravity; a heavy box that rammed a light one against a wall
/// was thrown back so, at up to 291 px/s with every restitution 0). `overshot` asks it
/// first, with its own margin.
fn thrown_apart(c: &SolverContact, bodies: &[SolverBody], speed: f32) -> bool {
    let (a, b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
    let n = (c.normal.x, c.normal.y);
    let separation = relative_speed(&a.velocities(), &b.velocities(), n, c.normal_levers);
    separation > c.normal_target() + speed
}

/// `½ m |v|² + ½ I ω²` of a body with the velocities `(v, ω)`.
fn kinetic_energy(body: &SolverBody, (v, w): (Vec2, f32)) -> f32 {
    0.5 * v.length_squared() / body.inverse_mass
        + 0.5 * w * w * inverse_or_zero(body.inverse_inertia)
}
