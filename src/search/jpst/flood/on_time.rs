//! A path that arrives as soon as the quickest walk would: a quickest walk
//! that meets no obstacle.
//!
//! Such a path never waits, so it stands on each cell at one tick only:
//! the start tick plus the steps already walked, which for a quickest walk
//! are the walk's length less the cell's walking distance to the goal. So
//! whether the agent can go on from a cell to the goal in time does not
//! hang on how it got there, and a depth-first search along the cells
//! whose walking distance falls by one at each step looks at each cell at
//! most once, marking those with no way on. Where obstacles are few it
//! looks at about as many cells as the walk has steps, where a flood
//! would take in the whole band of near-quickest walks tick after tick.
//!
//! The search only answers with a path: if it finds none within its
//! budget of cells, the floods bounded a few ticks later go on from the
//! same walking distances.

use crate::grid::{Cell, Dir, DirSet, NavGrid, Tick};

use super::distance::GoalDistances;

/// Reusable buffers of the search.
#[derive(Debug, Default)]
pub(super) struct OnTime {
    /// One bit per cell (dense index): no way on from there in time.
    dead: Vec<u64>,
    /// The cells marked dead, to clear them for the next search.
    marked: Vec<u32>,
    /// The walk so far: each cell, its dense index, the directions not
    /// tried yet from it and the one it was entered in (one bit per
    /// [`Dir`]), tried first: fewer turns make fewer waypoints.
    walk: Vec<(Cell, u32, u8, u8)>,
}

impl OnTime {
    /// A walk from `start`, left at `start_tick`, to the cell whose
    /// walking distance in `distances` is 0, with each step one closer to
    /// it and free of obstacles (vertex and swap conflicts) at its tick, if
    /// the search finds one after looking at most at `budget` cells. The
    /// walk has `distances.steps(start) + 1` cells. Adds the cells looked
    /// at to `looked`.
    pub(super) fn find(
        &mut self,
        grid: &NavGrid,
        distances: &GoalDistances,
        (start, start_tick): (Cell, Tick),
        budget: u64,
        looked: &mut u64,
    ) -> Option<Vec<Cell>> {
        let walls = grid.walls();
        let obstacles = grid.obstacles();
        let cells = walls.cell_count();
        // The last search's marks, on these walls or others.
        for &i in &self.marked {
            if let Some(word) = self.dead.get_mut(i as usize / 64) {
                *word = 0;
            }
        }
        self.marked.clear();
        self.dead.resize(cells.div_ceil(64), 0);
        let first = walls.index(start) as u32;
        let length = distances.steps(first as usize);
        self.walk.clear();
        self.walk.push((start, first, ALL, 0));
        let mut spent = 0;
        let mut found = false;
        while let Some(&mut (here, i, ref mut untried, ahead)) = self.walk.last_mut() {
            let left = distances.steps(i as usize);
            if left == 0 {
                found = true;
                break;
            }
            // The tick of the next step's arrival.
            let tick = start_tick + (length - left) + 1;
            let mut next = None;
            while *untried != 0 {
                let bit = if *untried & ahead != 0 {
                    ahead
                } else {
                    *untried & untried.wrapping_neg()
                };
                *untried &= !bit;
                let dir = BY_BIT[bit.trailing_zeros() as usize];
                let Some(cell) = here.step(dir).filter(|&c| walls.contains(c)) else {
                    continue;
                };
                let j = walls.index(cell);
                if distances.steps(j) + 1 != left || self.dead[j / 64] >> (j % 64) & 1 != 0 {
                    continue;
                }
                spent += 1;
                // The side it is entered from is the one toward `here`.
                let side = dir.reverse().bit().0;
                if obstacles.entry_sides(j, tick) & side != 0 {
                    next = Some((cell, j as u32, bit));
                    break;
                }
            }
            match next {
                Some((cell, j, bit)) => self.walk.push((cell, j, ALL, bit)),
                None => {
                    self.dead[i as usize / 64] |= 1 << (i % 64);
                    self.marked.push(i);
                    self.walk.pop();
                }
            }
            if spent > budget {
                break;
            }
        }
        *looked += spent;
        found.then(|| self.walk.iter().map(|&(cell, ..)| cell).collect())
    }
}

/// Every direction, one bit per [`Dir`].
const ALL: u8 = DirSet::ALL.0;

/// The direction of each bit (`1 << dir as u8`).
const BY_BIT: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];
