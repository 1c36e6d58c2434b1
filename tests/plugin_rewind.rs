//! Rewind through the plugin (issue 18, R-SCN-2): `PhysicsRewindPlugin` keeps a snapshot
//! every 12 steps; a rewind lands on one with the entities rebuilt, and the app steps on
//! from there exactly as it did the first time.

mod plugin_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::physics::scenes;
use bevy_sandbox_physics::plugin::{
    CoordinateMapping, LoadPhysicsScene, PhysicsRewind, PhysicsRewindPlugin, body_components,
};
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// A headless app with the rewind, one fixed step per `app.update()`, and
/// `scenes::mixed(60, 1)` spawned as entities.
fn app_with_rewind(rewind: PhysicsRewindPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SandboxPhysicsPlugin::default(), rewind));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 120.0)));
    app.finish();
    app.cleanup();
    app.update();
    let scene = scenes::mixed(60, 1);
    let mapping = CoordinateMapping::from_bounds(app.world().resource::<PhysicsBounds>().0);
    for desc in &scene.bodies {
        app.world_mut().spawn(body_components(desc, mapping));
    }
    app
}

fn hash(app: &App) -> u64 {
    physics(app).world().state_hash()
}

fn rewind(app: &mut App) -> Mut<'_, PhysicsRewind> {
    app.world_mut().resource_mut::<PhysicsRewind>()
}

/// Runs updates until the core has made `step` steps; the state hash after each, by step.
fn run_to(app: &mut App, step: u64, hashes: &mut Vec<u64>) {
    while steps(app) < step {
        app.update();
        let now = steps(app) as usize;
        hashes.resize(now + 1, 0);
        hashes[now] = hash(app);
    }
}

/// Every entity is linked to a body and drawn within `tolerance` px of its pose, asleep
/// exactly when it is. Right after a rewind (`stepped` false) the pose is the body's;
/// after steps the drawn pose is interpolated between the last two, so it is measured from
/// the segment between the body's pose at the step's start and its pose now.
fn assert_entities_match_bodies(app: &mut App, tolerance: f32, stepped: bool) {
    let mut query = app.world_mut().query::<(Entity, &Transform, Has<Sleeping>)>();
    let rows: Vec<_> = query.iter(app.world()).collect();
    assert_eq!(rows.len(), physics(app).len(), "one entity per body");
    for (entity, transform, asleep) in rows {
        let handle = physics(app).handle(entity).expect("every entity is linked");
        let body = physics(app).world().body(handle).expect("its body");
        let mapping = physics(app).mapping();
        let to = mapping.position_to_bevy(body.position());
        let from = if stepped { mapping.position_to_bevy(body.previous_position()) } else { to };
        let drawn = transform.translation.truncate();
        let along = (to - from).length_squared();
        let t =
            if along > 0.0 { ((drawn - from).dot(to - from) / along).clamp(0.0, 1.0) } else { 0.0 };
        let off = drawn.distance(from + (to - from) * t);
        assert!(off <= tolerance, "{entity} drawn {off} px off its body's last step");
        assert_eq!(asleep, body.is_sleeping(), "{entity}'s sleep marker");
    }
}

/// R-SCN-2: paused, a rewind to step 400 lands on the snapshot of step 396 (every 12 steps)
/// with that step's state hash and one entity per body at its pose; a rewind forward again
/// reaches step 588, since the later snapshots stay while nothing steps; resumed from 396,
/// the app reproduces the state hash of every step it made the first time, to step 700.
#[test]
fn a_rewind_lands_on_a_snapshot_and_the_app_steps_on_as_before_r_scn_2() {
    let mut app = app_with_rewind(PhysicsRewindPlugin::default());
    let mut hashes = Vec::new();
    run_to(&mut app, 700, &mut hashes);
    assert!(physics(&app).world().stats().sleeping > 0, "nothing sleeps: a weak test");

    app.world_mut().resource_mut::<PhysicsControls>().paused = true;
    assert_eq!(rewind(&mut app).landing_step(400), Some(396));
    rewind(&mut app).request_rewind(400);
    app.update();
    assert_eq!((steps(&app), hash(&app)), (396, hashes[396]), "not the world of step 396");
    assert_entities_match_bodies(&mut app, 0.0, false);

    rewind(&mut app).request_rewind(588);
    app.update();
    assert_eq!((steps(&app), hash(&app)), (588, hashes[588]), "the later snapshots are gone");
    rewind(&mut app).request_rewind(396);
    app.update();
    assert_eq!(steps(&app), 396);

    app.world_mut().resource_mut::<PhysicsControls>().paused = false;
    app.update();
    assert_eq!(rewind(&mut app).reach().map(|r| r.1), Some(396), "the old future is kept");
    assert_eq!(hash(&app), hashes[397], "step 397 after the rewind");
    for _ in 398..=700 {
        app.update();
        let step = steps(&app) as usize;
        assert_eq!(hash(&app), hashes[step], "step {step} after the rewind");
    }
    assert_entities_match_bodies(&mut app, 0.1, true);
    assert!(take_warnings(&mut app).is_empty(), "the rewind was warned about");
}

/// R-SCN-2 with R-SCN-1: a loaded scene file brings its own step count, so the timeline
/// starts again at the loaded world; the old world's snapshots are not its past.
#[test]
fn a_load_starts_the_timeline_again_at_the_loaded_world_r_scn_2() {
    let mut app = app_with_rewind(PhysicsRewindPlugin::default());
    run_to(&mut app, 300, &mut Vec::new());
    let file = physics(&app).scene_file();
    let saved = hash(&app);
    run_to(&mut app, 500, &mut Vec::new());
    // The first snapshot follows the first step, then every 12th step's.
    assert_eq!(rewind(&mut app).reach(), Some((1, 492)));
    app.world_mut().commands().queue(LoadPhysicsScene(file));
    app.world_mut().flush();
    assert_eq!((steps(&app), hash(&app)), (300, saved));
    assert_eq!(rewind(&mut app).reach(), Some((300, 300)), "the timeline did not start again");
    run_to(&mut app, 330, &mut Vec::new());
    assert_eq!(rewind(&mut app).timeline().steps().collect::<Vec<_>>(), vec![300, 312, 324]);
}

/// R-SCN-2: the snapshots reach 10 s back (the default) and no further; a rewind beyond
/// them is refused with a warning naming the oldest step and changes nothing; a byte budget
/// smaller than 10 s of snapshots shortens the reach instead of growing.
#[test]
fn the_rewind_reaches_ten_seconds_back_within_its_byte_budget_r_scn_2() {
    let mut app = app_with_rewind(PhysicsRewindPlugin::default());
    run_to(&mut app, 1500, &mut Vec::new());
    let (oldest, newest) = rewind(&mut app).reach().expect("snapshots");
    assert_eq!(newest, 1500);
    assert!((1500 - oldest) >= 1200 && (1500 - oldest) < 1200 + 12, "reaches {oldest}");

    let before = (hash(&app), physics(&app).len());
    take_warnings(&mut app);
    rewind(&mut app).request_rewind(oldest - 1);
    app.world_mut().resource_mut::<PhysicsControls>().paused = true;
    app.update();
    assert_eq!((hash(&app), physics(&app).len()), before, "a refused rewind changed the world");
    let warnings = take_warnings(&mut app);
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains(&format!("oldest snapshot is of step {oldest}"))),
        "{warnings:?}"
    );

    let full = rewind(&mut app).memory_bytes();
    let budget = full / 4;
    let mut small = app_with_rewind(PhysicsRewindPlugin { max_bytes: budget, ..default() });
    run_to(&mut small, 1500, &mut Vec::new());
    let rewind = rewind(&mut small);
    assert!(rewind.memory_bytes() <= budget, "{} > {budget} bytes", rewind.memory_bytes());
    let (oldest, newest) = rewind.reach().expect("snapshots");
    assert!(newest == 1500 && 1500 - oldest < 600, "reaches {oldest}..={newest}");
}

/// A body entity disabled with Bevy's `Disabled` is hidden from ordinary queries: a rewind
/// left it alive beside the rebuilt entities, and once enabled it was never simulated again.
/// Now a rewind despawns it with every other body entity, and the snapshot's body comes back
/// as a new entity like the rest.
#[test]
fn a_rewind_despawns_disabled_body_entities_with_the_others_r_scn_2() {
    use bevy::ecs::entity_disabling::Disabled;

    let mut app = app_with_rewind(PhysicsRewindPlugin::default());
    let mut hashes = Vec::new();
    run_to(&mut app, 30, &mut hashes);
    let body_entities = |app: &mut App| -> Vec<Entity> {
        let mut query =
            app.world_mut().query_filtered::<Entity, (With<Collider>, Allow<Disabled>)>();
        query.iter(app.world()).collect()
    };
    let disabled = body_entities(&mut app)[0];
    app.world_mut().entity_mut(disabled).insert(Disabled);
    app.update();
    assert_eq!(physics(&app).len(), 59);

    rewind(&mut app).request_rewind(12);
    app.update();
    assert!(app.world().get_entity(disabled).is_err(), "despawned, though disabled");
    let entities = body_entities(&mut app);
    assert_eq!(entities.len(), 60, "one entity per body of the snapshot and no other");
    assert!(entities.iter().all(|&e| physics(&app).handle(e).is_some()), "each simulated");
    assert_eq!(physics(&app).len(), 60);
}

/// R-SCN-2: the rewind reaches 10 s back unless told otherwise, and a setting outside its
/// range is not taken silently: a NaN, negative or zero `seconds` would turn into a reach of
/// about one interval. Each is refused at build with a warning naming the field and the
/// range, and the default is used: the timeline is the default one.
#[test]
fn invalid_rewind_settings_are_refused_by_name_and_the_defaults_used_r_scn_2() {
    let default_timeline = {
        let app = app_with_rewind(PhysicsRewindPlugin::default());
        let timeline = app.world().resource::<PhysicsRewind>().timeline();
        (timeline.capacity(), timeline.interval())
    };
    let settings = [
        (PhysicsRewindPlugin { seconds: f32::NAN, ..default() }, "seconds NaN"),
        (PhysicsRewindPlugin { seconds: -5.0, ..default() }, "seconds -5"),
        (PhysicsRewindPlugin { seconds: 0.0, ..default() }, "seconds 0"),
        (PhysicsRewindPlugin { seconds: f32::INFINITY, ..default() }, "seconds inf"),
        (PhysicsRewindPlugin { seconds: 1e30, ..default() }, "seconds 1e30"),
        (PhysicsRewindPlugin { interval: 0, ..default() }, "interval 0"),
        (PhysicsRewindPlugin { interval: u64::MAX, ..default() }, "interval 1.8e19"),
        (PhysicsRewindPlugin { max_bytes: 0, ..default() }, "max_bytes 0"),
    ];
    for (plugin, name) in settings {
        let field = name.split(' ').next().expect("a field");
        let mut app = app_with_rewind(plugin);
        let warnings = take_warnings(&mut app);
        assert_eq!(warnings.len(), 1, "{name}: {warnings:?}");
        let message = &warnings[0].message;
        assert!(message.contains(&format!("PhysicsRewindPlugin::{field}")), "{name}: {message}");
        assert!(message.contains("allowed"), "{name}: the range: {message}");
        let timeline = app.world().resource::<PhysicsRewind>().timeline();
        assert_eq!((timeline.capacity(), timeline.interval()), default_timeline, "{name}");
    }

    // NaN seconds: the rewind still reaches 10 s back.
    let mut app = app_with_rewind(PhysicsRewindPlugin { seconds: f32::NAN, ..default() });
    run_to(&mut app, 1500, &mut Vec::new());
    let (oldest, newest) = rewind(&mut app).reach().expect("snapshots");
    assert!(newest - oldest >= 1200, "reaches {oldest}..={newest}");
}

/// R-PLUG-1 with the rewind: a removed `PhysicsRewind` comes back (empty, taking snapshots
/// again), and a removed `PhysicsWorld` comes back with every body while the snapshots of the
/// old world, whose step count was another, are dropped: a rewind then lands on a snapshot of
/// the new world with every body in it, never on an empty one.
#[test]
fn a_removed_rewind_or_world_is_put_back_and_rewinds_keep_every_body_r_plug_1() {
    let mut app = app_with_rewind(PhysicsRewindPlugin::default());
    run_to(&mut app, 100, &mut Vec::new());
    let bodies = physics(&app).len();
    assert!(bodies > 50);
    take_warnings(&mut app);

    app.world_mut().remove_resource::<PhysicsRewind>();
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.starts_with("PhysicsRewind was removed"), "{warnings:?}");
    frames(&mut app, 30);
    assert!(rewind(&mut app).reach().is_some(), "taking snapshots again");

    app.world_mut().remove_resource::<PhysicsWorld>();
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.starts_with("PhysicsWorld was removed"), "{warnings:?}");
    assert_eq!(physics(&app).len(), bodies, "every body joined the new world");
    frames(&mut app, 40);
    let (oldest, _) = rewind(&mut app).reach().expect("snapshots of the new world");
    app.world_mut().resource_mut::<PhysicsControls>().paused = true;
    rewind(&mut app).request_rewind(oldest);
    app.update();
    assert_eq!(steps(&app), oldest, "landed on the oldest snapshot");
    assert_eq!(physics(&app).len(), bodies, "the rewind landed on a world with every body");
    assert_entities_match_bodies(&mut app, 0.0, false);
}
