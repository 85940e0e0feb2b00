//! One student's report as text: the score under the policy, a row per case, and
//! each mistake once with the cases it affects and one full explanation.

use std::fmt::Write;

use super::points;
use crate::grading::batch::Verdict;
use crate::grading::grade::{Policy, StudentGrade};
use crate::printable::{printable, terminal_text};
use crate::sandbox::Isolation;

/// The report of `grade`, with no control character but its line ends (and tabs):
/// what the terminal would show of it.
pub fn student_report(grade: &StudentGrade, policy: Policy, isolation: Isolation) -> String {
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = write_report(&mut text, grade, policy, isolation);
    terminal_text(&text).into_owned()
}

fn write_report(
    text: &mut String,
    grade: &StudentGrade,
    policy: Policy,
    isolation: Isolation,
) -> std::fmt::Result {
    writeln!(text, "Student:   {}", printable(&grade.student))?;
    writeln!(text, "Policy:    {}", policy.description())?;
    if let Some(rule) = grade.scoring.description() {
        writeln!(text, "Scoring:   {rule}")?;
    }
    writeln!(text, "Isolation: {}", isolation.words())?;
    if let Some(program) = &grade.program {
        writeln!(text, "Program:   {}", printable(program))?;
    }
    writeln!(
        text,
        "Score:     {}/{} points ({} of {} cases passed; {} byte for byte)",
        points(grade.score),
        points(grade.max_score),
        grade.passed,
        grade.total,
        grade.byte_exact
    )?;
    if let Some(file) = &grade.missing_file {
        writeln!(
            text,
            "\nMISSING FILE: the submission has no {}; no case was run.",
            printable(file)
        )?;
        return Ok(());
    }
    if let Some(error) = &grade.compile_error {
        writeln!(text, "\nCOMPILE ERROR: {error}; no case was run.")?;
        return Ok(());
    }
    if grade.interrupted {
        writeln!(
            text,
            "\nINTERRUPTED (Ctrl-C): {} of {} cases finished.",
            grade
                .cases
                .iter()
                .filter(|c| c.verdict != Verdict::Interrupted)
                .count(),
            grade.total
        )?;
    }
    writeln!(text)?;
    for case in &grade.cases {
        writeln!(
            text,
            "{:<16} {}  {}",
            case.verdict.word(),
            printable(&case.case),
            case.detail
        )?;
    }
    if grade.mistakes.is_empty() {
        return Ok(());
    }
    writeln!(text, "\nMistakes, each once:")?;
    for group in &grade.mistakes {
        let cases = if group.cases.len() == 1 {
            "case"
        } else {
            "cases"
        };
        writeln!(
            text,
            "\n{} {cases}: {} ({})",
            group.cases.len(),
            group.label,
            printable(&group.cases.join(", "))
        )?;
        writeln!(text, "  first, {}:", printable(&group.cases[0]))?;
        for line in group.example.lines() {
            writeln!(text, "    {line}")?;
        }
    }
    Ok(())
}
