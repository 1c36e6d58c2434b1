//! Run-time controls: pause, single step, gravity, clear, and the walls (world bounds).
//!
//! The resources are plain data that any system (a keyboard binding, the egui panel, a
//! test) may write; [`apply_controls`] hands them to the core in
//! [`PhysicsSystems::Prepare`](super::PhysicsSystems), and [`clear_bodies`] carries out a
//! requested clear there, so a change takes effect on the next step.

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::components::Collider;
use super::config::PhysicsClocks;
use super::physics_world::{PhysicsWarning, PhysicsWorld, WarnAndSend};
use crate::physics::{Input, MIN_BODY_SIZE};

/// Pause, single step, gravity and clear.
#[derive(Resource, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct PhysicsControls {
    /// While true, the fixed loop keeps running but the world does not step; bodies stay
    /// drawn at their last pose. Default false.
    pub paused: bool,
    /// Run exactly one step while paused. The plugin sets it back to false after the step
    /// (and ignores it while running).
    pub single_step: bool,
    /// Whether gravity acts. Switching it wakes every body (R-SLP-4). Default true.
    pub gravity_enabled: bool,
    /// Despawn every entity with a [`Collider`] on the next fixed run, disabled ones (Bevy's
    /// `Disabled`) too. The plugin sets it back to false.
    pub clear_requested: bool,
}

impl Default for PhysicsControls {
    fn default() -> Self {
        Self { paused: false, single_step: false, gravity_enabled: true, clear_requested: false }
    }
}

impl PhysicsControls {
    /// Pauses or resumes.
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
    }

    /// Asks for one step while paused.
    pub fn request_single_step(&mut self) {
        self.single_step = true;
    }

    /// Switches gravity on or off.
    pub fn toggle_gravity(&mut self) {
        self.gravity_enabled = !self.gravity_enabled;
    }

    /// Asks to despawn every body (reset).
    pub fn request_clear(&mut self) {
        self.clear_requested = true;
    }
}

/// Slow motion: how fast simulated time runs against real time, 0.05 to 2 (default 1).
///
/// It sets the relative speed of `Time<Virtual>`, which drives `FixedUpdate`: at 0.25 a
/// frame of 1/60 s runs half a step on average instead of two. The step itself keeps its
/// `time_step` (120 Hz by default), so a slowed world computes exactly the states a world at
/// full speed does, only fewer of them per second of real time. A value outside the range
/// (or NaN) is refused with a warning and the resource is put back to the last valid value.
///
/// Set this, not `Time<Virtual>`'s relative speed: the plugin divides `Time<Virtual>`'s max
/// delta by the scale, so that a long frame still runs at most
/// [`max_steps_per_frame`](crate::physics::PhysicsConfig::max_steps_per_frame) steps, and
/// puts a speed set directly back (with a warning).
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct PhysicsTimeScale(pub f32);

impl PhysicsTimeScale {
    /// The slowest allowed speed.
    pub const MIN: f32 = 0.05;
    /// The fastest allowed speed.
    pub const MAX: f32 = 2.0;
}

impl Default for PhysicsTimeScale {
    fn default() -> Self {
        Self(1.0)
    }
}

/// Hands a changed [`PhysicsTimeScale`] to `Time<Virtual>`, or refuses it.
///
/// With the speed it sets `Time<Virtual>`'s max delta, which Bevy applies before the speed
/// (see [`PhysicsClocks::max_delta`]): both take effect with the next frame's time update.
pub(crate) fn apply_time_scale(
    mut scale: ResMut<PhysicsTimeScale>,
    mut clocks: ResMut<PhysicsClocks>,
    mut fixed: ResMut<Time<Fixed>>,
    mut time: ResMut<Time<Virtual>>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    if !scale.is_changed() {
        return;
    }
    let value = scale.0;
    if (PhysicsTimeScale::MIN..=PhysicsTimeScale::MAX).contains(&value) {
        if clocks.scale != value {
            clocks.scale = value;
            clocks.apply(&mut fixed, &mut time);
        }
        return;
    }
    let message = format!(
        "PhysicsTimeScale {value} refused: allowed {} to {}; it stays {}",
        PhysicsTimeScale::MIN,
        PhysicsTimeScale::MAX,
        clocks.scale
    );
    warnings.warn_and_send(None, message);
    scale.bypass_change_detection().0 = clocks.scale;
}

/// The walls: the rectangle bodies are kept in, in Bevy world coordinates (px, y up).
///
/// Write it to move the walls; dynamic bodies left outside are pushed back in over the next
/// steps, static and kinematic ones stay where they are.
/// Each side must be at least 24 px long (2 · `MIN_BODY_SIZE`); a smaller rectangle is refused
/// with a warning and the resource is reset. With
/// [`SandboxPhysicsPlugin::walls_follow_window`](super::SandboxPhysicsPlugin::walls_follow_window)
/// the plugin keeps it equal to the primary window's rectangle around the origin (the view of
/// a default `Camera2d` at the origin), minus [`WallInsets`].
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Resource, Debug, PartialEq, Clone)]
pub struct PhysicsBounds(pub Rect);

/// Whether the walls follow the primary window ([`PhysicsBounds`] kept at the window's
/// rectangle around the origin, minus [`WallInsets`]), switchable at run time: off, the walls
/// stay where [`PhysicsBounds`] puts them, for a world of its own size that a camera zooms and
/// pans over (issue 20); switched on, they take the window's rectangle on the next frame.
/// Starts as
/// [`SandboxPhysicsPlugin::walls_follow_window`](super::SandboxPhysicsPlugin::walls_follow_window)
/// says.
#[derive(Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Deref, DerefMut)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct WallsFollowWindow(pub bool);

/// Room the walls leave at each edge of the primary window when they follow it
/// ([`SandboxPhysicsPlugin::walls_follow_window`](super::SandboxPhysicsPlugin::walls_follow_window)),
/// in logical px, say for panels docked at the window's sides. Default: none.
///
/// Each inset must be finite and at least 0 px: a negative one would put the wall outside the
/// window, where bodies go out of sight (`left: -100000` made the walls 100,000 px wide). An
/// invalid value is refused with a [`PhysicsWarning`] naming the field and the allowed range,
/// and the resource is put back to the last valid insets (R-PLUG-1), whether or not the walls
/// follow the window at the time.
///
/// On an axis where the insets would leave less than [`MIN_WORLD_SIZE`](Self::MIN_WORLD_SIZE)
/// between them, they are ignored and the walls take the window's whole extent: a world
/// narrower than that holds too few bodies to be of use. With the `panel` feature,
/// [`SandboxPhysicsPlugin::walls_clear_panels`](super::SandboxPhysicsPlugin::walls_clear_panels)
/// keeps the left and right insets clear of the egui windows docked there.
#[derive(Resource, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct WallInsets {
    /// Kept clear at the left edge, px.
    pub left: f32,
    /// Kept clear at the right edge, px.
    pub right: f32,
    /// Kept clear at the top edge, px.
    pub top: f32,
    /// Kept clear at the bottom edge, px.
    pub bottom: f32,
}

impl WallInsets {
    /// The narrowest world the insets may leave, px (per axis).
    pub const MIN_WORLD_SIZE: f32 = 160.0;

    /// What an inset may be: finite and at least 0 px.
    pub const ALLOWED: &str = "finite, at least 0 px";

    /// The fields that are not [allowed](Self::ALLOWED), as `WallInsets.<field> = <value>`.
    pub fn invalid_fields(&self) -> Vec<String> {
        [("left", self.left), ("right", self.right), ("top", self.top), ("bottom", self.bottom)]
            .into_iter()
            .filter(|&(_, value)| !Self::valid(value))
            .map(|(name, value)| format!("WallInsets.{name} = {value:?}"))
            .collect()
    }

    fn valid(inset: f32) -> bool {
        inset.is_finite() && inset >= 0.0
    }

    /// The walls for a window of `size` centred on the origin, with these insets. On an axis
    /// where an inset is not [allowed](Self::ALLOWED), or the two leave less than
    /// [`MIN_WORLD_SIZE`](Self::MIN_WORLD_SIZE), the walls take the window's whole extent.
    pub fn walls_in(&self, size: Vec2) -> Rect {
        let full = Rect::from_center_size(Vec2::ZERO, size);
        let (mut min, mut max) = (full.min, full.max);
        let fits = |a: f32, b: f32, extent: f32| {
            Self::valid(a) && Self::valid(b) && extent - a - b >= Self::MIN_WORLD_SIZE
        };
        if fits(self.left, self.right, size.x) {
            min.x += self.left;
            max.x -= self.right;
        }
        if fits(self.top, self.bottom, size.y) {
            min.y += self.bottom;
            max.y -= self.top;
        }
        Rect { min, max }
    }
}

/// The last valid [`WallInsets`]: what a refused write is put back to.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct WallInsetsInForce(pub WallInsets);

/// Refuses a changed [`WallInsets`] with an inset that is not finite or is negative: one
/// warning naming each bad field and the allowed range, and the resource put back to the
/// last valid insets (without a change tick, so [`follow_window`] sees no change). Runs
/// before [`follow_window`], so that no invalid inset ever reaches the walls.
pub(crate) fn check_wall_insets(
    mut insets: ResMut<WallInsets>,
    mut in_force: ResMut<WallInsetsInForce>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    if !insets.is_changed() {
        return;
    }
    let invalid = insets.invalid_fields();
    if invalid.is_empty() {
        in_force.0 = *insets;
        return;
    }
    let message = format!(
        "{} refused (allowed: {}); the insets stay {:?}",
        invalid.join(", "),
        WallInsets::ALLOWED,
        in_force.0
    );
    warnings.warn_and_send(None, message);
    *insets.bypass_change_detection() = in_force.0;
}

/// Hands [`PhysicsControls`] and [`PhysicsBounds`] to the core (a requested clear is
/// [`clear_bodies`]'s).
pub(crate) fn apply_controls(
    controls: Res<PhysicsControls>,
    mut bounds: ResMut<PhysicsBounds>,
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    if controls.gravity_enabled != physics.world().gravity_enabled() {
        let _ = physics.apply(Input::SetGravityEnabled(controls.gravity_enabled));
    }
    if bounds.is_changed() {
        let mapping = physics.mapping();
        let (min, max) = mapping.rect_to_core(bounds.0);
        if (min, max) != physics.world().bounds()
            && let Err(error) = physics.apply(Input::SetBounds { min, max })
        {
            let (min, max) = physics.world().bounds();
            let kept = mapping.rect_to_bevy(min, max);
            let message = format!(
                "PhysicsBounds {:?} refused ({error}); the walls stay at {kept:?}",
                bounds.0
            );
            warnings.warn_and_send(None, message);
            bounds.0 = kept;
        }
    }
}

/// Whether [`PhysicsControls::clear_requested`] is set: the run condition of [`clear_bodies`].
pub(crate) fn clear_requested(controls: Res<PhysicsControls>) -> bool {
    controls.clear_requested
}

/// Removes every body and despawns every entity with a [`Collider`], before the fixed run
/// registers bodies.
///
/// Disabled body entities (Bevy's `Disabled`, hidden from queries that do not name it) are
/// despawned too, through `Allow<Disabled>`: like every other body entity, whether simulated
/// or waiting. Left alive, one would come back into a world cleared of everything else as
/// soon as it was enabled.
///
/// An exclusive system that runs only on request: the despawns take effect at once, so the
/// systems that run on every step need no `Commands`, whose sync point would cost each step
/// a round trip through the executor.
pub(crate) fn clear_bodies(world: &mut World) {
    world.resource_mut::<PhysicsControls>().clear_requested = false;
    world.resource_mut::<PhysicsWorld>().clear();
    let bodies: Vec<Entity> =
        world.query_filtered::<Entity, (With<Collider>, Allow<Disabled>)>().iter(world).collect();
    // Last first: the query visits the tables front to back, and a despawn fills the hole it
    // leaves with the table's last row, so despawning the last row each time moves no data.
    for entity in bodies.into_iter().rev() {
        // An observer may have despawned it with another one; that is fine.
        let _ = world.try_despawn(entity);
    }
}

/// While [`WallsFollowWindow`] is on, keeps [`PhysicsBounds`] equal to the primary window's
/// rectangle centred on the origin, minus the [`WallInsets`].
///
/// Does nothing without a window (headless) and while the window is too small for a body
/// (minimised).
pub(crate) fn follow_window(
    follow: Res<WallsFollowWindow>,
    windows: Query<Ref<Window>, With<PrimaryWindow>>,
    insets: Res<WallInsets>,
    mut bounds: ResMut<PhysicsBounds>,
) {
    let Ok(window) = windows.single() else { return };
    if !follow.0 || !window.is_changed() && !insets.is_changed() && !follow.is_changed() {
        return;
    }
    let size = window.size();
    if size.x < 2.0 * MIN_BODY_SIZE || size.y < 2.0 * MIN_BODY_SIZE {
        return;
    }
    let rect = insets.walls_in(size);
    if bounds.0 != rect {
        bounds.0 = rect;
    }
}
