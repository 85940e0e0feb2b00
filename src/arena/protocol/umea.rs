//! The Umea course's protocol: each move, `PROG POSITION SECONDS 0` with the position
//! as one 65-character argument, and one line `(row,col)` or `pass` on standard
//! output; before play, the compile step `PROG POSITION SECONDS 1` once (the course's
//! start position). A process per move; what the agent leaves in its run folder is
//! there at its next move of the same game.

use std::io;
use std::time::Duration;

use super::{Agent, Built, Protocol, Terms};
use crate::arena::game::{Answer, Fault, Player, Reason};
use crate::format::umea::{self, position_text, START};
use crate::printable::printable_bytes;
use crate::rules::Position;
use crate::sandbox::{Ending, Program, Run, Sandbox, TAIL_BYTES};

/// The Umea adapter.
pub struct Umea;

impl Protocol for Umea {
    fn name(&self) -> &'static str {
        "umea"
    }

    fn entry(&self) -> &'static str {
        "othello.sh"
    }

    fn build(
        &self,
        agent: &Agent,
        sandbox: &Sandbox,
        terms: &Terms,
    ) -> io::Result<Result<Built, Fault>> {
        let args = [
            position_text(START),
            terms.seconds_text.clone(),
            "1".to_string(),
        ];
        let command = format!("{} \"$@\"", agent.command);
        let failed = |detail: String| {
            Ok(Err(Fault {
                reason: Reason::BuildFailed,
                answer: String::new(),
                detail,
            }))
        };
        let sandbox = sandbox.with_cpu(terms.build_seconds);
        let run = match sandbox.run_from(
            &Program {
                command: &command,
                args: &args,
                files: &[],
            },
            agent.folder.as_deref(),
        ) {
            Ok(run) => run,
            Err(e) if agent.folder.is_some() => {
                return failed(format!("its folder could not be copied into its run: {e}"))
            }
            Err(e) => return Err(e),
        };
        let detail = match run.ending {
            Ending::Exited(0) => None,
            Ending::Exited(code) => Some(format!("the compile step exited with status {code}")),
            Ending::Signal(signal) => {
                Some(format!("the compile step was killed by signal {signal}"))
            }
            Ending::CpuTime | Ending::WallTime => Some(format!(
                "the compile step was still running after {} s of CPU time (or its wall-time \
                 net): killed",
                terms.build_seconds.as_secs_f64()
            )),
            Ending::FilesTooLarge => Some("the compile step's files passed their bound".into()),
            Ending::Stopped => return Err(io::ErrorKind::Interrupted.into()),
        };
        if let Some(detail) = detail {
            return failed(format!("{detail}{}", stderr_words(&run)));
        }
        let tree = tempfile::Builder::new()
            .prefix("reversi-arena-")
            .tempdir()?;
        run.keep_work(tree.path())?;
        Ok(Ok(Built { command, tree }))
    }

    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>> {
        Ok(Box::new(Seat {
            built,
            sandbox: sandbox.with_cpu(terms.limit()),
            terms,
            kept: None,
        }))
    }
}

/// An agent in one game.
struct Seat<'a> {
    built: &'a Built,
    sandbox: Sandbox,
    terms: &'a Terms,
    /// What it left in its run folder at its last move (none before its first).
    kept: Option<tempfile::TempDir>,
}

impl Player for Seat<'_> {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let args = [
            position_text(position),
            self.terms.seconds_text.clone(),
            "0".to_string(),
        ];
        let seed = self
            .kept
            .as_ref()
            .map_or(self.built.tree.path(), |kept| kept.path());
        let run = self.sandbox.run_from(
            &Program {
                command: &self.built.command,
                args: &args,
                files: &[],
            },
            Some(seed),
        )?;
        if run.ending == Ending::Stopped {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let kept = tempfile::Builder::new()
            .prefix("reversi-arena-")
            .tempdir()?;
        // A folder past the bound is not kept: the next move starts from the build.
        self.kept = run.keep_work(kept.path()).is_ok().then_some(kept);
        Ok(read_answer(&run, self.terms, self.sandbox.limits().wall))
    }
}

/// The last lines of standard error, escaped, for a detail.
fn stderr_words(run: &Run) -> String {
    run.stderr.shown(3, "; stderr: ")
}

/// The answer a run gave, judged by the terms (its legality is judged by the game).
fn read_answer(run: &Run, terms: &Terms, wall: Duration) -> Answer {
    let limit = terms.limit();
    let lines = run.stdout.last_lines(2);
    let last = lines
        .last()
        .map(|line| printable_bytes(line))
        .unwrap_or_default();
    let fault = |reason, answer: &str, detail: String| Answer {
        verdict: Err(Fault {
            reason,
            answer: answer.to_string(),
            detail,
        }),
        text: answer.to_string(),
        cpu: run.cpu,
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
        Some(Ok(line)) => match umea::parse_answer(line) {
            Ok(said) => Answer {
                verdict: Ok(said),
                text: last,
                cpu: run.cpu,
            },
            Err(_) => fault(
                Reason::Unreadable,
                &last,
                "expected `(row,col)` with row and column 1 to 8, or `pass`".into(),
            ),
        },
        _ => fault(
            Reason::Unreadable,
            &last,
            "not UTF-8 text; expected `(row,col)` or `pass`".into(),
        ),
    }
}

/// Memory or processes a crashed run ran out of, and its standard error.
fn crash_words(run: &Run) -> String {
    let mut words = String::new();
    if run.exhausted.memory {
        words += ", out of memory (--memory)";
    }
    if run.exhausted.processes {
        words += ", at the process limit (--processes)";
    }
    words + &stderr_words(run)
}
