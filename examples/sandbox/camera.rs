//! The camera: zoom with the wheel around the pointer, pan with the middle button or the
//! arrow keys, and fit the world with F (issue 20).
//!
//! Everything that turns the pointer into a world point (picking, drag and throw, spawning,
//! the inspector's click) goes through the camera, so each keeps working at every zoom.

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_sandbox_physics::prelude::*;

use crate::tools::EguiFocus;
use crate::world::WorldSettings;

/// The closest and the farthest zoom: a world px drawn 16 screen px wide, or a tenth of one.
const SCALE_RANGE: (f32, f32) = (1.0 / 16.0, 10.0);
/// Zoom per wheel line: 15 % closer or farther.
const ZOOM_PER_LINE: f32 = 1.15;
/// Pan speed of the arrow keys, window widths per second at any zoom.
const KEY_PAN_WINDOWS_PER_SECOND: f32 = 0.6;

/// The camera's controls.
pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (zoom_with_wheel, pan_with_middle_button, pan_with_keys, fit_world),
        );
    }
}

/// The 2D camera's transform and orthographic projection.
type CameraParts<'a> = (&'a Camera, &'a GlobalTransform, &'a mut Transform, &'a mut Projection);

/// The orthographic projection's scale (world px per screen px), if it is one.
fn scale_of(projection: &mut Projection) -> Option<&mut f32> {
    match projection {
        Projection::Orthographic(ortho) => Some(&mut ortho.scale),
        _ => None,
    }
}

/// Zooms in or out around the pointer: the world point under it stays under it.
fn zoom_with_wheel(
    scroll: Res<AccumulatedMouseScroll>,
    focus: Res<EguiFocus>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<CameraParts, With<Camera2d>>,
) {
    if scroll.delta.y == 0.0 || focus.pointer {
        return;
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        // A touchpad's pixels: about 50 to a wheel line.
        MouseScrollUnit::Pixel => scroll.delta.y / 50.0,
    };
    let (Ok(window), Ok((camera, global, mut transform, mut projection))) =
        (windows.single(), cameras.single_mut())
    else {
        return;
    };
    let Some(scale) = scale_of(&mut projection) else { return };
    let before = *scale;
    let after = (before / ZOOM_PER_LINE.powf(lines)).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
    if !after.is_finite() || after == before {
        return;
    }
    *scale = after;
    // The pointer's world point p stays put: the camera moves towards it by 1 − after/before
    // of the way (its view shrinks around p by that ratio).
    if let Some(p) =
        window.cursor_position().and_then(|cursor| camera.viewport_to_world_2d(global, cursor).ok())
    {
        let centre = transform.translation.truncate();
        let moved = p + (centre - p) * (after / before);
        transform.translation = moved.extend(transform.translation.z);
    }
}

/// Pans while the middle button is held: the world follows the pointer.
fn pan_with_middle_button(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<bevy::input::mouse::AccumulatedMouseMotion>,
    focus: Res<EguiFocus>,
    mut cameras: Query<CameraParts, With<Camera2d>>,
) {
    if !buttons.pressed(MouseButton::Middle) || focus.pointer || motion.delta == Vec2::ZERO {
        return;
    }
    let Ok((_, _, mut transform, mut projection)) = cameras.single_mut() else { return };
    let Some(&mut scale) = scale_of(&mut projection) else { return };
    // Screen y grows downwards, world y upwards.
    transform.translation += Vec3::new(-motion.delta.x, motion.delta.y, 0.0) * scale;
}

/// Pans with the arrow keys.
fn pan_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<EguiFocus>,
    time: Res<Time>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<CameraParts, With<Camera2d>>,
) {
    if focus.keyboard {
        return;
    }
    let mut direction = Vec2::ZERO;
    for (key, step) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(key) {
            direction += step;
        }
    }
    let (Ok(window), Ok((_, _, mut transform, mut projection))) =
        (windows.single(), cameras.single_mut())
    else {
        return;
    };
    if direction == Vec2::ZERO {
        return;
    }
    let Some(&mut scale) = scale_of(&mut projection) else { return };
    let speed = KEY_PAN_WINDOWS_PER_SECOND * window.width() * scale;
    transform.translation += (direction * speed * time.delta_secs()).extend(0.0);
}

/// F (or a request of the World row, or `--world` at the start): the whole world in view,
/// centred in what the bar leaves of the window, as large as it fits (with walls that follow
/// the window: the view at start).
fn fit_world(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<EguiFocus>,
    mut settings: ResMut<WorldSettings>,
    bounds: Res<PhysicsBounds>,
    insets: Res<WallInsets>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<CameraParts, With<Camera2d>>,
) {
    let key = !focus.keyboard && keys.just_pressed(KeyCode::KeyF);
    if !key && !settings.fit_requested {
        return;
    }
    settings.fit_requested = false;
    let (Ok(window), Ok((_, _, mut transform, mut projection))) =
        (windows.single(), cameras.single_mut())
    else {
        return;
    };
    let Some(scale) = scale_of(&mut projection) else { return };
    let world = bounds.0;
    let free = Vec2::new(
        window.width() - insets.left - insets.right,
        window.height() - insets.top - insets.bottom,
    )
    .max(Vec2::ONE);
    let fit = (world.width() / free.x).max(world.height() / free.y);
    if fit.is_finite() && fit > 0.0 {
        *scale = fit.clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        // The free part's centre lies this far from the window's centre, screen px (y up).
        let offset = Vec2::new(insets.left - insets.right, insets.bottom - insets.top) / 2.0;
        let centre = world.center() - offset * *scale;
        transform.translation = centre.extend(transform.translation.z);
    }
}
