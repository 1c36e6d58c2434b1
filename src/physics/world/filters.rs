//! Which contacts count: collision layers (R-GAME-3) and sensors (R-GAME-2).
//!
//! Layers are tested in the broad phase, so a pair they keep apart costs no narrow-phase
//! test, no contact and no island link. The walls ignore layers: every body meets every
//! wall, so that no layer setting can let a body fall out of the world.
//!
//! A sensor's overlaps with bodies are found by the narrow phase like any contact, then set
//! aside: they get no solver entry, so no impulse, no projection, no island and no waking
//! (`World::collide_bodies`); they are reported as [`CollisionEvent`]s. The overlap
//! of two sensors is dropped. A dynamic sensor falls under gravity and still collides with the walls, so it is
//! never lost out of the world, and it never falls asleep, so its overlaps stay current.
//!
//! The world counts the bodies off the default layers and those with contact flags, so that
//! a world that uses neither pays nothing for them: no layer test in the sweep, no flag read
//! per contact, no event bookkeeping.

use super::*;

impl World {
    /// Adds (`sign = 1`) or takes away (`sign = -1`) `body` from the counts of bodies off
    /// the default layers and with contact flags.
    pub(super) fn count_contact_rules(&mut self, body: &Body, sign: isize) {
        if body.layers != CollisionLayers::ALL {
            self.layered_bodies = self.layered_bodies.wrapping_add_signed(sign);
        }
        if body.contact_flags() != 0 {
            self.flagged_bodies = self.flagged_bodies.wrapping_add_signed(sign);
        }
    }

    /// Sets a body's collision layers (R-GAME-3); they take effect in the next step. The
    /// body's island and the sleepers whose boxes touch it are woken: a sleeper may rest on
    /// a support that the new layers take away. Contacts that the new layers forbid end
    /// (with a [`CollisionEvent::Ended`] if they were reported).
    pub fn set_layers(
        &mut self,
        handle: BodyHandle,
        layers: CollisionLayers,
    ) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        self.wake_slot(index);
        self.update_contact_rules(index, |body| {
            body.layers = layers;
            // It may fall through its support now (D8).
            body.rest_time = 0.0;
        });
        self.wake_near(index);
        self.restart_rests_on_slot(index);
        Ok(())
    }

    /// Makes a body a sensor or a solid body again (R-GAME-2); it takes effect in the next
    /// step. Its island and the sleepers whose boxes touch it are woken: what rested on it
    /// falls through a new sensor, and a sensor turned solid must push out what it overlaps.
    pub fn set_sensor(&mut self, handle: BodyHandle, sensor: bool) -> Result<(), PhysicsError> {
        self.edited();
        let index = self.slot_of(handle)?;
        self.wake_slot(index);
        self.update_contact_rules(index, |body| set_flag(&mut body.flags, SENSOR, sensor));
        self.wake_near(index);
        self.restart_rests_on_slot(index);
        Ok(())
    }

    /// Changes the layers or contact flags of the body in slot `index` by `change`, keeping
    /// the counts.
    pub(super) fn update_contact_rules(&mut self, index: usize, change: impl FnOnce(&mut Body)) {
        let Some(mut body) = self.slots[index].body.take() else { return };
        self.count_contact_rules(&body, -1);
        change(&mut body);
        self.count_contact_rules(&body, 1);
        self.slots[index].body = Some(body);
    }
}

/// The [`SENSOR`] bits of two bodies' contact flags, added: 0 when neither is a sensor,
/// `SENSOR` for a sensor's overlap with a solid body, twice that for two sensors. The narrow
/// phase reads it per contact (`collide_bodies`); `makes_contact` too.
#[inline(always)]
pub(super) fn sensor_bits(flags_a: u8, flags_b: u8) -> u8 {
    (flags_a & SENSOR) + (flags_b & SENSOR)
}

/// Whether two bodies that touch make a contact in the step, one that pushes them apart:
/// the broad phase pairs them only if their layers interact (R-GAME-3; its sweep tests the
/// same masks without branches, and is checked against [`CollisionLayers::interacts_with`]),
/// and the narrow phase sets a sensor's overlaps aside (R-GAME-2). The step's other pair
/// rules concern the bodies' motion, not the pair (one must be awake, or a kinematic body
/// moving; two immovable bodies get none), and hold for what D9's settling tests: an awake
/// dynamic body against any neighbour (`overlaps_after_settling`).
pub(super) fn makes_contact(a: &Body, b: &Body) -> bool {
    a.layers.interacts_with(b.layers) && sensor_bits(a.flags, b.flags) == 0
}

/// Sets or clears `flag` in `flags`.
pub(super) fn set_flag(flags: &mut u8, flag: u8, on: bool) {
    *flags = if on { *flags | flag } else { *flags & !flag };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settling's pair rule is the step's (R-GAME-2, R-GAME-3): two overlapping
    /// circles, each solid or a sensor, on layers that interact or not (either way round),
    /// the second dynamic or static, get a contact in a step exactly when
    /// [`makes_contact`] says so.
    #[test]
    fn the_settlings_pair_rule_makes_a_contact_exactly_when_the_step_does_r_game_3() {
        let layers = [
            CollisionLayers::ALL,
            CollisionLayers::NONE,
            CollisionLayers::new(0b01, 0b10),
            CollisionLayers::new(0b10, 0b01),
            CollisionLayers::new(0b01, 0b01),
        ];
        let config = PhysicsConfig { gravity: Vec2::ZERO, ..PhysicsConfig::default() };
        let (mut made, mut cases) = (0, 0);
        for (sensor_a, sensor_b) in [(false, false), (true, false), (false, true), (true, true)] {
            for (layers_a, layers_b) in layers.iter().flat_map(|&a| layers.map(|b| (a, b))) {
                for fixed in [false, true] {
                    let mut world = World::new(Vec2::new(800.0, 600.0), config.clone()).unwrap();
                    let a = BodyDesc::circle(20.0, Vec2::new(400.0, 300.0)).with_layers(layers_a);
                    let b = BodyDesc::circle(20.0, Vec2::new(420.0, 300.0)).with_layers(layers_b);
                    let b = if fixed { b.fixed() } else { b };
                    let a = world.add_body(BodyDesc { sensor: sensor_a, ..a }).unwrap();
                    let b = world.add_body(BodyDesc { sensor: sensor_b, ..b }).unwrap();
                    world.step(config.time_step).unwrap();
                    let contact = world.contacts().any(|c| c.a.is_some());
                    let (a, b) = (world.body(a).unwrap(), world.body(b).unwrap());
                    assert_eq!(contact, makes_contact(a, b), "{a:?} and {b:?}");
                    made += usize::from(contact);
                    cases += 1;
                }
            }
        }
        assert!(0 < made && made < cases, "not vacuous: {made} contacts in {cases} cases");
    }
}
