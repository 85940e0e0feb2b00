//! The legality suite (CSU's minimum standard, a `C`): each student's agent is asked
//! once for a move in each of a series of positions, through its protocol, each
//! answer judged as a game's answer is ([`super::game::judge`]): legal, within the
//! time, `pass`/`skip` exactly when the side to move has no move.

use std::io;

use serde_json::json;

use super::game::{judge, Fault};
use super::schedule::{Entrant, Ready, Tournament};
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

impl Tournament<'_> {
    /// Builds every student, then asks each for a move in each of `positions` (one
    /// move request each, move number 1), `jobs` at a time; the sheets in the
    /// students' order.
    pub fn legality(&self, students: &[Entrant], positions: &[Position]) -> io::Result<Vec<Sheet>> {
        let entrants: Vec<&Entrant> = students.iter().collect();
        let ready = self.build_all(&entrants, &vec![true; entrants.len()])?;
        let count = positions.len();
        let faults = self.parallel(ready.len() * count, |i| {
            let position = positions[i % count];
            let mut player = match &ready[i / count] {
                Ready::Failed(fault) => return Ok(Some(fault.clone())),
                ready => self.seat(ready)?,
            };
            let answer = player.answer(position, 1)?;
            Ok(answer
                .verdict
                .and_then(|said| judge(position, said, &answer.text))
                .err())
        })?;
        let mut faults = faults.into_iter();
        Ok(entrants
            .iter()
            .map(|e| Sheet {
                name: e.name(),
                faults: faults.by_ref().take(count).collect(),
            })
            .collect())
    }
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
/// with the position, the answer (escaped) and the reason.
pub fn text(sheets: &[Sheet], positions: &[Position]) -> String {
    let mut out = String::new();
    for sheet in sheets {
        out += &format!(
            "{}: {}/{} positions answered legally\n",
            printable(&sheet.name),
            sheet.legal(),
            positions.len()
        );
        for (position, fault) in positions.iter().zip(&sheet.faults) {
            if let Some(fault) = fault {
                out += &format!(
                    "  {} in {}: answered `{}`; {}\n",
                    fault.reason.words(),
                    position_text(*position),
                    fault.answer,
                    fault.detail
                );
            }
        }
    }
    out
}

/// The JSON report's `legality` section: per student its name, `legal`, `total` and
/// `failures` (position, answer, reason, detail).
pub fn json(sheets: &[Sheet], positions: &[Position]) -> serde_json::Value {
    sheets
        .iter()
        .map(|sheet| {
            let failures: Vec<_> = positions
                .iter()
                .zip(&sheet.faults)
                .filter_map(|(position, fault)| {
                    let fault = fault.as_ref()?;
                    Some(json!({
                        "position": position_text(*position),
                        "answer": fault.answer,
                        "reason": fault.reason.words(),
                        "detail": fault.detail,
                    }))
                })
                .collect();
            json!({
                "name": printable(&sheet.name),
                "legal": sheet.legal(),
                "total": positions.len(),
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
