//! JPST's temporal search: A* over (cell, safe interval) states like
//! SIPP, whose successors are jump points (see the module above).

use crate::grid::{Dir, DirSet, NavGrid, Tick};

use super::super::error::PlanError;
use super::super::goal::Prepared;
use super::super::heuristic::UNREACHABLE;
use super::super::nodes::{Node, NodeTable, OpenEntry};
use super::super::open::{OpenList, Stack};
use super::super::plan::{Plan, SearchStats};
use super::super::query::Query;
use super::super::step::step_into;
use super::scan::{JumpPoint, Scanner};

/// The settings and reusable buffers of one JPST search.
#[derive(Debug, Default)]
pub(super) struct JpstSearch {
    /// Most cells one jump goes (see [`Jpst::with_jump_limit`](super::Jpst::with_jump_limit)).
    pub(super) jump_limit: u32,
    /// Whether wait successors are expanded at once (see
    /// [`Jpst::with_speculative_wait`](super::Jpst::with_speculative_wait)).
    pub(super) speculative_wait: bool,
    nodes: NodeTable,
    open: OpenList<Stack>,
    successors: Vec<JumpPoint>,
    waits: Vec<u32>,
}

/// Makes a query's preparation with walking distances as its estimate
/// (see `walk_estimate.rs`).
pub(super) type OnFoot<'a> = dyn FnMut() -> Result<Prepared, PlanError> + 'a;

impl JpstSearch {
    /// A search whose jumps stop after `jump_limit` cells, without
    /// speculative waits.
    pub(super) fn new(jump_limit: u32) -> Self {
        Self {
            jump_limit,
            ..Self::default()
        }
    }

    /// Searches from `query`'s start, guided by `first`'s estimate; once
    /// `on_foot`'s expansions are reached (if given), by the estimate it
    /// makes from then on. Entries already queued keep their f-values,
    /// which stay lower bounds, so the answer stays optimal.
    pub(super) fn run(
        &mut self,
        grid: &NavGrid,
        query: &Query,
        first: &Prepared,
        goal_ready: Tick,
        stats: &mut SearchStats,
        mut on_foot: Option<(u64, &mut OnFoot)>,
    ) -> Result<Plan, PlanError> {
        let p = first;
        let walls = grid.walls();
        let width = walls.width() as usize;
        let scanner = Scanner::new(grid, query.goal, self.jump_limit);
        self.open.clear();
        self.waits.clear();
        let root = self.nodes.start_at(grid, p.start, query.start_tick)?;
        self.nodes.nodes[root as usize].dirs = DirSet::ALL;
        self.open.push(OpenEntry {
            f: query.start_tick as u64 + p.h.at_index(p.start) as u64,
            g: query.start_tick,
            node: root,
        });

        let mut switched: Option<Prepared> = None;
        loop {
            if let Some((after, make)) = on_foot.as_mut()
                && stats.expanded >= *after
            {
                switched = Some(make()?);
                on_foot = None;
            }
            let p = switched.as_ref().unwrap_or(first);
            let Some(entry) = self.open.pop() else {
                break;
            };
            let id = entry.node;
            let node = self.nodes.nodes[id as usize];
            if node.g != entry.g || is_done(&node) {
                continue;
            }
            p.beyond_horizon(entry.f)?;
            if p.is_goal_from(node.cell as usize, node.g, goal_ready) {
                return Ok(self.nodes.plan_to(id, width));
            }
            if query.budget.is_some_and(|b| stats.expanded >= b) {
                return Err(PlanError::BudgetExhausted {
                    expanded: stats.expanded,
                });
            }
            self.expand(id, &scanner, p, stats);
            // Speculative waits: expand the wait successors just generated
            // right away instead of queueing them, unless they finish the
            // query (the goal test happens when a node leaves the queue).
            while let Some(w) = self.waits.pop() {
                let n = self.nodes.nodes[w as usize];
                if is_done(&n) || p.is_goal_from(n.cell as usize, n.g, goal_ready) {
                    continue;
                }
                self.expand(w, &scanner, p, stats);
            }
        }
        Err(PlanError::Unreachable)
    }

    /// Expands node `id` in the directions it has not been expanded in yet,
    /// and generates its wait successors the first time.
    ///
    /// Toward a neighbour whose 3x3 neighbourhood can still change after
    /// `g` the step is a SIPP step (every reachable safe interval, waiting if
    /// needed); toward a quiet neighbour it is a jump, and no wait can pay
    /// there because nothing will open.
    fn expand(&mut self, id: u32, scanner: &Scanner<'_>, p: &Prepared, stats: &mut SearchStats) {
        stats.expanded += 1;
        settle(&mut self.nodes.nodes[id as usize], scanner);
        let node = self.nodes.nodes[id as usize];
        let todo = node.dirs.minus(node.done);
        let entry = &mut self.nodes.nodes[id as usize];
        entry.done = node.done.union(todo);
        entry.waited = true;
        let walls = scanner.walls();
        let obstacles = scanner.obstacles();
        let cell = node.cell as usize;
        let g = node.g;
        let here = walls.cell_at(cell);
        let stay_until = obstacles.safe_until(cell, node.interval as usize, g);
        let back = self.nodes.came_from(node);
        let mut successors = std::mem::take(&mut self.successors);
        successors.clear();
        for dir in crate::grid::Dir::ALL {
            let scan = todo.contains(dir);
            if !scan && node.waited {
                continue;
            }
            let Some(next) = here.step(dir).filter(|n| walls.is_passable(*n)) else {
                continue;
            };
            let n = walls.index(next);
            if obstacles.near_change_end(n) > g {
                // A SIPP step: its successors are generated right here.
                let h = p.h.at(next, n);
                if h == UNREACHABLE {
                    continue;
                }
                let count = obstacles.interval_count(n);
                let (nodes, open, waits) = (&mut self.nodes, &mut self.open, &mut self.waits);
                let speculative = self.speculative_wait;
                // Back into the cell the agent came from: only the
                // intervals after the one it left can be reached earlier.
                let first = match back {
                    Some((from, left)) if from as usize == n => left + 1,
                    _ => 0,
                };
                step_into(obstacles, n, dir, g, stay_until, scan, first, |tick, k| {
                    let child = nodes.get(n, k as usize, count);
                    let arrival = Arrival::after_move(dir);
                    // Those arriving after g + 1 waited first.
                    if relax(nodes, open, stats, id, child, tick, arrival, h, scanner)
                        && speculative
                        && tick > g.saturating_add(1)
                    {
                        waits.push(child);
                    }
                });
            } else if scan {
                if dir.is_vertical() {
                    scanner.vertical(here.x, here.y, g, dir, &mut successors);
                } else {
                    scanner.horizontal(here.x, here.y, g, dir, &mut successors);
                }
            }
        }
        for s in successors.iter() {
            self.generate(scanner, id, *s, p, stats);
        }
        self.successors = successors;
    }

    /// Records jump point `s`, a successor of node `parent`.
    fn generate(
        &mut self,
        scanner: &Scanner<'_>,
        parent: u32,
        s: JumpPoint,
        p: &Prepared,
        stats: &mut SearchStats,
    ) {
        let obstacles = scanner.obstacles();
        let cell = scanner.walls().index(s.at);
        let h = p.h.at(s.at, cell);
        if h == UNREACHABLE {
            return;
        }
        let Some(interval) = obstacles.interval_at(cell, s.tick) else {
            return;
        };
        let child = self
            .nodes
            .get(cell, interval, obstacles.interval_count(cell));
        relax(
            &mut self.nodes,
            &mut self.open,
            stats,
            parent,
            child,
            s.tick,
            s.arrival,
            h,
            scanner,
        );
    }
}

/// How a node is entered: with the directions to go on in, or by a
/// horizontal move into a full node, whose directions
/// ([`Scanner::full_node_dirs`]) are worked out only if the node is
/// expanded or entered again at the same tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arrival {
    Dirs(DirSet),
    Sideways(Dir),
}

impl Arrival {
    /// A move in direction `dir` into a full node: all four directions
    /// after a vertical move, worked out later after a horizontal one.
    #[inline]
    fn after_move(dir: Dir) -> Self {
        if dir.is_vertical() {
            Arrival::Dirs(DirSet::ALL)
        } else {
            Arrival::Sideways(dir)
        }
    }

    /// The directions to go on in from dense cell `cell`, entered at
    /// `tick`.
    #[inline]
    fn dirs(self, cell: u32, tick: Tick, scanner: &Scanner<'_>) -> DirSet {
        match self {
            Arrival::Dirs(dirs) => dirs,
            Arrival::Sideways(dir) => scanner.full_node_dirs_of(cell, tick, dir),
        }
    }
}

/// Works out the directions of node `c` if its arrival left them for later.
#[inline]
fn settle(c: &mut Node, scanner: &Scanner<'_>) {
    if let Some(dir) = c.turn.take() {
        c.dirs = Arrival::Sideways(dir).dirs(c.cell, c.g, scanner);
    }
}

/// Offers node `child` an arrival at `tick` from `parent`; queues it (f =
/// tick + h) if that is earlier than its known arrival or adds directions
/// at the same tick. Returns whether it did. A sideways arrival's
/// directions are worked out only when the node is expanded, or when
/// another arrival at the same tick needs them.
#[allow(clippy::too_many_arguments)] // one relaxation of one edge
#[inline]
fn relax(
    nodes: &mut NodeTable,
    open: &mut OpenList<Stack>,
    stats: &mut SearchStats,
    parent: u32,
    child: u32,
    tick: Tick,
    arrival: Arrival,
    h: u32,
    scanner: &Scanner<'_>,
) -> bool {
    let c = &mut nodes.nodes[child as usize];
    if tick < c.g {
        c.g = tick;
        (c.dirs, c.turn) = match arrival {
            Arrival::Dirs(dirs) => (dirs, None),
            Arrival::Sideways(dir) => (DirSet::ALL, Some(dir)),
        };
        c.done = DirSet::EMPTY;
        c.waited = false;
        c.parent = parent;
    } else if tick == c.g && (c.dirs != DirSet::ALL || c.turn.is_some()) {
        settle(c, scanner);
        let dirs = arrival.dirs(c.cell, tick, scanner);
        if dirs.is_subset(c.dirs) {
            return false;
        }
        c.dirs = c.dirs.union(dirs);
    } else {
        return false;
    }
    stats.generated += 1;
    open.push(OpenEntry {
        f: tick as u64 + h as u64,
        g: tick,
        node: child,
    });
    true
}

/// True if the node has nothing left to expand at its current g.
#[inline]
fn is_done(node: &Node) -> bool {
    node.waited && node.dirs.is_subset(node.done)
}
