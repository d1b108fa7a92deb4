//! The flood's bit layout: rows that follow the map's diagonals, or the
//! map's own rows.
//!
//! On open ground the cells an agent can first reach at one tick lie on a
//! diagonal line, and the flood keeps only the few ticks' worth of such
//! lines that can still make the arrival bound. Stored in map rows, each
//! of those lines crosses every row in a cell or two, and every row costs
//! a word or more; stored along the diagonals, they are a few rows of
//! densely filled words. So the flood lays its bits out in rows `x + y`
//! (a *falling* frame, for trips toward the south-east or north-west,
//! whose fronts run along those diagonals) or `x - y + height - 1` (a
//! *rising* frame, for the other two directions).
//!
//! A row holds at most as many cells as the map's shorter side, so that
//! side gives the columns: a cell's column is its `x` on a map no wider
//! than high, and otherwise its `y` in a falling frame and `height - 1 -
//! y` in a rising one. (Columns along the longer side would leave most of
//! every row empty: a map 64 times wider than high would take 64 times the
//! memory of its map rows.) Then in every case the map neighbours of the
//! cell in row `r`, column `c` lie in columns `c - 1` and `c` of row `r -
//! 1` and in columns `c` and `c + 1` of row `r + 1`. With columns `x` in a
//! falling frame, for instance, `(x - 1, y)` is at `(r - 1, c - 1)`, `(x,
//! y - 1)` at `(r - 1, c)`, `(x + 1, y)` at `(r + 1, c + 1)` and `(x, y +
//! 1)` at `(r + 1, c)`.
//!
//! Where the agent may wait a while, the reached sets are blobs rather
//! than fronts (whole rooms it can step aside into), and a blob crosses
//! twice as many diagonals as map rows. So there is a third frame, the
//! map's own rows (*straight*: row `y`, column `x`), where the neighbours
//! of column `c` of row `r` are columns `c - 1` and `c + 1` of the same
//! row and column `c` of rows `r - 1` and `r + 1`. Which frame a flood
//! takes is learnt from the floods before (`layout.rs`).

use crate::grid::{Cell, StaticGrid};

/// Which lines of the map a frame's rows follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Slant {
    /// Rows `x + y`.
    #[default]
    Falling,
    /// Rows `x - y + height - 1`.
    Rising,
    /// Map rows `y`, columns `x`.
    Straight,
}

/// A map's cells laid out in rows of `u64` words, along its diagonals or
/// its own rows.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Frame {
    slant: Slant,
    width: u32,
    height: u32,
}

impl Frame {
    /// The frame of a `width` x `height` map in map rows if `straight`,
    /// else the one whose diagonals run across the way from `from` to
    /// `to`.
    pub fn for_trip(width: u32, height: u32, from: Cell, to: Cell, straight: bool) -> Self {
        let slant = if straight {
            Slant::Straight
        } else if (to.x >= from.x) == (to.y >= from.y) {
            Slant::Falling
        } else {
            Slant::Rising
        };
        Self {
            slant,
            width,
            height,
        }
    }

    /// Whether columns are `x` (else they come from `y`).
    #[inline]
    fn columns_are_x(self) -> bool {
        self.width <= self.height
    }

    /// Width of the map in cells.
    #[inline]
    pub fn width(self) -> u32 {
        self.width
    }

    /// Number of rows.
    #[inline]
    pub fn rows(self) -> u32 {
        if self.is_straight() {
            self.height
        } else {
            self.width + self.height - 1
        }
    }

    /// Whether rows are map rows.
    #[inline]
    pub fn is_straight(self) -> bool {
        self.slant == Slant::Straight
    }

    /// Words per row.
    #[inline]
    pub fn stride(self) -> usize {
        if self.is_straight() {
            return (self.width as usize).div_ceil(64);
        }
        (self.width.min(self.height) as usize).div_ceil(64)
    }

    /// Whether `cell` is on the map.
    #[inline]
    pub fn contains(self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// The row and column of `cell`, which must be on the map.
    #[inline]
    pub fn place(self, cell: Cell) -> (u32, u32) {
        let flipped = self.height - 1 - cell.y;
        match (self.slant, self.columns_are_x()) {
            (Slant::Straight, _) => (cell.y, cell.x),
            (Slant::Falling, true) => (cell.x + cell.y, cell.x),
            (Slant::Falling, false) => (cell.x + cell.y, cell.y),
            (Slant::Rising, true) => (cell.x + flipped, cell.x),
            (Slant::Rising, false) => (cell.x + flipped, flipped),
        }
    }

    /// The cell at `row`, `col`, which must be one of the map's.
    #[inline]
    pub fn cell(self, row: u32, col: u32) -> Cell {
        match (self.slant, self.columns_are_x()) {
            (Slant::Straight, _) => Cell::new(col, row),
            (Slant::Falling, true) => Cell::new(col, row - col),
            (Slant::Falling, false) => Cell::new(row - col, col),
            (Slant::Rising, true) => Cell::new(col, self.height - 1 - (row - col)),
            (Slant::Rising, false) => Cell::new(row - col, self.height - 1 - col),
        }
    }

    /// The word of the cell at `row`, `col` in a field of the frame, and
    /// its bit.
    #[inline]
    pub fn word_of(self, row: u32, col: u32) -> (usize, u64) {
        (
            row as usize * self.stride() + col as usize / 64,
            1 << (col % 64),
        )
    }
}

/// The walkable cells of a map in every frame, kept from flood to flood
/// while the walls stay the same.
#[derive(Debug, Default)]
pub(super) struct SlantedWalls {
    /// The revision of the walls they were made from.
    source: Option<u64>,
    falling: Vec<u64>,
    rising: Vec<u64>,
    straight: Vec<u64>,
}

impl SlantedWalls {
    /// Makes the fields of `walls`, unless they are those of the last walls.
    #[inline]
    pub fn update(&mut self, walls: &StaticGrid) {
        if self.source != Some(walls.revision()) {
            self.build(walls);
        }
    }

    /// Makes the fields of `walls` (once per walls, so kept out of the
    /// callers' code).
    #[inline(never)]
    fn build(&mut self, walls: &StaticGrid) {
        self.source = Some(walls.revision());
        let (w, h) = (walls.width(), walls.height());
        for (field, slant) in [
            (&mut self.falling, Slant::Falling),
            (&mut self.rising, Slant::Rising),
            (&mut self.straight, Slant::Straight),
        ] {
            let f = Frame {
                slant,
                width: w,
                height: h,
            };
            field.clear();
            if slant == Slant::Straight {
                // The map's rows, a word at a time.
                for y in 0..h {
                    field.extend(walls.rows().row_words(y).map(|(_, open, _)| open));
                }
                continue;
            }
            field.resize(f.rows() as usize * f.stride(), 0);
            // Frame column `c` holds map column `x` or else the map row
            // whose `up` is `c` (`y`, or `height - 1 - y` in a rising
            // frame), and `u` = row - `c` is then that row's `up`, or `x`
            // (see `Frame::place`). The cells of columns `64k..64k + 63` at
            // one `u`, as a word:
            let (rows, columns) = (walls.rows(), walls.columns());
            let falling = slant == Slant::Falling;
            if f.columns_are_x() {
                shear_into(field, f, h as usize, |k, u| {
                    let y = if falling { u } else { h as usize - 1 - u };
                    rows.window_right(64 * k as u32, y as i64)
                });
            } else {
                shear_into(field, f, w as usize, |k, u| {
                    let x = u as i64;
                    if falling {
                        columns.window_right(64 * k as u32, x)
                    } else {
                        columns.window_left(h - 1 - 64 * k as u32, x).reverse_bits()
                    }
                });
            }
        }
    }

    /// The field of walkable cells in `frame` (a frame of the walls last
    /// updated), one word per [`Frame::word_of`] index, zero off the map.
    #[inline]
    pub fn field(&self, frame: Frame) -> &[u64] {
        match frame.slant {
            Slant::Falling => &self.falling,
            Slant::Rising => &self.rising,
            Slant::Straight => &self.straight,
        }
    }
}

/// Fills `field`, the walkable cells in slanted frame `f`, a word column
/// at a time, from `cells(k, u)`: the cells of frame columns `64k + j`
/// (bit `j`) in frame rows `u + 64k + j`, for `u` below `count`. Word `k`
/// of frame row `64k + v` takes bit `j` from `cells(k, v - j)`: the words,
/// in order of `u`, are sheared, bit `j` moved `j` rows on, in six steps of
/// 1, 2, 4, 8, 16 and 32 rows.
fn shear_into(field: &mut [u64], f: Frame, count: usize, cells: impl Fn(usize, usize) -> u64) {
    /// The bits `j` that each step moves: those with that step's bit of
    /// `j` set.
    const MOVED: [u64; 6] = [
        0xaaaa_aaaa_aaaa_aaaa,
        0xcccc_cccc_cccc_cccc,
        0xf0f0_f0f0_f0f0_f0f0,
        0xff00_ff00_ff00_ff00,
        0xffff_0000_ffff_0000,
        0xffff_ffff_0000_0000,
    ];
    let (stride, rows) = (f.stride(), f.rows() as usize);
    let mut column = vec![0u64; count + 64];
    for k in 0..stride {
        for (u, word) in column.iter_mut().enumerate() {
            *word = if u < count { cells(k, u) } else { 0 };
        }
        for (step, moved) in MOVED.into_iter().enumerate() {
            let s = 1 << step;
            for v in (s..column.len()).rev() {
                column[v] = column[v] & !moved | column[v - s] & moved;
            }
            for word in &mut column[..s] {
                *word &= !moved;
            }
        }
        for (v, &word) in column.iter().enumerate() {
            let row = 64 * k + v;
            if row < rows {
                field[row * stride + k] = word;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dir;

    #[test]
    fn the_walls_fields_hold_the_walkable_cells_of_each_frame() {
        let mut rng = crate::search::jpst::test_rng::Rng(0x3c6e_f372_fe94_f82b);
        for (w, h) in [
            (1, 1),
            (5, 3),
            (3, 5),
            (70, 4),
            (4, 70),
            (130, 67),
            (67, 130),
            (300, 129),
            (129, 300),
            (64, 64),
        ] {
            let walls = StaticGrid::from_fn(w, h, |_| rng.below(100) >= 30).unwrap();
            let mut fields = SlantedWalls::default();
            fields.update(&walls);
            for (from, to, straight) in [
                (Cell::new(0, 0), Cell::new(w - 1, h - 1), false),
                (Cell::new(0, h - 1), Cell::new(w - 1, 0), false),
                (Cell::new(0, 0), Cell::new(w - 1, h - 1), true),
            ] {
                let f = Frame::for_trip(w, h, from, to, straight);
                let field = fields.field(f);
                assert_eq!(field.len(), f.rows() as usize * f.stride());
                let set: u32 = field.iter().map(|word| word.count_ones()).sum();
                assert_eq!(u64::from(set), walls.passable_count(), "{w}x{h}");
                for y in 0..h {
                    for x in 0..w {
                        let (row, col) = f.place(Cell::new(x, y));
                        let (i, bit) = f.word_of(row, col);
                        let open = walls.is_passable(Cell::new(x, y));
                        assert_eq!(field[i] & bit != 0, open, "{w}x{h} at {x}, {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_cell_has_one_place_and_its_neighbours_follow_the_rule() {
        for (w, h) in [(1, 1), (5, 3), (3, 5), (70, 4), (4, 70), (9, 9), (130, 3)] {
            for (from, to, straight) in [
                (Cell::new(0, 0), Cell::new(w - 1, h - 1), false),
                (Cell::new(0, h - 1), Cell::new(w - 1, 0), false),
                (Cell::new(0, 0), Cell::new(w - 1, h - 1), true),
            ] {
                let f = Frame::for_trip(w, h, from, to, straight);
                let mut taken = vec![false; f.rows() as usize * f.stride() * 64];
                for y in 0..h {
                    for x in 0..w {
                        let c = Cell::new(x, y);
                        let (row, col) = f.place(c);
                        assert!(row < f.rows() && (col as usize) < f.stride() * 64);
                        assert_eq!(f.cell(row, col), c);
                        let k = row as usize * f.stride() * 64 + col as usize;
                        assert!(!taken[k], "{w}x{h}: two cells at {row}, {col}");
                        taken[k] = true;
                        for dir in Dir::ALL {
                            let Some(n) = c.step(dir).filter(|&n| f.contains(n)) else {
                                continue;
                            };
                            let (r, k) = f.place(n);
                            let ok = if straight {
                                (r == row && (k + 1 == col || k == col + 1))
                                    || (k == col && (r + 1 == row || r == row + 1))
                            } else {
                                (r + 1 == row && (k + 1 == col || k == col))
                                    || (r == row + 1 && (k == col || k == col + 1))
                            };
                            assert!(ok, "{w}x{h}: {c:?} -> {n:?} at {r}, {k}");
                        }
                    }
                }
            }
        }
    }
}
