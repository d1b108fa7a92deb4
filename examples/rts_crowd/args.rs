//! Command-line flags.

use std::path::PathBuf;

use bevy_jpst::search::PlannerKind;

/// How to call the example.
pub const USAGE: &str = concat!(
    "rts_crowd [--units N] [--map <file.map>] [--planner jpst|sipp|auto] ",
    "[--frames N [--screenshot <file.png>]]"
);

/// Parsed flags.
pub struct Args {
    /// Units at start (500 by default; `U` adds more, up to 2,000).
    pub units: usize,
    /// The MovingAI map.
    pub map: PathBuf,
    /// The plugin's planner (`auto` by default, as in the plugin).
    pub planner: PlannerKind,
    /// Smoke mode: run this many frames, then exit.
    pub frames: Option<u32>,
    /// Smoke mode: save a screenshot of the last frame here.
    pub screenshot: Option<PathBuf>,
}

impl Args {
    /// Reads the flags; an error names the bad one.
    pub fn parse(args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut out = Args {
            units: 500,
            map: PathBuf::from("assets/maps/den520d/den520d.map"),
            planner: PlannerKind::Auto,
            frames: None,
            screenshot: None,
        };
        let mut it = args;
        while let Some(flag) = it.next() {
            let value = it.next().ok_or(format!("{flag} needs a value"))?;
            let number = |v: &str| v.parse::<u64>().map_err(|_| format!("bad {flag} {v:?}"));
            match flag.as_str() {
                "--units" => out.units = number(&value)? as usize,
                "--frames" => out.frames = Some(number(&value)? as u32),
                "--map" => out.map = value.into(),
                "--planner" => out.planner = value.parse()?,
                "--screenshot" => out.screenshot = Some(value.into()),
                other => return Err(format!("unknown argument {other:?}")),
            }
        }
        if out.units > crate::units::MAX_UNITS {
            return Err(format!("at most {} units", crate::units::MAX_UNITS));
        }
        if out.screenshot.is_some() && out.frames.is_none() {
            return Err("--screenshot needs --frames".into());
        }
        Ok(out)
    }
}
