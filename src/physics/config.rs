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
    /// Sequential-impulse passes per step. Default 8 (§6).
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
    /// A body at or below this speed counts as resting, px/s. Default 4 (§11).
    pub sleep_linear_speed: f32,
    /// A body at or below this angular speed counts as resting, rad/s. Default 0.1 (§11).
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

/// The spec's grouping of the parameters (§14), used to lay out a panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterGroup {
    /// Gravity, time step, frame cap (§3).
    Integration,
    /// Sequential impulses and warm starting (§6).
    Solver,
    /// Restitution (§7).
    Restitution,
    /// Friction and rolling resistance (§8, §9).
    FrictionAndRolling,
    /// Projection and the emergency brake (§10).
    PositionCorrection,
    /// Sleeping (§11).
    Sleeping,
    /// Tunnelling protection (§12).
    Tunnelling,
    /// Drag and throw (§13).
    Drag,
}

impl ParameterGroup {
    /// All groups in the order of the spec.
    pub const ALL: [ParameterGroup; 8] = [
        ParameterGroup::Integration,
        ParameterGroup::Solver,
        ParameterGroup::Restitution,
        ParameterGroup::FrictionAndRolling,
        ParameterGroup::PositionCorrection,
        ParameterGroup::Sleeping,
        ParameterGroup::Tunnelling,
        ParameterGroup::Drag,
    ];

    /// A heading for the group.
    pub fn title(self) -> &'static str {
        match self {
            ParameterGroup::Integration => "Integration",
            ParameterGroup::Solver => "Solver",
            ParameterGroup::Restitution => "Restitution",
            ParameterGroup::FrictionAndRolling => "Friction and rolling",
            ParameterGroup::PositionCorrection => "Position correction",
            ParameterGroup::Sleeping => "Sleeping",
            ParameterGroup::Tunnelling => "Tunnelling",
            ParameterGroup::Drag => "Drag and throw",
        }
    }
}

/// The value of one parameter, typed as a UI edits it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParameterValue {
    /// A real number.
    Float(f32),
    /// A count.
    Count(u32),
    /// A switch.
    Switch(bool),
    /// A 2D vector (each component in the range).
    Vector(Vec2),
    /// One of the labels in [`Parameter::choices`], by index.
    Choice(u32),
}

/// Description of one `PhysicsConfig` field: where it lives, what it means, what it may be.
pub struct Parameter {
    /// The field name, as in the struct.
    pub name: &'static str,
    /// The spec group it belongs to.
    pub group: ParameterGroup,
    /// Unit ("px", "s", "px/s", "1", …).
    pub unit: &'static str,
    /// Smallest allowed value (for a vector: of each component; ignored for a switch).
    pub min: f32,
    /// Largest allowed value (for a vector: of each component; ignored for a switch).
    pub max: f32,
    /// What it does and the formula it enters; for a rule switch (R-LAB-1), what fails
    /// without the rule.
    pub help: &'static str,
    /// The labels of a [`ParameterValue::Choice`], indexed by its value; empty for the
    /// other kinds.
    pub choices: &'static [&'static str],
    /// Reads the field.
    pub get: fn(&PhysicsConfig) -> ParameterValue,
    /// Writes the field (no validation; call [`PhysicsConfig::validate`] afterwards).
    pub set: fn(&mut PhysicsConfig, ParameterValue),
}

impl fmt::Debug for Parameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parameter")
            .field("name", &self.name)
            .field("unit", &self.unit)
            .field("min", &self.min)
            .field("max", &self.max)
            .finish()
    }
}

macro_rules! float_parameter {
    ($name:ident, $group:ident, $unit:expr, $min:expr, $max:expr, $help:expr) => {
        Parameter {
            name: stringify!($name),
            group: ParameterGroup::$group,
            unit: $unit,
            min: $min,
            max: $max,
            help: $help,
            choices: &[],
            get: |c| ParameterValue::Float(c.$name),
            set: |c, v| {
                if let ParameterValue::Float(x) = v {
                    c.$name = x;
                }
            },
        }
    };
}

macro_rules! count_parameter {
    ($name:ident, $group:ident, $min:expr, $max:expr, $help:expr) => {
        Parameter {
            name: stringify!($name),
            group: ParameterGroup::$group,
            unit: "1",
            min: $min as f32,
            max: $max as f32,
            help: $help,
            choices: &[],
            get: |c| ParameterValue::Count(c.$name),
            set: |c, v| {
                if let ParameterValue::Count(x) = v {
                    c.$name = x;
                }
            },
        }
    };
}

/// A rule switch (R-LAB-1): on is the spec's rule; `$help` says what fails without it.
macro_rules! switch_parameter {
    ($name:ident, $group:ident, $help:expr) => {
        Parameter {
            name: stringify!($name),
            group: ParameterGroup::$group,
            unit: "",
            min: 0.0,
            max: 1.0,
            help: $help,
            choices: &[],
            get: |c| ParameterValue::Switch(c.$name),
            set: |c, v| {
                if let ParameterValue::Switch(x) = v {
                    c.$name = x;
                }
            },
        }
    };
}

impl PhysicsConfig {
    /// Every field with its unit, range and meaning, in the order of the spec's groups.
    pub const PARAMETERS: &'static [Parameter] = &[
        Parameter {
            name: "gravity",
            group: ParameterGroup::Integration,
            unit: "px/s²",
            min: -10_000.0,
            max: 10_000.0,
            help: "Acceleration of every free body, y down: v ← v + g·dt (semi-implicit Euler, §3). \
                   (0, 980) is 9.8 m/s² at 100 px per metre.",
            choices: &[],
            get: |c| ParameterValue::Vector(c.gravity),
            set: |c, v| {
                if let ParameterValue::Vector(x) = v {
                    c.gravity = x;
                }
            },
        },
        float_parameter!(
            time_step,
            Integration,
            "s",
            1.0 / 1000.0,
            1.0 / 30.0,
            "Fixed step dt of every world.step(dt); stability depends on it, so it never follows \
             the frame time (§3). max_speed must stay ≤ 0.9·12 px/dt."
        ),
        count_parameter!(
            max_steps_per_frame,
            Integration,
            1,
            32,
            "Cap on fixed steps run for one rendered frame; a larger backlog is dropped instead \
             of spiralling (§3)."
        ),
        count_parameter!(
            velocity_iterations,
            Solver,
            1,
            64,
            "Gauss-Seidel passes over all contacts: normal, friction, rolling resistance, with \
             the accumulated impulses clamped (§6)."
        ),
        float_parameter!(
            warm_start_normal_threshold,
            Solver,
            "1",
            0.0,
            1.0,
            "Last step's impulses are applied first unless the normal turned: n_old·n_new < this \
             drops them (§6)."
        ),
        switch_parameter!(
            warm_starting,
            Solver,
            "Rule §6: last step's impulses start the passes. Off: every step starts from zero, \
             and 8 passes cannot carry a tall stack: it sinks into itself (R-LAB-1)."
        ),
        switch_parameter!(
            accumulated_clamping,
            Solver,
            "Rule §6: P_n ≥ 0 holds for the sum over the passes. Off: each pass clamps only its \
             own increment, so no pass can take an excess back (R-LAB-1)."
        ),
        float_parameter!(
            restitution_threshold,
            Restitution,
            "px/s",
            0.0,
            1_000.0,
            "No bounce below this impact speed, so resting bodies do not hop: bounce target \
             −e·v_n only when v_n < −threshold (§7)."
        ),
        float_parameter!(
            wall_restitution,
            Restitution,
            "1",
            0.0,
            1.0,
            "Restitution of the walls; contacts mix e = max(e_A, e_B), so 0 lets the body's \
             material decide (§7)."
        ),
        switch_parameter!(
            restitution_from_step_start,
            Restitution,
            "Rule §7: the bounce uses v_n from the step start. Off: from the velocity after \
             gravity, so a ball leaves with e·(v + g·dt) and an e = 1 ball gains height (R-LAB-1)."
        ),
        switch_parameter!(
            restitution_threshold_enabled,
            Restitution,
            "Rule §7: nothing bounces below restitution_threshold. Off: every approach bounces, \
             so resting bouncy bodies hop in tiny endless bounces (R-LAB-1)."
        ),
        float_parameter!(
            wall_friction,
            FrictionAndRolling,
            "1",
            0.0,
            2.0,
            "Friction of the walls; contacts mix μ = √(μ_A·μ_B) and clamp |P_t| ≤ μ·P_n (§8)."
        ),
        float_parameter!(
            rolling_resistance,
            FrictionAndRolling,
            "1",
            0.0,
            1.0,
            "μ_r: the rolling impulse on ω_B − ω_A is clamped to μ_r·P_n·r; a rolling ball slows \
             at μ_r·g/1.5 (§9)."
        ),
        Parameter {
            name: "position_correction",
            group: ParameterGroup::PositionCorrection,
            unit: "",
            min: 0.0,
            max: (PositionCorrection::ALL.len() - 1) as f32,
            help: "Rule §10: overlap is removed by moving positions (projection). Baumgarte: a \
                   separating velocity β/dt·(depth − slop) flings bodies set into a pile; None: \
                   stacks sink into each other (R-LAB-1).",
            choices: &PositionCorrection::LABELS,
            get: |c| ParameterValue::Choice(c.position_correction.index()),
            set: |c, v| {
                if let ParameterValue::Choice(x) = v {
                    // An index out of range is kept out by `validate` (which reads it back
                    // through `get`); here it leaves the field as it was.
                    if let Some(choice) = PositionCorrection::from_index(x) {
                        c.position_correction = choice;
                    }
                }
            },
        },
        count_parameter!(
            position_iterations,
            PositionCorrection,
            0,
            32,
            "Passes of the position projection after the positions are integrated (§10)."
        ),
        float_parameter!(
            position_correction_factor,
            PositionCorrection,
            "1",
            0.0,
            1.0,
            "Share of the remaining depth removed per pass: C = factor·max(depth − slop, 0) \
             (§10)."
        ),
        float_parameter!(
            penetration_slop,
            PositionCorrection,
            "px",
            0.0,
            4.0,
            "Depth left uncorrected so a resting contact is found again next step instead of \
             flickering (§10)."
        ),
        float_parameter!(
            max_position_correction,
            PositionCorrection,
            "px",
            0.0,
            MIN_BODY_SIZE,
            "Largest projection of one contact in one pass, so a body dropped into a pile moves \
             out gently (§10)."
        ),
        float_parameter!(
            max_wall_penetration,
            PositionCorrection,
            "px",
            0.0,
            1_000.0,
            "Emergency brake: no body ends a step deeper in a wall. Must exceed max_speed·dt so \
             ordinary impacts are left to the solver (§10)."
        ),
        switch_parameter!(
            emergency_brake,
            PositionCorrection,
            "Rule §10: no body ends a step deeper than max_wall_penetration in a wall. Off: a \
             held body squeezes another deep into the wall (R-LAB-1)."
        ),
        switch_parameter!(
            sleeping_enabled,
            Sleeping,
            "Rule §11: islands whose bodies all rested for time_to_sleep are frozen. Off: a \
             resting pile keeps its solver residue and breathes and creeps (R-LAB-1)."
        ),
        float_parameter!(
            sleep_linear_speed,
            Sleeping,
            "px/s",
            0.0,
            100.0,
            "A body rests while |v| ≤ this (and |ω| ≤ sleep_angular_speed) (§11)."
        ),
        float_parameter!(
            sleep_angular_speed,
            Sleeping,
            "rad/s",
            0.0,
            10.0,
            "A body rests while |ω| ≤ this (and |v| ≤ sleep_linear_speed) (§11)."
        ),
        float_parameter!(
            time_to_sleep,
            Sleeping,
            "s",
            0.05,
            60.0,
            "An island falls asleep when all its bodies rested this long (§11)."
        ),
        float_parameter!(
            max_speed,
            Tunnelling,
            "px/s",
            1.0,
            100_000.0,
            "Speed clamp after the impulses and on throws: at most 0.9·MIN_BODY_SIZE/dt so two \
             12 px bodies cannot pass through each other; |ω| ≤ max_speed/12 px (§12)."
        ),
        switch_parameter!(
            speed_limit,
            Tunnelling,
            "Rule §12: every velocity is clamped to max_speed. Off: a small fast body jumps \
             through a thin one between two steps (R-LAB-1)."
        ),
        float_parameter!(
            drag_rate,
            Drag,
            "1/s",
            1.0,
            1_000.0,
            "A held body gets v = (target − position)·rate before each step; rate·dt ≤ 1 so it \
             never overshoots (§13)."
        ),
        float_parameter!(
            tracker_window,
            Drag,
            "s",
            0.01,
            1.0,
            "The throw velocity is the mean pointer velocity over this window (§13)."
        ),
        float_parameter!(
            tracker_tau,
            Drag,
            "s",
            0.001,
            1.0,
            "Time constant of the smoothing v ← v + (v_raw − v)·(1 − e^(−Δt/τ)) (§13)."
        ),
        switch_parameter!(
            hand_absorbs_bounces,
            Drag,
            "Rule §7, §13: a held body does not bounce. Off: a bouncy body pressed against an \
             obstacle rebounds every step, is pulled back and shakes (R-LAB-1)."
        ),
    ];

    /// The parameter description of field `name`, if there is such a field.
    pub fn parameter(name: &str) -> Option<&'static Parameter> {
        Self::PARAMETERS.iter().find(|p| p.name == name)
    }

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
    /// `(∞, ∞)` with the [`speed_limit`](Self::speed_limit) switch off (R-LAB-1): every
    /// clamp of the world reads them here, so an infinite limit leaves each velocity as it
    /// is without a branch of its own.
    pub fn speed_limits(&self) -> (f32, f32) {
        if self.speed_limit {
            (self.max_speed, self.max_angular_speed())
        } else {
            (f32::INFINITY, f32::INFINITY)
        }
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
