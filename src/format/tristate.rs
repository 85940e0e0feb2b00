//! CSU CS440 "Tri-state Othello": the input file and the answer line (SPEC.md
//! section 2).
//!
//! Input: a first line `B|W width height`, then `height` rows of `width` cells:
//! `B`, `W`, `-` (empty, playable) and `E` (empty, never playable). Answer: one
//! coordinate or `skip`. The handout's page on coordinates is lost, so their order and
//! base are options ([`Coords`], [`Base`]).

use thiserror::Error;

use crate::shaped_board::{Cell, Colour, Grid};

/// The largest number of cells accepted (a guard against absurd headers).
pub const MAX_CELLS: usize = 1 << 16;

/// A parsed input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The colour to play.
    pub colour: Colour,
    /// The board.
    pub grid: Grid,
}

/// Why an input was refused, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TristateError {
    /// Nothing but blank lines.
    #[error("the file is empty; expected `B|W width height` and the board rows")]
    Empty,
    /// A first line that is not `B|W width height`.
    #[error("line {line}: expected `B|W width height` (the colour to play, then two whole numbers >= 1); found {found:?}")]
    Header {
        /// The line.
        line: usize,
        /// The text found.
        found: String,
    },
    /// A board over [`MAX_CELLS`].
    #[error("line {line}: a {width}x{height} board is larger than {MAX_CELLS} cells")]
    TooLarge {
        /// The line.
        line: usize,
        /// The width given.
        width: usize,
        /// The height given.
        height: usize,
    },
    /// Fewer rows than the height.
    #[error("the file ends after {found} board rows; the header says {expected}")]
    MissingRows {
        /// Rows found.
        found: usize,
        /// Rows expected.
        expected: usize,
    },
    /// A row of the wrong length.
    #[error("line {line}: expected a board row of {expected} cells; found {found}")]
    RowLength {
        /// The line.
        line: usize,
        /// The width.
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// A character that is not a cell.
    #[error("line {line}, column {column}: expected a cell, B, W, - (empty) or E (blocked); found {found:?}")]
    Cell {
        /// The line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// Text after the last row.
    #[error("line {line}: expected the end of the file after the last board row; found {found:?}")]
    TrailingText {
        /// The line.
        line: usize,
        /// The text found.
        found: String,
    },
}

/// Parses an input file. Blank lines, CRLF line ends and spaces between cells are
/// accepted.
pub fn parse(text: &str) -> Result<Problem, TristateError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (line, header) = lines.next().ok_or(TristateError::Empty)?;
    let header_error = || TristateError::Header {
        line,
        found: header.into(),
    };
    let fields: Vec<&str> = header.split_whitespace().collect();
    let [colour, width, height] = fields.as_slice() else {
        return Err(header_error());
    };
    let colour = match *colour {
        "B" => Colour::Black,
        "W" => Colour::White,
        _ => return Err(header_error()),
    };
    let size = |s: &str| s.parse::<usize>().ok().filter(|&n| n >= 1);
    let (Some(width), Some(height)) = (size(width), size(height)) else {
        return Err(header_error());
    };
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(TristateError::TooLarge {
            line,
            width,
            height,
        });
    }
    let mut grid = Grid::new(width, height);
    for y in 0..height {
        let (line, row) = lines.next().ok_or(TristateError::MissingRows {
            found: y,
            expected: height,
        })?;
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != width {
            return Err(TristateError::RowLength {
                line,
                expected: width,
                found: cells.len(),
            });
        }
        for (x, &c) in cells.iter().enumerate() {
            let cell = match c {
                'B' => Cell::Disc(Colour::Black),
                'W' => Cell::Disc(Colour::White),
                '-' => Cell::Empty,
                'E' => Cell::Blocked,
                found => {
                    return Err(TristateError::Cell {
                        line,
                        column: x + 1,
                        found,
                    })
                }
            };
            grid.set(x, y, cell);
        }
    }
    if let Some((line, text)) = lines.next() {
        return Err(TristateError::TrailingText {
            line,
            found: text.into(),
        });
    }
    Ok(Problem { colour, grid })
}

/// The order of the two numbers of a coordinate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coords {
    /// Column, then row: the handout's "(x,y)".
    #[default]
    Xy,
    /// Row, then column.
    Rc,
}

/// Where numbering starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Base {
    /// The top-left cell is 0.
    #[default]
    Zero,
    /// The top-left cell is 1.
    One,
}

/// How the two numbers are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// `(a,b)`, as the handout writes a coordinate.
    #[default]
    Paren,
    /// `a b`.
    Space,
}

/// The answer line: the move (x, y) (0-based column and row) in the chosen
/// convention, or `skip`.
pub fn answer(
    best: Option<(usize, usize)>,
    coords: Coords,
    base: Base,
    notation: Notation,
) -> String {
    let Some((x, y)) = best else {
        return "skip".into();
    };
    let offset = match base {
        Base::Zero => 0,
        Base::One => 1,
    };
    let (a, b) = match coords {
        Coords::Xy => (x + offset, y + offset),
        Coords::Rc => (y + offset, x + offset),
    };
    match notation {
        Notation::Paren => format!("({a},{b})"),
        Notation::Space => format!("{a} {b}"),
    }
}

/// Reads an answer line in the chosen convention: `Some(Some((x, y)))` a move (0-based
/// column and row, on a board of `width` x `height`), `Some(None)` `skip`, `None` not an
/// answer. Spaces around it are ignored.
pub fn parse_answer(
    text: &str,
    coords: Coords,
    base: Base,
    notation: Notation,
    (width, height): (usize, usize),
) -> Option<Option<(usize, usize)>> {
    let text = text.trim();
    if text == "skip" {
        return Some(None);
    }
    let (a, b) = match notation {
        Notation::Paren => text.strip_prefix('(')?.strip_suffix(')')?.split_once(',')?,
        Notation::Space => text.split_once(' ')?,
    };
    let number = |t: &str| -> Option<usize> {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 6 {
            return None;
        }
        t.parse::<usize>().ok()?.checked_sub(match base {
            Base::Zero => 0,
            Base::One => 1,
        })
    };
    let (a, b) = (number(a)?, number(b)?);
    let (x, y) = match coords {
        Coords::Xy => (a, b),
        Coords::Rc => (b, a),
    };
    (x < width && y < height).then_some(Some((x, y)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_small_board() {
        let problem = parse("W 3 2\r\nB-E\r\n W B W\r\n").unwrap();
        assert_eq!(problem.colour, Colour::White);
        assert_eq!(problem.grid.get(2, 0), Cell::Blocked);
        assert_eq!(problem.grid.get(1, 1), Cell::Disc(Colour::Black));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(parse(""), Err(TristateError::Empty));
        assert!(matches!(
            parse("X 3 3"),
            Err(TristateError::Header { line: 1, .. })
        ));
        assert_eq!(
            parse("B 2 2\n--\n-\n"),
            Err(TristateError::RowLength {
                line: 3,
                expected: 2,
                found: 1
            })
        );
        assert_eq!(
            parse("B 2 1\n-x\n"),
            Err(TristateError::Cell {
                line: 2,
                column: 2,
                found: 'x'
            })
        );
        assert_eq!(
            parse("B 2 2\n--\n"),
            Err(TristateError::MissingRows {
                found: 1,
                expected: 2
            })
        );
    }

    #[test]
    fn answers_read_back_in_every_convention() {
        for coords in [Coords::Xy, Coords::Rc] {
            for base in [Base::Zero, Base::One] {
                for notation in [Notation::Paren, Notation::Space] {
                    for best in [None, Some((2, 5)), Some((0, 0))] {
                        let text = answer(best, coords, base, notation);
                        assert_eq!(
                            parse_answer(&text, coords, base, notation, (8, 6)),
                            Some(best)
                        );
                    }
                }
            }
        }
        let read = |t| parse_answer(t, Coords::Xy, Base::Zero, Notation::Paren, (8, 8));
        for bad in [
            "(8,0)", "(1,2", "1 2", "(a,1)", "(-1,2)", "(+1,2)", "pass", "",
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
        assert_eq!(
            parse_answer("(0,1)", Coords::Xy, Base::One, Notation::Paren, (8, 8)),
            None
        );
    }

    #[test]
    fn answers_in_every_convention() {
        let m = Some((3, 1));
        assert_eq!(answer(m, Coords::Xy, Base::Zero, Notation::Paren), "(3,1)");
        assert_eq!(answer(m, Coords::Rc, Base::One, Notation::Paren), "(2,4)");
        assert_eq!(answer(m, Coords::Xy, Base::One, Notation::Space), "4 2");
        assert_eq!(answer(None, Coords::Rc, Base::One, Notation::Space), "skip");
    }
}
