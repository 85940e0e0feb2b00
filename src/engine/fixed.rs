//! The engine at a fixed strength, deterministic: a heuristic search of a fixed number
//! of plies (as [`Engine::search_to_depth`]), and the exact solver once few cells are
//! empty. No clock: the same position and strength give the same move and value on
//! any machine, whatever its load. What `reversi engine nboard` plays at `set depth N`,
//! and how a game's moves are reviewed.

use crate::board::{Board, Square, Squares};

use super::{in_discs, Engine};

/// How strongly to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Plies of the heuristic search (at least 1).
    pub depth: u32,
    /// Positions with at most this many empty cells are solved exactly.
    pub exact_empties: u32,
}

impl Strength {
    /// `depth` plies, exact from twice as many empty cells (at most 20, which the
    /// solver settles within about a second).
    pub fn plies(depth: u32) -> Strength {
        let depth = depth.max(1);
        Strength {
            depth,
            exact_empties: (2 * depth).min(20),
        }
    }
}

/// A position's or a move's value, in discs for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The final disc margin when `exact`, else the heuristic search's score in discs.
    pub discs: f64,
    /// Solved exactly.
    pub exact: bool,
    /// Plies searched (the empty cells when exact).
    pub depth: u32,
}

impl Evaluation {
    /// The same value seen by the other side.
    fn negated(self) -> Evaluation {
        Evaluation {
            discs: -self.discs,
            ..self
        }
    }
}

fn empties(board: Board) -> u32 {
    (!(board.own | board.opp)).count_ones()
}

/// The move to play on `board` at `strength` (`None`: a pass, or the game is over) and
/// its value.
pub fn best_move(board: Board, strength: Strength) -> (Option<Square>, Evaluation) {
    let mut engine = Engine::new();
    if board.moves() == 0 {
        return (None, value_with(&mut engine, board, strength));
    }
    let empty = empties(board);
    if empty <= strength.exact_empties {
        let thought = engine.solve(board);
        let evaluation = Evaluation {
            discs: f64::from(thought.value),
            exact: true,
            depth: empty,
        };
        return (thought.best, evaluation);
    }
    let thought = engine.search_to_depth(board, strength.depth);
    let evaluation = Evaluation {
        discs: in_discs(thought.value),
        exact: false,
        depth: strength.depth,
    };
    (thought.best, evaluation)
}

/// The value of `board` for its side to move at `strength`.
pub fn value(board: Board, strength: Strength) -> Evaluation {
    value_with(&mut Engine::new(), board, strength)
}

fn value_with(engine: &mut Engine, board: Board, strength: Strength) -> Evaluation {
    let empty = empties(board);
    let passed = board.pass();
    if board.moves() == 0 && passed.moves() != 0 {
        return value_with(engine, passed, strength).negated();
    }
    if board.moves() == 0 || empty <= strength.exact_empties {
        // A finished game is solved at once.
        return Evaluation {
            discs: f64::from(engine.solve(board).value),
            exact: true,
            depth: empty,
        };
    }
    Evaluation {
        discs: in_discs(engine.search_to_depth(board, strength.depth).value),
        exact: false,
        depth: strength.depth,
    }
}

/// Every legal move of `board` with its value for the side to move (the reply's
/// value at one ply less, negated), best first; equal values in positional order.
pub fn move_values(board: Board, strength: Strength) -> Vec<(Square, Evaluation)> {
    move_values_in(Engine::new(), board, strength)
}

/// [`move_values`] searched by `engine`, a fresh one (its table is its only state, so
/// the values are the same on every call): a smaller table keeps a caller small.
pub fn move_values_in(
    mut engine: Engine,
    board: Board,
    strength: Strength,
) -> Vec<(Square, Evaluation)> {
    let child_strength = Strength {
        depth: strength.depth.saturating_sub(1).max(1),
        ..strength
    };
    let mut values: Vec<(Square, Evaluation)> = Squares(board.moves())
        .map(|square| {
            let reply = value_with(&mut engine, board.play(square), child_strength);
            let mut evaluation = reply.negated();
            if !evaluation.exact {
                evaluation.depth = strength.depth;
            }
            (square, evaluation)
        })
        .collect();
    values.sort_by(|a, b| b.1.discs.total_cmp(&a.1.discs));
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::umea::{parse_position, START};

    #[test]
    fn the_same_question_gets_the_same_answer() {
        let board = START.board();
        let a = best_move(board, Strength::plies(4));
        assert_eq!(a, best_move(board, Strength::plies(4)));
        assert!(board.moves() & a.0.unwrap().bit() != 0);
        assert!(!a.1.exact);
    }

    #[test]
    fn few_empties_are_solved_and_agree_with_the_move_values() {
        // A random game's first position with 6 empty cells and a move: exact at
        // depth 3 (6 <= 2 x 3).
        let mut random = crate::splitmix::SplitMix64::new(7);
        let mut board = START.board();
        while empties(board) > 6 || board.moves() == 0 {
            board = random.step(board).expect("a game that reaches 6 empties");
        }
        let (best, evaluation) = best_move(board, Strength::plies(3));
        assert!(evaluation.exact);
        let values = move_values(board, Strength::plies(3));
        assert!(values.iter().all(|(_, e)| e.exact));
        assert_eq!(values[0].1.discs, evaluation.discs);
        assert!(values
            .iter()
            .any(|(s, e)| Some(*s) == best && e.discs == evaluation.discs));
        assert_eq!(value(board, Strength::plies(3)).discs, evaluation.discs);
    }

    #[test]
    fn a_pass_is_valued_from_the_other_side() {
        // White (to move) has no disc that can be bracketed: it passes.
        let position = parse_position(&format!("WXO{}", "E".repeat(62))).unwrap();
        let board = position.board();
        assert_eq!(board.moves(), 0);
        let (best, evaluation) = best_move(board, Strength::plies(2));
        assert_eq!(best, None);
        assert_eq!(
            evaluation,
            value(board.pass(), Strength::plies(2)).negated()
        );
    }
}
