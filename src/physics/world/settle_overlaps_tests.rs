//! The neighbours of bodies moved by the settling of D9 (`settle_overlaps.rs`): the same
//! overlaps, in the same order and number, as the plain grid that lists every body in every
//! cell its box covers (kept here as the reference), and a bounded amount of work for bodies
//! of any size (R-CFG-3).

use super::settle_overlaps::{Neighbours, SETTLE_CELL, overlaps_after_settling};
use super::walls::SettleWalls;
use super::*;

/// A seeded generator (an LCG, the top 24 bits), local so that the world's files import no
/// scene module: `range(low, high)` is uniform in [low, high).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }
}

/// The reference: every body listed in each cell of [`SETTLE_CELL`] its box covers; each
/// moved body tested against each cell's list, cell by cell (rows, then columns), in slot
/// order. As `(moved, other, normal bits, depth bits)`.
fn reference(
    slots: &[Slot],
    at: impl Fn(usize, &Body) -> Vec2,
    limit: f32,
) -> Vec<(usize, usize, [u32; 2], u32)> {
    let mut grid: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
    let cells = |centre: Vec2, body: &Body| {
        let half = body.shape.half_size();
        let cell_of = |x: f32| (x / SETTLE_CELL).floor() as i64;
        let (min, max) = (centre - half, centre + half);
        let mut keys = Vec::new();
        for y in cell_of(min.y)..=cell_of(max.y) {
            for x in cell_of(min.x)..=cell_of(max.x) {
                keys.push((x, y));
            }
        }
        keys
    };
    for (index, slot) in slots.iter().enumerate() {
        if let Some(body) = &slot.body {
            for key in cells(at(index, body), body) {
                grid.entry(key).or_default().push(index as u32);
            }
        }
    }
    let mut found = Vec::new();
    for (index, slot) in slots.iter().enumerate() {
        let Some(body) = &slot.body else { continue };
        let moved_to = at(index, body);
        if moved_to == body.position {
            continue;
        }
        for key in cells(moved_to, body) {
            for &other in grid.get(&key).into_iter().flatten() {
                let other = other as usize;
                let Some(neighbour) = slots[other].body.as_ref().filter(|_| other != index) else {
                    continue;
                };
                let hit = collision::collide(
                    &body.shape,
                    moved_to,
                    &neighbour.shape,
                    at(other, neighbour),
                );
                if let Some(m) = hit.filter(|m| m.depth > limit) {
                    found.push((
                        index,
                        other,
                        m.normal.to_array().map(f32::to_bits),
                        m.depth.to_bits(),
                    ));
                }
            }
        }
    }
    found
}

/// [`overlaps_after_settling`] in `world`, whose step started where its bodies are.
fn found(
    world: &World,
    at: impl Fn(usize, &Body) -> Vec2,
    limit: f32,
) -> Vec<(usize, usize, [u32; 2], u32)> {
    let bodies = world.slots.iter().map(|s| s.body.as_ref().map_or(Vec2::ZERO, |b| b.position));
    let starts: Vec<Vec2> = bodies.chain([Vec2::ZERO; WALL_COUNT]).collect();
    let walls = SettleWalls {
        walls: &world.walls,
        enabled: world.wall_enabled,
        open: world.open_bounds(),
        brake: world.brake_bounds(),
        starts: &starts,
    };
    overlaps_after_settling(&world.slots, &walls, at, limit)
        .into_iter()
        .map(|o| (o.moved, o.other, o.normal.to_array().map(f32::to_bits), o.depth.to_bits()))
        .collect()
}

/// A world of `count` random small bodies (12 … 40 px) packed so that many overlap, and
/// `large` circles of 700 px (22 cells across: more than the 256 cells a listed box has).
fn random_world(seed: u64, count: usize, large: usize) -> World {
    let mut rng = Rng(seed);
    let size = Vec2::new(2000.0, 1500.0);
    let mut world = World::new(size, PhysicsConfig::default()).expect("a valid world");
    for _ in 0..large {
        let centre = Vec2::new(rng.range(700.0, 1300.0), rng.range(700.0, 800.0));
        world.add_body(BodyDesc::circle(700.0, centre).fixed()).expect("a body");
    }
    for _ in 0..count {
        let centre = Vec2::new(rng.range(100.0, 1900.0), rng.range(100.0, 1400.0));
        let desc = if rng.unit() < 0.5 {
            BodyDesc::circle(rng.range(12.0, 40.0), centre)
        } else {
            BodyDesc::rect(Vec2::new(rng.range(24.0, 80.0), rng.range(24.0, 80.0)), centre)
        };
        world.add_body(desc).expect("a body");
    }
    world
}

/// Every third small body moved by up to 20 px, the large ones not.
fn moves(world: &World, seed: u64) -> Vec<Vec2> {
    let mut rng = Rng(seed);
    let slots = &world.slots;
    slots
        .iter()
        .enumerate()
        .map(|(index, slot)| {
            let small = slot.body.as_ref().is_some_and(|b| b.shape.half_size().x < 100.0);
            let offset = Vec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
            if small && index % 3 == 0 { offset } else { Vec2::ZERO }
        })
        .collect()
}

#[test]
fn moved_small_bodies_find_the_overlaps_of_the_plain_grid_in_its_order_and_number_r_cfg_3() {
    for (seed, large) in [(1, 0), (2, 0), (3, 1), (4, 3), (5, 5)] {
        let world = random_world(seed, 1500, large);
        let offsets = moves(&world, seed);
        let at = |index: usize, body: &Body| body.position + offsets[index];
        let expected = reference(&world.slots, at, 0.1);
        assert!(expected.len() > 100, "seed {seed}: only {} overlaps", expected.len());
        // Not vacuous: some neighbour is reported more than once (it shares cells).
        let mut pairs: Vec<_> = expected.iter().map(|e| (e.0, e.1)).collect();
        pairs.sort_unstable();
        let distinct = pairs.windows(2).filter(|w| w[0] != w[1]).count() + 1;
        assert!(distinct < pairs.len(), "seed {seed}: no pair reported twice");
        if large > 0 {
            assert!(expected.iter().any(|e| e.1 < large), "seed {seed}: no large neighbour");
        }
        assert_eq!(found(&world, at, 0.1), expected, "seed {seed}, {large} large");
    }
}

/// The fuzzer's case: bodies of the largest size (10,000 px, 313² cells each) in an
/// 800 × 600 world. Listed in every cell, 30 of them made 2.9 million entries and the sleep
/// phase took 0.76 s a step; now the cells list at most 256 entries per body, here none,
/// and each moved large body meets each neighbour once.
#[test]
fn bodies_of_the_largest_size_list_at_most_256_cells_each_and_meet_each_neighbour_once_r_cfg_3() {
    let mut world = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).expect("world");
    let count = 30;
    for i in 0..count {
        let centre = Vec2::new(400.0 + i as f32, 300.0);
        world.add_body(BodyDesc::circle(10_000.0, centre)).expect("a body");
    }
    world.add_body(BodyDesc::circle(20.0, Vec2::new(100.0, 100.0))).expect("a small body");
    let at = |index: usize, body: &Body| body.position + Vec2::new(0.0, index as f32 % 2.0);
    let neighbours = Neighbours::new(&world.slots, &at);
    let bound = 256 * world.body_count;
    assert!(neighbours.listed() <= bound, "{} entries, bound {bound}", neighbours.listed());
    let overlaps = found(&world, at, 0.1);
    // The moved large ones (odd slots, 15) each overlap the 29 other large ones and the
    // small one; the small one (slot 30, even) did not move.
    let mut pairs: Vec<_> = overlaps.iter().map(|o| (o.0, o.1)).collect();
    assert_eq!(pairs.len(), 15 * 30, "each pair once");
    pairs.dedup();
    assert_eq!(pairs.len(), 15 * 30, "no pair twice");
    assert!(pairs.iter().all(|&(moved, _)| moved % 2 == 1));
}
