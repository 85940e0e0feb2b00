//! `grade --score f2014`: the score as CSCI-561 Fall 2014's official grading agent
//! computed it (100 when every case passes, else 50 x passed / cases), in every
//! report, stated; the points of the cases stay the default.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::path::{Path, PathBuf};

use grading::{grade_hw_sh, official, reversi_with, text, BIN};

/// ann passes every official case; bob's output gets a stray line where it is
/// longer than 20 lines (cases 3 and 4), so bob passes 3 of 5.
fn class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    for (name, script) in [
        ("ann", format!("exec {BIN}")),
        (
            "bob",
            format!("{BIN}; if [ $(wc -l < output.txt) -gt 20 ]; then echo x >> output.txt; fi"),
        ),
    ] {
        fs::create_dir_all(class.join(name)).unwrap();
        fs::write(class.join(name).join("hw.sh"), format!("{script}\n")).unwrap();
    }
    class
}

#[test]
fn the_fall_2014_score_is_100_when_every_case_passes_else_half_the_share_passed() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let (csv, reports) = (dir.path().join("class.csv"), dir.path().join("reports"));
    let args = grade_hw_sh(&class, &official());
    let output = reversi_with(
        &args,
        &[
            "--score",
            "f2014",
            "--compare",
            "lenient",
            "--csv",
            csv.to_str().unwrap(),
            "--reports",
            reports.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("ann  100/100 points 5/5 passed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bob  30/100 points  3/5 passed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 students: mean score 65/100;")
            && stdout.contains(
                "\nscoring: f2014: as the Fall 2014 grading agent, 100 when every case \
                 passes, else 50 x passed / cases\n"
            ),
        "{stdout}"
    );
    let table = fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = table.lines().collect();
    assert!(rows[1].starts_with("ann,100,100,5,5,5,"), "{table}");
    assert!(rows[2].starts_with("bob,30,100,3,"), "{table}");
    let report = fs::read_to_string(reports.join("bob.txt")).unwrap();
    assert!(
        report.contains("Scoring:   f2014: as the Fall 2014 grading agent")
            && report.contains("Score:     30/100 points (3 of 5 cases passed;"),
        "{report}"
    );
    // JSON states the rule; the default is the points of the cases.
    let json = reversi_with(&args, &["--score", "f2014", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["scoring"], "f2014");
    assert_eq!(json["students"][1]["score"], 30.0);
    assert_eq!(json["students"][1]["scoring"], "f2014");
    let points = reversi_with(&args, &["--json"]);
    let points: serde_json::Value = serde_json::from_slice(&points.stdout).unwrap();
    assert_eq!(points["scoring"], "points");
    assert_eq!(points["students"][1]["score"], 3.0);
    assert_eq!(points["students"][1]["max_score"], 5.0);
}

/// On Gradescope the top-level score is the agent's; the tests carry no points of
/// their own (Gradescope would sum them), and `results.json` validates.
#[test]
fn gradescope_gets_the_fall_2014_score_and_tests_without_points() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let results = dir.path().join("results.json");
    let mut args = grade_hw_sh(&class.join("bob"), &official());
    args.push("--single".into());
    let output = reversi_with(
        &args,
        &[
            "--score",
            "f2014",
            "--gradescope",
            results.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    validators::validate_gradescope(&results);
    let results: serde_json::Value = serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
    assert_eq!(results["score"], 30.0);
    for test in results["tests"].as_array().unwrap() {
        assert!(test.get("score").is_none() && test.get("max_score").is_none());
    }
    assert!(results["output"]
        .as_str()
        .unwrap()
        .contains("Scoring:   f2014"));
}
