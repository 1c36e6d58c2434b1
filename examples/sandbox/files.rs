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

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_sandbox_physics::physics::{SceneError, SceneFile};
use bevy_sandbox_physics::plugin::load_scene;
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileRequest {
    Save,
    Load,
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
        }
    }
}

/// The files in the crate's `assets/scenes/`, by name.
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
    }
}

/// F5 saves, F9 loads.
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
}

/// Moves a file's world into the walls the window has now: its floor on the floor, centred
/// between the side walls. Every body moves by the same offset, so the file's motion is
/// unchanged (up to the rounding of that addition); a file wider or taller than the walls
/// then has bodies outside them and is refused, saying so.
fn fit_to_walls(mut file: SceneFile, walls: (Vec2, Vec2)) -> SceneFile {
    let (min, max) = (file.bounds.min, file.bounds.max);
    let offset = Vec2::new(0.5 * (walls.0.x + walls.1.x - min.x - max.x), walls.1.y - max.y);
    if offset == Vec2::ZERO && walls == (min, max) {
        return file;
    }
    for body in &mut file.bodies {
        body.position += offset;
        if let Some(target) = body.drag_target.as_mut() {
            *target += offset;
        }
    }
    file.bounds.min = walls.0;
    file.bounds.max = walls.1;
    file
}

fn save_or_load(
    mut files: ResMut<SceneFiles>,
    physics: Res<PhysicsWorld>,
    bounds: Res<PhysicsBounds>,
    mut commands: Commands,
) {
    let Some(request) = files.request.take() else { return };
    let path = files.path.clone();
    match request {
        FileRequest::Save => {
            let saved = physics.scene_file().save(&path);
            files.report(&path, saved.map(|()| physics.len()), "saved");
        }
        FileRequest::Load => match SceneFile::load(&path) {
            Ok(file) => {
                let file = fit_to_walls(file, physics.mapping().rect_to_core(bounds.0));
                // `load_scene` builds the file's world once, and says why if it refuses it.
                commands.queue(move |world: &mut World| {
                    let loaded = load_scene(world, &file);
                    world.resource_mut::<SceneFiles>().report(&path, loaded, "loaded");
                });
            }
            Err(error) => files.report(&path, Err(error), "loaded"),
        },
    }
}

impl SceneFiles {
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

/// The palette's "Scene file" row: the path, Save and Load, the last outcome.
pub fn file_ui(ui: &mut egui::Ui, files: &mut SceneFiles) {
    ui.strong("Scene file");
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
