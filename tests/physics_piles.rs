//! Piles fall asleep (issue 14, R-REST-3): the shared scenes of `physics::scenes` must be
//! all asleep within 5 s after their last body arrives, and sleep must not freeze an
//! overlap then (R-REST-2).
//!
//! A body *arrives* at its first contact with another body or a wall (`World::contacts`);
//! the scene's arrival is that of its last body. The pyramid's boxes start 0.25 px apart,
//! so they all arrive within the first steps.
//!
//! The scenes that do not meet the 5 s yet are `#[ignore]`d with the time measured with
//! today's solver (release build, `examples/sleep_times.rs` prints them all); run them with
//! `cargo test --no-default-features --test physics_piles -- --ignored`.

mod common;

use std::collections::HashSet;

use bevy_sandbox_physics::physics::{PhysicsConfig, scenes};
use common::{deepest_in_wall, deepest_pair};

/// The time R-REST-3 allows from the last arrival to sleep, s.
const ALLOWED: f32 = 5.0;

/// When a scene arrived and fell asleep, and what sleep froze.
struct Asleep {
    /// Time of the last body's first contact, s.
    arrival: f32,
    /// Time every body sleeps, s.
    asleep: f32,
    /// The deepest overlap of any two bodies then, px.
    deepest_pair: f32,
    /// The deepest any body is inside a wall then, px.
    deepest_wall: f32,
}

/// Steps `scene` until every body sleeps, at most `ALLOWED` s after the last arrival (and
/// at most 20 s in all). Panics with the times if it does not.
fn run_until_asleep_after_arrival(scene: &scenes::Scene) -> Asleep {
    let config = PhysicsConfig::default();
    let dt = config.time_step;
    let mut w = scene.build(config).expect("scene builds");
    let mut arrived: HashSet<u64> = HashSet::new();
    let mut arrival_step = None;
    let limit = (20.0 / dt) as usize;
    for step in 1..=limit {
        w.step(dt).expect("step");
        if arrival_step.is_none() {
            for c in w.contacts() {
                arrived.insert(c.b.to_bits());
                arrived.extend(c.a.map(|a| a.to_bits()));
            }
            if arrived.len() == scene.bodies.len() {
                arrival_step = Some(step);
            }
        }
        if w.stats().awake == 0 {
            let arrival = arrival_step.expect("every body touched something") as f32 * dt;
            let (deepest_pair, deepest_wall) = (deepest_pair(&w), deepest_in_wall(&w));
            return Asleep { arrival, asleep: step as f32 * dt, deepest_pair, deepest_wall };
        }
        if let Some(arrival) = arrival_step
            && (step - arrival) as f32 * dt > ALLOWED
        {
            panic!(
                "{}: still {} of {} bodies awake {ALLOWED} s after the last arrival at {:.2} s",
                scene.name,
                w.stats().awake,
                scene.bodies.len(),
                arrival as f32 * dt
            );
        }
    }
    panic!("{}: still {} bodies awake after 20 s", scene.name, w.stats().awake);
}

/// R-REST-3 and R-REST-2 for one scene: asleep within [`ALLOWED`] of the last arrival, and
/// then no pair deeper than slop + 0.5 px, no body deeper than slop + 0.5 px in a wall (the
/// slop is what the projection leaves by design, §10).
fn assert_falls_asleep(scene: &scenes::Scene) {
    let slop = PhysicsConfig::default().penetration_slop;
    let a = run_until_asleep_after_arrival(scene);
    let after = a.asleep - a.arrival;
    assert!(
        after <= ALLOWED,
        "{}: asleep {after:.2} s after the last arrival (arrival {:.2} s, asleep {:.2} s)",
        scene.name,
        a.arrival,
        a.asleep
    );
    assert!(
        a.deepest_pair <= slop + 0.5 && a.deepest_wall <= slop + 0.5,
        "{}: asleep at {:.2} s with a {} px overlap and {} px in a wall",
        scene.name,
        a.asleep,
        a.deepest_pair,
        a.deepest_wall
    );
}

/// R-REST-3: 1,000 wood circles (radius 12–20 px) poured into a container as wide as their
/// pile is deep. Measured: all asleep 3.19 s after the last arrival (3.30 s before the rest
/// rule of D8); about 0.3 s to run in the dev profile.
#[test]
fn a_pour_of_1000_equal_density_circles_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::pour(1_000, 1));
}

/// R-REST-3: 4,000 wood circles poured likewise, a pile some 60 rows deep.
#[test]
#[ignore = "R-REST-3 not met yet: asleep 5.20 s after the last arrival (18.7 s before D8); \
            single bodies still move more than 2 px until about 8.6 s (docs/physics.md O2)"]
fn a_pour_of_4000_equal_density_circles_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::pour(4_000, 1));
}

/// R-REST-3: the mixed pile of 500 bodies of all four presets (steel 13 times as dense as
/// wood, rubber bouncing with e = 0.8).
#[test]
#[ignore = "R-REST-3 not met yet: asleep 5.68 s after the last arrival (5.96 s before D8); \
            bodies are still thrown up at 110-1060 px/s 2-5 s after it (docs/physics.md O2)"]
fn the_mixed_pile_of_500_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::mixed(500, 3));
}

/// R-REST-3: the mixed pile of 2,000 bodies.
#[test]
#[ignore = "R-REST-3 not met yet: not asleep within 30 s of the last arrival; 5-7 contacts \
            stay 1.0-1.3 px deep, and R-REST-2 (D9) keeps the island awake while they do \
            (docs/physics.md O2)"]
fn the_mixed_pile_of_2000_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::mixed(2_000, 3));
}

/// R-REST-3: 4,000 circles of 12–24 px raining into a wide container. Measured: all asleep
/// 4.99 s after the last arrival (6.58 s before the rest rule of D8 and D9), so only 0.01 s
/// within the bound: any change to the solver may tip it.
#[test]
fn the_rain_of_4000_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::rain(4_000, 1));
}

/// R-REST-3: a pyramid of 1,830 boxes of 30 px, base 60. Measured: all asleep 3.63 s after
/// the last arrival (5.93 s before D8 and D9), although the whole pyramid still jumps
/// some 117 px when its apex lands (docs/physics.md O2).
#[test]
fn a_pyramid_of_base_60_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::pyramid(60, 30.0));
}
