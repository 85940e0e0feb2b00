//! The legality suite (CSU's minimum standard, a `C`): each student's agent is asked
//! once for a move in each of a series of positions, through its protocol, each
//! answer judged as a game's answer is ([`super::game::judge`]; on Tri-state boards of
//! any shape [`super::shaped::judge`]): legal, within the time, `pass`/`skip` exactly
//! when the side to move has no move.

use std::io;

use serde_json::json;

use super::game::{judge, Fault};
use super::protocol::tristate::Tristate;
use super::schedule::{Builds, Entrant, Ready, Tournament};
use super::shaped::{self, Board};
use crate::format::umea::{position_text, START};
use crate::printable::printable;
use crate::rules::Position;
use crate::splitmix::SplitMix64;

/// One student's answers to the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// The student's name (escaped for reports by the caller).
    pub name: String,
    /// Each position's fault, `None` where the answer was legal, in the suite's order.
    pub faults: Vec<Option<Fault>>,
}

impl Sheet {
    /// The positions answered legally.
    pub fn legal(&self) -> usize {
        self.faults.iter().filter(|f| f.is_none()).count()
    }
}

/// The suite's positions.
#[derive(Clone, Debug)]
pub enum Suite {
    /// 8x8 positions (Umea's text), asked through any per-move protocol.
    Positions(Vec<Position>),
    /// Tri-state board files of any shape, asked through `tristate` in its
    /// coordinate convention.
    Boards(Vec<Board>, Tristate),
}

impl Suite {
    /// How many positions it has.
    pub fn len(&self) -> usize {
        match self {
            Suite::Positions(list) => list.len(),
            Suite::Boards(list, _) => list.len(),
        }
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th position as the reports name it: the Umea text, or the board
    /// file's name with its shape.
    pub fn name(&self, i: usize) -> String {
        match self {
            Suite::Positions(list) => position_text(list[i]),
            Suite::Boards(list, _) => format!(
                "{} ({})",
                printable(&list[i].name),
                shaped::shape(&list[i].problem)
            ),
        }
    }

    /// The `i`-th position's fields for the JSON report's failures: `position` (the
    /// Umea text, or the board file as the agent got it), `shape`, and `file` for a
    /// board file.
    fn json_fields(&self, i: usize) -> serde_json::Value {
        match self {
            Suite::Positions(list) => json!({
                "position": position_text(list[i]),
                "shape": "8x8",
            }),
            Suite::Boards(list, _) => json!({
                "position": shaped::board_file(&list[i].problem),
                "shape": shaped::shape(&list[i].problem),
                "file": printable(&list[i].name),
            }),
        }
    }

    /// The shapes it holds, in words, each with its count (`3 of 6x6, 1 of 10x8`).
    pub fn shapes(&self) -> String {
        match self {
            Suite::Positions(list) => shaped::count_shapes(list.iter().map(|_| "8x8".into())),
            Suite::Boards(list, _) => {
                shaped::count_shapes(list.iter().map(|b| shaped::shape(&b.problem)))
            }
        }
    }
}

impl Tournament<'_> {
    /// Builds every student, then asks each for a move in each of the suite's
    /// positions (one move request each, move number 1), `jobs` at a time; the
    /// sheets in the students' order, and the builds (for the games that follow).
    pub fn legality(
        &self,
        students: &[Entrant],
        suite: &Suite,
    ) -> io::Result<(Vec<Sheet>, Builds)> {
        let entrants: Vec<&Entrant> = students.iter().collect();
        let ready = self.build_all(&entrants, &vec![true; entrants.len()])?;
        let count = suite.len();
        let faults = self.parallel(ready.len() * count, |i| {
            let student = &ready[i / count];
            let built = match student {
                Ready::Built(built, _) => built,
                Ready::Failed(fault) => return Ok(Some(fault.clone())),
                Ready::Reference(_) | Ready::Elsewhere => {
                    unreachable!("every student is an agent, built")
                }
            };
            match suite {
                Suite::Positions(positions) => {
                    let position = positions[i % count];
                    let mut player = self.seat(student)?;
                    let answer = player.answer(position, 1)?;
                    Ok(answer
                        .verdict
                        .and_then(|said| judge(position, said, &answer.text))
                        .err())
                }
                Suite::Boards(boards, tristate) => {
                    let problem = &boards[i % count].problem;
                    let answer =
                        tristate.ask_board(built, self.sandbox, self.terms, None, problem)?;
                    Ok(answer
                        .verdict
                        .and_then(|said| shaped::judge(problem, said, &answer.text))
                        .err())
                }
            }
        })?;
        let mut faults = faults.into_iter();
        let sheets = entrants
            .iter()
            .map(|e| Sheet {
                name: e.name(),
                faults: faults.by_ref().take(count).collect(),
            })
            .collect();
        Ok((sheets, Builds(ready)))
    }
}

/// What the suite judges, in words, with the protocol's word for a pass (Tri-state's
/// `skip`).
pub fn judged(protocol: &str) -> String {
    let pass = if protocol == "tristate" {
        "skip"
    } else {
        "pass"
    };
    format!("each answer legal, within the time, {pass} exactly when no move")
}

/// How many positions the built-in suite has, and how many of them are passes.
pub const BUILT_IN: (usize, usize) = (24, 4);

/// The built-in suite: mid-game positions (20 to 44 discs) from seeded random games
/// from the standard start, the last [`BUILT_IN`]`.1` of them positions where the
/// side to move must pass (its opponent has a move).
pub fn built_in(seed: u64) -> Vec<Position> {
    let mut random = SplitMix64::new(seed);
    let (total, passes) = BUILT_IN;
    let (mut moving, mut passing) = (Vec::new(), Vec::new());
    while moving.len() < total - passes || passing.len() < passes {
        let mut position = START;
        let stop = random.range(20, 44);
        loop {
            let board = position.board();
            let moves = board.moves();
            if moves == 0 && board.pass().moves() == 0 {
                break;
            }
            let discs = (position.white | position.black).count_ones();
            if moves == 0 && discs >= 20 && passing.len() < passes {
                passing.push(position);
                break;
            }
            if discs >= stop && moves != 0 {
                if moving.len() < total - passes {
                    moving.push(position);
                }
                break;
            }
            position = if moves == 0 {
                position.after(None)
            } else {
                position.play(random.square_of(moves))
            };
        }
    }
    moving.extend(passing);
    moving
}

/// The text report: each student's legal answers of the total, then each failure
/// with the position (a board file's name and shape, then its board on a line), the
/// answer (escaped) and the reason.
pub fn text(sheets: &[Sheet], suite: &Suite) -> String {
    let mut out = String::new();
    for sheet in sheets {
        out += &format!(
            "{}: {}/{} positions answered legally\n",
            printable(&sheet.name),
            sheet.legal(),
            suite.len()
        );
        for (i, fault) in sheet.faults.iter().enumerate() {
            if let Some(fault) = fault {
                out += &format!(
                    "  {} in {}: answered `{}`; {}\n",
                    fault.reason.words(),
                    suite.name(i),
                    fault.answer,
                    fault.detail
                );
                if let Suite::Boards(boards, _) = suite {
                    let rows: Vec<_> = shaped::board_file(&boards[i].problem)
                        .lines()
                        .map(str::to_string)
                        .collect();
                    out += &format!("    board: {}\n", rows.join(" / "));
                }
            }
        }
    }
    out
}

/// The JSON report's `legality` section: per student its name, `legal`, `total` and
/// `failures` (position, shape, board file, answer, reason, detail).
pub fn json(sheets: &[Sheet], suite: &Suite) -> serde_json::Value {
    sheets
        .iter()
        .map(|sheet| {
            let failures: Vec<_> = sheet
                .faults
                .iter()
                .enumerate()
                .filter_map(|(i, fault)| {
                    let fault = fault.as_ref()?;
                    let mut failure = suite.json_fields(i);
                    let fields = failure.as_object_mut()?;
                    fields.insert("answer".into(), fault.answer.clone().into());
                    fields.insert("reason".into(), fault.reason.words().into());
                    fields.insert("detail".into(), fault.detail.clone().into());
                    Some(failure)
                })
                .collect();
            json!({
                "name": printable(&sheet.name),
                "legal": sheet.legal(),
                "total": suite.len(),
                "failures": failures,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_suite_has_its_passes_and_no_ended_game() {
        let suite = built_in(1);
        assert_eq!(suite.len(), BUILT_IN.0);
        let passes = suite.iter().filter(|p| p.board().moves() == 0).count();
        assert_eq!(passes, BUILT_IN.1);
        for position in &suite {
            let board = position.board();
            assert!(board.moves() != 0 || board.pass().moves() != 0);
            assert!((position.white | position.black).count_ones() >= 20);
        }
        assert_eq!(suite, built_in(1));
    }
}
