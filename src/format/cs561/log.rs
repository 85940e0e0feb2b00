//! The traverse log writer: a [`Trace`] sink that assembles each line from
//! pre-formatted pieces in a large buffer and hands full buffers to the writer in one
//! call each.
//!
//! A line is `<eol>name,depth,value,alpha,beta`: the line end comes first, so the file
//! has no final newline unless asked for. Every piece (`<eol>name,`, `depth,`,
//! `value,`) is a 16-byte table entry copied whole; the cursor then moves by the
//! piece's true length, and the next piece overwrites the rest. The trailing comma
//! of the last column is taken back the same way.

use std::io::{self, Write};

use crate::format::Style;
use crate::search::{NodeName, Trace, INFINITY};

/// Bytes gathered before one write to the underlying writer.
const BUFFER_BYTES: usize = 256 * 1024;

/// Room after the flush threshold for a line of five whole pieces.
const HEADROOM: usize = 5 * 16;

/// Values from `-VALUE_TABLE_LIMIT` to `VALUE_TABLE_LIMIT` come from the table (the
/// CS561 weights stay within +-784); others are formatted when met.
const VALUE_TABLE_LIMIT: i32 = 1023;

/// Deepest depth in the table: no game lasts longer than 60 moves and 62 passes.
const DEPTH_TABLE_LIMIT: u32 = 127;

/// Up to 15 bytes of text, with its length in the last byte, copied as one block.
#[derive(Clone, Copy)]
struct Piece([u8; 16]);

impl Piece {
    fn new(parts: &[&[u8]]) -> Piece {
        let mut bytes = [0u8; 16];
        let mut len = 0;
        for part in parts {
            bytes[len..len + part.len()].copy_from_slice(part);
            len += part.len();
        }
        assert!(len < 16, "a piece holds at most 15 bytes");
        bytes[15] = len as u8;
        Piece(bytes)
    }

    /// The text's length; the mask lets the compiler see it is below 16.
    #[inline(always)]
    fn len(self) -> usize {
        (self.0[15] & 15) as usize
    }
}

/// The text of a log value: an integer, `Infinity` or `-Infinity`.
fn value_text(value: i32) -> String {
    match value {
        INFINITY => "Infinity".into(),
        v if v == -INFINITY => "-Infinity".into(),
        v => v.to_string(),
    }
}

/// The piece for a depth or value outside the tables.
#[cold]
fn rare_piece(number: impl ToString) -> Piece {
    Piece::new(&[number.to_string().as_bytes(), b","])
}

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

/// Streams the traverse log to `W` (see the module documentation).
///
/// The first I/O error stops all further writes; [`LogWriter::finish`] returns it.
pub struct LogWriter<W: Write> {
    out: W,
    buffer: Box<[u8]>,
    /// Bytes of `buffer` in use.
    filled: usize,
    columns: Columns,
    /// `<eol>name,` for squares 0-63, then root and pass.
    names: [Piece; 66],
    /// `depth,` for depths up to [`DEPTH_TABLE_LIMIT`].
    depths: Box<[Piece]>,
    /// `value,` for values from `-VALUE_TABLE_LIMIT` up.
    values: Box<[Piece]>,
    /// `Infinity,` and `-Infinity,`.
    infinities: [Piece; 2],
    line_end: &'static [u8],
    /// Whether any bytes have gone to `out` yet.
    flushed: bool,
    error: Option<io::Error>,
}

impl<W: Write> LogWriter<W> {
    /// A writer that starts with `prefix` (the board lines) and then the header.
    pub fn new(out: W, style: Style, columns: Columns, prefix: &[u8]) -> LogWriter<W> {
        let line_end = style.line_end.bytes();
        let mut names = [Piece::new(&[]); 66];
        for (index, name) in names.iter_mut().enumerate().take(64) {
            let cell = [b'a' + (index % 8) as u8, b'1' + (index / 8) as u8];
            *name = Piece::new(&[line_end, &cell, b","]);
        }
        names[64] = Piece::new(&[line_end, b"root,"]);
        names[65] = Piece::new(&[line_end, b"pass,"]);
        let depths = (0..=DEPTH_TABLE_LIMIT)
            .map(|d| Piece::new(&[d.to_string().as_bytes(), b","]))
            .collect();
        let values = (-VALUE_TABLE_LIMIT..=VALUE_TABLE_LIMIT)
            .map(|v| Piece::new(&[v.to_string().as_bytes(), b","]))
            .collect();
        let infinities =
            [INFINITY, -INFINITY].map(|v| Piece::new(&[value_text(v).as_bytes(), b","]));
        let mut writer = LogWriter {
            out,
            buffer: vec![0; BUFFER_BYTES + HEADROOM].into_boxed_slice(),
            filled: 0,
            columns,
            names,
            depths,
            values,
            infinities,
            line_end,
            flushed: false,
            error: None,
        };
        writer.push_bytes(prefix);
        writer.push_bytes(line_end);
        writer.push_bytes(columns.header());
        writer
    }

    /// Appends bytes of any length (the prefix, the header, rare long values).
    fn push_bytes(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let room = BUFFER_BYTES - self.filled.min(BUFFER_BYTES);
            let take = bytes.len().min(room.max(1));
            self.buffer[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled >= BUFFER_BYTES {
                self.flush_buffer();
            }
        }
    }

    /// The piece for a value.
    #[inline(always)]
    fn value_piece(&self, value: i32) -> Piece {
        let index = value.wrapping_add(VALUE_TABLE_LIMIT) as u32;
        if index <= 2 * VALUE_TABLE_LIMIT as u32 {
            self.values[index as usize]
        } else if value == INFINITY {
            self.infinities[0]
        } else if value == -INFINITY {
            self.infinities[1]
        } else {
            rare_piece(value)
        }
    }

    fn flush_buffer(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(&self.buffer[..self.filled]) {
                self.error = Some(e);
            }
        }
        self.flushed = true;
        self.filled = 0;
    }

    /// Writes what is buffered, plus a final line end if asked, and returns the
    /// writer. When nothing has been written yet, `patch` may still change the first
    /// bytes (used to fill in the board); the bool says whether it ran.
    pub fn finish(
        mut self,
        final_newline: bool,
        patch: impl FnOnce(&mut [u8]),
    ) -> io::Result<(W, bool)> {
        if final_newline {
            self.push_bytes(self.line_end);
        }
        let patched = !self.flushed;
        if patched {
            patch(&mut self.buffer[..self.filled]);
        }
        self.flush_buffer();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok((self.out, patched)),
        }
    }
}

impl<W: Write> Trace for LogWriter<W> {
    #[inline]
    fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32) {
        let name = match name {
            NodeName::Cell(square) => square.index() as usize,
            NodeName::Root => 64,
            NodeName::Pass => 65,
        };
        let depth = match self.depths.get(depth as usize) {
            Some(&piece) => piece,
            None => rare_piece(depth),
        };
        let name = self.names[name];
        let value = self.value_piece(value);
        let window = match self.columns {
            Columns::Value => None,
            Columns::ValueAlphaBeta => Some((self.value_piece(alpha), self.value_piece(beta))),
        };
        // One bounds check for the line: five pieces of at most 15 bytes each fit.
        let line = &mut self.buffer[self.filled..self.filled + 5 * 16];
        let mut at = 0;
        let mut put = |piece: Piece| {
            line[at..at + 16].copy_from_slice(&piece.0);
            at += piece.len();
        };
        put(name);
        put(depth);
        put(value);
        if let Some((alpha, beta)) = window {
            put(alpha);
            put(beta);
        }
        // Take back the comma after the last column.
        self.filled += at - 1;
        if self.filled >= BUFFER_BYTES {
            self.flush_buffer();
        }
    }
}
