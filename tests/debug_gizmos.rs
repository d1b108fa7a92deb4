//! The debug plugin draws every layer in a headless app with Bevy's gizmos
//! and leaves the units' behaviour unchanged.

mod plugin_common;

use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_jpst::grid::{Cell, ObstacleEnd, StaticGrid};
use bevy_jpst::plugin::*;
use plugin_common::{STEP, state, tick};

fn gizmo_app(walls: StaticGrid) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        // The gizmo plugin draws skinned-mesh bounds when meshes are built.
        bevy::mesh::MeshPlugin,
        GizmoPlugin,
        TransformPlugin,
        JpstPlugin::default(),
        JpstDebugPlugin,
    ))
    .insert_resource(Time::<Fixed>::from_duration(STEP))
    .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
    .insert_resource(NavWorld::new(walls))
    .insert_resource(JpstDebugDraw {
        enabled: true,
        paths: true,
        reservations: true,
        walls: true,
        jump_points: true,
        lookahead: 16,
    });
    app.update();
    app
}

#[test]
fn every_drawing_runs_while_units_move_around_blocks_and_hazards() {
    let walls = StaticGrid::from_fn(12, 8, |c| c.x != 5 || c.y > 5).unwrap();
    let mut app = gizmo_app(walls);
    let a = app
        .world_mut()
        .spawn((
            NavAgent::at(Cell::new(0, 0)),
            MoveOrder {
                goal: Cell::new(11, 0),
            },
        ))
        .id();
    let b = app
        .world_mut()
        .spawn((
            NavAgent::at(Cell::new(11, 7)),
            MoveOrder {
                goal: Cell::new(0, 7),
            },
        ))
        .id();
    app.world_mut().spawn(ScheduledBlock {
        cell: Cell::new(5, 6),
        from: 3,
        to: Some(9),
    });
    app.world_mut().spawn(MovingHazard {
        t0: 2,
        cells: (0..8).map(|y| Cell::new(8, y)).collect(),
        end: ObstacleEnd::Vanish,
    });
    for t in 0..60 {
        if t == 30 {
            app.world_mut().resource_mut::<JpstDebugDraw>().enabled = false;
        }
        tick(&mut app);
    }
    assert_eq!(state(&app, a), AgentState::Arrived);
    assert_eq!(state(&app, b), AgentState::Arrived);
    let path = app.world().get::<TemporalPath>(a).expect("a path");
    assert_eq!(
        path.jump_points.first().map(|p| p.cell),
        Some(Cell::new(0, 0))
    );
    assert_eq!(
        path.jump_points.last().map(|p| p.cell),
        Some(Cell::new(11, 0))
    );
}
