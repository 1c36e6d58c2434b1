//! Bodies through the plugin's components: spawn, despawn, teleport, velocity and material
//! writes, collider changes and refusals, contacts and the sleeping marker (R-UNIT-1,
//! R-SLP-4).
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::prelude::*;
use bevy_sandbox_physics::physics::{Material, Shape};
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Floor of the default world (1280 × 720 around the origin).
const FLOOR: f32 = -360.0;

/// Runs frames until `entity` sleeps, at most `seconds`.
fn until_sleeping(app: &mut App, entity: Entity, seconds: f32) {
    let start = app.world().resource::<Time<Virtual>>().elapsed_secs();
    while app.world().resource::<Time<Virtual>>().elapsed_secs() - start < seconds {
        app.update();
        if app.world().get::<Sleeping>(entity).is_some() {
            return;
        }
    }
    panic!("{entity} did not fall asleep within {seconds} s");
}

#[test]
fn a_collider_and_a_transform_make_a_falling_body_r_unit_1() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(100.0, 200.0, 5.0)));
    // The required components are there with their defaults.
    assert_eq!(get::<RigidBody>(&app, ball), RigidBody::Dynamic);
    assert_eq!(get::<PhysicsMaterial>(&app, ball), PhysicsMaterial::WOOD);
    assert_eq!(get::<LinearVelocity>(&app, ball).0, Vec2::ZERO);

    frames(&mut app, 30);
    let handle = physics(&app).handle(ball).expect("the ball is simulated");
    assert_eq!(physics(&app).entity(handle), Some(ball));
    // Bevy's y is up: the ball falls towards −y, and so does its velocity.
    let transform = get::<Transform>(&app, ball);
    assert!(transform.translation.y < 200.0 - 50.0, "fell to {}", transform.translation.y);
    assert_eq!(transform.translation.x, 100.0);
    assert_eq!(transform.translation.z, 5.0, "z is the user's");
    assert!(get::<LinearVelocity>(&app, ball).y < -400.0);
    // The core sees it in its y-down frame: (x − min.x, max.y − y).
    let core = physics(&app).world().body(handle).expect("body").position();
    let pose = get::<PhysicsPose>(&app, ball).current();
    assert_eq!(core, Vec2::new(pose.translation.x + 640.0, 360.0 - pose.translation.y));
}

#[test]
fn a_static_body_stays_put_and_holds_others_up() {
    let mut app = app();
    let shelf = spawn(
        &mut app,
        (Collider::rectangle(200.0, 24.0), RigidBody::Static, Transform::from_xyz(0.0, 0.0, 0.0)),
    );
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, 0.0)));
    frames(&mut app, 120);
    assert_eq!(drawn(&app, shelf), Vec2::ZERO);
    let y = drawn(&app, ball).y;
    assert!((y - 32.0).abs() < 1.5, "the ball rests on the shelf at y = 12 + 20, got {y}");
}

#[test]
fn despawning_the_bottom_box_wakes_the_stack_above_r_slp_4() {
    let mut app = app();
    let bottom = spawn(
        &mut app,
        (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, FLOOR + 20.0, 0.0)),
    );
    let top = spawn(
        &mut app,
        (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, FLOOR + 60.5, 0.0)),
    );
    until_sleeping(&mut app, top, 5.0);
    assert!(app.world().get::<Sleeping>(bottom).is_some(), "one island sleeps as a whole");
    let resting = drawn(&app, top).y;
    frames(&mut app, 10);
    assert_eq!(drawn(&app, top).y, resting, "asleep: not moving");

    let before = physics(&app).world().body_count();
    app.world_mut().despawn(bottom);
    // The entity is forgotten at once; its body leaves the core, with every other body
    // despawned in the same frame, first thing in the next frame.
    assert_eq!(physics(&app).handle(bottom), None, "forgotten at once");
    app.update();
    assert_eq!(physics(&app).world().body_count(), before - 1, "removed by the next frame");
    assert!(!physics(&app).is_sleeping(top), "the island woke with the removal");

    frames(&mut app, 10);
    assert!(app.world().get::<Sleeping>(top).is_none());
    assert!(drawn(&app, top).y < resting - 5.0, "the top box falls");
    frames(&mut app, 110);
    let y = drawn(&app, top).y;
    assert!((y - (FLOOR + 20.0)).abs() < 1.5, "the top box fell to the floor, y = {y}");
}

#[test]
fn removing_the_collider_removes_the_body() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    assert!(physics(&app).handle(ball).is_some());
    app.world_mut().entity_mut(ball).remove::<Collider>();
    assert!(physics(&app).is_empty());
    let still = drawn(&app, ball);
    frames(&mut app, 10);
    assert_eq!(drawn(&app, ball), still, "no longer moved by the plugin");
}

#[test]
fn a_teleport_takes_effect_next_step_without_smearing_and_wakes_the_body() {
    let mut app = app_with(SandboxPhysicsPlugin::default(), frame_144());
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(-300.0, 0.0, 0.0)));
    until_sleeping(&mut app, ball, 5.0);

    app.world_mut().get_mut::<Transform>(ball).expect("transform").translation =
        Vec3::new(300.0, 200.0, 0.0);
    app.update();
    // The teleport is not drawn as a slide from the old place: every frame is near the new one.
    for _ in 0..3 {
        let at = drawn(&app, ball);
        assert!((at - Vec2::new(300.0, 200.0)).length() < 2.0, "drawn at {at}");
        app.update();
    }
    assert!(app.world().get::<Sleeping>(ball).is_none(), "the teleport woke it");
    frames(&mut app, 4 * 144);
    let y = drawn(&app, ball).y;
    assert!((y - (FLOOR + 20.0)).abs() < 1.5, "and it fell from there, y = {y}");
    assert_eq!(drawn(&app, ball).x, 300.0);
}

#[test]
fn a_teleport_outside_the_walls_is_refused_with_a_warning() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    app.world_mut().get_mut::<Transform>(ball).expect("transform").translation.x = 5000.0;
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("teleport"), "{}", warnings[0].message);
    assert_eq!(warnings[0].entity, Some(ball));
    app.update();
    assert!(drawn(&app, ball).x.abs() < 1.0, "the body stays where it was");
}

#[test]
fn a_written_velocity_takes_effect_next_step_and_wakes_the_body() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    until_sleeping(&mut app, ball, 5.0);
    let x = drawn(&app, ball).x;

    app.world_mut().get_mut::<LinearVelocity>(ball).expect("velocity").0 = Vec2::new(300.0, 400.0);
    app.update();
    assert!(app.world().get::<Sleeping>(ball).is_none());
    // Two steps: v.x is kept by the floor contact… except friction; v.y goes up (Bevy +y).
    let velocity = get::<LinearVelocity>(&app, ball).0;
    assert!(velocity.y > 300.0, "moving up at {velocity}");
    assert!(velocity.x > 250.0, "moving right at {velocity}");
    frames(&mut app, 5);
    assert!(drawn(&app, ball).x > x + 20.0);
}

#[test]
fn the_plugin_does_not_mistake_its_own_write_back_for_a_user_write() {
    let mut app = app();
    gravity_off(&mut app);
    let ball = spawn(
        &mut app,
        (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0), LinearVelocity(Vec2::X * 1.0)),
    );
    // Slowing it below the sleep speed lets it fall asleep; a write-back mistaken for a user
    // write would wake it every step and it would never sleep.
    until_sleeping(&mut app, ball, 2.0);
    let handle = physics(&app).handle(ball).expect("simulated");
    frames(&mut app, 60);
    assert!(physics(&app).world().body(handle).expect("body").is_sleeping());
}

#[test]
fn a_written_angular_velocity_turns_a_circle_counter_clockwise_r_unit_1() {
    let mut app = app();
    gravity_off(&mut app);
    let wheel = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    app.world_mut().get_mut::<AngularVelocity>(wheel).expect("spin").0 = 2.0;
    frames(&mut app, 30);
    let (axis, angle) = get::<Transform>(&app, wheel).rotation.to_axis_angle();
    // Half a second at 2 rad/s (one step of it is still to be drawn): about +1 rad about +z.
    assert!(axis.z > 0.99 && (angle - 1.0).abs() < 0.05, "axis {axis}, angle {angle}");
    assert!((get::<AngularVelocity>(&app, wheel).0 - 2.0).abs() < 1e-4);
    let handle = physics(&app).handle(wheel).expect("simulated");
    let core = physics(&app).world().body(handle).expect("body").angular_velocity();
    assert!((core + 2.0).abs() < 1e-4, "clockwise-positive in the core: {core}");
}

#[test]
fn a_material_change_takes_effect_next_step() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    *app.world_mut().get_mut::<PhysicsMaterial>(ball).expect("material") = PhysicsMaterial::STEEL;
    app.update();
    let handle = physics(&app).handle(ball).expect("simulated");
    assert_eq!(physics(&app).world().body(handle).expect("body").material(), Material::STEEL);

    let bad = PhysicsMaterial(Material { density: -1.0, ..Material::WOOD });
    *app.world_mut().get_mut::<PhysicsMaterial>(ball).expect("material") = bad;
    app.update();
    let warnings = take_warnings(&mut app);
    assert!(warnings.iter().any(|w| w.message.contains("material.density")), "{warnings:?}");
    assert_eq!(get::<PhysicsMaterial>(&app, ball), PhysicsMaterial::STEEL, "restored");
}

#[test]
fn an_invalid_collider_is_refused_with_a_warning_naming_the_field_and_range() {
    let mut app = app();
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    let hash = physics(&app).world().state_hash();
    let bodies = physics(&app).world().body_count();

    let tiny = spawn(&mut app, (Collider::circle(5.0), Transform::from_xyz(100.0, 0.0, 0.0)));
    let flat =
        spawn(&mut app, (Collider::rectangle(100.0, 2.0), Transform::from_xyz(-100.0, 0.0, 0.0)));
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(warnings[0].entity, Some(tiny));
    assert!(warnings[0].message.contains("shape.radius"), "{}", warnings[0].message);
    assert!(warnings[0].message.contains("12 ..= 10000"), "{}", warnings[0].message);
    assert_eq!(warnings[1].entity, Some(flat));
    assert!(warnings[1].message.contains("shape.half_extents"), "{}", warnings[1].message);
    assert_eq!(physics(&app).handle(tiny), None);
    assert_eq!(physics(&app).world().body_count(), bodies, "nothing was added");
    assert_ne!(physics(&app).world().state_hash(), hash, "the rest went on stepping");

    // A simulated body whose collider turns invalid keeps its shape and gets it back.
    *app.world_mut().get_mut::<Collider>(ball).expect("collider") = Collider::circle(f32::NAN);
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(get::<Collider>(&app, ball), Collider::circle(20.0));
    let handle = physics(&app).handle(ball).expect("still simulated");
    assert_eq!(physics(&app).world().body(handle).expect("body").shape(), Shape::circle(20.0));
    frames(&mut app, 2);
    assert!(take_warnings(&mut app).is_empty(), "warned once");
}

#[test]
fn a_body_spawned_outside_the_walls_is_refused() {
    let mut app = app();
    let far = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 1000.0, 0.0)));
    app.update();
    let warnings = take_warnings(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("outside the walls"), "{}", warnings[0].message);
    assert_eq!(physics(&app).handle(far), None);
}

#[test]
fn a_changed_collider_or_kind_rebuilds_the_body() {
    let mut app = app();
    let body = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 0.0, 0.0)));
    frames(&mut app, 2);
    *app.world_mut().get_mut::<Collider>(body).expect("collider") = Collider::rectangle(60.0, 30.0);
    app.update();
    let handle = physics(&app).handle(body).expect("simulated");
    assert_eq!(physics(&app).world().body(handle).expect("body").shape(), Shape::rect(60.0, 30.0));
    assert_eq!(physics(&app).world().body_count(), 1, "replaced, not added");

    *app.world_mut().get_mut::<RigidBody>(body).expect("kind") = RigidBody::Static;
    app.update();
    let y = drawn(&app, body).y;
    frames(&mut app, 30);
    assert_eq!(drawn(&app, body).y, y, "static now");
    assert_eq!(get::<LinearVelocity>(&app, body).0, Vec2::ZERO);
}

#[test]
fn contacts_are_read_back_per_body_in_bevy_frame() {
    let mut app = app();
    let bottom = spawn(
        &mut app,
        (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, FLOOR + 20.0, 0.0)),
    );
    let ball =
        spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, FLOOR + 61.0, 0.0)));
    frames(&mut app, 30);
    let contacts = physics(&app).contacts_of(ball);
    assert_eq!(contacts.len(), 1, "{contacts:?}");
    let contact = contacts[0];
    assert_eq!(contact.other, Some(bottom));
    // From the ball towards the box below it: down, which is −y in Bevy.
    assert!((contact.normal - Vec2::NEG_Y).length() < 1e-5, "{}", contact.normal);
    assert!(contact.normal_impulse > 0.0);
    assert!(contact.impulse.y > 0.0, "the box pushes the ball up");
    assert!((contact.point.y - (FLOOR + 40.0)).abs() < 1.5, "{}", contact.point);

    let below = physics(&app).contacts_of(bottom);
    assert!(below.iter().any(|c| c.other.is_none() && (c.normal - Vec2::NEG_Y).length() < 1e-5));
    assert!(below.iter().any(|c| c.other == Some(ball) && (c.normal - Vec2::Y).length() < 1e-5));
}

#[test]
fn removing_the_collider_of_a_sleeping_body_takes_its_sleeping_marker_too() {
    let mut app = app();
    let resting = spawn(
        &mut app,
        (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, FLOOR + 20.0, 0.0)),
    );
    until_sleeping(&mut app, resting, 5.0);
    assert!(app.world().get::<Sleeping>(resting).is_some(), "asleep before the removal");
    app.world_mut().entity_mut(resting).remove::<Collider>();
    assert_eq!(physics(&app).handle(resting), None, "forgotten at once");
    app.update();
    assert!(app.world().get::<Sleeping>(resting).is_none(), "the marker left with the body");
    assert_eq!(physics(&app).world().body_count(), 0, "its body left the core");
}

#[test]
fn a_world_whose_steps_are_skipped_still_answers_every_write_r_slp_3() {
    let mut app = app();
    let resting = spawn(
        &mut app,
        (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, FLOOR + 20.0, 0.0)),
    );
    until_sleeping(&mut app, resting, 5.0);
    frames(&mut app, 3);
    assert!(physics(&app).world().stats().skipped, "a sleeping world skips its steps (§11)");
    let at_rest = drawn(&app, resting);

    // A marker taken away by hand is put back, though the step was skipped.
    app.world_mut().entity_mut(resting).remove::<Sleeping>();
    step_once(&mut app);
    assert!(app.world().get::<Sleeping>(resting).is_some(), "the marker follows the core");

    // A velocity written into a skipped world wakes the body and moves it.
    app.world_mut().entity_mut(resting).insert(LinearVelocity(Vec2::new(0.0, 300.0)));
    frames(&mut app, 6);
    assert!(app.world().get::<Sleeping>(resting).is_none(), "woken by the write");
    assert!(drawn(&app, resting).y > at_rest.y + 5.0, "moved up: {}", drawn(&app, resting));
    let handle = physics(&app).handle(resting).expect("simulated");
    let core = physics(&app).world().body(handle).expect("body").position();
    let pose = get::<PhysicsPose>(&app, resting).current();
    assert_eq!(core, Vec2::new(pose.translation.x + 640.0, 360.0 - pose.translation.y));

    // Asleep again, a teleport through the Transform lands where it was written.
    until_sleeping(&mut app, resting, 5.0);
    frames(&mut app, 3);
    assert!(physics(&app).world().stats().skipped);
    app.world_mut().get_mut::<Transform>(resting).expect("transform").translation.x = 200.0;
    frames(&mut app, 2);
    assert_eq!(drawn(&app, resting).x, 200.0);
    let core = physics(&app).world().body(handle).expect("body").position();
    assert_eq!(core.x, 200.0 + 640.0, "the core has the teleport");
}

/// A despawn inside `World::resource_scope::<PhysicsWorld>` ran the collider's hook while the
/// resource was out of the world: the hook did nothing, and the floor stayed in the core for
/// good with no entity, an invisible floor the ball rested on. Now the unlink waits for the
/// next frame, and a new entity that reuses the index is simulated as itself.
#[test]
fn a_body_despawned_inside_a_resource_scope_of_the_physics_world_leaves_the_core_r_plug_3() {
    let mut app = app();
    let floor = spawn(
        &mut app,
        (
            Collider::rectangle(400.0, 40.0),
            RigidBody::Static,
            Transform::from_xyz(0.0, -100.0, 0.0),
        ),
    );
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, 0.0)));
    frames(&mut app, 2);
    assert_eq!(physics(&app).world().body_count(), 2);
    app.world_mut().resource_scope(|world, physics: Mut<PhysicsWorld>| {
        assert_eq!(physics.len(), 2);
        world.despawn(floor);
    });
    app.update();
    assert_eq!(physics(&app).handle(floor), None, "forgotten");
    assert_eq!(physics(&app).len(), 1);
    assert_eq!(physics(&app).world().body_count(), 1, "the floor's body left the core");
    frames(&mut app, 60);
    let y = drawn(&app, ball).y;
    assert!(y < -150.0, "the ball fell through where the floor was, y = {y}");

    // Again, and a new body spawned in the same scope (it may take the shelf's index).
    let shelf = spawn(
        &mut app,
        (Collider::rectangle(200.0, 24.0), RigidBody::Static, Transform::from_xyz(0.0, 0.0, 0.0)),
    );
    frames(&mut app, 2);
    let new = app.world_mut().resource_scope(|world, _: Mut<PhysicsWorld>| {
        world.despawn(shelf);
        world.spawn((Collider::circle(20.0), Transform::from_xyz(200.0, 100.0, 0.0))).id()
    });
    frames(&mut app, 2);
    assert_eq!(physics(&app).handle(shelf), None);
    assert!(physics(&app).handle(new).is_some(), "the new body is simulated");
    assert_eq!(physics(&app).len(), 2, "the ball and the new body");
    assert_eq!(physics(&app).world().body_count(), 2, "and nothing else in the core");
}

/// A despawn, a removed collider or `Disabled` inside `World::resource_scope::<PhysicsWorld>`
/// cannot reach the entity ↔ body map, and the map went on naming those entities until the
/// next frame began: every system after the scope in that frame got the despawned entity
/// from `PhysicsWorld::entity` and a body from `PhysicsWorld::handle`. Now the map forgets
/// them the moment the scope ends, and their bodies leave the core in the next step.
#[test]
fn the_map_forgets_bodies_that_left_inside_a_resource_scope_when_it_ends_r_plug_3() {
    use bevy::ecs::entity_disabling::Disabled;

    let mut app = app();
    let ball = |x: f32| (Collider::circle(20.0), Transform::from_xyz(x, 100.0, 0.0));
    let [despawned, stripped, disabled, kept] =
        [-300.0, -100.0, 100.0, 300.0].map(|x| spawn(&mut app, ball(x)));
    frames(&mut app, 2);
    let handles = [despawned, stripped, disabled].map(|e| physics(&app).handle(e).expect("body"));
    app.world_mut().resource_scope(|world, physics: Mut<PhysicsWorld>| {
        world.despawn(despawned);
        world.entity_mut(stripped).remove::<Collider>();
        world.entity_mut(disabled).insert(Disabled);
        // Inside the scope the map cannot know yet.
        assert_eq!(physics.len(), 4);
    });
    for (entity, handle) in [despawned, stripped, disabled].into_iter().zip(handles) {
        assert_eq!(physics(&app).handle(entity), None, "{entity} forgotten at the scope's end");
        assert_eq!(physics(&app).entity(handle), None, "{handle:?} names no entity");
    }
    assert_eq!(physics(&app).len(), 1);
    assert!(physics(&app).handle(kept).is_some(), "the others stay as they were");
    app.update();
    assert_eq!(physics(&app).world().body_count(), 1, "the three bodies left the core");
    assert!(
        app.world().get::<Collider>(stripped).is_none() && app.world().get_entity(stripped).is_ok()
    );

    // The disabled one comes back when enabled, as outside a scope.
    app.world_mut().entity_mut(disabled).remove::<Disabled>();
    frames(&mut app, 2);
    assert!(physics(&app).handle(disabled).is_some(), "simulated again");
    assert_eq!(physics(&app).world().body_count(), 2);
}

/// Bevy's `Disabled` hides an entity from every query that does not name it, the plugin's
/// included: a disabled floor stayed in the core, invisible and still holding the ball up,
/// and a disabled ball kept moving in the core while its entity stood still. Now a disabled
/// body leaves the simulation as on a despawn, the entity staying as it is, and comes back
/// from its components, as a new spawn, when `Disabled` is removed.
#[test]
fn a_disabled_body_leaves_the_simulation_and_comes_back_when_enabled_r_plug_3() {
    use bevy::ecs::entity_disabling::Disabled;

    let mut app = app();
    let floor = spawn(
        &mut app,
        (
            Collider::rectangle(400.0, 40.0),
            RigidBody::Static,
            Transform::from_xyz(0.0, -100.0, 0.0),
        ),
    );
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(0.0, 100.0, 0.0)));
    frames(&mut app, 180);
    let y = drawn(&app, ball).y;
    assert!((y - -60.0).abs() < 2.5, "the ball rests on the floor, y = {y}");

    // The floor disabled: out of the simulation at once, its body gone by the next frame.
    app.world_mut().entity_mut(floor).insert(Disabled);
    assert_eq!(physics(&app).handle(floor), None, "forgotten at once");
    app.update();
    assert_eq!(physics(&app).world().body_count(), 1, "the floor's body left the core");
    frames(&mut app, 30);
    let y = drawn(&app, ball).y;
    assert!(y < -150.0, "the ball fell through the disabled floor, y = {y}");
    assert_eq!(drawn(&app, floor), Vec2::new(0.0, -100.0), "the entity stays as it was");
    assert!(app.world().get::<Collider>(floor).is_some());

    // Enabled again: simulated from its components, and the ball lands on it again.
    app.world_mut().entity_mut(floor).remove::<Disabled>();
    app.world_mut().get_mut::<Transform>(ball).expect("transform").translation.y = 100.0;
    frames(&mut app, 180);
    assert!(physics(&app).handle(floor).is_some(), "the floor is simulated again");
    assert_eq!(physics(&app).world().body_count(), 2);
    let y = drawn(&app, ball).y;
    assert!((y - -60.0).abs() < 2.5, "the ball rests on the floor again, y = {y}");

    // The ball disabled: nothing of it in the core, and its entity left where it was.
    app.world_mut().entity_mut(ball).insert(Disabled);
    frames(&mut app, 2);
    assert_eq!(physics(&app).handle(ball), None);
    assert_eq!(physics(&app).len(), 1);
    assert_eq!(physics(&app).world().body_count(), 1, "only the floor is simulated");
    assert!(app.world().get::<Sleeping>(ball).is_none(), "no marker on a body not simulated");
    let still = drawn(&app, ball);
    frames(&mut app, 30);
    assert_eq!(drawn(&app, ball), still);

    // Moved while disabled and enabled: a new spawn where its Transform now says, falling.
    app.world_mut().get_mut::<Transform>(ball).expect("transform").translation =
        Vec3::new(200.0, 100.0, 0.0);
    app.world_mut().entity_mut(ball).remove::<Disabled>();
    frames(&mut app, 10);
    let handle = physics(&app).handle(ball).expect("the ball is simulated again");
    let core = physics(&app).world().body(handle).expect("body").position();
    let pose = get::<PhysicsPose>(&app, ball).current();
    assert_eq!(core, Vec2::new(pose.translation.x + 640.0, 360.0 - pose.translation.y));
    assert_eq!(pose.translation.x, 200.0);
    assert!(pose.translation.y < 100.0 - 5.0, "it falls from where it was put: {pose:?}");
    assert_eq!(physics(&app).world().body_count(), 2);
}
