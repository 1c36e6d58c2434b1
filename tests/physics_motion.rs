//! Game motion (issue 15): kinematic bodies (R-GAME-4), forces, torques, impulses and the
//! gravity scale (R-GAME-5), and walls switched off for open worlds (R-GAME-7).
//!
//! Each test compares with the analytic value of semi-implicit Euler (§3): after n steps of
//! a constant acceleration a from rest, `v = n·a·dt` and `s = a·dt²·n(n+1)/2`, both exact up
//! to the f32 rounding of the sums, for which the tolerances below are stated.

mod common;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, BodyKind, Material, PhysicsConfig, PhysicsError, WallId, World,
};
use common::*;
use glam::Vec2;

/// Earth gravity of §1, px/s² (y down).
const G: f32 = 980.0;

/// The semi-implicit Euler displacement after n steps of acceleration `a` from rest (§3).
fn euler_distance(a: f32, n: usize) -> f32 {
    let n = n as f32;
    a * DT * DT * n * (n + 1.0) / 2.0
}

/// The error names `field` and says what is allowed.
#[track_caller]
fn refused(result: Result<(), PhysicsError>, field: &str) {
    match result {
        Err(PhysicsError::Invalid(e)) => {
            assert!(e.names(field), "{e} does not name {field}");
            assert!(e.problems.iter().all(|p| !p.allowed.is_empty()), "{e}: no allowed range");
        }
        other => panic!("{field}: expected Invalid, got {other:?}"),
    }
}

// ----------------------------------------------------------------------------------------
// R-GAME-4: kinematic bodies
// ----------------------------------------------------------------------------------------

/// A kinematic paddle drives at 100 px/s into a stack of two boxes resting on the floor. The
/// paddle follows `x = x0 + v·t` exactly, whatever it pushes: its velocity and its height
/// never change (infinite mass in every contact, no gravity). The stack is pushed ahead of
/// it. Tolerance: the paddle's x is a sum of 360 steps of `v·dt` at |x| < 1024, where an f32
/// rounds by at most 2⁻¹⁵ px per addition: 360·2⁻¹⁵ ≈ 0.011 px, so 0.02 px.
#[test]
fn a_kinematic_paddle_follows_its_path_exactly_while_pushing_a_stack_r_game_4() {
    let mut w = world_with(Vec2::new(1600.0, 600.0), PhysicsConfig::default());
    let bottom = add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(800.0, 580.0)));
    let top = add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(800.0, 540.0)));
    run(&mut w, 60); // the stack settles
    let (bottom_start, top_start) = (pos(&w, bottom).x, pos(&w, top).x);
    let p0 = Vec2::new(600.0, 550.0);
    let v = Vec2::new(100.0, 0.0);
    let paddle =
        add(&mut w, BodyDesc::rect(Vec2::new(30.0, 90.0), p0).kinematic().with_velocity(v));
    assert_eq!(w.body(paddle).unwrap().kind(), BodyKind::Kinematic);
    let mut pushed = false;
    for n in 1..=360 {
        w.step(DT).unwrap();
        let body = w.body(paddle).unwrap();
        assert_eq!(body.velocity(), v, "step {n}: the paddle's velocity changed");
        assert_eq!(body.position().y, p0.y, "step {n}: the paddle fell or was lifted");
        assert_close(body.position().x, p0.x + v.x * DT * n as f32, 0.02, "x = x0 + v·t");
        pushed |= w.contacts().any(|c| c.a == Some(paddle) || c.b == paddle);
    }
    assert!(pushed, "the paddle never touched the stack");
    // After 3 s the paddle's right edge is at 600 + 15 + 300 = 915: the boxes, 20 px
    // half-wide, were pushed until their left edges are there (within the 1 px the
    // projection leaves of an overlap).
    let edge = pos(&w, paddle).x + 15.0;
    for (name, body, start) in [("bottom", bottom, bottom_start), ("top", top, top_start)] {
        let x = pos(&w, body).x;
        assert!(x - 20.0 >= edge - 1.0, "{name} box overlaps the paddle: x {x}, edge {edge}");
        assert!(x - start > 100.0, "{name} box was not pushed: {start} → {x}");
    }
}

/// A kinematic body at rest against a pile lets it fall asleep (it is passive, like a static
/// body); set moving, it wakes the pile it drives into within a step and pushes it.
#[test]
fn a_kinematic_body_wakes_the_sleeping_pile_it_drives_into_r_game_4() {
    let mut w = world_with(Vec2::new(1200.0, 600.0), PhysicsConfig::default());
    // Side by side (touching) and stacked: one island once it has settled.
    let mut pile = Vec::new();
    for row in 0..3 {
        for column in 0..3 {
            let x = 600.0 + 40.0 * column as f32;
            let y = 580.0 - 41.0 * row as f32;
            pile.push(add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(x, y))));
        }
    }
    // Its right edge 1 px short of the pile's left edge (580).
    let pusher =
        add(&mut w, BodyDesc::rect(Vec2::new(24.0, 120.0), Vec2::new(567.0, 530.0)).kinematic());
    let steps = run_until_asleep(&mut w, 1200);
    assert!(steps.is_some(), "the pile never slept next to a kinematic body at rest");
    assert!(pile.iter().all(|&h| w.body(h).unwrap().is_sleeping()));
    assert!(!w.body(pusher).unwrap().is_sleeping(), "a kinematic body never sleeps");
    let before: Vec<Vec2> = pile.iter().map(|&h| pos(&w, h)).collect();

    w.set_velocity(pusher, Vec2::new(120.0, 0.0)).unwrap();
    // 1 px at 1 px per step: the pusher touches the pile in the second step.
    let mut woke_at = None;
    for n in 1..=10 {
        w.step(DT).unwrap();
        if pile.iter().any(|&h| !w.body(h).unwrap().is_sleeping()) {
            woke_at = Some(n);
            break;
        }
    }
    let woke_at = woke_at.expect("the pile slept on while the kinematic body drove into it");
    assert!(woke_at <= 3, "woke only at step {woke_at}");
    assert!(pile.iter().all(|&h| !w.body(h).unwrap().is_sleeping()), "a whole island wakes");
    run(&mut w, 120);
    let moved = pile.iter().zip(&before).filter(|&(&h, start)| pos(&w, h).x > start.x + 50.0);
    assert!(moved.count() >= 3, "the pile was not pushed along");
}

/// A kinematic body feels no gravity and no contact: a heavy steel ball dropped on a
/// kinematic circle neither stops nor turns it. It passes static bodies and walls without a
/// contact (no pair of two immovable bodies is solved) and leaves the world through the wall
/// at its velocity: x = x0 + v·t (0.02 px: the rounding of 240 additions, as above).
#[test]
fn a_kinematic_body_feels_no_gravity_no_impact_and_no_wall_r_game_4() {
    let mut w = world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default());
    let v = Vec2::new(-300.0, 0.0);
    let spin = 2.0;
    let p0 = Vec2::new(400.0, 300.0);
    let k = add(
        &mut w,
        BodyDesc::circle(30.0, p0).kinematic().with_velocity(v).with_angular_velocity(spin),
    );
    // Falling 490·t² while the kinematic body comes 300·t closer: they meet at t ≈ 0.31 s.
    let steel = BodyDesc::circle(25.0, Vec2::new(320.0, 200.0)).with_material(Material::STEEL);
    let ball = add(&mut w, steel);
    let wall_block =
        add(&mut w, BodyDesc::rect(Vec2::new(40.0, 200.0), Vec2::new(150.0, 300.0)).fixed());
    let mut hit = false;
    for n in 1..=240 {
        w.step(DT).unwrap();
        let body = w.body(k).unwrap();
        assert_eq!((body.velocity(), body.angular_velocity()), (v, spin), "step {n}");
        assert_close(body.position().x, p0.x + v.x * DT * n as f32, 0.02, "x = x0 + v·t");
        assert_eq!(body.position().y, p0.y, "step {n}: gravity moved it");
        assert_close(body.angle(), spin * DT * n as f32, 1e-4, "θ = ω·t");
        for c in w.contacts() {
            hit |= c.b == ball && c.a == Some(k) || c.b == k && c.a == Some(ball);
            assert!(c.a != Some(k) || c.b != wall_block, "a kinematic–static contact");
            assert!(c.b != k || c.a.is_some(), "a wall touched the kinematic body");
            assert!(c.b != k || c.a != Some(wall_block), "a static–kinematic contact");
        }
    }
    assert!(hit, "the steel ball never touched the kinematic body");
    let (min, _) = w.bounds();
    assert!(pos(&w, k).x < min.x - 100.0, "the kinematic body was held in the world");
    assert!(w.body(k).unwrap().kinetic_energy() == 0.0, "infinite mass counts in no energy");
}

/// A ball at rest hit by a kinematic paddle moving at u leaves with `u + e·u`: the bounce of
/// a body on an infinite mass, in the paddle's frame `v' − u = −e·(0 − u)` (§7). With e = 1
/// it leaves at 2u and its kinetic energy grows from 0: the paddle does work, which the
/// energy guard (D1) must not take back. Tolerance: 0.5 % (one contact, solved exactly up
/// to the position projection's share).
#[test]
fn a_ball_hit_by_a_moving_kinematic_paddle_leaves_at_u_plus_e_u_r_game_4() {
    for e in [1.0, 0.5] {
        let mut w = world_with(Vec2::new(1600.0, 600.0), no_gravity());
        let bouncy = Material { density: 1.0, friction: 0.0, restitution: e };
        let u = 300.0;
        let paddle = add(
            &mut w,
            BodyDesc::rect(Vec2::new(30.0, 200.0), Vec2::new(400.0, 300.0))
                .with_material(bouncy)
                .kinematic()
                .with_velocity(Vec2::new(u, 0.0)),
        );
        let ball =
            add(&mut w, BodyDesc::circle(20.0, Vec2::new(500.0, 300.0)).with_material(bouncy));
        run(&mut w, 60);
        assert!(pos(&w, ball).x > pos(&w, paddle).x + 35.0, "the ball is behind the paddle");
        assert_relative(vel(&w, ball).x, u + e * u, 5e-3, "v' = u + e·u");
        assert_close(vel(&w, ball).y, 0.0, 1e-3, "a head-on hit");
    }
}

/// Kinematic bodies take velocities (and circles spins) and teleports; what needs a mass is
/// refused with `NotDynamic`, changing nothing.
#[test]
fn a_kinematic_body_refuses_what_needs_a_mass_r_game_4() {
    let mut w = world();
    let k = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)).kinematic());
    w.set_velocity(k, Vec2::new(5.0, 0.0)).unwrap();
    w.set_angular_velocity(k, 1.5).unwrap();
    assert_eq!(w.body(k).unwrap().angular_velocity(), 1.5);
    let hash = w.state_hash();
    for result in [
        w.grab(k),
        w.set_force(k, Vec2::X),
        w.set_torque(k, 1.0),
        w.apply_impulse(k, Vec2::X),
        w.set_gravity_scale(k, 0.0),
    ] {
        assert!(matches!(result, Err(PhysicsError::NotDynamic(h)) if h == k), "{result:?}");
    }
    assert_eq!(w.state_hash(), hash, "a refused call changed the world");
    let huge = w.config().max_speed * 10.0;
    w.set_velocity(k, Vec2::new(huge, 0.0)).unwrap();
    assert_close(vel(&w, k).x, w.config().max_speed, 1e-3, "clamped to max_speed (§12)");
}

// ----------------------------------------------------------------------------------------
// R-GAME-5: forces, torques, impulses, gravity scale
// ----------------------------------------------------------------------------------------

/// A constant force F acting for t = n·dt changes the velocity by `F·t/m` and moves the
/// body by `(F/m)·dt²·n(n+1)/2` (§3). The force stays until the user changes it.
/// Tolerance: sums of 120 f32 terms, 1e-5 relative.
#[test]
fn a_constant_force_gives_delta_v_f_t_over_m_r_game_5() {
    let mut w = world_with(Vec2::new(4000.0, 4000.0), no_gravity());
    let p0 = Vec2::new(2000.0, 2000.0);
    let ball = add(&mut w, BodyDesc::circle(20.0, p0));
    let m = w.body(ball).unwrap().mass();
    let force = Vec2::new(600.0, -300.0) * m; // 600 and −300 px/s²
    w.set_force(ball, force).unwrap();
    let n = 120;
    run(&mut w, n);
    let t = n as f32 * DT;
    let a = force / m;
    assert_relative(vel(&w, ball).x, a.x * t, 1e-5, "Δv.x = F.x·t/m");
    assert_relative(vel(&w, ball).y, a.y * t, 1e-5, "Δv.y = F.y·t/m");
    let moved = pos(&w, ball) - p0;
    assert_relative(moved.x, euler_distance(a.x, n), 1e-4, "x = a·dt²·n(n+1)/2");
    assert_relative(moved.y, euler_distance(a.y, n), 1e-4, "y = a·dt²·n(n+1)/2");
    assert_eq!(w.force(ball).unwrap(), force, "a step does not clear the force");
    // add_force adds; a zero sum ends it.
    w.add_force(ball, -force).unwrap();
    assert_eq!(w.force(ball).unwrap(), Vec2::ZERO);
    let v = vel(&w, ball);
    run(&mut w, 10);
    assert_eq!(vel(&w, ball), v, "no force left, no gravity: the velocity holds");
}

/// A torque τ for t = n·dt spins a circle up by `τ·t/I`, with I = m r²/2 (§2); a rectangle
/// (1/I = 0) never turns. Tolerance: 1e-5 relative (sums of 60 terms).
#[test]
fn a_torque_gives_delta_omega_tau_t_over_i_and_never_turns_a_rectangle_r_game_5() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    let disc = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, 300.0)));
    let block = add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(600.0, 300.0)));
    let m = w.body(disc).unwrap().mass();
    let inertia = 0.5 * m * 20.0 * 20.0;
    assert_relative(w.body(disc).unwrap().inertia(), inertia, 1e-6, "I = m r²/2");
    let tau = 3.0 * inertia; // 3 rad/s²
    w.set_torque(disc, tau).unwrap();
    w.add_torque(block, tau).unwrap();
    let n = 60;
    run(&mut w, n);
    let t = n as f32 * DT;
    assert_relative(w.body(disc).unwrap().angular_velocity(), tau * t / inertia, 1e-5, "Δω");
    assert_eq!(w.body(block).unwrap().angular_velocity(), 0.0, "a rectangle turned");
    assert_eq!(w.body(block).unwrap().angle(), 0.0, "a rectangle turned");
    assert_eq!(w.torque(disc).unwrap(), tau);
}

/// An impulse J at a point r off a circle's centre changes v by `J/m` and ω by
/// `(r × J)/I` at once (r × J = r.x·J.y − r.y·J.x, §1); at the centre it changes v only; a
/// rectangle never spins. Tolerance: one f32 product each, 1e-6 relative.
#[test]
fn an_impulse_off_centre_gives_j_over_m_and_r_cross_j_over_i_r_game_5() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    let centre = Vec2::new(300.0, 300.0);
    let disc = add(&mut w, BodyDesc::circle(20.0, centre));
    let body = w.body(disc).unwrap();
    let (m, inertia) = (body.mass(), body.inertia());
    let j = Vec2::new(-100.0, 400.0) * m / 10.0; // Δv = (−10, 40) px/s
    let r = Vec2::new(20.0, -5.0);
    w.apply_impulse_at(disc, j, centre + r).unwrap();
    let body = w.body(disc).unwrap();
    assert_relative(body.velocity().x, j.x / m, 1e-6, "Δv.x = J.x/m");
    assert_relative(body.velocity().y, j.y / m, 1e-6, "Δv.y = J.y/m");
    let spin = (r.x * j.y - r.y * j.x) / inertia;
    assert!(spin > 0.0, "pushing the right side down turns clockwise on screen");
    assert_relative(body.angular_velocity(), spin, 1e-5, "Δω = (r × J)/I");

    let still = add(&mut w, BodyDesc::circle(20.0, Vec2::new(600.0, 300.0)));
    w.apply_impulse(still, j).unwrap();
    assert_eq!(w.body(still).unwrap().angular_velocity(), 0.0, "at the centre: no spin");
    assert_relative(vel(&w, still).y, j.y / m, 1e-6, "Δv = J/m");

    let block = add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(450.0, 100.0)));
    let block_mass = w.body(block).unwrap().mass();
    w.apply_impulse_at(block, j, Vec2::new(470.0, 80.0)).unwrap();
    assert_eq!(w.body(block).unwrap().angular_velocity(), 0.0, "a rectangle spun");
    assert_relative(vel(&w, block).y, j.y / block_mass, 1e-6, "Δv = J/m");
}

/// Three balls, gravity scales 1, 0 and 2 (one from its description, one by the setter):
/// after n steps they fell s, 0 and 2·s with s = g·dt²·n(n+1)/2 (§3). Tolerance 1e-4
/// relative, as for free fall in `physics_analytic`.
#[test]
fn gravity_scale_zero_floats_and_two_falls_twice_as_fast_r_game_5() {
    let mut w = world_with(Vec2::new(800.0, 5000.0), PhysicsConfig::default());
    let y0 = 100.0;
    let normal = add(&mut w, BodyDesc::circle(20.0, Vec2::new(200.0, y0)));
    let floating =
        add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, y0)).with_gravity_scale(0.0));
    let heavy = add(&mut w, BodyDesc::circle(20.0, Vec2::new(600.0, y0)));
    w.set_gravity_scale(heavy, 2.0).unwrap();
    assert_eq!(w.gravity_scale(floating).unwrap(), 0.0);
    assert_eq!(w.body_desc(heavy).unwrap().gravity_scale, 2.0);
    assert_eq!(w.gravity_scale(normal).unwrap(), 1.0);
    let n = 60;
    run(&mut w, n);
    let s = euler_distance(G, n);
    assert_relative(pos(&w, normal).y - y0, s, 1e-4, "scale 1 falls s");
    assert_eq!(pos(&w, floating).y, y0, "scale 0 floats");
    assert_eq!(vel(&w, floating), Vec2::ZERO, "scale 0 floats");
    assert_relative(pos(&w, heavy).y - y0, 2.0 * s, 1e-4, "scale 2 falls 2·s");
    assert_relative(vel(&w, heavy).y, 2.0 * G * n as f32 * DT, 1e-5, "v = 2·g·t");
}

/// Every way to push a body wakes its island: a ball asleep on the floor wakes for an
/// impulse, a force, a torque and a gravity scale.
#[test]
fn forces_impulses_and_gravity_scales_wake_the_body_r_game_5() {
    type Push = fn(&mut World, BodyHandle) -> Result<(), PhysicsError>;
    let pushes: [(&str, Push); 4] = [
        ("impulse", |w, h| w.apply_impulse(h, Vec2::new(0.0, -1000.0))),
        ("force", |w, h| w.set_force(h, Vec2::new(10.0, 0.0))),
        ("torque", |w, h| w.set_torque(h, 10.0)),
        ("gravity scale", |w, h| w.set_gravity_scale(h, 0.5)),
    ];
    for (name, push) in pushes {
        let mut w = world();
        let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 570.0)));
        run_until_asleep(&mut w, 600).expect("the ball sleeps");
        push(&mut w, ball).unwrap();
        assert!(!w.body(ball).unwrap().is_sleeping(), "{name} left the ball asleep");
    }
}

/// A force, torque and scale stay with their body until the user changes them, and leave
/// with it: a body added later in the freed slot (same index) feels plain gravity.
#[test]
fn forces_leave_with_their_body_r_game_5() {
    let mut w = world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default());
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 100.0)));
    w.set_force(ball, Vec2::new(1.0e6, 0.0)).unwrap();
    w.set_gravity_scale(ball, 0.0).unwrap();
    w.remove_body(ball).unwrap();
    assert!(matches!(w.force(ball), Err(PhysicsError::StaleHandle(_))));
    let next = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 100.0)));
    assert_eq!(next.index(), ball.index(), "the test needs the freed index");
    assert_eq!(w.force(next).unwrap(), Vec2::ZERO);
    assert_eq!(w.gravity_scale(next).unwrap(), 1.0);
    run(&mut w, 30);
    assert_relative(pos(&w, next).y - 100.0, euler_distance(G, 30), 1e-4, "plain free fall");
    assert_eq!(pos(&w, next).x, 400.0, "an old force pushed the new body");
}

/// A force far beyond anything physical is integrated without overflow and clamped to
/// `max_speed` before the solver sees it (§12); the world stays finite.
#[test]
fn a_huge_force_is_clamped_to_the_speed_limit_r_game_5() {
    let mut w = world();
    let ball = add(&mut w, BodyDesc::circle(12.0, Vec2::new(400.0, 300.0)));
    let other = add(&mut w, BodyDesc::rect(Vec2::splat(40.0), Vec2::new(600.0, 300.0)));
    w.set_force(ball, Vec2::new(1.0e30, -1.0e30)).unwrap();
    w.set_torque(ball, 1.0e30).unwrap();
    w.apply_impulse_at(other, Vec2::new(-1.0e30, 0.0), Vec2::new(1.0e30, -3.0e38)).unwrap();
    for _ in 0..240 {
        w.step(DT).unwrap();
        for (_, b) in w.bodies() {
            assert!(b.position().is_finite() && b.velocity().is_finite(), "{b:?}");
            assert!(b.velocity().length() <= w.config().max_speed * (1.0 + 1e-6));
        }
    }
}

/// Hostile values (NaN, ±∞, beyond the limits) for a force, a torque, an impulse, its point
/// and a gravity scale are refused with an error naming the field and its range; the world
/// does not change. Static and kinematic bodies refuse with `NotDynamic`, stale handles with
/// `StaleHandle`.
#[test]
fn hostile_forces_impulses_points_and_scales_are_refused_r_game_5() {
    let mut w = world();
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    let fixed = add(&mut w, BodyDesc::circle(20.0, Vec2::new(100.0, 300.0)).fixed());
    let gone = add(&mut w, BodyDesc::circle(20.0, Vec2::new(700.0, 300.0)));
    w.remove_body(gone).unwrap();
    run(&mut w, 5);
    let hash = w.state_hash();
    let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0e31, -f32::MAX];
    for x in bad {
        let v = Vec2::new(1.0, x);
        refused(w.set_force(ball, v), "force");
        refused(w.add_force(ball, v), "force");
        refused(w.set_torque(ball, x), "torque");
        refused(w.add_torque(ball, x), "torque");
        refused(w.apply_impulse(ball, v), "impulse");
    }
    for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        refused(w.apply_impulse_at(ball, Vec2::X, Vec2::new(x, 0.0)), "point");
    }
    for scale in [f32::NAN, f32::INFINITY, -f32::INFINITY, 100.5, -1.0e3] {
        refused(w.set_gravity_scale(ball, scale), "gravity_scale");
        let desc = BodyDesc::circle(20.0, Vec2::new(500.0, 300.0)).with_gravity_scale(scale);
        match w.add_body(desc) {
            Err(PhysicsError::Invalid(e)) => assert!(e.names("gravity_scale"), "{e}"),
            other => panic!("gravity scale {scale} in a description: {other:?}"),
        }
    }
    // Two valid forces whose sum leaves the range: the second is refused.
    w.set_force(ball, Vec2::new(9.0e29, 0.0)).unwrap();
    let after_first = w.state_hash();
    refused(w.add_force(ball, Vec2::new(9.0e29, 0.0)), "force");
    assert_eq!(w.force(ball).unwrap(), Vec2::new(9.0e29, 0.0));
    assert_eq!(w.state_hash(), after_first, "a refused sum changed the world");
    w.set_force(ball, Vec2::ZERO).unwrap();
    assert_eq!(w.state_hash(), hash, "refused input changed the world");
    for result in [
        w.set_force(fixed, Vec2::X),
        w.add_torque(fixed, 1.0),
        w.apply_impulse_at(fixed, Vec2::X, Vec2::ZERO),
        w.set_gravity_scale(fixed, 2.0),
    ] {
        assert!(matches!(result, Err(PhysicsError::NotDynamic(_))), "{result:?}");
    }
    assert!(matches!(w.set_force(gone, Vec2::X), Err(PhysicsError::StaleHandle(_))));
    assert!(matches!(w.apply_impulse(gone, Vec2::X), Err(PhysicsError::StaleHandle(_))));
    assert_eq!(w.state_hash(), hash, "refused input changed the world");
    run(&mut w, 60);
    assert!(w.bodies().all(|(_, b)| b.position().is_finite()));
}

// ----------------------------------------------------------------------------------------
// R-GAME-7: open worlds
// ----------------------------------------------------------------------------------------

/// In a world without side walls a ball thrown sideways flies past the bounds on its
/// parabola: x = x0 + v·t exactly and y by the free-fall sum (§3), nothing braking it.
/// Tolerances: x sums 120 steps at |x| < 2048 (2⁻¹⁴ px each: 0.01 px), y 1e-4 relative.
#[test]
fn a_body_thrown_out_of_a_world_without_side_walls_keeps_going_r_game_7() {
    let mut w = world_with(Vec2::new(800.0, 2000.0), PhysicsConfig::default());
    w.set_wall_enabled(WallId::Left, false);
    w.set_wall_enabled(WallId::Right, false);
    assert!(!w.wall_enabled(WallId::Right) && w.wall_enabled(WallId::Floor));
    let p0 = Vec2::new(700.0, 100.0);
    let v = Vec2::new(600.0, 0.0);
    let ball = add(&mut w, BodyDesc::circle(20.0, p0).with_velocity(v));
    for n in 1..=120 {
        w.step(DT).unwrap();
        assert_close(pos(&w, ball).x, p0.x + v.x * DT * n as f32, 0.01, "x = x0 + v·t");
        assert_relative(pos(&w, ball).y - p0.y, euler_distance(G, n), 1e-4, "free fall");
        assert_eq!(w.stats().braked, 0, "the brake acted on an open side");
    }
    assert!(pos(&w, ball).x > 1200.0, "the ball did not leave the world");
    assert_eq!(w.contacts().count(), 0, "a switched-off wall made a contact");
}

/// A platformer level: all four walls off, a floor of static blocks. Boxes dropped on it
/// come to rest on it at the analytic height (block top − half height, within the 1 px
/// the projection leaves), and a ball shot upward leaves through the missing ceiling,
/// reaches the peak of semi-implicit Euler, `max over n of n·v·dt − g·dt²·n(n+1)/2` (0.05 px:
/// f32 sums of 110 steps; within 1 % of the continuous `v²/2g`), and lands back on the
/// platform.
/// Bodies may be placed above the old ceiling line only while it is off.
#[test]
fn a_platformer_floor_of_static_bodies_without_walls_holds_its_bodies_r_game_7() {
    let mut w = world_with(Vec2::new(800.0, 600.0), PhysicsConfig::default());
    for wall in WallId::ALL {
        w.set_wall_enabled(wall, false);
    }
    for i in 0..5 {
        let x = 200.0 + 100.0 * i as f32;
        add(&mut w, BodyDesc::rect(Vec2::new(100.0, 40.0), Vec2::new(x, 500.0)).fixed());
    }
    let top = 480.0; // the platform's top edge
    let boxes: Vec<BodyHandle> = (0..3)
        .map(|i| {
            add(
                &mut w,
                BodyDesc::rect(Vec2::splat(40.0), Vec2::new(300.0 + 80.0 * i as f32, 300.0)),
            )
        })
        .collect();
    let launch = 1100.0; // 617 px high: out through the top line at y = 0
    let ball = add(
        &mut w,
        BodyDesc::circle(20.0, Vec2::new(600.0, top - 20.0)).with_velocity(Vec2::new(0.0, -launch)),
    );
    let mut highest = f32::INFINITY;
    for _ in 0..480 {
        w.step(DT).unwrap();
        highest = highest.min(pos(&w, ball).y);
    }
    assert!(highest < 0.0, "the ball never left through the open top: {highest}");
    let rise = |n: f32| n * launch * DT - G * DT * DT * n * (n + 1.0) / 2.0;
    let peak = (1..200).map(|n| rise(n as f32)).fold(f32::MIN, f32::max);
    assert_close(top - 20.0 - highest, peak, 0.05, "the discrete peak");
    assert_relative(peak, launch * launch / (2.0 * G), 0.01, "v²/2g");
    run(&mut w, 240);
    for &h in boxes.iter().chain([&ball]) {
        let half = w.body(h).unwrap().shape().half_size().y;
        assert_close(pos(&w, h).y, top - half, 1.0, "rests on the platform");
    }
    assert!(w.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, -500.0))).is_ok());
    w.set_wall_enabled(WallId::Top, true);
    match w.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, -500.0))) {
        Err(PhysicsError::Invalid(e)) => assert!(e.names("position"), "{e}"),
        other => panic!("placed above an acting ceiling: {other:?}"),
    }
}

/// With the floor switched off, a ball falls through its line at free fall, `v = n·g·dt`,
/// `s = g·dt²·n(n+1)/2` (1e-4 relative), and keeps falling until the speed limit holds it
/// at `max_speed` (§12). A pile asleep on the floor wakes when the floor goes and falls.
#[test]
fn with_the_floor_switched_off_bodies_fall_forever_at_free_fall_r_game_7() {
    let mut w = world();
    let pile: Vec<BodyHandle> = (0..4)
        .map(|i| {
            add(
                &mut w,
                BodyDesc::rect(Vec2::splat(40.0), Vec2::new(200.0 + 41.0 * i as f32, 580.0)),
            )
        })
        .collect();
    run_until_asleep(&mut w, 1200).expect("the pile sleeps on the floor");
    w.set_wall_enabled(WallId::Floor, false);
    assert!(pile.iter().all(|&h| !w.body(h).unwrap().is_sleeping()), "the floor went, they slept");
    let y0 = 400.0;
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(600.0, y0)));
    for n in 1..=90 {
        w.step(DT).unwrap();
        assert_relative(vel(&w, ball).y, G * DT * n as f32, 1e-5, "v = n·g·dt");
        assert_relative(pos(&w, ball).y - y0, euler_distance(G, n), 1e-4, "free fall");
    }
    assert!(pos(&w, ball).y > 600.0 + 20.0, "the ball did not pass the floor line");
    run(&mut w, 600);
    let max_speed = w.config().max_speed;
    assert_close(vel(&w, ball).y, max_speed, 1e-2, "held at max_speed (§12)");
    assert!(pos(&w, ball).y > 5000.0, "the ball stopped falling");
    assert!(pile.iter().all(|&h| pos(&w, h).y > 5000.0), "the pile did not fall through");
}

/// A switched-off wall holds no body back in any way: a body teleported behind its line is
/// not braked or pushed, and a drag target beyond it is not clamped. Switched on again, the
/// wall pushes the bodies behind it back into the world.
#[test]
fn a_switched_off_wall_neither_brakes_nor_clamps_and_pushes_again_when_on_r_game_7() {
    let mut w = world_with(Vec2::new(800.0, 600.0), no_gravity());
    w.set_wall_enabled(WallId::Left, false);
    let ball = add(&mut w, BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)));
    w.set_position(ball, Vec2::new(-5.0, 300.0)).unwrap();
    run(&mut w, 30);
    assert_eq!(pos(&w, ball), Vec2::new(-5.0, 300.0), "something pushed the body");
    assert_eq!(w.contacts().count(), 0);
    w.grab(ball).unwrap();
    w.set_drag_target(ball, Vec2::new(-300.0, 300.0)).unwrap();
    assert_eq!(w.body(ball).unwrap().drag_target(), Some(Vec2::new(-300.0, 300.0)));
    w.set_drag_target(ball, Vec2::new(900.0, 300.0)).unwrap();
    assert_eq!(w.body(ball).unwrap().drag_target(), Some(Vec2::new(780.0, 300.0)), "clamped");
    w.set_drag_target(ball, Vec2::new(-100.0, 300.0)).unwrap();
    run(&mut w, 120);
    w.release(ball, Vec2::ZERO).unwrap();
    assert!(pos(&w, ball).x < -50.0, "the drag was held at the open side");
    w.set_wall_enabled(WallId::Left, true);
    run(&mut w, 240);
    assert!(pos(&w, ball).x >= 20.0 - 1.0, "the wall switched on did not push the body in");
}
