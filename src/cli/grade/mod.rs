//! `reversi grade`: a class of submissions against the same cases, with the reports
//! the platforms read.

use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};

use super::grader::{parse_seconds, print_out};
use super::sandbox::SandboxArgs;
use crate::grading::batch::{find_cases, CaseResult};
use crate::grading::grade::journal;
use crate::grading::grade::{
    case_points, case_visibility, grade_class, Class, ClassEvent, ClassRequest, GradeError,
    GradeOptions, Policy, ProgramSpec, Scoring, StudentGrade, Submission, PLACEHOLDER,
};
use crate::grading::language::{Language, Toolchain};
use crate::grading::package as bundle;
use crate::grading::platform::{self, Targets, VocareumFiles};
use crate::grading::shard::Shard;
use crate::printable::{printable, printable_json};
use crate::sandbox;

mod progress;
mod resume;

use progress::ClassProgress;
use resume::open_journal;

/// `reversi grade`: a class, or `grade merge` of the reports of its shards.
#[derive(Debug, Args)]
pub struct GradeCommand {
    #[command(subcommand)]
    command: Option<GradeSubcommand>,
    #[command(flatten)]
    grade: GradeArgs,
}

#[derive(Debug, Subcommand)]
enum GradeSubcommand {
    /// Join the reports of a class graded in shards (`grade --shard K/N`) into one,
    /// as one `grade` of the whole class writes it: CSV tables, JSON reports
    /// (--json), JUnit XML files, or folders of text reports (--reports), all of
    /// one kind.
    Merge(MergeArgs),
}

/// Arguments of `reversi grade merge`.
#[derive(Debug, Args)]
struct MergeArgs {
    /// The shards' reports, all of one kind.
    #[arg(required = true, value_name = "REPORT")]
    inputs: Vec<PathBuf>,
    /// Where to write the merged report (a folder for text reports).
    #[arg(short, long, value_name = "PATH")]
    out: PathBuf,
}

/// Arguments of `reversi grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The submissions: one folder per student (or, with --single, one student's
    /// folder).
    // Required, but an `Option` so that `grade merge` can be read.
    #[arg(required = true)]
    submissions: Option<PathBuf>,
    /// The cases every student runs (as `batch`: folders with input.txt and
    /// output.txt, or NAME.in and NAME.out; a `points` file beside a case weighs it).
    #[arg(long, value_name = "DIR", required = true)]
    cases: Option<PathBuf>,
    /// The student's program: a shell command run in each case's fresh work folder,
    /// `{submission}` replaced by the student's folder (shown read-only), e.g.
    /// "python3 {submission}/hw1cs561s2017.py". Without it, each submission is graded
    /// by what it holds (see --python).
    #[arg(long, value_name = "COMMAND")]
    run: Option<String>,
    #[command(flatten)]
    languages: LanguageArgs,
    /// SUBMISSIONS is one student's folder (on a grading platform).
    #[arg(long)]
    single: bool,
    /// With --single, the student's name in the reports (else the folder's).
    #[arg(long, value_name = "NAME", requires = "single")]
    name: Option<String>,
    /// Grade only the K-th of N slices of the class: the students at positions
    /// K, K+N, K+2N... in name order (from 1). `grade merge` joins the slices'
    /// reports.
    #[arg(long, value_name = "K/N", conflicts_with = "single", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// How a case passes; every report states it.
    #[arg(long, value_enum, default_value_t = CompareArg::Strict)]
    compare: CompareArg,
    /// The points of a case without a `points` file of its own.
    #[arg(long, value_name = "N", default_value_t = 1.0, value_parser = parse_points)]
    points: f64,
    /// How the cases passed make the score; every report states it.
    #[arg(long, value_enum, default_value_t = ScoreArg::Points)]
    score: ScoreArg,
    /// CPU time of each run (all its processes and threads), in seconds, with a
    /// wall-time net of 3 x SECONDS + 1; then every process of the run is killed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
    /// The time the whole grading may take, in seconds: cases (and builds) start
    /// while it lasts; what still runs when it ends is ended, and what did not start
    /// is not run (NOT RUN, 0 points); every case that finished keeps its points
    /// [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    budget: Option<Duration>,
    /// Go on with an earlier grading of this class that was stopped (killed, Ctrl-C,
    /// a reboot): every student it graded whole is kept, unless their folder changed
    /// since, and the others are graded. Give the options the earlier one had.
    #[arg(long, conflicts_with = "single")]
    resume: bool,
    /// Programs run at once, over two students graded side by side [default: the
    /// number of cores].
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
    /// The outputs of results.json: text, or Markdown (Gradescope's
    /// `output_format: "md"`: the report and each explanation in code blocks).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Text)]
    gradescope_format: FormatArg,
    /// Write Moodle VPL's evaluation lines (`Comment :=>>` and a last `Grade :=>>`)
    /// to this file (with --single), for the evaluation script to print.
    #[arg(long, value_name = "FILE", requires = "single")]
    vpl: Option<PathBuf>,
    /// Write a CodeRunner combinator grader's JSON (fraction, testresults,
    /// prologuehtml) to this file (with --single), for the template to print.
    #[arg(long, value_name = "FILE", requires = "single")]
    coderunner: Option<PathBuf>,
    /// Write Vocareum's grade file and report to $vocareumGradeFile and
    /// $vocareumReportFile (with --single).
    #[arg(long, requires = "single")]
    vocareum: bool,
    /// Write PrairieLearn's results.json to this file (with --single).
    #[arg(long, value_name = "FILE", requires = "single")]
    prairielearn: Option<PathBuf>,
    /// Append GitHub Classroom's step output `result` (base64 JSON, a score per
    /// case) to the file $GITHUB_OUTPUT names (with --single).
    #[arg(long, requires = "single")]
    github_classroom: bool,
    /// Print the student's report and, as the last line, Autolab's autoresult
    /// instead of rows (with --single).
    #[arg(long, requires = "single", conflicts_with = "json")]
    autolab: bool,
    /// With --autolab: one problem per case, named as the case, instead of the
    /// whole score to --criterion.
    #[arg(long, requires = "autolab")]
    per_case_problems: bool,
    /// The Vocareum rubric criterion, or the Autolab problem, that gets the score.
    #[arg(long, value_name = "NAME", default_value = "Correctness")]
    criterion: String,
    /// A second Vocareum criterion, or Autolab problem, that gets the number of
    /// byte-exact cases.
    #[arg(long, value_name = "NAME")]
    exact_criterion: Option<String>,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

/// How a submission is graded by what it holds, without `--run`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Languages (without --run)")]
pub struct LanguageArgs {
    /// The Python of a hw1cs561s2017.py whose #! line names neither python2 nor
    /// python3 (*.java is compiled with javac, *.cpp with g++ -O2).
    #[arg(long, value_enum, value_name = "VERSION", default_value_t = PythonArg::Python3)]
    python: PythonArg,
    /// The python2 interpreter: a name on the programs' PATH, or a full path (then
    /// show its installation with --read-only).
    #[arg(long, value_name = "PROGRAM", default_value = "python2")]
    python2: String,
    /// The python3 interpreter.
    #[arg(long, value_name = "PROGRAM", default_value = "python3")]
    python3: String,
    /// The Python file the handout names.
    #[arg(long, value_name = "NAME", default_value = "hw1cs561s2017.py")]
    python_file: String,
    /// Wall time of a Java or C++ build, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    build_time: Duration,
}

/// `--python`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum PythonArg {
    /// Python 2 (the Spring 2017 handout's).
    Python2,
    /// Python 3.
    Python3,
}

impl LanguageArgs {
    /// These flags as `grade` takes them, each one word (`--flag=value`).
    fn flags(&self) -> Vec<String> {
        let python = match self.python {
            PythonArg::Python2 => "python2",
            PythonArg::Python3 => "python3",
        };
        [
            ("--python", python.to_string()),
            ("--python2", self.python2.clone()),
            ("--python3", self.python3.clone()),
            ("--python-file", self.python_file.clone()),
            ("--build-time", self.build_time.as_secs_f64().to_string()),
        ]
        .into_iter()
        .map(|(flag, value)| format!("{flag}={value}"))
        .collect()
    }

    /// How each student's program runs: `run`, else by its language.
    pub fn program(&self, run: Option<&str>) -> ProgramSpec {
        match run {
            Some(command) => ProgramSpec::Run(command.to_string()),
            None => ProgramSpec::Languages(Toolchain {
                python_file: self.python_file.clone(),
                default_python: match self.python {
                    PythonArg::Python2 => Language::Python2,
                    PythonArg::Python3 => Language::Python3,
                },
                python2: self.python2.clone(),
                python3: self.python3.clone(),
                build_time: self.build_time,
            }),
        }
    }
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

/// `--gradescope-format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// Plain text.
    Text,
    /// Markdown.
    Md,
}

/// `--score`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ScoreArg {
    /// The points of the cases passed (`--points`, `points` files).
    Points,
    /// As the Fall 2014 grading agent: 100 when every case passes, else 50 x passed
    /// / cases (with --compare lenient, its grading).
    F2014,
}

impl ScoreArg {
    fn scoring(self) -> Scoring {
        match self {
            ScoreArg::Points => Scoring::Points,
            ScoreArg::F2014 => Scoring::F2014,
        }
    }
}

/// The grading was interrupted: what was done is reported (exit 130).
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {done} of {total} students graded; their reports are written{resume}")]
pub struct Interrupted {
    done: usize,
    total: usize,
    /// How to go on, when the grading keeps a journal.
    resume: &'static str,
}

/// `reversi grade`, or `grade merge`.
pub fn run(command: &GradeCommand) -> Result<()> {
    match &command.command {
        Some(GradeSubcommand::Merge(args)) => merge(args),
        None => grade(&command.grade).inspect_err(|error| {
            if error.downcast_ref::<Interrupted>().is_none() {
                report_failure(&command.grade, error);
            }
        }),
    }
}

/// A grading that failed before its end (no sandbox, a bad case, a report that
/// could not be written): the platforms' reports that none was written for say so,
/// with a score of 0 and the reason, where the bundle's script would otherwise have
/// only its own words. Warnings only: the error itself is what `grade` exits with.
fn report_failure(args: &GradeArgs, error: &anyhow::Error) {
    let reason = format!("{error:#}");
    if let Some(path) = &args.prairielearn {
        if !path.exists() {
            let text = platform::prairielearn::failure(&reason);
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("reversi: warning: cannot write {}: {e}", path.display());
            }
        }
    }
    let cases = args
        .cases
        .as_deref()
        .and_then(|cases| find_cases(cases).ok())
        .unwrap_or_default();
    // (not when the grading's own result is there: the error came after it)
    let written = std::env::var_os("GITHUB_OUTPUT")
        .and_then(|path| std::fs::read_to_string(path).ok())
        .is_some_and(|text| text.lines().any(|line| line.starts_with("result=")));
    if args.github_classroom && !written {
        let max_score = case_points(&cases, args.points).map_or(0.0, |p| p.iter().sum());
        let line = platform::github_classroom::output_line(&platform::github_classroom::failure(
            &reason, max_score,
        ));
        if let Err(e) = append_github_output(&line) {
            eprintln!("reversi: warning: {e}");
        }
    }
    if args.autolab {
        let problems = autolab_problems(args);
        let names: Vec<String> = cases.iter().map(|case| case.name.clone()).collect();
        let _ = print_out(&format!(
            "The autograder could not grade this submission: {}\n{}\n",
            crate::printable::terminal_text(&reason),
            platform::autolab::failure(&names, &problems)
        ));
    }
}

/// Appends `line` to the file `$GITHUB_OUTPUT` names (a step's outputs).
fn append_github_output(line: &str) -> Result<()> {
    use std::io::Write;
    let path = std::env::var_os("GITHUB_OUTPUT").ok_or(GradeError::GithubOutput)?;
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut file| file.write_all(line.as_bytes()));
    written.map_err(|source| {
        platform::WriteError {
            path: PathBuf::from(path).display().to_string(),
            source,
        }
        .into()
    })
}

/// The Autolab problems `--autolab` gives points to.
fn autolab_problems(args: &GradeArgs) -> platform::autolab::Problems {
    if args.per_case_problems {
        platform::autolab::Problems::PerCase
    } else {
        platform::autolab::Problems::One {
            name: args.criterion.clone(),
            exact: args.exact_criterion.clone(),
        }
    }
}

/// `reversi grade merge`: writes the merged report and says how many students it has.
fn merge(args: &MergeArgs) -> Result<()> {
    let students = platform::merge::merge(&args.inputs, &args.out)?;
    let noun = if students == 1 { "student" } else { "students" };
    print_out(&format!(
        "wrote {} ({students} {noun} from {} reports)\n",
        args.out.display(),
        args.inputs.len()
    ))
}

/// `--shard K/N`.
fn parse_shard(text: &str) -> std::result::Result<Shard, String> {
    text.parse()
}

/// `reversi grade`: grades every submission, prints a row per student and the
/// totals, and writes the reports asked for.
fn grade(args: &GradeArgs) -> Result<()> {
    let started = Instant::now();
    let program = args.languages.program(args.run.as_deref());
    let (Some(submissions), Some(cases)) = (&args.submissions, &args.cases) else {
        unreachable!("clap requires SUBMISSIONS and --cases without a subcommand");
    };
    let class = Class::find(&ClassRequest {
        submissions,
        single: args.single,
        cases,
        points: args.points,
        program: &program,
        name: args.name.as_deref(),
        shard: args.shard,
    })?;
    let targets = targets(args)?;
    if args.per_case_problems {
        if let Some(bad) = class
            .case_names()
            .into_iter()
            .find(|name| !platform::autolab::valid_problem(name))
        {
            return Err(GradeError::AutolabProblem {
                name: printable(&bad).into_owned(),
            }
            .into());
        }
    }
    let deadline = args.budget.map(|budget| started + budget);
    // (what still runs when the budget ends is ended then: its case NOT RUN)
    let sandbox = args.sandbox.timed(args.timeout)?.until(deadline);
    class.admit(&sandbox)?;
    let policy = match args.compare {
        CompareArg::Strict => Policy::Strict,
        CompareArg::Lenient => Policy::Lenient,
    };
    let jobs = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => thread::available_parallelism().map_or(1, usize::from),
    };
    sandbox::stop_on_signals();
    let options = GradeOptions {
        cases: &class.cases,
        points: &class.points,
        visibility: &class.visibility,
        program: &program,
        sandbox: &sandbox,
        policy,
        jobs,
        stop: Some(sandbox::stop_flag()),
        slots: None,
        deadline,
    };
    let (mut journal, kept) = open_journal(args, &class, submissions, cases)?;
    let to_grade: Vec<(usize, Submission)> = class
        .submissions
        .iter()
        .enumerate()
        .filter(|(index, _)| kept[*index].is_none())
        .map(|(index, student)| (index, student.clone()))
        .collect();
    let (positions, to_grade): (Vec<usize>, Vec<Submission>) = to_grade.into_iter().unzip();
    let width = class
        .submissions
        .iter()
        .map(|s| printable(&s.name).len())
        .max()
        .unwrap_or(0);
    let mut progress = ClassProgress::new(class.submissions.len(), class.cases.len());
    let kept_cases = (class.submissions.len() - to_grade.len()) * class.cases.len();
    let mut printed = Ok(());
    let names = class.case_names();
    // Every report is replaced whole (a temporary file renamed): written before the
    // first case and again as cases (one student) or students (a class) finish, a
    // kill at any moment leaves the last complete one.
    let scoring = args.score.scoring();
    // (the journal keeps the grades as graded; every report and row shows them scored)
    let scored = |grade: &StudentGrade| {
        let mut grade = grade.clone();
        scoring.apply(&mut grade);
        grade
    };
    let write = |grades: &[StudentGrade]| {
        let grades: Vec<StudentGrade> = grades.iter().map(scored).collect();
        let grades = grades.as_slice();
        platform::write_reports(
            &targets,
            grades,
            &names,
            &class.points,
            &class.visibility,
            policy,
            sandbox.isolation(),
        )
    };
    let partial = |student: &str, results: Vec<CaseResult>| {
        let mut grade =
            StudentGrade::partial(student, results, &class.cases, &class.points, NOT_YET);
        grade.hide(&class.visibility);
        grade
    };
    // (the grades so far of a class, in its order)
    let write_class =
        |all: &[Option<StudentGrade>]| write(&all.iter().flatten().cloned().collect::<Vec<_>>());
    let mut written = match (args.single, class.submissions.first()) {
        (true, Some(student)) => write(&[partial(&student.name, Vec::new())]),
        _ => Ok(()),
    };
    // Every student's grade in the class's order, the kept ones first; rows are
    // printed in that order as the grades before them are there.
    let mut all = kept;
    let mut shown = 0;
    let mut new = positions.iter();
    let mut show = |all: &[Option<StudentGrade>], progress: &mut ClassProgress| {
        while let Some(grade) = all.get(shown).and_then(Option::as_ref) {
            progress.graded();
            if !args.json && !args.autolab && printed.is_ok() {
                let grade = scored(grade);
                printed = progress.suspend(|| print_out(&student_row(&grade, width)));
            }
            shown += 1;
        }
    };
    show(&all, &mut progress);
    if !args.single && to_grade.len() < class.submissions.len() && written.is_ok() {
        written = write_class(&all);
    }
    grade_class(&to_grade, &options, &mut |event| match event {
        ClassEvent::Progress { done, .. } => progress.cases(kept_cases + done),
        ClassEvent::Partial { student, results } => {
            progress.now(&student.name);
            if args.single && written.is_ok() {
                written = write(&[partial(&student.name, results.to_vec())]);
            }
        }
        ClassEvent::Graded(grade) => {
            let index = *new.next().expect("a grade per student graded");
            if let Some(open) = &mut journal {
                if let Err(error) = open.record(&class.submissions[index], grade) {
                    eprintln!("reversi: warning: {error}; the grading goes on without it");
                    journal = None;
                }
            }
            all[index] = Some(grade.clone());
            show(&all, &mut progress);
            if !args.single && written.is_ok() {
                written = write_class(&all);
            }
        }
    })?;
    let graded: Vec<StudentGrade> = all.into_iter().flatten().collect();
    progress.finish();
    printed?;
    written?;
    write(&graded)?;
    let grades: Vec<StudentGrade> = graded.iter().map(scored).collect();
    let whole = graded.len() == class.submissions.len() && graded.iter().all(journal::is_whole);
    let resume = match journal {
        // A grading that ends with every student graded needs no journal.
        Some(journal) if whole => {
            if let Err(error) = journal.finish() {
                eprintln!("reversi: warning: {error}");
            }
            ""
        }
        Some(_) => " (the same command with --resume grades the rest)",
        None => "",
    };
    if let (true, Some(grade)) = (args.github_classroom, grades.first()) {
        let result = platform::github_classroom::result(grade, &class.points);
        append_github_output(&platform::github_classroom::output_line(&result))?;
    }
    if let (true, Some(grade)) = (args.autolab, grades.first()) {
        let line =
            platform::autolab::autoresult(grade, &names, &class.points, &autolab_problems(args));
        print_out(&platform::autolab::output(
            grade,
            policy,
            sandbox.isolation(),
            &line,
        ))?;
    } else if args.json {
        let mut report = serde_json::json!({
            "policy": policy,
            "scoring": scoring,
            "isolation": sandbox.isolation(),
            "students": grades,
        });
        if let Some(shard) = args.shard {
            report["shard"] = shard.to_string().into();
        }
        printable_json(&mut report);
        print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        print_out(&totals(&grades, policy, scoring, sandbox.isolation()))?;
    }
    let total = class.submissions.len();
    if grades.len() < total || grades.iter().any(|g| g.interrupted) {
        return Err(Interrupted {
            done: grades.iter().filter(|g| !g.interrupted).count(),
            total,
            resume,
        }
        .into());
    }
    Ok(())
}

/// The row of a case in a report written while the grading runs, should the
/// grading end before it.
const NOT_YET: &str = "not run: the grading ended before this case";

/// The report files the arguments ask for; Vocareum's are named by the variables
/// its grading script sets.
fn targets(args: &GradeArgs) -> Result<Targets, GradeError> {
    let variable = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .ok_or_else(|| GradeError::Vocareum {
                variable: name.into(),
            })
    };
    let vocareum = if args.vocareum {
        Some(VocareumFiles {
            grade_file: variable("vocareumGradeFile")?,
            report_file: variable("vocareumReportFile")?,
            criterion: args.criterion.clone(),
            exact_criterion: args.exact_criterion.clone(),
        })
    } else {
        None
    };
    if args.github_classroom && std::env::var_os("GITHUB_OUTPUT").is_none() {
        return Err(GradeError::GithubOutput);
    }
    if args.autolab {
        let mut problems = vec![args.criterion.as_str()];
        problems.extend(args.exact_criterion.as_deref());
        if let Some(bad) = problems
            .into_iter()
            .find(|name| !platform::autolab::valid_problem(name))
        {
            return Err(GradeError::AutolabProblem {
                name: printable(bad).into_owned(),
            });
        }
    }
    Ok(Targets {
        prairielearn: args.prairielearn.clone(),
        csv: args.csv.clone(),
        reports: args.reports.clone(),
        junit: args.junit.clone(),
        gradescope: args.gradescope.clone(),
        gradescope_format: match args.gradescope_format {
            FormatArg::Text => platform::gradescope::OutputFormat::Text,
            FormatArg::Md => platform::gradescope::OutputFormat::Markdown,
        },
        vpl: args.vpl.clone(),
        coderunner: args.coderunner.clone(),
        vocareum,
    })
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
fn totals(
    grades: &[StudentGrade],
    policy: Policy,
    scoring: Scoring,
    isolation: crate::sandbox::Isolation,
) -> String {
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
    let scoring = scoring
        .description()
        .map_or_else(String::new, |rule| format!("scoring: {rule}\n"));
    format!(
        "{count} {students}: mean score {}/{}; {all} passed every case ({}), {exact} byte for \
         byte\n{scoring}isolation: {}\n",
        platform::points(mean),
        platform::points(max),
        policy.description(),
        isolation.words()
    )
}

/// Arguments of `reversi package`.
#[derive(Debug, Args)]
pub struct PackageArgs {
    /// The platform.
    #[arg(value_enum)]
    platform: PlatformArg,
    /// The cases every submission runs.
    #[arg(long, value_name = "DIR", required_unless_present = "arena")]
    cases: Option<PathBuf>,
    /// Package a gauntlet instead of cases (gradescope): the flags of `reversi arena`
    /// each submission plays the references under, in one word each or as
    /// `--flag value` (docs/arena.md).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true, conflicts_with_all = ["cases", "run"])]
    arena: Option<String>,
    /// The student's program, with {submission} (as `grade --run`); without it,
    /// each submission is graded by what it holds (as `grade`).
    #[arg(long, value_name = "COMMAND")]
    run: Option<String>,
    #[command(flatten)]
    languages: LanguageArgs,
    /// Where to write the bundle: a new zip file (gradescope) or folder (the others).
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// CPU time of each run, in seconds (as `grade`).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
    /// How a case passes.
    #[arg(long, value_enum, default_value_t = CompareArg::Strict)]
    compare: CompareArg,
    /// How the cases passed make the score (as `grade --score`).
    #[arg(long, value_enum, default_value_t = ScoreArg::Points)]
    score: ScoreArg,
    /// Gradescope's outputs in text or Markdown (as `grade --gradescope-format`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Text)]
    gradescope_format: FormatArg,
    /// A Debian package the platform's image needs for the students' language
    /// (python3, openjdk-17-jdk, g++; Gradescope's setup.sh installs them).
    #[arg(long = "apt", value_name = "PACKAGE")]
    packages: Vec<String>,
    /// A path of the platform's image to show the programs read-only (an
    /// interpreter outside /usr), as `grade --read-only`.
    #[arg(long, value_name = "PATH")]
    read_only: Vec<PathBuf>,
    /// CPU time of each process, in seconds (as `grade`).
    #[arg(long, value_name = "SECONDS")]
    cpu_time: Option<u64>,
    /// Memory of each run, in MiB (as `grade`) [default: 256: two runs at once and
    /// the grader fit Gradescope's default container of 768 MB].
    #[arg(long, value_name = "MIB")]
    memory: Option<u64>,
    /// Processes and threads of a run at once (as `grade`).
    #[arg(long, value_name = "N")]
    processes: Option<u64>,
    /// Size of any one file a program writes, and of its files together, in MiB (as
    /// `grade`) [default: 64, within the memory of a run].
    #[arg(long, value_name = "MIB")]
    file_size: Option<u64>,
    /// Programs run at once (as `grade -j`) [default: 2, the runs whose memory the
    /// container holds].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// The points of a case without a `points` file of its own.
    #[arg(long, value_name = "N", value_parser = parse_points)]
    points: Option<f64>,
    /// The time the grading of a submission may take, in seconds (as `grade
    /// --budget`) [default: a margin under the platform's own limit: 540 on
    /// Gradescope (its default timeout is 600 s), 270 on Vocareum].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    budget: Option<Duration>,
    /// The Vocareum rubric criterion, or the Autolab problem, that gets the score.
    #[arg(long, value_name = "NAME", default_value = "Correctness")]
    criterion: String,
    /// A second Vocareum criterion, or Autolab problem, that gets the number of
    /// byte-exact cases.
    #[arg(long, value_name = "NAME")]
    exact_criterion: Option<String>,
    /// PrairieLearn: the grading image (info.json's externalGradingOptions.image).
    #[arg(
        long,
        value_name = "IMAGE",
        default_value = "prairielearn/grader-python"
    )]
    image: String,
    /// PrairieLearn: a file the student uploads (repeat for more) [default: the
    /// --python-file].
    #[arg(long = "student-file", value_name = "NAME")]
    student_files: Vec<String>,
    /// Autolab: the assessment's handin file name (a .tar, .tar.gz, .tgz or .zip is
    /// unpacked; any other file is the submission's one file).
    #[arg(long, value_name = "NAME", default_value = "handin.tar")]
    handin: String,
    /// Autolab: one problem per case, named as the case, instead of the whole score
    /// to --criterion.
    #[arg(long)]
    per_case_problems: bool,
    /// The reversi binary to put in the bundle [default: this one]; a statically
    /// linked one (`make static`) runs on any Linux image.
    #[arg(long, value_name = "FILE")]
    binary: Option<PathBuf>,
}

impl PackageArgs {
    /// The flags of `grade` the bundle passes on, each one word (`--flag=value`, so
    /// that no value is read as an option).
    fn grade_flags(&self) -> Vec<String> {
        let mut flags = vec![format!("--budget={}", self.budget().as_secs_f64())];
        if self.run.is_none() {
            flags.extend(self.languages.flags());
        }
        for path in &self.read_only {
            flags.push(format!("--read-only={}", path.display()));
        }
        let limits = [
            ("--cpu-time", self.cpu_time),
            ("--memory", Some(self.memory.unwrap_or(BUNDLE_MEMORY_MIB))),
            ("--processes", self.processes),
            (
                "--file-size",
                Some(self.file_size.unwrap_or(BUNDLE_FILE_SIZE_MIB)),
            ),
            ("--jobs", Some(self.jobs.map_or(BUNDLE_JOBS, u64::from))),
        ];
        for (flag, value) in limits {
            if let Some(value) = value {
                flags.push(format!("{flag}={value}"));
            }
        }
        if let Some(points) = self.points {
            flags.push(format!("--points={points}"));
        }
        if let ScoreArg::F2014 = self.score {
            flags.push("--score=f2014".into());
        }
        if let (PlatformArg::Gradescope, FormatArg::Md) = (self.platform, self.gradescope_format) {
            flags.push("--gradescope-format=md".into());
        }
        if let Some(exact) = &self.exact_criterion {
            flags.push(format!("--exact-criterion={exact}"));
        }
        if self.per_case_problems {
            flags.push("--per-case-problems".into());
        }
        flags
    }

    /// `--budget`, else a margin under the platform's own limit.
    fn budget(&self) -> Duration {
        self.budget.unwrap_or(match self.platform {
            PlatformArg::Gradescope | PlatformArg::Prairielearn | PlatformArg::GithubClassroom => {
                GRADESCOPE_BUDGET
            }
            PlatformArg::Vocareum => VOCAREUM_BUDGET,
            PlatformArg::Autolab => AUTOLAB_BUDGET,
        })
    }
}

/// A bundle's memory of each run, in MiB: Gradescope's container has 768 MB unless the
/// TA raises it (its documentation, Troubleshooting); two runs of 256 MiB and the
/// grader fit, so that a memory bomb meets our limit and its row, not the
/// container's OOM killer. Vocareum documents no figure: the same.
const BUNDLE_MEMORY_MIB: u64 = 256;

/// A bundle's bound of a run's files, in MiB: a run's tmpfs counts in its memory.
const BUNDLE_FILE_SIZE_MIB: u64 = 64;

/// A bundle's runs at once (Gradescope gives an autograder half a CPU by default).
const BUNDLE_JOBS: u64 = 2;

/// The default budget of a Gradescope bundle: a tenth under Gradescope's default
/// timeout of an autograder run, 10 minutes (its documentation, Troubleshooting).
const GRADESCOPE_BUDGET: Duration = Duration::from_secs(540);

/// The default budget of a Vocareum bundle. Vocareum's documentation names the
/// limits of a grading script (Max Grading Time, Process timeout) but not their
/// values, which Vocareum sets for each course: a conservative guess, a tenth under
/// 5 minutes; a TA whose course allows more says so with --budget.
const VOCAREUM_BUDGET: Duration = Duration::from_secs(270);

/// The default budget of an Autolab bundle: a tenth under the timeout of an
/// assessment's autograder as Autolab sets it unless changed (180 s); a TA who
/// raises it says so with --budget.
const AUTOLAB_BUDGET: Duration = Duration::from_secs(160);

/// `reversi package`'s platforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PlatformArg {
    /// Gradescope: autograder.zip with setup.sh and run_autograder.
    Gradescope,
    /// Vocareum: a folder with grade.sh for the assignment's library.
    Vocareum,
    /// PrairieLearn: a course folder with the question (info.json, tests/) and
    /// serverFilesCourse/reversi/ (the entrypoint and the binary).
    Prairielearn,
    /// GitHub Classroom: the template repository's .github/ (the workflow, its
    /// grader step, the binary and the cases).
    GithubClassroom,
    /// Autolab: autograde-Makefile and autograde.tar.
    Autolab,
}

/// `reversi package`: writes the bundle and says what to do with it.
pub fn package(args: &PackageArgs) -> Result<()> {
    if args
        .run
        .as_ref()
        .is_some_and(|run| !run.contains(PLACEHOLDER))
    {
        return Err(GradeError::NoPlaceholder.into());
    }
    if let Some(flags) = &args.arena {
        let binary = match &args.binary {
            Some(binary) => binary.clone(),
            None => std::env::current_exe().context("cannot find this program's own file")?,
        };
        if !matches!(args.platform, PlatformArg::Gradescope) {
            return Err(anyhow::anyhow!("--arena packages for gradescope only"));
        }
        return super::arena::package(flags, &binary, &args.out, &args.packages, args.budget);
    }
    let cases_folder = args
        .cases
        .clone()
        .expect("clap requires --cases without --arena");
    // The cases must be readable cases: the same check `grade` makes.
    let cases = find_cases(&cases_folder)?;
    case_visibility(&cases)?;
    let platform = match args.platform {
        PlatformArg::Gradescope => bundle::Platform::Gradescope,
        PlatformArg::Vocareum => bundle::Platform::Vocareum,
        PlatformArg::Prairielearn => bundle::Platform::PrairieLearn,
        PlatformArg::GithubClassroom => bundle::Platform::GithubClassroom,
        PlatformArg::Autolab => bundle::Platform::Autolab,
    };
    if args.platform == PlatformArg::Autolab {
        let mut names = vec![args.criterion.clone()];
        names.extend(args.exact_criterion.clone());
        if args.per_case_problems {
            names.extend(cases.iter().map(|case| case.name.clone()));
        }
        if let Some(bad) = names
            .iter()
            .find(|name| !platform::autolab::valid_problem(name))
        {
            return Err(GradeError::AutolabProblem {
                name: printable(bad).into_owned(),
            }
            .into());
        }
    }
    let max_score: f64 = case_points(&cases, args.points.unwrap_or(1.0))?
        .iter()
        .sum();
    let student_files = if args.student_files.is_empty() {
        vec![args.languages.python_file.clone()]
    } else {
        args.student_files.clone()
    };
    let recipe = bundle::Recipe {
        command: args.run.clone(),
        flags: args.grade_flags(),
        criterion: args.criterion.clone(),
        timeout: args.timeout.as_secs_f64(),
        compare: match args.compare {
            CompareArg::Strict => "strict".into(),
            CompareArg::Lenient => "lenient".into(),
        },
        packages: args.packages.clone(),
        budget: args.budget().as_secs_f64(),
        max_score,
        image: args.image.clone(),
        student_files,
        handin: args.handin.clone(),
    };
    let binary = match &args.binary {
        Some(binary) => binary.clone(),
        None => std::env::current_exe().context("cannot find this program's own file")?,
    };
    bundle::write_bundle(platform, &recipe, &cases_folder, &binary, &args.out)?;
    let next = match platform {
        bundle::Platform::Gradescope => {
            "upload it as the assignment's autograder (Configure Autograder > Zip file \
             upload, base image Ubuntu 22.04 or later, or any with a static binary)"
        }
        bundle::Platform::Vocareum => {
            "upload its files to the assignment's library (Configure Workspace > \
             Library) and set grade.sh as the grading script"
        }
        bundle::Platform::PrairieLearn => {
            "copy its questions/ and serverFilesCourse/ into the course's repository \
             (the question is questions/reversi)"
        }
        bundle::Platform::GithubClassroom => {
            "copy its .github/ into the assignment's template repository"
        }
        bundle::Platform::Autolab => {
            "upload autograde-Makefile and autograde.tar as the assessment's \
             autograder (Edit Assessment > Autograder), its handin file named as --handin"
        }
    };
    print_out(&format!(
        "wrote {} ({} cases): {next}\n",
        args.out.display(),
        cases.len()
    ))
}
