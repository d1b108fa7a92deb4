//! The plugin under abuse: tilemaps resized or despawned while plans are in
//! flight, units despawned the tick they are ordered, thousands of orders in
//! one tick, one goal for many units, goals in walls.

mod plugin_common;

use bevy::prelude::*;
use bevy_jpst::grid::{Cell, StaticGrid};
use bevy_jpst::plugin::*;
use bevy_jpst::search::PlanError;
use plugin_common::*;

/// Ticks `n` times, asserting no two units ever share a cell or swap.
fn run_checked(app: &mut App, n: u32) {
    let mut before = positions(app);
    for _ in 0..n {
        tick(app);
        let after = positions(app);
        assert_eq!(collisions(&before, &after), 0, "tick {}", nav_tick(app));
        before = after;
    }
}

#[derive(Resource, Default)]
struct Failed(Vec<(Entity, PlanError)>);

fn record_failures(mut failed: MessageReader<PathFailed>, mut out: ResMut<Failed>) {
    out.0
        .extend(failed.read().map(|f| (f.entity, f.reason.clone())));
}

fn with_failures(app: &mut App) {
    app.init_resource::<Failed>()
        .add_systems(FixedUpdate, record_failures.after(JpstSystems::Drive));
}

#[test]
fn a_unit_despawned_in_the_tick_it_is_ordered_leaves_nothing_behind() {
    let mut app = test_app(StaticGrid::open(8, 8).unwrap());
    let stays = unit(&mut app, (0, 0), (7, 7));
    let gone = unit(&mut app, (7, 0), (0, 7));
    app.world_mut().despawn(gone);
    run_checked(&mut app, 3);
    // Ordered, then despawned in the same tick, after it was spawned.
    let late = unit(&mut app, (3, 3), (0, 0));
    tick(&mut app);
    app.world_mut().entity_mut(late).insert(MoveOrder {
        goal: Cell::new(5, 5),
    });
    app.world_mut().despawn(late);
    run_checked(&mut app, 20);
    assert_eq!(state(&app, stays), AgentState::Arrived);
    assert_eq!(app.world().resource::<NavStats>().reservations, 1);
    // Nothing of the despawned units is left in the grid.
    let grid = &app.world().resource::<NavWorld>().grid;
    let now = nav_tick(&app);
    for c in [(7, 0), (0, 7), (3, 3), (5, 5), (0, 0)] {
        assert!(grid.is_free(Cell::new(c.0, c.1), now + 1), "{c:?}");
    }
}

#[test]
fn thousands_of_orders_in_one_tick_respect_the_budget_and_drain() {
    let mut app = test_app(StaticGrid::open(64, 64).unwrap());
    let units: Vec<Entity> = (0..2000u32)
        .map(|i| unit(&mut app, (i % 64, i / 64), (63 - i % 64, 63 - i / 64)))
        .collect();
    let budget = NavSettings::default().budget_per_tick as u64;
    let mut planned_before = 0;
    let mut drained_at = None;
    let mut before = positions(&mut app);
    for t in 0..300 {
        tick(&mut app);
        let stats = app.world().resource::<NavStats>();
        let planned = stats.plans + stats.failures;
        assert!(planned - planned_before <= budget, "tick {t}: over budget");
        planned_before = planned;
        if stats.queue_length == 0 && drained_at.is_none() {
            drained_at = Some(t);
        }
        let after = positions(&mut app);
        assert_eq!(collisions(&before, &after), 0);
        before = after;
    }
    let drained = drained_at.expect("the queue drains");
    assert!(drained >= 2000 / budget as u32 - 1, "drained at {drained}");
    let settled = units
        .iter()
        .filter(|u| matches!(state(&app, **u), AgentState::Arrived | AgentState::NoPath))
        .count();
    assert!(settled > 1900, "{settled} units settled");
}

/// With an expansion limit of 1 per batch, every batch plans exactly one
/// unit; the others are deferred and go first next time, so units are
/// planned in the order they were queued and all of them get their plan.
#[test]
fn an_expansion_limit_defers_the_rest_of_a_batch_and_the_queue_drains_in_order() {
    let plugin = JpstPlugin::default().with_expansions_per_batch(Some(1));
    let mut app = test_app_with(plugin, StaticGrid::open(32, 8).unwrap());
    let units: Vec<Entity> = (0..10u32)
        .map(|i| unit(&mut app, (i, 0), (31 - i, 7)))
        .collect();
    let mut planned_at = Vec::new();
    let mut before = positions(&mut app);
    for _ in 0..120 {
        tick(&mut app);
        let stats = app.world().resource::<NavStats>();
        planned_at.push(stats.plans);
        let after = positions(&mut app);
        assert_eq!(collisions(&before, &after), 0);
        before = after;
    }
    // One plan per tick while the queue lasts.
    assert!(
        planned_at.windows(2).all(|w| w[1] - w[0] <= 1),
        "{planned_at:?}"
    );
    assert_eq!(*planned_at.last().unwrap(), 10);
    // All queued in the same tick: planned in entity order.
    let mut in_order = units.clone();
    in_order.sort();
    let starts: Vec<u32> = in_order
        .iter()
        .map(|u| app.world().get::<TemporalPath>(*u).unwrap().start_tick)
        .collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    assert!(units.iter().all(|u| state(&app, *u) == AgentState::Arrived));
}

#[test]
fn one_goal_for_many_units_gives_it_to_one_and_no_path_to_the_rest() {
    let mut app = test_app(StaticGrid::open(12, 12).unwrap());
    with_failures(&mut app);
    let units: Vec<Entity> = (0..12).map(|i| unit(&mut app, (i, 0), (6, 9))).collect();
    run_checked(&mut app, 40);
    let arrived: Vec<Entity> = units
        .iter()
        .copied()
        .filter(|u| state(&app, *u) == AgentState::Arrived)
        .collect();
    assert_eq!(arrived.len(), 1);
    for u in &units {
        if *u != arrived[0] {
            assert_eq!(state(&app, *u), AgentState::NoPath);
        }
    }
    let failed = &app.world().resource::<Failed>().0;
    assert!(failed.iter().all(|(_, r)| *r == PlanError::Unreachable));
}

#[test]
fn a_unit_ordered_into_a_wall_reports_no_path_and_stays_put() {
    let walls = StaticGrid::from_fn(6, 6, |c| c != Cell::new(4, 4)).unwrap();
    let mut app = test_app(walls);
    with_failures(&mut app);
    let u = unit(&mut app, (0, 0), (4, 4));
    let off = unit(&mut app, (1, 0), (40, 4));
    run_checked(&mut app, 60);
    assert_eq!(state(&app, u), AgentState::NoPath);
    assert_eq!(state(&app, off), AgentState::NoPath);
    assert_eq!(
        app.world().get::<NavAgent>(u).unwrap().cell,
        Cell::new(0, 0)
    );
    let failed = &app.world().resource::<Failed>().0;
    assert_eq!(
        failed.iter().filter(|(e, _)| *e == u).count(),
        1,
        "walled off: no retry storm"
    );
    assert!(failed.contains(&(off, PlanError::OutOfBounds(Cell::new(40, 4)))));
}

#[cfg(feature = "tilemap")]
mod tilemap {
    use super::*;
    use bevy_ecs_tilemap::prelude::*;
    use bevy_jpst::grid::MapLimits;

    fn map(app: &mut App, w: u32, h: u32) -> Entity {
        app.world_mut()
            .spawn((
                NavTilemap,
                TilemapSize { x: w, y: h },
                TilemapGridSize { x: 16.0, y: 16.0 },
                Transform::default(),
            ))
            .id()
    }

    #[test]
    fn resizing_the_tilemap_while_plans_are_in_flight_keeps_clock_walls_and_units() {
        let mut app = test_app(StaticGrid::open(1, 1).unwrap());
        let tilemap = map(&mut app, 10, 6);
        app.world_mut()
            .spawn((TilePos { x: 5, y: 2 }, TilemapId(tilemap), NavBlocker));
        tick(&mut app);
        let a = unit(&mut app, (0, 2), (9, 2));
        let b = unit(&mut app, (9, 0), (0, 0));
        tick(&mut app);
        let clock = nav_tick(&app);
        // Grow the map while the batch with both orders is in flight.
        app.world_mut()
            .entity_mut(tilemap)
            .insert(TilemapSize { x: 14, y: 8 });
        run_checked(&mut app, 30);
        let world = app.world().resource::<NavWorld>();
        assert_eq!((world.grid.width(), world.grid.height()), (14, 8));
        assert!(world.tick >= clock + 30, "the clock kept running");
        assert!(
            !world.grid.walls().is_passable(Cell::new(5, 2)),
            "wall kept"
        );
        assert_eq!(state(&app, a), AgentState::Arrived);
        assert_eq!(state(&app, b), AgentState::Arrived);
        // Units hold their cells in the new grid.
        let now = nav_tick(&app);
        let grid = &app.world().resource::<NavWorld>().grid;
        assert!(!grid.is_free(Cell::new(9, 2), now + 5));
        // Shrink it under a unit, order it, then despawn the map: no panic.
        app.world_mut().entity_mut(a).insert(MoveOrder {
            goal: Cell::new(3, 3),
        });
        app.world_mut()
            .entity_mut(tilemap)
            .insert(TilemapSize { x: 6, y: 6 });
        run_checked(&mut app, 10);
        app.world_mut().despawn(tilemap);
        run_checked(&mut app, 10);
        assert_eq!(
            app.world().get::<NavAgent>(a).unwrap().cell,
            Cell::new(9, 2)
        );
        assert_eq!(state(&app, a), AgentState::NoPath, "off the map now");
    }

    #[test]
    fn a_tilemap_over_the_map_limits_is_refused_and_the_old_grid_stays() {
        let mut app = test_app(StaticGrid::open(1, 1).unwrap());
        app.world_mut().resource_mut::<NavSettings>().map_limits = MapLimits::new(12, 12, 100);
        let tilemap = map(&mut app, 10, 6);
        tick(&mut app);
        let a = unit(&mut app, (0, 2), (9, 2));
        tick(&mut app);
        // 12 x 9 is within both sides but over 100 cells.
        app.world_mut()
            .entity_mut(tilemap)
            .insert(TilemapSize { x: 12, y: 9 });
        run_checked(&mut app, 20);
        let world = app.world().resource::<NavWorld>();
        assert_eq!((world.grid.width(), world.grid.height()), (10, 6));
        assert_eq!(state(&app, a), AgentState::Arrived);
    }
}
