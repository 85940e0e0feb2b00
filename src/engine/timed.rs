//! The engine under a clock ([`super::Engine::think`]): how a move's time is shared
//! between heuristic deepening and the exact solver, when deepening stops, and when
//! to answer ([`deadline_for`]).

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use super::search::Parallel;
use super::search::{self, Depth, Searcher};
use super::table::Table;
use super::{disc_margin, Thought};
use crate::board::{Board, Square, Squares};
use crate::eval::pattern::embedded;

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

/// [`super::Engine::think`] with `table`, split as `parallel` says.
pub(super) fn think(
    table: &mut Table,
    parallel: Parallel,
    board: Board,
    deadline: Instant,
) -> Thought {
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
    use crate::engine::tests::{brute_force, random_position};
    use crate::engine::Engine;

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
}
