//! A `PhysicsWorld` taken out of the app and put back (R-PLUG-1, R-PLUG-3): a stale world,
//! put back after the plugin had built another in its place, is rebuilt from the entities;
//! changes made while it or no world was in the app reach the world in force; the last
//! valid settings survive a rebuild; and each refusal is said once.
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_sandbox_physics::physics::{BodyKind, SceneFile, Shape, WallId};
use bevy_sandbox_physics::plugin::LoadPhysicsScene;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

fn controls(app: &mut App) -> Mut<'_, PhysicsControls> {
    app.world_mut().resource_mut::<PhysicsControls>()
}

fn config(app: &mut App) -> Mut<'_, PhysicsConfig> {
    app.world_mut().resource_mut::<PhysicsConfig>()
}

/// A ball of radius 20 px at (x, 0).
fn ball(x: f32) -> (Collider, Transform) {
    (Collider::circle(20.0), Transform::from_xyz(x, 0.0, 0.0))
}

/// The warnings of one frame.
fn frame_warnings(app: &mut App) -> Vec<PhysicsWarning> {
    app.update();
    take_warnings(app)
}

/// How many of `warnings` say that `entity` was refused for its parent.
fn parent_refusals(warnings: &[PhysicsWarning], entity: Entity) -> usize {
    let about = |w: &&PhysicsWarning| w.entity == Some(entity) && w.message.contains("ChildOf");
    warnings.iter().filter(about).count()
}

/// A `PhysicsWorld` taken out and kept past a frame is replaced by one the plugin builds; put
/// back after that, it had missed everything in between: its map named a ball despawned
/// meanwhile, whose body stayed in its core for good, an invisible body still colliding; it
/// did not know a ball spawned meanwhile; the bodies it kept had their old colliders, kinds
/// and places; the settings were its own. A stale world is rebuilt from the entities and the
/// settings in force, as a removed one is, with one warning; until then it names no entity.
#[test]
fn a_physics_world_put_back_after_a_rebuild_is_rebuilt_from_the_entities_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let [despawned, changed, moved] = [-100.0, 100.0, 200.0].map(|x| spawn(&mut app, ball(x)));
    frames(&mut app, 2);
    let old = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    app.update();
    assert_eq!(physics(&app).len(), 3, "rebuilt with all three");
    // Meanwhile: a despawn, a spawn, a new collider and kind, a teleport, new settings.
    app.world_mut().despawn(despawned);
    let spawned = spawn(&mut app, ball(300.0));
    app.world_mut().entity_mut(changed).insert((Collider::circle(60.0), RigidBody::Static));
    app.world_mut().get_mut::<Transform>(moved).expect("a body").translation.y = 150.0;
    config(&mut app).gravity = Vec2::new(0.0, 123.0);
    let walls = Rect::new(-400.0, -300.0, 400.0, 300.0);
    app.world_mut().resource_mut::<PhysicsBounds>().0 = walls;
    app.world_mut().resource_mut::<PhysicsWalls>().set(WallId::Floor, false);
    frames(&mut app, 2);
    take_warnings(&mut app);

    app.world_mut().insert_resource(old);
    for body in [despawned, changed, moved] {
        assert_eq!(physics(&app).handle(body), None, "{body} named by a stale world");
    }
    let warnings = frame_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "one warning: {warnings:?}");
    assert!(warnings[0].message.starts_with("PhysicsWorld was put back"), "{warnings:?}");
    let physics = physics(&app);
    assert_eq!(physics.handle(despawned), None);
    assert_eq!((physics.len(), physics.world().body_count()), (3, 3), "one body per entity");
    let body = |entity| physics.world().body(physics.handle(entity).expect("simulated"));
    let changed = body(changed).expect("a body");
    assert_eq!(changed.shape(), Shape::Circle { radius: 60.0 }, "the collider in force");
    assert_eq!(changed.kind(), BodyKind::Static, "the kind in force");
    let moved = body(moved).expect("a body");
    let at = physics.mapping().position_to_bevy(moved.position());
    assert!((at - Vec2::new(200.0, 150.0)).length() < 1e-3, "the teleport in force: {at}");
    assert!(body(spawned).is_some());
    assert_eq!(physics.world().config(), app.world().resource::<PhysicsConfig>());
    let (min, max) = physics.world().bounds();
    assert_eq!(physics.mapping().rect_to_bevy(min, max), walls, "the walls in force");
    assert!(!physics.world().wall_enabled(WallId::Floor), "the floor switched off");
}

/// A child given its parent while no `PhysicsWorld` was in the app is refused when one comes
/// back. When that was a stale world put back, the catch-up of an earlier version unlinked
/// the child in silence: no warning, and it was not simulated again once its parent went.
/// Also when the warnings' queue is out of the app (a scope of it) as the world comes back.
#[test]
fn a_child_given_a_parent_before_a_stale_world_came_back_is_refused_once_r_plug_1() {
    for in_warning_scope in [false, true] {
        let mut app = app();
        controls(&mut app).gravity_enabled = false;
        let parent = spawn(&mut app, Transform::default());
        let child = spawn(&mut app, ball(0.0));
        frames(&mut app, 2);
        let old = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
        frames(&mut app, 2);
        drop(app.world_mut().remove_resource::<PhysicsWorld>());
        let give_parent_and_put_back = move |world: &mut World| {
            world.entity_mut(child).insert(ChildOf(parent));
            world.insert_resource(old);
        };
        if in_warning_scope {
            app.world_mut().resource_scope(|world, _: Mut<Messages<PhysicsWarning>>| {
                give_parent_and_put_back(world);
            });
        } else {
            give_parent_and_put_back(app.world_mut());
        }
        take_warnings(&mut app);
        let mut warnings = frame_warnings(&mut app);
        warnings.extend(frame_warnings(&mut app));
        assert_eq!(parent_refusals(&warnings, child), 1, "said once: {warnings:?}");
        assert_eq!(physics(&app).handle(child), None, "a child is not simulated");
        app.world_mut().entity_mut(child).remove::<ChildOf>();
        frames(&mut app, 2);
        assert!(physics(&app).handle(child).is_some(), "simulated again without its parent");
    }
}

/// A `PhysicsWorld` put back by assignment through `ResMut` fires no insert observer; a stale
/// one kept its despawned ball's body in its core for good. It is rebuilt in the next frame.
#[test]
fn a_stale_physics_world_assigned_through_res_mut_is_rebuilt_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let [gone, kept] = [-100.0, 100.0].map(|x| spawn(&mut app, ball(x)));
    frames(&mut app, 2);
    let old = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    frames(&mut app, 2);
    app.world_mut().despawn(gone);
    take_warnings(&mut app);
    *app.world_mut().resource_mut::<PhysicsWorld>() = old;
    let warnings = frame_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "one warning: {warnings:?}");
    let physics = physics(&app);
    assert_eq!(physics.handle(gone), None);
    assert!(physics.handle(kept).is_some());
    assert_eq!(physics.world().body_count(), 1, "no body without an entity in the core");
}

/// A child is refused once. A body entity enabled again and given a parent in the same frame
/// as the `PhysicsWorld` was removed was warned about twice: by the rebuild, which refuses
/// the children it finds, and again in the first step, for its collider marked changed.
#[test]
fn a_child_found_by_a_rebuild_is_warned_about_once_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let parent = spawn(&mut app, Transform::default());
    let child = spawn(&mut app, ball(100.0));
    frames(&mut app, 2);
    app.world_mut().entity_mut(child).insert(Disabled);
    frames(&mut app, 2);
    take_warnings(&mut app);
    app.world_mut().entity_mut(child).remove::<Disabled>();
    app.world_mut().entity_mut(child).insert(ChildOf(parent));
    drop(app.world_mut().remove_resource::<PhysicsWorld>());
    let mut warnings = Vec::new();
    for _ in 0..3 {
        warnings.extend(frame_warnings(&mut app));
    }
    assert_eq!(parent_refusals(&warnings, child), 1, "said once: {warnings:?}");
}

/// The world in force, taken out while a stale one is in the app, missed what happened
/// then: a despawn, a parent and a `Disabled` went to the stale world only, and the world in
/// force, put back, still named the despawned ball (its body in the core for good), kept
/// the child simulated without a warning, and the disabled ball too. While a stale world is
/// in the app, the hook and the observers note what they see for the world in force.
#[test]
fn changes_made_while_a_stale_world_was_in_reach_the_world_in_force_r_plug_3() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let parent = spawn(&mut app, Transform::default());
    let [gone, child, disabled, kept] =
        [-200.0, -100.0, 100.0, 200.0].map(|x| spawn(&mut app, ball(x)));
    frames(&mut app, 2);
    let stale = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    frames(&mut app, 2);
    take_warnings(&mut app);
    let world = app.world_mut();
    let in_force = world.remove_resource::<PhysicsWorld>().expect("the rebuilt world");
    world.insert_resource(stale);
    world.despawn(gone);
    world.entity_mut(child).insert(ChildOf(parent));
    world.entity_mut(disabled).insert(Disabled);
    drop(world.remove_resource::<PhysicsWorld>());
    world.insert_resource(in_force);
    for entity in [gone, child, disabled] {
        assert_eq!(physics(&app).handle(entity), None, "{entity} still named");
    }
    let mut warnings = frame_warnings(&mut app);
    warnings.extend(frame_warnings(&mut app));
    assert_eq!(parent_refusals(&warnings, child), 1, "the child refused once: {warnings:?}");
    let physics = physics(&app);
    assert!(physics.handle(kept).is_some());
    assert_eq!((physics.len(), physics.world().body_count()), (1, 1), "one body per entity");
}

/// A child that lost its `PhysicsPose` too while no `PhysicsWorld` was in the app was passed
/// by: no warning, and it was never simulated again once complete and top-level. It is
/// refused for its parent when a world comes back, rebuilt or stale, and joins again then.
#[test]
fn a_child_stripped_of_its_pose_while_no_world_was_in_is_refused_and_comes_back_r_plug_1() {
    for stale in [false, true] {
        let mut app = app();
        controls(&mut app).gravity_enabled = false;
        let parent = spawn(&mut app, Transform::default());
        let child = spawn(&mut app, ball(100.0));
        frames(&mut app, 2);
        let old = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
        if stale {
            frames(&mut app, 2);
            drop(app.world_mut().remove_resource::<PhysicsWorld>());
        }
        take_warnings(&mut app);
        app.world_mut().entity_mut(child).insert(ChildOf(parent)).remove::<PhysicsPose>();
        if stale {
            app.world_mut().insert_resource(old);
        }
        let mut warnings = Vec::new();
        for _ in 0..3 {
            warnings.extend(frame_warnings(&mut app));
        }
        assert_eq!(parent_refusals(&warnings, child), 1, "stale {stale}: {warnings:?}");
        app.world_mut().entity_mut(child).insert(PhysicsPose::default()).remove::<ChildOf>();
        frames(&mut app, 3);
        assert!(physics(&app).handle(child).is_some(), "stale {stale}: never simulated again");
    }
}

/// A rebuilt world takes the settings from their resources; one holding a value written in
/// the same frame and not yet refused (a NaN gravity, walls of 5 × 5 px) gave the defaults
/// and the startup walls instead, and the last valid settings were lost. Now it takes the
/// last valid ones, and the next step refuses the resource's value and puts them back.
#[test]
fn a_rebuilt_world_keeps_the_last_valid_settings_over_ones_not_yet_refused_r_cfg_3() {
    for stale in [false, true] {
        let mut app = app();
        let walls = Rect::new(-400.0, -300.0, 400.0, 300.0);
        config(&mut app).gravity = Vec2::new(0.0, 123.0);
        app.world_mut().resource_mut::<PhysicsBounds>().0 = walls;
        frames(&mut app, 2);
        let old = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
        if stale {
            frames(&mut app, 2);
        }
        config(&mut app).gravity = Vec2::NAN;
        app.world_mut().resource_mut::<PhysicsBounds>().0 = Rect::new(0.0, 0.0, 5.0, 5.0);
        if stale {
            app.world_mut().insert_resource(old);
        }
        let mut warnings = Vec::new();
        for _ in 0..2 {
            warnings.extend(frame_warnings(&mut app));
        }
        let refused = |what: &str| warnings.iter().any(|w| w.message.starts_with(what));
        assert!(refused("PhysicsConfig refused") && refused("PhysicsBounds"), "{warnings:?}");
        let core = physics(&app).world();
        assert_eq!(core.config().gravity, Vec2::new(0.0, 123.0), "stale {stale}: gravity");
        assert_eq!(app.world().resource::<PhysicsConfig>().gravity, Vec2::new(0.0, 123.0));
        let (min, max) = core.bounds();
        assert_eq!(physics(&app).mapping().rect_to_bevy(min, max), walls, "stale {stale}");
        assert_eq!(app.world().resource::<PhysicsBounds>().0, walls);
    }
}

/// A new kind (or collider) given in the same step as a required component was removed
/// was lost: the body was judged without the component, skipped, and the change was used
/// up, so the body stayed static for good once the component was put back.
#[test]
fn a_kind_changed_as_a_required_component_goes_is_applied_once_it_is_back_r_plug_1() {
    #[derive(Resource)]
    struct Change(Entity, bool);
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let body = spawn(&mut app, (ball(0.0), RigidBody::Static));
    frames(&mut app, 2);
    app.insert_resource(Change(body, false));
    let change =
        |mut change: ResMut<Change>, mut kinds: Query<&mut RigidBody>, mut commands: Commands| {
            if !change.1 {
                change.1 = true;
                if let Ok(mut kind) = kinds.get_mut(change.0) {
                    *kind = RigidBody::Kinematic;
                }
                commands.entity(change.0).remove::<LinearVelocity>();
            }
        };
    app.add_systems(FixedUpdate, change.before(PhysicsSystems::Prepare));
    frames(&mut app, 4);
    let physics = physics(&app);
    let kind = physics.handle(body).and_then(|h| physics.world().body(h)).map(|b| b.kind());
    assert_eq!(kind, Some(BodyKind::Kinematic));
    assert!(app.world().get::<LinearVelocity>(body).is_some(), "the velocity put back");
}

/// A child moved to another parent is refused once: after a stale world was assigned
/// through `ResMut` (its map still named the child until the next frame), the move was
/// warned about a second time.
#[test]
fn a_child_moved_to_another_parent_is_refused_once_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let [first, second] = [0, 1].map(|_| spawn(&mut app, Transform::default()));
    let child = spawn(&mut app, ball(100.0));
    frames(&mut app, 2);
    let old = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    frames(&mut app, 2);
    take_warnings(&mut app);
    app.world_mut().entity_mut(child).insert(ChildOf(first));
    let mut warnings = frame_warnings(&mut app);
    *app.world_mut().resource_mut::<PhysicsWorld>() = old;
    app.world_mut().entity_mut(child).insert(ChildOf(second));
    for _ in 0..2 {
        warnings.extend(frame_warnings(&mut app));
    }
    assert_eq!(parent_refusals(&warnings, child), 1, "one refusal: {warnings:?}");
    assert_eq!(physics(&app).handle(child), None);
}

/// A. again, with the worlds swapped by assignment through `ResMut`, which no hook sees: a
/// stale world assigned over the world in force took the despawn made meanwhile, and the
/// world in force, assigned back, named the despawned ball for good. Every world of the app
/// knows which one is in force, so the despawn is kept for the world in force.
#[test]
fn a_despawn_made_while_a_stale_world_was_assigned_in_reaches_the_world_in_force_r_plug_3() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let [gone, kept] = [-100.0, 100.0].map(|x| spawn(&mut app, ball(x)));
    frames(&mut app, 2);
    let stale = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    frames(&mut app, 2);
    let world = app.world_mut();
    let in_force = std::mem::replace(&mut *world.resource_mut::<PhysicsWorld>(), stale);
    world.despawn(gone);
    *world.resource_mut::<PhysicsWorld>() = in_force;
    frames(&mut app, 3);
    let physics = physics(&app);
    assert_eq!(physics.handle(gone), None, "the despawned ball still named");
    assert!(physics.handle(kept).is_some());
    assert_eq!(physics.world().body_count(), 1, "no body without an entity in the core");
}

/// C. again, with the world in force replaced by a stale one, inserted over it or assigned
/// through `ResMut`: only a removal remembered the last valid settings, so the rebuild took
/// older ones (here the gravity before the world was rebuilt) instead of those in force
/// when it was replaced. The last valid settings are kept as they are applied, and as the
/// world in force leaves, so no way of replacing it loses them.
#[test]
fn a_world_in_force_replaced_by_a_stale_one_leaves_its_settings_to_the_rebuild_r_cfg_3() {
    for assign in [false, true] {
        let mut app = app();
        config(&mut app).gravity = Vec2::new(0.0, 111.0);
        frames(&mut app, 2);
        let stale = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
        frames(&mut app, 2);
        config(&mut app).gravity = Vec2::new(0.0, 222.0);
        frames(&mut app, 2);
        assert_eq!(physics(&app).world().config().gravity, Vec2::new(0.0, 222.0));
        config(&mut app).gravity = Vec2::NAN;
        if assign {
            *app.world_mut().resource_mut::<PhysicsWorld>() = stale;
        } else {
            app.world_mut().insert_resource(stale);
        }
        frames(&mut app, 2);
        let in_force = Vec2::new(0.0, 222.0);
        assert_eq!(physics(&app).world().config().gravity, in_force, "assigned: {assign}");
        assert_eq!(app.world().resource::<PhysicsConfig>().gravity, in_force, "assigned: {assign}");
    }
}

/// C. a fourth time (found by the fourth fuzzing round): settings written while no world
/// was in the app are taken by the world rebuilt in its place, but were not remembered as
/// the last valid ones, since `apply_config` and `apply_controls` then see nothing to apply.
/// A stale world assigned back through `ResMut` (which fires nothing) over invalid settings
/// was rebuilt with the settings before the removal: gravity (0, 980) and the startup walls
/// instead of (0, 333) and the walls in force. The rebuild remembers what it takes.
#[test]
fn settings_taken_by_a_rebuilt_world_outlive_a_stale_world_assigned_back_r_cfg_3() {
    let mut app = app();
    frames(&mut app, 2);
    let stale = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    let (gravity, walls) = (Vec2::new(0.0, 333.0), Rect::new(-400.0, -300.0, 400.0, 300.0));
    config(&mut app).gravity = gravity;
    app.world_mut().resource_mut::<PhysicsBounds>().0 = walls;
    frames(&mut app, 2);
    assert_eq!(physics(&app).world().config().gravity, gravity, "the rebuilt world took it");
    config(&mut app).gravity = Vec2::NAN;
    app.world_mut().resource_mut::<PhysicsBounds>().0 = Rect::new(0.0, 0.0, 5.0, 5.0);
    *app.world_mut().resource_mut::<PhysicsWorld>() = stale;
    frames(&mut app, 2);
    assert_eq!(physics(&app).world().config().gravity, gravity);
    assert_eq!(app.world().resource::<PhysicsConfig>().gravity, gravity);
    assert_eq!(app.world().resource::<PhysicsBounds>().0, walls);
    let (min, max) = physics(&app).mapping().rect_to_core(walls);
    assert_eq!(physics(&app).world().bounds(), (min, max), "the walls in the core");
}

/// C. through a scene file: a load sets the core's config without `apply_config`, so only
/// the world's own settings as it leaves can say what was in force. Loaded, then a NaN
/// gravity written and a stale world assigned back over the world in force (which drops it
/// unseen by any hook): the rebuild keeps the loaded gravity.
#[test]
fn settings_loaded_from_a_scene_file_outlive_a_stale_world_assigned_back_r_cfg_3() {
    let mut app = app();
    frames(&mut app, 2);
    let stale = app.world_mut().remove_resource::<PhysicsWorld>().expect("the plugin's world");
    frames(&mut app, 2);
    let mut file = SceneFile::capture(physics(&app).world());
    let gravity = Vec2::new(0.0, 444.0);
    file.config.gravity = gravity;
    app.world_mut().commands().queue(LoadPhysicsScene(file));
    app.world_mut().flush();
    frames(&mut app, 1);
    assert_eq!(physics(&app).world().config().gravity, gravity, "the file's gravity");
    config(&mut app).gravity = Vec2::NAN;
    *app.world_mut().resource_mut::<PhysicsWorld>() = stale;
    frames(&mut app, 2);
    assert_eq!(physics(&app).world().config().gravity, gravity);
    assert_eq!(app.world().resource::<PhysicsConfig>().gravity, gravity);
}

/// A simulated body whose `PhysicsPose` was written over (`PhysicsPose::default()`, as if it
/// had never been simulated) was passed by every rebuild: no warning, and it was never
/// simulated again. Only an entity that waits (refused at spawn) is passed by now; this one
/// joins the rebuilt world as a new spawn, from its components.
#[test]
fn a_body_whose_pose_was_written_over_joins_a_rebuilt_world_r_plug_1() {
    let mut app = app();
    controls(&mut app).gravity_enabled = false;
    let body = spawn(&mut app, ball(100.0));
    frames(&mut app, 2);
    app.world_mut().entity_mut(body).insert(PhysicsPose::default());
    frames(&mut app, 2);
    drop(app.world_mut().remove_resource::<PhysicsWorld>());
    frames(&mut app, 3);
    assert!(physics(&app).handle(body).is_some(), "lost by the rebuilt world");
    assert!((drawn(&app, body) - Vec2::new(100.0, 0.0)).length() < 1e-3, "where it was");
}
