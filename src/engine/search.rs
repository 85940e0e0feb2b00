//! The engine's searches: a heuristic principal-variation search (negamax alpha-beta
//! with null-window probes of the later moves) and an exact end-of-game solver
//! ([`endgame`]), both sharing one transposition table and one deadline.
//!
//! Both work in the evaluation's units: a finished game scores
//! [`final_score`], so the solver's results can be stored in the same table and serve
//! heuristic probes too.

use std::time::Instant;

mod endgame;
mod parallel;

use super::table::{Bound, Entry, Table};
use super::{last_empties, offer, Offer};
use crate::board::{Board, Square, Squares, CORNERS};
use crate::eval::othello::{final_score, neighbours};
use crate::eval::pattern::{layout, Features, Layout, Weights, LIMIT};
pub use endgame::END_CUT_SIGMAS;
use endgame::ETC_EMPTIES;
pub(super) use parallel::Parallel;

/// Larger than every score.
pub const INFINITE: i32 = 1 << 24;

/// ProbCut applies from this depth on.
const PROBCUT_MIN_DEPTH: i32 = 3;

/// ProbCut's deepest depth with its own spreads; deeper searches use its spreads.
const PROBCUT_DEEPEST: i32 = 11;

/// The standard deviation, in evaluation units, of the difference between a search of
/// depth 3..=11 (the column) and ProbCut's shallow search of it, by stage of the
/// position (the row: 45 or more empty cells, 37-44, 29-36, 28 or fewer). Measured
/// with the weights committed then (cf39a65), without ProbCut, on 280 positions of the
/// engine's games against Zebra (8 for each count of empty cells from 20 to 54),
/// each row then scaled by the sixth generation's spreads over the fifth's
/// (`scripts/strength.sh margins`, 560 positions: x1.01, x1.05, x1.05, x1.02). The
/// deep value follows the shallow one with a slope of 0.84-1.08, so the margin alone
/// carries the prediction. The margin is one of these ([`PROBCUT_MARGIN_PERCENT`]):
/// the committed (seventh) generation's spreads (560 positions of the 2 s games) are
/// 1/1.32, 1/1.77, 1/1.23 and 1/1.36 of the rows as measured, so the row of 37-44
/// empty cells is scaled by 0.75, to 1/1.33 like the others (its effect on play:
/// docs/engine.md, Strength).
const PROBCUT_SIGMA: [[i32; 9]; 4] = [
    [243, 185, 201, 228, 208, 160, 132, 171, 150],
    [223, 192, 180, 256, 259, 237, 184, 280, 226],
    [320, 242, 194, 313, 300, 282, 276, 320, 268],
    [409, 311, 294, 430, 344, 376, 367, 438, 366],
];

/// ProbCut's margin, in percent of [`PROBCUT_SIGMA`]: 100 rather than 150 reaches 18
/// plies three times as fast and scores more against Zebra at 0.5 s and 2 s a move
/// (docs/engine.md, Search and Strength).
const PROBCUT_MARGIN_PERCENT: i32 = 100;

/// ProbCut's margin in `engine solve`'s searches (the 11-ply deepening and the
/// solver's ordering searches): with 100, FFO #40-#49 need 768.1M nodes rather than
/// 718.3M.
const SOLVER_PROBCUT_MARGIN_PERCENT: i32 = 150;

/// Nodes with at least this many plies left order their moves by the evaluation of
/// each child ([`Searcher::ordered_by_evaluation`]); shallower ones by a cheap guess.
const EVALUATED_ORDER_DEPTH: i32 = 4;

/// How deep the heuristic search searches each child of a node with `depth` plies
/// left (at least [`EVALUATED_ORDER_DEPTH`]) to order its moves: not at all (the
/// child's evaluation) below 6 plies, 1 ply below 10, 2 plies from there. With the
/// 2-ply order from 10 plies, `engine speed --depth 16` needs 12% fewer nodes.
fn heuristic_order_plies(depth: i32) -> i32 {
    match depth {
        ..=5 => 0,
        6..=9 => 1,
        _ => 2,
    }
}

/// In the evaluated order, the malus per move a child leaves the opponent, in
/// evaluation units (a disc is 100).
const ORDER_REPLY_WEIGHT: i32 = 60;

/// ProbCut is tried only with bounds well inside the heuristic range on the side
/// they are tested from, and never with a bound among the scores of finished games
/// (beyond the evaluation's [`LIMIT`]): a heuristic value is above every loss and
/// below every win, so it would say "cut" there whatever the game's end.
const PROBCUT_LIMIT: i32 = 3_000;

/// The clock is read once every this many nodes.
const CHECK_INTERVAL: u64 = 1024;

/// A rough static value per cell for ordering moves: corners first, the cells next
/// to a corner last.
const ORDER_WEIGHTS: [i32; 64] = {
    const ROWS: [[i32; 8]; 4] = [
        [100, -20, 10, 5, 5, 10, -20, 100],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [10, -2, 1, 1, 1, 1, -2, 10],
        [5, -2, 1, 0, 0, 1, -2, 5],
    ];
    let mut out = [0; 64];
    let mut cell = 0;
    while cell < 64 {
        let (r, c) = (cell / 8, cell % 8);
        out[cell] = ROWS[if r < 4 { r } else { 7 - r }][c];
        cell += 1;
    }
    out
};

/// The cells next to a corner (b1, a2, b2 and their images): the worst moves, as a
/// rule, while the corner is empty.
const CORNER_NEIGHBOURS: u64 = neighbours(CORNERS);

/// `moves` in a free rough order: corners, then the other cells but those next to a
/// corner, then those.
fn by_cell_class(moves: u64) -> impl Iterator<Item = Square> {
    [
        moves & CORNERS,
        moves & !CORNERS & !CORNER_NEIGHBOURS,
        moves & CORNER_NEIGHBOURS,
    ]
    .into_iter()
    .flat_map(Squares)
}

/// Moves of one node with their ordering scores, best first once sorted.
struct MoveList {
    moves: [(i32, Square); 64],
    len: usize,
}

impl MoveList {
    /// No moves yet.
    fn empty() -> MoveList {
        MoveList {
            moves: [(0, Square::from_index(0)); 64],
            len: 0,
        }
    }

    /// Adds `square` with its ordering `score`.
    fn push(&mut self, score: i32, square: Square) {
        self.moves[self.len] = (score, square);
        self.len += 1;
    }

    /// Sorts best (highest score) first, ties in the order they were added.
    fn sort(&mut self) {
        self.moves[..self.len].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    /// `moves` ordered by few replies for the opponent and by cell weight; in
    /// [`by_cell_class`] order when `sort` is false.
    fn new(board: Board, moves: u64, sort: bool, table: &Table) -> MoveList {
        let mut list = MoveList::empty();
        for square in by_cell_class(moves) {
            let score = if sort {
                let child = board.play(square);
                table.prefetch(child);
                let replies = child.moves().count_ones() as i32;
                ORDER_WEIGHTS[square.index() as usize] - 16 * replies
            } else {
                0
            };
            list.push(score, square);
        }
        if sort {
            list.sort();
        }
        list
    }

    fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.moves[..self.len].iter().map(|&(_, square)| square)
    }
}

/// The state of one timed search.
pub struct Searcher<'a> {
    table: &'a Table,
    weights: &'a Weights,
    layout: &'static Layout,
    deadline: Instant,
    /// Nodes visited so far.
    pub nodes: u64,
    /// The node count at which the clock is read next.
    next_check: u64,
    /// The search stops once it has counted this many nodes
    /// ([`Searcher::with_node_limit`]).
    node_limit: u64,
    /// Set once the deadline has passed: every value computed after is meaningless.
    pub stopped: bool,
    /// ProbCut's margin in percent of [`PROBCUT_SIGMA`]; `None`: the heuristic search
    /// does not prune by ProbCut.
    probcut_margin_percent: Option<i32>,
    /// The level ([`END_CUT_SIGMAS`]) of the selective endgame search; `None`: the
    /// exact solver.
    pub(super) end_cut: Option<usize>,
    /// The exact solver's [`ETC_EMPTIES`].
    etc_empties: u32,
    /// The bounds of the solver's last empty cells.
    local: Box<last_empties::LocalTable>,
    /// Where the search splits among threads, and what else stops it.
    pub(super) parallel: Parallel<'a>,
}

/// What a root search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootResult {
    /// The best move found.
    pub best: Square,
    /// Its value (exact when `complete`, else at least a lower bound of the best).
    pub value: i32,
    /// Every root move was searched before the deadline.
    pub complete: bool,
}

/// How deep a root search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// A heuristic search this many plies deep.
    Plies(i32),
    /// To the end of the game, exactly.
    End,
}

impl<'a> Searcher<'a> {
    /// A search that stops at `deadline`, sharing `table` (which must hold only
    /// results found with the same `weights`, and which only this search and its
    /// helpers on other threads use meanwhile), evaluating by `weights`.
    pub fn new(table: &'a mut Table, weights: &'a Weights, deadline: Instant) -> Searcher<'a> {
        Searcher {
            table,
            weights,
            layout: layout(),
            deadline,
            nodes: 0,
            next_check: CHECK_INTERVAL,
            node_limit: u64::MAX,
            stopped: false,
            probcut_margin_percent: Some(PROBCUT_MARGIN_PERCENT),
            end_cut: None,
            etc_empties: ETC_EMPTIES,
            local: Box::new(last_empties::LocalTable::new()),
            parallel: Parallel::serial(),
        }
    }

    /// A fresh search with the same table, evaluation, deadline and settings, for a
    /// helper thread, split as `parallel` says; it reads the clock at its first node
    /// (so that, past the deadline, the moves still waiting for a thread cost little).
    pub(super) fn helper<'b>(&self, parallel: Parallel<'b>) -> Searcher<'b>
    where
        'a: 'b,
    {
        Searcher {
            nodes: 0,
            next_check: 1,
            stopped: false,
            local: Box::new(last_empties::LocalTable::new()),
            parallel,
            ..*self
        }
    }

    /// The same search without ProbCut: every value is that of the full tree.
    pub fn without_probcut(mut self) -> Searcher<'a> {
        self.probcut_margin_percent = None;
        self
    }

    /// The same search stopping, as at its deadline, once it has counted `nodes`
    /// nodes: on one thread the same nodes in the same order on every machine, so a
    /// result found within the budget does not depend on the machine or its load.
    /// The count can pass `nodes` by the nodes of one solve of the last empty cells
    /// (counted without a check) and one node per level the search unwinds.
    pub fn with_node_limit(mut self, nodes: u64) -> Searcher<'a> {
        self.node_limit = nodes;
        self.next_check = self.next_check.min(nodes);
        self
    }

    /// The same search with ProbCut's margins of `engine solve`
    /// ([`SOLVER_PROBCUT_MARGIN_PERCENT`]).
    pub fn with_solver_margins(mut self) -> Searcher<'a> {
        self.probcut_margin_percent = self
            .probcut_margin_percent
            .map(|_| SOLVER_PROBCUT_MARGIN_PERCENT);
        self
    }

    /// The same search with the exact solver's transposition cutoff from `empties`
    /// empty cells, so that tests reach it in positions small enough to check.
    #[cfg(test)]
    pub(super) fn with_etc_from(mut self, empties: u32) -> Searcher<'a> {
        self.etc_empties = empties;
        self
    }

    /// Counts a node; true once the deadline has passed or the node limit is reached
    /// (or, in a helper thread, once
    /// a split point above has a cutoff: [`Parallel::aborted`]). The clock is read once
    /// [`CHECK_INTERVAL`] nodes have been counted since it last was, those of the
    /// last empty cells (which [`last_empties`] counts, without the clock) included.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = (self.nodes + CHECK_INTERVAL).min(self.node_limit);
            self.stopped = self.nodes >= self.node_limit
                || Instant::now() >= self.deadline
                || self.parallel.aborted();
        }
        self.stopped
    }

    /// Searches the root moves in `order` (which it reorders, best first). `None` when
    /// the deadline passed before the first move was searched; a partial result names
    /// the best of the moves searched, the previous best (first in `order`) among them.
    pub fn root(&mut self, board: Board, depth: Depth, order: &mut [Square]) -> Option<RootResult> {
        self.root_within(board, depth, order, -INFINITE, INFINITE)
    }

    /// Like [`Searcher::root`] within the window `low`..`high`: a value at or below
    /// `low` is only an upper bound, and the search stops at the first move whose value
    /// reaches `high` (with the window -1..1 around a draw: the first winning move).
    pub fn root_within(
        &mut self,
        board: Board,
        depth: Depth,
        order: &mut [Square],
        low: i32,
        high: i32,
    ) -> Option<RootResult> {
        let empties = (!(board.own | board.opp)).count_ones();
        let features = self.layout.features(board);
        let mut alpha = low;
        let mut best: Option<(usize, i32)> = None;
        for (i, &square) in order.iter().enumerate() {
            let flips = board.flips(square);
            let child = board.play_flipping(square, flips);
            let child_features = self.layout.play(&features, square.index(), flips);
            let probe = |s: &mut Self, lo: i32, hi: i32| match depth {
                Depth::Plies(d) => -s.heuristic(child, &child_features, d - 1, -hi, -lo),
                Depth::End => -s.endgame(child, empties - 1, -hi, -lo),
            };
            let value = if best.is_none() {
                probe(self, alpha, high)
            } else {
                let value = probe(self, alpha, alpha + 1);
                if value > alpha && value < high && !self.stopped {
                    probe(self, alpha, high)
                } else {
                    value
                }
            };
            if self.stopped {
                break;
            }
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((i, value));
                alpha = alpha.max(value);
            }
            if alpha >= high {
                break;
            }
        }
        let (index, value) = best?;
        order[..=index].rotate_right(1);
        Some(RootResult {
            best: order[0],
            value,
            complete: !self.stopped,
        })
    }

    /// The heuristic value of `board` for the side to move, `depth` plies deep (a pass
    /// costs no ply), within the window `alpha`..`beta`.
    pub fn midgame(&mut self, board: Board, depth: i32, alpha: i32, beta: i32) -> i32 {
        let features = self.layout.features(board);
        self.heuristic(board, &features, depth, alpha, beta)
    }

    /// [`Searcher::midgame`] with the evaluation's features of `board` known.
    fn heuristic(
        &mut self,
        board: Board,
        features: &Features,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                let (own, opp) = board.counts();
                return final_score(own, opp);
            }
            return -self.heuristic(passed, &features.pass(), depth, -beta, -alpha);
        }
        if depth <= 0 {
            return self
                .weights
                .evaluate_features(board, features, moves.count_ones());
        }
        let mut first = None;
        if let Some(entry) = self.table.probe(board) {
            first = entry.best;
            if let Some(value) = entry.answer(depth as u8, &mut alpha, &mut beta) {
                return value;
            }
        }
        if depth == 1 {
            return self.above_leaves(board, features, moves, first, alpha, beta);
        }
        if depth >= PROBCUT_MIN_DEPTH {
            if let Some(value) = self.probcut(board, features, moves, depth, alpha, beta) {
                return value;
            }
        }
        let Some((best, best_move)) = self.principal_variation(
            board,
            moves,
            first,
            alpha,
            beta,
            self.parallel.splits_heuristic(depth),
            |s, rest| {
                if depth >= EVALUATED_ORDER_DEPTH {
                    let plies = heuristic_order_plies(depth);
                    s.ordered_by_evaluation(board, features, rest, None, plies, ORDER_REPLY_WEIGHT)
                } else {
                    MoveList::new(board, rest, depth >= 3, s.table)
                }
            },
            |s, square, flips, child, lo, hi| {
                let child_features = s.layout.play(features, square.index(), flips);
                -s.heuristic(child, &child_features, depth - 1, -hi, -lo)
            },
        ) else {
            return 0;
        };
        self.remember(board, best, depth as u8, alpha, beta, best_move);
        best
    }

    /// The value of `board` (with `features` and legal `moves`) one ply above the
    /// cut-off, within `alpha`..`beta`, stored in the table: each child evaluated
    /// once, `first` (the table's move) first, then [`by_cell_class`]. A leaf's value
    /// does not depend on the window, so there is no null-window probe to repeat,
    /// and a child with a move is evaluated from its side to move's half of the
    /// features ([`Layout::child_view`]) rather than all of them.
    fn above_leaves(
        &mut self,
        board: Board,
        features: &Features,
        moves: u64,
        first: Option<Square>,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (mut best, mut best_move, mut raised) = (-INFINITE, None, alpha);
        let first_bit = first.map_or(0, |square| square.bit() & moves);
        for square in Squares(first_bit).chain(by_cell_class(moves & !first_bit)) {
            let flips = board.flips(square);
            let child = board.play_flipping(square, flips);
            let replies = child.moves();
            let value = if replies == 0 {
                // A pass or the end of the game: the general leaf.
                let child_features = self.layout.play(features, square.index(), flips);
                -self.heuristic(child, &child_features, 0, -beta, -raised)
            } else {
                self.tick();
                let view = self.layout.child_view(features, square.index(), flips);
                -self
                    .weights
                    .evaluate_view(child, &view, replies.count_ones())
            };
            if self.stopped {
                return 0;
            }
            let offered = offer(value, &mut best, &mut raised, beta);
            if offered != Offer::Worse {
                best_move = Some(square);
            }
            if offered == Offer::Cutoff {
                break;
            }
        }
        self.remember(board, best, 1, alpha, beta, best_move);
        best
    }

    /// `moves` of `board` (whose features are `features`) ordered: `first` (a table
    /// move) if legal, then by the value of each child for the mover, less
    /// `reply_weight` per move it leaves the opponent. The value is the
    /// child's evaluation when `plies` is 0, else that of a `plies`-deep search of it
    /// (which counts nodes and may meet the deadline, like any search).
    fn ordered_by_evaluation(
        &mut self,
        board: Board,
        features: &Features,
        moves: u64,
        first: Option<Square>,
        plies: i32,
        reply_weight: i32,
    ) -> MoveList {
        let mut list = MoveList::empty();
        for square in Squares(moves) {
            let score = if Some(square) == first {
                INFINITE
            } else {
                let flips = board.flips(square);
                let child = board.play_flipping(square, flips);
                if plies == 0 {
                    // Searched later, not now: its table entry is wanted then.
                    self.table.prefetch(child);
                }
                let replies = child.moves().count_ones() as i32;
                let child_features = self.layout.play(features, square.index(), flips);
                let child_value = if plies > 0 {
                    self.heuristic(child, &child_features, plies, -INFINITE, INFINITE)
                } else if replies == 0 {
                    0
                } else {
                    self.weights
                        .evaluate_features(child, &child_features, replies as u32)
                };
                -child_value - reply_weight * replies
            };
            list.push(score, square);
        }
        list.sort();
        list
    }

    /// ProbCut (Buro): a shallow search predicts the deep one, whose value differs
    /// from it by a spread measured for each depth; when the shallow value is far
    /// enough above `beta` (or below `alpha`) that the deep one is very likely there
    /// too, the bound is returned without the deep search. Only the side that the
    /// evaluation of `board` (with `features` and legal `moves`) leans to is tried:
    /// one shallow search per node rather than two (`engine speed --depth 16`: 17%
    /// fewer nodes). `None` also when the search has no ProbCut.
    fn probcut(
        &mut self,
        board: Board,
        features: &Features,
        moves: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let margin_percent = self.probcut_margin_percent?;
        let shallow = 2 * (depth / 4) + (depth & 1);
        let empties = (!(board.own | board.opp)).count_ones();
        let stage = match empties {
            45.. => 0,
            37..=44 => 1,
            29..=36 => 2,
            _ => 3,
        };
        let sigma = PROBCUT_SIGMA[stage][(depth.min(PROBCUT_DEEPEST) - PROBCUT_MIN_DEPTH) as usize];
        let margin = sigma * margin_percent / 100;
        // One side only, the one the position's evaluation leans to.
        let leans_high = self
            .weights
            .evaluate_features(board, features, moves.count_ones())
            >= (alpha + beta) / 2;
        let high = beta + margin;
        if leans_high && (-LIMIT..PROBCUT_LIMIT).contains(&high) {
            let value = self.heuristic(board, features, shallow, high - 1, high);
            if self.stopped {
                return Some(0);
            }
            if value >= high {
                return Some(beta);
            }
        }
        let low = alpha - margin;
        if !leans_high && (-PROBCUT_LIMIT..LIMIT).contains(&low) {
            let value = self.heuristic(board, features, shallow, low, low + 1);
            if self.stopped {
                return Some(0);
            }
            if value <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Principal-variation search over the children of `board` (its legal `moves`):
    /// `first` (the table's move) if legal, then the others in the order `order(self,
    /// others)` gives them, made only when `first` does not cut the node off (a table
    /// move usually does, and ordering by searches costs more than the move). The first
    /// searched has the window `alpha`..`beta`, the others a null window first and the
    /// full one again only if they beat `alpha`; when `split`, those after the first
    /// are shared among threads ([`parallel::search_rest`]).
    /// `child_value(self, square, flips, child, lo, hi)` is the value, for its side to
    /// move within `lo`..`hi`, of the child reached by playing `square` (turning
    /// `flips`). Returns the best value and move (fail-soft), or `None` when the
    /// deadline stopped the search.
    #[allow(clippy::too_many_arguments)]
    fn principal_variation(
        &mut self,
        board: Board,
        moves: u64,
        first: Option<Square>,
        mut alpha: i32,
        beta: i32,
        split: bool,
        order: impl FnOnce(&mut Searcher, u64) -> MoveList,
        child_value: impl Fn(&mut Searcher, Square, u64, Board, i32, i32) -> i32 + Sync,
    ) -> Option<(i32, Option<Square>)> {
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut others = moves;
        if let Some(square) = first.filter(|square| square.bit() & moves != 0) {
            let flips = board.flips(square);
            let child = board.play_flipping(square, flips);
            let value = child_value(self, square, flips, child, alpha, beta);
            if self.stopped {
                return None;
            }
            best_move = Some(square);
            others &= !square.bit();
            if offer(value, &mut best, &mut alpha, beta) == Offer::Cutoff || others == 0 {
                return Some((best, best_move));
            }
        }
        let list = order(self, others);
        if self.stopped {
            return None;
        }
        for (index, square) in list.squares().enumerate() {
            if split && best_move.is_some() && list.len - index >= 2 {
                let rest = list.squares().skip(index);
                return parallel::search_rest(
                    self,
                    board,
                    rest,
                    (best, best_move),
                    alpha,
                    beta,
                    &child_value,
                );
            }
            let flips = board.flips(square);
            let child = board.play_flipping(square, flips);
            let value = if best_move.is_none() {
                child_value(self, square, flips, child, alpha, beta)
            } else {
                let value = child_value(self, square, flips, child, alpha, alpha + 1);
                if value > alpha && value < beta && !self.stopped {
                    child_value(self, square, flips, child, alpha, beta)
                } else {
                    value
                }
            };
            if self.stopped {
                return None;
            }
            match offer(value, &mut best, &mut alpha, beta) {
                Offer::Worse => {}
                Offer::Best => best_move = Some(square),
                Offer::Cutoff => {
                    best_move = Some(square);
                    break;
                }
            }
        }
        Some((best, best_move))
    }

    fn remember(
        &mut self,
        board: Board,
        value: i32,
        depth: u8,
        alpha: i32,
        beta: i32,
        best: Option<Square>,
    ) {
        let bound = if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            board,
            Entry {
                value,
                depth,
                bound,
                best,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluated order holds each legal move once, the table's move first, then
    /// the others by the child's evaluation (or 1- or 2-ply search) for the mover less
    /// the replies' malus, best first; over positions along random games.
    #[test]
    fn the_evaluated_order_puts_the_table_move_first_then_the_best_looking() {
        let weights = crate::eval::pattern::embedded();
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let mut rng = crate::splitmix::SplitMix64::new(3);
        let mut checked = 0;
        for _ in 0..20 {
            let mut board = crate::board::Geometry::STANDARD.start();
            while let Some(next) = rng.step(board) {
                board = next;
                let moves = board.moves();
                if moves.count_ones() < 3 {
                    continue;
                }
                let first = Squares(moves).last();
                // Fresh tables: a search's fail-soft value may depend on what earlier
                // searches left in its table.
                let (mut table, mut other_table) = (Table::new(10), Table::new(10));
                let mut searcher = Searcher::new(&mut table, weights, far);
                let mut other = Searcher::new(&mut other_table, weights, far);
                let features = searcher.layout.features(board);
                // The heuristic search's two orders and the solver's deepest.
                let plies = checked % 3;
                let list = searcher.ordered_by_evaluation(
                    board,
                    &features,
                    moves,
                    first,
                    plies,
                    ORDER_REPLY_WEIGHT,
                );
                let order: Vec<Square> = list.squares().collect();
                assert_eq!(order[0], first.unwrap());
                let mut sorted: Vec<u8> = order.iter().map(|s| s.index()).collect();
                sorted.sort_unstable();
                let legal: Vec<u8> = Squares(moves).map(|s| s.index()).collect();
                assert_eq!(sorted, legal);
                for &(score, square) in &list.moves[1..list.len] {
                    let child = board.play(square);
                    let replies = child.moves().count_ones() as i32;
                    let value = if plies > 0 {
                        other.midgame(child, plies, -INFINITE, INFINITE)
                    } else if replies == 0 {
                        0
                    } else {
                        weights.evaluate(child)
                    };
                    assert_eq!(score, -value - ORDER_REPLY_WEIGHT * replies);
                }
                assert!(list.moves[1..list.len].windows(2).all(|w| w[0].0 >= w[1].0));
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// Plain negamax over the evaluation, every move, no window: what the heuristic
    /// search without ProbCut must find (a pass costs no ply).
    fn negamax(weights: &Weights, board: Board, depth: i32) -> i32 {
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                let (own, opp) = board.counts();
                return final_score(own, opp);
            }
            return -negamax(weights, passed, depth);
        }
        if depth == 0 {
            return weights.evaluate(board);
        }
        Squares(moves)
            .map(|square| -negamax(weights, board.play(square), depth - 1))
            .max()
            .expect("a move")
    }

    /// Without ProbCut the heuristic search is exact: its value with the full window
    /// equals plain negamax's, 1 to 4 plies deep, along random games (leaves above
    /// the cut-off's loop, passes, finished games and the table's cutoffs included);
    /// with a narrow window it bounds the value on the right side.
    #[test]
    fn without_probcut_the_search_finds_the_negamax_value() {
        let weights = crate::eval::pattern::embedded();
        let far = Instant::now() + std::time::Duration::from_secs(1 << 30);
        let mut rng = crate::splitmix::SplitMix64::new(11);
        let mut checked = 0;
        for _ in 0..6 {
            let mut board = crate::board::Geometry::STANDARD.start();
            while let Some(next) = rng.step(board) {
                board = next;
                // To 4 plies: the evaluated order, after the table's move.
                let depth = 1 + checked % 4;
                let expected = negamax(weights, board, depth);
                let mut table = Table::new(12);
                let mut searcher = Searcher::new(&mut table, weights, far).without_probcut();
                let value = searcher.midgame(board, depth, -INFINITE, INFINITE);
                assert_eq!(value, expected, "depth {depth}");
                let (low, high) = (expected - 50, expected + 50);
                let above = searcher.midgame(board, depth, high, high + 1);
                assert!(above <= high, "{above} above {high}");
                let below = searcher.midgame(board, depth, low - 1, low);
                assert!(below >= low, "{below} below {low}");
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
