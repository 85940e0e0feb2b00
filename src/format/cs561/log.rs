//! The traverse log writer: a [`Trace`] sink that assembles each line from
//! pre-formatted pieces ([`LineFormat`]) in a large buffer and hands full buffers to
//! the writer in one call each, every one [`BUFFER_BYTES`] long but the last.
//!
//! A line is `<eol>name,depth,value,alpha,beta`: the line end comes first, so the file
//! has no final newline unless asked for. Each piece (`<eol>name,depth,` and
//! `value,`) is a 16-byte table entry copied whole; the cursor then moves by the
//! piece's true length, and the next piece overwrites the rest. The trailing comma
//! of the last column is taken back the same way.
//!
//! Nearly every line (97% on the benchmark logs) holds the same window as the line
//! before it, so the text `alpha,beta` is kept from line to line ([`Window`]) and
//! copied as one 32-byte block: two pieces and a block a line.

use std::io;

use crate::course_search::{NodeName, Trace, INFINITY};
use crate::format::chunks::Chunks;
use crate::format::Style;

/// Bytes of one write to the underlying writer: every buffer but the last holds
/// exactly this many, a line that crosses the end going on in the next one. Writes
/// of a whole 256 KiB at multiples of 256 KiB are what ext4 takes fastest (its large
/// folios want writes aligned to their size; see docs/performance.md).
const BUFFER_BYTES: usize = 256 * 1024;

/// Room a line is formatted in: two whole pieces and a whole window, or a rare
/// line (at most 53 bytes: `<eol>root,`, a 10-digit depth and three `i32::MIN`).
pub(super) const LINE_ROOM: usize = 64;

/// Bytes of a window's text: the longest, two `i32::MIN` and a comma, takes 23.
const WINDOW_BYTES: usize = 32;

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

    /// The text's length.
    #[inline(always)]
    fn len(&self) -> usize {
        (self.0[15] & 15) as usize
    }

    /// The text.
    fn text(&self) -> &[u8] {
        &self.0[..self.len()]
    }
}

/// The piece `number,`, with infinities as `Infinity,` and `-Infinity,`.
fn number_piece<N: Into<i64>>(number: N) -> Piece {
    let text = match number.into() {
        n if n == INFINITY as i64 => "Infinity".to_string(),
        n if n == -INFINITY as i64 => "-Infinity".to_string(),
        n => n.to_string(),
    };
    Piece::new(&[text.as_bytes(), b","])
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
/// The first I/O error stops all further writes, and the search; [`LogWriter::finish`]
/// returns it.
pub struct LogWriter<C: Chunks> {
    out: C,
    buffer: Box<[u8]>,
    /// Bytes of `buffer` in use.
    filled: usize,
    format: LineFormat,
    line_end: &'static [u8],
    /// Whether any bytes have gone to `out` yet.
    flushed: bool,
    error: Option<io::Error>,
}

/// A window `(alpha, beta)` and its text `alpha,beta`, padded to a whole block.
struct Window {
    alpha: i32,
    beta: i32,
    text: [u8; WINDOW_BYTES],
    len: usize,
}

impl Window {
    /// The window `(alpha, beta)`, its values' text taken from `pieces` where they
    /// have it: two whole pieces copied, the second over the first one's padding.
    #[cold]
    fn new(alpha: i32, beta: i32, pieces: &Pieces) -> Window {
        let (alpha_piece, beta_piece) = (pieces.value(alpha), pieces.value(beta));
        let mut text = [0; WINDOW_BYTES];
        let split = alpha_piece.len();
        text[..16].copy_from_slice(&alpha_piece.0);
        text[split..split + 16].copy_from_slice(&beta_piece.0);
        Window {
            alpha,
            beta,
            // Without the comma after beta.
            len: split + beta_piece.len() - 1,
            text,
        }
    }
}

/// The pre-formatted pieces of a line.
struct Pieces {
    /// `<eol>name,` for squares 0-63, then root and pass.
    names: [Piece; NAMES],
    /// `<eol>name,depth,` for depths up to [`DEPTH_TABLE_LIMIT`], at
    /// `depth * NAMES + name`: a search's lines use a few rows of it.
    name_depths: Box<[Piece]>,
    /// `value,` for values from `-VALUE_TABLE_LIMIT` up, then `Infinity,` and
    /// `-Infinity,`.
    values: Box<[Piece]>,
}

impl Pieces {
    fn new(line_end: &[u8]) -> Pieces {
        let mut names = [Piece::new(&[]); NAMES];
        for (index, name) in names.iter_mut().enumerate().take(64) {
            let cell = [b'a' + (index % 8) as u8, b'1' + (index / 8) as u8];
            *name = Piece::new(&[line_end, &cell, b","]);
        }
        names[64] = Piece::new(&[line_end, b"root,"]);
        names[65] = Piece::new(&[line_end, b"pass,"]);
        Pieces {
            names,
            name_depths: (0..=DEPTH_TABLE_LIMIT)
                .flat_map(|depth| {
                    let depth = number_piece(depth);
                    names.map(|name| Piece::new(&[name.text(), depth.text()]))
                })
                .collect(),
            values: (-VALUE_TABLE_LIMIT..=VALUE_TABLE_LIMIT)
                .chain([INFINITY, -INFINITY])
                .map(number_piece)
                .collect(),
        }
    }

    /// The piece `value,`, from the table if it has it.
    #[inline(always)]
    fn value(&self, value: i32) -> Piece {
        match Pieces::value_index(value) {
            (at, true) => self.values[at],
            (_, false) => number_piece(value),
        }
    }

    /// The index in `values` of a value's piece, and whether the table has one
    /// (the index is then meaningless). Without a branch on the value: alpha and beta
    /// alternate between numbers and infinities too irregularly to predict.
    #[inline(always)]
    fn value_index(value: i32) -> (usize, bool) {
        let last = 2 * VALUE_TABLE_LIMIT as usize;
        let number = value.wrapping_add(VALUE_TABLE_LIMIT) as u32 as usize;
        // Past the numbers: `Infinity` at last + 1, `-Infinity` at last + 2.
        let beyond = number > last;
        let index = number.min(last + 1) + (beyond & (value < 0)) as usize;
        (index, !beyond | (value.unsigned_abs() == INFINITY as u32))
    }
}

impl<C: Chunks> LogWriter<C> {
    /// A writer that starts with `prefix` (the board lines) and then the header.
    pub fn new(out: C, style: Style, columns: Columns, prefix: &[u8]) -> LogWriter<C> {
        let line_end = style.line_end.bytes();
        let mut writer = LogWriter {
            out,
            buffer: vec![0; BUFFER_BYTES + LINE_ROOM].into_boxed_slice(),
            filled: 0,
            format: LineFormat::new(style, columns),
            line_end,
            flushed: false,
            error: None,
        };
        writer.push_bytes(prefix);
        writer.push_bytes(line_end);
        writer.push_bytes(columns.header());
        writer
    }

    /// Appends bytes of any length: the prefix, the header, a final line end, or
    /// whole lines formatted elsewhere (copied in, so that every buffer handed on is
    /// whole).
    pub(super) fn push_bytes(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            // A full buffer is always handed on at once: there is room.
            let take = bytes.len().min(BUFFER_BYTES - self.filled);
            self.buffer[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled >= BUFFER_BYTES {
                self.flush_buffer();
            }
        }
    }

    /// Hands on the buffer: exactly [`BUFFER_BYTES`] when it holds that much or more
    /// (the bytes past it, part of the last line, start the next buffer), so that
    /// every write but the last covers a whole aligned stretch of the file, which
    /// ext4 writes fastest.
    fn flush_buffer(&mut self) {
        let len = self.filled.min(BUFFER_BYTES);
        let mut overflow = [0u8; LINE_ROOM];
        let over = self.filled - len;
        overflow[..over].copy_from_slice(&self.buffer[len..self.filled]);
        if self.error.is_none() {
            if let Err(e) = self.out.submit(&mut self.buffer, len) {
                self.error = Some(e);
            }
        }
        self.flushed = true;
        self.buffer[..over].copy_from_slice(&overflow[..over]);
        self.filled = over;
    }

    /// Writes what is buffered, plus a final line end if asked, and returns the
    /// writer. When nothing has been written yet, `patch` may still change the first
    /// bytes (used to fill in the board); the bool says whether it ran.
    pub fn finish(
        mut self,
        final_newline: bool,
        patch: impl FnOnce(&mut [u8]),
    ) -> io::Result<(C::Output, bool)> {
        if final_newline {
            self.push_bytes(self.line_end);
        }
        let patched = !self.flushed;
        if patched {
            patch(&mut self.buffer[..self.filled]);
        }
        self.flush_buffer();
        // The writer's own error, if any, says more than a stopped thread.
        let out = self.out.close()?;
        match self.error {
            Some(e) => Err(e),
            None => Ok((out, patched)),
        }
    }
}

/// Formats log lines from pre-formatted pieces (see the module documentation).
pub(super) struct LineFormat {
    columns: Columns,
    pieces: Pieces,
    /// The window of the last line with one, as text.
    window: Window,
}

impl LineFormat {
    /// The format of `columns` lines with `style`'s line end.
    pub(super) fn new(style: Style, columns: Columns) -> LineFormat {
        let pieces = Pieces::new(style.line_end.bytes());
        LineFormat {
            columns,
            window: Window::new(-INFINITY, INFINITY, &pieces),
            pieces,
        }
    }

    /// Writes the line of the node named by `name` (a [`name_index`]) at the start of
    /// `room`, which must hold at least [`LINE_ROOM`] bytes, and returns its length.
    #[inline(always)]
    pub(super) fn put_line(
        &mut self,
        room: &mut [u8],
        name: usize,
        depth: u32,
        value: i32,
        alpha: i32,
        beta: i32,
    ) -> usize {
        let room = &mut room[..LINE_ROOM];
        let with_window = self.columns == Columns::ValueAlphaBeta;
        let (value_at, value_in) = Pieces::value_index(value);
        // `&` rather than `&&`: one branch for the whole line.
        if !(value_in & (depth <= DEPTH_TABLE_LIMIT)) {
            let numbers = [depth as i64, value as i64, alpha as i64, beta as i64];
            return self.put_rare_line(room, name, &numbers[..if with_window { 4 } else { 2 }]);
        }
        if with_window & ((alpha != self.window.alpha) | (beta != self.window.beta)) {
            self.window = Window::new(alpha, beta, &self.pieces);
        }
        let pieces = &self.pieces;
        let start = room.as_mut_ptr();
        // SAFETY: `room` has room for two whole pieces and a whole window. The
        // indices are in range: `name_depths` covers 0 to DEPTH_TABLE_LIMIT, and
        // `value_index` returns indices of `values` when it says the table has the
        // value (the name is checked).
        let name_depth = &pieces.name_depths[depth as usize * NAMES + name];
        let end = unsafe {
            let mut at = put(start, name_depth);
            at = put(at, pieces.values.get_unchecked(value_at));
            if with_window {
                std::ptr::copy_nonoverlapping(self.window.text.as_ptr(), at, WINDOW_BYTES);
                at.add(self.window.len)
            } else {
                // Without the comma after the value.
                at.sub(1)
            }
        };
        end as usize - start as usize
    }

    /// A line with a depth or value outside the tables, assembled the slow way.
    #[cold]
    fn put_rare_line(&self, room: &mut [u8], name: usize, numbers: &[i64]) -> usize {
        let mut line = self.pieces.names[name].text().to_vec();
        for &number in numbers {
            line.extend_from_slice(number_piece(number).text());
        }
        line.pop();
        room[..line.len()].copy_from_slice(&line);
        line.len()
    }
}

/// Copies a whole 16-byte piece to `at` and returns the position after its text.
///
/// # Safety
/// `at` must have 16 writable bytes.
#[inline(always)]
unsafe fn put(at: *mut u8, piece: &Piece) -> *mut u8 {
    // SAFETY: the caller guarantees 16 writable bytes; a piece is 16 bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(piece.0.as_ptr(), at, 16);
        at.add(piece.len())
    }
}

impl<C: Chunks> LogWriter<C> {
    /// Appends the line of the node named by `name` (a [`name_index`]).
    #[inline(always)]
    pub(super) fn line(&mut self, name: usize, depth: u32, value: i32, alpha: i32, beta: i32) {
        let room = &mut self.buffer[self.filled..];
        self.filled += self.format.put_line(room, name, depth, value, alpha, beta);
        if self.filled >= BUFFER_BYTES {
            self.flush_buffer();
        }
    }

    /// The first I/O error, taken out: nothing more is written after it.
    pub(super) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}

/// The number of node names: the 64 squares, root and pass.
pub(super) const NAMES: usize = 66;

/// A node's name as a small number: squares 0-63, then root and pass.
#[inline(always)]
pub(super) fn name_index(name: NodeName) -> usize {
    match name {
        NodeName::Cell(square) => square.index() as usize,
        NodeName::Root => 64,
        NodeName::Pass => 65,
    }
}

impl<C: Chunks> Trace for LogWriter<C> {
    #[inline(always)]
    fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32) {
        self.line(name_index(name), depth, value, alpha, beta);
    }

    /// After an I/O error nothing more is written: the search may as well stop.
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::Square;
    use crate::format::LineEnd;
    use proptest::prelude::*;

    /// The line as `format!` writes it: the obvious, slow reference.
    fn reference_line(name: NodeName, numbers: &[i64]) -> String {
        let name = match name {
            NodeName::Root => "root".to_string(),
            NodeName::Pass => "pass".to_string(),
            NodeName::Cell(square) => square.to_string(),
        };
        let numbers: Vec<String> = numbers
            .iter()
            .map(|&n| match n {
                n if n == INFINITY as i64 => "Infinity".to_string(),
                n if n == -INFINITY as i64 => "-Infinity".to_string(),
                n => n.to_string(),
            })
            .collect();
        format!("\n{name},{}", numbers.join(","))
    }

    fn values() -> impl Strategy<Value = i32> {
        prop_oneof![
            -1100..1100i32,
            Just(INFINITY),
            Just(-INFINITY),
            any::<i32>().prop_filter("not a sentinel", |v| v.abs() != INFINITY),
        ]
    }

    fn names() -> impl Strategy<Value = NodeName> {
        prop_oneof![
            Just(NodeName::Root),
            Just(NodeName::Pass),
            (0u8..64).prop_map(|i| NodeName::Cell(Square::from_index(i))),
        ]
    }

    /// A log line's fields.
    pub(in crate::format::cs561) type Line = (NodeName, u32, i32, i32, i32);

    /// `lines` with the window of the line before wherever the flag says so (the
    /// window of the first lines is the full one).
    pub(in crate::format::cs561) fn keeping_windows(
        lines: &[(NodeName, u32, i32, i32, i32, bool)],
    ) -> Vec<Line> {
        let mut window = (-INFINITY, INFINITY);
        lines
            .iter()
            .map(|&(name, depth, value, alpha, beta, same_window)| {
                if !same_window {
                    window = (alpha, beta);
                }
                (name, depth, value, window.0, window.1)
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn lines_match_plain_formatting(
            lines in prop::collection::vec(
                (names(), 0u32..300, values(), values(), values(), any::<bool>()),
                1..400,
            ),
            alpha_beta in any::<bool>(),
        ) {
            // Half the lines keep the window of the line before, as most lines do.
            let lines = keeping_windows(&lines);
            let columns = if alpha_beta { Columns::ValueAlphaBeta } else { Columns::Value };
            let style = Style { line_end: LineEnd::Lf, final_newline: false };
            let mut writer = LogWriter::new(Vec::new(), style, columns, b"board");
            let mut expected = format!("board\n{}", String::from_utf8_lossy(columns.header()));
            for &(name, depth, value, alpha, beta) in &lines {
                writer.node(name, depth, value, alpha, beta);
                let numbers = [depth as i64, value as i64, alpha as i64, beta as i64];
                expected += &reference_line(name, &numbers[..if alpha_beta { 4 } else { 2 }]);
            }
            let (bytes, _) = writer.finish(false, |_| {}).unwrap();
            prop_assert_eq!(String::from_utf8(bytes).unwrap(), expected);
        }
    }

    /// Takes the first `room` bytes, then fails.
    pub(in crate::format::cs561) struct FullDisk {
        pub(in crate::format::cs561) room: usize,
    }

    impl io::Write for FullDisk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::other("disk full"));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Notes the length of each write it gets.
    #[derive(Default)]
    struct WriteSizes(Vec<usize>, Vec<u8>);

    impl io::Write for WriteSizes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.len());
            self.1.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Every buffer handed on but the last is exactly `BUFFER_BYTES` long, lines and
    /// text from elsewhere split across buffers wherever the end falls, so that every
    /// write covers a whole aligned stretch of the file; the bytes are those of a
    /// writer that never splits.
    #[test]
    fn every_write_but_the_last_is_a_whole_buffer() {
        let style = Style {
            line_end: LineEnd::Crlf,
            final_newline: true,
        };
        let columns = Columns::ValueAlphaBeta;
        let mut sized = LogWriter::new(WriteSizes::default(), style, columns, b"board");
        let mut expected = b"board".to_vec();
        expected.extend_from_slice(b"\r\nNode,Depth,Value,Alpha,Beta");
        let mut format = LineFormat::new(style, columns);
        for i in 0..60_000i32 {
            let (name, depth, value) = ((i % 66) as usize, (i % 13) as u32, i % 2000 - 1000);
            sized.line(name, depth, value, -INFINITY, value);
            let mut room = [0u8; LINE_ROOM];
            let len = format.put_line(&mut room, name, depth, value, -INFINITY, value);
            expected.extend_from_slice(&room[..len]);
            if i % 7_001 == 0 {
                let text = vec![b'x'; 1 + i as usize % 100_003];
                sized.push_bytes(&text);
                expected.extend_from_slice(&text);
            }
        }
        expected.extend_from_slice(b"\r\n");
        let (written, _) = sized.finish(true, |_| {}).unwrap();
        let (last, whole) = written.0.split_last().unwrap();
        assert!(whole.len() > 3);
        assert!(whole.iter().all(|&len| len == BUFFER_BYTES), "{whole:?}");
        assert!(*last <= BUFFER_BYTES);
        assert!(written.1 == expected, "the bytes differ");
    }

    /// A log that cannot be written stops the search: a cut-off depth far past the
    /// end of the game returns at once.
    #[test]
    fn a_write_error_stops_the_search() {
        use crate::board::Geometry;
        use crate::course_search::{search, LeafRule, SearchParams};
        use crate::eval::Cs561;
        let style = Style::default();
        let mut writer = LogWriter::new(
            FullDisk { room: 1 << 20 },
            style,
            Columns::ValueAlphaBeta,
            b"",
        );
        let params = SearchParams {
            depth: u32::MAX,
            leaf_rule: LeafRule::PassAfterPass,
            pruning: true,
        };
        search(Geometry::STANDARD.start(), params, &Cs561, &mut writer);
        assert!(writer.stopped());
        let error = writer.finish(false, |_| {}).err().unwrap();
        assert_eq!(error.to_string(), "disk full");
    }
}
