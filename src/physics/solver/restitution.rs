//! Restitution (§7): the bounce pass after inelastic passes, and the energy guard that keeps
//! simultaneous bounces from adding energy.

use glam::Vec2;

use super::contact::{SolverBody, SolverContact, inverse_masses, write_back};
use super::impulse::{normal_update, push_apart, relative_speed};
use crate::physics::math::inverse_or_zero;

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
