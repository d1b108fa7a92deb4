//! Temporal Jump Point Search (JPST).
//!
//! A* over (cell, safe interval) states like SIPP, but successors are *jump
//! points*: straight runs through cells whose neighbourhood is quiet (no
//! temporal obstacle at or after the arrival tick) are skipped, with
//! 4-connected JPS pruning in the canonical order vertical, then horizontal,
//! then wait. Cells that still see temporal activity become jump points with
//! all four directions, and there the planner also generates SIPP-style
//! "wait, then step into a neighbour's later safe interval" successors. See
//! `docs` in the repository for the argument that this keeps every cost
//! optimal.

mod scan;

use std::time::Instant;

use crate::grid::{Dir, DirSet, NavGrid, Tick};

use super::Planner;
use super::error::PlanError;
use super::goal::{Prepared, cell_of};
use super::heuristic::{HeuristicCache, UNREACHABLE};
use super::nodes::{NONE, NodeTable, OpenEntry, OpenList};
use super::plan::{Plan, SearchStats, Waypoint};
use super::query::{Heuristic, Query};
use scan::{JumpPoint, Scanner};

/// The default jump limit: effectively none.
pub const NO_JUMP_LIMIT: u32 = u32::MAX;

/// Temporal Jump Point Search over a [`NavGrid`].
#[derive(Debug)]
pub struct Jpst {
    heuristic: Heuristic,
    jump_limit: u32,
    speculative_wait: bool,
    cache: HeuristicCache,
    nodes: NodeTable,
    open: OpenList,
    successors: Vec<JumpPoint>,
    waits: Vec<u32>,
    stats: SearchStats,
}

impl Default for Jpst {
    fn default() -> Self {
        Self::new(Heuristic::default())
    }
}

impl Jpst {
    /// A planner guided by `heuristic`, with no jump limit and speculative
    /// waits on.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            heuristic,
            jump_limit: NO_JUMP_LIMIT,
            speculative_wait: true,
            cache: HeuristicCache::default(),
            nodes: NodeTable::default(),
            open: OpenList::new(),
            successors: Vec::new(),
            waits: Vec::new(),
            stats: SearchStats::default(),
        }
    }

    /// Caps every jump at `cells` steps (at least 1): the cell reached becomes
    /// an intermediate jump point. Bounds the work of one expansion on huge
    /// open maps; never changes the cost found.
    pub fn with_jump_limit(mut self, cells: u32) -> Self {
        self.jump_limit = cells.max(1);
        self
    }

    /// Expand "wait, then move" successors at once instead of queueing them
    /// (on by default). Never changes the cost found.
    pub fn with_speculative_wait(mut self, on: bool) -> Self {
        self.speculative_wait = on;
        self
    }
}

impl Planner for Jpst {
    fn name(&self) -> &'static str {
        "jpst"
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

impl Jpst {
    fn search(&mut self, grid: &NavGrid, query: &Query, p: &Prepared) -> Result<Plan, PlanError> {
        let walls = grid.walls();
        let obstacles = grid.obstacles();
        let width = walls.width() as usize;
        let scanner = Scanner::new(grid, query.goal, self.jump_limit);
        self.nodes.reset(walls.cell_count());
        self.open.clear();

        let start_iv = obstacles
            .interval_at(p.start, query.start_tick)
            .ok_or(PlanError::StartBlocked)?;
        let root = self
            .nodes
            .get(p.start, start_iv, obstacles.safe_intervals(p.start).len());
        let node = &mut self.nodes.nodes[root as usize];
        node.g = query.start_tick;
        node.dirs = DirSet::ALL;
        self.open.push(OpenEntry {
            f: query.start_tick as u64 + p.h.at_index(p.start) as u64,
            g: query.start_tick,
            node: root,
        });

        while let Some(entry) = self.open.pop() {
            let id = entry.node;
            let node = self.nodes.nodes[id as usize];
            if node.g != entry.g || node.dirs.is_subset(node.done) {
                continue;
            }
            if p.is_goal(node.cell as usize, node.g) {
                return Ok(self.path_to(id, width));
            }
            if query.budget.is_some_and(|b| self.stats.expanded >= b) {
                return Err(PlanError::BudgetExhausted {
                    expanded: self.stats.expanded,
                });
            }
            self.expand(id, grid, &scanner, p);
            // Speculative waits: expand the wait successors just generated
            // right away, unless they finish the query.
            while let Some(w) = self.waits.pop() {
                let n = self.nodes.nodes[w as usize];
                if n.dirs.is_subset(n.done) || p.is_goal(n.cell as usize, n.g) {
                    continue;
                }
                self.expand(w, grid, &scanner, p);
            }
        }
        Err(PlanError::Unreachable)
    }

    /// Expands node `id` in the directions it has not been expanded in yet.
    fn expand(&mut self, id: u32, grid: &NavGrid, scanner: &Scanner<'_>, p: &Prepared) {
        self.stats.expanded += 1;
        let node = self.nodes.nodes[id as usize];
        let first_time = node.done.is_empty();
        let todo = node.dirs.minus(node.done);
        self.nodes.nodes[id as usize].done = node.done.union(todo);
        let width = scanner.walls().width() as usize;
        let here = cell_of(node.cell as usize, width);
        let mut successors = std::mem::take(&mut self.successors);
        successors.clear();
        for dir in todo.iter() {
            if dir.is_vertical() {
                scanner.vertical(here.x, here.y, node.g, dir, &mut successors);
            } else {
                scanner.horizontal(here.x, here.y, node.g, dir, &mut successors);
            }
        }
        let first_wait = successors.len();
        if first_time {
            self.wait_successors(
                grid,
                node.cell as usize,
                node.interval as usize,
                node.g,
                &mut successors,
            );
        }
        for (k, s) in successors.iter().enumerate() {
            let is_wait = k >= first_wait;
            if let Some(child) = self.generate(grid, id, *s, p)
                && is_wait
                && self.speculative_wait
            {
                self.waits.push(child);
            }
        }
        self.successors = successors;
    }

    /// "Wait here, then step into a neighbour's safe interval" successors
    /// that need a wait (arrivals at `g + 1` are the jumps' business).
    fn wait_successors(
        &self,
        grid: &NavGrid,
        cell: usize,
        interval: usize,
        g: Tick,
        out: &mut Vec<JumpPoint>,
    ) {
        let walls = grid.walls();
        let obstacles = grid.obstacles();
        // Nothing happens around the cell any more: every move can be made now.
        if obstacles.near_busy_end(cell) <= g {
            return;
        }
        let here = walls.cell_at(cell);
        let stay_until = obstacles.safe_intervals(cell)[interval].end;
        let latest = stay_until.saturating_add(1);
        let Some(earliest) = g.checked_add(1).filter(|t| *t < crate::grid::FOREVER) else {
            return;
        };
        for dir in Dir::ALL {
            let Some(next) = here.step(dir).filter(|n| walls.is_passable(*n)) else {
                continue;
            };
            let n = walls.index(next);
            if obstacles.busy_end(n) <= g {
                continue; // always free from now on: reached by a jump at g + 1
            }
            let intervals = obstacles.safe_intervals(n);
            let first = intervals.partition_point(|iv| iv.end < earliest);
            for iv in &intervals[first..] {
                if iv.start > latest {
                    break;
                }
                let last = iv.end.min(latest);
                let mut t = iv.start.max(earliest);
                while t <= last && obstacles.departs(n, t - 1, dir.reverse()) {
                    t += 1;
                }
                if t <= last && t > earliest {
                    out.push(JumpPoint {
                        cell: n,
                        tick: t,
                        dirs: DirSet::ALL,
                    });
                }
            }
        }
    }

    /// Records successor `s` of node `parent`. Returns the child's node if it
    /// was improved or gained directions (so it needs expanding).
    fn generate(&mut self, grid: &NavGrid, parent: u32, s: JumpPoint, p: &Prepared) -> Option<u32> {
        let h = p.h.at_index(s.cell);
        if h == UNREACHABLE {
            return None;
        }
        let obstacles = grid.obstacles();
        let interval = obstacles.interval_at(s.cell, s.tick)?;
        let child = self
            .nodes
            .get(s.cell, interval, obstacles.safe_intervals(s.cell).len());
        let c = &mut self.nodes.nodes[child as usize];
        if s.tick < c.g {
            c.g = s.tick;
            c.dirs = s.dirs;
            c.done = DirSet::EMPTY;
            c.parent = parent;
        } else if s.tick == c.g && !s.dirs.is_subset(c.dirs) {
            c.dirs = c.dirs.union(s.dirs);
        } else {
            return None;
        }
        self.stats.generated += 1;
        self.open.push(OpenEntry {
            f: s.tick as u64 + h as u64,
            g: s.tick,
            node: child,
        });
        Some(child)
    }

    fn path_to(&self, last: u32, width: usize) -> Plan {
        let mut waypoints = Vec::new();
        let mut at = last;
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
