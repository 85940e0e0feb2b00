//! A cgroup of one run: its memory and process limits, which of them it hit, and
//! the CPU time of all its processes.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::clock::CpuMeter;
use super::Limits;

/// Counts runs of this process, to name their cgroups.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The cgroup limits a run hit (known only where there was a cgroup).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exhausted {
    /// A process was killed for memory.
    pub memory: bool,
    /// A fork or a new thread was refused for the process limit.
    pub processes: bool,
}

/// A cgroup of one run (v2, or v1's pids and memory controllers), made where the
/// grader may; removed (after killing whatever is left in it) by [`Cgroup::end`].
pub(super) struct Cgroup {
    /// One folder (v2) or one per controller (v1).
    folders: Vec<PathBuf>,
    /// The files that count limit hits: `pids.events` (`max N`) and
    /// `memory.events` or v1's `memory.oom_control` (`oom_kill N`).
    pids_events: PathBuf,
    pub(super) memory_events: Option<PathBuf>,
    /// The counter of the run's CPU time, where the cgroup has one.
    cpu: Option<CpuCounter>,
}

/// A cgroup's counter of CPU time.
#[derive(Clone, Debug)]
enum CpuCounter {
    /// v2's `cpu.stat`.
    V2(PathBuf),
    /// v1's `cpuacct.usage`.
    V1(PathBuf),
}

pub(super) const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// The folders under [`CGROUP_ROOT`] where a run's cgroups are made: v2's root, and
/// v1's controllers.
pub(super) const FOLDERS: [&str; 4] = ["", "pids", "memory", "cpuacct"];

/// The start of a run's cgroup name, `reversi-PID-N` (the grader's pid, its run).
const PREFIX: &str = "reversi-";

/// The grader that made the cgroup named `name`, if it is a run's.
pub(super) fn grader_of(name: &str) -> Option<libc::pid_t> {
    name.strip_prefix(PREFIX)?.split('-').next()?.parse().ok()
}

impl Cgroup {
    /// Makes the cgroup with the limits, or `None` where it cannot.
    pub(super) fn create(limits: &Limits) -> Option<Cgroup> {
        let name = format!(
            "{PREFIX}{}-{}",
            std::process::id(),
            RUNS.fetch_add(1, Ordering::Relaxed)
        );
        let root = Path::new(CGROUP_ROOT);
        let memory = limits.memory.to_string();
        let processes = limits.processes.to_string();
        let (cgroup, set) = if root.join("cgroup.controllers").is_file() {
            let folder = root.join(&name);
            fs::create_dir(&folder).ok()?;
            let cgroup = Cgroup {
                folders: vec![folder.clone()],
                pids_events: folder.join("pids.events"),
                memory_events: Some(folder.join("memory.events")),
                cpu: Some(CpuCounter::V2(folder.join("cpu.stat"))),
            };
            let set = fs::write(folder.join("pids.max"), &processes)
                .and_then(|()| fs::write(folder.join("memory.max"), &memory))
                .map(|()| {
                    // No swap either, where the kernel has it.
                    let _ = fs::write(folder.join("memory.swap.max"), "0");
                });
            (cgroup, set)
        } else {
            let pids = root.join("pids").join(&name);
            let mem = root.join("memory").join(&name);
            fs::create_dir(&pids).ok()?;
            let cpu = root.join("cpuacct").join(&name);
            let mut cgroup = Cgroup {
                folders: vec![pids.clone()],
                pids_events: pids.join("pids.events"),
                memory_events: None,
                cpu: None,
            };
            let mut set = fs::write(pids.join("pids.max"), &processes);
            if set.is_ok() && fs::create_dir(&mem).is_ok() {
                cgroup.folders.push(mem.clone());
                cgroup.memory_events = Some(mem.join("memory.oom_control"));
                set = fs::write(mem.join("memory.limit_in_bytes"), &memory);
            }
            if set.is_ok() && fs::create_dir(&cpu).is_ok() {
                cgroup.folders.push(cpu.clone());
                cgroup.cpu = Some(CpuCounter::V1(cpu.join("cpuacct.usage")));
            }
            (cgroup, set)
        };
        match set {
            Ok(()) => Some(cgroup),
            Err(_) => {
                cgroup.end();
                None
            }
        }
    }

    /// The meter of the run's CPU time, where the cgroup counts it.
    pub(super) fn cpu_meter(&self) -> Option<CpuMeter> {
        match self.cpu.clone()? {
            CpuCounter::V2(path) if path.is_file() => Some(CpuMeter::CgroupV2(path)),
            CpuCounter::V2(_) => None,
            CpuCounter::V1(path) => Some(CpuMeter::CgroupV1(path)),
        }
    }

    /// The `cgroup.procs` files, open for the child to write its pid to.
    pub(super) fn join_files(&self) -> io::Result<Vec<File>> {
        self.folders
            .iter()
            .map(|folder| {
                OpenOptions::new()
                    .write(true)
                    .custom_flags(libc::O_CLOEXEC)
                    .open(folder.join("cgroup.procs"))
            })
            .collect()
    }

    /// Kills whatever is left in the cgroup, removes it, and tells which limits the
    /// run hit.
    pub(super) fn end(self) -> Exhausted {
        let exhausted = Exhausted {
            memory: self
                .memory_events
                .as_deref()
                .is_some_and(|path| counted(path, "oom_kill")),
            processes: counted(&self.pids_events, "max"),
        };
        self.empty();
        for folder in &self.folders {
            let _ = fs::remove_dir(folder);
        }
        exhausted
    }

    /// Kills every process left in the cgroup. What is left is usually gone within a
    /// millisecond or two (a process namespace ending): look again every millisecond,
    /// for a second at most.
    pub(super) fn empty(&self) {
        for folder in &self.folders {
            for _ in 0..1000 {
                let procs = fs::read_to_string(folder.join("cgroup.procs")).unwrap_or_default();
                let pids: Vec<i32> = procs.lines().filter_map(|l| l.parse().ok()).collect();
                if pids.is_empty() {
                    break;
                }
                for pid in pids {
                    // SAFETY: kill(2) on a process of the run's cgroup.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// Whether the cgroup event file `path` counts at least one `event` (a `NAME N` line).
fn counted(path: &Path, event: &str) -> bool {
    fs::read_to_string(path).is_ok_and(|text| {
        text.lines().any(|line| {
            let mut words = line.split_whitespace();
            words.next() == Some(event) && words.next().is_some_and(|n| n != "0")
        })
    })
}
