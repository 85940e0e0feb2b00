//! The command line: argument parsing, files, messages and exit codes.
//!
//! Exit status: 0 done, 2 bad input or bad arguments, 1 an I/O failure.

mod courses;
mod uf;
mod york;

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod grade;
mod grader;
mod sandbox;
mod tree;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use thiserror::Error;

use crate::board::{perft, Geometry};
use crate::format::cs561::{self, Dialect, InputError, MAX_INPUT_BYTES};
use crate::format::{LineEnd, Style};
use crate::output_file::{self, Durability, Sink, WriteError};
use crate::printable::terminal_text;

mod arena;
mod arena_merge;
mod arena_resume;
mod arena_shaped;
mod arena_suite;
mod arena_uf;
mod engine;
mod nboard;
mod tristate;
mod umea;

/// Solve CSCI-561 Reversi inputs byte-exact, and grade Othello search homework.
///
/// With no arguments: read ./input.txt, write ./output.txt (the next board and the
/// alpha-beta traverse log), as the homework grader runs a student's program.
#[derive(Debug, Parser)]
#[command(name = "reversi", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
    /// Stop with exit 2 if the output (board and traverse log) would be larger than N
    /// bytes, leaving the output file as it was.
    // Not among SolveArgs: a case's `args` file has no use for it.
    #[arg(long, value_name = "N", default_value_t = output_file::DEFAULT_MAX_BYTES)]
    max_log_bytes: u64,
    /// Flush the output file to disk (fsync) before it replaces output.txt, so that
    /// it survives a power cut; about doubles the time of a large log.
    #[arg(long)]
    fsync: bool,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// The input file; `-` reads standard input.
    #[arg(short, long, value_name = "PATH", default_value = "input.txt")]
    input: PathBuf,
    /// The output file, replaced only once complete; `-` writes standard output.
    #[arg(short, long, value_name = "PATH", default_value = "output.txt")]
    output: PathBuf,
    /// The homework release [default: f2014 if the first line is a task number, else s2017].
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Line ends of the output.
    #[arg(long, value_enum, default_value_t = EolArg::Crlf)]
    eol: EolArg,
    /// End the last line of the output too (the official files do not).
    #[arg(long)]
    final_newline: bool,
}

impl SolveArgs {
    /// The byte form these flags ask for.
    fn style(&self) -> Style {
        style(self.eol, self.final_newline)
    }
}

/// The byte form of `--eol` and `--final-newline`.
fn style(eol: EolArg, final_newline: bool) -> Style {
    Style {
        line_end: match eol {
            EolArg::Crlf => LineEnd::Crlf,
            EolArg::Lf => LineEnd::Lf,
        },
        final_newline,
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compare an output file with the expected one and explain the first difference
    /// (exit 0 identical, 1 different, 2 bad arguments).
    Check(grader::CheckArgs),
    /// Solve every case under a folder (or run a student's program on each) and
    /// compare with the expected outputs; exit 1 if any case fails.
    Batch(grader::BatchArgs),
    /// Grade a class: every student's program on the same cases, in the sandbox, with
    /// a row per student and the reports platforms read (exit 0 once graded);
    /// `grade merge` joins the reports of a class graded in shards.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade(grade::GradeCommand),
    /// Write a ready-to-upload autograder for Gradescope or Vocareum: this binary, the
    /// cases and the platform's scripts, which run `grade` on each submission.
    Package(grade::PackageArgs),
    /// Write new cases (input.txt and our output.txt) from random legal playouts,
    /// reproducible from the seed.
    Gen(grader::GenArgs),
    /// Draw the alpha-beta tree of an input (or of a log) as a self-contained HTML page.
    Tree(tree::TreeArgs),
    /// Count the leaves of the move tree (a pass is one ply; a finished game one leaf).
    Perft {
        /// Plies to search.
        depth: u32,
        /// Width and height of the square board, from the standard start.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(2..=8))]
        size: u8,
    },
    /// York EECS 3401 A4 (6x6, fewer discs win): answer an `mmeval` query, or play.
    ///
    /// Prints `Val = V, BestMv = [X,Y], SeF = N` as the Prolog query
    /// `mmeval(Plyr, State, Val, BestMv, Depth, SeF)` does; `play` is the game.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    York(york::YorkArgs),
    /// UF CAP4053 Reversi: the example AI's move, or its games against itself.
    Uf(uf::UfArgs),
    /// Referee a class of students' agents: a gauntlet against references, a round
    /// robin, a knockout, UF's six pairings or a legality suite, every agent in the sandbox
    /// (docs/arena.md); `arena merge` joins the reports of a tournament played in shards.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Arena(arena_merge::ArenaCommand),
    /// Umea 5DV122/5DV181: print one move, `(row,col)` or `pass`, for a position.
    Umea(umea::UmeaArgs),
    /// CSU CS440 Tri-state Othello: print one move, or `skip`, for a board file.
    ///
    /// The board file: a first line `B|W WIDTH HEIGHT` (the side to move, then the
    /// board's size), then HEIGHT rows of WIDTH cells: `B`, `W`, `-` (empty) and `E`
    /// (empty but never playable; a line of discs stops at it). Spaces between cells,
    /// blank lines and CRLF are accepted. Example: testcases/tristate/sample.txt.
    Tristate(tristate::TristateArgs),
    /// The timed engine's own tools: solve a position exactly, train the evaluation's
    /// weights, measure its speed and its odd-even effect (docs/engine.md).
    Engine(engine::EngineArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum DialectArg {
    /// Spring 2017, revised samples: only two passes in a row end the game.
    S2017,
    /// Spring 2017, first samples: also a full board, a wiped-out colour, two passes.
    S2017Jan,
    /// Fall 2014 (a task line first): the same end rule as s2017-jan.
    F2014,
}

impl From<DialectArg> for Dialect {
    fn from(arg: DialectArg) -> Dialect {
        match arg {
            DialectArg::S2017 => Dialect::S2017,
            DialectArg::S2017Jan => Dialect::S2017Jan,
            DialectArg::F2014 => Dialect::F2014,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EolArg {
    /// `\r\n`, as the official files.
    Crlf,
    /// `\n`.
    Lf,
}

/// Failures that the user fixes by changing the input or the arguments (exit 2).
#[derive(Debug, Error)]
enum UsageError {
    #[error("{path}: no such file{hint}")]
    MissingInput { path: String, hint: &'static str },
    #[error("{path}: {found}; expected a regular file (or - for standard input)")]
    NotAFile { path: String, found: &'static str },
    #[error("{what}: {message}")]
    BadArgument { what: String, message: String },
    #[error(
        "{path}: the output would be larger than the limit of {limit} bytes; {path} is left \
         as it was (raise the limit with --max-log-bytes N)"
    )]
    OutputTooLarge { path: String, limit: u64 },
    #[error(
        "{path}: the output was cut at the limit of {limit} bytes (raise the limit with \
         --max-log-bytes N)"
    )]
    OutputCut { path: String, limit: u64 },
}

/// Runs the program on the process's arguments and returns its exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is::<grader::Failed>() => ExitCode::from(1),
        // The reader of a pipe stopped (`| head`): its choice, so stop quietly and
        // successfully, as ripgrep does.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) if error.is::<grade::Interrupted>() || error.is::<arena_resume::Stopped>() => {
            eprintln!("reversi: {error}");
            ExitCode::from(130)
        }
        Err(error) => {
            // A student names folders that errors name: shown as the terminal shows
            // any report.
            let message = format!("{error:#}");
            eprintln!("reversi: {}", terminal_text(&message));
            let status = if grader::is_usage_error(&error) {
                2
            } else {
                exit_status(&error)
            };
            ExitCode::from(status)
        }
    }
}

/// Whether `error` comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// 2 for bad input or arguments, 1 for anything else (I/O).
fn exit_status(error: &anyhow::Error) -> u8 {
    let bad_input = error.chain().any(|cause| {
        cause.is::<InputError>() || cause.is::<UsageError>() || courses::is_bad_input(cause)
    });
    if bad_input {
        2
    } else {
        1
    }
}

/// When this process began: now, less the time the kernel says has passed since it
/// was created, so that a slow start (loading the program on a busy machine)
/// counts against a move's time limit as the caller's clock counts it; the same
/// instant wherever it is read. Now where that cannot be read.
fn process_started() -> std::time::Instant {
    let now = std::time::Instant::now();
    since_creation()
        .and_then(|elapsed| now.checked_sub(elapsed))
        .unwrap_or(now)
}

/// The time since the kernel created this process, from Linux's `/proc` (to 10 ms).
fn since_creation() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Field 22, counted after the command name (field 2, in parentheses).
    let ticks: f64 = stat[stat.rfind(')')? + 1..]
        .split_whitespace()
        .nth(19)?
        .parse()
        .ok()?;
    // SAFETY: sysconf only reads a system constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let seconds = uptime - ticks / per_second;
    (per_second > 0.0 && (0.0..60.0).contains(&seconds))
        .then(|| std::time::Duration::from_secs_f64(seconds))
}

/// Carries out a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => {
            let durability = if cli.fsync {
                Durability::Flushed
            } else {
                Durability::Cached
            };
            solve(&cli.solve, cli.max_log_bytes, durability)
        }
        Some(Command::Check(args)) => grader::check(&args),
        Some(Command::Batch(args)) => grader::batch(&args),
        Some(Command::Grade(args)) => grade::run(&args),
        Some(Command::Package(args)) => grade::package(&args),
        Some(Command::Gen(args)) => grader::gen(&args),
        Some(Command::Tree(args)) => tree::tree(&args),
        Some(Command::Perft { depth, size }) => {
            let geometry = Geometry::rectangle(size, size);
            println!("{}", perft(geometry.start(), geometry, depth));
            Ok(())
        }
        Some(Command::York(args)) => york::run(args),
        Some(Command::Uf(args)) => uf::run(args),
        Some(Command::Umea(args)) => umea::run(args),
        Some(Command::Arena(args)) => arena_merge::command(&args),
        Some(Command::Engine(args)) => engine::run(args),
        Some(Command::Tristate(args)) => tristate::run(args),
    }
}

fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// Reads `path` (`-`: standard input), at most one byte more than
/// [`MAX_INPUT_BYTES`], so that a parser can refuse a huge file without it being read
/// whole. A missing file, or one that is not a regular file (a FIFO, a device, a
/// folder), is bad input (exit 2), refused without waiting on it; `hint` follows the
/// message of a missing file.
fn read_input(path: &Path, hint: &'static str) -> Result<Vec<u8>> {
    read_input_up_to(path, MAX_INPUT_BYTES as u64 + 1, hint)
}

/// Reads `path` (`-`: standard input) as [`read_input`] does, at most `limit` bytes.
fn read_input_up_to(path: &Path, limit: u64, hint: &'static str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let result = if path == Path::new("-") {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        match open_input(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(UsageError::MissingInput {
                    path: display_name(path),
                    hint,
                }
                .into())
            }
            Err(e) => Err(e),
            Ok(file) => match file.metadata() {
                Ok(meta) if !meta.is_file() => {
                    return Err(UsageError::NotAFile {
                        path: display_name(path),
                        found: file_kind(&meta.file_type()),
                    }
                    .into())
                }
                Ok(_) => file.take(limit).read_to_end(&mut bytes),
                Err(e) => Err(e),
            },
        }
    };
    result.with_context(|| format!("cannot read {}", display_name(path)))?;
    Ok(bytes)
}

/// Opens `path` for reading without waiting for a writer, should it be a FIFO.
fn open_input(path: &Path) -> io::Result<File> {
    let mut options = File::options();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// What a file that is not a regular file is, for a message.
fn file_kind(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

fn solve(args: &SolveArgs, max_bytes: u64, durability: Durability) -> Result<()> {
    let bytes = read_input(&args.input, " (name another input with -i PATH)")?;
    let request = cs561::parse_request(&bytes, args.dialect.map(Dialect::from))
        .with_context(|| display_name(&args.input))?;
    let style = args.style();
    let written = match request {
        cs561::Request::Solve(problem) => {
            output_file::write_to(&args.output, max_bytes, durability, |sink| {
                match sink {
                    Sink::Stream(out) => cs561::write_output_stream(&problem, style, out),
                    Sink::File(file) => cs561::write_output(&problem, style, file),
                }
                .map(drop)
            })
        }
        cs561::Request::Compete(competition) => {
            let started = process_started();
            output_file::write_to(&args.output, max_bytes, durability, |sink| {
                cs561::write_competition(&competition, style, started, sink).map(drop)
            })
        }
    };
    written.map_err(|error| write_error(error, &args.output))
}

/// The message and exit status of an output `path` that could not be written.
fn write_error(error: WriteError, path: &Path) -> anyhow::Error {
    let path = if path == Path::new("-") {
        "<stdout>".into()
    } else {
        path.display().to_string()
    };
    match error {
        WriteError::TooLarge {
            limit,
            in_place: false,
        } => UsageError::OutputTooLarge { path, limit }.into(),
        WriteError::TooLarge {
            limit,
            in_place: true,
        } => UsageError::OutputCut { path, limit }.into(),
        WriteError::Io(error) => anyhow::Error::new(error).context(format!("cannot write {path}")),
    }
}
