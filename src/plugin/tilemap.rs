//! Mirroring a `bevy_ecs_tilemap` map into the navigation grid.
//!
//! Mark the tilemap entity with [`NavTilemap`] and wall tiles with
//! [`NavBlocker`]. The grid is created from the map's
//! `TilemapSize` (cell `(x, y)` is `TilePos { x, y }`), the cell layout from
//! its transform, grid size and anchor, and blocker tiles are mirrored
//! incrementally. Only components are read: the rendering `TilemapPlugin` is
//! not required.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use crate::grid::{Cell, StaticGrid};

use super::components::{GridPos, NavBlocker};
use super::reservations::Reservations;
use super::sync::BlockerIndex;
use super::world::{NavLayout, NavSettings, NavWorld};

/// Marks the tilemap whose tiles units walk on.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct NavTilemap;

type MapParts<'a> = (
    &'a TilemapSize,
    Option<&'a GlobalTransform>,
    Option<&'a Transform>,
    Option<&'a TilemapGridSize>,
    Option<&'a TilemapTileSize>,
    Option<&'a TilemapType>,
    Option<&'a TilemapAnchor>,
);

/// The mirrored map, when it appeared, was resized or moved.
type ChangedMap = (
    With<NavTilemap>,
    Or<(Added<NavTilemap>, Changed<TilemapSize>, Changed<Transform>)>,
);

/// Blocker tiles that appeared or moved.
type MovedBlockerTile = (With<NavBlocker>, Or<(Added<NavBlocker>, Changed<TilePos>)>);

/// Creates (or re-creates, when the map's size changes) the [`NavWorld`]
/// and updates the [`NavLayout`] from the tilemap.
pub(crate) fn mirror_tilemap(
    mut commands: Commands,
    world: Option<Res<NavWorld>>,
    mut index: ResMut<BlockerIndex>,
    mut reservations: ResMut<Reservations>,
    maps: Query<MapParts<'_>, ChangedMap>,
    settings: Res<NavSettings>,
) {
    let Some((size, global, transform, grid, tile, kind, anchor)) = maps.iter().next() else {
        return;
    };
    let resized = world
        .as_ref()
        .is_none_or(|w| w.grid.width() != size.x || w.grid.height() != size.y);
    if resized {
        let fits = settings.map_limits.check(size.x as u64, size.y as u64);
        match fits.and_then(|()| StaticGrid::open(size.x, size.y)) {
            Ok(walls) => {
                // Same clock; walls, units, blocks and hazards are written
                // into the new grid during this tick's sync (cells off the
                // new map are dropped, and units there cannot plan).
                let mut fresh = NavWorld::new(walls);
                fresh.tick = world.as_ref().map_or(0, |w| w.tick);
                index.clear();
                reservations.reapply = world.is_some();
                commands.insert_resource(fresh);
            }
            Err(e) => {
                error!("bevy_jpst: cannot mirror tilemap: {e}");
                return;
            }
        }
    }
    let grid = grid.copied().unwrap_or(TilemapGridSize::new(1.0, 1.0));
    let tile = tile
        .copied()
        .unwrap_or(TilemapTileSize::new(grid.x, grid.y));
    let kind = kind.copied().unwrap_or_default();
    let anchor = anchor.copied().unwrap_or_default();
    let centre =
        |x: u32, y: u32| TilePos { x, y }.center_in_world(size, &grid, &tile, &kind, &anchor);
    let offset = global
        .map(|g| g.translation().truncate())
        .or(transform.map(|t| t.translation.truncate()))
        .unwrap_or(Vec2::ZERO);
    let origin = centre(0, 0);
    commands.insert_resource(NavLayout {
        origin: origin + offset,
        cell_size: centre(1, 1) - origin,
    });
}

/// Gives blocker tiles a [`GridPos`] equal to their `TilePos`, so the generic
/// blocker sync walls them off.
pub(crate) fn tile_positions(
    mut commands: Commands,
    tiles: Query<(Entity, &TilePos), MovedBlockerTile>,
) {
    for (entity, pos) in &tiles {
        commands
            .entity(entity)
            .insert(GridPos(Cell::new(pos.x, pos.y)));
    }
}
