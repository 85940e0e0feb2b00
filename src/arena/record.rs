//! A game as data that reads back into the very [`Game`]: the shape of a game in the
//! JSON report (`white`, `black`, `start`, `moves`, `forfeit`), which the
//! tournament's journal keeps one a line and `arena merge` reads from the shards'
//! reports.

use serde::{Deserialize, Serialize};

use super::game::{Fault, Forfeit, Game, Reason};
use crate::board::{Square, Squares};
use crate::format::umea::{parse_position, position_text};
use crate::rules::Color;

/// Every forfeit reason, to read one back from its words.
const REASONS: [Reason; 7] = [
    Reason::IllegalMove,
    Reason::PassWithMove,
    Reason::Unreadable,
    Reason::NoAnswer,
    Reason::Crash,
    Reason::OverTime,
    Reason::BuildFailed,
];

/// The reason whose words are `words`.
pub fn reason_from_words(words: &str) -> Option<Reason> {
    REASONS.into_iter().find(|r| r.words() == words)
}

/// A move as the JSON report writes it: `a1`-`h8`, or `pass`.
pub fn move_text(played: Option<Square>) -> String {
    played.map_or("pass".to_string(), |s| s.to_string())
}

/// A forfeit as the JSON report writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitLine {
    /// The player who forfeited (its name).
    pub player: String,
    /// The reason in words.
    pub reason: String,
    /// The move number of the faulty answer.
    #[serde(rename = "move")]
    pub number: usize,
    /// The answer, escaped.
    pub answer: String,
    /// The position it was asked in (Umea's text).
    pub position: String,
    /// What the referee saw, escaped.
    pub detail: String,
}

/// A game as the JSON report writes it (its other fields are derived from these).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The start (Umea's text).
    pub start: String,
    /// The moves, `a1`-`h8` or `pass`.
    pub moves: Vec<String>,
    /// The forfeit, if one ended the game.
    pub forfeit: Option<ForfeitLine>,
}

impl GameLine {
    /// The line of `game` between `white` and `black` (names as they are).
    pub fn of(game: &Game, white: &str, black: &str) -> GameLine {
        GameLine {
            white: white.into(),
            black: black.into(),
            start: position_text(game.start),
            moves: game.moves.iter().map(|&m| move_text(m)).collect(),
            forfeit: game.forfeit.as_ref().map(|f| ForfeitLine {
                player: if f.side == Color::White { white } else { black }.into(),
                reason: f.fault.reason.words().into(),
                number: f.number,
                answer: f.fault.answer.clone(),
                position: position_text(f.position),
                detail: f.fault.detail.clone(),
            }),
        }
    }

    /// The game it records, its moves replayed (CPU times zero); `None` when it is
    /// not one (a move not legal, a forfeit of no player of the game or at another
    /// position than the game reached).
    pub fn game(&self) -> Option<Game> {
        let start = parse_position(&self.start).ok()?;
        let mut game = Game::starting(start);
        for text in &self.moves {
            let moves = game.last.board().moves();
            let square = if text == "pass" {
                if moves != 0 || game.last.board().pass().moves() == 0 {
                    return None;
                }
                None
            } else {
                Some(Squares(moves).find(|s| s.to_string() == *text)?)
            };
            game.moves.push(square);
            game.last = game.last.after(square);
        }
        if let Some(f) = &self.forfeit {
            let side = if f.player == self.white {
                Color::White
            } else if f.player == self.black {
                Color::Black
            } else {
                return None;
            };
            let position = parse_position(&f.position).ok()?;
            if position != game.last || side != position.to_move || f.number != game.moves.len() + 1
            {
                return None;
            }
            game.forfeit = Some(Forfeit {
                side,
                fault: Fault {
                    reason: reason_from_words(&f.reason)?,
                    answer: f.answer.clone(),
                    detail: f.detail.clone(),
                },
                number: f.number,
                position,
            });
        } else {
            let board = game.last.board();
            if board.moves() != 0 || board.pass().moves() != 0 {
                return None;
            }
        }
        Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::reference::Reference;
    use crate::format::umea::START;

    #[test]
    fn every_reason_reads_back_from_its_words() {
        for reason in REASONS {
            assert_eq!(reason_from_words(reason.words()), Some(reason));
        }
        assert_eq!(reason_from_words("tired"), None);
    }

    #[test]
    fn a_game_reads_back_whole() {
        let mut white = Reference::Depth(1).seat();
        let mut black = Reference::Naive.seat();
        let game = crate::arena::game::play(white.as_mut(), black.as_mut(), START).unwrap();
        let line = GameLine::of(&game, "a", "b");
        assert_eq!(line.game(), Some(game.clone()));
        let mut cut = line.clone();
        cut.moves.pop();
        assert_eq!(cut.game(), None, "a game not ended is no record");
    }
}
