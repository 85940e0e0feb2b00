//! `reversi arena merge`: the JSON reports of a tournament played in shards
//! (`arena --shard K/N`) joined into the reports one run of the whole writes.

use std::fs;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::arena::{run, write_reports, ArenaArgs, Extra};
use crate::arena::reviews;
use crate::arena::{report, shard};
use crate::grading::platform::merge::MergeError;
use crate::printable::printable;

/// `reversi arena`: a tournament, or `arena merge` of its shards' reports.
#[derive(Debug, Args)]
pub struct ArenaCommand {
    #[command(subcommand)]
    command: Option<ArenaSubcommand>,
    #[command(flatten)]
    arena: ArenaArgs,
}

#[derive(Debug, Subcommand)]
enum ArenaSubcommand {
    /// Join the JSON reports of a tournament played in shards (`arena --shard K/N
    /// --json`), one of each shard, into the reports of the whole tournament.
    Merge(MergeArgs),
}

/// Arguments of `reversi arena merge`.
#[derive(Debug, Args)]
struct MergeArgs {
    /// The shards' JSON reports.
    #[arg(required = true, value_name = "REPORT")]
    inputs: Vec<PathBuf>,
    /// Write the whole tournament's JSON report to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the crosstable as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write every game as a GGF record into this folder.
    #[arg(long, value_name = "DIR")]
    games_dir: Option<PathBuf>,
}

/// Runs `reversi arena` or `arena merge`.
pub(super) fn command(command: &ArenaCommand) -> Result<()> {
    let Some(ArenaSubcommand::Merge(args)) = &command.command else {
        return run(&command.arena);
    };
    let mut texts = Vec::new();
    for input in &args.inputs {
        let path = printable(&input.display().to_string()).into_owned();
        let text = fs::read_to_string(input).map_err(|e| MergeError::Read {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        texts.push((path, text));
    }
    let merged = shard::merge(&texts)?;
    let mut standings = report::standings(&merged.results);
    report::rate(
        &merged.results,
        &mut standings,
        merged.anchor,
        merged.anchor_elo,
    );
    // The games reviewed as one run reviews them (at the default depth).
    let strength = reviews::strength(reviews::DEPTH);
    let reviews = reviews::reviews(&merged.results, strength);
    write_reports(
        &merged.header,
        &merged.results,
        &standings,
        (args.json.as_deref(), args.csv.as_deref()),
        args.games_dir.as_deref(),
        &Extra {
            reviews: Some((strength, &reviews)),
            ..Extra::default()
        },
    )
}
