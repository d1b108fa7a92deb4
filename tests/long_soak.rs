//! The long soak, ignored by default:
//!
//! ```text
//! cargo test --release --test long_soak -- --ignored soak --nocapture
//! ```
//!
//! 2,000 units on Berlin_1_256 for 20,000 nav ticks (`SOAK_UNITS` and
//! `SOAK_TICKS` change both), with random orders and random wall edits.
//! Checks: zero vertex or swap collisions, no unit planning for longer than
//! a bounded number of ticks, resident memory flat after warm-up. Prints the
//! peak resident memory at a quarter of the run and at the end.

mod plugin_common;

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_jpst::grid::Cell;
use bevy_jpst::io::read_map;
use bevy_jpst::plugin::*;
use plugin_common::{collisions, nav_tick, positions, state, test_app, tick};

/// Longest a unit may stay in `Planning`, in nav ticks. Batches stop at the
/// default limit of 200,000 expansions, so the first 2,000 orders, all given
/// at once, take a while to drain (85 ticks in a 5,000-tick run); a unit
/// stuck in the queue would wait for ever.
const MAX_PLANNING_TICKS: u32 = 256;

fn env_or(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `VmRSS` and `VmHWM` (peak) of this process in MiB, from /proc.
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[test]
#[ignore = "long: cargo test --release --test long_soak -- --ignored soak --nocapture"]
fn soak_berlin_many_units_random_orders_and_wall_edits() {
    let units = env_or("SOAK_UNITS", 2000) as usize;
    let ticks = env_or("SOAK_TICKS", 20_000);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/maps/Berlin_1_256/Berlin_1_256.map");
    let walls = read_map(&path).expect("the map ships with the crate");
    let free: Vec<Cell> = (0..walls.height())
        .flat_map(|y| (0..walls.width()).map(move |x| Cell::new(x, y)))
        .filter(|c| walls.is_passable(*c))
        .collect();
    let mut app = test_app(walls);
    let mut seed = 0x50a4_u64;
    let mut pick = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let step = free.len() / units;
    let ids: Vec<Entity> = (0..units)
        .map(|i| app.world_mut().spawn(NavAgent::at(free[i * step])).id())
        .collect();
    let mut painted: Vec<Entity> = Vec::new();
    let mut planning_since: HashMap<Entity, u32> = HashMap::new();
    let mut longest_planning = 0;
    let mut hits = 0;
    let mut warm = (0.0, 0.0);
    let mut before = positions(&mut app);
    let started = std::time::Instant::now();
    for t in 1..=ticks {
        for (i, id) in ids.iter().enumerate() {
            let s = state(&app, *id);
            let done = matches!(
                s,
                AgentState::Idle | AgentState::Arrived | AgentState::NoPath
            );
            if done || (t as usize + i).is_multiple_of(211) {
                let goal = free[pick(free.len())];
                app.world_mut().entity_mut(*id).insert(MoveOrder { goal });
            }
        }
        // Wall edits: a new wall on a free cell nobody stands on, or an old
        // one taken away, every 25 ticks.
        if t.is_multiple_of(25) {
            if painted.len() < 40 && pick(3) > 0 {
                let cell = free[pick(free.len())];
                if !before.iter().any(|(_, c)| *c == cell) {
                    painted.push(app.world_mut().spawn((NavBlocker, GridPos(cell))).id());
                }
            } else if !painted.is_empty() {
                let gone = painted.swap_remove(pick(painted.len()));
                app.world_mut().despawn(gone);
            }
        }
        tick(&mut app);
        let after = positions(&mut app);
        hits += collisions(&before, &after);
        before = after;
        let now = nav_tick(&app);
        for id in &ids {
            if state(&app, *id) == AgentState::Planning {
                let since = *planning_since.entry(*id).or_insert(now);
                longest_planning = longest_planning.max(now - since);
            } else {
                planning_since.remove(id);
            }
        }
        if t == ticks / 4 {
            warm = memory_mib();
        }
        if t % 1000 == 0 {
            let s = app.world().resource::<NavStats>();
            let (rss, peak) = memory_mib();
            println!(
                "tick {t}: plans {} failures {} queue {} collisions {hits} longest planning {longest_planning} ticks, rss {rss:.0} MiB peak {peak:.0} MiB, {:.0} s",
                s.plans,
                s.failures,
                s.queue_length,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let (rss, peak) = memory_mib();
    println!(
        "soak units {units} ticks {ticks} collisions {hits} longest_planning_ticks {longest_planning} rss_warm_mib {:.0} peak_warm_mib {:.0} rss_end_mib {rss:.0} peak_end_mib {peak:.0} wall_seconds {:.0}",
        warm.0,
        warm.1,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(hits, 0, "collisions");
    assert!(
        longest_planning <= MAX_PLANNING_TICKS,
        "a unit planned for {longest_planning} ticks"
    );
    assert!(
        rss <= warm.0 * 1.25 + 64.0,
        "memory grew from {:.0} MiB to {rss:.0} MiB after warm-up",
        warm.0
    );
}
