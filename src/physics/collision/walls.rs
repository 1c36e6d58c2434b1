//! The four walls: half-planes around the world (§5).

use glam::Vec2;

use super::narrow_phase::Manifold;
use crate::physics::body::{BodyHandle, Shape};

/// One of the four walls, for events, queries and switching walls off (R-GAME-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum WallId {
    /// The wall at the world's smallest x.
    Left,
    /// The wall at the world's largest x.
    Right,
    /// The wall at the world's smallest y (the top of the screen; y points down).
    Top,
    /// The wall at the world's largest y: the floor.
    Floor,
}

impl WallId {
    /// The four walls in the world's storage order.
    pub const ALL: [WallId; 4] = [WallId::Left, WallId::Right, WallId::Top, WallId::Floor];

    /// The wall's place in [`WallId::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// What a body touched, or a query hit: another body or one of the walls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyOrWall {
    /// A body.
    Body(BodyHandle),
    /// A wall.
    Wall(WallId),
}

/// A wall: the half-plane `n·p ≥ offset`, its normal pointing into the world (§5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    /// Unit normal into the world.
    pub normal: Vec2,
    /// `n·p` on the wall line.
    pub offset: f32,
}

impl Wall {
    /// Contact of a body with the wall (A = wall, B = body), R-COL-6.
    ///
    /// The reach of the shape along n is r for a circle and `|n.x|·hw + |n.y|·hh` for a
    /// rectangle. A half-plane is infinitely thick, so a body that jumped completely behind
    /// the wall line in one step is still caught: it cannot tunnel through.
    pub fn collide(&self, shape: &Shape, position: Vec2) -> Option<Manifold> {
        let reach = shape.reach(self.normal);
        let separation = self.normal.dot(position) - reach - self.offset;
        if separation > 0.0 {
            return None;
        }
        let depth = -separation;
        let deepest = position - self.normal * reach;
        Some(Manifold { normal: self.normal, depth, point: deepest + self.normal * (0.5 * depth) })
    }

    /// How deep a shape at `position` is inside the wall (negative when clear).
    pub fn penetration(&self, shape: &Shape, position: Vec2) -> f32 {
        self.offset + shape.reach(self.normal) - self.normal.dot(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn a_body_completely_behind_a_wall_is_still_caught_r_col_6() {
        let floor = Wall { normal: -Vec2::Y, offset: -600.0 }; // y ≤ 600
        let circle = Shape::circle(12.0);
        // Centre 30 px below the floor line: completely behind it.
        let m = floor.collide(&circle, Vec2::new(100.0, 630.0)).expect("caught");
        assert!(close(m.depth, 42.0));
        assert_eq!(m.normal, -Vec2::Y);
        let rect = Shape::rect(40.0, 30.0);
        let m = floor.collide(&rect, Vec2::new(0.0, 590.0)).expect("reach hh = 15");
        assert!(close(m.depth, 5.0));
        assert!(floor.collide(&rect, Vec2::new(0.0, 584.0)).is_none());
    }
}
