//! Regression tests for the defects the property tests, hostile-input tests and the fuzzer of
//! issue 7 found. Each names the defect, the shrunk case it came from, and why it is not
//! vacuous (it failed before the fix).

mod invariants;

use bevy_sandbox_physics::physics::{
    BodyDesc, Material, PhysicsConfig, PhysicsError, WallId, World, collide, scenes,
};
use glam::Vec2;
use invariants::*;

/// Issue 7, found by `random_worlds_and_operations_keep_every_invariant` (shrunk to one
/// circle of radius 327 px in a 200 × 200 px world): the emergency brake centred a body
/// wider than the world, then pushed it out of the left wall and back out of the right one,
/// leaving its centre at (−115, −115), outside the world. A body that cannot fit must stay
/// centred on that axis (R-POS-3). Before the fix this failed after the first step.
#[test]
fn a_body_larger_than_the_world_stays_centred_r_pos_3() {
    let mut world = World::new(Vec2::splat(200.0), PhysicsConfig::default()).expect("world");
    let big = world.add_body(BodyDesc::circle(327.0, Vec2::new(0.5, 100.0))).expect("body");
    let wide = world
        .add_body(BodyDesc::rect(Vec2::new(300.0, 40.0), Vec2::new(190.0, 20.0)))
        .expect("body");
    for _ in 0..120 {
        world.step(PhysicsConfig::default().time_step).expect("step");
        check_finite(&world).expect("finite");
        check_contained(&world).expect("contained");
    }
    let centre = world.body(big).expect("big").position();
    assert!((centre - Vec2::splat(100.0)).length() < 1e-3, "circle at {centre}");
    let wide = world.body(wide).expect("wide").position();
    assert!((wide.x - 100.0).abs() < 1e-3, "too wide on x only: centred on x, at {wide}");
}

/// Found by review of D3 and D9: a body wider than the world, which the brake keeps centred
/// between the two walls of that axis (D3), lies `(its size − the world's) / 2` deep in both
/// for good. D9 read those wall contacts as deep contacts beyond its settling's reach and
/// kept the island awake in every step, though every body in it had long come to rest
/// (0 px/s, the brake not moving it). In an 800 × 600 px world, a box 1000 × 40 px on the
/// floor, a circle of radius 400 px (taller than the world) and the box with a box and a
/// ball on it must each fall asleep within 3 s (measured: 0.64, 0.52 and 0.93 s), centred
/// still (R-POS-3), with no pair deeper than slop + 0.5 px (R-REST-2). Before the fix none
/// of them slept within 15 s.
#[test]
fn a_body_wider_than_the_world_falls_asleep_once_it_rests_r_slp_3() {
    let config = PhysicsConfig::default();
    let limit = config.penetration_slop + 0.5;
    let wide = BodyDesc::rect(Vec2::new(1000.0, 40.0), Vec2::new(400.0, 570.0));
    let cases = [
        ("a box 1000 px wide", vec![wide]),
        ("a circle 800 px tall", vec![BodyDesc::circle(400.0, Vec2::new(400.0, 200.0))]),
        (
            "the box with a box and a ball on it",
            vec![
                wide,
                BodyDesc::rect(Vec2::splat(30.0), Vec2::new(300.0, 520.0)),
                BodyDesc::circle(15.0, Vec2::new(500.0, 520.0)),
            ],
        ),
    ];
    for (what, bodies) in cases {
        let mut world = World::new(Vec2::new(800.0, 600.0), config.clone()).expect("world");
        let handles: Vec<_> =
            bodies.into_iter().map(|desc| world.add_body(desc).expect("body")).collect();
        let asleep = (1..=3 * 120).find(|_| {
            world.step(config.time_step).expect("step");
            world.stats().awake == 0
        });
        assert!(asleep.is_some(), "{what}: {} bodies still awake after 3 s", world.stats().awake);
        check_contained(&world).expect("centred");
        check_sleep(&world).expect("one sleeping island");
        for (i, &a) in handles.iter().enumerate() {
            for &b in &handles[i + 1..] {
                let (a, b) = (world.body(a).expect("a"), world.body(b).expect("b"));
                let depth = collide(&a.shape(), a.position(), &b.shape(), b.position())
                    .map_or(0.0, |m| m.depth);
                assert!(depth <= limit, "{what}: asleep with a {depth} px overlap");
            }
        }
    }
}

/// Issue 7, found by the energy property (gravity toggled off over a resting pile gave
/// energy from nothing): the impulses kept for warm starting carried the weight of the
/// resting boxes (m·g·dt per step). Re-applied after gravity was switched off (or changed
/// through the config) they pushed the pile apart: a settled 55-box pyramid flew apart at
/// up to 9 px/s. A gravity or time-step change now forgets them. Before the fix the kinetic
/// energy after the toggle was 3.5·10⁵ instead of ≈ 0.
#[test]
fn switching_gravity_off_does_not_launch_a_resting_pile_r_slp_4() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let settled = || {
        let mut world = scenes::pyramid(10, 30.0).build(config.clone()).expect("scene");
        for _ in 0..600 {
            world.step(config.time_step).expect("step");
        }
        assert!(world.kinetic_energy() < 1e-3, "settled: {}", world.kinetic_energy());
        world
    };
    let mut toggled = settled();
    toggled.set_gravity_enabled(false);
    let mut weightless = settled();
    weightless
        .set_config(PhysicsConfig { gravity: Vec2::ZERO, ..config.clone() })
        .expect("valid config");
    for world in [&mut toggled, &mut weightless] {
        for _ in 0..60 {
            world.step(config.time_step).expect("step");
            let fastest = world.bodies().map(|(_, b)| b.velocity().length()).fold(0.0, f32::max);
            assert!(fastest < 0.01, "a body of the weightless pile moves at {fastest} px/s");
        }
    }
}

/// Found by issue 14's energy trace of `mixed(500, 3)`: an island woken by a touch inside
/// a step was solved from the impulses that held it up when it fell asleep (one step's
/// weight, m·g·dt), but the step's gravity had passed it by as a sleeper, so the whole
/// pile jumped up at g·dt = 8.17 px/s: energy from nothing at every wake (§7, R-SLP-4).
/// A box set down at rest beside a sleeping tower wakes it; no tower box may then move
/// faster than 0.1 px/s (before the fix: 1.62 px/s upwards in the step of the wake).
#[test]
fn a_touch_wakes_a_sleeping_tower_without_launching_it_r_slp_4() {
    let config = PhysicsConfig::default();
    let mut w = scenes::tower(5, 40.0).build(config.clone()).expect("scene");
    let tower: Vec<_> = w.handles().collect();
    let mut asleep = false;
    for _ in 0..600 {
        w.step(config.time_step).expect("step");
        asleep = w.stats().awake == 0;
        if asleep {
            break;
        }
    }
    assert!(asleep, "the tower falls asleep");
    // On the floor, its left side touching the bottom box's right side.
    let bottom = w.body(tower[0]).expect("bottom box").position();
    let spot = Vec2::new(bottom.x + 20.0 + 12.0, bottom.y + 8.0);
    w.add_body(BodyDesc::rect(Vec2::splat(24.0), spot)).expect("a box beside the tower");
    for step in 0..30 {
        w.step(config.time_step).expect("step");
        for &h in &tower {
            let body = w.body(h).expect("tower box");
            assert!(!body.is_sleeping(), "step {step}: the touch woke the tower");
            let speed = body.velocity().length();
            assert!(speed < 0.1, "step {step}: a woken tower box moves at {speed} px/s");
        }
    }
}

/// Gravity off, no friction: kinetic energy before and after each of `steps` steps.
fn kinetic_energies(world: &mut World, steps: usize) -> Vec<f64> {
    let dt = world.config().time_step;
    let mut energies = vec![world.kinetic_energy()];
    for _ in 0..steps {
        world.step(dt).expect("step");
        energies.push(world.kinetic_energy());
    }
    energies
}

/// No step raises the kinetic energy beyond f32 rounding (1e-4 relative, 1e-3 absolute).
fn assert_energy_never_grows(energies: &[f64]) {
    for (step, pair) in energies.windows(2).enumerate() {
        assert!(
            pair[1] <= pair[0] * (1.0 + 1e-4) + 1e-3,
            "step {step}: {} -> {}",
            pair[0],
            pair[1]
        );
    }
}

fn weightless_world(size: Vec2) -> World {
    let config = PhysicsConfig {
        gravity: Vec2::ZERO,
        rolling_resistance: 0.0,
        sleeping_enabled: false,
        ..PhysicsConfig::default()
    };
    World::new(size, config).expect("world")
}

/// Issue 7, found by the energy property; fixed in issue 14 (R-REST-1, D10 in
/// docs/physics.md): warm starting re-applied last step's accumulated impulses, including
/// an impact's. A heavy box (10:1) that rams a light box resting against the right wall is
/// stopped by a large impulse; the next step applied it again, and 8 Gauss-Seidel passes
/// through the light box could not take it back: the heavy box (restitution 0) was thrown
/// back at about 50 px/s and the kinetic energy grew 62-fold in one step (this test failed
/// at step 21). Without gravity, an island whose warm start raised its kinetic energy, or
/// in which a hit contact still pushes apart after the passes, is now solved again with
/// that warm start scaled to its least energy.
#[test]
fn a_heavy_box_ramming_a_light_one_into_a_wall_is_not_thrown_back_r_si_2() {
    let mut world = weightless_world(Vec2::new(400.0, 400.0));
    let inelastic = |density| Material { density, friction: 0.0, restitution: 0.0 };
    let heavy = world
        .add_body(
            BodyDesc::rect(Vec2::new(80.0, 24.0), Vec2::new(250.0, 200.0))
                .with_material(inelastic(247.0))
                .with_velocity(Vec2::new(200.0, 0.0)),
        )
        .expect("heavy");
    world
        .add_body(
            BodyDesc::rect(Vec2::new(80.0, 76.0), Vec2::new(359.0, 205.0))
                .with_material(inelastic(7.8)),
        )
        .expect("light");
    assert_energy_never_grows(&kinetic_energies(&mut world, 120));
    let v = world.body(heavy).expect("heavy").velocity();
    assert!(v.x > -1.0, "the heavy box bounced back at {v} with restitution 0");
}

/// Issue 7, found by the energy property: restitution was a velocity target taken from the
/// step-start velocities, per contact, inside the passes. Ball B flies into the left wall at
/// 1000 px/s (e = 1), ball A follows at 800 px/s, already touching it. The wall sent B back
/// at 1000 px/s, and A, in the way, was pushed along at that speed too, though it came at
/// only 800 px/s: the kinetic energy grew by 20 % in one step. The passes now solve every
/// contact inelastically and one pass afterwards adds each contact's own bounce
/// (`solver::restitution::restitute`). Before the fix this failed at step 0.
#[test]
fn a_ball_bouncing_off_a_wall_does_not_launch_its_follower_faster_r_res_5() {
    let mut world = weightless_world(Vec2::new(400.0, 400.0));
    let elastic = Material { density: 1.0, friction: 0.0, restitution: 1.0 };
    let velocity = |vx| Vec2::new(vx, 0.0);
    world
        .add_body(
            BodyDesc::circle(20.0, Vec2::new(19.0, 200.0))
                .with_material(elastic)
                .with_velocity(velocity(-1000.0)),
        )
        .expect("ball B");
    world
        .add_body(
            BodyDesc::circle(20.0, Vec2::new(58.0, 200.0))
                .with_material(elastic)
                .with_velocity(velocity(-800.0)),
        )
        .expect("ball A");
    assert_energy_never_grows(&kinetic_energies(&mut world, 30));
}

/// Issue 7, found by the fuzzer (`fuzz/`, crash after 21,000 executions): a density of
/// 3.57·10⁻⁴³, positive and so inside the old range (0, 10000], made the body's mass
/// underflow to a denormal and its inverse mass infinite; the first step set its position
/// and velocity to NaN. Densities below `Material::MIN_DENSITY` are now refused by name,
/// and a body of the smallest allowed density steps finitely.
#[test]
fn a_denormal_density_is_refused_and_the_lightest_body_stays_finite_r_cfg_3() {
    let mut world = World::new(Vec2::splat(400.0), PhysicsConfig::default()).expect("world");
    let denormal = Material { density: 3.57e-43, friction: 0.0, restitution: 0.0 };
    let desc = BodyDesc::rect(Vec2::new(53.5, 24.0), Vec2::ZERO).with_material(denormal);
    match world.add_body(desc) {
        Err(PhysicsError::Invalid(e)) => {
            assert!(e.names("material.density"), "{e}");
            assert!(e.to_string().contains("[0.001, 10000]"), "{e}");
        }
        other => panic!("a denormal density was not refused: {other:?}"),
    }
    let lightest = Material { density: Material::MIN_DENSITY, ..denormal };
    let light = world
        .add_body(
            BodyDesc::circle(12.0, Vec2::new(200.0, 100.0))
                .with_material(lightest)
                .with_velocity(Vec2::new(-900.0, -900.0)),
        )
        .expect("the lightest body");
    let heavy = Material { density: 1.0e4, ..Material::STEEL };
    world
        .add_body(BodyDesc::circle(150.0, Vec2::new(200.0, 250.0)).with_material(heavy))
        .expect("heavy");
    assert!(world.set_material(light, denormal).is_err(), "set_material checks it too");
    for _ in 0..600 {
        world.step(PhysicsConfig::default().time_step).expect("step");
        check_finite(&world).expect("finite");
        check_contained(&world).expect("contained");
    }
}

/// Issue 7, found by the energy property once bounces had their own pass: in a simultaneous
/// impact of three heavy bodies (two discs and a box, ~4·10⁷ each, at up to 1290 px/s, with
/// a light box caught between them) the bounces, enforced one contact after the other,
/// returned more energy than the bodies brought in. The state is the one the property
/// found at step 17, with e = 1 for all: without the guard the kinetic energy grows by 4 %
/// in the first step. Each island's bounces are now scaled
/// to at most the island's kinetic energy at the step start (`solver::restitution::EnergyGuard`).
#[test]
fn a_simultaneous_impact_of_three_bodies_bounces_without_gaining_energy_r_res_1() {
    let mut world = weightless_world(Vec2::new(2366.287, 1933.6089));
    let material = |density| Material { density, friction: 0.0, restitution: 1.0 };
    let area = |r: f32| std::f32::consts::PI * r * r;
    let bodies = [
        (
            BodyDesc::circle(40.0, Vec2::new(1427.4674, 143.92717)),
            4.191e7 / area(40.0),
            (-948.96515, 873.9984),
        ),
        (
            BodyDesc::rect(Vec2::splat(24.0), Vec2::new(1444.3859, 186.77388)),
            1.1,
            (-937.99414, 894.30566),
        ),
        (
            BodyDesc::circle(36.25942, Vec2::new(1416.6212, 212.30098)),
            4.050e7 / area(36.25942),
            (-707.0367, -151.20866),
        ),
        (
            BodyDesc::rect(Vec2::new(80.0, 76.679214), Vec2::new(1490.5664, 213.74142)),
            3.287e7 / (80.0 * 76.679214),
            (-706.9906, -644.46106),
        ),
    ];
    for (desc, density, (vx, vy)) in bodies {
        world
            .add_body(desc.with_material(material(density)).with_velocity(Vec2::new(vx, vy)))
            .expect("body");
    }
    assert_energy_never_grows(&kinetic_energies(&mut world, 10));
}

/// Found by the scene-file fuzzer: a drag target is clamped so the whole body fits in the
/// world (R-DRAG-1) when it is set, but not when the world shrank under it. A circle held at
/// (770, 300) in an 800 px world kept that target after `set_bounds` to 400 px, and one held
/// beyond a switched-off right wall kept its target 1,000 px out after the wall came back:
/// both were dragged into the wall. `grab` took the body's position as it was, outside the
/// world after `set_bounds`, or half a pixel into the floor for a body resting on it. Before
/// the fix each target below stayed where it was.
#[test]
fn every_drag_target_fits_the_world_after_bounds_shrink_a_wall_returns_or_a_grab_r_drag_1() {
    let size = Vec2::new(800.0, 600.0);
    let target = |world: &World, handle| world.body(handle).and_then(|b| b.drag_target());
    let mut shrunk = World::new(size, PhysicsConfig::default()).expect("world");
    let held = shrunk.add_body(BodyDesc::circle(20.0, Vec2::new(700.0, 300.0))).expect("body");
    let outside = shrunk.add_body(BodyDesc::circle(20.0, Vec2::new(600.0, 200.0))).expect("body");
    shrunk.grab(held).expect("dynamic");
    shrunk.set_drag_target(held, Vec2::new(770.0, 300.0)).expect("held");
    shrunk.set_bounds(Vec2::ZERO, Vec2::new(400.0, 600.0)).expect("bounds");
    assert_eq!(target(&shrunk, held), Some(Vec2::new(380.0, 300.0)), "after set_bounds");
    shrunk.grab(outside).expect("dynamic");
    assert_eq!(target(&shrunk, outside), Some(Vec2::new(380.0, 200.0)), "grabbed outside");

    let mut open = World::new(size, PhysicsConfig::default()).expect("world");
    let held = open.add_body(BodyDesc::circle(20.0, Vec2::new(700.0, 300.0))).expect("body");
    open.set_wall_enabled(WallId::Right, false);
    open.grab(held).expect("dynamic");
    open.set_drag_target(held, Vec2::new(1800.0, 300.0)).expect("held");
    assert_eq!(target(&open, held), Some(Vec2::new(1800.0, 300.0)), "beyond the open wall");
    open.set_wall_enabled(WallId::Right, true);
    assert_eq!(target(&open, held), Some(Vec2::new(780.0, 300.0)), "the wall came back");

    // A heavy ball under a pile rests a little into the floor; grabbed, it is not held there.
    let mut pile = World::new(size, PhysicsConfig::default()).expect("world");
    let heavy = Material { density: 10.0, ..Material::WOOD };
    let mut balls = Vec::new();
    for i in 0..14 {
        let at = Vec2::new(760.0 + (i % 2) as f32 * 10.0, 580.0 - 40.0 * i as f32);
        balls.push(pile.add_body(BodyDesc::circle(20.0, at).with_material(heavy)).expect("in"));
    }
    for _ in 0..200 {
        pile.step(PhysicsConfig::default().time_step).expect("step");
    }
    let bottom = pile.body(balls[0]).map(|b| b.position()).expect("body");
    assert!(bottom.y > 580.0, "the bottom ball rests into the floor: {bottom}");
    pile.grab(balls[0]).expect("dynamic");
    assert_eq!(target(&pile, balls[0]), Some(Vec2::new(bottom.x, 580.0)), "grabbed at rest");
}
