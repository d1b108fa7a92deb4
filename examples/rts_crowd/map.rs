//! The map: a MovingAI file turned into a `bevy_ecs_tilemap` tilemap whose
//! wall tiles carry `NavBlocker`, so the plugin mirrors them.

use std::path::Path;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use bevy_jpst::grid::{Cell, Regions, StaticGrid};
use bevy_jpst::io::read_map;
use bevy_jpst::plugin::{NavBlocker, NavTilemap};

/// World size of one tile.
pub const TILE: f32 = 16.0;

/// The tile images, in the order of the generated texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    Floor = 0,
    Wall = 1,
    GateOpen = 2,
    GateClosed = 3,
}

impl Tile {
    /// The texture index of this tile.
    pub fn index(self) -> TileTextureIndex {
        TileTextureIndex(self as u32)
    }
}

/// Reads the map, looking beside the crate too when run from elsewhere.
pub fn load(path: &Path) -> Result<StaticGrid, String> {
    let found = if path.exists() || path.is_absolute() {
        path.to_path_buf()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    };
    read_map(&found).map_err(|e| e.to_string())
}

/// The map as loaded, and the tilemap showing it. World <-> cell
/// conversions come from the plugin's `NavLayout`, which matches the
/// tilemap's transform and anchor.
#[derive(Resource)]
pub struct GameMap {
    /// Walls as loaded from the file (before any painting).
    pub walls: StaticGrid,
    /// The tilemap entity.
    pub tilemap: Entity,
    /// Its walkable regions; units start in the largest one.
    pub regions: Regions,
}

impl GameMap {
    /// True if `cell` is in the largest walkable region.
    pub fn is_main_region(&self, cell: Cell) -> bool {
        self.regions.region(cell).is_some() && self.regions.region(cell) == self.regions.largest()
    }

    /// World position of the centre of `cell` (the map is centred on the
    /// origin; the plugin's `NavLayout` says the same once it has mirrored
    /// the tilemap).
    pub fn cell_centre(&self, cell: Cell) -> Vec2 {
        let size = Vec2::new(self.walls.width() as f32, self.walls.height() as f32);
        (Vec2::new(cell.x as f32, cell.y as f32) + 0.5 - size / 2.0) * TILE
    }

    /// Where team `team` (0 or 1) gathers at start: [`spot`](Self::spot)
    /// 0 (left) or 2 (right).
    pub fn base(&self, team: usize) -> Cell {
        self.spot(2 * team)
    }

    /// Four gathering spots around the map, the most open place of the main
    /// region in: 0 the left third, 1 the middle third's lower half, 2 the
    /// right third, 3 the middle third's upper half.
    pub fn spot(&self, k: usize) -> Cell {
        let (w, h) = (self.walls.width() as usize, self.walls.height() as usize);
        // Walkable cells of the main region in each (2R+1)-wide square, by
        // an integral image.
        const R: usize = 10;
        let mut sum = vec![0u32; (w + 1) * (h + 1)];
        for y in 0..h {
            for x in 0..w {
                let open = self.is_main_region(Cell::new(x as u32, y as u32)) as u32;
                sum[(y + 1) * (w + 1) + x + 1] =
                    open + sum[y * (w + 1) + x + 1] + sum[(y + 1) * (w + 1) + x]
                        - sum[y * (w + 1) + x];
            }
        }
        let square = |x: usize, y: usize| {
            let (x0, y0, x1, y1) = (
                x.saturating_sub(R),
                y.saturating_sub(R),
                (x + R + 1).min(w),
                (y + R + 1).min(h),
            );
            sum[y1 * (w + 1) + x1] + sum[y0 * (w + 1) + x0]
                - sum[y0 * (w + 1) + x1]
                - sum[y1 * (w + 1) + x0]
        };
        let (xs, ys) = match k % 4 {
            0 => (0..w / 3, 0..h),
            1 => (w / 3..w - w / 3, 0..h / 2),
            2 => (w - w / 3..w, 0..h),
            _ => (w / 3..w - w / 3, h / 2..h),
        };
        let best = xs
            .flat_map(|x| ys.clone().map(move |y| (x, y)))
            .filter(|&(x, y)| self.is_main_region(Cell::new(x as u32, y as u32)))
            .max_by_key(|&(x, y)| {
                (
                    square(x, y),
                    usize::MAX - x.abs_diff(w / 2) - y.abs_diff(h / 2),
                )
            });
        best.map_or(Cell::new(0, 0), |(x, y)| Cell::new(x as u32, y as u32))
    }
}

/// Spawns the tilemap at startup.
pub struct MapPlugin {
    /// The walls to show.
    pub walls: StaticGrid,
}

impl Plugin for MapPlugin {
    fn build(&self, app: &mut App) {
        let walls = self.walls.clone();
        let regions = Regions::of(&walls);
        let tilemap = app.world_mut().spawn_empty().id();
        app.insert_resource(GameMap {
            walls,
            tilemap,
            regions,
        })
        .add_systems(Startup, spawn_tilemap);
    }
}

fn spawn_tilemap(mut commands: Commands, map: Res<GameMap>, mut images: ResMut<Assets<Image>>) {
    let size = TilemapSize {
        x: map.walls.width(),
        y: map.walls.height(),
    };
    let mut storage = TileStorage::empty(size);
    for y in 0..size.y {
        for x in 0..size.x {
            let position = TilePos { x, y };
            let wall = !map.walls.is_passable(Cell::new(x, y));
            let kind = if wall { Tile::Wall } else { Tile::Floor };
            let mut tile = commands.spawn(TileBundle {
                position,
                tilemap_id: TilemapId(map.tilemap),
                texture_index: kind.index(),
                ..default()
            });
            if wall {
                tile.insert(NavBlocker);
            }
            storage.set(&position, tile.id());
        }
    }
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    commands.entity(map.tilemap).insert((
        TilemapBundle {
            grid_size: tile_size.into(),
            size,
            storage,
            texture: TilemapTexture::Single(images.add(tile_texture())),
            tile_size,
            anchor: TilemapAnchor::Center,
            ..default()
        },
        NavTilemap,
    ));
}

/// Four 16x16 tiles side by side: floor (sand), wall (dark), open gate
/// (green), closed gate (orange).
fn tile_texture() -> Image {
    let side = TILE as u32;
    let colours: [[u8; 3]; 4] = [
        [150, 142, 118],
        [38, 40, 46],
        [120, 170, 90],
        [235, 130, 30],
    ];
    let mut data = Vec::with_capacity((4 * side * side * 4) as usize);
    for y in 0..side {
        for x in 0..4 * side {
            let (tile, (tx, ty)) = ((x / side) as usize, (x % side, y));
            let edge = tx == 0 || ty == 0;
            let shade = if edge { 0.8 } else { 1.0 };
            let [r, g, b] = colours[tile].map(|c| (c as f32 * shade) as u8);
            data.extend_from_slice(&[r, g, b, 255]);
        }
    }
    Image::new(
        Extent3d {
            width: 4 * side,
            height: side,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}
