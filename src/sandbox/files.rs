//! A run's private folder, and how the grader reads what the program left there:
//! never following a link, never blocking on a FIFO, never more than a bound.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use super::{cleanup, Captured, OutputFile, TAIL_BYTES, WORK_INSIDE};

/// The prefix of a run folder's name in the temporary folder.
pub(super) const RUN_FOLDER_PREFIX: &str = "reversi-case-";

/// The prefix of a build folder's name in the temporary folder.
pub(super) const BUILD_FOLDER_PREFIX: &str = "reversi-build-";

/// The file in a run or build folder that its grader holds locked while the folder
/// is in use.
pub(super) const RUN_FOLDER_LOCK: &str = "lock";

/// Opens `path` as [`Run::read_output`](super::Run::read_output) does.
pub(super) fn read_regular(path: &Path, max_bytes: u64) -> io::Result<OutputFile> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    let file = match file {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(OutputFile::Missing),
        // O_NOFOLLOW on a link.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Ok(OutputFile::NotAFile("a symbolic link"))
        }
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    let kind = meta.file_type();
    if !kind.is_file() {
        use std::os::unix::fs::FileTypeExt;
        let what = if kind.is_dir() {
            "a folder"
        } else if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "a device"
        };
        return Ok(OutputFile::NotAFile(what));
    }
    if meta.len() > max_bytes {
        return Ok(OutputFile::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        // It grew while being read.
        return Ok(OutputFile::TooLarge(bytes.len() as u64));
    }
    Ok(OutputFile::Regular(bytes))
}

/// Reads the size and the last [`TAIL_BYTES`] of a capture file.
pub(super) fn capture(mut file: File) -> io::Result<Captured> {
    let size = file.seek(SeekFrom::End(0))?;
    file.seek(SeekFrom::Start(size.saturating_sub(TAIL_BYTES as u64)))?;
    let mut tail = Vec::with_capacity(TAIL_BYTES);
    file.take(TAIL_BYTES as u64).read_to_end(&mut tail)?;
    Ok(Captured { size, tail })
}

/// A new capture file (0600, not in the work folder).
pub(super) fn capture_file(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

/// Copies the tree `from` into the folder `to` (which exists): folders and regular
/// files only (links, FIFOs and devices are left out, nothing is followed), the
/// execute bit kept, modes made readable by all (0755 or 0644); at most `max_bytes`
/// of files in all. Returns the bytes copied, or an error once the bound is passed.
pub(super) fn copy_tree(from: &Path, to: &Path, max_bytes: u64) -> io::Result<u64> {
    let mut copied: u64 = 0;
    for entry in walkdir::WalkDir::new(from).min_depth(1).follow_links(false) {
        let entry = entry.map_err(io::Error::other)?;
        let relative = entry.path().strip_prefix(from).map_err(io::Error::other)?;
        let target = to.join(relative);
        let kind = entry.file_type();
        if kind.is_dir() {
            fs::create_dir(&target)?;
            fs::set_permissions(&target, fs::Permissions::from_mode(0o755))?;
        } else if kind.is_file() {
            let OutputFile::Regular(bytes) =
                read_regular(entry.path(), max_bytes.saturating_sub(copied))?
            else {
                return Err(io::Error::other(format!(
                    "{}: more than {max_bytes} bytes of files in all",
                    from.display()
                )));
            };
            copied += bytes.len() as u64;
            let mode = entry
                .metadata()
                .map_err(io::Error::other)?
                .permissions()
                .mode();
            fs::write(&target, bytes)?;
            let mode = if mode & 0o111 != 0 { 0o755 } else { 0o644 };
            fs::set_permissions(&target, fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(copied)
}

/// A run's private folder: `room/work/` (the program's), `room/tmp/` (its TMPDIR, and
/// its `/tmp` in bubblewrap where `room` is a mount), `stdout`, `stderr`, and the
/// `passwd` and `group` files the sandbox shows. `room` is a tmpfs of the run's bound
/// where the grader may mount one (root), so that the run's files together cannot
/// pass it; else [`CaseFolder::over_bound`] measures them. Removed when dropped,
/// however deep and whatever the modes of what the program left.
#[derive(Debug)]
pub(super) struct CaseFolder {
    path: PathBuf,
    /// Bytes the run's files may hold in all.
    bound: u64,
    /// Whether `room` is a tmpfs of `bound` bytes.
    mounted: bool,
    /// The folder's lock, held while it is in use, so that a later grader knows the
    /// folder of one that was killed ([`super::leftovers`]).
    _lock: File,
}

/// Room beyond `--file-size` for the run's files in all: its `input.txt` and what
/// else a program that writes one file of the limit needs.
const ROOM_SLACK: u64 = 1 << 20;

/// Free bytes of a full room.
const FULL_BELOW: u64 = 64 << 10;

impl CaseFolder {
    /// A new folder whose run's files may hold about `file_size` bytes in all.
    pub(super) fn new(file_size: u64) -> io::Result<CaseFolder> {
        let path = tempfile::Builder::new()
            .prefix(RUN_FOLDER_PREFIX)
            .tempdir()?
            .keep();
        let lock = capture_file(&path.join(RUN_FOLDER_LOCK))?;
        // SAFETY: flock(2) on a descriptor this function owns; the folder is new.
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) };
        let bound = file_size.saturating_add(ROOM_SLACK);
        let mut folder = CaseFolder {
            path,
            bound,
            mounted: false,
            _lock: lock,
        };
        let room = folder.path.join("room");
        fs::create_dir(&room)?;
        folder.mounted = mount_tmpfs(&room, bound);
        fs::set_permissions(&room, fs::Permissions::from_mode(0o711))?;
        let path = folder.path();
        for room in [folder.work(), folder.tmp()] {
            fs::create_dir(&room)?;
            fs::set_permissions(&room, fs::Permissions::from_mode(0o755))?;
        }
        fs::write(
            path.join("passwd"),
            format!("student:x:1000:1000:student:{WORK_INSIDE}:/bin/sh\n"),
        )?;
        fs::write(path.join("group"), "student:x:1000:\n")?;
        Ok(folder)
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes the run's files may hold in all.
    pub(super) fn bound(&self) -> u64 {
        self.bound
    }

    /// The program's work folder.
    pub(super) fn work(&self) -> PathBuf {
        self.path.join("room/work")
    }

    /// The program's temporary folder.
    pub(super) fn tmp(&self) -> PathBuf {
        self.path.join("room/tmp")
    }

    /// Whether the run's folders are a tmpfs of their bound.
    pub(super) fn mounted(&self) -> bool {
        self.mounted
    }

    /// Whether the run's files together reached their bound: the tmpfs is full, or
    /// (without one) what they take on the disk passed it.
    pub(super) fn over_bound(&self) -> bool {
        let room = self.path.join("room");
        if self.mounted {
            return free_bytes(&room).is_some_and(|free| free < FULL_BELOW);
        }
        disk_usage(&room) > self.bound
    }

    /// Lets the user `uid` into the folder and gives it the work and temporary
    /// folders (and nothing else of the folder: the capture files stay the grader's).
    pub(super) fn give_to(&self, uid: libc::uid_t) -> io::Result<()> {
        fs::set_permissions(self.path(), fs::Permissions::from_mode(0o711))?;
        for room in [self.work(), self.tmp()] {
            // Every file the run starts with (a seeded tree too), never through a link.
            for entry in walkdir::WalkDir::new(&room) {
                std::os::unix::fs::lchown(entry?.path(), Some(uid), Some(uid))?;
            }
            fs::set_permissions(&room, fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }
}

/// Mounts a tmpfs of `bound` bytes on `room`, where the grader may (root with the
/// right to mount: not in most containers).
fn mount_tmpfs(room: &Path, bound: u64) -> bool {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return false;
    }
    let (Ok(target), Ok(options)) = (
        CString::new(room.as_os_str().as_bytes()),
        CString::new(format!("size={bound},mode=0711")),
    ) else {
        return false;
    };
    // SAFETY: mount(2) with NUL-terminated strings that outlive the call.
    unsafe {
        libc::mount(
            c"tmpfs".as_ptr(),
            target.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.as_ptr().cast(),
        ) == 0
    }
}

/// The free bytes of the file system of `path`.
fn free_bytes(path: &Path) -> Option<u64> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let path = CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the zeroed structure from a NUL-terminated path.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    Some(stat.f_bavail as u64 * stat.f_frsize as u64)
}

/// Entries a measure of a run's files looks at, at most.
const MEASURED_ENTRIES: usize = 100_000;

/// The bytes the files under `top` take on its disk (allocated blocks: a sparse
/// file counts what it holds), not following links nor crossing into other file
/// systems.
pub(super) fn disk_usage(top: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    walkdir::WalkDir::new(top)
        .same_file_system(true)
        .into_iter()
        .take(MEASURED_ENTRIES)
        .flatten()
        .filter_map(|entry| entry.metadata().ok())
        .map(|meta| meta.blocks() * 512)
        .sum()
}

/// Detaches the mount on `path` (a run folder's `room`), if there is one; once every
/// process of the run has ended, the tmpfs and its files go with it.
pub(super) fn unmount(path: &Path) {
    let Ok(path) = std::ffi::CString::new(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()))
    else {
        return;
    };
    // SAFETY: umount2 on a NUL-terminated path; it fails harmlessly where nothing is
    // mounted or the caller may not unmount.
    unsafe {
        libc::umount2(path.as_ptr(), libc::MNT_DETACH);
    }
}

/// A folder a build (a student's compiled program) is kept in for the runs to read:
/// `reversi-build-*` in the temporary folder, holding its lock, held while the
/// build is in use so that a later grader removes the folder of one that was killed
/// (`sandbox::leftovers`), and `build/`, which the runs are shown (not the lock).
/// Removed when dropped.
#[derive(Debug)]
pub struct BuildFolder {
    path: PathBuf,
    _lock: File,
}

impl BuildFolder {
    /// A new, empty build folder, locked.
    pub fn new() -> io::Result<BuildFolder> {
        let path = tempfile::Builder::new()
            .prefix(BUILD_FOLDER_PREFIX)
            .tempdir()?
            .keep();
        let lock = match capture_file(&path.join(RUN_FOLDER_LOCK)) {
            Ok(lock) => lock,
            Err(e) => {
                let _ = cleanup::remove_tree(&path);
                return Err(e);
            }
        };
        // SAFETY: flock(2) on a descriptor this function owns; the folder is new.
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) };
        let folder = BuildFolder { path, _lock: lock };
        fs::set_permissions(&folder.path, fs::Permissions::from_mode(0o755))?;
        fs::create_dir(folder.path())?;
        fs::set_permissions(folder.path(), fs::Permissions::from_mode(0o755))?;
        Ok(folder)
    }

    /// Where the build goes: the folder shown to the runs.
    pub fn path(&self) -> PathBuf {
        self.path.join("build")
    }
}

impl Drop for BuildFolder {
    fn drop(&mut self) {
        if let Err(e) = cleanup::remove_tree(&self.path) {
            eprintln!(
                "reversi: warning: cannot remove {}: {e}",
                self.path.display()
            );
        }
    }
}

impl Drop for CaseFolder {
    fn drop(&mut self) {
        if self.mounted {
            unmount(&self.path.join("room"));
        }
        if let Err(e) = cleanup::remove_tree(&self.path) {
            eprintln!(
                "reversi: warning: cannot remove {}: {e}",
                self.path.display()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::io::Write;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn the_tail_is_the_end_of_a_long_stream() {
        let mut file = tempfile::tempfile().unwrap();
        for i in 0..100_000 {
            writeln!(file, "line {i}").unwrap();
        }
        let captured = capture(file).unwrap();
        assert_eq!(captured.tail.len(), TAIL_BYTES);
        let lines: Vec<&[u8]> = vec![b"line 99997", b"line 99998", b"line 99999"];
        assert_eq!(captured.last_lines(3), lines);
    }

    #[test]
    fn blank_lines_and_line_ends_are_not_lines_of_the_tail() {
        let captured = Captured {
            size: 20,
            tail: b"ok\r\n\x1b[2J\rPASS\n \n\n".to_vec(),
        };
        let lines: Vec<&[u8]> = vec![b"ok", b"\x1b[2J\rPASS"];
        assert_eq!(captured.last_lines(3), lines);
    }

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, b"12345").unwrap();
        assert_eq!(
            read_regular(&file, 5).unwrap(),
            OutputFile::Regular(b"12345".to_vec())
        );
        assert_eq!(read_regular(&file, 4).unwrap(), OutputFile::TooLarge(5));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(
            read_regular(&link, 5).unwrap(),
            OutputFile::NotAFile("a symbolic link")
        );
        let fifo = dir.path().join("fifo");
        let name = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        assert_eq!(
            read_regular(&fifo, 5).unwrap(),
            OutputFile::NotAFile("a FIFO")
        );
        assert_eq!(
            read_regular(dir.path(), 5).unwrap(),
            OutputFile::NotAFile("a folder")
        );
        assert_eq!(
            read_regular(&dir.path().join("none"), 5).unwrap(),
            OutputFile::Missing
        );
    }

    #[test]
    fn a_sparse_file_is_too_large_without_being_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sparse");
        let file = File::create(&path).unwrap();
        file.set_len(1 << 40).unwrap();
        assert_eq!(
            read_regular(&path, 1000).unwrap(),
            OutputFile::TooLarge(1 << 40)
        );
    }
}
