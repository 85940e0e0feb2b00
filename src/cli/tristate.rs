//! `reversi tristate FILE`: one move for CSU CS440 "Tri-state Othello".

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, ValueEnum};

use super::{display_name, process_started, read_input_up_to, UsageError};
use crate::engine::deadline_for;
use crate::engine::shaped::think_grid;
use crate::format::tristate::{self, Base, Coords, Notation, MAX_CELLS};

/// Arguments of `reversi tristate`.
#[derive(Debug, Args)]
pub struct TristateArgs {
    /// The board file; `-` reads standard input.
    file: PathBuf,
    #[command(flatten)]
    conventions: ConventionArgs,
    /// The time limit per move, counted from the start of the program (the
    /// handout's 2 minutes; the search uses most of it unless it solves the game).
    #[arg(long, default_value_t = 120.0)]
    seconds: f64,
    /// Print the search's depth and node count on standard error (always on a
    /// terminal).
    #[arg(long)]
    verbose: bool,
}

/// How a Tri-state coordinate is written (`reversi tristate`, `reversi arena
/// --protocol tristate`).
#[derive(Debug, Args)]
pub(super) struct ConventionArgs {
    /// Coordinate order: xy (column, then row) or rc (row, then column).
    #[arg(long, value_enum, default_value_t = CoordsArg::Xy)]
    coords: CoordsArg,
    /// Number of the first row and column.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    base: u8,
    /// How the coordinate is written: paren `(a,b)` or space `a b`.
    #[arg(long, value_enum, default_value_t = NotationArg::Paren)]
    notation: NotationArg,
}

impl ConventionArgs {
    /// The convention these flags choose.
    pub(super) fn conventions(&self) -> (Coords, Base, Notation) {
        let coords = match self.coords {
            CoordsArg::Xy => Coords::Xy,
            CoordsArg::Rc => Coords::Rc,
        };
        let base = if self.base == 1 {
            Base::One
        } else {
            Base::Zero
        };
        let notation = match self.notation {
            NotationArg::Paren => Notation::Paren,
            NotationArg::Space => Notation::Space,
        };
        (coords, base, notation)
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum CoordsArg {
    /// Column, then row (the handout's "(x,y)").
    Xy,
    /// Row, then column.
    Rc,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum NotationArg {
    /// `(a,b)`.
    Paren,
    /// `a b`.
    Space,
}

/// Runs `reversi tristate`.
pub(super) fn run(args: TristateArgs) -> Result<()> {
    let started = process_started();
    let name = display_name(&args.file);
    let bytes = read_board_file(&args.file, &name)?;
    let text = String::from_utf8(bytes).map_err(|_| UsageError::BadArgument {
        what: name.clone(),
        message: "the file is not UTF-8 text".into(),
    })?;
    let problem = tristate::parse(&text).map_err(|e| UsageError::BadArgument {
        what: name.clone(),
        message: e.to_string(),
    })?;
    // On a terminal, say what the wait is for, and how long it may be.
    let show = args.verbose || io::stderr().is_terminal();
    if show {
        eprintln!(
            "thinking for up to {} s (--seconds changes it) ...",
            args.seconds
        );
    }
    let thought = think_grid(
        &problem.grid,
        problem.colour,
        deadline_for(started, args.seconds),
    );
    if show {
        eprintln!(
            "depth {} {} nodes {} in {:.3} s",
            thought.depth,
            if thought.solved {
                "solved"
            } else {
                "heuristic"
            },
            thought.nodes,
            started.elapsed().as_secs_f64()
        );
    }
    let (coords, base, notation) = args.conventions.conventions();
    println!("{}", tristate::answer(thought.best, coords, base, notation));
    Ok(())
}

/// Reads a board file (a regular file, or `-`), refusing one far larger than the
/// largest board accepted.
fn read_board_file(path: &Path, name: &str) -> Result<Vec<u8>> {
    let limit = MAX_CELLS as u64 * 4 + 4096;
    let bytes = read_input_up_to(path, limit + 1, "")?;
    if bytes.len() as u64 > limit {
        return Err(UsageError::BadArgument {
            what: name.into(),
            message: format!(
                "the file is larger than {limit} bytes; no board accepted is that large"
            ),
        }
        .into());
    }
    Ok(bytes)
}
