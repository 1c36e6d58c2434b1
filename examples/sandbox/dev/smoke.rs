//! `--smoke <dir>`: a scripted run of the sandbox for CI, with real pointer and keyboard input.
//!
//! The script drives the X server with `xdotool` (the pointer and keys go through X, winit,
//! bevy_picking and egui exactly as a user's would) at fixed frames: it spawns a body in
//! empty space, clicks the palette (which must spawn nothing), once more in the frame the
//! pointer arrives there (a quick click, as a tap makes it), taps the palette and empty space
//! with a finger the script makes in the app (`touch.rs`), spawns a body into
//! the middle of the pile and paints a row with Shift held, drags and throws a body, pauses,
//! single-steps, toggles gravity, deletes bodies with Delete and with a right click,
//! switches the overlay on, opens the lab (L), loads a rule's demonstration and switches the
//! rule off and on again there, opens the plots (T), pins a body in the inspector with a
//! click, and makes the window narrower. Then, paused, it saves the world (F5), clears it
//! (C) and loads the file again (F9); resumed for a second, it rewinds (`,` pressed until
//! the timeline's start) to the world as loaded. Last, with the windows closed, it makes a
//! world of its own of [`BIG_WORLD`] px with [`BIG_WORLD_BODIES`] bodies, fits it in view (F),
//! pauses and zooms with the wheel into one contact under the pointer (issue 20). Before all
//! that it opens the parameters (E): the first shot shows the sandbox as it starts.
//! At fixed frames it saves a screenshot `<name>.png` with a `<name>.json`
//! ([`Snapshot`]) of what the simulation says is drawn in that frame. Then it waits for the
//! files and exits with success; `tests/sandbox_smoke.rs` checks the folder.
//!
//! Each frame advances the simulation by exactly 1/60 s (`TimeUpdateStrategy::ManualDuration`)
//! however slow the software renderer is, so a run sees the same scene at the same frame.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use bevy::app::AppExit;
use bevy::ecs::message::MessageUpdateSystems;
use bevy::ecs::system::SystemParam;
use bevy::picking::PickingSystems;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_sandbox_physics::physics::scenes::lab_demos;
use bevy_sandbox_physics::plugin::{BodyInspector, PhysicsPlots, WallInsets, WallsFollowWindow};
use bevy_sandbox_physics::prelude::*;

use super::shot::{BodyQuery, screen_of, snapshot, zoom_of};
use super::snapshot::Snapshot;
use super::touch::{Taps, deliver_taps, tap_script};
use crate::files::SceneFiles;
use crate::lab::LabWindow;
use crate::presets::Preset;
use crate::tools::{PALETTE_TITLE, Palette, SandboxAction, ShapeTool};

/// The window's title in smoke mode (xdotool finds the window by it).
pub const SMOKE_TITLE: &str = "bevy_sandbox_physics smoke";

/// The rule switch the script flips in the lab: with it off, the e = 1 ball of its
/// demonstration gains energy at every bounce (R-LAB-1).
pub const LAB_SWITCH_FIELD: &str = "restitution_from_step_start";

/// How much narrower the script makes the window, logical px.
pub const RESIZE_BY: f32 = 240.0;

/// The size of the world of its own the script makes at the end, px.
pub const BIG_WORLD: Vec2 = Vec2::new(8000.0, 3000.0);

/// How near a pile body must be to the body spawned into the pile to count as its
/// neighbour for the explosion check, world px (the spawned box is 32 px wide).
const PILE_NEAR: f32 = 100.0;

/// The bodies the script loads into it (the stress scene, issue 20).
pub const BIG_WORLD_BODIES: usize = 10_000;

/// The smoke run's state.
#[derive(Resource, Debug)]
pub struct Smoke {
    dir: PathBuf,
    pub(super) frame: u64,
    window: Option<String>,
    requested: usize,
    /// Named values for the next snapshot.
    notes: Vec<(String, f64)>,
    /// The body aimed at or dragged.
    target: Option<Entity>,
    /// Where the X pointer is, logical window px.
    pointer: Vec2,
    /// The bodies before a spawn, to find the new one.
    before: HashSet<Entity>,
    /// The body spawned in empty space.
    spawned: Option<Entity>,
    /// The body spawned into the pile and the bodies within [`PILE_NEAR`] of it when it
    /// appeared: what an explosion would fling. (Not the whole pile: the mixed pile's rubber
    /// still bounces at up to 1,000 px/s seconds after it landed, as §7 says it must.)
    pile_near: HashSet<Entity>,
    /// Largest speed of those bodies after the spawn into the pile, px/s.
    pile_max_speed: f32,
    pub(super) failures: Vec<String>,
}

impl Smoke {
    pub(super) fn note(&mut self, key: &str, value: f64) {
        self.notes.push((key.into(), value));
    }

    /// A value noted since the last shot.
    fn notes_value(&self, key: &str) -> Option<f64> {
        self.notes.iter().find(|(k, _)| k == key).map(|&(_, v)| v)
    }
}

/// Screenshots written so far.
#[derive(Resource, Default, Debug)]
struct SavedShots(usize);

/// The rectangles of the visible egui windows (logical px, top-left origin), last frame.
#[derive(Resource, Default, Debug, Clone)]
pub(super) struct PanelRects(pub(super) Vec<(String, egui::Rect)>);

impl PanelRects {
    /// Whether `point` (logical px) lies under a window or within 8 px of one: not a place
    /// for the script to aim at.
    pub(super) fn covers(&self, point: Vec2) -> bool {
        self.0.iter().any(|(_, r)| r.expand(8.0).contains(egui::pos2(point.x, point.y)))
    }
}

/// Adds the smoke script to the sandbox.
pub struct SmokePlugin {
    /// Where the screenshots and snapshots go.
    pub dir: PathBuf,
}

impl Plugin for SmokePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )))
        .insert_resource(Smoke {
            dir: self.dir.clone(),
            frame: 0,
            window: None,
            requested: 0,
            notes: Vec::new(),
            target: None,
            pointer: Vec2::ZERO,
            before: HashSet::new(),
            spawned: None,
            pile_near: HashSet::new(),
            pile_max_speed: 0.0,
            failures: Vec::new(),
        })
        .init_resource::<SavedShots>()
        .init_resource::<PanelRects>()
        .init_resource::<Taps>()
        .add_systems(EguiPrimaryContextPass, record_panel_rects)
        // Before bevy_picking reads its input, as winit's touches come before the update.
        .add_systems(First, deliver_taps.after(MessageUpdateSystems).before(PickingSystems::Input))
        .add_systems(Last, (run_script, tap_script).chain());
    }
}

/// Records where the egui windows are: the script aims at the palette, and the
/// checker finds the panels in the snapshots. The bar at the top counts as one
/// (`sandbox_bar`): zoomed in, bodies lie under it too.
fn record_panel_rects(
    mut contexts: EguiContexts,
    insets: Res<WallInsets>,
    mut rects: ResMut<PanelRects>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    rects.0 = ctx.memory(|memory| {
        memory
            .areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|layer| layer.order == egui::Order::Middle)
            .filter_map(|layer| Some((format!("{:?}", layer.id), memory.area_rect(layer.id)?)))
            .collect()
    });
    let width = ctx.content_rect().right();
    rects.0.push((
        "sandbox_bar".into(),
        egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(width, insets.top)),
    ));
    Ok(())
}

/// What the script reads of the lab, the plots and the inspector.
#[derive(SystemParam)]
struct LabView<'w> {
    window: Res<'w, LabWindow>,
    plots: Res<'w, PhysicsPlots>,
    inspector: Res<'w, BodyInspector>,
    config: Res<'w, PhysicsConfig>,
}

impl LabView<'_> {
    /// Whether the rule the script flips is on.
    fn rule_on(&self) -> bool {
        self.config.restitution_from_step_start
    }

    /// The body count of the flipped rule's demonstration.
    fn demo_bodies(&self) -> usize {
        lab_demos()
            .iter()
            .find(|d| d.switch == LAB_SWITCH_FIELD)
            .map_or(0, |d| d.scene.bodies.len())
    }
}

/// What the script changes for the big world at the end.
#[derive(SystemParam)]
struct BigWorld<'w> {
    follow: ResMut<'w, WallsFollowWindow>,
    bounds: ResMut<'w, PhysicsBounds>,
}

/// Runs `xdotool` with `args` and waits for it; a failure is recorded.
fn xdotool(smoke: &mut Smoke, args: &[&str]) -> Option<String> {
    match Command::new("xdotool").args(args).output() {
        Ok(output) if output.status.success() => {
            Some(String::from_utf8_lossy(&output.stdout).trim().to_string())
        }
        Ok(output) => {
            let message = format!(
                "xdotool {args:?} failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
            error!("{message}");
            smoke.failures.push(message);
            None
        }
        Err(error) => {
            let message = format!("cannot run xdotool ({error}); install it (apt: xdotool)");
            error!("{message}");
            smoke.failures.push(message);
            None
        }
    }
}

/// Moves the X pointer to `at` (logical window px).
pub(super) fn move_pointer(smoke: &mut Smoke, at: Vec2) {
    let Some(window) = smoke.window.clone() else { return };
    let (x, y) = (format!("{:.0}", at.x), format!("{:.0}", at.y));
    xdotool(smoke, &["mousemove", "--window", &window, &x, &y]);
    smoke.pointer = at;
}

/// Empty space, in world px: high above the pile, in the middle of the world, where the
/// script's clicks and taps spawn a body.
pub(super) fn empty_space(walls: Rect) -> Vec2 {
    Vec2::new(walls.center().x, walls.max.y - 60.0)
}

/// A point on the palette window's left margin (inside its frame, left of its widgets),
/// `below` px under its middle; `None` while the palette is not shown. A failure unless the
/// world lies under it with room for the palette's body inside the walls: there a click
/// that got past the panel would spawn, so the check that none does can fail.
pub(super) fn on_palette_margin(
    smoke: &mut Smoke,
    (panels, palette): (&PanelRects, &Palette),
    below: f32,
    camera: (&Camera, &GlobalTransform),
    walls: Rect,
) -> Option<Vec2> {
    let &(_, rect) = panels.0.iter().find(|(id, _)| id.contains(PALETTE_TITLE))?;
    let half = palette.collider().shape().half_size();
    let at = Vec2::new(rect.left() + 3.0, rect.center().y + below);
    let fits = camera
        .0
        .viewport_to_world_2d(camera.1, at)
        .is_ok_and(|p| walls.contains(p - half) && walls.contains(p + half));
    if !rect.contains(egui::pos2(at.x, at.y)) || !fits {
        let message = format!("the palette click at {at} is not on the palette over the world");
        smoke.failures.push(message);
    }
    Some(at)
}

/// The script: one `match` arm per scripted frame.
#[expect(clippy::too_many_arguments, reason = "the script touches the whole app")]
fn run_script(
    mut smoke: ResMut<Smoke>,
    saved: Res<SavedShots>,
    mut palette: ResMut<Palette>,
    mut actions: MessageWriter<SandboxAction>,
    mut exit: MessageWriter<AppExit>,
    mut commands: Commands,
    physics: Res<PhysicsWorld>,
    controls: Res<PhysicsControls>,
    mut big: BigWorld,
    panels: Res<PanelRects>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    bodies: BodyQuery,
    lab: LabView,
    mut files: ResMut<SceneFiles>,
) {
    use super::frames::*;
    smoke.frame += 1;
    let frame = smoke.frame;
    let (Ok(window), Some(camera)) = (windows.single(), cameras.iter().next()) else { return };
    let to_screen = |world: Vec2| screen_of(camera, world);
    let walls = big.bounds.0;

    // A body a step may aim at: dynamic, resting, on screen and not under a panel; the
    // topmost one, or the one nearest the middle of the world.
    let aimable = |topmost: bool| {
        let middle = to_screen(walls.center()).unwrap_or_default();
        bodies
            .iter()
            .filter(|(_, _, kind, _, v, _)| **kind == RigidBody::Dynamic && v.length() < 5.0)
            .filter_map(|(entity, _, _, t, _, _)| {
                let p = to_screen(t.translation.truncate())?;
                (!panels.covers(p)).then_some((entity, p))
            })
            .min_by(|a, b| {
                let key = |p: Vec2| if topmost { p.y } else { p.distance(middle) };
                key(a.1).total_cmp(&key(b.1))
            })
    };
    let new_body =
        |before: &HashSet<Entity>| bodies.iter().map(|(e, ..)| e).find(|e| !before.contains(e));
    let ids = || bodies.iter().map(|(e, ..)| e).collect::<HashSet<_>>();

    if frame > PILE_CLICK && frame < SHOT_INTO_PILE {
        if smoke.pile_near.is_empty()
            && let Some(new) = new_body(&smoke.before)
            && let Ok((.., at, _, _)) = bodies.get(new)
        {
            let at = at.translation.truncate();
            smoke.pile_near = bodies
                .iter()
                .filter(|(.., t, _, _)| t.translation.truncate().distance(at) <= PILE_NEAR)
                .map(|(e, ..)| e)
                .collect();
        }
        let near = &smoke.pile_near;
        let fastest = bodies
            .iter()
            .filter(|(e, ..)| near.contains(e))
            .map(|(.., v, _)| v.length())
            .fold(0.0, f32::max);
        smoke.pile_max_speed = smoke.pile_max_speed.max(fastest);
    }

    match frame {
        FOCUS => {
            let window = xdotool(&mut smoke, &["search", "--sync", "--name", SMOKE_TITLE])
                .and_then(|ids| ids.lines().next().map(str::to_string));
            if let Some(window) = window {
                xdotool(&mut smoke, &["windowfocus", "--sync", &window]);
                smoke.window = Some(window);
            }
        }
        LOAD => {
            palette.shape = ShapeTool::Circle;
            palette.radius = 22.0;
            palette.material = 0; // rubber
            actions.write(SandboxAction::Load(Preset::MixedPile));
        }
        OPEN_PANEL => {
            // The parameters open from the bar's key; the shots before had only the palette.
            xdotool(&mut smoke, &["key", "e"]);
        }
        SPAWN_AIM => {
            if let Some(at) = to_screen(empty_space(walls)) {
                move_pointer(&mut smoke, at);
                smoke.note("spawn_x", f64::from(at.x));
                smoke.note("spawn_y", f64::from(at.y));
                smoke.note("bodies_before_spawn", physics.len() as f64);
                smoke.before = ids();
            }
        }
        SPAWN_CLICK => {
            xdotool(&mut smoke, &["click", "1"]);
        }
        SHOT_SPAWNED => {
            smoke.spawned = new_body(&smoke.before);
            if let Some(entity) = smoke.spawned {
                smoke.note("spawned_body", entity.to_bits() as f64);
            }
        }
        PANEL_AIM => {
            // The palette's margin halfway down, where the world lies under it and a body
            // would fit (near its title bar none would): a press there must neither spawn
            // nor grab.
            if let Some(at) = on_palette_margin(&mut smoke, (&panels, &palette), 0.0, camera, walls)
            {
                move_pointer(&mut smoke, at);
                smoke.note("bodies_before_panel_click", physics.len() as f64);
            }
        }
        PANEL_CLICK => {
            xdotool(&mut smoke, &["click", "1"]);
        }
        PANEL_COUNT => {
            smoke.note("bodies_after_panel_click", physics.len() as f64);
        }
        QUICK_AWAY => {
            // Off the panels again, so that the next click lands on the palette in the
            // frame the pointer arrives there.
            if let Some(at) = to_screen(empty_space(walls)) {
                move_pointer(&mut smoke, at);
            }
        }
        QUICK_PANEL_CLICK => {
            // A quick click, as a script or a tap makes it: the pointer moves onto the
            // palette and presses in one frame (the app waits for both commands), before
            // egui has seen it there.
            let before = physics.len() as f64;
            if let Some(at) =
                on_palette_margin(&mut smoke, (&panels, &palette), 40.0, camera, walls)
            {
                smoke.note("bodies_before_quick_click", before);
                move_pointer(&mut smoke, at);
                xdotool(&mut smoke, &["click", "1"]);
            }
        }
        QUICK_PANEL_COUNT => {
            smoke.note("bodies_after_quick_click", physics.len() as f64);
        }
        PILE_AIM => {
            palette.shape = ShapeTool::Rectangle;
            palette.half_width = 16.0;
            palette.half_height = 16.0;
            palette.material = 2; // steel
            if let Some((_, at)) = aimable(false) {
                move_pointer(&mut smoke, at);
                smoke.note("pile_x", f64::from(at.x));
                smoke.note("pile_y", f64::from(at.y));
                smoke.note("bodies_before_pile", physics.len() as f64);
                smoke.before = ids();
            }
        }
        PILE_SHIFT_DOWN | PAINT_SHIFT_DOWN => {
            xdotool(&mut smoke, &["keydown", "shift"]);
        }
        PILE_CLICK => {
            xdotool(&mut smoke, &["click", "1"]);
        }
        PILE_SHIFT_UP | PAINT_SHIFT_UP => {
            xdotool(&mut smoke, &["keyup", "shift"]);
        }
        SHOT_INTO_PILE => {
            if let Some(entity) = new_body(&smoke.before) {
                smoke.note("pile_body", entity.to_bits() as f64);
            }
            let speed = f64::from(smoke.pile_max_speed);
            smoke.note("pile_max_speed", speed);
            let near = smoke.pile_near.len() as f64;
            smoke.note("pile_near_bodies", near);
        }
        PAINT_AIM => {
            palette.shape = ShapeTool::Circle;
            palette.radius = 14.0;
            palette.material = 3; // ice
            // Right of the parameters' window, which floats at the left edge: a drag on a
            // window moves the window.
            let start = Vec2::new(walls.min.x + 0.2 * walls.width(), walls.max.y - 40.0);
            let clear = panels
                .0
                .iter()
                .filter(|(id, _)| id.contains("bevy_sandbox_physics_panel"))
                .fold(0.0, |x: f32, (_, r)| x.max(r.right() + 24.0));
            if let Some(at) = to_screen(start).map(|at| Vec2::new(at.x.max(clear), at.y)) {
                move_pointer(&mut smoke, at);
                smoke.note("bodies_before_paint", physics.len() as f64);
            }
        }
        PAINT_PRESS => {
            xdotool(&mut smoke, &["mousedown", "1"]);
        }
        f if f > PAINT_PRESS && f < PAINT_RELEASE => {
            let at = smoke.pointer + Vec2::new(0.02 * walls.width(), 0.0);
            move_pointer(&mut smoke, at);
        }
        PAINT_RELEASE | DRAG_RELEASE => {
            xdotool(&mut smoke, &["mouseup", "1"]);
        }
        DRAG_AIM => {
            if let Some((entity, at)) = aimable(true) {
                smoke.target = Some(entity);
                move_pointer(&mut smoke, at);
                smoke.note("drag_body", entity.to_bits() as f64);
            }
        }
        // The aimed body may have been nudged by the still settling pile since it was chosen.
        DRAG_REAIM | DELETE_REAIM | RIGHT_REAIM => {
            let aim = smoke.target.and_then(|e| bodies.get(e).ok());
            if let Some(at) = aim.and_then(|(.., t, _, _)| to_screen(t.translation.truncate())) {
                move_pointer(&mut smoke, at);
            }
        }
        DRAG_PRESS => {
            xdotool(&mut smoke, &["mousedown", "1"]);
        }
        f if f > DRAG_PRESS && f <= DRAG_LIFT_END => {
            // Lift the body towards the upper middle of the world, 8 px per frame.
            let goal = to_screen(walls.center() + Vec2::new(0.0, 0.25 * walls.height()))
                .unwrap_or(smoke.pointer);
            let at = smoke.pointer + (goal - smoke.pointer).clamp_length_max(8.0);
            move_pointer(&mut smoke, at);
            if f == SHOT_DRAGGING {
                smoke.note("pointer_x", f64::from(at.x));
                smoke.note("pointer_y", f64::from(at.y));
            }
        }
        f if f > DRAG_LIFT_END && f < DRAG_RELEASE => {
            // The flick: fast to the right and up, released while moving.
            let at = smoke.pointer + Vec2::new(24.0, -6.0);
            move_pointer(&mut smoke, at);
        }
        PAUSE | RESUME => {
            xdotool(&mut smoke, &["key", "space"]);
        }
        SINGLE_STEP => {
            xdotool(&mut smoke, &["key", "n"]);
        }
        GRAVITY_OFF | GRAVITY_ON => {
            xdotool(&mut smoke, &["key", "g"]);
        }
        DELETE_AIM | RIGHT_AIM => {
            if let Some((entity, at)) = aimable(true) {
                smoke.target = Some(entity);
                move_pointer(&mut smoke, at);
                let key = if frame == DELETE_AIM { "deleted_body" } else { "right_deleted_body" };
                smoke.note(key, entity.to_bits() as f64);
            }
        }
        DELETE_KEY => {
            xdotool(&mut smoke, &["key", "Delete"]);
        }
        RIGHT_CLICK => {
            xdotool(&mut smoke, &["click", "3"]);
        }
        OVERLAY_ON | OVERLAY_OFF => {
            xdotool(&mut smoke, &["key", "d"]);
        }
        LAB_OPEN => {
            xdotool(&mut smoke, &["key", "l"]);
        }
        PLOTS_OPEN => {
            xdotool(&mut smoke, &["key", "t"]);
        }
        LAB_DEMO | LAB_SWITCH | LAB_SWITCH_BACK => {
            // The demonstration's button, then its switch, as the lab drew them last frame.
            let row = lab.window.rows.iter().find(|(field, ..)| *field == LAB_SWITCH_FIELD);
            if let Some(&(_, switch, button)) = row {
                let at = if frame == LAB_DEMO {
                    Vec2::new(button.center().x, button.center().y)
                } else {
                    // The check box is at the switch's left end.
                    Vec2::new(switch.left() + 8.0, switch.center().y)
                };
                move_pointer(&mut smoke, at);
                xdotool(&mut smoke, &["click", "1"]);
                let on = lab.rule_on();
                let key =
                    if frame == LAB_SWITCH { "rule_on_before" } else { "rule_on_before_back" };
                smoke.note(key, f64::from(u8::from(on)));
            } else {
                smoke
                    .failures
                    .push(format!("frame {frame}: the lab drew no {LAB_SWITCH_FIELD} row"));
            }
            if frame == LAB_DEMO {
                smoke.note("demo_bodies_expected", lab.demo_bodies() as f64);
            }
        }
        SHOT_LAB_SWITCH => {
            smoke.note("rule_on", f64::from(u8::from(lab.rule_on())));
            if let (Some(first), Some(last)) = (lab.plots.samples().next(), lab.plots.latest()) {
                smoke.note("energy_first", first.total_energy());
                smoke.note("energy_last", last.total_energy());
                smoke.note("plot_seconds", last.time - first.time);
            }
        }
        RELOAD_PILE => {
            smoke.note("rule_on_after_back", f64::from(u8::from(lab.rule_on())));
            actions.write(SandboxAction::Load(Preset::MixedPile));
        }
        INSPECT_AIM => {
            if let Some((entity, at)) = aimable(true) {
                smoke.target = Some(entity);
                move_pointer(&mut smoke, at);
                smoke.note("inspected_body", entity.to_bits() as f64);
            }
        }
        INSPECT_CLICK => {
            xdotool(&mut smoke, &["click", "1"]);
        }
        SHOT_LAB => {
            if let Some(pinned) = lab.inspector.pinned {
                smoke.note("pinned_body", pinned.to_bits() as f64);
            }
        }
        RESIZE => {
            // 240 px narrower: the walls follow, the pile is squeezed back inside.
            let size = window.size() - Vec2::new(RESIZE_BY, 0.0);
            smoke.note("width_before_resize", f64::from(window.size().x));
            if let Some(id) = smoke.window.clone() {
                let (w, h) = (format!("{:.0}", size.x), format!("{:.0}", size.y));
                xdotool(&mut smoke, &["windowsize", "--sync", &id, &w, &h]);
            }
        }
        PAUSE_TO_SAVE | RESUME_LOADED => {
            xdotool(&mut smoke, &["key", "space"]);
        }
        SAVE => {
            files.path = smoke.dir.join(SCENE_FILE).to_string_lossy().into_owned();
            xdotool(&mut smoke, &["key", "F5"]);
        }
        SHOT_SAVED => {
            smoke.note("saved", f64::from(u8::from(files.status.as_ref().is_some_and(|s| s.0))));
        }
        CLEAR => {
            xdotool(&mut smoke, &["key", "c"]);
        }
        LOAD_SAVED => {
            xdotool(&mut smoke, &["key", "F9"]);
        }
        SHOT_LOADED => {
            smoke.note("loaded", f64::from(u8::from(files.status.as_ref().is_some_and(|s| s.0))));
        }
        BIG_CLOSE_WINDOWS => {
            // The lab, the plots and the parameters close from the bar's keys.
            for key in ["l", "t", "e"] {
                xdotool(&mut smoke, &["key", key]);
            }
        }
        BIG_RESIZE => {
            big.follow.0 = false;
            big.bounds.0 = crate::world::fixed_walls(BIG_WORLD);
        }
        BIG_LOAD => {
            actions.write(SandboxAction::Load(Preset::Stress(BIG_WORLD_BODIES)));
            if controls.paused {
                xdotool(&mut smoke, &["key", "space"]);
            }
        }
        BIG_FIT => {
            xdotool(&mut smoke, &["key", "f"]);
        }
        SHOT_BIG_WORLD => {
            smoke.note("big_world_bodies", physics.len() as f64);
            smoke.note("screen_px_per_world_px", f64::from(zoom_of(camera)));
        }
        BIG_PAUSE if !controls.paused => {
            xdotool(&mut smoke, &["key", "space"]);
        }
        ZOOM_AIM => {
            // The contact between two bodies nearest the middle of the view, not under a
            // window: the wheel zooms around the pointer, so it must stay under it.
            let middle = window.size() / 2.0;
            let mapping = physics.mapping();
            let contact = physics
                .world()
                .contacts()
                .filter_map(|c| {
                    let (a, b) = (physics.entity(c.a?)?, physics.entity(c.b)?);
                    let at = mapping.position_to_bevy(c.point);
                    let screen = to_screen(at)?;
                    (!panels.covers(screen)).then_some((a, b, at, screen))
                })
                .min_by(|x, y| x.3.distance(middle).total_cmp(&y.3.distance(middle)));
            if let Some((a, b, at, screen)) = contact {
                move_pointer(&mut smoke, screen);
                smoke.note("contact_a", a.to_bits() as f64);
                smoke.note("contact_b", b.to_bits() as f64);
                smoke.note("contact_world_x", f64::from(at.x));
                smoke.note("contact_world_y", f64::from(at.y));
                // The contact as aimed at, and the pointer: xdotool puts it on whole px.
                smoke.note("aim_x", f64::from(screen.x));
                smoke.note("aim_y", f64::from(screen.y));
                smoke.note("pointer_x", f64::from(screen.x.round()));
                smoke.note("pointer_y", f64::from(screen.y.round()));
                smoke.note("step_at_aim", physics.step_count() as f64);
            }
        }
        ZOOM_IN => {
            // Wheel up, one line per click.
            xdotool(&mut smoke, &["click", "--repeat", ZOOM_LINES, "--delay", "1", "4"]);
        }
        SHOT_CONTACT => {
            smoke.note("screen_px_per_world_px", f64::from(zoom_of(camera)));
            // Where the contact point is drawn now, physical px.
            let x = smoke.notes_value("contact_world_x");
            let y = smoke.notes_value("contact_world_y");
            if let (Some(x), Some(y)) = (x, y)
                && let Some(screen) = to_screen(Vec2::new(x as f32, y as f32))
            {
                let scale = f64::from(window.scale_factor());
                smoke.note("contact_screen_x", f64::from(screen.x) * scale);
                smoke.note("contact_screen_y", f64::from(screen.y) * scale);
            }
        }
        f if (REWIND_FIRST..=REWIND_LAST).contains(&f) && (f - REWIND_FIRST).is_multiple_of(3) => {
            if f == REWIND_FIRST {
                smoke.note("step_before_rewind", physics.step_count() as f64);
            }
            xdotool(&mut smoke, &["key", "comma"]);
        }
        _ => {}
    }

    if let Some(&(_, name)) = SHOTS.iter().find(|(f, _)| *f == frame) {
        let notes = std::mem::take(&mut smoke.notes);
        let snapshot = snapshot(
            name, frame, window, camera, &physics, &controls, walls, &panels, &bodies, notes,
        );
        write_snapshot(&mut smoke, &snapshot);
        let mut save = save_to_disk(smoke.dir.join(format!("{name}.png")));
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>, mut saved: ResMut<SavedShots>| {
                save(captured);
                saved.0 += 1;
            },
        );
        smoke.requested += 1;
    }

    if frame >= END {
        let done = saved.0 >= smoke.requested;
        if done || frame >= END + SAVE_TIMEOUT {
            if !done {
                let message =
                    format!("only {} of {} screenshots were written", saved.0, smoke.requested);
                smoke.failures.push(message);
            }
            let summary = serde_json::json!({
                "frames": frame,
                "screenshots": saved.0,
                "failures": smoke.failures,
            });
            let path = smoke.dir.join("summary.json");
            if let Err(error) = std::fs::write(&path, summary.to_string()) {
                error!("cannot write {}: {error}", path.display());
            }
            info!("smoke run done: {summary}");
            exit.write(if smoke.failures.is_empty() { AppExit::Success } else { AppExit::error() });
        }
    }
}

/// Writes `<name>.json`.
fn write_snapshot(smoke: &mut Smoke, snapshot: &Snapshot) {
    let path = smoke.dir.join(format!("{}.json", snapshot.name));
    let written = serde_json::to_string_pretty(snapshot)
        .map_err(|e| e.to_string())
        .and_then(|text| std::fs::write(&path, text).map_err(|e| e.to_string()));
    if let Err(error) = written {
        smoke.failures.push(format!("cannot write {}: {error}", path.display()));
    }
}
