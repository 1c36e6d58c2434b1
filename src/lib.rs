//! `bevy_sandbox_physics`: a small, exact, fast 2D physics sandbox for Bevy.
//!
//! * [`physics`]: the engine, pure Rust (glam and std). It builds without Bevy
//!   (`--no-default-features`) and can be used and benchmarked on its own.
//! * `plugin` (feature `bevy`, on by default): [`SandboxPhysicsPlugin`], a plugin group of
//!   the simulation, interpolated transforms, picking, drag and throw, debug gizmos, live
//!   figures and the egui panel; the components and the run-time controls.
//! * [`prelude`]: what an app needs, `use bevy_sandbox_physics::prelude::*;`.
#![warn(missing_docs)]

pub mod physics;
#[cfg(feature = "bevy")]
pub mod plugin;

#[cfg(feature = "bevy")]
pub use plugin::SandboxPhysicsPlugin;

/// The types an app uses most.
pub mod prelude {
    pub use crate::physics::{Material, PhysicsConfig};
    #[cfg(feature = "bevy")]
    pub use crate::plugin::{
        AngularVelocity, BodyContact, BodyError, Collider, CollisionEnd, CollisionEventsEnabled,
        CollisionLayers, CollisionStart, ConstantForce, ConstantTorque, Contact, DragSettings,
        DragState, GravityScale, Held, HoveredBodies, LinearVelocity, NoInterpolation,
        NotDraggable, PhysicsBounds, PhysicsControls, PhysicsDebugDraw, PhysicsMaterial,
        PhysicsPose, PhysicsSchedule, PhysicsSystems, PhysicsTimeScale, PhysicsWalls,
        PhysicsWarning, PhysicsWorld, RigidBody, SandboxPhysicsPlugin, Sensor, Sleeping,
        SpatialQuery, SpatialQueryFilter, WallInsets, body_components,
    };
}
