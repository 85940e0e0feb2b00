//! The traverse log as compact records, so that formatting overlaps the search: the
//! search's thread stores each line as 16 bytes (name, depth, value, alpha, beta) and
//! hands full buffers on ([`RecordWriter`]); the writing thread turns them into text
//! with a [`LogWriter`] ([`Formatting`]) and writes it.
//!
//! Formatting and writing take the writing thread longer than the search takes to
//! store the records. When buffers wait for it, the search's thread formats its next
//! buffer itself, as text, which costs it less than records cost the two threads
//! together; the writing thread then copies that text into its whole-sized buffers
//! (a copy costs it less than formatting). The work so shares
//! itself between the two threads, on any machine and any log.

use std::io::{self, Write};
use std::ptr;

use super::log::{name_index, Columns, LineFormat, LogWriter, LINE_ROOM};
use crate::course_search::{NodeName, Trace};
use crate::format::chunks::Chunks;
use crate::format::Style;

/// Bytes of one record: four little words (name and depth, value, alpha, beta).
const RECORD_BYTES: usize = 16;

/// Bytes gathered before a buffer is handed on: 16 Ki records, or as many lines of text.
const FULL: usize = 16 * 1024 * RECORD_BYTES;

/// Depths fit in the 24 bits a record gives them: a printed node lies at most 60
/// placements and 61 passes (never two in a row but at the end) below the root.
const DEPTH_LIMIT: u32 = 1 << 24;

/// The first word of a record that starts a buffer of text rather than of records:
/// a name index no node has.
const TEXT_MARK: u32 = 0xff;

/// A [`Trace`] that stores each line as a record, or formats it when the writer falls
/// behind, and submits full buffers to `C` (usually a
/// [`Background`](crate::format::chunks::Background) thread running [`Formatting`]).
///
/// The first error of `C` stops all further submissions, and the search;
/// [`RecordWriter::finish`] returns it.
pub struct RecordWriter<C: Chunks> {
    out: C,
    buffer: Box<[u8]>,
    /// Bytes of `buffer` in use.
    filled: usize,
    /// Whether `buffer` holds text (after a [`TEXT_MARK`] record) rather than records.
    text: bool,
    format: LineFormat,
    error: Option<io::Error>,
}

impl<C: Chunks> RecordWriter<C> {
    /// A writer of records to `out`, or of `columns` lines in `style` when `out` is
    /// behind.
    pub fn new(out: C, style: Style, columns: Columns) -> Self {
        RecordWriter {
            out,
            buffer: vec![0; FULL + LINE_ROOM].into_boxed_slice(),
            filled: 0,
            text: false,
            format: LineFormat::new(style, columns),
            error: None,
        }
    }

    /// Hands the buffer on, and starts the next one as text if `out` is behind.
    fn submit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.submit(&mut self.buffer, self.filled) {
                self.error = Some(e);
            }
        }
        self.text = self.error.is_none() && self.out.behind();
        self.filled = 0;
        if self.text {
            self.store([TEXT_MARK, 0, 0, 0]);
        }
    }

    /// Appends a record.
    #[inline(always)]
    fn store(&mut self, words: [u32; 4]) {
        let at = &mut self.buffer[self.filled..self.filled + RECORD_BYTES];
        // SAFETY: `at` holds 16 bytes, the size of the words; the write needs no
        // alignment.
        unsafe { ptr::write_unaligned(at.as_mut_ptr().cast::<[u32; 4]>(), words) };
        self.filled += RECORD_BYTES;
    }

    /// Hands on the last records, waits until all are taken, and returns `C`'s output.
    pub fn finish(mut self) -> io::Result<C::Output> {
        self.submit();
        // `C`'s own error, if any, says more than a stopped thread.
        let out = self.out.close()?;
        match self.error {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }
}

impl<C: Chunks> Trace for RecordWriter<C> {
    #[inline(always)]
    fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32) {
        if self.text {
            let room = &mut self.buffer[self.filled..];
            let name = name_index(name);
            self.filled += self.format.put_line(room, name, depth, value, alpha, beta);
        } else {
            debug_assert!(depth < DEPTH_LIMIT, "depth {depth} does not fit a record");
            let name_and_depth = name_index(name) as u32 | depth << 8;
            self.store([name_and_depth, value as u32, alpha as u32, beta as u32]);
        }
        if self.filled >= FULL {
            self.submit();
        }
    }

    /// After an error nothing more is handed on: the search may as well stop.
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}

/// Whether a submitted buffer holds text (it starts with a [`TEXT_MARK`] record)
/// rather than records.
fn holds_text(buffer: &[u8]) -> bool {
    buffer.first_chunk::<4>().copied().map(u32::from_ne_bytes) == Some(TEXT_MARK)
}

/// Takes buffers of records or text (as [`Write`], each buffer in one call, as a
/// [`Background`](crate::format::chunks::Background) thread hands them) and writes
/// their lines through a [`LogWriter`]; the first write error of the log is returned
/// by the write that met it, and nothing is written after it.
pub struct Formatting<C: Chunks>(pub LogWriter<C>);

impl<C: Chunks> Write for Formatting<C> {
    fn write(&mut self, buffer: &[u8]) -> io::Result<usize> {
        if holds_text(buffer) {
            self.0.push_bytes(&buffer[RECORD_BYTES..]);
        } else {
            debug_assert_eq!(buffer.len() % RECORD_BYTES, 0, "whole records only");
            for record in buffer.chunks_exact(RECORD_BYTES) {
                // SAFETY: `record` holds 16 bytes, the size of the words; the read
                // needs no alignment.
                let words = unsafe { ptr::read_unaligned(record.as_ptr().cast::<[u32; 4]>()) };
                let (name, depth) = ((words[0] & 0xff) as usize, words[0] >> 8);
                let (value, alpha, beta) = (words[1] as i32, words[2] as i32, words[3] as i32);
                self.0.line(name, depth, value, alpha, beta);
            }
        }
        match self.0.take_error() {
            Some(e) => Err(e),
            None => Ok(buffer.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Square};
    use crate::course_search::{search, LeafRule, SearchParams, INFINITY};
    use crate::eval::Cs561;
    use crate::format::chunks::Background;
    use crate::format::cs561::log::tests::{keeping_windows, FullDisk};
    use crate::format::cs561::Columns;
    use crate::format::{LineEnd, Style};
    use proptest::prelude::*;
    use std::thread;

    fn names() -> impl Strategy<Value = NodeName> {
        prop_oneof![
            Just(NodeName::Root),
            Just(NodeName::Pass),
            (0u8..64).prop_map(|i| NodeName::Cell(Square::from_index(i))),
        ]
    }

    fn values() -> impl Strategy<Value = i32> {
        prop_oneof![
            -1100..1100i32,
            Just(INFINITY),
            Just(-INFINITY),
            any::<i32>(),
        ]
    }

    /// Formats buffers in the calling thread, and says it is behind or not as
    /// `pattern` says, in turn: both kinds of buffer, in any order.
    struct Pattern<W> {
        out: W,
        pattern: Vec<bool>,
        asked: usize,
    }

    impl<W: Write> Chunks for Pattern<W> {
        type Output = W;

        fn submit(&mut self, buffer: &mut Box<[u8]>, len: usize) -> io::Result<()> {
            self.out.write_all(&buffer[..len])
        }

        fn close(mut self) -> io::Result<W> {
            self.out.flush()?;
            Ok(self.out)
        }

        fn behind(&mut self) -> bool {
            self.asked += 1;
            self.pattern[self.asked % self.pattern.len()]
        }
    }

    /// How many times the search has asked whether the writer is behind, and whether
    /// it has finished: a writer that waits on it falls behind for certain, however
    /// slowly the search runs.
    #[derive(Default)]
    struct Gate {
        state: std::sync::Mutex<(usize, bool)>,
        changed: std::sync::Condvar,
    }

    impl Gate {
        fn update(&self, change: impl FnOnce(&mut (usize, bool))) {
            change(&mut self.state.lock().unwrap());
            self.changed.notify_all();
        }

        /// Waits until the search has asked `times` times or finished.
        fn wait_for(&self, times: usize) {
            let state = self.state.lock().unwrap();
            drop(
                self.changed
                    .wait_while(state, |(asked, done)| *asked < times && !*done)
                    .unwrap(),
            );
        }
    }

    /// Passes buffers on to `C`, counting those of text, and tells `gate` of each
    /// question whether `C` is behind and of the end.
    struct Counting<'g, C> {
        out: C,
        text_buffers: usize,
        gate: &'g Gate,
    }

    impl<C: Chunks> Chunks for Counting<'_, C> {
        type Output = (C::Output, usize);

        fn submit(&mut self, buffer: &mut Box<[u8]>, len: usize) -> io::Result<()> {
            self.text_buffers += usize::from(holds_text(&buffer[..len]));
            self.out.submit(buffer, len)
        }

        fn close(self) -> io::Result<Self::Output> {
            self.gate.update(|(_, done)| *done = true);
            Ok((self.out.close()?, self.text_buffers))
        }

        fn behind(&mut self) -> bool {
            let behind = self.out.behind();
            self.gate.update(|(asked, _)| *asked += 1);
            behind
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Lines that go through records and the formatting thread, or are formatted
        /// as text when the writer is behind, come out as the log writer writes them
        /// directly, across several buffers, with or without the window columns.
        /// Most lines keep the window of the line before, as in a real log.
        #[test]
        fn records_and_text_format_as_the_log_writer_does(
            lines in prop::collection::vec(
                (names(), 0u32..300, values(), values(), values(), any::<bool>()),
                1..40,
            ),
            repeat in 1usize..3000,
            behind in prop::collection::vec(any::<bool>(), 1..4),
            alpha_beta in any::<bool>(),
        ) {
            let style = Style { line_end: LineEnd::Crlf, final_newline: false };
            let columns = if alpha_beta { Columns::ValueAlphaBeta } else { Columns::Value };
            let lines = keeping_windows(&lines);
            let lines = lines.iter().cycle().take(lines.len() * repeat);
            let mut direct = LogWriter::new(Vec::new(), style, columns, b"board");
            let log = LogWriter::new(Vec::new(), style, columns, b"board");
            let pattern = Pattern { out: Formatting(log), pattern: behind, asked: 0 };
            let mut records = RecordWriter::new(pattern, style, columns);
            for &(name, depth, value, alpha, beta) in lines {
                direct.node(name, depth, value, alpha, beta);
                records.node(name, depth, value, alpha, beta);
            }
            let Formatting(log) = records.finish().unwrap();
            let through_records = log.finish(false, |_| {}).unwrap().0;
            let direct = direct.finish(false, |_| {}).unwrap().0;
            prop_assert!(through_records == direct, "the outputs differ");
        }
    }

    /// A real search through the formatting thread, with the writer held back so
    /// that it falls behind, writes the log the log writer writes directly, and
    /// some of its buffers are text.
    #[test]
    fn a_search_through_a_held_back_writer_formats_some_buffers_as_text() {
        /// Holds its first buffer until the search has asked three times whether
        /// it is behind: by then three buffers are in flight, so it is, whatever
        /// the load on the machine.
        struct HeldBack<'g> {
            out: Vec<u8>,
            gate: &'g Gate,
        }
        impl Write for HeldBack<'_> {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if self.out.is_empty() {
                    self.gate.wait_for(3);
                }
                self.out.extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let params = SearchParams {
            depth: 9,
            leaf_rule: LeafRule::PassAfterPass,
            pruning: true,
        };
        let (style, columns) = (Style::default(), Columns::ValueAlphaBeta);
        let board = Geometry::STANDARD.start();
        let mut direct = LogWriter::new(Vec::new(), style, columns, b"board");
        search(board, params, &Cs561, &mut direct);
        let direct = direct.finish(false, |_| {}).unwrap().0;
        let gate = Gate::default();
        let (through_thread, text_buffers) = thread::scope(|scope| {
            let held = HeldBack {
                out: Vec::new(),
                gate: &gate,
            };
            let log = LogWriter::new(held, style, columns, b"board");
            let writer = Background::start(scope, Formatting(log));
            let counting = Counting {
                out: writer,
                text_buffers: 0,
                gate: &gate,
            };
            let mut records = RecordWriter::new(counting, style, columns);
            search(board, params, &Cs561, &mut records);
            let (Formatting(log), text_buffers) = records.finish().unwrap();
            (log.finish(false, |_| {}).unwrap().0.out, text_buffers)
        });
        assert!(through_thread == direct, "the outputs differ");
        assert!(text_buffers > 0, "no buffer was formatted as text");
    }

    /// The formatting thread's write error stops the search (a cut-off depth far past
    /// the end of the game returns at once) and is the error returned.
    #[test]
    fn a_write_error_on_the_formatting_thread_stops_the_search() {
        let params = SearchParams {
            depth: u32::MAX,
            leaf_rule: LeafRule::PassAfterPass,
            pruning: true,
        };
        let error = thread::scope(|scope| {
            let log = LogWriter::new(
                FullDisk { room: 1 << 20 },
                Style::default(),
                Columns::ValueAlphaBeta,
                b"",
            );
            let writer = Background::start(scope, Formatting(log));
            let mut records = RecordWriter::new(writer, Style::default(), Columns::ValueAlphaBeta);
            search(Geometry::STANDARD.start(), params, &Cs561, &mut records);
            assert!(records.stopped());
            records.finish().err().unwrap()
        });
        assert_eq!(error.to_string(), "disk full");
    }
}
