//! Selecting units and ordering them around: left-drag a box, right-click a
//! destination. Each unit of the group gets its own goal cell near the
//! click, so the group arrives side by side.

use std::collections::HashSet;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_jpst::grid::{Cell, nearest_free_cells};
use bevy_jpst::plugin::{AgentState, MoveOrder, NavAgent, NavLayout, NavWorld};

use crate::camera::cursor_world;
use crate::gates::Gates;
use crate::units::{Selected, Team};

/// Box selection and orders.
pub struct OrderPlugin;

impl Plugin for OrderPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Drag>().add_systems(
            Update,
            (select_box, select_keys, order_selection, colour_selection)
                .chain()
                .run_if(resource_exists::<NavWorld>),
        );
    }
}

/// Where the current left-button drag started (world space).
#[derive(Resource, Default)]
struct Drag(Option<Vec2>);

type UnitView<'a> = (Entity, &'a Transform, Has<Selected>);

fn select_box(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    layout: Res<NavLayout>,
    mut drag: ResMut<Drag>,
    units: Query<UnitView<'_>, With<NavAgent>>,
    mut gizmos: Gizmos,
) {
    let Some(cursor) = cursor_world(&window, camera.0, camera.1) else {
        return;
    };
    if buttons.just_pressed(MouseButton::Left) {
        drag.0 = Some(cursor);
    }
    let Some(start) = drag.0 else { return };
    let (lo, hi) = (start.min(cursor), start.max(cursor));
    if buttons.pressed(MouseButton::Left) {
        gizmos.rect_2d((lo + hi) / 2.0, hi - lo, Color::WHITE);
        return;
    }
    drag.0 = None;
    let keep = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    // A click (tiny box) picks the unit under the cursor.
    let reach = layout.cell_size.abs().max_element() * 0.6;
    let (lo, hi) = if (hi - lo).max_element() < reach {
        (cursor - reach, cursor + reach)
    } else {
        (lo, hi)
    };
    for (entity, transform, selected) in &units {
        let p = transform.translation.truncate();
        let inside = p.cmpge(lo).all() && p.cmple(hi).all();
        if inside && !selected {
            commands.entity(entity).insert(Selected);
        } else if !inside && selected && !keep {
            commands.entity(entity).remove::<Selected>();
        }
    }
}

fn select_keys(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    units: Query<(Entity, &Team, Has<Selected>)>,
) {
    let pick = if keys.just_pressed(KeyCode::Digit1) {
        Some(Some(0))
    } else if keys.just_pressed(KeyCode::Digit2) {
        Some(Some(1))
    } else if keys.just_pressed(KeyCode::KeyA) && keys.pressed(KeyCode::ControlLeft) {
        Some(None)
    } else {
        None
    };
    let Some(team) = pick else { return };
    for (entity, unit_team, selected) in &units {
        let want = team.is_none_or(|t| unit_team.0 == t);
        if want && !selected {
            commands.entity(entity).insert(Selected);
        } else if !want && selected {
            commands.entity(entity).remove::<Selected>();
        }
    }
}

fn order_selection(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    layout: Res<NavLayout>,
    world: Res<NavWorld>,
    gates: Res<Gates>,
    units: Query<(
        Entity,
        &NavAgent,
        &AgentState,
        Option<&MoveOrder>,
        Has<Selected>,
    )>,
) {
    if !buttons.just_pressed(MouseButton::Right) {
        return;
    }
    let Some(cursor) = cursor_world(&window, camera.0, camera.1) else {
        return;
    };
    let Some(target) = layout.world_to_cell(cursor) else {
        return;
    };
    let group: Vec<(Entity, Cell)> = units
        .iter()
        .filter(|u| u.4)
        .map(|(e, a, ..)| (e, a.cell))
        .collect();
    let all = units
        .iter()
        .map(|(e, agent, state, order, _)| (e, agent.cell, *state, order.map(|o| o.goal)));
    // Goals never go where a unit stands, even one of the group: two units
    // ordered onto each other's cells would wait for each other for ever.
    let mut blocked = blocked_cells(&gates, all, &HashSet::new());
    for (entity, goal) in assign_goals(&world, &mut blocked, &group, target) {
        commands.entity(entity).insert(MoveOrder { goal });
    }
}

/// Cells no new goal may use: gates, cells where units that stay put stand
/// (their reservation holds the cell until they leave) and the goals of
/// units on their way. Units in `leaving`, about to get new orders, count
/// for neither.
pub fn blocked_cells(
    gates: &Gates,
    units: impl Iterator<Item = (Entity, Cell, AgentState, Option<Cell>)>,
    leaving: &HashSet<Entity>,
) -> HashSet<Cell> {
    let mut blocked: HashSet<Cell> = gates.cells.clone();
    for (entity, cell, state, goal) in units {
        if leaving.contains(&entity) {
            continue;
        }
        if matches!(
            state,
            AgentState::Idle | AgentState::Arrived | AgentState::NoPath | AgentState::Waiting
        ) {
            blocked.insert(cell);
        }
        if let Some(goal) = goal
            && state != AgentState::NoPath
        {
            blocked.insert(goal);
        }
    }
    blocked
}

/// Gives each unit of `group` its own goal cell near `target`: the cells
/// nearest to it on foot that are not `blocked` (the chosen goals are added
/// to it). The unit nearest the target gets the innermost goal, so the
/// first to arrive do not block the rest.
pub fn assign_goals(
    world: &NavWorld,
    blocked: &mut HashSet<Cell>,
    group: &[(Entity, Cell)],
    target: Cell,
) -> Vec<(Entity, Cell)> {
    let goals = nearest_free_cells(world.grid.walls(), target, group.len(), |c| {
        !blocked.contains(&c)
    });
    blocked.extend(goals.iter().copied());
    let mut by_distance = group.to_vec();
    by_distance.sort_by_key(|(e, c)| (c.manhattan(target), *e));
    by_distance
        .into_iter()
        .zip(goals)
        .map(|((entity, _), goal)| (entity, goal))
        .collect()
}

/// Selected units are drawn in a lighter shade of their team's colour.
fn colour_selection(
    added: Query<Entity, Added<Selected>>,
    mut removed: RemovedComponents<Selected>,
    mut units: Query<(&Team, &mut Sprite, Has<Selected>)>,
) {
    for entity in added.iter().chain(removed.read()) {
        if let Ok((team, mut sprite, selected)) = units.get_mut(entity) {
            sprite.color = team.colour(selected);
        }
    }
}
