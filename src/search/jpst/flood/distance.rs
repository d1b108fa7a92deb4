//! Walking distances to the goal on the walls alone, for the cells a flood
//! may use.
//!
//! A cell the agent stands on with `k` ticks left before the arrival bound
//! lies on a path arriving by the bound only if the goal is within `k`
//! steps of it on foot: moving obstacles can only make the way longer. So
//! a flood may drop a cell once fewer ticks are left than its distance,
//! and never take in one further than that when it is first reached.
//! Unlike the Manhattan distance, walking distances see the walls: on
//! den520d, with 100 moving agents, nineteen of every twenty cells the
//! Manhattan diamond let through lay further from the goal on foot than
//! the bound allowed.
//!
//! A cell reached `j` ticks after the start is at least its Manhattan
//! distance from the start, so only cells within `span` of both (goal on
//! foot, start by Manhattan) can matter, `span` being the ticks from the
//! start to the bound. The breadth-first search from the goal keeps to
//! them; the cells on a shortest way from the goal to any of them are
//! among them too, so their distances are exact.

use crate::grid::{Cell, StaticGrid, Tick};

/// The distance of a cell the search did not reach.
pub(super) const FAR: u32 = u32::MAX;

/// The mark of a wall in the distances: never reached, and above every
/// distance, like [`FAR`].
const WALL: u32 = u32::MAX - 1;

/// What a search of the distances found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Searched {
    /// The start is within reach: every cell that can matter has its
    /// distance.
    Reached,
    /// The start is further than the span from the goal on foot.
    TooFar,
    /// The search would exceed the word limit.
    TooBig,
}

/// Steps from each cell to the goal, reusable from query to query.
#[derive(Debug, Default)]
pub(super) struct GoalDistances {
    /// The revision of the walls the distances are for.
    walls: Option<u64>,
    /// Per cell (dense index): steps to the goal, [`FAR`], or [`WALL`] (so
    /// one read tells whether a neighbour is new and walkable).
    steps: Vec<u32>,
    /// The cells given a distance, in the order found (also the queue).
    found: Vec<Cell>,
}

impl GoalDistances {
    /// Steps from cell `cell` (dense index) to the goal, or a number above
    /// every distance ([`FAR`] or more) if it cannot matter.
    #[inline]
    pub fn steps(&self, cell: usize) -> u32 {
        self.steps[cell]
    }

    /// Forgets the last search's distances, and the walls too if they are
    /// not those of `walls`.
    fn reset(&mut self, walls: &StaticGrid) {
        let width = walls.width() as usize;
        if self.walls == Some(walls.revision()) {
            for &cell in &self.found {
                self.steps[cell.y as usize * width + cell.x as usize] = FAR;
            }
        } else {
            self.walls = Some(walls.revision());
            self.steps.clear();
            self.steps.extend((0..walls.height()).flat_map(|y| {
                (0..walls.width()).map(move |x| if walls.rows().get(x, y) { FAR } else { WALL })
            }));
        }
        self.found.clear();
    }

    /// Finds the distances to walkable `goal` of the cells within `span`
    /// steps of it on foot and of `start` by Manhattan distance. Each cell
    /// found counts as a word in `words`; gives up past `max_words`.
    pub fn search(
        &mut self,
        walls: &StaticGrid,
        start: Cell,
        goal: Cell,
        span: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Searched {
        self.reset(walls);
        let (w, h) = (walls.width(), walls.height());
        let index = |c: Cell| c.y as usize * w as usize + c.x as usize;
        let limit = max_words.saturating_sub(*words);
        self.steps[index(goal)] = 0;
        self.found.push(goal);
        // Level by level: the cells found before `level_end` are `d - 1`
        // steps from the goal.
        let (mut next, mut level_end, mut d) = (0, 1, 1);
        while let Some(&here) = self.found.get(next) {
            if next == level_end {
                level_end = self.found.len();
                d += 1;
            }
            next += 1;
            let Some(room) = span.checked_sub(d) else {
                break;
            };
            // Each neighbour is a step nearer the start or a step further.
            let m = here.manhattan(start);
            let (x, y) = (here.x, here.y);
            let near = [
                (y > 0, y > start.y, Cell::new(x, y.wrapping_sub(1))),
                (y + 1 < h, y < start.y, Cell::new(x, y + 1)),
                (x > 0, x > start.x, Cell::new(x.wrapping_sub(1), y)),
                (x + 1 < w, x < start.x, Cell::new(x + 1, y)),
            ];
            for (on_map, nearer, n) in near {
                let man = if nearer { m - 1 } else { m + 1 };
                if on_map && man <= room && self.steps[index(n)] == FAR {
                    self.steps[index(n)] = d;
                    self.found.push(n);
                }
            }
            if self.found.len() as u64 > limit {
                *words += self.found.len() as u64;
                return Searched::TooBig;
            }
        }
        *words += self.found.len() as u64;
        if self.steps[index(start)] > span {
            Searched::TooFar
        } else {
            Searched::Reached
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::heuristic::bfs_from;

    #[test]
    fn distances_are_exact_where_they_can_matter_and_far_elsewhere() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut below = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        let mut distances = GoalDistances::default();
        for case in 0..400 {
            let (w, h) = (1 + below(70), 1 + below(12));
            let walls = StaticGrid::from_fn(w, h, |_| below(100) >= 30).unwrap();
            let start = Cell::new(below(w), below(h));
            let goal = Cell::new(below(w), below(h));
            if !walls.is_passable(goal) {
                continue;
            }
            let span = start.manhattan(goal) + below(20);
            // The whole map's distances (`UNREACHABLE` is `FAR`).
            let want = bfs_from(&walls, goal);
            let mut words = 0;
            let got = distances.search(&walls, start, goal, span, u64::MAX, &mut words);
            let start_in = want[(start.y * w + start.x) as usize] <= span;
            assert_eq!(got == Searched::Reached, start_in, "case {case}");
            for y in 0..h {
                for x in 0..w {
                    let d = want[(y * w + x) as usize];
                    let matters = d != FAR && d + Cell::new(x, y).manhattan(start) <= span;
                    let got = distances.steps((y * w + x) as usize);
                    if matters {
                        assert_eq!(got, d, "case {case}");
                    } else {
                        assert!(got >= WALL, "case {case}: {got} at ({x}, {y})");
                    }
                }
            }
        }
    }

    #[test]
    fn a_search_past_its_word_limit_gives_up() {
        let walls = StaticGrid::open(64, 64).unwrap();
        let mut distances = GoalDistances::default();
        let mut words = 0;
        let (start, goal) = (Cell::new(0, 0), Cell::new(63, 63));
        let got = distances.search(&walls, start, goal, 130, 100, &mut words);
        assert_eq!(got, Searched::TooBig);
        // The next search starts clean, on a map of another size too.
        let small = StaticGrid::open(8, 3).unwrap();
        let got = distances.search(
            &small,
            Cell::new(0, 0),
            Cell::new(7, 2),
            9,
            u64::MAX,
            &mut words,
        );
        assert_eq!(got, Searched::Reached);
        assert_eq!(distances.steps(0), 9);
    }
}
