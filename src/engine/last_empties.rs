//! The exact solver's last few empty cells: no transposition table, evaluation or
//! clock (a position with eight empty cells takes some thousands of nodes, about a
//! millisecond at most). Most of an endgame solve's nodes are here, so the code is
//! lean. With 6-8 empty cells the moves are sorted fastest first and the bounds found
//! kept in a small table of this part's own ([`LocalTable`]); with fewer, the moves
//! into quadrants with an odd number of empty cells go first (parity), the parity is
//! kept move by move rather than recounted, and the last two empty cells are solved by
//! code of their own. Nodes are counted as Egaroucid counts them: the position after
//! the last move is scored, not counted.

use super::{offer, Offer};
#[cfg(target_arch = "x86_64")]
use crate::board::avx2;
use crate::board::lines::{line_bytes, Line};
use crate::board::{Board, Square, Squares, CORNERS};
use crate::eval::othello::{final_score, stable_discs};

/// Positions with at least this many empty cells try the [`stability_cutoff`] first
/// (with fewer, it costs more than the nodes it saves).
const STABILITY_CUTOFF_EMPTIES: u32 = 5;

/// Positions with at most this many empty cells order their moves by parity alone;
/// those with more, fastest first.
const PARITY_ONLY: u32 = 5;

/// The most empty cells [`solve`] takes.
pub(super) const MOST_EMPTIES: u32 = 8;

/// The fastest-first order's malus per reply left to the opponent.
const ORDER_PER_REPLY: i32 = 16;

/// The fastest-first order's bonus for a move into a quadrant with an odd number of
/// empty cells.
const ORDER_ODD_QUADRANT: i32 = 16;

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

/// `LINE_FLIPS[cell][mover]`: the discs flipped along a line of eight cells by a move
/// on `cell` (0 to 7) when `mover` holds the mover's discs (a bit per cell) and every
/// other cell but `cell` holds the opponent's.
const LINE_FLIPS: [[u8; 256]; 8] = {
    let mut out = [[0; 256]; 8];
    let mut cell = 0;
    while cell < 8 {
        let mut mover = 0;
        while mover < 256 {
            let mut flips = 0;
            // Towards cell 0, then towards cell 7: the run of opponent's discs counts
            // if a disc of the mover closes it.
            let mut at = cell;
            while at > 0 && mover >> (at - 1) & 1 == 0 {
                at -= 1;
            }
            if at > 0 {
                flips += cell - at;
            }
            let mut at = cell;
            while at < 7 && mover >> (at + 1) & 1 == 0 {
                at += 1;
            }
            if at < 7 {
                flips += at - cell;
            }
            out[cell][mover] = flips as u8;
            mover += 1;
        }
        cell += 1;
    }
    out
};

/// The discs the owner of `mover` flips by playing `square` when `square` is the only
/// empty cell (so every other cell holds a disc of the other side): counted from the
/// four lines through `square` as bytes ([`line_bytes`]; the cells a short diagonal
/// lacks read as the other side's, which changes nothing, as no disc of the mover
/// lies past them), without finding the discs themselves.
#[inline(always)]
fn last_flip_count(mover: u64, square: Square) -> u32 {
    let bytes = line_bytes(mover, square);
    (0..4)
        .map(|kind| {
            let position = Line::through(square, kind).position as usize;
            LINE_FLIPS[position][bytes[kind] as usize] as u32
        })
        .sum()
}

/// The stability cutoff: the side to move cannot end with more discs than the cells
/// its opponent's stable discs leave it, so when even that final score is at most
/// `alpha` it is the answer (an upper bound). The stable discs are counted only when
/// the opponent has enough discs for the cutoff to be possible.
#[inline]
pub(super) fn stability_cutoff(board: Board, alpha: i32) -> Option<i32> {
    let most_stable = board.opp.count_ones();
    if final_score(64 - most_stable, most_stable) > alpha {
        return None;
    }
    let stable = stable_discs(board.opp, board.own).count_ones();
    let bound = final_score(64 - stable, stable);
    (bound <= alpha).then_some(bound)
}

/// Slots of [`LocalTable`] per count of empty cells, as a power of two.
const LOCAL_BITS: u32 = 10;

/// One position's bounds in a [`LocalTable`].
#[derive(Clone, Copy)]
pub(super) struct LocalSlot {
    own: u64,
    opp: u64,
    /// The value is at least this.
    lower: i32,
    /// The value is at most this.
    upper: i32,
}

/// The bounds found for recent positions of the fastest-first part of the solver:
/// for each count of empty cells, a small direct-mapped table (a slot holds its
/// position, so a hit is never a collision). Small enough to stay in the processor's
/// caches, unlike the transposition table, and enough to catch the transpositions
/// that many nearby positions share.
pub(super) struct LocalTable {
    slots: Vec<LocalSlot>,
}

impl LocalTable {
    /// An empty table (zeroed memory: no position has no disc, so no slot matches).
    pub(super) fn new() -> LocalTable {
        let empty = LocalSlot {
            own: 0,
            opp: 0,
            lower: 0,
            upper: 0,
        };
        LocalTable {
            slots: vec![empty; ((MOST_EMPTIES - PARITY_ONLY) << LOCAL_BITS) as usize],
        }
    }

    /// The slot of `board`, which has `count` empty cells (more than [`PARITY_ONLY`],
    /// at most [`MOST_EMPTIES`]).
    #[inline(always)]
    fn slot(&self, board: Board, count: u32) -> usize {
        let hash = (board.own.wrapping_mul(0x9dda_1c54_cfe6_b6e9)
            ^ board.opp.wrapping_mul(0xa2e6_c030_0831_e05a))
            >> (64 - LOCAL_BITS);
        (((count - PARITY_ONLY - 1) as usize) << LOCAL_BITS) | hash as usize
    }
}

/// The solver, written once and compiled twice: as `plain` for any processor, and as
/// `with_avx2` for x86-64 processors with AVX2 and the bit-manipulation instructions
/// ([`avx2::available`]), which finds flips and legal moves four line directions at
/// a time ([`avx2`]): FFO #40-#44 and #47 solve 4% faster than with the bit
/// instructions alone.
macro_rules! last_empties_solver {
    ($module:ident, $flips:path, $moves:path $(, #[$attribute:meta])*) => {
    mod $module {
        use super::*;

        /// [`Board::flips`], as this module's processors compute it fastest.
        $(#[$attribute])*
        #[inline]
        fn flips_of(board: Board, square: Square) -> u64 {
            $flips(board, square)
        }

        /// [`Board::moves`], as this module's processors compute it fastest.
        $(#[$attribute])*
        #[inline]
        fn moves_of(board: Board) -> u64 {
            $moves(board)
        }

        /// [`super::solve`], compiled for this module's processors.
        $(#[$attribute])*
        pub(super) fn solve(
            board: Board,
            alpha: i32,
            beta: i32,
            nodes: &mut u64,
            local: &mut LocalTable,
        ) -> i32 {
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
                count if count <= PARITY_ONLY => {
                    search(board, empty, count, odd_quadrants(empty), (alpha, beta), false, nodes)
                }
                count => {
                    assert!(count <= MOST_EMPTIES, "too many empty cells for the solver");
                    let odd = odd_quadrants(empty);
                    let moves = moves_of(board);
                    ordered(board, empty, count, odd, (alpha, beta), moves, false, nodes, local)
                }
            }
        }

        /// [`solve`] with more than [`PARITY_ONLY`] empty cells, fastest first: the moves
        /// that leave the opponent the fewest replies (a corner counting as two) go
        /// first, then those into a quadrant with an odd number of empty cells. The
        /// arguments are [`search`]'s, with `moves` the legal moves of `board` and
        /// `local` the bounds found so far.
        $(#[$attribute])*
        #[allow(clippy::too_many_arguments)]
        fn ordered(
            board: Board,
            empty: u64,
            count: u32,
            odd: usize,
            (mut alpha, beta): (i32, i32),
            moves: u64,
            passed: bool,
            nodes: &mut u64,
            local: &mut LocalTable,
        ) -> i32 {
            *nodes += 1;
            if !passed {
                if let Some(bound) = stability_cutoff(board, alpha) {
                    return bound;
                }
            }
            let slot = local.slot(board, count);
            let known = local.slots[slot];
            if known.own == board.own && known.opp == board.opp {
                if known.lower >= beta {
                    return known.lower;
                }
                if known.upper <= alpha {
                    return known.upper;
                }
            }
            let window_low = alpha;
            if moves == 0 {
                if passed {
                    let (own, opp) = board.counts();
                    return final_score(own, opp);
                }
                let other = board.pass();
                let window = (-beta, -alpha);
                return -ordered(other, empty, count, odd, window, moves_of(other), true, nodes, local);
            }
            let odd_cells = CELLS_OF_QUADRANTS[odd];
            // (score, move, child, child's moves), best first.
            let mut list = [(0i32, Square::from_index(0), Board { own: 0, opp: 0 }, 0u64); MOST_EMPTIES as usize];
            let mut len = 0;
            for square in Squares(moves) {
                let child = board.play_flipping(square, flips_of(board, square));
                let replies = moves_of(child);
                let mut score = -ORDER_PER_REPLY
                    * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                if square.bit() & odd_cells != 0 {
                    score += ORDER_ODD_QUADRANT;
                }
                // Insertion into the sorted list, best first, ties in cell order.
                let mut at = len;
                while at > 0 && list[at - 1].0 < score {
                    list[at] = list[at - 1];
                    at -= 1;
                }
                list[at] = (score, square, child, replies);
                len += 1;
            }
            let mut best = NONE;
            for &(_, square, child, child_moves) in &list[..len] {
                let child_empty = empty & !square.bit();
                let child_odd = odd ^ quadrant_bit(square);
                let window = (-beta, -alpha);
                let value = if count - 1 <= PARITY_ONLY {
                    -search(child, child_empty, count - 1, child_odd, window, false, nodes)
                } else {
                    let count = count - 1;
                    -ordered(child, child_empty, count, child_odd, window, child_moves, false, nodes, local)
                };
                if offer(value, &mut best, &mut alpha, beta) == Offer::Cutoff {
                    break;
                }
            }
            local.slots[slot] = LocalSlot {
                own: board.own,
                opp: board.opp,
                lower: if best > window_low { best } else { NONE },
                upper: if best < beta { best } else { -NONE },
            };
            best
        }

        /// [`solve`] with 3 to [`PARITY_ONLY`] empty cells: `empty` holds `count` cells, `odd` are
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
            if !passed && count >= STABILITY_CUTOFF_EMPTIES {
                if let Some(bound) = stability_cutoff(board, alpha) {
                    return bound;
                }
            }
            let mut best = NONE;
            let odd_cells = CELLS_OF_QUADRANTS[odd];
            for cells in [empty & odd_cells, empty & !odd_cells] {
                for square in Squares(cells) {
                    let flips = flips_of(board, square);
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
            let flips = flips_of(board, first);
            if flips != 0 {
                best = -last_empty(board.play_flipping(first, flips), second);
                if best >= beta {
                    return best;
                }
            }
            let flips = flips_of(board, second);
            if flips != 0 {
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
            let own = board.own.count_ones();
            let opp = 63 - own;
            let n = last_flip_count(board.own, square);
            if n != 0 {
                return final_score(own + n + 1, opp - n);
            }
            let n = last_flip_count(board.opp, square);
            if n != 0 {
                return final_score(own - n, opp + n + 1);
            }
            final_score(own, opp)
        }
    }
    };
}

last_empties_solver!(plain, Board::flips, Board::moves);

#[cfg(target_arch = "x86_64")]
last_empties_solver!(
    with_avx2,
    avx2::flips,
    avx2::moves,
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
);

/// The exact final score ([`final_score`]) of `board` for the side to move, with
/// perfect play by both sides, within `alpha`..`beta` (fail-soft: a value at or
/// below `alpha` is an upper bound, one at or above `beta` a lower bound). Meant for
/// at most [`MOST_EMPTIES`] empty cells. Adds the positions visited to `nodes`; keeps
/// bounds in `local` (the same table for every call of one search).
pub(super) fn solve(
    board: Board,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
    local: &mut LocalTable,
) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the processor has the instructions the module is compiled for.
        return unsafe { with_avx2::solve(board, alpha, beta, nodes, local) };
    }
    plain::solve(board, alpha, beta, nodes, local)
}

#[cfg(test)]
mod tests {
    use super::super::disc_margin;
    use super::super::tests::brute_force;
    use super::*;
    use proptest::prelude::*;

    /// The opponent's eight discs on row 1 are stable, its ninth (d4) is not: the
    /// side to move can end with at most 56 discs against 8.
    #[test]
    fn the_stability_cutoff_counts_only_stable_discs() {
        let board = Board {
            own: 0xff00,
            opp: 0xff | Square::new(3, 3).bit(),
        };
        let bound = final_score(56, 8);
        assert_eq!(stability_cutoff(board, bound), Some(bound));
        assert_eq!(stability_cutoff(board, bound + 1), Some(bound));
        assert_eq!(stability_cutoff(board, bound - 1), None);
        assert_eq!(stability_cutoff(board, final_score(55, 9)), None);
    }

    proptest! {
        /// The count from lines is the number of discs [`Board::flips`] finds.
        #[test]
        fn last_flip_counts_are_the_flips(cell in 0..64u8, split: u64) {
            let square = Square::from_index(cell);
            let board = Board { own: split & !square.bit(), opp: !split & !square.bit() };
            prop_assert_eq!(last_flip_count(board.own, square), board.flips(square).count_ones());
            let other = board.pass();
            prop_assert_eq!(last_flip_count(other.own, square), other.flips(square).count_ones());
        }
    }

    #[test]
    fn quadrant_bits_name_each_cells_quadrant() {
        for index in 0..64 {
            let square = Square::from_index(index);
            let quadrant = quadrant_bit(square).trailing_zeros() as usize;
            assert!(QUADRANTS[quadrant] & square.bit() != 0, "{square}");
        }
    }

    proptest! {
        /// Exact within a wide window (in both builds), and a correct bound on either
        /// side of a narrow one, for 0 to 8 empty cells (passes and wiped-out sides included;
        /// the narrow windows meet the wide one's bounds in the local table).
        #[test]
        fn solves_exactly_as_minimax(
            cells in prop::sample::subsequence((0..64u8).collect::<Vec<_>>(), 0..9),
            split: u64,
        ) {
            let empty = cells.iter().fold(0u64, |acc, &cell| acc | 1 << cell);
            let board = Board { own: split & !empty, opp: !split & !empty };
            let mut nodes = 0;
            let mut local = LocalTable::new();
            let exact = solve(board, NONE + 1, -NONE, &mut nodes, &mut local);
            prop_assert_eq!(disc_margin(exact), brute_force(board));
            prop_assert!(nodes > 0);
            // The build for any processor, which this one may not take.
            let plain = plain::solve(board, NONE + 1, -NONE, &mut nodes, &mut LocalTable::new());
            prop_assert_eq!(plain, exact);
            for (low, high) in [(exact - 1, exact), (exact, exact + 1), (exact - 300, exact + 300)] {
                let value = solve(board, low, high, &mut nodes, &mut local);
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
