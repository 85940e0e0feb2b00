//! `reversi engine`: tools for the timed engine itself (exact solves).

use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::UsageError;
use crate::engine::Engine;
use crate::format::umea;

/// Arguments of `reversi engine`.
#[derive(Debug, Args)]
pub struct EngineArgs {
    #[command(subcommand)]
    command: EngineCommand,
}

#[derive(Debug, Subcommand)]
enum EngineCommand {
    /// Solve a position exactly: prints `value V best MOVE nodes N in T s` (V the
    /// final disc margin for the side to move with perfect play, MOVE `(row,col)`
    /// or `pass`).
    Solve {
        /// The position as `reversi umea` reads it: W or B (side to move), then 64
        /// cells row-major, E, O (white) or X (black).
        position: String,
    },
}

/// Runs `reversi engine`.
pub(super) fn run(args: EngineArgs) -> Result<()> {
    match args.command {
        EngineCommand::Solve { position } => {
            let position =
                umea::parse_position(&position).map_err(|e| UsageError::BadArgument {
                    what: "the position".into(),
                    message: e.to_string(),
                })?;
            let started = Instant::now();
            let thought = Engine::new().solve(position.board());
            println!(
                "value {} best {} nodes {} in {:.3} s",
                thought.value,
                umea::answer(thought.best),
                thought.nodes,
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
    }
}
