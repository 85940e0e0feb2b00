//! `batch`: every case under a folder, solved by our solver or run through a
//! student's program, compared byte for byte, on all cores.

use std::fs;
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;
use walkdir::WalkDir;

use crate::explain::catching::{caught_by, Matrix};
use crate::explain::check::{check_with_input, Report};
use crate::format::cs561::{self, Dialect};
use crate::format::Style;
use crate::output_file::{self, Durability};
use crate::printable::serialize_name;
use crate::sandbox::policy::{self, PolicyError};
use crate::sandbox::Sandbox;

mod line_ends;
mod program;
mod slots;

use line_ends::{note_lf, run_with_lf, LineEndsProbe, Rerun};
use program::{run_program, Produced};
use slots::Turn;
pub use slots::{covers, time_left, Slots, BUDGET_ENDED, BUDGET_SPENT};

/// How a case is solved: the dialect (none: told by the input) and byte form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaseOptions {
    /// The dialect to read the input in; `None` lets the input tell.
    pub dialect: Option<Dialect>,
    /// The output's byte form.
    pub style: Style,
}

/// The syntax of a case folder's `args` file: the solver's own flags, which the
/// command line defines, so it implements this.
pub trait ArgsSyntax: Sync {
    /// Reads the text of an `args` file.
    fn parse(&self, text: &str) -> Result<CaseOptions, String>;
    /// Writes `options` as the text of an `args` file (empty for the defaults).
    fn render(&self, options: &CaseOptions) -> String;
}

/// One case: an input, the expected output, and maybe an `args` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The case's path under the batch folder, without extension.
    pub name: String,
    /// `input.txt` or `NAME.in`.
    pub input: PathBuf,
    /// `output.txt` or `NAME.out`.
    pub expected: PathBuf,
    /// `NAME.args`, or the folder's `args`, when there is one.
    pub args: Option<PathBuf>,
}

/// Why a batch cannot run (bad arguments: exit 2).
#[derive(Debug, Error)]
pub enum BatchError {
    /// The folder does not exist or cannot be read.
    #[error("{path}: cannot read the folder: {reason}")]
    Folder {
        /// The folder or file that could not be read.
        path: String,
        /// Why.
        reason: String,
    },
    /// The folder holds no case.
    #[error(
        "{path}: no case found (a case is a folder with input.txt and output.txt, or a \
         pair NAME.in and NAME.out)"
    )]
    NoCases {
        /// The folder.
        path: String,
    },
}

/// Finds every case under `dir`, in path order.
pub fn find_cases(dir: &Path) -> Result<Vec<Case>, BatchError> {
    let mut cases = Vec::new();
    let folder_error = |error: walkdir::Error| BatchError::Folder {
        path: error.path().unwrap_or(dir).display().to_string(),
        reason: error
            .io_error()
            .map_or_else(|| error.to_string(), ToString::to_string),
    };
    for entry in WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(folder_error)?;
        let path = entry.path();
        let relative = path.strip_prefix(dir).unwrap_or(path);
        let named = |relative: &Path| {
            let name = relative.to_string_lossy().replace('\\', "/");
            if name.is_empty() {
                dir.file_name()
                    .map_or(".".into(), |n| n.to_string_lossy().into_owned())
            } else {
                name
            }
        };
        let folder_args = |folder: &Path| Some(folder.join("args")).filter(|a| a.is_file());
        if entry.file_type().is_dir() {
            let (input, expected) = (path.join("input.txt"), path.join("output.txt"));
            if input.is_file() && expected.is_file() {
                cases.push(Case {
                    name: named(relative),
                    input,
                    expected,
                    args: folder_args(path),
                });
            }
        } else if path.extension().is_some_and(|e| e == "in") {
            let expected = path.with_extension("out");
            if expected.is_file() {
                let own_args = Some(path.with_extension("args")).filter(|a| a.is_file());
                let folder = path.parent().unwrap_or(dir);
                cases.push(Case {
                    name: named(&relative.with_extension("")),
                    input: path.to_path_buf(),
                    expected,
                    args: own_args.or_else(|| folder_args(folder)),
                });
            }
        }
    }
    if cases.is_empty() {
        return Err(BatchError::NoCases {
            path: dir.display().to_string(),
        });
    }
    Ok(cases)
}

/// What produces the output of a case.
pub enum Runner<'a> {
    /// Our solver, with the options of the case's `args` file.
    Solver(&'a dyn ArgsSyntax),
    /// A student's program: a shell command run in `sandbox`, in a fresh folder
    /// holding only `input.txt`, which must write `output.txt` there within the
    /// sandbox's limits.
    Program {
        /// The command, run by `sh -c`.
        command: String,
        /// Where and how it runs.
        sandbox: Sandbox,
    },
}

impl Runner<'_> {
    /// A student's program run by `command` in `sandbox` on the cases found in `dir`,
    /// once the sandbox's policy lets it: nothing shown to the programs holds the
    /// cases, no run could read an expected output, and every file the command
    /// names is there for the program to see.
    pub fn program(
        command: &str,
        sandbox: Sandbox,
        dir: &Path,
        cases: &[Case],
    ) -> Result<Runner<'static>, PolicyError> {
        policy::refuse_showing_cases(dir, sandbox.read_only())?;
        policy::refuse_readable_cases(&sandbox, cases.iter().map(|c| c.expected.as_path()))?;
        policy::refuse_unseen_files(command, &sandbox)?;
        Ok(Runner::Program {
            command: command.to_string(),
            sandbox,
        })
    }
}

/// The verdict on one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The output is right (byte-identical, or identical under `--lenient`).
    Pass,
    /// The output differs; the report says how.
    Fail,
    /// The program exited with a non-zero status or was killed by a signal.
    Crash,
    /// The program ran past the time limit and was killed.
    Timeout,
    /// The program exited normally without writing `output.txt`.
    NoOutput,
    /// The program left an `output.txt` that is not a regular file (a link, a FIFO,
    /// a device, a folder): not read.
    NotAFile,
    /// The program wrote a file past the file-size limit, or an `output.txt` far
    /// larger than the expected one: not read.
    OutputTooLarge,
    /// The case could not be run (unreadable files, a bad input or `args` file).
    Error,
    /// The grader was interrupted (Ctrl-C, SIGTERM or SIGHUP) while the case ran.
    Interrupted,
    /// Not run: the submission holds no program to run.
    MissingFile,
    /// Not run: the submission's program did not build.
    CompileError,
    /// Not run: the grading's time budget was spent, or the grading ended first.
    NotRun,
}

impl Verdict {
    /// The word printed in a row.
    pub const fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Crash => "CRASH",
            Verdict::Timeout => "TIMEOUT",
            Verdict::NoOutput => "NO OUTPUT",
            Verdict::NotAFile => "NOT A FILE",
            Verdict::OutputTooLarge => "OUTPUT TOO LARGE",
            Verdict::Error => "ERROR",
            Verdict::Interrupted => "INTERRUPTED",
            Verdict::MissingFile => "MISSING FILE",
            Verdict::CompileError => "COMPILE ERROR",
            Verdict::NotRun => "NOT RUN",
        }
    }
}

/// The result of one case.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name.
    #[serde(serialize_with = "serialize_name")]
    pub case: String,
    /// What happened.
    pub verdict: Verdict,
    /// One line on what happened, for the row.
    pub detail: String,
    /// Wall-clock time of solving or running the case, in seconds.
    pub seconds: f64,
    /// The comparison, when there was an output to compare.
    pub report: Option<Report>,
    /// The program failed on the input as given, but was right on it with LF line
    /// ends: `input.txt` read with its CR (the mistake `check` names so).
    pub depends_on_cr: bool,
}

/// Counts of each verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Cases run.
    pub total: usize,
    /// Cases that passed.
    pub passed: usize,
    /// Outputs that differ.
    pub failed: usize,
    /// Programs that crashed.
    pub crashed: usize,
    /// Programs that ran out of time.
    pub timed_out: usize,
    /// Programs that wrote no output.
    pub no_output: usize,
    /// Programs whose `output.txt` was not read: not a regular file, or too large.
    pub bad_output: usize,
    /// Cases that could not be run.
    pub errors: usize,
}

impl Summary {
    /// Counts the verdicts of `results`.
    pub fn of(results: &[CaseResult]) -> Summary {
        let mut summary = Summary {
            total: results.len(),
            ..Summary::default()
        };
        for result in results {
            *match result.verdict {
                Verdict::Pass => &mut summary.passed,
                Verdict::Fail => &mut summary.failed,
                Verdict::Crash => &mut summary.crashed,
                Verdict::Timeout => &mut summary.timed_out,
                Verdict::NoOutput => &mut summary.no_output,
                Verdict::NotAFile | Verdict::OutputTooLarge => &mut summary.bad_output,
                Verdict::Error
                | Verdict::Interrupted
                | Verdict::MissingFile
                | Verdict::CompileError
                | Verdict::NotRun => &mut summary.errors,
            } += 1;
        }
        summary
    }

    /// Whether every case passed.
    pub fn all_passed(&self) -> bool {
        self.passed == self.total
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cases = if self.total == 1 { "case" } else { "cases" };
        write!(f, "{} {cases}: {} passed", self.total, self.passed)?;
        let others = [
            (self.failed, "failed"),
            (self.crashed, "crashed"),
            (self.timed_out, "timed out"),
            (self.no_output, "wrote no output"),
            (self.bad_output, "wrote an output.txt that was not read"),
            (self.errors, "could not run"),
        ];
        for (count, what) in others {
            if count > 0 {
                write!(f, ", {count} {what}")?;
            }
        }
        Ok(())
    }
}

/// How to run a batch.
pub struct BatchOptions<'a> {
    /// What produces the outputs.
    pub runner: Runner<'a>,
    /// Compare as the Fall 2014 grader (see [`check_with_input`]).
    pub lenient: bool,
    /// Cases run at once.
    pub jobs: usize,
    /// A folder to keep every output in, as `CASE/output.txt` (to look at a
    /// student's failures, or draw them with `tree --log`).
    pub keep: Option<PathBuf>,
    /// When set (by Ctrl-C), no more cases start; the results are those that ran.
    pub stop: Option<&'a AtomicBool>,
    /// Program runs allowed at once across batches run side by side (a class's
    /// students), each run holding one; none: only `jobs` bounds this batch.
    pub slots: Option<&'a Slots>,
    /// When the grading's time budget ends: no case starts later (see
    /// [`BUDGET_SPENT`]); the runner's sandbox ends what still runs then
    /// ([`BUDGET_ENDED`]).
    pub deadline: Option<Instant>,
}

/// What a running batch reports, after each case and every tenth of a second.
pub struct Update<'a> {
    /// Cases finished.
    pub done: usize,
    /// Cases in all.
    pub total: usize,
    /// Results that just became ready in case order: every case before them is done
    /// and was reported before.
    pub in_order: Vec<&'a CaseResult>,
}

/// Runs every case, `options.jobs` at a time, telling `observer` how it goes. The
/// results come in case order: all of them, or, when `options.stop` was set, those
/// that had started.
///
/// A case whose input has CRLF line ends and whose program wrote a wrong output, or
/// crashed showing a CR, may be run again with LF line ends once every case has run
/// (see `LineEndsProbe`): its result is reported then.
pub fn run(
    cases: &[Case],
    options: &BatchOptions,
    observer: &mut dyn FnMut(Update),
) -> Vec<CaseResult> {
    let own = Slots::new(options.jobs);
    let slots = options.slots.unwrap_or(&own);
    let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
    let mut waiting = vec![false; cases.len()];
    let (mut done, mut reported) = (0, 0);
    let mut report = |results: &[Option<CaseResult>], waiting: &[bool], done: usize| {
        let ready = results[reported..]
            .iter()
            .zip(&waiting[reported..])
            .take_while(|(r, w)| r.is_some() && !**w)
            .count();
        let in_order = results[reported..reported + ready]
            .iter()
            .flatten()
            .collect();
        reported += ready;
        observer(Update {
            done,
            total: cases.len(),
            in_order,
        });
    };
    let mut reruns = Vec::new();
    in_pool(
        cases.len(),
        options,
        slots,
        |index, turn| run_case(&cases[index], options, turn),
        &mut |finished| {
            if let Some((index, (result, rerun))) = finished {
                results[index] = Some(result);
                match rerun {
                    Some(rerun) => {
                        waiting[index] = true;
                        reruns.push((index, rerun));
                    }
                    None => done += 1,
                }
            }
            report(&results, &waiting, done);
        },
    );
    let Runner::Program { command, sandbox } = &options.runner else {
        return results.into_iter().flatten().collect();
    };
    let stopped = || {
        options
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    };
    reruns.sort_by_key(|(index, _)| *index);
    let probe = LineEndsProbe::choose(cases, &reruns)
        .filter(|_| covers(options.deadline, sandbox.limits().wall));
    let mut blind = false;
    let mut reads_cr = None;
    if let Some(at) = probe.filter(|_| !stopped()) {
        let (index, Rerun::Output(written)) = &reruns[at] else {
            unreachable!("the probe wrote an output")
        };
        let mut turn = Turn::take(slots, options.deadline);
        let lf = run_with_lf(&cases[*index], command, sandbox, &mut turn);
        drop(turn);
        blind = lf.as_ref() == Some(written);
        let result = results[*index].as_mut().expect("every case ran");
        if note_lf(result, lf.as_deref(), &cases[*index]) {
            reads_cr = Some(cases[*index].name.clone());
        }
        waiting[*index] = false;
        done += 1;
        reruns.remove(at);
    }
    let settled = blind || reads_cr.is_some();
    let (again, skipped): (Vec<_>, Vec<_>) = reruns
        .into_iter()
        .partition(|(_, rerun)| !(settled && matches!(rerun, Rerun::Output(_))));
    for (index, _) in skipped {
        if let Some(probe) = &reads_cr {
            let result = results[index].as_mut().expect("every case ran");
            result.detail += &format!(
                "; not run again with LF line ends: with them case {probe}'s output is \
                 right, so this program reads input.txt's CR, which may cause this \
                 difference too"
            );
        }
        waiting[index] = false;
        done += 1;
    }
    report(&results, &waiting, done);
    in_pool(
        again.len(),
        options,
        slots,
        |at, turn| {
            covers(turn.deadline, sandbox.limits().wall)
                .then(|| run_with_lf(&cases[again[at].0], command, sandbox, turn))
                .flatten()
        },
        &mut |finished: Option<(usize, Option<Vec<u8>>)>| {
            if let Some((at, lf)) = finished {
                let index = again[at].0;
                let result = results[index].as_mut().expect("every case ran");
                note_lf(result, lf.as_deref(), &cases[index]);
                waiting[index] = false;
                done += 1;
            }
            report(&results, &waiting, done);
        },
    );
    // (cases whose re-run did not start, once stopped, keep their first result)
    results.into_iter().flatten().collect()
}

/// Runs `work` on `0..count`, `options.jobs` at a time and each holding a turn of
/// `slots`, until `options.stop` is set; `finished` gets each result as it comes, in
/// this thread, and `None` every tenth of a second.
fn in_pool<T: Send>(
    count: usize,
    options: &BatchOptions,
    slots: &Slots,
    work: impl Fn(usize, &mut Turn) -> T + Sync,
    finished: &mut dyn FnMut(Option<(usize, T)>),
) {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, count.max(1)) {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || loop {
                if options
                    .stop
                    .is_some_and(|stop| stop.load(Ordering::Relaxed))
                {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    break;
                }
                let mut turn = Turn::take(slots, options.deadline);
                let done = work(index, &mut turn);
                drop(turn);
                if sender.send((index, done)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        loop {
            match receiver.recv_timeout(Duration::from_millis(100)) {
                Ok(result) => finished(Some(result)),
                Err(mpsc::RecvTimeoutError::Timeout) => finished(None),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
}

/// Runs one case and judges it; and, when the case may be run again with LF line
/// ends (its input has a CR), why.
fn run_case(case: &Case, options: &BatchOptions, turn: &mut Turn) -> (CaseResult, Option<Rerun>) {
    let start = Instant::now();
    if let Runner::Program { .. } = &options.runner {
        if !time_left(turn.deadline) {
            let result = CaseResult {
                case: case.name.clone(),
                verdict: Verdict::NotRun,
                detail: BUDGET_SPENT.into(),
                seconds: 0.0,
                report: None,
                depends_on_cr: false,
            };
            return (result, None);
        }
    }
    let produced = produce(case, &options.runner, turn).and_then(|produced| {
        match (&produced, &options.keep) {
            (Produced::Output(bytes), Some(folder)) => keep(folder, case, bytes),
            _ => Ok(()),
        }
        .map(|()| produced)
    });
    let mut written = None;
    let (verdict, detail, report, stderr_cr) = match produced {
        Ok(Produced::Output(actual)) => match fs::read(&case.expected) {
            Ok(expected) => {
                let problem = fs::read(&case.input)
                    .ok()
                    .and_then(|input| cs561::parse(&input, None).ok());
                let report =
                    check_with_input(&expected, &actual, options.lenient, problem.as_ref());
                let verdict = if report.passed() {
                    Verdict::Pass
                } else {
                    Verdict::Fail
                };
                let detail = if report.identical {
                    String::new()
                } else {
                    report.summary()
                };
                written = Some(actual);
                (verdict, detail, Some(report), false)
            }
            Err(e) => (
                Verdict::Error,
                format!("{}: {e}", file_name(&case.expected)),
                None,
                false,
            ),
        },
        Ok(Produced::Failed(verdict, detail, stderr_cr)) => (verdict, detail, None, stderr_cr),
        Err(message) => (Verdict::Error, message, None, false),
    };
    // The case's time as measured: the LF re-run is the grader's, not the case's, and
    // of a case run again alone, the second run's.
    let seconds = turn.again.unwrap_or(start).elapsed().as_secs_f64();
    // The LF re-run, only where its answer could explain the verdict: an output that
    // differs by more than its line ends, or a crash whose standard error shows a
    // CR. Never a timeout (it would cost another full --timeout), nor a run that
    // wrote no output or one not read.
    let has_cr = || fs::read(&case.input).is_ok_and(|input| input.contains(&b'\r'));
    let rerun = match (verdict, &options.runner) {
        (_, Runner::Solver(_)) => None,
        (Verdict::Fail, _) if !report.as_ref().is_some_and(|r| r.lenient_identical) => {
            written.map(Rerun::Output)
        }
        (Verdict::Crash, _) if stderr_cr => Some(Rerun::Crash),
        _ => None,
    }
    .filter(|_| has_cr());
    let result = CaseResult {
        case: case.name.clone(),
        verdict,
        detail,
        seconds,
        report,
        depends_on_cr: false,
    };
    (result, rerun)
}

/// Writes `bytes` to `folder/CASE/output.txt`.
fn keep(folder: &Path, case: &Case, bytes: &[u8]) -> Result<(), String> {
    let path = folder.join(&case.name).join("output.txt");
    path.parent()
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| {
            output_file::replace_file(&path, Durability::Cached, |file| file.write_all(bytes))
        })
        .map_err(|e| format!("cannot keep the output as {}: {e}", path.display()))
}

fn produce(case: &Case, runner: &Runner, turn: &mut Turn) -> Result<Produced, String> {
    match runner {
        Runner::Solver(syntax) => solve(case, *syntax).map(Produced::Output),
        Runner::Program { command, sandbox } => fs::read(&case.input)
            .and_then(|input| run_program(case, &input, command, sandbox, turn))
            .map_err(|e| format!("cannot run the program: {e}")),
    }
}

/// A file of a case named for its row, which already names the case: `args`,
/// `input.txt`, `NAME.in`.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The problem and byte form of a case folder, as our solver reads them (its `args`
/// file in `syntax`).
pub fn case_problem(
    case: &Case,
    syntax: &dyn ArgsSyntax,
) -> Result<(cs561::Problem, Style), String> {
    let options = match &case.args {
        Some(path) => {
            let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", file_name(path)))?;
            syntax
                .parse(&text)
                .map_err(|e| format!("{}: {e}", file_name(path)))?
        }
        None => CaseOptions::default(),
    };
    let input = fs::read(&case.input).map_err(|e| format!("{}: {e}", file_name(&case.input)))?;
    let problem = cs561::parse(&input, options.dialect)
        .map_err(|e| format!("{}: {e}", file_name(&case.input)))?;
    Ok((problem, options.style))
}

/// Solves a case with our solver, as `reversi` would with the case's `args`.
pub fn solve(case: &Case, syntax: &dyn ArgsSyntax) -> Result<Vec<u8>, String> {
    let (problem, style) = case_problem(case, syntax)?;
    Ok(solve_problem(&problem, style))
}

/// Which faults of the catalogue each of `cases` catches (`batch --mutants`).
pub fn catching_matrix(cases: &[Case], syntax: &dyn ArgsSyntax) -> Result<Matrix, String> {
    let mut matrix = Matrix::new();
    for case in cases {
        let (problem, style) = case_problem(case, syntax)?;
        matrix.push(case.name.clone(), &problem, caught_by(&problem, style));
    }
    Ok(matrix)
}

/// The output file of `input` under `options`, as our solver writes it.
pub fn solve_bytes(input: &[u8], options: CaseOptions) -> Result<Vec<u8>, cs561::InputError> {
    let problem = cs561::parse(input, options.dialect)?;
    Ok(solve_problem(&problem, options.style))
}

/// The output file of `problem` in the byte form `style`, as our solver writes it.
pub fn solve_problem(problem: &cs561::Problem, style: Style) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    cs561::write_output(problem, style, &mut out).expect("writing to memory cannot fail");
    out.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Isolation, Limits};

    /// Runs the official Spring 2017 cases (CRLF inputs) through `program`, which
    /// notes each of its runs in a file outside its work folder (unsandboxed), and
    /// returns the results and the number of runs.
    fn runs_of(program: &str) -> (Vec<CaseResult>, usize) {
        let cases =
            find_cases(&Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017"))
                .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let counter = dir.path().join("runs");
        let sandbox = Sandbox::new(Isolation::Unsandboxed, Limits::default(), &[]).unwrap();
        let options = BatchOptions {
            runner: Runner::Program {
                command: format!("echo run >> '{}'; {program}", counter.display()),
                sandbox,
            },
            lenient: false,
            jobs: 2,
            keep: None,
            stop: None,
            slots: None,
            deadline: None,
        };
        let results = run(&cases, &options, &mut |_| {});
        let runs = fs::read_to_string(&counter).unwrap().lines().count();
        (results, runs)
    }

    #[test]
    fn batches_side_by_side_never_run_more_programs_than_their_shared_slots() {
        let cases =
            find_cases(&Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017"))
                .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display();
        // (a second program running at once finds the lock taken)
        let command = format!(
            "mkdir '{d}/lock' || echo overlap >> '{d}/overlaps'; sleep 0.05; \
             rmdir '{d}/lock'; echo run >> '{d}/runs'; echo X > output.txt"
        );
        let sandbox = Sandbox::new(Isolation::Unsandboxed, Limits::default(), &[]).unwrap();
        let slots = Slots::new(1);
        let options = BatchOptions {
            runner: Runner::Program {
                command: command.clone(),
                sandbox,
            },
            lenient: false,
            jobs: 2,
            keep: None,
            stop: None,
            slots: Some(&slots),
            deadline: None,
        };
        thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| run(&cases, &options, &mut |_| {}));
            }
        });
        let runs = fs::read_to_string(dir.path().join("runs")).unwrap();
        assert_eq!(runs.lines().count(), 2 * (5 + 1));
        assert!(!dir.path().join("overlaps").exists());
    }

    #[test]
    fn a_program_that_writes_the_same_file_with_lf_line_ends_is_run_again_once() {
        let (results, runs) = runs_of("echo X > output.txt");
        assert_eq!(runs, 5 + 1);
        assert!(results
            .iter()
            .all(|r| r.verdict == Verdict::Fail && !r.depends_on_cr));
    }

    #[test]
    fn a_program_right_with_lf_line_ends_is_run_again_once_and_the_others_cite_it() {
        // (with LF line ends it writes the expected output of the case whose input,
        // its CRs removed, is the one it was given)
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017");
        let (results, runs) = runs_of(&format!(
            "if grep -q \"$(printf '\\r')\" input.txt; then echo X > output.txt; else \
             for c in '{}'/*/; do tr -d '\\r' < \"$c/input.txt\" | cmp -s - input.txt && \
             cp \"$c/output.txt\" output.txt; done; fi; exit 0",
            dir.display()
        ));
        assert_eq!(runs, 5 + 1);
        assert!(results.iter().all(|r| r.verdict == Verdict::Fail));
        assert_eq!(results.iter().filter(|r| r.depends_on_cr).count(), 1);
        let cited: Vec<_> = results.iter().filter(|r| !r.depends_on_cr).collect();
        assert_eq!(cited.len(), 4);
        assert!(
            cited
                .iter()
                .all(|r| r.detail.contains("not run again with LF line ends")),
            "{cited:#?}"
        );
    }

    #[test]
    fn a_program_that_reads_the_cr_is_run_again_on_every_case() {
        let (results, runs) = runs_of(
            "if grep -q \"$(printf '\\r')\" input.txt; then echo X; else echo Y; fi > output.txt",
        );
        assert_eq!(runs, 5 + 5);
        assert!(results
            .iter()
            .all(|r| r.verdict == Verdict::Fail && !r.depends_on_cr));
    }
}
