//! The wall clock behind [`PhaseTimings`](super::PhaseTimings): how long each phase of the
//! last step took. Timings are statistics only; no state of the world reads them.
//!
//! Natively the step reads `std::time::Instant`. On `wasm32-unknown-unknown`
//! `Instant::now()` panics (the target has no clock of its own), so there the timings stay
//! zero until the caller installs a clock with [`set_phase_clock`], for example one reading
//! the browser's `performance.now()`; the Bevy plugin installs Bevy's web clock on wasm32. An
//! installed clock is used on every target.

use std::sync::OnceLock;
use std::time::Duration;

/// A monotonic clock: seconds since any fixed moment (only differences are used).
pub type PhaseClock = fn() -> f64;

/// The clock installed by [`set_phase_clock`], once per process.
static INSTALLED: OnceLock<PhaseClock> = OnceLock::new();

/// Installs the clock the step reads for its [`PhaseTimings`](super::PhaseTimings), for the
/// whole process (every `World`). Needed where `std::time::Instant` does not work, as on
/// `wasm32-unknown-unknown` in a browser; elsewhere it replaces `Instant`.
///
/// The first clock installed stays: returns `true` if this call installed `now`, `false` if a
/// clock was already installed (then nothing changes). A reading that is not finite or runs
/// backwards counts as no time passing. The clock never affects the simulation, only the
/// timings.
pub fn set_phase_clock(now: PhaseClock) -> bool {
    INSTALLED.set(now).is_ok()
}

/// One step's stopwatch: laps between phases and the total, from the clock chosen when the
/// step starts (the installed one, else `Instant` natively, else none: all zero).
pub(crate) struct Stopwatch {
    start: Reading,
    last: Reading,
}

/// A reading of the chosen clock.
#[derive(Clone, Copy)]
enum Reading {
    /// No clock on this target: every lap is zero.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Off,
    /// The installed clock, seconds.
    Installed(PhaseClock, f64),
    /// `std::time::Instant`, never constructed on wasm32 where it panics.
    #[cfg(not(target_arch = "wasm32"))]
    Std(std::time::Instant),
}

impl Reading {
    fn now() -> Self {
        if let Some(&clock) = INSTALLED.get() {
            return Reading::Installed(clock, clock());
        }
        #[cfg(not(target_arch = "wasm32"))]
        return Reading::Std(std::time::Instant::now());
        #[cfg(target_arch = "wasm32")]
        Reading::Off
    }

    /// The same clock read again.
    fn again(self) -> Self {
        match self {
            Reading::Off => Reading::Off,
            Reading::Installed(clock, _) => Reading::Installed(clock, clock()),
            #[cfg(not(target_arch = "wasm32"))]
            Reading::Std(_) => Reading::Std(std::time::Instant::now()),
        }
    }

    /// Time from `earlier` to `self`; zero if the clock ran backwards or read garbage.
    fn since(self, earlier: Reading) -> Duration {
        match (self, earlier) {
            (Reading::Installed(_, now), Reading::Installed(_, then)) => {
                Duration::try_from_secs_f64(now - then).unwrap_or(Duration::ZERO)
            }
            #[cfg(not(target_arch = "wasm32"))]
            (Reading::Std(now), Reading::Std(then)) => now.saturating_duration_since(then),
            _ => Duration::ZERO,
        }
    }
}

impl Stopwatch {
    /// Starts timing a step.
    pub(crate) fn start() -> Self {
        let now = Reading::now();
        Stopwatch { start: now, last: now }
    }

    /// Time since the last lap (or the start).
    pub(crate) fn lap(&mut self) -> Duration {
        let now = self.last.again();
        let elapsed = now.since(self.last);
        self.last = now;
        elapsed
    }

    /// Time since the start.
    pub(crate) fn total(&self) -> Duration {
        self.last.again().since(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zero() -> f64 {
        0.0
    }

    /// A clock that runs backwards, reads NaN or infinity gives zero-length laps instead of
    /// a panic in `Duration` (the clock is the caller's; R-WEB-1).
    #[test]
    fn a_broken_installed_clock_reads_as_no_time_passing_r_web_1() {
        let at = |s: f64| Reading::Installed(zero, s);
        assert_eq!(at(2.0).since(at(3.0)), Duration::ZERO, "backwards");
        assert_eq!(at(f64::NAN).since(at(1.0)), Duration::ZERO, "NaN");
        assert_eq!(at(f64::INFINITY).since(at(1.0)), Duration::ZERO, "infinite");
        // 0.25 s is exact in binary, so the lap is exactly 250 ms.
        assert_eq!(at(1.25).since(at(1.0)), Duration::from_millis(250), "a good lap");
    }
}
