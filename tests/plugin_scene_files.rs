//! Scene files through the plugin (issue 18, R-SCN-1): a saved app loads into another app
//! and steps on bit for bit; a broken file changes nothing.

mod plugin_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy_sandbox_physics::physics::{SceneFile, scenes};
use bevy_sandbox_physics::plugin::{CoordinateMapping, LoadPhysicsScene, body_components};
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// One fixed step per `app.update()`.
fn app_by_steps() -> App {
    app_with(SandboxPhysicsPlugin::default(), Duration::from_secs_f64(1.0 / 120.0))
}

fn hash(app: &App) -> u64 {
    physics(app).world().state_hash()
}

/// An app with `scenes::mixed(60, 1)` spawned as entities, some of it asleep after 8 s.
fn pile() -> App {
    let mut app = app_by_steps();
    let scene = scenes::mixed(60, 1);
    let bounds = app.world().resource::<PhysicsBounds>().0;
    let mapping = CoordinateMapping::from_bounds(bounds);
    for desc in &scene.bodies {
        app.world_mut().spawn(body_components(desc, mapping));
    }
    for _ in 0..960 {
        app.update();
    }
    app
}

/// R-SCN-1: an app saved as RON and loaded into a fresh app steps on exactly as the original
/// does (state hash equal at each of 240 steps), with one entity per body at its pose.
#[test]
fn a_saved_app_loads_into_another_and_steps_on_bit_for_bit_r_scn_1() {
    let mut original = pile();
    let text = physics(&original).scene_file().to_ron();
    let file = SceneFile::from_ron(&text).expect("the saved file reads back");
    assert!(physics(&original).world().stats().sleeping > 0, "nothing sleeps: a weak test");

    let mut loaded = app_by_steps();
    loaded.world_mut().spawn((Collider::circle(30.0), Transform::default())); // replaced
    loaded.update();
    loaded.world_mut().commands().queue(LoadPhysicsScene(file));
    loaded.world_mut().flush();
    assert_eq!(hash(&loaded), hash(&original), "the loaded world is not the saved one");
    let mut entities = loaded.world_mut().query::<(Entity, &Transform, Has<Sleeping>)>();
    let rows: Vec<_> = entities.iter(loaded.world()).collect();
    assert_eq!(rows.len(), physics(&original).len(), "one entity per body");
    for (entity, transform, asleep) in rows {
        let handle = physics(&loaded).handle(entity).expect("every entity is linked");
        let body = physics(&loaded).world().body(handle).expect("its body");
        let at = physics(&loaded).mapping().position_to_bevy(body.position());
        assert_eq!(transform.translation.truncate(), at);
        assert_eq!(asleep, body.is_sleeping());
    }
    for step in 0..240 {
        original.update();
        loaded.update();
        assert_eq!(hash(&loaded), hash(&original), "step {step} after the load");
    }
    assert!(take_warnings(&mut loaded).is_empty(), "the load was warned about");
}

/// R-SCN-1: a file the core refuses (a NaN velocity, a body beyond ±2^40 px) leaves every
/// body and the world as they were, and says why in a warning naming the field.
#[test]
fn a_broken_scene_file_changes_nothing_and_names_the_field_r_scn_1() {
    let mut app = pile();
    let (before, bodies) = (hash(&app), physics(&app).len());
    let mut nan = physics(&app).scene_file();
    nan.bodies[3].velocity = Vec2::new(f32::NAN, 0.0);
    let mut outside = physics(&app).scene_file();
    outside.bodies[5].position = Vec2::new(-2.0e12, 100.0);
    for (file, field) in [(nan, "velocity"), (outside, "position")] {
        take_warnings(&mut app);
        app.world_mut().commands().queue(LoadPhysicsScene(file));
        app.world_mut().flush();
        let warnings = take_warnings(&mut app);
        assert!(
            warnings.iter().any(|w| w.message.contains(field)),
            "no warning naming {field}: {warnings:?}"
        );
        assert_eq!((hash(&app), physics(&app).len()), (before, bodies), "the world changed");
    }
    let entities = app.world_mut().query::<&Collider>().iter(app.world()).count();
    assert_eq!(entities, bodies, "entities were despawned");
}

/// R-SCN-1: a body's constant force, torque and gravity scale come back from a file as the
/// game components they were set with, so the loaded entity shows them and removing one
/// takes it back in the core (gravity scale 1, no force) as for a body the game spawned.
#[test]
fn a_loaded_body_gets_back_its_force_torque_and_gravity_scale_components_r_scn_1() {
    let mut original = app_by_steps();
    let (force, torque, scale) = (Vec2::new(300.0, -50.0), 2.5e5, 0.25);
    original.world_mut().spawn((
        Collider::circle(20.0),
        Transform::from_xyz(0.0, 100.0, 0.0),
        ConstantForce(force),
        ConstantTorque(torque),
        GravityScale(scale),
    ));
    original.update();
    let file = physics(&original).scene_file();

    let mut loaded = app_by_steps();
    loaded.world_mut().commands().queue(LoadPhysicsScene(file));
    loaded.world_mut().flush();
    let mut query = loaded.world_mut().query_filtered::<(
        Entity,
        Option<&ConstantForce>,
        Option<&ConstantTorque>,
        Option<&GravityScale>,
    ), With<Collider>>();
    let rows: Vec<_> = query
        .iter(loaded.world())
        .map(|(e, f, t, g)| (e, f.copied(), t.copied(), g.copied()))
        .collect();
    assert_eq!(rows.len(), 1, "one body entity");
    let (entity, loaded_force, loaded_torque, loaded_scale) = rows[0];
    assert_eq!(loaded_force, Some(ConstantForce(force)), "the force component");
    assert_eq!(loaded_torque, Some(ConstantTorque(torque)), "the torque component");
    assert_eq!(loaded_scale, Some(GravityScale(scale)), "the gravity scale component");
    for _ in 0..30 {
        original.update();
        loaded.update();
    }
    assert_eq!(hash(&loaded), hash(&original), "the components changed the loaded world");

    loaded.world_mut().entity_mut(entity).remove::<(ConstantForce, GravityScale)>();
    loaded.update();
    let handle = physics(&loaded).handle(entity).expect("linked");
    let core = physics(&loaded).world();
    assert_eq!(core.force(handle).expect("a body"), Vec2::ZERO, "the force stayed");
    assert_eq!(core.gravity_scale(handle).expect("a body"), 1.0, "the gravity scale stayed");
    assert!(take_warnings(&mut loaded).is_empty(), "the load was warned about");
}

/// A body entity disabled with Bevy's `Disabled` is hidden from ordinary queries: a load
/// left it alive beside the loaded bodies, and once enabled it was never simulated again.
/// Now a load despawns it with every other body entity.
#[test]
fn a_load_despawns_disabled_body_entities_with_the_others_r_scn_1() {
    use bevy::ecs::entity_disabling::Disabled;

    let mut app = app_by_steps();
    let kept = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    let disabled = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(100.0, 0.0, 0.0)));
    frames(&mut app, 2);
    let file = physics(&app).scene_file();
    app.world_mut().entity_mut(disabled).insert(Disabled);
    frames(&mut app, 2);

    let loaded = bevy_sandbox_physics::plugin::load_scene(app.world_mut(), &file).expect("load");
    assert_eq!(loaded, 2, "both bodies of the file");
    assert!(app.world().get_entity(kept).is_err(), "despawned");
    assert!(app.world().get_entity(disabled).is_err(), "despawned, though disabled");
    let mut colliders =
        app.world_mut().query_filtered::<Entity, (With<Collider>, Allow<Disabled>)>();
    let entities: Vec<Entity> = colliders.iter(app.world()).collect();
    assert_eq!(entities.len(), 2, "one entity per loaded body and no other");
    assert!(entities.iter().all(|&e| physics(&app).handle(e).is_some()), "each simulated");
    frames(&mut app, 2);
    assert_eq!(physics(&app).world().body_count(), 2);
}

/// Loads `file` with `LoadPhysicsScene` right after removing the resource `R` in the same
/// frame, as a reset system that takes the world's resources away might; returns the
/// warnings.
fn load_after_removing<R: Resource>(file: &SceneFile) -> (App, Vec<PhysicsWarning>) {
    let mut app = app_by_steps();
    app.world_mut().spawn((Collider::circle(30.0), Transform::default())); // replaced
    app.update();
    take_warnings(&mut app);
    app.world_mut().remove_resource::<R>();
    app.world_mut().commands().queue(LoadPhysicsScene(file.clone()));
    app.world_mut().flush();
    app.update();
    let warnings = take_warnings(&mut app);
    (app, warnings)
}

/// A removed resource of the plugin is put back at the start of the next frame or step
/// (R-PLUG-1), but a load queued in the frame of the removal ran before that: it reads and
/// writes `PhysicsWorld`, `PhysicsConfig`, `PhysicsBounds`, `PhysicsWalls` and
/// `PhysicsControls` and panicked the app ("Requested resource … does not exist"). The load
/// now finds each of them there, the removed one put back first with its warning.
#[test]
fn a_load_in_the_frame_a_plugin_resource_was_removed_loads_the_file_r_scn_1() {
    let original = pile();
    let file = physics(&original).scene_file();
    type Case = fn(&SceneFile) -> (App, Vec<PhysicsWarning>);
    let cases: [(&str, Case); 5] = [
        ("PhysicsWorld", load_after_removing::<PhysicsWorld>),
        ("PhysicsConfig", load_after_removing::<PhysicsConfig>),
        ("PhysicsBounds", load_after_removing::<PhysicsBounds>),
        ("PhysicsWalls", load_after_removing::<PhysicsWalls>),
        ("PhysicsControls", load_after_removing::<PhysicsControls>),
    ];
    for (name, case) in cases {
        let (app, warnings) = case(&file);
        assert_eq!(warnings.len(), 1, "{name}: {warnings:?}");
        assert!(warnings[0].message.starts_with(&format!("{name} was removed")), "{name}");
        assert_eq!(physics(&app).len(), file.bodies.len(), "{name}: the file's bodies");
        assert_eq!(physics(&app).step_count(), file_steps(&file) + 1, "{name}: loaded, one step");
    }
}

/// A clear asked for (`PhysicsControls::request_clear`, the panel's Clear) and a load queued
/// after it in the same frame: the clear waited for the next step and then wiped the world
/// the load had just put in place, entities and all. A load replaces the whole world, so it
/// does what the clear asked; the loaded bodies stay, and so does a clear asked for after it.
#[test]
fn a_load_after_a_clear_asked_for_in_the_same_frame_keeps_the_loaded_bodies_r_scn_1() {
    let original = pile();
    let file = physics(&original).scene_file();
    for clear_after_the_load in [false, true] {
        let mut app = app_by_steps();
        app.world_mut().spawn((Collider::circle(30.0), Transform::default())); // replaced
        app.update();
        app.world_mut().resource_mut::<PhysicsControls>().request_clear();
        app.world_mut().commands().queue(LoadPhysicsScene(file.clone()));
        app.world_mut().flush();
        if clear_after_the_load {
            app.world_mut().resource_mut::<PhysicsControls>().request_clear();
        }
        app.update();
        let bodies = if clear_after_the_load { 0 } else { file.bodies.len() };
        assert_eq!(physics(&app).len(), bodies, "cleared after the load: {clear_after_the_load}");
        let mut entities = app.world_mut().query_filtered::<(), With<Collider>>();
        assert_eq!(entities.iter(app.world()).count(), bodies);
        assert!(take_warnings(&mut app).is_empty());
    }
}

/// The step count a scene file's world starts at.
fn file_steps(file: &SceneFile) -> u64 {
    file.to_world().expect("the file loads").step_count()
}
