//! The one place where Bevy's y-up world meets the spec's y-down frame (R-UNIT-1).
//!
//! The physics core works as on screen (§1): px, origin top-left, x right, **y down**,
//! gravity `(0, +980)`, positive angles turn clockwise. Bevy's 2D world is px too (with the
//! default camera projection), but its origin is wherever the camera looks, **y points up**
//! and positive angles turn counter-clockwise.
//!
//! The plugin fixes the core's origin once, at the top-left corner of the world bounds it was
//! started with (`origin = (bounds.min.x, bounds.max.y)` in Bevy coordinates), and maps
//!
//! ```text
//! position:          core = (x − origin.x, origin.y − y)      bevy = (origin.x + x, origin.y − y)
//! vector (velocity): core = (v.x, −v.y)                       bevy = (v.x, −v.y)
//! angle, ω:          core = −angle                            bevy = −angle
//! ```
//!
//! The y flip is a reflection, so it turns clockwise into counter-clockwise: that is why the
//! angle changes sign, and why a Bevy-frame `AngularVelocity` of +1 rad/s is −1 rad/s in the
//! core. Lengths (radii, half extents, depths) and scalar impulses are the same in both frames.
//!
//! The origin never moves afterwards: when the walls move (say, with the window), only the
//! core's bounds change, so no body jumps. Every conversion in the plugin goes through
//! [`CoordinateMapping`]; nothing else flips a y.

use bevy::math::{Rect, Vec2};

/// Converts between Bevy world coordinates (y up) and the core's frame (y down).
///
/// The core works as on screen (§1): px, origin top-left, x right, **y down**, positive
/// angles clockwise. The plugin fixes the core's origin once, at the top-left corner of the
/// walls it was started with, and maps
///
/// ```text
/// position:          core = (x − origin.x, origin.y − y)      bevy = (origin.x + x, origin.y − y)
/// vector (velocity): core = (v.x, −v.y)                       bevy = (v.x, −v.y)
/// angle, ω:          core = −angle                            bevy = −angle
/// ```
///
/// Lengths (radii, half extents, depths) and scalar impulses are the same in both frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoordinateMapping {
    /// The Bevy position of the core's origin (its top-left corner).
    origin: Vec2,
}

impl CoordinateMapping {
    /// The mapping whose core origin is the top-left corner of `bounds` (Bevy coordinates),
    /// so that `bounds` becomes the core rectangle `(0, 0) ..= bounds.size()`.
    pub fn from_bounds(bounds: Rect) -> Self {
        Self { origin: Vec2::new(bounds.min.x, bounds.max.y) }
    }

    /// The Bevy position of the core's origin.
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// A Bevy world position in the core's frame: `(x − origin.x, origin.y − y)`.
    pub fn position_to_core(&self, position: Vec2) -> Vec2 {
        Vec2::new(position.x - self.origin.x, self.origin.y - position.y)
    }

    /// A core position in Bevy world coordinates: `(origin.x + x, origin.y − y)`.
    pub fn position_to_bevy(&self, position: Vec2) -> Vec2 {
        Vec2::new(self.origin.x + position.x, self.origin.y - position.y)
    }

    /// A vector (velocity, normal, impulse) in the core's frame: `(v.x, −v.y)`.
    pub fn vector_to_core(&self, vector: Vec2) -> Vec2 {
        Vec2::new(vector.x, -vector.y)
    }

    /// A core vector in Bevy's frame: `(v.x, −v.y)`.
    pub fn vector_to_bevy(&self, vector: Vec2) -> Vec2 {
        Vec2::new(vector.x, -vector.y)
    }

    /// A Bevy angle or angular velocity (counter-clockwise positive) in the core's frame
    /// (clockwise positive): `−angle`.
    pub fn angle_to_core(&self, angle: f32) -> f32 {
        -angle
    }

    /// A core angle or angular velocity in Bevy's frame: `−angle`.
    pub fn angle_to_bevy(&self, angle: f32) -> f32 {
        -angle
    }

    /// A Bevy rectangle as the core's `(min, max)` corners (the y extremes swap).
    pub fn rect_to_core(&self, rect: Rect) -> (Vec2, Vec2) {
        (
            self.position_to_core(Vec2::new(rect.min.x, rect.max.y)),
            self.position_to_core(Vec2::new(rect.max.x, rect.min.y)),
        )
    }

    /// The core rectangle `min ..= max` as a Bevy rectangle.
    pub fn rect_to_bevy(&self, min: Vec2, max: Vec2) -> Rect {
        Rect::from_corners(self.position_to_bevy(min), self.position_to_bevy(max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bevy_top_left_is_the_core_origin_and_up_is_minus_y_r_unit_1() {
        let mapping = CoordinateMapping::from_bounds(Rect::from_center_size(
            Vec2::ZERO,
            Vec2::new(800.0, 600.0),
        ));
        assert_eq!(mapping.position_to_core(Vec2::new(-400.0, 300.0)), Vec2::ZERO);
        assert_eq!(mapping.position_to_core(Vec2::new(400.0, -300.0)), Vec2::new(800.0, 600.0));
        assert_eq!(mapping.position_to_core(Vec2::ZERO), Vec2::new(400.0, 300.0));
        // Gravity points down on screen in both frames.
        assert_eq!(mapping.vector_to_bevy(Vec2::new(0.0, 980.0)), Vec2::new(0.0, -980.0));
        // Clockwise on screen is positive in the core and negative in Bevy.
        assert_eq!(mapping.angle_to_bevy(0.5), -0.5);
        let p = Vec2::new(123.0, -45.5);
        assert_eq!(mapping.position_to_bevy(mapping.position_to_core(p)), p);
        let rect = Rect::from_corners(Vec2::new(-100.0, -50.0), Vec2::new(200.0, 250.0));
        let (min, max) = mapping.rect_to_core(rect);
        assert!(min.cmple(max).all());
        assert_eq!(mapping.rect_to_bevy(min, max), rect);
    }
}
