//! How the solver treats its output file when things go wrong: killed while writing.
//! Each time the old `output.txt` must stay byte for byte, with no stray file beside
//! it.

#![cfg(unix)]

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

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
    Command::new(env!("CARGO_BIN_EXE_reversi"))
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

/// Killed at any point of writing a log of tens of MB, by any signal, the solver
/// leaves the folder as it was.
#[test]
fn a_solver_killed_while_writing_leaves_no_trace() {
    let input = start("11");
    let dir = case(&input);
    // The log is large: 36 MB, about a second of writing for a debug build.
    let cases = [
        (libc::SIGKILL, 5),
        (libc::SIGKILL, 20),
        (libc::SIGKILL, 50),
        (libc::SIGKILL, 90),
        (libc::SIGKILL, 140),
        (libc::SIGKILL, 200),
        (libc::SIGTERM, 30),
        (libc::SIGTERM, 150),
        (libc::SIGINT, 60),
        (libc::SIGINT, 180),
        (libc::SIGHUP, 10),
        (libc::SIGHUP, 120),
    ];
    for (signal, delay_ms) in cases {
        let mut child = solver()
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        thread::sleep(Duration::from_millis(delay_ms));
        // SAFETY: a plain kill of our own child, not yet waited for.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        let what = format!("signal {signal} after {delay_ms} ms");
        assert_eq!(status.signal(), Some(signal), "{what}: {status}");
        assert_left_as_it_was(dir.path(), &what);
    }
    // Left to finish, it writes the whole log.
    assert!(solver().current_dir(dir.path()).status().unwrap().success());
    let output = fs::read(dir.path().join("output.txt")).unwrap();
    assert!(output.len() > 30_000_000, "{} bytes", output.len());
}
