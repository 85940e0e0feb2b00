//! `reversi uf`: the UF CAP4053 example AI's move on a board, and its games against
//! itself.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};

use super::courses::{read_board_text, CourseInputError};
use super::display_name;
use crate::course_search::uf::{choose, play_game, Level};
use crate::eval::uf::UfExample;
use crate::format::uf::{game_text, move_line, parse_board};
use crate::rules::{Color, Rules};

/// The deepest look-ahead accepted (the course's levels use 0, 1 and 3).
const MAX_DEPTH: u32 = 8;

/// Arguments of `reversi uf`.
#[derive(Debug, Args)]
pub(super) struct UfArgs {
    #[command(subcommand)]
    command: UfCommand,
}

#[derive(Debug, Subcommand)]
enum UfCommand {
    /// Print `row column rank` of the example AI's move for COLOR on BOARD.
    Move {
        /// The side to move.
        #[arg(long, value_enum)]
        color: ColorArg,
        /// Look-ahead depth: Beginner 0, Intermediate 1, Advanced 3.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
        depth: u32,
        /// 8 rows of `B`, `W`, `.` or of -1, 0, 1 (black, empty, white); `-` reads
        /// standard input.
        board: PathBuf,
    },
    /// Play the example AI against itself from the start; print each game's final
    /// counts and moves as the course's example-vs-example listing does.
    Game {
        /// Black's level [default: each level in turn].
        #[arg(long, value_enum)]
        black: Option<LevelArg>,
        /// White's level [default: each level in turn].
        #[arg(long, value_enum)]
        white: Option<LevelArg>,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorArg {
    /// Black (-1), who moves first.
    Black,
    /// White (1).
    White,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LevelArg {
    /// Depth 0.
    Beginner,
    /// Depth 1.
    Intermediate,
    /// Depth 3.
    Advanced,
}

impl From<LevelArg> for Level {
    fn from(arg: LevelArg) -> Level {
        match arg {
            LevelArg::Beginner => Level::Beginner,
            LevelArg::Intermediate => Level::Intermediate,
            LevelArg::Advanced => Level::Advanced,
        }
    }
}

/// Carries out `reversi uf`.
pub(super) fn run(args: UfArgs) -> Result<()> {
    let mut stdout = io::stdout().lock();
    match args.command {
        UfCommand::Move {
            color,
            depth,
            board,
        } => {
            let (color, name) = match color {
                ColorArg::Black => (Color::Black, "black"),
                ColorArg::White => (Color::White, "white"),
            };
            let text = read_board_text(&board)?;
            let position = parse_board(&text, color).with_context(|| display_name(&board))?;
            let chosen = choose(Rules::STANDARD, position, depth, &UfExample)
                .ok_or(CourseInputError::NoMove { color: name })
                .with_context(|| display_name(&board))?;
            writeln!(stdout, "{}", move_line(&chosen))
        }
        UfCommand::Game { black, white } => {
            let levels = |chosen: Option<LevelArg>| match chosen {
                Some(level) => vec![Level::from(level)],
                None => Level::ALL.to_vec(),
            };
            let whites = levels(white);
            levels(black).into_iter().try_for_each(|black| {
                whites.iter().try_for_each(|&white| {
                    let game = play_game(Rules::STANDARD, black, white, &UfExample);
                    stdout.write_all(game_text(&game).as_bytes())
                })
            })
        }
    }
    .context("cannot write <stdout>")
}
