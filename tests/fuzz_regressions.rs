//! Replays the saved fuzz inputs of `tests/data/fuzz/<target>/` through the
//! checks of the `cargo fuzz` targets in `fuzz/` (shared in
//! `tests/fuzz_checks/mod.rs`), so they run in a plain `cargo test` without
//! cargo-fuzz or a nightly compiler.
//!
//! `parse_map`, `parse_scen` and `parse_instance` files are raw fuzzer
//! inputs. `planners` files are worlds as text (`fuzz_checks::world_text`):
//! the raw bytes of that target need the `arbitrary` crate to decode, and the
//! target prints this text for any input it fails on.

mod fuzz_checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Inputs of `target` that show a known bug, checked by their own ignored
/// test instead of the per-target one (file names under
/// `tests/data/fuzz/<target>/`).
const KNOWN_BUGS: &[(&str, &str)] = &[];

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file())
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !KNOWN_BUGS.contains(&(target, name))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    files
}

/// Runs `check` on every input of `target`; fails naming each input whose
/// check panicked.
fn replay(target: &str, check: fn(&[u8])) {
    let mut failed = Vec::new();
    for path in inputs(target) {
        let data = std::fs::read(&path).expect("readable input");
        if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "{target}: failing inputs {failed:#?}");
}

#[test]
fn parse_map_inputs() {
    replay("parse_map", fuzz_checks::check_map);
}

#[test]
fn parse_scen_inputs() {
    replay("parse_scen", fuzz_checks::check_scen);
}

#[test]
fn parse_instance_inputs() {
    replay("parse_instance", fuzz_checks::check_instance);
}

#[test]
fn planners_inputs() {
    replay("planners", fuzz_checks::check_world_file);
}

/// The world text round-trips, so a failure the fuzzer prints replays here.
#[test]
fn world_files_round_trip() {
    for path in inputs("planners") {
        let text = std::fs::read_to_string(&path).expect("a text file");
        let (grid, instance, jump_limit) =
            fuzz_checks::parse_world(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written = fuzz_checks::world_text(grid.walls(), &instance, jump_limit);
        let (_, again, again_limit) = fuzz_checks::parse_world(&written).expect("written world");
        assert_eq!(
            (again, again_limit),
            (instance, jump_limit),
            "{}",
            path.display()
        );
    }
}
