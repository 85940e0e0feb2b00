//! What graders and platforms read about a class: the text report of a student
//! ([`text`]), a CSV table ([`csv`]), JUnit XML for CI systems ([`junit`]),
//! Gradescope's `results.json` ([`gradescope`]) and Vocareum's grade and report
//! files ([`vocareum`]); the reports of a class graded in shards joined
//! ([`merge`]). Each platform's format is written in one place, here.
//!
//! Students name their folders and write their programs' standard error, so every
//! file here gets what the terminal gets (see [`crate::printable`]): no
//! control character but the line ends and tabs a format is made of, and nothing of
//! a student's that starts a row or an element.

pub mod csv;
pub mod gradescope;
pub mod junit;
pub mod merge;
pub mod text;
pub mod vocareum;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

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
    /// Vocareum's grade and report files of the first (the only) student.
    pub vocareum: Option<VocareumFiles>,
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
        let results = gradescope::results(grade, points, visibility, policy, isolation);
        let text = serde_json::to_string_pretty(&results).expect("a JSON value serializes");
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
    fn points_print_without_needless_decimals() {
        assert_eq!(super::points(3.0), "3");
        assert_eq!(super::points(2.5), "2.5");
        assert_eq!(super::points(1.0 / 3.0), "0.33");
    }
}
