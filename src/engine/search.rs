//! The engine's searches: a heuristic principal-variation search (negamax alpha-beta
//! with null-window probes of the later moves) and an exact end-of-game solver, both
//! sharing one transposition table and one deadline.
//!
//! Both work in the evaluation's units: a finished game scores
//! [`final_score`], so the solver's results can be stored in the same table and serve
//! heuristic probes too.

use std::time::Instant;

use super::parallel::{self, Parallel};
use super::table::{Bound, Entry, Table, TO_THE_END};
use super::{last_empties, offer, Offer};
use crate::board::{Board, Square, Squares, CORNERS};
use crate::eval::othello::{final_score, neighbours, DISC, WIN};
use crate::eval::pattern::{layout, Features, Layout, Weights};

/// Larger than every score.
pub const INFINITE: i32 = 1 << 24;

/// Positions with at most this many empty cells are solved without the transposition
/// table, evaluation or clock ([`last_empties`]).
const SHALLOW_SOLVE: u32 = last_empties::MOST_EMPTIES;

/// ProbCut applies from this depth on.
const PROBCUT_MIN_DEPTH: i32 = 3;

/// ProbCut's deepest depth with its own spreads; deeper searches use its spreads.
const PROBCUT_DEEPEST: i32 = 11;

/// The standard deviation, in evaluation units, of the difference between a search of
/// depth 3..=11 (the column) and ProbCut's shallow search of it, by stage of the
/// position (the row: 45 or more empty cells, 37-44, 29-36, 28 or fewer). Measured
/// with the learned evaluation, without ProbCut, on 280 positions of the engine's
/// games against Zebra (8 for each count of empty cells from 20 to 54); the margin is
/// 1.5 of these. The deep value follows the shallow one with a slope of 0.84-1.08,
/// so the margin alone carries the prediction.
const PROBCUT_SIGMA: [[i32; 9]; 4] = [
    [241, 183, 199, 226, 206, 159, 131, 170, 149],
    [282, 243, 228, 324, 327, 300, 233, 354, 286],
    [306, 231, 186, 299, 287, 270, 264, 306, 256],
    [400, 304, 288, 421, 337, 368, 359, 429, 358],
];

/// The selective endgame search (endgame ProbCut, as Zebra has it): a position with
/// at least this many empty cells is cut off when a shallow heuristic search of it
/// predicts its exact value to be beyond the window, by [`END_CUT_SIGMAS`]
/// standard deviations of the prediction's error.
const END_CUT_EMPTIES: u32 = 13;

/// The selective endgame search's levels, least sure (most cutoffs) first: how many
/// hundredths of a standard deviation the prediction must clear the window by.
pub const END_CUT_SIGMAS: [i32; 3] = [100, 160, 250];

/// Table entries of the selective endgame search at level `l` have the depth
/// `SELECTIVE_END + 8 l`: above every heuristic depth, below [`TO_THE_END`]. A
/// search accepts the entries of its own level and surer ones, exact solves
/// included.
const SELECTIVE_END: u8 = 64;

/// The endgame ProbCut's prediction of the exact value of a position with `empties`
/// empty cells from a heuristic search: how deep it searches, the mean of the exact
/// value less its value, and the standard deviation of that difference (evaluation
/// units). Measured with the learned evaluation on 1,100 positions with 12-22 empty
/// cells of the engine's games against Zebra, those the search valued within 8
/// discs: 2 plies, 13-15 empty cells: sd 580-630; 4 plies, 16-22: sd 400-540. The
/// exact value is about 0.8 disc higher with an odd number of empty cells (the
/// evaluation's stages are five cells wide and miss who plays last).
fn end_cut_prediction(empties: u32) -> (i32, i32, i32) {
    let bias = if empties % 2 == 1 { 80 } else { 0 };
    if empties >= 16 {
        (4, bias, 490)
    } else {
        (2, bias, 600)
    }
}

/// The smallest final margin in discs whose score ([`margin_score`]
/// (crate::eval::othello::margin_score)) is at least `score`.
fn least_margin(score: i32) -> i32 {
    if score > 0 {
        (-(WIN - score).div_euclid(DISC)).max(1)
    } else if score > -WIN - DISC {
        0
    } else {
        -(-WIN - score).div_euclid(DISC)
    }
}

/// Ordering weight of the opponent's potential mobility (empty cells next to the
/// mover's discs) in the solver's fastest-first ordering, against 16 per reply.
const POTENTIAL_WEIGHT: i32 = 4;

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

/// The exact solver looks for a cutoff among its children's table entries before
/// searching a position with at least this many empty cells (enhanced transposition
/// cutoff): over the FFO positions with 20-24 empty cells, 13% fewer nodes and 12%
/// less time than without (from 14 empty cells: 10% and 7%; from 10: no faster).
const ETC_EMPTIES: u32 = 12;

/// The exact solver orders the moves of positions with at least this many empty
/// cells as the heuristic search does, by the children's values
/// ([`Searcher::ordered_by_evaluation`], with [`solver_order_plies`]); those with
/// fewer fastest first.
const SOLVER_EVALUATED_ORDER: u32 = 12;

/// How deep the exact solver searches each child of a position with `empties` empty
/// cells to order its moves: not at all (the child's evaluation) below 18 empty
/// cells, 1 ply below 22, 2 plies from there (the deeper the solve below, the more a
/// better order saves).
fn solver_order_plies(empties: u32) -> i32 {
    match empties {
        ..=17 => 0,
        18..=21 => 1,
        _ => 2,
    }
}

/// In the evaluated order, the malus per move a child leaves the opponent, in
/// evaluation units (a disc is 100).
const ORDER_REPLY_WEIGHT: i32 = 60;

/// [`ORDER_REPLY_WEIGHT`] in the exact solver, where leaving the opponent few moves
/// matters more than the evaluation (over FFO #40-#49, with the evaluated order from
/// 12 empty cells rather than 14: 784M nodes against 835M).
const SOLVER_ORDER_REPLY_WEIGHT: i32 = 250;

/// ProbCut is tried only with bounds well inside the heuristic range.
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

    /// `moves` ordered for the exact solver: fastest first (fewest replies for the
    /// opponent, corners counted as two replies fewer, and a quarter of a reply per
    /// cell of the opponent's potential mobility), then moves into a quadrant with an
    /// odd number of empty cells. The children's slots in `table` are fetched into
    /// the cache meanwhile, when given (the children of a position with
    /// [`SHALLOW_SOLVE`] + 1 empty cells never probe it).
    fn fastest_first(board: Board, moves: u64, table: Option<&Table>) -> MoveList {
        let mut list = MoveList::empty();
        let odd = last_empties::odd_cells(!(board.own | board.opp));
        for square in Squares(moves) {
            let child = board.play(square);
            if let Some(table) = table {
                table.prefetch(child);
            }
            let replies = child.moves();
            let corners = (replies & CORNERS).count_ones() as i32;
            let score = -16 * (replies.count_ones() as i32 + corners)
                - POTENTIAL_WEIGHT * potential_mobility(child)
                + if square.bit() & odd != 0 { 4 } else { 0 }
                + if square.bit() & CORNERS != 0 { 8 } else { 0 };
            list.push(score, square);
        }
        list.moves[..list.len].sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
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
    /// Set once the deadline has passed: every value computed after is meaningless.
    pub stopped: bool,
    /// Whether the heuristic search prunes by ProbCut.
    probcut: bool,
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
            stopped: false,
            probcut: true,
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
        self.probcut = false;
        self
    }

    /// The same search with the exact solver's transposition cutoff from `empties`
    /// empty cells, so that tests reach it in positions small enough to check.
    #[cfg(test)]
    pub(super) fn with_etc_from(mut self, empties: u32) -> Searcher<'a> {
        self.etc_empties = empties;
        self
    }

    /// Counts a node; true once the deadline has passed (or, in a helper thread, once
    /// a split point above has a cutoff: [`Parallel::aborted`]). The clock is read once
    /// [`CHECK_INTERVAL`] nodes have been counted since it last was, those of the
    /// last empty cells (which [`last_empties`] counts, without the clock) included.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            self.stopped = Instant::now() >= self.deadline || self.parallel.aborted();
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
            if entry.depth as i32 >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower => alpha = alpha.max(entry.value),
                    Bound::Upper => beta = beta.min(entry.value),
                }
                if alpha >= beta {
                    return entry.value;
                }
            }
        }
        if depth == 1 {
            return self.above_leaves(board, features, moves, first, alpha, beta);
        }
        if self.probcut && depth >= PROBCUT_MIN_DEPTH {
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
    /// fewer nodes).
    fn probcut(
        &mut self,
        board: Board,
        features: &Features,
        moves: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let shallow = 2 * (depth / 4) + (depth & 1);
        let empties = (!(board.own | board.opp)).count_ones();
        let stage = match empties {
            45.. => 0,
            37..=44 => 1,
            29..=36 => 2,
            _ => 3,
        };
        let sigma = PROBCUT_SIGMA[stage][(depth.min(PROBCUT_DEEPEST) - PROBCUT_MIN_DEPTH) as usize];
        let margin = sigma * 3 / 2;
        // One side only, the one the position's evaluation leans to.
        let leans_high = self
            .weights
            .evaluate_features(board, features, moves.count_ones())
            >= (alpha + beta) / 2;
        let high = beta + margin;
        if leans_high && high < PROBCUT_LIMIT {
            let value = self.heuristic(board, features, shallow, high - 1, high);
            if self.stopped {
                return Some(0);
            }
            if value >= high {
                return Some(beta);
            }
        }
        let low = alpha - margin;
        if !leans_high && low > -PROBCUT_LIMIT {
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

    /// A value of at least `beta` for `board` (whose legal moves are `moves`) that the
    /// exact solves of its children in the table prove, if any: a child whose value
    /// for its own side to move is at most `-beta`.
    fn child_cutoff(&self, board: Board, moves: u64, beta: i32) -> Option<i32> {
        // The children's slots are fetched all at once, then read: one wait for
        // memory rather than one per child.
        for square in Squares(moves) {
            self.table.prefetch(board.play(square));
        }
        Squares(moves).find_map(|square| {
            let entry = self.table.probe(board.play(square))?;
            let proved = entry.depth >= self.end_floor() && entry.bound != Bound::Lower;
            (proved && -entry.value >= beta).then_some(-entry.value)
        })
    }

    /// The exact value of `board` (with `empties` empty cells) for the side to move,
    /// played to the end, within the window `alpha`..`beta`.
    pub fn endgame(&mut self, board: Board, empties: u32, alpha: i32, beta: i32) -> i32 {
        self.endgame_from(board, None, empties, alpha, beta)
    }

    /// [`Searcher::endgame`], given `board`'s features where its parent had them
    /// (the evaluated order wants them): a child's are its parent's updated by the
    /// move, much cheaper than computed afresh.
    fn endgame_from(
        &mut self,
        board: Board,
        known: Option<&Features>,
        empties: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        debug_assert!(known.is_none_or(|known| *known == self.layout.features(board)));
        if empties <= SHALLOW_SOLVE {
            return last_empties::solve(board, alpha, beta, &mut self.nodes, &mut self.local);
        }
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
            let known = known.map(Features::pass);
            return -self.endgame_from(passed, known.as_ref(), empties, -beta, -alpha);
        }
        if let Some(bound) = last_empties::stability_cutoff(board, alpha) {
            return bound;
        }
        let mut first = None;
        if let Some(entry) = self.table.probe(board) {
            first = entry.best;
            if entry.depth >= self.end_floor() {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower => alpha = alpha.max(entry.value),
                    Bound::Upper => beta = beta.min(entry.value),
                }
                if alpha >= beta {
                    return entry.value;
                }
            }
        }
        if empties >= self.etc_empties {
            if let Some(value) = self.child_cutoff(board, moves, beta) {
                return value;
            }
        }
        let features = (empties >= SOLVER_EVALUATED_ORDER).then(|| {
            known
                .copied()
                .unwrap_or_else(|| self.layout.features(board))
        });
        if let (Some(level), Some(features)) = (self.end_cut, &features) {
            if empties >= END_CUT_EMPTIES {
                let cut = self.end_probcut(board, features, empties, level, alpha, beta);
                if self.stopped {
                    return 0;
                }
                if let Some(value) = cut {
                    self.remember(board, value, self.end_depth(empties), alpha, beta, first);
                    return value;
                }
            }
        }
        let split = self.parallel.splits_endgame(empties);
        // The table's move is searched before the others are ordered only where they
        // are ordered fastest first: with the evaluated order, it costs more nodes
        // (FFO #45: 281M against 269M).
        let evaluated = features.is_some();
        let Some((best, best_move)) = self.principal_variation(
            board,
            moves,
            first.filter(|_| !evaluated),
            alpha,
            beta,
            split,
            |s, others| {
                if let Some(features) = &features {
                    let plies = solver_order_plies(empties);
                    s.ordered_by_evaluation(
                        board,
                        features,
                        others,
                        first,
                        plies,
                        SOLVER_ORDER_REPLY_WEIGHT,
                    )
                } else {
                    let probed = (empties - 1 > SHALLOW_SOLVE).then_some(s.table);
                    MoveList::fastest_first(board, others, probed)
                }
            },
            |s, square, flips, child, lo, hi| {
                let features = features
                    .as_ref()
                    .filter(|_| empties > SOLVER_EVALUATED_ORDER)
                    .map(|features| s.layout.play(features, square.index(), flips));
                -s.endgame_from(child, features.as_ref(), empties - 1, -hi, -lo)
            },
        ) else {
            return 0;
        };
        self.remember(board, best, self.end_depth(empties), alpha, beta, best_move);
        best
    }
}

impl Searcher<'_> {
    /// The least depth of the table entries the endgame search takes as its own: exact
    /// solves, and for the selective search those of its level or a surer one.
    fn end_floor(&self) -> u8 {
        self.end_cut
            .map_or(TO_THE_END, |level| SELECTIVE_END + 8 * level as u8)
    }

    /// The depth the endgame search stores its results of a position with `empties`
    /// empty cells at.
    fn end_depth(&self, empties: u32) -> u8 {
        match self.end_cut {
            None => TO_THE_END + empties as u8,
            Some(level) => SELECTIVE_END + 8 * level as u8,
        }
    }

    /// Endgame ProbCut at `level` ([`END_CUT_SIGMAS`]): `beta` when a shallow
    /// heuristic search of `board` (with `features`, `empties` empty cells) predicts
    /// a final margin clearly at or above the least one scoring `beta`, `alpha` when
    /// it predicts one clearly at or below the most one scoring `alpha`, else `None`.
    fn end_probcut(
        &mut self,
        board: Board,
        features: &Features,
        empties: u32,
        level: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (plies, bias, sigma) = end_cut_prediction(empties);
        let margin = sigma * END_CUT_SIGMAS[level] / 100;
        // In evaluation units, the thresholds on the predicted margin: half a disc
        // short of the bound's margin, plus or minus the error's margin.
        let most = 64;
        let high_margin = least_margin(beta);
        let low_margin = least_margin(alpha + 1) - 1;
        let high = if high_margin <= most {
            high_margin * DISC - DISC / 2 + margin - bias
        } else {
            INFINITE
        };
        let low = if low_margin >= -most {
            low_margin * DISC + DISC / 2 - margin - bias
        } else {
            -INFINITE
        };
        if high >= INFINITE && low <= -INFINITE {
            return None;
        }
        let value = self.heuristic(board, features, plies, low, high);
        if value >= high {
            Some(beta)
        } else if value <= low {
            Some(alpha)
        } else {
            None
        }
    }
}

/// The potential mobility of the side to move of `board`: empty cells next to the
/// opponent's discs.
#[inline]
fn potential_mobility(board: Board) -> i32 {
    (neighbours(board.opp) & !(board.own | board.opp)).count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child's exact solve or upper bound in the table cuts its parent off when it
    /// reaches beta; a lower bound or a heuristic result does not.
    #[test]
    fn a_child_solved_in_the_table_cuts_its_parent_off() {
        let weights = crate::eval::pattern::embedded();
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let board = crate::board::Geometry::STANDARD.start();
        let moves = board.moves();
        let square = Squares(moves).nth(2).expect("four moves at the start");
        let entry = |value, bound, depth| Entry {
            value,
            depth,
            bound,
            best: None,
        };
        let solved = TO_THE_END + 59;
        for (stored, beta, cut) in [
            (entry(-500, Bound::Exact, solved), 500, Some(500)),
            (entry(-500, Bound::Exact, solved), 400, Some(500)),
            (entry(-500, Bound::Upper, solved), 500, Some(500)),
            (entry(-500, Bound::Exact, solved), 501, None),
            (entry(-500, Bound::Lower, solved), 500, None),
            (entry(-500, Bound::Exact, 30), 500, None),
        ] {
            let mut table = Table::new(10);
            table.store(board.play(square), stored);
            let searcher = Searcher::new(&mut table, weights, far);
            assert_eq!(searcher.child_cutoff(board, moves, beta), cut, "{stored:?}");
        }
    }

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

    /// The smallest margin scoring at least a score: around every margin's score,
    /// and the window around a draw.
    #[test]
    fn the_least_margin_reaching_a_score() {
        use crate::eval::othello::margin_score;
        for margin in -64..=64 {
            for score in [-1, 0, 1].map(|d| margin_score(margin) + d) {
                let least = least_margin(score);
                assert!(margin_score(least) >= score, "{score}");
                assert!(margin_score(least - 1) < score, "{score}");
            }
        }
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
