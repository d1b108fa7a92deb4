//! Search nodes keyed by (cell, safe interval), and the open list.
//!
//! Nodes of a cell are allocated together the first time the search touches
//! the cell, one per safe interval, so finding the node of (cell, interval)
//! is two array reads. The per-cell arrays are stamped with a query number
//! and reused across queries instead of being cleared.

use std::cmp::Ordering;

use crate::grid::{Dir, DirSet, NavGrid, Tick};

use super::error::PlanError;
use super::goal::cell_of;
use super::plan::{Plan, SearchStats, Waypoint};

/// No node / no parent.
pub(crate) const NONE: u32 = u32::MAX;

/// One (cell, safe interval) state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Dense cell index.
    pub cell: u32,
    /// Index of the safe interval within the cell's list.
    pub interval: u32,
    /// Earliest known arrival tick ([`Tick::MAX`] if not reached yet).
    pub g: Tick,
    /// The node this one was generated from.
    pub parent: u32,
    /// Directions to continue in (JPST); unused by SIPP.
    pub dirs: DirSet,
    /// Directions already expanded at the current `g` (JPST); SIPP sets ALL
    /// when it closes a node.
    pub done: DirSet,
    /// Wait successors already generated at the current `g` (JPST).
    pub waited: bool,
    /// The horizontal move of an arrival whose directions are worked out
    /// only when needed (JPST): until then `dirs` reads all four.
    pub turn: Option<Dir>,
}

/// Nodes of one search, reused between searches.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeTable {
    query: u32,
    stamp: Vec<u32>,
    first: Vec<u32>,
    pub nodes: Vec<Node>,
}

impl NodeTable {
    /// Forgets the previous search; sizes the per-cell arrays for `cells`.
    pub(crate) fn reset(&mut self, cells: usize) {
        if self.stamp.len() != cells {
            self.stamp = vec![0; cells];
            self.first = vec![0; cells];
            self.query = 0;
        }
        self.query = self.query.wrapping_add(1);
        if self.query == 0 {
            self.stamp.fill(0);
            self.query = 1;
        }
        self.nodes.clear();
    }

    /// The node of (cell, interval), allocating the cell's `intervals` nodes
    /// on first touch.
    #[inline]
    pub(crate) fn get(&mut self, cell: usize, interval: usize, intervals: usize) -> u32 {
        if self.stamp[cell] != self.query {
            self.stamp[cell] = self.query;
            self.first[cell] = self.nodes.len() as u32;
            for k in 0..intervals {
                self.nodes.push(Node {
                    cell: cell as u32,
                    interval: k as u32,
                    g: Tick::MAX,
                    parent: NONE,
                    dirs: DirSet::EMPTY,
                    done: DirSet::EMPTY,
                    waited: false,
                    turn: None,
                });
            }
        }
        self.first[cell] + interval as u32
    }
}

impl NodeTable {
    /// Forgets the previous search on `grid` and makes its root: cell
    /// `start` (dense index) in its safe interval at `tick`, reached then.
    /// [`PlanError::StartBlocked`] if the start is blocked at `tick`.
    pub(crate) fn start_at(
        &mut self,
        grid: &NavGrid,
        start: usize,
        tick: Tick,
    ) -> Result<u32, PlanError> {
        let obstacles = grid.obstacles();
        self.reset(grid.walls().cell_count());
        let interval = obstacles
            .interval_at(start, tick)
            .ok_or(PlanError::StartBlocked)?;
        let root = self.get(start, interval, obstacles.safe_intervals(start).len());
        self.nodes[root as usize].g = tick;
        Ok(root)
    }

    /// The cell `node` was reached from and the safe interval it left
    /// there, or `None` for the root.
    #[inline]
    pub(crate) fn came_from(&self, node: Node) -> Option<(u32, u32)> {
        let from = self.nodes.get(node.parent as usize)?;
        Some((from.cell, from.interval))
    }

    /// The plan that reaches node `last`: the chain of parents back to the
    /// root, as waypoints (cell and arrival tick).
    pub(crate) fn plan_to(&self, last: u32, width: usize) -> Plan {
        let mut waypoints = Vec::new();
        let mut at = last;
        while at != NONE {
            let n = self.nodes[at as usize];
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

/// An open-list entry; stale entries are skipped when popped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpenEntry {
    /// g + h.
    pub f: u64,
    /// Arrival tick when pushed.
    pub g: Tick,
    /// The node.
    pub node: u32,
}

impl Ord for OpenEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: smallest f first, then largest g.
        other
            .f
            .cmp(&self.f)
            .then(self.g.cmp(&other.g))
            .then(other.node.cmp(&self.node))
    }
}

impl PartialOrd for OpenEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
