//! The rules of an Othello variant as data: the board's geometry, the start position,
//! who wins a finished game, and the order in which a course visits the moves.
//!
//! [`Board`] sees a position from the side to move; a [`Position`] names the colours,
//! which is what the courses' file formats and their winner rules talk about.

use crate::board::{Board, Geometry, Square};

/// A side of the game. Black moves first in every course here but Umea.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player of York (player 1) and UF (-1); `X` in CSCI-561.
    Black,
    /// York's player 2, UF's 1; `O` in CSCI-561.
    White,
}

impl Color {
    /// The opponent.
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// Discs of both colours and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Black discs.
    pub black: u64,
    /// White discs.
    pub white: u64,
    /// Whose turn it is.
    pub to_move: Color,
}

impl Position {
    /// The discs of `color`.
    pub const fn discs(self, color: Color) -> u64 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The same position seen from the side to move.
    pub const fn board(self) -> Board {
        Board {
            own: self.discs(self.to_move),
            opp: self.discs(self.to_move.other()),
        }
    }

    /// The position `board` (seen from the side to move) when `to_move` is that side.
    pub const fn from_board(board: Board, to_move: Color) -> Position {
        let (black, white) = match to_move {
            Color::Black => (board.own, board.opp),
            Color::White => (board.opp, board.own),
        };
        Position {
            black,
            white,
            to_move,
        }
    }

    /// The position after the side to move places a disc on `square` (a legal move):
    /// the opponent moves next.
    pub fn play(self, square: Square) -> Position {
        Position::from_board(self.board().play(square), self.to_move.other())
    }

    /// The position after the side to move plays `square` (legal), or passes (`None`).
    pub fn after(self, square: Option<Square>) -> Position {
        match square {
            Some(square) => self.play(square),
            None => self.pass(),
        }
    }

    /// The same discs with the other side to move.
    pub const fn pass(self) -> Position {
        Position {
            to_move: self.to_move.other(),
            ..self
        }
    }

    /// The same discs with `color` to move.
    pub const fn with_to_move(self, color: Color) -> Position {
        Position {
            to_move: color,
            ..self
        }
    }

    /// Counts of (black, white) discs.
    pub const fn counts(self) -> (u32, u32) {
        (self.black.count_ones(), self.white.count_ones())
    }
}

/// Who wins a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// Standard Othello: the side with more discs.
    MoreDiscs,
    /// York's "Modified Othello": the side with fewer discs.
    FewerDiscs,
}

/// How a finished game ended for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// That side won.
    Win,
    /// That side lost.
    Loss,
    /// Equal disc counts.
    Draw,
}

impl WinRule {
    /// How a finished game with `discs` of one side and `other` of the opponent ended
    /// for the first.
    pub const fn ending(self, discs: u32, other: u32) -> Ending {
        if discs == other {
            return Ending::Draw;
        }
        match (self, discs > other) {
            (WinRule::MoreDiscs, true) | (WinRule::FewerDiscs, false) => Ending::Win,
            _ => Ending::Loss,
        }
    }

    /// The winner of a finished game with `black` and `white` discs (`None`: a draw).
    pub const fn winner(self, black: u32, white: u32) -> Option<Color> {
        match self.ending(black, white) {
            Ending::Win => Some(Color::Black),
            Ending::Loss => Some(Color::White),
            Ending::Draw => None,
        }
    }
}

/// The order in which a course considers the legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveOrder {
    /// Upper rows first, left first within a row (CSCI-561, UF, Umea).
    #[default]
    RowMajor,
    /// Left columns first, upper first within a column: Prolog's `sort/2` on `[X,Y]`
    /// (York).
    ColumnMajor,
}

impl MoveOrder {
    /// The squares of `moves` in this order.
    pub const fn squares(self, moves: u64) -> OrderedSquares {
        OrderedSquares {
            remaining: moves,
            order: self,
        }
    }
}

/// The left column of the 64 bits.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Iterator over the squares of a bit set in a [`MoveOrder`].
#[derive(Clone, Copy, Debug)]
pub struct OrderedSquares {
    remaining: u64,
    order: MoveOrder,
}

impl Iterator for OrderedSquares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.remaining == 0 {
            return None;
        }
        let candidates = match self.order {
            MoveOrder::RowMajor => self.remaining,
            // The leftmost column that holds a square (there is one: `remaining` is
            // not empty).
            MoveOrder::ColumnMajor => (0..8)
                .map(|col| self.remaining & (FILE_A << col))
                .find(|&bits| bits != 0)
                .unwrap_or(self.remaining),
        };
        let square = Square::from_index(candidates.trailing_zeros() as u8);
        self.remaining &= !square.bit();
        Some(square)
    }
}

/// One variant's rules: where the cells are, how the game starts, who wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The cells of the board.
    pub geometry: Geometry,
    /// The position before the first move.
    pub start: Position,
    /// Who wins a finished game.
    pub win: WinRule,
}

impl Rules {
    /// Standard 8x8 Othello (UF, CSCI-561): white on `d4` and `e5`, black on `e4` and
    /// `d5`, black to move, more discs win.
    pub const STANDARD: Rules = Rules {
        geometry: Geometry::STANDARD,
        start: Position {
            black: Square::new(3, 4).bit() | Square::new(4, 3).bit(),
            white: Square::new(3, 3).bit() | Square::new(4, 4).bit(),
            to_move: Color::Black,
        },
        win: WinRule::MoreDiscs,
    };

    /// York EECS 3401 "Modified Othello": 6x6, rows `..12..` and `..21..` in the middle
    /// (1 black), black to move, fewer discs win.
    pub const YORK: Rules = Rules {
        geometry: Geometry::rectangle(6, 6),
        start: Position {
            black: Square::new(2, 2).bit() | Square::new(3, 3).bit(),
            white: Square::new(2, 3).bit() | Square::new(3, 2).bit(),
            to_move: Color::Black,
        },
        win: WinRule::FewerDiscs,
    };

    /// Legal moves of the side to move.
    pub fn moves(self, position: Position) -> u64 {
        position.board().moves_in(self.geometry)
    }

    /// True when neither side has a legal move: the game is over.
    pub fn is_over(self, position: Position) -> bool {
        let board = position.board();
        board.moves_in(self.geometry) == 0 && board.pass().moves_in(self.geometry) == 0
    }

    /// The winner of a finished game (`None`: a draw).
    pub fn winner(self, position: Position) -> Option<Color> {
        let (black, white) = position.counts();
        self.win.winner(black, white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_major_sorts_like_prolog_pairs() {
        let moves = Square::new(1, 1).bit()
            | Square::new(0, 0).bit()
            | Square::new(0, 2).bit()
            | Square::new(5, 1).bit()
            | Square::new(2, 0).bit();
        let as_xy = |order: MoveOrder| -> Vec<(u8, u8)> {
            order.squares(moves).map(|s| (s.col(), s.row())).collect()
        };
        assert_eq!(
            as_xy(MoveOrder::ColumnMajor),
            [(0, 0), (0, 2), (1, 1), (1, 5), (2, 0)]
        );
        assert_eq!(
            as_xy(MoveOrder::RowMajor),
            [(0, 0), (2, 0), (1, 1), (0, 2), (1, 5)]
        );
    }

    #[test]
    fn win_rules_name_the_winner() {
        assert_eq!(WinRule::MoreDiscs.winner(40, 24), Some(Color::Black));
        assert_eq!(WinRule::FewerDiscs.winner(40, 24), Some(Color::White));
        assert_eq!(WinRule::FewerDiscs.winner(3, 3), None);
        assert_eq!(WinRule::FewerDiscs.ending(1, 2), Ending::Win);
        assert_eq!(WinRule::MoreDiscs.ending(1, 2), Ending::Loss);
    }

    #[test]
    fn york_start_has_black_on_the_diagonal_and_four_moves() {
        let rules = Rules::YORK;
        assert_eq!(rules.moves(rules.start).count_ones(), 4);
        assert!(!rules.is_over(rules.start));
    }
}
