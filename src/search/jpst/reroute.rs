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

use crate::grid::{Cell, Dir, NavGrid, Tick};

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
    // A step's change of `x` and `y` (both none for a wait).
    let step = |k: usize| {
        let (a, b) = (cells[k], cells[k + 1]);
        (
            i64::from(b.x) - i64::from(a.x),
            i64::from(b.y) - i64::from(a.y),
        )
    };
    let mut waypoints = vec![waypoint(0)];
    for k in 1..cells.len() {
        let last = k + 1 == cells.len();
        if last || step(k - 1) != step(k) {
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
///
/// Every staircase between the two cells walks the cell `(u, v)` steps
/// along and across from `a` at tick `t + u + v`, so whether a way on from
/// there exists does not hang on how the agent got there. A depth-first
/// search keeps to the diagonal of the rectangle, backs up from a cell
/// with no way on and marks it dead: where obstacles are few it looks at
/// about `w + h` cells, not the whole rectangle, and at worst at each cell
/// once.
fn staircase(grid: &NavGrid, t: Tick, a: Cell, b: Cell, work: &mut u64) -> Option<Vec<Cell>> {
    let (w, h) = (a.x.abs_diff(b.x) as usize, a.y.abs_diff(b.y) as usize);
    // A step along moves `x` by `step_x`, one across `y` by `step_y`.
    let (step_x, step_y) = (
        if b.x >= a.x { 1 } else { -1 },
        if b.y >= a.y { 1 } else { -1 },
    );
    let at = |u: usize, v: usize| {
        Cell::new(
            a.x.wrapping_add_signed(step_x * u as i32),
            a.y.wrapping_add_signed(step_y * v as i32),
        )
    };
    // The side a step along (in `x`) or across (in `y`) enters its cell
    // from, as a bit of `TemporalMap::entry_sides`.
    let along = 1 << if b.x >= a.x { Dir::West } else { Dir::East } as u8;
    let across = 1 << if b.y >= a.y { Dir::North } else { Dir::South } as u8;
    let (walls, obstacles) = (grid.walls(), grid.obstacles());
    // Per cell `u + v * (w + 1)`: the sides it can be entered from at its
    // tick (none for a wall) once looked at, and whether it has no way on.
    let stride = w + 1;
    let mut state = vec![0u8; stride * (h + 1)];
    // The cells of the staircase so far (`u`, `v` and the index of its
    // state), each with the moves on from it not tried yet (the one
    // toward more of the way first).
    let mut path: Vec<(u32, u32, u32, u8)> = Vec::with_capacity(w + h + 1);
    path.push((0, 0, 0, first_moves(0, 0, w, h)));
    while let Some(&mut (u, v, k, ref mut moves)) = path.last_mut() {
        let (u, v, k) = (u as usize, v as usize, k as usize);
        if k + 1 == state.len() {
            let cells = path.into_iter();
            return Some(
                cells
                    .map(|(u, v, _, _)| at(u as usize, v as usize))
                    .collect(),
            );
        }
        let mut next = None;
        while *moves != 0 {
            let (nu, nv, nk, side) = match *moves & 3 {
                1 => (u + 1, v, k + 1, along),
                2 => (u, v + 1, k + stride, across),
                _ => {
                    *moves >>= 2;
                    continue;
                }
            };
            *moves >>= 2;
            let s = &mut state[nk];
            if *s & LOOKED == 0 {
                *work += 1;
                let cell = at(nu, nv);
                let sides = if walls.is_passable(cell) {
                    obstacles.entry_sides(walls.index(cell), t + (nu + nv) as Tick)
                } else {
                    0
                };
                *s = LOOKED | sides;
            }
            if *s & DEAD == 0 && *s & side != 0 {
                next = Some((nu, nv, nk));
                break;
            }
        }
        match next {
            Some((nu, nv, nk)) => {
                let moves = first_moves(nu, nv, w, h);
                path.push((nu as u32, nv as u32, nk as u32, moves));
            }
            None => {
                state[k] |= DEAD;
                path.pop();
            }
        }
    }
    None
}

/// The moves on from cell `(u, v)` of a staircase over `w` by `h` cells,
/// two bits each, the first in the lowest: 1 along, 2 across, 0 none. The
/// move toward more of the way is tried first.
#[inline]
fn first_moves(u: usize, v: usize, w: usize, h: usize) -> u8 {
    let (along, across) = (u8::from(u < w), 2 * u8::from(v < h));
    if (w - u) * h >= (h - v) * w {
        along | across << 2
    } else {
        across | along << 2
    }
}

/// A staircase cell's entry sides have been looked up.
const LOOKED: u8 = 1 << 6;

/// A staircase cell with no way on to the end.
const DEAD: u8 = 1 << 7;

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
    fn a_staircase_is_found_whenever_one_exists() {
        let mut rng = crate::search::jpst::test_rng::Rng(0x6a09_e667_f3bc_c908);
        let mut found = 0;
        for case in 0..3000 {
            let (w, h) = (1 + rng.below(9), 1 + rng.below(9));
            let walls = StaticGrid::from_fn(w, h, |_| rng.below(100) >= 15).expect("map");
            let mut grid = NavGrid::new(walls);
            // Cells blocked for a tick or two, and moves forbidden as if an
            // obstacle left a cell then.
            for _ in 0..rng.below(12) {
                let cell = Cell::new(rng.below(w), rng.below(h));
                let from = rng.below(14);
                if grid.walls().is_passable(cell) {
                    grid.add_block(cell, from, Some(from + 1 + rng.below(2)))
                        .expect("block");
                }
            }
            for _ in 0..rng.below(6) {
                let cell = Cell::new(rng.below(w), rng.below(h));
                let dir = Dir::ALL[rng.below(4) as usize];
                grid.forbid_swap(cell, rng.below(14), dir).expect("swap");
            }
            let a = Cell::new(rng.below(w), rng.below(h));
            let b = Cell::new(rng.below(w), rng.below(h));
            let t = rng.below(4);
            if !grid.walls().is_passable(a) || !grid.is_free(a, t) {
                continue;
            }
            // Every cell of the rectangle that some staircase from `a`
            // reaches, one row after the other.
            let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            let at = |u: u32, v: u32| {
                let x = if b.x >= a.x { a.x + u } else { a.x - u };
                let y = if b.y >= a.y { a.y + v } else { a.y - v };
                Cell::new(x, y)
            };
            let mut reached = vec![vec![false; dx as usize + 1]; dy as usize + 1];
            reached[0][0] = true;
            for v in 0..=dy {
                for u in 0..=dx {
                    let here = at(u, v);
                    let tick = t + u + v;
                    let from_along = u > 0
                        && reached[v as usize][u as usize - 1]
                        && grid.can_step(at(u - 1, v), here, tick - 1);
                    let from_across = v > 0
                        && reached[v as usize - 1][u as usize]
                        && grid.can_step(at(u, v - 1), here, tick - 1);
                    if from_along || from_across {
                        reached[v as usize][u as usize] = true;
                    }
                }
            }
            let want = reached[dy as usize][dx as usize];
            let got = staircase(&grid, t, a, b, &mut 0);
            assert_eq!(got.is_some(), want, "case {case}: {a} -> {b} from {t}");
            if let Some(stairs) = got {
                found += 1;
                assert_eq!(stairs.len() as u32, dx + dy + 1, "case {case}");
                assert_eq!((stairs[0], stairs[stairs.len() - 1]), (a, b));
                for (k, step) in stairs.windows(2).enumerate() {
                    assert!(
                        grid.can_step(step[0], step[1], t + k as Tick),
                        "case {case}"
                    );
                }
            }
        }
        assert!(found > 500, "only {found} staircases");
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
