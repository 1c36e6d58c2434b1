//! The step's phase timings read an installed clock where `std::time::Instant` does not
//! work (wasm32 in a browser, R-WEB-1). The clock is global to the process, so these tests
//! live in their own test binary and install one fake clock for all of them.

use std::cell::Cell;
use std::time::Duration;

use bevy_sandbox_physics::physics::{PhysicsConfig, World, scenes, set_phase_clock};

thread_local! {
    /// Readings of the fake clock so far, per test thread (tests run in parallel).
    static READINGS: Cell<u64> = const { Cell::new(0) };
}

/// A clock that advances exactly 1 ms per reading on each thread, so every lap is 1 ms.
fn one_ms_per_reading() -> f64 {
    READINGS.with(|n| {
        n.set(n.get() + 1);
        n.get() as f64 * 1e-3
    })
}

/// Another clock, which must not replace the first.
fn another() -> f64 {
    0.0
}

fn install() {
    // The first test to run installs it; later calls change nothing and say so.
    set_phase_clock(one_ms_per_reading);
    assert!(!set_phase_clock(another), "a second clock must not replace the first");
}

/// One step of a 40-row pyramid, which wakes nothing mid-step, so the phases are timed by
/// exactly ten readings (the start, eight laps, the total).
fn stepped_world() -> World {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut w = scenes::pyramid(40, 30.0).build(config.clone()).unwrap();
    w.step(config.time_step).unwrap();
    w
}

/// With the fake clock each phase is one reading after the one before: 1 ms each (exact up
/// to the f64 → Duration rounding, 1 µs is a generous bound), and the total spans the eight
/// phases' laps plus its own reading: 9 ms.
#[test]
fn an_installed_clock_times_every_phase_of_the_step_r_web_1() {
    install();
    let w = stepped_world();
    let t = &w.stats().timings;
    let ms = Duration::from_millis(1);
    let close = |d: Duration, expected: Duration| d.abs_diff(expected) < Duration::from_micros(1);
    for (name, phase) in [
        ("integrate_velocities", t.integrate_velocities),
        ("walls", t.walls),
        ("solve_velocities", t.solve_velocities),
        ("integrate_positions", t.integrate_positions),
        ("correct_positions", t.correct_positions),
        ("sleep", t.sleep),
    ] {
        assert!(close(phase, ms), "{name} = {phase:?}, expected 1 ms");
    }
    // The broad and narrow phases are each timed once when no sleeper wakes mid-step.
    assert!(close(t.broad_phase, ms), "broad_phase = {:?}", t.broad_phase);
    assert!(close(t.narrow_phase, ms), "narrow_phase = {:?}", t.narrow_phase);
    assert!(close(t.total, 9 * ms), "total = {:?}, expected 9 ms", t.total);
}

/// Timings are statistics: the state after 300 steps of the pinned pyramid is bit for bit
/// the hash `tests/determinism.rs` pins for it without an installed clock.
#[test]
fn an_installed_clock_leaves_the_simulation_bit_for_bit_unchanged_r_web_1() {
    install();
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut w = scenes::pyramid(40, 30.0).build(config.clone()).unwrap();
    for _ in 0..300 {
        w.step(config.time_step).unwrap();
    }
    assert_eq!(w.state_hash(), 0x6cff_b0d4_7c0d_a815, "pyramid_40 awake, as pinned");
}
