//! The transposition table: pairs of slots, one pair per hash of the position. The
//! first slot of a pair keeps the deeper of the results that land there, the second
//! takes the others, so a deep result (an exact solve of many empty cells) is not
//! lost to the many shallow ones stored after it. A position's result is replaced
//! only by one at least as deep: the shallow searches that order a node's moves and
//! ProbCut's shallow searches would otherwise overwrite what the previous iteration
//! learnt of the same positions (with it, 41% fewer nodes to 18 plies).
//!
//! A slot holds the full position (both bitboards, so a hit is never a collision) and
//! one packed word: value, depth, bound and best move. A new table is zeroed memory
//! the allocator hands over without writing it.
//!
//! Several threads may probe and store at once without locks: a slot is three
//! atomic words read and written one by one (relaxed: a word is never half
//! written, but a reader may see the words of two different stores). The second
//! word holds the opponent's bitboard mixed with a hash of the other two
//! ([`check`]), so a slot whose words come from different stores reads as a miss
//! (but for a chance of about 2^-64 per such read); one thread alone finds exactly
//! what it stored, as with plain words.

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

impl Entry {
    /// The value of a search with the window `alpha`..`beta` that this entry gives
    /// when it is at least `floor` deep: its value when exact, or when the bound it
    /// sets closes the window; otherwise the window is narrowed by that bound.
    #[inline]
    pub fn answer(&self, floor: u8, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        if self.depth < floor {
            return None;
        }
        match self.bound {
            Bound::Exact => return Some(self.value),
            Bound::Lower => *alpha = (*alpha).max(self.value),
            Bound::Upper => *beta = (*beta).min(self.value),
        }
        (*alpha >= *beta).then_some(self.value)
    }
}

/// The depth recorded for results of the exact endgame solver starts here (plus the
/// position's empty cells, so that larger solves count as deeper): deeper than any
/// heuristic search, so they answer every probe.
pub const TO_THE_END: u8 = 100;

/// Asks Linux to back the whole 2 MiB stretches of `slots` with huge pages, before
/// anything touches them (a zeroed allocation this large is fresh memory). The table
/// is probed at random: with 4 KiB pages nearly every probe of a 48 MiB table misses
/// the TLB, and each of its 12,288 pages costs a fault when first written. Where the
/// kernel's transparent huge pages are off, or only for `madvise`d memory (as on
/// Debian), this is what turns them on; elsewhere it changes nothing.
fn advise_huge_pages(slots: &[Slot]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = slots.as_ptr() as usize;
        let end = start + std::mem::size_of_val(slots);
        let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if last > first {
            // SAFETY: the range lies inside `slots`' allocation; the advice changes
            // only how the kernel backs it, not its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// One slot: the side to move's bitboard, the opponent's mixed with [`check`], and
/// the packed entry (0: empty).
type Slot = [AtomicU64; 3];

/// The hash of a slot's first and third words that its second word holds, mixed with
/// the opponent's bitboard.
#[inline(always)]
fn check(own: u64, data: u64) -> u64 {
    let h = (own ^ data.rotate_left(23).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 29)
}

/// A fixed-size table of `2^bits` slots, shared by the threads of a search.
pub struct Table {
    slots: Box<[Slot]>,
    mask: u64,
}

impl Table {
    /// A table with `2^bits` slots of 24 bytes (`bits` at least 1: the slots go in
    /// pairs).
    pub fn new(bits: u32) -> Table {
        assert!(bits >= 1, "a table needs at least one pair of slots");
        let slots = zeroed_slots(1 << bits);
        advise_huge_pages(&slots);
        Table {
            slots,
            mask: (1 << bits) - 1,
        }
    }

    /// The packed entry in slot `index` if the slot holds `board` (and its words all
    /// come from one store).
    #[inline(always)]
    fn held(&self, index: usize, board: Board) -> Option<u64> {
        let [own, mixed, data] = &self.slots[index];
        if own.load(Relaxed) != board.own {
            return None;
        }
        let data = data.load(Relaxed);
        (mixed.load(Relaxed) ^ check(board.own, data) == board.opp).then_some(data)
    }

    /// Writes `board` and the packed entry `data` into slot `index`.
    #[inline(always)]
    fn write(&self, index: usize, board: Board, data: u64) {
        let slot = &self.slots[index];
        slot[0].store(board.own, Relaxed);
        slot[1].store(board.opp ^ check(board.own, data), Relaxed);
        slot[2].store(data, Relaxed);
    }

    /// The first slot of `board`'s pair (slots go in pairs: an even index and the next).
    #[inline]
    fn pair(&self, board: Board) -> usize {
        let h = (board.own
            ^ board
                .opp
                .rotate_left(29)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xff51_afd7_ed55_8ccd);
        ((h ^ (h >> 31)) & self.mask & !1) as usize
    }

    /// Asks the processor to bring `board`'s pair of slots into its cache, so that a
    /// probe of it soon after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, board: Board) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let pair = &self.slots[self.pair(board)..][..2];
            // A pair is 48 bytes: it may lie across two cache lines.
            let (start, end) = (
                pair.as_ptr().cast::<i8>(),
                pair[1][2..].as_ptr().cast::<i8>(),
            );
            // SAFETY: every x86-64 processor has SSE, and a prefetch reads nothing:
            // it is only a hint (both addresses lie in the table anyway).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(start);
                _mm_prefetch::<_MM_HINT_T0>(end);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// The entry stored for `board`, if either slot of its pair holds it.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Entry> {
        let pair = self.pair(board);
        [pair, pair + 1]
            .into_iter()
            .find_map(|index| self.held(index, board).filter(|&data| data != 0))
            .map(unpack)
    }

    /// Stores `entry` for `board`: where its pair holds an entry for `board`, over
    /// it if `entry` is at least as deep (else not at all); else in the first slot
    /// when `entry` is at least as deep as the entry there (which moves to the
    /// second), else in the second. Another thread's store into the same pair at the
    /// same moment may be lost, or make an entry read as a miss.
    #[inline]
    pub fn store(&self, board: Board, entry: Entry) {
        let data = pack(entry);
        let pair = self.pair(board);
        if let Some((index, held)) = [pair, pair + 1]
            .into_iter()
            .find_map(|index| self.held(index, board).map(|held| (index, held)))
        {
            if entry.depth >= unpack(held).depth {
                self.write(index, board, data);
            }
        } else if entry.depth >= unpack(self.slots[pair][2].load(Relaxed)).depth {
            // The words as they are: the check does not depend on the slot.
            for (from, to) in self.slots[pair].iter().zip(&self.slots[pair + 1]) {
                to.store(from.load(Relaxed), Relaxed);
            }
            self.write(pair, board, data);
        } else {
            self.write(pair + 1, board, data);
        }
    }
}

/// `count` empty slots, in memory the allocator hands over zeroed (so without
/// writing it, where the system gives fresh pages).
fn zeroed_slots(count: usize) -> Box<[Slot]> {
    let layout = std::alloc::Layout::array::<Slot>(count).expect("a table that fits in memory");
    // SAFETY: the layout is that of `count` slots and not empty (a table has at least
    // one pair); zeroed bytes are valid atomic words; the box takes the allocation over
    // with the same layout, so it frees it rightly.
    unsafe {
        let memory = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if memory.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(memory, count))
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
                value: 0,
                depth: 0,
                bound: Bound::Lower,
                best: Some(Square::new(0, 0)),
            },
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
        ] {
            table.store(board, entry);
            assert_eq!(table.probe(board), Some(entry));
        }
        assert_eq!(table.probe(board.pass()), None);
    }

    /// Where the kernel makes transparent huge pages (always, or for `madvise`d
    /// memory), a large table is backed by them once written: its mapping in
    /// `/proc/self/smaps` counts huge pages.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_gets_huge_pages() {
        let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        if !(setting.contains("[always]") || setting.contains("[madvise]")) {
            eprintln!(
                "transparent huge pages are off here ({}): nothing to check",
                setting.trim()
            );
            return;
        }
        let table = Table::new(21);
        for slot in table.slots.iter() {
            slot[2].store(1, Relaxed);
        }
        let start = table.slots.as_ptr() as usize;
        let end = start + std::mem::size_of_val(&table.slots[..]);
        // The advice splits the allocation's mapping: add up every part of it.
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut overlaps = false;
        let mut huge_kib = 0;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((low, high)) = first.split_once('-') {
                if let (Ok(low), Ok(high)) = (
                    usize::from_str_radix(low, 16),
                    usize::from_str_radix(high, 16),
                ) {
                    overlaps = low < end && start < high;
                    continue;
                }
            }
            if let Some(kib) = line.strip_prefix("AnonHugePages:").filter(|_| overlaps) {
                huge_kib += kib
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .unwrap();
            }
        }
        // Some at least: without the advice, a kernel that makes huge pages only for
        // `madvise`d memory makes none (the whole table when memory is not too
        // fragmented for the kernel to find them).
        assert!(huge_kib > 0, "no huge pages in the table's mappings");
    }

    /// In a table of one pair, a deep result stays in the first slot while shallower
    /// ones take turns in the second; a result for a position already stored replaces
    /// its entry where it is when at least as deep, and is dropped when shallower; one
    /// at least as deep as the first slot's pushes that to the second.
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
        assert_eq!(table.probe(boards[0]), Some(at(TO_THE_END + 20)));
        table.store(boards[2], at(4));
        assert_eq!(table.probe(boards[2]), Some(at(6)));
        table.store(boards[2], at(7));
        assert_eq!(table.probe(boards[2]), Some(at(7)));
        table.store(boards[3], at(TO_THE_END + 21));
        assert_eq!(table.probe(boards[3]), Some(at(TO_THE_END + 21)));
        assert_eq!(table.probe(boards[0]), Some(at(TO_THE_END + 20)));
        assert_eq!(table.probe(boards[2]), None);
    }
}
