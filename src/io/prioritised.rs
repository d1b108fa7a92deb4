//! Prioritised-planning workloads built from a MovingAI scenario: agents are
//! planned one after another, each avoiding the paths of those before it, and
//! their paths become the moving obstacles of an instance. This is how JPST
//! and SIPP are benchmarked in the literature (the dynamic obstacles are the
//! other agents' planned paths).

use super::instance::{Instance, Obstacle};
use super::scen::ScenarioEntry;
use crate::grid::{NavGrid, ObstacleEnd, StaticGrid};
use crate::search::{GoalPolicy, Planner, Query};

/// The world after prioritised planning of some agents.
#[derive(Clone, Debug)]
pub struct PrioritisedWorkload {
    /// The input world plus one obstacle per planned agent.
    pub grid: NavGrid,
    /// The planned agents' paths, in scenario order, each from tick 0.
    pub obstacles: Vec<Obstacle>,
    /// Agents left out because the planner found no path for them (or their
    /// cells lie off the map).
    pub skipped: usize,
}

/// Plans `agents` in order, each from its start at tick 0 to its goal on
/// `grid` plus the paths planned so far, and adds each path (one cell per
/// tick from tick 0) as an obstacle that ends with `end`.
///
/// With [`ObstacleEnd::Park`] an agent stays on its goal for ever, so it is
/// planned with [`GoalPolicy::Stay`] (its goal must stay free of the earlier
/// agents for ever); with [`ObstacleEnd::Vanish`] it uses
/// [`GoalPolicy::Arrive`]. Agents without a path are skipped and counted.
pub fn prioritised_obstacles(
    grid: &NavGrid,
    agents: &[ScenarioEntry],
    end: ObstacleEnd,
    planner: &mut dyn Planner,
) -> PrioritisedWorkload {
    let policy = match end {
        ObstacleEnd::Park => GoalPolicy::Stay,
        ObstacleEnd::Vanish => GoalPolicy::Arrive,
    };
    let mut workload = PrioritisedWorkload {
        grid: grid.clone(),
        obstacles: Vec::new(),
        skipped: 0,
    };
    for agent in agents {
        let query = Query::new(agent.start, agent.goal).with_policy(policy);
        let Ok(plan) = planner.plan(&workload.grid, &query) else {
            workload.skipped += 1;
            continue;
        };
        let cells = plan.cells();
        if workload.grid.add_obstacle(0, &cells, end).is_err() {
            workload.skipped += 1;
            continue;
        }
        workload.obstacles.push(Obstacle { t0: 0, end, cells });
    }
    workload
}

/// A prioritised-planning instance on `walls` (written as map `map_file`):
/// the first `obstacle_agents` rows of `scen` are planned in order and
/// become moving obstacles (see [`prioritised_obstacles`]); the next
/// `query_count` rows become queries starting at tick 0 with `policy`.
///
/// Rows whose cells lie off the map become neither. Returns the instance
/// and its world.
#[allow(clippy::too_many_arguments)] // one knob per experiment parameter
pub fn prioritised_instance(
    map_file: &str,
    walls: StaticGrid,
    scen: &[ScenarioEntry],
    obstacle_agents: usize,
    end: ObstacleEnd,
    query_count: usize,
    policy: GoalPolicy,
    planner: &mut dyn Planner,
) -> (Instance, NavGrid) {
    let split = obstacle_agents.min(scen.len());
    let (agents, rest) = scen.split_at(split);
    let workload = prioritised_obstacles(&NavGrid::new(walls), agents, end, planner);
    let on_map = |row: &&ScenarioEntry| {
        let walls = workload.grid.walls();
        walls.contains(row.start) && walls.contains(row.goal)
    };
    let queries = rest
        .iter()
        .take(query_count)
        .filter(on_map)
        .map(|row| Query::new(row.start, row.goal).with_policy(policy))
        .collect();
    let instance = Instance {
        map: map_file.to_string(),
        blocks: Vec::new(),
        obstacles: workload.obstacles,
        queries,
    };
    (instance, workload.grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Tick};
    use crate::search::{Plan, PlanError, SearchStats, Waypoint};

    /// Walks straight along row `y` and waits whenever the next cell is taken;
    /// gives up after 50 ticks. Enough to exercise the workload builder
    /// without depending on the real planners.
    struct RowWalker;

    impl Planner for RowWalker {
        fn name(&self) -> &'static str {
            "row-walker"
        }

        fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError> {
            if !grid.walls().contains(query.start) || !grid.walls().contains(query.goal) {
                return Err(PlanError::OutOfBounds(query.goal));
            }
            if query.start.y != query.goal.y || !grid.is_free(query.start, 0) {
                return Err(PlanError::Unreachable);
            }
            let mut at = query.start;
            let mut tick: Tick = 0;
            let mut waypoints = vec![Waypoint { cell: at, tick }];
            while at != query.goal {
                let next = if query.goal.x > at.x {
                    Cell::new(at.x + 1, at.y)
                } else {
                    Cell::new(at.x - 1, at.y)
                };
                let step = if grid.can_step(at, next, tick) {
                    next
                } else if grid.can_step(at, at, tick) {
                    at
                } else {
                    return Err(PlanError::Unreachable);
                };
                tick += 1;
                at = step;
                waypoints.push(Waypoint { cell: at, tick });
                if tick > 50 {
                    return Err(PlanError::Unreachable);
                }
            }
            if query.policy == GoalPolicy::Stay && grid.free_forever_from(at) > Some(tick) {
                return Err(PlanError::Unreachable);
            }
            Ok(Plan {
                waypoints,
                stats: SearchStats::default(),
            })
        }

        fn last_stats(&self) -> SearchStats {
            SearchStats::default()
        }
    }

    fn row(start: (u32, u32), goal: (u32, u32)) -> ScenarioEntry {
        ScenarioEntry {
            bucket: 0,
            map: "m.map".into(),
            map_width: 8,
            map_height: 3,
            start: Cell::new(start.0, start.1),
            goal: Cell::new(goal.0, goal.1),
            optimal_length: 0.0,
        }
    }

    #[test]
    fn later_agents_avoid_earlier_paths() {
        let grid = NavGrid::new(StaticGrid::open(8, 3).unwrap());
        let agents = [
            row((0, 1), (5, 1)),
            row((1, 1), (6, 1)),
            row((0, 0), (9, 0)),
        ];
        let w = prioritised_obstacles(&grid, &agents, ObstacleEnd::Vanish, &mut RowWalker);
        assert_eq!(w.obstacles.len(), 2);
        assert_eq!(w.skipped, 1);
        assert_eq!(w.obstacles[0].cells.len(), 6);
        assert!(
            w.obstacles
                .iter()
                .all(|o| o.t0 == 0 && o.end == ObstacleEnd::Vanish)
        );
        assert!(!w.grid.is_free(Cell::new(5, 1), 5));
        assert!(w.grid.is_free(Cell::new(5, 1), 6));
        assert!(
            grid.is_free(Cell::new(5, 1), 5),
            "the input world is unchanged"
        );
    }

    #[test]
    fn parked_agents_block_their_goal_for_ever() {
        let grid = NavGrid::new(StaticGrid::open(8, 3).unwrap());
        // The second agent would have to cross the first one's parking spot.
        let agents = [row((2, 1), (3, 1)), row((0, 1), (6, 1))];
        let w = prioritised_obstacles(&grid, &agents, ObstacleEnd::Park, &mut RowWalker);
        assert_eq!((w.obstacles.len(), w.skipped), (1, 1));
        assert!(!w.grid.is_free(Cell::new(3, 1), 1_000_000));
    }

    #[test]
    fn instance_takes_obstacles_then_queries() {
        let walls = StaticGrid::open(8, 3).unwrap();
        let scen = [
            row((0, 0), (7, 0)),
            row((0, 2), (7, 2)),
            row((7, 1), (0, 1)),
            row((1, 1), (2, 1)),
            row((3, 1), (4, 1)),
        ];
        let (instance, grid) = prioritised_instance(
            "m.map",
            walls,
            &scen,
            2,
            ObstacleEnd::Vanish,
            2,
            GoalPolicy::Stay,
            &mut RowWalker,
        );
        assert_eq!(instance.map, "m.map");
        assert_eq!(instance.obstacles.len(), 2);
        assert_eq!(instance.queries.len(), 2);
        assert_eq!(instance.queries[0].start, Cell::new(7, 1));
        assert!(
            instance
                .queries
                .iter()
                .all(|q| q.policy == GoalPolicy::Stay)
        );
        assert!(instance.queries.iter().all(|q| q.start_tick == 0));
        // The instance describes the same world as the one returned.
        let rebuilt = instance
            .build_grid(StaticGrid::open(8, 3).unwrap())
            .unwrap();
        for t in 0..10 {
            assert_eq!(
                rebuilt.is_free(Cell::new(3, 0), t),
                grid.is_free(Cell::new(3, 0), t)
            );
        }
        assert!(!grid.is_free(Cell::new(3, 0), 3));
    }
}
