//! The separate users a run may be leased (uid 61000 and up, one per run at a time,
//! shared by every grader on the machine), and what their processes use.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::time::Duration;

/// The first uid of the separate users.
pub(super) const FIRST_UID: libc::uid_t = 61000;
/// How many separate users there are (runs at once, over every grader).
pub(super) const UIDS: libc::uid_t = 1000;
/// The folder of the users' lease files.
pub(super) const LEASES: &str = "/run/reversi-sandbox-uids";

/// One separate user, leased for a run: an exclusive lock on its lock file, shared
/// by every grader process on the machine.
pub(super) struct UidLease {
    pub(super) uid: libc::uid_t,
    _lock: File,
}

impl UidLease {
    /// The first free uid.
    pub(super) fn take() -> io::Result<UidLease> {
        let folder = Path::new(LEASES);
        fs::create_dir_all(folder)?;
        fs::set_permissions(folder, fs::Permissions::from_mode(0o700))?;
        for uid in FIRST_UID..FIRST_UID + UIDS {
            let lock = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(folder.join(uid.to_string()))?;
            // SAFETY: flock on a descriptor we own.
            // A previous holder may have left processes behind (a crash), or zombies
            // not yet reaped, which still count against the user's process limit:
            // such a user is passed over.
            if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0
                && kill_every_process_of(uid)
            {
                return Ok(UidLease { uid, _lock: lock });
            }
        }
        Err(io::Error::other("every separate user is in use"))
    }
}

/// Kills every process of the user `uid`: a child becomes that user and kills all it
/// may (kill -1), until none is left, zombies included (they are gone once their
/// parent reaps them). Tells whether none is left after a second.
pub(super) fn kill_every_process_of(uid: libc::uid_t) -> bool {
    for _ in 0..100 {
        if !has_processes(uid) {
            return true;
        }
        // SAFETY: the child only calls setuid, kill and _exit (async-signal-safe).
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                if libc::setuid(uid) == 0 {
                    libc::kill(-1, libc::SIGKILL);
                }
                libc::_exit(0);
            }
            if pid > 0 {
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
        }
        if reap_adopted(uid) {
            continue;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    !has_processes(uid)
}

/// Makes this process the parent of the orphans of the runs it starts (a child
/// subreaper, `PR_SET_CHILD_SUBREAPER`), so that [`kill_every_process_of`] reaps them
/// at once: an orphan killed otherwise stays a zombie of the machine's first process
/// until that reaps it, which in a container may be late (seconds) or never, and a
/// run would wait for it past the grading's time budget.
pub(super) fn adopt_orphans() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: prctl with an integer option and no pointers.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// Reaps the zombies of the user `uid` that are this process's children: orphans of
/// its runs, adopted ([`adopt_orphans`]). Tells whether it reaped any.
fn reap_adopted(uid: libc::uid_t) -> bool {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let mut reaped = false;
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(status) = fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
        };
        let ours = field("Uid:").and_then(|u| u.parse::<libc::uid_t>().ok()) == Some(uid)
            && field("State:") == Some("Z")
            && field("PPid:").and_then(|p| p.parse::<i32>().ok()) == Some(me);
        // SAFETY: waitpid on a zombie child of ours, without blocking.
        if ours && unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) } == pid {
            reaped = true;
        }
    }
    reaped
}

/// Whether the user `uid` has a process, zombies included.
fn has_processes(uid: libc::uid_t) -> bool {
    usage_of(uid).tasks > 0
}

/// The users of `uids` that have a process (zombies included), from one look at
/// `/proc`.
pub(super) fn uids_with_processes(uids: std::ops::Range<libc::uid_t>) -> Vec<libc::uid_t> {
    use std::os::unix::fs::MetadataExt;
    let mut found: Vec<libc::uid_t> = fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|entry| entry.metadata().ok().map(|meta| meta.uid()))
        .filter(|uid| uids.contains(uid))
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// What a user's processes use, as its rlimits count it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Usage {
    /// Processes and threads (`RLIMIT_NPROC`), zombies included.
    pub(super) tasks: u64,
    /// The largest data segment of one process, in bytes (`RLIMIT_DATA`).
    pub(super) largest_data: u64,
}

/// The processes, threads and largest data segment of the user `uid`.
pub(super) fn usage_of(uid: libc::uid_t) -> Usage {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Usage::default();
    };
    let mut usage = Usage::default();
    for status in entries
        .flatten()
        .filter_map(|entry| fs::read_to_string(entry.path().join("status")).ok())
    {
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse::<u64>().ok())
        };
        if field("Uid:") == Some(u64::from(uid)) {
            usage.tasks += field("Threads:").unwrap_or(1);
            usage.largest_data = usage.largest_data.max(field("VmData:").unwrap_or(0) << 10);
        }
    }
    usage
}
