//! The side to move's bias of a weights file, measured: a search `d + 1` plies deep
//! and one `d` plies deep should agree on a position's value, on average.
//!
//! With the learned weights they do not: the odd-depth value is higher for the side
//! to move, by about 6 discs in the midgame (the third generation; `d` 2, 4 and 6
//! alike), 2.7-6.7 discs below 21 empty cells. Part of it comes with any noisy
//! evaluation (the last ply's player picks the best of several noisy values, so an
//! odd-depth search is optimistic for the side to move, an even-depth one
//! pessimistic), part from the training: the labels are even-depth searches, whose
//! pessimism stage after stage of bootstrapping adds up (labels that average two
//! depths, `reversi engine train --odd-even`, take it to about 2 discs).
//! `reversi engine tempo` prints it by stage (docs/engine.md: what it showed and
//! what was tried).

use std::time::{Duration, Instant};

use super::search::{Searcher, INFINITE};
use super::table::Table;
use super::train::play_game;
use crate::board::{Board, Squares};
use crate::eval::pattern::{stage, Weights, STAGES};
use crate::splitmix::SplitMix64;

/// How the alternation is measured.
#[derive(Clone, Copy, Debug)]
pub struct TempoParams {
    /// Seed of the games' random moves.
    pub seed: u64,
    /// Games played to collect positions.
    pub games: usize,
    /// The even depth `d`: each position is searched `d` and `d + 1` plies deep.
    pub depth: u32,
}

/// Per stage of the leaves: how many positions were measured and the mean of the
/// odd-depth value less the even-depth one, in discs for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Alternation {
    /// Positions whose two searches' leaves lie in the stage.
    pub positions: [usize; STAGES],
    /// Their mean alternation (0 where none were measured).
    pub mean: [f64; STAGES],
}

/// The positions the measure searches: along `params.games` games from the start,
/// each move the best by the evaluation of the child (`weights`), one in four at
/// random; every position with a move and at least `depth + 2` empty cells.
fn positions(weights: &Weights, params: &TempoParams) -> Vec<Board> {
    let mut rng = SplitMix64::new(params.seed);
    let mut out = Vec::new();
    for _ in 0..params.games {
        let game = play_game(params.depth + 1, |board| {
            let moves = board.moves();
            let square = if rng.below(4) == 0 {
                rng.square_of(moves)
            } else {
                Squares(moves)
                    .max_by_key(|&square| -weights.evaluate(board.play(square)))
                    .expect("a move")
            };
            (square, ())
        });
        out.extend(game.positions.into_iter().map(|(board, (), _)| board));
    }
    out
}

/// The alternation of `weights` over the positions of `positions`, by the stage of
/// the searches' leaves (positions whose two searches end in different stages are
/// left out).
pub fn measure(weights: &Weights, params: &TempoParams) -> Alternation {
    let far = Instant::now() + Duration::from_secs(1 << 30);
    let mut sums = [0.0; STAGES];
    let mut positions = [0; STAGES];
    let depth = params.depth as i32;
    for board in self::positions(weights, params) {
        let empties = (!(board.own | board.opp)).count_ones();
        let leaves = stage(empties - params.depth);
        if leaves != stage(empties - params.depth - 1) {
            continue;
        }
        let value = |plies| {
            let mut table = Table::new(16);
            Searcher::new(&mut table, weights, far)
                .without_probcut()
                .midgame(board, plies, -INFINITE, INFINITE)
        };
        sums[leaves] += f64::from(value(depth + 1) - value(depth)) / 100.0;
        positions[leaves] += 1;
    }
    let mut mean = [0.0; STAGES];
    for s in 0..STAGES {
        if positions[s] > 0 {
            mean[s] = sums[s] / positions[s] as f64;
        }
    }
    Alternation { positions, mean }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::{embedded, EXTRAS};

    fn params() -> TempoParams {
        TempoParams {
            seed: 5,
            games: 3,
            depth: 2,
        }
    }

    /// A constant added for the side to move moves the alternation by twice as much
    /// the other way, in its own stage only.
    #[test]
    fn a_constant_for_the_side_to_move_shifts_the_alternation_by_twice_it() {
        let params = params();
        let base = measure(embedded(), &params);
        let mut stages = embedded().stages().to_vec();
        let constant = stages[6].len() - EXTRAS;
        stages[6][constant] += 150;
        let shifted = measure(&Weights::from_stages(&stages), &params);
        assert!(base.positions[6] > 0);
        assert_eq!(shifted.positions, base.positions);
        for s in 0..STAGES {
            let expected = if s == 6 {
                base.mean[s] - 3.0
            } else {
                base.mean[s]
            };
            // Passes inside a search swap the side to move at some leaves.
            assert!(
                (shifted.mean[s] - expected).abs() < 0.5,
                "stage {s}: {} against {expected}",
                shifted.mean[s]
            );
        }
    }

    /// The committed weights (the fourth generation, labelled by two depths)
    /// alternate by under 3 discs on average over the stages from 16 to 55 empty
    /// cells; the third generation, labelled by even depths alone, by 5.5 on these
    /// positions.
    #[test]
    fn the_committed_weights_alternate_little_in_the_midgame() {
        let alternation = measure(embedded(), &params());
        let midgame = &alternation.mean[3..=10];
        let mean = midgame.iter().sum::<f64>() / midgame.len() as f64;
        assert!(alternation.positions[3..=10].iter().all(|&n| n > 0));
        assert!(mean.abs() < 3.0, "{:?}", alternation.mean);
    }
}
