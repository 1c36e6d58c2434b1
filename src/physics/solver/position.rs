//! Position correction by projection (§10, R-POS-1, R-POS-2).
//!
//! Impulses only fix velocities. With a discrete step bodies still overlap a little: a
//! falling body usually "lands" somewhat inside its support, and without correction stacks
//! would slowly sink into each other. The correction moves the *positions* directly, split by
//! inverse mass:
//! ```text
//! C   = factor · max(depth − slop, 0)            (at most max_position_correction)
//! p_A −= n · C · (1/m_A) / (1/m_A + 1/m_B)
//! p_B += n · C · (1/m_B) / (1/m_A + 1/m_B)
//! ```
//! * Why positions and not an extra separating velocity (Baumgarte)? Such a velocity outlives
//!   the separation and flings bodies apart, worst of all when something is dropped into the
//!   middle of a pile. A projection adds no kinetic energy. (The rule switch
//!   `position_correction` offers Baumgarte's bias instead, to show it: R-LAB-1.)
//! * The slop (0.5 px) leaves a small depth, so the contact is found again next step instead
//!   of flickering between "contact" and "no contact", which would show as jitter.
//! * The current depth needs no second collision pass: it is the depth at detection minus
//!   the relative displacement along n since then,
//!   `depth_now = depth − ((p_B − p_B⁰) − (p_A − p_A⁰))·n`. That is exact for walls and for
//!   rectangles along an axis, and a very good approximation for circles and for the slanted
//!   normals of bodies set into others (deviation D16 of docs/physics.md).

use std::f32::consts::FRAC_1_SQRT_2;

use glam::Vec2;

#[cfg(test)]
use super::contact::SolverBody;
use super::contact::SolverContact;

/// The §10 parameters of one projection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProjectionSettings {
    /// Passes over all contacts (`position_iterations`).
    pub iterations: u32,
    /// Share of the remaining depth removed per pass (`position_correction_factor`).
    pub factor: f32,
    /// Depth left alone (`penetration_slop`), px.
    pub slop: f32,
    /// Largest correction of one contact in one pass (`max_position_correction`), px.
    pub max_correction: f32,
}

/// Projects `positions` (indexed like the contacts' solver indices) out of overlap.
/// `start_positions` are the positions at detection; a body with inverse mass 0 stays put.
#[cfg(test)]
pub fn project(
    contacts: &[SolverContact],
    positions: &mut [Vec2],
    start_positions: &[Vec2],
    bodies: &[SolverBody],
    settings: &ProjectionSettings,
) {
    for _ in 0..settings.iterations {
        for c in contacts {
            let (a, b) = (c.a as usize, c.b as usize);
            let (wa, wb) = (bodies[a].inverse_mass, bodies[b].inverse_mass);
            let total = wa + wb;
            if total <= 0.0 {
                continue;
            }
            let moved = (positions[b] - start_positions[b]) - (positions[a] - start_positions[a]);
            let depth = c.depth - moved.dot(c.normal);
            let correction =
                (settings.factor * (depth - settings.slop).max(0.0)).min(settings.max_correction);
            if correction <= 0.0 {
                continue;
            }
            let push = c.normal * (correction / total);
            positions[a] -= push * wa;
            positions[b] += push * wb;
        }
    }
}

/// One contact as the projection reads it: 32 bytes instead of the solver's whole contact,
/// with the inverse masses gathered once instead of once per pass.
#[derive(Clone, Copy, Debug)]
struct ProjectionContact {
    a: u32,
    b: u32,
    normal: Vec2,
    depth: f32,
    inverse_mass_a: f32,
    inverse_mass_b: f32,
    total: f32,
}

impl ProjectionContact {
    /// Its depth at `positions`: the depth at detection minus the approach since
    /// (`start_positions`), as the module docs derive it.
    #[inline(always)]
    fn depth_now(&self, positions: &[Vec2], start_positions: &[Vec2]) -> f32 {
        let (a, b) = (self.a as usize, self.b as usize);
        let moved = (positions[b] - start_positions[b]) - (positions[a] - start_positions[a]);
        self.depth - moved.dot(self.normal)
    }
}

/// The projection of `project` on a compact copy of the contacts: the same arithmetic in
/// the same order (so the same result to the bit) with less memory traffic. Contacts
/// between two immovable bodies are left out once instead of skipped in every pass.
#[derive(Clone, Debug, Default)]
pub struct Projection {
    contacts: Vec<ProjectionContact>,
    /// `free_embedded`'s contacts of bodies set into others, by index: its passes walk
    /// only these.
    marked: Vec<u32>,
}

impl Projection {
    /// Projects like [`project`], keeping its buffer for the next step.
    #[cfg(test)]
    pub fn run(
        &mut self,
        contacts: &[SolverContact],
        positions: &mut [Vec2],
        start_positions: &[Vec2],
        bodies: &[SolverBody],
        settings: &ProjectionSettings,
    ) {
        self.clear();
        for c in contacts {
            self.add(c, bodies[c.a as usize].inverse_mass, bodies[c.b as usize].inverse_mass);
        }
        self.run_added(positions, start_positions, settings);
    }

    /// Sets `deep[i]` for both bodies of every contact still deeper than `limit` at
    /// `positions` (the depth at detection minus the approach since, as in the passes), and
    /// clears every other entry; `deep` gets one entry per position. The sleep rule reads it
    /// (§11, deviation D9 of docs/physics.md).
    pub fn mark_deep(
        &self,
        positions: &[Vec2],
        start_positions: &[Vec2],
        limit: f32,
        deep: &mut Vec<bool>,
    ) {
        deep.clear();
        deep.resize(positions.len(), false);
        let start_positions = &start_positions[..positions.len()];
        for c in &self.contacts {
            if c.depth_now(positions, start_positions) > limit {
                deep[c.a as usize] = true;
                deep[c.b as usize] = true;
            }
        }
    }

    /// Copies into `into` (cleared first) the contacts with a body for which `keep` is
    /// true (`keep` has one entry per position; walls and other immovable bodies have
    /// `false`), in their order.
    pub fn keep_only(&self, keep: &[bool], into: &mut Projection) {
        into.clear();
        into.contacts.extend(
            self.contacts.iter().filter(|c| keep[c.a as usize] || keep[c.b as usize]).copied(),
        );
    }

    /// Settles the contacts before their bodies sleep (§11, deviation D9 of
    /// docs/physics.md): passes, at most `settings.iterations`, until no contact is deeper than
    /// `target`. With gravity (`down`, its unit direction) a pile rests on its floor: the
    /// contacts are taken bottom first, and a contact along gravity (within 45°) lifts its
    /// upper body alone, by its whole excess over the slop, so that one pass carries a
    /// correction from the floor up through a whole column (shock propagation). Other
    /// contacts, and every contact without gravity, are split by inverse mass as in the
    /// step's passes, but by their whole excess (`settings.factor` is not used).
    /// Reorders the contacts.
    pub fn settle(
        &mut self,
        positions: &mut [Vec2],
        start_positions: &[Vec2],
        settings: &ProjectionSettings,
        down: Option<Vec2>,
        target: f32,
    ) {
        let start_positions = &start_positions[..positions.len()];
        if let Some(down) = down {
            // Bottom first: by the height of the lower body; a contact with an immovable
            // body (the floor, a wall, a sleeper) before all others.
            let lower = |c: &ProjectionContact| {
                if c.inverse_mass_a == 0.0 || c.inverse_mass_b == 0.0 {
                    f32::INFINITY
                } else {
                    positions[c.a as usize].dot(down).max(positions[c.b as usize].dot(down))
                }
            };
            self.contacts.sort_by(|x, y| lower(y).total_cmp(&lower(x)));
        }
        for _ in 0..settings.iterations {
            if self.deepest(positions, start_positions) <= target {
                return;
            }
            for c in &self.contacts {
                let (a, b) = (c.a as usize, c.b as usize);
                let excess = c.depth_now(positions, start_positions) - settings.slop;
                if excess <= 0.0 {
                    continue;
                }
                let along = down.map_or(0.0, |down| c.normal.dot(down));
                // B lies below A when the normal (A to B) points down: B carries A.
                let upper_movable =
                    if along > 0.0 { c.inverse_mass_a > 0.0 } else { c.inverse_mass_b > 0.0 };
                let (wa, wb, correction) = if along.abs() > FRAC_1_SQRT_2 && upper_movable {
                    // Uncapped: `excess` holds what the lower body was lifted by too, and
                    // an island settles only with overlaps up to `SETTLE_REACH` past the slop.
                    let (wa, wb) = if along > 0.0 { (1.0, 0.0) } else { (0.0, 1.0) };
                    (wa, wb, excess)
                } else {
                    let correction = excess.min(settings.max_correction);
                    (c.inverse_mass_a / c.total, c.inverse_mass_b / c.total, correction)
                };
                positions[a] -= c.normal * (correction * wa);
                positions[b] += c.normal * (correction * wb);
            }
        }
    }

    /// The deepest of the contacts at `positions` (depth at detection minus the approach
    /// since), px; `f32::NEG_INFINITY` without contacts.
    pub fn deepest(&self, positions: &[Vec2], start_positions: &[Vec2]) -> f32 {
        let start_positions = &start_positions[..positions.len()];
        let depths = self.contacts.iter().map(|c| c.depth_now(positions, start_positions));
        depths.fold(f32::NEG_INFINITY, f32::max)
    }

    /// Adds a contact found at `positions` (the normal from A to B, `depth` there) between
    /// bodies `a` and `b` with the given inverse masses; none between two immovable
    /// bodies. Its depth at detection is set so that its depth at `positions` (the depth at
    /// detection minus the approach since the step's start) is `depth`.
    pub fn add_found(
        &mut self,
        (a, b): (u32, u32),
        normal: Vec2,
        depth: f32,
        (inverse_mass_a, inverse_mass_b): (f32, f32),
        positions: &[Vec2],
        start_positions: &[Vec2],
    ) {
        let total = inverse_mass_a + inverse_mass_b;
        if total <= 0.0 {
            return;
        }
        let (ia, ib) = (a as usize, b as usize);
        let moved = (positions[ib] - start_positions[ib]) - (positions[ia] - start_positions[ia]);
        let depth = depth + moved.dot(normal);
        self.contacts.push(ProjectionContact {
            a,
            b,
            normal,
            depth,
            inverse_mass_a,
            inverse_mass_b,
            total,
        });
    }

    /// Drops every contact for which `drop(a, b)` holds of its two entries (a body or a
    /// wall each), keeping the others in their order.
    pub fn remove_where(&mut self, mut drop: impl FnMut(u32, u32) -> bool) {
        self.contacts.retain(|c| !drop(c.a, c.b));
    }

    /// Forgets the contacts added so far (keeping the memory).
    pub fn clear(&mut self) {
        self.contacts.clear();
    }

    /// Adds the next contact, with its bodies' inverse masses; a contact between two
    /// immovable bodies is left out. The world adds them during the solver's warm start,
    /// which reads both inverse masses anyway, saving `run` a pass over the
    /// contacts and their bodies.
    #[inline(always)]
    pub fn add(&mut self, c: &SolverContact, inverse_mass_a: f32, inverse_mass_b: f32) {
        let total = inverse_mass_a + inverse_mass_b;
        if total > 0.0 {
            self.contacts.push(ProjectionContact {
                a: c.a,
                b: c.b,
                normal: c.normal,
                depth: c.depth,
                inverse_mass_a,
                inverse_mass_b,
                total,
            });
        }
    }

    /// Frees bodies set into others (deviation D16 of docs/physics.md): after the step's
    /// passes, up to `passes` more over the contacts of bodies marked in `embedded` (one
    /// entry per position) while one of them is still deeper than `slop + keep`; a body
    /// such a contact pushes into another marks that one too, whose contacts join from the
    /// next pass, so the push travels through a heap within the step. Each pass corrects as
    /// the step's do (`factor` of the excess over the slop, at most `max_correction`), over
    /// the contacts of marked bodies alone. Then `still` (one entry per position) marks
    /// the bodies left in a contact deeper than `slop + keep` with a marked body: they stay
    /// set into others for the next step.
    ///
    /// Two passes a step free a tall heap too slowly: 5,000 bodies added at one point
    /// (R-REST-4) still overlapped by 15.1 px after 10 s with D16's direction alone, and by
    /// 1.50 px with these passes. A body may move further in a step than the passes' cap per
    /// contact (`max_correction`): capping each body's push over all passes at 6 to 48 px
    /// left 2.5–23 px (measured with a first form of the direction), because a heap freed
    /// slowly falls while it spreads and builds columns again.
    pub fn free_embedded(
        &mut self,
        positions: &mut [Vec2],
        start_positions: &[Vec2],
        embedded: &mut [bool],
        still: &mut Vec<bool>,
        settings: &ProjectionSettings,
        (passes, keep): (u32, f32),
    ) {
        let start_positions = &start_positions[..positions.len()];
        let embedded = &mut embedded[..positions.len()];
        let limit = settings.slop + keep;
        // The narrow phase marks both bodies of a deep contact, an immovable one too: only a
        // body that moves counts.
        let marked = |c: &ProjectionContact, embedded: &[bool]| {
            (embedded[c.a as usize] && c.inverse_mass_a > 0.0)
                || (embedded[c.b as usize] && c.inverse_mass_b > 0.0)
        };
        // The passes walk the contacts of marked bodies alone, gathered again when a pass
        // marked more: a body that cannot get free (wedged between immovable bodies) costs
        // its own contacts' passes, not the whole world's.
        let gather = |list: &mut Vec<u32>, embedded: &[bool], contacts: &[ProjectionContact]| {
            list.clear();
            let of_marked = contacts.iter().enumerate().filter(|(_, c)| marked(c, embedded));
            list.extend(of_marked.map(|(i, _)| i as u32));
        };
        gather(&mut self.marked, embedded, &self.contacts);
        for _ in 0..passes {
            let (mut pushed, mut spread) = (false, false);
            for &i in &self.marked {
                let c = &self.contacts[i as usize];
                let (a, b) = (c.a as usize, c.b as usize);
                let depth = c.depth_now(positions, start_positions);
                if depth <= limit {
                    continue;
                }
                pushed = true;
                // Only a body that moves can be set into others: never a wall.
                for (i, movable) in [(a, c.inverse_mass_a > 0.0), (b, c.inverse_mass_b > 0.0)] {
                    spread |= movable && !embedded[i];
                    embedded[i] |= movable;
                }
                let correction =
                    (settings.factor * (depth - settings.slop)).min(settings.max_correction);
                let push = c.normal * (correction / c.total);
                positions[a] -= push * c.inverse_mass_a;
                positions[b] += push * c.inverse_mass_b;
            }
            if !pushed {
                break;
            }
            if spread {
                gather(&mut self.marked, embedded, &self.contacts);
            }
        }
        still.clear();
        still.resize(positions.len(), false);
        for c in &self.contacts {
            if marked(c, embedded) && c.depth_now(positions, start_positions) > limit {
                still[c.a as usize] |= c.inverse_mass_a > 0.0;
                still[c.b as usize] |= c.inverse_mass_b > 0.0;
            }
        }
    }

    /// The passes of `run` over the contacts added since the last
    /// [`clear`](Self::clear), in the order they were added.
    pub fn run_added(
        &mut self,
        positions: &mut [Vec2],
        start_positions: &[Vec2],
        settings: &ProjectionSettings,
    ) {
        // Cut to the positions' length, so that a checked index into the positions covers
        // the start positions too.
        let start_positions = &start_positions[..positions.len()];
        for _ in 0..settings.iterations {
            for c in &self.contacts {
                let (a, b) = (c.a as usize, c.b as usize);
                let moved =
                    (positions[b] - start_positions[b]) - (positions[a] - start_positions[a]);
                let depth = c.depth - moved.dot(c.normal);
                // Plain compares instead of f32::max/min (no NaN here): equal results, and
                // the early exit first, as most contacts rest within the slop.
                let excess = depth - settings.slop;
                if excess <= 0.0 {
                    continue;
                }
                let correction = settings.factor * excess;
                let correction = if correction < settings.max_correction {
                    correction
                } else {
                    settings.max_correction
                };
                if correction <= 0.0 {
                    continue;
                }
                let push = c.normal * (correction / c.total);
                positions[a] -= push * c.inverse_mass_a;
                positions[b] += push * c.inverse_mass_b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact(depth: f32) -> SolverContact {
        contact_between(0, 1, Vec2::Y, depth)
    }

    /// A frictionless, inelastic contact between solver bodies `a` and `b`.
    fn contact_between(a: u32, b: u32, normal: Vec2, depth: f32) -> SolverContact {
        SolverContact::new(a, b, normal, depth, Vec2::ZERO, Vec2::ZERO, Vec2::ZERO, 0.0, 0.0, 0.0)
    }

    fn masses(inverse: [f32; 2]) -> [SolverBody; 2] {
        inverse.map(|inverse_mass| SolverBody { inverse_mass, ..SolverBody::default() })
    }

    const SETTINGS: ProjectionSettings =
        ProjectionSettings { iterations: 1, factor: 0.4, slop: 0.5, max_correction: 6.0 };

    #[test]
    fn the_compact_projection_matches_the_reference_to_the_bit() {
        // Bodies with overlaps along a chain and across it, some immovable, several passes.
        let n = 12;
        let bodies: Vec<SolverBody> = (0..n)
            .map(|i| SolverBody {
                inverse_mass: if i % 5 == 0 { 0.0 } else { 1.0 / (1.0 + i as f32) },
                ..SolverBody::default()
            })
            .collect();
        let start: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32 * 9.7, (i % 3) as f32)).collect();
        let moved: Vec<Vec2> =
            start.iter().enumerate().map(|(i, p)| *p + Vec2::new(0.3 * i as f32, -0.2)).collect();
        let contacts: Vec<SolverContact> = (0..n - 1)
            .flat_map(|i| [(i, i + 1), (i, (i + 3) % n)])
            .map(|(a, b)| {
                let normal = (start[b] - start[a]).normalize_or(Vec2::X);
                let depth = 0.5 + (a * 7 % 5) as f32;
                contact_between(a as u32, b as u32, normal, depth)
            })
            .collect();
        let settings = ProjectionSettings { iterations: 4, ..SETTINGS };
        let mut reference = moved.clone();
        project(&contacts, &mut reference, &start, &bodies, &settings);
        let mut fast = moved.clone();
        Projection::default().run(&contacts, &mut fast, &start, &bodies, &settings);
        assert_ne!(reference, moved, "the case corrects something");
        let bits =
            |v: &[Vec2]| v.iter().map(|p| p.to_array().map(f32::to_bits)).collect::<Vec<_>>();
        assert_eq!(bits(&reference), bits(&fast));
    }

    /// D9 of docs/physics.md (R-REST-2): settling takes a column bottom first and lifts
    /// each upper body by its contact's whole excess, so one pass leaves every contact of a
    /// column on an immovable floor at the slop, whatever the masses and the contacts'
    /// order; the step's projection, one pass at the same factor, leaves them deeper.
    #[test]
    fn settling_lifts_a_whole_column_off_its_floor_in_one_pass_r_rest_2() {
        // Body 0 is the floor; bodies 1–5 stand on it, 10 px apart, y up; each contact 2 px
        // deep, listed top first.
        let n = 6;
        let bodies: Vec<SolverBody> = (0..n)
            .map(|i| SolverBody {
                inverse_mass: if i == 0 { 0.0 } else { 1.0 / i as f32 },
                ..SolverBody::default()
            })
            .collect();
        let start: Vec<Vec2> = (0..n).map(|i| Vec2::new(0.0, 10.0 * i as f32)).collect();
        let contacts: Vec<SolverContact> = (0..n - 1)
            .rev()
            .map(|i| contact_between(i as u32, i as u32 + 1, Vec2::Y, 2.0))
            .collect();
        let settings = ProjectionSettings { iterations: 1, factor: 1.0, ..SETTINGS };
        let depths = |projection: &Projection, positions: &[Vec2]| -> Vec<f32> {
            projection
                .contacts
                .iter()
                .map(|c| {
                    let moved = (positions[c.b as usize] - start[c.b as usize])
                        - (positions[c.a as usize] - start[c.a as usize]);
                    c.depth - moved.dot(c.normal)
                })
                .collect()
        };

        let mut settled = start.clone();
        let mut projection = Projection::default();
        for c in &contacts {
            projection.add(c, bodies[c.a as usize].inverse_mass, bodies[c.b as usize].inverse_mass);
        }
        projection.settle(&mut settled, &start, &settings, Some(Vec2::NEG_Y), 0.0);
        for depth in depths(&projection, &settled) {
            assert!((depth - SETTINGS.slop).abs() < 1e-5, "a contact left {depth} px deep");
        }
        assert_eq!(settled[0], start[0], "the floor stays put");
        assert!((settled[5].y - start[5].y - 5.0 * 1.5).abs() < 1e-4, "the top rises 7.5 px");

        let mut projected = start.clone();
        Projection::default().run(&contacts, &mut projected, &start, &bodies, &settings);
        let deepest = depths(&projection, &projected).into_iter().fold(0.0, f32::max);
        assert!(deepest > SETTINGS.slop + 0.5, "one plain pass leaves {deepest} px");
    }

    #[test]
    fn correction_is_split_by_inverse_mass_r_pos_1() {
        let mut positions = [Vec2::ZERO, Vec2::ZERO];
        // A three times heavier than B: A moves a quarter of C, B three quarters.
        project(&[contact(5.5)], &mut positions, &[Vec2::ZERO; 2], &masses([1.0, 3.0]), &SETTINGS);
        let c = 0.4 * (5.5 - 0.5);
        assert!((positions[0].y + 0.25 * c).abs() < 1e-6);
        assert!((positions[1].y - 0.75 * c).abs() < 1e-6);
    }

    #[test]
    fn correction_is_capped_and_leaves_the_slop_r_pos_1() {
        let mut positions = [Vec2::ZERO, Vec2::ZERO];
        project(
            &[contact(100.0)],
            &mut positions,
            &[Vec2::ZERO; 2],
            &masses([0.0, 1.0]),
            &SETTINGS,
        );
        assert!((positions[1].y - 6.0).abs() < 1e-6, "capped at max_position_correction");
        let mut positions = [Vec2::ZERO, Vec2::ZERO];
        project(&[contact(0.5)], &mut positions, &[Vec2::ZERO; 2], &masses([0.0, 1.0]), &SETTINGS);
        assert_eq!(positions[1], Vec2::ZERO, "depth within the slop is left alone");
    }

    #[test]
    fn current_depth_subtracts_the_displacement_since_detection_r_pos_2() {
        // B already moved 3 px out along n since detection: 5.5 − 3 = 2.5 px remain.
        let mut positions = [Vec2::ZERO, Vec2::new(0.0, 3.0)];
        project(&[contact(5.5)], &mut positions, &[Vec2::ZERO; 2], &masses([0.0, 1.0]), &SETTINGS);
        assert!((positions[1].y - (3.0 + 0.4 * 2.0)).abs() < 1e-6);
        // Many passes converge to the slop, never past it.
        let mut positions = [Vec2::ZERO, Vec2::ZERO];
        let many = ProjectionSettings { iterations: 200, ..SETTINGS };
        project(&[contact(5.5)], &mut positions, &[Vec2::ZERO; 2], &masses([0.0, 1.0]), &many);
        assert!((positions[1].y - 5.0).abs() < 1e-3, "{}", positions[1].y);
    }

    #[test]
    fn bodies_set_into_others_are_freed_and_pass_it_on_to_what_they_push_r_rest_4() {
        // D16. Four bodies in a row along x, the wall-like body 3 immovable: 0 is set into 1
        // by 10 px; 1 touches 2 at 0.8 px (within slop + 0.5 px, so not pushed at first);
        // 2 touches the immovable 3 at 0.2 px. Freeing 0 and 1 pushes 1 into 2, which is
        // then set into others too and pushed on; 3 never is.
        let bodies = [1.0, 1.0, 1.0, 0.0]
            .map(|inverse_mass| SolverBody { inverse_mass, ..SolverBody::default() });
        let contacts = [
            contact_between(0, 1, Vec2::X, 10.0),
            contact_between(1, 2, Vec2::X, 0.8),
            contact_between(2, 3, Vec2::X, 0.2),
        ];
        let start = [Vec2::ZERO; 4];
        let mut projection = Projection::default();
        for c in &contacts {
            projection.add(c, bodies[c.a as usize].inverse_mass, bodies[c.b as usize].inverse_mass);
        }
        let limit = SETTINGS.slop + 0.5;
        // From the start, with body 0 set into others: the positions, the marks, `still`.
        let mut free = |passes| {
            let (mut positions, mut embedded, mut still) =
                (start, [true, false, false, false], Vec::new());
            projection.free_embedded(
                &mut positions,
                &start,
                &mut embedded,
                &mut still,
                &SETTINGS,
                (passes, 0.5),
            );
            (positions, embedded, still)
        };
        // No passes: nothing moves, and the deep contact's bodies stay set into others.
        let (positions, _, still) = free(0);
        assert_eq!(positions, start);
        assert_eq!(still, [true, true, false, false]);
        // Thirty passes: every contact within the limit, 2 marked on the way, 3 never.
        let (positions, embedded, still) = free(30);
        for c in &contacts {
            let moved = positions[c.b as usize] - positions[c.a as usize];
            let depth = c.depth - moved.dot(c.normal);
            assert!(depth <= limit, "{c:?} at {positions:?}");
        }
        assert_eq!(embedded, [true, true, true, false]);
        assert_eq!(positions[3], Vec2::ZERO, "the immovable body moved");
        assert_eq!(still, [false; 4], "free bodies stay set into others");
        // One pass is not enough: 0 and 1 stay set into others, and 1, pushed 1.9 px into 2,
        // sets 2 into others too; the pass moves 0 by its half (equal masses) of `factor`
        // times the excess, 0.4 · (10 − 0.5) / 2 = 1.9 px.
        let (positions, _, still) = free(1);
        assert_eq!(still, [true, true, true, false]);
        assert!((positions[0].x + 1.9).abs() < 1e-5, "{positions:?}");
    }
}
