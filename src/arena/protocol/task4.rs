//! CS561 Fall 2014's competition (task 4, HW2b) as its referee ran it (SPEC.md
//! section 1): each agent a folder with a Makefile; `make agent` then `make
//! calibrate` before play, `make newgame` before each game, and `make run` for each
//! move with `input.txt` (task `4`, the mover's letter, its CPU seconds left, the
//! board) written in its folder and the move (`c4`) read from `output.txt`. Each
//! side has a bank of CPU time per game, charged with each run's CPU time; at 0 or
//! below the referee plays a seeded random legal move for it, as it does when `make
//! run` fails. A run is killed after its time left + 10 s of wall time and loses.
//! The agent's folder is its own: kept from move to move and from game to game
//! (games of one agent are played one at a time), never seen by the opponent.

use std::fs;
use std::io;
use std::path::Path;
use std::time::Duration;

use super::per_move::{build_fault, build_step, stderr_words};
use super::{Agent, Built, Protocol, Terms};
use crate::arena::bank::Chance;
use crate::arena::game::{Answer, Fault, Player, Reason};
use crate::board::{Square, Squares};
use crate::printable::printable_bytes;
use crate::rules::{Color, Position};
use crate::sandbox::{Ending, OutputFile, Program, Run, Sandbox};
use crate::splitmix::SplitMix64;

/// The wall time a run gets beyond the mover's CPU time left (the handout's H).
pub const WALL_GRACE: Duration = Duration::from_secs(10);

/// The wall time of `make newgame` (the handout sets none; errors are ignored).
pub const NEWGAME_WALL: Duration = Duration::from_secs(10);

/// The most bytes of `output.txt` read: a move is two.
const OUTPUT_BYTES: u64 = 64;

/// The task-4 adapter with its terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Task4 {
    /// Each side's CPU time per game (the handout's M, 200 s).
    pub bank: Duration,
    /// The wall time of `make calibrate` (the handout's 5 minutes).
    pub calibrate_wall: Duration,
    /// The seed of the random moves.
    pub seed: u64,
}

/// The handout's terms: a bank of 200 s, calibration killed after 5 minutes.
pub const HANDOUT: Task4 = Task4 {
    bank: Duration::from_secs(200),
    calibrate_wall: Duration::from_secs(300),
    seed: 1,
};

fn make(target: &str) -> String {
    format!("make {target}")
}

/// Removes a file the referee writes or reads, so that no run sees a stale one.
fn forget_output(folder: &Path) {
    let _ = fs::remove_file(folder.join("output.txt"));
}

impl Protocol for Task4 {
    fn name(&self) -> &'static str {
        "cs561-task4"
    }

    fn entry(&self) -> &'static str {
        "Makefile"
    }

    fn build(
        &self,
        agent: &Agent,
        sandbox: &Sandbox,
        terms: &Terms,
    ) -> io::Result<Result<Built, Fault>> {
        let failed = |detail: String| Ok(Err(build_fault(detail)));
        let building = sandbox
            .with_cpu(terms.build_seconds)
            .with_process_cpu_at_least(terms.build_seconds);
        let program = |command: &'static str| Program {
            command,
            args: &[],
            files: &[],
        };
        let run = match build_step(
            &building,
            &program("make agent"),
            agent,
            "`make agent`",
            terms,
        )? {
            Ok(run) => run,
            Err(fault) => return Ok(Err(fault)),
        };
        let built = tempfile::Builder::new()
            .prefix("reversi-arena-")
            .tempdir()?;
        if let Err(e) = run.keep_work(built.path()) {
            return failed(format!("its build could not be kept: {e}"));
        }
        drop(run);
        // `make calibrate`: optional, errors ignored, killed after its wall time.
        let calibrating = sandbox
            .with_wall(self.calibrate_wall)
            .with_process_cpu_at_least(self.calibrate_wall);
        let run = calibrating.run_from(&program("make calibrate"), Some(built.path()))?;
        if run.ending == Ending::Stopped {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let calibrated = tempfile::Builder::new()
            .prefix("reversi-arena-")
            .tempdir()?;
        let tree = if run.keep_work(calibrated.path()).is_ok() {
            calibrated
        } else {
            built
        };
        forget_output(tree.path());
        Ok(Ok(Built {
            command: make("run"),
            tree,
        }))
    }

    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        _terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>> {
        // `make newgame` in the agent's folder: errors ignored.
        let run = sandbox.with_wall(NEWGAME_WALL).run_from(
            &Program {
                command: "make newgame",
                args: &[],
                files: &[],
            },
            Some(built.tree.path()),
        )?;
        if run.ending == Ending::Stopped {
            return Err(io::ErrorKind::Interrupted.into());
        }
        Ok(Box::new(Seat {
            task4: self,
            built,
            sandbox,
            used: Duration::ZERO,
            kept: keep(&run)?,
            chance: None,
        }))
    }

    fn words(&self, terms: &Terms) -> Vec<String> {
        let bank = self.bank.as_secs_f64();
        vec![
            format!(
                "bank: {bank} s of CPU time per side per game (--bank), charged with each run's \
                 CPU time (all its processes and threads, from its cgroup); a side at 0 s or \
                 below gets a seeded random legal move from the referee, without a run"
            ),
            format!(
                "wall limit: a run of `make run` is killed after its side's time left + {} s \
                 of wall time and loses the game (over the time)",
                WALL_GRACE.as_secs()
            ),
            "answers: the move in output.txt (`c4`, at most 64 bytes read); missing or \
             unreadable: a loss; an illegal move: a loss; a failing `make run` (an exit status \
             other than 0, a signal): a seeded random legal move; a side without a legal move \
             passes without a run"
                .into(),
            format!(
                "build: `make agent` may take {} s of CPU time, a failure forfeits every game; \
                 `make calibrate` after it, errors ignored, killed after {} s of wall time; \
                 `make newgame` before each game, errors ignored, killed after {} s of wall time",
                terms.build_seconds.as_secs_f64(),
                self.calibrate_wall.as_secs_f64(),
                NEWGAME_WALL.as_secs()
            ),
            "state: each agent's folder is its own, kept across its moves and its games (one \
             game of an agent at a time), never seen by its opponent; output.txt is removed \
             before each run"
                .into(),
            "result: more discs wins; equal discs: more CPU time left wins".into(),
        ]
    }

    fn bank(&self) -> Option<Duration> {
        Some(self.bank)
    }

    fn state_across_games(&self) -> bool {
        true
    }
}

/// What a run left in its folder, output.txt removed; none when it passed its bound.
fn keep(run: &Run) -> io::Result<Option<tempfile::TempDir>> {
    let kept = tempfile::Builder::new()
        .prefix("reversi-arena-")
        .tempdir()?;
    Ok(run.keep_work(kept.path()).is_ok().then(|| {
        forget_output(kept.path());
        kept
    }))
}

/// An agent in one game.
struct Seat<'a> {
    task4: &'a Task4,
    built: &'a Built,
    sandbox: &'a Sandbox,
    /// The CPU time charged so far.
    used: Duration,
    /// Its folder now (none: as built).
    kept: Option<tempfile::TempDir>,
    /// Why the last move was random, if it was.
    chance: Option<Chance>,
}

/// The `input.txt` of a move: task 4, the mover's letter, its CPU seconds left, the
/// board (`X` black, `O` white, `*` empty), CRLF line ends and no final newline as
/// the official inputs.
pub fn input_text(position: Position, seconds_left: f64) -> String {
    let letter = match position.to_move {
        Color::Black => "X",
        Color::White => "O",
    };
    let mut lines = vec![
        "4".to_string(),
        letter.to_string(),
        format!("{seconds_left:.3}"),
    ];
    for row in 0..8 {
        lines.push(
            (0..8)
                .map(|col| {
                    let bit = Square::new(row, col).bit();
                    if position.black & bit != 0 {
                        'X'
                    } else if position.white & bit != 0 {
                        'O'
                    } else {
                        '*'
                    }
                })
                .collect(),
        );
    }
    lines.join("\r\n")
}

/// Reads `output.txt`: a move `a1`-`h8` (or `pass`), surrounding white space allowed.
pub fn parse_move(text: &str) -> Option<Option<Square>> {
    let text = text.trim();
    if text == "pass" {
        return Some(None);
    }
    match text.as_bytes() {
        &[col @ b'a'..=b'h', row @ b'1'..=b'8'] => Some(Some(Square::new(row - b'1', col - b'a'))),
        _ => None,
    }
}

impl Seat<'_> {
    fn folder(&self) -> &Path {
        self.kept
            .as_ref()
            .map_or(self.built.tree.path(), |kept| kept.path())
    }

    /// A seeded random legal move for `position` (the same in every run of the
    /// tournament: the seed, the position and the move number decide it).
    fn random(&self, position: Position, number: usize) -> Option<Square> {
        let moves = position.board().moves();
        let mut random = SplitMix64::new(
            self.task4.seed
                ^ position.black.rotate_left(21)
                ^ position.white.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ number as u64,
        );
        (moves != 0).then(|| {
            let k = random.below(u64::from(moves.count_ones()));
            Squares(moves)
                .nth(k as usize)
                .expect("k is below the count")
        })
    }

    fn left(&self) -> f64 {
        self.task4.bank.as_secs_f64() - self.used.as_secs_f64()
    }
}

impl Player for Seat<'_> {
    fn answer(&mut self, position: Position, number: usize) -> io::Result<Answer> {
        self.chance = None;
        let random = |seat: &mut Self, why: Chance, cpu: Duration| {
            seat.chance = Some(why);
            let said = seat.random(position, number);
            Answer {
                verdict: Ok(said),
                text: format!("random ({})", why.words()),
                cpu,
            }
        };
        if position.board().moves() == 0 {
            // The referee passes for it without a run.
            return Ok(Answer {
                verdict: Ok(None),
                text: "pass".into(),
                cpu: Duration::ZERO,
            });
        }
        if self.used >= self.task4.bank {
            return Ok(random(self, Chance::BankSpent, Duration::ZERO));
        }
        let left = self.task4.bank - self.used;
        let wall = left + WALL_GRACE;
        let input = input_text(position, self.left());
        let run = self
            .sandbox
            .with_wall(wall)
            .with_process_cpu_at_least(wall)
            .run_from(
                &Program {
                    command: &self.built.command,
                    args: &[],
                    files: &[("input.txt", input.as_bytes())],
                },
                Some(self.folder()),
            )?;
        if run.ending == Ending::Stopped {
            return Err(io::ErrorKind::Interrupted.into());
        }
        self.used += run.cpu;
        // A folder past the bound is not kept: the next move starts from the last one.
        if let Some(kept) = keep(&run)? {
            self.kept = Some(kept);
        }
        let fault = |reason, answer: String, detail: String| Answer {
            verdict: Err(Fault {
                reason,
                answer: answer.clone(),
                detail,
            }),
            text: answer,
            cpu: run.cpu,
        };
        let cpu = run.cpu.as_secs_f64();
        match run.ending {
            Ending::WallTime | Ending::CpuTime => {
                return Ok(fault(
                    Reason::OverTime,
                    String::new(),
                    format!(
                        "still running after {} s of wall time (its {:.3} s left + {} s) with \
                         {cpu:.2} s of CPU time: killed",
                        wall.as_secs_f64(),
                        left.as_secs_f64(),
                        WALL_GRACE.as_secs()
                    ),
                ))
            }
            Ending::Exited(0) => {}
            _ => return Ok(random(self, Chance::RunFailed, run.cpu)),
        }
        Ok(match run.read_output("output.txt", OUTPUT_BYTES)? {
            OutputFile::Regular(bytes) => {
                let text = printable_bytes(bytes.trim_ascii());
                match std::str::from_utf8(&bytes).ok().and_then(parse_move) {
                    Some(said) => Answer {
                        verdict: Ok(said),
                        text,
                        cpu: run.cpu,
                    },
                    None => fault(
                        Reason::Unreadable,
                        text,
                        "output.txt does not hold a move: expected the column a-h then the row \
                         1-8 (`c4`)"
                            .into(),
                    ),
                }
            }
            OutputFile::Missing => fault(
                Reason::NoAnswer,
                String::new(),
                format!("`make run` wrote no output.txt{}", stderr_words(&run)),
            ),
            OutputFile::NotAFile(kind) => fault(
                Reason::Unreadable,
                String::new(),
                format!("output.txt is a {kind}, not a file"),
            ),
            OutputFile::TooLarge(size) => fault(
                Reason::Unreadable,
                String::new(),
                format!("output.txt holds {size} bytes; a move is 2"),
            ),
        })
    }

    fn chance(&self) -> Option<Chance> {
        self.chance
    }
}

impl Drop for Seat<'_> {
    /// The game is over: the agent's folder as it left it becomes the one its next
    /// game starts from (its games are played one at a time).
    fn drop(&mut self) {
        let Some(kept) = self.kept.take() else {
            return;
        };
        let tree = self.built.tree.path();
        let moved = (|| -> io::Result<()> {
            for entry in fs::read_dir(tree)? {
                let path = entry?.path();
                if path.is_dir() && !path.is_symlink() {
                    fs::remove_dir_all(&path)?;
                } else {
                    fs::remove_file(&path)?;
                }
            }
            for entry in fs::read_dir(kept.path())? {
                let entry = entry?;
                fs::rename(entry.path(), tree.join(entry.file_name()))?;
            }
            Ok(())
        })();
        if let Err(e) = moved {
            eprintln!(
                "reversi: warning: an agent's folder could not be kept for its next game: {e}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::cs561::{parse_request, Request};
    use crate::format::umea::START;

    #[test]
    fn the_input_is_what_the_solver_reads() {
        // The Umea start has white to move; after its move, black (X).
        let first = Squares(START.board().moves()).next().unwrap();
        let position = START.play(first);
        let text = input_text(position, 199.5);
        assert!(
            text.starts_with("4\r\nX\r\n199.500\r\n********\r\n"),
            "{text:?}"
        );
        assert!(!text.ends_with('\n'));
        let Ok(Request::Compete(competition)) = parse_request(text.as_bytes(), None) else {
            panic!("not a task-4 input: {text:?}");
        };
        assert_eq!(competition.time_left, Duration::from_secs_f64(199.5));
        assert_eq!(competition.x_discs, position.black);
        assert_eq!(competition.o_discs, position.white);
    }

    #[test]
    fn moves_are_read_strictly() {
        assert_eq!(parse_move("c4\r\n"), Some(Some(Square::new(3, 2))));
        assert_eq!(parse_move(" h8 "), Some(Some(Square::new(7, 7))));
        assert_eq!(parse_move("pass"), Some(None));
        for bad in ["", "C4", "c9", "i1", "c4 d5", "4c", "c44"] {
            assert_eq!(parse_move(bad), None, "{bad}");
        }
    }
}
