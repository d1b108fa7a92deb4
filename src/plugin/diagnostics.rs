//! Planning statistics: a resource for games and tools, mirrored into Bevy's
//! diagnostics store under `jpst/...` paths.

use std::collections::VecDeque;
use std::time::Instant;

use bevy::diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy::prelude::*;

use crate::grid::Tick;

use super::reservations::Reservations;
use super::world::NavWorld;

/// Diagnostic paths the plugin measures once per nav tick.
pub struct JpstDiagnostics;

impl JpstDiagnostics {
    /// Plans committed per second of nav time (nav ticks / fixed timestep).
    pub const PLANS_PER_SECOND: DiagnosticPath = DiagnosticPath::const_new("jpst/plans_per_second");
    /// Mean ticks from order to committed path, over the last 1024 plans.
    pub const LATENCY_MEAN: DiagnosticPath = DiagnosticPath::const_new("jpst/latency_mean_ticks");
    /// 99th percentile of the same.
    pub const LATENCY_P99: DiagnosticPath = DiagnosticPath::const_new("jpst/latency_p99_ticks");
    /// Units waiting to be planned.
    pub const QUEUE_LENGTH: DiagnosticPath = DiagnosticPath::const_new("jpst/queue_length");
    /// Units holding reservations.
    pub const RESERVATIONS: DiagnosticPath = DiagnosticPath::const_new("jpst/reservations");
    /// Microseconds the plugin's nav-tick systems took on the main thread,
    /// not counting waits for late background batches.
    pub const MAIN_THREAD_MICROS: DiagnosticPath =
        DiagnosticPath::const_new("jpst/main_thread_us_per_tick");
    /// Microseconds the main thread waited for late background batches.
    pub const WAIT_MICROS: DiagnosticPath = DiagnosticPath::const_new("jpst/wait_us_per_tick");
}

/// How much planning the plugin does and how fast, updated every nav tick.
#[derive(Resource, Debug, Default, Clone)]
pub struct NavStats {
    /// Paths committed since start.
    pub plans: u64,
    /// Orders that found no path since start.
    pub failures: u64,
    /// Units waiting to be planned at the end of the last tick.
    pub queue_length: usize,
    /// Units holding reservations.
    pub reservations: usize,
    /// Microseconds the plugin's systems took on the main thread in the last
    /// nav tick, not counting [`wait_micros`](Self::wait_micros).
    pub main_thread_micros: f64,
    /// Microseconds the main thread spent in the last nav tick waiting for a
    /// background batch that was not finished when its plans were due (the
    /// planners could not keep up within the latency allowance).
    pub wait_micros: f64,
    /// [`main_thread_micros`](Self::main_thread_micros) of the last nav tick
    /// split by stage.
    pub stage_micros: StageMicros,
    latencies: VecDeque<Tick>,
    plans_this_second: VecDeque<(Tick, u64)>,
    tick_started: Option<Instant>,
    lap_started: Option<Instant>,
}

/// Main-thread microseconds of one nav tick per stage of
/// [`JpstSystems`](super::JpstSystems) (waits for late batches not counted).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct StageMicros {
    /// Tilemap mirroring; walls, scheduled blocks and hazards.
    pub sync_grid: f64,
    /// Units appearing and disappearing, pruning of the past.
    pub sync_reservations: f64,
    /// Committing the batch due this tick.
    pub receive: f64,
    /// Starting the next batch.
    pub dispatch: f64,
    /// Moving units and publishing the statistics.
    pub drive: f64,
}

/// A stage of the nav tick timed by [`lap`] (the last one, drive, is timed
/// by [`publish`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stage {
    SyncGrid,
    SyncReservations,
    Receive,
    Dispatch,
}

impl StageMicros {
    fn slot(&mut self, stage: Stage) -> &mut f64 {
        match stage {
            Stage::SyncGrid => &mut self.sync_grid,
            Stage::SyncReservations => &mut self.sync_reservations,
            Stage::Receive => &mut self.receive,
            Stage::Dispatch => &mut self.dispatch,
        }
    }
}

impl NavStats {
    /// Records a committed path ordered `latency` ticks ago.
    pub(crate) fn record_plan(&mut self, latency: Tick) {
        self.plans += 1;
        if self.latencies.len() == 1024 {
            self.latencies.pop_front();
        }
        self.latencies.push_back(latency);
    }

    /// Mean ticks from order to committed path over the last 1024 plans.
    pub fn latency_mean(&self) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        self.latencies.iter().map(|l| *l as f64).sum::<f64>() / self.latencies.len() as f64
    }

    /// 99th percentile of the ticks from order to committed path.
    pub fn latency_p99(&self) -> f64 {
        let mut v: Vec<Tick> = self.latencies.iter().copied().collect();
        if v.is_empty() {
            return 0.0;
        }
        v.sort_unstable();
        v[((v.len() - 1) as f64 * 0.99).round() as usize] as f64
    }
}

/// Registers the plugin's diagnostics.
pub(crate) fn register(app: &mut App) {
    for path in [
        JpstDiagnostics::PLANS_PER_SECOND,
        JpstDiagnostics::LATENCY_MEAN,
        JpstDiagnostics::LATENCY_P99,
        JpstDiagnostics::QUEUE_LENGTH,
        JpstDiagnostics::RESERVATIONS,
        JpstDiagnostics::MAIN_THREAD_MICROS,
        JpstDiagnostics::WAIT_MICROS,
    ] {
        app.register_diagnostic(Diagnostic::new(path));
    }
}

/// First system of the nav tick: starts the main-thread clock.
pub(crate) fn start_clock(mut stats: ResMut<NavStats>) {
    let now = Instant::now();
    stats.tick_started = Some(now);
    stats.lap_started = Some(now);
    stats.wait_micros = 0.0;
    stats.stage_micros = StageMicros::default();
}

/// Last system of a stage: books the time since the previous lap to `stage`
/// (less the wait for a late batch, which only [`Stage::Receive`] does).
pub(crate) fn lap(stage: Stage) -> impl FnMut(ResMut<NavStats>) {
    move |mut stats: ResMut<NavStats>| {
        let now = Instant::now();
        if let Some(started) = stats.lap_started.replace(now) {
            let waited = match stage {
                Stage::Receive => stats.wait_micros,
                _ => 0.0,
            };
            let spent = (now - started).as_secs_f64() * 1e6;
            *stats.stage_micros.slot(stage) = (spent - waited).max(0.0);
        }
    }
}

/// Last system of the nav tick: stops the clock and publishes everything.
pub(crate) fn publish(
    world: Res<NavWorld>,
    time: Res<Time<Fixed>>,
    reservations: Res<Reservations>,
    agents: Query<&super::components::NavAgent>,
    mut stats: ResMut<NavStats>,
    mut diagnostics: Diagnostics,
) {
    if let Some(started) = stats.lap_started.take() {
        stats.stage_micros.drive = started.elapsed().as_secs_f64() * 1e6;
    }
    if let Some(started) = stats.tick_started.take() {
        stats.main_thread_micros =
            (started.elapsed().as_secs_f64() * 1e6 - stats.wait_micros).max(0.0);
    }
    stats.queue_length = agents
        .iter()
        .filter(|a| a.wants_plan || a.in_flight)
        .count();
    stats.reservations = reservations.units.len();
    let ticks_per_second = (1.0 / time.timestep().as_secs_f64().max(1e-9)).round() as Tick;
    let plans = stats.plans;
    stats.plans_this_second.push_back((world.tick, plans));
    while stats
        .plans_this_second
        .front()
        .is_some_and(|(t, _)| t + ticks_per_second.max(1) < world.tick)
    {
        stats.plans_this_second.pop_front();
    }
    let (first_tick, first_plans) = stats.plans_this_second.front().copied().unwrap_or((0, 0));
    let span = (world.tick - first_tick).max(1) as f64 / ticks_per_second.max(1) as f64;
    let per_second = (plans - first_plans) as f64 / span;
    let s = stats.clone();
    diagnostics.add_measurement(&JpstDiagnostics::PLANS_PER_SECOND, || per_second);
    diagnostics.add_measurement(&JpstDiagnostics::LATENCY_MEAN, || s.latency_mean());
    diagnostics.add_measurement(&JpstDiagnostics::LATENCY_P99, || s.latency_p99());
    diagnostics.add_measurement(&JpstDiagnostics::QUEUE_LENGTH, || s.queue_length as f64);
    diagnostics.add_measurement(&JpstDiagnostics::RESERVATIONS, || s.reservations as f64);
    diagnostics.add_measurement(&JpstDiagnostics::MAIN_THREAD_MICROS, || {
        s.main_thread_micros
    });
    diagnostics.add_measurement(&JpstDiagnostics::WAIT_MICROS, || s.wait_micros);
}
