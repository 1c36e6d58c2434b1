//! The warm-start cache: each contact's impulses kept from one step to the next (§6, R-SI-2).
//!
//! A contact is known by its pair key, the two handles' bits (generation and index), with a
//! wall standing in for body A as [`WALL_GENERATION`] and the wall's number. Each step looks
//! every contact up once, takes the entry out, and at its end puts every contact back, plus
//! the entries of sleeping pairs that were not in contact (they are needed when their island
//! wakes).
//!
//! A hash map would do this with one hashed removal and one hashed insertion per contact.
//! Here the entries are instead grouped by one body: body A's for a body–body pair (the
//! lower handle index, as the narrow phase orients pairs), the body's for a wall contact
//! ([`group_body`]), with the groups numbered as the caller stores its bodies (the world
//! numbers them by slot, so that a step's lookups, in contact order, read the cache in
//! memory order). A body touches only a handful of others, so a lookup scans a few entries
//! of one group. The groups are rebuilt at the end of every
//! step with a counting sort, O(entries + slots), without hashing; the buffers are kept, so
//! the steady state allocates nothing.
//!
//! A lookup depends only on the key, never on where an entry lies, and each key is held at
//! most once (every contact of a step was taken out before the step puts it back), so this
//! gives exactly a hash map's answers; a test holds it to one under random use.

use glam::Vec2;

/// Identifies a wall in a pair key (no body handle has this generation).
pub const WALL_GENERATION: u32 = u32::MAX;

/// A contact's key: the handle bits of A (or the wall's key) and of B.
pub type PairKey = (u64, u64);

/// Impulses kept from one step to the next for warm starting (R-SI-2).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CachedImpulse {
    /// The contact normal the impulses belong to; a normal that turned too far drops them.
    pub normal: Vec2,
    /// Accumulated normal impulse.
    pub normal_impulse: f32,
    /// Accumulated friction impulse.
    pub tangent_impulse: f32,
    /// Accumulated rolling-resistance impulse.
    pub rolling_impulse: f32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: PairKey,
    impulse: CachedImpulse,
    /// Taken out by [`Removals::remove`] this step.
    taken: bool,
    /// The pair was reported touching (collision events, R-GAME-1). The world keeps this
    /// bit here because the cache already follows every touching pair from step to step,
    /// sleeping ones included, and looks each contact up once per step; in the byte after
    /// `taken`, it costs no room.
    reported: bool,
}

/// The handle index of the body whose group holds `key`: A's, or B's when A is a wall.
/// Groups are numbered as the caller stores that body (`group_of` of
/// [`ContactCache::rebuild`]); numbered by this index itself, the cache works for any caller.
pub fn group_body(key: PairKey) -> usize {
    let bits = if (key.0 >> 32) as u32 == WALL_GENERATION { key.1 } else { key.0 };
    bits as u32 as usize
}

/// Cached impulses by pair key, in groups numbered by the caller (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ContactCache {
    /// Group g is `entries[group_start[g]..group_start[g + 1]]`.
    entries: Vec<Entry>,
    group_start: Vec<u32>,
    /// The next step's entries while they are dealt into their groups (then swapped with
    /// `entries`, keeping both buffers).
    spare: Vec<Entry>,
    /// Where each group after the first starts, to check the dealing against.
    next_start: Vec<u32>,
}

/// The cache as slices, for a run of removals: in a loop that also writes elsewhere (the
/// step's contacts), their pointers and lengths stay in registers, where through the cache
/// they would be reloaded for every removal.
pub struct Removals<'a> {
    group_start: &'a [u32],
    entries: &'a mut [Entry],
}

impl Removals<'_> {
    /// Takes the entry of `key`, held in `group`, out, if there is one.
    #[inline]
    pub fn remove(&mut self, group: usize, key: &PairKey) -> Option<CachedImpulse> {
        self.take(group, key).map(|e| e.impulse)
    }

    /// Takes the entry of `key`, held in `group`, out, if there is one: its impulses and
    /// whether the pair was reported touching.
    #[inline]
    pub fn remove_reported(
        &mut self,
        group: usize,
        key: &PairKey,
    ) -> Option<(CachedImpulse, bool)> {
        self.take(group, key).map(|e| (e.impulse, e.reported))
    }

    #[inline]
    fn take(&mut self, group: usize, key: &PairKey) -> Option<&Entry> {
        if group + 1 >= self.group_start.len() {
            return None;
        }
        let range = self.group_start[group] as usize..self.group_start[group + 1] as usize;
        let entry = self.entries[range].iter_mut().find(|e| e.key == *key && !e.taken)?;
        entry.taken = true;
        Some(entry)
    }
}

impl ContactCache {
    /// Takes the entry of `key`, held in `group`, out, if there is one. The group must be
    /// the one the last [`rebuild`](Self::rebuild) or [`regroup`](Self::regroup) gave the
    /// key; in another the key is simply not found.
    #[cfg(test)]
    pub fn remove(&mut self, group: usize, key: &PairKey) -> Option<CachedImpulse> {
        self.removals().remove(group, key)
    }

    /// The cache for a run of [`Removals::remove`]s.
    pub fn removals(&mut self) -> Removals<'_> {
        Removals { group_start: &self.group_start, entries: &mut self.entries }
    }

    /// Forgets every impulse but keeps the entries (their keys and `reported` bits): each
    /// normal becomes NaN, which fails every warm-start test, so the next step solves from
    /// zero impulses exactly as if the cache were empty.
    pub fn forget_impulses(&mut self) {
        for e in &mut self.entries {
            e.impulse = CachedImpulse { normal: Vec2::NAN, ..CachedImpulse::default() };
        }
    }

    /// The keys of the entries held (not taken out): the pairs that touched in the last step,
    /// and those of sleeping islands.
    pub fn keys(&self) -> impl Iterator<Item = PairKey> + '_ {
        self.entries.iter().filter(|e| !e.taken).map(|e| e.key)
    }

    /// The keys of the entries held (not taken out) whose pair was reported touching.
    pub fn reported_keys(&self) -> impl Iterator<Item = PairKey> + '_ {
        self.entries.iter().filter(|e| !e.taken && e.reported).map(|e| e.key)
    }

    /// Drops every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.group_start.clear();
    }

    /// The entries held (those not taken out).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.iter().filter(|e| !e.taken).count()
    }

    /// The entries in new groups, `group_of` each key, for example after the bodies whose
    /// groups they were moved.
    pub fn regroup(&mut self, groups: usize, group_of: impl Fn(PairKey) -> usize) {
        self.rebuild(groups, group_of, |_, _| true, std::iter::empty());
    }

    /// The cache of the next step: the entries not taken out for which `keep` holds (it may
    /// clear their `reported` bit), then `fresh` (key, impulses, reported), whose keys must
    /// not be among those kept (they were taken out this step).
    /// Each key goes into group `group_of(key)`, which must lie below `groups` (the world's
    /// slot count, which never shrinks); the lookups of the next step must name it.
    pub fn rebuild(
        &mut self,
        groups: usize,
        group_of: impl Fn(PairKey) -> usize,
        mut keep: impl FnMut(PairKey, &mut bool) -> bool,
        fresh: impl Iterator<Item = (PairKey, CachedImpulse, bool)> + Clone,
    ) {
        // Counting sort: group g's count goes to `group_start[g + 2]`, so that after the
        // prefix sum `group_start[g + 1]` is where g begins and can serve as its cursor;
        // once every entry is placed, each cursor has reached the start of the next group.
        self.group_start.clear();
        self.group_start.resize(groups + 2, 0);
        let mut total = 0;
        for e in &mut self.entries {
            // An entry that is not kept is dropped like one taken out.
            e.taken = e.taken || !keep(e.key, &mut e.reported);
            if !e.taken {
                self.group_start[group_of(e.key) + 2] += 1;
                total += 1;
            }
        }
        for (key, _, _) in fresh.clone() {
            self.group_start[group_of(key) + 2] += 1;
            total += 1;
        }
        for g in 2..self.group_start.len() {
            self.group_start[g] += self.group_start[g - 1];
        }
        // Each entry is written once, over an earlier step's entries: `spare` holds the
        // entries of the step before (swapped out below), and only the part beyond their
        // count is filled with defaults first, so a steady step stores each entry once.
        self.next_start.clear();
        self.next_start.extend_from_slice(&self.group_start[2..]);
        self.spare.resize(total, Entry::default());
        let room = &mut self.spare[..];
        let mut place = |e: Entry| {
            let cursor = &mut self.group_start[group_of(e.key) + 1];
            room[*cursor as usize] = e;
            *cursor += 1;
        };
        for &e in self.entries.iter().filter(|e| !e.taken) {
            place(e);
        }
        for (key, impulse, reported) in fresh {
            place(Entry { key, impulse, taken: false, reported });
        }
        // Group g's cursor started at its first entry and moved one entry per write; if
        // every cursor ended at the next group's start, each group got exactly its count
        // and all `total` entries were written once (none is left from the earlier step).
        assert_eq!(self.group_start[1..self.group_start.len() - 1], self.next_start[..], "groups");
        std::mem::swap(&mut self.entries, &mut self.spare);
        self.group_start.pop();
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// A small deterministic generator (xorshift) so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn random_key(rng: &mut Rng) -> PairKey {
        let handle = |rng: &mut Rng| (rng.below(3) << 32) | rng.below(60);
        if rng.below(5) == 0 {
            ((u64::from(WALL_GENERATION) << 32) | rng.below(4), handle(rng))
        } else {
            let (a, b) = (handle(rng), handle(rng));
            (a.min(b), a.max(b))
        }
    }

    #[test]
    fn cache_answers_as_a_hash_map_would_r_si_2() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut cache = ContactCache::default();
        let mut reference: HashMap<PairKey, CachedImpulse> = HashMap::new();
        let (mut found, mut steps) = (0, 0);
        let mut keys: Vec<PairKey> = Vec::new();
        for step in 0..400 {
            if step % 97 == 96 {
                cache.clear();
                reference.clear();
            }
            // This step's contacts: most of last step's, some new ones; distinct keys, as the
            // broad phase reports a pair once.
            keys.retain(|_| rng.below(5) != 0);
            keys.extend((0..rng.below(30)).map(|_| random_key(&mut rng)));
            keys.sort_unstable();
            keys.dedup();
            for key in &keys {
                let expected = reference.remove(key);
                assert_eq!(cache.remove(group_body(*key), key), expected, "step {step}");
                found += usize::from(expected.is_some());
            }
            // Keep the entries of pairs with an even generation sum ("both passive").
            let keep = |key: PairKey| ((key.0 >> 32) + (key.1 >> 32)).is_multiple_of(2);
            reference.retain(|&key, _| keep(key));
            let fresh: Vec<(PairKey, CachedImpulse, bool)> = keys
                .iter()
                .map(|&key| {
                    let value = rng.below(1000) as f32;
                    let impulse =
                        CachedImpulse { normal_impulse: value, ..CachedImpulse::default() };
                    (key, impulse, false)
                })
                .collect();
            reference.extend(fresh.iter().map(|&(key, impulse, _)| (key, impulse)));
            cache.rebuild(60, group_body, |key, _| keep(key), fresh.into_iter());
            assert_eq!(cache.len(), reference.len(), "step {step}");
            steps += 1;
        }
        // Not vacuous: many lookups found an entry.
        assert!(found > 10 * steps, "only {found} entries found in {steps} steps");
    }
}
