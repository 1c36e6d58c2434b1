//! The wide kernel against the scalar reference.

use super::*;
use crate::physics::solver::order::SolveOrder;
use crate::physics::solver::scalar::{prepare, solve_in_order, warm_start};

/// xorshift64*: a small deterministic generator, enough for test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `[low, high)`.
    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn vec(&mut self, size: f32) -> Vec2 {
        Vec2::new(self.range(-size, size), self.range(-size, size))
    }
}

/// Random bodies: immovable ones (inverse masses 0, some moving, as a wall never does),
/// boxes (1/I = 0) and discs, with random velocities and masses; body 0 is a disc.
fn random_bodies(rng: &mut Rng, count: usize) -> SolverBodies {
    let mut bodies = SolverBodies::default();
    for i in 0..count {
        let velocity = rng.vec(300.0);
        let angular_velocity = rng.range(-10.0, 10.0);
        let body = match if i == 0 { 3 } else { rng.below(4) } {
            0 => SolverBody { velocity, angular_velocity, ..SolverBody::default() },
            1 => SolverBody {
                velocity,
                angular_velocity: 0.0,
                inverse_mass: 1.0 / rng.range(0.1, 50.0),
                inverse_inertia: 0.0,
            },
            _ => SolverBody {
                velocity,
                angular_velocity,
                inverse_mass: 1.0 / rng.range(0.1, 50.0),
                inverse_inertia: 1.0 / rng.range(1.0, 5000.0),
            },
        };
        let start = (body.velocity + rng.vec(20.0), body.angular_velocity);
        bodies.push(body, start, rng.below(8) == 0);
    }
    bodies
}

/// Random contacts between distinct bodies, with random normals, levers, coefficients
/// and warm-start impulses; `hub` makes body 0 touch every `hub`-th contact, so that
/// more than 64 colours are needed and the overflow path runs too.
fn random_contacts(rng: &mut Rng, bodies: usize, count: usize, hub: usize) -> Vec<SolverContact> {
    (0..count)
        .map(|i| {
            let a = if hub > 0 && i % hub == 0 { 0 } else { rng.below(bodies) };
            let b = (a + 1 + rng.below(bodies - 1)) % bodies;
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let normal = Vec2::new(angle.cos(), angle.sin());
            let mut c = SolverContact::new(
                a as u32,
                b as u32,
                normal,
                rng.range(0.0, 2.0),
                rng.vec(400.0),
                rng.vec(30.0),
                rng.vec(30.0),
                rng.range(0.0, 1.0),
                rng.range(0.0, 1.0),
                rng.range(0.0, 5.0),
            );
            if rng.below(4) != 0 {
                c.normal_impulse = rng.range(0.0, 100.0);
                c.tangent_impulse = rng.range(-30.0, 30.0);
                c.rolling_impulse = rng.range(-30.0, 30.0);
            }
            c
        })
        .collect()
}

/// All bits of a contact's prepared state and impulses.
fn contact_bits(c: &SolverContact) -> [u32; 14] {
    [
        c.normal_levers.0,
        c.normal_levers.1,
        c.tangent_levers.0,
        c.tangent_levers.1,
        c.normal_mass,
        c.tangent_mass,
        c.rolling_mass,
        c.bounce_velocity,
        c.position_bias,
        c.normal_impulse,
        c.restitution_impulse,
        c.tangent_impulse,
        c.rolling_impulse,
        c.friction,
    ]
    .map(f32::to_bits)
}

/// Asserts that the wide path left every body velocity and every contact bit for bit as the
/// reference did.
fn assert_same_bits(
    round: usize,
    (bodies, contacts): (&SolverBodies, &[SolverContact]),
    (reference_bodies, reference_contacts): (&SolverBodies, &[SolverContact]),
) {
    let bits = |b: &SolverBody| [b.velocity.x, b.velocity.y, b.angular_velocity].map(f32::to_bits);
    for (i, (wide, reference)) in bodies.bodies.iter().zip(&reference_bodies.bodies).enumerate() {
        assert_eq!(bits(wide), bits(reference), "round {round}, body {i}");
    }
    for (i, (wide, reference)) in contacts.iter().zip(reference_contacts).enumerate() {
        assert_eq!(contact_bits(wide), contact_bits(reference), "round {round}, contact {i}");
    }
}

/// The world's fused pass equals `warm_start`, then `build`: the same velocities to the
/// bit, the same colours and counts.
#[test]
fn warm_start_and_build_equals_warm_start_then_build() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for (body_count, contact_count, hub) in [(3, 5, 0), (40, 100, 0), (120, 400, 3)] {
        let bodies = random_bodies(&mut rng, body_count);
        let contacts = random_contacts(&mut rng, body_count, contact_count, hub);
        let (mut reference, mut fused) = (bodies.bodies.clone(), bodies.bodies.clone());
        let (mut reference_order, mut fused_order) = (SolveOrder::default(), SolveOrder::default());
        warm_start(&contacts, &mut reference);
        reference_order.build(&contacts, &reference);
        fused_order.warm_start_and_build(&contacts, &mut fused, |_, _, _| {});
        let bits =
            |b: &SolverBody| [b.velocity.x, b.velocity.y, b.angular_velocity].map(f32::to_bits);
        assert!(reference.iter().map(bits).eq(fused.iter().map(bits)));
        assert_eq!(reference_order.colours(), fused_order.colours());
        assert_eq!(reference_order.order(), fused_order.order());
    }
}

/// The wide path against the reference: the same random contact sets, warm started, then
/// [`prepare`] and 8 passes of [`solve_in_order`] over the colour order on one copy, and
/// [`SolveOrder::solve_passes`] (which prepares while it loads the groups) on the other.
/// Each lane performs the scalar operations in the scalar order, so the prepared values,
/// velocities and impulses must be bit-equal (not merely close); the sets cover both
/// group kinds, partly filled groups, immovable bodies shared between lanes, held bodies,
/// bounce targets, the overflow colour, and the rule switches of R-LAB-1 that reach the
/// passes (per-pass clamping, Baumgarte's bias).
#[test]
fn wide_passes_equal_the_reference_bit_for_bit() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut order = SolveOrder::default();
    let shapes = [
        (2, 1, 0),
        (3, 5, 0),
        (10, 7, 0),
        (40, 100, 0),
        (200, 600, 0),
        (120, 400, 3),
        (90, 300, 2),
    ];
    for round in 0..40 {
        let (body_count, contact_count, hub) = shapes[round % shapes.len()];
        let mut bodies = random_bodies(&mut rng, body_count);
        let mut contacts = random_contacts(&mut rng, body_count, contact_count, hub);
        warm_start(&contacts, &mut bodies.bodies);
        order.build(&contacts, &bodies.bodies);

        // Every third round clamps per pass, every other one has Baumgarte's bias.
        let accumulated = round % 3 != 1;
        let rules = if round % 2 == 0 {
            TargetRules::bounces_above(50.0)
        } else {
            TargetRules {
                restitution_threshold: 50.0,
                bias_rate: 48.0,
                slop: 0.5,
                inverse_dt: 120.0,
            }
        };
        let (mut reference_contacts, mut reference_bodies) = (contacts.clone(), bodies.clone());
        prepare(&mut reference_contacts, &reference_bodies, &rules);
        let reference_order = order.order();
        for _ in 0..8 {
            let (contacts, bodies) = (&mut reference_contacts, &mut reference_bodies.bodies);
            solve_in_order(contacts, bodies, &reference_order, accumulated);
        }
        let bounces = order.solve_passes(&mut contacts, &mut bodies, &rules, 8, accumulated);

        assert_same_bits(round, (&bodies, &contacts), (&reference_bodies, &reference_contacts));
        assert_eq!(
            bounces,
            reference_contacts.iter().any(|c| c.bounce_velocity != 0.0),
            "round {round}"
        );
        if hub > 0 {
            let overflow = order.colours().iter().filter(|&&c| c == 64).count();
            assert!(overflow > 0, "round {round}: the hub should overflow 64 colours");
        }
    }
}

/// The unchecked gathers rely on `load` having run to its end (see `WideContacts::solve`).
/// A load that panics (here: counts that claim a contact the list does not have) and is
/// caught must not leave last step's groups, with body indices far beyond the new
/// bodies, to the next `solve`: it leaves no batch at all, and `solve` does nothing.
#[test]
fn a_load_that_panics_leaves_nothing_to_solve() {
    let bodies = |n: usize| {
        let mut set = SolverBodies::default();
        for _ in 0..n {
            let body =
                SolverBody { velocity: Vec2::ONE, inverse_mass: 1.0, ..SolverBody::default() };
            set.push(body, (Vec2::ZERO, 0.0), false);
        }
        set
    };
    let contact = |a, b| {
        SolverContact::new(a, b, Vec2::Y, 1.0, Vec2::ZERO, Vec2::ZERO, Vec2::ZERO, 0.5, 0.0, 0.0)
    };
    let mut wide = WideContacts::default();
    let rules = TargetRules::bounces_above(50.0);
    wide.load(&mut [contact(998, 999)], &bodies(1000), &rules, |_| 0, &[[1, 0], [0, 0]]);
    wide.solve(true);
    let small = bodies(2);
    let load = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wide.load(&mut [], &small, &rules, |_| 0, &[[1, 0], [0, 0]]);
    }));
    assert!(load.is_err(), "counts that do not match the contacts must be refused");
    assert!(wide.batches.is_empty(), "a failed load left {} batches", wide.batches.len());
    wide.solve(true);
    assert_eq!(wide.velocities.len(), 3, "two bodies and the sink");
}

/// Each lane operation of `F4` gives the bits of the same operation on `f32` (the claim
/// `solver::lane` rests on), also where the random contact sets rarely go: signed zeros,
/// subnormals, infinities and NaN, and a negative limit. On x86_64, where `maxps` and
/// `minps` are the selects of `f32`'s `at_least` and `within`; other targets' glam may
/// order signed zeros and NaN differently.
#[cfg(target_arch = "x86_64")]
#[test]
fn f4_lanes_give_the_bits_of_f32() {
    use std::hint::black_box;

    use super::f4::F4;
    use crate::physics::solver::lane::Lane;

    let values = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.3,
        -7.25,
        1e-40,
        f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    let pairs: Vec<(f32, f32)> =
        values.iter().flat_map(|&x| values.iter().map(move |&y| (x, y))).collect();
    type Binary<T> = fn(T, T) -> T;
    let operations: [(&str, Binary<f32>, Binary<F4>); 7] = [
        ("add", |x, y| x + y, |x, y| x + y),
        ("sub", |x, y| x - y, |x, y| x - y),
        ("mul", |x, y| x * y, |x, y| x * y),
        ("neg", |x, _| -x, |x, _| -x),
        ("at_least", Lane::at_least, Lane::at_least),
        ("within", Lane::within, Lane::within),
        ("inverse_or_zero", |x, _| x.inverse_or_zero(), |x, _| x.inverse_or_zero()),
    ];
    for (name, scalar, wide) in operations {
        for lanes in pairs.chunks(LANES) {
            let mut x = [0.0; LANES];
            let mut y = [0.0; LANES];
            for (lane, &(a, b)) in lanes.iter().enumerate() {
                (x[lane], y[lane]) = (a, b);
            }
            let wide = wide(F4::new(black_box(x)), F4::new(black_box(y))).to_array();
            for lane in 0..LANES {
                let scalar = scalar(black_box(x[lane]), black_box(y[lane]));
                assert_eq!(
                    wide[lane].to_bits(),
                    scalar.to_bits(),
                    "{name}({}, {}): wide {} scalar {scalar}",
                    x[lane],
                    y[lane],
                    wide[lane]
                );
            }
        }
    }
}

/// The islands solved again (D1, D10) get the wide passes too: [`SolveOrder::solve_subset`]
/// over a random subset of prepared contacts equals 8 passes of [`solve_in_order`] over the
/// subset in list order, bit for bit, and leaves the other contacts alone. The subsets
/// include the empty one, every contact, and contact sets around a hub body, whose chain of
/// levels is as long as its contacts (the colouring would overflow 64 colours there).
#[test]
fn wide_passes_over_a_subset_equal_the_list_order_bit_for_bit() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let mut order = SolveOrder::default();
    let shapes = [(3, 5, 0), (40, 100, 0), (200, 600, 0), (120, 400, 3)];
    for round in 0..24 {
        let (body_count, contact_count, hub) = shapes[round % shapes.len()];
        let mut bodies = random_bodies(&mut rng, body_count);
        let mut contacts = random_contacts(&mut rng, body_count, contact_count, hub);
        warm_start(&contacts, &mut bodies.bodies);
        prepare(&mut contacts, &bodies, &TargetRules::bounces_above(50.0));
        let subset: Vec<u32> = match round % 6 {
            0 => Vec::new(),
            1 => (0..contact_count as u32).collect(),
            keep => (0..contact_count as u32).filter(|_| rng.below(keep) == 0).collect(),
        };
        let accumulated = round % 3 != 1;
        let (mut reference_contacts, mut reference_bodies) = (contacts.clone(), bodies.clone());
        order.solve_subset(&mut contacts, &mut bodies.bodies, &subset, 8, accumulated);
        for _ in 0..8 {
            let (contacts, bodies) = (&mut reference_contacts, &mut reference_bodies.bodies);
            solve_in_order(contacts, bodies, &subset, accumulated);
        }

        assert_same_bits(round, (&bodies, &contacts), (&reference_bodies, &reference_contacts));
    }
}
