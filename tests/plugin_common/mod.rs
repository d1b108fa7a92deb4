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
    test_app_with(JpstPlugin::default(), walls)
}

/// [`test_app`] with a plugin configured by the test.
pub fn test_app_with(plugin: JpstPlugin, walls: StaticGrid) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, plugin))
        .insert_resource(Time::<Fixed>::from_duration(STEP))
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
        .insert_resource(NavWorld::new(walls));
    // The first update only starts the clocks.
    app.update();
    app
}

/// Spawns a unit on `from` ordered to `goal`.
pub fn unit(app: &mut App, from: (u32, u32), goal: (u32, u32)) -> Entity {
    let order = MoveOrder {
        goal: Cell::new(goal.0, goal.1),
    };
    app.world_mut()
        .spawn((NavAgent::at(Cell::new(from.0, from.1)), order))
        .id()
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

/// Vertex and swap conflicts between two consecutive snapshots of positions
/// (linear in the number of units, so long soaks can afford it every tick).
pub fn collisions(before: &[(Entity, Cell)], after: &[(Entity, Cell)]) -> usize {
    use std::collections::HashMap;
    let prev: HashMap<Entity, Cell> = before.iter().copied().collect();
    let mut at: HashMap<Cell, Entity> = HashMap::with_capacity(after.len());
    let mut count = 0;
    for (e, c) in after {
        if at.insert(*c, *e).is_some() {
            count += 1;
        }
    }
    for (e, c) in after {
        // Someone who stood on my new cell now stands on my old one.
        if let Some(old) = prev.get(e)
            && old != c
            && let Some(other) = at.get(old)
            && e < other
            && prev.get(other) == Some(c)
        {
            count += 1;
        }
    }
    count
}

/// The unit's state.
pub fn state(app: &App, e: Entity) -> AgentState {
    *app.world().get::<AgentState>(e).expect("unit exists")
}

/// A busy scenario: `units` units on a `size x size` map with wall stubs,
/// re-ordered to random cells all the time, for `ticks` nav ticks, on a task
/// pool of `threads` threads. Returns every unit's cell at every tick, the
/// number of vertex and swap collisions, and the reservation table size
/// (touched cells) after each quarter of the run.
pub fn crowd(
    units: usize,
    size: u32,
    ticks: u32,
    threads: usize,
) -> (Vec<Vec<Cell>>, usize, Vec<usize>) {
    use bevy::app::TaskPoolOptions;
    use bevy::app::TaskPoolPlugin;
    let walls = StaticGrid::from_fn(size, size, |c| c.x % 8 != 4 || c.y.is_multiple_of(6)).unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(threads),
    }))
    .add_plugins((TransformPlugin, JpstPlugin::default()))
    .insert_resource(Time::<Fixed>::from_duration(STEP))
    .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
    .insert_resource(NavWorld::new(walls.clone()));
    app.update();
    let free: Vec<Cell> = (0..size)
        .flat_map(|y| (0..size).map(move |x| Cell::new(x, y)))
        .filter(|c| walls.is_passable(*c))
        .collect();
    let mut seed = 0x5eed_u64;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let step = (free.len() / units).max(1);
    let ids: Vec<Entity> = (0..units)
        .map(|i| {
            let goal = free[next(free.len())];
            app.world_mut()
                .spawn((
                    NavAgent::at(free[(i * step) % free.len()]),
                    MoveOrder { goal },
                ))
                .id()
        })
        .collect();
    let mut trajectory = Vec::new();
    let mut hits = 0;
    let mut sizes = Vec::new();
    let mut before = positions(&mut app);
    for t in 0..ticks {
        // Units that are done get a new order; a few others change their mind.
        for (i, id) in ids.iter().enumerate() {
            let s = state(&app, *id);
            let done = matches!(
                s,
                AgentState::Arrived | AgentState::NoPath | AgentState::Idle
            );
            if done || (t as usize + i).is_multiple_of(97) {
                let goal = free[next(free.len())];
                app.world_mut().entity_mut(*id).insert(MoveOrder { goal });
            }
        }
        tick(&mut app);
        let after = positions(&mut app);
        hits += collisions(&before, &after);
        trajectory.push(after.iter().map(|(_, c)| *c).collect());
        before = after;
        if (t + 1) % (ticks / 4).max(1) == 0 {
            sizes.push(
                app.world()
                    .resource::<NavWorld>()
                    .grid
                    .obstacles()
                    .touched_cells(),
            );
        }
    }
    (trajectory, hits, sizes)
}
