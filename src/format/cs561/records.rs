//! The traverse log as compact records, so that formatting overlaps the search: the
//! search's thread stores each line as 16 bytes (name, depth, value, alpha, beta) and
//! hands full buffers on ([`RecordWriter`]); the writing thread turns them into text
//! with a [`LogWriter`] ([`Formatting`]) and writes it.

use std::io::{self, Write};
use std::ptr;

use super::log::{name_index, LogWriter};
use crate::course_search::{NodeName, Trace};
use crate::format::chunks::Chunks;

/// Bytes of one record: four little words (name and depth, value, alpha, beta).
const RECORD_BYTES: usize = 16;

/// Records gathered before a buffer is handed on.
const RECORDS_PER_BUFFER: usize = 16 * 1024;

/// Depths fit in the 24 bits a record gives them: a printed node lies at most 60
/// placements and 61 passes (never two in a row but at the end) below the root.
const DEPTH_LIMIT: u32 = 1 << 24;

/// A [`Trace`] that stores each line as a record and submits full buffers of records
/// to `C` (usually a [`Background`](crate::format::chunks::Background) thread running
/// [`Formatting`]).
///
/// The first error of `C` stops all further submissions, and the search;
/// [`RecordWriter::finish`] returns it.
pub struct RecordWriter<C: Chunks> {
    out: C,
    buffer: Box<[u8]>,
    /// Bytes of `buffer` in use.
    filled: usize,
    error: Option<io::Error>,
}

impl<C: Chunks> RecordWriter<C> {
    /// A writer of records to `out`.
    pub fn new(out: C) -> Self {
        RecordWriter {
            out,
            buffer: vec![0; RECORDS_PER_BUFFER * RECORD_BYTES].into_boxed_slice(),
            filled: 0,
            error: None,
        }
    }

    fn submit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.submit(&mut self.buffer, self.filled) {
                self.error = Some(e);
            }
        }
        self.filled = 0;
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
        debug_assert!(depth < DEPTH_LIMIT, "depth {depth} does not fit a record");
        let words = [
            name_index(name) as u32 | depth << 8,
            value as u32,
            alpha as u32,
            beta as u32,
        ];
        let at = &mut self.buffer[self.filled..self.filled + RECORD_BYTES];
        // SAFETY: `at` holds 16 bytes, the size of the words; the write needs no
        // alignment.
        unsafe { ptr::write_unaligned(at.as_mut_ptr().cast::<[u32; 4]>(), words) };
        self.filled += RECORD_BYTES;
        if self.filled == self.buffer.len() {
            self.submit();
        }
    }

    /// After an error nothing more is handed on: the search may as well stop.
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}

/// Takes buffers of records (as [`Write`]) and writes their lines through a
/// [`LogWriter`]; the first write error of the log is returned by the write that met
/// it, and nothing is written after it.
pub struct Formatting<C: Chunks>(pub LogWriter<C>);

impl<C: Chunks> Write for Formatting<C> {
    fn write(&mut self, records: &[u8]) -> io::Result<usize> {
        debug_assert_eq!(records.len() % RECORD_BYTES, 0, "whole records only");
        for record in records.chunks_exact(RECORD_BYTES) {
            // SAFETY: `record` holds 16 bytes, the size of the words; the read needs
            // no alignment.
            let words = unsafe { ptr::read_unaligned(record.as_ptr().cast::<[u32; 4]>()) };
            let (name, depth) = ((words[0] & 0xff) as usize, words[0] >> 8);
            let (value, alpha, beta) = (words[1] as i32, words[2] as i32, words[3] as i32);
            self.0.line(name, depth, value, alpha, beta);
        }
        match self.0.take_error() {
            Some(e) => Err(e),
            None => Ok(records.len()),
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
    use crate::format::cs561::log::tests::FullDisk;
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Lines that go through records and the formatting thread come out as the
        /// log writer writes them directly, across several buffers of records.
        #[test]
        fn records_format_as_the_log_writer_does(
            lines in prop::collection::vec((names(), 0u32..300, values(), values(), values()), 1..40),
            repeat in 1usize..3000,
        ) {
            let style = Style { line_end: LineEnd::Crlf, final_newline: false };
            let columns = Columns::ValueAlphaBeta;
            let lines = lines.iter().cycle().take(lines.len() * repeat);
            let mut direct = LogWriter::new(Vec::new(), style, columns, b"board");
            let through_records = thread::scope(|scope| {
                let log = LogWriter::new(Vec::new(), style, columns, b"board");
                let mut records = RecordWriter::new(Background::start(scope, Formatting(log)));
                for &(name, depth, value, alpha, beta) in lines {
                    direct.node(name, depth, value, alpha, beta);
                    records.node(name, depth, value, alpha, beta);
                }
                let Formatting(log) = records.finish().unwrap();
                log.finish(false, |_| {}).unwrap().0
            });
            let direct = direct.finish(false, |_| {}).unwrap().0;
            prop_assert!(through_records == direct, "the outputs differ");
        }
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
            let mut records = RecordWriter::new(Background::start(scope, Formatting(log)));
            search(Geometry::STANDARD.start(), params, &Cs561, &mut records);
            assert!(records.stopped());
            records.finish().err().unwrap()
        });
        assert_eq!(error.to_string(), "disk full");
    }
}
