//! Rectangular boards of any size with blocked cells (CSU CS440 "Tri-state Othello"),
//! as a padded array ("mailbox"): one byte per cell and a frame of walls, so that a
//! line of discs stops at a wall whether it is the board's edge or a blocked cell.
//!
//! The 8x8 bitboards of [`crate::board`] stay as they are: this board serves only the
//! sizes and shapes they cannot hold.

/// A disc colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// `B`.
    Black,
    /// `W`.
    White,
}

impl Colour {
    /// The other colour.
    pub const fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    const fn byte(self) -> u8 {
        match self {
            Colour::Black => BLACK,
            Colour::White => WHITE,
        }
    }
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Empty and playable (`-`).
    Empty,
    /// Empty and never playable (`E`); it breaks a line like an empty cell.
    Blocked,
    /// A disc.
    Disc(Colour),
}

const EMPTY: u8 = 0;
const WALL: u8 = 1;
const BLACK: u8 = 2;
const WHITE: u8 = 3;

/// A `width` x `height` board; (x, y) are the column and the row, 0-based from the
/// top-left.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    width: usize,
    height: usize,
    /// Cells row by row, each row preceded by one wall cell (which is also the right
    /// wall of the row before), with one wall row above and below.
    cells: Vec<u8>,
}

impl Grid {
    /// An empty board (every cell playable). Width and height are at least 1.
    pub fn new(width: usize, height: usize) -> Grid {
        assert!(width >= 1 && height >= 1);
        let stride = width + 1;
        let mut cells = vec![WALL; stride * (height + 2) + 1];
        for y in 0..height {
            for x in 0..width {
                cells[(y + 1) * stride + x + 1] = EMPTY;
            }
        }
        Grid {
            width,
            height,
            cells,
        }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    fn stride(&self) -> usize {
        self.width + 1
    }

    /// The index of cell (x, y) in the padded array.
    pub fn index(&self, x: usize, y: usize) -> usize {
        debug_assert!(x < self.width && y < self.height);
        (y + 1) * self.stride() + x + 1
    }

    /// The (x, y) of a padded index.
    pub fn coords(&self, index: usize) -> (usize, usize) {
        ((index - 1) % self.stride(), (index - 1) / self.stride() - 1)
    }

    /// What (x, y) holds.
    pub fn get(&self, x: usize, y: usize) -> Cell {
        match self.cells[self.index(x, y)] {
            EMPTY => Cell::Empty,
            WALL => Cell::Blocked,
            BLACK => Cell::Disc(Colour::Black),
            _ => Cell::Disc(Colour::White),
        }
    }

    /// Puts `cell` on (x, y).
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) {
        let index = self.index(x, y);
        self.cells[index] = match cell {
            Cell::Empty => EMPTY,
            Cell::Blocked => WALL,
            Cell::Disc(colour) => colour.byte(),
        };
    }

    /// The length of the padded array: every padded index is below it.
    pub fn padded_len(&self) -> usize {
        self.cells.len()
    }

    /// The eight steps between neighbouring cells in the padded array.
    pub fn directions(&self) -> [isize; 8] {
        let s = self.stride() as isize;
        [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1]
    }

    /// Discs that `colour` playing on `index` would flip in direction `step`.
    #[inline]
    fn run(&self, index: usize, step: isize, colour: Colour) -> usize {
        let (own, opp) = (colour.byte(), colour.other().byte());
        let mut at = index as isize + step;
        let mut count = 0;
        while self.cells[at as usize] == opp {
            at += step;
            count += 1;
        }
        if self.cells[at as usize] == own {
            count
        } else {
            0
        }
    }

    /// True when `colour` may play on `index` (an empty cell that flanks a disc).
    pub fn is_legal(&self, index: usize, colour: Colour) -> bool {
        self.cells[index] == EMPTY
            && self
                .directions()
                .iter()
                .any(|&d| self.run(index, d, colour) > 0)
    }

    /// The legal moves of `colour`, as padded indices in row-major order.
    pub fn moves(&self, colour: Colour) -> Vec<usize> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let index = self.index(x, y);
                if self.is_legal(index, colour) {
                    out.push(index);
                }
            }
        }
        out
    }

    /// The number of legal moves of `colour`.
    pub fn count_moves(&self, colour: Colour) -> usize {
        self.indices().filter(|&i| self.is_legal(i, colour)).count()
    }

    /// True when `colour` has a legal move.
    pub fn can_move(&self, colour: Colour) -> bool {
        (0..self.height).any(|y| (0..self.width).any(|x| self.is_legal(self.index(x, y), colour)))
    }

    /// Plays the legal move `index` for `colour` and pushes the flipped cells on
    /// `flipped` (for [`Grid::undo`]); returns how many were flipped.
    pub fn play(&mut self, index: usize, colour: Colour, flipped: &mut Vec<usize>) -> usize {
        let own = colour.byte();
        let mut total = 0;
        for step in self.directions() {
            let count = self.run(index, step, colour);
            let mut at = index as isize;
            for _ in 0..count {
                at += step;
                self.cells[at as usize] = own;
                flipped.push(at as usize);
            }
            total += count;
        }
        debug_assert!(total > 0, "illegal move");
        self.cells[index] = own;
        total
    }

    /// Takes back a move on `index` that flipped the last `count` cells of `flipped`.
    pub fn undo(&mut self, index: usize, count: usize, flipped: &mut Vec<usize>) {
        let Some(&first) = flipped.get(flipped.len() - count) else {
            return;
        };
        let opp = if self.cells[first] == BLACK {
            WHITE
        } else {
            BLACK
        };
        for at in flipped.drain(flipped.len() - count..) {
            self.cells[at] = opp;
        }
        self.cells[index] = EMPTY;
    }

    /// Discs of each colour: (black, white).
    pub fn counts(&self) -> (usize, usize) {
        let black = self.cells.iter().filter(|&&c| c == BLACK).count();
        let white = self.cells.iter().filter(|&&c| c == WHITE).count();
        (black, white)
    }

    /// The number of playable empty cells.
    pub fn empties(&self) -> usize {
        self.cells.iter().filter(|&&c| c == EMPTY).count()
    }

    /// The raw byte of a padded index: empty, wall, or a disc (for evaluations).
    pub(crate) fn disc_at(&self, index: usize) -> Option<Colour> {
        match self.cells[index] {
            BLACK => Some(Colour::Black),
            WHITE => Some(Colour::White),
            _ => None,
        }
    }

    /// True when a padded index is a wall (the frame or a blocked cell).
    pub(crate) fn is_wall(&self, index: usize) -> bool {
        self.cells[index] == WALL
    }

    /// Every padded index of a board cell, row-major.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| self.index(x, y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_cell_breaks_a_line() {
        // Row: B W E W -  : black cannot play on the right end through the blocked cell.
        let mut grid = Grid::new(5, 1);
        grid.set(0, 0, Cell::Disc(Colour::Black));
        grid.set(1, 0, Cell::Disc(Colour::White));
        grid.set(2, 0, Cell::Blocked);
        grid.set(3, 0, Cell::Disc(Colour::White));
        assert!(grid.moves(Colour::Black).is_empty());
        grid.set(2, 0, Cell::Empty);
        assert_eq!(grid.moves(Colour::Black), vec![grid.index(2, 0)]);
    }

    #[test]
    fn play_and_undo_restore_the_board() {
        let mut grid = Grid::new(4, 4);
        grid.set(1, 1, Cell::Disc(Colour::White));
        grid.set(2, 2, Cell::Disc(Colour::White));
        grid.set(2, 1, Cell::Disc(Colour::Black));
        grid.set(1, 2, Cell::Disc(Colour::Black));
        let before = grid.clone();
        let mut flipped = Vec::new();
        for index in grid.clone().moves(Colour::Black) {
            let count = grid.play(index, Colour::Black, &mut flipped);
            assert_eq!(count, 1);
            grid.undo(index, count, &mut flipped);
            assert_eq!(grid, before);
        }
        assert_eq!(grid.coords(grid.index(3, 2)), (3, 2));
    }
}
