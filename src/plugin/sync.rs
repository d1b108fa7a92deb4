//! Keeping the grid in step with the ECS: walls from blocker entities,
//! scheduled blocks, moving hazards, units appearing and disappearing, and
//! periodic pruning of the past.

use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;

use crate::grid::{Cell, Tick};

use super::components::{GridPos, MovingHazard, NavAgent, NavBlocker, ScheduledBlock};
use super::dispatch::InFlight;
use super::reservations::{Reservations, Reserved};
use super::world::{NavSettings, NavWorld};

/// Which cell each blocker entity walls off, and how many blockers each
/// walled cell has (a cell is walkable again when its last blocker goes).
#[derive(Resource, Default, Debug)]
pub(crate) struct BlockerIndex {
    by_entity: HashMap<Entity, Cell>,
    count: HashMap<Cell, u32>,
    /// The grid was replaced: read every blocker again, not only changed ones.
    resync: bool,
}

impl BlockerIndex {
    fn add(&mut self, world: &mut NavWorld, entity: Entity, cell: Cell) -> bool {
        self.by_entity.insert(entity, cell);
        let n = self.count.entry(cell).or_insert(0);
        *n += 1;
        *n == 1
            && world
                .grid
                .walls_mut()
                .set_passable(cell, false)
                .unwrap_or(false)
    }

    fn remove(&mut self, world: &mut NavWorld, entity: Entity) {
        let Some(cell) = self.by_entity.remove(&entity) else {
            return;
        };
        if let Some(n) = self.count.get_mut(&cell) {
            *n -= 1;
            if *n == 0 {
                self.count.remove(&cell);
                let _ = world.grid.walls_mut().set_passable(cell, true);
            }
        }
    }

    /// Forgets every blocker because the grid was replaced; the next sync
    /// reads them all again.
    #[cfg(feature = "tilemap")] // only the tilemap mirror replaces the grid
    pub(crate) fn clear(&mut self) {
        self.by_entity.clear();
        self.count.clear();
        self.resync = true;
    }
}

/// Blockers that appeared or moved since the last nav tick.
type MovedBlocker = (With<NavBlocker>, Or<(Added<NavBlocker>, Changed<GridPos>)>);

/// Marks units whose reservation holds `cell` during `from..=to` as wanting a
/// new plan.
fn replan_touching(
    reservations: &Reservations,
    agents: &mut Query<&mut NavAgent>,
    cell: Cell,
    from: Tick,
    to: Tick,
) {
    for (entity, reserved) in &reservations.units {
        if matches!(reserved, Reserved::Path { .. })
            && reserved.touches(cell, from, to)
            && let Ok(mut agent) = agents.get_mut(*entity)
        {
            agent.wants_plan = true;
        }
    }
}

/// Applies added, moved and removed [`NavBlocker`]s to the walls; units whose
/// committed path crosses a new wall are replanned.
pub(crate) fn sync_blockers(
    mut world: ResMut<NavWorld>,
    mut index: ResMut<BlockerIndex>,
    reservations: Res<Reservations>,
    changed: Query<(Entity, &GridPos), MovedBlocker>,
    all: Query<(Entity, &GridPos), With<NavBlocker>>,
    mut removed: RemovedComponents<NavBlocker>,
    mut agents: Query<&mut NavAgent>,
) {
    for entity in removed.read() {
        index.remove(&mut world, entity);
    }
    let now = world.tick;
    let resync = std::mem::take(&mut index.resync);
    let blockers = if resync {
        all.iter().collect::<Vec<_>>()
    } else {
        changed.iter().collect()
    };
    let mut walled = HashSet::new();
    for (entity, pos) in blockers {
        index.remove(&mut world, entity);
        if index.add(&mut world, entity, pos.0) {
            walled.insert(pos.0);
        }
    }
    if walled.is_empty() && !resync {
        return;
    }
    // One pass over the committed paths for all of this tick's new walls
    // (after a resync every wall is new: check paths against the walls).
    let walls = world.grid.walls();
    for (entity, reserved) in &reservations.units {
        let Reserved::Path { start, cells } = reserved else {
            continue;
        };
        let ahead = &cells[(now.saturating_sub(*start) as usize).min(cells.len() - 1)..];
        let cut = ahead
            .iter()
            .any(|c| walled.contains(c) || (resync && !walls.is_passable(*c)));
        if cut && let Ok(mut agent) = agents.get_mut(*entity) {
            agent.wants_plan = true;
        }
    }
}

/// Applies added and removed [`ScheduledBlock`]s and [`MovingHazard`]s;
/// units whose committed path they cross are replanned.
#[allow(clippy::too_many_arguments)] // blocks and hazards, added and removed
pub(crate) fn sync_temporal_obstacles(
    mut world: ResMut<NavWorld>,
    settings: Res<NavSettings>,
    mut reservations: ResMut<Reservations>,
    blocks: Query<(Entity, &ScheduledBlock), Changed<ScheduledBlock>>,
    hazards: Query<(Entity, &MovingHazard), Changed<MovingHazard>>,
    mut removed_blocks: RemovedComponents<ScheduledBlock>,
    mut removed_hazards: RemovedComponents<MovingHazard>,
    mut agents: Query<&mut NavAgent>,
) {
    for entity in removed_blocks.read() {
        if let Some(b) = reservations.blocks.remove(&entity) {
            let _ = world.grid.remove_block(b.cell, b.from, b.to);
        }
    }
    for entity in removed_hazards.read() {
        if let Some(h) = reservations.hazards.remove(&entity) {
            let _ = world.grid.remove_obstacle(h.t0, &h.cells, h.end);
        }
    }
    for (entity, block) in &blocks {
        if let Some(old) = reservations.blocks.insert(entity, *block) {
            let _ = world.grid.remove_block(old.cell, old.from, old.to);
        }
        if world
            .grid
            .add_block(block.cell, block.from, block.to)
            .is_err()
        {
            reservations.blocks.remove(&entity);
            continue;
        }
        let to = block.to.map_or(Tick::MAX, |t| t.saturating_sub(1));
        replan_touching(&reservations, &mut agents, block.cell, block.from, to);
        reservations.recheck_until = world.tick + settings.latency_ticks + 1;
    }
    for (entity, hazard) in &hazards {
        if let Some(old) = reservations.hazards.insert(entity, hazard.clone()) {
            let _ = world.grid.remove_obstacle(old.t0, &old.cells, old.end);
        }
        if world
            .grid
            .add_obstacle(hazard.t0, &hazard.cells, hazard.end)
            .is_err()
        {
            reservations.hazards.remove(&entity);
            continue;
        }
        reservations.recheck_until = world.tick + settings.latency_ticks + 1;
        for (k, cell) in hazard.cells.iter().enumerate() {
            let t = hazard.t0 + k as Tick;
            replan_touching(
                &reservations,
                &mut agents,
                *cell,
                t.saturating_sub(1),
                t + 1,
            );
        }
    }
}

/// New units reserve their cell from now on; despawned units free theirs.
pub(crate) fn sync_agents(
    mut world: ResMut<NavWorld>,
    mut reservations: ResMut<Reservations>,
    mut added: Query<(Entity, &NavAgent, &mut GridPos), Added<NavAgent>>,
    mut removed: RemovedComponents<NavAgent>,
) {
    for entity in removed.read() {
        if let Some(r) = reservations.units.remove(&entity) {
            r.remove(&mut world.grid);
        }
    }
    let now = world.tick;
    for (entity, agent, mut pos) in &mut added {
        pos.0 = agent.cell;
        let idle = Reserved::Idle {
            cell: agent.cell,
            from: now,
        };
        idle.apply(&mut world.grid);
        if let Some(old) = reservations.units.insert(entity, idle) {
            old.remove(&mut world.grid);
        }
    }
}

/// Right after the grid was replaced (a resized tilemap), writes every
/// reservation, block and hazard into it again.
pub(crate) fn reapply(mut world: ResMut<NavWorld>, mut reservations: ResMut<Reservations>) {
    if std::mem::take(&mut reservations.reapply) {
        let now = world.tick;
        reservations.rebuild(&mut world.grid, now);
    }
}

/// Every `compact_every` ticks, drops the past from the reservation table,
/// so memory stays flat however long the game runs. Runs right after a
/// batch is applied, when no background planner shares the grid's
/// timelines any more (the grid the batch replaced is dropped first), so
/// they are trimmed in place instead of copied.
pub(crate) fn forget_past(
    mut world: ResMut<NavWorld>,
    settings: Res<NavSettings>,
    mut reservations: ResMut<Reservations>,
    mut in_flight: ResMut<InFlight>,
) {
    let now = world.tick;
    if settings.compact_every > 0 && now > 0 && now.is_multiple_of(settings.compact_every) {
        in_flight.drop_retired();
        reservations.forget_before(&mut world.grid, now);
    }
}
