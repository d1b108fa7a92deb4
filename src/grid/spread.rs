//! Spreading a group's goals over the cells nearest a clicked point.

use std::collections::VecDeque;

use super::{Cell, Dir, StaticGrid};

/// Up to `count` distinct walkable cells nearest to `around`, in order of
/// walking distance from it, skipping cells for which `usable` is false (a
/// parked unit, a gate). Only cells reachable from `around` are returned;
/// when `around` is a wall or off the map, the search starts from the
/// nearest walkable cell within 16 cells of it (none: an empty list).
///
/// Giving each unit of a group one of these cells as its goal makes the
/// group arrive side by side instead of piling onto one cell.
pub fn nearest_free_cells(
    walls: &StaticGrid,
    around: Cell,
    count: usize,
    mut usable: impl FnMut(Cell) -> bool,
) -> Vec<Cell> {
    let mut found = Vec::with_capacity(count.min(walls.cell_count()));
    let Some(start) = nearest_walkable(walls, around, 16) else {
        return found;
    };
    let mut seen = vec![false; walls.cell_count()];
    let mut queue = VecDeque::from([start]);
    seen[walls.index(start)] = true;
    while let Some(cell) = queue.pop_front() {
        if found.len() >= count {
            break;
        }
        if usable(cell) {
            found.push(cell);
        }
        for dir in Dir::ALL {
            if let Some(next) = cell.step(dir)
                && walls.is_passable(next)
                && !std::mem::replace(&mut seen[walls.index(next)], true)
            {
                queue.push_back(next);
            }
        }
    }
    found
}

/// The walkable cell nearest to `around` (by rings of growing Chebyshev
/// radius, up to `radius`).
fn nearest_walkable(walls: &StaticGrid, around: Cell, radius: u32) -> Option<Cell> {
    let (cx, cy) = (around.x as i64, around.y as i64);
    (0..=radius as i64).find_map(|r| {
        let ring = (-r..=r).flat_map(move |d| {
            [(d, -r), (d, r), (-r, d), (r, d)]
                .into_iter()
                .map(move |(dx, dy)| (cx + dx, cy + dy))
        });
        ring.filter(|&(x, y)| x >= 0 && y >= 0 && x <= u32::MAX as i64 && y <= u32::MAX as i64)
            .map(|(x, y)| Cell::new(x as u32, y as u32))
            .find(|c| walls.is_passable(*c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_by_walking_distance_and_skips_unusable_cells() {
        // A wall splits the map; cells beyond it are near by air, far on foot.
        let walls = StaticGrid::from_fn(5, 3, |c| c.x != 2 || c.y == 2).unwrap();
        let cells = nearest_free_cells(&walls, Cell::new(1, 0), 4, |c| c != Cell::new(0, 0));
        assert_eq!(cells[0], Cell::new(1, 0));
        assert_eq!(cells.len(), 4);
        assert!(!cells.contains(&Cell::new(0, 0)));
        assert!(
            !cells.contains(&Cell::new(3, 0)),
            "beyond the wall: too far on foot"
        );
        let mut sorted = cells.clone();
        sorted.sort_unstable_by_key(|c| (c.x, c.y));
        sorted.dedup();
        assert_eq!(sorted.len(), 4, "distinct cells");
    }

    #[test]
    fn a_wall_click_starts_from_the_nearest_walkable_cell() {
        let walls = StaticGrid::from_fn(4, 4, |c| c.x == 3).unwrap();
        assert_eq!(
            nearest_free_cells(&walls, Cell::new(0, 0), 2, |_| true),
            vec![Cell::new(3, 0), Cell::new(3, 1)]
        );
        assert!(nearest_free_cells(&walls, Cell::new(100, 100), 2, |_| true).is_empty());
        let none = StaticGrid::from_fn(4, 4, |_| false).unwrap();
        assert!(nearest_free_cells(&none, Cell::new(1, 1), 2, |_| true).is_empty());
    }

    #[test]
    fn asks_for_more_than_the_map_holds() {
        let walls = StaticGrid::open(3, 1).unwrap();
        assert_eq!(
            nearest_free_cells(&walls, Cell::new(0, 0), 10, |_| true).len(),
            3
        );
    }
}
