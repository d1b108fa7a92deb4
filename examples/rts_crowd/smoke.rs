//! Smoke mode (`--frames N [--screenshot <file.png>]`): the example plays
//! itself, gives both teams orders across the map, paints a wall into their
//! way, saves a screenshot after N frames and exits with status 0, or 1 on
//! any collision or a missing screenshot.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy_jpst::grid::{Cell, Tick};
use bevy_jpst::plugin::{AgentState, MoveOrder, NavAgent, NavStats, NavWorld, PathFailed};

use crate::collisions::Collisions;
use crate::gates::Gates;
use crate::map::GameMap;
use crate::orders::{assign_goals, blocked_cells};
use crate::units::{Selected, Team};
use crate::wall_paint::PaintWall;

/// Nav ticks between two rounds of orders.
const ROUND: Tick = 150;
/// Fewer distinct colours than this in the screenshot: blank.
const MIN_COLOURS: usize = 8;
/// Frames to wait for the screenshot file before giving up.
const SCREENSHOT_PATIENCE: u32 = 300;

/// Runs the smoke test.
pub struct SmokePlugin {
    /// Frames to run before the screenshot.
    pub frames: u32,
    /// Where to save it.
    pub screenshot: Option<PathBuf>,
}

#[derive(Resource)]
struct Smoke {
    frames: u32,
    frame: u32,
    screenshot: Option<PathBuf>,
    shot_at: Option<u32>,
    /// Distinct colours seen in the captured screenshot, once captured.
    colours: Option<usize>,
    /// Failed plans by reason.
    failures: std::collections::BTreeMap<String, usize>,
    started: Instant,
    first_tick: Option<(Instant, Tick)>,
    next_round: Tick,
    round: u32,
    painted: bool,
    /// Since the last log line: the slowest frame, the planner waits, and
    /// the frame and nav tick the window started at.
    window: LogWindow,
}

#[derive(Default)]
struct LogWindow {
    max_frame_ms: f32,
    wait_ms: f64,
    since: Option<(Instant, Tick)>,
}

impl Plugin for SmokePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Smoke {
            frames: self.frames,
            frame: 0,
            screenshot: self.screenshot.clone(),
            shot_at: None,
            colours: None,
            failures: Default::default(),
            started: Instant::now(),
            first_tick: None,
            next_round: 0,
            round: 0,
            painted: false,
            window: LogWindow::default(),
        })
        .add_systems(
            Update,
            (auto_orders, paint_a_wall, finish)
                .chain()
                .run_if(resource_exists::<NavWorld>),
        );
    }
}

/// Every `ROUND` ticks, sends each team to its next spot.
fn auto_orders(
    mut commands: Commands,
    mut smoke: ResMut<Smoke>,
    world: Res<NavWorld>,
    gates: Res<Gates>,
    map: Res<GameMap>,
    units: Query<(Entity, &NavAgent, &AgentState, Option<&MoveOrder>, &Team)>,
) {
    if smoke.first_tick.is_none() && world.tick > 0 {
        smoke.first_tick = Some((Instant::now(), world.tick));
    }
    if world.tick < smoke.next_round || world.tick == 0 {
        return;
    }
    smoke.next_round = world.tick + ROUND;
    smoke.round += 1;
    // The teams tour four spots in step, two spots apart, so each goes
    // where nobody stands and their paths cross.
    let round = smoke.round as usize;
    let all = units
        .iter()
        .map(|(e, a, s, o, _)| (e, a.cell, *s, o.map(|o| o.goal)));
    let mut blocked = blocked_cells(&gates, all, &HashSet::new());
    for team in 0..2 {
        let group: Vec<(Entity, Cell)> = units
            .iter()
            .filter(|u| u.4.0 == team)
            .map(|(e, a, ..)| (e, a.cell))
            .collect();
        let target = map.spot(round + 2 * team);
        for (entity, goal) in assign_goals(&world, &mut blocked, &group, target) {
            commands.entity(entity).insert(MoveOrder { goal });
        }
    }
    // Show the selection colour in the screenshot.
    for (entity, .., team) in &units {
        if team.0 == 0 {
            commands.entity(entity).insert(Selected);
        }
    }
}

/// Halfway through, walls off a few cells in the middle of the map, where
/// paths cross, so some units must replan.
fn paint_a_wall(
    mut smoke: ResMut<Smoke>,
    world: Res<NavWorld>,
    mut paint: MessageWriter<PaintWall>,
) {
    if smoke.painted || smoke.frame < smoke.frames / 2 {
        return;
    }
    smoke.painted = true;
    let (w, h) = (world.grid.width(), world.grid.height());
    for dy in 0..8 {
        let cell = Cell::new(w / 2, (h / 2 + dy).saturating_sub(4));
        paint.write(PaintWall { cell, wall: true });
    }
}

/// Counts frames, takes the screenshot, prints the summary and exits.
fn finish(
    mut commands: Commands,
    mut smoke: ResMut<Smoke>,
    world: Res<NavWorld>,
    stats: Res<NavStats>,
    collisions: Res<Collisions>,
    units: Query<&AgentState>,
    time: Res<Time<Real>>,
    mut failed: MessageReader<PathFailed>,

    mut exit: MessageWriter<AppExit>,
) {
    smoke.frame += 1;
    for f in failed.read() {
        *smoke.failures.entry(format!("{:?}", f.reason)).or_default() += 1;
    }
    let frame_ms = time.delta_secs() * 1000.0;
    let smoke = &mut *smoke;
    let window = &mut smoke.window;
    window.max_frame_ms = window.max_frame_ms.max(frame_ms);
    window.wait_ms += stats.wait_micros / 1000.0;
    let (since, since_tick) = *window.since.get_or_insert((Instant::now(), world.tick));
    if smoke.frame.is_multiple_of(60) {
        let seconds = since.elapsed().as_secs_f64().max(1e-9);
        info!(
            "frame {}: {:.1} ms/frame (slowest {:.0}), nav tick {} ({:.1} Hz), plans {}, failures {:?}, planner wait {:.0} ms, collisions {}",
            smoke.frame,
            seconds * 1000.0 / 60.0,
            window.max_frame_ms,
            world.tick,
            (world.tick - since_tick) as f64 / seconds,
            stats.plans,
            smoke.failures,
            window.wait_ms,
            collisions.total
        );
        smoke.window = LogWindow {
            since: Some((Instant::now(), world.tick)),
            ..default()
        };
    }
    if smoke.frame < smoke.frames {
        return;
    }
    let Some(path) = smoke.screenshot.clone() else {
        report(smoke, &world, &stats, &collisions, &units, None);
        exit.write(exit_status(&collisions, true));
        return;
    };
    let Some(shot_at) = smoke.shot_at else {
        let _ = std::fs::remove_file(&path);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path))
            .observe(count_colours);
        smoke.shot_at = Some(smoke.frame);
        return;
    };
    let saved = smoke.colours.is_some() && std::fs::metadata(&path).is_ok_and(|m| m.len() > 0);
    if saved || smoke.frame > shot_at + SCREENSHOT_PATIENCE {
        report(
            smoke,
            &world,
            &stats,
            &collisions,
            &units,
            Some((&path, saved)),
        );
        // A screenshot of one flat colour means nothing was drawn.
        let drawn = smoke.colours.is_some_and(|n| n >= MIN_COLOURS);
        if saved && !drawn {
            eprintln!(
                "error: the screenshot is blank ({:?} colours)",
                smoke.colours
            );
        }
        exit.write(exit_status(&collisions, saved && drawn));
    }
}

/// Counts the distinct colours of the captured window.
fn count_colours(shot: On<ScreenshotCaptured>, mut smoke: ResMut<Smoke>) {
    let data = shot.image.data.as_deref().unwrap_or(&[]);
    let colours: std::collections::HashSet<&[u8]> = data.chunks_exact(4).step_by(7).collect();
    smoke.colours = Some(colours.len());
}

fn exit_status(collisions: &Collisions, saved: bool) -> AppExit {
    if collisions.total == 0 && saved {
        AppExit::Success
    } else {
        AppExit::error()
    }
}

fn report(
    smoke: &Smoke,
    world: &NavWorld,
    stats: &NavStats,
    collisions: &Collisions,
    units: &Query<&AgentState>,
    shot: Option<(&PathBuf, bool)>,
) {
    let wall = smoke.started.elapsed().as_secs_f64();
    let nav_hz = smoke.first_tick.map_or(0.0, |(at, tick)| {
        (world.tick - tick) as f64 / at.elapsed().as_secs_f64().max(1e-9)
    });
    let moving = units
        .iter()
        .filter(|s| matches!(s, AgentState::Moving | AgentState::Arrived))
        .count();
    println!(
        "frames {} wall_seconds {:.1} mean_frame_ms {:.1} nav_ticks {} nav_hz {:.1} target_nav_hz {:.0} units {} moving_or_arrived {} plans {} failures {} latency_mean_ticks {:.2} latency_p99_ticks {:.0} collisions {} screenshot {}",
        smoke.frame,
        wall,
        wall * 1000.0 / smoke.frame.max(1) as f64,
        world.tick,
        nav_hz,
        crate::NAV_HZ,
        units.iter().count(),
        moving,
        stats.plans,
        stats.failures,
        stats.latency_mean(),
        stats.latency_p99(),
        collisions.total,
        match shot {
            Some((path, true)) =>
                format!("{} colours {}", path.display(), smoke.colours.unwrap_or(0)),
            Some((_, false)) => "missing".into(),
            None => "none".into(),
        }
    );
}
