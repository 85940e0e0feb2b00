//! A playing-strength evaluation for 8x8 Othello, from the side to move's point of
//! view, built from the classic features (see docs/engine.md's sources): mobility,
//! potential mobility (frontier), corners, X- and C-squares next to empty corners,
//! stable discs, and parity late in the game. Weights shift with the number of empty
//! cells, as in phase-dependent evaluators.

use crate::board::{Board, CORNERS};

/// One disc of final margin, in evaluation units: exact end-of-game scores use
/// [`final_score`], far outside the range of [`evaluate`].
pub const DISC: i32 = 100;

/// The bonus on top of the margin for a won (or the malus for a lost) finished game,
/// so that any sure win outranks any heuristic score.
pub const WIN: i32 = 50_000;

/// Heuristic scores are clamped to this, below every finished game's score.
const HEURISTIC_LIMIT: i32 = 40_000;

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff00_0000_0000_0000;
const BORDER: u64 = A_FILE | H_FILE | RANK_1 | RANK_8;

/// For each corner: the corner, its X-square (diagonal neighbour) and its two
/// C-squares (edge neighbours).
const CORNER_ZONES: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// The score of a finished game whose side to move has `own` discs against `opp`.
#[inline]
pub fn final_score(own: u32, opp: u32) -> i32 {
    margin_score(own as i32 - opp as i32)
}

/// The score of a finished game that the side to move ends `margin` discs ahead.
#[inline]
pub fn margin_score(margin: i32) -> i32 {
    margin * DISC + margin.signum() * WIN
}

/// Every cell next to a cell of `x` (8 directions), `x` itself excluded.
#[inline]
pub const fn neighbours(x: u64) -> u64 {
    let west = (x >> 1) & !H_FILE;
    let east = (x << 1) & !A_FILE;
    let row = x | west | east;
    (west | east | (row << 8) | (row >> 8)) & !x
}

/// Cells whose line is full in each of the four axes: horizontal, vertical,
/// diagonal (a1-h8 direction) and anti-diagonal.
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut rows = occupied & (occupied >> 1);
    rows &= rows >> 2;
    rows &= rows >> 4;
    let horizontal = (rows & A_FILE).wrapping_mul(RANK_1);
    let mut columns = occupied;
    columns &= columns >> 32;
    columns &= columns >> 16;
    columns &= columns >> 8;
    let vertical = (columns & RANK_1).wrapping_mul(A_FILE);
    let diagonal = full_towards::<9, true>(occupied) & full_towards::<9, false>(occupied);
    let anti = full_towards::<7, true>(occupied) & full_towards::<7, false>(occupied);
    [horizontal, vertical, diagonal, anti]
}

/// The cells whose `k`-th neighbour `(rows, columns)` per step away lies off the board.
const fn off_board(rows: i32, columns: i32, k: i32) -> u64 {
    let mut out = 0;
    let mut cell = 0;
    while cell < 64 {
        let (row, column) = (cell / 8 + rows * k, cell % 8 + columns * k);
        if row < 0 || row > 7 || column < 0 || column > 7 {
            out |= 1 << cell;
        }
        cell += 1;
    }
    out
}

/// The cells off the board 1, 2 and 4 steps along a diagonal of `STEP` (9: a1-h8, 7:
/// h1-a8) cells, towards higher indices when `UP`.
const fn diagonal_edges<const STEP: u32, const UP: bool>() -> [u64; 3] {
    let rows = if UP { 1 } else { -1 };
    let columns = if STEP == 9 { rows } else { -rows };
    [
        off_board(rows, columns, 1),
        off_board(rows, columns, 2),
        off_board(rows, columns, 4),
    ]
}

/// Occupied cells from which every cell along the diagonal of `STEP` (towards higher
/// indices when `UP`) is occupied up to the edge: runs doubled three times, each
/// stopped by the cells whose next cell that far lies off the board.
#[inline]
fn full_towards<const STEP: u32, const UP: bool>(occupied: u64) -> u64 {
    let edges = const { diagonal_edges::<STEP, UP>() };
    let along = |cells: u64, steps: u32| {
        if UP {
            cells >> (STEP * steps)
        } else {
            cells << (STEP * steps)
        }
    };
    let mut full = occupied & (along(occupied, 1) | edges[0]);
    full &= along(full, 2) | edges[1];
    full &= along(full, 4) | edges[2];
    full
}

/// Discs of `own` that can never be flipped: along each of the four axes the disc's
/// line is full, or one of its two neighbours on that axis is off the board or
/// itself a stable disc of the same colour. Computed as a fixed point from nothing.
pub fn stable_discs(own: u64, opp: u64) -> u64 {
    let full = full_lines(own | opp);
    let mut stable = 0u64;
    loop {
        let s = stable;
        let horizontal = full[0] | A_FILE | H_FILE | ((s << 1) & !A_FILE) | ((s >> 1) & !H_FILE);
        let vertical = full[1] | RANK_1 | RANK_8 | (s << 8) | (s >> 8);
        let diagonal = full[2] | BORDER | ((s << 9) & !A_FILE) | ((s >> 9) & !H_FILE);
        let anti = full[3] | BORDER | ((s << 7) & !H_FILE) | ((s >> 7) & !A_FILE);
        let next = own & horizontal & vertical & diagonal & anti;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The heuristic value of `board` for the side to move, in [`DISC`] units (roughly).
pub fn evaluate(board: Board) -> i32 {
    let Board { own, opp } = board;
    let occupied = own | opp;
    let empty = !occupied;
    let empties = empty.count_ones() as i32;

    let own_moves = board.moves().count_ones() as i32;
    let opp_moves = board.pass().moves().count_ones() as i32;
    let mobility = (own_moves - opp_moves) * 100 / (own_moves + opp_moves + 2);

    let around_empty = neighbours(empty);
    let frontier =
        (opp & around_empty).count_ones() as i32 - (own & around_empty).count_ones() as i32;

    let corners = (own & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
    let mut near_corners = 0;
    for (corner, x, c) in CORNER_ZONES {
        if occupied & corner == 0 {
            near_corners += 3 * ((opp & x).count_ones() as i32 - (own & x).count_ones() as i32);
            near_corners += (opp & c).count_ones() as i32 - (own & c).count_ones() as i32;
        }
    }

    let stability =
        stable_discs(own, opp).count_ones() as i32 - stable_discs(opp, own).count_ones() as i32;
    let discs = own.count_ones() as i32 - opp.count_ones() as i32;
    let parity = if empties % 2 == 1 { 1 } else { -1 };

    // Weights by phase: mobility and frontier dominate the opening and middle game,
    // discs and parity gain weight as the board fills.
    let late = empties < 20;
    let score = mobility * if late { 6 } else { 10 }
        + frontier * if late { 25 } else { 40 }
        + corners * 800
        + near_corners * 120
        + stability * 90
        + discs
            * if empties < 12 {
                60
            } else if late {
                15
            } else {
                0
            }
        + parity * if late { 60 } else { 0 };
    score.clamp(-HEURISTIC_LIMIT, HEURISTIC_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the 15 diagonal (or anti-diagonal) lines as a mask.
    fn diagonal_lines(anti: bool) -> Vec<u64> {
        use crate::board::lines::{Line, ANTI_DIAGONAL, DIAGONAL};
        let kind = if anti { ANTI_DIAGONAL } else { DIAGONAL };
        (0..15)
            .map(|index| {
                let cells = Line::squares(kind, index).into_iter().flatten();
                cells.fold(0, |mask, square| mask | square.bit())
            })
            .collect()
    }

    proptest::proptest! {
        /// The full lines found by shifts are those found line by line.
        #[test]
        fn full_lines_are_the_lines_with_no_empty_cell(occupied: u64, holes in 0..4u32, seed: u64) {
            // Boards with a few empty cells have full lines, random ones hardly any.
            let mut empty = 0u64;
            let mut state = seed;
            for _ in 0..holes {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                empty |= 1 << (state >> 58);
            }
            let occupied = if seed & 1 == 0 { occupied } else { !empty };
            let rows = (0..8).map(|r| RANK_1 << (8 * r));
            let columns = (0..8).map(|c| A_FILE << c);
            let expected: Vec<u64> = [
                rows.collect::<Vec<_>>(),
                columns.collect(),
                diagonal_lines(false),
                diagonal_lines(true),
            ]
            .iter()
            .map(|lines| lines.iter().filter(|&&l| occupied & l == l).fold(0, |a, l| a | l))
            .collect();
            proptest::prop_assert_eq!(full_lines(occupied).to_vec(), expected);
        }
    }

    #[test]
    fn corners_are_stable_and_the_start_has_none() {
        let start = crate::board::Geometry::STANDARD.start();
        assert_eq!(stable_discs(start.own, start.opp), 0);
        let own = 1 | 2 | (1 << 8);
        assert_eq!(stable_discs(own, 1 << 9), own);
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let own = 0x0f0f_0f0f_0f0f_0f0f;
        assert_eq!(stable_discs(own, !own), own);
    }

    #[test]
    fn final_scores_order_wins_above_heuristics() {
        assert!(final_score(33, 31) > HEURISTIC_LIMIT);
        assert!(final_score(31, 33) < -HEURISTIC_LIMIT);
        assert_eq!(final_score(32, 32), 0);
        assert_eq!(
            evaluate(crate::board::Geometry::STANDARD.start()),
            evaluate(crate::board::Geometry::STANDARD.start().pass())
        );
    }

    #[test]
    fn line_masks_cover_the_board() {
        assert_eq!(diagonal_lines(false).iter().fold(0, |a, l| a | l), !0);
        assert_eq!(
            diagonal_lines(true)
                .iter()
                .map(|l| l.count_ones())
                .sum::<u32>(),
            64
        );
        assert_eq!(diagonal_lines(false)[7], 0x8040_2010_0804_0201);
        assert_eq!(diagonal_lines(true)[7], 0x0102_0408_1020_4080);
    }
}
