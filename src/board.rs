//! Bitboards: squares, geometry, legal moves, flips and perft.
//!
//! A board lives in one `u64` per colour. Bit `row * 8 + col` is the cell in line
//! `row` (0 = top) and column `col` (0 = left), so iterating the set bits from the
//! lowest up visits cells in positional order: upper rows first, left first within a
//! row (`a1, b1, ..., h1, a2, ...` in CSCI-561 naming).
//!
//! Smaller boards (the York 6x6 game) sit in the top-left corner of the 64 bits; a
//! [`Geometry`] masks the cells that exist. Cells outside the mask are never played
//! and never hold a disc, so every line of discs stops at the board's edge.

use std::fmt;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
pub mod lines;

/// One of the 64 bit positions: `row * 8 + col`, both 0-based from the top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square at `row`, `col` (both 0-based, below 8).
    pub const fn new(row: u8, col: u8) -> Square {
        assert!(row < 8 && col < 8);
        Square(row * 8 + col)
    }

    /// The square with bit index `index` (below 64).
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The bit index, `row * 8 + col`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The 0-based line, from the top.
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The 0-based column, from the left.
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// The one-bit mask of this square.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    /// CSCI-561 naming: column letter, then 1-based row (`d3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// Iterator over the squares of a bit set, lowest bit (positional order) first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// Which of the 64 bit positions are cells of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    cells: u64,
}

impl Geometry {
    /// The standard 8x8 board.
    pub const STANDARD: Geometry = Geometry { cells: !0 };

    /// A `width` x `height` rectangle in the top-left corner (both 1..=8).
    pub const fn rectangle(width: u8, height: u8) -> Geometry {
        assert!(width >= 1 && width <= 8 && height >= 1 && height <= 8);
        let row = (1u64 << width) - 1;
        let mut cells = 0;
        let mut r = 0;
        while r < height {
            cells |= row << (8 * r);
            r += 1;
        }
        Geometry { cells }
    }

    /// The mask of cells on the board.
    pub const fn cells(self) -> u64 {
        self.cells
    }

    /// The standard starting position for a board of even width and height, centred:
    /// the side to move (black) owns the two cells on the anti-diagonal of the centre
    /// square (`e4`, `d5` on 8x8).
    pub fn start(self) -> Board {
        let width = (self.cells & 0xff).count_ones() as u8;
        let height = (self.cells.count_ones() / width as u32) as u8;
        let (r, c) = (height / 2 - 1, width / 2 - 1);
        Board {
            own: Square::new(r, c + 1).bit() | Square::new(r + 1, c).bit(),
            opp: Square::new(r, c).bit() | Square::new(r + 1, c + 1).bit(),
        }
    }
}

/// The four corner cells of the 8x8 board.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Every cell but those on the A and H files.
const INNER_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Legal-move bits along one line direction, both ways: empty cells from which a run
/// of `opp` discs ends in an `own` disc, `SHIFT` bits apart. The runs grow by one cell,
/// then by two at a time (pairs of `opp` discs), so a run of six takes four steps.
#[inline(always)]
fn moves_along<const SHIFT: u32>(own: u64, opp: u64) -> u64 {
    // A run that crosses the left or right edge would wrap into the next line: for
    // every direction with a horizontal part, no run passes through the A or H file.
    let run = if SHIFT == 8 { opp } else { opp & INNER_FILES };
    let mut up = run & (own << SHIFT);
    let mut down = run & (own >> SHIFT);
    up |= run & (up << SHIFT);
    down |= run & (down >> SHIFT);
    let pairs_up = run & (run << SHIFT);
    let pairs_down = pairs_up >> SHIFT;
    up |= pairs_up & (up << (2 * SHIFT));
    down |= pairs_down & (down >> (2 * SHIFT));
    up |= pairs_up & (up << (2 * SHIFT));
    down |= pairs_down & (down >> (2 * SHIFT));
    (up << SHIFT) | (down >> SHIFT)
}

/// The 8 directions as (row step, column step); the first four go towards lower bit
/// indices, the last four towards higher ones.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
];

/// `RAYS[square][direction]`: the cells from `square` (excluded) to the edge.
const RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (mut r, mut c) = ((square / 8) as i8 + dr, (square % 8) as i8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[square][d] |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        square += 1;
    }
    rays
}

/// Keeps `between` if it is all `opp` discs (a run that a move flips), else nothing.
/// A conditional move, never a branch: whether a ray flips is a coin toss to the
/// processor (LLVM otherwise turns it into a branch in some callers, which then
/// mispredicts about once a move).
#[inline(always)]
fn if_all_opp(between: u64, opp: u64) -> u64 {
    std::hint::select_unpredictable(between & !opp == 0, between, 0)
}

/// Discs flipped along a ray towards lower indices: the cells between the move and
/// the nearest own disc (the highest own bit on the ray), if all are `opp`. With no own
/// disc on the ray the shift wraps to 0 and nothing is kept.
#[inline(always)]
fn flips_down(ray: u64, own: u64, opp: u64) -> u64 {
    let nearest = (ray & own).leading_zeros();
    if_all_opp(ray & !u64::MAX.wrapping_shr(nearest), opp)
}

/// Discs flipped along a ray towards higher indices (the nearest own disc is the
/// lowest own bit on the ray).
#[inline(always)]
fn flips_up(ray: u64, own: u64, opp: u64) -> u64 {
    let nearest = (ray & own).trailing_zeros();
    if_all_opp(ray & !u64::MAX.wrapping_shl(nearest), opp)
}

/// A position from the point of view of the side to move: `own` discs belong to the
/// player to move, `opp` to the other. The two sets never overlap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Discs of the side to move.
    pub own: u64,
    /// Discs of the other side.
    pub opp: u64,
}

impl Board {
    /// Cells of `geometry` that hold no disc.
    #[inline(always)]
    pub fn empty(self, geometry: Geometry) -> u64 {
        geometry.cells & !(self.own | self.opp)
    }

    /// Legal moves of the side to move on the standard 8x8 board.
    #[inline(always)]
    pub fn moves(self) -> u64 {
        self.moves_in(Geometry::STANDARD)
    }

    /// Legal moves of the side to move on `geometry`.
    #[inline(always)]
    pub fn moves_in(self, geometry: Geometry) -> u64 {
        let (own, opp) = (self.own, self.opp);
        let reached = moves_along::<1>(own, opp)
            | moves_along::<8>(own, opp)
            | moves_along::<9>(own, opp)
            | moves_along::<7>(own, opp);
        reached & self.empty(geometry)
    }

    /// Discs flipped by the side to move playing on the empty `square` (none if the
    /// move is not legal). Works on any geometry: discs never sit outside it.
    /// Always inlined, so that a caller compiled for newer instructions (the CS561
    /// search's `visit_bit_instructions`) gets them here too.
    #[inline(always)]
    pub fn flips(self, square: Square) -> u64 {
        let rays = &RAYS[square.index() as usize];
        let (own, opp) = (self.own, self.opp);
        flips_down(rays[0], own, opp)
            | flips_down(rays[1], own, opp)
            | flips_down(rays[2], own, opp)
            | flips_down(rays[3], own, opp)
            | flips_up(rays[4], own, opp)
            | flips_up(rays[5], own, opp)
            | flips_up(rays[6], own, opp)
            | flips_up(rays[7], own, opp)
    }

    /// The position after the side to move plays `square`, seen from the opponent
    /// (who moves next). The move must be legal.
    #[inline]
    pub fn play(self, square: Square) -> Board {
        self.play_flipping(square, self.flips(square))
    }

    /// [`Board::play`] with the move's flips already known (`self.flips(square)`).
    #[inline]
    pub fn play_flipping(self, square: Square, flips: u64) -> Board {
        debug_assert!(flips != 0, "illegal move {square}");
        debug_assert_eq!(flips, self.flips(square));
        Board {
            own: self.opp & !flips,
            opp: self.own | flips | square.bit(),
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub fn pass(self) -> Board {
        Board {
            own: self.opp,
            opp: self.own,
        }
    }

    /// Counts of (own, opp) discs.
    pub fn counts(self) -> (u32, u32) {
        (self.own.count_ones(), self.opp.count_ones())
    }
}

/// The bit-manipulation instructions of x86-64 processors since about 2013 (`lzcnt`,
/// `tzcnt`, `popcnt`, BMI1 and BMI2, part of the x86-64-v3 level): counting leading
/// and trailing zeros and shifting by a variable amount in one instruction each make
/// [`Board::flips`], and so the searches built on it, markedly faster. The binary
/// stays portable: the CS561 search and the engine's last-empties solver are
/// compiled twice, with `#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]` and
/// without, and take the plain build where [`bit_instructions::available`] is false.
pub mod bit_instructions {
    /// Whether the processor has them.
    #[cfg(target_arch = "x86_64")]
    pub fn available() -> bool {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }

    /// Not an x86-64 processor.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn available() -> bool {
        false
    }
}

/// Counts the leaves of the game tree `depth` plies below `board`, on `geometry`.
///
/// Convention (SPEC.md section 3): a side with no legal move passes, and the pass
/// counts as one ply; a finished game (neither side can move) is one leaf, whatever
/// depth is left. From the 8x8 start: 4, 12, 56, 244, 1396, 8200, ... for depths
/// 1, 2, 3, ...
pub fn perft(board: Board, geometry: Geometry, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves_in(geometry);
    if moves == 0 {
        let passed = board.pass();
        if passed.moves_in(geometry) == 0 {
            return 1;
        }
        return perft(passed, geometry, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    Squares(moves)
        .map(|square| perft(board.play(square), geometry, depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_follow_the_spec() {
        assert_eq!(Square::new(2, 3).to_string(), "d3");
        assert_eq!(Square::new(0, 0).to_string(), "a1");
        assert_eq!(Square::new(7, 7).to_string(), "h8");
    }

    #[test]
    fn rectangle_masks_the_top_left_corner() {
        assert_eq!(Geometry::rectangle(8, 8), Geometry::STANDARD);
        assert_eq!(Geometry::rectangle(6, 6).cells().count_ones(), 36);
        assert_eq!(Geometry::rectangle(2, 1).cells(), 0b11);
    }

    #[test]
    fn start_positions() {
        let start = Geometry::STANDARD.start();
        assert_eq!(
            start.own,
            Square::new(3, 4).bit() | Square::new(4, 3).bit(),
            "black on e4 and d5"
        );
        let names: Vec<String> = Squares(start.moves()).map(|s| s.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        let six = Geometry::rectangle(6, 6).start();
        assert_eq!(six.own, Square::new(2, 3).bit() | Square::new(3, 2).bit());
    }
}
