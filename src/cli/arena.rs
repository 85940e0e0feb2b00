//! `reversi arena`: a class of students' agents played in the sandbox against
//! references or each other, with the reports (docs/arena.md).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use super::arena_resume::{open_ledger, Stopped};
use super::grader::{parse_seconds, print_out, write_whole};
use super::sandbox::SandboxArgs;
use super::tristate::ConventionArgs;
use super::UsageError;
use crate::arena::protocol::nboard::NBoard;
use crate::arena::protocol::task4::Task4;
use crate::arena::protocol::{self, Agent, Terms};
use crate::arena::reference::Reference;
use crate::arena::schedule::Results;
use crate::arena::schedule::{Entrant, Format, Tournament};
use crate::arena::shard::ShardOf;
use crate::arena::{self, openings, report};
use crate::eval::pattern::{fnv1a_on, FNV1A_START};
use crate::grading::grade::journal::Settings;
use crate::grading::shard::Shard;
use crate::printable::printable;
use crate::sandbox;

/// The formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// Every student against each --opponent.
    Gauntlet,
    /// Every player (students and opponents) against every other.
    RoundRobin,
    /// Random seeded pairs; the majority of each pairing advances.
    Knockout,
}

/// Arguments of `reversi arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The class: one folder per student, each holding the protocol's program
    /// (`othello.sh` for umea).
    // Required, but an `Option` so that `arena merge` can be read.
    #[arg(required = true)]
    class: Option<PathBuf>,
    /// The agents' protocol: umea (`./othello.sh POSITION SECONDS 0` per move),
    /// tristate (`./othello.sh board.txt` per move, 8x8), line (`./othello.sh
    /// Black|White` once per game, moves on standard input and output) or nboard
    /// (`./othello.sh` once per game, an NBoard engine).
    #[arg(long, default_value = "umea", value_parser = clap::builder::PossibleValuesParser::new(protocol::NAMES))]
    protocol: String,
    /// How the players meet.
    #[arg(long, value_enum, default_value_t = FormatArg::Gauntlet)]
    format: FormatArg,
    /// A reference or other player: `naive` (Umea's naive opponent),
    /// `engine:depth=N` (our engine at a fixed depth), `cmd:COMMAND` (a command run
    /// in the sandbox as an agent). Repeat for more.
    #[arg(long, value_name = "SPEC")]
    opponent: Vec<String>,
    /// Games per pairing, in pairs with colours swapped on the same opening.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1000))]
    games: u32,
    /// The time limit per move (line, nboard: the game's bank), passed to the agents exactly
    /// as written here.
    #[arg(long, default_value = "1")]
    seconds: String,
    /// CPU time allowed beyond --seconds for the start of an agent's runtime (a JVM,
    /// Python), in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "0.5")]
    start_allowance: f64,
    /// The course's laxity: the last non-empty line of an answer is the move, whatever
    /// came before it and whatever the exit status (default: exactly one line, exit 0).
    #[arg(long)]
    lax: bool,
    /// nboard: the engines' search depth, sent as `set depth N` (1 to 60).
    #[arg(long, value_name = "N", default_value_t = crate::arena::protocol::nboard::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    nboard_depth: u32,
    /// CPU time of an agent's compile step.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    build_seconds: Duration,
    /// cs561-task4: each side's CPU time per game, in seconds (the handout's 200).
    #[arg(long, value_name = "SECONDS", default_value = "200", value_parser = parse_seconds)]
    bank: Duration,
    /// cs561-task4: the wall time of `make calibrate`, in seconds (the handout's 5
    /// minutes).
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = parse_seconds)]
    calibrate_seconds: Duration,
    /// The starting positions: a file of Umea positions, one a line (default: the
    /// built-in balanced 4-ply openings).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The seed of the openings' order and of the knockout's draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: the number of cores].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Write the JSON report (players and every game) to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// The player the ratings are anchored on (default: the first --opponent, else
    /// the first student).
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
    /// The anchor's Elo rating.
    #[arg(long, value_name = "ELO", default_value_t = 1500.0)]
    anchor_elo: f64,
    /// Write every game as a GGF record to this folder (`game-0001.ggf`, ... in the
    /// order of the JSON report).
    #[arg(long, value_name = "DIR")]
    games_dir: Option<PathBuf>,
    /// Write the crosstable as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Go on with an earlier tournament of this class that was stopped (killed,
    /// Ctrl-C, a reboot): every game its journal holds is kept, unless a player's
    /// folder changed since, and the others are played. Give the options it had.
    #[arg(long)]
    resume: bool,
    /// Play only the K-th of N slices of the pairings (a gauntlet's students K, K+N,
    /// K+2N... in name order; a round robin's pairings so), to spread a class over
    /// machines; `arena merge` joins the slices' JSON reports. Not for a knockout.
    #[arg(long, value_name = "K/N", value_parser = |s: &str| s.parse::<Shard>())]
    shard: Option<Shard>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    #[command(flatten)]
    #[command(next_help_heading = "Tri-state coordinates (--protocol tristate)")]
    conventions: ConventionArgs,
}

fn bad(what: &str, message: String) -> anyhow::Error {
    UsageError::BadArgument {
        what: what.into(),
        message,
    }
    .into()
}

/// The students of `class`: its folders holding `entry`, sorted by name.
fn students(class: &Path, entry: &str) -> Result<Vec<Entrant>> {
    let mut found = Vec::new();
    let listing =
        fs::read_dir(class).map_err(|e| bad(&class.display().to_string(), e.to_string()))?;
    for item in listing {
        let item = item.with_context(|| format!("cannot read {}", class.display()))?;
        let path = item.path();
        let name = item.file_name().to_string_lossy().into_owned();
        if !path.is_dir() {
            continue;
        }
        if !path.join(entry).is_file() {
            eprintln!(
                "reversi: note: {}: no {entry}: not an agent, left out",
                printable(&path.display().to_string())
            );
            continue;
        }
        found.push(Entrant::Agent(Agent {
            name,
            folder: Some(path),
            command: format!("./{entry}"),
        }));
    }
    found.sort_by_key(Entrant::name);
    Ok(found)
}

/// Reads an `--opponent`.
fn opponent(spec: &str) -> Result<Entrant> {
    if let Some(command) = spec.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err(bad("--opponent", "cmd: needs a command".into()));
        }
        return Ok(Entrant::Agent(Agent {
            name: spec.into(),
            folder: None,
            command: command.into(),
        }));
    }
    Reference::parse(spec)
        .map(Entrant::Reference)
        .ok_or_else(|| {
            bad(
                "--opponent",
                format!("expected naive, engine:depth=N (1-30) or cmd:COMMAND; found {spec:?}"),
            )
        })
}

/// Runs `reversi arena`.
pub(super) fn run(args: &ArenaArgs) -> Result<()> {
    let class = args.class.as_deref().expect("clap requires the class");
    let task4 = Task4 {
        bank: args.bank,
        calibrate_wall: args.calibrate_seconds,
        seed: args.seed,
    };
    let protocol: Box<dyn protocol::Protocol> = match args.protocol.as_str() {
        "cs561-task4" => Box::new(task4),
        "nboard" => Box::new(NBoard {
            depth: args.nboard_depth,
        }),
        name => protocol::by_name(name, args.conventions.conventions())
            .expect("clap allows only known names"),
    };
    let protocol = protocol.as_ref();
    let seconds: f64 = args
        .seconds
        .trim()
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e6)
        .ok_or_else(|| {
            bad(
                "--seconds",
                format!(
                    "expected a number of seconds above 0; found {:?}",
                    args.seconds
                ),
            )
        })?;
    if !(args.start_allowance.is_finite() && (0.0..1e6).contains(&args.start_allowance)) {
        return Err(bad(
            "--start-allowance",
            "expected seconds, 0 or more".into(),
        ));
    }
    let terms = Terms {
        seconds,
        seconds_text: args.seconds.trim().to_string(),
        start_allowance: Duration::from_secs_f64(args.start_allowance),
        lax: args.lax,
        build_seconds: args.build_seconds,
        per_game: protocol.per_game(),
    };
    let format = match args.format {
        FormatArg::Gauntlet => Format::Gauntlet,
        FormatArg::RoundRobin => Format::RoundRobin,
        FormatArg::Knockout => Format::Knockout,
    };
    let students = students(class, protocol.entry())?;
    let opponents = args
        .opponent
        .iter()
        .map(|spec| opponent(spec))
        .collect::<Result<Vec<_>>>()?;
    if format == Format::Knockout && args.shard.is_some() {
        return Err(bad(
            "--shard",
            "a knockout's rounds depend on the rounds before: it cannot be split".into(),
        ));
    }
    if args.protocol == "cs561-task4" && args.shard.is_some() {
        return Err(bad(
            "--shard",
            "cs561-task4's games keep each agent's folder from game to game, so its \
             games are played in order on one machine: it cannot be split"
                .into(),
        ));
    }
    if format == Format::Gauntlet && opponents.is_empty() {
        return Err(bad(
            "--opponent",
            "a gauntlet needs at least one opponent".into(),
        ));
    }
    if !args.anchor_elo.is_finite() {
        return Err(bad("--anchor-elo", "expected a number".into()));
    }
    if students.is_empty() {
        return Err(bad(
            &class.display().to_string(),
            format!(
                "no folder holding {} (one folder per student)",
                protocol.entry()
            ),
        ));
    }
    let (openings_list, openings_words) = match &args.openings {
        _ if protocol.start().is_some() => (
            protocol.start().into_iter().collect(),
            format!(
                "every game from the standard start ({} agents keep their own board)",
                protocol.name()
            ),
        ),
        Some(path) => {
            let text = fs::read_to_string(path)
                .map_err(|e| bad(&path.display().to_string(), e.to_string()))?;
            let list =
                openings::parse_file(&text).map_err(|e| bad(&path.display().to_string(), e))?;
            let words = format!(
                "{} positions of {}",
                list.len(),
                printable(&path.display().to_string())
            );
            (list, words)
        }
        None => (
            openings::balanced().to_vec(),
            format!(
                "{} built-in balanced openings ({} plies from the start, within {} discs of even \
                 at depth {} by our engine)",
                openings::balanced().len(),
                openings::PLIES,
                openings::BALANCED_DISCS,
                openings::SCORING_DEPTH
            ),
        ),
    };
    // Each answer's times are set per run; this one is replaced.
    let sandbox = args.sandbox.sandbox(Duration::from_secs(1))?;
    let commands: Vec<&str> = opponents
        .iter()
        .filter_map(|e| match e {
            Entrant::Agent(agent) => Some(agent.command.as_str()),
            Entrant::Reference(_) => None,
        })
        .collect();
    arena::admit(&commands, &sandbox)?;
    let jobs = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    sandbox::stop_on_signals();
    let tournament = Tournament {
        protocol,
        sandbox: &sandbox,
        terms: &terms,
        openings: openings::shuffled(&openings_list, args.seed),
        games: args.games as usize,
        jobs,
        seed: args.seed,
        ledger: None,
        shard: args.shard,
    };
    let entrants: Vec<(String, Option<&Path>)> = students
        .iter()
        .chain(&opponents)
        .map(|e| match e {
            Entrant::Agent(agent) => (agent.name.clone(), agent.folder.as_deref()),
            Entrant::Reference(_) => (e.name(), None),
        })
        .collect();
    let ledger = open_ledger(
        args.resume,
        class,
        &format!("{}\0{:?}\0{:?}", args.protocol, format, args.opponent),
        args.shard,
        &settings(args)?,
        &entrants,
    )?;
    let tournament = Tournament {
        ledger: ledger.as_ref(),
        ..tournament
    };
    let results = match tournament.run(format, &students, &opponents) {
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            return Err(Stopped {
                journal: ledger.is_some(),
            }
            .into())
        }
        result => result.context("the referee could not run a game")?,
    };
    let anchor = match &args.anchor {
        Some(name) => results
            .players
            .iter()
            .position(|p| p == name)
            .ok_or_else(|| bad("--anchor", format!("no player named {:?}", printable(name))))?,
        None => results.students.min(results.players.len() - 1),
    };
    let mut standings = report::standings(&results);
    report::rate(&results, &mut standings, anchor, args.anchor_elo);
    let header = report::Header {
        protocol: protocol.name().into(),
        format: match format {
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "round-robin",
            Format::Knockout => "knockout",
        }
        .into(),
        games_per_pairing: tournament.games,
        seed: args.seed,
        openings: openings_words,
        sandbox: sandbox.isolation().words(),
        terms: protocol.words(&terms),
        ratings: format!(
            "Elo by maximum likelihood over every game (a forfeit a loss), 95% intervals, \
             anchored on {} at {}",
            printable(&results.players[anchor]),
            args.anchor_elo
        ),
        shard: args.shard.map(|shard| ShardOf {
            shard: shard.to_string(),
            students: results.students,
            anchor,
            anchor_elo: args.anchor_elo,
        }),
    };
    write_reports(
        &header,
        &results,
        &standings,
        (args.json.as_deref(), args.csv.as_deref()),
        args.games_dir.as_deref(),
    )?;

    // Every game played and every report written: the journal has done its work.
    if let Some(ledger) = ledger {
        ledger.finish()?;
    }
    Ok(())
}

/// What decides this tournament's results, for its journal: every option that
/// changes a game (the openings by their content).
fn settings(args: &ArenaArgs) -> Result<Settings> {
    let openings = match &args.openings {
        Some(path) => {
            let bytes =
                fs::read(path).map_err(|e| bad(&path.display().to_string(), e.to_string()))?;
            format!(
                "{} bytes, digest {:016x}",
                bytes.len(),
                fnv1a_on(FNV1A_START, &bytes)
            )
        }
        None => "built-in".into(),
    };
    let mut settings = Settings::new();
    for (name, value) in [
        ("--protocol", args.protocol.clone()),
        ("--format", format!("{:?}", args.format)),
        ("--opponent", args.opponent.join(" | ")),
        ("--games", args.games.to_string()),
        ("--seconds", args.seconds.trim().to_string()),
        ("--start-allowance", args.start_allowance.to_string()),
        ("--lax", args.lax.to_string()),
        ("--nboard-depth", args.nboard_depth.to_string()),
        (
            "--build-seconds",
            args.build_seconds.as_secs_f64().to_string(),
        ),
        ("--bank", args.bank.as_secs_f64().to_string()),
        (
            "--calibrate-seconds",
            args.calibrate_seconds.as_secs_f64().to_string(),
        ),
        ("--openings", openings),
        ("--seed", args.seed.to_string()),
        (
            "tri-state coordinates",
            format!("{:?}", args.conventions.conventions()),
        ),
    ] {
        settings.insert(name.into(), value);
    }
    for (name, value) in args.sandbox.settings() {
        settings.insert(name.into(), value);
    }
    Ok(settings)
}

/// Writes the reports of `results`: `json`, `csv` (where given), every game as GGF
/// into `games_dir`, and the text report on standard output.
pub(super) fn write_reports(
    header: &report::Header,
    results: &Results,
    standings: &[report::Standing],
    (json, csv): (Option<&Path>, Option<&Path>),
    games_dir: Option<&Path>,
) -> Result<()> {
    if let Some(path) = json {
        write_whole(path, report::json(header, results, standings).as_bytes())?;
    }
    if let Some(path) = csv {
        write_whole(path, report::csv(results, standings).as_bytes())?;
    }
    if let Some(folder) = games_dir {
        fs::create_dir_all(folder).with_context(|| format!("cannot make {}", folder.display()))?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let date = crate::format::ggf::date(now);
        for (i, record) in report::ggf_games(results, standings, &date)
            .iter()
            .enumerate()
        {
            write_whole(
                &folder.join(format!("game-{:04}.ggf", i + 1)),
                format!("{record}\n").as_bytes(),
            )?;
        }
    }
    print_out(&report::text(header, results, standings))
}
