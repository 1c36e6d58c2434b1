//! The core's public API is the list below and nothing else (issue 16): its modules are
//! private, the root's `pub use` list is the API, and no scratch buffer, cache key, solver
//! type or system is part of it. A change to the API changes this list on purpose.

mod common;

use std::fs;
use std::path::Path;

use common::exported;

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The modules `source` declares, with whether they are public.
fn modules(source: &str) -> Vec<(String, bool)> {
    source
        .lines()
        .filter_map(|l| {
            let (public, rest) = match l.strip_prefix("pub mod ") {
                Some(rest) => (true, rest),
                None => (false, l.strip_prefix("mod ")?),
            };
            Some((rest.trim_end_matches(';').to_string(), public))
        })
        .collect()
}

#[test]
fn the_core_exports_exactly_its_listed_api() {
    let source = read("src/physics/mod.rs");
    let api = [
        "Body",
        "BodyDesc",
        "BodyHandle",
        "BodyKind",
        "CollisionLayers",
        "Material",
        "Shape",
        "PhaseClock",
        "set_phase_clock",
        "BodyOrWall",
        "Manifold",
        "Wall",
        "WallId",
        "collide",
        "ConfigError",
        "FieldError",
        "MAX_BODY_SIZE",
        "MIN_BODY_SIZE",
        "Parameter",
        "ParameterGroup",
        "ParameterValue",
        "PhysicsConfig",
        "PositionCorrection",
        "SPEED_CEILING",
        "tunnelling_speed_limit",
        "Input",
        "InputLog",
        "LoggedInput",
        "Recorder",
        "ReplayError",
        "Timeline",
        "FixedTimestep",
        "VelocityTracker",
        "CachedContact",
        "CollisionEvent",
        "ContactInfo",
        "Island",
        "MAX_COORDINATE",
        "MIN_STEP",
        "PhaseTimings",
        "PhysicsError",
        "QueryFilter",
        "RayHit",
        "SceneBody",
        "SceneBounds",
        "SceneError",
        "SceneFile",
        "SceneWalls",
        "ShapeHit",
        "SolverState",
        "StepStats",
        "World",
    ];
    assert_eq!(exported(&source), api, "the core's pub use list changed");
    let public: Vec<_> = modules(&source).into_iter().filter(|(_, p)| *p).collect();
    assert_eq!(
        public,
        [("scenes".to_string(), true)],
        "only the shared scenes are a public module"
    );
}

#[test]
fn no_internal_type_is_public_in_the_core() {
    // Every module under src/physics except the root and the scenes is private, so only the
    // root's list can export; these internals must not be on it.
    let source = read("src/physics/mod.rs");
    let names = exported(&source);
    for internal in [
        "Scratch",
        "Collider",
        "ContactCache",
        "PairKey",
        "CachedImpulse",
        "SolverBody",
        "SolverBodies",
        "SolverContact",
        "SolveOrder",
        "F4",
        "Proxy",
        "BroadPhase",
        "UnionFind",
        "Projection",
        "EnergyGuard",
        "Snapshot",
    ] {
        assert!(!names.iter().any(|n| n == internal), "{internal} is exported");
    }
    for folder in ["collision", "solver", "world"] {
        let declared = modules(&read(&format!("src/physics/{folder}/mod.rs")));
        assert!(declared.iter().all(|(_, public)| !public), "{folder} has a public module");
    }
}
