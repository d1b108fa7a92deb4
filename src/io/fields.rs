//! Splitting text into numbered lines and lines into fields, and reading
//! numbers and cells out of fields with messages that say what was expected.
//! Shared by the map, scenario, instance and solution readers.

use super::error::FormatError;
use crate::grid::Cell;

/// The lines of `text` with their 1-based numbers. Accepts LF and CRLF line
/// endings, a missing final newline and a leading byte-order mark.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> + Clone {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // `lines()` drops the empty piece after a final newline and strips one
    // `\r` before each `\n`; a lone `\r` on the last line is stripped too.
    text.lines()
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .enumerate()
        .map(|(i, line)| (i + 1, line))
}

/// True for a line holding only spaces and tabs.
pub(crate) fn is_blank(line: &str) -> bool {
    line.chars().all(|c| c == ' ' || c == '\t')
}

/// The fields of one line (separated by runs of spaces and tabs), with the
/// file and line number needed to report a problem with any of them.
pub(crate) struct Fields<'a> {
    source: &'a str,
    line: usize,
    tokens: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Splits `text`, line `line` of `source`.
    pub(crate) fn new(source: &'a str, line: usize, text: &'a str) -> Self {
        let tokens = text.split([' ', '\t']).filter(|t| !t.is_empty()).collect();
        Self {
            source,
            line,
            tokens,
        }
    }

    /// The 1-based line number.
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// Number of fields.
    pub(crate) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// All fields.
    pub(crate) fn tokens(&self) -> &[&'a str] {
        &self.tokens
    }

    /// Field `index`, if present.
    pub(crate) fn get(&self, index: usize) -> Option<&'a str> {
        self.tokens.get(index).copied()
    }

    /// An error at this line.
    pub(crate) fn error(&self, message: impl Into<String>) -> FormatError {
        FormatError::new(self.source, self.line, message)
    }

    /// Field `index`, or an error saying that `what` is missing.
    pub(crate) fn require(&self, index: usize, what: &str) -> Result<&'a str, FormatError> {
        self.get(index)
            .ok_or_else(|| self.error(format!("missing {what}")))
    }

    /// Checks that there are between `min` and `max` fields; `usage` shows
    /// the expected shape of the line.
    pub(crate) fn expect_count(
        &self,
        min: usize,
        max: usize,
        usage: &str,
    ) -> Result<(), FormatError> {
        if self.len() < min {
            Err(self.error(format!("missing field: expected `{usage}`")))
        } else if self.len() > max {
            Err(self.error(format!(
                "extra field `{}`: expected `{usage}`",
                self.tokens[max]
            )))
        } else {
            Ok(())
        }
    }

    /// Field `index` as a `u32`.
    pub(crate) fn u32(&self, index: usize, what: &str) -> Result<u32, FormatError> {
        let token = self.require(index, what)?;
        parse_u32(token, what).map_err(|m| self.error(m))
    }

    /// Field `index` as a `u64`.
    pub(crate) fn u64(&self, index: usize, what: &str) -> Result<u64, FormatError> {
        let token = self.require(index, what)?;
        parse_u64(token, what).map_err(|m| self.error(m))
    }

    /// Field `index` as a cell written `x,y`.
    pub(crate) fn cell(&self, index: usize, what: &str) -> Result<Cell, FormatError> {
        let token = self.require(index, what)?;
        parse_cell(token, what).map_err(|m| self.error(m))
    }
}

/// Parses a decimal `u64` made of ASCII digits only (no sign, no spaces).
pub(crate) fn parse_u64(token: &str, what: &str) -> Result<u64, String> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} `{token}` is not a non-negative integer"));
    }
    token
        .parse()
        .map_err(|_| format!("{what} `{token}` is too large (at most {})", u64::MAX))
}

/// Parses a decimal `u32` made of ASCII digits only (no sign, no spaces).
pub(crate) fn parse_u32(token: &str, what: &str) -> Result<u32, String> {
    let value = parse_u64(token, what)?;
    u32::try_from(value)
        .map_err(|_| format!("{what} `{token}` is too large (at most {})", u32::MAX))
}

/// Parses a cell written `x,y`.
pub(crate) fn parse_cell(token: &str, what: &str) -> Result<Cell, String> {
    let Some((x, y)) = token.split_once(',') else {
        return Err(format!("{what} `{token}` is not a cell `x,y`"));
    };
    let x = parse_u32(x, "x").map_err(|m| format!("{what} `{token}`: {m}"))?;
    let y = parse_u32(y, "y").map_err(|m| format!("{what} `{token}`: {m}"))?;
    Ok(Cell::new(x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_accept_crlf_and_missing_final_newline() {
        let lines: Vec<_> = numbered_lines("\u{feff}a\r\nb\n\nc").collect();
        assert_eq!(lines, vec![(1, "a"), (2, "b"), (3, ""), (4, "c")]);
        let lines: Vec<_> = numbered_lines("a\r\n").collect();
        assert_eq!(lines, vec![(1, "a")]);
    }

    #[test]
    fn fields_split_on_runs_of_spaces_and_tabs() {
        let f = Fields::new("f", 7, " a\t\tb  c ");
        assert_eq!(f.tokens(), &["a", "b", "c"]);
        assert_eq!(f.line(), 7);
        assert!(is_blank(" \t "));
        assert!(!is_blank(" x "));
    }

    #[test]
    fn numbers_are_digits_only() {
        assert_eq!(parse_u32("42", "n"), Ok(42));
        assert!(parse_u32("+4", "n").is_err());
        assert!(parse_u32("-4", "n").is_err());
        assert!(parse_u32("", "n").is_err());
        assert!(
            parse_u32("4294967296", "n")
                .unwrap_err()
                .contains("too large")
        );
        assert_eq!(parse_u32("4294967295", "n"), Ok(u32::MAX));
    }

    #[test]
    fn cells_are_x_comma_y() {
        assert_eq!(parse_cell("3,4", "cell"), Ok(Cell::new(3, 4)));
        assert!(parse_cell("3;4", "cell").is_err());
        assert!(parse_cell("3,", "cell").is_err());
        assert!(parse_cell("3,4,5", "cell").is_err());
    }

    #[test]
    fn count_errors_name_the_line() {
        let f = Fields::new("f.txt", 3, "block 1 2");
        let e = f.expect_count(5, 5, "block x y from to").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("missing"));
        let f = Fields::new("f.txt", 4, "block 1 2 3 4 5");
        let e = f.expect_count(5, 5, "block x y from to").unwrap_err();
        assert!(e.message.contains("extra field `5`"));
    }
}
