//! Drawing the bodies so that the picture explains the physics.
//!
//! * Colour by material: rubber red, wood tan, steel blue-grey, ice pale cyan, anything else
//!   violet; static bodies are the same colour, darker.
//! * Every circle carries a radius line, so rolling is visible (R-FRI-3): a disc that slides
//!   keeps its line still, a rolling one turns it.
//! * Sleeping bodies are dimmed (§11); the held body is lit up and outlined, with a line to
//!   its drag target (§13); the body under the pointer gets a thin outline.
//!
//! Speed: every body is one or two `Mesh2d` entities that share one of three meshes (unit
//! disc, unit square) and one of a few dozen `ColorMaterial`s, scaled by their `Transform`,
//! so Bevy batches them into a handful of draw calls, also with thousands of bodies. The disc
//! mesh carries its border ring and radius line as vertex colours (the material's colour is
//! multiplied by them); a rectangle is a dark outer quad with a lighter inner quad as child,
//! so its border stays 2 px wide whatever its size. Only state changes touch the entities.

use std::f32::consts::TAU;

use bevy::asset::RenderAssetUsages;
use bevy::color::palettes::css;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy_sandbox_physics::physics::Material;
use bevy_sandbox_physics::plugin::{BodyInspector, VisualScale};
use bevy_sandbox_physics::prelude::*;

/// Width of a rectangle's border, px.
const RECT_BORDER: f32 = 2.0;
/// Outer edge of a disc's border ring, as a share of the radius (the ring spans 0.86..1).
const DISC_RING_INNER: f32 = 0.86;
/// Half width of a disc's radius line, as a share of the radius.
const DISC_LINE_HALF_WIDTH: f32 = 0.07;
/// Vertex colour of the border ring and of rectangle borders (linear, multiplies the fill).
const BORDER_SHADE: f32 = 0.28;
/// Vertex colour of the radius line (linear, multiplies the fill).
const LINE_SHADE: f32 = 0.1;
/// Share of the background mixed into a sleeping body's colour.
const SLEEP_DIM: f32 = 0.55;
/// Segments of the disc mesh.
const DISC_SEGMENTS: usize = 48;

/// The window's clear colour, around the world.
pub const BACKGROUND: Color = Color::srgb(0.075, 0.08, 0.095);
/// The world's floor colour, inside the walls.
pub const WORLD_FILL: Color = Color::srgb(0.14, 0.15, 0.18);

/// What a body looks like: which colour family, and the state it is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tint {
    /// One of [`Material::PRESETS`], by index.
    Preset(usize),
    /// Any other material.
    Custom,
}

impl Tint {
    /// The colour family of `material`.
    pub fn of(material: Material) -> Self {
        Material::PRESETS
            .iter()
            .position(|&(_, preset)| preset == material)
            .map_or(Tint::Custom, Tint::Preset)
    }

    /// The fill colour of an awake dynamic body (sRGB).
    pub fn color(self) -> Color {
        match self {
            Tint::Preset(0) => Color::srgb(0.90, 0.32, 0.38), // rubber
            Tint::Preset(1) => Color::srgb(0.82, 0.62, 0.36), // wood
            Tint::Preset(2) => Color::srgb(0.52, 0.60, 0.74), // steel
            Tint::Preset(3) => Color::srgb(0.64, 0.90, 0.98), // ice
            _ => Color::srgb(0.72, 0.52, 0.90),
        }
    }
}

/// The state a body is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyState {
    /// Moving or resting but not yet asleep.
    Awake,
    /// Its island sleeps (§11): dimmed.
    Sleeping,
    /// A pointer holds it (§13): lit up.
    Held,
}

/// The fill colour of a body (what the pixel at its centre region shows), in sRGB.
pub fn fill_color(tint: Tint, kind: RigidBody, state: BodyState) -> Color {
    let base = tint.color().to_srgba();
    let base = match kind {
        RigidBody::Dynamic => base,
        RigidBody::Static | RigidBody::Kinematic => base * 0.62,
    };
    let color = match state {
        BodyState::Awake => base,
        BodyState::Sleeping => base.mix(&BACKGROUND.to_srgba(), SLEEP_DIM),
        BodyState::Held => base.mix(&Srgba::WHITE, 0.45),
    };
    Color::Srgba(color.with_alpha(1.0))
}

/// The meshes and materials every body shares.
#[derive(Resource)]
pub struct LookAssets {
    disc: Handle<Mesh>,
    square: Handle<Mesh>,
    /// (tint, kind, state, is border) → material.
    materials: std::collections::HashMap<(Tint, RigidBody, BodyState, bool), Handle<ColorMaterial>>,
}

impl LookAssets {
    fn material(
        &mut self,
        assets: &mut Assets<ColorMaterial>,
        tint: Tint,
        kind: RigidBody,
        state: BodyState,
        border: bool,
    ) -> Handle<ColorMaterial> {
        self.materials
            .entry((tint, kind, state, border))
            .or_insert_with(|| {
                let fill = fill_color(tint, kind, state);
                let color = if border {
                    let linear = fill.to_linear();
                    Color::LinearRgba(LinearRgba { alpha: 1.0, ..linear * BORDER_SHADE })
                } else {
                    fill
                };
                assets.add(ColorMaterial::from_color(color))
            })
            .clone()
    }
}

/// How a body is drawn now; the rectangle's inner quad, if any.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct BodyLook {
    tint: Tint,
    kind: RigidBody,
    state: BodyState,
    collider: Collider,
    inner: Option<Entity>,
}

impl BodyLook {
    /// The state the body is drawn in.
    pub fn state(&self) -> BodyState {
        self.state
    }

    /// The colour family.
    pub fn tint(&self) -> Tint {
        self.tint
    }
}

/// The world's floor quad (the area inside the walls).
#[derive(Component)]
pub struct WorldFloor;

/// Rendering of the bodies, the floor and the highlights.
pub struct LookPlugin;

impl Plugin for LookPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(BACKGROUND))
            .add_systems(Startup, setup_look)
            .add_systems(
                PostUpdate,
                (attach_looks, update_looks, fit_floor).before(TransformSystems::Propagate),
            )
            .add_systems(Update, draw_highlights.after(PhysicsSystems::Interpolate));
    }
}

/// A unit disc (radius 1) with its border ring and radius line (along +x) as vertex colours.
fn disc_mesh() -> Mesh {
    let mut positions: Vec<[f32; 3]> = vec![[0.0, 0.0, 0.0]];
    let mut colors: Vec<[f32; 4]> = vec![[1.0; 4]];
    let mut indices: Vec<u32> = Vec::new();
    let ring = |r: f32, i: usize| {
        let (s, c) = (TAU * i as f32 / DISC_SEGMENTS as f32).sin_cos();
        [r * c, r * s, 0.0]
    };
    let border = [BORDER_SHADE, BORDER_SHADE, BORDER_SHADE, 1.0];
    // Fill fan: centre 0, inner ring 1..=n.
    for i in 0..DISC_SEGMENTS {
        positions.push(ring(DISC_RING_INNER, i));
        colors.push([1.0; 4]);
    }
    // Border ring: inner copy n+1..=2n (border colour), outer 2n+1..=3n.
    for i in 0..DISC_SEGMENTS {
        positions.push(ring(DISC_RING_INNER, i));
        colors.push(border);
    }
    for i in 0..DISC_SEGMENTS {
        positions.push(ring(1.0, i));
        colors.push(border);
    }
    let n = DISC_SEGMENTS as u32;
    for i in 0..n {
        let next = (i + 1) % n;
        indices.extend([0, 1 + i, 1 + next]);
        let (inner, inner_next) = (1 + n + i, 1 + n + next);
        let (outer, outer_next) = (1 + 2 * n + i, 1 + 2 * n + next);
        indices.extend([inner, outer, outer_next, inner, outer_next, inner_next]);
    }
    // Radius line along +x, a hair above the fill so it wins the depth test.
    let base = positions.len() as u32;
    let w = DISC_LINE_HALF_WIDTH;
    for [x, y] in [[0.0, -w], [DISC_RING_INNER, -w], [DISC_RING_INNER, w], [0.0, w]] {
        positions.push([x, y, 0.001]);
        colors.push([LINE_SHADE, LINE_SHADE, LINE_SHADE, 1.0]);
    }
    indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::RENDER_WORLD)
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
        .with_inserted_indices(Indices::U32(indices))
}

fn setup_look(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let square = meshes.add(Rectangle::new(1.0, 1.0));
    let floor = materials.add(ColorMaterial::from_color(WORLD_FILL));
    commands.spawn((
        WorldFloor,
        Mesh2d(square.clone()),
        MeshMaterial2d(floor),
        Transform::from_xyz(0.0, 0.0, -10.0),
    ));
    commands.insert_resource(LookAssets {
        disc: meshes.add(disc_mesh()),
        square,
        materials: default(),
    });
}

/// The scale of a body's mesh entity: the disc or square stretched to the collider.
fn body_scale(collider: Collider) -> Vec3 {
    match collider {
        Collider::Circle { radius } => Vec3::new(radius, radius, 1.0),
        Collider::Rectangle { half_extents } => (2.0 * half_extents).extend(1.0),
    }
}

/// The inner quad of a rectangle relative to its outer one: 2 px smaller on every side.
fn inner_transform(half_extents: Vec2) -> Transform {
    let size = 2.0 * half_extents;
    let inner = (size - 2.0 * RECT_BORDER).max(Vec2::ONE);
    Transform::from_xyz(0.0, 0.0, 0.01).with_scale((inner / size).extend(1.0))
}

/// The state a body is drawn in, from the plugin's markers.
fn state_of(held: bool, sleeping: bool) -> BodyState {
    if held {
        BodyState::Held
    } else if sleeping {
        BodyState::Sleeping
    } else {
        BodyState::Awake
    }
}

/// Gives every new body its mesh, material and (rectangles) inner quad.
#[expect(clippy::type_complexity, reason = "a query over the body's components")]
fn attach_looks(
    mut commands: Commands,
    mut look: ResMut<LookAssets>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut bodies: Query<
        (Entity, &Collider, &RigidBody, &PhysicsMaterial, &mut Transform, Has<Sleeping>),
        Without<BodyLook>,
    >,
) {
    for (entity, &collider, &kind, material, mut transform, sleeping) in &mut bodies {
        let tint = Tint::of(material.0);
        let state = state_of(false, sleeping);
        // The scale stretches the unit mesh to the collider, and says nothing to the physics.
        transform.scale = body_scale(collider);
        let mut inner = None;
        let (mesh, border) = match collider {
            Collider::Circle { .. } => (look.disc.clone(), false),
            Collider::Rectangle { half_extents } => {
                let fill = look.material(&mut materials, tint, kind, state, false);
                let child = commands
                    .spawn((
                        Mesh2d(look.square.clone()),
                        MeshMaterial2d(fill),
                        inner_transform(half_extents),
                        ChildOf(entity),
                    ))
                    .id();
                inner = Some(child);
                (look.square.clone(), true)
            }
        };
        let material = look.material(&mut materials, tint, kind, state, border);
        commands.entity(entity).insert((
            Mesh2d(mesh),
            MeshMaterial2d(material),
            BodyLook { tint, kind, state, collider, inner },
            VisualScale,
        ));
    }
}

/// Follows state changes: held, sleeping, a new material, kind or size.
#[expect(clippy::type_complexity, reason = "a query over the body's components")]
fn update_looks(
    mut commands: Commands,
    mut look: ResMut<LookAssets>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    physics: Res<PhysicsWorld>,
    mut bodies: Query<(
        Entity,
        &mut BodyLook,
        &Collider,
        &RigidBody,
        &PhysicsMaterial,
        &mut Transform,
        Has<Sleeping>,
    )>,
    mut inner_quads: Query<(&mut Transform, &mut MeshMaterial2d<ColorMaterial>), Without<BodyLook>>,
) {
    for (entity, mut body, &collider, &kind, material, mut transform, sleeping) in &mut bodies {
        let held = physics
            .handle(entity)
            .and_then(|handle| physics.world().body(handle))
            .is_some_and(|b| b.is_held());
        let wanted = BodyLook {
            tint: Tint::of(material.0),
            kind,
            state: state_of(held, sleeping),
            collider,
            inner: body.inner,
        };
        if *body == wanted {
            continue;
        }
        let shape_changed =
            std::mem::discriminant(&body.collider) != std::mem::discriminant(&collider);
        if shape_changed {
            // Circle ↔ rectangle: rebuild from scratch.
            if let Some(inner) = body.inner {
                commands.entity(inner).despawn();
            }
            commands.entity(entity).remove::<BodyLook>();
            continue;
        }
        transform.scale = body_scale(collider);
        let border = matches!(collider, Collider::Rectangle { .. });
        let outer = look.material(&mut materials, wanted.tint, kind, wanted.state, border);
        commands.entity(entity).insert(MeshMaterial2d(outer));
        if let (Some(inner), Collider::Rectangle { half_extents }) = (body.inner, collider)
            && let Ok((mut inner_transform_, mut inner_material)) = inner_quads.get_mut(inner)
        {
            *inner_transform_ = inner_transform(half_extents);
            inner_material.0 =
                look.material(&mut materials, wanted.tint, kind, wanted.state, false);
        }
        *body = wanted;
    }
}

/// Keeps the floor quad on the walls.
fn fit_floor(bounds: Res<PhysicsBounds>, mut floor: Query<&mut Transform, With<WorldFloor>>) {
    if !bounds.is_changed() {
        return;
    }
    for mut transform in &mut floor {
        transform.translation = bounds.center().extend(-10.0);
        transform.scale = bounds.size().extend(1.0);
    }
}

/// Outlines the hovered body, the one pinned in the inspector and the held ones, and draws
/// each held body's drag target.
fn draw_highlights(
    physics: Res<PhysicsWorld>,
    hovered: HoveredBodies,
    inspector: Res<BodyInspector>,
    drag: Res<DragState>,
    bodies: Query<(&Collider, &Transform)>,
    mut gizmos: Gizmos,
) {
    let outline =
        |gizmos: &mut Gizmos, collider: Collider, centre: Vec2, grow: f32, color| match collider {
            Collider::Circle { radius } => {
                gizmos.circle_2d(Isometry2d::from_translation(centre), radius + grow, color);
            }
            Collider::Rectangle { half_extents } => {
                let size = 2.0 * (half_extents + grow);
                gizmos.rect_2d(Isometry2d::from_translation(centre), size, color);
            }
        };
    if let Some(entity) = hovered.get(&PointerId::Mouse)
        && let Ok((&collider, transform)) = bodies.get(entity)
    {
        outline(&mut gizmos, collider, transform.translation.truncate(), 1.5, Color::WHITE);
    }
    if let Some(entity) = inspector.pinned
        && let Ok((&collider, transform)) = bodies.get(entity)
    {
        let centre = transform.translation.truncate();
        outline(&mut gizmos, collider, centre, 4.0, css::DEEP_SKY_BLUE.into());
        outline(&mut gizmos, collider, centre, 6.0, css::DEEP_SKY_BLUE.into());
    }
    // The held bodies, from the drag controller's grips: no pass over every body per frame.
    let mapping = physics.mapping();
    for (_, entity) in drag.iter() {
        let Some(body) = physics.handle(entity).and_then(|h| physics.world().body(h)) else {
            continue;
        };
        let Some(target) = body.drag_target() else { continue };
        let Ok((&collider, transform)) = bodies.get(entity) else { continue };
        let centre = transform.translation.truncate();
        let target = mapping.position_to_bevy(target);
        outline(&mut gizmos, collider, centre, 3.0, css::YELLOW.into());
        gizmos.line_2d(centre, target, css::YELLOW);
        gizmos.circle_2d(Isometry2d::from_translation(target), 5.0, css::ORANGE);
        gizmos.cross_2d(Isometry2d::from_translation(target), 4.0, css::ORANGE);
    }
}
