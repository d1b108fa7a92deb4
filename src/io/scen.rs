//! MovingAI `.scen` scenario files: a `version 1` line, then one problem per
//! row with 9 tab-separated fields:
//! `bucket map map-width map-height start-x start-y goal-x goal-y optimal-length`.

use std::path::Path;

use super::error::FormatError;
use super::fields::{Fields, is_blank, numbered_lines};
use crate::grid::Cell;

/// One problem row of a scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioEntry {
    /// The difficulty bucket (in the published files, `floor(optimal_length / 4)`).
    pub bucket: u32,
    /// The map file, as written in the row (usually a bare file name).
    pub map: String,
    /// Width of the map, in cells, as the row declares it.
    pub map_width: u32,
    /// Height of the map, in cells, as the row declares it.
    pub map_height: u32,
    /// Start cell (inside the declared size).
    pub start: Cell,
    /// Goal cell (inside the declared size).
    pub goal: Cell,
    /// The published optimal length. It is an octile (8-connected) distance,
    /// not the 4-connected optimum this crate computes.
    pub optimal_length: f64,
}

/// Reads a `.scen` file. Errors name the file (as `path` displays) and line.
pub fn read_scen(path: &Path) -> Result<Vec<ScenarioEntry>, FormatError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| FormatError::whole_file(&source, format!("cannot read scenario: {e}")))?;
    parse_scen(&text, &source)
}

/// Parses the text of a `.scen` file; `source` names it in errors.
///
/// The first non-blank line must be `version 1` (or `version 1.0`). Blank
/// lines are skipped; fields may be separated by runs of tabs or spaces.
pub fn parse_scen(text: &str, source: &str) -> Result<Vec<ScenarioEntry>, FormatError> {
    let mut lines = numbered_lines(text).filter(|(_, line)| !is_blank(line));
    let Some((number, version)) = lines.next() else {
        return Err(FormatError::whole_file(
            source,
            "empty scenario: missing the `version 1` line",
        ));
    };
    let fields = Fields::new(source, number, version);
    if !matches!(fields.tokens(), ["version", "1" | "1.0"]) {
        return Err(fields.error(format!("expected `version 1`, found `{version}`")));
    }
    lines
        .map(|(number, line)| parse_row(&Fields::new(source, number, line)))
        .collect()
}

const ROW_USAGE: &str = "bucket map width height start-x start-y goal-x goal-y optimal-length";

fn parse_row(fields: &Fields<'_>) -> Result<ScenarioEntry, FormatError> {
    fields.expect_count(9, 9, ROW_USAGE)?;
    let bucket = fields.u32(0, "bucket")?;
    let map = fields.require(1, "map")?.to_string();
    let map_width = fields.u32(2, "map width")?;
    let map_height = fields.u32(3, "map height")?;
    let cell = |x: usize, what: &str| -> Result<Cell, FormatError> {
        let cell = Cell::new(fields.u32(x, "x")?, fields.u32(x + 1, "y")?);
        if cell.x < map_width && cell.y < map_height {
            Ok(cell)
        } else {
            Err(fields.error(format!(
                "{what} ({cell}) lies outside the declared {map_width}x{map_height} map"
            )))
        }
    };
    let start = cell(4, "start")?;
    let goal = cell(6, "goal")?;
    let length_text = fields.require(8, "optimal length")?;
    let optimal_length = length_text
        .parse::<f64>()
        .ok()
        .filter(|l| l.is_finite() && *l >= 0.0)
        .ok_or_else(|| {
            fields.error(format!(
                "optimal length `{length_text}` is not a non-negative number"
            ))
        })?;
    Ok(ScenarioEntry {
        bucket,
        map,
        map_width,
        map_height,
        start,
        goal,
        optimal_length,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCEN: &str = "version 1\n\
        0\tden.map\t256\t257\t10\t20\t12\t21\t3.41421356\n\
        3\tden.map\t256\t257\t0\t0\t255\t256\t12\n";

    #[test]
    fn parses_rows() {
        let rows = parse_scen(SCEN, "s.scen").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].bucket, 0);
        assert_eq!(rows[0].map, "den.map");
        assert_eq!((rows[0].map_width, rows[0].map_height), (256, 257));
        assert_eq!(rows[0].start, Cell::new(10, 20));
        assert_eq!(rows[0].goal, Cell::new(12, 21));
        assert!((rows[0].optimal_length - 3.41421356).abs() < 1e-12);
        assert_eq!(rows[1].goal, Cell::new(255, 256));
    }

    #[test]
    fn tolerates_crlf_spaces_blank_lines_and_version_1_0() {
        let text = SCEN.replace("version 1", "version 1.0").replace('\t', "  ");
        let text = format!("{}\r\n\r\n\n", text.replace('\n', "\r\n"));
        assert_eq!(
            parse_scen(&text, "s").unwrap(),
            parse_scen(SCEN, "s").unwrap()
        );
    }

    fn error_line(text: &str) -> usize {
        let e = parse_scen(text, "bad.scen").unwrap_err();
        assert_eq!(e.file, "bad.scen");
        e.line
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(error_line(""), 0);
        assert_eq!(error_line("version 2\n"), 1);
        assert_eq!(error_line("0\tm\t1\t1\t0\t0\t0\t0\t0\n"), 1);
        let row = "0\tm.map\t4\t4\t1\t1\t2\t2\t2";
        assert!(parse_scen(&format!("version 1\n{row}\n"), "ok").is_ok());
        for bad in [
            "0\tm.map\t4\t4\t1\t1\t2\t2",
            "0\tm.map\t4\t4\t1\t1\t2\t2\t2\t9",
            "0\tm.map\t4\t4\t1\tx\t2\t2\t2",
            "0\tm.map\t4\t4\t4\t1\t2\t2\t2",
            "0\tm.map\t4\t4\t1\t1\t2\t4\t2",
            "0\tm.map\t4\t4\t1\t1\t2\t2\tNaN",
            "0\tm.map\t4\t4\t1\t1\t2\t2\t-1",
            "-1\tm.map\t4\t4\t1\t1\t2\t2\t2",
        ] {
            assert_eq!(
                error_line(&format!("version 1\n\n{row}\n{bad}\n")),
                4,
                "{bad}"
            );
        }
    }
}
