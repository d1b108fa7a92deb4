//! Side-by-side benchmark of JPST, SIPP and time-expanded A* on a MovingAI
//! map with prioritised-planning obstacles. Two modes:
//!
//! ```text
//! cargo run --release --example bench -- --map assets/maps/den520d/den520d.map \
//!     --scen assets/maps/den520d/den520d-random-1.scen --obstacles 100 --queries 200
//! cargo run --release --example bench -- --mode sequential \
//!     --map assets/maps/Berlin_1_256/Berlin_1_256.map \
//!     --scen assets/maps/Berlin_1_256/Berlin_1_256-even-1.scen --agents 1000 --park \
//!     --out benchmarks/berlin-even-park
//! ```
//!
//! **Batch** (the default, `--mode batch`): the first `--obstacles` scenario
//! agents are planned one by one with SIPP (before any timing); their paths
//! become moving obstacles that vanish at their goals, or park there with
//! `--park`. The next `--queries` rows are then answered by every planner in
//! the same process, the costs are checked to be equal and every path is
//! validated, and a table per planner reports total and median time,
//! expansions and the speed ratio against SIPP.
//!
//! **Sequential** (`--mode sequential`), the prioritised-planning experiment
//! of the JPST literature: agents `0..--agents` of the scenario are planned in
//! order, each from its start at tick 0 (policy `Stay` with `--park`, else
//! `Arrive`), by JPST and SIPP (and time-expanded A* with `--astar`, the
//! plugin's default `AutoPlanner` with `--auto`) against
//! the paths of all earlier agents; SIPP's path then becomes a moving obstacle
//! for the agents after it. Costs must agree and every path must validate.
//! The report groups the queries by how many agents were already planned and
//! gives times, expansions and the JPST/SIPP speed-up per group; `--out
//! PREFIX` also writes `PREFIX.md`, `PREFIX.csv` (one row per query) and
//! `PREFIX.svg` (per-query speed-up chart).

mod bench {
    pub mod batch;
    pub mod chart;
    pub mod files;
    pub mod order;
    pub mod record;
    pub mod report;
    pub mod sequential;
}

use std::path::PathBuf;
use std::process::ExitCode;

use bevy_jpst::search::{Heuristic, Jpst, WalkingEstimate};

/// Which experiment to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Fixed obstacles, then timed queries (the original behaviour).
    Batch,
    /// Every agent is a timed query, then an obstacle for the next ones.
    Sequential,
}

/// The command line.
struct Args {
    /// The experiment.
    mode: Mode,
    /// MovingAI `.map` file.
    map: PathBuf,
    /// MovingAI `.scen` file.
    scen: PathBuf,
    /// Batch: scenario agents planned as obstacles before timing.
    obstacles: usize,
    /// Batch: timed queries after the obstacle agents.
    queries: usize,
    /// Sequential: scenario agents planned one after another.
    agents: usize,
    /// Obstacles park at their goals (and queries use `Stay`).
    park: bool,
    /// The heuristic of every planner.
    heuristic: Heuristic,
    /// Expansion budget of time-expanded A*.
    astar_budget: u64,
    /// Optional JPST jump limit in cells.
    jump_limit: Option<u32>,
    /// JPST expands its wait successors at once (off by default).
    speculative_wait: bool,
    /// JPST skips its first pass on the map without obstacles.
    no_static_first: bool,
    /// JPST skips its flood of the time-expanded grid.
    no_flood: bool,
    /// JPST's temporal search keeps the Manhattan estimate instead of
    /// walking distances.
    no_walking_estimate: bool,
    /// Sequential: also run time-expanded A*.
    astar: bool,
    /// Sequential: also run the plugin's default planner, `AutoPlanner`.
    auto: bool,
    /// Sequential: prefix of the `.md`, `.csv` and `.svg` outputs.
    out: Option<PathBuf>,
}

const USAGE: &str = "usage: bench [--mode batch] --map <file.map> --scen <file.scen> \
[--obstacles N] [--queries M] [--park] [--heuristic manhattan|perfect] \
[--astar-budget EXPANSIONS] [--jump-limit CELLS] [--speculative-wait] [--no-static-first] [--no-flood] \
[--no-walking-estimate]
       bench --mode sequential --map <file.map> --scen <file.scen> [--agents N] [--park] \
[--heuristic manhattan|perfect] [--astar] [--astar-budget EXPANSIONS] [--auto] \
[--jump-limit CELLS] [--speculative-wait] [--no-static-first] [--no-flood] [--no-walking-estimate] \
[--out PREFIX]";

/// Flags that only one mode understands.
const BATCH_ONLY: [&str; 2] = ["--obstacles", "--queries"];
const SEQUENTIAL_ONLY: [&str; 4] = ["--agents", "--astar", "--auto", "--out"];

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        mode: Mode::Batch,
        map: PathBuf::new(),
        scen: PathBuf::new(),
        obstacles: 100,
        queries: 200,
        agents: 100,
        park: false,
        heuristic: Heuristic::Manhattan,
        astar_budget: 2_000_000,
        jump_limit: None,
        speculative_wait: false,
        no_static_first: false,
        no_flood: false,
        no_walking_estimate: false,
        astar: false,
        auto: false,
        out: None,
    };
    let mut seen = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--mode" => {
                args.mode = match value()?.as_str() {
                    "batch" => Mode::Batch,
                    "sequential" => Mode::Sequential,
                    other => return Err(format!("unknown mode {other:?}")),
                }
            }
            "--map" => args.map = value()?.into(),
            "--scen" => args.scen = value()?.into(),
            "--obstacles" => args.obstacles = number(&value()?)?,
            "--queries" => args.queries = number(&value()?)?,
            "--agents" => args.agents = number(&value()?)?,
            "--astar-budget" => args.astar_budget = number(&value()?)?,
            "--jump-limit" => args.jump_limit = Some(number(&value()?)?),
            "--out" => args.out = Some(value()?.into()),
            "--park" => args.park = true,
            "--speculative-wait" => args.speculative_wait = true,
            "--no-static-first" => args.no_static_first = true,
            "--no-flood" => args.no_flood = true,
            "--no-walking-estimate" => args.no_walking_estimate = true,
            "--astar" => args.astar = true,
            "--auto" => args.auto = true,
            "--heuristic" => {
                args.heuristic = match value()?.as_str() {
                    "manhattan" => Heuristic::Manhattan,
                    "perfect" => Heuristic::Perfect2D,
                    other => return Err(format!("unknown heuristic {other:?}")),
                }
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
        seen.push(flag);
    }
    if args.map.as_os_str().is_empty() || args.scen.as_os_str().is_empty() {
        return Err("--map and --scen are required".into());
    }
    let foreign: &[&str] = match args.mode {
        Mode::Batch => &SEQUENTIAL_ONLY,
        Mode::Sequential => &BATCH_ONLY,
    };
    if let Some(flag) = seen.iter().find(|f| foreign.contains(&f.as_str())) {
        let mode = match args.mode {
            Mode::Batch => "batch",
            Mode::Sequential => "sequential",
        };
        return Err(format!("{flag} does not apply to {mode} mode"));
    }
    Ok(args)
}

impl Args {
    /// The JPST planner these options ask for.
    fn jpst(&self) -> Jpst {
        let mut jpst = Jpst::new(self.heuristic)
            .with_speculative_wait(self.speculative_wait)
            .with_static_first(!self.no_static_first)
            .with_flood(!self.no_flood)
            .with_walking_estimate(if self.no_walking_estimate {
                WalkingEstimate::Off
            } else {
                WalkingEstimate::Auto
            });
        if let Some(limit) = self.jump_limit {
            jpst = jpst.with_jump_limit(limit);
        }
        jpst
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("not a number: {text:?}"))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let outcome = match args.mode {
        Mode::Batch => bench::batch::run(&args),
        Mode::Sequential => bench::sequential::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
