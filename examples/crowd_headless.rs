//! A crowd on a real map, no window: N units on a MovingAI map get random
//! orders all the time, and the plugin plans and drives them.
//!
//! ```text
//! cargo run --release --example crowd_headless -- [--units N] [--ticks T] [--map <file.map>] [--planner jpst|sipp|auto] [--expansions-per-batch N|none]
//! ```
//!
//! `--planner` picks the plugin's planner (`auto` by default, as in the
//! plugin: JPST, or SIPP in crowds where JPST's cheap stages stop answering),
//! so the planners can be compared on the same crowd.
//! `--expansions-per-batch` sets the plugin's limit of that name (default
//! 200,000; `none` lifts it).
//!
//! Prints statistics once per simulated second (64 nav ticks) and ends with
//! one summary line of `key value` pairs: `ticks`, `plans_per_sec`,
//! `latency_mean_ticks`, `latency_p99_ticks`, `main_thread_us_per_tick` (the
//! plugin's systems), `wait_us_per_tick` (time the main thread waited for
//! background planning that was late) and `collisions` (vertex or swap
//! conflicts between units, counted here from the units' actual cells, not
//! from the plans). Before it, one line splits the main-thread time by
//! stage of the plugin ([`StageMicros`]). Nav ticks run back to back, as
//! fast as the machine allows, not at 64 per wall-clock second.

use std::process::ExitCode;
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_jpst::grid::Cell;
use bevy_jpst::io::read_map;
use bevy_jpst::plugin::*;
use bevy_jpst::search::{Heuristic, PlannerKind};

#[path = "shared/collisions.rs"]
mod collisions;
use collisions::{CollisionCountPlugin, Collisions};

const TICKS_PER_SECOND: u32 = 64;

struct Args {
    units: usize,
    ticks: u32,
    map: String,
    planner: PlannerKind,
    expansions_per_batch: Option<u64>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        units: 1000,
        ticks: 640,
        map: "assets/maps/den520d/den520d.map".into(),
        planner: PlannerKind::Auto,
        expansions_per_batch: NavSettings::default().expansions_per_batch,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--units" => {
                args.units = value
                    .parse()
                    .map_err(|_| format!("bad --units {value:?}"))?
            }
            "--ticks" => {
                args.ticks = value
                    .parse()
                    .map_err(|_| format!("bad --ticks {value:?}"))?
            }
            "--map" => args.map = value,
            "--planner" => args.planner = value.parse()?,
            "--expansions-per-batch" => {
                args.expansions_per_batch = match value.as_str() {
                    "none" => None,
                    n => Some(
                        n.parse()
                            .map_err(|_| format!("bad --expansions-per-batch {value:?}"))?,
                    ),
                }
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!(
                "error: {e}\nusage: crowd_headless [--units N] [--ticks T] [--map <file.map>] [--planner jpst|sipp|auto] [--expansions-per-batch N|none]"
            );
            return ExitCode::from(2);
        }
    };
    let walls = match read_map(std::path::Path::new(&args.map)) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let free: Vec<Cell> = (0..walls.height())
        .flat_map(|y| (0..walls.width()).map(move |x| Cell::new(x, y)))
        .filter(|c| walls.is_passable(*c))
        .collect();
    if free.len() < args.units {
        eprintln!(
            "error: the map has {} walkable cells, fewer than {} units",
            free.len(),
            args.units
        );
        return ExitCode::FAILURE;
    }
    let step = Duration::from_secs_f64(1.0 / TICKS_PER_SECOND as f64);
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        JpstPlugin::default()
            .with_planner(args.planner, Heuristic::Manhattan)
            .with_expansions_per_batch(args.expansions_per_batch),
        CollisionCountPlugin,
    ))
    .insert_resource(Time::<Fixed>::from_duration(step))
    .insert_resource(TimeUpdateStrategy::ManualDuration(step))
    .insert_resource(NavWorld::new(walls));
    app.update();

    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    let mut pick = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    // Distinct start cells, spread over the map.
    let stride = free.len() / args.units;
    let units: Vec<Entity> = (0..args.units)
        .map(|i| app.world_mut().spawn(NavAgent::at(free[i * stride])).id())
        .collect();

    let mut micros = 0.0f64;
    let mut waited = 0.0f64;
    let mut stages = [0.0f64; 5];
    let started = std::time::Instant::now();
    for t in 1..=args.ticks {
        for id in &units {
            let state = *app.world().get::<AgentState>(*id).expect("unit");
            if matches!(
                state,
                AgentState::Idle | AgentState::Arrived | AgentState::NoPath
            ) {
                let goal = free[pick(free.len())];
                app.world_mut().entity_mut(*id).insert(MoveOrder { goal });
            }
        }
        let before = app.world().resource::<NavWorld>().tick;
        while app.world().resource::<NavWorld>().tick == before {
            app.update();
        }
        micros += app.world().resource::<NavStats>().main_thread_micros;
        waited += app.world().resource::<NavStats>().wait_micros;
        let s = app.world().resource::<NavStats>().stage_micros;
        for (sum, x) in stages.iter_mut().zip([
            s.sync_grid,
            s.sync_reservations,
            s.receive,
            s.dispatch,
            s.drive,
        ]) {
            *sum += x;
        }
        let collisions = app.world().resource::<Collisions>().total;
        if t % TICKS_PER_SECOND == 0 {
            let s = app.world().resource::<NavStats>();
            println!(
                "second {:>3}: plans {:>6} failures {:>5} queue {:>5} latency mean {:.2} p99 {:.0} ticks, main thread {:.0} us/tick, collisions {}",
                t / TICKS_PER_SECOND,
                s.plans,
                s.failures,
                s.queue_length,
                s.latency_mean(),
                s.latency_p99(),
                s.main_thread_micros,
                collisions
            );
        }
    }
    let s = app.world().resource::<NavStats>();
    let collisions = app.world().resource::<Collisions>().total;
    let per_tick = |x: f64| x / args.ticks as f64;
    println!(
        "main thread per stage (us/tick): sync_grid {:.1} sync_reservations {:.1} receive {:.1} dispatch {:.1} drive {:.1}",
        per_tick(stages[0]),
        per_tick(stages[1]),
        per_tick(stages[2]),
        per_tick(stages[3]),
        per_tick(stages[4]),
    );
    let seconds = args.ticks as f64 / TICKS_PER_SECOND as f64;
    println!(
        "ticks {} units {} plans_per_sec {:.1} latency_mean_ticks {:.2} latency_p99_ticks {:.0} main_thread_us_per_tick {:.1} wait_us_per_tick {:.1} collisions {} wall_seconds {:.1}",
        args.ticks,
        args.units,
        s.plans as f64 / seconds,
        s.latency_mean(),
        s.latency_p99(),
        micros / args.ticks as f64,
        waited / args.ticks as f64,
        collisions,
        started.elapsed().as_secs_f64()
    );
    if collisions > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
