//! File formats: what the courses' programs read and write, byte for byte.

pub mod chunks;
pub mod cs561;
pub mod ggf;
pub mod tristate;
pub mod uf;
pub mod umea;
pub mod york;

/// How lines of an output file end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineEnd {
    /// `\r\n`, as in every official CSCI-561 file.
    #[default]
    Crlf,
    /// `\n`.
    Lf,
}

impl LineEnd {
    /// The bytes that end a line.
    pub const fn bytes(self) -> &'static [u8] {
        match self {
            LineEnd::Crlf => b"\r\n",
            LineEnd::Lf => b"\n",
        }
    }
}

/// The byte form of an output file: line ends and whether the last line has one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Style {
    /// The line separator.
    pub line_end: LineEnd,
    /// End the last line too (the official files do not).
    pub final_newline: bool,
}

/// An error found on a line of a text file; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct LineError<K: std::error::Error> {
    /// The line where the problem was found.
    pub line: usize,
    /// What was wrong.
    pub kind: K,
}
