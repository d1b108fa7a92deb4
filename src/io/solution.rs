//! The solver's output lines (see `docs/instance-format.md`):
//!
//! ```text
//! query <i> cost <c> [<key> <value> ...]
//! query <i> unreachable [<key> <value> ...]
//! path <i> <x>,<y> <x>,<y> ...
//! ```
//!
//! Trailing `key value` pairs are statistics; readers ignore them.

use super::error::FormatError;
use super::fields::{Fields, numbered_lines};
use crate::grid::Cell;
use crate::search::{Plan, PlanError, SearchStats};

/// The answer line for query `index`: its cost, or `unreachable`, followed
/// by the search counters (`expanded`, `generated`, `micros`).
///
/// Every [`PlanError`] prints as `unreachable`; all but
/// [`PlanError::Unreachable`] add a trailing `reason` pair (`start-blocked`,
/// `out-of-bounds` or `budget`) so a reader that cares can tell them apart.
pub fn answer_line(index: usize, result: &Result<Plan, PlanError>, stats: SearchStats) -> String {
    let counters = format!(
        "expanded {} generated {} micros {}",
        stats.expanded, stats.generated, stats.micros
    );
    match result {
        Ok(plan) => format!("query {index} cost {} {counters}", plan.cost()),
        Err(error) => match reason(error) {
            Some(reason) => format!("query {index} unreachable {counters} reason {reason}"),
            None => format!("query {index} unreachable {counters}"),
        },
    }
}

/// The `reason` value for a failure other than a plain "no path".
fn reason(error: &PlanError) -> Option<&'static str> {
    match error {
        PlanError::Unreachable => None,
        PlanError::StartBlocked => Some("start-blocked"),
        PlanError::OutOfBounds(_) => Some("out-of-bounds"),
        PlanError::BudgetExhausted { .. } => Some("budget"),
        PlanError::HorizonExceeded { .. } => Some("horizon"),
    }
}

/// The path line for query `index`: the agent's cell at every tick from the
/// start tick to the arrival tick inclusive.
pub fn path_line(index: usize, cells: &[Cell]) -> String {
    let mut line = format!("path {index}");
    for cell in cells {
        line.push(' ');
        line.push_str(&cell.to_string());
    }
    line
}

/// One line of solver output, as [`parse_solution`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolutionLine {
    /// `query <i> cost <c> ...`
    Cost {
        /// The query number.
        query: usize,
        /// Arrival tick minus start tick.
        cost: u32,
    },
    /// `query <i> unreachable ...`
    Unreachable {
        /// The query number.
        query: usize,
    },
    /// `path <i> <x>,<y> ...`
    Path {
        /// The query number.
        query: usize,
        /// One cell per tick, start tick to arrival tick inclusive.
        cells: Vec<Cell>,
    },
}

/// Reads solver output (for tools and tests); `source` names it in errors.
/// Blank lines are skipped; trailing `key value` pairs after `cost <c>` or
/// `unreachable` are ignored but must come in pairs.
pub fn parse_solution(text: &str, source: &str) -> Result<Vec<SolutionLine>, FormatError> {
    numbered_lines(text)
        .map(|(number, line)| Fields::new(source, number, line))
        .filter(|fields| fields.len() > 0)
        .map(|fields| parse_line(&fields))
        .collect()
}

fn parse_line(fields: &Fields<'_>) -> Result<SolutionLine, FormatError> {
    let keyword = fields.get(0).unwrap_or_default();
    if keyword != "query" && keyword != "path" {
        return Err(fields.error(format!(
            "unknown keyword `{keyword}` (expected `query` or `path`)"
        )));
    }
    let query = usize::try_from(fields.u64(1, "query number")?)
        .map_err(|_| fields.error("query number too large"))?;
    match keyword {
        "query" => {
            let (line, stats_from) = match fields.get(2) {
                Some("cost") => {
                    let cost = fields.u32(3, "cost")?;
                    (SolutionLine::Cost { query, cost }, 4)
                }
                Some("unreachable") => (SolutionLine::Unreachable { query }, 3),
                Some(other) => {
                    return Err(
                        fields.error(format!("expected `cost` or `unreachable`, found `{other}`"))
                    );
                }
                None => return Err(fields.error("missing `cost <c>` or `unreachable`")),
            };
            if !(fields.len() - stats_from).is_multiple_of(2) {
                return Err(fields.error(format!(
                    "statistic `{}` has no value",
                    fields.tokens()[fields.len() - 1]
                )));
            }
            Ok(line)
        }
        "path" => {
            fields.expect_count(3, usize::MAX, "path <i> <x>,<y> ...")?;
            let cells = (2..fields.len())
                .map(|i| fields.cell(i, "path cell"))
                .collect::<Result<_, _>>()?;
            Ok(SolutionLine::Path { query, cells })
        }
        _ => unreachable!("keyword checked above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Waypoint;

    fn plan() -> Plan {
        Plan {
            waypoints: vec![
                Waypoint {
                    cell: Cell::new(0, 0),
                    tick: 2,
                },
                Waypoint {
                    cell: Cell::new(1, 1),
                    tick: 5,
                },
            ],
            stats: SearchStats::default(),
        }
    }

    fn stats() -> SearchStats {
        SearchStats {
            expanded: 3,
            generated: 9,
            micros: 12,
            heuristic_micros: 0,
        }
    }

    #[test]
    fn answer_lines() {
        assert_eq!(
            answer_line(4, &Ok(plan()), stats()),
            "query 4 cost 3 expanded 3 generated 9 micros 12"
        );
        assert_eq!(
            answer_line(0, &Err(PlanError::Unreachable), stats()),
            "query 0 unreachable expanded 3 generated 9 micros 12"
        );
        let budget = Err(PlanError::BudgetExhausted { expanded: 3 });
        assert!(answer_line(1, &budget, stats()).ends_with("micros 12 reason budget"));
        let blocked = answer_line(1, &Err(PlanError::StartBlocked), stats());
        assert!(blocked.starts_with("query 1 unreachable "));
        assert!(blocked.ends_with("reason start-blocked"));
        let off = answer_line(1, &Err(PlanError::OutOfBounds(Cell::new(9, 9))), stats());
        assert!(off.ends_with("reason out-of-bounds"));
    }

    #[test]
    fn path_lines() {
        let cells = plan().cells();
        assert_eq!(path_line(2, &cells), "path 2 0,0 0,1 0,1 1,1");
    }

    #[test]
    fn reads_back_what_it_writes() {
        let text = format!(
            "{}\n{}\n\n{}\r\n",
            answer_line(0, &Ok(plan()), stats()),
            path_line(0, &plan().cells()),
            answer_line(1, &Err(PlanError::StartBlocked), stats()),
        );
        assert_eq!(
            parse_solution(&text, "out").unwrap(),
            vec![
                SolutionLine::Cost { query: 0, cost: 3 },
                SolutionLine::Path {
                    query: 0,
                    cells: plan().cells()
                },
                SolutionLine::Unreachable { query: 1 },
            ]
        );
    }

    #[test]
    fn reader_errors_name_the_line() {
        for bad in [
            "query x cost 3",
            "query 0 costs 3",
            "query 0 cost",
            "query 0 cost -3",
            "query 0 cost 3 expanded",
            "query 0",
            "path 0",
            "path 0 1,1 2",
            "answer 0 cost 3",
        ] {
            let e = parse_solution(&format!("query 0 cost 1\n\n{bad}\n"), "out").unwrap_err();
            assert_eq!((e.file.as_str(), e.line), ("out", 3), "{bad}");
        }
    }
}
