//! Recording a session through the plugin and playing it back (issue 18, R-SCN-2): every
//! change the plugin makes to the core is noted, so that a session of spawns, despawns, a
//! drag and throw, component writes, config, gravity and wall changes, a pause and a clear
//! replays bit for bit, in the core alone and in a second app.

mod picking_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bevy::picking::pointer::{PointerButton, PointerId};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::physics::scenes;
use bevy_sandbox_physics::plugin::{
    CoordinateMapping, PhysicsRewind, PhysicsRewindPlugin, PhysicsSystems, PlayPhysicsRecording,
    SessionRecording, body_components,
};
use bevy_sandbox_physics::prelude::*;
use picking_support::{Scene, scene_with};

const MOUSE: PointerId = PointerId::Mouse;
const PRIMARY: PointerButton = PointerButton::Primary;

/// The state hash after each step, taken right after the write-back (before the inputs that
/// precede the next step), by step.
#[derive(Resource, Default)]
struct Hashes(Vec<(u64, u64)>);

fn note_hash(physics: Res<PhysicsWorld>, mut hashes: ResMut<Hashes>) {
    if physics.stepped_last_run() {
        hashes.0.push((physics.step_count(), physics.world().state_hash()));
    }
}

/// A headless app with picking, one fixed step per update and the step hashes noted.
fn app() -> Scene {
    let frame = Duration::from_secs_f64(1.0 / 120.0);
    let mut scene = scene_with(SandboxPhysicsPlugin::default(), frame);
    scene
        .app
        .init_resource::<Hashes>()
        .add_systems(FixedUpdate, note_hash.after(PhysicsSystems::Writeback));
    scene
}

/// The same without picking (no window, no camera), with the rewind plugin.
fn app_with_rewind() -> Scene {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SandboxPhysicsPlugin::default(),
        PhysicsRewindPlugin::default(),
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 120.0)));
    app.finish();
    app.cleanup();
    app.update();
    Scene { app, window: Entity::PLACEHOLDER, camera: Entity::PLACEHOLDER }
}

fn physics(scene: &Scene) -> &PhysicsWorld {
    scene.app.world().resource::<PhysicsWorld>()
}

fn physics_mut(scene: &mut Scene) -> Mut<'_, PhysicsWorld> {
    scene.app.world_mut().resource_mut::<PhysicsWorld>()
}

fn steps(scene: &Scene) -> u64 {
    physics(scene).step_count()
}

/// Spawns `scenes::mixed(n, seed)` as entities.
fn spawn_mixed(scene: &mut Scene, n: usize, seed: u64) -> Vec<Entity> {
    let mapping = CoordinateMapping::from_bounds(scene.app.world().resource::<PhysicsBounds>().0);
    let bodies = scenes::mixed(n, seed).bodies;
    bodies.iter().map(|desc| scene.spawn(body_components(desc, mapping))).collect()
}

/// The hashes noted after the steps `from + 1 ..= to`.
fn hashes_between(scene: &Scene, from: u64, to: u64) -> Vec<(u64, u64)> {
    let hashes = &scene.app.world().resource::<Hashes>().0;
    hashes.iter().copied().filter(|&(s, _)| s > from && s <= to).collect()
}

fn take_warnings(app: &mut App) -> Vec<PhysicsWarning> {
    let mut messages =
        app.world_mut().resource_mut::<bevy::ecs::message::Messages<PhysicsWarning>>();
    messages.drain().collect()
}

/// Every entity's material, sensor flag and layers are its body's.
fn assert_entities_show_bodies(scene: &mut Scene) {
    let world = scene.app.world_mut();
    let mut query =
        world.query::<(Entity, &PhysicsMaterial, Has<Sensor>, Option<&CollisionLayers>)>();
    let rows: Vec<_> = query.iter(world).map(|(e, m, s, l)| (e, *m, s, l.copied())).collect();
    let physics = world.resource::<PhysicsWorld>();
    for (entity, material, sensor, layers) in rows {
        let body = physics.handle(entity).and_then(|h| physics.world().body(h)).expect("a body");
        assert_eq!(material.0, body.material(), "{entity}: material");
        assert_eq!(sensor, body.is_sensor(), "{entity}: sensor");
        assert_eq!(layers.unwrap_or_default(), body.layers(), "{entity}: layers");
    }
}

fn entities_with_colliders(scene: &mut Scene) -> usize {
    let world = scene.app.world_mut();
    world.query::<&Collider>().iter(world).count()
}

/// Records a session of every kind of input the plugin turns into core calls; returns the
/// recording read back from its two RON files, and the app.
fn record_a_session() -> (SessionRecording, Scene) {
    let mut scene = app();
    let bodies = spawn_mixed(&mut scene, 40, 7);
    scene.frames(30);
    physics_mut(&mut scene).start_recording();

    // Spawns, and a despawn.
    for i in 0..4 {
        let x = -200.0 + 100.0 * i as f32;
        scene.spawn((Collider::circle(14.0), Transform::from_xyz(x, 250.0, 0.0)));
    }
    scene.frames(20);
    scene.app.world_mut().despawn(bodies[3]);
    scene.app.world_mut().despawn(bodies[5]);
    scene.frames(20);

    // Component writes: a velocity, a teleport, a material.
    scene.app.world_mut().get_mut::<LinearVelocity>(bodies[10]).expect("velocity").0 =
        Vec2::new(300.0, 200.0);
    scene.app.world_mut().get_mut::<Transform>(bodies[11]).expect("transform").translation =
        Vec3::new(-300.0, 200.0, 0.0);
    *scene.app.world_mut().get_mut::<PhysicsMaterial>(bodies[12]).expect("material") =
        PhysicsMaterial::RUBBER;
    scene.app.world_mut().entity_mut(bodies[13]).insert(Sensor);
    scene.app.world_mut().entity_mut(bodies[14]).insert(CollisionLayers::new(0b10, 0b10));
    scene.frames(20);

    // A drag and a throw of a ball spawned where the pointer can reach it.
    let ball = scene.spawn((Collider::circle(20.0), Transform::from_xyz(0.0, 150.0, 0.0)));
    scene.frames(2);
    scene.press(MOUSE, Scene::screen_of(Vec2::new(0.0, 150.0)), PRIMARY);
    assert_eq!(scene.held_by(MOUSE), Some(ball), "the ball is held");
    for k in 1..=8 {
        scene.move_to(MOUSE, Scene::screen_of(Vec2::new(15.0 * k as f32, 150.0)));
    }
    scene.release(MOUSE, Scene::screen_of(Vec2::new(120.0, 150.0)), PRIMARY);
    scene.frames(20);

    // Config, gravity, walls, a pause, an impulse.
    scene.app.world_mut().resource_mut::<PhysicsConfig>().velocity_iterations = 10;
    scene.frames(15);
    scene.app.world_mut().resource_mut::<PhysicsControls>().gravity_enabled = false;
    scene.app.world_mut().resource_mut::<PhysicsWalls>().top = false;
    scene.frames(15);
    scene.app.world_mut().resource_mut::<PhysicsControls>().paused = true;
    scene.frames(10);
    let impulse = physics_mut(&mut scene).apply_impulse(bodies[20], Vec2::new(0.0, 500.0));
    assert!(impulse.is_ok(), "{impulse:?}");
    scene.app.world_mut().resource_mut::<PhysicsControls>().paused = false;
    scene.app.world_mut().resource_mut::<PhysicsControls>().gravity_enabled = true;
    scene.frames(30);

    // A clear, and new bodies after it.
    scene.app.world_mut().resource_mut::<PhysicsControls>().request_clear();
    scene.frames(2);
    let fresh = spawn_mixed(&mut scene, 12, 9);
    scene.frames(2);
    scene.app.world_mut().entity_mut(fresh[0]).insert(Sensor);
    scene.app.world_mut().entity_mut(fresh[1]).insert(CollisionLayers::new(0b100, 0b110));
    scene.frames(58);

    let recording = physics_mut(&mut scene).stop_recording().expect("a recording");
    // Through its two files.
    // A folder of its own per call: the tests run in parallel in one process.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let folder =
        std::env::temp_dir().join(format!("plugin_recording_{}_{call}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let (start, inputs) = (folder.join("session.ron"), folder.join("session.inputs.ron"));
    recording.save(&start, &inputs).expect("saved");
    let read = SessionRecording::load(&start, &inputs).expect("read back");
    let _ = std::fs::remove_dir_all(&folder);
    assert_eq!(read, recording, "the files hold the recording");
    (read, scene)
}

#[test]
fn a_recorded_session_replays_every_step_hash_in_the_core_and_in_a_second_app_r_scn_2() {
    let (recording, mut original) = record_a_session();
    let log = &recording.log;
    let kinds = |name: &str| {
        log.inputs.iter().filter(|i| format!("{:?}", i.input).starts_with(name)).count()
    };
    // Every kind of change of the session is in the log.
    for (kind, at_least) in [
        ("AddBody", 4 + 1 + 12),
        ("RemoveBodies", 1),
        ("SetVelocity", 1),
        ("SetPosition", 1),
        ("SetMaterial", 1),
        ("SetSensor", 2),
        ("SetLayers", 2),
        ("Grab", 1),
        ("SetDragTarget", 4),
        ("Release", 1),
        ("SetConfig", 1),
        ("SetGravityEnabled", 2),
        ("SetWallEnabled", 1),
        ("ApplyImpulse", 1),
        ("Clear", 1),
    ] {
        assert!(kinds(kind) >= at_least, "{kind}: {} in the log, {at_least} expected", kinds(kind));
    }
    let recorded = hashes_between(&original, log.start_step, log.end_step);
    assert_eq!(recorded.last().map(|h| h.0), Some(log.end_step));

    // The core alone, from the start file: every step's hash.
    let mut world = recording.start.to_world().expect("the start loads");
    let mut replayed = Vec::new();
    log.replay(&mut world, |w| replayed.push((w.step_count(), w.state_hash())))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed, recorded, "the core's replay, step by step");

    // A second app plays it back: every step's hash, one entity per body at the end.
    let mut player = app();
    spawn_mixed(&mut player, 5, 1); // replaced by the start
    player.frames(3);
    player.app.world_mut().commands().queue(PlayPhysicsRecording(recording.clone()));
    player.app.world_mut().flush();
    assert!(physics(&player).playback_progress().is_some(), "playing");
    while physics(&player).playback_progress().is_some() {
        player.app.update();
        assert!(steps(&player) <= log.end_step + 1, "the playback did not end");
    }
    let played = hashes_between(&player, log.start_step, log.end_step);
    assert_eq!(played, recorded, "the app's playback, step by step");
    let warnings = take_warnings(&mut player.app);
    assert!(warnings.is_empty(), "{warnings:?}");
    let bodies = physics(&player).len();
    assert_eq!(bodies, physics(&original).len());
    assert_eq!(entities_with_colliders(&mut player), bodies, "one entity per body");
    assert_entities_show_bodies(&mut player);
    // And both go on alike.
    original.frames(30);
    while steps(&player) < steps(&original) {
        player.app.update();
    }
    assert_eq!(physics(&player).world().state_hash(), physics(&original).world().state_hash());
}

#[test]
fn a_change_during_playback_takes_the_session_over_and_a_wrong_hash_ends_it_with_a_warning_r_scn_2()
{
    let (recording, _) = record_a_session();
    let start = recording.log.start_step;

    // A component write at step start + 50 takes over: the playback ends there, no warning.
    let mut player = app();
    player.app.world_mut().commands().queue(PlayPhysicsRecording(recording.clone()));
    player.app.world_mut().flush();
    while steps(&player) < start + 50 {
        player.app.update();
    }
    let some_body = physics(&player).world().bodies().next().map(|(h, _)| h).expect("bodies");
    let entity = physics(&player).entity(some_body).expect("an entity");
    player.app.world_mut().get_mut::<LinearVelocity>(entity).expect("velocity").0 = Vec2::X * 50.0;
    player.app.update();
    assert_eq!(physics(&player).playback_progress(), None, "taken over");
    assert!(take_warnings(&mut player.app).is_empty());

    // A log whose check of the step start + 120 is wrong ends there with a warning saying so.
    let mut tampered = recording.clone();
    let check = tampered.log.checks.iter_mut().find(|c| c.0 == start + 120).expect("a check");
    check.1 ^= 1;
    let mut player = app();
    player.app.world_mut().commands().queue(PlayPhysicsRecording(tampered));
    player.app.world_mut().flush();
    while physics(&player).playback_progress().is_some() {
        player.app.update();
    }
    assert_eq!(steps(&player), start + 120, "ended at the wrong hash");
    let warnings = take_warnings(&mut player.app);
    let said =
        warnings.iter().any(|w| w.message.contains(&format!("diverged at step {}", start + 120)));
    assert!(said, "{warnings:?}");
}

#[test]
fn a_rewind_while_recording_takes_the_log_back_and_the_recording_stays_true_r_scn_2() {
    let mut scene = app_with_rewind();
    spawn_mixed(&mut scene, 40, 3);
    scene.frames(12);
    physics_mut(&mut scene).start_recording();
    let start = steps(&scene);
    let mut spawned_at = Vec::new();
    for i in 0..6 {
        spawned_at.push(steps(&scene));
        scene.spawn((
            Collider::circle(12.0),
            Transform::from_xyz(-150.0 + 60.0 * i as f32, 250.0, 0.0),
        ));
        scene.frames(25);
    }
    // Back to a snapshot inside the recording, then another course from there.
    let target = start + 60;
    let landed =
        scene.app.world().resource::<PhysicsRewind>().landing_step(target).expect("in reach");
    assert!(landed > start + 25, "landed at {landed}");
    scene.app.world_mut().resource_mut::<PhysicsRewind>().request_rewind(target);
    scene.app.update();
    scene.app.world_mut().resource_mut::<PhysicsConfig>().velocity_iterations = 12;
    scene.spawn((Collider::rectangle(40.0, 30.0), Transform::from_xyz(0.0, 260.0, 0.0)));
    scene.frames(90);
    let end_hash = physics(&scene).world().state_hash();
    let recording = physics_mut(&mut scene).stop_recording().expect("a recording");
    // The spawns of the first course after the landing step are forgotten.
    let kept = spawned_at.iter().filter(|&&s| s < landed).count();
    let added = recording
        .log
        .inputs
        .iter()
        .filter(|i| matches!(i.input, bevy_sandbox_physics::physics::Input::AddBody { .. }))
        .count();
    assert_eq!(
        added,
        kept + 1,
        "spawns in the log (first course at {spawned_at:?}, landed {landed})"
    );

    let mut world = recording.start.to_world().expect("the start loads");
    recording.log.replay(&mut world, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.step_count(), steps(&scene));
    assert_eq!(world.state_hash(), end_hash, "the replay ends where the app did");
}

/// Plays `recording` back in `player` until the playback ends; returns the warnings.
fn play_to_the_end(player: &mut Scene, recording: &SessionRecording) -> Vec<PhysicsWarning> {
    player.app.world_mut().commands().queue(PlayPhysicsRecording(recording.clone()));
    player.app.world_mut().flush();
    assert!(physics(player).playback_progress().is_some(), "playing");
    while physics(player).playback_progress().is_some() {
        player.app.update();
        assert!(steps(player) <= recording.log.end_step + 1, "the playback did not end");
    }
    take_warnings(&mut player.app)
}

/// The bodies the core holds for a pointer.
fn held_bodies(scene: &Scene) -> usize {
    physics(scene).world().bodies().filter(|(_, body)| body.is_held()).count()
}

#[test]
fn a_playback_started_while_a_pointer_holds_a_body_plays_to_its_end_r_scn_2() {
    let (recording, original) = record_a_session();
    let log = &recording.log;
    let recorded = hashes_between(&original, log.start_step, log.end_step);

    let mut player = app();
    let ball = player.spawn((Collider::circle(20.0), Transform::from_xyz(0.0, 150.0, 0.0)));
    player.frames(2);
    player.press(MOUSE, Scene::screen_of(Vec2::new(0.0, 150.0)), PRIMARY);
    assert_eq!(player.held_by(MOUSE), Some(ball), "the ball is held");

    // The ball's entity goes with the load of the start, and its grip with it: no release
    // of it may take the playback over.
    let warnings = play_to_the_end(&mut player, &recording);
    assert!(warnings.is_empty(), "{warnings:?}");
    // Every step of the log, to its end, as recorded.
    assert_eq!(hashes_between(&player, log.start_step, log.end_step), recorded);
    assert_eq!(player.held_by(MOUSE), None, "the grip went with its entity");
    // The button coming up later lets nothing go and throws nothing.
    let hash = physics(&player).world().state_hash();
    player.release(MOUSE, Scene::screen_of(Vec2::new(0.0, 150.0)), PRIMARY);
    assert_eq!(player.held_by(MOUSE), None);
    assert_eq!(held_bodies(&player), 0);
    assert!(steps(&player) > log.end_step, "the app went on");
    assert_ne!(physics(&player).world().state_hash(), hash, "and the world moves");
}

#[test]
fn a_body_held_when_its_recording_stopped_is_let_go_when_the_playback_ends_r_scn_2() {
    let mut scene = app();
    spawn_mixed(&mut scene, 10, 4);
    let ball = scene.spawn((Collider::circle(20.0), Transform::from_xyz(0.0, 150.0, 0.0)));
    scene.frames(2);
    physics_mut(&mut scene).start_recording();
    scene.frames(5);
    scene.press(MOUSE, Scene::screen_of(Vec2::new(0.0, 150.0)), PRIMARY);
    for k in 1..=6 {
        scene.move_to(MOUSE, Scene::screen_of(Vec2::new(10.0 * k as f32, 160.0)));
    }
    scene.frames(20);
    assert_eq!(scene.held_by(MOUSE), Some(ball), "held when the recording stops");
    let recording = physics_mut(&mut scene).stop_recording().expect("a recording");
    let (grab_step, ball_handle) = recording
        .log
        .inputs
        .iter()
        .find_map(|i| match i.input {
            bevy_sandbox_physics::physics::Input::Grab(handle) => Some((i.step, handle)),
            _ => None,
        })
        .expect("the grab is in the log");

    // Played to its end: the ball is let go at rest and falls, as nothing holds it.
    let mut player = app();
    let warnings = play_to_the_end(&mut player, &recording);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(held_bodies(&player), 0, "nothing holds a body after the playback");
    let entity = physics(&player).entity(ball_handle).expect("the ball's entity");
    let height = player.position(entity).y;
    player.frames(30);
    assert!(player.position(entity).y < height - 10.0, "the ball falls");

    // Taken over while it holds the ball: let go too.
    let mut player = app();
    player.app.world_mut().commands().queue(PlayPhysicsRecording(recording.clone()));
    player.app.world_mut().flush();
    while steps(&player) < grab_step + 3 {
        player.app.update();
    }
    assert_eq!(held_bodies(&player), 1, "the log holds the ball");
    let ball = physics(&player).entity(ball_handle).expect("the ball's entity");
    let world = player.app.world_mut();
    let mut bodies = world.query_filtered::<Entity, With<Collider>>();
    let other = bodies.iter(world).find(|&e| e != ball).expect("another body");
    player.app.world_mut().get_mut::<LinearVelocity>(other).expect("velocity").0 = Vec2::X * 50.0;
    player.app.update();
    assert_eq!(physics(&player).playback_progress(), None, "taken over");
    assert_eq!(held_bodies(&player), 0, "nothing holds a body after the playback");
}

#[test]
fn a_rewind_to_the_recordings_own_start_records_on_from_the_snapshot_r_scn_2() {
    let mut scene = app_with_rewind();
    let bodies = spawn_mixed(&mut scene, 30, 5);
    scene.frames(15);
    let rewind =
        |scene: &Scene| scene.app.world().resource::<PhysicsRewind>().landing_step(steps(scene));
    while rewind(&scene) != Some(steps(&scene)) {
        scene.frames(1);
    }
    let start = steps(&scene);
    // A call at the same step before the recording starts: in its start, not in the snapshot
    // taken right after the step.
    let impulse = physics_mut(&mut scene).apply_impulse(bodies[0], Vec2::new(0.0, 900.0));
    assert!(impulse.is_ok(), "{impulse:?}");
    physics_mut(&mut scene).start_recording();
    scene.frames(30);
    scene.app.world_mut().resource_mut::<PhysicsRewind>().request_rewind(start);
    scene.app.update();
    scene.spawn((Collider::circle(12.0), Transform::from_xyz(0.0, 260.0, 0.0)));
    scene.frames(40);
    let end_hash = physics(&scene).world().state_hash();
    let recording = physics_mut(&mut scene).stop_recording().expect("a recording");
    assert_eq!(recording.log.start_step, start, "still a recording from the same step");

    let mut world = recording.start.to_world().expect("the start loads");
    recording.log.replay(&mut world, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.step_count(), steps(&scene));
    assert_eq!(world.state_hash(), end_hash, "the replay ends where the app did");
}

#[test]
fn a_playback_ended_by_a_body_added_under_another_handle_gives_that_body_its_entity_r_scn_2() {
    use bevy_sandbox_physics::physics::Input;
    let (mut recording, _) = record_a_session();
    // The first added body noted with the second one's handle.
    let handles: Vec<_> = recording
        .log
        .inputs
        .iter()
        .filter_map(|i| match i.input {
            Input::AddBody { handle, .. } => Some(handle),
            _ => None,
        })
        .take(2)
        .collect();
    let first = recording.log.inputs.iter_mut().find_map(|i| match &mut i.input {
        Input::AddBody { handle, .. } => Some(handle),
        _ => None,
    });
    *first.expect("an added body") = handles[1];

    let mut player = app();
    let warnings = play_to_the_end(&mut player, &recording);
    let said = warnings.iter().any(|w| w.message.contains(&format!("recorded {}", handles[1])));
    assert!(said, "{warnings:?}");
    let bodies = physics(&player).world().body_count();
    assert_eq!(physics(&player).len(), bodies, "every body linked to an entity");
    assert_eq!(entities_with_colliders(&mut player), bodies, "one entity per body");
    assert_entities_show_bodies(&mut player);
}

/// A body that holds a gravity scale, a force and a torque when the recording starts comes
/// back in the playback with the `GravityScale`, `ConstantForce` and `ConstantTorque`
/// components of its start (as after a load). A change of them recorded later went to the
/// core, but the components kept the start's values, and the next step's motion system took
/// the difference for a write of the game's and handed the old values back to the core: the
/// playback was taken over, without a warning, one step after the recorded change, and the
/// world went on with the start's gravity scale, force and torque.
#[test]
fn a_recorded_change_of_a_force_or_gravity_scale_the_start_held_plays_back_r_scn_2() {
    let mut scene = app();
    let ball = scene.spawn((
        Collider::circle(20.0),
        Transform::from_xyz(-100.0, 100.0, 0.0),
        GravityScale(2.0),
        ConstantForce(Vec2::new(3000.0, 0.0)),
        ConstantTorque(5.0e5),
    ));
    scene.frames(10);
    physics_mut(&mut scene).start_recording();
    let start = steps(&scene);
    scene.frames(5);
    scene.app.world_mut().entity_mut(ball).insert((
        GravityScale(-0.5),
        ConstantForce(Vec2::new(-3000.0, 0.0)),
        ConstantTorque(-5.0e5),
    ));
    scene.frames(30);
    let recording = physics_mut(&mut scene).stop_recording().expect("a recording");
    let end = recording.log.end_step;
    let recorded = hashes_between(&scene, start, end);
    assert_eq!(recorded.last().map(|h| h.0), Some(end));

    let mut player = app();
    player.app.world_mut().commands().queue(PlayPhysicsRecording(recording));
    player.app.world_mut().flush();
    while physics(&player).playback_progress().is_some() {
        player.app.update();
    }
    assert!(
        steps(&player) >= end,
        "taken over at step {}, before the log's end {end}",
        steps(&player)
    );
    assert_eq!(hashes_between(&player, start, end), recorded, "the app's playback, step by step");
    let warnings = take_warnings(&mut player.app);
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// As a load does, a playback reads and writes the plugin's resources (`PhysicsWorld`, the
/// config, the walls, the controls) when it starts; queued in the frame one of them was
/// removed, before the start of the next frame puts it back (R-PLUG-1), it panicked the app
/// ("Requested resource … does not exist"). Now the removed resource is put back first, with
/// its warning, and the playback runs.
#[test]
fn a_playback_queued_in_the_frame_a_plugin_resource_was_removed_plays_r_scn_2() {
    let mut scene = app();
    spawn_mixed(&mut scene, 10, 2);
    scene.frames(5);
    physics_mut(&mut scene).start_recording();
    scene.frames(20);
    let recording = physics_mut(&mut scene).stop_recording().expect("a recording");
    let mut player = app();
    player.app.world_mut().remove_resource::<PhysicsConfig>();
    player.app.world_mut().commands().queue(PlayPhysicsRecording(recording));
    player.app.world_mut().flush();
    assert!(physics(&player).playback_progress().is_some(), "playing");
    let warnings = take_warnings(&mut player.app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.starts_with("PhysicsConfig was removed"), "{warnings:?}");
}
