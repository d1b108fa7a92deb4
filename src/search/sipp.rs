//! Safe Interval Path Planning: A* over (cell, safe interval), the baseline
//! JPST is measured against.

use std::time::Instant;

use crate::grid::{Dir, FOREVER, NavGrid};

use super::Planner;
use super::error::PlanError;
use super::goal::{Prepared, cell_of};
use super::heuristic::{HeuristicCache, UNREACHABLE};
use super::nodes::{NONE, NodeTable, OpenEntry, OpenList};
use super::plan::{Plan, SearchStats, Waypoint};
use super::query::{Heuristic, Query};
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
        let started = Instant::now();
        self.stats = SearchStats::default();
        let result = match Prepared::new(grid, query, self.heuristic, &mut self.cache) {
            Ok(p) => {
                self.stats.heuristic_micros = p.heuristic_micros;
                self.search(grid, query, &p)
            }
            Err(e) => Err(e),
        };
        self.stats.micros = started.elapsed().as_micros() as u64;
        result.map(|mut plan| {
            plan.stats = self.stats;
            plan
        })
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
                return Ok(self.path_to(id, width));
            }
            if query.budget.is_some_and(|b| self.stats.expanded >= b) {
                return Err(PlanError::BudgetExhausted {
                    expanded: self.stats.expanded,
                });
            }
            self.stats.expanded += 1;
            let here = cell_of(cell, width);
            let stay_until = obstacles.safe_intervals(cell)[node.interval as usize].end;
            let Some(earliest) = node.g.checked_add(1).filter(|t| *t < FOREVER) else {
                continue;
            };
            // The last tick at which the agent can arrive next door: it may
            // wait here until `stay_until` and then move.
            let latest = stay_until.saturating_add(1);
            for dir in Dir::ALL {
                let Some(next) = here.step(dir).filter(|n| walls.is_passable(*n)) else {
                    continue;
                };
                let n = walls.index(next);
                let h = p.h.at(next, n);
                if h == UNREACHABLE {
                    continue;
                }
                let intervals = obstacles.safe_intervals(n);
                let first = intervals.partition_point(|iv| iv.end < earliest);
                for (k, iv) in intervals.iter().enumerate().skip(first) {
                    if iv.start > latest {
                        break;
                    }
                    let last = iv.end.min(latest);
                    let mut t = iv.start.max(earliest);
                    // Leave at the first tick the move does not swap with an
                    // obstacle coming the other way.
                    while t <= last && obstacles.departs(n, t - 1, dir.reverse()) {
                        t += 1;
                    }
                    if t > last {
                        continue;
                    }
                    let child = self.nodes.get(n, k, intervals.len());
                    let c = &mut self.nodes.nodes[child as usize];
                    if c.done == DirSet::ALL || c.g <= t {
                        continue;
                    }
                    c.g = t;
                    c.parent = id as u32;
                    self.stats.generated += 1;
                    self.open.push(OpenEntry {
                        f: t as u64 + h as u64,
                        g: t,
                        node: child,
                    });
                }
            }
        }
        Err(PlanError::Unreachable)
    }

    fn path_to(&self, last: usize, width: usize) -> Plan {
        let mut waypoints = Vec::new();
        let mut at = last as u32;
        while at != NONE {
            let n = self.nodes.nodes[at as usize];
            waypoints.push(Waypoint {
                cell: cell_of(n.cell as usize, width),
                tick: n.g,
            });
            at = n.parent;
        }
        waypoints.reverse();
        Plan {
            waypoints,
            stats: SearchStats::default(),
        }
    }
}
