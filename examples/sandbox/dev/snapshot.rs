//! What the smoke run records next to each screenshot, and what its checker reads
//! (`tests/sandbox_smoke.rs` includes this file). Plain serde data, no Bevy.
//!
//! Everything is in window pixels of the screenshot: origin top-left, y down.

use serde::{Deserialize, Serialize};

/// The state of the sandbox in the frame a screenshot shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The shot's name; the PNG is `<name>.png` and this file `<name>.json`.
    pub name: String,
    /// Frame number (counted from 1).
    pub frame: u64,
    /// Physical pixels per logical pixel.
    pub scale_factor: f32,
    /// The window's size in physical pixels.
    pub window: [f32; 2],
    /// Steps the core has taken.
    pub step_count: u64,
    /// Whether the simulation is paused.
    pub paused: bool,
    /// Whether gravity acts.
    pub gravity: bool,
    /// The walls as (left, top, right, bottom), physical pixels.
    pub walls: [f32; 4],
    /// The colour of the world's floor, sRGB.
    pub floor_color: [u8; 3],
    /// The visible egui windows.
    pub panels: Vec<PanelShot>,
    /// Every body.
    pub bodies: Vec<BodyShot>,
    /// What the script did before this shot (free text for people and named values for
    /// the checker).
    pub notes: Vec<(String, f64)>,
}

#[allow(dead_code, reason = "used by the checker, tests/sandbox_smoke.rs")]
impl Snapshot {
    /// The value the script noted as `key`.
    pub fn note(&self, key: &str) -> Option<f64> {
        self.notes.iter().find(|(k, _)| k == key).map(|&(_, v)| v)
    }

    /// The body with `id`.
    pub fn body(&self, id: u64) -> Option<&BodyShot> {
        self.bodies.iter().find(|b| b.id == id)
    }
}

/// An egui window.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PanelShot {
    /// egui's id of its area, as debug text.
    pub id: String,
    /// (left, top, right, bottom), physical pixels.
    pub rect: [f32; 4],
}

/// A body as drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BodyShot {
    /// The entity's bits: stable across the shots of one run.
    pub id: u64,
    /// `true` for a circle, `false` for a rectangle.
    pub circle: bool,
    /// Centre as drawn (the interpolated `Transform`), physical pixels.
    pub centre: [f32; 2],
    /// Radius (twice) or half extents, physical pixels.
    pub half: [f32; 2],
    /// Angle of the radius line, rad, clockwise on screen from +x.
    pub angle: f32,
    /// The fill colour it must show, sRGB.
    pub color: [u8; 3],
    /// The material's preset name, or "custom".
    pub material: String,
    /// "awake", "sleeping" or "held".
    pub state: String,
    /// Velocity, px/s, screen frame (y down).
    pub velocity: [f32; 2],
    /// Static body.
    pub fixed: bool,
}
