//! Spatial queries for game code (R-GAME-6): the Bevy face of the core's `World::ray_cast`,
//! `ray_cast_all`, `shape_cast`, `bodies_at_point` and `bodies_in_aabb`, as the
//! [`SpatialQuery`] system parameter.
//!
//! Everything is in Bevy's frame (y up); answers name entities, or a wall. The queries see the
//! bodies where the last fixed step left them (their [`PhysicsPose`](super::PhysicsPose)
//! `current`), not where interpolation draws them in between.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::components::Collider;
use super::lifecycle::UnlinkLater;
use super::physics_world::PhysicsWorld;
use crate::physics::{BodyHandle, BodyOrWall, CollisionLayers, PhysicsError, QueryFilter, WallId};

/// What a query hit or a collision touched: a body's entity, or one of the walls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntityOrWall {
    /// A body's entity.
    Entity(Entity),
    /// A wall.
    Wall(WallId),
}

impl EntityOrWall {
    /// The entity, if it is one.
    pub fn entity(self) -> Option<Entity> {
        match self {
            EntityOrWall::Entity(entity) => Some(entity),
            EntityOrWall::Wall(_) => None,
        }
    }
}

/// Which bodies a spatial query may report.
#[derive(Clone, Debug, PartialEq)]
pub struct SpatialQueryFilter {
    /// A body is reported when these layers and its own interact
    /// (`filter.layers.interacts_with(body.layers)`). Default: every layer.
    pub layers: CollisionLayers,
    /// Bodies never reported, say the shooter itself.
    pub excluded: Vec<Entity>,
    /// Whether rays and shape casts stop at the walls (default: yes). Point and box queries
    /// report bodies only.
    pub walls: bool,
}

impl Default for SpatialQueryFilter {
    fn default() -> Self {
        Self { layers: CollisionLayers::ALL, excluded: Vec::new(), walls: true }
    }
}

impl SpatialQueryFilter {
    /// With these layers.
    pub fn with_layers(mut self, layers: CollisionLayers) -> Self {
        self.layers = layers;
        self
    }

    /// Never reporting `entities`.
    pub fn excluding(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }

    /// With or without the walls.
    pub fn with_walls(mut self, walls: bool) -> Self {
        self.walls = walls;
        self
    }
}

/// A ray's or a shape cast's hit, in Bevy's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpatialHit {
    /// The body's entity or the wall.
    pub target: EntityOrWall,
    /// How far along the (normalised) direction, px: 0 when the cast starts inside or
    /// touching the target.
    pub distance: f32,
    /// The point of contact, px.
    pub point: Vec2,
    /// The target's surface normal there, pointing back at the cast (against the direction
    /// for a cast that starts inside).
    pub normal: Vec2,
}

/// Spatial queries as a system parameter (R-GAME-6): ray casts (first hit and all hits),
/// shape casts, point and box queries, each with a [`SpatialQueryFilter`].
///
/// ```no_run
/// # use bevy::prelude::*;
/// # use bevy_sandbox_physics::plugin::{SpatialQuery, SpatialQueryFilter};
/// fn aim(query: SpatialQuery) {
///     let filter = SpatialQueryFilter::default();
///     if let Ok(Some(hit)) = query.cast_ray(Vec2::ZERO, Vec2::X, 1000.0, &filter) {
///         info!("hit {:?} at {}", hit.target, hit.point);
///     }
/// }
/// ```
///
/// Bad input (a NaN origin, a zero direction, a negative distance) is an `Err` naming the
/// field and the allowed range; nothing is asked of the world then.
///
/// Only bodies with an entity are answered. A body without one is neither reported nor hides
/// what lies behind it: a ray through its place hits the next body or wall. Such a body is
/// one added to the core directly (through [`PhysicsWorld::world_mut`]), or one whose entity
/// left the simulation in this frame (despawned, its `Collider` removed, given a parent,
/// disabled), which the core keeps until the next frame starts.
#[derive(SystemParam)]
pub struct SpatialQuery<'w> {
    physics: Res<'w, PhysicsWorld>,
    /// The entities that left the simulation while [`PhysicsWorld`] was out of the world,
    /// still linked to their bodies if its return could not unlink them (a resource of the
    /// plugin was missing then) until the next frame or step does.
    later: Option<Res<'w, UnlinkLater>>,
}

impl SpatialQuery<'_> {
    /// The first body or wall on the ray from `origin` along `direction` (any length but 0)
    /// within `max_distance` px (may be infinite).
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Option<SpatialHit>, PhysicsError> {
        let m = self.physics.mapping();
        let hit = self.physics.world().ray_cast_where(
            m.position_to_core(origin),
            m.vector_to_core(direction),
            max_distance,
            &self.core_filter(filter),
            |body| self.entity(body).is_some(),
        )?;
        Ok(hit.and_then(|h| self.hit(h.target, h.distance, h.point, h.normal)))
    }

    /// Every body and wall on the ray, each once, nearest first.
    pub fn ray_hits(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<SpatialHit>, PhysicsError> {
        let m = self.physics.mapping();
        let hits = self.physics.world().ray_cast_all(
            m.position_to_core(origin),
            m.vector_to_core(direction),
            max_distance,
            &self.core_filter(filter),
        )?;
        Ok(hits
            .into_iter()
            .filter_map(|h| self.hit(h.target, h.distance, h.point, h.normal))
            .collect())
    }

    /// The first body or wall that `shape`, moved from `origin` along `direction`, touches
    /// within `max_distance` px: the distance is the time of impact.
    pub fn cast_shape(
        &self,
        shape: Collider,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Option<SpatialHit>, PhysicsError> {
        let m = self.physics.mapping();
        let hit = self.physics.world().shape_cast_where(
            shape.shape(),
            m.position_to_core(origin),
            m.vector_to_core(direction),
            max_distance,
            &self.core_filter(filter),
            |body| self.entity(body).is_some(),
        )?;
        Ok(hit.and_then(|h| self.hit(h.target, h.distance, h.point, h.normal)))
    }

    /// The bodies containing `point` (boundary included).
    pub fn point_intersections(
        &self,
        point: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<Entity>, PhysicsError> {
        let core = self.physics.mapping().position_to_core(point);
        let handles = self.physics.world().bodies_at_point(core, &self.core_filter(filter))?;
        Ok(handles.into_iter().filter_map(|h| self.entity(h)).collect())
    }

    /// The bodies whose shape overlaps `rect`.
    pub fn aabb_intersections(
        &self,
        rect: Rect,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<Entity>, PhysicsError> {
        let (min, max) = self.physics.mapping().rect_to_core(rect);
        let handles = self.physics.world().bodies_in_aabb(min, max, &self.core_filter(filter))?;
        Ok(handles.into_iter().filter_map(|h| self.entity(h)).collect())
    }

    /// The entity of the body `handle`: `None` for a body without one, and for one whose
    /// entity left the simulation inside `World::resource_scope::<PhysicsWorld>` (despawned,
    /// disabled, its collider removed or given a parent: such an entity must not be answered).
    fn entity(&self, handle: BodyHandle) -> Option<Entity> {
        let entity = self.physics.entity(handle)?;
        let leaving = self.later.as_ref().is_some_and(|later| later.is_leaving(entity));
        (!leaving).then_some(entity)
    }

    /// The core's filter for `filter`: its exclusions as handles.
    ///
    /// Bodies without an entity are not named here. The casts skip them with a predicate
    /// (`ray_cast_where`, `shape_cast_where`): the core would otherwise answer with such a
    /// body, which [`hit`](Self::hit) cannot report, and the answer would be `None` although
    /// a body or a wall lies behind it. The other queries drop them when they look the
    /// entities up. A predicate rather than their handles in `exclude`: it costs a table read
    /// for the few bodies a cast considers, where a list of every entity-less body would be
    /// built for each query and searched linearly.
    fn core_filter(&self, filter: &SpatialQueryFilter) -> QueryFilter {
        QueryFilter {
            layers: filter.layers,
            exclude: filter.excluded.iter().filter_map(|&e| self.physics.handle(e)).collect(),
            include_walls: filter.walls,
        }
    }

    /// A core hit in Bevy's frame; `None` for a body without an entity (added to the core
    /// directly, or its entity left the simulation in this frame): `ray_hits` drops it, and
    /// the casts never stop at one (see [`core_filter`](Self::core_filter)).
    fn hit(
        &self,
        target: BodyOrWall,
        distance: f32,
        point: Vec2,
        normal: Vec2,
    ) -> Option<SpatialHit> {
        let m = self.physics.mapping();
        let target = match target {
            BodyOrWall::Body(handle) => EntityOrWall::Entity(self.entity(handle)?),
            BodyOrWall::Wall(wall) => EntityOrWall::Wall(wall),
        };
        Some(SpatialHit {
            target,
            distance,
            point: m.position_to_bevy(point),
            normal: m.vector_to_bevy(normal),
        })
    }
}
