//! How large a map the crate accepts from files and tilemaps.

use super::error::GridError;
use super::static_grid::{MAX_CELLS, MAX_SIDE};

/// The largest map accepted from outside the program: a `.map` file, an
/// instance file, or a mirrored tilemap. Maps built in code
/// ([`StaticGrid::open`](super::StaticGrid::open)) are bounded only by
/// [`MAX_SIDE`] and [`MAX_CELLS`].
///
/// The default, 4096 x 4096 cells (16.8 million), keeps a user-made map's
/// fixed cost under about 770 MiB: the grid, its temporal map's per-cell
/// arrays (36 bytes), its region labels (4) and a planner's node index (8)
/// cost about 48 bytes per cell. On top come what obstacles add and the
/// time layers: up to two bits per cell for every 32 ticks between the
/// earliest query start and the last planned change, at most 256 layers
/// and at most 128 MiB in all (31 layers at 4096 x 4096; beyond them
/// scans skip less, and plan the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapLimits {
    /// Widest map, in cells.
    pub max_width: u32,
    /// Tallest map, in cells.
    pub max_height: u32,
    /// Most cells (width x height).
    pub max_cells: u64,
}

impl Default for MapLimits {
    fn default() -> Self {
        Self {
            max_width: 4096,
            max_height: 4096,
            max_cells: 4096 * 4096,
        }
    }
}

impl MapLimits {
    /// The most the grid itself supports: [`MAX_SIDE`] per side,
    /// [`MAX_CELLS`] in all.
    pub const LARGEST: MapLimits = MapLimits {
        max_width: MAX_SIDE,
        max_height: MAX_SIDE,
        max_cells: MAX_CELLS,
    };

    /// Limits of `max_width x max_height` cells and `max_cells` in all,
    /// each capped at what the grid supports ([`MapLimits::LARGEST`]).
    pub fn new(max_width: u32, max_height: u32, max_cells: u64) -> Self {
        Self {
            max_width: max_width.min(MAX_SIDE),
            max_height: max_height.min(MAX_SIDE),
            max_cells: max_cells.min(MAX_CELLS),
        }
    }

    /// Checks a `width x height` map: [`GridError::BadSize`] for a zero side
    /// or a size the grid cannot hold, [`GridError::MapTooLarge`] for one
    /// over these limits. Call it before allocating anything for the map.
    pub fn check(&self, width: u64, height: u64) -> Result<(), GridError> {
        super::StaticGrid::check_size(width, height)?;
        if width > self.max_width as u64
            || height > self.max_height as u64
            || width * height > self.max_cells
        {
            return Err(GridError::MapTooLarge {
                width,
                height,
                limits: *self,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_takes_4096_square_and_refuses_one_more_row() {
        let limits = MapLimits::default();
        assert_eq!(limits.check(4096, 4096), Ok(()));
        assert!(matches!(
            limits.check(4096, 4097),
            Err(GridError::MapTooLarge { .. })
        ));
        assert!(matches!(limits.check(0, 5), Err(GridError::BadSize { .. })));
        assert!(matches!(
            MapLimits::LARGEST.check(1 << 17, 1),
            Err(GridError::BadSize { .. })
        ));
        assert_eq!(MapLimits::new(u32::MAX, 8, u64::MAX).max_width, MAX_SIDE);
        let small = MapLimits::new(100, 100, 2500);
        assert_eq!(small.check(50, 50), Ok(()));
        let e = small.check(60, 50).unwrap_err();
        assert!(
            e.to_string().contains("at most 100x100 and 2500 cells"),
            "{e}"
        );
    }
}
