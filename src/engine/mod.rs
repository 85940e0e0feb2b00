//! Players that choose one move under a clock, for the courses that play games
//! rather than print a search log: the Umea course's naive opponent ([`naive`]), and
//! a strong engine ([`Engine`]): iterative deepening over a principal-variation
//! search with a transposition table and ProbCut on the learned pattern evaluation
//! ([`crate::eval::pattern`], fitted by [`train`]), and an exact solver for the last
//! empty cells.

mod last_empties;
pub mod naive;
mod parallel;
mod search;
pub mod shaped;
mod table;
pub mod tempo;
pub mod train;

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use crate::board::{Board, Square, Squares};
use crate::eval::pattern::{embedded, Weights};
use parallel::Parallel;
use search::{Depth, RootResult, Searcher};
use table::Table;

/// Positions with at most this many empty cells are solved exactly when time allows
/// (the heuristic answer stands when the solve does not finish in time), however long
/// the move ([`solve_empties`]).
const MOST_SOLVE_EMPTIES: u32 = 22;

/// What a solve of a position with 20 empty cells takes in play here, who wins and
/// then by how much, in seconds (the median at 0.5 s a move against Zebra: 0.15 s, 90%
/// under 0.25 s)...
const SOLVE_20_SECONDS: f64 = 0.15;

/// ...and how much longer it takes with each empty cell more (at 21 empty cells, the
/// median is 0.27 s).
const SOLVE_GROWTH: f64 = 1.8;

/// The most empty cells at which a move with `budget` is solved: those whose solve
/// is expected to fit in the solver's share of the time ([`HANDOVER_SHARE`]), at most
/// [`MOST_SOLVE_EMPTIES`]. At 0.5 s a move (a budget of about 0.41 s) it is 21: with 22,
/// 12 of 20 solves there did not finish, and their moves came from a heuristic
/// search of a fifth of the time.
fn solve_empties(budget: Duration) -> u32 {
    let share = budget.as_secs_f64() * (1.0 - HANDOVER_SHARE);
    let more = (share / SOLVE_20_SECONDS).ln() / SOLVE_GROWTH.ln();
    (20.0 + more.floor()).clamp(0.0, MOST_SOLVE_EMPTIES as f64) as u32
}

/// Positions with up to this many empty cells more than [`solve_empties`] are
/// searched to the end selectively ([`search::END_CUT_SIGMAS`]), for who wins, after
/// a heuristic deepening of [`HANDOVER_SHARE`] of the time: 26 at 0.5 s a move, as
/// Zebra starts its own selective endgame search there.
const SELECTIVE_MORE: u32 = 5;

/// Slots in the largest transposition table, as a power of two (24 bytes each: 48 MiB).
const TABLE_BITS: u32 = 21;

/// Slots in the smallest table (384 KiB).
const MIN_TABLE_BITS: u32 = 14;

/// Positions searched per second, roughly, on one core: sizes the table for a budget.
const POSITIONS_PER_SECOND: f64 = 4e6;

/// In positions to solve, heuristic deepening hands over to the solver after this
/// share of the time.
const HANDOVER_SHARE: f64 = 0.2;

/// A midgame move whose best move has held for this many completed iterations...
const SETTLED_ITERATIONS: u32 = 3;

/// ...stops deepening once this share of its time has gone ([`settled`]).
const SETTLED_SHARE: f64 = 0.5;

/// Whether heuristic deepening stops early, its best move having held for `held`
/// completed iterations with `elapsed` of its `budget` gone: the next iteration,
/// 1.5-1.7 times as long as all before it, would most often not finish even its
/// first move. On 160 midgame positions of games against Zebra at 0.5 s a move this
/// leaves the moves as they were (93.8% the same, where two runs of the full time
/// agree on 91.9%) and saves a quarter of the time.
fn settled(held: u32, elapsed: Duration, budget: Duration) -> bool {
    held >= SETTLED_ITERATIONS && elapsed >= budget.mul_f64(SETTLED_SHARE)
}

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
    /// among the threads once their first move is searched (`src/engine/parallel.rs`),
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
        let positions = (budget.as_secs_f64() * POSITIONS_PER_SECOND).max(1.0);
        let bits = (positions.log2().ceil() as u32).clamp(MIN_TABLE_BITS, TABLE_BITS);
        Engine::with_table(Table::new(bits))
    }

    /// Chooses a move for the side to move of `board`, returning by `deadline` (give or
    /// take the time to read the clock once per thousand positions, well under a
    /// millisecond). Always a legal move when one exists, however short the time.
    pub fn think(&mut self, board: Board, deadline: Instant) -> Thought {
        self.run(|table, parallel| think(table, parallel, board, deadline))
    }
}

/// [`Engine::think`] with `table`, split as `parallel` says.
fn think(table: &mut Table, parallel: Parallel, board: Board, deadline: Instant) -> Thought {
    {
        let start = Instant::now();
        let budget = deadline.saturating_duration_since(start);
        let moves = board.moves();
        let mut thought = Thought::default();
        if moves == 0 {
            return thought;
        }
        let mut order: Vec<Square> = Squares(moves).collect();
        thought.best = Some(order[0]);
        if order.len() == 1 {
            return thought;
        }
        let empties = (!(board.own | board.opp)).count_ones();
        let most_solved = solve_empties(budget);
        let to_solve = empties <= most_solved;
        let selective = !to_solve && empties <= most_solved + SELECTIVE_MORE;
        let midgame = !(to_solve || selective);
        // In the solver's range the heuristic deepening has a deadline of its own, the
        // handover: an iteration still running then is cut off rather than left to
        // take the solver's time (near the end, one iteration can take it all).
        let handover = if midgame {
            deadline
        } else {
            deadline.min(start + budget.mul_f64(HANDOVER_SHARE))
        };
        let mut searcher = Searcher::new(table, embedded(), handover);
        searcher.parallel = parallel;
        let mut held = 0;
        for depth in 1..=empties {
            let result = searcher.root(board, Depth::Plies(depth as i32), &mut order);
            if let Some(result) = result {
                if result.complete {
                    held = if thought.best == Some(result.best) {
                        held + 1
                    } else {
                        1
                    };
                    thought.depth = depth;
                }
                thought.best = Some(result.best);
                thought.value = result.value;
            }
            // Deepening goes on until its deadline, or in the midgame until the move
            // is settled: an unfinished iteration searches the previous best move
            // first, and a later move replaces it only once searched completely at
            // the new depth.
            if searcher.stopped || midgame && settled(held, start.elapsed(), budget) {
                break;
            }
        }
        thought.nodes = searcher.nodes;
        if !midgame {
            let mut solver = Searcher::new(table, embedded(), deadline);
            solver.parallel = parallel;
            // Who wins (within the window around a draw, several times cheaper than
            // the margin): in the selective range level by level, each surer than the
            // one before, then exactly; in the solver's range exactly at once, then
            // the margin.
            let selective_levels = if selective {
                search::END_CUT_SIGMAS.len()
            } else {
                0
            };
            let levels = (0..selective_levels).map(Some).chain([None]);
            if who_wins(&mut solver, board, &mut order, levels, &mut thought) && to_solve {
                if let Some(result) = solver.root(board, Depth::End, &mut order) {
                    if result.complete {
                        thought.best = Some(result.best);
                        thought.solved = true;
                        thought.value = disc_margin(result.value);
                        thought.proved = Some(result.value.cmp(&0));
                    }
                }
            }
            thought.nodes += solver.nodes;
        }
        thought
    }
}

/// Searches who wins `board` at each of `levels` of the endgame search in turn
/// ([`search::END_CUT_SIGMAS`]; `None`: exactly), the moves in `order`; the last
/// level completed decides `thought`'s verdict (`likely`, or `proved` when exact) and
/// its move: the solver's best for a win or a draw, while a loss keeps the heuristic
/// move, which may well make the win harder for the opponent to find. Whether every
/// level completed.
fn who_wins(
    solver: &mut Searcher,
    board: Board,
    order: &mut [Square],
    levels: impl Iterator<Item = Option<usize>>,
    thought: &mut Thought,
) -> bool {
    let heuristic_best = thought.best;
    for level in levels {
        solver.end_cut = level;
        match solver.root_within(board, Depth::End, order, -1, 1) {
            Some(result) if result.complete => {
                let outcome = result.value.cmp(&0);
                match level {
                    Some(_) => thought.likely = Some(outcome),
                    None => thought.proved = Some(outcome),
                }
                thought.best = if outcome == Ordering::Less {
                    heuristic_best
                } else {
                    Some(result.best)
                };
            }
            _ => return false,
        }
    }
    true
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
    let mut searcher = Searcher::new(table, weights, far);
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
    {
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

/// When to stop thinking to answer `seconds` after `start` (for the command line,
/// when the process was created): a safety margin of 8% plus 40 ms is kept for
/// the rest of start-up and for exit (a few milliseconds), for reading
/// the clock only every thousand positions (well under a millisecond), and for a
/// loaded machine, which may stall the process for tens of milliseconds (docs/courses.md,
/// "Time"); at least 5 ms of thinking is left.
pub fn deadline_for(start: Instant, seconds: f64) -> Instant {
    let seconds = if seconds.is_finite() {
        seconds.max(0.0)
    } else {
        0.0
    };
    let thinking = (seconds * 0.92 - 0.04).max(0.005);
    start + Duration::from_secs_f64(thinking.min(1e6))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    /// Short moves solve fewer empty cells; from 1 s a move, the most.
    #[test]
    fn the_solve_starts_later_on_a_short_clock() {
        let at = |seconds: f64| solve_empties(Duration::from_secs_f64(seconds));
        assert_eq!(at(0.0), 0);
        assert_eq!(at(0.08), 18);
        assert_eq!(at(0.41), 21);
        assert_eq!(at(0.88), MOST_SOLVE_EMPTIES);
        assert_eq!(at(1.80), MOST_SOLVE_EMPTIES);
        assert_eq!(at(1e6), MOST_SOLVE_EMPTIES);
    }

    #[test]
    fn the_deadline_keeps_8_percent_and_40_ms_and_at_least_5_ms_of_thinking() {
        let start = Instant::now();
        let after = |seconds: f64| deadline_for(start, seconds) - start;
        assert_eq!(after(0.5), Duration::from_millis(420));
        assert_eq!(after(2.0), Duration::from_millis(1800));
        assert_eq!(after(0.01), Duration::from_millis(5));
        assert_eq!(after(-1.0), Duration::from_millis(5));
        assert_eq!(after(f64::NAN), Duration::from_millis(5));
    }

    #[test]
    fn margins_come_back_from_scores() {
        use crate::eval::othello::final_score;
        for (own, opp) in [(40, 24), (20, 30), (32, 32), (64, 0)] {
            assert_eq!(disc_margin(final_score(own, opp)), own as i32 - opp as i32);
        }
    }

    /// Deepening stops early only once the best move has held for three iterations
    /// and half the time has gone.
    #[test]
    fn a_settled_move_stops_at_half_the_time() {
        let budget = Duration::from_millis(400);
        let at = |held: u32, millis: u64| settled(held, Duration::from_millis(millis), budget);
        assert!(!at(2, 399));
        assert!(!at(3, 199));
        assert!(at(3, 200));
        assert!(at(9, 300));
    }

    #[test]
    fn a_past_deadline_still_gives_a_legal_move() {
        let board = Geometry::STANDARD.start();
        let thought = Engine::new().think(board, Instant::now());
        let best = thought.best.expect("a move");
        assert!(board.moves() & best.bit() != 0);
    }

    /// The final disc margin of `board` for the side to move with perfect play, by
    /// plain minimax.
    pub(super) fn brute_force(board: Board) -> i32 {
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
    fn random_position(rng: &mut crate::splitmix::SplitMix64, empties: u32) -> Board {
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

    /// In the solver's range, `think` proves who wins and then solves the margin: on
    /// positions of random games with 8-10 empty cells, won, drawn and lost, its
    /// verdict and value are those of perfect play and its move reaches them.
    #[test]
    fn thinking_in_the_solvers_range_proves_the_outcome_and_the_margin() {
        let mut rng = crate::splitmix::SplitMix64::new(5);
        let mut outcomes = [0; 3];
        for _ in 0..12 {
            let empties = 8 + rng.below(3) as u32;
            let board = random_position(&mut rng, empties);
            if board.moves().count_ones() < 2 {
                continue;
            }
            let exact = brute_force(board);
            let deadline = Instant::now() + Duration::from_secs(60);
            let thought = Engine::for_time(Duration::from_millis(10)).think(board, deadline);
            assert!(thought.solved, "{board:?}");
            assert_eq!(thought.value, exact, "{board:?}");
            assert_eq!(thought.proved, Some(exact.cmp(&0)), "{board:?}");
            let best = thought.best.expect("a move");
            assert_eq!(-brute_force(board.play(best)), exact, "{board:?}");
            outcomes[(exact.signum() + 1) as usize] += 1;
        }
        assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
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
