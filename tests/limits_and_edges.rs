//! Planner edge cases and limits: degenerate maps and queries, ticks near
//! `u32::MAX`, a 4096 x 4096 map, the expansion budget, the time horizon
//! and the per-cell block limit. Every planner must give the same answer.

mod common;

use bevy_jpst::grid::{Cell, GridError, NavGrid, ObstacleEnd, StaticGrid};
use bevy_jpst::search::{GoalPolicy, Heuristic, Jpst, PlanError, Planner, Query, Sipp};
use common::{agree, all_planners, ascii};

fn answer(grid: &NavGrid, query: &Query) -> Result<u32, PlanError> {
    agree(&mut all_planners(), grid, query, &|| String::new())
}

fn q(start: (u32, u32), goal: (u32, u32)) -> Query {
    Query::new(Cell::new(start.0, start.1), Cell::new(goal.0, goal.1))
}

#[test]
fn start_equal_to_goal_under_both_policies() {
    let mut grid = ascii(&["...", "..."]);
    for policy in [GoalPolicy::Arrive, GoalPolicy::Stay] {
        assert_eq!(answer(&grid, &q((1, 0), (1, 0)).with_policy(policy)), Ok(0));
    }
    // The goal is taken during ticks 3..6: arriving counts at once, staying
    // only once it is free for good.
    grid.add_block(Cell::new(1, 0), 3, Some(6)).unwrap();
    assert_eq!(answer(&grid, &q((1, 0), (1, 0))), Ok(0));
    assert_eq!(
        answer(&grid, &q((1, 0), (1, 0)).with_policy(GoalPolicy::Stay)),
        Ok(6)
    );
}

#[test]
fn a_goal_blocked_for_ever_and_a_blocked_start() {
    let mut grid = ascii(&["....."]);
    grid.add_block(Cell::new(4, 0), 6, None).unwrap();
    assert_eq!(
        answer(&grid, &q((0, 0), (4, 0))),
        Ok(4),
        "arrive before it closes"
    );
    assert_eq!(
        answer(&grid, &q((0, 0), (4, 0)).with_policy(GoalPolicy::Stay)),
        Err(PlanError::Unreachable)
    );
    grid.add_block(Cell::new(0, 0), 0, Some(2)).unwrap();
    assert_eq!(
        answer(&grid, &q((0, 0), (2, 0))),
        Err(PlanError::StartBlocked)
    );
    let walled = ascii(&["@...."]);
    assert_eq!(
        answer(&walled, &q((0, 0), (2, 0))),
        Err(PlanError::StartBlocked)
    );
}

#[test]
fn cells_off_the_map() {
    let grid = ascii(&["...."]);
    assert_eq!(
        answer(&grid, &q((0, 0), (9, 0))),
        Err(PlanError::OutOfBounds(Cell::new(9, 0)))
    );
    assert_eq!(
        answer(&grid, &q((0, 7), (1, 0))),
        Err(PlanError::OutOfBounds(Cell::new(0, 7)))
    );
    assert_eq!(
        answer(&grid, &q((u32::MAX, u32::MAX), (1, 0))),
        Err(PlanError::OutOfBounds(Cell::new(u32::MAX, u32::MAX)))
    );
}

#[test]
fn one_by_one_and_one_by_n_maps() {
    let single = NavGrid::new(StaticGrid::open(1, 1).unwrap());
    assert_eq!(answer(&single, &q((0, 0), (0, 0))), Ok(0));
    let wall = NavGrid::new(StaticGrid::from_fn(1, 1, |_| false).unwrap());
    assert_eq!(
        answer(&wall, &q((0, 0), (0, 0))),
        Err(PlanError::StartBlocked)
    );
    for (w, h) in [(1, 70), (70, 1), (1, 129)] {
        let mut grid = NavGrid::new(StaticGrid::open(w, h).unwrap());
        let far = (w - 1, h - 1);
        assert_eq!(answer(&grid, &q((0, 0), far)), Ok(w + h - 2));
        // Something coming the other way in a one-cell-wide corridor: no
        // passing, so only waiting at the start until it has gone helps.
        let path: Vec<Cell> = (0..w.max(h))
            .rev()
            .map(|k| {
                if w == 1 {
                    Cell::new(0, k)
                } else {
                    Cell::new(k, 0)
                }
            })
            .collect();
        grid.add_obstacle(0, &path[..path.len() - 1], ObstacleEnd::Vanish)
            .unwrap();
        assert!(answer(&grid, &q((0, 0), far)).is_ok());
    }
}

#[test]
fn ticks_near_the_end_of_time() {
    let late = u32::MAX - 40;
    let mut grid = ascii(&["......", "......"]);
    grid.add_block(Cell::new(2, 0), late + 3, None).unwrap();
    grid.add_block(Cell::new(3, 1), late, Some(u32::MAX - 1))
        .unwrap();
    grid.add_obstacle(
        late + 1,
        &[Cell::new(5, 1), Cell::new(4, 1), Cell::new(4, 0)],
        ObstacleEnd::Park,
    )
    .unwrap();
    assert_eq!(
        grid.add_block(Cell::new(1, 1), late, Some(u32::MAX)),
        Err(GridError::TickOverflow)
    );
    assert_eq!(
        grid.add_obstacle(
            u32::MAX - 1,
            &[Cell::new(0, 0), Cell::new(1, 0)],
            ObstacleEnd::Vanish
        ),
        Err(GridError::TickOverflow)
    );
    for policy in [GoalPolicy::Arrive, GoalPolicy::Stay] {
        for goal in [(5, 0), (4, 0), (2, 0), (0, 1)] {
            let query = q((0, 0), goal).starting_at(late).with_policy(policy);
            let _ = answer(&grid, &query);
        }
    }
    // Starting at the last tick there is: only "already there" can succeed.
    let query = q((0, 0), (0, 0)).starting_at(u32::MAX - 1);
    assert_eq!(answer(&grid, &query), Ok(0));
}

#[test]
fn an_empty_4096_square_map_corner_to_corner() {
    let grid = NavGrid::new(StaticGrid::open(4096, 4096).unwrap());
    let query = q((0, 0), (4095, 4095)).with_policy(GoalPolicy::Stay);
    let planners: Vec<Box<dyn Planner>> = vec![
        Box::new(Jpst::new(Heuristic::Manhattan)),
        Box::new(Sipp::new(Heuristic::Manhattan)),
    ];
    for mut planner in planners {
        let plan = planner.plan(&grid, &query).expect("open map");
        assert_eq!(plan.cost(), 8190, "{}", planner.name());
    }
}

#[test]
fn the_expansion_budget_stops_every_planner() {
    // A winding corridor: no planner can finish in 3 expansions.
    let grid = ascii(&[".@...@..", ".@.@.@.@", "...@...@"]);
    let query = q((0, 0), (6, 0)).with_budget(3);
    assert_eq!(answer(&grid, &q((0, 0), (6, 0))), Ok(14));
    for mut planner in all_planners() {
        let answer = planner.plan(&grid, &query);
        assert!(
            matches!(answer, Err(PlanError::BudgetExhausted { .. })),
            "{}: {answer:?}",
            planner.name()
        );
    }
}

#[test]
fn the_horizon_cuts_late_arrivals_and_only_them() {
    let mut grid = ascii(&["......", "......"]);
    // A door on the way that opens at tick 12.
    grid.add_block(Cell::new(3, 0), 0, Some(12)).unwrap();
    grid.add_block(Cell::new(3, 1), 0, Some(12)).unwrap();
    let query = q((0, 0), (5, 0)).starting_at(2);
    let best = answer(&grid, &query).unwrap();
    assert_eq!(best, 12);
    assert_eq!(answer(&grid, &query.with_horizon(best)), Ok(best));
    assert_eq!(
        answer(&grid, &query.with_horizon(best - 1)),
        Err(PlanError::HorizonExceeded { horizon: best - 1 })
    );
    // Unreachable goals end at the horizon too, instead of searching on.
    grid.add_block(Cell::new(5, 0), 0, None).unwrap();
    assert_eq!(
        answer(&grid, &query.with_horizon(3)),
        Err(PlanError::HorizonExceeded { horizon: 3 })
    );
}

#[test]
fn the_per_cell_block_limit_refuses_more_and_changes_nothing() {
    let mut grid = ascii(&["....."]);
    grid.set_max_blocks_per_cell(3);
    let cell = Cell::new(2, 0);
    for k in 0..3 {
        grid.add_block(cell, 10 * k, Some(10 * k + 2)).unwrap();
    }
    let full = Err(GridError::TooManyBlocks { cell, limit: 3 });
    assert_eq!(grid.add_block(cell, 100, Some(101)), full);
    // An obstacle passing the full cell is refused as a whole.
    let before = grid.obstacles().blocked_intervals(1).len();
    let walk = [
        Cell::new(0, 0),
        Cell::new(1, 0),
        Cell::new(2, 0),
        Cell::new(3, 0),
    ];
    assert_eq!(grid.add_obstacle(50, &walk, ObstacleEnd::Vanish), full);
    assert_eq!(grid.obstacles().blocked_intervals(1).len(), before);
    // Taking a block out makes room again.
    grid.remove_block(cell, 0, Some(2)).unwrap();
    grid.add_obstacle(50, &walk, ObstacleEnd::Vanish).unwrap();
}
