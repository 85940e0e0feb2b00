//! CSU CS440 Tri-state Othello: each move the board file `board.txt` (`B|W width
//! height`, then rows of `B`, `W`, `-`, `E`) in the agent's run folder and its name
//! as the argument, `./othello.sh board.txt`; one line, a coordinate in the course's
//! convention (`--coords`, `--base`, `--notation`, as `reversi tristate`) or `skip`.
//! No compile step. A process per move ([`super::per_move`]), on 8x8 or on boards
//! of any shape ([`Tristate::ask_board`]: the legality suite, and games from board
//! files, [`Tristate::seat_board`]).

use std::io;

use super::per_move::{ask, PerMove};
use super::{Built, Terms};
use crate::arena::game::Answer;
use crate::arena::shaped::{self, ShapedPlayer};
use crate::board::Square;
use crate::format::tristate::{self, Base, Coords, Notation, Problem};
use crate::rules::{Color, Position};
use crate::sandbox::Sandbox;

/// A cell of a board of any shape: (x, y), the column and row 0-based.
pub type Cell = (usize, usize);

/// The Tri-state adapter, with the course's coordinate convention.
#[derive(Clone, Copy, Debug)]
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

impl Tristate {
    /// Asks a built agent for a move on a board of any shape (`problem`) under the
    /// terms, in `sandbox` with the terms' CPU limit: from what it left at its last
    /// move of the game (`kept`, updated), or from its build (`None`, as the legality
    /// suite asks). The cell it names, (x, y) the column and row 0-based (`None`:
    /// skip), or its fault (the answer's form or time; its legality is judged by
    /// [`shaped::judge`]). An error is the referee's own.
    pub fn ask_board(
        &self,
        built: &Built,
        sandbox: &Sandbox,
        terms: &Terms,
        kept: Option<&mut Option<tempfile::TempDir>>,
        problem: &Problem,
    ) -> io::Result<Answer<Cell>> {
        let file = shaped::board_file(problem).into_bytes();
        let size = (problem.grid.width(), problem.grid.height());
        ask(
            built,
            &sandbox.with_cpu(terms.limit()),
            terms,
            kept,
            (
                &["board.txt".to_string()],
                &[("board.txt", file.as_slice())],
            ),
            &|line| tristate::parse_answer(line, self.coords, self.base, self.notation, size),
            &|| self.expected(),
        )
    }

    /// Seats a built agent for one game on boards of any shape, its run folder kept
    /// from one of its moves to the next as in an 8x8 game.
    pub fn seat_board<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> Box<dyn ShapedPlayer + 'a> {
        Box::new(BoardSeat {
            tristate: self,
            built,
            sandbox,
            terms,
            kept: None,
        })
    }
}

/// An agent in one game on a board of any shape.
struct BoardSeat<'a> {
    tristate: &'a Tristate,
    built: &'a Built,
    sandbox: &'a Sandbox,
    terms: &'a Terms,
    /// What it left in its run folder at its last move (none before its first).
    kept: Option<tempfile::TempDir>,
}

impl ShapedPlayer for BoardSeat<'_> {
    fn answer(&mut self, problem: &Problem, _number: usize) -> io::Result<Answer<Cell>> {
        self.tristate.ask_board(
            self.built,
            self.sandbox,
            self.terms,
            Some(&mut self.kept),
            problem,
        )
    }
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
