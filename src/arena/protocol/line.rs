//! Caltech CS 2's line protocol: one process per game, started as `./othello.sh
//! Black` (or `White`); it prints one line when ready, then, each turn, reads the
//! opponent's last move and its own time left, `x y msLeft` (`-1 -1` for none or a
//! pass; x the column, y the row, 0-based), and answers `x y` (`-1 -1`: pass). Games
//! start from the standard position, black first, as the agents keep their own board.
//! `--seconds` is then the game's bank of CPU time: the run is killed once it has used
//! the bank and the start allowance; each answer is awaited for at most the wall-time
//! net of what is left.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::per_move::{build, crash_words};
use super::{Agent, Built, Protocol, Terms};
use crate::arena::game::{Answer, Fault, Player, Reason};
use crate::board::Square;
use crate::printable::printable_bytes;
use crate::rules::{Color, Position};
use crate::sandbox::{stop_flag, wall_net, Ending, Program, Run, Sandbox, TAIL_BYTES};

/// The line adapter.
pub struct Line;

/// The standard start: black first, white on d4 and e5.
pub const START: Position = Position {
    to_move: Color::Black,
    white: Square::new(3, 3).bit() | Square::new(4, 4).bit(),
    black: Square::new(3, 4).bit() | Square::new(4, 3).bit(),
};

/// How long a run may last in all: the game's wall time is the opponent's too, so
/// the seat judges each answer's wait itself.
const GAME_WALL: Duration = Duration::from_secs(3600);

impl Protocol for Line {
    fn name(&self) -> &'static str {
        "line"
    }

    fn entry(&self) -> &'static str {
        "othello.sh"
    }

    fn start(&self) -> Option<Position> {
        Some(START)
    }

    fn per_game(&self) -> bool {
        true
    }

    fn build(
        &self,
        agent: &Agent,
        sandbox: &Sandbox,
        terms: &Terms,
    ) -> io::Result<Result<Built, Fault>> {
        build(agent, sandbox, terms, None)
    }

    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>> {
        let mut sandbox = sandbox.with_cpu(terms.limit());
        sandbox = sandbox.with_wall_kept_cpu(GAME_WALL);
        Ok(Box::new(Seat {
            built,
            sandbox,
            terms,
            running: None,
            seen: START,
            spent: Duration::ZERO,
        }))
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

/// An agent in one game.
struct Seat<'a> {
    built: &'a Built,
    sandbox: Sandbox,
    terms: &'a Terms,
    running: Option<Running>,
    /// The position after its last answer (the start before its first).
    seen: Position,
    /// The wall time of its turns so far.
    spent: Duration,
}

/// The longest line read from an agent; the rest of a longer one is dropped.
const LINE_BYTES: usize = TAIL_BYTES;

impl Seat<'_> {
    /// Starts the agent for `color`.
    fn start(&mut self, color: Color) -> Running {
        let (to_agent, agent_in) = mpsc::channel::<String>();
        let (agent_out, from_agent) = mpsc::sync_channel::<Vec<u8>>(4);
        let halt = Arc::new(AtomicBool::new(false));
        let sandbox = self.sandbox.clone();
        let command = self.built.command.clone();
        let tree: PathBuf = self.built.tree.path().to_path_buf();
        let colour = match color {
            Color::Black => "Black",
            Color::White => "White",
        };
        let args = vec![colour.to_string()];
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
        Running {
            to_agent: Some(to_agent),
            from_agent,
            halt,
            run: Some(run),
        }
    }

    /// The next line of the agent within `wait`: the line, or the fault.
    fn next_line(&mut self, wait: Duration, what: &str) -> io::Result<Result<Vec<u8>, Fault>> {
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

    /// The wall time its next answer may take: the net of its bank's rest.
    fn wait(&self) -> Duration {
        wall_net(self.terms.limit().saturating_sub(self.spent))
    }
}

impl Player for Seat<'_> {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let faulty = |fault: Fault| Answer {
            text: fault.answer.clone(),
            verdict: Err(fault),
            cpu: Duration::ZERO,
        };
        if self.running.is_none() {
            self.running = Some(self.start(position.to_move));
            let wait = self.wait();
            if let Err(fault) = self.next_line(wait, "ready line")? {
                return Ok(faulty(fault));
            }
        }
        // The opponent's move: the cell that filled since its last answer, if any.
        let placed = (position.white | position.black) & !(self.seen.white | self.seen.black);
        let (x, y) = match placed {
            0 => (-1, -1),
            bit => {
                let square = Square::from_index(bit.trailing_zeros() as u8);
                (i32::from(square.col()), i32::from(square.row()))
            }
        };
        let left = self.terms.limit().saturating_sub(self.spent).as_millis();
        let message = format!("{x} {y} {left}\n");
        if let Some(to_agent) = &self.running.as_ref().and_then(|r| r.to_agent.clone()) {
            let _ = to_agent.send(message);
        }
        let wait = self.wait();
        let line = match self.next_line(wait, "answer")? {
            Ok(line) => line,
            Err(fault) => return Ok(faulty(fault)),
        };
        let text = printable_bytes(&line);
        let said = std::str::from_utf8(&line).ok().and_then(parse);
        Ok(match said {
            Some(said) => {
                self.seen =
                    position.after(said.filter(|s| position.board().moves() & s.bit() != 0));
                Answer {
                    verdict: Ok(said),
                    text,
                    cpu: Duration::ZERO,
                }
            }
            None => faulty(Fault {
                reason: Reason::Unreadable,
                answer: text,
                detail: "expected `x y` (column and row, 0 to 7) or `-1 -1`".into(),
            }),
        })
    }
}

/// Reads `x y`: `Some(None)` for `-1 -1`.
fn parse(line: &str) -> Option<Option<Square>> {
    let mut words = line.split_whitespace();
    let (x, y) = (words.next()?, words.next()?);
    if words.next().is_some() {
        return None;
    }
    if (x, y) == ("-1", "-1") {
        return Some(None);
    }
    let number = |t: &str| -> Option<u8> {
        (t.len() == 1 && t.as_bytes()[0].is_ascii_digit())
            .then(|| t.as_bytes()[0] - b'0')
            .filter(|n| *n < 8)
    };
    Some(Some(Square::new(number(y)?, number(x)?)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_column_then_row() {
        assert_eq!(parse("3 2"), Some(Some(Square::new(2, 3))));
        assert_eq!(parse(" -1 -1 "), Some(None));
        for bad in ["8 0", "1", "1 2 3", "a b", "-1 0", ""] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
