//! Narrow phase: the exact test of each shape pair and of each wall (§5).
//!
//! Every test answers with a [`Manifold`]: a unit normal from A to B, the overlap depth along
//! it (≥ 0) and the point where the contact forces act (R-COL-1). Because rectangles never
//! rotate, one point per pair is enough: normal impulses never create torque (R-IMP-3), and
//! only circles feel the lever arm of friction.

use glam::Vec2;

use crate::physics::body::Shape;
use crate::physics::config::MIN_BODY_SIZE;
use crate::physics::math::box_exit;

/// One contact between A and B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold {
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// Overlap along the normal, px (≥ 0).
    pub depth: f32,
    /// Where the contact forces act, world px.
    pub point: Vec2,
}

/// The fallback normal for coincident centres: (0, −1), "B goes up" (§5, R-COL-3).
pub const FALLBACK_NORMAL: Vec2 = Vec2::new(0.0, -1.0);

/// Centres closer than this count as coincident (px).
pub(super) const COINCIDENT: f32 = 1.0e-6;

/// Shapes this far apart or closer touch (px; deviation D11 of docs/physics.md): far above
/// the rounding of positions in a world of thousands of px (a few 10⁻⁴ px), far below what
/// anyone sees. Such a contact has depth 0, so its passes let the shapes separate but not
/// approach: they stay the gap apart, as if touching.
pub(crate) const CONTACT_TOLERANCE: f32 = 0.01;

/// Two boxes whose faces are this far apart or closer along gravity have a contact before
/// they touch (px; deviation D14 of docs/physics.md), with the gap as a negative depth: its
/// passes let the gap close within the step but no more. Boxes stacked with small gaps then
/// land on each other in the step they meet, not one row per step.
pub(crate) const STACK_MARGIN: f32 = 0.5;

/// A contact deeper than this sets its awake dynamic bodies into the others (px; deviation
/// D16 of docs/physics.md): 36 px. With the default parameters two bodies at the speed limit
/// close by at most 2·0.9·`MIN_BODY_SIZE` = 21.6 px in a step, and the step's two projection
/// passes move a contact by at most 2·6 px more, so a step's motion hardly makes a contact
/// this deep: a body added or moved into others does. (Bodies arriving at the speed limit in
/// the mixed piles reach 29 px; at 24 px they were set into others, and their chaos moved.)
pub(crate) const EMBEDDED_DEPTH: f32 = 3.0 * MIN_BODY_SIZE;

/// The line of centres is taken (D16) only while its way out is at most this many times
/// the shortest, the spec's: a small box set into a long slab leaves through the slab's
/// near face, not along the slab (a 24 px box 5 px off the middle of a 400 × 40 px slab:
/// 32 px up instead of 215 px sideways). Two boxes of the heap of R-REST-4 (24–40 px a
/// side) with coincident centres need at most 1.94 times the shortest way.
const LONGEST_WAY_OUT: f32 = 2.0;

/// The contact `m` of two shapes when one of them is set into the others (deviation D16 of
/// docs/physics.md): where a circle's centre lies strictly inside the box, or one box's
/// centre strictly inside the other, they separate along the line of their centres, and
/// centres that coincide along `coincident()` (a direction of the pair's own), unless that
/// way out is more than [`LONGEST_WAY_OUT`] times the spec's `m`; otherwise `m` as it is.
///
/// ```text
/// n = (p_B − p_A)/|p_B − p_A|
/// depth = the s ≥ 0 at which p_B − p_A + s·n leaves the box of half extents h_A + h_B
///         (two boxes), or that box rounded by r (a circle and a box)
/// ```
/// The depth is how far B must move along n to touch A: the first point where the ray from
/// B's centre leaves the Minkowski sum of the two shapes around A's centre.
///
/// The spec's rules (R-COL-3..5) take the nearest edge or the smaller overlap, the shortest
/// way out for one body. In a heap added at one point every pair starts with coincident
/// centres, so they all separate along the same two axes: the heap grows into columns and
/// beams of boxes inside boxes that only ever separate along them, and lifting a column by
/// its overlaps would take it through the ceiling (R-REST-4: 26.9 px deep after 10 s).
/// Along the line of centres the heap spreads in every direction, as from an explosion.
pub(crate) fn embedded_manifold(
    (shape_a, pa): (&Shape, Vec2),
    (shape_b, pb): (&Shape, Vec2),
    coincident: impl Fn() -> Vec2,
    m: Manifold,
) -> Manifold {
    let d = pb - pa;
    let distance = d.length();
    // The pair's own direction is hashed only where the centres coincide.
    let along = || if distance > COINCIDENT { d / distance } else { coincident() };
    match (*shape_a, *shape_b) {
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            // Apart, the normal already lies along the centres.
            if distance > COINCIDENT {
                return m;
            }
            let (normal, depth) = (coincident(), ra + rb);
            Manifold { normal, depth, point: pa + normal * (ra - 0.5 * depth) }
        }
        (Shape::Rect { half_extents: ha }, Shape::Rect { half_extents: hb }) => {
            if !(strictly_inside(d, ha) || strictly_inside(d, hb)) {
                return m;
            }
            let normal = along();
            let depth = box_exit(d, normal, ha + hb);
            if depth > LONGEST_WAY_OUT * m.depth {
                return m;
            }
            Manifold { normal, depth, ..m }
        }
        (Shape::Circle { radius }, Shape::Rect { half_extents }) => {
            // Seen from the box: the circle's centre at −d, leaving along −n.
            if !strictly_inside(-d, half_extents) {
                return m;
            }
            let normal = along();
            let depth = leave_rounded_box(half_extents, radius, -d, -normal);
            if depth > LONGEST_WAY_OUT * m.depth {
                return m;
            }
            // The point on the line of centres, in the middle of the overlap, as for two
            // circles: the lever of friction points along the normal.
            Manifold { normal, depth, point: pa + normal * (radius - 0.5 * depth) }
        }
        (Shape::Rect { half_extents }, Shape::Circle { radius }) => {
            if !strictly_inside(d, half_extents) {
                return m;
            }
            let normal = along();
            let depth = leave_rounded_box(half_extents, radius, d, normal);
            if depth > LONGEST_WAY_OUT * m.depth {
                return m;
            }
            Manifold { normal, depth, point: pb - normal * (radius - 0.5 * depth) }
        }
    }
}

/// A direction of the pair of bodies with these handle bits, spread over the whole circle
/// by a hash of the two: where two centres coincide, it tells them apart along their own
/// line (D16), so that a heap of bodies at one point leaves it in every direction.
///
/// The hash's two halves give a point of the square [−1, 1]², normalised: each eighth of
/// the circle gets the same share (by the square's symmetry), and only exactly rounded
/// arithmetic is used (no sine or cosine, which the platforms' maths libraries round
/// differently), so the native and the web build step bit for bit alike.
pub(crate) fn pair_direction(a: u64, b: u64) -> Vec2 {
    let fold = |bits: u64| (bits ^ (bits >> 32)) as u32;
    let hash = fold(a).wrapping_mul(0x9E37_79B9) ^ fold(b).wrapping_mul(0x85EB_CA6B);
    let unit = |bits: u32| f32::from(bits as u16) / 32_767.5 - 1.0;
    // Neither half is 0 ((k − 32,767.5)/32,767.5 for an integer k), so neither is the point.
    Vec2::new(unit(hash), unit(hash >> 16)).normalize()
}

/// `p` lies inside the box of half extents `half` around the origin, not on its border.
fn strictly_inside(p: Vec2, half: Vec2) -> bool {
    p.x.abs() < half.x && p.y.abs() < half.y
}

/// How far the point `p`, inside the box of half extents `half`, goes along the unit
/// direction `out` until it is `radius` away from the box: where it leaves the box grown by
/// the radius, unless that lies beyond a corner, where the corner's circle of `radius` ends
/// the way first (`|p + s·out − c| = r`, the larger root).
fn leave_rounded_box(half: Vec2, radius: f32, p: Vec2, out: Vec2) -> f32 {
    let s = box_exit(p, out, half + radius);
    let q = p + out * s;
    if q.x.abs() <= half.x || q.y.abs() <= half.y {
        return s;
    }
    let corner = Vec2::new(half.x.copysign(q.x), half.y.copysign(q.y));
    let w = p - corner;
    let b = w.dot(out);
    let c = w.length_squared() - radius * radius;
    -b + (b * b - c).max(0.0).sqrt()
}

/// The world's narrow phase for one pair: [`collide_within`] the contact tolerance (D11),
/// and for two boxes whose faces are up to [`STACK_MARGIN`] apart along `down` (gravity's
/// direction; none without gravity) a contact with the gap as its negative depth (D14).
///
/// Only boxes, and only along gravity: a stack of boxes placed with small gaps found its
/// support one row per step, so the top of a 60-row pyramid fell freely for half a second
/// and landed at up to 490 px/s, and the pyramid took seconds to settle. Circles meet at a
/// point and roll off; margins for every pair (0.5–2 px) made the poured piles sleep later,
/// and side-by-side boxes would only add contacts that never act.
///
/// Always inlined, with [`collide_within`]: the narrow phase's loop calls it once per pair,
/// and D16 calls it again after the loop; with two callers the compiler stopped inlining
/// them, which made the narrow phase of `mixed_2000` up to twice as slow.
#[inline(always)]
pub(crate) fn collide_in_step(
    (shape_a, pa): (&Shape, Vec2),
    (shape_b, pb): (&Shape, Vec2),
    down: Option<Vec2>,
) -> Option<Manifold> {
    if let (Shape::Rect { half_extents: ha }, Shape::Rect { half_extents: hb }, Some(down)) =
        (*shape_a, *shape_b, down)
    {
        let m = rect_rect(pa, ha, pb, hb, STACK_MARGIN)?;
        if m.depth >= -CONTACT_TOLERANCE {
            return Some(Manifold { depth: m.depth.max(0.0), ..m });
        }
        // Along gravity: within 45° of it (both axes when gravity is diagonal).
        return (m.normal.dot(down).abs() > std::f32::consts::FRAC_1_SQRT_2).then_some(m);
    }
    collide_within(shape_a, pa, shape_b, pb, CONTACT_TOLERANCE)
}

/// Tests two shapes at positions `pa`, `pb`; the normal points from A to B.
#[inline]
pub fn collide(shape_a: &Shape, pa: Vec2, shape_b: &Shape, pb: Vec2) -> Option<Manifold> {
    collide_within(shape_a, pa, shape_b, pb, 0.0)
}

/// [`collide`], also answering shapes up to `margin` px apart as touching (depth 0): the
/// world's narrow phase, with [`CONTACT_TOLERANCE`].
#[inline(always)]
pub(crate) fn collide_within(
    shape_a: &Shape,
    pa: Vec2,
    shape_b: &Shape,
    pb: Vec2,
    margin: f32,
) -> Option<Manifold> {
    let found = match (*shape_a, *shape_b) {
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            circle_circle(pa, ra, pb, rb, margin)
        }
        (Shape::Circle { radius }, Shape::Rect { half_extents }) => {
            circle_rect(pa, radius, pb, half_extents, margin)
        }
        (Shape::Rect { half_extents }, Shape::Circle { radius }) => {
            circle_rect(pb, radius, pa, half_extents, margin)
                .map(|m| Manifold { normal: -m.normal, ..m })
        }
        (Shape::Rect { half_extents: ha }, Shape::Rect { half_extents: hb }) => {
            rect_rect(pa, ha, pb, hb, margin)
        }
    };
    // Within the margin the shapes touch: depth 0, not the gap (R-COL-1).
    found.map(|m| Manifold { depth: m.depth.max(0.0), ..m })
}

/// Circle–circle (§5, R-COL-3).
///
/// ```text
/// d = |p_B − p_A|,   contact when d ≤ r_A + r_B
/// n = (p_B − p_A)/d,   depth = r_A + r_B − d
/// ```
/// The point lies in the middle of the overlap. Coincident centres give no direction: the
/// fixed normal (0, −1) is used instead of dividing by 0. With `margin` > 0, circles up to
/// that far apart are answered too, with the gap as a negative depth ([`collide_within`]
/// reports them as touching).
pub fn circle_circle(pa: Vec2, ra: f32, pb: Vec2, rb: f32, margin: f32) -> Option<Manifold> {
    let d = pb - pa;
    let distance_squared = d.length_squared();
    let radii = ra + rb;
    if distance_squared > (radii + margin) * (radii + margin) {
        return None;
    }
    let distance = distance_squared.sqrt();
    let normal = if distance > COINCIDENT { d / distance } else { FALLBACK_NORMAL };
    let depth = radii - distance;
    Some(Manifold { normal, depth, point: pa + normal * (ra - 0.5 * depth) })
}

/// Circle (A) against rectangle (B) by clamping (§5, R-COL-4).
///
/// ```text
/// q = (clamp(dx, −hw, hw), clamp(dy, −hh, hh))     (circle centre relative to the rect)
/// contact when |centre − q| ≤ r
/// ```
/// A centre inside the rectangle gives no direction: the circle is pushed out through the
/// nearest edge, with depth r + distance to that edge (a tie picks the y edge, as for boxes).
/// `margin` as for [`circle_circle`].
pub fn circle_rect(
    circle: Vec2,
    radius: f32,
    rect: Vec2,
    half: Vec2,
    margin: f32,
) -> Option<Manifold> {
    let d = circle - rect;
    let q = d.clamp(-half, half);
    let outside = d - q;
    let distance_squared = outside.length_squared();
    if distance_squared > (radius + margin) * (radius + margin) {
        return None;
    }
    let distance = distance_squared.sqrt();
    // Normal from the rectangle towards the circle; flipped at the end (A is the circle).
    let (out_normal, depth, surface) = if distance > COINCIDENT {
        (outside / distance, radius - distance, rect + q)
    } else {
        // Centre inside (or on the border): leave through the nearest edge.
        let to_x = half.x - d.x.abs();
        let to_y = half.y - d.y.abs();
        if to_y <= to_x {
            let sign = if d.y > 0.0 { 1.0 } else { -1.0 };
            let n = Vec2::new(0.0, sign);
            (n, radius + to_y, rect + Vec2::new(d.x, sign * half.y))
        } else {
            let sign = if d.x > 0.0 { 1.0 } else { -1.0 };
            let n = Vec2::new(sign, 0.0);
            (n, radius + to_x, rect + Vec2::new(sign * half.x, d.y))
        }
    };
    // Middle of the overlap: between the rectangle's surface and the circle's deepest point.
    let deepest = circle - out_normal * radius;
    Some(Manifold { normal: -out_normal, depth, point: 0.5 * (surface + deepest) })
}

/// Rectangle–rectangle by separating axes (§5, R-COL-5).
///
/// ```text
/// overlap_x = hw_A + hw_B − |dx|,   overlap_y = hh_A + hh_B − |dy|
/// ```
/// They overlap exactly when both projections overlap. Separation goes along the smaller
/// overlap, the shortest way out; a tie picks y because stacked bodies are the common case.
/// `margin` as for [`circle_circle`]: boxes up to that far apart along an axis have the
/// negative depth of their larger gap.
pub fn rect_rect(pa: Vec2, ha: Vec2, pb: Vec2, hb: Vec2, margin: f32) -> Option<Manifold> {
    let d = pb - pa;
    let overlap_x = ha.x + hb.x - d.x.abs();
    let overlap_y = ha.y + hb.y - d.y.abs();
    if overlap_x < -margin || overlap_y < -margin {
        return None;
    }
    // The middle of the overlap rectangle.
    let low = (pa - ha).max(pb - hb);
    let high = (pa + ha).min(pb + hb);
    let point = 0.5 * (low + high);
    let (normal, depth) = if overlap_y <= overlap_x {
        let normal = if d.y > 0.0 {
            Vec2::Y
        } else if d.y < 0.0 {
            -Vec2::Y
        } else {
            FALLBACK_NORMAL
        };
        (normal, overlap_y)
    } else {
        (Vec2::new(if d.x >= 0.0 { 1.0 } else { -1.0 }, 0.0), overlap_x)
    };
    Some(Manifold { normal, depth, point })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn circles_touching_report_depth_and_midpoint() {
        let m = circle_circle(Vec2::ZERO, 10.0, Vec2::new(15.0, 0.0), 10.0, 0.0).expect("overlap");
        assert_eq!(m.normal, Vec2::X);
        assert!(close(m.depth, 5.0));
        assert!(close(m.point.x, 7.5));
        assert!(circle_circle(Vec2::ZERO, 10.0, Vec2::new(20.5, 0.0), 10.0, 0.0).is_none());
    }

    #[test]
    fn coincident_circles_use_the_fallback_normal_r_col_3() {
        let m =
            circle_circle(Vec2::splat(3.0), 12.0, Vec2::splat(3.0), 20.0, 0.0).expect("overlap");
        assert_eq!(m.normal, FALLBACK_NORMAL);
        assert!(close(m.depth, 32.0));
        assert!(m.point.is_finite());
    }

    #[test]
    fn circle_beside_a_box_is_found_by_clamping_r_col_4() {
        // Circle left of a 40×40 box: nearest point on the left edge.
        let m = circle_rect(Vec2::new(-28.0, 5.0), 10.0, Vec2::ZERO, Vec2::splat(20.0), 0.0)
            .expect("overlap");
        assert_eq!(m.normal, Vec2::X); // from circle (A) to box (B)
        assert!(close(m.depth, 2.0));
        // Corner region: distance to the corner decides.
        let corner = Vec2::splat(20.0) + Vec2::splat(6.0);
        let m = circle_rect(corner, 10.0, Vec2::ZERO, Vec2::splat(20.0), 0.0).expect("overlap");
        assert!(close(m.depth, 10.0 - 72.0_f32.sqrt()));
        assert!(close(m.normal.x, m.normal.y) && m.normal.x < 0.0);
    }

    #[test]
    fn circle_centre_inside_a_box_leaves_through_the_nearest_edge_r_col_4() {
        // 3 px below the top edge (y down: top is −20).
        let m = circle_rect(Vec2::new(5.0, -17.0), 12.0, Vec2::ZERO, Vec2::splat(20.0), 0.0)
            .expect("overlap");
        assert_eq!(m.normal, Vec2::Y, "box pushed down, circle up");
        assert!(close(m.depth, 12.0 + 3.0), "r + distance to edge");
        let m = circle_rect(Vec2::new(18.0, 0.0), 12.0, Vec2::ZERO, Vec2::splat(20.0), 0.0)
            .expect("overlap");
        assert_eq!(m.normal, -Vec2::X);
        assert!(close(m.depth, 14.0));
    }

    /// `embedded_manifold` of A at `pa` and B at `pb`, with `along` for coincident centres.
    fn embedded(a: Shape, pa: Vec2, b: Shape, pb: Vec2, along: Vec2) -> Manifold {
        let m = collide(&a, pa, &b, pb).expect("overlap");
        embedded_manifold((&a, pa), (&b, pb), || along, m)
    }

    #[test]
    fn shapes_set_into_each_other_leave_along_the_line_of_centres_by_their_overlap_r_rest_4() {
        // D16: for every pair of shapes with a centre inside the other, the normal lies on
        // the line of centres, and moving B by the depth along it ends the overlap exactly:
        // the shapes then touch (depth 0 within rounding), no deeper and no further apart.
        let (circle, small, rect) =
            (Shape::circle(12.0), Shape::rect(24.0, 40.0), Shape::rect(40.0, 24.0));
        let pa = Vec2::new(100.0, 200.0);
        for (a, b) in [(circle, rect), (rect, circle), (small, rect), (rect, small), (rect, rect)] {
            let offsets = [(3.0, 1.0), (-1.0, 5.0), (4.0, -4.0), (5.0, 0.0), (0.0, -2.0)];
            for offset in offsets.map(Vec2::from) {
                let pb = pa + offset;
                let m = embedded(a, pa, b, pb, Vec2::X);
                assert!((m.normal - offset.normalize()).length() < 1e-5, "{a:?} {b:?} {offset}");
                let apart = pb + m.normal * m.depth;
                let touching = collide_within(&a, pa, &b, apart, 1e-3).expect("touching");
                assert!(touching.depth < 1e-3, "{a:?} {b:?} {offset}: {touching:?}");
                // The spec's own rule leaves through an axis, a shorter way but the same two
                // directions for every pair (R-COL-4, R-COL-5).
                let spec = collide(&a, pa, &b, pb).expect("overlap");
                assert!(spec.normal.x == 0.0 || spec.normal.y == 0.0);
                assert!(m.depth >= spec.depth - 1e-4);
            }
        }
    }

    #[test]
    fn coincident_shapes_set_into_each_other_leave_along_their_pair_direction_r_rest_4() {
        let along = Vec2::from_angle(0.7);
        let (circle, rect) = (Shape::circle(12.0), Shape::rect(24.0, 40.0));
        for (a, b) in [(circle, circle), (circle, rect), (rect, circle), (rect, rect)] {
            let p = Vec2::new(50.0, 60.0);
            let m = embedded(a, p, b, p, along);
            assert!((m.normal - along).length() < 1e-6, "{a:?} {b:?}");
            let touching = collide_within(&a, p, &b, p + along * m.depth, 1e-3).expect("touching");
            assert!(touching.depth < 1e-3, "{a:?} {b:?}: {touching:?}");
        }
    }

    #[test]
    fn a_centre_outside_the_other_shape_keeps_the_spec_contact_r_col_5() {
        // Overlapping, but neither centre inside the other: the spec's manifold as it is.
        let (a, b) = (Shape::rect(40.0, 40.0), Shape::rect(40.0, 40.0));
        let (pa, pb) = (Vec2::ZERO, Vec2::new(30.0, 10.0));
        let spec = collide(&a, pa, &b, pb).expect("overlap");
        assert_eq!(embedded(a, pa, b, pb, Vec2::Y), spec);
        let (c, pc) = (Shape::circle(12.0), Vec2::new(25.0, 0.0));
        let spec = collide(&a, pa, &c, pc).expect("overlap");
        assert_eq!(embedded(a, pa, c, pc, Vec2::Y), spec);
        // A circle's centre on a box's border is not inside it.
        let pc = Vec2::new(20.0, 3.0);
        let spec = collide(&a, pa, &c, pc).expect("overlap");
        assert_eq!(embedded(a, pa, c, pc, Vec2::Y), spec);
        // A box's centre inside a circle whose centre lies outside the box: the spec's
        // normal, from the box's nearest point, lies near the line of centres already.
        let (big, small) = (Shape::circle(50.0), Shape::rect(10.0, 10.0));
        let pb = Vec2::new(20.0, 0.0);
        let spec = collide(&big, pa, &small, pb).expect("overlap");
        assert_eq!(embedded(big, pa, small, pb, Vec2::Y), spec);
        // A cross of a wide and a tall box: each reaches past the other's centre, but
        // neither centre lies inside the other box.
        let (wide, tall) = (Shape::rect(200.0, 10.0), Shape::rect(10.0, 200.0));
        let pb = Vec2::new(50.0, 50.0);
        let spec = collide(&wide, pa, &tall, pb).expect("overlap");
        assert_eq!(embedded(wide, pa, tall, pb, Vec2::Y), spec);
    }

    #[test]
    fn a_small_box_set_into_a_long_slab_leaves_through_the_near_face_r_col_5() {
        // D16 takes the line of centres only while that way out is at most twice the
        // shortest: a 24 px box 5 px right of the middle of a 400 × 40 px slab leaves by
        // 32 px up (the spec's contact), not by 215 px along the slab; a circle likewise.
        let slab = Shape::rect(400.0, 40.0);
        let (pa, pb) = (Vec2::ZERO, Vec2::new(5.0, -1.0));
        for small in [Shape::rect(24.0, 24.0), Shape::circle(12.0)] {
            let spec = collide(&slab, pa, &small, pb).expect("overlap");
            assert_eq!(spec.normal, -Vec2::Y);
            assert_eq!(embedded(slab, pa, small, pb, Vec2::X), spec, "{small:?}");
        }
    }

    #[test]
    fn pair_directions_spread_over_the_whole_circle_r_rest_4() {
        // 1,000 pairs of neighbouring handles (generation 0 and 1): every eighth of the
        // circle gets between a third and twice its share, and the mean direction is short.
        let mut octants = [0usize; 8];
        let mut sum = Vec2::ZERO;
        for i in 0..1000u64 {
            let d = pair_direction(i << 32 | i, (i + 1) | u64::from(i % 2 == 0) << 32);
            assert!((d.length() - 1.0).abs() < 1e-5);
            let octant = (d.y.atan2(d.x) / std::f32::consts::FRAC_PI_4).floor() as i32;
            octants[octant.rem_euclid(8) as usize] += 1;
            sum += d;
        }
        assert!(octants.iter().all(|&n| (42..=250).contains(&n)), "{octants:?}");
        assert!(sum.length() / 1000.0 < 0.1, "mean direction {}", sum / 1000.0);
    }

    #[test]
    fn shapes_within_the_contact_tolerance_touch_at_depth_zero_r_col_1() {
        let gap = 0.5 * CONTACT_TOLERANCE;
        let (circle, rect) = (Shape::circle(10.0), Shape::rect(40.0, 40.0));
        let cases = [
            (circle, circle, Vec2::new(20.0 + gap, 0.0)),
            (circle, rect, Vec2::new(0.0, 30.0 + gap)),
            (rect, rect, Vec2::new(40.0 + gap, 3.0)),
        ];
        for (a, b, pb) in cases {
            assert!(collide(&a, Vec2::ZERO, &b, pb).is_none(), "{a:?} {b:?}: apart");
            let m = collide_within(&a, Vec2::ZERO, &b, pb, CONTACT_TOLERANCE).expect("within");
            assert_eq!(m.depth, 0.0, "{a:?} {b:?}: touching");
            let beyond = pb + pb.normalize() * CONTACT_TOLERANCE;
            assert!(collide_within(&a, Vec2::ZERO, &b, beyond, CONTACT_TOLERANCE).is_none());
        }
    }

    #[test]
    fn boxes_separate_along_the_smaller_overlap_and_a_tie_picks_y_r_col_5() {
        let h = Vec2::splat(20.0);
        let m = rect_rect(Vec2::ZERO, h, Vec2::new(35.0, 10.0), h, 0.0).expect("overlap");
        assert_eq!(m.normal, Vec2::X);
        assert!(close(m.depth, 5.0));
        let m = rect_rect(Vec2::ZERO, h, Vec2::new(10.0, 38.0), h, 0.0).expect("overlap");
        assert_eq!(m.normal, Vec2::Y);
        assert!(close(m.depth, 2.0));
        let m = rect_rect(Vec2::ZERO, h, Vec2::new(-30.0, -30.0), h, 0.0).expect("overlap");
        assert_eq!(m.normal, -Vec2::Y, "tie picks y");
        assert!(rect_rect(Vec2::ZERO, h, Vec2::new(41.0, 0.0), h, 0.0).is_none());
        let same = rect_rect(Vec2::ZERO, h, Vec2::ZERO, h, 0.0).expect("overlap");
        assert_eq!(same.normal, FALLBACK_NORMAL);
    }
}
