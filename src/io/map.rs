//! MovingAI `.map` files: a four-line header, then one text row per map row.
//!
//! ```text
//! type octile
//! height 3
//! width 4
//! map
//! ....
//! .@@.
//! ....
//! ```
//!
//! `.`, `G` and `S` are passable; every other character is a wall.

use std::borrow::Cow;
use std::path::Path;

use super::error::FormatError;
use super::fields::{Fields, is_blank, numbered_lines};
use crate::grid::{MapLimits, StaticGrid};

/// Reads a MovingAI `.map` file within the default [`MapLimits`]. Errors
/// name the file (as `path` displays) and the line.
pub fn read_map(path: &Path) -> Result<StaticGrid, FormatError> {
    read_map_within(path, &MapLimits::default())
}

/// Reads a MovingAI `.map` file, refusing maps over `limits`.
pub fn read_map_within(path: &Path, limits: &MapLimits) -> Result<StaticGrid, FormatError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| FormatError::whole_file(&source, format!("cannot read map: {e}")))?;
    parse_map_within(&text, &source, limits)
}

/// Parses the text of a MovingAI `.map` file within the default
/// [`MapLimits`]; `source` names it in errors.
///
/// Accepts LF or CRLF line endings, a missing final newline and blank lines
/// after the last row. The declared size is checked against the limits
/// before anything is allocated for it.
pub fn parse_map(text: &str, source: &str) -> Result<StaticGrid, FormatError> {
    parse_map_within(text, source, &MapLimits::default())
}

/// Parses the text of a MovingAI `.map` file, refusing maps over `limits`.
pub fn parse_map_within(
    text: &str,
    source: &str,
    limits: &MapLimits,
) -> Result<StaticGrid, FormatError> {
    let mut lines = numbered_lines(text);
    let header = Header::parse(&mut lines, source, limits)?;
    let mut rows: Vec<Cow<'_, [u8]>> = Vec::with_capacity(header.height as usize);
    let mut last_line = header.map_line;
    while rows.len() < header.height as usize {
        let row_line = last_line + 1;
        let Some((number, row)) = lines.next() else {
            return Err(too_few_rows(source, row_line, rows.len(), header.height));
        };
        last_line = number;
        if row.is_empty() && lines.clone().all(|(_, rest)| is_blank(rest)) {
            return Err(too_few_rows(source, row_line, rows.len(), header.height));
        }
        rows.push(row_cells(row, header.width).map_err(|found| {
            FormatError::new(
                source,
                number,
                format!(
                    "map row {} has {found} characters, expected width {}",
                    rows.len(),
                    header.width
                ),
            )
        })?);
    }
    if let Some((number, _)) = lines.find(|(_, rest)| !is_blank(rest)) {
        return Err(FormatError::new(
            source,
            number,
            format!(
                "unexpected text after the {} map rows declared by `height`",
                header.height
            ),
        ));
    }
    StaticGrid::from_fn(header.width, header.height, |cell| {
        matches!(rows[cell.y as usize][cell.x as usize], b'.' | b'G' | b'S')
    })
    .map_err(|e| FormatError::new(source, header.map_line, e.to_string()))
}

fn too_few_rows(source: &str, line: usize, found: usize, height: u32) -> FormatError {
    FormatError::new(
        source,
        line,
        format!("map ends after {found} rows, but `height` declares {height}"),
    )
}

/// One byte per cell of a row (the row itself when it is ASCII, which every
/// published map is), or the row's length in characters when it is not
/// `width`.
fn row_cells(row: &str, width: u32) -> Result<Cow<'_, [u8]>, usize> {
    if row.len() == width as usize && row.is_ascii() {
        return Ok(Cow::Borrowed(row.as_bytes()));
    }
    let length = row.chars().count();
    if length != width as usize {
        return Err(length);
    }
    // Any non-ASCII character is a wall.
    Ok(Cow::Owned(
        row.chars()
            .map(|c| if c.is_ascii() { c as u8 } else { b'@' })
            .collect(),
    ))
}

/// The four header lines: `type <name>`, `height <H>`, `width <W>`, `map`.
struct Header {
    width: u32,
    height: u32,
    /// Line number of the `map` keyword; the rows follow it.
    map_line: usize,
}

impl Header {
    fn parse<'a>(
        lines: &mut impl Iterator<Item = (usize, &'a str)>,
        source: &str,
        limits: &MapLimits,
    ) -> Result<Self, FormatError> {
        let mut next = |expected: &str, line: usize| {
            lines.next().ok_or_else(|| {
                FormatError::new(
                    source,
                    line,
                    format!("expected `{expected}`, found the end of the file"),
                )
            })
        };
        let (line, text) = next("type octile", 1)?;
        let fields = Fields::new(source, line, text);
        if fields.get(0) != Some("type") {
            return Err(fields.error(format!("expected `type octile`, found `{text}`")));
        }
        fields.expect_count(2, 2, "type octile")?;

        // The MovingAI format puts height first; accept either order.
        let mut width = None;
        let mut height = None;
        let mut last = line;
        for _ in 0..2 {
            let (line, text) = next("height <rows>` or `width <columns>", last + 1)?;
            last = line;
            let fields = Fields::new(source, line, text);
            let slot = match fields.get(0) {
                Some("height") if height.is_none() => &mut height,
                Some("width") if width.is_none() => &mut width,
                _ => {
                    let want = if height.is_none() { "height" } else { "width" };
                    return Err(fields.error(format!("expected `{want} <n>`, found `{text}`")));
                }
            };
            fields.expect_count(2, 2, "height <rows>` or `width <columns>")?;
            *slot = Some(fields.u64(1, fields.get(0).unwrap_or_default())?);
        }
        let (width, height) = (width.unwrap_or(0), height.unwrap_or(0));
        limits
            .check(width, height)
            .map_err(|e| FormatError::new(source, last, e.to_string()))?;

        let (map_line, text) = next("map", last + 1)?;
        if Fields::new(source, map_line, text).tokens() != ["map"] {
            return Err(FormatError::new(
                source,
                map_line,
                format!("expected `map`, found `{text}`"),
            ));
        }
        // The limits bound both sides by MAX_SIDE, so they fit in u32.
        Ok(Self {
            width: width as u32,
            height: height as u32,
            map_line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n.G@S\nT..W\n....\n";

    #[test]
    fn parses_cells() {
        let g = parse_map(SMALL, "s.map").unwrap();
        assert_eq!((g.width(), g.height()), (4, 3));
        assert!(g.is_passable(Cell::new(0, 0)));
        assert!(g.is_passable(Cell::new(1, 0)));
        assert!(!g.is_passable(Cell::new(2, 0)));
        assert!(g.is_passable(Cell::new(3, 0)));
        assert!(!g.is_passable(Cell::new(0, 1)));
        assert!(!g.is_passable(Cell::new(3, 1)));
        assert_eq!(g.passable_count(), 9);
    }

    #[test]
    fn accepts_crlf_no_final_newline_and_trailing_blank_lines() {
        let crlf = SMALL.replace('\n', "\r\n");
        let a = parse_map(&crlf, "a").unwrap();
        let b = parse_map(SMALL.trim_end(), "b").unwrap();
        let c = parse_map(&format!("{SMALL}\n\n  \n"), "c").unwrap();
        for g in [a, b, c] {
            assert_eq!(g.passable_count(), 9);
        }
    }

    #[test]
    fn accepts_width_before_height() {
        let g = parse_map("type octile\nwidth 2\nheight 1\nmap\n.@\n", "w").unwrap();
        assert_eq!((g.width(), g.height()), (2, 1));
    }

    fn error_line(text: &str) -> usize {
        let e = parse_map(text, "bad.map").unwrap_err();
        assert_eq!(e.file, "bad.map");
        e.line
    }

    #[test]
    fn header_errors_name_the_line() {
        assert_eq!(error_line(""), 1);
        assert_eq!(error_line("tipe octile\n"), 1);
        assert_eq!(error_line("type octile\nheight x\n"), 2);
        assert_eq!(error_line("type octile\nheight 3\nheight 3\n"), 3);
        assert_eq!(error_line("type octile\nheight 3\nwidth 4 5\n"), 3);
        assert_eq!(error_line("type octile\nheight 3\nwidth 4\nmop\n"), 4);
        assert_eq!(error_line("type octile\nheight 3\nwidth 4\n"), 4);
    }

    #[test]
    fn refuses_absurd_sizes_before_allocating() {
        let e = parse_map(
            "type octile\nheight 10\nwidth 4000000000\nmap\n",
            "huge.map",
        )
        .unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("not supported"), "{e}");
        let e = parse_map("type octile\nheight 60000\nwidth 60000\nmap\n", "big.map").unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(error_line("type octile\nheight 0\nwidth 4\nmap\n"), 3);
    }

    #[test]
    fn row_errors_name_the_line() {
        let short_row = "type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n";
        assert_eq!(error_line(short_row), 6);
        let missing_rows = "type octile\nheight 3\nwidth 4\nmap\n....\n\n\n";
        assert_eq!(error_line(missing_rows), 6);
        let eof = "type octile\nheight 3\nwidth 4\nmap\n....\n....";
        assert_eq!(error_line(eof), 7);
        let extra = format!("{SMALL}\n....\n");
        assert_eq!(error_line(&extra), 9);
        let blank_inside = "type octile\nheight 3\nwidth 4\nmap\n....\n\n....\n";
        assert_eq!(error_line(blank_inside), 6);
    }

    #[test]
    fn non_ascii_characters_are_walls() {
        let g = parse_map("type octile\nheight 1\nwidth 3\nmap\n.é.\n", "u").unwrap();
        assert_eq!(g.passable_count(), 2);
    }
}
