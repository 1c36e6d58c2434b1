//! The components that are the user's interface to the simulation.
//!
//! Spawning a [`Collider`] with a [`Transform`] is enough: the collider requires the other
//! components ([`RigidBody`], [`PhysicsMaterial`], [`LinearVelocity`], [`AngularVelocity`],
//! [`PhysicsPose`]) and Bevy inserts their defaults (a dynamic wooden body at rest).
//!
//! All values are in Bevy's world frame: px, y up, angles counter-clockwise (see
//! [`CoordinateMapping`] for the mapping to the spec's y-down frame). The plugin reads and
//! writes `Transform` as world coordinates, so bodies must be top-level entities: one with a
//! parent (`ChildOf`) is not simulated until the parent is removed.
//!
//! | component | who writes it | effect |
//! |---|---|---|
//! | [`Collider`], [`RigidBody`] | you | the body is (re)built on the next step |
//! | [`PhysicsMaterial`] | you | new density, friction, restitution on the next step |
//! | [`Transform`] | the plugin every frame; you to teleport | a teleport takes effect on the next step and wakes the island; a non-finite translation or rotation, or one outside the walls for a dynamic body, is refused once and put back |
//! | `Transform::scale` | you | ignored: the collider keeps its size (said once per entity, unless the entity has [`VisualScale`]) |
//! | `Transform::rotation` of a rectangle | the plugin | always the identity: rectangles never rotate; a rotation written is put back (said once per entity) |
//! | `ChildOf` (a parent) | you | refused: a body with a parent is not simulated until `ChildOf` is removed |
//! | `Disabled` (Bevy's) | you | the body leaves the simulation as on a despawn, the entity stays as it is; removing `Disabled` brings the body back from its components, as a new spawn. A clear, load or rewind despawns it with the other body entities |
//! | [`LinearVelocity`], [`AngularVelocity`] | the plugin after every step; you to push | a write takes effect on the next step and wakes the island |
//! | [`Sleeping`] | the plugin only | present while the body's island sleeps |
//! | [`PhysicsPose`] | the plugin only | the last two physics poses, for interpolation |
//! | [`NoInterpolation`] | you | the body is drawn at its latest physics pose |
//! | [`VisualScale`] | you | the `Transform` scale sizes the body's picture: nothing is said about it |
//!
//! Removing one of the components the [`Collider`] requires (`Transform`, [`RigidBody`],
//! [`PhysicsMaterial`], the velocities, [`PhysicsPose`]) from a simulated body is refused:
//! it is put back from the body at the start of the next frame, with one warning naming it.
//! To take a body out of the simulation, remove its collider (or disable the entity). Removed
//! while the entity has no body (disabled, or refused at spawn), it cannot be put back: the
//! entity is refused with one warning naming it, and waits until it is inserted again.

use bevy::prelude::*;

use super::coords::CoordinateMapping;
use crate::physics::{BodyDesc, BodyKind, Material, Shape};

/// Whether the body moves (dynamic) or stays where it is put (static).
///
/// Changing it rebuilds the body on the next step.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub enum RigidBody {
    /// Moved by gravity, contacts and velocity writes.
    #[default]
    Dynamic,
    /// Never moves (infinite mass); teleporting it still works.
    Static,
    /// Moved by its velocity alone (write `LinearVelocity`): no gravity, infinite mass in
    /// contacts, walls do not stop it; it wakes the sleepers it touches.
    Kinematic,
}

impl RigidBody {
    /// The core's body kind.
    pub fn kind(self) -> BodyKind {
        match self {
            RigidBody::Dynamic => BodyKind::Dynamic,
            RigidBody::Static => BodyKind::Static,
            RigidBody::Kinematic => BodyKind::Kinematic,
        }
    }

    /// The component for the core's body kind.
    pub fn from_kind(kind: BodyKind) -> Self {
        match kind {
            BodyKind::Dynamic => RigidBody::Dynamic,
            BodyKind::Static => RigidBody::Static,
            BodyKind::Kinematic => RigidBody::Kinematic,
        }
    }
}

/// The components of a body described in the core's terms (a [`BodyDesc`], as the shared
/// scenes of [`physics::scenes`](crate::physics::scenes) give them), in Bevy's frame as
/// `mapping` places it: collider, kind, material, pose and velocities. Spawned, the body
/// joins the simulation at the next fixed step exactly as `World::add_body(desc)` would
/// add it to a core world with the plugin's bounds.
pub fn body_components(
    desc: &BodyDesc,
    mapping: CoordinateMapping,
) -> (Collider, RigidBody, PhysicsMaterial, Transform, LinearVelocity, AngularVelocity) {
    let position = mapping.position_to_bevy(desc.position);
    (
        Collider::from_shape(desc.shape),
        RigidBody::from_kind(desc.kind),
        PhysicsMaterial(desc.material),
        Transform::from_translation(position.extend(0.0))
            .with_rotation(Quat::from_rotation_z(mapping.angle_to_bevy(desc.angle))),
        LinearVelocity(mapping.vector_to_bevy(desc.velocity)),
        AngularVelocity(mapping.angle_to_bevy(desc.angular_velocity)),
    )
}

/// The shape of a body: a circle or an axis-aligned rectangle (§2), sizes in px.
///
/// Sizes must lie in `MIN_BODY_SIZE ..= MAX_BODY_SIZE` (12 ..= 10 000 px for the radius and
/// each half extent, §12). A collider outside that range is refused with a warning naming the
/// field and the range; the entity is then not simulated until its data change (or, if it
/// was, keeps its old shape).
///
/// Rectangles never rotate: a rotation in their `Transform` is put back to the identity,
/// with a warning the first time. `Transform::scale` does not scale the collider (a warning
/// says so once per entity): size the collider itself.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Clone)]
#[require(Transform, RigidBody, PhysicsMaterial, LinearVelocity, AngularVelocity, PhysicsPose)]
#[component(on_remove = super::lifecycle::unlink_body)]
pub enum Collider {
    /// A disc.
    Circle {
        /// Radius in px.
        radius: f32,
    },
    /// An axis-aligned rectangle.
    Rectangle {
        /// Half width and half height in px.
        half_extents: Vec2,
    },
}

impl Collider {
    /// A circle of `radius` px.
    pub fn circle(radius: f32) -> Self {
        Collider::Circle { radius }
    }

    /// A rectangle `width` × `height` px (full sizes, as Bevy's `Rectangle::new`).
    pub fn rectangle(width: f32, height: f32) -> Self {
        Collider::Rectangle { half_extents: Vec2::new(width, height) * 0.5 }
    }

    /// The core's shape.
    pub fn shape(self) -> Shape {
        match self {
            Collider::Circle { radius } => Shape::Circle { radius },
            Collider::Rectangle { half_extents } => Shape::Rect { half_extents },
        }
    }

    /// The collider of a core shape.
    pub fn from_shape(shape: Shape) -> Self {
        match shape {
            Shape::Circle { radius } => Collider::Circle { radius },
            Shape::Rect { half_extents } => Collider::Rectangle { half_extents },
        }
    }
}

/// Density, friction and restitution; the presets of the core are associated constants.
///
/// Contacts mix friction as `√(μ_A·μ_B)` and restitution as `max(e_A, e_B)` (§7, §8).
/// Changing it takes effect on the next step and wakes the body's island. Default: wood.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct PhysicsMaterial(pub Material);

impl PhysicsMaterial {
    /// Rubber: light, grippy, bouncy.
    pub const RUBBER: Self = Self(Material::RUBBER);
    /// Wood: the default.
    pub const WOOD: Self = Self(Material::WOOD);
    /// Steel: heavy.
    pub const STEEL: Self = Self(Material::STEEL);
    /// Ice: slippery, hardly bounces.
    pub const ICE: Self = Self(Material::ICE);
}

/// Linear velocity in px/s, Bevy frame (y up).
///
/// The plugin writes the simulated value after every step. A value you write takes effect on
/// the next step (clamped to `max_speed`) and wakes the body's island; static bodies ignore it.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct LinearVelocity(pub Vec2);

/// Angular velocity in rad/s, Bevy frame (counter-clockwise positive).
///
/// Only circles turn; rectangles keep 0. Written like [`LinearVelocity`].
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct AngularVelocity(pub f32);

/// Present while the body's island sleeps (§11). Maintained by the plugin: inserting or
/// removing it yourself changes nothing (it is corrected after the next step). To wake a
/// body, write its velocity or teleport it.
///
/// Stored in a sparse set: a pile falling asleep or waking toggles the marker on thousands of
/// entities at once, and a table marker would move every one of them, with all its
/// components, to another table (and leave the tables in the order bodies fell asleep, which
/// makes a later despawn of the pile miss the cache at every entity).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[component(storage = "SparseSet")]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct Sleeping;

/// Opt-out of interpolation: the body is drawn at its latest physics pose instead of
/// `lerp(previous, current, overstep_fraction)`, e.g. for a body you teleport every frame.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct NoInterpolation;

/// The entity's `Transform::scale` is for drawing only (a unit mesh stretched to the
/// collider's size, say): the plugin, which ignores scale, does not warn about it either.
/// Without it, a scale other than 1 is pointed out once per entity, since a game that
/// scales a body usually expects its collider to grow, and it does not.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct VisualScale;

/// A position and angle in Bevy's frame.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Default, Debug, PartialEq, Clone)]
pub struct BodyPose {
    /// Centre in px.
    pub translation: Vec2,
    /// Angle in rad, counter-clockwise; not wrapped, so it interpolates across turns.
    pub angle: f32,
}

impl BodyPose {
    /// `self + (other − self)·alpha` for both the translation and the angle.
    ///
    /// Written out rather than glam's `a·(1 − t) + b·t`, which is not exactly `a` when
    /// `a == b`: a body at rest would shake by an ulp with the frame timing.
    pub fn lerp(self, other: BodyPose, alpha: f32) -> BodyPose {
        BodyPose {
            translation: self.translation + (other.translation - self.translation) * alpha,
            angle: self.angle + (other.angle - self.angle) * alpha,
        }
    }
}

/// The body's physics pose at the start and at the end of the last fixed step (R-FIX-2).
///
/// Read-only: written by the plugin after every fixed run. Each frame the plugin draws the body
/// at `previous.lerp(current, overstep_fraction)`. It also remembers what the plugin itself
/// last wrote to `Transform` and the velocities, so that a write of yours can be told apart
/// from the plugin's own (a value that differs from the remembered one is yours).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct PhysicsPose {
    previous: BodyPose,
    current: BodyPose,
    /// `Transform` translation (x, y) and rotation as last written or read by the plugin.
    pub(crate) written_translation: Option<Vec2>,
    pub(crate) written_rotation: Quat,
    /// `Transform` translation z as last accepted: always finite, the value a non-finite z
    /// written later is put back to. The plugin never writes z itself.
    pub(crate) written_z: f32,
    /// Velocities as last written by the plugin (Bevy frame).
    pub(crate) written_velocity: Vec2,
    pub(crate) written_angular_velocity: f32,
    /// Whether the entity was told that `Transform::scale` is ignored (once per entity).
    pub(crate) scale_noticed: bool,
    /// Whether the entity was told that rectangles never rotate (once per entity).
    pub(crate) rotation_noticed: bool,
}

impl PhysicsPose {
    /// The pose at the start of the last step.
    pub fn previous(&self) -> BodyPose {
        self.previous
    }

    /// The pose after the last step: where the simulation has the body now.
    pub fn current(&self) -> BodyPose {
        self.current
    }

    /// The pose drawn at render fraction `alpha` ∈ [0, 1].
    pub fn interpolated(&self, alpha: f32) -> BodyPose {
        self.previous.lerp(self.current, alpha.clamp(0.0, 1.0))
    }

    pub(crate) fn set(&mut self, previous: BodyPose, current: BodyPose) {
        self.previous = previous;
        self.current = current;
    }

    /// Records a step's results: the two poses and the velocities the components now hold.
    ///
    /// Each pair is replaced only when one of its values differs, as [`set`](Self::set) and
    /// the write-back did separately, so equal values keep their bits (a +0.0 stays +0.0).
    pub(crate) fn record_step(
        &mut self,
        previous: BodyPose,
        current: BodyPose,
        velocity: Vec2,
        angular_velocity: f32,
    ) {
        if self.previous != previous || self.current != current {
            self.set(previous, current);
        }
        if self.written_velocity != velocity || self.written_angular_velocity != angular_velocity {
            self.written_velocity = velocity;
            self.written_angular_velocity = angular_velocity;
        }
    }

    /// Remembers the components a new body starts from, so that the plugin does not take them
    /// for a write of the game's: its `Transform` (a rectangle's simulated rotation is the
    /// identity, as is a circle's whose rotation is not about z, and another one in the
    /// `Transform` is judged like any later write; z, judged
    /// finite at spawn, is the value a non-finite z is put back to) and its velocities.
    pub(crate) fn adopt(&mut self, transform: &Transform, velocity: Vec2, spin: f32, shape: Shape) {
        self.remember_transform(transform);
        self.written_z = transform.translation.z;
        // A circle's rotation not about z is not its angle (the body starts at angle 0): as a
        // rectangle's, it is judged as a write of the game's, put back to the identity.
        if matches!(shape, Shape::Rect { .. }) || !is_rotation_about_z(transform.rotation) {
            self.written_rotation = Quat::IDENTITY;
        }
        self.written_velocity = velocity;
        self.written_angular_velocity = spin;
    }

    /// Remembers `transform` as the plugin's own value: x, y and rotation (z is the game's,
    /// see [`z_moved`](Self::z_moved)).
    pub(crate) fn remember_transform(&mut self, transform: &Transform) {
        self.written_translation = Some(transform.translation.truncate());
        self.written_rotation = transform.rotation;
    }

    /// Whether `transform` differs from what the plugin last wrote: someone teleported it.
    pub(crate) fn transform_moved(&self, transform: &Transform) -> bool {
        self.written_translation != Some(transform.translation.truncate())
            || self.written_rotation != transform.rotation
    }

    /// Whether the translation z of `transform` differs from the last one accepted (a NaN
    /// always does).
    pub(crate) fn z_moved(&self, transform: &Transform) -> bool {
        self.written_z != transform.translation.z
    }

    /// Whether the translation (x, y) of `transform` differs from the plugin's value.
    pub(crate) fn translation_moved(&self, transform: &Transform) -> bool {
        self.written_translation != Some(transform.translation.truncate())
    }

    /// Whether the rotation of `transform` differs from the plugin's value.
    pub(crate) fn rotation_moved(&self, transform: &Transform) -> bool {
        self.written_rotation != transform.rotation
    }
}

/// The angle of a rotation about z (counter-clockwise, rad).
pub(crate) fn rotation_angle(rotation: Quat) -> f32 {
    2.0 * rotation.z.atan2(rotation.w)
}

/// Whether `rotation` is a rotation about z, the only kind a circle's angle can say: a
/// finite unit quaternion (length² within 10⁻³ of 1) whose x and y are (nearly) 0
/// (x² + y² ≤ 10⁻⁶, a tilt of the z axis of at most 0.002 rad).
///
/// [`rotation_angle`] reads z and w alone, so without this a rotation about x, a zero
/// quaternion or a huge one was taken silently as some angle about z. The tolerances let
/// through what rounding leaves of a rotation about z built in steps (`rotate_z`, products of
/// rotations about z, a quaternion normalised by hand), and nothing drawn visibly tilted or
/// scaled.
pub(crate) fn is_rotation_about_z(rotation: Quat) -> bool {
    // NaN fails every comparison; an overflowing length² is infinite and fails the first.
    (rotation.length_squared() - 1.0).abs() <= 1e-3
        && rotation.x * rotation.x + rotation.y * rotation.y <= 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_angle_inverts_from_rotation_z() {
        for angle in [0.0, 0.3, -1.2, 3.0] {
            assert!((rotation_angle(Quat::from_rotation_z(angle)) - angle).abs() < 1e-5);
        }
        assert_eq!(rotation_angle(Quat::IDENTITY), 0.0);
    }

    #[test]
    fn only_finite_unit_rotations_about_z_count_as_rotations_about_z() {
        let mut stepped = Transform::default();
        for _ in 0..10_000 {
            stepped.rotate_z(0.01);
        }
        for about_z in [Quat::IDENTITY, Quat::from_rotation_z(-2.5), stepped.rotation] {
            assert!(is_rotation_about_z(about_z), "{about_z}");
        }
        for other in [
            Quat::from_rotation_x(1.0),
            Quat::from_rotation_y(0.01),
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            Quat::from_xyzw(0.0, 0.0, 1e-40, 0.0),
            Quat::from_xyzw(0.0, 0.0, 1e30, 1e30),
            Quat::from_xyzw(0.0, 0.0, 0.0, 2.0),
            Quat::from_xyzw(0.0, 0.0, f32::NAN, 1.0),
            Quat::from_xyzw(0.0, 0.0, 0.0, f32::INFINITY),
        ] {
            assert!(!is_rotation_about_z(other), "{other}");
        }
    }

    #[test]
    fn collider_round_trips_through_the_core_shape() {
        for collider in [Collider::circle(20.0), Collider::rectangle(40.0, 30.0)] {
            assert_eq!(Collider::from_shape(collider.shape()), collider);
        }
        assert_eq!(Collider::rectangle(40.0, 30.0).shape(), Shape::rect(40.0, 30.0));
    }
}
