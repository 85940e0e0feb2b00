//! The four lines through a square (its row, its column, its diagonal and its
//! anti-diagonal), each read as one byte, and the discs a move flips along each line
//! found from two small tables instead of ray by ray.
//!
//! A line's byte has bit `j` for the line's cell in column `j` (in row `j` for a
//! column), so the square itself sits at bit [`Line::position`]. Cells a short
//! diagonal lacks read as empty. What a move flips along a line depends only on the
//! square's place in it and the line's two bytes: [`OUTFLANK`] gives, from the
//! opponent's byte, the cells that would close a run of opponent discs on either side
//! (one each side at most), [`FLIPPED`] the cells between the square and the closing
//! discs that are really there. An evaluation that weighs each line's flipped cells
//! from a table of its own ([`Line::index`]) so weighs a move without its flip mask.

use super::{Square, RAYS};

/// The four kinds of line through a square, in the order [`line_bytes`] returns them:
/// rows first.
pub const ROW: usize = 0;
/// Columns.
pub const COLUMN: usize = 1;
/// Rows and columns rising together (a1 to h8).
pub const DIAGONAL: usize = 2;
/// Rows rising as columns fall (h1 to a8).
pub const ANTI_DIAGONAL: usize = 3;

/// How many lines of each kind the board has: 8 rows, 8 columns, 15 diagonals and 15
/// anti-diagonals (the shortest hold one cell).
pub const LINES_OF_KIND: [usize; 4] = [8, 8, 15, 15];

/// One line through a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// Which line of its kind: the row, the column, `row - col + 7` for a diagonal,
    /// `row + col` for an anti-diagonal.
    pub index: u8,
    /// The square's bit in the line's byte.
    pub position: u8,
}

impl Line {
    /// The line of kind `kind` through `square`.
    pub const fn through(square: Square, kind: usize) -> Line {
        let (row, col) = (square.row(), square.col());
        match kind {
            ROW => Line {
                index: row,
                position: col,
            },
            COLUMN => Line {
                index: col,
                position: row,
            },
            DIAGONAL => Line {
                index: row + 7 - col,
                position: col,
            },
            ANTI_DIAGONAL => Line {
                index: row + col,
                position: col,
            },
            _ => panic!("a line is of one of four kinds"),
        }
    }

    /// The squares of the line, by bit of its byte (`None` where a diagonal is short).
    pub const fn squares(kind: usize, index: u8) -> [Option<Square>; 8] {
        let mut out = [None; 8];
        let mut j = 0;
        while j < 8 {
            let (row, col) = match kind {
                ROW => (index as i8, j as i8),
                COLUMN => (j as i8, index as i8),
                DIAGONAL => (index as i8 - 7 + j as i8, j as i8),
                ANTI_DIAGONAL => (index as i8 - j as i8, j as i8),
                _ => panic!("a line is of one of four kinds"),
            };
            if row >= 0 && row < 8 {
                out[j] = Some(Square::new(row as u8, col as u8));
            }
            j += 1;
        }
        out
    }
}

/// The A file.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Gathers a column shifted to the A file into the top byte: row `j` to bit `j`.
const COLUMN_GATHER: u64 = 0x0102_0408_1020_4080;

/// Adds the eight bytes into the top one: cells in distinct columns meet there
/// without a carry, each at its column's bit.
const BYTE_SUM: u64 = 0x0101_0101_0101_0101;

/// `DIAGONALS[square]`: the masks of the diagonal and anti-diagonal through `square`,
/// the square included: its two rays each way ([`super::DIRECTIONS`] 1 and 5, 3 and 7).
const DIAGONALS: [[u64; 2]; 64] = diagonals();

const fn diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let rays = RAYS[square];
        let bit = 1 << square;
        out[square] = [rays[1] | rays[5] | bit, rays[3] | rays[7] | bit];
        square += 1;
    }
    out
}

/// The bytes of the row, column, diagonal and anti-diagonal through `square` of the
/// disc set `discs` (see the module's introduction). Always inlined, so that a caller
/// compiled for newer instructions gets them here too.
#[inline(always)]
pub fn line_bytes(discs: u64, square: Square) -> [u8; 4] {
    let (row, col) = (square.row() as u32, square.col() as u32);
    let [diagonal, anti_diagonal] = DIAGONALS[square.index() as usize];
    let gather = |x: u64, magic: u64| (x.wrapping_mul(magic) >> 56) as u8;
    [
        (discs >> (8 * row)) as u8,
        gather((discs >> col) & FILE_A, COLUMN_GATHER),
        gather(discs & diagonal, BYTE_SUM),
        gather(discs & anti_diagonal, BYTE_SUM),
    ]
}

/// `OUTFLANK[position][opp]`: for a move at bit `position` of a line whose opponent
/// discs are `opp`, the cell just past the run of opponent discs on each side, where
/// the run holds at least one disc and the cell lies on the line.
pub const OUTFLANK: [[u8; 256]; 8] = outflank();

const fn outflank() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut opp = 0;
        while opp < 256 {
            let mut side = 0;
            while side < 2 {
                // The first cell that is not the opponent's, past at least one that is.
                if let Some(k) = first_past(opp, position, SIDES[side], 0) {
                    if k.abs_diff(position) > 1 {
                        table[position][opp] |= 1 << k;
                    }
                }
                side += 1;
            }
            opp += 1;
        }
        position += 1;
    }
    table
}

/// The two directions along a line, as steps of the bit index.
const SIDES: [i32; 2] = [1, -1];

/// The first bit of `byte` past `position`, going by `step`, that equals `bit`.
const fn first_past(byte: usize, position: usize, step: i32, bit: usize) -> Option<usize> {
    let mut k = position as i32 + step;
    while k >= 0 && k < 8 {
        if byte >> k & 1 == bit {
            return Some(k as usize);
        }
        k += step;
    }
    None
}

/// `FLIPPED[position][closing]`: the cells strictly between bit `position` and the
/// nearest bit of `closing` on each side (own discs that close a run of the
/// opponent's, as [`OUTFLANK`] and the own byte give them).
pub const FLIPPED: [[u8; 256]; 8] = flipped();

const fn flipped() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut closing = 0;
        while closing < 256 {
            let mut side = 0;
            while side < 2 {
                if let Some(k) = first_past(closing, position, SIDES[side], 1) {
                    // The bits strictly between `position` and `k`.
                    let (low, high) = if k > position {
                        (position, k)
                    } else {
                        (k, position)
                    };
                    table[position][closing] |= ((1u16 << high) - (2u16 << low)) as u8;
                }
                side += 1;
            }
            closing += 1;
        }
        position += 1;
    }
    table
}

/// The cells the side to move (`own`) flips along each line through the empty
/// `square` (kinds in [`line_bytes`] order), as line bytes.
#[inline(always)]
pub fn flipped_lines(own: u64, opp: u64, square: Square) -> [u8; 4] {
    let (own, opp) = (line_bytes(own, square), line_bytes(opp, square));
    let mut out = [0u8; 4];
    for kind in 0..4 {
        let position = Line::through(square, kind).position as usize;
        let closing = OUTFLANK[position][opp[kind] as usize] & own[kind];
        out[kind] = FLIPPED[position][closing as usize];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Geometry, Squares};
    use crate::splitmix::SplitMix64;

    /// The flip mask rebuilt from the line bytes.
    fn flips_from_lines(board: Board, square: Square) -> u64 {
        let lines = flipped_lines(board.own, board.opp, square);
        let mut flips = 0;
        for (kind, bits) in lines.into_iter().enumerate() {
            let line = Line::through(square, kind);
            let squares = Line::squares(kind, line.index);
            assert_eq!(squares[line.position as usize], Some(square));
            for (j, cell) in squares.into_iter().enumerate() {
                if bits >> j & 1 == 1 {
                    flips |= cell.expect("a flipped cell lies on the line").bit();
                }
            }
        }
        flips
    }

    /// Along random games, every empty square's flips by line are the flip mask,
    /// legal or not, for both sides.
    #[test]
    fn lines_flip_what_the_rays_flip() {
        let mut random = SplitMix64::new(2026);
        let mut checked = 0;
        for _ in 0..100 {
            let mut game = Some(Geometry::STANDARD.start());
            while let Some(board) = game {
                for side in [board, board.pass()] {
                    for square in Squares(side.empty(Geometry::STANDARD)) {
                        assert_eq!(flips_from_lines(side, square), side.flips(square));
                        checked += 1;
                    }
                }
                game = random.step(board);
            }
        }
        assert!(checked > 100_000);
    }

    /// Each byte holds the discs of its line, bit by bit.
    #[test]
    fn line_bytes_read_the_lines() {
        let mut random = SplitMix64::new(7);
        for _ in 0..200 {
            let discs = random.next_u64();
            for index in 0..64 {
                let square = Square::from_index(index);
                let bytes = line_bytes(discs, square);
                for (kind, byte) in bytes.into_iter().enumerate() {
                    let line = Line::through(square, kind);
                    for (j, cell) in Line::squares(kind, line.index).into_iter().enumerate() {
                        let expected = cell.is_some_and(|cell| discs & cell.bit() != 0);
                        assert_eq!(byte >> j & 1 == 1, expected);
                    }
                }
            }
        }
    }
}
