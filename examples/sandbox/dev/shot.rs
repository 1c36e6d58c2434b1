//! What the smoke run records of a frame next to its screenshot: the [`Snapshot`] built from
//! the app (the bodies as drawn, the walls, the panels), in physical window pixels.

use bevy::prelude::*;
use bevy_sandbox_physics::physics::Material;
use bevy_sandbox_physics::prelude::*;

use super::smoke::PanelRects;
use super::snapshot::{BodyShot, PanelShot, Snapshot};
use crate::look::{BodyLook, BodyState, Tint, WORLD_FILL, fill_color};

/// Logical window px per world px: the camera's zoom.
pub(super) fn zoom_of(camera: (&Camera, &GlobalTransform)) -> f32 {
    match (screen_of(camera, Vec2::X), screen_of(camera, Vec2::ZERO)) {
        (Some(a), Some(b)) => a.distance(b),
        _ => 1.0,
    }
}

/// A world point in logical window px.
pub(super) fn screen_of(camera: (&Camera, &GlobalTransform), world: Vec2) -> Option<Vec2> {
    camera.0.world_to_viewport(camera.1, world.extend(0.0)).ok()
}

/// The query of everything a shot records about a body.
pub(super) type BodyQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Collider,
        &'static RigidBody,
        &'static Transform,
        &'static LinearVelocity,
        &'static BodyLook,
    ),
>;

/// The state drawn this frame, in physical window pixels.
#[expect(clippy::too_many_arguments, reason = "everything a shot records")]
pub(super) fn snapshot(
    name: &str,
    frame: u64,
    window: &Window,
    camera: (&Camera, &GlobalTransform),
    physics: &PhysicsWorld,
    controls: &PhysicsControls,
    walls: Rect,
    panels: &PanelRects,
    bodies: &BodyQuery,
    notes: Vec<(String, f64)>,
) -> Snapshot {
    let scale = window.scale_factor();
    let to_screen = |world: Vec2| screen_of(camera, world).map(|p| p * scale);
    let zoom = zoom_of(camera);
    let corner_a = to_screen(Vec2::new(walls.min.x, walls.max.y)).unwrap_or_default();
    let corner_b = to_screen(Vec2::new(walls.max.x, walls.min.y)).unwrap_or_default();
    let srgb = |c: Color| {
        let [r, g, b, _] = c.to_srgba().to_u8_array();
        [r, g, b]
    };
    let shots = bodies
        .iter()
        .filter_map(|(entity, &collider, &kind, transform, velocity, look)| {
            let centre = to_screen(transform.translation.truncate())?;
            let (circle, half) = match collider {
                Collider::Circle { radius } => (true, Vec2::splat(radius)),
                Collider::Rectangle { half_extents } => (false, half_extents),
            };
            let angle = -transform.rotation.to_euler(EulerRot::ZYX).0;
            let state = look.state();
            Some(BodyShot {
                id: entity.to_bits(),
                circle,
                centre: centre.into(),
                half: (half * scale * zoom).into(),
                angle,
                color: srgb(fill_color(look.tint(), kind, state)),
                material: match look.tint() {
                    Tint::Preset(i) => Material::PRESETS.get(i).map_or("custom", |p| p.0),
                    Tint::Custom => "custom",
                }
                .into(),
                state: match state {
                    BodyState::Awake => "awake",
                    BodyState::Sleeping => "sleeping",
                    BodyState::Held => "held",
                }
                .into(),
                velocity: [velocity.x, -velocity.y],
                fixed: kind == RigidBody::Static,
            })
        })
        .collect();
    Snapshot {
        name: name.into(),
        frame,
        scale_factor: scale,
        window: [window.physical_width() as f32, window.physical_height() as f32],
        step_count: physics.step_count(),
        paused: controls.paused,
        gravity: physics.world().gravity_enabled(),
        walls: [corner_a.x, corner_a.y, corner_b.x, corner_b.y],
        floor_color: srgb(WORLD_FILL),
        panels: panels
            .0
            .iter()
            .map(|(id, r)| PanelShot {
                id: id.clone(),
                rect: [r.left() * scale, r.top() * scale, r.right() * scale, r.bottom() * scale],
            })
            .collect(),
        bodies: shots,
        notes,
    }
}
