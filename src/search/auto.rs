//! A planner that picks JPST or SIPP by how crowded the map is and how JPST
//! has been answering.
//!
//! JPST answers most queries with one of its cheap stages (the shortest
//! walk over the walls, mended around moving obstacles, or a bit-parallel
//! flood near it) and falls back to its temporal search for the rest. Where
//! the cheap stages answer, it is several times faster than SIPP; where
//! the temporal search does most of the work (mazes and small rooms
//! crowded with units, where arrivals lie hundreds of ticks past the
//! shortest walk) it is a little slower, because that search is SIPP with
//! dearer expansions. In the sequential benchmarks of commit `2e09c79` the
//! temporal search answered 1% of den520d's 500 queries (JPST 3.6x faster
//! than SIPP), 3% of lak303d's (2.6x), 39% of room-64-64-8's (0.85x) and
//! 95% of maze-128-128-1's (0.94x). Since `20d2244` wider floods answer
//! most of room-64-64-8's late queries too (1.03x), but not the maze's.
//! Those ratios are against a SIPP whose open list sifted a heap per
//! f-value; against the faster SIPP of `7e76f95` the sequential runs read
//! den520d 3.30x, lak303d 4.03x, room-64-64-8 0.99x and maze-128-128-1
//! 0.97x.
//!
//! So SIPP answers only while both hold: many cells have moving obstacles
//! (until commit `fa9a643` this alone decided, and it handed the den520d
//! crowd, 60-80% touched, to SIPP where JPST was 3x faster), and JPST's
//! temporal search answered a quarter or more of its recent queries. The
//! share of busy cells alone cannot tell den520d from a maze; the stage
//! share alone sent too many queries of the example scene's gated crowd
//! to SIPP, whose larger expansion counts use up the plugin's per-batch
//! budget sooner (mean order latency 11.2 -> 17.0-18.2 nav ticks).
//!
//! Both are optimal, so switching changes no cost, only which of several
//! equally fast paths comes back. The choice depends only on the map and
//! the answers to earlier queries, not on clock time, so a run is
//! repeatable.

use crate::grid::NavGrid;

use super::error::PlanError;
use super::plan::{Plan, SearchStats};
use super::query::{Heuristic, Query};
use super::{Jpst, JpstStage, Planner, Sipp};

/// From this share of walkable cells touched by temporal obstacles on,
/// [`AutoPlanner`] may answer with SIPP.
pub const SIPP_FROM_SHARE: f64 = 0.75;

/// From this share of JPST's recent answers coming from its temporal
/// search on, [`AutoPlanner`] may answer with SIPP.
pub const SIPP_FROM_SEARCH_SHARE: f32 = 0.25;

/// Weight of the newest JPST answer in the running share.
const WEIGHT: f32 = 1.0 / 16.0;

/// While SIPP answers, JPST still answers one query in this many, so that
/// a world that opens up again is noticed.
const PROBE_EVERY: u32 = 16;

/// JPST unless the map is crowded and JPST's temporal search has been
/// doing most of the work; SIPP then.
#[derive(Debug)]
pub struct AutoPlanner {
    jpst: Jpst,
    sipp: Sipp,
    /// The walls' revision and walkable cell count last seen.
    walkable: Option<(u64, u64)>,
    /// Running share of JPST's answers that came from its temporal search.
    searched: f32,
    /// Queries SIPP answered since JPST last did.
    since_jpst: u32,
    last_was_jpst: bool,
}

impl AutoPlanner {
    /// Both planners, guided by `heuristic`.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            jpst: Jpst::new(heuristic),
            sipp: Sipp::new(heuristic),
            walkable: None,
            searched: 0.0,
            since_jpst: 0,
            last_was_jpst: true,
        }
    }

    /// True if a query on `grid` now would go to JPST: fewer than
    /// [`SIPP_FROM_SHARE`] of the walkable cells have temporal obstacles, or
    /// fewer than [`SIPP_FROM_SEARCH_SHARE`] of JPST's recent answers came
    /// from its temporal search. (While not, one query in 16 still goes to
    /// JPST.)
    pub fn prefers_jpst(&mut self, grid: &NavGrid) -> bool {
        let walls = grid.walls();
        let walkable = match self.walkable {
            Some((revision, count)) if revision == walls.revision() => count,
            _ => {
                let count = walls.passable_count();
                self.walkable = Some((walls.revision(), count));
                count
            }
        };
        let touched = grid.obstacles().touched_cells() as f64;
        touched < SIPP_FROM_SHARE * walkable as f64 || self.searched < SIPP_FROM_SEARCH_SHARE
    }
}

impl Planner for AutoPlanner {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
        self.last_was_jpst = self.prefers_jpst(grid) || self.since_jpst + 1 >= PROBE_EVERY;
        if !self.last_was_jpst {
            self.since_jpst += 1;
            return self.sipp.plan(grid, query);
        }
        self.since_jpst = 0;
        let answer = self.jpst.plan(grid, query);
        // Errors (bad input, no path) say nothing of the stages.
        if answer.is_ok() {
            let searched = f32::from(u8::from(self.jpst.last_stage() == JpstStage::Search));
            self.searched += WEIGHT * (searched - self.searched);
        }
        answer
    }

    fn last_stats(&self) -> SearchStats {
        if self.last_was_jpst {
            self.jpst.last_stats()
        } else {
            self.sipp.last_stats()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, StaticGrid};

    #[test]
    fn hands_over_to_sipp_only_in_a_crowd_that_keeps_jpst_searching() {
        let mut grid = NavGrid::new(StaticGrid::open(20, 10).expect("map"));
        let query = Query::new(Cell::new(0, 5), Cell::new(19, 5));
        let mut auto = AutoPlanner::new(Heuristic::Manhattan);
        assert!(auto.prefers_jpst(&grid));
        assert_eq!(auto.name(), "auto");
        // A wall of blocks across the map for 400 ticks: every path waits
        // longer than even the widest flood looks, so JPST's search answers.
        for y in 0..10 {
            grid.add_block(Cell::new(10, y), 0, Some(400))
                .expect("block");
        }
        let mut jpst = Jpst::new(Heuristic::Manhattan);
        let reference = jpst.plan(&grid, &query).expect("path");
        assert_eq!(jpst.last_stage(), JpstStage::Search);
        // Few cells are busy: JPST answers all the same.
        for _ in 0..32 {
            auto.plan(&grid, &query).expect("path");
            assert!(auto.last_was_jpst);
        }
        // Blocks on 160 of the 200 cells (80%) as well: SIPP answers, but
        // for one query in 16.
        for x in 0..20 {
            for y in [1, 2, 3, 4, 6, 7, 8, 9] {
                grid.add_block(Cell::new(x, y), 3, Some(6)).expect("block");
            }
        }
        assert!(!auto.prefers_jpst(&grid));
        let mut by_jpst = 0;
        for _ in 0..64 {
            let plan = auto.plan(&grid, &query).expect("path");
            assert_eq!(plan.arrival(), reference.arrival());
            by_jpst += usize::from(auto.last_was_jpst);
            assert!(auto.last_stats().expanded > 0);
        }
        assert_eq!(by_jpst, 4);
        // A quiet map again: JPST at once.
        let mut open = NavGrid::new(StaticGrid::open(20, 10).expect("map"));
        open.add_block(Cell::new(0, 0), 0, Some(3)).expect("block");
        let plan = auto.plan(&open, &query).expect("path");
        assert_eq!(plan.arrival(), 19);
        assert!(auto.last_was_jpst);
        assert_eq!(auto.jpst.last_stage(), JpstStage::FirstPass);
    }
}
