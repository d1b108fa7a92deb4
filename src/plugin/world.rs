//! The navigation world the plugin keeps: grid, clock, layout, settings.

use bevy::prelude::*;

use crate::grid::{Cell, MapLimits, NavGrid, StaticGrid, Tick};
use crate::search::{Heuristic, PlannerKind};

/// The grid every unit plans on, and the nav clock.
///
/// Insert it yourself (`NavWorld::new(StaticGrid::open(w, h)?)`) or let the
/// tilemap mirroring create it from a map marked with
/// [`NavTilemap`](super::NavTilemap). The clock advances by one per run of the
/// nav schedule (default `FixedUpdate`).
#[derive(Resource, Clone, Debug)]
pub struct NavWorld {
    /// Walls and every reservation, block and hazard, in nav ticks.
    pub grid: NavGrid,
    /// The current nav tick: units stand on their cell for this tick.
    pub tick: Tick,
}

impl NavWorld {
    /// A world with these walls at nav tick 0.
    pub fn new(walls: StaticGrid) -> Self {
        Self {
            grid: NavGrid::new(walls),
            tick: 0,
        }
    }
}

/// How cells map to world space: the centre of cell `(0, 0)` and the size of
/// one cell. Filled from the mirrored tilemap's transform, grid size and
/// anchor, or set by hand.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct NavLayout {
    /// World position of the centre of cell `(0, 0)`.
    pub origin: Vec2,
    /// World size of one cell.
    pub cell_size: Vec2,
}

impl Default for NavLayout {
    fn default() -> Self {
        Self {
            origin: Vec2::ZERO,
            cell_size: Vec2::ONE,
        }
    }
}

impl NavLayout {
    /// The world position of the centre of `cell`.
    pub fn cell_to_world(&self, cell: Cell) -> Vec2 {
        self.origin + Vec2::new(cell.x as f32, cell.y as f32) * self.cell_size
    }

    /// The cell under world position `pos`, if it is not left of or below
    /// cell `(0, 0)` (the map's size is not checked).
    pub fn world_to_cell(&self, pos: Vec2) -> Option<Cell> {
        let local = ((pos - self.origin) / self.cell_size + Vec2::splat(0.5)).floor();
        (local.x >= 0.0 && local.y >= 0.0 && local.x < u32::MAX as f32 && local.y < u32::MAX as f32)
            .then(|| Cell::new(local.x as u32, local.y as u32))
    }
}

/// Tuning of the plugin, set through [`JpstPlugin`](super::JpstPlugin)'s
/// builder.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavSettings {
    /// Most queries planned per nav tick.
    pub budget_per_tick: usize,
    /// Node expansions after which a batch starts no further query (`None`:
    /// no limit); the units left over are first in line for the next batch.
    /// It bounds how long the main thread can wait for a batch whatever the
    /// crowd does, and being a count, not a time, keeps runs deterministic.
    pub expansions_per_batch: Option<u64>,
    /// Nav ticks between dispatching a batch and applying its plans; plans
    /// start that many ticks later, so background tasks have that long.
    pub latency_ticks: Tick,
    /// Nav ticks a unit without a path waits before retrying, doubled for
    /// each failure in a row up to 8 times (a unit whose goal is walled off
    /// waits for the walls to change).
    pub retry_ticks: Tick,
    /// Nav ticks between prunings that drop what is in the past from the
    /// reservation table (in place), so memory stays flat.
    pub compact_every: Tick,
    /// The planner ([`PlannerKind::Auto`] by default: JPST, unless the map
    /// is crowded and JPST's temporal search has been doing most of the
    /// work; SIPP then).
    pub planner: PlannerKind,
    /// The planner's heuristic.
    pub heuristic: Heuristic,
    /// Most node expansions per query (`None`: no limit). A query that runs
    /// out fails with `BudgetExhausted` and is retried after a back-off.
    pub query_budget: Option<u64>,
    /// Latest arrival a query may plan, in ticks after its start (`None`: no
    /// limit); beyond it the query fails with `HorizonExceeded`.
    pub horizon: Option<Tick>,
    /// Largest tilemap mirrored; a bigger one is refused with an error in
    /// the log and the previous grid (if any) stays.
    pub map_limits: MapLimits,
}

impl Default for NavSettings {
    fn default() -> Self {
        Self {
            budget_per_tick: 256,
            expansions_per_batch: Some(200_000),
            latency_ticks: 1,
            retry_ticks: 16,
            compact_every: 64,
            planner: PlannerKind::Auto,
            heuristic: Heuristic::Manhattan,
            query_budget: Some(250_000),
            horizon: Some(1 << 16),
            map_limits: MapLimits::default(),
        }
    }
}
