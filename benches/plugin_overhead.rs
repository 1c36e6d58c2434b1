//! `cargo bench --bench plugin_overhead`: what the Bevy layer adds to the core's step (issue 6).
//!
//! ```sh
//! cargo bench --bench plugin_overhead                       # 10 000 bodies, 300 timed steps
//! cargo bench --bench plugin_overhead -- --bodies 2000 --steps 600 --warmup 240
//! cargo bench --bench plugin_overhead -- --shuffled            # spawned in random order
//! cargo bench --bench plugin_overhead -- --asleep              # sleeping on, all asleep
//! ```
//!
//! The scene is `scenes::large(10_000, 5)` with sleeping off, built twice: as a bare core
//! `World`, and as entities in a headless app (`MinimalPlugins` + `SandboxPhysicsPlugin`) whose
//! clock advances exactly one fixed step per `app.update()`. The two evolve bit for bit alike
//! (the test `plugin_matches_core`), so after the same warm-up both time the same pile. The
//! timed steps alternate between the two, so the machine's noise hits both alike. With
//! `--shuffled` the bodies are spawned in random order (`scenes::shuffled`): the core then
//! sorts its slots into space order, and the layer, which reads the bodies in the order of
//! the entities, no longer reads them in memory order. With `--asleep` sleeping is on and the
//! warm-up goes on until every body of both worlds sleeps: what the layer costs a world in
//! which nothing moves.
//!
//! Per step it records:
//!
//! * `core`: `World::step` of the bare world, timed around the call;
//! * `core in app`: the app's own step, as the core times it (`stats().timings.total`);
//! * `fixed`: the plugin's `FixedUpdate` work, from before `PhysicsSystems::Prepare` to after
//!   `PhysicsSystems::Writeback` (config, controls, registration, user writes, the step,
//!   statistics, write-back, and running `PhysicsSchedule`), split into its three sets by
//!   marks inside `PhysicsSchedule`;
//! * `interpolate`: the `Update` system writing every `Transform` (once per frame);
//! * `frame`: the whole `app.update()`, Bevy's own per-frame work included.
//!
//! The layer's cost is `fixed − core in app` per step, and `interpolate` per frame; the
//! overhead is that cost over the core's step time. Medians throughout.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::physics::scenes;
use bevy_sandbox_physics::physics::{PhysicsConfig, World as CoreWorld};
use bevy_sandbox_physics::plugin::{CoordinateMapping, PhysicsSystems, body_components};
use bevy_sandbox_physics::prelude::*;

/// Command-line settings.
struct Settings {
    bodies: usize,
    warmup: usize,
    steps: usize,
    shuffled: bool,
    asleep: bool,
}

impl Settings {
    fn from_args() -> Self {
        let mut settings =
            Settings { bodies: 10_000, warmup: 600, steps: 300, shuffled: false, asleep: false };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let target = match arg.as_str() {
                "--bodies" => &mut settings.bodies,
                "--warmup" => &mut settings.warmup,
                "--steps" => &mut settings.steps,
                "--shuffled" => {
                    settings.shuffled = true;
                    continue;
                }
                "--asleep" => {
                    settings.asleep = true;
                    continue;
                }
                // `cargo bench` passes `--bench`; anything else is ignored too.
                _ => continue,
            };
            if let Some(value) = args.next().and_then(|v| v.parse().ok()) {
                *target = value;
            }
        }
        settings.steps = settings.steps.max(1);
        settings
    }
}

/// Instants taken by the timing systems during one `app.update()`.
#[derive(Resource, Default)]
struct Marks {
    before_prepare: Option<Instant>,
    before_step: Option<Instant>,
    after_step: Option<Instant>,
    after_writeback: Option<Instant>,
    before_interpolate: Option<Instant>,
    after_interpolate: Option<Instant>,
}

/// A system that notes the time in `field`, for `FixedUpdate` and `PhysicsSchedule`.
///
/// Exclusive, like the plugin's one system in `FixedUpdate`: a regular system there would be
/// handed to a worker thread, and that hand-off, the bench's own, would land in the span.
fn mark(field: fn(&mut Marks) -> &mut Option<Instant>) -> impl FnMut(&mut World) {
    move |world: &mut World| *field(&mut world.resource_mut::<Marks>()) = Some(Instant::now())
}

/// A regular system that notes the time in `field`, for `Update`, where the interpolation is
/// a regular system too: an exclusive mark next to it would put the hand-off of the
/// interpolation to a worker thread into the span.
fn mark_in_update(field: fn(&mut Marks) -> &mut Option<Instant>) -> impl FnMut(ResMut<Marks>) {
    move |mut marks: ResMut<Marks>| *field(&mut marks) = Some(Instant::now())
}

/// One step's times, ms.
#[derive(Clone, Copy, Default)]
struct Sample {
    core: f64,
    core_in_app: f64,
    fixed: f64,
    prepare: f64,
    step_set: f64,
    writeback: f64,
    interpolate: f64,
    frame: f64,
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn between(from: Option<Instant>, to: Option<Instant>) -> f64 {
    match (from, to) {
        (Some(from), Some(to)) => ms(to.saturating_duration_since(from)),
        _ => f64::NAN,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The headless app with `scene`'s bodies as entities, before its first step.
fn plugin_app(scene: &scenes::Scene, config: &PhysicsConfig) -> App {
    // Bevy bounds whose top-left corner is the origin: the mapping is (x, −y), exact both
    // ways, so the entities start at the scene's positions bit for bit.
    let bounds = Rect::from_corners(Vec2::new(0.0, -scene.size.y), Vec2::new(scene.size.x, 0.0));
    let mapping = CoordinateMapping::from_bounds(bounds);
    let plugin = SandboxPhysicsPlugin::default().bounds(bounds).config(config.clone());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 120.0)))
        .init_resource::<Marks>()
        .add_systems(
            FixedUpdate,
            (
                mark(|m| &mut m.before_prepare).before(PhysicsSystems::Prepare),
                mark(|m| &mut m.after_writeback).after(PhysicsSystems::Writeback),
            ),
        )
        .add_systems(
            PhysicsSchedule,
            (
                mark(|m| &mut m.before_step)
                    .after(PhysicsSystems::Prepare)
                    .before(PhysicsSystems::Step),
                mark(|m| &mut m.after_step)
                    .after(PhysicsSystems::Step)
                    .before(PhysicsSystems::Writeback),
            ),
        )
        .add_systems(
            Update,
            (
                mark_in_update(|m| &mut m.before_interpolate).before(PhysicsSystems::Interpolate),
                mark_in_update(|m| &mut m.after_interpolate).after(PhysicsSystems::Interpolate),
            ),
        );
    app.finish();
    app.cleanup();
    // The first update starts the clocks (delta 0, no step).
    app.update();
    for desc in &scene.bodies {
        app.world_mut().spawn(body_components(desc, mapping));
    }
    app
}

fn physics(app: &App) -> &PhysicsWorld {
    app.world().resource::<PhysicsWorld>()
}

/// One `app.update()` (exactly one step) and its times; `core` is left at 0.
fn timed_update(app: &mut App) -> Sample {
    *app.world_mut().resource_mut::<Marks>() = Marks::default();
    let start = Instant::now();
    app.update();
    let frame = ms(start.elapsed());
    let marks = app.world().resource::<Marks>();
    Sample {
        core: 0.0,
        core_in_app: ms(physics(app).world().stats().timings.total),
        fixed: between(marks.before_prepare, marks.after_writeback),
        prepare: between(marks.before_prepare, marks.before_step),
        step_set: between(marks.before_step, marks.after_step),
        writeback: between(marks.after_step, marks.after_writeback),
        interpolate: between(marks.before_interpolate, marks.after_interpolate),
        frame,
    }
}

fn main() {
    let settings = Settings::from_args();
    let scene = scenes::large(settings.bodies, 5);
    let scene = if settings.shuffled { scenes::shuffled(&scene, 9) } else { scene };
    let config = PhysicsConfig { sleeping_enabled: settings.asleep, ..PhysicsConfig::default() };
    let dt = config.time_step;

    let mut core: CoreWorld = scene.build(config.clone()).expect("the scene builds");
    let mut app = plugin_app(&scene, &config);
    eprintln!(
        "{}: {} bodies, sleeping {}; {} warm-up steps, then {} timed steps of each",
        scene.name,
        scene.bodies.len(),
        if settings.asleep { "on (timed once all sleep)" } else { "off" },
        settings.warmup,
        settings.steps
    );
    let warm = Instant::now();
    for _ in 0..settings.warmup {
        core.step(dt).expect("step");
        app.update();
    }
    // With `--asleep`, on until every body sleeps (at most another minute of simulation).
    let mut extra = 0;
    while settings.asleep && physics(&app).world().stats().awake > 0 && extra < 7_200 {
        core.step(dt).expect("step");
        app.update();
        extra += 1;
    }
    if settings.asleep {
        let awake = physics(&app).world().stats().awake;
        assert_eq!(awake, 0, "{awake} bodies still awake after {extra} more steps");
        eprintln!("all asleep after {} steps", settings.warmup + extra);
    }
    assert_eq!(physics(&app).len(), scene.bodies.len(), "every entity is simulated");
    assert_eq!(physics(&app).world().state_hash(), core.state_hash(), "the plugin equals the core");
    eprintln!("warm-up took {:.1} s", warm.elapsed().as_secs_f64());

    let mut samples = Vec::with_capacity(settings.steps);
    for _ in 0..settings.steps {
        let start = Instant::now();
        core.step(dt).expect("step");
        let core_ms = ms(start.elapsed());
        let steps_before = physics(&app).step_count();
        let mut sample = timed_update(&mut app);
        assert_eq!(physics(&app).step_count(), steps_before + 1, "one step per update");
        sample.core = core_ms;
        samples.push(sample);
    }
    assert_eq!(physics(&app).world().state_hash(), core.state_hash(), "the plugin equals the core");

    let of = |field: fn(&Sample) -> f64| median(samples.iter().map(field).collect());
    let layer = of(|s| s.fixed - s.core_in_app);
    let (core_ms, core_in_app) = (of(|s| s.core), of(|s| s.core_in_app));
    let interpolate = of(|s| s.interpolate);
    let frame_extra = of(|s| s.frame - s.core_in_app);
    println!("median ms per step ({} steps):", samples.len());
    println!("  core World::step (bare world)     {core_ms:8.3}");
    println!("  core step inside the app          {core_in_app:8.3}");
    println!("  plugin FixedUpdate (all sets)     {:8.3}", of(|s| s.fixed));
    println!("    Prepare                         {:8.3}", of(|s| s.prepare));
    println!("    Step (World::step + system)     {:8.3}", of(|s| s.step_set));
    println!("    Writeback (+ statistics)        {:8.3}", of(|s| s.writeback));
    // A sleeping world's core step is a count (under 1 µs): a share of it says nothing.
    let share = |ms: f64| {
        if core_ms >= 1e-3 { format!("{:5.1} %", 100.0 * ms / core_ms) } else { "".into() }
    };
    println!("  layer per step (fixed - core)     {layer:8.3}  {}", share(layer));
    println!("  interpolation per frame           {interpolate:8.3}  {}", share(interpolate));
    println!("  whole app.update() - core step    {frame_extra:8.3}  {}", share(frame_extra));
    if core_ms >= 1e-3 {
        println!(
            "overhead: {:.1} % per step, {:.1} % with one interpolated frame per step",
            100.0 * layer / core_ms,
            100.0 * (layer + interpolate) / core_ms
        );
    }
}
