//! Breakout on the plugin's game API: every feature a game needs, in one short file.
//!
//! * a **kinematic** paddle (`RigidBody::Kinematic`) moved by its velocity;
//! * balls launched by an **impulse** (`PhysicsWorld::apply_impulse`), floating with a
//!   **gravity scale** of 0, on a **layer** of their own so that they pass through each other;
//! * bricks that break through **collision observers** (`On<CollisionStart>` on each brick);
//! * a **sensor** gate worth bonus points, counted from the `CollisionStart` **messages**;
//! * an **open world**: the floor wall is off, and a sensor below the paddle catches lost balls;
//! * the aim line is a **ray cast** (`SpatialQuery`) to the first brick or wall in its way,
//!   looking through the sensors' layer.
//!
//! `cargo run --example game`. Score and lives are in the window title.
//!
//! | input | action |
//! |---|---|
//! | ← → or A D | move the paddle |
//! | Q E | turn the aim |
//! | Space | launch the ball on the paddle |
//! | B | one more ball on the paddle |
//! | R | new game |

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_sandbox_physics::physics::{CollisionLayers, Material};
use bevy_sandbox_physics::plugin::{CollisionEventsEnabled, CollisionStart, EntityOrWall, Sensor};
use bevy_sandbox_physics::prelude::*;

/// The balls' layer.
const BALLS: u32 = 0b01;
/// The sensors' layer, which the aim line looks through.
const SENSORS: u32 = 0b10;
const BALL_RADIUS: f32 = 12.0;
const BALL_SPEED: f32 = 520.0;
const PADDLE_Y: f32 = -300.0;
const PADDLE_SPEED: f32 = 700.0;
/// Friction 0 and restitution 1: the ball keeps its speed.
const BOUNCY: Material = Material { density: 1.0, friction: 0.0, restitution: 1.0 };

fn main() {
    App::new()
        // A game: no tuning panel, and no dragging bodies with the pointer.
        .add_plugins((DefaultPlugins, SandboxPhysicsPlugin::default().panel(false).picking(false)))
        .insert_resource(PhysicsWalls { floor: false, ..PhysicsWalls::ALL })
        .init_resource::<Game>()
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
        })
        .add_systems(Update, (new_game.run_if(no_paddle), play, count_gates, draw).chain())
        .run();
}

#[derive(Resource)]
struct Game {
    score: u32,
    lives: u32,
    aim: f32,
}

impl Default for Game {
    fn default() -> Self {
        Self { score: 0, lives: 3, aim: 0.3 }
    }
}

#[derive(Component)]
struct Paddle;

/// A ball; `held` while it waits on the paddle.
#[derive(Component)]
struct Ball {
    held: bool,
}

#[derive(Component)]
struct Gate;

fn no_paddle(paddles: Query<(), With<Paddle>>) -> bool {
    paddles.is_empty()
}

fn new_game(mut commands: Commands, mut game: ResMut<Game>) {
    *game = Game::default();
    commands.spawn((
        Paddle,
        Collider::rectangle(140.0, 24.0),
        RigidBody::Kinematic,
        Transform::from_xyz(0.0, PADDLE_Y, 0.0),
        Sprite::from_color(Color::srgb(0.9, 0.9, 0.95), Vec2::new(140.0, 24.0)),
    ));
    spawn_ball(&mut commands, Vec2::new(0.0, PADDLE_Y + 40.0));
    for row in 0..5 {
        let color = Color::hsl(20.0 + 45.0 * row as f32, 0.7, 0.55);
        for column in 0..14 {
            let position = Vec2::new(-552.0 + 85.0 * column as f32, 300.0 - 34.0 * row as f32);
            commands
                .spawn((
                    Collider::rectangle(76.0, 26.0),
                    RigidBody::Static,
                    PhysicsMaterial(BOUNCY),
                    Transform::from_translation(position.extend(0.0)),
                    Sprite::from_color(color, Vec2::new(76.0, 26.0)),
                ))
                .observe(break_brick);
        }
    }
    // A sensor gate across the middle: balls pass through it for a bonus.
    commands.spawn((
        Gate,
        Sensor,
        CollisionLayers::new(SENSORS, u32::MAX),
        Collider::rectangle(300.0, 24.0),
        RigidBody::Static,
        Transform::from_xyz(0.0, 20.0, 0.0),
        Sprite::from_color(Color::srgba(0.3, 0.8, 1.0, 0.25), Vec2::new(300.0, 24.0)),
    ));
    // The drain: a sensor below the paddle, where the floor wall would be.
    commands
        .spawn((
            Sensor,
            Collider::rectangle(1280.0, 24.0),
            RigidBody::Static,
            Transform::from_xyz(0.0, -346.0, 0.0),
            Sprite::from_color(Color::srgba(1.0, 0.2, 0.2, 0.15), Vec2::new(1280.0, 24.0)),
        ))
        .observe(drain);
}

fn spawn_ball(commands: &mut Commands, at: Vec2) {
    commands.spawn((
        Ball { held: true },
        Collider::circle(BALL_RADIUS),
        PhysicsMaterial(BOUNCY),
        GravityScale(0.0),
        CollisionEventsEnabled,
        // On the ball layer, meeting every layer but its own.
        CollisionLayers::new(BALLS, !BALLS),
        Transform::from_translation(at.extend(0.0)),
    ));
}

/// A ball hit this brick: it breaks.
fn break_brick(
    hit: On<CollisionStart>,
    balls: Query<(), With<Ball>>,
    mut commands: Commands,
    mut game: ResMut<Game>,
) {
    if matches!(hit.other, EntityOrWall::Entity(other) if balls.contains(other)) {
        commands.entity(hit.entity).despawn();
        game.score += 10;
    }
}

/// A ball reached the drain: it is lost.
fn drain(
    hit: On<CollisionStart>,
    balls: Query<(), With<Ball>>,
    mut commands: Commands,
    mut game: ResMut<Game>,
) {
    if let EntityOrWall::Entity(ball) = hit.other
        && balls.contains(ball)
    {
        commands.entity(ball).despawn();
        game.lives = game.lives.saturating_sub(1);
    }
}

/// Bonus points for every ball entering the gate, read from the messages.
fn count_gates(
    mut starts: MessageReader<CollisionStart>,
    gates: Query<(), With<Gate>>,
    mut game: ResMut<Game>,
) {
    for start in starts.read() {
        let gate =
            gates.contains(start.entity) || start.other.entity().is_some_and(|e| gates.contains(e));
        if start.sensor && gate {
            game.score += 5;
        }
    }
}

/// The paddle's pose and velocity.
type PaddleMotion = (&'static Transform, &'static mut LinearVelocity);

#[expect(clippy::too_many_arguments, reason = "one system for the whole game's input")]
fn play(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut game: ResMut<Game>,
    mut physics: ResMut<PhysicsWorld>,
    mut paddle: Query<PaddleMotion, (With<Paddle>, Without<Ball>)>,
    mut balls: Query<(Entity, &mut Ball, &mut Transform, &mut LinearVelocity)>,
    everything: Query<Entity, With<Collider>>,
    mut commands: Commands,
) {
    let Ok((paddle_at, mut paddle_velocity)) = paddle.single_mut() else { return };
    if keys.just_pressed(KeyCode::KeyR) || (game.lives == 0 && balls.is_empty()) {
        for entity in &everything {
            commands.entity(entity).despawn();
        }
        return;
    }
    // The paddle: a kinematic body goes where its velocity takes it, walls or not.
    let x = paddle_at.translation.x;
    let left = keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]) && x > -560.0;
    let right = keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]) && x < 560.0;
    paddle_velocity.0.x = PADDLE_SPEED * (f32::from(u8::from(right)) - f32::from(u8::from(left)));
    let turn = f32::from(u8::from(keys.pressed(KeyCode::KeyE)))
        - f32::from(u8::from(keys.pressed(KeyCode::KeyQ)));
    game.aim = (game.aim + turn * 1.5 * time.delta_secs()).clamp(-1.2, 1.2);

    if keys.just_pressed(KeyCode::KeyB) || (balls.is_empty() && game.lives > 0) {
        spawn_ball(&mut commands, Vec2::new(x, PADDLE_Y + 40.0));
    }
    let mass = std::f32::consts::PI * BALL_RADIUS * BALL_RADIUS * BOUNCY.density;
    for (entity, mut ball, mut transform, mut velocity) in &mut balls {
        if ball.held {
            // Riding on the paddle: a teleport every frame.
            transform.translation = Vec3::new(x, PADDLE_Y + 40.0, 0.0);
            velocity.0 = Vec2::ZERO;
            if keys.just_pressed(KeyCode::Space) {
                let direction = Vec2::new(game.aim.sin(), game.aim.cos());
                if physics.apply_impulse(entity, direction * BALL_SPEED * mass).is_ok() {
                    ball.held = false;
                }
            }
        } else if velocity.0.length() > 1.0 {
            // Keep the pace; and never let a ball crawl sideways for ever.
            let mut v = velocity.0.normalize() * BALL_SPEED;
            if v.y.abs() < 0.2 * BALL_SPEED {
                v.y = 0.2 * BALL_SPEED * v.y.signum();
            }
            velocity.0 = v.normalize() * BALL_SPEED;
        }
    }
}

fn draw(
    game: Res<Game>,
    balls: Query<(Entity, &Ball, &Transform)>,
    query: SpatialQuery,
    mut gizmos: Gizmos,
    mut window: Query<&mut Window, With<PrimaryWindow>>,
) {
    for (entity, ball, transform) in &balls {
        let at = transform.translation.truncate();
        gizmos.circle_2d(at, BALL_RADIUS, Color::WHITE);
        if ball.held {
            // The aim line: a ray cast to the first brick or wall in the way, through the
            // sensors (a filter that does not accept their layer) and past the ball itself.
            let direction = Vec2::new(game.aim.sin(), game.aim.cos());
            let filter = SpatialQueryFilter::default()
                .with_layers(CollisionLayers::new(u32::MAX, !SENSORS))
                .excluding([entity]);
            if let Ok(Some(hit)) = query.cast_ray(at, direction, 2000.0, &filter) {
                gizmos.line_2d(at, hit.point, Color::srgb(1.0, 0.9, 0.3));
                gizmos.circle_2d(hit.point, 4.0, Color::srgb(1.0, 0.9, 0.3));
            }
        }
    }
    if let Ok(mut window) = window.single_mut() {
        let title = format!("Breakout: score {}, lives {}", game.score, game.lives);
        if window.title != title {
            window.title = title;
        }
    }
}
