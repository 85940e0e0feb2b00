//! The platforms' bundles run as the platforms run them: Vocareum's library made
//! private before any student's program runs.

#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output};

use grading::{official, reversi, text, BIN};

/// A student folder with a copy of the solver and `hw.sh` running it.
fn platform_submission(folder: &Path) {
    fs::create_dir_all(folder).unwrap();
    fs::copy(BIN, folder.join("solver")).unwrap();
    fs::write(folder.join("hw.sh"), "exec \"$(dirname \"$0\")/solver\"\n").unwrap();
}

/// `package PLATFORM` of the official cases, `sh {submission}/hw.sh`, with `extra`.
fn package(platform: &str, out: &Path, extra: &[&str]) {
    let cases = official();
    let mut args = vec![
        "package",
        platform,
        "--cases",
        cases.to_str().unwrap(),
        "--run",
        "sh {submission}/hw.sh",
        "--timeout",
        "5",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = reversi(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
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
    package("vocareum", &library, &[]);
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
