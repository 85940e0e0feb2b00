//! The transposition table: one slot per hash of the position, always replaced.
//!
//! A slot holds the full position (both bitboards, so a hit is never a collision) and
//! one packed word: value, depth, bound and best move. Slots are `[u64; 3]` so that
//! a new table is zeroed memory the allocator hands over without writing it.

use crate::board::{Board, Square};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The search failed high: the true value is at least this.
    Lower,
    /// The search failed low: the true value is at most this.
    Upper,
    /// The true value.
    Exact,
}

/// A stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value found.
    pub value: i32,
    /// The depth searched; [`TO_THE_END`] for an exact end-of-game solve.
    pub depth: u8,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// The best (or refuting) move, if any.
    pub best: Option<Square>,
}

/// The depth recorded for results of the exact endgame solver: deeper than any
/// heuristic search, so they answer every probe.
pub const TO_THE_END: u8 = 100;

/// A fixed-size table of `2^bits` slots.
pub struct Table {
    slots: Vec<[u64; 3]>,
    mask: u64,
}

impl Table {
    /// A table with `2^bits` slots of 24 bytes.
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![[0; 3]; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    #[inline]
    fn index(&self, board: Board) -> usize {
        let h = (board.own
            ^ board
                .opp
                .rotate_left(29)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xff51_afd7_ed55_8ccd);
        ((h ^ (h >> 31)) & self.mask) as usize
    }

    /// The stored result for `board`, if its slot holds that position.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Entry> {
        let [own, opp, data] = self.slots[self.index(board)];
        if own != board.own || opp != board.opp || data == 0 {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        let best = (data >> 48) & 0x7f;
        Some(Entry {
            value: data as u32 as i32,
            depth: (data >> 32) as u8,
            bound,
            best: (best < 64).then(|| Square::from_index(best as u8)),
        })
    }

    /// Stores `entry` for `board`, replacing whatever its slot held.
    #[inline]
    pub fn store(&mut self, board: Board, entry: Entry) {
        let bound = match entry.bound {
            Bound::Lower => 1u64,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let best = entry.best.map_or(64, |s| s.index() as u64);
        let data =
            entry.value as u32 as u64 | (entry.depth as u64) << 32 | bound << 40 | best << 48;
        let index = self.index(board);
        self.slots[index] = [board.own, board.opp, data];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut table = Table::new(4);
        let board = crate::board::Geometry::STANDARD.start();
        assert_eq!(table.probe(board), None);
        for entry in [
            Entry {
                value: -51_234,
                depth: 7,
                bound: Bound::Upper,
                best: None,
            },
            Entry {
                value: 3,
                depth: TO_THE_END,
                bound: Bound::Exact,
                best: Some(Square::new(7, 7)),
            },
            Entry {
                value: 0,
                depth: 0,
                bound: Bound::Lower,
                best: Some(Square::new(0, 0)),
            },
        ] {
            table.store(board, entry);
            assert_eq!(table.probe(board), Some(entry));
        }
        assert_eq!(table.probe(board.pass()), None);
    }
}
