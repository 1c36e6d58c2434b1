//! `--bench <bodies>`: loads the stress scene with that many bodies, runs in real time for
//! `--seconds` (default 12) without vsync, and prints the frame rate of the whole app
//! (simulation, rendering, egui) while the bodies fall and tumble (the first 3 s after the
//! load) and after that (when most of them rest or sleep). Then it exits.

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy_sandbox_physics::prelude::*;

use crate::presets::Preset;
use crate::tools::SandboxAction;

/// Frame after which the scene is loaded (the walls have made room for the panels by then).
const LOAD_FRAME: u64 = 10;
/// Seconds after the load that count as the "falling" phase.
const FALLING: f64 = 3.0;

/// The benchmark's settings and measurements.
#[derive(Resource, Debug)]
pub struct Bench {
    /// Bodies to load.
    pub bodies: usize,
    /// Run time after the load, s.
    pub seconds: f64,
    frame: u64,
    loaded_at: Option<f64>,
    falling: Vec<f64>,
    resting: Vec<f64>,
    awake: Vec<usize>,
}

impl Bench {
    /// A benchmark of `bodies` bodies for `seconds`.
    pub fn new(bodies: usize, seconds: f64) -> Self {
        Self {
            bodies,
            seconds,
            frame: 0,
            loaded_at: None,
            falling: Vec::new(),
            resting: Vec::new(),
            awake: Vec::new(),
        }
    }
}

/// Adds the benchmark.
pub struct BenchPlugin(pub usize, pub f64);

impl Plugin for BenchPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Bench::new(self.0, self.1)).add_systems(Last, measure);
    }
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

fn measure(
    mut bench: ResMut<Bench>,
    time: Res<Time<Real>>,
    physics: Res<PhysicsWorld>,
    mut actions: MessageWriter<SandboxAction>,
    mut exit: MessageWriter<AppExit>,
) {
    bench.frame += 1;
    let now = time.elapsed_secs_f64();
    if bench.frame == LOAD_FRAME {
        actions.write(SandboxAction::Load(Preset::Stress(bench.bodies)));
        bench.loaded_at = Some(now);
        return;
    }
    let Some(loaded_at) = bench.loaded_at else { return };
    // The frame after the load builds the bodies; measure from the one after.
    if now - loaded_at < 0.2 {
        return;
    }
    let dt = time.delta_secs_f64() * 1000.0;
    let awake = physics.world().stats().awake;
    if now - loaded_at < FALLING {
        bench.falling.push(dt);
    } else {
        bench.resting.push(dt);
    }
    bench.awake.push(awake);
    if now - loaded_at >= bench.seconds {
        let bench = &mut *bench;
        let awake_mean = bench.awake.iter().sum::<usize>() / bench.awake.len().max(1);
        println!("bench: {} bodies in the world", physics.len());
        println!("bench: falling (first {FALLING} s): {}", summary(&mut bench.falling));
        println!("bench: after that: {}", summary(&mut bench.resting));
        println!("bench: mean awake bodies {awake_mean}, now {awake}");
        exit.write(AppExit::Success);
    }
}
