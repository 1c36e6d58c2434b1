//! Snapshots for rewinding (issue 18, R-SCN-2): a world as a step left it, without the
//! buffers the next step rebuilds anyway.
//!
//! # What carries over from one step to the next
//! Everything the next step reads and did not write itself: the bodies (pose, velocity,
//! sleep, rest timer, hold), the slots in their order and the free handle ids in theirs, the
//! forces, the sleeping islands and the next island id, the step counter, the warm-start
//! cache (impulses, and the `reported` bits of the events), and the events' sensor overlaps
//! and pending ends. The rest of the world, [`Scratch`], the broad phase and the spatial
//! index, is rebuilt by every step before it is read ("each entry written once" in
//! `step.rs`), so a snapshot leaves it out and a restored world steps bit for bit as the
//! original. The broad phase keeps last step's sweep order only to sort faster: its order,
//! by left edge and then slot, is total, so a fresh sort gives the same order.
//!
//! One thing of the last step is read by the next: in a world of at least
//! [`REORDER_MIN_BODIES`] bodies, every [`REORDER_INTERVAL`] steps, the step first decides
//! from last step's contacts whether to sort the slots. A snapshot taken just before such a
//! step makes that decision itself, on a full copy, and keeps the slots as the step would
//! leave them; the restored world's step then finds no contacts and leaves them alone.
//!
//! A snapshot of 2,000 bodies at rest on each other holds 120 bytes per slot, 4 to 8 per
//! handle id and 40 per cached contact (about 2.5 a body): about 0.4 MB in all (see
//! [`Snapshot::memory_bytes`] and `docs/scene-files.md`).

use super::*;

/// One warm-start cache entry as data: its pair key, its impulses, its `reported` bit.
pub(crate) type CacheEntry = (PairKey, CachedImpulse, bool);

/// A world as the step left it (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    /// The world, with empty step buffers, an empty warm-start cache and an empty broad
    /// phase.
    world: World,
    /// The warm-start cache's entries, in the cache's order.
    cache: Vec<CacheEntry>,
}

impl Snapshot {
    /// The step count of the world it holds.
    pub(crate) fn step(&self) -> u64 {
        self.world.steps
    }

    /// The world again, ready to step bit for bit as the one it was taken from.
    pub(crate) fn restore(&self) -> World {
        let mut world = self.world.clone();
        world.restore_cache(&self.cache);
        world
    }

    /// The heap bytes it holds, plus its own size: exact for the vectors (their capacity),
    /// estimated for the maps (entries times entry size, times 1.5 for a hash map's empty
    /// buckets and a B-tree's half-full nodes).
    pub(crate) fn memory_bytes(&self) -> usize {
        let w = &self.world;
        let vec = |capacity: usize, size: usize| capacity * size;
        let map = |len: usize, size: usize| len * size * 3 / 2;
        let (overlaps, pending) = w.contact_events.carried_over();
        std::mem::size_of::<Self>()
            + vec(w.slots.capacity(), std::mem::size_of::<Slot>())
            + vec(w.slot_of_id.capacity(), 4)
            + vec(w.free_ids.capacity(), 4)
            + map(w.forces.len(), std::mem::size_of::<(u32, Forces)>())
            + map(w.sleeping_islands.len(), 8)
            + vec(self.cache.capacity(), std::mem::size_of::<CacheEntry>())
            + map(overlaps.len(), std::mem::size_of::<(PairKey, u64)>())
            + vec(pending.len(), std::mem::size_of::<CollisionEvent>())
    }
}

impl World {
    /// A snapshot of the world now (see the module docs).
    pub(crate) fn snapshot(&self) -> Snapshot {
        if self.sorts_before_next_step() {
            let mut sorted = self.clone();
            sorted.reorder_slots();
            return sorted.snapshot_as_is();
        }
        self.snapshot_as_is()
    }

    /// Whether the next step starts with a look at the order of the slots, which reads the
    /// contacts of the last step (`World::reorder_slots`).
    pub(super) fn sorts_before_next_step(&self) -> bool {
        self.body_count >= REORDER_MIN_BODIES && self.steps.is_multiple_of(REORDER_INTERVAL)
    }

    fn snapshot_as_is(&self) -> Snapshot {
        let world = World {
            config: self.config.clone(),
            bounds_min: self.bounds_min,
            bounds_max: self.bounds_max,
            walls: self.walls,
            wall_enabled: self.wall_enabled,
            gravity_enabled: self.gravity_enabled,
            slots: self.slots.clone(),
            slot_of_id: self.slot_of_id.clone(),
            free_ids: self.free_ids.clone(),
            body_count: self.body_count,
            forces: self.forces.clone(),
            scratch: Scratch::default(),
            broad_phase: BroadPhase::default(),
            warm_start_cache: ContactCache::default(),
            sleeping_islands: self.sleeping_islands.clone(),
            next_island_id: self.next_island_id,
            layered_bodies: self.layered_bodies,
            flagged_bodies: self.flagged_bodies,
            embedded_bodies: self.embedded_bodies,
            contact_events: self.contact_events.clone(),
            stats: self.stats.clone(),
            steps: self.steps,
            moved_at_step: self.moved_at_step,
            // Its scratch is empty: the first step after a restore is a whole one.
            settled: false,
            spatial_index: SpatialIndex::default(),
        };
        Snapshot { world, cache: self.cache_entries() }
    }

    /// The warm-start cache's entries in the order the cache keeps them. Read through the
    /// cache's own interface, on a copy: a rebuild that keeps everything visits every key
    /// in order, and a lookup of each key gives its impulses.
    pub(super) fn cache_entries(&self) -> Vec<CacheEntry> {
        let mut cache = self.warm_start_cache.clone();
        let slot_of_id = &self.slot_of_id;
        let group_of = |key| slot_of_id[solver::group_body(key)] as usize;
        let mut keys = Vec::new();
        let visit = |key, reported: &mut bool| {
            keys.push((key, *reported));
            true
        };
        cache.rebuild(self.slots.len(), group_of, visit, std::iter::empty());
        let mut removals = cache.removals();
        keys.into_iter()
            .filter_map(|(key, reported)| {
                removals.remove(group_of(key), &key).map(|impulse| (key, impulse, reported))
            })
            .collect()
    }

    /// Fills the warm-start cache with `entries` (distinct keys whose body ids have slots),
    /// grouped as the step groups them, in their order within each group.
    pub(super) fn restore_cache(&mut self, entries: &[CacheEntry]) {
        let mut cache = ContactCache::default();
        let slot_of_id = &self.slot_of_id;
        let group_of = |key| slot_of_id[solver::group_body(key)] as usize;
        cache.rebuild(self.slots.len(), group_of, |_, _| true, entries.iter().copied());
        self.warm_start_cache = cache;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D8's edits read the warm-start cache, which a snapshot keeps, not the step's contact
    /// list, which it drops: a support removed right after a restore restarts the same rests
    /// as in the live world, and both worlds step on bit for bit. (A first form read the
    /// contact list: after a restore the box on the removed support kept its rest and fell
    /// asleep in the air.)
    #[test]
    fn a_support_removed_after_a_restore_restarts_the_rests_the_live_world_does() {
        let mut live = World::new(Vec2::new(800.0, 600.0), PhysicsConfig::default()).unwrap();
        let square = |y| BodyDesc::rect(Vec2::new(40.0, 40.0), Vec2::new(200.0, y));
        let lower = live.add_body(square(580.0)).unwrap();
        let upper = live.add_body(square(540.0)).unwrap();
        let time_to_sleep = live.config().time_to_sleep;
        while live.body(upper).unwrap().rest_time() < time_to_sleep - 1.5 * (1.0 / 120.0) {
            live.step(1.0 / 120.0).unwrap();
        }
        let mut restored = live.snapshot().restore();
        for world in [&mut live, &mut restored] {
            world.remove_body(lower).unwrap();
            assert_eq!(world.body(upper).unwrap().rest_time(), 0.0, "the rest went on");
        }
        for _ in 0..90 {
            live.step(1.0 / 120.0).unwrap();
            restored.step(1.0 / 120.0).unwrap();
            assert_eq!(live.state_hash(), restored.state_hash());
        }
        let y = restored.body(upper).unwrap().position().y;
        assert!((y - 580.0).abs() < 1.0, "the upper box at {y}, not on the floor");
    }
}
