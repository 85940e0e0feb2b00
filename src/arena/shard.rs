//! `arena --shard K/N`: one of N slices of a tournament's pairings, to play a class
//! on several machines at once, and [`merge`] (`arena merge`), which joins the
//! shards' JSON reports into the results of the whole tournament. The slices are
//! `grade`'s ([`Shard`]): a gauntlet is split by student (each student's pairings on
//! one machine, built once), a round robin by pairing; a knockout, whose rounds
//! depend on the rounds before, is not split.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::game::{Fault, Reason};
use super::record::GameLine;
use super::report::{Header, Sides};
use super::schedule::{Format, Played, Results};
use crate::grading::platform::merge::{check_shards, MergeError};
use crate::grading::shard::Shard;
use crate::rules::Color;

/// What a shard's JSON report says beside the whole tournament's header: which
/// shard, and what the merge needs to rate the whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardOf {
    /// `K/N`.
    pub shard: String,
    /// How many of the players are students (the first ones).
    pub students: usize,
    /// The index of the player the ratings are anchored on.
    pub anchor: usize,
    /// Its rating.
    pub anchor_elo: f64,
}

/// The pairings of `pairs` (in the schedule's order) that `shard` plays, in that
/// order.
pub fn pairs(shard: Shard, format: Format, pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => pairs
            .into_iter()
            .filter(|&(student, _)| student % shard.count == shard.index - 1)
            .collect(),
        _ => shard.select(pairs),
    }
}

/// A shard's JSON report, as much as the merge reads.
#[derive(Deserialize)]
struct ShardReport {
    #[serde(flatten)]
    header: Header,
    players: Vec<Named>,
    games: Vec<ShardGame>,
}

/// A game of a shard's report: its record, and the CPU times it states.
#[derive(Deserialize)]
struct ShardGame {
    #[serde(flatten)]
    line: GameLine,
    cpu: Option<Sides>,
    longest_answer: Option<Sides>,
}

#[derive(Deserialize)]
struct Named {
    name: String,
}

/// The whole tournament joined from its shards' reports.
#[derive(Debug)]
pub struct Merged {
    /// The header (the shards', without the shard).
    pub header: Header,
    /// Every game, in the whole tournament's order.
    pub results: Results,
    /// The index of the ratings' anchor.
    pub anchor: usize,
    /// Its rating.
    pub anchor_elo: f64,
}

/// Joins the JSON reports `texts` (path shown, text) of the shards of one
/// tournament, each of `1/N` to `N/N` once: the results the whole tournament on one
/// machine gives (its games in its order: by pairing, each pairing's in its order).
pub fn merge(texts: &[(String, String)]) -> Result<Merged, MergeError> {
    const KIND: &str = "shard's JSON report (arena --shard K/N --json)";
    let not_a = |path: &str, reason: String| MergeError::NotAReport {
        path: path.into(),
        kind: KIND,
        reason,
    };
    let mut reports = Vec::new();
    for (path, text) in texts {
        let report: ShardReport =
            serde_json::from_str(text).map_err(|e| not_a(path, e.to_string()))?;
        let Some(shard) = report.header.shard.clone() else {
            return Err(not_a(path, "it names no shard".into()));
        };
        reports.push((path, report, shard));
    }
    let shards: Vec<String> = reports.iter().map(|(_, _, s)| s.shard.clone()).collect();
    check_shards(&shards, reports.len())?;
    let (first_path, first, of) = reports.first().ok_or_else(|| MergeError::Shards {
        given: String::new(),
        problem: "no report given".into(),
    })?;
    let names: Vec<String> = first.players.iter().map(|p| unprintable(&p.name)).collect();
    let header = Header {
        shard: None,
        ..first.header.clone()
    };
    let mut keyed: Vec<((usize, usize), Played)> = Vec::new();
    let mut owner: HashMap<(usize, usize), &str> = HashMap::new();
    for (path, report, shard) in &reports {
        let differ = |what| MergeError::Differ {
            path: (*path).clone(),
            first: (*first_path).clone(),
            what,
        };
        if (Header {
            shard: None,
            ..report.header.clone()
        }) != header
        {
            return Err(differ(
                "header (protocol, format, openings, terms, sandbox)",
            ));
        }
        if report.players.len() != names.len()
            || report
                .players
                .iter()
                .zip(&names)
                .any(|(p, n)| unprintable(&p.name) != *n)
            || (shard.students, shard.anchor, shard.anchor_elo.to_bits())
                != (of.students, of.anchor, of.anchor_elo.to_bits())
        {
            return Err(differ("players"));
        }
        let index = |name: &str| names.iter().position(|n| *n == unprintable(name));
        for (k, shard_game) in report.games.iter().enumerate() {
            let line = &shard_game.line;
            let unreadable = || {
                not_a(
                    path,
                    format!("its game {} is not a game of its players", k + 1),
                )
            };
            let (white, black) = (index(&line.white), index(&line.black));
            let (Some(white), Some(black)) = (white, black) else {
                return Err(unreadable());
            };
            let mut line = line.clone();
            line.white.clone_from(&names[white]);
            line.black.clone_from(&names[black]);
            if let Some(forfeit) = &mut line.forfeit {
                forfeit.player = unprintable(&forfeit.player);
            }
            let mut game = line.game().ok_or_else(unreadable)?;
            game.cpu = shard_game
                .cpu
                .map_or_else(Default::default, Sides::durations);
            game.longest = shard_game
                .longest_answer
                .map_or_else(Default::default, Sides::durations);
            let pairing = (white.min(black), white.max(black));
            let holder = *owner.entry(pairing).or_insert(path.as_str());
            if holder != path.as_str() {
                return Err(MergeError::Twice {
                    student: format!("{} vs {}", line.white, line.black),
                    first: holder.into(),
                    second: (*path).clone(),
                });
            }
            keyed.push((pairing, Played { white, black, game }));
        }
    }
    // (stable: each pairing's games stay in their order)
    keyed.sort_by_key(|(pairing, _)| *pairing);
    let games: Vec<Played> = keyed.into_iter().map(|(_, played)| played).collect();
    let mut build_failures: Vec<(usize, Fault)> = Vec::new();
    for played in &games {
        let Some(forfeit) = &played.game.forfeit else {
            continue;
        };
        let player = match forfeit.side {
            Color::White => played.white,
            Color::Black => played.black,
        };
        if forfeit.fault.reason == Reason::BuildFailed
            && !build_failures.iter().any(|(i, _)| *i == player)
        {
            build_failures.push((player, forfeit.fault.clone()));
        }
    }
    build_failures.sort_by_key(|(i, _)| *i);
    Ok(Merged {
        header,
        results: Results {
            players: names,
            students: of.students,
            build_failures,
            games,
            rounds: Vec::new(),
        },
        anchor: of.anchor,
        anchor_elo: of.anchor_elo,
    })
}

/// `text` as it was before [`crate::printable::printable`] escaped it (which is
/// one to one).
pub fn unprintable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let code: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                if let Some(c) = u32::from_str_radix(&code, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::printable::printable;

    #[test]
    fn unprintable_undoes_printable() {
        for name in [
            "plain",
            "a\\b",
            "tab\there\n",
            "bell\u{7}\u{202e}x",
            "\\u{41}",
        ] {
            assert_eq!(unprintable(&printable(name)), name);
        }
    }

    #[test]
    fn the_slices_play_every_pairing_once() {
        let gauntlet: Vec<(usize, usize)> = (0..5).flat_map(|s| [(s, 5), (s, 6)]).collect();
        let robin: Vec<(usize, usize)> = (0..5)
            .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
            .collect();
        for (format, all) in [(Format::Gauntlet, gauntlet), (Format::RoundRobin, robin)] {
            let mut joined: Vec<(usize, usize)> = (1..=3)
                .flat_map(|index| pairs(Shard { index, count: 3 }, format, all.clone()))
                .collect();
            joined.sort_unstable();
            let mut sorted = all.clone();
            sorted.sort_unstable();
            assert_eq!(joined, sorted, "{format:?}");
        }
        let first = pairs(
            Shard { index: 1, count: 2 },
            Format::Gauntlet,
            vec![(0, 2), (0, 3), (1, 2)],
        );
        assert_eq!(
            first,
            vec![(0, 2), (0, 3)],
            "a student's pairings stay together"
        );
    }
}
