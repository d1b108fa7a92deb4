//! Messages the plugin writes about units.

use bevy::prelude::*;

use crate::grid::Tick;
use crate::search::PlanError;

/// A unit got a new path.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PathFound {
    /// The unit.
    pub entity: Entity,
    /// Nav tick at which it will stand on its goal.
    pub arrival_tick: Tick,
}

/// A unit reached the goal of its order.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Arrived {
    /// The unit.
    pub entity: Entity,
    /// The nav tick it arrived.
    pub tick: Tick,
}

/// No path exists for a unit's order right now (it retries later when the
/// map changes).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PathFailed {
    /// The unit.
    pub entity: Entity,
    /// Why.
    pub reason: PlanError,
}
