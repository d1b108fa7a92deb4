//! Planning in the background: batches of queries on the async compute pool,
//! results back over a channel, committed at a fixed tick.
//!
//! A batch is dispatched at nav tick `T` against a snapshot of the grid (a
//! cheap copy-on-write clone) and plans its units one after another, each
//! avoiding the ones before it. Its plans start at `T + latency` and are
//! applied exactly at that tick, waiting for the task if it is late, so the
//! same inputs give the same trajectories whatever the thread count.

use bevy::platform::cell::SyncCell;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on};
use crossbeam_channel::{Receiver, unbounded};

use crate::grid::{Cell, NavGrid, Regions, StaticGrid, Tick};
use crate::search::Query as PathQuery;
use crate::search::{GoalPolicy, Heuristic, PlanError, Planner, PlannerKind, Waypoint};

use super::components::{AgentState, MoveOrder, NavAgent, Retry, TemporalPath};
use super::diagnostics::NavStats;
use super::messages::{PathFailed, PathFound};
use super::reservations::{Reservations, Reserved, swap_if_valid};
use super::world::{NavSettings, NavWorld};

/// One unit to plan.
struct Request {
    entity: Entity,
    generation: u32,
    start: Cell,
    goal: Cell,
    old: Reserved,
}

/// A unit's cells (one per tick) and jump points, or why it has none; `None`
/// if its batch ran out of expansions before it.
type Outcome = Option<Result<(Vec<Cell>, Vec<Waypoint>), PlanError>>;

/// One unit's answer.
struct Answer {
    entity: Entity,
    generation: u32,
    goal: Cell,
    /// `None`: deferred, it goes first next time.
    result: Outcome,
}

impl Answer {
    fn new(req: &Request, result: Outcome) -> Self {
        Self {
            entity: req.entity,
            generation: req.generation,
            goal: req.goal,
            result,
        }
    }
}

struct Batch {
    start_tick: Tick,
    /// [`NavGrid::stamp`] of the world's grid when the batch was dispatched.
    snapshot_stamp: u64,
    /// Plans the batch and hands back the snapshot with every plan in it,
    /// and the planner.
    task: Task<(NavGrid, Kept)>,
    answers: Receiver<Answer>,
}

/// A planner kept from batch to batch, with what it was built for: its
/// buffers stay allocated and it remembers which of its stages have been
/// paying (JPST's odds) instead of learning again every batch.
struct Kept {
    kind: PlannerKind,
    heuristic: Heuristic,
    /// Used only through `&mut` (by one batch at a time), which makes the
    /// resource holding it shareable between systems.
    planner: SyncCell<Box<dyn Planner>>,
}

impl Kept {
    /// `kept` if it was built for `settings`, else a new planner.
    fn or_build(kept: Option<Kept>, settings: &NavSettings) -> Kept {
        match kept {
            Some(k) if k.kind == settings.planner && k.heuristic == settings.heuristic => k,
            _ => Kept {
                kind: settings.planner,
                heuristic: settings.heuristic,
                planner: SyncCell::new(settings.planner.build(settings.heuristic)),
            },
        }
    }
}

/// The batch being planned, if any.
#[derive(Resource, Default)]
pub(crate) struct InFlight {
    batch: Option<Batch>,
    /// The planner, between batches.
    planner: Option<Kept>,
    /// A grid replaced by a batch's, to be dropped by the next batch's task
    /// rather than on the main thread.
    retired: Option<NavGrid>,
}

impl InFlight {
    /// Number of queries waiting for the current batch (0 or its size).
    pub(crate) fn is_busy(&self) -> bool {
        self.batch.is_some()
    }

    /// Drops the grid the last batch replaced now, on this thread.
    pub(crate) fn drop_retired(&mut self) {
        self.retired = None;
    }
}

/// Marks units whose order changed as wanting a plan.
pub(crate) fn take_orders(
    world: Res<NavWorld>,
    mut agents: Query<(&mut NavAgent, &mut AgentState), Changed<MoveOrder>>,
) {
    for (mut agent, mut state) in &mut agents {
        agent.ordered_at = world.tick;
        agent.order_generation = agent.order_generation.wrapping_add(1);
        agent.wants_plan = true;
        agent.retry = None;
        agent.failures_in_row = 0;
        agent.resume = None;
        *state = AgentState::Planning;
    }
}

/// Units without a path try again once their back-off has passed (and, if
/// walls cut the goal off, once the walls changed).
pub(crate) fn retry_failed(world: Res<NavWorld>, mut agents: Query<&mut NavAgent>) {
    let revision = world.grid.walls().revision();
    for mut agent in &mut agents {
        if let Some(retry) = agent.retry
            && world.tick >= retry.at
            && retry.after_walls_change != Some(revision)
        {
            agent.retry = None;
            agent.wants_plan = true;
        }
    }
}

/// The walls' connected regions, recomputed when the walls changed and a
/// failure needs explaining.
#[derive(Resource, Default)]
pub(crate) struct RegionCache(Option<Regions>);

impl RegionCache {
    /// True if no walk connects `from` and `to` on `walls`.
    fn walled_off(&mut self, walls: &StaticGrid, from: Cell, to: Cell) -> bool {
        if self
            .0
            .as_ref()
            .is_none_or(|r| r.revision() != walls.revision())
        {
            self.0 = Some(Regions::of(walls));
        }
        !self.0.as_ref().is_some_and(|r| r.connected(from, to))
    }
}

/// Starts a batch for the units that want a plan, longest waiting first
/// (then in entity order), up to the per-tick budget.
pub(crate) fn dispatch(
    world: Res<NavWorld>,
    settings: Res<NavSettings>,
    reservations: Res<Reservations>,
    mut in_flight: ResMut<InFlight>,
    mut agents: Query<(Entity, &mut NavAgent, &MoveOrder, &mut AgentState)>,
) {
    if in_flight.is_busy() {
        return;
    }
    let now = world.tick;
    let start_tick = now + settings.latency_ticks.max(1);
    let mut wanting: Vec<(Tick, Entity)> = agents
        .iter_mut()
        .filter(|(_, a, _, _)| a.wants_plan && !a.in_flight)
        .map(|(e, mut a, ..)| (*a.queued_at.get_or_insert(now), e))
        .collect();
    if wanting.is_empty() {
        return;
    }
    wanting.sort_unstable();
    wanting.truncate(settings.budget_per_tick.max(1));
    let mut requests = Vec::with_capacity(wanting.len());
    for (_, entity) in wanting {
        let Ok((_, mut agent, order, mut state)) = agents.get_mut(entity) else {
            continue;
        };
        let Some(old) = reservations.units.get(&entity) else {
            continue;
        };
        agent.wants_plan = false;
        agent.in_flight = true;
        if *state != AgentState::Moving {
            *state = AgentState::Planning;
        }
        requests.push(Request {
            entity,
            generation: agent.order_generation,
            start: old.cell_at(start_tick),
            goal: order.goal,
            old: old.clone(),
        });
    }
    let snapshot = world.grid.clone();
    let snapshot_stamp = snapshot.stamp();
    let settings = *settings;
    let (sender, answers) = unbounded();
    let retired = in_flight.retired.take();
    let mut kept = Kept::or_build(in_flight.planner.take(), &settings);
    let task = AsyncComputeTaskPool::get().spawn(async move {
        drop(retired);
        let grid = plan_batch(
            snapshot,
            requests,
            start_tick,
            &settings,
            kept.planner.get().as_mut(),
            |a| {
                let _ = sender.send(a);
            },
        );
        (grid, kept)
    });
    in_flight.batch = Some(Batch {
        start_tick,
        snapshot_stamp,
        task,
        answers,
    });
}

/// Plans `requests` in order on `grid`, each seeing the plans before it,
/// sends the answers in that order and returns `grid` with every plan in
/// it. Units that found no path try once more after the rest of the batch,
/// which may have moved out of their way (a unit packed in a crowd that is
/// sent off with it). Once the batch's queries have expanded
/// `expansions_per_batch` nodes, the units not yet planned are answered
/// "deferred" (and a retry keeps its first failure).
fn plan_batch(
    mut grid: NavGrid,
    requests: Vec<Request>,
    start_tick: Tick,
    settings: &NavSettings,
    planner: &mut dyn Planner,
    mut send: impl FnMut(Answer),
) -> NavGrid {
    let mut expanded = 0u64;
    let mut plan = |req: &Request, grid: &mut NavGrid, expanded: &mut u64| {
        req.old.remove(grid);
        let mut query = PathQuery::new(req.start, req.goal)
            .starting_at(start_tick)
            .with_policy(GoalPolicy::Stay);
        query.budget = settings.query_budget;
        query.horizon = settings.horizon;
        let result = planner
            .plan(grid, &query)
            .map(|plan| (plan.cells(), plan.waypoints));
        *expanded += planner.last_stats().expanded;
        match &result {
            Ok((cells, _)) => Reserved::Path {
                start: start_tick,
                cells: cells.clone(),
            }
            .apply(grid),
            Err(_) => req.old.apply(grid),
        }
        Answer::new(req, Some(result))
    };
    let spent = |expanded: u64| {
        settings
            .expansions_per_batch
            .is_some_and(|limit| expanded >= limit)
    };
    // After the first failure, cells parked for good by units outside the
    // batch count as walls: a goal they cut off fails without a search (the
    // expensive kind of failure, which explores all it can reach). Labelled
    // only then, so batches that all succeed never pay for it.
    let leaving: HashSet<Cell> = requests.iter().map(|r| r.old.parked_cell()).collect();
    let mut open: Option<Regions> = None;
    let mut failed = Vec::new();
    for req in requests {
        if spent(expanded) {
            send(Answer::new(&req, None));
            continue;
        }
        let sealed = open.as_ref().is_some_and(|open| {
            let walls = grid.walls();
            walls.contains(req.goal)
                && walls.is_passable(req.goal)
                && open.region(req.start).is_some()
                && !open.connected(req.start, req.goal)
        });
        if sealed {
            send(Answer::new(&req, Some(Err(PlanError::Unreachable))));
            continue;
        }
        let answer = plan(&req, &mut grid, &mut expanded);
        if matches!(answer.result, Some(Err(PlanError::Unreachable))) {
            if open.is_none() {
                open = Some(Regions::open_after(&grid, start_tick, |c| {
                    leaving.contains(&c)
                }));
            }
            failed.push((req, answer));
        } else {
            send(answer);
        }
    }
    for (req, first) in failed {
        if spent(expanded) {
            send(first);
        } else {
            send(plan(&req, &mut grid, &mut expanded));
        }
    }
    grid
}

/// True if `answer`'s unit still exists, still wants this order's plan, and
/// (for a plan) still stands where the plan starts.
fn still_wanted(
    answer: &Answer,
    agents: &Query<(&mut NavAgent, &mut AgentState)>,
    reservations: &Reservations,
) -> bool {
    let Ok((agent, _)) = agents.get(answer.entity) else {
        return false;
    };
    let stands = match &answer.result {
        Some(Ok((cells, _))) => cells[0] == agent.cell,
        _ => true,
    };
    agent.order_generation == answer.generation
        && reservations.units.contains_key(&answer.entity)
        && stands
}

/// Applies the batch due at this tick: re-validates each plan against the
/// world as it is now and commits it, or puts the unit back in the queue.
#[allow(clippy::too_many_arguments)] // one system touching everything it commits
pub(crate) fn receive(
    mut commands: Commands,
    mut world: ResMut<NavWorld>,
    settings: Res<NavSettings>,
    mut reservations: ResMut<Reservations>,
    mut in_flight: ResMut<InFlight>,
    mut agents: Query<(&mut NavAgent, &mut AgentState)>,
    mut found: MessageWriter<PathFound>,
    mut failed: MessageWriter<PathFailed>,
    mut stats: ResMut<NavStats>,
    mut regions: ResMut<RegionCache>,
) {
    let due = in_flight
        .batch
        .as_ref()
        .is_some_and(|b| b.start_tick <= world.tick);
    if !due {
        return;
    }
    let batch = in_flight.batch.take().expect("checked above");
    // Determinism: the batch is applied at its tick however late the task is.
    let waited = std::time::Instant::now();
    let (planned, kept) = block_on(batch.task);
    in_flight.planner = Some(kept);
    stats.wait_micros += waited.elapsed().as_secs_f64() * 1e6;
    let now = world.tick;
    let answers: Vec<Answer> = batch.answers.try_iter().collect();
    // If nothing edited the world's grid since the snapshot and every answer
    // is still wanted by its unit where it stands, the planner's grid holds
    // exactly the world plus these plans: it replaces the world's grid, and
    // the plans need no check and no second write. Otherwise each plan is
    // checked against the world as it is now.
    let adopted = batch.start_tick == now
        && world.grid.stamp() == batch.snapshot_stamp
        && answers
            .iter()
            .all(|a| still_wanted(a, &agents, &reservations));
    if adopted {
        // Freeing the old grid's copied timelines takes a while: the next
        // batch does it in the background.
        in_flight.retired = Some(std::mem::replace(&mut world.grid, planned));
    }
    let revision = world.grid.walls().revision();
    for answer in answers {
        let Ok((mut agent, mut state)) = agents.get_mut(answer.entity) else {
            continue; // despawned while planning
        };
        agent.in_flight = false;
        if agent.order_generation != answer.generation {
            continue; // re-ordered while planning: the newer order is queued
        }
        if !reservations.units.contains_key(&answer.entity) {
            continue;
        }
        let Some(result) = answer.result else {
            // Deferred: first in line for the next batch.
            agent.wants_plan = true;
            continue;
        };
        agent.queued_at = None;
        match result {
            Ok((cells, jump_points)) => {
                let path = Reserved::Path {
                    start: batch.start_tick,
                    cells: cells.clone(),
                };
                // The unit may have stopped elsewhere since (a wall appeared):
                // a plan from another cell is stale.
                let fits = adopted
                    || (batch.start_tick == now
                        && cells[0] == agent.cell
                        && reservations
                            .units
                            .get(&answer.entity)
                            .is_some_and(|old| swap_if_valid(&mut world.grid, old, &path)));
                if !fits {
                    agent.wants_plan = true;
                    continue;
                }
                reservations.units.insert(answer.entity, path);
                let temporal = TemporalPath {
                    start_tick: batch.start_tick,
                    cells,
                    jump_points,
                };
                stats.record_plan(now.saturating_sub(agent.ordered_at));
                agent.failures_in_row = 0;
                agent.resume = None;
                found.write(PathFound {
                    entity: answer.entity,
                    arrival_tick: temporal.arrival_tick(),
                });
                *state = AgentState::Moving;
                commands.entity(answer.entity).insert(temporal);
            }
            Err(reason) => {
                stats.failures += 1;
                agent.resume = None;
                *state = AgentState::NoPath;
                // Blocked by walls: wait for them to change. Blocked by units
                // or scheduled blocks: try again later, backing off.
                let walled = match reason {
                    PlanError::OutOfBounds(_) => true,
                    PlanError::Unreachable => {
                        regions.walled_off(world.grid.walls(), agent.cell, answer.goal)
                    }
                    _ => false,
                };
                agent.failures_in_row = agent.failures_in_row.saturating_add(1);
                let backoff = settings.retry_ticks << (agent.failures_in_row - 1).min(3);
                agent.retry = Some(Retry {
                    at: now + backoff,
                    after_walls_change: walled.then_some(revision),
                });
                failed.write(PathFailed {
                    entity: answer.entity,
                    reason,
                });
            }
        }
    }
}
