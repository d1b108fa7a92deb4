//! The static first pass: where moving obstacles rarely matter, the best
//! path on the bare map is often free of them, and then it is optimal.
//!
//! No obstacle can make a path shorter, so the length of a shortest path on
//! the walls alone is a lower bound on every arrival. JPST on the map
//! without obstacles is plain jump point search, which sweeps open areas
//! at a fraction of the cost of a temporal search. If the path it finds
//! meets no obstacle (no vertex or swap conflict, and the goal is usable
//! at the arrival), it reaches that bound and is returned as is. If it
//! meets some, a detour of the same length around them reaches the bound
//! too, and if the goal is free for good only later, waiting for that
//! reaches the other bound (`reroute.rs`). Otherwise the temporal search
//! runs as usual.
//!
//! Where units are dense the bare path nearly always meets one, so the
//! pass is tried only while it pays on average (see [`Odds`]).

/// Maps larger than this many cells skip the pass. The limit dates from
/// when its search kept 16 bytes per cell (64 MiB at this size); it now
/// keeps a bit per cell (the jump table) and a table sized to the search,
/// and the limit stays until the pass has been measured on larger maps.
pub(super) const MAX_CELLS: usize = 1 << 22;

/// Weight of the newest query in the running averages.
const WEIGHT: f32 = 1.0 / 8.0;

/// While the pass does not pay, it is still tried once in this many
/// queries, so the odds follow a world that thins out again.
const PROBE_EVERY: u32 = 16;

/// Temporal searches the odds must have seen before they skip a stage.
const MIN_SEARCHES: u32 = 2;

/// Whether the first pass pays: it is tried while the share of passes
/// whose path held, times the expansions of a temporal search, outweighs
/// the expansions of a pass, and always until two temporal searches have
/// been seen. Expansions, not clock time, keep the choice the same from
/// run to run.
#[derive(Debug)]
pub(super) struct Odds {
    held: f32,
    pass_cost: f32,
    search_cost: f32,
    /// Temporal searches seen, up to [`MIN_SEARCHES`].
    searches: u32,
    skipped: u32,
    /// Whether to try before any temporal search was seen.
    blind: bool,
    /// Whether the stage's cost starts from the first one seen rather than
    /// from 0 (which makes a new stage look cheap for its first tries).
    costed: bool,
}

impl Default for Odds {
    /// Even odds: the first queries try the pass.
    fn default() -> Self {
        Self {
            held: 0.5,
            pass_cost: 0.0,
            search_cost: 0.0,
            searches: 0,
            skipped: 0,
            blind: true,
            costed: false,
        }
    }
}

impl Odds {
    /// Odds that wait for a temporal search before trying: for a stage
    /// whose success says nothing of what the search would have cost (the
    /// flood: where it finds paths, no search runs to compare with).
    pub(super) fn after_a_search() -> Self {
        Self {
            blind: false,
            ..Self::default()
        }
    }

    /// True if this query should try the pass.
    pub(super) fn worth_trying(&mut self) -> bool {
        // Until a temporal search has been seen, its cost is unknown: try,
        // unless these odds wait for one.
        if self.search_cost == 0.0 {
            return self.blind;
        }
        if self.pays() || self.skipped + 1 >= PROBE_EVERY {
            self.skipped = 0;
            true
        } else {
            self.skipped += 1;
            false
        }
    }

    /// Whether the stage pays on average (or has not been judged yet), not
    /// counting the tries made only to probe: unlike
    /// [`worth_trying`](Self::worth_trying), asking changes nothing.
    pub(super) fn pays(&self) -> bool {
        // One search is too little to judge by: a small one would make
        // the stage look dear for a long time.
        self.search_cost == 0.0 || !self.proven() || self.held * self.search_cost >= self.pass_cost
    }

    /// Whether the odds have seen enough temporal searches to skip the
    /// stage: until then it is tried whenever a search has been seen (or
    /// before, for blind odds).
    pub(super) fn proven(&self) -> bool {
        self.searches >= MIN_SEARCHES
    }

    /// Odds for a stage that can cost far more than a search: judged by its
    /// real cost from its first try on.
    pub(super) fn costed() -> Self {
        Self {
            costed: true,
            ..Self::default()
        }
    }

    /// Records a pass that took `expanded` expansions and whose path held
    /// or not.
    pub(super) fn passed(&mut self, held: bool, expanded: u64) {
        self.held += WEIGHT * (f32::from(u8::from(held)) - self.held);
        if self.costed {
            average(&mut self.pass_cost, expanded);
        } else {
            // From 0, so a stage starts out looking cheap and gets a fair
            // try.
            self.pass_cost += WEIGHT * (expanded as f32 - self.pass_cost);
        }
    }

    /// Records a temporal search that took `expanded` expansions.
    pub(super) fn searched(&mut self, expanded: u64) {
        self.searches = (self.searches + 1).min(MIN_SEARCHES);
        average(&mut self.search_cost, expanded);
    }
}

/// Moves a running average of costs toward `cost`; the first cost seen
/// (the average is still 0) is taken as it is, not an eighth of it, so a
/// stage that waits for a search compares with the search's real cost.
fn average(mean: &mut f32, cost: u64) {
    if *mean == 0.0 {
        *mean = cost as f32;
    } else {
        *mean += WEIGHT * (cost as f32 - *mean);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, NavGrid, StaticGrid, TemporalMap};
    use crate::search::{Jpst, PlanError, Planner, Query};

    fn open_grid() -> NavGrid {
        NavGrid::new(StaticGrid::open(12, 6).expect("map"))
    }

    #[test]
    fn the_pass_follows_the_walls_when_they_change() {
        let mut grid = open_grid();
        grid.add_block(Cell::new(11, 5), 0, Some(3)).expect("block");
        let query = Query::new(Cell::new(0, 2), Cell::new(11, 2));
        let mut jpst = Jpst::default();
        assert_eq!(jpst.plan(&grid, &query).expect("path").arrival(), 11);
        // A wall across the straight way, with one gap: the same planner
        // must route through the gap, not along its old path.
        for y in 0..6 {
            if y != 5 {
                grid.walls_mut()
                    .set_passable(Cell::new(6, y), false)
                    .expect("on the map");
            }
        }
        let plan = jpst.plan(&grid, &query).expect("path");
        assert_eq!(plan.arrival(), 17);
        assert!(plan.cells().contains(&Cell::new(6, 5)));
        // Walls and obstacles of another size.
        *grid.walls_mut() = StaticGrid::open(30, 20).expect("map");
        *grid.obstacles_mut() = TemporalMap::new(30, 20);
        grid.add_block(Cell::new(25, 15), 0, Some(4))
            .expect("block");
        let query = Query::new(Cell::new(0, 0), Cell::new(29, 19));
        assert_eq!(jpst.plan(&grid, &query).expect("path").arrival(), 48);
    }

    #[test]
    fn the_pass_stops_being_tried_when_it_never_holds_but_is_still_probed() {
        let mut odds = Odds::default();
        assert!(odds.worth_trying());
        // A pass that held says nothing of what a search costs: try again.
        odds.passed(true, 100);
        assert!(odds.worth_trying());
        for _ in 0..64 {
            odds.passed(false, 100);
            odds.searched(400);
        }
        let tried = (0..4 * PROBE_EVERY).filter(|_| odds.worth_trying()).count();
        assert_eq!(tried, 4);
        // A probe is not paying.
        assert!(!odds.pays());
        for _ in 0..64 {
            odds.passed(true, 100);
        }
        assert!(odds.pays());
        assert!((0..4).all(|_| odds.worth_trying()));
    }

    #[test]
    fn odds_that_wait_for_a_search_compare_with_its_real_cost() {
        let mut odds = Odds::after_a_search();
        assert!(!odds.worth_trying(), "no search seen yet");
        odds.searched(1000);
        assert!(odds.worth_trying());
        // A stage that finds a path half the time at 400 pays against
        // searches of 1000; one that always fails at that cost does not.
        for k in 0..64 {
            odds.passed(k % 2 == 0, 400);
        }
        assert!(odds.worth_trying());
        for _ in 0..64 {
            odds.passed(false, 400);
        }
        // One search is too little evidence to give up on the stage.
        assert!(!odds.proven());
        assert!((0..PROBE_EVERY).all(|_| odds.worth_trying()));
        odds.searched(1000);
        assert!(odds.proven());
        let tried = (0..2 * PROBE_EVERY).filter(|_| odds.worth_trying()).count();
        assert_eq!(tried, 2);
    }

    #[test]
    fn costed_odds_judge_a_stage_by_its_real_cost_at_once() {
        // A stage that finds a path but costs three searches.
        let (mut plain, mut costed) = (Odds::default(), Odds::costed());
        for odds in [&mut plain, &mut costed] {
            assert!(odds.worth_trying(), "tried before any search");
            odds.searched(1000);
            odds.searched(1000);
            odds.passed(true, 3000);
        }
        // Plain odds start its cost from 0 and keep trying for a while;
        // costed odds stop at once (but for the probes).
        assert!(plain.worth_trying());
        assert!(!costed.worth_trying());
        let tried = (0..PROBE_EVERY).filter(|_| costed.worth_trying()).count();
        assert_eq!(tried, 1);
    }

    #[test]
    fn jpst_answers_from_the_bare_map_when_its_path_is_clear() {
        let mut grid = open_grid();
        // An obstacle far from the way, and one crossing it too late.
        grid.add_block(Cell::new(11, 5), 0, Some(3)).expect("block");
        grid.add_block(Cell::new(6, 0), 20, Some(30))
            .expect("block");
        let query = Query::new(Cell::new(0, 0), Cell::new(11, 0));
        let mut with = Jpst::default();
        let mut without = Jpst::default().with_static_first(false);
        let fast = with.plan(&grid, &query).expect("path");
        let slow = without.plan(&grid, &query).expect("path");
        assert_eq!(fast.arrival(), 11);
        assert_eq!(slow.arrival(), 11);
        let bare = Jpst::default().plan(&open_grid(), &query).expect("path");
        assert_eq!(fast.waypoints, bare.waypoints);
        assert!(fast.stats.expanded < slow.stats.expanded);
        // Now the obstacle sits on the bare path when the agent gets there:
        // the temporal search takes over and still finds the optimum.
        grid.add_block(Cell::new(6, 0), 5, Some(7)).expect("block");
        let fast = with.plan(&grid, &query).expect("path");
        let slow = without.plan(&grid, &query).expect("path");
        assert_eq!(fast.arrival(), slow.arrival());
        assert!(fast.arrival() > 11);
    }

    #[test]
    fn a_budget_run_out_counts_both_passes() {
        let mut grid = open_grid();
        // A wall of blocks across the map for ticks 0-30: the bare path
        // meets it, and the temporal search runs out of budget waiting.
        for y in 0..6 {
            grid.add_block(Cell::new(6, y), 0, Some(31)).expect("block");
        }
        let query = Query::new(Cell::new(0, 2), Cell::new(11, 2)).with_budget(3);
        let mut jpst = Jpst::default();
        let Err(PlanError::BudgetExhausted { expanded }) = jpst.plan(&grid, &query) else {
            panic!("the budget should run out");
        };
        assert_eq!(expanded, jpst.last_stats().expanded);
        assert!(expanded > 3, "the pass and the search count together");
    }
}
