//! The UF CAP4053 example AI's evaluation (`EvaluateTest`): cell weights 100 at the
//! corners, 10 on the other edge cells and 1 elsewhere, plus a bonus at the end.

use super::GameEvaluation;
use crate::board::CORNERS;
use crate::rules::Ending;

/// The outer ring of the 8x8 board.
const RING: u64 = 0xff81_8181_8181_81ff;

/// Weight of a corner cell.
pub const CORNER_WEIGHT: i32 = 100;
/// Weight of an edge cell that is not a corner.
pub const EDGE_WEIGHT: i32 = 10;
/// Weight of any other cell.
pub const INNER_WEIGHT: i32 = 1;
/// Added for the side with more discs when the game is over (subtracted for the other).
pub const GAME_OVER_BONUS: i32 = 10_000;

/// The example AI's evaluation on the standard 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UfExample;

/// Sum of weights under `discs`.
fn weighted(discs: u64) -> i32 {
    CORNER_WEIGHT * (discs & CORNERS).count_ones() as i32
        + EDGE_WEIGHT * (discs & RING & !CORNERS).count_ones() as i32
        + INNER_WEIGHT * (discs & !RING).count_ones() as i32
}

impl GameEvaluation for UfExample {
    fn score(&self, max: u64, min: u64, ending: Option<Ending>) -> i32 {
        let bonus = match ending {
            Some(Ending::Win) => GAME_OVER_BONUS,
            Some(Ending::Loss) => -GAME_OVER_BONUS,
            Some(Ending::Draw) | None => 0,
        };
        weighted(max) - weighted(min) + bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The handout's rule, cell by cell.
    fn weight(row: u32, col: u32) -> i32 {
        let on_edge = |i: u32| i == 0 || i == 7;
        match (on_edge(row), on_edge(col)) {
            (true, true) => 100,
            (true, false) | (false, true) => 10,
            (false, false) => 1,
        }
    }

    #[test]
    fn masks_agree_with_the_handout_rule() {
        for cell in 0..64 {
            let expected = weight(cell / 8, cell % 8);
            assert_eq!(UfExample.score(1 << cell, 0, None), expected, "cell {cell}");
        }
        assert_eq!(UfExample.score(0, 0, Some(Ending::Win)), GAME_OVER_BONUS);
    }
}
