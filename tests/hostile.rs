//! `batch --against` with hostile students' programs (`tests/hostile/`): each attack
//! gets its verdict, changes nothing outside its work folder, leaves no process
//! behind, and cannot make the grader large; honest programs in Python 3, Python 2.7,
//! Java and C++ still pass inside the sandbox. Needs bubblewrap (`.ci/run` installs it).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use walkdir::WalkDir;

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn hostile() -> PathBuf {
    root().join("tests/hostile")
}

/// The grader's side of a run: the cases (two official ones), a fake home with a
/// secret, and the grader's temporary folder.
struct World {
    _dir: tempfile::TempDir,
    cases: PathBuf,
    home: PathBuf,
    tmp: PathBuf,
    secret: String,
}

impl World {
    fn new() -> World {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // Others may pass through (a separate user must reach its work folder under
        // tmp/), but not into the cases or the home.
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
        let cases = dir.path().join("cases");
        for case in ["case1", "case2"] {
            let official = root().join("testcases/cs561/s2017").join(case);
            fs::create_dir_all(cases.join(case)).unwrap();
            for file in ["input.txt", "output.txt"] {
                fs::copy(official.join(file), cases.join(case).join(file)).unwrap();
            }
        }
        let home = dir.path().join("home");
        fs::create_dir(&home).unwrap();
        let secret = format!("SECRET-{}", std::process::id());
        fs::write(home.join(".bashrc"), "export PS1='$ '\n").unwrap();
        fs::write(home.join("token"), &secret).unwrap();
        let tmp = dir.path().join("tmp");
        fs::create_dir(&tmp).unwrap();
        for private in [&cases, &home] {
            fs::set_permissions(private, fs::Permissions::from_mode(0o700)).unwrap();
        }
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o711)).unwrap();
        World {
            _dir: dir,
            cases,
            home,
            tmp,
            secret,
        }
    }

    /// Every file under the cases and the home, with its bytes.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        [&self.cases, &self.home]
            .into_iter()
            .flat_map(|top| WalkDir::new(top).sort_by_file_name())
            .map(Result::unwrap)
            .map(|entry| {
                let bytes = if entry.file_type().is_file() {
                    fs::read(entry.path()).unwrap()
                } else {
                    Vec::new()
                };
                (entry.path().to_path_buf(), bytes)
            })
            .collect()
    }
}

/// What the grader did.
struct Grading {
    pid: u32,
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// The grader's peak resident memory, in KiB.
    peak_kib: u64,
}

/// The peak resident memory of a running process, in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `reversi` with `args`, HOME and TMPDIR of `world`, watching its memory.
fn grader(world: &World, args: &[&str], path: Option<&str>) -> Grading {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .env("HOME", &world.home)
        .env("TMPDIR", &world.tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let mut child = command.spawn().unwrap();
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let started = Instant::now();
    let mut peak = 0;
    let status = loop {
        peak = peak.max(peak_kib(pid).unwrap_or(0));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the grader hangs"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    Grading {
        pid,
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        peak_kib: peak,
    }
}

/// Processes left by the hostile programs: they all carry `4242` in their arguments.
fn leftovers() -> Vec<String> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| fs::read(entry.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains("sleep 4242") || cmdline.contains("4242 "))
        .collect()
}

static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The attacks that search the whole file system for outputs (`find / -xdev`): with a
/// cold page cache that takes several seconds (10 s on a fresh machine whose root holds
/// a Rust toolchain), so their default time limit is 60 s rather than 3 s, lest a slow
/// disk turn their verdict into TIMEOUT.
const WALKS_THE_DISK: [&str; 2] = ["find_expected.sh", "overwrite_expected.sh"];

/// Runs the hostile program `file` on both cases and checks every promise: the
/// verdict of each case is `verdict`, nothing outside the work folder changed, no
/// process is left, the grader stayed small and printed no control character. The
/// program gets the cases folder and the grader's home as arguments (a student who
/// knew them); `extra` are more flags. Returns the grading for more checks.
fn attack(file: &str, verdict: &str, extra: &[&str]) -> (World, Grading) {
    attack_with(file, verdict, extra, &[])
}

fn attack_with(file: &str, verdict: &str, extra: &[&str], more_args: &[&str]) -> (World, Grading) {
    // One attack at a time, so that one's processes are not taken for another's.
    let _one_at_a_time = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let world = World::new();
    let before = world.snapshot();
    let interpreter = if file.ends_with(".py") {
        "python3"
    } else {
        "sh"
    };
    let mut command = format!(
        "{interpreter} {} {} {}",
        hostile().join(file).display(),
        world.cases.display(),
        world.home.display()
    );
    for arg in more_args {
        command += &format!(" {arg}");
    }
    let hostile = hostile();
    let mut args = vec![
        "batch",
        world.cases.to_str().unwrap(),
        "--against",
        &command,
        "--read-only",
        hostile.to_str().unwrap(),
        "-j",
        "1",
        "--verbose",
    ];
    if !extra.contains(&"--timeout") {
        let seconds = if WALKS_THE_DISK.contains(&file) {
            "60"
        } else {
            "3"
        };
        args.extend_from_slice(&["--timeout", seconds]);
    }
    args.extend_from_slice(extra);
    let grading = grader(&world, &args, None);
    let rows: Vec<&str> = grading
        .stdout
        .lines()
        .filter(|l| !l.starts_with(' '))
        .collect();
    assert_eq!(
        grading.code,
        Some(1),
        "{file}: {}{}",
        grading.stdout,
        grading.stderr
    );
    assert_eq!(rows.len(), 3, "{file}: {}", grading.stdout);
    for row in &rows[..2] {
        assert!(
            row.starts_with(&format!("{verdict:<16} case")),
            "{file}: expected {verdict}: {}",
            grading.stdout
        );
    }
    assert!(
        rows[2].starts_with("2 cases: 0 passed"),
        "{file}: {}",
        grading.stdout
    );
    assert_eq!(
        world.snapshot(),
        before,
        "{file} changed the grader's files"
    );
    let left: Vec<_> = fs::read_dir(&world.tmp).unwrap().flatten().collect();
    assert!(
        left.is_empty(),
        "{file} left {left:?} in the grader's TMPDIR"
    );
    assert_eq!(leftovers(), Vec::<String>::new(), "{file} left processes");
    let cgroups: Vec<_> = [
        "/sys/fs/cgroup",
        "/sys/fs/cgroup/pids",
        "/sys/fs/cgroup/memory",
    ]
    .iter()
    .flat_map(|folder| fs::read_dir(folder).into_iter().flatten().flatten())
    .filter(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        name.starts_with(&format!("reversi-{}-", grading.pid))
    })
    .map(|entry| entry.path())
    .collect();
    assert!(cgroups.is_empty(), "{file}: cgroups left: {cgroups:?}");
    assert!(
        grading.peak_kib < 64 * 1024,
        "{file}: the grader grew to {} KiB",
        grading.peak_kib
    );
    for text in [&grading.stdout, &grading.stderr] {
        assert!(
            !text.bytes().any(|b| (b < 0x20 && b != b'\n') || b == 0x7f),
            "{file}: a control character reached the terminal: {text:?}"
        );
        assert!(!text.contains(&world.secret), "{file}: the secret leaked");
    }
    (world, grading)
}

#[test]
fn the_expected_output_cannot_be_found() {
    let (_, grading) = attack("find_expected.sh", "NO OUTPUT", &[]);
    assert!(grading
        .stdout
        .contains("exited 0 without writing output.txt"));
}

#[test]
fn the_expected_output_cannot_be_read_at_its_path() {
    attack("read_expected.sh", "NO OUTPUT", &[]);
}

#[test]
fn the_expected_outputs_and_the_home_cannot_be_changed() {
    attack("overwrite_expected.sh", "NO OUTPUT", &[]);
}

#[test]
fn an_output_that_links_to_passwd_is_not_read() {
    let kept = tempfile::tempdir().unwrap();
    let (_, grading) = attack(
        "link_passwd.sh",
        "NOT A FILE",
        &["--keep", kept.path().to_str().unwrap()],
    );
    assert!(grading.stdout.contains("output.txt is a symbolic link"));
    assert!(!grading.stdout.contains("root:"));
    assert_eq!(
        WalkDir::new(kept.path()).into_iter().count(),
        1,
        "kept a file"
    );
}

#[test]
fn an_output_that_links_to_the_expected_one_is_not_read() {
    attack("link_expected.sh", "NOT A FILE", &[]);
}

#[test]
fn an_output_fifo_does_not_hang_the_grader() {
    let (_, grading) = attack("fifo.sh", "NOT A FILE", &[]);
    assert!(grading.stdout.contains("output.txt is a FIFO"));
}

#[test]
fn ten_gigabytes_of_output_stop_at_the_file_size_limit() {
    let (_, grading) = attack("huge_output.sh", "OUTPUT TOO LARGE", &["--file-size", "64"]);
    assert!(
        grading.stdout.contains("past 64 MiB (--file-size)"),
        "{}",
        grading.stdout
    );
}

#[test]
fn a_sparse_output_is_not_read() {
    let (_, grading) = attack("sparse_output.sh", "OUTPUT TOO LARGE", &[]);
    assert!(grading.stdout.contains("output.txt has 209715200 bytes"));
}

#[test]
fn ten_gigabytes_of_memory_are_refused() {
    let (_, grading) = attack("alloc.py", "CRASH", &[]);
    assert!(grading.stdout.contains("MemoryError"), "{}", grading.stdout);
}

#[test]
fn a_fork_storm_is_bounded_and_killed() {
    let (_, grading) = attack("fork_storm.sh", "CRASH", &[]);
    assert!(
        grading
            .stdout
            .contains("hit the process limit (128, --processes)"),
        "{}",
        grading.stdout
    );
}

#[test]
fn a_daemon_does_not_outlive_its_case() {
    attack("daemon.sh", "NO OUTPUT", &[]);
}

#[test]
fn killing_everything_kills_only_the_program() {
    let (_, grading) = attack("kill_all.sh", "CRASH", &[]);
    assert!(
        grading.stdout.contains("killed by SIGKILL"),
        "{}",
        grading.stdout
    );
}

#[test]
fn fake_rows_and_terminal_escapes_are_shown_escaped() {
    let (_, grading) = attack("fake_report.sh", "CRASH", &[]);
    assert!(
        grading
            .stdout
            .contains("\\u{1b}]0;pwned\\u{7}\\r\\u{1b}[1APASS"),
        "{}",
        grading.stdout
    );
    assert!(grading.stdout.ends_with("2 cases: 0 passed, 2 crashed\n"));
}

#[test]
fn the_stderr_shown_is_its_end() {
    let (_, grading) = attack("long_stderr.sh", "CRASH", &[]);
    assert!(
        grading.stdout.contains("exit status 3; stderr: ")
            && grading.stdout.contains("THE LAST LINE: IndexError\n"),
        "{}",
        grading.stdout
    );
}

#[test]
fn secrets_of_the_grader_are_out_of_reach() {
    let kept = tempfile::tempdir().unwrap();
    let (world, _) = attack(
        "secrets.sh",
        "FAIL",
        &["--keep", kept.path().to_str().unwrap()],
    );
    for entry in WalkDir::new(kept.path()) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = fs::read_to_string(entry.path()).unwrap();
            assert!(!text.contains(&world.secret), "{text}");
            assert!(!text.contains("CARGO"), "the grader's environment: {text}");
        }
    }
}

#[test]
fn there_is_no_network() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let kept = tempfile::tempdir().unwrap();
    attack_with(
        "network.py",
        "FAIL",
        &["--keep", kept.path().to_str().unwrap()],
        &[&port],
    );
    assert!(
        listener.accept().is_err(),
        "the program reached the grader's port"
    );
    let output = fs::read_to_string(kept.path().join("case1/output.txt")).unwrap();
    assert!(output.starts_with("no 127.0.0.1"), "{output}");
    assert!(output.contains("no 1.1.1.1:80"), "{output}");
}

#[test]
fn a_program_that_closes_its_output_and_sleeps_is_killed_on_time() {
    attack("closed_stdout.sh", "TIMEOUT", &["--timeout", "1"]);
}

#[test]
fn cpu_time_is_limited() {
    let (_, grading) = attack(
        "spin.sh",
        "TIMEOUT",
        &["--cpu-time", "1", "--timeout", "10"],
    );
    assert!(
        grading.stdout.contains("1 s of CPU time"),
        "{}",
        grading.stdout
    );
}

/// Where bubblewrap cannot work (a platform's container), a separate user holds
/// against the same attacks, the network aside (it has no namespace of its own).
#[test]
fn a_separate_user_holds_against_the_attacks() {
    let separate = ["--sandbox", "separate-user"];
    for (file, verdict) in [
        ("read_expected.sh", "NO OUTPUT"),
        ("overwrite_expected.sh", "NO OUTPUT"),
        ("link_expected.sh", "NOT A FILE"),
        ("fifo.sh", "NOT A FILE"),
        ("sparse_output.sh", "OUTPUT TOO LARGE"),
        ("alloc.py", "CRASH"),
        ("fork_storm.sh", "CRASH"),
        ("daemon.sh", "NO OUTPUT"),
        ("kill_all.sh", "CRASH"),
        ("fake_report.sh", "CRASH"),
        ("secrets.sh", "FAIL"),
    ] {
        attack(file, verdict, &separate);
    }
}

#[test]
fn without_bubblewrap_the_grader_refuses_and_says_what_to_do() {
    let world = World::new();
    let cases = world.cases.to_str().unwrap();
    let grading = grader(
        &world,
        &["batch", cases, "--against", "true"],
        Some("/nonexistent"),
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
        None,
    );
    assert_eq!(grading.code, Some(0), "{}", grading.stdout);
    assert!(grading.stderr.contains("warning: --no-sandbox"));
}

#[test]
fn showing_the_cases_to_the_programs_is_refused() {
    let world = World::new();
    let cases = world.cases.to_str().unwrap();
    let grading = grader(
        &world,
        &["batch", cases, "--against", "true", "--read-only", cases],
        None,
    );
    assert_eq!(grading.code, Some(2));
    assert!(grading
        .stderr
        .contains("would show the cases' expected outputs"));
}

/// Runs `command` on the official cases in the sandbox, shown `read_only`: all pass.
fn honest(command: &str, read_only: &[&Path]) {
    let world = World::new();
    let cases = root().join("testcases/cs561/s2017");
    let mut args = vec![
        "batch".to_string(),
        cases.display().to_string(),
        "--against".into(),
        command.into(),
        "--timeout".into(),
        "30".into(),
        "--read-only".into(),
        BIN.into(),
    ];
    for path in read_only {
        args.push("--read-only".into());
        args.push(path.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let grading = grader(&world, &args, None);
    assert_eq!(
        grading.code,
        Some(0),
        "{command}: {}{}",
        grading.stdout,
        grading.stderr
    );
    assert!(grading.stdout.ends_with("5 cases: 5 passed\n"));
}

/// A submission folder holding `name` with `text`.
fn submission(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
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

#[test]
fn honest_python3_passes() {
    let dir = submission("hw.py", PYTHON);
    let program = dir.path().join("hw.py");
    honest(
        &format!("python3 {} {BIN}", program.display()),
        &[dir.path()],
    );
}

#[test]
fn honest_python27_passes_when_installed() {
    let home = std::env::var("PYENV_ROOT").unwrap_or_else(|_| "/root/.pyenv".into());
    let python = Path::new(&home).join("versions/2.7.18");
    if !python.join("bin/python2.7").is_file() {
        eprintln!("skipped: no Python 2.7 at {}", python.display());
        return;
    }
    let dir = submission("hw.py", PYTHON);
    let program = dir.path().join("hw.py");
    honest(
        &format!(
            "{}/bin/python2.7 {} {BIN}",
            python.display(),
            program.display()
        ),
        &[dir.path(), &python],
    );
}

#[test]
fn honest_java_passes() {
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
        &format!("java -cp {} Hw {BIN}", dir.path().display()),
        &[dir.path()],
    );
}

#[test]
fn honest_cpp_passes() {
    let dir = submission(
        "hw.cpp",
        r#"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
int main(int argc, char **argv) {
    std::ifstream in("input.txt", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::ofstream("/tmp/in.txt", std::ios::binary) << text.str();
    std::string command = std::string(argv[1]) + " -i /tmp/in.txt -o /tmp/out.txt";
    if (std::system(command.c_str()) != 0) return 1;
    std::ifstream result("/tmp/out.txt", std::ios::binary);
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
    honest(&format!("{}/hw {BIN}", dir.path().display()), &[dir.path()]);
}
