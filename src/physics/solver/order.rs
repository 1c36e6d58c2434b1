//! The order of the passes: a greedy colouring of the contact graph, and the wide passes
//! over it.

use super::contact::{SolverBodies, SolverBody, SolverContact, TargetRules};
#[cfg(doc)]
use super::restitution::restitute;
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
    /// For [`solve_subset`](Self::solve_subset): the level of each contact of the subset,
    /// the next level of each body, and per level its linear and rolling contacts.
    contact_levels: Vec<u32>,
    body_levels: Vec<u32>,
    level_counts: Vec<[u32; 2]>,
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
    /// last: the order of the passes, for the reference path `scalar::solve_in_order`.
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
    /// `iterations` calls of `scalar::solve_in_order` with `order`, the reference path. Needs
    /// the colouring ([`warm_start_and_build`](Self::warm_start_and_build), or `build` after the
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
        let colours = &self.contact_colours;
        let bounces =
            self.wide.load(contacts, bodies, rules, |i| colours[i] as usize, &self.counts);
        for _ in 0..iterations {
            self.wide.solve(accumulated);
        }
        self.wide.store(contacts, &mut bodies.bodies);
        bounces
    }

    /// `iterations` Gauss-Seidel passes over the contacts `subset` alone, in list order
    /// (`subset` ascending), four contacts at a time: the islands the world solves again
    /// (D1, D10), whose passes converge better in list order than in colour order
    /// (docs/benchmarks.md, "The second solve four contacts at a time"). The contacts must
    /// be prepared (levers, effective masses, targets), as the passes of
    /// [`solve_passes`](Self::solve_passes) leave them.
    ///
    /// Each contact gets a *level*: one more than the last level given to a contact of one
    /// of its movable bodies before it in the list, 0 if none. A contact then depends only on
    /// contacts of lower levels (those before it that share a movable body), so solving
    /// level after level, the contacts of a level side by side, performs the list order's
    /// solves on the same numbers: the velocities and impulses equal those of `iterations`
    /// calls of `scalar::solve_in_order` over `subset`, bit for bit. In the islands of the
    /// benchmark piles a level holds 3.4 contacts on average, so the groups are mostly full.
    /// The contacts outside the subset are left as they are.
    pub fn solve_subset(
        &mut self,
        contacts: &mut [SolverContact],
        bodies: &mut [SolverBody],
        subset: &[u32],
        iterations: u32,
        accumulated: bool,
    ) {
        self.contact_levels.clear();
        self.contact_levels.resize(contacts.len(), 0);
        self.body_levels.clear();
        self.body_levels.resize(bodies.len(), 0);
        self.level_counts.clear();
        for &index in subset {
            let c = &contacts[index as usize];
            let (a, b) = (c.a as usize, c.b as usize);
            let (body_a, body_b) = (&bodies[a], &bodies[b]);
            let (movable_a, movable_b) = (body_a.inverse_mass > 0.0, body_b.inverse_mass > 0.0);
            let level_of = |movable, i| if movable { self.body_levels[i] } else { 0 };
            let level = level_of(movable_a, a).max(level_of(movable_b, b));
            for (movable, i) in [(movable_a, a), (movable_b, b)] {
                if movable {
                    self.body_levels[i] = level + 1;
                }
            }
            self.contact_levels[index as usize] = level;
            if self.level_counts.len() <= level as usize {
                self.level_counts.resize(level as usize + 1, [0; 2]);
            }
            self.level_counts[level as usize][usize::from(wide::is_rolling(body_a, body_b))] += 1;
        }
        // The wide load's last count is the overflow colour's: none here.
        self.level_counts.push([0; 2]);
        let (levels, counts) = (&self.contact_levels, &self.level_counts);
        self.wide.load_prepared(contacts, bodies, |i| levels[i] as usize, counts, subset);
        for _ in 0..iterations {
            self.wide.solve(accumulated);
        }
        self.wide.store(contacts, bodies);
    }
}
