//! What graders and platforms read about a class: the text report of a student
//! ([`text`]), a CSV table ([`csv`]), JUnit XML for CI systems and CodeGrade
//! ([`junit`]), Gradescope's `results.json` ([`gradescope`]), Vocareum's grade and
//! report files ([`vocareum`]), PrairieLearn's `results.json` ([`prairielearn`]),
//! GitHub Classroom's step output ([`github_classroom`]), Autolab's autoresult
//! ([`autolab`]), Moodle VPL's evaluation lines ([`vpl`]) and a CodeRunner
//! combinator grader's JSON ([`coderunner`]); the reports of a class graded in
//! shards joined ([`merge`]). Each platform's format is written in one place, here.
//!
//! Students name their folders and write their programs' standard error, so every
//! file here gets what the terminal gets (see [`crate::printable`]): no
//! control character but the line ends and tabs a format is made of, and nothing of
//! a student's that starts a row or an element.

pub mod autolab;
pub mod coderunner;
pub mod csv;
pub mod github_classroom;
pub mod gradescope;
pub mod junit;
pub mod merge;
pub mod prairielearn;
pub mod text;
pub mod vocareum;
pub mod vpl;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::grading::batch::{CaseResult, Verdict};
use crate::grading::grade::{Policy, StudentGrade, Visibility};
use crate::output_file::{self, Durability};
use crate::printable::printable;
use crate::sandbox::Isolation;

/// The files a class's grading writes, each where asked (none by default).
#[derive(Clone, Debug, Default)]
pub struct Targets {
    /// The CSV table of the class.
    pub csv: Option<PathBuf>,
    /// A folder of text reports, one `STUDENT.txt` per student.
    pub reports: Option<PathBuf>,
    /// The JUnit XML of the class.
    pub junit: Option<PathBuf>,
    /// Gradescope's `results.json` of the first (the only) student.
    pub gradescope: Option<PathBuf>,
    /// How `results.json` writes its outputs.
    pub gradescope_format: gradescope::OutputFormat,
    /// Moodle VPL's evaluation lines of the first (the only) student.
    pub vpl: Option<PathBuf>,
    /// A CodeRunner combinator grader's JSON of the first (the only) student.
    pub coderunner: Option<PathBuf>,
    /// Vocareum's grade and report files of the first (the only) student.
    pub vocareum: Option<VocareumFiles>,
    /// PrairieLearn's `results.json` of the first (the only) student.
    pub prairielearn: Option<PathBuf>,
}

/// Where Vocareum's grading script wants the grade and the report, and the rubric.
#[derive(Clone, Debug)]
pub struct VocareumFiles {
    /// `$vocareumGradeFile`.
    pub grade_file: PathBuf,
    /// `$vocareumReportFile`.
    pub report_file: PathBuf,
    /// The criterion that gets the score.
    pub criterion: String,
    /// The criterion that gets the number of byte-exact cases, if any.
    pub exact_criterion: Option<String>,
}

/// A report that could not be written.
#[derive(Debug, Error)]
#[error("cannot write {path}: {source}")]
pub struct WriteError {
    /// The file.
    pub path: String,
    /// Why.
    #[source]
    pub source: io::Error,
}

/// Writes each file of `targets` for `grades` (over the cases named `cases`, each
/// worth `points` and seen by `visibility`), whole: a file is replaced only once
/// complete.
pub fn write_reports(
    targets: &Targets,
    grades: &[StudentGrade],
    cases: &[String],
    points: &[f64],
    visibility: &[Visibility],
    policy: Policy,
    isolation: Isolation,
) -> Result<(), WriteError> {
    if let Some(path) = &targets.csv {
        write_whole(path, &csv::class_table(grades, cases))?;
    }
    if let Some(folder) = &targets.reports {
        std::fs::create_dir_all(folder).map_err(|source| WriteError {
            path: folder.display().to_string(),
            source,
        })?;
        for grade in grades {
            let report = text::student_report(grade, policy, isolation);
            let name = format!("{}.txt", printable(&grade.student));
            write_whole(&folder.join(name), &report)?;
        }
    }
    if let Some(path) = &targets.junit {
        write_whole(path, &junit::document(grades))?;
    }
    if let (Some(path), Some(grade)) = (&targets.gradescope, grades.first()) {
        let format = targets.gradescope_format;
        let results = gradescope::results(grade, points, visibility, (policy, isolation), format);
        let text = serde_json::to_string_pretty(&results).expect("a JSON value serializes");
        write_whole(path, &text)?;
    }
    if let (Some(path), Some(grade)) = (&targets.prairielearn, grades.first()) {
        let results = prairielearn::results(grade, points, policy, isolation);
        write_whole(path, &prairielearn::text(&results))?;
    }
    if let (Some(path), Some(grade)) = (&targets.vpl, grades.first()) {
        write_whole(path, &vpl::evaluation(grade, policy, isolation))?;
    }
    if let (Some(path), Some(grade)) = (&targets.coderunner, grades.first()) {
        let outcome = coderunner::outcome(grade, visibility, policy, isolation);
        let text = serde_json::to_string(&outcome).expect("a JSON value serializes");
        write_whole(path, &text)?;
    }
    if let (Some(files), Some(grade)) = (&targets.vocareum, grades.first()) {
        let criterion = files.exact_criterion.as_deref();
        write_whole(
            &files.grade_file,
            &vocareum::grade_file(grade, &files.criterion, criterion),
        )?;
        // The line that keeps the grading script's own stdout and stderr out of the
        // report (Vocareum's convention: first, alone on its line).
        let report = format!(
            "{}\n{}",
            vocareum::NO_REPORT_OUTPUT,
            text::student_report(grade, policy, isolation)
        );
        write_whole(&files.report_file, &report)?;
    }
    Ok(())
}

/// The names of what went wrong in case `at` of `grade`, for the platforms that tag
/// tests: the mistake's name (`missing-pass-node`), the candidates' when `check`
/// names several, else the verdict's (`timeout`, `not-run`); none for a pass. The
/// rows of hidden cases keep their kind of mistake, so these are shown for them too.
pub fn mistake_tags(grade: &StudentGrade, at: usize) -> Vec<String> {
    use crate::explain::check::Mistake;
    let Some(case) = grade.cases.get(at) else {
        return Vec::new();
    };
    if case.verdict == crate::grading::batch::Verdict::Pass {
        return Vec::new();
    }
    let label = grade
        .mistakes
        .iter()
        .find(|group| group.cases.contains(&case.case))
        .map(|group| group.label.as_str());
    let named = |label: &str| Mistake::all().find(|m| m.label() == label);
    let tags: Vec<String> = match label {
        Some(label) => {
            let labels = label.strip_prefix("one of: ").unwrap_or(label);
            labels
                .split(" or ")
                .filter_map(named)
                .map(|m| m.name().to_string())
                .collect()
        }
        None => Vec::new(),
    };
    if tags.is_empty() {
        let word = case.verdict.word().to_lowercase().replace(' ', "-");
        return vec![word];
    }
    tags
}

/// Writes `text` to `path` whole (the file is replaced only once complete).
pub fn write_whole(path: &Path, text: &str) -> Result<(), WriteError> {
    output_file::replace_file(path, Durability::Cached, |file| {
        file.write_all(text.as_bytes())
    })
    .map_err(|source| WriteError {
        path: path.display().to_string(),
        source,
    })
}

/// Each case of `grade` with the points it earned and its points (`points`): all
/// of them if it passed, else none.
pub fn scored<'a>(
    grade: &'a StudentGrade,
    points: &'a [f64],
) -> impl Iterator<Item = (&'a CaseResult, f64, f64)> {
    grade.cases.iter().zip(points).map(|(case, &max)| {
        let earned = if case.verdict == Verdict::Pass {
            max
        } else {
            0.0
        };
        (case, earned, max)
    })
}

/// What a platform shows of a case: its verdict's word and the row's detail, and
/// the `check` explanation of an output that did not pass.
pub fn case_text(case: &CaseResult) -> String {
    match &case.report {
        Some(report) if case.verdict != Verdict::Pass => {
            format!("{}: {}\n{report}", case.verdict.word(), case.detail)
        }
        _ if case.detail.is_empty() => case.verdict.word().to_string(),
        _ => format!("{}: {}", case.verdict.word(), case.detail),
    }
}

/// `text` cut to at most `max` bytes (at a character), the cut said at its end with
/// `why` (the platform's limit): what a platform shows never ends mid-sentence
/// without a word.
pub fn cut(text: &str, max: usize, why: &str) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let note = format!("\n[... {} bytes cut: {why}]\n", text.len());
    let mut end = max.saturating_sub(note.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{note}", &text[..end])
}

/// Cuts the longest strings of `value` (each to half, the cut said with `why`)
/// until its JSON takes at most `limit` bytes: a platform that caps its file gets
/// every field, the long texts shortened.
pub fn fit(value: &mut serde_json::Value, limit: usize, why: &str) {
    fn longest(value: &mut serde_json::Value) -> Option<&mut String> {
        match value {
            serde_json::Value::String(text) => Some(text),
            serde_json::Value::Array(items) => items
                .iter_mut()
                .filter_map(longest)
                .max_by_key(|text| text.len()),
            serde_json::Value::Object(map) => map
                .values_mut()
                .filter_map(longest)
                .max_by_key(|text| text.len()),
            _ => None,
        }
    }
    while serde_json::to_string(value).map_or(0, |json| json.len()) > limit {
        let Some(text) = longest(value) else { return };
        if text.len() < 256 {
            return;
        }
        *text = cut(text, text.len() / 2, why);
    }
}

/// A score as the reports print it: `3`, `2.5`.
pub fn points(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{:.2}", value)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fit_cuts_the_longest_texts_and_says_so() {
        let mut value = serde_json::json!({
            "output": "é".repeat(400_000),
            "tests": [{"output": "x".repeat(300_000), "name": "case1"}],
        });
        super::fit(&mut value, 200_000, "the platform's limit");
        let json = serde_json::to_string(&value).unwrap();
        assert!(json.len() <= 200_000, "{}", json.len());
        assert_eq!(value["tests"][0]["name"], "case1");
        for text in [&value["output"], &value["tests"][0]["output"]] {
            assert!(text
                .as_str()
                .unwrap()
                .ends_with("bytes cut: the platform's limit]\n"));
        }
        assert_eq!(super::cut("short", 100, "why"), "short");
    }

    #[test]
    fn points_print_without_needless_decimals() {
        assert_eq!(super::points(3.0), "3");
        assert_eq!(super::points(2.5), "2.5");
        assert_eq!(super::points(1.0 / 3.0), "0.33");
    }
}
