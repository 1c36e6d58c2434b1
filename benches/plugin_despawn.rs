//! `cargo bench --bench plugin_despawn`: despawning and clearing many bodies through the Bevy
//! layer (issue 16, issue 19, R-PLUG-3): linear in the bodies, under 5 ms for 10,000.
//!
//! ```sh
//! cargo bench --bench plugin_despawn                 # 2,500 to 20,000 bodies, 5 runs each
//! cargo bench --bench plugin_despawn -- --runs 9
//! cargo bench --bench plugin_despawn -- --count 10000   # one size only
//! ```
//!
//! Each case is `scenes::large(n, 5)` spawned as entities in a headless app (`MinimalPlugins`
//! and `SandboxPhysicsPlugin`, one fixed step per `app.update()`), awake after one step or
//! asleep after it has settled. Timed, each on a fresh app:
//!
//! * `despawn`: despawning every body entity, and the next `app.update()`, in which the
//!   layer takes their bodies out of the core (the whole update counts, its step of the
//!   emptied world included);
//! * `clear`: `PhysicsControls::request_clear` and the `app.update()` that clears.
//!
//! Medians of the runs, in ms, and the time per 1,000 bodies, which a linear cost keeps
//! constant; wall time, and the CPU time of the whole process over the same span, which
//! other load on a shared machine does not inflate (waiting for a core does not count).

use std::time::{Duration, Instant};

#[path = "support/process_cpu.rs"]
mod process_cpu;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sandbox_physics::physics::{PhysicsConfig, scenes};
use bevy_sandbox_physics::plugin::{CoordinateMapping, body_components};
use bevy_sandbox_physics::prelude::*;
use process_cpu::process_cpu_time;

const COUNTS: [usize; 4] = [2_500, 5_000, 10_000, 20_000];

/// The headless app with `count` circles as entities, after `steps` steps.
fn app(count: usize, asleep: bool) -> App {
    let scene = scenes::large(count, 5);
    let bounds = Rect::from_corners(Vec2::new(0.0, -scene.size.y), Vec2::new(scene.size.x, 0.0));
    let mapping = CoordinateMapping::from_bounds(bounds);
    let plugin = SandboxPhysicsPlugin::default().bounds(bounds).config(PhysicsConfig::default());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 120.0)));
    app.finish();
    app.cleanup();
    app.update();
    for desc in &scene.bodies {
        app.world_mut().spawn(body_components(desc, mapping));
    }
    app.update();
    if asleep {
        for _ in 0..(20 * 120) {
            app.update();
            if app.world().resource::<PhysicsWorld>().world().stats().awake == 0 {
                break;
            }
        }
        let awake = app.world().resource::<PhysicsWorld>().world().stats().awake;
        assert_eq!(awake, 0, "the pile of {count} fell asleep");
    }
    app
}

/// Wall and process CPU time of `f`, ms.
fn timed(f: impl FnOnce()) -> (f64, f64) {
    let (start, cpu) = (Instant::now(), process_cpu_time());
    f();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(start.elapsed()), ms(process_cpu_time().saturating_sub(cpu)))
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Despawns every body entity and runs the update that removes their bodies: wall and CPU
/// time, ms.
fn despawn(count: usize, asleep: bool) -> (f64, f64) {
    let mut app = app(count, asleep);
    let entities: Vec<Entity> =
        app.world_mut().query_filtered::<Entity, With<Collider>>().iter(app.world()).collect();
    let times = timed(|| {
        for entity in entities {
            app.world_mut().despawn(entity);
        }
        app.update();
    });
    assert_eq!(app.world().resource::<PhysicsWorld>().world().body_count(), 0, "all removed");
    times
}

/// Clears through `PhysicsControls` and runs the update that clears: wall and CPU time, ms.
fn clear(count: usize, asleep: bool) -> (f64, f64) {
    let mut app = app(count, asleep);
    let times = timed(|| {
        app.world_mut().resource_mut::<PhysicsControls>().request_clear();
        app.update();
    });
    assert_eq!(app.world().resource::<PhysicsWorld>().world().body_count(), 0, "all cleared");
    times
}

fn main() {
    let mut runs = 5;
    let mut counts = COUNTS.to_vec();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs).max(1);
        } else if arg == "--count" {
            counts = args.next().and_then(|v| v.parse().ok()).into_iter().collect();
        }
    }
    println!(
        "{:>8} {:>7} {:>11} {:>8} {:>11} {:>11} {:>8} {:>11}",
        "bodies", "state", "despawn ms", "per 1k", "(CPU ms)", "clear ms", "per 1k", "(CPU ms)"
    );
    for asleep in [false, true] {
        for &count in &counts {
            let despawns: Vec<_> = (0..runs).map(|_| despawn(count, asleep)).collect();
            let clears: Vec<_> = (0..runs).map(|_| clear(count, asleep)).collect();
            let wall = |v: &[(f64, f64)]| median(v.iter().map(|t| t.0).collect());
            let cpu = |v: &[(f64, f64)]| median(v.iter().map(|t| t.1).collect());
            let (despawned, cleared) = (wall(&despawns), wall(&clears));
            let per_k = |ms: f64| ms * 1000.0 / count as f64;
            println!(
                "{count:>8} {:>7} {despawned:>11.3} {:>8.4} {:>11.3} {cleared:>11.3} {:>8.4} {:>11.3}",
                if asleep { "asleep" } else { "awake" },
                per_k(despawned),
                cpu(&despawns),
                per_k(cleared),
                cpu(&clears),
            );
        }
    }
}
