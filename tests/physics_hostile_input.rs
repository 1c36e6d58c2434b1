//! Hostile input (issue 7, item 2): NaN, ±infinity, negative, zero and huge values in every
//! `PhysicsConfig` field (walking `PhysicsConfig::PARAMETERS`) and every body-description
//! field; bodies outside the world or exactly on top of each other; a world resized smaller
//! than its bodies; a time step of 0 or 1 s; removed and stale handles.
//!
//! Each bad value must be refused with an error that names the field and the allowed range
//! (or clamped as documented), the world must keep its last valid state and keep running, and
//! nothing may panic or let a NaN in (R-CFG-3).

mod invariants;

use std::collections::BTreeSet;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, BodyKind, ConfigError, MAX_COORDINATE, MIN_STEP, Material,
    ParameterValue, PhysicsConfig, PhysicsError, PositionCorrection, SPEED_CEILING, Shape, WallId,
    World,
};
use glam::Vec2;
use invariants::*;

const DT: f32 = 1.0 / 120.0;

/// The values every numeric field is attacked with.
const HOSTILE: [f32; 9] =
    [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -1.0e-30, 0.0, 1.0e30, f32::MAX, -f32::MAX];

/// A small running world: a few bodies of each kind, some resting, some moving.
fn running_world() -> (World, BTreeSet<BodyHandle>) {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    let mut live = BTreeSet::new();
    for i in 0..12 {
        let x = 60.0 + 60.0 * i as f32;
        let desc = if i % 2 == 0 {
            BodyDesc::circle(14.0 + i as f32, Vec2::new(x, 100.0))
        } else {
            BodyDesc::rect(Vec2::new(30.0, 26.0 + i as f32), Vec2::new(x, 300.0))
        };
        live.insert(
            world.add_body(desc.with_velocity(Vec2::new(50.0 * i as f32, -80.0))).expect("body"),
        );
    }
    live.insert(
        world
            .add_body(BodyDesc::rect(Vec2::new(200.0, 24.0), Vec2::new(400.0, 450.0)).fixed())
            .expect("static"),
    );
    for _ in 0..30 {
        world.step(DT).expect("step");
    }
    (world, live)
}

/// The world still runs: 60 more steps keep every invariant.
#[track_caller]
fn keeps_running(world: &mut World, live: &BTreeSet<BodyHandle>) {
    let dt = world.config().time_step;
    for _ in 0..60 {
        world.step(dt).expect("a valid step");
        if let Err(e) = check_all(world, live, &[]) {
            panic!("after a refused input: {e}");
        }
    }
}

/// The error names `field` and says what is allowed.
#[track_caller]
fn names(error: &ConfigError, field: &str, allowed: &str) {
    let problem = error.problems.iter().find(|p| p.field == field);
    let Some(problem) = problem else { panic!("{error} does not name {field}") };
    assert!(problem.allowed.contains(allowed), "{field}: {:?} lacks {allowed:?}", problem.allowed);
    let text = error.to_string();
    assert!(text.contains(field) && text.contains("allowed"), "{text}");
}

#[track_caller]
fn invalid(result: Result<impl std::fmt::Debug, PhysicsError>) -> ConfigError {
    match result {
        Err(PhysicsError::Invalid(e)) => e,
        other => panic!("expected a refusal naming the field, got {other:?}"),
    }
}

/// R-CFG-3, issue 7: NaN, ±∞, negative, zero and huge values in every `PhysicsConfig` field
/// (every entry of `PARAMETERS`, so a new field is attacked too). An out-of-range value is
/// refused with the field's name and its range `min ..= max`; the world keeps its config
/// and runs on. In-range values (0 where 0 is allowed) may pass or be refused by a derived
/// rule, but never break the world.
#[test]
fn every_config_field_refuses_nan_infinite_negative_zero_and_huge_values_r_cfg_3() {
    let (mut world, live) = running_world();
    let before = world.config().clone();
    let mut refused = 0;
    for parameter in PhysicsConfig::PARAMETERS {
        let range = format!("{} ..= {}", parameter.min, parameter.max);
        let attacks: Vec<(ParameterValue, bool)> = match (parameter.get)(&before) {
            ParameterValue::Float(_) => HOSTILE
                .iter()
                .map(|&x| (ParameterValue::Float(x), x >= parameter.min && x <= parameter.max))
                .collect(),
            ParameterValue::Vector(_) => HOSTILE
                .iter()
                .flat_map(|&x| [Vec2::new(x, 0.0), Vec2::new(0.0, x)])
                .map(|v| {
                    let ok = |c: f32| c >= parameter.min && c <= parameter.max;
                    (ParameterValue::Vector(v), ok(v.x) && ok(v.y))
                })
                .collect(),
            ParameterValue::Count(_) => [0, parameter.max as u32 + 1, u32::MAX]
                .iter()
                .map(|&n| {
                    let ok = (n as f32) >= parameter.min && (n as f32) <= parameter.max;
                    (ParameterValue::Count(n), ok)
                })
                .collect(),
            ParameterValue::Switch(x) => vec![(ParameterValue::Switch(!x), true)],
            // A choice out of range cannot be stored in the enum: its setter leaves the field
            // as it was (checked here), so the config stays valid.
            ParameterValue::Choice(_) => [parameter.max as u32 + 1, u32::MAX]
                .iter()
                .map(|&n| {
                    let mut config = before.clone();
                    (parameter.set)(&mut config, ParameterValue::Choice(n));
                    assert_eq!(config, before, "{}: choice {n} was stored", parameter.name);
                    (ParameterValue::Choice(n), true)
                })
                .collect(),
        };
        for (value, in_range) in attacks {
            let mut config = before.clone();
            (parameter.set)(&mut config, value);
            let result = world.set_config(config.clone());
            if in_range {
                if result.is_ok() {
                    world.set_config(before.clone()).expect("restore");
                }
                continue;
            }
            refused += 1;
            let error = result.expect_err(parameter.name);
            names(&error, parameter.name, &range);
            assert_eq!(
                world.config(),
                &before,
                "{}: a refused config changed the world",
                parameter.name
            );
            let fresh = World::new(Vec2::splat(400.0), config);
            names(&invalid(fresh), parameter.name, &range);
        }
    }
    assert!(refused >= 3 * PhysicsConfig::PARAMETERS.len(), "only {refused} refusals");
    eprintln!("{refused} out-of-range config values refused by name and range");
    keeps_running(&mut world, &live);
}

/// Issue 7: the derived rules between fields are refused by name too: a time step of 1 s
/// and one of 0 (R-TUN-1: max_speed must stay below 0.9·12 px/dt).
#[test]
fn a_time_step_of_zero_or_one_second_is_refused_with_its_range_r_cfg_3() {
    let (mut world, live) = running_world();
    let hash = world.state_hash();
    for dt in [0.0, 1.0, -DT, f32::NAN, f32::INFINITY, -0.0, 1.0 / 29.0] {
        let error = invalid(world.step(dt));
        names(&error, "dt", "1/30 s");
        assert_eq!(world.state_hash(), hash, "a refused step moved the world");
    }
    for time_step in [0.0, 1.0, -DT, f32::NAN, f32::INFINITY, 1.0e-30] {
        let config = PhysicsConfig { time_step, ..PhysicsConfig::default() };
        names(&world.set_config(config).expect_err("time_step"), "time_step", "0.001 ..= 0.033");
    }
    // A 1 s step keeps the spec's speed limit only with max_speed = 10.8 px/s: refused.
    let slow = PhysicsConfig { time_step: 1.0 / 30.0, ..PhysicsConfig::default() };
    names(
        &world.set_config(slow).expect_err("max_speed"),
        "max_speed",
        "0.9·MIN_BODY_SIZE/time_step",
    );
    keeps_running(&mut world, &live);
}

/// One hostile description per field: the field and what is allowed must be named.
fn hostile_descs() -> Vec<(BodyDesc, &'static str, &'static str)> {
    let base = BodyDesc::circle(20.0, Vec2::new(400.0, 300.0));
    let rect = BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(400.0, 300.0));
    let mut descs = Vec::new();
    for x in HOSTILE {
        descs.push((
            BodyDesc { shape: Shape::Circle { radius: x }, ..base },
            "shape.radius",
            "12 ..= 10000 px",
        ));
        for half in [Vec2::new(x, 20.0), Vec2::new(20.0, x)] {
            descs.push((
                BodyDesc { shape: Shape::Rect { half_extents: half }, ..rect },
                "shape.half_extents",
                "12 ..= 10000 px",
            ));
        }
        descs.push((
            base.with_material(Material { density: x, ..Material::WOOD }),
            "material.density",
            "[0.001, 10000]",
        ));
        if !(0.0..=2.0).contains(&x) {
            descs.push((
                base.with_material(Material { friction: x, ..Material::WOOD }),
                "material.friction",
                "[0, 2]",
            ));
        }
        if !(0.0..=1.0).contains(&x) {
            descs.push((
                base.with_material(Material { restitution: x, ..Material::WOOD }),
                "material.restitution",
                "[0, 1]",
            ));
        }
        if !(-100.0..=100.0).contains(&x) {
            descs.push((base.with_gravity_scale(x), "gravity_scale", "-100 ..= 100"));
        }
        if !x.is_finite() {
            for p in [Vec2::new(x, 300.0), Vec2::new(400.0, x)] {
                descs.push((BodyDesc { position: p, ..base }, "position", "finite"));
            }
            for v in [Vec2::new(x, 0.0), Vec2::new(0.0, x)] {
                descs.push((base.with_velocity(v), "velocity", "finite"));
            }
            descs.push((BodyDesc { angle: x, ..base }, "angle", "finite"));
            descs.push((base.with_angular_velocity(x), "angular_velocity", "finite"));
        } else if x.abs() > 1.0e6 || x < 0.0 {
            // Finite positions outside the world are refused with the world's extent.
            for p in [Vec2::new(x, 300.0), Vec2::new(400.0, x)] {
                descs.push((BodyDesc { position: p, ..base }, "position", "inside the world"));
            }
        }
    }
    descs
}

/// R-CFG-3, issue 7: every body-description field (shape size, density, friction,
/// restitution, position, velocity, angle, angular velocity, gravity scale) refuses NaN,
/// ±∞, negative, zero and huge values by name and range, for static and kinematic bodies
/// too; nothing is added.
#[test]
fn every_body_description_field_refuses_hostile_values_by_name_r_cfg_3() {
    let (mut world, live) = running_world();
    let hash = world.state_hash();
    let descs = hostile_descs();
    for (desc, field, allowed) in &descs {
        for kind in [BodyKind::Dynamic, BodyKind::Static, BodyKind::Kinematic] {
            // A static or kinematic body's centre may lie outside the world, up to
            // MAX_COORDINATE (`World::can_place`; the next test): only beyond is it refused.
            let outside = *allowed == "inside the world" && kind != BodyKind::Dynamic;
            if outside && desc.position.abs().max_element() <= MAX_COORDINATE {
                continue;
            }
            let allowed = if outside { "within 1e9 px of the origin" } else { allowed };
            let error = invalid(world.add_body(BodyDesc { kind, ..*desc }));
            names(&error, field, allowed);
        }
        assert_eq!(world.body_count(), live.len(), "{field}: a refused body was added");
    }
    assert_eq!(world.state_hash(), hash, "refusals left the world as it was");
    assert!(descs.len() >= 80, "{} hostile descriptions", descs.len());
    eprintln!("{} hostile body descriptions refused, of every kind", descs.len());
    keeps_running(&mut world, &live);
}

/// R-GAME-4, R-PLUG-1: the walls and the brake act on dynamic bodies only, so a static or a
/// kinematic body may be placed, and teleported, with its centre outside the walls (a
/// platform that slides in from off screen), up to `MAX_COORDINATE` on each axis; a dynamic
/// one is refused there with the world's extent. Before, every kind was refused outside the
/// walls, so a kinematic body that had left the world could not be given a new shape or kind
/// (the plugin rebuilds the body), nor come back in a rebuilt `PhysicsWorld`.
#[test]
fn a_static_or_kinematic_body_may_be_placed_outside_the_walls_a_dynamic_one_not_r_game_4() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    let still = |p: Vec2| BodyDesc::circle(20.0, p).fixed();
    let moving = |p: Vec2| BodyDesc::rect(Vec2::splat(40.0), p).kinematic();
    let mut placed = Vec::new();
    for p in [Vec2::new(-300.0, 300.0), Vec2::new(400.0, 5000.0), Vec2::splat(-MAX_COORDINATE)] {
        let error = invalid(world.add_body(BodyDesc::circle(20.0, p)));
        names(&error, "position", "inside the world [0, 0] ..= [800, 600]");
        for desc in [still(p), moving(p)] {
            let handle = world.add_body(desc).expect("placed outside the walls");
            placed.push((handle, p));
        }
    }
    let far = Vec2::new(MAX_COORDINATE * 1.01, 300.0);
    for desc in [still(far), moving(far)] {
        names(&invalid(world.add_body(desc)), "position", "within 1e9 px of the origin");
    }

    // Teleports follow the same rule.
    let inside = Vec2::new(400.0, 300.0);
    let platform = world.add_body(moving(inside).with_velocity(Vec2::new(-600.0, 0.0)));
    let platform = platform.expect("inside");
    let ball = world.add_body(BodyDesc::circle(20.0, Vec2::new(200.0, 500.0))).expect("inside");
    let out = Vec2::new(-500.0, 300.0);
    world.set_position(platform, out).expect("a kinematic body teleported outside");
    names(&invalid(world.set_position(ball, out)), "position", "inside the world");
    names(&invalid(world.set_position(platform, far)), "position", "within 1e9 px");

    // The world steps on: the static bodies stay, the platform moves on at its velocity,
    // the ball stays inside, nothing turns NaN.
    let dt = world.config().time_step;
    for _ in 0..60 {
        world.step(dt).expect("a valid step");
    }
    for (handle, p) in placed.into_iter().step_by(2) {
        assert_eq!(world.body(handle).expect("kept").position(), p, "a static body moved");
    }
    let x = world.body(platform).expect("kept").position().x;
    assert!((x - (-500.0 - 600.0 * 60.0 * dt)).abs() < 1e-2, "the platform at x = {x}");
    let ball = world.body(ball).expect("kept").position();
    assert!(world.contains_point(ball), "the ball at {ball}");
    assert!(world.bodies().all(|(_, b)| b.position().is_finite()), "a NaN position");
}

/// Issue 7, R-TUN-1: huge but finite velocities and spins are not errors: they are clamped
/// to max_speed and max_speed/12 px as documented on `BodyDesc::velocity`, on
/// `set_velocity`, `set_angular_velocity` and on a throw. A huge angle only turns the
/// drawing and stays finite.
#[test]
fn huge_finite_speeds_are_clamped_as_documented_r_tun_1() {
    let (mut world, mut live) = running_world();
    let max_speed = world.config().max_speed;
    let max_spin = world.config().max_angular_speed();
    let huge = BodyDesc::circle(20.0, Vec2::new(400.0, 200.0))
        .with_velocity(Vec2::new(f32::MAX, -f32::MAX))
        .with_angular_velocity(-1.0e30);
    let huge = BodyDesc { angle: 1.0e30, ..huge };
    let h = world.add_body(huge).expect("a huge finite speed is clamped, not refused");
    live.insert(h);
    let body = world.body(h).expect("added");
    assert!(body.velocity().is_finite() && body.velocity().length() <= max_speed * 1.0001);
    assert!((body.angular_velocity() + max_spin).abs() < 1e-3, "{}", body.angular_velocity());
    world.set_velocity(h, Vec2::splat(1.0e38)).expect("clamped");
    assert!(world.body(h).expect("body").velocity().length() <= max_speed * 1.0001);
    world.set_angular_velocity(h, f32::MAX).expect("clamped");
    assert!(world.body(h).expect("body").angular_velocity() <= max_spin);
    world.grab(h).expect("grab");
    world.release(h, Vec2::new(-f32::MAX, 0.0)).expect("a throw is clamped");
    assert!(world.body(h).expect("body").velocity().length() <= max_speed * 1.0001);
    keeps_running(&mut world, &live);
}

/// R-CFG-3, issue 7: the calls that change a body refuse NaN and ±∞ by name and leave the
/// body as it was; stale handles and static bodies get their own errors.
#[test]
fn body_setters_refuse_non_finite_values_and_keep_the_body_r_cfg_3() {
    let (mut world, live) = running_world();
    let h = *live.iter().next().expect("a body");
    world.grab(h).expect("grab");
    let hash = world.state_hash();
    for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for v in [Vec2::new(x, 1.0), Vec2::new(1.0, x)] {
            names(&invalid(world.set_position(h, v)), "position", "finite");
            names(&invalid(world.set_velocity(h, v)), "velocity", "finite");
            names(&invalid(world.set_drag_target(h, v)), "drag target", "finite");
            names(&invalid(world.move_held_directly(h, v)), "drag target", "finite");
            names(&invalid(world.release(h, v)), "throw velocity", "finite");
        }
        names(&invalid(world.set_angular_velocity(h, x)), "angular_velocity", "finite");
        names(&invalid(world.set_angle(h, x)), "angle", "finite");
        let bad = Material { density: x, ..Material::WOOD };
        names(&invalid(world.set_material(h, bad)), "material.density", "[0.001, 10000]");
    }
    for outside in [Vec2::new(-1.0, 300.0), Vec2::new(801.0, 300.0), Vec2::new(400.0, 1.0e9)] {
        names(&invalid(world.set_position(h, outside)), "position", "inside the world");
    }
    assert_eq!(world.state_hash(), hash, "refused calls changed the world");
    assert!(world.body(h).expect("body").is_held(), "still held after refused releases");
    let fixed = *live.iter().last().expect("the static body");
    assert!(matches!(world.set_velocity(fixed, Vec2::ONE), Err(PhysicsError::NotDynamic(_))));
    assert!(matches!(world.grab(fixed), Err(PhysicsError::NotDynamic(_))));
    world.release(h, Vec2::ZERO).expect("release");
    keeps_running(&mut world, &live);
}

/// Issue 7: bodies spawned outside the world are refused with the world's extent, on every
/// side and just past the edge; the edge itself is inside.
#[test]
fn bodies_spawned_outside_the_world_are_refused_with_its_extent() {
    let (mut world, mut live) = running_world();
    let eps = 1.0e-3;
    for p in [
        Vec2::new(-eps, 300.0),
        Vec2::new(800.0 + eps, 300.0),
        Vec2::new(400.0, -eps),
        Vec2::new(400.0, 600.0 + eps),
        Vec2::splat(-1.0e30),
    ] {
        let error = invalid(world.add_body(BodyDesc::circle(20.0, p)));
        names(&error, "position", "inside the world [0, 0] ..= [800, 600]");
    }
    // A centre on the edge is inside: the walls and the brake pull the body in.
    live.insert(world.add_body(BodyDesc::circle(20.0, Vec2::new(800.0, 600.0))).expect("edge"));
    live.insert(world.add_body(BodyDesc::rect(Vec2::splat(60.0), Vec2::ZERO)).expect("corner"));
    keeps_running(&mut world, &live);
}

/// R-COL-3, issue 7: bodies spawned exactly on top of each other (coincident centres: circle
/// on circle, box on box, circle in box, and twelve at one point) never divide by zero: the
/// fallback normal pushes them apart, and they separate without NaN or escaping.
#[test]
fn bodies_spawned_exactly_on_top_of_each_other_separate_without_nan_r_col_3() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    let mut live = BTreeSet::new();
    let spots = [Vec2::new(150.0, 300.0), Vec2::new(400.0, 300.0), Vec2::new(650.0, 300.0)];
    let pairs = [
        (BodyDesc::circle(20.0, spots[0]), BodyDesc::circle(30.0, spots[0])),
        (BodyDesc::rect(Vec2::splat(40.0), spots[1]), BodyDesc::rect(Vec2::splat(40.0), spots[1])),
        (BodyDesc::circle(20.0, spots[2]), BodyDesc::rect(Vec2::splat(60.0), spots[2])),
    ];
    for (a, b) in pairs {
        live.insert(world.add_body(a).expect("a"));
        live.insert(world.add_body(b).expect("b"));
    }
    let pile = Vec2::new(400.0, 100.0);
    for i in 0..12 {
        let desc = if i % 2 == 0 {
            BodyDesc::circle(16.0, pile)
        } else {
            BodyDesc::rect(Vec2::splat(30.0), pile)
        };
        live.insert(world.add_body(desc).expect("pile"));
    }
    for _ in 0..600 {
        world.step(DT).expect("step");
        check_all(&world, &live, &[]).expect("invariants");
    }
    let centres: Vec<Vec2> = world.bodies().map(|(_, b)| b.position()).collect();
    for (i, a) in centres.iter().enumerate() {
        for b in &centres[i + 1..] {
            assert!(a.distance(*b) > 10.0, "still coincident after 5 s: {a} and {b}");
        }
    }
}

/// Issue 7, R-POS-3: a world resized smaller than its bodies (some wider than the new world)
/// pushes them back in: after each step no dynamic body is more than max_wall_penetration
/// outside, a body too wide for the world sits centred on that axis, nothing turns NaN.
/// Bad bounds (NaN, ∞, reversed, under 24 px, over 1e7 px) are refused by name and range.
#[test]
fn a_world_resized_smaller_than_its_bodies_pushes_them_back_in_r_pos_3() {
    let (mut world, mut live) = running_world();
    live.insert(world.add_body(BodyDesc::circle(80.0, Vec2::new(400.0, 200.0))).expect("big"));
    let old = world.bounds();
    for (min, max) in [
        (Vec2::ZERO, Vec2::new(f32::NAN, 100.0)),
        (Vec2::ZERO, Vec2::new(100.0, f32::INFINITY)),
        (Vec2::splat(f32::NEG_INFINITY), Vec2::splat(100.0)),
        (Vec2::splat(100.0), Vec2::ZERO),
        (Vec2::ZERO, Vec2::new(23.0, 100.0)),
        (Vec2::ZERO, Vec2::splat(-100.0)),
        (Vec2::ZERO, Vec2::new(2.0e7, 100.0)),
    ] {
        let error = invalid(world.set_bounds(min, max));
        assert!(error.names("bounds"), "{error}");
        assert!(error.to_string().contains("px"), "{error}");
        assert_eq!(world.bounds(), old, "refused bounds moved the walls");
    }
    for size in [Vec2::new(120.0, 100.0), Vec2::new(24.0, 24.0), Vec2::new(300.0, 30.0)] {
        world.set_bounds(Vec2::ZERO, size).expect("a small but valid world");
        keeps_running(&mut world, &live);
    }
    assert!(World::new(Vec2::new(f32::NAN, 10.0), PhysicsConfig::default()).is_err());
    assert!(World::new(Vec2::ZERO, PhysicsConfig::default()).is_err());
}

/// Issue 7: removing a handle twice, and every call with a stale handle (also after its slot
/// was reused by a new body) gives `StaleHandle` and touches nothing, the new body included.
#[test]
fn removing_a_handle_twice_or_using_a_stale_handle_is_refused() {
    let (mut world, mut live) = running_world();
    let old = *live.iter().next().expect("a body");
    world.remove_body(old).expect("first removal");
    live.remove(&old);
    assert!(matches!(world.remove_body(old), Err(PhysicsError::StaleHandle(h)) if h == old));
    let reused = world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 100.0))).expect("new");
    live.insert(reused);
    assert_eq!(reused.index(), old.index(), "the slot is reused");
    assert_ne!(reused, old);
    let hash = world.state_hash();
    let stale =
        |r: Result<(), PhysicsError>| matches!(r, Err(PhysicsError::StaleHandle(h)) if h == old);
    assert!(world.body(old).is_none() && !world.contains(old));
    assert!(stale(world.remove_body(old).map(|_| ())));
    assert!(stale(world.set_position(old, Vec2::new(100.0, 100.0))));
    assert!(stale(world.set_velocity(old, Vec2::ONE)));
    assert!(stale(world.set_angular_velocity(old, 1.0)));
    assert!(stale(world.set_angle(old, 1.0)));
    assert!(stale(world.set_material(old, Material::STEEL)));
    assert!(stale(world.grab(old)));
    assert!(stale(world.set_drag_target(old, Vec2::ONE)));
    assert!(stale(world.move_held_directly(old, Vec2::ONE)));
    assert!(stale(world.release(old, Vec2::ONE)));
    assert!(stale(world.wake(old)));
    assert!(stale(world.set_layers(old, bevy_sandbox_physics::physics::CollisionLayers::NONE)));
    assert!(stale(world.set_sensor(old, true)));
    assert!(stale(world.set_collision_events(old, true)));
    let message = world.remove_body(old).map(|_| ()).expect_err("stale").to_string();
    assert!(message.contains("removed or stale"), "{message}");
    assert_eq!(world.state_hash(), hash, "stale calls changed the world");
    keeps_running(&mut world, &live);
}

/// Issue 19: a huge but finite velocity is clamped to `max_speed` in its own direction, by
/// every way it can enter (a description, `set_velocity`, a throw). Squaring 1e20 overflows
/// to infinity, and the plain clamp turned such a body's velocity into zero.
#[test]
fn a_huge_finite_velocity_is_clamped_to_the_speed_limit_not_to_zero() {
    let mut w = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    let max = w.config().max_speed;
    let huge = Vec2::new(1.0e20, -1.0e20);
    let direction = huge.as_dvec2().normalize();
    let check = |v: Vec2, how: &str| {
        assert!((v.length() - max).abs() < 1e-2, "{how}: |v| = {} instead of {max}", v.length());
        assert!((v.as_dvec2().normalize() - direction).length() < 1e-6, "{how}: turned to {v}");
    };
    let spawned = w.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)).with_velocity(huge));
    let spawned = spawned.expect("a finite velocity is accepted");
    check(w.body(spawned).unwrap().velocity(), "description");
    let set = w.add_body(BodyDesc::circle(20.0, Vec2::new(200.0, 300.0))).expect("a body");
    w.set_velocity(set, huge).unwrap();
    check(w.body(set).unwrap().velocity(), "set_velocity");
    let thrown = w.add_body(BodyDesc::circle(20.0, Vec2::new(600.0, 300.0))).expect("a body");
    w.grab(thrown).unwrap();
    w.release(thrown, huge).unwrap();
    check(w.body(thrown).unwrap().velocity(), "release");
}

/// R-CFG-3: a step shorter than `MIN_STEP` (1 µs) is refused by name. Found by a fuzzer: two
/// overlapping circles under Baumgarte's correction, stepped by 1e-36 s, both became NaN, as
/// the bias `β·depth/dt` overflowed. A step of exactly `MIN_STEP` keeps them finite.
#[test]
fn a_step_shorter_than_a_microsecond_is_refused_and_baumgarte_stays_finite_r_cfg_3() {
    let config =
        PhysicsConfig { position_correction: PositionCorrection::Baumgarte, ..Default::default() };
    let mut world = World::new(Vec2::new(800.0, 600.0), config).expect("world");
    let live: BTreeSet<BodyHandle> = [400.0, 410.0]
        .into_iter()
        .map(|x| world.add_body(BodyDesc::circle(20.0, Vec2::new(x, 300.0))).expect("body"))
        .collect();
    let hash = world.state_hash();
    for dt in [1.0e-36, f32::MIN_POSITIVE, 1.0e-7, MIN_STEP * 0.99] {
        names(&invalid(world.step(dt)), "dt", "1e-6 s");
        assert_eq!(world.state_hash(), hash, "a refused step of {dt} s moved the world");
    }
    world.step(MIN_STEP).expect("the shortest step");
    if let Err(e) = check_all(&world, &live, &[]) {
        panic!("after a step of MIN_STEP: {e}");
    }
    keeps_running(&mut world, &live);
}

/// R-CFG-3, R-LAB-1: with the rule switch `speed_limit` off, huge finite inputs still leave
/// every velocity, position and energy finite: speeds stop at `SPEED_CEILING`. Found by a
/// fuzzer: a kinematic body set to 3e38 px/s reached an infinite position in 136 steps, an
/// impulse of 1e30 on a light circle made its kinetic energy infinite, and a body pushed
/// right by a force of 1e30 ended at the left wall (the brake's correction cancelled out at
/// a depth near 1e25 px).
#[test]
fn with_the_speed_limit_off_huge_inputs_stay_finite_r_cfg_3() {
    let config = PhysicsConfig { speed_limit: false, ..Default::default() };
    let (max_speed, max_spin) = config.speed_limits();
    assert_eq!((max_speed, max_spin), (SPEED_CEILING, SPEED_CEILING / 12.0));
    let mut world = World::new(Vec2::new(800.0, 600.0), config).expect("world");
    let kinematic = world
        .add_body(BodyDesc::circle(20.0, Vec2::new(100.0, 100.0)).kinematic())
        .expect("kinematic");
    world.set_velocity(kinematic, Vec2::splat(3.0e38)).expect("clamped, not refused");
    let light = world.add_body(BodyDesc::circle(12.0, Vec2::new(400.0, 300.0))).expect("light");
    world.apply_impulse_at(light, Vec2::splat(1.0e30), Vec2::new(412.0, 290.0)).expect("kick");
    let fast = BodyDesc::circle(15.0, Vec2::new(600.0, 300.0)).with_velocity(Vec2::splat(3.4e38));
    let fast = world.add_body(fast).expect("clamped, not refused");
    let pushed = world.add_body(BodyDesc::circle(20.0, Vec2::new(200.0, 500.0))).expect("body");
    world.set_force(pushed, Vec2::new(1.0e30, -1.0e30)).expect("a force within ±1e30");
    for handle in [light, fast] {
        let body = world.body(handle).expect("body");
        assert!(body.velocity().length() <= SPEED_CEILING * 1.0001, "{}", body.velocity());
        assert!(body.angular_velocity().abs() <= max_spin * 1.0001);
        assert!(body.kinetic_energy().is_finite(), "{handle:?}: {}", body.kinetic_energy());
    }
    for step in 0..300 {
        world.step(DT).expect("a valid step");
        assert!(world.kinetic_energy().is_finite(), "step {step}: infinite energy");
        for (handle, body) in world.bodies() {
            assert!(body.position().is_finite() && body.velocity().is_finite(), "{handle:?}");
        }
    }
    // Pushed right, the body stays at the right wall (its centre in the right half).
    let x = world.body(pushed).expect("body").position().x;
    assert!(x > 400.0, "pushed right, the body is at x = {x}");
}

/// R-CFG-3, R-GAME-7: beyond a switched-off wall a body may be placed up to `MAX_COORDINATE`
/// px from the origin, and the walls may stand no farther out. Found by a fuzzer: two boxes
/// placed at y = 1.8e38 px below an open floor got NaN angles in their first step (a sum of
/// two coordinates overflowed), and a world moved to 3e12 px made every spatial query
/// allocate gigabytes.
#[test]
fn bodies_and_walls_stay_within_a_billion_px_of_the_origin_r_cfg_3() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    world.set_wall_enabled(WallId::Floor, false);
    let hash = world.state_hash();
    for y in [1.8e38, f32::MAX, MAX_COORDINATE * 1.01] {
        let error = invalid(world.add_body(BodyDesc::rect(Vec2::splat(40.0), Vec2::new(400.0, y))));
        names(&error, "position", &format!("{MAX_COORDINATE}"));
    }
    let min = Vec2::splat(3.0e12);
    names(&invalid(world.set_bounds(min, min + Vec2::splat(1.0e6))), "bounds", "1e9");
    assert_eq!(world.state_hash(), hash, "a refusal changed the world");
    let live: BTreeSet<BodyHandle> = [400.0, 440.0]
        .into_iter()
        .map(|x| {
            let desc = BodyDesc::rect(Vec2::splat(40.0), Vec2::new(x, MAX_COORDINATE));
            world.add_body(desc).expect("placed at the limit")
        })
        .collect();
    for _ in 0..120 {
        world.step(DT).expect("a valid step");
    }
    for &handle in &live {
        let body = world.body(handle).expect("kept");
        assert!(body.position().is_finite() && body.angle().is_finite(), "{handle:?}");
    }
}
