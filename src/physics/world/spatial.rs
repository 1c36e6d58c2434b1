//! Spatial queries (R-GAME-6): which bodies contain a point or overlap a box, what a ray or
//! a moving shape hits first (or at all), with a filter by collision layers, an exclusion
//! list and a switch for the walls.
//!
//! Every query sees the bodies where they are now, between steps, and looks them up in the
//! world's [`SpatialIndex`](super::spatial_index), a grid over their current boxes, instead
//! of testing every body; the exact tests are in `collision/ray.rs` and
//! `collision/shape_cast.rs`.
//!
//! A ray or shape cast walks along its path in stretches and tests the bodies in the cells
//! each stretch (widened by the moving shape) overlaps: one cell long among bodies, longer
//! across empty cells. A hit at distance
//! `t` lies in the stretch that contains `t`, so once the closest hit so far lies within the
//! stretches already walked, no later stretch can beat it and the walk stops: in a pile the
//! first stretches decide. The walk covers only the part of the path inside the bodies'
//! union box, so a far origin or an infinite `max_distance` costs nothing. The exact tests
//! start from the cast's own origin, so that a body's hit does not depend on the others.

use super::spatial_index::{CellRange, Entry, Grid};
use super::*;
use crate::physics::body::CollisionLayers;
use crate::physics::collision::{BodyOrWall, CastContact, WallId};
use crate::physics::config::MAX_BODY_SIZE;
use crate::physics::math::normalize_finite;

/// Which bodies a query may report (R-GAME-6).
///
/// A body passes when its layers interact with the filter's,
/// `filter.layers.interacts_with(body.layers())` (each is on a layer the other accepts), and
/// its handle is not in `exclude`. The default accepts every body with default layers and
/// lets ray and shape casts hit the walls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// The layers the query is on and those it looks for (default: all).
    pub layers: CollisionLayers,
    /// Bodies never reported, say the one casting the ray; a short list, searched linearly.
    pub exclude: Vec<BodyHandle>,
    /// Whether ray and shape casts can hit the four walls (default `true`: the walls are
    /// solid, so a line of sight ends at them). Point and box queries return bodies only,
    /// whatever this says.
    pub include_walls: bool,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter { layers: CollisionLayers::ALL, exclude: Vec::new(), include_walls: true }
    }
}

impl QueryFilter {
    /// The default filter: every body with default layers, and the walls.
    pub fn new() -> Self {
        Self::default()
    }

    /// With these layers.
    pub fn with_layers(mut self, layers: CollisionLayers) -> Self {
        self.layers = layers;
        self
    }

    /// Also excluding `handle`.
    pub fn excluding(mut self, handle: BodyHandle) -> Self {
        self.exclude.push(handle);
        self
    }

    /// With or without the walls (ray and shape casts).
    pub fn with_walls(mut self, include_walls: bool) -> Self {
        self.include_walls = include_walls;
        self
    }

    /// Whether the body `body` of `handle` passes the filter.
    pub fn accepts(&self, handle: BodyHandle, body: &Body) -> bool {
        self.layers.interacts_with(body.layers) && !self.exclude.contains(&handle)
    }
}

/// Where a ray first meets a body or a wall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// What it hit.
    pub target: BodyOrWall,
    /// Distance from the origin along the (normalised) direction, px; 0 when the origin lies
    /// inside the target.
    pub distance: f32,
    /// The hit point, `origin + distance·direction`.
    pub point: Vec2,
    /// Unit normal of the target's surface at the point, pointing out of the target;
    /// `−direction` when the origin lies inside it (there is no surface crossing to take it
    /// from).
    pub normal: Vec2,
}

/// Where a moving shape first touches a body or a wall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit {
    /// What it touched.
    pub target: BodyOrWall,
    /// How far the shape's centre travels along the (normalised) direction until it touches:
    /// the time of impact as a distance, px; 0 when it touches or overlaps at the start.
    pub distance: f32,
    /// Where the two touch (for two rectangles touching along a stretch of a face, its
    /// middle); the shape's centre, `origin`, when they overlap at the start.
    pub point: Vec2,
    /// Unit normal of the target's surface at the contact, pointing from the target towards
    /// the shape; `−direction` when they overlap at the start.
    pub normal: Vec2,
}

/// A ray (`shape` None) or a moving shape, its direction normalised, its inputs checked.
#[derive(Clone, Copy)]
struct Cast {
    shape: Option<Shape>,
    origin: Vec2,
    direction: Vec2,
    max_distance: f32,
}

/// The longest stretch of a cast's walk through empty cells, in cells. Long enough that
/// empty space costs a lookup per few cells (a ray across the 10,000-body benchmark world
/// over its pile: 31 µs with stretches of one cell, 9 µs with up to four); short enough that
/// a stretch reaching into a pile does not test a wide box of bodies (with up to eight, a
/// diagonal ray into the pile took three times as long).
const MAX_STRETCH: f32 = 4.0;

/// A hit on a body during a cast: its slot and where.
type BodyContact = (usize, CastContact);

impl World {
    /// The bodies that contain `point`, boundary included, in the order of their handles.
    /// `point` must be finite.
    pub fn bodies_at_point(
        &self,
        point: Vec2,
        filter: &QueryFilter,
    ) -> Result<Vec<BodyHandle>, PhysicsError> {
        if !point.is_finite() {
            return Err(invalid("point", point, "finite numbers"));
        }
        let grid = self.spatial_index.grid(&self.slots, self.moved_at_step);
        let mut found = Vec::new();
        grid.for_each_near(point, point, |entry| {
            if entry.shape().contains_local(point - entry.position) {
                found.extend(self.accepted(entry.slot(), filter));
            }
        });
        found.sort_unstable();
        Ok(found)
    }

    /// The bodies whose shape overlaps the box `min ..= max`, touching included, in the order
    /// of their handles. Exact for circles: a circle near a corner of the box is reported only
    /// when it reaches into the box. `min` and `max` must be finite, `min ≤ max` on both axes.
    pub fn bodies_in_aabb(
        &self,
        min: Vec2,
        max: Vec2,
        filter: &QueryFilter,
    ) -> Result<Vec<BodyHandle>, PhysicsError> {
        let mut problems = Vec::new();
        for (field, value) in [("min", min), ("max", max)] {
            if !value.is_finite() {
                problems.push(problem(field, value, "finite numbers"));
            }
        }
        if problems.is_empty() && !min.cmple(max).all() {
            problems.push(problem("max", max, format!("at least min = {min} on both axes")));
        }
        if !problems.is_empty() {
            return Err(PhysicsError::Invalid(ConfigError { problems }));
        }
        let grid = self.spatial_index.grid(&self.slots, self.moved_at_step);
        let mut found = Vec::new();
        grid.for_each_near(min, max, |entry| {
            if overlaps(entry, min, max) {
                found.extend(self.accepted(entry.slot(), filter));
            }
        });
        found.sort_unstable();
        Ok(found)
    }

    /// The first body or wall (see [`QueryFilter::include_walls`]) the ray from `origin` along
    /// `direction` meets within `max_distance`.
    ///
    /// `direction` is normalised, so distances are in px. Shapes are solid: a ray starting
    /// inside a body (or on its boundary) hits it at distance 0 with normal `−direction`. Of
    /// hits at the same distance, the lowest target wins (bodies by handle, then walls).
    ///
    /// `origin` must be finite, `direction` finite and not zero (of any length, however large
    /// or small), `max_distance` at least 0 (infinite is allowed).
    pub fn ray_cast(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Option<RayHit>, PhysicsError> {
        self.ray_cast_where(origin, direction, max_distance, filter, |_| true)
    }

    /// [`ray_cast`](Self::ray_cast), looking past every body `keep` turns down as if the
    /// filter excluded it: the Bevy layer's rays look past bodies without an entity.
    ///
    /// `keep` is asked only about a body that passes `filter` and would be the nearest hit so
    /// far, so it costs a query no more than a few calls, and nothing to build beforehand.
    pub(crate) fn ray_cast_where(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &QueryFilter,
        keep: impl Fn(BodyHandle) -> bool,
    ) -> Result<Option<RayHit>, PhysicsError> {
        let cast = Cast::checked(None, origin, direction, max_distance)?;
        Ok(self.first_hit(&cast, filter, keep).map(ray_hit))
    }

    /// Every body and wall the ray meets within `max_distance`, each once, nearest first (ties
    /// by target). The same ray and rules as [`ray_cast`](Self::ray_cast).
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Vec<RayHit>, PhysicsError> {
        let cast = Cast::checked(None, origin, direction, max_distance)?;
        let grid = self.spatial_index.grid(&self.slots, self.moved_at_step);
        let mut contacts: Vec<BodyContact> = Vec::new();
        self.cast_through(&grid, &cast, |slot, contact| {
            if self.accepted(slot, filter).is_some() {
                contacts.push((slot, contact));
            }
            f32::INFINITY
        });
        // Neighbouring stretches share cells, so a body may be met more than once: keep one.
        contacts.sort_unstable_by_key(|&(slot, _)| slot);
        contacts.dedup_by_key(|&mut (slot, _)| slot);
        let mut hits: Vec<(BodyOrWall, CastContact)> = contacts
            .into_iter()
            .map(|(slot, contact)| (BodyOrWall::Body(self.slots[slot].handle()), contact))
            .collect();
        if filter.include_walls {
            hits.extend(self.wall_hits(&cast));
        }
        hits.sort_unstable_by(|a, b| a.1.distance.total_cmp(&b.1.distance).then(a.0.cmp(&b.0)));
        Ok(hits.into_iter().map(ray_hit).collect())
    }

    /// The first body or wall that `shape`, its centre moving from `origin` along `direction`,
    /// touches within `max_distance` (R-GAME-6): its time of impact as a distance, the contact
    /// point and the target's normal there.
    ///
    /// A cast that starts touching or overlapping a body hits it at distance 0 with normal
    /// `−direction` and the point at `origin`. The shape may be smaller than a body
    /// (radius or half extents from 0 to `MAX_BODY_SIZE`); the other inputs as for
    /// [`ray_cast`](Self::ray_cast).
    pub fn shape_cast(
        &self,
        shape: Shape,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Option<ShapeHit>, PhysicsError> {
        self.shape_cast_where(shape, origin, direction, max_distance, filter, |_| true)
    }

    /// [`shape_cast`](Self::shape_cast), looking past every body `keep` turns down, as
    /// [`ray_cast_where`](Self::ray_cast_where) does.
    pub(crate) fn shape_cast_where(
        &self,
        shape: Shape,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &QueryFilter,
        keep: impl Fn(BodyHandle) -> bool,
    ) -> Result<Option<ShapeHit>, PhysicsError> {
        let cast = Cast::checked(Some(shape), origin, direction, max_distance)?;
        Ok(self.first_hit(&cast, filter, keep).map(|(target, c)| ShapeHit {
            target,
            distance: c.distance,
            point: c.point,
            normal: c.normal,
        }))
    }

    /// The nearest hit of a cast: the walls first (they bound the walk), then the bodies that
    /// pass `filter` and `keep`.
    fn first_hit(
        &self,
        cast: &Cast,
        filter: &QueryFilter,
        keep: impl Fn(BodyHandle) -> bool,
    ) -> Option<(BodyOrWall, CastContact)> {
        let mut best: Option<(BodyOrWall, CastContact)> = None;
        let closer = |candidate: (f32, BodyOrWall), best: &Option<(BodyOrWall, CastContact)>| {
            best.is_none_or(|(target, c)| candidate < (c.distance, target))
        };
        if filter.include_walls {
            for hit in self.wall_hits(cast) {
                if closer((hit.1.distance, hit.0), &best) {
                    best = Some(hit);
                }
            }
        }
        // A wall hit bounds the walk (walls hit lie within `max_distance`).
        let walk = Cast { max_distance: best.map_or(cast.max_distance, |b| b.1.distance), ..*cast };
        let grid = self.spatial_index.grid(&self.slots, self.moved_at_step);
        self.cast_through(&grid, &walk, |slot, contact| {
            let handle = self.slots[slot].handle();
            let target = BodyOrWall::Body(handle);
            if closer((contact.distance, target), &best)
                && self.accepted(slot, filter).is_some()
                && keep(handle)
            {
                best = Some((target, contact));
            }
            best.map_or(f32::INFINITY, |b| b.1.distance)
        });
        best
    }

    /// Walks the cast through the grid (see the module docs) and calls `found` with every
    /// body it meets within its `max_distance`, maybe several times for one body. `found`
    /// returns the distance of the closest hit it keeps (infinite to see every hit); the walk
    /// stops once the stretches walked reach beyond it.
    fn cast_through(
        &self,
        grid: &Grid,
        cast: &Cast,
        mut found: impl FnMut(usize, CastContact) -> f32,
    ) {
        if grid.is_empty() {
            return;
        }
        let (origin, direction) = (cast.origin, cast.direction);
        let shape_reach = cast.shape.map_or(Vec2::ZERO, |s| s.half_size());
        let (low, high) = grid.extent;
        let around = (low - shape_reach - grid.margin, high + shape_reach + grid.margin);
        let Some((enter, exit)) = clip(origin, direction, around, cast.max_distance) else {
            return;
        };
        let mut bound = f32::INFINITY;
        let mut test = |entry: &Entry, bound: &mut f32| {
            let Some(contact) = exact(cast, entry).filter(reachable) else { return };
            if contact.distance <= cast.max_distance {
                *bound = found(entry.slot(), contact);
            }
        };
        for entry in &grid.large {
            test(entry, &mut bound);
        }
        // The points `origin + t·direction` of the stretches carry the rounding of the larger
        // of |origin| and t, a few ulps: the stretches' boxes are widened by as much, so that
        // a far origin still finds the cells its path really crosses.
        let rounding = 4.0 * f32::EPSILON * (origin.abs().max_element() + exit.abs());
        let widen = shape_reach + rounding;
        // From one cell before the union box (no body lies there) to where the ray leaves
        // it. A stretch is one cell long after one that met bodies; across empty cells each
        // is twice as long as the last, up to `MAX_STRETCH` cells, so that empty space is
        // crossed in a few lookups.
        let cell = grid.cell_size();
        let mut a = (enter - cell).max(0.0);
        let mut stretch = cell;
        let mut walked = CellRange::EMPTY;
        loop {
            // Where a + stretch rounds back to a (a cell below the rounding step of t), the
            // rest of the way is one stretch: the walk always ends.
            let b = if a + stretch > a { (a + stretch).min(exit) } else { exit };
            let (p, q) = (origin + a * direction, origin + b * direction);
            let range = grid.cells_near(p.min(q) - widen, p.max(q) + widen);
            let mut met = false;
            for y in range.y.0..=range.y.1 {
                for x in range.x.0..=range.x.1 {
                    // Neighbouring stretches share cells; the last one's were tested.
                    if !walked.contains(x, y) {
                        let items = grid.cell_items(x, y);
                        met |= !items.is_empty();
                        for entry in items {
                            test(entry, &mut bound);
                        }
                    }
                }
            }
            if bound <= b || b >= exit {
                break;
            }
            walked = range;
            a = b;
            stretch = if met { cell } else { (2.0 * stretch).min(MAX_STRETCH * cell) };
        }
    }

    /// The walls a cast meets within its `max_distance`.
    fn wall_hits(&self, cast: &Cast) -> impl Iterator<Item = (BodyOrWall, CastContact)> + '_ {
        let cast = *cast;
        let (origin, direction) = (cast.origin, cast.direction);
        // A switched-off wall (R-GAME-7) is not there to be hit.
        WallId::ALL.into_iter().filter(|&id| self.wall_enabled(id)).filter_map(move |id| {
            let wall = &self.walls[id.index()];
            let contact = match &cast.shape {
                Some(shape) => collision::cast_wall(shape, origin, direction, wall)?,
                None => {
                    let hit = collision::ray_wall(origin, direction, wall, 0.0)?;
                    as_cast(hit, origin, direction)
                }
            };
            (reachable(&contact) && contact.distance <= cast.max_distance)
                .then_some((BodyOrWall::Wall(id), contact))
        })
    }

    /// The handle of the body in `slot` if it passes `filter`.
    fn accepted(&self, slot: usize, filter: &QueryFilter) -> Option<BodyHandle> {
        let slot = &self.slots[slot];
        let handle = slot.handle();
        slot.body.as_ref().filter(|body| filter.accepts(handle, body)).map(|_| handle)
    }
}

impl Cast {
    /// Checks the inputs and normalises the direction; every bad one is named.
    fn checked(
        shape: Option<Shape>,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
    ) -> Result<Cast, PhysicsError> {
        let mut problems = Vec::new();
        if !origin.is_finite() {
            problems.push(problem("origin", origin, "finite numbers"));
        }
        // Any finite length but 0: the square of a huge or tiny one over- or underflows,
        // which `normalize_finite` avoids.
        let unit = normalize_finite(direction);
        if unit.is_none() {
            problems.push(problem("direction", direction, "finite numbers, not (0, 0)"));
        }
        if max_distance.is_nan() || max_distance < 0.0 {
            problems.push(problem("max_distance", max_distance, "0 ..= infinity px"));
        }
        let size = format!("0 ..= {MAX_BODY_SIZE} px");
        let fits = |x: f32| (0.0..=MAX_BODY_SIZE).contains(&x);
        match shape {
            Some(Shape::Circle { radius }) if !fits(radius) => {
                problems.push(problem("shape.radius", radius, size));
            }
            Some(Shape::Rect { half_extents: h }) if !(fits(h.x) && fits(h.y)) => {
                problems.push(problem("shape.half_extents", h, format!("each {size}")));
            }
            _ => {}
        }
        match unit {
            Some(direction) if problems.is_empty() => {
                Ok(Cast { shape, origin, direction, max_distance })
            }
            _ => Err(PhysicsError::Invalid(ConfigError { problems })),
        }
    }
}

/// The exact test of a cast against one body.
fn exact(cast: &Cast, entry: &Entry) -> Option<CastContact> {
    let (origin, target) = (cast.origin, entry.shape());
    match &cast.shape {
        Some(shape) => {
            collision::cast_shape(shape, origin, cast.direction, &target, entry.position)
        }
        None => {
            let hit = match target {
                Shape::Circle { radius } => {
                    collision::ray_circle(origin, cast.direction, entry.position, radius)
                }
                Shape::Rect { half_extents } => {
                    collision::ray_rect(origin, cast.direction, entry.position, half_extents)
                }
            }?;
            Some(as_cast(hit, origin, cast.direction))
        }
    }
}

/// A ray's contact with its hit point, `origin + distance·direction`.
fn as_cast(hit: collision::RayContact, origin: Vec2, direction: Vec2) -> CastContact {
    CastContact {
        distance: hit.distance,
        normal: hit.normal,
        point: origin + hit.distance * direction,
    }
}

/// Whether the cast reaches the contact in f32: its distance, point and normal are finite.
/// A wall met at a grazing angle, or a body seen from near `f32::MAX`, may lie further along
/// the path than f32 can count; that contact is no hit (an infinite distance and point, or
/// NaN, would carry into the caller's game).
fn reachable(contact: &CastContact) -> bool {
    contact.distance.is_finite() && contact.point.is_finite() && contact.normal.is_finite()
}

fn ray_hit((target, c): (BodyOrWall, CastContact)) -> RayHit {
    RayHit { target, distance: c.distance, point: c.point, normal: c.normal }
}

/// Whether the body's shape overlaps the box `min ..= max`, touching included: box against
/// box on both axes; a circle when the point of the box nearest its centre lies in it.
fn overlaps(entry: &Entry, min: Vec2, max: Vec2) -> bool {
    let (low, high) = (entry.position - entry.half, entry.position + entry.half);
    if !(low.cmple(max).all() && min.cmple(high).all()) {
        return false;
    }
    match entry.shape() {
        Shape::Circle { radius } => {
            let nearest = entry.position.clamp(min, max);
            (nearest - entry.position).length_squared() <= radius * radius
        }
        Shape::Rect { .. } => true,
    }
}

/// The part `enter ..= exit` of the ray `origin + t·direction`, `0 ≤ t ≤ limit`, inside the
/// box `min ..= max` (slab method, as in `collision/ray.rs`), or None if it misses.
fn clip(origin: Vec2, direction: Vec2, (min, max): (Vec2, Vec2), limit: f32) -> Option<(f32, f32)> {
    let (mut enter, mut exit) = (0.0_f32, limit);
    for axis in 0..2 {
        let (o, d) = (origin[axis], direction[axis]);
        if d == 0.0 {
            if o < min[axis] || o > max[axis] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((min[axis] - o) / d, (max[axis] - o) / d);
        enter = enter.max(t1.min(t2));
        exit = exit.min(t1.max(t2));
    }
    (enter <= exit).then_some((enter, exit))
}

fn problem(
    field: &'static str,
    value: impl fmt::Display,
    allowed: impl Into<String>,
) -> FieldError {
    FieldError { field, value: value.to_string(), allowed: allowed.into() }
}
