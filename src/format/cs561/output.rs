//! Writing `output.txt`: the next board, then the traverse log.
//!
//! The board comes first in the file but is known only when the search ends. Its
//! size is fixed, so [`write_output`] reserves it, streams the log behind it and
//! writes it in place at the end; nothing proportional to the log is held in memory.
//! [`write_output_stream`] serves writers that cannot seek (stdout) by searching
//! once without a log to learn the board first.

use std::io::{self, Seek, SeekFrom, Write};

use super::input::{Problem, Task};
use super::log::{Columns, LogWriter};
use crate::eval::Cs561;
use crate::format::{LineEnd, Style};
use crate::search::{search, NoTrace, Outcome, SearchParams};

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

fn params(problem: &Problem) -> SearchParams {
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

/// The next board's lines for `outcome`.
fn next_board_lines(problem: &Problem, outcome: Outcome, line_end: LineEnd) -> Vec<u8> {
    let next = outcome.next_board(problem.root());
    let (x, o) = match problem.player {
        super::Player::X => (next.own, next.opp),
        super::Player::O => (next.opp, next.own),
    };
    board_lines(x, o, line_end)
}

/// Writes a board-only output (greedy).
fn write_board_only<W: Write>(problem: &Problem, style: Style, mut out: W) -> io::Result<Outcome> {
    let outcome = search(problem.root(), params(problem), &Cs561, &mut NoTrace);
    let mut bytes = next_board_lines(problem, outcome, style.line_end);
    if style.final_newline {
        bytes.extend_from_slice(style.line_end.bytes());
    }
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(outcome)
}

/// Solves `problem` and writes the whole output file to `out`, which must start empty
/// at position 0. Memory stays constant whatever the size of the log.
pub fn write_output<W: Write + Seek>(
    problem: &Problem,
    style: Style,
    out: W,
) -> io::Result<Outcome> {
    let Some(columns) = columns(problem.task) else {
        return write_board_only(problem, style, out);
    };
    let reserved = board_lines(0, 0, style.line_end);
    let mut log = LogWriter::new(out, style, columns, &reserved);
    let outcome = search(problem.root(), params(problem), &Cs561, &mut log);
    let board = next_board_lines(problem, outcome, style.line_end);
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

/// Like [`write_output`] for a writer that cannot seek: searches once without a log
/// to learn the next board, then streams board and log in order.
pub fn write_output_stream<W: Write>(problem: &Problem, style: Style, out: W) -> io::Result<Outcome> {
    let Some(columns) = columns(problem.task) else {
        return write_board_only(problem, style, out);
    };
    let outcome = search(problem.root(), params(problem), &Cs561, &mut NoTrace);
    let board = next_board_lines(problem, outcome, style.line_end);
    let mut log = LogWriter::new(out, style, columns, &board);
    search(problem.root(), params(problem), &Cs561, &mut log);
    let (mut out, _) = log.finish(style.final_newline, |_| {})?;
    out.flush()?;
    Ok(outcome)
}
