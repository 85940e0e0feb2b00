//! `grade --shard K/N` and `grade merge`: a class graded in three shards and merged
//! gives the reports of one grading of the whole class (times aside).

#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use pretty_assertions::assert_eq;

use grading::{
    grade_hw_sh, junit_without_times, official, reversi, reversi_with, text, without_times, BIN,
};

/// A class whose names need quoting in CSV and escaping in XML, and whose programs
/// pass, fail, crash, write nothing or are missing.
fn class() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let students = [
        ("alice", format!("exec {BIN}")),
        ("bob-lf", format!("exec {BIN} --eol lf")),
        ("=carol", format!("exec {BIN}")),
        ("dave, jr", "echo 'IndexError' >&2; exit 1".into()),
        ("frank", "true".into()),
        (
            "gina \"q\"",
            format!("{BIN} -o - | grep -av '^pass' > output.txt"),
        ),
        ("hal&ivy", format!("exec {BIN}")),
    ];
    for (name, script) in students {
        let folder = dir.path().join(name);
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("hw.sh"), format!("{script}\n")).unwrap();
    }
    fs::create_dir(dir.path().join("erin-missing")).unwrap();
    dir
}

/// `grade` of `class` writing its CSV, JUnit, JSON and text reports under `out`.
fn grade_into(class: &Path, out: &Path, extra: &[&str]) {
    fs::create_dir_all(out).unwrap();
    let path = |name: &str| out.join(name).to_str().unwrap().to_string();
    let (csv, junit, reports) = (path("class.csv"), path("class.xml"), path("reports"));
    let mut args = grade_hw_sh(class, &official());
    args.extend(
        [
            "--timeout",
            "5",
            "-j",
            "2",
            "--csv",
            &csv,
            "--junit",
            &junit,
            "--reports",
            &reports,
            "--json",
        ]
        .map(String::from),
    );
    let output = reversi_with(&args, extra);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    fs::write(out.join("class.json"), &output.stdout).unwrap();
}

fn merge(out: &Path, inputs: &[PathBuf]) -> Output {
    let mut args = vec!["grade", "merge", "-o", out.to_str().unwrap()];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    reversi(&args)
}

#[test]
fn three_shards_merged_are_the_whole_class() {
    let class = class();
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    grade_into(class.path(), &whole, &[]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let out = dir.path().join(format!("shard-{k}"));
            grade_into(class.path(), &out, &["--shard", &format!("{k}/3")]);
            out
        })
        .collect();
    // Each student is graded in exactly one shard: 8 students, slices of 3, 3, 2.
    let sizes: Vec<usize> = shards
        .iter()
        .map(|s| fs::read_dir(s.join("reports")).unwrap().count())
        .collect();
    assert_eq!(sizes, vec![3, 3, 2]);
    let merged = dir.path().join("merged");
    fs::create_dir(&merged).unwrap();
    // Inputs in any order: the merged report is in name order.
    for name in ["class.csv", "class.xml", "class.json", "reports"] {
        let inputs: Vec<PathBuf> = shards.iter().rev().map(|s| s.join(name)).collect();
        let output = merge(&merged.join(name), &inputs);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        assert!(text(&output.stdout).contains("8 students from 3 reports"));
    }
    let read = |folder: &Path, name: &str| fs::read_to_string(folder.join(name)).unwrap();
    assert_eq!(read(&merged, "class.csv"), read(&whole, "class.csv"));
    assert_eq!(
        junit_without_times(&read(&merged, "class.xml")),
        junit_without_times(&read(&whole, "class.xml"))
    );
    let json =
        |folder: &Path| without_times(serde_json::from_str(&read(folder, "class.json")).unwrap());
    assert_eq!(json(&merged), json(&whole));
    for entry in fs::read_dir(whole.join("reports")).unwrap() {
        let name = entry.unwrap().file_name();
        let name = Path::new("reports").join(name);
        let name = name.to_str().unwrap();
        assert_eq!(read(&merged, name), read(&whole, name), "{name}");
    }
    assert_eq!(fs::read_dir(merged.join("reports")).unwrap().count(), 8);

    // A shard missing, or one given twice, is refused, and nothing is written.
    let partial = dir.path().join("partial.json");
    let inputs = [shards[0].join("class.json"), shards[2].join("class.json")];
    let output = merge(&partial, &inputs);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("2/3 is missing"),
        "{}",
        text(&output.stderr)
    );
    assert!(!partial.exists());
    let twice = dir.path().join("twice.csv");
    let inputs = [shards[0].join("class.csv"), shards[0].join("class.csv")];
    let output = merge(&twice, &inputs);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("graded in both"),
        "{}",
        text(&output.stderr)
    );
    assert!(!twice.exists());
}

#[test]
fn a_shard_is_k_of_n() {
    let class = class();
    for wrong in ["0/3", "4/3", "3"] {
        let output = reversi(&[
            "grade",
            class.path().to_str().unwrap(),
            "--cases",
            official().to_str().unwrap(),
            "--run",
            "sh {submission}/hw.sh",
            "--shard",
            wrong,
        ]);
        assert_eq!(output.status.code(), Some(2), "{wrong}");
        assert!(text(&output.stderr).contains("expected K/N"));
    }
}
