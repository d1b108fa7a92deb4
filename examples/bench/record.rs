//! What the sequential experiment measures: one record per query.

/// Position of JPST in [`Study::planners`] and [`QueryRecord::runs`].
pub const JPST: usize = 0;
/// Position of SIPP in [`Study::planners`] and [`QueryRecord::runs`].
pub const SIPP: usize = 1;

/// One planner's answer to one query.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Wall-clock time of the `plan` call without the heuristic table build.
    pub nanos: u64,
    /// Time spent building the Perfect-2D table for this goal.
    pub heuristic_micros: u64,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
}

/// One agent's query and what became of it.
#[derive(Clone, Debug)]
pub struct QueryRecord {
    /// Row of the agent in the scenario file (0-based).
    pub agent: usize,
    /// Agents already planned (and committed as obstacles) before this one.
    pub planned_before: usize,
    /// Cells touched by some obstacle when the query was asked.
    pub temporal_cells: usize,
    /// Per planner, in [`Study::planners`] order; `None` where the planner
    /// was not run or gave up on its expansion budget.
    pub runs: Vec<Option<Run>>,
    /// SIPP's cost, `None` if it found no path.
    pub cost: Option<u32>,
    /// The path was added as an obstacle for the following agents.
    pub committed: bool,
}

impl QueryRecord {
    /// SIPP time over JPST time for this query.
    pub fn speedup(&self) -> f64 {
        match (&self.runs[JPST], &self.runs[SIPP]) {
            (Some(j), Some(s)) => s.nanos.max(1) as f64 / j.nanos.max(1) as f64,
            _ => f64::NAN,
        }
    }
}

/// A whole sequential run.
#[derive(Clone, Debug)]
pub struct Study {
    /// A short title: scenario, agents, obstacle end, heuristic.
    pub title: String,
    /// One line describing the setting (map, scenario, heuristic...).
    pub setting: String,
    /// Planner names; JPST at [`JPST`], SIPP at [`SIPP`].
    pub planners: Vec<&'static str>,
    /// Expansion budget of time-expanded A*.
    pub astar_budget: u64,
    /// One record per query, in scenario order.
    pub records: Vec<QueryRecord>,
    /// Queries on which the planners disagreed.
    pub mismatches: usize,
}
