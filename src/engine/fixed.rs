//! The engine at a fixed strength, deterministic: a heuristic search of a fixed number
//! of plies (as [`Engine::search_to_depth`]), and the exact solver once few cells are
//! empty; or iterative deepening within a budget of nodes ([`within_nodes`]). No
//! clock: the same position and strength give the same move and value on any machine,
//! whatever its load. What `reversi engine nboard` plays at `set depth N`, what the
//! referee's `engine:` references play, and how a game's moves are reviewed.

use std::time::{Duration, Instant};

use crate::board::{Board, Square, Squares};
use crate::eval::pattern::embedded;

use super::search::{Depth, Searcher};
use super::{in_discs, Engine, Thought};

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

/// How far [`within_nodes`] can count past its budget: the nodes of one solve of the
/// last empty cells (counted without a check: at most the 109,601 positions of every
/// order of 8 moves, twice over for passes) and one node per level the search unwinds
/// (at most 64).
pub const NODES_OVERSHOOT: u64 = 2 * 109_601 + 64;

/// Deepens within a budget of `nodes` positions rather than a clock, on one thread
/// with a fresh table sized for the budget: heuristic iterations of 1, 2, ... plies
/// (as [`Engine::search_to_depth`]), and once the empty cells are at most twice the
/// plies (20 at most, as [`Strength::plies`]) an exact solve as the last iteration.
/// The move is the deepest iteration's that completed within the budget (an iteration
/// that reaches it is abandoned); when none did, the first legal move in square
/// order. The same nodes in the same order on every machine: the move depends on the
/// position and the budget alone. The thought's `nodes` counts every node, the
/// abandoned iteration's included: at most `nodes` + [`NODES_OVERSHOOT`].
pub fn within_nodes(board: Board, nodes: u64) -> Thought {
    let mut engine = Engine::for_nodes(nodes);
    let far = Instant::now() + Duration::from_secs(1 << 30);
    let mut thought = Thought::default();
    let mut order: Vec<Square> = Squares(board.moves()).collect();
    let Some(&first) = order.first() else {
        return thought;
    };
    thought.best = Some(first);
    let empty = empties(board);
    let mut searcher = Searcher::new(&mut engine.table, embedded(), far).with_node_limit(nodes);
    for plies in 1..=empty {
        let exact = empty <= Strength::plies(plies).exact_empties;
        let depth = if exact {
            Depth::End
        } else {
            Depth::Plies(plies as i32)
        };
        match searcher.root(board, depth, &mut order) {
            Some(result) if result.complete => {
                thought.best = Some(result.best);
                thought.value = result.value;
                thought.solved = exact;
                thought.depth = if exact { empty } else { plies };
            }
            _ => break,
        }
        if exact {
            break;
        }
    }
    thought.nodes = searcher.nodes;
    thought
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

    /// Positions from seeded random games, one per count of empty cells in `empties`.
    fn sample(seed: u64, empties_list: &[u32]) -> Vec<Board> {
        let mut random = crate::splitmix::SplitMix64::new(seed);
        empties_list
            .iter()
            .map(|&n| loop {
                let mut board = START.board();
                while empties(board) > n {
                    match random.step(board) {
                        Some(next) => board = next,
                        None => break,
                    }
                }
                if empties(board) == n && board.moves() != 0 {
                    break board;
                }
            })
            .collect()
    }

    #[test]
    fn a_node_budget_is_kept_to_within_the_overshoot() {
        for board in sample(3, &[56, 40, 30, 22, 16, 9]) {
            for budget in [1, 50, 1_000, 20_000, 300_000] {
                let thought = within_nodes(board, budget);
                assert!(
                    thought.nodes <= budget + NODES_OVERSHOOT,
                    "{} nodes for a budget of {budget}",
                    thought.nodes
                );
                let best = thought.best.expect("a position with a move");
                assert!(board.moves() & best.bit() != 0);
            }
        }
    }

    #[test]
    fn a_tiny_budget_plays_the_first_legal_move() {
        let board = START.board();
        let thought = within_nodes(board, 1);
        assert_eq!(thought.best, Squares(board.moves()).next());
        assert_eq!(thought.depth, 0);
        // 1,000 nodes complete some iterations.
        assert!(within_nodes(board, 1_000).depth >= 1);
    }

    #[test]
    fn a_node_budget_gives_the_same_move_every_time_and_on_every_thread() {
        let boards = sample(9, &[50, 36, 24, 14]);
        let budget = 200_000;
        let alone: Vec<Thought> = boards.iter().map(|&b| within_nodes(b, budget)).collect();
        assert_eq!(
            alone,
            boards
                .iter()
                .map(|&b| within_nodes(b, budget))
                .collect::<Vec<_>>()
        );
        let together: Vec<Vec<Thought>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        boards
                            .iter()
                            .map(|&b| within_nodes(b, budget))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(together.iter().all(|t| *t == alone));
        // Within the budget, 14 empty cells are solved.
        assert!(alone[3].solved, "{:?}", alone[3]);
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
