//! The tournament's journal (`reversi arena --resume`), kept by `grade`'s journal
//! machinery ([`crate::grading::grade::journal`]): a header with the settings that
//! decide results, then one line per finished game (its [`GameLine`], its place in
//! the schedule, the digests of its players' folders), synced to disk before any
//! report shows it. A resumed tournament takes each game it finds there instead of
//! playing it again, unless a player's folder changed since.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::bank::{Chance, RandomMove};
use super::game::Game;
use super::record::GameLine;
use crate::format::umea::position_text;
use crate::grading::grade::journal::{folder_digest, Journal, JournalError, Kind, Lines};
use crate::rules::{Color, Position};

/// The journals of `reversi arena`.
pub const ARENA: Kind = Kind {
    header: "reversi arena --resume",
    folder: "arena",
    run: "tournament",
    again: "play every game again",
};

/// A game finished, one line.
#[derive(Serialize, Deserialize)]
struct Entry {
    #[serde(flatten)]
    game: GameLine,
    /// The game's index in its pairing.
    index: usize,
    /// The digests of white's and black's folders (empty for a reference or a command).
    folders: (String, String),
    /// The CPU time of white's and black's answers in all and of their longest, in
    /// nanoseconds.
    cpu: [u64; 4],
    /// The CPU bank each side started with, in nanoseconds (CS561 task 4).
    #[serde(default)]
    bank: Option<u64>,
    /// The moves the referee chose at random: their number, whether white's, and
    /// whether for a bank spent (else for a failed run).
    #[serde(default)]
    random: Vec<(usize, bool, bool)>,
}

/// Who plays which game, as the journal tells games apart.
type Key = (String, String, usize, String);

/// The journal of a tournament, shared by the games played at once.
pub struct Ledger {
    journal: Mutex<Journal>,
    kept: Mutex<HashMap<Key, Entry>>,
    names: Vec<String>,
    digests: Vec<String>,
    /// Games kept whose player's folder changed since (played again).
    pub changed: usize,
}

impl Ledger {
    /// The ledger of `journal`, holding the entries an earlier run left (from
    /// [`Journal::reopen`]), for `players` (each one's name and folder, in the
    /// tournament's order).
    pub fn new(journal: Journal, entries: Lines, players: &[(String, Option<&Path>)]) -> Ledger {
        let names: Vec<String> = players.iter().map(|(name, _)| name.clone()).collect();
        let digests: Vec<String> = players
            .iter()
            .map(|(_, folder)| folder.map(folder_digest).unwrap_or_default())
            .collect();
        let digest_of = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .map(|i| digests[i].as_str())
        };
        let mut kept = HashMap::new();
        let mut changed = 0;
        // (a line that does not read, from another build, is passed over: played again)
        for line in entries {
            let Ok(entry) = serde_json::from_slice::<Entry>(&line) else {
                continue;
            };
            let now = (digest_of(&entry.game.white), digest_of(&entry.game.black));
            if now
                != (
                    Some(entry.folders.0.as_str()),
                    Some(entry.folders.1.as_str()),
                )
            {
                changed += 1;
                continue;
            }
            let key = (
                entry.game.white.clone(),
                entry.game.black.clone(),
                entry.index,
                entry.game.start.clone(),
            );
            kept.insert(key, entry);
        }
        Ledger {
            journal: Mutex::new(journal),
            kept: Mutex::new(kept),
            names,
            digests,
            changed,
        }
    }

    /// The games the journal holds (not yet taken).
    pub fn held(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The game between players `white` and `black` (indices), the `index`-th of
    /// their pairing from `start`, if the journal holds it whole.
    pub fn take(&self, white: usize, black: usize, index: usize, start: Position) -> Option<Game> {
        let key = (
            self.names[white].clone(),
            self.names[black].clone(),
            index,
            position_text(start),
        );
        let entry = self
            .kept
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&key)?;
        let mut game = entry.game.game()?;
        let [white_cpu, black_cpu, white_longest, black_longest] =
            entry.cpu.map(Duration::from_nanos);
        game.cpu = (white_cpu, black_cpu);
        game.longest = (white_longest, black_longest);
        game.bank = entry.bank.map(Duration::from_nanos);
        game.random = entry
            .random
            .iter()
            .map(|&(number, white, spent)| RandomMove {
                number,
                side: if white { Color::White } else { Color::Black },
                why: if spent {
                    Chance::BankSpent
                } else {
                    Chance::RunFailed
                },
            })
            .collect();
        // (its line stays in the journal, for a later resume)
        Some(game)
    }

    /// Records a game finished, on disk when it returns.
    pub fn record(
        &self,
        white: usize,
        black: usize,
        index: usize,
        game: &Game,
    ) -> Result<(), JournalError> {
        let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.append(&Entry {
            game: GameLine::of(game, &self.names[white], &self.names[black]),
            index,
            folders: (self.digests[white].clone(), self.digests[black].clone()),
            cpu: [
                nanos(game.cpu.0),
                nanos(game.cpu.1),
                nanos(game.longest.0),
                nanos(game.longest.1),
            ],
            bank: game.bank.map(nanos),
            random: game
                .random
                .iter()
                .map(|m| (m.number, m.side == Color::White, m.why == Chance::BankSpent))
                .collect(),
        })
    }

    fn append(&self, entry: &Entry) -> Result<(), JournalError> {
        self.journal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .append(entry)
    }

    /// Removes the journal of a tournament that ended whole.
    pub fn finish(self) -> Result<(), JournalError> {
        self.journal
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish()
    }
}
