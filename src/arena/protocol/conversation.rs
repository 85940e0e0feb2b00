//! A conversation with an agent's process that lasts a game (the `line` and `nboard`
//! protocols): the process started once in the sandbox with the game's CPU bank as its
//! limit, lines written to it, its lines read back bounded, each awaited at most the
//! wall-time net of the bank's rest (the sandbox reports a run's CPU time only when it
//! ends, so the bank is enforced by the run's CPU limit, and the wait by wall time),
//! and the way it ended judged as a forfeit.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::per_move::crash_words;
use super::{Built, Terms};
use crate::arena::game::{Fault, Reason};
use crate::sandbox::{stop_flag, wall_net, Ending, Program, Run, Sandbox, TAIL_BYTES};

/// How long a run may last in all: the game's wall time is the opponent's too, so
/// the conversation judges each line's wait itself.
const GAME_WALL: Duration = Duration::from_secs(3600);

/// The longest line read from an agent; the rest of a longer one is dropped.
pub const LINE_BYTES: usize = TAIL_BYTES;

/// An agent's process for one game, and the wall time of its turns.
pub struct Conversation<'a> {
    built: &'a Built,
    sandbox: Sandbox,
    terms: &'a Terms,
    running: Option<Running>,
    /// The wall time of its turns so far.
    spent: Duration,
}

impl<'a> Conversation<'a> {
    /// A conversation not started yet, for `built` in `sandbox` under `terms` (its
    /// bank and start allowance are the run's CPU limit).
    pub fn new(built: &'a Built, sandbox: &Sandbox, terms: &'a Terms) -> Conversation<'a> {
        Conversation {
            built,
            sandbox: sandbox
                .with_cpu(terms.limit())
                .with_wall_kept_cpu(GAME_WALL),
            terms,
            running: None,
            spent: Duration::ZERO,
        }
    }
}

/// An agent's process for one game.
struct Running {
    to_agent: Option<mpsc::Sender<String>>,
    from_agent: mpsc::Receiver<Vec<u8>>,
    halt: Arc<AtomicBool>,
    run: Option<JoinHandle<io::Result<Run>>>,
}

impl Running {
    /// Waits up to `grace` for the run to end by itself (its output closed), then
    /// ends it; returns it, and whether the referee had to end it.
    fn finish(&mut self, grace: Duration) -> io::Result<(Option<Run>, bool)> {
        // Nothing more to say: the conversation's writer ends.
        self.to_agent = None;
        let started = Instant::now();
        while self.run.as_ref().is_some_and(|r| !r.is_finished()) && started.elapsed() < grace {
            std::thread::sleep(Duration::from_millis(5));
        }
        let ended = self.run.as_ref().is_some_and(|r| !r.is_finished());
        Ok((self.end()?, ended))
    }

    /// Ends the run and returns it.
    fn end(&mut self) -> io::Result<Option<Run>> {
        self.halt.store(true, Ordering::SeqCst);
        self.to_agent = None;
        match self.run.take() {
            Some(handle) => handle
                .join()
                .map_err(|_| io::Error::other("a run's thread panicked"))?
                .map(Some),
            None => Ok(None),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.end();
    }
}

impl Conversation<'_> {
    /// Whether its process has been started.
    pub fn started(&self) -> bool {
        self.running.is_some()
    }

    /// Starts the agent's process with `args`.
    pub fn start(&mut self, args: Vec<String>) {
        let (to_agent, agent_in) = mpsc::channel::<String>();
        let (agent_out, from_agent) = mpsc::sync_channel::<Vec<u8>>(4);
        let halt = Arc::new(AtomicBool::new(false));
        let sandbox = self.sandbox.clone();
        let command = self.built.command.clone();
        let tree: PathBuf = self.built.tree.path().to_path_buf();
        let flag = Arc::clone(&halt);
        let run = std::thread::spawn(move || {
            sandbox.converse(
                &Program {
                    command: &command,
                    args: &args,
                    files: &[],
                },
                Some(&tree),
                &flag,
                move |stdin, stdout| talk(stdin, stdout, agent_in, agent_out),
            )
        });
        self.running = Some(Running {
            to_agent: Some(to_agent),
            from_agent,
            halt,
            run: Some(run),
        });
    }

    /// Writes `message` (its lines ended) to the agent; lost if its input is closed.
    pub fn send(&self, message: String) {
        if let Some(to_agent) = self.running.as_ref().and_then(|r| r.to_agent.as_ref()) {
            let _ = to_agent.send(message);
        }
    }

    /// The agent's next non-blank line (at most [`LINE_BYTES`]), awaited at most the
    /// wall-time net of its bank's rest: the line, or the fault (`what`: what was
    /// awaited, in words).
    pub fn next_line(&mut self, what: &str) -> io::Result<Result<Vec<u8>, Fault>> {
        let wait = self.wait();
        let started = Instant::now();
        let running = self.running.as_mut().expect("started");
        let received = running.from_agent.recv_timeout(wait);
        self.spent += started.elapsed();
        let fault = |reason, detail: String| Fault {
            reason,
            answer: String::new(),
            detail,
        };
        match received {
            Ok(line) => Ok(Ok(line)),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                running.end()?;
                Ok(Err(fault(
                    Reason::OverTime,
                    format!(
                        "no {what} after {:.1} s of wall time (the net: sleeping or waiting): killed",
                        wait.as_secs_f64()
                    ),
                )))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let (run, ended) = running.finish(wait.saturating_sub(started.elapsed()))?;
                let Some(run) = run else {
                    return Ok(Err(fault(Reason::Crash, format!("no {what}"))));
                };
                Ok(Err(match run.ending {
                    Ending::Stopped if stop_flag().load(Ordering::SeqCst) => {
                        return Err(io::ErrorKind::Interrupted.into())
                    }
                    // (the arena sets no deadline: a budget's end, like a stop, ends it)
                    Ending::Deadline => return Err(io::ErrorKind::Interrupted.into()),
                    Ending::Stopped => fault(
                        if ended {
                            Reason::OverTime
                        } else {
                            Reason::NoAnswer
                        },
                        format!(
                            "closed its output before its {what} and was still running after \
                             {:.1} s of wall time (the net): killed",
                            wait.as_secs_f64()
                        ),
                    ),
                    Ending::CpuTime => fault(
                        Reason::OverTime,
                        format!(
                            "used its bank of {} s of CPU time: killed",
                            self.terms.limit().as_secs_f64()
                        ),
                    ),
                    Ending::WallTime => {
                        fault(Reason::OverTime, "the game's wall time ran out".into())
                    }
                    Ending::Exited(0) => {
                        fault(Reason::NoAnswer, format!("exited before its {what}"))
                    }
                    Ending::Exited(code) => fault(
                        Reason::Crash,
                        format!(
                            "exited with status {code} before its {what}{}",
                            crash_words(&run)
                        ),
                    ),
                    Ending::Signal(signal) => fault(
                        Reason::Crash,
                        format!("killed by signal {signal}{}", crash_words(&run)),
                    ),
                    Ending::FilesTooLarge => fault(
                        Reason::Crash,
                        "its files passed their bound (--file-size): killed".into(),
                    ),
                }))
            }
        }
    }

    /// The wall time its next line may take: the net of its bank's rest.
    fn wait(&self) -> Duration {
        wall_net(self.left())
    }

    /// The bank's rest: the limit less the wall time of its turns so far.
    pub fn left(&self) -> Duration {
        self.terms.limit().saturating_sub(self.spent)
    }
}

/// The conversation: lines from the referee written to the agent, the agent's lines
/// (at most [`LINE_BYTES`] each) passed back, until either side ends.
fn talk(
    mut stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    agent_in: mpsc::Receiver<String>,
    agent_out: mpsc::SyncSender<Vec<u8>>,
) {
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for message in agent_in {
                if stdin
                    .write_all(message.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        read_lines(stdout, agent_out);
    });
}

/// Passes the agent's non-blank lines (at most [`LINE_BYTES`] each, the rest of a
/// longer one dropped) until its output ends or nobody listens.
fn read_lines(stdout: std::process::ChildStdout, agent_out: mpsc::SyncSender<Vec<u8>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match Read::by_ref(&mut reader)
            .take(LINE_BYTES as u64)
            .read_until(b'\n', &mut line)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.last() != Some(&b'\n') && line.len() == LINE_BYTES {
            let mut rest = Vec::new();
            while Read::by_ref(&mut reader)
                .take(LINE_BYTES as u64)
                .read_until(b'\n', &mut rest)
                .is_ok_and(|n| n > 0)
            {
                if rest.last() == Some(&b'\n') {
                    break;
                }
                rest.clear();
            }
        }
        let trimmed = line.trim_ascii().to_vec();
        if !trimmed.is_empty() && agent_out.send(trimmed).is_err() {
            return;
        }
    }
}
