//! The neighbours a body may overlap after the settling of deviation D9 moved it
//! (`settle_before_sleep` in `settle.rs`): the settling knows only the step's contacts, so a
//! lifted body could meet a neighbour it did not touch at the step's start, and sleep would
//! freeze that overlap.
//!
//! Only what the step would push apart counts: a neighbour the step makes a contact with
//! (`makes_contact`), not a sensor nor one on layers that do not interact (R-GAME-2,
//! R-GAME-3), and the walls that act (`SettleWalls`): a sensor or a body on other layers
//! is no obstacle to push a settled body out of, nor an overlap to keep its island awake.
//!
//! # The grid
//! Every body's box goes into the square cells of [`SETTLE_CELL`] px it covers, and each
//! moved body is tested exactly (`collide`) against the bodies listed in its own cells, cell
//! by cell (rows, then columns), each cell's bodies in slot order. A neighbour that shares
//! k cells with a moved body is tested, and reported, k times: the settling's passes then
//! take that contact k times, and the simulation's results depend on that order and count.
//!
//! # Large bodies
//! A body's box may be up to 20,000 px wide (`MAX_BODY_SIZE`): 313² cells, and filling them
//! up to six times a step made the sleep phase of two such bodies take 37 ms a step. So
//! a box covering more than [`MAX_LISTED_CELLS`] cells is not listed but kept with its block
//! of cells on a short list, and the work per body is bounded whatever its size:
//! - a moved body of at most that many cells meets a large one in each cell of its own that
//!   the large one's block contains, merged into the cell's list by slot: the same tests in
//!   the same order and number as if the large body were listed;
//! - a moved large body is tested once against each body whose block of cells meets its
//!   own, in slot order (listed, it would be tested once per shared cell: up to 98,000
//!   times against another body of its size).
//!
//! No body moved (an island that stays awake, the usual case): nothing to test, no grid.

use super::filters::makes_contact;
use super::walls::SettleWalls;
use super::*;

/// The side of the cells, px: a few times a typical body (12 … 40 px), so that a body lies
/// in one to four cells.
pub(super) const SETTLE_CELL: f32 = 64.0;

/// The most cells a listed body's box covers: a square of about 1,000 px. Larger boxes (none
/// in the shipped scenes; the largest bodies of the tests, 654 px across, cover 144) go on
/// the short list of large bodies.
const MAX_LISTED_CELLS: u64 = 256;

/// A body that the settling of D9 moved, overlapping a neighbour.
pub(super) struct Overlap {
    /// The moved body's slot.
    pub(super) moved: usize,
    /// The neighbour's slot, or a wall's solver index (after the slots).
    pub(super) other: usize,
    /// From the moved body to the neighbour.
    pub(super) normal: Vec2,
    /// px.
    pub(super) depth: f32,
}

/// The block of square cells a box covers, inclusive on both ends. A cell's coordinate is
/// `floor(x / side)`, saturated to i64 far out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cells {
    x: (i64, i64),
    y: (i64, i64),
}

impl Cells {
    /// The cells of side `side` that the box `min ..= max` covers.
    pub(super) fn covering(side: f32, min: Vec2, max: Vec2) -> Self {
        let cell_of = |x: f32| (x / side).floor() as i64;
        Cells { x: (cell_of(min.x), cell_of(max.x)), y: (cell_of(min.y), cell_of(max.y)) }
    }

    /// The [`SETTLE_CELL`] cells of the box of half extents `half` around `centre`.
    fn of(centre: Vec2, half: Vec2) -> Self {
        Cells::covering(SETTLE_CELL, centre - half, centre + half)
    }

    /// How many cells, saturated (the i128 difference of two saturated ends fits a u64).
    pub(super) fn count(&self) -> u64 {
        let along =
            |(low, high): (i64, i64)| (i128::from(high) - i128::from(low) + 1).max(0) as u64;
        along(self.x).saturating_mul(along(self.y))
    }

    fn contains(&self, (x, y): (i64, i64)) -> bool {
        (self.x.0..=self.x.1).contains(&x) && (self.y.0..=self.y.1).contains(&y)
    }

    fn meets(&self, other: &Cells) -> bool {
        self.x.0 <= other.x.1
            && other.x.0 <= self.x.1
            && self.y.0 <= other.y.1
            && other.y.0 <= self.y.1
    }

    /// Calls `visit` with each cell, row by row.
    pub(super) fn for_each(&self, mut visit: impl FnMut((i64, i64))) {
        self.any(|key| {
            visit(key);
            false
        });
    }

    /// Calls `visit` with each cell, row by row, until it returns true; whether it did.
    pub(super) fn any(&self, mut visit: impl FnMut((i64, i64)) -> bool) -> bool {
        for y in self.y.0..=self.y.1 {
            for x in self.x.0..=self.x.1 {
                if visit((x, y)) {
                    return true;
                }
            }
        }
        false
    }
}

/// The bodies sorted into cells (see the module docs), at the poses `at` gives.
pub(super) struct Neighbours {
    /// Each listed body's slot in every cell its box covers, in slot order per cell.
    cells: HashMap<(i64, i64), Vec<u32>>,
    /// The bodies covering more than [`MAX_LISTED_CELLS`] cells, in slot order.
    large: Vec<(u32, Cells)>,
}

impl Neighbours {
    pub(super) fn new(slots: &[Slot], at: &impl Fn(usize, &Body) -> Vec2) -> Self {
        let mut cells: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
        let mut large = Vec::new();
        for (index, slot) in slots.iter().enumerate() {
            let Some(body) = &slot.body else { continue };
            let block = Cells::of(at(index, body), body.shape.half_size());
            if block.count() > MAX_LISTED_CELLS {
                large.push((index as u32, block));
            } else {
                block.for_each(|key| cells.entry(key).or_default().push(index as u32));
            }
        }
        Neighbours { cells, large }
    }

    /// How many slots the cells list in all: the work of building them, at most
    /// [`MAX_LISTED_CELLS`] per body.
    #[cfg(test)]
    pub(super) fn listed(&self) -> usize {
        self.cells.values().map(Vec::len).sum()
    }

    /// Calls `visit` with the slot of every body that shares a cell with the block `own` of
    /// a body (itself included), as the module docs say: per cell, in slot order.
    fn for_each_near(&self, own: Cells, mut visit: impl FnMut(usize)) {
        let near: Vec<(u32, Cells)> =
            self.large.iter().filter(|(_, block)| block.meets(&own)).copied().collect();
        if own.count() > MAX_LISTED_CELLS {
            // A large body: each neighbour once.
            let mut found: Vec<u32> = near.iter().map(|&(slot, _)| slot).collect();
            let listed = self.cells.iter().filter(|(key, _)| own.contains(**key));
            found.extend(listed.flat_map(|(_, slots)| slots.iter().copied()));
            found.sort_unstable();
            found.dedup();
            found.into_iter().for_each(|slot| visit(slot as usize));
            return;
        }
        own.for_each(|key| {
            let listed = self.cells.get(&key).map_or(&[][..], Vec::as_slice);
            let mut large = near.iter().filter(|(_, block)| block.contains(key)).map(|e| e.0);
            let (mut next_listed, mut next_large) = (0, large.next());
            // Both in slot order: merged, as if the large bodies were listed in this cell.
            loop {
                let slot = match (listed.get(next_listed), next_large) {
                    (Some(&a), Some(b)) if b < a => {
                        next_large = large.next();
                        b
                    }
                    (Some(&a), _) => {
                        next_listed += 1;
                        a
                    }
                    (None, Some(b)) => {
                        next_large = large.next();
                        b
                    }
                    (None, None) => break,
                };
                visit(slot as usize);
            }
        });
    }
}

/// The bodies that the settling of D9 moved (`at` gives a body's pose after it) and that
/// now overlap a neighbour or a wall by more than `limit` px: tested exactly (`collide`)
/// against the bodies near them (see the module docs) with which the step would make a
/// contact (`makes_contact`: no sensor, layers that interact), then against the walls they
/// had no contact with (`SettleWalls::for_each_new`; a wall is reported as the solver index
/// after the slots, `slots.len() + wall`). Built only when an island settles.
pub(super) fn overlaps_after_settling(
    slots: &[Slot],
    walls: &SettleWalls,
    at: impl Fn(usize, &Body) -> Vec2,
    limit: f32,
) -> Vec<Overlap> {
    let mut overlapping = Vec::new();
    let moved = |(index, slot): (usize, &Slot)| {
        slot.body.as_ref().is_some_and(|body| at(index, body) != body.position)
    };
    if !slots.iter().enumerate().any(moved) {
        return overlapping;
    }
    let neighbours = Neighbours::new(slots, &at);
    for (index, slot) in slots.iter().enumerate() {
        let Some(body) = &slot.body else { continue };
        let moved_to = at(index, body);
        if moved_to == body.position {
            continue;
        }
        let own = Cells::of(moved_to, body.shape.half_size());
        neighbours.for_each_near(own, |other| {
            let neighbour = slots[other].body.as_ref().filter(|_| other != index);
            let Some(neighbour) = neighbour.filter(|n| makes_contact(body, n)) else {
                return;
            };
            let found =
                collision::collide(&body.shape, moved_to, &neighbour.shape, at(other, neighbour));
            if let Some(m) = found.filter(|m| m.depth > limit) {
                overlapping.push(Overlap { moved: index, other, normal: m.normal, depth: m.depth });
            }
        });
        walls.for_each_new(index, body, moved_to, |wall, m| {
            if m.depth > limit {
                // The wall's normal points into the world, from the wall to the body.
                let (other, normal) = (slots.len() + wall, -m.normal);
                overlapping.push(Overlap { moved: index, other, normal, depth: m.depth });
            }
        });
    }
    overlapping
}
