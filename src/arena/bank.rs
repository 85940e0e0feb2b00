//! The CPU-time bank of CS561 Fall 2014's referee (task 4): the moves the referee
//! chose at random for a player, why, and their count per player for the reports.

use serde::Serialize;

use super::schedule::{Played, Results};
use crate::rules::Color;

/// Why the referee chose a player's move at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Chance {
    /// Its CPU time left was 0 or less: it was not called.
    BankSpent,
    /// Its run (`make run`) failed: an exit status other than 0, a signal, its files
    /// past their bound.
    RunFailed,
}

impl Chance {
    /// The reason in words, as the reports give it.
    pub fn words(self) -> &'static str {
        match self {
            Chance::BankSpent => "bank spent",
            Chance::RunFailed => "run failed",
        }
    }
}

/// A move the referee chose at random for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomMove {
    /// The move's number in the game (1-based).
    pub number: usize,
    /// The player's colour.
    pub side: Color,
    /// Why.
    pub why: Chance,
}

/// One player's random moves over a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RandomCount {
    /// The player's name.
    #[serde(serialize_with = "crate::printable::serialize_name")]
    pub player: String,
    /// Moves chosen because its bank was spent.
    pub bank_spent: u32,
    /// Moves chosen because its run failed.
    pub run_failed: u32,
}

/// Every player's random moves, in the players' order.
pub fn random_counts(results: &Results) -> Vec<RandomCount> {
    let mut counts: Vec<RandomCount> = results
        .players
        .iter()
        .map(|name| RandomCount {
            player: name.clone(),
            bank_spent: 0,
            run_failed: 0,
        })
        .collect();
    for played in &results.games {
        for random in &played.game.random {
            let player = match random.side {
                Color::White => played.white,
                Color::Black => played.black,
            };
            match random.why {
                Chance::BankSpent => counts[player].bank_spent += 1,
                Chance::RunFailed => counts[player].run_failed += 1,
            }
        }
    }
    counts
}

/// Each side's CPU time left at the end of a game, in seconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Left {
    /// White's.
    pub white: f64,
    /// Black's.
    pub black: f64,
}

/// A random move in a game's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RandomRecord {
    /// Its move number (1-based).
    #[serde(rename = "move")]
    pub number: usize,
    /// Whose move it was.
    #[serde(serialize_with = "crate::printable::serialize_name")]
    pub player: String,
    /// Why it was random: `bank spent` or `run failed`.
    pub why: &'static str,
}

/// What a game record adds when a bank was played: `cpu_left` and `random`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BankRecord {
    /// Each side's CPU time left at the end.
    pub cpu_left: Left,
    /// The moves the referee chose at random.
    pub random: Vec<RandomRecord>,
}

/// The bank's part of `played`'s record (none without a bank).
pub fn bank_record(results: &Results, played: &Played) -> Option<BankRecord> {
    let (white, black) = played.game.cpu_left()?;
    Some(BankRecord {
        cpu_left: Left {
            white: (white * 1000.0).round() / 1000.0,
            black: (black * 1000.0).round() / 1000.0,
        },
        random: played
            .game
            .random
            .iter()
            .map(|r| RandomRecord {
                number: r.number,
                player: results.players[match r.side {
                    Color::White => played.white,
                    Color::Black => played.black,
                }]
                .clone(),
                why: r.why.words(),
            })
            .collect(),
    })
}

/// Every player's random moves when a game played a bank (none otherwise).
pub fn random_report(results: &Results) -> Option<Vec<RandomCount>> {
    results
        .games
        .iter()
        .any(|p| p.game.bank.is_some())
        .then(|| random_counts(results))
}

/// The random moves in words for the text report (empty without a bank).
pub fn random_text(results: &Results) -> String {
    let Some(counts) = random_report(results) else {
        return String::new();
    };
    let mut out = "\nrandom moves by the referee (bank spent / run failed):\n".to_string();
    for count in counts {
        out += &format!(
            "  {}: {} / {}\n",
            crate::printable::printable(&count.player),
            count.bank_spent,
            count.run_failed
        );
    }
    out
}
