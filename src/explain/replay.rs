//! Replaying a log's moves on the input's board: which board a node of a log holds,
//! and whether a move named in a log is legal there.

use crate::board::{Board, Square};
use crate::format::cs561::{board_lines, Player, Problem};
use crate::format::LineEnd;

/// A position: the board, seen from the player to move, and who that is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The board, from the view of the player to move.
    pub board: Board,
    /// The player to move.
    pub player: Player,
}

impl Position {
    /// The root position of a problem.
    pub fn root(problem: &Problem) -> Position {
        Position {
            board: problem.root(),
            player: problem.player,
        }
    }

    /// The position after the child `name` of a log (`pass` or a cell), or `None`
    /// when that move is not legal here.
    pub fn child(self, name: &str) -> Option<Position> {
        let board = if name == "pass" {
            (self.board.moves() == 0).then(|| self.board.pass())?
        } else {
            let square = square_of(name)?;
            (self.board.moves() & square.bit() != 0).then(|| self.board.play(square))?
        };
        Some(Position {
            board,
            player: other(self.player),
        })
    }

    /// The position at the end of `path` (`["root", "d3", "c3"]`; the first name is
    /// the root itself), or `None` if a move on it is not legal.
    pub fn at(self, path: &[&str]) -> Option<Position> {
        path.iter()
            .skip(1)
            .try_fold(self, |position, name| position.child(name))
    }

    /// The 64 cells, row-major, `X`, `O` or `*`.
    pub fn cells(self) -> String {
        let (x, o) = match self.player {
            Player::X => (self.board.own, self.board.opp),
            Player::O => (self.board.opp, self.board.own),
        };
        String::from_utf8_lossy(&board_lines(x, o, LineEnd::Lf)).replace('\n', "")
    }
}

/// The lines of an 8x8 grid of `cells` (64 characters, row-major, row 1 first)
/// under a header of column letters, each row led by its number: `a1` is the top
/// left cell, `h8` the bottom right.
pub fn grid_lines(cells: &[char]) -> Vec<String> {
    let mut lines = vec!["   a b c d e f g h".to_string()];
    for (row, chunk) in cells.chunks(8).take(8).enumerate() {
        let row_cells: Vec<String> = chunk.iter().map(char::to_string).collect();
        lines.push(format!("{}  {}", row + 1, row_cells.join(" ")));
    }
    lines
}

/// Two grids (see [`grid_lines`]) side by side under their titles.
pub fn grid_pair(left_title: &str, left: &[char], right_title: &str, right: &[char]) -> String {
    let (a, b) = (grid_lines(left), grid_lines(right));
    let width = a.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 4;
    let mut text = format!("{left_title:<width$}{right_title}\n");
    for (l, r) in a.iter().zip(&b) {
        text += &format!("{l:<width$}{r}\n");
    }
    text
}

impl Position {
    /// The board as an 8x8 grid with coordinates (see [`grid_lines`]), then who is
    /// to move.
    pub fn grid(self) -> String {
        let cells: Vec<char> = self.cells().chars().collect();
        let mut lines = grid_lines(&cells);
        lines.push(format!("{} to move", char::from(self.player.symbol())));
        lines.join("\n")
    }
}

/// The other player.
pub fn other(player: Player) -> Player {
    match player {
        Player::X => Player::O,
        Player::O => Player::X,
    }
}

/// The square a log names (`d3`), if the name is a cell.
pub fn square_of(name: &str) -> Option<Square> {
    match name.as_bytes() {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::new(r - b'1', c - b'a')),
        _ => None,
    }
}

/// Whether no move at `square` can bracket a line on any board with the same cells
/// filled as `board`, whatever their colours: no direction has two filled cells in a
/// row next to it.
pub fn no_line_to_bracket(board: Board, square: Square) -> bool {
    let filled = board.own | board.opp;
    let at = |row: i32, col: i32| {
        (0..8).contains(&row)
            && (0..8).contains(&col)
            && filled & Square::new(row as u8, col as u8).bit() != 0
    };
    let (row, col) = (i32::from(square.row()), i32::from(square.col()));
    (-1..=1)
        .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
        .filter(|&d| d != (0, 0))
        .all(|(dr, dc)| !(at(row + dr, col + dc) && at(row + 2 * dr, col + 2 * dc)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn replays_moves_and_refuses_illegal_ones() {
        let start = Position {
            board: Geometry::STANDARD.start(),
            player: Player::X,
        };
        let after = start.at(&["root", "d3", "c3"]).unwrap();
        assert_eq!(after.player, Player::X);
        assert_eq!(
            after.grid(),
            "   a b c d e f g h\n\
             1  * * * * * * * *\n\
             2  * * * * * * * *\n\
             3  * * O X * * * *\n\
             4  * * * O X * * *\n\
             5  * * * X O * * *\n\
             6  * * * * * * * *\n\
             7  * * * * * * * *\n\
             8  * * * * * * * *\n\
             X to move"
        );
        assert!(start.at(&["root", "a1"]).is_none());
        assert!(
            start.child("pass").is_none(),
            "a side with moves cannot pass"
        );
        assert_eq!(square_of("h8"), Some(Square::new(7, 7)));
        assert_eq!(square_of("root"), None);
    }
}
