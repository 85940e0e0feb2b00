//! Hidden cases: a `visibility` file beside a case makes its Gradescope test carry
//! that visibility, and keeps its expected output out of every report.

#[path = "common/grading.rs"]
mod grading;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use grading::{grade_hw_sh, official, reversi, text, BIN};

/// The official cases, case2 hidden and case4 shown after the due date.
fn cases(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    for case in 1..=5 {
        let (from, to) = (
            official().join(format!("case{case}")),
            cases.join(format!("case{case}")),
        );
        fs::create_dir_all(&to).unwrap();
        for file in ["input.txt", "output.txt"] {
            fs::copy(from.join(file), to.join(file)).unwrap();
        }
    }
    fs::write(cases.join("case2/visibility"), "hidden\n").unwrap();
    fs::write(cases.join("case4/visibility"), "after_due_date").unwrap();
    cases
}

/// Lines of case2's expected output (and input) found in no visible case: what a
/// report must never show.
fn secrets(cases: &Path) -> Vec<String> {
    let lines = |case: &str, file: &str| -> Vec<String> {
        fs::read_to_string(cases.join(case).join(file))
            .unwrap()
            .lines()
            .map(|l| l.trim_end_matches('\r').to_string())
            .collect()
    };
    let visible: HashSet<String> = ["case1", "case3", "case5"]
        .iter()
        .flat_map(|c| [lines(c, "output.txt"), lines(c, "input.txt")].concat())
        .collect();
    let secrets: Vec<String> = [lines("case2", "output.txt"), lines("case2", "input.txt")]
        .concat()
        .into_iter()
        .filter(|l| l.len() >= 8 && !visible.contains(l))
        .collect();
    assert!(secrets.len() > 5, "{secrets:?}");
    secrets
}

#[test]
fn a_hidden_case_shows_only_its_verdict_and_kind_of_mistake() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    let class = dir.path().join("class");
    for (name, script) in [
        (
            "gina",
            format!("{BIN} -o - | grep -av '^pass' > output.txt"),
        ),
        ("hal", "cat input.txt >&2; exit 1".into()),
        (
            "ivy",
            format!("{BIN} -o - | sed 's/^\\(.\\)\\(.\\)/\\2\\1/' > output.txt"),
        ),
    ] {
        fs::create_dir_all(class.join(name)).unwrap();
        fs::write(class.join(name).join("hw.sh"), format!("{script}\n")).unwrap();
    }
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    let path = |name: &str| out.join(name).to_str().unwrap().to_string();
    let common = |submissions: &Path, single: bool| {
        let mut args = grade_hw_sh(submissions, &cases);
        if single {
            args.push("--single".into());
        }
        args
    };
    let mut args = common(&class, false);
    args.extend(
        [
            "--csv",
            &path("class.csv"),
            "--junit",
            &path("junit.xml"),
            "--reports",
            &path("reports"),
        ]
        .map(String::from),
    );
    let rows = Command::new(BIN).args(&args).output().unwrap();
    let mut json_args = common(&class, false);
    json_args.push("--json".into());
    let json = Command::new(BIN).args(&json_args).output().unwrap();
    let mut shown = vec![text(&rows.stdout), text(&json.stdout)];
    for file in ["class.csv", "junit.xml"] {
        shown.push(fs::read_to_string(out.join(file)).unwrap());
    }
    for student in ["gina", "hal", "ivy"] {
        shown.push(fs::read_to_string(out.join(format!("reports/{student}.txt"))).unwrap());
        let results = out.join(format!("{student}.json"));
        let mut single = common(&class.join(student), true);
        single.extend(["--gradescope".into(), results.to_str().unwrap().to_string()]);
        let output = Command::new(BIN).args(&single).output().unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
        let results = fs::read_to_string(&results).unwrap();
        let value: serde_json::Value = serde_json::from_str(&results).unwrap();
        let visibility: Vec<&str> = value["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["visibility"].as_str().unwrap())
            .collect();
        assert_eq!(
            visibility,
            ["visible", "hidden", "visible", "after_due_date", "visible"]
        );
        shown.push(results);
    }
    for secret in secrets(&cases) {
        for report in &shown {
            assert!(!report.contains(&secret), "{secret:?} shown in:\n{report}");
        }
    }
    // The hidden case keeps its verdict and its kind of mistake.
    let gina = fs::read_to_string(out.join("reports/gina.txt")).unwrap();
    let row = gina.lines().find(|l| l.contains(" case2 ")).unwrap();
    assert!(
        row.starts_with("FAIL") && row.contains("  hidden case: "),
        "{gina}"
    );
    let hal = fs::read_to_string(out.join("reports/hal.txt")).unwrap();
    let row = hal.lines().find(|l| l.contains(" case2 ")).unwrap();
    assert_eq!(
        row.trim_end(),
        "CRASH            case2  hidden case",
        "{hal}"
    );
    // A visible case of the same student keeps its explanation.
    let row = hal.lines().find(|l| l.contains(" case1 ")).unwrap();
    assert!(row.contains("stderr: "), "{hal}");
}

#[test]
fn a_visibility_that_is_not_gradescopes_word_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    fs::write(cases.join("case3/visibility"), "secret\n").unwrap();
    fs::create_dir_all(dir.path().join("class/ann")).unwrap();
    let output = reversi(&[
        "grade",
        dir.path().join("class").to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "sh {submission}/hw.sh",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("expected a visibility (visible, hidden"));
}
