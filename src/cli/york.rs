//! `reversi york`: the York EECS 3401 A4 query `mmeval(Plyr, State, Val, BestMv,
//! Depth, SeF)` on a board, and `reversi york play`, the course's interactive game.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};

use super::courses::{read_board_text, CourseInputError};
use super::display_name;
use crate::course_search::york::{mmeval, YorkMove, YorkOutcome, YorkParams};
use crate::eval::york::YorkHeuristic;
use crate::format::york::{answer_line, parse_board, parse_move, picture, trace_line, MoveText};
use crate::rules::{Color, MoveOrder, Position, Rules};

/// Arguments of `reversi york`: a query, or the `play` subcommand.
#[derive(Debug, Args)]
pub(super) struct YorkArgs {
    #[command(subcommand)]
    command: Option<YorkCommand>,
    #[command(flatten)]
    query: QueryArgs,
}

#[derive(Debug, Subcommand)]
enum YorkCommand {
    /// Play the course's game in the terminal: you are player 1 (black), the program
    /// player 2; type `[X,Y].` (X the column, Y the row, 0-5) or `n.` to pass.
    Play(PlayArgs),
}

#[derive(Debug, Args)]
struct QueryArgs {
    /// The board: the course's Prolog term (a list of 6 rows of `.`, `1`, `2`) or 6
    /// plain lines; `-` reads standard input [default: the initial board].
    board: Option<PathBuf>,
    /// The player to move: 1 (black, MAX) or 2 (white, MIN).
    // Required, but an `Option` so that `play` (which has no query) can be read.
    #[arg(short, long, required = true, value_parser = clap::value_parser!(u8).range(1..=2))]
    player: Option<u8>,
    /// Plies to look ahead (`Depth`).
    #[arg(short, long, required = true)]
    depth: Option<u32>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print every state in search order (one line each) before the answer.
    #[arg(long)]
    trace: bool,
}

#[derive(Debug, Args)]
struct PlayArgs {
    /// Plies the program looks ahead.
    #[arg(short, long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=12))]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Debug, Args)]
struct EngineArgs {
    /// Move order: `col` sorts `[X,Y]` pairs as Prolog's `sort/2` (columns first), `row`
    /// takes rows first.
    #[arg(long, value_enum, default_value_t = OrderArg::Col)]
    order: OrderArg,
    /// The evaluation `h`: `zero` (0, or +100/-100/0 for a finished game) or `stones`
    /// (player 2's discs minus player 1's, or the same for a finished game).
    #[arg(long = "h", value_enum, default_value_t = HeuristicArg::Zero)]
    heuristic: HeuristicArg,
    /// Alpha-beta pruning (`abmmeval`): same value and move, fewer states.
    #[arg(long)]
    alphabeta: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OrderArg {
    /// Column first, then row (Prolog's order of `[X,Y]`).
    Col,
    /// Row first, then column.
    Row,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum HeuristicArg {
    /// 0 unless the game is over.
    Zero,
    /// Player 2's discs minus player 1's unless the game is over.
    Stones,
}

impl EngineArgs {
    fn params(&self, depth: u32) -> YorkParams {
        YorkParams {
            depth,
            order: match self.order {
                OrderArg::Col => MoveOrder::ColumnMajor,
                OrderArg::Row => MoveOrder::RowMajor,
            },
            pruning: self.alphabeta,
        }
    }

    fn heuristic(&self) -> YorkHeuristic {
        match self.heuristic {
            HeuristicArg::Zero => YorkHeuristic::Zero,
            HeuristicArg::Stones => YorkHeuristic::Stones,
        }
    }
}

/// Carries out `reversi york`.
pub(super) fn run(args: YorkArgs) -> Result<()> {
    match args.command {
        Some(YorkCommand::Play(play_args)) => {
            let stdin = io::stdin().lock();
            play(&play_args, stdin, io::stdout().lock())
        }
        None => query(&args.query),
    }
}

fn query(args: &QueryArgs) -> Result<()> {
    let (player, depth) = args
        .player
        .zip(args.depth)
        .expect("clap requires --player and --depth when there is no subcommand");
    let to_move = if player == 1 {
        Color::Black
    } else {
        Color::White
    };
    let position = match &args.board {
        Some(path) => {
            let text = read_board_text(path)?;
            parse_board(&text, to_move).with_context(|| display_name(path))?
        }
        None => Rules::YORK.start.with_to_move(to_move),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut written = Ok(());
    let outcome = mmeval(
        Rules::YORK,
        position,
        args.engine.params(depth),
        &args.engine.heuristic(),
        &mut |visit| {
            if args.trace && written.is_ok() {
                written = writeln!(out, "{}", trace_line(visit));
            }
        },
    );
    written
        .and_then(|()| writeln!(out, "{}", answer_line(&outcome)))
        .and_then(|()| out.flush())
        .context("cannot write <stdout>")
}

/// The interactive game: the human (player 1) reads from `input`, everything is
/// written to `output`.
fn play(args: &PlayArgs, mut input: impl BufRead, mut output: impl Write) -> Result<()> {
    let rules = Rules::YORK;
    let params = args.engine.params(args.depth);
    let heuristic = args.engine.heuristic();
    let mut position = rules.start;
    writeln!(
        output,
        "Modified Othello (York EECS 3401): the player with FEWER discs at the end wins.\n\
         You are player 1 (black, `1`) and move first; the program is player 2 (`2`).\n\
         Type [X,Y]. with X the column and Y the row (0-5), or n. to pass when you cannot move.\n"
    )?;
    write!(output, "{}", picture(position))?;
    while !rules.is_over(position) {
        let mv = if position.to_move == Color::Black {
            read_human_move(rules, position, &mut input, &mut output)?
        } else {
            let outcome: YorkOutcome = mmeval(rules, position, params, &heuristic, &mut |_| {});
            let mv = outcome
                .best
                .context("the search found no move in a game that is not over")?;
            writeln!(
                output,
                "Player 2 plays {} (Val = {}, SeF = {}).",
                MoveText(mv),
                outcome.value,
                outcome.states
            )?;
            mv
        };
        position = match mv {
            YorkMove::Place(square) => position.play(square),
            YorkMove::Pass => position.pass(),
        };
        writeln!(output)?;
        write!(output, "{}", picture(position))?;
    }
    let (black, white) = position.counts();
    let verdict = match rules.winner(position) {
        Some(Color::Black) => "you win",
        Some(Color::White) => "the program wins",
        None => "a tie",
    };
    writeln!(
        output,
        "Game over: player 1 has {black} discs, player 2 has {white}: {verdict}."
    )?;
    output.flush()?;
    Ok(())
}

/// Asks until the human types a legal move (a pass only when no placement is legal).
fn read_human_move(
    rules: Rules,
    position: Position,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> Result<YorkMove> {
    let moves = rules.moves(position);
    if moves == 0 {
        writeln!(output, "You have no legal move: type n. to pass.")?;
    }
    loop {
        write!(output, "Your move: ")?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line).context("cannot read <stdin>")? == 0 {
            writeln!(output)?;
            return Err(CourseInputError::InputEnded.into());
        }
        if line.trim().is_empty() {
            continue;
        }
        let problem = match parse_move(&line) {
            Err(error) => error.to_string(),
            Ok(YorkMove::Pass) if moves != 0 => {
                "you have a legal move, so you may not pass".to_string()
            }
            Ok(YorkMove::Place(square)) if moves & square.bit() == 0 => {
                let mv = MoveText(YorkMove::Place(square));
                if moves == 0 {
                    format!("{mv} is not legal: you have no legal move, type n.")
                } else {
                    format!("{mv} is not legal: it must flank a line of player 2's discs")
                }
            }
            Ok(mv) => return Ok(mv),
        };
        writeln!(output, "{problem}")?;
    }
}
