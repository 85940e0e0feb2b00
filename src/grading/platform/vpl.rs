//! Moodle VPL's evaluation output, as VPL documents it and reads it: a line
//! starting `Grade :=>>` proposes the grade (the last such line wins), a line
//! starting `Comment :=>>` adds the rest of it to the comments, in which a line
//! starting `-` is a title and one starting `>` preformatted text (shown as it is,
//! escaped).
//!
//! Every line written starts with `Comment :=>>` but the last, the grade, so nothing
//! of the student's (their folder's name, their program's standard error or output)
//! can start a grade line; the report's lines are all preformatted, so none can be a
//! title or a link either; no comment block (`<|--`) is used, as VPL's reader looks
//! for grade lines inside one too.

use std::fmt::Write;

use super::points;
use super::text::student_report;
use crate::grading::grade::{Policy, StudentGrade};
use crate::sandbox::Isolation;

/// What starts a grade line.
pub const GRADE: &str = "Grade :=>>";
/// What starts a comment line.
pub const COMMENT: &str = "Comment :=>>";

/// The evaluation output of `grade`: a title with the score (not ending in `)`,
/// which VPL would read as a title's own grade), the text report as preformatted
/// lines, and the grade (the score, in points) last.
pub fn evaluation(grade: &StudentGrade, policy: Policy, isolation: Isolation) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{COMMENT}-Score: {}/{} points, {} of {} cases passed",
        points(grade.score),
        points(grade.max_score),
        grade.passed,
        grade.total
    );
    // (the report has no control character but its line ends and tabs: each of
    // its lines stays one line here)
    for line in student_report(grade, policy, isolation).lines() {
        let _ = writeln!(text, "{COMMENT}>{line}");
    }
    let _ = writeln!(text, "{GRADE} {}", points(grade.score));
    text
}
