//! Bevy's ambiguity checker finds no pair of our systems with conflicting access and no
//! order, in any schedule the plugin adds systems to.
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::ecs::schedule::{
    InternedScheduleLabel, LogLevel, ScheduleBuildSettings, ScheduleLabel, Schedules,
};
use bevy::prelude::*;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Builds `label`'s schedule with ambiguities as errors; returns the error text, if any.
fn ambiguities(app: &mut App, label: InternedScheduleLabel) -> Option<String> {
    let world = app.world_mut();
    let mut schedule = world.resource_mut::<Schedules>().remove(label)?;
    schedule.set_build_settings(ScheduleBuildSettings {
        ambiguity_detection: LogLevel::Error,
        ..default()
    });
    let error = schedule.initialize(world).err().map(|e| e.to_string(schedule.graph(), world));
    world.resource_mut::<Schedules>().insert(schedule);
    error
}

#[test]
fn no_ambiguities_among_the_plugin_systems() {
    let plugin = SandboxPhysicsPlugin::default().walls_follow_window(true);
    let mut app = app_with(plugin, frame_60());
    for label in [
        First.intern(),
        RunFixedMainLoop.intern(),
        FixedUpdate.intern(),
        PhysicsSchedule.intern(),
        Update.intern(),
        PreUpdate.intern(),
        PostUpdate.intern(),
        PreStartup.intern(),
    ] {
        if let Some(error) = ambiguities(&mut app, label) {
            panic!("{label:?}: {error}");
        }
    }
    // The schedules still run as built.
    frames(&mut app, 3);
    assert_eq!(steps(&app), 6);
}

/// What the probe systems saw in one fixed run: the step count and where the components and
/// the core had the ball.
#[derive(Resource, Default)]
struct Seen {
    /// `FixedUpdate`, before `Prepare`: steps so far.
    before_prepare: Vec<u64>,
    /// `PhysicsSchedule`, after `Step` and before `Writeback`: steps, the component's pose and
    /// the core's position (Bevy frame).
    between: Vec<(u64, Vec2, Vec2)>,
    /// `FixedUpdate`, after `Writeback`: the same.
    after_writeback: Vec<(u64, Vec2, Vec2)>,
}

fn probe(physics: &PhysicsWorld, pose: &PhysicsPose, entity: Entity) -> (u64, Vec2, Vec2) {
    let handle = physics.handle(entity).expect("simulated");
    let core = physics.world().body(handle).expect("body").position();
    (physics.step_count(), pose.current().translation, physics.mapping().position_to_bevy(core))
}

/// The contract of `PhysicsSystems` (see its docs): a `FixedUpdate` system before `Prepare`
/// runs before the step and its velocity write moves the body in that very step; one after
/// `Writeback` sees the step's results in the components; one in `PhysicsSchedule` between
/// `Step` and `Writeback` sees the core stepped and the components not yet written.
#[test]
fn systems_ordered_against_the_sets_run_where_the_docs_say() {
    let mut app = app();
    gravity_off(&mut app);
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    app.init_resource::<Seen>()
        .add_systems(
            FixedUpdate,
            (
                (|physics: Res<PhysicsWorld>,
                  mut seen: ResMut<Seen>,
                  mut velocity: Query<&mut LinearVelocity>| {
                    seen.before_prepare.push(physics.step_count());
                    for mut v in &mut velocity {
                        v.0 = Vec2::new(120.0, 0.0);
                    }
                })
                .before(PhysicsSystems::Prepare),
                (move |physics: Res<PhysicsWorld>,
                       mut seen: ResMut<Seen>,
                       pose: Query<&PhysicsPose>| {
                    let pose = pose.get(ball).expect("pose");
                    seen.after_writeback.push(probe(&physics, pose, ball));
                })
                .after(PhysicsSystems::Writeback),
            ),
        )
        .add_systems(
            PhysicsSchedule,
            (move |physics: Res<PhysicsWorld>,
                   mut seen: ResMut<Seen>,
                   pose: Query<&PhysicsPose>| {
                let pose = pose.get(ball).expect("pose");
                seen.between.push(probe(&physics, pose, ball));
            })
            .after(PhysicsSystems::Step)
            .before(PhysicsSystems::Writeback),
        );
    frames(&mut app, 3);

    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.before_prepare.len(), 6, "two fixed runs per 1/60 s frame");
    assert_eq!(seen.between.len(), 6);
    assert_eq!(seen.after_writeback.len(), 6);
    for run in 0..6 {
        let before = seen.before_prepare[run];
        let (between_steps, between_pose, between_core) = seen.between[run];
        let (after_steps, after_pose, after_core) = seen.after_writeback[run];
        assert_eq!(between_steps, before + 1, "run {run}: the step runs after Prepare");
        assert_eq!(after_steps, before + 1, "run {run}: one step per fixed run");
        // The ball moves at 120 px/s from the first step on (the write before Prepare is
        // applied to it), so every step changes its position.
        assert_ne!(between_pose, between_core, "run {run}: written back before Writeback");
        assert_eq!(after_pose, after_core, "run {run}: not written back by Writeback");
    }
    // 6 steps of 1/120 s at 120 px/s, the first one included: exactly 6 px (gravity off).
    let x = seen.after_writeback[5].2.x;
    assert!((x - 6.0).abs() < 1e-3, "the ball moved to x = {x}, not 6 px");
}
