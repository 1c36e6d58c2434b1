//! The world's size (issue 20): by default the walls follow the window, which suits the small
//! scenes; a world of its own size (`--world 8000x3000`, or the palette's World row) is larger
//! than the window, and the camera zooms and pans over it (wheel, middle drag, F to fit).
//! The scenes and the stress slider fill whatever world there is.

use std::ops::RangeInclusive;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_sandbox_physics::plugin::WallsFollowWindow;
use bevy_sandbox_physics::prelude::*;

/// The sides a world of its own size may have, px.
pub const WORLD_SIDE: RangeInclusive<u32> = 200..=50_000;

/// The size the palette's World row holds, and a request to fit the view to the world.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct WorldSettings {
    /// Width and height a click on "Apply" gives the world, px.
    pub size: Vec2,
    /// Fit the camera to the world on the next frame (as F does).
    pub fit_requested: bool,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self { size: Vec2::new(4000.0, 2000.0), fit_requested: false }
    }
}

/// The walls of a world of `size` of its own: centred on the origin.
pub fn fixed_walls(size: Vec2) -> Rect {
    Rect::from_center_size(Vec2::ZERO, size)
}

/// Parses `WxH` (each side in [`WORLD_SIDE`]) for `--world`.
pub fn parse_world(text: &str) -> Result<(u32, u32), String> {
    text.split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .filter(|(w, h)| WORLD_SIDE.contains(w) && WORLD_SIDE.contains(h))
        .ok_or(format!(
            "--world {text}: expected <width>x<height> in px, each {} to {}, e.g. 8000x3000",
            WORLD_SIDE.start(),
            WORLD_SIDE.end()
        ))
}

/// What the World row changes.
#[derive(SystemParam)]
pub struct WorldParams<'w> {
    follow: ResMut<'w, WallsFollowWindow>,
    bounds: ResMut<'w, PhysicsBounds>,
    settings: ResMut<'w, WorldSettings>,
}

impl WorldParams<'_> {
    /// The world's size now.
    pub fn size(&self) -> Vec2 {
        self.bounds.0.size()
    }
}

/// The palette's World row: follow the window, or a size of its own.
pub fn world_ui(ui: &mut egui::Ui, world: &mut WorldParams) {
    ui.strong("World");
    let mut follow = world.follow.0;
    let hover = "On: the walls are the window (minus the bar). Off: the world keeps its own \
                 size; zoom with the wheel, pan with the middle button, F fits it in view";
    if ui.checkbox(&mut follow, "walls follow the window").on_hover_text(hover).changed() {
        world.follow.0 = follow;
        world.settings.fit_requested = true;
    }
    ui.horizontal(|ui| {
        fn side(value: &mut f32) -> egui::DragValue<'_> {
            egui::DragValue::new(value)
                .range(*WORLD_SIDE.start() as f32..=*WORLD_SIDE.end() as f32)
                .speed(10.0)
                .suffix(" px")
        }
        ui.add(side(&mut world.settings.size.x));
        ui.label("×");
        ui.add(side(&mut world.settings.size.y));
        if ui.button("Apply").on_hover_text("A world of this size; bodies stay").clicked() {
            world.follow.0 = false;
            world.bounds.0 = fixed_walls(world.settings.size);
            world.settings.fit_requested = true;
        }
    });
    let size = world.size();
    ui.small(format!("now {:.0} × {:.0} px", size.x, size.y));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_size_is_parsed_and_bad_ones_are_refused_with_the_range() {
        assert_eq!(parse_world("8000x3000"), Ok((8000, 3000)));
        for bad in ["8000", "100x3000", "8000x60000", "axb", "-5x300"] {
            let message = parse_world(bad).expect_err(bad);
            assert!(message.contains("200 to 50000"), "{message}");
        }
    }
}
