//! How long each engine takes to put R-REST-3's piles to sleep (issue 14): `--sleep-times N`.
//!
//! Every pile of [`scenes::piles`], with seeds 1 to N where the scene has one, runs with
//! sleeping on for at most [`LIMIT_STEPS`] steps in every engine; the table gives the time at
//! which the last body fell asleep, and that time less the *last arrival*: the step in which
//! every body of our engine had touched something (as `tests/physics_piles.rs` counts it). A
//! body falls freely until its first contact, so the arrival is the same in every engine to
//! within a step or two; the peers' own contacts are not read.
//!
//! Each engine uses its own sleep rule with its defaults, as a user gets it: ours (4 px/s,
//! 0.1 rad/s, 0.5 s), Box2D v3 (`|v| + r·|ω|`, and half the step's change of position, under
//! 0.05 m/s = 5 px/s for 0.5 s) and rapier 0.36 (0.05 m/s = 5 px/s and 0.5 rad/s for 0.5 s).
//! The times are simulated seconds, not wall-clock time: the machine's load does not move
//! them.

use bevy_sandbox_physics::physics::{PhysicsConfig, scenes};

use crate::engines::{self, EngineKind};

/// At most 20 s of simulated time per run.
pub const LIMIT_STEPS: usize = 2_400;

/// R-REST-3's allowance: asleep within 5 s after the last arrival.
const ALLOWED_S: f32 = 5.0;

/// The piles with seeds `1..=seeds` (the pyramid, which has no seed, once).
fn piles(seeds: u64) -> Vec<scenes::Scene> {
    let mut out = Vec::new();
    for make in [
        |s| scenes::pour(1_000, s),
        |s| scenes::pour(4_000, s),
        |s| scenes::mixed(500, s),
        |s| scenes::mixed(2_000, s),
        |s| scenes::rain(4_000, s),
    ] as [fn(u64) -> scenes::Scene; 5]
    {
        for seed in 1..=seeds {
            let mut scene = make(seed);
            scene.name = format!("{} seed {seed}", scene.name);
            out.push(scene);
        }
    }
    out.push(scenes::pyramid(60, 30.0));
    out
}

/// Our engine's last arrival, in steps: the first step after which every body has touched
/// another body or a wall. `None` if that never happens within the limit.
fn last_arrival(scene: &scenes::Scene) -> Option<usize> {
    let config = engines::config(true);
    let dt = config.time_step;
    let mut world = scene.build(config).expect("scene builds in our engine");
    let mut arrivals = scenes::Arrivals::default();
    (1..=LIMIT_STEPS).find(|_| {
        world.step(dt).expect("step");
        arrivals.note(&world, scene.bodies.len())
    })
}

/// The first step after which every body of `kind` sleeps, or `None` within the limit.
fn asleep_at(scene: &scenes::Scene, kind: EngineKind) -> Option<usize> {
    let mut engine = kind.build(scene, true);
    let n = scene.bodies.len();
    (1..=LIMIT_STEPS).find(|_| {
        engine.step();
        engine.asleep() == n
    })
}

/// Runs every pile in every engine of `engines` and returns the markdown: a summary per
/// pile and engine (how many seeds met R-REST-3, and the range of the times after the
/// arrival), then every run.
pub fn run(seeds: u64, engines: &[EngineKind]) -> String {
    let dt = PhysicsConfig::default().time_step;
    let secs = |steps: usize| steps as f32 * dt;
    let cell = |t: Option<f32>| t.map_or("> 20".into(), |t| format!("{t:.2}"));
    let mut runs = String::from(
        "| scene | last arrival s | engine | all asleep s | after the arrival s | within 5 s |\n\
         |---|--:|---|--:|--:|---|\n",
    );
    // (pile, engine) → the times after the arrival, `None` for a run not asleep in time.
    let mut by_pile: Vec<(String, EngineKind, Vec<Option<f32>>)> = Vec::new();
    for scene in piles(seeds) {
        let arrival = last_arrival(&scene);
        let pile = scene.name.split(' ').next().unwrap_or_default().to_owned();
        for &kind in engines {
            let asleep = asleep_at(&scene, kind);
            let after = match (arrival, asleep) {
                (Some(a), Some(s)) => Some(secs(s) - secs(a)),
                _ => None,
            };
            let within = if after.is_some_and(|t| t <= ALLOWED_S) { "yes" } else { "**no**" };
            let line = format!(
                "| {} | {} | {} | {} | {} | {within} |\n",
                scene.name,
                cell(arrival.map(secs)),
                kind.name(),
                cell(asleep.map(secs)),
                cell(after),
            );
            eprint!("{line}");
            runs.push_str(&line);
            match by_pile.iter_mut().find(|(p, k, _)| *p == pile && *k == kind) {
                Some((_, _, times)) => times.push(after),
                None => by_pile.push((pile.clone(), kind, vec![after])),
            }
        }
    }
    let mut summary = String::from(
        "| pile | engine | runs within 5 s | after the arrival s (least – most) |\n\
         |---|---|--:|---|\n",
    );
    for (pile, kind, times) in &by_pile {
        let within = times.iter().filter(|t| t.is_some_and(|t| t <= ALLOWED_S)).count();
        let least = times.iter().map(|t| t.unwrap_or(f32::INFINITY)).fold(f32::INFINITY, f32::min);
        let most = times.iter().map(|t| t.unwrap_or(f32::INFINITY)).fold(0.0, f32::max);
        let finite = |t: f32| cell(t.is_finite().then_some(t));
        let (least, most) = (finite(least), finite(most));
        let span = if least == most { least } else { format!("{least} – {most}") };
        summary.push_str(&format!(
            "| {pile} | {} | {within} of {} | {span} |\n",
            kind.name(),
            times.len(),
        ));
    }
    format!("## Summary\n\n{summary}\n## Every run\n\n{runs}")
}
