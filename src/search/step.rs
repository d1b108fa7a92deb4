//! SIPP steps into a neighbour with temporal activity: every safe interval
//! of the neighbour the agent can reach from where it stands, each at the
//! earliest tick it can get in (waiting first if needed).
//!
//! This is SIPP's successor rule; JPST uses it at full nodes toward busy
//! neighbours. Canonical paths wait as late as possible, so a wait only ever
//! ends with a move into a neighbour whose safe interval opens later than
//! the agent could otherwise enter it (or whose entry is delayed by a swap).

use crate::grid::{Dir, FOREVER, TemporalMap, Tick};

/// Calls `emit(arrival, interval)` for every safe interval of dense cell `n`
/// that an agent standing on the neighbouring cell since tick `g`, and able
/// to stay there until `stay_until`, can enter by a move in direction `dir`;
/// `arrival` is the earliest tick it can arrive in that interval. With
/// `immediate == false` only arrivals after `g + 1` (those needing a wait)
/// are reported.
#[inline]
pub(crate) fn step_into(
    obstacles: &TemporalMap,
    n: usize,
    dir: Dir,
    g: Tick,
    stay_until: Tick,
    immediate: bool,
    mut emit: impl FnMut(Tick, u32),
) {
    let Some(earliest) = g.checked_add(1).filter(|t| *t < FOREVER) else {
        return;
    };
    // The last tick at which the agent can arrive next door.
    let latest = stay_until.saturating_add(1);
    if obstacles.busy_end(n) <= g {
        // Nothing happens next door from `g` on: the last safe interval,
        // entered at once (no departure can swap with the move either).
        if immediate && earliest <= latest {
            emit(earliest, obstacles.interval_count(n) as u32 - 1);
        }
        return;
    }
    let intervals = obstacles.safe_intervals(n);
    let first = intervals.partition_point(|iv| iv.end < earliest);
    for (k, iv) in intervals.iter().enumerate().skip(first) {
        if iv.start > latest {
            break;
        }
        let last = iv.end.min(latest);
        let mut t = iv.start.max(earliest);
        // Leave at the first tick the move does not swap with an obstacle
        // coming the other way.
        while t <= last && obstacles.departs(n, t - 1, dir.reverse()) {
            t += 1;
        }
        if t <= last && (immediate || t > earliest) {
            emit(t, k as u32);
        }
    }
}
