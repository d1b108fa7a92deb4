//! Painting and erasing walls under the cursor (`B` and `E` held). A wall
//! tile gets `NavBlocker`, and the plugin replans every unit whose path it
//! cuts.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::*;
use bevy_jpst::grid::Cell;
use bevy_jpst::plugin::{NavAgent, NavBlocker, NavLayout, NavWorld};

use crate::camera::cursor_world;
use crate::gates::Gates;
use crate::map::{GameMap, Tile};

/// A request to turn a cell into a wall (`wall: true`) or into floor.
#[derive(Message, Clone, Copy, Debug)]
pub struct PaintWall {
    /// The cell.
    pub cell: Cell,
    /// Wall or floor.
    pub wall: bool,
}

/// Wall painting from the keyboard, and from [`PaintWall`] messages.
pub struct WallPaintPlugin;

impl Plugin for WallPaintPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PaintWall>().add_systems(
            Update,
            (paint_under_cursor, apply_paint)
                .chain()
                .run_if(resource_exists::<NavWorld>),
        );
    }
}

fn paint_under_cursor(
    keys: Res<ButtonInput<KeyCode>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    layout: Res<NavLayout>,
    mut paint: MessageWriter<PaintWall>,
) {
    let wall = match (keys.pressed(KeyCode::KeyB), keys.pressed(KeyCode::KeyE)) {
        (true, false) => true,
        (false, true) => false,
        _ => return,
    };
    let Some(cell) =
        cursor_world(&window, camera.0, camera.1).and_then(|p| layout.world_to_cell(p))
    else {
        return;
    };
    paint.write(PaintWall { cell, wall });
}

/// Applies paint requests, except on gates, on cells where a unit stands,
/// and (for erasing) on the map's border walls.
fn apply_paint(
    mut commands: Commands,
    mut requests: MessageReader<PaintWall>,
    map: Res<GameMap>,
    gates: Res<Gates>,
    storages: Query<&TileStorage>,
    mut tiles: Query<(&mut TileTextureIndex, Has<NavBlocker>)>,
    units: Query<&NavAgent>,
) {
    let Ok(storage) = storages.get(map.tilemap) else {
        return;
    };
    for PaintWall { cell, wall } in requests.read().copied() {
        if gates.cells.contains(&cell) || units.iter().any(|u| u.cell == cell) {
            continue;
        }
        let Some(tile) = storage.get(&TilePos::new(cell.x, cell.y)) else {
            continue;
        };
        let Ok((mut index, blocked)) = tiles.get_mut(tile) else {
            continue;
        };
        if wall && !blocked {
            commands.entity(tile).insert(NavBlocker);
            *index = Tile::Wall.index();
        } else if !wall && blocked {
            commands.entity(tile).remove::<NavBlocker>();
            *index = Tile::Floor.index();
        }
    }
}
