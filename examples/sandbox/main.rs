//! The sandbox: throw circles and boxes of rubber, wood, steel and ice around, and tune every
//! physics parameter live.
//!
//! ```sh
//! cargo run --release --example sandbox
//! ```
//!
//! Everything the crate does in one window: [`SandboxPhysicsPlugin`] steps the core at
//! 120 Hz and interpolates the drawn poses, its picking backend lets you grab and throw
//! bodies, its panel edits every `PhysicsConfig` value, its plots and inspector show energy,
//! momentum, step times and one body's contacts, the lab switches rules of the physics off,
//! and the tool palette chooses what a click spawns and loads the shared scenes. The bar at
//! the top opens each of these windows; they float over the world, which is the whole window
//! below the bar (`walls_follow_window`): resize the window and the walls follow.
//!
//! What you see explains the physics: the colour is the material (rubber red, wood tan,
//! steel blue-grey, ice pale cyan; static bodies darker), every circle has a radius line so
//! rolling shows (R-FRI-3), sleeping bodies are dimmed (§11), the held body is lit with a
//! line to its drag target (§13), and the overlay (D) adds contacts, normals and islands.
//!
//! # Controls
//!
//! | input | action |
//! |---|---|
//! | left click (or a touch) on empty space | spawn the palette's body (shape, size, material) |
//! | Shift + left click / drag | spawn even onto bodies, into the middle of a pile / paint |
//! | left drag (or a finger) on a body | drag it; release while moving to throw it |
//! | right click, or Delete / Backspace | delete the body under the pointer |
//! | Space | pause / resume (paused, a dragged body moves directly) |
//! | N | single step (pauses first) |
//! | G | gravity on / off |
//! | R | reset: reload the last scene |
//! | C | clear: remove every body |
//! | D | overlay of contacts, normals and islands |
//! | P | show / hide the tool palette |
//! | E | show / hide the physics parameters |
//! | L | show / hide the lab (rule switches and their demonstrations) |
//! | T | show / hide the plots |
//! | left click on a body (no drag) | pin it in the inspector (with 🔍 Inspect on) |
//! | mouse wheel | zoom in / out around the pointer |
//! | middle drag, arrow keys | pan |
//! | F | fit the world into the window |
//! | F5 / F9 | save the world to / load it from the palette's scene file |
//! | F6 / F7 | record the session (again: stop and save it) / play it back |
//! | , / . | rewind: one snapshot (0.1 s) back / forward, paused; the bar's timeline drags |
//! | 1 … 6 | scenes: pyramid, rain, mixed pile, material balls, sliding boxes, stress |
//!
//! # Command line
//! * `--size <w>x<h>`: window size in logical px (default 1600x900, or less to fit the screen).
//! * `--world <w>x<h>`: a world of its own size, px (200 to 50000 a side), instead of walls
//!   that follow the window; the view starts fitted to it (also the palette's World row).
//! * `--bench <bodies> [--seconds <s>]`, `--smoke <dir>`: test tooling, see `dev/mod.rs`.

mod bar;
mod camera;
mod dev;
mod files;
mod lab;
mod look;
mod presets;
mod tools;
#[cfg(target_arch = "wasm32")]
mod web;
mod world;

use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::{Monitor, PresentMode, PrimaryMonitor, PrimaryWindow, WindowResolution};
use bevy_sandbox_physics::plugin::{PhysicsRewindPlugin, WallsFollowWindow};
use bevy_sandbox_physics::prelude::*;

use crate::dev::DevOptions;
use crate::tools::{Palette, SandboxAction};

/// How the sandbox runs, from the command line.
#[derive(Clone, Debug, Default, PartialEq)]
struct Options {
    size: Option<(u32, u32)>,
    /// `--world <w>x<h>`: a world of its own size instead of walls that follow the window.
    world: Option<(u32, u32)>,
    /// The test tooling's flags (`--smoke`, `--bench`).
    dev: DevOptions,
}

fn usage() -> String {
    format!("usage: sandbox [--size <w>x<h>] [--world <w>x<h>] {}", DevOptions::USAGE)
}

/// Parses the command line; `Err` carries the message to print.
fn parse_options(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--size" => {
                let text = args.next().ok_or("--size needs a value")?;
                let parsed = text
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .filter(|&(w, h): &(u32, u32)| {
                        (200..=8000).contains(&w) && (200..=8000).contains(&h)
                    });
                options.size =
                    Some(parsed.ok_or(format!("--size {text}: expected e.g. 1280x720"))?);
            }
            "--world" => {
                let text = args.next().ok_or("--world needs a value")?;
                options.world = Some(world::parse_world(&text)?);
            }
            "--help" | "-h" => return Err(usage()),
            other => {
                if !options.dev.parse(other, &mut args)? {
                    return Err(format!("unknown argument {other}\n{}", usage()));
                }
            }
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_options(command_line().into_iter()) {
        Ok(options) => options,
        Err(message) => {
            say_error(&message);
            return ExitCode::from(2);
        }
    };
    if let Err(message) = options.dev.prepare() {
        say_error(&message);
        return ExitCode::from(2);
    }

    let dev_window = options.dev.window();
    let (title, default_size) = dev_window.unwrap_or(("bevy_sandbox_physics sandbox", (1600, 900)));
    let (width, height) = options.size.unwrap_or(default_size);
    // Measured runs must not wait for the display's refresh.
    let measured = dev_window.is_some();
    let window = Window {
        title: title.to_string(),
        resolution: WindowResolution::new(width, height),
        present_mode: if measured { PresentMode::AutoNoVsync } else { PresentMode::AutoVsync },
        // In a browser the canvas fills its parent (the page, `web/index.html`) and follows its
        // size, and the page does not scroll or open menus on the sandbox's keys and clicks.
        canvas: cfg!(target_arch = "wasm32").then(|| "#sandbox".to_string()),
        fit_canvas_to_parent: cfg!(target_arch = "wasm32"),
        prevent_default_event_handling: true,
        ..default()
    };

    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin { primary_window: Some(window), ..default() }),
        // The walls follow the window below the bar; the windows float over the world, so
        // opening one never squeezes the scene.
        match options.world {
            None => SandboxPhysicsPlugin::default().walls_follow_window(true),
            Some((w, h)) => SandboxPhysicsPlugin::default()
                .bounds(world::fixed_walls(Vec2::new(w as f32, h as f32))),
        },
        PhysicsRewindPlugin::default(),
        look::LookPlugin,
        tools::ToolsPlugin,
        lab::LabPlugin,
        files::FilesPlugin,
        bar::BarPlugin,
        camera::CameraPlugin,
    ))
    .insert_resource(world::WorldSettings {
        size: options
            .world
            .map_or(world::WorldSettings::default().size, |(w, h)| Vec2::new(w as f32, h as f32)),
        fit_requested: false,
    })
    .insert_resource(PhysicsDebugDraw {
        enabled: false,
        shapes: false,
        contacts: true,
        islands: true,
        walls: false,
    })
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    });
    match options.dev.plugin() {
        Some(dev) => {
            app.add_plugins(dev);
        }
        None => {
            app.add_systems(Update, load_first_scene);
            if options.size.is_none() && cfg!(not(target_arch = "wasm32")) {
                app.add_systems(Update, fit_window_to_monitor);
            }
        }
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// The command line: natively the process's arguments; in a browser the page's URL query,
/// each `name=value` as `--name value` and a bare `name` as `--name`
/// (`index.html?bench=1000&seconds=10` is `--bench 1000 --seconds 10`).
fn command_line() -> Vec<String> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::env::args().skip(1).collect();
    #[cfg(target_arch = "wasm32")]
    query_as_arguments(&web::url_query())
}

/// Prints an error for the user: on stderr, or in a browser on its console (where the page's
/// test reads it).
fn say_error(message: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{message}");
    #[cfg(target_arch = "wasm32")]
    web::console_error(message);
}

/// `a=1&b` as `--a 1 --b` (the URL query without its `?`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn query_as_arguments(query: &str) -> Vec<String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut args = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').map_or((pair, None), |(n, v)| (n, Some(v)));
        args.push(format!("--{name}"));
        args.extend(value.map(str::to_string));
    }
    args
}

/// Shrinks the window once to fit the primary monitor (with room for the desktop's bars),
/// keeping its aspect ratio.
fn fit_window_to_monitor(
    mut done: Local<bool>,
    monitors: Query<&Monitor, With<PrimaryMonitor>>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    let (Ok(monitor), Ok(mut window)) = (monitors.single(), windows.single_mut()) else {
        return;
    };
    if std::mem::replace(&mut *done, true) {
        return;
    }
    let screen = UVec2::new(monitor.physical_width, monitor.physical_height).as_vec2()
        / monitor.scale_factor as f32;
    let size = window.size();
    let shrink = (0.92 * screen.x / size.x).min(0.85 * screen.y / size.y);
    if shrink < 1.0 && shrink.is_finite() && shrink > 0.0 {
        let fitted = (size * shrink).max(Vec2::new(640.0, 360.0));
        window.resolution.set(fitted.x, fitted.y);
        window.position = WindowPosition::Centered(MonitorSelection::Primary);
    }
}

/// Loads the palette's scene once the walls have made room for the panels (a few frames in).
fn load_first_scene(
    mut frames: Local<u32>,
    palette: Res<Palette>,
    mut actions: MessageWriter<SandboxAction>,
    follow: Res<WallsFollowWindow>,
    mut world: ResMut<world::WorldSettings>,
) {
    *frames += 1;
    if *frames == 5 {
        actions.write(SandboxAction::Load(palette.scene));
        // A world of its own size (`--world`) starts in view.
        world.fit_requested |= !follow.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        parse_options(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn the_command_line_is_parsed_and_bad_values_are_refused() {
        assert_eq!(parse(&[]).map(|o| (o.size, o.world)), Ok((None, None)));
        let world = parse(&["--world", "8000x3000"]).map(|o| o.world);
        assert_eq!(world, Ok(Some((8000, 3000))));
        assert!(parse(&["--world", "8000x90"]).is_err_and(|m| m.contains("--world 8000x90")));
        let options = parse(&["--size", "800x600", "--bench", "500", "--seconds", "5"]);
        let options = options.expect("valid options");
        assert_eq!(
            (options.size, options.dev.bench, options.dev.seconds),
            (Some((800, 600)), Some(500), 5.0)
        );
        let at_rest = parse(&["--bench", "500", "--at-rest"]).map(|o| o.dev.at_rest);
        assert_eq!(at_rest, Ok(true));
        assert_eq!(query_as_arguments("?bench=1000&lab"), ["--bench", "1000", "--lab"]);
        assert_eq!(query_as_arguments(""), Vec::<String>::new());
        for bad in [&["--size", "800"][..], &["--bench", "-3"], &["--seconds"], &["--fast"]] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }
}
