//! Drag and throw (§13): the pointer-velocity tracker that turns the last frames of a drag
//! into a throw.
//!
//! The drag controller itself lives in the world ([`World::grab`](super::World::grab),
//! [`World::set_drag_target`](super::World::set_drag_target),
//! [`World::release`](super::World::release)): a held body is never teleported to the
//! pointer, where it could be pushed through other bodies and walls. Before every step it gets
//! the velocity `v = (target − position)·rate` towards its target instead (rate = 60/s,
//! rate·dt ≤ 1 so it never overshoots), and the solver handles its contacts as usual: it still
//! collides, pushes lighter bodies away and is stopped by walls and heavy stacks (R-DRAG-1).
//!
//! On release the body gets the pointer velocity of the last frames, which
//! [`VelocityTracker`] smooths in two stages, each independent of the frame rate (R-DRAG-3):
//! 1. **Window:** the mean velocity over the last 0.1 s: path / time between the oldest and
//!    the newest sample in the window.
//! 2. **Exponential smoothing:** `v ← v + (v_raw − v)·(1 − e^(−Δt/τ))` with τ = 0.05 s. The
//!    exponential makes the smoothing frame-rate independent too: two frames of Δt/2 smooth
//!    exactly as much as one of Δt for a constant v_raw.
//!
//! A pointer held still before release decays to zero velocity quickly, and the body just
//! drops.

use std::collections::VecDeque;

use glam::Vec2;

/// Smooths pointer positions into a throw velocity (§13, R-DRAG-3).
#[derive(Clone, Debug)]
pub struct VelocityTracker {
    window: f64,
    tau: f64,
    samples: VecDeque<(f64, Vec2)>,
    raw: Vec2,
    velocity: Vec2,
}

impl VelocityTracker {
    /// A tracker with the window and time constant in seconds (spec: 0.1 s and 0.05 s).
    pub fn new(window: f32, tau: f32) -> Self {
        Self {
            window: f64::from(window.max(1.0e-3)),
            tau: f64::from(tau.max(1.0e-4)),
            samples: VecDeque::with_capacity(64),
            raw: Vec2::ZERO,
            velocity: Vec2::ZERO,
        }
    }

    /// Forgets all samples (call when a new drag starts).
    pub fn reset(&mut self) {
        self.samples.clear();
        self.raw = Vec2::ZERO;
        self.velocity = Vec2::ZERO;
    }

    /// Adds the pointer position at `time` (s, any origin). Call it every frame of a drag,
    /// also when the pointer did not move: a still pointer is what makes the throw decay.
    /// Non-finite input and samples that go back in time are ignored.
    pub fn push(&mut self, time: f64, position: Vec2) {
        if !time.is_finite() || !position.is_finite() {
            return;
        }
        let elapsed = match self.samples.back() {
            Some(&(last, _)) if time <= last => return,
            Some(&(last, _)) => time - last,
            None => 0.0,
        };
        self.samples.push_back((time, position));
        // Keep the samples of the window (and at least two, so slow frames still measure).
        let start = time - self.window - 1.0e-9;
        while self.samples.len() > 2 && self.samples.front().is_some_and(|&(t, _)| t < start) {
            self.samples.pop_front();
        }
        let raw = self.window_velocity();
        if elapsed > 0.0 {
            // The raw velocity over the frame is taken as the mean of its values at both ends
            // (trapezoid), so long frames do not run ahead of short ones.
            let blend = 1.0 - (-elapsed / self.tau).exp();
            let held = 0.5 * (raw + self.raw);
            self.velocity += (held - self.velocity) * blend as f32;
        }
        self.raw = raw;
    }

    /// Stage 1: path / time between the oldest and newest sample in the window.
    fn window_velocity(&self) -> Vec2 {
        match (self.samples.front(), self.samples.back()) {
            (Some(&(t0, p0)), Some(&(t1, p1))) if t1 > t0 => (p1 - p0) / (t1 - t0) as f32,
            _ => Vec2::ZERO,
        }
    }

    /// The smoothed velocity, px/s.
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }
}

impl Default for VelocityTracker {
    fn default() -> Self {
        Self::new(0.1, 0.05)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(rate: f64, duration: f64, path: impl Fn(f64) -> Vec2) -> Vec2 {
        let mut tracker = VelocityTracker::default();
        let frames = (duration * rate).round() as usize;
        for i in 0..=frames {
            let t = i as f64 / rate;
            tracker.push(t, path(t));
        }
        tracker.velocity()
    }

    #[test]
    fn constant_pointer_velocity_is_measured_at_any_frame_rate_r_drag_3() {
        for rate in [30.0, 60.0, 144.0] {
            let v = track(rate, 0.5, |t| Vec2::new(400.0, -300.0) * t as f32);
            // After 0.5 s the smoothing residue is e^(−(0.5−0.1)/0.05) < 0.1 %.
            assert!((v - Vec2::new(400.0, -300.0)).length() < 1.0, "{rate} Hz: {v}");
        }
    }

    #[test]
    fn the_throw_is_the_same_at_30_60_and_144_hz_r_drag_3() {
        // A pointer that accelerates: x = ½·a·t², a = 3000 px/s².
        let path = |t: f64| Vec2::new(0.5 * 3000.0 * (t * t) as f32, 0.0);
        let v30 = track(30.0, 0.4, path);
        let v60 = track(60.0, 0.4, path);
        let v144 = track(144.0, 0.4, path);
        // The window mean lags by half a window (0.05 s) and the smoothing by τ (0.05 s):
        // about a·(0.4 − 0.1) = 900 px/s, whatever the rate.
        for v in [v30, v60, v144] {
            assert!((v.x - 900.0).abs() < 30.0, "{v30} {v60} {v144}");
        }
        assert!((v30.x - v144.x).abs() < 0.03 * v144.x, "{v30} vs {v144}");
        assert!((v60.x - v144.x).abs() < 0.03 * v144.x, "{v60} vs {v144}");
    }

    #[test]
    fn a_pointer_held_still_before_release_gives_no_throw_r_drag_3() {
        for rate in [30.0, 60.0, 144.0] {
            let v = track(rate, 0.8, |t| Vec2::new(600.0 * t.min(0.3) as f32, 0.0));
            // 0.5 s still: the window empties after 0.1 s, then e^(−0.4/0.05) ≈ 3·10⁻⁴ remains.
            assert!(v.length() < 1.0, "{rate} Hz: {v}");
        }
    }

    #[test]
    fn bad_samples_are_ignored() {
        let mut tracker = VelocityTracker::default();
        tracker.push(0.0, Vec2::ZERO);
        tracker.push(f64::NAN, Vec2::ONE);
        tracker.push(0.1, Vec2::splat(f32::INFINITY));
        tracker.push(-1.0, Vec2::ONE);
        assert_eq!(tracker.velocity(), Vec2::ZERO);
    }
}
