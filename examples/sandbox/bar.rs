//! The slim bar at the top of the window: which windows are open, the run controls and the
//! live figures (R-VIEW-1).
//!
//! Every window of the sandbox opens on demand from here (or by its key): the physics
//! parameters, the tool palette, the lab, the plots. Only the palette is open at the start.
//! The windows float over the world, which is the whole window below the bar (97 % of a
//! 1600 × 900 window): opening or moving a window never moves a wall, so it never squeezes the
//! scene. Collapse or close a window to see what is under it.
//!
//! Its second row is the rewind timeline (`PhysicsRewindPlugin`, issue 18): the last 10 s in
//! snapshots 0.1 s apart. Dragging it pauses and shows the world as it was; Resume (or
//! Space) goes on from there, and the snapshots after that moment are dropped at the first
//! step, since a new future begins. `,` and `.` step back and forward one snapshot.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_sandbox_physics::plugin::{
    BodyInspector, PhysicsPanel, PhysicsPlots, PhysicsRewind, PhysicsStatistics, PhysicsTimeScale,
    WallInsets,
};
use bevy_sandbox_physics::prelude::*;

use crate::lab::LabWindow;
use crate::tools::{EguiFocus, FpsMeter, Palette};

/// Space between the bar and the top wall, px.
const BAR_GAP: f32 = 4.0;

/// The bar and the window toggles' keys.
pub struct BarPlugin;

impl Plugin for BarPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, close_the_parameters_at_start)
            .add_systems(Update, (window_keys, rewind_keys))
            .add_systems(EguiPrimaryContextPass, top_bar);
    }
}

/// The parameters open from the bar (or E): at the start the world gets the room.
fn close_the_parameters_at_start(mut panel: ResMut<PhysicsPanel>) {
    panel.open = false;
}

/// E, L, T: the parameters, the lab, the plots (P, the palette, is with the tools' keys).
fn window_keys(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<EguiFocus>,
    mut panel: ResMut<PhysicsPanel>,
    mut lab: ResMut<LabWindow>,
    mut plots: ResMut<PhysicsPlots>,
) {
    if focus.keyboard {
        return;
    }
    if keys.just_pressed(KeyCode::KeyE) {
        panel.open = !panel.open;
    }
    if keys.just_pressed(KeyCode::KeyL) {
        lab.open = !lab.open;
    }
    if keys.just_pressed(KeyCode::KeyT) {
        plots.open = !plots.open;
    }
}

/// `,` and `.`: pause and go back or forward one snapshot of the rewind timeline.
fn rewind_keys(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<EguiFocus>,
    physics: Res<PhysicsWorld>,
    mut controls: ResMut<PhysicsControls>,
    mut rewind: ResMut<PhysicsRewind>,
) {
    if focus.keyboard {
        return;
    }
    let now = rewind.requested().unwrap_or_else(|| physics.step_count());
    let target = if keys.just_pressed(KeyCode::Comma) {
        rewind.step_before(now)
    } else if keys.just_pressed(KeyCode::Period) {
        rewind.step_after(now)
    } else {
        return;
    };
    if let Some(step) = target {
        go_back_to(step, &mut rewind, &mut controls);
    }
}

/// Pauses and asks for the world of snapshot `step`.
fn go_back_to(step: u64, rewind: &mut PhysicsRewind, controls: &mut PhysicsControls) {
    controls.paused = true;
    rewind.request_rewind(step);
}

/// The rewind row: a slider over the snapshots kept, in seconds before the newest, the
/// buttons for one snapshot back and forward, and what the snapshots cost.
fn timeline_row(
    ui: &mut egui::Ui,
    rewind: &mut PhysicsRewind,
    controls: &mut PhysicsControls,
    physics: &PhysicsWorld,
) {
    let Some((oldest, newest)) = rewind.reach() else {
        ui.label("⏪ Rewind: no snapshot yet");
        return;
    };
    let dt = f64::from(physics.world().config().time_step);
    let now = rewind.requested().unwrap_or_else(|| physics.step_count()).min(newest);
    let seconds = |step: u64| (step as f64 - newest as f64) * dt;
    ui.label("⏪ Rewind").on_hover_text(
        "The last 10 s, a snapshot every 0.1 s: drag to look back (it pauses), \
         Resume to go on from there (, and . step one snapshot)",
    );
    if ui.button("⏴").on_hover_text(", : one snapshot back").clicked()
        && let Some(step) = rewind.step_before(now)
    {
        go_back_to(step, rewind, controls);
    }
    if ui.button("⏵").on_hover_text(". : one snapshot forward").clicked()
        && let Some(step) = rewind.step_after(now)
    {
        go_back_to(step, rewind, controls);
    }
    let figures = format!(
        "{:+.1} s of {:.1} s · {:.1} MB",
        seconds(now),
        -seconds(oldest),
        rewind.memory_bytes() as f64 / 1e6
    );
    // The figures laid out first, so that the slider leaves exactly their width free.
    let figures = egui::WidgetText::from(egui::RichText::new(figures).monospace()).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Monospace,
    );
    let text_width = figures.size().x + ui.spacing().item_spacing.x;
    ui.spacing_mut().slider_width = (ui.available_width() - text_width).max(100.0);
    let mut at = seconds(now);
    let slider = egui::Slider::new(&mut at, seconds(oldest)..=0.0).show_value(false);
    if ui.add(slider).changed() {
        let step = newest as f64 + (at / dt).round();
        controls.paused = true;
        if let Some(landing) = rewind.landing_step(step.max(0.0) as u64)
            && landing != now
        {
            go_back_to(landing, rewind, controls);
        }
    }
    ui.label(figures);
}

/// The toggles, controls and figures; keeps the top wall below the bar.
#[expect(clippy::too_many_arguments, reason = "the bar switches every window")]
fn top_bar(
    mut contexts: EguiContexts,
    mut panel: ResMut<PhysicsPanel>,
    mut palette: ResMut<Palette>,
    mut lab: ResMut<LabWindow>,
    mut plots: ResMut<PhysicsPlots>,
    mut inspector: ResMut<BodyInspector>,
    mut controls: ResMut<PhysicsControls>,
    mut debug: ResMut<PhysicsDebugDraw>,
    mut insets: ResMut<WallInsets>,
    mut scale: ResMut<PhysicsTimeScale>,
    mut rewind: ResMut<PhysicsRewind>,
    physics: Res<PhysicsWorld>,
    statistics: Option<Res<PhysicsStatistics>>,
    time: Res<Time<Real>>,
    mut fps: Local<FpsMeter>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    fps.tick(time.delta_secs_f64());
    let mut bar_ui = egui::Ui::new(
        ctx.clone(),
        "sandbox_bar".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.content_rect()),
    );
    let bar = egui::Panel::top("sandbox_bar").resizable(false).show(&mut bar_ui, |ui| {
        ui.horizontal(|ui| {
            toggle(ui, &mut panel.open, "⚙ Parameters", "E", "Every PhysicsConfig value, presets");
            toggle(ui, &mut palette.open, "✚ Tools", "P", "What a click spawns; the scenes");
            toggle(
                ui,
                &mut lab.open,
                "🔬 Lab",
                "L",
                "Switch a rule of the physics off and see why it exists",
            );
            toggle(
                ui,
                &mut plots.open,
                "📈 Plots",
                "T",
                "Energy, momentum, bodies awake, step time",
            );
            ui.toggle_value(&mut inspector.pick_on_click, "🔍 Inspect")
                .on_hover_text("A click on a body (without dragging) pins its inspector");
            ui.separator();
            let pause = if controls.paused { "▶ Resume" } else { "⏸ Pause" };
            if ui.button(pause).on_hover_text("Space").clicked() {
                controls.toggle_pause();
            }
            if ui.button("Step").on_hover_text("N: one fixed step (pauses first)").clicked() {
                controls.paused = true;
                controls.request_single_step();
            }
            ui.checkbox(&mut controls.gravity_enabled, "Gravity").on_hover_text("G");
            ui.checkbox(&mut debug.enabled, "Overlay")
                .on_hover_text("D: contacts, normals, islands");
            let mut speed = scale.0;
            let slider =
                egui::Slider::new(&mut speed, PhysicsTimeScale::MIN..=PhysicsTimeScale::MAX)
                    .logarithmic(true)
                    .suffix("×")
                    .max_decimals(2);
            let hover = "Slow motion: the 120 Hz step stays, fewer steps run per frame";
            if ui.add(slider).on_hover_text(hover).changed() {
                scale.0 = speed;
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let stats = physics.world().stats();
                let step = statistics
                    .as_deref()
                    .map_or(String::new(), |s| format!(" · step {:.2} ms", s.step_time_ms()));
                ui.monospace(format!(
                    "{:.0} fps · {} bodies · {} awake{step}",
                    fps.fps(),
                    physics.len(),
                    stats.awake
                ));
            });
        });
        ui.horizontal(|ui| timeline_row(ui, &mut rewind, &mut controls, &physics));
    });
    let top = bar.response.rect.height() + BAR_GAP;
    if (insets.top - top).abs() > 0.5 {
        insets.top = top;
    }
    Ok(())
}

/// A window toggle with its key in the label's tooltip.
fn toggle(ui: &mut egui::Ui, open: &mut bool, label: &str, key: &str, what: &str) {
    ui.toggle_value(open, label).on_hover_text(format!("{what} ({key})"));
}
