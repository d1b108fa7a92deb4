//! Walls that do not move: the passable bits of the map.

use std::sync::atomic::{AtomicU64, Ordering};

use super::bits::BitRows;
use super::cell::Cell;
use super::error::GridError;

/// Longest supported map side, in cells.
pub const MAX_SIDE: u32 = 1 << 16;
/// Largest supported map, in cells (a 8192 x 8192 map).
pub const MAX_CELLS: u64 = 1 << 26;

static NEXT_REVISION: AtomicU64 = AtomicU64::new(1);

/// Passability of every cell (`true` = walkable), as padded bit rows plus a
/// transposed copy so vertical scans can be bit-parallel too.
#[derive(Clone, Debug)]
pub struct StaticGrid {
    width: u32,
    height: u32,
    rows: BitRows,
    columns: BitRows,
    revision: u64,
}

impl StaticGrid {
    /// Checks that a `width x height` map is within [`MAX_SIDE`] and
    /// [`MAX_CELLS`]. Call it before allocating anything for a map read from
    /// untrusted input.
    pub fn check_size(width: u64, height: u64) -> Result<(), GridError> {
        let ok = (1..=MAX_SIDE as u64).contains(&width)
            && (1..=MAX_SIDE as u64).contains(&height)
            && width * height <= MAX_CELLS;
        if ok {
            Ok(())
        } else {
            Err(GridError::BadSize { width, height })
        }
    }

    /// A map with every cell walkable.
    pub fn open(width: u32, height: u32) -> Result<Self, GridError> {
        Self::from_fn(width, height, |_| true)
    }

    /// A map whose cell `c` is walkable when `passable(c)` is true.
    pub fn from_fn(
        width: u32,
        height: u32,
        mut passable: impl FnMut(Cell) -> bool,
    ) -> Result<Self, GridError> {
        Self::check_size(width as u64, height as u64)?;
        let mut rows = BitRows::new(width, height);
        let mut columns = BitRows::new(height, width);
        for y in 0..height {
            for x in 0..width {
                if passable(Cell::new(x, y)) {
                    rows.set(x, y, true);
                    columns.set(y, x, true);
                }
            }
        }
        Ok(Self {
            width,
            height,
            rows,
            columns,
            revision: NEXT_REVISION.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, `width * height`.
    pub fn cell_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// True if `cell` lies on the map.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// True if `cell` lies on the map and is walkable.
    #[inline]
    pub fn is_passable(&self, cell: Cell) -> bool {
        self.contains(cell) && self.rows.get(cell.x, cell.y)
    }

    /// Makes `cell` walkable or a wall. Returns whether anything changed.
    pub fn set_passable(&mut self, cell: Cell, passable: bool) -> Result<bool, GridError> {
        if !self.contains(cell) {
            return Err(GridError::OutOfBounds(cell));
        }
        if self.rows.get(cell.x, cell.y) == passable {
            return Ok(false);
        }
        self.rows.set(cell.x, cell.y, passable);
        self.columns.set(cell.y, cell.x, passable);
        self.revision = NEXT_REVISION.fetch_add(1, Ordering::Relaxed);
        Ok(true)
    }

    /// Number of walkable cells.
    pub fn passable_count(&self) -> u64 {
        self.rows.count_ones()
    }

    /// The passable bits, one row per map row.
    pub fn rows(&self) -> &BitRows {
        &self.rows
    }

    /// The passable bits transposed: row `x` of this field is map column `x`.
    pub fn columns(&self) -> &BitRows {
        &self.columns
    }

    /// A stamp that differs between any two grids or edits of a grid, so
    /// caches derived from the walls (heuristic tables) know when to refresh.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Dense index of an on-map cell, `y * width + x`.
    #[inline]
    pub fn index(&self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// The cell of a dense index.
    #[inline]
    pub fn cell_at(&self, index: usize) -> Cell {
        let w = self.width as usize;
        Cell::new((index % w) as u32, (index / w) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_absurd_sizes() {
        assert!(StaticGrid::check_size(4_000_000_000, 10).is_err());
        assert!(StaticGrid::check_size(0, 10).is_err());
        assert!(StaticGrid::check_size(60_000, 60_000).is_err());
        assert!(StaticGrid::check_size(4096, 4096).is_ok());
    }

    #[test]
    fn edits_update_both_copies() {
        let mut g = StaticGrid::open(5, 3).unwrap();
        let r0 = g.revision();
        assert!(g.set_passable(Cell::new(4, 2), false).unwrap());
        assert!(!g.is_passable(Cell::new(4, 2)));
        assert!(!g.columns().get(2, 4));
        assert_ne!(g.revision(), r0);
        assert!(g.set_passable(Cell::new(5, 0), true).is_err());
    }
}
