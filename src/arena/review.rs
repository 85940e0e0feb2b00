//! A game reviewed for one of its players, as chess sites review a game: for each of
//! that player's moves, the best move by our engine and what the move played cost.
//!
//! Every position is judged by [`crate::engine::fixed`] at one [`Strength`]: a search of
//! a fixed number of plies, exact by the endgame solver once few cells are empty, so a
//! review is the same on every machine and run. Each legal move is valued by the
//! reply's search one ply shallower (negated), the best move is the highest, and a
//! move's loss is the best value less the played one's, in discs for the player (0 for
//! the best move; exact when both values are). Forced passes are not reviewed.

use crate::board::Square;
use std::time::Duration;

use crate::engine::fixed::{move_values_in, Evaluation, Strength};
use crate::engine::Engine;
use crate::rules::{Color, Position};

/// One reviewed move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveReview {
    /// Its index in the game's moves (0 the first move from the start).
    pub ply: usize,
    /// The position it was played in.
    pub position: Position,
    /// The move played.
    pub played: Square,
    /// Its value, in discs for the player.
    pub played_value: Evaluation,
    /// The best move (the first in positional order among equals).
    pub best: Square,
    /// Its value.
    pub best_value: Evaluation,
    /// Legal moves there.
    pub choices: u32,
}

impl MoveReview {
    /// Discs the move gave away against the best (0 when it was the best).
    pub fn loss(&self) -> f64 {
        self.best_value.discs - self.played_value.discs
    }

    /// Both values are exact: the loss is proved.
    pub fn exact(&self) -> bool {
        self.best_value.exact && self.played_value.exact
    }
}

/// A game's review for one player.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The player reviewed.
    pub player: Color,
    /// Each of the player's moves (passes aside), in the game's order.
    pub moves: Vec<MoveReview>,
}

impl Review {
    /// The `count` moves that lost the most, largest loss first (the earlier move
    /// first among equal losses); moves that lost nothing are left out.
    pub fn worst(&self, count: usize) -> Vec<&MoveReview> {
        let mut losing: Vec<&MoveReview> = self.moves.iter().filter(|m| m.loss() > 0.0).collect();
        losing.sort_by(|a, b| b.loss().total_cmp(&a.loss()).then(a.ply.cmp(&b.ply)));
        losing.truncate(count);
        losing
    }

    /// The discs lost over all the player's moves.
    pub fn total_loss(&self) -> f64 {
        self.moves.iter().map(MoveReview::loss).sum()
    }
}

/// Reviews `player`'s moves of the game played from `start` (`moves` in order, `None` a
/// pass) at `strength`.
///
/// # Panics
/// When a move is not legal where it was played (a game record's moves are).
pub fn review(
    start: Position,
    moves: &[Option<Square>],
    player: Color,
    strength: Strength,
) -> Review {
    let mut reviewed = Vec::new();
    let mut position = start;
    for (ply, &played) in moves.iter().enumerate() {
        let board = position.board();
        match played {
            Some(square) => assert!(
                board.moves() & square.bit() != 0,
                "move {ply}, {square}, is not legal"
            ),
            None => assert!(board.moves() == 0, "move {ply}, a pass, is not legal"),
        }
        if let (Some(square), true) = (played, position.to_move == player) {
            // A fresh engine sized for searches of about 50 ms (6 MB): a review of a
            // class keeps the referee small.
            let engine = Engine::for_time(Duration::from_millis(50));
            let values = move_values_in(engine, board, strength);
            let (best, best_value) = values[0];
            // Equal values: the first in positional order, as the search would name it.
            let best = values
                .iter()
                .filter(|(_, v)| v.discs == best_value.discs)
                .map(|(s, _)| *s)
                .min()
                .unwrap_or(best);
            let played_value = values
                .iter()
                .find(|(s, _)| *s == square)
                .map(|(_, v)| *v)
                .expect("a legal move is valued");
            reviewed.push(MoveReview {
                ply,
                position,
                played: square,
                played_value,
                best,
                best_value,
                choices: board.moves().count_ones(),
            });
        }
        position = position.after(played);
    }
    Review {
        player,
        moves: reviewed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::brute_force;
    use crate::splitmix::SplitMix64;

    /// A random game's last `empties` cells: its position then, and random moves to
    /// the end.
    fn ending(seed: u64, empties: u32) -> (Position, Vec<Option<Square>>) {
        let mut random = SplitMix64::new(seed);
        let mut position = crate::format::umea::START;
        while (!(position.black | position.white)).count_ones() > empties {
            let moves = position.board().moves();
            if moves == 0 && position.board().pass().moves() == 0 {
                break;
            }
            position = position.after((moves != 0).then(|| random.square_of(moves)));
        }
        let start = position;
        let mut moves = Vec::new();
        loop {
            let board = position.board();
            if board.moves() == 0 && board.pass().moves() == 0 {
                return (start, moves);
            }
            let square = (board.moves() != 0).then(|| random.square_of(board.moves()));
            moves.push(square);
            position = position.after(square);
        }
    }

    #[test]
    fn an_ending_is_reviewed_exactly_against_minimax() {
        for seed in 1..=4 {
            let (start, moves) = ending(seed, 8);
            for player in [Color::White, Color::Black] {
                let review = review(start, &moves, player, Strength::plies(4));
                let mut position = start;
                let mut expected_plies = Vec::new();
                for (ply, &m) in moves.iter().enumerate() {
                    if m.is_some() && position.to_move == player {
                        expected_plies.push(ply);
                    }
                    position = position.after(m);
                }
                let plies: Vec<usize> = review.moves.iter().map(|m| m.ply).collect();
                assert_eq!(plies, expected_plies);
                for m in &review.moves {
                    let board = m.position.board();
                    assert!(m.exact());
                    assert_eq!(m.best_value.discs, f64::from(brute_force(board)));
                    let played = -brute_force(board.play(m.played));
                    assert_eq!(m.played_value.discs, f64::from(played));
                    assert_eq!(-brute_force(board.play(m.best)), brute_force(board));
                    assert!(m.loss() >= 0.0);
                }
            }
        }
    }

    #[test]
    fn the_worst_moves_come_first_and_best_moves_are_left_out() {
        let (start, moves) = ending(3, 10);
        let review = review(start, &moves, Color::Black, Strength::plies(5));
        let worst = review.worst(100);
        assert!(worst.windows(2).all(|w| w[0].loss() >= w[1].loss()));
        assert!(worst.iter().all(|m| m.loss() > 0.0 && m.played != m.best));
        let lost = review.moves.iter().filter(|m| m.loss() > 0.0).count();
        assert!(lost > 0, "random moves lose discs");
        assert_eq!(worst.len(), lost);
        assert_eq!(review.worst(1).len(), lost.min(1));
        assert_eq!(
            review.total_loss(),
            worst.iter().map(|m| m.loss()).sum::<f64>()
        );
        // Reviewing again gives the same review.
        assert_eq!(
            review,
            super::review(start, &moves, Color::Black, Strength::plies(5))
        );
    }

    #[test]
    fn a_middle_game_is_reviewed_at_the_fixed_depth() {
        // Six plies from the start, each the engine's own choice at that strength.
        let strength = Strength::plies(2);
        let mut position = crate::format::umea::START;
        let mut moves = Vec::new();
        for _ in 0..6 {
            let (best, _) = crate::engine::fixed::best_move(position.board(), strength);
            moves.push(best);
            position = position.after(best);
        }
        let review = review(crate::format::umea::START, &moves, Color::White, strength);
        assert_eq!(review.moves.len(), 3);
        for m in &review.moves {
            assert!(!m.exact());
            assert_eq!(m.best_value.depth, 2);
        }
    }
}
