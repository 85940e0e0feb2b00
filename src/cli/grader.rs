//! The grader tools' command lines: `check`, `batch` and `gen` (`tree` has its own).

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, Parser, ValueEnum};
use thiserror::Error;

use super::sandbox::SandboxArgs;
use super::{DialectArg, EolArg, SolveArgs};
use crate::explain::check;
use crate::explain::mistake::Mistake;
use crate::format::cs561;
use crate::format::cs561::Dialect;
use crate::format::LineEnd;
use crate::grading::batch::{
    self, find_cases, ArgsSyntax, BatchError, BatchOptions, CaseOptions, CaseResult, Runner,
    Summary, Verdict,
};
use crate::grading::gen::{self, Category, GenError, GenOptions};
use crate::grading::grade::{group_mistakes, StudentGrade};
use crate::grading::platform::junit;
use crate::output_file::{self, Durability};
use crate::printable::{printable_json, terminal_text};
use crate::sandbox::policy::PolicyError;
use crate::sandbox::{self, SandboxError};
use crate::tree::TreeError;

/// Arguments of `reversi check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The expected output file (the course's, or ours).
    expected: PathBuf,
    /// The output file to check (a student's `output.txt`).
    actual: PathBuf,
    /// Compare as the Fall 2014 grader did: ignore CR, trailing whitespace and
    /// trailing blank lines (and say what a byte-exact grader would see).
    #[arg(long)]
    lenient: bool,
    /// Print the report as JSON instead of words.
    #[arg(long)]
    json: bool,
    /// The case's input: then the catalogue of known mistakes is run on it to name
    /// every mistake whose program writes the file byte for byte, moves are checked
    /// for legality, and the board where the logs part is shown.
    #[arg(long, value_name = "PATH")]
    input: Option<PathBuf>,
    /// After the first difference, list every distinct mistake in the file, each with
    /// its first line and the lines it accounts for (all of them with --input).
    #[arg(long)]
    all: bool,
}

/// Failures of the grader tools that the user fixes by changing the arguments (exit 2).
#[derive(Debug, Error)]
pub enum GraderUsageError {
    /// A file named on the command line does not exist.
    #[error("{path}: no such file")]
    MissingFile {
        /// The path as given.
        path: String,
    },
    /// `tree` was given a greedy (f2014 task 1) input alone: it has no log.
    #[error("{path}: task 1 (greedy) writes no traverse log, so there is no tree to draw")]
    GreedyHasNoLog {
        /// The input file.
        path: String,
    },
    /// `tree` was given no input and there is no `input.txt` in the current folder.
    #[error("{path}: no such file (name an input file, a log with --log PATH, or both)")]
    NoInput {
        /// The input looked for.
        path: String,
    },
    /// `gen --out` names a folder that already holds files.
    #[error("{path}: the folder is not empty; name a new or empty folder with --out")]
    OutNotEmpty {
        /// The folder as given.
        path: String,
    },
}

/// Whether `error` comes from bad arguments or input given to a grader tool
/// (exit status 2).
pub fn is_usage_error(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.is::<GraderUsageError>()
            || cause.is::<BatchError>()
            || cause.is::<GenError>()
            || cause.is::<TreeError>()
            || cause.is::<SandboxError>()
            || cause.is::<PolicyError>()
            || cause.is::<crate::grading::grade::GradeError>()
            || cause
                .downcast_ref::<crate::grading::grade::journal::JournalError>()
                .is_some_and(|e| e.is_usage())
            || cause
                .downcast_ref::<crate::grading::platform::merge::MergeError>()
                .is_some_and(|e| {
                    !matches!(e, crate::grading::platform::merge::MergeError::Write(_))
                })
            || cause
                .downcast_ref::<crate::grading::package::PackageError>()
                .is_some_and(|e| matches!(e, crate::grading::package::PackageError::Exists { .. }))
    })
}

/// The files differ, or some case failed: exit status 1, the report says why.
#[derive(Debug, Error)]
#[error("the comparison failed")]
pub struct Failed;

/// Writes `text` to standard output, any control character a file or a program
/// slipped into it escaped; a reader that went away (`| head`) is fine.
pub(super) fn print_out(text: &str) -> Result<()> {
    let text = terminal_text(text);
    match io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result.context("cannot write <stdout>"),
    }
}

/// Writes a report, page or case file whole (it replaces `path` only once complete,
/// as the solver does `output.txt`), or says which file could not be written.
pub(super) fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    output_file::replace_file(path, Durability::Cached, |file| file.write_all(bytes))
        .with_context(|| format!("cannot write {}", path.display()))
}

pub(super) fn read(path: &Path) -> Result<Vec<u8>> {
    if !path.exists() {
        return Err(GraderUsageError::MissingFile {
            path: path.display().to_string(),
        }
        .into());
    }
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// `reversi check EXPECTED ACTUAL`: prints the report; [`Failed`] when they differ.
pub fn check(args: &CheckArgs) -> Result<()> {
    let expected = read(&args.expected)?;
    let actual = read(&args.actual)?;
    let problem = match &args.input {
        Some(path) => {
            Some(cs561::parse(&read(path)?, None).with_context(|| path.display().to_string())?)
        }
        None => None,
    };
    let report = check::check_with_input(&expected, &actual, args.lenient, problem.as_ref());
    if args.json {
        print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else if args.all {
        print_out(&format!("{report}\n{}", report.listing()))?;
    } else {
        print_out(&report.to_string())?;
    }
    if report.passed() {
        Ok(())
    } else {
        Err(Failed.into())
    }
}

/// Arguments of `reversi batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// The folder of cases: folders with input.txt and output.txt (and optionally an
    /// `args` file of solver flags), or NAME.in and NAME.out pairs.
    dir: PathBuf,
    /// Run this shell command as the student's program instead of our solver, in the
    /// sandbox: in a fresh folder holding only input.txt, it must write output.txt
    /// there. Files it names must be shown to it with --read-only (absolute paths).
    #[arg(long, value_name = "COMMAND")]
    against: Option<String>,
    /// CPU time of each run of --against (all its processes and threads), in seconds,
    /// with a wall-time net of 3 x SECONDS + 1; then every process of the run is killed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
    /// Compare as the Fall 2014 grader did (see `reversi check --lenient`).
    #[arg(long)]
    lenient: bool,
    /// Print the results as JSON instead of rows.
    #[arg(long)]
    json: bool,
    /// Keep every output in this folder, as CASE/output.txt.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Show every failing case's explanation under its row, instead of each mistake
    /// once with the cases it affects.
    #[arg(long)]
    verbose: bool,
    /// Also write the results as JUnit XML to this file (for CI systems).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Cases run at once [default: the number of cores].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Instead of running the cases, print which faults of the catalogue of student
    /// bugs each case catches (its output differs from the right one), and the faults
    /// no case catches.
    #[arg(long, conflicts_with = "against")]
    mutants: bool,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

pub(super) fn parse_seconds(text: &str) -> std::result::Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("expected a number of seconds; found {text:?}"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds < 1e9 {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(format!(
            "expected a number of seconds above 0; found {text:?}"
        ))
    }
}

/// A case folder's `args` file: the solver's own flags.
#[derive(Debug, Parser)]
#[command(name = "args", no_binary_name = true, disable_help_flag = true)]
struct ArgsFile {
    #[command(flatten)]
    solve: SolveArgs,
}

/// The solver's flags as the syntax of `args` files.
struct SolverFlags;

impl From<Dialect> for DialectArg {
    fn from(dialect: Dialect) -> DialectArg {
        match dialect {
            Dialect::S2017 => DialectArg::S2017,
            Dialect::S2017Jan => DialectArg::S2017Jan,
            Dialect::F2014 => DialectArg::F2014,
        }
    }
}

fn flag_value(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

impl ArgsSyntax for SolverFlags {
    fn parse(&self, text: &str) -> std::result::Result<CaseOptions, String> {
        let file = ArgsFile::try_parse_from(text.split_whitespace()).map_err(|e| {
            let message = e.to_string();
            message
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_string()
        })?;
        if file.solve.input != Path::new("input.txt")
            || file.solve.output != Path::new("output.txt")
        {
            return Err("an args file holds only --dialect, --eol and --final-newline".into());
        }
        Ok(CaseOptions {
            dialect: file.solve.dialect.map(Dialect::from),
            style: file.solve.style(),
        })
    }

    fn render(&self, options: &CaseOptions) -> String {
        let mut flags = Vec::new();
        if let Some(dialect) = options.dialect {
            flags.push(format!(
                "--dialect {}",
                flag_value(DialectArg::from(dialect))
            ));
        }
        if options.style.line_end == LineEnd::Lf {
            flags.push(format!("--eol {}", flag_value(EolArg::Lf)));
        }
        if options.style.final_newline {
            flags.push("--final-newline".into());
        }
        flags.join(" ")
    }
}

/// Draws `done/total` on stderr once the batch has run for a second, if stderr is a
/// terminal; [`Progress::clear`] wipes it.
pub(super) struct Progress {
    start: Instant,
    /// When the bar was last drawn.
    drawn: Option<Instant>,
    enabled: bool,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            start: Instant::now(),
            drawn: None,
            enabled: io::stderr().is_terminal(),
        }
    }

    pub(super) fn draw(&mut self, done: usize, total: usize) {
        let recent = self
            .drawn
            .is_some_and(|at| at.elapsed() < Duration::from_millis(100));
        if !self.enabled || self.start.elapsed() < Duration::from_secs(1) || recent {
            return;
        }
        const WIDTH: usize = 30;
        let filled = WIDTH * done / total.max(1);
        eprint!(
            "\r[{}{}] {done}/{total} cases",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled)
        );
        self.drawn = Some(Instant::now());
    }

    pub(super) fn clear(&self) {
        if self.drawn.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// One case's row, names padded to `width`, with the `check` explanation under a
/// failure if `explain`.
pub(super) fn row(result: &CaseResult, width: usize, explain: bool) -> String {
    let row = format!(
        "{:<16} {:<width$}  {}",
        result.verdict.word(),
        result.case,
        result.detail
    );
    let mut text = row.trim_end().to_string();
    text.push('\n');
    if let Some(report) = result
        .report
        .as_ref()
        .filter(|_| explain && result.verdict != Verdict::Pass)
    {
        for line in report.to_string().lines() {
            text += &format!("    {line}\n");
        }
    }
    text
}

/// Each mistake of the failed cases once, with the cases it affects and the first
/// one's explanation (what `batch` prints without `--verbose`).
pub(super) fn mistakes_once(results: &[CaseResult]) -> String {
    let failed: Vec<CaseResult> = results
        .iter()
        .filter(|r| r.verdict == Verdict::Fail)
        .cloned()
        .collect();
    let groups = group_mistakes(&failed);
    if groups.is_empty() {
        return String::new();
    }
    let mut text = "mistakes, each once (--verbose: every explanation):\n".to_string();
    for group in groups {
        text += &format!("  {}: {}\n", group.label, group.cases.join(", "));
        for line in group.example.lines() {
            text += &format!("      {line}\n");
        }
    }
    text
}

/// `reversi batch DIR`: prints a row per case and a summary; [`Failed`] if any
/// case did not pass.
pub fn batch(args: &BatchArgs) -> Result<()> {
    let cases = find_cases(&args.dir)?;
    if args.mutants {
        return mutant_matrix(&cases);
    }
    let runner = match &args.against {
        Some(command) => {
            let sandbox = args.sandbox.timed(args.timeout)?;
            sandbox::stop_on_signals();
            Runner::program(command, sandbox, &args.dir, &cases)?
        }
        None => Runner::Solver(&SolverFlags),
    };
    let jobs = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => thread::available_parallelism().map_or(1, usize::from),
    };
    let options = BatchOptions {
        runner,
        lenient: args.lenient,
        jobs,
        keep: args.keep.clone(),
        stop: Some(sandbox::stop_flag()),
        slots: None,
        deadline: None,
    };
    let mut progress = Progress::new();
    let mut rows: Result<()> = Ok(());
    let results = batch::run(&cases, &options, &mut |update| {
        if !args.json && !update.in_order.is_empty() {
            progress.clear();
            let width = cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
            let text: String = update
                .in_order
                .iter()
                .map(|r| row(r, width, args.verbose))
                .collect();
            if rows.is_ok() {
                rows = print_out(&text);
            }
        }
        progress.draw(update.done, update.total);
    });
    progress.clear();
    rows?;
    if let Some(path) = &args.junit {
        let name = args.dir.file_name().map_or_else(
            || args.dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let grade = StudentGrade::of(&name, results.clone(), &vec![1.0; cases.len()]);
        write_whole(path, junit::document(&[grade]).as_bytes())?;
    }
    let summary = Summary::of(&results);
    if args.json {
        let mut report = serde_json::json!({ "summary": summary, "cases": results });
        if let Runner::Program { sandbox, .. } = &options.runner {
            let limits = sandbox.limits();
            report["sandbox"] = serde_json::json!({
                "isolation": sandbox.isolation(),
                "wall_seconds": limits.wall.as_secs_f64(),
                "run_cpu_seconds": limits.run_cpu.map(|t| t.as_secs_f64()),
                "cpu_seconds": limits.cpu.as_secs(),
                "memory_bytes": limits.memory,
                "processes": limits.processes,
                "file_size_bytes": limits.file_size,
                "read_only": sandbox.read_only(),
            });
        }
        printable_json(&mut report);
        print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        if !args.verbose {
            print_out(&mistakes_once(&results))?;
        }
        print_out(&format!("{summary}\n"))?;
    }
    if summary.all_passed() {
        Ok(())
    } else {
        Err(Failed.into())
    }
}

/// `reversi batch DIR --mutants`: which fault each case catches; [`Failed`] when
/// some fault is caught by none.
fn mutant_matrix(cases: &[batch::Case]) -> Result<()> {
    let matrix = batch::catching_matrix(cases, &SolverFlags).map_err(anyhow::Error::msg)?;
    let missed = matrix.missed();
    let mut text = matrix.to_string();
    let applicable = Mistake::SIMULATED.len() - matrix.not_applicable().len();
    text += &format!(
        "{} case{} catch {} of the {applicable} faults of the catalogue that apply to them",
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
        applicable - missed.len(),
    );
    if missed.is_empty() {
        text += "\n";
        return print_out(&text);
    }
    let names: Vec<&str> = missed.iter().map(|f| f.name()).collect();
    text += &format!("; missed: {}\n", names.join(", "));
    print_out(&text)?;
    Err(Failed.into())
}

/// Arguments of `reversi gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// How many cases to write.
    #[arg(long, value_name = "N", required_unless_present = "catch_every_fault")]
    count: Option<usize>,
    /// Instead of --count cases, choose among --candidates random cases a few that
    /// together catch every fault of the catalogue of student bugs (preferring small
    /// logs), and print which case catches which fault.
    #[arg(long, conflicts_with = "count")]
    catch_every_fault: bool,
    /// How many random cases --catch-every-fault chooses from.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 300,
        requires = "catch_every_fault"
    )]
    candidates: usize,
    /// The seed: the same seed and options give the same files.
    #[arg(long, value_name = "S")]
    seed: u64,
    /// The folder to write the cases to (new, or empty).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Kinds of position, taken in turn (repeat, or separate with commas)
    /// [default: all].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "CATEGORY")]
    category: Vec<Category>,
    /// The most traverse-log lines a case may have.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_lines: u64,
    /// A fixed cut-off depth for every case (positions whose log passes --max-lines
    /// at that depth are skipped) [default: each category's range, lowered to fit].
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// The homework release of the inputs.
    #[arg(long, value_enum, default_value_t = DialectArg::S2017)]
    dialect: DialectArg,
    /// The f2014 task line of the inputs.
    #[arg(long, value_enum, default_value_t = GenTask::AlphaBeta)]
    task: GenTask,
    /// Line ends of inputs and outputs.
    #[arg(long, value_enum, default_value_t = EolArg::Crlf)]
    eol: EolArg,
    /// End the last line of inputs and outputs too (the official files do not).
    #[arg(long)]
    final_newline: bool,
}

/// The tasks `gen` writes (greedy has no log to check).
#[derive(Clone, Copy, Debug, ValueEnum)]
enum GenTask {
    /// Task 3 (f2014), and the only task of s2017.
    AlphaBeta,
    /// Task 2 (f2014 only): minimax with a three-column log.
    Minimax,
}

/// `reversi gen`: writes the cases and prints one line for each.
pub fn gen(args: &GenArgs) -> Result<()> {
    let not_empty = fs::read_dir(&args.out).is_ok_and(|mut entries| entries.next().is_some());
    if not_empty || args.out.is_file() {
        return Err(GraderUsageError::OutNotEmpty {
            path: args.out.display().to_string(),
        }
        .into());
    }
    let style = super::style(args.eol, args.final_newline);
    let options = GenOptions {
        count: args.count.unwrap_or(args.candidates),
        seed: args.seed,
        categories: args.category.clone(),
        dialect: args.dialect.into(),
        style,
        max_lines: args.max_lines,
        task: match args.task {
            GenTask::AlphaBeta => cs561::Task::AlphaBeta,
            GenTask::Minimax => cs561::Task::Minimax,
        },
        depth: args.depth,
    };
    if args.catch_every_fault {
        let set = gen::generate_catching(&options, &SolverFlags)?;
        let mut text = write_cases(&args.out, &set.cases)?;
        let missed = set.matrix.missed();
        text += &format!("\n{}", set.matrix);
        let applicable = Mistake::SIMULATED.len() - set.matrix.not_applicable().len();
        text += &format!(
            "{} case{} chosen from {} catch {} of the {applicable} faults of the catalogue \
             that apply to this release",
            set.cases.len(),
            if set.cases.len() == 1 { "" } else { "s" },
            set.candidates,
            applicable - missed.len(),
        );
        if missed.is_empty() {
            text += "\n";
        } else {
            let names: Vec<&str> = missed.iter().map(|f| f.name()).collect();
            text += &format!(
                "; no candidate catches {} (not in this release or task, or rare: try \
                 more --candidates)\n",
                names.join(", ")
            );
        }
        text += &format!("written to {}\n", args.out.display());
        return print_out(&text);
    }
    let cases = gen::generate(&options, &SolverFlags)?;
    let mut text = write_cases(&args.out, &cases)?;
    let noun = if cases.len() == 1 { "case" } else { "cases" };
    text += &format!("{} {noun} written to {}\n", cases.len(), args.out.display());
    print_out(&text)
}

/// Writes each case's folder under `out` and returns one line for each.
fn write_cases(out: &Path, cases: &[gen::GeneratedCase]) -> Result<String> {
    let width = cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for case in cases {
        let folder = out.join(&case.name);
        fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let mut files = vec![
            ("input.txt", &case.input[..]),
            ("output.txt", &case.output[..]),
        ];
        if !case.args.is_empty() {
            files.push(("args", case.args.as_bytes()));
        }
        for (name, bytes) in files {
            let path = folder.join(name);
            write_whole(&path, bytes)?;
        }
        text += &format!(
            "{:<width$}  {} to move, depth {}, {} log line{}\n",
            case.name,
            char::from(case.player.symbol()),
            case.depth,
            case.log_lines,
            if case.log_lines == 1 { "" } else { "s" }
        );
    }
    Ok(text)
}
