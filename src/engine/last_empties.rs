//! The exact solver's last few empty cells: no table, no sorting and no clock (a
//! position with seven empty cells takes a few thousand nodes at most, well under a
//! millisecond). Most of an endgame solve's nodes are here, so the code is lean: the
//! moves into quadrants with an odd number of empty cells go first (parity), the
//! parity is kept move by move rather than recounted, and the last two empty cells
//! are solved by code of their own.

use super::{offer, Offer};
use crate::board::{bit_instructions, Board, Square, Squares};
use crate::eval::othello::final_score;

/// Lower than every score.
const NONE: i32 = i32::MIN + 1;

/// The four 4x4 quadrants of the board, by index: top left, top right, bottom left,
/// bottom right.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// For each set of quadrants (a 4-bit mask of their indices), the cells they hold.
const CELLS_OF_QUADRANTS: [u64; 16] = {
    let mut out = [0; 16];
    let mut set = 0;
    while set < 16 {
        let mut quadrant = 0;
        while quadrant < 4 {
            if set >> quadrant & 1 == 1 {
                out[set] |= QUADRANTS[quadrant];
            }
            quadrant += 1;
        }
        set += 1;
    }
    out
};

/// The quadrant of a cell, as a bit of a 4-bit mask.
#[inline]
fn quadrant_bit(square: Square) -> usize {
    let index = square.index() as usize;
    1 << ((index >> 4 & 2) | (index >> 2 & 1))
}

/// The cells of the quadrants that hold an odd number of the cells of `empty`: a move
/// there leaves the opponent an even number (parity ordering).
pub(super) fn odd_cells(empty: u64) -> u64 {
    CELLS_OF_QUADRANTS[odd_quadrants(empty)]
}

/// The quadrants (a 4-bit mask) holding an odd number of the cells of `empty`.
fn odd_quadrants(empty: u64) -> usize {
    QUADRANTS
        .iter()
        .enumerate()
        .filter(|(_, &quadrant)| (empty & quadrant).count_ones() & 1 == 1)
        .map(|(index, _)| 1 << index)
        .sum()
}

/// The solver, written once and compiled twice: as `plain` for any processor, and as
/// `with_bit_instructions` with the bit-manipulation instructions of newer x86-64
/// processors ([`bit_instructions`]), which make [`Board::flips`] and the counts a
/// quarter faster here (`scripts/strength.sh endgame`).
macro_rules! last_empties_solver {
    ($module:ident $(, #[$attribute:meta])*) => {
    mod $module {
        use super::*;

        /// [`super::solve`], compiled for this module's processors.
        $(#[$attribute])*
        pub(super) fn solve(board: Board, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
            let empty = !(board.own | board.opp);
            match empty.count_ones() {
                0 => {
                    *nodes += 1;
                    let (own, opp) = board.counts();
                    final_score(own, opp)
                }
                1 => {
                    *nodes += 1;
                    last_empty(board, Square::from_index(empty.trailing_zeros() as u8))
                }
                2 => last_two(board, empty, (alpha, beta), false, nodes),
                count => search(board, empty, count, odd_quadrants(empty), (alpha, beta), false, nodes),
            }
        }

        /// [`solve`] with three or more empty cells: `empty` holds `count` cells, `odd` are
        /// the quadrants with an odd number of them, `passed` says the other side has just
        /// passed.
        $(#[$attribute])*
        fn search(
            board: Board,
            empty: u64,
            count: u32,
            odd: usize,
            (mut alpha, beta): (i32, i32),
            passed: bool,
            nodes: &mut u64,
        ) -> i32 {
            *nodes += 1;
            let mut best = NONE;
            let odd_cells = CELLS_OF_QUADRANTS[odd];
            for cells in [empty & odd_cells, empty & !odd_cells] {
                for square in Squares(cells) {
                    let flips = board.flips(square);
                    if flips == 0 {
                        continue;
                    }
                    let child = board.play_flipping(square, flips);
                    let child_empty = empty & !square.bit();
                    let window = (-beta, -alpha);
                    let value = if count == 3 {
                        -last_two(child, child_empty, window, false, nodes)
                    } else {
                        let child_odd = odd ^ quadrant_bit(square);
                        -search(child, child_empty, count - 1, child_odd, window, false, nodes)
                    };
                    if offer(value, &mut best, &mut alpha, beta) == Offer::Cutoff {
                        return best;
                    }
                }
            }
            if best != NONE {
                return best;
            }
            if passed {
                let (own, opp) = board.counts();
                return final_score(own, opp);
            }
            -search(board.pass(), empty, count, odd, (-beta, -alpha), true, nodes)
        }

        /// [`solve`] with exactly two empty cells, `empty`; `passed` says the other side has
        /// just passed. The first move's value is returned if it reaches `beta`, else the
        /// better of the two.
        $(#[$attribute])*
        fn last_two(
            board: Board,
            empty: u64,
            (alpha, beta): (i32, i32),
            passed: bool,
            nodes: &mut u64,
        ) -> i32 {
            *nodes += 1;
            let first = Square::from_index(empty.trailing_zeros() as u8);
            let second = Square::from_index(63 - empty.leading_zeros() as u8);
            let mut best = NONE;
            let flips = board.flips(first);
            if flips != 0 {
                *nodes += 1;
                best = -last_empty(board.play_flipping(first, flips), second);
                if best >= beta {
                    return best;
                }
            }
            let flips = board.flips(second);
            if flips != 0 {
                *nodes += 1;
                return best.max(-last_empty(board.play_flipping(second, flips), first));
            }
            if best != NONE {
                return best;
            }
            if passed {
                let (own, opp) = board.counts();
                return final_score(own, opp);
            }
            -last_two(board.pass(), empty, (-beta, -alpha), true, nodes)
        }

        /// The final score of `board` whose only empty cell is `square`: the side to move
        /// plays it if it can, else the other side, else it stays empty.
        /// Always inlined, so that it takes its caller's instructions.
        #[inline(always)]
        fn last_empty(board: Board, square: Square) -> i32 {
            let (own, opp) = board.counts();
            let flips = board.flips(square);
            if flips != 0 {
                let n = flips.count_ones();
                return final_score(own + n + 1, opp - n);
            }
            let flips = board.pass().flips(square);
            if flips != 0 {
                let n = flips.count_ones();
                return final_score(own - n, opp + n + 1);
            }
            final_score(own, opp)
        }
    }
    };
}

last_empties_solver!(plain);

#[cfg(target_arch = "x86_64")]
last_empties_solver!(
    with_bit_instructions,
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
);

/// The exact final score ([`final_score`]) of `board` for the side to move, with
/// perfect play by both sides, within `alpha`..`beta` (fail-soft: a value at or
/// below `alpha` is an upper bound, one at or above `beta` a lower bound). Meant for
/// a few empty cells (the solver's last seven). Adds the positions visited to `nodes`.
pub(super) fn solve(board: Board, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if bit_instructions::available() {
        // SAFETY: the processor has the instructions the module is compiled for.
        return unsafe { with_bit_instructions::solve(board, alpha, beta, nodes) };
    }
    plain::solve(board, alpha, beta, nodes)
}

#[cfg(test)]
mod tests {
    use super::super::disc_margin;
    use super::super::tests::brute_force;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn quadrant_bits_name_each_cells_quadrant() {
        for index in 0..64 {
            let square = Square::from_index(index);
            let quadrant = quadrant_bit(square).trailing_zeros() as usize;
            assert!(QUADRANTS[quadrant] & square.bit() != 0, "{square}");
        }
    }

    proptest! {
        /// Exact within a wide window, and a correct bound on either side of a
        /// narrow one, for 0 to 7 empty cells (passes and wiped-out sides included).
        #[test]
        fn solves_exactly_as_minimax(
            cells in prop::sample::subsequence((0..64u8).collect::<Vec<_>>(), 0..8),
            split: u64,
        ) {
            let empty = cells.iter().fold(0u64, |acc, &cell| acc | 1 << cell);
            let board = Board { own: split & !empty, opp: !split & !empty };
            let mut nodes = 0;
            let exact = solve(board, NONE + 1, -NONE, &mut nodes);
            prop_assert_eq!(disc_margin(exact), brute_force(board));
            prop_assert!(nodes > 0);
            for (low, high) in [(exact - 1, exact), (exact, exact + 1), (exact - 300, exact + 300)] {
                let value = solve(board, low, high, &mut nodes);
                if value <= low {
                    prop_assert!(exact <= value);
                } else if value >= high {
                    prop_assert!(exact >= value);
                } else {
                    prop_assert_eq!(value, exact);
                }
            }
        }
    }
}
