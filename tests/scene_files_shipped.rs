//! The scene files shipped under `assets/scenes/` (issue 18, R-SCN-1): each is the hand-
//! editable description (no solver state) of a shared scene of `physics::scenes`, loads
//! without a complaint, and equals what its scene builds today, so the files cannot drift
//! from the code. `UPDATE_SCENES=1 cargo test --test scene_files_shipped` rewrites them.

#![cfg(feature = "serde")]

use std::path::PathBuf;

use bevy_sandbox_physics::physics::scenes::{self, Scene};
use bevy_sandbox_physics::physics::{PhysicsConfig, SceneFile};
use glam::Vec2;

/// The shipped scenes: file name and the scene it describes.
fn shipped() -> Vec<(&'static str, Scene)> {
    vec![
        ("pyramid_20", scenes::pyramid(20, 30.0)),
        ("tower_12", scenes::tower(12, 30.0)),
        ("mixed_60", scenes::mixed(60, 1)),
        ("rain_400", scenes::rain(400, 1)),
        ("material_balls", scenes::material_balls(Vec2::new(1200.0, 700.0))),
    ]
}

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/scenes").join(format!("{name}.ron"))
}

/// The description a scene builds with the default config, without the solver's state.
fn description(scene: &Scene) -> SceneFile {
    let world = scene.build(PhysicsConfig::default()).expect("the shared scene builds");
    SceneFile { solver_state: None, ..SceneFile::capture(&world) }
}

#[test]
fn every_shipped_scene_file_loads_and_equals_its_scene_r_scn_1() {
    let update = std::env::var_os("UPDATE_SCENES").is_some();
    for (name, scene) in shipped() {
        let expected = description(&scene);
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
    let mut wanted: Vec<String> = shipped().iter().map(|(n, _)| format!("{n}.ron")).collect();
    wanted.sort();
    assert_eq!(names, wanted, "a file in assets/scenes has no scene here");
}
