//! Where the time of a step goes: ms per step (mean and median) and the per-phase breakdown
//! of `World::step` on the shared benchmark scenes, with sleeping off and on.
//!
//! One command for a profile-guided loop (the core alone, no Bevy):
//!
//! ```sh
//! cargo run --release --no-default-features --example bench_core
//! cargo run --release --no-default-features --example bench_core -- --only rain --sleep off
//! cargo run --release --no-default-features --example bench_core -- --scaling --steps 240
//! ```
//!
//! | option | meaning | default |
//! |---|---|---|
//! | `--only PREFIX,…` | scenes whose name starts with one of these | all |
//! | `--sleep off\|on\|both` | sleeping in the config | both |
//! | `--steps N` | timed steps | 1200 (10 s) |
//! | `--warmup N` | untimed steps before them | 0 (time from the start, as the peer comparison does) |
//! | `--scaling` | also the `large` scenes of the scaling curve (sleeping off) | off |
//!
//! Each row gives the mean and median ms per step, the mean candidate pairs and contacts, the
//! awake bodies at the end, then each phase's mean ms and share of the step; `outside` is
//! the part of the step no phase timer covers. The peer comparison with Box2D v3 and rapier2d
//! is `benches/run_peers.sh`.

#[path = "../benches/support/core_profile.rs"]
mod core_profile;

use bevy_sandbox_physics::physics::scenes;
use core_profile::Profile;

fn main() {
    let mut only: Vec<String> = Vec::new();
    let mut sleep_modes = vec![false, true];
    let (mut steps, mut warmup, mut scaling) = (1_200, 0, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| fail(&format!("{arg} needs a value")));
        match arg.as_str() {
            "--only" => only = value().split(',').map(str::to_owned).collect(),
            "--sleep" => {
                sleep_modes = match value().as_str() {
                    "off" => vec![false],
                    "on" => vec![true],
                    "both" => vec![false, true],
                    other => fail(&format!("--sleep off|on|both, not {other}")),
                }
            }
            "--steps" => steps = value().parse().unwrap_or_else(|e| fail(&format!("--steps: {e}"))),
            "--warmup" => {
                warmup = value().parse().unwrap_or_else(|e| fail(&format!("--warmup: {e}")))
            }
            "--scaling" => scaling = true,
            other => {
                fail(&format!("unknown option {other}; see the docs of examples/bench_core.rs"))
            }
        }
    }
    let wanted = |name: &str| only.is_empty() || only.iter().any(|p| name.starts_with(p.as_str()));

    println!("{}", Profile::header());
    for scene in scenes::benchmarks().iter().filter(|s| wanted(&s.name)) {
        for &sleeping in &sleep_modes {
            let mut world = core_profile::prepared(scene, sleeping, warmup);
            println!("{}", Profile::record(&mut world, steps).row(&scene.name, sleeping));
        }
    }
    if scaling {
        for scene in scenes::scaling().iter().filter(|s| wanted(&s.name)) {
            let mut world = core_profile::prepared(scene, false, warmup);
            println!("{}", Profile::record(&mut world, steps).row(&scene.name, false));
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}
