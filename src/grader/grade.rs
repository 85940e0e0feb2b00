//! `grade`: a class of submissions, each run on the same cases in the sandbox, scored
//! under a pass policy, with each student's mistakes grouped so that a report says
//! "24 cases fail only on CRLF line ends" once, not 24 times.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::Serialize;
use thiserror::Error;

use super::batch::{self, find_cases, BatchError, BatchOptions, Case, CaseResult, Runner, Verdict};
use super::check::Mistake;
use super::printable::{printable, serialize_name, serialize_names};
use crate::sandbox::policy::{self, PolicyError};
use crate::sandbox::{Isolation, Sandbox, SandboxError};

/// Why a class cannot be graded (bad arguments: exit 2).
#[derive(Debug, Error)]
pub enum GradeError {
    /// The submissions folder cannot be read.
    #[error("{path}: cannot read the submissions folder: {reason}")]
    Folder {
        /// The folder.
        path: String,
        /// Why.
        reason: String,
    },
    /// The submissions folder holds no folder.
    #[error("{path}: no submission found (one folder per student)")]
    NoSubmissions {
        /// The folder.
        path: String,
    },
    /// A case's `points` file does not hold a number.
    #[error("{path}: expected a number of points (such as 2 or 0.5); found {found:?}")]
    Points {
        /// The file.
        path: String,
        /// What it holds.
        found: String,
    },
    /// `--vocareum` outside Vocareum: a variable its grading scripts set is missing.
    #[error("${variable} is not set: --vocareum runs inside Vocareum's grading script")]
    Vocareum {
        /// The variable.
        variable: String,
    },
    /// The command does not name `{submission}`.
    #[error(
        "the command does not name {{submission}}, the student's folder: every student \
         would run the same program (e.g. --run \"python3 {{submission}}/hw1.py\")"
    )]
    NoPlaceholder,
    /// The cases cannot be found.
    #[error(transparent)]
    Cases(#[from] BatchError),
}

/// How a case passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Byte for byte.
    Strict,
    /// As the Fall 2014 grader: CR, trailing whitespace and trailing blank lines
    /// ignored (every published solution writes LF line ends).
    Lenient,
}

impl Policy {
    /// The policy in words, for every report.
    pub fn description(self) -> &'static str {
        match self {
            Policy::Strict => "strict: byte for byte",
            Policy::Lenient => {
                "lenient: as the Fall 2014 grader, ignoring CR, trailing whitespace and \
                 trailing blank lines"
            }
        }
    }
}

/// One student's submission: a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The folder's name.
    pub name: String,
    /// The folder.
    pub folder: PathBuf,
}

/// What a class's grading is asked to do, as the command line says it.
#[derive(Clone, Copy, Debug)]
pub struct ClassRequest<'a> {
    /// The folder of submissions, one folder per student; or, with `single`, the one
    /// student's folder.
    pub submissions: &'a Path,
    /// `submissions` is one student's folder.
    pub single: bool,
    /// The folder of cases.
    pub cases: &'a Path,
    /// The points of a case without a `points` file of its own.
    pub points: f64,
    /// The student's program, with `{submission}`.
    pub command: &'a str,
}

/// A class ready to grade: its submissions, the cases and their points.
#[derive(Clone, Debug)]
pub struct Class {
    /// Each student's folder, in name order.
    pub submissions: Vec<Submission>,
    /// The cases every student runs.
    pub cases: Vec<Case>,
    /// The points of each case.
    pub points: Vec<f64>,
    submissions_folder: PathBuf,
    cases_folder: PathBuf,
    command: String,
}

impl Class {
    /// Finds the submissions, the cases and their points that `request` names, and
    /// refuses a command that does not name `{submission}`.
    pub fn find(request: &ClassRequest) -> Result<Class, GradeError> {
        if !request.command.contains(PLACEHOLDER) {
            return Err(GradeError::NoPlaceholder);
        }
        let submissions = if request.single {
            let folder = request.submissions;
            vec![Submission {
                name: folder
                    .file_name()
                    .map_or_else(|| "submission".into(), |n| n.to_string_lossy().into_owned()),
                folder: fs::canonicalize(folder).map_err(|e| GradeError::Folder {
                    path: folder.display().to_string(),
                    reason: e.to_string(),
                })?,
            }]
        } else {
            find_submissions(request.submissions)?
        };
        let cases = find_cases(request.cases)?;
        let points = case_points(&cases, request.points)?;
        Ok(Class {
            submissions,
            cases,
            points,
            submissions_folder: request.submissions.to_path_buf(),
            cases_folder: request.cases.to_path_buf(),
            command: request.command.to_string(),
        })
    }

    /// Refuses to grade the class in `sandbox` where its policy says no: the
    /// submissions or a path shown holds the cases, a run could read an expected
    /// output, a student's folder is closed to the run, or the command names a file
    /// the programs cannot see.
    pub fn admit(&self, sandbox: &Sandbox) -> Result<(), PolicyError> {
        let mut shown = sandbox.read_only().to_vec();
        shown.push(self.submissions_folder.clone());
        policy::refuse_showing_cases(&self.cases_folder, &shown)?;
        let expected = self.cases.iter().map(|c| c.expected.as_path());
        policy::refuse_readable_cases(sandbox, expected)?;
        for submission in &self.submissions {
            policy::refuse_hidden_submission(sandbox, &submission.folder)?;
        }
        policy::refuse_unseen_files(&self.command, sandbox)
    }

    /// The names of the cases, in order.
    pub fn case_names(&self) -> Vec<String> {
        self.cases.iter().map(|c| c.name.clone()).collect()
    }
}

/// The submissions of `dir`: each folder in it, in name order.
pub fn find_submissions(dir: &Path) -> Result<Vec<Submission>, GradeError> {
    let entries = fs::read_dir(dir).map_err(|e| GradeError::Folder {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut submissions: Vec<Submission> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| Submission {
            name: entry.file_name().to_string_lossy().into_owned(),
            folder: fs::canonicalize(entry.path()).unwrap_or_else(|_| entry.path()),
        })
        .collect();
    submissions.sort_by(|a, b| a.name.cmp(&b.name));
    if submissions.is_empty() {
        return Err(GradeError::NoSubmissions {
            path: dir.display().to_string(),
        });
    }
    Ok(submissions)
}

/// The points of each case: the number in a `points` file beside it (`NAME.points`
/// for a pair, else the folder's `points`), or `default`.
pub fn case_points(cases: &[Case], default: f64) -> Result<Vec<f64>, GradeError> {
    cases
        .iter()
        .map(|case| {
            let own = case.input.with_extension("points");
            let folder = case.input.with_file_name("points");
            let file = [own, folder].into_iter().find(|p| p.is_file());
            let Some(file) = file else {
                return Ok(default);
            };
            let text = fs::read_to_string(&file).unwrap_or_default();
            text.trim()
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| GradeError::Points {
                    path: file.display().to_string(),
                    found: text.trim().chars().take(40).collect(),
                })
        })
        .collect()
}

/// The placeholder replaced by the student's folder in a command.
pub const PLACEHOLDER: &str = "{submission}";

/// `command` with `{submission}` replaced by `folder`, quoted for the shell (a
/// student names the folder, so its name may hold anything).
pub fn substitute(command: &str, folder: &Path) -> String {
    let quoted = format!("'{}'", folder.display().to_string().replace('\'', r"'\''"));
    command.replace(PLACEHOLDER, &quoted)
}

/// The first file that `command` names in the student's folder (a word holding
/// `{submission}/`) and that does not exist there.
pub fn missing_file(command: &str, folder: &Path) -> Option<String> {
    command
        .split_whitespace()
        .map(|word| word.trim_matches(|c| c == '"' || c == '\''))
        .filter_map(|word| word.split_once(&format!("{PLACEHOLDER}/")))
        .map(|(_, relative)| relative)
        .find(|relative| !folder.join(relative).exists())
        .map(str::to_string)
}

/// What went wrong in some of a student's cases: one mistake (or verdict), the cases
/// it affects, and the first one's explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MistakeGroup {
    /// The mistake's label, or the verdict and what happened.
    pub label: String,
    /// The cases it affects, in case order.
    #[serde(serialize_with = "serialize_names")]
    pub cases: Vec<String>,
    /// The `check` explanation, or the row's detail, of the first case.
    pub example: String,
}

/// The mistakes of `results` that did not pass, each once, the most common first.
pub fn group_mistakes(results: &[CaseResult]) -> Vec<MistakeGroup> {
    let mut groups: Vec<MistakeGroup> = Vec::new();
    for result in results.iter().filter(|r| r.verdict != Verdict::Pass) {
        let label = match (&result.report, result.verdict) {
            // (the same label as `check` gives the mistake)
            _ if result.depends_on_cr => Mistake::InputCarriageReturn.label().to_string(),
            (Some(report), Verdict::Fail) => match report.difference.as_ref() {
                Some(difference) => match difference.mistake {
                    Some(mistake) => mistake.label().to_string(),
                    None => "a difference that is no known mistake".into(),
                },
                None => "differs".into(),
            },
            (_, verdict) => verdict.word().to_string(),
        };
        let example = match &result.report {
            Some(report) => report.to_string(),
            None => format!("{}\n", result.detail),
        };
        match groups.iter_mut().find(|g| g.label == label) {
            Some(group) => group.cases.push(result.case.clone()),
            None => groups.push(MistakeGroup {
                label,
                cases: vec![result.case.clone()],
                example,
            }),
        }
    }
    // Stable: equal counts keep their first appearance's order.
    groups.sort_by_key(|group| std::cmp::Reverse(group.cases.len()));
    groups
}

/// The grade of one student.
#[derive(Clone, Debug, Serialize)]
pub struct StudentGrade {
    /// The submission's folder name.
    #[serde(serialize_with = "serialize_name")]
    pub student: String,
    /// The file the command names that the submission lacks (then no case ran).
    pub missing_file: Option<String>,
    /// Each case run, in case order.
    pub cases: Vec<CaseResult>,
    /// Points of the cases passed under the policy.
    pub score: f64,
    /// Points of all cases.
    pub max_score: f64,
    /// Cases passed under the policy.
    pub passed: usize,
    /// Cases byte for byte right, whatever the policy.
    pub byte_exact: usize,
    /// Cases in all.
    pub total: usize,
    /// The mistakes, each once, the most common first.
    pub mistakes: Vec<MistakeGroup>,
    /// Whether the grading was interrupted before every case ran.
    pub interrupted: bool,
}

impl StudentGrade {
    /// The grade of `results` (a prefix of the cases when interrupted), each case
    /// worth `points`.
    pub fn of(student: &str, results: Vec<CaseResult>, points: &[f64]) -> StudentGrade {
        let mut grade = StudentGrade {
            student: student.to_string(),
            missing_file: None,
            score: 0.0,
            max_score: points.iter().sum(),
            passed: 0,
            byte_exact: 0,
            total: points.len(),
            mistakes: group_mistakes(&results),
            interrupted: results.len() < points.len()
                || results.iter().any(|r| r.verdict == Verdict::Interrupted),
            cases: Vec::new(),
        };
        for (result, points) in results.iter().zip(points) {
            if result.verdict == Verdict::Pass {
                grade.passed += 1;
                grade.score += points;
            }
            if result.report.as_ref().is_some_and(|r| r.identical) {
                grade.byte_exact += 1;
            }
        }
        grade.cases = results;
        grade
    }

    /// The grade of a submission without the file the command names: no case ran.
    pub fn missing(student: &str, file: String, points: &[f64]) -> StudentGrade {
        StudentGrade {
            student: student.to_string(),
            missing_file: Some(file),
            cases: Vec::new(),
            score: 0.0,
            max_score: points.iter().sum(),
            passed: 0,
            byte_exact: 0,
            total: points.len(),
            mistakes: Vec::new(),
            interrupted: false,
        }
    }

    /// The most common mistake, in words, for the student's row.
    pub fn most_common(&self) -> String {
        if let Some(file) = &self.missing_file {
            return format!("MISSING FILE: no {}", printable(file));
        }
        match self.mistakes.first() {
            None => String::new(),
            Some(group) => format!("{} ({} of {})", group.label, group.cases.len(), self.total),
        }
    }
}

/// How a class is graded.
pub struct GradeOptions<'a> {
    /// The cases every student runs.
    pub cases: &'a [Case],
    /// The points of each case.
    pub points: &'a [f64],
    /// The command, with `{submission}`.
    pub command: &'a str,
    /// The sandbox, to which each student's folder is added read-only.
    pub sandbox: &'a Sandbox,
    /// How a case passes.
    pub policy: Policy,
    /// Cases run at once.
    pub jobs: usize,
    /// Set (by Ctrl-C) to stop starting cases.
    pub stop: Option<&'a AtomicBool>,
}

/// Grades one submission: every case, in the sandbox with the submission shown.
pub fn grade_student(
    submission: &Submission,
    options: &GradeOptions,
    observer: &mut dyn FnMut(batch::Update),
) -> Result<StudentGrade, SandboxError> {
    if let Some(file) = missing_file(options.command, &submission.folder) {
        return Ok(StudentGrade::missing(
            &submission.name,
            file,
            options.points,
        ));
    }
    let batch_options = BatchOptions {
        runner: Runner::Program {
            command: substitute(options.command, &submission.folder),
            sandbox: options.sandbox.showing(&submission.folder)?,
        },
        lenient: options.policy == Policy::Lenient,
        jobs: options.jobs,
        keep: None,
        stop: options.stop,
    };
    let results = batch::run(options.cases, &batch_options, observer);
    Ok(StudentGrade::of(&submission.name, results, options.points))
}

/// The isolation every run of a class got, for its reports.
pub fn isolation_words(isolation: Isolation) -> String {
    isolation.words()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_quoted_for_the_shell() {
        let folder = Path::new("/subs/o'neil $(rm -rf ~)");
        assert_eq!(
            substitute("python3 {submission}/hw.py", folder),
            r"python3 '/subs/o'\''neil $(rm -rf ~)'/hw.py"
        );
    }

    #[test]
    fn a_named_file_missing_from_the_submission_is_found() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("hw.py"), "").unwrap();
        assert_eq!(missing_file("python3 {submission}/hw.py", dir.path()), None);
        assert_eq!(
            missing_file("python3 \"{submission}/hw1cs561s2017.py\"", dir.path()),
            Some("hw1cs561s2017.py".into())
        );
        assert_eq!(missing_file("java -cp {submission} Hw", dir.path()), None);
    }
}
