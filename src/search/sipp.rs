//! Safe Interval Path Planning: A* over (cell, safe interval), the baseline
//! JPST is measured against.

use crate::grid::{Dir, NavGrid};

use super::Planner;
use super::error::PlanError;
use super::goal::{Prepared, QueryRunner, cell_of};
use super::heuristic::UNREACHABLE;
use super::nodes::{NodeTable, OpenEntry};
use super::open::{OpenList, Stack};
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
    runner: QueryRunner,
    search: SippSearch,
}

/// The buffers of one SIPP search, reused between queries.
#[derive(Debug, Default)]
struct SippSearch {
    nodes: NodeTable,
    open: OpenList<Stack>,
}

impl Sipp {
    /// A planner guided by `heuristic`.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            runner: QueryRunner::new(heuristic),
            search: SippSearch::default(),
        }
    }
}

impl Planner for Sipp {
    fn name(&self) -> &'static str {
        "sipp"
    }

    fn last_stats(&self) -> SearchStats {
        self.runner.stats
    }

    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
        let search = &mut self.search;
        self.runner
            .run(grid, query, |p, stats| search.run(grid, query, p, stats))
    }
}

impl SippSearch {
    fn run(
        &mut self,
        grid: &NavGrid,
        query: &Query,
        p: &Prepared,
        stats: &mut SearchStats,
    ) -> Result<Plan, PlanError> {
        let walls = grid.walls();
        let obstacles = grid.obstacles();
        let width = walls.width() as usize;
        self.open.clear();
        let root = self.nodes.start_at(grid, p.start, query.start_tick)?;
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
            p.beyond_horizon(entry.f)?;
            if p.is_goal(cell, node.g) {
                return Ok(self.nodes.plan_to(id as u32, width));
            }
            if query.budget.is_some_and(|b| stats.expanded >= b) {
                return Err(PlanError::BudgetExhausted {
                    expanded: stats.expanded,
                });
            }
            stats.expanded += 1;
            let here = cell_of(cell, width);
            let stay_until = obstacles.safe_until(cell, node.interval as usize, node.g);
            for dir in Dir::ALL {
                let Some(next) = here.step(dir).filter(|n| walls.is_passable(*n)) else {
                    continue;
                };
                let n = walls.index(next);
                let h = p.h.at(next, n);
                if h == UNREACHABLE {
                    continue;
                }
                let intervals = obstacles.interval_count(n);
                let (nodes, open) = (&mut self.nodes, &mut self.open);
                step_into(obstacles, n, dir, node.g, stay_until, true, 0, |t, k| {
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
