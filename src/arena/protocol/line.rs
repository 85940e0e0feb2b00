//! Caltech CS 2's line protocol: one process per game, started as `./othello.sh
//! Black` (or `White`); it prints one line when ready, then, each turn, reads the
//! opponent's last move and its own time left, `x y msLeft` (`-1 -1` for none or a
//! pass; x the column, y the row, 0-based), and answers `x y` (`-1 -1`: pass). Games
//! start from the standard position, black first, as the agents keep their own board.
//! `--seconds` is then the game's bank of CPU time: the run is killed once it has used
//! the bank and the start allowance; each answer is awaited for at most the wall-time
//! net of what is left.

use std::io;
use std::time::Duration;

use super::conversation::Conversation;
use super::{Built, Protocol, Terms};
use crate::arena::game::{Answer, Fault, Player, Reason};
use crate::board::Square;
use crate::printable::printable_bytes;
use crate::rules::{Color, Position};
use crate::sandbox::Sandbox;

/// The line adapter.
pub struct Line;

/// The standard start: black first, white on d4 and e5.
pub const START: Position = Position {
    to_move: Color::Black,
    white: Square::new(3, 3).bit() | Square::new(4, 4).bit(),
    black: Square::new(3, 4).bit() | Square::new(4, 3).bit(),
};

impl Protocol for Line {
    fn name(&self) -> &'static str {
        "line"
    }

    fn entry(&self) -> &'static str {
        "othello.sh"
    }

    fn start(&self) -> Option<Position> {
        Some(START)
    }

    fn per_game(&self) -> bool {
        true
    }

    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>> {
        Ok(Box::new(Seat {
            conversation: Conversation::new(built, sandbox, terms),
            seen: START,
        }))
    }
}

/// An agent in one game.
struct Seat<'a> {
    conversation: Conversation<'a>,
    /// The position after its last answer (the start before its first).
    seen: Position,
}

impl Player for Seat<'_> {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let faulty = |fault: Fault| Answer {
            text: fault.answer.clone(),
            verdict: Err(fault),
            cpu: Duration::ZERO,
        };
        if !self.conversation.started() {
            let colour = match position.to_move {
                Color::Black => "Black",
                Color::White => "White",
            };
            self.conversation.start(vec![colour.to_string()]);
            if let Err(fault) = self.conversation.next_line("ready line")? {
                return Ok(faulty(fault));
            }
        }
        // The opponent's move: the cell that filled since its last answer, if any.
        let placed = (position.white | position.black) & !(self.seen.white | self.seen.black);
        let (x, y) = match placed {
            0 => (-1, -1),
            bit => {
                let square = Square::from_index(bit.trailing_zeros() as u8);
                (i32::from(square.col()), i32::from(square.row()))
            }
        };
        let left = self.conversation.left().as_millis();
        self.conversation.send(format!("{x} {y} {left}\n"));
        let line = match self.conversation.next_line("answer")? {
            Ok(line) => line,
            Err(fault) => return Ok(faulty(fault)),
        };
        let text = printable_bytes(&line);
        let said = std::str::from_utf8(&line).ok().and_then(parse);
        Ok(match said {
            Some(said) => {
                self.seen =
                    position.after(said.filter(|s| position.board().moves() & s.bit() != 0));
                Answer {
                    verdict: Ok(said),
                    text,
                    cpu: Duration::ZERO,
                }
            }
            None => faulty(Fault {
                reason: Reason::Unreadable,
                answer: text,
                detail: "expected `x y` (column and row, 0 to 7) or `-1 -1`".into(),
            }),
        })
    }
}

/// Reads `x y`: `Some(None)` for `-1 -1`.
fn parse(line: &str) -> Option<Option<Square>> {
    let mut words = line.split_whitespace();
    let (x, y) = (words.next()?, words.next()?);
    if words.next().is_some() {
        return None;
    }
    if (x, y) == ("-1", "-1") {
        return Some(None);
    }
    let number = |t: &str| -> Option<u8> {
        (t.len() == 1 && t.as_bytes()[0].is_ascii_digit())
            .then(|| t.as_bytes()[0] - b'0')
            .filter(|n| *n < 8)
    };
    Some(Some(Square::new(number(y)?, number(x)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_column_then_row() {
        assert_eq!(parse("3 2"), Some(Some(Square::new(2, 3))));
        assert_eq!(parse(" -1 -1 "), Some(None));
        for bad in ["8 0", "1", "1 2 3", "a b", "-1 0", ""] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
