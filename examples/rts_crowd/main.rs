//! An RTS crowd on a real map: two teams of units on a MovingAI map rendered
//! with `bevy_ecs_tilemap`, moved by `bevy_jpst` along time-optimal paths
//! that never collide.
//!
//! ```text
//! cargo run --release --example rts_crowd -- [--units N] [--map <file.map>]
//!     [--frames N --screenshot <file.png>]
//! ```
//!
//! Controls: left-drag selects, right-click orders the selection (each unit
//! gets its own goal cell around the click), `1`/`2`/`Ctrl+A` select a team
//! or everyone, WASD/arrows or middle-drag pan, the wheel zooms, `B`/`E` held
//! paint or erase walls under the cursor, `U` adds 500 units (up to 2,000),
//! `G` toggles the debug gizmos (paths coloured by time, reservations).
//! Gates (orange tiles) open and close on a timer the planner knows about.
//!
//! With `--frames N` the example runs a smoke test: it gives orders itself,
//! runs N frames, saves a screenshot of the window (with `--screenshot`),
//! prints one summary line and exits with status 0, or 1 if any two units
//! ever shared a cell or swapped places.

// Bevy systems receive their data as parameters, and queries spell out
// what they read.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

#[path = "../shared/collisions.rs"]
mod collisions;

mod args;
mod camera;
mod gates;
mod hud;
mod map;
mod orders;
mod smoke;
mod units;
mod wall_paint;

use std::time::Duration;

use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use bevy::window::PresentMode;
use bevy_ecs_tilemap::TilemapPlugin;
use bevy_jpst::plugin::{JpstDebugDraw, JpstDebugPlugin, JpstGizmos, JpstPlugin};
use bevy_jpst::search::Heuristic;

/// Nav ticks per second: units cross this many cells per second.
const NAV_HZ: f64 = 12.0;

fn main() -> AppExit {
    let args = match args::Args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\nusage: {}", args::USAGE);
            return AppExit::from_code(2);
        }
    };
    let walls = match map::load(&args.map) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return AppExit::error();
        }
    };
    let smoke = args.frames.is_some();
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "bevy_jpst: RTS crowd".into(),
            resolution: (1280, 720).into(),
            // Smoke runs render on a software rasteriser: do not wait for vsync.
            present_mode: if smoke {
                PresentMode::AutoNoVsync
            } else {
                PresentMode::AutoVsync
            },
            ..default()
        }),
        ..default()
    }))
    .add_plugins((
        TilemapPlugin,
        FrameTimeDiagnosticsPlugin::default(),
        JpstPlugin::default().with_planner(args.planner, Heuristic::Manhattan),
        JpstDebugPlugin,
        collisions::CollisionCountPlugin,
    ))
    .insert_resource(Time::<Fixed>::from_duration(Duration::from_secs_f64(
        1.0 / NAV_HZ,
    )))
    .insert_resource(ClearColor(Color::srgb(0.05, 0.05, 0.07)))
    .insert_resource(JpstDebugDraw {
        reservations: false,
        ..default()
    })
    .add_systems(Startup, thin_gizmo_lines)
    .add_plugins((
        map::MapPlugin { walls },
        camera::CameraPlugin {
            start: if smoke {
                camera::CameraStart::Bases
            } else {
                camera::CameraStart::WholeMap
            },
        },
        gates::GatePlugin,
        units::UnitPlugin { count: args.units },
        orders::OrderPlugin,
        wall_paint::WallPaintPlugin,
        hud::HudPlugin,
    ));
    if let Some(frames) = args.frames {
        app.add_plugins(smoke::SmokePlugin {
            frames,
            screenshot: args.screenshot.clone(),
        });
    }
    app.run()
}

/// Path lines one pixel wide, so units stay visible under them.
fn thin_gizmo_lines(mut store: ResMut<GizmoConfigStore>) {
    store.config_mut::<JpstGizmos>().0.line.width = 1.0;
}
