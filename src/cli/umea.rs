//! `reversi umea`: one move for the Umea course's harness, and a match runner.

use std::time::Duration;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::sandbox::SandboxArgs;
use super::{process_started, UsageError};
use crate::arena::protocol::umea::Umea;
use crate::arena::protocol::{Agent, Built, Protocol, Speaks, Terms};
use crate::arena::{self, openings};
use crate::engine::naive::{naive_move, NAIVE_DEPTH};
use crate::engine::{deadline_for, Engine};
use crate::format::umea;
use crate::printable::printable;
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
    /// 0: every game from the course's start; else (4) from the arena's balanced
    /// 4-ply openings (`reversi arena`), in the order --seed gives.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=4))]
    opening_plies: u32,
    /// The seed that orders the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    // Each answer's times are set per program; this one is replaced.
    let sandbox = args.sandbox.sandbox(Duration::from_secs(1))?;
    arena::admit(&[&args.white, &args.black], &sandbox)?;
    let terms = |seconds: f64| Terms {
        seconds,
        seconds_text: umea_seconds(seconds),
        start_allowance: MATCH_ALLOWANCE,
        lax: false,
        build_seconds: Duration::from_secs(60),
        per_game: false,
    };
    let first_terms = terms(args.white_seconds.unwrap_or(args.seconds));
    let second_terms = terms(args.black_seconds.unwrap_or(args.seconds));
    let agent = |name: &str, command: &str| Agent {
        name: name.into(),
        folder: None,
        command: command.into(),
        speaks: Speaks::Tournament,
    };
    let protocol = Umea;
    let build = |agent: &Agent, terms: &Terms| -> Result<Built> {
        match protocol.build(agent, &sandbox, terms)? {
            Ok(built) => Ok(built),
            Err(fault) => Err(anyhow::anyhow!(
                "program {}: its compile step (`CMD POSITION SECONDS 1`) failed: {}",
                agent.name,
                fault.detail
            )),
        }
    };
    let first = build(&agent("A", &args.white), &first_terms)?;
    let second = build(&agent("B", &args.black), &second_terms)?;
    let openings = match args.opening_plies {
        0 => vec![umea::START],
        _ => openings::shuffled(openings::balanced(), args.seed),
    };
    // Per program (first, second): wins, draws, losses, discs.
    let mut score = [[0u32; 4]; 2];
    let mut faults = 0;
    for game_index in 0..args.games {
        let swapped = args.alternate && game_index % 2 == 1;
        let opening = openings[if args.alternate {
            game_index / 2
        } else {
            game_index
        } % openings.len()];
        let mut a = protocol.seat(&first, &sandbox, &first_terms)?;
        let mut b = protocol.seat(&second, &sandbox, &second_terms)?;
        let (white, black) = if swapped {
            (&mut b, &mut a)
        } else {
            (&mut a, &mut b)
        };
        let game = arena::game::play(white.as_mut(), black.as_mut(), opening)?;
        let (w, b) = game.discs();
        let result = match &game.forfeit {
            None => match game.winner() {
                Some(Color::White) => "white wins".to_string(),
                Some(Color::Black) => "black wins".to_string(),
                None => "draw".to_string(),
            },
            Some(forfeit) => {
                faults += 1;
                format!(
                    "{:?} forfeits: {} ({}; answer {:?})",
                    forfeit.side,
                    forfeit.fault.reason.words(),
                    forfeit.fault.detail,
                    forfeit.fault.answer
                )
            }
        };
        println!(
            "game {:>3}: white={} black={} opening {}: {w}-{b} {result}; longest answer white {:.2} s, black {:.2} s of CPU time",
            game_index + 1,
            if swapped { "B" } else { "A" },
            if swapped { "A" } else { "B" },
            umea::position_text(opening),
            game.longest.0.as_secs_f64(),
            game.longest.1.as_secs_f64(),
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
    for (name, command, terms, row) in [
        ("A", &args.white, &first_terms, score[0]),
        ("B", &args.black, &second_terms, score[1]),
    ] {
        println!(
            "{name} ({:.2} s) {:>9} {:>5} {:>6} {:>5}   {}",
            terms.seconds,
            row[0],
            row[1],
            row[2],
            row[3],
            printable(command)
        );
    }
    if faults > 0 {
        println!("{faults} game(s) ended by a fault");
    }
    Ok(())
}

/// The CPU time `umea match` allows beyond SECONDS for a program's start.
const MATCH_ALLOWANCE: Duration = Duration::from_secs(5);

/// Seconds as `umea match` passes them: `4`, or `0.5` when not whole.
fn umea_seconds(seconds: f64) -> String {
    format!("{seconds}")
}
