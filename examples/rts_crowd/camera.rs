//! The camera: pan with WASD/arrows or a middle-button drag, zoom with the
//! wheel towards the cursor.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::map::{GameMap, TILE};

/// Spawns and steers the camera.
pub struct CameraPlugin {
    /// What the camera shows first.
    pub start: CameraStart,
}

/// What the camera shows first.
#[derive(Resource, Clone, Copy, Debug)]
pub enum CameraStart {
    /// The whole map.
    WholeMap,
    /// Both teams' bases, close enough to see single units.
    Bases,
}

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.start)
            .add_systems(Startup, spawn_camera)
            .add_systems(Update, (pan, zoom));
    }
}

fn spawn_camera(mut commands: Commands, map: Res<GameMap>, view: Res<CameraStart>) {
    let (centre, scale) = match *view {
        // The whole map fits the 720-pixel-high window.
        CameraStart::WholeMap => (
            Vec2::ZERO,
            (map.walls.height().max(map.walls.width()) as f32 * TILE / 700.0).max(0.1),
        ),
        // Both bases in view, units a few pixels wide.
        CameraStart::Bases => {
            let [a, b] = [map.base(0), map.base(1)].map(|c| map.cell_centre(c));
            (
                (a + b) / 2.0,
                ((a - b).abs().max_element() + 40.0 * TILE) / 1280.0,
            )
        }
    };
    commands.spawn((
        Transform::from_translation(centre.extend(0.0)),
        Camera2d,
        // Tiles and units are axis-aligned squares: no need for multisampling,
        // which software renderers pay dearly for.
        Msaa::Off,
        Projection::Orthographic(OrthographicProjection {
            scale,
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// The world position under the mouse cursor, if it is over the window.
pub fn cursor_world(
    window: &Window,
    camera: &Camera,
    camera_transform: &GlobalTransform,
) -> Option<Vec2> {
    let cursor = window.cursor_position()?;
    camera.viewport_to_world_2d(camera_transform, cursor).ok()
}

fn scale_of(projection: &Projection) -> f32 {
    match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    }
}

fn pan(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    time: Res<Time>,
    mut camera: Single<(&mut Transform, &Projection), With<Camera2d>>,
) {
    let (ref mut transform, projection) = *camera;
    let scale = scale_of(projection);
    let mut dir = Vec2::ZERO;
    for (key, alt, d) in [
        (KeyCode::KeyW, KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::KeyS, KeyCode::ArrowDown, Vec2::NEG_Y),
        (KeyCode::KeyA, KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::KeyD, KeyCode::ArrowRight, Vec2::X),
    ] {
        if keys.pressed(key) || keys.pressed(alt) {
            dir += d;
        }
    }
    let mut shift = dir.normalize_or_zero() * 600.0 * scale * time.delta_secs();
    if buttons.pressed(MouseButton::Middle) {
        shift += Vec2::new(-motion.delta.x, motion.delta.y) * scale;
    }
    transform.translation += shift.extend(0.0);
}

fn zoom(
    scroll: Res<AccumulatedMouseScroll>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<
        (&Camera, &GlobalTransform, &mut Transform, &mut Projection),
        With<Camera2d>,
    >,
) {
    if scroll.delta.y == 0.0 {
        return;
    }
    let steps = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    let (camera, global, ref mut transform, ref mut projection) = *camera;
    let before = cursor_world(&window, camera, global);
    let Projection::Orthographic(ortho) = &mut **projection else {
        return;
    };
    let old = ortho.scale;
    ortho.scale = (old * 0.85f32.powf(steps)).clamp(0.1, 20.0);
    // Keep the point under the cursor where it is.
    if let Some(p) = before {
        let centre = transform.translation.truncate();
        let moved = centre + (p - centre) * (1.0 - ortho.scale / old);
        transform.translation = moved.extend(transform.translation.z);
    }
}
