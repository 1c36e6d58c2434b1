//! Collision detection (§5): which bodies touch, where and how deep.
//!
//! [`broad_phase`] finds the candidate pairs by sweep and prune over the bodies' boxes;
//! [`pair_cap`] keeps a pile added at one point from making n² pairs;
//! [`narrow_phase`] tests each candidate exactly (circle/circle, circle/rectangle,
//! rectangle/rectangle); [`walls`] tests the bodies against the four walls; [`mixing`]
//! mixes the two materials of a contact. [`ray`] and [`shape_cast`] meet the shapes with
//! rays and moving shapes, for the world's spatial queries (R-GAME-6).

mod broad_phase;
mod circle_batch;
mod mixing;
mod narrow_phase;
mod pair_cap;
mod ray;
mod shape_cast;
mod walls;

pub(crate) use broad_phase::{BroadPhase, Proxy, ProxyState};
pub(crate) use circle_batch::{CirclePairs, PAIRS, collide_circles};
pub(crate) use mixing::{
    mixed_friction, mixed_restitution, pair_rolling_lever, wall_rolling_lever,
};
pub(crate) use narrow_phase::{
    CONTACT_TOLERANCE, EMBEDDED_DEPTH, STACK_MARGIN, collide_in_step, embedded_manifold,
    pair_direction,
};
pub use narrow_phase::{Manifold, collide};
pub(crate) use ray::{RayContact, ray_circle, ray_rect, ray_wall};
pub(crate) use shape_cast::{CastContact, cast_shape, cast_wall};
pub use walls::{BodyOrWall, Wall, WallId};
