//! Writing `output.txt`: the next board, then the traverse log.
//!
//! The board comes first in the file but is known only when the search ends. Its
//! size is fixed, so [`write_output`] reserves it, streams the log behind it and
//! writes it in place at the end; nothing proportional to the log is held in memory.
//! [`write_output_stream`] serves writers that cannot seek (stdout) by searching
//! once without a log to learn the board first.

use std::io::{self, Seek, SeekFrom, Write};
use std::thread;

use super::input::{Player, Problem, Task};
use super::log::{Columns, LogWriter};
use super::records::{Formatting, RecordWriter};
use crate::board::{Board, Square};
use crate::course_search::{search, NoTrace, Outcome, SearchParams};
use crate::eval::Cs561;
use crate::format::chunks::Background;
use crate::format::{LineEnd, Style};

/// The 8 board lines, `*`, `X` and `O`, joined by `line_end` (none after the last).
pub fn board_lines(x_discs: u64, o_discs: u64, line_end: LineEnd) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 * 10);
    for row in 0..8 {
        if row > 0 {
            out.extend_from_slice(line_end.bytes());
        }
        for col in 0..8 {
            let bit = 1u64 << (row * 8 + col);
            out.push(if x_discs & bit != 0 {
                b'X'
            } else if o_discs & bit != 0 {
                b'O'
            } else {
                b'*'
            });
        }
    }
    out
}

/// How `problem` is searched: its depth, its dialect's leaf rule, pruning unless minimax.
pub fn params(problem: &Problem) -> SearchParams {
    SearchParams {
        depth: problem.depth,
        leaf_rule: problem.dialect.leaf_rule(),
        pruning: problem.task != Task::Minimax,
    }
}

fn columns(task: Task) -> Option<Columns> {
    match task {
        Task::Greedy => None,
        Task::Minimax => Some(Columns::Value),
        Task::AlphaBeta => Some(Columns::ValueAlphaBeta),
    }
}

/// The lines of the board after `best` is played from `root` (unchanged for `None`),
/// with `player`'s discs shown as theirs.
pub(super) fn next_board_lines(
    player: Player,
    root: Board,
    best: Option<Square>,
    line_end: LineEnd,
) -> Vec<u8> {
    let next = match best {
        Some(square) => root.play(square).pass(),
        None => root,
    };
    let (x, o) = player.x_and_o(next);
    board_lines(x, o, line_end)
}

/// Writes a file of board lines alone (greedy).
pub(super) fn write_board_file<W: Write>(
    mut board: Vec<u8>,
    style: Style,
    mut out: W,
) -> io::Result<()> {
    if style.final_newline {
        board.extend_from_slice(style.line_end.bytes());
    }
    out.write_all(&board)?;
    out.flush()
}

/// Writes a board-only output (greedy).
fn write_board_only<W: Write>(problem: &Problem, style: Style, out: W) -> io::Result<Outcome> {
    let outcome = search(problem.root(), params(problem), &Cs561, &mut NoTrace);
    let board = next_board_lines(problem.player, problem.root(), outcome.best, style.line_end);
    write_board_file(board, style, out)?;
    Ok(outcome)
}

/// Solves `problem` and writes the whole output file to `out`, which must start empty
/// at position 0. Memory stays constant whatever the size of the log; a second thread
/// formats and writes the log while the search goes on.
pub fn write_output<W: Write + Seek + Send>(
    problem: &Problem,
    style: Style,
    out: W,
) -> io::Result<Outcome> {
    let Some(columns) = columns(problem.task) else {
        return write_board_only(problem, style, out);
    };
    let reserved = board_lines(0, 0, style.line_end);
    let (outcome, log) = logged_search(problem, style, columns, &reserved, out)?;
    let board = next_board_lines(problem.player, problem.root(), outcome.best, style.line_end);
    let (mut out, patched) = log.finish(style.final_newline, |bytes| {
        bytes[..board.len()].copy_from_slice(&board)
    })?;
    if !patched {
        let end = out.stream_position()?;
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&board)?;
        out.seek(SeekFrom::Start(end))?;
    }
    out.flush()?;
    Ok(outcome)
}

/// Searches `problem` with its log going to `out` after `prefix` and the header: the
/// search stores records that a second thread formats and writes (or formats lines
/// itself while that thread is behind). Returns the
/// outcome and the log, every line written but the last buffer, for
/// [`LogWriter::finish`].
fn logged_search<W: Write + Send>(
    problem: &Problem,
    style: Style,
    columns: Columns,
    prefix: &[u8],
    out: W,
) -> io::Result<(Outcome, LogWriter<W>)> {
    thread::scope(|scope| {
        let log = LogWriter::new(out, style, columns, prefix);
        let writer = Background::start(scope, Formatting(log));
        let mut records = RecordWriter::new(writer, style, columns);
        let outcome = search(problem.root(), params(problem), &Cs561, &mut records);
        let Formatting(log) = records.finish()?;
        Ok((outcome, log))
    })
}

/// Like [`write_output`] for a writer that cannot seek: searches once without a log
/// to learn the next board, then streams board and log in order.
pub fn write_output_stream<W: Write + Send>(
    problem: &Problem,
    style: Style,
    out: W,
) -> io::Result<Outcome> {
    let Some(columns) = columns(problem.task) else {
        return write_board_only(problem, style, out);
    };
    let outcome = search(problem.root(), params(problem), &Cs561, &mut NoTrace);
    let board = next_board_lines(problem.player, problem.root(), outcome.best, style.line_end);
    let (_, log) = logged_search(problem, style, columns, &board, out)?;
    log.finish(style.final_newline, |_| {})?;
    Ok(outcome)
}

/// The text of an input file for `problem`, in the byte form `style`: the task line
/// (f2014), the player, the depth and the 8 board rows. [`super::parse`] reads it back.
pub fn input_file(problem: &Problem, style: Style) -> Vec<u8> {
    let line_end = style.line_end.bytes();
    let mut out = Vec::new();
    if problem.dialect == super::Dialect::F2014 {
        out.push(match problem.task {
            Task::Greedy => b'1',
            Task::Minimax => b'2',
            Task::AlphaBeta => b'3',
        });
        out.extend_from_slice(line_end);
    }
    out.push(problem.player.symbol());
    out.extend_from_slice(line_end);
    out.extend_from_slice(problem.depth.to_string().as_bytes());
    out.extend_from_slice(line_end);
    out.extend_from_slice(&board_lines(
        problem.x_discs,
        problem.o_discs,
        style.line_end,
    ));
    if style.final_newline {
        out.extend_from_slice(line_end);
    }
    out
}
