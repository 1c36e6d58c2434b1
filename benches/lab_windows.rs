//! `cargo bench --bench lab_windows`: what the plots and the inspector add to a frame at
//! 2,000 bodies (issue 17: at most 1 ms per 60 Hz frame).
//!
//! ```sh
//! cargo bench --bench lab_windows
//! cargo bench --bench lab_windows -- --bodies 2000 --frames 400
//! cargo bench --bench lab_windows -- --windows plots     # or `inspector`; default both
//! cargo bench --bench lab_windows -- --open always       # or `never`; for instruction counts
//! ```
//!
//! A headless app (`MinimalPlugins` + `SandboxPhysicsPlugin`, two fixed steps per frame as at
//! 60 Hz) steps `scenes::mixed(n, 3)` with sleeping off, so every body stays awake. Each frame
//! an egui pass draws the plot window and the inspector of one body (as the panel's egui pass
//! does) and tessellates the result (as the renderer's extraction does). Frames alternate in
//! blocks of ten between the windows open and closed, so the machine's noise hits both alike.
//!
//! Per frame it records the egui pass (layout and tessellation), the fixed loop (the two steps
//! with, when open, the plots' sample after each) and the whole `app.update()`, in wall time,
//! and the CPU time of the whole process (all of Bevy's threads) over the `app.update()`; it
//! prints the medians of each with the windows open and closed, and their difference. On a
//! machine shared with other work the CPU time is the steadier figure: waiting for a core
//! does not count in it.

use std::time::{Duration, Instant};

#[path = "support/process_cpu.rs"]
mod process_cpu;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_egui::egui;
use bevy_sandbox_physics::physics::{PhysicsConfig, scenes};
use bevy_sandbox_physics::plugin::{
    BodyInspector, BodyInspectorParams, CoordinateMapping, PhysicsPlots, PhysicsSystems,
    body_components, show_body_inspector, show_physics_plots,
};
use bevy_sandbox_physics::prelude::*;
use process_cpu::process_cpu_time;

/// The egui context the windows are drawn into, and the last pass's time.
#[derive(Resource, Default)]
struct Ui {
    ctx: egui::Context,
    pass: Duration,
}

/// When this frame's fixed loop started, and its total time.
#[derive(Resource, Default)]
struct Fixed {
    start: Option<Instant>,
    total: Duration,
}

fn draw(mut ui: ResMut<Ui>, mut plots: ResMut<PhysicsPlots>, mut inspector: BodyInspectorParams) {
    let start = Instant::now();
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1920.0, 1080.0))),
        ..default()
    };
    let output = ui.ctx.run_ui(input, |ui| {
        if plots.open {
            show_physics_plots(ui.ctx(), &mut plots, 40.0);
        }
        show_body_inspector(ui.ctx(), &mut inspector, 40.0);
    });
    let meshes = ui.ctx.tessellate(output.shapes, output.pixels_per_point);
    std::hint::black_box(meshes);
    ui.pass = start.elapsed();
}

fn median(samples: &mut [Duration]) -> f64 {
    samples.sort_unstable();
    samples.get(samples.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut bodies, mut frames) = (2000, 400);
    let (mut windows, mut open_when) = (String::from("both"), String::from("alternate"));
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bodies" | "--frames" => {
                let target = if arg == "--bodies" { &mut bodies } else { &mut frames };
                if let Some(value) = args.next().and_then(|v| v.parse().ok()) {
                    *target = value;
                }
            }
            "--windows" => windows = args.next().unwrap_or(windows),
            "--open" => open_when = args.next().unwrap_or(open_when),
            _ => {} // `cargo bench` passes `--bench`
        }
    }
    let (plots_shown, inspector_shown) = match windows.as_str() {
        "plots" => (true, false),
        "inspector" => (false, true),
        _ => (true, true),
    };

    let scene = scenes::mixed(bodies, 3);
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SandboxPhysicsPlugin::default()))
        .insert_resource(config)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)))
        .insert_resource(PhysicsBounds(Rect::from_corners(Vec2::ZERO, scene.size)))
        .init_resource::<Ui>()
        .init_resource::<Fixed>()
        .add_systems(
            FixedUpdate,
            (
                (|mut f: ResMut<Fixed>| f.start = Some(Instant::now()))
                    .before(PhysicsSystems::Prepare),
                (|mut f: ResMut<Fixed>| {
                    if let Some(start) = f.start.take() {
                        f.total += start.elapsed();
                    }
                })
                .after(PhysicsSystems::Writeback)
                .after(PhysicsSystems::Step),
            ),
        )
        .add_systems(Update, draw);
    app.finish();
    app.cleanup();
    let mapping = CoordinateMapping::from_bounds(Rect::from_corners(Vec2::ZERO, scene.size));
    let mut first = None;
    for desc in &scene.bodies {
        let entity = app.world_mut().spawn(body_components(desc, mapping)).id();
        first.get_or_insert(entity);
    }
    // Settle into a pile, and let egui size its windows.
    for _ in 0..240 {
        app.update();
    }

    let (mut pass, mut fixed, mut frame) = ([vec![], vec![]], [vec![], vec![]], [vec![], vec![]]);
    let mut cpu = [vec![], vec![]];
    for i in 0..frames {
        let open = match open_when.as_str() {
            "always" => true,
            "never" => false,
            _ => (i / 10) % 2 == 1,
        };
        app.world_mut().resource_mut::<PhysicsPlots>().open = open && plots_shown;
        app.world_mut().resource_mut::<BodyInspector>().pinned =
            if open && inspector_shown { first } else { None };
        app.world_mut().resource_mut::<Fixed>().total = Duration::ZERO;
        let (start, cpu_start) = (Instant::now(), process_cpu_time());
        app.update();
        let whole = start.elapsed();
        let cpu_time = process_cpu_time().saturating_sub(cpu_start);
        // The first frame of a block pays for the switch (a window appearing): left out.
        if i % 10 == 0 {
            continue;
        }
        let k = usize::from(open);
        pass[k].push(app.world().resource::<Ui>().pass);
        fixed[k].push(app.world().resource::<Fixed>().total);
        frame[k].push(whole);
        cpu[k].push(cpu_time);
    }
    let awake = app.world().resource::<PhysicsWorld>().world().stats().awake;
    println!("lab_windows: {bodies} bodies ({awake} awake), {frames} frames, medians in ms");
    println!("{:>28} {:>9} {:>9} {:>9}", "", "closed", "open", "added");
    for (name, samples) in [
        ("egui pass + tessellation", &mut pass),
        ("fixed loop (2 steps)", &mut fixed),
        ("whole frame", &mut frame),
        ("whole frame, process CPU", &mut cpu),
    ] {
        let (closed, open) = (median(&mut samples[0]), median(&mut samples[1]));
        println!("{name:>28} {closed:>9.3} {open:>9.3} {:>9.3}", open - closed);
    }
}
