//! Drawing the bodies so that the picture explains the physics.
//!
//! * Colour by material: rubber red, wood tan, steel blue-grey, ice pale cyan, anything else
//!   violet; static bodies are the same colour, darker.
//! * Every circle carries a radius line, so rolling is visible (R-FRI-3): a disc that slides
//!   keeps its line still, a rolling one turns it.
//! * Sleeping bodies are dimmed (§11); the held body is lit up and outlined, with a line to
//!   its drag target (§13); the body under the pointer gets a thin outline.
//!
//! Speed (issue 20): every body is one quad of a single mesh, drawn in one call by
//! `body_batch.wgsl`, which shades a disc with its border ring and radius line, or a
//! rectangle with a border 2 px wide, out of the quad. Bevy's work per frame for a mesh
//! entity (visibility, extraction, queueing, batching) was most of the sandbox's frame
//! beyond the physics at 10,000 bodies; the batch has one entity whatever the count.
//!
//! The mesh holds only what changes when bodies come, go or change shape: each quad's
//! corners in its body's own frame, the shape and the body's slot. The drawn poses and
//! colours live in a small texture, two texels per slot, which the vertex shader reads: a
//! frame re-sends 32 bytes for each body that moved or changed its look, and nothing for the
//! others. Rebuilding the whole mesh every frame instead (52 bytes a vertex, four vertices
//! and six indices a body) cost about 4 ms of CPU per frame at 10,000 awake bodies, most of
//! it in copying and re-allocating the vertex buffer (`--bench 10000`, one rasteriser thread).
//!
//! The body entities carry no mesh and keep their `Transform`'s scale at 1. Only state
//! changes touch [`BodyLook`].

use bevy::asset::{AssetPath, RenderAssetUsages, embedded_asset, embedded_path};
use bevy::camera::visibility::NoFrustumCulling;
use bevy::color::palettes::css;
use bevy::mesh::{Indices, MeshVertexAttribute, MeshVertexBufferLayoutRef, PrimitiveTopology};
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Extent3d, RenderPipelineDescriptor, SpecializedMeshPipelineError,
    TextureDimension, TextureFormat, VertexFormat,
};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dKey, Material2dPlugin};
use bevy_sandbox_physics::physics::Material;
use bevy_sandbox_physics::plugin::BodyInspector;
use bevy_sandbox_physics::prelude::*;

/// Width of a rectangle's border, px.
const RECT_BORDER: f32 = 2.0;
/// Outer edge of a disc's border ring, as a share of the radius (the ring spans 0.86..1).
const DISC_RING_INNER: f32 = 0.86;
/// Half width of a disc's radius line, as a share of the radius.
const DISC_LINE_HALF_WIDTH: f32 = 0.07;
/// Shade of the border ring and of rectangle borders (linear, multiplies the fill).
const BORDER_SHADE: f32 = 0.28;
/// Shade of the radius line (linear, multiplies the fill).
const LINE_SHADE: f32 = 0.1;
/// Share of the background mixed into a sleeping body's colour.
const SLEEP_DIM: f32 = 0.55;

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

/// A body's shape for the batch's shader: x = 0 for a circle, 1 for a rectangle; y, z =
/// radius or half extents, px; w = the body's slot in the poses texture (exact as a float
/// up to 2^24 bodies).
const ATTRIBUTE_SHAPE: MeshVertexAttribute =
    MeshVertexAttribute::new("BodyShape", 0x5a4d_b0d1_e5ba_7c11, VertexFormat::Float32x4);

/// How far a body's quad reaches beyond its outline, px: room for the soft edge.
const QUAD_MARGIN: f32 = 1.0;

/// Width of the poses texture, texels: even, so that a slot's two texels share a row, and
/// within the 2,048 that WebGL2 guarantees.
const POSE_TEXTURE_WIDTH: u32 = 1024;

/// The material of the one mesh that draws every body (`body_batch.wgsl`): the shades and
/// sizes above, set once, and the texture of the bodies' poses and colours.
#[derive(Asset, TypePath, AsBindGroup, Clone, Debug)]
pub struct BodyBatchMaterial {
    /// Border shade, radius-line shade, the ring's inner edge and the line's half width.
    #[uniform(0)]
    shades: Vec4,
    /// x: a rectangle's border width, px; y: the width of the poses texture, texels.
    #[uniform(0)]
    rect: Vec4,
    /// Two texels per slot: centre x, y (px) and the angle's cosine and sine; the fill
    /// colour (linear). Read with `textureLoad`, so it needs no sampler or filtering.
    #[texture(1, sample_type = "float", filterable = false, visibility(vertex))]
    poses: Handle<Image>,
}

impl Material2d for BodyBatchMaterial {
    fn vertex_shader() -> ShaderRef {
        Self::shader()
    }

    fn fragment_shader() -> ShaderRef {
        Self::shader()
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        // The soft edge's coverage is the alpha.
        AlphaMode2d::Blend
    }

    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        layout: &MeshVertexBufferLayoutRef,
        _key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        // The position attribute holds the corner in the body's own frame.
        let vertex_layout = layout.0.get_layout(&[
            Mesh::ATTRIBUTE_POSITION.at_shader_location(0),
            ATTRIBUTE_SHAPE.at_shader_location(5),
        ])?;
        descriptor.vertex.buffers = vec![vertex_layout];
        Ok(())
    }
}

impl BodyBatchMaterial {
    fn shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(embedded_path!("examples", "body_batch.wgsl"))
                .with_source("embedded"),
        )
    }
}

/// What draws every body (`draw_bodies`): the mesh, rebuilt when bodies come, go, change
/// shape or are taken up or let go (the held ones are drawn last, on top), and the poses
/// texture, written where a body moved or changed its look.
#[derive(Resource)]
struct BodyBatch {
    mesh: Handle<Mesh>,
    poses: Handle<Image>,
    material: Handle<BodyBatchMaterial>,
    /// The bodies in the mesh.
    drawn: usize,
    /// The held bodies at the last rebuild, drawn in the last slots.
    held: Vec<Entity>,
}

/// A body's slot in the batch: its quad in the mesh and its two texels in the poses texture.
#[derive(Component, Clone, Copy, Debug, Default)]
struct BatchSlot(u32);

/// How a body is drawn now.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct BodyLook {
    tint: Tint,
    kind: RigidBody,
    state: BodyState,
    /// The fill colour, linear: what the body's colour texel holds.
    fill: [f32; 4],
}

impl BodyLook {
    fn new(tint: Tint, kind: RigidBody, state: BodyState) -> Self {
        let fill = fill_color(tint, kind, state).to_linear().to_f32_array();
        Self { tint, kind, state, fill }
    }

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
        embedded_asset!(app, "examples", "body_batch.wgsl");
        app.add_plugins(Material2dPlugin::<BodyBatchMaterial>::default())
            .insert_resource(ClearColor(BACKGROUND))
            .add_systems(Startup, setup_look)
            .add_systems(PostUpdate, (attach_looks, update_looks, fit_floor))
            .add_systems(PostUpdate, draw_bodies.after(TransformSystems::Propagate))
            .add_systems(Update, draw_highlights.after(PhysicsSystems::Interpolate));
    }
}

fn setup_look(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut batch_materials: ResMut<Assets<BodyBatchMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let floor = materials.add(ColorMaterial::from_color(WORLD_FILL));
    commands.spawn((
        WorldFloor,
        Mesh2d(meshes.add(Rectangle::new(1.0, 1.0))),
        MeshMaterial2d(floor),
        Transform::from_xyz(0.0, 0.0, -10.0),
    ));
    let mesh = meshes.add(batch_mesh(BatchVertices::default()));
    let poses = images.add(poses_image(0));
    let material = batch_materials.add(BodyBatchMaterial {
        shades: Vec4::new(BORDER_SHADE, LINE_SHADE, DISC_RING_INNER, DISC_LINE_HALF_WIDTH),
        rect: Vec4::new(RECT_BORDER, POSE_TEXTURE_WIDTH as f32, 0.0, 0.0),
        poses: poses.clone(),
    });
    commands.spawn((
        Name::new("Bodies"),
        Mesh2d(mesh.clone()),
        MeshMaterial2d(material.clone()),
        Transform::default(),
        // The mesh follows the bodies and covers the world: no bounds to test.
        NoFrustumCulling,
    ));
    commands.insert_resource(BodyBatch { mesh, poses, material, drawn: 0, held: Vec::new() });
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

/// Gives every new body its look.
fn attach_looks(
    mut commands: Commands,
    bodies: Query<(Entity, &RigidBody, &PhysicsMaterial, Has<Sleeping>), Without<BodyLook>>,
) {
    for (entity, &kind, material, sleeping) in &bodies {
        let look = BodyLook::new(Tint::of(material.0), kind, state_of(false, sleeping));
        commands.entity(entity).insert((look, BatchSlot::default()));
    }
}

/// Follows state changes: held, sleeping, a new material or kind. Only the bodies whose
/// components changed, whose sleep marker came or went, or that a pointer holds or held are
/// looked at: a world at rest costs nothing here (issue 20).
#[expect(clippy::type_complexity, reason = "the change filter over the look's inputs")]
fn update_looks(
    physics: Res<PhysicsWorld>,
    drag: Res<DragState>,
    mut held_before: Local<Vec<Entity>>,
    mut woke: RemovedComponents<Sleeping>,
    changed: Query<
        Entity,
        (With<BodyLook>, Or<(Changed<PhysicsMaterial>, Changed<RigidBody>, Added<Sleeping>)>),
    >,
    mut bodies: Query<(&mut BodyLook, &RigidBody, &PhysicsMaterial, Has<Sleeping>)>,
) {
    let held_now: Vec<Entity> = drag.iter().map(|(_, entity)| entity).collect();
    let candidates: Vec<Entity> = changed
        .iter()
        .chain(woke.read())
        .chain(held_before.drain(..))
        .chain(held_now.iter().copied())
        .collect();
    // Watched next frame: the bodies held now, and those still drawn held (the core lets go
    // of a released body at its next step, which may come a frame later).
    let mut watch = held_now;
    for entity in candidates {
        let Ok((mut look, &kind, material, sleeping)) = bodies.get_mut(entity) else { continue };
        let held = physics
            .handle(entity)
            .and_then(|handle| physics.world().body(handle))
            .is_some_and(|b| b.is_held());
        let (tint, state) = (Tint::of(material.0), state_of(held, sleeping));
        if (look.tint, look.kind, look.state) != (tint, kind, state) {
            *look = BodyLook::new(tint, kind, state);
        }
        if state == BodyState::Held && !watch.contains(&entity) {
            watch.push(entity);
        }
    }
    *held_before = watch;
}

/// The vertices of the batch, one quad per body.
#[derive(Default)]
struct BatchVertices {
    /// The corner in the body's own frame, px (z = 0).
    local: Vec<[f32; 3]>,
    shapes: Vec<[f32; 4]>,
}

impl BatchVertices {
    fn with_capacity(bodies: usize) -> Self {
        let n = 4 * bodies;
        Self { local: Vec::with_capacity(n), shapes: Vec::with_capacity(n) }
    }

    /// The quad of the body in `slot`, reaching `QUAD_MARGIN` beyond its outline. Where it
    /// is drawn comes from the poses texture.
    fn push(&mut self, collider: Collider, slot: u32) {
        let (kind, half) = match collider {
            Collider::Circle { radius } => (0.0, Vec2::splat(radius)),
            Collider::Rectangle { half_extents } => (1.0, half_extents),
        };
        let reach = half + QUAD_MARGIN;
        for corner in [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::ONE, Vec2::new(-1.0, 1.0)]
        {
            let local = corner * reach;
            self.local.push([local.x, local.y, 0.0]);
            self.shapes.push([kind, half.x, half.y, slot as f32]);
        }
    }
}

/// The batch's mesh of `vertices` (a degenerate quad when there are none: a mesh needs a
/// vertex; slot 0's texel is then zero, which folds the quad to a point).
fn batch_mesh(mut vertices: BatchVertices) -> Mesh {
    if vertices.local.is_empty() {
        vertices.push(Collider::Circle { radius: 0.0 }, 0);
    }
    let quads = (vertices.local.len() / 4) as u32;
    let indices = (0..quads).flat_map(|q| [0, 1, 2, 0, 2, 3].map(|i| 4 * q + i)).collect();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::RENDER_WORLD)
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, vertices.local)
        .with_inserted_attribute(ATTRIBUTE_SHAPE, vertices.shapes)
        .with_inserted_indices(Indices::U32(indices))
}

/// A poses texture with room for `bodies` slots: a power of two of rows, so that a world
/// that grows body by body seldom needs a new one.
fn poses_image(bodies: usize) -> Image {
    let rows = (2 * bodies).div_ceil(POSE_TEXTURE_WIDTH as usize).max(1).next_power_of_two();
    let size =
        Extent3d { width: POSE_TEXTURE_WIDTH, height: rows as u32, depth_or_array_layers: 1 };
    // Kept in the main world too, so that a frame writes only the texels that changed.
    let usage = RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD;
    Image::new_fill(size, TextureDimension::D2, &[0; 16], TextureFormat::Rgba32Float, usage)
}

/// A body's pose texel: its drawn centre, px, and the direction of its transform's x axis
/// (no angle to extract per body; a scale, which the physics ignores, is ignored here too).
fn pose_texel(transform: &GlobalTransform) -> [f32; 4] {
    let affine = transform.affine();
    let turn = affine.matrix3.x_axis.truncate().normalize_or(Vec2::X);
    [affine.translation.x, affine.translation.y, turn.x, turn.y]
}

/// Writes `value` into texel `index` of an `Rgba32Float` image's bytes.
fn put_texel(bytes: &mut [u8], index: usize, value: [f32; 4]) {
    let start = 16 * index;
    if let Some(texel) = bytes.get_mut(start..start + 16) {
        for (channel, v) in texel.chunks_exact_mut(4).zip(value) {
            channel.copy_from_slice(&v.to_le_bytes());
        }
    }
}

/// The drawn bodies, with the change ticks `draw_bodies` looks at, and their slots.
type DrawnBodies<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, GlobalTransform>,
        Ref<'static, Collider>,
        Ref<'static, BodyLook>,
        &'static mut BatchSlot,
    ),
>;

/// Keeps the batch in step with the bodies. A frame in which bodies came, went, changed
/// shape or were taken up or let go rebuilds the mesh, the held bodies last (so on top), and
/// writes every texel. Any other frame writes the pose texels of the bodies that moved and
/// the colour texels of those whose look changed; a world at rest (asleep, or paused) costs
/// a look at the change ticks and nothing more.
fn draw_bodies(
    mut batch: ResMut<BodyBatch>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<BodyBatchMaterial>>,
    mut bodies: DrawnBodies,
    mut removed: RemovedComponents<BodyLook>,
) {
    let count = bodies.iter().len();
    let mut rebuild = removed.read().count() > 0 || count != batch.drawn;
    // One pass: texels are written as changes are met, and a change that needs a rebuild
    // ends the pass (the rebuild writes every texel anyway). The image is marked modified,
    // so sent to the GPU again, only if a texel was written.
    let mut bytes = images.get_mut_untracked(&batch.poses).and_then(|i| i.data.as_mut());
    let mut written = false;
    for (entity, transform, collider, look, slot) in &bodies {
        if rebuild {
            break;
        }
        let (moved, recoloured) = (transform.is_changed(), look.is_changed());
        // Taken up or let go: the held bodies' slots are the last ones.
        let held_changed = || (look.state == BodyState::Held) != batch.held.contains(&entity);
        rebuild = collider.is_changed() || look.is_added() || (recoloured && held_changed());
        let Some(bytes) = bytes.as_deref_mut() else { continue };
        if rebuild || !(moved || recoloured) {
            continue;
        }
        let index = 2 * slot.0 as usize;
        if moved {
            put_texel(bytes, index, pose_texel(&transform));
        }
        if recoloured {
            put_texel(bytes, index + 1, look.fill);
        }
        written = true;
    }
    if rebuild {
        rebuild_batch(&mut batch, &mut meshes, &mut images, &mut materials, &mut bodies, count);
    } else if written {
        let _ = images.get_mut(&batch.poses).map(|image| image.into_inner());
    }
}

/// The mesh of every body and every texel, in new slots: the bodies not held first.
fn rebuild_batch(
    batch: &mut BodyBatch,
    meshes: &mut Assets<Mesh>,
    images: &mut Assets<Image>,
    materials: &mut Assets<BodyBatchMaterial>,
    bodies: &mut DrawnBodies,
    count: usize,
) {
    let mut image = poses_image(count);
    let Some(bytes) = image.data.as_mut() else { return };
    let mut vertices = BatchVertices::with_capacity(count);
    batch.held.clear();
    let mut next = 0;
    for held in [false, true] {
        for (entity, transform, collider, look, mut slot) in bodies.iter_mut() {
            if (look.state == BodyState::Held) != held {
                continue;
            }
            if held {
                batch.held.push(entity);
            }
            slot.0 = next;
            vertices.push(*collider, next);
            put_texel(bytes, 2 * next as usize, pose_texel(&transform));
            put_texel(bytes, 2 * next as usize + 1, look.fill);
            next += 1;
        }
    }
    batch.drawn = count;
    if let Err(error) = meshes.insert(&batch.mesh, batch_mesh(vertices)) {
        warn_once!("the bodies' mesh could not be replaced: {error}");
    }
    let resized = images.get(&batch.poses).is_none_or(|old| old.size() != image.size());
    if let Err(error) = images.insert(&batch.poses, image) {
        warn_once!("the bodies' poses could not be replaced: {error}");
    }
    if resized {
        // A texture of another size is a new texture: the material's bind group must follow.
        let _ = materials.get_mut(&batch.material).map(|material| material.into_inner());
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
