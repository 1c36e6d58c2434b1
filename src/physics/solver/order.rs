//! The order of the passes: a greedy colouring of the contact graph, and the wide passes
//! over it.

use super::contact::{SolverBodies, SolverBody, SolverContact, TargetRules};
#[cfg(doc)]
use super::restitution::restitute;
#[cfg(doc)]
use super::scalar::solve_in_order;
use super::scalar::warm_start_contact;
use super::wide::{self, WideContacts};

/// Colours of the contact graph: contacts of one colour share no movable body.
///
/// Each contact reads and writes its two bodies. Solved in list order, where neighbours
/// usually share a body, every solve waits for the one before it: a single long dependency
/// chain. Solved colour by colour, consecutive contacts are independent and the processor
/// overlaps them. Greedy colouring (each contact takes the lowest colour neither of its
/// movable bodies has yet) is O(n); immovable partners (walls, static and sleeping bodies,
/// inverse mass 0) are never written and conflict with nothing. Contacts beyond 64 colours
/// go last, in list order. Gauss-Seidel converges in any order and this one is fixed, so the
/// simulation stays deterministic.
#[derive(Clone, Debug, Default)]
pub struct SolveOrder {
    body_colours: Vec<u64>,
    /// The colour of each contact, [`OVERFLOW_COLOUR`] for those that found none.
    contact_colours: Vec<u8>,
    /// Per colour, how many of its contacts are linear and how many rolling (see
    /// [`wide`]): the wide load sizes the groups from these.
    counts: Vec<[u32; 2]>,
    wide: WideContacts,
}

/// What [`SolveOrder`]'s colouring writes (see `SolveOrder::colouring`).
struct Colouring<'a> {
    body_colours: &'a mut [u64],
    /// One per contact, sized by `reset`, written in list order: the next at `coloured` (a
    /// push would check for room and reload the vector's length, capacity and pointer each
    /// time).
    contact_colours: &'a mut [u8],
    coloured: usize,
    counts: &'a mut [[u32; 2]; OVERFLOW_COLOUR + 1],
}

impl Colouring<'_> {
    /// Gives the next contact the lowest colour neither of its movable bodies has yet.
    /// Returns the inverse masses of A and B.
    #[inline(always)]
    fn colour(&mut self, c: &SolverContact, bodies: &[SolverBody]) -> (f32, f32) {
        let (a, b) = (c.a as usize, c.b as usize);
        let (body_a, body_b) = (&bodies[a], &bodies[b]);
        let (movable_a, movable_b) = (body_a.inverse_mass > 0.0, body_b.inverse_mass > 0.0);
        let used = if movable_a { self.body_colours[a] } else { 0 }
            | if movable_b { self.body_colours[b] } else { 0 };
        let colour = (!used).trailing_zeros() as usize; // 64 when all are taken
        if colour < OVERFLOW_COLOUR {
            if movable_a {
                self.body_colours[a] |= 1 << colour;
            }
            if movable_b {
                self.body_colours[b] |= 1 << colour;
            }
        }
        self.contact_colours[self.coloured] = colour as u8;
        self.coloured += 1;
        self.counts[colour][usize::from(wide::is_rolling(body_a, body_b))] += 1;
        (body_a.inverse_mass, body_b.inverse_mass)
    }
}

/// The colour of contacts that found no free colour among the 64.
pub(crate) const OVERFLOW_COLOUR: usize = 64;

impl SolveOrder {
    /// Colours `contacts` and counts each colour's linear and rolling contacts.
    #[cfg(test)]
    pub fn build(&mut self, contacts: &[SolverContact], bodies: &[SolverBody]) {
        self.reset(bodies.len(), contacts.len());
        let mut colouring = self.colouring(bodies.len());
        for c in contacts {
            colouring.colour(c, bodies);
        }
    }

    /// the scalar `warm_start`, then `build`, in one pass over the
    /// contacts: each contact is warm started and coloured while it and its bodies are at
    /// hand. The warm start changes only velocities, which the colouring does not read, and
    /// applies the impulses in list order as `warm_start` does: the same velocities and
    /// colours.
    ///
    /// `each` is called with every contact, in list order, and its bodies' inverse masses
    /// (A, B), which the colouring has loaded anyway: the world builds the position
    /// projection's contacts from them ([`Projection::add`](super::position::Projection::add)).
    pub fn warm_start_and_build(
        &mut self,
        contacts: &[SolverContact],
        bodies: &mut [SolverBody],
        mut each: impl FnMut(&SolverContact, f32, f32),
    ) {
        self.reset(bodies.len(), contacts.len());
        let mut colouring = self.colouring(bodies.len());
        for c in contacts {
            warm_start_contact(c, bodies);
            let (inverse_mass_a, inverse_mass_b) = colouring.colour(c, bodies);
            each(c, inverse_mass_a, inverse_mass_b);
        }
    }

    /// No body has a colour yet; room for the colours of `contact_count` contacts.
    fn reset(&mut self, body_count: usize, contact_count: usize) {
        self.body_colours.clear();
        self.body_colours.resize(body_count, 0);
        self.contact_colours.clear();
        self.contact_colours.resize(contact_count, 0);
        self.counts.clear();
        self.counts.resize(OVERFLOW_COLOUR + 1, [0; 2]);
    }

    /// The arrays the colouring writes, after [`reset`](Self::reset), as slices of known
    /// length: the body colours as long as the bodies, so that the checked index of a body
    /// covers its colour too, and the counts as an array the colour always indexes.
    fn colouring(&mut self, body_count: usize) -> Colouring<'_> {
        Colouring {
            body_colours: &mut self.body_colours[..body_count],
            contact_colours: &mut self.contact_colours,
            coloured: 0,
            counts: (&mut self.counts[..]).try_into().expect("reset sized the counts"),
        }
    }

    /// Contact indices, colour by colour, each colour in list order, the overflow colour
    /// last: the order of the passes, for the reference path [`solve_in_order`].
    #[cfg(test)]
    pub fn order(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.contact_colours.len() as u32).collect();
        order.sort_by_key(|&i| self.contact_colours[i as usize]); // stable
        order
    }

    /// The colour of each contact, 0 to 63, or 64 for those solved one by one after all
    /// colours.
    #[cfg(test)]
    pub fn colours(&self) -> &[u8] {
        &self.contact_colours
    }

    /// The scalar `prepare`, then `iterations` Gauss-Seidel passes over `contacts` in this
    /// order, four contacts of a colour at a time ([`wide`]). The contacts (effective masses,
    /// levers, bounce targets, impulses) and the velocities equal those of `prepare` and
    /// `iterations` calls of [`solve_in_order`] with `order`, the reference path. Needs the
    /// colouring ([`warm_start_and_build`](Self::warm_start_and_build), or `build` after the
    /// warm start). Returns whether a contact has a bounce target (for [`restitute`]).
    /// `rules` are the targets' rules, `accumulated` the clamping (the rule switches of
    /// R-LAB-1).
    pub fn solve_passes(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &mut SolverBodies,
        rules: &TargetRules,
        iterations: u32,
        accumulated: bool,
    ) -> bool {
        let bounces = self.wide.load(contacts, bodies, rules, &self.contact_colours, &self.counts);
        for _ in 0..iterations {
            self.wide.solve(accumulated);
        }
        self.wide.store(contacts, &mut bodies.bodies);
        bounces
    }
}
