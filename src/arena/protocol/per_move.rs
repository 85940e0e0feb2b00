//! The protocols that start the agent once per move (Umea, Tri-state): the agent's
//! folder built once in the sandbox (its compile step, if the protocol has one), then
//! each move a run from a private copy of what it left at its last move of the game,
//! the answer read from its standard output under the terms (strict or lax, CPU
//! time) and parsed by the protocol.

use std::io;
use std::time::Duration;

use super::{Agent, Built, Protocol, Terms};
use crate::arena::game::{Answer, Fault, Player, Reason};
use crate::board::Square;
use crate::printable::printable_bytes;
use crate::rules::Position;
use crate::sandbox::{Ending, Program, Run, Sandbox, TAIL_BYTES};

/// What a per-move protocol says to an agent and how it reads the answer.
pub trait PerMove: Sync {
    /// Its name (`--protocol`).
    fn name(&self) -> &'static str;

    /// The file that makes a folder of the class an agent.
    fn entry(&self) -> &'static str;

    /// The compile step's arguments (none: no compile step, the folder is the build).
    fn compile(&self, terms: &Terms) -> Option<Vec<String>>;

    /// The arguments and the files of the run that asks for a move in `position`.
    fn request(
        &self,
        position: Position,
        terms: &Terms,
    ) -> (Vec<String>, Vec<(&'static str, Vec<u8>)>);

    /// The move an answer line names (`Some(None)`: a pass), or `None` when it is not
    /// an answer of the protocol.
    fn parse(&self, line: &str) -> Option<Option<Square>>;

    /// What an answer looks like, in words (`(row,col)` or `pass`).
    fn expected(&self) -> String;
}

impl<T: PerMove> Protocol for T {
    fn name(&self) -> &'static str {
        PerMove::name(self)
    }

    fn entry(&self) -> &'static str {
        PerMove::entry(self)
    }

    fn build(
        &self,
        agent: &Agent,
        sandbox: &Sandbox,
        terms: &Terms,
    ) -> io::Result<Result<Built, Fault>> {
        build(agent, sandbox, terms, self.compile(terms))
    }

    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>> {
        Ok(Box::new(Seat {
            protocol: self,
            built,
            sandbox: sandbox.with_cpu(terms.limit()),
            terms,
            kept: None,
        }))
    }
}

/// An agent in one game.
struct Seat<'a> {
    protocol: &'a dyn PerMove,
    built: &'a Built,
    sandbox: Sandbox,
    terms: &'a Terms,
    /// What it left in its run folder at its last move (none before its first).
    kept: Option<tempfile::TempDir>,
}

impl Player for Seat<'_> {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let (args, files) = self.protocol.request(position, self.terms);
        let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        ask(
            self.built,
            &self.sandbox,
            self.terms,
            Some(&mut self.kept),
            (&args, &files),
            &|line| self.protocol.parse(line),
            &|| self.protocol.expected(),
        )
    }
}

/// Asks a built agent for a move: a run with `args` and `files` in `sandbox` (its
/// CPU limit set), from what it left at its last move of the game (`kept`, updated
/// for the next; `None`: from its build, keeping nothing, as the legality suite asks),
/// its answer read under the terms and `parse`d (`expected`: what an answer looks
/// like, in words). Its legality is judged by the game. An error is the referee's own.
pub(super) fn ask<M>(
    built: &Built,
    sandbox: &Sandbox,
    terms: &Terms,
    kept: Option<&mut Option<tempfile::TempDir>>,
    (args, files): (&[String], &[(&str, &[u8])]),
    parse: &dyn Fn(&str) -> Option<Option<M>>,
    expected: &dyn Fn() -> String,
) -> io::Result<Answer<M>> {
    let seed = match &kept {
        Some(Some(dir)) => dir.path(),
        _ => built.tree.path(),
    };
    let run = sandbox.run_from(
        &Program {
            command: &built.command,
            args,
            files,
        },
        Some(seed),
    )?;
    if run.ending == Ending::Stopped {
        return Err(io::ErrorKind::Interrupted.into());
    }
    if let Some(kept) = kept {
        let dir = tempfile::Builder::new()
            .prefix("reversi-arena-")
            .tempdir()?;
        // A folder past the bound is not kept: the next move starts from the build.
        *kept = run.keep_work(dir.path()).is_ok().then_some(dir);
    }
    let (verdict, text) = read_reply(&run, terms, sandbox.limits().wall, parse, expected);
    Ok(Answer {
        verdict,
        text,
        cpu: run.cpu,
    })
}

/// Builds `agent` in `sandbox`: its folder copied into a run of its compile step
/// (`compile`: its arguments; none, a run that does nothing), and what that run left
/// kept as its build; or the fault of a failed compile step.
pub fn build(
    agent: &Agent,
    sandbox: &Sandbox,
    terms: &Terms,
    compile: Option<Vec<String>>,
) -> io::Result<Result<Built, Fault>> {
    let args = compile.clone().unwrap_or_default();
    let command = format!("{} \"$@\"", agent.command);
    // Without a compile step, a run that does nothing copies the folder.
    let step = if compile.is_some() {
        command.as_str()
    } else {
        ":"
    };
    let program = Program {
        command: step,
        args: &args,
        files: &[],
    };
    let run = match build_step(
        &sandbox.with_cpu(terms.build_seconds),
        &program,
        agent,
        "the compile step",
        terms,
    )? {
        Ok(run) => run,
        Err(fault) => return Ok(Err(fault)),
    };
    let tree = tempfile::Builder::new()
        .prefix("reversi-arena-")
        .tempdir()?;
    run.keep_work(tree.path())?;
    Ok(Ok(Built { command, tree }))
}

/// The fault of a build that failed (`detail`, in words).
pub(super) fn build_fault(detail: String) -> Fault {
    Fault {
        reason: Reason::BuildFailed,
        answer: String::new(),
        detail,
    }
}

/// Runs a build step of `agent` (`step`, in words) in `sandbox`, the agent's folder
/// copied into its run: the run, or the fault of a step that failed (its folder not
/// copied, or its run not ending with status 0). An error is the referee's own.
pub(super) fn build_step(
    sandbox: &Sandbox,
    program: &Program,
    agent: &Agent,
    step: &str,
    terms: &Terms,
) -> io::Result<Result<Run, Fault>> {
    let run = match sandbox.run_from(program, agent.folder.as_deref()) {
        Ok(run) => run,
        Err(e) if agent.folder.is_some() => {
            return Ok(Err(build_fault(format!(
                "its folder could not be copied into its run: {e}"
            ))))
        }
        Err(e) => return Err(e),
    };
    Ok(match build_failure(&run, step, terms)? {
        Some(detail) => Err(build_fault(detail)),
        None => Ok(run),
    })
}

/// Why a build step's run (`step` in words) failed, with its standard error's last
/// lines; none when it exited with status 0. An error when the referee was stopped.
fn build_failure(run: &Run, step: &str, terms: &Terms) -> io::Result<Option<String>> {
    let detail = match run.ending {
        Ending::Exited(0) => return Ok(None),
        Ending::Exited(code) => format!("{step} exited with status {code}"),
        Ending::Signal(signal) => format!("{step} was killed by signal {signal}"),
        Ending::CpuTime | Ending::WallTime => format!(
            "{step} was still running after {} s of CPU time (or its wall-time net): killed",
            terms.build_seconds.as_secs_f64()
        ),
        Ending::FilesTooLarge => format!("{step}'s files passed their bound"),
        // (the arena sets no deadline: a budget's end, like a stop, ends the tournament)
        Ending::Stopped | Ending::Deadline => return Err(io::ErrorKind::Interrupted.into()),
    };
    Ok(Some(format!("{detail}{}", stderr_words(run))))
}

/// The last lines of standard error, escaped, for a detail.
pub(super) fn stderr_words(run: &Run) -> String {
    run.stderr.shown(3, "; stderr: ")
}

/// The answer line of a run judged by the terms and parsed by `parse`: what it names
/// or its fault, and the answer as printed (escaped).
fn read_reply<T>(
    run: &Run,
    terms: &Terms,
    wall: Duration,
    parse: &dyn Fn(&str) -> Option<T>,
    expected: &dyn Fn() -> String,
) -> (Result<T, Fault>, String) {
    let limit = terms.limit();
    let lines = run.stdout.last_lines(2);
    let last = lines
        .last()
        .map(|line| printable_bytes(line))
        .unwrap_or_default();
    let fault = |reason, answer: &str, detail: String| {
        (
            Err(Fault {
                reason,
                answer: answer.to_string(),
                detail,
            }),
            answer.to_string(),
        )
    };
    let cpu = run.cpu.as_secs_f64();
    match run.ending {
        Ending::CpuTime => {
            return fault(
                Reason::OverTime,
                &last,
                format!(
                    "still computing after {} s of CPU time: killed",
                    limit.as_secs_f64()
                ),
            )
        }
        Ending::WallTime => {
            return fault(
                Reason::OverTime,
                &last,
                format!(
                    "still running after {} s of wall time (the net: sleeping or waiting) with \
                     {cpu:.2} s of CPU time: killed",
                    wall.as_secs_f64()
                ),
            )
        }
        _ if run.cpu > limit => {
            return fault(
                Reason::OverTime,
                &last,
                format!(
                    "answered after {cpu:.2} s of CPU time; the limit is {} s",
                    limit.as_secs_f64()
                ),
            )
        }
        Ending::Signal(signal) => {
            return fault(
                Reason::Crash,
                &last,
                format!("killed by signal {signal}{}", crash_words(run)),
            )
        }
        Ending::FilesTooLarge => {
            return fault(
                Reason::Crash,
                &last,
                "its files passed their bound (--file-size): killed".into(),
            )
        }
        Ending::Exited(code) if code != 0 && (!terms.lax || last.is_empty()) => {
            return fault(
                Reason::Crash,
                &last,
                format!("exited with status {code}{}", crash_words(run)),
            )
        }
        _ => {}
    }
    if last.is_empty() {
        return fault(
            Reason::NoAnswer,
            "",
            format!("printed nothing{}", stderr_words(run)),
        );
    }
    if !terms.lax {
        if run.stdout.size > TAIL_BYTES as u64 {
            return fault(
                Reason::Unreadable,
                &last,
                format!(
                    "printed {} bytes; one line expected (--lax takes the last line)",
                    run.stdout.size
                ),
            );
        }
        if lines.len() > 1 {
            return fault(
                Reason::Unreadable,
                &last,
                "printed more than one line; one expected (--lax takes the last line)".into(),
            );
        }
    }
    match lines.last().map(|line| std::str::from_utf8(line)) {
        Some(Ok(line)) => match parse(line) {
            Some(said) => (Ok(said), last),
            None => fault(
                Reason::Unreadable,
                &last,
                format!("expected {}", expected()),
            ),
        },
        _ => fault(
            Reason::Unreadable,
            &last,
            format!("not UTF-8 text; expected {}", expected()),
        ),
    }
}

/// Memory or processes a crashed run ran out of, and its standard error.
pub(super) fn crash_words(run: &Run) -> String {
    let mut words = String::new();
    if run.exhausted.memory {
        words += ", out of memory (--memory)";
    }
    if run.exhausted.processes {
        words += ", at the process limit (--processes)";
    }
    words + &stderr_words(run)
}
