//! One game between two players: the moves asked for in turn, every answer judged,
//! and the record of how it ended (a forfeit with its reason, position and answer).

use std::io;
use std::time::Duration;

pub use super::bank::{Chance, RandomMove};
use super::shaped::ShapedGame;
use crate::board::Square;
use crate::format::umea::position_text;
use crate::rules::{Color, Position};

/// Why a player lost a game without it being played out: the forfeits of issue 71.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// It named a cell where the side to move cannot play (or a move when it had none).
    IllegalMove,
    /// It passed although it had a legal move.
    PassWithMove,
    /// What it printed is not an answer of its protocol.
    Unreadable,
    /// It printed nothing and exited normally.
    NoAnswer,
    /// It exited with a failure status, was killed by a signal, ran out of memory or
    /// of file space.
    Crash,
    /// It used more than its time (CPU time; or the wall-time net).
    OverTime,
    /// Its build (the compile step) failed: it never played.
    BuildFailed,
}

impl Reason {
    /// The reason in words, as reports and the JSON report give it.
    pub fn words(self) -> &'static str {
        match self {
            Reason::IllegalMove => "illegal move",
            Reason::PassWithMove => "pass with a legal move",
            Reason::Unreadable => "unreadable answer",
            Reason::NoAnswer => "no answer",
            Reason::Crash => "crash",
            Reason::OverTime => "over the time",
            Reason::BuildFailed => "build failed",
        }
    }
}

/// A fault of a player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which forfeit it is.
    pub reason: Reason,
    /// What the player printed (its answer line, or the end of its output), escaped
    /// for reports (`src/printable.rs`); empty when it printed nothing.
    pub answer: String,
    /// What the referee saw, in words (escaped).
    pub detail: String,
}

/// A player's answer to one position: a square of the 8x8 board, or (`M` a cell
/// (x, y)) of a board of any shape ([`super::shaped`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<M = Square> {
    /// The move (`None`: pass), or the fault that forfeits the game. The move is
    /// not checked yet: [`play`] judges it against the position.
    pub verdict: Result<Option<M>, Fault>,
    /// What it printed as its answer, escaped (`src/printable.rs`).
    pub text: String,
    /// The CPU time the answer took (zero for the in-process references).
    pub cpu: Duration,
}

/// A player seated for one game.
pub trait Player {
    /// The answer to `position` (its side to move is this player's), the `number`-th
    /// move of the game (1-based). An error is the referee's own failure (a run that
    /// could not start), not the player's.
    fn answer(&mut self, position: Position, number: usize) -> io::Result<Answer>;

    /// Why the referee chose the last answer's move at random for this player, if it
    /// did (CS561 task 4's bank spent or failed run; see [`super::bank`]).
    fn chance(&self) -> Option<Chance> {
        None
    }
}

/// The player that lost by a fault, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// Its colour.
    pub side: Color,
    /// The fault.
    pub fault: Fault,
    /// The move number of the faulty answer (1-based; the moves played are one fewer).
    pub number: usize,
    /// The position it was asked to move in.
    pub position: Position,
}

impl Forfeit {
    /// The forfeit in words for reports: reason, move number, position, answer, detail.
    pub fn words(&self) -> String {
        format!(
            "{} at move {} in {}: answered `{}`; {}",
            self.fault.reason.words(),
            self.number,
            position_text(self.position),
            self.fault.answer,
            self.fault.detail
        )
    }
}

/// One game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position the game started from.
    pub start: Position,
    /// The moves played (`None`: a pass); a forfeited answer is not one of them.
    pub moves: Vec<Option<Square>>,
    /// The last position.
    pub last: Position,
    /// The forfeit that ended it, if one did.
    pub forfeit: Option<Forfeit>,
    /// The CPU time each side's answers took in all (white, black).
    pub cpu: (Duration, Duration),
    /// The CPU time of each side's longest answer (white, black).
    pub longest: (Duration, Duration),
    /// The CPU time each side had at the start when a bank was played (CS561 task 4):
    /// its time left is this less [`Game::cpu`], and equal discs go to more time left.
    pub bank: Option<Duration>,
    /// The moves the referee chose at random for a player, in order.
    pub random: Vec<RandomMove>,
    /// A game on a Tri-state board of any shape: its start, moves and last board.
    /// The 8x8 fields above (`start`, `moves`, `last`, the forfeit's `position`) then
    /// hold no game (an empty board, no move): the reports that read them (GGF, the
    /// HTML page, reviews, the journal) are refused for such games.
    pub shaped: Option<Box<ShapedGame>>,
}

impl Game {
    /// A game at `start`, no move played yet.
    pub fn starting(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            last: start,
            forfeit: None,
            cpu: (Duration::ZERO, Duration::ZERO),
            longest: (Duration::ZERO, Duration::ZERO),
            bank: None,
            random: Vec::new(),
            shaped: None,
        }
    }

    /// The answer of `side` at move `number` in `position`: its CPU time charged to
    /// `side`, then its move as `judge` finds it (`None`: its fault, recorded as the
    /// game's forfeit).
    pub(super) fn judged<M>(
        &mut self,
        (side, number, position): (Color, usize, Position),
        answer: Answer<M>,
        judge: impl FnOnce(Option<M>, &str) -> Result<Option<M>, Fault>,
    ) -> Option<Option<M>> {
        let (total, longest) = match side {
            Color::White => (&mut self.cpu.0, &mut self.longest.0),
            Color::Black => (&mut self.cpu.1, &mut self.longest.1),
        };
        *total += answer.cpu;
        *longest = (*longest).max(answer.cpu);
        match answer.verdict.and_then(|said| judge(said, &answer.text)) {
            Ok(said) => Some(said),
            Err(fault) => {
                self.forfeit = Some(Forfeit {
                    side,
                    fault,
                    number,
                    position,
                });
                None
            }
        }
    }

    /// The winner (`None`: a draw): a forfeit loses whatever the discs; else more
    /// discs wins; with a bank, equal discs go to more CPU time left.
    pub fn winner(&self) -> Option<Color> {
        if let Some(forfeit) = &self.forfeit {
            return Some(forfeit.side.other());
        }
        let (white, black) = self.discs();
        let order = match (white.cmp(&black), self.bank) {
            // More time left is less time used: both started with the same bank.
            (std::cmp::Ordering::Equal, Some(_)) => self.cpu.1.cmp(&self.cpu.0),
            (order, _) => order,
        };
        match order {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The CPU time each side had left at the end (white, black), in seconds (below
    /// zero once spent past the bank), when a bank was played.
    pub fn cpu_left(&self) -> Option<(f64, f64)> {
        let bank = self.bank?.as_secs_f64();
        Some((
            bank - self.cpu.0.as_secs_f64(),
            bank - self.cpu.1.as_secs_f64(),
        ))
    }

    /// The discs of (white, black) at the end.
    pub fn discs(&self) -> (u32, u32) {
        if let Some(shaped) = &self.shaped {
            let (black, white) = shaped.last.grid.counts();
            return (white as u32, black as u32);
        }
        (self.last.white.count_ones(), self.last.black.count_ones())
    }
}

/// Checks an answer against the position: the move it names (`None`: pass), or why
/// it forfeits. The side to move is asked even when it has no move (Umea's agents
/// answer `pass` then).
pub fn judge(
    position: Position,
    said: Option<Square>,
    answer: &str,
) -> Result<Option<Square>, Fault> {
    let moves = position.board().moves();
    judge_by(
        said,
        moves.count_ones() as usize,
        |square| moves & square.bit() != 0,
        |square, some| {
            if some {
                format!("{square} is not a legal move")
            } else {
                format!("{square} is not legal: it had no legal move (pass)")
            }
        },
        answer,
    )
}

/// The rule every answer is judged by, on a board of any shape: a pass (`pass`,
/// `skip`) is legal exactly when the side to move has none of its `moves`; a cell
/// only when `legal` says so (`illegal` says why not, told whether it had a move).
pub(super) fn judge_by<C: Copy>(
    said: Option<C>,
    moves: usize,
    legal: impl Fn(C) -> bool,
    illegal: impl Fn(C, bool) -> String,
    answer: &str,
) -> Result<Option<C>, Fault> {
    let fault = |reason, detail: String| Fault {
        reason,
        answer: answer.to_string(),
        detail,
    };
    match said {
        None if moves != 0 => Err(fault(
            Reason::PassWithMove,
            format!("it had {moves} legal moves"),
        )),
        None => Ok(None),
        Some(cell) if !legal(cell) => Err(fault(Reason::IllegalMove, illegal(cell, moves != 0))),
        Some(cell) => Ok(Some(cell)),
    }
}

/// Plays one game from `start`, asking `white` and `black` in turn until neither
/// side can move or one forfeits.
pub fn play(white: &mut dyn Player, black: &mut dyn Player, start: Position) -> io::Result<Game> {
    let mut game = Game::starting(start);
    loop {
        let position = game.last;
        let board = position.board();
        if board.moves() == 0 && board.pass().moves() == 0 {
            return Ok(game);
        }
        let side = position.to_move;
        let number = game.moves.len() + 1;
        let mover: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let answer = mover.answer(position, number)?;
        if let Some(why) = mover.chance() {
            game.random.push(RandomMove { number, side, why });
        }
        let judged = game.judged((side, number, position), answer, |said, text| {
            judge(position, said, text)
        });
        let Some(square) = judged else {
            return Ok(game);
        };
        game.moves.push(square);
        game.last = position.after(square);
    }
}
