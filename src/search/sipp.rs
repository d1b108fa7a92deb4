//! Safe Interval Path Planning: A* over (cell, safe interval), the baseline
//! JPST is measured against.

use crate::grid::{Dir, NavGrid};

use super::Planner;
use super::error::PlanError;
use super::goal::{Prepared, cell_of, run_query};
use super::heuristic::{HeuristicCache, UNREACHABLE};
use super::nodes::{NodeTable, OpenEntry, OpenList};
use super::plan::{Plan, SearchStats};
use super::query::{Heuristic, Query};
use super::step::step_into;
use crate::grid::DirSet;

/// SIPP with vertex and swap conflicts.
///
/// A state is a cell and one of its safe intervals; its g-value is the
/// earliest arrival in that interval, which dominates every later one because
/// the agent can always wait inside a safe interval.
#[derive(Debug, Default)]
pub struct Sipp {
    heuristic: Heuristic,
    cache: HeuristicCache,
    nodes: NodeTable,
    open: OpenList,
    stats: SearchStats,
}

impl Sipp {
    /// A planner guided by `heuristic`.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            heuristic,
            ..Self::default()
        }
    }
}

impl Planner for Sipp {
    fn name(&self) -> &'static str {
        "sipp"
    }

    fn last_stats(&self) -> SearchStats {
        self.stats
    }

    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
        let mut cache = std::mem::take(&mut self.cache);
        let mut stats = SearchStats::default();
        let result = run_query(
            grid,
            query,
            self.heuristic,
            &mut cache,
            &mut stats,
            |p, stats| {
                self.stats = SearchStats::default();
                let result = self.search(grid, query, p);
                stats.expanded = self.stats.expanded;
                stats.generated = self.stats.generated;
                result
            },
        );
        self.cache = cache;
        self.stats = stats;
        result
    }
}

impl Sipp {
    fn search(&mut self, grid: &NavGrid, query: &Query, p: &Prepared) -> Result<Plan, PlanError> {
        let walls = grid.walls();
        let obstacles = grid.obstacles();
        let width = walls.width() as usize;
        self.nodes.reset(walls.cell_count());
        self.open.clear();

        let start_iv = obstacles
            .interval_at(p.start, query.start_tick)
            .ok_or(PlanError::StartBlocked)?;
        let root = self
            .nodes
            .get(p.start, start_iv, obstacles.safe_intervals(p.start).len());
        self.nodes.nodes[root as usize].g = query.start_tick;
        self.open.push(OpenEntry {
            f: query.start_tick as u64 + p.h.at_index(p.start) as u64,
            g: query.start_tick,
            node: root,
        });

        while let Some(entry) = self.open.pop() {
            let id = entry.node as usize;
            let node = self.nodes.nodes[id];
            if node.done == DirSet::ALL || node.g != entry.g {
                continue;
            }
            self.nodes.nodes[id].done = DirSet::ALL;
            let cell = node.cell as usize;
            if p.is_goal(cell, node.g) {
                return Ok(self.nodes.plan_to(id as u32, width));
            }
            if query.budget.is_some_and(|b| self.stats.expanded >= b) {
                return Err(PlanError::BudgetExhausted {
                    expanded: self.stats.expanded,
                });
            }
            self.stats.expanded += 1;
            let here = cell_of(cell, width);
            let stay_until = obstacles.safe_intervals(cell)[node.interval as usize].end;
            for dir in Dir::ALL {
                let Some(next) = here.step(dir).filter(|n| walls.is_passable(*n)) else {
                    continue;
                };
                let n = walls.index(next);
                let h = p.h.at(next, n);
                if h == UNREACHABLE {
                    continue;
                }
                let intervals = obstacles.safe_intervals(n).len();
                let (nodes, open, stats) = (&mut self.nodes, &mut self.open, &mut self.stats);
                step_into(obstacles, n, dir, node.g, stay_until, true, |t, k| {
                    let child = nodes.get(n, k as usize, intervals);
                    let c = &mut nodes.nodes[child as usize];
                    if c.done == DirSet::ALL || c.g <= t {
                        return;
                    }
                    c.g = t;
                    c.parent = id as u32;
                    stats.generated += 1;
                    open.push(OpenEntry {
                        f: t as u64 + h as u64,
                        g: t,
                        node: child,
                    });
                });
            }
        }
        Err(PlanError::Unreachable)
    }
}
