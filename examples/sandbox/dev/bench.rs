//! `--bench <bodies>`: loads the stress scene with that many bodies, runs for `--seconds`
//! (default 12) of wall-clock time without vsync, each frame advancing the simulation by
//! 1/60 s (two fixed steps, as at 60 Hz, however slowly the frame is drawn), and prints the
//! frame rate of the whole app (simulation, rendering, egui) while the bodies fall and tumble
//! (the first 3 s after the load) and after that (when most of them rest or sleep). Then it
//! exits.
//!
//! It also prints the time of the main schedules alone (`First` … `Last`: input, the fixed
//! physics steps, the app's systems, transforms, egui), which runs in parallel with the
//! renderer: with a software renderer the frame rate measures the rasteriser, and this time
//! is what the app itself costs per frame. The palette is hidden.
//!
//! Its "CPU time per frame" line is R-VIEW-2's figure (10,000 awake bodies within 16.7 ms a
//! frame, with `--world 8000x3000` so that they fit; see docs/sandbox.md). Those times are
//! wall-clock times, which a software rasteriser sharing the cores inflates: it preempts the
//! app's threads. On Linux the bench therefore also counts CPU time (`schedstat` in
//! `/proc/thread-self` and `/proc/self/task`): the main thread's in the main schedules and in
//! the fixed loop, and all that Bevy's task pools ran (which may include some of the render
//! world's systems, so it is an upper bound), and prints the same per-frame figure from it.
//!
//! The frames in which every body sleeps are also summed apart: what a world at rest costs
//! outside the physics, per frame and per body (issue 20 asks for at most 0.1 µs).
//!
//! It spawns exactly the bodies asked for or fails with a message saying how many fit. With
//! `--lab` the plots and the inspector (of one body) are open while it measures, with
//! `--lab-window` the lab's window of rule switches too.
//!
//! With `--at-rest` the same bodies start at rest and gravity is off, so that every body
//! falls asleep after the sleep time (§11) and stays asleep: the figure of a sleeping world
//! (the stress scene's piles with gravity take longer than a run to sleep, issue 14).
//!
//! In a browser (`index.html?bench=1000`) the lines go to the console, where `web/test.py`
//! reads them, and the page stops after them: the browser's step time R-WEB-2 asks for.

use std::time::Duration;

use bevy::app::AppExit;
use bevy::ecs::system::SystemParam;
// `std::time::Instant` panics in a browser; Bevy's works everywhere (std's natively).
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::plugin::{BodyInspector, PhysicsPlots};
use bevy_sandbox_physics::prelude::*;

use crate::lab::LabWindow;
use crate::presets::Preset;
use crate::tools::{Palette, SandboxAction};
use crate::world::WorldSettings;

/// Frame after which the scene is loaded (the walls have made room for the panels by then).
const LOAD_FRAME: u64 = 10;
/// Seconds after the load that count as the "falling" phase.
const FALLING: f64 = 3.0;

/// What the bench runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchOptions {
    /// Bodies to load.
    pub bodies: usize,
    /// Run time after the load, s.
    pub seconds: f64,
    /// Measure with the plots and the inspector open.
    pub lab: bool,
    /// Measure with the lab's window open too.
    pub lab_window: bool,
    /// Start the bodies at rest with gravity off, so that they all fall asleep.
    pub at_rest: bool,
}

/// The benchmark's settings and measurements.
#[derive(Resource, Debug)]
pub struct Bench {
    options: BenchOptions,
    frame: u64,
    /// The wall clock: when the first frame ended, and the last one. (Bevy's clocks advance
    /// by the fixed 1/60 s a frame here.)
    clock_start: Option<Instant>,
    last_frame: Option<Instant>,
    loaded_at: Option<f64>,
    falling: Vec<f64>,
    resting: Vec<f64>,
    awake: Vec<usize>,
    /// Start of this frame's main schedules, and their durations in ms.
    main_start: Option<Instant>,
    main: Vec<f64>,
    /// Start of this frame's fixed loop, and the time of the fixed loops (physics) in ms.
    fixed_start: Option<Instant>,
    fixed: f64,
    /// The time of everything but the fixed loop, per frame, ms.
    other: Vec<f64>,
    /// The same, in the frames in which every body sleeps, ms.
    other_asleep: Vec<f64>,
    /// Steps at the first measured frame.
    first_step: Option<u64>,
    /// Sum of the fixed loops' time, ms.
    fixed_total: f64,
    /// The core's own time for the last step of each measured frame
    /// (`stats().timings.total`), ms.
    core_step: Vec<f64>,
    /// CPU time of this (the main) thread when this frame's fixed loop started, and of the
    /// fixed loops since the first measured frame, ns (Linux).
    fixed_cpu_start: Option<u64>,
    fixed_cpu: u64,
    fixed_cpu_total: u64,
    /// CPU time of the main thread at the start of this frame's main schedules, and in the
    /// main schedules since the first measured frame, ns.
    main_cpu_start: Option<u64>,
    main_cpu_frame: u64,
    main_cpu_total: u64,
    /// CPU time of Bevy's task pools at the first measured frame, ns, and frames since.
    pools_cpu_first: Option<u64>,
    frames_since_first: u64,
    /// CPU time of the task pools at the last frame, if every body slept in it, ns.
    pools_cpu_last: Option<u64>,
    /// CPU time of everything but the fixed loop (main thread and pools) in each frame in
    /// which every body sleeps, ms, and of the fixed loop in those frames, ms.
    rest_cpu_asleep: Vec<f64>,
    fixed_cpu_asleep: Vec<f64>,
}

impl Bench {
    /// A benchmark with these options.
    pub fn new(options: BenchOptions) -> Self {
        Self {
            options,
            frame: 0,
            clock_start: None,
            last_frame: None,
            loaded_at: None,
            falling: Vec::new(),
            resting: Vec::new(),
            awake: Vec::new(),
            main_start: None,
            main: Vec::new(),
            fixed_start: None,
            fixed: 0.0,
            other: Vec::new(),
            other_asleep: Vec::new(),
            first_step: None,
            fixed_total: 0.0,
            core_step: Vec::new(),
            fixed_cpu_start: None,
            fixed_cpu: 0,
            fixed_cpu_total: 0,
            main_cpu_start: None,
            main_cpu_frame: 0,
            main_cpu_total: 0,
            pools_cpu_first: None,
            frames_since_first: 0,
            pools_cpu_last: None,
            rest_cpu_asleep: Vec::new(),
            fixed_cpu_asleep: Vec::new(),
        }
    }
}

/// Adds the benchmark.
pub struct BenchPlugin(pub BenchOptions);

impl Plugin for BenchPlugin {
    fn build(&self, app: &mut App) {
        // Every frame advances the simulation by 1/60 s, so every frame runs the two fixed
        // steps of a 60 Hz frame however slowly a software renderer draws: per-step work on
        // Bevy's task pools (the plots' sample, the render world's share) is then counted
        // once per step, not once per however many steps a slow frame catches up on.
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )))
        .insert_resource(Bench::new(self.0))
        .add_systems(First, start_main_timer)
        .add_systems(
            RunFixedMainLoop,
            (
                start_fixed_timer.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
                stop_fixed_timer.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            ),
        )
        .add_systems(Last, (stop_main_timer, measure).chain())
        .add_systems(Startup, |mut palette: ResMut<Palette>| palette.open = false);
    }
}

/// Mean and 95th percentile, ms.
fn mean_and_p95(samples: &mut [f64]) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let mean = samples.iter().sum::<f64>() / samples.len().max(1) as f64;
    let p95 = samples.get(samples.len() * 95 / 100).copied().unwrap_or(0.0);
    (mean, p95)
}

/// Summary of frame times (ms): count, mean fps, median and 95th percentile.
fn summary(frame_times: &mut [f64]) -> String {
    if frame_times.is_empty() {
        return "no frames".into();
    }
    frame_times.sort_by(f64::total_cmp);
    let mean = frame_times.iter().sum::<f64>() / frame_times.len() as f64;
    let median = frame_times[frame_times.len() / 2];
    let p95 = frame_times[(frame_times.len() * 95 / 100).min(frame_times.len() - 1)];
    format!(
        "{:.1} fps (frame time mean {:.2} ms, median {:.2} ms, p95 {:.2} ms, {} frames)",
        1000.0 / mean,
        mean,
        median,
        p95,
        frame_times.len()
    )
}

// The timers are exclusive systems, so they run on the main thread, whose CPU time they
// read: the fixed loop runs there (the physics is an exclusive system).

fn start_main_timer(world: &mut World) {
    let mut bench = world.resource_mut::<Bench>();
    bench.main_start = Some(Instant::now());
    bench.fixed = 0.0;
    bench.fixed_cpu = 0;
    bench.main_cpu_start = thread_cpu_ns();
}

/// The main thread's CPU time in this frame's main schedules, for `measure`.
fn stop_main_timer(world: &mut World) {
    let mut bench = world.resource_mut::<Bench>();
    bench.main_cpu_frame = match (bench.main_cpu_start.take(), thread_cpu_ns()) {
        (Some(start), Some(now)) => now.saturating_sub(start),
        _ => 0,
    };
}

fn start_fixed_timer(world: &mut World) {
    let mut bench = world.resource_mut::<Bench>();
    bench.fixed_start = Some(Instant::now());
    bench.fixed_cpu_start = thread_cpu_ns();
}

fn stop_fixed_timer(world: &mut World) {
    let mut bench = world.resource_mut::<Bench>();
    if let Some(start) = bench.fixed_start.take() {
        bench.fixed += start.elapsed().as_secs_f64() * 1000.0;
    }
    if let (Some(start), Some(now)) = (bench.fixed_cpu_start.take(), thread_cpu_ns()) {
        bench.fixed_cpu += now.saturating_sub(start);
    }
}

/// The first number of a `schedstat` file: the time its thread ran on a CPU, ns.
fn schedstat_ns(path: &str) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.split_whitespace().next()?.parse().ok()
}

/// The CPU time this thread has run, ns (Linux only). The fixed loop runs on the main
/// thread: the physics runs in an exclusive system there.
fn thread_cpu_ns() -> Option<u64> {
    if cfg!(target_os = "linux") { schedstat_ns("/proc/thread-self/schedstat") } else { None }
}

/// The CPU time the threads of Bevy's task pools have run, ns (Linux only). The other
/// threads are the main thread (measured apart), the renderer's and the graphics driver's:
/// a software rasteriser runs in those.
fn pools_cpu_ns() -> Option<u64> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let pools = ["Compute Task Po", "Async Compute T", "IO Task Pool"];
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let path = task.path();
        let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        if pools.iter().any(|pool| name.starts_with(pool)) {
            total += schedstat_ns(&path.join("schedstat").to_string_lossy()).unwrap_or(0);
        }
    }
    Some(total)
}

/// One line of the report: on stdout, or in a browser on its console.
fn say(line: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    println!("{line}");
    #[cfg(target_arch = "wasm32")]
    crate::web::console_log(line);
}

/// The lab's windows, opened by `--lab`.
#[derive(SystemParam)]
struct LabWindows<'w, 's> {
    lab: ResMut<'w, LabWindow>,
    plots: ResMut<'w, PhysicsPlots>,
    inspector: ResMut<'w, BodyInspector>,
    bodies: Query<'w, 's, Entity, With<Collider>>,
    /// To start the bodies at rest (`--at-rest`).
    velocities: Query<'w, 's, (&'static mut LinearVelocity, &'static mut AngularVelocity)>,
    controls: ResMut<'w, PhysicsControls>,
    /// To fit the view to a world of its own size (`--world`).
    world: ResMut<'w, WorldSettings>,
}

fn measure(
    mut bench: ResMut<Bench>,
    physics: Res<PhysicsWorld>,
    mut actions: MessageWriter<SandboxAction>,
    mut exit: MessageWriter<AppExit>,
    mut windows: LabWindows,
) {
    bench.frame += 1;
    let wall = Instant::now();
    let now = wall.duration_since(*bench.clock_start.get_or_insert(wall)).as_secs_f64();
    let dt = bench
        .last_frame
        .replace(wall)
        .map_or(0.0, |last| wall.duration_since(last).as_secs_f64() * 1000.0);
    if bench.frame == LOAD_FRAME {
        actions.write(SandboxAction::Load(Preset::Stress(bench.options.bodies)));
        bench.loaded_at = Some(now);
        windows.world.fit_requested = true;
        return;
    }
    if bench.frame == LOAD_FRAME + 2 {
        let spawned = windows.bodies.iter().count();
        if spawned != bench.options.bodies {
            let (min, max) = physics.world().bounds();
            crate::say_error(&format!(
                "bench: only {spawned} of {} bodies fit in this world of {} px (bodies ≥ 24 px \
                 on a grid); ask for at most {spawned}, or give a larger world with --world",
                bench.options.bodies,
                max - min,
            ));
            exit.write(AppExit::error());
            return;
        }
        windows.lab.open = bench.options.lab_window;
        if bench.options.at_rest {
            windows.controls.gravity_enabled = false;
            for (mut velocity, mut spin) in &mut windows.velocities {
                (velocity.0, spin.0) = (Vec2::ZERO, 0.0);
            }
        }
        if bench.options.lab {
            windows.plots.open = true;
            windows.inspector.pinned = windows.bodies.iter().next();
        }
    }
    let Some(loaded_at) = bench.loaded_at else { return };
    // The frame after the load builds the bodies; measure from the one after.
    if now - loaded_at < 0.2 {
        return;
    }
    let awake = physics.world().stats().awake;
    if now - loaded_at < FALLING {
        bench.falling.push(dt);
    } else {
        bench.resting.push(dt);
    }
    bench.awake.push(awake);
    let core_step = physics.world().stats().timings.total.as_secs_f64() * 1000.0;
    bench.core_step.push(core_step);
    // After the falling phase: the stats of the frames right after the load may still be
    // those of the world before it.
    let asleep = awake == 0 && now - loaded_at >= FALLING;
    if let Some(start) = bench.main_start {
        let main = start.elapsed().as_secs_f64() * 1000.0;
        let other = main - bench.fixed;
        bench.main.push(main);
        bench.other.push(other);
        if asleep {
            bench.other_asleep.push(other);
        }
    }
    // The pools' CPU time is read (from /proc) only in the frames that need it: from the
    // second of a run of frames in which every body sleeps.
    let pools_now = if asleep { pools_cpu_ns() } else { None };
    if let (Some(last), Some(now)) = (bench.pools_cpu_last, pools_now) {
        let rest = bench.main_cpu_frame.saturating_sub(bench.fixed_cpu) + now.saturating_sub(last);
        bench.rest_cpu_asleep.push(rest as f64 / 1e6);
        let fixed = bench.fixed_cpu as f64 / 1e6;
        bench.fixed_cpu_asleep.push(fixed);
    }
    bench.pools_cpu_last = pools_now;
    // Steps are counted from the end of the first measured frame.
    match bench.first_step {
        Some(_) => {
            bench.fixed_total += bench.fixed;
            bench.fixed_cpu_total += bench.fixed_cpu;
            bench.main_cpu_total += bench.main_cpu_frame;
            bench.frames_since_first += 1;
        }
        None => {
            bench.first_step = Some(physics.step_count());
            bench.pools_cpu_first = pools_cpu_ns();
        }
    }
    let first_step = bench.first_step.unwrap_or_default();
    if now - loaded_at >= bench.options.seconds {
        let bench = &mut *bench;
        let awake_mean = bench.awake.iter().sum::<usize>() / bench.awake.len().max(1);
        let (min, max) = physics.world().bounds();
        say(&format!("bench: {} bodies in a world of {}", physics.len(), max - min));
        if bench.options.lab {
            say("bench: with the plots and the inspector open");
        }
        if bench.options.at_rest {
            say("bench: the bodies started at rest, gravity off");
        }
        if bench.options.lab_window {
            say("bench: with the lab's window open");
        }
        say(&format!("bench: falling (first {FALLING} s): {}", summary(&mut bench.falling)));
        say(&format!("bench: after that: {}", summary(&mut bench.resting)));
        say(&format!("bench: mean awake bodies {awake_mean}, now {awake}"));
        let steps = physics.step_count().saturating_sub(first_step).max(1);
        let step_ms = bench.fixed_total / steps as f64;
        let (other_mean, other_p95) = mean_and_p95(&mut bench.other);
        let (main_mean, _) = mean_and_p95(&mut bench.main);
        say(&format!(
            "bench: main schedules (everything but the renderer): mean {main_mean:.2} ms per frame"
        ));
        say(&format!(
            "bench:   fixed loop (physics, all plugin systems): {step_ms:.2} ms per step, {steps} steps"
        ));
        say(&format!(
            "bench:   the rest (input, picking, drawing state, transforms, egui): mean {other_mean:.2} ms, p95 {other_p95:.2} ms per frame"
        ));
        if !bench.other_asleep.is_empty() {
            let (asleep_mean, asleep_p95) = mean_and_p95(&mut bench.other_asleep);
            say(&format!(
                "bench:   the rest while every body sleeps: mean {asleep_mean:.2} ms, p95 \
                 {asleep_p95:.2} ms per frame over {} frames, {:.3} µs per body",
                bench.other_asleep.len(),
                1000.0 * asleep_mean / physics.len().max(1) as f64
            ));
        }
        let (core_mean, core_p95) = mean_and_p95(&mut bench.core_step);
        say(&format!(
            "bench:   core step alone (World::step as it times itself): mean {core_mean:.2} ms, p95 {core_p95:.2} ms"
        ));
        let at_60 = other_mean + 2.0 * step_ms;
        say(&format!(
            "bench: CPU time per frame at 60 Hz (2 steps): {at_60:.2} ms, {:.0} fps if the GPU keeps up",
            1000.0 / at_60
        ));
        if let (Some(first), Some(now)) = (bench.pools_cpu_first, pools_cpu_ns()) {
            let frames = bench.frames_since_first.max(1) as f64;
            let pools = now.saturating_sub(first) as f64 / 1e6;
            let (main, fixed) =
                (bench.main_cpu_total as f64 / 1e6, bench.fixed_cpu_total as f64 / 1e6);
            let step_cpu = fixed / steps as f64;
            let rest_cpu = (main - fixed + pools) / frames;
            let cpu_at_60 = rest_cpu + 2.0 * step_cpu;
            say(&format!(
                "bench: as CPU time (main thread in the main schedules, and Bevy's task pools): \
                 {step_cpu:.2} ms per step, the rest {rest_cpu:.2} ms per frame ({:.2} of it the \
                 pools); per frame at 60 Hz (2 steps): {cpu_at_60:.2} ms",
                pools / frames
            ));
        }
        if !bench.rest_cpu_asleep.is_empty() {
            let frames = bench.rest_cpu_asleep.len();
            let (fixed, _) = mean_and_p95(&mut bench.fixed_cpu_asleep);
            let (mean, p95) = mean_and_p95(&mut bench.rest_cpu_asleep);
            say(&format!(
                "bench: as CPU time while every body sleeps ({frames} frames): the rest mean \
                 {mean:.2} ms, p95 {p95:.2} ms per frame; the fixed loop {fixed:.2} ms per \
                 frame (2 steps); per frame at 60 Hz: {:.2} ms",
                mean + fixed
            ));
        }
        exit.write(AppExit::Success);
    }
}
