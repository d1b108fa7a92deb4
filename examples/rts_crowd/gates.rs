//! Gates: narrow passages that close and open on a timer. Their closures are
//! `ScheduledBlock`s published a few cycles ahead, so the planner routes
//! around a gate or waits for it before the gate actually closes.

use std::collections::HashSet;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_jpst::grid::{Cell, StaticGrid, Tick};
use bevy_jpst::plugin::{JpstSystems, NavWorld, ScheduledBlock};

use crate::map::{GameMap, Tile};

/// Nav ticks from one closure of a gate to the next.
const PERIOD: Tick = 120;
/// Nav ticks a gate stays closed in each period.
const CLOSED: Tick = 48;
/// Closures published ahead of time.
const CYCLES_AHEAD: Tick = 3;
/// At most this many gates.
const MAX_GATES: usize = 8;
/// Widest passage that gets a gate.
const MAX_WIDTH: u32 = 4;

/// One gate: the cells across a passage, closed during
/// `offset + k * PERIOD .. offset + k * PERIOD + CLOSED`.
#[derive(Clone, Debug)]
pub struct Gate {
    /// The cells it closes.
    pub cells: Vec<Cell>,
    offset: Tick,
    /// Closures published so far (closure `k` for `k < published`).
    published: Tick,
}

impl Gate {
    /// True while the gate is closed at nav tick `now`.
    pub fn closed_at(&self, now: Tick) -> bool {
        now >= self.offset && (now - self.offset) % PERIOD < CLOSED
    }
}

/// All gates, and every gate cell (units never park on one).
#[derive(Resource, Default)]
pub struct Gates {
    /// The gates.
    pub gates: Vec<Gate>,
    /// Their cells.
    pub cells: HashSet<Cell>,
}

/// Finds the gates, publishes their closures and paints their tiles.
pub struct GatePlugin;

impl Plugin for GatePlugin {
    fn build(&self, app: &mut App) {
        let walls = &app.world().resource::<GameMap>().walls;
        let gates = find_gates(walls);
        let cells = gates.iter().flat_map(|g| g.cells.clone()).collect();
        app.insert_resource(Gates { gates, cells })
            .add_systems(
                FixedUpdate,
                publish_closures
                    .before(JpstSystems::SyncGrid)
                    .run_if(resource_exists::<NavWorld>),
            )
            .add_systems(Update, paint_gates.run_if(resource_exists::<NavWorld>));
    }
}

/// Spawns the `ScheduledBlock`s of closures that start within
/// `CYCLES_AHEAD` periods and despawns the ones that have ended.
fn publish_closures(
    mut commands: Commands,
    world: Res<NavWorld>,
    mut gates: ResMut<Gates>,
    blocks: Query<(Entity, &ScheduledBlock)>,
) {
    let now = world.tick;
    for (entity, block) in &blocks {
        if block.to.is_some_and(|to| to <= now) {
            commands.entity(entity).despawn();
        }
    }
    for gate in &mut gates.gates {
        loop {
            let from = gate.offset + gate.published * PERIOD;
            if from > now + CYCLES_AHEAD * PERIOD {
                break;
            }
            for &cell in &gate.cells {
                commands.spawn(ScheduledBlock {
                    cell,
                    from,
                    to: Some(from + CLOSED),
                });
            }
            gate.published += 1;
        }
    }
}

/// Shows open and closed gates.
fn paint_gates(
    world: Res<NavWorld>,
    map: Res<GameMap>,
    gates: Res<Gates>,
    storages: Query<&TileStorage>,
    mut tiles: Query<&mut TileTextureIndex>,
) {
    let Ok(storage) = storages.get(map.tilemap) else {
        return;
    };
    for gate in &gates.gates {
        let look = if gate.closed_at(world.tick) {
            Tile::GateClosed
        } else {
            Tile::GateOpen
        };
        for cell in &gate.cells {
            if let Some(tile) = storage.get(&TilePos::new(cell.x, cell.y))
                && let Ok(mut index) = tiles.get_mut(tile)
                && *index != look.index()
            {
                *index = look.index();
            }
        }
    }
}

/// Doorways across corridors: runs of at most `MAX_WIDTH` walkable cells
/// between two walls, with walkable cells on both open sides, chosen far
/// apart from each other.
fn find_gates(walls: &StaticGrid) -> Vec<Gate> {
    let mut candidates: Vec<Vec<Cell>> = Vec::new();
    let (w, h) = (walls.width(), walls.height());
    let open = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < w as i64
            && y < h as i64
            && walls.is_passable(Cell::new(x as u32, y as u32))
    };
    // Horizontal runs (passages running north-south), then vertical ones.
    for horizontal in [true, false] {
        let (outer, inner) = if horizontal { (h, w) } else { (w, h) };
        let at = |o: i64, i: i64| if horizontal { (i, o) } else { (o, i) };
        for o in 1..outer as i64 - 1 {
            let mut i = 0i64;
            while i < inner as i64 {
                let (x, y) = at(o, i);
                if !open(x, y) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < inner as i64 && open(at(o, i).0, at(o, i).1) {
                    i += 1;
                }
                let len = (i - start) as u32;
                let sides_open = (start..i).all(|k| {
                    let (a, b) = (at(o - 1, k), at(o + 1, k));
                    open(a.0, a.1) && open(b.0, b.1)
                });
                let walled = start > 0 && i < inner as i64;
                if len <= MAX_WIDTH && sides_open && walled {
                    candidates.push(
                        (start..i)
                            .map(|k| {
                                let (x, y) = at(o, k);
                                Cell::new(x as u32, y as u32)
                            })
                            .collect(),
                    );
                }
            }
        }
    }
    // Farthest-point choice, starting from the candidate nearest the centre.
    let centre = Cell::new(w / 2, h / 2);
    let mut chosen: Vec<Vec<Cell>> = Vec::new();
    if let Some(first) = candidates.iter().min_by_key(|c| c[0].manhattan(centre)) {
        chosen.push(first.clone());
    }
    while chosen.len() < MAX_GATES {
        let distance = |c: &Vec<Cell>| {
            chosen
                .iter()
                .map(|g| g[0].manhattan(c[0]))
                .min()
                .unwrap_or(0)
        };
        let Some(best) = candidates.iter().max_by_key(|c| distance(c)) else {
            break;
        };
        if distance(best) < 24 {
            break;
        }
        chosen.push(best.clone());
    }
    let n = chosen.len().max(1) as Tick;
    chosen
        .into_iter()
        .enumerate()
        .map(|(i, cells)| Gate {
            cells,
            offset: 24 + i as Tick * PERIOD / n,
            published: 0,
        })
        .collect()
}
