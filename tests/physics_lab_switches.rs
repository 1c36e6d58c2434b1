//! R-LAB-1 (issue 17, "the sandbox as a physics lab"): the rule switches of `PhysicsConfig`.
//!
//! Each switch defaults to the spec's rule. For each, a test shows on the switch's
//! demonstration scene (`scenes::lab_demos`) that with the rule off the failure the spec
//! names appears, and with the rule on it does not, with the measured numbers in the
//! assertion messages. Where an analytic value exists the test compares with it and says
//! where the tolerance comes from. The default config steps bit for bit as before (the
//! pinned hashes of `tests/determinism.rs`); here: every switch is on by default, each
//! round-trips through RON, and validation accepts every value.

mod common;

use bevy_sandbox_physics::physics::scenes::{self, LabDemo};
use bevy_sandbox_physics::physics::{
    BodyHandle, ParameterValue, PhysicsConfig, PositionCorrection, World,
};
use common::*;
use glam::Vec2;

/// The demonstration of `switch`.
fn demo(switch: &str) -> LabDemo {
    scenes::lab_demos()
        .into_iter()
        .find(|d| d.switch == switch)
        .unwrap_or_else(|| panic!("no demonstration of {switch}"))
}

/// The demonstration of `switch` built with `config`, and its bodies' handles in scene
/// order.
fn build(switch: &str, config: PhysicsConfig) -> (World, Vec<BodyHandle>) {
    let world = demo(switch).scene.build(config).expect("the demo builds");
    let handles = world.handles().collect();
    (world, handles)
}

/// The largest speed of any body over `steps` steps.
fn fastest_over(world: &mut World, steps: usize) -> f32 {
    let mut fastest = 0.0_f32;
    for _ in 0..steps {
        world.step(DT).expect("step");
        let speed = world.bodies().map(|(_, b)| b.velocity().length()).fold(0.0, f32::max);
        fastest = fastest.max(speed);
    }
    fastest
}

/// The rule switches: the fields of `PhysicsConfig` that turn one of the spec's rules on
/// or off (R-LAB-1).
const SWITCHES: [&str; 9] = [
    "warm_starting",
    "accumulated_clamping",
    "restitution_from_step_start",
    "restitution_threshold_enabled",
    "position_correction",
    "emergency_brake",
    "speed_limit",
    "sleeping_enabled",
    "hand_absorbs_bounces",
];

// ------------------------------------------------------------------------------------------
// The switches as data: defaults, the table, validation, RON
// ------------------------------------------------------------------------------------------

/// Every switch is on by default (the spec's rule), is in the parameter table with a
/// tooltip that says what fails without it, and has a demonstration scene that fits an
/// 800 × 600 world; `with_spec_rules` turns all of them back on and keeps the numbers.
#[test]
fn every_rule_switch_defaults_to_the_spec_and_has_a_table_entry_and_a_demo_r_lab_1() {
    let default = PhysicsConfig::default();
    for switch in SWITCHES {
        let parameter = PhysicsConfig::parameter(switch).expect("a table entry");
        match (parameter.get)(&default) {
            ParameterValue::Switch(on) => assert!(on, "{switch} is off by default"),
            ParameterValue::Choice(index) => {
                assert_eq!(parameter.choices[index as usize], "Projection", "{switch}");
                assert_eq!(parameter.choices.len(), PositionCorrection::ALL.len());
            }
            other => panic!("{switch} is a {other:?}, not a switch"),
        }
        assert!(parameter.help.contains("Off") || parameter.help.contains("Baumgarte"));
        assert!(parameter.help.contains("R-LAB-1"), "{switch}: {}", parameter.help);
        let demo = demo(switch);
        assert!(!demo.name.is_empty() && !demo.watch.is_empty(), "{switch}");
        assert!(demo.scene.size.cmple(Vec2::new(800.0, 600.0)).all(), "{switch} too large");
        let world = demo.scene.build(default.clone()).expect("the demo builds");
        assert_eq!(world.body_count(), demo.scene.bodies.len(), "{switch}");
    }
    assert_eq!(scenes::lab_demos().len(), SWITCHES.len(), "one demonstration per switch");
    assert_eq!(default.position_correction, PositionCorrection::Projection);
    let all_off = PhysicsConfig {
        warm_starting: false,
        accumulated_clamping: false,
        restitution_from_step_start: false,
        restitution_threshold_enabled: false,
        position_correction: PositionCorrection::None,
        emergency_brake: false,
        speed_limit: false,
        sleeping_enabled: false,
        hand_absorbs_bounces: false,
        velocity_iterations: 13,
        ..default.clone()
    };
    let restored = all_off.with_spec_rules();
    assert_eq!(restored, PhysicsConfig { velocity_iterations: 13, ..default }, "numbers kept");
}

/// Validation accepts every value of every switch and of the choice (alone and all at
/// once), and a world takes each as its config; an index beyond the choices cannot be
/// stored.
#[test]
fn validation_accepts_every_value_of_every_switch_r_lab_1() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    for switch in SWITCHES {
        let parameter = PhysicsConfig::parameter(switch).expect("a table entry");
        let values: Vec<ParameterValue> = match (parameter.get)(&PhysicsConfig::default()) {
            ParameterValue::Switch(_) => {
                vec![ParameterValue::Switch(false), ParameterValue::Switch(true)]
            }
            ParameterValue::Choice(_) => {
                (0..parameter.choices.len() as u32).map(ParameterValue::Choice).collect()
            }
            other => panic!("{switch} is a {other:?}"),
        };
        for value in values {
            let mut config = PhysicsConfig::default();
            (parameter.set)(&mut config, value);
            assert_eq!((parameter.get)(&config), value, "{switch} stores {value:?}");
            assert_eq!(config.validate(), Ok(()), "{switch} = {value:?}");
            world.set_config(config).unwrap_or_else(|e| panic!("{switch} = {value:?}: {e}"));
            world.step(DT).expect("step");
        }
        if let ParameterValue::Choice(_) = (parameter.get)(&PhysicsConfig::default()) {
            let mut config = PhysicsConfig::default();
            (parameter.set)(&mut config, ParameterValue::Choice(parameter.choices.len() as u32));
            assert_eq!(config, PhysicsConfig::default(), "an index beyond the choices is stored");
        }
    }
    for correction in PositionCorrection::ALL {
        assert_eq!(PositionCorrection::from_index(correction.index()), Some(correction));
        let all_off = PhysicsConfig {
            warm_starting: false,
            accumulated_clamping: false,
            restitution_from_step_start: false,
            restitution_threshold_enabled: false,
            position_correction: correction,
            emergency_brake: false,
            speed_limit: false,
            sleeping_enabled: false,
            hand_absorbs_bounces: false,
            ..PhysicsConfig::default()
        };
        assert_eq!(all_off.validate(), Ok(()), "{correction:?}");
    }
}

/// RON: each switch and each choice reads back as written, a preset written before the
/// switches existed (no switch named) loads with every rule on, and the shipped
/// `assets/presets/default.ron` is the default config.
#[cfg(feature = "serde")]
#[test]
fn each_switch_round_trips_through_ron_and_old_presets_load_r_lab_1() {
    let read = |text: &str| -> PhysicsConfig {
        ron::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    };
    for switch in SWITCHES {
        let parameter = PhysicsConfig::parameter(switch).expect("a table entry");
        let values: Vec<ParameterValue> = match (parameter.get)(&PhysicsConfig::default()) {
            ParameterValue::Switch(_) => vec![ParameterValue::Switch(false)],
            ParameterValue::Choice(_) => {
                (0..parameter.choices.len() as u32).map(ParameterValue::Choice).collect()
            }
            other => panic!("{switch} is a {other:?}"),
        };
        for value in values {
            let mut config = PhysicsConfig::default();
            (parameter.set)(&mut config, value);
            let text = ron::to_string(&config).expect("serialises");
            assert_eq!(read(&text), config, "{switch} = {value:?} through {text}");
        }
    }
    // Written by hand, as a preset names them.
    let baumgarte = read("(position_correction: Baumgarte, speed_limit: false)");
    assert_eq!(baumgarte.position_correction, PositionCorrection::Baumgarte);
    assert!(!baumgarte.speed_limit && baumgarte.warm_starting);
    // A preset from before the switches: every rule on.
    let old = read("(gravity: (0.0, 980.0), velocity_iterations: 8, sleeping_enabled: true)");
    assert_eq!(old, PhysicsConfig::default());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/presets/default.ron");
    let shipped = std::fs::read_to_string(&path).expect("default.ron");
    assert_eq!(read(&shipped), PhysicsConfig::default(), "default.ron is the default");
}

// ------------------------------------------------------------------------------------------
// What fails without each rule
// ------------------------------------------------------------------------------------------

/// §6 warm starting. A tower of 16 boxes of 30 px: with last step's impulses as the start,
/// 8 passes carry it and the top box ends within the contacts' slop of where it started
/// (16 contacts × `penetration_slop` 0.5 px = 8 px, less the 0.25 px start gaps); each
/// step from zero impulses, 8 Gauss-Seidel passes carry only the bottom few boxes' weight
/// and the tower sinks into itself.
#[test]
fn without_warm_starting_a_tall_tower_sinks_into_itself_r_lab_1() {
    let drop = |warm_starting: bool| {
        let config = PhysicsConfig { warm_starting, sleeping_enabled: false, ..Default::default() };
        let (mut world, handles) = build("warm_starting", config);
        let top = *handles.last().expect("a tower");
        let start = pos(&world, top).y;
        run(&mut world, 360);
        (pos(&world, top).y - start, deepest_pair(&world))
    };
    let (on, on_overlap) = drop(true);
    let (off, off_overlap) = drop(false);
    assert!(on <= 16.0 * 0.5, "with warm starting the top box sank {on} px (> 8 px of slop)");
    assert!(on_overlap <= 0.5 + 0.05, "with warm starting the deepest overlap is {on_overlap}");
    assert!(
        off > 100.0 && off_overlap > 10.0,
        "without warm starting the top box sank only {off} px (deepest overlap {off_overlap} px)"
    );
}

/// §6 accumulated clamping. A box of restitution 0 dropped 460 px onto the floor must stay
/// down: e = 0 means a rebound height of e²·h = 0. With each pass clamping only its own
/// increment, the impact impulse that the warm start applies again in the next step can no
/// longer be taken back (no pass may lower `P_n`), so the box is thrown back up at its
/// impact speed, to its drop height: restitution 1 from a material of restitution 0.
#[test]
fn without_accumulated_clamping_an_inelastic_box_jumps_back_to_its_drop_height_r_lab_1() {
    let rebound = |accumulated_clamping: bool| {
        let config = PhysicsConfig { accumulated_clamping, ..PhysicsConfig::default() };
        let (mut world, handles) = build("accumulated_clamping", config);
        let start = pos(&world, handles[0]).y;
        let floor = 600.0 - 20.0; // the box's centre resting on the floor
        let mut landed = false;
        let mut highest = f32::MAX;
        for _ in 0..240 {
            world.step(DT).expect("step");
            landed |= world.stats().wall_contacts > 0;
            if landed {
                highest = highest.min(pos(&world, handles[0]).y);
            }
        }
        assert!(landed, "the box never landed");
        (floor - highest, floor - start)
    };
    let (on, drop) = rebound(true);
    let (off, _) = rebound(false);
    // On: no rebound, within the slop the projection leaves (0.5 px).
    assert!(on <= 0.5, "with accumulated clamping the box rose {on} px after landing");
    // Off: back to the drop height, within the g·dt of speed the discrete landing costs
    // (about v·dt ≈ 8 px of height at 950 px/s).
    assert!(
        off > drop - 10.0,
        "without accumulated clamping the e = 0 box rose only {off} px of its {drop} px drop"
    );
}

/// §7 restitution from the step start. An e = 1 ball dropped 300 px: with `v_n` taken
/// before gravity it returns to its drop height every bounce (within 2 %, the
/// discretisation of `a_perfectly_elastic_ball_never_bounces_higher_r_res_5`); taken after
/// gravity it leaves each impact with `v + g·dt` instead of `v` and gains
/// `((v + g·dt)² − v²)/(2g) = v·dt + ½·g·dt²` of height per bounce, with
/// `v = √(2·g·h)`: 6.43 px at 300 px. The tolerance, 0.2 px, is the impact speed's
/// uncertainty of one step of gravity (g·dt² ≈ 0.07 px of height) plus the apex sampled
/// at a step (½·g·dt² ≈ 0.03 px), doubled.
#[test]
fn restitution_after_gravity_lets_an_elastic_ball_gain_height_every_bounce_r_lab_1() {
    let apexes = |restitution_from_step_start: bool| {
        let config = PhysicsConfig { restitution_from_step_start, ..PhysicsConfig::default() };
        let (mut world, handles) = build("restitution_from_step_start", config);
        let ball = handles[0];
        let (radius, floor) = (20.0, 600.0);
        let mut apexes = Vec::new();
        let mut previous = 0.0;
        for step in 0.. {
            if apexes.len() == 5 {
                break;
            }
            assert!(step < 5 * 240, "five bounces in 10 s: {apexes:?}");
            world.step(DT).expect("step");
            let vy = vel(&world, ball).y;
            if previous < 0.0 && vy >= 0.0 {
                apexes.push(floor - radius - pos(&world, ball).y);
            }
            previous = vy;
        }
        apexes
    };
    let drop = 300.0;
    for (i, apex) in apexes(true).iter().enumerate() {
        assert_relative(*apex, drop, 0.02, &format!("rule on: bounce {i} returns to {drop} px"));
    }
    let off = apexes(false);
    let g_dt = 980.0 * DT;
    let v = (2.0 * 980.0 * drop).sqrt();
    let gain = v * DT + 0.5 * g_dt * DT;
    assert_close(off[0] - drop, gain, 0.2, &format!("rule off: first bounce gain, apexes {off:?}"));
    for pair in off.windows(2) {
        assert!(pair[1] > pair[0] + 5.0, "rule off: every bounce higher than the last: {off:?}");
    }
}

/// §7 the restitution threshold. A stack of bouncy boxes (e = 0.9), light and heavy in turn
/// (mass ratio 100): eight passes leave small approach speeds at such a ratio every step.
/// Below the threshold (50 px/s) they are not bounced and the stack rests: every body
/// stays below `sleep_linear_speed` (4 px/s, §11's definition of rest) and it falls
/// asleep. Without the threshold each residue is bounced back at e times its speed, the
/// bounces feed each other, and the resting stack jitters (at 45–190 px/s in each of its
/// first 10 s, measured; it calms down after some 20 s). Sleep no longer shows the
/// difference: the jitter swings each box by well under 2 px, so since deviation D8
/// (docs/physics.md: rest is the mean speed since it began) the jittering stack falls
/// asleep too (after 3.7 s, measured), its jitter frozen; the speeds with sleeping off do.
#[test]
fn without_the_restitution_threshold_a_resting_bouncy_stack_jitters_r_lab_1() {
    let jitter = |restitution_threshold_enabled: bool| {
        let config = PhysicsConfig {
            restitution_threshold_enabled,
            sleeping_enabled: false,
            ..PhysicsConfig::default()
        };
        let (mut world, _) = build("restitution_threshold_enabled", config.clone());
        run(&mut world, 360);
        let fastest = fastest_over(&mut world, 600); // from 3 s to 8 s
        let (mut sleeper, _) = build(
            "restitution_threshold_enabled",
            PhysicsConfig { sleeping_enabled: true, ..config },
        );
        (fastest, run_until_asleep(&mut sleeper, 600))
    };
    let (on, on_asleep) = jitter(true);
    let (off, _) = jitter(false);
    assert!(on <= 4.0, "with the threshold the stack moved at {on} px/s after 3 s");
    assert!(on_asleep.is_some(), "with the threshold the stack did not sleep within 5 s");
    assert!(off > 50.0, "without the threshold the stack moved only at {off} px/s after 3 s");
}

/// §10 projection against Baumgarte and nothing, on a box set 20 px deep into a static
/// block (gravity off). Projection moves positions and adds no velocity: the box leaves the
/// overlap at 0 px/s and rests at the slop (0.5 px). Baumgarte's bias
/// `β/dt·(depth − slop) = 0.4 · 120/s · (20 − 0.5) px = 936 px/s` (exact: one contact with
/// an immovable partner, e = 0) outlives the overlap and flings the box away at that speed.
/// With no correction the 20 px stay.
#[test]
fn baumgarte_flings_an_overlapped_box_at_936_px_s_where_projection_adds_nothing_r_lab_1() {
    let run_with = |position_correction| {
        let config = PhysicsConfig { position_correction, ..PhysicsConfig::default() };
        let mut world = world_with(Vec2::new(800.0, 600.0), config);
        world.set_gravity_enabled(false);
        add(
            &mut world,
            bevy_sandbox_physics::physics::BodyDesc::rect(
                Vec2::splat(60.0),
                Vec2::new(400.0, 300.0),
            )
            .fixed(),
        );
        // The block's top is at y = 270: the 40 px box's bottom 20 px below it.
        let b = bevy_sandbox_physics::physics::BodyDesc::rect(
            Vec2::splat(40.0),
            Vec2::new(400.0, 270.0),
        );
        let boxed = add(&mut world, b);
        let fastest = fastest_over(&mut world, 60);
        let depth = deepest_pair(&world);
        (fastest, depth, vel(&world, boxed).length())
    };
    let (projection_speed, projection_depth, _) = run_with(PositionCorrection::Projection);
    let (baumgarte_speed, _, _) = run_with(PositionCorrection::Baumgarte);
    let (none_speed, none_depth, _) = run_with(PositionCorrection::None);
    assert_eq!(projection_speed, 0.0, "projection gave the box a velocity");
    assert_close(projection_depth, 0.5, 0.01, "projection leaves the slop");
    assert_close(baumgarte_speed, 0.4 * 120.0 * 19.5, 0.5, "Baumgarte's fling speed, px/s");
    assert_eq!(none_speed, 0.0, "no correction gave the box a velocity");
    assert_close(none_depth, 20.0, 1e-3, "no correction leaves the overlap");
}

/// §10 on the demonstration: a box set 15 px deep into a pyramid. Projection pushes it out
/// gently; Baumgarte flings bodies at hundreds of px/s; with no correction the overlap
/// stays. Measured: projection under 100 px/s (the box falls back into place), Baumgarte
/// above 300 px/s.
#[test]
fn a_box_set_into_a_pile_is_flung_out_by_baumgarte_and_stays_without_correction_r_lab_1() {
    let outcome = |position_correction| {
        let config = PhysicsConfig { position_correction, ..PhysicsConfig::default() };
        let (mut world, _) = build("position_correction", config);
        let fastest = fastest_over(&mut world, 240);
        (fastest, deepest_pair(&world))
    };
    let (projection, projection_depth) = outcome(PositionCorrection::Projection);
    let (baumgarte, _) = outcome(PositionCorrection::Baumgarte);
    let (_, none_depth) = outcome(PositionCorrection::None);
    assert!(projection < 100.0, "projection moved bodies at {projection} px/s");
    // Slop + 1 px: the project's measure of an overlap left behind (docs/physics.md, D1).
    assert!(projection_depth <= 1.5, "projection left {projection_depth} px of overlap");
    assert!(baumgarte > 300.0, "Baumgarte moved bodies at only {baumgarte} px/s");
    assert!(none_depth > 5.0, "without correction the overlap shrank to {none_depth} px");
}

/// §10 the emergency brake. A held steel box driven into a row of six wooden boxes against
/// the right wall: the drag controller and eight passes squeeze the row far deeper into the
/// wall than any free impact could reach. The brake holds every body at
/// `max_wall_penetration` (12 px); without it the last box sinks much deeper.
#[test]
fn without_the_emergency_brake_a_held_box_squeezes_a_row_deep_into_the_wall_r_lab_1() {
    let deepest = |emergency_brake: bool| {
        let config = PhysicsConfig { emergency_brake, ..PhysicsConfig::default() };
        let (mut world, handles) = build("emergency_brake", config);
        let steel = *handles.last().expect("the steel box");
        run(&mut world, 30);
        world.grab(steel).expect("grab");
        let mut deepest = 0.0_f32;
        for _ in 0..240 {
            world.set_drag_target(steel, Vec2::new(800.0, 550.0)).expect("drag");
            world.step(DT).expect("step");
            deepest = deepest.max(deepest_in_wall(&world));
        }
        deepest
    };
    let on = deepest(true);
    let off = deepest(false);
    assert!(on <= 12.0 + 1e-3, "with the brake a body ended {on} px in the wall (> 12 px)");
    assert!(off > 20.0, "without the brake the deepest body was only {off} px in the wall");
}

/// §12 the speed limit. A ball of the smallest radius (12 px) shot at 5000 px/s at a static
/// plank 24 px thick, from 12 start heights spread over one step's travel. The narrow
/// phase pushes the ball out through the plank's nearer side, so it passes when its first
/// overlapping position lies past the plank's middle line. At the limit (1296 px/s,
/// 10.8 px per step) the first overlap is at most 10.8 px deep, never past the middle
/// (12 px): none passes. At 5000 px/s (41.7 px per step) the first overlap falls anywhere
/// in a 41.7 px window of which 17.7 px lie past the middle: about 42 % pass.
#[test]
fn without_the_speed_limit_a_small_fast_ball_passes_through_a_thin_plank_r_lab_1() {
    let passes = |speed_limit: bool| {
        let config = PhysicsConfig { speed_limit, ..PhysicsConfig::default() };
        let step_travel = 5000.0 * DT;
        (0..12)
            .filter(|&k| {
                let mut world = world_with(Vec2::new(800.0, 600.0), config.clone());
                world.set_gravity_enabled(false);
                let mut scene = demo("speed_limit").scene;
                scene.bodies[1].position.y = 100.0 + k as f32 * step_travel / 12.0;
                for body in scene.bodies {
                    add(&mut world, body);
                }
                let ball = world.handles().last().expect("the ball");
                run(&mut world, 15);
                pos(&world, ball).y > 400.0
            })
            .count()
    };
    let on = passes(true);
    let off = passes(false);
    assert_eq!(on, 0, "with the speed limit {on} of 12 balls passed the plank");
    // 42 % of 12 is 5; at least 3 leaves room for where the 12 start heights fall.
    assert!(off >= 3, "without the speed limit only {off} of 12 balls passed (expected ~5)");
    // The demonstration's own start height is one that passes.
    let (mut world, handles) =
        build("speed_limit", PhysicsConfig { speed_limit: false, ..Default::default() });
    run(&mut world, 30);
    assert!(pos(&world, handles[1]).y > 400.0, "the demo's ball did not pass the plank");
    let (mut world, handles) = build("speed_limit", PhysicsConfig::default());
    run(&mut world, 30);
    assert!(pos(&world, handles[1]).y < 400.0, "the demo's ball passed with the limit on");
}

/// §11 sleeping. A pile of 150 bodies of every material in a bin, from 10 s to 20 s:
/// asleep, every body exactly at rest. Without sleeping, the finite passes (and the
/// projection at mass ratios up to 13 : 1) leave a residue and the pile creeps; all bodies
/// stay awake and every contact is solved every step. The creep is real but small in this
/// solver: measured 0.38 px in 10 s at below 0.01 px/s, so what the spec calls visible
/// breathing shows here as numbers (and as the work saved).
#[test]
fn without_sleeping_a_resting_pile_creeps_and_stays_awake_r_lab_1() {
    let residue = |sleeping_enabled: bool| {
        let config = PhysicsConfig { sleeping_enabled, ..PhysicsConfig::default() };
        let (mut world, _) = build("sleeping_enabled", config);
        run(&mut world, 1200);
        let start: Vec<Vec2> = world.bodies().map(|(_, b)| b.position()).collect();
        run(&mut world, 1200);
        let creep = world
            .bodies()
            .zip(&start)
            .map(|((_, b), s)| (b.position() - *s).length())
            .fold(0.0, f32::max);
        (creep, world.stats().awake, world.stats().body_contacts)
    };
    let (on_creep, on_awake, on_contacts) = residue(true);
    let (off_creep, off_awake, off_contacts) = residue(false);
    assert_eq!((on_creep, on_awake, on_contacts), (0.0, 0, 0), "the sleeping pile moved");
    assert!(
        off_creep > 0.1 && off_awake == 150 && off_contacts > 100,
        "without sleeping: creep {off_creep} px in 10 s, {off_awake} bodies awake, \
         {off_contacts} contacts solved per step"
    );
}

/// §7, §13 the hand absorbs bounces. A rubber ball (e = 0.8) dragged into a static steel
/// block and held there. The drag velocity `(target − x)·rate` = 50 px · 60/s = 3000 px/s
/// is clamped to `max_speed`; with the hand absorbing, the contact stops it and it rests
/// against the block (no motion at all). Bouncing, it is sent back, pulled in again the
/// next step and shakes: back and forth every step by `max_speed·dt` = 10.8 px (the bounce
/// `e·v` exceeds the speed limit too).
#[test]
fn without_the_hand_absorbing_a_pressed_bouncy_ball_shakes_every_step_r_lab_1() {
    let shaking = |hand_absorbs_bounces: bool| {
        let config = PhysicsConfig { hand_absorbs_bounces, ..PhysicsConfig::default() };
        let (mut world, handles) = build("hand_absorbs_bounces", config);
        let (block, ball) = (handles[0], handles[1]);
        let target = pos(&world, block);
        run(&mut world, 60);
        world.grab(ball).expect("grab");
        let (mut low, mut high, mut reversals, mut previous) = (f32::MAX, f32::MIN, 0, 0.0);
        for step in 0..240 {
            world.set_drag_target(ball, target).expect("drag");
            world.step(DT).expect("step");
            let (x, vx) = (pos(&world, ball).x, vel(&world, ball).x);
            if step >= 120 {
                (low, high) = (low.min(x), high.max(x));
                reversals += usize::from((vx > 0.0) != (previous > 0.0));
            }
            previous = vx;
        }
        (high - low, reversals)
    };
    let (on, on_reversals) = shaking(true);
    let (off, off_reversals) = shaking(false);
    assert_eq!((on, on_reversals), (0.0, 0), "the held ball moved while pressed");
    assert_close(off, 1296.0 * DT, 0.01, "rule off: the ball shakes by max_speed·dt");
    assert!(off_reversals >= 110, "rule off: only {off_reversals} reversals in 120 steps");
}
