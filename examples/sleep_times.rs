//! When the piles fall asleep (issue 14, R-REST-3): for each scene, the time its last body
//! arrives (its first contact with a body or a wall, as `tests/physics_piles.rs` counts it)
//! and the time every body sleeps.
//!
//! ```sh
//! cargo run --release --no-default-features --example sleep_times [-- NAME_PREFIX …]
//! ```
//!
//! `DIAG=1` prints every 0.5 s how many awake bodies have no rest time and how many are
//! above the thresholds at that moment (speed, spin, moved by the projection); with it,
//! `DEEP=1` adds the contacts deeper than 1 px and `FASTEST=1` the fastest body's material
//! and height. `ITERS=n` runs with `n` velocity passes instead of the default 8. `SEEDS=n`
//! runs the poured, mixed and rained piles with seeds 1 to `n` instead of the scenes above.

use bevy_sandbox_physics::physics::{PhysicsConfig, Shape, World, scenes};

fn main() {
    let filters: Vec<String> = std::env::args().skip(1).collect();
    let mut all = vec![
        scenes::pyramid(20, 30.0),
        scenes::pyramid(40, 30.0),
        scenes::mixed(60, 1),
        scenes::rain(1_000, 1),
    ];
    all.extend(scenes::piles());
    // SEEDS=n: the piles of R-REST-3 with seeds 1 to n instead.
    if let Some(n) = std::env::var("SEEDS").ok().and_then(|n| n.parse::<u64>().ok()) {
        all.clear();
        for seed in 1..=n {
            for mut scene in [
                scenes::mixed(500, seed),
                scenes::mixed(2_000, seed),
                scenes::pour(1_000, seed),
                scenes::pour(4_000, seed),
                scenes::rain(4_000, seed),
            ] {
                scene.name = format!("{}/{seed}", scene.name);
                all.push(scene);
            }
        }
    }
    let mut config = PhysicsConfig::default();
    if let Some(n) = std::env::var("ITERS").ok().and_then(|n| n.parse().ok()) {
        config.velocity_iterations = n;
    }
    let diag = std::env::var_os("DIAG").is_some();
    let dt = config.time_step;
    let limit = (30.0 / dt) as usize;
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.starts_with(f));
    for scene in all.iter().filter(|s| wanted(&s.name)) {
        let mut world = scene.build(config.clone()).expect("scene");
        let mut arrivals = scenes::Arrivals::default();
        let (mut last_arrival, mut asleep) = (None, None);
        let start = std::time::Instant::now();
        for step in 1..=limit {
            world.step(dt).expect("step");
            if last_arrival.is_none() && arrivals.note(&world, scene.bodies.len()) {
                last_arrival = Some(step);
            }
            if diag && step % 60 == 0 {
                print_diagnosis(&world, step as f32 * dt, dt);
            }
            if world.stats().awake == 0 {
                asleep = Some(step);
                break;
            }
        }
        let secs =
            |s: Option<usize>| s.map_or("never".into(), |s| format!("{:.2} s", s as f32 * dt));
        let after = match (last_arrival, asleep) {
            (Some(a), Some(s)) => format!("{:.2} s", (s - a) as f32 * dt),
            _ => "-".into(),
        };
        println!(
            "{:<12} {:>5} bodies  last arrival {:>8}  all asleep {:>8}  after arrival {:>8}  \
             awake at end {:>5}  ({:.1} s wall)",
            scene.name,
            scene.bodies.len(),
            secs(last_arrival),
            secs(asleep),
            after,
            world.stats().awake,
            start.elapsed().as_secs_f32()
        );
    }
}

/// How many awake bodies break the rest rule, and by what.
fn print_diagnosis(world: &World, t: f32, dt: f32) {
    let (mut awake, mut fast, mut spinning, mut pushed, mut reset) = (0, 0, 0, 0, 0);
    let mut fastest = 0.0_f32;
    let mut fastest_body = None;
    for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic() && !b.is_sleeping()) {
        awake += 1;
        let speed = b.velocity().length();
        if speed > fastest {
            fastest_body = Some((b.material(), b.position()));
        }
        fastest = fastest.max(speed);
        fast += usize::from(speed > 4.0);
        let circle = matches!(b.shape(), Shape::Circle { .. });
        spinning += usize::from(circle && b.angular_velocity().abs() > 0.1);
        let moved = b.position() - b.previous_position() - b.velocity() * dt;
        pushed += usize::from(moved.length() > 4.0 * dt);
        reset += usize::from(b.rest_time() == 0.0);
    }
    println!(
        "  t = {t:5.2} s: {awake:5} awake, {reset:5} not resting: {fast:5} |v| > 4, \
         {spinning:5} |ω| > 0.1, {pushed:5} pushed; fastest {fastest:6.1} px/s"
    );
    if std::env::var_os("DEEP").is_some() {
        let depths: Vec<f32> = world.contacts().map(|c| c.depth).filter(|&d| d > 1.0).collect();
        let deepest = depths.iter().copied().fold(0.0, f32::max);
        println!(
            "    {} contacts deeper than 1 px (at detection), deepest {deepest:.2} px",
            depths.len()
        );
    }
    if std::env::var_os("FASTEST").is_some()
        && let Some((material, position)) = fastest_body
    {
        let floor = world.bounds().1.y;
        println!(
            "    fastest: restitution {:.2}, density {:.1}, at {position:.0} ({:.0} px above the floor)",
            material.restitution,
            material.density,
            floor - position.y
        );
    }
}
