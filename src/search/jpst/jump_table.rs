//! Where jumps stop on the walls alone, found 64 cells at a time, so the
//! first pass's jump point search never steps cell by cell.
//!
//! - A horizontal jump stops at the first forced cell, where a side cell is
//!   walkable but the cell diagonally behind is not, so the turn there could
//!   not have been made a step earlier. Forced cells come from the walls'
//!   bit rows, a window of 64 at a time.
//! - A vertical jump stops at the first cell whose horizontal jumps stop
//!   somewhere: vertical moves come first in the canonical order, so a turn
//!   from vertical to horizontal is always allowed, but it only needs a node
//!   where it leads to a jump point. Those cells are worked out once per map
//!   ([`JumpTable`]) and kept column by column, so a vertical jump scans
//!   like a horizontal one.
//!
//! Both kinds of jump end at a wall (or the map's edge) otherwise. The goal
//! is not in the table: the search checks it per jump.

use crate::grid::{BitRows, Dir, StaticGrid};

/// Where a jump goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ahead {
    /// It stops at a jump point this many steps ahead.
    Stop(u32),
    /// It meets a wall after walking this many steps (maybe 0).
    Wall(u32),
}

/// The cells where a vertical jump stops, for the walls of one revision.
#[derive(Debug)]
pub(super) struct JumpTable {
    /// The walls' revision the table was built from.
    revision: u64,
    /// Column-major, like [`StaticGrid::columns`]: bit `(y, x)` is set if a
    /// horizontal jump from walkable cell `(x, y)` stops at a forced cell.
    turns: BitRows,
}

impl JumpTable {
    /// The table of `walls`.
    pub(super) fn new(walls: &StaticGrid) -> Self {
        let (w, h) = (walls.width(), walls.height());
        let rows = walls.rows();
        let mut turns = BitRows::new(h, w);
        let mut forced_east = Vec::new();
        let mut forced_west = Vec::new();
        let mut east = vec![false; w as usize];
        for y in 0..h {
            let y = i64::from(y);
            // Forced cells of the row, for moves east and west, a word at a
            // time.
            forced_east.clear();
            forced_west.clear();
            for x in (0..w).step_by(64) {
                forced_east.push(rows.window_right(x, y) & forced_right(rows, x, y));
                let last = (x + 63).min(w - 1);
                let west = rows.window_left(last, y) & forced_left(rows, last, y, w);
                // Bit k of the left window is cell `last - 63 + k`.
                forced_west.push(west >> (63 - (last - x)));
            }
            let bit = |words: &[u64], x: u32| words[x as usize / 64] >> (x % 64) & 1 != 0;
            let open = |x: u32| rows.get(x, y as u32);
            // Right to left: does a jump east from x meet a forced cell
            // before a wall?
            east[w as usize - 1] = false;
            for x in (0..w.saturating_sub(1)).rev() {
                let n = x + 1;
                east[x as usize] = open(n) && (bit(&forced_east, n) || east[n as usize]);
            }
            let mut west = false;
            for x in 0..w {
                if x > 0 {
                    let n = x - 1;
                    west = open(n) && (bit(&forced_west, n) || west);
                }
                if open(x) && (west || east[x as usize]) {
                    turns.set(y as u32, x, true);
                }
            }
        }
        Self {
            revision: walls.revision(),
            turns,
        }
    }

    /// True if the table was built from walls of this revision.
    pub(super) fn is_for(&self, walls: &StaticGrid) -> bool {
        self.revision == walls.revision()
    }

    /// Where a jump from walkable cell `(x, y)` in `dir` goes.
    pub(super) fn ahead(&self, walls: &StaticGrid, x: u32, y: u32, dir: Dir) -> Ahead {
        let (rows, cols) = (walls.rows(), walls.columns());
        let (xi, yi) = (i64::from(x), i64::from(y));
        match dir {
            Dir::East => first(|k| {
                let at = x + 1 + 64 * k;
                (rows.window_right(at, yi), forced_right(rows, at, yi))
            }),
            Dir::West if x == 0 => Ahead::Wall(0),
            Dir::West => first(|k| {
                // Past the map's west edge: no cell walkable.
                let Some(at) = (x - 1).checked_sub(64 * k) else {
                    return (0, 0);
                };
                let open = rows.window_left(at, yi).reverse_bits();
                (
                    open,
                    forced_left(rows, at, yi, walls.width()).reverse_bits(),
                )
            }),
            Dir::South => first(|k| {
                let at = y + 1 + 64 * k;
                (cols.window_right(at, xi), self.turns.window_right(at, xi))
            }),
            Dir::North if y == 0 => Ahead::Wall(0),
            Dir::North => first(|k| {
                let Some(at) = (y - 1).checked_sub(64 * k) else {
                    return (0, 0);
                };
                let open = cols.window_left(at, xi).reverse_bits();
                (open, self.turns.window_left(at, xi).reverse_bits())
            }),
        }
    }
}

/// Cells `x .. x + 63` of row `y` that a move east forces to turn: the cell
/// above or below is walkable and the one west of it is not.
fn forced_right(rows: &BitRows, x: u32, y: i64) -> u64 {
    let side = |dy: i64| {
        let beside = rows.window_right(x, y + dy);
        let behind = if x == 0 {
            beside << 1
        } else {
            rows.window_right(x - 1, y + dy)
        };
        beside & !behind
    };
    side(-1) | side(1)
}

/// Cells `x, x - 1, .., x - 63` of row `y` (bit `63 - k` is `x - k`, as
/// [`BitRows::window_left`]) that a move west forces to turn: the cell above
/// or below is walkable and the one east of it is not.
fn forced_left(rows: &BitRows, x: u32, y: i64, width: u32) -> u64 {
    let side = |dy: i64| {
        let beside = rows.window_left(x, y + dy);
        let behind = if x + 1 == width {
            beside >> 1
        } else {
            rows.window_left(x + 1, y + dy)
        };
        beside & !behind
    };
    side(-1) | side(1)
}

/// The first stop or wall ahead, given windows of 64 cells: `window(k)`
/// gives the walkable cells and the stop cells of steps `64k + 1 ..=
/// 64k + 64`, bit `i` for step `64k + i + 1`.
fn first(mut window: impl FnMut(u32) -> (u64, u64)) -> Ahead {
    let mut k = 0;
    loop {
        let (open, stops) = window(k);
        let stops = stops & open;
        let any = stops | !open;
        if any != 0 {
            let i = any.trailing_zeros();
            let steps = 64 * k + i;
            return if stops >> i & 1 != 0 {
                Ahead::Stop(steps + 1)
            } else {
                Ahead::Wall(steps)
            };
        }
        k += 1;
    }
}
