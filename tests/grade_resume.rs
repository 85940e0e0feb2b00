//! `grade --resume`: a grading killed at any moment (SIGKILL) and resumed with the
//! same command ends with the reports of one whole grading; a resume with other
//! options is refused, a student whose folder changed is graded again, a cut line of
//! the journal is passed over, and one grading holds a class's journal at a time.

#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use grading::{next, official, one_case, remove_cgroups_of, text, BIN};

/// A class whose students each sleep a little, then run as `programs` say.
fn class(dir: &Path, programs: &[(&str, String)]) -> PathBuf {
    let class = dir.join("class");
    for (name, script) in programs {
        fs::create_dir_all(class.join(name)).unwrap();
        fs::write(class.join(name).join("hw.sh"), format!("{script}\n")).unwrap();
    }
    class
}

/// A grading of `class` on the official cases, one run at a time, writing every
/// report into `out`, its journal under `state`, its runs' folders in `tmp`.
struct Grading<'a> {
    class: &'a Path,
    out: &'a Path,
    state: &'a Path,
    tmp: &'a Path,
}

impl Grading<'_> {
    fn command(&self, extra: &[&str]) -> Command {
        fs::create_dir_all(self.out).unwrap();
        let cases = official();
        let mut command = Command::new(BIN);
        command
            .args(["grade", "--run", "sh {submission}/hw.sh", "-j", "1"])
            .arg(format!("--read-only={BIN}"))
            .arg(format!("--cases={}", cases.display()))
            .args(if extra.contains(&"--timeout") {
                &["--json"][..]
            } else {
                &["--timeout", "5", "--json"]
            })
            .arg(format!("--csv={}", self.out.join("class.csv").display()))
            .arg(format!("--junit={}", self.out.join("class.xml").display()))
            .arg(format!("--reports={}", self.out.join("reports").display()))
            .args(extra)
            .arg("--")
            .arg(self.class)
            .env("XDG_STATE_HOME", self.state)
            .env("TMPDIR", self.tmp);
        command
    }

    fn start(&self, extra: &[&str]) -> Child {
        self.command(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    fn run(&self, extra: &[&str]) -> Output {
        self.command(extra).output().unwrap()
    }

    /// The journals under `state`.
    fn journals(&self) -> Vec<PathBuf> {
        let folder = self.state.join("reversi/grade");
        let mut journals: Vec<PathBuf> = fs::read_dir(folder)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect();
        journals.sort();
        journals
    }
}

/// What one grading wrote, its times left out: the JSON without `seconds`, the
/// JUnit XML without `time`, the CSV and each text report as they are.
#[derive(Debug, PartialEq)]
struct Written {
    json: serde_json::Value,
    csv: String,
    junit: String,
    reports: Vec<(String, String)>,
}

fn written(out: &Path, stdout: &[u8]) -> Written {
    fn untimed(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                map.remove("seconds");
                map.values_mut().for_each(untimed);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(untimed),
            _ => {}
        }
    }
    let mut json: serde_json::Value = serde_json::from_slice(stdout).unwrap();
    untimed(&mut json);
    let junit = fs::read_to_string(out.join("class.xml")).unwrap();
    let junit = junit
        .split(' ')
        .filter(|word| !word.starts_with("time=\""))
        .collect::<Vec<_>>()
        .join(" ");
    let mut reports: Vec<(String, String)> = fs::read_dir(out.join("reports"))
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&path).unwrap())
        })
        .collect();
    reports.sort();
    Written {
        json,
        csv: fs::read_to_string(out.join("class.csv")).unwrap(),
        junit,
        reports,
    }
}

/// The students kept, as the resumed grading says it on stderr.
fn kept(stderr: &str) -> usize {
    stderr
        .split(" students kept")
        .next()
        .and_then(|before| before.rsplit(": ").next())
        .and_then(|count| count.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or(0)
}

/// Kills `child` (SIGKILL) and removes its cgroups (empty once its runs died; the
/// next grading takes only those a minute old). Its run folders are left for the next
/// grading to remove.
fn kill(mut child: Child) {
    let _ = child.kill();
    child.wait().unwrap();
    remove_cgroups_of(child.id());
}

/// Whether a process runs `sleep SECONDS`.
fn sleeping(seconds: &str) -> bool {
    let wanted = format!("sleep\0{seconds}\0");
    fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        fs::read(entry.path().join("cmdline")).is_ok_and(|cmdline| cmdline == wanted.as_bytes())
    })
}

/// Gradings killed at random moments (their seed printed), each resumed with the same
/// command and `--resume`, killed again, and at last resumed to the end: the reports
/// are those of one grading that was never killed, some students are kept rather than
/// graded again, every CSV a kill leaves is whole, and nothing stays behind (no
/// journal, no run folder).
#[test]
fn a_grading_killed_at_any_moment_resumes_to_the_reports_of_a_whole_one() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(
        dir.path(),
        &[
            ("ann", format!("sleep 0.1; exec {BIN}")),
            ("bob", format!("sleep 0.1; exec {BIN} --eol lf")),
            ("cat", "sleep 0.1; echo 'Traceback' >&2; exit 1".into()),
            ("dan", "sleep 0.1; true".into()),
            ("eve", format!("sleep 0.1; exec {BIN}")),
        ],
    );
    let (state, tmp) = (dir.path().join("state"), dir.path().join("tmp"));
    fs::create_dir(&tmp).unwrap();
    let reference_out = dir.path().join("reference");
    let reference = Grading {
        class: &class,
        out: &reference_out,
        state: &state,
        tmp: &tmp,
    };
    let started = Instant::now();
    let output = reference.run(&[]);
    let whole = started.elapsed();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let expected = written(&reference_out, &output.stdout);
    assert!(
        reference.journals().is_empty(),
        "{:?}",
        reference.journals()
    );

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kills seeded with {seed}; a whole grading takes {whole:?}");
    let mut random = seed;
    let mut kept_in_all = 0;
    for chain in 0..2 {
        let out = dir.path().join(format!("chain{chain}"));
        let grading = Grading {
            class: &class,
            out: &out,
            state: &state,
            tmp: &tmp,
        };
        for kill_number in 0..3 {
            let extra: &[&str] = if kill_number == 0 { &[] } else { &["--resume"] };
            let child = grading.start(extra);
            let at = Duration::from_millis(next(&mut random) % (whole.as_millis() as u64 + 1));
            std::thread::sleep(at);
            kill(child);
            // What a kill leaves is whole: a CSV of whole rows, the header first.
            if let Ok(csv) = fs::read_to_string(out.join("class.csv")) {
                assert!(
                    csv.starts_with("student,") && csv.ends_with('\n'),
                    "chain {chain}, kill {kill_number} at {at:?}: {csv:?}"
                );
            }
        }
        let output = grading.run(&["--resume"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        kept_in_all += kept(&stderr);
        assert_eq!(
            written(&out, &output.stdout),
            expected,
            "chain {chain}: {stderr}"
        );
        assert!(!state.join("reversi").exists(), "{:?}", grading.journals());
        assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0, "run folders left");
    }
    eprintln!("the two last resumes kept {kept_in_all} students");
}

/// A grading killed while its last student sleeps, after the others are in its
/// journal: a second grading of the class cannot take the journal while it runs; a
/// resume with another `--timeout` is refused (exit 2) and leaves the journal as it
/// was; a line cut by a kill is passed over; a student whose folder changed since is
/// graded again and the others are kept; a grading without `--resume` says what it
/// starts again.
#[test]
fn a_resume_keeps_only_what_still_holds() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(
        dir.path(),
        &[
            ("ann", format!("exec {BIN}")),
            ("bob", format!("exec {BIN} --eol lf")),
            ("cat", "sleep 60".into()),
        ],
    );
    let (state, tmp, out) = (
        dir.path().join("state"),
        dir.path().join("tmp"),
        dir.path().join("out"),
    );
    fs::create_dir(&tmp).unwrap();
    let grading = Grading {
        class: &class,
        out: &out,
        state: &state,
        tmp: &tmp,
    };
    let mut child = grading.start(&["--timeout", "20"]);
    let started = Instant::now();
    let journal = loop {
        let lines = grading.journals().first().and_then(|journal| {
            let bytes = fs::read(journal).ok()?;
            (bytes.iter().filter(|&&b| b == b'\n').count() == 3).then(|| journal.clone())
        });
        if let Some(journal) = lines {
            break journal;
        }
        assert!(child.try_wait().unwrap().is_none(), "the grading ended");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "ann and bob took 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let busy = grading.run(&["--timeout", "20", "--resume"]);
    assert_eq!(busy.status.code(), Some(2));
    assert!(
        text(&busy.stderr).contains("another grading of this class is running"),
        "{}",
        text(&busy.stderr)
    );
    kill(child);
    let before = fs::read(&journal).unwrap();

    let other = grading.run(&["--timeout", "7", "--resume"]);
    let stderr = text(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("another --timeout (20; now 7)"), "{stderr}");
    assert_eq!(fs::read(&journal).unwrap(), before);

    let mut cut = before.clone();
    cut.extend_from_slice(b"{\"student\":\"cat\",\"folder\":\"0");
    fs::write(&journal, &cut).unwrap();
    fs::write(class.join("bob/hw.sh"), format!("exec {BIN}\n")).unwrap();
    fs::write(class.join("cat/hw.sh"), format!("exec {BIN}\n")).unwrap();
    let resumed = grading.run(&["--timeout", "20", "--resume"]);
    let stderr = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("1 of 3 students kept, 2 to grade (1 of them graded again: their folders changed since)"),
        "{stderr}"
    );
    let csv = fs::read_to_string(out.join("class.csv")).unwrap();
    let rows: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|row| row.split(',').next().unwrap())
        .collect();
    assert_eq!(rows, ["ann", "bob", "cat"], "{csv}");
    assert!(csv.contains("bob,5,5,5,5,5,,PASS"), "{csv}");
    assert!(!state.join("reversi").exists(), "{:?}", grading.journals());
    assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0, "run folders left");

    // A stopped grading's journal, and a grading without --resume: it says what it
    // starts again.
    fs::create_dir_all(journal.parent().unwrap()).unwrap();
    fs::write(&journal, &before).unwrap();
    let again = grading.run(&["--timeout", "20"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(
        text(&again.stderr).contains("was stopped with 2 students graded; without --resume"),
        "{}",
        text(&again.stderr)
    );
    // No journal: everyone is graded, and it says so.
    let fresh = grading.run(&["--timeout", "20", "--resume"]);
    assert_eq!(fresh.status.code(), Some(0));
    assert!(
        text(&fresh.stderr).contains("no earlier grading of this class to resume"),
        "{}",
        text(&fresh.stderr)
    );
}

/// Under each sandbox, a grading killed while its student's program sleeps: the
/// next grading (here the class's resume) removes what the killed one left, the
/// program's processes (a separate user's outlive the grader) and its run folder.
#[test]
fn a_resume_removes_what_a_killed_grading_left_under_every_sandbox() {
    for sandbox in ["bubblewrap", "separate-user"] {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
        let seconds = if sandbox == "bubblewrap" {
            "313"
        } else {
            "317"
        };
        let class = class(dir.path(), &[("ann", format!("sleep {seconds}"))]);
        let cases = one_case(dir.path());
        fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
        let (state, tmp) = (dir.path().join("state"), dir.path().join("tmp"));
        fs::create_dir(&tmp).unwrap();
        let command = |extra: &[&str]| {
            let mut command = Command::new(BIN);
            command
                .args([
                    "grade",
                    "--run",
                    "sh {submission}/hw.sh",
                    "--timeout",
                    "200",
                ])
                .arg(format!("--sandbox={sandbox}"))
                .arg(format!("--cases={}", cases.display()))
                .args(extra)
                .arg("--")
                .arg(&class)
                .env("XDG_STATE_HOME", &state)
                .env("TMPDIR", &tmp);
            command
        };
        let child = command(&[])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !sleeping(seconds) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{sandbox}: no run"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        kill(child);
        // (a separate user's program outlives the grader until a grading starts: any
        // other test's may be the one that ends it)
        assert_eq!(
            fs::read_dir(&tmp).unwrap().count(),
            1,
            "{sandbox}: its run folder"
        );
        fs::write(class.join("ann/hw.sh"), "true\n").unwrap();
        let resumed = command(&["--resume"]).output().unwrap();
        assert_eq!(
            resumed.status.code(),
            Some(0),
            "{sandbox}: {}",
            text(&resumed.stderr)
        );
        assert!(
            !sleeping(seconds),
            "{sandbox}: the program outlived the next grading"
        );
        assert_eq!(
            fs::read_dir(&tmp).unwrap().count(),
            0,
            "{sandbox}: run folders left"
        );
    }
}
