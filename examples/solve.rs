//! Headless solver: answers every query of an instance file.
//!
//! ```text
//! cargo run --release --example solve -- <instance> [--planner jpst|sipp|auto|astar]
//!     [--heuristic manhattan|perfect] [--paths]
//! ```
//!
//! Prints one `query` line per query, in order, and with `--paths` a `path`
//! line after each `cost` line (format: `docs/instance-format.md`). Errors go
//! to standard error with a non-zero exit status.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use bevy_jpst::io::{Instance, write_answers};
use bevy_jpst::search::{Heuristic, PlannerKind};

const USAGE: &str = "usage: solve <instance> [--planner jpst|sipp|auto|astar] \
                     [--heuristic manhattan|perfect] [--paths]";

/// What the command line asks for.
struct Options {
    instance: PathBuf,
    planner: PlannerKind,
    heuristic: Heuristic,
    paths: bool,
}

/// Reads the arguments (without the program name). `Ok(None)` means help was
/// asked for.
fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut instance = None;
    let mut planner = PlannerKind::Jpst;
    let mut heuristic = Heuristic::Manhattan;
    let mut paths = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--paths" => paths = true,
            "--planner" => {
                let name = args.next().ok_or("--planner needs a value")?;
                planner = name.parse()?;
            }
            "--heuristic" => {
                let name = args.next().ok_or("--heuristic needs a value")?;
                heuristic = match name.as_str() {
                    "manhattan" => Heuristic::Manhattan,
                    "perfect" => Heuristic::Perfect2D,
                    _ => return Err(format!("unknown heuristic `{name}` (manhattan or perfect)")),
                };
            }
            flag if flag.starts_with('-') && flag.len() > 1 => {
                return Err(format!("unknown option `{flag}`"));
            }
            path if instance.is_none() => instance = Some(PathBuf::from(path)),
            extra => return Err(format!("unexpected argument `{extra}`")),
        }
    }
    let instance = instance.ok_or("missing the instance file")?;
    Ok(Some(Options {
        instance,
        planner,
        heuristic,
        paths,
    }))
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("solve: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (instance, grid) = match Instance::read(&options.instance) {
        Ok(read) => read,
        Err(error) => {
            eprintln!("solve: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut planner = options.planner.build(options.heuristic);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = write_answers(&instance, &grid, planner.as_mut(), options.paths, &mut out)
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("solve: cannot write the answers: {error}");
            ExitCode::FAILURE
        }
    }
}
