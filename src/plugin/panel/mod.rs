//! The egui panel that edits every [`PhysicsConfig`] value live (R-CFG-2, R-CFG-3), with the
//! run-time controls, config presets and live figures of the simulation.
//!
//! The panel walks [`PhysicsConfig::PARAMETERS`], the core's table of every field with its
//! group, unit, range and formula, so a new field appears in it without a line of UI code
//! (the test `panel_covers_every_config_field` checks that against the reflected fields).
//! Fields are grouped as the spec groups them (integration, solver, restitution, friction
//! and rolling, position correction, sleeping, tunnelling, drag); each row shows the value
//! with its unit, the allowed range, a tooltip with what the field does and the formula it
//! enters, and a reset to the default ([`parameters`]).
//!
//! # Refused values
//! A drag or typed value cannot leave the field's range. A value inside the range that breaks
//! an invariant between fields (say `max_speed` above `0.9·12 px/time_step`, §12) is refused:
//! the resource keeps the last valid config, and the row shows the value and the reason in
//! red until the field is edited again (and a `warn!` names the field and the allowed range).
//! Changing `time_step` goes through [`PhysicsConfig::with_time_step`], which moves
//! `max_speed`, `max_wall_penetration` and `drag_rate` along so the change is accepted.
//!
//! Accepted changes are written to the [`PhysicsConfig`] resource, which the plugin hands to
//! the core before the next step (and a new `time_step` re-times `FixedUpdate`).

mod inspector;
mod parameters;
mod plots;

pub use inspector::{
    BodyInspector, BodyInspectorParams, CLICK_SLOP, body_inspector_ui, show_body_inspector,
};
pub use plots::{
    MAX_POINTS_PER_LINE, PhaseMillis, PhysicsPlots, PlotSample, physics_plots_ui,
    show_physics_plots,
};

use bevy::ecs::system::SystemParam;
use bevy::picking::pointer::{PointerId, PointerLocation};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::WindowToEguiContextMap;
use bevy_egui::{
    EguiContext, EguiContexts, EguiPlugin, EguiPrimaryContextPass, EguiZoomFactor, egui,
};

use super::controls::{PhysicsControls, PhysicsTimeScale, WallInsets};
use super::diagnostics::PhysicsStatistics;
use super::drag::{DragSettings, PointerCapture};
use super::physics_world::PhysicsWorld;
use super::picking::BodyPickingSystems;
use super::presets::{self, BUILTIN_PRESETS};
use super::resources::{RestoreRemoved, simulation_present};
use super::schedule::PhysicsSystems;
use crate::physics::PhysicsConfig;

/// The live-tuning panel (feature `panel`): an egui window with the run-time controls, the
/// live figures, the presets and an editor of every [`PhysicsConfig`] field.
///
/// It adds `bevy_egui`'s `EguiPlugin` if the app has none yet (add yours before
/// `SandboxPhysicsPlugin` to configure it). egui needs a renderer: an app without Bevy's
/// `RenderPlugin` (headless, tests) gets the resources but no window.
///
/// Pointers over any egui area (of any egui context on their window) are reported to
/// [`PointerCapture`], so that a press there never grabs a body, even in the frame a touch
/// starts (before egui's own picking hits arrive).
///
/// To draw the panel inside your own egui UI instead, disable this plugin, add the
/// [`PhysicsPanel`] resource and call [`physics_panel_ui`] with [`PhysicsPanelParams`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsPanelPlugin {
    /// Keep [`WallInsets`] clear of the egui windows docked at the left and right edges of
    /// the primary window (the panel and any of the app's), so that no body hides under them
    /// when the walls follow the window. Default false.
    pub walls_clear_panels: bool,
}

impl Plugin for PhysicsPanelPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsPanel>()
            .init_resource::<PhysicsPlots>()
            .init_resource::<BodyInspector>()
            .restore_when_removed("as at startup", PhysicsPanel::from_world)
            .restore_when_removed("as at startup", PhysicsPlots::from_world)
            .restore_when_removed("as at startup", BodyInspector::from_world)
            .add_systems(PreUpdate, capture_egui_pointers.in_set(BodyPickingSystems::Capture))
            .add_systems(
                FixedUpdate,
                plots::record_plot_sample.after(PhysicsSystems::Writeback).run_if(
                    resource_exists::<PhysicsWorld>
                        .and_then(resource_exists::<PhysicsPlots>)
                        .and_then(plots::plots_open),
                ),
            );
        if !app.is_plugin_added::<bevy::render::RenderPlugin>() {
            debug!("PhysicsPanelPlugin: no RenderPlugin, so no egui panel (headless app)");
            return;
        }
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        app.add_systems(
            EguiPrimaryContextPass,
            (physics_panel_system, physics_plots_system, body_inspector_system)
                .run_if(simulation_present.and_then(panel_present)),
        );
        if self.walls_clear_panels {
            app.add_systems(
                EguiPrimaryContextPass,
                keep_walls_clear_of_panels
                    .after(physics_panel_system)
                    .run_if(simulation_present.and_then(panel_present)),
            );
        }
    }

    fn finish(&self, app: &mut App) {
        // Clicks pin bodies in the inspector where the drag controller sees presses.
        if app.is_plugin_added::<bevy::picking::PickingPlugin>() {
            app.add_systems(
                PreUpdate,
                inspector::pin_clicked_body.after(BodyPickingSystems::Drag).run_if(
                    simulation_present
                        .and_then(panel_present)
                        .and_then(resource_exists::<PointerCapture>),
                ),
            );
        }
    }
}

/// Whether the panel's resources are all there: with [`simulation_present`], the run
/// condition of the panel's systems, skipped in a frame in which one was removed (it is back
/// in the next).
fn panel_present(
    panel: Option<Res<PhysicsPanel>>,
    plots: Option<Res<PhysicsPlots>>,
    inspector: Option<Res<BodyInspector>>,
) -> bool {
    panel.is_some() && plots.is_some() && inspector.is_some()
}

/// The panel's own state: whether it is open, refused values, the preset file.
#[derive(Resource, Debug)]
pub struct PhysicsPanel {
    /// Whether the panel window is open. Default true.
    pub open: bool,
    /// The file the preset buttons save to and load from. Default `physics_config.ron`.
    pub preset_path: String,
    /// Refused edits by field: the message shown next to the field.
    refused: HashMap<&'static str, String>,
    /// The outcome of the last preset action (ok, message).
    preset_status: Option<(bool, String)>,
    /// The editor widgets of each field in the last drawn frame (two for a vector).
    field_widgets: HashMap<&'static str, Vec<egui::Id>>,
}

impl Default for PhysicsPanel {
    fn default() -> Self {
        Self {
            open: true,
            preset_path: "physics_config.ron".to_string(),
            refused: HashMap::default(),
            preset_status: None,
            field_widgets: HashMap::default(),
        }
    }
}

impl PhysicsPanel {
    /// The refusal shown next to `field`, if its last edit was refused.
    pub fn refusal(&self, field: &str) -> Option<&str> {
        self.refused.get(field).map(String::as_str)
    }

    /// The egui ids of `field`'s editor widgets as last drawn: one per value, x and y for a
    /// vector (for tests and tooling: find them with `egui::Context::read_response`).
    pub fn field_widgets(&self, field: &str) -> &[egui::Id] {
        self.field_widgets.get(field).map_or(&[], Vec::as_slice)
    }

    /// The fields that had an editor in the last drawn frame.
    pub fn drawn_fields(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.field_widgets.keys().copied()
    }

    /// The outcome of the last preset load or save: (succeeded, message).
    pub fn preset_status(&self) -> Option<(bool, &str)> {
        self.preset_status.as_ref().map(|(ok, message)| (*ok, message.as_str()))
    }
}

/// Everything the panel reads and edits.
#[derive(SystemParam)]
pub struct PhysicsPanelParams<'w> {
    /// The config the panel edits.
    pub config: ResMut<'w, PhysicsConfig>,
    /// Pause, single step, gravity.
    pub controls: ResMut<'w, PhysicsControls>,
    /// The simulation, for the live figures.
    pub physics: Res<'w, PhysicsWorld>,
    /// Step time and steps per second, when the diagnostics are on.
    pub statistics: Option<Res<'w, PhysicsStatistics>>,
    /// The panel's own state.
    pub panel: ResMut<'w, PhysicsPanel>,
    /// Drag settings, when picking is on.
    pub drag: Option<ResMut<'w, DragSettings>>,
    /// What the app keeps clear at the window's edges: the panel opens below the top inset.
    pub insets: Option<Res<'w, WallInsets>>,
    /// Slow motion.
    pub time_scale: Option<ResMut<'w, PhysicsTimeScale>>,
}

/// Where the windows of the panel open: 8 px below the top [`WallInsets`] (an app's bar).
fn window_top(insets: Option<&WallInsets>) -> f32 {
    insets.map_or(0.0, |insets| insets.top) + 8.0
}

fn physics_plots_system(
    mut contexts: EguiContexts,
    mut plots: ResMut<PhysicsPlots>,
    insets: Option<Res<WallInsets>>,
) -> Result {
    if plots.open {
        show_physics_plots(contexts.ctx_mut()?, &mut plots, window_top(insets.as_deref()));
    }
    Ok(())
}

fn body_inspector_system(
    mut contexts: EguiContexts,
    mut params: BodyInspectorParams,
    insets: Option<Res<WallInsets>>,
) -> Result {
    if params.inspector.pinned.is_some() {
        show_body_inspector(contexts.ctx_mut()?, &mut params, window_top(insets.as_deref()));
    }
    Ok(())
}

fn physics_panel_system(mut contexts: EguiContexts, mut params: PhysicsPanelParams) -> Result {
    let ctx = contexts.ctx_mut()?;
    show_physics_panel(ctx, &mut params);
    Ok(())
}

/// Shows the panel window (when [`PhysicsPanel::open`]).
pub fn show_physics_panel(ctx: &egui::Context, params: &mut PhysicsPanelParams) {
    let mut open = params.panel.open;
    let top = window_top(params.insets.as_deref());
    egui::Window::new("Physics")
        .id(egui::Id::new("bevy_sandbox_physics_panel"))
        .open(&mut open)
        .default_pos(egui::pos2(8.0, top))
        .default_width(380.0)
        // As tall as the screen allows; the contents scroll below that.
        .default_height(ctx.content_rect().height() - top - 8.0)
        .vscroll(true)
        .show(ctx, |ui| physics_panel_ui(ui, params));
    if open != params.panel.open {
        params.panel.open = open;
    }
}

/// Draws the panel's contents: controls, live figures, presets, every config field.
pub fn physics_panel_ui(ui: &mut egui::Ui, params: &mut PhysicsPanelParams) {
    controls_ui(ui, params);
    ui.separator();
    figures_ui(ui, &params.physics, params.statistics.as_deref());
    ui.separator();
    presets_ui(ui, params);
    ui.separator();
    parameters::parameters_ui(ui, params);
}

fn controls_ui(ui: &mut egui::Ui, params: &mut PhysicsPanelParams) {
    ui.horizontal(|ui| {
        let controls = &mut params.controls;
        let label = if controls.paused { "▶ Resume" } else { "⏸ Pause" };
        if ui.button(label).on_hover_text("Stop or restart the simulation (R-DRAG-4: dragging while paused moves bodies directly)").clicked() {
            controls.toggle_pause();
        }
        if ui
            .add_enabled(controls.paused, egui::Button::new("Step"))
            .on_hover_text("Run exactly one fixed step while paused")
            .clicked()
        {
            controls.request_single_step();
        }
        let mut gravity = controls.gravity_enabled;
        if ui
            .checkbox(&mut gravity, "Gravity")
            .on_hover_text("Switch gravity on or off; switching wakes every body (R-SLP-4)")
            .changed()
        {
            controls.gravity_enabled = gravity;
        }
        if let Some(scale) = params.time_scale.as_mut() {
            let mut value = scale.0;
            let slider = egui::Slider::new(&mut value, PhysicsTimeScale::MIN..=PhysicsTimeScale::MAX)
                .logarithmic(true)
                .suffix("×")
                .max_decimals(2);
            if ui
                .add(slider)
                .on_hover_text("Slow motion: simulated time against real time. The step stays time_step; fewer (or more) steps run per frame")
                .changed()
            {
                scale.0 = value;
            }
        }
        if let Some(drag) = params.drag.as_mut() {
            let mut enabled = drag.enabled;
            if ui.checkbox(&mut enabled, "Drag").on_hover_text("Grab and throw bodies with the pointer").changed() {
                drag.enabled = enabled;
            }
        }
    });
}

fn figures_ui(ui: &mut egui::Ui, physics: &PhysicsWorld, statistics: Option<&PhysicsStatistics>) {
    let stats = physics.world().stats();
    egui::Grid::new("physics_figures").num_columns(4).show(ui, |ui| {
        ui.label("Bodies awake");
        ui.monospace(stats.awake.to_string());
        ui.label("asleep");
        ui.monospace(stats.sleeping.to_string());
        ui.end_row();
        ui.label("Contacts");
        ui.monospace(format!("{}", stats.body_contacts + stats.wall_contacts)).on_hover_text(
            format!("{} between bodies, {} with walls", stats.body_contacts, stats.wall_contacts),
        );
        ui.label("Islands");
        ui.monospace(format!("{} / {}", stats.awake_islands, stats.sleeping_islands))
            .on_hover_text("awake / asleep (§11)");
        ui.end_row();
        let Some(statistics) = statistics else { return };
        ui.label("Step time");
        ui.monospace(format!("{:.3} ms", statistics.step_time_ms()))
            .on_hover_text("Mean wall-clock time of one step over the last second");
        ui.label("Steps/s");
        ui.monospace(format!("{:.0}", statistics.steps_per_second()));
        ui.end_row();
    });
}

fn presets_ui(ui: &mut egui::Ui, params: &mut PhysicsPanelParams) {
    ui.horizontal(|ui| {
        ui.label("Presets:");
        for (name, _) in BUILTIN_PRESETS {
            if ui
                .small_button(name)
                .on_hover_text(format!("Load assets/presets/{name}.ron"))
                .clicked()
            {
                let loaded = presets::builtin_preset(name).unwrap_or_else(|| {
                    Err(presets::PresetError::Parse(format!("no preset {name}")))
                });
                apply_preset(params, loaded, name);
            }
        }
    });
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut params.panel.preset_path).desired_width(180.0))
            .on_hover_text("RON file to save the config to or load it from");
        if ui.button("Save").clicked() {
            let path = params.panel.preset_path.clone();
            params.panel.preset_status = Some(match presets::save_preset(&params.config, &path) {
                Ok(()) => (true, format!("saved to {path}")),
                Err(error) => {
                    warn!("PhysicsConfig preset not saved: {error}");
                    (false, error.to_string())
                }
            });
        }
        if ui.button("Load").clicked() {
            let path = params.panel.preset_path.clone();
            let loaded = presets::load_preset(&path);
            apply_preset(params, loaded, &path);
        }
    });
    if let Some((ok, message)) = &params.panel.preset_status {
        let color = if *ok { ui.visuals().weak_text_color() } else { ui.visuals().error_fg_color };
        ui.colored_label(color, message);
    }
}

fn apply_preset(
    params: &mut PhysicsPanelParams,
    loaded: Result<PhysicsConfig, presets::PresetError>,
    source: &str,
) {
    params.panel.preset_status = Some(match loaded {
        Ok(config) => {
            params.config.set_if_neq(config);
            params.panel.refused.clear();
            (true, format!("loaded {source}"))
        }
        Err(error) => {
            warn!("PhysicsConfig preset {source} refused, the config stays: {error}");
            (false, format!("{source}: {error}"))
        }
    });
}

/// Reports pointers over an egui area (of any egui context on their window) to
/// [`PointerCapture`], so that a press there never grabs a body, even in the frame a touch
/// starts (before egui's own picking hits arrive).
fn capture_egui_pointers(
    pointers: Query<(&PointerId, &PointerLocation)>,
    mut contexts: Query<(&mut EguiContext, Option<&EguiZoomFactor>)>,
    windows: Option<Res<WindowToEguiContextMap>>,
    capture: Option<ResMut<PointerCapture>>,
) {
    let (Some(windows), Some(mut capture)) = (windows, capture) else { return };
    for (pointer, location) in &pointers {
        let Some(location) = location.location() else { continue };
        let bevy::camera::NormalizedRenderTarget::Window(window) = &location.target else {
            continue;
        };
        let Some(context_entities) = windows.window_to_contexts.get(&window.entity()) else {
            continue;
        };
        for &context_entity in context_entities {
            let Ok((mut context, zoom)) = contexts.get_mut(context_entity) else { continue };
            let zoom = zoom.map_or(1.0, |z| z.zoom_factor);
            let position = location.position / zoom;
            let ctx = context.get_mut();
            let over_area = ctx
                .layer_id_at(egui::pos2(position.x, position.y))
                .is_some_and(|layer| layer.order != egui::Order::Background);
            if over_area || ctx.egui_is_using_pointer() {
                capture.capture(*pointer);
            }
        }
    }
}

/// An egui window counts as docked at an edge when it is at least this share of the screen's
/// height tall…
const DOCKED_MIN_HEIGHT_SHARE: f32 = 0.3;
/// …and within this many px of the left or right edge.
const DOCKED_EDGE_SLACK: f32 = 40.0;
/// Space between a docked window and the wall, px.
const DOCKED_GAP: f32 = 6.0;
/// Inset changes below this many px are left out: egui's window rectangles move by fractions
/// of a pixel while its layout settles, and every move of a wall pushes bodies.
const INSET_TOLERANCE: f32 = 0.5;

/// Sets the left and right [`WallInsets`] to the columns the docked egui windows cover.
fn keep_walls_clear_of_panels(
    mut contexts: EguiContexts,
    mut insets: ResMut<WallInsets>,
    window: Query<(), With<PrimaryWindow>>,
) -> Result {
    if window.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (left, right) = docked_columns(ctx);
    if (insets.left - left).abs() > INSET_TOLERANCE
        || (insets.right - right).abs() > INSET_TOLERANCE
    {
        insets.left = left;
        insets.right = right;
    }
    Ok(())
}

/// The widths the visible egui windows docked at the left and right edges cover, px (a gap
/// to the wall included).
fn docked_columns(ctx: &egui::Context) -> (f32, f32) {
    let screen = ctx.content_rect();
    let windows: Vec<egui::Rect> = ctx.memory(|memory| {
        memory
            .areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|layer| layer.order == egui::Order::Middle)
            .filter_map(|layer| memory.area_rect(layer.id))
            .collect()
    });
    let (mut left, mut right) = (0.0_f32, 0.0_f32);
    for rect in windows {
        if rect.height() < DOCKED_MIN_HEIGHT_SHARE * screen.height() {
            continue;
        }
        if rect.left() - screen.left() < DOCKED_EDGE_SLACK {
            left = left.max(rect.right() - screen.left() + DOCKED_GAP);
        } else if screen.right() - rect.right() < DOCKED_EDGE_SLACK {
            right = right.max(screen.right() - rect.left() + DOCKED_GAP);
        }
    }
    (left, right)
}
