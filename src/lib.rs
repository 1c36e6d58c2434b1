//! `bevy_sandbox_physics`: a small, exact, fast 2D physics sandbox for Bevy.
//!
//! * [`physics`]: the engine, pure Rust (glam and std). It builds without Bevy
//!   (`--no-default-features`) and can be used and benchmarked on its own.
#![warn(missing_docs)]

pub mod physics;
