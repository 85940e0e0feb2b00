//! Fitting the stages' weights to labelled positions ([`fit`]): least squares,
//! stage by stage from the end of the game back.

use std::time::{Duration, Instant};

use super::{Sample, TrainParams};
use crate::board::Board;
use crate::engine::in_discs;
use crate::engine::search::{Searcher, INFINITE};
use crate::engine::table::Table;
use crate::eval::othello;
use crate::eval::pattern::{extras, layout, Weights, EXTRAS, STAGES};

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
    /// The stage kept its starting weights (`TrainParams::kept_stages`): the error
    /// is theirs.
    pub kept: bool,
}

/// Stages fitted to the games' own labels: up to 15 empty cells, where the games
/// are solved exactly (from `solve_empties`) or nearly so.
const GAME_LABELLED_STAGES: usize = 3;

/// Fits each stage's weights, from the end of the game back: the first stages to
/// the games' labels, each later one to the values of a `label_depth`-ply search
/// (at most `searched_per_stage` positions, evenly spread) that evaluates its leaves
/// with the stages fitted so far (the stage itself starting as a copy of the one
/// before, or as `start`'s stage when given: a previous generation, whose weights the
/// configurations seen rarely keep). A stage is fitted on its positions and those up
/// to 2 empty cells outside it, so that neighbouring stages do not jump. Returns the
/// weights in evaluation units and each stage's fit; `progress` hears of each stage
/// fitted.
pub fn fit(
    samples: &[Sample],
    params: &TrainParams,
    start: Option<&Weights>,
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
            window.iter().map(|x| (x.board, x.value as f64)).collect()
        };
        let unit = othello::DISC as f64;
        if let Some(start) = start {
            previous = start.stages()[s].iter().map(|&w| w as f64 / unit).collect();
        }
        // A kept stage gets one pass, which measures its error before any step.
        let kept = start.filter(|_| s < params.kept_stages);
        let epochs = if kept.is_some() { 1 } else { params.epochs };
        let (w, mut stage_fit) = fit_stage(&labelled, &previous, epochs);
        stage_fit.searched = if search { labelled.len() } else { 0 };
        stage_fit.kept = kept.is_some();
        progress(s, &stage_fit);
        fits.push(stage_fit);
        stages[s] = match kept {
            Some(start) => start.stages()[s].clone(),
            None => w
                .iter()
                .map(|&v| (v * unit).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16)
                .collect(),
        };
        if s + 1 < STAGES {
            stages[s + 1] = stages[s].clone();
        }
        previous = w;
    }
    (stages, fits)
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
        kept: false,
    };
    (w, fit)
}
