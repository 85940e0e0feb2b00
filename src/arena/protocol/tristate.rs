//! CSU CS440 Tri-state Othello, on the 8x8 board: each move the board file
//! `board.txt` (`B|W 8 8`, then 8 rows of `B`, `W`, `-`) in the agent's run folder and
//! its name as the argument, `./othello.sh board.txt`; one line, a coordinate in the
//! course's convention (`--coords`, `--base`, `--notation`, as `reversi tristate`) or
//! `skip`. No compile step. A process per move ([`super::per_move`]).

use super::per_move::PerMove;
use super::Terms;
use crate::board::Square;
use crate::format::tristate::{self, Base, Coords, Notation};
use crate::rules::{Color, Position};

/// The Tri-state adapter, with the course's coordinate convention.
pub struct Tristate {
    /// The order of the two numbers.
    pub coords: Coords,
    /// Where numbering starts.
    pub base: Base,
    /// How the numbers are written.
    pub notation: Notation,
}

/// The board file of `position`.
pub fn board_file(position: Position) -> String {
    let mut text = format!(
        "{} 8 8\n",
        match position.to_move {
            Color::Black => 'B',
            Color::White => 'W',
        }
    );
    for row in 0..8u8 {
        for col in 0..8u8 {
            let bit = Square::new(row, col).bit();
            text.push(if position.black & bit != 0 {
                'B'
            } else if position.white & bit != 0 {
                'W'
            } else {
                '-'
            });
        }
        text.push('\n');
    }
    text
}

impl PerMove for Tristate {
    fn name(&self) -> &'static str {
        "tristate"
    }

    fn entry(&self) -> &'static str {
        "othello.sh"
    }

    fn compile(&self, _terms: &Terms) -> Option<Vec<String>> {
        None
    }

    fn request(
        &self,
        position: Position,
        _terms: &Terms,
    ) -> (Vec<String>, Vec<(&'static str, Vec<u8>)>) {
        (
            vec!["board.txt".into()],
            vec![("board.txt", board_file(position).into_bytes())],
        )
    }

    fn parse(&self, line: &str) -> Option<Option<Square>> {
        let said = tristate::parse_answer(line, self.coords, self.base, self.notation, (8, 8))?;
        Some(said.map(|(x, y)| Square::new(y as u8, x as u8)))
    }

    fn expected(&self) -> String {
        format!(
            "{} or `skip`",
            tristate::answer(Some((2, 3)), self.coords, self.base, self.notation)
                .replace(|c: char| c.is_ascii_digit(), "N")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::umea::START;

    #[test]
    fn the_board_file_reads_back_as_the_position() {
        let problem = tristate::parse(&board_file(START)).unwrap();
        assert_eq!(problem.colour, crate::shaped_board::Colour::White);
        assert_eq!(problem.grid.width(), 8);
        let moves = problem.grid.count_moves(problem.colour);
        assert_eq!(moves as u32, START.board().moves().count_ones());
    }
}
