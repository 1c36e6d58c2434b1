//! Behaviour the spec names without a closed-form number: warm starting, restitution rules,
//! waking, the emergency brake, drag and throw.

mod common;

use bevy_sandbox_physics::physics::collide;
use bevy_sandbox_physics::physics::scenes::{self, SceneRng};
use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, Material, PhysicsConfig, Shape, VelocityTracker, World,
};
use common::*;
use glam::Vec2;

/// Three circles: two on the floor, one resting on both (two contacts), settled.
fn circle_heap(config: PhysicsConfig) -> (World, BodyHandle) {
    let mut w = world_with(Vec2::new(800.0, 600.0), config);
    let r = 30.0;
    add(&mut w, BodyDesc::circle(r, Vec2::new(370.0, 600.0 - r)));
    add(&mut w, BodyDesc::circle(r, Vec2::new(430.0, 600.0 - r)));
    let top = add(&mut w, BodyDesc::circle(r, Vec2::new(400.0, 600.0 - r - 52.0)));
    (w, top)
}

fn impulses(w: &World) -> Vec<f32> {
    w.contacts().map(|c| c.normal_impulse).collect()
}

/// R-SI-2: last step's impulses are applied first, but dropped when the normal turned
/// (n_old·n_new < 0.95). The top circle of a heap is moved sideways: by 2 px its contact
/// normal turns by about 2° and keeps its impulse; by 25 px it turns by about 24° and the
/// impulse is dropped, while the unchanged contacts (the floor's, the lower circles') still
/// start warm.
#[test]
fn warm_start_is_dropped_when_the_normal_turns_r_si_2() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    for (shift, turned) in [(2.0, false), (25.0, true)] {
        let (mut w, top) = circle_heap(config.clone());
        run(&mut w, 120);
        let contacts_before = w.contacts().count();
        assert_eq!(w.stats().warm_started, contacts_before, "a resting heap starts warm");
        let p = pos(&w, top);
        w.set_position(top, p + Vec2::new(shift, 0.0)).unwrap();
        w.step(DT).unwrap();
        let contacts = w.contacts().count();
        // The contacts of the moved circle; the others (the floor's, and the two lower
        // circles', which touch) keep their normals.
        let moved = w.contacts().filter(|c| c.a == Some(top) || c.b == top).count();
        assert!(moved >= 1);
        if turned {
            assert_eq!(w.stats().warm_started, contacts - moved, "shift {shift}");
        } else {
            assert_eq!(w.stats().warm_started, contacts, "shift {shift}");
        }
    }
    // And the impulses matter: a fresh solve from zero gives other results after one pass.
    let one_pass = PhysicsConfig { velocity_iterations: 1, ..config };
    let (mut w, _) = circle_heap(one_pass);
    run(&mut w, 120);
    let mut cold = w.clone();
    cold.forget_contact_impulses();
    w.step(DT).unwrap();
    cold.step(DT).unwrap();
    assert_eq!(cold.stats().warm_started, 0);
    assert_ne!(impulses(&w), impulses(&cold));
}

/// R-SI-2: warm starting makes a resting stack converge: the contact impulse under a
/// resting box equals its weight per step (m·g·dt) within 1 %.
#[test]
fn a_resting_contact_carries_the_weight_per_step_r_si_2() {
    let mut w = world();
    let h = add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(400.0, 579.0)));
    run(&mut w, 30);
    let weight = w.body(h).unwrap().mass() * 980.0 * DT;
    let floor: f32 = w.contacts().filter(|c| c.a.is_none()).map(|c| c.normal_impulse).sum();
    assert_relative(floor, weight, 0.01, "normal impulse = m·g·dt");
}

/// R-RES-3: e = max(e_A, e_B): a rubber ball bounces off a wooden box; walls have e = 0 so
/// the body's material alone counts.
#[test]
fn restitution_mixes_by_maximum_r_res_3() {
    let mut w = world_with(Vec2::new(400.0, 600.0), no_gravity());
    let dead = Material { density: 1.0, friction: 0.5, restitution: 0.0 };
    let block = add(
        &mut w,
        BodyDesc::rect(Vec2::splat(60.0), Vec2::new(200.0, 400.0)).with_material(dead).fixed(),
    );
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(200.0, 200.0))
            .with_material(Material::RUBBER)
            .with_velocity(Vec2::new(0.0, 300.0)),
    );
    run(&mut w, 120);
    assert!(w.contains(block));
    assert_close(vel(&w, ball).y, -0.8 * 300.0, 0.5, "rubber on a dead block bounces with e = 0.8");
}

/// R-RES-4: below restitution_threshold (50 px/s) nothing bounces.
#[test]
fn slow_impacts_do_not_bounce_r_res_4() {
    let mut w = world_with(Vec2::new(400.0, 600.0), no_gravity());
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(200.0, 500.0))
            .with_material(Material::RUBBER)
            .with_velocity(Vec2::new(0.0, 40.0)),
    );
    run(&mut w, 360); // 80 px to the floor at 40 px/s: 2 s
    assert!(vel(&w, ball).y.abs() < 1e-3, "a 40 px/s impact must not bounce: {}", vel(&w, ball));
    let fast = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(100.0, 500.0))
            .with_material(Material::RUBBER)
            .with_velocity(Vec2::new(0.0, 60.0)),
    );
    run(&mut w, 240); // 80 px at 60 px/s: 1.3 s
    assert_close(vel(&w, fast).y, -48.0, 0.1, "60 px/s bounces at e = 0.8");
}

/// R-RES-6 / R-DRAG-2: a held body pressed against an obstacle does not bounce off it, feels
/// no gravity and never sleeps.
#[test]
fn a_held_body_neither_bounces_nor_falls_nor_sleeps_r_res_6_r_drag_2() {
    let mut w = world();
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)).with_material(Material::RUBBER),
    );
    w.grab(ball).unwrap();
    // Held still in the air for 2 s: no gravity, no sleep.
    run(&mut w, 240);
    assert_close(pos(&w, ball).y, 300.0, 0.01, "carried by the hand");
    assert!(!w.body(ball).unwrap().is_sleeping());
    // Pressed into the floor: it rests against it, no bounce.
    w.set_drag_target(ball, Vec2::new(400.0, 700.0)).unwrap();
    let mut max_up = 0.0_f32;
    for _ in 0..240 {
        w.step(DT).unwrap();
        max_up = max_up.max(-vel(&w, ball).y);
    }
    assert!(max_up < 1.0, "held body bounced up at {max_up} px/s");
    assert!(pos(&w, ball).y <= 580.0 + 0.5, "target clamped inside the world");
    assert!(!w.body(ball).unwrap().is_sleeping());
}

/// A tower of `n` boxes resting asleep on the floor.
fn sleeping_tower(n: usize) -> (World, Vec<BodyHandle>) {
    let scene = bevy_sandbox_physics::physics::scenes::tower(n, 40.0);
    let mut w = scene.build(PhysicsConfig::default()).unwrap();
    let handles: Vec<_> = w.handles().collect();
    assert!(run_until_asleep(&mut w, 600).is_some(), "tower falls asleep");
    (w, handles)
}

fn all_awake(w: &World, handles: &[BodyHandle]) -> bool {
    handles.iter().all(|&h| w.body(h).is_some_and(|b| !b.is_sleeping()))
}

/// R-SLP-4: a touch by an awake body wakes the whole island.
#[test]
fn a_touch_wakes_the_whole_island_r_slp_4() {
    let (mut w, handles) = sleeping_tower(5);
    let top = pos(&w, handles[4]);
    // 25 px above the top box: it lands after about 0.23 s.
    add(&mut w, BodyDesc::circle(15.0, top - Vec2::new(0.0, 60.0)));
    run(&mut w, 10);
    assert!(!all_awake(&w, &handles), "still asleep before the touch");
    run(&mut w, 40);
    assert!(all_awake(&w, &handles), "the ball landing on the top box woke the whole tower");
}

/// R-SLP-4: grabbing any body wakes its island.
#[test]
fn grabbing_wakes_the_whole_island_r_slp_4() {
    let (mut w, handles) = sleeping_tower(5);
    w.grab(handles[2]).unwrap();
    assert!(all_awake(&w, &handles));
}

/// R-SLP-4: toggling gravity wakes everything.
#[test]
fn toggling_gravity_wakes_everything_r_slp_4() {
    let (mut w, handles) = sleeping_tower(5);
    w.set_gravity_enabled(false);
    assert!(all_awake(&w, &handles));
    let (mut w, handles) = sleeping_tower(3);
    let mut config = w.config().clone();
    config.gravity = Vec2::new(300.0, 980.0);
    w.set_config(config).unwrap();
    assert!(all_awake(&w, &handles), "a config change wakes everything too");
}

/// R-SLP-4: deleting the bottom box of a sleeping stack wakes the island and the boxes
/// above fall.
#[test]
fn deleting_the_bottom_box_makes_the_boxes_above_fall_r_slp_4() {
    let (mut w, handles) = sleeping_tower(5);
    let before: Vec<f32> = handles[1..].iter().map(|&h| pos(&w, h).y).collect();
    w.remove_body(handles[0]).unwrap();
    assert!(all_awake(&w, &handles[1..]));
    run(&mut w, 120);
    let slop = w.config().penetration_slop;
    for (k, (h, y0)) in handles[1..].iter().zip(before).enumerate() {
        // Each falls by the removed box's height (40 px) onto the one below, to within the
        // slop of each of the k + 1 contacts under it (0.5 px each, §10: the projection
        // leaves that much overlap, and a landing stack settles anywhere within it).
        let tolerance = (k + 1) as f32 * slop;
        assert_close(pos(&w, *h).y - y0, 40.0, tolerance, "fell one box height");
    }
}

/// R-SLP-3: sleepers are neither integrated nor solved: positions stay bit-identical.
#[test]
fn sleeping_bodies_do_not_move_at_all_r_slp_3() {
    let (mut w, handles) = sleeping_tower(4);
    let before: Vec<Vec2> = handles.iter().map(|&h| pos(&w, h)).collect();
    run(&mut w, 240);
    let after: Vec<Vec2> = handles.iter().map(|&h| pos(&w, h)).collect();
    assert_eq!(before, after);
    assert!(handles.iter().all(|&h| vel(&w, h) == Vec2::ZERO));
    let island = w.body(handles[0]).unwrap().sleep_island();
    assert!(
        island.is_some() && handles.iter().all(|&h| w.body(h).unwrap().sleep_island() == island),
        "one island"
    );
}

/// R-COL-2, R-SLP-3: a world in which every body sleeps sweeps no pairs (the step skips its
/// broad phase), and a body thrown into it still finds the sleepers and wakes them (R-SLP-4).
#[test]
fn a_sleeping_world_sweeps_nothing_until_a_body_wakes_r_col_2() {
    let (mut w, handles) = sleeping_tower(4);
    run(&mut w, 10);
    assert_eq!((w.stats().awake, w.stats().pairs), (0, 0), "asleep: no pairs");
    let top = pos(&w, handles[3]);
    let ball = add(&mut w, BodyDesc::circle(15.0, top - Vec2::new(0.0, 60.0)));
    run(&mut w, 30);
    assert!(w.stats().pairs > 0, "the falling ball is swept against the stack");
    assert!(all_awake(&w, &handles), "its landing woke the stack");
    assert!(pos(&w, ball).y < top.y, "it rests on the stack");
}

/// R-SLP-2: walls join no islands: two boxes apart on the floor are two islands.
#[test]
fn walls_do_not_join_islands_r_slp_2() {
    let mut w = world();
    add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(200.0, 580.0)));
    add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(600.0, 580.0)));
    run(&mut w, 10);
    assert_eq!(w.islands().len(), 2);
    assert_eq!(w.stats().awake_islands, 2);
}

/// R-LAB-3: `island_size` (the inspector's figure) agrees with `islands()` for every body,
/// awake and asleep, while a mixed pile settles; static bodies are in no island.
#[test]
fn island_size_counts_the_members_islands_lists_r_lab_3() {
    let scene = bevy_sandbox_physics::physics::scenes::mixed(60, 1);
    let mut w = scene.build(PhysicsConfig::default()).unwrap();
    let shelf = add(&mut w, BodyDesc::rect(Vec2::new(80.0, 24.0), Vec2::new(40.0, 300.0)).fixed());
    let (mut checked_awake, mut checked_asleep) = (0, 0);
    for step in 0..1200 {
        w.step(DT).unwrap();
        if step % 60 != 0 {
            continue;
        }
        let islands = w.islands();
        for island in &islands {
            for &handle in &island.bodies {
                assert_eq!(w.island_size(handle), Some(island.bodies.len()), "step {step}");
                if island.sleeping { checked_asleep += 1 } else { checked_awake += 1 }
            }
        }
        assert_eq!(w.island_size(shelf), None, "a static body is in no island");
    }
    assert!(
        checked_awake > 0 && checked_asleep > 0,
        "{checked_awake} awake, {checked_asleep} asleep"
    );
}

/// R-POS-3: ordinary impacts at max speed never trigger the emergency brake, and a held body
/// squeezing another into a wall leaves no body deeper than max_wall_penetration.
#[test]
fn the_emergency_brake_only_acts_in_extreme_cases_r_pos_3() {
    let mut w = world();
    let max = w.config().max_speed;
    for (i, dir) in [Vec2::X, -Vec2::X, Vec2::Y, -Vec2::Y].into_iter().enumerate() {
        add(
            &mut w,
            BodyDesc::circle(12.0, Vec2::new(300.0 + 60.0 * i as f32, 300.0))
                .with_velocity(dir * max),
        );
        add(
            &mut w,
            BodyDesc::rect(Vec2::splat(24.0), Vec2::new(320.0 + 60.0 * i as f32, 200.0))
                .with_velocity(dir * max),
        );
    }
    for _ in 0..240 {
        w.step(DT).unwrap();
        assert_eq!(w.stats().braked, 0, "an impact at max speed reached the brake");
    }
    // A heavy held box drives a light ball into the right wall.
    let mut w = world();
    let ball =
        add(&mut w, BodyDesc::circle(20.0, Vec2::new(700.0, 580.0)).with_material(Material::WOOD));
    let steel = Material { density: 1000.0, ..Material::STEEL };
    let ram = add(
        &mut w,
        BodyDesc::rect(Vec2::splat(80.0), Vec2::new(560.0, 560.0)).with_material(steel),
    );
    w.grab(ram).unwrap();
    w.set_drag_target(ram, Vec2::new(800.0, 560.0)).unwrap();
    for _ in 0..240 {
        w.step(DT).unwrap();
        for (_, b) in w.bodies() {
            for wall in w.walls() {
                let depth = wall.penetration(&b.shape(), b.position());
                assert!(
                    depth <= w.config().max_wall_penetration + 1e-3,
                    "{depth} px inside a wall"
                );
            }
        }
    }
    assert!(w.contains(ball), "squeezed, never lost");
}

/// R-DRAG-1: a held body pushes a light body away and is stopped by a wall.
#[test]
fn a_held_body_pushes_light_bodies_and_is_stopped_by_walls_r_drag_1() {
    let mut w = world();
    let light =
        add(&mut w, BodyDesc::circle(15.0, Vec2::new(450.0, 585.0)).with_material(Material::WOOD));
    let held = add(
        &mut w,
        BodyDesc::rect(Vec2::splat(60.0), Vec2::new(300.0, 570.0)).with_material(Material::STEEL),
    );
    run(&mut w, 30);
    w.grab(held).unwrap();
    let start = pos(&w, light).x;
    w.set_drag_target(held, Vec2::new(600.0, 560.0)).unwrap();
    run(&mut w, 120);
    assert!(pos(&w, light).x > start + 100.0, "the light ball was pushed along");
    assert!(
        (pos(&w, held) - Vec2::new(600.0, 560.0)).length() < 40.0,
        "held box reached its target"
    );
    // The target beyond the wall is clamped; the body stops at the wall, not through it.
    w.set_drag_target(held, Vec2::new(5000.0, 560.0)).unwrap();
    assert_eq!(w.body(held).unwrap().drag_target(), Some(Vec2::new(770.0, 560.0)));
    run(&mut w, 240);
    assert!(pos(&w, held).x <= 770.0 + 1.0, "stopped by the wall: {}", pos(&w, held));
    assert!(w.contains(light));
    assert!(pos(&w, light).x <= 800.0 - 15.0 + w.config().max_wall_penetration);
}

/// R-DRAG-1: a held body is stopped by a heavy static obstacle instead of passing through.
#[test]
fn a_held_body_is_stopped_by_a_heavy_obstacle_r_drag_1() {
    let mut w = world();
    let wall = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 400.0), Vec2::new(400.0, 400.0)).fixed());
    let held = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
    w.grab(held).unwrap();
    w.set_drag_target(held, Vec2::new(600.0, 300.0)).unwrap();
    run(&mut w, 240);
    assert!(w.contains(wall));
    assert!(pos(&w, held).x < 400.0 - 20.0 - 20.0 + 2.0, "stayed on its side: {}", pos(&w, held));
}

/// R-DRAG-3: releasing with a still pointer drops the body; a moving pointer throws it.
#[test]
fn release_throws_with_the_tracked_velocity_and_a_still_pointer_drops_r_drag_3() {
    for (moving, expect_throw) in [(true, true), (false, false)] {
        let mut w = world();
        let h = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
        w.grab(h).unwrap();
        let mut tracker = VelocityTracker::new(w.config().tracker_window, w.config().tracker_tau);
        let mut pointer = Vec2::new(200.0, 300.0);
        for frame in 0..60 {
            let t = frame as f64 / 60.0;
            // Moves at 400 px/s all along, or (when `moving` is false) stops after 1/3 s.
            if moving || frame < 20 {
                pointer.x = 200.0 + 400.0 * t as f32;
            }
            tracker.push(t, pointer);
            w.set_drag_target(h, pointer).unwrap();
            run(&mut w, 2);
        }
        w.release(h, tracker.velocity()).unwrap();
        let v = vel(&w, h);
        if expect_throw {
            assert_close(v.x, 400.0, 10.0, "thrown with the pointer velocity");
        } else {
            assert!(v.length() < 5.0, "still pointer: the body just drops ({v})");
        }
        run(&mut w, 1);
        assert!(vel(&w, h).y > 0.0, "gravity acts again after release");
    }
}

/// R-DRAG-4: while paused, dragging moves the body directly and gives it no velocity.
#[test]
fn paused_drag_moves_the_body_directly_r_drag_4() {
    let mut w = world();
    let h = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
    w.grab(h).unwrap();
    w.move_held_directly(h, Vec2::new(500.0, 200.0)).unwrap();
    assert_eq!(pos(&w, h), Vec2::new(500.0, 200.0));
    assert_eq!(vel(&w, h), Vec2::ZERO);
    w.move_held_directly(h, Vec2::new(-100.0, 200.0)).unwrap();
    assert_eq!(pos(&w, h), Vec2::new(20.0, 200.0), "clamped inside the world");
    w.release(h, Vec2::ZERO).unwrap();
    assert_eq!(vel(&w, h), Vec2::ZERO, "no throw");
}

/// R-STEP-1: the drag controller sets the held body's velocity before the step:
/// v = (target − x)·rate, so one step covers rate·dt = 1/2 of the way.
#[test]
fn the_drag_controller_acts_before_the_step_r_step_1_r_drag_1() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    let h = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
    w.grab(h).unwrap();
    w.set_drag_target(h, Vec2::new(210.0, 300.0)).unwrap();
    w.step(DT).unwrap();
    assert_close(vel(&w, h).x, 10.0 * 60.0, 1e-3, "v = (target − x)·rate");
    assert_close(pos(&w, h).x, 205.0, 1e-3, "x += v·dt = 5 px, half the way");
    // Far targets are approached at most at max_speed (§12).
    w.set_drag_target(h, Vec2::new(700.0, 300.0)).unwrap();
    w.step(DT).unwrap();
    assert_close(vel(&w, h).length(), w.config().max_speed, 1e-2, "clamped");
}

/// Turning a circle sets its angle without an interpolation smear; boxes never turn.
#[test]
fn set_angle_turns_circles_only_and_wakes_the_island() {
    let (mut w, handles) = sleeping_tower(2);
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(100.0, 300.0)));
    w.set_angle(ball, 1.25).unwrap();
    let body = w.body(ball).unwrap();
    assert_eq!((body.angle(), body.previous_angle()), (1.25, 1.25));
    w.set_angle(handles[1], 0.5).unwrap();
    assert_eq!(w.body(handles[1]).unwrap().angle(), 0.0, "rectangles never rotate");
    assert!(w.set_angle(ball, f32::NAN).is_err());
    assert_eq!(w.body(ball).unwrap().angle(), 1.25, "refused value leaves the angle");
}

/// How far `point` lies outside `shape` at `centre` (0 inside).
fn outside(shape: &Shape, centre: Vec2, point: Vec2) -> f32 {
    match *shape {
        Shape::Circle { radius } => ((point - centre).length() - radius).max(0.0),
        Shape::Rect { half_extents } => {
            ((point - centre).abs() - half_extents).max(Vec2::ZERO).length()
        }
    }
}

/// R-COL-1: every contact the narrow phase reports has a unit normal pointing from A to B, a
/// depth ≥ 0, and a point in the middle of the overlap: within depth/2 of both shapes (for
/// each pair of shapes this follows from §5's construction; a point at a centre or on a far
/// side would break it). The depth is the overlap along the normal: B moved by depth + 0.01 px
/// along n no longer touches A. 20,000 random pairs of circles and boxes (half sizes 6 to
/// 60 px, centres up to 120 px apart); tolerance 1e-3 px for the f32 arithmetic.
#[test]
fn every_contact_has_a_unit_normal_from_a_to_b_a_depth_and_a_point_in_the_overlap_r_col_1() {
    let mut rng = SceneRng::new(7);
    let shape = |rng: &mut SceneRng| {
        if rng.unit() < 0.5 {
            Shape::circle(rng.range(6.0, 60.0))
        } else {
            Shape::Rect { half_extents: Vec2::new(rng.range(6.0, 60.0), rng.range(6.0, 60.0)) }
        }
    };
    let mut contacts = 0;
    for pair in 0..20_000 {
        let (a, b) = (shape(&mut rng), shape(&mut rng));
        let pa = Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        let pb = pa + Vec2::new(rng.range(-120.0, 120.0), rng.range(-120.0, 120.0));
        let Some(m) = collide(&a, pa, &b, pb) else { continue };
        contacts += 1;
        let case = format!("pair {pair}: {a:?} at {pa}, {b:?} at {pb}: {m:?}");
        assert!((m.normal.length() - 1.0).abs() <= 1e-5, "normal not unit, {case}");
        assert!(m.normal.dot(pb - pa) >= 0.0, "normal points from B to A, {case}");
        assert!(m.depth >= 0.0, "negative depth, {case}");
        let half = 0.5 * m.depth + 1e-3;
        assert!(outside(&a, pa, m.point) <= half, "point not in the overlap (A), {case}");
        assert!(outside(&b, pb, m.point) <= half, "point not in the overlap (B), {case}");
        let apart = pb + m.normal * (m.depth + 0.01);
        assert!(collide(&a, pa, &b, apart).is_none(), "depth is not the overlap along n, {case}");
    }
    // The sizes and distances make about a third of the pairs touch.
    assert!(contacts > 5_000, "only {contacts} of 20,000 pairs touched");
}

/// A circle alone in a weightless world, moving at `velocity` and turning at `spin`.
fn lone_circle(velocity: Vec2, spin: f32) -> (World, BodyHandle) {
    let config = PhysicsConfig { gravity: Vec2::ZERO, ..PhysicsConfig::default() };
    let mut w = world_with(Vec2::new(800.0, 600.0), config);
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))
            .with_velocity(velocity)
            .with_angular_velocity(spin),
    );
    (w, ball)
}

/// R-SLP-1 with deviation D8 (docs/physics.md): a body counts its time at rest while its
/// mean speed since the rest began stays within 4 px/s and its mean spin within 0.1 rad/s
/// (it stays within `4 px/s · max(t, 0.5 s)` of where the rest began and turns at most
/// `0.1 rad/s · max(t, 0.5 s)`). A lone circle (no contact, no gravity, so its speed stays
/// exactly what it was given) moving steadily falls asleep after time_to_sleep = 0.5 s
/// (60 steps; 61 if the f32 sum of 60 steps of 1/120 s lands just under 0.5) at 3.9 px/s or
/// 0.09 rad/s, and never at 4.12 px/s or 0.11 rad/s: for steady motion the thresholds mean
/// what the specification says.
#[test]
fn only_time_below_both_rest_thresholds_counts_towards_sleep_r_slp_1() {
    let slow = Vec2::new(3.0, 2.495); // |v| = 3.9 px/s
    let fast = Vec2::new(3.0, 2.83); // |v| = 4.12 px/s
    for (velocity, spin, sleeps) in [
        (slow, 0.0, true),
        (Vec2::ZERO, 0.09, true),
        (Vec2::ZERO, -0.09, true),
        (fast, 0.0, false),
        (Vec2::ZERO, 0.11, false),
        (slow, -0.11, false),
    ] {
        let (mut w, ball) = lone_circle(velocity, spin);
        let steps = run_until_asleep(&mut w, 240);
        let case = format!("v = {velocity} (|v| = {}), ω = {spin}", velocity.length());
        if sleeps {
            assert!(matches!(steps, Some(60..=61)), "{case}: asleep after {steps:?} steps");
        } else {
            assert_eq!(steps, None, "{case}: fell asleep");
            let rest = w.body(ball).unwrap().rest_time();
            assert!(rest < 0.5, "{case}: counted {rest} s of rest");
        }
    }

    // A break: 40 slow steps, then one step at 300 px/s (2.5 px, beyond the 2 px a rest
    // may wander in its first 0.5 s), and the count starts again from zero.
    let (mut w, ball) = lone_circle(slow, 0.0);
    run(&mut w, 40);
    assert!((w.body(ball).unwrap().rest_time() - 40.0 * DT).abs() < 1e-5);
    w.set_velocity(ball, Vec2::new(300.0, 0.0)).unwrap();
    run(&mut w, 1);
    assert_eq!(w.body(ball).unwrap().rest_time(), 0.0, "a jump did not reset the count");
    w.set_velocity(ball, slow).unwrap();
    let steps = run_until_asleep(&mut w, 240);
    assert!(matches!(steps, Some(60..=61)), "asleep {steps:?} steps after the break");
}

/// Steps until `ball`'s rest is within two steps of `time_to_sleep` (the steps' sum rounds
/// 60 of them to just under 0.5 s), awake.
fn rest_until_almost_asleep(w: &mut World, ball: BodyHandle) {
    let time_to_sleep = w.config().time_to_sleep;
    let mut steps = 0;
    while w.body(ball).unwrap().rest_time() < time_to_sleep - 1.5 * DT {
        w.step(DT).unwrap();
        steps += 1;
        assert!(steps < 600, "the ball never came to rest");
    }
    assert!(!w.body(ball).unwrap().is_sleeping(), "asleep before the edit: nothing tested");
}

/// R-SLP-1 with deviation D8: a body set moving by the game just before its island would
/// fall asleep keeps its motion. A frictionless ball rests on the floor until its rest is
/// within two steps of complete; then it is set sliding at 100 px/s by `set_velocity`, by
/// `apply_impulse` (m · 100 px/s), or set spinning at 5 rad/s. Sliding, it moves 0.8 px a
/// step, within the 2 px a rest may wander, so the mean of D8 alone let it sleep in the
/// second step and took its velocity; an edit that speeds a body up by more than a rest
/// threshold starts its rest again. It slides on at 100 px/s (0.01 px/s; nothing brakes
/// it) for the next second, or spins on above 1 rad/s for the next quarter second, awake.
/// Likewise a ball floating at rest without gravity, gravity switched on as late: it falls
/// (before, it fell asleep in the air within 2 px).
#[test]
fn a_body_set_moving_just_before_it_would_sleep_keeps_its_velocity_r_slp_1() {
    let material = Material { density: 1.0, friction: 0.0, restitution: 0.0 };
    for edit in ["set_velocity", "apply_impulse", "set_angular_velocity"] {
        let mut w = world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default());
        let desc = BodyDesc::circle(20.0, Vec2::new(200.0, 580.0)).with_material(material);
        let ball = add(&mut w, desc);
        rest_until_almost_asleep(&mut w, ball);
        let mass = w.body(ball).unwrap().mass();
        match edit {
            "set_velocity" => w.set_velocity(ball, Vec2::new(100.0, 0.0)).unwrap(),
            "apply_impulse" => w.apply_impulse(ball, Vec2::new(100.0 * mass, 0.0)).unwrap(),
            _ => w.set_angular_velocity(ball, 5.0).unwrap(),
        }
        // The spin runs down under rolling resistance (§8): to 2 rad/s within half a second.
        let spin = edit == "set_angular_velocity";
        for step in 0..if spin { 30 } else { 120 } {
            w.step(DT).unwrap();
            let body = w.body(ball).unwrap();
            assert!(!body.is_sleeping(), "{edit}: asleep {step} steps after it");
            if spin {
                assert!(body.angular_velocity() > 1.0, "{edit}: spin {}", body.angular_velocity());
            } else {
                assert_close(body.velocity().x, 100.0, 0.01, &format!("{edit}: v {step} after"));
            }
        }
    }
    let config = PhysicsConfig { gravity: Vec2::new(0.0, 980.0), ..PhysicsConfig::default() };
    let mut w = world_with(Vec2::new(800.0, 600.0), config);
    w.set_gravity_enabled(false);
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
    rest_until_almost_asleep(&mut w, ball);
    w.set_gravity_enabled(true);
    run(&mut w, 30);
    let body = w.body(ball).unwrap();
    assert!(!body.is_sleeping() && body.position().y > 310.0, "asleep in the air: {body:?}");
}

/// R-SLP-1 with deviation D8: a body struck just before its island would fall asleep
/// moves on. A frictionless elastic ball rests alone on the floor until its rest is within
/// two steps of complete; then an equal ball sliding at 100 px/s is added 0.5 px away and
/// strikes it in the second step: the striker stops, the struck ball leaves at 100 px/s
/// (R-RES-1). Its rest completes in the step of the impact, while the striker still
/// touches it; moving 0.8 px a step, it stays within the 2 px a rest may wander, so in the
/// next step, alone in its island, D8's mean let it fall asleep, its 100 px/s taken away.
/// An island does not fall asleep while one of its bodies is faster than the bounce
/// threshold. The ball slides on at 100 px/s (0.01 px/s; nothing brakes it) for the next
/// second, awake. (Had its rest completed a step sooner, it would have slept before the
/// impact and been woken with its rest restarted: the checks of the first steps fail then.)
#[test]
fn a_body_struck_just_before_it_would_sleep_moves_on_r_slp_1() {
    let material = Material { density: 1.0, friction: 0.0, restitution: 1.0 };
    let mut w = world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default());
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 580.0)).with_material(material));
    rest_until_almost_asleep(&mut w, ball);
    let at = w.body(ball).unwrap().position() - Vec2::new(40.5, 0.0);
    let striker = BodyDesc::circle(20.0, at).with_material(material).with_velocity(Vec2::X * 100.0);
    let striker = add(&mut w, striker);
    let time_to_sleep = w.config().time_to_sleep;
    for step in 0..120 {
        w.step(DT).unwrap();
        let body = w.body(ball).unwrap();
        if step < 2 {
            // The striker closes the gap, then strikes.
            assert!(!body.is_sleeping(), "asleep before the impact: nothing tested");
            continue;
        }
        assert!(!body.is_sleeping(), "asleep {step} steps after the edit: {body:?}");
        if step == 2 {
            // Its rest is complete and the striker has left its island: only its speed
            // keeps the island awake.
            assert!(body.rest_time() >= time_to_sleep, "rest {} s", body.rest_time());
            assert_eq!(w.stats().awake_islands, 2, "the striker still in the ball's island");
        }
        assert_close(body.velocity().x, 100.0, 0.01, &format!("v {step} steps after"));
        let striker = w.body(striker).unwrap().velocity().x;
        assert_close(striker, 0.0, 0.01, &format!("striker {step} steps after"));
    }
}

/// R-SLP-1 with deviation D8, at the edge of the bounce threshold's range (0 ..= 1000 px/s):
/// with the threshold at 0 (every approach bounces) a resting tower of five boxes still
/// falls asleep, within 0.6 s as at the default 50 px/s (measured 0.51 s both). The rule
/// that no island sleeps while one of its bodies is faster than the threshold takes at
/// least ten times `sleep_linear_speed`; at 0 itself any residue of the passes held every
/// island awake for good (the tower, a pyramid of base 10 and `pour(1000)` never slept).
#[test]
fn with_the_bounce_threshold_at_zero_a_resting_tower_still_falls_asleep_r_slp_1() {
    let config = PhysicsConfig { restitution_threshold: 0.0, ..PhysicsConfig::default() };
    let mut w = scenes::tower(5, 30.0).build(config).unwrap();
    for step in 1..=72 {
        w.step(DT).unwrap();
        if w.stats().awake == 0 {
            assert!(step >= 60, "asleep after {step} steps, before time_to_sleep");
            return;
        }
    }
    panic!("the tower was still awake after 0.6 s: {:?}", w.stats());
}

/// R-SLP-1 with deviation D8: a body at rest on a support that the game takes away falls.
/// A 40 px box rests on another on the floor until one more step would complete its rest;
/// then the lower box is removed, made a sensor, given layers that meet nothing, or
/// teleported away; or it is held by the hand for 2 s and then carried away. Falling from
/// rest, the upper box moves less than the 2 px a rest may wander in its first 8 steps
/// (after 2 s of rest, 8 px), so the mean of D8 alone let it fall asleep in the air; the
/// edit starts the rest of the awake bodies at rest around the support again. After 0.75 s
/// it lies on the floor (its centre within 1 px of 20 px above it).
#[test]
fn a_body_whose_support_is_taken_away_falls_instead_of_sleeping_in_the_air_r_slp_1() {
    use bevy_sandbox_physics::physics::CollisionLayers;
    for edit in ["remove_body", "set_sensor", "set_layers", "set_position"] {
        let floor = 600.0;
        let mut w = world_with(Vec2::new(800.0, floor), PhysicsConfig::default());
        let lower = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(200.0, 580.0)));
        let upper = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(200.0, 540.0)));
        rest_until_almost_asleep(&mut w, upper);
        match edit {
            "remove_body" => drop(w.remove_body(lower).unwrap()),
            "set_sensor" => w.set_sensor(lower, true).unwrap(),
            "set_layers" => w.set_layers(lower, CollisionLayers::NONE).unwrap(),
            _ => w.set_position(lower, Vec2::new(600.0, 580.0)).unwrap(),
        }
        run(&mut w, 90);
        let y = pos(&w, upper).y;
        assert_close(y, floor - 20.0, 1.0, &format!("{edit}: the upper box's height"));
    }
    // Held by the hand for 2 s, then carried away from under it: it falls too. A hand moves
    // its island, so the upper box counts no rest while it lies on the held box (before, its
    // rest counted on for the 2 s, D8's reach grew to 8 px, and it slept in the air).
    let floor = 600.0;
    let mut w = world_with(Vec2::new(800.0, floor), PhysicsConfig::default());
    let lower = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(200.0, 580.0)));
    let upper = add(&mut w, BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(200.0, 540.0)));
    run(&mut w, 30);
    w.grab(lower).unwrap();
    run(&mut w, 240);
    let rest = w.body(upper).unwrap().rest_time();
    assert_eq!(rest, 0.0, "a body on a held one counted {rest} s of rest");
    w.move_held_directly(lower, Vec2::new(600.0, 580.0)).unwrap();
    run(&mut w, 90);
    let y = pos(&w, upper).y;
    assert_close(y, floor - 20.0, 1.0, "carried away: the upper box's height");
}

/// R-SLP-1 with deviation D8 (docs/physics.md), the reason for the mean: a body that
/// vibrates in place, as the solver's residue makes bodies in a deep pile do, rests although
/// its speed of the moment exceeds 4 px/s. A lone weightless circle whose velocity flips
/// between +8 and −8 px/s every 0.1 s swings over 0.8 px (8 px/s · 0.1 s) and falls asleep
/// after time_to_sleep = 0.5 s (60–61 steps) like a still one; under the literal rule it
/// never would. Moving steadily at 8 px/s instead, it leaves the 2 px of its rest within
/// 0.25 s and never sleeps.
#[test]
fn a_body_vibrating_in_place_rests_and_one_drifting_as_fast_does_not_r_slp_1() {
    let swing = Vec2::new(8.0, 0.0);
    for vibrating in [true, false] {
        let (mut w, ball) = lone_circle(swing, 0.0);
        let mut asleep = None;
        for step in 1..=240 {
            if vibrating && step % 12 == 0 {
                let v = w.body(ball).unwrap().velocity();
                w.set_velocity(ball, -v).unwrap();
            }
            w.step(DT).unwrap();
            if w.body(ball).unwrap().is_sleeping() {
                asleep = Some(step);
                break;
            }
        }
        if vibrating {
            assert!(matches!(asleep, Some(60..=61)), "vibrating: asleep after {asleep:?} steps");
        } else {
            assert_eq!(asleep, None, "drifting at 8 px/s: fell asleep");
        }
    }
}
