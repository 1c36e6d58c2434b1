//! The scene files shipped under `assets/scenes/` (issue 18, R-SCN-1): each is the hand-
//! editable description (no solver state) of a shared scene of `physics::scenes`, loads
//! without a complaint, and equals what its scene builds today, so the files cannot drift
//! from the code. `UPDATE_SCENES=1 cargo test --test scene_files_shipped` rewrites them.

#![cfg(feature = "serde")]

use std::path::PathBuf;

use bevy_sandbox_physics::physics::scenes::{self, Scene};
use bevy_sandbox_physics::physics::{PhysicsConfig, SceneFile};
use glam::Vec2;

/// The shipped scenes: file name, the scene it describes, and whether gravity is on.
fn shipped() -> Vec<(&'static str, Scene, bool)> {
    vec![
        ("pyramid_20", scenes::pyramid(20, 30.0), true),
        ("tower_12", scenes::tower(12, 30.0), true),
        ("mixed_60", scenes::mixed(60, 1), true),
        ("rain_400", scenes::rain(400, 1), true),
        ("material_balls", scenes::material_balls(Vec2::new(1200.0, 700.0)), true),
        ("cradle_and_break", scenes::cradle_and_break(Vec2::new(1200.0, 700.0)), false),
    ]
}

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/scenes").join(format!("{name}.ron"))
}

/// The description a scene builds with the default config (and gravity on or off), without
/// the solver's state.
fn description(scene: &Scene, gravity: bool) -> SceneFile {
    let mut world = scene.build(PhysicsConfig::default()).expect("the shared scene builds");
    world.set_gravity_enabled(gravity);
    SceneFile { solver_state: None, ..SceneFile::capture(&world) }
}

#[test]
fn every_shipped_scene_file_loads_and_equals_its_scene_r_scn_1() {
    let update = std::env::var_os("UPDATE_SCENES").is_some();
    for (name, scene, gravity) in shipped() {
        let expected = description(&scene, gravity);
        if update {
            expected.save(path(name)).expect("the file is written");
        }
        let file = SceneFile::load(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.version, SceneFile::VERSION, "{name}");
        assert!(file.solver_state.is_none(), "{name}: a shipped file is a plain description");
        assert_eq!(file, expected, "{name}: the file differs from what its scene builds");
        let world = file.to_world().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(world.body_count(), scene.bodies.len(), "{name}");
    }
    // Every file in the folder is one of them.
    let folder = path("x").parent().map(PathBuf::from).expect("the folder");
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .expect("assets/scenes")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    let mut wanted: Vec<String> = shipped().iter().map(|(n, ..)| format!("{n}.ron")).collect();
    wanted.sort();
    assert_eq!(names, wanted, "a file in assets/scenes has no scene here");
}

/// The shipped `cradle_and_break` (gravity off, deviation D15 of docs/physics.md): after
/// 1 s both elastic impacts are over, the kinetic energy is what the two moving balls
/// brought in (R-RES-1 with e = 1: nothing lost, 10⁻³ relative), and in the upper row the
/// last ball carries the striker's 300 px/s while the other five rest (0.01 px/s).
#[test]
fn the_shipped_cradle_and_break_keeps_its_energy_without_gravity_r_res_1() {
    let file = SceneFile::load(path("cradle_and_break")).expect("the shipped file loads");
    let mut world = file.to_world().expect("it builds");
    assert!(!world.gravity_enabled(), "the file switches gravity off");
    let before = world.kinetic_energy();
    for _ in 0..120 {
        world.step(world.config().time_step).expect("step");
    }
    let after = world.kinetic_energy();
    assert!((after - before).abs() <= 1e-3 * before, "energy {before} -> {after}");
    let mut row: Vec<(f32, f32)> = world
        .bodies()
        // The row's balls move along it alone: central impacts (0.3 of the height).
        .filter(|(_, b)| (b.position().y - 210.0).abs() < 0.5 && b.velocity().y == 0.0)
        .map(|(_, b)| (b.position().x, b.velocity().x))
        .collect();
    row.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(row.len(), 6, "the striker and the row of five");
    let (last, rest) = row.split_last().expect("six balls");
    assert!((last.1 - 300.0).abs() < 0.01, "the last ball at {} px/s", last.1);
    for &(x, v) in rest {
        assert!(v.abs() < 0.01, "the ball at x = {x} still moves at {v} px/s");
    }
}
