//! Mending the bare path without making it later than it must be.
//!
//! No path arrives before the bare path does, nor (with the `Stay` goal
//! policy) before the goal is free for good. A path that arrives at the
//! later of the two is optimal. The bare path is mended toward that:
//! - where the goal is free for good only later, the agent waits the
//!   difference at the start, or else just before its last step;
//! - where a step meets an obstacle on a stretch that runs straight toward
//!   its end (its length is the Manhattan distance between its ends),
//!   every other staircase between the same two cells is just as long and
//!   is walked at the same ticks, so one that dodges the obstacle changes
//!   no arrival.

use crate::grid::{Cell, NavGrid, Tick};

use super::super::plan::{Plan, SearchStats, Waypoint};
use super::super::query::Query;
use super::super::validate::validate_path;

/// Half-lengths of the stretches tried around a conflict, shortest first;
/// the last ([`WIDE_SPAN`]) only while it pays (see [`WideMends`]).
const SPANS: [usize; 7] = [2, 4, 8, 16, 32, 64, WIDE_SPAN];

/// The half-length of the widest stretch.
const WIDE_SPAN: usize = 128;

/// Tries of the widest stretch before its odds decide.
const WIDE_FIRST_TRIES: u32 = 4;

/// The share of recent tries of the widest stretch that must have found a
/// staircase for the next to be tried (with a sixth, Paris's last 400
/// parked agents kept trying them, and JPST's speed-up there fell from
/// 6.9x to 5.0x).
const WIDE_WORTH: f64 = 1.0 / 3.0;

/// Weight of the newest try in that share.
const WIDE_WEIGHT: f64 = 1.0 / 8.0;

/// While the widest stretch does not pay, one in this many of its tries
/// is made anyway, so that a change of regime is noticed.
const WIDE_PROBE: u32 = 16;

/// Whether the widest stretch has been finding staircases lately. Where
/// units park on open ground it often does (on Berlin_1_256, 5 of its 12
/// tries in the first 100 agents, each sparing a flood); where units keep
/// moving through winding corridors it seldom does (den520d, 500 agents: 4
/// of 127), and a try costs about as much as all the narrower ones. Counts
/// decide, not the clock, so the choice is the same from run to run.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WideMends {
    tries: u32,
    /// Running share of tries that found a staircase.
    found: f64,
    /// Tries skipped since the last one made.
    skipped: u32,
}

impl WideMends {
    /// Whether to try the widest stretch now.
    fn worth_trying(&mut self) -> bool {
        if self.tries < WIDE_FIRST_TRIES || self.found >= WIDE_WORTH {
            return true;
        }
        self.skipped += 1;
        if self.skipped >= WIDE_PROBE {
            self.skipped = 0;
            return true;
        }
        false
    }

    /// Notes a try of the widest stretch that found a staircase or not.
    fn record(&mut self, found: bool) {
        let x = if found { 1.0 } else { 0.0 };
        self.found = if self.tries == 0 {
            x
        } else {
            self.found + (x - self.found) * WIDE_WEIGHT
        };
        self.tries = self.tries.saturating_add(1);
    }
}

/// Conflicts fixed at most per path.
const MAX_FIXES: usize = 4;

/// A path of cost `cost` (at least the bare path's) made from the bare
/// path `bare` (one cell per tick from the query's start, which is free
/// then), free of obstacles and keeping the goal, or `None`. Beyond the
/// bare path's length the extra ticks are waited at the start, or else
/// just before the last step; then each step that meets an obstacle is
/// replaced by a staircase of the same length around it. `conflict` is the
/// first step of `bare` that meets one, where the bare path is as long as
/// `cost` and that step is known. Adds the cells it looks at to `work`;
/// tries the widest stretch as `wide` says, and tells it how that went.
pub(super) fn mend(
    grid: &NavGrid,
    query: &Query,
    bare: &[Cell],
    cost: u32,
    conflict: Option<usize>,
    work: &mut u64,
    wide: &mut WideMends,
) -> Option<Vec<Cell>> {
    let last = bare.len().checked_sub(1)?;
    let extra = (cost as usize).checked_sub(last)?;
    // The bare path with the extra ticks waited on its cell `at`.
    let waiting_on = |at: usize| {
        let mut path = bare[..=at].to_vec();
        path.extend(std::iter::repeat_n(bare[at], extra));
        path.extend_from_slice(&bare[at + 1..]);
        path
    };
    let spots = if extra == 0 || last <= 1 {
        vec![0]
    } else {
        vec![0, last - 1]
    };
    spots.into_iter().find_map(|at| {
        let path = reroute(grid, query, waiting_on(at), conflict, work, wide)?;
        *work += path.len() as u64;
        // Every step was checked; the length is `cost`, so the goal is
        // kept from the arrival on.
        debug_assert_eq!(validate_path(grid, query, &path, cost), Ok(()));
        Some(path)
    })
}

/// Path `path` (one cell per tick from the query's start) with each step
/// that meets an obstacle replaced by a staircase of the same length
/// around it, or `None` if some conflict has none; `known` is the first
/// such step, if known. The goal policy is not checked. Adds the cells it
/// looks at to `work`.
fn reroute(
    grid: &NavGrid,
    query: &Query,
    mut path: Vec<Cell>,
    mut known: Option<usize>,
    work: &mut u64,
    wide: &mut WideMends,
) -> Option<Vec<Cell>> {
    let t0 = query.start_tick;
    // The steps before `from` are known to be free: a detour keeps the
    // cells before its stretch, and the ticks at which they are walked.
    let mut from = 0;
    for _ in 0..MAX_FIXES {
        *work += (path.len() - from) as u64;
        let Some(k) = known
            .take()
            .or_else(|| first_conflict(grid, t0, &path, from))
        else {
            return Some(path);
        };
        let (i, j, cells) = detour(grid, t0, &path, k, work, wide)?;
        path.splice(i..=j, cells);
        from = i;
    }
    *work += (path.len() - from) as u64;
    first_conflict(grid, t0, &path, from)
        .is_none()
        .then_some(path)
}

/// A staircase around the conflict at step `k` of `path` (walked from tick
/// `t0`), on the shortest straight stretch `(i, j)` around it that has
/// one, as `(i, j, cells)`. A stretch along one row or column has no
/// staircase but itself, and one that stopped growing will not grow
/// with a longer reach: neither is searched. The widest stretch is
/// searched only as `wide` says.
fn detour(
    grid: &NavGrid,
    t0: Tick,
    path: &[Cell],
    k: usize,
    work: &mut u64,
    wide: &mut WideMends,
) -> Option<(usize, usize, Vec<Cell>)> {
    let mut tried = None;
    for w in SPANS {
        let (i, j) = straight_stretch(path, k, w);
        if tried == Some((i, j)) {
            return None;
        }
        tried = Some((i, j));
        let (a, b) = (path[i], path[j]);
        if a.x == b.x || a.y == b.y {
            continue;
        }
        if w == WIDE_SPAN && !wide.worth_trying() {
            return None;
        }
        let found = staircase(grid, t0 + i as Tick, a, b, work);
        if w == WIDE_SPAN {
            wide.record(found.is_some());
        }
        if let Some(cells) = found {
            return Some((i, j, cells));
        }
    }
    None
}

/// The plan that walks `cells` (one per tick from `start_tick`, no
/// waits), as the cells where it turns.
pub(super) fn plan_of(cells: &[Cell], start_tick: Tick) -> Plan {
    let waypoint = |k: usize| Waypoint {
        cell: cells[k],
        tick: start_tick + k as Tick,
    };
    let mut waypoints = vec![waypoint(0)];
    for k in 1..cells.len() {
        let last = k + 1 == cells.len();
        if last || cells[k - 1].dir_to(cells[k]) != cells[k].dir_to(cells[k + 1]) {
            waypoints.push(waypoint(k));
        }
    }
    Plan {
        waypoints,
        stats: SearchStats::default(),
    }
}

/// The longest stretch `(i, j)` of `path` around step `k` (so `i <= k` and
/// `k + 1 <= j`), reaching at most `w` cells further each way, whose length
/// is the Manhattan distance between its ends.
fn straight_stretch(path: &[Cell], k: usize, w: usize) -> (usize, usize) {
    let straight = |i: usize, j: usize| {
        let (a, b) = (path[i], path[j]);
        a.x.abs_diff(b.x) + a.y.abs_diff(b.y) == (j - i) as u32
    };
    let (mut i, mut j) = (k, k + 1);
    // Grow one cell at a time, each side in turn, while it stays straight.
    let (mut back, mut ahead) = (true, true);
    while back || ahead {
        if back {
            back = i > 0 && k - i < w && straight(i - 1, j);
            if back {
                i -= 1;
            }
        }
        if ahead {
            ahead = j + 1 < path.len() && j - (k + 1) < w && straight(i, j + 1);
            if ahead {
                j += 1;
            }
        }
    }
    (i, j)
}

/// The first step `k` from step `from` on (from `path[k]` to `path[k +
/// 1]`) that meets an obstacle.
pub(super) fn first_conflict(
    grid: &NavGrid,
    t0: Tick,
    path: &[Cell],
    from: usize,
) -> Option<usize> {
    path.windows(2)
        .enumerate()
        .skip(from)
        .find_map(|(k, step)| (!grid.can_step(step[0], step[1], t0 + k as Tick)).then_some(k))
}

/// A staircase from `a` (left at tick `t`) to `b`, every step toward `b`,
/// free of obstacles, if there is one. Adds the cells it looks at to
/// `work`.
fn staircase(grid: &NavGrid, t: Tick, a: Cell, b: Cell, work: &mut u64) -> Option<Vec<Cell>> {
    let (w, h) = (a.x.abs_diff(b.x) as usize, a.y.abs_diff(b.y) as usize);
    let at = |u: usize, v: usize| {
        let x = if b.x >= a.x {
            a.x + u as u32
        } else {
            a.x - u as u32
        };
        let y = if b.y >= a.y {
            a.y + v as u32
        } else {
            a.y - v as u32
        };
        Cell::new(x, y)
    };
    // came[u + v * (w + 1)]: 0 not reached, 1 from the cell before in x,
    // 2 from the cell before in y, 3 the start.
    let mut came = vec![0u8; (w + 1) * (h + 1)];
    came[0] = 3;
    for v in 0..=h {
        // Cells of this row reached; none means none of the rows after.
        let mut reached = v == 0;
        for u in 0..=w {
            if u + v == 0 {
                continue;
            }
            // The obstacles are read only where a step can come from.
            let x_before = u > 0 && came[u - 1 + v * (w + 1)] != 0;
            let y_before = v > 0 && came[u + (v - 1) * (w + 1)] != 0;
            if !x_before && !y_before {
                continue;
            }
            *work += 1;
            let (cell, tick) = (at(u, v), t + (u + v) as Tick);
            if !grid.walls().is_passable(cell) {
                continue;
            }
            // Free, and no swap with an obstacle leaving toward the cell
            // the step comes from (where nothing happens there during the
            // step, read from flat bounds, not the timeline).
            let sides = grid.obstacles().entry_sides(grid.walls().index(cell), tick);
            let enters = |from: Cell| {
                cell.dir_to(from)
                    .is_some_and(|back| sides & 1 << back as u8 != 0)
            };
            let from_x = x_before && enters(at(u - 1, v));
            let from_y = !from_x && y_before && enters(at(u, v - 1));
            came[u + v * (w + 1)] = if from_x {
                1
            } else if from_y {
                2
            } else {
                0
            };
            reached |= from_x || from_y;
        }
        if !reached {
            return None;
        }
    }
    let (mut u, mut v) = (w, h);
    if came[u + v * (w + 1)] == 0 {
        return None;
    }
    let mut cells = vec![at(u, v)];
    while u + v > 0 {
        match came[u + v * (w + 1)] {
            1 => u -= 1,
            _ => v -= 1,
        }
        cells.push(at(u, v));
    }
    cells.reverse();
    Some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{NavGrid, StaticGrid};
    use crate::search::{GoalPolicy, Jpst, PlanError, Planner, Query, Sipp, validate_path};

    fn cells(list: &[(u32, u32)]) -> Vec<Cell> {
        list.iter().map(|&(x, y)| Cell::new(x, y)).collect()
    }

    #[test]
    fn stretches_grow_while_they_stay_straight() {
        // East, then north, then back west.
        let path = cells(&[
            (0, 5),
            (1, 5),
            (2, 5),
            (3, 5),
            (3, 4),
            (3, 3),
            (2, 3),
            (1, 3),
        ]);
        assert_eq!(straight_stretch(&path, 3, 64), (0, 5));
        assert_eq!(straight_stretch(&path, 3, 1), (2, 5));
        assert_eq!(straight_stretch(&path, 6, 64), (3, 7));
    }

    #[test]
    fn staircases_go_around_a_cell_blocked_at_the_time() {
        let mut grid = NavGrid::new(StaticGrid::open(6, 6).expect("map"));
        grid.add_block(Cell::new(2, 0), 2, Some(3)).expect("block");
        let (a, b) = (Cell::new(0, 0), Cell::new(3, 3));
        let stairs = staircase(&grid, 0, a, b, &mut 0).expect("a way round");
        assert_eq!((stairs.len(), stairs[0], stairs[6]), (7, a, b));
        assert_ne!(stairs[2], Cell::new(2, 0));
        for (k, step) in stairs.windows(2).enumerate() {
            assert!(step[0].dir_to(step[1]).is_some());
            assert!(grid.is_free(step[1], k as Tick + 1));
        }
        // A straight stretch has no other way.
        assert!(staircase(&grid, 0, a, Cell::new(4, 0), &mut 0).is_none());
        // Every staircase crosses the diagonal x + y = 2 at tick 2.
        for c in [Cell::new(1, 1), Cell::new(0, 2)] {
            grid.add_block(c, 2, Some(3)).expect("block");
        }
        assert!(staircase(&grid, 0, a, b, &mut 0).is_none());
        assert!(
            staircase(&grid, 1, a, b, &mut 0).is_some(),
            "a tick later it is clear"
        );
    }

    #[test]
    fn a_detour_keeps_the_bare_length_and_a_corridor_has_none() {
        let open = NavGrid::new(StaticGrid::open(12, 12).expect("map"));
        let query = Query::new(Cell::new(0, 0), Cell::new(8, 8));
        let bare = Jpst::default().plan(&open, &query).expect("path").cells();
        // An obstacle stands on the bare path just when the agent gets there.
        let mut grid = open.clone();
        grid.add_block(bare[5], 5, Some(6)).expect("block");
        let detour = reroute(
            &grid,
            &query,
            bare.clone(),
            None,
            &mut 0,
            &mut WideMends::default(),
        )
        .expect("a way round");
        assert_eq!(detour.len(), bare.len());
        validate_path(&grid, &query, &detour, 16).expect("valid");
        let plan = Jpst::default().plan(&grid, &query).expect("path");
        assert_eq!(plan.arrival(), 16);
        validate_path(&grid, &query, &plan.cells(), plan.cost()).expect("valid");
        // In a corridor one cell wide, an obstacle coming the other way
        // cannot be dodged at the same length.
        let corridor = StaticGrid::from_fn(10, 3, |c| c.y == 1).expect("map");
        let mut grid = NavGrid::new(corridor);
        for x in 0..10 {
            grid.add_block(Cell::new(9 - x, 1), x + 1, Some(x + 2))
                .expect("block");
        }
        let query = Query::new(Cell::new(0, 1), Cell::new(9, 1));
        let straight: Vec<Cell> = (0..10).map(|x| Cell::new(x, 1)).collect();
        assert_eq!(
            reroute(
                &grid,
                &query,
                straight,
                None,
                &mut 0,
                &mut WideMends::default()
            ),
            None
        );
    }

    #[test]
    fn the_widest_stretch_is_tried_while_it_finds_detours_and_probed_after() {
        let mut wide = WideMends::default();
        // The first tries always happen; failing, they stop the next ones
        // but for one probe in 16.
        for _ in 0..WIDE_FIRST_TRIES {
            assert!(wide.worth_trying());
            wide.record(false);
        }
        let tried = (0..64).filter(|_| wide.worth_trying()).count();
        assert_eq!(tried, 64 / WIDE_PROBE as usize);
        // Probes that find detours bring the tries back.
        assert!((0..WIDE_PROBE).any(|_| wide.worth_trying()));
        for _ in 0..8 {
            wide.record(true);
        }
        assert!((0..8).all(|_| wide.worth_trying()));
    }

    #[test]
    fn a_goal_taken_later_is_reached_by_waiting_at_the_start_or_next_door() {
        let mut grid = NavGrid::new(StaticGrid::open(8, 3).expect("map"));
        let (start, goal) = (Cell::new(0, 1), Cell::new(6, 1));
        // An obstacle stands on the goal at ticks 8 and 9: the agent may
        // settle there from tick 10 on, not at 6.
        grid.add_block(goal, 8, Some(10)).expect("block");
        let query = Query::new(start, goal).with_policy(GoalPolicy::Stay);
        let mut jpst = Jpst::default();
        let plan = jpst.plan(&grid, &query).expect("path");
        assert_eq!(plan.arrival(), 10);
        assert_eq!(plan.cells()[..5], [start; 5]);
        validate_path(&grid, &query, &plan.cells(), 10).expect("valid");
        // With the start taken at tick 3 the agent waits next to the goal.
        grid.add_block(start, 3, Some(4)).expect("block");
        let plan = jpst.plan(&grid, &query).expect("path");
        assert_eq!(plan.arrival(), 10);
        assert_eq!(plan.cells()[5..10], [Cell::new(5, 1); 5]);
        validate_path(&grid, &query, &plan.cells(), 10).expect("valid");
        let sipp = Sipp::default().plan(&grid, &query).expect("path");
        assert_eq!(sipp.arrival(), 10);
        // A horizon of 9 ticks leaves the error to the temporal search.
        let within = query.with_horizon(9);
        assert!(matches!(
            jpst.plan(&grid, &within),
            Err(PlanError::HorizonExceeded { .. })
        ));
    }

    #[test]
    fn plans_keep_the_turns_and_walk_the_same_cells() {
        let path = cells(&[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 3)]);
        let plan = plan_of(&path, 7);
        let turns: Vec<(Cell, Tick)> = plan.waypoints.iter().map(|w| (w.cell, w.tick)).collect();
        assert_eq!(
            turns,
            vec![
                (Cell::new(0, 0), 7),
                (Cell::new(0, 2), 9),
                (Cell::new(2, 2), 11),
                (Cell::new(2, 3), 12)
            ]
        );
        assert_eq!(plan.cells(), path);
        assert_eq!(plan_of(&path[..1], 3).waypoints.len(), 1);
    }
}
