//! Helpers shared by the integration tests: small worlds from ASCII art,
//! a seeded random generator, and a check that runs every planner on a query,
//! compares costs with the time-expanded A* reference and validates paths.
#![allow(dead_code)]

use bevy_jpst::grid::{Cell, NavGrid, ObstacleEnd, StaticGrid, Tick};
use bevy_jpst::search::{
    Heuristic, Jpst, PlanError, Planner, Query, Sipp, TimeExpandedAStar, WalkingEstimate,
    validate_path,
};

/// A world from rows of text: `.` walkable, anything else a wall.
pub fn ascii(rows: &[&str]) -> NavGrid {
    let height = rows.len() as u32;
    let width = rows[0].len() as u32;
    let walls = StaticGrid::from_fn(width, height, |c| {
        rows[c.y as usize].as_bytes()[c.x as usize] == b'.'
    })
    .unwrap();
    NavGrid::new(walls)
}

/// A world where only the listed cells are walkable.
pub fn only(width: u32, height: u32, free: &[(u32, u32)]) -> NavGrid {
    let walls = StaticGrid::from_fn(width, height, |c| free.contains(&(c.x, c.y))).unwrap();
    NavGrid::new(walls)
}

/// Cells from coordinate pairs.
pub fn cells(list: &[(u32, u32)]) -> Vec<Cell> {
    list.iter().map(|&(x, y)| Cell::new(x, y)).collect()
}

/// `cell` repeated `n` times (an obstacle standing still).
pub fn stand(cell: (u32, u32), n: usize) -> Vec<Cell> {
    vec![Cell::new(cell.0, cell.1); n]
}

/// Every planner this crate has, with both heuristics and JPST's stages on
/// and off, reference first.
pub fn all_planners() -> Vec<Box<dyn Planner>> {
    vec![
        Box::new(TimeExpandedAStar::new(Heuristic::Manhattan)),
        Box::new(Sipp::new(Heuristic::Manhattan)),
        Box::new(Sipp::new(Heuristic::Perfect2D)),
        Box::new(Jpst::new(Heuristic::Manhattan)),
        Box::new(Jpst::new(Heuristic::Perfect2D)),
        Box::new(Jpst::new(Heuristic::Manhattan).with_speculative_wait(true)),
        Box::new(Jpst::new(Heuristic::Manhattan).with_jump_limit(5)),
        // The flood alone before the temporal search, and neither stage:
        // the temporal search guided as by default, by walking distances
        // always, and by Manhattan's always.
        Box::new(Jpst::new(Heuristic::Manhattan).with_static_first(false)),
        Box::new(
            Jpst::new(Heuristic::Manhattan)
                .with_static_first(false)
                .with_flood(false),
        ),
        Box::new(
            Jpst::new(Heuristic::Manhattan)
                .with_static_first(false)
                .with_flood(false)
                .with_walking_estimate(WalkingEstimate::Always),
        ),
        Box::new(
            Jpst::new(Heuristic::Manhattan)
                .with_static_first(false)
                .with_flood(false)
                .with_walking_estimate(WalkingEstimate::Off),
        ),
        // Manhattan's estimate for a few expansions, walking distances
        // after: entries queued before keep their keys.
        Box::new(
            Jpst::new(Heuristic::Manhattan)
                .with_static_first(false)
                .with_flood(false)
                .with_walking_estimate(WalkingEstimate::After(3)),
        ),
    ]
}

/// Runs every planner in `planners` (the first is the reference) on `query`;
/// asserts they agree and that every path validates. Returns the answer.
pub fn agree(
    planners: &mut [Box<dyn Planner>],
    grid: &NavGrid,
    query: &Query,
    context: &dyn Fn() -> String,
) -> Result<u32, PlanError> {
    let mut reference: Option<Result<u32, PlanError>> = None;
    for (i, planner) in planners.iter_mut().enumerate() {
        let answer = planner.plan(grid, query);
        let summary = answer.as_ref().map(|p| p.cost()).map_err(|e| e.clone());
        if let Ok(plan) = &answer {
            let path = plan.cells();
            if let Err(v) = validate_path(grid, query, &path, plan.cost()) {
                panic!(
                    "{} (#{i}) returned an invalid path: {v:?}\nquery {query:?}\nwaypoints {:?}\n{}",
                    planner.name(),
                    plan.waypoints,
                    context()
                );
            }
        }
        match &reference {
            None => reference = Some(summary),
            Some(r) => assert_eq!(
                &summary,
                r,
                "{} (#{i}) disagrees with the reference\nquery {query:?}\n{}",
                planner.name(),
                context()
            ),
        }
    }
    reference.expect("at least one planner")
}

/// SplitMix64: a tiny deterministic generator for reproducible worlds.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

/// A described random world, for failure messages.
pub struct RandomWorld {
    pub grid: NavGrid,
    pub description: String,
}

/// A random world: `width x height`, `wall_ratio` walls, `obstacles` moving
/// obstacles (random walks on walkable cells, vanishing or parking), and
/// `blocks` block spans (some for ever).
pub fn random_world(
    rng: &mut Rng,
    width: u32,
    height: u32,
    wall_ratio: f64,
    obstacles: usize,
    blocks: usize,
    max_t0: Tick,
) -> RandomWorld {
    let walls = StaticGrid::from_fn(width, height, |_| !rng.chance(wall_ratio)).unwrap();
    let mut grid = NavGrid::new(walls);
    let free = walkable_cells(&grid);
    let mut description = format!("world {width}x{height}\n");
    for y in 0..height {
        for x in 0..width {
            description.push(if grid.walls().is_passable(Cell::new(x, y)) {
                '.'
            } else {
                '@'
            });
        }
        description.push('\n');
    }
    if free.is_empty() {
        return RandomWorld { grid, description };
    }
    for _ in 0..obstacles {
        let t0 = rng.below(max_t0 as u64 + 1) as Tick;
        let path = random_walk(rng, &grid, &free);
        let end = if rng.chance(0.3) {
            ObstacleEnd::Park
        } else {
            ObstacleEnd::Vanish
        };
        description.push_str(&format!("obstacle {t0} {end:?} {path:?}\n"));
        grid.add_obstacle(t0, &path, end).unwrap();
    }
    for _ in 0..blocks {
        let cell = free[rng.below(free.len() as u64) as usize];
        let from = rng.below(max_t0 as u64 + 10) as Tick;
        let to = if rng.chance(0.2) {
            None
        } else {
            Some(from + 1 + rng.below(8) as Tick)
        };
        description.push_str(&format!("block {cell} {from} {to:?}\n"));
        grid.add_block(cell, from, to).unwrap();
    }
    RandomWorld { grid, description }
}

/// A random walk over the walkable cells `free` of `grid`, waiting a
/// quarter of the time, at most twice as long as the map's half perimeter.
pub fn random_walk(rng: &mut Rng, grid: &NavGrid, free: &[Cell]) -> Vec<Cell> {
    let len = 1 + rng.below(2 * (grid.width() + grid.height()) as u64) as usize;
    let mut at = free[rng.below(free.len() as u64) as usize];
    let mut path = vec![at];
    for _ in 1..len {
        let options: Vec<Cell> = bevy_jpst::grid::Dir::ALL
            .iter()
            .filter_map(|d| at.step(*d))
            .filter(|c| grid.walls().is_passable(*c))
            .collect();
        if !options.is_empty() && !rng.chance(0.25) {
            at = options[rng.below(options.len() as u64) as usize];
        }
        path.push(at);
    }
    path
}

/// The walkable cells of `grid`, row by row.
pub fn walkable_cells(grid: &NavGrid) -> Vec<Cell> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|c| grid.walls().is_passable(*c))
        .collect()
}

/// A random walkable cell of `grid` (any cell if none is walkable).
pub fn random_cell(rng: &mut Rng, grid: &NavGrid) -> Cell {
    for _ in 0..64 {
        let c = Cell::new(
            rng.below(grid.width() as u64) as u32,
            rng.below(grid.height() as u64) as u32,
        );
        if grid.walls().is_passable(c) {
            return c;
        }
    }
    Cell::new(0, 0)
}
