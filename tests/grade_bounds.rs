//! What a student's files may cost the grader: it reads a bounded prefix of a
//! student's file to find a `#!` line or Java's `static void main` (a 1 GiB file
//! does not take it to 1 GiB of memory).

#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

use grading::{official, text, BIN};

/// A file of `size` bytes that starts with `start`: sparse, it costs the disk
/// nothing.
fn sparse(path: &Path, start: &str, size: u64) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, start).unwrap();
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(size)
        .unwrap();
}

/// A 1 GiB Python file and a 1 GiB Java file before the one with `main`: the grader,
/// its data limited to 512 MiB, finds their languages and main class all the same
/// (reading the whole file would fail its allocation).
#[test]
fn a_student_file_of_a_gibibyte_is_read_only_in_part() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let gib = 1 << 30;
    sparse(
        &class.join("py/hw1cs561s2017.py"),
        "#!/usr/bin/env python2\n",
        gib,
    );
    sparse(&class.join("java/A.java"), "class A {}\n", gib);
    fs::write(
        class.join("java/B.java"),
        "class B { public static void main(String[] a) {} }\n",
    )
    .unwrap();
    let mut command = Command::new(BIN);
    command
        .args(["grade", class.to_str().unwrap(), "--cases"])
        .arg(official())
        // An interpreter that reads nothing: the runs cost nothing.
        .args(["--python2", "/bin/true", "--build-time", "2", "--json"]);
    // SAFETY: setrlimit in the child before exec; the hard limit stays, so that
    // the sandbox may raise its programs' own soft limits.
    unsafe {
        command.pre_exec(|| {
            let mut limit: libc::rlimit = std::mem::zeroed();
            libc::getrlimit(libc::RLIMIT_DATA, &mut limit);
            limit.rlim_cur = 512 << 20;
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let output = command.output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let students = report["students"].as_array().unwrap();
    let program = |name: &str| {
        let student = students.iter().find(|s| s["student"] == name).unwrap();
        student["program"].as_str().unwrap().to_string()
    };
    assert_eq!(program("py"), "hw1cs561s2017.py (Python 2)");
    assert_eq!(program("java"), "B.java (Java)");
}
