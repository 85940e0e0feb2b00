//! Autolab's autoresult: the last line of the job's output, a JSON object whose
//! `scores` give each of the assessment's problems its points (the names must be
//! the problems' own) and whose `scoreboard` gives the scoreboard's columns
//! (Autolab's "Guide for Lab Authors"). Autolab reads the last non-empty line,
//! quoting any `word:` in it before parsing it as JSON; the problem names are
//! written as they are, so a name with a colon would break that reading and is
//! refused by the caller. Before it, the student's report, cut under the output
//! Autolab keeps (about 1000 KiB, cut in the middle past that).

use serde_json::{json, Map};

use super::text::student_report;
use super::{cut, scored};
use crate::grading::grade::{Policy, StudentGrade};
use crate::sandbox::Isolation;

/// What the report before the autoresult is cut to, in bytes: a margin under the
/// 1000 KiB of output Autolab keeps.
const REPORT_LIMIT: usize = 900 * 1024;

/// How the score is given to the assessment's problems.
#[derive(Clone, Debug)]
pub enum Problems {
    /// All the points to one problem (Autolab's example lab calls it
    /// `Correctness`); optionally the number of byte-exact cases to a second.
    One {
        /// The problem that gets the score.
        name: String,
        /// The problem that gets the number of byte-exact cases.
        exact: Option<String>,
    },
    /// One problem per case, named as the case, with its points.
    PerCase,
}

/// The autoresult line (without its line end) of `grade` over cases `names`, each
/// worth `points`. The scoreboard has one column, the score.
pub fn autoresult(
    grade: &StudentGrade,
    names: &[String],
    points: &[f64],
    problems: &Problems,
) -> String {
    let earned: Vec<f64> = scored(grade, points).map(|(_, earned, _)| earned).collect();
    line(
        problems,
        names,
        grade.score,
        grade.byte_exact as f64,
        &earned,
    )
}

/// The autoresult of a grading that failed: every problem 0.
pub fn failure(names: &[String], problems: &Problems) -> String {
    line(problems, names, 0.0, 0.0, &vec![0.0; names.len()])
}

/// The autoresult: `score` (and `exact`) to the one problem, or each case's points
/// to its own.
fn line(problems: &Problems, names: &[String], score: f64, exact: f64, earned: &[f64]) -> String {
    let mut scores = Map::new();
    match problems {
        Problems::One {
            name,
            exact: exact_name,
        } => {
            scores.insert(name.clone(), json!(score));
            if let Some(exact_name) = exact_name {
                scores.insert(exact_name.clone(), json!(exact));
            }
        }
        Problems::PerCase => {
            for (name, &points) in names.iter().zip(earned) {
                scores.insert(name.clone(), json!(points));
            }
        }
    }
    // `scores` first, as Autolab's examples write it (and the bundle's script checks).
    format!(
        "{{\"scores\":{},\"scoreboard\":[{}]}}",
        serde_json::Value::Object(scores),
        json!(score)
    )
}

/// The job's output: the student's report, cut to fit, then the autoresult as the
/// last line.
pub fn output(
    grade: &StudentGrade,
    policy: Policy,
    isolation: Isolation,
    autoresult: &str,
) -> String {
    let report = student_report(grade, policy, isolation);
    let report = cut(
        &report,
        REPORT_LIMIT,
        "Autolab keeps about 1000 KiB of output",
    );
    format!("{}\n{autoresult}\n", report.trim_end())
}

/// A problem name Autolab can read back from the autoresult: not empty, printable,
/// without `"`, `\` or `:`.
pub fn valid_problem(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_control() || matches!(c, '"' | '\\' | ':'))
}
