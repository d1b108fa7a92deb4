//! Time-expanded A* over (cell, tick): the simple, obviously correct
//! reference the other planners are tested against.

use std::collections::HashMap;

use crate::grid::{Dir, NavGrid, Tick};

use super::Planner;
use super::error::PlanError;
use super::goal::{Prepared, QueryRunner, cell_of};
use super::heuristic::UNREACHABLE;
use super::nodes::{NONE, OpenEntry};
use super::open::OpenList;
use super::plan::{Plan, SearchStats, Waypoint};
use super::query::{Heuristic, Query};

#[derive(Clone, Copy, Debug)]
struct TimedNode {
    cell: u32,
    tick: Tick,
    parent: u32,
    closed: bool,
}

/// A* over (cell, tick) with WAIT actions.
///
/// After the obstacles' [`horizon`](crate::grid::TemporalMap::horizon) the
/// world no longer changes, so all ticks from then on fold into one state per
/// cell; the search therefore ends on unreachable queries too. Memory grows
/// with cells x ticks searched: use it as a reference, not in games.
#[derive(Debug, Default)]
pub struct TimeExpandedAStar {
    runner: QueryRunner,
}

impl TimeExpandedAStar {
    /// A planner guided by `heuristic`.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            runner: QueryRunner::new(heuristic),
        }
    }
}

impl Planner for TimeExpandedAStar {
    fn name(&self) -> &'static str {
        "astar"
    }

    fn last_stats(&self) -> SearchStats {
        self.runner.stats
    }

    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
        self.runner
            .run(grid, query, |p, stats| search(grid, query, p, stats))
    }
}

fn search(
    grid: &NavGrid,
    query: &Query,
    p: &Prepared,
    stats: &mut SearchStats,
) -> Result<Plan, PlanError> {
    let walls = grid.walls();
    let obstacles = grid.obstacles();
    let width = walls.width() as usize;
    // From `fold` on, ticks are indistinguishable: one state per cell.
    let fold = obstacles.horizon().max(query.start_tick);
    let mut nodes: Vec<TimedNode> = Vec::new();
    let mut index: HashMap<(u32, Tick), u32> = HashMap::new();
    let mut open: OpenList = OpenList::new();

    let start = p.start as u32;
    nodes.push(TimedNode {
        cell: start,
        tick: query.start_tick,
        parent: NONE,
        closed: false,
    });
    index.insert((start, query.start_tick.min(fold)), 0);
    open.push(OpenEntry {
        f: query.start_tick as u64 + p.h.at_index(p.start) as u64,
        g: query.start_tick,
        node: 0,
    });

    while let Some(entry) = open.pop() {
        let id = entry.node as usize;
        let node = nodes[id];
        if node.closed || node.tick != entry.g {
            continue;
        }
        nodes[id].closed = true;
        let cell = node.cell as usize;
        p.beyond_horizon(entry.f)?;
        if p.is_goal(cell, node.tick) {
            return Ok(path_to(&nodes, id, width));
        }
        if query.budget.is_some_and(|b| stats.expanded >= b) {
            return Err(PlanError::BudgetExhausted {
                expanded: stats.expanded,
            });
        }
        stats.expanded += 1;
        let Some(next_tick) = node.tick.checked_add(1).filter(|t| *t < Tick::MAX) else {
            continue;
        };
        let here = cell_of(cell, width);
        let moves = Dir::ALL.into_iter().map(Some).chain([None]);
        for dir in moves {
            let target = match dir {
                None if node.tick >= fold => continue, // waiting changes nothing any more
                None => here,
                Some(d) => match here.step(d) {
                    Some(n) if walls.is_passable(n) => n,
                    _ => continue,
                },
            };
            let t_index = walls.index(target);
            if !obstacles.is_free(t_index, next_tick) {
                continue;
            }
            if let Some(d) = dir
                && obstacles.departs(t_index, node.tick, d.reverse())
            {
                continue;
            }
            let h = p.h.at(target, t_index);
            if h == UNREACHABLE {
                continue;
            }
            let key = (t_index as u32, next_tick.min(fold));
            let child = match index.get(&key) {
                Some(&c) => {
                    let existing = &mut nodes[c as usize];
                    if existing.closed || existing.tick <= next_tick {
                        continue;
                    }
                    existing.tick = next_tick;
                    existing.parent = id as u32;
                    c
                }
                None => {
                    let c = nodes.len() as u32;
                    nodes.push(TimedNode {
                        cell: t_index as u32,
                        tick: next_tick,
                        parent: id as u32,
                        closed: false,
                    });
                    index.insert(key, c);
                    c
                }
            };
            stats.generated += 1;
            open.push(OpenEntry {
                f: next_tick as u64 + h as u64,
                g: next_tick,
                node: child,
            });
        }
    }
    Err(PlanError::Unreachable)
}

fn path_to(nodes: &[TimedNode], last: usize, width: usize) -> Plan {
    let mut waypoints = Vec::new();
    let mut at = last as u32;
    while at != NONE {
        let n = nodes[at as usize];
        waypoints.push(Waypoint {
            cell: cell_of(n.cell as usize, width),
            tick: n.tick,
        });
        at = n.parent;
    }
    waypoints.reverse();
    Plan {
        waypoints,
        stats: SearchStats::default(),
    }
}
