//! Removing many bodies (issue 16, issue 19): `remove_bodies` and `clear` leave the world
//! exactly as removing the same bodies one by one would, in one pass over the bodies.

mod common;

use bevy_sandbox_physics::physics::{BodyDesc, BodyHandle, PhysicsConfig, World, scenes};
use common::*;
use glam::Vec2;

/// `columns` towers of 6 boxes (30 px) standing 0.5 px apart, after `steps` steps with
/// sleeping on: each tower is an island of its own (the towers never touch), asleep from
/// about 1 s on, so removals then have islands to wake and, next to them within the 1 px
/// margin, neighbouring towers to wake too.
fn settled_pile(columns: usize, steps: usize) -> World {
    let size = 30.0;
    let mut w = world_with(
        Vec2::new(columns as f32 * (size + 0.5) + 40.0, 400.0),
        PhysicsConfig::default(),
    );
    for column in 0..columns {
        for row in 0..6 {
            let x = 20.0 + size / 2.0 + column as f32 * (size + 0.5);
            let y = 400.0 - size / 2.0 - row as f32 * size;
            add(&mut w, BodyDesc::rect(Vec2::splat(size), Vec2::new(x, y)));
        }
    }
    run(&mut w, steps);
    w
}

/// Every `stride`-th handle, starting at `first`.
fn every(w: &World, first: usize, stride: usize) -> Vec<BodyHandle> {
    w.handles().skip(first).step_by(stride).collect()
}

/// The sleep state of every body, which the state hash includes too, for the message.
fn sleepers(w: &World) -> usize {
    w.bodies().filter(|(_, b)| b.is_sleeping()).count()
}

/// One call for many bodies equals the calls one by one: the same bodies left, the same
/// islands woken (the state hash covers each body's sleep flag), and the same world after
/// more steps. Checked for removals from sleeping and from awake piles, of single bodies,
/// of every third and of most bodies, with stale and repeated handles mixed in.
#[test]
fn removing_many_bodies_at_once_equals_removing_them_one_by_one() {
    for (steps, first, stride) in [(720, 5, 200), (720, 1, 3), (720, 0, 1), (60, 2, 7), (900, 3, 2)]
    {
        let base = settled_pile(24, steps);
        let asleep = sleepers(&base);
        let mut handles = every(&base, first, stride);
        let mut one_by_one = base.clone();
        for &h in &handles {
            one_by_one.remove_body(h).unwrap();
        }
        // A repeat and a handle already stale are skipped.
        handles.push(handles[0]);
        let mut at_once = base.clone();
        let removed = at_once.remove_bodies(handles.iter().copied());
        assert_eq!(removed, handles.len() - 1, "removed count");
        assert_eq!(at_once.body_count(), one_by_one.body_count());
        assert_eq!(
            at_once.state_hash(),
            one_by_one.state_hash(),
            "after removing every {stride}th from {first} at step {steps} ({asleep} asleep \
             before, {} and {} after)",
            sleepers(&at_once),
            sleepers(&one_by_one)
        );
        assert_eq!(at_once.islands(), one_by_one.islands());
        run(&mut at_once, 120);
        run(&mut one_by_one, 120);
        assert_eq!(at_once.state_hash(), one_by_one.state_hash(), "120 steps later");
    }
}

/// Removals wake their own island and the islands next to them (the test above is not
/// vacuous): the top box of every third of 24 towers taken away wakes the rest of its
/// tower and both neighbouring towers, and no other.
#[test]
fn removing_bodies_from_a_sleeping_pile_wakes_their_neighbours_r_slp_4() {
    let base = settled_pile(24, 720);
    let asleep = sleepers(&base);
    assert_eq!(asleep, base.body_count(), "the towers are asleep after 6 s");
    assert!(base.islands().len() >= 20, "{} islands", base.islands().len());
    let mut w = base.clone();
    // The top box of every third tower: its own tower wakes, and so do both neighbours.
    let handles = every(&base, 5, 18);
    w.remove_bodies(handles.iter().copied());
    let awake = base.body_count() - handles.len() - sleepers(&w);
    // Towers 0, 3, …, 21 lost their top box; with their neighbours, towers 0 to 22 woke.
    assert_eq!(handles.len(), 8);
    assert_eq!(awake, 23 * 6 - 8, "bodies woken by the removals");
}

/// `clear` leaves an empty world that hands out the same handles, in the same order, as a
/// world emptied one body at a time, and steps like it.
#[test]
fn clearing_equals_removing_every_body_one_by_one() {
    let base = settled_pile(20, 300);
    let mut cleared = base.clone();
    cleared.clear();
    let mut emptied = base.clone();
    let handles: Vec<_> = emptied.handles().collect();
    for h in handles.iter().copied() {
        emptied.remove_body(h).unwrap();
    }
    assert_eq!(cleared.body_count(), 0);
    assert!(handles.iter().all(|&h| !cleared.contains(h)), "stale handles after clear");
    let refill = scenes::mixed(120, 9);
    for desc in &refill.bodies {
        let (a, b) = (cleared.add_body(*desc), emptied.add_body(*desc));
        assert_eq!(a, b, "the same handle for the same new body");
    }
    run(&mut cleared, 120);
    run(&mut emptied, 120);
    assert_eq!(cleared.state_hash(), emptied.state_hash());
}

/// `bodies_in_storage_order` visits exactly the bodies `bodies` does, each once, with the
/// same body behind each handle: after removals, re-used ids and the step's re-sorting of
/// the storage (§5).
#[test]
fn storage_order_visits_every_live_body_once_after_removals_and_resorting() {
    let mut w = settled_pile(12, 30);
    let removed = every(&w, 1, 3);
    w.remove_bodies(removed.iter().copied());
    for i in 0..5 {
        add(&mut w, BodyDesc::circle(12.0, Vec2::new(40.0 + 30.0 * i as f32, 40.0)));
    }
    run(&mut w, 120);
    let mut by_handle: Vec<_> = w.bodies().map(|(h, b)| (h, b.position())).collect();
    let mut by_storage: Vec<_> =
        w.bodies_in_storage_order().map(|(h, b)| (h, b.position())).collect();
    assert_eq!(by_storage.len(), w.body_count(), "every live body once");
    let key = |(h, _): &(BodyHandle, Vec2)| format!("{h:?}");
    by_handle.sort_by_key(key);
    by_storage.sort_by_key(key);
    assert_eq!(by_storage, by_handle, "the same bodies behind the same handles");
}
