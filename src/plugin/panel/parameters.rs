//! The parameter editor: one row per [`PhysicsConfig`] field, grouped, with its unit, range,
//! tooltip and reset; an edit that breaks an invariant is refused and shown in red.

use bevy::prelude::*;
use bevy_egui::egui;

use super::PhysicsPanelParams;
use crate::physics::{Parameter, ParameterGroup, ParameterValue, PhysicsConfig};

/// Draws every config field, grouped as [`ParameterGroup::ALL`], with a reset of all.
pub(super) fn parameters_ui(ui: &mut egui::Ui, params: &mut PhysicsPanelParams) {
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
        ParameterValue::Choice(_) => parameter.choices.join(" / "),
        _ => format!("{} ..= {} {unit}", parameter.min, parameter.max).trim_end().to_string(),
    }
}

/// A value as text; a choice by its label.
fn value_text(parameter: &Parameter, value: ParameterValue) -> String {
    match value {
        ParameterValue::Float(x) => format!("{x}"),
        ParameterValue::Count(x) => format!("{x}"),
        ParameterValue::Switch(x) => format!("{x}"),
        ParameterValue::Vector(v) => format!("({}, {})", v.x, v.y),
        ParameterValue::Choice(x) => choice_label(parameter, x).to_string(),
    }
}

/// The label of choice `index` of `parameter` ("?" past its labels, which the config's
/// setter never stores).
fn choice_label(parameter: &Parameter, index: u32) -> &'static str {
    parameter.choices.get(index as usize).copied().unwrap_or("?")
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
        value_text(parameter, default),
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
            ParameterValue::Choice(x) => {
                // A drop-down of the labels; the edit is the index picked.
                let selected = choice_label(parameter, *x);
                let combo = egui::ComboBox::from_id_salt(("physics_parameter", parameter.name))
                    .selected_text(selected)
                    .show_ui(ui, |ui| {
                        for (index, label) in parameter.choices.iter().enumerate() {
                            ui.selectable_value(&mut *x, index as u32, *label);
                        }
                    });
                vec![combo.response]
            }
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
            .on_hover_text(format!("Back to the default {}", value_text(parameter, default)))
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
        ParameterValue::Choice(x) => x as f32,
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
            let message =
                format!("refused {} = {}: {error}", parameter.name, value_text(parameter, value));
            warn!("PhysicsConfig panel: {message}; the last valid config stays");
            params.panel.refused.insert(parameter.name, message);
        }
    }
}
