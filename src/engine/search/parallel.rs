//! Searching on several threads: the young brothers wait concept (Feldmann). A node
//! deep enough to be worth it searches its first move alone, and only then, when
//! that move does not cut it off, shares its other moves among the threads of a
//! `rayon_core` pool (a thread waiting for the moves it handed out searches other
//! split points' moves meanwhile). The moves so shared are searched with a null
//! window at the best value found so far by any of them (an atomic), then again with
//! the full window when they beat it; the first to reach beta stops the others.
//! Every thread shares the one transposition table.
//!
//! Each result is kept with what it proves (a bound or the exact value), and the
//! node's value is put together from those alone, so the exact solver's values are
//! the serial search's whatever the threads' timing; only the node counts and the
//! best move among equals may differ.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use super::Searcher;
use crate::board::{Board, Square};

/// The exact solver splits nodes with at least this many empty cells.
pub(in crate::engine) const SPLIT_EMPTIES: u32 = 12;

/// The heuristic search splits nodes with at least this many plies left.
pub(in crate::engine) const SPLIT_DEPTH: i32 = 6;

/// A flag raised when a split point's moves need no more search (one of them cut
/// it off), seen by every search below it, through the flags of the split points
/// above.
pub(in crate::engine) struct Abort<'a> {
    flag: AtomicBool,
    parent: Option<&'a Abort<'a>>,
}

impl Abort<'_> {
    /// Whether this flag or one above it is raised.
    fn raised(&self) -> bool {
        let mut next = Some(self);
        while let Some(abort) = next {
            if abort.flag.load(Relaxed) {
                return true;
            }
            next = abort.parent;
        }
        false
    }
}

/// Where a search splits among threads, and the split points above a helper's search.
#[derive(Clone, Copy)]
pub(in crate::engine) struct Parallel<'a> {
    /// Exact solves split from this many empty cells (`u32::MAX`: never).
    split_empties: u32,
    /// Heuristic searches split from this many plies left (`i32::MAX`: never).
    split_depth: i32,
    /// The flags of the split points whose move this search is (none at the root).
    abort: Option<&'a Abort<'a>>,
}

impl Parallel<'static> {
    /// A search on one thread: the serial search, unchanged.
    pub(in crate::engine) fn serial() -> Parallel<'static> {
        Parallel {
            split_empties: u32::MAX,
            split_depth: i32::MAX,
            abort: None,
        }
    }

    /// A search that splits from [`SPLIT_EMPTIES`] and [`SPLIT_DEPTH`]: to be run on
    /// a thread of a `rayon_core` pool (`ThreadPool::install`), whose threads it uses.
    pub(in crate::engine) fn splitting() -> Parallel<'static> {
        Parallel {
            split_empties: SPLIT_EMPTIES,
            split_depth: SPLIT_DEPTH,
            abort: None,
        }
    }
}

impl Parallel<'_> {
    /// A search that splits exact solves from `empties` empty cells and heuristic
    /// searches from `depth` plies, so that tests split small searches often.
    #[cfg(test)]
    fn splitting_from(empties: u32, depth: i32) -> Parallel<'static> {
        Parallel {
            split_empties: empties,
            split_depth: depth,
            abort: None,
        }
    }

    /// Whether an exact solve with `empties` empty cells splits.
    #[inline(always)]
    pub(in crate::engine) fn splits_endgame(&self, empties: u32) -> bool {
        empties >= self.split_empties
    }

    /// Whether a heuristic search `depth` plies deep splits.
    #[inline(always)]
    pub(in crate::engine) fn splits_heuristic(&self, depth: i32) -> bool {
        depth >= self.split_depth
    }

    /// Whether a split point above has been cut off, so that this search's values
    /// are not wanted any more.
    #[inline]
    pub(in crate::engine) fn aborted(&self) -> bool {
        self.abort.is_some_and(Abort::raised)
    }
}

/// A move's result at a split point: its value, the move, and whether the value is
/// a lower bound or exact (true), or only an upper bound (false).
type Found = (i32, Option<Square>, bool);

/// The best results so far at a split point.
struct Best {
    /// The highest value proved to be reached (exact or a lower bound).
    reached: Found,
    /// The highest value of all, upper bounds included.
    any: Found,
}

impl Best {
    /// Takes in a move's result.
    fn offer(&mut self, found: Found) {
        if found.2 && found.0 > self.reached.0 {
            self.reached = found;
        }
        if found.0 > self.any.0 {
            self.any = found;
        }
    }
}

/// The rest of a principal-variation search at a split point: `first` (value and
/// move) is the first move's result, `alpha` the window's lower end raised by it;
/// `rest` are the other moves, shared among the pool's threads, each searched by a
/// helper of `searcher` with `child_value` (as in `Searcher::principal_variation`).
/// Returns the best value and move (fail-soft), or `None` when the deadline (or a
/// cutoff above) stopped the search, which `searcher.stopped` then says.
///
/// A value above the window's lower end is always that of a move whose search
/// proved it (exact, or a lower bound at beta): an upper bound of another move
/// equal to it was found with the lower end at least as high, so some move reached
/// it. The value is thus the serial search's, whichever move reached it first.
pub(in crate::engine) fn search_rest<'a, F>(
    searcher: &mut Searcher<'a>,
    board: Board,
    rest: impl Iterator<Item = Square> + Send,
    first: (i32, Option<Square>),
    alpha: i32,
    beta: i32,
    child_value: &F,
) -> Option<(i32, Option<Square>)>
where
    F: Fn(&mut Searcher, Square, u64, Board, i32, i32) -> i32 + Sync,
{
    let split = Abort {
        flag: AtomicBool::new(false),
        parent: searcher.parallel.abort,
    };
    let first = (first.0, first.1, true);
    let best = Mutex::new(Best {
        reached: first,
        any: first,
    });
    let alpha = AtomicI32::new(alpha);
    let nodes = AtomicU64::new(0);
    let interrupted = AtomicBool::new(false);
    {
        let origin: &Searcher = searcher;
        let parallel = Parallel {
            abort: Some(&split),
            ..origin.parallel
        };
        let (split, best, alpha, nodes, interrupted) =
            (&split, &best, &alpha, &nodes, &interrupted);
        rayon_core::scope_fifo(|scope| {
            for square in rest {
                scope.spawn_fifo(move |_| {
                    let low = alpha.load(Relaxed);
                    if split.raised() || low >= beta || interrupted.load(Relaxed) {
                        // A cutoff here (its result stands), or above or the deadline
                        // (nothing does).
                        interrupted.store(true, Relaxed);
                        return;
                    }
                    let mut helper = origin.helper(parallel);
                    let flips = board.flips(square);
                    let child = board.play_flipping(square, flips);
                    let mut low = low;
                    let mut value = child_value(&mut helper, square, flips, child, low, low + 1);
                    if value > low && value < beta && !helper.stopped {
                        // Searched again from the best value now known, which other
                        // moves may have raised meanwhile.
                        low = low.max(alpha.load(Relaxed));
                        if low < beta {
                            value = child_value(&mut helper, square, flips, child, low, beta);
                        }
                    }
                    nodes.fetch_add(helper.nodes, Relaxed);
                    if helper.stopped || low >= beta {
                        interrupted.store(true, Relaxed);
                        return;
                    }
                    let proved = value > low;
                    if proved {
                        alpha.fetch_max(value, Relaxed);
                    }
                    best.lock().expect("no thread panics holding it").offer((
                        value,
                        Some(square),
                        proved,
                    ));
                    if value >= beta {
                        split.flag.store(true, Relaxed);
                    }
                });
            }
        });
    }
    searcher.nodes += nodes.into_inner();
    let best = best.into_inner().expect("no thread panics holding it");
    if best.reached.0 >= beta {
        return Some((best.reached.0, best.reached.1));
    }
    if interrupted.into_inner() {
        searcher.stopped = true;
        return None;
    }
    let found = if best.reached.0 >= best.any.0 {
        best.reached
    } else {
        best.any
    };
    Some((found.0, found.1))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::board::Geometry;
    use crate::engine::search::INFINITE;
    use crate::engine::table::Table;
    use crate::eval::othello::DISC;
    use crate::eval::pattern::embedded;
    use crate::splitmix::SplitMix64;

    /// Positions along random games from `seed` with `fewest..=most` empty cells.
    fn positions(seed: u64, count: usize, fewest: u32, most: u32) -> Vec<Board> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let stop = fewest + rng.below((most - fewest + 1) as u64) as u32;
            let mut board = Geometry::STANDARD.start();
            while (!(board.own | board.opp)).count_ones() > stop {
                match rng.step(board) {
                    Some(next) => board = next,
                    None => break,
                }
            }
            if board.moves() != 0 {
                out.push(board);
            }
        }
        out
    }

    fn pool(threads: usize) -> rayon_core::ThreadPool {
        rayon_core::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("threads")
    }

    /// Split from 8 empty cells on 2 and 3 threads, the exact solver's value within
    /// any window bounds the serial value on the right side (fail-soft), and is it
    /// when inside the window: full windows, null windows at, below and above it,
    /// and the window around a draw; with a fresh table, and with one that holds
    /// the previous windows' results.
    #[test]
    fn the_split_solver_bounds_the_serial_value_in_every_window() {
        let far = Instant::now() + Duration::from_secs(600);
        for threads in [2, 3] {
            let pool = pool(threads);
            for board in positions(threads as u64, 12, 10, 14) {
                let empties = (!(board.own | board.opp)).count_ones();
                let mut table = Table::new(14);
                let exact = Searcher::new(&mut table, embedded(), far)
                    .endgame(board, empties, -INFINITE, INFINITE);
                let windows = [
                    (-INFINITE, INFINITE),
                    (exact - 1, exact),
                    (exact, exact + 1),
                    (exact - 2 * DISC, exact - DISC),
                    (exact + DISC, exact + 2 * DISC),
                    (-1, 1),
                ];
                let mut shared = Table::new(14);
                for (low, high) in windows {
                    for fresh in [true, false] {
                        let mut table = Table::new(14);
                        let table = if fresh { &mut table } else { &mut shared };
                        let value = pool.install(|| {
                            let mut searcher = Searcher::new(table, embedded(), far);
                            searcher.parallel = Parallel::splitting_from(8, i32::MAX);
                            searcher.endgame(board, empties, low, high)
                        });
                        let window = format!("{board:?} {low}..{high}: {value} for {exact}");
                        if value <= low {
                            assert!(exact <= value, "{window}");
                        } else if value >= high {
                            assert!(exact >= value, "{window}");
                        } else {
                            assert_eq!(value, exact, "{window}");
                        }
                    }
                }
            }
        }
    }

    /// Without ProbCut the heuristic search is exact, so split from 2 plies left on
    /// 2 threads it finds the serial value, 3 and 4 plies deep.
    #[test]
    fn the_split_heuristic_search_finds_the_serial_value() {
        let far = Instant::now() + Duration::from_secs(600);
        let pool = pool(2);
        for (i, board) in positions(9, 40, 20, 50).into_iter().enumerate() {
            let depth = 3 + (i % 2) as i32;
            let mut table = Table::new(14);
            let serial = Searcher::new(&mut table, embedded(), far)
                .without_probcut()
                .midgame(board, depth, -INFINITE, INFINITE);
            let mut table = Table::new(14);
            let split = pool.install(|| {
                let mut searcher = Searcher::new(&mut table, embedded(), far).without_probcut();
                searcher.parallel = Parallel::splitting_from(u32::MAX, 2);
                searcher.midgame(board, depth, -INFINITE, INFINITE)
            });
            assert_eq!(split, serial, "{board:?} depth {depth}");
        }
    }
}
