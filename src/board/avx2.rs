//! [`Board::flips`] and [`Board::moves`] (8x8) for x86-64 processors with AVX2: the
//! four line directions side by side in the lanes of one 256-bit register, so each
//! step of a run's growth is one instruction for all four. The exact solver's last
//! empty cells use them where the processor has AVX2 ([`available`]); the results
//! are those of the scalar functions, bit for bit (tested).

use std::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128,
    _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_set_epi64x, _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64,
    _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64,
};

use super::{Board, Square, INNER_FILES};

/// Whether the processor has AVX2 (and the bit instructions the same solver uses).
pub fn available() -> bool {
    std::is_x86_feature_detected!("avx2") && super::bit_instructions::available()
}

/// The lanes' shifts: along a row, a column, and the two diagonals.
#[inline]
#[target_feature(enable = "avx2")]
fn shifts() -> __m256i {
    _mm256_set_epi64x(7, 9, 8, 1)
}

/// The cells a run of the opponent's discs may cross in each lane: every cell along a
/// column; on the other lines none on the A or H file, so no run wraps into the next
/// row.
#[inline]
#[target_feature(enable = "avx2")]
fn run_cells(opp: u64) -> __m256i {
    let inner = INNER_FILES as i64;
    _mm256_and_si256(
        _mm256_set1_epi64x(opp as i64),
        _mm256_set_epi64x(inner, inner, -1, inner),
    )
}

/// The OR of the four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(lanes: __m256i) -> u64 {
    let half = _mm_or_si128(
        _mm256_castsi256_si128(lanes),
        _mm256_extracti128_si256::<1>(lanes),
    );
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// [`Board::flips`] on the 8x8 board.
///
/// # Safety
/// The processor must have AVX2 ([`available`]).
#[inline]
#[target_feature(enable = "avx2")]
pub fn flips(board: Board, square: Square) -> u64 {
    let shift = shifts();
    let double = _mm256_add_epi64(shift, shift);
    let own = _mm256_set1_epi64x(board.own as i64);
    let run = run_cells(board.opp);
    let zero = _mm256_setzero_si256();
    let start = _mm256_set1_epi64x(square.bit() as i64);
    // Towards higher indices: the run of the opponent's discs from the move grows by
    // one cell twice, then by two (pairs of discs) twice: up to six cells.
    let pairs = _mm256_and_si256(run, _mm256_sllv_epi64(run, shift));
    let mut up = _mm256_and_si256(run, _mm256_sllv_epi64(start, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(run, _mm256_sllv_epi64(up, shift)));
    up = _mm256_or_si256(up, _mm256_and_si256(pairs, _mm256_sllv_epi64(up, double)));
    up = _mm256_or_si256(up, _mm256_and_si256(pairs, _mm256_sllv_epi64(up, double)));
    // The run flips when the cell past it holds one of the mover's discs.
    let closed = _mm256_and_si256(own, _mm256_sllv_epi64(up, shift));
    let up = _mm256_andnot_si256(_mm256_cmpeq_epi64(closed, zero), up);
    // Towards lower indices, the same.
    let pairs = _mm256_and_si256(run, _mm256_srlv_epi64(run, shift));
    let mut down = _mm256_and_si256(run, _mm256_srlv_epi64(start, shift));
    down = _mm256_or_si256(down, _mm256_and_si256(run, _mm256_srlv_epi64(down, shift)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs, _mm256_srlv_epi64(down, double)),
    );
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs, _mm256_srlv_epi64(down, double)),
    );
    let closed = _mm256_and_si256(own, _mm256_srlv_epi64(down, shift));
    let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(closed, zero), down);
    or_lanes(_mm256_or_si256(up, down))
}

/// [`Board::moves`] on the 8x8 board.
///
/// # Safety
/// The processor must have AVX2 ([`available`]).
#[inline]
#[target_feature(enable = "avx2")]
pub fn moves(board: Board) -> u64 {
    let shift = shifts();
    let double = _mm256_add_epi64(shift, shift);
    let own = _mm256_set1_epi64x(board.own as i64);
    let run = run_cells(board.opp);
    // Runs of the opponent's discs that start next to one of the mover's discs, grown
    // as in `flips`; a move lies one cell past such a run.
    let pairs = _mm256_and_si256(run, _mm256_sllv_epi64(run, shift));
    let mut up = _mm256_and_si256(run, _mm256_sllv_epi64(own, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(run, _mm256_sllv_epi64(up, shift)));
    up = _mm256_or_si256(up, _mm256_and_si256(pairs, _mm256_sllv_epi64(up, double)));
    up = _mm256_or_si256(up, _mm256_and_si256(pairs, _mm256_sllv_epi64(up, double)));
    let pairs = _mm256_and_si256(run, _mm256_srlv_epi64(run, shift));
    let mut down = _mm256_and_si256(run, _mm256_srlv_epi64(own, shift));
    down = _mm256_or_si256(down, _mm256_and_si256(run, _mm256_srlv_epi64(down, shift)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs, _mm256_srlv_epi64(down, double)),
    );
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs, _mm256_srlv_epi64(down, double)),
    );
    let reached = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    or_lanes(reached) & !(board.own | board.opp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same moves and flips as the scalar functions, on any position.
        #[test]
        fn the_same_as_the_scalar_functions(own: u64, opp: u64, cell in 0..64u8) {
            if !available() {
                return Ok(());
            }
            let board = Board { own: own & !opp, opp };
            let square = Square::from_index(cell);
            // SAFETY: the processor has AVX2.
            unsafe {
                prop_assert_eq!(moves(board), board.moves());
                if (board.own | board.opp) & square.bit() == 0 {
                    prop_assert_eq!(flips(board, square), board.flips(square));
                }
            }
        }
    }
}
