//! The invariants of issue 7, checked after every step by the property, soak and hostile-input
//! tests. Each check returns a message naming the body and the broken rule, so a shrunk
//! proptest case or a soak failure says what went wrong.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use bevy_sandbox_physics::physics::{BodyHandle, World};
use glam::Vec2;

/// How far past `max_wall_penetration` rounding may leave a body, px: the brake moves a body
/// to exactly the limit, up to an f32 ulp of its coordinates.
pub fn wall_rounding(world: &World) -> f32 {
    let (min, max) = world.bounds();
    1.0e-3 + 4.0 * f32::EPSILON * min.abs().max(max.abs()).max_element()
}

/// Every position, velocity and angle (also the remembered ones) is finite.
pub fn check_finite(world: &World) -> Result<(), String> {
    for (handle, body) in world.bodies() {
        let values = [
            body.position().x,
            body.position().y,
            body.velocity().x,
            body.velocity().y,
            body.angle(),
            body.angular_velocity(),
            body.previous_position().x,
            body.previous_position().y,
            body.previous_angle(),
        ];
        if !values.iter().all(|v| v.is_finite()) || !body.kinetic_energy().is_finite() {
            return Err(format!("{handle} has a non-finite state: {body:?}"));
        }
    }
    Ok(())
}

/// No dynamic body is more than `max_wall_penetration` outside the world.
///
/// A dynamic body wider (or taller) than the world cannot fit on that axis; the brake centres
/// it there instead, so on that axis its centre must be the world's centre. Static bodies are
/// scenery the user placed (centre inside the world when added) and never move, so they are
/// not held to this rule.
pub fn check_contained(world: &World) -> Result<(), String> {
    let limit = world.config().max_wall_penetration + wall_rounding(world);
    let (min, max) = world.bounds();
    let centre = 0.5 * (min + max);
    for (handle, body) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
        let half = body.shape().half_size();
        for axis in 0..2 {
            let too_big = 2.0 * half[axis] > max[axis] - min[axis];
            if too_big && (body.position()[axis] - centre[axis]).abs() > wall_rounding(world) {
                return Err(format!(
                    "{handle} is larger than the world on axis {axis} but not centred: {body:?}"
                ));
            }
        }
        for (w, wall) in world.walls().iter().enumerate() {
            let axis = if wall.normal.x != 0.0 { 0 } else { 1 };
            if 2.0 * half[axis] > max[axis] - min[axis] {
                continue;
            }
            let depth = wall.penetration(&body.shape(), body.position());
            if depth > limit {
                return Err(format!(
                    "{handle} is {depth} px inside wall {w} (limit {limit}): {body:?}"
                ));
            }
        }
    }
    Ok(())
}

/// The bodies are exactly `live` (what was added minus what was removed): none vanished,
/// none was duplicated, and every removed handle stays dead.
pub fn check_handles(
    world: &World,
    live: &BTreeSet<BodyHandle>,
    removed: &[BodyHandle],
) -> Result<(), String> {
    let handles: Vec<BodyHandle> = world.handles().collect();
    let unique: BTreeSet<BodyHandle> = handles.iter().copied().collect();
    if unique.len() != handles.len() {
        return Err(format!("duplicated handles: {handles:?}"));
    }
    if &unique != live {
        let vanished: Vec<_> = live.difference(&unique).collect();
        let appeared: Vec<_> = unique.difference(live).collect();
        return Err(format!("vanished {vanished:?}, appeared {appeared:?}"));
    }
    if world.body_count() != live.len() {
        return Err(format!("body_count {} but {} live", world.body_count(), live.len()));
    }
    if let Some(h) = removed.iter().find(|h| world.contains(**h)) {
        return Err(format!("removed {h} is still in the world"));
    }
    Ok(())
}

/// Sleepers have zero velocity, are dynamic and not held; every member of a sleeping island
/// sleeps, all sleepers of one island id are one island, and no awake island has a sleeper.
pub fn check_sleep(world: &World) -> Result<(), String> {
    let mut by_id: BTreeMap<u32, BTreeSet<BodyHandle>> = BTreeMap::new();
    for (handle, body) in world.bodies().filter(|(_, b)| b.is_sleeping()) {
        if body.velocity() != Vec2::ZERO || body.angular_velocity() != 0.0 {
            return Err(format!("sleeping {handle} moves: {body:?}"));
        }
        if !body.is_dynamic() || body.is_held() {
            return Err(format!("{handle} sleeps but is static or held: {body:?}"));
        }
        let Some(id) = body.sleep_island() else {
            return Err(format!("sleeping {handle} has no island"));
        };
        by_id.entry(id).or_default().insert(handle);
    }
    let mut sleeping_islands = 0;
    for island in world.islands() {
        let members: BTreeSet<BodyHandle> = island.bodies.iter().copied().collect();
        if members.len() != island.bodies.len() {
            return Err(format!("island lists a body twice: {island:?}"));
        }
        let asleep =
            island.bodies.iter().filter(|h| world.body(**h).is_some_and(|b| b.is_sleeping()));
        let asleep = asleep.count();
        if island.sleeping {
            sleeping_islands += 1;
            if asleep != island.bodies.len() {
                return Err(format!("a sleeping island has awake members: {island:?}"));
            }
            let ids: BTreeSet<_> =
                island.bodies.iter().filter_map(|h| world.body(*h)?.sleep_island()).collect();
            let Some(&id) = ids.iter().next().filter(|_| ids.len() == 1) else {
                return Err(format!("a sleeping island mixes island ids {ids:?}"));
            };
            if by_id.get(&id) != Some(&members) {
                return Err(format!("island {id} is {members:?} but its sleepers are {by_id:?}"));
            }
        } else if asleep != 0 {
            return Err(format!("an awake island has sleeping members: {island:?}"));
        }
    }
    if sleeping_islands != by_id.len() {
        return Err(format!("{} sleeping island ids, {sleeping_islands} islands", by_id.len()));
    }
    Ok(())
}

/// All the per-step invariants of issue 7 except the energy and momentum balances, which
/// need the state before the step.
pub fn check_all(
    world: &World,
    live: &BTreeSet<BodyHandle>,
    removed: &[BodyHandle],
) -> Result<(), String> {
    check_finite(world)?;
    check_contained(world)?;
    check_handles(world, live, removed)?;
    check_sleep(world)
}

/// Total linear momentum Σ m·v of the dynamic bodies, in f64.
pub fn momentum(world: &World) -> (f64, f64) {
    world.bodies().filter(|(_, b)| b.is_dynamic()).fold((0.0, 0.0), |(x, y), (_, b)| {
        let m = f64::from(b.mass());
        (x + m * f64::from(b.velocity().x), y + m * f64::from(b.velocity().y))
    })
}

/// Σ m·|v| of the dynamic bodies: the scale against which momentum rounding is judged.
pub fn momentum_scale(world: &World) -> f64 {
    world
        .bodies()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| f64::from(b.mass()) * f64::from(b.velocity().length()))
        .sum()
}

/// Kinetic plus potential energy, in f64.
pub fn mechanical_energy(world: &World) -> f64 {
    world.kinetic_energy() + world.potential_energy()
}

/// The energy that the integrator itself conserves: kinetic plus potential plus
/// `½·dt·Σ m·(g·v)`.
///
/// Semi-implicit Euler (§3) does not conserve `KE + PE` from step to step: in free flight it
/// loses `½·m·|g|²·dt²` every step, and a bounce (which takes its speed from the step start,
/// R-RES-5) gives it all back at once, because the body rises `v·dt` in the bounce step
/// without being slowed by gravity. Per unit mass, with height y and gravity g downward,
/// `H = ½v² + g·y − ½·g·v·dt` is exact for both: in flight
/// `H' − H = ½(−2v·g·dt + g²dt²) + g·dt·(v − g·dt) + ½·g²dt² = 0`, and for an e = 1 bounce
/// (`v' = −v`, `y' = y − v·dt`) `H' − H = −g·v·dt + g·v·dt = 0`. So a growing H is energy
/// from nothing, while KE + PE grows in every honest bounce step by up to `m·|g|·|v|·dt`.
pub fn integrator_energy(world: &World) -> f64 {
    let shadow = if world.gravity_enabled() {
        let g = world.config().gravity.as_dvec2();
        let dt = f64::from(world.config().time_step);
        world
            .bodies()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| 0.5 * dt * f64::from(b.mass()) * g.dot(b.velocity().as_dvec2()))
            .sum()
    } else {
        0.0
    };
    mechanical_energy(world) + shadow
}

/// Every body's position, to measure what a step's position correction did.
pub fn positions(world: &World) -> Vec<(BodyHandle, Vec2)> {
    world.bodies().map(|(h, b)| (h, b.position())).collect()
}

/// The potential energy the position correction (§10: projection and emergency brake) added
/// in the last step: `−Σ m·g·Δx` over the part of each body's move that the integration
/// `x += v·dt` (with the step's final velocity) does not explain.
pub fn projection_work(world: &World, start: &[(BodyHandle, Vec2)]) -> f64 {
    if !world.gravity_enabled() {
        return 0.0;
    }
    let g = world.config().gravity.as_dvec2();
    let dt = f64::from(world.config().time_step);
    start
        .iter()
        .filter_map(|&(handle, x0)| {
            let body = world.body(handle).filter(|b| b.is_dynamic())?;
            let integrated = x0.as_dvec2() + body.velocity().as_dvec2() * dt;
            let corrected = body.position().as_dvec2() - integrated;
            Some(-f64::from(body.mass()) * g.dot(corrected))
        })
        .sum()
}
