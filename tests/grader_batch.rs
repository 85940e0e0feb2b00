//! `reversi batch`: the bundled cases with our solver, case discovery, and the
//! autograder mode against small scripts standing in for students' programs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

fn testcases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases")
}

fn reversi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn every_bundled_case_passes() {
    let output = reversi(&["batch", testcases().to_str().unwrap()]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    // The course's cases, the handout's and one per folder of the corpus.
    let corpus = std::fs::read_dir(testcases().join("corpus"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    let n = 17 + corpus;
    assert!(
        text.ends_with(&format!("{n} cases: {n} passed\n")),
        "{text}"
    );
    assert!(text.lines().filter(|l| l.starts_with("PASS")).count() == n);
}

#[test]
fn json_report() {
    let output = reversi(&[
        "batch",
        "--json",
        testcases().join("cs561/s2017").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["summary"]["total"], 5);
    assert_eq!(report["summary"]["passed"], 5);
    assert_eq!(report["cases"][0]["case"], "case1");
    assert_eq!(report["cases"][0]["verdict"], "pass");
    assert_eq!(report["cases"][0]["report"]["identical"], true);
}

#[test]
fn in_out_pairs_args_files_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let cases = testcases().join("cs561");
    // NAME.in / NAME.out pairs, one with its own NAME.args.
    fs::copy(
        cases.join("s2017/case3/input.txt"),
        dir.path().join("three.in"),
    )
    .unwrap();
    fs::copy(
        cases.join("s2017/case3/output.txt"),
        dir.path().join("three.out"),
    )
    .unwrap();
    fs::copy(
        cases.join("s2017-jan/case1/input.txt"),
        dir.path().join("jan.in"),
    )
    .unwrap();
    fs::copy(
        cases.join("s2017-jan/case1/output.txt"),
        dir.path().join("jan.out"),
    )
    .unwrap();
    fs::write(dir.path().join("jan.args"), "--dialect s2017-jan\n").unwrap();
    // A folder case whose expected output was saved with LF line ends.
    let lf = dir.path().join("saved-with-lf");
    fs::create_dir(&lf).unwrap();
    let handout = testcases().join("handout/s2017-example");
    fs::copy(handout.join("input.txt"), lf.join("input.txt")).unwrap();
    let expected = fs::read_to_string(handout.join("output.txt")).unwrap();
    fs::write(lf.join("output.txt"), expected.replace("\r\n", "\n")).unwrap();
    // A folder case with a bad args file.
    let bad = dir.path().join("bad-args");
    fs::create_dir(&bad).unwrap();
    fs::copy(handout.join("input.txt"), bad.join("input.txt")).unwrap();
    fs::copy(handout.join("output.txt"), bad.join("output.txt")).unwrap();
    fs::write(bad.join("args"), "--dialect s2018").unwrap();

    let output = reversi(&["batch", "-j", "2", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!(stdout(&output));
}

/// Runs `batch --against` on the first official case with `script` as the program,
/// in the sandbox, shown its own folder and this binary.
fn against(script: &str, timeout: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("cases/case1");
    fs::create_dir_all(&case).unwrap();
    let official = testcases().join("cs561/s2017/case1");
    fs::copy(official.join("input.txt"), case.join("input.txt")).unwrap();
    fs::copy(official.join("output.txt"), case.join("output.txt")).unwrap();
    let submission = dir.path().join("submission");
    fs::create_dir(&submission).unwrap();
    let program = submission.join("student.sh");
    fs::write(&program, format!("#!/bin/sh\n{script}\n")).unwrap();
    let command = format!("sh {}", program.display());
    let cases = dir.path().join("cases");
    let output = reversi(&[
        "batch",
        cases.to_str().unwrap(),
        "--against",
        &command,
        "--timeout",
        timeout,
        "--read-only",
        submission.to_str().unwrap(),
        "--read-only",
        BIN,
    ]);
    (output.status.code(), stdout(&output))
}

#[test]
fn against_students_programs() {
    let mut seen = String::new();
    let students = [
        ("correct", format!("exec {BIN}"), "10"),
        (
            "crashing",
            "echo 'Traceback: IndexError' >&2; exit 3".into(),
            "10",
        ),
        ("slow", "sleep 20".into(), "0.3"),
        ("silent", "true".into(), "10"),
        ("lf", format!("exec {BIN} --eol lf"), "10"),
        (
            "reads-the-cr",
            format!(
                "if grep -q \"$(printf '\\r')\" input.txt; then \
                 echo \"KeyError: 'X\\r'\" >&2; exit 1; fi; exec {BIN} --eol lf"
            ),
            "10",
        ),
    ];
    for (name, script, timeout) in students {
        let (code, text) = against(&script, timeout);
        assert_eq!(
            code,
            Some(if name == "correct" { 0 } else { 1 }),
            "{name}: {text}"
        );
        seen += &format!("--- {name} (exit {})\n{text}", code.unwrap());
    }
    insta::assert_snapshot!(seen);
}

/// The LF re-run that tells a CR dependence happens only where it can explain the
/// verdict: each of these programs is right on the input without its CR, but is
/// re-run only when it wrote a wrong output or crashed showing the CR.
#[test]
fn only_a_wrong_output_or_a_crash_showing_the_cr_is_run_again_with_lf() {
    let on_cr = |then: &str| {
        format!("if grep -q \"$(printf '\\r')\" input.txt; then {then}; fi; exec {BIN} --eol lf")
    };
    let note = "with LF line ends in input.txt its output is right";
    let cases = [
        ("echo 'X' > output.txt; exit 0", "FAIL", true, "10"),
        ("echo \"KeyError: 'X\\r'\" >&2; exit 1", "CRASH", true, "10"),
        ("echo 'IndexError' >&2; exit 1", "CRASH", false, "10"),
        ("sleep 20", "TIMEOUT", false, "0.5"),
        ("exit 0", "NO OUTPUT", false, "10"),
    ];
    for (then, verdict, rerun, timeout) in cases {
        let (code, text) = against(&on_cr(then), timeout);
        assert_eq!(code, Some(1), "{then}: {text}");
        assert!(text.starts_with(verdict), "{then}: {text}");
        assert_eq!(text.contains(note), rerun, "{then}: {text}");
    }
}

#[test]
fn a_slow_program_is_killed_on_time() {
    let start = std::time::Instant::now();
    let (code, text) = against("sleep 30", "0.2");
    assert_eq!(code, Some(1));
    assert!(text.starts_with("TIMEOUT"), "{text}");
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn bad_arguments_exit_2() {
    let missing = reversi(&["batch", "/no/such/folder"]);
    assert_eq!(missing.status.code(), Some(2));
    let empty = tempfile::tempdir().unwrap();
    let none = reversi(&["batch", empty.path().to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no case found"));
    let timeout = reversi(&["batch", "testcases", "--timeout", "0"]);
    assert_eq!(timeout.status.code(), Some(2));
}

#[test]
fn outputs_are_kept_on_request() {
    let kept = tempfile::tempdir().unwrap();
    let cases = testcases().join("cs561/s2017");
    let output = reversi(&[
        "batch",
        cases.to_str().unwrap(),
        "--keep",
        kept.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    for case in ["case1", "case2", "case3", "case4", "case5"] {
        let ours = fs::read(kept.path().join(case).join("output.txt")).unwrap();
        assert_eq!(
            ours,
            fs::read(cases.join(case).join("output.txt")).unwrap(),
            "{case}"
        );
    }
}

#[test]
fn each_mistake_is_explained_once_unless_verbose() {
    let cases = testcases().join("cs561/s2017");
    let command = format!("exec {BIN} --eol lf");
    let run = |verbose: bool| {
        let mut args = vec![
            "batch",
            cases.to_str().unwrap(),
            "--against",
            &command,
            "--read-only",
            BIN,
        ];
        if verbose {
            args.push("--verbose");
        }
        let output = reversi(&args);
        assert_eq!(output.status.code(), Some(1));
        stdout(&output)
    };
    let grouped = run(false);
    assert!(grouped.contains("  line ends only (CRLF vs LF): case1, case2, case3, case4, case5\n"));
    assert_eq!(grouped.matches("differ in byte form only").count(), 1);
    let verbose = run(true);
    assert_eq!(verbose.matches("differ in byte form only").count(), 5);
    assert!(!verbose.contains("mistakes, each once"));
}

#[test]
fn a_command_naming_a_missing_or_unseen_file_is_refused_before_any_case() {
    let cases = testcases().join("cs561/s2017");
    let missing = reversi(&[
        "batch",
        cases.to_str().unwrap(),
        "--against",
        "python3 /no/such/hw.py",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("/no/such/hw.py: the command names this file, which does not exist"));
    let unseen = reversi(&["batch", cases.to_str().unwrap(), "--against", BIN]);
    assert_eq!(unseen.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unseen.stderr)
        .contains("show it (or its folder) with --read-only"));
    assert_eq!(stdout(&unseen), "");
}

#[test]
fn a_command_naming_a_file_of_the_current_folder_by_a_relative_path_is_refused() {
    let cases = testcases().join("cs561/s2017");
    let folder = tempfile::tempdir().unwrap();
    fs::write(folder.path().join("hw.py"), "print('hi')\n").unwrap();
    let output = Command::new(BIN)
        .current_dir(folder.path())
        .args([
            "batch",
            cases.to_str().unwrap(),
            "--against",
            "python3 hw.py",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let absolute = folder.path().join("hw.py");
    let absolute = absolute.display();
    assert!(
        String::from_utf8_lossy(&output.stderr).contains(&format!(
            "hw.py: the command names this file relative to the current folder, but each \
             program runs in a fresh work folder; name it by its full path ({absolute}) and \
             show it with --read-only {absolute}"
        )),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout(&output), "");
}
