//! Reading `input.txt`: tolerant of layout (CRLF or LF, blank lines, spaces, a
//! byte-order mark), strict about content, with errors that name the line.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

use crate::board::{Board, Square};
use crate::course_search::LeafRule;

/// An input is a dozen short lines; anything larger is refused before it is read.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

/// The longest line accepted, in characters (after trimming spaces).
const MAX_LINE_CHARS: usize = 200;

/// Which release of the homework an input follows (SPEC.md section 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Spring 2017 HW1 with the revised samples (the default).
    S2017,
    /// Spring 2017 HW1 with the first samples' end-of-game rule.
    S2017Jan,
    /// Fall 2014 HW2: a task line comes first.
    F2014,
}

impl Dialect {
    /// When a node below the cut-off depth is a leaf in this dialect.
    pub fn leaf_rule(self) -> LeafRule {
        match self {
            Dialect::S2017 => LeafRule::PassAfterPass,
            Dialect::S2017Jan | Dialect::F2014 => LeafRule::GameOverOrSecondPass,
        }
    }
}

/// What the program is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// f2014 task 1: the best move by a one-ply search; output is the board only.
    Greedy,
    /// f2014 task 2: minimax with a three-column log.
    Minimax,
    /// Alpha-beta with the five-column log (s2017, and f2014 task 3).
    AlphaBeta,
}

/// The player to move, who is MAX.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// `X`, black.
    X,
    /// `O`, white.
    O,
}

impl Player {
    /// The `X` and `O` discs of a board seen from this player: the inverse of
    /// [`Player::view`].
    pub const fn x_and_o(self, board: Board) -> (u64, u64) {
        match self {
            Player::X => (board.own, board.opp),
            Player::O => (board.opp, board.own),
        }
    }

    /// The board of `X` and `O` discs seen from this player, who is to move.
    pub const fn view(self, x_discs: u64, o_discs: u64) -> Board {
        match self {
            Player::X => Board {
                own: x_discs,
                opp: o_discs,
            },
            Player::O => Board {
                own: o_discs,
                opp: x_discs,
            },
        }
    }

    /// The cell character of this player's discs.
    pub const fn symbol(self) -> u8 {
        match self {
            Player::X => b'X',
            Player::O => b'O',
        }
    }
}

/// A parsed input: everything needed to produce `output.txt`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    /// The release the input follows.
    pub dialect: Dialect,
    /// What to compute.
    pub task: Task,
    /// The player to move (MAX).
    pub player: Player,
    /// The cut-off depth D (for greedy: 1, whatever the file says).
    pub depth: u32,
    /// Cells holding `X`.
    pub x_discs: u64,
    /// Cells holding `O`.
    pub o_discs: u64,
}

impl Problem {
    /// The root position, seen from the player to move.
    pub fn root(&self) -> Board {
        self.player.view(self.x_discs, self.o_discs)
    }
}

/// f2014 task 4 (competition): a position to play under a clock, answered by the
/// move only.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Competition {
    /// The player to move.
    pub player: Player,
    /// The CPU time the player has left for the rest of the game.
    pub time_left: Duration,
    /// Cells holding `X`.
    pub x_discs: u64,
    /// Cells holding `O`.
    pub o_discs: u64,
}

impl Competition {
    /// The root position, seen from the player to move.
    pub fn root(&self) -> Board {
        self.player.view(self.x_discs, self.o_discs)
    }
}

/// Any input: a problem solved with a log, or a competition move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// Tasks 1-3 and the s2017 dialects.
    Solve(Problem),
    /// f2014 task 4.
    Compete(Competition),
}

/// Why an input was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InputErrorKind {
    /// Nothing but blank lines.
    #[error("the file is empty; expected the player to move (X or O), the cut-off depth and 8 board rows")]
    Empty,
    /// Over [`MAX_INPUT_BYTES`].
    #[error("the file is larger than {MAX_INPUT_BYTES} bytes; an input is a dozen short lines")]
    TooLarge,
    /// Bytes that are not UTF-8 text, or control characters.
    #[error("the file is not text (byte 0x{byte:02x})")]
    NotText {
        /// The first offending byte.
        byte: u8,
    },
    /// A line over the length limit.
    #[error("the line is {length} characters long; no line of an input is longer than 8")]
    LineTooLong {
        /// Its length in characters.
        length: usize,
    },
    /// A first line that is neither a task nor a player, or a task outside 1-4.
    #[error("expected the task number, 1 (greedy), 2 (minimax), 3 (alpha-beta) or 4 (competition); found {found:?}")]
    Task {
        /// The text found.
        found: String,
    },
    /// A player line other than `X` or `O`.
    #[error("expected the player to move, X or O; found {found:?}")]
    Player {
        /// The text found.
        found: String,
    },
    /// A depth that is not a whole number or does not fit.
    #[error(
        "expected the cut-off depth, a whole number from 0 to {}; found {found:?}",
        u32::MAX
    )]
    Depth {
        /// The text found.
        found: String,
    },
    /// f2014 task 4 given to [`parse`], which reads only inputs with a search log;
    /// [`parse_request`] reads every task.
    #[error("task 4 (competition) has no search log; read it with parse_request")]
    CompetitionUnsupported,
    /// A time left (f2014 task 4) that is not a number of seconds.
    #[error("expected the CPU seconds left, a number >= 0; found {found:?}")]
    Seconds {
        /// The text found.
        found: String,
    },
    /// The file ended early.
    #[error("the file ends after line {after}; expected {expected}")]
    EndOfFile {
        /// The last non-blank line (0: none).
        after: usize,
        /// What should have come next.
        expected: String,
    },
    /// A board row of the wrong length.
    #[error("expected a board row of 8 cells; found {found} characters")]
    RowLength {
        /// Its length in characters.
        found: usize,
    },
    /// A character that is not a cell.
    #[error("column {column}: expected a cell, * (empty), X or O; found {found:?}")]
    Cell {
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// Text after the board.
    #[error("expected the end of the file after the 8th board row; found {found:?}")]
    TrailingText {
        /// The text found.
        found: String,
    },
}

/// An input error and the 1-based line it is on (none for whole-file errors).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct InputError {
    /// The line, counting every line of the file, blank ones too.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: InputErrorKind,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

fn error(line: usize, kind: InputErrorKind) -> InputError {
    InputError {
        line: Some(line),
        kind,
    }
}

/// The non-blank lines of a file, trimmed, with their 1-based line numbers.
fn content_lines(bytes: &[u8]) -> Result<Vec<(usize, &str)>, InputError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(InputError {
            line: None,
            kind: InputErrorKind::TooLarge,
        });
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut lines = Vec::new();
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let text = std::str::from_utf8(raw).map_err(|e| {
            error(
                number,
                InputErrorKind::NotText {
                    byte: raw[e.valid_up_to()],
                },
            )
        })?;
        if let Some(c) = text
            .bytes()
            .find(|&b| b.is_ascii_control() && b != b'\t' && b != b'\r')
        {
            return Err(error(number, InputErrorKind::NotText { byte: c }));
        }
        let text = text.trim();
        let length = text.chars().count();
        if length > MAX_LINE_CHARS {
            return Err(error(number, InputErrorKind::LineTooLong { length }));
        }
        if !text.is_empty() {
            lines.push((number, text));
        }
    }
    Ok(lines)
}

fn is_task_line(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The non-blank lines still to read.
struct Cursor<'a> {
    lines: std::vec::IntoIter<(usize, &'a str)>,
    last: usize,
}

impl<'a> Cursor<'a> {
    /// The next non-blank line, or an error that says the file ended before `expected`.
    fn next(&mut self, expected: impl FnOnce() -> String) -> Result<(usize, &'a str), InputError> {
        let (number, text) = self.lines.next().ok_or_else(|| InputError {
            line: None,
            kind: InputErrorKind::EndOfFile {
                after: self.last,
                expected: expected(),
            },
        })?;
        self.last = number;
        Ok((number, text))
    }
}

/// Parses an input file with a search log (not f2014 task 4). `dialect` forces a
/// dialect; `None` picks f2014 when the first line is a task number, s2017 otherwise.
pub fn parse(bytes: &[u8], dialect: Option<Dialect>) -> Result<Problem, InputError> {
    match parse_request(bytes, dialect)? {
        Request::Solve(problem) => Ok(problem),
        Request::Compete(_) => Err(InputError {
            line: content_lines(bytes)?.first().map(|&(n, _)| n),
            kind: InputErrorKind::CompetitionUnsupported,
        }),
    }
}

/// Parses any input file, f2014 task 4 included; `dialect` as for [`parse`].
pub fn parse_request(bytes: &[u8], dialect: Option<Dialect>) -> Result<Request, InputError> {
    let lines = content_lines(bytes)?;
    let Some(&(_, first)) = lines.first() else {
        return Err(InputError {
            line: None,
            kind: InputErrorKind::Empty,
        });
    };
    let dialect = dialect.unwrap_or(if is_task_line(first) {
        Dialect::F2014
    } else {
        Dialect::S2017
    });
    let mut cursor = Cursor {
        lines: lines.into_iter(),
        last: 0,
    };

    let mut competition = false;
    let task = if dialect == Dialect::F2014 {
        let (n, text) = cursor.next(|| "the task number".into())?;
        match text {
            "1" => Task::Greedy,
            "2" => Task::Minimax,
            "3" => Task::AlphaBeta,
            "4" => {
                competition = true;
                Task::Greedy
            }
            _ => return Err(error(n, InputErrorKind::Task { found: text.into() })),
        }
    } else {
        Task::AlphaBeta
    };

    let (n, text) = cursor.next(|| "the player to move (X or O)".into())?;
    let player = match text {
        "X" => Player::X,
        "O" => Player::O,
        _ => return Err(error(n, InputErrorKind::Player { found: text.into() })),
    };

    let mut time_left = Duration::ZERO;
    let mut depth = 0;
    if competition {
        let (n, text) = cursor.next(|| "the CPU seconds left".into())?;
        time_left = text
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .ok_or_else(|| error(n, InputErrorKind::Seconds { found: text.into() }))?;
    } else {
        let (n, text) = cursor.next(|| "the cut-off depth".into())?;
        depth = text
            .parse::<u32>()
            .map_err(|_| error(n, InputErrorKind::Depth { found: text.into() }))?;
    }
    let depth = if task == Task::Greedy { 1 } else { depth };

    let (mut x_discs, mut o_discs) = (0u64, 0u64);
    for row in 0..8u8 {
        let (n, text) = cursor.next(|| format!("board row {} of 8", row + 1))?;
        let length = text.chars().count();
        if length != 8 {
            return Err(error(n, InputErrorKind::RowLength { found: length }));
        }
        for (col, c) in text.chars().enumerate() {
            let bit = Square::new(row, col as u8).bit();
            match c {
                '*' => {}
                'X' => x_discs |= bit,
                'O' => o_discs |= bit,
                found => {
                    return Err(error(
                        n,
                        InputErrorKind::Cell {
                            column: col + 1,
                            found,
                        },
                    ))
                }
            }
        }
    }
    if let Ok((n, text)) = cursor.next(String::new) {
        return Err(error(
            n,
            InputErrorKind::TrailingText { found: text.into() },
        ));
    }
    if competition {
        return Ok(Request::Compete(Competition {
            player,
            time_left,
            x_discs,
            o_discs,
        }));
    }
    Ok(Request::Solve(Problem {
        dialect,
        task,
        player,
        depth,
        x_discs,
        o_discs,
    }))
}
