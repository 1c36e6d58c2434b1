//! Collision events, sensors and layers through the plugin: messages, entity observers and
//! component changes at run time (R-GAME-1, R-GAME-2, R-GAME-3).
//!
//! The default world is 1280 × 720 px around the origin (floor at y = −360), gravity
//! 980 px/s² downwards, 120 steps per second.
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_sandbox_physics::physics::{CollisionLayers, Material, WallId};
use bevy_sandbox_physics::plugin::{
    CollisionEnd, CollisionEventsEnabled, CollisionStart, EntityOrWall, Sensor,
};
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

const FLOOR: f32 = -360.0;

/// Wood that does not bounce: one landing is one contact period.
const DEAD: Material = Material { restitution: 0.0, ..Material::WOOD };

/// What the observers heard, in order.
#[derive(Resource, Default)]
struct Heard(Vec<String>);

/// Every message of both kinds since the last call.
fn messages(app: &mut App) -> (Vec<CollisionStart>, Vec<CollisionEnd>) {
    let starts = app.world_mut().resource_mut::<Messages<CollisionStart>>().drain().collect();
    let ends = app.world_mut().resource_mut::<Messages<CollisionEnd>>().drain().collect();
    (starts, ends)
}

/// Runs `n` frames, collecting the messages of each.
fn run(app: &mut App, n: usize) -> (Vec<CollisionStart>, Vec<CollisionEnd>) {
    let (mut starts, mut ends) = (Vec::new(), Vec::new());
    for _ in 0..n {
        app.update();
        let (s, e) = messages(app);
        starts.extend(s);
        ends.extend(e);
    }
    (starts, ends)
}

/// Adds observers on `entity` that log "start <other>" and "end <other>" into `Heard`.
fn listen(app: &mut App, entity: Entity, name: &'static str) {
    app.world_mut()
        .entity_mut(entity)
        .observe(move |hit: On<CollisionStart>, mut heard: ResMut<Heard>| {
            assert_eq!(hit.event().entity, hit.event_target(), "seen from the observed body");
            heard.0.push(format!("{name} start {:?}", hit.event().other));
        })
        .observe(move |hit: On<CollisionEnd>, mut heard: ResMut<Heard>| {
            heard.0.push(format!("{name} end {:?}", hit.event().other));
        });
}

#[test]
fn a_ball_landing_on_the_floor_sends_one_start_with_the_floor_normal_r_game_1() {
    let mut app = app();
    app.init_resource::<Heard>();
    let ball = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            PhysicsMaterial(DEAD),
            Transform::from_xyz(0.0, FLOOR + 60.0, 0.0),
            CollisionEventsEnabled,
        ),
    );
    listen(&mut app, ball, "ball");
    let (starts, ends) = run(&mut app, 120);
    assert_eq!(starts.len(), 1, "one contact period: {starts:?} {ends:?}");
    let start = starts[0];
    assert_eq!((start.entity, start.other), (ball, EntityOrWall::Wall(WallId::Floor)));
    // From the ball to the floor: down in Bevy's frame; the contact near the floor line.
    assert!((start.normal - Vec2::NEG_Y).length() < 1e-5, "normal {}", start.normal);
    assert!((start.point.y - FLOOR).abs() < 2.0 && start.point.x.abs() < 1e-3, "{start:?}");
    assert!(start.normal_impulse > 0.0 && !start.sensor);
    assert!(ends.is_empty(), "it rests on the floor: {ends:?}");
    assert_eq!(app.world().resource::<Heard>().0, ["ball start Wall(Floor)"]);
}

#[test]
fn two_bodies_hear_each_other_once_per_contact_period_r_game_1() {
    let mut app = app();
    gravity_off(&mut app);
    app.init_resource::<Heard>();
    // Only the left ball opts in; the pair is reported to both.
    let left = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            Transform::from_xyz(-100.0, 0.0, 0.0),
            LinearVelocity(Vec2::new(300.0, 0.0)),
            PhysicsMaterial::RUBBER,
            CollisionEventsEnabled,
        ),
    );
    let right = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(100.0, 0.0, 0.0), PhysicsMaterial::RUBBER),
    );
    listen(&mut app, left, "left");
    listen(&mut app, right, "right");
    let (starts, ends) = run(&mut app, 60);
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert_eq!(ends.len(), 1, "they bounce apart: {ends:?}");
    let heard = &app.world().resource::<Heard>().0;
    let expected = [
        format!("left start {:?}", EntityOrWall::Entity(right)),
        format!("right start {:?}", EntityOrWall::Entity(left)),
        format!("left end {:?}", EntityOrWall::Entity(right)),
        format!("right end {:?}", EntityOrWall::Entity(left)),
    ];
    assert_eq!(heard.as_slice(), expected.as_slice());
}

#[test]
fn a_ball_falls_through_a_sensor_at_free_fall_and_the_sensor_reports_it_r_game_2() {
    let mut app = app();
    let gate = spawn(
        &mut app,
        (
            Collider::rectangle(200.0, 40.0),
            RigidBody::Static,
            Sensor,
            Transform::from_xyz(0.0, 0.0, 0.0),
        ),
    );
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, 0.0)));
    step_once(&mut app);
    let (steps_before, v0) = (steps(&app), get::<LinearVelocity>(&app, ball).0.y);
    // 0.75 s: y = 100 − ½·980·0.75² ≈ −175, well below the gate (−20 … 20).
    let (starts, ends) = run(&mut app, 45);
    let n = (steps(&app) - steps_before) as f32;
    let v = get::<LinearVelocity>(&app, ball).0.y;
    // Free fall: Δv = −g·n·dt (1e-3 relative for the f32 sums).
    let expected = -980.0 * n / 120.0;
    assert!((v - v0 - expected).abs() < 1e-3 * expected.abs(), "Δv {} vs {expected}", v - v0);
    assert!(drawn(&app, ball).y < -60.0, "passed through the sensor");
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert!(starts[0].sensor && ends[0].sensor);
    let pair = [starts[0].entity, starts[0].other.entity().expect("a body")];
    assert!(pair.contains(&gate) && pair.contains(&ball), "{pair:?}");
}

#[test]
fn layers_let_bodies_pass_and_a_change_takes_effect_at_run_time_r_game_3() {
    let mut app = app();
    gravity_off(&mut app);
    let ghost = CollisionLayers::new(0b01, 0b01);
    let solid = CollisionLayers::new(0b10, 0b10);
    let a = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            Transform::from_xyz(-100.0, 0.0, 0.0),
            LinearVelocity(Vec2::X * 200.0),
            ghost,
        ),
    );
    let b = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0), solid));
    frames(&mut app, 60);
    assert_eq!(get::<LinearVelocity>(&app, a).0, Vec2::X * 200.0, "passed through untouched");
    assert_eq!(get::<LinearVelocity>(&app, b).0, Vec2::ZERO);
    assert!(drawn(&app, a).x > 50.0, "beyond b");

    // Now on b's layer, and thrown back at it: they collide.
    app.world_mut().entity_mut(a).insert((solid, LinearVelocity(Vec2::X * -200.0)));
    frames(&mut app, 60);
    assert!(
        get::<LinearVelocity>(&app, b).0.x < -1.0,
        "b was hit: {}",
        get::<LinearVelocity>(&app, b).0
    );
}

#[test]
fn removing_the_sensor_marker_makes_the_body_solid_r_game_2() {
    let mut app = app();
    let shelf = spawn(
        &mut app,
        (
            Collider::rectangle(300.0, 40.0),
            RigidBody::Static,
            Sensor,
            Transform::from_xyz(0.0, -100.0, 0.0),
        ),
    );
    step_once(&mut app);
    app.world_mut().entity_mut(shelf).remove::<Sensor>();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 90);
    let y = drawn(&app, ball).y;
    assert!((y - (-100.0 + 20.0 + 20.0)).abs() < 1.5, "rests on the shelf at y = −60, got {y}");
}

#[test]
fn a_despawned_body_ends_its_contacts_in_the_next_step_r_game_1() {
    let mut app = app();
    app.init_resource::<Heard>();
    let shelf = spawn(
        &mut app,
        (
            Collider::rectangle(300.0, 40.0),
            RigidBody::Static,
            PhysicsMaterial(DEAD),
            Transform::from_xyz(0.0, -100.0, 0.0),
            CollisionEventsEnabled,
        ),
    );
    let ball = spawn(
        &mut app,
        (Collider::circle(20.0), PhysicsMaterial(DEAD), Transform::from_xyz(0.0, -50.0, 0.0)),
    );
    listen(&mut app, shelf, "shelf");
    let (starts, _) = run(&mut app, 30);
    assert_eq!(starts.len(), 1, "the ball landed: {starts:?}");
    app.world_mut().despawn(ball);
    let (starts, ends) = run(&mut app, 3);
    assert!(starts.is_empty());
    assert_eq!(ends.len(), 1, "{ends:?}");
    let pair = [ends[0].entity, ends[0].other.entity().expect("a body")];
    assert!(pair.contains(&ball) && pair.contains(&shelf), "names the despawned entity: {pair:?}");
    assert_eq!(
        app.world().resource::<Heard>().0,
        [
            format!("shelf start {:?}", EntityOrWall::Entity(ball)),
            format!("shelf end {:?}", EntityOrWall::Entity(ball))
        ],
        "the living body hears the end; the despawned one is not triggered"
    );
}
