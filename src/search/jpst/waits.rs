//! "Wait here, then step into a neighbour's safe interval" successors.
//!
//! Canonical paths wait as late as possible, so a wait only ever ends with a
//! move into a neighbour whose safe interval opens later than the agent could
//! otherwise enter it (or whose entry is delayed by a swap). These are the
//! only successors that need a wait; moves at `g + 1` are the jumps' job.

use crate::grid::{Dir, FOREVER, StaticGrid, TemporalMap, Tick};

/// Calls `emit(neighbour, arrival)` for every wait successor of an agent
/// standing on dense cell `cell` since tick `g` (the cell must be free then),
/// until `emit` returns `true`. Returns whether it did.
#[inline]
pub(super) fn for_each_wait(
    walls: &StaticGrid,
    obstacles: &TemporalMap,
    cell: usize,
    g: Tick,
    mut emit: impl FnMut(usize, Tick) -> bool,
) -> bool {
    // Nothing happens around the cell any more: every move can be made now.
    if obstacles.near_busy_end(cell) <= g {
        return false;
    }
    let Some(earliest) = g.checked_add(1).filter(|t| *t < FOREVER) else {
        return false;
    };
    let stay_until = match obstacles.interval_at(cell, g) {
        Some(k) => obstacles.safe_intervals(cell)[k].end,
        None => return false,
    };
    // The last tick at which the agent can arrive next door.
    let latest = stay_until.saturating_add(1);
    let here = walls.cell_at(cell);
    for dir in Dir::ALL {
        let Some(next) = here.step(dir).filter(|n| walls.is_passable(*n)) else {
            continue;
        };
        let n = walls.index(next);
        if obstacles.busy_end(n) <= g {
            continue; // free from now on and no swap ahead: a jump's business
        }
        let intervals = obstacles.safe_intervals(n);
        let first = intervals.partition_point(|iv| iv.end < earliest);
        for iv in &intervals[first..] {
            if iv.start > latest {
                break;
            }
            let last = iv.end.min(latest);
            let mut t = iv.start.max(earliest);
            while t <= last && obstacles.departs(n, t - 1, dir.reverse()) {
                t += 1;
            }
            if t <= last && t > earliest && emit(n, t) {
                return true;
            }
        }
    }
    false
}
