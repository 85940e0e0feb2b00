//! `reversi package gradescope --arena FLAGS`: a gauntlet's (or UF's pairings')
//! Gradescope autograder, its flags checked and its worst case within the budget.

use std::fs;
use std::path::Path;
use std::time::Duration;

use anyhow::Result;

use super::{bad, opponent, ArenaArgs, FormatArg, PolicyArg};
use crate::arena::schedule::Entrant;
use crate::arena::{self, legality, openings};
use crate::cli::grader::print_out;
use crate::printable::printable;

/// The flags a gauntlet's bundle sets itself: not the TA's.
const BUNDLE_SETS: &[&str] = &[
    "--gradescope",
    "--json",
    "--csv",
    "--html",
    "--junit",
    "--games-dir",
    "--sandbox",
    "--no-sandbox",
];

/// The seconds Gradescope's grading of a submission may take unless `--budget` says
/// (its default timeout is 600 s), as `package` has it.
const GRADESCOPE_BUDGET: f64 = 540.0;

/// The answers a side gives in a game at most, for the budget's estimate: 30 moves
/// and 2 passes from the standard start.
const ANSWERS_PER_GAME: f64 = 32.0;

/// `reversi package gradescope --arena FLAGS`: checks the arena's `flags` (a
/// gauntlet against in-process references, the worst case of its games within the
/// budget) and writes the bundle.
pub(in crate::cli) fn package(
    flags: &str,
    binary: &Path,
    out: &Path,
    packages: &[String],
    budget: Option<Duration>,
) -> Result<()> {
    #[derive(clap::Parser)]
    struct Flags {
        #[command(flatten)]
        arena: ArenaArgs,
    }
    let words: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
    if let Some(word) = words
        .iter()
        .find(|w| BUNDLE_SETS.iter().any(|f| w.split('=').next() == Some(*f)))
    {
        return Err(bad("--arena", format!("{word}: the bundle sets it itself")));
    }
    let parsed = <Flags as clap::Parser>::try_parse_from(
        ["arena", "class"]
            .into_iter()
            .map(str::to_string)
            .chain(words.iter().cloned()),
    )
    .map_err(|e| bad("--arena", e.to_string().trim().to_string()))?
    .arena;
    let uf = parsed.format == FormatArg::Uf;
    if parsed.format != FormatArg::Gauntlet && !uf {
        return Err(bad(
            "--arena",
            "a submission plays a gauntlet or UF's pairings (--format uf)".into(),
        ));
    }
    if uf {
        crate::cli::arena_uf::refuse(
            [parsed.opponent.first().map(|_| "--opponent".to_string())],
            &parsed.protocol,
        )?;
    } else if parsed.opponent.is_empty() {
        return Err(bad(
            "--arena",
            "a gauntlet needs at least one --opponent".into(),
        ));
    }
    for spec in &parsed.opponent {
        if let Entrant::Agent(_) = opponent(spec, parsed.nboard_depth)? {
            return Err(bad(
                "--arena",
                format!(
                    "{spec}: the bundle holds no command; use naive, engine:depth=N or \
                     engine:nodes=N"
                ),
            ));
        }
    }
    if let Some(path) = &parsed.openings {
        if path.is_dir() {
            return Err(bad(
                "--arena",
                format!(
                    "--openings {}: Tri-state board files are played without Gradescope's \
                     results.json (its forfeits show 8x8 boards): a bundle plays 8x8 openings",
                    printable(&path.display().to_string())
                ),
            ));
        }
        let text = fs::read_to_string(path)
            .map_err(|e| bad(&path.display().to_string(), e.to_string()))?;
        openings::parse_file(&text).map_err(|e| bad(&path.display().to_string(), e))?;
    }
    if parsed.positions.is_some() {
        return Err(bad(
            "--arena",
            "--positions: the bundle holds no suite's files; csu's suite is the built-in one"
                .into(),
        ));
    }
    let seconds: f64 = parsed.seconds.trim().parse().unwrap_or(f64::INFINITY);
    // csu asks the built-in legality suite first.
    let suite = match parsed.policy {
        Some(PolicyArg::Csu) => legality::BUILT_IN.0 as f64,
        _ => 0.0,
    };
    let games = if uf {
        arena::uf::PAIRINGS.len() as f64
    } else {
        parsed.opponent.len() as f64 * f64::from(parsed.games)
    };
    let each = seconds + parsed.start_allowance;
    let worst = parsed.build_seconds.as_secs_f64() + (suite + games * ANSWERS_PER_GAME) * each;
    let budget = budget.map_or(GRADESCOPE_BUDGET, |b| b.as_secs_f64());
    if worst > budget {
        return Err(bad(
            "--arena",
            format!(
                "the games could take {worst:.0} s of CPU time (the build, then {games} games x \
                 {ANSWERS_PER_GAME} answers x {each} s{}): more than the budget of {budget:.0} \
                 s; play fewer games or give less time a move",
                if suite > 0.0 {
                    format!(", and {suite} answers of the legality suite x {each} s")
                } else {
                    String::new()
                },
            ),
        ));
    }
    // The openings' file goes into the bundle, read there.
    let mut kept = Vec::new();
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        if word == "--openings" {
            rest.next();
        } else if !word.starts_with("--openings=") {
            kept.push(word.clone());
        }
    }
    arena::bundle::write(&kept, parsed.openings.as_deref(), packages, binary, out)?;
    let against = if uf {
        "UF's six pairings against the example AI".to_string()
    } else {
        format!(
            "a gauntlet against {}",
            parsed
                .opponent
                .iter()
                .map(|o| printable(o).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    print_out(&format!(
        "wrote {} ({against}; at most {worst:.0} s of the agent's CPU time): upload it as \
         the assignment's autograder (Configure Autograder > Zip file upload)\n",
        out.display()
    ))
}
