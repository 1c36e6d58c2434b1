//! The smallest app with the plugin: a few bodies falling in a window.
//!
//! A camera, [`SandboxPhysicsPlugin`] and entities with a [`Collider`] and a `Transform`: that is
//! all. The plugin steps the simulation at 120 Hz and moves the transforms smoothly at any
//! frame rate; its debug drawing shows the bodies (each circle has a radius line, so you see
//! it roll), and the walls follow the window. `cargo run --example minimal`
//!
//! | input | action |
//! |---|---|
//! | left drag on a body | drag it; release while moving to throw it |
//! | Space | pause / resume |
//! | N | one step while paused |
//! | G | gravity on / off |
//! | D | debug drawing on / off |
//! | R | reset: remove every body and drop new ones |

use bevy::prelude::*;
use bevy_sandbox_physics::prelude::*;

fn main() {
    let physics = SandboxPhysicsPlugin::default().walls_follow_window(true).debug_draw(true);
    App::new()
        .add_plugins((DefaultPlugins, physics))
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
        })
        .add_systems(Update, (keys, drop_bodies.run_if(no_bodies)))
        .run();
}

fn drop_bodies(mut commands: Commands) {
    for i in 0..8 {
        let (x, y) = (-280.0 + 80.0 * i as f32, 100.0 + 25.0 * i as f32);
        let ball = (Collider::circle(16.0 + 2.0 * i as f32), PhysicsMaterial::RUBBER);
        commands.spawn((ball, Transform::from_xyz(x, y, 0.0)));
        commands.spawn((Collider::rectangle(40.0, 30.0), Transform::from_xyz(x + 20.0, -y, 0.0)));
    }
}

fn no_bodies(bodies: Query<(), With<Collider>>) -> bool {
    bodies.is_empty()
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut controls: ResMut<PhysicsControls>,
    mut draw: ResMut<PhysicsDebugDraw>,
) {
    for key in keys.get_just_pressed() {
        match key {
            KeyCode::Space => controls.toggle_pause(),
            KeyCode::KeyN => controls.request_single_step(),
            KeyCode::KeyG => controls.toggle_gravity(),
            KeyCode::KeyD => draw.enabled = !draw.enabled,
            KeyCode::KeyR => controls.request_clear(),
            _ => {}
        }
    }
}
