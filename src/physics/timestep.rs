//! The fixed-step accumulator for non-Bevy use (§3, R-FIX-1).
//!
//! Stability depends on dt: with the varying frame time as dt the simulation would behave
//! differently on every machine, and a 200 ms hitch would let bodies jump through each other.
//! So real time is collected and handed on in fixed portions:
//! ```text
//! accumulator += frame_time
//! while accumulator ≥ dt:  world.step(dt);  accumulator −= dt
//! alpha = accumulator / dt                  (the rest, for interpolation)
//! ```
//! If the machine cannot keep up, at most `max_steps_per_frame` steps run and the rest of the
//! backlog is dropped instead of growing without end ("spiral of death"). Drawing
//! `lerp(previous, current, alpha)` keeps a 120 Hz simulation smooth on a 60 Hz screen.
//!
//! The Bevy plugin uses `Time<Fixed>` for the same job.

/// Collects frame time and tells how many fixed steps to run.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedTimestep {
    time_step: f64,
    max_steps_per_frame: u32,
    accumulator: f64,
    dropped: f64,
}

impl FixedTimestep {
    /// A timestep of `time_step` seconds running at most `max_steps_per_frame` per frame.
    pub fn new(time_step: f32, max_steps_per_frame: u32) -> Self {
        Self {
            time_step: f64::from(time_step).max(1.0e-6),
            max_steps_per_frame: max_steps_per_frame.max(1),
            accumulator: 0.0,
            dropped: 0.0,
        }
    }

    /// Adds a frame's duration and returns the number of steps to run now. Negative or
    /// non-finite frame times count as 0.
    pub fn advance(&mut self, frame_time: f64) -> u32 {
        if frame_time.is_finite() && frame_time > 0.0 {
            self.accumulator += frame_time;
        }
        // A small tolerance keeps 2 × (1/120 s) from leaving 1/120 s − ε behind: the f32 step
        // is not exactly the f64 frame time. The shortfall is forgiven, never accumulated.
        let epsilon = self.time_step * 1.0e-5;
        let mut steps = 0;
        while self.accumulator + epsilon >= self.time_step && steps < self.max_steps_per_frame {
            self.accumulator = (self.accumulator - self.time_step).max(0.0);
            steps += 1;
        }
        if self.accumulator + epsilon >= self.time_step {
            // Backlog beyond the cap: drop whole steps, keep the fraction for alpha.
            let backlog = (self.accumulator / self.time_step + 1.0e-5).floor() * self.time_step;
            self.dropped += backlog;
            self.accumulator = (self.accumulator - backlog).max(0.0);
        }
        steps
    }

    /// The render fraction `accumulator / dt` ∈ [0, 1).
    pub fn alpha(&self) -> f32 {
        (self.accumulator / self.time_step).clamp(0.0, 1.0) as f32
    }

    /// Seconds of backlog dropped so far.
    pub fn dropped(&self) -> f64 {
        self.dropped
    }

    /// Changes the step and cap, keeping the accumulated time.
    pub fn set(&mut self, time_step: f32, max_steps_per_frame: u32) {
        self.time_step = f64::from(time_step).max(1.0e-6);
        self.max_steps_per_frame = max_steps_per_frame.max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_steps_per_sixtieth_and_alpha_is_the_remainder_r_fix_1() {
        let mut clock = FixedTimestep::new(1.0 / 120.0, 8);
        let total: u32 = (0..60).map(|_| clock.advance(1.0 / 60.0)).sum();
        assert_eq!(total, 120);
        let mut clock = FixedTimestep::new(1.0 / 120.0, 8);
        assert_eq!(clock.advance(1.5 / 120.0), 1);
        assert!((clock.alpha() - 0.5).abs() < 1e-5);
    }

    #[test]
    fn a_long_frame_runs_at_most_the_cap_and_drops_the_rest_r_fix_1() {
        let mut clock = FixedTimestep::new(1.0 / 120.0, 8);
        assert_eq!(clock.advance(1.0), 8);
        assert!(clock.alpha() < 1.0);
        assert!((clock.dropped() - 112.0 / 120.0).abs() < 1e-6);
        assert_eq!(clock.advance(1.0 / 120.0), 1, "no spiral: next frame is normal");
    }
}
