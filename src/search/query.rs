//! What a planner is asked: start, goal, start tick, goal policy, budget.

use crate::grid::{Cell, Tick};

/// When does reaching the goal count?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GoalPolicy {
    /// The first tick at which the agent can stand on the goal.
    #[default]
    Arrive,
    /// The first tick from which the agent can stand on the goal and stay
    /// there for ever (nothing ever blocks the goal afterwards). Units that
    /// park at their goal use this, so nobody plans through them.
    Stay,
}

/// Which admissible estimate of the remaining cost guides the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// Manhattan distance to the goal: free to compute.
    #[default]
    Manhattan,
    /// The exact static distance to the goal (a breadth-first search over the
    /// walls, ignoring temporal obstacles), cached per goal.
    Perfect2D,
}

/// A path request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Query {
    /// Where the agent stands at `start_tick`.
    pub start: Cell,
    /// Where it wants to be.
    pub goal: Cell,
    /// The tick at which the agent stands on `start`.
    pub start_tick: Tick,
    /// When reaching the goal counts.
    pub policy: GoalPolicy,
    /// Give up after this many node expansions (`None`: no limit). JPST's
    /// first pass on the map without moving obstacles gets a budget of its
    /// own (see [`Jpst::with_static_first`](super::Jpst::with_static_first)).
    pub budget: Option<u64>,
    /// Give up on paths arriving more than this many ticks after
    /// `start_tick` (`None`: no limit).
    pub horizon: Option<Tick>,
}

impl Query {
    /// A query from `start` at tick 0 to `goal` with the `Arrive` policy and
    /// no budget.
    pub fn new(start: Cell, goal: Cell) -> Self {
        Self {
            start,
            goal,
            start_tick: 0,
            policy: GoalPolicy::Arrive,
            budget: None,
            horizon: None,
        }
    }

    /// The same query starting at `tick`.
    pub fn starting_at(mut self, tick: Tick) -> Self {
        self.start_tick = tick;
        self
    }

    /// The same query with goal policy `policy`.
    pub fn with_policy(mut self, policy: GoalPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The same query limited to `expansions` node expansions.
    pub fn with_budget(mut self, expansions: u64) -> Self {
        self.budget = Some(expansions);
        self
    }

    /// The same query limited to paths that arrive at most `ticks` ticks
    /// after the start tick; planners answer
    /// [`PlanError::HorizonExceeded`](super::PlanError::HorizonExceeded) as
    /// soon as no shorter path can exist, so the limit also bounds their
    /// work. It never changes a path that arrives in time.
    pub fn with_horizon(mut self, ticks: Tick) -> Self {
        self.horizon = Some(ticks);
        self
    }
}
