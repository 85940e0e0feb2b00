//! Evaluation functions: a score for a position from one player's point of view.

pub mod othello;
pub mod pattern;
pub mod uf;
pub mod york;

use crate::board::lines::{self, Line, LINES_OF_KIND};
use crate::board::{Board, Square, CORNERS};
use crate::rules::Ending;

/// A static evaluation of a position, seen from the player who owns `max` discs, that
/// adds up one weight per disc: plus for MAX's discs, minus for MIN's. Such a score can
/// be kept up to date move by move instead of recomputed at every leaf.
pub trait Evaluation {
    /// The score of the position where `max` are the discs of the maximising player and
    /// `min` those of the other.
    fn score(&self, max: u64, min: u64) -> i32;

    /// How much the score rises when the maximising player places a disc on `square`
    /// and turns the discs `flips` (it falls by as much when the minimising player
    /// does the same).
    fn placement_gain(&self, square: Square, flips: u64) -> i32;

    /// [`Evaluation::placement_gain`] of the side to move of `board` playing the legal
    /// `square`, for a caller that needs no flip mask (the search's leaves).
    #[inline(always)]
    fn leaf_gain(&self, board: Board, square: Square) -> i32 {
        self.placement_gain(square, board.flips(square))
    }
}

/// An evaluation that scores a finished game apart: the search tells it whether the
/// game is over and, if so, how it ended for the maximising player under the
/// variant's winner rule.
pub trait GameEvaluation {
    /// The score of the position where `max` are the discs of the maximising player,
    /// `min` those of the other, and `ending` is `Some` exactly when the game is over.
    fn score(&self, max: u64, min: u64, ending: Option<Ending>) -> i32;
}

/// The CSCI-561 positional weights (SPEC.md section 1), row 1 first.
pub const CS561_WEIGHTS: [[i32; 8]; 8] = [
    [99, -8, 8, 6, 6, 8, -8, 99],
    [-8, -24, -4, -3, -3, -4, -24, -8],
    [8, -4, 7, 4, 4, 7, -4, 8],
    [6, -3, 4, 0, 0, 4, -3, 6],
    [6, -3, 4, 0, 0, 4, -3, 6],
    [8, -4, 7, 4, 4, 7, -4, 8],
    [-8, -24, -4, -3, -3, -4, -24, -8],
    [99, -8, 8, 6, 6, 8, -8, 99],
];

/// The CSCI-561 weights by bit index (`row * 8 + col`).
const CS561_BY_INDEX: [i32; 64] = {
    let mut table = [0; 64];
    let mut cell = 0;
    while cell < 64 {
        table[cell] = CS561_WEIGHTS[cell / 8][cell % 8];
        cell += 1;
    }
    table
};

/// The CSCI-561 evaluation E(s): weights under the maximising player's discs minus
/// weights under the opponent's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cs561;

/// The CSCI-561 table as one bit mask per distinct non-zero weight, so that a score
/// is a handful of popcounts instead of a 64-cell loop.
const CS561_MASKS: [(i32, u64); 9] = cs561_masks();

const fn cs561_masks() -> [(i32, u64); 9] {
    const WEIGHTS: [i32; 9] = [99, -8, 8, 6, -24, -4, -3, 7, 4];
    let mut out = [(0, 0u64); 9];
    let mut i = 0;
    while i < 9 {
        let mut mask = 0u64;
        let mut cell = 0;
        while cell < 64 {
            if CS561_WEIGHTS[cell / 8][cell % 8] == WEIGHTS[i] {
                mask |= 1 << cell;
            }
            cell += 1;
        }
        out[i] = (WEIGHTS[i], mask);
        i += 1;
    }
    out
}

impl Evaluation for Cs561 {
    #[inline]
    fn score(&self, max: u64, min: u64) -> i32 {
        let mut total = 0;
        let mut i = 0;
        while i < CS561_MASKS.len() {
            let (weight, mask) = CS561_MASKS[i];
            total += weight * ((max & mask).count_ones() as i32 - (min & mask).count_ones() as i32);
            i += 1;
        }
        total
    }

    /// The turned discs are weighed by popcounts (`TURNABLE_PLANES`) rather than
    /// one by one: a loop over one to a few discs mispredicts its end about once a
    /// move, which cost more than the popcounts (`make bench`).
    #[inline]
    fn placement_gain(&self, square: Square, flips: u64) -> i32 {
        let mut turned = 0;
        let mut i = 0;
        while i < TURNABLE_PLANES.len() {
            let (coefficient, plane) = TURNABLE_PLANES[i];
            turned += coefficient * (flips & plane).count_ones() as i32;
            i += 1;
        }
        // A turned disc leaves MIN's sum and joins MAX's: it counts twice.
        CS561_BY_INDEX[square.index() as usize] + 2 * turned
    }

    /// The turned discs weighed line by line: each line's flipped cells, as a byte
    /// ([`lines::flipped_lines`]), index a table of their weights (`LINE_WEIGHTS`).
    #[inline(always)]
    fn leaf_gain(&self, board: Board, square: Square) -> i32 {
        let flipped = lines::flipped_lines(board.own, board.opp, square);
        let mut turned = 0;
        for (kind, cells) in flipped.into_iter().enumerate() {
            let line = Line::through(square, kind).index as usize;
            turned += LINE_WEIGHTS[kind][line][cells as usize] as i32;
        }
        CS561_BY_INDEX[square.index() as usize] + 2 * turned
    }
}

/// Lines of a kind at most ([`LINES_OF_KIND`]).
const MOST_LINES: usize = 15;

/// `LINE_WEIGHTS[kind][line][cells]`: the CSCI-561 weights of the cells of a line
/// (bits of its byte, [`lines`]) added up.
static LINE_WEIGHTS: [[[i16; 256]; MOST_LINES]; 4] = line_weights();

const fn line_weights() -> [[[i16; 256]; MOST_LINES]; 4] {
    let mut table = [[[0i16; 256]; MOST_LINES]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut line = 0;
        while line < LINES_OF_KIND[kind] {
            let squares = Line::squares(kind, line as u8);
            let mut cells = 0;
            while cells < 256 {
                let mut sum = 0i32;
                let mut j = 0;
                while j < 8 {
                    if let Some(square) = squares[j] {
                        if cells >> j & 1 == 1 {
                            sum += CS561_BY_INDEX[square.index() as usize];
                        }
                    }
                    j += 1;
                }
                table[kind][line][cells] = sum as i16;
                cells += 1;
            }
            line += 1;
        }
        kind += 1;
    }
    table
}

/// The weights of the squares a move can turn (all but the corners, which never lie
/// between two discs) as sums over five planes: a square's weight is the sum of the
/// coefficients of the planes that hold it. Five popcounts weigh turned discs where
/// [`CS561_MASKS`] takes nine (the coefficients were found by a search over small
/// integers; fewer than five planes cannot make the eight non-zero weights).
const TURNABLE_PLANES: [(i32, u64); 5] = turnable_planes([-17, -4, -2, -1, 9]);

const fn turnable_planes(coefficients: [i32; 5]) -> [(i32, u64); 5] {
    let mut planes = [0u64; 5];
    let mut cell = 0;
    while cell < 64 {
        let weight = CS561_WEIGHTS[cell / 8][cell % 8];
        if CORNERS >> cell & 1 == 0 && weight != 0 {
            // The first set of planes whose coefficients sum to the weight.
            let mut set = 1;
            loop {
                assert!(set < 32, "a weight is no sum of the coefficients");
                let mut sum = 0;
                let mut plane = 0;
                while plane < 5 {
                    if set >> plane & 1 == 1 {
                        sum += coefficients[plane];
                    }
                    plane += 1;
                }
                if sum == weight {
                    break;
                }
                set += 1;
            }
            let mut plane = 0;
            while plane < 5 {
                if set >> plane & 1 == 1 {
                    planes[plane] |= 1 << cell;
                }
                plane += 1;
            }
        }
        cell += 1;
    }
    let mut out = [(0, 0u64); 5];
    let mut plane = 0;
    while plane < 5 {
        out[plane] = (coefficients[plane], planes[plane]);
        plane += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Squares;

    fn by_cell_loop(table: &[[i32; 8]; 8], discs: u64) -> i32 {
        (0..64)
            .filter(|i| discs >> i & 1 == 1)
            .map(|i| table[i / 8][i % 8])
            .sum()
    }

    #[test]
    fn masks_cover_every_non_zero_weight_once() {
        let union = CS561_MASKS.iter().fold(0u64, |acc, &(_, m)| {
            assert_eq!(acc & m, 0);
            acc | m
        });
        let zeros = 0x0000_0018_1800_0000u64;
        assert_eq!(union, !zeros);
    }

    /// The planes give every square a move can turn its weight, and the corners none.
    #[test]
    fn turnable_planes_sum_to_each_weight() {
        for cell in 0..64 {
            let in_planes: i32 = TURNABLE_PLANES
                .iter()
                .filter(|(_, plane)| plane >> cell & 1 == 1)
                .map(|(coefficient, _)| coefficient)
                .sum();
            let expected = if CORNERS >> cell & 1 == 1 {
                0
            } else {
                CS561_WEIGHTS[cell / 8][cell % 8]
            };
            assert_eq!(in_planes, expected, "cell {cell}");
        }
    }

    /// Over every move of random games, the gain is the placed square's weight plus
    /// twice the turned squares', counted one by one.
    #[test]
    fn placement_gain_counts_each_turned_disc_twice() {
        let mut random = crate::splitmix::SplitMix64::new(561);
        let mut moves = 0;
        for _ in 0..200 {
            let mut board = crate::board::Geometry::STANDARD.start();
            while board.moves() != 0 || board.pass().moves() != 0 {
                if board.moves() == 0 {
                    board = board.pass();
                    continue;
                }
                let square = random.square_of(board.moves());
                let flips = board.flips(square);
                let expected = CS561_BY_INDEX[square.index() as usize]
                    + 2 * by_cell_loop(&CS561_WEIGHTS, flips);
                assert_eq!(Cs561.placement_gain(square, flips), expected);
                board = board.play(square);
                moves += 1;
            }
        }
        assert!(moves > 10_000);
    }

    /// The line-by-line weighing of a move's turned discs agrees with the flip mask's,
    /// for every legal move along random games.
    #[test]
    fn leaf_gain_is_the_placement_gain() {
        let mut random = crate::splitmix::SplitMix64::new(1561);
        let mut moves = 0;
        for _ in 0..300 {
            let mut game = Some(crate::board::Geometry::STANDARD.start());
            while let Some(board) = game {
                for square in Squares(board.moves()) {
                    let flips = board.flips(square);
                    assert_eq!(
                        Cs561.leaf_gain(board, square),
                        Cs561.placement_gain(square, flips),
                        "{square} in {board:?}"
                    );
                    moves += 1;
                }
                game = random.step(board);
            }
        }
        assert!(moves > 100_000);
    }

    #[test]
    fn placement_gain_is_the_change_of_score() {
        use crate::board::Geometry;
        let mut board = Geometry::STANDARD.start();
        let mut max_to_move = true;
        // A fixed game: always the last legal move, passing when there is none.
        for _ in 0..70 {
            let Some(square) = Squares(board.moves()).last() else {
                board = board.pass();
                max_to_move = !max_to_move;
                continue;
            };
            let score = |b: crate::board::Board, max: bool| {
                if max {
                    Cs561.score(b.own, b.opp)
                } else {
                    Cs561.score(b.opp, b.own)
                }
            };
            let before = score(board, max_to_move);
            let gain = Cs561.placement_gain(square, board.flips(square));
            board = board.play(square);
            let after = score(board, !max_to_move);
            assert_eq!(after - before, if max_to_move { gain } else { -gain });
            max_to_move = !max_to_move;
        }
    }

    #[test]
    fn masks_agree_with_a_cell_loop() {
        for seed in [0u64, 1, 0xdead_beef, u64::MAX, 0x8100_0000_0000_0081] {
            let a = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let b = !a & seed.rotate_left(17);
            let expected = by_cell_loop(&CS561_WEIGHTS, a) - by_cell_loop(&CS561_WEIGHTS, b);
            assert_eq!(Cs561.score(a, b), expected);
        }
    }
}
