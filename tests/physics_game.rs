//! The game API of the core (issue 15): collision layers (R-GAME-3), sensors (R-GAME-2) and
//! collision events (R-GAME-1).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, BodyOrWall, CollisionEvent, CollisionLayers, Material, PhysicsConfig,
    PhysicsError, Shape, WallId, World, scenes,
};
use common::*;
use glam::Vec2;

/// Gravity of the default config, px/s² (y down).
const G: f32 = 980.0;

/// Layer 1 only, meeting layer 1 only.
const LAYER_1: CollisionLayers = CollisionLayers::new(0b01, 0b01);
/// Layer 2 only, meeting layer 2 only.
const LAYER_2: CollisionLayers = CollisionLayers::new(0b10, 0b10);

/// A wood box of 60 × 40 px at `(x, y)`.
fn wood_box(x: f32, y: f32) -> BodyDesc {
    BodyDesc::rect(Vec2::new(60.0, 40.0), Vec2::new(x, y))
}

/// Whether the last step had a contact between `a` and `b`.
fn in_contact(world: &World, a: BodyHandle, b: BodyHandle) -> bool {
    world.contacts().any(|c| (c.a == Some(a) && c.b == b) || (c.a == Some(b) && c.b == a))
}

/// The wall whose normal (into the world) is `n`.
fn wall_of(n: Vec2) -> WallId {
    match (n.x, n.y) {
        (x, _) if x > 0.5 => WallId::Left,
        (x, _) if x < -0.5 => WallId::Right,
        (_, y) if y > 0.5 => WallId::Top,
        _ => WallId::Floor,
    }
}

/// The pairs of the last step's contacts that involve one of `reporting`, as events name
/// them: a body pair with A the lower handle index, a wall contact with A the body.
fn touching_pairs(
    world: &World,
    reporting: &BTreeSet<BodyHandle>,
) -> BTreeSet<(BodyHandle, BodyOrWall)> {
    world
        .contacts()
        .filter_map(|c| match c.a {
            Some(a) if reporting.contains(&a) || reporting.contains(&c.b) => {
                Some((a.min(c.b), BodyOrWall::Body(a.max(c.b))))
            }
            None if reporting.contains(&c.b) => Some((c.b, BodyOrWall::Wall(wall_of(c.normal)))),
            _ => None,
        })
        .collect()
}

/// A pair as events name it.
type Pair = (BodyHandle, BodyOrWall);

/// The started and the ended pairs among the last step's events.
fn started_and_ended(world: &World) -> (Vec<Pair>, Vec<Pair>) {
    let events = world.collision_events();
    let started = events.iter().filter(|e| matches!(e, CollisionEvent::Started { .. }));
    let ended = events.iter().filter(|e| matches!(e, CollisionEvent::Ended { .. }));
    (started.map(CollisionEvent::pair).collect(), ended.map(CollisionEvent::pair).collect())
}

/// Steps once and appends the step's events, numbered by step, to `log`.
fn step_logged(world: &mut World, step: usize, log: &mut Vec<(usize, CollisionEvent)>) {
    run(world, 1);
    log.extend(world.collision_events().iter().map(|&e| (step, e)));
}

/// Asserts that every pair's events alternate Started, Ended, Started, … beginning with a
/// start; returns the number of events per pair.
#[track_caller]
fn assert_alternating(
    log: &[(usize, CollisionEvent)],
) -> BTreeMap<(BodyHandle, BodyOrWall), usize> {
    let mut count: BTreeMap<(BodyHandle, BodyOrWall), usize> = BTreeMap::new();
    for (step, event) in log {
        let n = count.entry(event.pair()).or_default();
        let started = matches!(event, CollisionEvent::Started { .. });
        assert_eq!(started, n.is_multiple_of(2), "step {step}: {event:?} out of turn");
        *n += 1;
    }
    count
}

// -----------------------------------------------------------------------------------------
// Layers (R-GAME-3)
// -----------------------------------------------------------------------------------------

/// Two stacks of three boxes, dropped into each other on disjoint layers, never touch: each
/// rests on the floor as if the other were not there, so they end overlapped, box for box.
/// Box k from the floor rests at `y = 600 − 20 − 40·k` (40 px tall boxes); tolerance 1.5 px:
/// up to `penetration_slop` (0.5 px) per resting contact of the stack.
#[test]
fn two_stacks_on_disjoint_layers_fall_through_each_other_r_game_3() {
    let mut w = world();
    let first: Vec<_> = (0..3)
        .map(|k| add(&mut w, wood_box(400.0, 100.0 + 60.0 * k as f32).with_layers(LAYER_1)))
        .collect();
    let second: Vec<_> = (0..3)
        .map(|k| add(&mut w, wood_box(400.0, 130.0 + 60.0 * k as f32).with_layers(LAYER_2)))
        .collect();
    for _ in 0..600 {
        run(&mut w, 1);
        for (&a, &b) in first.iter().flat_map(|a| second.iter().map(move |b| (a, b))) {
            assert!(!in_contact(&w, a, b), "{a} and {b} are on disjoint layers");
        }
    }
    for stack in [&first, &second] {
        // Added top down: the last one rests on the floor.
        for (k, &h) in stack.iter().rev().enumerate() {
            assert_close(pos(&w, h).y, 580.0 - 40.0 * k as f32, 1.5, "box height in its stack");
            assert_close(pos(&w, h).x, 400.0, 0.5, "box stays in its column");
        }
    }
}

/// Walls ignore layers: a body on no layer at all still lands on the floor.
#[test]
fn a_body_on_no_layer_still_rests_on_the_floor_r_game_3() {
    let mut w = world();
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(400.0, 100.0)).with_layers(CollisionLayers::NONE),
    );
    let other = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)).fixed());
    run(&mut w, 480);
    // It fell through the static ball at the floor and rests on the floor: 600 − r.
    assert_close(pos(&w, ball).y, 580.0, 0.6, "resting on the floor");
    assert!(!in_contact(&w, ball, other));
}

/// A change of layers acts in the next step: a box resting on a static shelf falls off it
/// in the first step after it is put on no layer, with exactly the free-fall velocity
/// `g·dt` (no contact impulse left); before that step nothing changed. (A body on the
/// default layers meets every layer, so only a body that accepts none of its layers, here
/// none at all, is kept apart from it.)
#[test]
fn a_layer_change_takes_effect_in_the_next_step_r_game_3() {
    let mut w = world_with(
        Vec2::new(800.0, 600.0),
        PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() },
    );
    let shelf =
        add(&mut w, BodyDesc::rect(Vec2::new(200.0, 40.0), Vec2::new(400.0, 300.0)).fixed());
    let block = add(&mut w, wood_box(400.0, 260.0));
    run(&mut w, 240);
    assert!(in_contact(&w, shelf, block), "the box rests on the shelf");
    let rest = pos(&w, block);
    w.set_layers(block, CollisionLayers::NONE).unwrap();
    assert_eq!(pos(&w, block), rest, "nothing moves before the next step");
    assert_eq!(w.body(block).unwrap().layers(), CollisionLayers::NONE);
    run(&mut w, 1);
    assert!(!in_contact(&w, shelf, block), "the shelf no longer meets the box");
    // Semi-implicit Euler from rest: v = g·dt after one step, to f32 rounding.
    assert_close(vel(&w, block).y, G * DT, 1e-3, "free fall after the change");
    run(&mut w, 120);
    assert!(pos(&w, block).y > 500.0, "it fell through the shelf");
}

/// Changing the layers of a sleeping body wakes its island (it falls through its support);
/// changing those of a static support wakes the sleepers on it.
#[test]
fn a_layer_change_wakes_a_sleeping_body_and_the_sleepers_on_a_support_r_game_3() {
    for change_the_shelf in [false, true] {
        let mut w = world();
        let shelf =
            add(&mut w, BodyDesc::rect(Vec2::new(200.0, 40.0), Vec2::new(400.0, 300.0)).fixed());
        let block = add(&mut w, wood_box(400.0, 260.0));
        assert!(run_until_asleep(&mut w, 1200).is_some(), "the box falls asleep on the shelf");
        let changed = if change_the_shelf { shelf } else { block };
        w.set_layers(changed, CollisionLayers::new(0b10, 0)).unwrap();
        assert!(
            !w.body(block).unwrap().is_sleeping(),
            "woken at once (shelf changed: {change_the_shelf})"
        );
        run(&mut w, 120);
        assert!(
            pos(&w, block).y > 500.0,
            "it fell through the shelf (shelf changed: {change_the_shelf})"
        );
    }
}

// -----------------------------------------------------------------------------------------
// Sensors (R-GAME-2)
// -----------------------------------------------------------------------------------------

/// A ball dropped from rest through a static sensor falls freely all the way: after n steps
/// semi-implicit Euler gives exactly `v = n·g·dt` and `y = y₀ + g·dt²·n(n+1)/2` (§3), to
/// f32 rounding (tolerance 1e-4 relative). The overlap is reported once when it begins
/// and once when it ends.
#[test]
fn a_body_falls_through_a_static_sensor_with_the_free_fall_velocity_r_game_2() {
    let mut w = world();
    // The sensor spans y = 250 … 350.
    let sensor = add(
        &mut w,
        BodyDesc::rect(Vec2::new(200.0, 100.0), Vec2::new(400.0, 300.0)).fixed().sensor(),
    );
    let ball = add(&mut w, BodyDesc::circle(12.0, Vec2::new(400.0, 100.0)));
    let mut log = Vec::new();
    for n in 1..=110 {
        let before = pos(&w, ball);
        step_logged(&mut w, n, &mut log);
        let (n, v) = (n as f32, vel(&w, ball));
        assert_relative(v.y, n * G * DT, 1e-4, "free-fall velocity");
        assert_relative(
            pos(&w, ball).y,
            100.0 + G * DT * DT * n * (n + 1.0) / 2.0,
            1e-4,
            "free-fall height",
        );
        assert_eq!((v.x, w.body(ball).unwrap().angular_velocity()), (0.0, 0.0));
        // The step tests the positions it started from.
        let overlaps = before.y + 12.0 >= 250.0 && before.y - 12.0 <= 350.0;
        let touching =
            log.iter().filter(|(_, e)| matches!(e, CollisionEvent::Started { .. })).count()
                > log.iter().filter(|(_, e)| matches!(e, CollisionEvent::Ended { .. })).count();
        assert_eq!(touching, overlaps, "step {n}: reported overlap");
    }
    assert_eq!(log.len(), 2, "one start and one end: {log:?}");
    for (_, event) in &log {
        assert_eq!(event.pair(), (sensor, BodyOrWall::Body(ball)));
        assert!(event.is_sensor());
    }
    if let (_, CollisionEvent::Started { normal, normal_impulse, .. }) = log[0] {
        assert_eq!(normal_impulse, 0.0, "no impulse acts on an overlap");
        // The ball enters through the top (y points down): from the sensor up to the ball.
        assert_close(normal.y, -1.0, 1e-6, "normal from the sensor (A) to the ball");
    }
}

/// The state of every body but the sensor, bit for bit.
fn others_state(world: &World, sensor: BodyHandle) -> Vec<(BodyHandle, [u32; 6], bool)> {
    world
        .bodies()
        .filter(|&(h, _)| h != sensor)
        .map(|(h, b)| {
            let (p, v) = (b.position(), b.velocity());
            let bits = [p.x, p.y, v.x, v.y, b.angle(), b.angular_velocity()].map(f32::to_bits);
            (h, bits, b.is_sleeping())
        })
        .collect()
}

/// A sensor never changes another body's state. The world with the sensor is compared, bit
/// for bit (positions, velocities, spins, sleep), with its twin in which the same body is on
/// no layer and so meets no other body. (The twin has the body, because any added body
/// changes the solver's numbering of the walls and with it the order of the sums.)
/// - A heavy dynamic sensor falls through a pile, part of it asleep: it wakes no sleeper,
///   pushes nobody, and comes to rest on the floor, awake.
/// - A static sensor placed in a pile from the start: the pile settles and falls asleep
///   inside it as in the twin.
#[test]
fn a_sensor_never_changes_any_other_bodys_state_r_game_2() {
    for dynamic in [true, false] {
        let mut with = scenes::mixed(60, 7).build(PhysicsConfig::default()).unwrap();
        if dynamic {
            run(&mut with, 600);
            assert!(with.bodies().any(|(_, b)| b.is_sleeping()), "part of the pile sleeps");
        }
        let mut twin = with.clone();
        let (_, max) = with.bounds();
        // Heavy and without bounce, so that it comes to rest on the floor quickly.
        let lead = Material { restitution: 0.0, ..Material::STEEL };
        let desc =
            BodyDesc::circle(80.0, Vec2::new(max.x / 2.0, 100.0)).with_material(lead).sensor();
        let desc = if dynamic {
            desc.with_velocity(Vec2::new(0.0, 600.0))
        } else {
            BodyDesc { position: Vec2::new(max.x / 2.0, max.y - 120.0), ..desc.fixed() }
        };
        let sensor = add(&mut with, desc);
        let ghost = BodyDesc { sensor: false, layers: CollisionLayers::NONE, ..desc };
        assert_eq!(add(&mut twin, ghost), sensor);
        let mut overlaps = 0;
        for step in 0..1200 {
            run(&mut with, 1);
            run(&mut twin, 1);
            assert_eq!(
                others_state(&with, sensor),
                others_state(&twin, sensor),
                "dynamic {dynamic}, step {step}"
            );
            overlaps += with.collision_events().iter().filter(|e| e.is_sensor()).count();
        }
        assert!(overlaps > 0, "not vacuous: the sensor met bodies (dynamic {dynamic})");
        if dynamic {
            // It fell through the pile onto the floor, and rests there awake.
            assert_close(pos(&with, sensor).y, max.y - 80.0, 1.0, "the sensor rests on the floor");
            assert!(!with.body(sensor).unwrap().is_sleeping(), "a sensor never sleeps");
        } else {
            let zone = with.body(sensor).unwrap().clone();
            let asleep_inside = with
                .bodies()
                .filter(|(_, b)| b.is_sleeping() && zone.contains(b.position()))
                .count();
            assert!(asleep_inside > 0, "not vacuous: bodies sleep inside the sensor");
        }
    }
}

/// A static sensor added over sleepers does not wake them (it holds nothing up); their
/// overlap is reported once they wake.
#[test]
fn a_static_sensor_added_over_sleepers_leaves_them_asleep_r_game_2() {
    let mut w = world();
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)));
    assert!(run_until_asleep(&mut w, 600).is_some());
    let sensor = add(
        &mut w,
        BodyDesc::rect(Vec2::new(100.0, 100.0), Vec2::new(400.0, 560.0)).fixed().sensor(),
    );
    run(&mut w, 10);
    assert!(w.body(ball).unwrap().is_sleeping(), "still asleep");
    assert!(w.collision_events().is_empty());
    w.wake(ball).unwrap();
    run(&mut w, 1);
    assert_eq!(started_and_ended(&w).0, [(ball, BodyOrWall::Body(sensor))], "A: the lower index");
}

/// Two sensors that overlap report nothing, and neither pushes the other.
#[test]
fn two_sensors_never_report_each_other_r_game_2() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    add(&mut w, BodyDesc::circle(40.0, Vec2::new(400.0, 300.0)).sensor().with_collision_events());
    add(&mut w, BodyDesc::circle(40.0, Vec2::new(420.0, 300.0)).sensor().with_collision_events());
    add(&mut w, BodyDesc::circle(40.0, Vec2::new(420.0, 320.0)).fixed().sensor());
    for _ in 0..10 {
        run(&mut w, 1);
        assert!(w.collision_events().is_empty(), "{:?}", w.collision_events());
        assert_eq!(w.contacts().count(), 0);
    }
}

/// Switching a body to a sensor lets what rests on it fall through; switching it back
/// makes it solid again.
#[test]
fn set_sensor_turns_a_shelf_into_a_trigger_and_back_r_game_2() {
    let mut w = world();
    let shelf =
        add(&mut w, BodyDesc::rect(Vec2::new(200.0, 40.0), Vec2::new(400.0, 300.0)).fixed());
    let block = add(&mut w, wood_box(400.0, 100.0));
    run(&mut w, 240);
    assert_close(pos(&w, block).y, 260.0, 1.0, "resting on the shelf");
    assert!(run_until_asleep(&mut w, 600).is_some());
    w.set_sensor(shelf, true).unwrap();
    assert!(w.body(shelf).unwrap().is_sensor());
    assert!(!w.body(block).unwrap().is_sleeping(), "the sleeper on it woke");
    run(&mut w, 600);
    assert_close(pos(&w, block).y, 580.0, 1.0, "fell through onto the floor");
    w.set_sensor(shelf, false).unwrap();
    w.set_position(block, Vec2::new(400.0, 100.0)).unwrap();
    run(&mut w, 240);
    assert_close(pos(&w, block).y, 260.0, 1.0, "resting on the shelf again");
}

// -----------------------------------------------------------------------------------------
// Collision events (R-GAME-1)
// -----------------------------------------------------------------------------------------

/// The events of every step are exactly the difference between that step's reported
/// contacts and the step before's: in a mixed pile with sleeping off, every third body opted
/// in, each pair that starts touching is started once, each that stops is ended once.
#[test]
fn events_are_the_steps_new_and_lost_contacts_r_game_1() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let scene = scenes::mixed(120, 5);
    let mut w = World::new(scene.size, config).unwrap();
    let mut reporting = BTreeSet::new();
    for (i, desc) in scene.bodies.iter().enumerate() {
        let desc = if i % 3 == 0 { desc.with_collision_events() } else { *desc };
        let h = add(&mut w, desc);
        if i % 3 == 0 {
            reporting.insert(h);
        }
    }
    let mut before = BTreeSet::new();
    let (mut starts, mut ends) = (0, 0);
    for step in 0..900 {
        run(&mut w, 1);
        let now = touching_pairs(&w, &reporting);
        let (mut started, mut ended) = started_and_ended(&w);
        started.sort_unstable();
        ended.sort_unstable();
        assert_eq!(
            started,
            now.difference(&before).copied().collect::<Vec<_>>(),
            "step {step}: started"
        );
        assert_eq!(
            ended,
            before.difference(&now).copied().collect::<Vec<_>>(),
            "step {step}: ended"
        );
        (starts, ends) = (starts + started.len(), ends + ended.len());
        before = now;
    }
    // Not vacuous: the pile formed and bodies bounced.
    assert!(starts > 100 && ends > 10, "{starts} starts, {ends} ends");
}

/// A ball with events on that falls onto the floor (restitution 0) starts one contact with
/// the floor, with the impulse that stops it: `P = m·(v + g·dt)`, its speed after the step's
/// gravity kick (one contact, so the passes end at `v_n = 0` exactly; tolerance 1e-4
/// relative). The normal points from the ball (A) to the floor. Lifting it off ends the
/// contact once; landing again starts it once more.
#[test]
fn a_ball_landing_on_the_floor_starts_one_contact_with_its_impulse_r_game_1() {
    let mut w = world();
    let clay = Material { density: 1.0, friction: 0.5, restitution: 0.0 };
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)).with_material(clay).with_collision_events(),
    );
    let mass = w.body(ball).unwrap().mass();
    let mut log = Vec::new();
    let mut landing = None;
    for step in 0..240 {
        let v = vel(&w, ball).y;
        step_logged(&mut w, step, &mut log);
        if landing.is_none() && !log.is_empty() {
            landing = Some(v);
        }
    }
    assert_eq!(log.len(), 1, "one start while it lands and rests: {log:?}");
    let CollisionEvent::Started { a, b, point, normal, normal_impulse, sensor } = log[0].1 else {
        panic!("a start first");
    };
    assert_eq!((a, b, sensor), (ball, BodyOrWall::Wall(WallId::Floor), false));
    assert_eq!(normal, Vec2::Y, "from the ball down to the floor");
    assert_close(point.x, 400.0, 1e-3, "below the centre");
    let v = landing.unwrap() + G * DT;
    // The middle of the overlap, which is at most one step's travel deep.
    assert_close(point.y, 600.0, v * DT, "at the floor");
    assert_relative(normal_impulse, mass * v, 1e-4, "the impulse that stops the ball");
    // Thrown up: the contact ends once, and starts once when it lands again.
    w.set_velocity(ball, Vec2::new(0.0, -400.0)).unwrap();
    log.clear();
    for step in 0..240 {
        step_logged(&mut w, step, &mut log);
    }
    let kinds: Vec<_> =
        log.iter().map(|(_, e)| matches!(e, CollisionEvent::Started { .. })).collect();
    assert_eq!(kinds, [false, true], "ended, then started again: {log:?}");
}

/// A wall contact names the wall and points from the body to it.
#[test]
fn wall_events_name_the_wall_r_game_1() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    let cases = [
        (Vec2::new(-300.0, 0.0), WallId::Left, -Vec2::X),
        (Vec2::new(300.0, 0.0), WallId::Right, Vec2::X),
        (Vec2::new(0.0, -300.0), WallId::Top, -Vec2::Y),
        (Vec2::new(0.0, 300.0), WallId::Floor, Vec2::Y),
    ];
    for (velocity, wall, expected) in cases {
        let ball = add(
            &mut w,
            BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))
                .with_velocity(velocity)
                .with_collision_events(),
        );
        let mut started = None;
        for _ in 0..240 {
            run(&mut w, 1);
            if let Some(&CollisionEvent::Started { b, normal, .. }) = w.collision_events().first() {
                started.get_or_insert((b, normal));
            }
        }
        assert_eq!(started, Some((BodyOrWall::Wall(wall), expected)), "thrown {velocity}");
        w.remove_body(ball).unwrap();
        run(&mut w, 1);
    }
}

/// A stack of three boxes with events on, set down touching: its four contacts start once,
/// and neither falling asleep nor waking (twice) starts or ends any of them. Throwing the
/// top box up ends its contact once.
#[test]
fn sleep_and_wake_neither_end_nor_restart_a_contact_r_game_1() {
    let mut w = world();
    let boxes: Vec<_> = (0..3)
        .map(|k| add(&mut w, wood_box(400.0, 580.0 - 40.0 * k as f32).with_collision_events()))
        .collect();
    let mut log = Vec::new();
    let mut step = 0;
    while !w.body(boxes[2]).unwrap().is_sleeping() {
        step_logged(&mut w, step, &mut log);
        step += 1;
        assert!(step < 1200, "the stack falls asleep");
    }
    for round in 0..2 {
        for _ in 0..120 {
            step_logged(&mut w, step, &mut log);
            step += 1;
        }
        assert!(w.body(boxes[0]).unwrap().is_sleeping(), "round {round}: asleep");
        w.wake(boxes[round]).unwrap();
        for _ in 0..30 {
            step_logged(&mut w, step, &mut log);
            step += 1;
        }
    }
    let counts = assert_alternating(&log);
    let expected: BTreeMap<_, _> = [
        ((boxes[0], BodyOrWall::Wall(WallId::Floor)), 1),
        ((boxes[0], BodyOrWall::Body(boxes[1])), 1),
        ((boxes[1], BodyOrWall::Body(boxes[2])), 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(counts, expected, "{log:?}");
    w.set_velocity(boxes[2], Vec2::new(0.0, -500.0)).unwrap();
    log.clear();
    for _ in 0..20 {
        step_logged(&mut w, step, &mut log);
        step += 1;
    }
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(
        matches!(log[0].1, CollisionEvent::Ended { a, b: BodyOrWall::Body(b), .. } if (a, b) == (boxes[1], boxes[2]))
    );
}

/// Removing a body ends its reported pairs in the next step, named by its stale handle;
/// also when it is removed from a sleeping island. The other pairs go on.
#[test]
fn a_removed_body_ends_its_pairs_in_the_next_step_r_game_1() {
    for asleep in [false, true] {
        let mut w = world();
        let bottom = add(&mut w, wood_box(400.0, 580.0).with_collision_events());
        let top = add(&mut w, wood_box(400.0, 540.0));
        run(&mut w, 60);
        if asleep {
            assert!(run_until_asleep(&mut w, 1200).is_some());
        }
        assert!(w.collision_events().is_empty());
        w.remove_body(bottom).unwrap();
        assert!(
            w.collision_events().is_empty(),
            "the events of the last step are left as they were"
        );
        run(&mut w, 1);
        let mut ended = started_and_ended(&w).1;
        ended.sort_unstable();
        assert_eq!(
            ended,
            [(bottom, BodyOrWall::Body(top)), (bottom, BodyOrWall::Wall(WallId::Floor))],
            "asleep {asleep}"
        );
        assert!(!w.contains(bottom));
        run(&mut w, 120);
        assert!(w.collision_events().is_empty(), "the top box reports nothing by itself");
    }
}

/// Switching events off ends the body's pairs in the next step, unless the other body
/// reports them; switching them on starts the pairs that touch.
#[test]
fn switching_events_off_and_on_ends_and_starts_the_pairs_r_game_1() {
    let mut w = world();
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)));
    run(&mut w, 30);
    assert!(w.collision_events().is_empty(), "nobody opted in");
    w.set_collision_events(ball, true).unwrap();
    assert!(w.body(ball).unwrap().reports_collisions());
    run(&mut w, 1);
    assert_eq!(started_and_ended(&w), (vec![(ball, BodyOrWall::Wall(WallId::Floor))], vec![]));
    w.set_collision_events(ball, false).unwrap();
    run(&mut w, 1);
    assert_eq!(started_and_ended(&w), (vec![], vec![(ball, BodyOrWall::Wall(WallId::Floor))]));
    run(&mut w, 1);
    assert!(w.collision_events().is_empty());
}

/// The events of a step are cleared at the start of the next one.
#[test]
fn events_last_until_the_next_step_r_game_1() {
    let mut w = world();
    add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)).with_collision_events());
    run(&mut w, 1);
    assert_eq!(w.collision_events().len(), 1);
    let copy = w.clone();
    assert_eq!(copy.collision_events(), w.collision_events(), "read as often as wanted");
    run(&mut w, 1);
    assert!(w.collision_events().is_empty());
}

/// `partner_of` names the other side of an event.
#[test]
fn an_event_names_each_bodys_partner_r_game_1() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    let left = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(300.0, 300.0))
            .with_velocity(Vec2::new(200.0, 0.0))
            .with_collision_events(),
    );
    let right = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    let mut event = None;
    for _ in 0..120 {
        run(&mut w, 1);
        event = event.or(w.collision_events().first().copied());
    }
    let event = event.expect("they met");
    assert_eq!(event.partner_of(left), Some(BodyOrWall::Body(right)));
    assert_eq!(event.partner_of(right), Some(BodyOrWall::Body(left)));
    let stranger = add(&mut w, BodyDesc::circle(20.0, Vec2::new(100.0, 100.0)));
    assert_eq!(event.partner_of(stranger), None);
}

// -----------------------------------------------------------------------------------------
// Hostile input
// -----------------------------------------------------------------------------------------

/// Stale handles are refused by every new setter, naming the handle, and change nothing.
#[test]
fn stale_handles_are_refused_and_change_nothing_r_game_1() {
    let mut w = world();
    let kept = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)).with_collision_events());
    let gone = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 580.0)));
    w.remove_body(gone).unwrap();
    // The slot reused: the old handle must still be refused.
    let reused = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 580.0)));
    assert_eq!(reused.index(), gone.index());
    run(&mut w, 10);
    let hash = w.state_hash();
    let events = w.collision_events().to_vec();
    let stale = PhysicsError::StaleHandle(gone);
    assert_eq!(w.set_layers(gone, CollisionLayers::NONE), Err(stale.clone()));
    assert_eq!(w.set_sensor(gone, true), Err(stale.clone()));
    assert_eq!(w.set_collision_events(gone, false), Err(stale));
    assert_eq!(w.state_hash(), hash);
    assert_eq!(w.collision_events(), events);
    let reused_body = w.body(reused).unwrap();
    assert_eq!(
        (reused_body.layers(), reused_body.is_sensor(), reused_body.reports_collisions()),
        (CollisionLayers::ALL, false, false)
    );
    // The world goes on as if nothing was asked.
    let mut twin = w.clone();
    run(&mut w, 60);
    run(&mut twin, 60);
    assert_eq!(w.state_hash(), twin.state_hash());
    assert!(w.contains(kept));
}

/// A description round-trips through `Body::desc` with its sensor and event flags.
#[test]
fn a_body_keeps_its_sensor_and_event_flags_r_game_2() {
    let mut w = world();
    let desc = BodyDesc::new(Shape::circle(20.0), Vec2::new(400.0, 300.0))
        .sensor()
        .with_collision_events()
        .with_layers(LAYER_1);
    let h = add(&mut w, desc);
    let back = w.body(h).unwrap().desc();
    assert_eq!((back.sensor, back.collision_events, back.layers), (true, true, LAYER_1));
    let plain = BodyDesc::circle(20.0, Vec2::ZERO);
    assert!(!plain.sensor && !plain.collision_events, "both off by default");
}

/// Forgetting the warm-start impulses (a gravity toggle, a new time step) keeps the pairs
/// that touch: no second start. Clearing the world ends every reported pair.
#[test]
fn forgetting_impulses_keeps_contacts_and_clearing_ends_them_r_game_1() {
    let mut w = world();
    let low = add(&mut w, wood_box(400.0, 580.0).with_collision_events());
    let high = add(&mut w, wood_box(400.0, 540.0).with_collision_events());
    let mut log = Vec::new();
    for step in 0..60 {
        step_logged(&mut w, step, &mut log);
    }
    assert_eq!(log.len(), 2, "the floor and the box on top: {log:?}");
    w.set_gravity_enabled(false);
    w.set_gravity_enabled(true);
    let config = PhysicsConfig { time_step: 1.0 / 240.0, ..w.config().clone() };
    w.set_config(config).unwrap();
    for step in 60..120 {
        step_logged(&mut w, step, &mut log);
    }
    assert_eq!(log.len(), 2, "nothing started again: {log:?}");
    w.clear();
    run(&mut w, 1);
    let mut ended = started_and_ended(&w).1;
    ended.sort_unstable();
    assert_eq!(ended, [(low, BodyOrWall::Body(high)), (low, BodyOrWall::Wall(WallId::Floor))]);
    run(&mut w, 1);
    assert!(w.collision_events().is_empty());
}
