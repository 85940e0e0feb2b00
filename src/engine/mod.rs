//! Players that choose one move under a clock, for the courses that play games
//! rather than print a search log: the Umea course's naive opponent ([`naive`]), and
//! a strong engine ([`Engine`]): iterative deepening over a principal-variation
//! search with a transposition table and ProbCut on the learned pattern evaluation
//! ([`crate::eval::pattern`], fitted by [`train`]), and an exact solver for the last
//! empty cells.

pub mod fixed;
mod last_empties;
pub mod naive;
mod search;
pub mod shaped;
mod table;
pub mod tempo;
mod timed;
pub mod train;

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use crate::board::{Board, Square, Squares};
use crate::eval::pattern::{embedded, Weights};
use search::Parallel;
use search::{Depth, RootResult, Searcher};
use table::Table;
pub use timed::deadline_for;

/// Slots in the largest transposition table, as a power of two (24 bytes each: 48 MiB).
const TABLE_BITS: u32 = 21;

/// Slots in the smallest table (384 KiB).
const MIN_TABLE_BITS: u32 = 14;

/// Positions searched per second, roughly, on one core: sizes the table for a budget.
const POSITIONS_PER_SECOND: f64 = 4e6;

/// What a child's value does to a fail-soft negamax node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Offer {
    /// Not better than the best so far.
    Worse,
    /// The best so far.
    Best,
    /// The best so far, and it reaches `beta`: the other children need no search.
    Cutoff,
}

/// Takes a child's `value` (from the side to move's view) into a node's `best` and
/// `alpha`.
#[inline(always)]
pub(crate) fn offer(value: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> Offer {
    if value <= *best {
        return Offer::Worse;
    }
    *best = value;
    if value > *alpha {
        *alpha = value;
        if value >= beta {
            return Offer::Cutoff;
        }
    }
    Offer::Best
}

/// What one call of [`Engine::think`] found (by default: nothing yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// The move to play; `None` when the side to move has none (pass).
    pub best: Option<Square>,
    /// The deepest heuristic search completed, in plies (0: none).
    pub depth: u32,
    /// The game was solved exactly and `value` is the final margin in discs.
    pub solved: bool,
    /// The result of `best` with perfect play when the solver proved it (possibly
    /// without the margin): win (`Greater`), draw or loss.
    pub proved: Option<Ordering>,
    /// The result of `best` the selective endgame search expects when it ran (win,
    /// draw or loss; not proved), from its surest level completed.
    pub likely: Option<Ordering>,
    /// The final disc margin when `solved`, else the heuristic score of the deepest
    /// search's best move.
    pub value: i32,
    /// Positions visited.
    pub nodes: u64,
}

/// The strong player. Keeps its transposition table between calls.
pub struct Engine {
    table: Table,
    /// The threads that share its searches, when more than one
    /// ([`Engine::with_threads`]).
    pool: Option<rayon_core::ThreadPool>,
}

/// The search threads could not be started.
#[derive(Debug, thiserror::Error)]
#[error("could not start {threads} search threads: {source}")]
pub struct ThreadsError {
    threads: usize,
    source: rayon_core::ThreadPoolBuildError,
}

/// The stack of each search thread: a thread that waits for the moves it shared
/// searches other moves meanwhile, so searches nest deeper than on one thread.
const THREAD_STACK: usize = 64 << 20;

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with an empty transposition table of the largest size.
    pub fn new() -> Engine {
        Engine::with_table(Table::new(TABLE_BITS))
    }

    /// An engine with `table`, on one thread.
    fn with_table(table: Table) -> Engine {
        Engine { table, pool: None }
    }

    /// The same engine searching on `threads` threads (1 or 0: on the calling thread
    /// alone, the serial search). With more, the nodes deep enough share their moves
    /// among the threads once their first move is searched (`src/engine/search/parallel.rs`),
    /// in [`Engine::think`], [`Engine::solve`] and [`Engine::search_to_depth`]; an
    /// exact solve's value stays the serial one, its node count and best move among
    /// equals may change from run to run.
    pub fn with_threads(mut self, threads: usize) -> Result<Engine, ThreadsError> {
        self.pool = if threads > 1 {
            let pool = rayon_core::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(THREAD_STACK)
                .thread_name(|index| format!("search-{index}"))
                .build()
                .map_err(|source| ThreadsError { threads, source })?;
            Some(pool)
        } else {
            None
        };
        Ok(self)
    }

    /// Runs `work` with the table, on the calling thread when the engine has one
    /// thread, else in the pool, splitting.
    fn run<T: Send>(&mut self, work: impl FnOnce(&mut Table, Parallel) -> T + Send) -> T {
        match &self.pool {
            None => work(&mut self.table, Parallel::serial()),
            Some(pool) => pool.install(|| work(&mut self.table, Parallel::splitting())),
        }
    }

    /// An engine whose table is sized for searches of about `budget`: roughly one slot
    /// per position it can visit, so that a short search neither spends its time
    /// touching fresh memory nor leaves much of it to free at exit.
    pub fn for_time(budget: Duration) -> Engine {
        Engine::for_nodes((budget.as_secs_f64() * POSITIONS_PER_SECOND) as u64)
    }

    /// An engine whose table is sized for searches of about `nodes` positions.
    fn for_nodes(nodes: u64) -> Engine {
        let positions = (nodes as f64).max(1.0);
        let bits = (positions.log2().ceil() as u32).clamp(MIN_TABLE_BITS, TABLE_BITS);
        Engine::with_table(Table::new(bits))
    }

    /// Chooses a move for the side to move of `board`, returning by `deadline` (give or
    /// take the time to read the clock once per thousand positions, well under a
    /// millisecond). Always a legal move when one exists, however short the time.
    pub fn think(&mut self, board: Board, deadline: Instant) -> Thought {
        self.run(|table, parallel| timed::think(table, parallel, board, deadline))
    }
}

impl Engine {
    /// Solves `board` exactly, however long it takes: the best move (`None` for a
    /// pass or a finished game) and the final disc margin with perfect play, for the
    /// side to move. A short heuristic deepening orders the root moves first.
    pub fn solve(&mut self, board: Board) -> Thought {
        self.solve_with(board, embedded())
    }

    /// [`Engine::solve`] with the root moves ordered by `weights`' evaluation.
    pub fn solve_with(&mut self, board: Board, weights: &Weights) -> Thought {
        self.run(|table, parallel| solve(table, parallel, board, weights))
    }
}

/// [`Engine::solve_with`] with `table`, split as `parallel` says.
fn solve(table: &mut Table, parallel: Parallel, board: Board, weights: &Weights) -> Thought {
    let far = Instant::now() + Duration::from_secs(1 << 30);
    let mut thought = Thought {
        best: None,
        depth: 0,
        solved: true,
        proved: None,
        likely: None,
        value: 0,
        nodes: 0,
    };
    let empties = (!(board.own | board.opp)).count_ones();
    let mut searcher = Searcher::new(table, weights, far).with_solver_margins();
    searcher.parallel = parallel;
    let mut order: Vec<Square> = Squares(board.moves()).collect();
    if order.is_empty() {
        let value = searcher.endgame(board, empties, -search::INFINITE, search::INFINITE);
        thought.value = disc_margin(value);
    } else {
        // The last two depths' values: the evaluation leans one way after an odd
        // number of plies and the other after an even one, and their mean is the
        // better guess (over FFO #40-#49, 4 discs or less from the exact value 8 times
        // out of 10, against 6 for the last value alone).
        let (mut previous, mut last) = (0, 0);
        for depth in 1..=empties.min(SOLVE_ORDERING_DEPTH) {
            if let Some(result) = searcher.root(board, Depth::Plies(depth as i32), &mut order) {
                (previous, last) = (last, result.value);
            }
        }
        let guess = if empties >= 2 {
            (previous + last) / 2
        } else {
            last
        };
        let result = solve_around(&mut searcher, board, &mut order, guess);
        thought.best = Some(result.best);
        thought.value = disc_margin(result.value);
    }
    thought.proved = Some(thought.value.cmp(&0));
    thought.nodes = searcher.nodes;
    thought
}

impl Engine {
    /// Deepens heuristically to `depth` plies without a clock, as [`Engine::think`]
    /// does (same search, ProbCut included): the measure of the search's speed
    /// (`reversi engine speed`). `depth` is the deepest search completed.
    pub fn search_to_depth(&mut self, board: Board, depth: u32) -> Thought {
        self.search_to_depth_with(board, depth, embedded())
    }

    /// [`Engine::search_to_depth`] evaluating by `weights`.
    pub fn search_to_depth_with(&mut self, board: Board, depth: u32, weights: &Weights) -> Thought {
        self.run(|table, parallel| search_to_depth(table, parallel, board, depth, weights, true))
    }

    /// [`Engine::search_to_depth_with`] without ProbCut: every iteration's value is
    /// that of the full tree to its depth (the measure of the evaluation itself,
    /// beside engines searching without selectivity).
    pub fn full_width_search_to_depth_with(
        &mut self,
        board: Board,
        depth: u32,
        weights: &Weights,
    ) -> Thought {
        self.run(|table, parallel| search_to_depth(table, parallel, board, depth, weights, false))
    }
}

/// [`Engine::search_to_depth_with`] with `table`, split as `parallel` says, with
/// ProbCut when `probcut`.
fn search_to_depth(
    table: &mut Table,
    parallel: Parallel,
    board: Board,
    depth: u32,
    weights: &Weights,
    probcut: bool,
) -> Thought {
    let far = Instant::now() + Duration::from_secs(1 << 30);
    let mut thought = Thought::default();
    let mut order: Vec<Square> = Squares(board.moves()).collect();
    if order.is_empty() {
        return thought;
    }
    let mut searcher = Searcher::new(table, weights, far);
    if !probcut {
        searcher = searcher.without_probcut();
    }
    searcher.parallel = parallel;
    for plies in 1..=depth {
        if let Some(result) = searcher.root(board, Depth::Plies(plies as i32), &mut order) {
            thought.best = Some(result.best);
            thought.value = result.value;
            thought.depth = plies;
        }
    }
    thought.nodes = searcher.nodes;
    thought
}

/// How deep [`Engine::solve`] searches heuristically to order the root moves.
const SOLVE_ORDERING_DEPTH: u32 = 11;

/// [`Engine::solve`] first solves within this many discs either side of the
/// heuristic value (an aspiration window), which most often holds the exact value.
const ASPIRATION_DISCS: i32 = 4;

/// The exact root solve of `board` (whose moves are `order`, best guess first) by a
/// search within [`ASPIRATION_DISCS`] of `guess` (a heuristic value), searched again
/// on the side it fails: the same exact value and best move as a search of the
/// whole window, most often in fewer nodes.
fn solve_around(
    searcher: &mut Searcher,
    board: Board,
    order: &mut [Square],
    guess: i32,
) -> RootResult {
    use crate::eval::othello::{margin_score, DISC};
    let margin = (guess as f64 / DISC as f64).round() as i32;
    let (low, high) = (
        margin_score(margin - ASPIRATION_DISCS),
        margin_score(margin + ASPIRATION_DISCS),
    );
    let mut within = |low: i32, high: i32| {
        searcher
            .root_within(board, Depth::End, order, low, high)
            .expect("no deadline")
    };
    let result = within(low, high);
    if result.value <= low {
        within(-search::INFINITE, result.value + 1)
    } else if result.value >= high {
        within(result.value - 1, search::INFINITE)
    } else {
        result
    }
}

/// The final margin in discs of a finished-game score.
fn disc_margin(score: i32) -> i32 {
    use crate::eval::othello::{DISC, WIN};
    (score - score.signum() * WIN) / DISC
}

/// A search value in discs for the side to move: the margin of a finished game,
/// else the heuristic score.
pub fn in_discs(value: i32) -> f64 {
    use crate::eval::othello::{DISC, WIN};
    if value.abs() > WIN {
        disc_margin(value) as f64
    } else {
        value as f64 / DISC as f64
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn margins_come_back_from_scores() {
        use crate::eval::othello::final_score;
        for (own, opp) in [(40, 24), (20, 30), (32, 32), (64, 0)] {
            assert_eq!(disc_margin(final_score(own, opp)), own as i32 - opp as i32);
        }
    }

    /// The final disc margin of `board` for the side to move with perfect play, by
    /// plain minimax.
    pub(crate) fn brute_force(board: Board) -> i32 {
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                let (own, opp) = board.counts();
                return own as i32 - opp as i32;
            }
            return -brute_force(board.pass());
        }
        Squares(moves)
            .map(|s| -brute_force(board.play(s)))
            .max()
            .unwrap()
    }

    /// A position of a random game (moves drawn from `rng`) with `empties` empty
    /// cells, or fewer when the game ended sooner.
    pub(super) fn random_position(rng: &mut crate::splitmix::SplitMix64, empties: u32) -> Board {
        let mut board = Geometry::STANDARD.start();
        while (!(board.own | board.opp)).count_ones() > empties {
            match rng.step(board) {
                Some(next) => board = next,
                None => break,
            }
        }
        board
    }

    /// The selective search for who wins cuts nodes off, mostly finds the exact
    /// outcome, and leaves nothing in the table that an exact solve takes as its own:
    /// the solve after it on the same table finds the value of a solve on a fresh one.
    #[test]
    fn the_selective_search_prunes_and_leaves_the_table_exact() {
        let mut rng = crate::splitmix::SplitMix64::new(5);
        let far = Instant::now() + Duration::from_secs(600);
        let (mut selective_nodes, mut exact_nodes, mut agree, mut checked) = (0, 0, 0, 0);
        while checked < 10 {
            let board = random_position(&mut rng, 15);
            let empties = (!(board.own | board.opp)).count_ones();
            if empties != 15 {
                continue;
            }
            let mut fresh = Table::new(16);
            let mut exact = Searcher::new(&mut fresh, embedded(), far);
            let outcome = exact.endgame(board, empties, -1, 1).signum();
            exact_nodes += exact.nodes;
            let value = exact.endgame(board, empties, -search::INFINITE, search::INFINITE);
            let mut table = Table::new(16);
            let mut searcher = Searcher::new(&mut table, embedded(), far);
            searcher.end_cut = Some(0);
            let likely = searcher.endgame(board, empties, -1, 1).signum();
            selective_nodes += searcher.nodes;
            agree += usize::from(likely == outcome);
            searcher.end_cut = None;
            let again = searcher.endgame(board, empties, -search::INFINITE, search::INFINITE);
            assert_eq!(again, value, "{board:?}");
            checked += 1;
        }
        assert!(
            selective_nodes < exact_nodes,
            "{selective_nodes} {exact_nodes}"
        );
        assert!(agree >= 7, "{agree} of 10");
    }

    #[test]
    fn the_solver_finds_the_exact_margin() {
        // Random playouts from the start to 7-10 empty cells: the solver's ordered
        // and shallow parts both count, with narrow and wide windows.
        let mut rng = crate::splitmix::SplitMix64::new(11);
        let mut checked = 0;
        while checked < 24 {
            let stop = 7 + rng.below(4) as u32;
            let board = random_position(&mut rng, stop);
            let empties = (!(board.own | board.opp)).count_ones();
            let exact = brute_force(board);
            // As played, and with the children's table entries tried for a cutoff
            // from 9 empty cells (as the solver does from 12): the second and third
            // searches find the first's results in the table.
            for etc_from in [None, Some(9)] {
                let mut table = Table::new(10);
                let far = Instant::now() + Duration::from_secs(60);
                let mut searcher = Searcher::new(&mut table, embedded(), far);
                if let Some(empties) = etc_from {
                    searcher = searcher.with_etc_from(empties);
                }
                let value = searcher.endgame(board, empties, -search::INFINITE, search::INFINITE);
                assert_eq!(disc_margin(value), exact, "{board:?}");
                let low = searcher.endgame(board, empties, value - 1, value);
                assert!(low >= value, "{board:?}");
                let high = searcher.endgame(board, empties, value, value + 1);
                assert!(high <= value, "{board:?}");
            }
            checked += 1;
        }
    }

    /// A heuristic search at least as deep as the game has moves left searches only
    /// finished games, so ProbCut (whose shallow searches are heuristic) must leave
    /// it the exact value: positions of random games with 10 to 14 empty cells.
    #[test]
    fn a_search_as_deep_as_the_game_finds_the_exact_value() {
        let mut rng = crate::splitmix::SplitMix64::new(29);
        let mut checked = 0;
        while checked < 12 {
            let empties = 10 + rng.below(5) as u32;
            let board = random_position(&mut rng, empties);
            if board.moves().count_ones() < 2 {
                continue;
            }
            let exact = Engine::new().solve(board).value;
            let searched = Engine::new().search_to_depth(board, empties + 1);
            assert_eq!(in_discs(searched.value), exact as f64, "{board:?}");
            checked += 1;
        }
    }

    /// On 2 and 3 threads the solver finds the serial value, and a best move that
    /// reaches it, in positions of random games with 13 to 16 empty cells (the nodes
    /// with 12 or more split).
    #[test]
    fn the_parallel_solver_finds_the_serial_value_and_a_move_reaching_it() {
        let mut rng = crate::splitmix::SplitMix64::new(17);
        let solve = |board| Engine::with_table(Table::new(16)).solve(board);
        let mut checked = 0;
        while checked < 12 {
            let stop = 13 + rng.below(4) as u32;
            let board = random_position(&mut rng, stop);
            if board.moves() == 0 {
                continue;
            }
            let serial = solve(board);
            for threads in [2, 3] {
                let engine = Engine::with_table(Table::new(16)).with_threads(threads);
                let thought = engine.expect("threads").solve(board);
                assert_eq!(thought.value, serial.value, "{board:?} {threads} threads");
                let best = thought.best.expect("a move");
                assert!(board.moves() & best.bit() != 0, "{board:?}");
                assert_eq!(-solve(board.play(best)).value, serial.value, "{board:?}");
            }
            checked += 1;
        }
    }

    #[test]
    fn a_solve_finds_the_exact_margin_whether_or_not_the_aspiration_window_holds() {
        // Random playouts to 9-11 empty cells: the heuristic guess misses the exact
        // margin by more than the window now and then, on either side.
        let mut rng = crate::splitmix::SplitMix64::new(5);
        let (mut checked, mut missed) = (0, 0);
        while checked < 24 {
            let stop = 9 + rng.below(3) as u32;
            let board = random_position(&mut rng, stop);
            if board.moves() == 0 {
                continue;
            }
            let mut engine = Engine::new();
            let thought = engine.solve(board);
            let exact = brute_force(board);
            assert_eq!(thought.value, exact, "{board:?}");
            let best = thought.best.expect("a move");
            assert_eq!(-brute_force(board.play(best)), exact, "{board:?}");
            let guess = Engine::new()
                .search_to_depth(board, SOLVE_ORDERING_DEPTH)
                .value;
            missed += usize::from((guess / 100 - exact).abs() > ASPIRATION_DISCS);
            checked += 1;
        }
        assert!(missed > 0, "no position tried the search again");
    }

    #[test]
    fn the_window_around_a_draw_finds_who_wins() {
        let mut rng = crate::splitmix::SplitMix64::new(7);
        let mut next = || rng.next_u64();
        let mut checked = 0;
        while checked < 40 {
            let empty = next() & next() & next() & next();
            let empty = if empty.count_ones() > 9 {
                empty & next()
            } else {
                empty
            };
            let split = next();
            let board = Board {
                own: split & !empty,
                opp: !split & !empty,
            };
            if board.moves() == 0 {
                continue;
            }
            let mut order: Vec<Square> = Squares(board.moves()).collect();
            let mut table = Table::new(10);
            let far = Instant::now() + Duration::from_secs(60);
            let mut searcher = Searcher::new(&mut table, embedded(), far);
            let result = searcher
                .root_within(board, Depth::End, &mut order, -1, 1)
                .unwrap();
            let exact = brute_force(board);
            assert_eq!(result.value.signum(), exact.signum(), "{board:?}");
            if exact > 0 {
                assert!(-brute_force(board.play(result.best)) > 0, "{board:?}");
            }
            checked += 1;
        }
    }
}
