//! Debug drawing with Bevy gizmos: shapes, contacts, islands and walls.
//!
//! Every circle gets a radius line at its angle, so rolling is visible (R-FRI-3). Sleeping
//! bodies are dimmed. Contacts are drawn as a small cross at the point and a line along the
//! normal (from A to B), islands as the bounding box of their bodies.
//!
//! The system is added only when the app has Bevy's `GizmoPlugin` (part of `DefaultPlugins`),
//! so headless apps with `MinimalPlugins` run without it; it draws while
//! [`PhysicsDebugDraw::enabled`] is set.

use bevy::color::palettes::css;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;

use super::components::{Collider, RigidBody, Sleeping, rotation_angle};
use super::controls::PhysicsBounds;
use super::physics_world::PhysicsWorld;
use super::resources::{RestoreRemoved, simulation_present};
use super::schedule::PhysicsSystems;

/// Debug drawing with Bevy gizmos: shapes, contacts, islands and walls, switched by the
/// [`PhysicsDebugDraw`] resource.
///
/// It draws only in apps with Bevy's `GizmoPlugin` (part of `DefaultPlugins`); headless apps
/// get the resource and nothing else.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsDebugDrawPlugin {
    /// Start with the drawing on ([`PhysicsDebugDraw::enabled`]). Default false.
    pub enabled: bool,
}

impl Plugin for PhysicsDebugDrawPlugin {
    fn build(&self, app: &mut App) {
        let enabled = self.enabled;
        app.insert_resource(PhysicsDebugDraw { enabled, ..default() })
            .restore_when_removed("as at startup", move |_| PhysicsDebugDraw {
                enabled,
                ..default()
            })
            .register_type::<PhysicsDebugDraw>();
    }

    fn finish(&self, app: &mut App) {
        // Only now is it known whether `GizmoPlugin` is there (headless apps have no gizmos).
        if app.world().contains_resource::<GizmoConfigStore>() {
            app.add_systems(
                Update,
                draw_debug
                    .after(PhysicsSystems::Interpolate)
                    // Skipped in a frame in which a resource it reads was removed.
                    .run_if(simulation_present.and_then(|draw: Option<Res<PhysicsDebugDraw>>| {
                        draw.is_some_and(|draw| draw.enabled)
                    })),
            );
        }
    }
}

/// The switch and the layers of the debug drawing.
#[derive(Resource, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct PhysicsDebugDraw {
    /// Draw anything at all. Default false (set by `SandboxPhysicsPlugin::debug_draw`).
    pub enabled: bool,
    /// Outlines of the bodies, with a radius line in every circle.
    pub shapes: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// Bounding boxes of the islands (bodies touching through contacts).
    pub islands: bool,
    /// The walls.
    pub walls: bool,
}

impl Default for PhysicsDebugDraw {
    fn default() -> Self {
        Self { enabled: false, shapes: true, contacts: true, islands: false, walls: true }
    }
}

/// Length of a drawn contact normal, px.
const NORMAL_LENGTH: f32 = 16.0;
/// Half size of the cross at a contact point, px.
const CONTACT_MARK: f32 = 3.0;
/// Alpha of sleeping bodies and islands.
const DIMMED: f32 = 0.35;

/// Draws the enabled layers.
pub(crate) fn draw_debug(
    draw: Res<PhysicsDebugDraw>,
    physics: Res<PhysicsWorld>,
    bounds: Res<PhysicsBounds>,
    bodies: Query<(&Collider, &RigidBody, &Transform, Has<Sleeping>)>,
    mut gizmos: Gizmos,
) {
    if draw.walls {
        gizmos.rect_2d(Isometry2d::from_translation(bounds.center()), bounds.size(), css::GRAY);
    }
    if draw.shapes {
        for (collider, rigid_body, transform, sleeping) in &bodies {
            let base = match rigid_body {
                RigidBody::Dynamic => css::LIGHT_SKY_BLUE,
                RigidBody::Static => css::SILVER,
                RigidBody::Kinematic => css::ORANGE,
            };
            let color = if sleeping { base.with_alpha(DIMMED) } else { base };
            let centre = transform.translation.truncate();
            match *collider {
                Collider::Circle { radius } => {
                    gizmos.circle_2d(Isometry2d::from_translation(centre), radius, color);
                    let angle = rotation_angle(transform.rotation);
                    gizmos.line_2d(centre, centre + Vec2::from_angle(angle) * radius, color);
                }
                Collider::Rectangle { half_extents } => {
                    gizmos.rect_2d(Isometry2d::from_translation(centre), 2.0 * half_extents, color);
                }
            }
        }
    }
    if draw.contacts {
        for contact in physics.contacts() {
            gizmos.cross_2d(Isometry2d::from_translation(contact.point), CONTACT_MARK, css::RED);
            gizmos.line_2d(
                contact.point,
                contact.point + contact.normal * NORMAL_LENGTH,
                css::YELLOW,
            );
        }
    }
    if draw.islands {
        let mapping = physics.mapping();
        for island in physics.world().islands() {
            let mut boxes = island.bodies.iter().filter_map(|&h| physics.world().body(h));
            let Some(first) = boxes.next() else { continue };
            let (mut min, mut max) = first.aabb();
            for body in boxes {
                let (lo, hi) = body.aabb();
                min = min.min(lo);
                max = max.max(hi);
            }
            let rect = mapping.rect_to_bevy(min, max);
            let color = if island.sleeping { css::ORANGE.with_alpha(DIMMED) } else { css::ORANGE };
            gizmos.rect_2d(Isometry2d::from_translation(rect.center()), rect.size(), color);
        }
    }
}
