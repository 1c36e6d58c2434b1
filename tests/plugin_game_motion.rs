//! Game motion through the plugin's components: constant forces and torques, gravity scales,
//! impulses, kinematic bodies and walls switched off (R-GAME-4, R-GAME-5, R-GAME-7).
//!
//! Expected values are the core's semi-implicit Euler integration (docs/physics.md §3 and
//! "Game motion"): per step `v += (s·g + F/m)·dt`, `ω += τ/I·dt`, `x += v·dt`.
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::prelude::*;
use bevy_sandbox_physics::physics::{CollisionLayers, Material};
use bevy_sandbox_physics::plugin::Sensor;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// The fixed step, s.
const DT: f32 = 1.0 / 120.0;

/// The mass of a wooden circle of radius `r`: area × density.
fn circle_mass(r: f32) -> f32 {
    std::f32::consts::PI * r * r * Material::WOOD.density
}

#[test]
fn a_constant_force_accelerates_a_body_by_f_over_m_r_game_5() {
    let mut app = app();
    gravity_off(&mut app);
    let r = 20.0;
    let force = Vec2::new(3.0e5, 0.0);
    let ball = spawn(&mut app, (Collider::circle(r), Transform::default(), ConstantForce(force)));
    step_once(&mut app);
    let start = (steps(&app), get::<LinearVelocity>(&app, ball).0);
    frames(&mut app, 30);
    let n = (steps(&app) - start.0) as f32;
    let v = get::<LinearVelocity>(&app, ball).0;
    // Δv = F·t/m over n steps; f32 sums of n equal terms: 1e-3 relative.
    let expected = force.x / circle_mass(r) * DT * n;
    assert!(((v.x - start.1.x) - expected).abs() < 1e-3 * expected, "Δv {} vs {expected}", v.x);
    assert!(v.y.abs() < 1e-4, "no sideways motion: {}", v.y);

    // Removing the force stops the acceleration.
    app.world_mut().entity_mut(ball).remove::<ConstantForce>();
    step_once(&mut app);
    let before = get::<LinearVelocity>(&app, ball).0;
    frames(&mut app, 10);
    assert_eq!(get::<LinearVelocity>(&app, ball).0, before, "no force, no gravity: constant");
}

#[test]
fn a_constant_torque_spins_a_circle_counter_clockwise_by_tau_over_i_r_game_5() {
    let mut app = app();
    gravity_off(&mut app);
    let r = 20.0;
    let torque = 2.0e7;
    let ball = spawn(&mut app, (Collider::circle(r), Transform::default(), ConstantTorque(torque)));
    step_once(&mut app);
    let start = (steps(&app), get::<AngularVelocity>(&app, ball).0);
    frames(&mut app, 20);
    let n = (steps(&app) - start.0) as f32;
    let inertia = 0.5 * circle_mass(r) * r * r;
    let expected = torque / inertia * DT * n;
    let w = get::<AngularVelocity>(&app, ball).0 - start.1;
    assert!(expected > 0.0 && (w - expected).abs() < 1e-3 * expected, "Δω {w} vs {expected}");
}

#[test]
fn gravity_scale_zero_floats_and_two_falls_twice_as_fast_r_game_5() {
    let mut app = app();
    let floating = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(-200.0, 0.0, 0.0), GravityScale(0.0)),
    );
    let normal = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    let double = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(200.0, 0.0, 0.0), GravityScale(2.0)),
    );
    frames(&mut app, 20);
    let v = |app: &App, e| get::<LinearVelocity>(app, e).0.y;
    assert_eq!(v(&app, floating), 0.0, "scale 0 floats");
    let (normal_v, double_v) = (v(&app, normal), v(&app, double));
    assert!(normal_v < 0.0, "falls (y up)");
    assert!((double_v - 2.0 * normal_v).abs() < 1e-3 * normal_v.abs(), "twice as fast");

    // Removed: back to normal gravity.
    app.world_mut().entity_mut(double).remove::<GravityScale>();
    frames(&mut app, 5);
    let (dv_normal, dv_double) = {
        let (a, b) = (v(&app, normal), v(&app, double));
        frames(&mut app, 5);
        (v(&app, normal) - a, v(&app, double) - b)
    };
    assert!((dv_double - dv_normal).abs() < 1e-3 * dv_normal.abs(), "scale 1 again");
}

#[test]
fn an_impulse_off_centre_gives_j_over_m_and_spin_r_cross_j_over_i_r_game_5() {
    let mut app = app();
    gravity_off(&mut app);
    let r = 20.0;
    let ball = spawn(&mut app, (Collider::circle(r), Transform::default()));
    step_once(&mut app);
    let impulse = Vec2::new(1.0e4, 0.0);
    // At the top of the circle (y up): r = (0, 20), r × J = 0·0 − 20·1e4 < 0: clockwise.
    let point = Vec2::new(0.0, r);
    app.world_mut()
        .resource_mut::<PhysicsWorld>()
        .apply_impulse_at(ball, impulse, point)
        .expect("a dynamic body");
    step_once(&mut app);
    let m = circle_mass(r);
    let v = get::<LinearVelocity>(&app, ball).0;
    assert!((v.x - impulse.x / m).abs() < 1e-4 * impulse.x / m, "Δv = J/m: {}", v.x);
    let w = get::<AngularVelocity>(&app, ball).0;
    let expected = (point.x * impulse.y - point.y * impulse.x) / (0.5 * m * r * r);
    assert!((w - expected).abs() < 1e-4 * expected.abs(), "Δω = r × J / I: {w} vs {expected}");
}

#[test]
fn refused_forces_and_impulses_warn_once_and_change_nothing_r_game_5() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::default()));
    let shelf = spawn(
        &mut app,
        (
            Collider::rectangle(100.0, 40.0),
            RigidBody::Static,
            Transform::from_xyz(0.0, -200.0, 0.0),
        ),
    );
    step_once(&mut app);
    take_warnings(&mut app);
    app.world_mut().entity_mut(ball).insert(ConstantForce(Vec2::new(f32::NAN, 0.0)));
    app.world_mut().entity_mut(shelf).insert(ConstantForce(Vec2::new(10.0, 0.0)));
    step_once(&mut app);
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 2, "one warning each: {warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("ConstantForce") && w.message.contains("finite")),
        "{warnings:?}"
    );
    assert_eq!(get::<ConstantForce>(&app, ball).0, Vec2::ZERO, "put back");
    assert_eq!(
        get::<ConstantForce>(&app, shelf).0,
        Vec2::ZERO,
        "put back: a static body takes no force"
    );
    assert!(get::<LinearVelocity>(&app, ball).0.is_finite());
    for _ in 0..10 {
        step_once(&mut app);
        assert_eq!(take_warnings(&mut app), vec![], "no repeated warning");
    }

    let mut physics = app.world_mut().resource_mut::<PhysicsWorld>();
    assert!(matches!(physics.apply_impulse(ball, Vec2::INFINITY), Err(BodyError::Refused(_))));
    let nobody = Entity::from_raw_u32(4_000).expect("a valid index");
    assert_eq!(physics.apply_impulse(nobody, Vec2::X), Err(BodyError::NotABody(nobody)));
}

#[test]
fn a_kinematic_paddle_moves_at_its_velocity_and_pushes_a_ball_r_game_4() {
    let mut app = app();
    gravity_off(&mut app);
    let speed = 200.0;
    let paddle = spawn(
        &mut app,
        (
            Collider::rectangle(40.0, 200.0),
            RigidBody::Kinematic,
            Transform::from_xyz(-300.0, 0.0, 0.0),
            LinearVelocity(Vec2::new(speed, 0.0)),
        ),
    );
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(-200.0, 0.0, 0.0)));
    step_once(&mut app);
    let (start_steps, start_x) = (
        steps(&app),
        physics(&app).world().body(physics(&app).handle(paddle).unwrap()).unwrap().position().x,
    );
    frames(&mut app, 60);
    let n = (steps(&app) - start_steps) as f32;
    let x = physics(&app).world().body(physics(&app).handle(paddle).unwrap()).unwrap().position().x;
    // x = x0 + v·t exactly as the paddle is not pushed back (f32 sums: 1e-3 px).
    assert!(
        (x - start_x - speed * DT * n).abs() < 1e-2,
        "paddle x {x}, expected {}",
        start_x + speed * DT * n
    );
    assert_eq!(
        get::<LinearVelocity>(&app, paddle).0,
        Vec2::new(speed, 0.0),
        "its velocity unchanged"
    );
    assert!(get::<LinearVelocity>(&app, ball).0.x >= speed - 1.0, "the ball was pushed along");
    assert!(drawn(&app, ball).x > drawn(&app, paddle).x + 20.0, "in front of the paddle");
}

#[test]
fn a_world_without_side_walls_lets_a_thrown_body_leave_r_game_7() {
    let mut app = app();
    gravity_off(&mut app);
    app.world_mut().insert_resource(PhysicsWalls {
        left: false,
        right: false,
        ..PhysicsWalls::ALL
    });
    let ball = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            Transform::from_xyz(600.0, 0.0, 0.0),
            LinearVelocity(Vec2::new(600.0, 0.0)),
        ),
    );
    frames(&mut app, 60);
    let x = drawn(&app, ball).x;
    // One second at 600 px/s from x = 600: about 1200, far past the right wall at 640.
    assert!(x > 1100.0, "kept going past the open side: x = {x}");
    assert_eq!(get::<LinearVelocity>(&app, ball).0, Vec2::new(600.0, 0.0), "unbraked");

    // The floor still acts: switched back on, the right wall is there again.
    app.world_mut().insert_resource(PhysicsWalls::ALL);
    step_once(&mut app);
    assert!(physics(&app).world().wall_enabled(bevy_sandbox_physics::physics::WallId::Right));
}

#[test]
fn components_removed_between_steps_at_a_high_frame_rate_are_taken_back_r_game_5() {
    // 1,000 frames per second against 120 steps: about seven frames in eight have no step,
    // longer than removal messages last (two frames).
    let mut app = app_with(SandboxPhysicsPlugin::default(), std::time::Duration::from_millis(1));
    gravity_off(&mut app);
    let ball = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            Transform::default(),
            ConstantForce(Vec2::new(3.0e5, 0.0)),
            GravityScale(0.5),
            Sensor,
            CollisionLayers::new(0b1, 0b1),
        ),
    );
    step_once(&mut app);
    let handle = physics(&app).handle(ball).expect("simulated");
    assert_eq!(physics(&app).world().gravity_scale(handle), Ok(0.5), "given to the core");
    app.world_mut()
        .entity_mut(ball)
        .remove::<(ConstantForce, GravityScale, Sensor, CollisionLayers)>();
    step_once(&mut app);
    let world = physics(&app).world();
    assert_eq!(world.force(handle), Ok(Vec2::ZERO), "the force was taken back");
    assert_eq!(world.gravity_scale(handle), Ok(1.0), "gravity scale 1 again");
    let body = world.body(handle).expect("still simulated");
    assert!(!body.is_sensor(), "no longer a sensor");
    assert_eq!(body.layers(), CollisionLayers::ALL, "every layer again");
}

/// The warnings of the next `n` frames (a message lasts two frames: read after each one).
fn warned_in(app: &mut App, n: usize) -> Vec<PhysicsWarning> {
    (0..n).flat_map(|_| (app.update(), take_warnings(app)).1).collect()
}

/// Turning a body static or kinematic is not a write to its game components: they stay as
/// the game set them, without a warning, and act again once the body is dynamic. A value
/// written while the body is not dynamic is still refused (warned once, put back).
#[test]
fn a_kind_change_keeps_the_force_and_gravity_scale_for_when_the_body_is_dynamic_r_game_5() {
    let mut app = app();
    let force = Vec2::new(3.0e5, 0.0);
    let ball = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            Transform::default(),
            GravityScale(2.0),
            ConstantForce(force),
            ConstantTorque(2.0e7),
        ),
    );
    step_once(&mut app);
    take_warnings(&mut app);
    for kind in [RigidBody::Static, RigidBody::Kinematic, RigidBody::Dynamic] {
        app.world_mut().entity_mut(ball).insert(kind);
        let warnings = warned_in(&mut app, 3);
        assert_eq!(warnings, vec![], "{kind:?}: a kind change is no refused write");
        assert_eq!(get::<GravityScale>(&app, ball).0, 2.0, "{kind:?}: the game's scale stays");
        assert_eq!(get::<ConstantForce>(&app, ball).0, force, "{kind:?}: the game's force stays");
        assert_eq!(get::<ConstantTorque>(&app, ball).0, 2.0e7, "{kind:?}: the torque stays");
    }
    // Dynamic again, the core has them back: the ball is pushed right and falls at 2 g.
    let handle = physics(&app).handle(ball).expect("simulated");
    let world = physics(&app).world();
    assert_eq!(world.gravity_scale(handle), Ok(2.0));
    assert_eq!(world.force(handle).map(|f| physics(&app).mapping().vector_to_bevy(f)), Ok(force));
    let v0 = get::<LinearVelocity>(&app, ball).0;
    step_once(&mut app);
    let dv = get::<LinearVelocity>(&app, ball).0 - v0;
    assert!(dv.x > 0.0 && dv.y < 0.0, "pushed right and falling: {dv}");

    // A write to a static body is the game's, and refused as the docs say.
    app.world_mut().entity_mut(ball).insert(RigidBody::Static);
    assert_eq!(warned_in(&mut app, 2), vec![]);
    app.world_mut().get_mut::<GravityScale>(ball).expect("kept").0 = 3.0;
    let warnings = warned_in(&mut app, 6);
    assert_eq!(warnings.len(), 1, "said once: {warnings:?}");
    assert!(warnings[0].message.contains("GravityScale"), "{warnings:?}");
    assert_eq!(get::<GravityScale>(&app, ball).0, 1.0, "put back to what a static body keeps");
    assert_eq!(get::<ConstantForce>(&app, ball).0, force, "the untouched force still waits");
}

/// A kinematic body may leave the world (walls neither touch nor brake it, R-GAME-4). Its
/// new collider or kind rebuilds the body on the next step, but the rebuilt body was added
/// as a new one, which the core refuses outside the walls: the new kind was put back to
/// kinematic and the new collider to the old one, with a warning that blamed the collider
/// ("Collider refused (… position …); the body keeps its old collider") although the
/// collider asked for was valid, and the platform could never be dropped where it was.
#[test]
fn a_kinematic_body_past_the_walls_takes_a_new_kind_and_collider_r_game_4() {
    let mut app = app();
    gravity_off(&mut app);
    let platform = spawn(
        &mut app,
        (
            Collider::rectangle(80.0, 30.0),
            RigidBody::Kinematic,
            Transform::from_xyz(0.0, 300.0, 0.0),
            LinearVelocity(Vec2::new(0.0, 600.0)),
        ),
    );
    // A fifth of a second: 120 px up, past the ceiling at y = 360.
    frames(&mut app, 12);
    let y = get::<PhysicsPose>(&app, platform).current().translation.y;
    assert!(y > 400.0, "at y = {y}");
    assert!(take_warnings(&mut app).is_empty());

    *app.world_mut().get_mut::<Collider>(platform).expect("collider") = Collider::circle(30.0);
    frames(&mut app, 2);
    let warnings = take_warnings(&mut app);
    assert!(warnings.is_empty(), "the new collider was refused: {warnings:?}");
    assert_eq!(get::<Collider>(&app, platform), Collider::circle(30.0));

    *app.world_mut().get_mut::<RigidBody>(platform).expect("kind") = RigidBody::Static;
    frames(&mut app, 2);
    let warnings = take_warnings(&mut app);
    assert!(warnings.is_empty(), "the new kind was refused: {warnings:?}");
    assert_eq!(get::<RigidBody>(&app, platform), RigidBody::Static);
    let handle = physics(&app).handle(platform).expect("simulated");
    let body = physics(&app).world().body(handle).expect("a body");
    assert_eq!(RigidBody::from_kind(body.kind()), RigidBody::Static);
}
