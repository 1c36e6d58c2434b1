//! The lab window: switch a rule of the physics off and watch what goes wrong (R-LAB-1).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Whether the lab window is open.
#[derive(Resource, Debug, Default)]
pub struct LabWindow {
    /// Open. Default false.
    pub open: bool,
}

/// The lab window.
pub struct LabPlugin;

impl Plugin for LabPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LabWindow>().add_systems(EguiPrimaryContextPass, lab_ui);
    }
}

fn lab_ui(mut contexts: EguiContexts, mut lab: ResMut<LabWindow>) -> Result {
    if !lab.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = lab.open;
    egui::Window::new("Lab").open(&mut open).show(ctx, |ui| {
        ui.label("Rule switches");
    });
    lab.open = open;
    Ok(())
}
