//! What a planner answers: the arrival tick, the waypoints, statistics.

use crate::grid::{Cell, Tick};

/// A cell the agent reaches at a tick. Between two consecutive waypoints the
/// agent moves vertically first, then horizontally, and waits (if the gap in
/// ticks exceeds the distance) on the cell before the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waypoint {
    /// The cell.
    pub cell: Cell,
    /// The tick at which the agent arrives there.
    pub tick: Tick,
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes taken from the open list and expanded.
    pub expanded: u64,
    /// Successor nodes generated (pushed or improved).
    pub generated: u64,
    /// Wall-clock time of the search, in microseconds.
    pub micros: u64,
    /// Time spent building the heuristic table for this goal (0 when it
    /// came from the cache or the heuristic needs none), in microseconds.
    pub heuristic_micros: u64,
}

/// A time-optimal path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Jump points from the start (at the start tick) to the goal (at the
    /// arrival tick).
    pub waypoints: Vec<Waypoint>,
    /// Search counters.
    pub stats: SearchStats,
}

impl Plan {
    /// The tick the agent starts at.
    pub fn start_tick(&self) -> Tick {
        self.waypoints[0].tick
    }

    /// The tick the agent reaches the goal.
    pub fn arrival(&self) -> Tick {
        self.waypoints[self.waypoints.len() - 1].tick
    }

    /// Arrival tick minus start tick: the number of actions.
    pub fn cost(&self) -> u32 {
        self.arrival() - self.start_tick()
    }

    /// The agent's cell at every tick from the start tick to the arrival
    /// tick inclusive (`cost + 1` cells).
    pub fn cells(&self) -> Vec<Cell> {
        materialise(&self.waypoints)
    }
}

/// Expands waypoints into one cell per tick: vertical moves, then horizontal
/// moves, then any waits on the cell before the final move.
pub fn materialise(waypoints: &[Waypoint]) -> Vec<Cell> {
    let Some(first) = waypoints.first() else {
        return Vec::new();
    };
    let ticks = waypoints
        .last()
        .map_or(0, |last| last.tick.saturating_sub(first.tick));
    let mut cells = Vec::with_capacity(ticks as usize + 1);
    cells.push(first.cell);
    for pair in waypoints.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let distance = a.cell.manhattan(b.cell);
        let span = b.tick - a.tick;
        debug_assert!(
            span >= distance,
            "waypoints {a:?} -> {b:?} too close in time"
        );
        let mut waits = span.saturating_sub(distance);
        let mut at = a.cell;
        let mut moves_left = distance;
        let mut step_to = |at: &mut Cell, next: Cell, cells: &mut Vec<Cell>| {
            if moves_left == 1 {
                for _ in 0..waits {
                    cells.push(*at);
                }
                waits = 0;
            }
            moves_left -= 1;
            *at = next;
            cells.push(next);
        };
        while at.y != b.cell.y {
            let next = Cell::new(at.x, if b.cell.y > at.y { at.y + 1 } else { at.y - 1 });
            step_to(&mut at, next, &mut cells);
        }
        while at.x != b.cell.x {
            let next = Cell::new(if b.cell.x > at.x { at.x + 1 } else { at.x - 1 }, at.y);
            step_to(&mut at, next, &mut cells);
        }
        for _ in 0..waits {
            cells.push(at);
        }
    }
    cells
}
