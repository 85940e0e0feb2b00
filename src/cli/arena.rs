//! `reversi arena`: a class of students' agents played in the sandbox against
//! references or each other, with the reports (docs/arena.md).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use super::arena_resume::{open_ledger, Stopped};
use super::arena_suite;
use super::grader::parse_seconds;
use super::sandbox::SandboxArgs;
use super::tristate::ConventionArgs;
use super::UsageError;
use crate::arena::grades::{self, Policy};
use crate::arena::legality::Suite;
use crate::arena::protocol::nboard::NBoard;
use crate::arena::protocol::task4::Task4;
use crate::arena::protocol::tristate::Tristate;
use crate::arena::protocol::{self, Agent, Speaks, Terms};
use crate::arena::reference::Reference;
use crate::arena::schedule::{Entrant, Format, Tournament};
use crate::arena::shard::ShardOf;
use crate::arena::{self, openings, report};
use crate::eval::pattern::{fnv1a_on, FNV1A_START};
use crate::grading::grade::journal::Settings;
use crate::grading::shard::Shard;
use crate::printable::printable;
use crate::sandbox;

mod format_legality;
mod package;
mod reports;

pub(super) use package::package;
pub(super) use reports::{write_reports, Extra};

/// The formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// Every student against each --opponent.
    Gauntlet,
    /// Every player (students and opponents) against every other.
    RoundRobin,
    /// Random seeded pairs; the majority of each pairing advances.
    Knockout,
    /// No games: each student asked once for a move in each of --positions, each
    /// answer judged (CSU's minimum standard).
    Legality,
    /// UF CAP4053's six pairings: each student as Black against the example AI as
    /// White at the pairing's level, one game each from the standard start.
    Uf,
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
    /// tristate (`./othello.sh board.txt` per move; games 8x8, or any shape from
    /// board files, --openings DIR), line (`./othello.sh
    /// Black|White` once per game, moves on standard input and output) or nboard
    /// (`./othello.sh` once per game, an NBoard engine).
    #[arg(long, default_value = "umea", value_parser = clap::builder::PossibleValuesParser::new(protocol::NAMES))]
    protocol: String,
    /// How the players meet.
    #[arg(long, value_enum, default_value_t = FormatArg::Gauntlet)]
    format: FormatArg,
    /// A reference or other player: `naive` (Umea's naive opponent),
    /// `engine:depth=N` (our engine at a fixed depth, 1-30), `engine:nodes=N` (our
    /// engine within N nodes a move, 1000-1000000000), `uf:beginner`, `uf:intermediate`,
    /// `uf:advanced` (the UF example AI), `cmd:COMMAND` (a command run in the sandbox
    /// as an agent), `nboard:COMMAND` (an NBoard engine run in the sandbox, whatever
    /// --protocol). Repeat for more.
    #[arg(long, value_name = "SPEC")]
    opponent: Vec<String>,
    /// Games per pairing, in pairs with colours swapped on the same opening.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1000))]
    games: u32,
    /// The CPU time limit per move (line, nboard: the game's bank). umea passes it to
    /// the agents exactly as written here, line the bank's rest as msLeft; tristate and
    /// nboard pass no clock (nboard: only `set depth`); cs561-task4 plays --bank.
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
    /// nboard and `nboard:` opponents: the engines' search depth, sent as `set depth
    /// N` (1 to 60).
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
    /// The starting positions: a file of Umea positions, one a line, or (--protocol
    /// tristate) a folder of Tri-state board files or one, any shape (default: the
    /// built-in balanced 4-ply openings).
    #[arg(long, value_name = "FILE|DIR")]
    openings: Option<PathBuf>,
    /// The built-in starting positions when no --openings is given: `balanced` (the
    /// balanced 4-ply openings) or `midgame` (balanced mid-game positions seeded by
    /// --seed: CSU's "beginning in the middle of games").
    #[arg(long, value_enum, default_value_t = StartArg::Balanced, conflicts_with = "openings")]
    start: StartArg,
    /// --format legality and --policy csu: the legality suite's positions: a file of
    /// Umea positions one a line, or (--protocol tristate) a Tri-state board file, a
    /// folder of them, any shape, or `builtin:WIDTHxHEIGHT` (a built-in seeded set of
    /// that shape) (default: a built-in seeded set of 8x8 mid-game positions, some of
    /// them passes).
    #[arg(long, value_name = "FILE|DIR|builtin:WxH")]
    positions: Option<PathBuf>,
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
    /// The depth of the game reviews in the reports (our engine, exact from 12
    /// empty cells); 0: no reviews.
    #[arg(long, value_name = "PLIES", default_value_t = arena::reviews::DEPTH, value_parser = clap::value_parser!(u32).range(0..=12))]
    review_depth: u32,
    /// Grade the students as a course does (docs/arena.md): `umea` beats naive,
    /// `csu` C from the legality suite (--positions, run first), B/A against a B-level
    /// reference, `knockout` a point per round won, `uf` a point per UF pairing passed
    /// (--format uf).
    #[arg(long, value_enum)]
    policy: Option<PolicyArg>,
    /// The reference a policy grades against [default: `naive` if it played, else
    /// the first --opponent].
    #[arg(long, value_name = "PLAYER")]
    grade_against: Option<String>,
    /// Write the HTML page: standings, crosstable, every game replayable.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Write JUnit XML: a testsuite per student, a testcase per game.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write Gradescope's results.json (with its leaderboard) for the one student of
    /// the class (a submission).
    #[arg(long, value_name = "FILE")]
    gradescope: Option<PathBuf>,
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

/// The built-in starts of `--start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StartArg {
    /// The balanced 4-ply openings.
    Balanced,
    /// Balanced mid-game positions seeded by --seed.
    Midgame,
}

/// The policies of `--policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PolicyArg {
    /// Umea: a pass when it won more games than it lost against the naive opponent.
    Umea,
    /// CSU Tri-state: C every answer legal, B about as good as the reference, A better.
    Csu,
    /// A knockout: a point per round won.
    Knockout,
    /// UF CAP4053: a point per pairing (--format uf) in which it reached the example
    /// AI's own black count, of 6.
    Uf,
}

/// The policy and reference of `--policy` and `--grade-against`, checked against
/// the format and the players.
fn grading(
    args: &ArenaArgs,
    format: Format,
    players: &[String],
    students: usize,
) -> Result<Option<Grading>> {
    let Some(policy) = args.policy else {
        return Ok(None);
    };
    let policy = match policy {
        PolicyArg::Umea => Policy::Umea,
        PolicyArg::Csu => Policy::Csu,
        PolicyArg::Knockout => Policy::Knockout,
        PolicyArg::Uf => Policy::Uf,
    };
    if policy == Policy::Uf && args.format != FormatArg::Uf {
        return Err(bad(
            "--policy",
            "uf grades a --format uf (UF's six pairings)".into(),
        ));
    }
    if policy == Policy::Knockout && format != Format::Knockout {
        return Err(bad(
            "--policy",
            "knockout grades a --format knockout".into(),
        ));
    }
    if !policy.needs_reference() {
        return Ok(Some((policy, None)));
    }
    let found = match &args.grade_against {
        Some(name) => players.iter().position(|p| p == name),
        None => players
            .iter()
            .position(|p| p == "naive")
            .or((players.len() > students).then_some(students)),
    };
    match found {
        Some(r) => Ok(Some((policy, Some(r)))),
        None => Err(bad(
            "--grade-against",
            format!(
                "no player named {:?} to grade against",
                printable(args.grade_against.as_deref().unwrap_or("naive"))
            ),
        )),
    }
}

pub(super) fn bad(what: &str, message: String) -> anyhow::Error {
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
            speaks: Speaks::Tournament,
        }));
    }
    if found.is_empty() {
        return Err(bad(
            &class.display().to_string(),
            format!("no folder holding {entry} (one folder per student)"),
        ));
    }
    found.sort_by_key(Entrant::name);
    Ok(found)
}

/// Reads an `--opponent`; `nboard:` engines are told `set depth nboard_depth`.
fn opponent(spec: &str, nboard_depth: u32) -> Result<Entrant> {
    for (prefix, speaks) in [
        ("cmd:", Speaks::Tournament),
        ("nboard:", Speaks::NBoard(nboard_depth)),
    ] {
        if let Some(command) = spec.strip_prefix(prefix) {
            if command.trim().is_empty() {
                return Err(bad("--opponent", format!("{prefix} needs a command")));
            }
            return Ok(Entrant::Agent(Agent {
                name: spec.into(),
                folder: None,
                command: command.into(),
                speaks,
            }));
        }
    }
    Reference::parse(spec)
        .map(Entrant::Reference)
        .ok_or_else(|| {
            bad(
                "--opponent",
                format!(
                    "expected naive, engine:depth=N (1-30), engine:nodes=N (1000-1000000000), \
                     uf:beginner, uf:intermediate, uf:advanced, cmd:COMMAND or nboard:COMMAND; \
                     found {spec:?}"
                ),
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
        FormatArg::Legality => return format_legality::run(args, class, protocol, &terms),
        // Its own schedule (`arena::uf::play`); a gauntlet against the example AI.
        FormatArg::Uf => Format::Gauntlet,
    };
    let uf = args.format == FormatArg::Uf;
    if uf {
        let given = |flag: &str, on: bool| on.then(|| flag.to_string());
        super::arena_uf::refuse(
            [
                given("--opponent", !args.opponent.is_empty()),
                given("--openings", args.openings.is_some()),
                given("--start", args.start != StartArg::Balanced),
                given("--shard", args.shard.is_some()),
                given("--resume", args.resume),
            ],
            &args.protocol,
        )?;
    }
    let students = students(class, protocol.entry())?;
    let opponents = args
        .opponent
        .iter()
        .map(|spec| opponent(spec, args.nboard_depth))
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
    if format == Format::Gauntlet && opponents.is_empty() && !uf {
        return Err(bad(
            "--opponent",
            "a gauntlet needs at least one opponent".into(),
        ));
    }
    if !args.anchor_elo.is_finite() {
        return Err(bad("--anchor-elo", "expected a number".into()));
    }
    // Games on Tri-state board files of any shape (src/cli/arena_shaped.rs).
    let boards = super::arena_shaped::boards(
        args.openings.as_deref(),
        &args.protocol,
        &opponents,
        &[
            ("--games-dir", args.games_dir.is_some()),
            ("--html", args.html.is_some()),
            ("--junit", args.junit.is_some()),
            ("--gradescope", args.gradescope.is_some()),
            ("--resume", args.resume),
            ("--shard", args.shard.is_some()),
        ],
    )?;
    let (openings_list, openings_words) = match &args.openings {
        _ if uf => (
            vec![arena::protocol::line::START],
            "every game from the standard start, Black first (UF's pairings)".into(),
        ),
        _ if protocol.start().is_some() => (
            protocol.start().into_iter().collect(),
            format!(
                "every game from the standard start ({} agents keep their own board)",
                protocol.name()
            ),
        ),
        Some(_) if boards.is_some() => (
            Vec::new(),
            boards.as_ref().map(|b| b.1.clone()).unwrap_or_default(),
        ),
        Some(path) => positions_file(path)?,
        None if args.start == StartArg::Midgame => {
            let list = openings::midgame(args.seed);
            let words = format!(
                "{} built-in mid-game positions seeded by --seed ({} to {} discs, within {} \
                 discs of even at depth {} by our engine)",
                list.len(),
                openings::MIDGAME_DISCS.0,
                openings::MIDGAME_DISCS.1,
                openings::MIDGAME_BALANCE,
                openings::SCORING_DEPTH
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
    if args.gradescope.is_some() && students.len() != 1 {
        return Err(bad(
            "--gradescope",
            format!(
                "results.json is one submission's: the class holds {} agents",
                students.len()
            ),
        ));
    }
    let names: Vec<String> = students
        .iter()
        .chain(&opponents)
        .map(Entrant::name)
        .chain(uf.then(super::arena_uf::opponents).into_iter().flatten())
        .collect();
    let grading = grading(args, format, &names, students.len())?;
    let suite = match grading {
        Some((Policy::Csu, _)) => Some(csu_suite(args)?),
        _ => None,
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
    let jobs = jobs(args);
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
        boards: None,
    };
    let entrants: Vec<(String, Option<&Path>)> = students
        .iter()
        .chain(&opponents)
        .map(|e| match e {
            Entrant::Agent(agent) => (agent.name.clone(), agent.folder.as_deref()),
            Entrant::Reference(_) => (e.name(), None),
        })
        .collect();
    let ledger = match &boards {
        // Games on board files are not journaled (--resume is refused).
        Some(_) => None,
        None => open_ledger(
            args.resume,
            class,
            &format!("{}\0{:?}\0{:?}", args.protocol, format, args.opponent),
            args.shard,
            &settings(args)?,
            &entrants,
        )?,
    };
    let tournament = Tournament {
        ledger: ledger.as_ref(),
        boards: boards.map(|(list, _)| (list, tristate(args))),
        ..tournament
    };
    // CSU's C: the legality suite, before the games (played with the same builds).
    let (sheets, builds) = match &suite {
        Some((suite, _)) => match tournament.legality(&students, suite) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                return Err(Stopped {
                    journal: ledger.is_some(),
                }
                .into())
            }
            done => {
                let (sheets, builds) =
                    done.context("the referee could not run the legality suite")?;
                (Some(sheets), Some(builds))
            }
        },
        None => (None, None),
    };
    let played = if uf {
        arena::uf::play(&tournament, &students)
    } else {
        tournament.run(format, &students, &opponents, builds)
    };
    let results = match played {
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
            _ if uf => "uf",
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "round-robin",
            Format::Knockout => "knockout",
        }
        .into(),
        games_per_pairing: if uf { 1 } else { tournament.games },
        seed: args.seed,
        openings: openings_words,
        sandbox: sandbox.isolation().words(),
        terms: if uf {
            arena::uf::terms_words(protocol, &terms)
        } else {
            terms_words(protocol, &terms, &opponents)
        },
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
    let grades = grading
        .map(|(policy, reference)| grades::grades(policy, &results, reference, sheets.as_deref()));
    let strength = arena::reviews::strength(args.review_depth);
    let reviews = (args.review_depth > 0 && tournament.boards.is_none())
        .then(|| arena::reviews::reviews(&results, strength));
    let extra = Extra {
        grading: grading.zip(grades.as_deref()),
        reviews: reviews.as_deref().map(|r| (strength, r)),
        html: args.html.as_deref(),
        junit: args.junit.as_deref(),
        gradescope: args.gradescope.as_deref(),
        suite: suite
            .as_ref()
            .zip(sheets.as_deref())
            .map(|((suite, words), sheets)| (suite, words.as_str(), sheets)),
    };
    write_reports(
        &header,
        &results,
        &standings,
        (args.json.as_deref(), args.csv.as_deref()),
        args.games_dir.as_deref(),
        &extra,
    )?;

    // Every game played and every report written: the journal has done its work.
    if let Some(ledger) = ledger {
        ledger.finish()?;
    }
    Ok(())
}

/// The terms in words: the protocol's, then those of each opponent speaking another
/// (an `nboard:` engine's bank).
fn terms_words(
    protocol: &dyn protocol::Protocol,
    terms: &Terms,
    opponents: &[Entrant],
) -> Vec<String> {
    let mut words = protocol.words(terms);
    for entrant in opponents {
        if let Entrant::Agent(agent) = entrant {
            if let Some(line) = agent.speaks.words(terms) {
                if !words.contains(&line) {
                    words.push(line);
                }
            }
        }
    }
    words
}

/// The positions of an `--openings` file of Umea positions, and their words for the
/// reports (Tri-state board files are taken before: src/cli/arena_shaped.rs).
fn positions_file(path: &Path) -> Result<(Vec<crate::rules::Position>, String)> {
    let text =
        fs::read_to_string(path).map_err(|e| bad(&path.display().to_string(), e.to_string()))?;
    let list = openings::parse_file(&text).map_err(|e| bad(&path.display().to_string(), e))?;
    let words = format!(
        "{} positions of {}",
        list.len(),
        printable(&path.display().to_string())
    );
    Ok((list, words))
}

/// The legality suite of a `--policy csu` tournament (CSU's `C`), refused where it
/// cannot be run: a protocol other than the per-move ones, `--shard` (a merge keeps
/// no grades).
fn csu_suite(args: &ArenaArgs) -> Result<(Suite, String)> {
    if !matches!(args.protocol.as_str(), "umea" | "tristate") {
        return Err(bad(
            "--policy",
            "csu's C is the legality suite, which asks one move per position: umea or \
             tristate only"
                .into(),
        ));
    }
    if args.shard.is_some() {
        return Err(bad(
            "--policy",
            "csu grades from the legality suite and the games together: not in shards".into(),
        ));
    }
    arena_suite::suite(
        args.positions.as_deref(),
        args.seed,
        &args.protocol,
        tristate(args),
    )
}

/// The Tri-state adapter in `--coords`, `--base` and `--notation`'s convention.
fn tristate(args: &ArenaArgs) -> Tristate {
    let (coords, base, notation) = args.conventions.conventions();
    Tristate {
        coords,
        base,
        notation,
    }
}

/// The runs at once: `-j`, else the cores.
fn jobs(args: &ArenaArgs) -> usize {
    match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    }
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
        None => match args.start {
            StartArg::Balanced => "built-in".into(),
            StartArg::Midgame => "built-in mid-game".into(),
        },
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

/// A policy and the reference it grades against (an index in the players).
type Grading = (Policy, Option<usize>);
