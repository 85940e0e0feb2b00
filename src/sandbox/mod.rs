//! The sandbox every untrusted program runs in (students' solvers for `batch
//! --against` and `grade`, match players for `umea match`): bubblewrap, the sandbox
//! Flatpak uses, or, where it cannot make namespaces (a platform's container), a
//! separate user; with resource limits from rlimits and, where the grader may create
//! them, cgroups. What each mode guarantees: `docs/security.md`.
//!
//! What a program sees in bubblewrap: a read-only `/usr` (and the `/bin`, `/lib*` that lead there),
//! the few `/etc` files interpreters need, a fresh writable work folder at
//! [`WORK_INSIDE`] holding only the files it is given (`input.txt`), a private `/tmp`,
//! its own `/proc` and `/dev`, and the paths the grader shows it read-only. It runs as
//! `student` (uid 1000) in its own user, mount, process, network, IPC and UTS
//! namespaces, with a cleared environment and a session of its own (no terminal).
//! When the program ends, or its wall time runs out, its process namespace ends and
//! takes every process of the run with it; the cgroup, where there is one, is
//! emptied too.
//!
//! Beneath either sandbox the kernel confines each run too ([`confine`]): a seccomp
//! filter refuses sockets, ptrace, terminal injection, SysV IPC, keyrings and new
//! namespaces; for a separate user, a Landlock ruleset lets it read only the system
//! folders and the paths shown, and write only its work folder and a temporary folder
//! of its own. Every run is in a session of its own with no terminal, gets only
//! descriptors 0-2, and leaves nothing: see [`cleanup`].

pub mod cleanup;
pub mod confine;

mod cgroup;
mod child;
mod clock;
mod files;
mod leftovers;
pub mod policy;
mod separate_user;
mod stop;

use cgroup::Cgroup;
pub use cgroup::Exhausted;
use child::{ChildSide, RawLimits};
pub use clock::wall_net;
use clock::{CpuMeter, MachineTicks};
pub use files::BuildFolder;
use files::{capture, capture_file, copy_tree, read_regular, CaseFolder};
use separate_user::{kill_every_process_of, usage_of, UidLease};
use separate_user::{FIRST_UID, UIDS};
use stop::STOP;
pub use stop::{stop_all, stop_flag, stop_on_signals};

use std::fs::{self, File};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

/// Where the work folder appears inside the sandbox; the program starts there.
pub const WORK_INSIDE: &str = "/home/student";

/// Bytes of a program's standard output or error kept for the report: the last ones.
pub const TAIL_BYTES: usize = 4096;

/// The resources one run of a program may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time; past it every process of the run is killed.
    pub wall: Duration,
    /// CPU time of the whole run (all its processes and threads); past it every
    /// process of the run is killed. None: only the wall time bounds the run.
    pub run_cpu: Option<Duration>,
    /// CPU time of each process (SIGXCPU, then SIGKILL a second later).
    pub cpu: Duration,
    /// Bytes of memory: of each process's data (an rlimit), and of the whole run,
    /// files in its `/tmp` included, where a memory cgroup can be made.
    pub memory: u64,
    /// Processes and threads of the run at once (needs a pids cgroup).
    pub processes: u64,
    /// Bytes of any one file the program writes (SIGXFSZ past it); also the size of
    /// its `/tmp`.
    pub file_size: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            wall: Duration::from_secs(10),
            run_cpu: None,
            cpu: Duration::from_secs(60),
            memory: 2048 << 20,
            processes: 128,
            file_size: 256 << 20,
        }
    }
}

/// How a program is confined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// Inside bubblewrap, as the module documentation says.
    Bubblewrap,
    /// As a separate unprivileged user (uid 61000 and up, one per run at a time),
    /// for containers where bubblewrap cannot make namespaces (Gradescope, Vocareum):
    /// the same limits and seccomp filter, every process and file of the user removed
    /// at the end, and Landlock in place of a mount namespace (where the kernel has
    /// it; without, the program sees what any other user may, so the grader's files
    /// must not be readable by others, which the policy checks for the cases). Needs
    /// root.
    SeparateUser,
    /// Not confined (`--no-sandbox`): rlimits and cgroups only; it sees and may change
    /// whatever the grader's user may.
    Unsandboxed,
}

impl Isolation {
    /// What confines each run, in words for reports and rows (with what this kernel
    /// lacks, when it lacks something).
    pub fn words(self) -> String {
        let mut words = match self {
            Isolation::Bubblewrap => {
                "bubblewrap (own namespaces, read-only system, no network) and a seccomp filter"
                    .to_string()
            }
            Isolation::SeparateUser => format!(
                "a separate unprivileged user (no namespaces: the platform's container) with \
                 {} and a seccomp filter",
                match confine::landlock_abi() {
                    0 => "NO Landlock".to_string(),
                    abi => format!("Landlock (ABI {abi})"),
                }
            ),
            Isolation::Unsandboxed => {
                "NONE (--no-sandbox): the programs ran with the grader's rights".to_string()
            }
        };
        for gap in self.gaps() {
            words += &format!("; {gap}");
        }
        words
    }

    /// What this machine lacks of the isolation's protection, each in words: empty when
    /// nothing is missing. (Unsandboxed runs lack everything, and say so in their words.)
    pub fn gaps(self) -> Vec<&'static str> {
        match self {
            Isolation::SeparateUser if confine::landlock_abi() == 0 => vec![
                "this kernel has no Landlock, so the programs can read every file that \
                 other users may read (other submissions too, where others may read them) \
                 and write to /tmp, /var/tmp and /dev/shm until their run ends (what they \
                 leave there is removed)",
            ],
            _ => Vec::new(),
        }
    }
}

/// Why no sandbox could be set up (bad arguments or a bad machine: exit 2).
#[derive(Debug, Error)]
pub enum SandboxError {
    /// bubblewrap is missing or cannot make its namespaces here.
    #[error(
        "cannot run students' programs in a sandbox: {reason}\n\
         Install bubblewrap (Debian, Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf \
         install bubblewrap`) and allow user namespaces (`sysctl -w \
         kernel.unprivileged_userns_clone=1`; Ubuntu 24.04: `sysctl -w \
         kernel.apparmor_restrict_unprivileged_userns=0`; in a container, start it with \
         --privileged or a seccomp profile that allows unshare). Or, only for programs \
         you trust, run them unconfined with --no-sandbox."
    )]
    Unavailable {
        /// What was missing or what bubblewrap said.
        reason: String,
    },
    /// A path to show read-only does not exist.
    #[error("{path}: cannot show it to the programs: {reason}")]
    ReadOnly {
        /// The path as given.
        path: String,
        /// Why.
        reason: String,
    },
}

/// A program to run: a shell command line, its arguments, and the files its work
/// folder starts with.
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    /// Run by `sh -c` in the work folder.
    pub command: &'a str,
    /// `$1`, `$2`, ... of the command line.
    pub args: &'a [String],
    /// Files written into the work folder first: name and bytes.
    pub files: &'a [(&'a str, &'a [u8])],
}

/// A run's conversation: what ends it, and what talks with it.
type Conversation<'a> = (
    &'a AtomicBool,
    Box<dyn FnOnce(ChildStdin, ChildStdout) + Send + 'a>,
);

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this status.
    Exited(i32),
    /// The program was killed by this signal.
    Signal(i32),
    /// The wall time ran out: every process was killed.
    WallTime,
    /// The run's CPU time ([`Limits::run_cpu`]) ran out: every process was killed.
    CpuTime,
    /// Its files together passed their bound (about [`Limits::file_size`]): every
    /// process was killed.
    FilesTooLarge,
    /// [`stop_all`] was called (Ctrl-C): every process was killed.
    Stopped,
    /// The sandbox's deadline ([`Sandbox::until`], a grading's time budget) came:
    /// every process was killed.
    Deadline,
}

/// A program's standard output or error: how much it wrote, and its end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// Bytes written in all.
    pub size: u64,
    /// The last [`TAIL_BYTES`] of them (all of them when fewer).
    pub tail: Vec<u8>,
}

impl Captured {
    /// The last `lines` non-blank lines of the tail (raw bytes: escape them before
    /// showing them).
    pub fn last_lines(&self, lines: usize) -> Vec<&[u8]> {
        let kept: Vec<&[u8]> = self
            .tail
            .split(|&b| b == b'\n')
            .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .collect();
        kept[kept.len().saturating_sub(lines)..].to_vec()
    }

    /// The last `lines` non-blank lines of the tail, escaped (`src/printable.rs`) and
    /// joined by ` | `, after `lead`; empty when there are none. For reports.
    pub fn shown(&self, lines: usize, lead: &str) -> String {
        let lines: Vec<String> = self
            .last_lines(lines)
            .into_iter()
            .map(crate::printable::printable_bytes)
            .collect();
        if lines.is_empty() {
            String::new()
        } else {
            format!("{lead}{}", lines.join(" | "))
        }
    }
}

/// What a program left as its output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputFile {
    /// A regular file: its bytes.
    Regular(Vec<u8>),
    /// No file of that name.
    Missing,
    /// Something else of that name, not read: a link, a FIFO, a device, a folder.
    NotAFile(&'static str),
    /// A regular file of this many bytes, more than the bound: not read.
    TooLarge(u64),
}

/// One finished run. The work folder lives until this is dropped.
#[derive(Debug)]
pub struct Run {
    /// How it ended.
    pub ending: Ending,
    /// Which limits of its cgroup the run hit.
    pub exhausted: Exhausted,
    /// Its standard output.
    pub stdout: Captured,
    /// Its standard error.
    pub stderr: Captured,
    /// Wall-clock seconds it took.
    pub seconds: f64,
    /// CPU time of all its processes and threads, as far as it was counted.
    pub cpu: Duration,
    /// Whether others kept the machine busy while it ran (see the `clock` module).
    pub loaded: bool,
    /// Whether its files together (work and temporary folders) reached their bound,
    /// about [`Limits::file_size`]: a full tmpfs, or the watchdog's measure.
    pub files_full: bool,
    folder: CaseFolder,
}

impl Run {
    fn work(&self) -> PathBuf {
        self.folder.work()
    }

    /// Reads the file `name` of the work folder: a regular file of at most `max_bytes`
    /// only, opened without following a link and without blocking on a FIFO.
    pub fn read_output(&self, name: &str, max_bytes: u64) -> io::Result<OutputFile> {
        read_regular(&self.work().join(name), max_bytes)
    }

    /// Copies what the program left in its work folder into the empty folder `to`
    /// (folders and regular files only, nothing followed, at most the run's file
    /// bound): the state a program keeps from one run to the next (the arena's agents).
    pub fn keep_work(&self, to: &Path) -> io::Result<u64> {
        copy_tree(&self.work(), to, self.folder.bound())
    }

    /// Names of the files the program left in its work folder besides `except`,
    /// sorted, at most 10 (raw bytes: escape them before showing them).
    pub fn other_files(&self, except: &[&str]) -> Vec<Vec<u8>> {
        let mut names: Vec<Vec<u8>> = fs::read_dir(self.work())
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.file_name().as_bytes().to_vec())
            .filter(|name| !except.iter().any(|e| name == e.as_bytes()))
            .collect();
        names.sort();
        names.truncate(10);
        names
    }
}

/// Runs programs confined and limited. Made once for a batch or a match.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// The `bwrap` program (found on `PATH` once; empty when unsandboxed).
    bwrap: PathBuf,
    isolation: Isolation,
    limits: Limits,
    read_only: Vec<PathBuf>,
    /// The seccomp filter of every run (none when unsandboxed).
    filter: Option<Arc<confine::Filter>>,
    /// When every run still going is ended ([`Ending::Deadline`]).
    deadline: Option<Instant>,
}

impl Sandbox {
    /// A sandbox of `isolation` with `limits`, which shows each path of `read_only` to
    /// the programs at the same path, read-only. For [`Isolation::Bubblewrap`], checks
    /// that bubblewrap works here first.
    pub fn new(
        isolation: Isolation,
        limits: Limits,
        read_only: &[PathBuf],
    ) -> Result<Sandbox, SandboxError> {
        let read_only = read_only
            .iter()
            .map(|path| shown_path(path))
            .collect::<Result<Vec<_>, _>>()?;
        leftovers::sweep();
        let bwrap = match isolation {
            Isolation::Bubblewrap => {
                find_program("bwrap").ok_or_else(|| SandboxError::Unavailable {
                    reason: "bubblewrap (`bwrap`) is not installed, or not on PATH".into(),
                })?
            }
            Isolation::SeparateUser | Isolation::Unsandboxed => PathBuf::new(),
        };
        // SAFETY: geteuid has no preconditions.
        if isolation == Isolation::SeparateUser && unsafe { libc::geteuid() } != 0 {
            return Err(SandboxError::Unavailable {
                reason: "running programs as a separate user needs root".into(),
            });
        }
        if isolation == Isolation::SeparateUser {
            separate_user::adopt_orphans();
        }
        let filter = match isolation {
            Isolation::Unsandboxed => None,
            Isolation::Bubblewrap | Isolation::SeparateUser => {
                Some(Arc::new(confine::Filter::new().map_err(|e| {
                    SandboxError::Unavailable {
                        reason: format!("cannot compile the seccomp filter: {e}"),
                    }
                })?))
            }
        };
        let sandbox = Sandbox {
            bwrap,
            isolation,
            limits,
            read_only,
            filter,
            deadline: None,
        };
        if isolation == Isolation::Bubblewrap {
            sandbox.probe()?;
        }
        Ok(sandbox)
    }

    /// How programs are confined.
    pub fn isolation(&self) -> Isolation {
        self.isolation
    }

    /// The limits of each run.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The paths shown read-only to the programs (canonical).
    pub fn read_only(&self) -> &[PathBuf] {
        &self.read_only
    }

    /// The same sandbox with another wall time, and no limit of the run's CPU time.
    pub fn with_wall(&self, wall: Duration) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.limits.wall = wall;
        sandbox.limits.run_cpu = None;
        sandbox
    }

    /// The same sandbox, whose runs still going at `deadline` (if any) are ended
    /// there ([`Ending::Deadline`]): a grading's time budget.
    pub fn until(&self, deadline: Option<Instant>) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.deadline = deadline;
        sandbox
    }

    /// The same sandbox with another wall time, its limit of the run's CPU time kept.
    pub fn with_wall_kept_cpu(&self, wall: Duration) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.limits.wall = wall;
        sandbox
    }

    /// The same sandbox limiting each run's CPU time (all its processes and threads)
    /// to `cpu`, with the wall-time net of [`wall_net`].
    pub fn with_cpu(&self, cpu: Duration) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.limits.wall = wall_net(cpu);
        sandbox.limits.run_cpu = Some(cpu);
        sandbox
    }

    /// The same sandbox with each process's CPU time at least `cpu` (a run that may
    /// spend a whole bank on one move: CS561 task 4).
    pub fn with_process_cpu_at_least(&self, cpu: Duration) -> Sandbox {
        let mut sandbox = self.clone();
        sandbox.limits.cpu = sandbox.limits.cpu.max(cpu);
        sandbox
    }

    /// The same sandbox, also showing `path` read-only (a student's folder).
    pub fn showing(&self, path: &Path) -> Result<Sandbox, SandboxError> {
        let mut sandbox = self.clone();
        sandbox.read_only.push(shown_path(path)?);
        Ok(sandbox)
    }

    /// Whether a program sees `path`: under the system folders or a path shown
    /// read-only, in bubblewrap or as a separate user under Landlock; anything,
    /// unsandboxed or without Landlock.
    pub fn shows(&self, path: &Path) -> bool {
        let fenced = match self.isolation {
            Isolation::Bubblewrap => true,
            Isolation::SeparateUser => confine::landlock_abi() > 0,
            Isolation::Unsandboxed => false,
        };
        if !fenced {
            return true;
        }
        let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        ["/usr", "/etc"]
            .iter()
            .chain(SYSTEM_LINKS)
            .any(|top| path.starts_with(top))
            || self.read_only.iter().any(|shown| path.starts_with(shown))
    }

    /// Runs `true` in an empty sandbox, to tell whether bubblewrap works here.
    fn probe(&self) -> Result<(), SandboxError> {
        let unavailable = |reason: String| SandboxError::Unavailable { reason };
        let folder =
            CaseFolder::new(self.limits.file_size).map_err(|e| unavailable(e.to_string()))?;
        let filters = self
            .filter_files()
            .map_err(|e| unavailable(e.to_string()))?;
        let mut command = self.bubblewrap(&folder, &confine::raw_fds(&filters));
        command.args(["true"]);
        let keep = confine::raw_fds(&filters);
        // SAFETY: only fcntl and close_range in the child.
        unsafe {
            command.pre_exec(move || confine::only_standard_descriptors(&keep));
        }
        let output = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output();
        match output {
            Err(e) => Err(unavailable(format!("cannot start bwrap: {e}"))),
            Ok(output) if output.status.success() => Ok(()),
            Ok(output) => Err(unavailable(format!(
                "bwrap failed ({}): {}",
                output.status,
                String::from_utf8_lossy(output.stderr.trim_ascii_end())
            ))),
        }
    }

    /// The seccomp filter's programs as files for bubblewrap (none when unsandboxed).
    fn filter_files(&self) -> io::Result<Vec<File>> {
        self.filter.as_ref().map_or(Ok(Vec::new()), |f| f.files())
    }

    /// `bwrap` with every option but the command, for a run in `folder`, loading the
    /// seccomp programs open at `seccomp`. bwrap itself gets an empty environment too:
    /// inside, it is process 1, whose environment anyone may read.
    fn bubblewrap(&self, folder: &CaseFolder, seccomp: &[i32]) -> Command {
        let mut bwrap = Command::new(&self.bwrap);
        bwrap.env_clear().args([
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            "--uid",
            "1000",
            "--gid",
            "1000",
            "--setenv",
            "PATH",
            "/usr/local/bin:/usr/bin:/bin",
            "--setenv",
            "HOME",
            WORK_INSIDE,
            "--setenv",
            "USER",
            "student",
            "--setenv",
            "LANG",
            "C.UTF-8",
            "--setenv",
            "TMPDIR",
            "/tmp",
            "--ro-bind",
            "/usr",
            "/usr",
        ]);
        for top in SYSTEM_LINKS {
            match fs::read_link(top) {
                Ok(target) => {
                    bwrap.arg("--symlink").arg(target).arg(top);
                }
                Err(_) if Path::new(top).is_dir() => {
                    bwrap.args(["--ro-bind", top, top]);
                }
                Err(_) => {}
            }
        }
        for etc in ETC_FILES {
            bwrap.args(["--ro-bind-try", etc, etc]);
        }
        for path in java_configuration() {
            bwrap.arg("--ro-bind").arg(&path).arg(&path);
        }
        bwrap
            .arg("--ro-bind")
            .arg(folder.path().join("passwd"))
            .arg("/etc/passwd")
            .arg("--ro-bind")
            .arg(folder.path().join("group"))
            .arg("/etc/group");
        bwrap.args(["--proc", "/proc", "--dev", "/dev"]);
        if folder.mounted() {
            // Its /tmp in the run's bounded folder, with its work folder.
            bwrap.arg("--bind").arg(folder.tmp()).arg("/tmp");
        } else {
            bwrap.arg("--size").arg(self.limits.file_size.to_string());
            bwrap.args(["--tmpfs", "/tmp"]);
        }
        bwrap.args(["--dir", "/home"]);
        for path in &self.read_only {
            bwrap.arg("--ro-bind").arg(path).arg(path);
        }
        if let Some(grader) = self.hidden_grader() {
            // An empty device in its place: nothing to read or run.
            bwrap.arg("--ro-bind").arg("/dev/null").arg(grader);
        }
        bwrap
            .arg("--bind")
            .arg(folder.work())
            .arg(WORK_INSIDE)
            .args(["--chdir", WORK_INSIDE]);
        for fd in seccomp {
            bwrap.arg("--add-seccomp-fd").arg(fd.to_string());
        }
        bwrap.arg("--");
        bwrap
    }

    /// The grader's own binary, where the system folders a run sees would show it (an
    /// install under `/usr`) and no path shown with `--read-only` does: a run must not
    /// read it, or run it to write the expected output.
    fn hidden_grader(&self) -> Option<PathBuf> {
        let grader = std::env::current_exe().ok()?.canonicalize().ok()?;
        let system = ["/usr"]
            .iter()
            .chain(SYSTEM_LINKS)
            .any(|top| fs::canonicalize(top).is_ok_and(|top| grader.starts_with(top)));
        let shown = self.read_only.iter().any(|path| grader.starts_with(path));
        (system && !shown).then_some(grader)
    }

    /// What a separate user's Landlock ruleset lets a run in `folder` reach: read the
    /// system folders, the `/etc` files bubblewrap shows, `/proc`, `/sys` and the
    /// paths shown; write its work folder and its temporary folder.
    fn reach(&self, folder: &CaseFolder) -> confine::Reach {
        // The links into /usr (merged systems) need no rule of their own: a rule on a
        // link would stand for its target, the grader's binary included.
        let system = SYSTEM_LINKS
            .iter()
            .filter(|top| fs::symlink_metadata(top).is_ok_and(|m| m.is_dir()));
        let mut read: Vec<PathBuf> = ["/usr"]
            .iter()
            .chain(system)
            .flat_map(|top| match self.hidden_grader() {
                Some(grader) => confine::beneath_all_but(Path::new(top), &grader),
                None => vec![PathBuf::from(top)],
            })
            .collect();
        read.extend(
            ["/proc", "/sys", "/etc/passwd", "/etc/group"]
                .iter()
                .chain(ETC_FILES)
                .map(PathBuf::from),
        );
        read.extend(java_configuration());
        read.extend(self.read_only.iter().cloned());
        confine::Reach {
            read,
            write: vec![folder.work(), folder.tmp()],
            devices: confine::DEVICES.iter().map(PathBuf::from).collect(),
        }
    }

    /// Notes in `sampled` the limits that the separate user `uid` is at now, where no
    /// cgroup counts for it (`counted`): its rlimits alone refuse then, and only what
    /// they see tells.
    fn sample(&self, uid: Option<libc::uid_t>, counted: bool, sampled: &mut Exhausted) {
        if let (Some(uid), false) = (uid, counted) {
            let usage = usage_of(uid);
            sampled.processes |= usage.tasks >= self.limits.processes;
            sampled.memory |= usage.largest_data >= self.limits.memory / 10 * 9;
        }
    }

    /// Runs `program` confined and limited, and waits for it and every process it
    /// started to end.
    pub fn run(&self, program: &Program) -> io::Result<Run> {
        self.run_from(program, None)
    }

    /// [`Sandbox::run`] with a work folder that starts as a copy of the tree `seed`
    /// (folders and regular files only, at most the run's file bound), before the
    /// program's files: an agent's build, or what it kept from its last move.
    pub fn run_from(&self, program: &Program, seed: Option<&Path>) -> io::Result<Run> {
        self.run_with(program, seed, None)
    }

    /// [`Sandbox::run_from`] with the program's standard input and output given to
    /// `talk`, on a thread of its own, while the run is watched (its standard output
    /// is then not captured); setting `halt` ends the run (every process killed, the
    /// ending [`Ending::Stopped`]). The run ends as any other: by its exit, a limit, or
    /// `halt`; `talk` must then return (its reads end, its writes fail).
    pub fn converse(
        &self,
        program: &Program,
        seed: Option<&Path>,
        halt: &AtomicBool,
        talk: impl FnOnce(ChildStdin, ChildStdout) + Send,
    ) -> io::Result<Run> {
        self.run_with(program, seed, Some((halt, Box::new(talk))))
    }

    fn run_with(
        &self,
        program: &Program,
        seed: Option<&Path>,
        conversation: Option<Conversation>,
    ) -> io::Result<Run> {
        let folder = CaseFolder::new(self.limits.file_size)?;
        if let Some(seed) = seed {
            copy_tree(seed, &folder.work(), folder.bound())?;
        }
        for (name, bytes) in program.files {
            fs::write(folder.work().join(name), bytes)?;
        }
        let lease = match self.isolation {
            Isolation::SeparateUser => Some(UidLease::take()?),
            _ => None,
        };
        let uid = lease.as_ref().map(|lease| lease.uid);
        if let Some(uid) = uid {
            folder.give_to(uid)?;
        }
        let filters = match self.isolation {
            Isolation::Bubblewrap => self.filter_files()?,
            _ => Vec::new(),
        };
        let keep = confine::raw_fds(&filters);
        let mut command = match self.isolation {
            Isolation::Bubblewrap => {
                let mut bwrap = self.bubblewrap(&folder, &keep);
                bwrap.args(["sh", "-c", program.command, "sh"]);
                bwrap
            }
            Isolation::SeparateUser | Isolation::Unsandboxed => {
                let path = match self.isolation {
                    Isolation::Unsandboxed => std::env::var_os("PATH").unwrap_or_default(),
                    _ => "/usr/local/bin:/usr/bin:/bin".into(),
                };
                let mut sh = Command::new("/bin/sh");
                sh.args(["-c", program.command, "sh"])
                    .current_dir(folder.work())
                    .env_clear()
                    .env("PATH", path)
                    .env("HOME", folder.work())
                    .env("LANG", "C.UTF-8")
                    .env("TMPDIR", folder.tmp());
                sh
            }
        };
        command.args(program.args);
        let stdout = capture_file(&folder.path().join("stdout"))?;
        let stderr = capture_file(&folder.path().join("stderr"))?;
        command
            .stdin(Stdio::null())
            .stdout(stdout.try_clone()?)
            .stderr(stderr.try_clone()?);
        if conversation.is_some() {
            command.stdin(Stdio::piped()).stdout(Stdio::piped());
        }
        let cgroup = Cgroup::create(&self.limits);
        let joins = cgroup.as_ref().map(Cgroup::join_files).transpose()?;
        let mut child_side = ChildSide {
            joins: joins.iter().flatten().map(AsRawFd::as_raw_fd).collect(),
            limits: RawLimits::of(&self.limits, uid, cgroup.as_ref()),
            keep,
            fence: match self.isolation {
                Isolation::SeparateUser => confine::Fence::new(&self.reach(&folder))?,
                _ => None,
            },
            filter: match self.isolation {
                Isolation::SeparateUser => self.filter.clone(),
                _ => None,
            },
        };
        // SAFETY: the closure runs in the child between fork and exec; it only makes
        // async-signal-safe system calls on data prepared before the fork, and
        // allocates nothing (see ChildSide::enter).
        unsafe {
            command.pre_exec(move || child_side.enter());
        }
        let started = Instant::now();
        let machine = MachineTicks::now();
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(e) => {
                // Nothing of a run that never started stays either.
                if let Some(cgroup) = cgroup {
                    cgroup.end();
                }
                return Err(e);
            }
        };
        drop(joins);
        drop(filters);
        let mut sampled = Exhausted::default();
        let counted = cgroup.as_ref().is_some_and(|c| c.memory_events.is_some());
        let pid = child.id() as i32;
        let meter = cgroup
            .as_ref()
            .and_then(Cgroup::cpu_meter)
            .unwrap_or(CpuMeter::Processes { root: pid, uid });
        let over_bound = || folder.over_bound();
        let watch = clock::Watch {
            pid,
            limits: &self.limits,
            meter: &meter,
            started,
            deadline: self.deadline,
            // Without a tmpfs of their bound, the run's files are measured.
            files_over: (!folder.mounted()).then_some(&over_bound),
            halt: conversation.as_ref().map(|(halt, _)| *halt),
        };
        let mut wait = || watch.wait(&mut || self.sample(uid, counted, &mut sampled));
        let waited = match conversation {
            None => wait()?,
            Some((_, talk)) => {
                let pipes = child.stdin.take().zip(child.stdout.take());
                std::thread::scope(|scope| {
                    if let Some((stdin, stdout)) = pipes {
                        scope.spawn(move || talk(stdin, stdout));
                    }
                    let waited = wait();
                    // Whatever of the run is left could hold its standard output open,
                    // and `talk` reading it: it goes before `talk` is waited for.
                    if let Some(uid) = uid {
                        kill_every_process_of(uid);
                    }
                    if let Some(cgroup) = &cgroup {
                        cgroup.empty();
                    }
                    waited
                })?
            }
        };
        let files_full = waited.ending == Ending::FilesTooLarge || folder.over_bound();
        let ending = waited.ending;
        // The cgroup counts every process of the run, those still running too.
        let cpu = match meter {
            CpuMeter::Processes { .. } => waited.metered.unwrap_or_default(),
            _ => meter.used().or(waited.metered).unwrap_or_default(),
        }
        .max(waited.rusage);
        let loaded = machine
            .zip(MachineTicks::now())
            .is_some_and(|(before, after)| before.loaded_until(after, cpu));
        let seconds = started.elapsed().as_secs_f64();
        // What the program left running when it ended counts too.
        self.sample(uid, counted, &mut sampled);
        if let Some(uid) = uid {
            // What is left (unreaped zombies) keeps the user from the next lease.
            kill_every_process_of(uid);
            cleanup::remove_owned_by(uid);
            cleanup::remove_ipc_of(uid);
        }
        let mut exhausted = cgroup.map(Cgroup::end).unwrap_or_default();
        exhausted.processes |= sampled.processes;
        exhausted.memory |= sampled.memory;
        drop(lease);
        Ok(Run {
            ending,
            exhausted,
            stdout: capture(stdout)?,
            stderr: capture(stderr)?,
            seconds,
            cpu,
            loaded,
            files_full,
            folder,
        })
    }
}

/// The JDK's configuration folders in `/etc`, linked from `/usr/lib/jvm`.
fn java_configuration() -> Vec<PathBuf> {
    let mut java: Vec<PathBuf> = fs::read_dir("/etc")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.as_bytes().starts_with(b"java"))
        })
        .collect();
    java.sort();
    java
}

/// `path` made canonical, to be shown read-only.
fn shown_path(path: &Path) -> Result<PathBuf, SandboxError> {
    fs::canonicalize(path).map_err(|e| SandboxError::ReadOnly {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// The top folders beside `/usr` that a program sees: links into `/usr` on merged
/// systems, else read-only folders.
const SYSTEM_LINKS: &[&str] = &["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/// The first `name` in a folder of `PATH`.
fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|folder| folder.join(name))
        .find(|candidate| candidate.is_file())
}

/// The `/etc` files shown to programs: the dynamic linker's, time zone and name
/// service files, and the links `/usr/bin/java` and friends go through.
const ETC_FILES: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/alternatives",
];
