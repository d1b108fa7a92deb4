//! Randomised differential tests: on thousands of random worlds every planner
//! returns exactly the cost of the time-expanded A* reference, and every path
//! validates tick by tick.

mod common;

use bevy_jpst::search::{GoalPolicy, PlanError, Query};
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

fn run(case: &Case, planners: &mut [Box<dyn bevy_jpst::search::Planner>]) {
    let mut rng = Rng(case.seed);
    // Denser obstacles on small maps.
    let obstacles = case.obstacles * (1 + (case.width * case.height / 400) as usize);
    let w = random_world(
        &mut rng,
        case.width,
        case.height,
        case.walls,
        obstacles,
        case.blocks,
        8,
    );
    let start = random_cell(&mut rng, &w.grid);
    let goal = random_cell(&mut rng, &w.grid);
    let policy = if case.stay {
        GoalPolicy::Stay
    } else {
        GoalPolicy::Arrive
    };
    let q = Query::new(start, goal)
        .with_policy(policy)
        .starting_at(case.start_tick);
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// JPST (every configuration) and SIPP (both heuristics) against A*.
    #[test]
    fn every_planner_matches_the_reference(case in case()) {
        thread_local! {
            static PLANNERS: std::cell::RefCell<Vec<Box<dyn bevy_jpst::search::Planner>>> =
                std::cell::RefCell::new(all_planners());
        }
        PLANNERS.with(|p| run(&case, &mut p.borrow_mut()));
    }
}
