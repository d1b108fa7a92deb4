//! Prioritised-planning instances on real MovingAI maps (shipped under
//! `assets/maps/`): every planner agrees with the time-expanded A*
//! reference, every path validates, and the instance written to disk and
//! solved through the solver's code path gives the same costs.

mod common;

use std::path::Path;

use bevy_jpst::grid::{NavGrid, ObstacleEnd};
use bevy_jpst::io::{
    Instance, SolutionLine, parse_solution, prioritised_instance, read_map, read_scen,
    solve_instance,
};
use bevy_jpst::search::{GoalPolicy, Heuristic, PlannerKind, Sipp, TimeExpandedAStar};
use common::*;

fn map_dir(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/maps")
        .join(name)
}

/// Builds the prioritised instance: `obstacles` agents become obstacles, the
/// next `queries` rows are queries.
fn instance(name: &str, obstacles: usize, queries: usize, end: ObstacleEnd) -> (Instance, NavGrid) {
    let dir = map_dir(name);
    let walls = read_map(&dir.join(format!("{name}.map"))).unwrap();
    let scen = read_scen(&dir.join(format!("{name}-random-1.scen"))).unwrap();
    let policy = match end {
        ObstacleEnd::Park => GoalPolicy::Stay,
        ObstacleEnd::Vanish => GoalPolicy::Arrive,
    };
    prioritised_instance(
        &format!("{name}.map"),
        walls,
        &scen,
        obstacles,
        end,
        queries,
        policy,
        &mut Sipp::new(Heuristic::Perfect2D),
    )
}

fn check_map(name: &str, obstacles: usize, queries: usize) {
    // The reference uses the exact static heuristic: same costs, far fewer
    // (cell, tick) states than with Manhattan.
    let mut planners = all_planners();
    planners[0] = Box::new(TimeExpandedAStar::new(Heuristic::Perfect2D));
    for end in [ObstacleEnd::Vanish, ObstacleEnd::Park] {
        let (inst, grid) = instance(name, obstacles, queries, end);
        // In 1-wide mazes parked agents seal corridors, so later agents fail.
        assert!(!inst.obstacles.is_empty(), "{name}: no obstacle path");
        eprintln!(
            "{name} {end:?}: {} obstacle paths, {} queries",
            inst.obstacles.len(),
            inst.queries.len()
        );
        let mut expected = Vec::new();
        for q in &inst.queries {
            let answer = agree(&mut planners, &grid, q, &|| format!("{name} {end:?}"));
            expected.push(answer.ok());
        }
        assert!(
            expected.iter().any(|c| c.is_some()),
            "{name}: nothing solvable"
        );

        // Write the instance beside a copy of the map, read it back and solve
        // it the way `examples/solve.rs` does.
        let dir = std::env::temp_dir().join(format!(
            "bevy_jpst_real_{name}_{end:?}_{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            map_dir(name).join(format!("{name}.map")),
            dir.join(format!("{name}.map")),
        )
        .unwrap();
        let file = dir.join("workload.instance");
        inst.write(&file).unwrap();
        let (reread, regrid) = Instance::read(&file).unwrap();
        assert_eq!(reread, inst);
        for kind in PlannerKind::ALL {
            let mut planner = kind.build(Heuristic::Perfect2D);
            let text = solve_instance(&reread, &regrid, planner.as_mut(), false);
            let got: Vec<Option<u32>> = parse_solution(&text, "output")
                .unwrap()
                .into_iter()
                .map(|line| match line {
                    SolutionLine::Cost { cost, .. } => Some(cost),
                    _ => None,
                })
                .collect();
            assert_eq!(
                got,
                expected,
                "{name} {end:?} via the solver with {}",
                kind.name()
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn den520d_prioritised() {
    check_map("den520d", 100, 30);
}

#[test]
fn berlin_prioritised() {
    check_map("Berlin_1_256", 100, 30);
}

#[test]
fn maze_prioritised() {
    check_map("maze-128-128-1", 60, 30);
}

#[test]
fn room_prioritised() {
    check_map("room-64-64-8", 100, 40);
}
