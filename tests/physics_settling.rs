//! The settling before sleep (D9 of docs/physics.md) in worlds that use sensors (R-GAME-2),
//! collision layers (R-GAME-3) and the walls: it pushes a body out of what the step would
//! push it out of, and of nothing else.
//!
//! The settling takes an island's deep contacts out when it is about to fall asleep, then
//! tests every body it moved exactly against the bodies near it and the walls. It used to
//! test every neighbour, sensors and bodies on other layers too, and took what it found as
//! immovable obstacles: a box resting on another inside a large sensor was pushed out of
//! the sensor (190 px, through the left wall) and put to sleep there, and a stack resting
//! inside a sensor zone never slept. It tested no wall: a body its passes pushed into a
//! wall it had not touched slept there.

mod common;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, CollisionLayers, PhysicsConfig, World, collide,
};
use common::*;
use glam::Vec2;

/// The configs under which the step leaves a deep contact for the settling: no projection
/// by the step (its factor 0, or no passes).
fn configs_without_projection() -> [(&'static str, PhysicsConfig); 2] {
    let default = PhysicsConfig::default();
    [
        ("factor 0", PhysicsConfig { position_correction_factor: 0.0, ..default.clone() }),
        ("no passes", PhysicsConfig { position_iterations: 0, ..default }),
    ]
}

/// How deep a body is in the walls, px (negative when clear of all four).
fn in_wall(w: &World, h: BodyHandle) -> f32 {
    let (min, max) = w.bounds();
    let (low, high) = w.body(h).expect("body exists").aabb();
    (min - low).max_element().max((high - max).max_element())
}

/// How deep two bodies overlap, px (0 when apart).
fn overlap(w: &World, a: BodyHandle, b: BodyHandle) -> f32 {
    let (a, b) = (w.body(a).expect("a"), w.body(b).expect("b"));
    collide(&a.shape(), a.position(), &b.shape(), b.position()).map_or(0.0, |m| m.depth)
}

/// The fuzzer's case: a box of 49.5 × 88.1 px dropped 5.6 px deep onto a box of 43.5 ×
/// 68.7 px on the floor, `dx` right of the left wall's corner, with `other` in the world,
/// overlapping both, and no projection by the step. The box must fall asleep where it
/// rests, lifted out of its support by the settling (at most its reach, 6 px past the
/// slop) and nowhere else: not sideways, not into a wall, and with no overlap deeper than
/// R-REST-2 allows. Before the fix it was pushed out of `other`, sideways (113 to 190 px),
/// through the left wall to 148 px inside it, in the step it fell asleep.
fn a_box_settles_in_place_beside(other: BodyDesc, dx: f32) {
    for (name, config) in configs_without_projection() {
        let slop = config.penetration_slop;
        let mut w = world_with(Vec2::new(800.0, 600.0), config);
        add(&mut w, other);
        let support =
            add(&mut w, BodyDesc::rect(Vec2::new(43.5, 68.7), Vec2::new(74.5 + dx, 540.3)));
        let top = Vec2::new(66.0 + dx, 467.5);
        let boxed = add(&mut w, BodyDesc::rect(Vec2::new(49.5, 88.1), top));
        let mut fell_asleep = None;
        for step in 0..200 {
            let before = pos(&w, boxed);
            run(&mut w, 1);
            if w.body(boxed).unwrap().is_sleeping() {
                fell_asleep = Some((step, pos(&w, boxed) - before));
                break;
            }
        }
        let (step, jump) = fell_asleep.unwrap_or_else(|| panic!("{name}: awake after 200 steps"));
        assert!(w.body(support).unwrap().is_sleeping(), "{name}: its island sleeps");
        assert!(
            jump.length() <= slop + 6.0,
            "{name}: moved {jump} in the step it fell asleep ({step}), to {}",
            pos(&w, boxed)
        );
        assert_close(pos(&w, boxed).x, top.x, 0.01, &format!("{name}: pushed sideways"));
        for h in [support, boxed] {
            assert!(in_wall(&w, h) <= slop + 0.5, "{name}: {} px in a wall", in_wall(&w, h));
        }
        let depth = overlap(&w, support, boxed);
        assert!(depth <= slop + 0.5, "{name}: asleep with a {depth} px overlap");
    }
}

/// R-GAME-2: a sensor pushes nothing, the settling included. A dynamic sensor circle of
/// radius 513.8 px covers the whole world (it is wider, so it is centred: D3); a static
/// one of radius 250 px covers the boxes, which stand 200 px further right.
#[test]
fn a_box_resting_in_a_sensor_falls_asleep_where_it_rests_r_game_2() {
    let centre = Vec2::new(400.0, 300.0);
    a_box_settles_in_place_beside(BodyDesc::circle(513.8, centre).sensor(), 0.0);
    a_box_settles_in_place_beside(BodyDesc::circle(250.0, centre).fixed().sensor(), 200.0);
}

/// R-GAME-3: bodies whose layers do not interact have no contact, and the settling does
/// not push one out of the other. The same cases with the large circles on no layer
/// instead of sensors (a dynamic one rests on the floor: the walls ignore layers).
#[test]
fn a_box_resting_in_a_body_on_other_layers_falls_asleep_where_it_rests_r_game_3() {
    let centre = Vec2::new(400.0, 300.0);
    let none = CollisionLayers::NONE;
    a_box_settles_in_place_beside(BodyDesc::circle(513.8, centre).with_layers(none), 0.0);
    let fixed = BodyDesc::circle(250.0, centre).fixed().with_layers(none);
    a_box_settles_in_place_beside(fixed, 200.0);
}

/// R-GAME-2: a stack of six boxes resting inside a sensor zone falls asleep in the same
/// step as without the zone (after 0.5 s), with no overlap or wall depth deeper than
/// R-REST-2 allows. The step leaves its contacts deep (factor 0), so the settling takes
/// them out. Before the fix, the boxes' overlaps with the zone, which the settling counted,
/// kept the stack awake for good (still awake after 10 s), with a static zone and with a
/// dynamic sensor covering the world alike.
#[test]
fn a_stack_resting_inside_a_sensor_zone_falls_asleep_r_game_2() {
    let zones = [
        BodyDesc::rect(Vec2::new(300.0, 300.0), Vec2::new(400.0, 450.0)).fixed().sensor(),
        BodyDesc::circle(513.8, Vec2::new(400.0, 300.0)).sensor(),
    ];
    let mut without_zone = None;
    for zone in [None, Some(zones[0]), Some(zones[1])] {
        let config = PhysicsConfig { position_correction_factor: 0.0, ..PhysicsConfig::default() };
        let slop = config.penetration_slop;
        let mut w = world_with(Vec2::new(800.0, 600.0), config);
        let sensor = zone.map(|zone| add(&mut w, zone));
        let boxes: Vec<_> = (0..6)
            .map(|i| {
                let spot = Vec2::new(400.0 + 3.0 * (i % 2) as f32, 580.0 - 38.0 * i as f32);
                add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), spot))
            })
            .collect();
        let asleep = |w: &World| boxes.iter().all(|&h| w.body(h).unwrap().is_sleeping());
        let mut steps = 0;
        while !asleep(&w) {
            assert!(steps < 120, "zone {zone:?}: the stack still awake after 1 s");
            run(&mut w, 1);
            steps += 1;
        }
        assert_eq!(steps, *without_zone.get_or_insert(steps), "zone {zone:?}: asleep later");
        for (i, &h) in boxes.iter().enumerate() {
            assert!(in_wall(&w, h) <= slop + 0.5, "zone {zone:?}: box {i} in a wall");
            if let Some(&above) = boxes.get(i + 1) {
                let depth = overlap(&w, h, above);
                assert!(depth <= slop + 0.5, "zone {zone:?}: boxes {i}, {} {depth} px", i + 1);
            }
        }
        if let Some(sensor) = sensor {
            let zone = w.body(sensor).unwrap();
            let inside = boxes.iter().filter(|&&h| zone.contains(pos(&w, h))).count();
            assert!(inside > 0, "not vacuous: the stack rests inside the sensor");
        }
    }
}

/// R-POS-3 and R-REST-2: the settling pushes a body no deeper into a wall than sleep
/// allows. Two boxes of 40 px rest on the floor, side by side and 6 px into each other, the
/// left one 1 px from the left wall; the step leaves their contact deep (factor 0). Split
/// between the two, the settling would push the left box 1.7 px into the wall it did not
/// touch, and sleep froze it there; the wall now joins the settling's passes as the
/// neighbours it did not touch do, and holds the left box, so that the right one takes the
/// push.
#[test]
fn a_settled_body_is_pushed_no_deeper_into_a_wall_than_sleep_allows_r_pos_3() {
    let config = PhysicsConfig { position_correction_factor: 0.0, ..PhysicsConfig::default() };
    let slop = config.penetration_slop;
    let mut w = world_with(Vec2::new(800.0, 600.0), config);
    let left = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(21.0, 580.0)));
    let right = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(55.0, 580.0)));
    let clear = w.body(left).unwrap().aabb().0.x - w.bounds().0.x;
    assert_eq!(clear, 1.0, "not vacuous: the left box clear of the left wall");
    assert_close(overlap(&w, left, right), 6.0, 1e-4, "the boxes' overlap");
    assert!(run_until_asleep(&mut w, 120).is_some(), "the boxes still awake after 1 s");
    let depth = in_wall(&w, left);
    assert!(depth <= slop + 0.5, "asleep {depth} px in the left wall");
    let depth = overlap(&w, left, right);
    assert!(depth <= slop + 0.5, "asleep with a {depth} px overlap");
}

/// The deepest overlap between neighbours of the column, px.
fn deepest_in_column(w: &World, boxes: &[BodyHandle]) -> f32 {
    boxes.windows(2).map(|pair| overlap(w, pair[0], pair[1])).fold(0.0, f32::max)
}

/// Steps `w` until every body sleeps; the steps taken, and the deepest overlap of the column
/// over the last `time_to_sleep` before, at most `limit` steps.
fn until_the_column_sleeps(w: &mut World, boxes: &[BodyHandle], limit: usize) -> (usize, f32) {
    let window = (w.config().time_to_sleep / DT).round() as usize;
    let mut deepest = Vec::new();
    for step in 1..=limit {
        let before: Vec<Vec2> = boxes.iter().map(|&h| pos(w, h)).collect();
        deepest.push(deepest_in_column(w, boxes));
        run(w, 1);
        if boxes.iter().all(|&h| w.body(h).unwrap().is_sleeping()) {
            // Asleep as it is: the settling moved nothing in the step it fell asleep.
            for (&h, was) in boxes.iter().zip(before) {
                let moved = (pos(w, h) - was).length();
                assert!(moved < 1e-3, "moved {moved} px in the step it fell asleep");
            }
            let recent = &deepest[deepest.len().saturating_sub(window)..];
            return (step, recent.iter().copied().fold(0.0, f32::max));
        }
    }
    panic!("the column still awake after {limit} steps");
}

/// D17 (§11, against R-REST-2's letter): a column of boxes wedged from the floor to the
/// ceiling, whose overlaps no motion can take out (19.68 px shared by 13 contacts), falls
/// asleep as it is after its settling failed three times in a row (D9 tries when the rest
/// reaches `time_to_sleep`, and after each failure the deep bodies rest again): at
/// 3 · `time_to_sleep` after it came to rest (up to 4 steps later: the step it comes to
/// rest in, and a rest time summed in `f32` steps may reach `time_to_sleep` a step after
/// its 60th), with no overlap deeper than
/// the step's passes held in the last `time_to_sleep`. Before, the settling failed every
/// 0.5 s and the column stayed awake for good (still awake after 30 s, at 0.00 px/s). Woken,
/// it counts its failures afresh: it sleeps again 3 · `time_to_sleep` later, not at the
/// first failure.
#[test]
fn a_column_wedged_from_floor_to_ceiling_falls_asleep_as_it_is_r_rest_2() {
    let (mut w, boxes) = wedged_column();
    let three_rests = (3.0 * w.config().time_to_sleep / DT).round() as usize;
    let (steps, deepest_before) = until_the_column_sleeps(&mut w, &boxes, 30 * 120);
    let late = |steps: usize| steps < three_rests || steps > three_rests + 4;
    assert!(!late(steps), "asleep after {steps} steps, not {three_rests}");
    let deepest = deepest_in_column(&w, &boxes);
    assert!(deepest <= deepest_before + 1e-4, "asleep {deepest} px deep, {deepest_before} before");
    let slop = w.config().penetration_slop;
    assert!(deepest > slop + 0.5, "not vacuous: the column is deeper than R-REST-2 allows");

    w.wake_all();
    let (again, _) = until_the_column_sleeps(&mut w, &boxes, 30 * 120);
    assert!(!late(again), "asleep again after {again} steps, not {three_rests}");
}

/// D17 for an island the settling cannot even try (§11, against R-REST-2's letter): three
/// boxes of 60 × 230 px, and two circles of radius 160 px, stacked from the floor to the
/// ceiling of a 600 px world, 90 px and 40 px taller than it. Their contacts overlap by far
/// more than the settling's reach (slop + 6 px), so D9 leaves the island to the step's own
/// passes; such an island counts its failures as one the settling tried, and falls asleep as
/// it is 3 · `time_to_sleep` after it came to rest (up to 4 steps later, as above). Before,
/// it never counted them: both stacks were still awake after 30 s, at 0.00 px/s, paying a
/// whole step each.
#[test]
fn a_column_wedged_deeper_than_the_settling_reaches_falls_asleep_as_it_is_r_rest_2() {
    let tall = |y: f32| BodyDesc::rect(Vec2::new(60.0, 230.0), Vec2::new(400.0, y));
    let round = |y: f32| BodyDesc::circle(160.0, Vec2::new(400.0, y));
    let columns = [
        ("three tall boxes", vec![tall(485.0), tall(300.0), tall(115.0)]),
        ("two big circles", vec![round(440.0), round(160.0)]),
    ];
    for (name, descs) in columns {
        let mut w = world();
        let bodies: Vec<BodyHandle> = descs.into_iter().map(|d| add(&mut w, d)).collect();
        let three_rests = (3.0 * w.config().time_to_sleep / DT).round() as usize;
        let (steps, deepest_before) = until_the_column_sleeps(&mut w, &bodies, 30 * 120);
        let late = |steps: usize| steps < three_rests || steps > three_rests + 4;
        assert!(!late(steps), "{name}: asleep after {steps} steps, not {three_rests}");
        let deepest = deepest_in_column(&w, &bodies);
        let ok = deepest <= deepest_before + 1e-4;
        assert!(ok, "{name}: asleep {deepest} px deep, {deepest_before} before");
        let reach = w.config().penetration_slop + 6.0;
        assert!(deepest > reach, "not vacuous: {name} {deepest} px deep, beyond {reach} px");

        w.wake_all();
        let (again, _) = until_the_column_sleeps(&mut w, &bodies, 30 * 120);
        assert!(!late(again), "{name}: asleep again after {again} steps, not {three_rests}");
    }
}
