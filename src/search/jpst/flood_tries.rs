//! Which floods a query tries, in what order, and within what limits: the
//! narrow ones just above the lower bound, the bands of waits where the
//! goal is free only late, and the wide ones after them (see
//! [`Jpst::with_flood`](super::Jpst::with_flood)).

use crate::grid::{FOREVER, NavGrid, Tick};

use super::super::goal::Prepared;
use super::super::query::Query;
use super::flood::{Flood, Flooded};

/// Row words a flood counts as one temporal expansion when its odds weigh
/// it against the search. Timed side by side on the same queries, a word
/// costs what 1/18 to 1/10 of an expansion does (12-30 ns against 180-290
/// ns); whole sequential runs of brc202d, lak303d, ost003d, room-64-64-8
/// and maze-128-128-1 with 16, 32 and 64 did best overall with 32 (brc202d
/// 1.10x -> 1.33x over 16, maze-128-128-1 first 100 agents 0.87x ->
/// 0.72-0.80x, the rest within 0.07).
pub(super) const WORDS_PER_EXPANSION: u64 = 32;

/// Slack above the lower bound of each flood that may be tried, in ticks;
/// a query tries those that recent arrivals say are worth it (see
/// `slack_plan.rs`). Sequential runs with all of 4, 8, 16 and 32 tried,
/// against 4 and 16: ost003d 5.31x -> 5.67x, lak303d 4.18x -> 4.62x,
/// brc202d 7.00x -> 7.87x, den520d 4.59x -> 4.88x, but room-64-64-8 1.11x
/// -> 1.05x (its agents 300-599 0.93x), where most arrivals lie 16 or more
/// ticks late; chosen from recent arrivals, room-64-64-8 reads 1.19x.
pub(super) const FLOOD_SLACKS: [Tick; 4] = [4, 8, 16, 32];

/// Slacks of the wide floods, tried in turn after those of
/// [`FLOOD_SLACKS`] fail, each while it has been paying on the queries
/// that get to it (see `wide_odds`).
pub(super) const WIDE_SLACKS: [Tick; 2] = [64, 256];

/// Row words the wide floods' odds count as one expansion.
pub(super) const WIDE_WORDS_PER_EXPANSION: u64 = 12;

/// Steps above the quickest walk that the cells of a flood for a goal free
/// only later may add, tried in turn: a band too narrow to wait in dies
/// out after a few words.
pub(super) const WAIT_BANDS: [Tick; 3] = [2, 8, 32];

/// Most row words the floods of one query may process (32 MiB of reached
/// sets).
pub(super) const FLOOD_MAX_WORDS: u64 = 1 << 22;

/// Most row words the floods of `query` may process: its expansion
/// budget, counted as the flood's odds count words, within
/// [`FLOOD_MAX_WORDS`].
pub(super) fn flood_budget(query: &Query) -> u64 {
    query.budget.map_or(FLOOD_MAX_WORDS, |b| {
        b.saturating_mul(WORDS_PER_EXPANSION).min(FLOOD_MAX_WORDS)
    })
}

/// The last tick a path of `query` may arrive at: its horizon, or the
/// last tick a flood can bound.
pub(super) fn last_tick(query: &Query) -> Tick {
    query.horizon.map_or(FOREVER - 1, |h| {
        query.start_tick.saturating_add(h).min(FOREVER - 1)
    })
}

/// An earliest path found by floods bounded `lower` plus each of `slacks`
/// ticks in turn (first, where the goal is free only late, by floods kept
/// to the cells each of `bands` steps off the quickest walks), if one
/// arrives by the last bound: [`Flooded::NotBy`] if
/// none does, [`Flooded::TooBig`] if the horizon or the word limit
/// (shared by every flood of the query through `words`) stops the tries.
pub(super) fn flood_fill(
    flood: &mut Flood,
    grid: &NavGrid,
    query: &Query,
    p: &Prepared,
    (lower, walk): (Tick, Tick),
    (bands, slacks): (&[Tick], &[Tick]),
    words: &mut u64,
) -> Flooded {
    let start = query.start_tick;
    let last = last_tick(query);
    let max_words = flood_budget(query);
    // The goal is free for good only well after the quickest walk would
    // arrive, so the agent must wait on the way, and a flood bounded by that
    // tick takes in every cell it could wait on. A path that arrives at the
    // lower bound is optimal whatever cells it uses: first look for one
    // through the cells of near-quickest walks only.
    let by = start.saturating_add(lower);
    if lower > walk + FLOOD_SLACKS[0] && by <= last {
        let trip = (query.start, start, query.goal, p.goal_ready);
        for &band in bands {
            match flood.run_within(grid, trip, by, walk + band, max_words, words) {
                Flooded::Path(cells) => return Flooded::Path(cells),
                Flooded::TooBig => return Flooded::TooBig,
                Flooded::NotBy => {}
            }
        }
    }
    for &slack in slacks {
        let arrive_by = start.saturating_add(lower).saturating_add(slack).min(last);
        match flood.run(
            grid,
            query.start,
            start,
            query.goal,
            p.goal_ready,
            arrive_by,
            max_words,
            words,
        ) {
            Flooded::NotBy if arrive_by < last => {}
            // The horizon allows no wider flood.
            Flooded::NotBy => return Flooded::TooBig,
            found => return found,
        }
    }
    Flooded::NotBy
}
