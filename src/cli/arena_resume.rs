//! `arena --resume`: the tournament's journal opened (on `grade`'s journal machinery,
//! [`crate::arena::journal`]), and the settings it is kept for.

use std::path::Path;

use anyhow::Result;

use crate::arena::journal::{Ledger, ARENA};
use crate::grading::grade::journal::{state_file, Journal, JournalError, Settings};
use crate::grading::shard::Shard;
use crate::printable::printable;

/// The journal of the tournament of `class` (its shard, if one), for `players` (name
/// and folder, in the tournament's order): with `resume`, the earlier tournament's,
/// whose games are then taken instead of played; else one started afresh (none, with
/// a warning, where it cannot be written). `key` tells apart tournaments of one class
/// that differ in what they are (protocol, format, opponents).
pub(super) fn open_ledger(
    resume: bool,
    class: &Path,
    key: &str,
    shard: Option<Shard>,
    settings: &Settings,
    players: &[(String, Option<&Path>)],
) -> Result<Option<Ledger>> {
    let path = state_file(&ARENA, class, &[key.as_bytes()], shard);
    if !resume {
        let Some(path) = path else { return Ok(None) };
        return Ok(match Journal::start_as(&path, &ARENA, settings) {
            Ok((journal, held)) => {
                if held > 0 {
                    eprintln!(
                        "reversi: note: an earlier tournament of this class was stopped with \
                         {held} games played; without --resume every game is played again \
                         ({} starts afresh)",
                        printable(&path.display().to_string())
                    );
                }
                Some(Ledger::new(journal, Vec::new(), players))
            }
            Err(error) => {
                eprintln!(
                    "reversi: warning: {error}; this tournament keeps no journal, so --resume \
                     cannot go on with it"
                );
                None
            }
        });
    }
    let path = path.ok_or(JournalError::Nowhere)?;
    let (journal, lines) = Journal::reopen(&path, &ARENA, settings)?;
    let shown = printable(&path.display().to_string()).into_owned();
    let found = lines.is_some();
    let ledger = Ledger::new(journal, lines.unwrap_or_default(), players);
    if found {
        let mut note = format!(
            "reversi: resuming the tournament of {shown}: {} games kept",
            ledger.held()
        );
        if ledger.changed > 0 {
            note += &format!(
                " ({} played again: a player's folder changed since)",
                ledger.changed
            );
        }
        eprintln!("{note}");
    } else {
        eprintln!(
            "reversi: note: no earlier tournament of this class to resume ({shown}); every \
             game is played"
        );
    }
    Ok(Some(ledger))
}

/// The tournament was stopped (Ctrl-C, SIGTERM): no report is written (exit 130).
#[derive(Debug, thiserror::Error)]
#[error(
    "interrupted: no report is written{}",
    if *journal {
        "; the games played are in the journal: the same command with --resume goes on"
    } else {
        ""
    }
)]
pub struct Stopped {
    /// Whether the tournament keeps a journal.
    pub journal: bool,
}
