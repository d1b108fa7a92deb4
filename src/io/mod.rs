//! Reading and writing files: MovingAI `.map` and `.scen` benchmark files,
//! the crate's instance format (`docs/instance-format.md`) and the solver's
//! output lines, plus prioritised-planning workloads built from scenarios.
//! Pure Rust, no Bevy.
//!
//! Every reader returns a [`FormatError`] naming the file and the line.

mod error;
mod fields;
mod instance;
mod instance_parse;
mod map;
mod prioritised;
mod scen;
mod solution;
mod solve;

pub use error::FormatError;
pub use instance::{Block, INSTANCE_HEADER, Instance, Obstacle};
pub use map::{parse_map, parse_map_within, read_map, read_map_within};
pub use prioritised::{PrioritisedWorkload, prioritised_instance, prioritised_obstacles};
pub use scen::{ScenarioEntry, parse_scen, read_scen};
pub use solution::{SolutionLine, answer_line, parse_solution, path_line};
pub use solve::{solve_instance, write_answers};
