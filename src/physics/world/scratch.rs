//! The step's working memory.

use super::*;

/// What the narrow phase reads of a body, packed in 40 bytes: the pairs visit bodies in
/// sweep order, scattered over the slots, and each visit to a slot would load two cache
/// lines of a 120-byte body for these few fields.
#[derive(Clone, Copy, Debug)]
pub(super) struct Collider {
    pub(super) shape: Shape,
    pub(super) position: Vec2,
    pub(super) friction: f32,
    pub(super) restitution: f32,
    /// `1 / rolling_radius`: 1/r for a circle, 0 for a rectangle (§9).
    pub(super) curvature: f32,
    /// The body's handle bits, its warm-start key.
    pub(super) handle_bits: u64,
}

impl Default for Collider {
    fn default() -> Self {
        Collider {
            shape: Shape::Circle { radius: 1.0 },
            position: Vec2::ZERO,
            friction: 0.0,
            restitution: 0.0,
            curvature: 0.0,
            handle_bits: 0,
        }
    }
}
