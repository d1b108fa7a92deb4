//! The world model: static walls as bit rows, temporal obstacles as safe
//! intervals and departure records. Pure Rust, no Bevy.

mod bits;
mod cell;
mod error;
mod interval;
mod limits;
mod nav_grid;
mod regions;
mod spread;
mod static_grid;
mod temporal;

pub use bits::BitRows;
pub use cell::{Cell, Dir, DirSet, FOREVER, Tick};
pub use error::GridError;
pub use interval::Interval;
pub use limits::MapLimits;
pub use nav_grid::{DEFAULT_MAX_BLOCKS_PER_CELL, NavGrid};
pub use regions::Regions;
pub use spread::nearest_free_cells;
pub use static_grid::{MAX_CELLS, MAX_SIDE, StaticGrid};
pub use temporal::{NEAR_LAYER_TICKS, ObstacleEnd, TemporalMap};
