//! The fixed loop and interpolation of the plugin, headless with a manual clock
//! (R-FIX-1, R-FIX-2, R-CFG-2).
#![cfg(feature = "bevy")]

mod plugin_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Counts `FixedUpdate` runs.
#[derive(Resource, Default)]
struct FixedRuns(u64);

fn count_fixed_runs(mut runs: ResMut<FixedRuns>) {
    runs.0 += 1;
}

#[test]
fn fixed_update_runs_two_steps_per_sixtieth_and_120_per_second_r_fix_1() {
    let mut app = app();
    app.init_resource::<FixedRuns>().add_systems(FixedUpdate, count_fixed_runs);
    assert_eq!(
        app.world().resource::<Time<Fixed>>().timestep(),
        Duration::from_secs_f64(1.0 / 120.0),
        "Time<Fixed> runs at 1/time_step = 120 Hz"
    );
    let start = steps(&app);
    for frame in 1..=60 {
        let before = (steps(&app), app.world().resource::<FixedRuns>().0);
        app.update();
        let after = (steps(&app), app.world().resource::<FixedRuns>().0);
        assert_eq!(after.0 - before.0, 2, "frame {frame}: core steps in a 1/60 s frame");
        assert_eq!(after.1 - before.1, 2, "frame {frame}: FixedUpdate runs in a 1/60 s frame");
    }
    assert_eq!(steps(&app) - start, 120, "steps in one simulated second");
}

#[test]
fn a_one_second_frame_runs_at_most_max_steps_per_frame_r_fix_1() {
    let mut app = app();
    let cap = u64::from(app.world().resource::<PhysicsConfig>().max_steps_per_frame);
    assert_eq!(cap, 8);

    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs(1)));
    let before = steps(&app);
    app.update();
    assert_eq!(steps(&app) - before, cap, "a 1 s hitch runs the cap, not 120 steps");

    // No spiral of death: the next ordinary frame is ordinary again.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame_60()));
    let before = steps(&app);
    app.update();
    assert_eq!(steps(&app) - before, 2);

    // A live change of the cap takes effect through Time<Virtual>'s max delta.
    app.world_mut().resource_mut::<PhysicsConfig>().max_steps_per_frame = 3;
    app.update();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs(1)));
    let before = steps(&app);
    app.update();
    assert_eq!(steps(&app) - before, 3);
}

/// Draws a body moving at constant velocity with frames of `frame` and returns the drawn
/// positions after it has started moving.
fn drawn_path(frame: Duration, velocity: Vec2, seconds: f64) -> Vec<Vec2> {
    let mut app = app_with(SandboxPhysicsPlugin::default(), frame);
    gravity_off(&mut app);
    let ball = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(-500.0, 100.0, 0.0), LinearVelocity(velocity)),
    );
    let count = (seconds / frame.as_secs_f64()).round() as usize;
    let mut path = Vec::with_capacity(count);
    for _ in 0..count {
        app.update();
        path.push(drawn(&app, ball));
    }
    assert!(take_warnings(&mut app).is_empty());
    let start = path.iter().position(|p| *p != path[0]).expect("the body moves");
    path.split_off(start)
}

#[test]
fn constant_velocity_is_drawn_on_a_straight_line_without_steps_r_fix_2() {
    let velocity = Vec2::new(300.0, -120.0);
    for (name, frame) in [("60 Hz", frame_60()), ("144 Hz", frame_144())] {
        let path = drawn_path(frame, velocity, 2.0);
        let exact = velocity.length() * frame.as_secs_f32();
        let direction = velocity.normalize();
        // The first moving frame may have moved less (the body joined mid-frame).
        for (i, pair) in path.windows(2).enumerate() {
            let step = pair[1] - pair[0];
            let error = (step.length() - exact).abs() / exact;
            assert!(
                error <= 0.01,
                "{name}, frame {i}: drawn step {} px, exact {exact} px ({:.3} % off)",
                step.length(),
                100.0 * error
            );
            let off_line = (pair[1] - path[0]).perp_dot(direction).abs();
            assert!(off_line < 0.01, "{name}, frame {i}: {off_line} px off the line");
        }
        assert!(path.len() > 100, "{name}: {} frames checked", path.len());
    }
}

#[test]
fn no_interpolation_draws_the_latest_physics_pose_r_fix_2() {
    let mut app = app_with(SandboxPhysicsPlugin::default(), frame_144());
    gravity_off(&mut app);
    let velocity = LinearVelocity(Vec2::new(200.0, 0.0));
    let smooth =
        spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, 0.0), velocity));
    let snapped = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(0.0, -100.0, 0.0), velocity, NoInterpolation),
    );
    let mut between = 0;
    for _ in 0..30 {
        app.update();
        if physics(&app).handle(snapped).is_none() {
            continue; // no step yet: the bodies join the world on the first one
        }
        let alpha = app.world().resource::<Time<Fixed>>().overstep_fraction();
        let (pose, snapped_pose) =
            (get::<PhysicsPose>(&app, smooth), get::<PhysicsPose>(&app, snapped));
        assert_eq!(drawn(&app, snapped), snapped_pose.current().translation);
        let expected = pose.interpolated(alpha).translation;
        assert!((drawn(&app, smooth) - expected).length() < 1e-3);
        if alpha > 0.1 && alpha < 0.9 {
            between += 1;
            assert!(drawn(&app, smooth).x < pose.current().translation.x);
        }
    }
    assert!(between > 5, "144 Hz frames fall between steps");
}

#[test]
fn a_changed_time_step_retimes_fixed_update_r_cfg_2() {
    let mut app = app();
    let sixty = PhysicsConfig::default().with_time_step(1.0 / 60.0);
    *app.world_mut().resource_mut::<PhysicsConfig>() = sixty.clone();
    app.update();
    assert_eq!(physics(&app).world().config().time_step, 1.0 / 60.0);
    let fixed = app.world().resource::<Time<Fixed>>().timestep();
    assert_eq!(fixed, Duration::from_secs_f64(1.0 / 60.0));
    let max_delta = app.world().resource::<Time<Virtual>>().max_delta();
    assert_eq!(max_delta, fixed * sixty.max_steps_per_frame);
    for _ in 0..30 {
        let before = steps(&app);
        app.update();
        assert_eq!(steps(&app) - before, 1, "one 1/60 s step per 1/60 s frame");
    }
}

/// Bevy clamps the raw frame time to `Time<Virtual>`'s max delta before it applies the
/// relative speed, so the cap must allow for the time scale: at 2, a 1 s hitch would
/// otherwise run twice `max_steps_per_frame` steps. Slow motion keeps the step (R-SCN-2).
#[test]
fn a_long_frame_runs_at_most_max_steps_per_frame_at_any_time_scale_r_fix_1() {
    let cap = u64::from(PhysicsConfig::default().max_steps_per_frame);
    for scale in [PhysicsTimeScale::MAX, 1.5, 1.0, 0.3, PhysicsTimeScale::MIN] {
        let mut app = app();
        app.world_mut().resource_mut::<PhysicsTimeScale>().0 = scale;
        app.update();
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs(1)));
        for frame in 0..5 {
            let before = steps(&app);
            app.update();
            let ran = steps(&app) - before;
            // 1 s at the scale is `120 · scale` steps: the cap binds above 8.
            let expected = cap.min((120.0 * f64::from(scale)) as u64);
            assert!(ran <= cap, "scale {scale}, frame {frame}: {ran} steps, the cap is {cap}");
            assert!(ran + 1 >= expected, "scale {scale}, frame {frame}: {ran} steps");
        }
        assert!(take_warnings(&mut app).is_empty(), "scale {scale}");
        assert_eq!(
            app.world().resource::<Time<Fixed>>().timestep(),
            Duration::from_secs_f64(1.0 / 120.0),
            "scale {scale}: the step is the same"
        );
    }
}

/// The plugin owns `Time<Fixed>`'s timestep and `Time<Virtual>`'s speed and max delta: set
/// directly, they would run the world at the wrong speed and past the cap. Such a write is
/// put back before it times a frame, with one warning naming the setting to use instead.
#[test]
fn clocks_changed_behind_the_plugins_back_are_put_back_with_one_warning_r_plug_1() {
    let step = Duration::from_secs_f64(1.0 / 120.0);
    let cap = u64::from(PhysicsConfig::default().max_steps_per_frame);
    type Edit = fn(&mut World);
    let edits: [(&str, Edit, &str); 3] = [
        (
            "timestep",
            |w| w.resource_mut::<Time<Fixed>>().set_timestep(Duration::from_micros(100)),
            "PhysicsConfig::time_step",
        ),
        (
            "speed",
            |w| w.resource_mut::<Time<Virtual>>().set_relative_speed(50.0),
            "PhysicsTimeScale",
        ),
        (
            "max delta",
            |w| w.resource_mut::<Time<Virtual>>().set_max_delta(Duration::from_secs(10)),
            "PhysicsConfig::max_steps_per_frame",
        ),
    ];
    for (name, edit, instead) in edits {
        for frame in [frame_60(), Duration::from_secs(1)] {
            let mut app = app_with(SandboxPhysicsPlugin::default(), frame);
            take_warnings(&mut app);
            edit(app.world_mut());
            let before = steps(&app);
            app.update();
            let ran = steps(&app) - before;
            let expected = if frame == frame_60() { 2 } else { cap };
            assert_eq!(ran, expected, "{name}, frame {frame:?}: steps in the frame");
            let warnings = take_warnings(&mut app);
            assert_eq!(warnings.len(), 1, "{name}: one warning: {warnings:?}");
            assert!(warnings[0].message.contains(instead), "{name}: {warnings:?}");
            assert_eq!(app.world().resource::<Time<Fixed>>().timestep(), step, "{name}");
            let virtual_time = app.world().resource::<Time<Virtual>>();
            assert_eq!(virtual_time.relative_speed(), 1.0, "{name}");
            assert_eq!(virtual_time.max_delta(), step * cap as u32, "{name}");
            assert_eq!(app.world().resource::<PhysicsTimeScale>().0, 1.0, "{name}");
            frames(&mut app, 3);
            assert!(take_warnings(&mut app).is_empty(), "{name}: said once");
        }
    }
}
