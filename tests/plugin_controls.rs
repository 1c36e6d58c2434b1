//! Run-time controls and live config: pause, single step, gravity toggle, clear, walls, and
//! config changes valid and invalid (R-CFG-2, R-CFG-3, R-SLP-4).
#![cfg(feature = "bevy")]

mod plugin_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_sandbox_physics::physics::Material;
use bevy_sandbox_physics::plugin::WallsFollowWindow;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Floor of the default world (1280 × 720 around the origin).
const FLOOR: f32 = -360.0;

fn controls(app: &mut App) -> Mut<'_, PhysicsControls> {
    app.world_mut().resource_mut::<PhysicsControls>()
}

fn config(app: &mut App) -> Mut<'_, PhysicsConfig> {
    app.world_mut().resource_mut::<PhysicsConfig>()
}

#[test]
fn pause_freezes_the_world_and_single_step_runs_exactly_one_step() {
    let mut app = app_with(SandboxPhysicsPlugin::default(), frame_144());
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 200.0, 0.0)));
    frames(&mut app, 20);
    controls(&mut app).paused = true;
    // Until the next fixed run the drawing may finish the last step (at most 1/120 s).
    frames(&mut app, 2);
    let (frozen_steps, frozen) = (steps(&app), drawn(&app, ball));
    // 144 Hz frames end at every fraction of a step: a paused body must not shake with them.
    for _ in 0..50 {
        app.update();
        assert_eq!(steps(&app), frozen_steps);
        assert_eq!(drawn(&app, ball), frozen);
    }

    controls(&mut app).request_single_step();
    app.update();
    assert_eq!(steps(&app), frozen_steps + 1, "one step, not one per fixed run");
    assert!(!app.world().resource::<PhysicsControls>().single_step, "the request is consumed");
    frames(&mut app, 5);
    assert_eq!(steps(&app), frozen_steps + 1);
    assert!(drawn(&app, ball).y < frozen.y, "the step moved the ball down");

    controls(&mut app).paused = false;
    frames(&mut app, 2);
    assert!(steps(&app) > frozen_steps + 1, "resumed");
}

#[test]
fn toggling_gravity_wakes_every_body_r_slp_4() {
    let mut app = app();
    let ball =
        spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, FLOOR + 20.0, 0.0)));
    let start = app.world().resource::<Time<Virtual>>().elapsed_secs();
    while app.world().get::<Sleeping>(ball).is_none() {
        app.update();
        let elapsed = app.world().resource::<Time<Virtual>>().elapsed_secs() - start;
        assert!(elapsed < 3.0, "the ball should fall asleep on the floor");
    }

    controls(&mut app).toggle_gravity();
    app.update();
    assert!(!physics(&app).world().gravity_enabled());
    assert!(app.world().get::<Sleeping>(ball).is_none(), "woken by the gravity toggle");

    // Without gravity, a ball pushed up keeps its speed and does not come down.
    app.world_mut().get_mut::<LinearVelocity>(ball).expect("velocity").0 = Vec2::new(0.0, 100.0);
    frames(&mut app, 60);
    assert!((get::<LinearVelocity>(&app, ball).y - 100.0).abs() < 1e-3);

    controls(&mut app).toggle_gravity();
    frames(&mut app, 20);
    assert!(get::<LinearVelocity>(&app, ball).y < 0.0, "gravity is back");
}

#[test]
fn a_live_gravity_change_takes_effect_next_step_r_cfg_2() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 10);
    assert!(get::<LinearVelocity>(&app, ball).y < 0.0, "falling");
    // The config is the core's, y down: a negative y pulls up on screen (+y in Bevy).
    config(&mut app).gravity = Vec2::new(0.0, -980.0);
    let before = get::<LinearVelocity>(&app, ball).y;
    app.update();
    let after = get::<LinearVelocity>(&app, ball).y;
    let dt = physics(&app).world().config().time_step;
    assert!((after - before - 2.0 * 980.0 * dt).abs() < 1e-2, "{before} -> {after}");
    assert_eq!(physics(&app).world().config().gravity, Vec2::new(0.0, -980.0));
}

/// The highest upward speed of a ball dropped onto the floor, over `seconds`.
fn rebound_speed(app: &mut App, ball: Entity, seconds: usize) -> f32 {
    let mut best = f32::MIN;
    for _ in 0..seconds * 60 {
        app.update();
        best = best.max(get::<LinearVelocity>(app, ball).y);
    }
    best
}

#[test]
fn a_live_restitution_change_takes_effect_next_step_r_cfg_2() {
    let dead = PhysicsMaterial(Material { density: 1.0, friction: 0.5, restitution: 0.0 });
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0), dead));
    let before = rebound_speed(&mut app, ball, 2);
    assert!(before < 1.0, "e = max(0, wall 0) = 0: no bounce, got {before}");

    // Walls of e = 1 make the contact elastic (e = max(e_A, e_B)).
    config(&mut app).wall_restitution = 1.0;
    app.world_mut().get_mut::<Transform>(ball).expect("transform").translation.y = 0.0;
    let after = rebound_speed(&mut app, ball, 2);
    // Dropped 340 px: v = √(2·980·340) ≈ 816 px/s, and back up at about that.
    assert!(after > 700.0, "bounces back up at {after} px/s");
}

#[test]
fn an_invalid_config_is_refused_and_the_last_valid_one_stays_r_cfg_3() {
    let mut app = app();
    spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    let valid = app.world().resource::<PhysicsConfig>().clone();
    let timestep = app.world().resource::<Time<Fixed>>().timestep();

    config(&mut app).time_step = -1.0;
    config(&mut app).rolling_resistance = f32::NAN;
    let before = steps(&app);
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = &warnings[0].message;
    for expected in ["time_step", "rolling_resistance", "allowed", "0.001 ..= 0.033"] {
        assert!(message.contains(expected), "{expected:?} missing in: {message}");
    }
    assert_eq!(*app.world().resource::<PhysicsConfig>(), valid, "the resource is reset");
    assert_eq!(*physics(&app).world().config(), valid, "the core keeps the valid config");
    assert_eq!(app.world().resource::<Time<Fixed>>().timestep(), timestep);
    assert_eq!(steps(&app) - before, 2, "and keeps stepping");

    // A combination that breaks an invariant is refused the same way.
    config(&mut app).time_step = 1.0 / 30.0;
    app.update();
    let warnings = take_warnings(&mut app);
    assert!(warnings[0].message.contains("max_speed"), "{}", warnings[0].message);
    assert_eq!(*physics(&app).world().config(), valid);
    frames(&mut app, 2);
    assert!(take_warnings(&mut app).is_empty(), "refused once, not every step");
}

#[test]
fn clearing_despawns_every_body_and_nothing_else() {
    let mut app = app();
    let bodies: Vec<Entity> = (0..5)
        .map(|i| {
            let x = -200.0 + 100.0 * i as f32;
            spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(x, 0.0, 0.0)))
        })
        .collect();
    let bystander = spawn(&mut app, Transform::default());
    frames(&mut app, 2);
    assert_eq!(physics(&app).len(), 5);

    controls(&mut app).request_clear();
    app.update();
    assert!(physics(&app).is_empty());
    assert_eq!(physics(&app).world().body_count(), 0);
    assert!(bodies.iter().all(|&e| app.world().get_entity(e).is_err()), "despawned");
    assert!(app.world().get_entity(bystander).is_ok());
    assert!(!app.world().resource::<PhysicsControls>().clear_requested);

    // The world goes on: new bodies work.
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    assert!(physics(&app).handle(ball).is_some());
}

/// A body entity disabled with Bevy's `Disabled` is hidden from ordinary queries: a clear
/// left it alive, and once enabled it was never simulated again. Now a clear despawns it
/// with every other body entity.
#[test]
fn clearing_despawns_disabled_body_entities_too_r_plug_3() {
    use bevy::ecs::entity_disabling::Disabled;

    let mut app = app();
    let simulated = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    let disabled = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(100.0, 0.0, 0.0)));
    frames(&mut app, 2);
    app.world_mut().entity_mut(disabled).insert(Disabled);
    frames(&mut app, 2);

    controls(&mut app).request_clear();
    app.update();
    assert!(app.world().get_entity(simulated).is_err(), "despawned");
    assert!(app.world().get_entity(disabled).is_err(), "despawned, though disabled");
    let mut colliders =
        app.world_mut().query_filtered::<Entity, (With<Collider>, Allow<Disabled>)>();
    assert_eq!(colliders.iter(app.world()).count(), 0, "no body entity is left");
    assert!(physics(&app).is_empty());
    assert_eq!(physics(&app).world().body_count(), 0);
}

#[test]
fn moving_the_walls_moves_the_core_walls_and_refuses_tiny_ones() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    let raised = Rect::from_corners(Vec2::new(-640.0, -100.0), Vec2::new(640.0, 360.0));
    app.world_mut().resource_mut::<PhysicsBounds>().0 = raised;
    frames(&mut app, 120);
    let y = drawn(&app, ball).y;
    assert!((y - (-100.0 + 20.0)).abs() < 1.5, "rests on the raised floor, y = {y}");

    let tiny = Rect::from_center_size(Vec2::ZERO, Vec2::splat(10.0));
    app.world_mut().resource_mut::<PhysicsBounds>().0 = tiny;
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("at least 24 px"), "{}", warnings[0].message);
    assert_eq!(app.world().resource::<PhysicsBounds>().0, raised, "the resource is reset");
}

#[test]
fn the_walls_follow_the_primary_window_when_asked() {
    let plugin = SandboxPhysicsPlugin::default().walls_follow_window(true);
    let mut app = app_with(plugin, frame_60());
    let window = app
        .world_mut()
        .spawn((Window { resolution: WindowResolution::new(800, 600), ..default() }, PrimaryWindow))
        .id();
    frames(&mut app, 2);
    let expected = Rect::from_center_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
    assert_eq!(app.world().resource::<PhysicsBounds>().0, expected);
    let mapping = physics(&app).mapping();
    assert_eq!(physics(&app).world().bounds(), mapping.rect_to_core(expected));

    app.world_mut().get_mut::<Window>(window).expect("window").resolution.set(1000.0, 500.0);
    frames(&mut app, 2);
    let expected = Rect::from_center_size(Vec2::ZERO, Vec2::new(1000.0, 500.0));
    assert_eq!(app.world().resource::<PhysicsBounds>().0, expected);

    // Issue 20: switched off, the walls keep a world of their own size while the window
    // changes; switched on again, they take the window's rectangle.
    app.world_mut().resource_mut::<WallsFollowWindow>().0 = false;
    let large = Rect::from_center_size(Vec2::ZERO, Vec2::new(6000.0, 2000.0));
    app.world_mut().resource_mut::<PhysicsBounds>().0 = large;
    frames(&mut app, 2);
    app.world_mut().get_mut::<Window>(window).expect("window").resolution.set(900.0, 700.0);
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<PhysicsBounds>().0, large, "the walls followed");
    let mapping = physics(&app).mapping();
    assert_eq!(physics(&app).world().bounds(), mapping.rect_to_core(large));
    app.world_mut().resource_mut::<WallsFollowWindow>().0 = true;
    frames(&mut app, 2);
    let expected = Rect::from_center_size(Vec2::ZERO, Vec2::new(900.0, 700.0));
    assert_eq!(app.world().resource::<PhysicsBounds>().0, expected, "switched on, not following");
}

/// `WallInsets` are judged like any other write (R-PLUG-1): an inset that is not finite or
/// is negative is refused with one warning naming the field and the allowed range, and the
/// last valid insets come back, so the walls never take a value like `left: -100000`.
#[test]
fn invalid_wall_insets_are_refused_by_name_and_put_back_r_plug_1() {
    let plugin = SandboxPhysicsPlugin::default().walls_follow_window(true);
    let mut app = app_with(plugin, frame_60());
    app.world_mut().spawn((
        Window { resolution: WindowResolution::new(800, 600), ..default() },
        PrimaryWindow,
    ));
    let valid = WallInsets { left: 100.0, right: 0.0, top: 40.0, bottom: 0.0 };
    app.insert_resource(valid);
    frames(&mut app, 2);
    let walls = Rect::from_corners(Vec2::new(-300.0, -300.0), Vec2::new(400.0, 260.0));
    assert_eq!(app.world().resource::<PhysicsBounds>().0, walls);
    take_warnings(&mut app);

    let bad = [
        (WallInsets { left: -100_000.0, ..valid }, vec!["WallInsets.left"]),
        (WallInsets { left: f32::NAN, right: f32::NAN, ..valid }, vec!["left", "right"]),
        (WallInsets { top: f32::NEG_INFINITY, ..valid }, vec!["WallInsets.top"]),
        (WallInsets { left: 1e30, right: -1e30, ..valid }, vec!["WallInsets.right"]),
        (WallInsets { bottom: f32::INFINITY, ..valid }, vec!["WallInsets.bottom"]),
    ];
    for (insets, fields) in bad {
        // Whether or not the walls follow the window at the time.
        for follow in [true, false] {
            app.world_mut().resource_mut::<WallsFollowWindow>().0 = follow;
            app.insert_resource(insets);
            app.update();
            let warnings = take_warnings(&mut app);
            assert_eq!(warnings.len(), 1, "{insets:?}: one warning: {warnings:?}");
            let message = &warnings[0].message;
            assert!(!message.contains("PhysicsBounds"), "{message}");
            assert!(message.contains("finite, at least 0 px"), "the range: {message}");
            for field in &fields {
                assert!(message.contains(field), "{insets:?}: {field} not named: {message}");
            }
            assert_eq!(*app.world().resource::<WallInsets>(), valid, "put back");
            frames(&mut app, 2);
            assert_eq!(take_warnings(&mut app), vec![], "said once");
            assert_eq!(app.world().resource::<PhysicsBounds>().0, walls, "{insets:?}");
        }
    }
    // Valid insets still move the walls.
    app.world_mut().resource_mut::<WallsFollowWindow>().0 = true;
    app.insert_resource(WallInsets::default());
    frames(&mut app, 2);
    let window = Rect::from_center_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
    assert_eq!(app.world().resource::<PhysicsBounds>().0, window);
    assert_eq!(take_warnings(&mut app), vec![]);
}

#[test]
fn a_paused_virtual_clock_stops_the_world_too() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 5);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    let (before, at) = (steps(&app), drawn(&app, ball));
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(Duration::from_millis(7)));
    frames(&mut app, 10);
    assert_eq!(steps(&app), before);
    assert_eq!(drawn(&app, ball), at);
}

#[test]
fn physics_config_is_a_reflected_and_serializable_resource_r_cfg_2() {
    use bevy::ecs::reflect::ReflectResource;
    use bevy::reflect::{PartialReflect, ReflectRef, TypePath};

    let mut app = app();
    // Reflection: the registry knows it as a resource, and every field is reflected by name.
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let registration = registry.read().get_with_type_path(PhysicsConfig::type_path()).cloned();
    let registration = registration.expect("PhysicsConfig is registered");
    assert!(registration.data::<ReflectResource>().is_some(), "registered as a resource");
    let resource: &dyn PartialReflect = app.world().resource::<PhysicsConfig>();
    let ReflectRef::Struct(reflected) = resource.reflect_ref() else { panic!("a struct") };
    assert_eq!(reflected.field_len(), PhysicsConfig::PARAMETERS.len());
    let time_step = reflected.field("time_step").and_then(|f| f.try_downcast_ref::<f32>());
    assert_eq!(time_step, Some(&(1.0 / 120.0)));

    // Serde: a config written and read back is the same, and takes effect like any other.
    let loud = PhysicsConfig { gravity: Vec2::new(0.0, 500.0), ..PhysicsConfig::default() };
    let text = serde_json::to_string(&loud).expect("serialize");
    let read: PhysicsConfig = serde_json::from_str(&text).expect("deserialize");
    assert_eq!(read, loud);
    *config(&mut app) = read;
    app.update();
    assert_eq!(physics(&app).world().config().gravity, Vec2::new(0.0, 500.0));
}

/// R-SCN-2 (slow motion): a time scale changes how many fixed steps run per second of real
/// time, not the step: at 0.25 a second of 60 Hz frames runs 120 × 0.25 = 30 steps, and the
/// states are the very ones the world at full speed reaches after 30 steps. A scale outside
/// 0.05 ..= 2 is refused with a warning naming the range, and the last valid one stays.
#[test]
fn slow_motion_runs_fewer_steps_of_the_same_size_and_refuses_bad_scales() {
    let mut slow = app_with(SandboxPhysicsPlugin::default(), frame_60());
    let mut full = app_with(SandboxPhysicsPlugin::default(), frame_60());
    let drop = (Collider::circle(20.0), Transform::from_xyz(0.0, 200.0, 0.0));
    let (a, b) = (spawn(&mut slow, drop), spawn(&mut full, drop));
    slow.world_mut().resource_mut::<PhysicsTimeScale>().0 = 0.25;
    frames(&mut slow, 1);
    frames(&mut full, 1);
    let (start_slow, start_full) = (steps(&slow), steps(&full));
    frames(&mut slow, 60);
    frames(&mut full, 15);
    let (ran_slow, ran_full) = (steps(&slow) - start_slow, steps(&full) - start_full);
    assert_eq!((ran_slow, ran_full), (30, 30), "a second at 0.25 and a quarter second at 1");
    let pose = |app: &App, e| {
        physics(app).world().body(physics(app).handle(e).unwrap()).unwrap().position()
    };
    assert_eq!(pose(&slow, a), pose(&full, b), "slow motion changed the states");

    take_warnings(&mut slow);
    for bad in [0.0, 2.5, f32::NAN] {
        slow.world_mut().resource_mut::<PhysicsTimeScale>().0 = bad;
        frames(&mut slow, 1);
        let warnings = take_warnings(&mut slow);
        assert!(
            warnings.iter().any(|w| w.message.contains("0.05 to 2")),
            "{bad}: no warning naming the range: {warnings:?}"
        );
        assert_eq!(slow.world().resource::<PhysicsTimeScale>().0, 0.25, "{bad} was kept");
    }
    let before = steps(&slow);
    frames(&mut slow, 60);
    assert_eq!(steps(&slow) - before, 30, "the refused scales changed the speed");
}

/// Where in a frame a test removes a resource.
#[derive(Clone, Copy, Debug)]
enum Removal {
    /// Between two updates.
    BetweenFrames,
    /// By a system in `PreUpdate`, before or after the plugin's there.
    PreUpdate,
    /// By a system in `FixedUpdate`, before the step's `Prepare`.
    FixedUpdate,
    /// By a system in `Update`, before the interpolation.
    Update,
}

/// Removes `R` once, from an exclusive system.
fn remove_once<R: Resource>(world: &mut World, mut done: Local<bool>) {
    if !*done {
        *done = true;
        world.remove_resource::<R>();
    }
}

/// Removes `R` from an app with a falling ball, walls following a window and a changed
/// config; checks that nothing panics, that `R` is back with one warning naming it, and that
/// the ball is still simulated where it was. Returns the app and the ball.
fn remove_resource<R: Resource>(name: &str, removal: Removal) -> (App, Entity) {
    let plugin = SandboxPhysicsPlugin::default().walls_follow_window(true);
    let mut app = app_with(plugin, frame_60());
    app.world_mut().spawn((
        Window { resolution: WindowResolution::new(800, 600), ..default() },
        PrimaryWindow,
    ));
    app.insert_resource(WallInsets { top: 40.0, ..default() });
    config(&mut app).gravity = Vec2::new(0.0, 500.0);
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, 0.0)));
    frames(&mut app, 10);
    let before = (drawn(&app, ball), get::<LinearVelocity>(&app, ball).0);
    take_warnings(&mut app);
    match removal {
        Removal::BetweenFrames => {
            app.world_mut().remove_resource::<R>();
        }
        Removal::PreUpdate => {
            app.add_systems(PreUpdate, remove_once::<R>);
        }
        Removal::FixedUpdate => {
            app.add_systems(FixedUpdate, remove_once::<R>.before(PhysicsSystems::Prepare));
        }
        Removal::Update => {
            app.add_systems(Update, remove_once::<R>.before(PhysicsSystems::Interpolate));
        }
    }
    let mut warnings = Vec::new();
    for _ in 0..4 {
        app.update();
        warnings.extend(take_warnings(&mut app));
    }
    let case = format!("{name} removed {removal:?}");
    assert!(app.world().contains_resource::<R>(), "{case}: not put back");
    assert_eq!(warnings.len(), 1, "{case}: one warning: {warnings:?}");
    let message = &warnings[0].message;
    assert!(message.starts_with(&format!("{name} was removed")), "{case}: {message}");
    assert!(message.contains("put back"), "{case}: {message}");

    // The ball is still simulated, where it was, and falls on.
    assert!(physics(&app).handle(ball).is_some(), "{case}: the ball left the simulation");
    let (at, velocity) = (drawn(&app, ball), get::<LinearVelocity>(&app, ball).0);
    assert!((at.x - before.0.x).abs() < 1e-3, "{case}: moved sideways from {} to {at}", before.0);
    assert!(at.y < before.0.y && at.y > before.0.y - 20.0, "{case}: {} to {at}", before.0);
    assert!(velocity.y < before.1.y, "{case}: not falling on: {velocity}");
    // What is in force came back: the config, the walls, the insets, the time scale.
    assert_eq!(physics(&app).world().config().gravity, Vec2::new(0.0, 500.0), "{case}");
    assert_eq!(app.world().resource::<PhysicsConfig>().gravity, Vec2::new(0.0, 500.0), "{case}");
    let walls = Rect::from_corners(Vec2::new(-400.0, -300.0), Vec2::new(400.0, 260.0));
    assert_eq!(app.world().resource::<PhysicsBounds>().0, walls, "{case}");
    assert_eq!(app.world().resource::<WallInsets>().top, 40.0, "{case}");
    assert_eq!(app.world().resource::<PhysicsTimeScale>().0, 1.0, "{case}");
    frames(&mut app, 3);
    assert_eq!(take_warnings(&mut app), vec![], "{case}: said once");
    (app, ball)
}

/// R-PLUG-1: removing one of the plugin's resources is a write it cannot take; it panicked
/// the app ("Parameter `ResMut<PhysicsConfig>` failed validation"). Now, wherever in the
/// frame it happens, the resource is put back with what is in force and one warning naming
/// it, and no body is lost: a removed `PhysicsWorld` comes back with every body entity in it.
#[test]
fn a_removed_plugin_resource_is_put_back_with_one_warning_naming_it_r_plug_1() {
    use bevy_sandbox_physics::plugin::{DragSettings, PhysicsDebugDraw, PhysicsStatistics};
    let removals =
        [Removal::BetweenFrames, Removal::PreUpdate, Removal::FixedUpdate, Removal::Update];
    type Case = fn(&str, Removal) -> (App, Entity);
    let cases: [(&str, Case); 10] = [
        ("PhysicsConfig", remove_resource::<PhysicsConfig>),
        ("PhysicsControls", remove_resource::<PhysicsControls>),
        ("PhysicsBounds", remove_resource::<PhysicsBounds>),
        ("PhysicsTimeScale", remove_resource::<PhysicsTimeScale>),
        ("PhysicsWalls", remove_resource::<PhysicsWalls>),
        ("WallInsets", remove_resource::<WallInsets>),
        ("WallsFollowWindow", remove_resource::<WallsFollowWindow>),
        ("PhysicsStatistics", remove_resource::<PhysicsStatistics>),
        ("PhysicsDebugDraw", remove_resource::<PhysicsDebugDraw>),
        ("DragSettings", remove_resource::<DragSettings>),
    ];
    for removal in removals {
        for (name, case) in cases {
            let _ = case(name, removal);
        }
        let (mut app, ball) = remove_resource::<PhysicsWorld>("PhysicsWorld", removal);
        assert_eq!(physics(&app).len(), 1, "{removal:?}: one body, one entity");
        // The walls of the new world are the old ones: the ball comes to rest on the floor.
        frames(&mut app, 300);
        let y = drawn(&app, ball).y;
        assert!((y - (-300.0 + 20.0)).abs() < 2.0, "{removal:?}: rests at {y}");
    }
}

/// A kinematic body may leave the world (walls neither touch nor brake it, R-GAME-4), and a
/// static one stays where it is when the walls are moved in past it. A removed
/// `PhysicsWorld` came back with every other body entity in it, but these two were judged
/// as new spawns and refused as lying outside the walls ("not simulated until its Transform
/// or one of its physics components changes"): two bodies lost, although the world rebuilt
/// in place of a removed one is to hold every body entity again.
#[test]
fn a_rebuilt_physics_world_keeps_the_bodies_that_lie_outside_the_walls_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let kinematic = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            RigidBody::Kinematic,
            Transform::from_xyz(500.0, 0.0, 0.0),
            LinearVelocity(Vec2::new(600.0, 0.0)),
        ),
    );
    let scenery = spawn(
        &mut app,
        (Collider::rectangle(40.0, 40.0), RigidBody::Static, Transform::from_xyz(-500.0, 0.0, 0.0)),
    );
    // Half a second: the kinematic body is past the right wall (x = 640); then the walls
    // move in past the static one.
    frames(&mut app, 30);
    app.world_mut().resource_mut::<PhysicsBounds>().0 =
        Rect::from_center_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
    frames(&mut app, 2);
    assert!(drawn(&app, kinematic).x > 700.0, "{}", drawn(&app, kinematic));
    assert!(physics(&app).handle(scenery).is_some());
    take_warnings(&mut app);

    app.world_mut().remove_resource::<PhysicsWorld>();
    let before = drawn(&app, kinematic).x;
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "only the removal is said: {warnings:?}");
    for body in [kinematic, scenery] {
        assert!(physics(&app).handle(body).is_some(), "{body} lost by the rebuilt world");
    }
    assert_eq!(physics(&app).len(), 2);
    assert!(drawn(&app, kinematic).x > before, "the kinematic body moves on");
    assert_eq!(drawn(&app, scenery), Vec2::new(-500.0, 0.0));
}

/// A dynamic body may lie outside the walls for a moment: the walls moved in past it (as a
/// window shrinks) or a wall was switched on behind a ball that had flown out through it,
/// and the next steps push it back in. A `PhysicsWorld` removed in that moment came back
/// without it: the rebuilt world judged the entity as a new spawn, and a new dynamic body
/// is refused outside the walls ("lies outside the walls … not simulated until its
/// Transform or one of its physics components changes"), although every body entity is to
/// join the rebuilt world again, and the old world would have kept it and brought it in.
#[test]
fn a_rebuilt_physics_world_keeps_a_dynamic_body_the_walls_moved_past_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(-500.0, 0.0, 0.0)));
    frames(&mut app, 2);
    assert!(physics(&app).handle(ball).is_some());
    take_warnings(&mut app);

    // The walls move in past the ball (x = -400) in the frame the world is removed.
    app.world_mut().resource_mut::<PhysicsBounds>().0 =
        Rect::from_center_size(Vec2::ZERO, Vec2::new(800.0, 600.0));
    app.world_mut().remove_resource::<PhysicsWorld>();
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "only the removal is said: {warnings:?}");
    assert!(physics(&app).handle(ball).is_some(), "the ball lost by the rebuilt world");
    frames(&mut app, 60);
    let x = drawn(&app, ball).x;
    assert!((-400.0..400.0).contains(&x), "the walls bring the ball in: at x = {x}");
}
