//! Saving the world to a scene file and loading one (R-SCN-1): the palette's "Scene file"
//! row, F5 (save) and F9 (load), and a button per scene file shipped in `assets/scenes/`.
//!
//! A scene file is the whole world as RON (`physics::SceneFile`): bounds, walls, config and
//! every body with its sleep state and the solver's memory, so a loaded world goes on exactly
//! as the saved one would have. A file that is broken or from another version is refused with
//! the reason in the palette, and the world stays as it is. The last file saved or loaded is
//! remembered across runs (in `$XDG_CONFIG_HOME` or `~/.config`,
//! `bevy_sandbox_physics/last_scene`). The walls follow the window: a file is loaded with its
//! floor on the window's floor, centred between the walls, and a file larger than the window
//! is refused, saying which body does not fit.
//!
//! The "Session" row records what happens (F6 starts and stops; R-SCN-2): the world as it was
//! when the recording started and every change after it, saved beside the scene file as
//! `<name>.start.ron` and `<name>.inputs.ron`. F7 plays the saved session back, bit for bit,
//! and any change made while it plays (a click, a drag, a slider) takes over from there.
//!
//! In a browser (wasm32) there is no file system: the shipped scenes are compiled in, saving
//! keeps the file in the page under its name (F9 loads it back) and offers it as a download,
//! and a file of your own is loaded with the page's "Open scene file" button. Nothing is
//! remembered across visits.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_sandbox_physics::physics::{SceneError, SceneFile};
use bevy_sandbox_physics::plugin::{PlayPhysicsRecording, SessionRecording, load_scene};
use bevy_sandbox_physics::prelude::*;

use crate::tools::EguiFocus;

/// The file the palette saves to and loads from, and the outcome of the last try.
#[derive(Resource, Debug)]
pub struct SceneFiles {
    /// Path of the scene file, edited in the palette.
    pub path: String,
    /// The outcome of the last save or load: (succeeded, message).
    pub status: Option<(bool, String)>,
    /// A save or load asked for by a button or a key, done in `Update`.
    request: Option<FileRequest>,
    /// The scene files shipped in `assets/scenes/`: name and path.
    shipped: Vec<(String, String)>,
    /// In a browser: the files saved or opened in this page, by name, as RON.
    #[cfg(target_arch = "wasm32")]
    in_page: std::collections::HashMap<String, String>,
    /// In a browser: the last session recorded in this page.
    #[cfg(target_arch = "wasm32")]
    last_session: Option<SessionRecording>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileRequest {
    Save,
    Load,
    /// Start recording the session, or stop and save it.
    Record,
    /// Play the saved session back.
    Play,
}

impl Default for SceneFiles {
    fn default() -> Self {
        let remembered = remembered_path().and_then(|p| std::fs::read_to_string(p).ok());
        let path = remembered.map(|text| text.trim().to_string()).filter(|p| !p.is_empty());
        Self {
            path: path.unwrap_or_else(|| "scene.ron".into()),
            status: None,
            request: None,
            shipped: shipped_scenes(),
            #[cfg(target_arch = "wasm32")]
            in_page: Default::default(),
            #[cfg(target_arch = "wasm32")]
            last_session: None,
        }
    }
}

/// The shipped scene files compiled in for the browser: name and RON.
#[cfg(target_arch = "wasm32")]
const EMBEDDED: [(&str, &str); 6] = [
    ("cradle_and_break", include_str!("../../assets/scenes/cradle_and_break.ron")),
    ("material_balls", include_str!("../../assets/scenes/material_balls.ron")),
    ("mixed_60", include_str!("../../assets/scenes/mixed_60.ron")),
    ("pyramid_20", include_str!("../../assets/scenes/pyramid_20.ron")),
    ("rain_400", include_str!("../../assets/scenes/rain_400.ron")),
    ("tower_12", include_str!("../../assets/scenes/tower_12.ron")),
];

/// In a browser the shipped files are the compiled-in ones, each under its own name.
#[cfg(target_arch = "wasm32")]
fn shipped_scenes() -> Vec<(String, String)> {
    EMBEDDED.iter().map(|(name, _)| (name.to_string(), format!("{name}.ron"))).collect()
}

/// The files in the crate's `assets/scenes/`, by name.
#[cfg(not(target_arch = "wasm32"))]
fn shipped_scenes() -> Vec<(String, String)> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/scenes");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&folder)
        .map(|entries| {
            entries
                .filter_map(|entry| {
                    let path = entry.ok()?.path();
                    let name = path.file_stem()?.to_str()?.to_string();
                    (path.extension()? == "ron").then(|| (name, path.display().to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Where the last file's path is kept between runs.
fn remembered_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(base.join("bevy_sandbox_physics").join("last_scene"))
}

fn remember(path: &str) {
    let Some(file) = remembered_path() else { return };
    let written = file
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&file, path));
    if let Err(error) = written {
        debug!("cannot remember the scene file in {}: {error}", file.display());
    }
}

/// The scene file row and keys.
pub struct FilesPlugin;

impl Plugin for FilesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SceneFiles>().add_systems(Update, (file_keys, save_or_load).chain());
        #[cfg(target_arch = "wasm32")]
        app.add_systems(Update, take_upload.before(save_or_load));
    }
}

/// A file opened with the page's button: kept in the page under its name, then loaded.
#[cfg(target_arch = "wasm32")]
fn take_upload(mut files: ResMut<SceneFiles>) {
    if let Some((name, text)) = crate::web::take_upload() {
        files.in_page.insert(name.clone(), text);
        files.path = name;
        files.request = Some(FileRequest::Load);
    }
}

/// F5 saves, F9 loads, F6 records, F7 plays back.
fn file_keys(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<EguiFocus>,
    mut files: ResMut<SceneFiles>,
) {
    if focus.keyboard {
        return;
    }
    if keys.just_pressed(KeyCode::F5) {
        files.request = Some(FileRequest::Save);
    }
    if keys.just_pressed(KeyCode::F9) {
        files.request = Some(FileRequest::Load);
    }
    if keys.just_pressed(KeyCode::F6) {
        files.request = Some(FileRequest::Record);
    }
    if keys.just_pressed(KeyCode::F7) {
        files.request = Some(FileRequest::Play);
    }
}

/// The two files of the session recorded beside the scene file `path`: `<name>.start.ron`
/// (the world it started from) and `<name>.inputs.ron`.
fn session_paths(path: &str) -> (String, String) {
    let name = path.strip_suffix(".ron").unwrap_or(path);
    (format!("{name}.start.ron"), format!("{name}.inputs.ron"))
}

/// Moves a file's world into the walls the window has now: its floor on the floor, centred
/// between the side walls. Every body moves by the same offset, so the file's motion is
/// unchanged (up to the rounding of that addition); a file wider or taller than the walls
/// then has bodies outside them and is refused, saying so (the core would load them outside
/// the walls, as a world may hold such bodies).
fn fit_to_walls(mut file: SceneFile, walls: (Vec2, Vec2)) -> Result<SceneFile, SceneError> {
    let (min, max) = (file.bounds.min, file.bounds.max);
    let offset = Vec2::new(0.5 * (walls.0.x + walls.1.x - min.x - max.x), walls.1.y - max.y);
    if offset == Vec2::ZERO && walls == (min, max) {
        return Ok(file);
    }
    for body in &mut file.bodies {
        body.position += offset;
        if let Some(target) = body.drag_target.as_mut() {
            *target += offset;
        }
    }
    file.bounds.min = walls.0;
    file.bounds.max = walls.1;
    file.check_inside()?;
    Ok(file)
}

fn save_or_load(
    mut files: ResMut<SceneFiles>,
    mut physics: ResMut<PhysicsWorld>,
    bounds: Res<PhysicsBounds>,
    mut commands: Commands,
) {
    let Some(request) = files.request.take() else { return };
    let path = files.path.clone();
    match request {
        FileRequest::Record if physics.recording().is_none() => {
            physics.start_recording();
            files.status = Some((true, "recording the session: F6 stops and saves it".into()));
        }
        FileRequest::Record => {
            let Some(session) = physics.stop_recording() else { return };
            let (start, inputs) = session_paths(&path);
            let steps = session.log.end_step - session.log.start_step;
            let changes = session.log.inputs.len();
            match files.save_session(&session, &start, &inputs) {
                Ok(()) => {
                    let message = format!("recorded {steps} steps, {changes} changes: {inputs}");
                    info!("{message}");
                    files.status = Some((true, message));
                }
                Err(error) => files.report(&inputs, Err(error), "recorded"),
            }
        }
        FileRequest::Play => {
            let (start, inputs) = session_paths(&path);
            match files.read_session(&start, &inputs) {
                Ok(session) => {
                    let steps = session.log.end_step - session.log.start_step;
                    files.status = Some((true, format!("playing {steps} steps back: {inputs}")));
                    commands.queue(PlayPhysicsRecording(session));
                }
                Err(error) => files.report(&inputs, Err(error), "played"),
            }
        }
        FileRequest::Save => {
            let saved = files.save(&physics.scene_file(), &path);
            files.report(&path, saved.map(|()| physics.len()), "saved");
        }
        FileRequest::Load => {
            let walls = physics.mapping().rect_to_core(bounds.0);
            match files.read(&path).and_then(|file| fit_to_walls(file, walls)) {
                Ok(file) => {
                    // `load_scene` builds the file's world once, and says why if it refuses it.
                    commands.queue(move |world: &mut World| {
                        let loaded = load_scene(world, &file);
                        world.resource_mut::<SceneFiles>().report(&path, loaded, "loaded");
                    });
                }
                Err(error) => files.report(&path, Err(error), "loaded"),
            }
        }
    }
}

impl SceneFiles {
    /// Writes a recorded session to its two files.
    #[cfg(not(target_arch = "wasm32"))]
    fn save_session(
        &self,
        session: &SessionRecording,
        start: &str,
        inputs: &str,
    ) -> Result<(), SceneError> {
        session.save(start, inputs)
    }

    /// Reads the session saved in the two files.
    #[cfg(not(target_arch = "wasm32"))]
    fn read_session(&self, start: &str, inputs: &str) -> Result<SessionRecording, SceneError> {
        SessionRecording::load(start, inputs)
    }

    /// In a browser the session stays in the page.
    #[cfg(target_arch = "wasm32")]
    fn save_session(
        &mut self,
        session: &SessionRecording,
        _: &str,
        _: &str,
    ) -> Result<(), SceneError> {
        self.last_session = Some(session.clone());
        Ok(())
    }

    /// In a browser: the session recorded in this page.
    #[cfg(target_arch = "wasm32")]
    fn read_session(&self, _: &str, _: &str) -> Result<SessionRecording, SceneError> {
        self.last_session.clone().ok_or_else(|| {
            SceneError::Io("no session recorded in this page yet: F6 records one".into())
        })
    }

    /// Writes `file` to `path`.
    #[cfg(not(target_arch = "wasm32"))]
    fn save(&mut self, file: &SceneFile, path: &str) -> Result<(), SceneError> {
        file.save(path)
    }

    /// Reads the scene file at `path`.
    #[cfg(not(target_arch = "wasm32"))]
    fn read(&self, path: &str) -> Result<SceneFile, SceneError> {
        SceneFile::load(path)
    }

    /// In a browser: keeps `file` in the page under `path` and offers it as a download.
    #[cfg(target_arch = "wasm32")]
    fn save(&mut self, file: &SceneFile, path: &str) -> Result<(), SceneError> {
        let text = file.to_ron();
        let name = path.rsplit('/').next().unwrap_or(path);
        crate::web::download(name, &text).map_err(SceneError::Io)?;
        self.in_page.insert(path.to_string(), text);
        Ok(())
    }

    /// In a browser: a file saved or opened in this page, else a shipped one, by name.
    #[cfg(target_arch = "wasm32")]
    fn read(&self, path: &str) -> Result<SceneFile, SceneError> {
        let shipped = || {
            let name = path.strip_suffix(".ron").unwrap_or(path);
            EMBEDDED.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
        };
        match self.in_page.get(path).map(String::as_str).or_else(shipped) {
            Some(text) => SceneFile::from_ron(text),
            None => Err(SceneError::Io(format!(
                "no file {path} in this page: a browser page cannot read your disk; open it \
                 with the page's \"Open scene file\" button, or save one first (F5)"
            ))),
        }
    }

    /// Shows (and logs) the outcome of saving or loading `count` bodies at `path`.
    fn report(&mut self, path: &str, outcome: Result<usize, SceneError>, done: &str) {
        self.status = Some(match outcome {
            Ok(count) => {
                let message = format!("{done} {count} bodies: {path}");
                info!("{message}");
                remember(path);
                (true, message)
            }
            Err(error) => {
                let message = format!("{path}: {error}");
                warn!("scene file: {message}");
                (false, message)
            }
        });
    }
}

/// The palette's "Scene file" row: the path, Save and Load, the session's Record and Play,
/// the last outcome.
pub fn file_ui(ui: &mut egui::Ui, files: &mut SceneFiles, physics: &PhysicsWorld) {
    ui.strong("Scene file");
    #[cfg(target_arch = "wasm32")]
    ui.small("In the browser: Save downloads the file, open your own with the page's button.");
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut files.path).desired_width(110.0))
            .on_hover_text("RON file with the whole world: bounds, walls, config, every body");
        if ui.button("Save").on_hover_text("F5").clicked() {
            files.request = Some(FileRequest::Save);
        }
        if ui.button("Load").on_hover_text("F9: replaces every body").clicked() {
            files.request = Some(FileRequest::Load);
        }
    });
    ui.horizontal(|ui| {
        ui.small("Session:");
        let recording = physics.recording();
        let record = if recording.is_some() { "⏹ Stop" } else { "⏺ Record" };
        let tip = "F6: records every change from now on; stop saves it beside the scene file";
        if ui.small_button(record).on_hover_text(tip).clicked() {
            files.request = Some(FileRequest::Record);
        }
        let tip = "F7: plays the saved session back; a change of yours takes over";
        if ui.small_button("▶ Play").on_hover_text(tip).clicked() {
            files.request = Some(FileRequest::Play);
        }
        if let Some(log) = recording {
            let steps = log.end_step - log.start_step;
            ui.small(format!("● {steps} steps, {} changes", log.inputs.len()));
        } else if let Some((now, end)) = physics.playback_progress() {
            ui.small(format!("▶ step {now} of {end}"));
        }
    });
    if !files.shipped.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.small("Shipped:");
            let mut chosen = None;
            for (name, path) in &files.shipped {
                if ui.small_button(name).on_hover_text(path.as_str()).clicked() {
                    chosen = Some(path.clone());
                }
            }
            if let Some(path) = chosen {
                files.path = path;
                files.request = Some(FileRequest::Load);
            }
        });
    }
    if let Some((ok, message)) = &files.status {
        let color = if *ok { ui.visuals().weak_text_color() } else { ui.visuals().error_fg_color };
        ui.add(egui::Label::new(egui::RichText::new(message).small().color(color)).wrap());
    }
}
