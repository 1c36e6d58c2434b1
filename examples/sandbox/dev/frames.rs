//! The smoke run's script: at which frame (1/60 s of simulated time each) it does what,
//! and which frames it saves as shots. Read by `smoke.rs` (`use frames::*`).

pub const FOCUS: u64 = 5;
pub const LOAD: u64 = 20;
pub const SHOT_START: u64 = 40;
pub const OPEN_PANEL: u64 = 45;
pub const SHOT_PILE: u64 = 200;
pub const SPAWN_AIM: u64 = 205;
pub const SPAWN_CLICK: u64 = 208;
pub const SHOT_SPAWNED: u64 = 213;
pub const PANEL_AIM: u64 = 215;
pub const PANEL_CLICK: u64 = 218;
pub const PANEL_COUNT: u64 = 224;
pub const QUICK_AWAY: u64 = 226;
pub const QUICK_PANEL_CLICK: u64 = 232;
pub const QUICK_PANEL_COUNT: u64 = 240;
/// The taps (`touch.rs`): a finger put down at `*_DOWN` arrives at `*_HELD`, the next frame,
/// and is lifted at `*_UP` (arrives a frame later); the bodies are counted at `*_COUNT`.
pub const TAP_AWAY: u64 = 244;
pub const TAP_PANEL_DOWN: u64 = 248;
pub const TAP_PANEL_HELD: u64 = 249;
pub const TAP_PANEL_UP: u64 = 250;
pub const TAP_PANEL_COUNT: u64 = 256;
pub const TAP_SPACE_DOWN: u64 = 260;
pub const TAP_SPACE_HELD: u64 = 261;
pub const TAP_SPACE_UP: u64 = 262;
pub const TAP_SPACE_COUNT: u64 = 268;
pub const PILE_AIM: u64 = 300;
pub const PILE_SHIFT_DOWN: u64 = 303;
pub const PILE_CLICK: u64 = 305;
pub const PILE_SHIFT_UP: u64 = 307;
pub const SHOT_INTO_PILE: u64 = 371;
pub const PAINT_AIM: u64 = 380;
pub const PAINT_SHIFT_DOWN: u64 = 383;
pub const PAINT_PRESS: u64 = 385;
pub const PAINT_RELEASE: u64 = 406;
pub const PAINT_SHIFT_UP: u64 = 408;
pub const SHOT_PAINTED: u64 = 412;
pub const DRAG_AIM: u64 = 470;
pub const DRAG_REAIM: u64 = 474;
pub const DRAG_PRESS: u64 = 477;
pub const DRAG_LIFT_END: u64 = 501;
pub const SHOT_DRAGGING: u64 = 495;
pub const DRAG_RELEASE: u64 = 506;
pub const SHOT_THROWN: u64 = 509;
pub const PAUSE: u64 = 560;
pub const SHOT_PAUSED_A: u64 = 565;
pub const SHOT_PAUSED_B: u64 = 590;
pub const SINGLE_STEP: u64 = 592;
pub const SHOT_SINGLE_STEP: u64 = 597;
pub const RESUME: u64 = 600;
pub const GRAVITY_OFF: u64 = 605;
pub const SHOT_NO_GRAVITY: u64 = 630;
pub const GRAVITY_ON: u64 = 632;
pub const DELETE_AIM: u64 = 700;
pub const DELETE_REAIM: u64 = 703;
pub const DELETE_KEY: u64 = 704;
pub const SHOT_DELETED: u64 = 708;
pub const RIGHT_AIM: u64 = 710;
pub const RIGHT_REAIM: u64 = 713;
pub const RIGHT_CLICK: u64 = 714;
pub const SHOT_RIGHT_DELETED: u64 = 718;
pub const OVERLAY_ON: u64 = 720;
pub const SHOT_OVERLAY: u64 = 725;
pub const OVERLAY_OFF: u64 = 728;
pub const LAB_OPEN: u64 = 735;
pub const LAB_DEMO: u64 = 745;
pub const PLOTS_OPEN: u64 = 748;
pub const LAB_SWITCH: u64 = 750;
pub const SHOT_LAB_SWITCH: u64 = 900;
pub const LAB_SWITCH_BACK: u64 = 902;
pub const RELOAD_PILE: u64 = 905;
pub const INSPECT_AIM: u64 = 1060;
pub const INSPECT_CLICK: u64 = 1064;
pub const SHOT_LAB: u64 = 1090;
pub const RESIZE: u64 = 1095;
pub const SHOT_RESIZED: u64 = 1215;
pub const PAUSE_TO_SAVE: u64 = 1220;
pub const SAVE: u64 = 1224;
pub const SHOT_SAVED: u64 = 1230;
pub const CLEAR: u64 = 1232;
pub const SHOT_CLEARED: u64 = 1240;
pub const LOAD_SAVED: u64 = 1242;
pub const SHOT_LOADED: u64 = 1250;
pub const RESUME_LOADED: u64 = 1252;
/// `,` every third frame from here to `REWIND_LAST`: 14 snapshots back (the timeline
/// holds about 12 since the load).
pub const REWIND_FIRST: u64 = 1320;
pub const REWIND_LAST: u64 = 1359;
pub const SHOT_REWOUND: u64 = 1370;
pub const BIG_CLOSE_WINDOWS: u64 = 1372;
pub const BIG_RESIZE: u64 = 1374;
pub const BIG_LOAD: u64 = 1376;
pub const BIG_FIT: u64 = 1380;
pub const SHOT_BIG_WORLD: u64 = 1440;
pub const BIG_PAUSE: u64 = 1442;
pub const ZOOM_AIM: u64 = 1445;
pub const ZOOM_IN: u64 = 1448;
pub const SHOT_CONTACT: u64 = 1455;
pub const END: u64 = 1460;
/// Frames to wait for the last screenshots to be written before giving up.
pub const SAVE_TIMEOUT: u64 = 600;

/// The shots, by frame.
pub const SHOTS: [(u64, &str); 23] = [
    (SHOT_START, "00_start"),
    (SHOT_PILE, "01_pile"),
    (SHOT_SPAWNED, "02_spawned"),
    (SHOT_INTO_PILE, "03_into_pile"),
    (SHOT_PAINTED, "04_painted"),
    (SHOT_DRAGGING, "05_dragging"),
    (SHOT_THROWN, "06_thrown"),
    (SHOT_PAUSED_A, "07_paused_a"),
    (SHOT_PAUSED_B, "08_paused_b"),
    (SHOT_SINGLE_STEP, "09_single_step"),
    (SHOT_NO_GRAVITY, "10_no_gravity"),
    (SHOT_DELETED, "11_deleted"),
    (SHOT_RIGHT_DELETED, "12_right_deleted"),
    (SHOT_OVERLAY, "13_overlay"),
    (SHOT_LAB_SWITCH, "14_lab_switch"),
    (SHOT_LAB, "15_lab"),
    (SHOT_RESIZED, "16_resized"),
    (SHOT_SAVED, "17_saved"),
    (SHOT_CLEARED, "18_cleared"),
    (SHOT_LOADED, "19_loaded"),
    (SHOT_REWOUND, "20_rewound"),
    (SHOT_BIG_WORLD, "21_big_world"),
    (SHOT_CONTACT, "22_contact"),
];
/// Wheel clicks the script turns to zoom into the contact: 1.15¹⁰ ≈ 4 times closer at
/// least (X may deliver a click as more than one line), short of the closest zoom.
pub const ZOOM_LINES: &str = "10";
/// The scene file the script saves and loads, in the smoke folder.
pub const SCENE_FILE: &str = "smoke_scene.ron";
