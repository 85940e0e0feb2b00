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

/// Each lane of `cells` moved `steps` times its lane's shift, towards higher indices
/// when `UP` (cells moved past either end are dropped).
#[inline]
#[target_feature(enable = "avx2")]
fn along<const UP: bool>(cells: __m256i, steps: __m256i) -> __m256i {
    if UP {
        _mm256_sllv_epi64(cells, steps)
    } else {
        _mm256_srlv_epi64(cells, steps)
    }
}

/// In each lane, the cells of `run` in unbroken runs that start one step from a cell
/// of `from` (towards higher indices when `UP`): the runs grow by one cell twice,
/// then by two cells (pairs of `run` cells) twice, so up to six cells.
#[inline]
#[target_feature(enable = "avx2")]
fn runs<const UP: bool>(from: __m256i, run: __m256i) -> __m256i {
    let shift = shifts();
    let double = _mm256_add_epi64(shift, shift);
    let pairs = _mm256_and_si256(run, along::<UP>(run, shift));
    let mut grown = _mm256_and_si256(run, along::<UP>(from, shift));
    grown = _mm256_or_si256(grown, _mm256_and_si256(run, along::<UP>(grown, shift)));
    grown = _mm256_or_si256(grown, _mm256_and_si256(pairs, along::<UP>(grown, double)));
    _mm256_or_si256(grown, _mm256_and_si256(pairs, along::<UP>(grown, double)))
}

/// The runs of [`runs`] from `square` that end in a disc of `own`: the discs the move
/// turns, in each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn closed_runs<const UP: bool>(square: __m256i, own: __m256i, run: __m256i) -> __m256i {
    let grown = runs::<UP>(square, run);
    let past = _mm256_and_si256(own, along::<UP>(grown, shifts()));
    _mm256_andnot_si256(_mm256_cmpeq_epi64(past, _mm256_setzero_si256()), grown)
}

/// [`Board::flips`] on the 8x8 board.
///
/// # Safety
/// The processor must have AVX2 ([`available`]).
#[inline]
#[target_feature(enable = "avx2")]
pub fn flips(board: Board, square: Square) -> u64 {
    let own = _mm256_set1_epi64x(board.own as i64);
    let run = run_cells(board.opp);
    let start = _mm256_set1_epi64x(square.bit() as i64);
    or_lanes(_mm256_or_si256(
        closed_runs::<true>(start, own, run),
        closed_runs::<false>(start, own, run),
    ))
}

/// [`Board::moves`] on the 8x8 board: the empty cells one step past a run of the
/// opponent's discs that starts next to one of the mover's.
///
/// # Safety
/// The processor must have AVX2 ([`available`]).
#[inline]
#[target_feature(enable = "avx2")]
pub fn moves(board: Board) -> u64 {
    let own = _mm256_set1_epi64x(board.own as i64);
    let run = run_cells(board.opp);
    let reached = _mm256_or_si256(
        along::<true>(runs::<true>(own, run), shifts()),
        along::<false>(runs::<false>(own, run), shifts()),
    );
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
