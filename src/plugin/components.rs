//! Components a game puts on its entities, and the ones the plugin writes.

use bevy::prelude::*;

use crate::grid::{Cell, ObstacleEnd, Tick};
use crate::search::Waypoint;

/// A cell of the navigation grid, for entities that live on it (units,
/// blockers in games without `bevy_ecs_tilemap`). `x` is the column, `y` the
/// row; with a mirrored tilemap the grid's `(x, y)` is the tile's `TilePos`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deref, DerefMut)]
pub struct GridPos(pub Cell);

/// Marks a wall: a tile (or any entity with a [`GridPos`]) that units cannot
/// enter, such as a building, a closed door or a tree. Adding, moving or
/// removing it updates the grid on the next nav tick.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct NavBlocker;

/// A unit that moves on the grid under the plugin's control.
///
/// Give it a [`MoveOrder`] to send it somewhere; read its [`AgentState`] and
/// [`TemporalPath`] to see what it does. Its cell is reserved at every tick,
/// so units planned by the plugin never share a cell or swap places.
#[derive(Component, Clone, Debug)]
#[require(AgentState, GridPos)]
pub struct NavAgent {
    /// The cell the unit occupies at the current nav tick.
    pub cell: Cell,
    /// The cell it occupied one nav tick earlier (for interpolation).
    pub previous: Cell,
    pub(crate) order_generation: u32,
    pub(crate) wants_plan: bool,
    pub(crate) in_flight: bool,
    pub(crate) retry: Option<Retry>,
    pub(crate) failures_in_row: u32,
    pub(crate) ordered_at: Tick,
    pub(crate) resume: Option<Resume>,
    /// The tick since which the unit waits in the planning queue (set at
    /// the first dispatch that sees it wanting a plan): the queue is served
    /// oldest first.
    pub(crate) queued_at: Option<Tick>,
}

impl NavAgent {
    /// A unit standing on `cell`.
    pub fn at(cell: Cell) -> Self {
        Self {
            cell,
            previous: cell,
            order_generation: 0,
            wants_plan: false,
            in_flight: false,
            retry: None,
            failures_in_row: 0,
            ordered_at: 0,
            resume: None,
            queued_at: None,
        }
    }
}

/// The rest of a path that a new wall cut, kept while the unit waits for a
/// new plan: if the path is valid again first, the unit goes on with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    /// The path from the cell the unit stopped on.
    pub cells: Vec<Cell>,
    /// The tick at which the plan had the unit on `cells[0]`.
    pub planned_tick: Tick,
}

/// When a unit without a path plans again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Retry {
    /// Not before this nav tick.
    pub at: Tick,
    /// The goal was walled off from the unit: only once the walls differ
    /// from this [`StaticGrid::revision`](crate::grid::StaticGrid::revision).
    pub after_walls_change: Option<u64>,
}

/// Sends a [`NavAgent`] to `goal`. Inserting or changing it asks for a plan;
/// a unit re-ordered while planning uses only its latest order. Units park
/// on their goal, so goals are planned with the `Stay` policy.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOrder {
    /// Where the unit should end up.
    pub goal: Cell,
}

/// What a [`NavAgent`] is doing.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AgentState {
    /// No order yet: standing still, its cell reserved.
    #[default]
    Idle,
    /// Waiting for a path to its order's goal.
    Planning,
    /// Following its [`TemporalPath`].
    Moving,
    /// Standing still because the world changed under its path; a new plan
    /// is on the way.
    Waiting,
    /// On its goal, which stays reserved for it.
    Arrived,
    /// No path to the goal exists right now. If walls cut the goal off,
    /// the unit retries when the walls change; if units or scheduled blocks
    /// are in the way, it retries after a back-off.
    NoPath,
}

/// The committed path of a unit: its cell at every nav tick from
/// `start_tick` on (the last cell is held for ever).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct TemporalPath {
    /// Nav tick of `cells[0]`.
    pub start_tick: Tick,
    /// One cell per tick.
    pub cells: Vec<Cell>,
    /// The planner's jump points on the path (turns, waits, the goal), each
    /// with the tick the unit reaches it: the plan in compact form.
    pub jump_points: Vec<Waypoint>,
}

impl TemporalPath {
    /// The cell at nav tick `tick` (the first cell before the start, the last
    /// after the end).
    pub fn cell_at(&self, tick: Tick) -> Cell {
        let i = tick.saturating_sub(self.start_tick) as usize;
        self.cells[i.min(self.cells.len() - 1)]
    }

    /// The nav tick at which the unit reaches its last cell.
    pub fn arrival_tick(&self) -> Tick {
        self.start_tick + self.cells.len() as Tick - 1
    }
}

/// A cell blocked during nav ticks `from..to` (`to = None`: for ever), known
/// in advance: a door on a timer, a bridge that lifts. Planners route around
/// it or wait for it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledBlock {
    /// The blocked cell.
    pub cell: Cell,
    /// First blocked nav tick.
    pub from: Tick,
    /// First free nav tick again, or `None` for never.
    pub to: Option<Tick>,
}

/// Something that moves along a known trajectory and is not a [`NavAgent`]
/// (a patrol, a boulder, a train): on `cells[k]` at nav tick `t0 + k`.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct MovingHazard {
    /// Nav tick of `cells[0]`.
    pub t0: Tick,
    /// One cell per tick; consecutive cells equal or 4-adjacent.
    pub cells: Vec<Cell>,
    /// What it does after its last cell.
    pub end: ObstacleEnd,
}

impl MovingHazard {
    /// True if the hazard vanished before `now`.
    pub(crate) fn is_gone(&self, now: Tick) -> bool {
        self.end == ObstacleEnd::Vanish && self.t0 as u64 + self.cells.len() as u64 <= now as u64
    }
}
