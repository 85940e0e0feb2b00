//! The traverse log writer: a [`Trace`] sink that formats each line into a large
//! buffer by hand and hands full buffers to the writer in one call each.

use std::io::{self, Write};

use crate::format::Style;
use crate::search::{NodeName, Trace, INFINITY};

/// Bytes gathered before one write to the underlying writer.
const BUFFER_BYTES: usize = 256 * 1024;

/// Room for the longest line: name, depth and three values with separators.
const LONGEST_LINE: usize = 64;

/// Which columns a log line has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// `Node,Depth,Value` (f2014 task 2, minimax).
    Value,
    /// `Node,Depth,Value,Alpha,Beta` (alpha-beta).
    ValueAlphaBeta,
}

impl Columns {
    /// The header line.
    pub const fn header(self) -> &'static [u8] {
        match self {
            Columns::Value => b"Node,Depth,Value",
            Columns::ValueAlphaBeta => b"Node,Depth,Value,Alpha,Beta",
        }
    }
}

/// Streams the traverse log to `W`. Every line is preceded by the line end, so the
/// file has no final newline unless [`LogWriter::finish`] is asked for one.
///
/// The first I/O error stops all further writes; [`LogWriter::finish`] returns it.
pub struct LogWriter<W: Write> {
    out: W,
    buffer: Vec<u8>,
    line_end: &'static [u8],
    columns: Columns,
    /// Whether any bytes have gone to `out` yet.
    flushed: bool,
    error: Option<io::Error>,
}

impl<W: Write> LogWriter<W> {
    /// A writer that starts with `prefix` (the board lines) and then the header.
    pub fn new(out: W, style: Style, columns: Columns, prefix: &[u8]) -> LogWriter<W> {
        let mut buffer = Vec::with_capacity(BUFFER_BYTES + LONGEST_LINE);
        buffer.extend_from_slice(prefix);
        let line_end = style.line_end.bytes();
        buffer.extend_from_slice(line_end);
        buffer.extend_from_slice(columns.header());
        LogWriter {
            out,
            buffer,
            line_end,
            columns,
            flushed: false,
            error: None,
        }
    }

    fn flush_buffer(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&self.buffer) {
                self.error = Some(e);
            }
        }
        self.flushed = true;
        self.buffer.clear();
    }

    /// Writes what is buffered, plus a final line end if `style` asks for one, and
    /// returns the writer. When nothing has been written yet, `patch` may still change
    /// the first bytes (used to fill in the board); the bool says whether it ran.
    pub fn finish(
        mut self,
        final_newline: bool,
        patch: impl FnOnce(&mut [u8]),
    ) -> io::Result<(W, bool)> {
        if final_newline {
            self.buffer.extend_from_slice(self.line_end);
        }
        let patched = !self.flushed;
        if patched {
            patch(&mut self.buffer);
        }
        self.flush_buffer();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok((self.out, patched)),
        }
    }

    #[inline(always)]
    fn push_value(&mut self, value: i32) {
        match value {
            INFINITY => self.buffer.extend_from_slice(b"Infinity"),
            v if v == -INFINITY => self.buffer.extend_from_slice(b"-Infinity"),
            v => self.buffer.extend_from_slice(itoa::Buffer::new().format(v).as_bytes()),
        }
    }
}

impl<W: Write> Trace for LogWriter<W> {
    #[inline]
    fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32) {
        self.buffer.extend_from_slice(self.line_end);
        match name {
            NodeName::Root => self.buffer.extend_from_slice(b"root"),
            NodeName::Pass => self.buffer.extend_from_slice(b"pass"),
            NodeName::Cell(square) => self
                .buffer
                .extend_from_slice(&[b'a' + square.col(), b'1' + square.row()]),
        }
        self.buffer.push(b',');
        self.buffer
            .extend_from_slice(itoa::Buffer::new().format(depth).as_bytes());
        self.buffer.push(b',');
        self.push_value(value);
        if self.columns == Columns::ValueAlphaBeta {
            self.buffer.push(b',');
            self.push_value(alpha);
            self.buffer.push(b',');
            self.push_value(beta);
        }
        if self.buffer.len() >= BUFFER_BYTES {
            self.flush_buffer();
        }
    }
}
