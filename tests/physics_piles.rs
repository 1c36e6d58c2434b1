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

/// Steps `scene` until every body sleeps, at most `allowed` s after the last arrival (and
/// at most 20 s in all). Panics with the times if it does not.
fn run_until_asleep_after_arrival(scene: &scenes::Scene, allowed: f32) -> Asleep {
    let config = PhysicsConfig::default();
    let dt = config.time_step;
    let mut w = scene.build(config).expect("scene builds");
    let mut arrivals = scenes::Arrivals::default();
    let mut arrival_step = None;
    let limit = (20.0 / dt) as usize;
    for step in 1..=limit {
        w.step(dt).expect("step");
        if arrival_step.is_none() && arrivals.note(&w, scene.bodies.len()) {
            arrival_step = Some(step);
        }
        if w.stats().awake == 0 {
            let arrival = arrival_step.expect("every body touched something") as f32 * dt;
            let (deepest_pair, deepest_wall) = (deepest_pair(&w), deepest_in_wall(&w));
            return Asleep { arrival, asleep: step as f32 * dt, deepest_pair, deepest_wall };
        }
        if let Some(arrival) = arrival_step
            && (step - arrival) as f32 * dt > allowed
        {
            panic!(
                "{}: still {} of {} bodies awake {allowed} s after the last arrival at {:.2} s",
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
    let a = run_until_asleep_after_arrival(scene, ALLOWED);
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
/// pile is deep. Measured: all asleep 3.08 s after the last arrival (3.30 s before the rest
/// rule of D8, 3.19 s before D11 and D12, 2.63 s before D13, 2.37 s before D10 acted under
/// gravity; seeds 1–6 now 2.4–3.1 s); about 0.3 s to run in the dev profile.
#[test]
fn a_pour_of_1000_equal_density_circles_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::pour(1_000, 1));
}

/// R-REST-3: 4,000 wood circles poured likewise, a pile some 60 rows deep. Measured: all
/// asleep 4.16 s after the last arrival (18.7 s before D8, 5.20 s before D11 and D12, with
/// which it "breathed" too long, 4.18 s before D13, 4.13 s before D10 acted under gravity,
/// 4.49 s before D10 judged flat islands as without gravity; seeds 1–6 4.1–4.7 s then,
/// 3.87–4.98 s on 2026-12-03, all within 5 s).
#[test]
fn a_pour_of_4000_equal_density_circles_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::pour(4_000, 1));
}

/// R-REST-3: the mixed pile of 500 bodies of all four presets (steel 13 times as dense as
/// wood, rubber bouncing with e = 0.8). Its rubber bounces for seconds, as §7 says it must,
/// so the time moves with every change of the solver (docs/physics.md O2): 7.58 s after the
/// last arrival before D13, 5.47 s before D14, 4.83 s (the only one of seeds 1–6 within
/// 5 s) before D10 acted under gravity, 5.13 s before D15 and D10 acted in flat islands
/// under gravity.
#[test]
#[ignore = "R-REST-3 not met: asleep 6.82 s after the last arrival (seeds 1-6: 4.46 s for \
            seed 1, 5.38 to 7.45 s for the others); bouncing rubber (docs/physics.md O2)"]
fn the_mixed_pile_of_500_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::mixed(500, 3));
}

/// R-REST-3: the mixed pile of 2,000 bodies (5.93 s before D15 and D10 acted in flat islands
/// under gravity).
#[test]
#[ignore = "R-REST-3 not met: asleep 6.36 s after the last arrival (seeds 1-6: 5.60 to \
            7.64 s); bouncing rubber (docs/physics.md O2)"]
fn the_mixed_pile_of_2000_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::mixed(2_000, 3));
}

/// R-REST-2 (deviation D9's reach, docs/physics.md): in `mixed(2000, 1)` an ice circle on
/// the floor carries one of the pile's force chains, and the box above it stays 3.4 px deep
/// while the whole pile rests. The settling before sleep takes that contact out too, so the
/// pile sleeps 5.60 s after its last arrival with no overlap frozen; while the settling
/// left alone contacts deeper than slop + 2 px, it slept only after 18.0 s. The window is
/// 10 s: this pile's rubber bounces (O2) are not what this test is about.
#[test]
fn a_deep_contact_under_a_force_chain_is_settled_when_the_pile_sleeps_r_rest_2() {
    let slop = PhysicsConfig::default().penetration_slop;
    let a = run_until_asleep_after_arrival(&scenes::mixed(2_000, 1), 10.0);
    assert!(
        a.deepest_pair <= slop + 0.5 && a.deepest_wall <= slop + 0.5,
        "asleep at {:.2} s with a {} px overlap and {} px in a wall",
        a.asleep,
        a.deepest_pair,
        a.deepest_wall
    );
}

/// R-REST-3: 4,000 circles of 12–24 px raining into a wide container. Measured: all asleep
/// 3.13 s after the last arrival (seeds 1–6: 2.80–3.98 s). Until the rain's circles were set
/// up to 2 px off their columns' centres it stood in 127 towers, which slept 3.97 s after
/// the last arrival (6.58 s before the rest rule of D8 and D9, 4.99 s before D11 and D12,
/// 4.45 s before D13).
#[test]
fn the_rain_of_4000_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::rain(4_000, 1));
}

/// R-REST-3: a pyramid of 1,830 boxes of 30 px, base 60. Measured: all asleep 1.56 s after
/// the last arrival (5.93 s before D8 and D9, 3.56 s before D13, with which it no longer
/// jumps when its apex lands, 3.25 s before D14, with which its rows find their support in
/// the step they meet; docs/physics.md O2).
#[test]
fn a_pyramid_of_base_60_falls_asleep_r_rest_3() {
    assert_falls_asleep(&scenes::pyramid(60, 30.0));
}

/// D12 of docs/physics.md (R-REST-3): a world solves with more passes only while it
/// settles. A pour's first step is not settling (nothing rests yet); before the pile sleeps
/// it settles for longer than `time_to_sleep`; one body sent off faster than the restitution
/// threshold ends it at once, while the same call with the body's own velocity does not; and
/// with sleeping off no step settles.
#[test]
fn a_world_solves_with_more_passes_only_while_it_settles_r_rest_3() {
    let config = PhysicsConfig::default();
    let dt = config.time_step;
    let scene = scenes::pour(1_000, 1);
    let mut w = scene.build(config.clone()).expect("scene builds");
    w.step(dt).expect("step");
    assert!(!w.stats().settling, "the first step: nothing rests");
    let (mut settling_steps, mut probed) = (0, false);
    for _ in 0..(20.0 / dt) as usize {
        if w.stats().awake == 0 {
            break;
        }
        w.step(dt).expect("step");
        if !w.stats().settling {
            continue;
        }
        settling_steps += 1;
        if probed {
            continue;
        }
        // The first settling step: the same velocity written back keeps the next step
        // settling; 100 px/s more on one body (over the 50 px/s threshold) does not.
        probed = true;
        let (handle, body) = w.bodies().find(|(_, b)| b.is_dynamic()).expect("a body");
        let v = body.velocity();
        let (mut same, mut thrown) = (w.clone(), w.clone());
        same.set_velocity(handle, v).expect("a live body");
        thrown.set_velocity(handle, v + glam::Vec2::new(0.0, -100.0)).expect("a live body");
        same.step(dt).expect("step");
        thrown.step(dt).expect("step");
        assert!(same.stats().settling, "its own velocity written back");
        assert!(!thrown.stats().settling, "one body at over 50 px/s");
    }
    assert_eq!(w.stats().awake, 0, "the pour sleeps within 20 s");
    assert!(probed, "the pour settled before it slept");
    let time_to_sleep_steps = (config.time_to_sleep / dt) as usize;
    assert!(settling_steps > time_to_sleep_steps, "settled for {settling_steps} steps only");

    let awake_config = PhysicsConfig { sleeping_enabled: false, ..config };
    let mut awake = scene.build(awake_config).expect("scene builds");
    for _ in 0..(10.0 / dt) as usize {
        awake.step(dt).expect("step");
        assert!(!awake.stats().settling, "sleeping off: never settling");
    }
}
