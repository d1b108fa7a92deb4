//! Walking distances to the goal as the temporal search's estimate.
//!
//! The Manhattan distance ignores walls, so a search it guides is drawn
//! into every corridor that points at the goal, and in a maze that is most
//! of its work. The walls alone give a better admissible estimate: the
//! steps to the goal on foot (moving obstacles only make ways longer).
//! They come from one breadth-first search over the map per goal, kept for
//! the next queries to the same goal like the Perfect-2D tables. That pass
//! over the map is paid only by queries that reach the temporal search
//! (the first pass and the flood do without it) among moving obstacles
//! (without them the search is plain jump point search, quick with any
//! estimate), where the walls mislead Manhattan: the quickest walk is a
//! quarter longer than the Manhattan distance, or, where this query did
//! not find its quickest walk, the walks of recent queries were on
//! average. Even then the search first goes on Manhattan's estimate for a
//! few times what the table would cost, and only a search that has
//! not finished by then goes on by walking distances (unless the goal's
//! table is kept, or the walk is twice the Manhattan distance or more, as
//! in a maze: then the table guides it from the start): many small
//! searches, a crowd's replans, would pay a table each for nothing.
//! Entries already queued keep their Manhattan keys, which stay lower
//! bounds, so the answer stays optimal; no work is thrown away. Maps of more than
//! [`MAX_CELLS`] cells do without. The breadth-first search's time counts
//! as the query's own, not as a heuristic table build, and every 32 cells
//! of the map as one expansion.

use crate::grid::{NavGrid, Tick};

use super::super::error::PlanError;
use super::super::goal::Prepared;
use super::super::heuristic::HeuristicCache;
use super::super::query::{Heuristic, Query};

/// Largest map, in cells, whose walking distances the temporal search
/// works out for itself: a breadth-first search of a million cells takes
/// a few milliseconds.
pub(super) const MAX_CELLS: usize = 1 << 20;

/// Cells of the map that count as one expansion when the distances are
/// worked out, as for the flood's distance search.
const CELLS_PER_EXPANSION: u64 = 32;

/// When [`Jpst`](super::Jpst)'s temporal search guides itself by walking
/// distances instead of the Manhattan distance it was given (see
/// [`Jpst::with_walking_estimate`](super::Jpst::with_walking_estimate)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WalkingEstimate {
    /// Never: the Manhattan distance throughout.
    Off,
    /// Among moving obstacles, where the walls mislead the Manhattan
    /// distance: the query's quickest walk (where the first pass or the
    /// flood found it) is a quarter longer than its Manhattan distance, or
    /// recent queries' were on average. From the start where that walk is
    /// twice the Manhattan distance or more, else once the search has gone
    /// an eighth of the map's cells in expansions.
    #[default]
    Auto,
    /// In every temporal search.
    Always,
    /// In every temporal search that has not finished after this many
    /// expansions on the Manhattan estimate (what `Auto` does where the
    /// walls mislead, after an eighth of the map's cells).
    After(u64),
}

/// Cells of the map per expansion a search goes on Manhattan's estimate
/// before it works out walking distances (where `Auto` would use them).
/// The breadth-first search takes 3-9 ns a cell, an expansion 100-200 ns,
/// so a search that has not finished by then has spent a few times what
/// the table costs. With 32 (about the break-even point) a crowd of 600
/// units on room-64-64-8, whose many small searches rarely pay the table
/// back, took 9.9 s instead of 7.7-8.0 s without walking distances; with
/// 8, 8.1 s, while maze-128-128-1's sequential run read 1.25x instead of
/// 1.27x.
const TRIAL_CELLS_PER_EXPANSION: u64 = 8;

/// Weight of the newest query in the running average of detours.
const DETOUR_WEIGHT: f64 = 1.0 / 16.0;

/// The share of the Manhattan distance a quickest walk must add for the
/// walls to count as misleading.
const MISLEADING_DETOUR: f64 = 0.25;

/// The share of the Manhattan distance a quickest walk must add for the
/// walking distances to guide the search from its start: there a trial on
/// Manhattan's estimate is wasted. On maze-128-128-1, where recent walks
/// run about four times the Manhattan distance, the sequential run's first
/// 100 agents read 1.09x-1.16x over SIPP instead of 0.97x-1.01x (1, 2 and
/// 0.5 alike), the whole run the same; every other benchmark map does the
/// same work as with the trial, and so does the room crowd per plan.
const AT_ONCE_DETOUR: f64 = 1.0;

/// The walking-distance tables of recent goals, and how far recent quickest
/// walks strayed from the Manhattan distance.
#[derive(Debug, Default)]
pub(super) struct WalkEstimates {
    tables: HeuristicCache,
    /// Running average of (walk - Manhattan) / Manhattan over the queries
    /// whose quickest walk was found.
    detour: f64,
}

impl WalkEstimates {
    /// Notes the steps of a query's quickest walk against its Manhattan
    /// distance.
    pub fn note_walk(&mut self, walk: Tick, manhattan: Tick) {
        if manhattan > 0 {
            self.detour += (detour_of(walk, manhattan) - self.detour) * DETOUR_WEIGHT;
        }
    }

    /// How the temporal search of `query` is to be guided, `when` asked
    /// (`walk` is the query's quickest walk, if found).
    pub fn plan_for(
        &self,
        when: WalkingEstimate,
        grid: &NavGrid,
        query: &Query,
        p: &Prepared,
        walk: Option<Tick>,
    ) -> Guide {
        let walls = grid.walls();
        if p.h.has_table() || walls.cell_count() > MAX_CELLS {
            return Guide::Manhattan;
        }
        let manhattan = query.start.manhattan(query.goal);
        // What the quickest walk adds to the Manhattan distance, as a share
        // of it: this query's, or recent queries' on average.
        let detour = walk.map_or(self.detour, |steps| detour_of(steps, manhattan));
        match when {
            WalkingEstimate::Off => Guide::Manhattan,
            WalkingEstimate::Always => Guide::OnFoot,
            WalkingEstimate::After(expansions) => Guide::OnFootAfter(expansions),
            WalkingEstimate::Auto => {
                let wanted = grid.obstacles().touched_cells() > 0 && detour >= MISLEADING_DETOUR;
                if !wanted {
                    Guide::Manhattan
                } else if self.tables.holds(walls, query.goal) || detour >= AT_ONCE_DETOUR {
                    Guide::OnFoot
                } else {
                    Guide::OnFootAfter(
                        (walls.cell_count() as u64).div_ceil(TRIAL_CELLS_PER_EXPANSION),
                    )
                }
            }
        }
    }

    /// `query` prepared with the steps to its goal on foot as its
    /// estimate, as for [`Heuristic::Perfect2D`] but from these tables
    /// ([`PlanError::Unreachable`] if the start cannot walk to the goal),
    /// and the expansions their breadth-first search counts (none if the
    /// goal's table was kept).
    pub fn on_foot(&mut self, grid: &NavGrid, query: &Query) -> (Result<Prepared, PlanError>, u64) {
        let cost = if self.tables.holds(grid.walls(), query.goal) {
            0
        } else {
            table_cost(grid)
        };
        let prepared = Prepared::new(grid, query, Heuristic::Perfect2D, &mut self.tables);
        (prepared, cost)
    }
}

/// How a temporal search is guided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guide {
    /// By the Manhattan distance.
    Manhattan,
    /// By walking distances.
    OnFoot,
    /// By the Manhattan distance for this many expansions, a few times
    /// what the walking distances cost to work out, then by those: a small
    /// search never pays for the table.
    OnFootAfter(u64),
}

/// What a walk of `walk` steps adds to the Manhattan distance
/// `manhattan`, as a share of it (of 1 where that is 0).
fn detour_of(walk: Tick, manhattan: Tick) -> f64 {
    f64::from(walk.saturating_sub(manhattan)) / f64::from(manhattan.max(1))
}

/// Expansions the breadth-first search of walking distances on `grid`
/// counts.
fn table_cost(grid: &NavGrid) -> u64 {
    (grid.walls().cell_count() as u64).div_ceil(CELLS_PER_EXPANSION)
}

#[cfg(test)]
mod tests {
    use super::WalkingEstimate;
    use crate::grid::{Cell, NavGrid, StaticGrid};
    use crate::search::{Heuristic, Jpst, PlanError, Planner, Query};

    /// A 40x40 map split by a wall at x = 20 with its only gap at the top.
    fn walled() -> NavGrid {
        NavGrid::new(StaticGrid::from_fn(40, 40, |c| c.x != 20 || c.y == 0).unwrap())
    }

    /// The maze of the benchmarks.
    fn maze() -> NavGrid {
        let text = include_str!("../../../assets/maps/maze-128-128-1/maze-128-128-1.map");
        NavGrid::new(crate::io::parse_map(text, "maze-128-128-1.map").unwrap())
    }

    fn temporal_search_only(walking: WalkingEstimate) -> Jpst {
        Jpst::new(Heuristic::Manhattan)
            .with_static_first(false)
            .with_flood(false)
            .with_walking_estimate(walking)
    }

    #[test]
    fn walking_distances_find_the_same_cost_with_fewer_expansions() {
        let grid = maze();
        let (start, goal) = (Cell::new(1, 1), Cell::new(125, 125));
        let mut plain = temporal_search_only(WalkingEstimate::Off);
        let mut guided = temporal_search_only(WalkingEstimate::Always);
        let query = Query::new(start, goal);
        let want = plain.plan(&grid, &query).unwrap().cost();
        assert_eq!(guided.plan(&grid, &query).unwrap().cost(), want);
        let (first, manhattan) = (guided.last_stats().expanded, plain.last_stats().expanded);
        assert!(first < manhattan, "{first} against {manhattan}");
        // The goal's distances are kept: the next query to it does not
        // count their breadth-first search again (128 x 128 / 32 = 512).
        assert_eq!(guided.plan(&grid, &query).unwrap().cost(), want);
        assert_eq!(guided.last_stats().expanded + 512, first);
    }

    #[test]
    fn open_ground_costs_the_same_either_way() {
        let grid = walled();
        let query = Query::new(Cell::new(18, 38), Cell::new(22, 38));
        let want = temporal_search_only(WalkingEstimate::Off)
            .plan(&grid, &query)
            .unwrap();
        let got = temporal_search_only(WalkingEstimate::Always)
            .plan(&grid, &query)
            .unwrap();
        assert_eq!(got.cost(), want.cost());
    }

    #[test]
    fn a_goal_the_start_cannot_walk_to_is_unreachable_at_once() {
        // The wall has no gap at all.
        let grid = NavGrid::new(StaticGrid::from_fn(40, 40, |c| c.x != 20).unwrap());
        let query = Query::new(Cell::new(18, 38), Cell::new(22, 38)).with_horizon(500);
        let mut guided = temporal_search_only(WalkingEstimate::Always);
        assert_eq!(guided.plan(&grid, &query), Err(PlanError::Unreachable));
        assert_eq!(
            temporal_search_only(WalkingEstimate::Off)
                .plan(&grid, &query)
                .map(|p| p.cost()),
            Err(PlanError::Unreachable)
        );
    }

    #[test]
    fn auto_guides_among_moving_obstacles_where_the_walls_mislead() {
        use super::super::super::goal::Prepared;
        use super::{Guide, WalkEstimates};
        use crate::grid::ObstacleEnd;
        use crate::search::HeuristicCache;

        let mut grid = maze();
        let query = Query::new(Cell::new(1, 1), Cell::new(125, 125));
        let manhattan = query.start.manhattan(query.goal);
        let mut cache = HeuristicCache::default();
        let p = Prepared::new(&grid, &query, Heuristic::Manhattan, &mut cache).unwrap();
        let mut walks = WalkEstimates::default();
        let plan = |walks: &WalkEstimates, grid: &NavGrid, walk| {
            walks.plan_for(WalkingEstimate::Auto, grid, &query, &p, walk)
        };
        // Without moving obstacles the search is plain jump point search.
        assert_eq!(plan(&walks, &grid, Some(2 * manhattan)), Guide::Manhattan);
        assert!(
            grid.add_obstacle(50, &[Cell::new(1, 1)], ObstacleEnd::Vanish)
                .is_ok()
        );
        // A walk close to the Manhattan distance: no table.
        assert_eq!(plan(&walks, &grid, Some(manhattan + 2)), Guide::Manhattan);
        // A detour of half the Manhattan distance: Manhattan's estimate
        // for 128 * 128 / 8 expansions, then the table.
        let after = Guide::OnFootAfter(2048);
        assert_eq!(plan(&walks, &grid, Some(3 * manhattan / 2)), after);
        // A walk twice as long or more: the table from the start.
        assert_eq!(plan(&walks, &grid, Some(2 * manhattan)), Guide::OnFoot);
        // Walk unknown: recent walks decide.
        assert_eq!(plan(&walks, &grid, None), Guide::Manhattan);
        for _ in 0..64 {
            walks.note_walk(150, 100);
        }
        assert_eq!(plan(&walks, &grid, None), after);
        for _ in 0..64 {
            walks.note_walk(400, 100);
        }
        assert_eq!(plan(&walks, &grid, None), Guide::OnFoot);
        // Once the goal's table is kept, it guides at once, for free.
        for _ in 0..64 {
            walks.note_walk(150, 100);
        }
        assert_eq!(walks.on_foot(&grid, &query).1, 512);
        assert_eq!(walks.on_foot(&grid, &query).1, 0);
        assert_eq!(plan(&walks, &grid, None), Guide::OnFoot);
        let off = walks.plan_for(WalkingEstimate::Off, &grid, &query, &p, None);
        assert_eq!(off, Guide::Manhattan);
    }
}
