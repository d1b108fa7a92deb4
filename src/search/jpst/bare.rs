//! The first pass's search: jump point search over the walls alone.
//!
//! The rule is JPST's on a map where nothing moves: vertical moves before
//! horizontal ones, a turn from horizontal to vertical only at a forced
//! cell, and a vertical jump stops where a horizontal jump from it would
//! stop. Every jump scans 64 cells at a time in a [`JumpTable`] of where
//! jumps stop, built once per map; then it looks at the goal. Cells are
//! known by their coordinates packed in one number, never by dense index,
//! so that no division turns one back into a cell. What it knows of the
//! cells it reached sits in a table sized to the search
//! ([`ReachedCells`]), so that its time goes to its jumps and its open list
//! rather than to cache misses on per-cell arrays.

use crate::grid::{Cell, Dir, DirSet, StaticGrid, Tick};

use super::super::goal::Prepared;
use super::super::heuristic::UNREACHABLE;
use super::super::nodes::OpenEntry;
use super::super::open::{OpenList, Stack};
use super::super::plan::{SearchStats, Waypoint, materialise};
use super::super::query::Query;
use super::bare_cells::ReachedCells;
use super::flood::{LANDMARKS, bound};
use super::jump_table::{Ahead, JumpTable};

/// Reusable state of the first pass's search, and the table of the last
/// map it searched.
#[derive(Debug, Default)]
pub(super) struct BareSearch {
    table: Option<JumpTable>,
    /// The cells this search reached, with their steps from the start.
    reached: ReachedCells,
    /// Served last in, first out within an f-value: a jump point's
    /// successors lie further on, so this is close to the deeper-first
    /// tie-break and costs no sifting.
    open: OpenList<Stack>,
}

impl BareSearch {
    /// A shortest path over the walls alone from the query's start to its
    /// goal, one cell per step, or `None` if there is none, it would end
    /// past the horizon, or the budget runs out. Counts expansions and
    /// generated jump points in `stats`.
    ///
    /// Where the query's estimate is the Manhattan distance, `landmarks`
    /// (the landmark distances of every cell, or none) raise it wherever
    /// they bound the walk higher: both are consistent, so their maximum
    /// is too, and the path found is as short.
    pub(super) fn path(
        &mut self,
        walls: &StaticGrid,
        query: &Query,
        p: &Prepared,
        landmarks: &[[u16; LANDMARKS]],
        stats: &mut SearchStats,
    ) -> Option<Vec<Cell>> {
        if !self.table.as_ref().is_some_and(|t| t.is_for(walls)) {
            self.table = Some(JumpTable::new(walls));
        }
        self.reached.clear();
        self.open.clear();
        let start = key_of(query.start);
        let goal = key_of(query.goal);
        let estimate = Estimate {
            p,
            landmarks: if p.h.has_table() { &[] } else { landmarks },
            goal: landmarks.get(walls.index(query.goal)).copied(),
        };
        self.touch(start, 0, start, DirSet::ALL);
        self.push(walls, &estimate, query.start_tick, query.start, 0)?;
        while let Some(entry) = self.open.pop() {
            let here = entry.node;
            let g = entry.g - query.start_tick;
            let Some(link) = self.reached.get_mut(here).filter(|r| r.steps == g) else {
                continue;
            };
            let todo = link.dirs.minus(link.done);
            if todo.is_empty() {
                continue;
            }
            // The checks below either end the search or go in these
            // directions: they count as gone in from here on.
            link.done = link.done.union(todo);
            if p.beyond_horizon(entry.f).is_err() {
                return None;
            }
            if here == goal {
                return Some(self.cells_to(here));
            }
            if query.budget.is_some_and(|b| stats.expanded >= b) {
                return None;
            }
            stats.expanded += 1;
            let cell = cell_at(here);
            for dir in todo.iter() {
                let Some((to, dirs)) = self.jump(walls, cell, dir, query.goal) else {
                    continue;
                };
                let k = to.manhattan(cell);
                if self.touch(key_of(to), g + k, here, dirs) {
                    stats.generated += 1;
                    // A cell the goal cannot be reached from is not queued.
                    let _ = self.push(walls, &estimate, query.start_tick, to, g + k);
                }
            }
        }
        None
    }

    /// Records reaching the cell of key `cell` after `g` steps from jump
    /// point `parent`, to go on in `dirs`; true if that is new (an earlier
    /// arrival, or directions not known at this one).
    fn touch(&mut self, cell: u32, g: u32, parent: u32, dirs: DirSet) -> bool {
        let known = self.reached.entry(cell);
        if g < known.steps {
            known.steps = g;
            known.parent = parent;
            known.dirs = dirs;
            known.done = DirSet::EMPTY;
            true
        } else if g == known.steps && !dirs.is_subset(known.dirs) {
            known.dirs = known.dirs.union(dirs);
            true
        } else {
            false
        }
    }

    /// Queues `cell`, reached after `g` steps; `None` if the goal cannot be
    /// reached from it.
    fn push(
        &mut self,
        walls: &StaticGrid,
        estimate: &Estimate,
        start_tick: Tick,
        cell: Cell,
        g: u32,
    ) -> Option<()> {
        let h = estimate.at(walls, cell)?;
        let g = start_tick + g;
        self.open.push(OpenEntry {
            f: u64::from(g) + u64::from(h),
            g,
            node: key_of(cell),
        });
        Some(())
    }

    /// Where a jump from `from` in `dir` stops, with the directions to go
    /// on in there; `None` if it runs into a wall first.
    fn jump(&self, walls: &StaticGrid, from: Cell, dir: Dir, goal: Cell) -> Option<(Cell, DirSet)> {
        let table = self.table.as_ref().expect("built before the search");
        let (mut steps, limit) = match table.ahead(walls, from.x, from.y, dir) {
            Ahead::Stop(k) => (Some(k), k),
            Ahead::Wall(k) => (None, k),
        };
        // The goal ahead, or (for a vertical jump) in a row it crosses and
        // walkable to from there.
        let (along, across) = if dir.is_vertical() {
            (goal.y.abs_diff(from.y), goal.x.abs_diff(from.x))
        } else {
            (goal.x.abs_diff(from.x), goal.y.abs_diff(from.y))
        };
        let ahead = match dir {
            Dir::North => goal.y < from.y,
            Dir::South => goal.y > from.y,
            Dir::East => goal.x > from.x,
            Dir::West => goal.x < from.x,
        };
        if ahead && along <= limit && steps.is_none_or(|k| along < k) {
            // No horizontal jump from the goal's row stops before the
            // vertical one would (that row would stop it): the way to the
            // goal is open if no wall comes first.
            let reaches = across == 0
                || dir.is_vertical() && {
                    let side = if goal.x > from.x {
                        Dir::East
                    } else {
                        Dir::West
                    };
                    let way = table.ahead(walls, from.x, goal.y, side);
                    matches!(way, Ahead::Stop(k) | Ahead::Wall(k) if across <= k)
                };
            if reaches {
                steps = Some(along);
            }
        }
        let steps = steps?;
        let (dx, dy) = dir.delta();
        let to = Cell::new(
            from.x.wrapping_add_signed(dx * steps as i32),
            from.y.wrapping_add_signed(dy * steps as i32),
        );
        let dirs = if dir.is_vertical() {
            dir.bit().union(DirSet::HORIZONTAL)
        } else {
            forced_sides(walls, to, dir).fold(dir.bit(), |set, side| set.union(side.bit()))
        };
        Some((to, dirs))
    }

    /// The path from the start to jump point `last`, one cell per step.
    fn cells_to(&self, last: u32) -> Vec<Cell> {
        // Jump points lie in a line with their parents and are reached one
        // step per tick: their waypoints expand to the same cells.
        let reached = |at: u32| *self.reached.get(at).expect("reached by the search");
        let waypoint = |at: u32| Waypoint {
            cell: cell_at(at),
            tick: reached(at).steps,
        };
        let mut points = vec![waypoint(last)];
        let mut at = last;
        while reached(at).parent != at {
            at = reached(at).parent;
            points.push(waypoint(at));
        }
        points.reverse();
        materialise(&points)
    }
}

/// The first pass's estimate of the steps left: the query's, raised to
/// the landmarks' bound where they have one.
struct Estimate<'a> {
    p: &'a Prepared,
    /// The landmark distances of every cell, or none.
    landmarks: &'a [[u16; LANDMARKS]],
    /// The goal's landmark distances, if any.
    goal: Option<[u16; LANDMARKS]>,
}

impl Estimate<'_> {
    /// The estimate at `cell`; `None` if the goal cannot be reached from it.
    #[inline]
    fn at(&self, walls: &StaticGrid, cell: Cell) -> Option<u32> {
        let i = walls.index(cell);
        let h = self.p.h.at(cell, i);
        if h == UNREACHABLE {
            return None;
        }
        match (self.landmarks.get(i), self.goal) {
            (Some(&here), Some(goal)) => Some(h.max(bound(here, goal))),
            _ => Some(h),
        }
    }
}

/// The key of `cell` in the search: its coordinates in one number (a map's
/// sides are at most 2^16 cells), so that no division turns a key back into
/// a cell, as a dense index would need.
#[inline]
fn key_of(cell: Cell) -> u32 {
    cell.y << 16 | cell.x
}

/// The cell of key `key`.
#[inline]
fn cell_at(key: u32) -> Cell {
    Cell::new(key & 0xffff, key >> 16)
}

/// The vertical directions in which walkable cell `at`, entered by a move
/// in horizontal direction `dir`, is forced to turn: the side cell is
/// walkable and the cell diagonally behind it is not (or is off the map).
fn forced_sides(walls: &StaticGrid, at: Cell, dir: Dir) -> impl Iterator<Item = Dir> {
    let rows = walls.rows();
    let (x, y) = (i64::from(at.x), i64::from(at.y));
    let back = x - i64::from(dir.delta().0);
    [(Dir::North, -1), (Dir::South, 1)]
        .into_iter()
        .filter(move |&(_, dy)| rows.get_padded(x, y + dy) && !rows.get_padded(back, y + dy))
        .map(|(side, _)| side)
}

#[cfg(test)]
mod tests {
    use super::super::flood::find_landmarks;
    use super::super::test_rng::Rng;
    use super::*;
    use crate::grid::NavGrid;
    use crate::search::Heuristic;
    use crate::search::heuristic::{HeuristicCache, bfs_from};

    #[test]
    fn bare_paths_are_shortest_walks_over_the_walls() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut search = BareSearch::default();
        let mut cache = HeuristicCache::new(2);
        let mut grid = NavGrid::new(StaticGrid::open(1, 1).expect("map"));
        let mut found = 0;
        let mut landmarks = Vec::new();
        for case in 0..3000 {
            // Now and then the same map with one cell changed: the table
            // must follow the walls.
            if case % 5 != 4 {
                let w = 1 + rng.below(if case % 5 == 0 { 150 } else { 12 });
                let h = 1 + rng.below(if case % 5 == 1 { 150 } else { 12 });
                let density = rng.below(45);
                let open: Vec<bool> = (0..w * h).map(|_| rng.below(100) >= density).collect();
                let walls = StaticGrid::from_fn(w, h, |c| open[(c.y * w + c.x) as usize]);
                grid = NavGrid::new(walls.expect("map"));
            } else {
                let cell = Cell::new(rng.below(grid.width()), rng.below(grid.height()));
                let was = grid.walls().is_passable(cell);
                grid.walls_mut()
                    .set_passable(cell, !was)
                    .expect("on the map");
            }
            let (w, h) = (grid.width(), grid.height());
            let start = Cell::new(rng.below(w), rng.below(h));
            let goal = Cell::new(rng.below(w), rng.below(h));
            let query = Query::new(start, goal);
            let heuristic = if case % 3 == 0 {
                Heuristic::Perfect2D
            } else {
                Heuristic::Manhattan
            };
            let Ok(p) = Prepared::new(&grid, &query, heuristic, &mut cache) else {
                continue;
            };
            let want = bfs_from(grid.walls(), goal)[grid.walls().index(start)];
            // A third of the searches raise the Manhattan estimate to the
            // landmarks' bound.
            landmarks.clear();
            if case % 3 == 1 {
                landmarks.resize(grid.walls().cell_count(), [0; LANDMARKS]);
                find_landmarks(grid.walls(), start, &mut landmarks);
            }
            let mut stats = SearchStats::default();
            let got = search.path(grid.walls(), &query, &p, &landmarks, &mut stats);
            let Some(cells) = got else {
                assert_eq!(want, UNREACHABLE, "case {case}: {w}x{h} {start} -> {goal}");
                continue;
            };
            found += 1;
            assert_eq!(
                cells.len() as u32 - 1,
                want,
                "case {case}: {w}x{h} {start} -> {goal}"
            );
            assert_eq!((cells[0], cells[cells.len() - 1]), (start, goal));
            for pair in cells.windows(2) {
                assert_eq!(pair[0].manhattan(pair[1]), 1, "case {case}");
                assert!(grid.walls().is_passable(pair[1]), "case {case}");
            }
        }
        assert!(found > 1000, "only {found} paths checked");
    }
}
