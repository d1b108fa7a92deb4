//! Counting collisions between units from where they actually stand, tick
//! by tick: the examples' independent check of the plugin's promise.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_jpst::grid::Cell;
use bevy_jpst::plugin::{JpstSystems, NavAgent};

/// Vertex conflicts (two units on one cell) and swap conflicts (two units
/// trading cells in one tick) seen so far.
#[derive(Resource, Default)]
pub struct Collisions {
    /// Conflicts counted since the app started.
    pub total: usize,
    last: HashMap<Entity, Cell>,
}

/// Counts conflicts after every nav tick.
pub struct CollisionCountPlugin;

impl Plugin for CollisionCountPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Collisions>()
            .add_systems(FixedUpdate, count_collisions.after(JpstSystems::Drive));
    }
}

fn count_collisions(mut collisions: ResMut<Collisions>, units: Query<(Entity, &NavAgent)>) {
    let now: HashMap<Entity, Cell> = units.iter().map(|(e, a)| (e, a.cell)).collect();
    let mut at: HashMap<Cell, Entity> = HashMap::with_capacity(now.len());
    let mut hits = 0;
    for (e, c) in &now {
        if at.insert(*c, *e).is_some() {
            hits += 1;
        }
    }
    for (e, c) in &now {
        let Some(prev) = collisions.last.get(e) else {
            continue;
        };
        if prev == c {
            continue;
        }
        // Someone who stood on my new cell now stands on my old one.
        if let Some(other) = at.get(prev)
            && e < other
            && collisions.last.get(other) == Some(c)
        {
            hits += 1;
        }
    }
    collisions.total += hits;
    collisions.last = now;
}
