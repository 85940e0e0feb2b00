//! Helpers of the `grade` tests (`tests/grade_*.rs`): the binary, the official
//! Spring 2017 cases, and running the binary.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_reversi");

/// The official Spring 2017 cases.
pub fn official() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017")
}

/// A folder holding the official case1 only.
pub fn one_case(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    fs::create_dir_all(cases.join("case1")).unwrap();
    for file in ["input.txt", "output.txt"] {
        fs::copy(
            official().join("case1").join(file),
            cases.join("case1").join(file),
        )
        .unwrap();
    }
    cases
}

/// A copy of the official cases in `dir/cases`, to add files beside them.
pub fn official_copy(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    for case in ["case1", "case2", "case3", "case4", "case5"] {
        fs::create_dir_all(cases.join(case)).unwrap();
        for file in ["input.txt", "output.txt"] {
            fs::copy(
                official().join(case).join(file),
                cases.join(case).join(file),
            )
            .unwrap();
        }
    }
    cases
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

/// A small SplitMix64, for the moments of the kills (its seed printed).
pub fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Removes the cgroups a killed grader `pid` left (empty once its runs died).
pub fn remove_cgroups_of(pid: u32) {
    for top in ["", "pids", "memory", "cpuacct", "unified"] {
        let folder = Path::new("/sys/fs/cgroup").join(top);
        for entry in fs::read_dir(folder).into_iter().flatten().flatten() {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(&format!("reversi-{pid}-"))
            {
                for _ in 0..100 {
                    if fs::remove_dir(entry.path()).is_ok() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
        }
    }
}

/// Unmounts the tmpfs of each run folder a killed grader left in `tmp`, and removes
/// the folders.
pub fn remove_runs_left(tmp: &Path) {
    for entry in fs::read_dir(tmp).into_iter().flatten().flatten() {
        let room = entry.path().join("room");
        let _ = Command::new("umount").arg("-l").arg(&room).output();
        let _ = fs::remove_dir_all(entry.path());
    }
}

/// `value` with every `seconds` set to 0.
pub fn without_times(mut value: Value) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    if key == "seconds" {
                        *item = Value::from(0);
                    } else {
                        walk(item);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut value);
    value
}

/// JUnit XML with every `time="..."` emptied.
pub fn junit_without_times(xml: &str) -> String {
    xml.split("time=\"")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part.to_string()
            } else {
                format!("time=\"{}", &part[part.find('"').unwrap()..])
            }
        })
        .collect()
}
