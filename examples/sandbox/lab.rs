//! The lab window: switch a rule of the physics off and watch what goes wrong (R-LAB-1).
//!
//! Each rule of the specification that has a switch in `PhysicsConfig` gets a row: the switch
//! (its tooltip says what fails without the rule) and a button that loads the demonstration
//! scene of `physics::scenes::lab_demos`, in which the failure shows within a few seconds once
//! the switch is off. A line under the row says what to watch.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_sandbox_physics::physics::scenes::{LabDemo, lab_demos};
use bevy_sandbox_physics::physics::{Parameter, ParameterValue, PhysicsConfig};
use bevy_sandbox_physics::plugin::WallInsets;

use crate::presets::Preset;
use crate::tools::SandboxAction;

/// The lab window's state.
#[derive(Resource, Debug)]
pub struct LabWindow {
    /// Open. Default false.
    pub open: bool,
    /// The demonstrations, in the order of the parameter table.
    demos: Vec<LabDemo>,
    /// Where each switch and each demonstration button was drawn last frame (for the smoke
    /// run, which clicks them through X): (config field, switch rect, button rect).
    pub rows: Vec<(&'static str, egui::Rect, egui::Rect)>,
}

impl Default for LabWindow {
    fn default() -> Self {
        Self { open: false, demos: lab_demos(), rows: Vec::new() }
    }
}

/// The lab window.
pub struct LabPlugin;

impl Plugin for LabPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LabWindow>().add_systems(EguiPrimaryContextPass, lab_ui);
    }
}

/// The parameter table's entry of `field`.
fn parameter(field: &str) -> Option<&'static Parameter> {
    PhysicsConfig::PARAMETERS.iter().find(|p| p.name == field)
}

/// The switch of `parameter`: a checkbox, or a choice of labels. Returns the edited config if
/// it changed.
fn switch_ui(
    ui: &mut egui::Ui,
    parameter: &Parameter,
    config: &PhysicsConfig,
) -> (egui::Response, Option<PhysicsConfig>) {
    let mut edited = config.clone();
    let response = match (parameter.get)(config) {
        ParameterValue::Switch(mut on) => {
            let response = ui.checkbox(&mut on, parameter.name);
            (parameter.set)(&mut edited, ParameterValue::Switch(on));
            response
        }
        ParameterValue::Choice(mut index) => {
            let label = parameter.choices.get(index as usize).copied().unwrap_or("?");
            let inner = egui::ComboBox::from_id_salt(parameter.name)
                .selected_text(format!("{}: {label}", parameter.name))
                .show_ui(ui, |ui| {
                    for (i, choice) in parameter.choices.iter().enumerate() {
                        ui.selectable_value(&mut index, i as u32, *choice);
                    }
                });
            (parameter.set)(&mut edited, ParameterValue::Choice(index));
            inner.response
        }
        _ => ui.label(parameter.name),
    };
    let response = response.on_hover_text(parameter.help);
    let changed = edited != *config;
    (response, changed.then_some(edited))
}

fn lab_ui(
    mut contexts: EguiContexts,
    mut lab: ResMut<LabWindow>,
    mut config: ResMut<PhysicsConfig>,
    insets: Res<WallInsets>,
    mut actions: MessageWriter<SandboxAction>,
) -> Result {
    if !lab.open {
        lab.rows.clear();
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = lab.open;
    let mut rows = Vec::new();
    let mut load = None;
    let mut edited = None;
    egui::Window::new("Lab")
        .id(egui::Id::new("sandbox_lab"))
        .open(&mut open)
        .default_pos(egui::pos2(8.0, insets.top + 4.0))
        .default_width(420.0)
        .default_height((ctx.content_rect().height() - insets.top - 16.0).min(600.0))
        .vscroll(true)
        .show(ctx, |ui| {
            ui.label(
                "Each rule of the physics with its switch. Load its scene, switch the rule \
                      off and watch what the rule is for; hover a switch for what fails.",
            );
            if ui.button("All rules on (the spec)").clicked() {
                let defaults = PhysicsConfig::default();
                let mut restored = config.clone();
                for demo in &lab.demos {
                    if let Some(p) = parameter(demo.switch) {
                        (p.set)(&mut restored, (p.get)(&defaults));
                    }
                }
                edited = Some(restored);
            }
            ui.separator();
            for (index, demo) in lab.demos.iter().enumerate() {
                let Some(parameter) = parameter(demo.switch) else { continue };
                ui.horizontal(|ui| {
                    let button = ui
                        .button(format!("▶ {}", demo.name))
                        .on_hover_text("Load this demonstration (R reloads it)");
                    if button.clicked() {
                        load = Some(index);
                    }
                    let (switch, changed) =
                        switch_ui(ui, parameter, edited.as_ref().unwrap_or(&config));
                    if changed.is_some() {
                        edited = changed;
                    }
                    rows.push((demo.switch, switch.rect, button.rect));
                });
                ui.small(demo.watch);
                ui.add_space(4.0);
            }
        });
    lab.open = open;
    lab.rows = rows;
    if let Some(index) = load {
        actions.write(SandboxAction::Load(Preset::Lab(index)));
    }
    if let Some(edited) = edited {
        match edited.validate() {
            Ok(()) => *config = edited,
            Err(error) => warn!("lab: the switch was refused: {error}"),
        }
    }
    Ok(())
}
