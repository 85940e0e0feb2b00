//! The students' builds a killed grading leaves (`reversi-build-*` folders in the
//! temporary folder, the compiled programs) are removed by the next grading on the
//! machine, and a live grading's build is never taken: each build folder holds a
//! lock while in use, as run folders do.

#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use grading::{one_case, remove_cgroups_of, text, BIN};

/// The build folders in `tmp`.
fn builds(tmp: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("reversi-build-")
        })
        .collect();
    found.sort();
    found
}

/// A folder of `dir` with the official case1, closed to others.
fn cases(dir: &Path) -> PathBuf {
    let cases = one_case(dir);
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
    cases
}

/// A class of one C++ student whose program sleeps `seconds`, then runs the solver
/// (a copy in the student's folder): right once it ends.
fn slow_class(dir: &Path, name: &str, seconds: u32) -> PathBuf {
    let class = dir.join(name);
    let student = class.join("ann");
    fs::create_dir_all(&student).unwrap();
    for folder in [&class, &student] {
        fs::set_permissions(folder, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let solver = student.join("solver");
    fs::copy(BIN, &solver).unwrap();
    fs::write(
        student.join("main.cpp"),
        format!(
            "#include <unistd.h>\nint main() {{ sleep({seconds}); \
             execl(\"{}\", \"reversi\", (char *) 0); return 1; }}\n",
            solver.display()
        ),
    )
    .unwrap();
    class
}

/// `grade CLASS` in `sandbox` with its temporary folder `tmp`, started.
fn start(class: &Path, cases: &Path, tmp: &Path, sandbox: &str) -> Child {
    Command::new(BIN)
        .arg("grade")
        .arg(class)
        .arg("--cases")
        .arg(cases)
        .args(["--timeout", "20", "--sandbox", sandbox, "--json"])
        .env("TMPDIR", tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `tmp` holds a build folder (its program built, its case running).
fn wait_for_build(tmp: &Path) -> PathBuf {
    let start = Instant::now();
    loop {
        if let Some(build) = builds(tmp).pop() {
            return build;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no build folder");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_gradings_builds_are_removed_by_the_next_and_a_live_ones_never() {
    for sandbox in ["bubblewrap", "separate-user"] {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
        let tmp = dir.path().join("tmp");
        fs::create_dir(&tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o711)).unwrap();
        let cases = cases(dir.path());
        // A grading killed (SIGKILL) while its built program runs leaves its build.
        let mut killed = start(&slow_class(dir.path(), "first", 30), &cases, &tmp, sandbox);
        let left = wait_for_build(&tmp);
        killed.kill().unwrap();
        killed.wait().unwrap();
        remove_cgroups_of(killed.id());
        assert!(left.join("build/prog").is_file(), "{sandbox}");
        // A live grading's build, made after: the next grading leaves it.
        let live_class = slow_class(dir.path(), "live", 3);
        let live = start(&live_class, &cases, &tmp, sandbox);
        let held = loop {
            let found = builds(&tmp);
            if let Some(new) = found.into_iter().find(|b| *b != left) {
                break new;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The next grading (a class of no program: nothing built) sweeps.
        let empty = dir.path().join("empty");
        fs::create_dir_all(empty.join("bob")).unwrap();
        fs::set_permissions(&empty, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(empty.join("bob"), fs::Permissions::from_mode(0o755)).unwrap();
        let next = start(&empty, &cases, &tmp, sandbox)
            .wait_with_output()
            .unwrap();
        assert!(next.status.success(), "{}", text(&next.stderr));
        assert!(
            !left.exists(),
            "{sandbox}: the killed grading's build is left"
        );
        assert!(
            held.join("build/prog").is_file(),
            "{sandbox}: the live build was taken"
        );
        // The live grading ends right: its program was there all along.
        let live = live.wait_with_output().unwrap();
        assert!(live.status.success(), "{}", text(&live.stderr));
        let report: serde_json::Value = serde_json::from_slice(&live.stdout).unwrap();
        assert_eq!(report["students"][0]["passed"], 1, "{sandbox}: {report}");
        // Nothing is left: no build, no run folder.
        let left: Vec<_> = fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(left.is_empty(), "{sandbox}: {left:?}");
    }
}
