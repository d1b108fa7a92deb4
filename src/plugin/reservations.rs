//! What each unit, scheduled block and hazard has written into the grid,
//! so it can be taken out again exactly.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::grid::{Cell, NavGrid, ObstacleEnd, TemporalMap, Tick};
use crate::search::Query as PathQuery;
use crate::search::{GoalPolicy, validate_path};

use super::components::{MovingHazard, ScheduledBlock};

/// One unit's reservation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reserved {
    /// Standing on `cell` from tick `from` on, for ever.
    Idle {
        /// The cell.
        cell: Cell,
        /// First reserved tick.
        from: Tick,
    },
    /// On `cells[k]` at tick `start + k`, then on the last cell for ever.
    Path {
        /// Tick of `cells[0]`.
        start: Tick,
        /// One cell per tick.
        cells: Vec<Cell>,
    },
}

impl Reserved {
    /// Writes the reservation into `grid` (cells off the map are ignored).
    pub(crate) fn apply(&self, grid: &mut NavGrid) {
        let _ = match self {
            Reserved::Idle { cell, from } => grid.add_block(*cell, *from, None),
            Reserved::Path { start, cells } => grid.add_obstacle(*start, cells, ObstacleEnd::Park),
        };
    }

    /// Takes the reservation out of `grid` again.
    pub(crate) fn remove(&self, grid: &mut NavGrid) {
        let _ = match self {
            Reserved::Idle { cell, from } => grid.remove_block(*cell, *from, None),
            Reserved::Path { start, cells } => {
                grid.remove_obstacle(*start, cells, ObstacleEnd::Park)
            }
        };
    }

    /// The cell where the unit ends up and stays for ever.
    pub(crate) fn parked_cell(&self) -> Cell {
        match self {
            Reserved::Idle { cell, .. } => *cell,
            Reserved::Path { cells, .. } => cells[cells.len() - 1],
        }
    }

    /// The unit's cell at `tick`.
    pub(crate) fn cell_at(&self, tick: Tick) -> Cell {
        match self {
            Reserved::Idle { cell, .. } => *cell,
            Reserved::Path { start, cells } => {
                let i = tick.saturating_sub(*start) as usize;
                cells[i.min(cells.len() - 1)]
            }
        }
    }

    /// True if the reservation holds ticks before `now`.
    pub(crate) fn starts_before(&self, now: Tick) -> bool {
        match self {
            Reserved::Idle { from, .. } => *from < now,
            Reserved::Path { start, .. } => *start < now,
        }
    }

    /// The same reservation without the ticks before `now`.
    pub(crate) fn trimmed_to(&self, now: Tick) -> Reserved {
        match self {
            Reserved::Path { start, cells } if now > *start => {
                let k = (now - start) as usize;
                if k + 1 >= cells.len() {
                    Reserved::Idle {
                        cell: cells[cells.len() - 1],
                        from: now,
                    }
                } else {
                    Reserved::Path {
                        start: now,
                        cells: cells[k..].to_vec(),
                    }
                }
            }
            Reserved::Idle { cell, from } if now > *from => Reserved::Idle {
                cell: *cell,
                from: now,
            },
            other => other.clone(),
        }
    }

    /// True if the reservation holds `cell` at some tick in `from..=to`.
    pub(crate) fn touches(&self, cell: Cell, from: Tick, to: Tick) -> bool {
        match self {
            Reserved::Idle { cell: c, from: f } => *c == cell && to >= *f,
            Reserved::Path { start, cells } => {
                let last = start + cells.len() as Tick - 1;
                cells.iter().enumerate().any(|(k, c)| {
                    let t = start + k as Tick;
                    *c == cell && t >= from && t <= to
                }) || (cells[cells.len() - 1] == cell && to >= last)
            }
        }
    }
}

/// Replaces reservation `old` with `new` in `grid` if `new`, a path, is
/// valid against everything else there; otherwise leaves `grid` as it was.
pub(crate) fn swap_if_valid(grid: &mut NavGrid, old: &Reserved, new: &Reserved) -> bool {
    let Reserved::Path { start, cells } = new else {
        return false;
    };
    old.remove(grid);
    let query = PathQuery::new(cells[0], cells[cells.len() - 1])
        .starting_at(*start)
        .with_policy(GoalPolicy::Stay);
    if validate_path(grid, &query, cells, cells.len() as u32 - 1).is_err() {
        old.apply(grid);
        return false;
    }
    new.apply(grid);
    true
}

/// Everything the plugin wrote into [`NavWorld`](super::NavWorld)'s grid on
/// behalf of entities.
#[derive(Resource, Default, Debug)]
pub(crate) struct Reservations {
    /// Per unit.
    pub units: HashMap<Entity, Reserved>,
    /// Scheduled blocks, per entity.
    pub blocks: HashMap<Entity, ScheduledBlock>,
    /// Moving hazards, per entity.
    pub hazards: HashMap<Entity, MovingHazard>,
    /// The grid was replaced: write everything into it again.
    pub reapply: bool,
    /// Until this tick, units check their next step against blocks and
    /// hazards added lately, which committed paths may not have known of
    /// (their replans land only after the latency allowance).
    pub recheck_until: Tick,
}

impl Reservations {
    /// Drops every tick before `now` from the grid and from the units'
    /// reservations, in place, so memory does not grow with time. Blocks
    /// and hazards keep their full spans here: taking one out later takes
    /// out what the grid still holds of it.
    pub(crate) fn forget_before(&mut self, grid: &mut NavGrid, now: Tick) {
        grid.obstacles_mut().forget_before(now);
        for reserved in self.units.values_mut() {
            if reserved.starts_before(now) {
                *reserved = reserved.trimmed_to(now);
            }
        }
    }

    /// Rebuilds the grid's temporal obstacles from scratch into a grid that
    /// was replaced (a resized tilemap), dropping every tick before `now`.
    pub(crate) fn rebuild(&mut self, grid: &mut NavGrid, now: Tick) {
        let (w, h) = (grid.width(), grid.height());
        *grid.obstacles_mut() = TemporalMap::with_time_base(w, h, now);
        for block in self.blocks.values() {
            if block.to.is_none_or(|to| to > now) {
                let _ = grid.add_block(block.cell, block.from.max(now), block.to);
            }
        }
        for hazard in self.hazards.values() {
            if !hazard.is_gone(now) {
                let _ = grid.add_obstacle(hazard.t0, &hazard.cells, hazard.end);
            }
        }
        for reserved in self.units.values_mut() {
            *reserved = reserved.trimmed_to(now);
            reserved.apply(grid);
        }
    }
}
