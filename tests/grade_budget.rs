//! A tight `--budget` grades what it can: every case starts while the budget lasts,
//! what still runs when it ends is ended (NOT RUN), and the reports, written before
//! it ends, keep the points of every case that finished; nothing of an ended run is
//! left, under bubblewrap and as a separate user.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use grading::{official, text, BIN};

/// The row of a case not started for the budget, and of one ended by it.
const SPENT: &str = "NOT RUN: not run: the grading's time budget was spent";
const ENDED: &str = "NOT RUN: not run: the grading's time budget ended while it ran";

/// 16 cases (the official five, again and again), in a folder closed to others.
fn sixteen_cases(dir: &Path) -> std::path::PathBuf {
    let cases = dir.join("cases");
    for n in 0..16 {
        let to = cases.join(format!("c{n:02}"));
        fs::create_dir_all(&to).unwrap();
        let from = official().join(format!("case{}", n % 5 + 1));
        for file in ["input.txt", "output.txt"] {
            fs::copy(from.join(file), to.join(file)).unwrap();
        }
    }
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
    cases
}

/// The processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| fs::read(entry.path().join("cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(marker) && !line.contains("grade_budget"))
        .collect()
}

/// The class, scaled: 16 slow but honest cases (0.4 s of CPU each, then the
/// right output) of a 2 s `--timeout`, 2 jobs, and `--budget 2`, where each case's
/// wall-time net (7 s) is past the budget. The cases that finish in time pass and
/// keep their points; those running at the end of the budget are ended, the others
/// not started; `results.json` is written, valid, before the budget ends (the grader
/// has exited by then, give or take its start); no process a run started (each
/// starts a `sleep`, which it ends once its output is written) nor any run folder is left.
#[test]
fn a_tight_budget_keeps_the_points_of_every_case_that_finished() {
    for sandbox in ["bubblewrap", "separate-user"] {
        let dir = tempfile::tempdir().unwrap();
        // (a separate user enters the folders above the submission and the runs')
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
        let cases = sixteen_cases(dir.path());
        let submission = dir.path().join("alice");
        fs::create_dir_all(&submission).unwrap();
        fs::set_permissions(&submission, fs::Permissions::from_mode(0o755)).unwrap();
        fs::copy(BIN, submission.join("solver")).unwrap();
        let marker = format!("86399.{}", std::process::id());
        fs::write(
            submission.join("hw.sh"),
            format!(
                "sleep {marker} &\npython3 -c 'import time\nwhile time.process_time() < 0.4: \
                 pass'\n\"$(dirname \"$0\")/solver\"\nkill $!; wait $!; exit 0\n"
            ),
        )
        .unwrap();
        let tmp = dir.path().join("tmp");
        fs::create_dir_all(&tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o711)).unwrap();
        let results = dir.path().join("results.json");
        let budget = 2.0;
        let started = Instant::now();
        let output = Command::new(BIN)
            .args([
                "grade",
                "--single",
                "--run",
                "sh {submission}/hw.sh",
                "--cases",
            ])
            .arg(&cases)
            .args([
                "--timeout",
                "2",
                "--jobs",
                "2",
                "--budget",
                "2",
                "--sandbox",
                sandbox,
            ])
            .arg("--gradescope")
            .arg(&results)
            .arg("--")
            .arg(&submission)
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        let took = started.elapsed();
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        // (the grader's own start, before its budget's clock, is a few tens of ms)
        assert!(
            took < Duration::from_secs_f64(budget + 0.5),
            "{sandbox}: the grading took {took:?} of a {budget} s budget"
        );
        validators::validate_gradescope(&results);
        let results: serde_json::Value =
            serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
        let tests = results["tests"].as_array().unwrap();
        let outputs: Vec<&str> = tests
            .iter()
            .map(|t| t["output"].as_str().unwrap())
            .collect();
        assert_eq!(outputs.len(), 16);
        let passed = outputs.iter().take_while(|o| **o == "PASS").count();
        let ended = outputs.iter().filter(|o| o.starts_with(ENDED)).count();
        let spent = outputs.iter().filter(|o| **o == SPENT).count();
        // The cases run in order, two at a time: those that finished pass, then the
        // two running at the end are ended, then the rest never started.
        assert_eq!(passed + ended + spent, 16, "{sandbox}: {outputs:#?}");
        assert!(passed >= 2, "{sandbox}: {outputs:#?}");
        assert!(ended >= 1 && spent >= 1, "{sandbox}: {outputs:#?}");
        assert_eq!(
            results["score"].as_f64(),
            Some(passed as f64),
            "{sandbox}: {outputs:#?}"
        );
        for test in tests {
            let pass = test["status"] == "passed";
            assert_eq!(test["score"].as_f64(), Some(if pass { 1.0 } else { 0.0 }));
        }
        // Nothing of a run is left: its processes, its folder.
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(processes_with(&marker), Vec::<String>::new(), "{sandbox}");
        let left: Vec<_> = fs::read_dir(&tmp).unwrap().flatten().collect();
        assert!(left.is_empty(), "{sandbox}: {left:?}");
    }
}
