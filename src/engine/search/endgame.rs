//! The exact end-of-game solver above the last empty cells ([`last_empties`]), and
//! its selective variant (endgame ProbCut) for who likely wins: the same search, the
//! same table, with positions cut off when a shallow heuristic search predicts the
//! exact value clearly beyond the window.

use super::{MoveList, Searcher, INFINITE};
use crate::board::{Board, Squares, CORNERS};
use crate::engine::last_empties;
use crate::engine::table::{Bound, Table, TO_THE_END};
use crate::eval::othello::{final_score, neighbours, DISC, WIN};
use crate::eval::pattern::Features;

/// Positions with at most this many empty cells are solved without the transposition
/// table, evaluation or clock ([`last_empties`]).
const SHALLOW_SOLVE: u32 = last_empties::MOST_EMPTIES;

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

/// The smallest final margin in discs whose score
/// ([`margin_score`](crate::eval::othello::margin_score)) is at least `score`.
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

/// The exact solver looks for a cutoff among its children's table entries before
/// searching a position with at least this many empty cells (enhanced transposition
/// cutoff): over the FFO positions with 20-24 empty cells, 13% fewer nodes and 12%
/// less time than without (from 14 empty cells: 10% and 7%; from 10: no faster).
pub(super) const ETC_EMPTIES: u32 = 12;

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

/// [`ORDER_REPLY_WEIGHT`](super::ORDER_REPLY_WEIGHT) in the exact solver, where
/// leaving the opponent few moves matters more than the evaluation (over FFO
/// #40-#49, with the evaluated order from 12 empty cells rather than 14: 784M nodes
/// against 835M).
const SOLVER_ORDER_REPLY_WEIGHT: i32 = 250;

impl MoveList {
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
}

impl Searcher<'_> {
    /// A value of at least `beta` for `board` (whose legal moves are `moves`) that the
    /// solves of its children in the table prove (exact, or at this search's
    /// selectivity: [`Searcher::end_floor`]), if any: a child whose value for its own
    /// side to move is at most `-beta`.
    fn child_cutoff(&self, board: Board, moves: u64, beta: i32) -> Option<i32> {
        // The children's slots are fetched all at once, then read: one wait for
        // memory rather than one per child.
        for square in Squares(moves) {
            self.table.prefetch(board.play(square));
        }
        let floor = self.end_floor();
        Squares(moves).find_map(|square| {
            let entry = self.table.probe(board.play(square))?;
            let proved = entry.depth >= floor && entry.bound != Bound::Lower;
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
            if let Some(value) = entry.answer(self.end_floor(), &mut alpha, &mut beta) {
                return value;
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
            Some(_) => self.end_floor(),
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
        let most = 64; // the widest margin a game can end with
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
    use crate::engine::table::Entry;
    use std::time::Instant;

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
}
