//! Determinism: the same calls give bit-identical worlds.

mod common;

use bevy_sandbox_physics::physics::{BodyDesc, PhysicsConfig, World, scenes};
use common::*;
use glam::Vec2;

/// The same scripted session: a mixed scene, a grab and throw, a spawn into the pile, a
/// deletion and a gravity toggle, over 2000 steps.
fn scripted() -> (u64, World) {
    let mut w = scenes::mixed(200, 42).build(PhysicsConfig::default()).unwrap();
    let handles: Vec<_> = w.handles().collect();
    for step in 0..2000 {
        match step {
            300 => w.grab(handles[10]).unwrap(),
            301..=400 => {
                w.set_drag_target(handles[10], Vec2::new(100.0 + step as f32, 150.0)).unwrap()
            }
            401 => w.release(handles[10], Vec2::new(800.0, -300.0)).unwrap(),
            600 => {
                add(&mut w, BodyDesc::circle(30.0, Vec2::new(300.0, 600.0)));
            }
            900 => {
                w.remove_body(handles[3]).unwrap();
            }
            1200 => w.set_gravity_enabled(false),
            1300 => w.set_gravity_enabled(true),
            _ => {}
        }
        w.step(DT).unwrap();
    }
    (w.state_hash(), w)
}

/// Two worlds fed the same calls end bit-identical after 2000 steps of a mixed scene.
#[test]
fn two_worlds_fed_the_same_calls_end_bit_identical() {
    let (first, a) = scripted();
    let (second, b) = scripted();
    assert_eq!(first, second);
    assert_eq!(a.body_count(), 200);
    // The hash sees every body: moving one by one ulp changes it.
    let mut c = b.clone();
    let (h, body) = c.bodies().next().map(|(h, b)| (h, b.position())).unwrap();
    c.set_position(h, Vec2::new(f32::from_bits(body.x.to_bits() + 1), body.y)).unwrap();
    assert_ne!(c.state_hash(), first);
}

/// The state hash of `scene` after `steps` steps, sleeping on or off.
fn hash_after(scene: &scenes::Scene, steps: usize, sleeping: bool) -> u64 {
    let config = PhysicsConfig { sleeping_enabled: sleeping, ..PhysicsConfig::default() };
    let mut w = scene.build(config.clone()).unwrap();
    for _ in 0..steps {
        w.step(config.time_step).unwrap();
    }
    w.state_hash()
}

/// The behaviour of the default solver, pinned bit for bit: the state hashes of the shared
/// scenes (the scripted session above, every benchmark scene with sleeping on and off, and a
/// shuffled pile large enough to be re-sorted in memory) after a fixed number of steps.
///
/// A change that only moves code must leave every value as it is. Update a value only in a
/// commit that changes the simulation on purpose, and say why there.
#[test]
fn the_default_solver_reproduces_its_pinned_state_hashes() {
    let shuffled = scenes::shuffled(&scenes::large(5_000, 5), 9);
    let actual = [
        ("scripted session", scripted().0),
        ("pyramid_40 awake", hash_after(&scenes::pyramid(40, 30.0), 300, false)),
        ("pyramid_40 sleeping", hash_after(&scenes::pyramid(40, 30.0), 600, true)),
        ("rain_4000 awake", hash_after(&scenes::rain(4_000, 1), 200, false)),
        ("mixed_500 awake", hash_after(&scenes::mixed(500, 3), 400, false)),
        ("mixed_500 sleeping", hash_after(&scenes::mixed(500, 3), 1_200, true)),
        ("mixed_2000 awake", hash_after(&scenes::mixed(2_000, 3), 200, false)),
        ("large_5000 shuffled", hash_after(&shuffled, 200, false)),
    ];
    let pinned: [u64; 8] = [
        0x0db3_b6f1_3e13_3778,
        0x6cff_b0d4_7c0d_a815,
        0x444b_693d_4a24_4064,
        0x06bd_a22c_4ef4_cefe,
        0x5bfa_4507_bace_d458,
        0x2a87_a747_6940_0cc6,
        0x5efc_845b_d8c0_3734,
        0x0dd4_949d_0c8c_3367,
    ];
    let report: Vec<String> =
        actual.iter().map(|(name, hash)| format!("{name}: {hash:#018x}")).collect();
    for ((name, hash), expected) in actual.iter().zip(pinned) {
        assert_eq!(*hash, expected, "{name} changed; all hashes now:\n{}", report.join("\n"));
    }
}
