//! Move-generation counts from the standard starts (SPEC.md section 3): a pass is
//! one ply, a finished game one leaf.

use reversi::board::{perft, Geometry};

/// (depth, leaves) from the 8x8 start.
const STANDARD: [(u32, u64); 11] = [
    (1, 4),
    (2, 12),
    (3, 56),
    (4, 244),
    (5, 1396),
    (6, 8200),
    (7, 55092),
    (8, 390216),
    (9, 3005288),
    (10, 24571284),
    (11, 212258800),
];

/// (depth, leaves) from the 6x6 start.
const SIX_BY_SIX: [(u32, u64); 10] = [
    (1, 4),
    (2, 12),
    (3, 56),
    (4, 244),
    (5, 1364),
    (6, 7604),
    (7, 47740),
    (8, 308716),
    (9, 2114912),
    (10, 14976792),
];

fn check(geometry: Geometry, table: &[(u32, u64)]) {
    for &(depth, leaves) in table {
        assert_eq!(
            perft(geometry.start(), geometry, depth),
            leaves,
            "depth {depth}"
        );
    }
}

#[test]
fn standard_board_to_depth_9() {
    check(Geometry::STANDARD, &STANDARD[..9]);
}

#[test]
fn six_by_six_to_depth_8() {
    check(Geometry::rectangle(6, 6), &SIX_BY_SIX[..8]);
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn standard_board_depths_10_and_11() {
    check(Geometry::STANDARD, &STANDARD[9..]);
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn six_by_six_depths_9_and_10() {
    check(Geometry::rectangle(6, 6), &SIX_BY_SIX[8..]);
}
