//! Side-by-side benchmark of JPST, SIPP and time-expanded A* on a MovingAI
//! map with prioritised-planning obstacles.
//!
//! ```text
//! cargo run --release --example bench -- --map assets/maps/den520d/den520d.map \
//!     --scen assets/maps/den520d/den520d-random-1.scen --obstacles 100 --queries 200
//! ```
//!
//! The first `--obstacles` scenario agents are planned one by one with SIPP
//! (before any timing); their paths become moving obstacles that vanish at
//! their goals, or park there with `--park`. The next `--queries` rows are
//! then answered by every planner in the same process, the costs are checked
//! to be equal and every path is validated, and a table per planner reports
//! total and median time, expansions and the speed ratio against SIPP.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bevy_jpst::grid::{NavGrid, ObstacleEnd};
use bevy_jpst::io::{prioritised_obstacles, read_map, read_scen};
use bevy_jpst::search::{
    GoalPolicy, Heuristic, Jpst, PlanError, Planner, Query, Sipp, TimeExpandedAStar, validate_path,
};

struct Args {
    map: PathBuf,
    scen: PathBuf,
    obstacles: usize,
    queries: usize,
    park: bool,
    heuristic: Heuristic,
    astar_budget: u64,
    jump_limit: Option<u32>,
}

const USAGE: &str = "usage: bench --map <file.map> --scen <file.scen> [--obstacles N] [--queries M] \
[--park] [--heuristic manhattan|perfect] [--astar-budget EXPANSIONS] [--jump-limit CELLS]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        map: PathBuf::new(),
        scen: PathBuf::new(),
        obstacles: 100,
        queries: 200,
        park: false,
        heuristic: Heuristic::Manhattan,
        astar_budget: 2_000_000,
        jump_limit: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--map" => args.map = value()?.into(),
            "--scen" => args.scen = value()?.into(),
            "--obstacles" => args.obstacles = number(&value()?)?,
            "--queries" => args.queries = number(&value()?)?,
            "--astar-budget" => args.astar_budget = number(&value()?)?,
            "--jump-limit" => args.jump_limit = Some(number(&value()?)?),
            "--park" => args.park = true,
            "--heuristic" => {
                args.heuristic = match value()?.as_str() {
                    "manhattan" => Heuristic::Manhattan,
                    "perfect" => Heuristic::Perfect2D,
                    other => return Err(format!("unknown heuristic {other:?}")),
                }
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.map.as_os_str().is_empty() || args.scen.as_os_str().is_empty() {
        return Err("--map and --scen are required".into());
    }
    Ok(args)
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("not a number: {text:?}"))
}

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

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
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

    let mut jpst = Jpst::new(args.heuristic);
    if let Some(limit) = args.jump_limit {
        jpst = jpst.with_jump_limit(limit);
    }
    let mut planners: Vec<Box<dyn Planner>> = vec![
        Box::new(jpst),
        Box::new(Sipp::new(args.heuristic)),
        Box::new(TimeExpandedAStar::new(args.heuristic)),
    ];
    let mut tallies: Vec<Tally> = planners.iter().map(|_| Tally::default()).collect();
    let mut mismatches = 0;
    for (i, q) in queries.iter().enumerate() {
        let mut costs: Vec<Option<Result<u32, PlanError>>> = Vec::new();
        for (k, planner) in planners.iter_mut().enumerate() {
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
                costs.push(None);
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
            costs.push(Some(answer.map(|p| p.cost())));
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
