//! A run's private folder, and how the grader reads what the program left there:
//! never following a link, never blocking on a FIFO, never more than a bound.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{cleanup, Captured, OutputFile, TAIL_BYTES, WORK_INSIDE};

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

/// A run's private folder: `work/` (the program's), `tmp/` (its TMPDIR as a separate
/// user), `stdout`, `stderr`, and the `passwd` and `group` files the sandbox shows.
/// Removed when dropped, however deep and whatever the modes of what the program left.
#[derive(Debug)]
pub(super) struct CaseFolder {
    path: PathBuf,
}

impl CaseFolder {
    pub(super) fn new() -> io::Result<CaseFolder> {
        let path = tempfile::Builder::new()
            .prefix("reversi-case-")
            .tempdir()?
            .keep();
        let folder = CaseFolder { path };
        let path = folder.path();
        for room in ["work", "tmp"] {
            fs::create_dir(path.join(room))?;
            fs::set_permissions(path.join(room), fs::Permissions::from_mode(0o755))?;
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

    /// Lets the user `uid` into the folder and gives it the work and temporary
    /// folders (and nothing else of the folder: the capture files stay the grader's).
    pub(super) fn give_to(&self, uid: libc::uid_t) -> io::Result<()> {
        fs::set_permissions(self.path(), fs::Permissions::from_mode(0o711))?;
        for room in ["work", "tmp"] {
            let room = self.path().join(room);
            std::os::unix::fs::chown(&room, Some(uid), Some(uid))?;
            for entry in fs::read_dir(&room)? {
                std::os::unix::fs::chown(entry?.path(), Some(uid), Some(uid))?;
            }
            fs::set_permissions(&room, fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }
}

impl Drop for CaseFolder {
    fn drop(&mut self) {
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
