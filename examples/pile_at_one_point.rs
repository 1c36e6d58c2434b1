//! Issue 14, R-REST-4: 5,000 bodies added at one point, then stepped for 10 s.
//!
//! Prints the time of the slowest step of each second, the deepest body–body overlap, the
//! peak memory of the process (`VmHWM` of `/proc/self/status`, Linux only) and whether any
//! body went NaN or left the world. Core only, and meant for the release build:
//!
//! ```sh
//! cargo run --release --no-default-features --example pile_at_one_point [COUNT] [WIDTH] [HEIGHT]
//! ```
//!
//! Defaults: 5,000 bodies in a 4800 × 2400 px world. For diagnosis: `PILE_GRID=1` drops the
//! same bodies from a 44 px grid instead (a reference pile without overlaps at the start),
//! `PILE_JITTER=1` spreads the start points over ±4 px, `PILE_ITER=n` sets
//! `position_iterations`, `PILE_SHAPE=1` prints the heap's height per 200 px column at the end.

use std::time::{Duration, Instant};

use bevy_sandbox_physics::physics::{BodyDesc, PhysicsConfig, World, collide, scenes};
use glam::Vec2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<f32>());
    let count = args.next().transpose()?.unwrap_or(5000.0) as usize;
    let width = args.next().transpose()?.unwrap_or(4800.0);
    let height = args.next().transpose()?.unwrap_or(2400.0);
    let mut config = PhysicsConfig::default();
    if let Some(n) = std::env::var("PILE_ITER").ok().and_then(|v| v.parse().ok()) {
        config.position_iterations = n;
    }
    let dt = config.time_step;
    let slop = config.penetration_slop;
    let size = Vec2::new(width, height);
    let mut world = World::new(size, config)?;
    let point = size / 2.0;
    // PILE_GRID=1: the same bodies on a 44 px grid instead, as a reference pile that starts
    // without overlaps.
    let grid = std::env::var_os("PILE_GRID").is_some();
    let columns = ((width - 44.0) / 44.0) as usize;
    for (i, desc) in scenes::at_one_point(count, size).bodies.into_iter().enumerate() {
        let at = if grid {
            Vec2::new(44.0 + (i % columns) as f32 * 44.0, 44.0 + (i / columns) as f32 * 44.0)
        } else if std::env::var_os("PILE_JITTER").is_some() {
            // Diagnosis: centres spread over ±4 px, so no two coincide.
            let a = i as f32 * 2.399_963;
            point + Vec2::new(a.cos(), a.sin()) * (4.0 * (i as f32 / count as f32).sqrt())
        } else {
            point
        };
        world.add_body(BodyDesc { position: at, ..desc })?;
    }
    println!("{count} bodies at {point} in a {width} × {height} px world, dt = {dt} s");
    println!("peak memory after adding: {}", peak_memory());
    let steps_per_second = (1.0 / dt).round() as usize;
    let mut slowest_overall = Duration::ZERO;
    for second in 1..=10 {
        let mut slowest = Duration::ZERO;
        let mut total = Duration::ZERO;
        for _ in 0..steps_per_second {
            let start = Instant::now();
            world.step(dt)?;
            let elapsed = start.elapsed();
            if second == 1 && total.is_zero() {
                println!("first step: {elapsed:?}, {} pairs", world.stats().pairs);
            }
            slowest = slowest.max(elapsed);
            total += elapsed;
        }
        slowest_overall = slowest_overall.max(slowest);
        let ((deepest, deep), bad) = (deepest_overlap(&world, slop + 1.0), broken_bodies(&world));
        println!(
            "t = {second:2} s: slowest step {slowest:?}, mean {:?}, pairs {}, deepest overlap \
             {deepest:.2} px, {deep} pairs deeper than slop + 1 = {:.1} px, NaN or outside: {bad}, \
             awake {}",
            total / steps_per_second as u32,
            world.stats().pairs,
            slop + 1.0,
            world.stats().awake,
        );
    }
    if std::env::var_os("PILE_SHAPE").is_some() {
        // Diagnosis: the height of the heap in 200 px columns.
        let mut top = vec![f32::INFINITY; (width / 200.0).ceil() as usize];
        for (_, b) in world.bodies() {
            let column = ((b.position().x / 200.0) as usize).min(top.len() - 1);
            top[column] = top[column].min(b.position().y);
        }
        let heights: Vec<i32> = top.iter().map(|t| (height - t.min(height)) as i32).collect();
        println!("heap height per 200 px column: {heights:?}");
    }
    println!("slowest step overall: {slowest_overall:?}; peak memory: {}", peak_memory());
    Ok(())
}

/// The deepest overlap of any two bodies, px, and how many pairs overlap more than `limit`:
/// every pair tested (fine for a measurement).
fn deepest_overlap(world: &World, limit: f32) -> (f32, usize) {
    let bodies: Vec<_> = world.bodies().map(|(_, b)| (b.shape(), b.position())).collect();
    let mut deepest = 0.0_f32;
    let mut deep = 0;
    for (i, (sa, pa)) in bodies.iter().enumerate() {
        for (sb, pb) in &bodies[i + 1..] {
            if let Some(m) = collide(sa, *pa, sb, *pb) {
                deepest = deepest.max(m.depth);
                deep += usize::from(m.depth > limit);
            }
        }
    }
    (deepest, deep)
}

/// Bodies with a non-finite position or velocity, or outside the world.
fn broken_bodies(world: &World) -> usize {
    let (min, max) = world.bounds();
    world
        .bodies()
        .filter(|(_, b)| {
            let (p, v) = (b.position(), b.velocity());
            !p.is_finite() || !v.is_finite() || p.cmplt(min).any() || p.cmpgt(max).any()
        })
        .count()
}

/// `VmHWM` (peak resident memory) from `/proc/self/status`, or why it is unknown.
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM")).map(|l| l.to_string()))
        .unwrap_or_else(|| "VmHWM unknown (no /proc/self/status)".to_string())
}
