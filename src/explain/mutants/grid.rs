//! The board as a student writes it: an 8x8 array of cell characters, moves found by
//! walking the 8 directions from every empty cell, flips by walking them again. Slow
//! and plain on purpose: every fault of the catalogue that lives in the rules (a
//! direction's flips overwriting the others, a move listed once per direction, a
//! child per direction turning one line, a square the loops never reach) is one `if`
//! here, away from the bitboards.

use crate::eval::CS561_WEIGHTS;

/// An empty cell.
pub(super) const EMPTY: u8 = b'*';

/// The symbol of a player that matches no cell: what a program compares the cells
/// with after reading the player line with its CR (`"X\r"`).
pub(super) const NOBODY: u8 = 0;

/// The 8 directions as (row step, column step), in the order most programs list
/// them: up-left, up, up-right, left, right, down-left, down, down-right.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A cell: 0-based row (0 = the board's top line, row `1` in names) and column
/// (0 = column `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cell {
    /// 0-based line from the top.
    pub row: usize,
    /// 0-based column from the left.
    pub col: usize,
}

/// The rules as one program implements them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Rules {
    /// Cells tried column by column (a1, a2, ..., a8, b1, ...) instead of row by row.
    pub column_major: bool,
    /// A move listed once for every direction in which it brackets discs.
    pub move_per_direction: bool,
    /// A move that brackets discs in several directions is several moves, one per
    /// direction, each turning that direction's discs only; a cell's moves come in
    /// the row-major order of the discs that bracket them (the program walks out from
    /// each of the mover's discs in turn).
    pub child_per_direction: bool,
    /// The square a1 is never tried.
    pub skip_a1: bool,
    /// No square of column a is ever tried.
    pub skip_column_a: bool,
    /// A move turns only the discs of the last direction (in [`DIRECTIONS`] order)
    /// that brackets any: each direction's flips overwrite the previous ones.
    pub last_direction_only: bool,
}

/// A move as the program makes it: the cell played and, when the program makes one
/// child per direction ([`Rules::child_per_direction`]), the one direction (an index
/// into [`DIRECTIONS`]) whose discs it turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Move {
    /// The cell played.
    pub cell: Cell,
    /// The only direction turned, `None` for every direction the rules turn.
    pub line: Option<usize>,
}

/// 8 rows of 8 cell characters: `*`, `X`, `O`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Grid {
    /// The cells, row 1 first.
    pub cells: [[u8; 8]; 8],
}

impl Grid {
    /// The grid of `x_discs` and `o_discs` (bit `row * 8 + col`).
    pub fn from_discs(x_discs: u64, o_discs: u64) -> Grid {
        let mut cells = [[EMPTY; 8]; 8];
        for (row, line) in cells.iter_mut().enumerate() {
            for (col, cell) in line.iter_mut().enumerate() {
                let bit = 1u64 << (row * 8 + col);
                if x_discs & bit != 0 {
                    *cell = b'X';
                } else if o_discs & bit != 0 {
                    *cell = b'O';
                }
            }
        }
        Grid { cells }
    }

    fn get(&self, row: i32, col: i32) -> Option<u8> {
        let inside = (0..8).contains(&row) && (0..8).contains(&col);
        inside.then(|| self.cells[row as usize][col as usize])
    }

    /// How many discs of `them` `me` turns in direction `(dr, dc)` by playing on
    /// `cell`: the length of the run of `them` discs that ends on a disc of `me`, or 0.
    fn run(&self, cell: Cell, (dr, dc): (i32, i32), me: u8, them: u8) -> usize {
        let (mut row, mut col) = (cell.row as i32 + dr, cell.col as i32 + dc);
        let mut length = 0;
        while self.get(row, col) == Some(them) {
            row += dr;
            col += dc;
            length += 1;
        }
        if self.get(row, col) == Some(me) {
            length
        } else {
            0
        }
    }

    /// The moves of `me` against `them`, in the order the program tries them (a cell
    /// may come more than once under [`Rules::move_per_direction`] and
    /// [`Rules::child_per_direction`]).
    pub fn moves(&self, me: u8, them: u8, rules: Rules) -> Vec<Move> {
        let mut moves = Vec::new();
        for index in 0..64 {
            let (row, col) = if rules.column_major {
                (index % 8, index / 8)
            } else {
                (index / 8, index % 8)
            };
            let cell = Cell { row, col };
            let skipped =
                (rules.skip_a1 && row == 0 && col == 0) || (rules.skip_column_a && col == 0);
            if skipped || self.cells[row][col] != EMPTY {
                continue;
            }
            // Each bracketing direction with the row-major index of its far disc.
            let mut lines: Vec<(i32, usize)> = DIRECTIONS
                .iter()
                .enumerate()
                .filter_map(|(d, &(dr, dc))| {
                    let length = self.run(cell, (dr, dc), me, them) as i32;
                    let far = (row as i32 + dr * (length + 1)) * 8 + col as i32 + dc * (length + 1);
                    (length > 0).then_some((far, d))
                })
                .collect();
            if lines.is_empty() {
                continue;
            }
            if rules.child_per_direction {
                lines.sort_unstable();
                moves.extend(lines.iter().map(|&(_, d)| Move {
                    cell,
                    line: Some(d),
                }));
            } else {
                let times = if rules.move_per_direction {
                    lines.len()
                } else {
                    1
                };
                moves.extend(std::iter::repeat_n(Move { cell, line: None }, times));
            }
        }
        moves
    }

    /// The grid after `me` makes `the_move`, turning discs direction by direction as
    /// the rules say.
    pub fn play(&self, the_move: Move, me: u8, them: u8, rules: Rules) -> Grid {
        let cell = the_move.cell;
        let mut next = *self;
        next.cells[cell.row][cell.col] = me;
        let runs = DIRECTIONS.map(|direction| (direction, self.run(cell, direction, me, them)));
        let last = runs.iter().rposition(|&(_, length)| length > 0);
        for (i, &((dr, dc), length)) in runs.iter().enumerate() {
            let turned = match the_move.line {
                Some(line) => i == line,
                None => !rules.last_direction_only || Some(i) == last,
            };
            if !turned {
                continue;
            }
            for step in 1..=length as i32 {
                let (row, col) = (cell.row as i32 + dr * step, cell.col as i32 + dc * step);
                next.cells[row as usize][col as usize] = me;
            }
        }
        next
    }

    /// How many cells hold `symbol`.
    pub fn count(&self, symbol: u8) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c == symbol)
            .count()
    }

    /// E: the weights under `max`'s discs minus those under `min`'s.
    pub fn score(&self, max: u8, min: u8) -> i32 {
        let mut total = 0;
        for (row, line) in self.cells.iter().enumerate() {
            for (col, &cell) in line.iter().enumerate() {
                let weight = CS561_WEIGHTS[row][col];
                if cell == max {
                    total += weight;
                } else if cell == min {
                    total -= weight;
                }
            }
        }
        total
    }
}
