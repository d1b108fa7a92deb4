//! Problem instances (`*.instance`): a map, scheduled blocks, moving
//! obstacles and path queries, in the line format of
//! `docs/instance-format.md`:
//!
//! ```text
//! jpst-instance 1
//! map <file>
//! block <x> <y> <from> <to>
//! obstacle <t0> <vanish|park> <x>,<y> [<x>,<y> ...]
//! query <sx> <sy> <gx> <gy> [<start>] [arrive|stay]
//! ```
//!
//! The reader is in `instance_parse.rs`; this file holds the types and the
//! writer.

use std::fmt::Write as _;
use std::path::Path;

use super::error::FormatError;
use super::instance_parse::parse_instance;
use super::map::read_map;
use crate::grid::{Cell, GridError, NavGrid, ObstacleEnd, StaticGrid, Tick};
use crate::search::{GoalPolicy, Query};

/// The first line of every instance file.
pub const INSTANCE_HEADER: &str = "jpst-instance 1";

/// A `block` line: `cell` is impassable for the ticks `from <= t < to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// The blocked cell.
    pub cell: Cell,
    /// First blocked tick.
    pub from: Tick,
    /// First free tick again (`> from`, `< u32::MAX`), or `None` for `inf`:
    /// blocked for ever from `from` on.
    pub to: Option<Tick>,
}

/// An `obstacle` line: a moving obstacle on `cells[k]` at tick `t0 + k`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Obstacle {
    /// The tick of the first cell.
    pub t0: Tick,
    /// What happens after the last cell: it vanishes or parks there.
    pub end: ObstacleEnd,
    /// One cell per tick; consecutive cells are equal (a wait) or 4-adjacent.
    pub cells: Vec<Cell>,
}

/// A parsed instance file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The map file as written in the instance (relative to the instance
    /// file's folder unless absolute). It must not be empty nor contain
    /// spaces, tabs or carriage returns, or [`to_text`](Instance::to_text)
    /// cannot write it back (the reader refuses such names).
    pub map: String,
    /// Scheduled blocks, in file order.
    pub blocks: Vec<Block>,
    /// Moving obstacles, in file order.
    pub obstacles: Vec<Obstacle>,
    /// Path requests, numbered from 0 in file order. The file format has no
    /// expansion budget, so parsed queries have `budget: None` and the writer
    /// drops any budget.
    pub queries: Vec<Query>,
}

impl Instance {
    /// Reads an instance file and the map it names (relative to the folder of
    /// `path`), and builds the planning world.
    ///
    /// Errors name the file and line: a problem inside the map file is
    /// reported at the map's own line, with the instance line that named it
    /// in the message; a map file that cannot be read is reported at the
    /// instance's `map` line.
    pub fn read(path: &Path) -> Result<(Instance, NavGrid), FormatError> {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| FormatError::whole_file(&source, format!("cannot read instance: {e}")))?;
        let folder = path.parent().unwrap_or(Path::new(""));
        Self::parse(&text, &source, &mut |map| read_map(&folder.join(map)))
    }

    /// Parses the text of an instance file; `source` names it in errors and
    /// `load_map` turns the `map` line's file name into walls.
    ///
    /// Returns the instance as written and the world it describes: the walls
    /// with every block and obstacle added.
    pub fn parse(
        text: &str,
        source: &str,
        load_map: &mut dyn FnMut(&str) -> Result<StaticGrid, FormatError>,
    ) -> Result<(Instance, NavGrid), FormatError> {
        parse_instance(text, source, load_map)
    }

    /// The world this instance describes on top of `walls`: every block and
    /// obstacle added, in file order.
    pub fn build_grid(&self, walls: StaticGrid) -> Result<NavGrid, GridError> {
        let mut grid = NavGrid::new(walls);
        for block in &self.blocks {
            grid.add_block(block.cell, block.from, block.to)?;
        }
        for obstacle in &self.obstacles {
            grid.add_obstacle(obstacle.t0, &obstacle.cells, obstacle.end)?;
        }
        Ok(grid)
    }

    /// The instance in the file format: the header, the `map` line, then the
    /// blocks, obstacles and queries in order. Query lines always carry the
    /// start tick and the policy. Parsing the text gives back `self` (minus
    /// any query budget) whenever `self` is valid for its map.
    pub fn to_text(&self) -> String {
        let mut text = format!("{INSTANCE_HEADER}\nmap {}\n", self.map);
        // Writing into a String cannot fail.
        for b in &self.blocks {
            let to = b.to.map_or_else(|| "inf".to_string(), |t| t.to_string());
            let _ = writeln!(text, "block {} {} {} {to}", b.cell.x, b.cell.y, b.from);
        }
        for o in &self.obstacles {
            let _ = write!(text, "obstacle {} {}", o.t0, end_word(o.end));
            for c in &o.cells {
                let _ = write!(text, " {c}");
            }
            text.push('\n');
        }
        for q in &self.queries {
            let _ = writeln!(
                text,
                "query {} {} {} {} {} {}",
                q.start.x,
                q.start.y,
                q.goal.x,
                q.goal.y,
                q.start_tick,
                policy_word(q.policy)
            );
        }
        text
    }

    /// Writes [`to_text`](Instance::to_text) to `path`.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_text())
    }
}

/// The file word for an obstacle end.
pub(super) fn end_word(end: ObstacleEnd) -> &'static str {
    match end {
        ObstacleEnd::Vanish => "vanish",
        ObstacleEnd::Park => "park",
    }
}

/// The obstacle end a file word names.
pub(super) fn parse_end(word: &str) -> Option<ObstacleEnd> {
    match word {
        "vanish" => Some(ObstacleEnd::Vanish),
        "park" => Some(ObstacleEnd::Park),
        _ => None,
    }
}

/// The file word for a goal policy.
pub(super) fn policy_word(policy: GoalPolicy) -> &'static str {
    match policy {
        GoalPolicy::Arrive => "arrive",
        GoalPolicy::Stay => "stay",
    }
}

/// The goal policy a file word names.
pub(super) fn parse_policy(word: &str) -> Option<GoalPolicy> {
    match word {
        "arrive" => Some(GoalPolicy::Arrive),
        "stay" => Some(GoalPolicy::Stay),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Instance {
        Instance {
            map: "maps/room.map".into(),
            blocks: vec![
                Block {
                    cell: Cell::new(1, 2),
                    from: 3,
                    to: Some(7),
                },
                Block {
                    cell: Cell::new(0, 0),
                    from: 0,
                    to: None,
                },
            ],
            obstacles: vec![Obstacle {
                t0: 2,
                end: ObstacleEnd::Park,
                cells: vec![Cell::new(3, 1), Cell::new(3, 1), Cell::new(3, 2)],
            }],
            queries: vec![
                Query::new(Cell::new(0, 1), Cell::new(4, 3)),
                Query::new(Cell::new(4, 0), Cell::new(0, 3))
                    .starting_at(5)
                    .with_policy(GoalPolicy::Stay),
            ],
        }
    }

    #[test]
    fn writes_the_format() {
        assert_eq!(
            sample().to_text(),
            "jpst-instance 1\n\
             map maps/room.map\n\
             block 1 2 3 7\n\
             block 0 0 0 inf\n\
             obstacle 2 park 3,1 3,1 3,2\n\
             query 0 1 4 3 0 arrive\n\
             query 4 0 0 3 5 stay\n"
        );
    }

    #[test]
    fn round_trips() {
        let instance = sample();
        let mut load = |_: &str| Ok(StaticGrid::open(5, 4).unwrap());
        let (parsed, grid) = Instance::parse(&instance.to_text(), "x", &mut load).unwrap();
        assert_eq!(parsed, instance);
        assert!(!grid.is_free(Cell::new(0, 0), 100));
        assert!(!grid.is_free(Cell::new(1, 2), 6));
        assert!(grid.is_free(Cell::new(1, 2), 7));
        assert!(!grid.is_free(Cell::new(3, 2), 1000));
    }

    #[test]
    fn build_grid_matches_parse() {
        let instance = sample();
        let grid = instance
            .build_grid(StaticGrid::open(5, 4).unwrap())
            .unwrap();
        assert!(!grid.is_free(Cell::new(3, 1), 3));
        assert!(grid.is_free(Cell::new(3, 1), 5));
        let too_small = instance.build_grid(StaticGrid::open(2, 2).unwrap());
        assert!(too_small.is_err());
    }

    #[test]
    fn words_round_trip() {
        for end in [ObstacleEnd::Vanish, ObstacleEnd::Park] {
            assert_eq!(parse_end(end_word(end)), Some(end));
        }
        for policy in [GoalPolicy::Arrive, GoalPolicy::Stay] {
            assert_eq!(parse_policy(policy_word(policy)), Some(policy));
        }
        assert_eq!(parse_end("Park"), None);
        assert_eq!(parse_policy("wait"), None);
    }
}
