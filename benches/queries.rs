//! `cargo bench`: spatial queries (R-GAME-6) in a settled pile of 10,000 circles.
//!
//! ```sh
//! cargo bench --no-default-features --bench queries            # every case, about a minute
//! cargo bench --no-default-features --bench queries -- ray     # the cases whose id matches
//! ```
//!
//! The scene is `scenes::large(10_000, 5)`: 16 rows of circles (12 … 20 px) about 27,600 px
//! wide, settled for one simulated second. Each case cycles through 64 query positions
//! spread over the pile, so that no single lucky spot is timed. All cases but `rebuild_*`
//! reuse the index the first query built; `rebuild_then_ray` moves one body first (a
//! teleport to where it is), so that every iteration pays for the index's rebuild, and
//! `teleport_only` times that teleport alone.

use std::time::Duration;

use bevy_sandbox_physics::physics::{
    BodyDesc, PhysicsConfig, QueryFilter, Shape, World,
    scenes::{self, LARGE_ROWS},
};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;

/// Query positions per case, cycled.
const SPOTS: usize = 64;

/// The settled pile, sleeping off (so that a teleport wakes nothing), and its size. A static
/// ball hangs near the top-left corner, so that the grid spans the air above the pile too
/// and a ray over the pile walks through it.
fn pile() -> (World, Vec2) {
    let scene = scenes::large(10_000, 5);
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut world = scene.build(config).expect("valid scene");
    let lamp = BodyDesc::circle(20.0, Vec2::new(40.0, 40.0)).fixed();
    world.add_body(lamp).expect("valid body");
    let dt = world.config().time_step;
    for _ in 0..120 {
        world.step(dt).expect("step");
    }
    (world, scene.size)
}

fn queries(c: &mut Criterion) {
    let (mut world, size) = pile();
    // The pile fills the bottom `LARGE_ROWS` rows of 44 px cells; x spread over its width.
    let top = size.y - LARGE_ROWS as f32 * 44.0;
    let xs: Vec<f32> = (0..SPOTS).map(|i| size.x * (i as f32 + 0.5) / SPOTS as f32).collect();
    let inside: Vec<Vec2> = xs.iter().map(|&x| Vec2::new(x, size.y - 150.0)).collect();
    let above: Vec<Vec2> = xs.iter().map(|&x| Vec2::new(x, top - 100.0)).collect();
    let filter = QueryFilter::default();
    let mut group = c.benchmark_group("queries");
    group.sample_size(30).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let mut k = 0;
    let mut next = move || {
        k = (k + 1) % SPOTS;
        k
    };

    group.bench_function("point", |b| {
        b.iter(|| world.bodies_at_point(inside[next()], &filter).expect("valid"))
    });
    group.bench_function("aabb_100px", |b| {
        b.iter(|| {
            let p = inside[next()];
            world.bodies_in_aabb(p - 50.0, p + 50.0, &filter).expect("valid")
        })
    });
    group.bench_function("ray_down_onto_pile", |b| {
        b.iter(|| world.ray_cast(above[next()], Vec2::Y, f32::INFINITY, &filter).expect("valid"))
    });
    group.bench_function("ray_diagonal_into_pile", |b| {
        let d = Vec2::new(1.0, 1.0).normalize();
        b.iter(|| world.ray_cast(above[next()], d, f32::INFINITY, &filter).expect("valid"))
    });
    group.bench_function("ray_over_pile_to_wall", |b| {
        // Across the whole width above the pile, under the hanging ball: a stretch per cell
        // of a row of the grid, then the right wall.
        let origin = Vec2::new(10.0, top - 100.0);
        b.iter(|| world.ray_cast(origin, Vec2::X, f32::INFINITY, &filter).expect("valid"))
    });
    group.bench_function("ray_cast_all_down_through_pile", |b| {
        b.iter(|| {
            world.ray_cast_all(above[next()], Vec2::Y, f32::INFINITY, &filter).expect("valid")
        })
    });
    group.bench_function("circle_cast_down_onto_pile", |b| {
        let circle = Shape::circle(15.0);
        b.iter(|| {
            world.shape_cast(circle, above[next()], Vec2::Y, f32::INFINITY, &filter).expect("valid")
        })
    });
    group.bench_function("box_cast_down_onto_pile", |b| {
        let square = Shape::rect(40.0, 40.0);
        b.iter(|| {
            world.shape_cast(square, above[next()], Vec2::Y, f32::INFINITY, &filter).expect("valid")
        })
    });
    let (handle, body) = world.bodies().next().map(|(h, b)| (h, b.position())).expect("a body");
    group.bench_function("rebuild_then_ray", |b| {
        b.iter(|| {
            world.set_position(handle, body).expect("teleport");
            world.ray_cast(above[next()], Vec2::Y, f32::INFINITY, &filter).expect("valid")
        })
    });
    group.bench_function("teleport_only", |b| {
        // What `rebuild_then_ray` spends outside the query.
        b.iter(|| world.set_position(handle, body).expect("teleport"))
    });
    group.finish();
}

criterion_group!(benches, queries);
criterion_main!(benches);
