//! Planners over a [`NavGrid`]: Temporal Jump Point
//! Search, SIPP and time-expanded A*, behind one [`Planner`] interface.
//! Pure Rust, no Bevy.

mod astar;
mod auto;
mod error;
mod goal;
mod heuristic;
mod jpst;
mod nodes;
mod open;
mod plan;
mod query;
mod sipp;
mod step;
mod validate;

pub use astar::TimeExpandedAStar;
pub use auto::{AutoPlanner, SIPP_FROM_SEARCH_SHARE, SIPP_FROM_SHARE};
pub use error::PlanError;
pub use heuristic::HeuristicCache;
pub use jpst::{Jpst, JpstStage, WalkingEstimate};
pub use plan::{Plan, SearchStats, Waypoint, materialise};
pub use query::{GoalPolicy, Heuristic, Query};
pub use sipp::Sipp;
pub use validate::{PathViolation, validate_path};

use crate::grid::NavGrid;

/// Anything that answers path queries on a [`NavGrid`]. Planners keep their
/// buffers between queries, so reuse one instance for many queries.
pub trait Planner: Send {
    /// A short lower-case name (`jpst`, `sipp`, `astar`, `auto`).
    fn name(&self) -> &'static str;

    /// Finds a time-optimal path for `query`, or says why there is none.
    fn plan(&mut self, grid: &NavGrid, query: &Query) -> Result<Plan, PlanError>;

    /// Counters of the last call to [`plan`](Planner::plan), successful or not.
    fn last_stats(&self) -> SearchStats;
}

/// The planners this crate provides, for choosing one by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlannerKind {
    /// Temporal Jump Point Search ([`Jpst`]).
    #[default]
    Jpst,
    /// Safe Interval Path Planning ([`Sipp`]).
    Sipp,
    /// A* over (cell, tick) ([`TimeExpandedAStar`]), the reference.
    TimeExpandedAStar,
    /// JPST, unless the map is crowded and JPST's temporal search has been
    /// doing most of the work; SIPP then ([`AutoPlanner`]).
    Auto,
}

impl PlannerKind {
    /// All planners.
    pub const ALL: [PlannerKind; 4] = [
        PlannerKind::Jpst,
        PlannerKind::Sipp,
        PlannerKind::TimeExpandedAStar,
        PlannerKind::Auto,
    ];

    /// A new planner of this kind using `heuristic`.
    pub fn build(self, heuristic: Heuristic) -> Box<dyn Planner> {
        match self {
            PlannerKind::Jpst => Box::new(Jpst::new(heuristic)),
            PlannerKind::Sipp => Box::new(Sipp::new(heuristic)),
            PlannerKind::TimeExpandedAStar => Box::new(TimeExpandedAStar::new(heuristic)),
            PlannerKind::Auto => Box::new(AutoPlanner::new(heuristic)),
        }
    }

    /// The planner's short name (`jpst`, `sipp`, `astar`, `auto`).
    pub fn name(self) -> &'static str {
        match self {
            PlannerKind::Jpst => "jpst",
            PlannerKind::Sipp => "sipp",
            PlannerKind::TimeExpandedAStar => "astar",
            PlannerKind::Auto => "auto",
        }
    }

    /// Parses a short name (`jpst`, `sipp`, `astar`, `auto`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::str::FromStr for PlannerKind {
    type Err = String;

    /// Parses a short name; the error lists the names there are.
    fn from_str(name: &str) -> Result<Self, String> {
        Self::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
            format!("unknown planner `{name}` ({})", names.join(", "))
        })
    }
}
