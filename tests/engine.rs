//! The strong engine: always a legal move, and exact endgame values that agree with a
//! brute-force minimax of the final disc margin.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use reversi::board::{Board, Squares};
use reversi::engine::Engine;

/// The final margin for the side to move with perfect play, by plain minimax.
fn brute_force(board: Board) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        if board.pass().moves() == 0 {
            let (own, opp) = board.counts();
            return own as i32 - opp as i32;
        }
        return -brute_force(board.pass());
    }
    Squares(moves)
        .map(|s| -brute_force(board.play(s)))
        .max()
        .unwrap()
}

/// Positions with `empties` empty cells (given as a subset of cell indices).
fn endgame_strategy() -> impl Strategy<Value = Board> {
    (
        any::<u64>(),
        prop::sample::subsequence((0..64u8).collect::<Vec<_>>(), 1..=8),
    )
        .prop_map(|(split, empty)| {
            let empty = empty.iter().fold(0u64, |m, &i| m | 1 << i);
            Board {
                own: split & !empty,
                opp: !split & !empty,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_move_is_legal_whatever_the_time(own in any::<u64>(), mask in any::<u64>(), micros in 0u64..3000) {
        let board = Board { own, opp: mask & !own };
        let thought = Engine::new().think(board, Instant::now() + Duration::from_micros(micros));
        match thought.best {
            None => prop_assert_eq!(board.moves(), 0),
            Some(square) => prop_assert!(board.moves() & square.bit() != 0),
        }
    }

    #[test]
    fn on_two_threads_the_move_is_legal_whatever_the_time(own in any::<u64>(), mask in any::<u64>(), micros in 0u64..3000) {
        let board = Board { own, opp: mask & !own };
        let mut engine = Engine::new().with_threads(2).expect("two threads");
        let thought = engine.think(board, Instant::now() + Duration::from_micros(micros));
        match thought.best {
            None => prop_assert_eq!(board.moves(), 0),
            Some(square) => prop_assert!(board.moves() & square.bit() != 0),
        }
    }

    #[test]
    fn solved_values_are_exact(board in endgame_strategy()) {
        prop_assume!(board.moves() != 0);
        // A generous deadline: the point is the value, not the speed.
        let thought = Engine::new().think(board, Instant::now() + Duration::from_secs(60));
        let exact = brute_force(board);
        if board.moves().count_ones() > 1 {
            prop_assert!(thought.solved);
            prop_assert_eq!(thought.value, exact);
            prop_assert_eq!(thought.proved, Some(exact.cmp(&0)));
        }
        let best = thought.best.unwrap();
        prop_assert_eq!(-brute_force(board.play(best)), exact, "the chosen move is not optimal");
    }
}

/// A midgame move whose best move holds from the first iterations on (38 empty cells:
/// d1, as at every depth to 19 in play) is settled: deepening stops soon after half
/// the time, well before the deadline, with that move.
#[test]
fn a_settled_midgame_move_answers_before_its_deadline() {
    let position = reversi::format::umea::parse_position(
        "BEEEEEOEEEEEOOEEEEEEOXXXEEEEOXXXXEEOOXXOXEEEOXXXXEEEEXXEEEEEEXEEE",
    )
    .unwrap();
    let budget = Duration::from_secs(2);
    let started = Instant::now();
    let thought = Engine::for_time(budget).think(position.board(), started + budget);
    let took = started.elapsed();
    assert!(took < budget.mul_f64(0.9), "{took:?} of {budget:?}");
    assert_eq!(thought.best.map(|square| square.index()), Some(3));
}
