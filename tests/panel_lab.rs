//! The lab's windows of the panel (issue 17): live plots (R-LAB-2) and the body inspector
//! (R-LAB-3), drawn into a real `egui::Context` in a headless app (see `panel_support`), and
//! the click that pins a body, driven through the picking plugins (see `picking_support`).

use std::f32::consts::PI;

mod panel_support;
mod picking_support;

use bevy::picking::pointer::{PointerButton, PointerId};
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_sandbox_physics::physics::{Material, ParameterValue, PhysicsConfig, PositionCorrection};
use bevy_sandbox_physics::plugin::{BodyInspector, CLICK_SLOP, PhysicsPlots};
use bevy_sandbox_physics::prelude::*;
use panel_support::*;

/// The frame of the harness (`ManualDuration`), s: two fixed steps of 1/120 s each.
const FRAME: f32 = 1.0 / 60.0;
const G: f32 = 980.0;
const DT: f32 = 1.0 / 120.0;

fn drawn(app: &App, wanted: &str) -> bool {
    texts(app).iter().any(|(t, _)| t.contains(wanted))
}

/// Every word of the drawn texts that reads as a number (a table's cells included).
fn drawn_numbers(app: &App) -> Vec<f32> {
    texts(app)
        .iter()
        .flat_map(|(t, _)| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter_map(|word| word.trim_matches(['(', ')', ',']).trim_start_matches('+').parse().ok())
        .collect()
}

/// Clicks the close button (×) of the window titled `title`: at the right end of its title
/// bar, which egui draws as an icon, not text.
fn close_window(app: &mut App, title: &str, id: &str) {
    let title_rect = text_rect(app, title, None);
    let area = {
        let ctx = &app.world().resource::<TestUi>().ctx;
        ctx.memory(|m| m.area_rect(egui::Id::new(id))).expect("the window is shown")
    };
    click(app, egui::pos2(area.right() - 14.0, title_rect.center().y));
}

/// The bottom wall's top in Bevy's frame (y up), px.
fn floor(app: &App) -> f32 {
    app.world().resource::<PhysicsBounds>().0.min.y
}

/// R-LAB-2: the energy plot of a ball dropped from rest is ½·m·(g·t)² in kinetic energy and
/// the potential it lost; the history stops while paused, forgets what is older than its
/// window, and the window shows its plots and closes.
#[test]
fn the_plots_record_a_falling_balls_energy_stop_while_paused_and_close_r_lab_2() {
    let mut app = app();
    let radius = 20.0;
    let start = floor(&app) + 600.0;
    app.world_mut().spawn((
        Collider::circle(radius),
        PhysicsMaterial(Material::WOOD),
        Transform::from_xyz(0.0, start, 0.0),
    ));
    app.world_mut().resource_mut::<PhysicsPlots>().open = true;
    // 0.25 s of fall: 30 steps, far from the floor (it falls 31 px).
    for _ in 0..15 {
        app.update();
    }
    let plots = app.world().resource::<PhysicsPlots>();
    let latest = *plots.latest().expect("samples were taken");
    let steps = plots.samples().len();
    assert!((29..=31).contains(&steps), "{steps} samples after 30 steps");
    // Semi-implicit Euler gives v_n = n·g·dt exactly (R-INT-1), so K = ½·m·(n·g·dt)²;
    // 1e-4 relative allows f32 rounding of the summed velocity.
    let mass = PI * radius * radius * Material::WOOD.density;
    let n = (latest.time / f64::from(DT)).round() as f32;
    let kinetic = 0.5 * mass * (n * G * DT).powi(2);
    assert!(
        ((latest.kinetic as f32 - kinetic) / kinetic).abs() < 1e-4,
        "kinetic {} after {n} steps, ½m(ngΔt)² = {kinetic}",
        latest.kinetic
    );
    // Potential lost = m·g·(fall) with the fall x_n = g·Δt²·n(n+1)/2, so the total changes by
    // K − ΔU = −½·m·g²·Δt²·n, the energy semi-implicit Euler loses in free fall.
    let first = *plots.samples().next().expect("first sample");
    let lost = first.potential - latest.potential;
    let fall = G * DT * DT * n * (n + 1.0) / 2.0 - G * DT * DT; // since the first sample
    let expected = mass * G * fall;
    assert!(((lost as f32 - expected) / expected).abs() < 2e-3, "ΔU {lost}, m·g·Δx {expected}");
    assert_eq!(latest.awake, 1, "one body awake");
    assert!(latest.momentum.y > 0.0, "momentum points down (core frame y down)");
    for wanted in ["Energy", "kinetic", "potential", "Bodies awake", "Step time per phase"] {
        assert!(drawn(&app, wanted), "`{wanted}` is not drawn");
    }

    app.world_mut().resource_mut::<PhysicsControls>().paused = true;
    for _ in 0..10 {
        app.update();
    }
    let paused = app.world().resource::<PhysicsPlots>().samples().len();
    assert_eq!(paused, steps, "samples were taken while paused");
    app.world_mut().resource_mut::<PhysicsControls>().paused = false;

    app.world_mut().resource_mut::<PhysicsPlots>().history_seconds = 0.5;
    for _ in 0..60 {
        app.update();
    }
    let plots = app.world().resource::<PhysicsPlots>();
    let span = plots.latest().expect("latest").time - plots.samples().next().expect("first").time;
    assert!(span <= 0.5 + 1e-6 && plots.samples().len() <= 61, "{span} s kept");

    close_window(&mut app, "Plots", "bevy_sandbox_physics_plots");
    assert!(!app.world().resource::<PhysicsPlots>().open, "the × did not close the plots");
    let kept = app.world().resource::<PhysicsPlots>().samples().len();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<PhysicsPlots>().samples().len(),
        kept,
        "closed, yet sampling"
    );
    assert!(!drawn(&app, "Step time per phase"), "the plots are still drawn");
}

/// R-LAB-3: the inspector of a ball resting on the floor shows its shape, its mass π·r²·ρ, and
/// its floor contact with the normal impulse m·g·Δt that holds it, read-only until ✏ Edit; an
/// edited velocity takes effect in the next step; a body given a parent stays pinned and says it is not simulated;
/// the × unpins it, and so does the body's despawn.
#[test]
fn the_inspector_shows_a_resting_balls_mass_and_contact_and_edits_its_velocity_r_lab_3() {
    let mut app = app();
    let radius = 20.0;
    let resting = Transform::from_xyz(0.0, floor(&app) + radius, 0.0);
    let ball = app
        .world_mut()
        .spawn((Collider::circle(radius), PhysicsMaterial(Material::STEEL), resting))
        .id();
    for _ in 0..20 {
        app.update();
    }
    app.world_mut().resource_mut::<BodyInspector>().pinned = Some(ball);
    app.update();
    app.update();
    assert!(drawn(&app, "circle r = 20.0 px"), "the shape is not shown");
    let mass = PI * radius * radius * Material::STEEL.density;
    assert!(drawn(&app, &format!("{mass:.1}")), "mass π·r²·ρ = {mass:.1} is not shown");
    assert!(drawn(&app, "Contacts of the last step: 1"), "the floor contact is not listed");
    assert!(drawn(&app, "wall"), "the contact's partner is not shown");
    // At rest the floor's normal impulse per step carries the weight: m·g·Δt (1 % for the
    // solver's residue).
    let weight = mass * G * DT;
    let shown = drawn_numbers(&app).into_iter().find(|v| ((v - weight) / weight).abs() < 0.01);
    assert!(shown.is_some(), "no Jn ≈ m·g·Δt = {weight:.1} among {:?}", drawn_numbers(&app));
    assert!(drawn(&app, "(+0.00, -1.00)"), "the normal into the floor (Bevy frame, y up)");

    // Read-only, the figures are one table of rows; the fields appear with ✏ Edit.
    assert!(drawn(&app, &format!("Mass        {mass:.1}\n")), "no row for the mass");
    assert!(drawn(&app, "\nMaterial    ρ 7.8  μ "), "no row for the material");
    assert!(!texts(&app).iter().any(|(t, _)| t == "Velocity"), "fields before ✏ Edit");
    click_text(&mut app, "✏ Edit", None);
    assert!(app.world().resource::<BodyInspector>().editing, "✏ Edit did not switch");
    assert!(texts(&app).iter().any(|(t, _)| t == "Velocity"), "no fields after ✏ Edit");

    // Drag the velocity's x value by 40 px: 5 px/s per px.
    let field = text_rect(&app, "x ", Some("Velocity"));
    drag(&mut app, field.center(), egui::vec2(40.0, 0.0));
    let written = app.world().get::<LinearVelocity>(ball).expect("velocity").0.x;
    assert!(written > 100.0, "the drag wrote {written} px/s");
    let x0 = app.world().get::<Transform>(ball).expect("pose").translation.x;
    app.update();
    let x1 = app.world().get::<Transform>(ball).expect("pose").translation.x;
    assert!(x1 - x0 > 0.5 * written * FRAME, "moved {} px in a frame at {written} px/s", x1 - x0);

    // A body that leaves the simulation but lives on (given a parent) stays pinned and says
    // so; the × unpins it.
    let parent = app.world_mut().spawn(Transform::default()).id();
    app.world_mut().entity_mut(ball).insert(ChildOf(parent));
    app.update();
    app.update();
    assert!(drawn(&app, "is not simulated"), "a refused body's inspector does not say so");
    close_window(&mut app, "Body", "bevy_sandbox_physics_inspector");
    assert_eq!(app.world().resource::<BodyInspector>().pinned, None, "the × did not unpin");
    app.update();
    assert!(!drawn(&app, "is not simulated"), "the inspector is still drawn");

    // A despawned body (a clear, a loaded scene) unpins itself.
    app.world_mut().resource_mut::<BodyInspector>().pinned = Some(ball);
    app.update();
    assert!(drawn(&app, "is not simulated"), "the re-pinned body is not shown");
    app.world_mut().entity_mut(ball).despawn();
    app.update();
    app.update();
    assert_eq!(app.world().resource::<BodyInspector>().pinned, None, "the despawn did not unpin");
    assert!(!drawn(&app, "is not simulated"), "the inspector is still drawn");
}

/// R-LAB-3: a click on a body (press and release without moving) pins it; a drag does not.
#[test]
fn a_click_on_a_body_pins_it_in_the_inspector_and_a_drag_does_not_r_lab_3() {
    let mut scene = picking_support::scene();
    let at = Vec2::new(0.0, -200.0);
    let body = scene.spawn((Collider::circle(30.0), Transform::from_translation(at.extend(0.0))));
    scene.frames(3);
    let screen = picking_support::Scene::screen_of(scene.position(body));
    scene.press(PointerId::Mouse, screen, PointerButton::Primary);
    scene.frames(1);
    scene.release(PointerId::Mouse, screen + Vec2::splat(1.0), PointerButton::Primary);
    scene.frames(1);
    assert_eq!(
        scene.resource_mut::<BodyInspector>().pinned,
        Some(body),
        "the click pinned nothing"
    );

    scene.resource_mut::<BodyInspector>().pinned = None;
    let screen = picking_support::Scene::screen_of(scene.position(body));
    scene.press(PointerId::Mouse, screen, PointerButton::Primary);
    scene.frames(1);
    let away = screen + Vec2::new(4.0 * CLICK_SLOP, 0.0);
    scene.move_to(PointerId::Mouse, away);
    scene.frames(1);
    scene.release(PointerId::Mouse, away, PointerButton::Primary);
    scene.frames(1);
    assert_eq!(scene.resource_mut::<BodyInspector>().pinned, None, "a drag pinned the body");
}

/// R-LAB-1: every rule switch has a control in the panel, and a click on it turns the rule
/// off in the config resource (and a second click on again); the position correction's
/// drop-down offers Baumgarte and None.
#[test]
fn every_rule_switch_is_in_the_panel_and_a_click_turns_it_off_and_on_r_lab_1() {
    let mut app = app();
    let defaults = PhysicsConfig::default();
    let switches: Vec<_> = PhysicsConfig::PARAMETERS
        .iter()
        .filter(|p| matches!((p.get)(&defaults), ParameterValue::Switch(true)))
        .collect();
    // The rule switches of R-LAB-1 that are on/off (the ninth, position_correction, is the
    // drop-down below), sleeping included.
    assert_eq!(switches.len(), 8, "{:?}", switches.iter().map(|p| p.name).collect::<Vec<_>>());
    for parameter in switches {
        let rect = widget_rect(&app, parameter.name, 0);
        click(&mut app, rect.center());
        let off = (parameter.get)(&config(&app));
        assert_eq!(
            off,
            ParameterValue::Switch(false),
            "{}: a click did not switch it off",
            parameter.name
        );
        let rect = widget_rect(&app, parameter.name, 0);
        click(&mut app, rect.center());
        let on = (parameter.get)(&config(&app));
        assert_eq!(
            on,
            ParameterValue::Switch(true),
            "{}: a second click did not switch it on",
            parameter.name
        );
    }
    assert_eq!(config(&app), defaults, "a switch left something else changed");

    for (label, wanted) in
        [("Baumgarte", PositionCorrection::Baumgarte), ("None", PositionCorrection::None)]
    {
        let rect = widget_rect(&app, "position_correction", 0);
        click(&mut app, rect.center());
        app.update(); // the pop-up opens in the frame after the click
        let option = texts(&app)
            .into_iter()
            .find(|(t, _)| t == label)
            .unwrap_or_else(|| panic!("the drop-down offers no {label}"));
        click(&mut app, option.1.center());
        assert_eq!(config(&app).position_correction, wanted, "picking {label}");
    }
}
