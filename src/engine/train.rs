//! Fits the weights of the pattern evaluation ([`crate::eval::pattern`]) to
//! positions labelled here. Games are played from the start by a small alpha-beta
//! search on the hand-written evaluation with random moves mixed in, and solved
//! exactly once few cells are left: the positions of the solved line get their
//! exact values, the earlier ones the final margin (for the side to move) of their
//! game. The stages are then fitted from the end of the game back, by least squares
//! (full-batch gradient descent, each weight's step scaled by how often it is
//! used): the last ones to those labels, each earlier one to the values of short
//! searches whose leaves the stages already fitted evaluate (bootstrapping: the
//! games' outcomes, decided by many later mistakes, say little about a midgame
//! position). Everything comes from one seed: the same arguments give the same
//! file.

use std::time::{Duration, Instant};

use super::search::{Searcher, INFINITE};
use super::table::Table;
use super::{disc_margin, Engine};
use crate::board::{Board, Geometry, Square, Squares};
use crate::eval::othello;
use crate::eval::pattern::{extras, layout, Weights, EXTRAS, STAGES};
use crate::splitmix::SplitMix64;

/// How the training positions are made and fitted.
#[derive(Clone, Copy, Debug)]
pub struct TrainParams {
    /// Seed of every random choice.
    pub seed: u64,
    /// Games to play.
    pub games: usize,
    /// Games are solved exactly from this many empty cells.
    pub solve_empties: u32,
    /// Plies of the alpha-beta player that plays the games.
    pub play_depth: u32,
    /// One move in this many is chosen at random.
    pub random_one_in: u64,
    /// Passes of gradient descent per stage.
    pub epochs: usize,
    /// Plies of the searches that label the positions with more than 15 empty
    /// cells (0: label them by their games too).
    pub label_depth: u32,
    /// At most this many positions labelled by search per stage.
    pub searched_per_stage: usize,
}

/// One labelled position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position, from the side to move.
    pub board: Board,
    /// The final disc margin for the side to move.
    pub margin: i8,
}

/// Negamax alpha-beta on the hand-written evaluation, `depth` plies.
fn playing_search(board: Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            let (own, opp) = board.counts();
            return othello::final_score(own, opp);
        }
        return -playing_search(passed, depth, -beta, -alpha);
    }
    if depth == 0 {
        return othello::evaluate(board);
    }
    let mut best = i32::MIN + 1;
    for square in Squares(moves) {
        let value = -playing_search(board.play(square), depth - 1, -beta, -alpha);
        if value > best {
            best = value;
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The move of the game player: random one time in `random_one_in`, else the best
/// by [`playing_search`] (ties broken at random).
fn playing_move(board: Board, params: &TrainParams, rng: &mut SplitMix64) -> Square {
    if rng.below(params.random_one_in) == 0 {
        return rng.square_of(board.moves());
    }
    let moves: Vec<Square> = Squares(board.moves()).collect();
    let mut best = Vec::new();
    let mut best_value = i32::MIN;
    for &square in &moves {
        let value = -playing_search(
            board.play(square),
            params.play_depth.saturating_sub(1),
            -i32::MAX,
            i32::MAX,
        );
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(square);
        }
    }
    best[rng.below(best.len() as u64) as usize]
}

/// Plays one game and labels its positions (see the module's documentation).
fn labelled_game(params: &TrainParams, rng: &mut SplitMix64, engine: &mut Engine) -> Vec<Sample> {
    // The positions before the solve, with who was to move (true: the first player).
    let mut played: Vec<(Board, bool)> = Vec::new();
    let mut board = Geometry::STANDARD.start();
    let mut first_to_move = true;
    let mut out = Vec::new();
    loop {
        let empties = (!(board.own | board.opp)).count_ones();
        if board.moves() == 0 {
            if board.pass().moves() == 0 {
                // Over before the solve: every position gets the final margin.
                let (own, opp) = board.counts();
                let margin = own as i32 - opp as i32;
                label(&played, first_to_move, margin, &mut out);
                return out;
            }
            board = board.pass();
            first_to_move = !first_to_move;
            continue;
        }
        if empties <= params.solve_empties {
            break;
        }
        played.push((board, first_to_move));
        let square = playing_move(board, params, rng);
        board = board.play(square);
        first_to_move = !first_to_move;
    }
    let solved = engine.solve(board);
    label(&played, first_to_move, solved.value, &mut out);
    // The solved line: each position with its own exact value.
    let mut thought = solved;
    loop {
        out.push(Sample {
            board,
            margin: thought.value as i8,
        });
        let Some(best) = thought.best else {
            break;
        };
        board = board.play(best);
        if board.moves() == 0 {
            board = board.pass();
            if board.moves() == 0 {
                break;
            }
        }
        thought = engine.solve(board);
    }
    out
}

/// Labels the `played` positions with `margin`, the final margin for the player who
/// is to move when `first_to_move` says so.
fn label(played: &[(Board, bool)], first_to_move: bool, margin: i32, out: &mut Vec<Sample>) {
    for &(board, first) in played {
        let m = if first == first_to_move {
            margin
        } else {
            -margin
        };
        out.push(Sample {
            board,
            margin: m as i8,
        });
    }
}

/// Plays and labels `params.games` games; `progress` is told each finished game's
/// number.
pub fn generate(params: &TrainParams, mut progress: impl FnMut(usize)) -> Vec<Sample> {
    let mut rng = SplitMix64::new(params.seed);
    let mut engine = Engine::for_time(Duration::from_millis(100));
    let mut out = Vec::new();
    for game in 0..params.games {
        out.extend(labelled_game(params, &mut rng, &mut engine));
        progress(game + 1);
    }
    out
}

/// How well one stage's weights fit.
#[derive(Clone, Copy, Debug)]
pub struct StageFit {
    /// Positions the stage was fitted on.
    pub positions: usize,
    /// Of them, positions labelled by a search rather than by their game.
    pub searched: usize,
    /// Root mean square error in discs on those positions.
    pub rms: f64,
    /// Root mean square of the labels themselves (the error of always saying 0).
    pub rms_labels: f64,
}

/// Stages fitted to the games' own labels: up to 15 empty cells, where the games
/// are solved exactly (from `solve_empties`) or nearly so.
const GAME_LABELLED_STAGES: usize = 3;

/// Fits each stage's weights, from the end of the game back: the first stages to
/// the games' labels, each later one to the values of a `label_depth`-ply search
/// (at most `searched_per_stage` positions, evenly spread) that evaluates its leaves
/// with the stages fitted so far (the stage itself starting as a copy of the one
/// before). A stage is fitted on its positions and those up to 2 empty cells
/// outside it, so that neighbouring stages do not jump. Returns the weights in
/// evaluation units and each stage's fit; `progress` hears of each stage fitted.
pub fn fit(
    samples: &[Sample],
    params: &TrainParams,
    mut progress: impl FnMut(usize, &StageFit),
) -> (Vec<Vec<i16>>, Vec<StageFit>) {
    let layout = layout();
    let per_stage = layout.per_stage;
    let mut stages = vec![vec![0i16; per_stage]; STAGES];
    let mut previous = vec![0f64; per_stage];
    let mut fits = Vec::new();
    for s in 0..STAGES {
        let low = (5 * s as u32 + 1).saturating_sub(2);
        let high = if s == STAGES - 1 {
            60
        } else {
            5 * s as u32 + 7
        };
        let window: Vec<&Sample> = samples
            .iter()
            .filter(|x| {
                let e = (!(x.board.own | x.board.opp)).count_ones();
                (low..=high).contains(&e)
            })
            .collect();
        let search = s >= GAME_LABELLED_STAGES && params.label_depth > 0;
        let labelled: Vec<(Board, f64)> = if search {
            let weights = Weights::from_stages(&stages);
            let mut table = Table::new(20);
            let far = Instant::now() + Duration::from_secs(1 << 30);
            let mut searcher = Searcher::new(&mut table, &weights, far).without_probcut();
            let step = window
                .len()
                .div_ceil(params.searched_per_stage.max(1))
                .max(1);
            window
                .iter()
                .step_by(step)
                .map(|x| {
                    let value =
                        searcher.midgame(x.board, params.label_depth as i32, -INFINITE, INFINITE);
                    (x.board, in_discs(value))
                })
                .collect()
        } else {
            window.iter().map(|x| (x.board, x.margin as f64)).collect()
        };
        let (w, mut stage_fit) = fit_stage(&labelled, &previous, params.epochs);
        stage_fit.searched = if search { labelled.len() } else { 0 };
        progress(s, &stage_fit);
        fits.push(stage_fit);
        let unit = othello::DISC as f64;
        stages[s] = w
            .iter()
            .map(|&v| (v * unit).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16)
            .collect();
        if s + 1 < STAGES {
            stages[s + 1] = stages[s].clone();
        }
        previous = w;
    }
    (stages, fits)
}

/// A search value in discs: the margin of a finished game, else the heuristic score.
fn in_discs(value: i32) -> f64 {
    if value.abs() > othello::WIN {
        disc_margin(value) as f64
    } else {
        value as f64 / othello::DISC as f64
    }
}

/// Least squares by full-batch gradient descent from `init`, each weight's step
/// scaled by how often it is used (a weight seen a few times moves less: a prior
/// pulling it towards its start).
fn fit_stage(labelled: &[(Board, f64)], init: &[f64], epochs: usize) -> (Vec<f64>, StageFit) {
    let layout = layout();
    let per_stage = layout.per_stage;
    let base = per_stage - EXTRAS;
    let features: Vec<Vec<u32>> = labelled
        .iter()
        .map(|(board, _)| {
            layout
                .indices(*board)
                .map(|i| layout.canonical[i])
                .collect()
        })
        .collect();
    let extra: Vec<[i32; EXTRAS]> = labelled.iter().map(|(board, _)| extras(*board)).collect();
    let targets: Vec<f64> = labelled.iter().map(|&(_, t)| t).collect();
    let mut count = vec![0f64; per_stage];
    for f in &features {
        for &i in f {
            count[i as usize] += 1.0;
        }
    }
    let mut extra_norm = [0f64; EXTRAS];
    for x in &extra {
        for k in 0..EXTRAS {
            extra_norm[k] += (x[k] as f64).powi(2);
        }
    }
    let mut w = init.to_vec();
    let mut gradient = vec![0f64; per_stage];
    let step = 1.0 / (layout.instances.len() + EXTRAS) as f64;
    let mut rms = 0.0;
    for _ in 0..epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        let mut squares = 0.0;
        for ((f, x), &t) in features.iter().zip(&extra).zip(&targets) {
            let mut prediction: f64 = f.iter().map(|&i| w[i as usize]).sum();
            for k in 0..EXTRAS {
                prediction += w[base + k] * x[k] as f64;
            }
            let error = t - prediction;
            squares += error * error;
            for &i in f {
                gradient[i as usize] += error;
            }
            for k in 0..EXTRAS {
                gradient[base + k] += error * x[k] as f64;
            }
        }
        rms = (squares / targets.len().max(1) as f64).sqrt();
        for i in 0..base {
            w[i] += step * gradient[i] / (count[i] + 8.0);
        }
        for k in 0..EXTRAS {
            w[base + k] += step * gradient[base + k] / (extra_norm[k] + 1.0);
        }
    }
    let rms_labels =
        (targets.iter().map(|t| t * t).sum::<f64>() / targets.len().max(1) as f64).sqrt();
    let fit = StageFit {
        positions: targets.len(),
        searched: 0,
        rms,
        rms_labels,
    };
    (w, fit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_labelled_with_exact_values_at_the_end() {
        let params = TrainParams {
            seed: 3,
            games: 2,
            solve_empties: 8,
            play_depth: 1,
            random_one_in: 4,
            epochs: 1,
            label_depth: 0,
            searched_per_stage: 0,
        };
        let samples = generate(&params, |_| {});
        assert!(samples.len() > 100);
        let mut engine = Engine::for_time(Duration::from_millis(10));
        for sample in samples.iter().filter(|x| {
            let e = (!(x.board.own | x.board.opp)).count_ones();
            e <= 8
        }) {
            assert_eq!(engine.solve(sample.board).value, sample.margin as i32);
        }
    }

    #[test]
    fn a_fit_learns_the_disc_balance_of_finished_lines() {
        // Labels that are the pattern-readable corner balance: the fit must get
        // far closer than always answering 0.
        let params = TrainParams {
            seed: 9,
            games: 40,
            solve_empties: 6,
            play_depth: 1,
            random_one_in: 2,
            epochs: 60,
            label_depth: 0,
            searched_per_stage: 0,
        };
        let samples: Vec<Sample> = generate(&params, |_| {})
            .into_iter()
            .map(|x| {
                let corners = 0x8100_0000_0000_0081u64;
                let margin = 4
                    * ((x.board.own & corners).count_ones() as i32
                        - (x.board.opp & corners).count_ones() as i32);
                Sample {
                    board: x.board,
                    margin: margin as i8,
                }
            })
            .collect();
        let (_, fits) = fit(&samples, &params, |_, _| {});
        for f in fits.iter().filter(|f| f.rms_labels > 1.0) {
            assert!(f.rms < 0.5 * f.rms_labels, "{f:?}");
        }
    }
}
