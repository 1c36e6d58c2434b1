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
//!
//! # Bevy's clocks
//! `Time<Fixed>`'s timestep and `Time<Virtual>`'s relative speed and max delta are the
//! plugin's ([`PhysicsClocks`]): they follow the config and the time scale in force, and
//! [`keep_clocks`] puts back a change made to them directly, with a warning naming the
//! setting to change instead, before it can time a frame.

use std::time::Duration;

use bevy::prelude::*;

use super::controls::PhysicsTimeScale;
use super::physics_world::{PhysicsWarning, PhysicsWorld, WarnAndSend};
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

/// The settings the plugin gives Bevy's clocks, which are the plugin's alone: `Time<Fixed>`'s
/// timestep, and `Time<Virtual>`'s relative speed and max delta.
///
/// They follow from the config in force and the [`PhysicsTimeScale`] in force, and change only
/// through them ([`retime`], [`apply_time_scale`](super::controls::apply_time_scale)).
/// [`keep_clocks`] compares Bevy's clocks with them: a difference was written behind the
/// plugin's back, and is put back.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub(crate) struct PhysicsClocks {
    /// `Time<Fixed>`'s timestep: [`fixed_timestep`] of `time_step`.
    pub timestep: Duration,
    /// The time scale in force, `Time<Virtual>`'s relative speed.
    pub scale: f32,
    /// `max_steps_per_frame`, kept for a new scale.
    pub max_steps: u32,
}

impl PhysicsClocks {
    /// The clocks for `config` at the time scale `scale`.
    pub fn new(config: &PhysicsConfig, scale: f32) -> Self {
        Self {
            timestep: fixed_timestep(config.time_step),
            scale,
            max_steps: config.max_steps_per_frame.max(1),
        }
    }

    /// `Time<Virtual>`'s max delta: the longest frame, in real time, whose steps the fixed
    /// loop runs, `timestep · max_steps_per_frame / scale` (R-FIX-1).
    ///
    /// Divided by the scale because Bevy clamps the raw frame time to the max delta *before*
    /// multiplying it by the relative speed (`Time<Virtual>::advance_with_raw_delta`): at a
    /// scale of 2, a cap of `timestep · max_steps` would let twice the cap's steps through.
    /// Rounded down to the nanosecond, so that the clamped frame times the speed is at most
    /// `max_steps` timesteps, and with the accumulator's remainder (less than one timestep)
    /// never reaches one more.
    pub fn max_delta(&self) -> Duration {
        let budget = (self.timestep * self.max_steps).as_nanos() as f64;
        // The same f32 → f64 conversion `Time::set_relative_speed` makes.
        Duration::from_nanos((budget / f64::from(self.scale)).floor() as u64)
    }

    /// Sets Bevy's clocks to these settings where they differ.
    pub fn apply(&self, fixed: &mut Time<Fixed>, virtual_time: &mut Time<Virtual>) {
        if fixed.timestep() != self.timestep {
            fixed.set_timestep(self.timestep);
        }
        if virtual_time.relative_speed_f64() != f64::from(self.scale) {
            virtual_time.set_relative_speed(self.scale);
        }
        if virtual_time.max_delta() != self.max_delta() {
            virtual_time.set_max_delta(self.max_delta());
        }
    }
}

/// Times the fixed loop for `config` at the time scale in force: `Time<Fixed>` at
/// `1/time_step` Hz, and `Time<Virtual>`'s max delta at
/// `time_step · max_steps_per_frame / scale`, so that one frame never runs more than
/// `max_steps_per_frame` steps and a longer backlog is dropped (R-FIX-1).
pub(crate) fn retime(
    config: &PhysicsConfig,
    clocks: &mut PhysicsClocks,
    fixed: &mut Time<Fixed>,
    virtual_time: &mut Time<Virtual>,
) {
    *clocks = PhysicsClocks::new(config, clocks.scale);
    clocks.apply(fixed, virtual_time);
}

/// [`retime`] from exclusive code (a load, a rewind, a rebuilt world).
pub(crate) fn retime_world(world: &mut World, config: &PhysicsConfig) {
    world.resource_scope(|world, mut fixed: Mut<Time<Fixed>>| {
        world.resource_scope(|world, mut clocks: Mut<PhysicsClocks>| {
            let mut virtual_time = world.resource_mut::<Time<Virtual>>();
            retime(config, &mut clocks, &mut fixed, &mut virtual_time);
        });
    });
}

/// Times the fixed loop for the initial config, before the first frame.
pub(crate) fn time_fixed_loop(
    clocks: Res<PhysicsClocks>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virtual_time: ResMut<Time<Virtual>>,
) {
    clocks.apply(&mut fixed, &mut virtual_time);
}

/// Puts Bevy's clocks back to the plugin's settings ([`PhysicsClocks`]) when something else
/// changed them, with one warning per change naming what to change instead.
///
/// Such a change would bypass both the validation and the cap: a `Time<Fixed>` timestep of
/// 100 µs runs 167 steps of `time_step` in a 1/60 s frame, a relative speed of 50 runs 50
/// times the steps while [`PhysicsTimeScale`] still says 1, and a max delta of Bevy's
/// default 250 ms lets 30 steps through a long frame. The step itself is always
/// `PhysicsConfig::time_step`, so a different timestep could only run the world at the
/// wrong speed.
///
/// Runs in `First` before Bevy's time update, so that the frame's virtual time already
/// advances with the plugin's speed and cap, and again just before the fixed loop, which
/// catches a timestep changed in between.
pub(crate) fn keep_clocks(
    clocks: Res<PhysicsClocks>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    let mut refuse = |message: String| warnings.warn_and_send(None, message);
    if fixed.timestep() != clocks.timestep {
        refuse(format!(
            "Time<Fixed> timestep {:?} refused: the plugin times the fixed loop at \
             PhysicsConfig::time_step, so set that instead (each step advances the world by \
             it); put back to {:?}",
            fixed.timestep(),
            clocks.timestep
        ));
    }
    if virtual_time.relative_speed_f64() != f64::from(clocks.scale) {
        refuse(format!(
            "Time<Virtual> relative speed {} refused: set PhysicsTimeScale instead (allowed {} \
             to {}); put back to {}",
            virtual_time.relative_speed_f64(),
            PhysicsTimeScale::MIN,
            PhysicsTimeScale::MAX,
            clocks.scale
        ));
    }
    if virtual_time.max_delta() != clocks.max_delta() {
        refuse(format!(
            "Time<Virtual> max delta {:?} refused: it caps a frame at \
             PhysicsConfig::max_steps_per_frame steps ({}), so set that instead; put back to \
             {:?}",
            virtual_time.max_delta(),
            clocks.max_steps,
            clocks.max_delta()
        ));
    }
    // Without a difference this writes nothing: no change ticks.
    clocks.apply(&mut fixed, &mut virtual_time);
}

/// Hands a changed [`PhysicsConfig`] resource to the core; refuses invalid ones (R-CFG-3).
pub(crate) fn apply_config(
    mut config: ResMut<PhysicsConfig>,
    mut physics: ResMut<PhysicsWorld>,
    mut clocks: ResMut<PhysicsClocks>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut warnings: MessageWriter<PhysicsWarning>,
) {
    if !config.is_changed() || *config == *physics.world().config() {
        return;
    }
    match physics.apply(Input::SetConfig(config.clone())) {
        Ok(_) => retime(&config, &mut clocks, &mut fixed, &mut virtual_time),
        Err(error) => {
            let message = format!("PhysicsConfig refused, the last valid one stays: {error}");
            warnings.warn_and_send(None, message);
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
