//! `grade`: a class of submissions, each run on the same cases in the sandbox, scored
//! under a pass policy, with each student's mistakes grouped so that a report says
//! "24 cases fail only on CRLF line ends" once, not 24 times.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::explain::check::Mistake;
use crate::grading::batch::{
    self, find_cases, BatchError, BatchOptions, Case, CaseResult, Runner, Slots, Verdict,
};
use crate::grading::language::{self, BuildError, Toolchain};
use crate::grading::shard::Shard;
use crate::printable::{printable, serialize_name, serialize_names};
use crate::sandbox::policy::{self, PolicyError};
use crate::sandbox::{Sandbox, SandboxError};

mod class;
mod command;
pub mod journal;
mod scoring;

pub use class::{grade_class, ClassEvent};
pub use command::{locate, substitute, PLACEHOLDER};
pub use scoring::Scoring;

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
    /// `--github-classroom` outside a GitHub Actions step: `$GITHUB_OUTPUT` is unset.
    #[error(
        "$GITHUB_OUTPUT is not set: --github-classroom runs as a step of a GitHub Actions workflow"
    )]
    GithubOutput,
    /// An Autolab problem name that Autolab's reading of the autoresult would break.
    #[error(
        "{name:?}: not a problem name Autolab can read back (it must be printable, without \
         a colon, a quote or a backslash)"
    )]
    AutolabProblem {
        /// The name.
        name: String,
    },
    /// The command does not name `{submission}`.
    #[error(
        "the command does not name {{submission}}, the student's folder: every student \
         would run the same program (e.g. --run \"python3 {{submission}}/hw1.py\")"
    )]
    NoPlaceholder,
    /// A case's `visibility` file does not hold one of Gradescope's words.
    #[error(
        "{path}: expected a visibility (visible, hidden, after_due_date or \
         after_published); found {found:?}"
    )]
    Visibility {
        /// The file.
        path: String,
        /// What it holds.
        found: String,
    },
    /// The cases cannot be found.
    #[error(transparent)]
    Cases(#[from] BatchError),
}

/// Who sees a case's test, in Gradescope's words. A case that is not `visible`
/// keeps its expected output and its explanation out of every report: only the
/// verdict and the kind of mistake are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Always shown.
    #[default]
    Visible,
    /// Never shown to the student.
    Hidden,
    /// Shown after the due date.
    AfterDueDate,
    /// Shown once the grades are published.
    AfterPublished,
}

impl Visibility {
    /// Gradescope's word for it.
    pub fn word(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }
}

/// The visibility of each case: the word in a `visibility` file beside it
/// (`NAME.visibility` for a pair, else the folder's `visibility`), or visible.
pub fn case_visibility(cases: &[Case]) -> Result<Vec<Visibility>, GradeError> {
    cases
        .iter()
        .map(|case| {
            let own = case.input.with_extension("visibility");
            let folder = case.input.with_file_name("visibility");
            let Some(file) = [own, folder].into_iter().find(|p| p.is_file()) else {
                return Ok(Visibility::Visible);
            };
            let text = fs::read_to_string(&file).unwrap_or_default();
            [
                Visibility::Visible,
                Visibility::Hidden,
                Visibility::AfterDueDate,
                Visibility::AfterPublished,
            ]
            .into_iter()
            .find(|v| v.word() == text.trim())
            .ok_or_else(|| GradeError::Visibility {
                path: file.display().to_string(),
                found: text.trim().chars().take(40).collect(),
            })
        })
        .collect()
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
    /// The student's name: the folder's, or the one given.
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
    /// How each student's program runs.
    pub program: &'a ProgramSpec,
    /// With `single`, the student's name (else the folder's).
    pub name: Option<&'a str>,
    /// Only this slice of the class (`--shard K/N`).
    pub shard: Option<Shard>,
}

/// How each student's program runs.
#[derive(Clone, Debug)]
pub enum ProgramSpec {
    /// A shell command with `{submission}` (`--run`), for anything.
    Run(String),
    /// As the handout has it: by what the submission holds (Python, Java, C++).
    Languages(Toolchain),
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
    /// Who sees each case.
    pub visibility: Vec<Visibility>,
    submissions_folder: PathBuf,
    cases_folder: PathBuf,
    program: ProgramSpec,
}

impl Class {
    /// Finds the submissions, the cases and their points that `request` names, and
    /// refuses a command that does not name `{submission}`.
    pub fn find(request: &ClassRequest) -> Result<Class, GradeError> {
        if let ProgramSpec::Run(command) = request.program {
            if !command.contains(PLACEHOLDER) {
                return Err(GradeError::NoPlaceholder);
            }
        }
        let submissions = if request.single {
            let folder = request.submissions;
            vec![Submission {
                name: request.name.map(str::to_string).unwrap_or_else(|| {
                    folder
                        .file_name()
                        .map_or_else(|| "submission".into(), |n| n.to_string_lossy().into_owned())
                }),
                folder: fs::canonicalize(folder).map_err(|e| GradeError::Folder {
                    path: folder.display().to_string(),
                    reason: e.to_string(),
                })?,
            }]
        } else {
            let all = find_submissions(request.submissions)?;
            match request.shard {
                Some(shard) => shard.select(all),
                None => all,
            }
        };
        let cases = find_cases(request.cases)?;
        let points = case_points(&cases, request.points)?;
        let visibility = case_visibility(&cases)?;
        Ok(Class {
            submissions,
            cases,
            points,
            visibility,
            submissions_folder: request.submissions.to_path_buf(),
            cases_folder: request.cases.to_path_buf(),
            program: request.program.clone(),
        })
    }

    /// Refuses to grade the class in `sandbox` where its policy says no: the
    /// submissions or a path shown holds the cases, a run could read an expected
    /// output, a student's folder is closed to the run, or the command names a file
    /// or runs a program (an interpreter, a compiler the class needs) the programs
    /// cannot see.
    pub fn admit(&self, sandbox: &Sandbox) -> Result<(), PolicyError> {
        let mut shown = sandbox.read_only().to_vec();
        shown.push(self.submissions_folder.clone());
        policy::refuse_showing_cases(&self.cases_folder, &shown)?;
        let expected = self.cases.iter().map(|c| c.expected.as_path());
        policy::refuse_readable_cases(sandbox, expected)?;
        for submission in &self.submissions {
            policy::refuse_hidden_submission(sandbox, &submission.folder)?;
        }
        match &self.program {
            ProgramSpec::Run(command) => policy::refuse_unseen_files(command, sandbox),
            ProgramSpec::Languages(toolchain) => {
                let mut programs: Vec<String> = Vec::new();
                for submission in &self.submissions {
                    if let Some(found) = language::find(&submission.folder, toolchain) {
                        for program in toolchain.programs(found.language) {
                            if !programs.contains(&program) {
                                programs.push(program);
                            }
                        }
                    }
                }
                programs
                    .iter()
                    .try_for_each(|program| policy::refuse_unseen_program(program, sandbox))
            }
        }
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

/// What went wrong in some of a student's cases: one mistake (or verdict), the cases
/// it affects, and the first one's explanation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
            _ if result.depends_on_cr => Mistake::InputCr.label().to_string(),
            (Some(report), Verdict::Fail) => match report.difference.as_ref() {
                Some(difference) => match difference.mistake {
                    Some(mistake) => mistake.label().to_string(),
                    None if report.ambiguous => {
                        let labels: Vec<&str> = report
                            .candidates
                            .iter()
                            .map(|c| c.mistake.label())
                            .collect();
                        format!("one of: {}", labels.join(" or "))
                    }
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudentGrade {
    /// The submission's folder name.
    #[serde(serialize_with = "serialize_name")]
    pub student: String,
    /// The file the command names that the submission lacks (then no case ran).
    pub missing_file: Option<String>,
    /// Why the program did not build (then no case ran).
    pub compile_error: Option<String>,
    /// The program graded, where it was found, when not plainly the command's.
    pub program: Option<String>,
    /// Each case run, in case order.
    pub cases: Vec<CaseResult>,
    /// Points of the cases passed under the policy (or the score under `scoring`).
    pub score: f64,
    /// Points of all cases (or the most under `scoring`).
    pub max_score: f64,
    /// The rule that made `score` from the cases passed.
    #[serde(default)]
    pub scoring: Scoring,
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
    /// Wall time of the student's grading (its build and every case), in seconds.
    pub seconds: f64,
}

impl StudentGrade {
    /// The grade of `results` (a prefix of the cases when interrupted), each case
    /// worth `points`.
    pub fn of(student: &str, results: Vec<CaseResult>, points: &[f64]) -> StudentGrade {
        let mut grade = StudentGrade {
            student: student.to_string(),
            missing_file: None,
            compile_error: None,
            program: None,
            score: 0.0,
            max_score: points.iter().sum(),
            scoring: Scoring::Points,
            passed: 0,
            byte_exact: 0,
            total: points.len(),
            mistakes: group_mistakes(&results),
            interrupted: results.len() < points.len()
                || results.iter().any(|r| r.verdict == Verdict::Interrupted),
            cases: Vec::new(),
            seconds: 0.0,
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

    /// The grade of a submission none of whose cases could run: each case gets
    /// `verdict` and `detail`.
    pub fn not_run(
        student: &str,
        verdict: Verdict,
        detail: &str,
        cases: &[Case],
        points: &[f64],
    ) -> StudentGrade {
        let results = cases
            .iter()
            .map(|case| CaseResult {
                case: case.name.clone(),
                verdict,
                detail: detail.to_string(),
                seconds: 0.0,
                report: None,
                depends_on_cr: false,
            })
            .collect();
        StudentGrade::of(student, results, points)
    }

    /// The grade of a student whose grading has done `results` so far (a prefix of
    /// `cases`): every other case is NOT RUN with `detail`. What a report written
    /// while the grading runs shows.
    pub fn partial(
        student: &str,
        mut results: Vec<CaseResult>,
        cases: &[Case],
        points: &[f64],
        detail: &str,
    ) -> StudentGrade {
        for case in cases.iter().skip(results.len()) {
            results.push(CaseResult {
                case: case.name.clone(),
                verdict: Verdict::NotRun,
                detail: detail.to_string(),
                seconds: 0.0,
                report: None,
                depends_on_cr: false,
            });
        }
        StudentGrade::of(student, results, points)
    }

    /// The grade of a submission without the file the command names: no case ran.
    pub fn missing(student: &str, file: String, cases: &[Case], points: &[f64]) -> StudentGrade {
        let detail = format!("the submission has no {}", printable(&file));
        let mut grade =
            StudentGrade::not_run(student, Verdict::MissingFile, &detail, cases, points);
        grade.missing_file = Some(file);
        grade
    }

    /// The grade of a submission whose program did not build: no case ran.
    pub fn unbuilt(student: &str, error: String, cases: &[Case], points: &[f64]) -> StudentGrade {
        let mut grade =
            StudentGrade::not_run(student, Verdict::CompileError, &error, cases, points);
        grade.compile_error = Some(error);
        grade
    }

    /// Keeps what the cases not `visible` expect out of the grade: their rows keep
    /// the verdict and the kind of mistake only, and a mistake's explanation comes
    /// from a visible case, or is withheld.
    pub fn hide(&mut self, visibility: &[Visibility]) {
        let hidden = |name: &str| {
            self.cases
                .iter()
                .position(|c| c.case == name)
                .is_some_and(|i| visibility.get(i).is_some_and(|v| *v != Visibility::Visible))
        };
        for group in &mut self.mistakes {
            if !hidden(&group.cases[0]) {
                continue;
            }
            let visible = group.cases.iter().find(|name| !hidden(name));
            let result = visible.and_then(|name| self.cases.iter().find(|c| &c.case == name));
            group.example = match result {
                Some(CaseResult {
                    report: Some(report),
                    ..
                }) => report.to_string(),
                Some(result) => format!("{}\n", result.detail),
                None => {
                    "(the cases of this mistake are hidden: its explanation is withheld)\n".into()
                }
            };
        }
        let labels: Vec<Option<String>> = self
            .cases
            .iter()
            .map(|result| {
                self.mistakes
                    .iter()
                    .find(|g| g.cases.contains(&result.case))
                    .map(|g| g.label.clone())
            })
            .collect();
        for ((result, visibility), label) in self.cases.iter_mut().zip(visibility).zip(labels) {
            if *visibility == Visibility::Visible {
                continue;
            }
            result.report = None;
            result.detail = match (result.verdict, label) {
                (Verdict::Pass, _) => String::new(),
                (_, Some(label)) if label != result.verdict.word() => {
                    format!("hidden case: {label}")
                }
                _ => "hidden case".into(),
            };
        }
    }

    /// The most common mistake, in words, for the student's row.
    pub fn most_common(&self) -> String {
        if let Some(file) = &self.missing_file {
            return format!("MISSING FILE: no {}", printable(file));
        }
        if let Some(error) = &self.compile_error {
            return format!("COMPILE ERROR: {error}");
        }
        match self.mistakes.first() {
            None => String::new(),
            Some(group) => format!("{} ({} of {})", group.label, group.cases.len(), self.total),
        }
    }
}

/// How a class is graded.
#[derive(Clone, Copy)]
pub struct GradeOptions<'a> {
    /// The cases every student runs.
    pub cases: &'a [Case],
    /// The points of each case.
    pub points: &'a [f64],
    /// Who sees each case.
    pub visibility: &'a [Visibility],
    /// How each student's program runs.
    pub program: &'a ProgramSpec,
    /// The sandbox, to which each student's folder is added read-only.
    pub sandbox: &'a Sandbox,
    /// How a case passes.
    pub policy: Policy,
    /// Cases run at once.
    pub jobs: usize,
    /// Set (by Ctrl-C) to stop starting cases.
    pub stop: Option<&'a AtomicBool>,
    /// Program runs allowed at once across students graded side by side.
    pub slots: Option<&'a Slots>,
    /// When the grading's time budget ends (`--budget`): nothing starts later
    /// ([`batch::BUDGET_SPENT`]); `sandbox` should end what still runs then
    /// ([`crate::sandbox::Sandbox::until`], [`batch::BUDGET_ENDED`]).
    pub deadline: Option<std::time::Instant>,
}

/// Grades one submission: its program found (and built), then every case, in the
/// sandbox with the submission (and its build) shown.
pub fn grade_student(
    submission: &Submission,
    options: &GradeOptions,
    observer: &mut dyn FnMut(batch::Update),
) -> Result<StudentGrade, SandboxError> {
    let start = std::time::Instant::now();
    let mut grade = grade_program(submission, options, observer)?;
    grade.hide(options.visibility);
    grade.seconds = start.elapsed().as_secs_f64();
    Ok(grade)
}

fn grade_program(
    submission: &Submission,
    options: &GradeOptions,
    observer: &mut dyn FnMut(batch::Update),
) -> Result<StudentGrade, SandboxError> {
    let name = &submission.name;
    let (cases, points) = (options.cases, options.points);
    let shown = options.sandbox.showing(&submission.folder)?;
    let (command, program, build) = match options.program {
        ProgramSpec::Run(command) => match locate(command, &submission.folder) {
            Err(file) => return Ok(StudentGrade::missing(name, file, cases, points)),
            Ok(folder) => {
                let program = folder
                    .strip_prefix(&submission.folder)
                    .ok()
                    .and_then(|inner| {
                        (!inner.as_os_str().is_empty())
                            .then(|| format!("in {}/, one folder down", inner.display()))
                    });
                (substitute(command, &folder), program, None)
            }
        },
        ProgramSpec::Languages(toolchain) => {
            let Some(found) = language::find(&submission.folder, toolchain) else {
                return Ok(StudentGrade::missing(
                    name,
                    toolchain.wanted(),
                    cases,
                    points,
                ));
            };
            if found.language.built() && !batch::time_left(options.deadline) {
                let spent = batch::BUDGET_SPENT;
                let mut grade = StudentGrade::not_run(name, Verdict::NotRun, spent, cases, points);
                grade.program = Some(found.description());
                return Ok(grade);
            }
            match language::build(&found, toolchain, &shown) {
                Ok(built) => (built.command, Some(found.description()), built.build),
                Err(BuildError::Compile(error)) => {
                    let mut grade = StudentGrade::unbuilt(name, error, cases, points);
                    grade.program = Some(found.description());
                    return Ok(grade);
                }
                Err(BuildError::Budget) => {
                    let ended = batch::BUDGET_ENDED;
                    let mut grade =
                        StudentGrade::not_run(name, Verdict::NotRun, ended, cases, points);
                    grade.program = Some(found.description());
                    return Ok(grade);
                }
                Err(error @ BuildError::Io(_)) => {
                    let detail = error.to_string();
                    let mut grade =
                        StudentGrade::not_run(name, Verdict::Error, &detail, cases, points);
                    grade.program = Some(found.description());
                    return Ok(grade);
                }
            }
        }
    };
    let sandbox = match &build {
        Some(build) => shown.showing(&build.path())?,
        None => shown,
    };
    let batch_options = BatchOptions {
        runner: Runner::Program { command, sandbox },
        lenient: options.policy == Policy::Lenient,
        jobs: options.jobs,
        keep: None,
        stop: options.stop,
        slots: options.slots,
        deadline: options.deadline,
    };
    let results = batch::run(cases, &batch_options, observer);
    drop(build);
    let mut grade = StudentGrade::of(name, results, points);
    grade.program = program;
    Ok(grade)
}
