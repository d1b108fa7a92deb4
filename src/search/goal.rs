//! Checks and preparation every planner does before searching.

use std::time::Instant;

use crate::grid::{Cell, NavGrid, Tick};

use super::error::PlanError;
use super::heuristic::{GoalDistance, HeuristicCache, UNREACHABLE};
use super::plan::{Plan, SearchStats};
use super::query::{GoalPolicy, Heuristic, Query};

/// A query checked against the world, with its heuristic ready.
pub(crate) struct Prepared {
    /// Dense index of the start cell.
    pub start: usize,
    /// Dense index of the goal cell.
    pub goal: usize,
    /// Arrivals at the goal count from this tick on (0 for `Arrive`; the
    /// start of the goal's endless safe interval for `Stay`).
    pub goal_ready: Tick,
    /// The heuristic for this goal.
    pub h: GoalDistance,
    /// Time spent building the heuristic table.
    pub heuristic_micros: u64,
    /// The horizon and the last arrival tick it allows.
    horizon: Option<(Tick, u64)>,
}

impl Prepared {
    /// Validates `query` on `grid`: cells on the map, start free at the start
    /// tick, goal usable under the policy, goal statically reachable.
    pub(crate) fn new(
        grid: &NavGrid,
        query: &Query,
        heuristic: Heuristic,
        cache: &mut HeuristicCache,
    ) -> Result<Self, PlanError> {
        let walls = grid.walls();
        for cell in [query.start, query.goal] {
            if !walls.contains(cell) {
                return Err(PlanError::OutOfBounds(cell));
            }
        }
        if !grid.is_free(query.start, query.start_tick) {
            return Err(PlanError::StartBlocked);
        }
        if !walls.is_passable(query.goal) {
            return Err(PlanError::Unreachable);
        }
        let goal_ready = match query.policy {
            GoalPolicy::Arrive => 0,
            GoalPolicy::Stay => grid
                .free_forever_from(query.goal)
                .ok_or(PlanError::Unreachable)?,
        };
        let (h, heuristic_micros) = GoalDistance::new(heuristic, cache, walls, query.goal);
        let start = walls.index(query.start);
        if h.at(query.start, start) == UNREACHABLE {
            return Err(PlanError::Unreachable);
        }
        Ok(Self {
            start,
            goal: walls.index(query.goal),
            goal_ready,
            h,
            heuristic_micros,
            horizon: query
                .horizon
                .map(|t| (t, query.start_tick as u64 + t as u64)),
        })
    }

    /// The search must stop: the best node left in the open list, with
    /// `f` (a lower bound on any arrival through it), arrives after the
    /// horizon, and so would every node after it.
    #[inline]
    pub(crate) fn beyond_horizon(&self, f: u64) -> Result<(), PlanError> {
        match self.horizon {
            Some((horizon, last)) if f > last => Err(PlanError::HorizonExceeded { horizon }),
            _ => Ok(()),
        }
    }

    /// True if standing on dense cell `cell` at `tick` completes the query.
    #[inline]
    pub(crate) fn is_goal(&self, cell: usize, tick: Tick) -> bool {
        self.is_goal_from(cell, tick, self.goal_ready)
    }

    /// [`is_goal`](Self::is_goal) with arrivals counting from tick `ready`
    /// instead of [`goal_ready`](Self::goal_ready) (JPST's pass on the map
    /// without obstacles, where the goal is never held).
    #[inline]
    pub(crate) fn is_goal_from(&self, cell: usize, tick: Tick, ready: Tick) -> bool {
        cell == self.goal && tick >= ready
    }
}

/// The cell of a dense index on a grid `width` cells wide.
#[inline]
pub(crate) fn cell_of(index: usize, width: usize) -> Cell {
    Cell::new((index % width) as u32, (index / width) as u32)
}

/// The part every planner shares: its heuristic, the heuristic tables it
/// built, and the counters of its last query.
#[derive(Debug, Default)]
pub(crate) struct QueryRunner {
    heuristic: Heuristic,
    cache: HeuristicCache,
    /// Counters of the last query.
    pub stats: SearchStats,
}

impl QueryRunner {
    /// A runner for planners guided by `heuristic`.
    pub(crate) fn new(heuristic: Heuristic) -> Self {
        Self {
            heuristic,
            ..Self::default()
        }
    }

    /// Runs one query: resets the counters, prepares the query, lets
    /// `search` count expansions into them, and records the heuristic and
    /// total times (also in the returned plan).
    pub(crate) fn run(
        &mut self,
        grid: &NavGrid,
        query: &Query,
        search: impl FnOnce(&Prepared, &mut SearchStats) -> Result<Plan, PlanError>,
    ) -> Result<Plan, PlanError> {
        let started = Instant::now();
        let stats = &mut self.stats;
        *stats = SearchStats::default();
        let result = Prepared::new(grid, query, self.heuristic, &mut self.cache).and_then(|p| {
            stats.heuristic_micros = p.heuristic_micros;
            search(&p, stats)
        });
        stats.micros = started.elapsed().as_micros() as u64;
        result.map(|mut plan| {
            plan.stats = *stats;
            plan
        })
    }
}
