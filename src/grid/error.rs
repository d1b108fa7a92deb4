//! Errors raised while building or editing a grid.

use super::cell::{Cell, Tick};

/// Why a grid could not be built or an obstacle could not be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// The map would have `width x height` cells, more than
    /// [`MAX_CELLS`](super::MAX_CELLS) or a side longer than
    /// [`MAX_SIDE`](super::MAX_SIDE) (or a zero side).
    BadSize {
        /// Requested width in cells.
        width: u64,
        /// Requested height in cells.
        height: u64,
    },
    /// The map would have `width x height` cells, more than the
    /// [`MapLimits`](super::MapLimits) in force allow (raise them if the
    /// map is trusted).
    MapTooLarge {
        /// Requested width in cells.
        width: u64,
        /// Requested height in cells.
        height: u64,
        /// The limits it broke.
        limits: super::MapLimits,
    },
    /// A cell outside the map.
    OutOfBounds(Cell),
    /// Two consecutive cells of an obstacle's trajectory are neither equal
    /// nor 4-adjacent; `step` is the index of the second one.
    NotAdjacent {
        /// Index of the offending cell in the trajectory.
        step: usize,
    },
    /// An obstacle's trajectory has no cell.
    EmptyTrajectory,
    /// A block span `from..to` with `to <= from`.
    EmptySpan {
        /// First blocked tick.
        from: Tick,
        /// First free tick again.
        to: Tick,
    },
    /// A tick that reaches [`FOREVER`](super::FOREVER) (`u32::MAX`), which is
    /// reserved for "never ends".
    TickOverflow,
    /// The cell already holds the most blocks allowed (see
    /// [`NavGrid::set_max_blocks_per_cell`](super::NavGrid::set_max_blocks_per_cell));
    /// more would make every later edit of it slow.
    TooManyBlocks {
        /// The cell.
        cell: Cell,
        /// The limit.
        limit: usize,
    },
}

impl std::fmt::Display for GridError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GridError::BadSize { width, height } => write!(
                f,
                "map size {width}x{height} is not supported (each side 1..={}, at most {} cells)",
                super::MAX_SIDE,
                super::MAX_CELLS
            ),
            GridError::MapTooLarge {
                width,
                height,
                limits,
            } => write!(
                f,
                "map size {width}x{height} is over the map limit: at most {}x{} and {} cells \
                 (MapLimits)",
                limits.max_width, limits.max_height, limits.max_cells
            ),
            GridError::OutOfBounds(c) => write!(f, "cell ({c}) is off the map"),
            GridError::NotAdjacent { step } => write!(
                f,
                "obstacle step {step} is neither a wait nor a move to a 4-neighbour"
            ),
            GridError::EmptyTrajectory => write!(f, "obstacle has no cell"),
            GridError::EmptySpan { from, to } => {
                write!(f, "block span {from}..{to} is empty (to must be > from)")
            }
            GridError::TickOverflow => write!(f, "tick too large (must stay below {})", u32::MAX),
            GridError::TooManyBlocks { cell, limit } => write!(
                f,
                "cell ({cell}) already holds {limit} blocks, the limit per cell"
            ),
        }
    }
}

impl std::error::Error for GridError {}
