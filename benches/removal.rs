//! `cargo bench --no-default-features --bench removal`: the time to clear a world and to
//! remove many of its bodies at once, awake and asleep, from 2,500 to 20,000 bodies
//! (issue 16, issue 19, R-PLUG-3: linear in the bodies, under 5 ms at 20,000).
//!
//! Each case is the `large` pile of that many circles, either as built (awake) or after it
//! has fallen asleep. criterion times the call on a fresh clone of the world each time.

use std::time::Duration;

use bevy_sandbox_physics::physics::{BodyHandle, PhysicsConfig, World, scenes};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const COUNTS: [usize; 4] = [2_500, 5_000, 10_000, 20_000];

/// The pile of `count` circles, awake as built, or stepped until every body sleeps.
fn pile(count: usize, asleep: bool) -> World {
    let config = PhysicsConfig::default();
    let mut world = scenes::large(count, 5).build(config.clone()).expect("scene");
    if asleep {
        for _ in 0..(20 * 120) {
            world.step(config.time_step).expect("step");
            if world.stats().sleeping == count {
                break;
            }
        }
        assert_eq!(world.stats().sleeping, count, "the pile of {count} fell asleep");
    }
    world
}

fn removal(c: &mut Criterion) {
    let mut group = c.benchmark_group("removal");
    group.sample_size(20).warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for asleep in [false, true] {
        for count in COUNTS {
            let world = pile(count, asleep);
            let all: Vec<BodyHandle> = world.handles().collect();
            let every_other: Vec<BodyHandle> = all.iter().copied().step_by(2).collect();
            let state = if asleep { "asleep" } else { "awake" };
            group.throughput(Throughput::Elements(count as u64));
            group.bench_function(BenchmarkId::new(format!("clear/{state}"), count), |b| {
                b.iter_batched_ref(|| world.clone(), |w| w.clear(), BatchSize::LargeInput)
            });
            group.bench_function(BenchmarkId::new(format!("remove_all/{state}"), count), |b| {
                b.iter_batched_ref(
                    || world.clone(),
                    |w| w.remove_bodies(all.iter().copied()),
                    BatchSize::LargeInput,
                )
            });
            group.bench_function(BenchmarkId::new(format!("remove_half/{state}"), count), |b| {
                b.iter_batched_ref(
                    || world.clone(),
                    |w| w.remove_bodies(every_other.iter().copied()),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, removal);
criterion_main!(benches);
