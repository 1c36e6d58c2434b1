//! The plugin meets ordinary game code (issue 19): NaN writes into live bodies (z included),
//! bodies with a parent, bodies refused at spawn and fixed later, `Transform` scale,
//! rectangles' rotation and circles' rotations not about z. Each refusal is said once, and nothing repeats every step: R-PLUG-1 (a refused
//! write warns once and is repaired, a refused spawn is retried) and R-PLUG-2 (bodies with a
//! parent, scale and rotation).
#![cfg(feature = "bevy")]

mod plugin_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy_sandbox_physics::physics::Shape;
use bevy_sandbox_physics::plugin::VisualScale;
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Frames of exactly one fixed step, so "the next frame" is "the next step".
fn one_step_frames() -> App {
    app_with(SandboxPhysicsPlugin::default(), Duration::from_secs_f64(1.0 / 120.0))
}

fn transform_mut(app: &mut App, entity: Entity) -> Mut<'_, Transform> {
    app.world_mut().get_mut::<Transform>(entity).expect("transform")
}

/// The entity's simulated position, in Bevy's frame.
fn simulated(app: &App, entity: Entity) -> Vec2 {
    let handle = physics(app).handle(entity).expect("simulated");
    let body = physics(app).world().body(handle).expect("body");
    physics(app).mapping().position_to_bevy(body.position())
}

/// Asserts exactly one warning since the last call, about `entity`, containing each of
/// `words`.
fn assert_one_warning(app: &mut App, entity: Entity, words: &[&str]) {
    let warnings = take_warnings(app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].entity, Some(entity));
    for word in words {
        assert!(warnings[0].message.contains(word), "{word:?} not in {}", warnings[0].message);
    }
}

/// A circle and a rectangle in mid-air, falling, drawn at their latest physics pose (so the
/// drawn and the simulated positions can be compared exactly).
fn falling_circle_and_rectangle(app: &mut App) -> [Entity; 2] {
    let circle = spawn(
        app,
        (Collider::circle(20.0), Transform::from_xyz(-100.0, 200.0, 0.0), NoInterpolation),
    );
    let rectangle = spawn(
        app,
        (Collider::rectangle(60.0, 30.0), Transform::from_xyz(100.0, 200.0, 0.0), NoInterpolation),
    );
    frames(app, 2);
    assert!(take_warnings(app).is_empty());
    [circle, rectangle]
}

/// After a refused write: no more warnings, and the body is drawn where it is simulated,
/// which is where it goes on falling from.
fn assert_drawn_where_simulated(app: &mut App, entity: Entity) {
    let before = drawn(app, entity);
    frames(app, 10);
    assert!(take_warnings(app).is_empty(), "warned once, not every step");
    assert_eq!(drawn(app, entity), simulated(app, entity), "drawn where simulated");
    assert_eq!(drawn(app, entity), get::<PhysicsPose>(app, entity).current().translation);
    assert!(drawn(app, entity).y < before.y - 1.0, "it goes on falling");
}

/// Issue 19: a NaN translation (a zero-vector look-at does this) was retried every step,
/// about 120 warnings a second, and the body was no longer drawn. Now: one warning, the
/// `Transform` put back, drawn where simulated.
#[test]
fn a_nan_translation_in_a_live_body_is_refused_once_and_put_back_r_plug_1() {
    let mut app = app();
    for body in falling_circle_and_rectangle(&mut app) {
        let last = drawn(&app, body);
        transform_mut(&mut app, body).translation.x = f32::NAN;
        app.update();
        assert_one_warning(&mut app, body, &["teleport", "NaN", "allowed", "put back"]);
        let now = drawn(&app, body);
        assert!(now.is_finite(), "the Transform was put back, got {now}");
        assert_eq!(now.x, last.x, "x back at its last valid value");
        assert_drawn_where_simulated(&mut app, body);
    }
}

/// Issue 19: a NaN rotation on a rectangle was not refused at all (its drawing froze while
/// the simulation went on); on a circle it was retried every step.
#[test]
fn a_nan_rotation_in_a_live_body_is_refused_once_and_put_back_r_plug_1() {
    let mut app = app();
    for body in falling_circle_and_rectangle(&mut app) {
        let last = get::<Transform>(&app, body).rotation;
        transform_mut(&mut app, body).rotation = Quat::from_xyzw(0.0, 0.0, f32::NAN, f32::NAN);
        app.update();
        assert_one_warning(&mut app, body, &["rotation", "allowed", "put back"]);
        assert_eq!(get::<Transform>(&app, body).rotation, last, "rotation put back");
        assert_drawn_where_simulated(&mut app, body);
    }
}

/// Velocities: one warning, the component put back to the simulated value.
#[test]
fn a_nan_velocity_in_a_live_body_is_refused_once_and_put_back_r_plug_1() {
    let mut app = app();
    let [circle, _] = falling_circle_and_rectangle(&mut app);
    app.world_mut().get_mut::<LinearVelocity>(circle).expect("velocity").0.y = f32::NAN;
    app.update();
    assert_one_warning(&mut app, circle, &["LinearVelocity", "allowed"]);
    assert!(get::<LinearVelocity>(&app, circle).0.is_finite());
    app.world_mut().get_mut::<AngularVelocity>(circle).expect("spin").0 = f32::INFINITY;
    app.update();
    assert_one_warning(&mut app, circle, &["AngularVelocity", "allowed"]);
    assert!(get::<AngularVelocity>(&app, circle).0.is_finite());
    assert_drawn_where_simulated(&mut app, circle);
}

/// Removes `C` from each of a falling circle and rectangle, and checks that it is put back
/// with one warning naming `name`, and that the bodies go on being drawn where simulated.
fn assert_removal_put_back<C: Component>(name: &str) {
    let mut app = app();
    for body in falling_circle_and_rectangle(&mut app) {
        app.world_mut().entity_mut(body).remove::<C>();
        app.update();
        assert_one_warning(&mut app, body, &[name, "removed", "Collider", "put back"]);
        assert!(app.world().get::<C>(body).is_some(), "{name} put back");
        let handle = physics(&app).handle(body).expect("still simulated");
        let core = physics(&app).world().body(handle).expect("body");
        let mapping = physics(&app).mapping();
        assert_eq!(get::<LinearVelocity>(&app, body).0, mapping.vector_to_bevy(core.velocity()));
        assert_drawn_where_simulated(&mut app, body);
    }
}

/// Removing a component a collider requires from a live body left an invisible collider: the
/// body went on colliding, its entity was no longer kept in step (the write-back and the
/// drawing need the pose, the velocities and the `Transform`), and nothing was said. Now the
/// component is put back from the body, with one warning, as for any refused write.
#[test]
fn a_required_component_removed_from_a_live_body_is_put_back_once_r_plug_1() {
    assert_removal_put_back::<LinearVelocity>("LinearVelocity");
    assert_removal_put_back::<AngularVelocity>("AngularVelocity");
    assert_removal_put_back::<PhysicsPose>("PhysicsPose");
    assert_removal_put_back::<Transform>("Transform");
    assert_removal_put_back::<RigidBody>("RigidBody");
    assert_removal_put_back::<PhysicsMaterial>("PhysicsMaterial");

    // Several at once: one warning naming them all; the values are the body's.
    let mut app = app();
    let [circle, _] = falling_circle_and_rectangle(&mut app);
    app.world_mut().entity_mut(circle).insert(PhysicsMaterial::RUBBER);
    frames(&mut app, 2);
    app.world_mut()
        .entity_mut(circle)
        .remove::<(Transform, LinearVelocity, PhysicsPose, PhysicsMaterial)>();
    app.update();
    assert_one_warning(
        &mut app,
        circle,
        &["Transform", "LinearVelocity", "PhysicsPose", "PhysicsMaterial", "put back"],
    );
    assert_eq!(get::<PhysicsMaterial>(&app, circle), PhysicsMaterial::RUBBER, "the body's");
    assert_eq!(drawn(&app, circle), simulated(&app, circle), "the Transform at the body");
    assert_drawn_where_simulated(&mut app, circle);
}

/// Disables a falling circle, removes `C` from it while it has no body, enables it again, and
/// checks that it is refused with one warning naming `name` and waits, with no body in the
/// core, until `C` is inserted again, when it is simulated from its components.
fn assert_refused_until_put_back<C: Component + Clone>(name: &str) {
    use bevy::ecs::entity_disabling::Disabled;

    let mut app = one_step_frames();
    let [circle, _] = falling_circle_and_rectangle(&mut app);
    let removed = get::<C>(&app, circle);
    app.world_mut().entity_mut(circle).insert(Disabled);
    app.update();
    app.world_mut().entity_mut(circle).remove::<C>();
    app.update();
    app.world_mut().entity_mut(circle).remove::<Disabled>();
    app.update();
    assert_one_warning(&mut app, circle, &[name, "missing", "allowed", "not simulated until"]);
    assert_eq!(physics(&app).handle(circle), None, "{name}: not simulated");
    assert_eq!(physics(&app).world().body_count(), 1, "{name}: no invisible body in the core");
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "{name}: warned once");
    assert_eq!(physics(&app).handle(circle), None);

    // Back, it is judged as a new spawn from its components within one step.
    app.world_mut().entity_mut(circle).insert(removed);
    app.update();
    assert!(take_warnings(&mut app).is_empty(), "{name}: nothing to refuse");
    assert!(physics(&app).handle(circle).is_some(), "{name}: simulated again");
    assert_eq!(physics(&app).world().body_count(), 2);
    assert_drawn_where_simulated(&mut app, circle);
}

/// A component a collider requires removed while the entity had no body (disabled, or
/// waiting after a refused spawn) was never judged: once enabled the entity was silently
/// left out of the simulation for good, even after the component came back, and a waiting
/// one left the list of those judged again. Now it is refused with one warning naming the
/// component, and waits until the component is back.
#[test]
fn a_required_component_removed_while_the_body_is_out_is_refused_until_put_back_r_plug_1() {
    assert_refused_until_put_back::<LinearVelocity>("LinearVelocity");
    assert_refused_until_put_back::<AngularVelocity>("AngularVelocity");
    assert_refused_until_put_back::<PhysicsPose>("PhysicsPose");
    assert_refused_until_put_back::<Transform>("Transform");
    assert_refused_until_put_back::<RigidBody>("RigidBody");
    assert_refused_until_put_back::<PhysicsMaterial>("PhysicsMaterial");

    // Waiting after a refused spawn: the removal is said once, and once the material is back
    // and the body moved inside the walls, it is simulated.
    let mut app = one_step_frames();
    let outside = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 1000.0, 0.0)));
    app.update();
    assert_one_warning(&mut app, outside, &["outside the walls", "not simulated until"]);
    app.world_mut().entity_mut(outside).remove::<PhysicsMaterial>();
    app.update();
    assert_one_warning(&mut app, outside, &["PhysicsMaterial", "missing", "not simulated until"]);
    frames(&mut app, 3);
    assert!(take_warnings(&mut app).is_empty(), "warned once");
    app.world_mut().entity_mut(outside).insert(PhysicsMaterial::STEEL);
    app.update();
    assert_one_warning(&mut app, outside, &["outside the walls"]);
    transform_mut(&mut app, outside).translation.y = 100.0;
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert!(simulated(&app, outside).y < 100.0, "simulated from where it was put");
}

/// Removes `C` from a falling circle in the frame `PhysicsWorld` is removed, and checks
/// that the rebuilt world refuses it with one warning naming `name` and takes it in within
/// one step once `C` is inserted again.
fn assert_refused_with_the_world_until_put_back<C: Component + Clone>(name: &str) {
    let mut app = one_step_frames();
    let [circle, _] = falling_circle_and_rectangle(&mut app);
    let removed = get::<C>(&app, circle);
    app.world_mut().entity_mut(circle).remove::<C>();
    app.world_mut().remove_resource::<PhysicsWorld>();
    app.update();
    let warnings = take_warnings(&mut app);
    let about: Vec<_> = warnings.iter().filter(|w| w.entity == Some(circle)).collect();
    assert_eq!(about.len(), 1, "{name}: {warnings:?}");
    for word in [name, "missing", "not simulated until"] {
        assert!(about[0].message.contains(word), "{name}: {word:?} not in {}", about[0].message);
    }
    assert_eq!(physics(&app).handle(circle), None, "{name}: not simulated");
    app.world_mut().entity_mut(circle).insert(removed);
    app.update();
    assert!(take_warnings(&mut app).is_empty(), "{name}: nothing to refuse");
    assert!(physics(&app).handle(circle).is_some(), "{name}: simulated again");
}

/// A component a collider requires removed in the frame `PhysicsWorld` was removed has no
/// body to be put back from: the world rebuilt in place of the removed one has none yet. The
/// rebuild marked for registration only the body entities that still had a `Transform` and
/// a `PhysicsPose`, so one that had lost either was never judged again: out of the
/// simulation for good, silently, even once the component was back. Now it is refused with
/// one warning naming the component, as one removed while the body is out, and joins within
/// one step once the component is back.
#[test]
fn a_required_component_removed_with_the_physics_world_is_refused_until_put_back_r_plug_1() {
    assert_refused_with_the_world_until_put_back::<Transform>("Transform");
    assert_refused_with_the_world_until_put_back::<PhysicsPose>("PhysicsPose");
    assert_refused_with_the_world_until_put_back::<LinearVelocity>("LinearVelocity");
}

/// Issue 19: a child body was simulated at its local translation and drawn offset by its
/// parent's transform. Bodies must be top-level: a child is refused with one warning (and
/// its parent's moves and turns do not repeat it), and simulated once `ChildOf` goes.
#[test]
fn a_body_with_a_parent_is_refused_until_the_parent_is_removed_r_plug_2() {
    let mut app = one_step_frames();
    let parent = spawn(
        &mut app,
        Transform::from_xyz(100.0, 50.0, 0.0).with_rotation(Quat::from_rotation_z(0.7)),
    );
    let child = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(10.0, 0.0, 0.0), ChildOf(parent)),
    );
    app.update();
    assert_one_warning(&mut app, child, &["ChildOf", "top-level", "not simulated until"]);
    assert_eq!(physics(&app).handle(child), None);

    // The parent moves and turns: the child stays out, silently, and its Transform is the
    // user's.
    for i in 0..5 {
        let mut transform = transform_mut(&mut app, parent);
        transform.translation.x += 20.0;
        transform.rotate_z(0.3 + i as f32);
        app.update();
    }
    assert!(take_warnings(&mut app).is_empty(), "warned once");
    assert_eq!(physics(&app).handle(child), None);
    assert_eq!(get::<Transform>(&app, child), Transform::from_xyz(10.0, 0.0, 0.0));

    // Without the parent, its Transform is a world position: simulated within one step.
    app.world_mut().entity_mut(child).remove::<ChildOf>();
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    let at = simulated(&app, child);
    assert_eq!(at.x, 10.0);
    assert!(at.y < 0.0 && at.y > -1.0, "one step of falling from y = 0, at {at}");

    // A simulated body given a parent leaves the simulation, with one warning.
    app.world_mut().entity_mut(child).insert(ChildOf(parent));
    assert_eq!(physics(&app).handle(child), None, "unlinked at once");
    app.update();
    assert_eq!(physics(&app).world().body_count(), 0, "its body left the core");
    assert_one_warning(&mut app, child, &["ChildOf", "not simulated until"]);
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "warned once");
}

/// A child refused for its parent that loses a component its collider requires is told so,
/// and once the component is back it waits for its parent to go as before: it was refused for
/// its parent a second time (the fuzzing rounds' known repeat). Simulated once `ChildOf` goes.
#[test]
fn a_refused_child_that_loses_and_regains_a_required_component_is_not_refused_again_r_plug_2() {
    let mut app = one_step_frames();
    let parent = spawn(&mut app, Transform::from_xyz(100.0, 50.0, 0.0));
    let child = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(10.0, 0.0, 0.0), ChildOf(parent)),
    );
    app.update();
    assert_one_warning(&mut app, child, &["ChildOf", "not simulated until"]);
    app.world_mut().entity_mut(child).remove::<PhysicsMaterial>();
    app.update();
    assert_one_warning(&mut app, child, &["PhysicsMaterial missing"]);
    app.world_mut().entity_mut(child).insert(PhysicsMaterial::default());
    for _ in 0..3 {
        app.update();
        assert!(take_warnings(&mut app).is_empty(), "refused for its parent again");
    }
    assert_eq!(physics(&app).handle(child), None, "a child is not simulated");
    app.world_mut().entity_mut(child).remove::<ChildOf>();
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert!(physics(&app).handle(child).is_some(), "simulated once top-level");
}

/// `World::resource_scope::<PhysicsWorld>` takes the resource out of the world while it runs,
/// so the observer that refuses a body given a parent found none and did nothing: the body
/// stayed simulated in world space, its entity drawn relative to its parent, and nothing was
/// said. Now it is refused as soon as the scope ends, as outside a scope.
#[test]
fn a_body_given_a_parent_inside_a_resource_scope_is_refused_too_r_plug_2() {
    let mut app = one_step_frames();
    let parent = spawn(&mut app, Transform::from_xyz(100.0, 50.0, 0.0));
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    assert!(take_warnings(&mut app).is_empty());
    app.world_mut().resource_scope(|world, _: Mut<PhysicsWorld>| {
        world.entity_mut(ball).insert(ChildOf(parent));
    });
    // At the scope's end, before any system runs.
    assert_eq!(physics(&app).handle(ball), None, "out of the simulation");
    assert_one_warning(&mut app, ball, &["ChildOf", "top-level", "not simulated until"]);
    app.update();
    assert!(take_warnings(&mut app).is_empty(), "warned once");
    assert_eq!(physics(&app).world().body_count(), 0, "its body left the core");
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "warned once");

    // Without the parent, simulated again from its Transform within one step.
    app.world_mut().entity_mut(ball).remove::<ChildOf>();
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert!(physics(&app).handle(ball).is_some(), "simulated again");

    // A parent given and taken away inside one scope leaves the body as it was; one given to
    // a body despawned in the same scope says nothing either.
    app.world_mut().resource_scope(|world, _: Mut<PhysicsWorld>| {
        world.entity_mut(ball).insert(ChildOf(parent));
        world.entity_mut(ball).remove::<ChildOf>();
    });
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert!(physics(&app).handle(ball).is_some(), "still simulated");
    app.world_mut().resource_scope(|world, _: Mut<PhysicsWorld>| {
        world.entity_mut(ball).insert(ChildOf(parent));
        world.despawn(ball);
    });
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert_eq!(physics(&app).world().body_count(), 0, "the despawned body left the core");
}

/// An exclusive system may hold the warnings' queue (`Messages<PhysicsWarning>`) in a
/// `World::resource_scope` while it changes bodies. The observers that refuse a body given a
/// parent, and that unlink bodies when [`PhysicsWorld`] comes back from a scope, required that
/// queue: Bevy panicked that the message was not initialized (found by a fuzzing round). Now
/// nothing panics, a body despawned there leaves the map as the inner scope ends, and each
/// refusal is said in the next frame, once.
#[test]
fn changes_inside_a_scope_of_the_warnings_queue_neither_panic_nor_lose_a_warning_r_plug_1() {
    let mut app = one_step_frames();
    let parent = spawn(&mut app, Transform::from_xyz(100.0, 50.0, 0.0));
    let ball = |x: f32| (Collider::circle(20.0), Transform::from_xyz(x, 0.0, 0.0));
    let [despawned, in_both, in_one] = [-200.0, 0.0, 200.0].map(|x| spawn(&mut app, ball(x)));
    frames(&mut app, 2);
    assert!(take_warnings(&mut app).is_empty());
    app.world_mut().resource_scope(|world, _: Mut<Messages<PhysicsWarning>>| {
        world.resource_scope(|world, _: Mut<PhysicsWorld>| {
            world.despawn(despawned);
            world.entity_mut(in_both).insert(ChildOf(parent));
        });
        assert_eq!(world.resource::<PhysicsWorld>().handle(despawned), None, "unlinked");
        world.entity_mut(in_one).insert(ChildOf(parent));
    });
    app.update();
    let warnings = take_warnings(&mut app);
    let about = |entity| warnings.iter().filter(|w| w.entity == Some(entity)).count();
    assert_eq!((about(in_both), about(in_one), warnings.len()), (1, 1, 2), "{warnings:?}");
    assert!(warnings.iter().all(|w| w.message.contains("ChildOf")), "{warnings:?}");
    for child in [in_both, in_one] {
        assert_eq!(physics(&app).handle(child), None, "out of the simulation");
    }
    assert_eq!(physics(&app).world().body_count(), 0, "every body left the core");
    frames(&mut app, 3);
    assert!(take_warnings(&mut app).is_empty(), "warned once");
}

/// With [`PhysicsWorld`] removed, the observer that refuses a body given a parent notes the
/// entity for later; the world rebuilt in its place re-adds every top-level body entity but
/// passed the child by, and the note found no body to take out. The child was neither
/// simulated nor warned about, and never simulated again once its parent went. Now the
/// rebuilt world refuses it as the observer does, and it rejoins without its parent.
#[test]
fn a_body_given_a_parent_while_the_physics_world_is_removed_is_refused_when_it_returns_r_plug_2() {
    let mut app = one_step_frames();
    let parent = spawn(&mut app, Transform::from_xyz(100.0, 50.0, 0.0));
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    assert!(take_warnings(&mut app).is_empty());
    app.world_mut().remove_resource::<PhysicsWorld>();
    app.world_mut().entity_mut(ball).insert(ChildOf(parent));
    app.update();
    let warnings = take_warnings(&mut app);
    let about_ball: Vec<_> = warnings.iter().filter(|w| w.entity == Some(ball)).collect();
    assert_eq!(about_ball.len(), 1, "{warnings:?}");
    for word in ["ChildOf", "top-level"] {
        assert!(about_ball[0].message.contains(word), "{word:?} not in {}", about_ball[0].message);
    }
    assert_eq!(physics(&app).handle(ball), None, "out of the simulation");
    assert_eq!(physics(&app).world().body_count(), 0, "no body of it in the rebuilt core");
    frames(&mut app, 3);
    let warnings = take_warnings(&mut app);
    assert!(warnings.iter().all(|w| w.entity != Some(ball)), "warned once: {warnings:?}");
    assert_eq!(physics(&app).handle(ball), None, "still out of the simulation");

    // Without the parent, simulated again from its Transform within one step.
    app.world_mut().entity_mut(ball).remove::<ChildOf>();
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert!(physics(&app).handle(ball).is_some(), "simulated again");
}

/// Issue 19: a refused spawn stayed refused forever. Now it is judged again when its data
/// change, and simulated within one step once they are valid.
#[test]
fn a_body_refused_at_spawn_is_simulated_within_one_step_once_fixed_r_plug_1() {
    let mut app = one_step_frames();
    let outside = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 1000.0, 0.0)));
    let fast = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            Transform::from_xyz(200.0, 0.0, 0.0),
            LinearVelocity(Vec2::new(f32::NAN, 0.0)),
        ),
    );
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(warnings[0].entity, Some(outside));
    assert!(warnings[0].message.contains("outside the walls"), "{}", warnings[0].message);
    assert_eq!(warnings[1].entity, Some(fast));
    assert!(warnings[1].message.contains("velocity"), "{}", warnings[1].message);
    for warning in &warnings {
        assert!(warning.message.contains("not simulated until"), "{}", warning.message);
    }
    // Waiting, silently: nothing changed, nothing is judged again.
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty());
    assert_eq!(physics(&app).handle(outside), None);

    transform_mut(&mut app, outside).translation.y = 100.0;
    app.world_mut().get_mut::<LinearVelocity>(fast).expect("velocity").0 = Vec2::new(50.0, 0.0);
    let before = steps(&app);
    app.update();
    assert_eq!(steps(&app), before + 1);
    assert!(take_warnings(&mut app).is_empty());
    assert!(simulated(&app, outside).y < 100.0, "simulated in that one step");
    assert!(simulated(&app, fast).x > 200.0, "simulated in that one step");
    assert_eq!(physics(&app).world().body_count(), 2);
}

/// Issue 19: a scale of 2 drew a sprite twice the size of its collider, silently. Scale is
/// ignored, and said so once per entity.
#[test]
fn a_transform_scale_is_ignored_and_said_so_once_r_plug_2() {
    let mut app = app();
    let ball = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0).with_scale(Vec3::splat(2.0))),
    );
    app.update();
    assert_one_warning(&mut app, ball, &["scale", "ignored"]);
    let handle = physics(&app).handle(ball).expect("simulated");
    assert_eq!(physics(&app).world().body(handle).expect("body").shape(), Shape::circle(20.0));
    assert_eq!(get::<Transform>(&app, ball).scale, Vec3::splat(2.0), "the game's value stays");

    transform_mut(&mut app, ball).scale = Vec3::splat(3.0);
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "once per entity");

    // A picture sized by the scale (`VisualScale`): nothing said, the collider as it was.
    let drawn = spawn(
        &mut app,
        (
            Collider::circle(20.0),
            VisualScale,
            Transform::from_xyz(100.0, 0.0, 0.0).with_scale(Vec3::new(20.0, 20.0, 1.0)),
        ),
    );
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "a visual scale was warned about");
    let handle = physics(&app).handle(drawn).expect("simulated");
    assert_eq!(physics(&app).world().body(handle).expect("body").shape(), Shape::circle(20.0));
}

/// Issue 19: a rectangle's rotation was overwritten with the identity, silently. It still
/// is (rectangles never rotate, so what is drawn is what collides), said once per entity.
#[test]
fn a_rotation_on_a_rectangle_is_put_back_to_the_identity_and_said_so_once_r_plug_2() {
    let mut app = app();
    let rotation = Quat::from_rotation_z(0.5);
    let crate_box = spawn(
        &mut app,
        (
            Collider::rectangle(60.0, 30.0),
            Transform::from_xyz(0.0, 0.0, 0.0).with_rotation(rotation),
        ),
    );
    app.update();
    assert_one_warning(&mut app, crate_box, &["rectangles never rotate", "identity"]);
    assert_eq!(get::<Transform>(&app, crate_box).rotation, Quat::IDENTITY);
    let handle = physics(&app).handle(crate_box).expect("simulated");
    assert_eq!(physics(&app).world().body(handle).expect("body").angle(), 0.0);

    transform_mut(&mut app, crate_box).rotation = Quat::from_rotation_z(-1.0);
    app.update();
    assert!(take_warnings(&mut app).is_empty(), "once per entity");
    assert_eq!(get::<Transform>(&app, crate_box).rotation, Quat::IDENTITY);
    // A circle turns to a written rotation, without a word.
    let wheel = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(200.0, 0.0, 0.0)));
    app.update();
    transform_mut(&mut app, wheel).rotation = rotation;
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    let handle = physics(&app).handle(wheel).expect("simulated");
    assert!((physics(&app).world().body(handle).expect("body").angle() + 0.5).abs() < 1e-5);
}

/// A NaN or infinite `Transform` z was accepted silently: z is not simulated, but it orders
/// drawing and picking, and a NaN-z body was picked above every other. Now z is judged as x
/// and y are: refused at spawn (the body waits until its `Transform` changes), and in a live
/// body put back to the last finite z, each with one warning naming the field and the range.
/// A finite z stays the game's.
#[test]
fn a_non_finite_z_is_refused_at_spawn_and_put_back_in_a_live_body_r_plug_1() {
    let mut app = one_step_frames();
    let waiting =
        spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, f32::NAN)));
    app.update();
    assert_one_warning(&mut app, waiting, &["translation z NaN", "allowed: a finite z"]);
    assert_eq!(physics(&app).handle(waiting), None, "not simulated");
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "waiting, silently");
    transform_mut(&mut app, waiting).translation.z = 3.0;
    app.update();
    assert!(take_warnings(&mut app).is_empty());
    assert!(simulated(&app, waiting).y < 100.0, "simulated once its z is finite");

    for body in falling_circle_and_rectangle(&mut app) {
        transform_mut(&mut app, body).translation.z = 7.0;
        app.update();
        assert!(take_warnings(&mut app).is_empty(), "a finite z is the game's");
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            transform_mut(&mut app, body).translation.z = bad;
            app.update();
            assert_one_warning(
                &mut app,
                body,
                &["translation z", "allowed: a finite z", "put back"],
            );
            assert_eq!(get::<Transform>(&app, body).translation.z, 7.0, "z put back");
        }
        assert_drawn_where_simulated(&mut app, body);
        assert_eq!(get::<Transform>(&app, body).translation.z, 7.0, "z stays the game's");
    }
}

/// A circle's rotation about z is its angle. A rotation about x and the zero quaternion were
/// both read as angle 0 without a word, although the only rotation allowed is one about z.
/// Now a circle's rotation is judged as a rectangle's is: at spawn the circle starts at angle
/// 0 and its `Transform` is put back to the identity, and written to a live circle the
/// rotation is put back to its last value, each with one warning naming the field and what is
/// allowed.
#[test]
fn a_rotation_not_about_z_on_a_circle_is_refused_once_and_put_back_r_plug_2() {
    let mut app = app();
    gravity_off(&mut app);
    let angle_of = |app: &App, entity: Entity| {
        let handle = physics(app).handle(entity).expect("simulated");
        physics(app).world().body(handle).expect("body").angle()
    };
    let odd = [
        Quat::from_rotation_x(1.0),
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        Quat::from_xyzw(0.0, 0.0, 1e30, 1e30),
    ];
    for (i, rotation) in odd.into_iter().enumerate() {
        let at = Transform::from_xyz(-200.0 + 100.0 * i as f32, 0.0, 0.0);
        let spawned = spawn(&mut app, (Collider::circle(20.0), at.with_rotation(rotation)));
        app.update();
        assert_one_warning(&mut app, spawned, &["rotation", "allowed: a finite rotation about z"]);
        assert_eq!(get::<Transform>(&app, spawned).rotation, Quat::IDENTITY, "{rotation}");
        assert_eq!(angle_of(&app, spawned), 0.0, "{rotation}");
    }

    let wheel = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(200.0, 0.0, 0.0)));
    app.update();
    transform_mut(&mut app, wheel).rotation = Quat::from_rotation_z(0.5);
    app.update();
    assert!(take_warnings(&mut app).is_empty(), "a rotation about z turns the circle");
    let angle = angle_of(&app, wheel);
    for rotation in odd {
        let last = get::<Transform>(&app, wheel).rotation;
        transform_mut(&mut app, wheel).rotation = rotation;
        app.update();
        assert_one_warning(&mut app, wheel, &["rotation", "allowed", "put back"]);
        assert_eq!(get::<Transform>(&app, wheel).rotation, last, "{rotation} put back");
        assert_eq!(angle_of(&app, wheel), angle, "{rotation}: the circle did not turn");
    }
    frames(&mut app, 5);
    assert!(take_warnings(&mut app).is_empty(), "warned once per write");
}

/// R-PLUG-1 (and the project's rule for bad input): every warning names the field and what
/// is allowed. These six said what was wrong but not what is allowed: a velocity written to
/// a static body ("… is not dynamic"), a required component removed from a simulated body,
/// a body spawned with a parent and one given a parent, a scaled `Transform` and a turned
/// rectangle. Each is made here once, in an app of its own, and must say "allowed".
#[test]
fn every_refusal_and_notice_names_what_is_allowed_r_plug_1() {
    type Make = fn(&mut App, Entity);
    let cases: [(&str, Make); 6] = [
        ("a velocity written to a static body", |app, body| {
            app.world_mut().entity_mut(body).insert(RigidBody::Static);
            app.update();
            take_warnings(app);
            app.world_mut().entity_mut(body).insert(LinearVelocity(Vec2::new(50.0, 0.0)));
        }),
        ("a required component removed", |app, body| {
            app.world_mut().entity_mut(body).remove::<PhysicsMaterial>();
        }),
        ("a body spawned with a parent", |app, _| {
            let parent = spawn(app, Transform::default());
            spawn(app, (Collider::circle(20.0), Transform::default(), ChildOf(parent)));
        }),
        ("a body given a parent", |app, body| {
            let parent = spawn(app, Transform::default());
            app.world_mut().entity_mut(body).insert(ChildOf(parent));
        }),
        ("a scaled Transform", |app, body| {
            transform_mut(app, body).scale = Vec3::splat(2.0);
        }),
        ("a turned rectangle", |app, body| {
            transform_mut(app, body).rotation = Quat::from_rotation_z(0.5);
        }),
    ];
    for (what, make) in cases {
        let mut app = one_step_frames();
        let body =
            spawn(&mut app, (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, 0.0, 0.0)));
        app.update();
        assert!(physics(&app).handle(body).is_some(), "{what}: simulated");
        take_warnings(&mut app);
        make(&mut app, body);
        app.update();
        let warnings = take_warnings(&mut app);
        assert_eq!(warnings.len(), 1, "{what}: {warnings:?}");
        assert!(warnings[0].message.contains("allowed"), "{what}: {}", warnings[0].message);
    }
}
