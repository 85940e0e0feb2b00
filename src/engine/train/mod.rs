//! Fits the weights of the pattern evaluation ([`crate::eval::pattern`]) to
//! positions labelled here, in generations. The first ([`generate`]) plays games
//! from the start by a small alpha-beta search on the hand-written evaluation with
//! random moves mixed in, and solves them exactly once few cells are left: the
//! positions of the solved line get their exact values, the earlier ones the final
//! margin (for the side to move) of their game. The stages are then fitted from the
//! end of the game back, by least squares (full-batch gradient descent, each
//! weight's step scaled by how often it is used): the last ones to those labels,
//! each earlier one to the values of short searches whose leaves the stages already
//! fitted evaluate (bootstrapping: the games' outcomes, decided by many later
//! mistakes, say little about a midgame position). Each later generation
//! ([`generate_with_teacher`]) learns from the one before, its teacher: the games
//! are played by the engine's own search on the teacher's weights, each position
//! labelled with its own search's value, and every stage is fitted starting from
//! the teacher's. Everything comes from one seed: the same arguments (and teacher)
//! give the same file.

use std::time::Duration;

use super::table::Table;
use super::{in_discs, Engine, Thought};
use crate::board::{Board, Geometry, Square, Squares};
use crate::eval::othello;
use crate::eval::pattern::{embedded, Weights};
use crate::splitmix::SplitMix64;

mod fit;
pub mod samples;
pub use fit::{fit, StageFit};

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
    /// cells (0: keep the labels the positions came with).
    pub label_depth: u32,
    /// At most this many positions labelled by search per stage.
    pub searched_per_stage: usize,
    /// In a teacher's games: the share of the game's final margin (from the exact
    /// solve) in each label, the rest being the position's own search value.
    pub outcome_share: f64,
    /// In a teacher's games: label each position by the mean of its searches of
    /// `play_depth` and `play_depth - 1` plies rather than by the first alone (an
    /// even-depth search is pessimistic for the side to move, an odd-depth one
    /// optimistic: [`super::tempo`]).
    pub odd_even: bool,
    /// In a teacher's games: the first this many plies are all random (diverse
    /// openings, as a match's are).
    pub random_opening: u32,
    /// In a teacher's games: positions in a range of empty cells labelled by deeper
    /// searches than the player's (None: every position by the player's own).
    pub deep_labels: Option<DeepLabels>,
    /// With a teacher: its first this many stages (the endgame's) are kept as they
    /// are rather than fitted again (their error is still measured).
    pub kept_stages: usize,
}

/// Deeper labels for part of a teacher's games: each position with
/// `fewest_empties..=most_empties` empty cells is labelled by a second engine's search
/// of `depth` plies (with `odd_even`, the mean of `depth - 1` and `depth`, in that
/// order), ProbCut as in play, in a table of its own so that the games are the same
/// (docs/engine.md, Training: what deeper labels cost and gain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepLabels {
    /// Plies of the labelling search (at least 2).
    pub depth: u32,
    /// The fewest empty cells of a position so labelled.
    pub fewest_empties: u32,
    /// The most empty cells of a position so labelled.
    pub most_empties: u32,
}

/// One labelled position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position, from the side to move.
    pub board: Board,
    /// Its label in discs for the side to move: the final margin of its game, its
    /// exact value, or the value of a teacher's search.
    pub value: f32,
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

/// A game played from the start until it is over or has `solve_empties` empty
/// cells left (see [`play_game`]).
pub(super) struct PlayedGame<T> {
    /// Each position played, what the player said of it, and who was to move there
    /// (true: the first player).
    pub(super) positions: Vec<(Board, T, bool)>,
    /// The position the game stopped at, its side to move to play next.
    last: Board,
    /// Whether the first player is to move at `last`.
    first_to_move: bool,
}

/// Plays a game from the start by `choose`, which gives each position's move and
/// what to keep of it, until the game is over or `solve_empties` cells are left.
pub(super) fn play_game<T>(
    solve_empties: u32,
    mut choose: impl FnMut(Board) -> (Square, T),
) -> PlayedGame<T> {
    let mut positions = Vec::new();
    let mut board = Geometry::STANDARD.start();
    let mut first_to_move = true;
    loop {
        if board.moves() == 0 {
            if board.pass().moves() == 0 {
                break;
            }
            board = board.pass();
            first_to_move = !first_to_move;
            continue;
        }
        if (!(board.own | board.opp)).count_ones() <= solve_empties {
            break;
        }
        let (square, kept) = choose(board);
        positions.push((board, kept, first_to_move));
        board = board.play(square);
        first_to_move = !first_to_move;
    }
    PlayedGame {
        positions,
        last: board,
        first_to_move,
    }
}

impl<T: Copy> PlayedGame<T> {
    /// The game's samples: each position played labelled by `label` from what was
    /// kept of it and the game's final margin for its side to move, then the
    /// positions of the exact solve's line (when the game is not over) with their
    /// exact values. `engine` solves, its root moves ordered by `weights`.
    fn labelled(
        &self,
        engine: &mut Engine,
        weights: &Weights,
        label: impl Fn(T, i32) -> f64,
    ) -> Vec<Sample> {
        let mut solved = Vec::new();
        // The final margin for the side to move of `last`.
        let margin = if self.last.moves() == 0 {
            let (own, opp) = self.last.counts();
            own as i32 - opp as i32
        } else {
            let thought = engine.solve_with(self.last, weights);
            solved_line(self.last, thought, engine, weights, &mut solved);
            thought.value
        };
        let mut out: Vec<Sample> = self
            .positions
            .iter()
            .map(|&(board, kept, first)| {
                let outcome = if first == self.first_to_move {
                    margin
                } else {
                    -margin
                };
                Sample {
                    board,
                    value: label(kept, outcome) as f32,
                }
            })
            .collect();
        out.append(&mut solved);
        out
    }
}

/// Plays one game and labels its positions (see the module's documentation).
fn labelled_game(params: &TrainParams, rng: &mut SplitMix64, engine: &mut Engine) -> Vec<Sample> {
    let game = play_game(params.solve_empties, |board| {
        (playing_move(board, params, rng), ())
    });
    game.labelled(engine, embedded(), |(), outcome| outcome as f64)
}

/// Labels `board` (whose exact solve is `solved`) and the positions of its solved
/// line with their exact values; `weights` order the solves' root moves.
fn solved_line(
    mut board: Board,
    solved: Thought,
    engine: &mut Engine,
    weights: &Weights,
    out: &mut Vec<Sample>,
) {
    let mut thought = solved;
    loop {
        out.push(Sample {
            board,
            value: thought.value as f32,
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
        thought = engine.solve_with(board, weights);
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

/// Plays and labels `params.games` games with the `teacher` weights (see
/// `teacher_game`) on `threads` threads; `progress` hears of each finished game.
/// Each game has its own seed and tables, and the games are returned in order, so
/// the result does not depend on `threads`.
pub fn generate_with_teacher(
    params: &TrainParams,
    teacher: &Weights,
    threads: usize,
    progress: impl Fn() + Sync,
) -> Vec<Sample> {
    let per_thread = params.games.div_ceil(threads.max(1)).max(1);
    let mut games: Vec<Vec<Sample>> = vec![Vec::new(); params.games];
    std::thread::scope(|scope| {
        for (t, chunk) in games.chunks_mut(per_thread).enumerate() {
            let progress = &progress;
            let first = t * per_thread;
            scope.spawn(move || {
                for (i, game) in chunk.iter_mut().enumerate() {
                    *game = teacher_game(params, teacher, first + i);
                    progress();
                }
            });
        }
    });
    games.concat()
}

/// The searches of [`teacher_game`]'s player go into a table of this many bits.
const TEACHER_TABLE_BITS: u32 = 16;

/// Game number `game` played by a `play_depth`-ply search (iterative deepening,
/// ProbCut as in play) on `teacher`'s weights, one move in `random_one_in` at
/// random, as are all of the first `random_opening`. Each position before the exact
/// solve is labelled with the value of its own search (in the range of
/// `deep_labels`, of the deeper search's), mixed by `outcome_share` with the game's
/// final margin; those of the solved line with their exact values.
fn teacher_game(params: &TrainParams, teacher: &Weights, game: usize) -> Vec<Sample> {
    let mut rng =
        SplitMix64::new(params.seed ^ (game as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut player = Engine::with_table(Table::new(TEACHER_TABLE_BITS));
    let mut labeller = params
        .deep_labels
        .map(|deep| (deep, Engine::with_table(Table::new(TEACHER_TABLE_BITS))));
    let played = play_game(params.solve_empties, |board| {
        let empties = (!(board.own | board.opp)).count_ones();
        let deep_label = labeller
            .as_mut()
            .filter(|(deep, _)| (deep.fewest_empties..=deep.most_empties).contains(&empties))
            .map(|(deep, engine)| {
                let mut label =
                    |depth| in_discs(engine.search_to_depth_with(board, depth, teacher).value);
                if params.odd_even {
                    let shallower = label(deep.depth - 1);
                    (shallower + label(deep.depth)) / 2.0
                } else {
                    label(deep.depth)
                }
            });
        // The shallower search first, so that the deeper one's results in the table
        // do not answer for it.
        let shallower = (params.odd_even && params.play_depth > 1).then(|| {
            in_discs(
                player
                    .search_to_depth_with(board, params.play_depth - 1, teacher)
                    .value,
            )
        });
        let thought = player.search_to_depth_with(board, params.play_depth, teacher);
        let played = 60 - empties;
        let square = if played < params.random_opening || rng.below(params.random_one_in) == 0 {
            rng.square_of(board.moves())
        } else {
            thought.best.expect("a position with moves")
        };
        let searched = in_discs(thought.value);
        let own_label = shallower.map_or(searched, |value| (searched + value) / 2.0);
        (square, deep_label.unwrap_or(own_label))
    });
    let mut engine = Engine::for_time(Duration::from_millis(10));
    let share = params.outcome_share;
    played.labelled(&mut engine, teacher, |searched, outcome| {
        (1.0 - share) * searched + share * outcome as f64
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::STAGES;

    /// Parameters for a quick test: `games` games from `seed`, solved from
    /// `solve_empties` empty cells, played `play_depth` plies deep with one move in
    /// `random_one_in` at random; one epoch, labels from the games alone.
    fn small_params(
        seed: u64,
        games: usize,
        solve_empties: u32,
        play_depth: u32,
        random_one_in: u64,
    ) -> TrainParams {
        TrainParams {
            seed,
            games,
            solve_empties,
            play_depth,
            random_one_in,
            epochs: 1,
            label_depth: 0,
            searched_per_stage: 0,
            outcome_share: 0.0,
            odd_even: false,
            random_opening: 0,
            deep_labels: None,
            kept_stages: 0,
        }
    }

    #[test]
    fn games_are_labelled_with_exact_values_at_the_end() {
        let params = small_params(3, 2, 8, 1, 4);
        let samples = generate(&params, |_| {});
        assert!(samples.len() > 100);
        let mut engine = Engine::for_time(Duration::from_millis(10));
        for sample in samples.iter().filter(|x| {
            let e = (!(x.board.own | x.board.opp)).count_ones();
            e <= 8
        }) {
            assert_eq!(engine.solve(sample.board).value as f32, sample.value);
        }
    }

    #[test]
    fn a_fit_learns_the_disc_balance_of_finished_lines() {
        // Labels that are the pattern-readable corner balance: the fit must get
        // far closer than always answering 0.
        let params = TrainParams {
            epochs: 60,
            ..small_params(9, 40, 6, 1, 2)
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
                    value: margin as f32,
                }
            })
            .collect();
        let (_, fits) = fit(&samples, &params, None, |_, _| {});
        for f in fits.iter().filter(|f| f.rms_labels > 1.0) {
            assert!(f.rms < 0.5 * f.rms_labels, "{f:?}");
        }
    }

    #[test]
    fn teacher_games_do_not_depend_on_the_thread_count() {
        let params = small_params(5, 5, 8, 2, 3);
        let teacher = embedded();
        let one = generate_with_teacher(&params, teacher, 1, || {});
        let three = generate_with_teacher(&params, teacher, 3, || {});
        assert!(one.len() > 5 * 40, "{} positions", one.len());
        let key = |x: &Sample| (x.board.own, x.board.opp, x.value.to_bits());
        assert_eq!(
            one.iter().map(key).collect::<Vec<_>>(),
            three.iter().map(key).collect::<Vec<_>>()
        );
        // The games differ, and their solved ends carry exact values.
        let at_50: std::collections::HashSet<(u64, u64)> = one
            .iter()
            .filter(|x| (!(x.board.own | x.board.opp)).count_ones() == 50)
            .map(|x| (x.board.own, x.board.opp))
            .collect();
        assert!(at_50.len() > 1, "the games are all the same");
        let mut engine = Engine::for_time(Duration::from_millis(10));
        for x in one
            .iter()
            .filter(|x| (!(x.board.own | x.board.opp)).count_ones() <= 8)
        {
            assert_eq!(engine.solve(x.board).value as f32, x.value);
        }
        // The others carry their own 2-ply search's value, in discs.
        let x = one[0];
        let mut player = Engine::with_table(Table::new(12));
        let value = player.search_to_depth_with(x.board, 2, teacher).value;
        assert_eq!(in_discs(value) as f32, x.value);
    }

    /// With `odd_even` the first position's label is the mean of its 2- and 3-ply
    /// searches (in that order, in the player's fresh table), and the labels differ
    /// from those of the deeper search alone.
    #[test]
    fn with_odd_even_a_teacher_game_labels_by_the_mean_of_two_depths() {
        let mut params = TrainParams {
            odd_even: true,
            ..small_params(9, 1, 10, 3, 4)
        };
        let teacher = embedded();
        let both = generate_with_teacher(&params, teacher, 1, || {});
        let mut player = Engine::with_table(Table::new(TEACHER_TABLE_BITS));
        let first = both[0];
        let two = in_discs(player.search_to_depth_with(first.board, 2, teacher).value);
        let three = in_discs(player.search_to_depth_with(first.board, 3, teacher).value);
        assert_eq!(first.value, ((two + three) / 2.0) as f32);
        params.odd_even = false;
        let deeper = generate_with_teacher(&params, teacher, 1, || {});
        assert_eq!(deeper[0].value, three as f32);
        let empties = |x: &Sample| (!(x.board.own | x.board.opp)).count_ones();
        let differing = both
            .iter()
            .zip(&deeper)
            .take_while(|(a, b)| a.board == b.board && empties(a) > 10)
            .filter(|(a, b)| a.value != b.value)
            .count();
        assert!(differing > 10, "{differing} labels differ");
    }

    /// Kept stages are the teacher's, byte for byte, and their error is measured;
    /// the others are fitted as without them.
    #[test]
    fn kept_stages_stay_the_teachers_and_the_others_are_fitted_alike() {
        let all = TrainParams {
            epochs: 3,
            ..small_params(2, 2, 8, 1, 4)
        };
        let teacher = embedded();
        let samples = generate_with_teacher(&all, teacher, 1, || {});
        let some = TrainParams {
            kept_stages: 5,
            ..all
        };
        let (fitted, _) = fit(&samples, &all, Some(teacher), |_, _| {});
        let (kept, fits) = fit(&samples, &some, Some(teacher), |_, _| {});
        for s in 0..STAGES {
            if s < 5 {
                assert_eq!(kept[s], teacher.stages()[s], "stage {s}");
                assert_ne!(fitted[s], teacher.stages()[s], "stage {s} was not moved");
                assert!(fits[s].kept && fits[s].rms > 0.0, "{:?}", fits[s]);
            } else {
                assert_eq!(kept[s], fitted[s], "stage {s}");
                assert!(!fits[s].kept);
            }
        }
    }

    /// With `deep_labels` the games are the same; the positions in its range carry
    /// the mean of a second engine's 3- and 4-ply searches (in that order, in a table
    /// of its own, fresh each game), the others the player's labels.
    #[test]
    fn deep_labels_label_their_range_by_a_second_engine_and_leave_the_games_alone() {
        let plain = TrainParams {
            odd_even: true,
            ..small_params(4, 1, 10, 2, 4)
        };
        let deep = TrainParams {
            deep_labels: Some(DeepLabels {
                depth: 4,
                fewest_empties: 40,
                most_empties: 50,
            }),
            ..plain
        };
        let teacher = embedded();
        let own = generate_with_teacher(&plain, teacher, 1, || {});
        let deeper = generate_with_teacher(&deep, teacher, 1, || {});
        let boards = |samples: &[Sample]| samples.iter().map(|x| x.board).collect::<Vec<_>>();
        assert_eq!(boards(&own), boards(&deeper));
        let mut labeller = Engine::with_table(Table::new(TEACHER_TABLE_BITS));
        let mut label =
            |board, depth| in_discs(labeller.search_to_depth_with(board, depth, teacher).value);
        let mut changed = 0;
        for (own, deeper) in own.iter().zip(&deeper) {
            let empties = (!(own.board.own | own.board.opp)).count_ones();
            if (40..=50).contains(&empties) {
                let three = label(deeper.board, 3);
                let four = label(deeper.board, 4);
                assert_eq!(
                    deeper.value,
                    ((three + four) / 2.0) as f32,
                    "{empties} empties"
                );
                changed += usize::from(own.value != deeper.value);
            } else {
                assert_eq!(own.value, deeper.value, "{empties} empties");
            }
        }
        assert!(changed >= 5, "{changed} labels changed");
    }

    #[test]
    fn with_the_whole_outcome_a_teacher_game_labels_each_position_by_its_final_margin() {
        let params = TrainParams {
            outcome_share: 1.0,
            ..small_params(8, 1, 8, 1, 2)
        };
        let samples = generate_with_teacher(&params, embedded(), 1, || {});
        let empties = |x: &Sample| (!(x.board.own | x.board.opp)).count_ones();
        let margin = samples
            .iter()
            .find(|x| empties(x) <= 8)
            .unwrap()
            .value
            .abs();
        assert!(margin > 0.0, "a drawn game tests no sign");
        let searched: Vec<&Sample> = samples.iter().filter(|x| empties(x) > 8).collect();
        assert!(searched.len() > 40);
        for pair in searched.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert_eq!(a.value.abs(), margin);
            // Without a pass between them, the two sides see opposite margins.
            if Squares(a.board.moves()).any(|m| a.board.play(m) == b.board) {
                assert_eq!(a.value, -b.value);
            }
        }
    }

    /// With `random_opening` the games part from the first ply; without it and
    /// without random moves the teacher plays every game alike.
    #[test]
    fn a_random_opening_makes_the_games_differ_from_the_start() {
        let alike = small_params(6, 6, 12, 2, u64::MAX);
        let opened = TrainParams {
            random_opening: 4,
            ..alike
        };
        let distinct_at = |params: &TrainParams, empties: u32| {
            generate_with_teacher(params, embedded(), 1, || {})
                .iter()
                .filter(|x| (!(x.board.own | x.board.opp)).count_ones() == empties)
                .map(|x| (x.board.own, x.board.opp))
                .collect::<std::collections::HashSet<_>>()
                .len()
        };
        assert_eq!(distinct_at(&alike, 56), 1);
        assert_eq!(distinct_at(&alike, 40), 1);
        assert!(distinct_at(&opened, 56) >= 4, "the openings repeat");
        assert!(distinct_at(&opened, 40) >= 5, "the games meet again");
    }
}
