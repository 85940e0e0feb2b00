//! SplitMix64 (Steele, Lea and Flood 2014), written out so that a seed gives the same
//! numbers on every machine and release: `gen`'s cases and the engine's training games
//! are reproducible from their seeds.

use crate::board::{Board, Square, Squares};

/// The generator's state.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (the remainder of the next number).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// One of `squares` (not empty), each as likely: the [`below`](Self::below)
    /// the count-th in ascending order.
    pub fn square_of(&mut self, squares: u64) -> Square {
        let pick = self.below(u64::from(squares.count_ones()));
        Squares(squares)
            .nth(pick as usize)
            .expect("a square below the count")
    }

    /// One step of a random game from `board`: a legal move chosen by
    /// [`square_of`](Self::square_of), or the pass of a side without one; `None` once
    /// neither side can move.
    pub fn step(&mut self, board: Board) -> Option<Board> {
        match board.moves() {
            0 if board.pass().moves() == 0 => None,
            0 => Some(board.pass()),
            moves => Some(board.play(self.square_of(moves))),
        }
    }

    /// A number in `low..=high` (the high bits of the next number times the span).
    pub fn range(&mut self, low: u32, high: u32) -> u32 {
        let span = u64::from(high - low) + 1;
        low + ((u128::from(self.next_u64()) * u128::from(span)) >> 64) as u32
    }
}
