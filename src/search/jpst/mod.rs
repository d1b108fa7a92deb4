//! Temporal Jump Point Search (JPST).
//!
//! A* over (cell, safe interval) states like SIPP, but successors are *jump
//! points*: straight runs through quiet cells (nothing changes in their 3x3
//! neighbourhood at the arrival tick or later; an obstacle parked for good
//! is a wall from its park tick on) are skipped with 4-connected JPS pruning
//! in the canonical order vertical, then horizontal, then wait. A jump stops
//! at the goal, at forced cells, at the jump limit, and at the first cell
//! that is not quiet: that cell becomes a full node whose steps toward busy
//! neighbours are SIPP steps (every reachable safe interval, waiting first
//! when needed; `step.rs`) and whose steps toward quiet neighbours are jumps
//! again (`scan.rs`). Waits only ever happen at full nodes, just before a
//! neighbour opens. That search is in `search.rs`.
//!
//! Before that search, [`Jpst::plan`](Planner::plan) tries two cheaper
//! stages that answer only with paths proven earliest: jump point search
//! on the walls alone (`bare.rs`, `jump_table.rs`), whose path is kept if
//! it meets no moving obstacle or can be mended without arriving later
//! (`static_first.rs`, `reroute.rs`), and a bit-parallel flood of the
//! time-expanded grid within a few ticks of the lower bound that pass
//! gives, then within 64 and 256 (`flood/`; which floods a query tries,
//! `flood_tries.rs`). Each is tried only while it has been paying. Where
//! the pass pays against the search but seldom holds, the flood goes first
//! and finds the quickest walk itself (`pass_plan.rs`). Where the query's estimate is Manhattan's and the
//! walls may mislead it, the temporal search is guided by walking
//! distances instead (`walk_estimate.rs`).

mod bare;
mod bare_cells;
mod flood;
mod flood_tries;
mod jump_table;
mod pass_plan;
mod reroute;
mod scan;
mod search;
mod slack_plan;
mod static_first;
#[cfg(test)]
mod test_rng;
mod walk_estimate;

use crate::grid::{NavGrid, Tick};

use super::Planner;
use super::error::PlanError;
use super::goal::QueryRunner;
use super::plan::{Plan, SearchStats};
use super::query::{Heuristic, Query};
use super::validate::validate_path;
use bare::BareSearch;
use flood::{Flood, Flooded};
use flood_tries::{
    FLOOD_SLACKS, WAIT_BANDS, WIDE_SLACKS, WIDE_WORDS_PER_EXPANSION, WORDS_PER_EXPANSION,
    flood_budget, flood_fill, last_tick,
};
use pass_plan::PassOrFlood;
use reroute::WideMends;
use search::{JpstSearch, OnFoot};
use slack_plan::RecentArrivals;
use static_first::Odds;
pub use walk_estimate::WalkingEstimate;
use walk_estimate::{Guide, WalkEstimates};

/// The default jump limit: effectively none.
pub const NO_JUMP_LIMIT: u32 = u32::MAX;

/// Which stage of [`Jpst`] answered a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JpstStage {
    /// The shortest walk over the walls alone, as found or mended (see
    /// [`Jpst::with_static_first`]).
    FirstPass,
    /// The flood of the time-expanded grid (see [`Jpst::with_flood`]).
    Flood,
    /// The temporal jump point search, which also reports every error.
    Search,
}

/// Temporal Jump Point Search over a [`NavGrid`].
#[derive(Debug)]
pub struct Jpst {
    runner: QueryRunner,
    /// The stage that answered the last query.
    last_stage: JpstStage,
    search: JpstSearch,
    /// The first pass's search, with the jump table of the last map.
    bare: BareSearch,
    /// Try the path on the bare map first (see [`Jpst::with_static_first`]).
    static_first: bool,
    /// Whether the first pass has been paying lately.
    odds: Odds,
    /// Flood the band of near-shortest paths before the temporal search
    /// (see [`Jpst::with_flood`]).
    flood_first: bool,
    flood: Flood,
    /// Whether the flood has been paying lately.
    flood_odds: Odds,
    /// Whether each wide flood ([`WIDE_SLACKS`]) has been paying lately, on
    /// the queries the narrower ones left unanswered.
    wide_odds: [Odds; WIDE_SLACKS.len()],
    /// How late recent queries arrived, which picks the narrow floods a
    /// query tries.
    recent: RecentArrivals,
    /// Whether the first pass has been paying against the flood lately.
    pass_plan: PassOrFlood,
    /// Whether the mend's widest stretch has been finding detours lately.
    wide_mends: WideMends,
    /// When the temporal search is guided by walking distances (see
    /// [`Jpst::with_walking_estimate`]).
    walking_estimate: WalkingEstimate,
    walks: WalkEstimates,
}

impl Default for Jpst {
    fn default() -> Self {
        Self::new(Heuristic::default())
    }
}

impl Jpst {
    /// A planner guided by `heuristic`, with no jump limit and no
    /// speculative waits.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            runner: QueryRunner::new(heuristic),
            last_stage: JpstStage::Search,
            search: JpstSearch::new(NO_JUMP_LIMIT),
            bare: BareSearch::default(),
            static_first: true,
            odds: Odds::default(),
            flood_first: true,
            flood: Flood::default(),
            flood_odds: Odds::after_a_search(),
            wide_odds: std::array::from_fn(|_| Odds::costed()),
            recent: RecentArrivals::default(),
            pass_plan: PassOrFlood::default(),
            wide_mends: WideMends::default(),
            walking_estimate: WalkingEstimate::Auto,
            walks: WalkEstimates::default(),
        }
    }

    /// Caps every jump at `cells` steps (at least 1): the cell reached becomes
    /// an intermediate jump point. Bounds the work of one expansion on huge
    /// open maps; never changes the cost found.
    pub fn with_jump_limit(mut self, cells: u32) -> Self {
        self.search.jump_limit = cells.max(1);
        self
    }

    /// Expand "wait, then move" successors at once instead of queueing them
    /// (off by default). Never changes the cost found.
    ///
    /// A wait successor's f-value is always above that of the node it comes
    /// from (the wait costs at least one tick more than a move), so the
    /// queue would only reach it later, and often never: with moving
    /// obstacles around, expanding it at once costs more than it saves.
    pub fn with_speculative_wait(mut self, on: bool) -> Self {
        self.search.speculative_wait = on;
        self
    }

    /// Look for a path on the map without its moving obstacles first (on
    /// by default). Never changes the cost found.
    ///
    /// No obstacle can make a path shorter, so if the path found on the
    /// bare map meets no obstacle it is optimal, and jump point search
    /// finds it much faster than a temporal search would. Where it meets
    /// some, a detour of the same length around them is just as good and
    /// is looked for next, along straight stretches of the path; where the
    /// goal is free for good only later (the `Stay` policy), so is a path
    /// that waits for it. Where neither works, that first pass was
    /// wasted, so once it has seen two temporal searches to weigh it
    /// against, the planner stops trying it while it does not pay (it
    /// still probes once in 16 queries), so which queries try it depends
    /// on those before. The pass's jump point search reads its jumps from
    /// bit rows, 64 cells at a time, with a table of where vertical jumps
    /// stop made once per map (one bit per cell; again when the walls
    /// change). Under the Manhattan heuristic, and with the flood on, it
    /// raises that estimate to the bound of two landmarks once it has
    /// expanded a quarter as many jump points on the map as the map has
    /// cells (finding them takes three breadth-first searches of the map,
    /// timed with the query that finds them; the flood's distance searches
    /// use them too). Maps of more than 2^22 cells skip it: its search
    /// state takes 16 bytes per cell.
    ///
    /// With [`Query::budget`] the pass has a budget of its own, equal to
    /// the query's: a query may expand up to twice its budget in all
    /// (three times with [`with_flood`](Self::with_flood); `BudgetExhausted`
    /// reports every stage), never fails where the temporal search alone
    /// would have succeeded, and may succeed where that search alone would
    /// have run out.
    pub fn with_static_first(mut self, on: bool) -> Self {
        self.static_first = on;
        self
    }

    /// Where the first pass does not answer, flood the time-expanded grid
    /// before the temporal search (on by default). Never changes the cost
    /// found.
    ///
    /// The flood keeps, tick by tick, the set of cells the agent can stand
    /// on as bit rows, 64 cells to a word, and stops at the first tick the
    /// goal is in it: a breadth-first search of (cell, tick) states, so
    /// the arrival is the earliest. It only looks for paths arriving within
    /// a few ticks of a lower bound (the bare path's length, or the
    /// Manhattan distance, or when the goal is free for good), which keeps
    /// it to a thin band of cells around the near-shortest paths (a cell
    /// further from the goal on foot than the ticks left is dropped); it
    /// tries 4, 8, 16 and then 32 ticks of slack, each only where at least
    /// a fifth of the recent queries that arrived later than the slacks
    /// tried before it arrived within it. Where the goal is free for good
    /// only well after the quickest walk would arrive, every cell the agent
    /// could wait on is in that band; a path arriving at the lower bound is
    /// then first looked for among the cells a few steps off the quickest
    /// walks. Like the pass, these floods are tried only while they have
    /// been paying (in mazes crowded with units, arrivals are often
    /// hundreds of ticks late and the band is no thinner than the maze),
    /// probing once in 16 queries otherwise; they wait for one temporal
    /// search before their first try.
    ///
    /// Where they find no path, wide floods of 64 and then 256 ticks of
    /// slack may follow before the temporal search: each is tried while it
    /// has been paying on the queries that got to it (its share of paths
    /// found, times what the searches of those queries cost, against its
    /// own cost, counting 12 row words as an expansion), and always until
    /// two of those queries have been searched. On open maps and small
    /// crowded ones they answer the queries that arrive far later than the
    /// lower bound (a unit boxed in by traffic, say), which are the dearest
    /// to search.
    ///
    /// Maps of more than 2^22 cells skip it: its walking distances take 4
    /// bytes per cell of the map.
    ///
    /// Every 32 row words the flood processes, and every 32 cells its
    /// search of walking distances finds, count as one expansion (a word
    /// takes a tenth to an eighteenth of an expansion's time) in
    /// [`Planner::last_stats`] and against [`Query::budget`], which the
    /// flood gets in full, like the pass: a query may expand up to three
    /// times its budget in all.
    pub fn with_flood(mut self, on: bool) -> Self {
        self.flood_first = on;
        self
    }

    /// Where the query's heuristic is [`Heuristic::Manhattan`], guide the
    /// temporal search by the steps to the goal on foot over the walls
    /// instead, `when` it pays ([`WalkingEstimate::Auto`], the default).
    /// Never changes the cost found.
    ///
    /// Manhattan distances ignore walls, so in a maze the search they guide
    /// goes down every corridor that points at the goal. Walking distances
    /// are just as admissible (moving obstacles only make ways longer) and
    /// see the walls. They take one breadth-first search over the map per
    /// goal, kept for the next queries to the same goal (16 goals), paid
    /// only by queries the first pass and the flood leave to the temporal
    /// search, and only on maps of at most 2^20 cells. On open ground, and
    /// in small searches, they would not pay for themselves, so by default
    /// only where the walls mislead the Manhattan distance (see
    /// [`WalkingEstimate::Auto`]), and only once a search has spent an
    /// eighth of the map's cells in expansions (from the start where the
    /// quickest walk is twice the Manhattan distance or more): it goes on
    /// from there with the new estimate, losing nothing (entries already
    /// queued keep their keys, which stay lower bounds). The breadth-first search is timed
    /// with the query (not as a heuristic table build), and every 32 cells
    /// of the map count as one expansion in [`Planner::last_stats`], but
    /// not against [`Query::budget`]. A goal the start cannot walk to is
    /// reported [`PlanError::Unreachable`] once the table is made.
    pub fn with_walking_estimate(mut self, when: WalkingEstimate) -> Self {
        self.walking_estimate = when;
        self
    }

    /// The stage that answered the last query: where the temporal search
    /// answers most queries, JPST's cheaper stages are not paying and SIPP
    /// is usually faster ([`AutoPlanner`](super::AutoPlanner) switches on
    /// this).
    pub fn last_stage(&self) -> JpstStage {
        self.last_stage
    }
}

impl Planner for Jpst {
    fn name(&self) -> &'static str {
        "jpst"
    }

    fn last_stats(&self) -> SearchStats {
        self.runner.stats
    }

    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
        let (search, odds, bare) = (&mut self.search, &mut self.odds, &mut self.bare);
        let (flood, flood_odds) = (&mut self.flood, &mut self.flood_odds);
        let (wide_odds, recent) = (&mut self.wide_odds, &mut self.recent);
        let pass_plan = &mut self.pass_plan;
        let wide_mends = &mut self.wide_mends;
        let (walking, walks) = (self.walking_estimate, &mut self.walks);
        let stage = &mut self.last_stage;
        *stage = JpstStage::Search;
        // Without obstacles the temporal search is the bare one.
        let moving = grid.obstacles().touched_cells() > 0;
        let enabled =
            self.static_first && moving && grid.walls().cell_count() <= static_first::MAX_CELLS;
        let flooding = self.flood_first && moving && grid.walls().cell_count() <= flood::MAX_CELLS;
        self.runner.run(grid, query, |p, stats| {
            // The pass counts its own expansions, against its own budget:
            // the temporal search after it still gets the whole budget.
            // It only ever answers with a path; errors come from the
            // temporal search, as without it.
            let mut pass = SearchStats::default();
            // Steps of the quickest walk over the walls alone (until the
            // pass finds it, a lower bound on them). No path arrives before
            // it, nor before the goal is free for good.
            let manhattan = query.start.manhattan(query.goal);
            let mut walk = manhattan;
            // Whether `walk` is the quickest walk, not just a bound on it.
            let mut walked = false;
            let mut lower = walk.max(p.goal_ready.saturating_sub(query.start_tick));
            // Where the pass pays against the search but not against the
            // flood, and the flood is on for this query, the floods go
            // first and find the quickest walk themselves. `words` counts
            // the row words of this query's floods and walking distances.
            let mut try_pass = enabled && odds.worth_trying();
            let mut flood_on = None;
            let mut words = 0;
            // The narrow bounds that recent arrivals say are worth it; with
            // none, or with a flood tried only to probe, the walking
            // distances would serve little.
            let mut slacks = [0; FLOOD_SLACKS.len()];
            let (mut count, mut tried) = (0, 0);
            for slack in FLOOD_SLACKS {
                if recent.worth(tried, slack) {
                    (slacks[count], count, tried) = (slack, count + 1, slack);
                }
            }
            if try_pass && flooding && count > 0 && flood_odds.pays() && !pass_plan.worth_trying() {
                let on = flood_odds.worth_trying();
                flood_on = Some(on);
                try_pass = !on;
                if on {
                    let budget = flood_budget(query);
                    let max_span = last_tick(query).saturating_sub(query.start_tick);
                    let trip = (query.start, query.goal);
                    if let Some(steps) = flood.walk(grid, trip, max_span, budget, &mut words) {
                        (walk, walked) = (steps, true);
                        walks.note_walk(walk, manhattan);
                        lower = lower.max(walk);
                    }
                }
            }
            if try_pass {
                let landmarks = if flooding {
                    flood.landmarks_for_pass(grid.walls(), query.goal)
                } else {
                    &[]
                };
                let found = bare.path(grid.walls(), query, p, landmarks, &mut pass);
                if flooding {
                    let walk = found.as_ref().map(|c| (c.len() as Tick - 1, manhattan));
                    flood.note_pass(pass.expanded, walk);
                }
                if let Some(cells) = &found {
                    (walk, walked) = (cells.len() as Tick - 1, true);
                    walks.note_walk(walk, manhattan);
                    lower = lower.max(walk);
                }
                // Cells the mend looked at.
                let mut mended = 0;
                // Free of vertex and swap conflicts, goal kept; or made so
                // by waits and detours that arrive no later than both the
                // bare path and the goal allow.
                let held = found.and_then(|cells| {
                    // No path arrives before either.
                    let bare_cost = cells.len() as Tick - 1;
                    let cost = bare_cost.max(p.goal_ready.saturating_sub(query.start_tick));
                    // The start is free (the query was prepared) and every
                    // step of the bare path is a move: only its steps into
                    // busy cells, and the goal, are left to check.
                    let conflict = reroute::first_conflict(grid, query.start_tick, &cells, 0);
                    if conflict.is_none() && cost == bare_cost {
                        debug_assert_eq!(validate_path(grid, query, &cells, cost), Ok(()));
                        return Some(reroute::plan_of(&cells, query.start_tick));
                    }
                    // One past the horizon is the temporal search's error
                    // to report.
                    if query.horizon.is_some_and(|h| cost > h) {
                        return None;
                    }
                    let conflict = conflict.filter(|_| cost == bare_cost);
                    let cells = reroute::mend(
                        grid,
                        query,
                        &cells,
                        cost,
                        conflict,
                        &mut mended,
                        wide_mends,
                    )?;
                    Some(reroute::plan_of(&cells, query.start_tick))
                });
                odds.passed(held.is_some(), pass.expanded);
                let cost = pass.expanded * pass_plan::EXPANSION_WORDS
                    + mended * pass_plan::MEND_CELL_WORDS;
                pass_plan.passed(held.is_some(), cost);
                if let Some(plan) = held {
                    *stage = JpstStage::FirstPass;
                    stats.expanded = pass.expanded;
                    stats.generated = pass.generated;
                    return Ok(plan);
                }
            }
            // How many wide floods this query got to (each narrower one
            // having failed or been skipped): their odds weigh the search.
            let mut widened = 0;
            if flooding && flood_on.unwrap_or_else(|| flood_odds.worth_trying()) {
                let tries = (&WAIT_BANDS[..], &slacks[..count]);
                // No path arrives before the quickest walk would, so one
                // that arrives then (the goal free by that tick) is the
                // answer: a quickest walk free of obstacles, found without
                // a flood (`flood/on_time.rs`). Tried where a narrow flood
                // would run, which goes on from its walking distances.
                let trip = (query.start, query.start_tick, query.goal);
                let budget = flood_budget(query);
                let in_time = query.start_tick.saturating_add(walk) <= last_tick(query);
                let on_time = (lower == walk && in_time && count > 0)
                    .then(|| flood.on_time(grid, trip, walk, budget, &mut words))
                    .flatten();
                let mut found = match on_time {
                    Some(cells) => Flooded::Path(cells),
                    None => flood_fill(flood, grid, query, p, (lower, walk), tries, &mut words),
                };
                flood_odds.passed(
                    matches!(found, Flooded::Path(_)),
                    words.div_ceil(WORDS_PER_EXPANSION),
                );
                while matches!(found, Flooded::NotBy) && widened < WIDE_SLACKS.len() {
                    let odds = &mut wide_odds[widened];
                    widened += 1;
                    if odds.worth_trying() {
                        let before = words;
                        let tries = (&[][..], &WIDE_SLACKS[widened - 1..widened]);
                        found = flood_fill(flood, grid, query, p, (lower, walk), tries, &mut words);
                        let cost = (words - before).div_ceil(WIDE_WORDS_PER_EXPANSION);
                        odds.passed(matches!(found, Flooded::Path(_)), cost);
                    }
                }
                // Row words are far cheaper than expansions: counted as the
                // stage's odds count them, in the stats and the budget too.
                pass.expanded += words.div_ceil(WORDS_PER_EXPANSION);
                if let Flooded::Path(cells) = found {
                    let late = (cells.len() as Tick - 1).saturating_sub(lower);
                    recent.record(late);
                    if late == 0 {
                        pass_plan.flooded_at_bound(words);
                    }
                    *stage = JpstStage::Flood;
                    stats.expanded = pass.expanded;
                    stats.generated = pass.generated;
                    return Ok(reroute::plan_of(&cells, query.start_tick));
                }
            }
            // Guided by walking distances where the estimate is Manhattan's
            // and the walls mislead it (see `walk_estimate.rs`). A goal the
            // start cannot walk to is unreachable.
            let guide = walks.plan_for(walking, grid, query, p, walked.then_some(walk));
            let mut walked_estimate = || {
                let (on_foot, cost) = walks.on_foot(grid, query);
                pass.expanded += cost;
                on_foot
            };
            let on_foot: Option<(u64, &mut OnFoot)> = match guide {
                Guide::Manhattan => None,
                Guide::OnFoot => Some((0, &mut walked_estimate)),
                Guide::OnFootAfter(after) => Some((after, &mut walked_estimate)),
            };
            let result = search.run(grid, query, p, p.goal_ready, stats, on_foot);
            if let (true, Ok(plan)) = (flooding, &result) {
                recent.record((plan.arrival() - query.start_tick).saturating_sub(lower));
            }
            if enabled {
                odds.searched(stats.expanded);
            }
            if flooding {
                flood_odds.searched(stats.expanded);
            }
            for odds in &mut wide_odds[..widened] {
                odds.searched(stats.expanded);
            }
            stats.expanded += pass.expanded;
            stats.generated += pass.generated;
            result.map_err(|e| match e {
                PlanError::BudgetExhausted { .. } => PlanError::BudgetExhausted {
                    expanded: stats.expanded,
                },
                e => e,
            })
        })
    }
}
