//! Helpers of the picking tests: a headless app with a window, a `Camera2d`, the picking
//! plugins and a mouse pointer, driven by `PointerInput` messages (as winit input would be).
#![allow(dead_code)]

use std::time::Duration;

use bevy::camera::{RenderTarget, RenderTargetInfo};
use bevy::ecs::component::Mutable;
use bevy::picking::pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput};
use bevy::picking::{InteractionPlugin, PickingPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use bevy::window::{PrimaryWindow, WindowRef, WindowResolution};
use bevy_sandbox_physics::prelude::*;

/// The window size, px. The default camera shows world x in −400 ..= 400, y in −300 ..= 300.
pub const WINDOW: Vec2 = Vec2::new(800.0, 600.0);

/// The test app's main entities.
pub struct Scene {
    /// The app.
    pub app: App,
    /// The primary window.
    pub window: Entity,
    /// The 2D camera.
    pub camera: Entity,
}

/// 1/60 s.
pub fn frame_60() -> Duration {
    Duration::from_secs_f64(1.0 / 60.0)
}

/// A headless app with `plugin`, picking, a window and a camera; frames of `frame`.
pub fn scene_with(plugin: SandboxPhysicsPlugin, frame: Duration) -> Scene {
    build_scene(plugin, frame, true)
}

/// The default plugin, 1/60 s frames, and no hover state (`bevy_picking`'s
/// `InteractionPlugin` left out): the drag controller hit tests by itself.
pub fn scene_without_hover_state() -> Scene {
    build_scene(SandboxPhysicsPlugin::default(), frame_60(), false)
}

fn build_scene(plugin: SandboxPhysicsPlugin, frame: Duration, hover_state: bool) -> Scene {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, PickingPlugin));
    if hover_state {
        app.add_plugins(InteractionPlugin);
    }
    app.add_plugins(plugin);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    let window = app
        .world_mut()
        .spawn((Window { resolution: WindowResolution::new(800, 600), ..default() }, PrimaryWindow))
        .id();
    app.world_mut().spawn(PointerId::Mouse);
    let camera = app.world_mut().spawn(Camera2d).id();
    app.finish();
    app.cleanup();
    let mut scene = Scene { app, window, camera };
    scene.sync_camera();
    scene.app.update();
    scene
}

/// The default plugin, 1/60 s frames.
pub fn scene() -> Scene {
    scene_with(SandboxPhysicsPlugin::default(), frame_60())
}

impl Scene {
    /// Does what Bevy's renderer does for the camera (headless apps have none): the target
    /// size and the projection matrix from the current `Projection`.
    pub fn sync_camera(&mut self) {
        let world = self.app.world_mut();
        let Some(mut projection) = world.get::<Projection>(self.camera).cloned() else {
            panic!("the camera has a projection")
        };
        projection.update(WINDOW.x, WINDOW.y);
        let clip_from_view = projection.get_clip_from_view();
        world.entity_mut(self.camera).insert(projection);
        let mut camera = world.get_mut::<Camera>(self.camera).expect("camera");
        camera.computed.target_info =
            Some(RenderTargetInfo { physical_size: WINDOW.as_uvec2(), scale_factor: 1.0 });
        camera.computed.clip_from_view = clip_from_view;
    }

    /// Runs `n` frames.
    pub fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.app.update();
        }
    }

    /// The window location of the screen point `screen` (px from the top-left).
    pub fn location(&self, screen: Vec2) -> Location {
        let target = RenderTarget::Window(WindowRef::Primary)
            .normalize(Some(self.window))
            .expect("the primary window is a render target");
        Location { target, position: screen }
    }

    /// Sends a pointer message (it takes effect on the next frame).
    pub fn send(&mut self, pointer: PointerId, screen: Vec2, action: PointerAction) {
        let location = self.location(screen);
        self.app.world_mut().write_message(PointerInput::new(pointer, location, action));
    }

    /// Moves `pointer` to the screen point and runs a frame.
    pub fn move_to(&mut self, pointer: PointerId, screen: Vec2) {
        self.send(pointer, screen, PointerAction::Move { delta: Vec2::ZERO });
        self.app.update();
    }

    /// Presses `button` of `pointer` at the screen point (moving there first) and runs a frame.
    pub fn press(&mut self, pointer: PointerId, screen: Vec2, button: PointerButton) {
        self.send(pointer, screen, PointerAction::Move { delta: Vec2::ZERO });
        self.send(pointer, screen, PointerAction::Press(button));
        self.app.update();
    }

    /// Releases `button` of `pointer` at the screen point and runs a frame.
    pub fn release(&mut self, pointer: PointerId, screen: Vec2, button: PointerButton) {
        self.send(pointer, screen, PointerAction::Release(button));
        self.app.update();
    }

    /// The screen point that shows the world point `world` through the default camera.
    pub fn screen_of(world: Vec2) -> Vec2 {
        Vec2::new(world.x + WINDOW.x / 2.0, WINDOW.y / 2.0 - world.y)
    }

    /// Spawns a body.
    pub fn spawn(&mut self, bundle: impl Bundle) -> Entity {
        self.app.world_mut().spawn(bundle).id()
    }

    /// The body's current physics position (Bevy frame).
    pub fn position(&self, entity: Entity) -> Vec2 {
        self.get::<PhysicsPose>(entity).current().translation
    }

    /// The body's velocity (Bevy frame).
    pub fn velocity(&self, entity: Entity) -> Vec2 {
        self.get::<LinearVelocity>(entity).0
    }

    /// A component of `entity`.
    pub fn get<C: Component + Clone>(&self, entity: Entity) -> C {
        self.app.world().get::<C>(entity).cloned().expect("the entity has the component")
    }

    /// The body `pointer` holds.
    pub fn held_by(&self, pointer: PointerId) -> Option<Entity> {
        self.app.world().resource::<DragState>().held_by(&pointer)
    }

    /// Whether the core has the body asleep.
    pub fn sleeping(&self, entity: Entity) -> bool {
        self.app.world().resource::<PhysicsWorld>().is_sleeping(entity)
    }

    /// Mutable access to a resource.
    pub fn resource_mut<R: Resource + Component<Mutability = Mutable>>(&mut self) -> Mut<'_, R> {
        self.app.world_mut().resource_mut::<R>()
    }
}
