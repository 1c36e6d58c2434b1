//! Hostile scene files (issue 18, R-SCN-1): a broken, foreign, out-of-range or huge file
//! is refused with an error naming what is wrong and where, and nothing is loaded.

#![cfg(feature = "serde")]

use bevy_sandbox_physics::physics::{
    BodyDesc, PhysicsConfig, SceneBody, SceneError, SceneFile, World,
};
use glam::Vec2;

/// A small valid file: two bodies, with its solver state.
fn valid_text() -> String {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("valid");
    world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 100.0))).expect("inside");
    world.add_body(BodyDesc::rect(Vec2::new(60.0, 30.0), Vec2::new(300.0, 570.0))).expect("inside");
    for _ in 0..120 {
        world.step(1.0 / 120.0).expect("a valid step");
    }
    SceneFile::capture(&world).to_ron()
}

/// Reads and builds `text`, expecting an error; returns it and its message.
#[track_caller]
fn refused(text: &str) -> (SceneError, String) {
    let error = match SceneFile::from_ron(text) {
        Err(e) => e,
        Ok(scene) => match scene.to_world() {
            Err(e) => e,
            Ok(_) => panic!("accepted:\n{text}"),
        },
    };
    let message = error.to_string();
    (error, message)
}

#[test]
fn the_valid_file_of_these_tests_loads_r_scn_1() {
    let scene = SceneFile::from_ron(&valid_text()).expect("reads");
    assert_eq!(scene.to_world().expect("builds").body_count(), 2);
}

#[test]
fn a_truncated_file_is_a_syntax_error_with_its_place_r_scn_1() {
    let text = valid_text();
    for cut in [text.len() / 3, text.len() / 2, text.len() - 3] {
        let (error, message) = refused(&text[..cut]);
        assert!(matches!(error, SceneError::Syntax { line, .. } if line > 0), "{message}");
    }
    let (error, _) = refused("");
    assert!(matches!(error, SceneError::Syntax { .. }));
}

#[test]
fn a_file_of_another_version_or_none_is_refused_by_its_version_r_scn_1() {
    let text = valid_text();
    let future = text.replacen("version: 1", "version: 2", 1);
    // A future version may have fields this build does not know: still a version error.
    let future_fields = future.replacen("bounds:", "units: \"metres\",\n    bounds:", 1);
    for file in [&future, &future_fields] {
        let (error, message) = refused(file);
        assert_eq!(error, SceneError::Version { found: Some(2) }, "{message}");
        assert!(message.contains("version 2") && message.contains("reads version 1"), "{message}");
    }
    let missing = text.replacen("version: 1,", "", 1);
    let (error, message) = refused(&missing);
    assert_eq!(error, SceneError::Version { found: None }, "{message}");
    assert!(message.contains("no `version`"), "{message}");
}

#[test]
fn unknown_fields_are_refused_by_name_r_scn_1() {
    let text = valid_text();
    let cases = [
        (
            text.replacen("gravity_enabled:", "gravity_enabeld: true,\n    gravity_enabled:", 1),
            "gravity_enabeld",
        ),
        (text.replacen("position:", "positon: (1.0, 1.0), position:", 1), "positon"),
        (text.replacen("time_step:", "time_stpe: 0.01,\n        time_step:", 1), "time_stpe"),
    ];
    for (file, name) in cases {
        let (_, message) = refused(&file);
        assert!(message.contains(name), "{name}: {message}");
    }
}

#[test]
fn nan_and_out_of_range_values_are_refused_naming_field_and_range_r_scn_1() {
    let text = valid_text();
    let cases = [
        (
            text.replacen("radius: 20.0", "radius: NaN", 1),
            "bodies[0]",
            "shape.radius",
            "12 ..= 10000",
        ),
        (
            text.replacen("radius: 20.0", "radius: 3.0", 1),
            "bodies[0]",
            "shape.radius",
            "12 ..= 10000",
        ),
        (
            text.replacen(
                "position:",
                "material: (density: -1.0, friction: 0.4, restitution: 0.5), position:",
                1,
            ),
            "bodies[0]",
            "material.density",
            "0.001",
        ),
        (
            text.replacen(
                "position:",
                "material: (density: 1.0, friction: 0.4, restitution: 7.0), position:",
                1,
            ),
            "bodies[0]",
            "restitution",
            "1]",
        ),
        (text.replacen("time_step: 0.008333334", "time_step: inf", 1), "config", "time_step", ""),
        (
            text.replacen("max: (800.0, 600.0)", "max: (10.0, 600.0)", 1),
            "bounds",
            "bounds",
            "at least 24",
        ),
        (
            text.replacen("position:", "force: (NaN, 0.0), position:", 1),
            "bodies[0]",
            "force",
            "finite",
        ),
        (
            text.replacen("position:", "rest_time: -1.0, position:", 1),
            "bodies[0]",
            "rest_time",
            "at least 0",
        ),
        (
            text.replacen("position:", "rest_anchor: Some((NaN, 1.0)), position:", 1),
            "bodies[0]",
            "rest_anchor",
            "finite numbers",
        ),
        (
            text.replacen("position:", "rest_angle: inf, position:", 1),
            "bodies[0]",
            "rest_angle",
            "finite",
        ),
        (
            text.replacen("position:", "settle_failures: 4, position:", 1),
            "bodies[0]",
            "settle_failures",
            "0 ..= 3",
        ),
        (
            text.replacen("position:", "sleep_island: Some(4294967295), position:", 1),
            "bodies[0]",
            "sleep_island",
            "4294967294",
        ),
    ];
    for (file, at, field, allowed) in cases {
        let (error, message) = refused(&file);
        assert!(matches!(&error, SceneError::Invalid { at: a, .. } if a == at), "{message}");
        assert!(message.contains(field) && message.contains(allowed), "{field}: {message}");
    }
}

/// A body beyond ±2^40 px of the origin, where no world's body gets, is refused naming the
/// range. One outside the bounds but within it loads, as a world may hold it
/// (`scene_files.rs`), and [`SceneFile::check_inside`] refuses it with the world's range.
#[test]
fn a_body_beyond_2_pow_40_px_is_refused_and_one_just_outside_the_world_loads_r_scn_1() {
    let far = valid_text().replacen("position: (400.0,", "position: (2000000000000.0,", 1);
    let (error, message) = refused(&far);
    assert!(matches!(&error, SceneError::Invalid { at, .. } if at == "bodies[0]"), "{message}");
    assert!(message.contains("position") && message.contains("2^40"), "{message}");
    let text = valid_text().replacen("position: (400.0,", "position: (4000.0,", 1);
    let outside = SceneFile::from_ron(&text).expect("reads");
    assert_eq!(outside.to_world().map(|w| w.body_count()), Ok(2), "loads");
    let message = outside.check_inside().expect_err("outside the world").to_string();
    assert!(message.contains("bodies[0]") && message.contains("position"), "{message}");
    assert!(message.contains("inside the world"), "{message}");
    let inside = SceneFile::from_ron(&valid_text()).expect("reads");
    assert_eq!(inside.check_inside(), Ok(()));
}

#[test]
fn a_solver_state_that_does_not_fit_the_bodies_is_refused_r_scn_1() {
    let mut scene = SceneFile::from_ron(&valid_text()).expect("reads");
    scene.bodies.push(SceneBody::new(BodyDesc::circle(15.0, Vec2::new(100.0, 100.0))));
    let message = scene.to_world().err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        message.contains("solver_state.handles") && message.contains("delete solver_state"),
        "{message}"
    );
    scene.bodies.pop();
    if let Some(state) = &mut scene.solver_state {
        state.slots = vec![0, 0];
    }
    let message = scene.to_world().err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("solver_state.slots"), "{message}");
    // Without the state, the same bodies load as a fresh start.
    scene.solver_state = None;
    assert!(scene.to_world().is_ok());
}

/// A million bodies, about 60 MB of text: refused at the 200,001st body as it is read,
/// never holding more than the limit.
#[test]
fn a_million_bodies_are_refused_before_they_are_read_r_scn_1() {
    let head = "(version: 1, bounds: (min: (0.0, 0.0), max: (1000.0, 1000.0)), bodies: [";
    let body = "(shape: Circle(radius: 12.0), position: (500.0, 500.0)),";
    let mut text = String::with_capacity(head.len() + body.len() * 1_000_000 + 4);
    text.push_str(head);
    for _ in 0..1_000_000 {
        text.push_str(body);
    }
    text.push_str("])");
    let (error, message) = refused(&text);
    assert!(matches!(error, SceneError::TooLarge { limit: 200_000, .. }), "{message}");
    assert!(message.contains("200000"), "{message}");
}

#[test]
fn a_file_too_large_is_refused_before_it_is_read_r_scn_1() {
    let path = std::env::temp_dir().join(format!("scene-too-large-{}.ron", std::process::id()));
    let file = std::fs::File::create(&path).expect("a temporary file");
    file.set_len(SceneFile::MAX_BYTES + 1).expect("a sparse file");
    let result = SceneFile::load(&path);
    std::fs::remove_file(&path).ok();
    assert!(matches!(result, Err(SceneError::TooLarge { .. })), "{result:?}");
}

/// Loading builds a new world: the world in use is untouched by a refused file, and by a
/// loaded one.
#[test]
fn loading_never_touches_the_world_in_use_r_scn_1() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("valid");
    world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 100.0))).expect("inside");
    let before = world.state_hash();
    let bad = valid_text().replacen("radius: 20.0", "radius: NaN", 1);
    let loaded = SceneFile::from_ron(&bad).and_then(|s| s.to_world());
    assert!(loaded.is_err());
    assert_eq!(world.state_hash(), before);
}

/// The solver state's handles are hex words; a word that is not one is refused with its
/// line, saying what a word must be.
#[test]
fn a_handle_that_is_not_a_hex_word_is_refused_with_its_line_r_scn_1() {
    let text = valid_text();
    let line = text.lines().position(|l| l.trim_start().starts_with("handles: ")).expect("there");
    for broken in ["handles: \"zz ", "handles: \"10000000000000000 ", "handles: \"-1 "] {
        let (error, message) = refused(&text.replacen("handles: \"", broken, 1));
        assert!(
            matches!(error, SceneError::Syntax { line: l, .. } if l == line + 1),
            "{broken}: {message}"
        );
        assert!(message.contains("hex word"), "{message}");
    }
}

#[test]
fn a_body_list_inside_a_block_comment_is_not_read_in_place_of_the_real_one_r_scn_1() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("valid");
    for x in [200.0, 400.0, 600.0] {
        world.add_body(BodyDesc::circle(20.0, Vec2::new(x, 100.0))).expect("inside");
    }
    let mut scene = SceneFile::capture(&world);
    scene.solver_state = None;
    let plain = scene.to_ron();
    let commented = plain.replacen(
        "    config:",
        "/*\n    bodies: [\n        (shape: Circle(radius: 15.0), position: (100.0, 100.0)),\n    ],\n*/\n    config:",
        1,
    );
    assert_ne!(plain, commented, "the comment went in");
    let loaded = SceneFile::from_ron(&commented).expect("reads");
    // RON skips the comment: it reads the three bodies of the list after it.
    assert_eq!(loaded.bodies.len(), 3);
    assert_eq!(loaded.bodies, scene.bodies);
}
