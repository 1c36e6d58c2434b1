//! The steady-state step allocates nothing (issue 7, item 3: memory stays stable in a long
//! run). A counting global allocator, in its own test binary so that it is global only here,
//! counts the allocations made by the test's own thread while the world steps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bevy_sandbox_physics::physics::{PhysicsConfig, World, scenes};
use glam::Vec2;

/// Counts allocations and reallocations made while the current thread is counting, per
/// thread: the tests of this file run in parallel and must not count each other's.
struct CountingAllocator;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// const-initialised thread-locals, which do not allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: `ptr` was allocated by `System` through this allocator with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` through this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations counted while `f` runs (only where it turns counting on).
fn allocations_in(f: impl FnOnce()) -> usize {
    let start = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - start
}

/// One step, its allocations counted when `count` is set.
fn step(world: &mut World, count: bool) {
    let dt = world.config().time_step;
    COUNTING.with(|c| c.set(count));
    let result = world.step(dt);
    COUNTING.with(|c| c.set(false));
    result.expect("step");
}

/// Issue 7: once a world has run through its busiest states (a mixed pile falling, settling
/// and falling asleep, a drag and a throw, a body deleted, gravity toggled), further steps
/// through the same kinds of states allocate nothing: every buffer is reused. The count is
/// not vacuous: the same window with a body spawned in it counts the new slot's allocation.
#[test]
fn the_steady_state_step_allocates_nothing() {
    let mut world = scenes::mixed(200, 7).build(PhysicsConfig::default()).expect("scene");
    let handles: Vec<_> = world.handles().collect();
    // One busy cycle: settle and sleep, wake by a drag and a throw, delete, toggle gravity.
    // Only the steps are counted: the calls between them may allocate (a removal's wake-up
    // list, for one), the step must not.
    let cycle = |world: &mut World, round: usize, count: bool| {
        for _ in 0..600 {
            step(world, count);
        }
        let held = handles[round % 50];
        world.grab(held).expect("grab");
        for i in 0..60 {
            world.set_drag_target(held, Vec2::new(100.0 + 5.0 * i as f32, 100.0)).expect("drag");
            step(world, count);
        }
        world.release(held, Vec2::new(900.0, -400.0)).expect("throw");
        world.remove_body(handles[100 + round]).expect("delete");
        world.set_gravity_enabled(false);
        for _ in 0..30 {
            step(world, count);
        }
        world.set_gravity_enabled(true);
        for _ in 0..300 {
            step(world, count);
        }
    };
    for round in 0..3 {
        cycle(&mut world, round, false);
    }
    let steady = allocations_in(|| cycle(&mut world, 3, true));
    assert_eq!(steady, 0, "990 steady-state steps allocated {steady} times");

    // The counter counts: a fresh world's first steps grow its buffers.
    let mut fresh = scenes::mixed(50, 8).build(PhysicsConfig::default()).expect("scene");
    let first = allocations_in(|| step(&mut fresh, true));
    assert!(first > 0, "the first step of a fresh world allocates its buffers");
}

/// Issue 6 keeps a large world's slots in space order; the sort is part of the steady state
/// and allocates nothing either: its buffers grow with the slots, when bodies are added.
/// A settled 4,096-circle pile (the smallest world kept in space order, see `World`'s docs)
/// is scattered over its slots by taking every body out and
/// putting it back in random order (the freed slots are reused in the order of the free
/// list, not of the positions); the steps up to the next look at the order must sort it,
/// without an allocation.
#[test]
fn sorting_a_large_worlds_slots_allocates_nothing() {
    let config = PhysicsConfig { sleeping_enabled: false, ..PhysicsConfig::default() };
    let mut world = scenes::large(4_096, 5).build(config).expect("scene");
    for _ in 0..300 {
        step(&mut world, false);
    }
    let handles: Vec<_> = world.handles().collect();
    let mut descs: Vec<_> = world.bodies().map(|(_, b)| b.desc()).collect();
    scenes::SceneRng::new(4).shuffle(&mut descs);
    for handle in handles {
        world.remove_body(handle).expect("a live handle");
    }
    for desc in descs {
        world.add_body(desc).expect("back where it was");
    }
    // Up to the step of the sort, which comes within 128 steps.
    let (mut sorted, mut steps) = (false, 0);
    let counted = allocations_in(|| {
        while !sorted && steps < 128 {
            step(&mut world, true);
            sorted = world.stats().slots_sorted;
            steps += 1;
        }
    });
    assert!(sorted, "the scattered slots were sorted within 128 steps");
    assert_eq!(counted, 0, "{steps} steps up to and with a sort allocated {counted} times");
}
