//! Evaluation functions: a score for a position from one player's point of view.

pub mod othello;

/// A static evaluation of a position, seen from the player who owns `max` discs.
pub trait Evaluation {
    /// The score of the position where `max` are the discs of the maximising player and
    /// `min` those of the other.
    fn score(&self, max: u64, min: u64) -> i32;
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
