//! `cargo bench`: ms per step of our engine per scene and size, sleeping off and on.
//!
//! ```sh
//! cargo bench --no-default-features --bench step            # every case, about 2 minutes
//! cargo bench --no-default-features --bench step -- rain    # the cases whose id matches
//! ```
//!
//! Each case builds its scene, runs it for a few simulated seconds so that the pile has
//! formed (and, with sleeping on, had time to fall asleep), prints the per-phase breakdown
//! of 120 steps, then lets criterion time single steps of the still-running world. A case
//! left out by the filter builds nothing. For the breakdown alone, or a quick profile loop,
//! `examples/bench_core.rs` is faster; the peers are compared by `benches/run_peers.sh`.

#[path = "support/core_profile.rs"]
mod core_profile;

use std::time::Duration;

use bevy_sandbox_physics::physics::{
    World,
    scenes::{self, Scene},
};
use core_profile::Profile;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Simulated seconds before timing: rain_4000 needs about 4 s to land at the speed limit.
const SETTLE_SECONDS: f32 = 5.0;

/// Steps of the printed breakdown.
const PROFILE_STEPS: usize = 120;

/// The cases: the shared scenes at two sizes each, sleeping off and on, and three sizes of
/// the scaling scene, sleeping off.
fn cases() -> Vec<(Scene, bool)> {
    let shared = [
        scenes::pyramid(20, 30.0),
        scenes::pyramid(40, 30.0),
        scenes::rain(1_000, 1),
        scenes::rain(4_000, 1),
        scenes::mixed(500, 3),
        scenes::mixed(2_000, 3),
    ];
    let mut cases: Vec<(Scene, bool)> =
        shared.into_iter().flat_map(|scene| [(scene.clone(), false), (scene, true)]).collect();
    for count in [1_000, 5_000, 20_000] {
        cases.push((scenes::large(count, 5), false));
    }
    cases
}

fn step(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    group.sample_size(20).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let mut printed_header = false;
    for (scene, sleeping) in cases() {
        let id = BenchmarkId::new(&scene.name, if sleeping { "sleep_on" } else { "sleep_off" });
        group.throughput(Throughput::Elements(scene.bodies.len() as u64));
        let mut world: Option<World> = None;
        group.bench_function(id, |b| {
            let world = world.get_or_insert_with(|| {
                let warmup = (SETTLE_SECONDS * 120.0) as usize;
                let mut world = core_profile::prepared(&scene, sleeping, warmup);
                let profile = Profile::record(&mut world, PROFILE_STEPS);
                if !printed_header {
                    eprintln!("{}", Profile::header());
                    printed_header = true;
                }
                eprintln!("{}", profile.row(&scene.name, sleeping));
                world
            });
            let dt = world.config().time_step;
            b.iter(|| world.step(dt).expect("step"));
        });
    }
    group.finish();
}

criterion_group!(benches, step);
criterion_main!(benches);
