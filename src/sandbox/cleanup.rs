//! What a run leaves is removed after it: its folder however deep and whatever its
//! modes, and, for a separate user, everything that user owns in the shared temporary
//! folders and its SysV IPC objects.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// The shared folders where any user may leave files.
pub const SHARED_TEMPORARY: &[&str] = &["/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue"];

/// Removes the folder `top` and everything beneath it, with at most two folders open
/// at a time whatever its depth: each pass moves the grandchildren of `top` up into
/// it (renames within one file system), so a chain of N folders takes N passes and no
/// path grows long. Folders are opened up (0700) first, so no mode stops it. Not for
/// a folder that a running program can still change.
pub fn remove_tree(top: &Path) -> io::Result<()> {
    let mut fresh: u64 = 0;
    loop {
        let mut moved = false;
        for entry in fs::read_dir(top)? {
            let entry = entry?;
            let path = entry.path();
            let meta = fs::symlink_metadata(&path)?;
            if !meta.is_dir() {
                fs::remove_file(&path)?;
                continue;
            }
            if meta.permissions().mode() & 0o700 != 0o700 {
                fs::set_permissions(&path, fs::Permissions::from_mode(0o700))?;
            }
            if fs::remove_dir(&path).is_ok() {
                continue;
            }
            for child in fs::read_dir(&path)? {
                let child = child?;
                loop {
                    fresh += 1;
                    let target = top.join(format!(".reversi-removed-{fresh}"));
                    match rename_no_replace(&child.path(), &target) {
                        Ok(()) => break,
                        Err(e) if e.raw_os_error() == Some(libc::EEXIST) => continue,
                        Err(e) => return Err(e),
                    }
                }
                moved = true;
            }
            // Emptied: it goes now, so that the top stays small.
            let _ = fs::remove_dir(&path);
        }
        if !moved {
            break;
        }
    }
    match fs::remove_dir(top) {
        Err(e) if e.kind() == io::ErrorKind::DirectoryNotEmpty => remove_tree(top),
        other => other,
    }
}

/// renameat2(RENAME_NOREPLACE): never overwrites.
fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    let c = |path: &Path| CString::new(path.as_os_str().as_bytes()).map_err(io::Error::other);
    let (from, to) = (c(from)?, c(to)?);
    // SAFETY: renameat2 reads two NUL-terminated paths.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Removes every entry that the user `uid` owns at the top of the shared temporary
/// folders (with all beneath it), and every entry that it owns one level down in a
/// folder of someone else there. Returns how many it removed.
pub fn remove_owned_by(uid: libc::uid_t) -> usize {
    let mut removed = 0;
    for folder in SHARED_TEMPORARY {
        let Ok(entries) = fs::read_dir(folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.uid() == uid {
                let gone = if meta.is_dir() {
                    remove_tree(&path)
                } else {
                    fs::remove_file(&path)
                };
                removed += usize::from(gone.is_ok());
            }
        }
    }
    removed
}

/// Removes the SysV shared memory segments, message queues and semaphore sets that
/// `uid` owns or made. Returns how many.
pub fn remove_ipc_of(uid: libc::uid_t) -> usize {
    let mut removed = 0;
    for (table, kind) in [("shm", Ipc::Shm), ("msg", Ipc::Msg), ("sem", Ipc::Sem)] {
        let Ok(text) = fs::read_to_string(Path::new("/proc/sysvipc").join(table)) else {
            continue;
        };
        let mut lines = text.lines();
        let Some(header) = lines.next() else {
            continue;
        };
        let columns: Vec<&str> = header.split_whitespace().collect();
        let at = |name: &str| columns.iter().position(|c| *c == name);
        let (Some(id), Some(owner), Some(creator)) = (
            at("shmid").or(at("msqid")).or(at("semid")),
            at("uid"),
            at("cuid"),
        ) else {
            continue;
        };
        for line in lines {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |i: usize| fields.get(i).and_then(|f| f.parse::<i64>().ok());
            let (Some(object), Some(o), Some(c)) = (number(id), number(owner), number(creator))
            else {
                continue;
            };
            if o != i64::from(uid) && c != i64::from(uid) {
                continue;
            }
            let Ok(object) = i32::try_from(object) else {
                continue;
            };
            // SAFETY: IPC_RMID on an identifier read from /proc; no buffer is read.
            let done = unsafe {
                match kind {
                    Ipc::Shm => libc::shmctl(object, libc::IPC_RMID, std::ptr::null_mut()),
                    Ipc::Msg => libc::msgctl(object, libc::IPC_RMID, std::ptr::null_mut()),
                    Ipc::Sem => libc::semctl(object, 0, libc::IPC_RMID),
                }
            };
            removed += usize::from(done == 0);
        }
    }
    removed
}

#[derive(Clone, Copy)]
enum Ipc {
    Shm,
    Msg,
    Sem,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::{FromRawFd, OwnedFd};

    /// Makes a chain of `depth` folders under `top` (each holding a file, the last
    /// one closed with mode 000), one step at a time, as a program in it would.
    fn chain(top: &Path, depth: usize) {
        let name = CString::new(top.as_os_str().as_bytes()).unwrap();
        // SAFETY: plain *at calls on descriptors we own, with NUL-terminated names.
        unsafe {
            let mut here = OwnedFd::from_raw_fd(libc::open(name.as_ptr(), libc::O_DIRECTORY));
            for _ in 0..depth {
                use std::os::fd::AsRawFd;
                assert_eq!(libc::mkdirat(here.as_raw_fd(), c"d".as_ptr(), 0o755), 0);
                let file = libc::openat(
                    here.as_raw_fd(),
                    c"f".as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY,
                    0o644,
                );
                libc::close(file);
                let next = libc::openat(here.as_raw_fd(), c"d".as_ptr(), libc::O_DIRECTORY);
                assert!(next >= 0);
                here = OwnedFd::from_raw_fd(next);
            }
            use std::os::fd::AsRawFd;
            libc::fchmod(here.as_raw_fd(), 0);
        }
    }

    #[test]
    fn a_chain_deeper_than_paths_and_open_files_allow_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("top");
        fs::create_dir(&top).unwrap();
        // Deeper than an ordinary open-files limit (1024) allows a recursive removal.
        chain(&top, 1200);
        remove_tree(&top).unwrap();
        assert!(!top.exists());
    }

    #[test]
    fn a_folder_named_like_the_moved_ones_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("top");
        fs::create_dir_all(top.join("a/b")).unwrap();
        fs::write(top.join(".reversi-removed-1"), b"x").unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
    }
}
