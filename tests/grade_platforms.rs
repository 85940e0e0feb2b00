//! The PrairieLearn, GitHub Classroom and Autolab bundles run as their platforms
//! run them, each with an honest, a failing and a hostile submission: PrairieLearn's
//! entrypoint as root in a `/grade` layout (a temporary root standing for `/grade`),
//! its `results.json` validated against the documented fields; GitHub Classroom's
//! grader step with a workflow step's environment and `$GITHUB_OUTPUT`, its `result`
//! read back through the workflow's own wiring and summed as the reporter does;
//! Autolab's Makefile run by `make` as an unprivileged user, its last line read as
//! Autolab reads it.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use grading::{official, package_hw_sh, remove_runs_left, text, BIN};
use serde_json::Value;

/// The student's program: the solver, right on every case.
const HONEST: &str = "exec \"$(dirname \"$0\")/solver\"";

/// A program that writes a line too many: FAIL on every case.
const FAILING: &str = "\"$(dirname \"$0\")/solver\" && echo extra >> output.txt";

/// The sandboxes a bundle may grade with as root.
const SANDBOXES: [&str; 2] = ["bubblewrap", "separate-user"];

/// A submission folder with a copy of the solver and `hw.sh` running `script`.
fn submission(folder: &Path, script: &str) {
    fs::create_dir_all(folder).unwrap();
    fs::copy(BIN, folder.join("solver")).unwrap();
    fs::write(folder.join("hw.sh"), format!("{script}\n")).unwrap();
}

/// A program that tries to fool or harm the platform: it prints `fake` (a fake
/// result) on stdout, appends it to each of `targets`, creates each of `planted`,
/// writes a wrong output, then prints `last_words` as the last line of its stderr
/// (which its CRASH row shows) and exits 1.
fn hostile(fake: &str, targets: &[&Path], planted: &[&Path], last_words: &str) -> String {
    let mut script = format!("printf '%s\\n' '{fake}'\n");
    for target in targets {
        script += &format!(
            "printf '%s\\n' '{fake}' >> '{}' 2>/dev/null\n",
            target.display()
        );
    }
    for path in planted {
        script += &format!("touch '{}' 2>/dev/null\n", path.display());
    }
    script + FAILING + &format!("\nprintf '\\n%s\\n' '{last_words}' >&2\nexit 1")
}

/// Every file under `dir` with its bytes, to compare before and after a grading.
fn files_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| (entry.path().to_path_buf(), fs::read(entry.path()).unwrap()))
        .collect()
}

/// Runs `command` with `input` on its stdin.
fn pipe(command: &mut Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// A temporary folder others may enter (a separate user reaches the submission).
fn open_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    dir
}

// --- PrairieLearn ---------------------------------------------------------------

/// A PrairieLearn job in `dir/grade` (standing for `/grade`), as PrairieLearn lays
/// it out from the bundle: the question's `tests/`, the `serverFilesCourse` folder
/// info.json names, `data/data.json`, and the student's files (`hw.sh` running
/// `script`, or none).
fn prairielearn_job(dir: &Path, script: Option<&str>) -> PathBuf {
    prairielearn_job_of(dir, &[], script)
}

/// [`prairielearn_job`] of a bundle made with `extra` flags of `package`.
fn prairielearn_job_of(dir: &Path, extra: &[&str], script: Option<&str>) -> PathBuf {
    let bundle = dir.join("bundle");
    package_hw_sh("prairielearn", &official(), &bundle, extra);
    prairielearn_layout(dir, &bundle, script)
}

/// The job of the PrairieLearn bundle `bundle`.
fn prairielearn_layout(dir: &Path, bundle: &Path, script: Option<&str>) -> PathBuf {
    let info: Value =
        serde_json::from_slice(&fs::read(bundle.join("questions/reversi/info.json")).unwrap())
            .unwrap();
    let options = &info["externalGradingOptions"];
    assert_eq!(options["enabled"], true);
    let root = dir.join("grade");
    for shared in options["serverFilesCourse"].as_array().unwrap() {
        let shared = shared.as_str().unwrap().trim_end_matches('/');
        copy_tree(
            &bundle.join("serverFilesCourse").join(shared),
            &root.join("serverFilesCourse").join(shared),
        );
    }
    copy_tree(&bundle.join("questions/reversi/tests"), &root.join("tests"));
    fs::create_dir_all(root.join("data")).unwrap();
    fs::write(root.join("data/data.json"), "{\"correct_answers\": {}}").unwrap();
    match script {
        Some(script) => submission(&root.join("student"), script),
        None => fs::create_dir_all(root.join("student")).unwrap(),
    }
    root
}

fn copy_tree(from: &Path, to: &Path) {
    for (path, bytes) in files_of(from) {
        let target = to.join(path.strip_prefix(from).unwrap());
        fs::create_dir_all(target.parent().unwrap()).unwrap();
        fs::write(&target, bytes).unwrap();
    }
}

/// Runs the job's entrypoint as PrairieLearn does (as root; made executable first),
/// under `sandbox`; asserts that it exits 0 and that `results.json` is valid and
/// under 1 MB; returns it.
fn run_prairielearn(dir: &Path, root: &Path, sandbox: &str) -> Value {
    let entrypoint = root.join("serverFilesCourse/reversi/grade.sh");
    let info: Value =
        serde_json::from_slice(&fs::read(dir.join("bundle/questions/reversi/info.json")).unwrap())
            .unwrap();
    assert_eq!(
        info["externalGradingOptions"]["entrypoint"],
        "/grade/serverFilesCourse/reversi/grade.sh"
    );
    fs::set_permissions(&entrypoint, fs::Permissions::from_mode(0o755)).unwrap();
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let output = Command::new(&entrypoint)
        .env("PL_GRADE", root)
        .env("REVERSI_SANDBOX", sandbox)
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    remove_runs_left(&tmp);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let results = root.join("results/results.json");
    validators::validate_prairielearn(&results);
    let bytes = fs::read(&results).unwrap();
    assert!(bytes.len() < 1_000_000, "{} bytes", bytes.len());
    serde_json::from_slice(&bytes).unwrap()
}

#[test]
fn prairielearn_grades_honest_and_failing_submissions() {
    for sandbox in SANDBOXES {
        let dir = open_tempdir();
        let root = prairielearn_job(dir.path(), Some(HONEST));
        let results = run_prairielearn(dir.path(), &root, sandbox);
        assert_eq!(results["gradable"], true, "{sandbox}");
        assert_eq!(results["score"].as_f64(), Some(1.0), "{sandbox}: {results}");
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 5);
        for test in tests {
            assert_eq!(test["points"], test["max_points"], "{test}");
            assert_eq!(test["message"], "\u{1b}[32mPASS\u{1b}[0m", "{test}");
        }

        let dir = open_tempdir();
        let root = prairielearn_job(dir.path(), Some(FAILING));
        let results = run_prairielearn(dir.path(), &root, sandbox);
        assert_eq!(results["score"].as_f64(), Some(0.0), "{sandbox}: {results}");
        for test in results["tests"].as_array().unwrap() {
            assert_eq!(test["points"].as_f64(), Some(0.0));
            let message = test["message"].as_str().unwrap();
            assert!(message.starts_with("\u{1b}[31mFAIL\u{1b}[0m"), "{message}");
            assert!(!test["output"].as_str().unwrap().is_empty(), "{test}");
        }
    }
}

/// A submission that prints a fake `results.json`, tries to write the real one,
/// the cases and the job's root: its own results, 0, and nothing of the job
/// changed, under each sandbox.
#[test]
fn prairielearn_a_hostile_submission_cannot_fake_its_results() {
    for sandbox in SANDBOXES {
        let dir = open_tempdir();
        let root = dir.path().join("grade");
        let fake = r#"{"gradable": true, "score": 1, "tests": []}"#;
        let results_file = root.join("results/results.json");
        let case = root.join("tests/cases/case1/output.txt");
        let planted = [root.join("planted"), root.join("results/planted")];
        let script = hostile(
            fake,
            &[&results_file, &case],
            &[&planted[0], &planted[1]],
            fake,
        );
        let root = prairielearn_job(dir.path(), Some(&script));
        let cases = files_of(&root.join("tests"));
        let results = run_prairielearn(dir.path(), &root, sandbox);
        assert_eq!(results["score"].as_f64(), Some(0.0), "{sandbox}: {results}");
        assert_eq!(results["tests"].as_array().unwrap().len(), 5);
        assert_eq!(files_of(&root.join("tests")), cases, "{sandbox}");
        assert!(!planted.iter().any(|p| p.exists()), "{sandbox}");
        for test in results["tests"].as_array().unwrap() {
            assert!(
                test["message"].as_str().unwrap().contains("CRASH"),
                "{test}"
            );
        }
    }
}

/// A submission without its program: not gradable (no attempt charged), with the
/// reason in `format_errors`.
#[test]
fn prairielearn_a_submission_without_its_program_is_not_gradable() {
    let dir = open_tempdir();
    let root = prairielearn_job(dir.path(), None);
    let results = run_prairielearn(dir.path(), &root, "separate-user");
    assert_eq!(results["gradable"], false, "{results}");
    let errors = results["format_errors"].as_array().unwrap();
    assert!(errors[0].as_str().unwrap().contains("hw.sh"), "{errors:?}");
}

/// A C++ program that does not build: not gradable either, with the compiler's
/// words.
#[test]
fn prairielearn_a_program_that_does_not_build_is_not_gradable() {
    let dir = open_tempdir();
    let bundle = dir.path().join("bundle");
    let cases = official();
    let output = grading::reversi(&[
        "package",
        "prairielearn",
        "--cases",
        cases.to_str().unwrap(),
        "--out",
        bundle.to_str().unwrap(),
        "--student-file",
        "agent.cpp",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let html = fs::read_to_string(bundle.join("questions/reversi/question.html")).unwrap();
    assert!(html.contains(r#"file-names="agent.cpp""#), "{html}");
    let root = prairielearn_layout(dir.path(), &bundle, None);
    fs::write(root.join("student/agent.cpp"), "int main( {\n").unwrap();
    let results = run_prairielearn(dir.path(), &root, "separate-user");
    assert_eq!(results["gradable"], false, "{results}");
    let errors = results["format_errors"][0].as_str().unwrap();
    assert!(errors.contains("does not build"), "{errors}");
}

/// A program slower than the budget allows: the entrypoint ends, its results
/// written (the cases it could not run NOT RUN), before PrairieLearn's `timeout`
/// (the budget and a tenth) would kill the job and keep nothing.
#[test]
fn prairielearn_a_slow_program_ends_within_the_jobs_timeout() {
    let dir = open_tempdir();
    let extra = ["--budget", "4", "--timeout", "0.5"];
    let root = prairielearn_job_of(dir.path(), &extra, Some("sleep 60"));
    let info: Value = serde_json::from_slice(
        &fs::read(dir.path().join("bundle/questions/reversi/info.json")).unwrap(),
    )
    .unwrap();
    let timeout = info["externalGradingOptions"]["timeout"].as_u64().unwrap();
    assert_eq!(timeout, 5);
    let started = std::time::Instant::now();
    let results = run_prairielearn(dir.path(), &root, "separate-user");
    let took = started.elapsed().as_secs_f64();
    assert!(took < timeout as f64, "{took} s");
    assert_eq!(results["score"].as_f64(), Some(0.0));
    let messages: Vec<&str> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 5);
    assert!(
        messages.iter().any(|m| m.contains("NOT RUN")),
        "{messages:?}"
    );
}

/// Grading that fails (here the question's cases are missing): a score of 0 and the
/// reason, still exit 0 so that PrairieLearn reads it.
#[test]
fn prairielearn_a_grading_that_fails_scores_zero_with_the_reason() {
    let dir = open_tempdir();
    let root = prairielearn_job(dir.path(), Some(HONEST));
    fs::remove_dir_all(root.join("tests/cases")).unwrap();
    let results = run_prairielearn(dir.path(), &root, "separate-user");
    assert_eq!(results["score"].as_f64(), Some(0.0), "{results}");
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("could not grade"),
        "{results}"
    );
    assert!(
        results["output"].as_str().unwrap().contains("cases"),
        "{results}"
    );
}

// --- GitHub Classroom -----------------------------------------------------------

/// A student's repository made from the template with the bundle's `.github/`, and
/// the student's `hw.sh` running `script`.
fn github_repository(dir: &Path, script: &str) -> PathBuf {
    let bundle = dir.join("bundle");
    package_hw_sh("github-classroom", &official(), &bundle, &[]);
    let repository = dir.join("repository");
    copy_tree(&bundle.join(".github"), &repository.join(".github"));
    fs::set_permissions(
        repository.join(".github/classroom/reversi"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    submission(&repository, script);
    repository
}

/// Runs the workflow's grader step as the runner does (its `run:` line with bash,
/// in the workspace, `$GITHUB_OUTPUT` a fresh file), then reads the reporter's
/// input as the workflow wires it and sums it as the reporter does
/// (autograding-grading-reporter's src/main.js and src/notify-classroom.js). Returns
/// the step's output and the reporter's `{"points", "max", "results"}`.
fn run_github(dir: &Path, repository: &Path, sandbox: &str) -> (Output, Value) {
    let github_output = dir.join("github_output");
    fs::write(&github_output, "").unwrap();
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let output = Command::new("bash")
        .args(["-e", "-c", &step_run(repository)])
        .current_dir(repository)
        .env("GITHUB_OUTPUT", &github_output)
        .env("GITHUB_WORKSPACE", repository)
        .env("REVERSI_SANDBOX", sandbox)
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    remove_runs_left(&tmp);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let reporter = validators::validators();
    let summed = Command::new(reporter)
        .args(["-c", REPORTER])
        .arg(repository.join(".github/workflows/classroom.yml"))
        .arg(&github_output)
        .arg(dir.join("result.json"))
        .output()
        .unwrap();
    assert!(summed.status.success(), "{}", text(&summed.stderr));
    validators::validate_github_classroom(&dir.join("result.json"));
    (output, serde_json::from_slice(&summed.stdout).unwrap())
}

/// The grader step's `run:` line, from the workflow.
fn step_run(repository: &Path) -> String {
    let workflow = fs::read_to_string(repository.join(".github/workflows/classroom.yml")).unwrap();
    let at = workflow.find("id: reversi").expect("the grader step");
    let line = workflow[at..]
        .lines()
        .find_map(|line| line.trim().strip_prefix("run: "))
        .unwrap();
    line.to_string()
}

/// The workflow's wiring and the reporter's sums: the job `run-autograding-tests`,
/// the reporter step's `runners`, each runner's `<ID>_RESULTS` in its `env` taken
/// from `steps.<id>.outputs.result`, the step output read from `$GITHUB_OUTPUT`
/// (`name=value` lines), base64-decoded, and the points summed as
/// NotifyClassroom does: a runner with no `max_score` is passed over, else its
/// tests' `score` added up.
const REPORTER: &str = r#"
import base64, json, re, sys, yaml
workflow = yaml.safe_load(open(sys.argv[1]))
steps = workflow["jobs"]["run-autograding-tests"]["steps"]
reporter = [s for s in steps
            if s.get("uses", "").startswith("classroom-resources/autograding-grading-reporter@")]
assert len(reporter) == 1, reporter
reporter = reporter[0]
runners = reporter["with"]["runners"]
assert re.fullmatch(r"([a-zA-Z0-9]+,)*[a-zA-Z0-9]+", runners), runners
outputs = {}
for line in open(sys.argv[2]).read().splitlines():
    name, _, value = line.partition("=")
    outputs.setdefault(name, []).append(value)
assert len(outputs.get("result", [])) == 1, outputs.keys()
env = {}
for name, value in reporter["env"].items():
    step = re.fullmatch(r"\$\{\{\s*steps\.(\w+)\.outputs\.result\s*\}\}", value).group(1)
    assert [s for s in steps if s.get("id") == step], step
    env[name] = outputs["result"][-1]
points = maximum = 0
for runner in runners.split(","):
    results = json.loads(base64.b64decode(env[runner.strip().upper() + "_RESULTS"]).decode())
    json.dump(results, open(sys.argv[3], "w"))
    if not results["max_score"]:
        continue
    maximum += results["max_score"]
    points += sum(test["score"] for test in results["tests"])
print(json.dumps({"points": points, "max": maximum, "results": results}))
"#;

#[test]
fn github_classroom_grades_with_a_score_per_case() {
    for sandbox in SANDBOXES {
        let dir = open_tempdir();
        let repository = github_repository(dir.path(), HONEST);
        let (_, summed) = run_github(dir.path(), &repository, sandbox);
        assert_eq!(summed["points"].as_f64(), Some(5.0), "{sandbox}: {summed}");
        assert_eq!(summed["max"].as_f64(), Some(5.0));
        assert_eq!(summed["results"]["status"], "pass");

        // Partial credit: two cases right, three wrong.
        let dir = open_tempdir();
        let script = format!(
            "case \"$(head -c 200 input.txt | md5sum)\" in\n{}\nesac\n{HONEST}",
            partial_arms()
        );
        let repository = github_repository(dir.path(), &script);
        let (_, summed) = run_github(dir.path(), &repository, sandbox);
        assert_eq!(summed["points"].as_f64(), Some(2.0), "{sandbox}: {summed}");
        assert_eq!(summed["results"]["status"], "fail");

        let dir = open_tempdir();
        let repository = github_repository(dir.path(), FAILING);
        let (_, summed) = run_github(dir.path(), &repository, sandbox);
        assert_eq!(summed["points"].as_f64(), Some(0.0), "{sandbox}: {summed}");
        assert_eq!(summed["max"].as_f64(), Some(5.0));
    }
}

/// `case` arms that make cases 3, 4 and 5 fail (by the md5 of their input's start).
fn partial_arms() -> String {
    ["case3", "case4", "case5"]
        .iter()
        .map(|case| {
            let input = fs::read(official().join(case).join("input.txt")).unwrap();
            let head = &input[..input.len().min(200)];
            let digest = pipe(&mut Command::new("md5sum"), head);
            format!(
                "'{}') echo wrong > output.txt; exit 0 ;;",
                text(&digest.stdout).trim_end()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A submission that appends a fake `result` (full marks) to `$GITHUB_OUTPUT`,
/// prints one and a workflow command, and fails every case: the reporter reads only
/// the grader's result, 0 points, and no line of the step's log starts a workflow
/// command.
#[test]
fn github_classroom_a_hostile_submission_cannot_fake_its_result() {
    for sandbox in SANDBOXES {
        let dir = open_tempdir();
        let fake_result = r#"{"version":1,"status":"pass","max_score":100,"tests":[{"name":"x","status":"pass","score":100,"message":"","test_code":"","filename":"","line_no":0,"duration":0}]}"#;
        let fake = format!(
            "result={}",
            text(
                &pipe(
                    Command::new("base64").args(["-w", "0"]),
                    fake_result.as_bytes()
                )
                .stdout
            )
        );
        let github_output = dir.path().join("github_output");
        let planted = dir.path().join("planted");
        let notice = "::notice title=Autograding complete::Points 100/100";
        let script = hostile(&fake, &[&github_output], &[&planted], notice);
        let repository = github_repository(dir.path(), &script);
        let (output, summed) = run_github(dir.path(), &repository, sandbox);
        assert_eq!(summed["points"].as_f64(), Some(0.0), "{sandbox}: {summed}");
        assert_eq!(summed["max"].as_f64(), Some(5.0), "{sandbox}: {summed}");
        assert!(!planted.exists(), "{sandbox}");
        for line in text(&output.stdout)
            .lines()
            .chain(text(&output.stderr).lines())
        {
            assert!(
                !line.starts_with("::"),
                "{sandbox}: a workflow command: {line}"
            );
        }
    }
}

// --- Autolab --------------------------------------------------------------------

/// The unprivileged user `make` runs as (Autolab's `autograde`): nobody.
const AUTOGRADE_UID: u32 = 65534;

/// Autolab's autograding folder: the bundle's `autograde-Makefile` as `Makefile`,
/// `autograde.tar`, and the handin (`handin.tar` of a folder whose `hw.sh` runs
/// `script`), all owned by the unprivileged user. `extra`: more `package` flags.
fn autolab_job(dir: &Path, script: &str, extra: &[&str]) -> PathBuf {
    let bundle = dir.join("bundle");
    package_hw_sh("autolab", &official(), &bundle, extra);
    let work = dir.join("work");
    fs::create_dir_all(&work).unwrap();
    fs::copy(bundle.join("autograde-Makefile"), work.join("Makefile")).unwrap();
    fs::copy(bundle.join("autograde.tar"), work.join("autograde.tar")).unwrap();
    let handin = dir.join("handin");
    submission(&handin, script);
    let status = Command::new("tar")
        .arg("cf")
        .arg(work.join("handin.tar"))
        .arg("-C")
        .arg(&handin)
        .arg(".")
        .status()
        .unwrap();
    assert!(status.success());
    fs::create_dir_all(dir.join("tmp")).unwrap();
    let status = Command::new("chown")
        .arg("-R")
        .arg(format!("{AUTOGRADE_UID}:{AUTOGRADE_UID}"))
        .arg(&work)
        .arg(dir.join("tmp"))
        .status()
        .unwrap();
    assert!(status.success());
    work
}

/// Runs `make` in `work` as the unprivileged user, its stdout and stderr in one
/// file as Autolab keeps them; reads the last non-empty line as Autolab's
/// `parseAutoresult` does (every `word:` quoted, then JSON) and returns the output
/// and the `scores`.
fn run_autolab(dir: &Path, work: &Path, sandbox: &str) -> (String, Value) {
    let output = Command::new("setpriv")
        .arg(format!("--reuid={AUTOGRADE_UID}"))
        .arg(format!("--regid={AUTOGRADE_UID}"))
        .args(["--clear-groups", "sh", "-c", "make 2>&1"])
        .current_dir(work)
        // (Autolab's make is no sub-make: under `make test` the inherited level
        // would make it print "Entering directory" lines after the autoresult)
        .env_remove("MAKELEVEL")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env("HOME", work)
        .env("TMPDIR", dir.join("tmp"))
        .env("REVERSI_SANDBOX", sandbox)
        .output()
        .unwrap();
    let feedback = text(&output.stdout);
    let parsed = pipe(
        Command::new(validators::validators()).args([
            "-c",
            "import json, re, sys\n\
             line = [l for l in sys.stdin.read().splitlines() if l.strip()][-1]\n\
             parsed = json.loads(re.sub(r'([a-zA-Z0-9]+):', r'\"\\1\":', line))\n\
             print(json.dumps(parsed['scores']))",
        ]),
        feedback.as_bytes(),
    );
    assert!(
        parsed.status.success(),
        "{feedback}\n{}",
        text(&parsed.stderr)
    );
    (feedback, serde_json::from_slice(&parsed.stdout).unwrap())
}

/// Autolab's scores with all the points to the problem `Correctness`.
fn correctness(points: f64) -> Value {
    serde_json::json!({ "Correctness": points })
}

#[test]
fn autolab_grades_as_an_unprivileged_user() {
    let dir = open_tempdir();
    let work = autolab_job(dir.path(), HONEST, &[]);
    let (feedback, scores) = run_autolab(dir.path(), &work, "bubblewrap");
    assert_eq!(scores, correctness(5.0), "{feedback}");
    assert!(feedback.contains("PASS             case5"), "{feedback}");

    let dir = open_tempdir();
    let work = autolab_job(dir.path(), FAILING, &["--per-case-problems"]);
    let (feedback, scores) = run_autolab(dir.path(), &work, "bubblewrap");
    let zero: serde_json::Map<String, Value> = (1..=5)
        .map(|i| (format!("case{i}"), Value::from(0.0)))
        .collect();
    assert_eq!(scores, Value::Object(zero), "{feedback}");
}

/// A submission that prints a fake autoresult (as its own last line of stdout and
/// of stderr), tries to write the Makefile and the cases: the last line is the
/// grader's, 0, and nothing of the autograding folder changed.
#[test]
fn autolab_a_hostile_submission_cannot_fake_the_last_line() {
    let dir = open_tempdir();
    let work = dir.path().join("work");
    let fake = r#"{"scores": {"Correctness": 100}}"#;
    let makefile = work.join("Makefile");
    let case = work.join("autograde/cases/case1/output.txt");
    let planted = work.join("planted");
    let script = hostile(fake, &[&makefile, &case], &[&planted], fake);
    let work = autolab_job(dir.path(), &script, &[]);
    let before = fs::read(&makefile).unwrap();
    let (feedback, scores) = run_autolab(dir.path(), &work, "bubblewrap");
    assert_eq!(scores, correctness(0.0), "{feedback}");
    assert_eq!(fs::read(&makefile).unwrap(), before);
    assert_eq!(
        fs::read(&case).unwrap(),
        fs::read(official().join("case1/output.txt")).unwrap()
    );
    assert!(!planted.exists());
    // The fake line is in the report (the CRASH rows show the program's stderr),
    // never at a line's start.
    let lines: Vec<&str> = feedback.lines().collect();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("CRASH") && line.contains("Correctness")),
        "{feedback}"
    );
    for line in &lines[..lines.len() - 1] {
        assert!(!line.starts_with('{'), "{line}");
    }
}

/// Where no sandbox can work (a separate user needs root, which `autograde` is
/// not), and for a handin without the program: the last line gives 0, and the
/// output says why.
#[test]
fn autolab_a_grading_that_cannot_run_scores_zero_with_the_reason() {
    let dir = open_tempdir();
    let work = autolab_job(dir.path(), HONEST, &[]);
    let (feedback, scores) = run_autolab(dir.path(), &work, "separate-user");
    assert_eq!(scores, correctness(0.0), "{feedback}");
    assert!(feedback.contains("could not grade"), "{feedback}");

    let dir = open_tempdir();
    let work = autolab_job(dir.path(), HONEST, &[]);
    fs::remove_file(work.join("handin.tar")).unwrap();
    let (feedback, scores) = run_autolab(dir.path(), &work, "bubblewrap");
    assert_eq!(scores, correctness(0.0), "{feedback}");
    assert!(feedback.contains("MISSING FILE"), "{feedback}");
}

/// The bundles' limits fit their platforms: PrairieLearn's job `timeout` (at most
/// its 600 s) over the budget, GitHub's step `timeout-minutes` over it, Autolab's
/// budget under its default 180 s.
#[test]
fn the_bundles_budgets_fit_their_platforms() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("pl");
    package_hw_sh("prairielearn", &official(), &bundle, &["--budget", "100"]);
    let info: Value =
        serde_json::from_slice(&fs::read(bundle.join("questions/reversi/info.json")).unwrap())
            .unwrap();
    assert_eq!(info["externalGradingOptions"]["timeout"], 112);
    let script = fs::read_to_string(bundle.join("serverFilesCourse/reversi/grade.sh")).unwrap();
    assert!(script.contains("'--budget=100'"), "{script}");
    let bundle = dir.path().join("pl-default");
    package_hw_sh("prairielearn", &official(), &bundle, &[]);
    let info = fs::read_to_string(bundle.join("questions/reversi/info.json")).unwrap();
    assert!(info.contains("\"timeout\": 600"), "{info}");
    let bundle = dir.path().join("gh");
    package_hw_sh("github-classroom", &official(), &bundle, &[]);
    let workflow = fs::read_to_string(bundle.join(".github/workflows/classroom.yml")).unwrap();
    assert!(workflow.contains("timeout-minutes: 10"), "{workflow}");
    let bundle = dir.path().join("autolab");
    package_hw_sh("autolab", &official(), &bundle, &[]);
    let listing = Command::new("tar")
        .args(["xOf"])
        .arg(bundle.join("autograde.tar"))
        .arg("autograde/grade.sh")
        .output()
        .unwrap();
    assert!(text(&listing.stdout).contains("'--budget=160'"));
}

/// `grade --github-classroom --json` whose report cannot be printed (stdout is
/// /dev/full) after it appended its result: the error does not add a second,
/// failed result; one written before any grading (no cases) is the failure's.
#[test]
fn github_classroom_keeps_one_result_whatever_fails() {
    let dir = open_tempdir();
    let student = dir.path().join("ann");
    submission(&student, HONEST);
    let github_output = dir.path().join("github_output");
    let grade = |cases: &Path| {
        fs::write(&github_output, "").unwrap();
        Command::new(BIN)
            .args(["grade", "--single", "--json", "--github-classroom", "--run"])
            .arg("sh {submission}/hw.sh")
            .arg(format!("--cases={}", cases.display()))
            .arg("--")
            .arg(&student)
            .env("GITHUB_OUTPUT", &github_output)
            .env("TMPDIR", dir.path())
            .stdout(fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let lines: Vec<String> = fs::read_to_string(&github_output)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines.len(), 1, "{lines:?}");
        let encoded = lines[0].strip_prefix("result=").unwrap();
        let decoded = pipe(Command::new("base64").arg("-d"), encoded.as_bytes());
        serde_json::from_slice::<Value>(&decoded.stdout).unwrap()
    };
    let result = grade(&official());
    assert_eq!(result["status"], "pass", "{result}");
    let result = grade(&dir.path().join("no-cases"));
    assert_eq!(result["status"], "error", "{result}");
    let message = result["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("no-cases"), "{message}");
}
