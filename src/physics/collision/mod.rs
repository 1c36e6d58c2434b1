//! Collision detection (§5): which bodies touch, where and how deep.
//!
//! [`broad_phase`] finds the candidate pairs by sweep and prune over the bodies' boxes;
//! [`narrow_phase`] tests each candidate exactly (circle/circle, circle/rectangle,
//! rectangle/rectangle) and the bodies against the four walls, and mixes the two materials
//! of a contact.

mod broad_phase;
mod narrow_phase;

pub(crate) use broad_phase::{BroadPhase, Proxy, ProxyState};
pub use narrow_phase::{Manifold, Wall, collide};
pub(crate) use narrow_phase::{mixed_friction, mixed_restitution};
