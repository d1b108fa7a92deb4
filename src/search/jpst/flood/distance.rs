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
//! A cell reached `j` ticks after the start is at least `j` steps from
//! the start on foot, so only cells whose two walks (to the goal and from
//! the start) add up to at most `span` can matter, `span` being the ticks
//! from the start to the bound. The breadth-first search from the goal
//! keeps to the cells within `span` of it on foot plus a lower bound on
//! the walk from the start: the Manhattan distance, and, once the
//! searches on a map have taken in twice as many cells as it has (or the
//! first pass has expanded a quarter as many jump points, see
//! [`GoalDistances::landmarks_for_pass`]), the bound its landmarks give
//! (`landmarks.rs`), which sees the walls. Both
//! bounds change by at most one from a cell to its neighbour, so the
//! cells on a shortest way from the goal to any cell kept are kept too,
//! and their distances are exact. On brc202d, with 500 sequential agents,
//! the landmarks cut JPST's counted work (a cell searched is a 32nd of an
//! expansion) from 362,000 to 307,000 expansions.
//!
//! Distances are kept in 16 bits: a flood more than 65,532 ticks long is
//! left to the temporal search.

use super::landmarks::{LANDMARKS, UNKNOWN, bound, find_landmarks};
use crate::grid::{Cell, StaticGrid, Tick};

/// How much longer than their Manhattan distances (in percent, over all
/// the first pass's walks on a map) walks must be for the pass to get its
/// landmarks sooner (see [`GoalDistances::landmarks_for_pass`]). In the
/// first 100 queries the walks of Berlin_1_256 run 4-9% longer, those of
/// Paris_1_256 23-54%, den520d's 21-28%, room-64-64-8's 21-48%, and
/// ost003d's, lak303d's and brc202d's 14-114%.
const LONG_WALKS_PERCENT: u64 = 15;

/// The distance of a cell the search did not reach.
pub(super) const FAR: u32 = u16::MAX as u32;

/// The mark of a wall in the distances: never reached, and above every
/// distance, like [`FAR`].
const WALL: u32 = FAR - 1;

/// The mark of a cell left out of the last search as too far for its span,
/// and kept as a candidate for a wider one: above every distance too.
const LEFT: u32 = FAR - 2;

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
///
/// The floods of one query ask for the same trip with wider and wider
/// spans. A wider search goes on from the last one: the cells it found
/// keep their distances, and it starts from the cells the last one left
/// out at its edge, each at the distance it would have had.
#[derive(Debug, Default)]
pub(super) struct GoalDistances {
    /// The revision of the walls the distances are for.
    walls: Option<u64>,
    /// Per cell (dense index): steps to the goal, or [`FAR`], [`LEFT`] or
    /// [`WALL`] (so one read tells whether a neighbour is new and
    /// walkable).
    steps: Vec<u16>,
    /// Per cell (dense index): steps to each landmark, which bound the
    /// walk from the start from below where walls make the Manhattan
    /// distance too low; empty until the landmarks are found.
    marks: Vec<[u16; LANDMARKS]>,
    /// The cells given a distance, in the order found (a level at a time,
    /// the queue of a search).
    found: Vec<Cell>,
    /// The start and goal the distances are for, and the widest span
    /// searched; `None` when a search gave up half-way.
    trip: Option<(Cell, Cell, Tick)>,
    /// The cells left out as too far for that span, each with the distance
    /// it would have had, in the order left (so by distance).
    left: Vec<(Cell, u32)>,
    /// The list a search leaves cells out in while it reads `left` (the
    /// two swap), kept for its capacity.
    spare: Vec<(Cell, u32)>,
    /// The cells the searches on these walls have taken in.
    searched: u64,
    /// The jump points the first pass expanded on these walls.
    passed: u64,
    /// The steps of the quickest walks the first pass found on these
    /// walls, added up.
    walked: u64,
    /// The Manhattan distances of those walks, added up.
    straight: u64,
}

impl GoalDistances {
    /// Steps from cell `cell` (dense index) to the goal, or a number above
    /// every distance ([`LEFT`] or more) if it cannot matter.
    #[inline]
    pub fn steps(&self, cell: usize) -> u32 {
        u32::from(self.steps[cell])
    }

    /// Forgets the last search's distances, and the walls too if they are
    /// not those of `walls`.
    fn reset(&mut self, walls: &StaticGrid) {
        self.follow_walls(walls);
        let left = self.left.iter().map(|&(cell, _)| cell);
        for cell in self.found.iter().copied().chain(left) {
            self.steps[walls.index(cell)] = FAR as u16;
        }
        self.found.clear();
        self.left.clear();
        self.trip = None;
    }

    /// Forgets everything found on other walls than `walls`.
    fn follow_walls(&mut self, walls: &StaticGrid) {
        if self.walls == Some(walls.revision()) {
            return;
        }
        self.walls = Some(walls.revision());
        // A walkable cell's bit makes `WALL` into `FAR`.
        self.steps.clear();
        self.steps.resize(walls.cell_count(), WALL as u16);
        let width = walls.width() as usize;
        for (y, row) in (0..walls.height()).zip(self.steps.chunks_exact_mut(width)) {
            walls.rows().mark_row(y, WALL as u16, row);
        }
        (self.searched, self.passed, self.walked, self.straight) = (0, 0, 0, 0);
        self.marks.clear();
        self.found.clear();
        self.left.clear();
        self.trip = None;
    }

    /// The landmark distances of every cell of `walls` (by dense index),
    /// for the first pass's estimate, or none while they are not found.
    /// They are found here, in the part of the map that walkable cell
    /// `near` lies in, once the first pass has expanded a quarter as many
    /// jump points on these walls as the map has cells (see
    /// [`note_pass`](Self::note_pass)): an expansion there costs about as
    /// much as four or five cells of the landmarks' three searches, so the
    /// pass spends at most about twice what they cost before it has them.
    /// Where its walks so far run more than [`LONG_WALKS_PERCENT`] longer
    /// than their Manhattan distances, the walls mislead that estimate and
    /// the landmarks raise it most: there they are found after a sixteenth
    /// (on Paris_1_256, after about ten queries instead of forty). Where
    /// walks run close to Manhattan (Berlin_1_256) they would save the
    /// pass less than they cost.
    pub fn landmarks_for_pass(&mut self, walls: &StaticGrid, near: Cell) -> &[[u16; LANDMARKS]] {
        self.follow_walls(walls);
        let long_walks = self.walked.saturating_mul(100)
            >= self.straight.saturating_mul(100 + LONG_WALKS_PERCENT);
        let share = if long_walks { 16 } else { 4 };
        if self.marks.is_empty() && self.passed.saturating_mul(share) >= walls.cell_count() as u64 {
            self.marks.resize(walls.cell_count(), [UNKNOWN; LANDMARKS]);
            find_landmarks(walls, near, &mut self.marks);
        }
        &self.marks
    }

    /// Counts `expanded` jump points of a first pass on the walls last
    /// given to [`landmarks_for_pass`](Self::landmarks_for_pass), and the
    /// steps and Manhattan distance of the walk it found, if any.
    pub fn note_pass(&mut self, expanded: u64, walk: Option<(Tick, Tick)>) {
        self.passed = self.passed.saturating_add(expanded);
        if let Some((steps, manhattan)) = walk {
            self.walked = self.walked.saturating_add(u64::from(steps));
            self.straight = self.straight.saturating_add(u64::from(manhattan));
        }
    }

    /// Finds the landmarks of `walls`, in the part of the map that walkable
    /// cell `near` lies in, once the searches on these walls have taken in
    /// twice as many cells as the map has: finding them costs about as
    /// much as that (three searches of the whole map, a few times cheaper
    /// per cell), so a run of a few queries never pays for them, and a
    /// long one searches at most that much more than it would have with
    /// them from the start.
    fn find_landmarks_when_due(&mut self, walls: &StaticGrid, near: Cell) {
        if self.marks.is_empty() && self.searched >= 2 * walls.cell_count() as u64 {
            self.marks.resize(walls.cell_count(), [UNKNOWN; LANDMARKS]);
            find_landmarks(walls, near, &mut self.marks);
        }
    }

    /// Finds the landmarks of `walls` at once (the searches wait until they
    /// pay), near the first walkable cell.
    #[cfg(test)]
    pub(super) fn find_landmarks_now(&mut self, walls: &StaticGrid) {
        self.reset(walls);
        self.marks.resize(walls.cell_count(), [UNKNOWN; LANDMARKS]);
        let near = (0..walls.cell_count())
            .map(|i| walls.cell_at(i))
            .find(|&cell| walls.is_passable(cell));
        if let Some(near) = near {
            find_landmarks(walls, near, &mut self.marks);
        }
    }

    /// Finds the distances to walkable `goal` of the cells within `span`
    /// steps of it on foot plus a lower bound on the walk from `start`
    /// (going on from the last search if it was for the same trip). Each
    /// cell found counts as a word in `words`; gives up past `max_words`,
    /// or if `span` does not fit in the 16-bit distances.
    pub fn search(
        &mut self,
        walls: &StaticGrid,
        start: Cell,
        goal: Cell,
        span: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Searched {
        if span >= LEFT {
            return Searched::TooBig;
        }
        match self.trip {
            Some((s, g, done))
                if s == start && g == goal && self.walls == Some(walls.revision()) =>
            {
                if span > done {
                    // The marks of the cells left out are this search's to set.
                    for &(cell, _) in &self.left {
                        self.steps[walls.index(cell)] = FAR as u16;
                    }
                    if !self.widen(walls, start, span, max_words, words) {
                        return Searched::TooBig;
                    }
                }
            }
            _ => {
                self.reset(walls);
                self.find_landmarks_when_due(walls, goal);
                self.left.push((goal, 0));
                if !self.widen(walls, start, span, max_words, words) {
                    return Searched::TooBig;
                }
            }
        }
        let done = self.trip.map_or(span, |(_, _, done)| done.max(span));
        self.trip = Some((start, goal, done));
        if u32::from(self.steps[walls.index(start)]) > span {
            Searched::TooFar
        } else {
            Searched::Reached
        }
    }

    /// Steps of the quickest walk from `start` to walkable `goal` over the
    /// walls, found by searches of wider and wider spans from `span` on
    /// (each a sixteenth further above the Manhattan distance, at least 4);
    /// `None` if it is longer than `max_span`, there is none, or the word
    /// limit stops the searches. The distances found stay for the floods
    /// of the same trip.
    #[allow(clippy::too_many_arguments)]
    pub fn walk(
        &mut self,
        walls: &StaticGrid,
        start: Cell,
        goal: Cell,
        mut span: Tick,
        max_span: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Option<Tick> {
        let manhattan = start.manhattan(goal);
        // The walk is no shorter than the landmarks say.
        if let (Some(&a), Some(&b)) = (
            self.marks.get(walls.index(start)),
            self.marks.get(walls.index(goal)),
        ) {
            span = span.max(bound(a, b).min(max_span));
        }
        loop {
            match self.search(walls, start, goal, span, max_words, words) {
                Searched::Reached => return Some(u32::from(self.steps[walls.index(start)])),
                Searched::TooBig => return None,
                Searched::TooFar => {}
            }
            if span >= max_span || self.left.is_empty() {
                return None;
            }
            let above = span.saturating_sub(manhattan);
            span = span.saturating_add((above / 16).max(4)).min(max_span);
        }
    }

    /// Goes on from the cells left out by the last search to those within
    /// `span` now, a level at a time; false if that would exceed the word
    /// limit.
    fn widen(
        &mut self,
        walls: &StaticGrid,
        start: Cell,
        span: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> bool {
        let (w, h) = (walls.width(), walls.height());
        let width = w as usize;
        let left = std::mem::take(&mut self.left);
        let mut kept = std::mem::take(&mut self.spare);
        kept.clear();
        // Taken out of `self` for the loop, so that writing a distance
        // does not make the lists' lengths be read again.
        let mut found = std::mem::take(&mut self.found);
        let from = self.marks.get(walls.index(start)).copied();
        let mut to = Reach {
            steps: &mut self.steps,
            marks: &self.marks,
            found: &mut found,
            kept: &mut kept,
            start,
            span,
            from,
        };
        let limit = max_words.saturating_sub(*words);
        let before = to.found.len();
        let (mut next, mut level_start) = (0, before);
        let mut level = left.first().map_or(0, |&(_, d)| d);
        let mut whole = true;
        loop {
            // The cells left out at this distance, within reach now or
            // left out again.
            while let Some(&(cell, d)) = left.get(next).filter(|&&(_, d)| d == level) {
                next += 1;
                to.take(walls.index(cell), cell, d);
            }
            let level_end = to.found.len();
            if level_start == level_end {
                match left.get(next) {
                    Some(&(_, d)) => level = d,
                    None => break,
                }
                continue;
            }
            // Their neighbours, a step further from the goal.
            let d = level + 1;
            for k in level_start..level_end {
                let here = to.found[k];
                let (x, y) = (here.x, here.y);
                let i = walls.index(here);
                if y > 0 {
                    to.take(i - width, Cell::new(x, y - 1), d);
                }
                if y + 1 < h {
                    to.take(i + width, Cell::new(x, y + 1), d);
                }
                if x > 0 {
                    to.take(i - 1, Cell::new(x - 1, y), d);
                }
                if x + 1 < w {
                    to.take(i + 1, Cell::new(x + 1, y), d);
                }
            }
            if (to.found.len() - before) as u64 > limit {
                whole = false;
                break;
            }
            (level_start, level) = (level_end, d);
        }
        *words += (found.len() - before) as u64;
        self.searched += (found.len() - before) as u64;
        self.found = found;
        if whole {
            self.spare = left;
            self.left = kept;
        } else {
            // Every cell marked stays listed, for the next reset.
            self.left = left;
            self.left.append(&mut kept);
            self.spare = kept;
            self.trip = None;
        }
        whole
    }
}

/// Where a search puts the cells it reaches: their distances, and the
/// lists of those found and of those left out.
struct Reach<'a> {
    steps: &'a mut [u16],
    marks: &'a [[u16; LANDMARKS]],
    found: &'a mut Vec<Cell>,
    kept: &'a mut Vec<(Cell, u32)>,
    start: Cell,
    span: Tick,
    /// The start's distances to the landmarks, if they are known.
    from: Option<[u16; LANDMARKS]>,
}

impl Reach<'_> {
    /// Gives cell `cell` (dense index `i`) distance `d` if it is walkable,
    /// has none yet and is within the span of the goal and the start; keeps
    /// it among those left out if it is too far for that span.
    #[inline]
    fn take(&mut self, i: usize, cell: Cell, d: u32) {
        if u32::from(self.steps[i]) != FAR {
            return;
        }
        if d + cell.manhattan(self.start) <= self.span
            && self
                .from
                .is_none_or(|from| d + bound(self.marks[i], from) <= self.span)
        {
            self.steps[i] = d as u16;
            self.found.push(cell);
        } else {
            self.steps[i] = LEFT as u16;
            self.kept.push((cell, d));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::test_rng::Rng;
    use super::*;
    use crate::search::heuristic::{UNREACHABLE, bfs_from};

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
        for case in 0..1000 {
            let (w, h) = (1 + below(70), 1 + below(12));
            let walls = StaticGrid::from_fn(w, h, |_| below(100) >= 30).unwrap();
            let start = Cell::new(below(w), below(h));
            let goal = Cell::new(below(w), below(h));
            if !walls.is_passable(goal) {
                continue;
            }
            // The whole map's distances.
            let want = bfs_from(&walls, goal);
            let from_start = bfs_from(&walls, start);
            // Half the maps prune with landmarks too.
            let landmarks = below(2) == 0;
            if landmarks {
                distances.find_landmarks_now(&walls);
            }
            // The floods of a query widen the span, and a band of waits can
            // narrow it: a few spans for the same trip, in any order.
            for _ in 0..1 + below(4) {
                let span = start.manhattan(goal) + below(20);
                // Now and then a word limit cuts a search short.
                let max_words = if below(8) == 0 {
                    u64::from(below(60))
                } else {
                    u64::MAX
                };
                let mut words = 0;
                let got = distances.search(&walls, start, goal, span, max_words, &mut words);
                if got == Searched::TooBig {
                    continue;
                }
                let start_in = want[(start.y * w + start.x) as usize] <= span;
                assert_eq!(got == Searched::Reached, start_in, "case {case}");
                for y in 0..h {
                    for x in 0..w {
                        let d = want[(y * w + x) as usize];
                        let man = Cell::new(x, y).manhattan(start);
                        // Without landmarks, every cell within the span
                        // by Manhattan distance from the start; with them,
                        // at least those within it on foot.
                        let walk = from_start[(y * w + x) as usize];
                        let matters = d != UNREACHABLE
                            && if landmarks {
                                walk != UNREACHABLE && d + walk <= span
                            } else {
                                d + man <= span
                            };
                        let got = distances.steps((y * w + x) as usize);
                        if matters {
                            assert_eq!(got, d, "case {case}");
                        } else {
                            // Unusable by a flood of this span.
                            assert!(got == d || got >= LEFT, "case {case}: {got} at ({x}, {y})");
                            if !landmarks {
                                assert!(u64::from(got) + u64::from(man) > u64::from(span));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_quickest_walk_is_found_and_its_distances_serve_the_floods() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut below = |n: u32| rng.below(n);
        let mut distances = GoalDistances::default();
        let mut found = 0;
        for case in 0..1000 {
            let (w, h) = (1 + below(60), 1 + below(40));
            let density = below(45);
            let walls = StaticGrid::from_fn(w, h, |_| below(100) >= density).unwrap();
            let start = Cell::new(below(w), below(h));
            let goal = Cell::new(below(w), below(h));
            if !walls.is_passable(goal) || !walls.is_passable(start) {
                continue;
            }
            let want = bfs_from(&walls, goal);
            let walk = want[walls.index(start)];
            let from_start = bfs_from(&walls, start);
            if below(2) == 0 {
                distances.find_landmarks_now(&walls);
            }
            let from = start.manhattan(goal) + below(6);
            let max_span = if below(4) == 0 {
                from + below(40)
            } else {
                LEFT - 1
            };
            let mut words = 0;
            let got = distances.walk(&walls, start, goal, from, max_span, u64::MAX, &mut words);
            if walk == UNREACHABLE || walk > max_span {
                assert_eq!(got, None, "case {case}");
                continue;
            }
            found += 1;
            assert_eq!(got, Some(walk), "case {case}: {w}x{h} {start} -> {goal}");
            // A flood a few ticks wider goes on from there, exact where it
            // can matter.
            let span = walk + below(8);
            let searched = distances.search(&walls, start, goal, span, u64::MAX, &mut words);
            assert_eq!(searched, Searched::Reached, "case {case}");
            for (i, (&d, &walk)) in want.iter().zip(&from_start).enumerate() {
                if d != UNREACHABLE && walk != UNREACHABLE && d + walk <= span {
                    assert_eq!(distances.steps(i), d, "case {case}");
                }
            }
        }
        assert!(found > 300, "only {found} walks checked");
        // A word limit stops the search.
        let open = StaticGrid::open(64, 64).unwrap();
        let mut words = 0;
        let (start, goal) = (Cell::new(0, 0), Cell::new(63, 63));
        assert_eq!(
            distances.walk(&open, start, goal, 126, 200, 50, &mut words),
            None
        );
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

    #[test]
    fn the_pass_gets_its_landmarks_sooner_where_walks_run_long() {
        let walls = StaticGrid::open(64, 64).unwrap();
        let cells = walls.cell_count() as u64;
        let near = Cell::new(5, 5);
        // Walks 10% longer than Manhattan: a sixteenth of the cells in
        // expansions is not enough, a quarter is.
        let mut distances = GoalDistances::default();
        assert!(distances.landmarks_for_pass(&walls, near).is_empty());
        distances.note_pass(cells / 16, Some((110, 100)));
        assert!(distances.landmarks_for_pass(&walls, near).is_empty());
        distances.note_pass(cells / 4 - cells / 16, None);
        assert_eq!(
            distances.landmarks_for_pass(&walls, near).len(),
            cells as usize
        );
        // Walks 20% longer: a sixteenth is.
        let mut distances = GoalDistances::default();
        assert!(distances.landmarks_for_pass(&walls, near).is_empty());
        distances.note_pass(cells / 16 - 1, Some((120, 100)));
        assert!(distances.landmarks_for_pass(&walls, near).is_empty());
        distances.note_pass(1, None);
        assert_eq!(
            distances.landmarks_for_pass(&walls, near).len(),
            cells as usize
        );
        // Other walls start the count again.
        let other = StaticGrid::open(64, 32).unwrap();
        assert!(distances.landmarks_for_pass(&other, near).is_empty());
    }
}
