//! The drag controller: grab, drag and throw bodies with the pointers (§13, R-DRAG-1 …
//! R-DRAG-4).
//!
//! It runs after the hover state is known ([`PickingSystems::Last`]), as four chained
//! systems:
//!
//! 1. [`drop_stale_grips`]: bodies that are gone or became undraggable are let go; so is every
//!    body when dragging was switched off.
//! 2. [`steer_held_bodies`]: every frame the held body's drag target is the pointer position
//!    minus the offset at which it was grabbed, and the core steers it there with
//!    `v = (target − position)·rate`: it still collides, pushes lighter bodies and is stopped
//!    by walls and heavy stacks (R-DRAG-1). The pointer position is read through the camera
//!    the body was grabbed in, so a drag goes on when the pointer crosses a panel or another
//!    camera's viewport. The [`VelocityTracker`] gets one sample per frame at the frame's real
//!    timestamp (`Time<Real>`, which a paused or slowed `Time<Virtual>` does not bend), also
//!    when the pointer did not move.
//! 3. [`grab_and_release`]: the frame's pointer presses and releases, in order. A press of
//!    [`DragSettings::button`] grabs the body that `bevy_picking` reports as hovered by that
//!    pointer, so anything drawn above it that blocks picking, such as an egui window, a Bevy
//!    UI node or a sprite, takes the press instead. Pointers a UI layer reported in
//!    [`PointerCapture`] never grab. [`World::grab`](crate::physics::World::grab) wakes the
//!    body's island; the held body feels no gravity, never bounces and never sleeps
//!    (R-DRAG-2). On release the body is thrown with the tracked velocity (clamped to
//!    `max_speed` by the core); a pointer held still before release has decayed to rest, and
//!    the body just drops (R-DRAG-3).
//! 4. [`release_unpressed`]: a release that never arrived (focus lost, a touch cancelled
//!    elsewhere) is treated as if it had.
//!
//! While [`PhysicsControls::paused`] the body is moved directly
//! ([`World::move_held_directly`](crate::physics::World::move_held_directly)) and released
//! without a throw (R-DRAG-4).

use bevy::camera::RenderTarget;
use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::ecs::system::SystemParam;
use bevy::picking::PickingSystems;
use bevy::picking::pointer::{
    Location, PointerAction, PointerButton, PointerId, PointerInput, PointerLocation, PointerPress,
};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::controls::PhysicsControls;
use super::physics_world::PhysicsWorld;
use super::picking::{BodyHover, BodyPickingSystems};
use super::resources::{RestoreRemoved, simulation_present};
use crate::physics::{BodyHandle, Input, VelocityTracker};

/// Grab, drag and throw bodies with the pointers: one body per pointer, so a second finger
/// holds a second body.
///
/// A press grabs the body under the pointer as the picking backend
/// ([`BodyPickingPlugin`](super::BodyPickingPlugin)) reports it; the held body follows the
/// pointer and still collides; a release throws it with the pointer's velocity, or drops it
/// if the pointer was held still; while paused the body is moved directly and not thrown.
/// [`DragSettings::enabled`] turns dragging off (the backend keeps reporting hits), and a
/// [`NotDraggable`] body is picked but never grabbed.
///
/// Needs `bevy_picking`'s `PickingPlugin` (part of `DefaultPlugins`); without it (a headless
/// app) the plugin adds nothing but its resources.
#[derive(Clone, Copy, Debug, Default)]
pub struct BodyDragPlugin;

impl Plugin for BodyDragPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DragSettings>()
            .init_resource::<DragState>()
            .init_resource::<PointerCapture>()
            .restore_when_removed("as at startup", |_| DragSettings::default())
            .restore_when_removed("no body held: the held ones were let go", release_all)
            .restore_when_removed("empty", |_| PointerCapture::default())
            .register_type::<DragSettings>()
            .register_type::<NotDraggable>()
            .register_type::<Held>();
    }

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<bevy::picking::PickingPlugin>() {
            debug!("BodyDragPlugin: no PickingPlugin in the app, drag is off");
            return;
        }
        app.configure_sets(
            PreUpdate,
            (
                BodyPickingSystems::Capture
                    .after(PickingSystems::Backend)
                    .before(BodyPickingSystems::Drag),
                BodyPickingSystems::Drag.in_set(PickingSystems::Last),
            ),
        )
        .add_systems(
            PreUpdate,
            (
                clear_pointer_capture
                    .before(BodyPickingSystems::Capture)
                    .run_if(resource_exists::<PointerCapture>),
                // One system's worth of commands: applied together after the last one.
                // Skipped in a frame in which a resource they read was removed.
                (drop_stale_grips, steer_held_bodies, grab_and_release, release_unpressed)
                    .chain_ignore_deferred()
                    .in_set(BodyPickingSystems::Drag)
                    .run_if(
                        simulation_present
                            .and_then(resource_exists::<DragSettings>)
                            .and_then(resource_exists::<DragState>)
                            .and_then(resource_exists::<PointerCapture>),
                    ),
            ),
        );
    }
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
    /// Forgets every grip without a call on the core: for a world whose body entities were
    /// all despawned (a load, a rewind, a playback's start; see `scene::adopt_world`).
    pub(crate) fn forget_grips(&mut self) {
        self.grips.clear();
    }

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

/// A [`DragState`] with no grip, for one that was removed or a world no pointer holds a body
/// of (`simulation::rebuilt_world`): the bodies the core still holds are let go at rest and
/// lose their [`Held`] marker.
pub(crate) fn release_all(world: &mut World) -> DragState {
    if let Some(mut physics) = world.get_resource_mut::<PhysicsWorld>() {
        physics.release_held();
    }
    remove_held_markers(world);
    DragState::default()
}

/// Takes every [`Held`] marker away, from disabled entities too (a held body disabled in the
/// frame its world went, or lost its collider since its grip was taken, still has one): for
/// a world whose grips are all gone.
pub(crate) fn remove_held_markers(world: &mut World) {
    let marked: Vec<Entity> =
        world.query_filtered::<Entity, (With<Held>, Allow<Disabled>)>().iter(world).collect();
    for entity in marked {
        world.entity_mut(entity).remove::<Held>();
    }
}

fn clear_pointer_capture(mut capture: ResMut<PointerCapture>) {
    capture.clear();
}

/// The settings and state a grab or a release depends on.
#[derive(SystemParam)]
struct DragRules<'w, 's> {
    settings: Res<'w, DragSettings>,
    controls: Res<'w, PhysicsControls>,
    capture: Res<'w, PointerCapture>,
    time: Res<'w, Time<Real>>,
    not_draggable: Query<'w, 's, (), With<NotDraggable>>,
}

impl DragRules<'_, '_> {
    /// The frame's real timestamp, s: the tracker's clock.
    fn now(&self) -> f64 {
        self.time.elapsed_secs_f64()
    }

    /// Whether the world is paused: held bodies move directly and are not thrown.
    fn paused(&self) -> bool {
        self.controls.paused
    }
}

/// The pointers and the 2D cameras they are read through.
#[derive(SystemParam)]
struct Pointers<'w, 's> {
    pointers: Query<'w, 's, (&'static PointerId, &'static PointerLocation, &'static PointerPress)>,
    cameras: Query<
        'w,
        's,
        (&'static Camera, &'static RenderTarget, &'static GlobalTransform),
        With<Camera2d>,
    >,
    primary_window: Query<'w, 's, Entity, With<PrimaryWindow>>,
}

impl Pointers<'_, '_> {
    /// Where `pointer` is now, if it exists and is on a render target.
    fn location(&self, pointer: &PointerId) -> Option<Location> {
        self.pointers
            .iter()
            .find(|(id, ..)| *id == pointer)
            .and_then(|(_, l, _)| l.location.clone())
    }

    /// Whether `pointer` exists and has `button` up.
    fn is_released(&self, pointer: &PointerId, button: PointerButton) -> bool {
        self.pointers.iter().find(|(id, ..)| *id == pointer).is_some_and(|(_, _, press)| {
            !match button {
                PointerButton::Primary => press.is_primary_pressed(),
                PointerButton::Secondary => press.is_secondary_pressed(),
                PointerButton::Middle => press.is_middle_pressed(),
            }
        })
    }

    /// The world point (Bevy frame) under `location` as seen by `camera`, if the pointer is
    /// on the camera's render target; inside its viewport or not, so a drag goes on across
    /// other viewports. `Err` if the camera is gone.
    fn world_point(&self, location: &Location, camera: Entity) -> Result<Option<Vec2>, ()> {
        let (camera, target, transform) = self.cameras.get(camera).map_err(|_| ())?;
        if target.normalize(self.primary_window.single().ok()).as_ref() != Some(&location.target) {
            return Ok(None);
        }
        Ok(camera.viewport_to_world_2d(transform, location.position).ok().filter(|p| p.is_finite()))
    }
}

/// The grips and what a grab or a release changes: the core world and the [`Held`] markers.
#[derive(SystemParam)]
struct Grips<'w, 's> {
    state: ResMut<'w, DragState>,
    physics: ResMut<'w, PhysicsWorld>,
    commands: Commands<'w, 's>,
}

impl Grips<'_, '_> {
    /// `pointer` grabs `entity`'s body at `point` (core frame), seen through `camera`.
    /// Static bodies cannot be held: they stay where they are.
    fn grab(
        &mut self,
        pointer: PointerId,
        entity: Entity,
        camera: Entity,
        point: Vec2,
        rules: &DragRules,
    ) {
        let physics = &mut *self.physics;
        let Some(handle) = physics.handle(entity) else { return };
        if physics.apply(Input::Grab(handle)).is_err() {
            return;
        }
        let body_position = physics.world().body(handle).map_or(point, |body| body.position());
        let config = physics.world().config();
        let mut tracker = VelocityTracker::new(config.tracker_window, config.tracker_tau);
        tracker.push(rules.now(), point);
        let grip = Grip { entity, handle, camera, offset: point - body_position, tracker };
        steer(physics, &grip, point, rules.paused());
        self.state.grips.insert(pointer, grip);
        self.commands.entity(entity).try_insert(Held { pointer });
    }

    /// Releases `pointer`'s body: thrown with the tracked velocity, or dropped at rest.
    fn let_go(&mut self, pointer: PointerId, throw: bool) {
        let Some(grip) = self.state.grips.remove(&pointer) else { return };
        let velocity = if throw { grip.tracker.velocity() } else { Vec2::ZERO };
        // A stale handle means the body is gone already: nothing to release.
        let release = Input::Release { body: grip.handle, throw_velocity: velocity };
        let _ = self.physics.apply(release);
        if let Ok(mut entity) = self.commands.get_entity(grip.entity) {
            entity.try_remove::<Held>();
        }
    }
}

/// Sets the held body's target to `pointer − offset` (core frame); paused: moves it there.
fn steer(physics: &mut PhysicsWorld, grip: &Grip, pointer: Vec2, paused: bool) {
    let target = pointer - grip.offset;
    let body = grip.handle;
    let result = physics.apply(if paused {
        Input::MoveHeldDirectly { body, target }
    } else {
        Input::SetDragTarget { body, target }
    });
    if let Err(error) = result {
        debug!("drag target for {:?} not set: {error}", grip.entity);
    }
}

/// Lets go of bodies that are gone or became undraggable, and of all when drag is off.
fn drop_stale_grips(rules: DragRules, mut grips: Grips) {
    let stale: Vec<PointerId> = grips
        .state
        .grips
        .iter()
        .filter(|(_, grip)| {
            !rules.settings.enabled
                || grips.physics.handle(grip.entity) != Some(grip.handle)
                || rules.not_draggable.contains(grip.entity)
        })
        .map(|(pointer, _)| *pointer)
        .collect();
    for pointer in stale {
        grips.let_go(pointer, false);
    }
}

/// Moves every held body towards its pointer and feeds the tracker with this frame's sample;
/// lets go of bodies whose pointer or camera is gone.
fn steer_held_bodies(rules: DragRules, pointers: Pointers, mut grips: Grips) {
    let Grips { state, physics, .. } = &mut grips;
    let mut lost = Vec::new();
    for (pointer, grip) in &mut state.grips {
        // A touch that ended without a release has no location.
        let Some(location) = pointers.location(pointer) else {
            lost.push(*pointer);
            continue;
        };
        let Ok(world) = pointers.world_point(&location, grip.camera) else {
            lost.push(*pointer);
            continue;
        };
        let Some(world) = world else { continue };
        let point = physics.mapping().position_to_core(world);
        grip.tracker.push(rules.now(), point);
        steer(physics, grip, point, rules.paused());
    }
    for pointer in lost {
        grips.let_go(pointer, false);
    }
}

/// The frame's presses and releases, in order: a press grabs the hovered body, a release
/// throws it (drops it while paused), a cancel drops it.
fn grab_and_release(
    rules: DragRules,
    mut inputs: MessageReader<PointerInput>,
    hover: BodyHover,
    pointers: Pointers,
    mut grips: Grips,
) {
    let settings = *rules.settings;
    for input in inputs.read() {
        let pointer = input.pointer_id;
        match input.action {
            PointerAction::Press(button) if button == settings.button && settings.enabled => {
                if grips.state.grips.contains_key(&pointer) || rules.capture.is_captured(&pointer) {
                    continue;
                }
                let Some((entity, camera)) = hover.hovered(&pointer, &grips.physics) else {
                    continue;
                };
                let held = grips.state.grips.values().any(|grip| grip.entity == entity);
                if rules.not_draggable.contains(entity) || held {
                    continue;
                }
                let Some(location) = pointers.location(&pointer) else { continue };
                let Ok(Some(world)) = pointers.world_point(&location, camera) else { continue };
                let point = grips.physics.mapping().position_to_core(world);
                grips.grab(pointer, entity, camera, point, &rules);
            }
            PointerAction::Release(button) if button == settings.button => {
                grips.let_go(pointer, !rules.paused());
            }
            PointerAction::Cancel => grips.let_go(pointer, false),
            _ => {}
        }
    }
}

/// Throws the bodies of pointers whose drag button is up although no release arrived.
fn release_unpressed(rules: DragRules, pointers: Pointers, mut grips: Grips) {
    let released: Vec<PointerId> = grips
        .state
        .grips
        .keys()
        .filter(|pointer| pointers.is_released(pointer, rules.settings.button))
        .copied()
        .collect();
    for pointer in released {
        grips.let_go(pointer, !rules.paused());
    }
}
