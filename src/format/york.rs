//! York EECS 3401 A4 text: boards as the course's Prolog term or as plain rows, moves
//! `[X,Y]` (column, row; 0-based from the top-left) or `n`, and the answer line of an
//! `mmeval` query.

use std::fmt::{self, Write as _};

use thiserror::Error;

use super::LineError;

use crate::board::Square;
use crate::course_search::york::{Visit, YorkMove, YorkOutcome};
use crate::rules::{Color, Position};

/// Cells per row and rows per board.
pub const SIZE: usize = 6;

/// Why a board was refused, and on which line.
pub type BoardError = LineError<BoardErrorKind>;

/// What was wrong with a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardErrorKind {
    /// Nothing but whitespace.
    #[error("the board is empty; expected 6 rows of 6 cells `.`, `1` or `2`, as a Prolog list of lists or as plain lines")]
    Empty,
    /// A character where the Prolog term needs another.
    #[error("expected {expected}; found {found}")]
    Unexpected {
        /// What the term needs here.
        expected: &'static str,
        /// What is there (quoted, or "the end of the text").
        found: String,
    },
    /// A row with the wrong number of cells.
    #[error("row {row} has {cells} cells; expected 6")]
    RowLength {
        /// The row, from 1.
        row: usize,
        /// Cells found.
        cells: usize,
    },
    /// A cell that is not `.`, `1` or `2` in a plain row.
    #[error(
        "row {row}: {found:?} is not a cell; expected `.` (empty), `1` (black) or `2` (white)"
    )]
    Cell {
        /// The row, from 1.
        row: usize,
        /// The character found.
        found: char,
    },
    /// Not 6 rows.
    #[error("the board has {rows} rows; expected 6")]
    RowCount {
        /// Rows found.
        rows: usize,
    },
}

/// Reads a board with `to_move` to move: either the Prolog term the course uses,
/// `[[.,.,.,.,.,.],[.,.,.,.,.,.],[.,.,1,2,.,.],...]` (whitespace and newlines
/// anywhere, `%` comments, optionally wrapped as `name(Term)` and ended by `.`), or
/// 6 plain lines of 6 cells (spaces between cells allowed, blank lines ignored).
pub fn parse_board(text: &str, to_move: Color) -> Result<Position, BoardError> {
    let first = text.trim_start().chars().next();
    let rows = match first {
        None => {
            return Err(BoardError {
                line: 1,
                kind: BoardErrorKind::Empty,
            })
        }
        Some(c) if c == '[' || c == '%' || c.is_ascii_alphabetic() => {
            PrologReader::new(text).board()?
        }
        Some(_) => plain_rows(text)?,
    };
    Ok(position_from_rows(&rows, to_move))
}

/// One parsed row of cells, and the line it started on.
type Row = (usize, Vec<u8>);

fn position_from_rows(rows: &[Row], to_move: Color) -> Position {
    let mut position = Position {
        black: 0,
        white: 0,
        to_move,
    };
    for (y, (_, cells)) in rows.iter().enumerate() {
        for (x, &cell) in cells.iter().enumerate() {
            let bit = Square::new(y as u8, x as u8).bit();
            match cell {
                b'1' => position.black |= bit,
                b'2' => position.white |= bit,
                _ => {}
            }
        }
    }
    position
}

fn check_shape(rows: &[Row], last_line: usize) -> Result<(), BoardError> {
    for (index, (line, cells)) in rows.iter().enumerate() {
        if cells.len() != SIZE {
            return Err(BoardError {
                line: *line,
                kind: BoardErrorKind::RowLength {
                    row: index + 1,
                    cells: cells.len(),
                },
            });
        }
    }
    if rows.len() != SIZE {
        let line = rows.get(SIZE).map_or(last_line, |(line, _)| *line);
        return Err(BoardError {
            line,
            kind: BoardErrorKind::RowCount { rows: rows.len() },
        });
    }
    Ok(())
}

fn plain_rows(text: &str) -> Result<Vec<Row>, BoardError> {
    let mut rows = Vec::new();
    let mut last_line = 1;
    for (index, line) in text.lines().enumerate() {
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.is_empty() {
            continue;
        }
        last_line = index + 1;
        if let Some(&found) = cells.iter().find(|c| !matches!(c, '.' | '1' | '2')) {
            return Err(BoardError {
                line: index + 1,
                kind: BoardErrorKind::Cell {
                    row: rows.len() + 1,
                    found,
                },
            });
        }
        rows.push((index + 1, cells.iter().map(|&c| c as u8).collect()));
    }
    check_shape(&rows, last_line)?;
    Ok(rows)
}

/// A cursor over a Prolog term that knows its line.
struct PrologReader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl<'a> PrologReader<'a> {
    fn new(text: &'a str) -> PrologReader<'a> {
        PrologReader {
            chars: text.chars().peekable(),
            line: 1,
        }
    }

    /// The next character that is not whitespace or in a comment, not consumed.
    fn peek(&mut self) -> Option<char> {
        loop {
            match self.chars.peek().copied() {
                Some('\n') => {
                    self.line += 1;
                    self.chars.next();
                }
                Some('%') => while self.chars.next_if(|&c| c != '\n').is_some() {},
                Some(c) if c.is_whitespace() => {
                    self.chars.next();
                }
                other => return other,
            }
        }
    }

    fn error(&mut self, expected: &'static str) -> BoardError {
        let found = match self.peek() {
            Some(c) => format!("{c:?}"),
            None => "the end of the text".into(),
        };
        BoardError {
            line: self.line,
            kind: BoardErrorKind::Unexpected { expected, found },
        }
    }

    fn expect(&mut self, wanted: char, expected: &'static str) -> Result<(), BoardError> {
        if self.peek() == Some(wanted) {
            self.chars.next();
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// `name(Term).`, `Term.` or `Term`, then nothing but whitespace and comments.
    fn board(&mut self) -> Result<Vec<Row>, BoardError> {
        let wrapped = self.peek().is_some_and(|c| c.is_ascii_alphabetic());
        if wrapped {
            while self
                .chars
                .next_if(|c| c.is_ascii_alphanumeric() || *c == '_')
                .is_some()
            {}
            self.expect('(', "`(` after the name")?;
        }
        let rows = self.rows()?;
        if wrapped {
            self.expect(')', "`)` to close the term")?;
        }
        if self.peek() == Some('.') {
            self.chars.next();
        }
        if self.peek().is_some() {
            return Err(self.error("nothing after the board"));
        }
        check_shape(&rows, self.line)?;
        Ok(rows)
    }

    /// `[Row, Row, ...]`.
    fn rows(&mut self) -> Result<Vec<Row>, BoardError> {
        self.expect('[', "`[` to open the list of rows")?;
        let mut rows = Vec::new();
        loop {
            // Skip to the row's `[`, so that its line is the one recorded.
            self.peek();
            let line = self.line;
            self.expect('[', "`[` to open a row")?;
            rows.push((line, self.cells()?));
            match self.peek() {
                Some(',') => {
                    self.chars.next();
                }
                Some(']') => {
                    self.chars.next();
                    return Ok(rows);
                }
                _ => return Err(self.error("`,` or `]` after a row")),
            }
        }
    }

    /// `c, c, ...]` after a row's `[`.
    fn cells(&mut self) -> Result<Vec<u8>, BoardError> {
        let mut cells = Vec::new();
        loop {
            match self.peek() {
                Some(c @ ('.' | '1' | '2')) => {
                    cells.push(c as u8);
                    self.chars.next();
                }
                _ => return Err(self.error("a cell: `.`, `1` or `2`")),
            }
            match self.peek() {
                Some(',') => {
                    self.chars.next();
                }
                Some(']') => {
                    self.chars.next();
                    return Ok(cells);
                }
                _ => return Err(self.error("`,` or `]` after a cell")),
            }
        }
    }
}

/// The York player number of a colour: 1 black, 2 white.
pub const fn player_number(color: Color) -> u8 {
    match color {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// A move as Prolog prints it: `[X,Y]` or `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText(pub YorkMove);

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            YorkMove::Place(square) => write!(f, "[{},{}]", square.col(), square.row()),
            YorkMove::Pass => f.write_str("n"),
        }
    }
}

/// The answer to `mmeval(Plyr, State, Val, BestMv, Depth, SeF)`:
/// `Val = 0, BestMv = [0,0], SeF = 3171`. `BestMv` is left out when it stays unbound
/// (a terminal state, or depth 0), as the Prolog top level leaves out unbound variables.
pub fn answer_line(outcome: &YorkOutcome) -> String {
    let mut line = format!("Val = {}", outcome.value);
    if let Some(best) = outcome.best {
        let _ = write!(line, ", BestMv = {}", MoveText(best));
    }
    let _ = write!(line, ", SeF = {}", outcome.states);
    line
}

/// The board as 6 rows of `.`, `1`, `2` joined by `sep`.
pub fn rows_text(position: Position, sep: &str) -> String {
    (0..SIZE as u8)
        .map(|y| {
            (0..SIZE as u8)
                .map(|x| {
                    let bit = Square::new(y, x).bit();
                    if position.black & bit != 0 {
                        '1'
                    } else if position.white & bit != 0 {
                        '2'
                    } else {
                        '.'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// One line of `--trace`: indented by ply, the move that led here (`root` for the
/// searched state), the player to move, the board rows joined by `/`, and `h = V` for
/// a state that was evaluated rather than expanded.
pub fn trace_line(visit: &Visit) -> String {
    let via = match visit.via {
        Some(mv) => MoveText(mv).to_string(),
        None => "root".into(),
    };
    let mut line = format!(
        "{:indent$}{via} player {} {}",
        "",
        player_number(visit.position.to_move),
        rows_text(visit.position, "/"),
        indent = 2 * visit.ply as usize,
    );
    if let Some(value) = visit.leaf_value {
        let _ = write!(line, " h = {value}");
    }
    line
}

/// The board for a person: column numbers (X) across the top, row numbers (Y) down
/// the side, one line per row, each ended by `\n`.
pub fn picture(position: Position) -> String {
    let mut out = String::from("   ");
    for x in 0..SIZE {
        let _ = write!(out, " {x}");
    }
    out.push('\n');
    for (y, row) in rows_text(position, "\n").lines().enumerate() {
        let _ = write!(out, " {y} ");
        for cell in row.chars() {
            let _ = write!(out, " {cell}");
        }
        out.push('\n');
    }
    out
}

/// Why a typed move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "{found:?} is not a move; type [X,Y]. with X the column and Y the row (0-5), or n. to pass"
)]
pub struct MoveSyntaxError {
    /// The text typed.
    pub found: String,
}

/// Reads a move typed as at the course's `read/1` prompt: `[X,Y].` or `n.` (the final
/// `.` and spaces are optional). Says nothing about legality.
pub fn parse_move(text: &str) -> Result<YorkMove, MoveSyntaxError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let term = compact.strip_suffix('.').unwrap_or(&compact);
    let error = || MoveSyntaxError {
        found: text.trim().to_string(),
    };
    if term == "n" {
        return Ok(YorkMove::Pass);
    }
    let inner = term
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(error)?;
    let (x, y) = inner.split_once(',').ok_or_else(error)?;
    let coordinate = |t: &str| t.parse::<u8>().ok().filter(|&v| (v as usize) < SIZE);
    match (coordinate(x), coordinate(y)) {
        (Some(x), Some(y)) => Ok(YorkMove::Place(Square::new(y, x))),
        _ => Err(error()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    const START_TERM: &str = "initBoard([ [.,.,.,.,.,.], \n [.,.,.,.,.,.],\n [.,.,1,2,.,.], \n [.,.,2,1,.,.], \n [.,.,.,.,.,.], \n [.,.,.,.,.,.] ]).\n";

    #[test]
    fn the_prolog_term_and_plain_rows_agree() {
        let start = Rules::YORK.start;
        assert_eq!(parse_board(START_TERM, Color::Black), Ok(start));
        let plain = "......\n......\n..12..\n..21..\n......\n......\n";
        assert_eq!(parse_board(plain, Color::Black), Ok(start));
        let bare =
            "[[.,.,.,.,.,.],[.,.,.,.,.,.],[.,.,1,2,.,.],[.,.,2,1,.,.],[.,.,.,.,.,.],[.,.,.,.,.,.]]";
        assert_eq!(parse_board(bare, Color::Black), Ok(start));
    }

    #[test]
    fn errors_name_the_line() {
        let short = "......\n......\n..12.\n..21..\n......\n......\n";
        let error = parse_board(short, Color::Black).unwrap_err();
        assert_eq!(error.to_string(), "line 3: row 3 has 5 cells; expected 6");
        let bad = "[[.,.,.,.,.,.],\n[.,x,.,.,.,.]]";
        let error = parse_board(bad, Color::Black).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 2: expected a cell: `.`, `1` or `2`; found 'x'"
        );
    }

    #[test]
    fn moves_read_back() {
        let square = Square::new(3, 1);
        assert_eq!(parse_move(" [1, 3]. "), Ok(YorkMove::Place(square)));
        assert_eq!(MoveText(YorkMove::Place(square)).to_string(), "[1,3]");
        assert_eq!(parse_move("n."), Ok(YorkMove::Pass));
        assert!(parse_move("[6,0].").is_err());
        assert!(parse_move("1,3").is_err());
    }
}
