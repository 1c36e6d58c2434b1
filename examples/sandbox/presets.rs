//! Scene presets: the shared scenes of `bevy_sandbox_physics::physics::scenes`, fitted into
//! the walls as they are now, plus two the sandbox adds (boxes sliding on shelves of each
//! material, and a stress test of many small bodies).
//!
//! A scene is data in the core's y-down frame with its own size; it is placed on the floor,
//! centred between the walls, and sized (body count, pyramid base) so that it fits.

use bevy::prelude::*;
use bevy_sandbox_physics::physics::scenes::{self, Scene, SceneRng};
use bevy_sandbox_physics::physics::{BodyDesc, MIN_BODY_SIZE, Material, Shape};
use bevy_sandbox_physics::plugin::CoordinateMapping;
use bevy_sandbox_physics::prelude::*;

/// The scenes the palette and the number keys load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Nothing: an empty world.
    Empty,
    /// A pyramid of 30 px boxes, as wide as fits (`scenes::pyramid`).
    Pyramid,
    /// Wooden balls raining into the world (`scenes::rain`).
    Rain,
    /// Circles and boxes of every material tumbling into a pile (`scenes::mixed`).
    MixedPile,
    /// One ball of each material dropped from the same height (`scenes::material_balls`):
    /// their bounces show the restitution of each.
    MaterialBalls,
    /// A box sliding at 300 px/s along a static shelf of each material: friction `μ` sets
    /// the stopping distance `v²/(2μg)` (R-FRI-2), ice slides off.
    SlidingBoxes,
    /// This many small bodies of every material and shape on a grid filling the world.
    Stress(usize),
    /// The demonstration of a rule switch at this index of `scenes::lab_demos` (R-LAB-1).
    Lab(usize),
}

impl Preset {
    /// The presets shown in the palette, in number-key order (1 …).
    pub const MENU: [Preset; 6] = [
        Preset::Pyramid,
        Preset::Rain,
        Preset::MixedPile,
        Preset::MaterialBalls,
        Preset::SlidingBoxes,
        Preset::Stress(1000),
    ];

    /// A short name for buttons.
    pub fn label(self) -> &'static str {
        match self {
            Preset::Empty => "Empty",
            Preset::Pyramid => "Pyramid",
            Preset::Rain => "Rain",
            Preset::MixedPile => "Mixed pile",
            Preset::MaterialBalls => "Material balls",
            Preset::SlidingBoxes => "Sliding boxes",
            Preset::Stress(_) => "Stress",
            Preset::Lab(_) => "Lab demonstration",
        }
    }

    /// The scene fitted into a world of `size` px.
    pub fn scene(self, size: Vec2) -> Scene {
        let fits = |scene: &Scene| scene.size.cmple(size).all();
        let largest = |make: &dyn Fn(usize) -> Scene, counts: &mut dyn Iterator<Item = usize>| {
            counts.map(make).find(|s| fits(s)).unwrap_or_else(|| empty(size))
        };
        match self {
            Preset::Empty => empty(size),
            Preset::Pyramid => largest(&|base| scenes::pyramid(base, 30.0), &mut (2..=18).rev()),
            Preset::Rain => largest(&|n| scenes::rain(n, 1), &mut (1..=40).rev().map(|k| 10 * k)),
            Preset::MixedPile => {
                largest(&|n| scenes::mixed(n, 3), &mut (1..=40).rev().map(|k| 10 * k))
            }
            Preset::MaterialBalls => scenes::material_balls(size),
            Preset::SlidingBoxes => sliding_boxes(size),
            Preset::Stress(count) => stress(count, size),
            Preset::Lab(index) => {
                scenes::lab_demos().into_iter().nth(index).map_or_else(|| empty(size), |d| d.scene)
            }
        }
    }
}

fn empty(size: Vec2) -> Scene {
    Scene { name: "empty".into(), size, bodies: Vec::new() }
}

/// A static shelf of each material with a box of the same material sliding along it at
/// 300 px/s, so contacts mix `√(μ·μ) = μ` of that material.
pub fn sliding_boxes(size: Vec2) -> Scene {
    let shelves = Material::PRESETS.len();
    let pitch = size.y / (shelves as f32 + 0.5);
    let shelf = Vec2::new((0.7 * size.x).max(4.0 * MIN_BODY_SIZE), 2.0 * MIN_BODY_SIZE);
    let boxed = Vec2::splat(40.0);
    let mut bodies = Vec::new();
    for (i, &(_, material)) in Material::PRESETS.iter().enumerate() {
        let y = pitch * (i as f32 + 1.0);
        let left = 0.05 * size.x;
        bodies.push(
            BodyDesc::rect(shelf, Vec2::new(left + 0.5 * shelf.x, y))
                .with_material(material)
                .fixed(),
        );
        let at = Vec2::new(left + 0.5 * boxed.x + 4.0, y - 0.5 * (shelf.y + boxed.y) - 0.25);
        bodies.push(
            BodyDesc::rect(boxed, at).with_material(material).with_velocity(Vec2::new(300.0, 0.0)),
        );
    }
    Scene { name: "sliding_boxes".into(), size, bodies }
}

/// How many bodies the stress scene places in a world of `size` px: its grid at the smallest
/// cell (bodies of `MIN_BODY_SIZE`, 0.5 px apart).
pub fn stress_capacity(size: Vec2) -> usize {
    let cell = 2.0 * MIN_BODY_SIZE + 0.5;
    let along = |length: f32| (length / cell).floor().max(1.0) as usize;
    along(size.x) * along(size.y)
}

/// Up to `count` small circles and boxes of every material on a grid that fills the world
/// from the top, with small random velocities. The grid is 32 px wide where that leaves room
/// for `count` bodies, down to 24.5 px (bodies of 12 px, 0.5 px apart) for big counts.
pub fn stress(count: usize, size: Vec2) -> Scene {
    let smallest_cell = 2.0 * MIN_BODY_SIZE + 0.5; // as `stress_capacity` counts
    let grid = |cell: f32| {
        let columns = (size.x / cell).floor().max(1.0) as usize;
        (columns, (size.y / cell).floor().max(1.0) as usize)
    };
    let mut cell: f32 = 32.0;
    while cell > smallest_cell && grid(cell).0 * grid(cell).1 < count {
        cell = (cell - 0.25).max(smallest_cell);
    }
    let largest = 0.5 * (cell - 0.5);
    let (columns, rows) = grid(cell);
    let mut rng = SceneRng::new(11);
    let materials = Material::PRESETS.map(|(_, m)| m);
    let margin = 0.5 * (size - Vec2::new(columns as f32, rows as f32) * cell);
    let bodies = (0..count.min(columns * rows))
        .map(|i| {
            let (column, row) = (i % columns, i / columns);
            let position = margin + (Vec2::new(column as f32, row as f32) + 0.5) * cell;
            let shape = if rng.unit() < 0.6 {
                Shape::circle(rng.range(MIN_BODY_SIZE, largest))
            } else {
                Shape::rect(
                    2.0 * rng.range(MIN_BODY_SIZE, largest),
                    2.0 * rng.range(MIN_BODY_SIZE, largest),
                )
            };
            BodyDesc::new(shape, position)
                .with_material(rng.pick(&materials))
                .with_velocity(Vec2::new(rng.range(-40.0, 40.0), rng.range(-40.0, 40.0)))
        })
        .collect();
    Scene { name: format!("stress_{count}"), size, bodies }
}

/// The components of a body described in the core's frame of a scene placed in `bounds`:
/// the scene's bottom on the floor, centred between the side walls, or against the right
/// wall with `at_right_wall`. `None` if the body would start outside the walls.
pub fn body_bundle(
    desc: &BodyDesc,
    scene_size: Vec2,
    bounds: Rect,
    at_right_wall: bool,
) -> Option<(Collider, RigidBody, PhysicsMaterial, Transform, LinearVelocity, AngularVelocity)> {
    // The scene's rectangle in Bevy coordinates: its top-left corner is the scene's origin.
    let left = if at_right_wall {
        bounds.max.x - scene_size.x
    } else {
        bounds.center().x - 0.5 * scene_size.x
    };
    let top = bounds.min.y + scene_size.y;
    let mapping =
        CoordinateMapping::from_bounds(Rect::new(left, bounds.min.y, left + scene_size.x, top));
    let components = body_components(desc, mapping);
    let inside =
        Rect::from_center_half_size(components.3.translation.truncate(), desc.shape.half_size());
    (bounds.contains(inside.min) && bounds.contains(inside.max)).then_some(components)
}

/// Despawns every body and spawns `preset` fitted into `bounds`; returns the body count.
pub fn load(
    commands: &mut Commands,
    preset: Preset,
    bounds: Rect,
    bodies: impl Iterator<Item = Entity>,
) -> usize {
    for entity in bodies {
        commands.entity(entity).despawn();
    }
    let scene = preset.scene(bounds.size());
    // The emergency brake's demonstration presses a row of boxes into its right wall: that
    // one is placed against the world's.
    let at_right_wall = match preset {
        Preset::Lab(index) => {
            scenes::lab_demos().get(index).is_some_and(|d| d.switch == "emergency_brake")
        }
        _ => false,
    };
    let mut count = 0;
    for desc in &scene.bodies {
        if let Some(bundle) = body_bundle(desc, scene.size, bounds, at_right_wall) {
            commands.spawn(bundle);
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stress_scene_has_2000_bodies_in_a_full_hd_window_minus_the_panel() {
        let scene = stress(2000, Vec2::new(1360.0, 1080.0));
        assert_eq!(scene.bodies.len(), 2000);
    }

    #[test]
    fn the_stress_scene_spawns_its_count_or_exactly_the_capacity_it_reports() {
        for size in [Vec2::new(540.0, 850.0), Vec2::new(1360.0, 860.0), Vec2::new(1600.0, 870.0)] {
            let capacity = stress_capacity(size);
            for count in [100, 1000, 3000] {
                let spawned = stress(count, size).bodies.len();
                assert_eq!(spawned, count.min(capacity), "{count} bodies asked in {size}");
            }
        }
        // The old layout's world (540 px between the panels) held fewer than 1,000.
        assert!(stress_capacity(Vec2::new(540.0, 850.0)) < 1000);
        assert!(stress_capacity(Vec2::new(1350.0, 860.0)) >= 1000);
        // Issue 20: the stress slider's 20,000 bodies fit a world of 8000 × 3000 px.
        assert!(stress_capacity(Vec2::new(8000.0, 3000.0)) >= 20_000);
    }

    #[test]
    fn every_lab_demonstration_fits_the_default_world_whole() {
        let bounds = Rect::from_center_size(Vec2::ZERO, Vec2::new(1600.0, 860.0));
        for (index, demo) in scenes::lab_demos().iter().enumerate() {
            let scene = Preset::Lab(index).scene(bounds.size());
            assert_eq!(scene.bodies.len(), demo.scene.bodies.len(), "{}", demo.name);
            let placed = scene.bodies.iter().map(|d| body_bundle(d, scene.size, bounds, true));
            assert_eq!(placed.flatten().count(), scene.bodies.len(), "{}", demo.name);
        }
    }

    #[test]
    fn every_preset_fits_a_small_window() {
        let bounds = Rect::from_center_size(Vec2::ZERO, Vec2::new(700.0, 600.0));
        for preset in Preset::MENU {
            let scene = preset.scene(bounds.size());
            assert!(!scene.bodies.is_empty(), "{preset:?} is empty");
            let placed =
                scene.bodies.iter().filter(|d| body_bundle(d, scene.size, bounds, false).is_some());
            assert_eq!(placed.count(), scene.bodies.len(), "{preset:?} leaves bodies out");
        }
    }
}
