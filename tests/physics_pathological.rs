//! Pathological input that must stay bounded (issue 14, R-REST-4): many bodies added at
//! one point, where every pair overlaps. The broad phase caps the awake pairs per body
//! (docs/physics.md, D7); `examples/pile_at_one_point.rs` measures the full 5,000-body case
//! in a release build.

mod common;

use bevy_sandbox_physics::physics::{BodyDesc, PhysicsConfig, SceneBody, SceneFile, World, scenes};
use common::deepest_pair;
use glam::Vec2;

/// The broad phase's cap on awake pairs per body (D7); private to the crate, repeated here.
const MAX_PAIRS_PER_BODY: usize = 64;

fn pile_at_one_point(count: usize, size: Vec2) -> World {
    scenes::at_one_point(count, size).build(PhysicsConfig::default()).expect("a valid scene")
}

/// Bodies with a non-finite position or velocity, or with the centre outside the world.
fn broken_bodies(w: &World) -> usize {
    let (min, max) = w.bounds();
    w.bodies()
        .filter(|(_, b)| {
            let (p, v) = (b.position(), b.velocity());
            !p.is_finite() || !v.is_finite() || p.cmplt(min).any() || p.cmpgt(max).any()
        })
        .count()
}

#[test]
fn a_pile_at_one_point_gets_at_most_the_capped_pairs_and_spreads_without_nan_r_rest_4() {
    // 600 bodies at one point: 599 overlapping partners each, over nine times the cap, and
    // 179,700 pairs uncapped. Capped, at most n·cap/2 = 19,200 (each pair uses up one of
    // the cap of each of its two bodies); in the dev profile the test takes a few seconds.
    let n = 600;
    let mut world = pile_at_one_point(n, Vec2::new(1600.0, 1200.0));
    let dt = PhysicsConfig::default().time_step;
    world.step(dt).expect("a valid dt");
    let first = world.stats().pairs;
    assert!(first <= n * MAX_PAIRS_PER_BODY / 2, "first step: {first} pairs");
    // Not vacuous: the cap is reached, the pile is pathological.
    assert!(first > n * MAX_PAIRS_PER_BODY / 4, "first step: {first} pairs");
    let start = deepest_pair(&world);
    for _ in 0..3 * 120 {
        world.step(dt).expect("a valid dt");
        assert!(world.stats().pairs <= n * MAX_PAIRS_PER_BODY / 2);
    }
    assert_eq!(broken_bodies(&world), 0, "NaN or escaped bodies");
    // The pile spreads: after 3 s the pairs are those of a pile, a few per body.
    assert!(world.stats().pairs < 4 * n, "{} pairs after 3 s", world.stats().pairs);
    let end = deepest_pair(&world);
    assert!(end < start, "deepest overlap {start} px after one step, {end} px after 3 s");
}

#[test]
fn six_hundred_bodies_at_one_point_separate_within_eight_seconds_r_rest_4() {
    // D16 of docs/physics.md: bodies set into others leave along the line of centres and
    // get more projection passes. The 600 bodies of the test above overlap by 0.62 px after
    // 5 s and 0.50 px after 8 s (slop 0.5 px); with the spec's rules for shapes inside each
    // other (the nearest edge, the smaller overlap, coincident centres along (0, −1)) they
    // still overlapped by 21.7 px after 5 s, in columns of boxes inside boxes that only ever
    // separated vertically.
    let config = PhysicsConfig::default();
    let (dt, slop) = (config.time_step, config.penetration_slop);
    let mut world = pile_at_one_point(600, Vec2::new(1600.0, 1200.0));
    for _ in 0..8 * 120 {
        world.step(dt).expect("a valid dt");
    }
    assert_eq!(broken_bodies(&world), 0, "NaN or escaped bodies");
    let deepest = deepest_pair(&world);
    assert!(deepest <= slop + 1.0, "deepest overlap {deepest} px after 8 s");
}

/// How many bodies of `world` are set into others (D16), as its scene file records it.
fn set_into_others(world: &World) -> usize {
    SceneFile::capture(world).bodies.iter().filter(|b| b.embedded).count()
}

#[test]
fn bodies_set_into_others_are_free_again_before_they_sleep_r_rest_4() {
    // D16: a contact deeper than 36 px sets its bodies into others; once their contacts are
    // within slop + 0.5 px they are free again, and no body sleeps set into others.
    let config = PhysicsConfig::default();
    let dt = config.time_step;
    let mut world = pile_at_one_point(300, Vec2::new(1200.0, 900.0));
    world.step(dt).expect("a valid dt");
    let first = set_into_others(&world);
    assert!(first > 0, "300 bodies at one point, none set into others");
    for _ in 0..20 * 120 {
        world.step(dt).expect("a valid dt");
        if world.stats().awake == 0 {
            break;
        }
    }
    assert_eq!(world.stats().awake, 0, "still awake after 20 s");
    assert_eq!(set_into_others(&world), 0, "{first} set into others after one step");
}

#[test]
fn a_scene_file_sets_only_awake_dynamic_bodies_into_others_r_rest_4() {
    // Hostile input: the flag on a static, a kinematic or a sleeping body is dropped (only
    // an awake dynamic body is ever set into others); an awake dynamic body keeps it.
    let mut scene = SceneFile::new(Vec2::ZERO, Vec2::new(800.0, 600.0), PhysicsConfig::default());
    let descs = [
        BodyDesc::circle(20.0, Vec2::new(100.0, 100.0)),
        BodyDesc::circle(20.0, Vec2::new(200.0, 100.0)).fixed(),
        BodyDesc::circle(20.0, Vec2::new(300.0, 100.0)).kinematic(),
        BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)),
    ];
    for (i, desc) in descs.into_iter().enumerate() {
        let mut body = SceneBody::new(desc);
        body.embedded = true;
        if i == 3 {
            body.sleep_island = Some(7);
        }
        scene.bodies.push(body);
    }
    let world = scene.to_world().expect("a valid scene");
    let kept: Vec<bool> = SceneFile::capture(&world).bodies.iter().map(|b| b.embedded).collect();
    assert_eq!(kept, [true, false, false, false]);
}

#[test]
#[ignore = "passes by the heap's chance shape (release: 1.30 px after 10 s; 26.9 px before D16), \
            not for every count or world size (eleven variants 1.04–2.04 px, two over 1.5 px: \
            docs/physics.md D16), so it is not a check CI can rely on yet; run with \
            --release -- --ignored"]
fn five_thousand_bodies_at_one_point_separate_within_ten_seconds_r_rest_4() {
    // The other half of R-REST-4, the first step's time and the peak memory, is measured by
    // `examples/pile_at_one_point.rs` in a release build.
    let n = 5000;
    let mut world = pile_at_one_point(n, Vec2::new(4800.0, 2400.0));
    let config = PhysicsConfig::default();
    for _ in 0..10 * 120 {
        world.step(config.time_step).expect("a valid dt");
    }
    assert_eq!(broken_bodies(&world), 0, "NaN or escaped bodies");
    let deepest = deepest_pair(&world);
    // R-REST-4 as issue 14 states it: no overlap beyond the slop + 1 px after 10 s.
    assert!(deepest <= config.penetration_slop + 1.0, "deepest overlap {deepest} px");
}
