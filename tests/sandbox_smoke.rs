//! Checks the folder a smoke run of the sandbox wrote (issue 5): `bash .ci/sandbox-smoke` runs
//! `cargo run --example sandbox -- --smoke ci-artifacts/screenshots` under Xvfb with Mesa's
//! software Vulkan and real X input from `xdotool`, then these tests.
//!
//! They are `#[ignore]`d because they need that folder; run them with
//! `cargo test --test sandbox_smoke -- --ignored` (the folder is `ci-artifacts/screenshots`,
//! or `SANDBOX_SMOKE_DIR`). Each test names the claim it checks. They are not vacuous: a
//! missing or black screenshot, a body drawn anywhere but where its snapshot says, a hidden
//! panel or an input that did not arrive fails them (see `sampling_detects_a_misplaced_body`,
//! which runs without the folder).

#[path = "../examples/sandbox/dev/snapshot.rs"]
mod snapshot;

use std::fs::File;
use std::path::PathBuf;

use snapshot::{BodyShot, Snapshot};

/// The shots of a run, in order (the sandbox's `dev::smoke::frames::SHOTS`).
const SHOTS: [&str; 23] = [
    "00_start",
    "01_pile",
    "02_spawned",
    "03_into_pile",
    "04_painted",
    "05_dragging",
    "06_thrown",
    "07_paused_a",
    "08_paused_b",
    "09_single_step",
    "10_no_gravity",
    "11_deleted",
    "12_right_deleted",
    "13_overlay",
    "14_lab_switch",
    "15_lab",
    "16_resized",
    "17_saved",
    "18_cleared",
    "19_loaded",
    "20_rewound",
    "21_big_world",
    "22_contact",
];

/// Bodies drawn smaller than this on screen (half their smallest side, physical px) are not
/// sampled: their fill is a pixel or two, blended with the border.
const SMALLEST_SAMPLED_HALF: f32 = 4.0;

/// Largest difference per sRGB channel for a pixel to count as a body's fill colour. Room
/// for dithering and rounding, far below the distance between two materials' colours.
const COLOR_TOLERANCE: i32 = 14;

fn dir() -> PathBuf {
    std::env::var_os("SANDBOX_SMOKE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ci-artifacts/screenshots"),
        PathBuf::from,
    )
}

/// An RGB8 picture.
struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Picture {
    fn load(name: &str) -> Picture {
        let path = dir().join(format!("{name}.png"));
        let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut buffer = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader.next_frame(&mut buffer).unwrap_or_else(|e| panic!("{name}: {e}"));
        let channels = info.color_type.samples();
        assert!(channels >= 3, "{name}: expected an RGB picture, got {:?}", info.color_type);
        let rgb = buffer[..info.buffer_size()]
            .chunks(channels)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Picture { width: info.width as usize, height: info.height as usize, rgb }
    }

    fn pixel(&self, x: f32, y: f32) -> Option<[u8; 3]> {
        let (x, y) = (x.floor(), y.floor());
        if x < 0.0 || y < 0.0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        let i = 3 * (y as usize * self.width + x as usize);
        Some([self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]])
    }
}

fn load_snapshot(name: &str) -> Snapshot {
    let path = dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| (i32::from(x) - i32::from(y)).abs() <= COLOR_TOLERANCE)
}

/// Points inside a body's fill, away from its border and its radius line.
fn sample_points(body: &BodyShot) -> Vec<(f32, f32)> {
    let [x, y] = body.centre;
    if body.circle {
        let r = 0.5 * body.half[0];
        [0.5, 1.0, 1.5]
            .iter()
            .map(|turn| {
                let a = body.angle + turn * std::f32::consts::PI;
                (x + r * a.cos(), y + r * a.sin())
            })
            .collect()
    } else {
        let [hx, hy] = body.half.map(|h| 0.4 * h);
        vec![(x - hx, y - hy), (x + hx, y - hy), (x + hx, y + hy), (x - hx, y + hy)]
    }
}

fn inside(rect: [f32; 4], (x, y): (f32, f32), margin: f32) -> bool {
    x >= rect[0] - margin && x <= rect[2] + margin && y >= rect[1] - margin && y <= rect[3] + margin
}

/// How far egui's window shadow reaches beyond a window, px: bodies there are drawn darker.
const WINDOW_SHADOW: f32 = 24.0;

/// Whether the picture shows `body`'s fill colour at most of its sample points; `None` if
/// the body is not in view (off screen, or under a window or its shadow: the windows float
/// over the world).
fn body_is_drawn(picture: &Picture, shot: &Snapshot, body: &BodyShot) -> Option<bool> {
    if body.half[0].min(body.half[1]) < SMALLEST_SAMPLED_HALF {
        return None;
    }
    let points = sample_points(body);
    let hidden = |p: (f32, f32)| {
        picture.pixel(p.0, p.1).is_none()
            || shot.panels.iter().any(|panel| inside(panel.rect, p, WINDOW_SHADOW))
    };
    if points.iter().any(|&p| hidden(p)) {
        return None;
    }
    let shows = |points: &[(f32, f32)]| {
        let matching = points
            .iter()
            .filter(|&&(x, y)| picture.pixel(x, y).is_some_and(|c| close(c, body.color)))
            .count();
        matching + 1 >= points.len()
    };
    // The screenshot may hold the frame before the snapshot's: a fast body (the lab's
    // elastic ball leaves the floor at 620 px/s, 10 px a frame) is then drawn where it was
    // up to a frame and a half earlier, back along its velocity.
    let earlier = |k: f32| {
        let t = k / 120.0;
        let [x, y] = body.centre;
        let centre = [x - body.velocity[0] * t, y - body.velocity[1] * t];
        sample_points(&BodyShot { centre, ..body.clone() })
    };
    Some(shows(&points) || (1..=3).any(|k| shows(&earlier(k as f32))))
}

/// Share of the bodies in view that the picture shows where the snapshot says.
fn drawn_share(picture: &Picture, shot: &Snapshot) -> (usize, usize) {
    let verdicts: Vec<bool> =
        shot.bodies.iter().filter_map(|b| body_is_drawn(picture, shot, b)).collect();
    (verdicts.iter().filter(|&&ok| ok).count(), verdicts.len())
}

/// How deep two bodies overlap, px (negative: apart).
fn overlap(a: &BodyShot, b: &BodyShot) -> f32 {
    let d = [b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]];
    match (a.circle, b.circle) {
        (true, true) => a.half[0] + b.half[0] - d[0].hypot(d[1]),
        (false, false) => {
            let x = a.half[0] + b.half[0] - d[0].abs();
            let y = a.half[1] + b.half[1] - d[1].abs();
            x.min(y)
        }
        (true, false) => overlap(b, a),
        (false, true) => {
            // Rectangle a, circle b: clamp the centre into the rectangle.
            let (hx, hy) = (a.half[0], a.half[1]);
            let (cx, cy) = (d[0].clamp(-hx, hx), d[1].clamp(-hy, hy));
            if (cx, cy) == (d[0], d[1]) {
                b.half[0] + (hx - d[0].abs()).min(hy - d[1].abs())
            } else {
                b.half[0] - (d[0] - cx).hypot(d[1] - cy)
            }
        }
    }
}

fn deepest_overlap(shot: &Snapshot) -> f32 {
    let mut deepest = f32::NEG_INFINITY;
    for (i, a) in shot.bodies.iter().enumerate() {
        for b in &shot.bodies[i + 1..] {
            deepest = deepest.max(overlap(a, b));
        }
    }
    deepest
}

fn note(shot: &Snapshot, key: &str) -> f64 {
    shot.note(key).unwrap_or_else(|| panic!("{}: the script noted no {key}", shot.name))
}

fn body_id(shot: &Snapshot, key: &str) -> u64 {
    note(shot, key) as u64
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_app_exited_cleanly_after_writing_every_shot() {
    let path = dir().join("summary.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the app did not reach its end)", path.display()));
    let summary: serde_json::Value = serde_json::from_str(&text).expect("summary.json is JSON");
    assert_eq!(summary["failures"], serde_json::json!([]), "the script reported failures");
    assert_eq!(summary["screenshots"], serde_json::json!(SHOTS.len()));
    for name in SHOTS {
        assert!(dir().join(format!("{name}.png")).is_file(), "{name}.png is missing");
        assert_eq!(load_snapshot(name).name, name);
    }
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn screenshots_are_the_window_and_not_blank() {
    for name in SHOTS {
        let picture = Picture::load(name);
        let shot = load_snapshot(name);
        assert_eq!(
            [picture.width as f32, picture.height as f32],
            shot.window,
            "{name}: the screenshot is not the window"
        );
        let mut colors: Vec<[u8; 3]> = picture.rgb.chunks(3).map(|p| [p[0], p[1], p[2]]).collect();
        colors.sort_unstable();
        colors.dedup();
        assert!(colors.len() > 200, "{name}: only {} colours: blank?", colors.len());
        let floor_probe = (0..picture.height)
            .step_by(7)
            .flat_map(|y| (0..picture.width).step_by(7).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                picture.pixel(x as f32, y as f32).is_some_and(|c| close(c, shot.floor_color))
            })
            .count();
        assert!(floor_probe > 100, "{name}: the world's floor is not drawn");
    }
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn bodies_are_drawn_where_the_simulation_says() {
    for name in SHOTS {
        let picture = Picture::load(name);
        let shot = load_snapshot(name);
        let (drawn, in_view) = drawn_share(&picture, &shot);
        // The lab's demonstration has two bodies; the lab's windows cover part of the pile.
        let least = match name {
            "14_lab_switch" => 1,
            "15_lab" => 10,
            "18_cleared" => 0,
            // 10,000 bodies fitted into the window are a few px each (checked apart below).
            "21_big_world" => 0,
            "22_contact" => 3,
            _ => 40,
        };
        assert!(in_view >= least, "{name}: only {in_view} bodies in view");
        // The overlay draws contact marks and normals across the bodies.
        let needed = if name == "13_overlay" { 0.8 } else { 0.97 };
        assert!(
            drawn as f32 >= needed * in_view as f32,
            "{name}: {drawn} of {in_view} bodies show their colour where the snapshot puts them"
        );
    }
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_panel_and_the_palette_are_visible() {
    for name in SHOTS {
        let picture = Picture::load(name);
        let shot = load_snapshot(name);
        // The first shot is the sandbox as it starts: the parameters open from the bar (E);
        // the script closes them again for the big world.
        let wanted: &[&str] = match name {
            "00_start" | "21_big_world" | "22_contact" => &["Tools"],
            _ => &["Tools", "bevy_sandbox_physics_panel"],
        };
        for wanted in wanted {
            assert_window_shows_text(&picture, &shot, name, wanted);
        }
    }
}

/// The window whose egui id contains `wanted` is in the shot, not tiny, and shows text.
fn assert_window_shows_text(picture: &Picture, shot: &Snapshot, name: &str, wanted: &str) {
    let panel = shot.panels.iter().find(|p| p.id.contains(wanted));
    let panel = panel.unwrap_or_else(|| panic!("{name}: no {wanted} window"));
    let [left, top, right, bottom] = panel.rect;
    assert!(right - left > 150.0 && bottom - top > 150.0, "{name}: {wanted} is tiny");
    // Text: light pixels on egui's dark window fill.
    let (mut light, mut total) = (0, 0);
    for y in (top as usize..bottom as usize).step_by(2) {
        for x in (left as usize..right as usize).step_by(2) {
            if let Some(c) = picture.pixel(x as f32, y as f32) {
                total += 1;
                let luma = (u32::from(c[0]) + u32::from(c[1]) + u32::from(c[2])) / 3;
                light += usize::from(luma > 140);
            }
        }
    }
    assert!(
        light * 200 > total,
        "{name}: {wanted} shows no text ({light} light pixels of {total})"
    );
}

/// R-VIEW-1: as the sandbox starts, only the bar and the palette are open, the palette floats,
/// and the walls enclose at least 75 % of the window.
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_world_gets_three_quarters_of_the_window_at_the_start_r_view_1() {
    let shot = load_snapshot("00_start");
    let [left, top, right, bottom] = shot.walls;
    let share = (right - left) * (bottom - top) / (shot.window[0] * shot.window[1]);
    assert!(share >= 0.75, "the world is {:.0} % of the window", 100.0 * share);
    let ids: Vec<&str> = shot.panels.iter().map(|p| p.id.as_str()).collect();
    assert!(!ids.iter().any(|id| id.contains("bevy_sandbox_physics_panel")), "{ids:?}");
}

/// R-LAB-1, R-LAB-2: in the real window, the lab's button loads the demonstration and its
/// switch turns the rule off and on again; with restitution taken after gravity the e = 1
/// ball gains energy, and the plots show it.
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_lab_switches_a_rule_off_and_the_plots_show_the_energy_it_makes_r_lab_1_r_lab_2() {
    let shot = load_snapshot("14_lab_switch");
    let picture = Picture::load("14_lab_switch");
    assert_eq!(note(&shot, "rule_on_before"), 1.0, "the rule was off before the click");
    assert_eq!(note(&shot, "rule_on"), 0.0, "the click on the switch did not turn the rule off");
    assert_eq!(shot.bodies.len() as f64, note(&shot, "demo_bodies_expected"), "demo not loaded");
    for wanted in ["sandbox_lab", "bevy_sandbox_physics_plots"] {
        assert_window_shows_text(&picture, &shot, "14_lab_switch", wanted);
    }
    // About 2.5 s of bounces after the switch; each bounce adds e·g·Δt of speed (§7's reason
    // for the step-start velocity), a gain of 2 % per bounce at 300 px (see the core test).
    let (first, last) = (note(&shot, "energy_first"), note(&shot, "energy_last"));
    assert!(note(&shot, "plot_seconds") > 2.0, "the plots hold too little");
    assert!(last > 1.01 * first, "total energy {first} → {last}: no gain with the rule off");

    let lab = load_snapshot("15_lab");
    assert_eq!(note(&lab, "rule_on_before_back"), 0.0);
    assert_eq!(note(&lab, "rule_on_after_back"), 1.0, "the second click did not turn it on");
}

/// R-LAB-3: a click on a resting body in the real window pins it in the inspector, which is
/// drawn with the lab and the plots (the README's shot of the lab).
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn a_click_pins_a_body_in_the_inspector_beside_the_lab_and_the_plots_r_lab_3() {
    let shot = load_snapshot("15_lab");
    let picture = Picture::load("15_lab");
    assert_eq!(body_id(&shot, "pinned_body"), body_id(&shot, "inspected_body"), "wrong body");
    for wanted in ["sandbox_lab", "bevy_sandbox_physics_plots", "bevy_sandbox_physics_inspector"] {
        assert_window_shows_text(&picture, &shot, "15_lab", wanted);
    }
}

/// R-VIEW-1 (issue 20): F fits a world of its own, 8000 × 3000 px with 10,000 bodies, into
/// the window; the wheel over a contact zooms in around the pointer (1.15 times a line; X
/// may deliver a click as more than one line), so the contact stays under it, and both its
/// bodies show their colours there.
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn f_fits_a_10000_body_world_and_the_wheel_zooms_into_one_contact_r_view_1() {
    let world = load_snapshot("21_big_world");
    assert_eq!(note(&world, "big_world_bodies"), 10_000.0, "bodies in the simulation");
    assert_eq!(world.bodies.len(), 10_000, "bodies drawn");
    let [left, top, right, bottom] = world.walls;
    let [width, height] = world.window;
    let inside = left >= -1.0 && top >= -1.0 && right <= width + 1.0 && bottom <= height + 1.0;
    assert!(inside, "walls {:?} are not all in the {width} × {height} window", world.walls);
    let (w, h) = (right - left, bottom - top);
    assert!(w >= 0.9 * width || h >= 0.8 * height, "fitted world {w} × {h} is small");
    // Bodies are drawn: inside the walls, most probes do not show the bare floor.
    let picture = Picture::load("21_big_world");
    let probes: Vec<bool> = (0..200)
        .flat_map(|i| (0..100).map(move |j| (i, j)))
        .map(|(i, j)| (left + w * (i as f32 + 0.5) / 200.0, top + h * (j as f32 + 0.5) / 100.0))
        .filter_map(|(x, y)| picture.pixel(x, y).map(|c| !close(c, world.floor_color)))
        .collect();
    let covered = probes.iter().filter(|&&b| b).count() as f32 / probes.len() as f32;
    assert!(covered > 0.3, "only {:.0} % of the world shows bodies", 100.0 * covered);

    let contact = load_snapshot("22_contact");
    let zoom = note(&contact, "screen_px_per_world_px") / note(&world, "screen_px_per_world_px");
    assert!(zoom >= 4.0, "zoomed only {zoom:.2} times closer");
    assert_eq!(contact.step_count as f64, note(&contact, "step_at_aim"), "the world moved");
    // The world point under the pointer stays there; the contact was aimed at within half a
    // px of the pointer (whole px), which the zoom magnifies.
    let s = f64::from(contact.scale_factor);
    let expected = |axis: &str| {
        let pointer = note(&contact, &format!("pointer_{axis}"));
        (pointer + (note(&contact, &format!("aim_{axis}")) - pointer) * zoom) * s
    };
    let (dx, dy) = (
        note(&contact, "contact_screen_x") - expected("x"),
        note(&contact, "contact_screen_y") - expected("y"),
    );
    assert!(dx.hypot(dy) <= 3.0 * s, "the contact moved {dx:.1}, {dy:.1} px from the pointer");
    let picture = Picture::load("22_contact");
    for key in ["contact_a", "contact_b"] {
        let body = contact.body(body_id(&contact, key)).expect("the contact's body is drawn");
        let half = body.half[0].min(body.half[1]);
        assert!(half >= 20.0, "{key} is only {half} px on screen");
        assert_eq!(body_is_drawn(&picture, &contact, body), Some(true), "{key}: {body:?}");
    }
}

/// R-APP-1: spawning from the palette, in the real window.
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn a_click_on_empty_space_spawns_and_a_click_on_the_palette_does_not() {
    let shot = load_snapshot("02_spawned");
    assert_eq!(shot.bodies.len() as f64, note(&shot, "bodies_before_spawn") + 1.0);
    let body = shot.body(body_id(&shot, "spawned_body")).expect("the spawned body");
    let (x, y) = (note(&shot, "spawn_x") as f32, note(&shot, "spawn_y") as f32);
    let scale = shot.scale_factor;
    assert!(body.circle && (body.half[0] - 22.0 * scale).abs() < 0.01, "not the palette's ball");
    assert!(
        (body.centre[0] - x * scale).abs() < 2.0,
        "spawned at {:?}, clicked at {x}",
        body.centre
    );
    let fall = body.centre[1] - y * scale;
    assert!((-1.0..40.0).contains(&fall), "spawned at {:?}, clicked at {y}", body.centre);

    let pile = load_snapshot("03_into_pile");
    assert_eq!(
        note(&pile, "bodies_before_panel_click"),
        note(&pile, "bodies_after_panel_click"),
        "a click on the palette spawned a body"
    );
    // The pointer moved onto the palette and pressed in one frame: egui had not yet seen
    // it there, only the plugin's pointer capture had.
    assert_eq!(
        note(&pile, "bodies_before_quick_click"),
        note(&pile, "bodies_after_quick_click"),
        "a quick click on the palette (moved there and pressed in one frame) spawned a body"
    );
}

/// A finger on the palette spawns nothing, one on empty space spawns the palette's body
/// (`touch_spawns`). The script makes the touches in the app, as winit delivers them
/// (`examples/sandbox/dev/touch.rs`). Not vacuous: the tap on the palette lands in the first
/// frame the finger is there, egui's focus is off (the mouse is elsewhere) and no body lies
/// under it (the script fails otherwise), so only the plugin's pointer capture keeps it from
/// spawning; without that check in `touch_spawns` this test fails.
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn a_tap_on_empty_space_spawns_and_a_tap_on_the_palette_does_not() {
    let shot = load_snapshot("03_into_pile");
    assert_eq!(
        note(&shot, "bodies_before_panel_tap"),
        note(&shot, "bodies_after_panel_tap"),
        "a tap on the palette spawned a body"
    );
    let before = note(&shot, "bodies_before_space_tap");
    let after = note(&shot, "bodies_after_space_tap");
    assert_eq!(after, before + 1.0, "a tap on empty space spawned {} bodies", after - before);
    let (x, body_x) = (note(&shot, "space_tap_x"), note(&shot, "space_tap_body_x"));
    assert!((body_x - x).abs() < 1.0, "spawned at x = {body_x}, tapped at {x}");
    assert_eq!(note(&shot, "space_tap_body_half"), 22.0, "not the palette's ball");
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn a_body_spawned_into_the_pile_is_pushed_out_without_an_explosion() {
    let shot = load_snapshot("03_into_pile");
    assert_eq!(shot.bodies.len() as f64, note(&shot, "bodies_before_pile") + 1.0);
    let body = shot.body(body_id(&shot, "pile_body")).expect("the body spawned into the pile");
    assert!(!body.circle, "the palette was set to a steel box");
    // The box and the bodies within 100 px of it when it appeared (the mixed pile's rubber
    // elsewhere may still bounce faster, as §7 says it must).
    let near = note(&shot, "pile_near_bodies");
    assert!(near >= 3.0, "only {near} bodies near the spawned box: it was not set into the pile");
    let speed = note(&shot, "pile_max_speed");
    assert!(speed < 400.0, "the pile exploded: a body near the box reached {speed:.0} px/s");
    let deepest = deepest_overlap(&shot);
    assert!(deepest < 3.0, "one second later two bodies still overlap by {deepest:.1} px");

    let painted = load_snapshot("04_painted");
    let before = note(&painted, "bodies_before_paint");
    assert!(painted.bodies.len() as f64 >= before + 8.0, "Shift+drag painted too few bodies");
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn a_dragged_body_follows_the_pointer_and_is_thrown_on_release() {
    let dragging = load_snapshot("05_dragging");
    let id = body_id(&dragging, "drag_body");
    let body = dragging.body(id).expect("the dragged body");
    assert_eq!(body.state, "held");
    let scale = dragging.scale_factor;
    let pointer =
        [note(&dragging, "pointer_x") as f32 * scale, note(&dragging, "pointer_y") as f32 * scale];
    let lag = (body.centre[0] - pointer[0]).hypot(body.centre[1] - pointer[1]);
    assert!(lag < 40.0, "the held body is {lag:.0} px from the pointer");
    assert!(dragging.bodies.iter().filter(|b| b.state == "held").count() == 1);

    let thrown = load_snapshot("06_thrown");
    let body = thrown.body(id).expect("the thrown body");
    assert_ne!(body.state, "held", "still held after the release");
    let [vx, vy] = body.velocity;
    assert!(vx.hypot(vy) > 150.0 && vx > 0.0, "not thrown to the right: velocity {vx:.0}, {vy:.0}");
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn space_pauses_n_steps_once_and_g_toggles_gravity() {
    let a = load_snapshot("07_paused_a");
    let b = load_snapshot("08_paused_b");
    assert!(a.paused && b.paused, "Space did not pause");
    assert_eq!(a.step_count, b.step_count, "the world stepped while paused");
    for body in &a.bodies {
        let later = b.body(body.id).expect("no body vanishes while paused");
        assert_eq!(body.centre, later.centre, "a body moved while paused");
    }
    let stepped = load_snapshot("09_single_step");
    assert!(stepped.paused);
    assert_eq!(stepped.step_count, b.step_count + 1, "N must run exactly one step");

    let weightless = load_snapshot("10_no_gravity");
    assert!(!weightless.paused, "Space did not resume");
    assert!(!weightless.gravity, "G did not switch gravity off");
    assert!(weightless.step_count > stepped.step_count);
    assert!(load_snapshot("16_resized").gravity, "G did not switch gravity back on");
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn delete_and_right_click_remove_the_hovered_body() {
    let before = load_snapshot("10_no_gravity");
    let deleted = load_snapshot("11_deleted");
    let id = body_id(&deleted, "deleted_body");
    assert!(before.body(id).is_some() && deleted.body(id).is_none(), "Delete kept the body");
    assert_eq!(deleted.bodies.len() + 1, before.bodies.len());
    let right = load_snapshot("12_right_deleted");
    let id = body_id(&right, "right_deleted_body");
    assert!(deleted.body(id).is_some() && right.body(id).is_none(), "right click kept the body");
    assert_eq!(right.bodies.len() + 1, deleted.bodies.len());
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_readme_shot_shows_every_material_the_panel_and_the_palette() {
    // `05_dragging` is the README's screenshot (assets/screenshot.png).
    let shot = load_snapshot("05_dragging");
    let picture = Picture::load("05_dragging");
    let mut materials: Vec<&str> = shot
        .bodies
        .iter()
        .filter(|b| body_is_drawn(&picture, &shot, b) == Some(true))
        .map(|b| b.material.as_str())
        .collect();
    materials.sort_unstable();
    materials.dedup();
    assert_eq!(materials, ["ice", "rubber", "steel", "wood"], "materials drawn");
    assert!(shot.panels.len() >= 2, "the panel and the palette");
}

#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_walls_follow_a_narrower_window_and_every_body_stays_inside() {
    let before = load_snapshot("15_lab");
    let after = load_snapshot("16_resized");
    let narrower =
        note(&after, "width_before_resize") as f32 * after.scale_factor - after.window[0];
    assert!(narrower > 200.0, "the window did not shrink ({narrower} px)");
    let (old, new) = (before.walls, after.walls);
    let shrunk = (old[2] - old[0]) - (new[2] - new[0]);
    assert!((shrunk - narrower).abs() < 2.0, "the walls shrank {shrunk} px for {narrower} px");
    assert_eq!(after.bodies.len(), before.bodies.len(), "bodies were lost");
    for body in &after.bodies {
        let [x, y] = body.centre;
        let [hx, hy] = body.half;
        // The squeezed pile is still settling: R-POS-3 bounds the depth in a wall by
        // `max_wall_penetration` (12 px), not by the slop.
        let slack = 12.0 * after.scale_factor;
        let inside = x - hx >= new[0] - slack
            && x + hx <= new[2] + slack
            && y - hy >= new[1] - slack
            && y + hy <= new[3] + slack;
        assert!(inside, "a body at {:?} is outside the walls {new:?}", body.centre);
    }
}

/// Each body of `a` has a body of the same shape and size in `b` within `tolerance` px of
/// its centre, and the counts are equal.
fn assert_same_bodies(a: &Snapshot, b: &Snapshot, tolerance: f32) {
    assert_eq!(a.bodies.len(), b.bodies.len(), "{} and {}: body counts", a.name, b.name);
    for body in &a.bodies {
        let nearest = b
            .bodies
            .iter()
            .filter(|o| o.circle == body.circle && o.half == body.half)
            .map(|o| (o.centre[0] - body.centre[0]).hypot(o.centre[1] - body.centre[1]))
            .fold(f32::INFINITY, f32::min);
        assert!(
            nearest <= tolerance,
            "{}: no body like the one at {:?} of {} (nearest {nearest} px)",
            b.name,
            body.centre,
            a.name
        );
    }
}

/// R-SCN-1 and R-SCN-2 in a real window (issue 18): paused, F5 saves the world, C clears
/// it, F9 loads the file: the same step and the same bodies where they were (within the
/// 2 px a drawn pose may lag its physics pose while paused). Resumed for a second, `,`
/// pressed until the timeline's start rewinds to the world as loaded: the same step, and
/// every body exactly where the load put it.
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn f5_saves_c_clears_f9_loads_and_comma_rewinds_to_the_load_r_scn_1_r_scn_2() {
    let saved = load_snapshot("17_saved");
    let cleared = load_snapshot("18_cleared");
    let loaded = load_snapshot("19_loaded");
    let rewound = load_snapshot("20_rewound");
    assert!(saved.paused && cleared.paused && loaded.paused, "Space did not pause");
    assert_eq!(note(&saved, "saved"), 1.0, "F5 did not save");
    assert!(saved.bodies.len() >= 40, "only {} bodies saved", saved.bodies.len());
    assert!(cleared.bodies.is_empty(), "C left {} bodies", cleared.bodies.len());
    assert_eq!(note(&loaded, "loaded"), 1.0, "F9 did not load");
    assert_eq!(loaded.step_count, saved.step_count, "the loaded world is of another step");
    assert_same_bodies(&saved, &loaded, 2.0 * loaded.scale_factor);

    let before = note(&rewound, "step_before_rewind") as u64;
    assert!(before >= loaded.step_count + 100, "the world ran {before} steps after the load");
    assert!(rewound.paused, "`,` did not pause");
    assert_eq!(rewound.step_count, loaded.step_count, "the rewind did not reach the load");
    assert_same_bodies(&loaded, &rewound, 0.0);
}

/// The whole scripted session warns about nothing of the plugin's: every body the sandbox
/// spawns, loads and rewinds is valid (a scale that only sizes the picture once drew one
/// warning per body).
#[test]
#[ignore = "needs a smoke run's folder: bash .ci/sandbox-smoke"]
fn the_session_logs_no_warning_of_the_plugin() {
    let path = dir().join("sandbox.log");
    let log = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let warnings: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("WARN") && l.contains("bevy_sandbox_physics"))
        .take(5)
        .collect();
    assert!(warnings.is_empty(), "the plugin warned: {warnings:#?}");
}

/// Runs without a smoke folder: the sampling really tells a body from the floor.
#[test]
fn sampling_detects_a_misplaced_body() {
    let (width, height) = (64, 48);
    let floor = [36, 38, 46];
    let mut rgb = [floor; 64 * 48].concat();
    let body = BodyShot {
        id: 1,
        circle: true,
        centre: [20.0, 20.0],
        half: [12.0, 12.0],
        color: [230, 82, 97],
        state: "awake".into(),
        ..BodyShot::default()
    };
    for y in 0..height {
        for x in 0..width {
            let (dx, dy) = (x as f32 + 0.5 - 20.0, y as f32 + 0.5 - 20.0);
            if dx.hypot(dy) < 12.0 {
                let i = 3 * (y * width + x);
                rgb[i..i + 3].copy_from_slice(&body.color);
            }
        }
    }
    let picture = Picture { width, height, rgb };
    let shot = Snapshot { bodies: vec![body.clone()], ..Snapshot::default() };
    assert_eq!(body_is_drawn(&picture, &shot, &body), Some(true));
    let moved = BodyShot { centre: [44.0, 28.0], ..body.clone() };
    assert_eq!(body_is_drawn(&picture, &shot, &moved), Some(false));
    let recoloured = BodyShot { color: [135, 153, 189], ..body };
    assert_eq!(body_is_drawn(&picture, &shot, &recoloured), Some(false));
    let apart = BodyShot { centre: [74.0, 28.0], ..moved.clone() };
    assert!(overlap(&moved, &apart) < 0.0 && overlap(&moved, &moved) > 23.0);
}
