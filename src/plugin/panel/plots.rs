//! Live plots of the simulation (R-LAB-2): energy, momentum, bodies awake and the step time
//! per phase over the last seconds.
//!
//! While the plot window is open, one [`PlotSample`] is taken after every fixed step (one
//! pass over the bodies), so the history stops when the simulation pauses and goes on where
//! it stopped. The window draws at most [`MAX_POINTS_PER_LINE`] points per line, however long
//! the history: the cost per frame does not grow with the body count.

use std::collections::VecDeque;

use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints};

use super::super::physics_world::PhysicsWorld;
use crate::physics::World;

/// Points drawn per line at most, each the largest value of its stretch of the history, so
/// a one-step spike of the step time still shows. Fewer points cost less to lay out and
/// tessellate every frame (`benches/lab_windows.rs`).
pub const MAX_POINTS_PER_LINE: usize = 100;

/// The power of 1000 that brings the largest `|value|` of a series below 10 000, and its
/// label: a pile's potential energy is some 10¹⁰ mass·px²/s², a ball's kinetic energy 10⁵.
fn unit_for(largest: f64) -> (f64, &'static str) {
    const UNITS: [(f64, &str); 5] =
        [(1.0, ""), (1e3, "10³ "), (1e6, "10⁶ "), (1e9, "10⁹ "), (1e12, "10¹² ")];
    UNITS.into_iter().find(|(unit, _)| largest < 1e4 * unit).unwrap_or(UNITS[4])
}

/// The step time of each phase of §4 in one step, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseMillis {
    /// Sweep and prune (§5).
    pub broad: f32,
    /// Body–body and wall contacts, islands (§5, §11).
    pub narrow: f32,
    /// The velocity solver (§6–§9).
    pub solve: f32,
    /// Position projection and the emergency brake (§10).
    pub project: f32,
    /// Sleep and collision events (§11).
    pub sleep: f32,
    /// The whole step.
    pub total: f32,
}

/// What one fixed step leaves behind for the plots.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlotSample {
    /// Simulated time, s: the sum of the steps' `time_step`s since recording began.
    pub time: f64,
    /// Kinetic energy, translation and rotation, mass·px²/s².
    pub kinetic: f64,
    /// Potential energy in the gravity field, measured from the world's lowest corner along
    /// gravity, so a body resting on the floor has none (0 with gravity off).
    pub potential: f64,
    /// Linear momentum Σ m·v of the dynamic bodies, mass·px/s, core frame (y down).
    pub momentum: DVec2,
    /// Bodies awake.
    pub awake: u32,
    /// Step time per phase.
    pub phases: PhaseMillis,
}

impl PlotSample {
    /// Measures `world` after a step, `time` s after recording began.
    pub fn measure(world: &World, time: f64) -> Self {
        let gravity =
            if world.gravity_enabled() { world.config().gravity.as_dvec2() } else { DVec2::ZERO };
        let (min, max) = world.bounds();
        // The corner farthest along gravity: heights are measured from it.
        let lowest = DVec2::new(
            if gravity.x > 0.0 { f64::from(max.x) } else { f64::from(min.x) },
            if gravity.y > 0.0 { f64::from(max.y) } else { f64::from(min.y) },
        );
        let (mut kinetic, mut potential, mut momentum) = (0.0, 0.0, DVec2::ZERO);
        for (_, body) in world.bodies().filter(|(_, b)| b.inverse_mass() > 0.0) {
            let mass = f64::from(body.mass());
            kinetic += f64::from(body.kinetic_energy());
            potential -= mass * gravity.dot(body.position().as_dvec2() - lowest);
            momentum += mass * body.velocity().as_dvec2();
        }
        let stats = world.stats();
        let ms = |d: std::time::Duration| d.as_secs_f32() * 1000.0;
        let t = &stats.timings;
        Self {
            time,
            kinetic,
            potential,
            momentum,
            awake: stats.awake as u32,
            phases: PhaseMillis {
                broad: ms(t.broad_phase),
                narrow: ms(t.narrow_phase + t.walls),
                solve: ms(t.solve_velocities),
                project: ms(t.correct_positions),
                sleep: ms(t.sleep),
                total: ms(t.total),
            },
        }
    }

    /// Kinetic plus potential energy.
    pub fn total_energy(&self) -> f64 {
        self.kinetic + self.potential
    }
}

/// The plot window and its history.
#[derive(Resource, Debug)]
pub struct PhysicsPlots {
    /// Whether the plot window is open; samples are only taken while it is. Default false.
    pub open: bool,
    /// How much history is kept, s. Default 10.
    pub history_seconds: f32,
    samples: VecDeque<PlotSample>,
    /// The step count of the last sample: a world that went back (reset, rewound) starts a
    /// new history.
    last_step: Option<u64>,
}

impl Default for PhysicsPlots {
    fn default() -> Self {
        Self { open: false, history_seconds: 10.0, samples: VecDeque::new(), last_step: None }
    }
}

impl PhysicsPlots {
    /// The samples kept, oldest first.
    pub fn samples(&self) -> impl ExactSizeIterator<Item = &PlotSample> + '_ {
        self.samples.iter()
    }

    /// The latest sample.
    pub fn latest(&self) -> Option<&PlotSample> {
        self.samples.back()
    }

    /// Forgets the history.
    pub fn clear(&mut self) {
        self.samples.clear();
        self.last_step = None;
    }

    /// Takes a sample of `world` after a step that lasted `dt` s.
    pub fn record(&mut self, world: &World, dt: f32) {
        let step = world.step_count();
        if self.last_step.is_some_and(|last| step <= last) {
            self.samples.clear();
        }
        self.last_step = Some(step);
        let time = self.samples.back().map_or(0.0, |s| s.time) + f64::from(dt);
        self.samples.push_back(PlotSample::measure(world, time));
        let keep = self.history_seconds.max(0.1);
        while self.samples.front().is_some_and(|s| time - s.time > f64::from(keep)) {
            self.samples.pop_front();
        }
    }
}

/// Takes a sample after each fixed step while the plot window is open.
pub(super) fn record_plot_sample(physics: Res<PhysicsWorld>, mut plots: ResMut<PhysicsPlots>) {
    if physics.stepped_last_run() {
        let dt = physics.world().config().time_step;
        plots.record(physics.world(), dt);
    }
}

/// Whether samples are being taken.
pub(super) fn plots_open(plots: Res<PhysicsPlots>) -> bool {
    plots.open
}

/// Shows the plot window (when [`PhysicsPlots::open`]); it opens `top` px below the top of
/// the window.
pub fn show_physics_plots(ctx: &egui::Context, plots: &mut PhysicsPlots, top: f32) {
    let mut open = plots.open;
    egui::Window::new("Plots")
        .id(egui::Id::new("bevy_sandbox_physics_plots"))
        .open(&mut open)
        // Away from the edges, where a tall window counts as a docked column (and beside a
        // palette of up to 250 px at the right edge).
        .default_pos(egui::pos2((ctx.content_rect().right() - 720.0).max(60.0), top))
        .default_width(440.0)
        .default_height((ctx.content_rect().height() - top - 48.0).min(640.0))
        .vscroll(true)
        .show(ctx, |ui| physics_plots_ui(ui, plots));
    if open != plots.open {
        plots.open = open;
    }
}

/// One series of the history: `value` of every `stride`-th sample against its time.
fn series(
    samples: &VecDeque<PlotSample>,
    value: impl Fn(&PlotSample) -> f64,
) -> PlotPoints<'static> {
    let stride = samples.len().div_ceil(MAX_POINTS_PER_LINE).max(1);
    samples.iter().step_by(stride).map(|s| [s.time, value(s)]).collect()
}

/// Draws the plots: energy, momentum, bodies awake, step time per phase.
pub fn physics_plots_ui(ui: &mut egui::Ui, plots: &mut PhysicsPlots) {
    let (Some(first), Some(latest)) = (plots.samples.front(), plots.samples.back()) else {
        ui.label("No steps recorded yet: the plots fill while the simulation runs.");
        return;
    };
    let span = latest.time - first.time;
    ui.horizontal(|ui| {
        ui.label(format!("last {span:.1} s, {} steps", plots.samples.len()));
        if ui.small_button("Clear").on_hover_text("Forget the history").clicked() {
            plots.clear();
        }
    });
    let samples = &plots.samples;
    if samples.is_empty() {
        return;
    }
    let height = 120.0;
    // The four share their time axis (linked); only the last one labels it.
    let plot = |id: &str, label: &str, last: bool| {
        let plot = Plot::new(id)
            .height(height)
            .legend(Legend::default())
            .y_axis_label(label.to_owned())
            .allow_scroll(false)
            .link_axis("bevy_sandbox_physics_plots_time", [true, false]);
        if last { plot.x_axis_label("t (s)") } else { plot.show_axes([false, true]) }
    };
    let largest =
        |value: fn(&PlotSample) -> f64| samples.iter().map(|s| value(s).abs()).fold(0.0, f64::max);
    let (energy, prefix) = unit_for(largest(PlotSample::total_energy).max(largest(|s| s.kinetic)));
    ui.strong(format!("Energy ({prefix}mass·px²/s²): kinetic, potential above the floor, total"));
    plot("physics_plot_energy", "E", false).show(ui, |p| {
        p.line(Line::new("kinetic", series(samples, |s| s.kinetic / energy)));
        p.line(Line::new("potential", series(samples, |s| s.potential / energy)));
        p.line(Line::new("total", series(samples, |s| s.total_energy() / energy)));
    });
    let (momentum, prefix) = unit_for(largest(|s| s.momentum.x).max(largest(|s| s.momentum.y)));
    ui.strong(format!("Linear momentum Σm·v ({prefix}mass·px/s, y down)"));
    plot("physics_plot_momentum", "p", false).show(ui, |p| {
        p.line(Line::new("p_x", series(samples, |s| s.momentum.x / momentum)));
        p.line(Line::new("p_y", series(samples, |s| s.momentum.y / momentum)));
    });
    ui.strong("Bodies awake");
    plot("physics_plot_awake", "n", false).show(ui, |p| {
        p.line(Line::new("awake", series(samples, |s| f64::from(s.awake))));
    });
    ui.strong("Step time per phase (ms)");
    plot("physics_plot_phases", "ms", true).show(ui, |p| {
        let phase = |f: fn(&PhaseMillis) -> f32| series(samples, move |s| f64::from(f(&s.phases)));
        p.line(Line::new("broad", phase(|m| m.broad)));
        p.line(Line::new("narrow", phase(|m| m.narrow)));
        p.line(Line::new("solve", phase(|m| m.solve)));
        p.line(Line::new("project", phase(|m| m.project)));
        p.line(Line::new("sleep", phase(|m| m.sleep)));
        p.line(Line::new("total", phase(|m| m.total)));
    });
}
