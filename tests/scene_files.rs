//! Scene files (issue 18, R-SCN-1): a world saved as RON and loaded again steps bit for bit
//! as the original, and the description alone loads as a fresh start.

#![cfg(feature = "serde")]

mod common;

use bevy_sandbox_physics::physics::scenes::{self, SceneRng};
use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, CollisionLayers, Material, PhysicsConfig, SceneFile, Shape, WallId, World,
};
use glam::Vec2;

use common::{DT, wedged_column};

/// Saves `world` as RON, reads the text back and builds the world it describes.
fn through_a_file(world: &World) -> World {
    let text = SceneFile::capture(world).to_ron();
    let scene = SceneFile::from_ron(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    scene.to_world().unwrap_or_else(|e| panic!("{e}"))
}

/// Steps `original` and `loaded` side by side for `steps` steps, asserting equal state
/// hashes before and after each step (the hash covers every body's handle, pose, velocity
/// and sleep, bit for bit), and equal collision events.
#[track_caller]
fn assert_steps_alike(what: &str, original: &mut World, loaded: &mut World, steps: usize) {
    assert_eq!(loaded.state_hash(), original.state_hash(), "{what}: hash on loading");
    assert_eq!(loaded.step_count(), original.step_count(), "{what}: step count");
    for step in 0..steps {
        original.step(DT).expect("a valid step");
        loaded.step(DT).expect("a valid step");
        let n = original.step_count();
        assert_eq!(
            loaded.state_hash(),
            original.state_hash(),
            "{what}: step {n} ({step} after load)"
        );
        assert_eq!(loaded.collision_events(), original.collision_events(), "{what}: events {n}");
    }
}

#[test]
fn shared_scenes_saved_and_loaded_step_bit_for_bit_r_scn_1() {
    let config = PhysicsConfig::default();
    let scenes = [
        scenes::pyramid(12, 30.0),
        scenes::tower(12, 30.0),
        scenes::mixed(300, 1),
        scenes::rain(300, 2),
        scenes::pour(300, 3),
        scenes::at_one_point(80, Vec2::new(800.0, 600.0)),
        scenes::material_balls(Vec2::new(800.0, 600.0)),
    ];
    for scene in scenes {
        let mut original = scene.build(config.clone()).expect("the scene builds");
        // Saved after 90 steps: contacts warm-started, bodies in motion, some resting.
        for _ in 0..90 {
            original.step(DT).expect("a valid step");
        }
        let mut loaded = through_a_file(&original);
        assert_steps_alike(&scene.name, &mut original, &mut loaded, 300);
    }
}

/// A world with every kind of state: static, kinematic and sensor bodies, layers, forces,
/// gravity scales, bodies removed (free handle ids), sleeping islands, a body held and
/// dragged while saved and let go after loading, and a switched-off wall.
fn busy_world(seed: u64) -> (World, BodyHandle) {
    let mut rng = SceneRng::new(seed);
    let config = PhysicsConfig::default();
    let mut world = World::new(Vec2::new(1000.0, 700.0), config).expect("a valid world");
    let mut handles = Vec::new();
    for i in 0..160 {
        let position = Vec2::new(rng.range(40.0, 960.0), rng.range(40.0, 600.0));
        let mut desc = if rng.unit() < 0.5 {
            BodyDesc::circle(rng.range(12.0, 22.0), position)
        } else {
            BodyDesc::rect(Vec2::new(rng.range(24.0, 44.0), rng.range(24.0, 44.0)), position)
        };
        desc.material =
            rng.pick(&[Material::RUBBER, Material::WOOD, Material::STEEL, Material::ICE]);
        desc.velocity = Vec2::new(rng.range(-200.0, 200.0), rng.range(-200.0, 200.0));
        match i % 16 {
            0 => desc = desc.fixed(),
            1 => desc = desc.with_gravity_scale(0.5),
            2 => desc = desc.with_layers(CollisionLayers::new(0b01, !0b01)),
            3 => desc = desc.with_collision_events(),
            _ => {}
        }
        if let Ok(h) = world.add_body(desc) {
            handles.push(h);
        }
    }
    let sensor = BodyDesc::rect(Vec2::new(300.0, 30.0), Vec2::new(500.0, 400.0)).fixed().sensor();
    world.add_body(sensor).expect("inside");
    let platform = BodyDesc::rect(Vec2::new(120.0, 24.0), Vec2::new(200.0, 300.0))
        .kinematic()
        .with_velocity(Vec2::new(40.0, 0.0));
    world.add_body(platform).expect("inside");
    world.set_force(handles[5], Vec2::new(3.0e4, 0.0)).expect("dynamic");
    world.set_torque(handles[6], 1.0e5).expect("dynamic");
    for _ in 0..400 {
        world.step(DT).expect("a valid step");
    }
    for &h in handles.iter().step_by(11) {
        world.remove_body(h).expect("live");
    }
    world.set_wall_enabled(WallId::Top, false);
    for _ in 0..400 {
        world.step(DT).expect("a valid step");
    }
    let held = handles.iter().copied().find(|&h| world.body(h).is_some_and(|b| b.is_dynamic()));
    let held = held.expect("a dynamic body");
    world.grab(held).expect("dynamic");
    for k in 0..30 {
        world.set_drag_target(held, Vec2::new(300.0 + 5.0 * k as f32, 200.0)).expect("held");
        world.step(DT).expect("a valid step");
    }
    (world, held)
}

#[test]
fn a_loaded_world_counts_its_awake_and_sleeping_bodies_before_its_first_step_r_scn_1() {
    // A world loaded while paused is shown before it steps: its stats must count its bodies
    // as the original's last step did, not report the zeros of no step.
    let (original, _) = busy_world(11);
    let loaded = through_a_file(&original);
    let (a, b) = (original.stats(), loaded.stats());
    assert!(a.awake > 0 && a.sleeping > 0, "awake and sleeping bodies both: {a:?}");
    assert_eq!((b.bodies, b.awake, b.sleeping), (a.bodies, a.awake, a.sleeping));
    assert_eq!(b.sleeping_islands, a.sleeping_islands);
}

#[test]
fn a_busy_world_with_sleepers_and_a_held_body_resumes_bit_for_bit_r_scn_1() {
    let (mut original, held) = busy_world(11);
    assert!(original.stats().sleeping_islands > 0, "some islands sleep: {:?}", original.stats());
    let mut loaded = through_a_file(&original);
    assert!(loaded.body(held).is_some_and(|b| b.is_held()));
    assert_steps_alike("held", &mut original, &mut loaded, 20);
    // Drag on and let go in both, then a body added to the free ids, both ways.
    for world in [&mut original, &mut loaded] {
        world.set_drag_target(held, Vec2::new(600.0, 150.0)).expect("held");
    }
    assert_steps_alike("dragged", &mut original, &mut loaded, 20);
    for world in [&mut original, &mut loaded] {
        world.release(held, Vec2::new(800.0, -300.0)).expect("held");
    }
    assert_steps_alike("thrown", &mut original, &mut loaded, 60);
    let a = original.add_body(BodyDesc::circle(15.0, Vec2::new(500.0, 50.0))).expect("inside");
    let b = loaded.add_body(BodyDesc::circle(15.0, Vec2::new(500.0, 50.0))).expect("inside");
    assert_eq!(a, b, "the next free handle is the same");
    assert_steps_alike("added", &mut original, &mut loaded, 200);
}

/// R-SCN-1 with R-LAB-1: a world holds speeds above `max_speed` with the rule switch
/// `speed_limit` off, and after `max_speed` is lowered until its next step clamps them. Its
/// file keeps them, and the loaded world steps bit for bit. Not vacuous: loading clamped
/// them to `max_speed` (a ball thrown at 5000 px/s spinning at 500 rad/s came back at
/// 1296 px/s and 108 rad/s), and the hashes differed on loading. A file without solver
/// state still clamps as `add_body` does in that config.
#[test]
fn speeds_a_world_holds_above_max_speed_load_unclamped_and_resume_bit_for_bit_r_scn_1() {
    let ball = BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))
        .with_velocity(Vec2::new(5000.0, -300.0))
        .with_angular_velocity(500.0);
    let platform = BodyDesc::rect(Vec2::new(120.0, 24.0), Vec2::new(300.0, 500.0))
        .kinematic()
        .with_velocity(Vec2::new(-2000.0, 0.0));
    let unlimited = PhysicsConfig { speed_limit: false, ..PhysicsConfig::default() };
    let mut off = World::new(Vec2::new(800.0, 600.0), unlimited.clone()).expect("valid");
    let mut lowered = World::new(Vec2::new(800.0, 600.0), unlimited).expect("valid");
    for world in [&mut off, &mut lowered] {
        world.add_body(ball).expect("inside");
        world.add_body(platform).expect("inside");
    }
    let slow = PhysicsConfig { max_speed: 500.0, ..PhysicsConfig::default() };
    lowered.set_config(slow).expect("valid");
    for (what, mut original) in [("speed limit off", off), ("max_speed lowered", lowered)] {
        let held = original.bodies().next().map(|(_, b)| (b.velocity(), b.angular_velocity()));
        assert_eq!(held, Some((Vec2::new(5000.0, -300.0), 500.0)), "{what}: the world holds");
        // A fresh start (no solver state) is clamped as `add_body` clamps in that config.
        let mut fresh = SceneFile::capture(&original);
        fresh.solver_state = None;
        let fresh = fresh.to_world().unwrap_or_else(|e| panic!("{e}"));
        let mut by_hand =
            World::new(Vec2::new(800.0, 600.0), original.config().clone()).expect("valid");
        for (_, body) in original.bodies() {
            by_hand.add_body(body.desc()).expect("inside");
        }
        let motion = |w: &World| -> Vec<(Vec2, f32)> {
            w.bodies().map(|(_, b)| (b.velocity(), b.angular_velocity())).collect()
        };
        assert_eq!(motion(&fresh), motion(&by_hand), "{what}: fresh start");
        let mut loaded = through_a_file(&original);
        assert_steps_alike(what, &mut original, &mut loaded, 120);
    }
}

/// R-SCN-1: `capture` writes the bodies a world holds outside its bounds, and the file loads
/// and resumes bit for bit: a kinematic platform that moved out, a static body `set_bounds`
/// left outside (walls and brake act on dynamic bodies only, so it stays there) beside a
/// dynamic one captured before the walls push it back in, and a ball flown through an open
/// wall past `MAX_COORDINATE`. Not vacuous: each file was refused, naming the position and
/// "inside the world". `SceneFile::check_inside` still refuses, for callers that want it,
/// what `add_body` would not place: the dynamic bodies outside, not the kinematic platform
/// out there alone (`World::can_place`).
#[test]
fn a_world_with_bodies_outside_its_bounds_saves_a_file_that_loads_and_resumes_bit_for_bit_r_scn_1()
{
    let size = Vec2::new(800.0, 600.0);
    let mut drifted = World::new(size, PhysicsConfig::default()).expect("valid");
    let platform = BodyDesc::rect(Vec2::new(100.0, 24.0), Vec2::new(700.0, 300.0)).kinematic();
    drifted.add_body(platform.with_velocity(Vec2::new(300.0, 0.0))).expect("inside");
    drifted.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 500.0))).expect("inside");
    for _ in 0..120 {
        drifted.step(DT).expect("a valid step");
    }
    let mut shrunk = World::new(size, PhysicsConfig::default()).expect("valid");
    let ball = BodyDesc::circle(20.0, Vec2::new(700.0, 450.0));
    for desc in [platform.fixed(), ball, BodyDesc::circle(20.0, Vec2::new(200.0, 450.0))] {
        shrunk.add_body(desc).expect("inside");
    }
    shrunk.set_bounds(Vec2::ZERO, Vec2::new(400.0, 600.0)).expect("valid bounds");
    let unlimited = PhysicsConfig { speed_limit: false, ..PhysicsConfig::default() };
    let mut flown = World::new(size, unlimited).expect("valid");
    flown.set_wall_enabled(WallId::Right, false);
    let at = Vec2::new(1.0e9 - 100.0, 300.0);
    flown.add_body(BodyDesc::circle(20.0, at).with_velocity(Vec2::new(1.0e6, 0.0))).expect("in");
    flown.step(1.0 / 30.0).expect("a valid step");
    let worlds = [("drifted", drifted, false), ("shrunk", shrunk, true), ("flown", flown, true)];
    for (what, mut original, refused) in worlds {
        let outside = original.bodies().find(|(_, b)| !original.contains_point(b.position()));
        assert!(outside.is_some(), "{what}: a body outside the world");
        let file = SceneFile::capture(&original);
        match file.check_inside() {
            Err(error) if refused => {
                let error = error.to_string();
                assert!(error.contains("position") && error.contains("inside the world"), "{what}");
            }
            Ok(()) if !refused => {}
            other => panic!("{what}: check_inside answered {other:?}"),
        }
        let mut loaded = through_a_file(&original);
        assert_steps_alike(what, &mut original, &mut loaded, 120);
    }
    // What `set_bounds` says: the dynamic ball came back in, the static body stayed out.
    let mut shrunk = World::new(size, PhysicsConfig::default()).expect("valid");
    let fixed = shrunk.add_body(platform.fixed()).expect("inside");
    let ball = shrunk.add_body(ball).expect("inside");
    shrunk.set_bounds(Vec2::ZERO, Vec2::new(400.0, 600.0)).expect("valid bounds");
    for _ in 0..240 {
        shrunk.step(DT).expect("a valid step");
    }
    let position = |h| shrunk.body(h).map(|b| b.position()).expect("a body");
    assert_eq!(position(fixed), Vec2::new(700.0, 300.0), "the static body stays");
    assert!(position(ball).x <= 400.0 - 20.0 + 1.0, "the ball is back in: {}", position(ball));
}

/// R-SCN-1 with R-DRAG-1: loading clamps each drag target so its body fits in the world, as
/// `set_drag_target` does; a world whose targets are all so held resumes bit for bit. Not
/// vacuous: a target left outside by `set_bounds` or a wall switched back on, and `grab`'s
/// target at a position outside the world or half a pixel into the floor, were clamped only
/// on loading, and the loaded world diverged at its first step.
#[test]
fn held_bodies_resume_bit_for_bit_after_the_world_shrank_or_a_grab_at_the_floor_r_scn_1() {
    let size = Vec2::new(800.0, 600.0);
    let mut shrunk = World::new(size, PhysicsConfig::default()).expect("valid");
    let held = shrunk.add_body(BodyDesc::circle(20.0, Vec2::new(700.0, 300.0))).expect("in");
    let late = shrunk.add_body(BodyDesc::circle(20.0, Vec2::new(600.0, 200.0))).expect("in");
    shrunk.grab(held).expect("dynamic");
    shrunk.set_drag_target(held, Vec2::new(770.0, 300.0)).expect("held");
    shrunk.set_bounds(Vec2::ZERO, Vec2::new(400.0, 600.0)).expect("valid bounds");
    shrunk.grab(late).expect("dynamic");
    let mut walled = World::new(size, PhysicsConfig::default()).expect("valid");
    let held = walled.add_body(BodyDesc::circle(20.0, Vec2::new(700.0, 300.0))).expect("in");
    walled.set_wall_enabled(WallId::Right, false);
    walled.grab(held).expect("dynamic");
    walled.set_drag_target(held, Vec2::new(1800.0, 300.0)).expect("held");
    walled.set_wall_enabled(WallId::Right, true);
    let mut floor = World::new(size, PhysicsConfig::default()).expect("valid");
    let heavy = Material { density: 10.0, ..Material::WOOD };
    let mut bottom = None;
    for i in 0..14 {
        let at = Vec2::new(760.0 + (i % 2) as f32 * 10.0, 580.0 - 40.0 * i as f32);
        let ball = floor.add_body(BodyDesc::circle(20.0, at).with_material(heavy)).expect("in");
        bottom = bottom.or(Some(ball));
    }
    for _ in 0..200 {
        floor.step(DT).expect("a valid step");
    }
    floor.grab(bottom.expect("a ball")).expect("dynamic");
    for (what, mut original) in [("shrunk", shrunk), ("walled", walled), ("floor", floor)] {
        let mut loaded = through_a_file(&original);
        assert_steps_alike(what, &mut original, &mut loaded, 120);
    }
}

/// Bodies set into others (D16 of docs/physics.md) keep that in the file: their contacts
/// leave along the line of centres and get more projection passes until they are free.
#[test]
fn a_heap_saved_while_bodies_are_set_into_each_other_resumes_bit_for_bit_r_scn_1() {
    let scene = scenes::at_one_point(300, Vec2::new(1200.0, 900.0));
    let mut original = scene.build(PhysicsConfig::default()).expect("the scene builds");
    for _ in 0..4 {
        original.step(DT).expect("a valid step");
    }
    let saved = SceneFile::capture(&original);
    let set_into_others = saved.bodies.iter().filter(|b| b.embedded).count();
    assert!(set_into_others > 0, "no body set into others after 4 steps");
    let mut loaded = through_a_file(&original);
    assert_steps_alike("at one point", &mut original, &mut loaded, 120);
}

/// A column wedged from the floor to the ceiling (D17 of docs/physics.md) counts its failed
/// settlings; a file saved after two of the three it takes keeps the count, so the loaded
/// world falls asleep in the same step as the original.
#[test]
fn a_wedged_column_saved_between_two_failed_settlings_resumes_bit_for_bit_r_scn_1() {
    let (mut original, boxes) = wedged_column();
    for _ in 0..130 {
        original.step(DT).expect("a valid step");
    }
    let saved = SceneFile::capture(&original);
    let counted = saved.bodies.iter().map(|b| b.settle_failures).max();
    assert_eq!(counted, Some(2), "two failed settlings counted after 130 steps");
    let mut loaded = through_a_file(&original);
    assert_steps_alike("wedged", &mut original, &mut loaded, 70);
    let asleep = boxes.iter().all(|&h| original.body(h).is_some_and(|b| b.is_sleeping()));
    assert!(asleep, "not vacuous: the column fell asleep within the steps compared");
}

/// Large worlds sort their slots by last step's contacts every 64 steps; a file saved just
/// before such a step keeps the slots as that step leaves them.
#[test]
fn a_large_world_saved_before_its_slots_are_sorted_resumes_bit_for_bit_r_scn_1() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let rows = scenes::large(4096, 5);
    let mut original = scenes::shuffled(&rows, 3).build(config).expect("the scene builds");
    for _ in 0..64 {
        original.step(DT).expect("a valid step");
    }
    let mut loaded = through_a_file(&original);
    original.step(DT).expect("a valid step");
    assert!(original.stats().slots_sorted, "the original sorted its slots at step 64");
    loaded.step(DT).expect("a valid step");
    assert_eq!(loaded.state_hash(), original.state_hash());
    assert_steps_alike("large", &mut original, &mut loaded, 70);
}

#[test]
fn floats_read_back_to_the_same_bits_r_scn_1() {
    let mut rng = SceneRng::new(99);
    let mut scene = SceneFile::new(Vec2::ZERO, Vec2::new(1.0e6, 1.0e6), PhysicsConfig::default());
    for _ in 0..2000 {
        // Random bit patterns of finite floats in range, including subnormals and −0.
        let bits = |rng: &mut SceneRng| f32::from_bits(rng.next_u64() as u32);
        let finite = |rng: &mut SceneRng, max: f32| loop {
            let x = bits(rng);
            if x.is_finite() && x.abs() <= max {
                return x;
            }
        };
        let position = Vec2::new(finite(&mut rng, 1.0e6).abs(), finite(&mut rng, 1.0e6).abs());
        let mut body = bevy_sandbox_physics::physics::SceneBody::new(BodyDesc::circle(
            12.0 + finite(&mut rng, 100.0).abs(),
            position,
        ));
        body.angle = finite(&mut rng, 1.0e30);
        body.velocity = Vec2::new(finite(&mut rng, 1.0), -0.0);
        scene.bodies.push(body);
    }
    let back = SceneFile::from_ron(&scene.to_ron()).expect("reads");
    for (a, b) in scene.bodies.iter().zip(&back.bodies) {
        assert_eq!(a.angle.to_bits(), b.angle.to_bits());
        assert_eq!(a.position.x.to_bits(), b.position.x.to_bits());
        assert_eq!(a.velocity.y.to_bits(), b.velocity.y.to_bits(), "−0 stays −0");
        assert_eq!(a.shape, b.shape);
    }
}

#[test]
fn a_hand_written_file_loads_as_a_fresh_start_r_scn_1() {
    let text = r#"(
        version: 1,
        bounds: (min: (0.0, 0.0), max: (800.0, 600.0)),
        config: (gravity: (0.0, 500.0)),
        bodies: [
            (shape: Circle(radius: 20.0), position: (400.0, 100.0)),
            (shape: Rect(half_extents: (200.0, 12.0)), kind: Static, position: (400.0, 500.0)),
            (shape: Circle(radius: 15.0), position: (380.0, 460.0), sleep_island: Some(0), rest_time: 1.0),
        ],
    )"#;
    let scene = SceneFile::from_ron(text).unwrap_or_else(|e| panic!("{e}"));
    let world = scene.to_world().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.body_count(), 3);
    assert_eq!(world.config().gravity, Vec2::new(0.0, 500.0));
    assert_eq!(world.config().time_step, PhysicsConfig::default().time_step);
    assert_eq!(world.step_count(), 0);
    let handles: Vec<BodyHandle> = world.handles().collect();
    assert_eq!(handles.iter().map(|h| h.index()).collect::<Vec<_>>(), [0, 1, 2]);
    let ball = world.body(handles[0]).expect("a body");
    assert_eq!(ball.shape(), Shape::circle(20.0));
    assert_eq!(ball.material(), Material::WOOD);
    assert!(world.body(handles[2]).is_some_and(|b| b.is_sleeping()));
    assert!(world.body(handles[1]).is_some_and(|b| !b.is_dynamic()));
    // The same bodies added by hand step alike (no solver state: nothing remembered).
    let mut by_hand = World::new(Vec2::new(800.0, 600.0), scene.config.clone()).expect("valid");
    for body in &scene.bodies {
        by_hand.add_body(body.desc()).expect("inside");
    }
    let mut loaded = world;
    let (a, b) = (loaded.step(DT), by_hand.step(DT));
    assert!(a.is_ok() && b.is_ok());
    assert_eq!(
        loaded.body(handles[0]).map(|b| b.position()),
        by_hand.body(handles[0]).map(|b| b.position())
    );
}

/// Files written before the solver state's handles and slots became strings of hex words
/// hold them as RON lists; such a file still reads to the same scene.
#[test]
fn a_solver_state_with_handles_and_slots_as_lists_still_reads_r_scn_1() {
    let (world, _) = busy_world(5);
    let scene = SceneFile::capture(&world);
    let state = scene.solver_state.as_ref().expect("captured with its state");
    let reused = state.handles.iter().chain(&state.free).any(|h| h.generation() > 0);
    assert!(reused && !state.free.is_empty(), "no freed handle: a weak test");
    let text = scene.to_ron();
    let handle_list = |handles: &[BodyHandle]| {
        let items: Vec<String> = handles
            .iter()
            .map(|h| format!("(index: {}, generation: {})", h.index(), h.generation()))
            .collect();
        format!("[{}]", items.join(", "))
    };
    let ids: Vec<String> = state.slots.iter().map(u32::to_string).collect();
    let mut lists = String::new();
    for line in text.lines() {
        let field = line.trim_start();
        let listed = if field.starts_with("handles: ") {
            format!("        handles: {},", handle_list(&state.handles))
        } else if field.starts_with("free: ") {
            format!("        free: {},", handle_list(&state.free))
        } else if field.starts_with("slots: ") {
            format!("        slots: [{}],", ids.join(", "))
        } else {
            line.to_string()
        };
        lists.push_str(&listed);
        lists.push('\n');
    }
    assert_ne!(lists, text, "nothing was rewritten");
    let read = SceneFile::from_ron(&lists).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read, scene, "the list form reads to another scene");
}
