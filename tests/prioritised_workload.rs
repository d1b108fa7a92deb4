//! Prioritised-planning workloads on a shipped MovingAI map: the written
//! instance reads back as the same world, and the planners agree on it.

use std::path::Path;

use bevy_jpst::grid::ObstacleEnd;
use bevy_jpst::io::{
    Instance, parse_solution, prioritised_instance, read_map, read_scen, solve_instance,
};
use bevy_jpst::search::{GoalPolicy, Heuristic, PlannerKind};

#[test]
fn workload_round_trips_and_planners_agree() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/maps/random-32-32-10");
    let walls = read_map(&folder.join("random-32-32-10.map")).unwrap();
    let scen = read_scen(&folder.join("random-32-32-10-random-1.scen")).unwrap();
    for end in [ObstacleEnd::Vanish, ObstacleEnd::Park] {
        let mut sipp = PlannerKind::Sipp.build(Heuristic::Manhattan);
        let (instance, grid) = prioritised_instance(
            "random-32-32-10.map",
            walls.clone(),
            &scen,
            30,
            end,
            15,
            GoalPolicy::Stay,
            sipp.as_mut(),
        );
        assert!(
            instance.obstacles.len() >= 25,
            "{end:?}: most agents find a path"
        );
        assert_eq!(instance.queries.len(), 15);

        let mut load = |_: &str| Ok(walls.clone());
        let (parsed, parsed_grid) = Instance::parse(&instance.to_text(), "w", &mut load).unwrap();
        assert_eq!(parsed, instance);
        for index in 0..walls.cell_count() {
            let cell = walls.cell_at(index);
            for tick in [0, 3, 10, 40, 100] {
                assert_eq!(grid.is_free(cell, tick), parsed_grid.is_free(cell, tick));
            }
        }
        assert!(!grid.is_free(instance.obstacles[0].cells[0], 0));

        // The parsed lines hold the answers without the statistics.
        let answers: Vec<_> = PlannerKind::ALL
            .into_iter()
            .map(|kind| {
                let mut planner = kind.build(Heuristic::Manhattan);
                let text = solve_instance(&instance, &grid, planner.as_mut(), false);
                parse_solution(&text, kind.name()).unwrap()
            })
            .collect();
        assert_eq!(answers[0], answers[2], "{end:?}: jpst vs astar");
        assert_eq!(answers[1], answers[2], "{end:?}: sipp vs astar");
    }
}
