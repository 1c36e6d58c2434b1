//! `RESULTS.md` and the scaling plot (an SVG written by hand, no plotting crate).

use std::fmt::Write as _;
use std::process::Command;

use bevy_sandbox_physics::physics::PhysicsConfig;

use crate::engines::{EngineKind, PX_PER_METRE};
use crate::{Case, Measurement};

/// The machine and toolchain a run was made on.
pub struct Machine {
    cpus: usize,
    cpu_model: String,
    rustc: String,
    date: String,
    load: String,
    load_end: String,
    versions: String,
    core: String,
}

impl Machine {
    /// Reads `/proc/cpuinfo`, `/proc/loadavg`, `rustc -V`, `date` and the peers' lock file.
    pub fn read() -> Self {
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
            cpu_model,
            rustc: command_output("rustc", &["-V"]),
            date: command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
            load: load_average(),
            load_end: String::new(),
            versions: locked_versions(&["boxdd", "boxdd-sys", "rapier2d", "parry2d"]),
            core: core_revision(),
        }
    }

    /// Notes the load average at the end of the run.
    pub fn finish(&mut self) {
        self.load_end = load_average();
    }

    /// One line for the terminal.
    pub fn summary(&self) -> String {
        format!(
            "{} cpus, {}, {}, load {}, {}, our core {}",
            self.cpus, self.cpu_model, self.rustc, self.load, self.versions, self.core
        )
    }
}

/// The commit our engine was built from, and whether `src/physics` had changes beyond it.
pub fn core_revision() -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let commit = command_output("git", &["-C", root, "rev-parse", "--short", "HEAD"]);
    let changes =
        command_output("git", &["-C", root, "status", "--porcelain", "--", "src/physics"]);
    if changes == "unknown" {
        format!("commit {commit}")
    } else {
        format!("commit {commit} with uncommitted changes in src/physics")
    }
}

/// The 1, 5 and 15 minute load averages: other work on the machine slows every engine.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn command_output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// `name version` of each package in the peers' `Cargo.lock`.
fn locked_versions(names: &[&str]) -> String {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"))
        .unwrap_or_default();
    let mut found = Vec::new();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix("name = \"").and_then(|l| l.strip_suffix('"')) else {
            continue;
        };
        let version = lines.next().and_then(|l| l.strip_prefix("version = "));
        if let Some(version) = version.filter(|_| names.contains(&name)) {
            found.push(format!("{name} {}", version.trim_matches('"')));
        }
    }
    found.join(", ")
}

fn optional(value: Option<f32>) -> String {
    value.map_or_else(|| "–".into(), |v| format!("{v:.2}"))
}

/// The whole `RESULTS.md`.
pub fn markdown(
    machine: &Machine,
    shared: &[(&Case, Vec<Measurement>)],
    scaling: &[(&Case, Vec<Measurement>)],
    runs: usize,
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Benchmark results: our engine, Box2D v3 and rapier2d\n");
    let _ = writeln!(
        md,
        "Written by `benches/run_peers.sh` (the `peers` crate in `benches/peers/`). Do not edit \
         by hand: run it again.\n"
    );
    let _ = writeln!(md, "## Machine\n");
    let _ = writeln!(md, "| | |\n|---|---|");
    let _ = writeln!(md, "| date | {} |", machine.date);
    let _ = writeln!(md, "| `nproc` | {} |", machine.cpus);
    let _ = writeln!(md, "| CPU | {} |", machine.cpu_model);
    let _ = writeln!(md, "| load average (1, 5, 15 min) at the start | {} |", machine.load);
    let _ = writeln!(md, "| load average at the end | {} |", machine.load_end);
    let _ = writeln!(md, "| rustc | {} |", machine.rustc);
    let _ = writeln!(md, "| our engine | {} |", machine.core);
    let _ = writeln!(md, "| peers | {} |", machine.versions);
    let _ = writeln!(md);
    let _ = writeln!(md, "## Settings\n");
    let _ = writeln!(
        md,
        "One thread per engine, dt = 1/120 s, gravity 980 px/s² (9.8 m/s² at {PX_PER_METRE} px \
         per metre for the peers, which work in metres; every result is in px). Each engine's \
         default iterations: ours 8 velocity + 2 position iterations, Box2D v3 4 substeps, \
         rapier 4 solver iterations. Rectangles are rotation-locked in every engine; friction \
         mixes by geometric mean and restitution by maximum; the walls are the world rectangle \
         (static boxes for the peers) with friction 0.6 and restitution 0. Box2D also gets our \
         rolling resistance (0.1) and restitution threshold (0.5 m/s), which rapier does not have; both peers get our speed limit (1296 px/s = 12.96 m/s) as their maximum linear speed. Box2D \
         is compiled from source with `-O3 -DNDEBUG` (its CMake Release flags), SSE2 SIMD.\n"
    );
    let _ = writeln!(
        md,
        "Every step from the scene's start is timed; mean and median are over those steps, and \
         the lowest of {runs} run(s) is kept. The runs go in rounds over all scenes, the engines \
         taking turns within a scene, so a slow spell of the machine falls on one round of every \
         scene and engine alike. Quality is measured on the final state by one exact \
         test for all engines: the deepest overlap of two bodies or of a body and a wall, the \
         number of such pairs overlapping by more than 1 px, for the pyramid the sideways drift \
         of the apex box and its sag below a stack of exactly touching boxes, bodies lost \
         (centre non-finite or outside the world), and bodies asleep.\n"
    );

    let _ = writeln!(md, "## Shared scenes\n");
    let _ = writeln!(
        md,
        "| scene | bodies | steps | sleep | engine | mean ms | median ms | ÷ Box2D (mean / median) | deepest px \
         | pairs > 1 px | apex drift px | apex sag px | lost | asleep |"
    );
    let _ = writeln!(md, "|---|--:|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (case, results) in shared {
        let box2d = results.iter().find(|m| m.engine == EngineKind::Box2d);
        for m in results {
            let ratio = box2d.map_or_else(
                || "–".into(),
                |b| {
                    // A sleeping world's median step can be a few µs: no ratio means much then.
                    let median = if b.median_ms >= 0.005 {
                        format!("{:.2}", m.median_ms / b.median_ms)
                    } else {
                        "–".into()
                    };
                    format!("{:.2} / {median}", m.mean_ms / b.mean_ms)
                },
            );
            let q = &m.quality;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {:.3} | {:.3} | {} | {:.2} | {} | {} | {} | {} | {} |",
                case.scene.name,
                case.scene.bodies.len(),
                case.steps,
                if case.sleeping { "on" } else { "off" },
                m.engine.name(),
                m.mean_ms,
                m.median_ms,
                ratio,
                q.deepest,
                q.visible_pairs,
                optional(q.apex_drift),
                optional(q.apex_sag),
                q.lost,
                if case.sleeping { m.asleep.to_string() } else { "–".into() },
            );
        }
    }

    md.push_str(&targets(shared, scaling));

    if !scaling.is_empty() {
        let _ = writeln!(md, "\n## Scaling\n");
        let _ = writeln!(
            md,
            "The `large` scene: circles of 12–20 px in 16 rows packed above the floor of a world \
             whose width grows with the count, so the pile is equally deep at every size. \
             Sleeping off, {} steps from the start. Mean ms per step (median in brackets); the \
             last column is our median ms per 1000 bodies, flat when the cost is linear. The \
             last row is the largest scene again with its bodies added in random order, as a \
             world filled by clicks or a spawner is: it is not a point of the curve.\n",
            scaling[0].0.steps
        );
        let engines: Vec<EngineKind> = scaling[0].1.iter().map(|m| m.engine).collect();
        let mut header = String::from("| bodies |");
        let mut rule = String::from("|--:|");
        for e in &engines {
            let _ = write!(header, " {} |", e.name());
            rule.push_str("--:|");
        }
        header.push_str(" ours ÷ Box2D | ours deepest px | ours ms per 1000 bodies |");
        rule.push_str("--:|--:|--:|");
        let _ = writeln!(md, "{header}\n{rule}");
        for (case, results) in scaling {
            let n = case.scene.bodies.len();
            let mut row = if on_the_curve(case) {
                format!("| {n} |")
            } else {
                format!("| {n}, added in random order |")
            };
            for m in results {
                let _ = write!(row, " {:.3} ({:.3}) |", m.mean_ms, m.median_ms);
            }
            let find = |kind| results.iter().find(|m| m.engine == kind);
            let (ours, box2d) = (find(EngineKind::Ours), find(EngineKind::Box2d));
            let ratio = match (ours, box2d) {
                (Some(o), Some(b)) => format!("{:.2}", o.mean_ms / b.mean_ms),
                _ => "–".into(),
            };
            let deepest = ours.map_or_else(|| "–".into(), |o| format!("{:.2}", o.quality.deepest));
            let per_thousand =
                ours.map_or_else(|| "–".into(), |o| format!("{:.3}", o.median_ms * 1e3 / n as f64));
            let _ = writeln!(row, " {ratio} | {deepest} | {per_thousand} |");
            md.push_str(&row);
        }
        let _ = writeln!(md, "\n![ms per step against body count](scaling.svg)");
    }
    md
}

/// Whether a scaling case is a point of the curve (the `large` scene as built), not the
/// largest one again with its bodies added in random order.
fn on_the_curve(case: &Case) -> bool {
    !case.scene.name.ends_with("_shuffled")
}

/// The targets of issue 6 that these measurements decide, each with what was measured.
fn targets(shared: &[(&Case, Vec<Measurement>)], scaling: &[(&Case, Vec<Measurement>)]) -> String {
    let mut rows: Vec<(String, String, bool)> = Vec::new();
    let find = |results: &[Measurement], kind| results.iter().find(|m| m.engine == kind).cloned();
    for (case, results) in shared.iter().filter(|(c, _)| !c.sleeping) {
        let name = &case.scene.name;
        let Some(ours) = find(results, EngineKind::Ours) else { continue };
        if let Some(box2d) = find(results, EngineKind::Box2d) {
            // Decided on the median: on a shared machine, other work lands in the mean.
            let ratio = ours.median_ms / box2d.median_ms;
            rows.push((
                format!("{name}: ms/step ≤ 0.5 × Box2D's (sleeping off; median)"),
                format!(
                    "{ratio:.2} × ({:.3} vs {:.3} ms); means {:.2} × ({:.3} vs {:.3} ms)",
                    ours.median_ms,
                    box2d.median_ms,
                    ours.mean_ms / box2d.mean_ms,
                    ours.mean_ms,
                    box2d.mean_ms
                ),
                ratio <= 0.5,
            ));
        }
        let peers: Vec<&Measurement> =
            results.iter().filter(|m| m.engine != EngineKind::Ours).collect();
        if ours.quality.apex_drift.is_some() {
            // Issue 14: a pyramid's deepest overlap is the slop the projection leaves by
            // design (§10), so its target is the slop + 0.05 px, not the better peer's.
            let limit = PhysicsConfig::default().penetration_slop + 0.05;
            rows.push((
                format!("{name}: deepest overlap ≤ slop + 0.05 px = {limit:.2} px (issue 14)"),
                format!("{:.2} px", ours.quality.deepest),
                ours.quality.deepest <= limit + 1e-3,
            ));
        } else if !peers.is_empty() {
            let deepest = peers.iter().map(|m| m.quality.deepest).fold(f32::MAX, f32::min);
            let pairs = peers.iter().map(|m| m.quality.visible_pairs).min().unwrap_or(0);
            rows.push((
                format!("{name}: deepest overlap and pairs > 1 px no worse than the better peer"),
                format!(
                    "{:.2} px, {} pairs (better peer: {deepest:.2} px, {pairs} pairs)",
                    ours.quality.deepest, ours.quality.visible_pairs
                ),
                ours.quality.deepest <= deepest + 1e-3 && ours.quality.visible_pairs <= pairs,
            ));
        }
        if let Some(drift) = ours.quality.apex_drift {
            rows.push((
                format!("{name}: apex drift < 0.5 px"),
                format!("{drift:.2} px"),
                drift < 0.5,
            ));
        }
    }
    for (case, results) in shared.iter().filter(|(c, _)| c.sleeping) {
        let name = &case.scene.name;
        let Some(ours) = find(results, EngineKind::Ours) else { continue };
        if let Some(box2d) = find(results, EngineKind::Box2d) {
            // Issue 14, on the mean and on the median: with sleeping on, the mean weighs how
            // soon a pile falls asleep, the median the step of the state the run mostly
            // spent in. A median under 1 µs is a sleeping step, whose ratio says nothing.
            let means = ours.mean_ms / box2d.mean_ms;
            let medians = (box2d.median_ms >= 1e-3).then(|| ours.median_ms / box2d.median_ms);
            let median_text = match medians {
                Some(r) => format!("{r:.2} ×"),
                None => "– (Box2D's median step sleeps)".into(),
            };
            rows.push((
                format!("{name}: ms/step ≤ 0.5 × Box2D's (sleeping on; mean and median; issue 14)"),
                format!(
                    "means {means:.2} × ({:.3} vs {:.3} ms); medians {median_text} ({:.4} vs \
                     {:.4} ms)",
                    ours.mean_ms, box2d.mean_ms, ours.median_ms, box2d.median_ms
                ),
                means <= 0.5 && medians.is_none_or(|r| r <= 0.5),
            ));
        }
        let n = case.scene.bodies.len();
        rows.push((
            format!("{name}: all asleep 10 s after the start (sleeping on)"),
            format!("{} of {n} asleep after {} steps", ours.asleep, case.steps),
            ours.asleep == n,
        ));
    }
    for (case, results) in scaling.iter().filter(|(c, _)| c.scene.bodies.len() == 20_000) {
        let Some(ours) = find(results, EngineKind::Ours) else { continue };
        let order = if on_the_curve(case) { "" } else { ", added in random order," };
        rows.push((
            format!("20,000 awake circles{order} under 8.3 ms per step (median)"),
            format!("{:.3} ms mean, {:.3} ms median", ours.mean_ms, ours.median_ms),
            ours.median_ms < 1000.0 / 120.0,
        ));
    }
    // Slope of log(median ms) against log(bodies) from 1,000 bodies up: 1 is linear. The
    // median, because a shared machine's load spikes move a mean far more.
    let curve: Vec<(f64, f64)> = scaling
        .iter()
        .filter(|(c, _)| on_the_curve(c) && c.scene.bodies.len() >= 1_000)
        .filter_map(|(c, results)| {
            let ours = find(results, EngineKind::Ours)?;
            Some(((c.scene.bodies.len() as f64).ln(), ours.median_ms.max(1e-9).ln()))
        })
        .collect();
    if curve.len() >= 2 {
        let n = curve.len() as f64;
        let (mx, my) = curve.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
        let (sxy, sxx) = curve
            .iter()
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + (x - mx) * (y - my), b + (x - mx) * (x - mx)));
        let slope = sxy / sxx;
        rows.push((
            "cost about linear in the body count (log–log slope of the median ≤ 1.1, from 1,000 up)"
                .into(),
            format!("slope {slope:.2}"),
            slope <= 1.1,
        ));
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut md = String::from("\n## Targets of issues 6 and 14\n\n");
    md.push_str(
        "Decided by this run for our engine (the Bevy layer's overhead is measured elsewhere). \
         Step-time targets are decided on medians, which other work on a shared machine moves \
         far less than means; both are shown.\n\n",
    );
    md.push_str("| target | measured | met |\n|---|---|---|\n");
    for (target, measured, met) in rows {
        let _ = writeln!(md, "| {target} | {measured} | {} |", if met { "yes" } else { "**no**" });
    }
    md
}

/// Colour of each engine's line.
fn colour(engine: EngineKind) -> &'static str {
    match engine {
        EngineKind::Ours => "#1f6fb4",
        EngineKind::Box2d => "#2b9a3a",
        EngineKind::Rapier => "#e0701a",
    }
}

/// A log–log plot of mean ms per step against body count, one line per engine, with the
/// 120 Hz real-time budget and a line proportional to the count for reference.
pub fn scaling_svg(scaling: &[(&Case, Vec<Measurement>)]) -> String {
    const W: f64 = 760.0;
    const H: f64 = 500.0;
    let (left, right, top, bottom) = (70.0, 150.0, 40.0, 60.0);
    let points: Vec<(f64, &Measurement)> = scaling
        .iter()
        .filter(|(case, _)| on_the_curve(case))
        .flat_map(|(case, results)| results.iter().map(|m| (case.scene.bodies.len() as f64, m)))
        .collect();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    if points.is_empty() {
        svg.push_str("</svg>\n");
        return svg;
    }
    // Axis ends at the nearest 1, 2 or 5 of a decade around the data.
    let nice = |v: f64, up: bool| {
        let decade = 10f64.powf(v.log10().floor());
        let steps = [1.0, 2.0, 5.0, 10.0].map(|m| m * decade);
        if up {
            steps.into_iter().find(|&s| s >= v * 0.9999).unwrap_or(10.0 * decade)
        } else {
            steps.into_iter().rev().find(|&s| s <= v * 1.0001).unwrap_or(decade)
        }
    };
    let fold = |f: fn(f64, f64) -> f64, init: f64, g: &dyn Fn(&(f64, &Measurement)) -> f64| {
        points.iter().map(g).fold(init, f)
    };
    let (x_min, x_max) = (fold(f64::min, f64::MAX, &|p| p.0), fold(f64::max, 0.0, &|p| p.0));
    let (x_lo, x_hi) = (nice(x_min, false), nice(x_max, true));
    let y_lo = nice(fold(f64::min, f64::MAX, &|p| p.1.mean_ms).max(1e-3), false);
    let y_hi = nice(fold(f64::max, 0.0, &|p| p.1.mean_ms).max(10.0), true);
    let x_of = |n: f64| {
        left + (n.log10() - x_lo.log10()) / (x_hi.log10() - x_lo.log10()) * (W - left - right)
    };
    let y_of = |ms: f64| {
        H - bottom
            - (ms.log10() - y_lo.log10()) / (y_hi.log10() - y_lo.log10()) * (H - top - bottom)
    };

    // Grid and axis labels at 1, 2 and 5 of every decade.
    let ticks = |lo: f64, hi: f64| {
        let mut ticks = Vec::new();
        let mut d = 10f64.powf(lo.log10().floor());
        while d <= hi * 1.0001 {
            for m in [1.0, 2.0, 5.0] {
                let t = d * m;
                if t >= lo * 0.9999 && t <= hi * 1.0001 {
                    ticks.push((t, m == 1.0));
                }
            }
            d *= 10.0;
        }
        ticks
    };
    for (n, major) in ticks(x_lo, x_hi) {
        let x = x_of(n);
        let stroke = if major { "#bbb" } else { "#e4e4e4" };
        let _ = writeln!(
            svg,
            r#"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="{stroke}"/>"#,
            H - bottom
        );
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            H - bottom + 16.0,
            n
        );
    }
    for (ms, major) in ticks(y_lo, y_hi) {
        let y = y_of(ms);
        let stroke = if major { "#bbb" } else { "#e4e4e4" };
        let _ = writeln!(
            svg,
            r#"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{stroke}"/>"#,
            W - right
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + 4.0,
            ms
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">bodies (circles of the large scene, sleeping off)</text>"#,
        left + 0.5 * (W - left - right),
        H - 18.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">mean ms per step (one thread)</text>"#,
        top + 0.5 * (H - top - bottom)
    );
    let _ = writeln!(
        svg,
        r#"<text x="{left}" y="24" font-size="15">ms per step against body count (log–log)</text>"#
    );

    // 8.33 ms: one step per frame at 120 Hz.
    let budget = 1000.0 / 120.0;
    if budget > y_lo && budget < y_hi {
        let y = y_of(budget);
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#c22" stroke-dasharray="6 4"/>"##,
            W - right
        );
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" fill="#c22">8.3 ms: 120 Hz</text>"##,
            W - right + 6.0,
            y + 4.0
        );
    }

    // One line per engine, and a line ∝ N through our smallest point.
    let mut legend_y = top + 10.0;
    for engine in EngineKind::ALL {
        let line: Vec<(f64, f64)> = points
            .iter()
            .filter(|(_, m)| m.engine == engine)
            .map(|&(n, m)| (x_of(n), y_of(m.mean_ms)))
            .collect();
        if line.is_empty() {
            continue;
        }
        let path: Vec<String> = line.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let c = colour(engine);
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for (x, y) in &line {
            let _ = writeln!(svg, r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{c}"/>"#);
        }
        let lx = W - right + 14.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{c}" stroke-width="2"/>"#,
            lx + 22.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 28.0,
            legend_y + 4.0,
            engine.name()
        );
        legend_y += 20.0;
    }
    if let Some(&(n0, m0)) = points.iter().find(|(_, m)| m.engine == EngineKind::Ours) {
        let n1 = x_max;
        let m1 = m0.mean_ms * n1 / n0;
        let _ = writeln!(
            svg,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-dasharray="2 4"/>"##,
            x_of(n0),
            y_of(m0.mean_ms),
            x_of(n1),
            y_of(m1)
        );
        let lx = W - right + 14.0;
        let _ = writeln!(
            svg,
            r##"<line x1="{lx:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="#888" stroke-dasharray="2 4"/>"##,
            lx + 22.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">∝ N (ours)</text>"#,
            lx + 28.0,
            legend_y + 4.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}
