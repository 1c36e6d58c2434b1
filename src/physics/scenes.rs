//! Scenes defined once and reused by tests, examples and benchmarks (seeded, deterministic).
//!
//! Each scene is plain data: a world size and a list of body descriptions, so another engine
//! can build the same scene from it.

use glam::Vec2;

use super::body::{BodyDesc, Material, Shape};
use super::config::{MIN_BODY_SIZE, PhysicsConfig};
use super::world::{PhysicsError, World};

/// A world size and its bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// A short name.
    pub name: String,
    /// World size in px (from (0, 0)).
    pub size: Vec2,
    /// The bodies, in the order they are added.
    pub bodies: Vec<BodyDesc>,
}

impl Scene {
    /// Builds a world from the scene.
    pub fn build(&self, config: PhysicsConfig) -> Result<World, PhysicsError> {
        let mut world = World::new(self.size, config)?;
        for desc in &self.bodies {
            world.add_body(*desc)?;
        }
        Ok(world)
    }
}

/// SplitMix64: a tiny seeded generator so scenes need no crate and never change.
#[derive(Clone, Debug)]
pub struct SceneRng(u64);

impl SceneRng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [low, high).
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next_u64() % items.len() as u64) as usize]
    }

    /// Puts `items` in a random order (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, (self.next_u64() % (i as u64 + 1)) as usize);
        }
    }
}

/// A pyramid of `base` boxes of `box_size` px on the floor, rows shrinking by one
/// (base·(base+1)/2 boxes). Boxes start 0.25 px apart so nothing overlaps at the start.
pub fn pyramid(base: usize, box_size: f32) -> Scene {
    let gap = 0.25;
    let pitch = box_size + gap;
    let width = (base as f32 * pitch + 4.0 * box_size).max(400.0);
    let height = (base as f32 * pitch + 6.0 * box_size).max(300.0);
    let mut bodies = Vec::with_capacity(base * (base + 1) / 2);
    for row in 0..base {
        let count = base - row;
        let y = height - 0.5 * box_size - row as f32 * pitch;
        let x0 = 0.5 * width - 0.5 * (count as f32 - 1.0) * pitch;
        for i in 0..count {
            bodies.push(BodyDesc::rect(Vec2::splat(box_size), Vec2::new(x0 + i as f32 * pitch, y)));
        }
    }
    Scene { name: format!("pyramid_{base}"), size: Vec2::new(width, height), bodies }
}

/// A tower of `count` boxes of `box_size` px standing on the floor of an 800 px wide world.
pub fn tower(count: usize, box_size: f32) -> Scene {
    let height = (count as f32 * box_size * 1.2 + 200.0).max(600.0);
    let bodies = (0..count)
        .map(|i| {
            let y = height - 0.5 * box_size - i as f32 * (box_size + 0.25);
            BodyDesc::rect(Vec2::splat(box_size), Vec2::new(400.0, y))
        })
        .collect();
    Scene { name: format!("tower_{count}"), size: Vec2::new(800.0, height), bodies }
}

/// `count` circles and boxes of random size (from `MIN_BODY_SIZE` up) and material, on a
/// grid above the floor of a world wide enough for them, with small random velocities.
pub fn mixed(count: usize, seed: u64) -> Scene {
    let mut rng = SceneRng::new(seed);
    let cell = 2.0 * MIN_BODY_SIZE + 28.0;
    let columns = ((count as f32).sqrt() * 1.5).ceil().max(8.0) as usize;
    let rows = count.div_ceil(columns);
    let width = columns as f32 * cell + 2.0 * cell;
    let height = (rows as f32 * cell * 2.0 + 200.0).max(600.0);
    let materials = Material::PRESETS.map(|(_, m)| m);
    let mut bodies = Vec::with_capacity(count);
    for i in 0..count {
        let (column, row) = (i % columns, i / columns);
        let position = Vec2::new((column as f32 + 1.5) * cell, (row as f32 + 1.0) * cell);
        let shape = if rng.unit() < 0.5 {
            Shape::circle(rng.range(MIN_BODY_SIZE, 0.5 * cell - 2.0))
        } else {
            Shape::Rect {
                half_extents: Vec2::new(
                    rng.range(MIN_BODY_SIZE, 0.5 * cell - 2.0),
                    rng.range(MIN_BODY_SIZE, 0.5 * cell - 2.0),
                ),
            }
        };
        let velocity = Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        bodies.push(
            BodyDesc::new(shape, position)
                .with_material(rng.pick(&materials))
                .with_velocity(velocity),
        );
    }
    Scene { name: format!("mixed_{count}"), size: Vec2::new(width, height), bodies }
}

/// `count` circles of mixed radii (12–24 px) in a grid high above a container, falling in,
/// each up to 2 px to the side of its column's centre.
///
/// The offset makes the rain a pile. Without it every circle landed centred on the one
/// below, where no force ever pushes it sideways: `rain(4000)` stood in 127 towers of 32
/// circles, 1,190 px tall, which no engine ever topples and no user builds.
pub fn rain(count: usize, seed: u64) -> Scene {
    let mut rng = SceneRng::new(seed);
    let cell = 52.0;
    let columns = ((count as f32).sqrt() * 2.0).ceil().max(8.0) as usize;
    let rows = count.div_ceil(columns);
    let width = columns as f32 * cell + 2.0 * cell;
    let height = (rows as f32 * cell * 2.5 + 200.0).max(600.0);
    let bodies = (0..count)
        .map(|i| {
            let (column, row) = (i % columns, i / columns);
            let radius = rng.range(MIN_BODY_SIZE, 24.0);
            let jitter = rng.range(-2.0, 2.0);
            let position =
                Vec2::new((column as f32 + 1.5) * cell + jitter, (row as f32 + 1.0) * cell);
            BodyDesc::circle(radius, position).with_material(Material::WOOD)
        })
        .collect();
    Scene { name: format!("rain_{count}"), size: Vec2::new(width, height), bodies }
}

/// `count` wood circles of mixed radii (12–20 px, one density) poured into a container about
/// as wide as their settled pile is deep: a grid of `√count` columns high above the floor,
/// each row shifted sideways by a random part of a cell and given a small random velocity, so
/// that the circles land one row after another and heap up instead of stacking in columns.
///
/// The deep pile of one island that issue 14 asks to fall asleep (R-REST-3): its bottom row
/// carries the weight of some 30 (1,000 bodies) to 60 (4,000 bodies) rows.
pub fn pour(count: usize, seed: u64) -> Scene {
    let mut rng = SceneRng::new(seed);
    let max_radius = 20.0;
    // 4 px between the largest circles, so nothing overlaps at the start.
    let cell = 2.0 * max_radius + 4.0;
    let columns = ((count as f32).sqrt().ceil() as usize).max(8);
    let rows = count.div_ceil(columns);
    let width = (columns as f32 + 2.0) * cell;
    // The grid over the pile's height again: the lowest row starts a pile's depth up.
    let height = (2.0 * rows as f32 * cell + 2.0 * cell).max(600.0);
    let mut bodies = Vec::with_capacity(count);
    for row in 0..rows {
        // Half a cell of room at each side, so the shifted row stays inside the walls.
        let shift = rng.range(-0.5, 0.5) * cell;
        let y = height - (rows as f32 + row as f32 + 0.5) * cell;
        for column in 0..columns.min(count - bodies.len()) {
            let x = (column as f32 + 1.5) * cell + shift;
            let velocity = Vec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
            bodies.push(
                BodyDesc::circle(rng.range(MIN_BODY_SIZE, max_radius), Vec2::new(x, y))
                    .with_material(Material::WOOD)
                    .with_velocity(velocity),
            );
        }
    }
    Scene { name: format!("pour_{count}"), size: Vec2::new(width, height), bodies }
}

/// `count` bodies all centred on the middle of a `size` world: circles of radius 12 to 20 px
/// and boxes of 24 to 40 px, alternating. Every pair overlaps at the start: the
/// pathological case of R-REST-4 (issue 14), which the pair cap (D7) keeps bounded.
pub fn at_one_point(count: usize, size: Vec2) -> Scene {
    let point = size / 2.0;
    let bodies = (0..count)
        .map(|i| {
            let k = (i / 2 % 5) as f32;
            if i.is_multiple_of(2) {
                BodyDesc::circle(12.0 + 2.0 * k, point)
            } else {
                BodyDesc::rect(Vec2::new(24.0 + 4.0 * k, 40.0 - 4.0 * k), point)
            }
        })
        .collect();
    Scene { name: format!("at_one_point_{count}"), size, bodies }
}

/// `count` circles of mixed radii (12–20 px) packed in a grid of [`LARGE_ROWS`] rows just
/// above the floor of a world whose width grows with `count`, with a few px of random
/// sideways offset so that no column is a perfect (unstable) stack.
///
/// The pile is equally deep at every size, so the work per body is the same and the step
/// time of an engine should grow linearly with `count`: the scene of the scaling curve.
pub fn large(count: usize, seed: u64) -> Scene {
    let mut rng = SceneRng::new(seed);
    let max_radius = 20.0;
    // 4 px between the largest circles, so nothing overlaps at the start.
    let cell = 2.0 * max_radius + 4.0;
    let columns = count.div_ceil(LARGE_ROWS).max(LARGE_ROWS);
    let width = (columns as f32 + 2.0) * cell;
    let height = (LARGE_ROWS as f32 * cell * 1.5 + 200.0).max(600.0);
    let bodies = (0..count)
        .map(|i| {
            let (column, row) = (i % columns, i / columns);
            let jitter = rng.range(-2.0, 2.0);
            let position = Vec2::new(
                (column as f32 + 1.5) * cell + jitter,
                height - (row as f32 + 0.5) * cell - 2.0,
            );
            BodyDesc::circle(rng.range(MIN_BODY_SIZE, max_radius), position)
                .with_material(Material::WOOD)
        })
        .collect();
    Scene { name: format!("large_{count}"), size: Vec2::new(width, height), bodies }
}

/// The same bodies as `scene`, added in a random order (named `…_shuffled`): what a world
/// filled by a user's clicks or a spawner looks like in memory. Engines that store bodies in
/// the order they were added pay for it in cache misses on large worlds.
pub fn shuffled(scene: &Scene, seed: u64) -> Scene {
    let mut bodies = scene.bodies.clone();
    SceneRng::new(seed).shuffle(&mut bodies);
    Scene { name: format!("{}_shuffled", scene.name), size: scene.size, bodies }
}

/// Rows of circles in [`large`]: the depth of its pile, whatever the body count.
pub const LARGE_ROWS: usize = 16;

/// Body counts of the scaling curve, each a [`large`] scene.
pub const SCALING_COUNTS: [usize; 7] = [250, 500, 1_000, 2_000, 5_000, 10_000, 20_000];

/// The shared benchmark scenes, as Box2D v3 publishes its own: a pyramid of
/// 40-box base (820 boxes of 30 px), a rain of 4000 circles, and mixed pours of 500 and
/// 2000 circles and boxes. Fixed seeds, so every run and every engine sees the same bodies.
pub fn benchmarks() -> Vec<Scene> {
    vec![pyramid(40, 30.0), rain(4_000, 1), mixed(500, 3), mixed(2_000, 3)]
}

/// The piles that R-REST-3 asks to fall asleep within 5 s after their last body arrives
/// (issue 14): pours of 1,000 and 4,000 equal-density circles, the mixed piles of 500 and
/// 2,000 bodies with the material presets, the rain of 4,000 circles and a pyramid of base
/// 60 (1,830 boxes of 30 px).
pub fn piles() -> Vec<Scene> {
    vec![
        pour(1_000, 1),
        pour(4_000, 1),
        mixed(500, 3),
        mixed(2_000, 3),
        rain(4_000, 1),
        pyramid(60, 30.0),
    ]
}

/// Watches a pile's bodies arrive: a body has arrived once it touched another body or a
/// wall. R-REST-3 (issue 14) counts a pile's time to sleep from the step in which its last
/// body arrived; the pile tests, `examples/sleep_times.rs` and the peers' sleep-time table
/// all count it so.
#[derive(Clone, Debug, Default)]
pub struct Arrivals {
    arrived: std::collections::HashSet<u64>,
}

impl Arrivals {
    /// Notes every body in a contact of `world`'s last step; returns whether `count`
    /// bodies have arrived by now.
    pub fn note(&mut self, world: &World, count: usize) -> bool {
        for c in world.contacts() {
            self.arrived.insert(c.b.to_bits());
            self.arrived.extend(c.a.map(|a| a.to_bits()));
        }
        self.arrived.len() >= count
    }
}

/// The scenes of the scaling curve, one [`large`] scene per entry of [`SCALING_COUNTS`].
pub fn scaling() -> Vec<Scene> {
    SCALING_COUNTS.iter().map(|&count| large(count, 5)).collect()
}

/// One ball of each material preset in a row, dropped from the same height.
pub fn material_balls(size: Vec2) -> Scene {
    let spacing = size.x / (Material::PRESETS.len() as f32 + 1.0);
    let bodies = Material::PRESETS
        .iter()
        .enumerate()
        .map(|(i, &(_, material))| {
            BodyDesc::circle(20.0, Vec2::new(spacing * (i as f32 + 1.0), 0.25 * size.y))
                .with_material(material)
        })
        .collect();
    Scene { name: "material_balls".into(), size, bodies }
}

/// Elastic, frictionless balls for [`cradle_and_break`]: density 1, e = 1.
const BILLIARD: Material = Material { density: 1.0, friction: 0.0, restitution: 1.0 };

/// Two elastic impacts on touching balls, meant to run **without gravity** (its scene file
/// `cradle_and_break` has gravity off; docs/physics.md D15): above, a ball at 300 px/s
/// strikes a row of five touching balls, and the last one leaves at its speed (Newton's
/// cradle); below, a ball at 600 px/s breaks a triangle of ten touching balls. Balls of
/// radius 20 px, e = 1, no friction, in a `size` world of at least 900 × 600 px.
pub fn cradle_and_break(size: Vec2) -> Scene {
    let radius = 20.0;
    let ball = |at: Vec2, vx: f32| {
        BodyDesc::circle(radius, at).with_material(BILLIARD).with_velocity(Vec2::new(vx, 0.0))
    };
    let (row_y, rack_y) = (0.3 * size.y, 0.68 * size.y);
    let mut bodies = vec![ball(Vec2::new(0.2 * size.x, row_y), 300.0)];
    bodies.extend(
        (0..5).map(|i| ball(Vec2::new(0.4 * size.x + 2.0 * radius * i as f32, row_y), 0.0)),
    );
    bodies.push(ball(Vec2::new(0.2 * size.x, rack_y), 600.0));
    let pitch = 2.0 * radius * 3.0_f32.sqrt() / 2.0;
    for row in 0..4 {
        for k in 0..=row {
            let y = rack_y + 2.0 * radius * (k as f32 - 0.5 * row as f32);
            bodies.push(ball(Vec2::new(0.45 * size.x + pitch * row as f32, y), 0.0));
        }
    }
    Scene { name: "cradle_and_break".into(), size, bodies }
}

/// A demonstration of one rule switch of `PhysicsConfig` (R-LAB-1): a small scene in which
/// the failure the rule prevents shows within a few seconds once the switch is off.
#[derive(Clone, Debug, PartialEq)]
pub struct LabDemo {
    /// A short name for a button.
    pub name: &'static str,
    /// The `PhysicsConfig` field it demonstrates (an entry of `PhysicsConfig::PARAMETERS`).
    pub switch: &'static str,
    /// One line: what to do and what to watch, with the rule off and on.
    pub watch: &'static str,
    /// The bodies, in a world of at most 800 × 600 px.
    pub scene: Scene,
}

/// A perfectly inelastic material (e = 0), otherwise wood.
const CLAY: Material = Material { restitution: 0.0, ..Material::WOOD };

/// A perfectly elastic material (e = 1), density 1.
const ELASTIC: Material = Material { density: 1.0, friction: 0.5, restitution: 1.0 };

/// One demonstration per rule switch (R-LAB-1), in the order of the parameter table. Each
/// is proven by a test of `tests/physics_lab_switches.rs`, which measures the failure.
pub fn lab_demos() -> Vec<LabDemo> {
    let size = Vec2::new(800.0, 600.0);
    let scene = |name: &str, bodies: Vec<BodyDesc>| Scene { name: name.into(), size, bodies };
    vec![
        LabDemo {
            name: "Tall tower",
            switch: "warm_starting",
            watch: "Off: the tower of 16 boxes sinks into itself, boxes deep in each other; \
                    on: it stands.",
            scene: scene("lab_tall_tower", lab_tower(16, size)),
        },
        LabDemo {
            name: "Dead drop",
            switch: "accumulated_clamping",
            watch: "Off: the box of restitution 0 jumps back up to its drop height on every \
                    landing; on: it lands dead.",
            scene: scene(
                "lab_dead_drop",
                vec![
                    BodyDesc::rect(Vec2::splat(40.0), Vec2::new(400.0, 100.0)).with_material(CLAY),
                ],
            ),
        },
        LabDemo {
            name: "Elastic ball",
            switch: "restitution_from_step_start",
            watch: "Off: the e = 1 ball rises above the top of the post beside it, some 6 px \
                    more each bounce; on: it returns to the post's top every time.",
            scene: scene("lab_elastic_ball", elastic_ball_beside_a_post(size, 300.0)),
        },
        LabDemo {
            name: "Bouncy stack",
            switch: "restitution_threshold_enabled",
            watch: "Off: the resting stack of bouncy light and heavy boxes jitters and never \
                    sleeps; on: it rests and falls asleep.",
            scene: scene("lab_bouncy_stack", bouncy_stack(size)),
        },
        LabDemo {
            name: "Box set into a pile",
            switch: "position_correction",
            watch: "Baumgarte: the box set into the pile is flung out at hundreds of px/s; \
                    None: it stays inside; Projection: it is pushed out gently.",
            scene: scene("lab_box_in_pile", box_set_into_a_pile(size)),
        },
        LabDemo {
            name: "Squeeze",
            switch: "emergency_brake",
            watch: "Drag the steel box into the row of wooden boxes at the wall. Off: the last \
                    box sinks some 30 px into the wall; on: at most 12 px.",
            scene: scene("lab_squeeze", squeeze_row(size)),
        },
        LabDemo {
            name: "Bullet",
            switch: "speed_limit",
            watch: "Switch off, then reload: the small ball shot at 5000 px/s passes through \
                    the plank; on: it is clamped to 1296 px/s and bounces off.",
            scene: scene("lab_bullet", bullet_and_plank(size)),
        },
        LabDemo {
            name: "Resting pile",
            switch: "sleeping_enabled",
            watch: "Off: the pile in the bin never sleeps (islands in the overlay) and creeps, \
                    by fractions of a px; on: it falls asleep within seconds.",
            scene: scene("lab_resting_pile", pile_in_a_bin(size, 150, 3)),
        },
        LabDemo {
            name: "Pressed ball",
            switch: "hand_absorbs_bounces",
            watch: "Drag the rubber ball into the steel block and hold it there. Off: it shakes \
                    by 10 px every step; on: it rests against the block.",
            scene: scene("lab_pressed_ball", pressed_ball(size)),
        },
    ]
}

/// `count` boxes of 30 px standing on the floor in the middle of a `size` world, 0.25 px
/// apart.
fn lab_tower(count: usize, size: Vec2) -> Vec<BodyDesc> {
    let side = 30.0;
    (0..count)
        .map(|i| {
            let y = size.y - 0.5 * side - i as f32 * (side + 0.25);
            BodyDesc::rect(Vec2::splat(side), Vec2::new(0.5 * size.x, y))
        })
        .collect()
}

/// An e = 1 ball of radius 20 px with its bottom `drop` px above the floor, and beside it a
/// static post whose top marks that height.
fn elastic_ball_beside_a_post(size: Vec2, drop: f32) -> Vec<BodyDesc> {
    let (radius, x) = (20.0, 0.5 * size.x);
    let post = Vec2::new(24.0, drop);
    vec![
        BodyDesc::circle(radius, Vec2::new(x, size.y - drop - radius)).with_material(ELASTIC),
        BodyDesc::rect(post, Vec2::new(x - 60.0, size.y - 0.5 * drop))
            .with_material(Material::STEEL)
            .fixed(),
    ]
}

/// Four boxes of 40 px on the floor, light and heavy in turn (density 0.5 and 50) and
/// bouncy (e = 0.9): eight velocity passes leave a residue at a mass ratio of 100.
fn bouncy_stack(size: Vec2) -> Vec<BodyDesc> {
    let side = 40.0;
    (0..4)
        .map(|i| {
            let density = if i % 2 == 0 { 0.5 } else { 50.0 };
            let material = Material { density, friction: 0.5, restitution: 0.9 };
            let y = size.y - 0.5 * side - i as f32 * (side + 0.25);
            BodyDesc::rect(Vec2::splat(side), Vec2::new(0.5 * size.x, y)).with_material(material)
        })
        .collect()
}

/// A pyramid of 8 boxes of 30 px at the floor's middle and one more box of 30 px set
/// 15 px deep into its second row.
fn box_set_into_a_pile(size: Vec2) -> Vec<BodyDesc> {
    let pile = pyramid(8, 30.0);
    let offset = Vec2::new(0.5 * (size.x - pile.size.x), size.y - pile.size.y);
    let mut bodies: Vec<BodyDesc> =
        pile.bodies.iter().map(|b| BodyDesc { position: b.position + offset, ..*b }).collect();
    // Between the two middle boxes of the second row, half a box (15 px) down into it.
    let second_row = size.y - 0.5 * 30.0 - 30.25;
    bodies.push(BodyDesc::rect(Vec2::splat(30.0), Vec2::new(0.5 * size.x, second_row - 15.0)));
    bodies
}

/// Six wooden boxes of 30 px in a row on the floor against the right wall, and a steel box
/// of 100 px to drag into them.
fn squeeze_row(size: Vec2) -> Vec<BodyDesc> {
    let side = 30.0;
    let mut bodies: Vec<BodyDesc> = (0..6)
        .map(|i| {
            let x = size.x - 0.5 * side - i as f32 * (side + 0.5);
            BodyDesc::rect(Vec2::splat(side), Vec2::new(x, size.y - 0.5 * side))
                .with_material(Material::WOOD)
        })
        .collect();
    bodies.push(
        BodyDesc::rect(Vec2::splat(100.0), Vec2::new(0.3 * size.x, size.y - 50.0))
            .with_material(Material::STEEL),
    );
    bodies
}

/// A ball of the smallest radius (12 px) shot down at 5000 px/s at a static plank 24 px
/// thick (the thinnest a body may be), started where its first contact falls past the
/// plank's middle line.
fn bullet_and_plank(size: Vec2) -> Vec<BodyDesc> {
    vec![
        BodyDesc::rect(
            Vec2::new(0.75 * size.x, 2.0 * MIN_BODY_SIZE),
            Vec2::new(0.5 * size.x, 400.0),
        )
        .with_material(Material::STEEL)
        .fixed(),
        BodyDesc::circle(MIN_BODY_SIZE, Vec2::new(0.5 * size.x, BULLET_START))
            .with_velocity(Vec2::new(0.0, BULLET_SPEED)),
    ]
}

/// The bullet's start height and speed (see `bullet_and_plank`).
const BULLET_START: f32 = 115.0;
const BULLET_SPEED: f32 = 5000.0;

/// `count` circles and boxes of 24 to 32 px and every material on a grid in a bin of two
/// static walls 360 px apart in the middle of the floor: a pile some ten bodies deep.
fn pile_in_a_bin(size: Vec2, count: usize, seed: u64) -> Vec<BodyDesc> {
    let mut rng = SceneRng::new(seed);
    let (width, cell) = (360.0, 36.0);
    let wall = Vec2::new(2.0 * MIN_BODY_SIZE, 500.0);
    let centre = 0.5 * size.x;
    let mut bodies: Vec<BodyDesc> = [-1.0, 1.0]
        .iter()
        .map(|side| {
            let x = centre + side * (0.5 * width + MIN_BODY_SIZE);
            BodyDesc::rect(wall, Vec2::new(x, size.y - 0.5 * wall.y)).fixed()
        })
        .collect();
    let columns = (width / cell) as usize;
    let left = centre - 0.5 * columns as f32 * cell;
    let materials = Material::PRESETS.map(|(_, m)| m);
    let largest = 16.0;
    for i in 0..count {
        let (column, row) = (i % columns, i / columns);
        let position = Vec2::new(
            left + (column as f32 + 0.5) * cell,
            size.y - 30.0 - (row as f32 + 0.5) * cell,
        );
        let shape = if rng.unit() < 0.5 {
            Shape::circle(rng.range(MIN_BODY_SIZE, largest))
        } else {
            Shape::Rect {
                half_extents: Vec2::new(
                    rng.range(MIN_BODY_SIZE, largest),
                    rng.range(MIN_BODY_SIZE, largest),
                ),
            }
        };
        bodies.push(BodyDesc::new(shape, position).with_material(rng.pick(&materials)));
    }
    bodies
}

/// A rubber ball and a static steel block beside it to press it against.
fn pressed_ball(size: Vec2) -> Vec<BodyDesc> {
    vec![
        BodyDesc::rect(Vec2::new(60.0, 200.0), Vec2::new(0.6 * size.x, size.y - 100.0))
            .with_material(Material::STEEL)
            .fixed(),
        BodyDesc::circle(20.0, Vec2::new(0.35 * size.x, size.y - 100.0))
            .with_material(Material::RUBBER),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::collision::collide;

    #[test]
    fn scenes_are_deterministic_and_valid() {
        assert_eq!(mixed(50, 7), mixed(50, 7));
        assert_ne!(mixed(50, 7), mixed(50, 8));
        for scene in [pyramid(10, 30.0), tower(10, 30.0), mixed(100, 1), rain(100, 2)] {
            let world = scene.build(PhysicsConfig::default()).expect(&scene.name);
            assert_eq!(world.body_count(), scene.bodies.len());
        }
        assert_eq!(pyramid(15, 30.0).bodies.len(), 120);
    }

    #[test]
    fn benchmark_scenes_have_their_advertised_sizes_and_start_without_overlap() {
        let sizes: Vec<usize> = benchmarks().iter().map(|s| s.bodies.len()).collect();
        assert_eq!(sizes, [820, 4_000, 500, 2_000]);
        let counts: Vec<usize> = scaling().iter().map(|s| s.bodies.len()).collect();
        assert_eq!(counts, SCALING_COUNTS);
        assert_eq!(large(300, 9), large(300, 9));
        let sizes: Vec<usize> = piles().iter().map(|s| s.bodies.len()).collect();
        assert_eq!(sizes, [1_000, 4_000, 500, 2_000, 4_000, 1_830]);
        for scene in benchmarks().into_iter().chain([large(1_000, 5)]).chain(piles()) {
            let world = scene.build(PhysicsConfig::default()).expect(&scene.name);
            assert_eq!(world.body_count(), scene.bodies.len(), "{}", scene.name);
            let (min, max) = (Vec2::ZERO, scene.size);
            for (i, a) in scene.bodies.iter().enumerate() {
                let half = a.shape.half_size();
                let inside =
                    (a.position - half).cmpge(min).all() && (a.position + half).cmple(max).all();
                assert!(inside, "{}: body {i} starts in a wall", scene.name);
                for b in &scene.bodies[i + 1..] {
                    let touching = collide(&a.shape, a.position, &b.shape, b.position);
                    assert!(touching.is_none(), "{}: bodies overlap at the start", scene.name);
                }
            }
        }
    }
}
