//! Lower bounds on walking distances from a few far-apart cells.
//!
//! The walking distance between two cells is at least the difference of
//! their distances to any third cell (the triangle inequality), so the
//! distances of every cell to a few *landmarks* spread over the map bound
//! the walk between any two cells from below, and see the walls where the
//! Manhattan distance does not: two cells on either side of a long wall
//! lie far apart for a landmark beyond its end. Like the Manhattan
//! distance, the bound is consistent (it changes by at most one from a
//! cell to its neighbour), so the goal's distance search may prune with
//! it and still find exact distances where they matter (`distance.rs`),
//! and the first pass's jump point search may raise its Manhattan
//! estimate to it and still find shortest walks (`bare.rs`).
//!
//! The landmarks are picked farthest first: the cell furthest on foot from
//! a cell the queries use (the goal of the query that finds them), then the
//! cell furthest from the first. So they lie in the part of the map the
//! queries walk in, even where the map's middle is a walled-off pocket.
//! That takes three breadth-first searches of the map (from that cell,
//! then from each landmark), over 16-bit distances with a border of
//! walls, so that they need no range tests. Three and four
//! landmarks cut the distance searches of brc202d, lak303d, den520d and
//! ost003d by at most 4% more than two, and cost more to find and to read.

use crate::grid::{Cell, StaticGrid};

/// How many landmarks a map gets (a 16-bit distance to each, 4 bytes a
/// cell).
pub(in crate::search::jpst) const LANDMARKS: usize = 2;

/// A distance the table does not hold: the landmark is out of reach, or
/// further than a `u16` counts.
pub(super) const UNKNOWN: u16 = u16::MAX;

/// Finds the distances of every cell of `walls` to the landmarks of the
/// part of the map that cell `near` lies in, into `marks` (by dense
/// index): [`UNKNOWN`] where there is no way or it does not fit in a
/// `u16`. Finds none if `near` is not walkable.
pub(in crate::search::jpst) fn find_landmarks(
    walls: &StaticGrid,
    near: Cell,
    marks: &mut [[u16; LANDMARKS]],
) {
    for entry in marks.iter_mut() {
        *entry = [UNKNOWN; LANDMARKS];
    }
    if !walls.is_passable(near) {
        return;
    }
    let mut map = Padded::new(walls);
    // The first landmark is the cell furthest from `near`, the last one a
    // search from there reaches.
    let mut far = map.spread(map.at(near));
    let (width, inner) = (map.width, walls.width() as usize);
    // Each cell's distance to the nearest landmark so far.
    let mut nearest = vec![UNKNOWN; marks.len()];
    for k in 0..LANDMARKS {
        map.spread(far);
        // Row by row: slices of one length, which need no range tests.
        let rows = map.steps.chunks_exact(width).skip(1);
        let cells = marks
            .chunks_exact_mut(inner)
            .zip(nearest.chunks_exact_mut(inner));
        for (row, (entries, nears)) in rows.zip(cells) {
            for ((&d, entry), near) in row[1..=inner].iter().zip(entries).zip(nears) {
                let d = if d == WALL { UNKNOWN } else { d };
                entry[k] = d;
                *near = (*near).min(d);
            }
        }
        if k + 1 == LANDMARKS {
            break;
        }
        // The next landmark: the cell furthest from those picked so far
        // (one more than each distance, so that no way, `UNKNOWN`, wraps to
        // 0 and is never picked).
        let above = |d: u16| d.wrapping_add(1);
        let most = nearest.iter().map(|&d| above(d)).max().unwrap_or(0);
        if most <= 1 {
            break;
        }
        let i = nearest.iter().position(|&d| above(d) == most).unwrap_or(0);
        far = map.at(walls.cell_at(i));
    }
}

/// The walls with a border of walls around them, for breadth-first
/// searches that need no range tests.
struct Padded {
    width: usize,
    /// Per padded cell: the distance found by the last search, [`UNKNOWN`]
    /// where it did not reach, or [`WALL`].
    steps: Vec<u16>,
    /// The cells the last search reached (padded indices), in order.
    queue: Vec<u32>,
}

/// A wall in a padded map.
const WALL: u16 = u16::MAX - 1;

impl Padded {
    fn new(walls: &StaticGrid) -> Self {
        let (width, height) = (walls.width() as usize + 2, walls.height() as usize + 2);
        let mut steps = vec![WALL; width * height];
        // A walkable cell's bit makes `WALL` into `UNKNOWN`.
        for y in 0..walls.height() {
            let row = (y as usize + 1) * width + 1;
            walls
                .rows()
                .mark_row(y, WALL, &mut steps[row..row + width - 2]);
        }
        Self {
            width,
            steps,
            queue: Vec::with_capacity(walls.passable_count() as usize),
        }
    }

    /// The padded index of `cell`.
    fn at(&self, cell: Cell) -> usize {
        (cell.y as usize + 1) * self.width + cell.x as usize + 1
    }

    /// Finds the steps from padded cell `from` to every cell, in `steps`
    /// (distances too large for a `u16` stay [`UNKNOWN`]); returns the
    /// last cell reached, the furthest.
    fn spread(&mut self, from: usize) -> usize {
        let width = self.width;
        // In locals, so that the loop keeps the array's and the queue's
        // places in registers.
        let steps = &mut self.steps[..];
        let mut queue = std::mem::take(&mut self.queue);
        for &i in &queue {
            steps[i as usize] = UNKNOWN;
        }
        queue.clear();
        steps[from] = 0;
        queue.push(from as u32);
        // A level at a time: the cells `d - 1` steps away, whose new
        // neighbours are `d` away.
        let (mut level, mut d) = (0, 1);
        while level < queue.len() && d < WALL {
            let end = queue.len();
            for k in level..end {
                let here = queue[k] as usize;
                for next in [here - width, here + width, here - 1, here + 1] {
                    if steps[next] == UNKNOWN {
                        steps[next] = d;
                        queue.push(next as u32);
                    }
                }
            }
            (level, d) = (end, d + 1);
        }
        let last = queue.last().map_or(from, |&i| i as usize);
        self.queue = queue;
        last
    }
}

/// A lower bound on the walk between the cells whose landmark distances
/// are `a` and `b`.
#[inline]
pub(in crate::search::jpst) fn bound(a: [u16; LANDMARKS], b: [u16; LANDMARKS]) -> u32 {
    let mut most = 0;
    for k in 0..LANDMARKS {
        let known = a[k] != UNKNOWN && b[k] != UNKNOWN;
        let gap = u32::from(a[k].abs_diff(b[k]));
        most = most.max(if known { gap } else { 0 });
    }
    most
}

#[cfg(test)]
mod tests {
    use super::super::super::test_rng::Rng;
    use super::*;
    use crate::search::heuristic::{UNREACHABLE, bfs_from};

    #[test]
    fn the_bound_never_exceeds_the_walk_and_often_beats_manhattan() {
        let mut rng = Rng(0x51_7cc1_b727_220a);
        let mut tighter = 0;
        for case in 0..300 {
            let (w, h) = (1 + rng.below(50), 1 + rng.below(30));
            let density = rng.below(45);
            let walls = StaticGrid::from_fn(w, h, |_| rng.below(100) >= density).unwrap();
            let mut marks = vec![[0; LANDMARKS]; walls.cell_count()];
            let near = Cell::new(rng.below(w), rng.below(h));
            find_landmarks(&walls, near, &mut marks);
            let from = Cell::new(rng.below(w), rng.below(h));
            let want = bfs_from(&walls, from);
            let a = marks[walls.index(from)];
            for (i, &walk) in want.iter().enumerate() {
                let bound = bound(a, marks[i]);
                if walk != UNREACHABLE {
                    assert!(bound <= walk, "case {case}: {bound} > {walk}");
                    tighter += u32::from(bound > walls.cell_at(i).manhattan(from));
                }
            }
        }
        assert!(
            tighter > 1000,
            "the landmarks beat Manhattan only {tighter} times"
        );
    }

    #[test]
    fn a_wall_across_the_map_is_seen() {
        // A wall down the middle with one gap at the bottom: cells facing
        // each other across it are far apart on foot.
        let walls = StaticGrid::from_fn(21, 20, |c| c.x != 10 || c.y == 19).unwrap();
        let mut marks = vec![[0; LANDMARKS]; walls.cell_count()];
        find_landmarks(&walls, Cell::new(10, 19), &mut marks);
        let (a, b) = (Cell::new(9, 0), Cell::new(11, 0));
        let got = bound(marks[walls.index(a)], marks[walls.index(b)]);
        assert!(got > 30, "bound {got}, walk 40");
        // A pocket walled off in the middle, and a wall below it with a
        // gap at the bottom: landmarks found from inside the pocket know
        // nothing of the rest of the map, those found from a cell outside
        // see the wall.
        let pocket = StaticGrid::from_fn(21, 21, |c| {
            let ring = c.x.abs_diff(10).max(c.y.abs_diff(10)) == 2;
            !ring && (c.x != 10 || c.y < 12 || c.y == 20)
        })
        .unwrap();
        let (a, b) = (Cell::new(9, 18), Cell::new(11, 18));
        let mut marks = vec![[0; LANDMARKS]; pocket.cell_count()];
        find_landmarks(&pocket, Cell::new(10, 10), &mut marks);
        assert_eq!(bound(marks[pocket.index(a)], marks[pocket.index(b)]), 0);
        find_landmarks(&pocket, Cell::new(0, 0), &mut marks);
        let got = bound(marks[pocket.index(a)], marks[pocket.index(b)]);
        assert!(
            got > 4,
            "bound {got} across the wall below the pocket, walk 6"
        );
        // A wall as the cell to start from: no landmarks, no bound.
        let closed = StaticGrid::from_fn(3, 3, |c| c.x == 1).unwrap();
        let mut marks = vec![[0; LANDMARKS]; 9];
        find_landmarks(&closed, Cell::new(0, 0), &mut marks);
        assert!(marks.iter().all(|m| *m == [UNKNOWN; LANDMARKS]));
    }
}
