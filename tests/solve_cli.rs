//! The solver core behind `examples/solve.rs`, on the T3 corridor fixture of
//! `docs/jpst.md` section 9, for every planner and heuristic.

use std::path::Path;

use bevy_jpst::io::{Instance, SolutionLine, parse_solution, solve_instance};
use bevy_jpst::search::{Heuristic, PlannerKind, validate_path};

const HEURISTICS: [Heuristic; 2] = [Heuristic::Manhattan, Heuristic::Perfect2D];

fn read(name: &str) -> (Instance, bevy_jpst::grid::NavGrid) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    Instance::read(&path).unwrap()
}

/// The answers of `kind` with paths, checked for shape: query lines in order,
/// a valid path of `cost + 1` cells after each `cost` line, nothing else.
/// Returns the cost of each query (`None` = unreachable).
fn answers(name: &str, kind: PlannerKind, heuristic: Heuristic) -> Vec<Option<u32>> {
    let (instance, grid) = read(name);
    let mut planner = kind.build(heuristic);
    let text = solve_instance(&instance, &grid, planner.as_mut(), true);
    let lines = parse_solution(&text, "solver output").unwrap();
    let mut costs = Vec::new();
    let mut lines = lines.into_iter().peekable();
    while let Some(line) = lines.next() {
        match line {
            SolutionLine::Cost { query, cost } => {
                assert_eq!(query, costs.len(), "{text}");
                let Some(SolutionLine::Path { query: q, cells }) = lines.next() else {
                    panic!("no path line after a cost line:\n{text}");
                };
                assert_eq!(q, query, "{text}");
                let request = &instance.queries[query];
                if let Err(v) = validate_path(&grid, request, &cells, cost) {
                    panic!("{} query {query}: invalid path {v:?}:\n{text}", kind.name());
                }
                costs.push(Some(cost));
            }
            SolutionLine::Unreachable { query } => {
                assert_eq!(query, costs.len(), "{text}");
                costs.push(None);
            }
            SolutionLine::Path { .. } => panic!("path line without a cost line:\n{text}"),
        }
    }
    assert_eq!(costs.len(), instance.queries.len(), "{text}");
    costs
}

#[test]
fn output_has_one_query_line_per_query_with_statistics() {
    let (instance, grid) = read("t3_corridor.instance");
    for kind in PlannerKind::ALL {
        let mut planner = kind.build(Heuristic::Manhattan);
        let text = solve_instance(&instance, &grid, planner.as_mut(), false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), instance.queries.len(), "{text}");
        for (i, line) in lines.iter().enumerate() {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(&fields[..2], &["query", i.to_string().as_str()], "{line}");
            assert!(matches!(fields[2], "cost" | "unreachable"), "{line}");
            assert!(
                line.contains(" expanded ") && line.contains(" generated "),
                "{line}"
            );
            assert!(line.contains(" micros "), "{line}");
        }
        // Query 2 starts on the obstacle at tick 0.
        assert!(lines[2].starts_with("query 2 unreachable "), "{text}");
        assert!(lines[2].ends_with(" reason start-blocked"), "{text}");
    }
}

#[test]
fn t3_corridor_costs() {
    for kind in PlannerKind::ALL {
        for heuristic in HEURISTICS {
            assert_eq!(
                answers("t3_corridor.instance", kind, heuristic),
                vec![Some(15), Some(15), None, Some(9)],
                "{} {heuristic:?}",
                kind.name()
            );
        }
    }
}

#[test]
fn t3_without_the_pocket_is_unreachable() {
    for kind in PlannerKind::ALL {
        for heuristic in HEURISTICS {
            assert_eq!(
                answers("t3_closed_pocket.instance", kind, heuristic),
                vec![None],
                "{} {heuristic:?}",
                kind.name()
            );
        }
    }
}
