//! Collision detection (§5): which bodies touch, where and how deep.
//!
//! [`broad_phase`] finds the candidate pairs by sweep and prune over the bodies' boxes;
//! [`narrow_phase`] tests each candidate exactly (circle/circle, circle/rectangle,
//! rectangle/rectangle); [`walls`] tests the bodies against the four walls; [`mixing`]
//! mixes the two materials of a contact.

mod broad_phase;
mod mixing;
mod narrow_phase;
mod walls;

pub(crate) use broad_phase::{BroadPhase, Proxy, ProxyState};
pub(crate) use mixing::{
    mixed_friction, mixed_restitution, pair_rolling_lever, wall_rolling_lever,
};
pub use narrow_phase::{Manifold, collide};
pub use walls::{BodyOrWall, Wall, WallId};
