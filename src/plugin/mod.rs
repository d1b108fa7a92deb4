//! The Bevy plugin: mirrors walls and reservations into a
//! [`NavGrid`](crate::grid::NavGrid), plans units' orders in background
//! tasks (JPST, or SIPP in crowds where JPST's cheap stages stop
//! answering; see [`PlannerKind::Auto`]), and drives units along their
//! temporal paths.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_jpst::prelude::*;
//! use bevy_jpst::plugin::*;
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, JpstPlugin::default()))
//!     .insert_resource(NavWorld::new(StaticGrid::open(64, 64).unwrap()))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         commands.spawn((NavAgent::at(Cell::new(1, 1)), MoveOrder { goal: Cell::new(60, 40) }));
//!     })
//!     .run();
//! ```

mod components;
#[cfg(feature = "debug")]
mod debug;
mod diagnostics;
mod dispatch;
mod drive;
mod messages;
mod reservations;
mod sync;
#[cfg(feature = "tilemap")]
mod tilemap;
mod world;

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

pub use components::{
    AgentState, GridPos, MoveOrder, MovingHazard, NavAgent, NavBlocker, ScheduledBlock,
    TemporalPath,
};
#[cfg(feature = "debug")]
pub use debug::{JpstDebugDraw, JpstDebugPlugin, JpstGizmos};
use diagnostics::Stage;
pub use diagnostics::{JpstDiagnostics, NavStats, StageMicros};
pub use messages::{Arrived, PathFailed, PathFound};
#[cfg(feature = "tilemap")]
pub use tilemap::NavTilemap;
pub use world::{NavLayout, NavSettings, NavWorld};

use crate::grid::{MapLimits, Tick};
use crate::search::{Heuristic, PlannerKind};

/// The plugin's stages, chained in this order in the nav schedule (default
/// `FixedUpdate`), except [`Present`](JpstSystems::Present), which runs in
/// `Update`. Order your systems against them:
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JpstSystems {
    /// Walls, scheduled blocks and hazards are copied into the grid. Change
    /// blockers and [`ScheduledBlock`]s before it to have them seen this tick.
    SyncGrid,
    /// Units appearing or disappearing reserve or free their cells. Spawn
    /// and despawn units before it.
    SyncReservations,
    /// The batch due this tick is applied: paths committed
    /// ([`TemporalPath`], [`PathFound`]) or failures reported
    /// ([`PathFailed`]); every `compact_every` ticks the past is pruned.
    /// Runs before dispatch so a finished batch frees the planner for the
    /// next one in the same tick.
    Receive,
    /// Units with new [`MoveOrder`]s (or broken paths) are sent to the
    /// background planner. Insert orders before it.
    Dispatch,
    /// The nav clock advances and units step to their cell for the new tick
    /// ([`Arrived`] when they reach their goal). Read positions after it.
    Drive,
    /// In `Update`: unit transforms are interpolated between cells.
    Present,
}

/// Time-optimal, collision-free movement for grid units. See the module
/// documentation for an example.
pub struct JpstPlugin {
    schedule: InternedScheduleLabel,
    settings: NavSettings,
}

impl Default for JpstPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl JpstPlugin {
    /// Runs the nav tick in `schedule` (usually a fixed-step one).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            settings: NavSettings::default(),
        }
    }

    /// Plans at most `queries` orders per nav tick (default 256).
    pub fn with_budget(mut self, queries: usize) -> Self {
        self.settings.budget_per_tick = queries.max(1);
        self
    }

    /// Lets a batch start new queries only until its queries have expanded
    /// `expansions` nodes (default 200,000, some 30-40 ms of one core on a
    /// slow 2-core machine; `None`: no limit). A batch always plans at least
    /// one query; units left over go first in the next batch. Raise it with
    /// the latency allowance or a slower nav tick, lower it to keep a fast
    /// tick from waiting for crowds that fail to find paths.
    pub fn with_expansions_per_batch(mut self, expansions: Option<u64>) -> Self {
        self.settings.expansions_per_batch = expansions;
        self
    }

    /// Lets background planning take `ticks` nav ticks (default 1): plans
    /// start that many ticks after the order is dispatched.
    pub fn with_latency(mut self, ticks: Tick) -> Self {
        self.settings.latency_ticks = ticks.max(1);
        self
    }

    /// Waits `ticks` nav ticks before a unit without a path retries (default
    /// 16), doubling after each failure in a row up to 8 times as long. A
    /// unit whose goal is walled off retries only once the walls changed.
    pub fn with_patience(mut self, ticks: Tick) -> Self {
        self.settings.retry_ticks = ticks;
        self
    }

    /// Caps every query at `expansions` node expansions (default 250,000,
    /// tens of milliseconds; ordinary queries on 256 x 256 maps need a few
    /// thousand) and at arrivals `horizon` ticks after its start (default
    /// 65,536); `None` lifts a cap. A query that hits one fails
    /// ([`PathFailed`] with `BudgetExhausted` or `HorizonExceeded`) and the
    /// unit retries after a back-off.
    pub fn with_query_limits(mut self, expansions: Option<u64>, horizon: Option<Tick>) -> Self {
        self.settings.query_budget = expansions;
        self.settings.horizon = horizon;
        self
    }

    /// Refuses to mirror tilemaps larger than `limits` (default
    /// [`MapLimits::default`], 4096 x 4096): the error is logged and the
    /// previous grid, if any, stays in use.
    pub fn with_map_limits(mut self, limits: MapLimits) -> Self {
        self.settings.map_limits = limits;
        self
    }

    /// Plans with `planner` and `heuristic`. The defaults are
    /// [`PlannerKind::Auto`] (JPST, unless the map is crowded and JPST's
    /// temporal search has been doing most of the work; SIPP then) and
    /// [`Heuristic::Manhattan`].
    pub fn with_planner(mut self, planner: PlannerKind, heuristic: Heuristic) -> Self {
        self.settings.planner = planner;
        self.settings.heuristic = heuristic;
        self
    }
}

impl Plugin for JpstPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.settings)
            .init_resource::<reservations::Reservations>()
            .init_resource::<sync::BlockerIndex>()
            .init_resource::<dispatch::InFlight>()
            .init_resource::<dispatch::RegionCache>()
            .init_resource::<NavLayout>()
            .init_resource::<NavStats>()
            .add_message::<PathFound>()
            .add_message::<PathFailed>()
            .add_message::<Arrived>();
        app.configure_sets(
            self.schedule,
            (
                JpstSystems::SyncGrid,
                JpstSystems::SyncReservations,
                JpstSystems::Receive,
                JpstSystems::Dispatch,
                JpstSystems::Drive,
            )
                .chain()
                .run_if(resource_exists::<NavWorld>),
        );
        diagnostics::register(app);
        app.configure_sets(
            Update,
            JpstSystems::Present.run_if(resource_exists::<NavWorld>),
        );
        app.add_systems(
            self.schedule,
            diagnostics::start_clock
                .before(JpstSystems::SyncGrid)
                .run_if(resource_exists::<NavWorld>),
        );
        #[cfg(feature = "tilemap")]
        app.add_systems(
            self.schedule,
            (tilemap::mirror_tilemap, tilemap::tile_positions)
                .chain()
                .after(diagnostics::start_clock)
                .before(JpstSystems::SyncGrid),
        );
        app.add_systems(
            self.schedule,
            (
                (
                    sync::sync_blockers,
                    sync::sync_temporal_obstacles,
                    diagnostics::lap(Stage::SyncGrid),
                )
                    .chain()
                    .in_set(JpstSystems::SyncGrid),
                (
                    sync::sync_agents,
                    sync::reapply,
                    diagnostics::lap(Stage::SyncReservations),
                )
                    .chain()
                    .in_set(JpstSystems::SyncReservations),
                (
                    dispatch::receive,
                    sync::forget_past,
                    diagnostics::lap(Stage::Receive),
                )
                    .chain()
                    .in_set(JpstSystems::Receive),
                (
                    dispatch::take_orders,
                    dispatch::retry_failed,
                    dispatch::dispatch,
                    diagnostics::lap(Stage::Dispatch),
                )
                    .chain()
                    .in_set(JpstSystems::Dispatch),
                (drive::drive, diagnostics::publish)
                    .chain()
                    .in_set(JpstSystems::Drive),
            ),
        );
        app.add_systems(Update, drive::present.in_set(JpstSystems::Present));
    }
}
