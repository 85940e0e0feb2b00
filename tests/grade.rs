//! `reversi grade` over a class of submissions with real kinds of mistakes, its CSV,
//! JUnit XML (parsed with a real XML parser), and the Gradescope and Vocareum
//! bundles of `reversi package` run in a simulated platform layout.

mod common;
#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use reversi::explain::mistake::Mistake;
use reversi::explain::mutants::{self, Faults};
use reversi::format::cs561;

use grading::{official, package_hw_sh, reversi, text, BIN};

/// A folder of submissions, each a `hw.sh` standing in for a kind of student
/// program (the solver is shown to them read-only).
fn class() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let students = [
        ("alice-correct", format!("exec {BIN}")),
        ("bob-lf", format!("exec {BIN} --eol lf")),
        (
            "carol-floats",
            format!(
                "{BIN} -o - | sed 's/,\\(-\\{{0,1\\}}[0-9][0-9]*\\)\\r$/,\\1.0\\r/' > output.txt"
            ),
        ),
        (
            "dave-crash",
            "echo 'IndexError: list index out of range' >&2; exit 1".into(),
        ),
        ("erin-slow", "sleep 30".into()),
        (
            "frank-reads-cr",
            format!(
                "if grep -q \"$(printf '\\r')\" input.txt; then \
                 echo \"KeyError: 'X\\r'\" >&2; exit 1; fi; exec {BIN} --eol lf"
            ),
        ),
        (
            "gina-no-pass",
            format!("{BIN} -o - | grep -av '^pass' > output.txt"),
        ),
    ];
    for (name, script) in students {
        let folder = dir.path().join(name);
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("hw.sh"), format!("{script}\n")).unwrap();
    }
    // A submission without the file the command names.
    fs::create_dir(dir.path().join("henry-missing")).unwrap();
    fs::write(dir.path().join("henry-missing/hw1.sh"), "true\n").unwrap();
    // Programs with search faults of the bug catalogue: each writes what a program
    // with that fault writes for the input it is given.
    mutant_submission(
        &dir.path().join("ivan-updates-at-cutoff"),
        Mistake::UpdateBeforeCutoff,
    );
    mutant_submission(
        &dir.path().join("judy-strict-pruning"),
        Mistake::StrictPruning,
    );
    dir
}

/// A submission that answers each official input as a program with `fault` does: the
/// answers computed by the mutant solver, looked up by the input's checksum.
fn mutant_submission(folder: &Path, fault: Mistake) {
    let answers = folder.join("answers");
    fs::create_dir_all(&answers).unwrap();
    for case in 1..=5 {
        let case = official().join(format!("case{case}"));
        let input = fs::read(case.join("input.txt")).unwrap();
        let problem = cs561::parse(&input, None).unwrap();
        let style = mutants::style_of(&fs::read(case.join("output.txt")).unwrap());
        let output = mutants::write(&problem, style, Faults::one(fault), 100_000).unwrap();
        let sum = Command::new("cksum")
            .stdin(fs::File::open(case.join("input.txt")).unwrap())
            .output()
            .unwrap();
        let sum = text(&sum.stdout);
        let sum = sum.split_whitespace().next().unwrap();
        fs::write(answers.join(sum), output).unwrap();
    }
    fs::write(
        folder.join("hw.sh"),
        "cp \"$(dirname \"$0\")/answers/$(cksum < input.txt | cut -d' ' -f1)\" output.txt\n",
    )
    .unwrap();
}

fn grade(class: &Path, extra: &[&str]) -> Output {
    grade_on(class, &official(), extra)
}

/// `grade` of `class` on `cases`, shown this binary, 1 s a run.
fn grade_on(class: &Path, cases: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "grade",
        class.to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "sh {submission}/hw.sh",
        "--read-only",
        BIN,
        "--timeout",
        "1",
    ];
    args.extend_from_slice(extra);
    reversi(&args)
}

#[test]
fn a_class_is_graded_with_each_mistake_named() {
    let class = class();
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("class.csv");
    let reports = out.path().join("reports");
    let output = grade(
        class.path(),
        &[
            "--csv",
            csv.to_str().unwrap(),
            "--reports",
            reports.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let table = text(&output.stdout);
    insta::assert_snapshot!(table);
    // The CSV: a header and a row per student, a column per case.
    let csv = fs::read_to_string(csv).unwrap();
    let rows: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 11);
    assert!(rows[0].ends_with(",case1,case2,case3,case4,case5"));
    assert!(rows[1].starts_with("alice-correct,5,5,5,5,5,,PASS,PASS"));
    // Each report names each mistake once with the cases it affects.
    let bob = fs::read_to_string(reports.join("bob-lf.txt")).unwrap();
    assert_eq!(bob.matches("line ends only (CRLF vs LF) (case1").count(), 1);
    assert!(bob.contains("Policy:    strict: byte for byte"));
    assert!(bob.contains("Isolation: bubblewrap"));
    let henry = fs::read_to_string(reports.join("henry-missing.txt")).unwrap();
    assert!(henry.contains("MISSING FILE: the submission has no hw.sh"));
}

#[test]
fn a_lenient_policy_counts_both_ways() {
    let class = class();
    let output = grade(class.path(), &["--compare", "lenient", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["policy"], "lenient");
    let bob = &report["students"][1];
    assert_eq!(bob["student"], "bob-lf");
    assert_eq!(bob["passed"], 5);
    assert_eq!(bob["byte_exact"], 0);
}

#[test]
fn junit_xml_parses_with_a_testcase_per_case() {
    let class = class();
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("junit.xml");
    let output = grade(class.path(), &["--junit", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    let xml = fs::read_to_string(&path).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 10);
    let alice = suites[0];
    assert_eq!(alice.attribute("name"), Some("alice-correct"));
    assert_eq!(alice.attribute("tests"), Some("5"));
    assert_eq!(alice.attribute("failures"), Some("0"));
    let bob = suites[1];
    assert_eq!(bob.attribute("failures"), Some("5"));
    let failure = bob
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert!(failure
        .text()
        .unwrap()
        .contains("expected CRLF (\\r\\n) line ends"));
    let dave = suites[3];
    assert_eq!(dave.attribute("errors"), Some("5"));
}

#[test]
fn a_command_without_the_placeholder_is_refused() {
    let class = class();
    let cases = official();
    let output = reversi(&[
        "grade",
        class.path().to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "python3 hw.py",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("does not name {submission}"));
}

/// A student folder with a copy of the solver (so that no path outside it is needed,
/// as on a platform) and `hw.sh` running it with `flags`.
fn platform_submission(folder: &Path, flags: &str) {
    fs::create_dir_all(folder).unwrap();
    fs::copy(BIN, folder.join("solver")).unwrap();
    fs::write(
        folder.join("hw.sh"),
        format!("exec \"$(dirname \"$0\")/solver\" {flags}\n"),
    )
    .unwrap();
}

/// Unpacks a Gradescope bundle as Gradescope does, into `ROOT/source` (ROOT, the
/// `$AUTOGRADER` layout, under `dir`), lets `submission` fill `ROOT/submission`, runs
/// `run_autograder` and returns its `results.json`.
fn run_gradescope(dir: &Path, submission: impl FnOnce(&Path)) -> serde_json::Value {
    run_gradescope_in(dir, "auto", submission)
}

/// [`run_gradescope`] with the sandbox `sandbox` (`$REVERSI_SANDBOX`).
fn run_gradescope_in(
    dir: &Path,
    sandbox: &str,
    submission: impl FnOnce(&Path),
) -> serde_json::Value {
    let zip = dir.join("autograder.zip");
    package_hw_sh("gradescope", &official(), &zip, &[]);
    let root = dir.join("autograder");
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    archive.extract(root.join("source")).unwrap();
    for script in ["setup.sh", "run_autograder", "reversi"] {
        let mode = fs::metadata(root.join("source").join(script))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "{script} is not executable");
    }
    submission(&root.join("submission"));
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", &root)
        .env("REVERSI_SANDBOX", sandbox)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    serde_json::from_slice(&fs::read(root.join("results/results.json")).unwrap()).unwrap()
}

#[test]
fn the_gradescope_bundle_writes_a_valid_results_json() {
    let dir = tempfile::tempdir().unwrap();
    let results = run_gradescope(dir.path(), |folder| platform_submission(folder, "--eol lf"));
    // The documented fields, with their types.
    assert_eq!(results["score"].as_f64(), Some(0.0));
    assert!(results["execution_time"].is_number());
    assert!(results["output"]
        .as_str()
        .unwrap()
        .contains("line ends only (CRLF vs LF)"));
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 5);
    for test in tests {
        assert!(test["name"].is_string());
        assert_eq!(test["score"].as_f64(), Some(0.0));
        assert_eq!(test["max_score"].as_f64(), Some(1.0));
        assert_eq!(test["status"], "failed");
        assert!(test["output"].as_str().unwrap().starts_with("FAIL: "));
        assert_eq!(test["visibility"], "visible");
        assert!(test["extra_data"]["seconds"].is_number());
    }
}

#[test]
fn the_gradescope_bundle_reports_a_grader_failure_as_a_zero() {
    let dir = tempfile::tempdir().unwrap();
    // No submission folder at all.
    let results = run_gradescope(dir.path(), |_| {});
    assert_eq!(results["score"].as_f64(), Some(0.0));
    assert!(results["output"]
        .as_str()
        .unwrap()
        .contains("could not grade"));
}

#[test]
fn the_vocareum_bundle_writes_the_grade_and_report_files() {
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("asnlib");
    package_hw_sh("vocareum", &official(), &library, &[]);
    let work = dir.path().join("work");
    platform_submission(&work, "");
    let grade_file = dir.path().join("grade.csv");
    let report_file = dir.path().join("report.txt");
    let status = Command::new("bash")
        .arg(library.join("grade.sh"))
        .current_dir(&work)
        .env("ASNLIB", &library)
        .env("vocareumGradeFile", &grade_file)
        .env("vocareumReportFile", &report_file)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    assert_eq!(fs::read_to_string(&grade_file).unwrap(), "Correctness,5\n");
    let report = fs::read_to_string(&report_file).unwrap();
    // Vocareum's convention: this line keeps the script's own output out.
    assert!(report.starts_with("VOC_NO_REPORT_OUTPUT\n"), "{report}");
    assert!(report.contains("Score:     5/5 points"), "{report}");
}

#[test]
fn a_bundle_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    fs::write(&zip, "mine").unwrap();
    let cases = official();
    let output = reversi(&[
        "package",
        "gradescope",
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "sh {submission}/hw.sh",
        "--out",
        zip.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(fs::read(&zip).unwrap(), b"mine");
}

/// Ctrl-C: the students graded keep their reports, the one being graded is reported
/// interrupted, and `--resume` (here after the slow programs were mended) keeps the
/// first and grades the others.
#[test]
fn ctrl_c_keeps_what_is_done_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for name in ["a-quick", "b-slow", "c-slow"] {
        fs::create_dir_all(class.join(name)).unwrap();
        let script = if name == "a-quick" {
            "true"
        } else {
            "sleep 30"
        };
        fs::write(class.join(name).join("hw.sh"), script).unwrap();
    }
    let reports = dir.path().join("reports");
    let cases = official();
    let args = [
        "grade",
        class.to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "sh {submission}/hw.sh",
        "--timeout",
        "30",
        "-j",
        "1",
        "--reports",
        reports.to_str().unwrap(),
    ];
    let state = dir.path().join("state");
    let mut command = Command::new(BIN);
    let child = common::with_default_signals(&mut command)
        .args(args)
        .env("XDG_STATE_HOME", &state)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first student takes a fraction of a second; then the second sleeps.
    std::thread::sleep(std::time::Duration::from_secs(3));
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let started = std::time::Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        started.elapsed().as_secs() < 20,
        "the grader waited for the running case"
    );
    assert_eq!(output.status.code(), Some(130), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains(
            "interrupted: 1 of 3 students graded; their reports are written (the same \
             command with --resume grades the rest)"
        ),
        "{}",
        text(&output.stderr)
    );
    assert!(text(&output.stdout).starts_with("a-quick"));
    assert!(reports.join("a-quick.txt").is_file());
    let b = fs::read_to_string(reports.join("b-slow.txt")).unwrap();
    assert!(
        b.contains("INTERRUPTED (Ctrl-C): 0 of 5 cases finished"),
        "{b}"
    );
    assert!(b.contains("INTERRUPTED      case1"), "{b}");
    assert!(!reports.join("c-slow.txt").exists());
    for name in ["b-slow", "c-slow"] {
        fs::write(class.join(name).join("hw.sh"), "true").unwrap();
    }
    let resumed = Command::new(BIN)
        .args(args)
        .arg("--resume")
        .env("XDG_STATE_HOME", &state)
        .output()
        .unwrap();
    let stderr = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("1 of 3 students kept, 2 to grade"),
        "{stderr}"
    );
    let b = fs::read_to_string(reports.join("b-slow.txt")).unwrap();
    assert!(b.contains("NO OUTPUT"), "{b}");
    assert!(reports.join("c-slow.txt").is_file());
}

#[test]
fn cases_weigh_their_points() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    for case in 1..=5 {
        let from = official().join(format!("case{case}"));
        let to = cases.join(format!("case{case}"));
        fs::create_dir_all(&to).unwrap();
        for file in ["input.txt", "output.txt"] {
            fs::copy(from.join(file), to.join(file)).unwrap();
        }
    }
    fs::write(cases.join("case1/points"), "3\n").unwrap();
    let class = dir.path().join("class");
    fs::create_dir_all(class.join("alice")).unwrap();
    fs::write(class.join("alice/hw.sh"), format!("exec {BIN}\n")).unwrap();
    let run = |points: &str| grade_on(&class, &cases, &["--points", points, "--json"]);
    let output = run("2");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["students"][0]["score"], 11.0);
    assert_eq!(report["students"][0]["max_score"], 11.0);
    fs::write(cases.join("case1/points"), "three\n").unwrap();
    let bad = run("2");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("case1/points: expected a number of points"));
    assert_eq!(run("-1").status.code(), Some(2));
}

/// The bytes of a report that no format here allows: control bytes but newline (and
/// tab where `tab` says the format allows it), DEL, and a CR not ending a CSV row.
fn control_bytes(bytes: &[u8], tab: bool) -> Vec<(usize, u8)> {
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| {
            let allowed = b == b'\n'
                || (tab && b == b'\t')
                || (b == b'\r' && bytes.get(i + 1) == Some(&b'\n'));
            (b < 0x20 || b == 0x7f) && !allowed
        })
        .map(|(i, &b)| (i, b))
        .collect()
}

/// `text` as the reports show a name: `printable` of the library.
fn shown(text: &str) -> String {
    reversi::printable::printable(text).into_owned()
}

/// Students name their folders and write their standard error; the TA names the
/// cases: none of it forges a CSV row, an XML element or a JSON value with a control
/// character, in any report of `grade`.
#[test]
fn names_and_stderr_with_control_bytes_forge_nothing_in_any_report() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    let case_names = ["case1", "ca\u{1b}[31mse\n2"];
    for (official_case, name) in ["case1", "case2"].iter().zip(case_names) {
        let to = cases.join(name);
        fs::create_dir_all(&to).unwrap();
        for file in ["input.txt", "output.txt"] {
            fs::copy(official().join(official_case).join(file), to.join(file)).unwrap();
        }
    }
    let class = dir.path().join("class");
    let students = [
        ("a\nb,FAKE,100", format!("exec {BIN}")),
        (
            "x\u{1b}[2Jy",
            "printf 'boom\\033[2J\\r\\nFAKE,ROW,1\\n\\a<x/>\\177' >&2; exit 1".into(),
        ),
        (
            "zed\t<testsuite name=\"forged\"><!--",
            format!("exec {BIN}"),
        ),
    ];
    for (name, script) in &students {
        fs::create_dir_all(class.join(name)).unwrap();
        fs::write(class.join(name).join("hw.sh"), format!("{script}\n")).unwrap();
    }
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    let (csv, junit, reports) = (out.join("class.csv"), out.join("junit.xml"), out.join("r"));
    let output = grade_on(
        &class,
        &cases,
        &[
            "--json",
            "--csv",
            csv.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
            "--reports",
            reports.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut names: Vec<String> = students.iter().map(|(n, _)| shown(n)).collect();
    names.sort();

    // CSV: a header and one row per student, read by a CSV parser.
    let bytes = fs::read(&csv).unwrap();
    assert_eq!(control_bytes(&bytes, false), vec![]);
    let mut reader = csv::Reader::from_reader(&bytes[..]);
    let header = reader.headers().unwrap().clone();
    assert_eq!(header.len(), 7 + 2);
    // Case folders in name order: ESC sorts before 's'.
    assert_eq!(&header[7], shown(case_names[1]));
    assert_eq!(&header[8], "case1");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let students_in_csv: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(students_in_csv, names);
    assert!(rows.iter().all(|r| r.len() == header.len()));
    assert_eq!(&rows[0][7], "PASS");
    assert_eq!(&rows[1][7], "CRASH");

    // JUnit: one testsuite per student, named as the reports show the name.
    let xml = fs::read_to_string(&junit).unwrap();
    assert_eq!(control_bytes(xml.as_bytes(), false), vec![]);
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<&str> = document
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .map(|n| n.attribute("name").unwrap())
        .collect();
    assert_eq!(suites, names);
    for case in document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
    {
        assert!([case_names[0].to_string(), shown(case_names[1])]
            .contains(&case.attribute("name").unwrap().to_string()));
    }

    // JSON: no string holds a control character, names on one line.
    assert_eq!(control_bytes(&output.stdout, false), vec![]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let in_json: Vec<&str> = report["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["student"].as_str().unwrap())
        .collect();
    assert_eq!(in_json, names);
    assert_no_control_strings(&report);

    // Text reports: one per student, named and written printable.
    let mut files: Vec<String> = fs::read_dir(&reports)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let expected: Vec<String> = names.iter().map(|n| format!("{n}.txt")).collect();
    assert_eq!(files, expected);
    for file in &files {
        let bytes = fs::read(reports.join(file)).unwrap();
        assert_eq!(control_bytes(&bytes, true), vec![], "{file}");
    }
    let crash = fs::read_to_string(reports.join(format!("{}.txt", names[1]))).unwrap();
    assert!(
        crash.contains("stderr: boom\\u{1b}[2J | FAKE,ROW,1 | \\u{7}<x/>\\u{7f}"),
        "{crash}"
    );

    // One student on a platform: Gradescope's results.json and Vocareum's files.
    let student = class.join(students[1].0);
    let results = out.join("results.json");
    let (grade_file, report_file) = (out.join("grade.csv"), out.join("report.txt"));
    let single = Command::new(BIN)
        .args([
            "grade",
            student.to_str().unwrap(),
            "--single",
            "--cases",
            cases.to_str().unwrap(),
            "--run",
            "sh {submission}/hw.sh",
            "--gradescope",
            results.to_str().unwrap(),
            "--vocareum",
            "--criterion",
            "Correct\nFake,100",
        ])
        .env("vocareumGradeFile", &grade_file)
        .env("vocareumReportFile", &report_file)
        .output()
        .unwrap();
    assert_eq!(single.status.code(), Some(0), "{}", text(&single.stderr));
    for path in [&results, &grade_file, &report_file] {
        let bytes = fs::read(path).unwrap();
        assert_eq!(control_bytes(&bytes, true), vec![], "{}", path.display());
    }
    let results: serde_json::Value = serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
    assert_no_control_strings(&results);
    assert_eq!(results["tests"][0]["name"], shown(case_names[1]));
    assert_eq!(
        fs::read_to_string(&grade_file).unwrap(),
        "Correct\\nFake 100,0\n"
    );
}

/// Every string of `value` free of control characters but newline and tab.
fn assert_no_control_strings(value: &serde_json::Value) {
    match value {
        serde_json::Value::String(text) => assert!(
            !text
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "{text:?}"
        ),
        serde_json::Value::Array(items) => items.iter().for_each(assert_no_control_strings),
        serde_json::Value::Object(map) => map.values().for_each(assert_no_control_strings),
        _ => {}
    }
}

/// A copy of the official cases that only root may read, in `dir`.
fn private_cases(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    for case in 1..=5 {
        let to = cases.join(format!("case{case}"));
        fs::create_dir_all(&to).unwrap();
        for file in ["input.txt", "output.txt"] {
            fs::copy(
                official().join(format!("case{case}")).join(file),
                to.join(file),
            )
            .unwrap();
        }
    }
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
    cases
}

/// As a separate user, a program cannot enter a class kept in a private folder:
/// `grade` says so before any case, naming the folder and the fix, instead of
/// failing every honest student as CRASH.
#[test]
fn a_class_a_separate_user_cannot_enter_is_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let cases = private_cases(dir.path());
    let class = dir.path().join("class");
    platform_submission(&class.join("alice"), "");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
    let separate = ["--sandbox", "separate-user", "--json"];
    let refused = grade_on(&class, &cases, &separate);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stdout));
    let stderr = text(&refused.stderr);
    let private = dir.path().display().to_string();
    assert!(
        stderr.contains("the programs run as a separate user, which cannot enter its folder")
            && stderr.contains(&format!("({private} is mode 700)"))
            && stderr.contains(&format!("chmod o+x {private}")),
        "{stderr}"
    );
    assert_eq!(text(&refused.stdout), "");
    // Let through, the same class passes.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let graded = grade_on(&class, &cases, &separate);
    assert_eq!(graded.status.code(), Some(0), "{}", text(&graded.stderr));
    let report: serde_json::Value = serde_json::from_slice(&graded.stdout).unwrap();
    assert_eq!(report["isolation"], "separate-user");
    assert_eq!(report["students"][0]["passed"], 5, "{report}");
    // A student's own folder closed to others is refused the same way.
    fs::set_permissions(class.join("alice"), fs::Permissions::from_mode(0o700)).unwrap();
    let closed = grade_on(&class, &cases, &separate);
    assert_eq!(closed.status.code(), Some(2));
    assert!(text(&closed.stderr).contains("which cannot read its folder"));
}

/// Where bubblewrap cannot run, the Gradescope bundle grades as a separate user:
/// `run_autograder` makes its cases root's and private first.
#[test]
fn the_gradescope_bundle_grades_as_a_separate_user() {
    let dir = tempfile::tempdir().unwrap();
    // The folder above /autograder: /, which others may enter.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let results = run_gradescope_in(dir.path(), "separate-user", |folder| {
        platform_submission(folder, "")
    });
    let output = results["output"].as_str().unwrap();
    assert_eq!(results["score"].as_f64(), Some(5.0), "{output}");
    assert!(output.contains("Isolation: a separate unprivileged user"));
    let expected = dir.path().join("autograder/source/cases/case1/output.txt");
    let meta = fs::metadata(expected).unwrap();
    use std::os::unix::fs::MetadataExt;
    assert_eq!((meta.uid(), meta.mode() & 0o077), (0, 0));
}

/// Where bubblewrap cannot run, the Vocareum bundle grades as a separate user: its
/// cases are 0644 in the library and the student's work folder is closed to others,
/// so `grade.sh` grades private copies of the one and an open copy of the other, and
/// leaves nothing in the temporary folder.
#[test]
fn the_vocareum_bundle_grades_as_a_separate_user() {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let library = dir.path().join("asnlib");
    package_hw_sh("vocareum", &official(), &library, &[]);
    let home = dir.path().join("home");
    let work = home.join("work");
    platform_submission(&work, "");
    fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let grade_file = dir.path().join("grade.csv");
    let report_file = dir.path().join("report.txt");
    let status = Command::new("bash")
        .arg(library.join("grade.sh"))
        .current_dir(&work)
        .env("ASNLIB", &library)
        .env("TMPDIR", &tmp)
        .env("REVERSI_SANDBOX", "separate-user")
        .env("vocareumGradeFile", &grade_file)
        .env("vocareumReportFile", &report_file)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    let report = fs::read_to_string(&report_file).unwrap();
    assert_eq!(
        fs::read_to_string(&grade_file).unwrap(),
        "Correctness,5\n",
        "{report}"
    );
    assert!(report.contains("Isolation: a separate unprivileged user"));
    let left: Vec<_> = fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
