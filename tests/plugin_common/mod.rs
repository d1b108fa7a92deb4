//! Shared helpers for the ECS integration tests: a headless app with the
//! plugin and manual fixed-step time, and collision bookkeeping.
#![allow(dead_code)]

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_jpst::grid::{Cell, StaticGrid};
use bevy_jpst::plugin::*;

/// One nav tick per `App::update`.
pub const STEP: Duration = Duration::from_millis(20);

/// `MinimalPlugins + TransformPlugin + JpstPlugin` on `walls`, with time
/// advancing by exactly one fixed step per update.
pub fn test_app(walls: StaticGrid) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, JpstPlugin::default()))
        .insert_resource(Time::<Fixed>::from_duration(STEP))
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
        .insert_resource(NavWorld::new(walls));
    // The first update only starts the clocks.
    app.update();
    app
}

/// Runs updates until the nav clock has advanced by one tick.
pub fn tick(app: &mut App) {
    let before = nav_tick(app);
    for _ in 0..10 {
        app.update();
        if nav_tick(app) > before {
            return;
        }
    }
    panic!("the nav clock did not advance");
}

/// The current nav tick.
pub fn nav_tick(app: &App) -> u32 {
    app.world().resource::<NavWorld>().tick
}

/// Every unit's cell, by entity.
pub fn positions(app: &mut App) -> Vec<(Entity, Cell)> {
    let mut q = app.world_mut().query::<(Entity, &NavAgent)>();
    let mut v: Vec<(Entity, Cell)> = q.iter(app.world()).map(|(e, a)| (e, a.cell)).collect();
    v.sort();
    v
}

/// Vertex and swap conflicts between two consecutive snapshots of positions.
pub fn collisions(before: &[(Entity, Cell)], after: &[(Entity, Cell)]) -> usize {
    let mut count = 0;
    let mut seen = std::collections::HashMap::new();
    for (e, c) in after {
        if let Some(other) = seen.insert(*c, *e) {
            let _ = other;
            count += 1;
        }
    }
    let prev: std::collections::HashMap<Entity, Cell> = before.iter().copied().collect();
    let now: std::collections::HashMap<Entity, Cell> = after.iter().copied().collect();
    for (a, a_now) in &now {
        for (b, b_now) in &now {
            if a < b
                && let (Some(a_prev), Some(b_prev)) = (prev.get(a), prev.get(b))
                && a_prev != a_now
                && a_prev == b_now
                && b_prev == a_now
            {
                count += 1;
            }
        }
    }
    count
}

/// The unit's state.
pub fn state(app: &App, e: Entity) -> AgentState {
    *app.world().get::<AgentState>(e).expect("unit exists")
}
