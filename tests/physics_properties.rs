//! Property tests (issue 7, item 1): random worlds of up to 200 bodies of random shape, size
//! (from MIN_BODY_SIZE up), material and velocity (up to twice `max_speed`), driven by random
//! operation sequences: spawn (also into the middle of a pile, on an existing centre), delete,
//! grab, drag, throw, release, paused moves, teleport, velocity changes, gravity toggles,
//! config changes within the valid ranges and resizes. The invariants of
//! `tests/invariants/mod.rs` are checked after every single step.
//!
//! Case counts keep the suite fast in CI (dev profile, two cores, about 5 s). One run checks
//! 64 worlds with about 1,800 operations and 12,000 steps for the invariants, 48 worlds with
//! about 6,000 steps for the energy balance and 48 worlds with about 7,000 steps for
//! momentum. `PROPTEST_CASES=n` runs n cases of each instead, for a longer hunt. A failure
//! shrinks to a minimal world and sequence; each defect found became a named regression test
//! in `physics_regressions.rs`.

mod invariants;

use std::collections::BTreeSet;

use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, BodyKind, BodyOrWall, CollisionEvent, CollisionLayers, Material,
    ParameterValue, PhysicsConfig, PhysicsError, Shape, World, tunnelling_speed_limit,
};
use glam::Vec2;
use invariants::*;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Cases per property: `PROPTEST_CASES` if set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// ------------------------------------------------------------------------------------------
// Generators
// ------------------------------------------------------------------------------------------

/// A body in world-independent terms: position as a fraction of the world, velocity as a
/// multiple of `max_speed` (up to ±2, so some start beyond it and are clamped).
#[derive(Clone, Debug)]
struct BodySpec {
    circle: bool,
    half: Vec2,
    material: Material,
    at: Vec2,
    velocity: Vec2,
    angle: f32,
    spin: f32,
    fixed: bool,
}

impl BodySpec {
    fn desc(&self, position: Vec2, max_speed: f32) -> BodyDesc {
        let shape = if self.circle {
            Shape::Circle { radius: self.half.x }
        } else {
            Shape::Rect { half_extents: self.half }
        };
        BodyDesc {
            shape,
            kind: if self.fixed { BodyKind::Static } else { BodyKind::Dynamic },
            material: self.material,
            position,
            velocity: self.velocity * max_speed,
            angle: self.angle,
            angular_velocity: self.spin * max_speed / 12.0,
            layers: Default::default(),
            sensor: false,
            collision_events: false,
            gravity_scale: 1.0,
        }
    }
}

fn size() -> impl Strategy<Value = f32> {
    prop_oneof![8 => 12.0f32..60.0, 1 => 12.0f32..400.0]
}

fn material() -> impl Strategy<Value = Material> {
    let presets = Material::PRESETS.map(|(_, m)| m).to_vec();
    prop_oneof![
        3 => proptest::sample::select(presets),
        1 => (0.01f32..=1.0e4, 0.0f32..=2.0, 0.0f32..=1.0).prop_map(|(density, friction, restitution)| {
            Material { density, friction, restitution }
        }),
    ]
}

fn unit2() -> impl Strategy<Value = Vec2> {
    (0.0f32..=1.0, 0.0f32..=1.0).prop_map(|(x, y)| Vec2::new(x, y))
}

fn signed2(scale: f32) -> impl Strategy<Value = Vec2> {
    (-scale..=scale, -scale..=scale).prop_map(|(x, y)| Vec2::new(x, y))
}

fn body_spec(static_share: f64) -> impl Strategy<Value = BodySpec> {
    (
        any::<bool>(),
        size(),
        size(),
        material(),
        unit2(),
        signed2(2.0),
        -10.0f32..10.0,
        -2.0f32..2.0,
        proptest::bool::weighted(static_share),
    )
        .prop_map(|(circle, w, h, material, at, velocity, angle, spin, fixed)| BodySpec {
            circle,
            half: Vec2::new(w, h),
            material,
            at,
            velocity,
            angle,
            spin,
            fixed,
        })
}

/// A valid config: each field uniform in its `PARAMETERS` range, then the derived limits of
/// §10, §12 and §13 enforced (max_speed within the tunnelling limit, the brake margin above
/// max_speed·dt, drag_rate·dt ≤ 1).
fn valid_config() -> impl Strategy<Value = PhysicsConfig> {
    let n = PhysicsConfig::PARAMETERS.len();
    proptest::collection::vec((0.0f32..=1.0, 0.0f32..=1.0), n).prop_map(|units| {
        let mut c = PhysicsConfig::default();
        for (parameter, (u, v)) in PhysicsConfig::PARAMETERS.iter().zip(units) {
            let lerp = |u: f32| parameter.min + u * (parameter.max - parameter.min);
            let value = match (parameter.get)(&c) {
                ParameterValue::Float(_) => ParameterValue::Float(lerp(u)),
                ParameterValue::Count(_) => ParameterValue::Count(lerp(u).round() as u32),
                ParameterValue::Switch(_) => ParameterValue::Switch(u < 0.5),
                ParameterValue::Vector(_) => ParameterValue::Vector(Vec2::new(lerp(u), lerp(v))),
                ParameterValue::Choice(_) => ParameterValue::Choice(lerp(u).round() as u32),
            };
            (parameter.set)(&mut c, value);
        }
        // The properties are claims about the spec's rules: the rule switches of R-LAB-1
        // (which switch rules off to show what fails) stay on, except sleeping, which the
        // properties have always varied.
        let mut c = PhysicsConfig { sleeping_enabled: c.sleeping_enabled, ..c.with_spec_rules() };
        c.max_speed = c.max_speed.min(tunnelling_speed_limit(c.time_step));
        let reach = c.max_speed * c.time_step;
        if c.max_wall_penetration <= reach {
            c.max_wall_penetration = reach * 1.01 + 0.01;
        }
        c.drag_rate = c.drag_rate.min(1.0 / c.time_step);
        c
    })
}

/// Half the configs are the defaults (the sandbox as shipped), half random valid ones.
fn start_config() -> impl Strategy<Value = PhysicsConfig> {
    prop_oneof![Just(PhysicsConfig::default()), valid_config()]
}

#[derive(Clone, Debug)]
enum Op {
    /// 1 to 30 steps, checking the invariants after each.
    Step(u8),
    Spawn(BodySpec),
    /// A body spawned on the centre of an existing one (coincident centres, R-COL-3), or a
    /// little off it: the middle of a pile.
    SpawnInPile(usize, Vec2, BodySpec),
    Remove(usize),
    /// Removing an already removed handle again.
    RemoveAgain(usize),
    Grab(usize),
    Drag(Vec2),
    Throw(Vec2),
    /// A drag while paused: the held bodies jump to the target (R-DRAG-4).
    PausedMove(Vec2),
    Teleport(usize, Vec2),
    SetVelocity(usize, Vec2),
    ToggleGravity,
    Configure(PhysicsConfig),
    Resize(Vec2),
    /// Layers from two of four bits each (R-GAME-3).
    SetLayers(usize, u32, u32),
    SetSensor(usize, bool),
    SetCollisionEvents(usize, bool),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => (1u8..=30).prop_map(Op::Step),
        2 => body_spec(0.1).prop_map(Op::Spawn),
        2 => (any::<usize>(), signed2(1.0), body_spec(0.0))
            .prop_map(|(i, off, spec)| Op::SpawnInPile(i, off, spec)),
        2 => any::<usize>().prop_map(Op::Remove),
        1 => any::<usize>().prop_map(Op::RemoveAgain),
        2 => any::<usize>().prop_map(Op::Grab),
        2 => unit2().prop_map(Op::Drag),
        1 => signed2(3000.0).prop_map(Op::Throw),
        1 => unit2().prop_map(Op::PausedMove),
        1 => (any::<usize>(), unit2()).prop_map(|(i, at)| Op::Teleport(i, at)),
        1 => (any::<usize>(), signed2(3000.0)).prop_map(|(i, v)| Op::SetVelocity(i, v)),
        1 => Just(Op::ToggleGravity),
        1 => valid_config().prop_map(Op::Configure),
        1 => (24.0f32..2400.0, 24.0f32..2400.0).prop_map(|(x, y)| Op::Resize(Vec2::new(x, y))),
        1 => (any::<usize>(), 0u32..16, 0u32..16).prop_map(|(i, m, f)| Op::SetLayers(i, m, f)),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(i, on)| Op::SetSensor(i, on)),
        2 => (any::<usize>(), any::<bool>()).prop_map(|(i, on)| Op::SetCollisionEvents(i, on)),
    ]
}

fn world_size() -> impl Strategy<Value = Vec2> {
    (200.0f32..2400.0, 200.0f32..2400.0).prop_map(|(x, y)| Vec2::new(x, y))
}

// ------------------------------------------------------------------------------------------
// The model: what was added minus what was removed, and who is held
// ------------------------------------------------------------------------------------------

fn fail(message: impl Into<String>) -> TestCaseError {
    TestCaseError::fail(message.into())
}

struct Session {
    world: World,
    live: BTreeSet<BodyHandle>,
    removed: Vec<BodyHandle>,
    held: BTreeSet<BodyHandle>,
    steps: usize,
    /// The reported pairs started and not yet ended (R-GAME-1).
    touching: BTreeSet<(BodyHandle, BodyOrWall)>,
}

impl Session {
    fn new(size: Vec2, config: PhysicsConfig, bodies: &[BodySpec]) -> Result<Self, TestCaseError> {
        let world = World::new(size, config).map_err(|e| fail(format!("valid world: {e}")))?;
        let mut session = Session {
            world,
            live: BTreeSet::new(),
            removed: Vec::new(),
            held: BTreeSet::new(),
            steps: 0,
            touching: BTreeSet::new(),
        };
        for spec in bodies {
            session.spawn_at(spec, spec.at)?;
        }
        Ok(session)
    }

    fn point(&self, at: Vec2) -> Vec2 {
        let (min, max) = self.world.bounds();
        min + at * (max - min)
    }

    fn pick(&self, i: usize) -> Option<BodyHandle> {
        (!self.live.is_empty()).then(|| self.live.iter().nth(i % self.live.len()).copied())?
    }

    fn spawn(&mut self, spec: &BodySpec, position: Vec2) -> Result<(), TestCaseError> {
        let desc = spec.desc(position, self.world.config().max_speed);
        let handle = self.world.add_body(desc).map_err(|e| fail(format!("{desc:?}: {e}")))?;
        if !self.live.insert(handle) {
            return Err(fail(format!("{handle} handed out twice")));
        }
        Ok(())
    }

    fn spawn_at(&mut self, spec: &BodySpec, at: Vec2) -> Result<(), TestCaseError> {
        self.spawn(spec, self.point(at))
    }

    fn apply(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match op {
            Op::Step(n) => {
                for _ in 0..*n {
                    self.step()?;
                }
            }
            Op::Spawn(spec) => self.spawn_at(spec, spec.at)?,
            Op::SpawnInPile(i, offset, spec) => {
                let Some(target) = self.pick(*i) else { return Ok(()) };
                let (min, max) = self.world.bounds();
                let centre = self.world.body(target).map(|b| b.position()).unwrap_or(min);
                // Half of them exactly on the centre (coincident), half within ±1 px.
                let off = if offset.x > 0.0 { *offset } else { Vec2::ZERO };
                self.spawn(spec, (centre + off).clamp(min, max))?;
            }
            Op::Remove(i) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                self.world.remove_body(h).map_err(|e| fail(format!("remove {h}: {e}")))?;
                self.live.remove(&h);
                self.held.remove(&h);
                self.removed.push(h);
            }
            Op::RemoveAgain(i) => {
                if self.removed.is_empty() {
                    return Ok(());
                }
                let h = self.removed[i % self.removed.len()];
                let result = self.world.remove_body(h);
                prop_assert!(
                    matches!(result, Err(PhysicsError::StaleHandle(s)) if s == h),
                    "removing {} twice gave {:?}",
                    h,
                    result.map(|_| ())
                );
            }
            Op::Grab(i) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                let dynamic = self.world.body(h).is_some_and(|b| b.is_dynamic());
                match self.world.grab(h) {
                    Ok(()) if dynamic => {
                        self.held.insert(h);
                    }
                    Err(PhysicsError::NotDynamic(_)) if !dynamic => {}
                    other => return Err(fail(format!("grab {h} (dynamic {dynamic}): {other:?}"))),
                }
            }
            Op::Drag(at) => {
                let target = self.point(*at);
                for &h in &self.held {
                    self.world
                        .set_drag_target(h, target)
                        .map_err(|e| fail(format!("drag: {e}")))?;
                }
            }
            Op::Throw(velocity) => {
                for h in std::mem::take(&mut self.held) {
                    self.world.release(h, *velocity).map_err(|e| fail(format!("throw: {e}")))?;
                    let speed = self.world.body(h).map_or(0.0, |b| b.velocity().length());
                    prop_assert!(speed <= self.world.config().max_speed * (1.0 + 1e-5));
                }
            }
            Op::PausedMove(at) => {
                let target = self.point(*at);
                for &h in &self.held {
                    self.world
                        .move_held_directly(h, target)
                        .map_err(|e| fail(format!("paused move: {e}")))?;
                }
            }
            Op::Teleport(i, at) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                let to = self.point(*at);
                self.world.set_position(h, to).map_err(|e| fail(format!("teleport {h}: {e}")))?;
            }
            Op::SetVelocity(i, v) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                let dynamic = self.world.body(h).is_some_and(|b| b.is_dynamic());
                match self.world.set_velocity(h, *v) {
                    Ok(()) if dynamic => {}
                    Err(PhysicsError::NotDynamic(_)) if !dynamic => {}
                    other => return Err(fail(format!("set_velocity {h}: {other:?}"))),
                }
            }
            Op::ToggleGravity => {
                let on = self.world.gravity_enabled();
                self.world.set_gravity_enabled(!on);
            }
            Op::Configure(config) => {
                self.world
                    .set_config(config.clone())
                    .map_err(|e| fail(format!("valid config: {e}")))?;
            }
            Op::Resize(size) => {
                self.world
                    .set_bounds(Vec2::ZERO, *size)
                    .map_err(|e| fail(format!("resize: {e}")))?;
            }
            Op::SetLayers(i, memberships, filters) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                let layers = CollisionLayers::new(*memberships, *filters);
                self.world.set_layers(h, layers).map_err(|e| fail(format!("layers {h}: {e}")))?;
            }
            Op::SetSensor(i, on) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                self.world.set_sensor(h, *on).map_err(|e| fail(format!("sensor {h}: {e}")))?;
            }
            Op::SetCollisionEvents(i, on) => {
                let Some(h) = self.pick(*i) else { return Ok(()) };
                let result = self.world.set_collision_events(h, *on);
                result.map_err(|e| fail(format!("events {h}: {e}")))?;
            }
        }
        Ok(())
    }

    fn step(&mut self) -> Result<(), TestCaseError> {
        let dt = self.world.config().time_step;
        self.world.step(dt).map_err(|e| fail(format!("step {}: {e}", self.steps)))?;
        self.steps += 1;
        check_all(&self.world, &self.live, &self.removed)
            .map_err(|e| fail(format!("after step {}: {e}", self.steps)))?;
        self.check_events()
    }

    /// R-GAME-1: each pair's events alternate, started first; after a step no started pair
    /// names a removed body (its pairs end in the step after the removal).
    fn check_events(&mut self) -> Result<(), TestCaseError> {
        for event in self.world.collision_events() {
            let pair = event.pair();
            let fresh = match event {
                CollisionEvent::Started { .. } => self.touching.insert(pair),
                CollisionEvent::Ended { .. } => self.touching.remove(&pair),
            };
            if !fresh {
                return Err(fail(format!("step {}: {event:?} out of turn", self.steps)));
            }
        }
        let live = |pair: &(BodyHandle, BodyOrWall)| {
            self.live.contains(&pair.0)
                && !matches!(pair.1, BodyOrWall::Body(b) if !self.live.contains(&b))
        };
        match self.touching.iter().find(|pair| !live(pair)) {
            Some(pair) => Err(fail(format!("step {}: {pair:?} never ended", self.steps))),
            None => Ok(()),
        }
    }
}

// ------------------------------------------------------------------------------------------
// The properties
// ------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(cases(64)))]

    /// Issue 7: after every step of any operation sequence the state is finite, no dynamic
    /// body is more than max_wall_penetration outside the world (R-POS-3), the handles are
    /// exactly those added minus those removed, and sleep is consistent (R-SLP-3, R-SLP-4).
    #[test]
    fn random_worlds_and_operations_keep_every_invariant(
        size in world_size(),
        config in start_config(),
        bodies in proptest::collection::vec(body_spec(0.1), 0..=200),
        ops in proptest::collection::vec(op(), 1..60),
    ) {
        let mut session = Session::new(size, config, &bodies)?;
        // Before the first step only the bookkeeping holds: a body spawned at the edge may
        // stick out until the step's walls and brake act on it.
        check_handles(&session.world, &session.live, &session.removed).map_err(fail)?;
        check_finite(&session.world).map_err(fail)?;
        for op in &ops {
            session.apply(op)?;
        }
        // At least one step, so the properties were checked on a stepped world.
        session.step()?;
        prop_assert!(session.steps >= 1);
    }
}

// ------------------------------------------------------------------------------------------
// Energy and momentum
// ------------------------------------------------------------------------------------------

/// Bodies of 12 to 40 px on a grid of 84 px cells: nothing overlaps at the start, so no
/// projection has to pay for a spawn.
fn grid_world(
    size: Vec2,
    config: PhysicsConfig,
    bodies: &[BodySpec],
) -> Result<Session, TestCaseError> {
    let cell = 84.0;
    let columns = ((size.x / cell).floor() as usize).max(1);
    let rows = ((size.y / cell).floor() as usize).max(1);
    let mut session = Session::new(size, config, &[])?;
    for (i, spec) in bodies.iter().take(columns * rows).enumerate() {
        let centre = Vec2::new((i % columns) as f32 + 0.5, (i / columns) as f32 + 0.5) * cell;
        let spec = BodySpec {
            half: spec.half.clamp(Vec2::splat(12.0), Vec2::splat(40.0)),
            ..spec.clone()
        };
        session.spawn(&spec, centre)?;
    }
    Ok(session)
}

#[derive(Clone, Debug)]
enum QuietOp {
    Step(u8),
    Remove(usize),
    ToggleGravity,
}

fn quiet_op() -> impl Strategy<Value = QuietOp> {
    prop_oneof![
        12 => (1u8..=30).prop_map(QuietOp::Step),
        1 => any::<usize>().prop_map(QuietOp::Remove),
        1 => Just(QuietOp::ToggleGravity),
    ]
}

/// Makes every body dynamic and frictionless, its size clamped to 12..40 px so that the
/// 84 px grid keeps them apart at the start. Density and restitution stay random: densities
/// over six orders of magnitude (mass ratios far beyond what 8 Gauss-Seidel passes can
/// converge) and restitution up to 1.
fn dynamic_and_apart(bodies: Vec<BodySpec>) -> Vec<BodySpec> {
    bodies
        .into_iter()
        .map(|mut b| {
            b.half = b.half.clamp(Vec2::splat(12.0), Vec2::splat(40.0));
            b.fixed = false;
            b.material.friction = 0.0;
            b
        })
        .collect()
}

/// The energy property of `energy_never_grows_without_drag_or_spawn`: `ops` run on a grid of
/// `bodies`, each step checked; with `warm_starting` false every step starts from zero
/// impulses.
fn energy_never_grows(
    size: Vec2,
    config: PhysicsConfig,
    bodies: Vec<BodySpec>,
    ops: &[QuietOp],
    gravity_on: bool,
    warm_starting: bool,
) -> Result<(), TestCaseError> {
    // The projection must be on: without it the emergency brake does its work and may
    // lift a body by up to max_speed·dt per step (R-POS-3 keeps the brake for extremes).
    let config = PhysicsConfig {
        position_iterations: config.position_iterations.max(1),
        position_correction_factor: config.position_correction_factor.max(0.1),
        max_position_correction: config.max_position_correction.max(1.0),
        rolling_resistance: 0.0,
        wall_friction: 0.0,
        ..config
    };
    let dt = f64::from(config.time_step);
    let mut session = grid_world(size, config, &bodies)?;
    session.world.set_gravity_enabled(gravity_on);
    for op in ops {
        match op {
            QuietOp::Step(n) => {
                for _ in 0..*n {
                    if !warm_starting {
                        session.world.forget_contact_impulses();
                    }
                    let before = integrator_energy(&session.world);
                    let start = positions(&session.world);
                    let kinetic = session.world.kinetic_energy();
                    // f32 positions of a few hundred px round to ~1e-4 px. And a body
                    // leaving a support at v < |g|·dt at the step start is pulled back
                    // into it by gravity within the step and stopped there: the
                    // integrator's energy grows by ½·m·v·(|g|·dt − v) ≤ ⅛·m·|g|²·dt².
                    let g_dt = f64::from(session.world.config().gravity.length()) * dt;
                    let rounding = 1e-3 * kinetic
                        + 0.01 * weight(&session.world)
                        + 0.125 * weight(&session.world) * g_dt * dt;
                    session.step()?;
                    let after = integrator_energy(&session.world);
                    let lifted = projection_work(&session.world, &start);
                    if session.world.stats().braked > 0 {
                        // The emergency brake (R-POS-3, for worlds too full or too small
                        // for their bodies) puts a body back at 12 px inside the wall
                        // whatever that costs, and changes its velocity after the
                        // integration: by design outside this balance.
                        continue;
                    }
                    prop_assert!(
                        after - before - lifted <= rounding,
                        "step {}: the impulses and the integration raised the energy from \
                         {} to {} (by {} > {}, projection's share {} taken off)",
                        session.steps,
                        before,
                        after,
                        after - before - lifted,
                        rounding,
                        lifted
                    );
                }
            }
            QuietOp::Remove(i) => session.apply(&Op::Remove(*i))?,
            QuietOp::ToggleGravity => session.apply(&Op::ToggleGravity)?,
        }
    }
    Ok(())
}

/// The bodies' masses (area × density) as `BodySpec::desc` makes them.
fn mass(b: &BodySpec) -> f32 {
    let area = if b.circle {
        std::f32::consts::PI * b.half.x * b.half.x
    } else {
        4.0 * b.half.x * b.half.y
    };
    area * b.material.density
}

/// Lowers densities until no body is more than `ratio` times as heavy as the lightest.
fn within_mass_ratio(bodies: Vec<BodySpec>, ratio: f32) -> Vec<BodySpec> {
    let lightest = bodies.iter().map(mass).fold(f32::INFINITY, f32::min);
    bodies
        .into_iter()
        .map(|mut b| {
            let limit = lightest * ratio;
            if mass(&b) > limit {
                b.material.density *= limit / mass(&b) * 0.999;
            }
            b
        })
        .collect()
}

/// Σ m·|g| of the dynamic bodies: the energy of lifting all of them by 1 px.
fn weight(world: &World) -> f64 {
    if !world.gravity_enabled() {
        return 0.0;
    }
    let g = f64::from(world.config().gravity.length());
    world.bodies().filter(|(_, b)| b.is_dynamic()).map(|(_, b)| f64::from(b.mass()) * g).sum()
}

proptest! {
    #![proptest_config(config(cases(48)))]

    /// Issue 7: with e ≤ 1, no drag and no spawn, total mechanical energy never grows by
    /// more than the stated tolerance in one step. Measured as the integrator's own energy,
    /// kinetic + potential + ½·dt·Σ m·(g·v) (`integrator_energy`, derived there): plain
    /// kinetic + potential rises by up to m·|g|·|v|·dt in every honest bounce step of
    /// semi-implicit Euler (it fell by as much during the flight), which no tolerance
    /// small enough to catch a defect could absorb. Tolerances, stated at the asserts: the
    /// f32 rounding of kinetic energy and positions, and a body stopped on a support it was
    /// leaving slower than |g|·dt (at most ⅛·m·|g|²·dt²).
    ///
    /// Any density (mass ratios far beyond what 8 Gauss-Seidel passes converge), restitution
    /// up to 1 for bodies and walls, each step from zero impulses (warm starting is
    /// `energy_never_grows_with_warm_starting_r_rest_1`). Before the bounces got their own
    /// pass and the bounce guard (`solver::restitution::EnergyGuard`), per-contact bounce
    /// targets broke it (two of the regression tests in `physics_regressions.rs`) and it held
    /// only for equal, inelastic masses. Still excluded, an open finding of issue 7:
    /// * friction and rolling resistance: their bounds μ·P_n and μ_r·r·P_n shrink when a
    ///   later pass lowers P_n, and the clamp then gives back some of the sliding or spin it
    ///   had stopped (up to 0.3 % of the kinetic energy per step in jammed piles of very
    ///   unequal masses; R-SI-3 prescribes bounds for the current P_n).
    ///
    /// The step's position correction is measured apart (`projection_work`) and taken off:
    /// it lifts what the solver let sink, by up to position_iterations × the correction cap
    /// per contact, which in a tall pile at dt = 1/30 s is tens of px in one step. Steps in
    /// which the emergency brake acted are skipped (see there). What is asserted is the
    /// claim of the solver (`solver/`): the impulses, bounces and integration add no energy beyond
    /// the tolerances stated at the assert.
    #[test]
    fn energy_never_grows_without_drag_or_spawn(
        size in world_size(),
        config in start_config(),
        bodies in proptest::collection::vec(body_spec(0.0), 0..=200),
        ops in proptest::collection::vec(quiet_op(), 1..20),
        gravity_on in any::<bool>(),
    ) {
        energy_never_grows(size, config, dynamic_and_apart(bodies), &ops, gravity_on, false)?;
    }

    /// R-REST-1 (issue 14): the property above with warm starting on, for mass ratios up to
    /// 100 : 1 (densities cut so that no body is more than 100 times as heavy as the
    /// lightest), gravity off, the same tolerances. D10 (docs/physics.md): an island whose
    /// warm start raised its energy is solved again with the warm start around the bodies
    /// that gained scaled down, and, if it still gained, once more from zero impulses.
    /// Without that last solve this found gains of 0.2–4 % in one step in dense piles of
    /// 100 : 1 bodies (+1.3 % at step 71 of the first failing case of 3,000). Under gravity
    /// a warm start carries weight and D10 does not act, so gravity stays off here.
    #[test]
    fn energy_never_grows_with_warm_starting_r_rest_1(
        size in world_size(),
        config in start_config(),
        bodies in proptest::collection::vec(body_spec(0.0), 0..=200),
        ops in proptest::collection::vec(quiet_op(), 1..20),
        gravity_on in any::<bool>(),
    ) {
        let config = PhysicsConfig { warm_starting: true, ..config };
        let bodies = within_mass_ratio(dynamic_and_apart(bodies), 100.0);
        let _ = gravity_on;
        // Gravity stays off: D10 acts only without gravity.
        let ops: Vec<QuietOp> = ops
            .into_iter()
            .map(|op| if matches!(op, QuietOp::ToggleGravity) { QuietOp::Step(1) } else { op })
            .collect();
        energy_never_grows(size, config, bodies, &ops, false, true)?;
    }

    /// Issue 7: with gravity off, the walls far away and no friction, total linear momentum
    /// is conserved: every impulse acts equally and oppositely on two bodies, and the
    /// projection and rolling resistance change no linear velocity. Tolerance: f32 rounding,
    /// 1e-4 of Σ m·|v|. Exceptions by design: a step in which the speed clamp
    /// (R-TUN-1) cut a body is skipped (the clamp removes momentum), and sleep is off (falling
    /// asleep zeroes a slow body's velocity). Bodies are dynamic (a static body is a wall).
    #[test]
    fn momentum_is_conserved_without_gravity_walls_or_friction(
        config in start_config(),
        bodies in proptest::collection::vec(body_spec(0.0), 0..=200),
        steps in 1usize..300,
    ) {
        let config = PhysicsConfig { sleeping_enabled: false, ..config };
        // A 40,000 px world with the bodies in its middle: at most max_speed/4 for 2.5 s
        // stays 10,000 px clear of the walls.
        let mut session = Session::new(Vec2::splat(40_000.0), config, &[])?;
        session.world.set_gravity_enabled(false);
        let bodies: Vec<BodySpec> = bodies
            .into_iter()
            .map(|b| BodySpec {
                material: Material { friction: 0.0, ..b.material },
                velocity: b.velocity * 0.125,
                fixed: false,
                ..b
            })
            .collect();
        for (i, spec) in bodies.iter().enumerate() {
            // A 15 × 14 grid of 90 px cells, bodies up to 400 px: some start overlapping.
            let cell = Vec2::new((i % 15) as f32, (i / 15) as f32) * 90.0;
            session.spawn(spec, Vec2::splat(19_300.0) + cell)?;
        }
        let max_speed = session.world.config().max_speed;
        for _ in 0..steps {
            let before = momentum(&session.world);
            let scale = momentum_scale(&session.world);
            session.step()?;
            let clamped = session.world.bodies().any(|(_, b)| b.velocity().length() >= max_speed * 0.999);
            prop_assert!(session.world.stats().wall_contacts == 0, "the walls were reached");
            if clamped {
                continue;
            }
            let after = momentum(&session.world);
            let drift = ((after.0 - before.0).powi(2) + (after.1 - before.1).powi(2)).sqrt();
            prop_assert!(
                drift <= 1e-4 * scale.max(momentum_scale(&session.world)) + 1e-6,
                "step {}: momentum {:?} -> {:?}", session.steps, before, after
            );
        }
    }
}
