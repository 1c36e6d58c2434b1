//! A quick reader for the bodies of a scene file as [`SceneFile::to_ron`] writes them: one
//! body to a line, its fields in declaration order, `", "` between them.
//!
//! RON's reader spends about 9 µs on such a line (it tries six spellings of infinity and NaN
//! before each number and allocates a string for it), which made a 10,000-body file take
//! 93 ms to load (issue 18 asks for under 50). This reader takes the lines as written and
//! parses each number with [`f32::from_str`], as RON does, so a value it reads has the bits
//! RON would give it. It accepts only the canonical spelling: a line it does not follow to
//! the end is given to RON alone, and when RON cannot read it either, or the list is not laid
//! out as written, the caller reads the whole file with RON, whose error names the line. So a
//! file edited by hand reads exactly as before, only slower where it differs.
//!
//! [`SceneFile::to_ron`]: crate::physics::SceneFile::to_ron

use glam::Vec2;

use crate::physics::body::{BodyDesc, BodyKind, CollisionLayers, Material, Shape};
use crate::physics::world::{SceneBody, SceneFile};

/// Where the body list starts in a file as written.
const LIST_START: &str = "\n    bodies: [\n";
/// A body's line: its indent, and its end.
const LINE_START: &str = "        (";
const LINE_END: &str = "),";
/// The line that closes the list.
const LIST_END: &str = "    ],";

/// The bodies of `text` and the text with an empty body list in their place, for RON to read
/// the rest; `None` when the list is not laid out as [`SceneFile::to_ron`] writes it, or a
/// line reads neither here nor in RON, or it holds more than [`SceneFile::MAX_BODIES`]
/// bodies (for the caller's full read to refuse). Also `None` when a block comment or a
/// string opens before the list, since the first `bodies: [` may then not be the field.
pub(super) fn split_bodies(text: &str) -> Option<(String, Vec<SceneBody>)> {
    // RON's extensions (`#![enable(…)]`) change how values read; leave such files to RON.
    if text.contains("#![") {
        return None;
    }
    let start = text.find(LIST_START)?;
    // The first match is the field only where nothing before it can open a comment or a
    // string: `/* … */` or `"…"` around a copy of the line would hide it from RON, and this
    // reader would take the copy for the list. Leave such files to RON, which skips them.
    // (A `//` comment ends at its line, and the match begins with a line break.)
    let head = &text[..start];
    if head.contains("/*") || head.contains('"') {
        return None;
    }
    let start = start + LIST_START.len();
    let mut bodies = Vec::new();
    let mut rest = &text[start..];
    loop {
        let (line, after) = rest.split_once('\n')?;
        if line == LIST_END {
            // Keep `,` and what follows; put `[]` where the list was.
            let head = &text[..start - 2];
            let tail = &rest[LIST_END.len() - 1..];
            let mut remainder = String::with_capacity(head.len() + tail.len() + 2);
            remainder.push_str(head);
            remainder.push_str("[]");
            remainder.push_str(tail);
            return Some((remainder, bodies));
        }
        if bodies.len() == SceneFile::MAX_BODIES {
            return None;
        }
        let inner = line.strip_prefix(LINE_START)?.strip_suffix(LINE_END)?;
        let body = match read_body(inner) {
            Some(body) => body,
            // The line in RON's own terms: `(…)` without the comma.
            None => ron::from_str::<SceneBody>(&line[LINE_START.len() - 1..line.len() - 1]).ok()?,
        };
        bodies.push(body);
        rest = after;
    }
}

/// The fields of [`SceneBody`] in the order they are written.
const FIELDS: [&str; 21] = [
    "shape",
    "kind",
    "material",
    "position",
    "velocity",
    "angle",
    "angular_velocity",
    "layers",
    "sensor",
    "collision_events",
    "gravity_scale",
    "force",
    "torque",
    "sleep_island",
    "rest_time",
    "rest_anchor",
    "rest_angle",
    "deep_contact",
    "embedded",
    "settle_failures",
    "drag_target",
];

/// One body from the inside of its line, `shape: …, position: …, …`, or `None` if the line
/// is not in the written form.
fn read_body(inner: &str) -> Option<SceneBody> {
    let mut at = Cursor { rest: inner };
    // Every field but `shape` and `position` takes the default serde gives it when left out,
    // which is that of a new body's description.
    let mut body = SceneBody::new(BodyDesc::new(Shape::Circle { radius: 0.0 }, Vec2::ZERO));
    let mut seen_shape = false;
    let mut seen_position = false;
    // Fields only in written order, so none comes twice.
    let mut next = 0;
    while !at.rest.is_empty() {
        if next > 0 {
            at.eat(", ")?;
        }
        let (name, after) = at.rest.split_once(": ")?;
        at.rest = after;
        let index = next + FIELDS[next..].iter().position(|&field| field == name)?;
        next = index + 1;
        match name {
            "shape" => {
                body.shape = at.shape()?;
                seen_shape = true;
            }
            "kind" => body.kind = at.kind()?,
            "material" => {
                at.eat("(density: ")?;
                let density = at.number()?;
                at.eat(", friction: ")?;
                let friction = at.number()?;
                at.eat(", restitution: ")?;
                let restitution = at.number()?;
                at.eat(")")?;
                body.material = Material { density, friction, restitution };
            }
            "position" => {
                body.position = at.vec2()?;
                seen_position = true;
            }
            "velocity" => body.velocity = at.vec2()?,
            "angle" => body.angle = at.number()?,
            "angular_velocity" => body.angular_velocity = at.number()?,
            "layers" => {
                at.eat("(memberships: ")?;
                let memberships = at.integer()?;
                at.eat(", filters: ")?;
                let filters = at.integer()?;
                at.eat(")")?;
                body.layers = CollisionLayers { memberships, filters };
            }
            "sensor" => body.sensor = at.boolean()?,
            "collision_events" => body.collision_events = at.boolean()?,
            "gravity_scale" => body.gravity_scale = at.number()?,
            "force" => body.force = at.vec2()?,
            "torque" => body.torque = at.number()?,
            "sleep_island" => {
                at.eat("Some(")?;
                body.sleep_island = Some(at.integer()?);
                at.eat(")")?;
            }
            "rest_time" => body.rest_time = at.number()?,
            "rest_anchor" => body.rest_anchor = Some(at.some_vec2()?),
            "rest_angle" => body.rest_angle = at.number()?,
            "deep_contact" => body.deep_contact = at.boolean()?,
            "embedded" => body.embedded = at.boolean()?,
            "settle_failures" => body.settle_failures = u8::try_from(at.integer()?).ok()?,
            "drag_target" => body.drag_target = Some(at.some_vec2()?),
            _ => return None,
        }
    }
    (seen_shape && seen_position).then_some(body)
}

/// What is left of a line to read.
struct Cursor<'a> {
    rest: &'a str,
}

impl Cursor<'_> {
    /// Steps over `text`, which must come next.
    fn eat(&mut self, text: &str) -> Option<()> {
        self.rest = self.rest.strip_prefix(text)?;
        Some(())
    }

    /// A number as RON writes an `f32`: `-?d+(.d+)?(e-?d+)?`, read by [`f32::from_str`].
    fn number(&mut self) -> Option<f32> {
        let bytes = self.rest.as_bytes();
        let mut end = usize::from(bytes.first() == Some(&b'-'));
        let digits =
            |from: usize| from + bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        let whole = digits(end);
        if whole == end {
            return None;
        }
        end = whole;
        if bytes.get(end) == Some(&b'.') {
            let fraction = digits(end + 1);
            if fraction == end + 1 {
                return None;
            }
            end = fraction;
        }
        if bytes.get(end) == Some(&b'e') {
            let sign = end + 1 + usize::from(bytes.get(end + 1) == Some(&b'-'));
            let exponent = digits(sign);
            if exponent == sign {
                return None;
            }
            end = exponent;
        }
        let value = self.rest[..end].parse().ok()?;
        self.rest = &self.rest[end..];
        Some(value)
    }

    /// An unsigned integer that fits a `u32`, `0` or `[1-9]d*`.
    fn integer(&mut self) -> Option<u32> {
        let end = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        if end > 1 && self.rest.starts_with('0') {
            return None;
        }
        let value = self.rest[..end].parse().ok()?;
        self.rest = &self.rest[end..];
        Some(value)
    }

    fn boolean(&mut self) -> Option<bool> {
        if self.eat("true").is_some() { Some(true) } else { self.eat("false").map(|()| false) }
    }

    /// `(x, y)`.
    fn vec2(&mut self) -> Option<Vec2> {
        self.eat("(")?;
        let x = self.number()?;
        self.eat(", ")?;
        let y = self.number()?;
        self.eat(")")?;
        Some(Vec2::new(x, y))
    }

    /// `Some((x, y))`.
    fn some_vec2(&mut self) -> Option<Vec2> {
        self.eat("Some(")?;
        let v = self.vec2()?;
        self.eat(")")?;
        Some(v)
    }

    /// `Circle(radius: r)` or `Rect(half_extents: (hw, hh))`.
    fn shape(&mut self) -> Option<Shape> {
        if self.eat("Circle(radius: ").is_some() {
            let radius = self.number()?;
            self.eat(")")?;
            Some(Shape::Circle { radius })
        } else {
            self.eat("Rect(half_extents: ")?;
            let half_extents = self.vec2()?;
            self.eat(")")?;
            Some(Shape::Rect { half_extents })
        }
    }

    fn kind(&mut self) -> Option<BodyKind> {
        for (name, kind) in [
            ("Dynamic", BodyKind::Dynamic),
            ("Static", BodyKind::Static),
            ("Kinematic", BodyKind::Kinematic),
        ] {
            if self.eat(name).is_some() {
                return Some(kind);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::scene_file::SceneText;

    /// A small deterministic generator (splitmix64).
    struct Bits(u64);

    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        /// Any finite `f32`, of every magnitude and sign, subnormals and −0 included;
        /// now and then a plain value.
        fn float(&mut self) -> f32 {
            match self.below(4) {
                0 => [0.0, -0.0, 1.0, 1e30, -1e-30, f32::MIN_POSITIVE][self.below(6) as usize],
                1 => (self.below(2_000_001) as f32 - 1e6) / 64.0,
                _ => loop {
                    let x = f32::from_bits(self.next() as u32);
                    if x.is_finite() {
                        break x;
                    }
                },
            }
        }
        fn vec2(&mut self) -> Vec2 {
            Vec2::new(self.float(), self.float())
        }
        fn chance(&mut self) -> bool {
            self.below(2) == 0
        }
    }

    /// A body with each field left at its default or set, at random.
    fn any_body(bits: &mut Bits) -> SceneBody {
        let mut body = read_body("shape: Circle(radius: 1), position: (0, 0)").expect("minimal");
        body.shape = if bits.chance() {
            Shape::Circle { radius: bits.float() }
        } else {
            Shape::Rect { half_extents: bits.vec2() }
        };
        body.position = bits.vec2();
        if bits.chance() {
            body.kind =
                [BodyKind::Dynamic, BodyKind::Static, BodyKind::Kinematic][bits.below(3) as usize];
        }
        if bits.chance() {
            body.material = Material {
                density: bits.float(),
                friction: bits.float(),
                restitution: bits.float(),
            };
        }
        let maybe = |bits: &mut Bits, f: &mut dyn FnMut(&mut Bits)| {
            if bits.below(3) == 0 {
                f(bits);
            }
        };
        maybe(bits, &mut |b| body.velocity = b.vec2());
        maybe(bits, &mut |b| body.angle = b.float());
        maybe(bits, &mut |b| body.angular_velocity = b.float());
        maybe(bits, &mut |b| {
            body.layers =
                CollisionLayers { memberships: b.next() as u32, filters: b.below(3) as u32 }
        });
        maybe(bits, &mut |b| body.sensor = b.chance());
        maybe(bits, &mut |b| body.collision_events = b.chance());
        maybe(bits, &mut |b| body.gravity_scale = b.float());
        maybe(bits, &mut |b| body.force = b.vec2());
        maybe(bits, &mut |b| body.torque = b.float());
        maybe(bits, &mut |b| body.sleep_island = Some(b.next() as u32 >> b.below(32)));
        maybe(bits, &mut |b| body.rest_time = b.float());
        maybe(bits, &mut |b| body.rest_anchor = Some(b.vec2()));
        maybe(bits, &mut |b| body.rest_angle = b.float());
        maybe(bits, &mut |b| body.deep_contact = b.chance());
        maybe(bits, &mut |b| body.embedded = b.chance());
        maybe(bits, &mut |b| body.settle_failures = b.below(4) as u8);
        maybe(bits, &mut |b| body.drag_target = Some(b.vec2()));
        body
    }

    fn scene(bodies: Vec<SceneBody>) -> SceneFile {
        let config = crate::physics::PhysicsConfig::default();
        let world = crate::physics::World::new(Vec2::new(800.0, 600.0), config).expect("a world");
        let mut scene = SceneFile::capture(&world);
        scene.bodies = bodies;
        scene
    }

    /// The bodies as RON alone reads the file, each as its `Debug` text, which tells every
    /// float's bits apart (−0 from 0 too).
    fn by_ron(text: &str) -> Vec<String> {
        let parsed = ron::from_str::<SceneText>(text).expect("RON reads the file");
        parsed.bodies.iter().map(|b| format!("{b:?}")).collect()
    }

    fn debug(bodies: &[SceneBody]) -> Vec<String> {
        bodies.iter().map(|b| format!("{b:?}")).collect()
    }

    #[test]
    fn every_written_body_line_reads_here_to_the_same_bits_as_in_ron_r_scn_1() {
        let mut bits = Bits(18);
        let bodies: Vec<SceneBody> = (0..3_000).map(|_| any_body(&mut bits)).collect();
        let text = scene(bodies.clone()).to_ron();
        // Every line is read here, none handed to RON.
        let start = text.find(LIST_START).expect("a list") + LIST_START.len();
        let lines: Vec<&str> = text[start..].lines().take(bodies.len()).collect();
        for line in &lines {
            let inner = line.strip_prefix(LINE_START).and_then(|l| l.strip_suffix(LINE_END));
            assert!(inner.and_then(read_body).is_some(), "not read here: {line}");
        }
        let (_, read) = split_bodies(&text).expect("the list as written");
        assert_eq!(debug(&read), by_ron(&text));
        assert_eq!(debug(&read), debug(&bodies));
    }

    #[test]
    fn a_list_edited_by_hand_reads_as_ron_reads_it_r_scn_1() {
        let mut bits = Bits(7);
        let bodies: Vec<SceneBody> = (0..6).map(|_| any_body(&mut bits)).collect();
        let text = scene(bodies).to_ron();
        let edits = [
            // Fields in another order, spaces of their own, a comment: RON reads the line.
            (
                "        (shape: Circle(radius: 5.0), position: (10.0, 20.0)),\n",
                "        (position: (10.0,20.0),  shape: Circle(radius: 5.0) /* moved */ ),\n",
            ),
            // A body over two lines and a comment line: RON reads the whole file.
            (
                "        (shape: Circle(radius: 6.0), position: (30.0, 20.0)),\n",
                "        // a note\n        (shape: Circle(radius: 6.0),\n position: (30.0, 20.0)),\n",
            ),
        ];
        for (written, edited) in edits {
            let with = text.replacen(LIST_START, &format!("{LIST_START}{written}"), 1);
            let (_, read) = split_bodies(&with).expect("the list as written");
            assert_eq!(debug(&read), by_ron(&with));
            let changed = with.replacen(written, edited, 1);
            let expected = by_ron(&changed);
            let loaded = SceneFile::from_ron(&changed).expect("the edited file reads");
            assert_eq!(debug(&loaded.bodies), expected, "{edited}");
        }
        // A broken line: the error RON gives for the whole file, with its line number.
        let broken = text.replacen(LIST_START, &format!("{LIST_START}        (shape: 5),\n"), 1);
        assert!(split_bodies(&broken).is_none());
        let line = broken[..broken.find("(shape: 5)").expect("inserted")].lines().count();
        let error = SceneFile::from_ron(&broken).expect_err("refused").to_string();
        assert!(error.contains(&format!("line {line},")), "{error}");
    }
}
