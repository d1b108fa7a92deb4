//! The hand-made fixtures T0-T7 of `docs/jpst.md`, with the expected costs
//! computed by brute force over (cell, tick), for every planner.

mod common;

use bevy_jpst::grid::{Cell, NavGrid, ObstacleEnd, StaticGrid};
use bevy_jpst::search::{GoalPolicy, PlanError, Query};
use common::*;

fn solve(grid: &NavGrid, query: Query) -> Result<u32, PlanError> {
    let mut planners = all_planners();
    agree(&mut planners, grid, &query, &|| String::new())
}

fn stay(sx: u32, sy: u32, gx: u32, gy: u32) -> Query {
    Query::new(Cell::new(sx, sy), Cell::new(gx, gy)).with_policy(GoalPolicy::Stay)
}

/// Breadth-first distance over walkable cells, written independently of the
/// crate's heuristic table.
fn bfs(grid: &NavGrid, from: Cell, to: Cell) -> Option<u32> {
    let (w, h) = (grid.width(), grid.height());
    let mut dist = vec![u32::MAX; (w * h) as usize];
    let mut queue = std::collections::VecDeque::from([from]);
    dist[(from.y * w + from.x) as usize] = 0;
    while let Some(c) = queue.pop_front() {
        let d = dist[(c.y * w + c.x) as usize];
        if c == to {
            return Some(d);
        }
        let (x, y) = (c.x as i64, c.y as i64);
        for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                continue;
            }
            let n = Cell::new(nx as u32, ny as u32);
            let i = (n.y * w + n.x) as usize;
            if grid.walls().is_passable(n) && dist[i] == u32::MAX {
                dist[i] = d + 1;
                queue.push_back(n);
            }
        }
    }
    None
}

#[test]
fn t0_static_maps_cost_the_bfs_distance() {
    let grid = ascii(&[
        "..........",
        ".@@@@@@@@.",
        ".@......@.",
        ".@.@@@@.@.",
        "...@..@...",
        "@@.@..@.@@",
        "...@@.@...",
    ]);
    assert_eq!(solve(&grid, stay(0, 0, 7, 2)), Ok(13));
    assert_eq!(solve(&grid, stay(0, 6, 9, 6)), Ok(17));
    assert_eq!(solve(&grid, stay(4, 4, 5, 6)), Ok(3));
    assert_eq!(solve(&grid, stay(0, 0, 4, 4)), Err(PlanError::Unreachable));
    assert_eq!(solve(&grid, stay(0, 0, 0, 0)), Ok(0));
    let mut rng = Rng(1);
    for round in 0..300 {
        let size = 2 + round % 70;
        let height = 1 + rng.below(40) as u32;
        let w = random_world(&mut rng, size, height, 0.3, 0, 0, 0);
        let (a, b) = (
            random_cell(&mut rng, &w.grid),
            random_cell(&mut rng, &w.grid),
        );
        if !w.grid.walls().is_passable(a) || !w.grid.walls().is_passable(b) {
            continue;
        }
        let expected = bfs(&w.grid, a, b).ok_or(PlanError::Unreachable);
        assert_eq!(
            solve(&w.grid, stay(a.x, a.y, b.x, b.y)),
            expected,
            "{}",
            w.description
        );
    }
}

fn t1_world(width: u32) -> NavGrid {
    let mut free: Vec<(u32, u32)> = (0..7).map(|x| (x, 1)).collect();
    free.extend([(3, 0), (3, 2)]);
    let mut g = only(width, 3, &free);
    let b = cells(&[(3, 2), (3, 2), (3, 1), (3, 0)]);
    g.add_obstacle(0, &b, ObstacleEnd::Park).unwrap();
    let d = cells(&[(5, 1), (4, 1), (5, 1), (4, 1), (5, 1)]);
    g.add_obstacle(0, &d, ObstacleEnd::Park).unwrap();
    g.add_obstacle(0, &cells(&[(2, 1)]), ObstacleEnd::Park)
        .unwrap();
    g
}

#[test]
fn t1_dodge_and_step_straight_back() {
    for width in [7, 8, 9, 40, 70] {
        assert_eq!(
            solve(&t1_world(width), stay(3, 1, 3, 1)),
            Ok(3),
            "width {width}"
        );
    }
}

#[test]
fn t2_wait_for_a_crossing() {
    let mut free: Vec<(u32, u32)> = (0..10).map(|x| (x, 1)).collect();
    free.extend([(5, 0), (5, 2)]);
    let mut g = only(10, 3, &free);
    let mut path = stand((5, 2), 4);
    path.extend(stand((5, 1), 3));
    path.push(Cell::new(5, 0));
    g.add_obstacle(0, &path, ObstacleEnd::Park).unwrap();
    assert_eq!(solve(&g, stay(0, 1, 9, 1)), Ok(11));
}

#[test]
fn t3_head_on_in_a_corridor_needs_the_pocket() {
    let walker: Vec<Cell> = (0..10).rev().map(|x| Cell::new(x, 1)).collect();
    let mut free: Vec<(u32, u32)> = (0..10).map(|x| (x, 1)).collect();
    let mut no_pocket = only(10, 3, &free);
    free.push((2, 2));
    let mut pocket = only(10, 3, &free);
    pocket
        .add_obstacle(0, &walker, ObstacleEnd::Vanish)
        .unwrap();
    no_pocket
        .add_obstacle(0, &walker, ObstacleEnd::Vanish)
        .unwrap();
    assert_eq!(solve(&pocket, stay(0, 1, 9, 1)), Ok(15));
    assert_eq!(
        solve(&no_pocket, stay(0, 1, 9, 1)),
        Err(PlanError::Unreachable)
    );
}

#[test]
fn t4_goal_policy_stay_versus_arrive() {
    let mut g = NavGrid::new(StaticGrid::open(5, 5).unwrap());
    let mut path = stand((4, 4), 8);
    path.extend(cells(&[(4, 3), (4, 2), (4, 1), (4, 0), (3, 0)]));
    g.add_obstacle(0, &path, ObstacleEnd::Vanish).unwrap();
    assert_eq!(solve(&g, stay(0, 0, 4, 0)), Ok(12));
    let arrive = stay(0, 0, 4, 0).with_policy(GoalPolicy::Arrive);
    assert_eq!(solve(&g, arrive), Ok(4));
}

/// T5: a 100x3 band; `mirror` runs it right to left.
fn band(mirror: bool) -> (NavGrid, Query, impl Fn(u32) -> u32) {
    let g = NavGrid::new(StaticGrid::open(100, 3).unwrap());
    let flip = move |x: u32| if mirror { 99 - x } else { x };
    let q = stay(flip(0), 1, flip(99), 1);
    (g, q, flip)
}

#[test]
fn t5_gates_at_window_boundaries_both_directions() {
    for mirror in [false, true] {
        for c in [30, 31, 32, 33, 62, 63, 64, 65, 95] {
            let (mut g, q, flip) = band(mirror);
            for y in 0..3 {
                g.add_block(Cell::new(flip(c), y), c - 3, Some(c + 5))
                    .unwrap();
            }
            assert_eq!(
                solve(&g, q),
                Ok(104),
                "gate at column {c}, mirrored {mirror}"
            );
        }
        for c in [31, 32, 63, 64] {
            let (mut g, q, flip) = band(mirror);
            g.add_block(Cell::new(flip(c), 0), c - 1, Some(c + 2))
                .unwrap();
            assert_eq!(solve(&g, q), Ok(99), "T5b at column {c}, mirrored {mirror}");
        }
    }
}

#[test]
fn t5_transposed_for_vertical_scans() {
    for mirror in [false, true] {
        for c in [30, 31, 32, 33, 62, 63, 64, 65, 95] {
            let flip = |y: u32| if mirror { 99 - y } else { y };
            let mut g = NavGrid::new(StaticGrid::open(3, 100).unwrap());
            for x in 0..3 {
                g.add_block(Cell::new(x, flip(c)), c - 3, Some(c + 5))
                    .unwrap();
            }
            let q = stay(1, flip(0), 1, flip(99));
            assert_eq!(solve(&g, q), Ok(104), "gate at row {c}, mirrored {mirror}");
        }
    }
}

#[test]
fn t6_start_cell() {
    let mut g = NavGrid::new(StaticGrid::open(5, 3).unwrap());
    g.add_obstacle(0, &cells(&[(2, 2), (2, 1), (2, 0)]), ObstacleEnd::Vanish)
        .unwrap();
    assert_eq!(solve(&g, stay(2, 1, 2, 1)), Ok(2));
    let mut blocked = NavGrid::new(StaticGrid::open(5, 3).unwrap());
    blocked.add_block(Cell::new(2, 1), 0, Some(1)).unwrap();
    assert_eq!(
        solve(&blocked, stay(2, 1, 4, 1)),
        Err(PlanError::StartBlocked)
    );
    // Blocked at a later start tick too.
    assert_eq!(
        solve(&g, stay(2, 1, 0, 0).starting_at(1)),
        Err(PlanError::StartBlocked)
    );
}

#[test]
fn t7_narrow_maps_against_the_reference() {
    let mut rng = Rng(7);
    let mut planners = all_planners();
    for width in 1..=9 {
        for height in 1..=3 {
            for round in 0..40 {
                let w = random_world(&mut rng, width, height, 0.15, 1 + round % 4, round % 3, 6);
                let start = random_cell(&mut rng, &w.grid);
                let goal = random_cell(&mut rng, &w.grid);
                let policy = if round % 2 == 0 {
                    GoalPolicy::Stay
                } else {
                    GoalPolicy::Arrive
                };
                let q = Query::new(start, goal)
                    .with_policy(policy)
                    .starting_at(rng.below(4) as u32);
                let _ = agree(&mut planners, &w.grid, &q, &|| w.description.clone());
            }
        }
    }
    // T6 fits every map at least 5 wide and 3 high.
    for width in 5..=9 {
        let mut g = NavGrid::new(StaticGrid::open(width, 3).unwrap());
        g.add_obstacle(0, &cells(&[(2, 2), (2, 1), (2, 0)]), ObstacleEnd::Vanish)
            .unwrap();
        assert_eq!(solve(&g, stay(2, 1, 2, 1)), Ok(2), "width {width}");
    }
}
