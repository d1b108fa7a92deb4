//! Sequential mode: the prioritised-planning experiment. Every agent is a
//! timed query for every planner, then SIPP's path becomes a moving obstacle
//! for the agents after it.

use std::time::Instant;

use bevy_jpst::grid::{NavGrid, ObstacleEnd};
use bevy_jpst::io::{read_map, read_scen};
use bevy_jpst::search::{
    AutoPlanner, GoalPolicy, Plan, PlanError, Planner, Query, Sipp, TimeExpandedAStar,
    validate_path,
};
use indicatif::{ProgressBar, ProgressStyle};

use super::order::turns;
use super::record::{QueryRecord, Run, SIPP, Study};
use super::{files, report};
use crate::Args;

/// What a planner said: a cost, a reason for no path, or `None` when A*
/// ran out of budget (not compared).
type Outcome = Option<Result<u32, PlanError>>;

/// Runs the experiment, prints the report and writes the `--out` files; an
/// error if a path is invalid or the planners disagree on a cost.
pub fn run(args: &Args) -> Result<(), String> {
    let walls = read_map(&args.map).map_err(|e| e.to_string())?;
    let scen = read_scen(&args.scen).map_err(|e| e.to_string())?;
    let (end, policy) = if args.park {
        (ObstacleEnd::Park, GoalPolicy::Stay)
    } else {
        (ObstacleEnd::Vanish, GoalPolicy::Arrive)
    };
    let agents = &scen[..args.agents.min(scen.len())];
    let mut grid = NavGrid::new(walls);
    let mut planners = planners(args);
    let progress = progress_bar(agents.len());
    let started = Instant::now();
    let mut records = Vec::with_capacity(agents.len());
    let mut mismatches = 0;
    let mut planned = 0;
    for (agent, row) in agents.iter().enumerate() {
        let query = Query::new(row.start, row.goal).with_policy(policy);
        let mut record = QueryRecord {
            agent,
            planned_before: planned,
            temporal_cells: grid.obstacles().touched_cells(),
            runs: vec![None; planners.len()],
            cost: None,
            committed: false,
        };
        let mut outcomes: Vec<Outcome> = vec![None; planners.len()];
        let mut sipp_plan = None;
        for k in turns(agent, planners.len()) {
            let planner = &mut planners[k];
            let budget = (planner.name() == "astar").then_some(args.astar_budget);
            let (run, answer) = timed(planner.as_mut(), &grid, &query, budget);
            if let Ok(plan) = &answer
                && let Err(v) = validate_path(&grid, &query, &plan.cells(), plan.cost())
            {
                progress.finish_and_clear();
                return Err(format!(
                    "{} returned an invalid path for agent {agent}: {v:?}",
                    planner.name()
                ));
            }
            record.runs[k] = run;
            outcomes[k] = run.map(|_| answer.as_ref().map(Plan::cost).map_err(Clone::clone));
            if k == SIPP {
                sipp_plan = answer.ok();
            }
        }
        mismatches += count_mismatches(agent, &planners, &outcomes, &progress);
        if let Some(plan) = sipp_plan {
            record.cost = Some(plan.cost());
            record.committed = grid.add_obstacle(0, &plan.cells(), end).is_ok();
            planned += usize::from(record.committed);
        }
        records.push(record);
        progress.inc(1);
        progress.set_message(format!("{planned} planned"));
    }
    progress.finish_and_clear();

    let setting = format!(
        "map {} | scenario {} | {} agents ({} requested, {} in the file), {} planned, {} without a path | \
         obstacles {}, policy {:?}, heuristic {:?} | {} temporal cells at the end | {:.1} s",
        args.map.display(),
        args.scen.display(),
        agents.len(),
        args.agents,
        scen.len(),
        planned,
        agents.len() - planned,
        if args.park { "park" } else { "vanish" },
        policy,
        args.heuristic,
        grid.obstacles().touched_cells(),
        started.elapsed().as_secs_f64(),
    );
    let title = format!(
        "{}, {} agents, {}, {:?}",
        args.scen.file_stem().unwrap_or_default().to_string_lossy(),
        agents.len(),
        if args.park { "parked" } else { "vanishing" },
        args.heuristic,
    );
    let study = Study {
        title,
        setting,
        planners: planners.iter().map(|p| p.name()).collect(),
        astar_budget: args.astar_budget,
        records,
        mismatches,
    };
    let markdown = report::markdown(&study);
    print!("{markdown}");
    if let Some(prefix) = &args.out {
        files::write_all(prefix, &study, &markdown)?;
        println!("\nwrote {0}.md, {0}.csv, {0}.svg", prefix.display());
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} cost mismatches"));
    }
    Ok(())
}

/// JPST, SIPP, then (with `--astar`) time-expanded A* and (with `--auto`)
/// the plugin's default planner, at these positions (they take turns going
/// first, see [`turns`]).
fn planners(args: &Args) -> Vec<Box<dyn Planner>> {
    let jpst = args.jpst();
    let mut planners: Vec<Box<dyn Planner>> =
        vec![Box::new(jpst), Box::new(Sipp::new(args.heuristic))];
    if args.astar {
        planners.push(Box::new(TimeExpandedAStar::new(args.heuristic)));
    }
    if args.auto {
        planners.push(Box::new(AutoPlanner::new(args.heuristic)));
    }
    planners
}

/// Times one `plan` call (minus the heuristic table build). The run is
/// `None` when the planner gave up on `budget`.
fn timed(
    planner: &mut dyn Planner,
    grid: &NavGrid,
    query: &Query,
    budget: Option<u64>,
) -> (Option<Run>, Result<Plan, PlanError>) {
    let mut query = *query;
    query.budget = budget;
    let started = Instant::now();
    let answer = planner.plan(grid, &query);
    let nanos = started.elapsed().as_nanos() as u64;
    let stats = planner.last_stats();
    if budget.is_some() && matches!(answer, Err(PlanError::BudgetExhausted { .. })) {
        return (None, answer);
    }
    let run = Run {
        nanos: nanos.saturating_sub(stats.heuristic_micros * 1000),
        heuristic_micros: stats.heuristic_micros,
        expanded: stats.expanded,
        generated: stats.generated,
    };
    (Some(run), answer)
}

/// Reports (on stderr, above the progress bar) every planner whose outcome
/// differs from SIPP's, and returns how many did.
fn count_mismatches(
    agent: usize,
    planners: &[Box<dyn Planner>],
    outcomes: &[Outcome],
    progress: &ProgressBar,
) -> usize {
    let reference = &outcomes[SIPP];
    let mut count = 0;
    for (planner, outcome) in planners.iter().zip(outcomes) {
        if outcome.is_some() && outcome != reference {
            count += 1;
            progress.suspend(|| {
                eprintln!(
                    "MISMATCH agent {agent}: {} says {outcome:?}, sipp says {reference:?}",
                    planner.name()
                )
            });
        }
    }
    count
}

/// A bar over the agents on standard error; draws nothing when standard
/// error is not a terminal.
fn progress_bar(agents: usize) -> ProgressBar {
    let bar = ProgressBar::new(agents as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} agents, {msg}, eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message("0 planned");
    bar
}
