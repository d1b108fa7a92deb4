//! Admissible estimates of the remaining cost: Manhattan and Perfect-2D.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use crate::grid::{Cell, StaticGrid};

use super::query::Heuristic;

/// Marks a cell from which the goal cannot be reached even ignoring time.
pub(crate) const UNREACHABLE: u32 = u32::MAX;

/// Perfect-2D tables (static breadth-first distances to a goal), kept for the
/// most recently used goals so queries that share a goal share the table.
/// Tables are tied to the walls' [`StaticGrid::revision`] and rebuilt when
/// the walls change.
#[derive(Clone, Debug)]
pub struct HeuristicCache {
    capacity: usize,
    tables: VecDeque<(u64, Cell, Arc<[u32]>)>,
}

impl Default for HeuristicCache {
    fn default() -> Self {
        Self::new(16)
    }
}

impl HeuristicCache {
    /// A cache holding at most `capacity` tables (at least one).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            tables: VecDeque::new(),
        }
    }

    /// Whether the table of `goal` for `walls` is kept.
    pub fn holds(&self, walls: &StaticGrid, goal: Cell) -> bool {
        self.position(walls, goal).is_some()
    }

    /// Where the table of `goal` for `walls` is kept, if it is.
    fn position(&self, walls: &StaticGrid, goal: Cell) -> Option<usize> {
        let revision = walls.revision();
        self.tables
            .iter()
            .position(|(r, g, _)| *r == revision && *g == goal)
    }

    /// The static distance from every cell to `goal` (`u32::MAX` where the
    /// goal cannot be reached), and the microseconds spent building it (0 on
    /// a cache hit).
    pub fn distances(&mut self, walls: &StaticGrid, goal: Cell) -> (Arc<[u32]>, u64) {
        if let Some(pos) = self.position(walls, goal) {
            let entry = self.tables.remove(pos).expect("position is valid");
            let table = entry.2.clone();
            self.tables.push_front(entry);
            return (table, 0);
        }
        let started = Instant::now();
        let table: Arc<[u32]> = bfs_from(walls, goal).into();
        let micros = started.elapsed().as_micros() as u64;
        if self.tables.len() == self.capacity {
            self.tables.pop_back();
        }
        self.tables
            .push_front((walls.revision(), goal, table.clone()));
        (table, micros)
    }
}

/// Breadth-first distances over walkable cells from `goal`.
///
/// A level at a time over dense indices: a cell's neighbours are one index
/// or one row away, and a cell not yet reached reads [`UNREACHABLE`], so
/// one read and one wall bit decide each neighbour.
pub(crate) fn bfs_from(walls: &StaticGrid, goal: Cell) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; walls.cell_count()];
    if !walls.is_passable(goal) {
        return dist;
    }
    let (w, h) = (walls.width(), walls.height());
    let width = w as usize;
    let rows = walls.rows();
    // Cells in the order reached, with their coordinates.
    let mut queue: Vec<(u32, u32)> = Vec::with_capacity(walls.cell_count() / 4 + 1);
    dist[walls.index(goal)] = 0;
    queue.push((goal.x, goal.y));
    let mut head = 0;
    while let Some(&(x, y)) = queue.get(head) {
        head += 1;
        let i = y as usize * width + x as usize;
        let d = dist[i] + 1;
        let mut reach = |n: usize, nx: u32, ny: u32| {
            if dist[n] == UNREACHABLE && rows.get(nx, ny) {
                dist[n] = d;
                queue.push((nx, ny));
            }
        };
        if y > 0 {
            reach(i - width, x, y - 1);
        }
        if y + 1 < h {
            reach(i + width, x, y + 1);
        }
        if x > 0 {
            reach(i - 1, x - 1, y);
        }
        if x + 1 < w {
            reach(i + 1, x + 1, y);
        }
    }
    dist
}

/// The heuristic of one query, ready to evaluate.
#[derive(Clone, Debug)]
pub(crate) struct GoalDistance {
    goal: Cell,
    width: usize,
    table: Option<Arc<[u32]>>,
}

impl GoalDistance {
    /// Prepares `kind` for `goal`; returns it with the table build time.
    pub(crate) fn new(
        kind: Heuristic,
        cache: &mut HeuristicCache,
        walls: &StaticGrid,
        goal: Cell,
    ) -> (Self, u64) {
        let (table, micros) = match kind {
            Heuristic::Manhattan => (None, 0),
            Heuristic::Perfect2D => {
                let (t, us) = cache.distances(walls, goal);
                (Some(t), us)
            }
        };
        let h = Self {
            goal,
            width: walls.width() as usize,
            table,
        };
        (h, micros)
    }

    /// Whether the estimate comes from a table of walking distances.
    pub(crate) fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// The estimate at `cell` (dense index `index`); [`UNREACHABLE`] when the
    /// goal is statically unreachable from it.
    #[inline]
    pub(crate) fn at(&self, cell: Cell, index: usize) -> u32 {
        match &self.table {
            Some(t) => t[index],
            None => cell.manhattan(self.goal),
        }
    }

    /// The estimate at the dense index `index`.
    #[inline]
    pub(crate) fn at_index(&self, index: usize) -> u32 {
        match &self.table {
            Some(t) => t[index],
            None => {
                let cell = Cell::new((index % self.width) as u32, (index / self.width) as u32);
                cell.manhattan(self.goal)
            }
        }
    }
}
