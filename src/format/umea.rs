//! The Umea 5DV122/5DV181 Othello course: a position is one 65-character argument,
//! the answer one line on standard output (SPEC.md section 2).
//!
//! Position: `W` or `B` (the side to move), then 64 cells row-major from the top-left,
//! `E` empty, `O` white, `X` black. Answer: `(row,col)`, both 1-based, or `pass`.

use thiserror::Error;

use crate::board::Square;
use crate::rules::{Color, Position};

/// The letter that names the side to move first in a position: `W` or `B`.
pub const fn side_letter(color: Color) -> char {
    match color {
        Color::White => 'W',
        Color::Black => 'B',
    }
}

/// The course's start position: white on d4 and e5, black on e4 and d5, white to move.
pub const START: Position = Position {
    to_move: Color::White,
    white: Square::new(3, 3).bit() | Square::new(4, 4).bit(),
    black: Square::new(3, 4).bit() | Square::new(4, 3).bit(),
};

/// The 65-character form of a position.
pub fn position_text(position: Position) -> String {
    let mut text = String::with_capacity(65);
    text.push(side_letter(position.to_move));
    for index in 0..64 {
        let bit = 1u64 << index;
        text.push(if position.white & bit != 0 {
            'O'
        } else if position.black & bit != 0 {
            'X'
        } else {
            'E'
        });
    }
    text
}

/// Why a position argument was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Not 65 characters.
    #[error("expected 65 characters (W or B, then 64 cells E, O or X); found {found}")]
    Length {
        /// The number of characters found.
        found: usize,
    },
    /// A first character other than `W` or `B`.
    #[error("character 1: expected the side to move, W or B; found {found:?}")]
    Side {
        /// The character found.
        found: char,
    },
    /// A cell character other than `E`, `O` or `X`.
    #[error(
        "character {index} (row {row}, column {col}): expected a cell, E, O or X; found {found:?}"
    )]
    Cell {
        /// 1-based position in the argument.
        index: usize,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The character found.
        found: char,
    },
}

/// Parses the 65-character position argument (spaces around it are ignored).
pub fn parse_position(text: &str) -> Result<Position, PositionError> {
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 65 {
        return Err(PositionError::Length { found: chars.len() });
    }
    let to_move = match chars[0] {
        'W' => Color::White,
        'B' => Color::Black,
        found => return Err(PositionError::Side { found }),
    };
    let (mut white, mut black) = (0u64, 0u64);
    for (index, &c) in chars[1..].iter().enumerate() {
        let bit = 1u64 << index;
        match c {
            'E' => {}
            'O' => white |= bit,
            'X' => black |= bit,
            found => {
                return Err(PositionError::Cell {
                    index: index + 2,
                    row: index / 8 + 1,
                    col: index % 8 + 1,
                    found,
                })
            }
        }
    }
    Ok(Position {
        to_move,
        white,
        black,
    })
}

/// The answer line (without its newline): `(row,col)` 1-based, or `pass`.
pub fn answer(square: Option<Square>) -> String {
    match square {
        Some(square) => format!("({},{})", square.row() + 1, square.col() + 1),
        None => "pass".into(),
    }
}

/// Why an answer line was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("expected `(row,col)` with row and column 1 to 8, or `pass`; found {found:?}")]
pub struct AnswerError {
    /// The text found (trimmed).
    pub found: String,
}

/// Reads an answer line: `Ok(None)` for `pass`. Spaces around it are ignored.
pub fn parse_answer(text: &str) -> Result<Option<Square>, AnswerError> {
    let text = text.trim();
    if text == "pass" {
        return Ok(None);
    }
    let refuse = || AnswerError { found: text.into() };
    let inner = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(refuse)?;
    let (row, col) = inner.split_once(',').ok_or_else(refuse)?;
    let row: u8 = row.parse().map_err(|_| refuse())?;
    let col: u8 = col.parse().map_err(|_| refuse())?;
    if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
        return Err(refuse());
    }
    Ok(Some(Square::new(row - 1, col - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let text = position_text(START);
        assert_eq!(text.len(), 65);
        assert_eq!(parse_position(&text), Ok(START));
    }

    #[test]
    fn answers_round_trip() {
        for index in 0..64 {
            let square = Square::from_index(index);
            assert_eq!(parse_answer(&answer(Some(square))), Ok(Some(square)));
        }
        assert_eq!(parse_answer("pass"), Ok(None));
        assert!(parse_answer("(0,1)").is_err());
        assert!(parse_answer("(1, 2)").is_err());
    }

    #[test]
    fn bad_positions_name_the_character() {
        assert_eq!(parse_position("W"), Err(PositionError::Length { found: 1 }));
        let mut text = position_text(START);
        text.replace_range(10..11, "x");
        assert_eq!(
            parse_position(&text),
            Err(PositionError::Cell {
                index: 11,
                row: 2,
                col: 2,
                found: 'x'
            })
        );
    }
}
