//! The tool palette and the keyboard and mouse bindings.
//!
//! The palette is an egui window anchored at the top right, below the bar (`bar.rs`); like
//! every window of the sandbox it floats over the world.

use bevy::input::touch::Touches;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};
use bevy_sandbox_physics::physics::{MIN_BODY_SIZE, Material};
use bevy_sandbox_physics::plugin::{BodyPickingSystems, PointerCapture};
use bevy_sandbox_physics::prelude::*;

use crate::files::{SceneFiles, file_ui};
use crate::look::{BodyState, Tint, fill_color};
use crate::presets::{self, Preset};
use crate::world::{WorldParams, world_ui};

/// Largest radius or half extent the palette offers, px.
pub const MAX_TOOL_SIZE: f32 = 80.0;
/// Title of the palette window (egui id source too).
pub const PALETTE_TITLE: &str = "Tools";
/// Width of the palette window, px.
pub const PALETTE_WIDTH: f32 = 230.0;

/// The shape the palette spawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeTool {
    /// A disc of `radius`.
    Circle,
    /// An axis-aligned box of `half_width` × `half_height`.
    Rectangle,
}

/// What a click on empty space spawns, and the palette's other settings.
#[derive(Resource, Clone, Debug)]
pub struct Palette {
    /// Circle or rectangle.
    pub shape: ShapeTool,
    /// Circle radius, px (≥ `MIN_BODY_SIZE`).
    pub radius: f32,
    /// Rectangle half width, px (≥ `MIN_BODY_SIZE`).
    pub half_width: f32,
    /// Rectangle half height, px (≥ `MIN_BODY_SIZE`).
    pub half_height: f32,
    /// Index into `Material::PRESETS`.
    pub material: usize,
    /// Spawn static (immovable) bodies.
    pub fixed: bool,
    /// The scene R reloads.
    pub scene: Preset,
    /// Body count of the stress scene.
    pub stress_count: usize,
    /// Whether the palette window is open.
    pub open: bool,
}

impl Default for Palette {
    fn default() -> Self {
        Self {
            shape: ShapeTool::Circle,
            radius: 20.0,
            half_width: 20.0,
            half_height: 14.0,
            material: 0,
            fixed: false,
            scene: Preset::MixedPile,
            stress_count: 1000,
            open: true,
        }
    }
}

impl Palette {
    /// The collider the palette spawns.
    pub fn collider(&self) -> Collider {
        match self.shape {
            ShapeTool::Circle => Collider::circle(self.radius),
            ShapeTool::Rectangle => {
                Collider::rectangle(2.0 * self.half_width, 2.0 * self.half_height)
            }
        }
    }

    /// The material the palette spawns.
    pub fn material(&self) -> Material {
        Material::PRESETS.get(self.material).map_or(Material::WOOD, |&(_, m)| m)
    }

    /// The components of a body spawned at `position` (Bevy world coordinates).
    pub fn body_at(&self, position: Vec2) -> (Collider, RigidBody, PhysicsMaterial, Transform) {
        let kind = if self.fixed { RigidBody::Static } else { RigidBody::Dynamic };
        (
            self.collider(),
            kind,
            PhysicsMaterial(self.material()),
            Transform::from_translation(position.extend(0.0)),
        )
    }
}

/// Requests the palette, the keys and the smoke script share.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum SandboxAction {
    /// Load a scene (and remember it for reset).
    Load(Preset),
    /// Reload the last scene.
    Reset,
    /// Remove every body.
    Clear,
}

/// The pointer in world coordinates (`None` off the window), updated in `PreUpdate`.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct PointerWorld(pub Option<Vec2>);

/// Whether egui used the pointer or keyboard this frame.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct EguiFocus {
    /// The pointer is over a panel or dragging one of its widgets.
    pub pointer: bool,
    /// A text field has the keyboard.
    pub keyboard: bool,
}

/// The palette and the bindings.
pub struct ToolsPlugin;

impl Plugin for ToolsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Palette>()
            .init_resource::<PointerWorld>()
            .init_resource::<EguiFocus>()
            .add_message::<SandboxAction>()
            .add_systems(PreUpdate, track_pointer)
            .add_systems(
                PreUpdate,
                shift_spawns_instead_of_grabbing.in_set(BodyPickingSystems::Capture),
            )
            .add_systems(Update, (keyboard, pointer_tools, touch_spawns, run_actions).chain())
            .add_systems(bevy_egui::EguiPrimaryContextPass, palette_ui);
    }
}

/// Converts the cursor to world coordinates.
fn track_pointer(
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    mut pointer: ResMut<PointerWorld>,
) {
    pointer.0 = windows.single().ok().and_then(Window::cursor_position).and_then(|cursor| {
        let (camera, transform) = cameras.iter().next()?;
        camera.viewport_to_world_2d(transform, cursor).ok()
    });
}

/// While Shift is held a left press spawns (into a pile) instead of grabbing: the mouse
/// pointer is marked as used, like a pointer over a panel.
fn shift_spawns_instead_of_grabbing(
    keys: Res<ButtonInput<KeyCode>>,
    mut capture: ResMut<PointerCapture>,
) {
    if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) {
        capture.capture(PointerId::Mouse);
    }
}

/// Space, N, G, R, C, D, Delete, 1 … 6.
#[expect(clippy::too_many_arguments, reason = "one binding per resource")]
fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<EguiFocus>,
    hovered: HoveredBodies,
    mut controls: ResMut<PhysicsControls>,
    mut debug: ResMut<PhysicsDebugDraw>,
    mut palette: ResMut<Palette>,
    mut actions: MessageWriter<SandboxAction>,
    mut commands: Commands,
) {
    if focus.keyboard {
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        controls.toggle_pause();
    }
    if keys.just_pressed(KeyCode::KeyN) {
        controls.paused = true;
        controls.request_single_step();
    }
    if keys.just_pressed(KeyCode::KeyG) {
        controls.toggle_gravity();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        actions.write(SandboxAction::Reset);
    }
    if keys.just_pressed(KeyCode::KeyC) {
        actions.write(SandboxAction::Clear);
    }
    if keys.just_pressed(KeyCode::KeyD) {
        debug.enabled = !debug.enabled;
    }
    if keys.just_pressed(KeyCode::KeyP) {
        palette.open = !palette.open;
    }
    if (keys.just_pressed(KeyCode::Delete) || keys.just_pressed(KeyCode::Backspace))
        && let Some(entity) = hovered.get(&PointerId::Mouse)
    {
        commands.entity(entity).try_despawn();
    }
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
    ];
    for (key, preset) in digits.into_iter().zip(Preset::MENU) {
        if keys.just_pressed(key) {
            actions.write(SandboxAction::Load(with_count(preset, &palette)));
        }
    }
}

/// The stress preset with the palette's body count.
fn with_count(preset: Preset, palette: &Palette) -> Preset {
    match preset {
        Preset::Stress(_) => Preset::Stress(palette.stress_count),
        other => other,
    }
}

/// Left press on empty space: spawn; Shift + left: spawn even onto bodies (into a pile),
/// and keep spawning while dragging; right press: delete the body under the pointer.
#[expect(clippy::too_many_arguments, reason = "one binding per resource")]
fn pointer_tools(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<PointerWorld>,
    focus: Res<EguiFocus>,
    capture: Res<PointerCapture>,
    hovered: HoveredBodies,
    bounds: Res<PhysicsBounds>,
    palette: Res<Palette>,
    mut last_spawn: Local<Option<Vec2>>,
    mut commands: Commands,
) {
    let Some(at) = pointer.0 else { return };
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    // `focus` is egui's word from the last frame; a pointer that moves onto a panel and
    // presses in one frame (a quick click, a script) is only known to be over it by the
    // plugin's capture, which looks at where the pointer is now. (Shift captures the mouse
    // too, for spawning: then only `focus` can tell.)
    if focus.pointer || (capture.is_captured(&PointerId::Mouse) && !shift) {
        return;
    }
    let half = palette.collider().shape().half_size();
    let inside = Rect::from_center_half_size(at, half);
    let fits = bounds.contains(inside.min) && bounds.contains(inside.max);
    let hovered = hovered.get(&PointerId::Mouse);
    if buttons.just_pressed(MouseButton::Left) {
        *last_spawn = None;
        if fits && (shift || hovered.is_none()) {
            commands.spawn(palette.body_at(at));
            *last_spawn = Some(at);
        }
    } else if buttons.pressed(MouseButton::Left)
        && shift
        && fits
        && let Some(last) = *last_spawn
        && last.distance(at) > 2.0 * half.max_element()
    {
        commands.spawn(palette.body_at(at));
        *last_spawn = Some(at);
    }
    if buttons.just_pressed(MouseButton::Right)
        && let Some(entity) = hovered
    {
        commands.entity(entity).try_despawn();
    }
}

/// A finger put down on empty space spawns the palette's body, as a left click does (a
/// touch screen, in the browser or natively); on a body it grabs it (the picking backend).
#[expect(clippy::too_many_arguments, reason = "one binding per resource")]
fn touch_spawns(
    touches: Res<Touches>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    focus: Res<EguiFocus>,
    capture: Res<PointerCapture>,
    hovered: HoveredBodies,
    bounds: Res<PhysicsBounds>,
    palette: Res<Palette>,
    mut commands: Commands,
) {
    let Some((camera, transform)) = cameras.iter().next() else { return };
    if focus.pointer {
        return;
    }
    let half = palette.collider().shape().half_size();
    for touch in touches.iter_just_pressed() {
        // A tap on a panel has no hover before it: only the capture, which looks at where
        // the finger is now, knows it is over the panel.
        if capture.is_captured(&PointerId::Touch(touch.id())) {
            continue;
        }
        let Ok(at) = camera.viewport_to_world_2d(transform, touch.position()) else { continue };
        let inside = Rect::from_center_half_size(at, half);
        let fits = bounds.contains(inside.min) && bounds.contains(inside.max);
        if fits && hovered.get(&PointerId::Touch(touch.id())).is_none() {
            commands.spawn(palette.body_at(at));
        }
    }
}

/// Loads, resets and clears.
fn run_actions(
    mut actions: MessageReader<SandboxAction>,
    mut palette: ResMut<Palette>,
    bounds: Res<PhysicsBounds>,
    bodies: Query<Entity, With<Collider>>,
    mut commands: Commands,
) {
    for &action in actions.read() {
        let preset = match action {
            SandboxAction::Load(preset) => {
                palette.scene = preset;
                preset
            }
            SandboxAction::Reset => palette.scene,
            SandboxAction::Clear => Preset::Empty,
        };
        let count = presets::load(&mut commands, preset, bounds.0, bodies.iter());
        info!("scene {}: {count} bodies", preset.label());
    }
}

/// A small square of `color` followed by `text`.
fn swatch(ui: &mut egui::Ui, color: Color, text: &str, selected: bool) -> egui::Response {
    let [r, g, b, _] = color.to_srgba().to_u8_array();
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
        ui.selectable_label(selected, text)
    })
    .inner
}

/// The palette window; whether egui has the pointer or the keyboard.
#[expect(clippy::too_many_arguments, reason = "the palette edits many resources")]
fn palette_ui(
    mut contexts: EguiContexts,
    mut palette: ResMut<Palette>,
    mut debug: ResMut<PhysicsDebugDraw>,
    mut actions: MessageWriter<SandboxAction>,
    mut focus: ResMut<EguiFocus>,
    mut world: WorldParams,
    insets: Res<WallInsets>,
    mut files: ResMut<SceneFiles>,
    physics: Res<PhysicsWorld>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    focus.pointer = ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui();
    focus.keyboard = ctx.egui_wants_keyboard_input();

    let mut open = palette.open;
    egui::Window::new(PALETTE_TITLE)
        .open(&mut open)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, insets.top + 4.0))
        .default_width(PALETTE_WIDTH)
        // Tall enough for every row; in a short window it scrolls.
        .min_height((ctx.content_rect().height() - insets.top - 16.0).min(640.0))
        .resizable(false)
        .vscroll(true)
        .show(ctx, |ui| {
            ui.set_width(PALETTE_WIDTH);
            palette_contents(ui, &mut palette, &mut debug, &mut actions, world.size());
            ui.separator();
            world_ui(ui, &mut world);
            ui.separator();
            file_ui(ui, &mut files, &physics);
        });
    palette.open = open;
    Ok(())
}

/// The palette's widgets.
fn palette_contents(
    ui: &mut egui::Ui,
    palette: &mut Palette,
    debug: &mut PhysicsDebugDraw,
    actions: &mut MessageWriter<SandboxAction>,
    world_size: Vec2,
) {
    ui.strong("Spawn");
    ui.horizontal(|ui| {
        ui.selectable_value(&mut palette.shape, ShapeTool::Circle, "● Circle");
        ui.selectable_value(&mut palette.shape, ShapeTool::Rectangle, "■ Rectangle");
    });
    fn size<'a>(value: &'a mut f32, label: &str) -> egui::Slider<'a> {
        egui::Slider::new(value, MIN_BODY_SIZE..=MAX_TOOL_SIZE).suffix(" px").text(label)
    }
    match palette.shape {
        ShapeTool::Circle => {
            ui.add(size(&mut palette.radius, "radius"));
        }
        ShapeTool::Rectangle => {
            ui.add(size(&mut palette.half_width, "half width"));
            ui.add(size(&mut palette.half_height, "half height"));
        }
    }
    for (i, &(name, material)) in Material::PRESETS.iter().enumerate() {
        let color = fill_color(Tint::of(material), RigidBody::Dynamic, BodyState::Awake);
        let text = format!(
            "{name}  ρ {:.2}  μ {:.2}  e {:.2}",
            material.density, material.friction, material.restitution
        );
        if swatch(ui, color, &text, palette.material == i).clicked() {
            palette.material = i;
        }
    }
    ui.checkbox(&mut palette.fixed, "static (never moves)");
    ui.small("Click empty space to spawn; Shift+click spawns into a pile (Shift+drag paints).");
    ui.small("Drag a body to throw it; right click or Delete removes it.");

    ui.separator();
    ui.strong("Scenes");
    egui::Grid::new("scenes").num_columns(2).show(ui, |ui| {
        for (i, preset) in Preset::MENU.into_iter().enumerate() {
            let label = format!("{} {}", i + 1, preset.label());
            if ui.button(label).clicked() {
                actions.write(SandboxAction::Load(with_count(preset, palette)));
            }
            if i % 2 == 1 {
                ui.end_row();
            }
        }
    });
    let slider = egui::Slider::new(&mut palette.stress_count, 100..=20_000).logarithmic(true);
    ui.add(slider.text("stress bodies"));
    let fits = presets::stress_capacity(world_size);
    if palette.stress_count > fits {
        ui.small(format!(
            "Only {fits} fit in this world (bodies ≥ 24 px on a grid): the stress scene spawns \
             {fits}. A larger world (World, below) holds more."
        ));
    }
    ui.horizontal(|ui| {
        if ui.button("Reset (R)").clicked() {
            actions.write(SandboxAction::Reset);
        }
        if ui.button("Clear (C)").clicked() {
            actions.write(SandboxAction::Clear);
        }
    });

    ui.separator();
    ui.strong("Overlay (D)");
    ui.checkbox(&mut debug.enabled, "show overlay");
    ui.add_enabled_ui(debug.enabled, |ui| {
        ui.checkbox(&mut debug.contacts, "contacts and normals");
        ui.checkbox(&mut debug.islands, "islands");
        ui.checkbox(&mut debug.shapes, "outlines");
    });
}

/// Frames per second over the last half second of real time.
#[derive(Default, Debug)]
pub struct FpsMeter {
    frames: u32,
    elapsed: f64,
    fps: f64,
}

impl FpsMeter {
    /// Counts a frame of `dt` seconds.
    pub fn tick(&mut self, dt: f64) {
        self.frames += 1;
        self.elapsed += dt;
        if self.elapsed >= 0.5 {
            self.fps = f64::from(self.frames) / self.elapsed;
            self.frames = 0;
            self.elapsed = 0.0;
        }
    }

    /// The last measurement.
    pub fn fps(&self) -> f64 {
        self.fps
    }
}
