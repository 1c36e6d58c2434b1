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
//! same passes, which keeps overlaps small. But when a bouncing body pushes a follower, the
//! targets drive the follower to the leader's rebound speed: energy from nothing. So an
//! island with a bounce target that ends the passes with more kinetic energy than at the
//! step start is solved again: inelastic passes, then one pass that adds each contact's own
//! bounce ([`restitute`](restitution::restitute), the order Box2D v3 uses), and
//! [`restitution::EnergyGuard`] scales the bounces of a simultaneous impact of
//! three bodies down to the island's energy at the step start. Without gravity, where no
//! pile has to be held up, every island with a bounce is solved again with its impacts
//! first, one collision of two bodies after another
//! ([`impacts_in_turn`](restitution::impacts_in_turn)), so that a row of touching balls
//! hands an elastic impact on like Newton's cradle (docs/physics.md D15). Under gravity so
//! is an island in which nothing rests on anything movable, struck across gravity: a row of
//! balls or boxes on the floor.
//!
//! **Warm start.** The descent starts from the warm start, which can lie above E₀: after an
//! impact the carried impulses are far too large. When a heavy box rams a light one into a
//! wall, 8 passes through the light box cannot take the heavy box's impulse back, and the
//! heavy box would be thrown back. So, without gravity, an island whose warm start raised its
//! kinetic energy, or in which a hit contact still pushes its separating bodies apart after
//! the passes, is solved again with the warm starts
//! around the culprits scaled along the energy line
//! ([`warm_start_limited`](restitution::EnergyGuard::warm_start_limited); docs/physics.md D10).
//!
//! # Rule switches (R-LAB-1)
//! The lab can switch rules off to show what they prevent (`PhysicsConfig`'s rule switches,
//! docs/physics.md "Rule switches"). Those that reach the solver are applied outside the
//! passes' inner loops: per-pass clamping is the `ACCUMULATED = false` instance of the
//! impulse formulas, chosen once per pass; Baumgarte's bias is a per-contact addition to the
//! normal target made while the contacts are loaded ([`TargetRules`]); the threshold, the
//! start velocities and the held flags are filled in by the world. At the defaults the
//! passes run the same code as without the switches.
//!
//! # Layout
//! Dependencies point one way: [`lane`] is the number type the formulas are written over
//! (`f32`, or four contacts' `F4`); [`impulse`] holds each formula of the passes once,
//! generic over it; [`contact`] holds the solver's bodies and contacts; [`scalar`] solves one
//! contact at a time (the reference); [`wide`] solves four contacts at a time with the same
//! formulas and equals the reference bit for bit; [`order`] colours the contacts and runs the
//! wide passes; [`restitution`] adds the bounces; [`position`] projects the positions out of
//! overlap (§10); [`contact_cache`] keeps the impulses for warm starting.

mod contact;
mod contact_cache;
mod impulse;
mod lane;
mod order;
mod position;
mod restitution;
mod scalar;
mod wide;

#[cfg(test)]
mod tests;

pub(crate) use contact::{SolverBodies, SolverBody, SolverContact, TargetRules};
pub(crate) use contact_cache::{CachedImpulse, ContactCache, PairKey, WALL_GENERATION, group_body};
pub(crate) use order::SolveOrder;
pub(crate) use position::{Projection, ProjectionSettings};
pub(crate) use restitution::{EnergyGuard, any_thrown_apart, impacts_in_turn, restitute_in_order};
