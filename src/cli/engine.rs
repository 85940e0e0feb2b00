//! `reversi engine`: tools for the timed engine itself (exact solves, training the
//! evaluation).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::grader::write_whole;
use super::UsageError;
use crate::board::{Board, Geometry};
use crate::engine::tempo::{measure, TempoParams};
use crate::engine::train::{
    fit, generate, generate_with_teacher, samples as samples_file, DeepLabels, Sample, TrainParams,
};
use crate::engine::{in_discs, Engine, Thought};
use crate::eval::pattern::{embedded, Weights, STAGES};
use crate::format::umea;
use crate::splitmix::SplitMix64;

/// Arguments of `reversi engine`.
#[derive(Debug, Args)]
pub struct EngineArgs {
    #[command(subcommand)]
    command: EngineCommand,
}

#[derive(Debug, Subcommand)]
enum EngineCommand {
    /// Speak the NBoard protocol on standard input and output (NBoard and other Othello
    /// GUIs and referees run engines so): `set depth N` plays a fixed-depth search,
    /// exact from 2 x N empty cells (at most 20); docs/engine.md.
    Nboard {
        /// The search's plies until the GUI sends `set depth`.
        #[arg(long, default_value_t = super::nboard::DEFAULT_DEPTH,
              value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
    },
    /// Solve a position exactly: prints `value V best MOVE nodes N in T s` (V the
    /// final disc margin for the side to move with perfect play, MOVE `(row,col)`
    /// or `pass`).
    Solve {
        /// The position as `reversi umea` reads it: W or B (side to move), then 64
        /// cells row-major, E, O (white) or X (black).
        position: String,
        /// Threads that share the search (the value is the same for any number; the
        /// node count and the best move among equals may change from run to run).
        #[arg(long, default_value_t = 1, value_parser = threads_parser())]
        threads: usize,
        /// Order the moves by this weights file (as `reversi engine train` writes)
        /// rather than the embedded weights: the value is the same, the nodes are not.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
    /// Search a position to a fixed depth as the timed engine deepens (ProbCut
    /// included unless `--full-width`, no clock, no exact solve): prints `value V best
    /// MOVE nodes N in T s` (V in discs for the side to move: the heuristic value, or
    /// a final margin when the search's line ends the game; exact when D is at least
    /// the empty cells). The measure of the evaluation, against exact solves
    /// (`scripts/strength.sh evalerr`) and in fixed-depth play (`scripts/strength.sh
    /// depth`).
    Search {
        /// The position, as for `reversi engine solve`.
        position: String,
        /// Plies searched, 1 to 60.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Evaluate with this weights file (as `reversi engine train` writes) rather
        /// than the embedded weights.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
        /// Search every move to the full depth (no ProbCut): the evaluation's own
        /// measure, beside an engine searching without selectivity.
        #[arg(long)]
        full_width: bool,
    },
    /// Measure the search's speed: fixed-depth searches (a fresh table each) of
    /// positions of random games (SplitMix64 from `--seed`, 2 positions each with
    /// 44, 40, 36, 32, 28 and 24 empty cells); prints each search's nodes and time,
    /// then the total nodes per second.
    Speed {
        /// Plies of every search.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Seed of the random games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads that share each search.
        #[arg(long, default_value_t = 1, value_parser = threads_parser())]
        threads: usize,
    },
    /// Fit the pattern evaluation's weights to positions labelled by exact solves of
    /// self-played games and write them (docs/engine.md: the recipe of
    /// src/eval/patterns.bin). The same arguments give the same file.
    Train {
        /// Where to write the weights (without it, with --save-samples: save the
        /// positions and fit nothing).
        #[arg(long, required_unless_present = "save_samples")]
        out: Option<std::path::PathBuf>,
        /// Seed of every random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games to play.
        #[arg(long, default_value_t = 20_000)]
        games: usize,
        /// Games are solved exactly from this many empty cells.
        #[arg(long, default_value_t = 14)]
        solve_empties: u32,
        /// Plies searched by the player of the games (hand-written evaluation).
        #[arg(long, default_value_t = 2)]
        play_depth: u32,
        /// One move in this many is random.
        #[arg(long, default_value_t = 8)]
        random_one_in: u64,
        /// Passes of gradient descent per stage.
        #[arg(long, default_value_t = 200)]
        epochs: usize,
        /// Plies of the searches that label positions with more than 15 empty
        /// cells (0: label them by the outcome of their game).
        #[arg(long, default_value_t = 4)]
        label_depth: u32,
        /// At most this many positions labelled by search per stage.
        #[arg(long, default_value_t = 60_000)]
        searched_per_stage: usize,
        /// Play the games with a pattern search of `--play-depth` plies on the
        /// weights of this file (a previous generation), and label each position
        /// before the exact solve with the value of its own search, rather than
        /// bootstrapping stage by stage; the fit starts from these weights.
        #[arg(long, conflicts_with_all = ["label_depth", "searched_per_stage"])]
        teacher: Option<std::path::PathBuf>,
        /// With --teacher: the share of the game's final margin (exact from
        /// `--solve-empties`) in each label, the rest being the position's own
        /// search value.
        #[arg(long, default_value_t = 0.0, requires = "teacher")]
        outcome_share: f64,
        /// With --teacher: label each position by the mean of its searches of
        /// --play-depth and one ply less, rather than by the first alone (the
        /// odd-even effect, `reversi engine tempo`).
        #[arg(long, requires = "teacher")]
        odd_even: bool,
        /// With --teacher: the first this many plies of each game are all random.
        #[arg(long, default_value_t = 0, requires = "teacher")]
        random_opening: u32,
        /// Threads that play the teacher's games (the result is the same for any
        /// number).
        #[arg(long, default_value_t = 1, requires = "teacher")]
        threads: usize,
        /// With --teacher: label the positions with --deep-label-empties empty
        /// cells by a second engine's search of this many plies (with --odd-even,
        /// the mean of this and one ply less) rather than by the player's own.
        #[arg(long, requires = "teacher", value_parser = clap::value_parser!(u32).range(2..))]
        deep_label_depth: Option<u32>,
        /// The empty cells of the positions --deep-label-depth labels, FEWEST-MOST.
        #[arg(long, default_value = "26-45", requires = "deep_label_depth", value_parser = parse_empties_range)]
        deep_label_empties: (u32, u32),
        /// With --teacher: its first this many stages (positions with up to 5 x
        /// this many empty cells, where the exact solver orders its moves by them)
        /// keep its weights rather than being fitted again.
        #[arg(long, default_value_t = 0, requires = "teacher",
              value_parser = clap::value_parser!(u32).range(0..=12))]
        keep_teacher_stages: u32,
        /// Fit also on the labelled positions of this samples file (as
        /// --save-samples writes), before those of this run's games; repeat it for
        /// several files. With --games 0, fit on the files' positions alone.
        #[arg(long, value_name = "FILE")]
        samples: Vec<std::path::PathBuf>,
        /// Write this run's own labelled positions (not those of --samples) to this
        /// file before the fit, for a later run's --samples.
        #[arg(long, value_name = "FILE")]
        save_samples: Option<std::path::PathBuf>,
    },
    /// Measure a weights file's odd-even effect: by stage of the leaves, how much
    /// higher a search of d + 1 plies values a position than one of d plies, in
    /// discs for the side to move, over positions of seeded games.
    Tempo {
        /// The weights to measure.
        weights: std::path::PathBuf,
        /// Seed of the games whose positions are measured.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games to play.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// The even depth d of the two searches (d and d + 1 plies).
        #[arg(long, default_value_t = 4)]
        depth: u32,
    },
}

/// Runs `reversi engine`.
pub(super) fn run(args: EngineArgs) -> Result<()> {
    match args.command {
        EngineCommand::Nboard { depth } => {
            super::nboard::serve(
                std::io::stdin().lock(),
                std::io::stdout().lock(),
                std::io::stderr().lock(),
                depth,
            )?;
            Ok(())
        }
        EngineCommand::Solve {
            position,
            threads,
            weights,
        } => {
            let board = read_position(&position)?;
            let weights = optional_weights("--weights", weights.as_deref())?;
            let weights = weights.as_ref().unwrap_or_else(|| embedded());
            let started = Instant::now();
            let thought = Engine::new()
                .with_threads(threads)?
                .solve_with(board, weights);
            print_thought(thought.value, &thought, started);
            Ok(())
        }
        EngineCommand::Search {
            position,
            depth,
            weights,
            full_width,
        } => {
            let board = read_position(&position)?;
            let weights = optional_weights("--weights", weights.as_deref())?;
            let weights = weights.as_ref().unwrap_or_else(|| embedded());
            let started = Instant::now();
            let mut engine = Engine::new();
            let thought = if full_width {
                engine.full_width_search_to_depth_with(board, depth, weights)
            } else {
                engine.search_to_depth_with(board, depth, weights)
            };
            print_thought(
                format_args!("{:.2}", in_discs(thought.value)),
                &thought,
                started,
            );
            Ok(())
        }
        EngineCommand::Speed {
            depth,
            seed,
            threads,
        } => {
            let (mut nodes, mut seconds) = (0u64, 0f64);
            for board in speed_positions(seed) {
                let mut engine = Engine::new().with_threads(threads)?;
                let started = Instant::now();
                let thought = engine.search_to_depth(board, depth);
                let elapsed = started.elapsed().as_secs_f64();
                println!(
                    "{} empties: best {} nodes {} in {elapsed:.3} s",
                    (!(board.own | board.opp)).count_ones(),
                    umea::answer(thought.best),
                    thought.nodes
                );
                nodes += thought.nodes;
                seconds += elapsed;
            }
            println!(
                "depth {depth}: {nodes} nodes in {seconds:.3} s, {:.2}M nodes/s",
                nodes as f64 / seconds / 1e6
            );
            Ok(())
        }
        EngineCommand::Train {
            out,
            seed,
            games,
            solve_empties,
            play_depth,
            random_one_in,
            epochs,
            label_depth,
            searched_per_stage,
            teacher,
            outcome_share,
            odd_even,
            random_opening,
            threads,
            deep_label_depth,
            deep_label_empties,
            keep_teacher_stages,
            samples: samples_files,
            save_samples,
        } => {
            if random_one_in == 0 || play_depth == 0 {
                return Err(UsageError::BadArgument {
                    what: "--random-one-in and --play-depth".into(),
                    message: "expected at least 1".into(),
                }
                .into());
            }
            if !(0.0..=1.0).contains(&outcome_share) {
                return Err(UsageError::BadArgument {
                    what: "--outcome-share".into(),
                    message: format!("expected a share from 0 to 1, found {outcome_share}"),
                }
                .into());
            }
            let teacher = optional_weights("--teacher", teacher.as_deref())?;
            let mut samples = Vec::new();
            for path in &samples_files {
                samples.extend(read_samples(path)?);
            }
            let loaded = samples.len();
            let params = TrainParams {
                seed,
                games,
                solve_empties,
                play_depth,
                random_one_in,
                epochs,
                // A teacher's games come labelled.
                label_depth: if teacher.is_some() { 0 } else { label_depth },
                searched_per_stage,
                outcome_share,
                odd_even,
                random_opening,
                deep_labels: deep_label_depth.map(|depth| DeepLabels {
                    depth,
                    fewest_empties: deep_label_empties.0,
                    most_empties: deep_label_empties.1,
                }),
                kept_stages: keep_teacher_stages as usize,
            };
            let started = Instant::now();
            let report = |game: usize| {
                if game.is_multiple_of(1000) {
                    eprintln!("{game} games ({:.0} s)", started.elapsed().as_secs_f64());
                }
            };
            let played = match &teacher {
                Some(teacher) => {
                    let finished = AtomicUsize::new(0);
                    generate_with_teacher(&params, teacher, threads, || {
                        report(finished.fetch_add(1, Ordering::Relaxed) + 1)
                    })
                }
                None => generate(&params, report),
            };
            if let Some(path) = &save_samples {
                write_whole(path, &samples_file::to_bytes(&played))?;
            }
            eprintln!(
                "{} positions from {games} games in {:.0} s, {loaded} from samples files",
                played.len(),
                started.elapsed().as_secs_f64()
            );
            let Some(out) = out else {
                return Ok(());
            };
            samples.extend(played);
            let (weights, _) = fit(&samples, &params, teacher.as_ref(), |stage, f| {
                let searched = if teacher.is_some() {
                    String::new()
                } else {
                    format!(" ({} labelled by search)", f.searched)
                };
                let kept = if f.kept { " (the teacher's, kept)" } else { "" };
                eprintln!(
                    "stage {stage} ({}-{} empties): {} positions{searched}, \
                     rms error {:.2} discs{kept} (labels {:.2}) at {:.0} s",
                    5 * stage + 1,
                    5 * stage + 5,
                    f.positions,
                    f.rms,
                    f.rms_labels,
                    started.elapsed().as_secs_f64()
                );
            });
            write_whole(&out, &Weights::to_bytes(&weights))?;
            eprintln!(
                "wrote {} in {:.0} s",
                out.display(),
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        EngineCommand::Tempo {
            weights,
            seed,
            games,
            depth,
        } => {
            let weights = read_weights("the weights file", &weights)?;
            let alternation = measure(&weights, &TempoParams { seed, games, depth });
            println!(
                "stage  leaves  positions  alternation (discs: {} plies less {depth})",
                depth + 1
            );
            for s in 0..STAGES {
                println!(
                    "{s:5}  {:2}-{:2}   {:9}  {:+6.2}",
                    5 * s + 1,
                    5 * s + 5,
                    alternation.positions[s],
                    alternation.mean[s]
                );
            }
            Ok(())
        }
    }
}

/// The parser of a `--threads` option: at least 1.
pub(super) fn threads_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..)
}

/// The empty cells of `--deep-label-empties`: `FEWEST-MOST`, from 1 to 60.
fn parse_empties_range(text: &str) -> std::result::Result<(u32, u32), String> {
    let expected = || format!("expected FEWEST-MOST empty cells such as 26-45, found {text:?}");
    let (fewest, most) = text.split_once('-').ok_or_else(expected)?;
    let (fewest, most): (u32, u32) = (
        fewest.trim().parse().map_err(|_| expected())?,
        most.trim().parse().map_err(|_| expected())?,
    );
    if !(1..=most).contains(&fewest) || most > 60 {
        return Err(format!(
            "expected 1 <= FEWEST <= MOST <= 60, found {text:?}"
        ));
    }
    Ok((fewest, most))
}

/// The position argument of `solve` and `search`, in `reversi umea`'s form.
fn read_position(text: &str) -> Result<Board> {
    let position = umea::parse_position(text).map_err(|e| UsageError::BadArgument {
        what: "the position".into(),
        message: e.to_string(),
    })?;
    Ok(position.board())
}

/// The line `solve` and `search` print: `value V best MOVE nodes N in T s`, T since
/// `started`.
fn print_thought(value: impl std::fmt::Display, thought: &Thought, started: Instant) {
    println!(
        "value {value} best {} nodes {} in {:.3} s",
        umea::answer(thought.best),
        thought.nodes,
        started.elapsed().as_secs_f64()
    );
}

/// The weights file `path` of the option `what`, when given.
fn optional_weights(what: &str, path: Option<&std::path::Path>) -> Result<Option<Weights>> {
    path.map(|path| read_weights(what, path)).transpose()
}

/// Reads the samples file `path` (an argument of --samples).
fn read_samples(path: &std::path::Path) -> Result<Vec<Sample>> {
    read_file("--samples", path, samples_file::parse)
}

/// Reads the weights file `path` for the argument `what`.
fn read_weights(what: &str, path: &std::path::Path) -> Result<Weights> {
    read_file(what, path, Weights::parse)
}

/// Reads the file `path` given for the argument `what` by `parse`; a file that
/// cannot be read or parsed is refused with the argument, the path and why.
fn read_file<T, E: std::fmt::Display>(
    what: &str,
    path: &std::path::Path,
    parse: impl FnOnce(&[u8]) -> std::result::Result<T, E>,
) -> Result<T> {
    let refused = |message: String| UsageError::BadArgument {
        what: format!("{what} {}", path.display()),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| refused(e.to_string()))?;
    Ok(parse(&bytes).map_err(|e| refused(e.to_string()))?)
}

/// The positions `reversi engine speed` searches: random games from `seed`, each cut
/// at 44, 40, 36, 32, 28 and 24 empty cells in turn (two games per count; a game that
/// ends early is replaced by the next).
fn speed_positions(seed: u64) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for empties in [44, 40, 36, 32, 28, 24] {
        let mut found = 0;
        while found < 2 {
            let mut board = Geometry::STANDARD.start();
            while (!(board.own | board.opp)).count_ones() > empties {
                match rng.step(board) {
                    Some(next) => board = next,
                    None => break,
                }
            }
            if board.moves() != 0 && (!(board.own | board.opp)).count_ones() == empties {
                out.push(board);
                found += 1;
            }
        }
    }
    out
}
