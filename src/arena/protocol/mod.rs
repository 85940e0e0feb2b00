//! How the referee talks to an agent: one adapter per protocol (`umea`, `tristate`:
//! a process per move, [`per_move`]; `line`, `nboard`: a process per game,
//! [`conversation`]), each building an agent once and seating it for
//! each game. Every run of an agent is in
//! the sandbox; each game gets the agent a private copy of its build, kept from one
//! move to the next, which the opponent never sees.

pub mod conversation;
pub mod line;
pub mod nboard;
pub mod per_move;
pub mod task4;
pub mod tristate;
pub mod umea;

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use super::game::{Fault, Player};
use crate::format::tristate::{Base, Coords, Notation};
use crate::sandbox::Sandbox;

/// The terms every agent plays under, stated in every report.
#[derive(Clone, Debug, PartialEq)]
pub struct Terms {
    /// The time limit per move, in seconds.
    pub seconds: f64,
    /// SECONDS as passed to the agents: exactly as the TA wrote it (`1` stays `1`).
    pub seconds_text: String,
    /// CPU time allowed beyond `seconds` for the runtime's start (JVM, Python).
    pub start_allowance: Duration,
    /// The course's laxity: the last non-empty line of the output is the answer,
    /// whatever else was printed and whatever the exit status (strict: exactly one
    /// line, exit status 0).
    pub lax: bool,
    /// CPU time of the build (the compile step).
    pub build_seconds: Duration,
    /// `seconds` is a bank for the whole game (one process per game), not a limit
    /// per move.
    pub per_game: bool,
}

impl Terms {
    /// The CPU time one answer may take: the limit and the start allowance.
    pub fn limit(&self) -> Duration {
        Duration::from_secs_f64(self.seconds) + self.start_allowance
    }

    /// What the terms decide, in words, one line each.
    pub fn words(&self) -> Vec<String> {
        let time = if self.per_game {
            format!(
                "time: a bank of {} s of CPU time per game (passed as `{}` seconds left, in \
                 ms), plus a start allowance of {} s: the agent's process is killed once it \
                 has used {} s of CPU time (all its processes and threads, from the run's \
                 cgroup); msLeft is the bank less the wall time of its turns; each answer \
                 is awaited at most the wall-time net of what is left",
                self.seconds,
                self.seconds_text,
                self.start_allowance.as_secs_f64(),
                self.limit().as_secs_f64()
            )
        } else {
            format!(
                "time: {} s per move, passed to the agents as `{}`, plus a start allowance of \
                 {} s: an answer may take {} s of CPU time (all its processes and threads, \
                 from the run's cgroup); wall time is only a net ({} s)",
                self.seconds,
                self.seconds_text,
                self.start_allowance.as_secs_f64(),
                self.limit().as_secs_f64(),
                crate::sandbox::wall_net(self.limit()).as_secs_f64()
            )
        };
        vec![
            time,
            if self.lax {
                "answers: lax (--lax): the last non-empty line of the output is the move, \
                 whatever else was printed and whatever the exit status"
                    .to_string()
            } else {
                "answers: strict: exactly one non-empty line, exit status 0".to_string()
            },
            format!(
                "build: the compile step (where the protocol has one) may take {} s of CPU \
                 time; a failed build forfeits every game",
                self.build_seconds.as_secs_f64()
            ),
        ]
    }
}

/// An agent as the TA gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// Its name in reports: its folder's name, or the reference's.
    pub name: String,
    /// Its folder (copied into each run), or none for a command.
    pub folder: Option<PathBuf>,
    /// The shell command that starts it, run in its run folder; the protocol's
    /// arguments are appended.
    pub command: String,
    /// The protocol it speaks.
    pub speaks: Speaks,
}

/// The protocol an agent speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speaks {
    /// The tournament's (`--protocol`), under its terms.
    #[default]
    Tournament,
    /// NBoard whatever the tournament's protocol (an `nboard:COMMAND` opponent), told
    /// `set depth` this.
    NBoard(u32),
}

/// The moves a side plays in a game without passes: an NBoard opponent's bank in a
/// tournament whose `--seconds` is per move is as many moves' time.
pub const MOVES_PER_GAME: u32 = 30;

impl Speaks {
    /// Its own adapter and terms, when not the tournament's (`terms`): an NBoard
    /// opponent's bank is `--seconds` per game when that is a bank, else
    /// [`MOVES_PER_GAME`] times the time per move.
    pub fn own(self, terms: &Terms) -> Option<(Box<dyn Protocol + Send>, Terms)> {
        match self {
            Speaks::Tournament => None,
            Speaks::NBoard(depth) => {
                let seconds = if terms.per_game {
                    terms.seconds
                } else {
                    terms.seconds * f64::from(MOVES_PER_GAME)
                };
                Some((
                    Box::new(nboard::NBoard { depth }),
                    Terms {
                        seconds,
                        seconds_text: seconds.to_string(),
                        per_game: true,
                        ..terms.clone()
                    },
                ))
            }
        }
    }

    /// Its terms in words for the reports, when not the tournament's.
    pub fn words(self, terms: &Terms) -> Option<String> {
        let (protocol, own) = self.own(terms)?;
        let time = protocol.words(&own).swap_remove(0);
        let bank = if terms.per_game {
            "--seconds a game".to_string()
        } else {
            format!("{MOVES_PER_GAME} times --seconds a move")
        };
        Some(format!(
            "nboard: opponents (NBoard engines, {bank}): {time}"
        ))
    }
}

/// An agent built: what each of its runs starts from.
#[derive(Debug)]
pub struct Built {
    /// The command.
    pub command: String,
    /// The build's files (the agent's folder after its compile step), private to the
    /// referee.
    pub tree: tempfile::TempDir,
}

/// A protocol's adapter.
pub trait Protocol: Sync {
    /// Its name (`--protocol`).
    fn name(&self) -> &'static str;

    /// The file that makes a folder of the class an agent (`othello.sh`).
    fn entry(&self) -> &'static str;

    /// Builds `agent` in `sandbox` once, before play: its build, or the fault that
    /// forfeits all its games. An error is the referee's own failure. By default the
    /// agent's folder, copied, is its build (no compile step).
    fn build(
        &self,
        agent: &Agent,
        sandbox: &Sandbox,
        terms: &Terms,
    ) -> io::Result<Result<Built, Fault>> {
        per_move::build(agent, sandbox, terms, None)
    }

    /// Whether `--seconds` is a bank for the game rather than a limit per move.
    fn per_game(&self) -> bool {
        false
    }

    /// The position every game starts from, for a protocol whose agents keep their
    /// own board from the standard start (none: the openings).
    fn start(&self) -> Option<crate::rules::Position> {
        None
    }

    /// Seats a built agent for one game.
    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>>;

    /// The terms as this protocol applies them, in words, one line each (every
    /// report states them).
    fn words(&self, terms: &Terms) -> Vec<String> {
        terms.words()
    }

    /// The CPU time each side has per game, when the protocol plays a bank (task 4):
    /// the game records each side's time left, and equal discs go to more time left.
    fn bank(&self) -> Option<Duration> {
        None
    }

    /// Whether an agent's files are kept from one game to its next (task 4): its
    /// games are then played one at a time, in the schedule's order.
    fn state_across_games(&self) -> bool {
        false
    }
}

/// The adapter of `name`, if there is one; `conventions` are Tri-state's coordinates
/// (order, base, notation).
pub fn by_name(name: &str, conventions: (Coords, Base, Notation)) -> Option<Box<dyn Protocol>> {
    match name {
        "umea" => Some(Box::new(umea::Umea)),
        "line" => Some(Box::new(line::Line)),
        "tristate" => Some(Box::new(tristate::Tristate {
            coords: conventions.0,
            base: conventions.1,
            notation: conventions.2,
        })),
        "cs561-task4" => Some(Box::new(task4::HANDOUT)),
        "nboard" => Some(Box::new(nboard::NBoard {
            depth: nboard::DEFAULT_DEPTH,
        })),
        _ => None,
    }
}

/// The names of the protocols there are.
pub const NAMES: &[&str] = &["umea", "tristate", "line", "cs561-task4", "nboard"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_nboard_opponent_banks_a_games_moves() {
        let per_move = Terms {
            seconds: 0.5,
            seconds_text: "0.5".into(),
            start_allowance: Duration::from_millis(500),
            lax: false,
            build_seconds: Duration::from_secs(60),
            per_game: false,
        };
        assert!(Speaks::Tournament.own(&per_move).is_none());
        let (protocol, terms) = Speaks::NBoard(3).own(&per_move).unwrap();
        assert_eq!(protocol.name(), "nboard");
        assert_eq!((terms.seconds, terms.per_game), (15.0, true));
        assert_eq!(terms.start_allowance, per_move.start_allowance);
        let words = Speaks::NBoard(3).words(&per_move).unwrap();
        assert!(words.contains("30 times --seconds a move"), "{words}");
        assert!(words.contains("a bank of 15 s") && words.contains("`set depth 3`"));
        let per_game = Terms {
            per_game: true,
            ..per_move
        };
        let (_, terms) = Speaks::NBoard(3).own(&per_game).unwrap();
        assert_eq!(terms.seconds, 0.5);
    }
}
