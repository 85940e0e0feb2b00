//! The engine for boards of any shape ([`Grid`]): iterative-deepening alpha-beta with
//! a static weight per cell derived from the board's shape, mobility, and exact
//! scores once the search reaches the end of the game. A plain 8x8 board without
//! blocked cells goes to the bitboard [`Engine`] instead.

use std::time::Instant;

use super::fixed::{best_move, Strength};
use super::{offer, Engine, Offer};
use crate::board::{Board, Square};
use crate::shaped_board::{Cell, Colour, Grid};

/// One disc of final margin; finished games also get [`WIN`] so that any sure win
/// outranks any heuristic score.
const DISC: i32 = 1_000;
const WIN: i32 = 1_000_000;

/// The clock is read once every `CHECK_CELLS / cells` nodes (at least every node): a
/// node costs a few scans of the whole board, so this keeps the time between two
/// readings near that of a few thousand cell visits whatever the board's size.
const CHECK_CELLS: u64 = 1024;

/// What [`think_grid`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridThought {
    /// The move (x, y), 0-based from the top-left; `None` when there is none (skip).
    pub best: Option<(usize, usize)>,
    /// The deepest search completed, in plies.
    pub depth: u32,
    /// The search reached the end of the game on every line.
    pub solved: bool,
    /// Positions visited.
    pub nodes: u64,
}

/// Chooses a move for `colour` on `grid`, returning by `deadline` (give or take a few
/// hundred positions' work). Always legal when a move exists.
pub fn think_grid(grid: &Grid, colour: Colour, deadline: Instant) -> GridThought {
    if let Some(board) = as_bitboard(grid, colour) {
        let budget = deadline.saturating_duration_since(Instant::now());
        let thought = Engine::for_time(budget).think(board, deadline);
        return GridThought {
            best: thought.best.map(|s| (s.col() as usize, s.row() as usize)),
            depth: thought.depth,
            solved: thought.solved,
            nodes: thought.nodes,
        };
    }
    search(grid, colour, Some(deadline), grid.empties() as u32)
}

/// Chooses a move for `colour` on `grid` at a fixed strength, with no clock: the
/// same move on every machine and at every load (the referee's `engine:depth=N` on a
/// board of any shape). A plain 8x8 board goes to [`best_move`] as the 8x8 reference
/// plays it; any other searches `strength.depth` plies, to the end of the game from
/// `strength.exact_empties` empty cells.
pub fn grid_at_strength(grid: &Grid, colour: Colour, strength: Strength) -> Option<(usize, usize)> {
    if let Some(board) = as_bitboard(grid, colour) {
        let (best, _) = best_move(board, strength);
        return best.map(|s| (s.col() as usize, s.row() as usize));
    }
    let empties = grid.empties() as u32;
    let depth = if empties <= strength.exact_empties {
        empties
    } else {
        strength.depth
    };
    search(grid, colour, None, depth).best
}

/// Iterative deepening to `max_depth` plies (at least 1), or until `deadline`.
fn search(grid: &Grid, colour: Colour, deadline: Option<Instant>, max_depth: u32) -> GridThought {
    let mut searcher = GridSearcher {
        weights: cell_weights(grid),
        grid: grid.clone(),
        flipped: Vec::new(),
        deadline,
        nodes: 0,
        check_interval: (CHECK_CELLS / (grid.width() * grid.height()) as u64).max(1),
        stopped: false,
        exact: true,
    };
    let mut order = grid.moves(colour);
    let mut thought = GridThought {
        best: order.first().map(|&i| grid.coords(i)),
        depth: 0,
        solved: false,
        nodes: 0,
    };
    if order.len() <= 1 {
        return thought;
    }
    order.sort_by_key(|&i| std::cmp::Reverse(searcher.weights[i]));
    thought.best = Some(grid.coords(order[0]));
    for depth in 1..=max_depth.max(1) {
        let mut alpha = -i32::MAX;
        let mut best: Option<usize> = None;
        searcher.exact = true;
        for (k, &index) in order.iter().enumerate() {
            let value = searcher.after_move(index, colour, depth - 1, alpha);
            if searcher.stopped {
                break;
            }
            if best.is_none() || value > alpha {
                alpha = value;
                best = Some(k);
            }
        }
        if let Some(k) = best {
            // The previous best came first, so any move that beat it was searched
            // completely: it stands even when the iteration was cut short.
            order[..=k].rotate_right(1);
            thought.best = Some(grid.coords(order[0]));
        }
        if searcher.stopped {
            break;
        }
        thought.depth = depth;
        if searcher.exact {
            thought.solved = true;
            break;
        }
    }
    thought.nodes = searcher.nodes;
    thought
}

/// The same position as a bitboard, when the board is a plain 8x8 one.
fn as_bitboard(grid: &Grid, colour: Colour) -> Option<Board> {
    if grid.width() != 8 || grid.height() != 8 {
        return None;
    }
    let mut board = Board::default();
    for y in 0..8 {
        for x in 0..8 {
            let bit = Square::new(y as u8, x as u8).bit();
            match grid.get(x, y) {
                Cell::Blocked => return None,
                Cell::Empty => {}
                Cell::Disc(c) if c == colour => board.own |= bit,
                Cell::Disc(_) => board.opp |= bit,
            }
        }
    }
    Some(board)
}

/// A static value per cell from the board's shape: a cell walled in on every axis (a
/// corner, also one made by blocked cells) can never be flipped and is worth most;
/// walled on three axes (an edge) a little; a cell next to an empty corner-like cell
/// hands it to the opponent and is worth less.
fn cell_weights(grid: &Grid) -> Vec<i32> {
    let mut weights = vec![0; grid.padded_len()];
    let directions = grid.directions();
    let walled_axes = |i: usize| {
        (0..4)
            .filter(|&a| {
                let (back, forth) = (directions[a], directions[7 - a]);
                grid.is_wall((i as isize + back) as usize)
                    || grid.is_wall((i as isize + forth) as usize)
            })
            .count()
    };
    let mut corners = Vec::new();
    for i in grid.indices() {
        let axes = walled_axes(i);
        weights[i] = match axes {
            4 => 60,
            3 => 6,
            _ => 1,
        };
        if axes == 4 {
            corners.push(i);
        }
    }
    for &corner in &corners {
        for d in directions {
            let next = (corner as isize + d) as usize;
            if !grid.is_wall(next) && walled_axes(next) < 4 {
                weights[next] -= 12;
            }
        }
    }
    weights
}

struct GridSearcher {
    grid: Grid,
    weights: Vec<i32>,
    flipped: Vec<usize>,
    /// None: no clock, the search ends at its depth.
    deadline: Option<Instant>,
    nodes: u64,
    check_interval: u64,
    stopped: bool,
    /// No leaf of the last search was cut off by depth: its values are exact.
    exact: bool,
}

impl GridSearcher {
    /// The value for `colour` of playing `index`, searched `depth` more plies; a value
    /// not above `alpha` may be only a bound.
    fn after_move(&mut self, index: usize, colour: Colour, depth: u32, alpha: i32) -> i32 {
        let count = self.grid.play(index, colour, &mut self.flipped);
        let value = -self.negamax(colour.other(), depth, -i32::MAX, -alpha);
        self.grid.undo(index, count, &mut self.flipped);
        value
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(self.check_interval)
            && self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn final_score(&self, colour: Colour) -> i32 {
        let (black, white) = self.grid.counts();
        let margin = match colour {
            Colour::Black => black as i32 - white as i32,
            Colour::White => white as i32 - black as i32,
        };
        margin * DISC + margin.signum() * WIN
    }

    fn evaluate(&self, colour: Colour) -> i32 {
        let mut material = 0;
        for i in self.grid.indices() {
            match self.grid.disc_at(i) {
                Some(c) if c == colour => material += self.weights[i],
                Some(_) => material -= self.weights[i],
                None => {}
            }
        }
        let mobility =
            self.grid.count_moves(colour) as i32 - self.grid.count_moves(colour.other()) as i32;
        material * 10 + mobility * 40
    }

    fn negamax(&mut self, colour: Colour, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        let mut moves = self.grid.moves(colour);
        if moves.is_empty() {
            if !self.grid.can_move(colour.other()) {
                return self.final_score(colour);
            }
            return -self.negamax(colour.other(), depth, -beta, -alpha);
        }
        if depth == 0 {
            self.exact = false;
            return self.evaluate(colour);
        }
        if depth >= 2 {
            moves.sort_by_key(|&i| std::cmp::Reverse(self.weights[i]));
        }
        let mut best = -i32::MAX;
        for index in moves {
            let count = self.grid.play(index, colour, &mut self.flipped);
            let value = -self.negamax(colour.other(), depth - 1, -beta, -alpha);
            self.grid.undo(index, count, &mut self.flipped);
            if self.stopped {
                return 0;
            }
            if offer(value, &mut best, &mut alpha, beta) == Offer::Cutoff {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_weigh_most_and_their_neighbours_least() {
        let grid = Grid::new(5, 4);
        let w = cell_weights(&grid);
        assert_eq!(w[grid.index(0, 0)], 60);
        assert_eq!(w[grid.index(1, 1)], 1 - 12);
        assert_eq!(w[grid.index(2, 0)], 6);
        assert_eq!(w[grid.index(2, 2)], 1);
    }

    #[test]
    fn a_fixed_strength_is_legal_and_the_same_every_time() {
        let mut grid = Grid::new(6, 5);
        grid.set(2, 2, Cell::Disc(Colour::White));
        grid.set(3, 2, Cell::Disc(Colour::Black));
        grid.set(2, 1, Cell::Disc(Colour::Black));
        grid.set(3, 1, Cell::Disc(Colour::White));
        grid.set(0, 0, Cell::Blocked);
        for depth in 1..=4 {
            let strength = Strength::plies(depth);
            let (x, y) = grid_at_strength(&grid, Colour::Black, strength).unwrap();
            assert!(
                grid.is_legal(grid.index(x, y), Colour::Black),
                "depth {depth}"
            );
            assert_eq!(
                grid_at_strength(&grid, Colour::Black, strength),
                Some((x, y))
            );
        }
        let mut stuck = Grid::new(4, 1);
        stuck.set(0, 0, Cell::Disc(Colour::Black));
        assert_eq!(
            grid_at_strength(&stuck, Colour::White, Strength::plies(2)),
            None
        );
    }
}
