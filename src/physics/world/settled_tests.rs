//! The settled step (`World::step`, `settled`): a world in which nothing could move skips
//! its steps, and that must be invisible. Each test runs two copies of a world through the
//! same edits and steps; the reference copy is marked edited before every step, so it always
//! takes the whole step. After every step the two must agree on everything a step leaves
//! behind or a caller can read: the slots and their bodies bit for bit, the warm-start
//! cache, the sleeping islands, the events, the contacts, the islands and the stats (less
//! the wall-clock timings).

use glam::Vec2;

use super::*;
use crate::physics::collision::WallId;
use crate::physics::{Material, scenes};

/// Everything of `world` the comparison reads, as text (the types derive `Debug`; f32 bits
/// print exactly enough for `{:?}` to tell any two values apart except NaNs, which none is).
fn state(world: &World) -> String {
    // Less what differs by design: the clock, and whether the step was skipped.
    let stats =
        StepStats { timings: PhaseTimings::default(), skipped: false, ..world.stats.clone() };
    let mut islands: Vec<_> = world.sleeping_islands.iter().collect();
    islands.sort();
    format!(
        "steps {}\nslots {:?}\nfree {:?} {:?}\ncache {:?}\nsleeping {islands:?} next {}\n\
         events {:?}\ncontacts {:?}\nislands {:?}\nstats {stats:?}\nmoved {}",
        world.steps,
        world.slots,
        world.free_ids,
        world.slot_of_id,
        world.cache_entries(),
        world.next_island_id,
        world.collision_events(),
        world.contacts().collect::<Vec<_>>(),
        world.islands(),
        world.moved_at_step,
    )
}

/// A small deterministic generator (an LCG), so each seed gives the same edits.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

/// One edit of every kind a caller can make between steps, chosen by `dice`, applied to both
/// worlds (errors are part of the behaviour: both must give the same).
fn edit(worlds: [&mut World; 2], dice: &mut Dice) {
    let handles: Vec<BodyHandle> = worlds[0].handles().collect();
    let h = handles.get(dice.below(handles.len().max(1))).copied();
    let kind = dice.below(31);
    let (x, y) = (dice.unit(), dice.unit());
    let Some(h) = h else { return };
    let mut results = Vec::new();
    for world in worlds {
        let p = world.body(h).map_or(Vec2::new(300.0, 300.0), |b| b.position);
        let r = match kind {
            0 => world.set_position(h, p + Vec2::new(x, -y)),
            1 => world.set_angle(h, x),
            2 => world.set_velocity(h, Vec2::new(x, y) * 100.0),
            3 => world.set_angular_velocity(h, y),
            4 => world.set_material(h, Material { restitution: x * 0.5, ..Material::default() }),
            5 => {
                world.forget_contact_impulses();
                Ok(())
            }
            6 => world.set_collision_events(h, x > 0.5),
            7 => world.set_layers(h, CollisionLayers { memberships: 1, filters: 3 }),
            8 => world.set_sensor(h, x > 0.8),
            9 => world.set_force(h, Vec2::new(0.0, -1000.0 * x)),
            10 => world.add_force(h, Vec2::new(x, 0.0)),
            11 => world.set_torque(h, x),
            12 => world.add_torque(h, y),
            13 => world.set_gravity_scale(h, 0.5 + x),
            14 => world.apply_impulse(h, Vec2::new(x, y)),
            15 => world.apply_impulse_at(h, Vec2::new(x, y), p),
            16 => world
                .add_body(BodyDesc::circle(12.0 + 10.0 * x, p - Vec2::new(0.0, 200.0)))
                .map(|_| ()),
            17 => world.remove_body(h).map(|_| ()),
            18 => {
                world.remove_bodies([h]);
                Ok(())
            }
            19 => {
                let config = PhysicsConfig { time_to_sleep: 0.3 + x, ..world.config().clone() };
                let _ = world.set_config(config);
                Ok(())
            }
            20 => {
                let on = world.gravity_enabled();
                world.set_gravity_enabled(!on);
                world.set_gravity_enabled(on);
                Ok(())
            }
            21 => {
                let (min, max) = world.bounds();
                world.set_bounds(min, max + Vec2::new(0.0, 10.0 * x))
            }
            22 => world.wake(h),
            23 => {
                world.wake_all();
                Ok(())
            }
            24 => {
                world.set_wall_enabled(WallId::Top, x > 0.5);
                Ok(())
            }
            25 => world
                .grab(h)
                .and_then(|()| world.set_drag_target(h, p + Vec2::new(x, y)))
                .and_then(|()| world.release(h, Vec2::ZERO)),
            26 => world
                .grab(h)
                .and_then(|()| world.move_held_directly(h, p + Vec2::new(x, 0.0)))
                .and_then(|()| world.release(h, Vec2::new(0.0, y))),
            27 => world.set_collision_events(h, true).and_then(|()| world.set_sensor(h, false)),
            28 => world.set_force(h, Vec2::ZERO),
            29 => world.set_layers(h, CollisionLayers::ALL),
            _ => world.set_gravity_scale(h, 1.0),
        };
        results.push(format!("{r:?}"));
    }
    assert_eq!(results[0], results[1], "edit {kind} answered differently");
}

/// Runs `steps` steps of `scene`, with an edit before a step now and then, on a world that
/// may skip settled steps and on one that never does, comparing them after every step: the
/// bodies' state hash always, the whole [`state`] every `full_every` steps (it prints every
/// slot). Returns how many steps were skipped.
fn compare(
    scene: &scenes::Scene,
    seed: u64,
    steps: usize,
    edits_per_1000: usize,
    full_every: usize,
) -> usize {
    let mut world = scene.build(PhysicsConfig::default()).expect("the scene builds");
    let mut reference = world.clone();
    let mut dice = Dice(seed);
    let mut skipped = 0;
    for step in 0..steps {
        if dice.below(1000) < edits_per_1000 {
            edit([&mut world, &mut reference], &mut dice);
        }
        reference.edited();
        world.step(1.0 / 120.0).expect("a valid step");
        reference.step(1.0 / 120.0).expect("a valid step");
        skipped += usize::from(world.stats().skipped);
        assert!(!reference.stats().skipped, "an edited world takes a whole step");
        let differ = format!("{} seed {seed}: the worlds differ after step {step}", scene.name);
        assert_eq!(world.state_hash(), reference.state_hash(), "{differ}");
        if step % full_every == 0 || step + 1 == steps {
            assert_eq!(state(&world), state(&reference), "{differ}");
        }
    }
    skipped
}

#[test]
fn a_settled_step_changes_nothing_a_whole_step_would_r_slp_3() {
    // A pyramid that falls asleep, then edits of every kind now and then: each wakes it or
    // changes something the next whole step reads, and it falls asleep again.
    let mut skipped = 0;
    for seed in 1..=6 {
        skipped += compare(&scenes::pyramid(6, 30.0), seed, 1_500, 8, 1);
    }
    // The comparison means something only if settled steps were taken.
    assert!(skipped > 1_000, "only {skipped} steps were skipped");
}

#[test]
fn a_settled_world_with_events_sensors_and_layers_skips_exactly_r_game_1() {
    // Edits that need not wake anything (events, sensors, layers, forces of zero, a wall
    // far from the pile) between settled steps.
    let mut skipped = 0;
    for seed in 10..=13 {
        skipped += compare(&scenes::pyramid(4, 30.0), seed, 1_200, 30, 1);
    }
    assert!(skipped > 300, "only {skipped} steps were skipped");
}

#[test]
fn a_world_large_enough_to_sort_its_slots_steps_as_before_r_slp_3() {
    // Enough bodies that every REORDER_INTERVAL steps the step looks at the slot order,
    // which a settled step must not skip.
    let scene = scenes::shuffled(&scenes::large(REORDER_MIN_BODIES + 200, 5), 3);
    let skipped = compare(&scene, 21, 900, 2, 61);
    assert!(skipped > 100, "only {skipped} steps were skipped");
}
