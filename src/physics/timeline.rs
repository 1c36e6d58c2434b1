//! Rewind (issue 18, R-SCN-2): a snapshot of the world every N steps, at most a fixed
//! number of them, so memory stays bounded however long a session runs.
//!
//! A snapshot is the world as a step left it without the buffers the next step rebuilds
//! (`world/snapshot.rs`): 120 bytes per body, 4 to 8 per handle id and 40 per cached
//! contact, about 200 bytes per body in a settled pile. To reach a step between two snapshots, [`Recorder::rewind_to`] restores the
//! nearest one before it and steps on with the recorded inputs: at most N − 1 steps.
//! A larger N costs less memory and more time per jump; the default, a snapshot every 60
//! steps (0.5 s at 120 Hz), keeps 10 s of a 2,000-body pile in 21 snapshots, 8.5 MB (see
//! `docs/scene-files.md`), and the step itself pays one snapshot (0.15 ms) per 60 steps.

use std::collections::VecDeque;

#[cfg(doc)]
use super::replay::Recorder;
use super::world::{PhysicsError, Snapshot, World};

/// Snapshots of a world every [`interval`](Self::interval) steps, the newest
/// [`capacity`](Self::capacity) of them (see the module docs).
#[derive(Clone, Debug)]
pub struct Timeline {
    interval: u64,
    capacity: usize,
    snapshots: VecDeque<Snapshot>,
}

impl Timeline {
    /// Steps between two snapshots by default: 0.5 s at 120 Hz.
    pub const DEFAULT_INTERVAL: u64 = 60;

    /// The most snapshots a timeline may keep, 2^26: above the 36,000,001 that
    /// [`covering`](Self::covering) asks for at its limits (3600 s at 1e-4 s a step, a
    /// snapshot every step), far below what would overflow an allocation.
    pub const MAX_CAPACITY: usize = 1 << 26;

    /// Snapshots every `interval` steps (at least 1), at most `capacity` kept (2 ..=
    /// [`MAX_CAPACITY`](Self::MAX_CAPACITY)). Room for the snapshots is taken as they come,
    /// not reserved here.
    pub fn new(interval: u64, capacity: usize) -> Result<Self, PhysicsError> {
        if interval == 0 {
            return Err(crate::physics::world::invalid("interval", interval, "at least 1 step"));
        }
        if !(2..=Self::MAX_CAPACITY).contains(&capacity) {
            let allowed = format!("2 ..= {}", Self::MAX_CAPACITY);
            return Err(crate::physics::world::invalid("capacity", capacity, allowed));
        }
        Ok(Timeline { interval, capacity, snapshots: VecDeque::new() })
    }

    /// A timeline that reaches at least `seconds` back at steps of `time_step` s, with a
    /// snapshot every [`DEFAULT_INTERVAL`](Self::DEFAULT_INTERVAL) steps. `seconds` is
    /// clamped to 0 ..= 3600 and `time_step` to 1e-4 ..= 1/30 s.
    pub fn covering(seconds: f32, time_step: f32) -> Self {
        Self::covering_every(seconds, time_step, Self::DEFAULT_INTERVAL)
    }

    /// As [`covering`](Self::covering), with a snapshot every `interval` steps (at least 1).
    pub fn covering_every(seconds: f32, time_step: f32, interval: u64) -> Self {
        let steps = (seconds.clamp(0.0, 3600.0) / time_step.clamp(1.0e-4, 1.0 / 30.0)).ceil();
        let interval = interval.max(1);
        // One more than the span needs: the oldest one must lie at or before `now − span`.
        let capacity = (steps as u64).div_ceil(interval) as usize + 1;
        Timeline {
            interval,
            capacity: capacity.clamp(2, Self::MAX_CAPACITY),
            snapshots: VecDeque::new(),
        }
    }

    /// Steps between two snapshots.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// The most snapshots kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The snapshots held.
    pub fn len(&self) -> usize {
        self.snapshots.len()
    }

    /// Whether it holds no snapshot.
    pub fn is_empty(&self) -> bool {
        self.snapshots.is_empty()
    }

    /// The step of the oldest snapshot: how far back a rewind reaches.
    pub fn oldest_step(&self) -> Option<u64> {
        self.snapshots.front().map(Snapshot::step)
    }

    /// Takes a snapshot of `world` if its step count is a multiple of the interval, or if
    /// the timeline is empty, unless the newest snapshot is of that step already; drops the
    /// oldest beyond the capacity. Returns whether it took one.
    pub fn observe(&mut self, world: &World) -> bool {
        let step = world.step_count();
        let due = self.snapshots.is_empty() || step.is_multiple_of(self.interval);
        if !due || self.snapshots.back().is_some_and(|s| s.step() >= step) {
            return false;
        }
        if self.snapshots.len() == self.capacity {
            self.snapshots.pop_front();
        }
        self.snapshots.push_back(world.snapshot());
        true
    }

    /// The step of the newest snapshot.
    pub fn newest_step(&self) -> Option<u64> {
        self.snapshots.back().map(Snapshot::step)
    }

    /// The steps of the snapshots held, oldest first: the steps a rewind reaches without
    /// stepping.
    pub fn steps(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.snapshots.iter().map(Snapshot::step)
    }

    /// The newest snapshot at or before `step`.
    pub(crate) fn at_or_before(&self, step: u64) -> Option<&Snapshot> {
        self.snapshots.iter().rev().find(|s| s.step() <= step)
    }

    /// The world of the newest snapshot at or before `step`, ready to step bit for bit as
    /// the world it was taken from did; `None` if every snapshot is younger.
    pub fn restore(&self, step: u64) -> Option<World> {
        self.at_or_before(step).map(Snapshot::restore)
    }

    /// Drops the oldest snapshots until the rest hold at most `bytes` (see
    /// [`memory_bytes`](Self::memory_bytes)); the newest one always stays. Returns how many
    /// it dropped. A large world then reaches less far back instead of growing without
    /// bound.
    pub fn forget_oldest_beyond(&mut self, bytes: usize) -> usize {
        let mut held = self.memory_bytes();
        let mut dropped = 0;
        while held > bytes && self.snapshots.len() > 1 {
            if let Some(oldest) = self.snapshots.pop_front() {
                held -= oldest.memory_bytes();
                dropped += 1;
            }
        }
        dropped
    }

    /// Drops every snapshot (the world was replaced by another).
    pub fn clear(&mut self) {
        self.snapshots.clear();
    }

    /// Drops the snapshots after `step` (a rewind to `step` starts a new future).
    pub fn forget_after(&mut self, step: u64) {
        while self.snapshots.back().is_some_and(|s| s.step() > step) {
            self.snapshots.pop_back();
        }
    }

    /// The bytes the snapshots hold (see `Snapshot::memory_bytes`: exact for the vectors,
    /// estimated for the few maps).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.snapshots.iter().map(Snapshot::memory_bytes).sum::<usize>()
    }
}
