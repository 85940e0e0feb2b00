//! Vocareum's custom grading files: the grade file (`$vocareumGradeFile`), one
//! `Criterion,score` line per rubric criterion, and the report the student sees
//! (`$vocareumReportFile`).

use super::points;
use crate::grading::grade::StudentGrade;
use crate::printable::printable;

/// The line of a report file that keeps the grading script's stdout and stderr out
/// of the student's report.
pub const NO_REPORT_OUTPUT: &str = "VOC_NO_REPORT_OUTPUT";

/// The grade file of `grade`: the score under `criterion`, and, if given, the count
/// of byte-exact cases under `exact_criterion`.
pub fn grade_file(grade: &StudentGrade, criterion: &str, exact_criterion: Option<&str>) -> String {
    let mut text = format!("{},{}\n", field(criterion), points(grade.score));
    if let Some(exact) = exact_criterion {
        text += &format!("{},{}\n", field(exact), grade.byte_exact);
    }
    text
}

/// A criterion name as one CSV field: Vocareum splits the line at its comma, and a
/// control character is escaped (a newline would start a line of its own).
pub fn field(name: &str) -> String {
    printable(name).replace(',', " ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_criterion_stays_one_field_of_one_line() {
        assert_eq!(super::field("a,b\nFake,9\u{1b}"), "a b\\nFake 9\\u{1b}");
    }
}
