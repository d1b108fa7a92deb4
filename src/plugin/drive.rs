//! Moving units one cell per nav tick, and smoothing their transforms.

use bevy::prelude::*;

use super::components::{AgentState, GridPos, NavAgent, TemporalPath};
use super::messages::Arrived;
use super::reservations::{Reservations, Reserved};
use super::world::{NavLayout, NavWorld};

/// Advances the nav clock and every unit to its cell for the new tick. A
/// unit whose next cell became a wall after planning waits where it is,
/// keeps its cell reserved and asks for a new plan.
pub(crate) fn drive(
    mut world: ResMut<NavWorld>,
    mut reservations: ResMut<Reservations>,
    mut agents: Query<(
        Entity,
        &mut NavAgent,
        &mut GridPos,
        &mut AgentState,
        Option<&TemporalPath>,
    )>,
    mut arrived: MessageWriter<Arrived>,
) {
    world.tick += 1;
    let now = world.tick;
    for (entity, mut agent, mut pos, mut state, path) in &mut agents {
        let Some(reserved) = reservations.units.get(&entity) else {
            continue;
        };
        let next = reserved.cell_at(now);
        agent.previous = agent.cell;
        if next != agent.cell && !world.grid.walls().is_passable(next) {
            let stay = Reserved::Idle {
                cell: agent.cell,
                from: now,
            };
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
