//! A planner that picks JPST or SIPP per query by how crowded the map is.
//!
//! JPST is several times faster than SIPP while few cells see moving
//! obstacles, and its lead shrinks as more do. In the sequential benchmarks
//! (`benchmarks/*.csv` of Berlin, Paris and den520d together, code of
//! commit `af9ea63`, summed times per band of the share of walkable cells
//! touched) JPST was faster in every band measured: under 15% touched
//! 3.6x, 15-25% 3.2x, 25-35% 2.9x, 35-45% 3.1x, 45-55% 2.6x, 55-65% 2.2x,
//! 65-75% 2.0x. (Before its flood, JPST fell behind from about 60%.)
//! Beyond the measured range SIPP takes over.
//! Both are optimal, so switching changes no cost, only which of several
//! equally fast paths comes back.

use crate::grid::NavGrid;

use super::error::PlanError;
use super::plan::{Plan, SearchStats};
use super::query::{Heuristic, Query};
use super::{Jpst, Planner, Sipp};

/// From this share of walkable cells touched by temporal obstacles on,
/// [`AutoPlanner`] answers with SIPP.
pub const SIPP_FROM_SHARE: f64 = 0.75;

/// JPST while under [`SIPP_FROM_SHARE`] of the walkable cells have temporal
/// obstacles, SIPP from then on.
#[derive(Debug)]
pub struct AutoPlanner {
    jpst: Jpst,
    sipp: Sipp,
    /// The walls' revision and walkable cell count last seen.
    walkable: Option<(u64, u64)>,
    last_was_jpst: bool,
}

impl AutoPlanner {
    /// Both planners, guided by `heuristic`.
    pub fn new(heuristic: Heuristic) -> Self {
        Self {
            jpst: Jpst::new(heuristic),
            sipp: Sipp::new(heuristic),
            walkable: None,
            last_was_jpst: true,
        }
    }

    /// True if a query on `grid` now would go to JPST.
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
        touched < SIPP_FROM_SHARE * walkable as f64
    }
}

impl Planner for AutoPlanner {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
        self.last_was_jpst = self.prefers_jpst(grid);
        if self.last_was_jpst {
            self.jpst.plan(grid, query)
        } else {
            self.sipp.plan(grid, query)
        }
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
    fn picks_jpst_on_a_quiet_map_and_sipp_on_a_crowded_one_with_equal_costs() {
        let mut grid = NavGrid::new(StaticGrid::open(20, 10).expect("map"));
        let query = Query::new(Cell::new(0, 5), Cell::new(19, 5));
        let mut auto = AutoPlanner::new(Heuristic::Manhattan);
        assert!(auto.prefers_jpst(&grid));
        let quiet = auto.plan(&grid, &query).expect("path");
        assert_eq!(auto.name(), "auto");
        // Blocks on 160 of the 200 cells (80%): past the share, so SIPP.
        for x in 0..20 {
            for y in [1, 2, 3, 4, 6, 7, 8, 9] {
                grid.add_block(Cell::new(x, y), 3, Some(6)).expect("block");
            }
        }
        assert!(!auto.prefers_jpst(&grid));
        let crowded = auto.plan(&grid, &query).expect("path");
        let mut jpst = Jpst::new(Heuristic::Manhattan);
        let reference = jpst.plan(&grid, &query).expect("path");
        let arrival = |p: &Plan| p.waypoints.last().expect("waypoint").tick;
        assert_eq!(arrival(&quiet), 19);
        assert_eq!(arrival(&crowded), arrival(&reference));
        assert!(auto.last_stats().expanded > 0);
    }
}
