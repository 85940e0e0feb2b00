//! What a tournament's results say: each player's standing, every game (the JSON
//! report of issue 71), a crosstable in text and as CSV. Every report states the
//! terms the games were played under.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::bank;
use super::game::Reason;
use super::rating::{self, GameResult};
use super::record::move_text;
use super::schedule::{Played, Results};
use super::shaped;
use crate::format::ggf;
use crate::format::umea::position_text;
use crate::grading::platform::csv::field_text;
use crate::grading::platform::points;
use crate::printable::{printable, serialize_name};
use crate::rules::Color;

/// What the reports state beside the results: how the games were played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The protocol.
    pub protocol: String,
    /// The format: `gauntlet`, `round-robin`, `knockout`.
    pub format: String,
    /// Games per pairing.
    pub games_per_pairing: usize,
    /// The seed.
    pub seed: u64,
    /// Where the openings came from, in words.
    pub openings: String,
    /// How the agents were confined.
    pub sandbox: String,
    /// The terms, one sentence each.
    pub terms: Vec<String>,
    /// How the ratings were computed, in words.
    pub ratings: String,
    /// Of one shard's report (`--shard K/N`): which, and what `arena merge` needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::ShardOf>,
}

/// Fills in the standings' Elo ratings: by maximum likelihood over every game of
/// `results` (a forfeit a loss, a draw half a point; `src/arena/rating.rs`), player
/// `anchor` held at `anchor_elo`; an interval that is unbounded (a player with no chain
/// of games to the anchor) stays null, and so does the rating of a player with no
/// game (withdrawn before play, or in another shard), which no game measures.
pub fn rate(results: &Results, standings: &mut [Standing], anchor: usize, anchor_elo: f64) {
    let games: Vec<GameResult> = results
        .games
        .iter()
        .map(|p| GameResult {
            white: p.white,
            black: p.black,
            white_score: match p.game.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            },
        })
        .collect();
    let ratings = rating::ratings(standings.len(), &games, anchor, anchor_elo);
    let finite = |v: f64| v.is_finite().then_some(v);
    for (at, (standing, r)) in standings.iter_mut().zip(ratings).enumerate() {
        if standing.games == 0 && at != anchor {
            continue;
        }
        standing.elo = finite(r.elo);
        standing.elo_low = finite(r.low);
        standing.elo_high = finite(r.high);
    }
}

/// Every game of `results` as a GGF record (one line each, in the schedule's order),
/// the players' ratings as `RB`/`RW`, a forfeit as a loss by the full margin
/// (`:t` over the time, `:r` any other fault), all dated `date` (GGF's `DT`).
pub fn ggf_games(results: &Results, standings: &[Standing], date: &str) -> Vec<String> {
    results
        .games
        .iter()
        .map(|played| {
            let game = &played.game;
            let result = match &game.forfeit {
                Some(f) => ggf::Outcome::lost_by(
                    f.side,
                    if f.fault.reason == Reason::OverTime {
                        ggf::Flag::TimeOut
                    } else {
                        ggf::Flag::Resigned
                    },
                ),
                None => ggf::Outcome::on_board(game.last),
            };
            ggf::write(&ggf::Game {
                place: "reversi arena".into(),
                date: date.into(),
                black: printable(&results.players[played.black]).into_owned(),
                white: printable(&results.players[played.white]).into_owned(),
                black_rating: standings[played.black].elo.map(|e| e.round()),
                white_rating: standings[played.white].elo.map(|e| e.round()),
                time: None,
                start: game.start,
                moves: game.moves.iter().map(|m| ggf::Move::plain(*m)).collect(),
                result: Some(result),
            })
        })
        .collect()
}

/// One player's standing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// Its name (a student's folder, or the reference's name).
    #[serde(serialize_with = "serialize_name")]
    pub name: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost (forfeits included).
    pub losses: u32,
    /// Games it lost by a fault.
    pub forfeits: u32,
    /// Its points (a win 1, a draw 1/2) over its games, 0 to 1 (0 without games).
    pub score: f64,
    /// Its Elo rating (by maximum likelihood, anchored): see [`rate`].
    pub elo: Option<f64>,
    /// The low end of its rating's 95% interval.
    pub elo_low: Option<f64>,
    /// The high end.
    pub elo_high: Option<f64>,
}

/// The standings of `results`' players, in their order.
pub fn standings(results: &Results) -> Vec<Standing> {
    let mut out: Vec<Standing> = results
        .players
        .iter()
        .map(|name| Standing {
            name: name.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            forfeits: 0,
            score: 0.0,
            elo: None,
            elo_low: None,
            elo_high: None,
        })
        .collect();
    for played in &results.games {
        let winner = played.game.winner();
        for (index, color) in [(played.white, Color::White), (played.black, Color::Black)] {
            let row = &mut out[index];
            row.games += 1;
            match winner {
                None => row.draws += 1,
                Some(c) if c == color => row.wins += 1,
                Some(_) => row.losses += 1,
            }
            if played
                .game
                .forfeit
                .as_ref()
                .is_some_and(|f| f.side == color)
            {
                row.forfeits += 1;
            }
        }
    }
    for row in &mut out {
        if row.games > 0 {
            row.score = (f64::from(row.wins) + f64::from(row.draws) / 2.0) / f64::from(row.games);
        }
    }
    out
}

#[derive(Serialize)]
struct Discs {
    white: u32,
    black: u32,
}

/// A time of each side, in seconds (to the millisecond).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sides {
    /// White's.
    pub white: f64,
    /// Black's.
    pub black: f64,
}

impl Sides {
    /// `(white, black)` in seconds, to the millisecond.
    pub fn of((white, black): (Duration, Duration)) -> Sides {
        let seconds = |d: Duration| d.as_millis() as f64 / 1000.0;
        Sides {
            white: seconds(white),
            black: seconds(black),
        }
    }

    /// Back to `(white, black)`.
    pub fn durations(self) -> (Duration, Duration) {
        let duration = |s: f64| Duration::from_secs_f64(s.max(0.0));
        (duration(self.white), duration(self.black))
    }
}

#[derive(Serialize)]
struct ForfeitRecord {
    #[serde(serialize_with = "serialize_name")]
    player: String,
    reason: &'static str,
    #[serde(rename = "move")]
    number: usize,
    answer: String,
    position: String,
    detail: String,
}

#[derive(Serialize)]
struct GameRecord {
    #[serde(serialize_with = "serialize_name")]
    white: String,
    #[serde(serialize_with = "serialize_name")]
    black: String,
    /// A game on a board of any shape: the shape in words (`10x8 with 4 blocked
    /// cells`); `start` is then the board file, `moves` cells `(x,y)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<String>,
    start: String,
    moves: Vec<String>,
    winner: &'static str,
    discs: Discs,
    forfeit: Option<ForfeitRecord>,
    cpu: Sides,
    longest_answer: Sides,
    #[serde(flatten)]
    bank: Option<bank::BankRecord>,
}

#[derive(Serialize)]
struct PairingRecord {
    #[serde(serialize_with = "serialize_name")]
    first: String,
    second: Option<String>,
    #[serde(serialize_with = "serialize_name")]
    advances: String,
    why: String,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    header: &'a Header,
    players: &'a [Standing],
    games: Vec<GameRecord>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rounds: Vec<Vec<PairingRecord>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    random_moves: Option<Vec<bank::RandomCount>>,
}

fn game_record(results: &Results, played: &Played) -> GameRecord {
    let game = &played.game;
    let name = |i: usize| results.players[i].clone();
    let (white, black) = game.discs();
    let (shape, start, moves, at) = match &game.shaped {
        Some(on) => (
            Some(shaped::shape(&on.start)),
            shaped::board_file(&on.start),
            on.moves.iter().map(|&m| shaped::move_text(m)).collect(),
            Some(shaped::board_file(&on.last)),
        ),
        None => (
            None,
            position_text(game.start),
            game.moves.iter().map(|&m| move_text(m)).collect(),
            None,
        ),
    };
    GameRecord {
        white: name(played.white),
        black: name(played.black),
        shape,
        start,
        moves,
        winner: match game.winner() {
            Some(Color::White) => "white",
            Some(Color::Black) => "black",
            None => "draw",
        },
        discs: Discs { white, black },
        forfeit: game.forfeit.as_ref().map(|f| ForfeitRecord {
            player: name(if f.side == Color::White {
                played.white
            } else {
                played.black
            }),
            reason: f.fault.reason.words(),
            number: f.number,
            answer: f.fault.answer.clone(),
            position: at.clone().unwrap_or_else(|| position_text(f.position)),
            detail: f.fault.detail.clone(),
        }),
        cpu: Sides::of(game.cpu),
        longest_answer: Sides::of(game.longest),
        bank: bank::bank_record(results, played),
    }
}

/// The JSON report: the header's fields, `players` (the standings), `games` (every
/// game), and for a knockout `rounds`.
pub fn json(header: &Header, results: &Results, standings: &[Standing]) -> String {
    json_text(&json_value(header, results, standings))
}

/// The JSON report as a value, every string printable, for fields added by others.
pub fn json_value(header: &Header, results: &Results, standings: &[Standing]) -> serde_json::Value {
    let report = Report {
        header,
        players: standings,
        games: results
            .games
            .iter()
            .map(|p| game_record(results, p))
            .collect(),
        rounds: results
            .rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|p| PairingRecord {
                        first: results.players[p.players.0].clone(),
                        second: p
                            .players
                            .1
                            .map(|i| printable(&results.players[i]).into_owned()),
                        advances: results.players[p.advances].clone(),
                        why: p.why.clone(),
                    })
                    .collect()
            })
            .collect(),
        random_moves: bank::random_report(results),
    };
    let mut value = serde_json::to_value(&report).expect("the report serializes");
    crate::printable::printable_json(&mut value);
    value
}

/// The JSON report's text.
pub fn json_text(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("a JSON value serializes") + "\n"
}

/// Points (wins 1, draws 1/2) and games of `a` against `b`.
fn head_to_head(results: &Results, a: usize, b: usize) -> Option<(f64, u32)> {
    let mut points_won = 0.0;
    let mut games = 0;
    for played in &results.games {
        let color = if (played.white, played.black) == (a, b) {
            Color::White
        } else if (played.white, played.black) == (b, a) {
            Color::Black
        } else {
            continue;
        };
        games += 1;
        points_won += match played.game.winner() {
            None => 0.5,
            Some(c) if c == color => 1.0,
            Some(_) => 0.0,
        };
    }
    (games > 0).then_some((points_won, games))
}

/// The players' order in the crosstable: by score, then by name.
pub fn ranking(standings: &[Standing]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..standings.len()).collect();
    order.sort_by(|&a, &b| {
        standings[b]
            .score
            .total_cmp(&standings[a].score)
            .then_with(|| standings[a].name.cmp(&standings[b].name))
    });
    order
}

/// `N games a pairing` (`1 game a pairing`).
pub fn games_a_pairing(games: usize) -> String {
    format!(
        "{games} game{} a pairing",
        if games == 1 { "" } else { "s" }
    )
}

/// The text report: the header, the crosstable (each cell the row player's points
/// against the column's, over their games), every forfeit explained, the knockout's
/// rounds.
pub fn text(header: &Header, results: &Results, standings: &[Standing]) -> String {
    let mut out = format!(
        "arena: protocol {}, {}, {}, seed {}\nopenings: {}\nsandbox: {}\nratings: {}\n",
        header.protocol,
        header.format,
        games_a_pairing(header.games_per_pairing),
        header.seed,
        header.openings,
        header.sandbox,
        header.ratings
    );
    for term in &header.terms {
        out += &format!("{term}\n");
    }
    for (i, fault) in &results.build_failures {
        out += &format!(
            "build failed: {}: {}\n",
            printable(&results.players[*i]),
            fault.detail
        );
    }
    out += "\n";
    let order = ranking(standings);
    let width = order
        .iter()
        .map(|&i| printable(&standings[i].name).chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    out += &format!(
        "{:>4}  {:<width$}  {:>5} {:>4} {:>4} {:>4} {:>4} {:>6} {:>6}",
        "rank", "player", "games", "won", "drew", "lost", "forf", "score", "elo"
    );
    for k in 1..=order.len() {
        out += &format!(" {k:>5}");
    }
    out += "\n";
    for (rank, &i) in order.iter().enumerate() {
        let s = &standings[i];
        out += &format!(
            "{:>4}  {:<width$}  {:>5} {:>4} {:>4} {:>4} {:>4} {:>6.3} {:>6}",
            rank + 1,
            printable(&s.name),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.forfeits,
            s.score,
            s.elo.map_or("-".to_string(), |e| format!("{e:.0}"))
        );
        for &j in &order {
            let cell = match head_to_head(results, i, j) {
                _ if i == j => "x".to_string(),
                Some((won, games)) => format!("{}/{games}", points(won)),
                None => ".".to_string(),
            };
            out += &format!(" {cell:>5}");
        }
        out += "\n";
    }
    let forfeits: Vec<String> = results
        .games
        .iter()
        .enumerate()
        .filter_map(|(k, played)| {
            let f = played.game.forfeit.as_ref()?;
            let (who, other) = match f.side {
                Color::White => (played.white, played.black),
                Color::Black => (played.black, played.white),
            };
            Some(format!(
                "game {} ({} {:?} vs {}): {} forfeits: {}\n",
                k + 1,
                printable(&results.players[who]),
                f.side,
                printable(&results.players[other]),
                printable(&results.players[who]),
                match &played.game.shaped {
                    Some(on) => shaped::forfeit_words(f, &on.last),
                    None => f.words(),
                }
            ))
        })
        .collect();
    if !forfeits.is_empty() {
        out += &format!("\nforfeits ({}):\n", forfeits.len());
        out.extend(forfeits);
    }
    for (r, round) in results.rounds.iter().enumerate() {
        out += &format!("\nround {}:\n", r + 1);
        for p in round {
            let second = p.players.1.map_or("(bye)".to_string(), |i| {
                printable(&results.players[i]).into_owned()
            });
            out += &format!(
                "  {} vs {}: {} advances ({})\n",
                printable(&results.players[p.players.0]),
                second,
                printable(&results.players[p.advances]),
                p.why
            );
        }
    }
    out + &bank::random_text(results)
}

/// The crosstable as CSV (RFC 4180, written by the `csv` crate, every field made
/// safe as the grading's CSV does: escaped, formulas defused): one row per player,
/// its standing, then its points against each player (empty where they did not meet).
pub fn csv(results: &Results, standings: &[Standing]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let mut header: Vec<String> = [
        "player", "games", "wins", "draws", "losses", "forfeits", "score", "elo", "elo_low",
        "elo_high",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend(standings.iter().map(|s| format!("vs {}", s.name)));
    let mut rows = vec![header];
    let optional = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.1}"));
    for (i, s) in standings.iter().enumerate() {
        let mut row = vec![
            s.name.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            s.forfeits.to_string(),
            format!("{:.4}", s.score),
            optional(s.elo),
            optional(s.elo_low),
            optional(s.elo_high),
        ];
        row.extend(
            (0..standings.len()).map(|j| match head_to_head(results, i, j) {
                Some((won, _)) if i != j => points(won),
                _ => String::new(),
            }),
        );
        rows.push(row);
    }
    for row in rows {
        writer
            .write_record(row.iter().map(|f| field_text(f)))
            .expect("writing to memory cannot fail");
    }
    String::from_utf8(writer.into_inner().expect("writing to memory cannot fail"))
        .expect("the fields are text")
}
