//! UF CAP4053 text: boards as 8 rows of `B`, `W`, `.` or of the course's integers
//! (Black = -1, Empty = 0, White = 1), the example AI's `row column rank`, and games in
//! the form of the course's example-vs-example listing.

use std::fmt::Write as _;

use thiserror::Error;

use super::LineError;

use crate::board::Square;
use crate::course_search::uf::{Game, Level, RankedMove, Turn};
use crate::rules::{Color, Position};

/// Cells per row and rows per board.
pub const SIZE: usize = 8;

/// Why a board was refused, and on which line.
pub type BoardError = LineError<BoardErrorKind>;

/// What was wrong with a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardErrorKind {
    /// A character row cell that is not `B`, `W` or `.`.
    #[error("{found:?} is not a cell; expected `B` (black), `W` (white) or `.` (empty)")]
    Letter {
        /// The character found.
        found: char,
    },
    /// A number row value that is not -1, 0 or 1.
    #[error("{found:?} is not a cell; expected -1 (black), 0 (empty) or 1 (white)")]
    Number {
        /// The value found.
        found: String,
    },
    /// A row with the wrong number of cells.
    #[error("the row has {cells} cells; expected 8")]
    RowLength {
        /// Cells found.
        cells: usize,
    },
    /// Not 8 rows.
    #[error("the board has {rows} rows; expected 8 rows of `B`, `W`, `.` or of -1, 0, 1")]
    RowCount {
        /// Rows found.
        rows: usize,
    },
}

/// Reads an 8x8 board with `to_move` to move. Blank lines are ignored. A line that
/// holds a digit is a row of 8 integers -1, 0, 1 separated by spaces or commas (and
/// optionally wrapped in `{ }` or `[ ]`); any other is 8 cells `B`, `W`, `.`
/// (lower case and spaces between cells allowed).
pub fn parse_board(text: &str, to_move: Color) -> Result<Position, BoardError> {
    let mut position = Position {
        black: 0,
        white: 0,
        to_move,
    };
    let mut rows = 0;
    let mut last_line = 1;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        last_line = number;
        let error = |kind| BoardError { line: number, kind };
        let cells = if line.chars().any(|c| c.is_ascii_digit()) {
            number_row(line).map_err(error)?
        } else {
            letter_row(line).map_err(error)?
        };
        if rows >= SIZE {
            return Err(error(BoardErrorKind::RowCount { rows: rows + 1 }));
        }
        if cells.len() != SIZE {
            return Err(error(BoardErrorKind::RowLength { cells: cells.len() }));
        }
        for (col, cell) in cells.into_iter().enumerate() {
            let bit = Square::new(rows as u8, col as u8).bit();
            match cell {
                Some(Color::Black) => position.black |= bit,
                Some(Color::White) => position.white |= bit,
                None => {}
            }
        }
        rows += 1;
    }
    if rows != SIZE {
        return Err(BoardError {
            line: last_line,
            kind: BoardErrorKind::RowCount { rows },
        });
    }
    Ok(position)
}

fn letter_row(line: &str) -> Result<Vec<Option<Color>>, BoardErrorKind> {
    line.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            'B' => Ok(Some(Color::Black)),
            'W' => Ok(Some(Color::White)),
            '.' => Ok(None),
            _ => Err(BoardErrorKind::Letter { found: c }),
        })
        .collect()
}

fn number_row(line: &str) -> Result<Vec<Option<Color>>, BoardErrorKind> {
    let inner = line.trim().trim_end_matches(',');
    let inner = inner
        .strip_prefix(['{', '['])
        .and_then(|t| t.strip_suffix(['}', ']']))
        .unwrap_or(inner);
    inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|token| match token {
            "-1" => Ok(Some(Color::Black)),
            "0" => Ok(None),
            "1" => Ok(Some(Color::White)),
            _ => Err(BoardErrorKind::Number {
                found: token.to_string(),
            }),
        })
        .collect()
}

/// `row column rank`, as the fields of the example AI's `ComputerMove`.
pub fn move_line(chosen: &RankedMove) -> String {
    format!(
        "{} {} {}",
        chosen.square.row(),
        chosen.square.col(),
        chosen.rank
    )
}

/// The GUI's name of a level.
pub const fn level_name(level: Level) -> &'static str {
    match level {
        Level::Beginner => "Beginner",
        Level::Intermediate => "Intermediate",
        Level::Advanced => "Advanced",
    }
}

/// A game as two lines, each ended by `\n`:
/// `Advanced(black) vs Beginner(white): black=50 white=14 empty=0`, then
/// `  moves: B23 W22 ...` (colour letter, row digit, column digit; `pass` for a side
/// with no move).
pub fn game_text(game: &Game) -> String {
    let (black, white) = game.end.counts();
    let empty = SIZE as u32 * SIZE as u32 - black - white;
    let mut out = format!(
        "{}(black) vs {}(white): black={black} white={white} empty={empty}\n  moves:",
        level_name(game.black),
        level_name(game.white),
    );
    for turn in &game.turns {
        let _ = match turn {
            Turn::Placed(color, square) => {
                let letter = match color {
                    Color::Black => 'B',
                    Color::White => 'W',
                };
                write!(out, " {letter}{}{}", square.row(), square.col())
            }
            Turn::Passed => write!(out, " pass"),
        };
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn letters_and_numbers_agree() {
        let letters =
            "........\n........\n........\n...WB...\n...BW...\n........\n........\n........\n";
        let numbers = "0 0 0 0 0 0 0 0\n0,0,0,0,0,0,0,0\n{0, 0, 0, 0, 0, 0, 0, 0},\n0 0 0 1 -1 0 0 0\n[0 0 0 -1 1 0 0 0]\n0 0 0 0 0 0 0 0\n\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n";
        let start = Rules::STANDARD.start;
        assert_eq!(parse_board(letters, Color::Black), Ok(start));
        assert_eq!(parse_board(numbers, Color::Black), Ok(start));
    }

    #[test]
    fn errors_name_the_line() {
        let bad = "........\n........\n........\n...WX...\n";
        assert_eq!(
            parse_board(bad, Color::Black).unwrap_err().to_string(),
            "line 4: 'X' is not a cell; expected `B` (black), `W` (white) or `.` (empty)"
        );
        let short = "........\n";
        assert_eq!(
            parse_board(short, Color::Black).unwrap_err().to_string(),
            "line 1: the board has 1 rows; expected 8 rows of `B`, `W`, `.` or of -1, 0, 1"
        );
    }
}
