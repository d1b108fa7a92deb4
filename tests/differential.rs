//! Randomised differential tests: on thousands of random worlds every planner
//! returns exactly the cost of the time-expanded A* reference, and every path
//! validates tick by tick.

mod common;

use bevy_jpst::grid::{NavGrid, ObstacleEnd, Tick};
use bevy_jpst::search::{GoalPolicy, PlanError, Planner, Query};
use common::*;
use proptest::prelude::*;

/// Widths around the 64-bit window boundaries, narrow maps, and the rest.
fn width() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..=9, 31u32..=33, 63u32..=65, 127u32..=129, 10u32..=40,]
}

#[derive(Debug, Clone)]
struct Case {
    seed: u64,
    width: u32,
    height: u32,
    walls: f64,
    obstacles: usize,
    blocks: usize,
    start_tick: u32,
    stay: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<u64>(),
        width(),
        1u32..=40,
        0.0f64..0.4,
        0usize..=12,
        0usize..=4,
        0u32..=10,
        any::<bool>(),
    )
        .prop_map(
            |(seed, width, height, walls, obstacles, blocks, start_tick, stay)| {
                // Keep wide maps short so the (cell, tick) reference stays quick.
                let height = if width > 64 { height.min(12) } else { height };
                Case {
                    seed,
                    width,
                    height,
                    walls,
                    obstacles,
                    blocks,
                    start_tick,
                    stay,
                }
            },
        )
}

/// The case's random world, with `obstacles` moving obstacles.
fn world(case: &Case, rng: &mut common::Rng, obstacles: usize) -> RandomWorld {
    random_world(
        rng,
        case.width,
        case.height,
        case.walls,
        obstacles,
        case.blocks,
        8,
    )
}

/// A query between two random cells of `grid`, under the case's goal
/// policy, starting `after` ticks later than the case says.
fn query(case: &Case, rng: &mut common::Rng, grid: &NavGrid, after: Tick) -> Query {
    let start = random_cell(rng, grid);
    let goal = random_cell(rng, grid);
    let policy = if case.stay {
        GoalPolicy::Stay
    } else {
        GoalPolicy::Arrive
    };
    Query::new(start, goal)
        .with_policy(policy)
        .starting_at(after + case.start_tick)
}

/// Runs `f` with this thread's planners, built once per thread.
fn with_planners(f: impl FnOnce(&mut [Box<dyn Planner>])) {
    thread_local! {
        static PLANNERS: std::cell::RefCell<Vec<Box<dyn Planner>>> =
            std::cell::RefCell::new(all_planners());
    }
    PLANNERS.with(|p| f(&mut p.borrow_mut()));
}

fn run(case: &Case, planners: &mut [Box<dyn Planner>]) {
    let mut rng = Rng(case.seed);
    // Denser obstacles on small maps.
    let obstacles = case.obstacles * (1 + (case.width * case.height / 400) as usize);
    let w = world(case, &mut rng, obstacles);
    let q = query(case, &mut rng, &w.grid, 0);
    let context = || format!("{case:?}\n{}", w.description);
    let answer = agree(planners, &w.grid, &q, &context);
    // One case in four: a horizon just long enough keeps the answer, one
    // tick shorter turns it into HorizonExceeded, in every planner.
    if let Ok(cost) = answer
        && cost > 0
        && case.seed.is_multiple_of(4)
    {
        assert_eq!(
            agree(planners, &w.grid, &q.with_horizon(cost), &context),
            Ok(cost)
        );
        assert_eq!(
            agree(planners, &w.grid, &q.with_horizon(cost - 1), &context),
            Err(PlanError::HorizonExceeded { horizon: cost - 1 })
        );
    }
}

/// The same worlds, edited the way the plugin edits them: more obstacles
/// (half parked) and endless blocks are added, half of them are taken out
/// again, and one case in two forgets the ticks before the query's start.
/// Taking out a parked obstacle must clear the wall it had become, and a
/// map that forgot its past must plan as one built after it.
fn run_edited(case: &Case, planners: &mut [Box<dyn Planner>]) {
    let mut rng = Rng(case.seed);
    let mut w = world(case, &mut rng, case.obstacles);
    let free = walkable_cells(&w.grid);
    if free.is_empty() {
        return;
    }
    let mut added = Vec::new();
    for _ in 0..4 + case.obstacles {
        let t0 = rng.below(9) as Tick;
        let path = random_walk(&mut rng, &w.grid, &free);
        let end = if rng.chance(0.5) {
            ObstacleEnd::Park
        } else {
            ObstacleEnd::Vanish
        };
        w.grid.add_obstacle(t0, &path, end).unwrap();
        added.push((t0, path, end));
    }
    let mut blocks = Vec::new();
    for _ in 0..2 {
        let cell = free[rng.below(free.len() as u64) as usize];
        let from = rng.below(12) as Tick;
        w.grid.add_block(cell, from, None).unwrap();
        blocks.push((cell, from));
    }
    for (t0, path, end) in added.iter().filter(|_| rng.chance(0.5)) {
        w.description
            .push_str(&format!("removed obstacle {t0} {end:?} {path:?}\n"));
        w.grid.remove_obstacle(*t0, path, *end).unwrap();
    }
    for (cell, from) in blocks.iter().filter(|_| rng.chance(0.5)) {
        w.description
            .push_str(&format!("removed endless block {cell} {from}\n"));
        w.grid.remove_block(*cell, *from, None).unwrap();
    }
    let now = if case.seed % 2 == 1 {
        rng.below(10) as Tick
    } else {
        0
    };
    if now > 0 {
        w.description
            .push_str(&format!("forgot the ticks before {now}\n"));
        w.grid.obstacles_mut().forget_before(now);
    }
    let q = query(case, &mut rng, &w.grid, now);
    let context = || format!("{case:?}\n{}", w.description);
    // `agree` checks the answers; which one it was does not matter here.
    let _ = agree(planners, &w.grid, &q, &context);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// JPST (every configuration) and SIPP (both heuristics) against A*.
    #[test]
    fn every_planner_matches_the_reference(case in case()) {
        with_planners(|p| run(&case, p));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every planner against A* on worlds edited after they were built.
    #[test]
    fn every_planner_matches_the_reference_after_edits(case in case()) {
        with_planners(|p| run_edited(&case, p));
    }
}
