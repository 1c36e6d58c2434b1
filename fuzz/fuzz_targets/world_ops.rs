//! Fuzz target (issue 7, item 4): a world and an arbitrary sequence of operations decoded
//! from the fuzz bytes with `arbitrary`. Every number is either a fraction of a sensible
//! range (so the sequences reach deep states: piles, drags, sleep) or a raw f32 (NaN, ±∞,
//! huge, negative: hostile input that must be refused). Any panic, a NaN, a body outside
//! the world by more than max_wall_penetration, a vanished or duplicated body or an
//! inconsistent sleeping island is a crash.

#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use std::collections::BTreeSet;

use arbitrary::Arbitrary;
use bevy_sandbox_physics::physics::{
    BodyDesc, BodyHandle, BodyKind, Material, ParameterValue, PhysicsConfig, PhysicsError, Shape,
    World,
};
use glam::Vec2;
use libfuzzer_sys::fuzz_target;

/// A number: mostly a fraction of a range, sometimes any f32 at all.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Num {
    Fraction(u16),
    Raw(f32),
}

impl Num {
    fn in_range(self, low: f32, high: f32) -> f32 {
        match self {
            Num::Fraction(f) => low + (high - low) * f32::from(f) / f32::from(u16::MAX),
            Num::Raw(x) => x,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Body {
    circle: bool,
    fixed: bool,
    size: (Num, Num),
    material: (Num, Num, Num),
    at: (Num, Num),
    velocity: (Num, Num),
    angle: Num,
    spin: Num,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Step(u8),
    StepBy(Num),
    Spawn(Body),
    /// Spawn on the centre of body `index`: coincident centres, the middle of a pile.
    SpawnOn(u16, Body),
    Remove(u16),
    RemoveAgain(u16),
    Grab(u16),
    Drag(Num, Num),
    Release(Num, Num),
    PausedMove(Num, Num),
    Teleport(u16, Num, Num),
    SetVelocity(u16, Num, Num),
    SetSpin(u16, Num),
    SetMaterial(u16, Num, Num, Num),
    ToggleGravity,
    /// Sets parameter `index % PARAMETERS.len()` of the config; invalid ones are refused.
    SetParameter(u8, Num, Num),
    Resize(Num, Num),
}

#[derive(Arbitrary, Debug)]
struct Input {
    size: (Num, Num),
    ops: Vec<Op>,
}

/// At most this many bodies, so that one input stays fast.
const MAX_BODIES: usize = 64;

struct Fuzz {
    world: World,
    live: BTreeSet<BodyHandle>,
    removed: Vec<BodyHandle>,
    held: BTreeSet<BodyHandle>,
}

impl Fuzz {
    fn pick(&self, i: u16) -> Option<BodyHandle> {
        let n = self.live.len();
        (n > 0).then(|| self.live.iter().nth(usize::from(i) % n).copied()).flatten()
    }

    fn point(&self, x: Num, y: Num) -> Vec2 {
        let (min, max) = self.world.bounds();
        Vec2::new(x.in_range(min.x, max.x), y.in_range(min.y, max.y))
    }

    fn desc(&self, body: &Body, position: Vec2) -> BodyDesc {
        let max_speed = self.world.config().max_speed;
        let (w, h) = (body.size.0.in_range(12.0, 200.0), body.size.1.in_range(12.0, 200.0));
        BodyDesc {
            shape: if body.circle {
                Shape::Circle { radius: w }
            } else {
                Shape::Rect { half_extents: Vec2::new(w, h) }
            },
            kind: if body.fixed { BodyKind::Static } else { BodyKind::Dynamic },
            material: Material {
                density: body.material.0.in_range(0.01, 100.0),
                friction: body.material.1.in_range(0.0, 2.0),
                restitution: body.material.2.in_range(0.0, 1.0),
            },
            position,
            velocity: Vec2::new(
                body.velocity.0.in_range(-2.0 * max_speed, 2.0 * max_speed),
                body.velocity.1.in_range(-2.0 * max_speed, 2.0 * max_speed),
            ),
            angle: body.angle.in_range(-10.0, 10.0),
            angular_velocity: body.spin.in_range(-500.0, 500.0),
            layers: Default::default(),
            sensor: false,
            collision_events: false,
            gravity_scale: 1.0,
        }
    }

    fn spawn(&mut self, desc: BodyDesc) {
        if self.live.len() >= MAX_BODIES {
            return;
        }
        match self.world.add_body(desc) {
            Ok(h) => assert!(self.live.insert(h), "{h} handed out twice"),
            Err(PhysicsError::Invalid(e)) => assert!(!e.problems.is_empty(), "empty refusal"),
            Err(e) => panic!("add_body: unexpected {e}"),
        }
    }

    fn check(&self, what: &str) {
        if let Err(e) = invariants::check_all(&self.world, &self.live, &self.removed) {
            panic!("after {what}: {e}");
        }
    }

    fn step(&mut self, dt: f32) {
        let before = self.world.state_hash();
        match self.world.step(dt) {
            Ok(()) => self.check("a step"),
            Err(_) => assert_eq!(self.world.state_hash(), before, "a refused step moved the world"),
        }
    }

    fn apply(&mut self, op: &Op) {
        let dt = self.world.config().time_step;
        match op {
            Op::Step(n) => {
                for _ in 0..=(n % 16) {
                    self.step(dt);
                }
            }
            Op::StepBy(x) => self.step(x.in_range(0.0, 0.05)),
            Op::Spawn(body) => {
                let at = self.point(body.at.0, body.at.1);
                self.spawn(self.desc(body, at));
            }
            Op::SpawnOn(i, body) => {
                if let Some(host) = self.pick(*i).and_then(|h| self.world.body(h)) {
                    let (min, max) = self.world.bounds();
                    let at = host.position().clamp(min, max);
                    self.spawn(self.desc(body, at));
                }
            }
            Op::Remove(i) => {
                if let Some(h) = self.pick(*i) {
                    self.world.remove_body(h).expect("removing a live body");
                    self.live.remove(&h);
                    self.held.remove(&h);
                    self.removed.push(h);
                }
            }
            Op::RemoveAgain(i) => {
                if !self.removed.is_empty() {
                    let h = self.removed[usize::from(*i) % self.removed.len()];
                    let result = self.world.remove_body(h);
                    assert!(matches!(result, Err(PhysicsError::StaleHandle(_))), "{h} twice");
                }
            }
            Op::Grab(i) => {
                if let Some(h) = self.pick(*i) {
                    if self.world.grab(h).is_ok() {
                        self.held.insert(h);
                    }
                }
            }
            Op::Drag(x, y) => {
                let target = self.point(*x, *y);
                for &h in &self.held {
                    let _ = self.world.set_drag_target(h, target);
                }
            }
            Op::Release(x, y) => {
                let throw = Vec2::new(x.in_range(-3000.0, 3000.0), y.in_range(-3000.0, 3000.0));
                for h in std::mem::take(&mut self.held) {
                    if self.world.release(h, throw).is_err() {
                        self.held.insert(h);
                    }
                }
            }
            Op::PausedMove(x, y) => {
                let target = self.point(*x, *y);
                for &h in &self.held {
                    let _ = self.world.move_held_directly(h, target);
                }
            }
            Op::Teleport(i, x, y) => {
                if let Some(h) = self.pick(*i) {
                    let _ = self.world.set_position(h, self.point(*x, *y));
                }
            }
            Op::SetVelocity(i, x, y) => {
                if let Some(h) = self.pick(*i) {
                    let v = Vec2::new(x.in_range(-3000.0, 3000.0), y.in_range(-3000.0, 3000.0));
                    let _ = self.world.set_velocity(h, v);
                }
            }
            Op::SetSpin(i, x) => {
                if let Some(h) = self.pick(*i) {
                    let _ = self.world.set_angular_velocity(h, x.in_range(-500.0, 500.0));
                }
            }
            Op::SetMaterial(i, d, f, e) => {
                if let Some(h) = self.pick(*i) {
                    let material = Material {
                        density: d.in_range(0.01, 100.0),
                        friction: f.in_range(0.0, 2.0),
                        restitution: e.in_range(0.0, 1.0),
                    };
                    let _ = self.world.set_material(h, material);
                }
            }
            Op::ToggleGravity => {
                let on = self.world.gravity_enabled();
                self.world.set_gravity_enabled(!on);
            }
            Op::SetParameter(index, x, y) => {
                let parameters = PhysicsConfig::PARAMETERS;
                let parameter = &parameters[usize::from(*index) % parameters.len()];
                let mut config = self.world.config().clone();
                let (low, high) = (parameter.min, parameter.max);
                let value = match (parameter.get)(&config) {
                    ParameterValue::Float(_) => ParameterValue::Float(x.in_range(low, high)),
                    ParameterValue::Count(_) => {
                        ParameterValue::Count(x.in_range(low, high).clamp(0.0, 1.0e9) as u32)
                    }
                    ParameterValue::Switch(s) => ParameterValue::Switch(!s),
                    ParameterValue::Vector(_) => ParameterValue::Vector(Vec2::new(
                        x.in_range(low, high),
                        y.in_range(low, high),
                    )),
                };
                (parameter.set)(&mut config, value);
                let before = self.world.config().clone();
                if let Err(e) = self.world.set_config(config) {
                    assert!(!e.problems.is_empty(), "empty refusal");
                    assert_eq!(self.world.config(), &before, "a refused config was applied");
                }
            }
            Op::Resize(x, y) => {
                let size = Vec2::new(x.in_range(24.0, 3000.0), y.in_range(24.0, 3000.0));
                let _ = self.world.set_bounds(Vec2::ZERO, size);
            }
        }
    }
}

fuzz_target!(|input: Input| {
    let size = Vec2::new(input.size.0.in_range(24.0, 3000.0), input.size.1.in_range(24.0, 3000.0));
    let Ok(world) = World::new(size, PhysicsConfig::default()) else { return };
    let mut fuzz =
        Fuzz { world, live: BTreeSet::new(), removed: Vec::new(), held: BTreeSet::new() };
    for op in input.ops.iter().take(256) {
        fuzz.apply(op);
        invariants::check_finite(&fuzz.world).expect("finite after an operation");
        invariants::check_handles(&fuzz.world, &fuzz.live, &fuzz.removed).expect("handles");
    }
    fuzz.step(fuzz.world.config().time_step);
});
