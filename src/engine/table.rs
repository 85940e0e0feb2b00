//! The transposition table: pairs of slots, one pair per hash of the position. The
//! first slot of a pair keeps the deeper of the results that land there, the second
//! takes the others, so a deep result (an exact solve of many empty cells) is not
//! lost to the many shallow ones stored after it.
//!
//! A slot holds the full position (both bitboards, so a hit is never a collision) and
//! one packed word: value, depth, bound and best move. Slots are three words of zero
//! bits when empty, so that a new table is zeroed memory the allocator hands over
//! without writing it.
//!
//! The search threads of one move share the table without locks: each word is an
//! atomic read or written on its own, and a slot stores the two bitboards each XORed
//! with the packed word, so that a slot whose words two threads wrote at once (a
//! torn slot) does not match the position it would otherwise claim to hold.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

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
    /// The depth searched; [`TO_THE_END`] and more for an exact end-of-game solve.
    pub depth: u8,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// The best (or refuting) move, if any.
    pub best: Option<Square>,
}

/// The depth recorded for results of the exact endgame solver starts here (plus the
/// position's empty cells, so that larger solves count as deeper): deeper than any
/// heuristic search, so they answer every probe.
pub const TO_THE_END: u8 = 100;

/// A fixed-size table of `2^bits` slots, shared by the threads of one search.
pub struct Table {
    slots: Vec<[AtomicU64; 3]>,
    mask: u64,
}

/// One slot's three words as read: the position's two bitboards and the packed
/// entry, or zeros for an empty slot.
type Slot = [u64; 3];

impl Table {
    /// A table with `2^bits` slots of 24 bytes (`bits` at least 1: the slots go in
    /// pairs).
    pub fn new(bits: u32) -> Table {
        assert!(bits >= 1, "a table needs at least one pair of slots");
        Table {
            slots: (0..1usize << bits)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: (1 << bits) - 1,
        }
    }

    /// The position and packed entry of slot `index` (zeros when empty or torn).
    #[inline]
    fn read(&self, index: usize) -> Slot {
        let [own, opp, data] = &self.slots[index];
        let data = data.load(Relaxed);
        [own.load(Relaxed) ^ data, opp.load(Relaxed) ^ data, data]
    }

    /// Writes `slot` (position and packed entry) into slot `index`.
    #[inline]
    fn write(&self, index: usize, [own, opp, data]: Slot) {
        let words = &self.slots[index];
        words[0].store(own ^ data, Relaxed);
        words[1].store(opp ^ data, Relaxed);
        words[2].store(data, Relaxed);
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

    /// The entry stored for `board`, if either slot of its pair holds it.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Entry> {
        let pair = self.index(board) & !1;
        [pair, pair + 1].into_iter().find_map(|index| {
            let [own, opp, data] = self.read(index);
            (own == board.own && opp == board.opp && data != 0).then(|| unpack(data))
        })
    }

    /// Stores `entry` for `board`: over the entry for `board` where its pair holds
    /// one, else in the first slot when `entry` is at least as deep as the entry there
    /// (which moves to the second), else in the second.
    #[inline]
    pub fn store(&self, board: Board, entry: Entry) {
        let slot = [board.own, board.opp, pack(entry)];
        let pair = self.index(board) & !1;
        let first = self.read(pair);
        if first[..2] == slot[..2] {
            self.write(pair, slot);
        } else if self.read(pair + 1)[..2] == slot[..2] {
            self.write(pair + 1, slot);
        } else if entry.depth >= unpack(first[2]).depth {
            self.write(pair + 1, first);
            self.write(pair, slot);
        } else {
            self.write(pair + 1, slot);
        }
    }
}

/// One word: value (bits 0-31), depth (32-39), bound (40-41), best move (48-54, 64
/// for none).
fn pack(entry: Entry) -> u64 {
    let bound = match entry.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    let best = entry.best.map_or(64, |s| s.index() as u64);
    entry.value as u32 as u64 | (entry.depth as u64) << 32 | bound << 40 | best << 48
}

/// The entry packed in `data` by [`pack`].
fn unpack(data: u64) -> Entry {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    let best = (data >> 48) & 0x7f;
    Entry {
        value: data as u32 as i32,
        depth: (data >> 32) as u8,
        bound,
        best: (best < 64).then(|| Square::from_index(best as u8)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let table = Table::new(4);
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

    /// In a table of one pair, a deep result stays in the first slot while shallower
    /// ones take turns in the second; a result for a position already stored replaces
    /// its entry where it is; one at least as deep as the first slot's pushes that to
    /// the second.
    #[test]
    fn the_first_slot_keeps_the_deepest_result() {
        let table = Table::new(1);
        let start = crate::board::Geometry::STANDARD.start();
        let boards: Vec<Board> = crate::board::Squares(start.moves())
            .map(|square| start.play(square))
            .collect();
        let at = |depth| Entry {
            value: depth as i32,
            depth,
            bound: Bound::Exact,
            best: None,
        };
        table.store(boards[0], at(TO_THE_END + 20));
        table.store(boards[1], at(5));
        table.store(boards[2], at(6));
        assert_eq!(table.probe(boards[0]), Some(at(TO_THE_END + 20)));
        assert_eq!(table.probe(boards[1]), None);
        assert_eq!(table.probe(boards[2]), Some(at(6)));
        table.store(boards[0], at(3));
        assert_eq!(table.probe(boards[0]), Some(at(3)));
        assert_eq!(table.probe(boards[2]), Some(at(6)));
        table.store(boards[3], at(TO_THE_END + 21));
        assert_eq!(table.probe(boards[3]), Some(at(TO_THE_END + 21)));
        assert_eq!(table.probe(boards[0]), Some(at(3)));
        assert_eq!(table.probe(boards[2]), None);
    }

    /// Threads storing and probing the same few pairs of slots at once: a probe finds
    /// nothing or the entry stored for its own position, never words of two stores
    /// (each entry's value is a function of its position, so a mixed slot shows).
    #[test]
    fn threads_sharing_the_table_never_read_a_torn_slot() {
        let table = Table::new(3);
        let board = |i: u64| Board {
            own: i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            opp: (i << 1 | 1) << 40,
        };
        let entry = |i: u64| Entry {
            value: (i as i32).wrapping_mul(7919) % 100_000,
            depth: (i % 60) as u8,
            bound: Bound::Exact,
            best: Some(Square::from_index((i % 64) as u8)),
        };
        let found = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let (table, found) = (&table, &found);
                scope.spawn(move || {
                    for round in 0..200_000u64 {
                        let i = (round * 4 + thread) % 23;
                        table.store(board(i), entry(i));
                        let j = (round * 7 + thread) % 23;
                        if let Some(got) = table.probe(board(j)) {
                            assert_eq!(got, entry(j), "position {j}");
                            found.fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        assert!(found.load(Relaxed) > 0, "no probe ever found an entry");
    }
}
