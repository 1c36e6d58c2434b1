//! Replay and rewind (issue 18, R-SCN-2): a recorded session played back from its start
//! reproduces every step's state hash, and a rewind to any step reachable reproduces that
//! step and resumes from it.

mod common;

use bevy_sandbox_physics::physics::scenes::{self, SceneRng};
use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, Input, InputLog, LoggedInput, PhysicsConfig, Recorder, ReplayError,
    Timeline, WallId, World,
};
use glam::Vec2;

/// A session of `steps` steps on a pile, with inputs of every kind from a seeded script:
/// bodies added and removed, drags (grab, a target per step, release with a throw),
/// config and gravity changes, walls, bounds, velocities and impulses, and pauses (several
/// inputs between two steps). Returns the recorder and the state hash after each step,
/// indexed by step count.
fn session(steps: u64, timeline: Option<Timeline>) -> (Recorder, Vec<u64>) {
    let config = PhysicsConfig::default();
    let mut start = scenes::mixed(200, 4).build(config.clone()).expect("the scene builds");
    for _ in 0..30 {
        start.step(config.time_step).expect("a valid step");
    }
    let mut recorder = match timeline {
        Some(timeline) => Recorder::with_timeline(start, timeline).expect("an empty timeline"),
        None => Recorder::new(start),
    };
    let mut hashes = vec![0; 30];
    hashes.push(recorder.world().state_hash());
    let mut rng = SceneRng::new(8);
    let mut held: Option<BodyHandle> = None;
    let (min, max) = recorder.world().bounds();
    for _ in 0..steps {
        let world = recorder.world();
        let handles: Vec<BodyHandle> = world.handles().collect();
        let some_body = handles[(rng.next_u64() % handles.len() as u64) as usize];
        let inside =
            Vec2::new(rng.range(min.x + 40.0, max.x - 40.0), rng.range(min.y + 40.0, 300.0));
        if let Some(h) = held {
            let input = if rng.unit() < 0.03 {
                held = None;
                Input::Release {
                    body: h,
                    throw_velocity: Vec2::new(rng.range(-900.0, 900.0), -600.0),
                }
            } else {
                Input::SetDragTarget { body: h, target: inside }
            };
            recorder.apply(input).expect("a held body");
        }
        let roll = rng.unit();
        let result = if roll < 0.04 {
            recorder.add_body(BodyDesc::circle(rng.range(12.0, 24.0), inside)).map(drop)
        } else if roll < 0.06 {
            recorder.apply(Input::RemoveBody(some_body)).map(drop)
        } else if roll < 0.08 && held.is_none() {
            held = Some(some_body);
            recorder.apply(Input::Grab(some_body)).map(drop)
        } else if roll < 0.09 {
            let gravity = Vec2::new(rng.range(-300.0, 300.0), rng.range(200.0, 1200.0));
            recorder.apply(Input::SetConfig(PhysicsConfig { gravity, ..config.clone() })).map(drop)
        } else if roll < 0.10 {
            let on = !recorder.world().gravity_enabled();
            recorder.apply(Input::SetGravityEnabled(on)).map(drop)
        } else if roll < 0.11 {
            let grown = max + Vec2::new(rng.range(0.0, 200.0), 0.0);
            recorder.apply(Input::SetBounds { min, max: grown }).map(drop)
        } else if roll < 0.12 {
            let enabled = !recorder.world().wall_enabled(WallId::Top);
            recorder.apply(Input::SetWallEnabled { wall: WallId::Top, enabled }).map(drop)
        } else if roll < 0.15 {
            let velocity = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 0.0));
            recorder.apply(Input::SetVelocity { body: some_body, velocity }).map(drop)
        } else if roll < 0.17 {
            let impulse = Vec2::new(rng.range(-1.0e5, 1.0e5), -1.0e5);
            recorder
                .apply(Input::ApplyImpulseAt { body: some_body, impulse, point: inside })
                .map(drop)
        } else {
            Ok(())
        };
        // A static body refuses velocities and drags; a removed body is gone: both fine.
        if result.is_err() && held == Some(some_body) {
            held = None;
        }
        // Pauses: now and then no step for a few inputs.
        if rng.unit() < 0.9 {
            recorder.step().expect("a valid step");
            hashes.push(recorder.world().state_hash());
        }
    }
    (recorder, hashes)
}

#[test]
fn a_replayed_session_reproduces_every_step_hash_r_scn_2() {
    let (recorder, hashes) = session(700, None);
    let start = recorder.start_world();
    let (end, log) = recorder.finish();
    assert!(log.inputs.len() > 150, "a busy session: {} inputs", log.inputs.len());
    let mut replayed = start;
    let mut seen = Vec::new();
    log.replay(&mut replayed, |w| seen.push((w.step_count(), w.state_hash()))).expect("replays");
    assert!(seen.len() > 600);
    for (step, hash) in seen {
        assert_eq!(hash, hashes[step as usize], "step {step}");
    }
    assert_eq!(replayed.state_hash(), end.state_hash(), "the end, after the last inputs");
}

#[cfg(feature = "serde")]
#[test]
fn a_session_saved_as_scene_and_log_files_replays_bit_for_bit_r_scn_2() {
    use bevy_sandbox_physics::physics::{InputLog, SceneFile};
    let (recorder, hashes) = session(400, None);
    let scene_text = recorder.start_scene().to_ron();
    let (end, log) = recorder.finish();
    let log = InputLog::from_ron(&log.to_ron()).unwrap_or_else(|e| panic!("{e}"));
    let scene = SceneFile::from_ron(&scene_text).unwrap_or_else(|e| panic!("{e}"));
    let mut world = scene.to_world().unwrap_or_else(|e| panic!("{e}"));
    let mut seen = Vec::new();
    log.replay(&mut world, |w| seen.push((w.step_count(), w.state_hash()))).expect("replays");
    for &(step, hash) in &seen {
        assert_eq!(hash, hashes[step as usize], "step {step}");
    }
    assert_eq!(world.state_hash(), end.state_hash());
}

/// A recording whose last action is an input (after its last step) replays exactly, with
/// 10 steps (the end is no check interval) and with 60 (it is one), and the replay checks
/// the end after those inputs: a log with the last input changed is caught at its end step.
/// Not vacuous: `finish` noted the hash after those inputs among the checks, which a replay
/// compares before them, and such a recording failed with `Diverged` at its last step.
#[test]
fn a_recording_that_ends_with_an_input_replays_and_checks_the_state_after_it_r_scn_2() {
    for steps in [10, 60] {
        let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("ok");
        let ball = world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))).expect("in");
        let mut recorder = Recorder::new(world);
        let start = recorder.start_world();
        for _ in 0..steps {
            recorder.step().expect("a valid step");
        }
        let velocity = Vec2::new(100.0, 0.0);
        recorder.apply(Input::SetVelocity { body: ball, velocity }).expect("accepted");
        let (end, log) = recorder.finish();
        assert_eq!(log.end_hash, Some(end.state_hash()), "{steps} steps: the end noted");
        let mut replayed = start.clone();
        log.replay(&mut replayed, |_| {}).unwrap_or_else(|e| panic!("{steps} steps: {e}"));
        assert_eq!(replayed.state_hash(), end.state_hash(), "{steps} steps: the end");
        let mut tampered = log.clone();
        if let Some(LoggedInput { input: Input::SetVelocity { velocity, .. }, .. }) =
            tampered.inputs.last_mut()
        {
            velocity.x += 1.0;
        }
        match tampered.replay(&mut start.clone(), |_| {}) {
            Err(ReplayError::Diverged { step, .. }) => assert_eq!(step, steps, "at its end"),
            other => panic!("{steps} steps: expected a divergence at the end, got {other:?}"),
        }
        // A log written before the end hash was kept has none, and still replays.
        let older = InputLog { end_hash: None, ..log.clone() };
        older.replay(&mut start.clone(), |_| {}).unwrap_or_else(|e| panic!("{steps}: {e}"));
        #[cfg(feature = "serde")]
        {
            let read = InputLog::from_ron(&log.to_ron());
            assert_eq!(read.as_ref().map(|l| l.end_hash), Ok(log.end_hash), "read back");
            let text = older.to_ron();
            assert!(!text.contains("end_hash"), "left out of the file:\n{text}");
            assert_eq!(InputLog::from_ron(&text).as_ref(), Ok(&older));
        }
    }
}

/// A log changed by one drag target no longer matches its recorded hashes: the replay
/// says where it went astray.
#[test]
fn a_tampered_log_is_caught_at_its_next_check_r_scn_2() {
    let (recorder, _) = session(400, None);
    let start = recorder.start_world();
    let (_, mut log) = recorder.finish();
    let (index, first_step) = log
        .inputs
        .iter()
        .enumerate()
        .find_map(|(i, l)| matches!(l.input, Input::SetDragTarget { .. }).then_some((i, l.step)))
        .expect("a drag");
    if let Input::SetDragTarget { target, .. } = &mut log.inputs[index].input {
        target.x += 1.0;
    }
    let mut world = start;
    match log.replay(&mut world, |_| {}) {
        Err(ReplayError::Diverged { step, .. }) => {
            assert!(step > first_step, "caught at the check after step {first_step}: {step}");
        }
        other => panic!("expected a divergence, got {other:?}"),
    }
    let mut wrong_start = World::new(Vec2::splat(500.0), PhysicsConfig::default()).expect("valid");
    assert!(matches!(log.replay(&mut wrong_start, |_| {}), Err(ReplayError::WrongStart { .. })));
}

#[test]
fn a_rewind_reproduces_the_step_and_resumes_from_it_r_scn_2() {
    let timeline = Timeline::covering(10.0, 1.0 / 120.0);
    let (recorder, hashes) = session(1600, Some(timeline));
    let now = recorder.world().step_count();
    let log = recorder.log().clone();
    for target in [now, now - 1, now - 61, now - 599, now - 1199] {
        let mut rewound = recorder.clone();
        rewound.rewind_to(target).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rewound.world().state_hash(), hashes[target as usize], "step {target}");
        // Run the recorded inputs again from there: the same states, step by step.
        for logged in log.inputs.iter().filter(|l| l.step >= target) {
            while rewound.world().step_count() < logged.step {
                rewound.step().expect("a valid step");
                let step = rewound.world().step_count();
                assert_eq!(rewound.world().state_hash(), hashes[step as usize], "step {step}");
            }
            rewound.apply(logged.input.clone()).expect("accepted as before");
        }
        while rewound.world().step_count() < now {
            rewound.step().expect("a valid step");
        }
        assert_eq!(rewound.world().state_hash(), recorder.world().state_hash());
    }
    // 10 s at 120 Hz are reachable, and no more than the timeline holds.
    let oldest = recorder.timeline().and_then(Timeline::oldest_step).expect("snapshots");
    assert!(now - oldest >= 1200, "reaches back {} steps", now - oldest);
    let mut beyond = recorder.clone();
    assert!(matches!(beyond.rewind_to(oldest - 1), Err(ReplayError::OutOfReach { .. })));
    assert!(matches!(beyond.rewind_to(now + 1), Err(ReplayError::OutOfReach { .. })));
}

/// A timeline that holds snapshots already is of another world, or of this one before the
/// recording started without the inputs from there: a recorder refuses it, naming it, rather
/// than rewinding into that world (three bodies turned into one) or before its start.
#[test]
fn a_recorder_refuses_a_timeline_that_holds_snapshots_already_r_scn_2() {
    let config = PhysicsConfig::default();
    let world_of = |bodies: usize| {
        let mut world = World::new(Vec2::splat(500.0), config.clone()).expect("valid");
        for i in 0..bodies {
            let at = Vec2::new(100.0 + 100.0 * i as f32, 100.0);
            world.add_body(BodyDesc::circle(20.0, at)).expect("inside");
        }
        world
    };
    let mut three = Recorder::with_timeline(world_of(3), Timeline::new(10, 20).expect("valid"))
        .expect("an empty timeline");
    for _ in 0..100 {
        three.step().expect("a valid step");
    }
    let foreign = three.timeline().expect("kept").clone();
    assert_eq!(foreign.len(), 11, "steps 0, 10, …, 100");
    let refused = Recorder::with_timeline(world_of(1), foreign.clone());
    let message = refused.expect_err("another world's snapshots").to_string();
    assert!(message.contains("timeline") && message.contains("11 snapshots"), "{message}");
    assert!(message.contains("allowed: 0 snapshots"), "{message}");

    // This world's own snapshots from before the recording: refused as well.
    let mut one = world_of(1);
    let mut earlier = Timeline::new(10, 20).expect("valid");
    for _ in 0..30 {
        one.step(config.time_step).expect("a valid step");
        earlier.observe(&one);
    }
    assert!(Recorder::with_timeline(one.clone(), earlier.clone()).is_err());

    // Emptied, the same timeline is taken, and reaches back to the start and no further.
    earlier.clear();
    let mut recorder = Recorder::with_timeline(one, earlier).expect("an empty timeline");
    for _ in 0..25 {
        recorder.step().expect("a valid step");
    }
    let beyond = recorder.clone().rewind_to(29);
    assert!(matches!(beyond, Err(ReplayError::OutOfReach { oldest: Some(30), .. })), "{beyond:?}");
    recorder.rewind_to(30).expect("the start");
    assert_eq!(recorder.world().body_count(), 1);
    assert_eq!(recorder.world().state_hash(), recorder.start_world().state_hash());
}

#[test]
fn the_timeline_keeps_at_most_its_capacity_and_reports_its_memory_r_scn_2() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let world = scenes::mixed(500, 2).build(config).expect("the scene builds");
    let timeline = Timeline::new(10, 5).expect("valid");
    let mut recorder = Recorder::with_timeline(world, timeline).expect("an empty timeline");
    for _ in 0..200 {
        recorder.step().expect("a valid step");
        assert!(recorder.timeline().is_some_and(|t| t.len() <= 5));
    }
    let timeline = recorder.timeline().expect("kept");
    assert_eq!(timeline.oldest_step(), Some(160), "the newest five: 160, 170, …, 200");
    // Each snapshot holds at least the 500 bodies' slots (120 bytes each), and no more
    // than 1,000 bytes per body.
    let bytes = timeline.memory_bytes();
    assert!((5 * 500 * 120..=5 * 500 * 1000).contains(&bytes), "{bytes} bytes");
    assert!(Timeline::new(0, 5).is_err() && Timeline::new(10, 1).is_err());
}

/// R-SCN-2, the timeline alone (what the plugin's rewind uses): a world restored from a
/// snapshot has the state hash the world had at that step and steps on as it did; a step
/// between two snapshots restores the one before it; a byte budget drops the oldest
/// snapshots and keeps the newest.
#[test]
fn a_timeline_restores_each_snapshot_bit_for_bit_and_keeps_to_a_byte_budget_r_scn_2() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut world = scenes::mixed(200, 3).build(config).expect("the scene builds");
    let mut timeline = Timeline::new(12, 50).expect("valid");
    let mut hashes = vec![world.state_hash()];
    timeline.observe(&world);
    for _ in 0..240 {
        world.step(world.config().time_step).expect("a valid step");
        hashes.push(world.state_hash());
        timeline.observe(&world);
    }
    let steps: Vec<u64> = timeline.steps().collect();
    assert_eq!(steps, (0..=240).step_by(12).collect::<Vec<_>>(), "a snapshot every 12 steps");
    assert_eq!((timeline.oldest_step(), timeline.newest_step()), (Some(0), Some(240)));
    for step in [0_u64, 12, 120, 240] {
        let mut restored = timeline.restore(step).expect("a snapshot at that step");
        assert_eq!(restored.step_count(), step);
        assert_eq!(restored.state_hash(), hashes[step as usize], "restored at step {step}");
        for next in step + 1..(step + 13).min(241) {
            restored.step(restored.config().time_step).expect("a valid step");
            assert_eq!(restored.state_hash(), hashes[next as usize], "step {next} after it");
        }
    }
    let between = timeline.restore(130).expect("the one before it");
    assert_eq!(between.step_count(), 120, "the newest snapshot at or before step 130");

    let all = timeline.memory_bytes();
    let dropped = timeline.forget_oldest_beyond(all / 2);
    assert!(dropped > 0 && timeline.memory_bytes() <= all / 2, "{dropped} dropped");
    assert_eq!(timeline.newest_step(), Some(240), "the newest stays");
    assert_eq!(timeline.oldest_step(), Some(12 * dropped as u64), "the oldest went first");
    timeline.forget_oldest_beyond(0);
    assert_eq!(timeline.steps().collect::<Vec<_>>(), vec![240], "the newest always stays");
}

#[test]
fn a_timeline_capacity_beyond_its_bound_is_refused_naming_field_and_range_r_scn_2() {
    for capacity in [usize::MAX, 1 << 40, Timeline::MAX_CAPACITY + 1] {
        let error = Timeline::new(10, capacity).expect_err("refused").to_string();
        assert!(error.contains("capacity"), "{error}");
        assert!(error.contains(&Timeline::MAX_CAPACITY.to_string()), "{error}");
    }
    // The largest allowed capacity is accepted (room is taken as snapshots come).
    let timeline = Timeline::new(10, Timeline::MAX_CAPACITY).expect("valid");
    assert_eq!(timeline.capacity(), Timeline::MAX_CAPACITY);
}

/// A short recorded session from step 30 to 160 with inputs at steps 30, 40, 50 and 100,
/// and the world it started from.
fn short_log() -> (World, InputLog) {
    let mut world = World::new(Vec2::splat(500.0), PhysicsConfig::default()).expect("valid");
    world.add_body(BodyDesc::circle(20.0, Vec2::new(250.0, 100.0))).expect("inside");
    for _ in 0..30 {
        world.step(world.config().time_step).expect("a valid step");
    }
    let mut recorder = Recorder::new(world);
    for step in 30..160 {
        if [30, 40, 50, 100].contains(&step) {
            recorder.apply(Input::SetGravityEnabled(step != 40)).expect("accepted");
        }
        recorder.step().expect("a valid step");
    }
    let start = recorder.start_world();
    let (_, log) = recorder.finish();
    assert_eq!((log.start_step, log.end_step, log.inputs.len()), (30, 160, 4));
    assert_eq!(log.checks.iter().map(|c| c.0).collect::<Vec<_>>(), [90, 150, 160]);
    let mut honest = start.clone();
    log.replay(&mut honest, |_| {}).expect("the log as recorded replays");
    (start, log)
}

/// Replays `log` on `start` (at most 1,000 steps), expecting it refused as invalid before
/// any step, with a message naming `field` and its allowed range.
#[track_caller]
fn refused_log(start: &World, log: &InputLog, field: &str) -> String {
    let mut world = start.clone();
    let from = world.step_count();
    let result =
        log.replay(&mut world, |w| assert!(w.step_count() < from + 1_000, "stepped on and on"));
    let Err(error @ ReplayError::InvalidLog { .. }) = result else {
        panic!("expected an invalid log, got {result:?}");
    };
    assert_eq!(world.step_count(), from, "refused before any step");
    let message = error.to_string();
    assert!(message.contains(field) && message.contains(" ..= "), "{message}");
    message
}

#[test]
fn a_log_with_its_inputs_reversed_is_refused_r_scn_2() {
    let (start, mut log) = short_log();
    log.inputs.reverse();
    refused_log(&start, &log, "inputs[1].step");
}

#[test]
fn a_log_with_an_input_after_a_later_one_is_refused_r_scn_2() {
    let (start, mut log) = short_log();
    let early = log.inputs[1].clone();
    log.inputs.push(early);
    let message = refused_log(&start, &log, "inputs[4].step");
    assert!(message.contains("100 ..= 160"), "{message}");
}

#[test]
fn a_log_with_an_input_outside_its_steps_is_refused_r_scn_2() {
    let (start, log) = short_log();
    let mut before = log.clone();
    before.inputs[0].step = 10;
    let message = refused_log(&start, &before, "inputs[0].step");
    assert!(message.contains("30 ..= 160"), "{message}");
    let mut after = log;
    after.inputs.push(LoggedInput { step: 161, input: Input::WakeAll });
    refused_log(&start, &after, "inputs[4].step");
}

#[test]
fn a_log_with_its_checks_out_of_order_or_range_is_refused_r_scn_2() {
    let (start, log) = short_log();
    let mut swapped = log.clone();
    swapped.checks.swap(0, 1);
    refused_log(&start, &swapped, "checks[1]");
    let mut twice = log.clone();
    twice.checks.insert(1, twice.checks[0]);
    refused_log(&start, &twice, "checks[1]");
    let mut at_start = log.clone();
    at_start.checks.insert(0, (30, 0));
    let message = refused_log(&start, &at_start, "checks[0]");
    assert!(message.contains("31 ..= 160"), "{message}");
    let mut beyond = log;
    beyond.checks.push((220, 0));
    refused_log(&start, &beyond, "checks[3]");
}

#[test]
fn a_log_whose_end_is_before_its_start_or_too_far_is_refused_r_scn_2() {
    let (start, log) = short_log();
    let mut backwards = log.clone();
    backwards.end_step = 10;
    backwards.inputs.clear();
    backwards.checks.clear();
    refused_log(&start, &backwards, "end_step");
    let mut endless = log;
    endless.end_step = u64::MAX;
    let message = refused_log(&start, &endless, "end_step");
    let last = 30 + InputLog::MAX_STEPS;
    assert!(message.contains(&format!("30 ..= {last}")), "{message}");
}
