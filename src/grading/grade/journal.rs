//! The journal of a class's grading, so that a grading killed at any moment (SIGKILL,
//! a reboot) goes on where it stopped with the same command and `--resume`.
//!
//! A file of JSON lines: a header that says what is graded and how (the settings
//! that decide verdicts), then each student's grade once it is whole, synced to disk
//! before any report shows it. A line cut by the kill is dropped when the journal is
//! read again, so what is kept is always whole. One grading holds the journal at a
//! time (an exclusive `flock`).

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{StudentGrade, Submission};
use crate::eval::pattern::{fnv1a_on, FNV1A_START};
use crate::grading::batch::{Case, Verdict};
use crate::grading::shard::Shard;
use crate::printable::printable;

/// What decides a grading's verdicts, setting by setting (`--timeout` and its value,
/// the cases' digest...): a journal is resumed only by a grading with the same.
pub type Settings = BTreeMap<String, String>;

/// The entries of a submission folder's digest at most: past them, a change is not
/// seen (a folder of more files than a program has).
const DIGEST_ENTRIES: usize = 10_000;

/// Why a journal cannot be used.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Another grading (or tournament) of the same class holds the journal.
    #[error(
        "{path}: another {run} of this class is running (it holds this journal); wait for \
         it to end",
        run = .kind.run
    )]
    Busy {
        /// The journal.
        path: String,
        /// What the journal is of.
        kind: &'static Kind,
    },
    /// The journal is of a grading with other settings.
    #[error(
        "{path}: the earlier {run} of this class ran with another {setting} ({before}; now \
         {now}): resume it with the same options, or {again} without --resume",
        run = .kind.run,
        again = .kind.again
    )]
    Changed {
        /// The journal.
        path: String,
        /// What the journal is of.
        kind: &'static Kind,
        /// The setting that differs.
        setting: String,
        /// Its value then.
        before: String,
        /// Its value now.
        now: String,
    },
    /// `--resume` where there is no place for journals.
    #[error(
        "--resume: neither $XDG_STATE_HOME nor $HOME is set, so there is no journal of an \
         earlier grading to go on with"
    )]
    Nowhere,
    /// The journal cannot be read or written.
    #[error("{path}: the grading's journal: {source}")]
    Io {
        /// The journal.
        path: String,
        /// Why.
        source: io::Error,
    },
}

impl JournalError {
    /// Whether the user fixes it by changing the command or waiting (exit 2).
    pub fn is_usage(&self) -> bool {
        !matches!(self, JournalError::Io { .. })
    }
}

/// The journal's first line.
#[derive(Serialize, Deserialize)]
struct Header {
    /// What the file is.
    journal: String,
    /// The version of reversi that graded.
    version: String,
    /// The grading's settings.
    settings: Settings,
}

/// The entry lines a journal held (each without its newline).
pub type Lines = Vec<Vec<u8>>;

/// What a journal is of: what its header says, the folder of such journals, and how
/// its messages name the run (the same machinery keeps `grade`'s and `arena`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// What the header's `journal` says (`reversi grade --resume`).
    pub header: &'static str,
    /// The folder of such journals under `$XDG_STATE_HOME/reversi`.
    pub folder: &'static str,
    /// The run in words: `grading`, `tournament`.
    pub run: &'static str,
    /// What to do instead of resuming, in words.
    pub again: &'static str,
}

/// The journals of `reversi grade`.
pub const GRADE: Kind = Kind {
    header: "reversi grade --resume",
    folder: "grade",
    run: "grading",
    again: "grade every student again",
};

/// A student graded, one line.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// The student's name as it is (the grade shows it escaped).
    student: String,
    /// The digest of the submission's folder when it was graded.
    folder: String,
    /// The grade.
    grade: StudentGrade,
}

/// A class's journal, held (locked) while the grading runs.
pub struct Journal {
    file: File,
    path: PathBuf,
    kind: &'static Kind,
    /// Its folders (`reversi/grade`, and those above made for it), the deepest first:
    /// removed with it when empty.
    made: Vec<PathBuf>,
}

/// What a resumed journal keeps.
pub struct Resumed {
    /// Each submission's grade when the journal holds it whole, by the submissions'
    /// positions.
    pub grades: Vec<Option<StudentGrade>>,
    /// Whether there was an earlier grading to resume.
    pub found: bool,
    /// Students graded before whose folders have changed since (graded again).
    pub changed: usize,
}

/// Where the journal of a class lives: one file per submissions folder, cases folder
/// and shard, under `$XDG_STATE_HOME/reversi/grade` (else `~/.local/state`); none
/// when neither variable is set.
pub fn location(submissions: &Path, cases: &Path, shard: Option<Shard>) -> Option<PathBuf> {
    let cases = fs::canonicalize(cases).unwrap_or_else(|_| cases.to_path_buf());
    state_file(
        &GRADE,
        submissions,
        &[cases.as_os_str().as_encoded_bytes(), b"\0"],
        shard,
    )
}

/// Where the journal of `kind` of the class `folder` lives: one file per folder,
/// `key` (what else tells its runs apart) and shard, under
/// `$XDG_STATE_HOME/reversi/FOLDER` (else `~/.local/state`); none when neither
/// variable is set.
pub fn state_file(
    kind: &Kind,
    folder: &Path,
    key: &[&[u8]],
    shard: Option<Shard>,
) -> Option<PathBuf> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state"))
        })?;
    let folder = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mut digest = Digest::new();
    digest.write(folder.as_os_str().as_encoded_bytes());
    digest.write(b"\0");
    key.iter().for_each(|part| digest.write(part));
    digest.write(shard.map(|s| s.to_string()).unwrap_or_default().as_bytes());
    let name: String = folder
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(40)
        .collect();
    Some(state.join("reversi").join(kind.folder).join(format!(
        "{}-{:016x}.jsonl",
        name.trim_start_matches('.'),
        digest.0
    )))
}

/// The digest of the cases' files (input, expected output and options) and points,
/// for a grading's [`Settings`].
pub fn cases_digest(cases: &[Case], points: &[f64]) -> io::Result<String> {
    let mut digest = Digest::new();
    for (case, points) in cases.iter().zip(points) {
        digest.write(case.name.as_bytes());
        for file in [Some(&case.input), Some(&case.expected), case.args.as_ref()] {
            let bytes = file.map(fs::read).transpose()?.unwrap_or_default();
            digest.write(&(bytes.len() as u64).to_le_bytes());
            digest.write(&bytes);
        }
        digest.write(&points.to_le_bytes());
    }
    Ok(format!("{:016x}", digest.0))
}

impl Journal {
    /// Starts the journal at `path` afresh, for a grading with `settings`; with the
    /// number of students an earlier one held (a grading stopped and not resumed).
    pub fn start(path: &Path, settings: &Settings) -> Result<(Journal, usize), JournalError> {
        Journal::start_as(path, &GRADE, settings)
    }

    /// Starts the journal of `kind` at `path` afresh, for a run with `settings`; with
    /// the number of entries an earlier one held (a run stopped and not resumed).
    pub fn start_as(
        path: &Path,
        kind: &'static Kind,
        settings: &Settings,
    ) -> Result<(Journal, usize), JournalError> {
        let (mut journal, bytes) = Journal::open(path, kind)?;
        let held = whole_lines(&bytes).count().saturating_sub(1);
        journal.begin(settings)?;
        Ok((journal, held))
    }

    /// Opens the journal of `kind` at `path` to go on with the run it holds: each
    /// whole entry line it holds (without its newline), a line cut by a kill dropped
    /// from the file; `None` without an earlier run (the journal is started afresh).
    /// A journal of other settings is refused.
    pub fn reopen(
        path: &Path,
        kind: &'static Kind,
        settings: &Settings,
    ) -> Result<(Journal, Option<Lines>), JournalError> {
        let (mut journal, bytes) = Journal::open(path, kind)?;
        let mut lines = whole_lines(&bytes);
        let header = lines.next().and_then(|(line, end)| {
            let header = serde_json::from_slice::<Header>(line).ok()?;
            (header.journal == kind.header).then_some((header, end))
        });
        let Some((header, mut end)) = header else {
            journal.begin(settings)?;
            return Ok((journal, None));
        };
        journal.same(&header, settings)?;
        let mut entries = Vec::new();
        for (line, line_end) in lines {
            entries.push(line.to_vec());
            end = line_end;
        }
        // A line cut by a kill goes; the entries after it are appended.
        journal
            .file
            .set_len(end as u64)
            .and_then(|()| journal.file.seek(SeekFrom::End(0)).map(drop))
            .map_err(|e| journal.io(e))?;
        Ok((journal, Some(entries)))
    }

    /// Appends `entry` as one line, on disk when it returns.
    pub fn append(&mut self, entry: &impl Serialize) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(entry).expect("an entry serializes");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| self.io(e))
    }

    /// Opens the journal at `path` to go on with the grading it holds: the whole grade
    /// of each of `submissions` (graded on `cases`) it holds, unless its folder changed
    /// since. Without a journal (or an empty one) it starts afresh; a journal of other
    /// settings is refused.
    pub fn resume(
        path: &Path,
        settings: &Settings,
        submissions: &[Submission],
        cases: &[Case],
    ) -> Result<(Journal, Resumed), JournalError> {
        let (journal, lines) = Journal::reopen(path, &GRADE, settings)?;
        let Some(lines) = lines else {
            let grades = submissions.iter().map(|_| None).collect();
            let resumed = Resumed {
                grades,
                found: false,
                changed: 0,
            };
            return Ok((journal, resumed));
        };
        let mut kept: HashMap<String, Entry> = HashMap::new();
        // (a whole line that does not read, from another build, is passed over: that
        // student is graded again)
        for line in lines {
            if let Ok(entry) = serde_json::from_slice::<Entry>(&line) {
                kept.insert(entry.student.clone(), entry);
            }
        }
        let mut changed = 0;
        let grades = submissions
            .iter()
            .map(|submission| {
                let entry = kept.remove(&submission.name)?;
                if entry.folder != folder_digest(&submission.folder) {
                    changed += 1;
                    return None;
                }
                restored(entry.grade, submission, cases)
            })
            .collect();
        let resumed = Resumed {
            grades,
            found: true,
            changed,
        };
        Ok((journal, resumed))
    }

    /// Records the grade of `submission`, on disk when it returns. A grade that is not
    /// whole (interrupted, or cases left for the time budget) is not recorded: a
    /// resumed grading grades that student again.
    pub fn record(
        &mut self,
        submission: &Submission,
        grade: &StudentGrade,
    ) -> Result<(), JournalError> {
        if !is_whole(grade) {
            return Ok(());
        }
        self.append(&Entry {
            student: submission.name.clone(),
            folder: folder_digest(&submission.folder),
            grade: grade.clone(),
        })
    }

    /// Removes the journal of a run that ended whole (a grading that graded every
    /// student whole, a tournament that played every game), and the
    /// folders made for it that are empty now.
    pub fn finish(self) -> Result<(), JournalError> {
        fs::remove_file(&self.path).map_err(|e| self.io(e))?;
        for folder in &self.made {
            if fs::remove_dir(folder).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Opens (or creates, private to its user) the journal at `path`, locks it and
    /// reads what it holds.
    fn open(path: &Path, kind: &'static Kind) -> Result<(Journal, Vec<u8>), JournalError> {
        let io = |source| JournalError::Io {
            path: printable(&path.display().to_string()).into_owned(),
            source,
        };
        // (`reversi/grade` or `reversi/arena` are ours whoever made them; above them, only those made now)
        let made: Vec<PathBuf> = path
            .ancestors()
            .skip(1)
            .enumerate()
            .take_while(|(depth, folder)| {
                !folder.as_os_str().is_empty() && (*depth < 2 || !folder.exists())
            })
            .map(|(_, folder)| folder.to_path_buf())
            .collect();
        if let Some(folder) = path.parent() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(folder)
                .map_err(io)?;
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        // SAFETY: flock(2) on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let error = io::Error::last_os_error();
            return Err(if error.kind() == io::ErrorKind::WouldBlock {
                JournalError::Busy {
                    path: printable(&path.display().to_string()).into_owned(),
                    kind,
                }
            } else {
                io(error)
            });
        }
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
            kind,
            made,
        };
        let mut bytes = Vec::new();
        journal
            .file
            .read_to_end(&mut bytes)
            .map_err(|e| journal.io(e))?;
        Ok((journal, bytes))
    }

    /// Empties the journal and writes its header.
    fn begin(&mut self, settings: &Settings) -> Result<(), JournalError> {
        let header = Header {
            journal: self.kind.header.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            settings: settings.clone(),
        };
        let mut line = serde_json::to_vec(&header).expect("a header serializes");
        line.push(b'\n');
        self.file
            .set_len(0)
            .and_then(|()| self.file.seek(SeekFrom::Start(0)).map(drop))
            .and_then(|()| self.file.write_all(&line))
            .and_then(|()| self.file.sync_data())
            .map_err(|e| self.io(e))
    }

    /// Refuses a journal whose grading had other settings, naming the first.
    fn same(&self, header: &Header, settings: &Settings) -> Result<(), JournalError> {
        let version = env!("CARGO_PKG_VERSION");
        let mut differences = std::iter::once(("the reversi version", &*header.version, version))
            .chain(settings.iter().map(|(setting, now)| {
                let before = header.settings.get(setting).map_or("none", String::as_str);
                (setting.as_str(), before, now.as_str())
            }))
            .chain(header.settings.iter().filter_map(|(setting, before)| {
                (!settings.contains_key(setting)).then_some((setting.as_str(), &**before, "none"))
            }));
        match differences.find(|(_, before, now)| before != now) {
            None => Ok(()),
            Some((setting, before, now)) => Err(JournalError::Changed {
                path: self.shown_path(),
                kind: self.kind,
                setting: setting.into(),
                before: printable(before).into_owned(),
                now: printable(now).into_owned(),
            }),
        }
    }

    fn shown_path(&self) -> String {
        printable(&self.path.display().to_string()).into_owned()
    }

    fn io(&self, source: io::Error) -> JournalError {
        JournalError::Io {
            path: self.shown_path(),
            source,
        }
    }
}

/// The lines of `bytes` that end with `\n`, each without it and with the offset
/// after it.
fn whole_lines(bytes: &[u8]) -> impl Iterator<Item = (&[u8], usize)> {
    let mut start = 0;
    std::iter::from_fn(move || {
        let length = bytes[start..].iter().position(|&b| b == b'\n')?;
        let line = &bytes[start..start + length];
        start += length + 1;
        Some((line, start))
    })
}

/// Whether every case of `grade` was graded: none interrupted or left unrun (what
/// the journal keeps).
pub fn is_whole(grade: &StudentGrade) -> bool {
    !grade.interrupted
        && grade.cases.len() == grade.total
        && grade
            .cases
            .iter()
            .all(|c| !matches!(c.verdict, Verdict::NotRun | Verdict::Interrupted))
}

/// A recorded grade with the names it shows escaped given back as they are (the
/// student's, the cases'); none unless it is whole and of these very cases.
fn restored(
    mut grade: StudentGrade,
    submission: &Submission,
    cases: &[Case],
) -> Option<StudentGrade> {
    if grade.cases.len() != cases.len() || !is_whole(&grade) {
        return None;
    }
    let names: HashMap<String, &str> = cases
        .iter()
        .map(|case| (printable(&case.name).into_owned(), case.name.as_str()))
        .collect();
    for (result, case) in grade.cases.iter_mut().zip(cases) {
        if result.case != printable(&case.name) {
            return None;
        }
        result.case.clone_from(&case.name);
    }
    for group in &mut grade.mistakes {
        for name in &mut group.cases {
            *name = (*names.get(name.as_str())?).to_string();
        }
    }
    grade.student.clone_from(&submission.name);
    Some(grade)
}

/// The digest of what a submission's folder holds, by each entry's path, kind, size
/// and times (its first `DIGEST_ENTRIES` in name order): another when a file is
/// changed, added or removed.
pub fn folder_digest(folder: &Path) -> String {
    let mut digest = Digest::new();
    let entries = walkdir::WalkDir::new(folder)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .take(DIGEST_ENTRIES);
    for entry in entries {
        let Ok(entry) = entry else {
            digest.write(b"?");
            continue;
        };
        let path = entry.path().strip_prefix(folder).unwrap_or(entry.path());
        digest.write(path.as_os_str().as_encoded_bytes());
        digest.write(b"\0");
        if let Ok(meta) = entry.metadata() {
            for number in [
                u64::from(meta.mode()),
                meta.size(),
                meta.mtime() as u64,
                meta.mtime_nsec() as u64,
                meta.ctime() as u64,
                meta.ctime_nsec() as u64,
                meta.ino(),
            ] {
                digest.write(&number.to_le_bytes());
            }
        }
    }
    format!("{:016x}", digest.0)
}

/// FNV-1a, 64 bits, written piece by piece: a digest that stays the same from one
/// build to the next (the standard library's hasher promises no such thing). Not a
/// defence against a forger: what it tells apart is the TA's own files.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(FNV1A_START)
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv1a_on(self.0, bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_lines_leave_out_a_cut_last_line() {
        let lines: Vec<_> = whole_lines(b"a\nbc\nde").collect();
        assert_eq!(lines, vec![(&b"a"[..], 2), (&b"bc"[..], 5)]);
    }

    #[test]
    fn the_digest_is_fnv_1a() {
        let mut digest = Digest::new();
        digest.write(b"a");
        assert_eq!(digest.0, 0xaf63_dc4c_8601_ec8c);
    }
}
