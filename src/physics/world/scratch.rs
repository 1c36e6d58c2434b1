//! The step's working memory: every buffer the step fills and reads again, kept between
//! steps only so that the steady-state step allocates nothing. Between steps the contacts
//! and islands hold those of the last step, which [`World::contacts`] and
//! [`World::islands`] report.

use super::*;

/// What the narrow phase reads of a body, packed in 40 bytes: the pairs visit bodies in
/// sweep order, scattered over the slots, and each visit to a slot would load the two cache
/// lines that a 120-byte [`Slot`] spans for these few fields.
#[derive(Clone, Copy, Debug)]
pub(super) struct Collider {
    pub(super) shape: Shape,
    pub(super) position: Vec2,
    pub(super) friction: f32,
    pub(super) restitution: f32,
    /// `1 / rolling_radius`: 1/r for a circle, 0 for a rectangle (§9).
    pub(super) curvature: f32,
    /// The body's handle bits, its warm-start key.
    pub(super) handle_bits: u64,
}

impl Default for Collider {
    fn default() -> Self {
        Collider {
            shape: Shape::Circle { radius: 1.0 },
            position: Vec2::ZERO,
            friction: 0.0,
            restitution: 0.0,
            curvature: 0.0,
            handle_bits: 0,
        }
    }
}

/// A sensor's overlap with a body (R-GAME-2): found by the narrow phase, kept out of the
/// solver, reported as an event. A and B are slots, oriented as a contact's.
#[derive(Clone, Copy, Debug)]
pub(super) struct SensorOverlap {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) manifold: collision::Manifold,
}

/// The per-step buffers of a [`World`], indexed by slot (bodies) or by contact.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// `reorder_slots`' buffers, sized with the slots by `add_body`, so that a sort allocates
    /// nothing: each slot's sort key with its index, and the new index of each old slot.
    pub(super) reorder_keys: Vec<(u64, u32)>,
    pub(super) new_slot_of: Vec<u32>,
    pub(super) proxies: Vec<Proxy>,
    /// Per slot, what the narrow phase reads of its body (filled by `find_pairs`).
    pub(super) colliders: Vec<Collider>,
    /// How many of the colliders are rectangles (`gather_bodies`): the narrow phase tests
    /// the candidates of a world of circles four at a time.
    pub(super) rectangles: usize,
    /// Wall contacts and their keys found by `gather_bodies`, for `collide_walls`.
    pub(super) wall_contacts: Vec<SolverContact>,
    pub(super) wall_keys: Vec<PairKey>,
    /// Per slot, each body's layers: filled by `gather_bodies` only while some body is off
    /// the default layers (R-GAME-3).
    pub(super) layers: Vec<CollisionLayers>,
    /// Per slot, each body's contact flags (sensor, reports): filled by `gather_bodies` only
    /// while some body has flags (R-GAME-1, R-GAME-2).
    pub(super) contact_flags: Vec<u8>,
    pub(super) pairs: Vec<(u32, u32)>,
    /// The sensors' overlaps of the step (from `collide_bodies`).
    pub(super) sensor_overlaps: Vec<SensorOverlap>,
    /// Per contact, whether its pair was reported touching last step (from the cache, by
    /// `solve_velocities`, while collision events are followed).
    pub(super) was_reported: Vec<bool>,
    /// Per contact, whether one of its bodies reports it this step (while some body has
    /// flags; empty otherwise).
    pub(super) reported: Vec<bool>,
    /// How many kinematic bodies move this step (from `gather_bodies`): the sweep pairs
    /// them with everything, and `find_pairs` drops what they need not meet.
    pub(super) moving_kinematic: usize,
    /// Body–body contacts first, then wall contacts.
    pub(super) contacts: Vec<SolverContact>,
    pub(super) body_contact_count: usize,
    /// Warm-start key of each contact: the two handles' bits.
    pub(super) contact_keys: Vec<PairKey>,
    pub(super) solver: SolverBodies,
    pub(super) solve_order: SolveOrder,
    pub(super) positions: Vec<Vec2>,
    pub(super) start_positions: Vec<Vec2>,
    pub(super) union_find: UnionFind,
    pub(super) energy_guard: EnergyGuard,
    pub(super) projection: Projection,
    pub(super) before_bounce: Vec<(Vec2, f32)>,
    /// Per solver body: the velocities the solve started from, after gravity and before the
    /// warm start (filled by `find_gains` when an island may have to be solved again).
    pub(super) loaded_velocity: Vec<(Vec2, f32)>,
    pub(super) carried: Vec<(f32, f32, f32)>,
    pub(super) resolve_order: Vec<u32>,
    /// The contacts of `resolve_order` whose islands take their impacts one after another
    /// (D15).
    pub(super) in_turn_order: Vec<u32>,
    pub(super) bounce_targets: Vec<f32>,
    pub(super) island_root: Vec<u32>,
    /// Per slot: holds an awake dynamic body (from `gather_bodies` to the end of the step).
    pub(super) awake_dynamic: Vec<bool>,
    pub(super) island_rest: Vec<f32>,
    /// Per solver index: in a contact still deeper than slop + 0.5 px after the projection
    /// (`Projection::mark_deep`), so its island is settled before it sleeps (§11, D9,
    /// R-REST-2). Filled only while sleeping is on.
    pub(super) deep: Vec<bool>,
    /// Per solver index (slots, then the walls): the body is set into others (D16), from
    /// its flag at the step's start and the narrow phase's finds; empty while no body may
    /// be. After the projection, `still_embedded` says which stay so.
    pub(super) embedded: Vec<bool>,
    pub(super) still_embedded: Vec<bool>,
    /// Per solver index: a body of an island that settles before it sleeps, and the
    /// contacts of those islands (D9, `World::settle_before_sleep`).
    pub(super) settling: Vec<bool>,
    /// Per body, read at the roots: whether an island whose settling failed is wedged (D17,
    /// `World::settle_before_sleep`).
    pub(super) wedged: Vec<super::settle::Wedged>,
    pub(super) settle_projection: Projection,
    pub(super) island_id: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes the comments count with (`Collider` here, `World::gather_bodies`): if a
    /// field changes them, update those comments with this test.
    #[test]
    fn slots_and_colliders_have_the_sizes_the_comments_give() {
        assert_eq!(std::mem::size_of::<Body>(), 112);
        assert_eq!(std::mem::size_of::<Slot>(), 120);
        assert_eq!(std::mem::size_of::<Collider>(), 40);
    }
}
