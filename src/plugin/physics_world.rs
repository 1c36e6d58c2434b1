//! The [`PhysicsWorld`] resource: the core [`World`], the entity ↔ body map, and the read-back
//! of contacts in Bevy's frame.

use bevy::prelude::*;

use super::coords::CoordinateMapping;
use crate::physics::{BodyHandle, Input, PhysicsConfig, World};

/// A change the plugin refused (an invalid config, collider, material, velocity, teleport,
/// rotation or bounds, a body with a parent, a removed resource of the plugin) or ignored (a
/// `Transform` scale, a rectangle's rotation).
///
/// The same text is logged with `warn!`; the message lets a UI show it. It names the field
/// and the allowed range. Nothing changed in the simulation, and the refused component was
/// put back to its last valid value (a body refused at spawn waits until its data change).
/// Each write is warned about once; what is ignored, once per entity.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PhysicsWarning {
    /// The entity concerned, if any.
    pub entity: Option<Entity>,
    /// What was refused and why.
    pub message: String,
}

/// Logs a refusal with `warn!` and sends it as a [`PhysicsWarning`], in one call: every
/// refusal is both, with the same text. For the systems' `MessageWriter` and for the `World`
/// of exclusive systems, commands and plugin builds.
pub(crate) trait WarnAndSend {
    /// Logs `message` and sends it as a warning about `entity`.
    fn warn_and_send(&mut self, entity: Option<Entity>, message: String);
}

impl WarnAndSend for MessageWriter<'_, PhysicsWarning> {
    fn warn_and_send(&mut self, entity: Option<Entity>, message: String) {
        warn!("{message}");
        self.write(PhysicsWarning { entity, message });
    }
}

impl WarnAndSend for Messages<PhysicsWarning> {
    fn warn_and_send(&mut self, entity: Option<Entity>, message: String) {
        warn!("{message}");
        self.write(PhysicsWarning { entity, message });
    }
}

impl WarnAndSend for bevy::ecs::world::World {
    fn warn_and_send(&mut self, entity: Option<Entity>, message: String) {
        warn!("{message}");
        self.write_message(PhysicsWarning { entity, message });
    }
}

/// A contact of the last step, in Bevy's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Body A, or `None` for a wall.
    pub a: Option<Entity>,
    /// Body B.
    pub b: Entity,
    /// Contact point, px.
    pub point: Vec2,
    /// Unit normal from A to B (for a wall: out of the wall, into the world).
    pub normal: Vec2,
    /// Depth at detection, px (≥ 0).
    pub depth: f32,
    /// Accumulated normal impulse of the step (≥ 0).
    pub normal_impulse: f32,
    /// Total impulse on B (normal and friction), px·mass/s; A received the opposite.
    pub impulse: Vec2,
}

/// One contact of a given body, seen from that body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyContact {
    /// The other body, or `None` for a wall.
    pub other: Option<Entity>,
    /// Contact point, px.
    pub point: Vec2,
    /// Unit normal pointing from this body towards the other one (or into the wall).
    pub normal: Vec2,
    /// Depth at detection, px (≥ 0).
    pub depth: f32,
    /// Accumulated normal impulse of the step (≥ 0).
    pub normal_impulse: f32,
    /// Total impulse this body received in the step.
    pub impulse: Vec2,
}

/// The simulation: the core [`World`] (in the spec's y-down frame) and which entity owns
/// which body.
///
/// Read contacts with [`contacts`](Self::contacts) and [`contacts_of`](Self::contacts_of);
/// everything they return is in Bevy's frame.
///
/// The entity ↔ body map is two dense tables, one indexed by the entity's index and one by
/// the body handle's index: the sync systems look every body up on every step and frame, and a
/// table read costs a fraction of a hash lookup.
#[derive(Resource)]
pub struct PhysicsWorld {
    world: World,
    mapping: CoordinateMapping,
    /// By entity index: the simulated entity there and its body.
    handles: Vec<Option<(Entity, BodyHandle)>>,
    /// By body handle index: the body there and its entity.
    entities: Vec<Option<(BodyHandle, Entity)>>,
    linked: usize,
    stepped: bool,
    /// Bodies of despawned entities not yet taken out of the core, with their entities (see
    /// [`remove_pending`](Self::remove_pending)).
    pending_removals: Vec<(BodyHandle, Entity)>,
    /// Bodies unlinked since the last step's events were sent, with their entities: the step
    /// that removes a body reports its ended contacts under the stale handle (see
    /// [`take_departed`](Self::take_departed)).
    departed: Vec<(BodyHandle, Entity)>,
    /// The session being recorded or played back, if any (`recording.rs`).
    pub(crate) session: super::recording::Session,
    /// The entities of a world rebuilt in place of a removed one that join it on its first
    /// step at their last physics pose (`simulation::rebuilt_world`, `sync::register_bodies`).
    pub(crate) rejoining: bevy::ecs::entity::EntityHashSet,
    /// Which world this is, among all made in this process: a world put back in the app
    /// after another took its place is told from one coming back from a resource scope by it
    /// (`lifecycle::unlink_on_return`).
    pub(crate) identity: u64,
    /// What every world the app built shares (`simulation::WorldInForce` holds it too):
    /// which of them is in force, and the settings it left the app with.
    pub(crate) in_force: std::sync::Arc<InForce>,
}

/// Shared by every [`PhysicsWorld`] an app builds: the identity of the one in force, and the
/// config and walls (core frame) it had when it last left the app.
///
/// A world whose identity differs is stale, put back after the plugin had built another in
/// its place, however it came back (inserted or assigned). It names no entity once it is
/// seen, and the hooks note what they see for the world in force, as when no world is in
/// the app, until `simulation::rebuild_stale_world` replaces it.
#[derive(Debug)]
pub(crate) struct InForce {
    identity: std::sync::atomic::AtomicU64,
    /// The last valid settings, for a world rebuilt in place of the one in force: it leaves
    /// them ([`PhysicsWorld::leave_settings`]) when it leaves the app, however it goes
    /// (removed, taken by a resource scope, replaced by an insert, or dropped by an
    /// assignment through `ResMut`, which no hook sees).
    settings: std::sync::Mutex<(PhysicsConfig, Vec2, Vec2)>,
}

impl InForce {
    /// The config and the walls (core frame) the world in force last left the app with, or
    /// had when it was built.
    pub(crate) fn settings(&self) -> (PhysicsConfig, Vec2, Vec2) {
        self.settings.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// A world in force dropped by an assignment through `ResMut` (which fires no hook) leaves
/// its settings for the world rebuilt in place of the stale one assigned.
impl Drop for PhysicsWorld {
    fn drop(&mut self) {
        self.leave_settings();
    }
}

/// The identity of the next [`PhysicsWorld`] made.
static NEXT_IDENTITY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl PhysicsWorld {
    pub(crate) fn new(world: World, mapping: CoordinateMapping) -> Self {
        let identity = NEXT_IDENTITY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (min, max) = world.bounds();
        let in_force = InForce {
            identity: std::sync::atomic::AtomicU64::new(identity),
            settings: std::sync::Mutex::new((world.config().clone(), min, max)),
        };
        Self {
            world,
            mapping,
            handles: Vec::new(),
            entities: Vec::new(),
            linked: 0,
            stepped: false,
            pending_removals: Vec::new(),
            departed: Vec::new(),
            session: super::recording::Session::default(),
            rejoining: Default::default(),
            identity,
            in_force: std::sync::Arc::new(in_force),
        }
    }

    /// The core world, in the spec's y-down frame (convert with [`mapping`](Self::mapping)).
    ///
    /// The bodies of entities despawned in this frame are still in it, without an entity,
    /// until the next frame or fixed step starts: then they are removed all at once.
    /// [`SpatialQuery`](super::SpatialQuery) leaves them out already.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The core world, mutable: for what the components do not cover, such as
    /// [`World::grab`], [`World::set_drag_target`] and [`World::release`] (drag and throw).
    ///
    /// Add and remove bodies through entities, not here: a body added here has no entity, so
    /// no component shows it, [`contacts`](Self::contacts) leaves it out and
    /// [`SpatialQuery`](super::SpatialQuery) looks past it (it hides nothing behind it).
    ///
    /// A session recording ([`start_recording`](Self::start_recording)) cannot see what is
    /// done here: while one runs, the first call warns once that its replay may go astray
    /// (the replay's state hashes will tell).
    pub fn world_mut(&mut self) -> &mut World {
        self.session.note_direct_access();
        &mut self.world
    }

    /// Whether this world was put back after the plugin had built another in its place
    /// (see [`in_force`](Self::in_force)): one atomic load.
    #[inline]
    pub(crate) fn is_stale(&self) -> bool {
        self.in_force.identity.load(std::sync::atomic::Ordering::Relaxed) != self.identity
    }

    /// Makes this world the one in force among those sharing `in_force` (the app's): every
    /// other world of the app is stale from now on.
    pub(crate) fn take_over(&mut self, in_force: &std::sync::Arc<InForce>) {
        in_force.identity.store(self.identity, std::sync::atomic::Ordering::Relaxed);
        self.in_force = in_force.clone();
    }

    /// Leaves this world's config and walls as the last valid ones, if it is the world in
    /// force: as it leaves the app (`simulation::remember_settings`, and when it is dropped).
    pub(crate) fn leave_settings(&self) {
        if !self.is_stale() {
            let (min, max) = self.world.bounds();
            let mut settings =
                self.in_force.settings.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *settings = (self.world.config().clone(), min, max);
        }
    }

    /// The core world, mutable, for the plugin's own reads and writes that no recording
    /// needs to see (the step itself, a world replaced by a load).
    pub(crate) fn core_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The conversion between Bevy's frame and the core's.
    pub fn mapping(&self) -> CoordinateMapping {
        self.mapping
    }

    /// The body of `entity`, if it is simulated.
    ///
    /// Inside `World::resource_scope::<PhysicsWorld>` the map is as the scope found it: the
    /// resource is out of the world there, so an entity despawned, disabled, stripped of its
    /// collider or given a parent inside the scope is still named (here and by
    /// [`entity`](Self::entity)) until the scope ends, when it is unlinked.
    #[inline]
    pub fn handle(&self, entity: Entity) -> Option<BodyHandle> {
        match self.handles.get(entity.index_u32() as usize) {
            Some(&Some((linked, handle))) if linked == entity => Some(handle),
            _ => None,
        }
    }

    /// The entity of a body.
    #[inline]
    pub fn entity(&self, handle: BodyHandle) -> Option<Entity> {
        match self.entities.get(handle.index() as usize) {
            Some(&Some((linked, entity))) if linked == handle => Some(entity),
            _ => None,
        }
    }

    /// The number of simulated entities.
    pub fn len(&self) -> usize {
        self.linked
    }

    /// Whether no entity is simulated.
    pub fn is_empty(&self) -> bool {
        self.linked == 0
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.world.step_count()
    }

    /// Whether the last fixed run stepped the world (false while paused).
    pub fn stepped_last_run(&self) -> bool {
        self.stepped
    }

    /// Whether `entity`'s body sleeps (§11).
    pub fn is_sleeping(&self, entity: Entity) -> bool {
        self.handle(entity)
            .and_then(|h| self.world.body(h))
            .is_some_and(crate::physics::Body::is_sleeping)
    }

    /// The contacts of the last step, in Bevy's frame (bodies without an entity are left out).
    pub fn contacts(&self) -> impl Iterator<Item = Contact> + '_ {
        self.world.contacts().filter_map(move |c| {
            let a = match c.a {
                Some(handle) => Some(self.entity(handle)?),
                None => None,
            };
            let impulse = c.impulse();
            Some(Contact {
                a,
                b: self.entity(c.b)?,
                point: self.mapping.position_to_bevy(c.point),
                normal: self.mapping.vector_to_bevy(c.normal),
                depth: c.depth,
                normal_impulse: c.normal_impulse,
                impulse: self.mapping.vector_to_bevy(impulse),
            })
        })
    }

    /// The contacts of `entity` in the last step, each seen from `entity`.
    pub fn contacts_of(&self, entity: Entity) -> Vec<BodyContact> {
        let Some(handle) = self.handle(entity) else { return Vec::new() };
        // Matched on the core's handles first: only this body's contacts are mapped.
        self.world
            .contacts()
            .filter_map(|c| {
                let (other, sign) = if c.b == handle {
                    (c.a, -1.0)
                } else if c.a == Some(handle) {
                    (Some(c.b), 1.0)
                } else {
                    return None;
                };
                let other = match other {
                    Some(other) => Some(self.entity(other)?),
                    None => None,
                };
                Some(BodyContact {
                    other,
                    point: self.mapping.position_to_bevy(c.point),
                    normal: self.mapping.vector_to_bevy(c.normal) * sign,
                    depth: c.depth,
                    normal_impulse: c.normal_impulse,
                    impulse: -self.mapping.vector_to_bevy(c.impulse()) * sign,
                })
            })
            .collect()
    }

    /// Every entity linked to a body.
    pub(crate) fn linked_entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.handles.iter().flatten().map(|&(entity, _)| entity)
    }

    pub(crate) fn set_stepped(&mut self, stepped: bool) {
        self.stepped = stepped;
    }

    pub(crate) fn link(&mut self, entity: Entity, handle: BodyHandle) {
        let index = entity.index_u32() as usize;
        // An entity index is reused only after its entity is gone, and a despawn unlinks it,
        // so an occupied entry at this index belongs to `entity` itself; unless the despawn
        // happened while this resource was out of the world (`World::resource_scope`) and
        // its unlink still waits in `UnlinkLater`: then the old entity's body goes now, or
        // overwriting the entry would leave it in the core with no entity for good.
        if let Some(&Some((stale, _))) = self.handles.get(index)
            && stale != entity
        {
            self.unlink_and_queue(stale);
        }
        let _ = self.unlink(entity);
        if self.handles.len() <= index {
            self.handles.resize(index + 1, None);
        }
        self.handles[index] = Some((entity, handle));
        let id = handle.index() as usize;
        if self.entities.len() <= id {
            self.entities.resize(id + 1, None);
        }
        self.entities[id] = Some((handle, entity));
        self.linked += 1;
    }

    pub(crate) fn unlink(&mut self, entity: Entity) -> Option<BodyHandle> {
        let handle = self.forget(entity)?;
        self.departed.push((handle, entity));
        Some(handle)
    }

    /// Drops the link of `entity` both ways, without noting it as departed.
    fn forget(&mut self, entity: Entity) -> Option<BodyHandle> {
        let handle = self.handle(entity)?;
        self.handles[entity.index_u32() as usize] = None;
        if self.entity(handle) == Some(entity) {
            self.entities[handle.index() as usize] = None;
        }
        self.linked -= 1;
        Some(handle)
    }

    /// The bodies unlinked since the last call, with their entities, so that the events of
    /// the step that removed them can still name the entities.
    pub(crate) fn take_departed(&mut self) -> Vec<(BodyHandle, Entity)> {
        std::mem::take(&mut self.departed)
    }

    /// Unlinks `entity` and queues its body for [`remove_pending`](Self::remove_pending):
    /// the entity is forgotten at once, its body leaves the core with the others despawned
    /// in the same frame.
    ///
    /// It joins the departed (see [`take_departed`](Self::take_departed)) when its body
    /// leaves the core, which is before the next step: one push per despawned entity in
    /// its hook instead of two.
    pub(crate) fn unlink_and_queue(&mut self, entity: Entity) -> bool {
        let Some(handle) = self.forget(entity) else { return false };
        self.pending_removals.push((handle, entity));
        true
    }

    /// The entities unlinked since the last [`remove_pending`](Self::remove_pending): those
    /// that live on must lose their `Sleeping` marker.
    pub(crate) fn pending_entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.pending_removals.iter().map(|&(_, entity)| entity)
    }

    /// Takes the bodies of the entities despawned since the last call out of the core, all
    /// at once: one pass over the bodies wakes their islands and the sleepers near them
    /// (R-SLP-4), however many there are ([`World::remove_bodies`]). Removing them one by one
    /// could cost a pass each.
    pub(crate) fn remove_pending(&mut self) {
        if !self.pending_removals.is_empty() {
            self.departed.extend_from_slice(&self.pending_removals);
            let handles = self.pending_removals.drain(..).map(|(handle, _)| handle).collect();
            let _ = self.apply(Input::RemoveBodies(handles));
        }
    }

    /// Replaces the core world (a loaded scene file's) and forgets every entity: the caller
    /// links the new bodies' entities.
    pub(crate) fn replace_world(&mut self, world: World) {
        self.forget_entities();
        self.world = world;
    }

    /// Lets go, at rest, every body the core holds for a pointer: for a world no pointer holds
    /// a body of any more (a loaded or rebuilt one, a drag state that was removed).
    pub(crate) fn release_held(&mut self) {
        let held: Vec<BodyHandle> =
            self.world.bodies().filter(|(_, b)| b.is_held()).map(|(h, _)| h).collect();
        for body in held {
            let _ = self.apply(Input::Release { body, throw_velocity: Vec2::ZERO });
        }
    }

    /// Removes every body and forgets every entity.
    pub(crate) fn clear(&mut self) {
        self.forget_entities();
        let _ = self.apply(Input::Clear);
    }

    fn forget_entities(&mut self) {
        self.pending_removals.clear();
        self.departed.clear();
        self.handles.clear();
        self.entities.clear();
        self.linked = 0;
    }
}
