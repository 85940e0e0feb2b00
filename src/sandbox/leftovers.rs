//! What a grader stopped at once (SIGKILL, a crash) could not remove after its runs,
//! removed by the next grader on the machine: the processes of a separate user no
//! grader holds (with the files and IPC objects that user left), run folders and
//! build folders (the students' compiled programs) no grader holds (a run folder's
//! tmpfs unmounted), and empty cgroups of graders that have ended. Each is taken only when nothing running can own it: a user's or a folder's
//! lock is free, a cgroup's grader is gone and the cgroup is empty.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::sync::Once;
use std::time::{Duration, SystemTime};

use super::files::{self, BUILD_FOLDER_PREFIX, RUN_FOLDER_LOCK, RUN_FOLDER_PREFIX};
use super::separate_user::{self, kill_every_process_of, FIRST_UID, UIDS};
use super::{cgroup, cleanup};

/// How old a run or build folder without its lock, or a cgroup, must be to be taken
/// as left over: a grader makes each and takes it up within this time.
const SETTLED: Duration = Duration::from_secs(60);

/// Removes what graders that have ended left, once per process.
pub(super) fn sweep() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // (the users' processes first: a folder is removed only when nothing runs in it)
        users();
        folders(&std::env::temp_dir());
        cgroups();
    });
}

/// Holds `file` locked, if no one else does (the lock goes with the file).
fn lock_free(file: &File) -> bool {
    // SAFETY: flock(2) on a descriptor the caller owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Kills the processes of each separate user whose lease no grader holds, and
/// removes what that user left in the shared folders.
fn users() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let leases = Path::new(separate_user::LEASES);
    for uid in separate_user::uids_with_processes(FIRST_UID..FIRST_UID + UIDS) {
        let lock = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(leases.join(uid.to_string()));
        if lock.as_ref().is_ok_and(lock_free) {
            kill_every_process_of(uid);
            cleanup::remove_owned_by(uid);
            cleanup::remove_ipc_of(uid);
        }
    }
}

/// Removes the run and build folders in `tmp` that are this user's and that no
/// grader holds.
pub(super) fn folders(tmp: &Path) {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if ![RUN_FOLDER_PREFIX, BUILD_FOLDER_PREFIX]
            .iter()
            .any(|prefix| name.starts_with(prefix))
        {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        let lock = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path.join(RUN_FOLDER_LOCK));
        let left = match &lock {
            Ok(lock) => lock_free(lock),
            // (a folder just made, whose lock is not there yet, is not one)
            Err(_) => settled(&meta),
        };
        if left {
            // (a build folder has no room: nothing to unmount)
            files::unmount(&path.join("room"));
            let _ = cleanup::remove_tree(&path);
        }
    }
}

/// Whether what `meta` describes was last changed more than [`SETTLED`] ago.
fn settled(meta: &fs::Metadata) -> bool {
    meta.modified()
        .ok()
        .and_then(|at| SystemTime::now().duration_since(at).ok())
        .is_some_and(|age| age > SETTLED)
}

/// Removes the empty cgroups (`reversi-PID-N`) of graders that have ended.
fn cgroups() {
    for top in cgroup::FOLDERS {
        let folder = Path::new(cgroup::CGROUP_ROOT).join(top);
        for entry in fs::read_dir(folder).into_iter().flatten().flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(cgroup::grader_of) else {
                continue;
            };
            // SAFETY: kill(2) with signal 0 only asks whether the process exists.
            let gone = unsafe { libc::kill(pid, 0) } != 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
            let old = fs::symlink_metadata(entry.path()).is_ok_and(|meta| settled(&meta));
            if gone && old {
                // (refused while a process is in it)
                let _ = fs::remove_dir(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_or_build_folder_is_taken_only_when_its_lock_is_free() {
        let tmp = tempfile::tempdir().unwrap();
        let (held, left) = (
            tmp.path().join("reversi-case-a"),
            tmp.path().join("reversi-case-b"),
        );
        let other = tmp.path().join("other");
        for folder in [&held, &left, &other] {
            fs::create_dir_all(folder.join("room/work")).unwrap();
            File::create(folder.join(RUN_FOLDER_LOCK)).unwrap();
        }
        let lock = File::open(held.join(RUN_FOLDER_LOCK)).unwrap();
        assert!(lock_free(&lock));
        // A build folder left, and one held, are told the same way.
        let (build_left, build_held) = (
            tmp.path().join("reversi-build-a"),
            tmp.path().join("reversi-build-b"),
        );
        for folder in [&build_left, &build_held] {
            fs::create_dir_all(folder.join("build")).unwrap();
            File::create(folder.join(RUN_FOLDER_LOCK)).unwrap();
        }
        let build_lock = File::open(build_held.join(RUN_FOLDER_LOCK)).unwrap();
        assert!(lock_free(&build_lock));
        // A folder just made, its lock not there yet, stays too.
        let fresh = tmp.path().join("reversi-case-c");
        fs::create_dir(&fresh).unwrap();
        folders(tmp.path());
        assert!(held.is_dir() && other.is_dir() && fresh.is_dir());
        assert!(!left.exists());
        assert!(build_held.is_dir() && !build_left.exists());
        drop(lock);
        // (a process another test forks holds a copy of the lock's descriptor until it
        // execs: the sweep takes the folder once that copy is closed)
        for _ in 0..100 {
            folders(tmp.path());
            if !held.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(!held.exists());
    }
}
