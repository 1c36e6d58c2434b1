//! Stacking quality: towers and pyramids stand still, sleep, and do not drift.

mod common;

use bevy_sandbox_physics::physics::{PhysicsConfig, scenes};
use common::*;

/// Runs a scene for `seconds` and returns (steps until all asleep, largest sideways drift,
/// largest sink) in px.
fn settle(scene: &scenes::Scene, seconds: f32) -> (Option<usize>, f32, f32) {
    let mut w = scene.build(PhysicsConfig::default()).unwrap();
    let start: Vec<_> = w.bodies().map(|(h, b)| (h, b.position())).collect();
    let asleep = run_until_asleep(&mut w, (seconds * 120.0) as usize);
    let (mut drift, mut sink) = (0.0_f32, 0.0_f32);
    for (h, p0) in start {
        let p = pos(&w, h);
        drift = drift.max((p.x - p0.x).abs());
        sink = sink.max(p.y - p0.y);
    }
    (asleep, drift, sink)
}

/// A 10-box tower stands, is fully asleep within 3 s and drifts less than 1 px sideways.
#[test]
fn a_ten_box_tower_stands_and_sleeps_within_three_seconds() {
    let (asleep, drift, sink) = settle(&scenes::tower(10, 40.0), 3.0);
    assert!(asleep.is_some(), "not all asleep after 3 s");
    assert!(drift < 1.0, "sideways drift {drift} px");
    // Each of 10 contacts may keep its 0.5 px slop, plus the 0.25 px start gaps close.
    assert!(sink < 10.0 * 0.5 + 10.0 * 0.25 + 0.5, "sank {sink} px");
}

/// A 15-row pyramid (120 boxes) stands, is fully asleep within 3 s and drifts < 1 px.
#[test]
fn a_fifteen_row_pyramid_stands_and_sleeps_within_three_seconds() {
    let (asleep, drift, sink) = settle(&scenes::pyramid(15, 30.0), 3.0);
    assert!(asleep.is_some(), "not all asleep after 3 s");
    assert!(drift < 1.0, "sideways drift {drift} px");
    assert!(sink < 15.0 * 0.75 + 0.5, "sank {sink} px");
}
