//! The NBoard protocol, which Othello engines speak (Edax, NTest, Egaroucid, and
//! `reversi engine nboard`): one process per game, started with no arguments, talked
//! with one command a line ([`super::conversation`], as `line`). At the start the
//! referee writes `nboard 2` and `set depth N` (`--nboard-depth`: the engine's search
//! depth; the protocol passes no clock). Before each move it writes `set game GGF`
//! (the game as this engine has seen it: the first position it was asked, then every
//! move since, [`crate::format::ggf`]) and `ping K`, reads up to `pong K`, then writes
//! `go` and reads the answer `=== MOVE[/EVAL[/TIME]]` (`PA`: a pass). The engine's
//! other messages (`status`, `search`, `nodestats`, `set myname`, `learned`, `book`,
//! a stale `pong`) are skipped; any other line is an unreadable answer (skipped too
//! under `--lax`). `--seconds` is the game's bank of CPU time, as for `line`.

use std::io;
use std::time::Duration;

use super::conversation::Conversation;
use super::{Built, Protocol, Terms};
use crate::arena::game::{Answer, Fault, Player, Reason};
use crate::board::Square;
use crate::format::ggf;
use crate::printable::printable_bytes;
use crate::rules::Position;
use crate::sandbox::Sandbox;

/// The NBoard adapter.
pub struct NBoard {
    /// The search depth sent as `set depth`.
    pub depth: u32,
}

/// The search depth when `--nboard-depth` is not given.
pub const DEFAULT_DEPTH: u32 = 8;

/// The first words of the engine's lines that are not its answer.
const SKIPPED: &[&str] = &[
    "status",
    "search",
    "nodestats",
    "set",
    "learned",
    "book",
    "pong",
];

impl Protocol for NBoard {
    fn name(&self) -> &'static str {
        "nboard"
    }

    fn entry(&self) -> &'static str {
        "othello.sh"
    }

    fn per_game(&self) -> bool {
        true
    }

    fn seat<'a>(
        &'a self,
        built: &'a Built,
        sandbox: &'a Sandbox,
        terms: &'a Terms,
    ) -> io::Result<Box<dyn Player + 'a>> {
        Ok(Box::new(Seat {
            conversation: Conversation::new(built, sandbox, terms),
            depth: self.depth,
            lax: terms.lax,
            history: History::default(),
            pings: 0,
        }))
    }

    fn words(&self, terms: &Terms) -> Vec<String> {
        let mut words = terms.words();
        words[0] = format!(
            "time: a bank of {} s of CPU time per game, plus a start allowance of {} s: the \
             engine's process is killed once it has used {} s of CPU time (all its processes \
             and threads, from the run's cgroup, known only when the run ends); each answer \
             is awaited at most the wall-time net of the bank less the wall time of its \
             turns; the engine is told no clock, only `set depth {}`",
            terms.seconds,
            terms.start_allowance.as_secs_f64(),
            terms.limit().as_secs_f64(),
            self.depth
        );
        words[1] = if terms.lax {
            "answers: lax (--lax): `=== MOVE`; lines that are not NBoard messages are skipped"
                .into()
        } else {
            "answers: strict: `=== MOVE`; the engine's NBoard messages (status, search, \
             nodestats, set, learned, book, pong) are skipped, any other line is unreadable"
                .into()
        };
        words
    }
}

/// An engine in one game.
struct Seat<'a> {
    conversation: Conversation<'a>,
    depth: u32,
    lax: bool,
    /// The game as it has seen it.
    history: History,
    /// The pings sent.
    pings: u32,
}

impl Seat<'_> {
    /// Reads lines until one that `ends` accepts (skipping the engine's other
    /// messages): that line, or the fault.
    fn read_until(
        &mut self,
        what: &str,
        ends: impl Fn(&str) -> bool,
    ) -> io::Result<Result<Vec<u8>, Fault>> {
        loop {
            let line = match self.conversation.next_line(what)? {
                Ok(line) => line,
                Err(fault) => return Ok(Err(fault)),
            };
            let text = String::from_utf8_lossy(&line);
            if ends(&text) {
                return Ok(Ok(line));
            }
            let first = text.split_whitespace().next().unwrap_or_default();
            if !self.lax && !SKIPPED.contains(&first) {
                return Ok(Err(Fault {
                    reason: Reason::Unreadable,
                    answer: printable_bytes(&line),
                    detail: format!("expected {what}; this is no NBoard message"),
                }));
            }
        }
    }
}

/// The game as an engine has seen it: the first position it was asked, the moves
/// since, and the position after its last answer.
#[derive(Default)]
struct History(Option<(Position, Vec<Option<Square>>, Position)>);

impl History {
    /// The game so far in GGF, `position` its last: the opponent's move since the
    /// engine's last answer (the cell that filled, or a pass) added; started again
    /// from `position` if that does not lead to it.
    fn text(&mut self, position: Position) -> String {
        let (start, moves) = match self.0.take() {
            Some((start, mut moves, seen)) => {
                let placed = (position.white | position.black) & !(seen.white | seen.black);
                let square =
                    (placed != 0).then(|| Square::from_index(placed.trailing_zeros() as u8));
                if seen.after(square) == position {
                    moves.push(square);
                    (start, moves)
                } else {
                    (position, Vec::new())
                }
            }
            None => (position, Vec::new()),
        };
        let game = ggf::Game {
            place: "reversi arena".into(),
            date: ggf::date(0),
            black: "black".into(),
            white: "white".into(),
            black_rating: None,
            white_rating: None,
            time: None,
            start,
            moves: moves.iter().map(|m| ggf::Move::plain(*m)).collect(),
            result: None,
        };
        self.0 = Some((start, moves, position));
        ggf::write(&game)
    }

    /// Adds the engine's answer `said` in `position` (the last given to `text`).
    fn answered(&mut self, position: Position, said: Option<Square>) {
        if let Some((_, moves, seen)) = &mut self.0 {
            moves.push(said);
            *seen = position.after(said.filter(|s| position.board().moves() & s.bit() != 0));
        }
    }
}

impl Player for Seat<'_> {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let faulty = |fault: Fault| Answer {
            text: fault.answer.clone(),
            verdict: Err(fault),
            cpu: Duration::ZERO,
        };
        if !self.conversation.started() {
            self.conversation.start(Vec::new());
            self.conversation
                .send(format!("nboard 2\nset depth {}\n", self.depth));
        }
        let game = self.history.text(position);
        self.pings += 1;
        let ping = self.pings;
        self.conversation
            .send(format!("set game {game}\nping {ping}\n"));
        let pong = format!("pong {ping}");
        if let Err(fault) = self.read_until(&format!("`{pong}`"), |l| l.trim() == pong)? {
            return Ok(faulty(fault));
        }
        self.conversation.send("go\n".into());
        let line = match self.read_until("`=== MOVE`", |l| l.starts_with("==="))? {
            Ok(line) => line,
            Err(fault) => return Ok(faulty(fault)),
        };
        let text = printable_bytes(&line);
        let said = std::str::from_utf8(&line).ok().and_then(parse);
        Ok(match said {
            Some(said) => {
                self.history.answered(position, said);
                Answer {
                    verdict: Ok(said),
                    text,
                    cpu: Duration::ZERO,
                }
            }
            None => faulty(Fault {
                reason: Reason::Unreadable,
                answer: text,
                detail: "expected `=== MOVE[/EVAL[/TIME]]`, MOVE a square (`F5`) or `PA`".into(),
            }),
        })
    }
}

/// Reads `=== F5/EVAL/TIME`: `Some(None)` for a pass.
fn parse(line: &str) -> Option<Option<Square>> {
    let rest = line.strip_prefix("===")?.trim();
    let name = rest.split('/').next()?.trim();
    ggf::parse_move_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_ggf_moves() {
        assert_eq!(parse("=== F5/1.00/0.01"), Some(Some(Square::new(4, 5))));
        assert_eq!(parse("=== d3"), Some(Some(Square::new(2, 3))));
        assert_eq!(parse("=== PA"), Some(None));
        for bad in ["=== Z9", "F5", "===", "=== F5 F6"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_game_so_far_holds_both_sides_moves() {
        let (f5, d6) = (Square::new(4, 5), Square::new(5, 3));
        let start = super::super::line::START;
        let mut history = History::default();
        let first = history.text(start);
        assert!(
            first.ends_with("---O*--- ---*O--- -------- -------- -------- *];)"),
            "{first}"
        );
        history.answered(start, Some(f5));
        let next = start.play(f5).play(d6);
        let text = history.text(next);
        assert!(text.ends_with(" *]B[F5]W[D6];)"), "{text}");
        assert_eq!(ggf::read(&text).unwrap().last(), next);
        // A position the last does not lead to: the game starts again from it.
        let text = history.text(start);
        assert!(text.ends_with(" *];)"), "{text}");
    }
}
