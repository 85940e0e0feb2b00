//! York EECS 3401 A4: the depth-bounded minimax `mmeval` of the course's `play.pl`, and
//! an alpha-beta variant (the handout's optional `abmmeval`) that counts states the
//! same way.
//!
//! Player 1 (black) is MAX. A terminal state (neither side can move) or a state at
//! depth 0 counts one state and is scored by the evaluation; any other state counts
//! one plus its children's counts. A side with no legal move has exactly one child,
//! the pass `n`, which hands the turn over and uses one depth level. Among equal
//! values the earlier move in the chosen [`MoveOrder`] is kept.

use super::INFINITY;
use crate::board::Square;
use crate::eval::GameEvaluation;
use crate::rules::{Color, MoveOrder, Position, Rules};

/// A York move: a disc on a cell, or the pass `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum YorkMove {
    /// Place a disc on this square.
    Place(Square),
    /// `n`: no legal placement, the turn goes to the opponent.
    Pass,
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YorkParams {
    /// Plies to look ahead (`Depth` of `mmeval`).
    pub depth: u32,
    /// The order in which moves are tried (ties keep the earlier one).
    pub order: MoveOrder,
    /// Alpha-beta pruning (true) or plain minimax (false).
    pub pruning: bool,
}

/// What `mmeval` binds: `Value`, `BestMove` and `StatesSearched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YorkOutcome {
    /// The value of the state, from player 1's point of view.
    pub value: i32,
    /// The move that reaches the value; `None` when the state is terminal or the depth
    /// is 0 (Prolog leaves `BestMove` unbound then).
    pub best: Option<YorkMove>,
    /// States searched, the given one included.
    pub states: u64,
}

/// A state as the search reaches it, in search order (one per state counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit {
    /// Plies below the searched state (0 for it).
    pub ply: u32,
    /// The move that led here; `None` for the searched state.
    pub via: Option<YorkMove>,
    /// The state, with the side to move.
    pub position: Position,
    /// The evaluation, for a state that is not expanded (terminal or at depth 0).
    pub leaf_value: Option<i32>,
}

/// Runs `mmeval` (or its alpha-beta variant) from `position` and reports every state
/// counted to `on_state`, in search order.
pub fn mmeval<E: GameEvaluation>(
    rules: Rules,
    position: Position,
    params: YorkParams,
    evaluation: &E,
    on_state: &mut impl FnMut(&Visit),
) -> YorkOutcome {
    let mut search = Mmeval {
        rules,
        params,
        evaluation,
        on_state,
    };
    search.visit(position, 0, None, params.depth, -INFINITY, INFINITY)
}

struct Mmeval<'a, E, F> {
    rules: Rules,
    params: YorkParams,
    evaluation: &'a E,
    on_state: &'a mut F,
}

impl<E: GameEvaluation, F: FnMut(&Visit)> Mmeval<'_, E, F> {
    fn visit(
        &mut self,
        position: Position,
        ply: u32,
        via: Option<YorkMove>,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> YorkOutcome {
        let over = self.rules.is_over(position);
        if over || depth == 0 {
            let (black, white) = position.counts();
            let ending = over.then(|| self.rules.win.ending(black, white));
            let value = self
                .evaluation
                .score(position.black, position.white, ending);
            (self.on_state)(&Visit {
                ply,
                via,
                position,
                leaf_value: Some(value),
            });
            return YorkOutcome {
                value,
                best: None,
                states: 1,
            };
        }
        (self.on_state)(&Visit {
            ply,
            via,
            position,
            leaf_value: None,
        });

        let maximising = position.to_move == Color::Black;
        let moves = self.rules.moves(position);
        let pass = (moves == 0).then(|| (YorkMove::Pass, position.pass()));
        let placements = self
            .params
            .order
            .squares(moves)
            .map(|square| (YorkMove::Place(square), position.play(square)));
        let mut outcome = YorkOutcome {
            value: if maximising { -INFINITY } else { INFINITY },
            best: None,
            states: 1,
        };
        for (mv, child) in pass.into_iter().chain(placements) {
            let child_outcome = self.visit(child, ply + 1, Some(mv), depth - 1, alpha, beta);
            outcome.states += child_outcome.states;
            let value = child_outcome.value;
            let improves = if maximising {
                value > outcome.value
            } else {
                value < outcome.value
            };
            if improves {
                outcome.value = value;
                outcome.best = Some(mv);
            }
            if self.params.pruning {
                if maximising {
                    alpha = alpha.max(outcome.value);
                } else {
                    beta = beta.min(outcome.value);
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::york::YorkHeuristic;

    fn params(depth: u32) -> YorkParams {
        YorkParams {
            depth,
            order: MoveOrder::ColumnMajor,
            pruning: false,
        }
    }

    /// Row 0 `112...`: white cannot move, black can (at [3,0]), and that move wipes
    /// white out, a finished game that white wins on the fewer-discs rule.
    #[test]
    fn a_blocked_side_passes_and_the_pass_counts_as_a_state() {
        let position = Position {
            black: Square::new(0, 0).bit() | Square::new(0, 1).bit(),
            white: Square::new(0, 2).bit(),
            to_move: Color::White,
        };
        let mut visits = Vec::new();
        let outcome = mmeval(
            Rules::YORK,
            position,
            params(2),
            &YorkHeuristic::Zero,
            &mut |visit| visits.push((visit.ply, visit.via, visit.leaf_value)),
        );
        assert_eq!(
            outcome,
            YorkOutcome {
                value: -100,
                best: Some(YorkMove::Pass),
                states: 3
            }
        );
        let last = Some(YorkMove::Place(Square::new(0, 3)));
        assert_eq!(
            visits,
            [
                (0, None, None),
                (1, Some(YorkMove::Pass), None),
                (2, last, Some(-100))
            ]
        );
    }

    #[test]
    fn a_finished_game_is_one_state_without_a_move() {
        let position = Position {
            black: Square::new(0, 0).bit(),
            white: Square::new(5, 5).bit(),
            to_move: Color::Black,
        };
        let outcome = mmeval(
            Rules::YORK,
            position,
            params(3),
            &YorkHeuristic::Stones,
            &mut |_| {},
        );
        assert_eq!((outcome.value, outcome.best, outcome.states), (0, None, 1));
    }
}
