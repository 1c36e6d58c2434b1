//! Broad phase: sweep and prune over axis-aligned bounding boxes (§5, R-COL-2).
//!
//! Testing every pair exactly costs n·(n−1)/2 tests: over 11,000 per step for 150 bodies.
//! Instead the boxes are kept sorted by their left edge. For each box only its successors
//! that start left of its right edge can overlap it, so the sweep stops at the first one that
//! starts further right. The cost falls to about O(n log n + k) for k neighbouring pairs.
//!
//! The order is kept from step to step. Bodies move little per step, so the list is nearly
//! sorted and an insertion sort restores it in about O(n) ("incremental" sweep and prune).
//!
//! A tall pile defeats a sweep along x alone: every body overlaps, in x, the whole column of
//! bodies above and below it. So the sorted list is dealt, in order, into horizontal bands
//! about four mean box heights tall (a box spanning several bands goes into each), and each
//! band is swept on its own. A pair found in several bands is reported only by the band that
//! holds the top of the two boxes' vertical overlap, `max(min_y_A, min_y_B)`, which both boxes
//! reach: every pair is found exactly once. On the 2000-body mixed pile the bands make the
//! broad phase about four times as fast as one sweep along x.
//!
//! Pairs in which neither body is an awake dynamic body are skipped: two sleepers, a sleeper
//! and a static body, or two static bodies cannot start to move each other.
//!
//! Pairs whose collision layers do not interact are skipped here too (R-GAME-3), so they
//! cost no narrow-phase test, no contact and no island link: `A.memberships & B.filters`
//! and `B.memberships & A.filters` must both be non-zero. The layers are one more term of
//! the pair test, read from the band entries. While every body has the default layers (the
//! world passes none) the entries carry no layers at all ([`LayerFilter`] for `()`), so a
//! world that never sets layers sweeps exactly as before, in time and in result.
//!
//! A pile of bodies added at one point overlaps pairwise: n·(n−1)/2 pairs. So a body keeps
//! at most `MAX_PAIRS_PER_BODY` (64) pairs with other awake bodies (`pair_cap.rs`), the
//! first in sweep order (docs/physics.md D7, R-REST-4); below the cap nothing changes, not
//! even the order.
//!
//! The inner loop of the sweep runs about five times per body on a deep pile, and most of its
//! tests fail, so it is written to run without branches or float-to-integer conversions:
//!
//! - Which band reports a pair needs no float arithmetic. `band_of` never decreases as `y`
//!   grows, so the band of `max(min_y_A, min_y_B)` is the later of the two first bands, and
//!   in a band both boxes reach, that is this band exactly when one of the two boxes starts
//!   in it. Each band entry carries that as a flag, next to "awake", and the pair test is
//!   one OR and one compare of the two flag words.
//! - Each candidate of a box (a successor that starts left of its right edge) is written to
//!   the output, which advances only past the hits. A failed test costs no mispredicted
//!   branch; the only branches left are the end of the sweep and a full output buffer.
//!
//! Most of the time of a branchy sweep goes to mispredicted branches, so the branch-free
//! one is faster although it executes a few more instructions. The pairs and their order are
//! exactly those of the plain sweep, so the simulation is the same bit for bit; a test holds
//! the fast sweep to the plain one, order included, and both to [`brute_force_pairs`]
//! (R-COL-2).

use glam::Vec2;

use crate::physics::body::CollisionLayers;

use super::pair_cap::{MAX_PAIRS_PER_BODY, cap_pairs_per_body};

/// What a proxy may do in a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyState {
    /// An awake dynamic body: it pairs with everything.
    Awake,
    /// A sleeping dynamic body or a static body: it pairs only with awake bodies.
    Passive,
}

/// One bounding box in the sweep.
#[derive(Clone, Copy, Debug)]
pub struct Proxy {
    /// Slot index of the body.
    pub index: u32,
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
    /// Whether it can start a pair.
    pub state: ProxyState,
}

impl Proxy {
    #[cfg(test)]
    fn overlaps_y(&self, other: &Proxy) -> bool {
        self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    #[cfg(test)]
    fn wants(&self, other: &Proxy) -> bool {
        self.state == ProxyState::Awake || other.state == ProxyState::Awake
    }
}

/// Band height in mean box heights: tall enough that most boxes lie in one band, short
/// enough that a band holds only a few boxes per column.
const BAND_FACTOR: f32 = 4.0;

/// At most this many bands, whatever the spread of the boxes.
const MAX_BANDS: usize = 1024;

/// [`BandEntry::flags`]: the proxy is [`ProxyState::Awake`].
const AWAKE: u32 = 1;
/// [`BandEntry::flags`]: the box's top edge lies in this band (it is the first band it is in).
const STARTS_HERE: u32 = 2;
/// A pair is reported when one of its boxes is awake and one starts in the band: both bits are
/// set in the OR of the two flag words.
const REPORTED: u32 = AWAKE | STARTS_HERE;

/// One box in one band: what the sweep reads of it, 24 bytes, and its layers `L` (none,
/// or 8 bytes of [`CollisionLayers`]).
#[derive(Clone, Copy, Debug, Default)]
struct BandEntry<L = ()> {
    min_x: f32,
    max_x: f32,
    min_y: f32,
    max_y: f32,
    /// Slot index of the body.
    index: u32,
    /// [`AWAKE`] and [`STARTS_HERE`].
    flags: u32,
    /// The body's collision layers, when the world has bodies off the default layers.
    layers: L,
}

/// The layer term of the pair test (R-GAME-3): `()` when every body is on the default
/// layers (always true, and no bytes), [`CollisionLayers`] otherwise.
trait LayerFilter: Copy + Default {
    /// Whether boxes with layers `self` and `other` may pair.
    fn interacts_with(self, other: Self) -> bool;
}

impl LayerFilter for () {
    #[inline(always)]
    fn interacts_with(self, _: ()) -> bool {
        true
    }
}

impl LayerFilter for CollisionLayers {
    /// `A.memberships & B.filters ≠ 0` and `B.memberships & A.filters ≠ 0`, as two
    /// compares without branches.
    #[inline(always)]
    fn interacts_with(self, other: Self) -> bool {
        (self.memberships & other.filters != 0) & (other.memberships & self.filters != 0)
    }
}

/// How heights map to bands: band k starts at `origin + k / scale`, and the last one takes
/// everything beyond. Three floats, copied out of the broad phase for the loop that deals the
/// boxes, so that they stay in registers (read through `&self` they would be loaded per box).
#[derive(Clone, Copy, Debug, Default)]
struct BandGrid {
    origin: f32,
    /// 1 / band height.
    scale: f32,
    /// `band_count − 1` as an `f32` (exact: at most [`MAX_BANDS`]).
    last: f32,
}

impl BandGrid {
    /// The band holding height `y`. It never decreases as `y` grows (each step rounds
    /// monotonically), which the sweep's [`STARTS_HERE`] test relies on.
    ///
    /// Clamped above to `last` while still a float, then truncated by `as u16`, which also
    /// clamps below: a negative height (never, as the origin is the lowest edge) gives 0. The
    /// same band as truncating first and clamping then. `u16` because its saturating
    /// conversion is a plain clamp of the float (`maxss`, `minss`) before one truncating
    /// instruction; `as i32` adds compares and conditional moves for NaN and overflow.
    /// A NaN height (never: the boxes are finite) gives the last band.
    #[inline]
    fn band_of(self, y: f32) -> usize {
        let band = (y - self.origin) * self.scale;
        let band = if band < self.last { band } else { self.last };
        // `last < MAX_BANDS` ≤ u16::MAX: the upper clamp of `as u16` never acts.
        usize::from(band as u16)
    }
}

/// Sweep and prune with a persistent sort order.
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    /// Proxies in the order of their left edge, rebuilt from the previous order each step.
    sorted: Vec<Proxy>,
    /// The bands' entries, each band in left-edge order; band k is
    /// `band_items[band_start[k]..band_start[k + 1]]`.
    band_items: Vec<BandEntry>,
    /// The same with each body's layers, used instead while some body has other layers.
    layered_band_items: Vec<BandEntry<CollisionLayers>>,
    band_start: Vec<usize>,
    band_cursor: Vec<usize>,
    /// Per band, how many more boxes it holds than the band before (wrapping), while
    /// counting: +1 at each box's first band, −1 after its last.
    band_delta: Vec<usize>,
    /// First and last band of each proxy of `sorted`.
    band_spans: Vec<(u32, u32)>,
    /// Which band a height falls in.
    grid: BandGrid,
    band_count: usize,
    /// Slots in last step's order.
    order: Vec<u32>,
    /// Awake–awake pairs kept so far per slot, while [`cap_pairs_per_body`] runs.
    kept_per_slot: Vec<u16>,
    /// For each slot, where its proxy is in this step's input (u32::MAX: absent).
    input_position: Vec<u32>,
}

impl BroadPhase {
    /// Finds every overlapping pair among `proxies` (any order) and appends it to `pairs` as
    /// `(lower slot, higher slot)`, in sweep order. With `layers` (by slot), pairs whose
    /// layers do not interact are left out (R-GAME-3); `None` means every body is on the
    /// default layers.
    pub fn find_pairs(
        &mut self,
        proxies: &[Proxy],
        layers: Option<&[CollisionLayers]>,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        self.sort(proxies);
        if self.sorted.is_empty() {
            pairs.clear();
            return;
        }
        self.plan_bands();
        let bands = Bands {
            sorted: &self.sorted,
            spans: &self.band_spans,
            start: &self.band_start[..self.band_count + 1],
        };
        match layers {
            None => {
                bands.deal(&mut self.band_cursor, &mut self.band_items, |_| ());
                bands.sweep(&self.band_items, pairs);
            }
            Some(layers) => {
                let items = &mut self.layered_band_items;
                bands.deal(&mut self.band_cursor, items, |slot| layers[slot as usize]);
                bands.sweep(items, pairs);
            }
        }
        // No body can have more than `MAX_PAIRS_PER_BODY` pairs unless there are that many.
        if pairs.len() > MAX_PAIRS_PER_BODY {
            // Every slot is below this: the proxies are slots 0..n (the short way of `sort`),
            // or `input_position` was grown past the highest slot.
            let slots = proxies.len().max(self.input_position.len());
            let awake = proxies.iter().filter(|p| p.state == ProxyState::Awake).map(|p| p.index);
            cap_pairs_per_body(awake, slots, pairs, &mut self.kept_per_slot);
        }
    }

    /// How the sorted proxies fall into bands: the grid, each proxy's first and last band,
    /// and where each band starts (a counting sort, so each band stays in order).
    fn plan_bands(&mut self) {
        let (mut low, mut high, mut heights) = (f32::INFINITY, f32::NEG_INFINITY, 0.0);
        // Compares instead of f32::min/max, which also handle NaN: the boxes are finite.
        for p in &self.sorted {
            low = if p.min.y < low { p.min.y } else { low };
            high = if p.max.y > high { p.max.y } else { high };
            heights += p.max.y - p.min.y;
        }
        let mean = heights / self.sorted.len() as f32;
        let spread = (high - low).max(0.0);
        let mut height = (BAND_FACTOR * mean).max(1.0);
        if spread / height >= MAX_BANDS as f32 {
            height = spread / (MAX_BANDS as f32 - 1.0);
        }
        self.band_count = ((spread / height) as usize + 1).min(MAX_BANDS);
        let grid =
            BandGrid { origin: low, scale: 1.0 / height, last: (self.band_count - 1) as f32 };
        self.grid = grid;

        // The boxes per band, from a difference array: +1 at a box's first band, −1 after
        // its last. Two updates per box; a loop over its bands cost a loop set-up per box,
        // although most boxes lie in one band. The updates wrap, and the running sums are
        // the true counts: each is a number of boxes (never negative), counted exactly.
        let band_count = self.band_count;
        self.band_delta.clear();
        self.band_delta.resize(band_count + 1, 0);
        // This and the cursors below are local slices, so that their pointers and lengths
        // stay in registers (through `self`, they would be reloaded after every write).
        let delta = &mut self.band_delta[..];
        // Spans and band entries are written once each: `resize` only fills entries the
        // arrays did not have last step, and the loops overwrite every entry.
        self.band_spans.resize(self.sorted.len(), (0, 0));
        for (p, span) in self.sorted.iter().zip(&mut self.band_spans) {
            let (first, last) = (grid.band_of(p.min.y), grid.band_of(p.max.y));
            *span = (first as u32, last as u32);
            delta[first] = delta[first].wrapping_add(1);
            delta[last + 1] = delta[last + 1].wrapping_sub(1);
        }
        // Band k is `band_start[k]..band_start[k + 1]`.
        self.band_start.clear();
        self.band_start.push(0);
        let (mut boxes, mut start) = (0_usize, 0);
        for &change in &delta[..band_count] {
            boxes = boxes.wrapping_add(change);
            start += boxes;
            self.band_start.push(start);
        }
    }

    /// Brings `sorted` up to date in O(n) plus the insertion sort: last step's order for the
    /// slots still present, new slots at the end, then an insertion sort by left edge.
    fn sort(&mut self, proxies: &[Proxy]) {
        let known = if self.holds_the_same_slots(proxies) {
            // Slot s's proxy is `proxies[s]`, and no proxy is fresh.
            self.sorted.clear();
            self.sorted.extend(self.order.iter().map(|&slot| proxies[slot as usize]));
            proxies.len()
        } else {
            self.take_in_last_order(proxies)
        };
        let fresh = self.sorted.len() - known;
        if fresh * 8 > known.max(8) {
            // Many new proxies: a full sort is cheaper than inserting them one by one.
            self.sorted
                .sort_unstable_by(|a, b| a.min.x.total_cmp(&b.min.x).then(a.index.cmp(&b.index)));
        } else {
            insertion_sort(&mut self.sorted);
        }
        self.order.clear();
        self.order.extend(self.sorted.iter().map(|p| p.index));
    }

    /// The slots were moved: slot `s` is now `new_slot_of[s]`. Keeps last step's order, so
    /// that the next sort still starts from a nearly sorted list.
    pub fn renumber(&mut self, new_slot_of: &[u32]) {
        for slot in &mut self.order {
            *slot = new_slot_of[*slot as usize];
        }
    }

    /// Whether the common case holds: every slot holds a body, so that the proxies are those
    /// of slots 0..n in slot order (as the world passes them), and last step's order holds
    /// the same n slots. The order never holds a slot twice (it lists the sorted proxies,
    /// each written once), so n slots below n are each of them once. Then slot s's proxy is
    /// `proxies[s]`, and the sort needs no map from slots to input positions: about 25
    /// instructions less per proxy.
    fn holds_the_same_slots(&self, proxies: &[Proxy]) -> bool {
        let n = proxies.len();
        self.order.len() == n
            && proxies.iter().enumerate().all(|(position, p)| p.index as usize == position)
            && self.order.iter().all(|&slot| (slot as usize) < n)
    }

    /// Writes into `sorted` the proxies of the slots of last step's order, in that order,
    /// then the fresh ones in input order; returns how many were in last step's order.
    fn take_in_last_order(&mut self, proxies: &[Proxy]) -> usize {
        // `input_position` is all u32::MAX between calls: each entry set here is taken (set
        // back to u32::MAX) below, by the order or by the fresh proxies. So it is neither
        // refilled nor sized from the highest slot first (those two passes over the proxies
        // would cost about 19 instructions per proxy); it only grows, when a higher slot
        // shows up. As a local, its pointer and length stay in registers across the writes
        // to `sorted`.
        let input_position = &mut self.input_position;
        for (position, proxy) in proxies.iter().enumerate() {
            let slot = proxy.index as usize;
            if slot >= input_position.len() {
                input_position.resize(slot + 1, u32::MAX);
            }
            input_position[slot] = position as u32;
        }
        let input_position = &mut input_position[..];
        // The proxies of last step's order, then the fresh ones; each is taken (its input
        // position set back to u32::MAX) as it is written, so it is written once.
        let mut take = |slot: u32| {
            // A slot of last step's order may lie beyond the entries (all u32::MAX there).
            let position = input_position.get_mut(slot as usize)?;
            let taken = std::mem::replace(position, u32::MAX);
            (taken != u32::MAX).then(|| proxies[taken as usize])
        };
        self.sorted.clear();
        self.sorted.reserve(proxies.len());
        self.sorted.extend(self.order.iter().filter_map(|&slot| take(slot)));
        let known = self.sorted.len();
        self.sorted.extend(proxies.iter().filter_map(|p| take(p.index)));
        known
    }
}

/// The bands of one step, planned by `BroadPhase::plan_bands`: what dealing the boxes into
/// them and sweeping them read.
struct Bands<'a> {
    /// The proxies in left-edge order.
    sorted: &'a [Proxy],
    /// First and last band of each proxy of `sorted`.
    spans: &'a [(u32, u32)],
    /// Band k is `items[start[k]..start[k + 1]]`.
    start: &'a [usize],
}

impl Bands<'_> {
    /// Deals the sorted proxies into `items`, band after band, each band in left-edge order;
    /// `layers_of(slot)` gives each entry its layers.
    fn deal<L: LayerFilter>(
        &self,
        cursors: &mut Vec<usize>,
        items: &mut Vec<BandEntry<L>>,
        layers_of: impl Fn(u32) -> L,
    ) {
        let band_count = self.start.len() - 1;
        cursors.clear();
        cursors.extend_from_slice(&self.start[..band_count]);
        // Each entry is written once: `resize` only fills entries the array did not have
        // last step, and the loop overwrites every entry. As locals, the slices' pointers
        // and lengths stay in registers (through `self`, they would be reloaded per write).
        items.resize(self.start[band_count], BandEntry::default());
        let items = &mut items[..];
        let cursors_slice = &mut cursors[..];
        for (p, &(first, last)) in self.sorted.iter().zip(self.spans) {
            let awake = if p.state == ProxyState::Awake { AWAKE } else { 0 };
            let mut entry = BandEntry {
                min_x: p.min.x,
                max_x: p.max.x,
                min_y: p.min.y,
                max_y: p.max.y,
                index: p.index,
                flags: awake | STARTS_HERE,
                layers: layers_of(p.index),
            };
            for cursor in &mut cursors_slice[first as usize..last as usize + 1] {
                items[*cursor] = entry;
                *cursor += 1;
                entry.flags = awake;
            }
        }
        // Each band's cursor started at its first entry and moved one entry per write; if
        // it ended at the next band's start, every entry of the band was written this step.
        assert_eq!(cursors[..], self.start[1..], "band counts");
    }

    /// Sweeps each band of `items` and writes the pairs found to `pairs`, in sweep order.
    fn sweep<L: LayerFilter>(&self, items: &[BandEntry<L>], pairs: &mut Vec<(u32, u32)>) {
        // `pairs` is the write buffer: each candidate is written at `found`, which advances
        // only past hits. Worked on as a local, so that its length and pointer stay in
        // registers: behind the `&mut`, every write to the buffer could change them. A box
        // has at most as many candidates as successors in its band, so before each box the
        // buffer is made at least `found + successors` long. It keeps last step's length (cut
        // to last step's pairs) and grows an eighth at a time, so few steps fill any of it
        // with zeros, and the growth rarely reallocates.
        let mut out = std::mem::take(pairs);
        let mut found = 0;
        for band in self.start.windows(2) {
            let mut items = &items[band[0]..band[1]];
            // Each box split off the front with its successors, the rest of the band: no
            // index to check against the band's length per box, as `items[i + 1..]` would.
            while let Some((&a, successors)) = items.split_first() {
                items = successors;
                let needed = found + successors.len();
                if out.len() < needed {
                    out.resize(needed + needed / 8 + 64, (0, 0));
                }
                // Sorted by left edge: nothing right of the first box starting beyond
                // `a`'s right edge can reach back to `a`.
                for b in successors {
                    if b.min_x > a.max_x {
                        break;
                    }
                    let hit = (a.min_y <= b.max_y)
                        & (b.min_y <= a.max_y)
                        & ((a.flags | b.flags) & REPORTED == REPORTED)
                        & a.layers.interacts_with(b.layers);
                    // `found` < `needed` ≤ the length: it grows by at most one per successor.
                    out[found] = (a.index.min(b.index), a.index.max(b.index));
                    found += usize::from(hit);
                }
            }
        }
        // A pair is counted only after its write: the first `found` entries are the pairs.
        out.truncate(found);
        *pairs = out;
    }
}

/// Insertion sort by left edge (ties by slot): about O(n) on a nearly sorted list.
fn insertion_sort(items: &mut [Proxy]) {
    for i in 1..items.len() {
        // Most items are in place already: leave them without a copy out and back.
        if !less(&items[i], &items[i - 1]) {
            continue;
        }
        let item = items[i];
        let mut j = i;
        while j > 0 && less(&item, &items[j - 1]) {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

fn less(a: &Proxy, b: &Proxy) -> bool {
    a.min.x < b.min.x || (a.min.x == b.min.x && a.index < b.index)
}

impl BroadPhase {
    /// The readable form of the banded sweep over the bands of the last
    /// [`find_pairs`](Self::find_pairs): one test per candidate, the reporting band computed
    /// from the float heights. The fast sweep must give exactly these pairs in this order.
    #[cfg(test)]
    fn sweep_plainly(&self) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for band in 0..self.band_count {
            let items = &self.band_items[self.band_start[band]..self.band_start[band + 1]];
            for (i, a) in items.iter().enumerate() {
                for b in &items[i + 1..] {
                    if b.min_x > a.max_x {
                        break;
                    }
                    let overlap_y = a.min_y <= b.max_y && b.min_y <= a.max_y;
                    let wanted = (a.flags | b.flags) & AWAKE != 0;
                    if overlap_y && wanted && self.grid.band_of(a.min_y.max(b.min_y)) == band {
                        pairs.push((a.index.min(b.index), a.index.max(b.index)));
                    }
                }
            }
        }
        pairs
    }
}

impl BroadPhase {
    /// The pairs of the last [`find_pairs`](Self::find_pairs) without the cap (no layers).
    #[cfg(test)]
    fn sweep_bands_uncapped(&self, pairs: &mut Vec<(u32, u32)>) {
        let bands = Bands {
            sorted: &self.sorted,
            spans: &self.band_spans,
            start: &self.band_start[..self.band_count + 1],
        };
        bands.sweep(&self.band_items, pairs);
    }
}

/// The reference: every pair tested, O(n²). The sweep must find exactly these pairs.
#[cfg(test)]
pub fn brute_force_pairs(proxies: &[Proxy]) -> Vec<(u32, u32)> {
    brute_force_layered_pairs(proxies, |_| CollisionLayers::ALL)
}

/// The reference with layers: every pair tested, O(n²), `layers(slot)` each body's layers.
#[cfg(test)]
pub fn brute_force_layered_pairs(
    proxies: &[Proxy],
    layers: impl Fn(u32) -> CollisionLayers,
) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for (i, a) in proxies.iter().enumerate() {
        for b in &proxies[i + 1..] {
            let overlap_x = a.min.x <= b.max.x && b.min.x <= a.max.x;
            let layered = CollisionLayers::interacts_with(layers(a.index), layers(b.index));
            if overlap_x && a.overlaps_y(b) && a.wants(b) && layered {
                pairs.push((a.index.min(b.index), a.index.max(b.index)));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift) so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    fn random_proxies(rng: &mut Rng, count: usize) -> Vec<Proxy> {
        (0..count)
            .map(|i| {
                let centre = Vec2::new(rng.next() * 800.0, rng.next() * 600.0);
                let half = Vec2::new(12.0 + rng.next() * 40.0, 12.0 + rng.next() * 40.0);
                let state = if rng.next() < 0.7 { ProxyState::Awake } else { ProxyState::Passive };
                Proxy { index: i as u32 * 3 % 1000, min: centre - half, max: centre + half, state }
            })
            .collect()
    }

    /// Moves every proxy by up to ±15 px on each axis: a step of small moves, for the
    /// incremental insertion sort.
    fn jiggle(rng: &mut Rng, proxies: &mut [Proxy]) {
        for p in proxies {
            let shift = Vec2::new(rng.next() - 0.5, rng.next() - 0.5) * 30.0;
            p.min += shift;
            p.max += shift;
        }
    }

    /// Asserts that `found` holds exactly the brute-force pairs of `proxies`, in any order;
    /// returns how many there are.
    fn assert_same_pairs(found: &[(u32, u32)], proxies: &[Proxy], what: &str) -> usize {
        let mut found = found.to_vec();
        let mut expected = brute_force_pairs(proxies);
        found.sort_unstable();
        expected.sort_unstable();
        assert_eq!(found, expected, "{what}");
        expected.len()
    }

    #[test]
    fn sweep_finds_exactly_the_brute_force_pairs_r_col_2() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut broad = BroadPhase::default();
        let mut pairs = Vec::new();
        for scene in 0..40 {
            let mut proxies = random_proxies(&mut rng, 20 + scene * 7);
            // Several steps of small moves exercise the incremental insertion sort.
            for _ in 0..5 {
                jiggle(&mut rng, &mut proxies);
                broad.find_pairs(&proxies, None, &mut pairs);
                let expected = assert_same_pairs(&pairs, &proxies, &format!("scene {scene}"));
                assert!(expected > 0 || proxies.len() < 30);
            }
        }
    }

    #[test]
    fn slots_in_order_take_the_short_way_and_find_the_same_pairs_r_col_2() {
        // Proxies of slots 0..n in slot order, as the world passes them when every slot holds
        // a body: the sort reads them by slot. Then a slot is emptied and filled again,
        // which takes the map from slots to input positions and back.
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let mut broad = BroadPhase::default();
        let mut pairs = Vec::new();
        let mut proxies = random_proxies(&mut rng, 300);
        for (slot, p) in proxies.iter_mut().enumerate() {
            p.index = slot as u32;
        }
        for step in 0..12 {
            jiggle(&mut rng, &mut proxies);
            let input: Vec<Proxy> = match step {
                5 => proxies.iter().filter(|p| p.index != 17).copied().collect(),
                _ => proxies.clone(),
            };
            let same_slots = broad.holds_the_same_slots(&input);
            assert_eq!(same_slots, !matches!(step, 0 | 5 | 6), "step {step}");
            broad.find_pairs(&input, None, &mut pairs);
            assert_same_pairs(&pairs, &input, &format!("step {step}"));
            assert_eq!(broad.sorted.len(), input.len(), "step {step}");
            assert!(broad.sorted.windows(2).all(|w| !less(&w[1], &w[0])), "step {step}");
        }
    }

    /// A world in which nothing is awake skips the sweep (`World::find_pairs`). That changes
    /// no later step only because the pairs, and their order, are a function of the step's
    /// proxies alone, whatever the sweeps before them saw: here a sweep that saw the earlier
    /// steps finds exactly what a fresh one finds, with proxies that come and go and many
    /// equal left edges.
    #[test]
    fn pairs_and_their_order_do_not_depend_on_earlier_sweeps_r_col_2() {
        let mut rng = Rng(0x6a09_e667_f3bc_c908);
        let mut broad = BroadPhase::default();
        let (mut pairs, mut fresh) = (Vec::new(), Vec::new());
        let mut proxies = random_proxies(&mut rng, 400);
        for step in 0..9 {
            jiggle(&mut rng, &mut proxies);
            for p in proxies.iter_mut().step_by(4) {
                let width = p.max.x - p.min.x;
                p.min.x = (p.min.x / 20.0).round() * 20.0;
                p.max.x = p.min.x + width;
            }
            let input: Vec<Proxy> = match step % 3 {
                1 => proxies.iter().filter(|p| p.index % 9 != 0).copied().collect(),
                _ => proxies.clone(),
            };
            broad.find_pairs(&input, None, &mut pairs);
            BroadPhase::default().find_pairs(&input, None, &mut fresh);
            assert!(!pairs.is_empty(), "step {step}");
            assert_eq!(pairs, fresh, "step {step}");
        }
    }

    #[test]
    fn fast_sweep_gives_the_plain_sweeps_pairs_in_its_order_r_col_2() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut broad = BroadPhase::default();
        let mut pairs = Vec::new();
        for scene in 0..30 {
            // Boxes from 2 to 200 px tall: many span several bands, a few span many.
            let mut proxies = random_proxies(&mut rng, 50 + scene * 20);
            for p in proxies.iter_mut().step_by(7) {
                p.max.y += rng.next() * 150.0;
            }
            for p in proxies.iter_mut().step_by(5) {
                p.max.y = p.min.y + 2.0;
            }
            broad.find_pairs(&proxies, None, &mut pairs);
            assert!(broad.band_count > 2, "scene {scene}: bands are exercised");
            assert_eq!(pairs, broad.sweep_plainly(), "scene {scene}");
        }
    }

    #[test]
    fn pairs_whose_layers_do_not_interact_are_never_found_r_game_3() {
        let mut rng = Rng(0x1405_7b7e_f767_814f);
        let mut broad = BroadPhase::default();
        let mut pairs = Vec::new();
        let (mut found, mut filtered) = (0, 0);
        for scene in 0..20 {
            let mut proxies = random_proxies(&mut rng, 60 + scene * 15);
            // Slot indices run to 999: layers by slot, from four layers, some bodies on two.
            let layers: Vec<CollisionLayers> = (0..1000)
                .map(|_| {
                    let on = 1 << (rng.next() * 4.0) as u32 | 1 << (rng.next() * 4.0) as u32;
                    let meets = (rng.next() * 16.0) as u32;
                    CollisionLayers::new(on, meets)
                })
                .collect();
            for _ in 0..3 {
                jiggle(&mut rng, &mut proxies);
                broad.find_pairs(&proxies, Some(&layers), &mut pairs);
                let mut expected = brute_force_layered_pairs(&proxies, |i| layers[i as usize]);
                let (mut actual, all) = (pairs.clone(), brute_force_pairs(&proxies));
                actual.sort_unstable();
                expected.sort_unstable();
                assert_eq!(actual, expected, "scene {scene}");
                (found, filtered) = (found + expected.len(), filtered + all.len() - expected.len());
            }
            // The same boxes without layers: every overlapping pair again.
            broad.find_pairs(&proxies, None, &mut pairs);
            assert_same_pairs(&pairs, &proxies, &format!("scene {scene} unlayered"));
        }
        // Not vacuous: the layers both kept and removed many pairs.
        assert!(found > 500 && filtered > 500, "{found} found, {filtered} filtered");
    }

    #[test]
    fn a_pile_at_one_point_keeps_at_most_the_cap_of_awake_pairs_per_body_r_rest_4() {
        // 300 awake boxes at one point, and 100 passive ones there too: 44,850 awake pairs
        // and 30,000 awake–passive pairs uncapped.
        let proxy = |i: u32, state| Proxy {
            index: i,
            min: Vec2::splat(100.0),
            max: Vec2::splat(130.0),
            state,
        };
        let mut proxies: Vec<Proxy> = (0..300).map(|i| proxy(i, ProxyState::Awake)).collect();
        proxies.extend((300..400).map(|i| proxy(i, ProxyState::Passive)));
        let mut broad = BroadPhase::default();
        let mut pairs = Vec::new();
        broad.find_pairs(&proxies, None, &mut pairs);
        let mut awake_pairs = vec![0_usize; 400];
        let mut passive_pairs = 0;
        for &(a, b) in &pairs {
            if b < 300 {
                awake_pairs[a as usize] += 1;
                awake_pairs[b as usize] += 1;
            } else {
                passive_pairs += 1;
            }
        }
        // No awake body exceeds the cap. The first 260 in sweep order reach it; the last 40
        // find their earlier partners full and keep only the 39 pairs among themselves.
        assert!(awake_pairs[..260].iter().all(|&k| k == MAX_PAIRS_PER_BODY), "{awake_pairs:?}");
        assert!(awake_pairs[260..300].iter().all(|&k| k == 39), "{awake_pairs:?}");
        // Pairs with a passive body are all kept: 300 · 100.
        assert_eq!(passive_pairs, 30_000);
        // The scratch counts are left at zero for the next step.
        assert!(broad.kept_per_slot.iter().all(|&k| k == 0));
        // The kept pairs are those of the uncapped sweep, in its order.
        let mut uncapped = Vec::new();
        broad.sweep_bands_uncapped(&mut uncapped);
        let mut rest = uncapped.iter();
        assert!(pairs.iter().all(|p| rest.any(|q| q == p)), "a subsequence of the sweep");
    }

    #[test]
    fn pairs_of_two_passive_bodies_are_skipped_r_col_2() {
        let a =
            Proxy { index: 0, min: Vec2::ZERO, max: Vec2::splat(10.0), state: ProxyState::Passive };
        let b = Proxy {
            index: 1,
            min: Vec2::splat(5.0),
            max: Vec2::splat(15.0),
            state: ProxyState::Passive,
        };
        let c = Proxy {
            index: 2,
            min: Vec2::splat(8.0),
            max: Vec2::splat(20.0),
            state: ProxyState::Awake,
        };
        let mut broad = BroadPhase::default();
        let mut pairs = Vec::new();
        broad.find_pairs(&[a, b, c], None, &mut pairs);
        pairs.sort_unstable();
        assert_eq!(pairs, vec![(0, 2), (1, 2)]);
    }
}
