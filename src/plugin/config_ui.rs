//! The egui panel that edits every [`PhysicsConfig`] value live (R-CFG-2, R-CFG-3), with the
//! run-time controls, config presets and live figures of the simulation.
//!
//! The panel walks [`PhysicsConfig::PARAMETERS`], the core's table of every field with its
//! group, unit, range and formula, so a new field appears in it without a line of UI code
//! (the test `panel_covers_every_config_field` checks that against the reflected fields).
//! Fields are grouped as the spec groups them (integration, solver, restitution, friction
//! and rolling, position correction, sleeping, tunnelling, drag); each row shows the value
//! with its unit, the allowed range, a tooltip with what the field does and the formula it
//! enters, and a reset to the default.
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
//!
//! # Use it elsewhere
//! [`physics_panel_ui`] draws the panel's contents into any [`egui::Ui`] with the system
//! parameter [`PhysicsPanelParams`]; [`show_physics_panel`] draws the panel window the plugin
//! shows. Turn the plugin's panel off with
//! [`SandboxPhysicsPlugin::panel`](super::SandboxPhysicsPlugin) to embed it in your own UI.

use std::collections::VecDeque;

use bevy::ecs::system::SystemParam;
use bevy::picking::pointer::{PointerId, PointerLocation};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_egui::input::WindowToEguiContextMap;
use bevy_egui::{
    EguiContext, EguiContexts, EguiPlugin, EguiPrimaryContextPass, EguiZoomFactor, egui,
};

use super::controls::PhysicsControls;
use super::physics_world::PhysicsWorld;
use super::picking::{BodyPickingSystems, DragSettings, PointerCapture};
use super::presets::{self, BUILTIN_PRESETS};
use super::{PhysicsSchedule, PhysicsSystems};
use crate::physics::{Parameter, ParameterGroup, ParameterValue, PhysicsConfig};

/// The live-tuning panel; [`SandboxPhysicsPlugin`](super::SandboxPhysicsPlugin) adds it
/// (feature `panel`, on by default) unless told not to.
///
/// It adds `bevy_egui`'s `EguiPlugin` if the app has none yet (add yours before
/// `SandboxPhysicsPlugin` to configure it). egui needs a renderer: an app without Bevy's
/// `RenderPlugin` (headless, tests) gets the resources and statistics but no window.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsPanelPlugin;

impl Plugin for PhysicsPanelPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsPanel>().init_resource::<PhysicsStatistics>().add_systems(
            PhysicsSchedule,
            record_step_statistics.after(PhysicsSystems::Step).before(PhysicsSystems::Writeback),
        );
        if !app.is_plugin_added::<bevy::render::RenderPlugin>() {
            debug!("PhysicsPanelPlugin: no RenderPlugin, so no egui panel (headless app)");
            return;
        }
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        app.add_systems(EguiPrimaryContextPass, physics_panel_system)
            .add_systems(PreUpdate, capture_egui_pointers.in_set(BodyPickingSystems::Capture));
    }
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

/// Live figures over the last second of real time: step time and steps per second.
#[derive(Resource, Debug, Default)]
pub struct PhysicsStatistics {
    /// (real time in s, step duration in ms) of the steps in the window.
    samples: VecDeque<(f64, f32)>,
    /// Real time of the latest sample.
    now: f64,
}

impl PhysicsStatistics {
    /// The window the figures are averaged over, s.
    pub const WINDOW: f64 = 1.0;

    /// Records a step that took `millis` ms at real time `now` (s).
    pub fn record(&mut self, now: f64, millis: f32) {
        self.now = now;
        self.samples.push_back((now, millis));
        while self.samples.front().is_some_and(|&(t, _)| t <= now - Self::WINDOW) {
            self.samples.pop_front();
        }
    }

    /// Mean wall-clock time of one step over the window (moving average), ms.
    pub fn step_time_ms(&self) -> f32 {
        if self.samples.is_empty() {
            return 0.0;
        }
        self.samples.iter().map(|&(_, ms)| ms).sum::<f32>() / self.samples.len() as f32
    }

    /// Steps run in the last [`WINDOW`](Self::WINDOW) seconds of real time, per second.
    pub fn steps_per_second(&self) -> f32 {
        self.samples.iter().filter(|&&(t, _)| t > self.now - Self::WINDOW).count() as f32
            / Self::WINDOW as f32
    }
}

/// Records the duration of each step the plugin ran.
fn record_step_statistics(
    physics: Res<PhysicsWorld>,
    time: Res<Time<Real>>,
    mut statistics: ResMut<PhysicsStatistics>,
) {
    if physics.stepped_last_run() {
        let millis = physics.world().stats().timings.total.as_secs_f32() * 1000.0;
        statistics.record(time.elapsed_secs_f64(), millis);
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
    /// Step time and steps per second.
    pub statistics: Res<'w, PhysicsStatistics>,
    /// The panel's own state.
    pub panel: ResMut<'w, PhysicsPanel>,
    /// Drag settings, when picking is on.
    pub drag: Option<ResMut<'w, DragSettings>>,
}

fn physics_panel_system(mut contexts: EguiContexts, mut params: PhysicsPanelParams) -> Result {
    let ctx = contexts.ctx_mut()?;
    show_physics_panel(ctx, &mut params);
    Ok(())
}

/// Shows the panel window (when [`PhysicsPanel::open`]).
pub fn show_physics_panel(ctx: &egui::Context, params: &mut PhysicsPanelParams) {
    let mut open = params.panel.open;
    egui::Window::new("Physics")
        .id(egui::Id::new("bevy_sandbox_physics_panel"))
        .open(&mut open)
        .default_pos(egui::pos2(8.0, 8.0))
        .default_width(380.0)
        // As tall as the screen allows; the contents scroll below that.
        .default_height(ctx.content_rect().height() - 16.0)
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
    figures_ui(ui, &params.physics, &params.statistics);
    ui.separator();
    presets_ui(ui, params);
    ui.separator();
    parameters_ui(ui, params);
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
        if let Some(drag) = params.drag.as_mut() {
            let mut enabled = drag.enabled;
            if ui.checkbox(&mut enabled, "Drag").on_hover_text("Grab and throw bodies with the pointer").changed() {
                drag.enabled = enabled;
            }
        }
    });
}

fn figures_ui(ui: &mut egui::Ui, physics: &PhysicsWorld, statistics: &PhysicsStatistics) {
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

fn parameters_ui(ui: &mut egui::Ui, params: &mut PhysicsPanelParams) {
    ui.horizontal(|ui| {
        ui.strong("Parameters");
        let at_default = *params.config == PhysicsConfig::default();
        if ui
            .add_enabled(!at_default, egui::Button::new("Reset all"))
            .on_hover_text("Every field back to the spec's default (§14)")
            .clicked()
        {
            params.config.set_if_neq(PhysicsConfig::default());
            params.panel.refused.clear();
        }
    });
    params.panel.field_widgets.clear();
    let defaults = PhysicsConfig::default();
    for group in ParameterGroup::ALL {
        egui::CollapsingHeader::new(group.title()).default_open(true).show(ui, |ui| {
            egui::Grid::new(("physics_parameters", group.title()))
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    for parameter in PhysicsConfig::PARAMETERS.iter().filter(|p| p.group == group) {
                        parameter_row(ui, params, parameter, &defaults);
                    }
                });
        });
    }
}

/// Width of the field-name column, px (fits `warm_start_normal_threshold`).
const LABEL_WIDTH: f32 = 190.0;

/// Range text of a parameter: "0 ..= 1000 px/s".
fn range_text(parameter: &Parameter) -> String {
    let unit = if parameter.unit == "1" { "" } else { parameter.unit };
    match (parameter.get)(&PhysicsConfig::default()) {
        ParameterValue::Switch(_) => "on / off".to_string(),
        _ => format!("{} ..= {} {unit}", parameter.min, parameter.max).trim_end().to_string(),
    }
}

fn value_text(value: ParameterValue) -> String {
    match value {
        ParameterValue::Float(x) => format!("{x}"),
        ParameterValue::Count(x) => format!("{x}"),
        ParameterValue::Switch(x) => format!("{x}"),
        ParameterValue::Vector(v) => format!("({}, {})", v.x, v.y),
    }
}

/// Drag speed per pixel: half a percent of the default (or of a fifth of the range).
fn drag_speed(parameter: &Parameter, default: f32) -> f64 {
    let base = if default != 0.0 { default.abs() } else { (parameter.max - parameter.min) * 0.2 };
    f64::from(base) * 0.005
}

fn parameter_row(
    ui: &mut egui::Ui,
    params: &mut PhysicsPanelParams,
    parameter: &'static Parameter,
    defaults: &PhysicsConfig,
) {
    let default = (parameter.get)(defaults);
    let tooltip = format!(
        "{}\n\nUnit: {}   Range: {}   Default: {}",
        parameter.help,
        if parameter.unit.is_empty() { "–" } else { parameter.unit },
        range_text(parameter),
        value_text(default),
    );
    // One label width for every group, so the editors of all groups line up.
    let label_size = egui::vec2(LABEL_WIDTH, ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(
        label_size,
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_width(LABEL_WIDTH);
            ui.label(parameter.name).on_hover_text(&tooltip);
        },
    );

    let current = (parameter.get)(&params.config);
    let mut edited = current;
    let (min, max) = (parameter.min, parameter.max);
    let suffix = if parameter.unit.is_empty() || parameter.unit == "1" {
        String::new()
    } else {
        format!(" {}", parameter.unit)
    };
    let editors: Vec<egui::Response> = ui
        .horizontal(|ui| match &mut edited {
            ParameterValue::Float(x) => {
                let speed = drag_speed(parameter, value_f32(default));
                vec![ui.add(egui::DragValue::new(x).range(min..=max).speed(speed).suffix(&suffix))]
            }
            ParameterValue::Count(x) => {
                vec![
                    ui.add(
                        egui::DragValue::new(x)
                            .range(min as u32..=max as u32)
                            .speed(0.1)
                            .suffix(&suffix),
                    ),
                ]
            }
            ParameterValue::Switch(x) => vec![ui.checkbox(x, "")],
            ParameterValue::Vector(v) => {
                let speed = drag_speed(parameter, value_f32(default));
                let x = ui
                    .add(egui::DragValue::new(&mut v.x).range(min..=max).speed(speed).prefix("x "));
                let y = ui.add(
                    egui::DragValue::new(&mut v.y)
                        .range(min..=max)
                        .speed(speed)
                        .prefix("y ")
                        .suffix(&suffix),
                );
                vec![x, y]
            }
        })
        .inner;
    let ids = editors.into_iter().map(|editor| editor.on_hover_text(&tooltip).id).collect();
    params.panel.field_widgets.insert(parameter.name, ids);

    ui.horizontal(|ui| {
        if ui
            .add_enabled(current != default, egui::Button::new("Reset").small())
            .on_hover_text(format!("Back to the default {}", value_text(default)))
            .clicked()
        {
            edited = default;
        }
        ui.weak(range_text(parameter));
    });
    ui.end_row();

    if let Some(message) = params.panel.refused.get(parameter.name) {
        ui.label("");
        ui.colored_label(ui.visuals().error_fg_color, message);
        ui.end_row();
    }

    if edited != current {
        apply_edit(params, parameter, edited);
    }
}

fn value_f32(value: ParameterValue) -> f32 {
    match value {
        ParameterValue::Float(x) => x,
        ParameterValue::Count(x) => x as f32,
        ParameterValue::Switch(x) => f32::from(u8::from(x)),
        ParameterValue::Vector(v) => v.length(),
    }
}

/// Writes one edited field if the whole config stays valid; otherwise records the refusal.
fn apply_edit(
    params: &mut PhysicsPanelParams,
    parameter: &'static Parameter,
    value: ParameterValue,
) {
    let mut candidate = params.config.clone();
    match (parameter.name, value) {
        // A new time step moves the limits derived from it along (§12, §13).
        ("time_step", ParameterValue::Float(dt)) => candidate = candidate.with_time_step(dt),
        _ => (parameter.set)(&mut candidate, value),
    }
    match candidate.validate() {
        Ok(()) => {
            params.panel.refused.remove(parameter.name);
            params.config.set_if_neq(candidate);
        }
        Err(error) => {
            let message = format!("refused {} = {}: {error}", parameter.name, value_text(value));
            warn!("PhysicsConfig panel: {message}; the last valid config stays");
            params.panel.refused.insert(parameter.name, message);
        }
    }
}

/// Reports pointers over an egui area (of any egui context on their window) to
/// [`PointerCapture`], so that a press there never grabs a body, even in the frame a touch
/// starts (before egui's own picking hits arrive).
pub fn capture_egui_pointers(
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
