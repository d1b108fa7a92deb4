//! Moving units one cell per nav tick, and smoothing their transforms.

use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;

use crate::grid::{Cell, NavGrid, Tick};

use super::components::{AgentState, GridPos, NavAgent, Resume, TemporalPath};
use super::messages::Arrived;
use super::reservations::{Reservations, Reserved, swap_if_valid};
use super::world::{NavLayout, NavWorld};

/// Advances the nav clock and every unit to its cell for the new tick. A
/// unit whose next cell became a wall after planning (or is taken by a
/// block or hazard added too late for its replan to land) waits where it is,
/// keeps its cell reserved and asks for a new plan, and so does every unit
/// that was about to step into the cell of a unit that waits; units whose
/// later path crosses such a cell are replanned. If the rest of a waiting
/// unit's old path is valid again before its new plan arrives, it goes on
/// with that.
pub(crate) fn drive(
    mut world: ResMut<NavWorld>,
    mut reservations: ResMut<Reservations>,
    mut agents: Query<(
        Entity,
        &mut NavAgent,
        &mut GridPos,
        &mut AgentState,
        Option<&mut TemporalPath>,
    )>,
    mut arrived: MessageWriter<Arrived>,
    mut staying: Local<CellMarks>,
) {
    world.tick += 1;
    let now = world.tick;
    for (entity, mut agent, _, mut state, mut path) in &mut agents {
        if agent.resume.is_none() {
            continue;
        }
        let Some(reserved) = reservations.units.get(&entity) else {
            continue;
        };
        if let Some(resume) = agent.resume.take() {
            match try_resume(&mut world.grid, reserved, &resume, now) {
                Some(resumed) => {
                    // The pending plan is no longer wanted: its answer will
                    // not match the unit's generation and is dropped.
                    agent.order_generation = agent.order_generation.wrapping_add(1);
                    agent.wants_plan = false;
                    agent.queued_at = None;
                    *state = AgentState::Moving;
                    if let Some(path) = path.as_mut() {
                        let delay = now - resume.planned_tick;
                        path.jump_points.retain(|w| w.tick > resume.planned_tick);
                        for w in &mut path.jump_points {
                            w.tick += delay;
                        }
                        path.start_tick = now;
                        path.cells = resume.cells;
                    }
                    reservations.units.insert(entity, resumed);
                }
                None => agent.resume = Some(resume),
            }
        }
    }
    // Each unit's cell and the cell it is due on now, looked up once.
    let steps: Vec<Step> = agents
        .iter()
        .map(|(entity, agent, ..)| Step {
            entity,
            cell: agent.cell,
            next: reservations.units.get(&entity).map(|r| r.cell_at(now)),
        })
        .collect();
    let recheck = now <= reservations.recheck_until;
    let stopping = units_that_stop(&world, &mut staying, &steps, recheck);
    let mut held = Vec::new();
    // Same query, same order: `steps[i]` is the `i`-th unit.
    for ((entity, mut agent, mut pos, mut state, path), step) in agents.iter_mut().zip(&steps) {
        debug_assert_eq!(entity, step.entity);
        let Some(next) = step.next else {
            continue;
        };
        if agent.previous != agent.cell {
            agent.previous = agent.cell;
        }
        if !stopping.is_empty()
            && stopping.contains(&entity)
            && let Some(reserved) = reservations.units.get(&entity)
        {
            held.push(agent.cell);
            let stay = Reserved::Idle {
                cell: agent.cell,
                from: now,
            };
            if let Reserved::Path { start, cells } = reserved {
                // The unit stands on `cells[k]` since tick `now - 1`.
                let k = (now - 1).saturating_sub(*start) as usize;
                agent.resume = (k + 1 < cells.len()).then(|| Resume {
                    cells: cells[k..].to_vec(),
                    planned_tick: start + k as Tick,
                });
            }
            reserved.clone().remove(&mut world.grid);
            stay.apply(&mut world.grid);
            reservations.units.insert(entity, stay);
            agent.wants_plan = true;
            *state = AgentState::Waiting;
            continue;
        }
        agent.cell = next;
        if pos.0 != next {
            pos.0 = next;
        }
        if *state == AgentState::Moving && path.is_some_and(|p| now >= p.arrival_tick()) {
            *state = AgentState::Arrived;
            arrived.write(Arrived { entity, tick: now });
        }
    }
    // Units planned through a cell where someone now waits would walk into
    // it later: they plan again.
    if !held.is_empty() {
        let cut: Vec<Entity> = reservations
            .units
            .iter()
            .filter(|(_, r)| {
                matches!(r, Reserved::Path { .. })
                    && held.iter().any(|c| r.touches(*c, now + 1, Tick::MAX - 1))
            })
            .map(|(e, _)| *e)
            .collect();
        for entity in cut {
            if let Ok((_, mut agent, ..)) = agents.get_mut(entity) {
                agent.wants_plan = true;
            }
        }
    }
}

/// One unit's move this tick, as planned.
struct Step {
    entity: Entity,
    /// Where it stands.
    cell: Cell,
    /// Where its reservation has it now (`None`: it has none).
    next: Option<Cell>,
}

/// Cells marked with the tick they were marked at, so marks need no
/// clearing: a cell is marked now if its entry equals the current tick.
#[derive(Default)]
pub(crate) struct CellMarks(Vec<Tick>);

impl CellMarks {
    /// Makes room for `cells` cells, forgetting every mark.
    fn reset_if_resized(&mut self, cells: usize) {
        if self.0.len() != cells {
            self.0 = vec![Tick::MAX; cells];
        }
    }
}

/// The units that cannot make their move this tick: those whose next cell
/// became a wall or holds a unit that stays there (one that stopped earlier,
/// which later paths did not know of), with `recheck`, also those whose move
/// a block or hazard added lately now takes or crosses, and, in a chain,
/// those about to step into the cell of a unit that stops.
fn units_that_stop(
    world: &NavWorld,
    staying: &mut CellMarks,
    steps: &[Step],
    recheck: bool,
) -> HashSet<Entity> {
    let now = world.tick;
    let walls = world.grid.walls();
    staying.reset_if_resized(walls.width() as usize * walls.height() as usize);
    let mut moves = Vec::new();
    let mut work = Vec::new();
    for &Step { entity, cell, next } in steps {
        let Some(next) = next else {
            continue;
        };
        if next == cell {
            if walls.contains(cell) {
                staying.0[walls.index(cell)] = now;
            }
        } else {
            moves.push((next, (entity, cell)));
            if !walls.is_passable(next) || (recheck && taken_by_another(world, cell, next)) {
                work.push((entity, cell));
            }
        }
    }
    work.extend(
        moves
            .iter()
            .filter(|(next, _)| walls.contains(*next) && staying.0[walls.index(*next)] == now)
            .map(|(_, mover)| *mover),
    );
    let mut stopping = HashSet::default();
    if work.is_empty() {
        return stopping;
    }
    let entering: HashMap<Cell, (Entity, Cell)> = moves.into_iter().collect();
    while let Some((entity, stays_on)) = work.pop() {
        if !stopping.insert(entity) {
            continue;
        }
        if let Some(&(behind, from)) = entering.get(&stays_on) {
            work.push((behind, from));
        }
    }
    stopping
}

/// True if something besides the unit moving `from -> to` into the current
/// tick holds `to` now (the unit's own reservation is one block there) or
/// comes the other way.
fn taken_by_another(world: &NavWorld, from: Cell, to: Cell) -> bool {
    let now = world.tick;
    let index = world.grid.walls().index(to);
    let holders = world
        .grid
        .obstacles()
        .blocked_intervals(index)
        .iter()
        .filter(|iv| iv.contains(now))
        .count();
    holders > 1 || world.grid.is_swap(from, to, now - 1)
}

/// The rest of an interrupted path as the unit's reservation from tick `now`
/// (the unit still stands on its first cell then), if it is valid against
/// everything else in `grid`; otherwise `grid` is left as it was.
fn try_resume(
    grid: &mut NavGrid,
    current: &Reserved,
    resume: &Resume,
    now: Tick,
) -> Option<Reserved> {
    let cells = &resume.cells;
    // Cheap test first: most ticks the wall is still there.
    if !cells.iter().all(|c| grid.walls().is_passable(*c)) {
        return None;
    }
    let path = Reserved::Path {
        start: now,
        cells: cells.clone(),
    };
    swap_if_valid(grid, current, &path).then_some(path)
}

/// Places units between their previous and current cell according to how
/// far the fixed-step clock is into the next nav tick.
pub(crate) fn present(
    layout: Res<NavLayout>,
    time: Res<Time<Fixed>>,
    mut agents: Query<(&NavAgent, &mut Transform)>,
) {
    let s = time.overstep_fraction();
    for (agent, mut transform) in &mut agents {
        let from = layout.cell_to_world(agent.previous);
        let to = layout.cell_to_world(agent.cell);
        let at = from.lerp(to, s);
        transform.translation.x = at.x;
        transform.translation.y = at.y;
    }
}
