//! Live plots of the simulation (R-LAB-2): energy, momentum, bodies awake and the step time
//! per phase over the last seconds.
//!
//! While the plot window is open, one [`PlotSample`] is taken after every fixed step (one
//! pass over the bodies), so the history stops when the simulation pauses and goes on where
//! it stopped. The window draws at most [`MAX_POINTS_PER_LINE`] points per line, however long
//! the history: the cost per frame does not grow with the body count.
//!
//! The lines are rebuilt from the history [`REFRESH_SECONDS`] apart, not every frame: between
//! two rebuilds the plots' bounds and tick labels stay the same, so egui lays out no new text
//! (most of the window's cost per frame, `benches/lab_windows.rs`), only draws again.

use std::collections::VecDeque;

use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Legend, Line, Plot, PlotPoint, PlotPoints};

use super::super::physics_world::PhysicsWorld;
use crate::physics::World;

/// Points drawn per line at most. The step times and the bodies awake draw the largest value
/// of each stretch of the history, so a one-step spike still shows; energy and momentum draw
/// one sample per stretch. Fewer points cost less to tessellate every frame
/// (`benches/lab_windows.rs`).
pub const MAX_POINTS_PER_LINE: usize = 60;

/// How often the drawn lines are rebuilt from the history, s of the UI's clock (5 Hz).
pub const REFRESH_SECONDS: f64 = 0.2;

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
        // Summed in storage order: the sum does not depend on it beyond rounding, and a
        // pass in handle order costs several times more once the world has sorted itself.
        for (_, body) in world.bodies_in_storage_order().filter(|(_, b)| b.inverse_mass() > 0.0) {
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
    /// The lines as last rebuilt.
    view: Option<PlotView>,
}

impl Default for PhysicsPlots {
    fn default() -> Self {
        Self {
            open: false,
            history_seconds: 10.0,
            samples: VecDeque::new(),
            last_step: None,
            view: None,
        }
    }
}

/// The drawn lines, rebuilt from the history at `at` (the UI's clock, s).
#[derive(Debug)]
struct PlotView {
    at: f64,
    heading: String,
    energy_title: String,
    momentum_title: String,
    /// kinetic, potential, total (scaled by the energy unit)
    energy: [Vec<PlotPoint>; 3],
    /// p_x, p_y (scaled by the momentum unit)
    momentum: [Vec<PlotPoint>; 2],
    awake: Vec<PlotPoint>,
    /// broad, narrow, solve, project, sleep, total
    phases: [Vec<PlotPoint>; 6],
}

impl PlotView {
    /// The lines of `samples` (not empty).
    fn build(samples: &VecDeque<PlotSample>, at: f64) -> Self {
        let span = match (samples.front(), samples.back()) {
            (Some(first), Some(last)) => last.time - first.time,
            _ => 0.0,
        };
        let largest = |value: fn(&PlotSample) -> f64| {
            samples.iter().map(|s| value(s).abs()).fold(0.0, f64::max)
        };
        let (energy, energy_prefix) =
            unit_for(largest(PlotSample::total_energy).max(largest(|s| s.kinetic)));
        let (momentum, momentum_prefix) =
            unit_for(largest(|s| s.momentum.x).max(largest(|s| s.momentum.y)));
        let phase = |f: fn(&PhaseMillis) -> f32| peaks(samples, move |s| f64::from(f(&s.phases)));
        Self {
            at,
            heading: format!("last {span:.1} s, {} steps", samples.len()),
            energy_title: format!(
                "Energy ({energy_prefix}mass·px²/s²): kinetic, potential above the floor, total"
            ),
            momentum_title: format!("Linear momentum Σm·v ({momentum_prefix}mass·px/s, y down)"),
            energy: [
                series(samples, |s| s.kinetic / energy),
                series(samples, |s| s.potential / energy),
                series(samples, |s| s.total_energy() / energy),
            ],
            momentum: [
                series(samples, |s| s.momentum.x / momentum),
                series(samples, |s| s.momentum.y / momentum),
            ],
            awake: peaks(samples, |s| f64::from(s.awake)),
            phases: [
                phase(|m| m.broad),
                phase(|m| m.narrow),
                phase(|m| m.solve),
                phase(|m| m.project),
                phase(|m| m.sleep),
                phase(|m| m.total),
            ],
        }
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
        self.view = None;
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
    if !plots.open {
        plots.view = None;
    }
}

/// The stretch of samples one drawn point stands for.
fn stride(samples: &VecDeque<PlotSample>) -> usize {
    samples.len().div_ceil(MAX_POINTS_PER_LINE).max(1)
}

/// One series of the history: `value` of the first sample of each stretch against its time.
fn series(samples: &VecDeque<PlotSample>, value: impl Fn(&PlotSample) -> f64) -> Vec<PlotPoint> {
    samples.iter().step_by(stride(samples)).map(|s| PlotPoint::new(s.time, value(s))).collect()
}

/// One series of the history: the largest `value` of each stretch, at the stretch's first
/// time, so a spike of one step still shows.
fn peaks(samples: &VecDeque<PlotSample>, value: impl Fn(&PlotSample) -> f64) -> Vec<PlotPoint> {
    let stride = stride(samples);
    let mut points = Vec::with_capacity(MAX_POINTS_PER_LINE);
    let mut stretch = samples.iter();
    while let Some(first) = stretch.next() {
        let rest = stretch.by_ref().take(stride - 1);
        points.push(PlotPoint::new(first.time, rest.map(&value).fold(value(first), f64::max)));
    }
    points
}

/// A line of `points`.
fn line<'a>(name: &str, points: &'a [PlotPoint]) -> Line<'a> {
    Line::new(name, PlotPoints::Borrowed(points))
}

/// Draws the plots: energy, momentum, bodies awake, step time per phase.
pub fn physics_plots_ui(ui: &mut egui::Ui, plots: &mut PhysicsPlots) {
    if plots.samples.is_empty() {
        ui.label("No steps recorded yet: the plots fill while the simulation runs.");
        return;
    }
    let now = ui.input(|i| i.time);
    let stale = |v: &PlotView| !(0.0..REFRESH_SECONDS).contains(&(now - v.at));
    if plots.view.as_ref().is_none_or(stale) {
        plots.view = Some(PlotView::build(&plots.samples, now));
    }
    let mut clear = false;
    if let Some(view) = &plots.view {
        ui.horizontal(|ui| {
            ui.label(view.heading.as_str());
            clear = ui.small_button("Clear").on_hover_text("Forget the history").clicked();
        });
        draw_view(ui, view);
    }
    if clear {
        plots.clear();
    }
}

/// Draws the four plots of `view`.
fn draw_view(ui: &mut egui::Ui, view: &PlotView) {
    let height = 120.0;
    // The four share their time axis (linked); only the last one labels it.
    let plot = |id: &str, label: &str, last: bool| {
        let plot = Plot::new(id)
            .height(height)
            // Grid lines from 24 px apart instead of 8: a third of the faint lines to lay out
            // and tessellate in every frame, the same scale to read (issue 17's frame cost).
            .grid_spacing(24.0..=300.0)
            .y_axis_label(label.to_owned())
            .allow_scroll(false)
            .link_axis("bevy_sandbox_physics_plots_time", [true, false]);
        if last { plot.x_axis_label("t (s)") } else { plot.show_axes([false, true]) }
    };
    ui.strong(view.energy_title.as_str());
    // A legend only where there is more than one line: each is a row of widgets per frame.
    plot("physics_plot_energy", "E", false).legend(Legend::default()).show(ui, |p| {
        for (name, points) in ["kinetic", "potential", "total"].into_iter().zip(&view.energy) {
            p.line(line(name, points));
        }
    });
    ui.strong(view.momentum_title.as_str());
    plot("physics_plot_momentum", "p", false).legend(Legend::default()).show(ui, |p| {
        for (name, points) in ["p_x", "p_y"].into_iter().zip(&view.momentum) {
            p.line(line(name, points));
        }
    });
    ui.strong("Bodies awake");
    plot("physics_plot_awake", "n", false).show(ui, |p| p.line(line("awake", &view.awake)));
    ui.strong("Step time per phase (ms)");
    plot("physics_plot_phases", "ms", true).legend(Legend::default()).show(ui, |p| {
        let names = ["broad", "narrow", "solve", "project", "sleep", "total"];
        for (name, points) in names.into_iter().zip(&view.phases) {
            p.line(line(name, points));
        }
    });
}
