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

    #[test]
    fn threads_sharing_the_table_still_answer_a_legal_move_in_time(
        own in any::<u64>(),
        mask in any::<u64>(),
        micros in 0u64..3000,
        threads in 2usize..=4,
    ) {
        let board = Board { own, opp: mask & !own };
        let deadline = Instant::now() + Duration::from_micros(micros);
        let thought = Engine::for_time_on(Duration::from_micros(micros), threads).think(board, deadline);
        // All the threads have stopped when think returns: well within a few
        // milliseconds of the deadline, even on a loaded machine.
        prop_assert!(Instant::now() < deadline + Duration::from_millis(500));
        match thought.best {
            None => prop_assert_eq!(board.moves(), 0),
            Some(square) => prop_assert!(board.moves() & square.bit() != 0),
        }
    }

    #[test]
    fn threads_sharing_the_table_solve_exactly(board in endgame_strategy(), threads in 2usize..=4) {
        prop_assume!(board.moves().count_ones() > 1);
        let far = Instant::now() + Duration::from_secs(60);
        let thought = Engine::for_time_on(Duration::from_secs(60), threads).think(board, far);
        let exact = brute_force(board);
        prop_assert!(thought.solved);
        prop_assert_eq!(thought.value, exact);
        let best = thought.best.unwrap();
        prop_assert_eq!(-brute_force(board.play(best)), exact, "the chosen move is not optimal");
    }
}

/// Positions of 12-15 empty cells along seeded random games: two and three threads
/// sharing one table (the helpers solving while the first thread proves who wins, then
/// the margin) find the margin the single-threaded solver finds, and a best move
/// that keeps it.
#[test]
fn threads_sharing_the_table_agree_with_the_single_threaded_solver() {
    let mut rng = reversi::splitmix::SplitMix64::new(561);
    let mut checked = 0;
    for game in 0..6 {
        let stop = 12 + game % 4;
        let mut board = reversi::board::Geometry::STANDARD.start();
        while (!(board.own | board.opp)).count_ones() > stop {
            match rng.step(board) {
                Some(next) => board = next,
                None => break,
            }
        }
        if board.moves().count_ones() < 2 {
            continue;
        }
        let exact = Engine::new().solve(board).value;
        for threads in [2, 3] {
            let far = Instant::now() + Duration::from_secs(120);
            let thought = Engine::for_time_on(Duration::from_secs(1), threads).think(board, far);
            assert!(thought.solved, "{board:?} on {threads} threads");
            assert_eq!(thought.value, exact, "{board:?} on {threads} threads");
            let after = Engine::new().solve(board.play(thought.best.unwrap()));
            assert_eq!(-after.value, exact, "{board:?}: the move loses discs");
        }
        checked += 1;
    }
    assert!(
        checked >= 4,
        "only {checked} positions with two moves or more"
    );
}
