//! The attacks of a run on what lies beyond files (`tests/hostile/`), each under both
//! sandboxes: the TA's terminal, descriptors the TA's shell left open, traces left for
//! the next run (files, SysV IPC), sockets of every kind, ptrace, keys and
//! namespaces, a folder tree too deep to remove with few open files, memory and
//! process bombs that end in the timeout, and files that together pass the run's
//! bound. Each asserts its verdict, what the program
//! reports it got (`got: ...` lines of its kept output: none), what the grader's side
//! observed, and that nothing stayed behind (`tests/common/sandboxed.rs`).

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;

use std::fs;
use std::net::{TcpListener, UdpSocket};
use std::os::fd::OwnedFd;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{SocketAddr, UnixListener};

use sandboxed::{Attack, Launch, Mode, BIN};

/// Asserts the attack got nothing it reported.
fn got_nothing(outcome: &sandboxed::Outcome) {
    let got = outcome.got();
    assert!(
        got.is_empty(),
        "the program got: {got:#?}\n{}",
        outcome.output("case1")
    );
}

every_sandbox! {
    /// The grader runs at a TA's terminal (its controlling terminal, its stdin): the
    /// program can neither write on it nor push input into it.
    fn the_terminal_is_out_of_reach(mode) {
        let (master, slave) = sandboxed::pty();
        let outcome = Attack::new("tty.py", mode, "FAIL")
            .keep()
            .launch(Launch {
                terminal: Some(slave.try_clone().unwrap()),
                ..Launch::default()
            })
            .run();
        let shown = String::from_utf8_lossy(&sandboxed::drain(&master)).into_owned();
        let waiting = sandboxed::pending(&slave);
        let injected = String::from_utf8_lossy(&sandboxed::drain(&slave)).into_owned();
        assert!(!shown.contains("HOSTILE"), "painted on the terminal: {shown:?}");
        assert!(!shown.contains("pwned"), "echoed on the terminal: {shown:?}");
        assert_eq!(waiting, 0, "input pushed into the terminal: {injected:?}");
        got_nothing(&outcome);
    }
}

/// A file holding `secret`, and two descriptors on it (read-write and read-only)
/// to leave open to the grader at 3 and 7.
fn open_secret(dir: &std::path::Path, secret: &str) -> (std::path::PathBuf, Vec<(OwnedFd, i32)>) {
    let path = dir.join("wrapper.log");
    fs::write(&path, secret).unwrap();
    let rw = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let ro = fs::File::open(&path).unwrap();
    (path, vec![(rw.into(), 3), (ro.into(), 7)])
}

every_sandbox! {
    /// Descriptors the TA's shell or wrapper left open (3 and 7, on a file holding a
    /// secret) do not reach the program.
    fn only_the_standard_descriptors_pass(mode) {
        let dir = tempfile::tempdir().unwrap();
        let secret = format!("WRAPPER-SECRET-{}", std::process::id());
        let (path, fds) = open_secret(dir.path(), &secret);
        let outcome = Attack::new("fds.py", mode, "FAIL")
            .keep()
            .launch(Launch {
                fds,
                ..Launch::default()
            })
            .run();
        assert_eq!(fs::read_to_string(&path).unwrap(), secret, "the file changed");
        for case in ["case1", "case2"] {
            assert!(!outcome.output(case).contains(&secret), "{}", outcome.output(case));
        }
        assert!(!outcome.grading.stdout.contains(&secret));
        got_nothing(&outcome);
    }
}

every_sandbox! {
    /// Files in /tmp, /var/tmp, /dev/shm, 5,000 files in TMPDIR and SysV IPC objects
    /// left by a run are gone (or were never shared) before the next run, which finds
    /// none.
    fn nothing_passes_from_one_run_to_the_next(mode) {
        // Each file a user other than root makes costs this machine's disk about 0.5 ms
        // (ext4 with a strict reserve): the time is not the point.
        let outcome = Attack::new("between_runs.py", mode, "FAIL")
            .keep()
            .flags(&["--timeout", "20"])
            .run();
        got_nothing(&outcome);
    }
}

every_sandbox! {
    /// No socket reaches anything: TCP and UDP to the grader's loopback (IPv4, IPv6),
    /// a unix socket at a path shown to the program, the grader's abstract socket,
    /// another run at once (-j 2) through an abstract name, netlink.
    fn no_socket_reaches_anything(mode) {
        let tcp4 = TcpListener::bind("127.0.0.1:0").unwrap();
        let tcp6 = TcpListener::bind("[::1]:0").unwrap();
        let udp4 = UdpSocket::bind("127.0.0.1:0").unwrap();
        let udp6 = UdpSocket::bind("[::1]:0").unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let unix_path = dir.path().join("agent.sock");
        let unix = UnixListener::bind(&unix_path).unwrap();
        fs::set_permissions(&unix_path, fs::Permissions::from_mode(0o777)).unwrap();
        let name = format!("hostile-grader-{}-{mode:?}", std::process::id());
        let abstract_listener =
            UnixListener::bind_addr(&SocketAddr::from_abstract_name(&name).unwrap()).unwrap();
        tcp4.set_nonblocking(true).unwrap();
        tcp6.set_nonblocking(true).unwrap();
        udp4.set_nonblocking(true).unwrap();
        udp6.set_nonblocking(true).unwrap();
        unix.set_nonblocking(true).unwrap();
        abstract_listener.set_nonblocking(true).unwrap();
        let port = |a: std::net::SocketAddr| a.port().to_string();
        let outcome = Attack::new("sockets.py", mode, "FAIL")
            .keep()
            .flags(&[
                "-j",
                "2",
                "--timeout",
                "6",
                "--read-only",
                dir.path().to_str().unwrap(),
            ])
            .args(&[
                &port(tcp4.local_addr().unwrap()),
                &port(tcp6.local_addr().unwrap()),
                &port(udp4.local_addr().unwrap()),
                &port(udp6.local_addr().unwrap()),
                unix_path.to_str().unwrap(),
                &name,
            ])
            .run();
        let mut reached = Vec::new();
        if tcp4.accept().is_ok() {
            reached.push("TCP 127.0.0.1");
        }
        if tcp6.accept().is_ok() {
            reached.push("TCP ::1");
        }
        let mut buffer = [0u8; 64];
        if udp4.recv(&mut buffer).is_ok() {
            reached.push("UDP 127.0.0.1");
        }
        if udp6.recv(&mut buffer).is_ok() {
            reached.push("UDP ::1");
        }
        if unix.accept().is_ok() {
            reached.push("the unix socket");
        }
        if abstract_listener.accept().is_ok() {
            reached.push("the abstract socket");
        }
        assert!(reached.is_empty(), "the program reached {reached:?}");
        got_nothing(&outcome);
    }
}

every_sandbox! {
    /// ptrace (of its child, a sibling, its parent; PTRACE_TRACEME), add_key and
    /// keyctl, and new namespaces (unshare(2), `unshare -U`, `unshare -r`) are refused.
    fn ptrace_keys_and_namespaces_are_refused(mode) {
        let outcome = Attack::new("ptrace_keys.py", mode, "FAIL")
            .keep()
            .flags(&["--timeout", "5"])
            .run();
        got_nothing(&outcome);
    }
}

every_sandbox! {
    /// 2,000-deep folder trees, some levels mode 000, in the work folder, TMPDIR,
    /// /tmp, /var/tmp and /dev/shm, are all removed by a grader limited to 1024 open
    /// files (its TMPDIR is empty after: `Attack::run` checks it).
    fn a_deep_tree_is_removed_with_few_open_files(mode) {
        let outcome = Attack::new("deep_tree.py", mode, "NO OUTPUT")
            .flags(&["--timeout", "20"])
            .launch(Launch {
                open_files: Some(1024),
                ..Launch::default()
            })
            .run();
        // Nothing but the note that a container's grader falls back to a separate user.
        let said: Vec<&str> = outcome
            .grading
            .stderr
            .lines()
            .filter(|line| !line.starts_with("reversi: note: bubblewrap cannot work here"))
            .collect();
        assert!(said.is_empty(), "{}", outcome.grading.stderr);
    }
}

/// Asserts every row (a TIMEOUT) names `limit`.
fn rows_name(outcome: &sandboxed::Outcome, limit: &str) {
    for row in &sandboxed::rows(&outcome.grading)[..2] {
        assert!(row.contains(limit), "the row does not say {limit:?}: {row}");
    }
}

every_sandbox! {
    /// A memory bomb that holds what it got and would stay until the timeout: its rows
    /// say it ran out of memory. Where a memory cgroup bounds the run (the grader is
    /// root here) the kernel ends it first (CRASH); where only the rlimit does, the
    /// bomb lives to the timeout (TIMEOUT), and the row names the limit all the same.
    fn a_memory_bomb_that_times_out_names_the_memory_limit(mode) {
        let verdict = if sandboxed::memory_cgroups() { "CRASH" } else { "TIMEOUT" };
        let outcome = Attack::new("mem_bomb.py", mode, verdict)
            .flags(&["--memory", "128", "--timeout", "3"])
            .args(&["128", "4242"])
            .run();
        rows_name(&outcome, ", out of memory (the limit is 128 MiB, --memory)");
    }
}

every_sandbox! {
    /// A process bomb that keeps retrying until the timeout: its TIMEOUT rows say it
    /// hit the process limit.
    fn a_process_bomb_that_times_out_names_the_process_limit(mode) {
        let outcome = Attack::new("proc_bomb.py", mode, "TIMEOUT")
            .flags(&["--processes", "16", "--timeout", "3"])
            .args(&["4242"])
            .run();
        rows_name(&outcome, ", hit the process limit (16, --processes)");
    }
}

every_sandbox! {
    /// A grader stopped by SIGTERM (as a platform's time limit stops it) kills the
    /// running programs, reports them, and leaves nothing behind.
    fn a_grader_ended_by_sigterm_leaves_nothing(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = sandboxed::World::new();
        let traces = sandboxed::Traces::now();
        let cases = world.cases.display().to_string();
        let mut args = vec!["batch", &cases, "--against", "sleep 4242", "-j", "2"];
        args.extend(mode.flags());
        let grading = std::thread::scope(|scope| {
            let grader = scope.spawn(|| sandboxed::grader(&world, &args, Launch::default()));
            // The grader, once both its programs have started.
            let started = std::time::Instant::now();
            let pid = loop {
                assert!(started.elapsed().as_secs() < 30, "the grader did not start");
                std::thread::sleep(std::time::Duration::from_millis(100));
                let sleepers = sandboxed::processes_where(|c| c == b"sleep\x004242\x00");
                let graders = sandboxed::processes_where(|c| {
                    c.starts_with(BIN.as_bytes()) && c.windows(cases.len()).any(|w| w == cases.as_bytes())
                });
                if sleepers.len() >= 2 {
                    if let Some(pid) = graders.first() {
                        break *pid;
                    }
                }
            };
            // SAFETY: kill(2) on the grader's pid, which is still running.
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
            grader.join().unwrap()
        });
        sandboxed::nothing_stayed("sleep 4242 (SIGTERM)", &world, &traces, &grading);
        assert_eq!(grading.code, Some(1), "{}{}", grading.stdout, grading.stderr);
        assert!(
            grading.stdout.ends_with("2 cases: 0 passed, 2 could not run\n"),
            "{}",
            grading.stdout
        );
    }
}

/// The bytes the files under `top` take on its disk, not crossing into other file
/// systems (a run's tmpfs).
fn on_disk(top: &std::path::Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    walkdir::WalkDir::new(top)
        .same_file_system(true)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.metadata().ok())
        .map(|meta| meta.blocks() * 512)
        .sum()
}

/// The largest disk usage of every folder named `reversi-case-*` under the system's
/// temporary folders and the test's, sampled until `done`.
fn peak_on_disk(done: &std::sync::atomic::AtomicBool) -> u64 {
    let mut peak = 0;
    while !done.load(std::sync::atomic::Ordering::SeqCst) {
        let tops = [
            "/tmp".to_string(),
            std::env::temp_dir().display().to_string(),
        ];
        let mut now = 0;
        for top in tops.iter().collect::<std::collections::BTreeSet<_>>() {
            for world in fs::read_dir(top).into_iter().flatten().flatten() {
                // The worlds' TMPDIR (WORLD/tmp) holds the runs' folders.
                now += on_disk(&world.path().join("tmp"));
            }
        }
        peak = peak.max(now);
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    peak
}

every_sandbox! {
    /// Eight files of the size limit in the work folder and eight in the temporary
    /// folder: each within `--file-size`, together past the run's bound (about
    /// `--file-size`): OUTPUT TOO LARGE, and the disk never holds much more than the
    /// bound (a tmpfs of it where the grader may mount one; else the watchdog's
    /// measure every few milliseconds ends the run).
    fn files_past_the_runs_bound_are_too_large(mode) {
        let size: u64 = 8 << 20;
        let done = std::sync::atomic::AtomicBool::new(false);
        let peak = std::thread::scope(|scope| {
            let sampler = scope.spawn(|| peak_on_disk(&done));
            Attack::new("many_files.sh", mode, "OUTPUT TOO LARGE")
                .flags(&["--file-size", "8", "--timeout", "10"])
                .args(&[&size.to_string()])
                .run();
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            sampler.join().unwrap()
        });
        // Unbounded: 16 files, 128 MiB; the watchdog may see one file past the bound.
        assert!(peak < 3 * size, "the disk grew by {peak} bytes");
    }
}
