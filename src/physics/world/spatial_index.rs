//! The spatial index of the queries (R-GAME-6): a uniform grid over the bodies' bounding
//! boxes, built when a query needs it and kept until a body moves.
//!
//! # Why a grid of its own
//! The broad phase's sorted bands describe the boxes at the start of the last step's
//! contact phases; the step moves the bodies after that, and edits between steps move them
//! again. A query must see the bodies where they are now, so the queries keep their own
//! index over the current boxes. It is built lazily: a world that is never queried never
//! builds it, and the first query after a change rebuilds it in one pass over the bodies
//! (O(n), a counting sort into cells). Further queries until the next change reuse it.
//!
//! # When it is valid
//! The index remembers the count of the last step in which a body could move (some body
//! was awake at the contact phases, a kinematic one moved, or the slots were sorted), so
//! every such step makes it stale, and a sleeping world keeps it from step to step: a query
//! there costs a lookup, not a rebuild. Between steps, a body moves, appears or disappears only
//! through a handful of `World` methods (`add_body`, removing, `set_position`,
//! `move_held_directly`), and each calls [`SpatialIndex::invalidate`]. **A new method that
//! moves a body between steps must call it too.** In debug builds every query checks the
//! index against the bodies and panics on a forgotten call.
//!
//! # The grid
//! Cells are square, twice the bodies' mean box size, over the union of the boxes; at most
//! `4n + 64` cells, coarser when the bodies are spread thinly. Each body is listed once, in
//! the cell of its centre (a counting sort, one increment per body), and a lookup of a box
//! widens it by `reach`, the largest half extent of a listed body: a body overlapping the
//! box has its centre within that widened box. A body larger than a cell (a long static
//! floor, say) is not listed but kept on a short list that every query tests, so that it
//! does not widen every lookup. A centre outside the grid falls into the nearest edge cell,
//! and so does a lookup there: the exact tests sort them out.
//!
//! `margin` (a thousandth of a cell, and a millionth of the coordinates' magnitude for
//! rounding) widens every lookup a little more: a hit point computed in floats a few ulps
//! outside a body's box still finds the body. The grid covers it too, and it counts
//! towards the `4n + 64` cells: far from the origin (3e12 px) the margin is millions of px
//! wide, and the cells grow to match, so that the grid stays that small for any finite
//! coordinates.
//!
//! The index sits behind a read-write lock, so that queries take `&World` and a `World`
//! shared between threads (a Bevy resource) stays `Sync`: concurrent queries read it
//! together, and only the one that finds it stale rebuilds it.

use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use super::*;

/// One body in the index: what the exact tests read, 20 bytes, so that a query reads a
/// body's slot (five times as large) only once the body passed them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Entry {
    /// Centre, px.
    pub(super) position: Vec2,
    /// Half extents of the box (the radius on both axes for a circle).
    pub(super) half: Vec2,
    /// The slot index (below 2³¹: a slot takes over 100 bytes), with [`CIRCLE`] set for a
    /// circle.
    tagged_slot: u32,
}

/// [`Entry::tagged_slot`]: the body is a circle (else a rectangle).
const CIRCLE: u32 = 1 << 31;

impl Entry {
    fn new(slot: usize, body: &Body) -> Self {
        let circle = if matches!(body.shape, Shape::Circle { .. }) { CIRCLE } else { 0 };
        Entry {
            position: body.position,
            half: body.shape.half_size(),
            tagged_slot: slot as u32 | circle,
        }
    }

    /// The slot of the body.
    pub(super) fn slot(&self) -> usize {
        (self.tagged_slot & !CIRCLE) as usize
    }

    /// The body's shape: a circle's radius is its half extent.
    pub(super) fn shape(&self) -> Shape {
        if self.tagged_slot & CIRCLE != 0 {
            Shape::Circle { radius: self.half.x }
        } else {
            Shape::Rect { half_extents: self.half }
        }
    }
}

/// A block of cells, inclusive on both ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct CellRange {
    pub(super) x: (u32, u32),
    pub(super) y: (u32, u32),
}

impl CellRange {
    /// No cell at all.
    pub(super) const EMPTY: CellRange = CellRange { x: (1, 0), y: (1, 0) };

    /// Whether cell (x, y) is in the block.
    pub(super) fn contains(&self, x: u32, y: u32) -> bool {
        (self.x.0..=self.x.1).contains(&x) && (self.y.0..=self.y.1).contains(&y)
    }
}

/// The grid and the bodies in it.
#[derive(Debug, Default)]
pub(super) struct Grid {
    /// Whether the grid describes the bodies (of the step `built_at_step`).
    valid: bool,
    built_at_step: u64,
    /// Every body, in slot order: the input of the counting sort, and what the debug check
    /// compares the slots with.
    entries: Vec<Entry>,
    /// Corner of cell (0, 0).
    origin: Vec2,
    cell: f32,
    inverse_cell: f32,
    columns: u32,
    rows: u32,
    /// How far every lookup is widened for rounding, px (see the module docs).
    pub(super) margin: f32,
    /// The largest half extents of a listed body: how far a lookup is widened so that it
    /// finds every body overlapping its box by the body's centre.
    reach: Vec2,
    /// The union of all boxes (empty: min > max when there are no bodies).
    pub(super) extent: (Vec2, Vec2),
    /// Cell `k = y·columns + x` holds `items[cell_start[k]..cell_start[k + 1]]`.
    cell_start: Vec<u32>,
    /// Per entry, the cell it is listed in (`u32::MAX`: on the large list).
    cell_of: Vec<u32>,
    items: Vec<Entry>,
    /// Bodies larger than a cell, tested by every query.
    pub(super) large: Vec<Entry>,
}

impl Grid {
    /// The length of a cell's side, px.
    pub(super) fn cell_size(&self) -> f32 {
        self.cell
    }

    /// How many cells the grid has: at most `4n + 64` for n bodies, wherever they are.
    #[cfg(test)]
    pub(super) fn cell_count(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// The column of `x`: monotonic in x, clamped into the grid (NaN gives 0).
    fn column(&self, x: f32) -> u32 {
        let cell = ((x - self.origin.x) * self.inverse_cell).max(0.0) as u32;
        cell.min(self.columns.saturating_sub(1))
    }

    fn row(&self, y: f32) -> u32 {
        let cell = ((y - self.origin.y) * self.inverse_cell).max(0.0) as u32;
        cell.min(self.rows.saturating_sub(1))
    }

    /// The cells the box `min ..= max` overlaps.
    pub(super) fn cells(&self, min: Vec2, max: Vec2) -> CellRange {
        CellRange {
            x: (self.column(min.x), self.column(max.x)),
            y: (self.row(min.y), self.row(max.y)),
        }
    }

    /// The cells whose listed bodies may overlap the box `min ..= max`: the box widened by
    /// the listed bodies' reach and the margin.
    pub(super) fn cells_near(&self, min: Vec2, max: Vec2) -> CellRange {
        let widen = self.reach + self.margin;
        self.cells(min - widen, max + widen)
    }

    /// The bodies listed in cell (x, y).
    pub(super) fn cell_items(&self, x: u32, y: u32) -> &[Entry] {
        let k = (y * self.columns + x) as usize;
        &self.items[self.cell_start[k] as usize..self.cell_start[k + 1] as usize]
    }

    /// Calls `visit` with every body that may overlap the box `min ..= max`, each once: the
    /// listed bodies of [`cells_near`](Self::cells_near), then the large ones.
    pub(super) fn for_each_near(&self, min: Vec2, max: Vec2, mut visit: impl FnMut(&Entry)) {
        if !self.is_empty() {
            let range = self.cells_near(min, max);
            for y in range.y.0..=range.y.1 {
                for x in range.x.0..=range.x.1 {
                    self.cell_items(x, y).iter().for_each(&mut visit);
                }
            }
        }
        self.large.iter().for_each(visit);
    }

    /// Whether the grid is empty (no body at all).
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Rebuilds the grid from the bodies: one pass to collect them, a counting sort into the
    /// cells.
    fn rebuild(&mut self, slots: &[Slot], step: u64) {
        self.entries.clear();
        let (mut low, mut high) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        let mut sizes = 0.0_f64;
        for (index, slot) in slots.iter().enumerate() {
            let Some(body) = &slot.body else { continue };
            let entry = Entry::new(index, body);
            low = low.min(entry.position - entry.half);
            high = high.max(entry.position + entry.half);
            sizes += f64::from(entry.half.x + entry.half.y);
            self.entries.push(entry);
        }
        self.extent = (low, high);
        self.large.clear();
        self.items.clear();
        self.built_at_step = step;
        let n = self.entries.len();
        if n == 0 {
            (self.columns, self.rows, self.cell, self.inverse_cell) = (0, 0, 1.0, 1.0);
            (self.margin, self.reach) = (0.0, Vec2::ZERO);
            self.cell_start.clear();
            self.valid = true;
            return;
        }
        // The mean box size (width and height averaged) is `sizes / n`; cells twice that.
        let mut cell = (2.0 * sizes / n as f64).max(1.0);
        // In f64: the span of two far f32 coordinates (up to 2·f32::MAX) stays finite.
        let span = high.as_dvec2() - low.as_dvec2();
        let magnitude = low.abs().max(high.abs()).max_element();
        // Below u32::MAX, so that a cell's index and the end of `cell_start` fit a u32.
        let max_cells = (4.0 * n as f64 + 64.0).min(f64::from(u32::MAX - 1));
        // The grid covers the span plus the margin on both sides, `2·(1e-3·cell + 1e-6·
        // magnitude)`: counted here too, or a far world (magnitude 3e12 px, a margin of
        // 3e6 px) got 75,000² cells of 80 px for one body.
        let rounding = 2e-6 * f64::from(magnitude);
        let along = |extent: f64, cell: f64| ((extent + rounding) / cell + 2e-3).floor() + 1.0;
        let count = |cell: f64| along(span.x, cell) * along(span.y, cell);
        if count(cell) > max_cells {
            cell = cell.max((span.x * span.y / max_cells).sqrt());
            while count(cell) > max_cells {
                cell *= 1.25;
            }
        }
        self.cell = cell.min(f64::from(f32::MAX)) as f32;
        self.inverse_cell = (1.0 / cell) as f32;
        self.margin = 1e-3 * self.cell + 1e-6 * magnitude;
        self.origin = low - self.margin;
        // The count above, in the f32 the lookups use. Its rounding may add a row or a
        // column, so each is clamped, to at most `max_cells` in all: a centre or a lookup
        // beyond the last one falls into it (`column`, `row`), which keeps every lookup
        // exact. (A cast saturates: an infinite span gives `u32::MAX`, NaN 0.)
        let spanned = (high - low + 2.0 * self.margin) * self.inverse_cell;
        let cap = max_cells as u32;
        self.columns = (spanned.x as u32).saturating_add(1).min(cap);
        self.rows = (spanned.y as u32).saturating_add(1).min(cap / self.columns);

        // Counting sort by the cell of the centre: count, sum up, place.
        let cells = self.columns as usize * self.rows as usize;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.cell_of.clear();
        self.reach = Vec2::ZERO;
        for entry in &self.entries {
            if entry.half.max_element() > self.cell {
                self.large.push(*entry);
                self.cell_of.push(u32::MAX);
                continue;
            }
            self.reach = self.reach.max(entry.half);
            let k = self.row(entry.position.y) * self.columns + self.column(entry.position.x);
            self.cell_of.push(k);
            self.cell_start[k as usize + 1] += 1;
        }
        for k in 0..cells {
            self.cell_start[k + 1] += self.cell_start[k];
        }
        // `cell_start[k]` is advanced past each entry placed in cell k, and set back after.
        self.items.resize(n - self.large.len(), Entry::default());
        for (entry, &k) in self.entries.iter().zip(&self.cell_of) {
            if k != u32::MAX {
                let place = &mut self.cell_start[k as usize];
                self.items[*place as usize] = *entry;
                *place += 1;
            }
        }
        // Each cell's start now holds the next cell's: shift them back by one.
        self.cell_start.copy_within(0..cells, 1);
        self.cell_start[0] = 0;
        self.valid = true;
    }

    /// Whether the grid still lists the bodies of `slots` where they are: the debug check of
    /// the invalidation rule.
    fn describes(&self, slots: &[Slot]) -> bool {
        let current = slots
            .iter()
            .enumerate()
            .filter_map(|(index, slot)| slot.body.as_ref().map(|body| Entry::new(index, body)));
        current.eq(self.entries.iter().copied())
    }
}

/// The lazily built [`Grid`] of a world.
#[derive(Default)]
pub(super) struct SpatialIndex {
    grid: RwLock<Grid>,
}

impl SpatialIndex {
    /// Marks the grid stale: a body moved, appeared or disappeared between steps.
    pub(super) fn invalidate(&mut self) {
        self.grid.get_mut().unwrap_or_else(PoisonError::into_inner).valid = false;
    }

    /// The grid of the bodies in `slots` at step `step`, rebuilt first if it is stale.
    pub(super) fn grid(&self, slots: &[Slot], step: u64) -> RwLockReadGuard<'_, Grid> {
        loop {
            let grid = self.grid.read().unwrap_or_else(PoisonError::into_inner);
            if grid.valid && grid.built_at_step == step {
                debug_assert!(
                    grid.describes(slots),
                    "a World method moved a body between steps without invalidating the \
                     spatial index (see world/spatial_index.rs)"
                );
                return grid;
            }
            drop(grid);
            let mut grid = self.grid.write().unwrap_or_else(PoisonError::into_inner);
            // Another query may have rebuilt it while this one waited for the lock.
            if !(grid.valid && grid.built_at_step == step) {
                // A rebuild that panicked left `valid` false: the next query starts afresh.
                grid.valid = false;
                grid.rebuild(slots, step);
            }
        }
    }
}

impl Clone for SpatialIndex {
    /// A clone starts without a grid: it is rebuilt by the clone's first query.
    fn clone(&self) -> Self {
        SpatialIndex::default()
    }
}

impl fmt::Debug for SpatialIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grid = self.grid.read().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("SpatialIndex")
            .field("valid", &grid.valid)
            .field("built_at_step", &grid.built_at_step)
            .field("cells", &(grid.columns, grid.rows))
            .field("bodies", &grid.entries.len())
            .finish()
    }
}
