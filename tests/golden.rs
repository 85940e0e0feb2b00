//! Every case under `testcases/` (a folder with `input.txt`, `output.txt` and an
//! optional `args` file of extra arguments), solved and compared byte for byte.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use pretty_assertions::assert_eq;
use walkdir::WalkDir;

struct Case {
    dir: PathBuf,
    args: Vec<String>,
    expected: Vec<u8>,
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases");
    let mut cases: Vec<Case> = WalkDir::new(&root)
        .sort_by_file_name()
        .into_iter()
        .map(|entry| entry.expect("testcases/ is readable"))
        .filter(|entry| entry.file_type().is_dir() && entry.path().join("input.txt").is_file())
        .map(|entry| {
            let dir = entry.into_path();
            let args = fs::read_to_string(dir.join("args"))
                .map(|text| text.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            let expected = fs::read(dir.join("output.txt")).expect("a case has output.txt");
            Case {
                dir,
                args,
                expected,
            }
        })
        .collect();
    cases.sort_by(|a, b| a.dir.cmp(&b.dir));
    cases
}

/// The lines of a file with line ends made visible, for a readable diff.
fn visible_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .split_inclusive('\n')
        .map(|line| line.replace('\r', "\\r").replace('\n', "\\n"))
        .collect()
}

/// Compares bytes; on a difference shows a line diff and says whether only the line
/// ends (or the final newline) differ.
fn assert_same_bytes(expected: &[u8], actual: &[u8], what: &str) {
    if expected == actual {
        return;
    }
    let strip = |b: &[u8]| -> Vec<u8> {
        let mut v: Vec<u8> = b.iter().copied().filter(|&c| c != b'\r').collect();
        while v.last() == Some(&b'\n') {
            v.pop();
        }
        v
    };
    let note = if strip(expected) == strip(actual) {
        "only line ends or the final newline differ"
    } else {
        "the content differs"
    };
    assert_eq!(
        visible_lines(expected),
        visible_lines(actual),
        "{what}: {note}"
    );
    panic!("{what}: bytes differ ({note})");
}

#[test]
fn the_official_cases_are_all_here_byte_exact() {
    let cases = cases();
    let official = cases
        .iter()
        .filter(|c| c.dir.components().any(|p| p.as_os_str() == "cs561"))
        .count();
    assert_eq!(
        official, 15,
        "5 s2017 + 2 s2017-jan + 8 f2014 official cases"
    );
    for case in &cases {
        let bytes = fs::read(case.dir.join("input.txt")).unwrap();
        if case.dir.components().any(|p| p.as_os_str() == "cs561") {
            assert!(
                bytes.windows(2).any(|w| w == b"\r\n") && !bytes.ends_with(b"\n"),
                "{}: official files are CRLF with no final newline (check .gitattributes)",
                case.dir.display()
            );
        }
    }
}

#[test]
fn every_case_in_process() {
    let out_dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let output = out_dir.path().join("output.txt");
        let input = case.dir.join("input.txt");
        let mut argv = vec!["reversi".to_string()];
        argv.extend(case.args.iter().cloned());
        argv.extend([
            "-i".into(),
            input.display().to_string(),
            "-o".into(),
            output.display().to_string(),
        ]);
        let cli = <reversi::cli::Cli as clap::Parser>::try_parse_from(&argv).unwrap();
        reversi::cli::run(cli).unwrap();
        assert_same_bytes(
            &case.expected,
            &fs::read(&output).unwrap(),
            &case.dir.display().to_string(),
        );
    }
}

#[test]
fn every_case_through_the_binary_as_a_grader_runs_it() {
    for case in cases() {
        let work = tempfile::tempdir().unwrap();
        fs::copy(case.dir.join("input.txt"), work.path().join("input.txt")).unwrap();
        let status = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(&case.args)
            .current_dir(work.path())
            .status()
            .unwrap();
        assert!(status.success(), "{}: {status}", case.dir.display());
        let actual = fs::read(work.path().join("output.txt")).unwrap();
        assert_same_bytes(&case.expected, &actual, &case.dir.display().to_string());
        let names: Vec<_> = fs::read_dir(work.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "no stray files: {names:?}");
    }
}

/// The handout prints its worked example with four wrong lines; the official output
/// for the same input (f2014 ref6) and ours differ from it on exactly those.
#[test]
fn the_handout_example_differs_from_the_true_output_only_by_its_typos() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/handout");
    let printed = fs::read_to_string(dir.join("handout-as-printed.txt")).unwrap();
    let ours = fs::read_to_string(dir.join("s2017-example/output.txt")).unwrap();
    let ours: Vec<&str> = ours.split("\r\n").collect();
    let printed: Vec<&str> = printed.lines().collect();
    assert_eq!(ours.len(), printed.len());
    let differing: Vec<(&str, &str)> = printed
        .iter()
        .zip(&ours)
        .filter(|(p, o)| p != o)
        .map(|(p, o)| (*p, *o))
        .collect();
    assert_eq!(
        differing,
        [
            ("c5,2,0.0,-Infinity,-3", "c5,2,0,-Infinity,-3"),
            ("c4,1,-3,-3,-3", "c4,1,-3,-3,Infinity"),
            ("f5,1,-3,-3,-3", "f5,1,-3,-3,0"),
            ("e6,1,-3,-3,-3", "e6,1,-3,-3,0"),
        ]
    );
    let official = fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/f2014/ref6/output.txt"),
    )
    .unwrap();
    assert_eq!(ours.join("\r\n").as_bytes(), official.as_slice());
}
