//! Whether the first pass pays against the flood that answers when it
//! fails.
//!
//! A pass whose path holds spares the query a flood; one that fails is
//! thrown away, and the flood runs anyway. Where the bare path seldom
//! holds (on lak303d it holds on three queries in ten, and a failure
//! costs about twice a success, the mend included), the failures cost
//! more than the successes save. Then the pass is skipped, and the quickest
//! walk the floods need comes from their own walking-distance search
//! instead (`Flood::walk`), which the floods go on from.
//!
//! The choice is only made for queries the pass's own odds (against the
//! temporal search) would send to it, when the flood has been paying (not
//! tried only to probe) and recent arrivals say a narrow flood will run:
//! otherwise the walking distances would serve little, as on
//! maze-128-128-1, where a walk found that way costs more than the pass's
//! jump point search, and in a crowd of 600 units on room-64-64-8, where
//! floods are mostly skipped.
//!
//! All costs are in flood row words: an expansion of the pass's jump point
//! search counts as [`EXPANSION_WORDS`], a cell its mend looks at as
//! [`MEND_CELL_WORDS`].
//! Counted work, not clock time, keeps the choice the same from run to
//! run.

/// Flood row words one expansion of the pass's search counts as. Timed on
/// lak303d, an expansion of a pass that held cost what 6 to 25 words of a
/// flood do (its validation and mend included); sequential runs with 6, 12
/// and 24 did best overall with 12 (brc202d first 100 agents 4.2x-4.5x
/// with 24, 4.7x-4.9x with 12, 5.0x-5.2x with 6, but lak303d 4.5x-5.1x
/// with 6 against 4.9x-5.1x).
pub(super) const EXPANSION_WORDS: u64 = 12;

/// Flood row words a cell the mend looks at counts as. At one word a cell,
/// once the staircase search looked at about `w + h` cells for a staircase
/// found instead of its whole rectangle, passes that held looked so cheap
/// that they were tried where most failed: Paris_1_256's 1000 parked
/// agents took 6% more JPST instructions (3,137.9 -> 3,335.7 million), its
/// agents 600-999 ran at 7.3x-7.4x instead of 7.9x-8.3x. At two words a
/// cell, 3,135.8 million; four words cost den520d 6%.
pub(super) const MEND_CELL_WORDS: u64 = 2;

/// Weight of the newest query in the running averages.
const WEIGHT: f32 = 1.0 / 16.0;

/// Passes to see before the pass is skipped.
const MIN_PASSES: u32 = 8;

/// While the pass does not pay, it is still tried once in this many
/// queries, so the odds follow a world where it holds again.
const PROBE_EVERY: u32 = 8;

/// What the first pass has been costing and saving lately.
#[derive(Debug, Default)]
pub(super) struct PassOrFlood {
    /// Share of recent passes whose path held.
    held: Mean,
    /// Words of a pass that held.
    held_cost: Mean,
    /// Words of a pass that failed, its mend included.
    failed_cost: Mean,
    /// Words of the floods of a query whose flood arrived at the lower
    /// bound, as a held pass would have.
    flood_cost: Mean,
    /// Queries that skipped the pass since it was last tried.
    skipped: u32,
}

impl PassOrFlood {
    /// True if this query should try the pass before its floods: the
    /// floods the pass spares, on the share of queries whose path holds,
    /// outweigh the passes that fail; or too little is known yet.
    pub(super) fn worth_trying(&mut self) -> bool {
        if self.held.seen < MIN_PASSES || self.flood_cost.seen == 0 {
            return true;
        }
        let held = self.held.value;
        let saves = held * (self.flood_cost.value - self.held_cost.value);
        let wastes = (1.0 - held) * self.failed_cost.value;
        if saves >= wastes || self.skipped + 1 >= PROBE_EVERY {
            self.skipped = 0;
            true
        } else {
            self.skipped += 1;
            false
        }
    }

    /// Records a pass that cost `words` and whose path held or not.
    pub(super) fn passed(&mut self, held: bool, words: u64) {
        self.held.add(f32::from(u8::from(held)));
        let cost = if held {
            &mut self.held_cost
        } else {
            &mut self.failed_cost
        };
        cost.add(words as f32);
    }

    /// Records floods that cost `words` and arrived at the lower bound.
    pub(super) fn flooded_at_bound(&mut self, words: u64) {
        self.flood_cost.add(words as f32);
    }
}

/// A running average: the plain mean of the first values, then one that
/// weighs the newest by [`WEIGHT`].
#[derive(Debug, Default)]
struct Mean {
    value: f32,
    /// Values seen, up to `1 / WEIGHT`.
    seen: u32,
}

impl Mean {
    fn add(&mut self, x: f32) {
        self.seen = (self.seen + 1).min((1.0 / WEIGHT) as u32);
        self.value += (x - self.value) / self.seen as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::*;
    use crate::grid::{Cell, Dir, NavGrid, ObstacleEnd, StaticGrid};
    use crate::search::{GoalPolicy, Jpst, Planner, Query, Sipp, validate_path};

    /// A random walk of `len` ticks over walkable cells from `at`.
    fn walk(grid: &NavGrid, rng: &mut Rng, mut at: Cell, len: usize) -> Vec<Cell> {
        let mut cells = vec![at];
        for _ in 1..len {
            let dir = Dir::ALL[rng.below(4) as usize];
            if let Some(next) = at.step(dir).filter(|&c| grid.walls().is_passable(c)) {
                at = next;
            }
            cells.push(at);
        }
        cells
    }

    #[test]
    fn queries_that_skip_the_pass_arrive_when_sipp_does() {
        let mut rng = Rng(0x51_7cc1_b727_220a);
        let mut checked = 0;
        for world in 0..6 {
            let (w, h) = (24 + rng.below(40), 24 + rng.below(40));
            let density = rng.below(30);
            let open: Vec<bool> = (0..w * h).map(|_| rng.below(100) >= density).collect();
            let walls = StaticGrid::from_fn(w, h, |c| open[(c.y * w + c.x) as usize]);
            let mut grid = NavGrid::new(walls.expect("map"));
            let free = |grid: &NavGrid, rng: &mut Rng| loop {
                let c = Cell::new(rng.below(w), rng.below(h));
                if grid.walls().is_passable(c) {
                    return c;
                }
            };
            for _ in 0..w * h / 40 {
                let from = free(&grid, &mut rng);
                let len = 10 + rng.below(60) as usize;
                let cells = walk(&grid, &mut rng, from, len);
                let _ = grid.add_obstacle(rng.below(5), &cells, ObstacleEnd::Vanish);
            }
            let mut jpst = Jpst::default();
            // Passes that always fail and floods that come cheap: wherever
            // the flood is on, the pass is skipped on all but one query in
            // PROBE_EVERY.
            for _ in 0..32 {
                jpst.pass_plan.passed(false, 1 << 20);
            }
            jpst.pass_plan.flooded_at_bound(1);
            let mut sipp = Sipp::default();
            for k in 0..60 {
                let (start, goal) = (free(&grid, &mut rng), free(&grid, &mut rng));
                let policy = if k % 2 == 0 {
                    GoalPolicy::Arrive
                } else {
                    GoalPolicy::Stay
                };
                let query = Query::new(start, goal)
                    .with_policy(policy)
                    .starting_at(rng.below(4));
                let want = sipp.plan(&grid, &query).map(|p| p.cost());
                let got = jpst.plan(&grid, &query);
                assert_eq!(
                    got.as_ref().map(|p| p.cost()).ok(),
                    want.as_ref().ok().copied(),
                    "world {world}, query {k}: {query:?}"
                );
                if let Ok(plan) = got {
                    validate_path(&grid, &query, &plan.cells(), plan.cost()).expect("a valid path");
                    checked += 1;
                }
            }
        }
        assert!(checked > 200, "only {checked} paths checked");
    }

    #[test]
    fn the_pass_is_tried_until_known_then_where_it_pays_and_probed_elsewhere() {
        let mut plan = PassOrFlood::default();
        // Nothing known: try.
        for _ in 0..MIN_PASSES {
            assert!(plan.worth_trying());
            plan.passed(false, 2000);
        }
        // Passes that always fail, but no flood seen yet: still tried.
        assert!(plan.worth_trying());
        plan.flooded_at_bound(3000);
        // Now they only waste: probed once in PROBE_EVERY.
        let tried = (0..4 * PROBE_EVERY).filter(|_| plan.worth_trying()).count();
        assert_eq!(tried, 4);
        // Passes that hold and cost far less than the floods they spare
        // pay again.
        for _ in 0..64 {
            plan.passed(true, 500);
        }
        assert!((0..PROBE_EVERY).all(|_| plan.worth_trying()));
    }

    #[test]
    fn a_pass_dearer_than_the_flood_it_spares_is_skipped() {
        let mut plan = PassOrFlood::default();
        for _ in 0..64 {
            plan.passed(true, 4000);
        }
        plan.passed(false, 4000);
        plan.flooded_at_bound(1000);
        assert!(!plan.worth_trying());
    }
}
