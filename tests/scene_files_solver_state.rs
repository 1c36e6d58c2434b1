//! A scene file's solver state from a fuzzer (R-SCN-1, R-CFG-3): sensor overlaps, warm-start
//! impulses, pending events and the step count are checked like the rest of the file, so a
//! bad one is refused naming the field and its range, and never panics or puts NaN in a step.

#![cfg(feature = "serde")]

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyOrWall, CollisionEvent, Material, PhysicsConfig, SceneFile, World,
};
use glam::Vec2;

/// Two 60×30 boxes stacked on the floor of a 800×600 world, stepped `steps` times.
fn stacked(size: Vec2, density: f32, steps: usize) -> World {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("valid");
    let material = Material { density, ..Material::WOOD };
    let floor = 600.0 - size.y / 2.0;
    for y in [floor, floor - size.y] {
        let desc = BodyDesc::rect(size, Vec2::new(400.0, y)).with_material(material);
        world.add_body(desc.with_collision_events()).expect("inside");
    }
    for _ in 0..steps {
        world.step(1.0 / 120.0).expect("a valid step");
    }
    world
}

/// The message of the error `scene.to_world()` gives, panicking if it loads.
#[track_caller]
fn refusal(scene: &SceneFile) -> String {
    match scene.to_world() {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted: {:?}", scene.solver_state),
    }
}

/// Whether every body of `world` has finite position, angle and velocities.
fn all_finite(world: &World) -> bool {
    world.bodies().all(|(_, b)| {
        b.position().is_finite()
            && b.velocity().is_finite()
            && b.angle().is_finite()
            && b.angular_velocity().is_finite()
    })
}

#[test]
fn a_sensor_overlap_naming_wall_9_is_refused_not_a_panic_r_scn_1() {
    let world = stacked(Vec2::new(60.0, 30.0), 1.0, 1);
    let mut scene = SceneFile::capture(&world);
    let state = scene.solver_state.as_mut().expect("captured");
    state.sensor_overlaps.push((0xffff_ffff_0000_0009, 3, 0));
    let message = refusal(&scene);
    assert!(message.contains("solver_state.sensor_overlaps[0]"), "{message}");
    assert!(message.contains("wall 0 ..= 3"), "{message}");
}

#[test]
fn a_sensor_overlap_of_unknown_ids_or_a_body_with_itself_is_refused_r_scn_1() {
    let world = stacked(Vec2::new(60.0, 30.0), 1.0, 1);
    let scene = SceneFile::capture(&world);
    for (key, field) in [((5, 0), "a"), ((0, 7), "b"), ((0, 0xffff_ffff_0000_0001), "b")] {
        let mut bad = scene.clone();
        let state = bad.solver_state.as_mut().expect("captured");
        state.sensor_overlaps.push((key.0, key.1, 0));
        let message = refusal(&bad);
        assert!(message.contains("solver_state.sensor_overlaps[0]"), "{key:?}: {message}");
        assert!(message.contains(field), "{key:?}: {message}");
    }
    let mut bad = scene.clone();
    bad.solver_state.as_mut().expect("captured").sensor_overlaps.push((1, 1, 0));
    let message = refusal(&bad);
    assert!(message.contains("two different bodies"), "{message}");
}

/// A sensor overlap's step is the last step that found it, numbered before it ran: below
/// the solver state's step count. One at or after it (found in a step not yet taken) is
/// refused naming the field and its range; what a world leaves there loads.
#[test]
fn a_sensor_overlap_found_at_or_after_the_step_count_is_refused_r_scn_1() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("valid");
    let zone = BodyDesc::rect(Vec2::new(800.0, 200.0), Vec2::new(400.0, 500.0)).fixed().sensor();
    world.add_body(zone).expect("inside");
    world.add_body(BodyDesc::circle(12.0, Vec2::new(400.0, 560.0))).expect("inside");
    for _ in 0..10 {
        world.step(1.0 / 120.0).expect("a valid step");
    }
    let scene = SceneFile::capture(&world);
    let state = scene.solver_state.as_ref().expect("captured");
    assert_eq!(state.step, 10);
    assert_eq!(state.sensor_overlaps.len(), 1, "the ball inside the zone");
    assert_eq!(state.sensor_overlaps[0].2, 9, "found by the tenth step, number 9");
    scene.to_world().expect("the overlap as the world left it loads");

    for found in [10, 11, 1 << 53, u64::MAX] {
        let mut bad = scene.clone();
        bad.solver_state.as_mut().expect("captured").sensor_overlaps[0].2 = found;
        let message = refusal(&bad);
        assert!(message.contains("solver_state.sensor_overlaps[0]"), "{found}: {message}");
        assert!(message.contains(&format!("step = {found}")), "{found}: {message}");
        assert!(message.contains("0 ..= 9 (before solver_state.step, 10)"), "{message}");
    }
    // At step 0 no step has run: no overlap can have been found.
    let mut fresh = scene.clone();
    fresh.solver_state.as_mut().expect("captured").step = 0;
    fresh.solver_state.as_mut().expect("captured").sensor_overlaps[0].2 = 0;
    let message = refusal(&fresh);
    assert!(message.contains("step = 0") && message.contains("none"), "{message}");
}

#[test]
fn warm_start_impulses_beyond_1e20_are_refused_naming_the_impulse_r_scn_1() {
    let world = stacked(Vec2::new(60.0, 30.0), 1.0, 20);
    let scene = SceneFile::capture(&world);
    assert!(!scene.solver_state.as_ref().expect("captured").contacts.is_empty());
    for field in ["normal_impulse", "tangent_impulse", "rolling_impulse"] {
        for x in [1.0e38, -2.3e37, 1.01e20, f32::INFINITY] {
            let mut bad = scene.clone();
            let c = &mut bad.solver_state.as_mut().expect("captured").contacts[0];
            match field {
                "normal_impulse" => c.normal_impulse = x,
                "tangent_impulse" => c.tangent_impulse = x,
                _ => c.rolling_impulse = x,
            }
            let message = refusal(&bad);
            assert!(message.contains("solver_state.contacts[0]"), "{message}");
            assert!(message.contains(field) && message.contains("1e20"), "{message}");
        }
    }
}

/// The bound is safe: impulses of 1e20 on the lightest, smallest boxes (where an impulse moves
/// and turns a body most) step without NaN.
#[test]
fn warm_start_impulses_at_the_bound_step_without_nan_r_cfg_3() {
    for (size, density) in [(Vec2::new(60.0, 30.0), 1.0), (Vec2::splat(24.0), 1.0e-3)] {
        let world = stacked(size, density, 20);
        let mut scene = SceneFile::capture(&world);
        for sign in [1.0, -1.0] {
            for c in &mut scene.solver_state.as_mut().expect("captured").contacts {
                (c.normal_impulse, c.tangent_impulse) = (1.0e20 * sign, 1.0e20 * sign);
                c.rolling_impulse = 1.0e20 * sign;
            }
            let mut loaded = scene.to_world().expect("within the bound");
            for step in 0..120 {
                loaded.step(1.0 / 120.0).expect("a valid step");
                assert!(all_finite(&loaded), "{size} {density} {sign}: NaN at step {step}");
            }
        }
    }
}

#[test]
fn pending_ends_that_are_not_a_contact_s_end_between_known_bodies_are_refused_r_scn_1() {
    let world = stacked(Vec2::new(60.0, 30.0), 1.0, 20);
    let scene = SceneFile::capture(&world);
    let h0 = world.handles().next().expect("a body");
    let h1 = world.handles().nth(1).expect("two bodies");
    let nan_start = CollisionEvent::Started {
        a: h0,
        b: BodyOrWall::Body(h0),
        point: Vec2::NAN,
        normal: Vec2::INFINITY,
        normal_impulse: f32::NAN,
        sensor: false,
    };
    let finite_start = CollisionEvent::Started {
        a: h0,
        b: BodyOrWall::Body(h1),
        point: Vec2::ZERO,
        normal: Vec2::X,
        normal_impulse: 1.0,
        sensor: false,
    };
    let far = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).map(|mut w| {
        for _ in 0..5 {
            w.add_body(BodyDesc::circle(12.0, Vec2::new(100.0, 100.0))).expect("inside");
        }
        w.handles().last().expect("five bodies")
    });
    let unknown = far.expect("valid");
    let cases = [
        (nan_start, "Started"),
        (finite_start, "Started"),
        (CollisionEvent::Ended { a: h0, b: BodyOrWall::Body(h1), sensor: true }, "sensor"),
        (CollisionEvent::Ended { a: h0, b: BodyOrWall::Body(h0), sensor: false }, "other than a"),
        (CollisionEvent::Ended { a: unknown, b: BodyOrWall::Body(h1), sensor: false }, "id below"),
        (CollisionEvent::Ended { a: h1, b: BodyOrWall::Body(unknown), sensor: false }, "id below"),
    ];
    for (event, expected) in cases {
        let mut bad = scene.clone();
        bad.solver_state.as_mut().expect("captured").pending_ends.push(event);
        let message = refusal(&bad);
        assert!(message.contains("solver_state.pending_ends[0]"), "{event:?}: {message}");
        assert!(message.contains(expected), "{event:?}: {message}");
    }
}

/// What the world leaves in the list, the ends of removed bodies' reported contacts (their
/// handles stale, their ids free: `World::clear`), still loads and comes out of the next step.
#[test]
fn the_pending_ends_of_removed_bodies_still_load_r_scn_1() {
    let mut world = stacked(Vec2::new(60.0, 30.0), 1.0, 20);
    let top = world.handles().nth(1).expect("two bodies");
    world.clear();
    let scene = SceneFile::capture(&world);
    let pending = &scene.solver_state.as_ref().expect("captured").pending_ends;
    assert!(!pending.is_empty(), "the ends of the boxes' contacts wait");
    let mut loaded = scene.to_world().expect("a step's own pending ends load");
    loaded.step(1.0 / 120.0).expect("a valid step");
    let names_top = |e: &&CollisionEvent| {
        let (a, b) = e.pair();
        a == top || b == BodyOrWall::Body(top)
    };
    let ends = loaded.collision_events().iter().filter(names_top).count();
    assert!(ends > 0, "{:?}", loaded.collision_events());
}

#[test]
fn a_step_count_above_2_pow_53_is_refused_not_wrapped_r_scn_1() {
    let world = stacked(Vec2::new(60.0, 30.0), 1.0, 1);
    let mut scene = SceneFile::capture(&world);
    scene.solver_state.as_mut().expect("captured").step = u64::MAX;
    let message = refusal(&scene);
    assert!(message.contains("solver_state.step") && message.contains("2^53"), "{message}");
    scene.solver_state.as_mut().expect("captured").step = 1 << 53;
    let mut loaded = scene.to_world().expect("2^53 is within the bound");
    loaded.step(1.0 / 120.0).expect("a valid step");
    assert_eq!(loaded.step_count(), (1 << 53) + 1);
}
