//! Why a planner found no path.

use crate::grid::{Cell, Tick};

/// A query that has no answer, or that the planner refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// No valid path exists (also: the goal is a wall, or with the `Stay`
    /// policy the goal is blocked for ever at some point).
    Unreachable,
    /// The start cell is a wall or is occupied at the start tick.
    StartBlocked,
    /// The start or the goal lies off the map.
    OutOfBounds(Cell),
    /// The expansion budget ran out before the search finished.
    BudgetExhausted {
        /// Nodes expanded before giving up.
        expanded: u64,
    },
    /// No path arrives within the query's time horizon (see
    /// [`Query::with_horizon`](super::Query::with_horizon)); a longer one
    /// may exist.
    HorizonExceeded {
        /// The horizon, in ticks after the start tick.
        horizon: Tick,
    },
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::Unreachable => write!(f, "no path reaches the goal"),
            PlanError::StartBlocked => write!(f, "the start cell is blocked at the start tick"),
            PlanError::OutOfBounds(c) => write!(f, "cell ({c}) is off the map"),
            PlanError::BudgetExhausted { expanded } => {
                write!(f, "expansion budget exhausted after {expanded} expansions")
            }
            PlanError::HorizonExceeded { horizon } => {
                write!(f, "no path arrives within the horizon of {horizon} ticks")
            }
        }
    }
}

impl std::error::Error for PlanError {}
