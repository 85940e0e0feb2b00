//! `reversi grade`: a class of submissions against the same cases, with the reports
//! the platforms read.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use super::grader::{
    parse_seconds, refuse_readable_cases, refuse_showing_cases, write_whole, Progress,
};
use super::sandbox::SandboxArgs;
use crate::grader::batch::find_cases;
use crate::grader::grade::{
    case_points, find_submissions, grade_student, isolation_words, GradeError, GradeOptions,
    Policy, StudentGrade, Submission, PLACEHOLDER,
};
use crate::grader::package as bundle;
use crate::grader::platform::{self, csv, gradescope, junit, text, vocareum};
use crate::grader::printable::printable;
use crate::sandbox;

/// Arguments of `reversi grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The submissions: one folder per student (or, with --single, one student's
    /// folder).
    submissions: PathBuf,
    /// The cases every student runs (as `batch`: folders with input.txt and
    /// output.txt, or NAME.in and NAME.out; a `points` file beside a case weighs it).
    #[arg(long, value_name = "DIR")]
    cases: PathBuf,
    /// The student's program: a shell command run in each case's fresh work folder,
    /// `{submission}` replaced by the student's folder (shown read-only), e.g.
    /// "python3 {submission}/hw1cs561s2017.py".
    #[arg(long, value_name = "COMMAND")]
    run: String,
    /// SUBMISSIONS is one student's folder (on Gradescope or Vocareum).
    #[arg(long)]
    single: bool,
    /// How a case passes; every report states it.
    #[arg(long, value_enum, default_value_t = CompareArg::Strict)]
    compare: CompareArg,
    /// The points of a case without a `points` file of its own.
    #[arg(long, value_name = "N", default_value_t = 1.0, value_parser = parse_points)]
    points: f64,
    /// Wall time of each run, in seconds; then every process of the run is killed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
    /// Cases run at once [default: the number of cores].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Write a CSV table (student, score, per-case verdicts) to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Print the results as JSON instead of rows.
    #[arg(long)]
    json: bool,
    /// Write one report per student to this folder, as STUDENT.txt.
    #[arg(long, value_name = "DIR")]
    reports: Option<PathBuf>,
    /// Write JUnit XML (a testsuite per student) to this file.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write Gradescope's results.json to this file (with --single).
    #[arg(long, value_name = "FILE", requires = "single")]
    gradescope: Option<PathBuf>,
    /// Write Vocareum's grade file and report to $vocareumGradeFile and
    /// $vocareumReportFile (with --single).
    #[arg(long, requires = "single")]
    vocareum: bool,
    /// The Vocareum rubric criterion that gets the score.
    #[arg(long, value_name = "NAME", default_value = "Correctness")]
    criterion: String,
    /// A second Vocareum criterion that gets the number of byte-exact cases.
    #[arg(long, value_name = "NAME")]
    exact_criterion: Option<String>,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

/// A number of points: finite and not negative.
fn parse_points(text: &str) -> std::result::Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|p| p.is_finite() && *p >= 0.0)
        .ok_or_else(|| format!("expected a number of points (such as 2 or 0.5); found {text:?}"))
}

/// `--compare`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum CompareArg {
    /// Byte for byte.
    Strict,
    /// As the Fall 2014 grader: CR, trailing whitespace and trailing blank lines
    /// ignored.
    Lenient,
}

/// Ctrl-C: the running programs are killed and no more cases start.
extern "C" fn on_interrupt(_: libc::c_int) {
    sandbox::stop_all();
    // SAFETY: signal(2) is async-signal-safe; a second Ctrl-C ends the grader.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// The grading was interrupted: what was done is reported (exit 130).
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {done} of {total} students graded; their reports are written")]
pub struct Interrupted {
    done: usize,
    total: usize,
}

/// `reversi grade`: grades every submission, prints a row per student and the
/// totals, and writes the reports asked for.
pub fn grade(args: &GradeArgs) -> Result<()> {
    if !args.run.contains(PLACEHOLDER) {
        return Err(GradeError::NoPlaceholder.into());
    }
    let submissions = if args.single {
        vec![Submission {
            name: args
                .submissions
                .file_name()
                .map_or_else(|| "submission".into(), |n| n.to_string_lossy().into_owned()),
            folder: fs::canonicalize(&args.submissions).map_err(|e| GradeError::Folder {
                path: args.submissions.display().to_string(),
                reason: e.to_string(),
            })?,
        }]
    } else {
        find_submissions(&args.submissions)?
    };
    let cases = find_cases(&args.cases)?;
    let points = case_points(&cases, args.points)?;
    let mut shown = args.sandbox.read_only().to_vec();
    shown.push(args.submissions.clone());
    refuse_showing_cases(&args.cases, &shown)?;
    let sandbox = args.sandbox.sandbox(args.timeout)?;
    refuse_readable_cases(&sandbox, &cases)?;
    let policy = match args.compare {
        CompareArg::Strict => Policy::Strict,
        CompareArg::Lenient => Policy::Lenient,
    };
    let jobs = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => thread::available_parallelism().map_or(1, usize::from),
    };
    // SAFETY: installs a handler that only stores to an atomic and calls signal.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
    let options = GradeOptions {
        cases: &cases,
        points: &points,
        command: &args.run,
        sandbox: &sandbox,
        policy,
        jobs,
        stop: Some(sandbox::stop_flag()),
    };
    let width = submissions.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut grades = Vec::new();
    let mut progress = Progress::new();
    for submission in &submissions {
        if sandbox::stop_flag().load(Ordering::SeqCst) {
            break;
        }
        let grade = grade_student(submission, &options, &mut |update| {
            progress.draw(update.done, update.total);
        })?;
        progress.clear();
        if !args.json {
            super::grader::print_out(&student_row(&grade, width))?;
        }
        grades.push(grade);
    }
    write_reports(
        args,
        &grades,
        &cases_names(&cases),
        &points,
        policy,
        &sandbox,
    )?;
    if args.json {
        let report = serde_json::json!({
            "policy": policy,
            "isolation": sandbox.isolation(),
            "students": grades,
        });
        super::grader::print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        super::grader::print_out(&totals(&grades, policy, sandbox.isolation()))?;
    }
    if grades.len() < submissions.len() || grades.iter().any(|g| g.interrupted) {
        return Err(Interrupted {
            done: grades.iter().filter(|g| !g.interrupted).count(),
            total: submissions.len(),
        }
        .into());
    }
    Ok(())
}

fn cases_names(cases: &[crate::grader::batch::Case]) -> Vec<String> {
    cases.iter().map(|c| c.name.clone()).collect()
}

/// A student's row: score, cases passed under the policy and byte for byte, and the
/// most common mistake.
fn student_row(grade: &StudentGrade, width: usize) -> String {
    let score = format!(
        "{}/{} points",
        platform::points(grade.score),
        platform::points(grade.max_score)
    );
    let passed = format!("{}/{} passed", grade.passed, grade.total);
    let row = format!(
        "{:<width$}  {score:<14} {passed:<14} {:>3} byte-exact  {}",
        printable(&grade.student),
        grade.byte_exact,
        grade.most_common()
    );
    format!("{}\n", row.trim_end())
}

/// The totals: how many students passed every case, under the policy and byte for
/// byte, and the mean score.
fn totals(grades: &[StudentGrade], policy: Policy, isolation: crate::sandbox::Isolation) -> String {
    let count = grades.len();
    let all = grades.iter().filter(|g| g.passed == g.total).count();
    let exact = grades.iter().filter(|g| g.byte_exact == g.total).count();
    let mean = if count == 0 {
        0.0
    } else {
        grades.iter().map(|g| g.score).sum::<f64>() / count as f64
    };
    let max = grades.first().map_or(0.0, |g| g.max_score);
    let students = if count == 1 { "student" } else { "students" };
    format!(
        "{count} {students}: mean score {}/{}; {all} passed every case ({}), {exact} byte for \
         byte\nisolation: {}\n",
        platform::points(mean),
        platform::points(max),
        policy.description(),
        isolation_words(isolation)
    )
}

/// Writes `--csv`, `--reports`, `--junit`, `--gradescope` and `--vocareum`.
fn write_reports(
    args: &GradeArgs,
    grades: &[StudentGrade],
    cases: &[String],
    points: &[f64],
    policy: Policy,
    sandbox: &crate::sandbox::Sandbox,
) -> Result<()> {
    let write = |path: &Path, text: &str| write_whole(path, text.as_bytes());
    if let Some(path) = &args.csv {
        write(path, &csv::class_table(grades, cases))?;
    }
    if let Some(folder) = &args.reports {
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        for grade in grades {
            let report = text::student_report(grade, policy, sandbox.isolation());
            write(&folder.join(format!("{}.txt", grade.student)), &report)?;
        }
    }
    if let Some(path) = &args.junit {
        write(path, &junit::document(grades))?;
    }
    let single = grades.first().filter(|_| args.single);
    if let (Some(path), Some(grade)) = (&args.gradescope, single) {
        let results = gradescope::results(grade, points, policy, sandbox.isolation());
        write(path, &serde_json::to_string_pretty(&results)?)?;
    }
    if let (true, Some(grade)) = (args.vocareum, single) {
        let variable = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .ok_or_else(|| GradeError::Vocareum {
                    variable: name.into(),
                })
        };
        let grade_file = variable("vocareumGradeFile")?;
        let report_file = variable("vocareumReportFile")?;
        write(
            &grade_file,
            &vocareum::grade_file(grade, &args.criterion, args.exact_criterion.as_deref()),
        )?;
        write(
            &report_file,
            &text::student_report(grade, policy, sandbox.isolation()),
        )?;
    }
    Ok(())
}

/// Arguments of `reversi package`.
#[derive(Debug, Args)]
pub struct PackageArgs {
    /// The platform.
    #[arg(value_enum)]
    platform: PlatformArg,
    /// The cases every submission runs.
    #[arg(long, value_name = "DIR")]
    cases: PathBuf,
    /// The student's program, with {submission} (as `grade --run`).
    #[arg(long, value_name = "COMMAND")]
    run: String,
    /// Where to write the bundle: a new zip file (gradescope) or folder (vocareum).
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// Wall time of each run, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
    /// How a case passes.
    #[arg(long, value_enum, default_value_t = CompareArg::Strict)]
    compare: CompareArg,
    /// A Debian package the platform's image needs for the students' language
    /// (python3, openjdk-17-jdk, g++; Gradescope's setup.sh installs them).
    #[arg(long = "apt", value_name = "PACKAGE")]
    packages: Vec<String>,
}

/// `reversi package`'s platforms.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum PlatformArg {
    /// Gradescope: autograder.zip with setup.sh and run_autograder.
    Gradescope,
    /// Vocareum: a folder with grade.sh for the assignment's library.
    Vocareum,
}

/// `reversi package`: writes the bundle and says what to do with it.
pub fn package(args: &PackageArgs) -> Result<()> {
    if !args.run.contains(PLACEHOLDER) {
        return Err(GradeError::NoPlaceholder.into());
    }
    // The cases must be readable cases: the same check `grade` makes.
    let cases = find_cases(&args.cases)?;
    case_points(&cases, 1.0)?;
    let platform = match args.platform {
        PlatformArg::Gradescope => bundle::Platform::Gradescope,
        PlatformArg::Vocareum => bundle::Platform::Vocareum,
    };
    let recipe = bundle::Recipe {
        command: args.run.clone(),
        timeout: args.timeout.as_secs_f64(),
        compare: match args.compare {
            CompareArg::Strict => "strict".into(),
            CompareArg::Lenient => "lenient".into(),
        },
        packages: args.packages.clone(),
    };
    let binary = std::env::current_exe().context("cannot find this program's own file")?;
    bundle::write_bundle(platform, &recipe, &args.cases, &binary, &args.out)?;
    let next = match platform {
        bundle::Platform::Gradescope => {
            "upload it as the assignment's autograder (Configure Autograder > Zip file \
             upload, base image Ubuntu 24.04)"
        }
        bundle::Platform::Vocareum => {
            "upload its files to the assignment's library (Configure Workspace > \
             Library) and set grade.sh as the grading script"
        }
    };
    super::grader::print_out(&format!(
        "wrote {} ({} cases): {next}\n",
        args.out.display(),
        cases.len()
    ))
}
