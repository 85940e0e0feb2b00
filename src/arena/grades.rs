//! Grades: a tournament's results turned into points the way the playing courses
//! grade (SPEC.md section 3), one grade per student, shown in every report.
//!
//! - `umea`: the student must beat the course's naive opponent: a pass when it won
//!   more games than it lost against the reference (1 point of 1).
//! - `csu`: `C` (1 of 3) when every answer of the legality suite
//!   ([`super::legality`]) was right (legal, in time, `pass`/`skip` exactly when it
//!   had no move), the course's "always produce a legal move"; its forfeited games
//!   are losses; `B` (2) when, with the `C`, its score
//!   against the `B`-level reference is not shown to be lower than even: the upper end
//!   of its 95% interval is at least 0.5; `A` (3) when it is shown to be higher: the
//!   lower end is above 0.5. The interval is the score ± 1.96 standard errors over the
//!   games against the reference plus one virtual draw (so that a sweep of two games
//!   has an interval of its own), each game scored 1, 1/2 or 0.
//! - `knockout`: a point per round it won (a bye counts), of the knockout's rounds.
//! - `uf`: a point per UF pairing passed, of 6 (`super::uf`).

use serde::Serialize;

use super::legality::Sheet;
use super::schedule::Results;
use crate::grading::platform::points;
use crate::printable::{printable, serialize_name};
use crate::rules::Color;

/// A grading policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Umea: beat the naive opponent.
    Umea,
    /// CSU Tri-state: C, B, A.
    Csu,
    /// A knockout: a point per round won.
    Knockout,
    /// UF CAP4053: a point per pairing against the example AI passed, of 6.
    Uf,
}

impl Policy {
    /// Its name, as `--policy` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Umea => "umea",
            Policy::Csu => "csu",
            Policy::Knockout => "knockout",
            Policy::Uf => "uf",
        }
    }

    /// Whether it grades against a reference (uf names its own: the example AI).
    pub fn needs_reference(self) -> bool {
        matches!(self, Policy::Umea | Policy::Csu)
    }
}

/// Multiplier of the standard error for a 95% interval.
const Z95: f64 = 1.96;

/// One student's grade.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grade {
    /// The student (its folder's name).
    #[serde(serialize_with = "serialize_name")]
    pub name: String,
    /// The policy's mark: `pass`/`fail` (umea), `A`/`B`/`C`/`none` (csu), the round
    /// reached or `champion` (knockout), the pairings passed `N/6` (uf).
    pub mark: String,
    /// Its points.
    pub points: f64,
    /// The points possible.
    pub max_points: f64,
    /// Why, in words.
    pub why: String,
}

/// The points (1, 1/2, 0) of each game `a` played against `b`, in the games' order.
pub fn scores_against(results: &Results, a: usize, b: usize) -> Vec<f64> {
    results
        .games
        .iter()
        .filter_map(|played| {
            let color = if (played.white, played.black) == (a, b) {
                Color::White
            } else if (played.white, played.black) == (b, a) {
                Color::Black
            } else {
                return None;
            };
            Some(match played.game.winner() {
                None => 0.5,
                Some(c) if c == color => 1.0,
                Some(_) => 0.0,
            })
        })
        .collect()
}

/// The mean of `scores` with one virtual draw added, and its 95% interval.
pub fn interval(scores: &[f64]) -> (f64, f64, f64) {
    let with_prior: Vec<f64> = scores.iter().copied().chain([0.5]).collect();
    let n = with_prior.len() as f64;
    let mean = with_prior.iter().sum::<f64>() / n;
    let variance = with_prior.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    let half = Z95 * (variance / n).sqrt();
    (mean, mean - half, mean + half)
}

/// The policy's terms in words, for the reports.
pub fn words(policy: Policy, results: &Results, reference: Option<usize>) -> String {
    let against = reference.map_or(String::new(), |r| {
        printable(&results.players[r]).into_owned()
    });
    match policy {
        Policy::Umea => {
            format!("grades (umea): pass when it won more games than it lost against {against}")
        }
        Policy::Csu => format!(
            "grades (csu): C when every answer of the legality suite is right; B with it when \
             the upper end of the 95% interval of its score against {against} (its games plus \
             one virtual draw; a forfeited game a loss) is at least 0.5; A when the lower end \
             is above 0.5 (points: C 1, B 2, A 3)"
        ),
        Policy::Knockout => {
            "grades (knockout): a point per round won (a bye counts), of the rounds played".into()
        }
        Policy::Uf => super::uf::words(),
    }
}

/// Each student's grade under `policy`, against `reference` (an index in the players;
/// required by umea and csu); csu's `C` from the students' legality `suite` (none run:
/// no `C`).
pub fn grades(
    policy: Policy,
    results: &Results,
    reference: Option<usize>,
    suite: Option<&[Sheet]>,
) -> Vec<Grade> {
    (0..results.students)
        .map(|student| {
            let name = results.players[student].clone();
            let (mark, points_won, max_points, why) = match (policy, reference) {
                (Policy::Knockout, _) => knockout(results, student),
                (Policy::Uf, _) => super::uf::grade(results, student),
                (_, None) => (
                    "none".into(),
                    0.0,
                    1.0,
                    "no reference to grade against".into(),
                ),
                (Policy::Umea, Some(r)) => umea(results, student, r),
                (Policy::Csu, Some(r)) => csu(results, student, r, suite),
            };
            Grade {
                name,
                mark,
                points: points_won,
                max_points,
                why,
            }
        })
        .collect()
}

fn record(scores: &[f64]) -> (usize, usize, usize) {
    let count = |v: f64| scores.iter().filter(|&&s| s == v).count();
    (count(1.0), count(0.5), count(0.0))
}

fn umea(results: &Results, student: usize, reference: usize) -> (String, f64, f64, String) {
    let scores = scores_against(results, student, reference);
    let (won, drew, lost) = record(&scores);
    let pass = won > lost;
    (
        if pass { "pass" } else { "fail" }.into(),
        if pass { 1.0 } else { 0.0 },
        1.0,
        format!(
            "won {won}, drew {drew}, lost {lost} against {}",
            printable(&results.players[reference])
        ),
    )
}

fn forfeits_of(results: &Results, student: usize) -> usize {
    results
        .games
        .iter()
        .filter(|p| {
            p.game.forfeit.as_ref().is_some_and(|f| match f.side {
                Color::White => p.white == student,
                Color::Black => p.black == student,
            })
        })
        .count()
}

fn csu(
    results: &Results,
    student: usize,
    reference: usize,
    suite: Option<&[Sheet]>,
) -> (String, f64, f64, String) {
    let forfeits = match forfeits_of(results, student) {
        0 => String::new(),
        n => format!("; {n} games forfeited (lost)"),
    };
    let scores = scores_against(results, student, reference);
    let (mean, low, high) = interval(&scores);
    let raw = if scores.is_empty() {
        0.0
    } else {
        scores.iter().sum::<f64>() / scores.len() as f64
    };
    let strength = format!(
        "scored {} of {} games against {} ({raw:.3}; with a virtual draw {mean:.3}, 95% \
         interval {low:.3} to {high:.3}){forfeits}",
        points(scores.iter().sum()),
        scores.len(),
        printable(&results.players[reference])
    );
    let name = &results.players[student];
    let Some(sheet) = suite.and_then(|sheets| sheets.iter().find(|s| &s.name == name)) else {
        return (
            "none".into(),
            0.0,
            3.0,
            format!("no legality suite was run: no C; {strength}"),
        );
    };
    let total = sheet.faults.len();
    let legal = sheet.legal();
    if let Some((i, fault)) =
        (sheet.faults.iter().enumerate()).find_map(|(i, f)| Some((i, f.as_ref()?)))
    {
        return (
            "none".into(),
            0.0,
            3.0,
            format!(
                "legality suite: {legal}/{total} answered legally (the first wrong: {} at \
                 position {}): no C; {strength}",
                fault.reason.words(),
                i + 1
            ),
        );
    }
    let suite = format!("legality suite: {legal}/{total} answered legally");
    let (mark, value, why) = if scores.is_empty() {
        ("C", 1.0, format!("{suite}; no game against the reference"))
    } else if low > 0.5 {
        ("A", 3.0, format!("{suite}; {strength}: clearly better"))
    } else if high >= 0.5 {
        ("B", 2.0, format!("{suite}; {strength}: about as well"))
    } else {
        ("C", 1.0, format!("{suite}; {strength}: worse"))
    };
    (mark.into(), value, 3.0, why)
}

fn knockout(results: &Results, student: usize) -> (String, f64, f64, String) {
    let rounds = results.rounds.len();
    let won = results
        .rounds
        .iter()
        .filter(|round| round.iter().any(|p| p.advances == student))
        .count();
    let mark = if rounds > 0 && won == rounds {
        "champion".to_string()
    } else {
        format!("round {}", won + 1)
    };
    (
        mark,
        won as f64,
        rounds as f64,
        format!("won {won} of {rounds} rounds"),
    )
}

/// The text report's section.
pub fn text(
    policy: Policy,
    results: &Results,
    reference: Option<usize>,
    grades: &[Grade],
) -> String {
    let mut out = format!("\n{}:\n", words(policy, results, reference));
    for grade in grades {
        out += &format!(
            "  {}: {} ({} of {} points): {}\n",
            printable(&grade.name),
            grade.mark,
            points(grade.points),
            points(grade.max_points),
            grade.why
        );
    }
    out
}

/// The JSON report's `grading` field: the policy, its terms, and `grades`.
pub fn json_field(
    policy: Policy,
    results: &Results,
    reference: Option<usize>,
    grades: &[Grade],
) -> serde_json::Value {
    let mut value = serde_json::json!({
        "policy": policy.name(),
        "reference": reference.map(|r| printable(&results.players[r]).into_owned()),
        "terms": words(policy, results, reference),
        "grades": grades,
    });
    crate::printable::printable_json(&mut value);
    value
}

#[cfg(test)]
mod tests {
    use super::interval;

    #[test]
    fn the_interval_counts_a_virtual_draw() {
        // Two wins: scores 1, 1, 0.5 -> mean 5/6, clearly above even.
        let (mean, low, high) = interval(&[1.0, 1.0]);
        assert!((mean - 5.0 / 6.0).abs() < 1e-12);
        assert!(low > 0.5 && low < 0.6, "{low}");
        assert!(high > 1.0, "{high}");
        // Two losses: the upper end stays under 0.5.
        let (_, _, high) = interval(&[0.0, 0.0]);
        assert!(high < 0.5);
        // A win and a loss: about as well.
        let (mean, low, high) = interval(&[1.0, 0.0]);
        assert!((mean - 0.5).abs() < 1e-12 && low < 0.5 && high > 0.5);
    }
}
