//! The reports `grade` writes, checked by real validators (installed by `make
//! validators`: Python's xmlschema and jsonschema from PyPI): JUnit against Jenkins'
//! junit-10.xsd, Gradescope's results.json against the JSON schema of its documented
//! format (tests/schemas/), both with the same tests for every student and times as
//! measured; and Vocareum's files as its grading scripts have them.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use grading::{grade_hw_sh, official, reversi_with, text, BIN};
use validators::{validate_gradescope, validate_junit};

/// A class: one right, one crashing, one too slow, one without its program.
fn class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    for (name, script) in [
        ("ann", format!("exec {BIN}")),
        ("bob", "echo oops >&2; exit 3".into()),
        ("cy", "sleep 30".into()),
    ] {
        fs::create_dir_all(class.join(name)).unwrap();
        fs::write(class.join(name).join("hw.sh"), format!("{script}\n")).unwrap();
    }
    fs::create_dir_all(class.join("dee")).unwrap();
    class
}

fn grade(submissions: &Path, extra: &[&str]) -> Output {
    let mut args = grade_hw_sh(submissions, &official());
    args.extend(["--timeout", "1", "-j", "5"].map(String::from));
    reversi_with(&args, extra)
}

#[test]
fn junit_validates_with_every_case_for_every_student_and_times_as_measured() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let junit = dir.path().join("junit.xml");
    let output = grade(&class, &["--junit", junit.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    validate_junit(&junit);
    let xml = fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 4);
    for suite in &suites {
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 5, "{xml}");
        assert_eq!(suite.attribute("tests"), Some("5"));
        for case in &cases {
            let time: f64 = case.attribute("time").unwrap().parse().unwrap();
            assert!(time >= 0.0 && !case.attribute("time").unwrap().starts_with('-'));
            // A TIMEOUT's time is its run's, not its run's and the LF re-run's (a
            // sleeping program's: the wall-time net of a 1 s limit, 4 s).
            if suite.attribute("name") == Some("cy") {
                assert!(time < 4.9, "{time} s for a 1 s limit:\n{xml}");
            }
        }
    }
    assert!(
        xml.contains("message=\"MISSING FILE the submission has no hw.sh\""),
        "{xml}"
    );
}

#[test]
fn gradescope_results_validate_for_every_kind_of_student() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    for student in ["ann", "bob", "cy", "dee"] {
        let results = dir.path().join(format!("{student}.json"));
        let name = format!("{student} (Student {student})");
        let output = grade(
            &class.join(student),
            &[
                "--single",
                "--name",
                &name,
                "--gradescope",
                results.to_str().unwrap(),
            ],
        );
        assert!(output.status.success(), "{}", text(&output.stderr));
        validate_gradescope(&results);
        let value: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
        let tests = value["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 5, "{student}");
        let report = value["output"].as_str().unwrap();
        assert!(
            report.starts_with(&format!("Student:   {name}\n")),
            "{report}"
        );
        let wall = value["execution_time"].as_f64().unwrap();
        assert!(wall >= 0.0);
        let sum: f64 = tests
            .iter()
            .map(|t| t["extra_data"]["seconds"].as_f64().unwrap())
            .sum();
        if student == "cy" {
            // Five 1 s runs at once: the wall time, not their sum.
            assert!(sum > 4.5 && wall < sum - 1.0, "wall {wall}, sum {sum}");
        }
    }
}

#[test]
fn a_vocareum_bundle_names_its_criterion_and_fails_loudly() {
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("asnlib");
    let cases = official();
    let output = Command::new(BIN)
        .args(["package", "vocareum", "--cases"])
        .arg(&cases)
        .args([
            "--run",
            "sh {submission}/hw.sh",
            "--criterion",
            "Search, correctness",
            "--read-only",
            BIN,
            "--out",
        ])
        .arg(&library)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let work = dir.path().join("work");
    fs::create_dir(&work).unwrap();
    fs::write(work.join("hw.sh"), format!("exec {BIN}\n")).unwrap();
    let run = |sandbox: &str| {
        let grade_file = dir.path().join(format!("{sandbox}.grade"));
        let report_file = dir.path().join(format!("{sandbox}.report"));
        let status = Command::new("bash")
            .arg(library.join("grade.sh"))
            .current_dir(&work)
            .env("ASNLIB", &library)
            .env("REVERSI_SANDBOX", sandbox)
            .env("vocareumGradeFile", &grade_file)
            .env("vocareumReportFile", &report_file)
            .output()
            .unwrap();
        (
            status.status.code(),
            fs::read_to_string(grade_file).unwrap_or_default(),
            fs::read_to_string(report_file).unwrap_or_default(),
        )
    };
    let (status, grade, report) = run("auto");
    assert_eq!(status, Some(0), "{report}");
    assert_eq!(grade, "Search  correctness,5\n");
    assert!(report.starts_with("VOC_NO_REPORT_OUTPUT\n"), "{report}");
    // Grading itself fails (a sandbox that does not exist): a zero under the
    // criterion, the reason in the report, and a failed script.
    let (status, grade, report) = run("no-such-sandbox");
    assert_eq!(status, Some(2), "{report}");
    assert_eq!(grade, "Search  correctness,0\n");
    assert!(
        report.contains("could not grade this submission (exit 2)"),
        "{report}"
    );
}

#[test]
fn a_gradescope_bundle_grades_by_language_with_the_options_given() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    let output = Command::new(BIN)
        .args(["package", "gradescope", "--cases"])
        .arg(official())
        .args([
            "--read-only",
            BIN,
            "--build-time",
            "90",
            "--memory",
            "1024",
            "--out",
        ])
        .arg(&zip)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let root = dir.path().join("autograder");
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    archive.extract(root.join("source")).unwrap();
    let script = fs::read_to_string(root.join("source/run_autograder")).unwrap();
    assert!(
        script.contains("'--build-time=90'") && script.contains("'--memory=1024'"),
        "{script}"
    );
    let submission = root.join("submission/hw1");
    fs::create_dir_all(&submission).unwrap();
    fs::write(
        submission.join("main.cpp"),
        format!("#include <unistd.h>\nint main() {{ execl({BIN:?}, \"r\", (char *)0); }}\n"),
    )
    .unwrap();
    fs::write(
        root.join("submission_metadata.json"),
        r#"{"users": [{"name": "Ann Lee", "email": "ann@example.edu"}]}"#,
    )
    .unwrap();
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", &root)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    let results = root.join("results/results.json");
    validate_gradescope(&results);
    let value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    let report = value["output"].as_str().unwrap();
    assert!(report.starts_with("Student:   Ann Lee\n"), "{report}");
    assert!(
        report.contains("Program:   hw1/main.cpp (C++, one folder down)"),
        "{report}"
    );
    assert_eq!(value["score"].as_f64(), Some(5.0), "{report}");
}
