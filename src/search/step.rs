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
/// are reported. Intervals before number `first` are skipped: a step back
/// into the cell the agent just came from passes `first` past the interval
/// it left, whose arrivals are no earlier than its own.
#[allow(clippy::too_many_arguments)] // one step of one state
#[inline]
pub(crate) fn step_into(
    obstacles: &TemporalMap,
    n: usize,
    dir: Dir,
    g: Tick,
    stay_until: Tick,
    immediate: bool,
    first: u32,
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
        let last = (obstacles.interval_count(n) as u32).checked_sub(1);
        if let Some(last) = last.filter(|&k| immediate && earliest <= latest && k >= first) {
            emit(earliest, last);
        }
        return;
    }
    if first as usize >= obstacles.interval_count(n) {
        return;
    }
    let (intervals, entries) = obstacles.safe_intervals_and_entries(n);
    // An obstacle leaving the cell stood on it the tick before, so only an
    // arrival at the first tick of a safe interval can swap with one, and
    // the interval's entry lists who leaves then (unless some edge
    // constraint stands without a block: then every tick is looked up).
    let loose = !obstacles.departures_blocked();
    let against = 1 << dir.reverse() as u8;
    let first = if first == 0 {
        intervals.partition_point(|iv| iv.end < earliest)
    } else {
        first as usize
    };
    for (k, iv) in intervals.iter().enumerate().skip(first) {
        if iv.start > latest {
            break;
        }
        let last = iv.end.min(latest);
        let mut t = iv.start.max(earliest);
        // Leave at the first tick the move does not swap with an obstacle
        // coming the other way.
        if loose {
            while t <= last && obstacles.departs(n, t - 1, dir.reverse()) {
                t += 1;
            }
        } else if t <= last && t == iv.start && entries[k] & against != 0 {
            t += 1;
        }
        if t <= last && (immediate || t > earliest) {
            emit(t, k as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Interval;

    /// The arrivals `step_into` reports into cell 1 of a 2x1 map whose
    /// cell 1 is blocked during ticks 4-5 and 9-10.
    fn arrivals(g: Tick, stay_until: Tick, first: u32) -> Vec<(Tick, u32)> {
        let mut map = TemporalMap::new(2, 1);
        map.block(1, Interval::new(4, 5));
        map.block(1, Interval::new(9, 10));
        let mut out = Vec::new();
        step_into(&map, 1, Dir::East, g, stay_until, true, first, |t, k| {
            out.push((t, k))
        });
        out
    }

    #[test]
    fn a_step_back_skips_the_intervals_before_first() {
        assert_eq!(arrivals(2, FOREVER - 1, 0), [(3, 0), (6, 1), (11, 2)]);
        assert_eq!(arrivals(2, FOREVER - 1, 1), [(6, 1), (11, 2)]);
        assert_eq!(arrivals(2, FOREVER - 1, 3), []);
        // Past the last block only the last interval is left.
        assert_eq!(arrivals(12, FOREVER - 1, 2), [(13, 2)]);
        assert_eq!(arrivals(12, FOREVER - 1, 3), []);
        // The agent must leave by tick 6: the third interval is out of reach.
        assert_eq!(arrivals(2, 6, 1), [(6, 1)]);
    }

    /// An obstacle leaving cell 1 westward during `[t, t + 1]` forbids the
    /// move east into it then, whether cell 1 is blocked at `t` (a moving
    /// obstacle) or free (an edge constraint alone).
    #[test]
    fn a_swap_delays_the_arrival_with_or_without_a_block() {
        let first_arrival = |map: &TemporalMap, g: Tick| {
            let mut out = Vec::new();
            step_into(map, 1, Dir::East, g, FOREVER - 1, true, 0, |t, k| {
                out.push((t, k))
            });
            out.first().copied()
        };
        let mut moving = TemporalMap::new(2, 1);
        moving.block(1, Interval::new(0, 4));
        moving.add_departure(1, 4, Dir::West);
        assert!(moving.departures_blocked());
        assert_eq!(first_arrival(&moving, 1), Some((6, 0)));
        assert_eq!(first_arrival(&moving, 5), Some((6, 0)));
        assert_eq!(first_arrival(&moving, 6), Some((7, 0)));
        let mut edge = TemporalMap::new(2, 1);
        edge.add_departure(1, 4, Dir::West);
        assert!(!edge.departures_blocked());
        assert_eq!(first_arrival(&edge, 3), Some((4, 0)));
        assert_eq!(first_arrival(&edge, 4), Some((6, 0)));
    }
}
