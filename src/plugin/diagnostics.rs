//! Live figures of the simulation: how long a step takes and how many run per second.
//!
//! The core times its own phases ([`World::stats`](crate::physics::World::stats)); this part
//! keeps a one-second window of those timings in real time, for the panel or any other UI.

use std::collections::VecDeque;

use bevy::prelude::*;

use super::physics_world::PhysicsWorld;
use super::resources::RestoreRemoved;
use super::schedule::{PhysicsSchedule, PhysicsSystems};

/// Records every step's duration into [`PhysicsStatistics`], right after the step.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsDiagnosticsPlugin;

impl Plugin for PhysicsDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsStatistics>()
            .restore_when_removed("empty: the figures start again", |_| {
                PhysicsStatistics::default()
            })
            .add_systems(
                PhysicsSchedule,
                record_step_statistics
                    .after(PhysicsSystems::Step)
                    .before(PhysicsSystems::Writeback),
            );
    }
}

/// Live figures over the last second of real time: step time and steps per second.
#[derive(Resource, Debug, Default)]
pub struct PhysicsStatistics {
    /// (real time in s, step duration in ms) of the steps in the window.
    samples: VecDeque<(f64, f32)>,
    /// Real time of the latest sample.
    now: f64,
}

impl PhysicsStatistics {
    /// The window the figures are averaged over, s.
    pub const WINDOW: f64 = 1.0;

    /// Records a step that took `millis` ms at real time `now` (s).
    pub fn record(&mut self, now: f64, millis: f32) {
        self.now = now;
        self.samples.push_back((now, millis));
        while self.samples.front().is_some_and(|&(t, _)| t <= now - Self::WINDOW) {
            self.samples.pop_front();
        }
    }

    /// Mean wall-clock time of one step over the window (moving average), ms.
    pub fn step_time_ms(&self) -> f32 {
        if self.samples.is_empty() {
            return 0.0;
        }
        self.samples.iter().map(|&(_, ms)| ms).sum::<f32>() / self.samples.len() as f32
    }

    /// Steps run in the last [`WINDOW`](Self::WINDOW) seconds of real time, per second.
    pub fn steps_per_second(&self) -> f32 {
        self.samples.iter().filter(|&&(t, _)| t > self.now - Self::WINDOW).count() as f32
            / Self::WINDOW as f32
    }
}

/// Records the duration of each step the plugin ran.
fn record_step_statistics(
    physics: Res<PhysicsWorld>,
    time: Res<Time<Real>>,
    mut statistics: ResMut<PhysicsStatistics>,
) {
    if physics.stepped_last_run() {
        let millis = physics.world().stats().timings.total.as_secs_f32() * 1000.0;
        statistics.record(time.elapsed_secs_f64(), millis);
    }
}
