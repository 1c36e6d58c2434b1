//! The live-tuning panel (issue 4; R-CFG-2, R-CFG-3).
//!
//! The panel is drawn into a real `egui::Context` inside a headless Bevy app, with the same
//! system parameter and the same function the plugin's egui pass uses; the tests read what it
//! rendered (text shapes, widget rectangles) and press, drag and click it with egui pointer
//! events, as a user would.

mod panel_support;
mod picking_support;

use panel_support::*;

use bevy::picking::pointer::{PointerButton, PointerId};
use bevy::prelude::*;
use bevy::reflect::structs::Struct;
use bevy_egui::input::WindowToEguiContextMap;
use bevy_egui::{EguiContext, egui};
use bevy_sandbox_physics::plugin::{PhysicsPanel, PhysicsStatistics, PointerCapture};
use bevy_sandbox_physics::prelude::*;

/// R-CFG-2: the field list comes from reflection, not from the parameter table the panel
/// walks, so a field added to `PhysicsConfig` (and reflected, which a test of the plugin
/// enforces) without a table entry has no control, and this test fails.
#[test]
fn panel_covers_every_config_field_r_cfg_2() {
    let app = app();
    let reflected = PhysicsConfig::default();
    assert!(reflected.field_len() >= 20, "too few fields: {}", reflected.field_len());
    let drawn = texts(&app);
    let ctx = &app.world().resource::<TestUi>().ctx;
    let window = ctx
        .memory(|m| m.area_rect(egui::Id::new("bevy_sandbox_physics_panel")))
        .expect("the panel window is shown");
    for index in 0..reflected.field_len() {
        let field = reflected.name_at(index).expect("a field name");
        // Its name is a rendered label…
        assert!(drawn.iter().any(|(t, _)| t == field), "no label for {field}");
        // …with an editor next to it that egui laid out this frame, inside the panel.
        let panel = app.world().resource::<PhysicsPanel>();
        assert!(!panel.field_widgets(field).is_empty(), "no control for {field}");
        let editor = widget_rect(&app, field, 0);
        let label = text_rect(&app, field, None);
        assert!(editor.is_positive() && editor.min.x > label.min.x, "{field}: {editor:?}");
        assert!((editor.center().y - label.center().y).abs() < 12.0, "{field} not on its row");
        assert!(window.contains_rect(editor), "{field} outside the panel");
    }
    // Every group of the spec is a heading, every field shows its range.
    for group in bevy_sandbox_physics::physics::ParameterGroup::ALL {
        assert!(drawn.iter().any(|(t, _)| t == group.title()), "no group {}", group.title());
    }
    assert!(drawn.iter().any(|(t, _)| t == "0 ..= 1000 px/s"), "restitution_threshold range");
    // The live figures and the controls are there.
    for label in [
        "Bodies awake",
        "Contacts",
        "Islands",
        "Step time",
        "Steps/s",
        "⏸ Pause",
        "Step",
        "Gravity",
    ] {
        assert!(drawn.iter().any(|(t, _)| t == label), "no {label}");
    }
}

/// R-CFG-2: a drag on the gravity field changes the resource, and the next step integrates
/// the new gravity.
#[test]
fn a_value_changed_in_the_panel_changes_the_resource_and_the_next_step_r_cfg_2() {
    let mut app = app();
    let ball =
        app.world_mut().spawn((Collider::circle(20.0), Transform::from_xyz(0.0, 300.0, 0.0))).id();
    app.update();
    // Drag gravity's y value 100 px to the right: +4.9 px/s² per px (0.5 % of 980).
    let y_field = widget_rect(&app, "gravity", 1);
    drag(&mut app, y_field.center(), egui::vec2(100.0, 0.0));
    let gravity = config(&app).gravity;
    assert!(gravity.y > 1300.0 && gravity.y < 1600.0, "gravity now {gravity}");
    assert_eq!(gravity.x, 0.0);
    // The core uses it from the next step on: one frame is two steps of v −= g·dt (y up).
    let before = app.world().get::<LinearVelocity>(ball).map(|v| v.0).unwrap_or_default();
    app.update();
    let after = app.world().get::<LinearVelocity>(ball).map(|v| v.0).unwrap_or_default();
    let expected = -2.0 * gravity.y / 120.0;
    assert!(
        ((after.y - before.y) - expected).abs() < 0.01,
        "dv {} vs {expected}",
        after.y - before.y
    );
    assert_eq!(app.world().resource::<PhysicsWorld>().world().config().gravity, gravity);
}

/// R-CFG-3: a value inside its own range that breaks an invariant is refused with the
/// reason, shown in the panel; the config in force does not change.
#[test]
fn a_value_that_breaks_an_invariant_is_refused_with_the_reason_r_cfg_3() {
    let mut app = app();
    let before = config(&app);
    // max_speed may not exceed 0.9·12 px/time_step = 1296 px/s at 120 Hz.
    let field = widget_rect(&app, "max_speed", 0);
    drag(&mut app, field.center(), egui::vec2(80.0, 0.0));
    assert_eq!(config(&app), before, "the invalid value reached the resource");
    let panel = app.world().resource::<PhysicsPanel>();
    let reason = panel.refusal("max_speed").expect("refusal recorded").to_string();
    assert!(reason.contains("max_speed") && reason.contains("allowed"), "{reason}");
    assert!(texts(&app).iter().any(|(t, _)| *t == reason), "the refusal is not shown");
    // Out-of-range values cannot even be entered: dragging far clamps to the range.
    let field = widget_rect(&app, "wall_restitution", 0);
    drag(&mut app, field.center(), egui::vec2(3000.0, 0.0));
    assert_eq!(config(&app).wall_restitution, 1.0);
    // A coarser time step is accepted, with the limits derived from it (§12).
    let field = widget_rect(&app, "time_step", 0);
    drag(&mut app, field.center(), egui::vec2(100.0, 0.0));
    let changed = config(&app);
    assert!(changed.time_step > before.time_step, "{}", changed.time_step);
    assert!(changed.validate().is_ok());
    assert!(changed.max_speed < before.max_speed);
}

#[test]
fn field_reset_global_reset_and_presets_work_from_the_panel() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsConfig>().wall_friction = 1.2;
    app.world_mut().resource_mut::<PhysicsConfig>().time_to_sleep = 2.0;
    app.update();
    // The Reset button on wall_friction's row resets only that field.
    let reset = text_rect(&app, "Reset", Some("wall_friction"));
    click(&mut app, reset.center());
    assert_eq!(config(&app).wall_friction, PhysicsConfig::default().wall_friction);
    assert_eq!(config(&app).time_to_sleep, 2.0);
    // Reset all.
    click_text(&mut app, "Reset all", None);
    assert_eq!(config(&app), PhysicsConfig::default());
    // A shipped preset.
    click_text(&mut app, "icy", None);
    assert!(config(&app).wall_friction < 0.1);
    // Save to a file, change, load it back.
    let path = std::env::temp_dir().join(format!("panel_preset_{}.ron", std::process::id()));
    app.world_mut().resource_mut::<PhysicsPanel>().preset_path = path.display().to_string();
    click_text(&mut app, "Save", None);
    assert!(path.exists(), "not saved");
    click_text(&mut app, "sticky", None);
    assert!(config(&app).wall_friction > 1.0);
    click_text(&mut app, "Load", None);
    assert!(config(&app).wall_friction < 0.1, "not loaded back");
    // A bad file is refused with the reason, and the config stays.
    std::fs::write(&path, "(wall_friction: 9.0)").expect("temp file");
    click_text(&mut app, "Load", None);
    assert!(config(&app).wall_friction < 0.1);
    let status =
        app.world().resource::<PhysicsPanel>().preset_status().map(|(ok, m)| (ok, m.to_string()));
    let _ = std::fs::remove_file(&path);
    let (ok, message) = status.expect("a status");
    assert!(!ok && message.contains("wall_friction") && message.contains("allowed"), "{message}");
}

#[test]
fn pause_single_step_and_gravity_controls_and_live_figures() {
    let mut app = app();
    for i in 0..4 {
        app.world_mut().spawn((
            Collider::circle(20.0),
            Transform::from_xyz(-200.0 + 100.0 * i as f32, 0.0, 0.0),
        ));
    }
    for _ in 0..120 {
        app.update();
    }
    let statistics = app.world().resource::<PhysicsStatistics>();
    assert!(
        (statistics.steps_per_second() - 120.0).abs() <= 1.0,
        "{}",
        statistics.steps_per_second()
    );
    assert!(statistics.step_time_ms() > 0.0);
    let stats = app.world().resource::<PhysicsWorld>().world().stats().clone();
    assert_eq!(stats.awake + stats.sleeping, 4);
    assert!(
        texts(&app)
            .iter()
            .any(|(t, _)| *t == format!("{}", stats.wall_contacts + stats.body_contacts))
    );

    click_text(&mut app, "⏸ Pause", None);
    assert!(app.world().resource::<PhysicsControls>().paused);
    let steps = app.world().resource::<PhysicsWorld>().step_count();
    app.update();
    assert_eq!(app.world().resource::<PhysicsWorld>().step_count(), steps);
    click_text(&mut app, "Step", None);
    app.update();
    assert_eq!(app.world().resource::<PhysicsWorld>().step_count(), steps + 1);
    click_text(&mut app, "Gravity", None);
    assert!(!app.world().resource::<PhysicsControls>().gravity_enabled);
    click_text(&mut app, "▶ Resume", None);
    assert!(!app.world().resource::<PhysicsControls>().paused);
}

/// The egui side of "a press on the panel grabs nothing": the panel's egui layer is found
/// under the pointer, the pointer is captured, and its press does not grab the body below;
/// with the panel closed the same press grabs it.
#[test]
fn a_press_on_the_egui_panel_grabs_no_body_below_it() {
    let mut scene = picking_support::scene();
    let app = &mut scene.app;
    // An egui context on the window (what bevy_egui creates for the primary camera), drawn by
    // the test's egui pass.
    let mut context = EguiContext::default();
    let ctx = context.get_mut().clone();
    let context_entity = app.world_mut().spawn(context).id();
    let mut map = WindowToEguiContextMap::default();
    map.window_to_contexts.entry(scene.window).or_default().insert(context_entity);
    app.insert_resource(map);
    app.insert_resource(TestUi { ctx, events: Vec::new(), texts: Vec::new() });
    // The plugin's own capture system reports the pointers over this context.
    app.add_systems(Update, draw_panel);
    app.world_mut().resource_mut::<PhysicsControls>().gravity_enabled = false;
    scene.frames(3);
    let title = text_rect(&scene.app, "Physics", None);
    let inside = Vec2::new(title.center().x, title.center().y + 60.0);
    // A ball right under that point (screen → world: (x − 400, 300 − y)).
    let world = Vec2::new(inside.x - 400.0, 300.0 - inside.y);
    let ball =
        scene.spawn((Collider::circle(25.0), Transform::from_translation(world.extend(0.0))));
    scene.frames(2);
    scene.press(PointerId::Mouse, inside, PointerButton::Primary);
    let capture = scene.app.world().resource::<PointerCapture>();
    assert!(capture.is_captured(&PointerId::Mouse), "the egui panel did not capture the pointer");
    assert_eq!(scene.held_by(PointerId::Mouse), None, "a press on the panel grabbed a body");
    scene.release(PointerId::Mouse, inside, PointerButton::Primary);
    // Not vacuous: with the panel closed, the same press grabs the ball.
    scene.app.world_mut().resource_mut::<PhysicsPanel>().open = false;
    scene.frames(30); // egui fades a closed window out over a few frames
    scene.press(PointerId::Mouse, inside, PointerButton::Primary);
    assert_eq!(scene.held_by(PointerId::Mouse), Some(ball));
}
