//! The instance-file reader. Every malformed line is an error naming the
//! file and the line; the world is built as the lines are read so that a
//! block or obstacle the grid refuses is reported at its own line.

use super::error::FormatError;
use super::fields::{Fields, numbered_lines, parse_u32};
use super::instance::{Block, INSTANCE_HEADER, Instance, Obstacle, parse_end, parse_policy};
use crate::grid::{Cell, FOREVER, GridError, NavGrid, StaticGrid};
use crate::search::{GoalPolicy, Query};

const BLOCK_USAGE: &str = "block <x> <y> <from> <to|inf>";
const OBSTACLE_USAGE: &str = "obstacle <t0> <vanish|park> <x>,<y> [<x>,<y> ...]";
const QUERY_USAGE: &str = "query <sx> <sy> <gx> <gy> [<start>] [arrive|stay]";

/// See [`Instance::parse`].
pub(super) fn parse_instance(
    text: &str,
    source: &str,
    load_map: &mut dyn FnMut(&str) -> Result<StaticGrid, FormatError>,
) -> Result<(Instance, NavGrid), FormatError> {
    let mut reader = Reader {
        source,
        load_map,
        version_seen: false,
        world: None,
        blocks: Vec::new(),
        obstacles: Vec::new(),
        queries: Vec::new(),
    };
    for (number, line) in numbered_lines(text) {
        let content = line.trim_start_matches([' ', '\t']);
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        reader.line(&Fields::new(source, number, line))?;
    }
    if !reader.version_seen {
        return Err(FormatError::whole_file(
            source,
            format!("no `{INSTANCE_HEADER}` line: the file holds no instance"),
        ));
    }
    let Some(world) = reader.world else {
        return Err(FormatError::whole_file(source, "no `map` line"));
    };
    let instance = Instance {
        map: world.map,
        blocks: reader.blocks,
        obstacles: reader.obstacles,
        queries: reader.queries,
    };
    Ok((instance, world.grid))
}

/// The map named so far and the world built from it.
struct World {
    map: String,
    /// The line of the `map` keyword.
    line: usize,
    grid: NavGrid,
}

struct Reader<'s, 'l> {
    source: &'s str,
    load_map: &'l mut dyn FnMut(&str) -> Result<StaticGrid, FormatError>,
    version_seen: bool,
    world: Option<World>,
    blocks: Vec<Block>,
    obstacles: Vec<Obstacle>,
    queries: Vec<Query>,
}

impl Reader<'_, '_> {
    fn line(&mut self, fields: &Fields<'_>) -> Result<(), FormatError> {
        let keyword = fields.get(0).unwrap_or_default();
        if !self.version_seen {
            return self.version(fields, keyword);
        }
        match keyword {
            "map" => self.map(fields),
            "block" => self.block(fields),
            "obstacle" => self.obstacle(fields),
            "query" => self.query(fields),
            "jpst-instance" => Err(fields.error("second `jpst-instance` line")),
            _ => Err(fields.error(format!(
                "unknown keyword `{keyword}` (expected `map`, `block`, `obstacle` or `query`)"
            ))),
        }
    }

    fn version(&mut self, fields: &Fields<'_>, keyword: &str) -> Result<(), FormatError> {
        if keyword != "jpst-instance" {
            return Err(fields.error(format!(
                "expected `{INSTANCE_HEADER}` as the first line, found `{keyword}`"
            )));
        }
        fields.expect_count(2, 2, INSTANCE_HEADER)?;
        let version = fields.get(1).unwrap_or_default();
        if version != "1" {
            return Err(fields.error(format!(
                "unsupported version `{version}` (this reader knows `{INSTANCE_HEADER}`)"
            )));
        }
        self.version_seen = true;
        Ok(())
    }

    fn map(&mut self, fields: &Fields<'_>) -> Result<(), FormatError> {
        if let Some(world) = &self.world {
            return Err(fields.error(format!(
                "second `map` line (the map is already set on line {})",
                world.line
            )));
        }
        fields.expect_count(2, 2, "map <file>")?;
        let map = fields.get(1).unwrap_or_default();
        // A name ending in `\r` would not survive `Instance::to_text`: the
        // reader takes `\r\n` as a line ending.
        if map.contains('\r') {
            return Err(fields.error("map file name contains a carriage return"));
        }
        let walls = (self.load_map)(map).map_err(|inner| self.map_error(fields.line(), inner))?;
        self.world = Some(World {
            map: map.to_string(),
            line: fields.line(),
            grid: NavGrid::new(walls),
        });
        Ok(())
    }

    /// A map problem, placed where the user can find it: in the map file
    /// when it has a line, else at the instance's `map` line.
    fn map_error(&self, line: usize, inner: FormatError) -> FormatError {
        if inner.line == 0 {
            FormatError::new(self.source, line, format!("cannot load the map: {inner}"))
        } else {
            FormatError {
                message: format!(
                    "{} (map named on line {line} of {})",
                    inner.message, self.source
                ),
                ..inner
            }
        }
    }

    /// The world, or an error when a line names a cell before the `map` line.
    fn world(&mut self, fields: &Fields<'_>) -> Result<&mut World, FormatError> {
        let keyword = fields.get(0).unwrap_or_default();
        self.world.as_mut().ok_or_else(|| {
            fields.error(format!(
                "`{keyword}` line before the `map` line (cells need a map)"
            ))
        })
    }

    fn block(&mut self, fields: &Fields<'_>) -> Result<(), FormatError> {
        let world = self.world(fields)?;
        fields.expect_count(5, 5, BLOCK_USAGE)?;
        let cell = Cell::new(fields.u32(1, "x")?, fields.u32(2, "y")?);
        let from = fields.u32(3, "from tick")?;
        let to = match fields.get(4) {
            Some("inf") => None,
            _ => Some(fields.u32(4, "to tick")?),
        };
        world
            .grid
            .add_block(cell, from, to)
            .map_err(|e| grid_error(fields, "block", e))?;
        self.blocks.push(Block { cell, from, to });
        Ok(())
    }

    fn obstacle(&mut self, fields: &Fields<'_>) -> Result<(), FormatError> {
        let world = self.world(fields)?;
        fields.expect_count(4, usize::MAX, OBSTACLE_USAGE)?;
        let t0 = fields.u32(1, "start tick t0")?;
        let mode = fields.get(2).unwrap_or_default();
        let end = parse_end(mode).ok_or_else(|| {
            fields.error(format!(
                "obstacle end `{mode}` is neither `vanish` nor `park`"
            ))
        })?;
        let cells = (3..fields.len())
            .map(|i| fields.cell(i, "obstacle cell"))
            .collect::<Result<Vec<_>, _>>()?;
        world
            .grid
            .add_obstacle(t0, &cells, end)
            .map_err(|e| grid_error(fields, "obstacle", e))?;
        self.obstacles.push(Obstacle { t0, end, cells });
        Ok(())
    }

    fn query(&mut self, fields: &Fields<'_>) -> Result<(), FormatError> {
        let world = self.world(fields)?;
        fields.expect_count(5, 7, QUERY_USAGE)?;
        let cell = |at: usize, what: &str| -> Result<Cell, FormatError> {
            let cell = Cell::new(fields.u32(at, "x")?, fields.u32(at + 1, "y")?);
            if world.grid.walls().contains(cell) {
                Ok(cell)
            } else {
                Err(fields.error(format!(
                    "query {what} ({cell}) is off the {}x{} map",
                    world.grid.width(),
                    world.grid.height()
                )))
            }
        };
        let start = cell(1, "start")?;
        let goal = cell(3, "goal")?;
        let (start_tick, policy) = match fields.tokens()[5..] {
            [] => (0, GoalPolicy::Arrive),
            [word] => match parse_policy(word) {
                Some(policy) => (0, policy),
                None => (start_tick(fields, word)?, GoalPolicy::Arrive),
            },
            [tick, word] => (start_tick(fields, tick)?, policy(fields, word)?),
            _ => unreachable!("expect_count allows at most 7 fields"),
        };
        self.queries.push(Query {
            start,
            goal,
            start_tick,
            policy,
            budget: None,
            horizon: None,
        });
        Ok(())
    }
}

fn start_tick(fields: &Fields<'_>, token: &str) -> Result<u32, FormatError> {
    let tick = parse_u32(token, "start tick")
        .map_err(|m| fields.error(format!("{m}; expected `{QUERY_USAGE}`")))?;
    if tick == FOREVER {
        return Err(fields.error(GridError::TickOverflow.to_string()));
    }
    Ok(tick)
}

fn policy(fields: &Fields<'_>, word: &str) -> Result<GoalPolicy, FormatError> {
    parse_policy(word).ok_or_else(|| {
        fields.error(format!(
            "goal policy `{word}` is neither `arrive` nor `stay`"
        ))
    })
}

fn grid_error(fields: &Fields<'_>, what: &str, error: GridError) -> FormatError {
    fields.error(format!("{what}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::ObstacleEnd;

    fn open_map(name: &str) -> Result<StaticGrid, FormatError> {
        assert_eq!(name, "m.map");
        Ok(StaticGrid::open(6, 4).unwrap())
    }

    fn parse(text: &str) -> Result<(Instance, NavGrid), FormatError> {
        Instance::parse(text, "t.instance", &mut open_map)
    }

    fn error_line(text: &str) -> usize {
        let e = parse(text).unwrap_err();
        assert_eq!(e.file, "t.instance", "{e}");
        e.line
    }

    #[test]
    fn parses_all_line_kinds_with_comments_and_blank_lines() {
        let text = "# a comment\n\n  jpst-instance\t1\r\n  # indented comment\nmap m.map\n\
                    block 1 1 2 inf\nblock 2 2 0 5\n\
                    obstacle 3 vanish 0,0 1,0 1,0 1,1\n\
                    query 0 3 5 3\nquery 0 3 5 3 7\nquery 0 3 5 3 stay\nquery 0 3 5 3 2 arrive\n";
        let (instance, grid) = parse(text).unwrap();
        assert_eq!(instance.map, "m.map");
        assert_eq!(instance.blocks.len(), 2);
        assert_eq!(instance.blocks[0].to, None);
        assert_eq!(instance.obstacles[0].end, ObstacleEnd::Vanish);
        assert_eq!(instance.obstacles[0].cells.len(), 4);
        let q = &instance.queries;
        assert_eq!((q[0].start_tick, q[0].policy), (0, GoalPolicy::Arrive));
        assert_eq!((q[1].start_tick, q[1].policy), (7, GoalPolicy::Arrive));
        assert_eq!((q[2].start_tick, q[2].policy), (0, GoalPolicy::Stay));
        assert_eq!((q[3].start_tick, q[3].policy), (2, GoalPolicy::Arrive));
        assert!(!grid.is_free(Cell::new(1, 0), 5));
        assert!(grid.is_free(Cell::new(1, 0), 6));
        assert!(grid.is_free(Cell::new(2, 2), 5));
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let head = "jpst-instance 1\nmap m.map\n";
        for bad in [
            "blok 1 1 0 1",
            "block 1 1 0",
            "block 1 1 0 1 2",
            "block 1 x 0 1",
            "block 1 1 -1 1",
            "block 6 1 0 1",
            "block 1 1 3 3",
            "block 1 1 0 4294967295",
            "block 1 1 0 4294967296",
            "obstacle 0 vanish",
            "obstacle 0 fly 1,1",
            "obstacle x park 1,1",
            "obstacle 0 park 1,1 1;2",
            "obstacle 0 park 1,1 2,2",
            "obstacle 0 park 1,1 1,4",
            "obstacle 4294967294 park 1,1 1,2",
            "obstacle 4294967295 park 1,1",
            "query 0 0 1",
            "query 0 0 1 1 0 arrive 3",
            "query 0 0 6 1",
            "query 0 4 1 1",
            "query 0 0 1 1 later",
            "query 0 0 1 1 0 wait",
            "query 0 0 1 1 stay 0",
            "query 0 0 1 1 4294967295",
            "map m.map",
            "jpst-instance 1",
        ] {
            assert_eq!(error_line(&format!("{head}\n# c\n{bad}\n")), 5, "{bad}");
        }
    }

    #[test]
    fn header_and_map_line_errors() {
        assert_eq!(error_line(""), 0);
        assert_eq!(error_line("# only comments\n"), 0);
        assert_eq!(error_line("jpst-instance 2\nmap m.map\n"), 1);
        assert_eq!(error_line("jpst-instance\nmap m.map\n"), 1);
        assert_eq!(error_line("\nmap m.map\n"), 2);
        assert_eq!(error_line("jpst-instance 1\n"), 0);
        assert_eq!(error_line("jpst-instance 1\nquery 0 0 1 1\nmap m.map\n"), 2);
        assert_eq!(error_line("jpst-instance 1\n#\nblock 0 0 0 1\n"), 3);
        assert_eq!(error_line("jpst-instance 1\nmap\n"), 2);
        assert_eq!(error_line("jpst-instance 1\nmap m.map extra\n"), 2);
        assert_eq!(error_line("jpst-instance 1\nmap m.map\r\r"), 2);
        assert_eq!(error_line("jpst-instance 1\nmap m.map\r\t\n"), 2);
    }

    #[test]
    fn map_errors_point_at_the_map_or_the_map_line() {
        let mut unreadable = |_: &str| {
            Err(FormatError::whole_file(
                "dir/m.map",
                "cannot read map: gone",
            ))
        };
        let e = Instance::parse(
            "jpst-instance 1\nmap m.map\n",
            "t.instance",
            &mut unreadable,
        )
        .unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("t.instance", 2));
        assert!(
            e.message.contains("dir/m.map") && e.message.contains("gone"),
            "{e}"
        );

        let mut malformed = |_: &str| Err(FormatError::new("dir/m.map", 7, "row too short"));
        let e = Instance::parse(
            "jpst-instance 1\n\nmap m.map\n",
            "t.instance",
            &mut malformed,
        )
        .unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("dir/m.map", 7));
        assert!(e.message.contains("line 3 of t.instance"), "{e}");
    }
}
