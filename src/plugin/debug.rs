//! Gizmos that show what the planner sees (feature `debug`).
//!
//! Add [`JpstDebugPlugin`] next to [`JpstPlugin`](super::JpstPlugin) in an
//! app that has Bevy's `GizmoPlugin` (it is in `DefaultPlugins`), and toggle
//! the drawings through the [`JpstDebugDraw`] resource. The lines belong to
//! their own gizmo group, [`JpstGizmos`], so their width and layer can be set
//! in the `GizmoConfigStore`.

use bevy::color::palettes::css;
use bevy::gizmos::config::GizmoConfigGroup;
use bevy::prelude::*;

use crate::grid::{Cell, Tick};

use super::JpstSystems;
use super::components::{NavAgent, TemporalPath};
use super::reservations::Reservations;
use super::world::{NavLayout, NavWorld};

/// Draws paths, reservations, walls and jump points with gizmos.
pub struct JpstDebugPlugin;

impl Plugin for JpstDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<JpstGizmos>()
            .init_resource::<JpstDebugDraw>()
            .add_systems(
                Update,
                (draw_walls, draw_reservations, draw_paths, draw_jump_points)
                    .chain()
                    .after(JpstSystems::Present)
                    .run_if(resource_exists::<NavWorld>.and_then(debug_enabled)),
            );
    }
}

/// The gizmo group of the debug drawings.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct JpstGizmos;

/// Which debug drawings are shown.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct JpstDebugDraw {
    /// Master switch: nothing is drawn when false.
    pub enabled: bool,
    /// Each unit's remaining path, coloured from green (now) to red
    /// (`lookahead` ticks ahead and later).
    pub paths: bool,
    /// Cells reserved by units, scheduled blocks and hazards during the
    /// next `lookahead` ticks, fading with time.
    pub reservations: bool,
    /// Wall cells (one outline each: costly on big maps, off by default).
    pub walls: bool,
    /// The jump points of each unit's last plan that are still ahead (one
    /// small circle each: costly with many units, off by default).
    pub jump_points: bool,
    /// How many nav ticks ahead paths and reservations are shaded over.
    pub lookahead: Tick,
}

impl Default for JpstDebugDraw {
    fn default() -> Self {
        Self {
            enabled: true,
            paths: true,
            reservations: true,
            walls: false,
            jump_points: false,
            lookahead: 64,
        }
    }
}

fn debug_enabled(draw: Res<JpstDebugDraw>) -> bool {
    draw.enabled
}

/// Colour of something `ahead` ticks in the future.
fn time_colour(ahead: Tick, lookahead: Tick) -> Color {
    let s = ahead as f32 / lookahead.max(1) as f32;
    Color::hsl(120.0 * (1.0 - s.min(1.0)), 0.9, 0.5)
}

fn draw_walls(
    draw: Res<JpstDebugDraw>,
    world: Res<NavWorld>,
    layout: Res<NavLayout>,
    mut gizmos: Gizmos<JpstGizmos>,
) {
    if !draw.walls {
        return;
    }
    let walls = world.grid.walls();
    let size = layout.cell_size.abs() * 0.9;
    for y in 0..walls.height() {
        for x in 0..walls.width() {
            let cell = Cell::new(x, y);
            if !walls.is_passable(cell) {
                gizmos.rect_2d(layout.cell_to_world(cell), size, css::GRAY);
            }
        }
    }
}

fn draw_reservations(
    draw: Res<JpstDebugDraw>,
    world: Res<NavWorld>,
    layout: Res<NavLayout>,
    reservations: Res<Reservations>,
    mut gizmos: Gizmos<JpstGizmos>,
) {
    if !draw.reservations {
        return;
    }
    let now = world.tick;
    let end = now.saturating_add(draw.lookahead);
    let size = layout.cell_size.abs() * 0.6;
    let mut mark = |cell: Cell, tick: Tick, colour: Srgba| {
        let fade = 1.0 - (tick - now) as f32 / (draw.lookahead.max(1) + 1) as f32;
        gizmos.rect_2d(
            layout.cell_to_world(cell),
            size * (0.5 + 0.5 * fade),
            colour.with_alpha(0.25 + 0.6 * fade),
        );
    };
    for reserved in reservations.units.values() {
        let mut last = None;
        for tick in now..=end {
            let cell = reserved.cell_at(tick);
            if last != Some(cell) {
                mark(cell, tick, css::DEEP_SKY_BLUE);
                last = Some(cell);
            }
        }
    }
    for block in reservations.blocks.values() {
        let from = block.from.max(now);
        if from <= end && block.to.is_none_or(|to| to > from) {
            mark(block.cell, from, css::ORANGE);
        }
    }
    for hazard in reservations.hazards.values() {
        for (k, cell) in hazard.cells.iter().enumerate() {
            let tick = hazard.t0.saturating_add(k as Tick);
            if (now..=end).contains(&tick) {
                mark(*cell, tick, css::ORANGE_RED);
            }
        }
    }
}

fn draw_paths(
    draw: Res<JpstDebugDraw>,
    world: Res<NavWorld>,
    layout: Res<NavLayout>,
    units: Query<(&NavAgent, &TemporalPath)>,
    mut gizmos: Gizmos<JpstGizmos>,
) {
    if !draw.paths {
        return;
    }
    let now = world.tick;
    for (agent, path) in &units {
        if path.arrival_tick() <= now {
            continue;
        }
        // One point per turn: straight runs are single segments, waits
        // add nothing, so long paths cost few lines.
        let first = (now.saturating_sub(path.start_tick) as usize).min(path.cells.len() - 1);
        let ahead = &path.cells[first..];
        let mut points = vec![(layout.cell_to_world(agent.cell), time_colour(0, 1))];
        let mut heading = None;
        for (k, pair) in ahead.windows(2).enumerate() {
            let step = (
                pair[1].x as i64 - pair[0].x as i64,
                pair[1].y as i64 - pair[0].y as i64,
            );
            if step == (0, 0) {
                continue;
            }
            if heading.is_some_and(|h| h != step) {
                points.push((
                    layout.cell_to_world(pair[0]),
                    time_colour(k as Tick, draw.lookahead),
                ));
            }
            heading = Some(step);
        }
        let end = ahead.len() - 1;
        points.push((
            layout.cell_to_world(ahead[end]),
            time_colour(end as Tick, draw.lookahead),
        ));
        gizmos.linestrip_gradient_2d(points);
    }
}

fn draw_jump_points(
    draw: Res<JpstDebugDraw>,
    world: Res<NavWorld>,
    layout: Res<NavLayout>,
    units: Query<&TemporalPath>,
    mut gizmos: Gizmos<JpstGizmos>,
) {
    if !draw.jump_points {
        return;
    }
    let now = world.tick;
    let radius = layout.cell_size.abs().min_element() * 0.3;
    for path in &units {
        for point in path.jump_points.iter().filter(|p| p.tick >= now) {
            let colour = time_colour(point.tick - now, draw.lookahead);
            gizmos
                .circle_2d(layout.cell_to_world(point.cell), radius, colour)
                .resolution(6);
        }
    }
}
