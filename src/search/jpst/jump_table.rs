//! Where jumps stop on the walls alone, found 64 cells at a time, so the
//! first pass's jump point search never steps cell by cell.
//!
//! - A horizontal jump stops at the first forced cell, where a side cell is
//!   walkable but the cell diagonally behind is not, so the turn there could
//!   not have been made a step earlier. The forced cells of each direction
//!   are worked out once per map from the walls' bit rows and kept as bit
//!   rows of their own, so a jump reads two words per 64 cells.
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
    /// Row-major: the walkable cells that a move east, or west, forces to
    /// turn, read by horizontal jumps a window at a time.
    east: BitRows,
    west: BitRows,
}

impl JumpTable {
    /// The table of `walls`, built a row and 64 cells at a time.
    pub(super) fn new(walls: &StaticGrid) -> Self {
        let (w, h) = (walls.width(), walls.height());
        let rows = walls.rows();
        let mut turns = BitRows::new(h, w);
        let (mut east_forced, mut west_forced) = (BitRows::new(w, h), BitRows::new(w, h));
        let words = w.div_ceil(64) as usize;
        let (mut open, mut east, mut west) = (vec![0; words], vec![0; words], vec![0; words]);
        for y in 0..h {
            let yi = i64::from(y);
            // Walkable cells of the row, and its walkable forced cells for
            // moves east and west: bit j of word k is cell 64k + j.
            for k in 0..words {
                let x = 64 * k as u32;
                open[k] = rows.window_right(x, yi);
                east[k] = open[k] & forced_right(rows, x, yi);
                let last = (x + 63).min(w - 1);
                let forced = rows.window_left(last, yi) & forced_left(rows, last, yi, w);
                west[k] = open[k] & forced >> (63 - (last - x));
                set_word(&mut east_forced, x, y, east[k]);
                set_word(&mut west_forced, x, y, west[k]);
            }
            // The cells from which walking east, through walkable cells
            // only, reaches a forced cell (the cell itself counts); a jump
            // east from x finds one if x + 1 is such a cell. Right to left,
            // carrying the first cell of the word to the right.
            let mut carry = 0;
            for k in (0..words).rev() {
                let reach = fill_down(east[k] | carry << 63 & open[k], open[k]);
                east[k] = reach >> 1 | carry << 63;
                carry = reach & 1;
            }
            // The same going west, left to right.
            let mut carry = 0;
            for k in 0..words {
                let reach = fill_up(west[k] | carry & open[k], open[k]);
                west[k] = reach << 1 | carry;
                carry = reach >> 63;
            }
            for k in 0..words {
                let mut stops = open[k] & (east[k] | west[k]);
                while stops != 0 {
                    turns.set(y, 64 * k as u32 + stops.trailing_zeros(), true);
                    stops &= stops - 1;
                }
            }
        }
        Self {
            revision: walls.revision(),
            turns,
            east: east_forced,
            west: west_forced,
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
            Dir::East => first::<false>(|k| {
                let at = x + 1 + 64 * k;
                (rows.window_right(at, yi), self.east.window_right(at, yi))
            }),
            Dir::West if x == 0 => Ahead::Wall(0),
            Dir::West => first::<true>(|k| {
                // Past the map's west edge: no cell walkable.
                let Some(at) = (x - 1).checked_sub(64 * k) else {
                    return (0, 0);
                };
                (rows.window_left(at, yi), self.west.window_left(at, yi))
            }),
            Dir::South => first::<false>(|k| {
                let at = y + 1 + 64 * k;
                (cols.window_right(at, xi), self.turns.window_right(at, xi))
            }),
            Dir::North if y == 0 => Ahead::Wall(0),
            Dir::North => first::<true>(|k| {
                let Some(at) = (y - 1).checked_sub(64 * k) else {
                    return (0, 0);
                };
                (cols.window_left(at, xi), self.turns.window_left(at, xi))
            }),
        }
    }
}

/// Sets the bits of cells `x .. x + 63` of row `y` (those on the map) to
/// `bits`, bit `j` for cell `x + j`; they were clear.
fn set_word(field: &mut BitRows, x: u32, y: u32, mut bits: u64) {
    while bits != 0 {
        field.set(x + bits.trailing_zeros(), y, true);
        bits &= bits - 1;
    }
}

/// The cells of `seeds` and those from which every cell up to a cell of
/// `seeds` (toward higher bits) is in `through`; `seeds` lies in `through`.
/// Six doubling steps cover a word.
fn fill_down(mut seeds: u64, mut through: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16] {
        seeds |= through & seeds >> shift;
        through &= through >> shift;
    }
    seeds | through & seeds >> 32
}

/// [`fill_down`] toward lower bits: the cells from which every cell down to
/// a cell of `seeds` is in `through`.
fn fill_up(mut seeds: u64, mut through: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16] {
        seeds |= through & seeds << shift;
        through &= through << shift;
    }
    seeds | through & seeds << 32
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
/// 64k + 64`, bit `i` for step `64k + i + 1`, or bit `63 - i` if `LEFT`
/// (the layout of [`BitRows::window_left`], read without reversing it).
fn first<const LEFT: bool>(mut window: impl FnMut(u32) -> (u64, u64)) -> Ahead {
    let mut k = 0;
    loop {
        let (open, stops) = window(k);
        let stops = stops & open;
        let any = stops | !open;
        if any != 0 {
            let (i, bit) = if LEFT {
                let i = any.leading_zeros();
                (i, 63 - i)
            } else {
                let i = any.trailing_zeros();
                (i, i)
            };
            let steps = 64 * k + i;
            return if stops >> bit & 1 != 0 {
                Ahead::Stop(steps + 1)
            } else {
                Ahead::Wall(steps)
            };
        }
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::*;

    /// Whether a horizontal jump from walkable `(x, y)` meets a forced cell
    /// before a wall, one cell at a time.
    fn turns_slowly(walls: &StaticGrid, x: u32, y: u32) -> bool {
        let rows = walls.rows();
        let forced = |cx: i64, back: i64| {
            [-1, 1].into_iter().any(|dy| {
                rows.get_padded(cx, i64::from(y) + dy) && !rows.get_padded(back, i64::from(y) + dy)
            })
        };
        [1i64, -1].into_iter().any(|dx| {
            let mut cx = i64::from(x) + dx;
            while (0..i64::from(walls.width())).contains(&cx) && rows.get(cx as u32, y) {
                if forced(cx, cx - dx) {
                    return true;
                }
                cx += dx;
            }
            false
        })
    }

    #[test]
    fn the_tables_stop_where_a_cell_by_cell_walk_finds_a_forced_cell() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..400 {
            let w = 1 + rng.below(if case % 4 == 0 { 300 } else { 70 });
            let h = 1 + rng.below(12);
            let density = rng.below(60);
            let open: Vec<bool> = (0..w * h).map(|_| rng.below(100) >= density).collect();
            let walls = StaticGrid::from_fn(w, h, |c| open[(c.y * w + c.x) as usize]).expect("map");
            let table = JumpTable::new(&walls);
            for y in 0..h {
                for x in 0..w {
                    let want = walls.rows().get(x, y) && turns_slowly(&walls, x, y);
                    assert_eq!(
                        table.turns.get(y, x),
                        want,
                        "case {case}: {w}x{h} at ({x},{y})"
                    );
                    // Forced for a move east (west): a side cell walkable
                    // and the one west (east) of it not.
                    let rows = walls.rows();
                    let forced = |back: i64| {
                        rows.get(x, y)
                            && [-1, 1].into_iter().any(|dy| {
                                let side = i64::from(y) + dy;
                                rows.get_padded(i64::from(x), side)
                                    && !rows.get_padded(i64::from(x) + back, side)
                            })
                    };
                    assert_eq!(
                        table.east.get(x, y),
                        forced(-1),
                        "case {case}: east ({x},{y})"
                    );
                    assert_eq!(
                        table.west.get(x, y),
                        forced(1),
                        "case {case}: west ({x},{y})"
                    );
                }
            }
        }
    }

    #[test]
    fn fills_stop_at_the_first_cell_not_walked_through() {
        let through = 0b0111_1110_1111u64;
        assert_eq!(fill_down(1 << 10, through), 0b0111_1110_0000);
        assert_eq!(fill_down(1 << 3, through), 0b1111);
        assert_eq!(fill_up(1 << 5, through), 0b0111_1110_0000);
        assert_eq!(fill_down(1 << 63, u64::MAX), u64::MAX);
        assert_eq!(fill_up(1, u64::MAX), u64::MAX);
    }
}
