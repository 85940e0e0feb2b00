//! Gradescope's `results.json`, as its autograder specification documents it: the
//! total `score`, an `output` for the student, `execution_time` (the wall time of the
//! student's grading), and one entry of `tests` per case (`name`, `number`, `score`,
//! `max_score`, `status`, `output`, `tags` (the mistake's name), `visibility`, and
//! the case's seconds in `extra_data`; no `score` nor `max_score` where a rule other
//! than points makes the score, as the Fall 2014 agent's), every string of it
//! printable. In Markdown (`output_format: "md"`), what the student's program wrote
//! stays in code blocks or escaped: it cannot add Markdown or HTML of its own.

use serde_json::{json, Value};

use super::text::student_report;
use super::{case_text, mistake_tags, points as shown, scored};
use crate::grading::batch::Verdict;
use crate::grading::grade::{Policy, Scoring, StudentGrade, Visibility};
use crate::printable::{markdown_code_block, markdown_text, printable, printable_json};
use crate::sandbox::Isolation;

/// How `output` is written: plain text, or Markdown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// Text, shown as it is (Gradescope's default).
    #[default]
    Text,
    /// Markdown (`md`): headings and emphasis of ours, the report and each
    /// explanation in code blocks.
    Markdown,
}

/// The `results.json` of one student's `grade`, each case worth `points` and seen by
/// `visibility`, its outputs in `format`.
pub fn results(
    grade: &StudentGrade,
    points: &[f64],
    visibility: &[Visibility],
    (policy, isolation): (Policy, Isolation),
    format: OutputFormat,
) -> Value {
    let tests: Vec<Value> = scored(grade, points)
        .zip(visibility)
        .enumerate()
        .map(|(at, ((case, earned, max), visibility))| {
            let passed = case.verdict == Verdict::Pass;
            let output = match format {
                OutputFormat::Text => case_text(case),
                OutputFormat::Markdown => {
                    let mut text = format!("**{}**", case.verdict.word());
                    if !case.detail.is_empty() {
                        text += &format!(": {}", markdown_text(&case.detail));
                    }
                    if let Some(report) = case.report.as_ref().filter(|_| !passed) {
                        text += &format!("\n\n{}", markdown_code_block(&report.to_string()));
                    }
                    text
                }
            };
            let mut test = json!({
                "name": printable(&case.case),
                "number": (at + 1).to_string(),
                "score": earned,
                "max_score": max,
                "status": if passed { "passed" } else { "failed" },
                "output": output,
                "tags": mistake_tags(grade, at),
                "visibility": visibility.word(),
                "extra_data": { "seconds": case.seconds.max(0.0) },
            });
            if format == OutputFormat::Markdown {
                test["output_format"] = "md".into();
            }
            if grade.scoring != Scoring::Points {
                // (a case is worth no points of its own: the top-level score counts)
                test.as_object_mut()
                    .map(|t| (t.remove("score"), t.remove("max_score")));
            }
            test
        })
        .collect();
    let report = student_report(grade, policy, isolation);
    let output = match format {
        OutputFormat::Text => report,
        OutputFormat::Markdown => format!(
            "## {}/{} points\n\n{} of {} cases passed ({} byte for byte)\n\n{}",
            shown(grade.score),
            shown(grade.max_score),
            grade.passed,
            grade.total,
            grade.byte_exact,
            markdown_code_block(&report)
        ),
    };
    let mut results = json!({
        "score": grade.score,
        "output": output,
        "execution_time": grade.seconds.max(0.0),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    });
    if format == OutputFormat::Markdown {
        results["output_format"] = "md".into();
        results["test_output_format"] = "md".into();
    }
    printable_json(&mut results);
    results
}
