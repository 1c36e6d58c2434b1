//! Bodies: shape, material, mass and inertia (§2), and the descriptions users add them from.
//!
//! Mass is area × density, so a larger body of the same material is heavier. A circle of
//! radius r is a homogeneous disc: slicing it into rings of radius s and mass
//! `dm = m/(π r²) · 2π s ds`, each contributing `s² dm`, gives
//! `I = (2m/r²) ∫₀ʳ s³ ds = m r²/2`. Rectangles are axis-aligned and never turn: their
//! inverse inertia is 0, so no angular impulse can rotate them (R-BODY-1).
//!
//! The engine stores `1/m` and `1/I`. Static bodies and walls have `1/m = 0`, which lets them
//! go through the same formulas as moving bodies: an impulse P changes a velocity by `P/m`,
//! which is 0 for them (R-BODY-2).

use std::f32::consts::PI;
use std::fmt;

use glam::Vec2;
// The reflection traits the `bevy` feature's derives name (see the type's docs).
#[cfg(feature = "bevy")]
use bevy::prelude::{ReflectComponent, ReflectDefault, ReflectDeserialize, ReflectSerialize};

use super::config::{FieldError, MAX_BODY_SIZE, MIN_BODY_SIZE};

/// A stable, generational reference to a body in a [`World`](super::World).
///
/// A handle stays valid until its body is removed; after that it is stale and every call
/// that takes it returns [`PhysicsError::StaleHandle`](super::PhysicsError::StaleHandle),
/// even when the slot is reused by a new body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyHandle {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl BodyHandle {
    /// The handle's index: dense (below the number of bodies ever stored at once) and
    /// reused after a removal, with the next generation. It names the body, not where the
    /// world stores it, which may change from step to step.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How often the index had been used and freed before this handle was issued.
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// Packs the handle into one number (generation in the high half).
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    /// The handle packed by [`to_bits`](Self::to_bits).
    pub(crate) fn from_bits(bits: u64) -> Self {
        BodyHandle { index: bits as u32, generation: (bits >> 32) as u32 }
    }
}

impl fmt::Display for BodyHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "body {}v{}", self.index, self.generation)
    }
}

/// The shape of a body: a circle or an axis-aligned rectangle (§2).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A disc of this radius, px.
    Circle {
        /// Radius in px, at least [`MIN_BODY_SIZE`].
        radius: f32,
    },
    /// An axis-aligned rectangle with these half extents, px. It never rotates.
    Rect {
        /// Half width and half height in px, each at least [`MIN_BODY_SIZE`].
        half_extents: Vec2,
    },
}

impl Shape {
    /// A circle of radius `radius`.
    pub fn circle(radius: f32) -> Self {
        Shape::Circle { radius }
    }

    /// A rectangle of `width` × `height` (full sizes).
    pub fn rect(width: f32, height: f32) -> Self {
        Shape::Rect { half_extents: Vec2::new(width, height) * 0.5 }
    }

    /// Area in px²: π r² or 4·hw·hh (§2).
    pub fn area(&self) -> f32 {
        match *self {
            Shape::Circle { radius } => PI * radius * radius,
            Shape::Rect { half_extents } => 4.0 * half_extents.x * half_extents.y,
        }
    }

    /// Half extents of the bounding box.
    pub fn half_size(&self) -> Vec2 {
        match *self {
            Shape::Circle { radius } => Vec2::splat(radius),
            Shape::Rect { half_extents } => half_extents,
        }
    }

    /// How far the shape reaches along the unit direction `n`: r for a circle,
    /// `|n.x|·hw + |n.y|·hh` for a rectangle (§5, walls).
    pub fn reach(&self, n: Vec2) -> f32 {
        match *self {
            Shape::Circle { radius } => radius,
            Shape::Rect { half_extents } => n.x.abs() * half_extents.x + n.y.abs() * half_extents.y,
        }
    }

    /// Radius of curvature for rolling resistance: the radius of a circle, infinite for a
    /// rectangle's flat side (§9).
    pub fn rolling_radius(&self) -> f32 {
        match *self {
            Shape::Circle { radius } => radius,
            Shape::Rect { .. } => f32::INFINITY,
        }
    }

    /// Whether `point` (relative to the shape's centre) lies inside the shape.
    pub fn contains_local(&self, point: Vec2) -> bool {
        match *self {
            Shape::Circle { radius } => point.length_squared() <= radius * radius,
            Shape::Rect { half_extents } => {
                point.x.abs() <= half_extents.x && point.y.abs() <= half_extents.y
            }
        }
    }

    fn check(&self, problems: &mut Vec<FieldError>) {
        // Formatted only for a refusal: every `add_body` checks its shape, and formatting the
        // two limits for every valid body showed in profiles of spawning 20,000 bodies.
        let range = || format!("{MIN_BODY_SIZE} ..= {MAX_BODY_SIZE} px");
        let ok = |x: f32| (MIN_BODY_SIZE..=MAX_BODY_SIZE).contains(&x);
        match *self {
            Shape::Circle { radius } if !ok(radius) => problems.push(FieldError {
                field: "shape.radius",
                value: format!("{radius}"),
                allowed: range(),
            }),
            Shape::Rect { half_extents } if !(ok(half_extents.x) && ok(half_extents.y)) => problems
                .push(FieldError {
                    field: "shape.half_extents",
                    value: format!("{half_extents}"),
                    allowed: format!("each {} (every side at least 24 px)", range()),
                }),
            _ => {}
        }
    }
}

/// Density, friction and restitution of a body (§7, §8).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy", derive(bevy::reflect::Reflect))]
#[cfg_attr(
    feature = "bevy",
    reflect(Default, Debug, PartialEq, Clone, Serialize, Deserialize),
    type_path = "bevy_sandbox_physics::physics"
)]
pub struct Material {
    /// Mass per px² (only ratios matter, §1). Water-like is 1.
    pub density: f32,
    /// Coulomb friction coefficient μ; contacts mix √(μ_A·μ_B) (§8).
    pub friction: f32,
    /// Coefficient of restitution e ∈ [0, 1]; contacts mix max(e_A, e_B) (§7).
    pub restitution: f32,
}

impl Material {
    /// Rubber: light (1.1 g/cm³), grippy (μ ≈ 0.9 on dry surfaces), bouncy (e ≈ 0.8 for a
    /// rubber ball on a hard floor).
    pub const RUBBER: Material = Material { density: 1.1, friction: 0.9, restitution: 0.8 };
    /// Wood: 0.6 g/cm³, μ ≈ 0.4 (wood on wood 0.25–0.5), e ≈ 0.5.
    pub const WOOD: Material = Material { density: 0.6, friction: 0.4, restitution: 0.5 };
    /// Steel: 7.8 g/cm³, μ ≈ 0.5 (dry steel on steel 0.4–0.8), e ≈ 0.6 for hard impacts.
    pub const STEEL: Material = Material { density: 7.8, friction: 0.5, restitution: 0.6 };
    /// Ice: 0.92 g/cm³, μ ≈ 0.03 (ice on ice), e ≈ 0.1 (impacts crush rather than bounce).
    pub const ICE: Material = Material { density: 0.92, friction: 0.03, restitution: 0.1 };

    /// The smallest density, mass per px². A positive but denormal density (1e-43) would make
    /// a body's mass underflow, 1/m infinite and its first step NaN. At 0.001 the lightest
    /// body, a 12 px circle, still weighs 0.45.
    pub const MIN_DENSITY: f32 = 1.0e-3;

    /// The named presets, for palettes and tests.
    pub const PRESETS: [(&'static str, Material); 4] = [
        ("rubber", Material::RUBBER),
        ("wood", Material::WOOD),
        ("steel", Material::STEEL),
        ("ice", Material::ICE),
    ];

    /// The preset called `name` (case-insensitive).
    pub fn preset(name: &str) -> Option<Material> {
        Self::PRESETS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|&(_, m)| m)
    }

    fn check(&self, problems: &mut Vec<FieldError>) {
        let mut check = |field, value: f32, min: f32, max: f32, min_open: bool| {
            let ok = if min_open { value > min } else { value >= min } && value <= max;
            if !ok {
                let open = if min_open { "(" } else { "[" };
                problems.push(FieldError {
                    field,
                    value: format!("{value}"),
                    allowed: format!("{open}{min}, {max}]"),
                });
            }
        };
        check("material.density", self.density, Self::MIN_DENSITY, 1.0e4, false);
        check("material.friction", self.friction, 0.0, 2.0, false);
        check("material.restitution", self.restitution, 0.0, 1.0, false);
    }
}

impl Default for Material {
    fn default() -> Self {
        Material::WOOD
    }
}

/// Whether and how a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyKind {
    /// Moves under gravity, forces and contacts.
    #[default]
    Dynamic,
    /// Never moves: inverse mass and inertia 0, like a wall (R-BODY-2).
    Static,
    /// Moves by its velocity alone, which only the user sets (R-GAME-4): no gravity, no
    /// force, and in every contact inverse mass and inertia 0, like a static body, so that
    /// it pushes dynamic bodies and nothing pushes it. Walls do not stop it either: it may
    /// leave the world. It never sleeps and joins no island; while it moves it wakes the
    /// sleepers it touches. A platform, a paddle, a door.
    Kinematic,
}

/// Collision layers (R-GAME-3): which of 32 layers a body is on (`memberships`) and which
/// layers it interacts with (`filters`).
///
/// Two bodies A and B interact only when each is on a layer the other accepts:
/// `A.memberships & B.filters != 0` and `B.memberships & A.filters != 0`. The default puts a
/// body on every layer and lets it meet every layer, so a world that never sets layers
/// behaves as one without them.
///
/// With the `bevy` feature it is also the plugin's component: put it on a body entity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy", derive(bevy::prelude::Component, bevy::reflect::Reflect))]
#[cfg_attr(feature = "bevy", reflect(Component, Default, Debug, PartialEq, Clone))]
pub struct CollisionLayers {
    /// The layers the body is on, one bit each.
    pub memberships: u32,
    /// The layers the body interacts with, one bit each.
    pub filters: u32,
}

impl CollisionLayers {
    /// On every layer, meeting every layer: the default.
    pub const ALL: Self = Self { memberships: u32::MAX, filters: u32::MAX };
    /// On no layer, meeting none: the body touches no other body.
    pub const NONE: Self = Self { memberships: 0, filters: 0 };

    /// Layers from the two masks.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self { memberships, filters }
    }

    /// Whether bodies on `self` and `other` interact: each is on a layer the other accepts.
    pub const fn interacts_with(self, other: Self) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

/// Everything needed to add a body. Positions are in the world's y-down px frame (§1).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDesc {
    /// Shape and size.
    pub shape: Shape,
    /// Dynamic, static or kinematic.
    pub kind: BodyKind,
    /// Density, friction, restitution.
    pub material: Material,
    /// Centre of mass, px.
    pub position: Vec2,
    /// Linear velocity, px/s (clamped to `max_speed` when added).
    pub velocity: Vec2,
    /// Angle, rad (clockwise on screen; rectangles keep 0).
    pub angle: f32,
    /// Angular velocity, rad/s (circles only).
    pub angular_velocity: f32,
    /// Collision layers (default: every layer). The walls ignore them.
    pub layers: CollisionLayers,
    /// A sensor detects overlaps (reported as [`CollisionEvent`](super::CollisionEvent)s)
    /// but pushes nothing and is pushed by no body; a dynamic sensor still rests on the
    /// walls (R-GAME-2). Default: off.
    pub sensor: bool,
    /// Report this body's contacts as [`CollisionEvent`](super::CollisionEvent)s
    /// (R-GAME-1). Default: off.
    pub collision_events: bool,
    /// How strongly gravity pulls the body (R-GAME-5): 1 normal (the default), 0 floats,
    /// 2 twice as hard, negative up; within −100 ..= 100. Only dynamic bodies feel gravity:
    /// for static and kinematic ones it is checked and otherwise ignored.
    pub gravity_scale: f32,
}

impl BodyDesc {
    /// A dynamic wooden circle at `position`.
    pub fn circle(radius: f32, position: Vec2) -> Self {
        Self::new(Shape::circle(radius), position)
    }

    /// A dynamic wooden rectangle of `size` (full width and height) at `position`.
    pub fn rect(size: Vec2, position: Vec2) -> Self {
        Self::new(Shape::rect(size.x, size.y), position)
    }

    /// A dynamic wooden body of `shape` at `position`, at rest.
    pub fn new(shape: Shape, position: Vec2) -> Self {
        Self {
            shape,
            kind: BodyKind::Dynamic,
            material: Material::default(),
            position,
            velocity: Vec2::ZERO,
            angle: 0.0,
            angular_velocity: 0.0,
            layers: CollisionLayers::ALL,
            sensor: false,
            collision_events: false,
            gravity_scale: 1.0,
        }
    }

    /// With this material.
    pub fn with_material(mut self, material: Material) -> Self {
        self.material = material;
        self
    }

    /// With this velocity.
    pub fn with_velocity(mut self, velocity: Vec2) -> Self {
        self.velocity = velocity;
        self
    }

    /// With this angular velocity.
    pub fn with_angular_velocity(mut self, angular_velocity: f32) -> Self {
        self.angular_velocity = angular_velocity;
        self
    }

    /// With these collision layers.
    pub fn with_layers(mut self, layers: CollisionLayers) -> Self {
        self.layers = layers;
        self
    }

    /// Made a sensor: it reports its overlaps and touches nothing (R-GAME-2).
    pub fn sensor(mut self) -> Self {
        self.sensor = true;
        self
    }

    /// With its contacts reported as collision events (R-GAME-1).
    pub fn with_collision_events(mut self) -> Self {
        self.collision_events = true;
        self
    }

    /// With this gravity scale (1 normal, 0 floats).
    pub fn with_gravity_scale(mut self, gravity_scale: f32) -> Self {
        self.gravity_scale = gravity_scale;
        self
    }

    /// Made static.
    pub fn fixed(mut self) -> Self {
        self.kind = BodyKind::Static;
        self
    }

    /// Made kinematic: moved by its velocity alone (R-GAME-4).
    pub fn kinematic(mut self) -> Self {
        self.kind = BodyKind::Kinematic;
        self
    }

    /// Every problem of the description that does not depend on the world.
    pub(crate) fn check(&self, problems: &mut Vec<FieldError>) {
        self.shape.check(problems);
        self.material.check(problems);
        let finite = |field, v: Vec2, problems: &mut Vec<FieldError>| {
            if !v.is_finite() {
                problems.push(FieldError {
                    field,
                    value: format!("{v}"),
                    allowed: "finite numbers".into(),
                });
            }
        };
        finite("position", self.position, problems);
        finite("velocity", self.velocity, problems);
        check_gravity_scale(self.gravity_scale, problems);
        for (field, value) in [("angle", self.angle), ("angular_velocity", self.angular_velocity)] {
            if !value.is_finite() {
                problems.push(FieldError {
                    field,
                    value: format!("{value}"),
                    allowed: "a finite number".into(),
                });
            }
        }
    }
}

/// The gravity scale's range: up to a hundredfold gravity, either way (R-GAME-5).
pub(crate) const MAX_GRAVITY_SCALE: f32 = 100.0;

/// Refuses a gravity scale outside `−100 ..= 100`, or NaN.
pub(crate) fn check_gravity_scale(scale: f32, problems: &mut Vec<FieldError>) {
    if !(-MAX_GRAVITY_SCALE..=MAX_GRAVITY_SCALE).contains(&scale) {
        problems.push(FieldError {
            field: "gravity_scale",
            value: format!("{scale}"),
            allowed: format!("-{MAX_GRAVITY_SCALE} ..= {MAX_GRAVITY_SCALE}"),
        });
    }
}

/// `Body::sleep_island` of a body in no sleeping island: a plain `u32` with this value
/// instead of an `Option<u32>`, which would take 8 bytes instead of 4 of the 112 that every
/// pass over the bodies reads. No island gets this id (`World::update_sleep` skips it).
pub(crate) const NO_ISLAND: u32 = u32::MAX;

/// [`Body::flags`]: the body is a sensor (R-GAME-2).
pub(crate) const SENSOR: u8 = 1;
/// [`Body::flags`]: the body's contacts are reported as events (R-GAME-1).
pub(crate) const REPORTS: u8 = 2;
/// [`Body::flags`]: the body has forces beyond plain gravity (R-GAME-5), see `forced`.
pub(crate) const FORCED: u8 = 4;
/// [`Body::flags`]: the body was in a contact deeper than slop + 0.5 px at its last step
/// (§11, deviation D9 of docs/physics.md): a rest shorter than `time_to_sleep` starts over
/// when this changes.
pub(crate) const DEEP: u8 = 8;
/// [`Body::flags`]: the body is set into others (deviation D16 of docs/physics.md): it was
/// in a contact deeper than any one step's motion makes, or pushed deep into a body that
/// was, and its contacts are not yet within slop + 0.5 px.
pub(crate) const EMBEDDED: u8 = 16;
/// [`Body::flags`], two bits: how many settlings before sleep in a row failed for the body's
/// island while the body stayed where it was, 0 to 3 (§11, deviation D17 of
/// docs/physics.md). Read with [`settle_failures`].
pub(crate) const SETTLE_FAILURES: u8 = 32 | 64;
/// One failure in [`SETTLE_FAILURES`]: its lower bit.
pub(crate) const SETTLE_FAILURE: u8 = 32;

/// The count of failed settlings that `flags` hold (see [`SETTLE_FAILURES`]).
pub(crate) fn settle_failures(flags: u8) -> u8 {
    (flags & SETTLE_FAILURES) / SETTLE_FAILURE
}

/// The flags that concern contacts: [`SENSOR`] and [`REPORTS`].
pub(crate) const CONTACT_FLAGS: u8 = SENSOR | REPORTS;

/// The contact flags of a sensor (`sensor`) and of a body that reports its contacts.
pub(crate) fn contact_flags(sensor: bool, collision_events: bool) -> u8 {
    (if sensor { SENSOR } else { 0 }) | (if collision_events { REPORTS } else { 0 })
}

/// A body in the world. Read it through [`World::body`](super::World::body).
#[derive(Clone, Debug)]
pub struct Body {
    pub(crate) shape: Shape,
    pub(crate) kind: BodyKind,
    pub(crate) material: Material,
    pub(crate) position: Vec2,
    pub(crate) velocity: Vec2,
    pub(crate) angle: f32,
    pub(crate) angular_velocity: f32,
    pub(crate) inverse_mass: f32,
    pub(crate) inverse_inertia: f32,
    /// Pose at the start of the last step, for interpolation (§3).
    pub(crate) previous_position: Vec2,
    pub(crate) previous_angle: f32,
    /// Velocity at the start of the step, before gravity and warm start: the impact speed
    /// for restitution is taken from it (§7, R-RES-5).
    pub(crate) previous_velocity: Vec2,
    pub(crate) previous_angular_velocity: f32,
    /// How long the body has rested without a break, s (§11).
    pub(crate) rest_time: f32,
    /// Its angle at the start of its current rest (§11, deviation D8); see `anchor`.
    pub(crate) rest_angle: f32,
    pub(crate) sleeping: bool,
    /// The sleeping island the body belongs to while asleep (§11), else [`NO_ISLAND`].
    pub(crate) sleep_island: u32,
    /// Held by a drag controller (§13).
    pub(crate) held: bool,
    /// While held: the drag target (§13). Otherwise: where the body's current rest began,
    /// its position at the start of its first resting step (§11, deviation D8). A held body
    /// never rests, so the two uses never meet; one field keeps `Body` 8 bytes smaller.
    pub(crate) anchor: Vec2,
    pub(crate) layers: CollisionLayers,
    /// [`SENSOR`], [`REPORTS`], [`FORCED`], [`DEEP`], [`EMBEDDED`] and the count of
    /// [`SETTLE_FAILURES`]: one byte, which fits in the padding after
    /// the three one-byte fields (`kind`, `sleeping`, `held`); three `bool`s would grow
    /// every body by 4 bytes.
    pub(crate) flags: u8,
}

impl Body {
    pub(crate) fn from_desc(desc: &BodyDesc, max_speed: f32, max_angular_speed: f32) -> Self {
        let (inverse_mass, inverse_inertia) = match desc.kind {
            // Neither kind is moved by an impulse: in every contact both act like a wall.
            BodyKind::Static | BodyKind::Kinematic => (0.0, 0.0),
            BodyKind::Dynamic => {
                let mass = desc.shape.area() * desc.material.density;
                match desc.shape {
                    // I = m r²/2 for a homogeneous disc.
                    Shape::Circle { radius } => (1.0 / mass, 2.0 / (mass * radius * radius)),
                    // Axis-aligned rectangles never rotate: 1/I = 0.
                    Shape::Rect { .. } => (1.0 / mass, 0.0),
                }
            }
        };
        // A kinematic body keeps its velocity, clamped like a dynamic one's (§12): the
        // bodies it pushes must not tunnel either.
        let moving = desc.kind != BodyKind::Static;
        let velocity = if moving {
            crate::physics::math::clamp_length(desc.velocity, max_speed)
        } else {
            Vec2::ZERO
        };
        let angular_velocity = match (moving, desc.shape) {
            (true, Shape::Circle { .. }) => {
                desc.angular_velocity.clamp(-max_angular_speed, max_angular_speed)
            }
            _ => 0.0,
        };
        let angle = match desc.shape {
            Shape::Circle { .. } => desc.angle,
            Shape::Rect { .. } => 0.0,
        };
        Self {
            shape: desc.shape,
            kind: desc.kind,
            material: desc.material,
            position: desc.position,
            velocity,
            angle,
            angular_velocity,
            inverse_mass,
            inverse_inertia,
            previous_position: desc.position,
            previous_angle: angle,
            previous_velocity: velocity,
            previous_angular_velocity: angular_velocity,
            rest_time: 0.0,
            sleeping: false,
            sleep_island: NO_ISLAND,
            held: false,
            anchor: desc.position,
            rest_angle: angle,
            layers: desc.layers,
            flags: contact_flags(desc.sensor, desc.collision_events),
        }
    }

    /// The description that would re-create this body as it is now, except for its gravity
    /// scale, which the world keeps apart (rare data, see `World::gravity_scale`): here it
    /// is 1. [`World::body_desc`](super::World::body_desc) gives the whole description.
    pub fn desc(&self) -> BodyDesc {
        BodyDesc {
            shape: self.shape,
            kind: self.kind,
            material: self.material,
            position: self.position,
            velocity: self.velocity,
            angle: self.angle,
            angular_velocity: self.angular_velocity,
            layers: self.layers,
            sensor: self.is_sensor(),
            collision_events: self.reports_collisions(),
            gravity_scale: 1.0,
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// Dynamic, static or kinematic.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }
    /// The collision layers.
    pub fn layers(&self) -> CollisionLayers {
        self.layers
    }
    /// [`SENSOR`] and [`REPORTS`] of the flags.
    pub(crate) fn contact_flags(&self) -> u8 {
        self.flags & CONTACT_FLAGS
    }
    /// Has forces beyond plain gravity: a force, a torque or a gravity scale other than 1,
    /// kept in the world's sparse map (R-GAME-5). The step's common gravity kick skips it;
    /// the force pass integrates it.
    pub(crate) fn forced(&self) -> bool {
        self.flags & FORCED != 0
    }
    /// Sets [`forced`](Self::forced).
    pub(crate) fn set_forced(&mut self, forced: bool) {
        self.flags = if forced { self.flags | FORCED } else { self.flags & !FORCED };
    }
    /// Whether it is a sensor (R-GAME-2).
    pub fn is_sensor(&self) -> bool {
        self.flags & SENSOR != 0
    }
    /// Whether its contacts are reported as collision events because it asked for them
    /// (a sensor's overlaps are reported either way, R-GAME-1).
    pub fn reports_collisions(&self) -> bool {
        self.flags & REPORTS != 0
    }
    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }
    /// Centre, px (y down).
    pub fn position(&self) -> Vec2 {
        self.position
    }
    /// Linear velocity, px/s.
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }
    /// Angle, rad (clockwise on screen).
    pub fn angle(&self) -> f32 {
        self.angle
    }
    /// Angular velocity, rad/s.
    pub fn angular_velocity(&self) -> f32 {
        self.angular_velocity
    }
    /// Centre at the start of the last step (for interpolation).
    pub fn previous_position(&self) -> Vec2 {
        self.previous_position
    }
    /// Angle at the start of the last step (for interpolation).
    pub fn previous_angle(&self) -> f32 {
        self.previous_angle
    }
    /// Centre drawn at render fraction `alpha` ∈ [0, 1]: `lerp(previous, current, alpha)` (§3).
    pub fn interpolated_position(&self, alpha: f32) -> Vec2 {
        // `a + (b − a)·t` rather than glam's `a·(1 − t) + b·t`: exact when a body stands
        // still, so a paused or resting body is drawn without a one-ulp shake.
        let a = alpha.clamp(0.0, 1.0);
        self.previous_position + (self.position - self.previous_position) * a
    }
    /// Angle drawn at render fraction `alpha`.
    pub fn interpolated_angle(&self, alpha: f32) -> f32 {
        let a = alpha.clamp(0.0, 1.0);
        self.previous_angle + (self.angle - self.previous_angle) * a
    }
    /// Mass (area × density); infinite for static and kinematic bodies.
    pub fn mass(&self) -> f32 {
        if self.inverse_mass > 0.0 { 1.0 / self.inverse_mass } else { f32::INFINITY }
    }
    /// 1/m (0 for static and kinematic bodies).
    pub fn inverse_mass(&self) -> f32 {
        self.inverse_mass
    }
    /// 1/I (0 for static and kinematic bodies and rectangles).
    pub fn inverse_inertia(&self) -> f32 {
        self.inverse_inertia
    }
    /// Moment of inertia; infinite for rectangles, static and kinematic bodies.
    pub fn inertia(&self) -> f32 {
        if self.inverse_inertia > 0.0 { 1.0 / self.inverse_inertia } else { f32::INFINITY }
    }
    /// Whether the body is asleep (§11).
    pub fn is_sleeping(&self) -> bool {
        self.sleeping
    }
    /// The sleeping island, while asleep.
    pub fn sleep_island(&self) -> Option<u32> {
        (self.sleep_island != NO_ISLAND).then_some(self.sleep_island)
    }
    /// Whether a drag controller holds it (§13).
    pub fn is_held(&self) -> bool {
        self.held
    }
    /// The drag target while held.
    pub fn drag_target(&self) -> Option<Vec2> {
        self.held.then_some(self.anchor)
    }
    /// How long it has rested without a break, s.
    pub fn rest_time(&self) -> f32 {
        self.rest_time
    }
    /// Whether it moves under gravity, forces and contacts (dynamic).
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }
    /// Whether it is kinematic: moved by its velocity alone (R-GAME-4).
    pub fn is_kinematic(&self) -> bool {
        self.kind == BodyKind::Kinematic
    }
    /// Kinetic energy ½ m v² + ½ I ω² (0 for static and kinematic bodies, whose mass is
    /// infinite in contacts and counts in no energy balance).
    pub fn kinetic_energy(&self) -> f32 {
        if self.inverse_mass == 0.0 {
            return 0.0;
        }
        let linear = 0.5 * self.velocity.length_squared() / self.inverse_mass;
        let angular = if self.inverse_inertia > 0.0 {
            0.5 * self.angular_velocity * self.angular_velocity / self.inverse_inertia
        } else {
            0.0
        };
        linear + angular
    }
    /// Axis-aligned bounding box (min, max).
    pub fn aabb(&self) -> (Vec2, Vec2) {
        let h = self.shape.half_size();
        (self.position - h, self.position + h)
    }
    /// Whether the world point lies inside the body.
    pub fn contains(&self, point: Vec2) -> bool {
        self.shape.contains_local(point - self.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size the comments count with (`NO_ISLAND`): if a field changes it, update them
    /// with this test.
    #[test]
    fn a_body_has_the_size_the_comments_give() {
        assert_eq!(std::mem::size_of::<Body>(), 112);
    }

    #[test]
    fn disc_inertia_is_half_m_r_squared_r_body_1() {
        let body = Body::from_desc(&BodyDesc::circle(20.0, Vec2::ZERO), 1e9, 1e9);
        let m = PI * 400.0 * Material::WOOD.density;
        assert!((body.mass() - m).abs() / m < 1e-6);
        assert!((body.inertia() - 0.5 * m * 400.0).abs() / (0.5 * m * 400.0) < 1e-6);
    }

    #[test]
    fn rectangles_never_rotate_and_statics_never_move_r_body_2() {
        let rect = Body::from_desc(&BodyDesc::rect(Vec2::new(40.0, 30.0), Vec2::ZERO), 1e9, 1e9);
        assert_eq!(rect.inverse_inertia(), 0.0);
        assert!((rect.mass() - 1200.0 * Material::WOOD.density).abs() < 1e-3);
        let fixed = Body::from_desc(&BodyDesc::circle(20.0, Vec2::ZERO).fixed(), 1e9, 1e9);
        assert_eq!((fixed.inverse_mass(), fixed.inverse_inertia()), (0.0, 0.0));
    }

    #[test]
    fn presets_are_physically_plausible() {
        const {
            assert!(Material::STEEL.density > Material::ICE.density);
            assert!(Material::ICE.friction < Material::WOOD.friction);
            assert!(Material::RUBBER.restitution > Material::WOOD.restitution);
        }
        for (name, m) in Material::PRESETS {
            let mut problems = Vec::new();
            m.check(&mut problems);
            assert!(problems.is_empty(), "{name}: {problems:?}");
            assert_eq!(Material::preset(name), Some(m));
        }
    }
}
