//! `reversi arena --format legality`: the legality suite alone, its reports.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

use super::{arena_suite, bad, jobs, students, tristate, ArenaArgs};
use crate::arena::legality;
use crate::arena::protocol::{self, Terms};
use crate::arena::schedule::Tournament;
use crate::cli::grader::{print_out, write_whole};
use crate::sandbox;

/// Runs `--format legality`: every student asked once in each of the suite's
/// positions; the text report on standard output, the JSON report's `legality`
/// section (no players, no games).
pub(super) fn run(
    args: &ArenaArgs,
    class: &Path,
    protocol: &dyn protocol::Protocol,
    terms: &Terms,
) -> Result<()> {
    if !matches!(args.protocol.as_str(), "umea" | "tristate") {
        return Err(bad(
            "--format",
            "a legality suite asks one move per position: umea or tristate only".into(),
        ));
    }
    if args.shard.is_some() || args.resume {
        return Err(bad(
            "--format",
            "a legality suite is neither sharded nor resumed".into(),
        ));
    }
    let students = students(class, protocol.entry())?;
    let (suite, words) = arena_suite::suite(
        args.positions.as_deref(),
        args.seed,
        &args.protocol,
        tristate(args),
    )?;
    let sandbox = args.sandbox.sandbox(Duration::from_secs(1))?;
    let jobs = jobs(args);
    sandbox::stop_on_signals();
    let tournament = Tournament {
        protocol,
        sandbox: &sandbox,
        terms,
        openings: Vec::new(),
        games: 0,
        jobs,
        seed: args.seed,
        ledger: None,
        shard: None,
        boards: None,
    };
    let (sheets, _) = tournament
        .legality(&students, &suite)
        .context("the referee could not run the suite")?;
    let mut head = format!(
        "legality suite ({}): {words}; {}\nsandbox: {}\n",
        protocol.name(),
        legality::judged(protocol.name()),
        sandbox.isolation().words()
    );
    for line in protocol.words(terms) {
        head += &format!("{line}\n");
    }
    if let Some(path) = &args.json {
        let report = serde_json::json!({
            "format": "legality",
            "protocol": protocol.name(),
            "positions": words,
            "sandbox": sandbox.isolation().words(),
            "terms": protocol.words(terms),
            "players": [],
            "games": [],
            "legality": legality::json(&sheets, &suite),
        });
        write_whole(path, format!("{report:#}\n").as_bytes())?;
    }
    print_out(&(head + &legality::text(&sheets, &suite)))
}
