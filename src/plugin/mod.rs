//! The Bevy layer: [`SandboxPhysicsPlugin`], the components, interpolated transforms, picking,
//! drag and throw, run-time controls, debug drawing and the egui panel. The physics itself is
//! the core in [`crate::physics`]; this layer adds none of its own (the test
//! `plugin_matches_core` checks it step by step).
//!
//! # Plugins
//! [`SandboxPhysicsPlugin`] is a plugin group; each part can be disabled the Bevy way:
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_sandbox_physics::prelude::*;
//! use bevy_sandbox_physics::plugin::BodyDragPlugin;
//!
//! App::new()
//!     .add_plugins((
//!         DefaultPlugins,
//!         SandboxPhysicsPlugin::default().build().disable::<BodyDragPlugin>(),
//!     ))
//!     .run();
//! ```
//!
//! | part | what it adds |
//! |---|---|
//! | [`PhysicsSimulationPlugin`] | the core world, config, controls and walls; the fixed step |
//! | [`PhysicsInterpolationPlugin`] | every body's `Transform`, interpolated each frame |
//! | [`BodyPickingPlugin`] | the `bevy_picking` backend: pointer events reach the bodies |
//! | [`BodyDragPlugin`] | grab, drag and throw with the pointers |
//! | [`PhysicsDebugDrawPlugin`] | gizmos: shapes, contacts, islands, walls |
//! | [`PhysicsDiagnosticsPlugin`] | step time and steps per second |
//! | `PhysicsPanelPlugin` | the egui panel (feature `panel`) |
//!
//! Not in the group, since its snapshots take memory: [`PhysicsRewindPlugin`], which keeps
//! the last seconds of the simulation for [`PhysicsRewind`] to go back to.
//!
//! # Components
//! Spawning a [`Collider`] with a `Transform` is enough: the collider requires the other
//! components and Bevy inserts their defaults (a dynamic wooden body at rest). Bodies must
//! be top-level entities (no parent): the plugin reads and writes `Transform` as world
//! coordinates, and refuses a body with a `ChildOf` until it is removed. A refused value gets
//! one [`PhysicsWarning`] and the component is put back to its last valid value; a body
//! refused at spawn waits until its `Transform` or a physics component changes. A removed
//! resource of the plugin is put back too, with a warning naming it, at the start of the next
//! frame or fixed step: the config, walls and time scale in force, a [`PhysicsWorld`] with
//! every body entity in it again.
//!
//! | component | who writes it | effect |
//! |---|---|---|
//! | [`Collider`], [`RigidBody`] | you | the body is (re)built on the next step |
//! | [`PhysicsMaterial`] | you | new density, friction, restitution on the next step |
//! | `Transform` | the plugin every frame; you to teleport | a teleport takes effect on the next step and wakes the island; a non-finite translation or rotation, or one outside the walls for a dynamic body, is refused once and put back |
//! | `Transform::scale` | you | ignored: the collider keeps its size (said once per entity, unless the entity has [`VisualScale`]) |
//! | `Transform::rotation` of a rectangle | the plugin | always the identity: rectangles never rotate; a rotation written is put back (said once per entity) |
//! | `ChildOf` (a parent) | you | refused: a body with a parent is not simulated until `ChildOf` is removed |
//! | `Disabled` (Bevy's) | you | the body leaves the simulation as on a despawn, the entity stays as it is; removing `Disabled` brings the body back from its components, as a new spawn. A clear, load or rewind despawns it with the other body entities |
//! | [`LinearVelocity`], [`AngularVelocity`] | the plugin after every step; you to push | a write takes effect on the next step and wakes the island |
//! | [`Sleeping`] | the plugin only | present while the body's island sleeps |
//! | [`PhysicsPose`] | the plugin only | the last two physics poses, for interpolation |
//! | [`NoInterpolation`] | you | the body is drawn at its latest physics pose |
//! | [`VisualScale`] | you | the `Transform` scale sizes the body's picture: nothing is said about it |
//!
//! Removing one of the components the [`Collider`] requires (`Transform`, [`RigidBody`],
//! [`PhysicsMaterial`], the velocities, [`PhysicsPose`]) from a simulated body is refused:
//! it is put back from the body at the start of the next frame, with one warning naming it.
//! To take a body out of the simulation, remove its collider (or disable the entity).
//!
//! # Schedule
//! The core steps in `FixedUpdate`, with `Time<Fixed>` at `1/time_step` Hz (120 Hz by
//! default): one system there runs [`PhysicsSchedule`], whose three chained
//! [`PhysicsSystems`] sets users can order against:
//!
//! 1. [`PhysicsSystems::Prepare`]: config, controls and walls go to the core; new and changed
//!    bodies are built; the user's teleports, velocities and materials are applied.
//! 2. [`PhysicsSystems::Step`]: one `World::step(time_step)` (none while paused).
//! 3. [`PhysicsSystems::Writeback`]: poses, velocities and the sleeping marker go back into the
//!    components.
//!
//! Then, once per frame in `Update`, [`PhysicsSystems::Interpolate`] writes every body's
//! `Transform` at `lerp(previous, current, overstep_fraction)` (R-FIX-2), and the debug
//! drawing follows it. `Time<Virtual>`'s max delta is
//! `time_step · max_steps_per_frame / PhysicsTimeScale` (Bevy clamps the real frame time to it
//! before applying the relative speed), so a long frame runs at most `max_steps_per_frame`
//! steps at any time scale and drops the rest of the backlog (R-FIX-1). That cap is Bevy's
//! own (`Time<Virtual>` feeds `Time` in `Update` too), so every system sees `Time::delta()`
//! clamped to `time_step · max_steps_per_frame`: 66.7 ms by default instead of Bevy's 250 ms.
//!
//! These clocks are the plugin's: `Time<Fixed>`'s timestep follows
//! [`PhysicsConfig::time_step`], `Time<Virtual>`'s relative speed [`PhysicsTimeScale`], its
//! max delta [`PhysicsConfig::max_steps_per_frame`]. Set directly, they would run the world
//! at the wrong speed and past the cap; such a change is put back before it times a frame,
//! with one [`PhysicsWarning`] naming the setting to use instead. Pausing `Time<Virtual>` is
//! fine: a paused clock runs no steps.
//!
//! # Frames
//! Everything public here is in Bevy's world frame (px, y up, counter-clockwise angles),
//! except [`PhysicsConfig`], which is the core's type and keeps its y-down gravity
//! `(0, +980)`. [`CoordinateMapping`] converts between the two.

mod components;
mod config;
mod controls;
mod coords;
mod debug_draw;
mod diagnostics;
mod drag;
mod events;
mod interpolation;
mod lifecycle;
mod motion;
#[cfg(feature = "panel")]
mod panel;
mod physics_world;
mod picking;
mod presets;
mod recording;
mod resources;
mod rewind;
mod scene;
mod schedule;
mod simulation;
mod spatial;
mod sync;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

pub use crate::physics::CollisionLayers;
pub use components::{
    AngularVelocity, BodyPose, Collider, LinearVelocity, NoInterpolation, PhysicsMaterial,
    PhysicsPose, RigidBody, Sleeping, VisualScale, body_components,
};
pub use controls::{
    PhysicsBounds, PhysicsControls, PhysicsTimeScale, WallInsets, WallsFollowWindow,
};
pub use coords::CoordinateMapping;
pub use debug_draw::{PhysicsDebugDraw, PhysicsDebugDrawPlugin};
pub use diagnostics::{PhysicsDiagnosticsPlugin, PhysicsStatistics};
pub use drag::{BodyDragPlugin, DragSettings, DragState, Held, NotDraggable, PointerCapture};
pub use events::{CollisionEnd, CollisionEventsEnabled, CollisionStart, Sensor};
pub use interpolation::PhysicsInterpolationPlugin;
pub use motion::{BodyError, ConstantForce, ConstantTorque, GravityScale, PhysicsWalls};
#[cfg(feature = "panel")]
pub use panel::{
    BodyInspector, BodyInspectorParams, CLICK_SLOP, MAX_POINTS_PER_LINE, PhaseMillis, PhysicsPanel,
    PhysicsPanelParams, PhysicsPanelPlugin, PhysicsPlots, PlotSample, body_inspector_ui,
    physics_panel_ui, physics_plots_ui, show_body_inspector, show_physics_panel,
    show_physics_plots,
};
pub use physics_world::{BodyContact, Contact, PhysicsWarning, PhysicsWorld};
pub use picking::{BodyPickingPlugin, BodyPickingSystems, HoveredBodies};
pub use presets::{
    BUILTIN_PRESETS, PresetError, builtin_preset, config_from_ron, config_to_ron, load_preset,
    save_preset,
};
pub use recording::{PlayPhysicsRecording, SessionRecording};
pub use rewind::{PhysicsRewind, PhysicsRewindPlugin};
pub use scene::{LoadPhysicsScene, load_scene};
pub use schedule::{PhysicsSchedule, PhysicsSystems};
pub use simulation::PhysicsSimulationPlugin;
pub use spatial::{EntityOrWall, SpatialHit, SpatialQuery, SpatialQueryFilter};

use crate::physics::PhysicsConfig;

/// The default world: 1280 × 720 px centred on the origin, the view of a default `Camera2d`
/// in a window of that size.
pub const DEFAULT_BOUNDS: Rect =
    Rect { min: Vec2::new(-640.0, -360.0), max: Vec2::new(640.0, 360.0) };

/// Runs the physics core in a Bevy app: every part of the plugin layer, as one plugin group.
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_sandbox_physics::prelude::*;
///
/// App::new()
///     .add_plugins((DefaultPlugins, SandboxPhysicsPlugin::default().debug_draw(true)))
///     .add_systems(Startup, |mut commands: Commands| {
///         commands.spawn(Camera2d);
///         commands.spawn((Collider::circle(20.0), Transform::from_xyz(0.0, 200.0, 0.0)));
///     })
///     .run();
/// ```
///
/// The settings below configure the parts; [`PluginGroup::build`] gives the group's builder,
/// on which a part can be disabled or replaced (see the [module docs](self) for the parts).
#[derive(Clone, Debug)]
pub struct SandboxPhysicsPlugin {
    /// The initial config (an app that already has a `PhysicsConfig` resource keeps that one).
    pub config: PhysicsConfig,
    /// The initial walls in Bevy world coordinates. Their top-left corner becomes the core's
    /// origin for good. Default [`DEFAULT_BOUNDS`].
    pub bounds: Rect,
    /// Keep the walls at the primary window's rectangle around the origin, minus
    /// [`WallInsets`]. Default false.
    pub walls_follow_window: bool,
    /// Keep [`WallInsets`] clear of the egui windows docked at the window's left and right
    /// edges (feature `panel`). Default false.
    pub walls_clear_panels: bool,
    /// Start with the debug drawing on ([`PhysicsDebugDraw::enabled`]). Default false.
    pub debug_draw: bool,
    /// Picking, drag and throw ([`BodyPickingPlugin`] and [`BodyDragPlugin`]). Default true.
    pub picking: bool,
    /// The egui panel (`PhysicsPanelPlugin`, feature `panel`). Default true.
    pub panel: bool,
}

impl Default for SandboxPhysicsPlugin {
    fn default() -> Self {
        Self {
            config: PhysicsConfig::default(),
            bounds: DEFAULT_BOUNDS,
            walls_follow_window: false,
            walls_clear_panels: false,
            debug_draw: false,
            picking: true,
            panel: true,
        }
    }
}

impl SandboxPhysicsPlugin {
    /// With this initial config.
    pub fn config(mut self, config: PhysicsConfig) -> Self {
        self.config = config;
        self
    }

    /// With these initial walls (Bevy world coordinates).
    pub fn bounds(mut self, bounds: Rect) -> Self {
        self.bounds = bounds;
        self
    }

    /// With the walls following the primary window or not.
    pub fn walls_follow_window(mut self, follow: bool) -> Self {
        self.walls_follow_window = follow;
        self
    }

    /// With the walls kept clear of the egui windows docked at the window's sides or not
    /// (feature `panel`; it matters when the walls follow the window).
    pub fn walls_clear_panels(mut self, clear: bool) -> Self {
        self.walls_clear_panels = clear;
        self
    }

    /// With the debug drawing on or off at start.
    pub fn debug_draw(mut self, enabled: bool) -> Self {
        self.debug_draw = enabled;
        self
    }

    /// With picking, drag and throw on or off.
    pub fn picking(mut self, enabled: bool) -> Self {
        self.picking = enabled;
        self
    }

    /// With the egui panel on or off (it needs the `panel` feature and a renderer).
    pub fn panel(mut self, enabled: bool) -> Self {
        self.panel = enabled;
        self
    }
}

impl PluginGroup for SandboxPhysicsPlugin {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>()
            .add(PhysicsSimulationPlugin {
                config: self.config,
                bounds: self.bounds,
                walls_follow_window: self.walls_follow_window,
            })
            .add(PhysicsInterpolationPlugin)
            .add(BodyPickingPlugin)
            .add(BodyDragPlugin)
            .add(PhysicsDebugDrawPlugin { enabled: self.debug_draw })
            .add(PhysicsDiagnosticsPlugin);
        #[cfg(feature = "panel")]
        let group = group.add(PhysicsPanelPlugin { walls_clear_panels: self.walls_clear_panels });
        #[cfg(feature = "panel")]
        let group = if self.panel { group } else { group.disable::<PhysicsPanelPlugin>() };
        if self.picking {
            group
        } else {
            group.disable::<BodyPickingPlugin>().disable::<BodyDragPlugin>()
        }
    }
}
