//! Step-by-step validation of a materialised path.

use crate::grid::{Cell, NavGrid, Tick};

use super::query::{GoalPolicy, Query};

/// The first thing wrong with a path, as found by [`validate_path`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathViolation {
    /// The path has no cell.
    Empty,
    /// The first cell is not the query's start.
    WrongStart(Cell),
    /// The last cell is not the query's goal.
    WrongGoal(Cell),
    /// The cell at `tick` is a wall, off the map, or occupied.
    Blocked {
        /// The offending cell.
        cell: Cell,
        /// When the agent would be there.
        tick: Tick,
    },
    /// Consecutive cells are neither equal nor adjacent.
    Jump {
        /// Tick of the first of the two cells.
        tick: Tick,
    },
    /// The move starting at `tick` swaps places with an obstacle.
    Swap {
        /// Departure tick of the move.
        tick: Tick,
    },
    /// With the `Stay` policy, the goal is blocked at some later tick.
    GoalNotKept,
    /// The path is longer than the cost the planner reported.
    LengthMismatch {
        /// Number of actions in the path.
        actions: usize,
        /// The reported cost.
        cost: u32,
    },
}

/// Checks a path (one cell per tick from `query.start_tick`) against the
/// world: right start and goal, only waits and single moves, no vertex or swap
/// conflict, the goal policy, and `cells.len() == cost + 1`.
pub fn validate_path(
    grid: &NavGrid,
    query: &Query,
    cells: &[Cell],
    cost: u32,
) -> Result<(), PathViolation> {
    let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
        return Err(PathViolation::Empty);
    };
    if first != query.start {
        return Err(PathViolation::WrongStart(first));
    }
    if last != query.goal {
        return Err(PathViolation::WrongGoal(last));
    }
    if cells.len() != cost as usize + 1 {
        return Err(PathViolation::LengthMismatch {
            actions: cells.len() - 1,
            cost,
        });
    }
    let t0 = query.start_tick;
    if !grid.is_free(first, t0) {
        return Err(PathViolation::Blocked {
            cell: first,
            tick: t0,
        });
    }
    for (k, pair) in cells.windows(2).enumerate() {
        let tick = t0 + k as Tick;
        let (a, b) = (pair[0], pair[1]);
        if a != b && a.dir_to(b).is_none() {
            return Err(PathViolation::Jump { tick });
        }
        if !grid.is_free(b, tick + 1) {
            return Err(PathViolation::Blocked {
                cell: b,
                tick: tick + 1,
            });
        }
        if a != b && grid.is_swap(a, b, tick) {
            return Err(PathViolation::Swap { tick });
        }
    }
    if query.policy == GoalPolicy::Stay {
        let arrival = t0 + cost;
        match grid.free_forever_from(last) {
            Some(from) if from <= arrival => {}
            _ => return Err(PathViolation::GoalNotKept),
        }
    }
    Ok(())
}
