//! Scene files as RON text (issue 18, R-SCN-1; feature `serde`).
//!
//! Writing is serde's: [`SceneFile::to_ron`] puts the settings one to a line and each body
//! on one line, listing only what differs from its defaults. Floats are written in their
//! shortest form that reads back to the same bits, so a file keeps every value exactly.
//!
//! Reading is strict, since people edit these files: an unknown field anywhere (in the
//! config too) is refused rather than ignored, a file of another version is refused with
//! the version it has, more than [`SceneFile::MAX_BODIES`] bodies are refused as they are
//! counted, before more are read, and a file larger than [`SceneFile::MAX_BYTES`] is
//! refused before it is read. Every value is then checked by [`SceneFile::to_world`].
//!
//! The body lines, nearly all of a large file, are read by a reader of their own
//! (`body_lines.rs`) where they are laid out as written, to the same bits RON gives them;
//! anything else is RON's to read (a 10,000-body file: 29 ms instead of 93).

mod body_lines;

use std::fmt;
use std::path::Path;

use ron::value::RawValue;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};

use super::config::{ConfigError, FieldError, PhysicsConfig};
use super::world::{
    CachedContact, SceneBody, SceneBounds, SceneError, SceneFile, SceneWalls, SolverState,
};

/// The message of the error that stops reading at the body limit.
const TOO_MANY_BODIES: &str = "more bodies than allowed";

impl SceneFile {
    /// The largest scene file [`load`](Self::load) reads, bytes: room for the most bodies
    /// with their solver state (a body takes about 150 bytes, its contacts about 300).
    pub const MAX_BYTES: u64 = 256 << 20;

    /// The scene as RON text: the settings one to a line, each body on one line, and in
    /// the solver state each cached contact on one line.
    pub fn to_ron(&self) -> String {
        // Plain data of numbers and lists: serialising it cannot fail.
        let pretty = || ron::ser::PrettyConfig::new().depth_limit(2);
        let head = SceneHead {
            version: self.version,
            bounds: self.bounds,
            walls: self.walls,
            gravity_enabled: self.gravity_enabled,
            config: &self.config,
            bodies: &self.bodies,
        };
        let mut text = ron::ser::to_string_pretty(&head, pretty()).unwrap_or_default();
        if let Some(state) = &self.solver_state
            && text.ends_with(')')
        {
            // Put in as the last field.
            text.pop();
            write_solver_state(&mut text, state);
            text.push(')');
        }
        text
    }

    /// Reads a scene from RON text. Checks the syntax, the version, the fields and the
    /// number of bodies; [`to_world`](Self::to_world) checks the values.
    pub fn from_ron(text: &str) -> Result<SceneFile, SceneError> {
        let parsed = match read_quickly(text) {
            Some(parsed) => parsed,
            None => ron::from_str::<SceneText>(text).map_err(|error| explain(text, error))?,
        };
        if parsed.version != SceneFile::VERSION {
            return Err(SceneError::Version { found: Some(parsed.version) });
        }
        let config = match parsed.config {
            Some(raw) => strict_config(&raw)?,
            None => PhysicsConfig::default(),
        };
        Ok(SceneFile {
            version: parsed.version,
            bounds: parsed.bounds,
            walls: parsed.walls,
            gravity_enabled: parsed.gravity_enabled,
            config,
            bodies: parsed.bodies,
            solver_state: parsed.solver_state,
        })
    }

    /// Writes the scene to `path` as RON.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), SceneError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_ron())
            .map_err(|e| SceneError::Io(format!("{}: {e}", path.display())))
    }

    /// Reads a scene from the RON file at `path`, refusing a file larger than
    /// [`MAX_BYTES`](Self::MAX_BYTES) before reading it.
    pub fn load(path: impl AsRef<Path>) -> Result<SceneFile, SceneError> {
        Self::from_ron(&read_limited(path.as_ref())?)
    }
}

/// The file read with its body lines taken by [`body_lines`] and the rest by RON; `None`
/// if either cannot, for RON to read the whole file and name what is wrong.
fn read_quickly(text: &str) -> Option<SceneText> {
    let (rest, bodies) = body_lines::split_bodies(text)?;
    let mut parsed = ron::from_str::<SceneText>(&rest).ok()?;
    parsed.bodies = bodies;
    Some(parsed)
}

/// Writes `solver_state: Some((…)),` as serde's pretty RON would, one cached contact to a
/// line, but by hand: RON's writer looks at every character of a string for escapes, which
/// took half the time to save a 10,000-body file, and these strings are hex digits.
fn write_solver_state(text: &mut String, state: &SolverState) {
    use std::fmt::Write;
    text.reserve(state.contacts.len() * (CachedContact::WORDS_LEN + 16) + state.slots.len() * 16);
    let _ = writeln!(text, "    solver_state: Some((\n        step: {},", state.step);
    let (handles, free, slots) = (join(&state.handles), join(&state.free), join(&state.slots));
    let _ = writeln!(text, "        handles: \"{handles}\",\n        free: \"{free}\",");
    let _ = writeln!(
        text,
        "        slots: \"{slots}\",\n        next_island_id: {},",
        state.next_island_id
    );
    text.push_str("        contacts: [\n");
    for contact in &state.contacts {
        text.push_str("            \"");
        contact.write_words(text);
        text.push_str("\",\n");
    }
    text.push_str("        ],\n");
    // Rare and short: serde's compact RON on one line.
    let overlaps = ron::ser::to_string(&state.sensor_overlaps).unwrap_or_default();
    let ends = ron::ser::to_string(&state.pending_ends).unwrap_or_default();
    let _ = writeln!(text, "        sensor_overlaps: {overlaps},\n        pending_ends: {ends},");
    text.push_str("    )),\n");
}

/// Appends the `digits` lowest hex digits of `value`, zero-padded.
pub(crate) fn push_hex(out: &mut String, value: u64, digits: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for shift in (0..digits).rev() {
        out.push(char::from(HEX[((value >> (4 * shift)) & 0xf) as usize]));
    }
}

/// What the solver state writes as a hex word: a handle's bits, or a handle id.
pub(crate) trait HexWord: Copy + for<'de> Deserialize<'de> {
    /// The largest word that reads back.
    const MAX: u64;
    /// What a list of them is, for a message.
    const WHAT: &'static str;
    fn to_word(self) -> u64;
    fn from_word(word: u64) -> Self;
}

impl HexWord for crate::physics::BodyHandle {
    const MAX: u64 = u64::MAX;
    const WHAT: &'static str = "handles as one string of hex words (generation << 32 | index)";
    fn to_word(self) -> u64 {
        self.to_bits()
    }
    fn from_word(word: u64) -> Self {
        Self::from_bits(word)
    }
}

impl HexWord for u32 {
    const MAX: u64 = u32::MAX as u64;
    const WHAT: &'static str = "handle ids as one string of hex words";
    fn to_word(self) -> u64 {
        u64::from(self)
    }
    fn from_word(word: u64) -> Self {
        word as u32
    }
}

/// A list of [`HexWord`]s as one string of hex words (`SolverState::handles`, `free` and
/// `slots`); the RON list of earlier files is read too.
pub(crate) mod hex_words {
    use std::marker::PhantomData;

    use super::*;

    pub(crate) fn serialize<S: serde::Serializer, T: HexWord>(
        values: &[T],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(&join(values))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: HexWord>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        struct Words<T>(PhantomData<T>);
        impl<'de, T: HexWord> Visitor<'de> for Words<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(T::WHAT)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                split(text, T::MAX).map(|words| words.into_iter().map(T::from_word).collect())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut values = Vec::new();
                while let Some(value) = seq.next_element()? {
                    values.push(value);
                }
                Ok(values)
            }
        }
        d.deserialize_any(Words(PhantomData))
    }
}

/// The words of `values` in hex, separated by spaces.
fn join<T: HexWord>(values: &[T]) -> String {
    use std::fmt::Write;
    let mut text = String::with_capacity(values.len() * 5);
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        let _ = write!(text, "{:x}", value.to_word());
    }
    text
}

/// The hex words of `text`, each at most `max`.
fn split<E: de::Error>(text: &str, max: u64) -> Result<Vec<u64>, E> {
    text.split_ascii_whitespace()
        .map(|word| {
            u64::from_str_radix(word, 16)
                .ok()
                .filter(|&w| w <= max && word.len() <= 16)
                .ok_or_else(|| E::custom(format!("{word:?} is not a hex word up to {max:x}")))
        })
        .collect()
}

/// The text of the file at `path`, refusing a file larger than [`SceneFile::MAX_BYTES`]
/// before reading it.
pub(crate) fn read_limited(path: &Path) -> Result<String, SceneError> {
    let io = |e: std::io::Error| SceneError::Io(format!("{}: {e}", path.display()));
    let bytes = std::fs::metadata(path).map_err(io)?.len();
    if bytes > SceneFile::MAX_BYTES {
        let what = format!("{} is {bytes} bytes", path.display());
        return Err(SceneError::TooLarge { what, limit: SceneFile::MAX_BYTES });
    }
    std::fs::read_to_string(path).map_err(io)
}

/// A scene without its solver state, for writing.
#[derive(serde::Serialize)]
struct SceneHead<'a> {
    version: u32,
    bounds: SceneBounds,
    walls: SceneWalls,
    gravity_enabled: bool,
    config: &'a PhysicsConfig,
    bodies: &'a [SceneBody],
}

/// What a scene file holds, as read: the config still as text, checked for unknown fields
/// apart (`strict_config`), as `PhysicsConfig` itself accepts them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneText {
    version: u32,
    bounds: SceneBounds,
    #[serde(default)]
    walls: SceneWalls,
    #[serde(default = "gravity_on")]
    gravity_enabled: bool,
    #[serde(default, deserialize_with = "raw_value")]
    config: Option<Box<RawValue>>,
    #[serde(deserialize_with = "limited_bodies")]
    bodies: Vec<SceneBody>,
    #[serde(default)]
    solver_state: Option<SolverState>,
}

fn gravity_on() -> bool {
    true
}

/// An optional field written without `Some(…)`.
fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

fn raw_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(d).map(Some)
}

/// The bodies, counted as they are read: reading stops with an error at the first body
/// past [`SceneFile::MAX_BODIES`], so a huge file never fills memory with bodies.
fn limited_bodies<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SceneBody>, D::Error> {
    struct Limited;
    impl<'de> Visitor<'de> for Limited {
        type Value = Vec<SceneBody>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a list of bodies")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut bodies = Vec::new();
            while let Some(body) = seq.next_element()? {
                if bodies.len() == SceneFile::MAX_BODIES {
                    return Err(de::Error::custom(TOO_MANY_BODIES));
                }
                bodies.push(body);
            }
            Ok(bodies)
        }
    }
    d.deserialize_seq(Limited)
}

/// Just the version of a file that did not read, to tell a file of another version (whose
/// fields may differ) from a broken one.
#[derive(Deserialize)]
struct VersionProbe {
    #[serde(default, deserialize_with = "some")]
    version: Option<u32>,
}

/// The error for a RON error of a scene file or an input log: the body limit, another
/// version, or the syntax.
pub(crate) fn explain(text: &str, error: ron::error::SpannedError) -> SceneError {
    if matches!(&error.code, ron::Error::Message(m) if m == TOO_MANY_BODIES) {
        let what = format!("more than {} bodies", SceneFile::MAX_BODIES);
        return SceneError::TooLarge { what, limit: SceneFile::MAX_BODIES as u64 };
    }
    match ron::from_str::<VersionProbe>(text) {
        Ok(VersionProbe { version }) if version != Some(SceneFile::VERSION) => {
            SceneError::Version { found: version }
        }
        _ => SceneError::Syntax {
            line: error.span.start.line,
            column: error.span.start.col,
            message: error.code.to_string(),
        },
    }
}

/// The config of the file, refusing a field `PhysicsConfig` does not have (its derive, with
/// `serde(default)`, would ignore it: a misspelt field would silently keep its default).
fn strict_config(raw: &RawValue) -> Result<PhysicsConfig, SceneError> {
    let syntax = |e: ron::error::SpannedError| SceneError::Syntax {
        line: e.span.start.line,
        column: e.span.start.col,
        message: format!("in config: {}", e.code),
    };
    let known = config_fields();
    let ConfigKeys(keys) = raw.into_rust::<ConfigKeys>().map_err(syntax)?;
    if let Some(unknown) = keys.iter().find(|k| !known.contains(&k.as_str())) {
        let problem = FieldError {
            field: "config",
            value: format!("unknown field `{unknown}`"),
            allowed: format!("the fields of PhysicsConfig: {}", known.join(", ")),
        };
        return Err(SceneError::Invalid {
            at: "config".into(),
            error: ConfigError { problems: vec![problem] },
        });
    }
    raw.into_rust::<PhysicsConfig>().map_err(syntax)
}

/// The field names a config in the file gives.
struct ConfigKeys(Vec<String>);

impl<'de> Deserialize<'de> for ConfigKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = ConfigKeys;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a config: (name: value, …)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ConfigKeys, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                    keys.push(key);
                }
                Ok(ConfigKeys(keys))
            }
        }
        d.deserialize_struct("PhysicsConfig", config_fields(), Keys)
    }
}

/// The fields of `PhysicsConfig` as its derived `Deserialize` names them: it passes them to
/// `deserialize_struct`, where this deserializer notes them and stops.
fn config_fields() -> &'static [&'static str] {
    struct Fields(&'static [&'static str]);
    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("only a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.0 = fields;
            Err(de::Error::custom("fields noted"))
        }
        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let mut fields = Fields(&[]);
    let _ = PhysicsConfig::deserialize(&mut fields);
    fields.0
}
