//! The physics core: a 2D world of circles and axis-aligned rectangles, in pure Rust
//! (glam and std only; no Bevy anywhere below this module, R-ARCH-1).
//!
//! It implements the project's physics model, section by section; `docs/physics.md` explains
//! each section (`§n` in the code refers to it) and lists where the implementation departs
//! from the original specification. Each module's docs explain what it computes and why,
//! next to the code that does it:
//!
//! | § | topic | where |
//! |---|---|---|
//! | 1 | units and coordinates: px, s, y down, `a × b = a.x·b.y − a.y·b.x` | `math.rs` |
//! | 2 | bodies: mass = area × density, I = m r²/2, rectangles never rotate | [`Body`], [`BodyDesc`] |
//! | 3 | semi-implicit Euler with a fixed step, accumulator and interpolation | `world/step.rs`, [`FixedTimestep`] |
//! | 4 | the order of one step | [`World::step`] in `world/step.rs` |
//! | 5 | sweep and prune, circle/circle, circle/rect, rect/rect, walls | `collision/`, `world/walls.rs` |
//! | 6–9 | impulses, restitution, friction and rolling, rolling resistance | `solver/` |
//! | 10 | position projection and the emergency brake | `solver/position.rs`, `world/walls.rs` |
//! | 11 | islands and sleep, the settling before it (D9) | `world/sleep.rs`, `world/settle.rs` |
//! | 12 | tunnelling: the speed limit | [`PhysicsConfig::max_speed`], [`tunnelling_speed_limit`] |
//! | 13 | drag and throw | `world/drag.rs`, [`VelocityTracker`] |
//! | 14 | parameters | [`PhysicsConfig`] |
//!
//! # Units and coordinates (§1)
//! Lengths are px, time is s, velocities px/s, mass is area × density (only ratios matter).
//! The origin is top-left, x points right and **y points down**, as on screen, so gravity is
//! `g = (0, +980) px/s²`: 9.8 m/s² at 100 px per metre. A positive angle turns clockwise on
//! screen. The Bevy layer maps this frame to Bevy's y-up world in one place.
//!
//! # The step (§4)
//! [`World::step`] runs, in this order: the drag controller sets held bodies' velocities;
//! the state is remembered for interpolation and restitution; velocities are integrated
//! (`v += g·dt`, or `(s·g + F/m)·dt` for the few bodies with a force or gravity scale,
//! R-GAME-5); the broad phase finds candidate pairs; the narrow phase computes body–body
//! contacts; sleepers touched by awake bodies wake with their island; wall contacts are
//! found; the impulses are solved (normal, friction, rolling resistance); speeds are clamped;
//! positions are integrated (`x += v·dt`); positions are projected out of overlap; the
//! emergency brake acts at the walls; sleep is updated.
//!
//! # Example
//! ```
//! use bevy_sandbox_physics::physics::{BodyDesc, PhysicsConfig, World};
//! use glam::Vec2;
//!
//! let config = PhysicsConfig::default();
//! let mut world = World::new(Vec2::new(800.0, 600.0), config.clone()).unwrap();
//! let ball = world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 100.0))).unwrap();
//! for _ in 0..720 {
//!     world.step(config.time_step).unwrap();
//! }
//! let resting = world.body(ball).unwrap().position();
//! assert!((resting.y - 580.0).abs() < 1.0); // on the floor at y = 600
//! ```

mod body;
mod clock;
mod collision;
mod config;
mod math;
mod replay;
#[cfg(feature = "serde")]
mod scene_file;
pub mod scenes;
mod solver;
mod timeline;
mod timestep;
mod velocity_tracker;
mod world;

pub use body::{Body, BodyDesc, BodyHandle, BodyKind, CollisionLayers, Material, Shape};
pub use clock::{PhaseClock, set_phase_clock};
pub use collision::{BodyOrWall, Manifold, Wall, WallId, collide};
pub use config::{
    ConfigError, FieldError, MAX_BODY_SIZE, MIN_BODY_SIZE, Parameter, ParameterGroup,
    ParameterValue, PhysicsConfig, PositionCorrection, SPEED_CEILING, tunnelling_speed_limit,
};
pub use replay::{Input, InputLog, LoggedInput, Recorder, ReplayError};
pub use timeline::Timeline;
pub use timestep::FixedTimestep;
pub use velocity_tracker::VelocityTracker;
pub use world::{
    CachedContact, CollisionEvent, ContactInfo, Island, MAX_COORDINATE, MIN_STEP, PhaseTimings,
    PhysicsError, QueryFilter, RayHit, SceneBody, SceneBounds, SceneError, SceneFile, SceneWalls,
    ShapeHit, SolverState, StepStats, World,
};
