//! Answering every query of an instance in the solver output format: the
//! core of `examples/solve.rs`, kept here so tests and tools can run it.

use std::io::Write;

use super::instance::Instance;
use super::solution::{answer_line, path_line};
use crate::grid::NavGrid;
use crate::search::Planner;

/// Plans every query of `instance` on `grid` in file order with `planner`
/// and writes one answer line per query to `out` (with `paths`, a `path`
/// line after each `cost` line). Lines are written as the queries are
/// answered.
pub fn write_answers(
    instance: &Instance,
    grid: &NavGrid,
    planner: &mut dyn Planner,
    paths: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for (index, query) in instance.queries.iter().enumerate() {
        let result = planner.plan(grid, query);
        writeln!(out, "{}", answer_line(index, &result, planner.last_stats()))?;
        if let (true, Ok(plan)) = (paths, &result) {
            writeln!(out, "{}", path_line(index, &plan.cells()))?;
        }
    }
    Ok(())
}

/// [`write_answers`] into a string.
pub fn solve_instance(
    instance: &Instance,
    grid: &NavGrid,
    planner: &mut dyn Planner,
    paths: bool,
) -> String {
    let mut out = Vec::new();
    write_answers(instance, grid, planner, paths, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("answer lines are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, StaticGrid};
    use crate::io::{SolutionLine, parse_solution};
    use crate::search::{Plan, PlanError, Query, SearchStats, Waypoint};

    /// Walks the Manhattan L (vertical, then horizontal) on an open map;
    /// answers `StartBlocked` for a start at tick 9.
    struct Walker;

    impl Planner for Walker {
        fn name(&self) -> &'static str {
            "walker"
        }

        fn plan(&mut self, _: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
            if query.start_tick == 9 {
                return Err(PlanError::StartBlocked);
            }
            let arrival = query.start_tick + query.start.manhattan(query.goal);
            let waypoints = vec![
                Waypoint {
                    cell: query.start,
                    tick: query.start_tick,
                },
                Waypoint {
                    cell: query.goal,
                    tick: arrival,
                },
            ];
            Ok(Plan {
                waypoints,
                stats: SearchStats::default(),
            })
        }

        fn last_stats(&self) -> SearchStats {
            SearchStats::default()
        }
    }

    #[test]
    fn one_line_per_query_and_a_path_after_each_cost() {
        let instance = Instance {
            map: "m.map".into(),
            blocks: vec![],
            obstacles: vec![],
            queries: vec![
                Query::new(Cell::new(0, 0), Cell::new(1, 1)),
                Query::new(Cell::new(0, 0), Cell::new(1, 1)).starting_at(9),
                Query::new(Cell::new(2, 0), Cell::new(2, 0)).starting_at(4),
            ],
        };
        let grid = NavGrid::new(StaticGrid::open(3, 2).unwrap());
        let text = solve_instance(&instance, &grid, &mut Walker, true);
        let lines = parse_solution(&text, "out").unwrap();
        assert_eq!(
            lines,
            vec![
                SolutionLine::Cost { query: 0, cost: 2 },
                SolutionLine::Path {
                    query: 0,
                    cells: vec![Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 1)]
                },
                SolutionLine::Unreachable { query: 1 },
                SolutionLine::Cost { query: 2, cost: 0 },
                SolutionLine::Path {
                    query: 2,
                    cells: vec![Cell::new(2, 0)]
                },
            ]
        );
        let without_paths = solve_instance(&instance, &grid, &mut Walker, false);
        assert_eq!(without_paths.lines().count(), 3);
        assert!(without_paths.ends_with('\n'));
    }
}
