//! # bevy_jpst
//!
//! Time-optimal, collision-free paths on 4-connected grids with moving
//! obstacles, for Bevy games: Temporal Jump Point Search (JPST), with SIPP and
//! time-expanded A* beside it as baselines and test references.
//!
//! The search core ([`grid`], [`search`], [`io`]) is plain Rust and never
//! touches Bevy, so it also runs on a server or in a test without an `App`.
//!
//! ```
//! use bevy_jpst::prelude::*;
//!
//! // A 5x3 room, and a door in the middle closed for ticks 0, 1 and 2.
//! let mut world = NavGrid::new(StaticGrid::open(5, 3).unwrap());
//! world.add_block(Cell::new(2, 1), 0, Some(3)).unwrap();
//! let mut planner = Jpst::new(Heuristic::Manhattan);
//! let plan = planner.plan(&world, &PathQuery::new(Cell::new(0, 1), Cell::new(4, 1))).unwrap();
//! assert_eq!(plan.cost(), 5); // one tick of waiting beats the detour
//! assert_eq!(plan.cells().len(), 6);
//! ```
#![warn(missing_docs)]

pub mod grid;
pub mod io;
pub mod plugin;
pub mod search;

/// The types most programs need.
pub mod prelude {
    pub use crate::grid::{Cell, Dir, FOREVER, NavGrid, ObstacleEnd, StaticGrid, Tick};
    /// A path request (named so it does not clash with Bevy's `Query`).
    pub use crate::search::Query as PathQuery;
    pub use crate::search::{
        GoalPolicy, Heuristic, Jpst, Plan, PlanError, Planner, PlannerKind, Sipp, TimeExpandedAStar,
    };
}

/// The README's code blocks, compiled (and run where they can) as doctests so
/// the README stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
