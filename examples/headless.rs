//! The physics core on its own: no Bevy, no window.
//!
//! Drops a ball of each material, a small box tower and a pile of mixed bodies into an
//! 800 × 600 px world, runs the fixed-step loop until everything sleeps, and prints where
//! each body came to rest. Build it without Bevy:
//!
//! ```sh
//! cargo run --no-default-features --example headless
//! ```

use bevy_sandbox_physics::physics::{
    BodyDesc, FixedTimestep, Material, PhysicsConfig, Shape, World,
};
use glam::Vec2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = PhysicsConfig::default();
    let mut world = World::new(Vec2::new(800.0, 600.0), config.clone())?;

    for (i, (name, material)) in Material::PRESETS.iter().enumerate() {
        let x = 100.0 + 80.0 * i as f32;
        world.add_body(BodyDesc::circle(20.0, Vec2::new(x, 100.0)).with_material(*material))?;
        println!("{name:>7} ball dropped at x = {x}");
    }
    for level in 0..5 {
        let y = 580.0 - 40.25 * level as f32;
        world.add_body(BodyDesc::rect(Vec2::splat(40.0), Vec2::new(600.0, y)))?;
    }
    world.add_body(BodyDesc::new(Shape::rect(120.0, 30.0), Vec2::new(420.0, 300.0)))?;

    // The fixed-step loop of §3, fed with a steady 60 Hz "frame" clock.
    let mut clock = FixedTimestep::new(config.time_step, config.max_steps_per_frame);
    let mut seconds = 0.0;
    while seconds < 20.0 {
        for _ in 0..clock.advance(1.0 / 60.0) {
            world.step(config.time_step)?;
        }
        seconds += 1.0 / 60.0;
        if world.stats().awake == 0 {
            break;
        }
    }

    println!(
        "\nafter {seconds:.2} s ({} steps), {} of {} bodies asleep:",
        world.step_count(),
        world.stats().sleeping,
        world.body_count()
    );
    for (handle, body) in world.bodies() {
        let shape = match body.shape() {
            Shape::Circle { radius } => format!("circle r = {radius}"),
            Shape::Rect { half_extents } => {
                format!("box {} × {}", 2.0 * half_extents.x, 2.0 * half_extents.y)
            }
        };
        let p = body.position();
        println!(
            "{handle}: {shape:<18} rests at ({:7.2}, {:7.2}) px{}",
            p.x,
            p.y,
            if body.is_sleeping() { ", asleep" } else { "" }
        );
    }
    Ok(())
}
