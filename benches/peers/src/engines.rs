//! One scene, three engines: ours, Box2D v3 (through `boxdd`) and rapier2d.
//!
//! Every engine gets the same bodies in the same order, so body `i` of a scene is body `i`
//! of every engine. Our engine works in px with y down; the peers work in metres at
//! [`PX_PER_METRE`], with gravity along +y as well, so that no coordinate is flipped. What our
//! engine does, the peers are told to do too:
//!
//! * rectangles never rotate (rotation locked); circles roll;
//! * friction mixes by geometric mean `√(μ_A·μ_B)` and restitution by maximum (Box2D's
//!   defaults; rapier is given the `GeometricMean` and `Max` combine rules);
//! * the four walls are static boxes just outside the world rectangle, with our wall
//!   friction and restitution;
//! * one thread, the same fixed step, each engine's default iteration counts (Box2D v3:
//!   4 substeps; rapier: 4 solver iterations);
//! * the same speed limit: our tunnelling limit `max_speed` (1296 px/s) is the peers'
//!   maximum linear speed, so a body falls and hits as fast in every engine;
//! * Box2D also gets our rolling resistance and restitution threshold, which it has;
//!   rapier has neither.

use bevy_sandbox_physics::physics::{BodyKind, PhysicsConfig, Shape, World, scenes::Scene};
use glam::Vec2;

/// Length scale of the peers: 100 px per metre, so 980 px/s² is 9.8 m/s².
pub const PX_PER_METRE: f32 = 100.0;

/// Thickness of the peers' wall boxes, px: far thicker than any body moves in one step.
const WALL_THICKNESS: f32 = 200.0;

/// Box2D v3's default substep count (its samples and benchmarks use 4).
const BOX2D_SUBSTEPS: i32 = 4;

/// The engines compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// `bevy_sandbox_physics`.
    Ours,
    /// Box2D v3 through `boxdd`.
    Box2d,
    /// rapier2d.
    Rapier,
}

impl EngineKind {
    /// All three, in table order.
    pub const ALL: [EngineKind; 3] = [EngineKind::Ours, EngineKind::Box2d, EngineKind::Rapier];

    /// The name used in tables, plots and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Ours => "ours",
            EngineKind::Box2d => "box2d",
            EngineKind::Rapier => "rapier",
        }
    }

    /// Builds `scene` in this engine.
    pub fn build(self, scene: &Scene, sleeping: bool) -> Box<dyn Engine> {
        match self {
            EngineKind::Ours => Box::new(Ours::new(scene, sleeping)),
            EngineKind::Box2d => Box::new(Box2d::new(scene, sleeping)),
            EngineKind::Rapier => Box::new(Rapier::new(scene, sleeping)),
        }
    }
}

/// What the benchmark needs of an engine.
pub trait Engine {
    /// One step of the shared time step.
    fn step(&mut self);
    /// Body centres in px, in scene order.
    fn positions(&mut self) -> Vec<Vec2>;
    /// How many bodies sleep.
    fn asleep(&mut self) -> usize;
}

/// The shared configuration: our defaults, with sleeping on or off.
pub fn config(sleeping: bool) -> PhysicsConfig {
    PhysicsConfig { sleeping_enabled: sleeping, ..PhysicsConfig::default() }
}

/// The four walls as (centre, half extents) in px: boxes just outside `size`.
fn wall_boxes(size: Vec2) -> [(Vec2, Vec2); 4] {
    let t = WALL_THICKNESS;
    let vertical = Vec2::new(0.5 * t, 0.5 * size.y + t);
    let horizontal = Vec2::new(0.5 * size.x + t, 0.5 * t);
    [
        (Vec2::new(-0.5 * t, 0.5 * size.y), vertical),
        (Vec2::new(size.x + 0.5 * t, 0.5 * size.y), vertical),
        (Vec2::new(0.5 * size.x, -0.5 * t), horizontal),
        (Vec2::new(0.5 * size.x, size.y + 0.5 * t), horizontal),
    ]
}

fn metres(px: Vec2) -> Vec2 {
    px / PX_PER_METRE
}

// -------------------------------------------------------------------------------------------
// Ours
// -------------------------------------------------------------------------------------------

struct Ours {
    world: World,
    dt: f32,
}

impl Ours {
    fn new(scene: &Scene, sleeping: bool) -> Self {
        let config = config(sleeping);
        let dt = config.time_step;
        Self { world: scene.build(config).expect("scene builds in our engine"), dt }
    }
}

impl Engine for Ours {
    fn step(&mut self) {
        self.world.step(self.dt).expect("step");
    }

    fn positions(&mut self) -> Vec<Vec2> {
        // Bodies were added in scene order and never removed: handle index = scene index.
        let mut positions = vec![Vec2::NAN; self.world.body_count()];
        for (handle, body) in self.world.bodies() {
            positions[handle.index() as usize] = body.position();
        }
        positions
    }

    fn asleep(&mut self) -> usize {
        self.world.bodies().filter(|(_, b)| b.is_sleeping()).count()
    }
}

// -------------------------------------------------------------------------------------------
// Box2D v3
// -------------------------------------------------------------------------------------------

struct Box2d {
    world: boxdd::World,
    bodies: Vec<boxdd::BodyId>,
    dt: f32,
}

impl Box2d {
    fn new(scene: &Scene, sleeping: bool) -> Self {
        Self::try_new(scene, sleeping).expect("scene builds in Box2D")
    }

    fn try_new(scene: &Scene, sleeping: bool) -> boxdd::Result<Self> {
        use boxdd::{BodyBuilder, BodyType, Foundation, ShapeDef, SurfaceMaterial, WorldBuilder};

        let ours = config(sleeping);
        let foundation = Foundation::initialize_default()?;
        let gravity = metres(ours.gravity);
        let def = WorldBuilder::from(foundation.world_def())
            .gravity([gravity.x, gravity.y])
            .restitution_threshold(ours.restitution_threshold / PX_PER_METRE)
            .maximum_linear_speed(ours.max_speed / PX_PER_METRE)
            .enable_sleep(sleeping)
            .worker_count(boxdd::WorkerCount::new(1)?)
            .build()?;
        let mut world = foundation.create_world(def)?;

        let wall_material = SurfaceMaterial::new()
            .with_friction(ours.wall_friction)?
            .with_restitution(ours.wall_restitution)?;
        let wall_shape = ShapeDef::builder().material(wall_material).build()?;
        for (centre, half) in wall_boxes(scene.size) {
            let (centre, half) = (metres(centre), metres(half));
            let def = BodyBuilder::from(foundation.body_def())
                .body_type(BodyType::Static)
                .position([centre.x, centre.y])
                .build()?;
            let id = world.create_body(def)?;
            world.body(id)?.create_box(&wall_shape, half.x, half.y)?;
        }

        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for desc in &scene.bodies {
            let position = metres(desc.position);
            let velocity = metres(desc.velocity);
            let body_type = match desc.kind {
                BodyKind::Dynamic => BodyType::Dynamic,
                BodyKind::Static => BodyType::Static,
                BodyKind::Kinematic => BodyType::Kinematic,
            };
            let rotates = matches!(desc.shape, Shape::Circle { .. });
            let def = BodyBuilder::from(foundation.body_def())
                .body_type(body_type)
                .position([position.x, position.y])
                .linear_velocity([velocity.x, velocity.y])
                .angular_velocity(if rotates { desc.angular_velocity } else { 0.0 })
                .motion_locks(boxdd::MotionLocks::new(false, false, !rotates))
                .build()?;
            let id = world.create_body(def)?;
            let rolling = if rotates { ours.rolling_resistance } else { 0.0 };
            let material = SurfaceMaterial::new()
                .with_friction(desc.material.friction)?
                .with_restitution(desc.material.restitution)?
                .with_rolling_resistance(rolling)?;
            let shape =
                ShapeDef::builder().material(material).density(desc.material.density).build()?;
            match desc.shape {
                Shape::Circle { radius } => {
                    world.body(id)?.create_centered_circle(&shape, radius / PX_PER_METRE)?;
                }
                Shape::Rect { half_extents } => {
                    let half = metres(half_extents);
                    world.body(id)?.create_box(&shape, half.x, half.y)?;
                }
            }
            bodies.push(id);
        }
        Ok(Self { world, bodies, dt: ours.time_step })
    }
}

impl Engine for Box2d {
    fn step(&mut self) {
        // No event is read: the completed step is only checked for a late failure.
        let completed = self.world.step(self.dt, BOX2D_SUBSTEPS).expect("Box2D step");
        drop(completed.into_result().expect("Box2D step"));
    }

    fn positions(&mut self) -> Vec<Vec2> {
        let ids = self.bodies.clone();
        ids.into_iter()
            .map(|id| {
                let body = self.world.body(id).expect("Box2D body");
                body.position().map(|p| Vec2::new(p.x, p.y) * PX_PER_METRE).unwrap_or(Vec2::NAN)
            })
            .collect()
    }

    fn asleep(&mut self) -> usize {
        let ids = self.bodies.clone();
        ids.into_iter()
            .filter(|&id| !self.world.body(id).and_then(|b| b.is_awake()).unwrap_or(true))
            .count()
    }
}

// -------------------------------------------------------------------------------------------
// rapier2d
// -------------------------------------------------------------------------------------------

struct Rapier {
    world: rapier2d::prelude::PhysicsWorld,
    bodies: Vec<rapier2d::prelude::RigidBodyHandle>,
}

impl Rapier {
    fn new(scene: &Scene, sleeping: bool) -> Self {
        use rapier2d::prelude::{
            CoefficientCombineRule, ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector,
        };

        let ours = config(sleeping);
        let mut world = PhysicsWorld::default();
        let gravity = metres(ours.gravity);
        world.gravity = Vector::new(gravity.x, gravity.y);
        world.integration_parameters.dt = ours.time_step;
        // length_unit is 1 (metres), so the normalised speed limit is in m/s.
        world.integration_parameters.normalized_max_linear_velocity = ours.max_speed / PX_PER_METRE;

        let combine = |collider: ColliderBuilder| {
            collider
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution_combine_rule(CoefficientCombineRule::Max)
        };
        for (centre, half) in wall_boxes(scene.size) {
            let (centre, half) = (metres(centre), metres(half));
            world.insert(
                RigidBodyBuilder::fixed().translation(Vector::new(centre.x, centre.y)),
                combine(ColliderBuilder::cuboid(half.x, half.y))
                    .friction(ours.wall_friction)
                    .restitution(ours.wall_restitution),
            );
        }

        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for desc in &scene.bodies {
            let position = metres(desc.position);
            let velocity = metres(desc.velocity);
            let mut body = match desc.kind {
                BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
                BodyKind::Static => RigidBodyBuilder::fixed(),
                BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
            }
            .translation(Vector::new(position.x, position.y))
            .linvel(Vector::new(velocity.x, velocity.y))
            .can_sleep(sleeping);
            let collider = match desc.shape {
                Shape::Circle { radius } => {
                    body = body.angvel(desc.angular_velocity);
                    ColliderBuilder::ball(radius / PX_PER_METRE)
                }
                Shape::Rect { half_extents } => {
                    body = body.lock_rotations();
                    let half = metres(half_extents);
                    ColliderBuilder::cuboid(half.x, half.y)
                }
            };
            let collider = combine(collider)
                .density(desc.material.density)
                .friction(desc.material.friction)
                .restitution(desc.material.restitution);
            let (handle, _) = world.insert(body, collider);
            bodies.push(handle);
        }
        Self { world, bodies }
    }
}

impl Engine for Rapier {
    fn step(&mut self) {
        self.world.step();
    }

    fn positions(&mut self) -> Vec<Vec2> {
        self.bodies
            .iter()
            .map(|&h| {
                let t = self.world.bodies[h].translation();
                Vec2::new(t.x, t.y) * PX_PER_METRE
            })
            .collect()
    }

    fn asleep(&mut self) -> usize {
        self.bodies.iter().filter(|&&h| self.world.bodies[h].is_sleeping()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_sandbox_physics::physics::BodyDesc;

    /// The same scene means the same world in every engine: a ball and a box dropped onto
    /// the floor come to rest on it, where our engine puts them. This checks the px–metre
    /// scaling, the direction of gravity and the placement of the peers' walls.
    #[test]
    fn every_engine_rests_a_ball_and_a_box_on_the_same_floor() {
        let scene = Scene {
            name: "drop".into(),
            size: Vec2::new(800.0, 600.0),
            bodies: vec![
                BodyDesc::circle(20.0, Vec2::new(200.0, 100.0)),
                BodyDesc::rect(Vec2::new(60.0, 40.0), Vec2::new(600.0, 150.0)),
            ],
        };
        for kind in EngineKind::ALL {
            let mut engine = kind.build(&scene, false);
            for _ in 0..360 {
                engine.step();
            }
            let p = engine.positions();
            // Each engine may leave up to its slop (0.5 px here) in a resting contact.
            assert!(
                (p[0] - Vec2::new(200.0, 580.0)).length() < 1.0,
                "{}: ball at {}",
                kind.name(),
                p[0]
            );
            assert!(
                (p[1] - Vec2::new(600.0, 580.0)).length() < 1.0,
                "{}: box at {}",
                kind.name(),
                p[1]
            );
        }
    }
}
