//! The arena's results as graders' tools and platforms read them: JUnit XML (a
//! `testsuite` per student, a `testcase` per game, written with `grade`'s JUnit
//! writer's pieces) and Gradescope's `results.json` for one submission (a test per
//! pairing, the grade's, and a `leaderboard`).

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::grades::{Grade, Policy};
use super::report::Standing;
use super::reviews::{board_text, move_words, GameReviews, WORST};
use super::schedule::{Played, Results};
use crate::grading::platform::junit::{
    attribute, escape, time, HEAD, SUITE_END, SUITE_START, TAIL,
};
use crate::grading::platform::points;
use crate::printable::{printable, printable_json, terminal_text};
use crate::rules::Color;

/// What the reports may add to the results: reviews and grades.
#[derive(Clone, Copy, Default)]
pub struct Extras<'a> {
    /// Each game's reviews, in the games' order.
    pub reviews: Option<&'a [GameReviews]>,
    /// The policy, its reference and each student's grade.
    pub grades: Option<(Policy, &'a [Grade])>,
}

/// How a game went for `player`: its colour, its opponent, and the outcome.
pub struct Outcome {
    /// The player's colour.
    pub color: Color,
    /// The opponent's index.
    pub opponent: usize,
    /// Its points: 1, 1/2, 0.
    pub points: f64,
    /// Whether it lost by a fault of its own.
    pub forfeited: bool,
}

/// How `played` went for `player` (`None`: it did not play it).
pub fn outcome(played: &Played, player: usize) -> Option<Outcome> {
    let (color, opponent) = if played.white == player {
        (Color::White, played.black)
    } else if played.black == player {
        (Color::Black, played.white)
    } else {
        return None;
    };
    Some(Outcome {
        color,
        opponent,
        points: match played.game.winner() {
            None => 0.5,
            Some(c) if c == color => 1.0,
            Some(_) => 0.0,
        },
        forfeited: played
            .game
            .forfeit
            .as_ref()
            .is_some_and(|f| f.side == color),
    })
}

/// A game in words for `player`: the result, the forfeit with its board, the review's
/// worst moves.
pub fn game_words(
    results: &Results,
    number: usize,
    played: &Played,
    player: usize,
    reviews: Option<&GameReviews>,
) -> String {
    let Some(o) = outcome(played, player) else {
        return String::new();
    };
    let (white, black) = played.game.discs();
    let result = if o.points == 1.0 {
        "won"
    } else if o.points == 0.5 {
        "drew"
    } else {
        "lost"
    };
    let mut text = format!(
        "game {number}: {:?} against {}: {result} ({white} white, {black} black discs)\n",
        o.color,
        printable(&results.players[o.opponent])
    );
    if let Some(forfeit) = &played.game.forfeit {
        let who = if forfeit.side == o.color {
            "it"
        } else {
            "the opponent"
        };
        let _ = writeln!(text, "{who} forfeited: {}", forfeit.words());
        text += &board_text(forfeit.position);
        text += "\n";
    }
    if let Some((_, review)) = reviews.and_then(|r| r.iter().find(|(p, _)| *p == player)) {
        for m in review.worst(WORST) {
            let _ = writeln!(text, "  {}", move_words(m));
        }
    }
    text
}

/// The JUnit XML document: a `testsuite` per student, a `testcase` per game it
/// played (a loss a `failure`, a forfeit of its own an `error`, with the forfeit's
/// board and the review), and with a policy a `grade` testcase failing below full
/// points.
pub fn junit(results: &Results, extras: Extras) -> String {
    let mut xml = String::from(HEAD);
    for student in 0..results.students {
        let name = &results.players[student];
        let mut cases = String::new();
        let (mut tests, mut failures, mut errors, mut seconds) = (0, 0, 0, 0.0);
        for (k, played) in results.games.iter().enumerate() {
            let Some(o) = outcome(played, student) else {
                continue;
            };
            tests += 1;
            let cpu = match o.color {
                Color::White => played.game.cpu.0,
                Color::Black => played.game.cpu.1,
            }
            .as_secs_f64();
            seconds += cpu;
            let _ = write!(
                cases,
                "    <testcase name=\"game {}: {:?} vs {}\" classname=\"{}\" time=\"{}\"",
                k + 1,
                o.color,
                attribute(&results.players[o.opponent]),
                attribute(name),
                time(cpu)
            );
            let body = game_words(
                results,
                k + 1,
                played,
                student,
                extras.reviews.map(|r| &r[k]),
            );
            let (element, message) = if o.forfeited {
                errors += 1;
                let reason = played
                    .game
                    .forfeit
                    .as_ref()
                    .map_or("", |f| f.fault.reason.words());
                ("error", format!("forfeit: {reason}"))
            } else if o.points == 0.0 {
                failures += 1;
                ("failure", "lost".to_string())
            } else {
                cases += "/>\n";
                continue;
            };
            let _ = writeln!(
                cases,
                ">\n      <{element} message=\"{}\" type=\"{element}\">{}</{element}>\n    </testcase>",
                escape(&message),
                escape(&terminal_text(&body))
            );
        }
        if let Some((policy, grades)) = extras.grades {
            if let Some(grade) = grades.iter().find(|g| &g.name == name) {
                tests += 1;
                let _ = write!(
                    cases,
                    "    <testcase name=\"grade ({})\" classname=\"{}\" time=\"0.000\"",
                    policy.name(),
                    attribute(name)
                );
                if grade.points >= grade.max_points {
                    cases += "/>\n";
                } else {
                    failures += 1;
                    let _ = writeln!(
                        cases,
                        ">\n      <failure message=\"{} ({} of {} points)\" type=\"grade\">{}</failure>\n    </testcase>",
                        escape(&grade.mark),
                        points(grade.points),
                        points(grade.max_points),
                        escape(&terminal_text(&grade.why))
                    );
                }
            }
        }
        let _ = writeln!(
            xml,
            "{SUITE_START}{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" \
             time=\"{}\">",
            attribute(name),
            time(seconds)
        );
        xml += &cases;
        xml += SUITE_END;
    }
    xml += TAIL;
    xml
}

/// Gradescope's `results.json` for `student` (the submission): a test per opponent
/// (its points of the games, each game in words), with a policy a test for the grade
/// whose points are the score (else the score is the points of all games), `output`
/// the text report, and a `leaderboard` (Elo, score in percent, forfeits).
pub fn gradescope(
    results: &Results,
    standings: &[Standing],
    student: usize,
    report_text: &str,
    extras: Extras,
) -> Value {
    let mut opponents: Vec<usize> = Vec::new();
    for played in &results.games {
        if let Some(o) = outcome(played, student) {
            if !opponents.contains(&o.opponent) {
                opponents.push(o.opponent);
            }
        }
    }
    let mut tests: Vec<Value> = opponents
        .iter()
        .map(|&opponent| {
            let mut won = 0.0;
            let mut games = 0;
            let mut output = String::new();
            for (k, played) in results.games.iter().enumerate() {
                match outcome(played, student) {
                    Some(o) if o.opponent == opponent => {
                        won += o.points;
                        games += 1;
                        output += &game_words(
                            results,
                            k + 1,
                            played,
                            student,
                            extras.reviews.map(|r| &r[k]),
                        );
                    }
                    _ => {}
                }
            }
            json!({
                "name": format!("against {}", printable(&results.players[opponent])),
                "score": won,
                "max_score": games,
                "status": if 2.0 * won >= f64::from(games) { "passed" } else { "failed" },
                "output": output,
                "visibility": "visible",
            })
        })
        .collect();
    let mut score: f64 = tests.iter().filter_map(|t| t["score"].as_f64()).sum();
    if let Some((policy, grades)) = extras.grades {
        if let Some(grade) = grades.iter().find(|g| g.name == results.players[student]) {
            score = grade.points;
            tests.insert(
                0,
                json!({
                    "name": format!("grade ({}): {}", policy.name(), grade.mark),
                    "score": grade.points,
                    "max_score": grade.max_points,
                    "status": if grade.points >= grade.max_points { "passed" } else { "failed" },
                    "output": grade.why,
                    "visibility": "visible",
                }),
            );
        }
    }
    let standing = &standings[student];
    let mut leaderboard = Vec::new();
    if let Some(elo) = standing.elo {
        leaderboard
            .push(json!({"name": "Elo", "value": (elo * 10.0).round() / 10.0, "order": "desc"}));
    }
    leaderboard.push(json!({"name": "Score %", "value": (standing.score * 1000.0).round() / 10.0, "order": "desc"}));
    leaderboard.push(json!({"name": "Forfeits", "value": standing.forfeits, "order": "asc"}));
    let mut results_json = json!({
        "score": score,
        "output": report_text,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "leaderboard": leaderboard,
    });
    printable_json(&mut results_json);
    results_json
}
