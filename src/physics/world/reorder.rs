//! The storage order of large worlds: their slots kept in space order in memory.

use super::*;

/// Worlds of at least this many bodies keep their slots in space order when their touching
/// bodies lie far apart in memory (`World::reorder_slots`). Below it the per-step arrays fit
/// in a core's 1 MiB L2 cache whatever the order, and a sort would only cost time.
pub(super) const REORDER_MIN_BODIES: usize = 4_096;

/// Steps between two looks at the order of the slots: bodies in a pile stay near their
/// neighbours for many steps. On 20,000 circles a look costs about 0.65 ms and a look with
/// a sort 0.8 ms, a tenth of a step, once in 64 steps.
pub(super) const REORDER_INTERVAL: u64 = 64;

/// Side of the square cells by which the slots are sorted, px: row after row of cells
/// (64 px tall, about two rows of bodies of the usual sizes), left to right within a row.
/// Fixed cells, so that a settled pile's order stays sorted while its bodies shift by a
/// fraction of a pixel.
pub(super) const REORDER_CELL: f32 = 64.0;

impl World {
    /// Sorts the slots into space order when that brings the bodies that touch at least
    /// twice as close together in memory.
    ///
    /// Every per-step array (colliders, solver bodies and velocities, positions, islands) is
    /// indexed by slot, and the contacts visit them in sweep order. Bodies added in random
    /// order scatter those visits over the whole arrays, which on large worlds outgrow the
    /// cache: unsorted, 20,000 circles added in random order step about 1.4 times as slowly
    /// as the same circles added row by row. The measure is the mean distance, in slots, between
    /// the two bodies of last step's body–body contacts, now and in the sorted order. A
    /// world added row by row is left as it is (its contacts are about as close as sorted
    /// ones, and its slots stay in the order of the handles, in which the Bevy layer reads
    /// the bodies); so is a sorted world whose bodies have only shifted a little.
    ///
    /// The step calls it first, every [`REORDER_INTERVAL`] steps, in worlds of at least
    /// [`REORDER_MIN_BODIES`] bodies: the per-step arrays a sort leaves stale (the contacts
    /// and islands of the last step) are all rebuilt before anything reads them. The look
    /// (the keys, their sort, the two distances) is most of the cost of a sort.
    pub(super) fn reorder_slots(&mut self) {
        self.find_sorted_order();
        let new_slot_of = &self.scratch.new_slot_of;
        let (mut now, mut sorted) = (0u64, 0u64);
        for c in &self.scratch.contacts[..self.scratch.body_contact_count] {
            now += u64::from(c.a.abs_diff(c.b));
            sorted += u64::from(new_slot_of[c.a as usize].abs_diff(new_slot_of[c.b as usize]));
        }
        if now > 2 * sorted {
            self.move_slots_into_sorted_order();
        }
    }

    /// Sorts the slots into space order, whatever their order now.
    #[cfg(test)]
    pub(super) fn sort_slots(&mut self) {
        self.find_sorted_order();
        self.move_slots_into_sorted_order();
    }

    /// The space order of the slots, into `reorder_keys` (new slot → old slot) and
    /// `new_slot_of` (old slot → new slot): rows of [`REORDER_CELL`] cells from the top of
    /// the world, then cells from left to right, the order in which the banded sweep finds
    /// the pairs; empty slots last.
    pub(super) fn find_sorted_order(&mut self) {
        let origin = self.bounds_min;
        // A float converts to an unsigned integer saturating: 0 left of or above the origin.
        let cell = |x: f32| ((x / REORDER_CELL) as u32).min(u32::MAX - 1);
        self.scratch.reorder_keys.clear();
        self.scratch.reorder_keys.extend(self.slots.iter().enumerate().map(|(index, slot)| {
            let key = slot.body.as_ref().map_or(u64::MAX, |body| {
                let p = body.position - origin;
                (u64::from(cell(p.y)) << 32) | u64::from(cell(p.x))
            });
            (key, index as u32)
        }));
        // The old index breaks ties: the order depends on the world's state alone, and
        // bodies of one cell keep their order.
        self.scratch.reorder_keys.sort_unstable();
        self.scratch.new_slot_of.clear();
        self.scratch.new_slot_of.resize(self.slots.len(), 0);
        for (new, &(_, old)) in self.scratch.reorder_keys.iter().enumerate() {
            self.scratch.new_slot_of[old as usize] = new as u32;
        }
    }

    /// Moves the slots into the order `find_sorted_order` found. Handles name an id, not a
    /// slot (`slot_of_id`), and pairs are oriented by id, so the move changes no handle, no
    /// warm-start key and no impulse sign; the order of the contacts, and so of the
    /// Gauss-Seidel passes, follows the slots.
    ///
    /// The slots are permuted in place and the other buffers were sized with the slots
    /// (`add_body`), so the move allocates nothing.
    pub(super) fn move_slots_into_sorted_order(&mut self) {
        // Slot `new` takes the body of slot `old`: the permutation applied one cycle at a
        // time, by swaps along the cycle. Each entry of `reorder_keys` is marked as it is
        // used (`new_slot_of` holds the permutation from here on).
        const MOVED: u32 = u32::MAX;
        let n = self.slots.len();
        for start in 0..n {
            let mut new = start;
            while self.scratch.reorder_keys[new].1 != MOVED {
                let old = std::mem::replace(&mut self.scratch.reorder_keys[new].1, MOVED) as usize;
                if old == start {
                    break;
                }
                self.slots.swap(new, old);
                new = old;
            }
        }
        for (index, slot) in self.slots.iter().enumerate() {
            self.slot_of_id[slot.id as usize] = index as u32;
        }
        self.broad_phase.renumber(&self.scratch.new_slot_of);
        let slot_of_id = &self.slot_of_id;
        let group_of = |key| slot_of_id[solver::group_body(key)] as usize;
        self.warm_start_cache.regroup(n, group_of);
        self.stats.slots_sorted = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::scenes::{self, SceneRng};

    /// A pile of 300 circles and boxes, added in random order, after `steps` steps, sleeping
    /// off unless `sleeping`.
    pub(super) fn shuffled_pile(steps: usize, sleeping: bool) -> World {
        let mut rng = SceneRng::new(7);
        let config = PhysicsConfig { sleeping_enabled: sleeping, ..PhysicsConfig::default() };
        let mut world = World::new(Vec2::new(900.0, 700.0), config).expect("a valid world");
        let mut cells: Vec<(usize, usize)> = (0..300).map(|i| (i % 20, i / 20)).collect();
        rng.shuffle(&mut cells);
        for (column, row) in cells {
            // Sideways jitter, so that the columns collapse into one pile.
            let x = 60.0 + 40.0 * column as f32 + rng.range(-10.0, 10.0);
            let position = Vec2::new(x, 660.0 - 40.0 * row as f32);
            let desc = if rng.unit() < 0.5 {
                BodyDesc::circle(rng.range(12.0, 18.0), position)
            } else {
                BodyDesc::rect(Vec2::new(rng.range(24.0, 36.0), rng.range(24.0, 36.0)), position)
            };
            world.add_body(desc).expect("a body inside the world");
        }
        for _ in 0..steps {
            world.step(1.0 / 120.0).expect("a valid step");
        }
        world
    }

    pub(super) fn same_body(a: &Body, b: &Body) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    /// Every contact of the last step that could have been warm started was: the contacts
    /// of a settled pile all persist from one step to the next.
    pub(super) fn all_warm_started(world: &World) -> bool {
        let stats = world.stats();
        let contacts = stats.body_contacts + stats.wall_contacts;
        contacts > 300 && stats.warm_started * 100 >= contacts * 98
    }

    #[test]
    pub(super) fn sorted_slots_keep_every_handle_its_body() {
        let world = shuffled_pile(120, false);
        let mut moved = world.clone();
        moved.sort_slots();
        let slots_moved = moved.slots.iter().enumerate().filter(|(i, s)| s.id as usize != *i);
        assert!(slots_moved.count() > 200, "a shuffled pile's slots are out of order");
        let before: Vec<_> = world.bodies().collect();
        let after: Vec<_> = moved.bodies().collect();
        assert_eq!(before.len(), after.len());
        for ((h1, b1), (h2, b2)) in before.iter().zip(&after) {
            assert_eq!(h1, h2, "bodies() keeps the order of the handles");
            assert!(same_body(b1, b2), "{h1}: {b1:?} became {b2:?}");
            assert!(same_body(moved.body(*h1).expect("a live handle"), b1));
        }
    }

    #[test]
    pub(super) fn sorted_slots_lie_in_rows_of_cells() {
        let mut world = shuffled_pile(60, false);
        world.sort_slots();
        let origin = world.bounds_min;
        let keys: Vec<(u32, u32)> = world
            .slots
            .iter()
            .filter_map(|s| s.body.as_ref())
            .map(|b| {
                let cell = (b.position - origin) / REORDER_CELL;
                (cell.y as u32, cell.x as u32)
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "rows of cells, left to right");
        assert!(keys.first().map(|k| k.0) < keys.last().map(|k| k.0), "a pile spans rows");
    }

    /// The step sorts a large world whose touching bodies lie far apart in memory, once, and
    /// neither a world added row by row nor a small one.
    #[test]
    pub(super) fn only_scattered_slots_of_large_worlds_are_sorted() {
        let rows = scenes::large(REORDER_MIN_BODIES, 5);
        let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
        let mut in_rows = rows.build(config.clone()).expect("the scene builds");
        let mut shuffled = scenes::shuffled(&rows, 3).build(config).expect("the scene builds");
        for step in 0..=3 * REORDER_INTERVAL {
            in_rows.step(1.0 / 120.0).expect("a valid step");
            shuffled.step(1.0 / 120.0).expect("a valid step");
            // The look at step 0 has no contacts to judge by; the one at step 64 sorts.
            let sorts = step == REORDER_INTERVAL;
            assert!(!in_rows.stats().slots_sorted, "step {step}: rows were sorted");
            assert_eq!(shuffled.stats().slots_sorted, sorts, "step {step}");
        }
        let mut small = shuffled_pile(REORDER_INTERVAL as usize, false);
        small.step(1.0 / 120.0).expect("a valid step");
        assert!(!small.stats().slots_sorted, "a small world is never sorted");
    }

    /// A world added row by row is left in the order of its handles.
    #[test]
    pub(super) fn a_world_added_row_by_row_keeps_its_order() {
        let mut world =
            World::new(Vec2::new(900.0, 700.0), PhysicsConfig::default()).expect("a valid world");
        for i in 0..300 {
            let position = Vec2::new(60.0 + 40.0 * (i % 20) as f32, 660.0 - 40.0 * (i / 20) as f32);
            world.add_body(BodyDesc::circle(15.0, position)).expect("a body inside the world");
        }
        for _ in 0..120 {
            world.step(1.0 / 120.0).expect("a valid step");
        }
        assert!(world.stats().body_contacts > 250, "the rows have settled into a pile");
        world.reorder_slots();
        assert!(world.slots.iter().enumerate().all(|(i, s)| s.id as usize == i));
        let mut shuffled = shuffled_pile(120, false);
        shuffled.reorder_slots();
        assert!(shuffled.slots.iter().enumerate().any(|(i, s)| s.id as usize != i));
    }

    /// Adds, removals, steps and sorts in random order: after each, every handle added and
    /// not removed finds its own body, every removed one is stale, and `slot_of_id` and the
    /// slots' ids agree (a freed id reused after a sort must find its moved slot).
    #[test]
    pub(super) fn handles_survive_sorts_between_adds_and_removals() {
        let mut rng = SceneRng::new(3);
        let mut world =
            World::new(Vec2::new(1200.0, 900.0), PhysicsConfig::default()).expect("a valid world");
        // Each live handle with the radius it was added with, which nothing changes.
        let mut live: Vec<(BodyHandle, f32)> = Vec::new();
        let mut removed: Vec<BodyHandle> = Vec::new();
        let mut sorts = 0;
        for op in 0..3000 {
            match rng.next_u64() % 10 {
                0..=4 => {
                    let radius = rng.range(12.0, 20.0);
                    let position = Vec2::new(rng.range(30.0, 1170.0), rng.range(30.0, 870.0));
                    let handle =
                        world.add_body(BodyDesc::circle(radius, position)).expect("inside");
                    live.push((handle, radius));
                }
                5..=6 if !live.is_empty() => {
                    let (handle, _) =
                        live.swap_remove((rng.next_u64() % live.len() as u64) as usize);
                    world.remove_body(handle).expect("a live handle");
                    removed.push(handle);
                }
                7 => world.step(1.0 / 120.0).expect("a valid step"),
                _ => {
                    let before = world.slots.clone();
                    world.sort_slots();
                    sorts +=
                        usize::from(before.iter().zip(&world.slots).any(|(a, b)| a.id != b.id));
                }
            }
            for &(handle, radius) in &live {
                let body = world.body(handle).unwrap_or_else(|| panic!("op {op}: {handle} lost"));
                assert_eq!(body.shape(), Shape::circle(radius), "op {op}: {handle}");
            }
            for &handle in &removed {
                assert!(!world.contains(handle), "op {op}: removed {handle} still found");
            }
            assert_eq!(world.body_count(), live.len());
            assert_eq!(world.bodies().count(), live.len());
            for (index, slot) in world.slots.iter().enumerate() {
                assert_eq!(world.slot_of_id[slot.id as usize] as usize, index, "op {op}");
            }
        }
        assert!(sorts > 50, "only {sorts} sorts moved slots");
    }

    /// Pairs are oriented by handle and the cache is regrouped, so every contact finds last
    /// step's impulses after the move, with their signs (a lost or flipped warm start would
    /// jolt a resting pile), wall contacts included.
    #[test]
    pub(super) fn sorted_slots_keep_every_warm_start() {
        let mut world = shuffled_pile(240, false);
        let mut moved = world.clone();
        moved.sort_slots();
        world.step(1.0 / 120.0).expect("a valid step");
        moved.step(1.0 / 120.0).expect("a valid step");
        assert!(world.stats().body_contacts > 350, "a pile, not 20 columns of 15 (280)");
        assert!(all_warm_started(&world));
        assert!(all_warm_started(&moved), "{:?}", moved.stats());
        assert_eq!(moved.stats().warm_started, world.stats().warm_started);
        assert_eq!(moved.stats().body_contacts, world.stats().body_contacts);
        let impulses = |w: &World| {
            let mut found: Vec<_> = w
                .contacts()
                .map(|c| (c.a.map(BodyHandle::to_bits), c.b.to_bits(), c.normal_impulse))
                .collect();
            found.sort_by_key(|x| (x.0, x.1));
            found
        };
        for (c1, c2) in impulses(&world).iter().zip(&impulses(&moved)) {
            assert_eq!((c1.0, c1.1), (c2.0, c2.1), "the same pairs, oriented alike");
            // Only the order of the Gauss-Seidel passes differs: the impulses agree to
            // well within what one pass changes in a resting pile.
            assert!((c1.2 - c2.2).abs() <= 0.02 * c1.2.abs().max(1.0), "{c1:?} vs {c2:?}");
        }
    }

    /// A sleeping pile keeps its contacts' impulses in the cache; after a sort they must
    /// still be found when the pile wakes.
    #[test]
    pub(super) fn a_sleeping_pile_sorted_wakes_warm_started() {
        let mut world = shuffled_pile(1200, true);
        assert_eq!(world.stats().awake, 0, "the pile sleeps after 10 s");
        world.sort_slots();
        world.wake_all();
        world.step(1.0 / 120.0).expect("a valid step");
        assert!(all_warm_started(&world), "{:?}", world.stats());
    }
}
