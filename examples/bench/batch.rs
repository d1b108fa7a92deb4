//! Batch mode (the default): obstacles first, then timed queries. See the
//! crate documentation of the example for the experiment.

use std::time::Instant;

use bevy_jpst::grid::{NavGrid, ObstacleEnd};
use bevy_jpst::io::{prioritised_obstacles, read_map, read_scen};
use bevy_jpst::search::{
    GoalPolicy, PlanError, Planner, Query, Sipp, TimeExpandedAStar, validate_path,
};

use super::order::turns;
use crate::Args;

/// What one planner did on all queries.
#[derive(Default)]
struct Tally {
    nanos: Vec<u64>,
    expanded: u64,
    generated: u64,
    heuristic_micros: u64,
    skipped: usize,
}

impl Tally {
    fn total_ms(&self) -> f64 {
        self.nanos.iter().sum::<u64>() as f64 / 1e6
    }

    fn median_us(&self) -> f64 {
        let mut v = self.nanos.clone();
        v.sort_unstable();
        v.get(v.len() / 2).map_or(0.0, |n| *n as f64 / 1e3)
    }
}

/// Builds the workload, times every planner on the queries and prints the
/// table; an error if a path is invalid or the costs disagree.
pub fn run(args: &Args) -> Result<(), String> {
    let walls = read_map(&args.map).map_err(|e| e.to_string())?;
    let scen = read_scen(&args.scen).map_err(|e| e.to_string())?;
    let end = if args.park {
        ObstacleEnd::Park
    } else {
        ObstacleEnd::Vanish
    };
    let policy = if args.park {
        GoalPolicy::Stay
    } else {
        GoalPolicy::Arrive
    };
    let split = args.obstacles.min(scen.len());
    let (agents, rest) = scen.split_at(split);
    let built = Instant::now();
    let workload = prioritised_obstacles(
        &NavGrid::new(walls),
        agents,
        end,
        &mut Sipp::new(args.heuristic),
    );
    let grid = workload.grid;
    let queries: Vec<Query> = rest
        .iter()
        .take(args.queries)
        .map(|r| Query::new(r.start, r.goal).with_policy(policy))
        .collect();
    println!(
        "map {} | {} obstacle agents ({} skipped, {}), {} temporal cells, built in {:.0} ms | {} queries, policy {:?}, heuristic {:?}",
        args.map.display(),
        workload.obstacles.len(),
        workload.skipped,
        if args.park { "parked" } else { "vanishing" },
        grid.obstacles().touched_cells(),
        built.elapsed().as_secs_f64() * 1e3,
        queries.len(),
        policy,
        args.heuristic,
    );

    let jpst = args.jpst();
    let mut planners: Vec<Box<dyn Planner>> = vec![
        Box::new(jpst),
        Box::new(Sipp::new(args.heuristic)),
        Box::new(TimeExpandedAStar::new(args.heuristic)),
    ];
    let mut tallies: Vec<Tally> = planners.iter().map(|_| Tally::default()).collect();
    let mut mismatches = 0;
    for (i, q) in queries.iter().enumerate() {
        let mut costs: Vec<Option<Result<u32, PlanError>>> = vec![None; planners.len()];
        for k in turns(i, planners.len()) {
            let planner = &mut planners[k];
            let mut query = *q;
            let is_astar = k == 2;
            if is_astar {
                query.budget = Some(args.astar_budget);
            }
            let started = Instant::now();
            let answer = planner.plan(&grid, &query);
            let nanos = started.elapsed().as_nanos() as u64;
            let stats = planner.last_stats();
            if is_astar && matches!(answer, Err(PlanError::BudgetExhausted { .. })) {
                tallies[k].skipped += 1;
                continue;
            }
            let t = &mut tallies[k];
            t.nanos
                .push(nanos.saturating_sub(stats.heuristic_micros * 1000));
            t.heuristic_micros += stats.heuristic_micros;
            t.expanded += stats.expanded;
            t.generated += stats.generated;
            if let Ok(plan) = &answer
                && let Err(v) = validate_path(&grid, q, &plan.cells(), plan.cost())
            {
                return Err(format!(
                    "{} returned an invalid path for query {i}: {v:?}",
                    planner.name()
                ));
            }
            costs[k] = Some(answer.map(|p| p.cost()));
        }
        let reference = costs[1].clone();
        for (k, c) in costs.iter().enumerate() {
            if let Some(c) = c
                && Some(c) != reference.as_ref()
            {
                mismatches += 1;
                eprintln!(
                    "MISMATCH query {i}: {} says {c:?}, sipp says {reference:?}",
                    planners[k].name()
                );
            }
        }
    }

    let sipp_total = tallies[1].total_ms();
    println!();
    println!(
        "| planner | queries | total ms | median us | expanded | generated | heuristic ms | JPST/SIPP speed-up |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (planner, t) in planners.iter().zip(&tallies) {
        let speedup = if planner.name() == "jpst" {
            format!("{:.2}x", sipp_total / t.total_ms().max(1e-9))
        } else {
            String::new()
        };
        let mut name = planner.name().to_string();
        if t.skipped > 0 {
            name.push_str(&format!(
                " ({} skipped: > {} expansions)",
                t.skipped, args.astar_budget
            ));
        }
        println!(
            "| {name} | {} | {:.2} | {:.1} | {} | {} | {:.1} | {speedup} |",
            t.nanos.len(),
            t.total_ms(),
            t.median_us(),
            t.expanded,
            t.generated,
            t.heuristic_micros as f64 / 1e3,
        );
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} cost mismatches"));
    }
    println!("\nall costs equal");
    Ok(())
}
