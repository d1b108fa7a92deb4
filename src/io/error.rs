//! The error every reader in this module returns: what went wrong, and where.

use std::fmt;

/// A file that could not be read or does not follow its format.
///
/// `line` is 1-based; it is `0` when the problem concerns the whole file
/// (it could not be opened, or something required is missing from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The file, as the caller named it (a path or a label such as `<stdin>`).
    pub file: String,
    /// The 1-based line number, or `0` for the whole file.
    pub line: usize,
    /// What is wrong, for a human.
    pub message: String,
}

impl FormatError {
    /// An error at `line` (1-based; `0` for the whole file) of `file`.
    pub fn new(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line,
            message: message.into(),
        }
    }

    /// An error about the whole of `file` (line `0`).
    pub fn whole_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(file, 0, message)
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for FormatError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_and_line() {
        assert_eq!(
            FormatError::new("a.map", 3, "bad").to_string(),
            "a.map:3: bad"
        );
        assert_eq!(
            FormatError::whole_file("a.map", "gone").to_string(),
            "a.map: gone"
        );
    }
}
