//! The body inspector (R-LAB-3): a click on a body (a press and a release without a drag in
//! between) pins a window with everything the simulation knows about it — shape, mass,
//! inertia, material, pose, velocity, spin, island, sleep timer — and its contacts of the last
//! step with their normal and friction impulses.
//!
//! The window shows the figures as one read-only table; its ✏ Edit switch turns the material,
//! position, velocity and spin into fields to drag or type into. An edit is written to the
//! body's components ([`PhysicsMaterial`], `Transform`, [`LinearVelocity`], [`AngularVelocity`])
//! exactly as game code would write them, so it takes effect on the next step, wakes the
//! body's island, and a refused value is reported and put back like any other write.
//!
//! The figures are read [`REFRESH_SECONDS`] apart, not every frame: a number that changes
//! every frame cannot be read anyway, and each changed text costs egui a fresh text layout
//! (about half of the window's cost per frame, `benches/lab_windows.rs`). For the same reason
//! the fields appear only while editing: each drag value formats its number and lays out a
//! button every frame, about 30,000 instructions apiece, where the read-only table is one
//! text egui keeps from frame to frame (issue 17's frame cost).

use std::sync::Arc;

use bevy::ecs::query::QueryEntityError;
use bevy::ecs::system::SystemParam;
use bevy::picking::pointer::{PointerAction, PointerButton, PointerId, PointerInput};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_egui::egui;

use super::super::components::{AngularVelocity, Collider, LinearVelocity, PhysicsMaterial};
use super::super::drag::PointerCapture;
use super::super::physics_world::{BodyContact, PhysicsWorld};
use super::super::picking::HoveredBodies;
use crate::physics::{Body, BodyHandle, BodyKind, Material, Shape};

/// How far a pointer may move between press and release for a click, logical px: farther is
/// a drag or a throw, which pins nothing.
pub const CLICK_SLOP: f32 = 4.0;

/// How often the inspector reads the body's figures again, s of the UI's clock (5 Hz). An
/// edit shows at once.
pub const REFRESH_SECONDS: f64 = 0.2;

/// Which body the inspector shows.
#[derive(Resource, Debug)]
pub struct BodyInspector {
    /// The body shown; the window is open while this is `Some`.
    pub pinned: Option<Entity>,
    /// Whether a click on a body pins it. Default true.
    pub pick_on_click: bool,
    /// Whether the editable figures are shown as fields to drag or type into (✏ Edit);
    /// otherwise they are one read-only table. Default false.
    pub editing: bool,
    /// Bodies pressed on and where, per pointer, until the release.
    presses: HashMap<PointerId, (Entity, Vec2)>,
    /// The figures shown, as last read.
    shown: Option<Shown>,
}

impl Default for BodyInspector {
    fn default() -> Self {
        Self {
            pinned: None,
            pick_on_click: true,
            editing: false,
            presses: HashMap::default(),
            shown: None,
        }
    }
}

/// The figures the inspector shows of one body, read at `at` (the UI's clock, s).
#[derive(Clone, Debug)]
struct Shown {
    entity: Entity,
    at: f64,
    title: String,
    mass: String,
    inertia: String,
    material: Material,
    position: Vec2,
    angle_text: String,
    velocity: Vec2,
    speed_text: String,
    spin: f32,
    island: String,
    sleep: String,
    held: &'static str,
    /// Every figure above as the read-only view's one text, laid out at the read (egui
    /// keeps its galley from frame to frame; a frame only clones the `Arc`).
    state_table: Arc<egui::text::LayoutJob>,
    /// Contacts of the last step.
    contact_count: usize,
    /// "Contacts of the last step: n".
    contact_label: String,
    /// The contacts as one monospace table, at most [`MAX_CONTACT_ROWS`] rows: one text to
    /// lay out instead of five labels a row.
    contacts_table: String,
}

/// Contacts listed at most; more are counted.
const MAX_CONTACT_ROWS: usize = 16;

/// The contacts as a table of aligned columns: partner, normal, depth, normal impulse, and
/// friction impulse along the tangent (the normal turned a quarter counter-clockwise).
fn contacts_table(contacts: &[BodyContact]) -> String {
    use std::fmt::Write;
    let mut table =
        format!("{:<10} {:<15} {:>9} {:>10} {:>9}", "with", "normal", "depth", "Jn", "Jt");
    for contact in contacts.iter().take(MAX_CONTACT_ROWS) {
        let other = contact.other.map_or("wall".to_string(), |e| e.to_string());
        let normal = format!("({:+.2}, {:+.2})", contact.normal.x, contact.normal.y);
        let tangent = Vec2::new(-contact.normal.y, contact.normal.x);
        let _ = write!(
            table,
            "\n{other:<10} {normal:<15} {:>6.2} px {:>10.1} {:>+9.1}",
            contact.depth,
            contact.normal_impulse,
            contact.impulse.dot(tangent)
        );
    }
    if contacts.len() > MAX_CONTACT_ROWS {
        let _ = write!(table, "\n… and {} more", contacts.len() - MAX_CONTACT_ROWS);
    }
    table
}

impl Shown {
    /// Reads the figures of `entity`'s body (`handle`) and components.
    fn read(
        (entity, handle): (Entity, BodyHandle),
        at: f64,
        physics: &PhysicsWorld,
        components: (&Transform, Vec2, f32, Material),
        style: &egui::Style,
    ) -> Option<Self> {
        let (transform, velocity, spin, material) = components;
        let world = physics.world();
        let body = world.body(handle)?;
        let island = world.island_size(handle);
        let config = world.config();
        let contacts = physics.contacts_of(entity);
        let mut shown = Self {
            entity,
            at,
            title: format!("{entity}  ·  {}  ·  {}", kind_name(body), shape_text(body.shape())),
            mass: mass_text(body),
            inertia: inertia_text(body),
            material,
            // `+ 0.0` shows a −0 (a resting body's y velocity after the y flip) as 0.
            position: transform.translation.truncate() + Vec2::ZERO,
            angle_text: format!("{:.3} rad", transform.rotation.to_euler(EulerRot::XYZ).2 + 0.0),
            velocity: velocity + Vec2::ZERO,
            speed_text: format!("{:.2} px/s", velocity.length()),
            spin: spin + 0.0,
            island: match (body.sleep_island().filter(|_| body.is_sleeping()), island) {
                (Some(id), Some(n)) => format!("asleep, #{id}, {n} bodies"),
                (None, Some(n)) => format!("awake, {n} bodies"),
                _ => "none".to_string(),
            },
            sleep: if body.is_sleeping() {
                "asleep".to_string()
            } else if config.sleeping_enabled {
                format!("{:.2} / {:.2} s at rest", body.rest_time(), config.time_to_sleep)
            } else {
                "sleeping off".to_string()
            },
            held: if body.is_held() { "by a pointer" } else { "no" },
            contact_count: contacts.len(),
            contact_label: format!("Contacts of the last step: {}", contacts.len()),
            contacts_table: contacts_table(&contacts),
            state_table: Arc::default(),
        };
        shown.state_table = shown.state_table(style);
        Some(shown)
    }

    /// The read-only table: one text of aligned rows, the labels in the body text's colour
    /// and the values in the strong one, so it reads like the fields it stands for.
    fn state_table(&self, style: &egui::Style) -> Arc<egui::text::LayoutJob> {
        let m = &self.material;
        let rows = [
            ("Mass", self.mass.clone()),
            ("Inertia", self.inertia.clone()),
            (
                "Material",
                format!(
                    "ρ {}  μ {}  e {}",
                    short(m.density),
                    short(m.friction),
                    short(m.restitution)
                ),
            ),
            ("Position", format!("x {:.3} px  y {:.3} px", self.position.x, self.position.y)),
            ("Angle", self.angle_text.clone()),
            ("Velocity", format!("x {:.3} px/s  y {:.3} px/s", self.velocity.x, self.velocity.y)),
            ("Speed", self.speed_text.clone()),
            ("Spin", format!("{:.3} rad/s", self.spin)),
            ("Island", self.island.clone()),
            ("Sleep timer", self.sleep.clone()),
            ("Held", self.held.to_string()),
        ];
        let font = egui::TextStyle::Monospace.resolve(style);
        let format = |color| egui::TextFormat::simple(font.clone(), color);
        let (label_color, value_color) =
            (style.visuals.text_color(), style.visuals.strong_text_color());
        let mut job = egui::text::LayoutJob::default();
        for (i, (label, value)) in rows.iter().enumerate() {
            let newline = if i == 0 { "" } else { "\n" };
            job.append(&format!("{newline}{label:<12}"), 0.0, format(label_color));
            job.append(value, 0.0, format(value_color));
        }
        Arc::new(job)
    }
}

/// Pins the body a pointer clicks: pressed and released with the primary button, moved no
/// more than [`CLICK_SLOP`] in between. Presses a UI layer captured count for nothing.
pub(super) fn pin_clicked_body(
    mut inputs: MessageReader<PointerInput>,
    hovered: HoveredBodies,
    capture: Res<PointerCapture>,
    mut inspector: ResMut<BodyInspector>,
) {
    for input in inputs.read() {
        let pointer = input.pointer_id;
        match input.action {
            PointerAction::Press(PointerButton::Primary) => {
                inspector.presses.remove(&pointer);
                if !inspector.pick_on_click || capture.is_captured(&pointer) {
                    continue;
                }
                if let Some(entity) = hovered.get(&pointer) {
                    inspector.presses.insert(pointer, (entity, input.location.position));
                }
            }
            PointerAction::Release(PointerButton::Primary) => {
                let Some((entity, at)) = inspector.presses.remove(&pointer) else { continue };
                if input.location.position.distance(at) <= CLICK_SLOP {
                    inspector.pinned = Some(entity);
                }
            }
            PointerAction::Cancel => {
                inspector.presses.remove(&pointer);
            }
            _ => {}
        }
    }
}

/// Everything the inspector reads and edits.
#[derive(SystemParam)]
pub struct BodyInspectorParams<'w, 's> {
    /// Which body is shown.
    pub inspector: ResMut<'w, BodyInspector>,
    /// The simulation.
    pub physics: Res<'w, PhysicsWorld>,
    /// The editable components of the bodies.
    #[allow(clippy::type_complexity)]
    pub bodies: Query<
        'w,
        's,
        (
            &'static mut Transform,
            &'static mut LinearVelocity,
            &'static mut AngularVelocity,
            &'static mut PhysicsMaterial,
        ),
        With<Collider>,
    >,
}

/// Shows the inspector window while a body is pinned; closing it unpins the body, and so
/// does the entity's despawn (a clear, a loaded scene). A body that lives on but is not
/// simulated (refused, given a parent) stays pinned with a line that says so. It opens `top`
/// px below the top of the window.
pub fn show_body_inspector(ctx: &egui::Context, params: &mut BodyInspectorParams, top: f32) {
    let Some(entity) = params.inspector.pinned else { return };
    if matches!(params.bodies.get(entity), Err(QueryEntityError::NotSpawned(_))) {
        params.inspector.pinned = None;
        params.inspector.shown = None;
        return;
    }
    let mut open = true;
    egui::Window::new("Body")
        .id(egui::Id::new("bevy_sandbox_physics_inspector"))
        .open(&mut open)
        .default_pos(egui::pos2(
            400.0_f32.min(ctx.content_rect().right() - 340.0).max(8.0),
            top + 40.0,
        ))
        .default_width(330.0)
        .resizable(false)
        .show(ctx, |ui| body_inspector_ui(ui, entity, params));
    if !open {
        params.inspector.pinned = None;
    }
}

/// A drag value for a real number with a unit.
fn number<'a>(value: &'a mut f32, unit: &str, speed: f64) -> egui::DragValue<'a> {
    egui::DragValue::new(value).speed(speed).suffix(format!(" {unit}")).max_decimals(3)
}

/// Two drag values, x and y, side by side; whether either changed.
fn vector_ui(ui: &mut egui::Ui, value: &mut Vec2, unit: &str, speed: f64) -> bool {
    ui.horizontal(|ui| {
        let x = ui.add(number(&mut value.x, unit, speed).prefix("x "));
        let y = ui.add(number(&mut value.y, unit, speed).prefix("y "));
        x.changed() || y.changed()
    })
    .inner
}

/// Draws the inspector for `entity`.
pub fn body_inspector_ui(ui: &mut egui::Ui, entity: Entity, params: &mut BodyInspectorParams) {
    let physics = &*params.physics;
    let handle = physics.handle(entity).filter(|&h| physics.world().contains(h));
    let (Some(handle), Ok((mut transform, mut velocity, mut spin, mut material))) =
        (handle, params.bodies.get_mut(entity))
    else {
        ui.label(format!("{entity} is not simulated (refused, or given a parent)."));
        if ui.button("Unpin").clicked() {
            params.inspector.pinned = None;
        }
        return;
    };
    let now = ui.input(|i| i.time);
    let stale = |s: &Shown| s.entity != entity || !(0.0..REFRESH_SECONDS).contains(&(now - s.at));
    if params.inspector.shown.as_ref().is_none_or(stale) {
        let components = (&*transform, velocity.0, spin.0, material.0);
        params.inspector.shown =
            Shown::read((entity, handle), now, physics, components, ui.style());
    }
    let inspector = &mut *params.inspector;
    let Some(shown) = inspector.shown.as_mut() else { return };
    ui.horizontal(|ui| {
        ui.label(shown.title.as_str());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.toggle_value(&mut inspector.editing, "✏ Edit").on_hover_text(
                "Show the material, position, velocity and spin as fields to drag or type into",
            );
        });
    });
    if !inspector.editing {
        let table = egui::WidgetText::LayoutJob(Arc::clone(&shown.state_table));
        ui.add(egui::Label::new(table).extend()).on_hover_text(
            "Sleep timer: time below the sleep thresholds; the island sleeps when all its \
             bodies reach time_to_sleep (§11). ✏ Edit to change the material, position, \
             velocity or spin",
        );
    } else {
        edit_grid(ui, shown, (&mut transform, &mut velocity, &mut spin, &mut material));
    }
    ui.separator();
    ui.label(shown.contact_label.as_str());
    if shown.contact_count > 0 {
        let table = egui::RichText::new(shown.contacts_table.as_str()).monospace();
        ui.add(egui::Label::new(table).extend()).on_hover_text(
            "Jn: normal impulse of the step (≥ 0); Jt: friction impulse along the tangent, \
             the normal turned a quarter counter-clockwise; both mass·px/s",
        );
    }
}

/// The figures as a grid whose material, position, velocity and spin are fields; an edit is
/// written to the body's components.
fn edit_grid(
    ui: &mut egui::Ui,
    shown: &mut Shown,
    (transform, velocity, spin, material): (
        &mut Mut<Transform>,
        &mut Mut<LinearVelocity>,
        &mut Mut<AngularVelocity>,
        &mut Mut<PhysicsMaterial>,
    ),
) {
    // Components are only dereferenced mutably on an edit: a write marks them changed, which
    // the plugin reads as the game's teleport or new velocity.
    let grid = egui::Grid::new("body_inspector_state").num_columns(2).striped(true);
    let changed = grid.show(ui, |ui| {
        let mut changed = false;
        ui.label("Mass");
        ui.monospace(shown.mass.as_str());
        ui.end_row();
        ui.label("Inertia");
        ui.monospace(shown.inertia.as_str());
        ui.end_row();

        let m = &mut shown.material;
        ui.label("Material");
        let edited = ui
            .horizontal(|ui| {
                let density = ui
                    .add(egui::DragValue::new(&mut m.density).speed(0.01).prefix("ρ ").range(0.001..=1.0e4))
                    .on_hover_text("Density: mass per px², 0.001 to 10 000");
                let friction = ui
                    .add(egui::DragValue::new(&mut m.friction).speed(0.01).prefix("μ ").range(0.0..=2.0))
                    .on_hover_text("Friction coefficient, mixed as √(μ_A·μ_B) (§8)");
                let restitution = ui
                    .add(egui::DragValue::new(&mut m.restitution).speed(0.01).prefix("e ").range(0.0..=1.0))
                    .on_hover_text("Restitution, mixed as max(e_A, e_B) (§7)");
                density.changed() || friction.changed() || restitution.changed()
            })
            .inner;
        if edited {
            changed = true;
            material.0 = *m;
        }
        ui.end_row();

        ui.label("Position");
        if vector_ui(ui, &mut shown.position, "px", 1.0) {
            changed = true;
            transform.translation = shown.position.extend(transform.translation.z);
        }
        ui.end_row();
        ui.label("Angle");
        ui.monospace(shown.angle_text.as_str());
        ui.end_row();

        ui.label("Velocity");
        if vector_ui(ui, &mut shown.velocity, "px/s", 5.0) {
            changed = true;
            velocity.0 = shown.velocity;
            shown.speed_text = format!("{:.2} px/s", shown.velocity.length());
        }
        ui.end_row();
        ui.label("Speed");
        ui.monospace(shown.speed_text.as_str());
        ui.end_row();
        ui.label("Spin");
        if ui.add(number(&mut shown.spin, "rad/s", 0.05)).changed() {
            changed = true;
            spin.0 = shown.spin;
        }
        ui.end_row();

        ui.label("Island");
        ui.monospace(shown.island.as_str());
        ui.end_row();
        ui.label("Sleep timer");
        ui.monospace(shown.sleep.as_str())
        .on_hover_text("Time below the sleep thresholds; the island sleeps when all its bodies reach time_to_sleep (§11)");
        ui.end_row();
        ui.label("Held");
        ui.monospace(shown.held);
        ui.end_row();
        changed
    });
    if changed.inner {
        shown.state_table = shown.state_table(ui.style());
    }
}

/// `value` with at most three decimals and no trailing zeros, as the fields show it.
fn short(value: f32) -> String {
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}

fn kind_name(body: &Body) -> &'static str {
    match body.kind() {
        BodyKind::Dynamic => "dynamic",
        BodyKind::Static => "static",
        BodyKind::Kinematic => "kinematic",
    }
}

fn shape_text(shape: Shape) -> String {
    match shape {
        Shape::Circle { radius } => format!("circle r = {radius:.1} px"),
        Shape::Rect { half_extents } => {
            format!("rectangle {:.1} × {:.1} px", 2.0 * half_extents.x, 2.0 * half_extents.y)
        }
    }
}

fn mass_text(body: &Body) -> String {
    if body.inverse_mass() > 0.0 { format!("{:.1}", body.mass()) } else { "∞ (immovable)".into() }
}

fn inertia_text(body: &Body) -> String {
    if body.inverse_inertia() > 0.0 {
        format!("{:.4e}", body.inertia())
    } else {
        "∞ (does not turn)".into()
    }
}
