//! What a run may see, and the refusals that keep the expected outputs from it: one
//! place for `batch`, `grade`, the arena (`umea match`) and the platforms' bundles.
//!
//! Each refusal is made before any program runs, so that a grading that could not be
//! fair (a program shown the cases, or one that could not reach its own files) ends
//! at once with what to change, instead of giving every student the same wrong
//! verdict. Under bubblewrap a program sees only the system folders and the paths
//! shown to it; as a separate user it sees what any other user may, so there the
//! cases must be private and the submissions open to others.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::{Isolation, Sandbox, FIRST_UID, UIDS};

/// A grading the policy refuses (bad arguments or files: exit 2).
#[derive(Debug, Error)]
pub enum PolicyError {
    /// A path shown to the programs holds the cases, or is inside their folder.
    #[error(
        "{path}: --read-only would show the cases' expected outputs to the programs; \
         show only the submission's own files"
    )]
    ShowsTheCases {
        /// The path shown.
        path: String,
    },
    /// The command names a file that does not exist.
    #[error("{path}: the command names this file, which does not exist")]
    NamedFileMissing {
        /// The path.
        path: String,
    },
    /// The command names a file the program cannot see in the sandbox.
    #[error(
        "{path}: the command names this file, which the program cannot see in the \
         sandbox; show it (or its folder) with --read-only"
    )]
    NotShown {
        /// The path.
        path: String,
    },
    /// The command names a file of the current folder by a relative path, which the
    /// program (run in a fresh work folder) cannot resolve.
    #[error(
        "{path}: the command names this file relative to the current folder, but each \
         program runs in a fresh work folder; name it by its full path ({absolute}){show}"
    )]
    RelativeFile {
        /// The path as written in the command.
        path: String,
        /// The same file's absolute path.
        absolute: String,
        /// How to show it to the program, if the sandbox hides it.
        show: String,
    },
    /// With a separate user as the sandbox, a file the command names (an interpreter,
    /// a program) that user cannot reach: every case would crash.
    #[error(
        "{path}: the programs run as a separate user, which cannot reach this file \
         ({blocker} is mode {mode:o}), so every case would crash; let others through \
         (chmod o+x {blocker}) or install it under /usr"
    )]
    UnreachableFile {
        /// The file the command names.
        path: String,
        /// The folder (or the file) that keeps others out.
        blocker: String,
        /// Its permission bits.
        mode: u32,
    },
    /// With a separate user as the sandbox, an expected output a run could read.
    #[error(
        "{path}: the programs run as a separate user and could read this expected \
         output; make the cases unreadable to others first (chmod -R o-rwx on their \
         folder)"
    )]
    CasesReadable {
        /// The expected output.
        path: String,
    },
    /// With a separate user as the sandbox, a submission's folder that user cannot
    /// enter: every case of the student would crash.
    #[error(
        "{path}: the programs run as a separate user, which cannot {what} ({blocker} is \
         mode {mode:o}), so every case would crash; let others through the folders \
         above the submissions and read them (chmod o+x {blocker}; chmod -R o+rX on the \
         submissions), or move the class to a folder others may enter"
    )]
    SubmissionHidden {
        /// The submission's folder.
        path: String,
        /// `enter its folder` or `read its folder`.
        what: &'static str,
        /// The folder that keeps others out.
        blocker: String,
        /// Its permission bits.
        mode: u32,
    },
}

/// Refuses to show the programs a path that holds the case folder `cases` or lies
/// inside it.
pub fn refuse_showing_cases(cases: &Path, shown: &[PathBuf]) -> Result<(), PolicyError> {
    let cases = fs::canonicalize(cases).unwrap_or_else(|_| cases.to_path_buf());
    for path in shown {
        let canonical = fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if cases.starts_with(&canonical) || canonical.starts_with(&cases) {
            return Err(PolicyError::ShowsTheCases {
                path: path.display().to_string(),
            });
        }
    }
    Ok(())
}

/// With a separate user as the sandbox, the programs see what other users may read:
/// refuses an expected output that a run could read.
pub fn refuse_readable_cases<'a>(
    sandbox: &Sandbox,
    expected: impl IntoIterator<Item = &'a Path>,
) -> Result<(), PolicyError> {
    if sandbox.isolation() != Isolation::SeparateUser {
        return Ok(());
    }
    match expected.into_iter().find(|path| readable_by_a_run(path)) {
        Some(path) => Err(PolicyError::CasesReadable {
            path: path.display().to_string(),
        }),
        None => Ok(()),
    }
}

/// With a separate user as the sandbox, refuses a submission's folder that user
/// cannot enter and list: a folder above it that lets no other user through, or the
/// folder itself closed to others.
pub fn refuse_hidden_submission(sandbox: &Sandbox, folder: &Path) -> Result<(), PolicyError> {
    if sandbox.isolation() != Isolation::SeparateUser {
        return Ok(());
    }
    let canonical = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mode = |p: &Path| fs::metadata(p).map_or(0, |m| m.mode() & 0o7777);
    let hidden = |blocker: &Path, what| PolicyError::SubmissionHidden {
        path: folder.display().to_string(),
        what,
        blocker: blocker.display().to_string(),
        mode: mode(blocker),
    };
    // From the root down: the first folder that keeps others out is the one to open.
    let mut above: Vec<&Path> = canonical.ancestors().skip(1).collect();
    above.reverse();
    if let Some(blocker) = above.into_iter().find(|p| mode(p) & 0o001 == 0) {
        return Err(hidden(blocker, "enter its folder"));
    }
    if mode(&canonical) & 0o005 != 0o005 {
        return Err(hidden(&canonical, "read its folder"));
    }
    Ok(())
}

/// What keeps other users from running the file `path`: the first folder above it
/// (from the root down) that lets no other user through, or the file itself when
/// others may neither read nor execute it; with its permission bits.
fn closed_to_others(path: &Path) -> Option<(PathBuf, u32)> {
    let canonical = fs::canonicalize(path).ok()?;
    let mode = |p: &Path| fs::metadata(p).map_or(0, |m| m.mode() & 0o7777);
    let mut above: Vec<&Path> = canonical.ancestors().skip(1).collect();
    above.reverse();
    if let Some(blocker) = above.into_iter().find(|p| mode(p) & 0o001 == 0) {
        return Some((blocker.to_path_buf(), mode(blocker)));
    }
    (mode(&canonical) & 0o005 == 0).then(|| (canonical.clone(), mode(&canonical)))
}

/// Whether some run as a separate user could read `path`: every folder above it and
/// the file itself open to it, through the bits for others, or those of an owner or
/// group that is one of the separate users (each runs with its own group and no
/// other). Errs towards "readable": a path that cannot be examined counts as
/// readable.
fn readable_by_a_run(path: &Path) -> bool {
    let Ok(path) = fs::canonicalize(path) else {
        return true;
    };
    let separate = |id: u32| (FIRST_UID..FIRST_UID + UIDS).contains(&id);
    // The permission bits (`r` 4, `x` 1) a separate user may have on `p`.
    let allowed = |p: &Path| {
        let Ok(meta) = fs::metadata(p) else {
            return 0o7;
        };
        let mode = meta.mode();
        let mut bits = mode & 0o7;
        if separate(meta.uid()) {
            bits |= (mode >> 6) & 0o7;
        }
        if separate(meta.gid()) {
            bits |= (mode >> 3) & 0o7;
        }
        bits
    };
    path.ancestors()
        .skip(1)
        .all(|folder| allowed(folder) & 0o1 != 0)
        && allowed(&path) & 0o4 != 0
}

/// Refuses, before any case runs, a command naming an absolute path that does not
/// exist, a file that the program could not see in bubblewrap (not under `/usr`
/// and friends, nor shown with `--read-only`), or a file of the current folder by a
/// relative path (the program runs elsewhere): each case would crash the same way.
/// (Folders are let through: a command may name one only as data.)
pub fn refuse_unseen_files(command: &str, sandbox: &Sandbox) -> Result<(), PolicyError> {
    let words = command
        .split_whitespace()
        .map(|word| word.trim_matches(|c| c == '"' || c == '\''));
    for word in words {
        let path = Path::new(word);
        if !word.starts_with('/') {
            if !word.starts_with('-') && path.is_file() {
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                let show = if sandbox.shows(&absolute) {
                    String::new()
                } else {
                    format!(" and show it with --read-only {}", absolute.display())
                };
                return Err(PolicyError::RelativeFile {
                    path: word.to_string(),
                    absolute: absolute.display().to_string(),
                    show,
                });
            }
            continue;
        }
        if !path.exists() {
            return Err(PolicyError::NamedFileMissing {
                path: path.display().to_string(),
            });
        }
        if !sandbox.shows(path) && path.is_file() {
            return Err(PolicyError::NotShown {
                path: path.display().to_string(),
            });
        }
        if sandbox.isolation() == Isolation::SeparateUser && path.is_file() {
            if let Some((blocker, mode)) = closed_to_others(path) {
                return Err(PolicyError::UnreachableFile {
                    path: path.display().to_string(),
                    blocker: blocker.display().to_string(),
                    mode,
                });
            }
        }
    }
    Ok(())
}

/// The shell lines a platform bundle's script runs, as root, before grading: the
/// folder in the variable `cases` (and everything of the grader beside it) made
/// private, owned by root and closed to group and others, so that a separate user
/// cannot read an expected output; the folder in `submission` opened to every
/// user for reading, so that the separate user can run the student's files. Without
/// root the `chown` fails quietly: then only bubblewrap can grade, and it shows the
/// cases to no one anyway.
pub fn bundle_lines(cases: &str, submission: &str) -> String {
    format!(
        "chown -R 0:0 \"${cases}\" 2>/dev/null || true\n\
         chmod -R go-rwx \"${cases}\"\n\
         chmod -R go+rX \"${submission}\""
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn set_mode(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_file_is_readable_by_a_run_through_others_or_a_separate_owner() {
        let dir = tempfile::tempdir().unwrap();
        set_mode(dir.path(), 0o711);
        let file = dir.path().join("output.txt");
        fs::write(&file, "x").unwrap();
        set_mode(&file, 0o644);
        assert!(readable_by_a_run(&file));
        set_mode(&file, 0o600);
        assert!(!readable_by_a_run(&file));
        // Owned by a separate user, its owner bits are a run's (chown needs root).
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return;
        }
        std::os::unix::fs::chown(&file, Some(FIRST_UID + 3), None).unwrap();
        assert!(readable_by_a_run(&file));
        std::os::unix::fs::chown(&file, Some(0), None).unwrap();
        set_mode(&file, 0o644);
        set_mode(dir.path(), 0o700);
        assert!(!readable_by_a_run(&file));
        assert!(readable_by_a_run(&dir.path().join("none")));
    }

    #[test]
    fn shown_paths_over_or_under_the_cases_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let cases = dir.path().join("cases");
        fs::create_dir_all(cases.join("case1")).unwrap();
        for shown in [dir.path().to_path_buf(), cases.clone(), cases.join("case1")] {
            assert!(matches!(
                refuse_showing_cases(&cases, &[shown]),
                Err(PolicyError::ShowsTheCases { .. })
            ));
        }
        assert!(refuse_showing_cases(&cases, &[PathBuf::from("/usr/bin")]).is_ok());
    }
}
