//! Jumps along rows and columns: where a straight run stops and why.
//!
//! A jump walks from a node in one direction and reports the first *jump
//! point*: the goal; a cell whose 3x3 neighbourhood can still change at the
//! arrival tick or later (it becomes a full node, expanded like a SIPP state
//! with waits, in all four directions but the vertical sides a horizontal
//! arrival could have turned to one cell earlier); a cell with a forced vertical
//! neighbour (horizontal jumps); or the cell at the jump limit. A wall ends a
//! jump with nothing (a dead end). A cell an obstacle has parked on for good
//! (blocked for ever from the arrival tick or before) counts as a wall: it
//! no longer changes. Every cell between the origin and the jump point is
//! quiet, so nothing in time can interfere there and 4-connected JPS pruning
//! is exact; only the first step can meet an obstacle (the origin need not
//! be quiet).
//!
//! Horizontal jumps test 64 cells at a time: the candidates of a window are
//! `forced-above | forced-below | wall | near-temporal | goal | limit`, where
//! near-temporal and the parked cells among the walls come from the time
//! layer of the jump's start tick, so cells whose obstacles have all passed
//! or parked are skipped too.

use crate::grid::{BitRows, Cell, Dir, DirSet, FOREVER, NavGrid, StaticGrid, TemporalMap, Tick};

use super::search::Arrival;

/// A jump point found by a scan: a successor of the node that was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct JumpPoint {
    /// The cell.
    pub at: Cell,
    /// Arrival tick.
    pub tick: Tick,
    /// How it is entered: the directions to continue in from there (wait
    /// successors are always considered as well), or, for a full node
    /// entered by a horizontal move, that move, whose directions
    /// [`Scanner::full_node_dirs`] works out only if the node is expanded
    /// (or entered again at the same tick).
    pub arrival: Arrival,
}

impl JumpPoint {
    /// A jump point queued by its own f-value.
    #[inline]
    fn new(at: Cell, tick: Tick, dirs: DirSet) -> Self {
        Self {
            at,
            tick,
            arrival: Arrival::Dirs(dirs),
        }
    }

    /// A full node entered by a horizontal move in direction `dir`.
    #[inline]
    fn full_sideways(at: Cell, tick: Tick, dir: Dir) -> Self {
        Self {
            at,
            tick,
            arrival: Arrival::Sideways(dir),
        }
    }
}

/// Whether a jump goes on after visiting a cell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    Continue,
    Stop,
}

/// Everything a scan reads, for one query.
pub(super) struct Scanner<'a> {
    walls: &'a StaticGrid,
    rows: &'a BitRows,
    obstacles: &'a TemporalMap,
    width: u32,
    height: u32,
    goal: Cell,
    limit: u32,
}

impl<'a> Scanner<'a> {
    /// A scanner over `grid` for a query to `goal`, capping every jump at
    /// `limit` steps.
    pub(super) fn new(grid: &'a NavGrid, goal: Cell, limit: u32) -> Self {
        let walls = grid.walls();
        Self {
            walls,
            rows: walls.rows(),
            obstacles: grid.obstacles(),
            width: walls.width(),
            height: walls.height(),
            goal,
            limit: limit.max(1),
        }
    }

    #[inline]
    fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// The near layer and the parked cells for scans leaving at `tick`; no
    /// near layer on a map without moving obstacles (it would be all zero:
    /// not reading it keeps it out of the caches).
    #[inline]
    fn layers_at(&self, tick: Tick) -> (Option<&BitRows>, Option<&BitRows>) {
        if self.obstacles.touched_cells() == 0 {
            return (None, None);
        }
        let (near, parked) = self.obstacles.layers_at(tick);
        (Some(near), parked)
    }

    /// The jump limit for a jump leaving at `tick`: never past `FOREVER - 1`.
    #[inline]
    fn limit_from(&self, tick: Tick) -> u32 {
        self.limit.min(FOREVER - 1 - tick)
    }

    /// Can the agent enter dense cell `to` at `tick`, arriving by a move in
    /// direction `dir`: free then, and no obstacle coming the other way?
    #[inline]
    fn can_enter(&self, to: usize, tick: Tick, dir: Dir) -> bool {
        self.obstacles.can_enter(to, tick, dir.reverse())
    }

    /// Is `(x, y)` on the map, walkable and not blocked for ever at `t`?
    #[inline]
    fn open(&self, x: i64, y: i64, t: Tick) -> bool {
        x >= 0
            && y >= 0
            && x < self.width as i64
            && y < self.height as i64
            && self.rows.get(x as u32, y as u32)
            && self.obstacles.wall_from(self.index(x as u32, y as u32)) > t
    }

    /// Vertical sides of quiet cell `(x, y)`, entered at `t`, that are forced
    /// for a horizontal move in direction `dir`: the side cell is walkable
    /// but the cell diagonally behind is a wall (or blocked for ever), so the
    /// vertical-first way round is cut.
    #[inline]
    fn forced_sides(&self, x: u32, y: u32, t: Tick, dir: Dir) -> DirSet {
        let behind = if dir == Dir::East {
            x as i64 - 1
        } else {
            x as i64 + 1
        };
        let mut forced = DirSet::EMPTY;
        for (side, sy) in [(Dir::North, y as i64 - 1), (Dir::South, y as i64 + 1)] {
            if self.open(x as i64, sy, t) && !self.open(behind, sy, t) {
                forced = forced.union(side.bit());
            }
        }
        forced
    }

    /// The directions of a full node at `(x, y)` entered at `t` by a move in
    /// direction `dir` (all four after a vertical move; the canonical order
    /// lets a horizontal turn follow one). After a horizontal move: all but
    /// each vertical side the agent could as well have turned to one cell
    /// earlier. From the cell behind at `t - 1`, stepping to its side at `t`
    /// and then along to the side of `(x, y)` at `t + 1` arrives just as
    /// early, and the canonical order puts vertical moves first. That needs
    /// the corner walkable and free at `t` and neither move swapping with an
    /// obstacle; the side is dropped when the flat per-cell bounds prove it
    /// (no activity at the corner at `t - 1` or `t`, none leaving the side
    /// cell at `t`). Waits into the side's later intervals are still
    /// generated (they are not turns).
    #[inline]
    pub(super) fn full_node_dirs(&self, x: u32, y: u32, t: Tick, dir: Dir) -> DirSet {
        let behind = match dir {
            Dir::East if x > 0 => x - 1,
            Dir::West if x + 1 < self.width => x + 1,
            _ => return DirSet::ALL,
        };
        let mut dirs = DirSet::ALL;
        for side in [Dir::North, Dir::South] {
            let sy = match side {
                Dir::North if y > 0 => y - 1,
                Dir::South if y + 1 < self.height => y + 1,
                _ => continue,
            };
            // A walled side goes nowhere anyway; a walled corner cannot
            // be turned at.
            if !self.rows.get(x, sy) || !self.rows.get(behind, sy) {
                continue;
            }
            // Flat reads only: activity around these ticks keeps the side.
            // The exact test reads timelines, and measured slower.
            let (corner, beside) = (self.index(behind, sy), self.index(x, sy));
            if self.obstacles.idle_during(corner, t - 1, t)
                && self.obstacles.idle_during(beside, t, t)
            {
                dirs = dirs.minus(side.bit());
            }
        }
        dirs
    }

    /// [`full_node_dirs`](Self::full_node_dirs) of dense cell `cell`.
    #[inline]
    pub(super) fn full_node_dirs_of(&self, cell: u32, t: Tick, dir: Dir) -> DirSet {
        self.full_node_dirs(cell % self.width, cell / self.width, t, dir)
    }

    /// Visits walkable cell `(x, y)`, entered at `t` after `steps` horizontal
    /// steps in `dir`; emits a jump point if it is one.
    #[allow(clippy::too_many_arguments)] // the state of one step of a jump
    #[inline]
    fn visit_horizontal(
        &self,
        x: u32,
        y: u32,
        t: Tick,
        dir: Dir,
        steps: u32,
        limit: u32,
        out: &mut Vec<JumpPoint>,
    ) -> Visit {
        let cell = self.index(x, y);
        if self.obstacles.near_change_end(cell) >= t {
            // Temporal activity around: a full (SIPP-like) node.
            if self.can_enter(cell, t, dir) {
                out.push(JumpPoint::full_sideways(Cell::new(x, y), t, dir));
            }
            return Visit::Stop;
        }
        if self.obstacles.wall_from(cell) <= t {
            return Visit::Stop; // parked for good: a dead end
        }
        if x == self.goal.x && y == self.goal.y {
            out.push(JumpPoint::new(Cell::new(x, y), t, DirSet::ALL));
            return Visit::Stop;
        }
        let forced = self.forced_sides(x, y, t, dir);
        if !forced.is_empty() || steps >= limit {
            out.push(JumpPoint::new(Cell::new(x, y), t, dir.bit().union(forced)));
            return Visit::Stop;
        }
        Visit::Continue
    }

    /// Horizontal jump from `(x0, y)` at `tick` in direction `dir` (East or
    /// West).
    pub(super) fn horizontal(
        &self,
        x0: u32,
        y: u32,
        tick: Tick,
        dir: Dir,
        out: &mut Vec<JumpPoint>,
    ) {
        let limit = self.limit_from(tick);
        if limit == 0 {
            return;
        }
        let x1 = match dir {
            Dir::East if x0 + 1 < self.width => x0 + 1,
            Dir::West if x0 > 0 => x0 - 1,
            _ => return,
        };
        // The first step is the only one that can meet an obstacle without
        // its cell being a candidate: the origin need not be quiet.
        let c1 = self.index(x1, y);
        if !self.rows.get(x1, y) || !self.can_enter(c1, tick + 1, dir) {
            return;
        }
        if self.obstacles.near_change_end(c1) > tick {
            // Temporal activity around the first cell: a full node there.
            out.push(JumpPoint::full_sideways(Cell::new(x1, y), tick + 1, dir));
            return;
        }
        if dir == Dir::East {
            self.run_east(x0, y, tick, limit, out);
        } else {
            self.run_west(x0, y, tick, limit, out);
        }
    }

    /// Stop candidates common to both directions, for a window whose bits
    /// are aligned so bit `k` is the `k`-th cell of the window.
    #[inline]
    fn candidates(
        mid: u64,
        up: u64,
        up_behind: u64,
        down: u64,
        down_behind: u64,
        near: u64,
    ) -> u64 {
        (up & !up_behind) | (down & !down_behind) | !mid | near
    }

    /// Bit-parallel eastward jump from `x0`, whose first step is known to be
    /// possible.
    fn run_east(&self, x0: u32, y: u32, tick: Tick, limit: u32, out: &mut Vec<JumpPoint>) {
        let yi = y as i64;
        let (near, parked) = self.layers_at(tick);
        let open = |x: u32, y: i64| {
            let bits = self.rows.window_right(x, y);
            parked.map_or(bits, |p| bits & !p.window_right(x, y))
        };
        let mut next = x0 + 1;
        let limit_x = x0 as u64 + limit as u64;
        loop {
            let mid = open(next, yi);
            let mut stops = Self::candidates(
                mid,
                open(next, yi - 1),
                open(next - 1, yi - 1),
                open(next, yi + 1),
                open(next - 1, yi + 1),
                near.map_or(0, |n| n.window_right(next, yi)),
            );
            if self.goal.y == y && self.goal.x >= next && self.goal.x - next < 64 {
                stops |= 1 << (self.goal.x - next);
            }
            if limit_x >= next as u64 && limit_x - (next as u64) < 64 {
                stops |= 1 << (limit_x - next as u64);
            }
            while stops != 0 {
                let k = stops.trailing_zeros();
                if mid >> k & 1 == 0 {
                    return; // a wall: dead end
                }
                let x = next + k;
                let steps = x - x0;
                if self.visit_horizontal(x, y, tick + steps, Dir::East, steps, limit, out)
                    == Visit::Stop
                {
                    return;
                }
                stops &= stops - 1;
            }
            next += 64;
        }
    }

    /// Bit-parallel westward jump from `x0`, whose first step is known to be
    /// possible.
    fn run_west(&self, x0: u32, y: u32, tick: Tick, limit: u32, out: &mut Vec<JumpPoint>) {
        let yi = y as i64;
        let (near, parked) = self.layers_at(tick);
        let open = |x: u32, y: i64| {
            let bits = self.rows.window_left(x, y);
            parked.map_or(bits, |p| bits & !p.window_left(x, y))
        };
        let mut next = x0 - 1;
        let limit_x = x0 as i64 - limit as i64;
        loop {
            // Bit 63 - k is cell next - k.
            let mid = open(next, yi);
            let mut stops = Self::candidates(
                mid,
                open(next, yi - 1),
                open(next + 1, yi - 1),
                open(next, yi + 1),
                open(next + 1, yi + 1),
                near.map_or(0, |n| n.window_left(next, yi)),
            );
            if self.goal.y == y && self.goal.x <= next && next - self.goal.x < 64 {
                stops |= 1 << (63 - (next - self.goal.x));
            }
            if limit_x <= next as i64 && (next as i64 - limit_x) < 64 {
                stops |= 1 << (63 - (next as i64 - limit_x));
            }
            while stops != 0 {
                let k = stops.leading_zeros();
                if mid >> (63 - k) & 1 == 0 {
                    return;
                }
                let x = next - k;
                let steps = x0 - x;
                if self.visit_horizontal(x, y, tick + steps, Dir::West, steps, limit, out)
                    == Visit::Stop
                {
                    return;
                }
                stops &= !(1u64 << (63 - k));
            }
            if next < 64 {
                return; // the next window starts off the map
            }
            next -= 64;
        }
    }

    /// Vertical jump from `(x, y0)` at `tick` in direction `dir` (North or
    /// South). From every cell it passes it launches both horizontal jumps,
    /// whose jump points are successors too (vertical moves first, then
    /// horizontal ones). It stops at the first cell whose horizontal jumps
    /// found anything, which becomes a node that goes on in `dir` only: the
    /// rest of the column is scanned when (and if) that node is expanded, so
    /// a column swept from a node far from the goal costs little.
    pub(super) fn vertical(&self, x: u32, y0: u32, tick: Tick, dir: Dir, out: &mut Vec<JumpPoint>) {
        let limit = self.limit_from(tick);
        let mut y = y0;
        for steps in 1..=limit {
            y = match dir {
                Dir::South if y + 1 < self.height => y + 1,
                Dir::North if y > 0 => y - 1,
                _ => return,
            };
            let cell = self.index(x, y);
            let t = tick + steps;
            if !self.rows.get(x, y) || self.obstacles.wall_from(cell) <= t {
                return;
            }
            if self.obstacles.near_change_end(cell) >= t || steps == 1 {
                if !self.can_enter(cell, t, dir) {
                    return;
                }
                if self.obstacles.near_change_end(cell) >= t {
                    // Temporal activity around: a full (SIPP-like) node.
                    out.push(JumpPoint::new(Cell::new(x, y), t, DirSet::ALL));
                    return;
                }
            }
            if x == self.goal.x && y == self.goal.y {
                out.push(JumpPoint::new(Cell::new(x, y), t, DirSet::ALL));
                return;
            }
            if steps == limit {
                let dirs = dir.bit().union(DirSet::HORIZONTAL);
                out.push(JumpPoint::new(Cell::new(x, y), t, dirs));
                return;
            }
            let found = out.len();
            self.horizontal(x, y, t, Dir::East, out);
            self.horizontal(x, y, t, Dir::West, out);
            if out.len() > found {
                // The cell is quiet, so its arrival can wait for the queue.
                out.push(JumpPoint::new(Cell::new(x, y), t, dir.bit()));
                return;
            }
        }
    }

    /// The walls.
    pub(super) fn walls(&self) -> &StaticGrid {
        self.walls
    }

    /// The temporal obstacles.
    pub(super) fn obstacles(&self) -> &TemporalMap {
        self.obstacles
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Interval;

    /// A 5x3 open map with the goal far away; the full node sits at (2, 1),
    /// entered eastward at tick 10 from (1, 1).
    fn dirs_with(edit: impl FnOnce(&mut NavGrid)) -> DirSet {
        let walls = StaticGrid::from_fn(5, 3, |c| c != Cell::new(1, 2)).unwrap();
        let mut grid = NavGrid::new(walls);
        edit(&mut grid);
        let scanner = Scanner::new(&grid, Cell::new(4, 1), u32::MAX);
        scanner.full_node_dirs(2, 1, 10, Dir::East)
    }

    #[test]
    fn full_nodes_drop_the_sides_a_turn_one_cell_earlier_reaches() {
        // North: corner (1, 0) calm, so the side goes. South: corner (1, 2)
        // is a wall, so the side stays.
        let all_but_north = DirSet::ALL.minus(Dir::North.bit());
        assert_eq!(dirs_with(|_| {}), all_but_north);
        // Activity wholly before or wholly after the turn does not matter.
        for span in [Interval::new(2, 8), Interval::new(11, 50)] {
            assert_eq!(
                dirs_with(|g| g.obstacles_mut().block(1, span)),
                all_but_north
            );
        }
        // Activity on both sides of it keeps the side: the flat bounds
        // cannot tell that the corner is free in between.
        assert_eq!(
            dirs_with(|g| {
                g.obstacles_mut().block(1, Interval::new(2, 3));
                g.obstacles_mut().block(1, Interval::new(40, 50));
            }),
            DirSet::ALL
        );
        // The corner blocked at the turn, an obstacle leaving it just
        // before, or one leaving the side cell toward it: the side stays.
        assert_eq!(
            dirs_with(|g| g.obstacles_mut().block(1, Interval::new(10, 10))),
            DirSet::ALL
        );
        assert_eq!(
            dirs_with(|g| g.obstacles_mut().add_departure(1, 9, Dir::West)),
            DirSet::ALL
        );
        assert_eq!(
            dirs_with(|g| g.obstacles_mut().add_departure(2, 10, Dir::West)),
            DirSet::ALL
        );
    }
}
