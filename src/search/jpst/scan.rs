//! Jumps along rows and columns: where a straight run stops and why.
//!
//! A jump walks from a node in one direction and reports the first *jump
//! point*: the goal, a cell whose 3x3 neighbourhood still sees temporal
//! activity at the arrival tick ("not quiet"), a cell with a statically forced
//! vertical neighbour (horizontal jumps), or the cell at the jump limit.
//! Between the node and the jump point every cell is quiet, so nothing in
//! time can interfere there and 4-connected JPS pruning is exact.
//!
//! Horizontal jumps test 64 cells at a time: the stop candidates of a window
//! are `forced-above | forced-below | wall | near-temporal | goal | limit`,
//! and only candidates are looked at one by one.

use crate::grid::{BitRows, Cell, Dir, DirSet, FOREVER, NavGrid, StaticGrid, TemporalMap, Tick};

/// A jump point found by a scan: a successor of the node that was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct JumpPoint {
    /// Dense cell index.
    pub cell: usize,
    /// Arrival tick.
    pub tick: Tick,
    /// Directions to continue in from there.
    pub dirs: DirSet,
}

/// Everything a scan reads, for one query.
pub(super) struct Scanner<'a> {
    walls: &'a StaticGrid,
    rows: &'a BitRows,
    obstacles: &'a TemporalMap,
    near: &'a BitRows,
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
            near: grid.obstacles().near_rows(),
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

    /// The jump limit for a jump leaving at `tick`: never past `FOREVER - 1`.
    #[inline]
    fn limit_from(&self, tick: Tick) -> u32 {
        self.limit.min(FOREVER - 1 - tick)
    }

    /// The first move of a jump, from `from` at `tick` into dense cell `to` in
    /// direction `dir`: the only step that can meet an obstacle, because every
    /// later step leaves a quiet cell.
    #[inline]
    fn first_step_ok(&self, to: usize, tick: Tick, dir: Dir) -> bool {
        if self.obstacles.busy_end(to) <= tick {
            return true;
        }
        self.obstacles.is_free(to, tick + 1) && !self.obstacles.departs(to, tick, dir.reverse())
    }

    /// Vertical sides of `(x, y)` that are forced for a horizontal move in
    /// direction `dir`: the side cell is walkable but the cell diagonally
    /// behind is a wall, so the vertical-first path around does not exist.
    #[inline]
    fn forced_sides(&self, x: u32, y: u32, dir: Dir) -> DirSet {
        let behind = if dir == Dir::East {
            x as i64 - 1
        } else {
            x as i64 + 1
        };
        let mut forced = DirSet::EMPTY;
        for (side, sy) in [(Dir::North, y as i64 - 1), (Dir::South, y as i64 + 1)] {
            if self.open(x as i64, sy) && !self.open(behind, sy) {
                forced = forced.union(side.bit());
            }
        }
        forced
    }

    #[inline]
    fn open(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < self.width as i64
            && y < self.height as i64
            && self.rows.get(x as u32, y as u32)
    }

    /// Is walkable cell `(x, y)`, entered at `tick` moving horizontally in
    /// `dir` after `steps` steps, a jump point? Returns its directions.
    #[inline]
    fn horizontal_stop(
        &self,
        x: u32,
        y: u32,
        tick: Tick,
        dir: Dir,
        steps: u32,
        limit: u32,
    ) -> Option<DirSet> {
        let cell = self.index(x, y);
        if (x == self.goal.x && y == self.goal.y) || self.obstacles.near_busy_end(cell) >= tick {
            return Some(DirSet::ALL);
        }
        let forced = self.forced_sides(x, y, dir);
        if !forced.is_empty() || steps >= limit {
            return Some(forced.union(dir.bit()));
        }
        None
    }

    /// Horizontal jump from `(x0, y)` at `tick` in direction `dir` (East or
    /// West). Pushes at most one jump point.
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
        let c1 = self.index(x1, y);
        if !self.rows.get(x1, y) || !self.first_step_ok(c1, tick, dir) {
            return;
        }
        if let Some(dirs) = self.horizontal_stop(x1, y, tick + 1, dir, 1, limit) {
            out.push(JumpPoint {
                cell: c1,
                tick: tick + 1,
                dirs,
            });
            return;
        }
        let found = if dir == Dir::East {
            self.run_east(x0, y, tick, limit)
        } else {
            self.run_west(x0, y, tick, limit)
        };
        if let Some((x, dirs)) = found {
            out.push(JumpPoint {
                cell: self.index(x, y),
                tick: tick + x.abs_diff(x0),
                dirs,
            });
        }
    }

    /// Stop candidates common to both directions, for a window whose bits
    /// are already aligned so bit `k` is the `k`-th cell of the window.
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

    /// Bit-parallel part of an eastward jump, from cell `x0 + 2` on.
    fn run_east(&self, x0: u32, y: u32, tick: Tick, limit: u32) -> Option<(u32, DirSet)> {
        let (yi, rows) = (y as i64, self.rows);
        let mut next = x0 + 2;
        loop {
            let mid = rows.window_right(next, yi);
            let mut stops = Self::candidates(
                mid,
                rows.window_right(next, yi - 1),
                rows.window_right(next - 1, yi - 1),
                rows.window_right(next, yi + 1),
                rows.window_right(next - 1, yi + 1),
                self.near.window_right(next, yi),
            );
            if self.goal.y == y && self.goal.x >= next && self.goal.x - next < 64 {
                stops |= 1 << (self.goal.x - next);
            }
            let limit_x = x0 as u64 + limit as u64;
            if limit_x >= next as u64 && limit_x - (next as u64) < 64 {
                stops |= 1 << (limit_x - next as u64);
            }
            while stops != 0 {
                let k = stops.trailing_zeros();
                if mid >> k & 1 == 0 {
                    return None; // a wall ends the jump: dead end
                }
                let x = next + k;
                let steps = x - x0;
                if let Some(dirs) =
                    self.horizontal_stop(x, y, tick + steps, Dir::East, steps, limit)
                {
                    return Some((x, dirs));
                }
                stops &= stops - 1;
            }
            next += 64;
        }
    }

    /// Bit-parallel part of a westward jump, from cell `x0 - 2` on.
    fn run_west(&self, x0: u32, y: u32, tick: Tick, limit: u32) -> Option<(u32, DirSet)> {
        if x0 < 2 {
            return None; // the next cell is off the map
        }
        let (yi, rows) = (y as i64, self.rows);
        let mut next = x0 - 2;
        loop {
            // Bit 63 - k is cell next - k.
            let mid = rows.window_left(next, yi);
            let mut stops = Self::candidates(
                mid,
                rows.window_left(next, yi - 1),
                rows.window_left(next + 1, yi - 1),
                rows.window_left(next, yi + 1),
                rows.window_left(next + 1, yi + 1),
                self.near.window_left(next, yi),
            );
            if self.goal.y == y && self.goal.x <= next && next - self.goal.x < 64 {
                stops |= 1 << (63 - (next - self.goal.x));
            }
            let limit_x = x0 as i64 - limit as i64;
            if limit_x <= next as i64 && (next as i64 - limit_x) < 64 {
                stops |= 1 << (63 - (next as i64 - limit_x));
            }
            while stops != 0 {
                let k = stops.leading_zeros();
                if mid >> (63 - k) & 1 == 0 {
                    return None;
                }
                let x = next - k;
                let steps = x0 - x;
                if let Some(dirs) =
                    self.horizontal_stop(x, y, tick + steps, Dir::West, steps, limit)
                {
                    return Some((x, dirs));
                }
                stops &= !(1u64 << (63 - k));
            }
            if next < 64 {
                return None; // the next window starts off the map
            }
            next -= 64;
        }
    }

    /// Vertical jump from `(x, y0)` at `tick` in direction `dir` (North or
    /// South). From every cell it passes it launches both horizontal jumps,
    /// whose jump points are successors too (vertical moves first, then
    /// horizontal ones).
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
            if !self.rows.get(x, y) {
                return;
            }
            let t = tick + steps;
            if steps == 1 && !self.first_step_ok(cell, tick, dir) {
                return;
            }
            if (x == self.goal.x && y == self.goal.y) || self.obstacles.near_busy_end(cell) >= t {
                out.push(JumpPoint {
                    cell,
                    tick: t,
                    dirs: DirSet::ALL,
                });
                return;
            }
            if steps == limit {
                out.push(JumpPoint {
                    cell,
                    tick: t,
                    dirs: dir.bit().union(DirSet::HORIZONTAL),
                });
                return;
            }
            self.horizontal(x, y, t, Dir::East, out);
            self.horizontal(x, y, t, Dir::West, out);
        }
    }

    /// The walls (for callers that need cell look-ups).
    pub(super) fn walls(&self) -> &StaticGrid {
        self.walls
    }
}
