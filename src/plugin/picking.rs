//! Picking, drag and throw (§13, R-DRAG-1 … R-DRAG-4).
//!
//! # The picking backend
//! [`pick_bodies`] is a `bevy_picking` backend (in [`PickingSystems::Backend`], like the
//! sprite and UI backends): for every pointer and every active 2D camera whose render target
//! the pointer is on, it converts the pointer to world coordinates with the camera's own
//! projection and transform (so zoomed, panned and rotated cameras work), hit tests the
//! circles and rectangles **at their current simulation pose** (the core world's positions,
//! not last frame's `GlobalTransform`), and reports [`PointerHits`]. Bevy's ordinary
//! `Pointer<Over>`, `Pointer<Press>`, `Pointer<Click>`, `Pointer<DragStart>` … events then
//! reach our bodies like any other pickable entity.
//!
//! Depth order: the hit's depth is its distance from the camera's near plane, from the body's
//! `Transform` z (higher z is nearer, as drawn). Bodies at the same z are ordered as the
//! core's [`World::body_at`](crate::physics::World::body_at) orders them: a body later in the
//! world's body list is on top, and counts 1/1024 px nearer per body above it.
//!
//! # Drag and throw
//! [`drag_bodies`] runs after the hover state is known ([`PickingSystems::Last`]):
//!
//! * A press of [`DragSettings::button`] grabs the body that `bevy_picking` reports as
//!   hovered by that pointer ([`HoverMap`]), so anything drawn above it that blocks picking,
//!   such as an egui window, a Bevy UI node or a sprite, takes the press instead. Pointers a UI
//!   layer reported in [`PointerCapture`] never grab.
//!   [`World::grab`](crate::physics::World::grab) wakes the body's island; the held body
//!   feels no gravity, never bounces and never sleeps (R-DRAG-2).
//! * Every frame the held body's drag target is the pointer position minus the offset at
//!   which it was grabbed, and the core steers it there with `v = (target − position)·rate`:
//!   it still collides, pushes lighter bodies and is stopped by walls and heavy stacks
//!   (R-DRAG-1). The pointer position is read through the camera the body was grabbed in, so
//!   a drag goes on when the pointer crosses a panel or another camera's viewport.
//! * The [`VelocityTracker`] gets one sample per frame at the frame's real timestamp
//!   (`Time<Real>`, which a paused or slowed `Time<Virtual>` does not bend), also when the
//!   pointer did not move. On release the body is thrown with the tracked velocity (clamped
//!   to `max_speed` by the core); a pointer held still before release has decayed to rest,
//!   and the body just drops (R-DRAG-3).
//! * While [`PhysicsControls::paused`] the body is moved directly
//!   ([`World::move_held_directly`](crate::physics::World::move_held_directly)) and released
//!   without a throw (R-DRAG-4).
//!
//! One body per pointer; touch pointers are pointers of their own, so a second finger can
//! hold a second body. [`DragSettings::enabled`] turns dragging off (the backend keeps
//! reporting hits), and a [`NotDraggable`] body is picked but never grabbed.

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{NormalizedRenderTarget, RenderTarget};
use bevy::ecs::entity::EntityHashSet;
use bevy::picking::PickingSystems;
use bevy::picking::backend::{HitData, PointerHits};
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::{
    Location, PointerAction, PointerButton, PointerId, PointerInput, PointerLocation, PointerPress,
};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::controls::PhysicsControls;
use super::physics_world::PhysicsWorld;
use crate::physics::{BodyHandle, VelocityTracker};

/// Depth step between bodies at the same z, px: the body above is this much nearer.
const SAME_Z_DEPTH_STEP: f32 = 1.0 / 1024.0;

/// The picking backend and drag and throw; [`SandboxPhysicsPlugin`](super::SandboxPhysicsPlugin)
/// adds it unless told not to.
///
/// Needs `bevy_picking`'s `PickingPlugin` (part of `DefaultPlugins`); without it (a headless
/// app) the plugin adds nothing but its resources.
#[derive(Clone, Copy, Debug, Default)]
pub struct BodyPickingPlugin;

/// The sets of [`BodyPickingPlugin`], all in `PreUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyPickingSystems {
    /// In [`PickingSystems::Backend`]: [`pick_bodies`] reports the hits.
    Backend,
    /// After the backends, before [`Drag`](Self::Drag): UI layers add the pointers they use
    /// to [`PointerCapture`] (the egui panel does).
    Capture,
    /// In [`PickingSystems::Last`]: [`drag_bodies`] grabs, moves and releases.
    Drag,
}

/// How dragging behaves. Change it at any time.
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct DragSettings {
    /// Whether a press grabs a body. Turning it off drops every held body. Default true.
    pub enabled: bool,
    /// The button that grabs (touches are `Primary`). Default `Primary`.
    pub button: PointerButton,
}

impl Default for DragSettings {
    fn default() -> Self {
        Self { enabled: true, button: PointerButton::Primary }
    }
}

/// Marks a body that pointers may pick (hover, click) but never grab.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct NotDraggable;

/// Present on a body while a pointer holds it. Maintained by the plugin (read-only).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Clone)]
pub struct Held {
    /// The pointer that holds it.
    pub pointer: PointerId,
}

/// Pointers that a UI layer uses this frame: a press of theirs never grabs a body.
///
/// Cleared at the start of every frame's picking; a UI layer inserts its pointers in
/// [`BodyPickingSystems::Capture`]. The egui panel does this for every pointer over an egui
/// area, so even a touch that lands on the panel in the very frame it starts grabs nothing.
/// Pointers that already hold a body keep dragging it.
#[derive(Resource, Clone, Debug, Default)]
pub struct PointerCapture {
    pointers: HashSet<PointerId>,
}

impl PointerCapture {
    /// Marks `pointer` as used by a UI this frame.
    pub fn capture(&mut self, pointer: PointerId) {
        self.pointers.insert(pointer);
    }

    /// Whether a UI uses `pointer` this frame.
    pub fn is_captured(&self, pointer: &PointerId) -> bool {
        self.pointers.contains(pointer)
    }

    fn clear(&mut self) {
        self.pointers.clear();
    }
}

/// One pointer's hold on a body.
#[derive(Clone, Debug)]
struct Grip {
    entity: Entity,
    handle: BodyHandle,
    /// The camera the body was grabbed in; the pointer is read through it.
    camera: Entity,
    /// Pointer minus body centre at the grab, core frame.
    offset: Vec2,
    tracker: VelocityTracker,
}

/// Which pointer holds which body.
#[derive(Resource, Debug, Default)]
pub struct DragState {
    grips: HashMap<PointerId, Grip>,
}

impl DragState {
    /// The body `pointer` holds, if any.
    pub fn held_by(&self, pointer: &PointerId) -> Option<Entity> {
        self.grips.get(pointer).map(|grip| grip.entity)
    }

    /// The pointer holding `entity`, if any.
    pub fn holder_of(&self, entity: Entity) -> Option<PointerId> {
        self.grips.iter().find(|(_, grip)| grip.entity == entity).map(|(pointer, _)| *pointer)
    }

    /// Every held body with its pointer.
    pub fn iter(&self) -> impl Iterator<Item = (PointerId, Entity)> + '_ {
        self.grips.iter().map(|(pointer, grip)| (*pointer, grip.entity))
    }

    /// The throw velocity `pointer`'s body would get if released now, px/s in Bevy's frame.
    pub fn throw_velocity(&self, pointer: &PointerId, physics: &PhysicsWorld) -> Option<Vec2> {
        let grip = self.grips.get(pointer)?;
        Some(physics.mapping().vector_to_bevy(grip.tracker.velocity()))
    }
}

impl Plugin for BodyPickingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DragSettings>()
            .init_resource::<DragState>()
            .init_resource::<PointerCapture>()
            .register_type::<DragSettings>()
            .register_type::<NotDraggable>()
            .register_type::<Held>();
    }

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<bevy::picking::PickingPlugin>() {
            debug!("BodyPickingPlugin: no PickingPlugin in the app, picking and drag are off");
            return;
        }
        app.configure_sets(
            PreUpdate,
            (
                BodyPickingSystems::Backend.in_set(PickingSystems::Backend),
                BodyPickingSystems::Capture
                    .after(PickingSystems::Backend)
                    .before(BodyPickingSystems::Drag),
                BodyPickingSystems::Drag.in_set(PickingSystems::Last),
            ),
        )
        .add_systems(
            PreUpdate,
            (
                clear_pointer_capture.before(BodyPickingSystems::Capture),
                pick_bodies.in_set(BodyPickingSystems::Backend),
                drag_bodies.in_set(BodyPickingSystems::Drag),
            ),
        );
    }
}

fn clear_pointer_capture(mut capture: ResMut<PointerCapture>) {
    capture.clear();
}

/// The 2D cameras the backend looks through.
type CameraQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Camera,
        &'static RenderTarget,
        &'static GlobalTransform,
        &'static Projection,
        Option<&'static RenderLayers>,
    ),
    With<Camera2d>,
>;

/// The world position under `location` as seen by `camera`, if the pointer is on the
/// camera's render target and (with `in_viewport`) inside its viewport.
fn pointer_in_world(
    location: &Location,
    camera: &Camera,
    target: &RenderTarget,
    transform: &GlobalTransform,
    primary_window: Option<Entity>,
    in_viewport: bool,
) -> Option<Vec2> {
    let normalized: Option<NormalizedRenderTarget> = target.normalize(primary_window);
    if normalized.as_ref() != Some(&location.target) {
        return None;
    }
    if in_viewport
        && !camera.logical_viewport_rect().is_some_and(|rect| rect.contains(location.position))
    {
        return None;
    }
    camera.viewport_to_world_2d(transform, location.position).ok().filter(|p| p.is_finite())
}

/// The bodies under the world point `world` (Bevy frame), topmost first, with their depth
/// as seen from a camera at `camera_transform` with near plane `near`.
fn bodies_under(
    physics: &PhysicsWorld,
    world: Vec2,
    camera_transform: &GlobalTransform,
    near: f32,
    camera_layers: Option<&RenderLayers>,
    bodies: &Query<(&Transform, Option<&RenderLayers>)>,
) -> Vec<(Entity, HitData)> {
    let point = physics.mapping().position_to_core(world);
    let view_from_world = camera_transform.affine().inverse();
    let camera_layers = camera_layers.cloned().unwrap_or_default();
    // (entity, z, hit position) in the core's body order: later is on top at equal z.
    let mut under: Vec<(Entity, f32, Vec3)> = physics
        .world()
        .bodies()
        .filter(|(_, body)| body.contains(point))
        .filter_map(|(handle, _)| {
            let entity = physics.entity(handle)?;
            let (transform, layers) = bodies.get(entity).ok()?;
            if !camera_layers.intersects(&layers.cloned().unwrap_or_default()) {
                return None;
            }
            let z = transform.translation.z;
            Some((entity, z, world.extend(z)))
        })
        .collect();
    under.reverse();
    // Stable: equal z keeps the topmost-first order from the reversal.
    under.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut previous_z = f32::NAN;
    let mut rank = 0.0;
    under
        .into_iter()
        .map(|(entity, z, position)| {
            rank = if z == previous_z { rank + 1.0 } else { 0.0 };
            previous_z = z;
            let in_view = view_from_world.transform_point3(position);
            let depth = -near - in_view.z + rank * SAME_Z_DEPTH_STEP;
            (entity, HitData::new(Entity::PLACEHOLDER, depth, Some(position), Some(Vec3::Z)))
        })
        .collect()
}

/// The picking backend: reports the bodies under every pointer for every 2D camera.
pub fn pick_bodies(
    pointers: Query<(&PointerId, &PointerLocation)>,
    cameras: CameraQuery,
    primary_window: Query<Entity, With<PrimaryWindow>>,
    physics: Res<PhysicsWorld>,
    bodies: Query<(&Transform, Option<&RenderLayers>)>,
    mut hits: MessageWriter<PointerHits>,
) {
    let primary_window = primary_window.single().ok();
    for (pointer, location) in &pointers {
        let Some(location) = location.location() else { continue };
        for (camera_entity, camera, target, transform, projection, layers) in &cameras {
            let Projection::Orthographic(ortho) = projection else { continue };
            if !camera.is_active {
                continue;
            }
            let Some(world) =
                pointer_in_world(location, camera, target, transform, primary_window, true)
            else {
                continue;
            };
            let mut picks = bodies_under(&physics, world, transform, ortho.near, layers, &bodies);
            if picks.is_empty() {
                continue;
            }
            for (_, hit) in &mut picks {
                hit.camera = camera_entity;
            }
            hits.write(PointerHits::new(*pointer, picks, camera.order as f32));
        }
    }
}

/// The body `pointer` would grab now: the nearest hovered body of the highest camera.
fn hovered_body(
    pointer: &PointerId,
    location: Option<&Location>,
    hover: Option<&HoverMap>,
    physics: &PhysicsWorld,
    cameras: &CameraQuery,
    primary_window: Option<Entity>,
    bodies: &Query<(&Transform, Option<&RenderLayers>)>,
) -> Option<(Entity, Entity)> {
    let candidates: Vec<(Entity, HitData)> = match hover {
        Some(hover) => hover
            .get(pointer)
            .map(|hits| hits.iter().map(|(e, hit)| (*e, hit.clone())).collect())
            .unwrap_or_default(),
        // No hover state (no `InteractionPlugin`): hit test ourselves.
        None => {
            let location = location?;
            cameras
                .iter()
                .filter(|(_, camera, ..)| camera.is_active)
                .filter_map(|(entity, camera, target, transform, projection, layers)| {
                    let Projection::Orthographic(ortho) = projection else { return None };
                    let world = pointer_in_world(
                        location,
                        camera,
                        target,
                        transform,
                        primary_window,
                        true,
                    )?;
                    let mut picks =
                        bodies_under(physics, world, transform, ortho.near, layers, bodies);
                    picks.truncate(1);
                    for (_, hit) in &mut picks {
                        hit.camera = entity;
                    }
                    Some(picks)
                })
                .flatten()
                .collect()
        }
    };
    let camera_order = |camera: Entity| cameras.get(camera).map_or(isize::MIN, |c| c.1.order);
    candidates
        .into_iter()
        .filter(|(entity, _)| physics.handle(*entity).is_some())
        .min_by(|(_, a), (_, b)| {
            camera_order(b.camera).cmp(&camera_order(a.camera)).then(a.depth.total_cmp(&b.depth))
        })
        .map(|(entity, hit)| (entity, hit.camera))
}

/// What the drag system reads about the pointers.
type PointerQuery<'w, 's> =
    Query<'w, 's, (&'static PointerId, &'static PointerLocation, &'static PointerPress)>;

fn is_pressed(press: &PointerPress, button: PointerButton) -> bool {
    match button {
        PointerButton::Primary => press.is_primary_pressed(),
        PointerButton::Secondary => press.is_secondary_pressed(),
        PointerButton::Middle => press.is_middle_pressed(),
    }
}

/// Grabs, drags and throws bodies with the pointers (R-DRAG-1 … R-DRAG-4).
#[expect(clippy::too_many_arguments, reason = "a system reading pointers, cameras and bodies")]
pub fn drag_bodies(
    settings: Res<DragSettings>,
    controls: Res<PhysicsControls>,
    capture: Res<PointerCapture>,
    time: Res<Time<Real>>,
    hover: Option<Res<HoverMap>>,
    mut state: ResMut<DragState>,
    mut physics: ResMut<PhysicsWorld>,
    mut inputs: MessageReader<PointerInput>,
    pointers: PointerQuery,
    cameras: CameraQuery,
    primary_window: Query<Entity, With<PrimaryWindow>>,
    bodies: Query<(&Transform, Option<&RenderLayers>)>,
    not_draggable: Query<(), With<NotDraggable>>,
    mut commands: Commands,
) {
    let now = time.elapsed_secs_f64();
    let primary_window = primary_window.single().ok();
    let paused = controls.paused;
    let state = &mut *state;

    // Bodies that are gone or became undraggable are let go; so is everything when dragging
    // was switched off.
    let stale: Vec<PointerId> = state
        .grips
        .iter()
        .filter(|(_, grip)| {
            !settings.enabled
                || physics.handle(grip.entity) != Some(grip.handle)
                || not_draggable.contains(grip.entity)
        })
        .map(|(pointer, _)| *pointer)
        .collect();
    for pointer in stale {
        let_go(state, &mut physics, &mut commands, pointer, false);
    }

    // Move every held body towards its pointer and feed the tracker with this frame's sample.
    let location_of = |pointer: &PointerId| {
        pointers.iter().find(|(id, ..)| *id == pointer).and_then(|(_, l, _)| l.location.clone())
    };
    let mut lost = Vec::new();
    for (pointer, grip) in &mut state.grips {
        let Some(location) = location_of(pointer) else {
            // The pointer is gone (a touch that ended without a release).
            lost.push(*pointer);
            continue;
        };
        let Ok((_, camera, target, transform, ..)) = cameras.get(grip.camera) else {
            lost.push(*pointer);
            continue;
        };
        let Some(world) =
            pointer_in_world(&location, camera, target, transform, primary_window, false)
        else {
            continue;
        };
        let point = physics.mapping().position_to_core(world);
        grip.tracker.push(now, point);
        steer(&mut physics, grip, point, paused);
    }
    for pointer in lost {
        let_go(state, &mut physics, &mut commands, pointer, false);
    }

    for input in inputs.read() {
        let pointer = input.pointer_id;
        match input.action {
            PointerAction::Press(button) if button == settings.button && settings.enabled => {
                if state.grips.contains_key(&pointer) || capture.is_captured(&pointer) {
                    continue;
                }
                let location = location_of(&pointer);
                let Some((entity, camera_entity)) = hovered_body(
                    &pointer,
                    location.as_ref(),
                    hover.as_deref(),
                    &physics,
                    &cameras,
                    primary_window,
                    &bodies,
                ) else {
                    continue;
                };
                let held: EntityHashSet = state.grips.values().map(|g| g.entity).collect();
                if not_draggable.contains(entity) || held.contains(&entity) {
                    continue;
                }
                let (Some(handle), Some(location)) = (physics.handle(entity), location) else {
                    continue;
                };
                let Ok((_, camera, target, transform, ..)) = cameras.get(camera_entity) else {
                    continue;
                };
                let Some(world) =
                    pointer_in_world(&location, camera, target, transform, primary_window, false)
                else {
                    continue;
                };
                // Static bodies cannot be held: they stay where they are.
                if physics.world_mut().grab(handle).is_err() {
                    continue;
                }
                let point = physics.mapping().position_to_core(world);
                let body_position =
                    physics.world().body(handle).map_or(point, |body| body.position());
                let config = physics.world().config();
                let mut tracker = VelocityTracker::new(config.tracker_window, config.tracker_tau);
                tracker.push(now, point);
                let grip = Grip {
                    entity,
                    handle,
                    camera: camera_entity,
                    offset: point - body_position,
                    tracker,
                };
                steer(&mut physics, &grip, point, paused);
                state.grips.insert(pointer, grip);
                commands.entity(entity).try_insert(Held { pointer });
            }
            PointerAction::Release(button) if button == settings.button => {
                let_go(state, &mut physics, &mut commands, pointer, !paused);
            }
            PointerAction::Cancel => let_go(state, &mut physics, &mut commands, pointer, false),
            _ => {}
        }
    }

    // A release that never arrived (focus lost, a touch cancelled elsewhere): throw as if it had.
    let released: Vec<PointerId> = state
        .grips
        .keys()
        .filter(|pointer| {
            pointers
                .iter()
                .find(|(id, ..)| id == pointer)
                .is_some_and(|(_, _, press)| !is_pressed(press, settings.button))
        })
        .copied()
        .collect();
    for pointer in released {
        let_go(state, &mut physics, &mut commands, pointer, !paused);
    }
}

/// Sets the held body's target to `pointer − offset` (core frame); paused: moves it there.
fn steer(physics: &mut PhysicsWorld, grip: &Grip, pointer: Vec2, paused: bool) {
    let target = pointer - grip.offset;
    let world = physics.world_mut();
    let result = if paused {
        world.move_held_directly(grip.handle, target)
    } else {
        world.set_drag_target(grip.handle, target)
    };
    if let Err(error) = result {
        debug!("drag target for {:?} not set: {error}", grip.entity);
    }
}

/// Releases `pointer`'s body: thrown with the tracked velocity, or dropped at rest.
fn let_go(
    state: &mut DragState,
    physics: &mut PhysicsWorld,
    commands: &mut Commands,
    pointer: PointerId,
    throw: bool,
) {
    let Some(grip) = state.grips.remove(&pointer) else { return };
    let velocity = if throw { grip.tracker.velocity() } else { Vec2::ZERO };
    // A stale handle means the body is gone already: nothing to release.
    let _ = physics.world_mut().release(grip.handle, velocity);
    if let Ok(mut entity) = commands.get_entity(grip.entity) {
        entity.try_remove::<Held>();
    }
}
