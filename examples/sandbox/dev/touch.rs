//! The smoke run's taps: a finger put down on the palette must spawn nothing, one put down on
//! empty space spawns the palette's body (`touch_spawns` in `tools.rs`).
//!
//! X has no touches for `xdotool` to make, so the script makes them in the app: a finger put
//! down or lifted at frame `f` is delivered at the start of frame `f + 1`, in `First` before
//! `bevy_picking` reads its input, as winit delivers a real one before the frame's update:
//! one [`TouchInput`] message (which `bevy_input` turns into [`Touches`] in `PreUpdate`, and
//! bevy_egui into egui's pointer) and the same touch as a [`WindowEvent`] (from which
//! `bevy_picking` spawns the `PointerId::Touch` pointer with its location in `First`; the
//! plugin's `capture_egui_pointers` looks at it in `PreUpdate`). So the tap reaches
//! `touch_spawns` (`Update`) in the frame it starts, as a real one would.
//!
//! The tap on the palette lands in the first frame the finger is there: egui hears of it in
//! that frame's pass, after `touch_spawns`, and the mouse is off the panels, so `EguiFocus`
//! does not stop the spawn; no body lies under the finger, so the hover does not either. Only
//! the plugin's pointer capture keeps the tap from spawning: without it the check that the
//! count did not change fails. The script records a failure if either of the other two would
//! have stopped it, or if a finger did not reach `Touches` and `bevy_picking`.
//!
//! `tests/sandbox_smoke.rs` checks the notes (in `03_into_pile`): the count is the same after
//! the tap on the palette, one more after the tap on empty space, and the new body is the
//! palette's ball under the finger. That ball is removed once counted, so the steps after
//! these see the scene they saw before (it would fall into the pile the next step aims at).

use std::collections::HashSet;

use bevy::ecs::system::SystemParam;
use bevy::input::touch::{TouchInput, TouchPhase, Touches};
use bevy::picking::pointer::{PointerId, PointerLocation};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowEvent};
use bevy_sandbox_physics::prelude::*;

use super::frames::*;
use super::shot::screen_of;
use super::smoke::{PanelRects, Smoke, empty_space, move_pointer, on_palette_margin};
use crate::tools::{EguiFocus, Palette};

/// The finger of the tap on the palette (winit numbers fingers with any `u64`).
const PANEL_FINGER: u64 = 101;
/// The finger of the tap on empty space.
const SPACE_FINGER: u64 = 102;

/// How far below the middle of the palette the finger lands, px: the quick click's aim.
const PANEL_TAP_BELOW: f32 = 40.0;

/// The touches the script makes.
#[derive(Resource, Default, Debug)]
pub(super) struct Taps {
    /// Touch messages for the start of the next frame.
    pending: Vec<TouchInput>,
    /// Where the finger is down, logical window px.
    at: Vec2,
    /// The bodies before the tap on empty space, to find the new one.
    before: HashSet<Entity>,
}

impl Taps {
    fn send(&mut self, phase: TouchPhase, id: u64, window: Entity) {
        let position = self.at;
        self.pending.push(TouchInput { phase, position, window, force: None, id });
    }
}

/// Delivers the script's touches as winit delivers a real one.
pub(super) fn deliver_taps(
    mut taps: ResMut<Taps>,
    mut touches: MessageWriter<TouchInput>,
    mut window_events: MessageWriter<WindowEvent>,
) {
    for touch in taps.pending.drain(..) {
        touches.write(touch);
        window_events.write(WindowEvent::TouchInput(touch));
    }
}

/// What a finger down reached in the frame it started.
#[derive(SystemParam)]
pub(super) struct TapReached<'w, 's> {
    touches: Res<'w, Touches>,
    pointers: Query<'w, 's, (&'static PointerId, &'static PointerLocation)>,
    hovered: HoveredBodies<'w, 's>,
    /// Whether egui had the pointer in the last pass: `touch_spawns` reads it next frame.
    focus: Res<'w, EguiFocus>,
}

/// The taps' part of the script; runs after `run_script`, in the same frame count.
#[expect(clippy::too_many_arguments, reason = "the taps aim, count and check")]
pub(super) fn tap_script(
    mut smoke: ResMut<Smoke>,
    mut taps: ResMut<Taps>,
    panels: Res<PanelRects>,
    palette: Res<Palette>,
    physics: Res<PhysicsWorld>,
    bounds: Res<PhysicsBounds>,
    windows: Query<Entity, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    bodies: Query<(Entity, &Collider, &Transform)>,
    reached: TapReached,
    mut commands: Commands,
) {
    let frame = smoke.frame;
    let (Ok(window), Some(camera)) = (windows.single(), cameras.iter().next()) else { return };
    let walls = bounds.0;
    let empty = screen_of(camera, empty_space(walls));
    let count = physics.len() as f64;
    match frame {
        TAP_AWAY => {
            // The mouse off the palette, where the quick click left it: egui's focus, which
            // follows the mouse, would stop every tap.
            if let Some(at) = empty {
                move_pointer(&mut smoke, at);
            }
        }
        TAP_PANEL_DOWN => {
            let aim = (&*panels, &*palette);
            if let Some(at) = on_palette_margin(&mut smoke, aim, PANEL_TAP_BELOW, camera, walls) {
                smoke.note("bodies_before_panel_tap", count);
                taps.at = at;
                taps.send(TouchPhase::Started, PANEL_FINGER, window);
                egui_lets_it_through(&mut smoke, &reached);
            }
        }
        TAP_SPACE_DOWN => match empty {
            Some(at) if !panels.covers(at) => {
                smoke.note("bodies_before_space_tap", count);
                smoke.note("space_tap_x", f64::from(at.x));
                taps.at = at;
                taps.before = bodies.iter().map(|(e, ..)| e).collect();
                taps.send(TouchPhase::Started, SPACE_FINGER, window);
                egui_lets_it_through(&mut smoke, &reached);
            }
            _ => smoke.failures.push(format!("frame {frame}: no empty space to tap")),
        },
        TAP_PANEL_HELD => reached_the_app(&mut smoke, &reached, PANEL_FINGER),
        TAP_SPACE_HELD => reached_the_app(&mut smoke, &reached, SPACE_FINGER),
        TAP_PANEL_UP => taps.send(TouchPhase::Ended, PANEL_FINGER, window),
        TAP_SPACE_UP => taps.send(TouchPhase::Ended, SPACE_FINGER, window),
        TAP_PANEL_COUNT => smoke.note("bodies_after_panel_tap", count),
        TAP_SPACE_COUNT => {
            smoke.note("bodies_after_space_tap", count);
            let new = bodies.iter().find(|(e, ..)| !taps.before.contains(e));
            if let Some((entity, collider, transform)) = new {
                let x = screen_of(camera, transform.translation.truncate()).map(|p| p.x);
                smoke.note("space_tap_body_x", x.map_or(f64::NAN, f64::from));
                smoke.note("space_tap_body_half", f64::from(collider.shape().half_size().x));
                // Gone again, so that the steps after these see the scene they saw before.
                commands.entity(entity).despawn();
            }
        }
        _ => {}
    }
}

/// A failure if egui's focus (last pass, read by `touch_spawns` in the next frame) would stop
/// the tap: then the capture would not be what the check tests.
fn egui_lets_it_through(smoke: &mut Smoke, reached: &TapReached) {
    if reached.focus.pointer {
        let message = format!("frame {}: egui has the pointer, a tap is stopped", smoke.frame);
        smoke.failures.push(message);
    }
}

/// Failures unless the finger put down last frame reached `Touches` and `bevy_picking` in
/// this frame, and had no body under it (a tap on a body grabs instead of spawning).
fn reached_the_app(smoke: &mut Smoke, reached: &TapReached, finger: u64) {
    let frame = smoke.frame;
    let pointer = PointerId::Touch(finger);
    if !reached.touches.just_pressed(finger) {
        smoke.failures.push(format!("frame {frame}: finger {finger} is not in Touches"));
    }
    let located = reached.pointers.iter().any(|(id, l)| *id == pointer && l.location().is_some());
    if !located {
        smoke.failures.push(format!("frame {frame}: finger {finger} has no picking pointer"));
    }
    if let Some(body) = reached.hovered.get(&pointer) {
        smoke.failures.push(format!("frame {frame}: finger {finger} is on body {body}"));
    }
}
