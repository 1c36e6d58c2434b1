//! The picking backend: which bodies are under each pointer (§13).
//!
//! [`pick_bodies`] is a `bevy_picking` backend (in [`PickingSystems::Backend`], like the
//! sprite and UI backends). For every ray in `bevy_picking`'s [`RayMap`] (one per pointer and
//! active camera whose viewport the pointer is in, built with the camera's own projection and
//! transform, so zoomed, panned and rotated cameras work) that belongs to a 2D camera, it hit
//! tests the circles and rectangles **at their current simulation pose** (the core world's
//! positions, not last frame's `GlobalTransform`) and reports [`PointerHits`]. Bevy's ordinary
//! `Pointer<Over>`, `Pointer<Press>`, `Pointer<Click>`, `Pointer<DragStart>` … events then
//! reach our bodies like any other pickable entity.
//!
//! Depth order: the hit's depth is its distance from the camera's near plane, from the body's
//! `Transform` z (higher z is nearer, as drawn). Bodies at the same z are ordered as the
//! core's [`World::body_at`](crate::physics::World::body_at) orders them: a body later in the
//! world's body list is on top, and counts 1/1024 px nearer per body above it. A body whose z
//! is NaN or infinite (refused by the sync, which puts it back at the next fixed step) is not
//! picked in the meantime: it has no place in the order.
//!
//! [`Pickable`] is honoured as `bevy_picking`'s hover state reads it: a body that neither
//! blocks nor is hoverable (`Pickable::IGNORE`) is never reported, and the list stops at the
//! first body that blocks those below it (every body without the component). A body that
//! blocks but is not hoverable is reported so that it hides the bodies below; `bevy_picking`
//! never hovers it, so it gets no pointer events and is never grabbed.

use bevy::camera::visibility::RenderLayers;
use bevy::ecs::system::SystemParam;
use bevy::math::Ray3d;
use bevy::picking::backend::ray::{RayId, RayMap};
use bevy::picking::backend::{HitData, PointerHits};
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::picking::{Pickable, PickingSystems};
use bevy::prelude::*;

use super::lifecycle::UnlinkLater;
use super::physics_world::PhysicsWorld;
use crate::physics::BodyHandle;

/// Depth step between bodies at the same z, px: the body above is this much nearer.
const SAME_Z_DEPTH_STEP: f32 = 1.0 / 1024.0;

/// The picking backend for the bodies: Bevy's pointer events reach them, hit tested at their
/// simulation pose through every 2D camera, honouring [`Pickable`].
///
/// Needs `bevy_picking`'s `PickingPlugin` (part of `DefaultPlugins`); without it (a headless
/// app) the plugin adds nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct BodyPickingPlugin;

/// The sets of the picking backend and of the drag controller, all in `PreUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyPickingSystems {
    /// In [`PickingSystems::Backend`]: the backend reports the hits.
    Backend,
    /// After the backends, before [`Drag`](Self::Drag): UI layers add the pointers they use
    /// to [`PointerCapture`](super::PointerCapture) (the egui panel does).
    Capture,
    /// In [`PickingSystems::Last`]: the drag controller grabs, moves and releases.
    Drag,
}

impl Plugin for BodyPickingPlugin {
    fn build(&self, _app: &mut App) {}

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<bevy::picking::PickingPlugin>() {
            debug!("BodyPickingPlugin: no PickingPlugin in the app, no picking of bodies");
            return;
        }
        app.configure_sets(PreUpdate, BodyPickingSystems::Backend.in_set(PickingSystems::Backend))
            // Skipped in a frame in which `PhysicsWorld` was removed (it is back in the next).
            .add_systems(
                PreUpdate,
                pick_bodies
                    .in_set(BodyPickingSystems::Backend)
                    .run_if(resource_exists::<PhysicsWorld>),
            );
    }
}

/// The 2D cameras the backend looks through.
type CameraQuery<'w, 's> = Query<
    'w,
    's,
    (&'static Camera, &'static GlobalTransform, &'static Projection, Option<&'static RenderLayers>),
    With<Camera2d>,
>;

/// What the hit test reads about a body: its z, its render layers and how it is pickable.
type BodyQuery<'w, 's> =
    Query<'w, 's, (&'static Transform, Option<&'static RenderLayers>, Option<&'static Pickable>)>;

/// One hit of a ray: the body, where and how deep, and whether it may be hovered.
struct BodyHit {
    entity: Entity,
    hit: HitData,
    hoverable: bool,
}

/// The rays of `bevy_picking` and what the hit test reads about cameras and bodies.
///
/// Public only because [`HoveredBodies`] holds it; not reachable from outside the crate.
#[derive(SystemParam)]
pub struct BodyRays<'w, 's> {
    rays: Option<Res<'w, RayMap>>,
    cameras: CameraQuery<'w, 's>,
    bodies: BodyQuery<'w, 's>,
}

impl BodyRays<'_, '_> {
    /// The bodies `ray` hits through its 2D camera, nearest first down to the first one that
    /// blocks, with the camera's order; `None` if the camera is not an active orthographic
    /// `Camera2d`.
    fn hits(&self, physics: &PhysicsWorld, id: RayId, ray: &Ray3d) -> Option<(f32, Vec<BodyHit>)> {
        let (camera, transform, projection, layers) = self.cameras.get(id.camera).ok()?;
        let Projection::Orthographic(ortho) = projection else { return None };
        if !camera.is_active {
            return None;
        }
        // An orthographic ray starts on the near plane, straight above the pointer's world
        // point: the point itself is the origin's x and y.
        let world = ray.origin.truncate();
        if !world.is_finite() {
            return None;
        }
        let camera_layers = layers.cloned().unwrap_or_default();
        let hits = self.bodies_under(physics, world, transform, ortho.near, &camera_layers, id);
        Some((camera.order as f32, hits))
    }

    /// The bodies under the world point `world` (Bevy frame) as seen from a camera at
    /// `camera_transform` with near plane `near`: nearest first, down to the first that
    /// blocks, bodies that `Pickable::IGNORE` left out.
    fn bodies_under(
        &self,
        physics: &PhysicsWorld,
        world: Vec2,
        camera_transform: &GlobalTransform,
        near: f32,
        camera_layers: &RenderLayers,
        id: RayId,
    ) -> Vec<BodyHit> {
        let point = physics.mapping().position_to_core(world);
        let view_from_world = camera_transform.affine().inverse();
        // The bodies under the point, found in the order the core stores them (front to back
        // through memory: in handle order, the reads of a sorted world's bodies jump about),
        // then put in handle order, in which a later body is on top at equal z.
        let mut containing: Vec<BodyHandle> = physics
            .world()
            .bodies_in_storage_order()
            .filter(|(_, body)| body.contains(point))
            .map(|(handle, _)| handle)
            .collect();
        containing.sort_unstable();
        // (entity, z, pickable) in handle order.
        let mut under: Vec<(Entity, f32, Pickable)> = containing
            .into_iter()
            .filter_map(|handle| {
                let entity = physics.entity(handle)?;
                let (transform, layers, pickable) = self.bodies.get(entity).ok()?;
                if !camera_layers.intersects(&layers.cloned().unwrap_or_default()) {
                    return None;
                }
                // A body with a NaN or infinite z has no place in the depth order (nor is it
                // drawn): left out, it neither takes a grab from the body drawn above it nor
                // hands `bevy_picking` a NaN depth. The next fixed step puts its z back, with
                // a warning.
                let z = transform.translation.z;
                z.is_finite().then(|| (entity, z, pickable.copied().unwrap_or_default()))
            })
            .collect();
        under.reverse();
        // Stable: equal z keeps the topmost-first order from the reversal. Every z is finite
        // here; `partial_cmp` also takes −0 and +0 as equal, as the ranks below do.
        under.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
        let mut previous_z = f32::NAN;
        let mut rank = 0.0;
        let mut hits = Vec::new();
        for (entity, z, pickable) in under {
            rank = if z == previous_z { rank + 1.0 } else { 0.0 };
            previous_z = z;
            if !pickable.is_hoverable && !pickable.should_block_lower {
                continue;
            }
            let position = world.extend(z);
            let in_view = view_from_world.transform_point3(position);
            let depth = -near - in_view.z + rank * SAME_Z_DEPTH_STEP;
            let hit = HitData::new(id.camera, depth, Some(position), Some(Vec3::Z));
            hits.push(BodyHit { entity, hit, hoverable: pickable.is_hoverable });
            if pickable.should_block_lower {
                break;
            }
        }
        hits
    }

    /// The order of `camera`, for a 2D camera.
    fn camera_order(&self, camera: Entity) -> Option<isize> {
        self.cameras.get(camera).ok().map(|(camera, ..)| camera.order)
    }
}

/// The picking backend: reports the bodies under every pointer for every 2D camera.
fn pick_bodies(rays: BodyRays, physics: Res<PhysicsWorld>, mut hits: MessageWriter<PointerHits>) {
    let Some(map) = rays.rays.as_deref() else { return };
    for (&id, ray) in map.iter() {
        let Some((order, picks)) = rays.hits(&physics, id, ray) else { continue };
        if picks.is_empty() {
            continue;
        }
        let picks = picks.into_iter().map(|pick| (pick.entity, pick.hit)).collect();
        hits.write(PointerHits::new(id.pointer, picks, order));
    }
}

/// The topmost simulated body under a pointer, given the core world: the crate's view of
/// [`HoveredBodies`], for systems that hold [`PhysicsWorld`] mutably (the drag controller).
///
/// Public only because [`HoveredBodies`] holds it; not reachable from outside the crate.
#[derive(SystemParam)]
pub struct BodyHover<'w, 's> {
    hover: Option<Res<'w, HoverMap>>,
    rays: BodyRays<'w, 's>,
    /// The entities that left the simulation while [`PhysicsWorld`] was out of the world
    /// (`World::resource_scope`), if its return could not unlink them (see `SpatialQuery`).
    later: Option<Res<'w, UnlinkLater>>,
}

impl BodyHover<'_, '_> {
    /// The body `pointer` hovers and the camera it was hit through: of the hovered bodies,
    /// the nearest one of the highest camera.
    ///
    /// Reads `bevy_picking`'s hover state, so anything drawn above the body that blocks
    /// picking (an egui window, a Bevy UI node, a sprite) hides it. Without the hover state
    /// (no `InteractionPlugin`) it hit tests the pointer's rays itself, with the same rules.
    pub(crate) fn hovered(
        &self,
        pointer: &PointerId,
        physics: &PhysicsWorld,
    ) -> Option<(Entity, Entity)> {
        let candidates: Vec<(Entity, HitData)> = match self.hover.as_deref() {
            Some(hover) => hover
                .get(pointer)
                .map(|hits| hits.iter().map(|(e, hit)| (*e, hit.clone())).collect())
                .unwrap_or_default(),
            None => self
                .rays
                .rays
                .iter()
                .flat_map(|map| map.iter())
                .filter(|(id, _)| id.pointer == *pointer)
                .filter_map(|(&id, ray)| {
                    let (_, hits) = self.rays.hits(physics, id, ray)?;
                    hits.into_iter().find(|pick| pick.hoverable).map(|pick| (pick.entity, pick.hit))
                })
                .collect(),
        };
        let camera_order = |camera: Entity| self.rays.camera_order(camera).unwrap_or(isize::MIN);
        // Simulated, and not about to leave: one despawned, disabled or given a parent inside
        // a resource scope is still linked in this frame, but must not be named.
        let leaving = |entity: &Entity| self.later.as_ref().is_some_and(|l| l.is_leaving(*entity));
        candidates
            .into_iter()
            .filter(|(entity, _)| physics.handle(*entity).is_some() && !leaving(entity))
            .min_by(|(_, a), (_, b)| {
                camera_order(b.camera)
                    .cmp(&camera_order(a.camera))
                    .then(a.depth.total_cmp(&b.depth))
            })
            .map(|(entity, hit)| (entity, hit.camera))
    }
}

/// The body under each pointer: the one a press would grab, the one to outline or delete.
///
/// ```no_run
/// use bevy::picking::pointer::PointerId;
/// use bevy::prelude::*;
/// use bevy_sandbox_physics::prelude::*;
///
/// fn delete_hovered(keys: Res<ButtonInput<KeyCode>>, bodies: HoveredBodies, mut commands: Commands) {
///     if let (true, Some(body)) = (keys.just_pressed(KeyCode::Delete), bodies.get(&PointerId::Mouse)) {
///         commands.entity(body).despawn();
///     }
/// }
/// ```
///
/// Of the simulated bodies `bevy_picking` hovers with the pointer, the nearest one of the
/// highest camera: anything above the body that blocks picking (an egui window, a UI node)
/// hides it, and a body [`Pickable`] makes unhoverable is never the answer. It needs the
/// picking backend ([`BodyPickingPlugin`]).
#[derive(SystemParam)]
pub struct HoveredBodies<'w, 's> {
    hover: BodyHover<'w, 's>,
    physics: Res<'w, PhysicsWorld>,
}

impl HoveredBodies<'_, '_> {
    /// The body under `pointer`, if any.
    pub fn get(&self, pointer: &PointerId) -> Option<Entity> {
        self.hover.hovered(pointer, &self.physics).map(|(entity, _)| entity)
    }
}
