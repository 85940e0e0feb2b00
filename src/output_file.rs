//! Writing an output file safely: whole or not at all, never a stray temporary, and
//! never larger than a limit.
//!
//! [`write_to`] serves every output path the command line takes: `-` is standard
//! output; a device or a pipe (`/dev/null`, a FIFO) is written to in place; anything
//! else is a file, which [`replace_file`] replaces only once complete.
//!
//! A file is replaced by writing its new content to a file with no name in the same
//! folder (`O_TMPFILE`, on Linux), flushing it to disk, and only then giving it a
//! name: a hidden temporary one, renamed over the destination at once. A process
//! killed while it writes (even by `SIGKILL`, or `SIGXFSZ` from a file size limit)
//! leaves nothing behind, since a file without a name disappears with its process.
//! Where a file system cannot create a file without a name (and on other systems),
//! the new content goes to a named hidden temporary, which `SIGTERM`, `SIGINT`,
//! `SIGHUP` and `SIGXFSZ` remove before ending the process; only `SIGKILL` can leave
//! it then.

use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The default largest output, in bytes: 4 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 4 << 30;

/// Why [`write_to`] failed.
#[derive(Debug, Error)]
pub enum WriteError {
    /// The output would have been larger than the limit. A replaced file is left as
    /// it was; standard output, a device or a pipe got the first `limit` bytes.
    #[error("the output would be larger than {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
        /// Whether the first `limit` bytes were written in place (a stream) rather
        /// than nothing (a file, left as it was).
        in_place: bool,
    },
    /// Opening, writing, flushing or renaming failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// What [`write_to`] hands the writing function.
pub enum Sink<'a> {
    /// Standard output, a device or a pipe: written in order, cannot seek.
    Stream(Limited<Box<dyn Write + Send>>),
    /// The new file, empty at position 0, that replaces the old one once complete.
    File(Limited<Reserving<'a>>),
}

impl Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stream(out) => out.write(buf),
            Sink::File(out) => out.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stream(out) => out.flush(),
            Sink::File(out) => out.flush(),
        }
    }
}

/// Whether a replaced file is flushed to disk before it gets its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// `fsync` the file before it is named and the folder after the rename: the
    /// output survives a power cut right after the program ends. Costs about as much
    /// again as writing a large log (`make bench`).
    Flushed,
    /// Leave the flush to the kernel (ext4 still writes a file renamed over another
    /// out at once). The file is whole or absent all the same; only a power cut can
    /// lose it.
    Cached,
}

/// Writes what `write` writes to standard output (`-`), to a device or pipe in place,
/// or to a new file that replaces the file `path` once complete (see
/// [`replace_file`]). Past `limit` bytes every write fails, and so does this, with
/// [`WriteError::TooLarge`].
pub fn write_to(
    path: &Path,
    limit: u64,
    durability: Durability,
    write: impl FnOnce(Sink<'_>) -> io::Result<()>,
) -> Result<(), WriteError> {
    let too_large = |error: io::Error, in_place: bool| {
        if error
            .get_ref()
            .is_some_and(|inner| inner.is::<LimitReached>())
        {
            WriteError::TooLarge { limit, in_place }
        } else {
            WriteError::Io(error)
        }
    };
    if path == Path::new("-") || is_special_file(path) {
        let out: Box<dyn Write + Send> = if path == Path::new("-") {
            Box::new(io::stdout())
        } else {
            Box::new(fs::OpenOptions::new().write(true).open(path)?)
        };
        return write(Sink::Stream(Limited::new(out, limit))).map_err(|e| too_large(e, true));
    }
    replace_file(path, durability, |file| {
        write(Sink::File(Limited::new(Reserving::new(file), limit)))?;
        release_reserved(file)
    })
    .map_err(|e| too_large(e, false))
}

/// Whether `path` exists and is neither a regular file nor a folder (after links): a
/// device or a pipe, which is written to rather than replaced.
pub fn is_special_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
}

/// Replaces the file `path` with what `write` writes, only once `write` has returned
/// and the new content is on disk, so that `path` is never partial and is left as it
/// was on any failure. A link is followed: the file it points to is replaced, the
/// link stays. The new file keeps the permissions of the file it replaces; a file
/// that did not exist gets `rw-r--r--`. With [`Durability::Flushed`], the file is
/// flushed to disk before its rename and the folder after. `write` gets an empty
/// file at position 0. A device or a pipe ([`is_special_file`]: `/dev/null`, a
/// FIFO) is written to in place instead: renaming over it would put a file in its
/// place (for root, even over `/dev/null`).
pub fn replace_file(
    path: &Path,
    durability: Durability,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    if is_special_file(path) {
        return write(&mut fs::OpenOptions::new().write(true).open(path)?);
    }
    let resolved = fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    #[cfg(target_os = "linux")]
    if let Some(mut file) = unnamed::create_in(folder)? {
        write(&mut file)?;
        finish(&file, path, durability)?;
        let temporary = Temporary::make_in(folder, |name| unnamed::link(&file, name))?;
        return temporary.rename_over(path, folder, durability);
    }
    replace_file_named(path, folder, durability, write)
}

/// [`replace_file`] through a named temporary in `folder`, removed on failure and by
/// the ending signals.
fn replace_file_named(
    path: &Path,
    folder: &Path,
    durability: Durability,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let mut file = None;
    let temporary = Temporary::make_in(folder, |name| {
        file = Some(File::options().write(true).create_new(true).open(name)?);
        Ok(())
    })?;
    let mut file = file.expect("the file was created with its name");
    write(&mut file)?;
    finish(&file, path, durability)?;
    temporary.rename_over(path, folder, durability)
}

/// Bytes of disk reserved at a time ahead of the writer by [`Reserving`].
const RESERVE_STEP: u64 = 8 << 20;

/// A new file that, on ext4, reserves its disk blocks a few MiB ahead of what is
/// written (`fallocate` without changing the size). ext4 then keeps no per-block
/// account of delayed allocation as the pages are written, and need not allocate
/// every block when the file is renamed over an old one (its `auto_da_alloc` rule):
/// writing a large log over an existing `output.txt` takes about a fifth less, and
/// into a new folder about 4% less when the writes are aligned (the log writer's
/// whole buffers; with writes that began and ended inside pages it gained nothing
/// there). Elsewhere it writes as any file: reserving was measured to cost
/// time on tmpfs (zeroed pages written twice) and on xfs. [`write_to`] gives back
/// what is reserved past the end once the writing function returns.
pub struct Reserving<'a> {
    file: &'a mut File,
    position: u64,
    /// The end of the reserved blocks.
    reserved: u64,
    /// Whether to reserve: when replacing a file on ext4, until a reservation fails.
    works: bool,
}

impl<'a> Reserving<'a> {
    /// Writes to `file`, at position 0, reserving ahead if it lies on ext4.
    pub fn new(file: &'a mut File) -> Self {
        let works = on_ext4(file);
        Reserving {
            file,
            position: 0,
            reserved: 0,
            works,
        }
    }

    /// Reserves blocks up to a step past `end`, if that is further than before.
    fn reserve_to(&mut self, end: u64) {
        if !self.works || end <= self.reserved {
            return;
        }
        let until = end + RESERVE_STEP;
        self.works = reserve(self.file, self.reserved, until - self.reserved);
        self.reserved = until;
    }
}

/// Whether `file` lies on ext4, where reserving ahead pays.
#[cfg(target_os = "linux")]
fn on_ext4(file: &File) -> bool {
    use std::os::unix::io::AsRawFd;
    let mut stats = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: fstatfs fills the struct it is given on success, which is checked before
    // the struct is read.
    unsafe {
        libc::fstatfs(file.as_raw_fd(), stats.as_mut_ptr()) == 0
            && stats.assume_init().f_type == libc::EXT4_SUPER_MAGIC
    }
}

#[cfg(not(target_os = "linux"))]
fn on_ext4(_: &File) -> bool {
    false
}

/// Reserves `len` bytes of disk for `file` from `offset`, keeping its size; false
/// where that is not supported (or fails: writing will say why, if it matters).
#[cfg(target_os = "linux")]
fn reserve(file: &File, offset: u64, len: u64) -> bool {
    use std::os::unix::io::AsRawFd;
    let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
        return false;
    };
    // SAFETY: fallocate on a file descriptor we own; no memory is passed.
    unsafe { libc::fallocate(file.as_raw_fd(), libc::FALLOC_FL_KEEP_SIZE, offset, len) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn reserve(_: &File, _: u64, _: u64) -> bool {
    false
}

/// Gives back the blocks reserved past the end of `file` (setting the size it already
/// has frees them).
fn release_reserved(file: &File) -> io::Result<()> {
    if cfg!(target_os = "linux") {
        file.set_len(file.metadata()?.len())?;
    }
    Ok(())
}

impl Write for Reserving<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.reserve_to(self.position + buf.len() as u64);
        let written = self.file.write(buf)?;
        self.position += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Seek for Reserving<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.position = self.file.seek(to)?;
        Ok(self.position)
    }
}

/// Gives the new `file` the permissions of `path`, or those of a new file, and
/// flushes it to disk if asked.
fn finish(file: &File, path: &Path, durability: Durability) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(existing) => file.set_permissions(existing.permissions())?,
        Err(_) => set_new_file_permissions(file)?,
    }
    match durability {
        Durability::Flushed => file.sync_all(),
        Durability::Cached => Ok(()),
    }
}

/// Gives `file` the usual permissions of a new file, `rw-r--r--` (a temporary file
/// is private, and the grader must read the output).
#[cfg(unix)]
fn set_new_file_permissions(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_new_file_permissions(_: &File) -> io::Result<()> {
    Ok(())
}

/// A hidden name beside the output, removed when dropped unless renamed, and by the
/// ending signals' handler until then.
struct Temporary {
    path: PathBuf,
    /// Whether the name is gone (renamed over the output).
    renamed: bool,
    _on_signal: on_signal::Registration,
}

impl Temporary {
    /// Calls `create` with fresh hidden names in `folder` until one does not exist
    /// yet, and keeps the name it created.
    fn make_in(folder: &Path, mut create: impl FnMut(&Path) -> io::Result<()>) -> io::Result<Self> {
        // (each name is registered before it is created, so that an ending signal
        // that comes as it is made removes it; a name found taken is let go at once)
        let mut registration = None;
        let (_, path) = tempfile::Builder::new()
            .prefix(".reversi-")
            .make_in(folder, |name| {
                let held = on_signal::remove(name);
                create(name)?;
                registration = Some(held);
                Ok(())
            })?
            .keep()
            .map_err(|e| e.error)?;
        Ok(Temporary {
            path,
            renamed: false,
            _on_signal: registration.expect("the name was created"),
        })
    }

    /// Renames the temporary over `path` and flushes `folder`, which holds both, to
    /// disk if asked.
    fn rename_over(mut self, path: &Path, folder: &Path, durability: Durability) -> io::Result<()> {
        fs::rename(&self.path, path)?;
        self.renamed = true;
        match durability {
            Durability::Flushed => sync_folder(folder),
            Durability::Cached => Ok(()),
        }
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Flushes the entries of `folder` (a rename) to disk.
#[cfg(unix)]
fn sync_folder(folder: &Path) -> io::Result<()> {
    File::open(folder)?.sync_all()
}

#[cfg(not(unix))]
fn sync_folder(_: &Path) -> io::Result<()> {
    Ok(())
}

/// Files without a name (`O_TMPFILE`), named once complete.
#[cfg(target_os = "linux")]
mod unnamed {
    use std::ffi::CString;
    use std::fs::File;
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    use std::path::Path;

    /// Where a process's open files have names that `linkat` can follow.
    const FD_FOLDER: &str = "/proc/self/fd";

    /// A new file without a name in `folder`, private (`rw-------`) and open for
    /// writing; `None` where the file system cannot make one, or it could not be
    /// named later (no `/proc`).
    pub(super) fn create_in(folder: &Path) -> io::Result<Option<File>> {
        if !Path::new(FD_FOLDER).is_dir() {
            return Ok(None);
        }
        let created = File::options()
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_TMPFILE)
            .open(folder);
        match created {
            Ok(file) => Ok(Some(file)),
            // Not supported by the file system (EOPNOTSUPP), or by the kernel (EISDIR
            // before Linux 3.11, EINVAL for an unknown flag).
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Gives the unnamed `file` the name `path`, which must not exist.
    pub(super) fn link(file: &File, path: &Path) -> io::Result<()> {
        let from = CString::new(format!("{FD_FOLDER}/{}", file.as_raw_fd()))?;
        let to = CString::new(path.as_os_str().as_bytes())?;
        // SAFETY: both paths are NUL-terminated strings that outlive the call.
        let status = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if status == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

/// Removing a named temporary when a signal ends the process.
///
/// The handler of `SIGTERM`, `SIGINT`, `SIGHUP` and `SIGXFSZ`, installed the first time
/// a temporary is named (and only for those signals whose action is still the default
/// one: an ignored signal stays ignored), removes the temporary registered then, if
/// any, and raises the signal again with its default action, which ends the process.
#[cfg(unix)]
mod on_signal {
    use std::ffi::CString;
    use std::os::raw::{c_char, c_int};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering::SeqCst};
    use std::sync::Once;

    const SIGNALS: [c_int; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGXFSZ];

    /// The temporary to remove (a `CString` given up by [`remove`]), or null.
    static PATH: AtomicPtr<c_char> = AtomicPtr::new(ptr::null_mut());

    /// Handlers that have begun: they end the process.
    static HANDLING: AtomicUsize = AtomicUsize::new(0);

    static INSTALL: Once = Once::new();

    /// Keeps a temporary registered for removal until dropped.
    pub(super) struct Registration {
        registered: bool,
    }

    /// Registers `path` to be removed if a signal ends the process before the
    /// registration is dropped. One temporary at a time is covered; another one meanwhile
    /// (only if two threads write outputs at once) is not.
    pub(super) fn remove(path: &Path) -> Registration {
        INSTALL.call_once(install);
        let Ok(path) = CString::new(path.as_os_str().as_bytes()) else {
            return Registration { registered: false };
        };
        let path = path.into_raw();
        let registered = PATH
            .compare_exchange(ptr::null_mut(), path, SeqCst, SeqCst)
            .is_ok();
        if !registered {
            // SAFETY: `path` came from `CString::into_raw` above and was not shared.
            drop(unsafe { CString::from_raw(path) });
        }
        Registration { registered }
    }

    impl Drop for Registration {
        fn drop(&mut self) {
            if !self.registered {
                return;
            }
            let path = PATH.swap(ptr::null_mut(), SeqCst);
            // A handler that read the path before the swap may still be using it; it
            // ends the process, so wait for that rather than free the path under it.
            while HANDLING.load(SeqCst) != 0 {
                std::hint::spin_loop();
            }
            // SAFETY: `path` came from `CString::into_raw` in `remove`, and no handler
            // can read it any more.
            drop(unsafe { CString::from_raw(path) });
        }
    }

    extern "C" fn on_signal(signal: c_int) {
        HANDLING.fetch_add(1, SeqCst);
        let path = PATH.load(SeqCst);
        // SAFETY: `unlink` and `raise` are async-signal-safe; `path` is null or a
        // NUL-terminated string that `Registration::drop` does not free while a
        // handler runs. SA_RESETHAND restored the default action, so the signal
        // raised again ends the process as soon as this handler returns.
        unsafe {
            if !path.is_null() {
                libc::unlink(path);
            }
            libc::raise(signal);
        }
    }

    fn install() {
        for signal in SIGNALS {
            // SAFETY: plain sigaction calls on zero-initialised structures; the handler
            // is an `extern "C" fn(c_int)`, as `sa_sigaction` expects without SA_SIGINFO.
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, ptr::null(), &mut current) != 0
                    || current.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESETHAND;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, ptr::null_mut());
            }
        }
    }
}

/// No signals to handle.
#[cfg(not(unix))]
mod on_signal {
    use std::path::Path;

    /// Nothing registered.
    pub(super) struct Registration;

    /// Nothing to register.
    pub(super) fn remove(_: &Path) -> Registration {
        Registration
    }
}

/// The error inside the [`io::Error`] of a write past a [`Limited`] writer's limit.
#[derive(Debug, Error)]
#[error("the output reached its limit of {limit} bytes")]
pub struct LimitReached {
    /// The limit, in bytes.
    pub limit: u64,
}

/// A writer that refuses to make its output larger than a limit: a write that would
/// end past it writes what fits, and the next one fails with [`LimitReached`]. Where
/// a write starts counts, not how much was written before: seeking back and writing
/// again does not grow the output.
pub struct Limited<W> {
    inner: W,
    limit: u64,
    position: u64,
}

impl<W> Limited<W> {
    /// Limits `inner`, which must be at position 0, to `limit` bytes.
    pub fn new(inner: W, limit: u64) -> Self {
        Limited {
            inner,
            limit,
            position: 0,
        }
    }
}

impl<W: Write> Write for Limited<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = self.limit.saturating_sub(self.position);
        if room == 0 && !buf.is_empty() {
            return Err(io::Error::other(LimitReached { limit: self.limit }));
        }
        let fits = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let written = self.inner.write(&buf[..fits])?;
        self.position += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Seek> Seek for Limited<W> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.position = self.inner.seek(to)?;
        Ok(self.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// The new file has no name while it is written, and the folder holds only the
    /// output afterwards.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_is_written_without_a_name_then_named() {
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("output.txt");
        replace_file(&target, Durability::Flushed, |file| {
            assert!(names_in(folder.path()).is_empty(), "no name while writing");
            file.write_all(b"new")
        })
        .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(names_in(folder.path()), ["output.txt"]);
        assert_eq!(mode(&target), 0o644);
    }

    /// Where a file cannot be made without a name: a hidden one while writing, gone
    /// afterwards, whether the write succeeds or fails.
    #[cfg(unix)]
    #[test]
    fn the_named_fallback_leaves_only_the_output() {
        use std::os::unix::fs::PermissionsExt;
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("output.txt");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let failed = replace_file_named(&target, folder.path(), Durability::Flushed, |file| {
            file.write_all(b"partial")?;
            Err(io::Error::other("disk full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "disk full");
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(names_in(folder.path()), ["output.txt"]);
        replace_file_named(&target, folder.path(), Durability::Flushed, |file| {
            let names = names_in(folder.path());
            assert_eq!(names.len(), 2, "{names:?}");
            assert!(names[0].starts_with(".reversi-"), "{names:?}");
            file.write_all(b"new")
        })
        .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(names_in(folder.path()), ["output.txt"]);
        assert_eq!(mode(&target), 0o640, "the old file's permissions");
    }

    /// Run by [`a_signal_removes_the_named_temporary`] in a child process: starts
    /// writing `output.txt` in the folder it is given through a named temporary, and
    /// never finishes.
    #[cfg(unix)]
    #[test]
    #[ignore = "a child process of a_signal_removes_the_named_temporary"]
    fn write_through_a_named_temporary_forever() {
        let Some(folder) = std::env::var_os("REVERSI_TEST_FOLDER") else {
            return;
        };
        let folder = PathBuf::from(folder);
        let _ = replace_file_named(
            &folder.join("output.txt"),
            &folder,
            Durability::Cached,
            |file| loop {
                file.write_all(b"more")?;
                std::thread::sleep(std::time::Duration::from_millis(5));
            },
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_signal_removes_the_named_temporary() {
        use std::os::unix::process::CommandExt;
        use std::os::unix::process::ExitStatusExt;
        use std::time::{Duration, Instant};
        const SIGNALS: [i32; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGXFSZ];
        for signal in SIGNALS {
            let folder = tempfile::tempdir().unwrap();
            fs::write(folder.path().join("output.txt"), b"old").unwrap();
            let mut command = std::process::Command::new(std::env::current_exe().unwrap());
            // A test run started by `cmd &` ignores SIGINT, one under `nohup` SIGHUP;
            // the child would inherit that and, leaving ignored signals ignored,
            // never end. SAFETY: only signal(2), async-signal-safe, before exec.
            unsafe {
                command.pre_exec(|| {
                    for signal in SIGNALS {
                        libc::signal(signal, libc::SIG_DFL);
                    }
                    Ok(())
                });
            }
            let mut child = command
                .args(["--ignored", "--exact", "--nocapture"])
                .arg("output_file::tests::write_through_a_named_temporary_forever")
                .env("REVERSI_TEST_FOLDER", folder.path())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let started = Instant::now();
            while names_in(folder.path()).len() < 2 {
                assert!(started.elapsed() < Duration::from_secs(30), "no temporary");
                std::thread::sleep(Duration::from_millis(5));
            }
            // SAFETY: a plain kill of our own child.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
            let status = child.wait().unwrap();
            assert_eq!(status.signal(), Some(signal), "{status}");
            assert_eq!(names_in(folder.path()), ["output.txt"], "signal {signal}");
            assert_eq!(fs::read(folder.path().join("output.txt")).unwrap(), b"old");
        }
    }

    #[test]
    fn a_limited_writer_stops_at_the_limit() {
        let mut out = Limited::new(Vec::new(), 5);
        let error = out.write_all(b"1234567").unwrap_err();
        assert!(error.get_ref().unwrap().is::<LimitReached>(), "{error}");
        assert_eq!(out.inner, b"12345");
        let mut exact = Limited::new(Vec::new(), 5);
        exact.write_all(b"12345").unwrap();
        assert!(exact.write_all(b"").is_ok());
        assert!(exact.write_all(b"6").is_err());
    }

    #[test]
    fn writing_again_over_the_start_does_not_count() {
        let mut out = Limited::new(io::Cursor::new(Vec::new()), 6);
        out.write_all(b"..abcd").unwrap();
        out.seek(SeekFrom::Start(0)).unwrap();
        out.write_all(b"XY").unwrap();
        out.seek(SeekFrom::End(0)).unwrap();
        assert!(out.write_all(b"e").is_err());
        assert_eq!(out.inner.into_inner(), b"XYabcd");
    }

    #[test]
    fn a_file_past_the_limit_is_left_as_it_was() {
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("output.txt");
        fs::write(&target, b"old").unwrap();
        let error = write_to(&target, 3, Durability::Flushed, |mut sink| {
            sink.write_all(b"four")
        })
        .unwrap_err();
        assert!(matches!(
            error,
            WriteError::TooLarge {
                limit: 3,
                in_place: false
            }
        ));
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(names_in(folder.path()), ["output.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_past_the_limit_gets_the_first_bytes() {
        let error = write_to(Path::new("/dev/null"), 3, Durability::Cached, |mut sink| {
            assert!(matches!(sink, Sink::Stream(_)));
            sink.write_all(b"four")
        })
        .unwrap_err();
        assert!(matches!(
            error,
            WriteError::TooLarge {
                limit: 3,
                in_place: true
            }
        ));
    }

    /// A pipe handed to `replace_file` (as a report's path may be) gets the bytes
    /// and stays a pipe, with nothing left beside it.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let folder = tempfile::tempdir().unwrap();
        let fifo = folder.path().join("pipe");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        replace_file(&fifo, Durability::Flushed, |file| file.write_all(b"report")).unwrap();
        // Checked before the reader is joined: a pipe renamed over never gets a writer.
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(names_in(folder.path()), ["pipe"]);
        assert_eq!(reader.join().unwrap(), b"report");
    }

    /// Disk bytes held by `file`.
    #[cfg(unix)]
    fn disk_bytes(file: &File) -> u64 {
        use std::os::unix::fs::MetadataExt;
        file.metadata().unwrap().blocks() * 512
    }

    #[cfg(unix)]
    #[test]
    fn blocks_reserved_ahead_are_given_back() {
        let folder = tempfile::tempdir().unwrap();
        let mut file = File::create(folder.path().join("new")).unwrap();
        let on_ext4 = on_ext4(&file);
        let chunk = vec![b'x'; 1 << 20];
        let mut reserving = Reserving::new(&mut file);
        for _ in 0..3 {
            reserving.write_all(&chunk).unwrap();
        }
        reserving.flush().unwrap();
        let size = 3 << 20;
        if on_ext4 {
            // The first write reserved a step past its end: more than is written.
            assert!(disk_bytes(&file) >= RESERVE_STEP);
        } else {
            eprintln!("the test folder is not on ext4: nothing to reserve");
        }
        release_reserved(&file).unwrap();
        assert_eq!(file.metadata().unwrap().len(), size);
        assert!(disk_bytes(&file) <= size + 4096);
    }

    /// Off ext4 (tmpfs here, where reserving writes zeroed pages twice) nothing is
    /// reserved ahead.
    #[cfg(target_os = "linux")]
    #[test]
    fn off_ext4_nothing_is_reserved_ahead() {
        let shm = Path::new("/dev/shm");
        let Ok(folder) = tempfile::tempdir_in(shm) else {
            eprintln!("no /dev/shm here: nothing to check");
            return;
        };
        let mut file = File::create(folder.path().join("new")).unwrap();
        if on_ext4(&file) {
            eprintln!("/dev/shm is on ext4 here: nothing to check");
            return;
        }
        let mut reserving = Reserving::new(&mut file);
        reserving.write_all(&[b'x'; 4096]).unwrap();
        assert!(disk_bytes(&file) < RESERVE_STEP);
    }
}
