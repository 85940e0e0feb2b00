//! `reversi umea`: one move for the Umea course's harness, and a match runner.

use std::time::Duration;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::sandbox::SandboxArgs;
use super::{process_started, UsageError};
use crate::arena::{self, Ending, ForfeitReason, Program};
use crate::engine::naive::{naive_move, NAIVE_DEPTH};
use crate::engine::{deadline_for, Engine};
use crate::format::umea;
use crate::rules::Color;

/// Arguments of `reversi umea`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct UmeaArgs {
    #[command(subcommand)]
    command: Option<UmeaCommand>,
    /// The position: W or B (side to move), then 64 cells row-major, E, O (white) or X (black).
    #[arg(required = true)]
    position: Option<String>,
    /// The time limit in seconds, counted from the start of the program.
    #[arg(required = true, allow_hyphen_values = true)]
    seconds: Option<String>,
    /// 1: a compile step, exit at once; 0 (or nothing): answer.
    compile: Option<String>,
    /// Play as the course's naive opponent (alpha-beta depth 7 on white - black discs).
    #[arg(long)]
    naive: bool,
    /// Print the search's depth, value and node count on standard error.
    #[arg(long)]
    verbose: bool,
    /// Threads that share the engine's search (not with --naive).
    #[arg(long, default_value_t = 1, value_parser = super::engine::threads_parser(), conflicts_with = "naive")]
    threads: usize,
}

#[derive(Debug, Subcommand)]
enum UmeaCommand {
    /// Play programs against each other the way the course's `othellostart` does,
    /// checking every answer.
    Match(MatchArgs),
}

#[derive(Debug, Args)]
struct MatchArgs {
    /// Program A, white (a shell command; position, seconds and 0 are appended).
    #[arg(long, value_name = "CMD")]
    white: String,
    /// Program B, black.
    #[arg(long, value_name = "CMD")]
    black: String,
    /// The time limit given to both programs.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// The time limit of program A only (default: --seconds).
    #[arg(long)]
    white_seconds: Option<f64>,
    /// The time limit of program B only (default: --seconds).
    #[arg(long)]
    black_seconds: Option<f64>,
    /// Games to play.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Swap colours every second game (same opening): A and B play each opening with
    /// both colours.
    #[arg(long)]
    alternate: bool,
    /// Random plies from the course's start before a game starts (0: the start itself).
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

/// Runs `reversi umea`: the answer is due SECONDS after the process started.
pub(super) fn run(args: UmeaArgs) -> Result<()> {
    if let Some(UmeaCommand::Match(args)) = args.command {
        return run_match(&args);
    }
    let started = process_started();
    match args.compile.as_deref() {
        Some("1") => return Ok(()),
        None | Some("0") => {}
        Some(other) => {
            return Err(UsageError::BadArgument {
                what: "the third argument".into(),
                message: format!("expected 0 (answer) or 1 (compile step only); found {other:?}"),
            }
            .into())
        }
    }
    let text = args.position.unwrap_or_default();
    let position = umea::parse_position(&text).map_err(|e| UsageError::BadArgument {
        what: "the position (first argument)".into(),
        message: e.to_string(),
    })?;
    let text = args.seconds.unwrap_or_default();
    let seconds = text
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| UsageError::BadArgument {
            what: "the time limit (second argument)".into(),
            message: format!("expected a number of seconds >= 0; found {text:?}"),
        })?;
    let board = position.board();
    let best = if args.naive {
        naive_move(board, NAIVE_DEPTH)
    } else {
        let deadline = deadline_for(started, seconds);
        let budget = deadline.saturating_duration_since(started);
        let thought = Engine::for_time(budget)
            .with_threads(args.threads)?
            .think(board, deadline);
        if args.verbose {
            eprintln!(
                "depth {} {} value {} nodes {} in {:.3} s",
                thought.depth,
                match (thought.solved, thought.proved) {
                    (true, _) => "solved",
                    (false, Some(std::cmp::Ordering::Greater)) => "proved win",
                    (false, Some(std::cmp::Ordering::Equal)) => "proved draw",
                    (false, Some(std::cmp::Ordering::Less)) => "proved loss",
                    (false, _) => match thought.likely {
                        Some(std::cmp::Ordering::Greater) => "likely win",
                        Some(std::cmp::Ordering::Equal) => "likely draw",
                        Some(std::cmp::Ordering::Less) => "likely loss",
                        None => "heuristic",
                    },
                },
                thought.value,
                thought.nodes,
                started.elapsed().as_secs_f64()
            );
        }
        thought.best
    };
    println!("{}", umea::answer(best));
    Ok(())
}

fn run_match(args: &MatchArgs) -> Result<()> {
    // Each answer's wall time is set per program; this one is replaced.
    let sandbox = args.sandbox.sandbox(Duration::from_secs(1))?;
    let first = Program {
        command: args.white.clone(),
        seconds: args.white_seconds.unwrap_or(args.seconds),
    };
    let second = Program {
        command: args.black.clone(),
        seconds: args.black_seconds.unwrap_or(args.seconds),
    };
    arena::admit(&[&first, &second], &sandbox)?;
    let opening_count = if args.alternate {
        args.games.div_ceil(2)
    } else {
        args.games
    };
    let openings = arena::openings(opening_count, args.opening_plies);
    // Per program (first, second): wins, draws, losses, discs.
    let mut score = [[0u32; 4]; 2];
    let mut faults = 0;
    for game_index in 0..args.games {
        let swapped = args.alternate && game_index % 2 == 1;
        let opening = openings[if args.alternate {
            game_index / 2
        } else {
            game_index
        }];
        let (white, black) = if swapped {
            (&second, &first)
        } else {
            (&first, &second)
        };
        let game = arena::play(white, black, opening, &sandbox)?;
        let (w, b) = (game.last.white.count_ones(), game.last.black.count_ones());
        let result = match &game.ending {
            Ending::Finished => match game.winner() {
                Some(Color::White) => "white wins".to_string(),
                Some(Color::Black) => "black wins".to_string(),
                None => "draw".to_string(),
            },
            Ending::Forfeit(side, reason) => {
                faults += 1;
                format!("{side:?} forfeits: {}", describe(reason))
            }
        };
        println!(
            "game {:>3}: white={} black={} opening {}: {w}-{b} {result}; longest answer white {:.2} s, black {:.2} s; overruns {}/{}",
            game_index + 1,
            if swapped { "B" } else { "A" },
            if swapped { "A" } else { "B" },
            umea::position_text(opening),
            game.longest.0.as_secs_f64(),
            game.longest.1.as_secs_f64(),
            game.overruns.0,
            game.overruns.1,
        );
        for (program, side) in [
            (0, if swapped { Color::Black } else { Color::White }),
            (1, if swapped { Color::White } else { Color::Black }),
        ] {
            let row = &mut score[program];
            match game.winner() {
                Some(winner) if winner == side => row[0] += 1,
                None => row[1] += 1,
                Some(_) => row[2] += 1,
            }
            row[3] += if side == Color::White { w } else { b };
        }
    }
    println!("program             wins draws losses discs");
    for (name, program, row) in [("A", &first, score[0]), ("B", &second, score[1])] {
        println!(
            "{name} ({:.2} s) {:>9} {:>5} {:>6} {:>5}   {}",
            program.seconds, row[0], row[1], row[2], row[3], program.command
        );
    }
    if faults > 0 {
        println!("{faults} game(s) ended by a fault");
    }
    Ok(())
}

fn describe(reason: &ForfeitReason) -> String {
    match reason {
        ForfeitReason::Unreadable(text) => format!("unreadable answer {text:?}"),
        ForfeitReason::Illegal(square) => format!("illegal move {}", umea::answer(Some(*square))),
        ForfeitReason::IllegalPass => "passed with a legal move".into(),
        ForfeitReason::Failed(why) => why.clone(),
    }
}
