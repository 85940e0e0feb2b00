//! The platforms' bundles run as the platforms run them: Vocareum's library made
//! private before any student's program runs; a time budget that ends what still
//! runs when it ends, and reports always written whole, however the grading ends.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use grading::{next, official, package_hw_sh, remove_cgroups_of, remove_runs_left, text, BIN};

/// A student folder with a copy of the solver and `hw.sh` running it.
fn platform_submission(folder: &Path) {
    fs::create_dir_all(folder).unwrap();
    fs::copy(BIN, folder.join("solver")).unwrap();
    fs::write(folder.join("hw.sh"), "exec \"$(dirname \"$0\")/solver\"\n").unwrap();
}

/// Runs Vocareum's `grade.sh` of `library` in the work folder `work`, as root, with
/// its files in `dir`, the sandbox `sandbox`.
fn run_vocareum(dir: &Path, library: &Path, work: &Path, sandbox: &str) -> Output {
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    Command::new("bash")
        .arg(library.join("grade.sh"))
        .current_dir(work)
        .env("ASNLIB", library)
        .env("TMPDIR", &tmp)
        .env("REVERSI_SANDBOX", sandbox)
        .env("vocareumGradeFile", dir.join("grade.csv"))
        .env("vocareumReportFile", dir.join("report.txt"))
        .output()
        .unwrap()
}

/// Vocareum's library is uploaded readable by all (its cases 0644, the binary
/// 0755): `grade.sh` makes it root's and closed to others before grading.
#[test]
fn the_vocareum_library_is_made_private_before_grading() {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let library = dir.path().join("asnlib");
    package_hw_sh("vocareum", &official(), &library, &[]);
    let expected = library.join("cases/case1/output.txt");
    assert_eq!(fs::metadata(&expected).unwrap().mode() & 0o077, 0o044);
    let work = dir.path().join("work");
    platform_submission(&work);
    let status = run_vocareum(dir.path(), &library, &work, "separate-user");
    assert!(status.status.success(), "{}", text(&status.stderr));
    let report = fs::read_to_string(dir.path().join("report.txt")).unwrap();
    assert_eq!(
        fs::read_to_string(dir.path().join("grade.csv")).unwrap(),
        "Correctness,5\n",
        "{report}"
    );
    for entry in walkdir::WalkDir::new(&library) {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        assert_eq!(
            (meta.uid(), meta.mode() & 0o077),
            (0, 0),
            "{} is open to others",
            entry.path().display()
        );
    }
}

/// Unpacks a Gradescope bundle into `dir/autograder/source`, fills the submission
/// with `hw.sh` (`script`, then the solver), runs `run_autograder` and returns the
/// path of its `results.json`.
fn run_gradescope(dir: &Path, extra: &[&str], script: &str) -> std::path::PathBuf {
    let zip = dir.join("autograder.zip");
    package_hw_sh("gradescope", &official(), &zip, extra);
    let root = dir.join("autograder");
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    archive.extract(root.join("source")).unwrap();
    let submission = root.join("submission");
    platform_submission(&submission);
    fs::write(
        submission.join("hw.sh"),
        format!("{script}\nexec \"$(dirname \"$0\")/solver\"\n"),
    )
    .unwrap();
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", &root)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    root.join("results/results.json")
}

/// A budget of 4 s, 0.5 s per case (a wall-time net of 2.5 s) and a program that
/// sleeps: the first cases (one a slot) run and time out; the next start while the
/// budget lasts and are ended when it ends; the last are not started: all NOT RUN,
/// and `results.json` says so, valid.
#[test]
fn cases_the_budget_cannot_cover_are_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let extra = ["--budget", "4", "--timeout", "0.5"];
    let results = run_gradescope(dir.path(), &extra, "sleep 60");
    validators::validate_gradescope(&results);
    let results: serde_json::Value = serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
    assert_eq!(results["score"].as_f64(), Some(0.0));
    let outputs: Vec<&str> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["output"].as_str().unwrap())
        .collect();
    assert_eq!(outputs.len(), 5);
    let ran = outputs
        .iter()
        .take_while(|output| output.starts_with("TIMEOUT: "))
        .count();
    assert!((1..=2).contains(&ran), "{outputs:?}");
    let ended = "NOT RUN: not run: the grading's time budget ended while it ran (every \
                 process of the run was killed)";
    let spent = "NOT RUN: not run: the grading's time budget was spent";
    for output in &outputs[ran..] {
        assert!(*output == ended || *output == spent, "{outputs:?}");
    }
    assert!(
        outputs.contains(&ended) && outputs.ends_with(&[spent]),
        "{outputs:?}"
    );
}

/// The bundles' defaults fit the platform: a budget a margin under Gradescope's
/// documented 10 minutes (a conservative 270 s on Vocareum); two runs at once of
/// 256 MiB each, their files 64 MiB, within Gradescope's 768 MB container.
#[test]
fn the_bundles_defaults_fit_the_platform() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    package_hw_sh("gradescope", &official(), &zip, &[]);
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    let mut script = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("run_autograder").unwrap(), &mut script)
        .unwrap();
    assert!(script.contains("'--budget=540'"), "{script}");
    for flag in ["'--memory=256'", "'--file-size=64'", "'--jobs=2'"] {
        assert!(script.contains(flag), "{flag}: {script}");
    }
    let library = dir.path().join("asnlib");
    package_hw_sh(
        "vocareum",
        &official(),
        &library,
        &["--memory", "512", "--jobs", "1"],
    );
    let script = fs::read_to_string(library.join("grade.sh")).unwrap();
    for flag in ["'--budget=270'", "'--memory=512'", "'--jobs=1'"] {
        assert!(script.contains(flag), "{flag}: {script}");
    }
}

/// A memory bomb in a Gradescope bundle meets the bundle's own limit (256 MiB a
/// run) and its row, not the container's OOM killer.
#[test]
fn a_memory_bomb_meets_the_bundles_limit() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = "python3 -c 'x = b\"a\" * (1 << 30)' || exit 1";
    let results = run_gradescope(dir.path(), &[], bomb);
    validators::validate_gradescope(&results);
    let results: serde_json::Value = serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
    for test in results["tests"].as_array().unwrap() {
        let output = test["output"].as_str().unwrap();
        assert!(
            output.starts_with("CRASH: ")
                && (output.contains("MemoryError") || output.contains("out of memory")),
            "{output}"
        );
    }
}

/// `grade --single` writing both platforms' files, killed (SIGKILL) at random
/// moments: whenever it was killed after its first write, `results.json` is valid
/// against Gradescope's schema and the Vocareum grade file holds a score; while one
/// grading runs to its end, every read of `results.json` is whole JSON.
#[test]
fn a_grading_killed_at_any_moment_leaves_whole_reports() {
    let dir = tempfile::tempdir().unwrap();
    let submission = dir.path().join("ann");
    platform_submission(&submission);
    fs::write(
        submission.join("hw.sh"),
        "sleep 0.2\nexec \"$(dirname \"$0\")/solver\"\n",
    )
    .unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let results = dir.path().join("results.json");
    let grade_file = dir.path().join("grade.csv");
    let start_grading = || {
        let _ = fs::remove_file(&results);
        let _ = fs::remove_file(&grade_file);
        Command::new(BIN)
            .args([
                "grade",
                "--single",
                "-j",
                "1",
                "--run",
                "sh {submission}/hw.sh",
            ])
            .arg(format!("--cases={}", official().display()))
            .arg(format!("--gradescope={}", results.display()))
            .args(["--vocareum", "--"])
            .arg(&submission)
            .env("TMPDIR", &tmp)
            .env("vocareumGradeFile", &grade_file)
            .env("vocareumReportFile", dir.path().join("report.txt"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let whole = |why: &str| {
        validators::validate_gradescope(&results);
        let grade = fs::read_to_string(&grade_file).unwrap();
        let score = grade.strip_prefix("Correctness,").unwrap_or_default();
        assert!(
            score.trim_end().parse::<f64>().is_ok() && grade.ends_with('\n'),
            "{why}: {grade:?}"
        );
    };
    // One grading to its end, its results.json read all the while.
    let mut child = start_grading();
    let started = Instant::now();
    let mut reads = 0;
    let full = loop {
        if let Ok(bytes) = fs::read(&results) {
            let value: serde_json::Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("read {reads}: not JSON ({e}): {bytes:?}"));
            assert!(value["tests"].is_array());
            reads += 1;
        }
        if child.try_wait().unwrap().is_some() {
            break started.elapsed();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assert!(reads > 10, "{reads} reads");
    whole("complete");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kills seeded with {seed}");
    let mut state = seed;
    let mut partial = 0;
    for kill in 0..6 {
        let mut child = start_grading();
        let at = Duration::from_millis(next(&mut state) % (full.as_millis() as u64 + 1));
        std::thread::sleep(at);
        let _ = child.kill();
        child.wait().unwrap();
        remove_cgroups_of(child.id());
        remove_runs_left(&tmp);
        if results.exists() {
            whole(&format!("kill {kill} at {at:?}"));
            let text = fs::read_to_string(&results).unwrap();
            if text.contains("not run: the grading ended before this case") {
                partial += 1;
            }
        }
    }
    eprintln!("{partial} of 6 kills left a partial report");
}
