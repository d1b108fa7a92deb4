//! The heads-up display: units, plans per second, planning latency,
//! collisions, frame rate; and the `G` key for the debug gizmos.

use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_jpst::plugin::{JpstDebugDraw, JpstDiagnostics, NavAgent, NavWorld};

use crate::collisions::Collisions;

/// The HUD text and the gizmo toggle.
pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_hud)
            .add_systems(Update, (update_hud, toggle_gizmos));
    }
}

#[derive(Component)]
struct HudText;

fn spawn_hud(mut commands: Commands) {
    commands.spawn((
        HudText,
        Text::new("starting..."),
        TextFont::from_font_size(16.0),
        TextColor(Color::WHITE),
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
        Node {
            position_type: PositionType::Absolute,
            top: px(8),
            left: px(8),
            padding: UiRect::all(px(6)),
            ..default()
        },
    ));
    commands.spawn((
        Text::new(
            "drag: select  right-click: order  1/2/Ctrl+A: teams  WASD/wheel: camera\n\
             B/E: paint/erase walls  U: +500 units  G: gizmos",
        ),
        TextFont::from_font_size(13.0),
        TextColor(Color::srgb(0.8, 0.8, 0.8)),
        Node {
            position_type: PositionType::Absolute,
            bottom: px(8),
            left: px(8),
            ..default()
        },
    ));
}

fn update_hud(
    store: Res<DiagnosticsStore>,
    collisions: Res<Collisions>,
    world: Option<Res<NavWorld>>,
    units: Query<&NavAgent>,
    mut text: Single<&mut Text, With<HudText>>,
) {
    let value = |path| store.get(path).and_then(|d| d.smoothed()).unwrap_or(0.0);
    // Plans come in bursts when groups are ordered: average over the history.
    let average = |path| store.get(path).and_then(|d| d.average()).unwrap_or(0.0);
    text.0 = format!(
        "units {}   plans/s {:.0}   latency {:.1} ticks (p99 {:.0})   collisions {}   FPS {:.0}   nav tick {}",
        units.iter().count(),
        average(&JpstDiagnostics::PLANS_PER_SECOND),
        value(&JpstDiagnostics::LATENCY_MEAN),
        value(&JpstDiagnostics::LATENCY_P99),
        collisions.total,
        value(&FrameTimeDiagnosticsPlugin::FPS),
        world.map_or(0, |w| w.tick),
    );
}

fn toggle_gizmos(keys: Res<ButtonInput<KeyCode>>, mut draw: ResMut<JpstDebugDraw>) {
    if keys.just_pressed(KeyCode::KeyG) {
        draw.enabled = !draw.enabled;
    }
}
