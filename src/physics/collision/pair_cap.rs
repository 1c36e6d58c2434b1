//! The cap on awake pairs per body (docs/physics.md D7, R-REST-4), applied by the broad
//! phase after its sweep.

/// At most this many pairs of two awake proxies per body (deviation D7, R-REST-4).
///
/// A body of normal size touches at most about six neighbours of its size (and a few dozen
/// small ones); a body with more than this many awake partners sits in a pile added at one
/// point, where every pair overlaps and n bodies give n·(n−1)/2 pairs: 12.5 million pairs
/// and gigabytes of contacts for 5,000 bodies. Capped, such a pile has at most
/// `n · MAX_PAIRS_PER_BODY / 2` pairs. Pairs with a passive (static or sleeping) body are
/// neither capped nor counted: a wide floor may carry hundreds of bodies.
pub const MAX_PAIRS_PER_BODY: usize = 64;

/// Drops, in sweep order, each pair of two awake proxies of which one body already has
/// [`MAX_PAIRS_PER_BODY`] such pairs (D7, R-REST-4). While no body reaches the cap it keeps
/// every pair in its order, so a world without a pathological pile steps bit for bit as
/// without the cap. Kept pairs keep their order: the result is deterministic.
///
/// `awake_slots` are the slots of the awake proxies, all below `slots`; `kept` is scratch,
/// by slot, left all zero.
pub(super) fn cap_pairs_per_body(
    awake_slots: impl Iterator<Item = u32>,
    slots: usize,
    pairs: &mut Vec<(u32, u32)>,
    kept: &mut Vec<u16>,
) {
    if kept.len() < slots {
        kept.resize(slots, 0);
    }
    let kept = &mut kept[..slots];
    // The common case first, in one pass over the pairs alone: all pairs counted (awake or
    // not, an upper bound), and if no body reaches the cap, nothing to drop.
    let cap = MAX_PAIRS_PER_BODY as u16;
    let mut reached = false;
    for &(a, b) in pairs.iter() {
        for slot in [a, b] {
            let count = kept[slot as usize].saturating_add(1);
            kept[slot as usize] = count;
            reached |= count >= cap;
        }
    }
    kept.fill(0);
    if !reached {
        return;
    }
    // Which slots are awake: marked in `kept`'s top bit for the pass (the count stays
    // below 2^15).
    const AWAKE_BIT: u16 = 1 << 15;
    for slot in awake_slots {
        kept[slot as usize] = AWAKE_BIT;
    }
    pairs.retain(|&(a, b)| {
        let (ka, kb) = (kept[a as usize], kept[b as usize]);
        if ka & kb & AWAKE_BIT == 0 {
            return true; // a passive body: not capped
        }
        if (ka & !AWAKE_BIT) >= cap || (kb & !AWAKE_BIT) >= cap {
            return false;
        }
        kept[a as usize] += 1;
        kept[b as usize] += 1;
        true
    });
    kept.fill(0);
    // A pile at one point leaves the sweep's buffer millions of pairs long: give it back.
    if pairs.capacity() > 4 * pairs.len() + 1024 {
        pairs.shrink_to(2 * pairs.len());
    }
}
