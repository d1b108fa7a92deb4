//! ECS integration tests of the plugin on a headless app.

mod plugin_common;

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy_jpst::grid::{Cell, ObstacleEnd, StaticGrid};
use bevy_jpst::plugin::*;
use plugin_common::*;

fn open(w: u32, h: u32) -> StaticGrid {
    StaticGrid::open(w, h).unwrap()
}

fn grid(rows: &[&str]) -> StaticGrid {
    let h = rows.len() as u32;
    StaticGrid::from_fn(rows[0].len() as u32, h, |c| {
        rows[c.y as usize].as_bytes()[c.x as usize] == b'.'
    })
    .unwrap()
}

fn run_until(app: &mut App, ticks: u32, mut done: impl FnMut(&mut App) -> bool) -> usize {
    let mut hits = 0;
    let mut before = positions(app);
    for _ in 0..ticks {
        tick(app);
        let after = positions(app);
        hits += collisions(&before, &after);
        before = after;
        if done(app) {
            break;
        }
    }
    hits
}

#[test]
fn a_unit_arrives_in_exactly_the_optimal_number_of_ticks() {
    let mut app = test_app(open(12, 8));
    let unit = unit(&mut app, (0, 0), (7, 3));
    let ordered_at = nav_tick(&app);
    run_until(&mut app, 40, |app| state(app, unit) == AgentState::Arrived);
    assert_eq!(state(&app, unit), AgentState::Arrived);
    let path = app.world().get::<TemporalPath>(unit).unwrap().clone();
    // Latency 1: the plan starts one tick after the order, then 10 moves.
    assert_eq!(path.start_tick, ordered_at + 1);
    assert_eq!(path.cells.len(), 11);
    assert_eq!(nav_tick(&app), path.arrival_tick());
    assert_eq!(
        app.world().get::<NavAgent>(unit).unwrap().cell,
        Cell::new(7, 3)
    );
}

#[test]
fn two_units_cross_in_a_corridor_without_touching() {
    // A one-wide corridor with a pocket at each end; each unit heads for the
    // pocket at the far end, so whoever is planned first, the other waits.
    let walls = grid(&["@@@@@@@@@@", "..........", "@.@@@@@@.@"]);
    let mut app = test_app(walls);
    let a = unit(&mut app, (0, 1), (8, 2));
    let b = unit(&mut app, (9, 1), (1, 2));
    let hits = run_until(&mut app, 60, |app| {
        state(app, a) == AgentState::Arrived && state(app, b) == AgentState::Arrived
    });
    assert_eq!(hits, 0);
    assert_eq!(state(&app, a), AgentState::Arrived);
    assert_eq!(state(&app, b), AgentState::Arrived);
}

#[test]
fn a_door_closing_on_a_committed_path_triggers_a_replan() {
    let mut app = test_app(open(12, 5));
    let unit = unit(&mut app, (0, 2), (11, 2));
    tick(&mut app);
    tick(&mut app);
    let first = app.world().get::<TemporalPath>(unit).unwrap().clone();
    assert!(first.cells.contains(&Cell::new(8, 2)));
    // Close a door on the straight line for a while.
    let now = nav_tick(&app);
    app.world_mut().spawn(ScheduledBlock {
        cell: Cell::new(8, 2),
        from: now,
        to: Some(now + 30),
    });
    let mut stood_in_door = false;
    run_until(&mut app, 60, |app| {
        let t = nav_tick(app);
        let cell = app.world().get::<NavAgent>(unit).unwrap().cell;
        stood_in_door |= cell == Cell::new(8, 2) && t >= now && t < now + 30;
        state(app, unit) == AgentState::Arrived
    });
    assert!(!stood_in_door);
    let second = app.world().get::<TemporalPath>(unit).unwrap().clone();
    assert_ne!(first, second, "the unit was replanned");
    assert_eq!(state(&app, unit), AgentState::Arrived);
}

#[test]
fn a_unit_waits_for_a_hazard_to_pass() {
    // A corridor crossed by a hazard moving down column 5.
    let walls = grid(&["@@@@@.@@@@", "..........", "@@@@@.@@@@"]);
    let mut app = test_app(walls);
    let hazard: Vec<Cell> = vec![
        Cell::new(5, 0),
        Cell::new(5, 1),
        Cell::new(5, 1),
        Cell::new(5, 1),
        Cell::new(5, 1),
        Cell::new(5, 1),
        Cell::new(5, 2),
    ];
    app.world_mut().spawn(MovingHazard {
        t0: 2,
        cells: hazard.clone(),
        end: bevy_jpst::grid::ObstacleEnd::Vanish,
    });
    tick(&mut app);
    let unit = unit(&mut app, (0, 1), (9, 1));
    let mut hit = false;
    run_until(&mut app, 60, |app| {
        let t = nav_tick(app);
        let cell = app.world().get::<NavAgent>(unit).unwrap().cell;
        if t >= 2 && ((t - 2) as usize) < hazard.len() && hazard[(t - 2) as usize] == cell {
            hit = true;
        }
        state(app, unit) == AgentState::Arrived
    });
    assert!(!hit, "the unit stood on the hazard");
    assert_eq!(state(&app, unit), AgentState::Arrived);
    let path = app.world().get::<TemporalPath>(unit).unwrap();
    assert!(path.cells.len() > 10, "it had to wait: {path:?}");
}

#[test]
fn despawning_a_unit_while_it_plans_is_clean() {
    let mut app = test_app(open(10, 10));
    let unit = unit(&mut app, (1, 1), (8, 8));
    tick(&mut app); // dispatched
    app.world_mut().despawn(unit);
    for _ in 0..5 {
        tick(&mut app);
    }
    let world = app.world().resource::<NavWorld>();
    let t = world.tick;
    assert!(world.grid.is_free(Cell::new(1, 1), t + 1));
    assert!(world.grid.is_free(Cell::new(8, 8), t + 100));
}

#[test]
fn a_unit_reordered_while_planning_follows_only_its_latest_order() {
    let mut app = test_app(open(10, 10));
    let unit = unit(&mut app, (1, 1), (8, 8));
    tick(&mut app);
    app.world_mut().entity_mut(unit).insert(MoveOrder {
        goal: Cell::new(1, 8),
    });
    run_until(&mut app, 40, |app| state(app, unit) == AgentState::Arrived);
    assert_eq!(
        app.world().get::<NavAgent>(unit).unwrap().cell,
        Cell::new(1, 8)
    );
}

#[test]
fn an_unreachable_goal_reports_no_path() {
    let walls = grid(&[".....@...", ".....@...", ".....@..."]);
    let mut app = test_app(walls);
    let unit = unit(&mut app, (0, 0), (8, 2));
    app.init_resource::<Failures>()
        .add_systems(FixedUpdate, count_failures.after(JpstSystems::Drive));
    for _ in 0..4 {
        tick(&mut app);
    }
    assert_eq!(state(&app, unit), AgentState::NoPath);
    assert_eq!(app.world().resource::<Failures>().0, 1);
    // Opening the wall lets it retry and arrive.
    app.world_mut()
        .resource_mut::<NavWorld>()
        .grid
        .walls_mut()
        .set_passable(Cell::new(5, 1), true)
        .unwrap();
    run_until(&mut app, 80, |app| state(app, unit) == AgentState::Arrived);
    assert_eq!(state(&app, unit), AgentState::Arrived);
}

#[test]
fn a_goal_held_by_a_unit_is_retried_after_it_leaves() {
    let mut app = test_app(open(6, 3));
    let parked = app.world_mut().spawn(NavAgent::at(Cell::new(4, 0))).id();
    let unit = unit(&mut app, (0, 0), (4, 0));
    for _ in 0..4 {
        tick(&mut app);
    }
    assert_eq!(state(&app, unit), AgentState::NoPath, "its goal is held");
    app.world_mut().entity_mut(parked).insert(MoveOrder {
        goal: Cell::new(4, 2),
    });
    // No wall changes: the back-off alone brings it back.
    run_until(&mut app, 120, |app| state(app, unit) == AgentState::Arrived);
    assert_eq!(state(&app, unit), AgentState::Arrived);
    assert_eq!(state(&app, parked), AgentState::Arrived);
}

#[derive(Resource, Default)]
struct Failures(usize);

fn count_failures(mut failed: MessageReader<PathFailed>, mut count: ResMut<Failures>) {
    count.0 += failed.read().count();
}

#[test]
fn blockers_update_the_grid() {
    let mut app = test_app(open(6, 6));
    let wall = app
        .world_mut()
        .spawn((NavBlocker, GridPos(Cell::new(3, 3))))
        .id();
    tick(&mut app);
    assert!(
        !app.world()
            .resource::<NavWorld>()
            .grid
            .walls()
            .is_passable(Cell::new(3, 3))
    );
    app.world_mut()
        .entity_mut(wall)
        .insert(GridPos(Cell::new(4, 4)));
    tick(&mut app);
    let walls = app.world().resource::<NavWorld>().grid.walls().clone();
    assert!(walls.is_passable(Cell::new(3, 3)));
    assert!(!walls.is_passable(Cell::new(4, 4)));
    app.world_mut().despawn(wall);
    tick(&mut app);
    assert!(
        app.world()
            .resource::<NavWorld>()
            .grid
            .walls()
            .is_passable(Cell::new(4, 4))
    );
}

#[cfg(feature = "tilemap")]
#[test]
fn tilemap_tiles_update_the_grid() {
    use bevy_ecs_tilemap::prelude::*;
    let mut app = test_app(open(1, 1));
    let map = app
        .world_mut()
        .spawn((
            NavTilemap,
            TilemapSize { x: 8, y: 5 },
            TilemapGridSize { x: 16.0, y: 16.0 },
            Transform::default(),
        ))
        .id();
    let tile = app
        .world_mut()
        .spawn((TilePos { x: 2, y: 3 }, TilemapId(map), NavBlocker))
        .id();
    tick(&mut app);
    tick(&mut app);
    {
        let world = app.world().resource::<NavWorld>();
        assert_eq!((world.grid.width(), world.grid.height()), (8, 5));
        assert!(!world.grid.walls().is_passable(Cell::new(2, 3)));
        let layout = app.world().resource::<NavLayout>();
        assert_eq!(layout.cell_size, Vec2::new(16.0, 16.0));
        assert_eq!(
            layout.world_to_cell(layout.cell_to_world(Cell::new(5, 4))),
            Some(Cell::new(5, 4))
        );
    }
    app.world_mut().entity_mut(tile).remove::<NavBlocker>();
    tick(&mut app);
    assert!(
        app.world()
            .resource::<NavWorld>()
            .grid
            .walls()
            .is_passable(Cell::new(2, 3))
    );
}

#[test]
fn a_crowd_never_collides() {
    let (_, hits, _) = crowd(40, 32, 300, 2);
    assert_eq!(hits, 0);
}

#[test]
fn the_nav_schedule_has_no_ambiguities() {
    let mut app = test_app(open(4, 4));
    app.edit_schedule(FixedUpdate, |s| {
        s.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    app.edit_schedule(Update, |s| {
        s.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    tick(&mut app);
}

#[test]
fn a_new_wall_replans_exactly_the_units_whose_path_it_cuts() {
    let mut app = test_app(open(16, 6));
    let a = unit(&mut app, (0, 1), (15, 1));
    let b = unit(&mut app, (0, 4), (15, 4));
    tick(&mut app);
    tick(&mut app);
    let path_a = app.world().get::<TemporalPath>(a).unwrap().clone();
    let path_b = app.world().get::<TemporalPath>(b).unwrap().clone();
    assert!(path_a.cells.contains(&Cell::new(10, 1)));
    app.world_mut()
        .spawn((NavBlocker, GridPos(Cell::new(10, 1))));
    let mut crossed_wall = false;
    run_until(&mut app, 40, |app| {
        crossed_wall |= app.world().get::<NavAgent>(a).unwrap().cell == Cell::new(10, 1);
        state(app, a) == AgentState::Arrived && state(app, b) == AgentState::Arrived
    });
    assert!(!crossed_wall);
    assert_ne!(
        app.world().get::<TemporalPath>(a).unwrap(),
        &path_a,
        "a was replanned"
    );
    assert_eq!(
        app.world().get::<TemporalPath>(b).unwrap(),
        &path_b,
        "b was left alone"
    );
    assert_eq!(state(&app, a), AgentState::Arrived);
}

#[test]
fn a_unit_stopped_by_a_wall_resumes_its_old_path_when_the_wall_goes_first() {
    let mut app = test_app(open(12, 1));
    // Slow planning, so the wall is gone long before a new plan could land.
    app.world_mut().resource_mut::<NavSettings>().latency_ticks = 8;
    app.init_resource::<Failures>()
        .add_systems(Update, count_failures);
    let unit = unit(&mut app, (0, 0), (11, 0));
    let cell = |app: &App| app.world().get::<NavAgent>(unit).unwrap().cell;
    run_until(&mut app, 30, |app| cell(app) == Cell::new(2, 0));
    let wall = app
        .world_mut()
        .spawn((NavBlocker, GridPos(Cell::new(5, 0))))
        .id();
    run_until(&mut app, 10, |app| state(app, unit) != AgentState::Moving);
    assert_eq!(cell(&app), Cell::new(4, 0), "stopped in front of the wall");
    tick(&mut app);
    app.world_mut().despawn(wall);
    let removed_at = nav_tick(&app);
    run_until(&mut app, 40, |app| state(app, unit) == AgentState::Arrived);
    assert_eq!(state(&app, unit), AgentState::Arrived);
    assert_eq!(cell(&app), Cell::new(11, 0));
    let path = app.world().get::<TemporalPath>(unit).unwrap();
    assert_eq!(
        path.cells.first(),
        Some(&Cell::new(4, 0)),
        "the old path, resumed"
    );
    assert_eq!(path.arrival_tick(), nav_tick(&app));
    // Going on at once, not when a new plan lands (8 ticks or more later).
    assert!(path.start_tick <= removed_at + 1, "{path:?} {removed_at}");
    // The replan asked for while the wall stood (it would have failed: the
    // corridor was cut) was dropped.
    for _ in 0..12 {
        tick(&mut app);
    }
    assert_eq!(app.world().resource::<Failures>().0, 0);
    assert_eq!(state(&app, unit), AgentState::Arrived);
}

#[test]
fn units_behind_one_stopped_by_a_new_wall_stop_too() {
    // Right behind, the follower would step into the leader's cell the tick
    // it stops; two behind, one tick later, before a new plan can land.
    for gap in [1, 2] {
        let mut app = test_app(open(12, 1));
        let leader = unit(&mut app, (2, 0), (11, 0));
        let follower = unit(&mut app, (2 - gap, 0), (10, 0));
        let cell = |app: &App, e: Entity| app.world().get::<NavAgent>(e).unwrap().cell;
        run_until(&mut app, 30, |app| cell(app, leader) == Cell::new(5, 0));
        assert_eq!(cell(&app, follower), Cell::new(5 - gap, 0), "gap {gap}");
        // A wall just ahead of the leader, too late for a new plan.
        app.world_mut()
            .spawn((NavBlocker, GridPos(Cell::new(6, 0))));
        let hits = run_until(&mut app, 20, |_| false);
        assert_eq!(hits, 0, "gap {gap}: nobody walks into a unit that stopped");
        assert_eq!(cell(&app, leader), Cell::new(5, 0));
        assert_eq!(cell(&app, follower), Cell::new(4, 0), "gap {gap}");
    }
}

/// The past is pruned every `compact_every` ticks (64 by default); blocks and
/// hazards that started before must still come out completely when their
/// entities go.
#[test]
fn blocks_and_hazards_spanning_a_pruning_come_out_when_despawned() {
    let mut app = test_app(open(12, 5));
    let door = Cell::new(3, 1);
    let path: Vec<Cell> = (0..12).map(|x| Cell::new(x, 3)).collect();
    let block = app
        .world_mut()
        .spawn(ScheduledBlock {
            cell: door,
            from: 2,
            to: Some(500),
        })
        .id();
    let hazard = app
        .world_mut()
        .spawn(MovingHazard {
            t0: 60,
            cells: path.clone(),
            end: ObstacleEnd::Park,
        })
        .id();
    while nav_tick(&app) < 70 {
        tick(&mut app);
    }
    let now = nav_tick(&app);
    let world = app.world().resource::<NavWorld>();
    assert!(!world.grid.is_free(door, now + 1));
    assert!(!world.grid.is_free(Cell::new(11, 3), now + 10));
    app.world_mut().despawn(block);
    app.world_mut().despawn(hazard);
    tick(&mut app);
    let now = nav_tick(&app);
    let world = app.world().resource::<NavWorld>();
    for t in now..now + 600 {
        assert!(world.grid.is_free(door, t), "door at tick {t}");
        for cell in &path {
            assert!(world.grid.is_free(*cell, t), "{cell:?} at tick {t}");
        }
    }
}

/// A hazard announced with no notice onto the cell a unit is about to
/// enter: the unit waits instead of stepping into it, then replans.
#[test]
fn a_unit_does_not_step_into_a_hazard_announced_too_late_to_replan() {
    let mut app = test_app(open(12, 5));
    let unit = unit(&mut app, (0, 2), (11, 2));
    while state(&app, unit) != AgentState::Moving {
        tick(&mut app);
    }
    tick(&mut app);
    let now = nav_tick(&app);
    let path = app.world().get::<TemporalPath>(unit).unwrap().clone();
    let next = path.cells[(now + 1 - path.start_tick) as usize];
    let cells = vec![next; 4];
    app.world_mut().spawn(MovingHazard {
        t0: now + 1,
        cells: cells.clone(),
        end: ObstacleEnd::Vanish,
    });
    let mut hit = None;
    run_until(&mut app, 60, |app| {
        let t = nav_tick(app);
        let cell = app.world().get::<NavAgent>(unit).unwrap().cell;
        if t > now && t <= now + 4 && cell == next {
            hit = Some(t);
        }
        state(app, unit) == AgentState::Arrived
    });
    assert_eq!(hit, None, "the unit stood on the hazard");
    assert_eq!(state(&app, unit), AgentState::Arrived);
}
