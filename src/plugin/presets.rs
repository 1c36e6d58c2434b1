//! Config presets: a [`PhysicsConfig`] as a RON file.
//!
//! A preset lists any subset of the config's fields; the ones it leaves out keep their
//! defaults (so a preset says only what makes it different). Reading one checks three things
//! and names the culprit of each failure: the text is RON, every field name exists (a typo
//! would otherwise be ignored silently), and the config passes
//! [`PhysicsConfig::validate`] (R-CFG-3).
//!
//! Four presets ship in `assets/presets/` and are compiled in, so they load without the
//! asset folder: `default`, `bouncy` (elastic walls, a low bounce threshold), `icy` (slippery
//! walls, almost no rolling resistance) and `sticky` (grippy walls, strong rolling
//! resistance, nothing bounces).
//!
//! ```
//! use bevy_sandbox_physics::plugin::{builtin_preset, config_from_ron, config_to_ron};
//!
//! let icy = builtin_preset("icy").unwrap().unwrap();
//! assert!(icy.wall_friction < 0.1);
//! let text = config_to_ron(&icy).unwrap();
//! assert_eq!(config_from_ron(&text).unwrap(), icy);
//! ```

use std::fmt;
use std::path::Path;

use ron::ser::PrettyConfig;

use crate::physics::{ConfigError, PhysicsConfig};

/// The presets shipped in `assets/presets/`, compiled in so they load without the asset
/// folder: (name, RON text).
///
/// `default`, `bouncy` (elastic walls, a low bounce threshold), `icy` (slippery walls, almost
/// no rolling resistance) and `sticky` (grippy walls, strong rolling resistance, nothing
/// bounces). A preset lists only the fields that make it different; [`config_from_ron`]
/// reads it.
pub const BUILTIN_PRESETS: [(&str, &str); 4] = [
    ("default", include_str!("../../assets/presets/default.ron")),
    ("bouncy", include_str!("../../assets/presets/bouncy.ron")),
    ("icy", include_str!("../../assets/presets/icy.ron")),
    ("sticky", include_str!("../../assets/presets/sticky.ron")),
];

/// Why a preset could not be read or written.
#[derive(Clone, Debug, PartialEq)]
pub enum PresetError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The text is not RON, or a value has the wrong type.
    Parse(String),
    /// A field name that `PhysicsConfig` does not have.
    UnknownField {
        /// The unknown name.
        field: String,
    },
    /// The values break a range or an invariant; every bad field is named.
    Invalid(ConfigError),
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::Io { path, reason } => write!(f, "{path}: {reason}"),
            PresetError::Parse(reason) => write!(f, "not a PhysicsConfig in RON: {reason}"),
            PresetError::UnknownField { field } => {
                let known: Vec<&str> = PhysicsConfig::PARAMETERS.iter().map(|p| p.name).collect();
                write!(f, "unknown field `{field}` (known fields: {})", known.join(", "))
            }
            PresetError::Invalid(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for PresetError {}

/// Reads a config from RON text: fields left out keep their defaults.
///
/// Names the culprit of each failure: text that is not RON, a field name `PhysicsConfig` does
/// not have (serde would skip it silently), or values that fail
/// [`PhysicsConfig::validate`] (R-CFG-3).
pub fn config_from_ron(text: &str) -> Result<PhysicsConfig, PresetError> {
    // Unknown names first: serde would skip them without a word.
    let value: ron::Value = ron::from_str(text).map_err(|e| PresetError::Parse(e.to_string()))?;
    if let ron::Value::Map(map) = &value {
        for key in map.keys() {
            let name = match key {
                ron::Value::String(name) => name.clone(),
                other => format!("{other:?}"),
            };
            if PhysicsConfig::parameter(&name).is_none() {
                return Err(PresetError::UnknownField { field: name });
            }
        }
    }
    let config: PhysicsConfig =
        ron::from_str(text).map_err(|e| PresetError::Parse(e.to_string()))?;
    config.validate().map_err(PresetError::Invalid)?;
    Ok(config)
}

/// Writes every field of `config` as RON.
pub fn config_to_ron(config: &PhysicsConfig) -> Result<String, PresetError> {
    let pretty = PrettyConfig::new().struct_names(false);
    let mut text = ron::ser::to_string_pretty(config, pretty)
        .map_err(|e| PresetError::Parse(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Reads a preset file.
pub fn load_preset(path: impl AsRef<Path>) -> Result<PhysicsConfig, PresetError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|e| PresetError::Io { path: path.display().to_string(), reason: e.to_string() })?;
    config_from_ron(&text)
}

/// Saves `config` to a preset file (creating or replacing it).
pub fn save_preset(config: &PhysicsConfig, path: impl AsRef<Path>) -> Result<(), PresetError> {
    let path = path.as_ref();
    let text = config_to_ron(config)?;
    std::fs::write(path, text)
        .map_err(|e| PresetError::Io { path: path.display().to_string(), reason: e.to_string() })
}

/// A shipped preset by name (`None` if there is no such preset).
pub fn builtin_preset(name: &str) -> Option<Result<PhysicsConfig, PresetError>> {
    BUILTIN_PRESETS.iter().find(|(n, _)| *n == name).map(|(_, text)| config_from_ron(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_presets_load_and_default_is_the_default() {
        for (name, _) in BUILTIN_PRESETS {
            let config = builtin_preset(name).expect(name);
            assert!(config.is_ok(), "{name}: {config:?}");
        }
        assert_eq!(builtin_preset("default"), Some(Ok(PhysicsConfig::default())));
        let bouncy = builtin_preset("bouncy").and_then(Result::ok).unwrap_or_default();
        let sticky = builtin_preset("sticky").and_then(Result::ok).unwrap_or_default();
        assert!(bouncy.wall_restitution > 0.5 && sticky.wall_friction > 1.0);
        assert!(builtin_preset("nonsense").is_none());
    }

    #[test]
    fn a_saved_config_reads_back_exactly() {
        let config = PhysicsConfig {
            gravity: bevy::math::Vec2::new(12.5, -300.0),
            velocity_iterations: 13,
            sleeping_enabled: false,
            ..PhysicsConfig::default().with_time_step(1.0 / 90.0)
        };
        let text = config_to_ron(&config).unwrap_or_default();
        assert_eq!(config_from_ron(&text), Ok(config));
    }

    #[test]
    fn bad_presets_name_the_field_r_cfg_3() {
        let unknown = config_from_ron("(wall_fricton: 0.3)");
        assert!(
            matches!(&unknown, Err(PresetError::UnknownField { field }) if field == "wall_fricton")
        );
        let bad = config_from_ron("(wall_friction: 7.0)");
        let Err(PresetError::Invalid(error)) = bad else { panic!("{bad:?}") };
        assert!(error.names("wall_friction"), "{error}");
        assert!(error.to_string().contains("allowed"), "{error}");
        assert!(matches!(config_from_ron("(wall_friction: \"x\")"), Err(PresetError::Parse(_))));
        assert!(matches!(config_from_ron("not ron at all"), Err(PresetError::Parse(_))));
        let missing = load_preset("/nonexistent/preset.ron");
        assert!(matches!(missing, Err(PresetError::Io { .. })), "{missing:?}");
    }
}
