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

/// Sets or clears `flag` in `flags`.
pub(super) fn set_flag(flags: &mut u8, flag: u8, on: bool) {
    *flags = if on { *flags | flag } else { *flags & !flag };
}
