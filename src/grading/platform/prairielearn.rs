//! PrairieLearn's `results.json`, as its external grading documentation
//! (`docs/externalGrading.md`, "Grading results") defines it: `score` in [0, 1],
//! `gradable` (false, with `format_errors`, for a submission without its program or
//! whose program does not build: the student is not charged an attempt), `message`,
//! `output`, and `tests[]` with `name`, `description`, `points`, `max_points`,
//! `message` and `output`. The file is limited to 1 MB: the long texts are cut to
//! fit, the cut said. `pl-external-grader-results` shows `output` through ansi2html,
//! so the verdicts are coloured with ANSI codes (none of a student's: every string is
//! escaped first) and nothing is Markdown.

use serde_json::{json, Value};

use super::text::student_report;
use super::{case_text, fit, points as score, scored};
use crate::grading::grade::{Policy, StudentGrade};
use crate::printable::{printable, printable_json};
use crate::sandbox::Isolation;

/// PrairieLearn's limit of `results.json`, in bytes (its documentation: 1 MB).
pub const LIMIT: usize = 1_000_000;

/// What `results.json` is cut to: a margin under [`LIMIT`].
const FIT: usize = 900_000;

const GREEN: &str = "\u{1b}[32m";
const RED: &str = "\u{1b}[31m";
const RESET: &str = "\u{1b}[0m";

/// The `results.json` of one student's `grade`, each case worth `points`.
pub fn results(
    grade: &StudentGrade,
    points: &[f64],
    policy: Policy,
    isolation: Isolation,
) -> Value {
    let tests: Vec<Value> = scored(grade, points)
        .map(|(case, earned, max)| {
            let text = case_text(case);
            let (message, output) = match text.split_once('\n') {
                Some((first, rest)) => (first.to_string(), rest.to_string()),
                None => (text, String::new()),
            };
            json!({
                "name": printable(&case.case),
                "description": format!("the output of case {} compared ({})",
                    printable(&case.case), policy.description()),
                "points": earned,
                "max_points": max,
                "message": message,
                "output": output,
            })
        })
        .collect();
    let fraction = if grade.max_score > 0.0 {
        (grade.score / grade.max_score).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut results = json!({
        "gradable": true,
        "score": fraction,
        "message": format!(
            "{}/{} points: {} of {} cases passed ({}), {} byte for byte",
            score(grade.score),
            score(grade.max_score),
            grade.passed,
            grade.total,
            policy.description(),
            grade.byte_exact
        ),
        "output": student_report(grade, policy, isolation),
        "tests": tests,
    });
    let not_gradable = match (&grade.missing_file, &grade.compile_error) {
        (Some(file), _) => Some(format!(
            "The submission has no {}: nothing was run. Submit it (no attempt was counted).",
            printable(file)
        )),
        (None, Some(error)) => Some(format!(
            "The program does not build: {error} (no attempt was counted)."
        )),
        (None, None) => None,
    };
    if let Some(reason) = not_gradable {
        results["gradable"] = false.into();
        results["score"] = 0.0.into();
        results["format_errors"] = json!([reason]);
    }
    printable_json(&mut results);
    fit(
        &mut results,
        FIT,
        "results.json is kept under PrairieLearn's 1 MB",
    );
    colour(&mut results);
    results
}

/// Each test's message opens with its verdict: green for PASS, red otherwise.
fn colour(results: &mut Value) {
    let Some(tests) = results["tests"].as_array_mut() else {
        return;
    };
    for test in tests {
        let passed = test["points"].as_f64() == test["max_points"].as_f64()
            && test["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("PASS"));
        if let Some(message) = test["message"].as_str() {
            // The verdict's word ends at its colon (or is the whole message).
            let end = message.find(':').unwrap_or(message.len());
            let colour = if passed { GREEN } else { RED };
            test["message"] =
                format!("{colour}{}{RESET}{}", &message[..end], &message[end..]).into();
        }
    }
}

/// `results` as the file's text.
pub fn text(results: &Value) -> String {
    serde_json::to_string_pretty(results).expect("a JSON value serializes")
}

/// The `results.json` of a grading that failed before it could write its own: score
/// 0, gradable (the student's attempt counts, as any other with a score), the reason.
pub fn failure(reason: &str) -> String {
    let mut results = json!({
        "gradable": true,
        "score": 0.0,
        "message": "The autograder could not grade this submission; tell the course staff.",
        "output": reason,
        "tests": [],
    });
    printable_json(&mut results);
    fit(
        &mut results,
        FIT,
        "results.json is kept under PrairieLearn's 1 MB",
    );
    text(&results)
}
