//! Helpers of the `grade` tests (`tests/grade_*.rs`): the binary, the official
//! Spring 2017 cases, and running the binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_reversi");

/// The official Spring 2017 cases.
pub fn official() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017")
}

/// Runs the binary with `args`.
pub fn reversi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// Bytes a command printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `package PLATFORM` of `cases` into `out`, each student's program the `hw.sh` of
/// their folder (`sh {submission}/hw.sh`), with `extra` (`--timeout 5` unless given);
/// asserts that it succeeds.
pub fn package_hw_sh(platform: &str, cases: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "package",
        platform,
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "sh {submission}/hw.sh",
        "--out",
        out.to_str().unwrap(),
    ];
    if !extra.contains(&"--timeout") {
        args.extend_from_slice(&["--timeout", "5"]);
    }
    args.extend_from_slice(extra);
    let output = reversi(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

/// The start of a `grade` command line for a class in which each student's program
/// is the `hw.sh` of their folder, shown this binary: `grade CLASS --cases CASES
/// --run "sh {submission}/hw.sh" --read-only BIN`.
pub fn grade_hw_sh(class: &Path, cases: &Path) -> Vec<String> {
    let (class, cases) = (class.display().to_string(), cases.display().to_string());
    [
        "grade",
        &class,
        "--cases",
        &cases,
        "--run",
        "sh {submission}/hw.sh",
        "--read-only",
        BIN,
    ]
    .iter()
    .map(|arg| arg.to_string())
    .collect()
}

/// Runs the binary with `args` and then `more`.
pub fn reversi_with(args: &[String], more: &[&str]) -> Output {
    Command::new(BIN).args(args).args(more).output().unwrap()
}
