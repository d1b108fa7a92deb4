//! The `--out PREFIX` files of a sequential run: `PREFIX.md` (the report,
//! the command line and the date), `PREFIX.csv` (one row per query) and
//! `PREFIX.svg` (the speed-up chart).

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::chart;
use super::record::Study;

/// Writes the three files, creating the prefix's folder if needed.
pub fn write_all(prefix: &Path, study: &Study, markdown: &str) -> Result<(), String> {
    if let Some(dir) = prefix.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let md = format!(
        "# Sequential benchmark: {}\n\n```sh\n{}\n```\n\nRun on {}.\n\n{markdown}",
        prefix.file_name().unwrap_or_default().to_string_lossy(),
        command_line(),
        utc_now(),
    );
    write(&with_extension(prefix, "md"), &md)?;
    write(&with_extension(prefix, "csv"), &csv(study))?;
    chart::draw(&with_extension(prefix, "svg"), study)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `prefix.ext`, keeping any dot already in the prefix's name.
fn with_extension(prefix: &Path, ext: &str) -> PathBuf {
    let mut name = prefix.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    name.into()
}

/// One row per query: agent, already-planned agents, temporal cells, SIPP's
/// cost, whether the path was committed, then per planner the time (without
/// the heuristic build) and heuristic build time in microseconds, expansions
/// and generated nodes. Empty fields: not run, over budget, or no path.
pub fn csv(study: &Study) -> String {
    let mut out = String::from("agent,planned_before,temporal_cells,cost,committed");
    for name in &study.planners {
        let _ = write!(
            out,
            ",{name}_us,{name}_heuristic_us,{name}_expanded,{name}_generated"
        );
    }
    out.push('\n');
    for r in &study.records {
        let cost = r.cost.map(|c| c.to_string()).unwrap_or_default();
        let _ = write!(
            out,
            "{},{},{},{cost},{}",
            r.agent, r.planned_before, r.temporal_cells, r.committed
        );
        for run in &r.runs {
            match run {
                Some(run) => {
                    let _ = write!(
                        out,
                        ",{:.3},{},{},{}",
                        run.nanos as f64 / 1e3,
                        run.heuristic_micros,
                        run.expanded,
                        run.generated
                    );
                }
                None => out.push_str(",,,,"),
            }
        }
        out.push('\n');
    }
    out
}

/// The `cargo run` command that repeats this run, arguments quoted for a
/// POSIX shell where needed.
fn command_line() -> String {
    let mut line = String::from("cargo run --release --example bench --");
    for arg in std::env::args().skip(1) {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c));
        if plain {
            let _ = write!(line, " {arg}");
        } else {
            let _ = write!(line, " '{}'", arg.replace('\'', r"'\''"));
        }
    }
    line
}

/// The current date and time in UTC, `YYYY-MM-DD HH:MM UTC`.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (mut days, rest) = (secs / 86_400, secs % 86_400);
    let mut year = 1970;
    loop {
        let length = if is_leap(year) { 366 } else { 365 };
        if days < length {
            break;
        }
        days -= length;
        year += 1;
    }
    let february = if is_leap(year) { 29 } else { 28 };
    let lengths = [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 0;
    while days >= lengths[month] {
        days -= lengths[month];
        month += 1;
    }
    format!(
        "{year:04}-{:02}-{:02} {:02}:{:02} UTC",
        month + 1,
        days + 1,
        rest / 3600,
        rest % 3600 / 60
    )
}

fn is_leap(year: u64) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}
