//! The checks the `cargo fuzz` targets in `fuzz/` run on each input, shared
//! with `tests/fuzz_regressions.rs` so saved inputs replay in a plain
//! `cargo test`. Every check panics on a bug and returns quietly otherwise.
//!
//! The fuzz targets include this file with `#[path]`; it uses only
//! `bevy_jpst` and std.
#![allow(dead_code)]

use bevy_jpst::grid::{Cell, Dir, NavGrid, StaticGrid};
use bevy_jpst::io::{FormatError, Instance, parse_map, parse_scen};
use bevy_jpst::search::{
    Heuristic, Jpst, Plan, PlanError, Planner, Query, Sipp, TimeExpandedAStar, validate_path,
};

/// Largest map (in cells) the map check writes back and re-reads.
const ROUND_TRIP_CELLS: u64 = 1 << 16;

/// The 1-based number of the last line of `text` as the readers count lines
/// (an error may point one past it, where a missing line was expected).
fn line_count(text: &str) -> usize {
    text.lines().count()
}

fn check_error_line(e: &FormatError, text: &str) {
    assert!(!e.message.is_empty(), "empty error message: {e:?}");
    assert!(
        e.line <= line_count(text) + 1,
        "error line {} past the end of a {}-line input: {e}",
        e.line,
        line_count(text)
    );
}

/// A map as MovingAI `.map` text (`.` walkable, `@` wall).
pub fn map_text(walls: &StaticGrid) -> String {
    let mut text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        walls.height(),
        walls.width()
    );
    for y in 0..walls.height() {
        for x in 0..walls.width() {
            text.push(if walls.is_passable(Cell::new(x, y)) {
                '.'
            } else {
                '@'
            });
        }
        text.push('\n');
    }
    text
}

/// `parse_map` on arbitrary bytes: `Ok` or `Err`, never a panic; a parsed map
/// has a supported size and reads back the same from the text written for it.
pub fn check_map(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match parse_map(&text, "fuzz.map") {
        Ok(grid) => {
            let (w, h) = (grid.width() as u64, grid.height() as u64);
            assert!(StaticGrid::check_size(w, h).is_ok(), "parsed a {w}x{h} map");
            assert!(grid.passable_count() <= w * h);
            assert!(
                text.lines().count() as u64 >= h + 4,
                "{h} rows from too few lines"
            );
            if w * h <= ROUND_TRIP_CELLS {
                let again = parse_map(&map_text(&grid), "again.map")
                    .unwrap_or_else(|e| panic!("written map does not parse: {e}"));
                assert_eq!(
                    (again.width(), again.height()),
                    (grid.width(), grid.height())
                );
                for y in 0..grid.height() {
                    for x in 0..grid.width() {
                        let c = Cell::new(x, y);
                        assert_eq!(again.is_passable(c), grid.is_passable(c), "cell {c}");
                    }
                }
            }
        }
        Err(e) => {
            assert_eq!(e.file, "fuzz.map");
            check_error_line(&e, &text);
        }
    }
}

/// `parse_scen` on arbitrary bytes: `Ok` or `Err`, never a panic; parsed
/// rows are inside their declared maps and read back the same.
pub fn check_scen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match parse_scen(&text, "fuzz.scen") {
        Ok(rows) => {
            let mut again = String::from("version 1\n");
            for r in &rows {
                assert!(r.start.x < r.map_width && r.start.y < r.map_height, "{r:?}");
                assert!(r.goal.x < r.map_width && r.goal.y < r.map_height, "{r:?}");
                assert!(r.optimal_length.is_finite() && r.optimal_length >= 0.0);
                assert!(!r.map.is_empty() && !r.map.contains([' ', '\t']), "{r:?}");
                again.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    r.bucket,
                    r.map,
                    r.map_width,
                    r.map_height,
                    r.start.x,
                    r.start.y,
                    r.goal.x,
                    r.goal.y,
                    r.optimal_length
                ));
            }
            let reread = parse_scen(&again, "again.scen")
                .unwrap_or_else(|e| panic!("written scenario does not parse: {e}\n{again}"));
            assert_eq!(reread, rows, "scenario changed when written and read back");
        }
        Err(e) => {
            assert_eq!(e.file, "fuzz.scen");
            check_error_line(&e, &text);
        }
    }
}

/// The corridor of `tests/data/t3_corridor.map`: the instance target's map
/// for any name that is not `<w>x<h>`, `missing*` or `broken*`.
const CORRIDOR: &str = "type octile\nheight 3\nwidth 10\nmap\n@@@@@@@@@@\n..........\n@@.@@@@@@@\n";

/// The maps an instance under fuzzing can name: `<w>x<h>` (sides 1..=16) is
/// an open map, `missing*` cannot be read, `broken*` is malformed at its line
/// 3, anything else is the T3 corridor.
pub fn fuzz_map(name: &str) -> Result<StaticGrid, FormatError> {
    if let Some((w, h)) = name.split_once('x')
        && let (Ok(w), Ok(h)) = (w.parse::<u32>(), h.parse::<u32>())
        && (1..=16).contains(&w)
        && (1..=16).contains(&h)
    {
        return Ok(StaticGrid::open(w, h).expect("small map"));
    }
    if name.starts_with("missing") {
        return Err(FormatError::whole_file(name, "cannot read map: not found"));
    }
    if name.starts_with("broken") {
        return Err(FormatError::new(name, 3, "width x is not a number"));
    }
    Ok(parse_map(CORRIDOR, name).expect("the corridor parses"))
}

/// Asserts that two worlds on the same walls have the same temporal
/// obstacles, as far as `instance` can tell: blocked and safe intervals of
/// every cell, the horizon, and the departures at the obstacles' ticks.
fn assert_same_world(a: &NavGrid, b: &NavGrid, instance: &Instance) {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let (ta, tb) = (a.obstacles(), b.obstacles());
    assert_eq!(ta.horizon(), tb.horizon(), "horizon");
    for i in 0..a.walls().cell_count() {
        let c = a.walls().cell_at(i);
        assert_eq!(a.walls().is_passable(c), b.walls().is_passable(c));
        assert_eq!(
            ta.blocked_intervals(i),
            tb.blocked_intervals(i),
            "blocks of {c}"
        );
        assert_eq!(
            ta.safe_intervals(i),
            tb.safe_intervals(i),
            "safe intervals of {c}"
        );
    }
    for o in &instance.obstacles {
        for (k, cell) in o.cells.iter().enumerate() {
            let i = a.walls().index(*cell);
            let t = o.t0 + k as u32;
            for tick in [t.saturating_sub(1), t, t.saturating_add(1)] {
                for dir in Dir::ALL {
                    assert_eq!(
                        ta.departs(i, tick, dir),
                        tb.departs(i, tick, dir),
                        "departure {cell} {tick} {dir:?}"
                    );
                }
            }
        }
    }
}

/// `Instance::parse` on arbitrary bytes (maps from [`fuzz_map`]): `Ok` or
/// `Err`, never a panic. A parsed instance writes back (`to_text`) to text
/// that parses to an equal instance, and `build_grid` on its walls gives the
/// world the reader built.
pub fn check_instance(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Instance::parse(&text, "fuzz.instance", &mut fuzz_map) {
        Ok((instance, grid)) => {
            assert!(
                !instance.map.is_empty() && !instance.map.contains([' ', '\t']),
                "map name {:?}",
                instance.map
            );
            let walls = fuzz_map(&instance.map).expect("the map loaded once");
            assert_eq!(
                (grid.width(), grid.height()),
                (walls.width(), walls.height())
            );
            for q in &instance.queries {
                assert!(grid.walls().contains(q.start) && grid.walls().contains(q.goal));
                assert_eq!(q.budget, None);
            }
            let written = instance.to_text();
            let (again, again_grid) = Instance::parse(&written, "again.instance", &mut fuzz_map)
                .unwrap_or_else(|e| panic!("to_text output does not parse: {e}\n{written}"));
            assert_eq!(
                again, instance,
                "instance changed when written and read back\n{written}"
            );
            assert_eq!(again.to_text(), written);
            let built = instance
                .build_grid(grid.walls().clone())
                .unwrap_or_else(|e| panic!("build_grid refused a parsed instance: {e}"));
            assert_same_world(&grid, &built, &instance);
            assert_same_world(&grid, &again_grid, &instance);
        }
        Err(e) => {
            if e.file == "fuzz.instance" {
                check_error_line(&e, &text);
            } else {
                // A map error, reported at the map's own line.
                assert!(
                    e.file.starts_with("broken"),
                    "error names {:?}: {e}",
                    e.file
                );
                assert_eq!(e.line, 3);
            }
        }
    }
}

/// Every planner configuration the `planners` target compares; the first
/// (time-expanded A*) is the reference.
pub fn planners(jump_limit: u32) -> Vec<(String, Box<dyn Planner>)> {
    let mut all: Vec<(String, Box<dyn Planner>)> = Vec::new();
    for h in [Heuristic::Manhattan, Heuristic::Perfect2D] {
        all.push((format!("astar/{h:?}"), Box::new(TimeExpandedAStar::new(h))));
    }
    for h in [Heuristic::Manhattan, Heuristic::Perfect2D] {
        all.push((format!("sipp/{h:?}"), Box::new(Sipp::new(h))));
    }
    for h in [Heuristic::Manhattan, Heuristic::Perfect2D] {
        all.push((format!("jpst/{h:?}"), Box::new(Jpst::new(h))));
        all.push((
            format!("jpst/{h:?}/jump-limit-{jump_limit}"),
            Box::new(Jpst::new(h).with_jump_limit(jump_limit)),
        ));
        all.push((
            format!("jpst/{h:?}/speculative-wait"),
            Box::new(Jpst::new(h).with_speculative_wait(true)),
        ));
        all.push((
            format!("jpst/{h:?}/no-static-first"),
            Box::new(Jpst::new(h).with_static_first(false)),
        ));
        all.push((
            format!("jpst/{h:?}/temporal-search-only"),
            Box::new(Jpst::new(h).with_static_first(false).with_flood(false)),
        ));
    }
    all
}

/// The answer of one planner, reduced to what all must agree on.
fn summary(answer: &Result<Plan, PlanError>) -> Result<u32, PlanError> {
    answer.as_ref().map(|p| p.cost()).map_err(|e| e.clone())
}

/// Runs every planner of [`planners`] on `query` (each twice, reusing its
/// buffers): all must give the same cost or the same error (the same path
/// too when asked again, but for JPST), and every path
/// must be well formed and pass `validate_path`. `context` describes the
/// world for the panic message.
pub fn check_planners(
    grid: &NavGrid,
    query: &Query,
    jump_limit: u32,
    context: &dyn Fn() -> String,
) {
    let mut reference: Option<(String, Result<u32, PlanError>)> = None;
    for (name, mut planner) in planners(jump_limit) {
        let answer = planner.plan(grid, query);
        if let Ok(plan) = &answer {
            check_plan(grid, query, plan, &name, context);
        }
        let again = planner.plan(grid, query);
        // JPST's cheaper stages are tried or not from the queries before
        // (`Jpst::with_static_first`), so asked again it may take another
        // path of the same cost; the other planners keep no such history.
        let keeps_history = name.starts_with("jpst");
        let same = match (&answer, &again) {
            (Ok(a), Ok(b)) if keeps_history => a.cost() == b.cost(),
            (Ok(a), Ok(b)) => a.waypoints == b.waypoints,
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        assert!(
            same,
            "{name} answers differently the second time: {:?} then {:?}\nquery {query:?}\n{}",
            answer.as_ref().map(|p| &p.waypoints),
            again.as_ref().map(|p| &p.waypoints),
            context()
        );
        let answer = summary(&answer);
        match &reference {
            None => reference = Some((name, answer)),
            Some((ref_name, expected)) => assert!(
                answer == *expected,
                "{name} answers {answer:?}, {ref_name} answers {expected:?}\nquery {query:?}\n{}",
                context()
            ),
        }
    }
}

fn check_plan(
    grid: &NavGrid,
    query: &Query,
    plan: &Plan,
    name: &str,
    context: &dyn Fn() -> String,
) {
    let fail = |what: String| -> ! {
        panic!(
            "{name} returned a bad plan: {what}\nquery {query:?}\nwaypoints {:?}\n{}",
            plan.waypoints,
            context()
        )
    };
    let Some(first) = plan.waypoints.first() else {
        fail("no waypoint".into())
    };
    if first.tick != query.start_tick {
        fail(format!("starts at tick {}", first.tick));
    }
    for pair in plan.waypoints.windows(2) {
        if pair[1].tick < pair[0].tick
            || pair[1].tick - pair[0].tick < pair[0].cell.manhattan(pair[1].cell)
        {
            fail(format!(
                "waypoints {:?} -> {:?} too close in time",
                pair[0], pair[1]
            ));
        }
    }
    let cells = plan.cells();
    if let Err(v) = validate_path(grid, query, &cells, plan.cost()) {
        fail(format!("invalid path {v:?}: {cells:?}"));
    }
}

/// The jump limit of a world file without a `# jump-limit` line.
pub const DEFAULT_JUMP_LIMIT: u32 = 3;

/// A `planners` world as text: the walls as a `.map`, a `---` line, then an
/// instance (map name `inline`) with a `# jump-limit <n>` comment. This is
/// the form `tests/data/fuzz/planners/` keeps inputs in, since the raw
/// fuzzer bytes need the `arbitrary` crate to decode.
/// A query with a cell off the map (which the target also tries) does not
/// survive this form: the instance reader refuses it.
pub fn world_text(walls: &StaticGrid, instance: &Instance, jump_limit: u32) -> String {
    let body = instance.to_text();
    let (header, rest) = body.split_once('\n').expect("to_text has a header line");
    format!(
        "{}---\n{header}\n# jump-limit {jump_limit}\n{rest}",
        map_text(walls)
    )
}

/// Reads [`world_text`] back: the world, the instance and the jump limit.
pub fn parse_world(text: &str) -> Result<(NavGrid, Instance, u32), FormatError> {
    let (map, rest) = text
        .split_once("\n---\n")
        .ok_or_else(|| FormatError::whole_file("world", "no `---` line"))?;
    let walls = parse_map(map, "world map")?;
    let jump_limit = rest
        .lines()
        .find_map(|l| l.trim().strip_prefix("# jump-limit "))
        .map_or(Ok(DEFAULT_JUMP_LIMIT), |n| {
            n.trim()
                .parse()
                .map_err(|_| FormatError::whole_file("world", "bad jump limit"))
        })?;
    let (instance, grid) = Instance::parse(rest, "world instance", &mut |_| Ok(walls.clone()))?;
    Ok((grid, instance, jump_limit))
}

/// The `planners` check on a saved world file: every query of the world.
pub fn check_world_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (grid, instance, jump_limit) =
        parse_world(&text).unwrap_or_else(|e| panic!("not a world file: {e}"));
    for query in &instance.queries {
        check_planners(&grid, query, jump_limit, &|| text.to_string());
    }
}
