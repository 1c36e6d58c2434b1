//! `cargo bench --no-default-features --features serde --bench scene_files`: scene files,
//! recording and snapshots (issue 18, R-SCN-1, R-SCN-2).
//!
//! ```sh
//! cargo bench --no-default-features --features serde --bench scene_files
//! cargo bench --no-default-features --features serde --bench scene_files -- save   # matching ids
//! ```
//!
//! - `save/10000`, `load/10000`: a settled pile of 10,000 circles with its solver state
//!   (warm-start impulses) written as RON text, and read and built into a world (aim: each
//!   under 50 ms). `load_description/10000` reads the same file without its solver state.
//! - `step/plain/2000`, `step/recorded/2000`, `step/rewind/2000`: one step of a 2,000-body
//!   pile, bare, through a [`Recorder`] (aim: under 1 % more), and through a recorder with a
//!   10 s timeline (a snapshot every 60 steps, its cost spread over them).
//! - `snapshot/2000`: one snapshot of that pile, and what rewinding needs besides steps.

use std::hint::black_box;
use std::time::Duration;

use bevy_sandbox_physics::physics::{PhysicsConfig, Recorder, SceneFile, Timeline, World, scenes};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// A pile of `count` circles after 3 s: resting, its contacts warm-started.
fn settled(count: usize) -> World {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut world = scenes::large(count, 1).build(config).expect("the scene builds");
    for _ in 0..360 {
        world.step(1.0 / 120.0).expect("a valid step");
    }
    world
}

fn files(c: &mut Criterion) {
    let world = settled(10_000);
    let scene = SceneFile::capture(&world);
    let text = scene.to_ron();
    let description = SceneFile { solver_state: None, ..scene.clone() }.to_ron();
    println!(
        "scene of 10000 bodies: {} bytes, {} without its solver state",
        text.len(),
        description.len()
    );
    let mut group = c.benchmark_group("scene_files");
    group.sample_size(10).measurement_time(Duration::from_secs(4));
    group.bench_function(BenchmarkId::new("save", 10_000), |b| {
        b.iter(|| black_box(SceneFile::capture(black_box(&world)).to_ron()))
    });
    group.bench_function(BenchmarkId::new("load", 10_000), |b| {
        b.iter(|| {
            let scene = SceneFile::from_ron(black_box(&text)).expect("reads");
            black_box(scene.to_world().expect("builds"))
        })
    });
    group.bench_function(BenchmarkId::new("read", 10_000), |b| {
        b.iter(|| black_box(SceneFile::from_ron(black_box(&text)).expect("reads")))
    });
    group.bench_function(BenchmarkId::new("build", 10_000), |b| {
        b.iter(|| black_box(scene.to_world().expect("builds")))
    });
    group.bench_function(BenchmarkId::new("capture", 10_000), |b| {
        b.iter(|| black_box(SceneFile::capture(black_box(&world))))
    });
    group.bench_function(BenchmarkId::new("load_description", 10_000), |b| {
        b.iter(|| {
            let scene = SceneFile::from_ron(black_box(&description)).expect("reads");
            black_box(scene.to_world().expect("builds"))
        })
    });
    group.finish();
}

/// The same 120 steps from the same world, bare, recorded and with a timeline, in turns
/// (so that the machine's drift hits all three alike): the median time of each, per step.
fn paired(world: &World) {
    let mut times: [Vec<f64>; 3] = Default::default();
    for _ in 0..15 {
        for (kind, samples) in times.iter_mut().enumerate() {
            let world = world.clone();
            let start = std::time::Instant::now();
            match kind {
                0 => {
                    let mut world = world;
                    for _ in 0..120 {
                        world.step(1.0 / 120.0).expect("a valid step");
                    }
                    black_box(world);
                }
                1 => {
                    let mut recorder = Recorder::new(world);
                    for _ in 0..120 {
                        recorder.step().expect("a valid step");
                    }
                    black_box(recorder);
                }
                _ => {
                    let timeline = Timeline::covering(10.0, 1.0 / 120.0);
                    let mut recorder =
                        Recorder::with_timeline(world, timeline).expect("an empty timeline");
                    for _ in 0..120 {
                        recorder.step().expect("a valid step");
                    }
                    black_box(recorder);
                }
            }
            samples.push(start.elapsed().as_secs_f64() * 1.0e3 / 120.0);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let [plain, recorded, rewind] = times.each_mut().map(median);
    println!(
        "paired, 2000 bodies, ms/step (median of 15 × 120 steps): plain {plain:.3}, recorded \
         {recorded:.3} ({:+.1} %), with a 10 s timeline {rewind:.3} ({:+.1} %)",
        100.0 * (recorded / plain - 1.0),
        100.0 * (rewind / plain - 1.0)
    );
}

/// The memory of the plugin's default rewind (`PhysicsRewindPlugin`: a snapshot every 12
/// steps, 10 s at 120 Hz, 101 snapshots) over 10 s of the settled 2,000-body pile.
fn plugin_timeline_memory(world: &World) {
    let mut world = world.clone();
    let mut timeline = Timeline::covering_every(10.0, 1.0 / 120.0, 12);
    for _ in 0..1212 {
        world.step(1.0 / 120.0).expect("a valid step");
        timeline.observe(&world);
    }
    println!(
        "plugin rewind of 2000 bodies: {} snapshots every {} steps, {:.1} MB",
        timeline.len(),
        timeline.interval(),
        timeline.memory_bytes() as f64 / 1e6
    );
}

fn recording(c: &mut Criterion) {
    let world = settled(2_000);
    plugin_timeline_memory(&world);
    paired(&world);
    let mut group = c.benchmark_group("scene_files_step");
    group.sample_size(40).measurement_time(Duration::from_secs(5));
    let mut plain = world.clone();
    group.bench_function(BenchmarkId::new("plain", 2_000), |b| {
        b.iter(|| plain.step(1.0 / 120.0).expect("a valid step"))
    });
    let mut recorded = Recorder::new(world.clone());
    group.bench_function(BenchmarkId::new("recorded", 2_000), |b| {
        b.iter(|| recorded.step().expect("a valid step"))
    });
    let mut rewinding =
        Recorder::with_timeline(world.clone(), Timeline::covering(10.0, 1.0 / 120.0))
            .expect("an empty timeline");
    group.bench_function(BenchmarkId::new("rewind", 2_000), |b| {
        b.iter(|| rewinding.step().expect("a valid step"))
    });
    if let Some(timeline) = rewinding.timeline() {
        println!(
            "timeline of 2000 bodies: {} snapshots of at most {}, every {} steps, {} bytes",
            timeline.len(),
            timeline.capacity(),
            timeline.interval(),
            timeline.memory_bytes()
        );
    }
    group.finish();

    let mut group = c.benchmark_group("scene_files_snapshot");
    group.sample_size(40).measurement_time(Duration::from_secs(3));
    group.bench_function(BenchmarkId::new("snapshot", 2_000), |b| {
        b.iter(|| {
            let mut timeline = Timeline::new(1, 2).expect("valid");
            timeline.observe(black_box(&world));
            black_box(timeline)
        })
    });
    group.finish();
}

criterion_group!(benches, files, recording);
criterion_main!(benches);
