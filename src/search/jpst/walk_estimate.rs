//! Walking distances to the goal as the temporal search's estimate.
//!
//! The Manhattan distance ignores walls, so a search it guides is drawn
//! into every corridor that points at the goal, and in a maze that is most
//! of its work. The walls alone give a better admissible estimate: the
//! steps to the goal on foot (moving obstacles only make ways longer).
//! They come from one breadth-first search over the map per goal, kept for
//! the next queries to the same goal like the Perfect-2D tables. That pass
//! over the map is paid only by queries that reach the temporal search
//! (the first pass and the flood do without it) where the walls may
//! mislead Manhattan (the planner decides: the quickest walk is unknown or
//! a quarter longer than the Manhattan distance), and only on maps of at
//! most [`MAX_CELLS`] cells. Its time counts as the query's own, not as a
//! heuristic table build, and every 32 cells of the map as one expansion.

use crate::grid::NavGrid;

use super::super::goal::Prepared;
use super::super::heuristic::{GoalDistance, HeuristicCache};
use super::super::query::Query;

/// Largest map, in cells, whose walking distances the temporal search
/// works out for itself: a breadth-first search of a million cells takes
/// a few milliseconds.
pub(super) const MAX_CELLS: usize = 1 << 20;

/// Cells of the map that count as one expansion when the distances are
/// worked out, as for the flood's distance search.
const CELLS_PER_EXPANSION: u64 = 32;

/// The walking-distance tables of recent goals.
#[derive(Debug, Default)]
pub(super) struct WalkEstimates {
    tables: HeuristicCache,
}

impl WalkEstimates {
    /// `p` with the steps to `query`'s goal on foot as its estimate, and
    /// the expansions the breadth-first search counts (none if the goal's
    /// table was kept); `None` where the map is too large, or `p` already
    /// has a table (Perfect-2D).
    pub fn guide(
        &mut self,
        grid: &NavGrid,
        query: &Query,
        p: &Prepared,
    ) -> Option<(Prepared, u64)> {
        let walls = grid.walls();
        if p.h.has_table() || walls.cell_count() > MAX_CELLS {
            return None;
        }
        let built = !self.tables.holds(walls, query.goal);
        let (table, _) = self.tables.distances(walls, query.goal);
        let h = GoalDistance::from_table(query.goal, walls.width() as usize, table);
        let cost = if built {
            (walls.cell_count() as u64).div_ceil(CELLS_PER_EXPANSION)
        } else {
            0
        };
        Some((p.with_h(h), cost))
    }
}

#[cfg(test)]
mod tests {
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

    fn temporal_search_only(walking: bool) -> Jpst {
        Jpst::new(Heuristic::Manhattan)
            .with_static_first(false)
            .with_flood(false)
            .with_walking_estimate(walking)
    }

    #[test]
    fn walking_distances_find_the_same_cost_with_fewer_expansions() {
        let grid = maze();
        let (start, goal) = (Cell::new(1, 1), Cell::new(125, 125));
        let mut plain = temporal_search_only(false);
        let mut guided = temporal_search_only(true);
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
        let want = temporal_search_only(false).plan(&grid, &query).unwrap();
        let got = temporal_search_only(true).plan(&grid, &query).unwrap();
        assert_eq!(got.cost(), want.cost());
    }

    #[test]
    fn a_goal_the_start_cannot_walk_to_is_unreachable_at_once() {
        // The wall has no gap at all.
        let grid = NavGrid::new(StaticGrid::from_fn(40, 40, |c| c.x != 20).unwrap());
        let query = Query::new(Cell::new(18, 38), Cell::new(22, 38)).with_horizon(500);
        let mut guided = temporal_search_only(true);
        assert_eq!(guided.plan(&grid, &query), Err(PlanError::Unreachable));
        assert_eq!(
            temporal_search_only(false)
                .plan(&grid, &query)
                .map(|p| p.cost()),
            Err(PlanError::Unreachable)
        );
    }
}
