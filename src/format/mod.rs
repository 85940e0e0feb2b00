//! File formats: what the courses' programs read and write, byte for byte.

pub mod cs561;
pub mod tristate;
pub mod umea;

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
