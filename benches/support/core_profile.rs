//! Step times and the per-phase breakdown of our engine on a scene, shared by
//! `benches/step.rs` (criterion) and `examples/bench_core.rs` (the one-command profile).
//!
//! The phases are those of [`PhaseTimings`], which `World::step` fills on every step.

use std::time::{Duration, Instant};

use bevy_sandbox_physics::physics::{PhaseTimings, PhysicsConfig, World, scenes::Scene};

/// Reads one phase's time from [`PhaseTimings`].
pub type PhaseReader = fn(&PhaseTimings) -> Duration;

/// The phases of a step, in the order of §4, with how to read each from [`PhaseTimings`].
pub const PHASES: [(&str, PhaseReader); 8] = [
    ("integrate_v", |t| t.integrate_velocities),
    ("broad", |t| t.broad_phase),
    ("narrow", |t| t.narrow_phase),
    ("walls", |t| t.walls),
    ("solve_v", |t| t.solve_velocities),
    ("integrate_x", |t| t.integrate_positions),
    ("correct_x", |t| t.correct_positions),
    ("sleep", |t| t.sleep),
];

/// Our defaults with sleeping on or off.
pub fn config(sleeping: bool) -> PhysicsConfig {
    PhysicsConfig { sleeping_enabled: sleeping, ..PhysicsConfig::default() }
}

/// A world of `scene` after `warmup` steps.
pub fn prepared(scene: &Scene, sleeping: bool, warmup: usize) -> World {
    let config = config(sleeping);
    let mut world = scene.build(config.clone()).expect("scene builds");
    for _ in 0..warmup {
        world.step(config.time_step).expect("step");
    }
    world
}

/// What `steps` timed steps of a world cost.
#[derive(Clone, Debug, Default)]
pub struct Profile {
    /// Wall-clock ms of each step, measured around `World::step`.
    pub step_ms: Vec<f64>,
    /// Mean ms per step of each of [`PHASES`].
    pub phase_ms: [f64; PHASES.len()],
    /// Mean candidate pairs from the broad phase per step.
    pub pairs: f64,
    /// Mean body–body contacts per step.
    pub body_contacts: f64,
    /// Mean wall contacts per step.
    pub wall_contacts: f64,
    /// Awake bodies after the last step.
    pub awake: usize,
}

impl Profile {
    /// Steps `world` `steps` times and records each step.
    pub fn record(world: &mut World, steps: usize) -> Self {
        let dt = world.config().time_step;
        let mut profile = Profile { step_ms: Vec::with_capacity(steps), ..Profile::default() };
        for _ in 0..steps {
            let start = Instant::now();
            world.step(dt).expect("step");
            profile.step_ms.push(start.elapsed().as_secs_f64() * 1e3);
            let stats = world.stats();
            for (sum, (_, phase)) in profile.phase_ms.iter_mut().zip(PHASES) {
                *sum += phase(&stats.timings).as_secs_f64() * 1e3;
            }
            profile.pairs += stats.pairs as f64;
            profile.body_contacts += stats.body_contacts as f64;
            profile.wall_contacts += stats.wall_contacts as f64;
        }
        let n = steps.max(1) as f64;
        for sum in &mut profile.phase_ms {
            *sum /= n;
        }
        profile.pairs /= n;
        profile.body_contacts /= n;
        profile.wall_contacts /= n;
        profile.awake = world.stats().awake;
        profile
    }

    /// Mean ms per step.
    pub fn mean(&self) -> f64 {
        self.step_ms.iter().sum::<f64>() / self.step_ms.len().max(1) as f64
    }

    /// Median ms per step.
    pub fn median(&self) -> f64 {
        let mut sorted = self.step_ms.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
    }

    /// The header of [`Profile::row`].
    pub fn header() -> String {
        let mut line = format!(
            "{:<12} {:<5} {:>6} {:>8} {:>8} {:>7} {:>7} {:>6} |",
            "scene", "sleep", "steps", "mean ms", "median", "pairs", "contact", "awake"
        );
        for (name, _) in PHASES {
            line.push_str(&format!(" {name:>14}"));
        }
        line.push_str(&format!(" {:>14}", "outside"));
        line
    }

    /// One line: times, counts, and each phase's mean ms and share of the mean step.
    pub fn row(&self, scene: &str, sleeping: bool) -> String {
        let mean = self.mean();
        let mut line = format!(
            "{:<12} {:<5} {:>6} {:>8.3} {:>8.3} {:>7.0} {:>7.0} {:>6} |",
            scene,
            if sleeping { "on" } else { "off" },
            self.step_ms.len(),
            mean,
            self.median(),
            self.pairs,
            self.body_contacts + self.wall_contacts,
            self.awake,
        );
        let share = |ms: f64| if mean > 0.0 { 100.0 * ms / mean } else { 0.0 };
        for ms in self.phase_ms {
            line.push_str(&format!(" {ms:>8.3} {:>4.0}%", share(ms)));
        }
        // Time in `step` outside the timed phases, and the timing of the loop itself.
        let outside = mean - self.phase_ms.iter().sum::<f64>();
        line.push_str(&format!(" {outside:>8.3} {:>4.0}%", share(outside)));
        line
    }
}
