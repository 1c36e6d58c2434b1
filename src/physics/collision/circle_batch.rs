//! The circle–circle test of four pairs side by side: the narrow phase of a pile of circles.
//!
//! # Why four at a time
//! A pair of touching circles costs a square root and then a division that waits for it
//! (`n = d/|d|`, §5): some 30 cycles of latency per contact, on which the narrow phase's
//! loop stalled. In a resting pile of 4,000 circles (`rain_4000`, sleeping off) that chain
//! took about a tenth of the whole step. Four pairs in one SSE2 register share one `sqrtps`
//! and one `divps`, and the test whether a pair touches becomes a lane mask instead of a
//! branch that the processor guessed wrong for about one candidate in five.
//!
//! # Why the result is the scalar one
//! Each lane performs [`circle_circle`]'s operations in its order, followed by
//! [`collide_within`]'s clamp of the depth: IEEE-754 rounds `sqrtps`, `divps`, `addps` and
//! `mulps` in each lane exactly as their scalar forms, and nothing here is fused or
//! reordered (as in the wide solver, see `solver/lane.rs`). Each lane's manifold is the
//! scalar test's bit for bit (`four_pairs_side_by_side_equal_the_scalar_test_bit_for_bit`),
//! so the step's contacts, and every pinned state hash, are unchanged.
//!
//! [`circle_circle`]: super::narrow_phase::circle_circle
//! [`collide_within`]: super::narrow_phase::collide_within

use glam::{Vec2, Vec4};

use super::narrow_phase::{COINCIDENT, FALLBACK_NORMAL, Manifold};

/// Pairs tested side by side.
pub(crate) const PAIRS: usize = 4;

/// Four circle pairs, one per lane: A's centre and radius, B's centre and radius.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CirclePairs {
    /// A's centres.
    pub(crate) centre_a: [Vec2; PAIRS],
    /// A's radii.
    pub(crate) radius_a: [f32; PAIRS],
    /// B's centres.
    pub(crate) centre_b: [Vec2; PAIRS],
    /// B's radii.
    pub(crate) radius_b: [f32; PAIRS],
}

/// `collide_within` of four circle pairs (`margin` as there): per lane the contact of A
/// and B, normal from A to B, or `None` where they lie more than `margin` apart.
///
/// ```text
/// d = p_B − p_A,   contact when |d|² ≤ (r_A + r_B + margin)²
/// n = d/|d|  (or (0, −1) for coincident centres),   depth = max(r_A + r_B − |d|, 0)
/// point = p_A + n·(r_A − ½·(r_A + r_B − |d|))
/// ```
#[inline(always)]
pub(crate) fn collide_circles(pairs: &CirclePairs, margin: f32) -> [Option<Manifold>; PAIRS] {
    let lanes = |value: &dyn Fn(usize) -> f32| Vec4::new(value(0), value(1), value(2), value(3));
    let (ax, ay) = (lanes(&|i| pairs.centre_a[i].x), lanes(&|i| pairs.centre_a[i].y));
    let (bx, by) = (lanes(&|i| pairs.centre_b[i].x), lanes(&|i| pairs.centre_b[i].y));
    let (ra, rb) = (Vec4::from_array(pairs.radius_a), Vec4::from_array(pairs.radius_b));
    let (dx, dy) = (bx - ax, by - ay);
    let distance_squared = dx * dx + dy * dy;
    let radii = ra + rb;
    let reach = radii + Vec4::splat(margin);
    // The scalar test's rejection is `d² > reach²`; its negation, not `≤`, so that the two
    // agree for every input.
    let touching = (!distance_squared.cmpgt(reach * reach)).bitmask();
    let distance = distance_squared.sqrt();
    let apart = distance.cmpgt(Vec4::splat(COINCIDENT));
    let nx = Vec4::select(apart, dx / distance, Vec4::splat(FALLBACK_NORMAL.x));
    let ny = Vec4::select(apart, dy / distance, Vec4::splat(FALLBACK_NORMAL.y));
    let depth = radii - distance;
    let along = ra - Vec4::splat(0.5) * depth;
    let (px, py) = (ax + nx * along, ay + ny * along);
    // `collide_within`'s clamp: within the margin the circles touch at depth 0.
    let depth = depth.max(Vec4::ZERO);
    let (nx, ny, depth, px, py) =
        (nx.to_array(), ny.to_array(), depth.to_array(), px.to_array(), py.to_array());
    std::array::from_fn(|i| {
        (touching & (1 << i) != 0).then(|| Manifold {
            normal: Vec2::new(nx[i], ny[i]),
            depth: depth[i],
            point: Vec2::new(px[i], py[i]),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::body::Shape;
    use crate::physics::collision::CONTACT_TOLERANCE;
    use crate::physics::collision::narrow_phase::collide_within;
    use crate::physics::scenes::SceneRng;

    fn bits(m: Option<Manifold>) -> Option<[u32; 5]> {
        m.map(|m| {
            [m.normal.x, m.normal.y, m.depth, m.point.x, m.point.y].map(|value| value.to_bits())
        })
    }

    /// The claim of the module docs: on random pairs (apart, within the margin, touching,
    /// deep, coincident, at coordinates up to 10⁴ px) every lane answers what
    /// `collide_within` answers, bit for bit.
    #[test]
    fn four_pairs_side_by_side_equal_the_scalar_test_bit_for_bit() {
        let mut rng = SceneRng::new(7);
        let (mut touching, mut apart, mut coincident) = (0, 0, 0);
        for round in 0..20_000 {
            let mut pairs = CirclePairs::default();
            for i in 0..PAIRS {
                let radius_a = rng.range(0.5, 60.0);
                let radius_b = rng.range(0.5, 60.0);
                let centre_a = Vec2::new(rng.range(-1.0e4, 1.0e4), rng.range(-1.0e4, 1.0e4));
                let direction = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU));
                let distance = match round % 4 {
                    0 => (radius_a + radius_b) * rng.range(0.0, 1.2),
                    1 => radius_a + radius_b + rng.range(-0.02, 0.03),
                    2 => rng.range(0.0, 1.0e-5),
                    _ => rng.range(0.0, 300.0),
                };
                pairs.centre_a[i] = centre_a;
                pairs.centre_b[i] = if round % 7 == 0 && i == 1 {
                    centre_a
                } else {
                    centre_a + direction * distance
                };
                pairs.radius_a[i] = radius_a;
                pairs.radius_b[i] = radius_b;
            }
            let side_by_side = collide_circles(&pairs, CONTACT_TOLERANCE);
            for (i, &answer) in side_by_side.iter().enumerate() {
                let scalar = collide_within(
                    &Shape::Circle { radius: pairs.radius_a[i] },
                    pairs.centre_a[i],
                    &Shape::Circle { radius: pairs.radius_b[i] },
                    pairs.centre_b[i],
                    CONTACT_TOLERANCE,
                );
                assert_eq!(bits(answer), bits(scalar), "round {round}, lane {i}");
                match scalar {
                    Some(m) if m.normal == FALLBACK_NORMAL => coincident += 1,
                    Some(_) => touching += 1,
                    None => apart += 1,
                }
            }
        }
        // Every kind of answer was compared many times.
        assert!(
            touching > 10_000 && apart > 10_000 && coincident > 1_000,
            "{touching} {apart} {coincident}"
        );
    }
}
