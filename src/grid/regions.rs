//! Connected walkable areas of a static grid: which cells can reach which,
//! ignoring time. A goal in another region than the start is unreachable
//! until the walls change, whatever moves.

use std::collections::VecDeque;

use super::{Cell, Dir, NavGrid, StaticGrid, Tick};

/// Label of wall cells.
const WALL: u32 = u32::MAX;

/// The 4-connected regions of a grid's walkable cells.
#[derive(Clone, Debug)]
pub struct Regions {
    width: u32,
    labels: Vec<u32>,
    sizes: Vec<u32>,
    revision: u64,
}

impl Regions {
    /// Labels the regions of `walls` (one pass over the grid).
    pub fn of(walls: &StaticGrid) -> Self {
        Self::label(walls, |_| true)
    }

    /// Labels the regions of the cells of `grid` that can still be entered
    /// at some tick from `tick` on: walls, and cells blocked from `tick` (or
    /// earlier) for ever, such as the cells of units parked for good, do not
    /// count, except the cells for which `keep(cell)` is true (units that are
    /// about to move away). An agent starting at `tick` can only reach cells
    /// of its own region, so a goal elsewhere is unreachable without any
    /// search.
    pub fn open_after(grid: &NavGrid, tick: Tick, mut keep: impl FnMut(Cell) -> bool) -> Self {
        let walls = grid.walls();
        let obstacles = grid.obstacles();
        Self::label(walls, |cell| {
            let still_open = obstacles
                .safe_intervals(walls.index(cell))
                .last()
                .is_some_and(|iv| iv.end >= tick);
            still_open || keep(cell)
        })
    }

    /// Labels the regions of the walkable cells for which `open` is true.
    fn label(walls: &StaticGrid, mut open: impl FnMut(Cell) -> bool) -> Self {
        let mut labels = vec![WALL; walls.cell_count()];
        let mut usable = |cell: Cell| walls.is_passable(cell) && open(cell);
        let mut sizes = Vec::new();
        let mut queue = VecDeque::new();
        for start in 0..labels.len() {
            let cell = walls.cell_at(start);
            if labels[start] != WALL || !usable(cell) {
                continue;
            }
            let label = sizes.len() as u32;
            let mut size = 0u32;
            labels[start] = label;
            queue.push_back(cell);
            while let Some(c) = queue.pop_front() {
                size += 1;
                for dir in Dir::ALL {
                    if let Some(n) = c.step(dir)
                        && walls.contains(n)
                        && labels[walls.index(n)] == WALL
                        && usable(n)
                    {
                        labels[walls.index(n)] = label;
                        queue.push_back(n);
                    }
                }
            }
            sizes.push(size);
        }
        Self {
            width: walls.width(),
            labels,
            sizes,
            revision: walls.revision(),
        }
    }

    /// The region of `cell`, or `None` for walls and cells off the map.
    pub fn region(&self, cell: Cell) -> Option<u32> {
        if cell.x >= self.width {
            return None;
        }
        let i = cell.y as usize * self.width as usize + cell.x as usize;
        self.labels.get(i).copied().filter(|l| *l != WALL)
    }

    /// True if both cells are walkable and a walk connects them.
    pub fn connected(&self, a: Cell, b: Cell) -> bool {
        self.region(a).is_some_and(|r| Some(r) == self.region(b))
    }

    /// Number of regions.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// Number of cells of `region`.
    pub fn size(&self, region: u32) -> u32 {
        self.sizes.get(region as usize).copied().unwrap_or(0)
    }

    /// The region with the most cells, if any cell is walkable.
    pub fn largest(&self) -> Option<u32> {
        (0..self.sizes.len() as u32).max_by_key(|r| (self.sizes[*r as usize], u32::MAX - r))
    }

    /// The [`StaticGrid::revision`] of the walls these regions were
    /// computed from.
    pub fn revision(&self) -> u64 {
        self.revision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_column_splits_the_map_in_two() {
        let walls = StaticGrid::from_fn(5, 3, |c| c.x != 2).unwrap();
        let regions = Regions::of(&walls);
        assert_eq!(regions.count(), 2);
        assert!(regions.connected(Cell::new(0, 0), Cell::new(1, 2)));
        assert!(!regions.connected(Cell::new(0, 0), Cell::new(4, 0)));
        assert_eq!(regions.region(Cell::new(2, 1)), None);
        assert_eq!(regions.region(Cell::new(9, 0)), None);
        assert_eq!(regions.region(Cell::new(0, 9)), None);
        assert_eq!(regions.size(0), 6);
        assert_eq!(regions.largest(), Some(0), "ties go to the first region");
    }

    #[test]
    fn cells_blocked_for_good_split_regions_from_their_tick_on() {
        let mut grid = NavGrid::new(StaticGrid::open(5, 1).unwrap());
        grid.add_block(Cell::new(2, 0), 10, None).unwrap();
        let (left, right) = (Cell::new(0, 0), Cell::new(4, 0));
        assert!(Regions::open_after(&grid, 9, |_| false).connected(left, right));
        assert!(!Regions::open_after(&grid, 10, |_| false).connected(left, right));
        let kept = Regions::open_after(&grid, 10, |c| c == Cell::new(2, 0));
        assert!(kept.connected(left, right));
        // A block that ends is no wall.
        grid.add_block(Cell::new(1, 0), 0, Some(50)).unwrap();
        assert!(Regions::open_after(&grid, 9, |_| false).connected(left, right));
    }

    #[test]
    fn the_largest_region_and_an_all_wall_map() {
        let walls = StaticGrid::from_fn(5, 1, |c| c.x != 1).unwrap();
        let regions = Regions::of(&walls);
        assert_eq!(regions.largest(), regions.region(Cell::new(4, 0)));
        let none = Regions::of(&StaticGrid::from_fn(3, 3, |_| false).unwrap());
        assert_eq!((none.count(), none.largest()), (0, None));
    }
}
