//! Gradescope's `results.json`, as its autograder specification documents it: the
//! total `score`, an `output` for the student, `execution_time` (the wall time of the
//! student's grading), and one entry of `tests` per case (`name`, `score`,
//! `max_score`, `status`, `output`, `visibility`, and the case's seconds in
//! `extra_data`), every string of it printable.

use serde_json::{json, Value};

use super::text::student_report;
use super::{case_text, scored};
use crate::grading::batch::Verdict;
use crate::grading::grade::{Policy, StudentGrade, Visibility};
use crate::printable::{printable, printable_json};
use crate::sandbox::Isolation;

/// The `results.json` of one student's `grade`, each case worth `points` and seen by
/// `visibility`.
pub fn results(
    grade: &StudentGrade,
    points: &[f64],
    visibility: &[Visibility],
    policy: Policy,
    isolation: Isolation,
) -> Value {
    let tests: Vec<Value> = scored(grade, points)
        .zip(visibility)
        .map(|((case, earned, max), visibility)| {
            json!({
                "name": printable(&case.case),
                "score": earned,
                "max_score": max,
                "status": if case.verdict == Verdict::Pass { "passed" } else { "failed" },
                "output": case_text(case),
                "visibility": visibility.word(),
                "extra_data": { "seconds": case.seconds.max(0.0) },
            })
        })
        .collect();
    let mut results = json!({
        "score": grade.score,
        "output": student_report(grade, policy, isolation),
        "execution_time": grade.seconds.max(0.0),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    });
    printable_json(&mut results);
    results
}
