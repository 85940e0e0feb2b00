//! `reversi engine nboard`: the engine speaking the NBoard protocol (the Othello GUI
//! NBoard's, which NTest, Edax and other referees speak) on standard input and output,
//! one command a line:
//!
//! - `nboard VERSION`: starts the session (any version is taken; 2 is current).
//! - `set depth N`: the heuristic search's plies; answered `set myname reversiN`.
//!   Exact from `2 x N` empty cells (at most 20): [`crate::engine::fixed`].
//! - `set game GGF`: the position at the end of that game ([`crate::format::ggf`]).
//! - `set contempt N`: taken and ignored (the engine has no contempt).
//! - `move SQUARE[/EVAL/TIME]` (or a bare `F5`, as NBoard 1.1 sends it): plays it.
//! - `hint N`: `search MOVE EVAL 0 DEPTH` for the best N moves, best first (`exact`
//!   after the depth when solved), between `status thinking` and `status`.
//! - `go`: `=== MOVE/EVAL/SECONDS`, the move the engine would play (`PA` a pass); the
//!   position is not changed (a `move` follows).
//! - `ping N`: `pong N`. `learn`: `learned`. `quit` or the end of input: exits.
//!
//! Evaluations are in discs for the side to move. Other lines are ignored, as the
//! protocol asks; a line that cannot be applied (a bad game, an illegal move) is
//! reported on standard error and leaves the position as it was. There is no clock:
//! the search is of fixed depth, so its moves do not depend on the machine's load.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use crate::engine::fixed::{best_move, move_values, Evaluation, Strength};
use crate::format::ggf;
use crate::rules::{Color, Position};

/// The depth until the first `set depth`.
pub const DEFAULT_DEPTH: u32 = 8;

/// The engine's state between commands.
struct Session {
    strength: Strength,
    position: Position,
}

/// Serves the protocol from `input` to `output` until `quit` or the end of input,
/// searching `depth` plies until a `set depth`; what cannot be applied goes to
/// `errors`.
pub fn serve<R: BufRead, W: Write, E: Write>(
    input: R,
    mut output: W,
    mut errors: E,
    depth: u32,
) -> io::Result<()> {
    let mut session = Session {
        strength: Strength::plies(depth),
        position: crate::format::umea::START.with_to_move(Color::Black),
    };
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "quit" => break,
            "ping" => writeln!(output, "pong {rest}")?,
            "learn" => writeln!(output, "learned")?,
            "set" => {
                let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
                match what {
                    "depth" => match value.trim().parse::<u32>() {
                        Ok(depth) if (1..=60).contains(&depth) => {
                            session.strength = Strength::plies(depth);
                            writeln!(output, "set myname reversi{depth}")?;
                        }
                        _ => writeln!(errors, "set depth: expected 1 to 60, found {value:?}")?,
                    },
                    "game" => match ggf::read(value) {
                        Ok(game) => session.position = game.last(),
                        Err(e) => writeln!(errors, "set game: {e}")?,
                    },
                    _ => {}
                }
            }
            "move" => play(&mut session, rest, &mut errors)?,
            _ if command.len() == 2 && ggf::parse_move_name(command).is_some() => {
                play(&mut session, command, &mut errors)?
            }
            "hint" => {
                let count = rest.parse::<usize>().unwrap_or(1).max(1);
                writeln!(output, "status thinking")?;
                output.flush()?;
                let board = session.position.board();
                let values = move_values(board, session.strength);
                if values.is_empty() {
                    let (_, evaluation) = best_move(board, session.strength);
                    writeln!(output, "search PA {}", search_tail(evaluation))?;
                }
                for (square, evaluation) in values.into_iter().take(count) {
                    let name = ggf::square_name(square);
                    writeln!(output, "search {name} {}", search_tail(evaluation))?;
                }
                writeln!(output, "status")?;
            }
            "go" => {
                let started = Instant::now();
                let (best, evaluation) = best_move(session.position.board(), session.strength);
                writeln!(
                    output,
                    "=== {}/{:.2}/{:.2}",
                    ggf::move_name(best),
                    evaluation.discs,
                    started.elapsed().as_secs_f64()
                )?;
            }
            _ => {}
        }
        output.flush()?;
    }
    Ok(())
}

/// `EVAL 0 DEPTH` and `exact` when solved: the end of a `search` line.
fn search_tail(evaluation: Evaluation) -> String {
    let exact = if evaluation.exact { " exact" } else { "" };
    format!("{:.2} 0 {}{exact}", evaluation.discs, evaluation.depth)
}

/// Applies `text` (`F5/eval/time` or `PA`) to the session's position when legal.
fn play<E: Write>(session: &mut Session, text: &str, errors: &mut E) -> io::Result<()> {
    let name = text.split('/').next().unwrap_or_default().trim();
    let board = session.position.board();
    match ggf::parse_move_name(name) {
        Some(Some(square)) if board.moves() & square.bit() != 0 => {
            session.position = session.position.play(square);
        }
        Some(None) if board.moves() == 0 => session.position = session.position.pass(),
        _ => writeln!(errors, "move {text}: not a legal move here; ignored")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(commands: &str) -> (String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        serve(commands.as_bytes(), &mut out, &mut err, DEFAULT_DEPTH).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn moves_and_passes_change_the_position() {
        // After f5 the only legal moves of white are d6, f6 and f4; d6 is one.
        let (out, err) = session("nboard 2\nset depth 1\nmove F5\nd6\nmove PA\nping 3\n");
        assert_eq!(out, "set myname reversi1\npong 3\n");
        assert_eq!(err, "move PA: not a legal move here; ignored\n");
    }

    #[test]
    fn unknown_lines_are_ignored() {
        let (out, err) = session("hello there\nset colour red\nping 1\nquit\nping 2\n");
        assert_eq!(out, "pong 1\n");
        assert_eq!(err, "");
    }
}
