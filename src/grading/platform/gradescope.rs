//! Gradescope's `results.json`, as its autograder specification documents it: the
//! total `score`, an `output` for the student, `execution_time` (the wall time of the
//! student's grading), and one entry of `tests` per case (`name`, `score`,
//! `max_score`, `status`, `output`, `visibility`, and the case's seconds in
//! `extra_data`; no `score` nor `max_score` where a rule other than points makes the
//! score, as the Fall 2014 agent's), every string of it printable.

use serde_json::{json, Value};

use super::text::student_report;
use crate::grading::batch::Verdict;
use crate::grading::grade::{Policy, Scoring, StudentGrade, Visibility};
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
    let tests: Vec<Value> = grade
        .cases
        .iter()
        .zip(points)
        .zip(visibility)
        .map(|((case, &max), visibility)| {
            let passed = case.verdict == Verdict::Pass;
            let output = match &case.report {
                Some(report) if !passed => format!("{}\n{report}", case.detail),
                _ => case.detail.clone(),
            };
            let mut test = json!({
                "name": printable(&case.case),
                "score": if passed { max } else { 0.0 },
                "max_score": max,
                "status": if passed { "passed" } else { "failed" },
                "output": format!("{}: {output}", case.verdict.word()),
                "visibility": visibility.word(),
                "extra_data": { "seconds": case.seconds.max(0.0) },
            });
            if grade.scoring != Scoring::Points {
                // (a case is worth no points of its own: the top-level score counts)
                test.as_object_mut()
                    .map(|t| (t.remove("score"), t.remove("max_score")));
            }
            test
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
