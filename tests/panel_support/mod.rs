//! The egui harness of the panel tests: the plugin's windows drawn into a real
//! `egui::Context` inside a headless Bevy app, with the same system parameters and functions
//! the plugin's egui pass uses. Tests read what was rendered (text shapes, widget rectangles)
//! and press, drag and click with egui pointer events, as a user would.

#![allow(dead_code)]

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_egui::egui;
use bevy_sandbox_physics::plugin::{
    BodyInspectorParams, PhysicsPanel, PhysicsPanelParams, PhysicsPlots, show_body_inspector,
    show_physics_panel, show_physics_plots,
};
use bevy_sandbox_physics::prelude::*;

/// The egui side of the test: a context, the input of the next frame, what was drawn.
#[derive(Resource)]
pub struct TestUi {
    /// The context the windows are drawn into.
    pub ctx: egui::Context,
    /// Input of the next frame.
    pub events: Vec<egui::Event>,
    /// The texts drawn in the last frame, with their rectangles.
    pub texts: Vec<(String, egui::Rect)>,
}

pub fn collect_texts(shape: &egui::Shape, out: &mut Vec<(String, egui::Rect)>) {
    match shape {
        egui::Shape::Text(text) => out.push((
            text.galley.text().to_string(),
            egui::Rect::from_min_size(text.pos, text.galley.size()),
        )),
        egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| collect_texts(s, out)),
        _ => {}
    }
}

/// The panel's egui pass, run in `Update` like the plugin's `EguiPrimaryContextPass`: the
/// panel, and the plots and the inspector while they are open.
pub fn draw_panel(
    mut test: ResMut<TestUi>,
    mut params: PhysicsPanelParams,
    mut plots: ResMut<PhysicsPlots>,
    mut inspector: BodyInspectorParams,
) {
    let test = &mut *test;
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 4000.0))),
        events: std::mem::take(&mut test.events),
        ..default()
    };
    let output = test.ctx.run_ui(input, |ui| {
        show_physics_panel(ui.ctx(), &mut params);
        if plots.open {
            show_physics_plots(ui.ctx(), &mut plots, 8.0);
        }
        show_body_inspector(ui.ctx(), &mut inspector, 8.0);
    });
    test.texts.clear();
    for clipped in &output.shapes {
        collect_texts(&clipped.shape, &mut test.texts);
    }
    // No renderer: the font texture is not uploaded anywhere.
    output.drop_without_applying_deltas();
}

pub fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SandboxPhysicsPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    app.insert_resource(TestUi {
        ctx: egui::Context::default(),
        events: Vec::new(),
        texts: Vec::new(),
    });
    app.add_systems(Update, draw_panel);
    app.finish();
    app.cleanup();
    // egui sizes a new window in its first pass without showing it.
    for _ in 0..3 {
        app.update();
    }
    app
}

pub fn texts(app: &App) -> Vec<(String, egui::Rect)> {
    app.world().resource::<TestUi>().texts.clone()
}

/// The rectangle of the rendered text `label` (the first one, or the one on the row of
/// `row_of`).
pub fn text_rect(app: &App, label: &str, row_of: Option<&str>) -> egui::Rect {
    let texts = texts(app);
    let row = row_of.map(|row| {
        texts.iter().find(|(t, _)| t == row).map(|(_, r)| r.center().y).expect("row label drawn")
    });
    texts
        .iter()
        .filter(|(t, _)| t == label)
        .min_by(|(_, a), (_, b)| {
            let distance = |r: &egui::Rect| row.map_or(r.min.y, |y| (r.center().y - y).abs());
            distance(a).total_cmp(&distance(b))
        })
        .map(|(_, r)| *r)
        .unwrap_or_else(|| panic!("`{label}` is not drawn"))
}

pub fn widget_rect(app: &App, field: &str, index: usize) -> egui::Rect {
    let panel = app.world().resource::<PhysicsPanel>();
    let id = panel.field_widgets(field)[index];
    let ctx = &app.world().resource::<TestUi>().ctx;
    ctx.read_response(id).map(|r| r.rect).unwrap_or_else(|| panic!("{field} has no widget"))
}

pub fn push(app: &mut App, event: egui::Event) {
    app.world_mut().resource_mut::<TestUi>().events.push(event);
}

pub fn button(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Clicks at `pos`: move there, press, release (one frame each).
pub fn click(app: &mut App, pos: egui::Pos2) {
    push(app, egui::Event::PointerMoved(pos));
    app.update();
    push(app, button(pos, true));
    app.update();
    push(app, button(pos, false));
    app.update();
}

/// Clicks the rendered text `label` (on the row of `row_of`).
pub fn click_text(app: &mut App, label: &str, row_of: Option<&str>) {
    let rect = text_rect(app, label, row_of);
    click(app, rect.center());
}

/// Drags from `from` by `by` in 10 moves, then lets go.
pub fn drag(app: &mut App, from: egui::Pos2, by: egui::Vec2) {
    push(app, egui::Event::PointerMoved(from));
    app.update();
    push(app, button(from, true));
    app.update();
    for i in 1..=10 {
        push(app, egui::Event::PointerMoved(from + by * (i as f32 / 10.0)));
        app.update();
    }
    push(app, button(from + by, false));
    app.update();
    push(app, egui::Event::PointerGone);
    app.update();
}

/// The config resource as the panel left it.
pub fn config(app: &App) -> PhysicsConfig {
    app.world().resource::<PhysicsConfig>().clone()
}
