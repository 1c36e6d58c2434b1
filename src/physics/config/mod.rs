//! Every tunable number of the engine (§14), its unit, its safe range and its reason.
//!
//! `PhysicsConfig` is plain data. [`PhysicsConfig::validate`] checks each field against the
//! range in [`PhysicsConfig::PARAMETERS`] and then the invariants that tie fields together
//! (§10, §12, §13). A world only ever runs with a config that passed this check: a refused
//! change leaves the last valid one in force (R-CFG-3).
//!
//! The parameter table is the single source of truth for names, units, ranges and the
//! tooltips of the Bevy panel, so a UI that walks the table covers every field.

use std::fmt;

use glam::Vec2;
// The reflection traits the `bevy` feature's derives name (see the type's docs).
#[cfg(feature = "bevy")]
use bevy::prelude::{ReflectDefault, ReflectDeserialize, ReflectResource, ReflectSerialize};

mod parameters;

pub use parameters::{Parameter, ParameterGroup, ParameterValue};

/// The smallest circle radius and the smallest rectangle half extent, in px (§12).
///
/// Tunnelling protection is derived from it: two such bodies flying head-on at `max_speed`
/// move less than the sum of their radii per step.
pub const MIN_BODY_SIZE: f32 = 12.0;

/// The largest circle radius or rectangle half extent a body may have, in px.
///
/// Not in the spec; it keeps masses (area × density) far from f32 overflow.
pub const MAX_BODY_SIZE: f32 = 10_000.0;

/// Safety factor on the tunnelling limit `MIN_BODY_SIZE / dt` (§12).
pub const TUNNELLING_SAFETY_FACTOR: f32 = 0.9;

/// The largest speed that keeps two minimum-size bodies from passing through each other in
/// one step of `time_step` seconds: `0.9 · MIN_BODY_SIZE / dt` (§12, R-TUN-1).
///
/// Head-on, the relative motion per step is `2·v·dt`; it must stay below the sum of the two
/// radii `2·MIN_BODY_SIZE`, so `v < MIN_BODY_SIZE / dt` (1440 px/s at 120 Hz), and 0.9 of it
/// is about 1296 px/s.
pub fn tunnelling_speed_limit(time_step: f32) -> f32 {
    TUNNELLING_SAFETY_FACTOR * MIN_BODY_SIZE / time_step
}

/// The speed no body exceeds even with the rule switch [`speed_limit`](PhysicsConfig::speed_limit)
/// off, px/s: a ceiling, not the spec's clamp (§12).
///
/// Without it a finite but huge input (a velocity near `f32::MAX`, an impulse of 1e30 on a
/// light body) drove positions and kinetic energies to infinity within a few steps. At 10⁶
/// px/s a body crosses 10⁹ px in 1,000 s. The heaviest body (a square of side
/// `2·MAX_BODY_SIZE` at the largest density, 10⁴: m = 4·10¹²) then carries at most
/// `½·m·v²` = 2·10²⁴ and, spinning at `SPEED_CEILING / MIN_BODY_SIZE`, under 10³⁰ in its
/// spin, far below f32's 3.4·10³⁸. The lab's bullet (5,000 px/s) is well under it.
pub const SPEED_CEILING: f32 = 1.0e6;

/// The ceilings on speed and spin, `(SPEED_CEILING, SPEED_CEILING / MIN_BODY_SIZE)`: the
/// clamps in force with the speed limit off, which no body exceeds whatever the config.
pub(crate) const SPEED_CEILINGS: (f32, f32) = (SPEED_CEILING, SPEED_CEILING / MIN_BODY_SIZE);

/// All parameters of the simulation (§14), with the defaults of the spec.
///
/// Lengths are in px, times in s, speeds in px/s; y points down (§1).
///
/// With the `bevy` feature it is also a Bevy `Resource` with `Reflect` (the only place the
/// core names Bevy, in derives behind that feature): the plugin keeps it as the resource an
/// app edits, and the type path stays `bevy_sandbox_physics::physics::PhysicsConfig`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[cfg_attr(feature = "bevy", derive(bevy::prelude::Resource, bevy::reflect::Reflect))]
#[cfg_attr(
    feature = "bevy",
    reflect(Resource, Default, Debug, PartialEq, Clone, Serialize, Deserialize),
    type_path = "bevy_sandbox_physics::physics"
)]
pub struct PhysicsConfig {
    /// Gravity in px/s², y down. Default (0, 980): 9.8 m/s² at 100 px per metre (§1).
    pub gravity: Vec2,
    /// Fixed time step in s. Default 1/120 s (§3).
    pub time_step: f32,
    /// Sequential-impulse passes per step. Default 8 (§6); half again as many while the
    /// world settles, with sleeping on (deviation D12 of docs/physics.md).
    pub velocity_iterations: u32,
    /// Position-projection passes per step. Default 2 (§10).
    pub position_iterations: u32,
    /// Impact speed below which nothing bounces, px/s. Default 50 (§7).
    pub restitution_threshold: f32,
    /// Depth left uncorrected so a resting contact stays detected, px. Default 0.5 (§10).
    pub penetration_slop: f32,
    /// Share of the remaining depth removed per projection pass. Default 0.4 (§10).
    pub position_correction_factor: f32,
    /// Largest projection per contact and pass, px. Default 6 (§10).
    pub max_position_correction: f32,
    /// Speed clamp against tunnelling, px/s. Default 0.9 · 12 px · 120 Hz = 1296 (§12).
    pub max_speed: f32,
    /// Rolling-resistance coefficient μ_r (torque ≤ μ_r·N·r). Default 0.1 (§9).
    pub rolling_resistance: f32,
    /// A body at or below this speed counts as resting, px/s: its mean speed since its
    /// rest began (deviation D8 of docs/physics.md). Default 4 (§11).
    pub sleep_linear_speed: f32,
    /// A body at or below this angular speed counts as resting, rad/s: its mean spin since
    /// its rest began (D8). Default 0.1 (§11).
    pub sleep_angular_speed: f32,
    /// Rest time after which a whole island falls asleep, s. Default 0.5 (§11).
    pub time_to_sleep: f32,
    /// Whether resting islands fall asleep at all. Default true (§11). Benchmarks turn it off.
    pub sleeping_enabled: bool,
    /// Friction coefficient of the walls. Default 0.6 (§14).
    pub wall_friction: f32,
    /// Restitution of the walls. Default 0, so only the body's material counts (§7).
    pub wall_restitution: f32,
    /// Emergency brake: the deepest a body may end a step inside a wall, px. Default 12 (§10).
    pub max_wall_penetration: f32,
    /// Cap on fixed steps per rendered frame; the rest of the backlog is dropped. Default 8 (§3).
    pub max_steps_per_frame: u32,
    /// Drag controller gain: `v = (target − position)·rate`, 1/s. Default 60 (§13).
    pub drag_rate: f32,
    /// Throw tracker: window of the mean pointer velocity, s. Default 0.1 (§13).
    pub tracker_window: f32,
    /// Throw tracker: time constant of the exponential smoothing, s. Default 0.05 (§13).
    pub tracker_tau: f32,
    /// Warm start is dropped when `n_old · n_new` falls below this. Default 0.95 (§6).
    pub warm_start_normal_threshold: f32,
    /// Rule switch (R-LAB-1): last step's impulses are applied before the passes (§6).
    /// Default true.
    pub warm_starting: bool,
    /// Rule switch (R-LAB-1): the passes clamp the *accumulated* impulses (`P_n ≥ 0`,
    /// `|P_t| ≤ μ·P_n`, `|P_r| ≤ μ_r·r·P_n`); off, each pass clamps only its own increment
    /// (§6). Default true.
    pub accumulated_clamping: bool,
    /// Rule switch (R-LAB-1): the bounce target `−e·v_n` takes `v_n` from the velocities at
    /// the start of the step; off, from the velocities after gravity (§7). Default true.
    pub restitution_from_step_start: bool,
    /// Rule switch (R-LAB-1): nothing bounces below `restitution_threshold`; off, every
    /// approach bounces (§7). Default true.
    pub restitution_threshold_enabled: bool,
    /// Rule switch (R-LAB-1): how overlap is removed (§10). Default
    /// [`PositionCorrection::Projection`], the spec's rule.
    pub position_correction: PositionCorrection,
    /// Rule switch (R-LAB-1): the emergency brake at `max_wall_penetration` (§10). Default
    /// true.
    pub emergency_brake: bool,
    /// Rule switch (R-LAB-1): velocities are clamped to `max_speed` (and spins to
    /// `max_speed / MIN_BODY_SIZE`) after the solve, on throws and on set velocities (§12).
    /// Default true.
    pub speed_limit: bool,
    /// Rule switch (R-LAB-1): a held body does not bounce, "the hand absorbs the impact"
    /// (§7, §13). Default true.
    pub hand_absorbs_bounces: bool,
}

/// How overlap left after the velocity solve is removed (§10): a rule switch of
/// [`PhysicsConfig::position_correction`] (R-LAB-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy", derive(bevy::reflect::Reflect))]
#[cfg_attr(
    feature = "bevy",
    reflect(Default, Debug, PartialEq, Clone, Serialize, Deserialize),
    type_path = "bevy_sandbox_physics::physics"
)]
pub enum PositionCorrection {
    /// The spec's rule: positions are moved out of overlap after the velocities are
    /// integrated, `position_iterations` passes of
    /// `C = min(factor·max(depth − slop, 0), max_position_correction)`, split by inverse
    /// mass. It adds no kinetic energy.
    #[default]
    Projection,
    /// Baumgarte stabilisation instead: no projection; the normal target of each contact
    /// gets the separating velocity `β/dt·max(depth − slop, 0)` with
    /// `β = position_correction_factor`. The velocity outlives the overlap and flings
    /// bodies apart.
    Baumgarte,
    /// No correction at all: what the solver lets sink stays sunk.
    None,
}

impl PositionCorrection {
    /// Every variant, in the order of [`Self::LABELS`] (the index a
    /// [`ParameterValue::Choice`] holds).
    pub const ALL: [PositionCorrection; 3] =
        [PositionCorrection::Projection, PositionCorrection::Baumgarte, PositionCorrection::None];

    /// A label per variant, for a UI.
    pub const LABELS: [&'static str; 3] = ["Projection", "Baumgarte", "None"];

    /// The index of this variant in [`Self::ALL`].
    pub fn index(self) -> u32 {
        match self {
            PositionCorrection::Projection => 0,
            PositionCorrection::Baumgarte => 1,
            PositionCorrection::None => 2,
        }
    }

    /// The variant at `index` in [`Self::ALL`], if there is one.
    pub fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(index as usize).copied()
    }
}

impl Default for PhysicsConfig {
    fn default() -> Self {
        let time_step = 1.0 / 120.0;
        Self {
            gravity: Vec2::new(0.0, 980.0),
            time_step,
            velocity_iterations: 8,
            position_iterations: 2,
            restitution_threshold: 50.0,
            penetration_slop: 0.5,
            position_correction_factor: 0.4,
            max_position_correction: 6.0,
            max_speed: tunnelling_speed_limit(time_step),
            rolling_resistance: 0.1,
            sleep_linear_speed: 4.0,
            sleep_angular_speed: 0.1,
            time_to_sleep: 0.5,
            sleeping_enabled: true,
            wall_friction: 0.6,
            wall_restitution: 0.0,
            max_wall_penetration: 12.0,
            max_steps_per_frame: 8,
            drag_rate: 60.0,
            tracker_window: 0.1,
            tracker_tau: 0.05,
            warm_start_normal_threshold: 0.95,
            warm_starting: true,
            accumulated_clamping: true,
            restitution_from_step_start: true,
            restitution_threshold_enabled: true,
            position_correction: PositionCorrection::Projection,
            emergency_brake: true,
            speed_limit: true,
            hand_absorbs_bounces: true,
        }
    }
}

impl PhysicsConfig {
    /// A copy with another time step and the speed limit derived from it (§12).
    ///
    /// `max_speed` is set to `0.9·MIN_BODY_SIZE/time_step`, and `max_wall_penetration` is
    /// raised if it would no longer exceed `max_speed·time_step`.
    pub fn with_time_step(&self, time_step: f32) -> Self {
        let mut config = self.clone();
        config.time_step = time_step;
        if time_step.is_finite() && time_step > 0.0 {
            config.max_speed = tunnelling_speed_limit(time_step);
            let reach = config.max_speed * time_step;
            if config.max_wall_penetration <= reach {
                config.max_wall_penetration = MIN_BODY_SIZE;
            }
            if config.drag_rate * time_step > 1.0 {
                config.drag_rate = 1.0 / time_step;
            }
        }
        config
    }

    /// Checks every field against its range, then the invariants between fields.
    ///
    /// The error lists every offending field with its value and the allowed range (R-CFG-3).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        for parameter in Self::PARAMETERS {
            let (min, max) = (parameter.min, parameter.max);
            let in_range = |x: f32| x >= min && x <= max; // false for NaN
            let (ok, shown) = match (parameter.get)(self) {
                ParameterValue::Float(x) => (in_range(x), format!("{x}")),
                ParameterValue::Count(x) => (in_range(x as f32), format!("{x}")),
                ParameterValue::Switch(x) => (true, format!("{x}")),
                ParameterValue::Vector(v) => (in_range(v.x) && in_range(v.y), format!("{v}")),
                ParameterValue::Choice(x) => (in_range(x as f32), format!("{x}")),
            };
            if !ok {
                problems.push(FieldError {
                    field: parameter.name,
                    value: shown,
                    allowed: format!("{min} ..= {max} {}", parameter.unit),
                });
            }
        }
        if !problems.is_empty() {
            // The invariants below would only repeat the same bad values.
            return Err(ConfigError { problems });
        }

        // §12: two 12 px bodies must not pass through each other in one step.
        let limit = tunnelling_speed_limit(self.time_step);
        if self.max_speed > limit * (1.0 + 1e-6) {
            problems.push(FieldError {
                field: "max_speed",
                value: format!("{}", self.max_speed),
                allowed: format!(
                    "≤ 0.9·MIN_BODY_SIZE/time_step = {limit:.1} px/s at time_step {}",
                    self.time_step
                ),
            });
        }
        // §10: the brake must never catch an ordinary impact (12 px > max_speed·dt ≈ 10.8 px).
        let reach = self.max_speed * self.time_step;
        if self.max_wall_penetration <= reach {
            problems.push(FieldError {
                field: "max_wall_penetration",
                value: format!("{}", self.max_wall_penetration),
                allowed: format!("> max_speed·time_step = {reach:.2} px"),
            });
        }
        // §13: rate·dt ≤ 1, or the drag controller overshoots its target.
        if self.drag_rate * self.time_step > 1.0 + 1e-6 {
            problems.push(FieldError {
                field: "drag_rate",
                value: format!("{}", self.drag_rate),
                allowed: format!("≤ 1/time_step = {:.1} 1/s", 1.0 / self.time_step),
            });
        }
        if problems.is_empty() { Ok(()) } else { Err(ConfigError { problems }) }
    }

    /// The angular speed clamp `max_speed / MIN_BODY_SIZE`, rad/s (§12).
    pub fn max_angular_speed(&self) -> f32 {
        self.max_speed / MIN_BODY_SIZE
    }

    /// The clamps in force on speed and spin, `(max_speed, max_angular_speed)` (§12), or
    /// with the [`speed_limit`](Self::speed_limit) switch off (R-LAB-1) only the ceiling
    /// [`SPEED_CEILING`] and `SPEED_CEILING / MIN_BODY_SIZE`, which keeps every velocity,
    /// position and energy finite. Every clamp of the world reads them here.
    pub fn speed_limits(&self) -> (f32, f32) {
        if self.speed_limit { (self.max_speed, self.max_angular_speed()) } else { SPEED_CEILINGS }
    }

    /// A copy with every rule switch (R-LAB-1) at the spec's rule: warm starting,
    /// accumulated clamping, restitution from the step start and its threshold, projection,
    /// the emergency brake, the speed limit, sleeping, and the hand absorbing bounces. The
    /// numbers are kept.
    pub fn with_spec_rules(&self) -> Self {
        let rules = PhysicsConfig::default();
        PhysicsConfig {
            warm_starting: rules.warm_starting,
            accumulated_clamping: rules.accumulated_clamping,
            restitution_from_step_start: rules.restitution_from_step_start,
            restitution_threshold_enabled: rules.restitution_threshold_enabled,
            position_correction: rules.position_correction,
            emergency_brake: rules.emergency_brake,
            speed_limit: rules.speed_limit,
            sleeping_enabled: rules.sleeping_enabled,
            hand_absorbs_bounces: rules.hand_absorbs_bounces,
            ..self.clone()
        }
    }
}

/// One refused value: which field, what it was, what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field name.
    pub field: &'static str,
    /// The refused value as text.
    pub value: String,
    /// The allowed range or rule.
    pub allowed: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {} is not allowed (allowed: {})", self.field, self.value, self.allowed)
    }
}

/// A refused config or description: every bad field with its allowed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The offending fields, in table order.
    pub problems: Vec<FieldError>,
}

impl ConfigError {
    /// Whether `field` is among the problems.
    pub fn names(&self, field: &str) -> bool {
        self.problems.iter().any(|p| p.field == field)
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// R-CFG-1: every parameter of §14 (and those the text names elsewhere) with its default.
    #[test]
    fn defaults_match_the_spec_table_r_cfg_1() {
        let c = PhysicsConfig::default();
        assert_eq!(c.gravity, Vec2::new(0.0, 980.0));
        assert_eq!(c.time_step, 1.0 / 120.0);
        assert_eq!(c.velocity_iterations, 8);
        assert_eq!(c.position_iterations, 2);
        assert_eq!(c.restitution_threshold, 50.0);
        assert_eq!(c.penetration_slop, 0.5);
        assert_eq!(c.position_correction_factor, 0.4);
        assert_eq!(c.max_position_correction, 6.0);
        // §12: 0.9 · 12 px · 120 /s = 1296 px/s.
        assert!((c.max_speed - 1296.0).abs() < 1e-3);
        assert_eq!(c.rolling_resistance, 0.1);
        assert_eq!(c.sleep_linear_speed, 4.0);
        assert_eq!(c.sleep_angular_speed, 0.1);
        assert_eq!(c.time_to_sleep, 0.5);
        assert_eq!(c.wall_friction, 0.6);
        assert_eq!(c.wall_restitution, 0.0);
        assert_eq!(c.max_wall_penetration, 12.0);
        assert_eq!(c.drag_rate, 60.0);
        assert_eq!(c.tracker_window, 0.1);
        assert_eq!(c.tracker_tau, 0.05);
        assert_eq!(c.warm_start_normal_threshold, 0.95);
        assert!(c.validate().is_ok());
    }

    #[test]
    fn brake_margin_exceeds_one_step_at_max_speed_r_pos_3() {
        let c = PhysicsConfig::default();
        // 1296 px/s · 1/120 s = 10.8 px < 12 px.
        assert!(c.max_speed * c.time_step < c.max_wall_penetration);
    }

    #[test]
    fn every_field_has_exactly_one_parameter_entry() {
        let mut names: Vec<_> = PhysicsConfig::PARAMETERS.iter().map(|p| p.name).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "duplicate parameter entries");
        // The Debug output lists every struct field; each must have a table entry.
        let debug = format!("{:?}", PhysicsConfig::default());
        let fields = debug_field_names(&debug);
        assert_eq!(fields.len(), count, "fields {fields:?} vs table {names:?}");
        for field in fields {
            assert!(PhysicsConfig::parameter(&field).is_some(), "no entry for {field}");
        }
    }

    /// Field names at the top level of a `{:?}` struct print.
    fn debug_field_names(debug: &str) -> Vec<String> {
        let inner =
            &debug[debug.find('{').map_or(0, |i| i + 1)..debug.rfind('}').unwrap_or(debug.len())];
        let mut names = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (i, ch) in inner.char_indices() {
            match ch {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.push(field_name(&inner[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !inner[start..].trim().is_empty() {
            names.push(field_name(&inner[start..]));
        }
        names
    }

    fn field_name(entry: &str) -> String {
        entry.split(':').next().unwrap_or("").trim().to_string()
    }

    #[test]
    fn each_out_of_range_value_is_refused_by_name_r_cfg_3() {
        for parameter in PhysicsConfig::PARAMETERS {
            for bad in [f32::NAN, f32::INFINITY, -1.0e9, parameter.max * 10.0 + 1.0e6] {
                let mut c = PhysicsConfig::default();
                let value = match (parameter.get)(&c) {
                    ParameterValue::Float(_) => ParameterValue::Float(bad),
                    ParameterValue::Vector(_) => ParameterValue::Vector(Vec2::new(0.0, bad)),
                    ParameterValue::Count(_) if bad.is_finite() && bad > 0.0 => {
                        ParameterValue::Count(u32::MAX)
                    }
                    _ => continue,
                };
                (parameter.set)(&mut c, value);
                let err = c.validate().expect_err(parameter.name);
                assert!(err.names(parameter.name), "{}: {err}", parameter.name);
                assert!(err.to_string().contains("allowed"), "{err}");
            }
        }
    }

    #[test]
    fn derived_limits_are_checked_not_assumed_r_tun_1() {
        let c = PhysicsConfig { time_step: 1.0 / 30.0, ..PhysicsConfig::default() };
        // 1296 px/s at 30 Hz moves 43.2 px per step: far more than a 12 px body; and
        // 60/s · 1/30 s = 2 > 1 makes the drag controller overshoot.
        let err = c.validate().expect_err("max_speed too high for 60 Hz");
        assert!(err.names("max_speed"), "{err}");
        assert!(err.names("max_wall_penetration"), "{err}");
        assert!(err.names("drag_rate"), "{err}");
        let fixed = PhysicsConfig::default().with_time_step(1.0 / 30.0);
        assert!(fixed.validate().is_ok(), "{:?}", fixed.validate());
        // 0.9 · 12 px · 30 /s = 324 px/s.
        assert!((fixed.max_speed - 324.0).abs() < 1e-3);
        assert!(fixed.drag_rate * fixed.time_step <= 1.0 + 1e-6);
    }
}
