//! Differential fuzzing of the planners on small worlds built from
//! `arbitrary` input: JPST (both heuristics, with a jump limit, without
//! speculative waits), SIPP and time-expanded A* must all give the same cost
//! or the same error, and every path must validate. See `check_planners` in
//! `tests/fuzz_checks/mod.rs`.
//!
//! On a failure the panic message holds the world as text (the format of
//! `tests/data/fuzz/planners/`), so a minimised artifact becomes a
//! regression file by running it once and copying that text.
#![no_main]

use arbitrary::Arbitrary;
use bevy_jpst::grid::{Cell, Dir, NavGrid, ObstacleEnd, StaticGrid};
use bevy_jpst::io::{Block, Instance, Obstacle};
use bevy_jpst::search::{GoalPolicy, Query};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

const MAX_SIDE: u8 = 12;
const MAX_BLOCKS: usize = 6;
const MAX_OBSTACLES: usize = 4;
const MAX_STEPS: usize = 15;

#[derive(Arbitrary, Debug)]
struct Input {
    /// `1 + width % 12`.
    width: u8,
    /// `1 + height % 12`.
    height: u8,
    /// Bit `x` of `walls[y]` set: `(x, y)` is a wall.
    walls: [u16; MAX_SIDE as usize],
    /// The first 6 are used.
    blocks: Vec<BlockIn>,
    /// The first 4 are used.
    obstacles: Vec<ObstacleIn>,
    query: QueryIn,
    /// `1 + jump_limit % 6`.
    jump_limit: u8,
}

#[derive(Arbitrary, Debug)]
struct BlockIn {
    x: u8,
    y: u8,
    /// `from % 41`.
    from: u8,
    /// `to = from + length % 17` (0: an empty span, which the grid refuses);
    /// `None`: for ever.
    length: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct ObstacleIn {
    x: u8,
    y: u8,
    /// `t0 % 21`.
    t0: u8,
    /// The first 15 are used; a step off the map is a wait.
    steps: Vec<Step>,
    park: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Step {
    North,
    East,
    South,
    West,
    Wait,
}

#[derive(Arbitrary, Debug)]
struct QueryIn {
    /// Coordinates modulo `side + 1`: now and then off the map.
    sx: u8,
    sy: u8,
    gx: u8,
    gy: u8,
    /// `start_tick % 11`.
    start_tick: u8,
    stay: bool,
}

fn build(input: &Input) -> (NavGrid, Instance, u32) {
    let width = 1 + (input.width % MAX_SIDE) as u32;
    let height = 1 + (input.height % MAX_SIDE) as u32;
    let walls = StaticGrid::from_fn(width, height, |c| input.walls[c.y as usize] >> c.x & 1 == 0)
        .expect("a small map");
    let mut grid = NavGrid::new(walls);
    let mut instance = Instance {
        map: "inline".into(),
        blocks: Vec::new(),
        obstacles: Vec::new(),
        queries: Vec::new(),
    };
    for b in input.blocks.iter().take(MAX_BLOCKS) {
        let cell = Cell::new(b.x as u32 % width, b.y as u32 % height);
        let from = (b.from % 41) as u32;
        let to = b.length.map(|l| from + (l % 17) as u32);
        // The grid may refuse (an empty span): skip what it refuses.
        if grid.add_block(cell, from, to).is_ok() {
            instance.blocks.push(Block { cell, from, to });
        }
    }
    for o in input.obstacles.iter().take(MAX_OBSTACLES) {
        let mut at = Cell::new(o.x as u32 % width, o.y as u32 % height);
        let mut cells = vec![at];
        for step in o.steps.iter().take(MAX_STEPS) {
            let dir = match step {
                Step::North => Some(Dir::North),
                Step::East => Some(Dir::East),
                Step::South => Some(Dir::South),
                Step::West => Some(Dir::West),
                Step::Wait => None,
            };
            if let Some(next) = dir.and_then(|d| at.step(d))
                && grid.walls().contains(next)
            {
                at = next;
            }
            cells.push(at);
        }
        let t0 = (o.t0 % 21) as u32;
        let end = if o.park {
            ObstacleEnd::Park
        } else {
            ObstacleEnd::Vanish
        };
        if grid.add_obstacle(t0, &cells, end).is_ok() {
            instance.obstacles.push(Obstacle { t0, end, cells });
        }
    }
    let q = &input.query;
    let start = Cell::new(q.sx as u32 % (width + 1), q.sy as u32 % (height + 1));
    let goal = Cell::new(q.gx as u32 % (width + 1), q.gy as u32 % (height + 1));
    let policy = if q.stay {
        GoalPolicy::Stay
    } else {
        GoalPolicy::Arrive
    };
    instance.queries.push(
        Query::new(start, goal)
            .starting_at((q.start_tick % 11) as u32)
            .with_policy(policy),
    );
    (grid, instance, 1 + (input.jump_limit % 6) as u32)
}

fuzz_target!(|input: Input| {
    let (grid, instance, jump_limit) = build(&input);
    let context = || {
        format!(
            "world file:\n{}",
            fuzz_checks::world_text(grid.walls(), &instance, jump_limit)
        )
    };
    for query in &instance.queries {
        fuzz_checks::check_planners(&grid, query, jump_limit, &context);
    }
});
