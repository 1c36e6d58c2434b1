//! Sleep's rules at the level of the world's state (§11, D8), where a test must set what no
//! public call sets without side effects: a spin given by a blow, not by an edit that
//! restarts the rest.

use super::*;

/// R-SLP-1, D8 "Struck", its spin: a circle whose surface turns faster than the bounce
/// threshold keeps its island awake, though it stays within the 0.05 rad a rest may turn
/// for two steps. A ball floating at rest without gravity is set spinning at 2.6 rad/s
/// (its surface at 52 px/s) when its rest is within two steps of complete, directly, as a
/// blow through a contact does (`set_angular_velocity` would start its rest again).
/// Without the spin in the rule it fell asleep in the second step, its spin taken away;
/// now it spins on, awake (nothing brakes it: no contact, no gravity).
#[test]
fn a_circle_whose_surface_turns_faster_than_the_bounce_threshold_keeps_its_island_awake_r_slp_1() {
    let config = PhysicsConfig::default();
    let (dt, time_to_sleep) = (config.time_step, config.time_to_sleep);
    let mut world = World::new(Vec2::new(800.0, 600.0), config).expect("a valid world");
    world.set_gravity_enabled(false);
    let ball = world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))).expect("a body");
    while world.body(ball).expect("the ball").rest_time() < time_to_sleep - 1.5 * dt {
        world.step(dt).expect("a valid dt");
    }
    let index = world.slot_of(ball).expect("the ball");
    world.slots[index].body.as_mut().expect("the ball").angular_velocity = 2.6;
    for step in 0..60 {
        world.step(dt).expect("a valid dt");
        let body = world.body(ball).expect("the ball");
        assert!(!body.is_sleeping(), "asleep {step} steps after the blow: {body:?}");
        assert_eq!(body.angular_velocity(), 2.6, "spin {step} steps after the blow");
        if step == 1 {
            assert!(body.rest_time() >= time_to_sleep, "only its spin keeps it awake");
        }
    }
}
