//! [`PhysicsConfig`] as a Bevy resource: live changes, refusal of invalid values (R-CFG-2,
//! R-CFG-3), and the timing of `FixedUpdate`.
//!
//! The config type belongs to the core (`src/physics/config.rs`); under the `bevy` feature it
//! derives `Resource` and `Reflect` there, and `Serialize`/`Deserialize` under `serde`, which
//! the `bevy` feature turns on.
//!
//! # Taking effect
//! [`apply_config`] runs first in [`PhysicsSystems::Prepare`](super::PhysicsSystems): when the
//! resource differs from the config in force,
//! [`World::set_config`](crate::physics::World::set_config) validates it. A valid config takes
//! effect on this very step; a changed `time_step` or `max_steps_per_frame` re-times
//! `Time<Fixed>` and `Time<Virtual>`. An invalid one is refused with a warning that names each
//! bad field and its allowed range, the resource is reset to the config in force,
//! and a [`PhysicsWarning`] message carries the same text.

use std::time::Duration;

use bevy::prelude::*;

use super::physics_world::{PhysicsWarning, PhysicsWorld};
use crate::physics::{Input, PhysicsConfig};

/// The `Time<Fixed>` timestep for a core `time_step` in seconds.
///
/// `1.0 / 120.0` as an `f32` is 8.333 334 ms, 0.7 ns longer than 1/120 s: two such steps do
/// not fit into a 1/60 s frame, and a second of 1/60 s frames would run 119 steps instead of
/// 120. A time step within 0.1 % of a whole rate in Hz is therefore timed at that exact rate.
/// The core still integrates with the `f32` value (a relative difference of 10⁻⁷).
pub(crate) fn fixed_timestep(time_step: f32) -> Duration {
    let seconds = f64::from(time_step).max(1.0e-6);
    let hz = 1.0 / seconds;
    let whole = hz.round();
    if whole >= 1.0 && (hz - whole).abs() <= 1.0e-3 * hz {
        Duration::from_secs_f64(1.0 / whole)
    } else {
        Duration::from_secs_f64(seconds)
    }
}

/// Times the fixed loop for `config`: `Time<Fixed>` at `1/time_step` Hz, and
/// `Time<Virtual>`'s max delta at `time_step · max_steps_per_frame`, so that one frame never
/// runs more than `max_steps_per_frame` steps and a longer backlog is dropped (R-FIX-1).
pub(crate) fn retime(
    config: &PhysicsConfig,
    fixed: &mut Time<Fixed>,
    virtual_time: &mut Time<Virtual>,
) {
    let step = fixed_timestep(config.time_step);
    if fixed.timestep() != step {
        fixed.set_timestep(step);
    }
    let max_delta = step * config.max_steps_per_frame.max(1);
    if virtual_time.max_delta() != max_delta {
        virtual_time.set_max_delta(max_delta);
    }
}

/// Times the fixed loop for the initial config, before the first frame.
pub(crate) fn time_fixed_loop(
    config: Res<PhysicsConfig>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virtual_time: ResMut<Time<Virtual>>,
) {
    retime(&config, &mut fixed, &mut virtual_time);
}

/// Hands a changed [`PhysicsConfig`] resource to the core; refuses invalid ones (R-CFG-3).
pub(crate) fn apply_config(
    mut config: ResMut<PhysicsConfig>,
    mut physics: ResMut<PhysicsWorld>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    if !config.is_changed() || *config == *physics.world().config() {
        return;
    }
    match physics.apply(Input::SetConfig(config.clone())) {
        Ok(_) => retime(&config, &mut fixed, &mut virtual_time),
        Err(error) => {
            let message = format!("PhysicsConfig refused, the last valid one stays: {error}");
            warn!("{message}");
            warnings.write(PhysicsWarning { entity: None, message });
            *config = physics.world().config().clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::reflect::structs::Struct;

    use super::*;

    #[test]
    fn reflection_covers_every_parameter() {
        let config = PhysicsConfig::default();
        assert_eq!(config.field_len(), PhysicsConfig::PARAMETERS.len());
        for parameter in PhysicsConfig::PARAMETERS {
            assert!(config.field(parameter.name).is_some(), "{} is not reflected", parameter.name);
        }
    }

    #[test]
    fn whole_rates_are_timed_exactly_r_fix_1() {
        assert_eq!(fixed_timestep(1.0 / 120.0), Duration::from_secs_f64(1.0 / 120.0));
        // Two steps fit into a 1/60 s frame (8 333 333 ns each, 16 666 667 ns per frame).
        assert!(fixed_timestep(1.0 / 120.0) * 2 <= Duration::from_secs_f64(1.0 / 60.0));
        assert_eq!(fixed_timestep(0.01), Duration::from_millis(10));
        assert_eq!(fixed_timestep(0.0123), Duration::from_secs_f64(f64::from(0.0123f32)));
    }
}
