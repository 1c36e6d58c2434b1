//! The debug drawing, headless with Bevy's `GizmoPlugin` (no renderer): every circle gets a
//! radius line at its angle (R-FRI-3), sleeping bodies are dimmed, and the drawing system has
//! no ambiguity with the plugin's others (a schedule built with ambiguities as errors panics).
#![cfg(feature = "bevy")]

mod plugin_support;

use std::any::TypeId;

use bevy::asset::AssetPlugin;
use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::gizmos::config::DefaultGizmoConfigGroup;
use bevy::gizmos::{GizmoAsset, GizmoHandles, GizmoPlugin};
use bevy::mesh::skinning::SkinnedMeshInverseBindposes;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// The line segments (start, end, alpha) drawn last frame with the default gizmo group.
fn drawn_lines(app: &App) -> Vec<(Vec2, Vec2, f32)> {
    let handles = app.world().resource::<GizmoHandles>();
    let Some(Some(handle)) = handles.handles().get(&TypeId::of::<DefaultGizmoConfigGroup>()) else {
        return Vec::new();
    };
    let assets = app.world().resource::<Assets<GizmoAsset>>();
    let buffer = assets.get(handle).expect("gizmo asset").buffer().buffer();
    buffer
        .list_positions
        .chunks_exact(2)
        .zip(buffer.list_colors.chunks_exact(2))
        .map(|(p, c)| (p[0].truncate(), p[1].truncate(), c[0].alpha))
        .collect()
}

#[test]
fn circles_get_a_radius_line_at_their_angle_and_sleepers_are_dimmed_r_fri_3() {
    let mut app = App::new();
    let plugin = SandboxPhysicsPlugin::default().debug_draw(true);
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), GizmoPlugin, plugin));
    // GizmoPlugin's skinned-mesh bounds read these assets.
    app.init_asset::<Mesh>().init_asset::<SkinnedMeshInverseBindposes>();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame_60()));
    app.finish();
    app.cleanup();
    // Update, with the drawing system in it, is built with ambiguities as errors.
    app.edit_schedule(Update, |update| {
        update.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    app.update();
    gravity_off(&mut app);
    app.world_mut().resource_mut::<PhysicsDebugDraw>().contacts = false;

    // A quarter turn counter-clockwise: the radius line points up (+y in Bevy).
    let turned = Transform::from_xyz(100.0, 50.0, 0.0)
        .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    let wheel = spawn(&mut app, (Collider::circle(20.0), turned));
    frames(&mut app, 3);
    let radius_line = |lines: &[(Vec2, Vec2, f32)]| {
        lines
            .iter()
            .find(|(start, end, _)| {
                (*start - Vec2::new(100.0, 50.0)).length() < 1e-3
                    && (*end - Vec2::new(100.0, 70.0)).length() < 1e-3
            })
            .copied()
    };
    let (.., alpha) = radius_line(&drawn_lines(&app)).expect("a radius line at 90°");
    assert_eq!(alpha, 1.0, "awake: full colour");

    // At rest without gravity it falls asleep after time_to_sleep (0.5 s) and is dimmed.
    frames(&mut app, 60);
    assert!(app.world().get::<Sleeping>(wheel).is_some());
    let (.., alpha) = radius_line(&drawn_lines(&app)).expect("still drawn");
    assert!(alpha < 0.5, "asleep: dimmed, alpha {alpha}");

    // With the drawing switched off nothing is drawn.
    app.world_mut().resource_mut::<PhysicsDebugDraw>().enabled = false;
    frames(&mut app, 2);
    assert!(drawn_lines(&app).is_empty());
}
