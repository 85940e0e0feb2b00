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
    /// The command's program is on the grader's `PATH` but not on the programs'.
    #[error(
        "{name}: the programs' PATH ({programs_path}) has no such program; here it is \
         {found}: name it by its full path{show}"
    )]
    NotOnPath {
        /// The program as the command names it.
        name: String,
        /// Where the grader's own `PATH` finds it.
        found: String,
        /// The programs' `PATH`.
        programs_path: &'static str,
        /// How to show it to the program, if the sandbox hides it.
        show: String,
    },
    /// The command's program (an interpreter, a compiler) is outside what the
    /// sandbox shows.
    #[error(
        "{path}: the command runs this program, which the programs cannot see in the \
         sandbox; show it with --read-only {show}"
    )]
    ProgramNotShown {
        /// The program (its real path).
        path: String,
        /// The folder to show: its installation.
        show: String,
    },
    /// With a separate user as the sandbox, a program of the command (an interpreter,
    /// a compiler) or a file it names that that user cannot reach, whatever is shown:
    /// every case would crash.
    #[error(
        "{path}: the programs run as a separate user, which cannot reach this {what} \
         ({blocker} is mode {mode:o}), so every case would crash; let others through \
         (chmod o+x {blocker}) or install it where others may read it (such as \
         /usr/local or /opt) and show that copy with --read-only"
    )]
    Unreachable {
        /// The program or file.
        path: String,
        /// `program` or `file`.
        what: &'static str,
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

/// The words of `command` as the shell splits them (quotes removed), or its
/// whitespace-separated words when it is no simple command line (unbalanced quotes).
pub fn command_words(command: &str) -> Vec<String> {
    shlex::split(command).unwrap_or_else(|| {
        command
            .split_whitespace()
            .map(|word| word.trim_matches(|c| c == '"' || c == '\'').to_string())
            .collect()
    })
}

/// Refuses, before any case runs, a command naming an absolute path that does not
/// exist, a file that the program could not see in bubblewrap (not under `/usr`
/// and friends, nor shown with `--read-only`), or a file of the current folder by a
/// relative path (the program runs elsewhere): each case would crash the same way.
/// Its first word, the program it runs, must be one the sandbox shows and (as a
/// separate user) can reach ([`refuse_unseen_program`]). (Folders are let through: a
/// command may name one only as data.)
pub fn refuse_unseen_files(command: &str, sandbox: &Sandbox) -> Result<(), PolicyError> {
    let words = command_words(command);
    let program = words
        .iter()
        .find(|word| !word.contains('=') && *word != "exec")
        .filter(|word| !word.contains('{'));
    for word in &words {
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
                return Err(PolicyError::Unreachable {
                    path: path.display().to_string(),
                    what: if program == Some(word) {
                        "program"
                    } else {
                        "file"
                    },
                    blocker: blocker.display().to_string(),
                    mode,
                });
            }
        }
    }
    program.map_or(Ok(()), |program| refuse_unseen_program(program, sandbox))
}

/// The `PATH` of every run.
pub const PROGRAMS_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The executable file `name` on the search path `path`.
fn search(name: &str, path: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    path.split(':')
        .filter(|folder| !folder.is_empty())
        .map(|folder| Path::new(folder).join(name))
        .find(|file| {
            fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The folder to show for a program at `path`: its installation (the folder above
/// its `bin`), else its own folder.
fn installation(path: &Path) -> PathBuf {
    let folder = path.parent().unwrap_or(path);
    match folder.file_name() {
        Some(name) if name == "bin" => folder.parent().unwrap_or(folder).to_path_buf(),
        _ => folder.to_path_buf(),
    }
}

/// Refuses, before any case runs, a program (an interpreter or a compiler, named by
/// a command's first word) that the runs would not find: a bare name found on the
/// grader's `PATH` but not on the programs' ([`PROGRAMS_PATH`]), a file outside what
/// the sandbox shows (naming the `--read-only` to add), or, as a separate user, one
/// in a folder closed to others. A script's own interpreter (`#!`) is checked too.
/// A name found nowhere is let through: it may be a shell builtin.
pub fn refuse_unseen_program(name: &str, sandbox: &Sandbox) -> Result<(), PolicyError> {
    refuse_unseen_program_at(name, sandbox, 0)
}

fn refuse_unseen_program_at(name: &str, sandbox: &Sandbox, depth: u8) -> Result<(), PolicyError> {
    let path = if name.contains('/') {
        if !name.starts_with('/') {
            return Ok(());
        }
        PathBuf::from(name)
    } else {
        match search(name, PROGRAMS_PATH) {
            Some(path) => path,
            None => {
                let here = std::env::var("PATH").unwrap_or_default();
                return match search(name, &here) {
                    None => Ok(()),
                    Some(found) => {
                        let real = fs::canonicalize(&found).unwrap_or(found.clone());
                        let show = if sandbox.shows(&real) {
                            String::new()
                        } else {
                            format!(
                                " and show it with --read-only {}",
                                installation(&real).display()
                            )
                        };
                        let script = if shebang(&real).is_some() {
                            " (a wrapper script: name the program it starts)"
                        } else {
                            ""
                        };
                        Err(PolicyError::NotOnPath {
                            name: name.to_string(),
                            found: format!("{}{script}", found.display()),
                            programs_path: PROGRAMS_PATH,
                            show,
                        })
                    }
                };
            }
        }
    };
    let Ok(real) = fs::canonicalize(&path) else {
        return Err(PolicyError::NamedFileMissing {
            path: path.display().to_string(),
        });
    };
    if !real.is_file() {
        return Ok(());
    }
    if !sandbox.shows(&real) || !sandbox.shows(&path) {
        return Err(PolicyError::ProgramNotShown {
            path: path.display().to_string(),
            show: installation(&real).display().to_string(),
        });
    }
    if sandbox.isolation() == Isolation::SeparateUser {
        if let Some((blocker, mode)) = closed_to_others(&real) {
            return Err(PolicyError::Unreachable {
                path: path.display().to_string(),
                what: "program",
                blocker: blocker.display().to_string(),
                mode,
            });
        }
    }
    if depth == 0 {
        if let Some(interpreter) = shebang(&real) {
            return refuse_unseen_program_at(&interpreter, sandbox, 1);
        }
    }
    Ok(())
}

/// The program a script's `#!` line runs (the one `env` looks up, for `env NAME`).
fn shebang(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let read = fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..read].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if first.ends_with("/env") {
        words.find(|w| !w.starts_with('-')).map(str::to_string)
    } else {
        Some(first.to_string())
    }
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
        "chown -R 0:0 -- \"${cases}\" 2>/dev/null || true\n\
         chmod -R go-rwx -- \"${cases}\"\n\
         chmod -R go+rX -- \"${submission}\""
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
