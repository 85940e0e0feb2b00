//! Verdicts by CPU time: `--timeout` bounds the CPU time of all a run's processes
//! and threads, wall time being only a net (3 x --timeout + 1 s) that catches a
//! program that sleeps. A program's verdict does not change when other processes
//! keep the cores busy.

#[path = "common/grading.rs"]
mod grading;

use std::path::Path;
use std::process::{Child, Command};

use grading::{one_case, reversi, text, BIN};

/// `batch` of `cases` against `command`, with `--timeout timeout`: the row.
fn row(cases: &Path, command: &str, timeout: &str) -> String {
    let output = reversi(&[
        "batch",
        cases.to_str().unwrap(),
        "--against",
        command,
        "--read-only",
        BIN,
        "--timeout",
        timeout,
        "-j",
        "1",
    ]);
    let stdout = text(&output.stdout);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{stdout}{}",
        text(&output.stderr)
    );
    stdout.lines().next().unwrap_or_default().to_string()
}

/// Python that spends `seconds` of its own CPU time, then starts our solver.
fn busy_then_solve(seconds: f64) -> String {
    format!(
        "python3 -c 'import time\nstart = time.process_time()\nwhile time.process_time() - \
         start < {seconds}: pass' && exec {BIN}"
    )
}

/// Processes that keep every core busy until dropped.
struct Load(Vec<Child>);

impl Load {
    fn new(count: usize) -> Load {
        Load(
            (0..count)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// 1.5 s of CPU under a 2 s timeout, with two busy processes (and whatever else
/// runs) on the cores: more than 2 s of wall time, but within its CPU time, so it
/// passes; on a quiet machine too.
#[test]
fn a_program_within_its_cpu_time_passes_on_a_loaded_machine() {
    let dir = tempfile::tempdir().unwrap();
    let cases = one_case(dir.path());
    let command = busy_then_solve(1.5);
    let quiet = row(&cases, &command, "2");
    assert!(quiet.starts_with("PASS"), "{quiet}");
    let load = Load::new(2);
    let start = std::time::Instant::now();
    let loaded = row(&cases, &command, "2");
    let took = start.elapsed();
    drop(load);
    assert!(loaded.starts_with("PASS"), "loaded ({took:?}): {loaded}");
}

/// A program that sleeps uses no CPU time: the wall-time net ends it, and its row
/// says so.
#[test]
fn a_sleeping_program_is_a_timeout_by_the_wall_net() {
    let dir = tempfile::tempdir().unwrap();
    let cases = one_case(dir.path());
    let start = std::time::Instant::now();
    let row = row(&cases, "sleep 60", "0.5");
    let took = start.elapsed().as_secs_f64();
    assert!(row.starts_with("TIMEOUT"), "{row}");
    assert!(
        row.contains("still running after 2.5 s of wall time (3 x --timeout + 1 s)")
            && row.contains("sleeping or waiting"),
        "{row}"
    );
    assert!((2.5..20.0).contains(&took), "{took} s");
}

/// The CPU time of every process of the run counts: two busy processes reach a
/// 1 s limit in half a second of wall time.
#[test]
fn the_cpu_time_of_every_process_of_the_run_counts() {
    let dir = tempfile::tempdir().unwrap();
    let cases = one_case(dir.path());
    let busy = "while :; do :; done";
    let row = row(&cases, &format!("({busy}) & ({busy}) & wait"), "1");
    assert!(row.starts_with("TIMEOUT"), "{row}");
    assert!(
        row.contains("used 1 s of CPU time (--timeout; all its processes and threads)"),
        "{row}"
    );
}
