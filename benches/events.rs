//! `cargo bench --no-default-features --bench events`: what collision events, sensors and
//! layers cost per step (issue 15, R-GAME-1..3).
//!
//! ```sh
//! cargo bench --no-default-features --bench events            # every case
//! cargo bench --no-default-features --bench events -- large   # the cases whose id matches
//! ```
//!
//! Each scene is timed as it is (`plain`), with every body reporting its contacts
//! (`events_all`, the aim: at most 5 % above `plain` at 10,000 bodies), and with every body
//! on a layer of its own that meets all layers (`layers_all`: the broad phase's layer test
//! on every pair, with the same pairs). Sleeping is off, so that every contact is found and
//! looked up every step. Each case runs its scene for a few simulated seconds first, then
//! criterion times single steps of the still-running world.

use std::time::Duration;

use bevy_sandbox_physics::physics::{
    BodyDesc, CollisionLayers, PhysicsConfig, World,
    scenes::{self, Scene},
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Simulated seconds before timing: the pile has formed.
const SETTLE_SECONDS: f32 = 5.0;

/// How the bodies of a scene are changed before they are added.
#[derive(Clone, Copy)]
enum Variant {
    Plain,
    EventsAll,
    LayersAll,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::EventsAll => "events_all",
            Variant::LayersAll => "layers_all",
        }
    }

    fn apply(self, index: usize, desc: BodyDesc) -> BodyDesc {
        match self {
            Variant::Plain => desc,
            Variant::EventsAll => desc.with_collision_events(),
            // On one of 32 layers, meeting all: the same pairs, each tested for its layers.
            Variant::LayersAll => {
                desc.with_layers(CollisionLayers::new(1 << (index % 32), u32::MAX))
            }
        }
    }
}

/// `scene` with `variant`, after [`SETTLE_SECONDS`] of simulation, sleeping off.
fn prepared(scene: &Scene, variant: Variant) -> World {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut world = World::new(scene.size, config.clone()).expect("world");
    for (index, desc) in scene.bodies.iter().enumerate() {
        world.add_body(variant.apply(index, *desc)).expect("body");
    }
    for _ in 0..(SETTLE_SECONDS / config.time_step) as usize {
        world.step(config.time_step).expect("step");
    }
    world
}

fn events(c: &mut Criterion) {
    let mut group = c.benchmark_group("events");
    group.sample_size(20).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for scene in [scenes::large(10_000, 5), scenes::mixed(2_000, 3)] {
        group.throughput(Throughput::Elements(scene.bodies.len() as u64));
        for variant in [Variant::Plain, Variant::EventsAll, Variant::LayersAll] {
            let id = BenchmarkId::new(&scene.name, variant.name());
            let mut world: Option<World> = None;
            group.bench_function(id, |b| {
                let world = world.get_or_insert_with(|| prepared(&scene, variant));
                let dt = world.config().time_step;
                b.iter(|| world.step(dt).expect("step"));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, events);
criterion_main!(benches);
