//! The command line: argument parsing, files, messages and exit codes.
//!
//! Exit status: 0 done, 2 bad input or bad arguments, 1 an I/O failure.

mod courses;
mod uf;
mod york;

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod grader;
mod sandbox;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use thiserror::Error;

use crate::board::{perft, Geometry};
use crate::format::cs561::{self, Dialect, InputError, MAX_INPUT_BYTES};
use crate::format::{LineEnd, Style};

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
    /// Write new cases (input.txt and our output.txt) from random legal playouts,
    /// reproducible from the seed.
    Gen(grader::GenArgs),
    /// Draw the alpha-beta tree of an input (or of a log) as a self-contained HTML page.
    Tree(grader::TreeArgs),
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
    /// Umea 5DV122/5DV181: print one move, `(row,col)` or `pass`, for a position.
    Umea(umea::UmeaArgs),
    /// CSU CS440 Tri-state Othello: print one move, or `skip`, for a board file.
    Tristate(tristate::TristateArgs),
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
    #[error("{what}: {message}")]
    BadArgument { what: String, message: String },
}

/// Runs the program on the process's arguments and returns its exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is::<grader::Failed>() => ExitCode::from(1),
        Err(error) => {
            eprintln!("reversi: {error:#}");
            let status = if grader::is_usage_error(&error) {
                2
            } else {
                exit_status(&error)
            };
            ExitCode::from(status)
        }
    }
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

/// Carries out a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let started = std::time::Instant::now();
    match cli.command {
        None => solve(&cli.solve, started),
        Some(Command::Check(args)) => grader::check(&args),
        Some(Command::Batch(args)) => grader::batch(&args),
        Some(Command::Gen(args)) => grader::gen(&args),
        Some(Command::Tree(args)) => grader::tree(&args),
        Some(Command::Perft { depth, size }) => {
            let geometry = Geometry::rectangle(size, size);
            println!("{}", perft(geometry.start(), geometry, depth));
            Ok(())
        }
        Some(Command::York(args)) => york::run(args),
        Some(Command::Uf(args)) => uf::run(args),
        Some(Command::Umea(args)) => umea::run(args, started),
        Some(Command::Tristate(args)) => tristate::run(args, started),
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
/// whole. A missing file is bad input (exit 2); `hint` follows its message.
fn read_input(path: &Path, hint: &'static str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let result = if path == Path::new("-") {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        match File::open(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(UsageError::MissingInput {
                    path: display_name(path),
                    hint,
                }
                .into())
            }
            Err(e) => Err(e),
            Ok(file) => file.take(limit).read_to_end(&mut bytes),
        }
    };
    result.with_context(|| format!("cannot read {}", display_name(path)))?;
    Ok(bytes)
}

fn solve(args: &SolveArgs, started: std::time::Instant) -> Result<()> {
    let bytes = read_input(&args.input, " (name another input with -i PATH)")?;
    let request = cs561::parse_request(&bytes, args.dialect.map(Dialect::from))
        .with_context(|| display_name(&args.input))?;
    let style = args.style();
    let problem = match request {
        cs561::Request::Solve(problem) => problem,
        cs561::Request::Compete(competition) => {
            return write_to(&args.output, |out| {
                cs561::write_competition(&competition, style, started, out).map(drop)
            })
        }
    };
    if args.output == Path::new("-") {
        let stdout = io::stdout();
        cs561::write_output_stream(&problem, style, stdout).context("cannot write <stdout>")?;
        return Ok(());
    }
    let name = args.output.display();
    if is_special_file(&args.output) {
        // A device or a pipe (`/dev/null`, a FIFO) is written to, never replaced.
        let device = fs::OpenOptions::new()
            .write(true)
            .open(&args.output)
            .with_context(|| format!("cannot open {name}"))?;
        cs561::write_output_stream(&problem, style, device)
            .with_context(|| format!("cannot write {name}"))?;
        return Ok(());
    }
    replace_file(&args.output, |file| {
        cs561::write_output(&problem, style, file).map(drop)
    })
    .with_context(|| format!("cannot write {name}"))
}

/// Whether `path` exists and is neither a regular file nor a folder (after links).
fn is_special_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
}

/// Writes to standard output (`-`) or a device or pipe, or replaces the file `path`
/// with what `write` writes.
fn write_to(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    if path == Path::new("-") {
        let mut stdout = io::stdout().lock();
        return write(&mut stdout).context("cannot write <stdout>");
    }
    let name = path.display();
    if is_special_file(path) {
        let mut device = fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {name}"))?;
        return write(&mut device).with_context(|| format!("cannot write {name}"));
    }
    replace_file(path, |file| write(file)).with_context(|| format!("cannot write {name}"))
}

/// Writes a new file beside `path` with `write` and renames it over `path` only once
/// complete, so that `path` is never partial and is left as it was on any failure.
/// A link is followed: the file it points to is replaced, the link stays.
fn replace_file(path: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let resolved = fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::Builder::new()
        .prefix(".reversi-")
        .tempfile_in(folder)?;
    write(temporary.as_file_mut())?;
    // A temporary file is private (0600): give the result the permissions of the
    // file it replaces, or the usual ones of a new file.
    match fs::metadata(path) {
        Ok(existing) => temporary
            .as_file()
            .set_permissions(existing.permissions())?,
        Err(_) => set_new_file_permissions(temporary.as_file())?,
    }
    temporary.as_file_mut().flush()?;
    temporary.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(unix)]
fn set_new_file_permissions(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_new_file_permissions(_: &File) -> io::Result<()> {
    Ok(())
}
