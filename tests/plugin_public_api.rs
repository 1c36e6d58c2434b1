//! The plugin's public API is the list below and nothing else (issue 16): its modules are
//! private, `src/plugin/mod.rs`'s `pub use` list is the API, and no system is part of it
//! (only the sets and the schedule users order against). A change to the API changes this
//! list on purpose.

mod common;

use std::fs;
use std::path::Path;

use common::exported;

fn plugin_root() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/plugin/mod.rs");
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_plugin_exports_exactly_its_listed_api() {
    let source = plugin_root();
    let api = [
        // Components and the helper that builds them from a core body description.
        "CollisionLayers",
        "AngularVelocity",
        "BodyPose",
        "Collider",
        "LinearVelocity",
        "NoInterpolation",
        "PhysicsMaterial",
        "PhysicsPose",
        "RigidBody",
        "Sleeping",
        "VisualScale",
        "body_components",
        // Run-time controls and the walls.
        "PhysicsBounds",
        "PhysicsControls",
        "PhysicsTimeScale",
        "WallInsets",
        "WallsFollowWindow",
        "CoordinateMapping",
        // The parts of the plugin group and their resources.
        "PhysicsDebugDraw",
        "PhysicsDebugDrawPlugin",
        "PhysicsDiagnosticsPlugin",
        "PhysicsStatistics",
        "BodyDragPlugin",
        "DragSettings",
        "DragState",
        "Held",
        "NotDraggable",
        "PointerCapture",
        "CollisionEnd",
        "CollisionEventsEnabled",
        "CollisionStart",
        "Sensor",
        "PhysicsInterpolationPlugin",
        "BodyError",
        "ConstantForce",
        "ConstantTorque",
        "GravityScale",
        "PhysicsWalls",
        "BodyInspector",
        "BodyInspectorParams",
        "CLICK_SLOP",
        "MAX_POINTS_PER_LINE",
        "PhaseMillis",
        "PhysicsPanel",
        "PhysicsPanelParams",
        "PhysicsPanelPlugin",
        "PhysicsPlots",
        "PlotSample",
        "body_inspector_ui",
        "physics_panel_ui",
        "physics_plots_ui",
        "show_body_inspector",
        "show_physics_panel",
        "show_physics_plots",
        "BodyContact",
        "Contact",
        "PhysicsWarning",
        "PhysicsWorld",
        "BodyPickingPlugin",
        "BodyPickingSystems",
        "HoveredBodies",
        // Config presets as RON.
        "BUILTIN_PRESETS",
        "PresetError",
        "builtin_preset",
        "config_from_ron",
        "config_to_ron",
        "load_preset",
        "save_preset",
        // Session recording, rewind and scene files (issue 18).
        "PlayPhysicsRecording",
        "SessionRecording",
        "PhysicsRewind",
        "PhysicsRewindPlugin",
        "LoadPhysicsScene",
        "load_scene",
        // What users order against.
        "PhysicsSchedule",
        "PhysicsSystems",
        "PhysicsSimulationPlugin",
        "EntityOrWall",
        "SpatialHit",
        "SpatialQuery",
        "SpatialQueryFilter",
    ];
    assert_eq!(exported(&source), api, "the plugin's pub use list changed");
}

#[test]
fn every_plugin_module_is_private_and_no_system_is_exported() {
    let source = plugin_root();
    let public_modules: Vec<&str> = source.lines().filter(|l| l.starts_with("pub mod ")).collect();
    assert!(public_modules.is_empty(), "public modules: {public_modules:?}");
    for system in [
        "run_physics_schedule",
        "register_bodies",
        "apply_user_writes",
        "step_world",
        "write_back",
        "apply_sleep_markers",
        "remove_body",
        "apply_config",
        "apply_controls",
        "clear_bodies",
        "follow_window",
        "interpolate_transforms",
        "draw_debug",
        "pick_bodies",
        "capture_egui_pointers",
    ] {
        assert!(!exported(&source).iter().any(|n| n == system), "the system {system} is exported");
    }
}
