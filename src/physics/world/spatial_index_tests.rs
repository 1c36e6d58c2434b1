//! The spatial index's grid stays small wherever the bodies are (R-CFG-3): at most
//! `4n + 64` cells for n bodies, for any finite coordinates. Before the rounding margin
//! (a millionth of the coordinates' magnitude) counted towards that cap, one body at
//! 1e12 px got a grid of 25,000² cells (2.4 GB, 4 s to build), and at 3e12 px the cell
//! count overflowed a u32 and the query panicked. The API no longer places bodies or walls
//! that far out (`MAX_COORDINATE`), but a body flying through an open wall still gets there.

use super::*;
use crate::physics::QueryFilter;

/// The grid's cell count after a query of `world`, and its cap `4n + 64`.
fn cells_and_cap(world: &World) -> (usize, usize) {
    world.bodies_at_point(Vec2::ZERO, &QueryFilter::default()).expect("a finite point");
    let grid = world.spatial_index.grid(&world.slots, world.moved_at_step);
    (grid.cell_count(), 4 * world.body_count + 64)
}

fn world() -> World {
    World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("a valid world")
}

/// A circle of 20 px moved to `position` directly. The API places bodies only within
/// `MAX_COORDINATE` (10⁹ px) of the origin; beyond an open wall a body may still fly on, as
/// far as `f32` reaches, and the index must hold it there too.
fn flown_to(world: &mut World, position: Vec2) -> BodyHandle {
    let handle = world.add_body(BodyDesc::circle(20.0, Vec2::new(400.0, 300.0))).expect("a body");
    let index = world.slot_of(handle).expect("just added");
    if let Some(body) = world.slots[index].body.as_mut() {
        (body.position, body.previous_position) = (position, position);
    }
    world.spatial_index.invalidate();
    handle
}

#[test]
fn a_body_flown_1e12_or_3e12_px_out_gets_at_most_68_cells_and_is_found_r_cfg_3() {
    for far in [1.0e12, 3.0e12, -3.0e12] {
        let mut world = world();
        for wall in WallId::ALL {
            world.set_wall_enabled(wall, false);
        }
        let position = Vec2::splat(far);
        let handle = flown_to(&mut world, position);
        let (cells, cap) = cells_and_cap(&world);
        assert!(cells <= cap, "a body at {far}: {cells} cells, cap {cap}");
        let found = world.bodies_at_point(position, &QueryFilter::default()).expect("finite");
        assert_eq!(found, [handle], "the body at {position}");
        let bodies = QueryFilter::default().with_walls(false);
        let around = (position - position.abs() * 1e-3, position + position.abs() * 1e-3);
        let boxed = world.bodies_in_aabb(around.0, around.1, &bodies).expect("a valid box");
        assert_eq!(boxed, [handle], "the box around {position}");
        // A ray from a thousandth of the distance to the origin away (a whole number of
        // f32 steps out there) meets it.
        let origin = position - Vec2::new(position.x.abs() * 1e-3, 0.0);
        let hit = world.ray_cast(origin, Vec2::X, f32::INFINITY, &bodies).expect("a valid ray");
        assert_eq!(hit.map(|h| h.target), Some(BodyOrWall::Body(handle)), "the ray to {position}");
    }
}

#[test]
fn the_grid_of_an_open_world_stays_within_4n_plus_64_cells_out_to_f32_max_r_cfg_3() {
    for far in [3.0e12, 1.0e30, f32::MAX] {
        let mut world = world();
        for wall in WallId::ALL {
            world.set_wall_enabled(wall, false);
        }
        let bodies = [
            Vec2::new(400.0, 300.0),
            Vec2::new(far, 300.0),
            Vec2::new(-far, -far),
            Vec2::new(far, far),
        ];
        for (count, position) in bodies.into_iter().enumerate() {
            flown_to(&mut world, position);
            let (cells, cap) = cells_and_cap(&world);
            assert!(cells <= cap, "{} bodies out to {far}: {cells} cells, cap {cap}", count + 1);
            let found = world.bodies_at_point(position, &QueryFilter::default()).expect("finite");
            assert_eq!(found.len(), 1, "the body at {position}");
        }
    }
}

/// In a normal world the margin is a thousandth of a cell: two circles of 12.5 px (cells
/// of 50 px, the cap 72) whose boxes span 399.95 × 449.95 px count 8 × 9 = 72 cells
/// without it, and got 9 × 10 = 90 with it.
#[test]
fn the_grid_of_a_span_just_short_of_whole_cells_counts_its_margin_in_the_cap_r_cfg_3() {
    let mut world = world();
    let first = Vec2::new(100.0, 100.0);
    let second = first + Vec2::new(399.95, 449.95) - 25.0;
    for centre in [first, second] {
        world.add_body(BodyDesc::circle(12.5, centre)).expect("a body");
    }
    let (cells, cap) = cells_and_cap(&world);
    assert!(cells <= cap, "{cells} cells, cap {cap}");
    for centre in [first, second] {
        let found = world.bodies_at_point(centre, &QueryFilter::default()).expect("finite");
        assert_eq!(found.len(), 1, "the body at {centre}");
    }
}
