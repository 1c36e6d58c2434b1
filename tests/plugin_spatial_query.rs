//! Spatial queries through the `SpatialQuery` system parameter, in Bevy's frame (R-GAME-6).
//!
//! The default world is 1280 × 720 px around the origin: walls at x = ±640, y = ±360.
//! Expected hits are analytic: a ray along +x from the origin meets a circle of radius r
//! centred at (c, 0) at x = c − r, with the normal −x.
#![cfg(feature = "bevy")]

mod plugin_support;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_sandbox_physics::physics::{CollisionLayers, PhysicsError, WallId};
use bevy_sandbox_physics::plugin::{EntityOrWall, SpatialHit};
use bevy_sandbox_physics::prelude::*;
use plugin_support::*;

/// Runs `f` as a system with a `SpatialQuery` and returns what it returns.
fn ask<T: Send + 'static>(
    app: &mut App,
    f: impl Fn(SpatialQuery) -> T + Send + Sync + 'static,
) -> T {
    app.world_mut().run_system_once(f).expect("the system runs")
}

/// A still world: gravity off, a circle of radius 20 at (200, 0) and a 40 × 40 box at
/// (0, 200).
fn scene() -> (App, Entity, Entity) {
    let mut app = app();
    gravity_off(&mut app);
    let ball = spawn(&mut app, (Collider::circle(20.0), Transform::from_xyz(200.0, 0.0, 0.0)));
    let crate_ =
        spawn(&mut app, (Collider::rectangle(40.0, 40.0), Transform::from_xyz(0.0, 200.0, 0.0)));
    step_once(&mut app);
    (app, ball, crate_)
}

fn close(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < 1e-3
}

#[test]
fn a_ray_hits_the_circle_at_its_analytic_point_and_normal_r_game_6() {
    let (mut app, ball, _) = scene();
    let hit =
        ask(&mut app, |q| q.cast_ray(Vec2::ZERO, Vec2::X, 1000.0, &SpatialQueryFilter::default()));
    let hit = hit.expect("valid input").expect("a hit");
    assert_eq!(hit.target, EntityOrWall::Entity(ball));
    assert!((hit.distance - 180.0).abs() < 1e-3, "distance {}", hit.distance);
    assert!(close(hit.point, Vec2::new(180.0, 0.0)) && close(hit.normal, -Vec2::X), "{hit:?}");
}

#[test]
fn a_ray_up_meets_the_box_face_with_a_bevy_frame_normal_r_game_6() {
    let (mut app, _, crate_) = scene();
    // Up (+y in Bevy) from the origin: the box's bottom face at y = 180, normal −y.
    let hit = ask(&mut app, |q| {
        q.cast_ray(Vec2::ZERO, Vec2::Y * 5.0, f32::INFINITY, &SpatialQueryFilter::default())
    });
    let hit = hit.expect("valid").expect("a hit");
    assert_eq!(hit.target, EntityOrWall::Entity(crate_));
    assert!(close(hit.point, Vec2::new(0.0, 180.0)) && close(hit.normal, -Vec2::Y), "{hit:?}");
}

#[test]
fn every_hit_in_order_walls_included_and_exclusions_honoured_r_game_6() {
    let (mut app, ball, _) = scene();
    let hits: Vec<SpatialHit> = ask(&mut app, |q| {
        q.ray_hits(Vec2::ZERO, Vec2::X, f32::INFINITY, &SpatialQueryFilter::default())
    })
    .expect("valid");
    let targets: Vec<EntityOrWall> = hits.iter().map(|h| h.target).collect();
    assert_eq!(targets, [EntityOrWall::Entity(ball), EntityOrWall::Wall(WallId::Right)]);
    assert!((hits[1].distance - 640.0).abs() < 1e-3, "the right wall at x = 640");

    let without_ball = move |q: SpatialQuery| {
        q.cast_ray(
            Vec2::ZERO,
            Vec2::X,
            f32::INFINITY,
            &SpatialQueryFilter::default().excluding([ball]),
        )
    };
    let hit = ask(&mut app, without_ball).expect("valid").expect("the wall");
    assert_eq!(hit.target, EntityOrWall::Wall(WallId::Right));
    let no_walls = |q: SpatialQuery| {
        q.cast_ray(
            Vec2::new(0.0, -100.0),
            Vec2::X,
            f32::INFINITY,
            &SpatialQueryFilter::default().with_walls(false),
        )
    };
    assert_eq!(ask(&mut app, no_walls), Ok(None), "nothing but walls on that line");
}

#[test]
fn a_circle_cast_stops_where_the_summed_radius_is_reached_r_game_6() {
    let (mut app, ball, _) = scene();
    // A circle of radius 10 along +x meets the ball (r = 20) when the centres are 30 apart.
    let hit = ask(&mut app, |q| {
        q.cast_shape(
            Collider::circle(10.0),
            Vec2::ZERO,
            Vec2::X,
            1000.0,
            &SpatialQueryFilter::default(),
        )
    });
    let hit = hit.expect("valid").expect("a hit");
    assert_eq!(hit.target, EntityOrWall::Entity(ball));
    assert!((hit.distance - 170.0).abs() < 1e-3, "distance {}", hit.distance);
    assert!(close(hit.point, Vec2::new(180.0, 0.0)), "contact at the ball's surface: {hit:?}");
}

#[test]
fn point_and_box_queries_name_the_entities_and_respect_layers_r_game_6() {
    let (mut app, ball, crate_) = scene();
    let at =
        |p: Vec2| move |q: SpatialQuery| q.point_intersections(p, &SpatialQueryFilter::default());
    assert_eq!(ask(&mut app, at(Vec2::new(215.0, 0.0))), Ok(vec![ball]));
    assert_eq!(ask(&mut app, at(Vec2::new(20.0, 220.0))), Ok(vec![crate_]), "the box's corner");
    assert_eq!(ask(&mut app, at(Vec2::new(100.0, 100.0))), Ok(vec![]));

    let all = ask(&mut app, |q| {
        q.aabb_intersections(Rect::new(-50.0, -50.0, 250.0, 250.0), &SpatialQueryFilter::default())
    });
    let mut all = all.expect("valid");
    all.sort();
    let mut expected = vec![ball, crate_];
    expected.sort();
    assert_eq!(all, expected);
    let none = |q: SpatialQuery| {
        let filter = SpatialQueryFilter::default().with_layers(CollisionLayers::NONE);
        q.aabb_intersections(Rect::new(-50.0, -50.0, 250.0, 250.0), &filter)
    };
    assert_eq!(ask(&mut app, none), Ok(vec![]), "a filter on no layer finds nothing");
}

#[test]
fn hostile_query_input_is_an_error_naming_the_field_r_game_6() {
    let (mut app, _, _) = scene();
    let zero =
        ask(&mut app, |q| q.cast_ray(Vec2::ZERO, Vec2::ZERO, 10.0, &SpatialQueryFilter::default()));
    let nan =
        ask(&mut app, |q| q.ray_hits(Vec2::NAN, Vec2::X, 10.0, &SpatialQueryFilter::default()));
    let negative =
        ask(&mut app, |q| q.cast_ray(Vec2::ZERO, Vec2::X, -1.0, &SpatialQueryFilter::default()));
    let point =
        ask(&mut app, |q| q.point_intersections(Vec2::INFINITY, &SpatialQueryFilter::default()));
    for (error, field) in [
        (zero.map(|_| ()), "direction"),
        (nan.map(|_| ()), "origin"),
        (negative.map(|_| ()), "max_distance"),
        (point.map(|_| ()), "point"),
    ] {
        match error {
            Err(PhysicsError::Invalid(e)) => assert!(e.to_string().contains(field), "{e}"),
            other => panic!("{field}: expected an error, got {other:?}"),
        }
    }
}

/// How a body leaves the simulation in the middle of a frame: its body stays in the core
/// until the next frame starts, with no entity to name. Done inside
/// `World::resource_scope::<PhysicsWorld>`, the entity stayed linked until then, and the
/// queries of that frame named it (first a despawned one; after that fix, still a parented
/// one, since only the despawned were skipped); now it is unlinked when the scope ends.
/// Every way answers as for any body that left.
#[derive(Clone, Copy, Debug)]
enum Departure {
    Despawned,
    ColliderRemoved,
    Parented,
}

#[test]
fn a_body_that_left_this_frame_neither_answers_nor_hides_what_lies_behind_it_r_game_6() {
    let departures = [Departure::Despawned, Departure::ColliderRemoved, Departure::Parented];
    for (departure, in_scope) in departures.into_iter().flat_map(|d| [(d, false), (d, true)]) {
        let mut app = app();
        gravity_off(&mut app);
        let wall = |x: f32| {
            (Collider::rectangle(40.0, 200.0), RigidBody::Static, Transform::from_xyz(x, 0.0, 0.0))
        };
        let near = spawn(&mut app, wall(100.0));
        let far = spawn(&mut app, wall(300.0));
        let parent = spawn(&mut app, Transform::default());
        frames(&mut app, 2);
        let depart = |world: &mut World| match departure {
            Departure::Despawned => {
                world.despawn(near);
            }
            Departure::ColliderRemoved => {
                world.entity_mut(near).remove::<Collider>();
            }
            Departure::Parented => {
                world.entity_mut(near).insert(ChildOf(parent));
            }
        };
        if in_scope {
            let linked = app.world_mut().resource_scope(|world, physics: Mut<PhysicsWorld>| {
                depart(world);
                physics.handle(near).is_some()
            });
            // Not vacuous: inside the scope the body could not be unlinked at once.
            assert!(linked, "{departure:?}: linked while the scope runs");
            assert_eq!(physics(&app).handle(near), None, "{departure:?}: unlinked at its end");
        } else {
            depart(app.world_mut());
            assert_eq!(physics(&app).handle(near), None, "{departure:?}: unlinked at once");
        }
        let departure = (departure, in_scope);

        let (ray, cast, all, at, boxed) = ask(&mut app, |q| {
            let filter = SpatialQueryFilter::default();
            (
                q.cast_ray(Vec2::ZERO, Vec2::X, 1000.0, &filter),
                q.cast_shape(Collider::circle(15.0), Vec2::ZERO, Vec2::X, 1000.0, &filter),
                q.ray_hits(Vec2::ZERO, Vec2::X, 1000.0, &filter),
                q.point_intersections(Vec2::new(100.0, 0.0), &filter),
                q.aabb_intersections(Rect::new(50.0, -50.0, 350.0, 50.0), &filter),
            )
        });
        // The far box's face at x = 280; the circle of radius 15 touches it 15 px earlier.
        let ray = ray.expect("valid").expect("the far box behind the one that left");
        assert_eq!(ray.target, EntityOrWall::Entity(far), "{departure:?}: cast_ray");
        assert!((ray.distance - 280.0).abs() < 1e-3, "{departure:?}: {ray:?}");
        let cast = cast.expect("valid").expect("the far box behind the one that left");
        assert_eq!(cast.target, EntityOrWall::Entity(far), "{departure:?}: cast_shape");
        assert!((cast.distance - 265.0).abs() < 1e-3, "{departure:?}: {cast:?}");
        let all: Vec<EntityOrWall> = all.expect("valid").iter().map(|h| h.target).collect();
        assert_eq!(all, [EntityOrWall::Entity(far), EntityOrWall::Wall(WallId::Right)]);
        assert_eq!(at, Ok(vec![]), "{departure:?}: nothing at the departed box's centre");
        assert_eq!(boxed, Ok(vec![far]), "{departure:?}: the box query");

        // With the far box gone too, the ray ends at the wall rather than at nothing.
        app.world_mut().despawn(far);
        let ray = ask(&mut app, |q| {
            q.cast_ray(Vec2::ZERO, Vec2::X, 1000.0, &SpatialQueryFilter::default())
        });
        let ray = ray.expect("valid").expect("the right wall");
        assert_eq!(ray.target, EntityOrWall::Wall(WallId::Right), "{departure:?}");
        app.update();
        assert_eq!(physics(&app).handle(near), None, "{departure:?}: out in the next frame");
    }
}

/// A body added straight into the core (`PhysicsWorld::world_mut`) has no entity to name: the
/// casts took it as their first hit, found no entity and answered `None`, though a body with
/// an entity (or a wall) lay behind it, while `ray_hits` looked past it. Now the casts look
/// past it too, in a world that goes on stepping with it.
#[test]
fn a_body_without_an_entity_hides_nothing_from_the_casts_r_game_6() {
    use bevy_sandbox_physics::physics::BodyDesc;

    let mut app = app();
    gravity_off(&mut app);
    let far = spawn(
        &mut app,
        (Collider::rectangle(40.0, 200.0), RigidBody::Static, Transform::from_xyz(300.0, 0.0, 0.0)),
    );
    frames(&mut app, 2);
    let mut physics_mut = app.world_mut().resource_mut::<PhysicsWorld>();
    let near = physics_mut.mapping().position_to_core(Vec2::new(100.0, 0.0));
    let desc = BodyDesc::rect(Vec2::new(40.0, 200.0), near).fixed();
    let core_only = physics_mut.world_mut().add_body(desc).expect("a valid body");
    frames(&mut app, 2);
    assert!(physics(&app).world().body(core_only).is_some(), "still in the core");
    assert_eq!(physics(&app).entity(core_only), None, "with no entity");

    let (ray, cast, all) = ask(&mut app, |q| {
        let filter = SpatialQueryFilter::default();
        (
            q.cast_ray(Vec2::ZERO, Vec2::X, 1000.0, &filter),
            q.cast_shape(Collider::circle(15.0), Vec2::ZERO, Vec2::X, 1000.0, &filter),
            q.ray_hits(Vec2::ZERO, Vec2::X, 1000.0, &filter),
        )
    });
    // The far box's face at x = 280; the circle of radius 15 touches it 15 px earlier.
    let ray = ray.expect("valid").expect("the box with an entity behind");
    assert_eq!(ray.target, EntityOrWall::Entity(far), "cast_ray");
    assert!((ray.distance - 280.0).abs() < 1e-3, "{ray:?}");
    let cast = cast.expect("valid").expect("the box with an entity behind");
    assert_eq!(cast.target, EntityOrWall::Entity(far), "cast_shape");
    assert!((cast.distance - 265.0).abs() < 1e-3, "{cast:?}");
    let all: Vec<EntityOrWall> = all.expect("valid").iter().map(|h| h.target).collect();
    assert_eq!(all, [EntityOrWall::Entity(far), EntityOrWall::Wall(WallId::Right)], "ray_hits");

    // With the far box gone, the casts end at the wall rather than at nothing.
    app.world_mut().despawn(far);
    frames(&mut app, 2);
    let (ray, cast) = ask(&mut app, |q| {
        let filter = SpatialQueryFilter::default();
        (
            q.cast_ray(Vec2::ZERO, Vec2::X, 1000.0, &filter),
            q.cast_shape(Collider::circle(15.0), Vec2::ZERO, Vec2::X, 1000.0, &filter),
        )
    });
    assert_eq!(ray.expect("valid").expect("the wall").target, EntityOrWall::Wall(WallId::Right));
    assert_eq!(cast.expect("valid").expect("the wall").target, EntityOrWall::Wall(WallId::Right));
}
