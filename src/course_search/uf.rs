//! The UF CAP4053 example AI (`ExampleAI.MinimaxExample`): depth-limited minimax over
//! row-major move order, first best move wins, and games of it against itself.
//!
//! For the side `color` to move (White = 1 maximises, Black = -1 minimises), each
//! legal cell in row-major order is played; the next side is `-color`, or `color`
//! again when `-color` has no move. The move's rank is the evaluation if the new
//! position is over or the depth is 0, else the best rank of a search one level
//! shallower for the next side. A move replaces the best so far only when
//! `color * rank` is strictly greater.

use crate::board::Square;
use crate::eval::GameEvaluation;
use crate::rules::{Color, MoveOrder, Position, Rules};

/// The example AI's difficulty levels (the GUI's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Look-ahead depth 0: the position right after its own move.
    Beginner,
    /// Look-ahead depth 1.
    Intermediate,
    /// Look-ahead depth 3.
    Advanced,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Intermediate, Level::Advanced];

    /// The look-ahead depth `Run` is called with.
    pub const fn depth(self) -> u32 {
        match self {
            Level::Beginner => 0,
            Level::Intermediate => 1,
            Level::Advanced => 3,
        }
    }
}

/// A move as `ComputerMove` holds it: the cell and its rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// Where the disc goes.
    pub square: Square,
    /// The minimax value of the move, from White's point of view.
    pub rank: i32,
}

/// The example AI's choice for the side to move, looking `depth` levels ahead;
/// `None` when that side has no legal move (the course never asks then).
pub fn choose<E: GameEvaluation>(
    rules: Rules,
    position: Position,
    depth: u32,
    evaluation: &E,
) -> Option<RankedMove> {
    let sign = match position.to_move {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut best: Option<RankedMove> = None;
    for square in MoveOrder::RowMajor.squares(rules.moves(position)) {
        let played = position.play(square);
        let next = if rules.moves(played) == 0 {
            played.pass()
        } else {
            played
        };
        let over = rules.is_over(next);
        let rank = if over || depth == 0 {
            let (black, white) = next.counts();
            let ending = over.then(|| rules.win.ending(white, black));
            evaluation.score(next.white, next.black, ending)
        } else {
            choose(rules, next, depth - 1, evaluation)
                .expect("a position that is not over has a side with a move")
                .rank
        };
        if best.is_none_or(|kept| sign * rank > sign * kept.rank) {
            best = Some(RankedMove { square, rank });
        }
    }
    best
}

/// One entry of a game's move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// `color` placed a disc on the square.
    Placed(Color, Square),
    /// The side to move had no legal move.
    Passed,
}

/// A game of the example AI against itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Black's level.
    pub black: Level,
    /// White's level.
    pub white: Level,
    /// Every turn, in order.
    pub turns: Vec<Turn>,
    /// The finished position.
    pub end: Position,
}

/// Plays the example AI at `black`'s level against itself at `white`'s level from the
/// start position of `rules` until neither side can move.
pub fn play_game<E: GameEvaluation>(
    rules: Rules,
    black: Level,
    white: Level,
    evaluation: &E,
) -> Game {
    let mut position = rules.start;
    let mut turns = Vec::new();
    while !rules.is_over(position) {
        let level = match position.to_move {
            Color::Black => black,
            Color::White => white,
        };
        match choose(rules, position, level.depth(), evaluation) {
            Some(chosen) => {
                turns.push(Turn::Placed(position.to_move, chosen.square));
                position = position.play(chosen.square);
            }
            None => {
                turns.push(Turn::Passed);
                position = position.pass();
            }
        }
    }
    Game {
        black,
        white,
        turns,
        end: position,
    }
}
