//! The Umea course's "naive" opponent, move for move: alpha-beta to depth 7 on the
//! value white discs - black discs, moves in row-major order, the first strictly best
//! move wins, and a side with no legal move is a leaf (there are no passes in its
//! tree).
//!
//! Only the root's choice matters, and alpha-beta's root choice under strict
//! improvement is the first move with the best minimax value; the tree below is
//! therefore searched by a plain negamax alpha-beta, whose values are exact where
//! they matter whatever the order.

use super::{offer, Offer};
use crate::board::{Board, Square, Squares};

/// The course program's search depth.
pub const NAIVE_DEPTH: u32 = 7;

/// The disc difference from the side to move's point of view.
#[inline]
fn disc_difference(board: Board) -> i32 {
    board.own.count_ones() as i32 - board.opp.count_ones() as i32
}

/// Negamax alpha-beta: the value for the side to move, `depth` plies deep, where a
/// side with no legal move is a leaf.
fn negamax(board: Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = board.moves();
    if depth == 0 || moves == 0 {
        return disc_difference(board);
    }
    let mut best = i32::MIN + 1;
    for square in Squares(moves) {
        let value = -negamax(board.play(square), depth - 1, -beta, -alpha);
        if offer(value, &mut best, &mut alpha, beta) == Offer::Cutoff {
            break;
        }
    }
    best
}

/// The move the course's naive program plays from `board` (the side to move's view),
/// searching `depth` plies; `None` (it prints `pass`) when there is no legal move.
pub fn naive_move(board: Board, depth: u32) -> Option<Square> {
    let mut best: Option<(Square, i32)> = None;
    for square in Squares(board.moves()) {
        // A later move must beat the best so far strictly: a window whose lower edge
        // is that value proves "not better" as cheaply as alpha-beta can.
        let alpha = best.map_or(i32::MIN + 1, |(_, value)| value);
        let value = -negamax(
            board.play(square),
            depth.saturating_sub(1),
            i32::MIN + 1,
            -alpha,
        );
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((square, value));
        }
    }
    best.map(|(square, _)| square)
}
