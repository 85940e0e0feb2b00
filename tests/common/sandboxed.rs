//! The harness of the hostile tests (`tests/hostile*.rs`): the grader's side of a run
//! (cases, a home with a secret, its TMPDIR), the grader run as a TA runs it, and (in
//! `traces.rs`) the traces a run could leave on the machine (files in /tmp, /var/tmp
//! and /dev/shm, SysV IPC objects, processes, cgroups), checked after every attack
//! under both sandboxes.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use walkdir::WalkDir;

#[path = "traces.rs"]
mod traces;
pub use traces::*;

pub const BIN: &str = env!("CARGO_BIN_EXE_reversi");

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of attack programs.
pub fn hostile() -> PathBuf {
    root().join("tests/hostile")
}

/// The ways a run is confined; every attack runs under each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Bubblewrap,
    SeparateUser,
    /// `--sandbox auto` where no user namespace can be made, as in a platform's
    /// container: bubblewrap cannot work there, so the grader falls back to a
    /// separate user ([`grader`] runs it so whenever it is given `--sandbox auto`).
    Container,
}

impl Mode {
    /// The flags that choose it.
    pub fn flags(self) -> [&'static str; 2] {
        match self {
            Mode::Bubblewrap => ["--sandbox", "bubblewrap"],
            Mode::SeparateUser => ["--sandbox", "separate-user"],
            Mode::Container => ["--sandbox", "auto"],
        }
    }
}

/// Defines a test module `name` holding two tests, `bubblewrap` and `separate_user`,
/// each running the body with its mode.
#[macro_export]
macro_rules! every_sandbox {
    ($(#[$meta:meta])* fn $name:ident($mode:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            fn run($mode: Mode) $body
            #[test]
            fn bubblewrap() {
                run(Mode::Bubblewrap)
            }
            #[test]
            fn separate_user() {
                run(Mode::SeparateUser)
            }
            #[test]
            fn container() {
                run(Mode::Container)
            }
        }
    };
}

/// Whether the grader may make memory cgroups here (as root, v2 or v1's memory
/// controller), as the sandbox does.
pub fn memory_cgroups() -> bool {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let v2 = fs::read_to_string("/sys/fs/cgroup/cgroup.controllers")
        .is_ok_and(|controllers| controllers.split_whitespace().any(|c| c == "memory"));
    root && (v2 || Path::new("/sys/fs/cgroup/memory/cgroup.procs").is_file())
}

/// The uids of the separate users (61000 and up).
pub const SEPARATE_UIDS: std::ops::RangeInclusive<u32> = 61000..=62000;

/// The grader's side of a run: the cases (two official ones), a fake home with a
/// secret, and the grader's temporary folder. Removed when dropped, whatever the
/// depth and modes of what a failed containment left in it.
pub struct World {
    dir: PathBuf,
    pub cases: PathBuf,
    pub home: PathBuf,
    pub tmp: PathBuf,
    pub secret: String,
}

impl World {
    pub fn new() -> World {
        let dir = tempfile::tempdir().unwrap().keep();
        // Others may pass through (a separate user must reach its work folder under
        // tmp/), but not into the cases or the home.
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o711)).unwrap();
        let cases = dir.join("cases");
        for case in ["case1", "case2"] {
            let official = root().join("testcases/cs561/s2017").join(case);
            fs::create_dir_all(cases.join(case)).unwrap();
            for file in ["input.txt", "output.txt"] {
                fs::copy(official.join(file), cases.join(case).join(file)).unwrap();
            }
        }
        let home = dir.join("home");
        fs::create_dir(&home).unwrap();
        let secret = format!("SECRET-{}", std::process::id());
        fs::write(home.join(".bashrc"), "export PS1='$ '\n").unwrap();
        fs::write(home.join("token"), &secret).unwrap();
        let tmp = dir.join("tmp");
        fs::create_dir(&tmp).unwrap();
        for private in [&cases, &home] {
            fs::set_permissions(private, fs::Permissions::from_mode(0o700)).unwrap();
        }
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o711)).unwrap();
        World {
            dir,
            cases,
            home,
            tmp,
            secret,
        }
    }

    /// A folder of the world's own, for a test's extra files.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Every file under the cases and the home, with its bytes.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = snapshot(&self.cases);
        files.extend(snapshot(&self.home));
        files
    }

    /// What is left in the grader's TMPDIR.
    pub fn tmp_left(&self) -> Vec<PathBuf> {
        fs::read_dir(&self.tmp)
            .unwrap()
            .flatten()
            .map(|entry| entry.path())
            .collect()
    }
}

impl Drop for World {
    fn drop(&mut self) {
        remove_all(&self.dir);
    }
}

/// Every file and folder under `top`, with its bytes (a folder's: none).
pub fn snapshot(top: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    WalkDir::new(top)
        .sort_by_file_name()
        .into_iter()
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

/// Removes `path` whatever its depth and modes (GNU rm walks any depth).
pub fn remove_all(path: &Path) {
    let _ = Command::new("chmod")
        .arg("-R")
        .arg("u+rwx")
        .arg(path)
        .output();
    let _ = Command::new("rm").arg("-rf").arg(path).output();
}

/// How the TA's shell starts the grader, beyond HOME and TMPDIR.
#[derive(Default)]
pub struct Launch {
    /// The grader's PATH (else the test's).
    pub path: Option<String>,
    /// A terminal (the slave side of a pty) made the grader's controlling terminal,
    /// in a session of its own, as its standard input.
    pub terminal: Option<OwnedFd>,
    /// Descriptors left open to the grader, at these numbers (not close-on-exec).
    pub fds: Vec<(OwnedFd, i32)>,
    /// The grader's RLIMIT_NOFILE.
    pub open_files: Option<u64>,
    /// The grader's binary (else the one cargo built).
    pub binary: Option<PathBuf>,
}

/// The pipes between a grader that enters a user namespace of its own (in `pre_exec`)
/// and the test's thread that maps every uid and gid to itself there (only a process
/// outside may): the grader stays root for files, the separate users stay themselves.
struct NamespaceGate {
    ready: (OwnedFd, OwnedFd),
    mapped: (OwnedFd, OwnedFd),
}

impl NamespaceGate {
    fn new() -> NamespaceGate {
        let pipe = || {
            let mut fds = [0; 2];
            // SAFETY: pipe2 fills two descriptors that we then own.
            assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
            // SAFETY: both are new descriptors of ours.
            unsafe {
                use std::os::fd::FromRawFd;
                (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
            }
        };
        NamespaceGate {
            ready: pipe(),
            mapped: pipe(),
        }
    }

    /// The grader's ends: where it writes its pid once in its namespace, where it
    /// waits for the mapping.
    fn child_side(&self) -> (i32, i32) {
        (self.ready.1.as_raw_fd(), self.mapped.0.as_raw_fd())
    }

    /// Waits (in a thread) for the grader's pid, maps its namespace, and lets it go
    /// on. The grader's ends stay open here until the returned ones are dropped, after
    /// the fork.
    fn map_in_background(self) -> (std::thread::JoinHandle<()>, [OwnedFd; 2]) {
        let NamespaceGate { ready, mapped } = self;
        let child_ends = [ready.1, mapped.0];
        let (ready, mapped) = (ready.0, mapped.1);
        let thread = std::thread::spawn(move || {
            let mut pid = [0u8; 4];
            let mut reader = fs::File::from(ready);
            std::io::Read::read_exact(&mut reader, &mut pid).unwrap();
            let pid = i32::from_ne_bytes(pid);
            for table in ["uid_map", "gid_map"] {
                fs::write(format!("/proc/{pid}/{table}"), "0 0 4294967295").unwrap();
            }
            let mut writer = fs::File::from(mapped);
            std::io::Write::write_all(&mut writer, b"m").unwrap();
        });
        (thread, child_ends)
    }
}

/// In the grader's child before exec: a user namespace of its own, mapped by the
/// test (see [`NamespaceGate`]), in which no further user namespace may be made.
fn without_user_namespaces(ready: i32, mapped: i32) -> std::io::Result<()> {
    let failed = || Err(std::io::Error::last_os_error());
    // SAFETY: plain system calls on descriptors and a NUL-terminated path.
    unsafe {
        if libc::unshare(libc::CLONE_NEWUSER) != 0 {
            return failed();
        }
        let pid = libc::getpid().to_ne_bytes();
        if libc::write(ready, pid.as_ptr().cast(), 4) != 4 {
            return failed();
        }
        let mut byte = 0u8;
        if libc::read(mapped, (&mut byte as *mut u8).cast(), 1) != 1 {
            return failed();
        }
        let limit = libc::open(
            c"/proc/sys/user/max_user_namespaces".as_ptr(),
            libc::O_WRONLY,
        );
        if limit < 0 || libc::write(limit, b"0".as_ptr().cast(), 1) != 1 {
            return failed();
        }
        libc::close(limit);
    }
    Ok(())
}

/// What the grader did.
pub struct Grading {
    pub pid: u32,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The grader's peak resident memory, in KiB.
    pub peak_kib: u64,
}

/// The peak resident memory of a running process, in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `reversi` with `args`, HOME and TMPDIR of `world`, started as `launch` says,
/// watching its memory.
pub fn grader(world: &World, args: &[&str], launch: Launch) -> Grading {
    let mut command = Command::new(launch.binary.as_deref().unwrap_or(Path::new(BIN)));
    command
        .args(args)
        .env("HOME", &world.home)
        .env("TMPDIR", &world.tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(path) = &launch.path {
        command.env("PATH", path);
    }
    let terminal = launch.terminal.as_ref().map(AsRawFd::as_raw_fd);
    if let Some(terminal) = &launch.terminal {
        command.stdin(terminal.try_clone().unwrap());
    }
    let fds: Vec<(i32, i32)> = launch
        .fds
        .iter()
        .map(|(fd, at)| (fd.as_raw_fd(), *at))
        .collect();
    let open_files = launch.open_files;
    let container = args.windows(2).any(|w| w == ["--sandbox", "auto"]);
    let namespace = container.then(NamespaceGate::new);
    let gate = namespace.as_ref().map(NamespaceGate::child_side);
    // SAFETY: between fork and exec the closure only calls unshare, read, write, open,
    // setsid, ioctl, dup2 and setrlimit (async-signal-safe) on values copied before
    // the fork.
    unsafe {
        command.pre_exec(move || {
            if let Some((ready, mapped)) = gate {
                without_user_namespaces(ready, mapped)?;
            }
            if let Some(terminal) = terminal {
                if libc::setsid() < 0 || libc::ioctl(terminal, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            for &(fd, at) in &fds {
                if libc::dup2(fd, at) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if let Some(limit) = open_files {
                let limit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mapper = namespace.map(NamespaceGate::map_in_background);
    let mut child = command.spawn().unwrap();
    if let Some((mapper, child_ends)) = mapper {
        drop(child_ends);
        mapper.join().unwrap();
    }
    drop(launch);
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let started = Instant::now();
    let mut peak = 0;
    let status = loop {
        peak = peak.max(peak_kib(pid).unwrap_or(0));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("the grader hangs");
        }
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

/// The attacks that search the whole file system for outputs (`find / -xdev`): with a
/// cold page cache that takes several seconds (10 s on a fresh machine whose root holds
/// a Rust toolchain), so their default time limit is 60 s rather than 3 s, lest a slow
/// disk turn their verdict into TIMEOUT.
const WALKS_THE_DISK: [&str; 2] = ["find_expected.sh", "overwrite_expected.sh"];

/// An attack: the program `file` of `tests/hostile/` run on both cases by
/// `batch --against` under `mode`.
pub struct Attack<'a> {
    pub file: &'a str,
    pub mode: Mode,
    /// The verdict of every case.
    pub verdict: &'a str,
    /// More flags of `batch`.
    pub flags: Vec<String>,
    /// More arguments of the program, after the cases folder and the grader's home.
    pub args: Vec<String>,
    /// Keep the outputs (`--keep`), to read what the program found.
    pub keep: bool,
    pub launch: Launch,
}

/// What an attack's grading gave.
pub struct Outcome {
    pub world: World,
    pub grading: Grading,
    pub kept: Option<tempfile::TempDir>,
}

impl Outcome {
    /// The output a case's run wrote (kept), empty where it wrote none.
    pub fn output(&self, case: &str) -> String {
        let kept = self.kept.as_ref().expect("kept outputs");
        fs::read_to_string(kept.path().join(case).join("output.txt")).unwrap_or_default()
    }

    /// The lines `got: ...` of the outputs: what the attacks report they could do.
    pub fn got(&self) -> Vec<String> {
        ["case1", "case2"]
            .iter()
            .flat_map(|case| {
                self.output(case)
                    .lines()
                    .filter(|line| line.starts_with("got:"))
                    .map(|line| format!("{case}: {line}"))
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

impl<'a> Attack<'a> {
    pub fn new(file: &'a str, mode: Mode, verdict: &'a str) -> Attack<'a> {
        Attack {
            file,
            mode,
            verdict,
            flags: Vec::new(),
            args: Vec::new(),
            keep: false,
            launch: Launch::default(),
        }
    }

    pub fn flags(mut self, flags: &[&str]) -> Attack<'a> {
        self.flags.extend(flags.iter().map(|f| f.to_string()));
        self
    }

    pub fn args(mut self, args: &[&str]) -> Attack<'a> {
        self.args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    pub fn keep(mut self) -> Attack<'a> {
        self.keep = true;
        self
    }

    pub fn launch(mut self, launch: Launch) -> Attack<'a> {
        self.launch = launch;
        self
    }

    /// Runs the attack and checks every promise: the verdict of each case, nothing
    /// outside the work folder changed, nothing stayed behind.
    pub fn run(self) -> Outcome {
        let _one = one_at_a_time();
        let file = format!("{} ({:?})", self.file, self.mode);
        let world = World::new();
        let before = world.snapshot();
        let traces = Traces::now();
        let interpreter = if self.file.ends_with(".py") {
            "python3"
        } else {
            "sh"
        };
        let mut command = format!(
            "{interpreter} {} {} {}",
            hostile().join(self.file).display(),
            world.cases.display(),
            world.home.display()
        );
        for arg in &self.args {
            command += &format!(" {arg}");
        }
        let kept = self.keep.then(|| {
            let dir = tempfile::tempdir().unwrap();
            fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
            dir
        });
        let hostile = hostile();
        let mut args: Vec<String> = [
            "batch",
            world.cases.to_str().unwrap(),
            "--against",
            &command,
            "--read-only",
            hostile.to_str().unwrap(),
            "--verbose",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.extend(self.mode.flags().iter().map(|f| f.to_string()));
        if !self.flags.iter().any(|f| f == "-j") {
            args.extend(["-j".into(), "1".into()]);
        }
        if !self.flags.iter().any(|f| f == "--timeout") {
            let seconds = if WALKS_THE_DISK.contains(&self.file) {
                "60"
            } else {
                "3"
            };
            args.extend(["--timeout".into(), seconds.into()]);
        }
        if let Some(kept) = &kept {
            args.extend(["--keep".into(), kept.path().display().to_string()]);
        }
        args.extend(self.flags.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let grading = grader(&world, &args, self.launch);
        let outcome = Outcome {
            world,
            grading,
            kept,
        };
        let (world, grading) = (&outcome.world, &outcome.grading);
        let rows: Vec<&str> = grading
            .stdout
            .lines()
            .filter(|l| !l.starts_with(' '))
            .collect();
        nothing_stayed(&file, world, &traces, grading);
        assert_eq!(
            world.snapshot(),
            before,
            "{file} changed the grader's files"
        );
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
                row.starts_with(&format!("{:<16} case", self.verdict)),
                "{file}: expected {}: {}",
                self.verdict,
                grading.stdout
            );
        }
        assert!(
            rows[2].starts_with("2 cases: 0 passed"),
            "{file}: {}",
            grading.stdout
        );
        outcome
    }
}

/// The rows of a grading (the lines not indented), with what is under them.
pub fn rows(grading: &Grading) -> Vec<&str> {
    grading
        .stdout
        .lines()
        .filter(|l| !l.starts_with(' '))
        .collect()
}

/// A new pseudo-terminal: (master, slave), both open read-write.
pub fn pty() -> (OwnedFd, OwnedFd) {
    use std::os::fd::FromRawFd;
    // SAFETY: posix_openpt, grantpt, unlockpt and ptsname_r on the descriptor just
    // opened; every result is checked; the buffer outlives the call.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(master >= 0, "posix_openpt");
        let master = OwnedFd::from_raw_fd(master);
        assert_eq!(libc::grantpt(master.as_raw_fd()), 0);
        assert_eq!(libc::unlockpt(master.as_raw_fd()), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(
            libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len()),
            0
        );
        let slave = libc::open(
            name.as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        assert!(slave >= 0, "open the pty's slave");
        (master, OwnedFd::from_raw_fd(slave))
    }
}

/// Everything readable now on `fd` without waiting.
pub fn drain(fd: &OwnedFd) -> Vec<u8> {
    let fd = fd.as_raw_fd();
    let mut bytes = Vec::new();
    // SAFETY: fcntl and read on a descriptor this test owns, into a local buffer.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        let mut buffer = [0u8; 4096];
        loop {
            let n = libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len());
            if n <= 0 {
                break;
            }
            bytes.extend_from_slice(&buffer[..n as usize]);
        }
    }
    bytes
}

/// The bytes waiting to be read on a terminal `fd` (FIONREAD).
pub fn pending(fd: &OwnedFd) -> i32 {
    let mut count: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    let ok = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut count) };
    assert_eq!(ok, 0, "FIONREAD");
    count
}
