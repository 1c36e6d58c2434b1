//! Rest like real objects (issue 14, R-REST-*): what the project decided beyond the spec's
//! literal rules, so that its aims hold (docs/physics.md, "Deviations").

mod common;

use bevy_sandbox_physics::physics::{BodyDesc, Material, PhysicsConfig, Shape, World, scenes};
use common::*;
use glam::Vec2;

/// Steps until every body sleeps (at most `limit` steps): the step, and the deepest pair
/// overlap and wall penetration frozen then.
fn overlaps_when_asleep(w: &mut World, limit: usize) -> (usize, f32, f32) {
    for step in 1..=limit {
        w.step(DT).unwrap();
        if w.stats().awake == 0 {
            return (step, deepest_pair(w), deepest_in_wall(w));
        }
    }
    panic!("still {} awake after {limit} steps", w.stats().awake);
}

/// R-REST-2: 40 bodies spawned onto 4 spots (10 on top of each other per spot) separate
/// before they fall asleep: no pair overlaps by more than slop + 0.5 px, and no body is
/// more than 0.5 px deeper inside a wall than the slop the projection leaves there by
/// design (§10: a body resting on the floor rests about 0.58 px deep). Before the
/// projection's motion counted for sleep, they fell asleep after 0.8 s with a 7.3 px
/// overlap and 2.7 px in the floor.
#[test]
fn bodies_spawned_onto_each_other_separate_before_they_sleep_r_rest_2() {
    let config = PhysicsConfig::default();
    let slop = config.penetration_slop;
    let mut w = world_with(Vec2::new(800.0, 600.0), config);
    for i in 0..40 {
        let spot = Vec2::new(160.0 + 160.0 * (i % 4) as f32, 500.0);
        let shape = if i % 2 == 0 { Shape::circle(16.0) } else { Shape::rect(30.0, 30.0) };
        add(&mut w, BodyDesc::new(shape, spot));
    }
    let (steps, pair, wall) = overlaps_when_asleep(&mut w, 30 * 120);
    assert!(
        pair <= slop + 0.5 && wall <= slop + 0.5,
        "asleep after {steps} steps with a {pair} px overlap and {wall} px in a wall"
    );
}

/// R-REST-2: a box set into the middle of a settled 60-body pile (the spec's own example of
/// §10, the sandbox's Shift+click), 60 px wide and more than 10 px deep into its
/// neighbours, is pushed out by the projection before its island falls asleep again, with
/// the same bounds as above.
#[test]
fn a_box_set_into_a_settled_pile_is_pushed_out_before_it_sleeps_r_rest_2() {
    let config = PhysicsConfig::default();
    let slop = config.penetration_slop;
    for seed in [1, 2, 3] {
        let mut w = scenes::mixed(60, seed).build(config.clone()).unwrap();
        let settled = run_until_asleep(&mut w, 10 * 120);
        assert!(settled.is_some(), "seed {seed}: the pile never slept");
        // Into the middle of the pile, near the floor.
        let (min, max) = w.bounds();
        let spot = Vec2::new(0.5 * (min.x + max.x), max.y - 40.0);
        add(&mut w, BodyDesc::new(Shape::rect(60.0, 60.0), spot));
        let set_in = deepest_pair(&w);
        assert!(set_in > 10.0, "seed {seed}: the box overlaps the pile by only {set_in} px");
        let (steps, pair, wall) = overlaps_when_asleep(&mut w, 20 * 120);
        assert!(
            pair <= slop + 0.5 && wall <= slop + 0.5,
            "seed {seed}: set in {set_in} px deep, asleep after {steps} steps with a {pair} px \
             overlap and {wall} px in a wall"
        );
    }
}

/// R-REST-2 and R-REST-3: a steel block (150 × 150 px) on three pillars of eight wooden
/// boxes (24 px), about 500 times as heavy as each box. Eight velocity passes leave the
/// pillars sinking a little every step and the projection lifts them back as far, so some
/// of their contacts stay 0.5–0.8 px deeper than the slop for good. Such an island is
/// settled by more projection passes before it sleeps (D9): it must sleep within 15 s
/// (measured: 9.83 s) with no pair deeper than slop + 0.5 px and nothing deeper than that
/// in the floor. Before D9 settled islands, it was still awake after 20 s, its deepest
/// contact 1.03 px: a body in a deep contact never rested.
#[test]
fn a_steel_block_on_wooden_pillars_sleeps_with_no_overlap_frozen_r_rest_2() {
    let config = PhysicsConfig::default();
    let slop = config.penetration_slop;
    let mut w = world_with(Vec2::new(800.0, 800.0), config);
    let floor = w.bounds().1.y;
    for pillar in [-1.0, 0.0, 1.0] {
        for row in 0..8 {
            let spot = Vec2::new(400.0 + 24.0 * pillar, floor - 12.0 - 24.0 * row as f32);
            add(&mut w, BodyDesc::new(Shape::rect(24.0, 24.0), spot).with_material(Material::WOOD));
        }
    }
    let block = Vec2::new(400.0, floor - 8.0 * 24.0 - 75.0);
    add(&mut w, BodyDesc::new(Shape::rect(150.0, 150.0), block).with_material(Material::STEEL));
    let (steps, pair, wall) = overlaps_when_asleep(&mut w, 15 * 120);
    assert!(
        pair <= slop + 0.5 && wall <= slop + 0.5,
        "asleep after {steps} steps with a {pair} px overlap and {wall} px in a wall"
    );
    // Put at the settled poses, not moved there: the pose at the step's start is the same,
    // so interpolation draws the sleepers where they are (a world asleep skips its steps
    // and would never remember their poses again).
    for (_, body) in w.bodies() {
        assert_eq!(body.previous_position(), body.position(), "a sleeper drawn off its pose");
    }
}

/// D9 of docs/physics.md (R-REST-3, R-REST-2): when settling lifts a body into a neighbour it
/// had no contact with, that pair joins the passes and the neighbour is lifted too, so the
/// island can sleep. In `mixed(2000, 4)` the pile rests long before it sleeps: without this
/// every settling left such an overlap deeper than slop + 0.5 px and the pile slept 18.3 s
/// after the last arrival at 2.6 s; now 5.2 s after it, at 7.8 s. The limit, 12 s, lies
/// between. Whatever sleeps is free of overlaps deeper than slop + 0.5 px, and of walls by
/// the same bound over the slop.
#[test]
fn a_settled_body_lifted_into_a_neighbour_takes_it_along_r_rest_3() {
    let config = PhysicsConfig::default();
    let slop = config.penetration_slop;
    let mut w = scenes::mixed(2_000, 4).build(config).unwrap();
    let (steps, pair, wall) = overlaps_when_asleep(&mut w, 12 * 120);
    assert!(
        pair <= slop + 0.5 && wall <= slop + 0.5,
        "asleep after {steps} steps with a {pair} px overlap and {wall} px in a wall"
    );
}

/// R-REST-2 in the mixed pile of 2,000 bodies, where D9 settles islands with lasting deep
/// contacts before they sleep: whenever a large part of the pile falls asleep, no two
/// sleeping bodies overlap by more than slop + 0.5 px. The settling's first form lifted
/// every contact of a column to the slop, moved bodies by up to 7.6 px into neighbours it
/// had no contact with, and froze a 3.98 px overlap in `mixed(2000, 3)` (found by the
/// peers' run); it now lifts only the deep contacts' excess and tests every moved body
/// exactly against the bodies near it before the island may sleep.
#[test]
fn the_mixed_pile_of_2000_freezes_no_overlap_when_it_falls_asleep_r_rest_2() {
    let config = PhysicsConfig::default();
    let slop = config.penetration_slop;
    let mut checked = 0;
    for seed in [1, 4] {
        let mut w = scenes::mixed(2_000, seed).build(config.clone()).unwrap();
        let mut sleeping = 0;
        for _ in 0..14 * 120 {
            w.step(DT).unwrap();
            let now = w.stats().sleeping;
            if now >= sleeping + 100 {
                let deepest = deepest_pair_among(&w, |b| b.is_sleeping());
                assert!(deepest <= slop + 0.5, "seed {seed}: {now} asleep, {deepest} px overlap");
                checked += 1;
            }
            sleeping = now;
        }
    }
    assert!(checked > 0, "no large part of either pile fell asleep: a vacuous test");
}
