//! The quality of a final state, measured the same way for every engine, in px.
//!
//! Only the body centres are read back from an engine; the shapes come from the scene. The
//! peers keep rectangles rotation-locked, so every shape is still a circle or an axis-aligned
//! box and our exact narrow phase measures each overlap.

use bevy_sandbox_physics::physics::{Shape, collide, scenes::Scene};
use glam::Vec2;

/// Overlap above which a pair counts as visibly overlapping, px.
pub const VISIBLE_OVERLAP: f32 = 1.0;

/// A body counts as escaped when its centre is this far outside the world, px.
const ESCAPE_MARGIN: f32 = 1.0;

/// What the final state looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quality {
    /// Deepest overlap of two bodies or of a body and a wall, px.
    pub deepest: f32,
    /// Body–body and body–wall pairs overlapping more than [`VISIBLE_OVERLAP`].
    pub visible_pairs: usize,
    /// For a pyramid: how far the apex box moved sideways, px.
    pub apex_drift: Option<f32>,
    /// For a pyramid: how far the apex sits below the top of a stack of exactly touching
    /// boxes, px (the sum of the depths every engine leaves in the contacts below it).
    pub apex_sag: Option<f32>,
    /// Bodies with a non-finite centre or a centre outside the world.
    pub lost: usize,
}

impl Quality {
    fn note(&mut self, depth: f32) {
        self.deepest = self.deepest.max(depth);
        if depth > VISIBLE_OVERLAP {
            self.visible_pairs += 1;
        }
    }
}

/// Measures `positions` (px, scene order) against `scene`.
pub fn measure(scene: &Scene, positions: &[Vec2]) -> Quality {
    let mut quality = Quality::default();
    let shapes: Vec<Shape> = scene.bodies.iter().map(|b| b.shape).collect();

    // Walls: how far each side of the body's box reaches past the world rectangle.
    let mut live = Vec::with_capacity(positions.len());
    for (i, (&p, shape)) in positions.iter().zip(&shapes).enumerate() {
        let outside =
            p.cmplt(Vec2::splat(-ESCAPE_MARGIN)).any() || p.cmpgt(scene.size + ESCAPE_MARGIN).any();
        if !p.is_finite() || outside {
            quality.lost += 1;
            continue;
        }
        let half = shape.half_size();
        for depth in
            [half.x - p.x, half.y - p.y, p.x + half.x - scene.size.x, p.y + half.y - scene.size.y]
        {
            if depth > 0.0 {
                quality.note(depth);
            }
        }
        live.push(i);
    }

    // Bodies: sweep along x over the boxes of the bodies still in the world.
    live.sort_by(|&a, &b| {
        let left = |i: usize| positions[i].x - shapes[i].half_size().x;
        left(a).total_cmp(&left(b))
    });
    for (k, &a) in live.iter().enumerate() {
        let right = positions[a].x + shapes[a].half_size().x;
        for &b in &live[k + 1..] {
            if positions[b].x - shapes[b].half_size().x > right {
                break;
            }
            let contact = collide(&shapes[a], positions[a], &shapes[b], positions[b]);
            if let Some(m) = contact.filter(|m| m.depth > 0.0) {
                quality.note(m.depth);
            }
        }
    }

    if let Some((start, rest)) = pyramid_apex(scene) {
        let end = positions[scene.bodies.len() - 1];
        if end.is_finite() {
            quality.apex_drift = Some((end.x - start.x).abs());
            quality.apex_sag = Some(end.y - rest);
        }
    }
    quality
}

/// For a `pyramid_*` scene: the apex's start position and its height on a stack of exactly
/// touching boxes, px. The apex is the last body; the boxes of a pyramid are all one size.
fn pyramid_apex(scene: &Scene) -> Option<(Vec2, f32)> {
    if !scene.name.starts_with("pyramid") {
        return None;
    }
    let apex = scene.bodies.last()?;
    let size = 2.0 * apex.shape.half_size().y;
    let base = scene.bodies.iter().filter(|b| b.position.y == scene.bodies[0].position.y).count();
    let rest = scene.size.y - 0.5 * size - (base as f32 - 1.0) * size;
    Some((apex.position, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_sandbox_physics::physics::scenes;

    #[test]
    fn a_scene_at_its_start_has_no_overlap_and_no_apex_drift() {
        let scene = scenes::pyramid(10, 30.0);
        let start: Vec<Vec2> = scene.bodies.iter().map(|b| b.position).collect();
        let q = measure(&scene, &start);
        assert_eq!((q.deepest, q.visible_pairs, q.lost), (0.0, 0, 0));
        assert_eq!(q.apex_drift, Some(0.0));
        // Nine 0.25 px gaps below the apex.
        assert!((q.apex_sag.unwrap() + 9.0 * 0.25).abs() < 1e-3, "{:?}", q.apex_sag);
    }

    #[test]
    fn overlaps_walls_and_lost_bodies_are_counted() {
        let scene = scenes::pyramid(2, 30.0);
        let mut p: Vec<Vec2> = scene.bodies.iter().map(|b| b.position).collect();
        p[1] = p[0] + Vec2::new(27.0, 0.0); // 3 px into its neighbour
        p[2] = Vec2::new(f32::NAN, 0.0);
        let q = measure(&scene, &p);
        assert!((q.deepest - 3.0).abs() < 1e-3, "{q:?}");
        assert_eq!((q.visible_pairs, q.lost), (1, 1));
        p[2] = Vec2::new(scene.size.x - 10.0, 100.0); // 5 px into the right wall
        let q = measure(&scene, &p);
        assert!((q.deepest - 5.0).abs() < 1e-3, "{q:?}");
        assert_eq!((q.visible_pairs, q.lost), (2, 0));
    }
}
