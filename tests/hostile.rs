//! `batch --against` with hostile students' programs (`tests/hostile/`), each under
//! both sandboxes (bubblewrap, and a separate user as in a platform's container): each
//! attack gets its verdict, changes nothing outside its work folder, leaves nothing
//! behind (files in /tmp, /var/tmp, /dev/shm, SysV IPC, processes, cgroups, the
//! grader's TMPDIR), and cannot make the grader large; honest programs in Python 3,
//! Python 2.7, Java and C++ still pass under both. Needs bubblewrap (`.ci/run`
//! installs it) and root (the separate users). The newer attacks are in
//! `tests/hostile_runs.rs` and `tests/hostile_class.rs`.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;

use std::fs;
use std::io::Write;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use sandboxed::{grader, root, Attack, Launch, Mode, World, BIN};
use walkdir::WalkDir;

every_sandbox! {
    fn the_expected_output_cannot_be_found(mode) {
        let outcome = Attack::new("find_expected.sh", mode, "NO OUTPUT").run();
        assert!(outcome
            .grading
            .stdout
            .contains("exited 0 without writing output.txt"));
    }
}

every_sandbox! {
    fn the_expected_output_cannot_be_read_at_its_path(mode) {
        Attack::new("read_expected.sh", mode, "NO OUTPUT").run();
    }
}

every_sandbox! {
    fn the_expected_outputs_and_the_home_cannot_be_changed(mode) {
        Attack::new("overwrite_expected.sh", mode, "NO OUTPUT").run();
    }
}

every_sandbox! {
    fn an_output_that_links_to_passwd_is_not_read(mode) {
        let outcome = Attack::new("link_passwd.sh", mode, "NOT A FILE").keep().run();
        let stdout = &outcome.grading.stdout;
        assert!(stdout.contains("output.txt is a symbolic link"), "{stdout}");
        assert!(!stdout.contains("root:"));
        let kept = outcome.kept.as_ref().unwrap().path();
        assert_eq!(WalkDir::new(kept).into_iter().count(), 1, "kept a file");
    }
}

every_sandbox! {
    fn an_output_that_links_to_the_expected_one_is_not_read(mode) {
        Attack::new("link_expected.sh", mode, "NOT A FILE").run();
    }
}

every_sandbox! {
    fn an_output_fifo_does_not_hang_the_grader(mode) {
        let outcome = Attack::new("fifo.sh", mode, "NOT A FILE").run();
        assert!(outcome.grading.stdout.contains("output.txt is a FIFO"));
    }
}

every_sandbox! {
    fn ten_gigabytes_of_output_stop_at_the_file_size_limit(mode) {
        let outcome = Attack::new("huge_output.sh", mode, "OUTPUT TOO LARGE")
            .flags(&["--file-size", "64"])
            .run();
        let stdout = &outcome.grading.stdout;
        assert!(stdout.contains("past 64 MiB (--file-size)"), "{stdout}");
    }
}

every_sandbox! {
    fn a_sparse_output_is_not_read(mode) {
        let outcome = Attack::new("sparse_output.sh", mode, "OUTPUT TOO LARGE").run();
        let stdout = &outcome.grading.stdout;
        assert!(stdout.contains("output.txt has 209715200 bytes"), "{stdout}");
    }
}

every_sandbox! {
    fn ten_gigabytes_of_memory_are_refused(mode) {
        let outcome = Attack::new("alloc.py", mode, "CRASH").run();
        let stdout = &outcome.grading.stdout;
        assert!(stdout.contains("MemoryError"), "{stdout}");
    }
}

every_sandbox! {
    fn a_fork_storm_is_bounded_and_killed(mode) {
        let outcome = Attack::new("fork_storm.sh", mode, "CRASH").run();
        let stdout = &outcome.grading.stdout;
        assert!(
            stdout.contains("hit the process limit (128, --processes)"),
            "{stdout}"
        );
    }
}

every_sandbox! {
    fn a_daemon_does_not_outlive_its_case(mode) {
        Attack::new("daemon.sh", mode, "NO OUTPUT").run();
    }
}

every_sandbox! {
    fn killing_everything_kills_only_the_program(mode) {
        let outcome = Attack::new("kill_all.sh", mode, "CRASH").run();
        let stdout = &outcome.grading.stdout;
        assert!(stdout.contains("killed by SIGKILL"), "{stdout}");
    }
}

every_sandbox! {
    fn fake_rows_and_terminal_escapes_are_shown_escaped(mode) {
        let outcome = Attack::new("fake_report.sh", mode, "CRASH").run();
        let stdout = &outcome.grading.stdout;
        assert!(
            stdout.contains("\\u{1b}]0;pwned\\u{7}\\r\\u{1b}[1APASS"),
            "{stdout}"
        );
        assert!(stdout.ends_with("2 cases: 0 passed, 2 crashed\n"));
    }
}

every_sandbox! {
    fn the_stderr_shown_is_its_end(mode) {
        let outcome = Attack::new("long_stderr.sh", mode, "CRASH").run();
        let stdout = &outcome.grading.stdout;
        assert!(
            stdout.contains("exit status 3; stderr: ")
                && stdout.contains("THE LAST LINE: IndexError\n"),
            "{stdout}"
        );
    }
}

every_sandbox! {
    fn secrets_of_the_grader_are_out_of_reach(mode) {
        let outcome = Attack::new("secrets.sh", mode, "FAIL").keep().run();
        for entry in WalkDir::new(outcome.kept.as_ref().unwrap().path()) {
            let entry = entry.unwrap();
            if entry.file_type().is_file() {
                let text = fs::read_to_string(entry.path()).unwrap();
                assert!(!text.contains(&outcome.world.secret), "{text}");
                assert!(!text.contains("CARGO"), "the grader's environment: {text}");
            }
        }
    }
}

every_sandbox! {
    fn there_is_no_network(mode) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port().to_string();
        let outcome = Attack::new("network.py", mode, "FAIL")
            .keep()
            .args(&[&port])
            .run();
        assert!(
            listener.accept().is_err(),
            "the program reached the grader's port"
        );
        let output = outcome.output("case1");
        assert!(output.starts_with("no 127.0.0.1"), "{output}");
        assert!(output.contains("no 1.1.1.1:80"), "{output}");
    }
}

every_sandbox! {
    fn a_program_that_closes_its_output_and_sleeps_is_killed_on_time(mode) {
        Attack::new("closed_stdout.sh", mode, "TIMEOUT")
            .flags(&["--timeout", "1"])
            .run();
    }
}

every_sandbox! {
    fn cpu_time_is_limited(mode) {
        let outcome = Attack::new("spin.sh", mode, "TIMEOUT")
            .flags(&["--cpu-time", "1", "--timeout", "10"])
            .run();
        let stdout = &outcome.grading.stdout;
        assert!(stdout.contains("1 s of CPU time"), "{stdout}");
    }
}

#[test]
fn without_bubblewrap_the_grader_refuses_and_says_what_to_do() {
    let world = World::new();
    let cases = world.cases.to_str().unwrap();
    let grading = grader(
        &world,
        &["batch", cases, "--against", "true"],
        Launch {
            path: Some("/nonexistent".into()),
            ..Launch::default()
        },
    );
    assert_eq!(grading.code, Some(2), "{}", grading.stderr);
    assert!(grading
        .stderr
        .contains("bubblewrap (`bwrap`) is not installed"));
    assert!(grading.stderr.contains("apt-get install bubblewrap"));
    assert!(grading.stderr.contains("--no-sandbox"));
    assert_eq!(grading.stdout, "");
}

#[test]
fn no_sandbox_warns_on_every_run() {
    let world = World::new();
    let cases = world.cases.to_str().unwrap();
    let command = format!("{BIN} -i input.txt -o output.txt");
    let grading = grader(
        &world,
        &["batch", cases, "--against", &command, "--no-sandbox"],
        Launch::default(),
    );
    assert_eq!(grading.code, Some(0), "{}", grading.stdout);
    assert!(grading.stderr.contains("warning: --no-sandbox"));
}

every_sandbox! {
    fn showing_the_cases_to_the_programs_is_refused(mode) {
        let world = World::new();
        let cases = world.cases.to_str().unwrap();
        let [sandbox, how] = mode.flags();
        let grading = grader(
            &world,
            &[
                "batch", cases, "--against", "true", "--read-only", cases, sandbox, how,
            ],
            Launch::default(),
        );
        assert_eq!(grading.code, Some(2));
        assert!(grading
            .stderr
            .contains("would show the cases' expected outputs"));
    }
}

/// Runs `command` on the official cases under `mode`, shown `read_only`: all pass,
/// and nothing of the runs stays behind.
fn honest(mode: Mode, command: &str, read_only: &[&Path]) {
    let (what, grading) = graded(mode, command, read_only);
    assert_eq!(
        grading.code,
        Some(0),
        "{what}: {}{}",
        grading.stdout,
        grading.stderr
    );
    assert!(grading.stdout.ends_with("5 cases: 5 passed\n"));
}

/// `batch` of `command` on the official cases under `mode`, shown `read_only`, once
/// nothing of the runs stayed behind: what it was, and how it went.
fn graded(mode: Mode, command: &str, read_only: &[&Path]) -> (String, sandboxed::Grading) {
    let _one = sandboxed::one_at_a_time();
    let world = World::new();
    let traces = sandboxed::Traces::now();
    // The official cases, in a folder of the grader's own (a separate user must not
    // read them).
    let cases = world.path().join("all-cases");
    fs::create_dir(&cases).unwrap();
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
    for entry in fs::read_dir(root().join("testcases/cs561/s2017")).unwrap() {
        let case = entry.unwrap().path();
        if case.is_dir() {
            let copy = cases.join(case.file_name().unwrap());
            fs::create_dir(&copy).unwrap();
            for file in fs::read_dir(&case).unwrap() {
                let file = file.unwrap().path();
                fs::copy(&file, copy.join(file.file_name().unwrap())).unwrap();
            }
        }
    }
    let mut args = vec![
        "batch".to_string(),
        cases.display().to_string(),
        "--against".into(),
        command.into(),
        "--timeout".into(),
        "30".into(),
        "--read-only".into(),
        BIN.into(),
        "-j".into(),
        "2".into(),
    ];
    args.extend(mode.flags().iter().map(|f| f.to_string()));
    for path in read_only {
        args.push("--read-only".into());
        args.push(path.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let grading = grader(&world, &args, Launch::default());
    let what = format!("{command} ({mode:?})");
    sandboxed::nothing_stayed(&what, &world, &traces, &grading);
    (what, grading)
}

/// A submission folder holding `name` with `text`, readable by all (as an unpacked
/// class is).
fn submission(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::File::create(dir.path().join(name))
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    dir
}

const PYTHON: &str = r#"
import subprocess, sys
with open("input.txt", "rb") as f:
    data = f.read()
solver = subprocess.Popen([sys.argv[1], "-i", "-", "-o", "-"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out, _ = solver.communicate(data)
with open("output.txt", "wb") as f:
    f.write(out)
"#;

every_sandbox! {
    fn honest_python3_passes(mode) {
        let dir = submission("hw.py", PYTHON);
        let program = dir.path().join("hw.py");
        honest(
            mode,
            &format!("python3 {} {BIN}", program.display()),
            &[dir.path()],
        );
    }
}

every_sandbox! {
    fn honest_python27_passes_when_installed(mode) {
        let home = std::env::var("PYENV_ROOT").unwrap_or_else(|_| "/root/.pyenv".into());
        let python = Path::new(&home).join("versions/2.7.18");
        if !python.join("bin/python2.7").is_file() {
            eprintln!("skipped: no Python 2.7 at {}", python.display());
            return;
        }
        let dir = submission("hw.py", PYTHON);
        let program = dir.path().join("hw.py");
        let command = format!(
            "{}/bin/python2.7 {} {BIN}",
            python.display(),
            program.display()
        );
        // pyenv's home is root's, closed to others (0700): a separate user cannot
        // reach the interpreter, which is refused before any case.
        let open = python.ancestors().skip(1).all(|folder| {
            fs::metadata(folder).is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
        });
        if mode == Mode::Bubblewrap || open {
            honest(mode, &command, &[dir.path(), &python]);
            return;
        }
        let (what, grading) = graded(mode, &command, &[dir.path(), &python]);
        assert_eq!(grading.code, Some(2), "{what}: {}", grading.stderr);
        assert!(
            grading.stderr.contains("cannot reach this program"),
            "{what}: {}",
            grading.stderr
        );
        assert_eq!(grading.stdout, "");
    }
}

every_sandbox! {
    fn honest_java_passes(mode) {
        let dir = submission(
            "Hw.java",
            r#"
import java.nio.file.*;
public class Hw {
    public static void main(String[] args) throws Exception {
        byte[] input = Files.readAllBytes(Paths.get("input.txt"));
        Process solver = new ProcessBuilder(args[0], "-i", "-", "-o", "-").start();
        solver.getOutputStream().write(input);
        solver.getOutputStream().close();
        byte[] output = solver.getInputStream().readAllBytes();
        if (solver.waitFor() != 0) System.exit(1);
        Files.write(Paths.get("output.txt"), output);
    }
}
"#,
        );
        let javac = Command::new("javac")
            .arg("Hw.java")
            .current_dir(dir.path())
            .status()
            .expect("javac");
        assert!(javac.success());
        honest(
            mode,
            &format!("java -cp {} Hw {BIN}", dir.path().display()),
            &[dir.path()],
        );
    }
}

every_sandbox! {
    fn honest_cpp_passes(mode) {
        let dir = submission(
            "hw.cpp",
            r#"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
// Its temporary files go where TMPDIR says, as the sandbox documents (a separate
// user may write only there and in its work folder).
int main(int argc, char **argv) {
    std::ifstream in("input.txt", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const char *tmp = std::getenv("TMPDIR");
    std::string folder = tmp ? tmp : "/tmp";
    std::ofstream(folder + "/in.txt", std::ios::binary) << text.str();
    std::string command = std::string(argv[1]) + " -i " + folder + "/in.txt -o " + folder + "/out.txt";
    if (std::system(command.c_str()) != 0) return 1;
    std::ifstream result(folder + "/out.txt", std::ios::binary);
    std::ofstream("output.txt", std::ios::binary) << result.rdbuf();
    return 0;
}
"#,
        );
        let gpp = Command::new("g++")
            .args(["-O1", "-o", "hw", "hw.cpp"])
            .current_dir(dir.path())
            .status()
            .expect("g++");
        assert!(gpp.success());
        honest(
            mode,
            &format!("{}/hw {BIN}", dir.path().display()),
            &[dir.path()],
        );
    }
}
