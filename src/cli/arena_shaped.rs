//! `reversi arena --protocol tristate --openings BOARDS`: games on Tri-state boards of
//! any shape (CSU CS440, "beginning in the middle of games"), the course's board
//! files as the starting positions; the options and players that cannot follow such
//! games refused.

use std::path::Path;

use anyhow::Result;

use super::arena::bad;
use super::arena_suite;
use crate::arena::protocol::Speaks;
use crate::arena::schedule::Entrant;
use crate::arena::shaped::{self, Board};
use crate::printable::printable;

/// The reports and options that are 8x8 only, each with why.
const EIGHT_BY_EIGHT: [(&str, &str); 6] = [
    ("--games-dir", "GGF records 8x8 games"),
    ("--html", "the page's replay board is 8x8"),
    ("--junit", "its forfeits show 8x8 boards"),
    ("--gradescope", "its forfeits show 8x8 boards"),
    ("--resume", "the journal records 8x8 games"),
    ("--shard", "arena merge reads 8x8 games"),
];

/// The board files of `--openings` (a folder of Tri-state board files, or one) and
/// their words for the reports, when they are board files (`None`: Umea positions or
/// no `--openings`); refused unless `protocol` is tristate, every opponent plays any
/// shape (`engine:depth=N`, `cmd:COMMAND`), and no option of [`EIGHT_BY_EIGHT`] is
/// `given` (each flag's name with whether it was given).
pub(super) fn boards(
    openings: Option<&Path>,
    protocol: &str,
    opponents: &[Entrant],
    given: &[(&str, bool)],
) -> Result<Option<(Vec<Board>, String)>> {
    let Some(path) = openings else {
        return Ok(None);
    };
    let Some(boards) = arena_suite::board_files(path)? else {
        return Ok(None);
    };
    let shown = printable(&path.display().to_string()).into_owned();
    if protocol != "tristate" {
        return Err(bad(
            &shown,
            format!(
                "games on Tri-state board files are played through --protocol tristate, not \
                 {protocol}"
            ),
        ));
    }
    for entrant in opponents {
        let any_shape = match entrant {
            Entrant::Reference(reference) => reference.seat_shaped().is_some(),
            Entrant::Agent(agent) => agent.speaks == Speaks::Tournament,
        };
        if !any_shape {
            return Err(bad(
                "--opponent",
                format!(
                    "{} plays on 8x8 only; games on Tri-state board files (--openings {shown}) \
                     take engine:depth=N or cmd:COMMAND opponents",
                    printable(&entrant.name())
                ),
            ));
        }
    }
    for (flag, why) in EIGHT_BY_EIGHT {
        if given.iter().any(|&(g, on)| on && g == flag) {
            return Err(bad(
                flag,
                format!("not for games on Tri-state board files (--openings {shown}): {why}"),
            ));
        }
    }
    let words = format!(
        "{} board file{} of {shown} ({}), each game from its file's board and side to move, \
         the files in name order; moves are cells (x,y), column and row 0-based; no game \
         reviews (they are 8x8)",
        boards.len(),
        if boards.len() == 1 { "" } else { "s" },
        shaped::count_shapes(boards.iter().map(|b| shaped::shape(&b.problem)))
    );
    Ok(Some((boards, words)))
}
