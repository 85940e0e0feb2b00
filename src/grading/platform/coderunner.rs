//! A CodeRunner combinator template grader's outcome, as CodeRunner documents it:
//! one JSON object with `fraction` (the mark, 0 to 1), `prologuehtml` (HTML shown
//! before the result table) and `testresults` (the table: its header row first, an
//! `iscorrect` column shown as ticks and crosses, an `ishidden` column that keeps a
//! row from the student but not from the staff).
//!
//! The table's cells are text, which CodeRunner escapes (its default column format,
//! `%s`); `prologuehtml` is HTML, so every text in it is escaped here: nothing the
//! student's program wrote becomes an element.

use serde_json::{json, Value};

use super::points;
use super::text::student_report;
use crate::grading::batch::Verdict;
use crate::grading::grade::{Policy, StudentGrade, Visibility};
use crate::printable::{html_text, printable, printable_json};
use crate::sandbox::Isolation;

/// The header row of `testresults`.
pub const HEADER: [&str; 5] = ["Case", "Verdict", "Explanation", "iscorrect", "ishidden"];

/// The combinator grader's outcome of `grade`, its cases seen by `visibility`
/// (a case that is not `visible` is a hidden row).
pub fn outcome(
    grade: &StudentGrade,
    visibility: &[Visibility],
    policy: Policy,
    isolation: Isolation,
) -> Value {
    let mut rows = vec![json!(HEADER)];
    for (case, visibility) in grade.cases.iter().zip(visibility) {
        let passed = case.verdict == Verdict::Pass;
        let explanation = match &case.report {
            Some(report) if !passed => format!("{}\n{report}", case.detail),
            _ => case.detail.clone(),
        };
        rows.push(json!([
            printable(&case.case),
            case.verdict.word(),
            explanation.trim_end(),
            u8::from(passed),
            u8::from(*visibility != Visibility::Visible),
        ]));
    }
    let fraction = if grade.max_score > 0.0 {
        (grade.score / grade.max_score).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let prologue = format!(
        "<p><b>Score: {}/{} points</b> ({} of {} cases passed; {} byte for byte)</p>\n<pre>{}</pre>",
        points(grade.score),
        points(grade.max_score),
        grade.passed,
        grade.total,
        grade.byte_exact,
        html_text(&student_report(grade, policy, isolation))
    );
    let mut outcome = json!({
        "fraction": fraction,
        "prologuehtml": prologue,
        "testresults": rows,
    });
    printable_json(&mut outcome);
    outcome
}
