//! The Bevy layer: [`SandboxPhysicsPlugin`], the components, interpolated transforms, run-time
//! controls and debug drawing. The physics itself is the core in [`crate::physics`]; this
//! layer adds none of its own (the test `plugin_matches_core` checks it step by step).
//!
//! # Schedule
//! The core steps in `FixedUpdate`, with `Time<Fixed>` at `1/time_step` Hz (120 Hz by
//! default): one system there, [`run_physics_schedule`], runs [`PhysicsSchedule`], whose three
//! chained [`PhysicsSystems`] sets users can order against:
//!
//! 1. [`PhysicsSystems::Prepare`]: config, controls and walls go to the core; new and changed
//!    bodies are built; the user's teleports, velocities and materials are applied.
//! 2. [`PhysicsSystems::Step`]: one `World::step(time_step)` (none while paused).
//! 3. [`PhysicsSystems::Writeback`]: poses, velocities and the sleeping marker go back into the
//!    components.
//!
//! Then, once per frame in `Update`, [`PhysicsSystems::Interpolate`] writes every body's
//! `Transform` at `lerp(previous, current, overstep_fraction)` (R-FIX-2), and the debug
//! drawing follows it. `Time<Virtual>`'s max delta is `time_step · max_steps_per_frame`, so a
//! long frame runs at most `max_steps_per_frame` steps and drops the rest of the backlog
//! (R-FIX-1). That cap is Bevy's own (`Time<Virtual>` feeds `Time` in `Update` too), so every
//! system sees `Time::delta()` clamped to it: 66.7 ms by default instead of Bevy's 250 ms.
//!
//! # Frames
//! Everything public here is in Bevy's world frame (px, y up, counter-clockwise angles),
//! except [`PhysicsConfig`], which is the core's type and keeps its y-down gravity
//! `(0, +980)`. The mapping lives in [`coords`].

pub mod components;
pub mod config;
#[cfg(feature = "panel")]
pub mod config_ui;
pub mod controls;
pub mod coords;
pub mod debug_draw;
pub mod interpolation;
pub mod physics_world;
pub mod picking;
pub mod presets;
pub mod sync;

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;

pub use components::{
    AngularVelocity, BodyPose, Collider, LinearVelocity, NoInterpolation, PhysicsMaterial,
    PhysicsPose, RigidBody, Sleeping, body_components,
};
pub use controls::{PhysicsBounds, PhysicsControls};
pub use coords::CoordinateMapping;
pub use debug_draw::PhysicsDebugDraw;
pub use physics_world::{BodyContact, Contact, PhysicsWarning, PhysicsWorld};
pub use picking::{BodyPickingPlugin, DragSettings, DragState, Held, NotDraggable};

use crate::physics::{PhysicsConfig, World};

/// The default world: 1280 × 720 px centred on the origin, the view of a default `Camera2d`
/// in a window of that size.
pub const DEFAULT_BOUNDS: Rect =
    Rect { min: Vec2::new(-640.0, -360.0), max: Vec2::new(640.0, 360.0) };

/// The plugin's system sets, in the order they run.
///
/// `Prepare`, `Step` and `Writeback` are chained in [`PhysicsSchedule`], which runs once per
/// fixed step; `Interpolate` runs in `Update`.
///
/// In `FixedUpdate` the same three sets are chained around the one system that runs
/// [`PhysicsSchedule`] (it is in `Step`). Order your `FixedUpdate` systems against them:
/// `.before(PhysicsSystems::Prepare)` to push bodies on the coming step,
/// `.after(PhysicsSystems::Writeback)` to read its results. A system that must run between
/// two phases (after the step, before the write-back, say) goes into [`PhysicsSchedule`]
/// itself, ordered against the sets there.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSystems {
    /// Config, controls, new bodies and user writes go to the core.
    Prepare,
    /// One step of the core world.
    Step,
    /// Results go back into the components.
    Writeback,
    /// `Update`: interpolated `Transform`s (and, after them, the debug drawing).
    Interpolate,
}

/// The three phases of a fixed step, in order.
const PHASES: (PhysicsSystems, PhysicsSystems, PhysicsSystems) =
    (PhysicsSystems::Prepare, PhysicsSystems::Step, PhysicsSystems::Writeback);

/// The schedule of one physics step: [`PhysicsSystems::Prepare`], [`PhysicsSystems::Step`] and
/// [`PhysicsSystems::Writeback`], run once per fixed step from `FixedUpdate`.
///
/// Its executor is single-threaded: its systems run in a fixed order on the thread that runs
/// `FixedUpdate`, with no hand-off to a worker thread between them.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhysicsSchedule;

/// Runs [`PhysicsSchedule`]: the plugin's one system in `FixedUpdate`.
pub fn run_physics_schedule(world: &mut bevy::ecs::world::World) {
    // The schedule is only missing while it runs; it never runs itself.
    let _ = world.try_run_schedule(PhysicsSchedule);
}

/// Runs the physics core in a Bevy app.
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
#[derive(Clone, Debug)]
pub struct SandboxPhysicsPlugin {
    /// The initial config (an app that already has a `PhysicsConfig` resource keeps that one).
    pub config: PhysicsConfig,
    /// The initial walls in Bevy world coordinates. Their top-left corner becomes the core's
    /// origin for good. Default [`DEFAULT_BOUNDS`].
    pub bounds: Rect,
    /// Keep the walls at the primary window's rectangle around the origin. Default false.
    pub walls_follow_window: bool,
    /// Start with the debug drawing on ([`PhysicsDebugDraw::enabled`]). Default false.
    pub debug_draw: bool,
    /// Add [`BodyPickingPlugin`]: picking, drag and throw. Default true.
    pub picking: bool,
    /// Add the egui panel (`config_ui::PhysicsPanelPlugin`, feature `panel`). Default true.
    pub panel: bool,
}

impl Default for SandboxPhysicsPlugin {
    fn default() -> Self {
        Self {
            config: PhysicsConfig::default(),
            bounds: DEFAULT_BOUNDS,
            walls_follow_window: false,
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

    /// The core world for the plugin's settings; invalid ones fall back to the defaults
    /// with a warning.
    fn build_world(&self, config: &mut PhysicsConfig) -> (World, Rect) {
        let mut bounds = self.bounds;
        if let Err(error) = config.validate() {
            warn!("SandboxPhysicsPlugin: config refused, using the defaults: {error}");
            *config = PhysicsConfig::default();
        }
        loop {
            match World::new(bounds.size(), config.clone()) {
                Ok(world) => return (world, bounds),
                Err(error) if bounds != DEFAULT_BOUNDS => {
                    warn!(
                        "SandboxPhysicsPlugin: bounds {bounds:?} refused ({error}); using {:?}",
                        DEFAULT_BOUNDS
                    );
                    bounds = DEFAULT_BOUNDS;
                }
                // The defaults are valid; the core's own tests prove it.
                Err(error) => panic!("the default physics world is invalid: {error}"),
            }
        }
    }
}

impl Plugin for SandboxPhysicsPlugin {
    fn build(&self, app: &mut App) {
        let mut config =
            app.world().get_resource::<PhysicsConfig>().cloned().unwrap_or(self.config.clone());
        let (world, bounds) = self.build_world(&mut config);
        let mapping = CoordinateMapping::from_bounds(bounds);

        app.insert_resource(config)
            .insert_resource(PhysicsWorld::new(world, mapping))
            .insert_resource(PhysicsBounds(bounds))
            .init_resource::<PhysicsControls>()
            .init_resource::<sync::SleepMarkerChanges>()
            .insert_resource(PhysicsDebugDraw { enabled: self.debug_draw, ..default() })
            .add_message::<PhysicsWarning>()
            .register_type::<PhysicsConfig>()
            .register_type::<crate::physics::Material>()
            .register_type::<PhysicsControls>()
            .register_type::<PhysicsBounds>()
            .register_type::<PhysicsDebugDraw>()
            .register_type::<Collider>()
            .register_type::<RigidBody>()
            .register_type::<PhysicsMaterial>()
            .register_type::<LinearVelocity>()
            .register_type::<AngularVelocity>()
            .register_type::<Sleeping>()
            .register_type::<NoInterpolation>()
            .register_type::<PhysicsPose>();

        // The physics runs in its own single-threaded schedule, started by one system in
        // `FixedUpdate`: the multi-threaded executor hands each system to a worker thread, and
        // at 10,000 bodies those hand-offs between the plugin's systems cost about 0.1 ms a
        // step, 3 % of the core's step (`benches/plugin_overhead.rs`). The systems run in a
        // fixed order anyway, so a second thread has nothing to do.
        let mut schedule = Schedule::new(PhysicsSchedule);
        schedule.set_executor(SingleThreadedExecutor::new());
        app.add_schedule(schedule)
            .configure_sets(PhysicsSchedule, PHASES.chain())
            .add_systems(
                PhysicsSchedule,
                (
                    (
                        controls::clear_bodies.run_if(controls::clear_requested),
                        config::apply_config,
                        controls::apply_controls,
                        sync::register_bodies,
                        sync::apply_user_writes,
                    )
                        .chain()
                        .in_set(PhysicsSystems::Prepare),
                    sync::step_world.in_set(PhysicsSystems::Step),
                    (
                        sync::write_back,
                        sync::apply_sleep_markers.run_if(sync::sleep_markers_pending),
                    )
                        .chain()
                        .in_set(PhysicsSystems::Writeback),
                ),
            )
            .configure_sets(FixedUpdate, PHASES.chain())
            .add_systems(FixedUpdate, run_physics_schedule.in_set(PhysicsSystems::Step))
            .add_systems(
                Update,
                interpolation::interpolate_transforms.in_set(PhysicsSystems::Interpolate),
            )
            .add_systems(PreStartup, config::time_fixed_loop)
            .add_observer(sync::remove_body);

        if self.picking {
            app.add_plugins(picking::BodyPickingPlugin);
        }
        #[cfg(feature = "panel")]
        if self.panel {
            app.add_plugins(config_ui::PhysicsPanelPlugin);
        }

        if self.walls_follow_window {
            app.add_systems(PreUpdate, controls::follow_window);
        }
    }

    fn finish(&self, app: &mut App) {
        // Only now is it known whether `GizmoPlugin` is there (headless apps have no gizmos).
        if app.world().contains_resource::<GizmoConfigStore>() {
            app.add_systems(
                Update,
                debug_draw::draw_debug
                    .after(PhysicsSystems::Interpolate)
                    .run_if(|draw: Res<PhysicsDebugDraw>| draw.enabled),
            );
        }
    }
}
