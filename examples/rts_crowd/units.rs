//! The units: two teams, spawned on free cells of their half of the map.

use std::collections::HashSet;

use bevy::prelude::*;
use bevy_jpst::grid::{Cell, StaticGrid, nearest_free_cells};
use bevy_jpst::plugin::{NavAgent, NavWorld};

use crate::gates::Gates;
use crate::map::{GameMap, TILE};

/// Most units the example spawns.
pub const MAX_UNITS: usize = 2000;
/// Units added by one press of `U`.
const MORE_UNITS: usize = 500;

/// A unit's side.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Team(pub usize);

/// Team colours: normal, selected.
const COLOURS: [(Color, Color); 2] = [
    (Color::srgb(0.85, 0.2, 0.2), Color::srgb(1.0, 0.75, 0.75)),
    (Color::srgb(0.2, 0.45, 0.95), Color::srgb(0.75, 0.85, 1.0)),
];

impl Team {
    /// The colour of this team's units.
    pub fn colour(self, selected: bool) -> Color {
        let (normal, light) = COLOURS[self.0 % COLOURS.len()];
        if selected { light } else { normal }
    }
}

/// Marks units in the current selection.
#[derive(Component)]
pub struct Selected;

/// Spawns the starting units and more on `U`.
pub struct UnitPlugin {
    /// Units at start.
    pub count: usize,
}

#[derive(Resource)]
struct StartingUnits(usize);

impl Plugin for UnitPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(StartingUnits(self.count))
            .add_systems(Startup, spawn_start)
            .add_systems(Update, add_more);
    }
}

fn spawn_start(
    mut commands: Commands,
    count: Res<StartingUnits>,
    map: Res<GameMap>,
    gates: Res<Gates>,
) {
    let spot = Spots {
        map: &map,
        walls: &map.walls,
        gates: &gates,
    };
    spot.spawn(&mut commands, &HashSet::new(), count.0, 0);
}

fn add_more(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    world: Option<Res<NavWorld>>,
    map: Res<GameMap>,
    gates: Res<Gates>,
    units: Query<&NavAgent>,
) {
    let Some(world) = world else { return };
    if !keys.just_pressed(KeyCode::KeyU) {
        return;
    }
    let have = units.iter().count();
    let taken: HashSet<Cell> = units.iter().map(|a| a.cell).collect();
    let n = MORE_UNITS.min(MAX_UNITS.saturating_sub(have));
    let spot = Spots {
        map: &map,
        walls: world.grid.walls(),
        gates: &gates,
    };
    spot.spawn(&mut commands, &taken, n, have);
}

/// Where units may start: walkable now, in the map's main region, not on
/// a gate, packed around their team's base.
struct Spots<'a> {
    map: &'a GameMap,
    walls: &'a StaticGrid,
    gates: &'a Gates,
}

impl Spots<'_> {
    /// Spawns `n` units on distinct free cells not in `taken`; unit
    /// `first + i` joins team `(first + i) % 2`. Each team packs around its
    /// base, outermost units first, so the first planned can lead the way.
    fn spawn(&self, commands: &mut Commands, taken: &HashSet<Cell>, n: usize, first: usize) {
        let mut cells: [Vec<Cell>; 2] = [0, 1].map(|team| {
            let wanted = (first + n + 1 - team) / 2 - (first + 1 - team) / 2;
            let base = self.map.base(team);
            let around = nearest_free_cells(self.walls, base, wanted, |c| {
                self.map.is_main_region(c) && !self.gates.cells.contains(&c) && !taken.contains(&c)
            });
            // Popped from the end: outermost first.
            around
        });
        for i in first..first + n {
            let team = Team(i % 2);
            let Some(cell) = cells[team.0].pop() else {
                warn!("no free cell left for unit {i}");
                continue;
            };
            commands.spawn((
                NavAgent::at(cell),
                team,
                Sprite::from_color(team.colour(false), Vec2::splat(TILE * 0.8)),
                Transform::from_xyz(0.0, 0.0, 2.0),
            ));
        }
    }
}
