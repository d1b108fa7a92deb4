//! Criterion benches of the planners and of the grid look-ups they lean on.
//!
//! ```text
//! cargo bench --bench planners            # everything, a few minutes
//! cargo bench --bench planners -- query/  # only the planner queries
//! ```
//!
//! - `query/<planner>/<map>`: one path query per shipped map (den520d,
//!   Berlin_1_256, maze-128-128-1) answered by JPST and by SIPP, around 50
//!   prioritised-planning agents that vanish at their goals. The query is the
//!   first scenario row after those agents that has a path.
//! - `lookup/...`: the hot reads reachable through the public API:
//!   `TemporalMap::interval_at` and `TemporalMap::is_free` at pseudo-random
//!   (touched cell, tick) probes on a busy map (Berlin_1_256 with 200 parked
//!   agents), and `BitRows::window_right` / `StaticGrid::is_passable` over a
//!   whole map.
//!
//! Workloads are built once, before timing. Sample counts and measurement
//! times are small so the whole run stays short.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use bevy_jpst::grid::{Cell, NavGrid, ObstacleEnd, StaticGrid, Tick};
use bevy_jpst::io::{ScenarioEntry, prioritised_obstacles, read_map, read_scen};
use bevy_jpst::search::{GoalPolicy, Heuristic, PlannerKind, Query, Sipp};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// Maps of the planner benches.
const QUERY_MAPS: [&str; 3] = ["den520d", "Berlin_1_256", "maze-128-128-1"];
/// Prioritised agents planned before the timed query.
const QUERY_OBSTACLES: usize = 50;
/// The busy map of the look-up benches and its parked agents.
const BUSY_MAP: &str = "Berlin_1_256";
const BUSY_AGENTS: usize = 200;
/// Look-ups per iteration of a look-up bench.
const PROBES: usize = 4096;

/// `assets/maps/<map>/<map><suffix>`.
fn asset(map: &str, suffix: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "assets", "maps", map]
        .iter()
        .collect::<PathBuf>()
        .join(format!("{map}{suffix}"))
}

/// The map's walls and its `-random-1` scenario rows.
fn load(map: &str) -> (StaticGrid, Vec<ScenarioEntry>) {
    let walls = read_map(&asset(map, ".map")).expect("shipped map reads");
    let scen = read_scen(&asset(map, "-random-1.scen")).expect("shipped scenario reads");
    (walls, scen)
}

/// The world after `agents` prioritised agents, planned with SIPP.
fn busy_world(walls: StaticGrid, agents: &[ScenarioEntry], end: ObstacleEnd) -> NavGrid {
    let mut sipp = Sipp::new(Heuristic::Manhattan);
    prioritised_obstacles(&NavGrid::new(walls), agents, end, &mut sipp).grid
}

/// The world around [`QUERY_OBSTACLES`] vanishing agents and the first later
/// query that has a path.
fn query_workload(map: &str) -> (NavGrid, Query) {
    let (walls, scen) = load(map);
    let (agents, rest) = scen.split_at(QUERY_OBSTACLES);
    let grid = busy_world(walls, agents, ObstacleEnd::Vanish);
    let mut sipp = PlannerKind::Sipp.build(Heuristic::Manhattan);
    let query = rest
        .iter()
        .map(|row| Query::new(row.start, row.goal).with_policy(GoalPolicy::Arrive))
        .find(|q| sipp.plan(&grid, q).is_ok())
        .expect("some later agent has a path");
    (grid, query)
}

fn planner_queries(c: &mut Criterion) {
    let mut group = c.benchmark_group("query");
    for map in QUERY_MAPS {
        let (grid, query) = query_workload(map);
        for kind in [PlannerKind::Jpst, PlannerKind::Sipp] {
            let mut planner = kind.build(Heuristic::Manhattan);
            group.bench_function(BenchmarkId::new(kind.name(), map), |b| {
                b.iter(|| {
                    planner
                        .plan(black_box(&grid), black_box(&query))
                        .map(|plan| plan.cost())
                })
            });
        }
    }
    group.finish();
}

/// A small deterministic generator (64-bit LCG, high bits), so the probes
/// are the same on every run without a `rand` dependency.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// [`PROBES`] (dense cell index, tick) pairs on touched cells, ticks up to a
/// little past the map's horizon.
fn temporal_probes(grid: &NavGrid) -> Vec<(usize, Tick)> {
    let map = grid.obstacles();
    let touched: Vec<usize> = (0..grid.walls().cell_count())
        .filter(|&i| map.has_timeline(i))
        .collect();
    let ticks = map.horizon() as usize + 16;
    let mut rng = Lcg(0x5eed);
    (0..PROBES)
        .map(|_| (touched[rng.below(touched.len())], rng.below(ticks) as Tick))
        .collect()
}

fn lookups(c: &mut Criterion) {
    let (walls, scen) = load(BUSY_MAP);
    let agents = &scen[..BUSY_AGENTS.min(scen.len())];
    let grid = busy_world(walls, agents, ObstacleEnd::Park);
    let map = grid.obstacles();
    let probes = temporal_probes(&grid);
    let static_grid = grid.walls();
    let mut rng = Lcg(0xce11);
    let cells: Vec<Cell> = (0..PROBES)
        .map(|_| static_grid.cell_at(rng.below(static_grid.cell_count())))
        .collect();

    let mut group = c.benchmark_group("lookup");
    group.bench_function("temporal_interval_at", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter_map(|&(cell, tick)| map.interval_at(black_box(cell), black_box(tick)))
                .sum::<usize>()
        })
    });
    group.bench_function("temporal_is_free", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter(|&&(cell, tick)| map.is_free(black_box(cell), black_box(tick)))
                .count()
        })
    });
    group.bench_function("static_is_passable", |b| {
        b.iter(|| {
            cells
                .iter()
                .filter(|&&cell| static_grid.is_passable(black_box(cell)))
                .count()
        })
    });
    let rows = static_grid.rows();
    group.bench_function("bitrows_window_right_whole_map", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for y in 0..rows.height() as i64 {
                for x in (0..rows.width()).step_by(8) {
                    acc ^= rows.window_right(black_box(x), black_box(y));
                }
            }
            acc
        })
    });
    group.finish();
}

/// Short runs: every bench warms up for half a second and measures for two.
fn quick() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
}

criterion_group! {
    name = benches;
    config = quick();
    targets = planner_queries, lookups
}
criterion_main!(benches);
