//! How the solver treats its output file when things go wrong: killed while writing,
//! an output over `--max-log-bytes`, an input that is not a file. Each time the old
//! `output.txt` must stay byte for byte, with no stray file beside it.

#![cfg(unix)]

mod common;

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

const OLD_OUTPUT: &[u8] = b"the previous output\r\n";

/// The start position with cut-off depth `depth`.
fn start(depth: &str) -> Vec<u8> {
    format!(
        "X\r\n{depth}\r\n********\r\n********\r\n********\r\n***OX***\r\n***XO***\r\n\
         ********\r\n********\r\n********"
    )
    .into_bytes()
}

fn solver() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reversi"));
    common::with_default_signals(&mut command);
    command
}

/// A folder holding `input.txt` and the old `output.txt`.
fn case(input: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), input).unwrap();
    fs::write(dir.path().join("output.txt"), OLD_OUTPUT).unwrap();
    dir
}

/// Every name in `dir`, hidden ones included.
fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn assert_left_as_it_was(dir: &Path, what: &str) {
    assert_eq!(
        file_names(dir),
        ["input.txt", "output.txt"],
        "{what}: no stray file"
    );
    assert!(
        fs::read(dir.join("output.txt")).unwrap() == OLD_OUTPUT,
        "{what}: output.txt changed"
    );
}

/// Runs the solver in `dir` with `args`, failing the test rather than hanging if it
/// does not end within a minute.
fn run_within_a_minute(dir: &Path, args: &[&str]) -> Output {
    let (done, finished) = mpsc::channel();
    let mut command = solver();
    command.args(args).current_dir(dir).stdin(Stdio::null());
    thread::spawn(move || done.send(command.output().unwrap()));
    finished
        .recv_timeout(Duration::from_secs(60))
        .expect("the solver did not end within a minute")
}

/// Killed at any point of writing a log of tens of MB, by any signal, the solver
/// leaves the folder as it was. The moments are fractions of a whole run's time, so
/// that they fall inside the run whatever the build and the machine; a run that ends,
/// or puts its whole output in place, before its signal (the machine was slower when
/// timed) is tried again sooner.
#[test]
fn a_solver_killed_while_writing_leaves_no_trace() {
    let input = start("11");
    let dir = case(&input);
    // Left to finish, it writes the whole log (36 MB): the time to take fractions of.
    let (whole_run, output) = {
        let scratch = case(&input);
        let started = Instant::now();
        assert!(solver()
            .current_dir(scratch.path())
            .status()
            .unwrap()
            .success());
        let output = fs::read(scratch.path().join("output.txt")).unwrap();
        (started.elapsed(), output)
    };
    assert!(output.len() > 30_000_000, "{} bytes", output.len());
    let cases = [
        (libc::SIGKILL, 0.02),
        (libc::SIGKILL, 0.1),
        (libc::SIGKILL, 0.25),
        (libc::SIGKILL, 0.45),
        (libc::SIGKILL, 0.7),
        (libc::SIGKILL, 0.9),
        (libc::SIGTERM, 0.15),
        (libc::SIGTERM, 0.65),
        (libc::SIGINT, 0.3),
        (libc::SIGINT, 0.8),
        (libc::SIGHUP, 0.05),
        (libc::SIGHUP, 0.55),
    ];
    for (signal, fraction) in cases {
        let mut delay = whole_run.mul_f64(fraction);
        loop {
            let mut child = solver()
                .current_dir(dir.path())
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            thread::sleep(delay);
            // SAFETY: a plain kill of our own child, not yet waited for.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
            let status = child.wait().unwrap();
            let what = format!("signal {signal} after {delay:?} of {whole_run:?}");
            // Killed after the rename (while freeing its trees or exiting), it leaves
            // the whole new output, which is as good as finishing first.
            let replaced = file_names(dir.path()) == ["input.txt", "output.txt"]
                && fs::read(dir.path().join("output.txt")).unwrap() == output;
            if status.success() || replaced {
                // It finished first: put the old output back and signal it sooner.
                fs::write(dir.path().join("output.txt"), OLD_OUTPUT).unwrap();
                delay /= 2;
                continue;
            }
            assert_eq!(status.signal(), Some(signal), "{what}: {status}");
            assert_left_as_it_was(dir.path(), &what);
            break;
        }
    }
}

/// An output over the limit is refused with exit 2, leaving the old one: official
/// cases under a limit below their size (703 and 1259 bytes).
#[test]
fn an_output_over_the_limit_is_refused() {
    let cases = [
        ("testcases/handout/s2017-example", "500"),
        ("testcases/cs561/s2017/case4", "1000"),
    ];
    for (folder, limit) in cases {
        let input = fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(folder)
                .join("input.txt"),
        )
        .unwrap();
        let dir = case(&input);
        let out = run_within_a_minute(dir.path(), &["--max-log-bytes", limit]);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{folder}: {stderr}");
        assert_eq!(
            stderr,
            format!(
                "reversi: output.txt: the output would be larger than the limit of {limit} \
                 bytes; output.txt is left as it was (raise the limit with --max-log-bytes N)\n"
            ),
            "{folder}"
        );
        assert_left_as_it_was(dir.path(), folder);
    }
}

#[test]
fn an_output_of_exactly_the_limit_is_written() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/handout/s2017-example");
    let dir = case(&fs::read(example.join("input.txt")).unwrap());
    let expected = fs::read(example.join("output.txt")).unwrap();
    let limit = expected.len().to_string();
    let out = run_within_a_minute(dir.path(), &["--max-log-bytes", &limit]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(fs::read(dir.path().join("output.txt")).unwrap() == expected);
}

/// Standard output gets the first bytes up to the limit, then exit 2.
#[test]
fn standard_output_is_cut_at_the_limit() {
    let dir = case(&start("3"));
    let out = run_within_a_minute(dir.path(), &["-o", "-", "--max-log-bytes", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout.len(), 100);
    assert!(out.stdout.starts_with(b"********\r\n"));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "reversi: <stdout>: the output was cut at the limit of 100 bytes (raise the limit \
         with --max-log-bytes N)\n"
    );
    assert_left_as_it_was(dir.path(), "stdout");
}

/// A cut-off depth far beyond the end of the game would write a log larger than any
/// disk: the search stops as soon as the limit is reached.
#[test]
fn a_huge_depth_stops_at_the_limit() {
    let dir = case(&start("2147483648"));
    let out = run_within_a_minute(dir.path(), &["--max-log-bytes", "3000000"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_left_as_it_was(dir.path(), "huge depth");
}

/// An input that is not a regular file is refused at once, without waiting for a
/// writer to open the FIFO.
#[test]
fn an_input_that_is_not_a_file_is_refused_at_once() {
    let dir = case(b"");
    fs::remove_file(dir.path().join("input.txt")).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.path().join("input.txt"))
        .status()
        .unwrap();
    assert!(made.success());
    let cases = [
        ("input.txt", "input.txt: a FIFO (named pipe)"),
        (".", ".: a folder"),
        ("/dev/null", "/dev/null: a device"),
    ];
    for (input, found) in cases {
        let out = run_within_a_minute(dir.path(), &["-i", input]);
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("reversi: {found}; expected a regular file (or - for standard input)\n")
        );
        assert!(fs::read(dir.path().join("output.txt")).unwrap() == OLD_OUTPUT);
        assert_eq!(file_names(dir.path()), ["input.txt", "output.txt"]);
    }
    // The courses' board files too.
    for args in [
        &["tristate", "input.txt"][..],
        &[
            "uf",
            "move",
            "--color",
            "black",
            "--depth",
            "1",
            "input.txt",
        ],
        &["york", "--player", "1", "--depth", "1", "input.txt"],
    ] {
        let out = run_within_a_minute(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8(out.stderr)
                .unwrap()
                .contains("input.txt: a FIFO (named pipe); expected a regular file"),
            "{args:?}"
        );
    }
}

#[test]
fn fsync_writes_the_same_bytes() {
    let official = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017/case4");
    let dir = case(&fs::read(official.join("input.txt")).unwrap());
    let output = run_within_a_minute(dir.path(), &["--fsync"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        fs::read(dir.path().join("output.txt")).unwrap(),
        fs::read(official.join("output.txt")).unwrap()
    );
    assert_eq!(file_names(dir.path()), ["input.txt", "output.txt"]);
}
