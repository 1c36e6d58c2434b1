//! Saving the world to a scene file and loading one (R-SCN-1): the palette's "Scene file"
//! row, F5 (save) and F9 (load).
//!
//! A scene file is the whole world as RON (`physics::SceneFile`): bounds, walls, config and
//! every body with its sleep state and the solver's memory, so a loaded world goes on exactly
//! as the saved one would have. A file that is broken or from another version is refused with
//! the reason in the palette, and the world stays as it is. The last file saved or loaded is
//! remembered across runs (in `$XDG_CONFIG_HOME` or `~/.config`,
//! `bevy_sandbox_physics/last_scene`). The walls follow the window: a file saved in a larger
//! window is loaded into the walls of this one, which push bodies left outside back in.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_sandbox_physics::physics::SceneFile;
use bevy_sandbox_physics::plugin::LoadPhysicsScene;
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
        Self { path: path.unwrap_or_else(|| "scene.ron".into()), status: None, request: None }
    }
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

fn save_or_load(mut files: ResMut<SceneFiles>, physics: Res<PhysicsWorld>, mut commands: Commands) {
    let Some(request) = files.request.take() else { return };
    let path = files.path.clone();
    let outcome = match request {
        FileRequest::Save => physics
            .scene_file()
            .save(&path)
            .map(|()| format!("saved {} bodies to {path}", physics.len())),
        FileRequest::Load => SceneFile::load(&path).map(|file| {
            let count = file.bodies.len();
            commands.queue(LoadPhysicsScene(file));
            format!("loaded {count} bodies from {path}")
        }),
    };
    files.status = Some(match outcome {
        Ok(message) => {
            info!("{message}");
            remember(&path);
            (true, message)
        }
        Err(error) => {
            let message = format!("{path}: {error}");
            warn!("scene file: {message}");
            (false, message)
        }
    });
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
    if let Some((ok, message)) = &files.status {
        let color = if *ok { ui.visuals().weak_text_color() } else { ui.visuals().error_fg_color };
        ui.add(egui::Label::new(egui::RichText::new(message).small().color(color)).wrap());
    }
}
