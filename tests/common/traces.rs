//! What a run could leave on the machine (files in /tmp, /var/tmp and /dev/shm, SysV
//! IPC objects, processes, cgroups), taken before it and checked after it: the half
//! of the hostile tests' harness (`sandboxed.rs`) that looks for traces.

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use std::process::Command;

use super::{remove_all, Grading, World, SEPARATE_UIDS};

/// One attack at a time, so that one's processes and files are not taken for
/// another's.
pub static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes the one-at-a-time lock, whatever an earlier test's panic did to it.
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The folders every user may write to, whose top-level entries a run could leave.
const SHARED_TEMPORARY: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// What of a run could stay on the machine: the top-level entries of the shared
/// temporary folders (with their owners) and the SysV IPC objects.
pub struct Traces {
    entries: BTreeSet<PathBuf>,
    ipc: BTreeSet<Ipc>,
}

/// A SysV IPC object: its kind (`shm`, `msg`, `sem`), id, creator's uid and the pid
/// that made it (shm) or last sent to it (msg), else 0.
type Ipc = (String, String, u32, u32);

/// The SysV IPC objects now.
fn ipc_objects() -> BTreeSet<Ipc> {
    let mut objects = BTreeSet::new();
    // The columns of the creator's uid and pid in each file.
    for (kind, cuid, cpid) in [("shm", 9, Some(4)), ("msg", 9, Some(5)), ("sem", 6, None)] {
        let Ok(text) = fs::read_to_string(format!("/proc/sysvipc/{kind}")) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |i: Option<usize>| {
                i.and_then(|i| fields.get(i))
                    .and_then(|f| f.parse().ok())
                    .unwrap_or(0)
            };
            if let Some(id) = fields.get(1) {
                objects.insert((
                    kind.to_string(),
                    id.to_string(),
                    number(Some(cuid)),
                    number(cpid),
                ));
            }
        }
    }
    objects
}

fn temporary_entries() -> BTreeSet<PathBuf> {
    SHARED_TEMPORARY
        .iter()
        .flat_map(|folder| fs::read_dir(folder).into_iter().flatten().flatten())
        .map(|entry| entry.path())
        .collect()
}

impl Traces {
    /// The machine now, before a run.
    pub fn now() -> Traces {
        Traces {
            entries: temporary_entries(),
            ipc: ipc_objects(),
        }
    }

    /// What a run left since `self`: entries of /tmp, /var/tmp and /dev/shm owned by
    /// a separate user or named as an attack's (`hostile*`; the machine's other new
    /// files, other graders' `reversi-case-*` among them, are not the run's), every
    /// new SysV IPC object. Empty when nothing stayed. This machine is shared: what our
    /// programs name (`hostile*`, the honest C++ program's `in.txt` and `out.txt`, a
    /// JVM's `hsperfdata_*`) and the IPC objects of separate users whose creator is
    /// gone are removed; the rest is only reported.
    pub fn left_since(&self) -> Vec<String> {
        let mut left = Vec::new();
        for path in temporary_entries().difference(&self.entries) {
            let Ok(meta) = fs::symlink_metadata(path) else {
                continue;
            };
            let name = path.file_name().unwrap().to_string_lossy();
            let ours = name.starts_with("hostile")
                || name.starts_with("hsperfdata_")
                || name == "in.txt"
                || name == "out.txt";
            if SEPARATE_UIDS.contains(&meta.uid()) || ours {
                left.push(format!(
                    "{} (uid {}, {} bytes at the top)",
                    path.display(),
                    meta.uid(),
                    meta.len()
                ));
                if ours {
                    remove_all(path);
                }
            }
        }
        for (kind, id, creator, cpid) in ipc_objects().difference(&self.ipc) {
            left.push(format!("SysV {kind} object {id} (made by uid {creator})"));
            let gone = !Path::new(&format!("/proc/{cpid}")).exists();
            if SEPARATE_UIDS.contains(creator) && gone {
                let flag = match kind.as_str() {
                    "shm" => "-m",
                    "msg" => "-q",
                    _ => "-s",
                };
                let _ = Command::new("ipcrm").args([flag, id]).output();
            }
        }
        left
    }
}

/// Processes a run under `world` left: those of a separate user or carrying `4242` in
/// their arguments (our attacks' marker) whose arguments or working folder name the
/// world's folder (so that the runs of other graders on this machine are not taken for
/// ours). They are killed.
pub fn leftovers(world: &World) -> Vec<String> {
    let ours = world.path().to_string_lossy().into_owned();
    let mut left = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let uid = fs::metadata(entry.path()).map(|m| m.uid()).unwrap_or(0);
        let cwd = fs::read_link(entry.path().join("cwd")).unwrap_or_default();
        let marked = cmdline.contains("4242");
        let mine = cmdline.contains(&ours) || cwd.starts_with(&ours);
        if (marked || SEPARATE_UIDS.contains(&uid)) && mine {
            left.push(format!("{pid} (uid {uid}): {cmdline}"));
            // SAFETY: kill(2) of a process a run of this test left.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
    left
}

/// The processes whose command line (arguments joined by NUL, as in
/// `/proc/PID/cmdline`) `matches`.
pub fn processes_where(matches: impl Fn(&[u8]) -> bool) -> Vec<i32> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_string_lossy().parse::<i32>().ok()?;
            let cmdline = fs::read(entry.path().join("cmdline")).ok()?;
            matches(&cmdline).then_some(pid)
        })
        .collect()
}

/// The cgroups of the grader `pid` still there.
pub fn cgroups_left(pid: u32) -> Vec<PathBuf> {
    [
        "/sys/fs/cgroup",
        "/sys/fs/cgroup/pids",
        "/sys/fs/cgroup/memory",
        "/sys/fs/cgroup/cpuacct",
        "/sys/fs/cgroup/unified",
    ]
    .iter()
    .flat_map(|folder| fs::read_dir(folder).into_iter().flatten().flatten())
    .filter(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        name.starts_with(&format!("reversi-{pid}-"))
    })
    .map(|entry| entry.path())
    .collect()
}

/// Checks what every run promises beyond its verdict: nothing stayed behind (files
/// in the shared temporary folders, SysV IPC, processes, cgroups, the grader's
/// TMPDIR), the grader stayed small and printed no control character nor the secret.
pub fn nothing_stayed(what: &str, world: &World, traces: &Traces, grading: &Grading) {
    let left = traces.left_since();
    let processes = leftovers(world);
    let tmp = world.tmp_left();
    assert!(tmp.is_empty(), "{what} left {tmp:?} in the grader's TMPDIR");
    assert_eq!(left, Vec::<String>::new(), "{what} left these");
    assert_eq!(processes, Vec::<String>::new(), "{what} left processes");
    let cgroups = cgroups_left(grading.pid);
    assert!(cgroups.is_empty(), "{what}: cgroups left: {cgroups:?}");
    assert!(
        grading.peak_kib < 64 * 1024,
        "{what}: the grader grew to {} KiB",
        grading.peak_kib
    );
    for text in [&grading.stdout, &grading.stderr] {
        assert!(
            !text.bytes().any(|b| (b < 0x20 && b != b'\n') || b == 0x7f),
            "{what}: a control character reached the terminal: {text:?}"
        );
        assert!(!text.contains(&world.secret), "{what}: the secret leaked");
    }
}
