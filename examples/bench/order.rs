//! The order in which the planners answer a query.
//!
//! The planner that runs second on a query finds much of what the first one
//! read (the busy cells' timelines above all) still in the processor's
//! caches. On busy maps that alone is worth 10% or more of its time, so
//! JPST and SIPP take turns going first; time-expanded A*, the reference,
//! runs last.

use super::record::{JPST, SIPP};

/// Planner positions in the order they answer query number `query`: JPST
/// first on even queries, SIPP first on odd ones, the others after both.
pub fn turns(query: usize, planners: usize) -> impl Iterator<Item = usize> {
    let pair = if query.is_multiple_of(2) {
        [JPST, SIPP]
    } else {
        [SIPP, JPST]
    };
    pair.into_iter().chain(2..planners)
}
