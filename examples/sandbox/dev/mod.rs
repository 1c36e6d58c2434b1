//! Test tooling, not part of the sandbox a reader needs: the scripted run CI drives in a real
//! window, and the frame benchmark. The sandbox itself never refers to anything here; its
//! `main` hands the command line's `--smoke`, `--bench` and `--seconds` to [`DevOptions`] and
//! adds the [`DevOptions::plugin`] it gets back.
//!
//! * `--smoke <dir>` ([`smoke`]): real pointer and key input through X (`xdotool`), taps made
//!   in the app ([`touch`]), screenshots and their [`snapshot`]s at fixed frames;
//!   `.ci/sandbox-smoke` runs it under Xvfb and `tests/sandbox_smoke.rs` checks the folder.
//! * `--bench <bodies> [--seconds <s>] [--lab] [--lab-window] [--at-rest]` ([`bench`]): the
//!   stress scene with that many bodies, the frame rate while they fall and after they
//!   settle, then exit.

mod bench;

pub use bench::BenchOptions;
mod frames;
mod shot;
mod smoke;
mod snapshot;
mod touch;

use std::path::PathBuf;

use bevy::prelude::*;

/// The command line's test-tooling flags.
#[derive(Clone, Debug, PartialEq)]
pub struct DevOptions {
    /// `--smoke <dir>`: where the scripted run writes its screenshots.
    pub smoke: Option<PathBuf>,
    /// `--bench <bodies>`: the stress scene's body count.
    pub bench: Option<usize>,
    /// `--seconds <s>`: how long the bench measures after the load. Default 12.
    pub seconds: f64,
    /// `--lab`: the bench runs with the plots and the inspector open (what issue 17's frame
    /// budget is about).
    pub lab: bool,
    /// `--lab-window`: the bench runs with the lab's window of rule switches open too.
    pub lab_window: bool,
    /// `--at-rest`: the bench's bodies start at rest with gravity off, and fall asleep.
    pub at_rest: bool,
}

impl Default for DevOptions {
    fn default() -> Self {
        Self {
            smoke: None,
            bench: None,
            seconds: 12.0,
            lab: false,
            lab_window: false,
            at_rest: false,
        }
    }
}

impl DevOptions {
    /// The flags' part of the usage line.
    pub const USAGE: &str =
        "[--bench <bodies> [--seconds <s>] [--lab] [--lab-window] [--at-rest]] [--smoke <dir>]";

    /// Takes `arg` (and its value from `args`) if it is one of these flags; `Ok(false)` if it
    /// is not, `Err` with the message for a bad value.
    pub fn parse(
        &mut self,
        arg: &str,
        args: &mut impl Iterator<Item = String>,
    ) -> Result<bool, String> {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg {
            "--bench" => {
                let text = value("--bench")?;
                let bodies = text.parse().ok().filter(|n| (1..=20_000).contains(n));
                self.bench =
                    Some(bodies.ok_or(format!("--bench {text}: expected 1 to 20000 bodies"))?);
            }
            "--seconds" => {
                let text = value("--seconds")?;
                let seconds = text.parse().ok().filter(|s: &f64| (1.0..=600.0).contains(s));
                self.seconds = seconds.ok_or(format!("--seconds {text}: expected 1 to 600"))?;
            }
            "--smoke" => self.smoke = Some(PathBuf::from(value("--smoke")?)),
            "--lab" => self.lab = true,
            "--lab-window" => self.lab_window = true,
            "--at-rest" => self.at_rest = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The window these flags want (title, default size), if any. Measured runs do not wait
    /// for the display's refresh.
    pub fn window(&self) -> Option<(&'static str, (u32, u32))> {
        match (&self.smoke, self.bench) {
            (Some(_), _) => Some((smoke::SMOKE_TITLE, (1600, 900))),
            (None, Some(_)) => Some(("bevy_sandbox_physics bench", (1920, 1080))),
            (None, None) => None,
        }
    }

    /// Creates the smoke run's folder.
    pub fn prepare(&self) -> Result<(), String> {
        match &self.smoke {
            Some(dir) => std::fs::create_dir_all(dir)
                .map_err(|error| format!("cannot create {}: {error}", dir.display())),
            None => Ok(()),
        }
    }

    /// The plugin that runs the smoke script or the bench, if asked for.
    pub fn plugin(&self) -> Option<DevPlugin> {
        match (&self.smoke, self.bench) {
            (Some(dir), _) => Some(DevPlugin::Smoke(dir.clone())),
            (None, Some(bodies)) => Some(DevPlugin::Bench(BenchOptions {
                bodies,
                seconds: self.seconds,
                lab: self.lab,
                lab_window: self.lab_window,
                at_rest: self.at_rest,
            })),
            (None, None) => None,
        }
    }
}

/// The smoke script (screenshots into a folder) or the bench.
pub enum DevPlugin {
    /// `--smoke <dir>`.
    Smoke(PathBuf),
    /// `--bench <bodies> --seconds <s> [--lab] [--lab-window] [--at-rest]`.
    Bench(BenchOptions),
}

impl Plugin for DevPlugin {
    fn build(&self, app: &mut App) {
        match self {
            DevPlugin::Smoke(dir) => app.add_plugins(smoke::SmokePlugin { dir: dir.clone() }),
            DevPlugin::Bench(options) => app.add_plugins(bench::BenchPlugin(*options)),
        };
    }
}
