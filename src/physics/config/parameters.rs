//! The parameter table: every field of [`PhysicsConfig`] with its group, unit, range and
//! tooltip, typed as a UI edits it (§14). A UI that walks [`PhysicsConfig::PARAMETERS`]
//! covers every field; `validate` checks each against its range here.

use std::fmt;

use glam::Vec2;

use super::{MIN_BODY_SIZE, PhysicsConfig, PositionCorrection};

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
             the accumulated impulses clamped (§6); half again as many while most awake bodies rest \
             and none is faster than the restitution threshold, with sleeping on (D12)."
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
            "Rule §6: P_n ≥ 0 holds for the sum over the passes. Off: each pass clamps its own \
             increment, no pass can take an impulse back, and an e = 0 box bounces (R-LAB-1)."
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
             and a resting stack of bouncy bodies jitters instead of sleeping (R-LAB-1)."
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
             resting pile stays awake, is solved every step and creeps (R-LAB-1)."
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
            "An island falls asleep when all its bodies rested this long and none moves \
             faster than the bounce threshold (§11, D8)."
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
             through a thin one between two steps (R-LAB-1); speeds still stop at 10⁶ px/s."
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
}
