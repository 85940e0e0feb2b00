//! A match runner for the Umea course's protocol, in the manner of the course's
//! `othellostart` script: each move, the program of the side to move is started as
//! `PROGRAM POSITION SECONDS 0` and its one line of output is read. Unlike the
//! course's script, every answer is checked: a move that is not legal, a `pass` when
//! a move exists, or anything unreadable loses the game at once.

pub mod rating;
pub mod review;

use std::io;
use std::time::Duration;

use thiserror::Error;

use crate::board::{Board, Square, Squares};
use crate::format::umea::{self, position_text, START};
use crate::rules::{Color, Position};
use crate::sandbox::policy::{self, PolicyError};
use crate::sandbox::{Ending as SandboxEnding, Program as SandboxedProgram, Sandbox, TAIL_BYTES};

/// A program taking part in a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// A shell command; the position, the seconds and `0` are appended as arguments.
    pub command: String,
    /// The time limit passed to it, in seconds.
    pub seconds: f64,
}

/// Extra time after which a program that has not answered is killed (and loses): the
/// limit plus this, so that a slow answer is still measured.
const GRACE: Duration = Duration::from_secs(5);

/// Why a program lost a game without it being played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForfeitReason {
    /// It answered something other than one `(row,col)` or `pass` line.
    Unreadable(String),
    /// It named a cell where the side to move cannot play.
    Illegal(Square),
    /// It passed although it had a legal move.
    IllegalPass,
    /// It printed nothing, exited with a failure status, or had to be killed.
    Failed(String),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Neither side could move.
    Finished,
    /// This side lost by a fault.
    Forfeit(Color, ForfeitReason),
}

/// One game's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The position the game was started from.
    pub opening: Position,
    /// The moves played from there (`None` for a pass).
    pub moves: Vec<Option<Square>>,
    /// The final position.
    pub last: Position,
    /// How it ended.
    pub ending: Ending,
    /// The longest answer time of (white, black).
    pub longest: (Duration, Duration),
    /// Answers over the limit, of (white, black).
    pub overruns: (u32, u32),
}

impl Game {
    /// The winner (`None`: a draw). A forfeit loses whatever the discs.
    pub fn winner(&self) -> Option<Color> {
        match &self.ending {
            Ending::Forfeit(side, _) => Some(side.other()),
            Ending::Finished => {
                let (white, black) = (self.last.white.count_ones(), self.last.black.count_ones());
                match white.cmp(&black) {
                    std::cmp::Ordering::Greater => Some(Color::White),
                    std::cmp::Ordering::Less => Some(Color::Black),
                    std::cmp::Ordering::Equal => None,
                }
            }
        }
    }
}

/// A failure of the runner itself (not of a program).
#[derive(Debug, Error)]
pub enum ArenaError {
    /// A program could not be started at all.
    #[error("cannot start `{command}`")]
    Spawn {
        /// The command.
        command: String,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

/// `count` distinct openings: from the course's start, `plies` moves chosen by a
/// fixed pseudo-random sequence (the same on every run), passing when needed.
pub fn openings(count: usize, plies: u32) -> Vec<Position> {
    let mut out: Vec<Position> = Vec::with_capacity(count);
    let mut state = 0x5eed_0f0e_1100_u64;
    let mut attempts = 0;
    while out.len() < count {
        let mut position = START;
        for _ in 0..plies {
            let moves = position.board().moves();
            if moves == 0 {
                position = position.after(None);
                continue;
            }
            state = splitmix(state);
            let pick = (state % moves.count_ones() as u64) as usize;
            position = position.after(Squares(moves).nth(pick));
        }
        attempts += 1;
        // Repeat openings only once the distinct ones run out.
        if !out.contains(&position) || attempts > 100 * count {
            out.push(position);
        }
    }
    out
}

fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Seconds as the course passes them: `4`, or `0.5` when not whole.
pub fn seconds_argument(seconds: f64) -> String {
    format!("{seconds}")
}

/// Runs `program` on `position` in `sandbox` and returns its answer line and the time
/// it took.
fn ask(
    program: &Program,
    position: Position,
    sandbox: &Sandbox,
) -> Result<(Result<String, String>, Duration), ArenaError> {
    let limit = Duration::from_secs_f64(program.seconds.max(0.0)) + GRACE;
    let args = [
        position_text(position),
        seconds_argument(program.seconds),
        "0".to_string(),
    ];
    let run = sandbox
        .with_wall(limit)
        .run(&SandboxedProgram {
            command: &format!("{} \"$@\"", program.command),
            args: &args,
            files: &[],
        })
        .map_err(|source| ArenaError::Spawn {
            command: program.command.clone(),
            source,
        })?;
    let took = Duration::from_secs_f64(run.seconds);
    let answer = match run.ending {
        SandboxEnding::WallTime | SandboxEnding::CpuTime => Err(format!(
            "no answer after {:.1} s; every process of it was killed",
            limit.as_secs_f64()
        )),
        SandboxEnding::Signal(signal) => Err(format!("killed by signal {signal}")),
        SandboxEnding::FilesTooLarge => Err("its files passed their bound: killed".into()),
        SandboxEnding::Stopped => Err("interrupted: killed".into()),
        SandboxEnding::Exited(0) if run.stdout.size > TAIL_BYTES as u64 => {
            Err(format!("printed {} bytes", run.stdout.size))
        }
        SandboxEnding::Exited(0) => {
            let text = String::from_utf8_lossy(&run.stdout.tail);
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            match lines.as_slice() {
                [line] => Ok(line.trim().to_string()),
                [] => Err("printed nothing".into()),
                _ => Err(format!("printed {} lines: {text:?}", lines.len())),
            }
        }
        SandboxEnding::Exited(code) => Err(format!("exited with status {code}")),
    };
    Ok((answer, took))
}

/// Checks an answer against the position: the move it names (`None`: pass).
fn judge(board: Board, answer: &str) -> Result<Option<Square>, ForfeitReason> {
    let moves = board.moves();
    match umea::parse_answer(answer) {
        Err(_) => Err(ForfeitReason::Unreadable(answer.to_string())),
        Ok(None) if moves != 0 => Err(ForfeitReason::IllegalPass),
        Ok(None) => Ok(None),
        Ok(Some(square)) if moves & square.bit() == 0 => Err(ForfeitReason::Illegal(square)),
        Ok(Some(square)) => Ok(Some(square)),
    }
}

/// Refuses, before any game, programs whose commands name a file they could not see
/// in `sandbox` (the sandbox's policy, as for `batch`): every answer would fail.
pub fn admit(programs: &[&Program], sandbox: &Sandbox) -> Result<(), PolicyError> {
    programs
        .iter()
        .try_for_each(|program| policy::refuse_unseen_files(&program.command, sandbox))
}

/// Plays one game from `opening`, `white` against `black`, each run in `sandbox`.
pub fn play(
    white: &Program,
    black: &Program,
    opening: Position,
    sandbox: &Sandbox,
) -> Result<Game, ArenaError> {
    let mut game = Game {
        opening,
        moves: Vec::new(),
        last: opening,
        ending: Ending::Finished,
        longest: (Duration::ZERO, Duration::ZERO),
        overruns: (0, 0),
    };
    loop {
        let position = game.last;
        let board = position.board();
        if board.moves() == 0 && board.pass().moves() == 0 {
            return Ok(game);
        }
        let side = position.to_move;
        let program = if side == Color::White { white } else { black };
        let (answer, took) = ask(program, position, sandbox)?;
        let (longest, overruns) = match side {
            Color::White => (&mut game.longest.0, &mut game.overruns.0),
            Color::Black => (&mut game.longest.1, &mut game.overruns.1),
        };
        *longest = (*longest).max(took);
        if took.as_secs_f64() > program.seconds {
            *overruns += 1;
        }
        let verdict = answer
            .map_err(ForfeitReason::Failed)
            .and_then(|text| judge(board, &text));
        match verdict {
            Ok(square) => {
                game.moves.push(square);
                game.last = position.after(square);
            }
            Err(reason) => {
                game.ending = Ending::Forfeit(side, reason);
                return Ok(game);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_and_reproducible() {
        let a = openings(20, 4);
        assert_eq!(a, openings(20, 4));
        for (i, p) in a.iter().enumerate() {
            assert!(!a[..i].contains(p));
            assert_eq!((p.white | p.black).count_ones(), 8);
        }
        assert_eq!(openings(1, 0), vec![START]);
    }

    #[test]
    fn judge_refuses_illegal_answers() {
        let board = START.board();
        assert_eq!(
            judge(board, "(1,1)"),
            Err(ForfeitReason::Illegal(Square::new(0, 0)))
        );
        assert_eq!(judge(board, "pass"), Err(ForfeitReason::IllegalPass));
        assert!(matches!(
            judge(board, "e3"),
            Err(ForfeitReason::Unreadable(_))
        ));
        let first = Squares(board.moves()).next().unwrap();
        assert_eq!(judge(board, &umea::answer(Some(first))), Ok(Some(first)));
    }
}
