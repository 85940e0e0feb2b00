//! Running a student's program on one case, in the sandbox, and reading what it
//! left: an output to compare, or why there is none.

use std::fs;
use std::io;

use super::{covers, Case, Turn, Verdict};
use crate::printable::printable_bytes;
use crate::sandbox::{Ending, Limits, OutputFile, Program, Run, Sandbox};

/// What running a case gave.
pub(super) enum Produced {
    /// An output file to compare.
    Output(Vec<u8>),
    /// No output to compare: a crash, a timeout, nothing written; and whether the
    /// lines of standard error the row shows hold a CR (a crash on a CR read from
    /// `input.txt`, as `KeyError: 'X\r'`).
    Failed(Verdict, String, bool),
}

/// Lines of a crashed program's standard error shown in its row.
const STDERR_LINES: usize = 3;

/// Why a run that hit a time limit was killed, in words.
fn time_limit(run: &Run, limits: &Limits) -> String {
    match (run.ending, limits.run_cpu) {
        (Ending::CpuTime, Some(cpu)) => format!(
            "used {} s of CPU time (--timeout; all its processes and threads): every process \
             of the run was killed",
            cpu.as_secs_f64()
        ),
        (_, Some(_)) => format!(
            "still running after {} s of wall time (3 x --timeout + 1 s) with {:.1} s of CPU \
             time used (sleeping or waiting): every process of the run was killed",
            limits.wall.as_secs_f64(),
            // Rounded down: a tenth is shown only once it was used.
            (run.cpu.as_secs_f64() * 10.0).floor() / 10.0
        ),
        (_, None) => format!(
            "still running after {} s: every process of the run was killed",
            limits.wall.as_secs_f64()
        ),
    }
}

/// Whether `run` hit a time limit that others' load may have made it hit: its CPU
/// time, or the wall-time net after computing (at least a tenth of its CPU time
/// used: a program that sleeps hits the net whatever the load), while others kept
/// the machine busy.
fn starved(run: &Run, limits: &Limits) -> bool {
    let computing = match (run.ending, limits.run_cpu) {
        (Ending::CpuTime, _) => true,
        (Ending::WallTime, Some(cpu)) => run.cpu * 10 >= cpu,
        _ => false,
    };
    computing && run.loaded
}

/// Runs a student's program on `input` the way the course's grader does, in the
/// sandbox. A run that hits a time limit while others keep the machine busy is run
/// once more alone (holding every slot of `turn`) before it is called TIMEOUT.
pub(super) fn run_program(
    case: &Case,
    input: &[u8],
    command: &str,
    sandbox: &Sandbox,
    turn: &mut Turn,
) -> io::Result<Produced> {
    let expected = fs::metadata(&case.expected)?.len();
    let program = Program {
        command,
        args: &[],
        files: &[("input.txt", input)],
    };
    let limits = sandbox.limits();
    let mut run = sandbox.run(&program)?;
    let mut first = None;
    let mut spent = false;
    if starved(&run, &limits) {
        if covers(turn.deadline, limits.wall) {
            first = Some(time_limit(&run, &limits));
            turn.alone();
            turn.again = Some(std::time::Instant::now());
            run = sandbox.run(&program)?;
        } else {
            spent = true;
        }
    }
    let again = |detail: String| match &first {
        _ if spent => format!(
            "{detail} (on a loaded machine; not run again alone: the grading's time budget \
             was spent)"
        ),
        Some(first) if detail.starts_with(first.as_str()) => {
            format!("{detail} (run again alone, the machine being loaded: the same)")
        }
        Some(first) => {
            format!("{detail} (run again alone, the machine being loaded; its first run {first})")
        }
        None => detail,
    };
    let stderr_cr = run
        .stderr
        .last_lines(STDERR_LINES)
        .iter()
        .any(|line| line.contains(&b'\r'));
    let stderr = || run.stderr.shown(STDERR_LINES, "; stderr: ");
    let exhausted = || {
        let mut text = String::new();
        if run.exhausted.memory {
            text += &format!(
                ", out of memory (the limit is {} MiB, --memory)",
                limits.memory >> 20
            );
        }
        if run.exhausted.processes {
            text += &format!(
                ", hit the process limit ({}, --processes)",
                limits.processes
            );
        }
        text
    };
    let failed = |verdict, detail: String| Ok(Produced::Failed(verdict, again(detail), stderr_cr));
    let files = || {
        format!(
            "its files passed {} MiB in all (--file-size; the work folder and its temporary \
             folder together): not read",
            limits.file_size >> 20
        )
    };
    if let (Ending::Deadline, Some(first)) = (run.ending, &first) {
        // (the first run's verdict stands, as where the budget could not cover the
        // second)
        let detail = format!(
            "{first} (on a loaded machine; run again alone, it was ended by the end of the \
             grading's time budget)"
        );
        return Ok(Produced::Failed(Verdict::Timeout, detail, stderr_cr));
    }
    let ended = match run.ending {
        Ending::FilesTooLarge => Some((Verdict::OutputTooLarge, files())),
        ending if run.files_full && ending != Ending::Stopped && ending != Ending::Deadline => {
            Some((Verdict::OutputTooLarge, files()))
        }
        Ending::Exited(0) => None,
        Ending::WallTime | Ending::CpuTime => Some((
            Verdict::Timeout,
            format!("{}{}", time_limit(&run, &limits), exhausted()),
        )),
        Ending::Signal(libc::SIGXCPU) => Some((
            Verdict::Timeout,
            format!(
                "used {} s of CPU time (--cpu-time): killed{}",
                limits.cpu.as_secs(),
                exhausted()
            ),
        )),
        Ending::Signal(libc::SIGXFSZ) => Some((
            Verdict::OutputTooLarge,
            format!(
                "wrote a file past {} MiB (--file-size): killed",
                limits.file_size >> 20
            ),
        )),
        Ending::Signal(signal) => Some((
            Verdict::Crash,
            format!(
                "killed by {}{}{}",
                signal_name(signal),
                exhausted(),
                stderr()
            ),
        )),
        Ending::Deadline => Some((Verdict::NotRun, super::BUDGET_ENDED.into())),
        Ending::Stopped => Some((
            Verdict::Interrupted,
            "interrupted (Ctrl-C, SIGTERM or SIGHUP to the grader): every process of the run \
             was killed"
                .into(),
        )),
        Ending::Exited(code) => Some((
            Verdict::Crash,
            format!("exit status {code}{}{}", exhausted(), stderr()),
        )),
    };
    if let Some((verdict, detail)) = ended {
        return failed(verdict, detail);
    }
    // Twice the expected size, and at least 64 KiB more: room for any wrong answer.
    let bound = expected + expected.max(64 << 10);
    match run.read_output("output.txt", bound)? {
        OutputFile::Regular(bytes) => Ok(Produced::Output(bytes)),
        OutputFile::Missing => {
            let mut detail = "exited 0 without writing output.txt".to_string();
            let others = run.other_files(&["input.txt"]);
            if !others.is_empty() {
                let names: Vec<String> = others.iter().map(|n| printable_bytes(n)).collect();
                detail += &format!("; it left {}", names.join(", "));
            }
            if run.stdout.size > 0 {
                detail += &format!(
                    "; it printed {} bytes to standard output instead",
                    run.stdout.size
                );
            }
            failed(Verdict::NoOutput, detail)
        }
        OutputFile::NotAFile(what) => failed(
            Verdict::NotAFile,
            format!("output.txt is {what}, not a regular file: not read"),
        ),
        OutputFile::TooLarge(size) => failed(
            Verdict::OutputTooLarge,
            format!(
                "output.txt has {size} bytes, the expected one {expected}: not read past \
                 {bound}"
            ),
        ),
    }
}

/// A signal's name, as in `kill -l`, with its number.
fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {signal}"),
    };
    format!("{name} (signal {signal})")
}
