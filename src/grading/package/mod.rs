//! `package`: a ready-to-upload autograder for a platform, from a folder of cases and
//! the command that runs a student's program. The bundle holds this very binary, the
//! cases, and the platform's scripts, which run `reversi grade --single` on the
//! platform's submission folder with the sandbox `auto` (bubblewrap where the
//! platform's container allows it, else a separate user; `$REVERSI_SANDBOX` may name
//! one). Before grading, each script makes the cases private and the submission
//! readable to others as the sandbox's policy has it
//! ([`crate::sandbox::policy::bundle_lines`]), so that a separate user can grade.
//!
//! Gradescope: `autograder.zip` with `setup.sh` (checks that the binary runs on the
//! image, then installs bubblewrap) and `run_autograder` (writes
//! `/autograder/results/results.json`, also when grading itself fails). Vocareum: a
//! folder with `grade.sh` (reads the student's files from its current folder, writes
//! `$vocareumGradeFile` and `$vocareumReportFile`) to upload to the assignment's
//! library (`$ASNLIB`); it makes the library root's and private, then grades copies,
//! the binary and the cases in a fresh private folder and the student's files in a
//! fresh one others may enter, since the platform's own folders may allow neither.
//!
//! PrairieLearn (`prairielearn.rs`): a course folder with the question (`info.json`
//! naming the entrypoint, the cases in its `tests/`) and `serverFilesCourse/reversi/`
//! (the binary and the entrypoint). GitHub Classroom (`github_classroom.rs`): the
//! template repository's `.github/` (the workflow, the binary, the cases and the
//! grader step's script). Autolab (`autolab.rs`): `autograde-Makefile` and
//! `autograde.tar`.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;
use walkdir::WalkDir;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use crate::grading::platform::vocareum;
use crate::sandbox::policy::bundle_lines;

mod autolab;
mod github_classroom;
mod prairielearn;

/// The platforms a bundle is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// Gradescope's autograder (a zip with `setup.sh` and `run_autograder`).
    Gradescope,
    /// Vocareum's custom grading script (`grade.sh` and its files).
    Vocareum,
    /// A PrairieLearn question graded externally, and its course files.
    PrairieLearn,
    /// GitHub Classroom's autograding workflow and its grader step.
    GithubClassroom,
    /// Autolab's `autograde-Makefile` and `autograde.tar`.
    Autolab,
}

/// What the bundle's grading runs.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// The student's program, with `{submission}`; none: by its language.
    pub command: Option<String>,
    /// More flags of `grade` (read-only paths, limits, languages), each one word in
    /// `--flag=value` form, so that no value is read as an option.
    pub flags: Vec<String>,
    /// The Vocareum rubric criterion that gets the score.
    pub criterion: String,
    /// CPU time of each run (`grade --timeout`), in seconds.
    pub timeout: f64,
    /// `--compare` of `grade`: `strict` or `lenient`.
    pub compare: String,
    /// Debian packages `setup.sh` installs besides bubblewrap (the students'
    /// language: `python3`, `openjdk-17-jdk`, ...).
    pub packages: Vec<String>,
    /// The time the grading of a submission may take (`grade --budget`), in seconds.
    pub budget: f64,
    /// The points of all the cases (what a grading that failed is out of).
    pub max_score: f64,
    /// PrairieLearn: the grading image.
    pub image: String,
    /// PrairieLearn: the files the student uploads.
    pub student_files: Vec<String>,
    /// Autolab: the name the student's handin gets (the assessment's handin file).
    pub handin: String,
}

/// Why a bundle cannot be written.
#[derive(Debug, Error)]
pub enum PackageError {
    /// The output exists.
    #[error("{path}: already exists; choose a new path (nothing was written)")]
    Exists {
        /// The path.
        path: String,
    },
    /// Reading or writing failed.
    #[error("cannot write the bundle: {0}")]
    Io(#[from] io::Error),
    /// The zip could not be written.
    #[error("cannot write the zip: {0}")]
    Zip(#[from] zip::result::ZipError),
    /// A path too long for a tar header (ustar: 100 bytes, or 155 of folders and 100).
    #[error("{path}: too long a path for autograde.tar (rename the case)")]
    TarPath {
        /// The path.
        path: String,
    },
}

/// Quotes `text` for a POSIX shell.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The `grade` command line the bundle runs, with `$SUBMISSION`, `$CASES` and
/// `$BIN` left to the script. Every value is in `--flag=value` form and the
/// submission comes after `--`: a value from the platform or the student (a name
/// starting with `-`) is never read as an option.
pub(crate) fn grade_line(recipe: &Recipe, report: &str) -> String {
    let mut flags: Vec<String> = Vec::new();
    if let Some(command) = &recipe.command {
        flags.push(shell_quote(&format!("--run={command}")));
    }
    flags.extend(recipe.flags.iter().map(|flag| shell_quote(flag)));
    format!(
        "\"$BIN\" grade --single --cases=\"$CASES\" {} --timeout={} \
         --compare={} --sandbox=\"$SANDBOX\" {report} -- \"$SUBMISSION\"",
        flags.join(" "),
        recipe.timeout,
        shell_quote(&recipe.compare)
    )
}

/// Gradescope's `setup.sh`.
pub(crate) fn gradescope_setup(recipe: &Recipe) -> String {
    let mut packages = vec!["bubblewrap".to_string()];
    packages.extend(recipe.packages.iter().map(|p| shell_quote(p)));
    format!(
        r#"#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (written by
# `reversi package gradescope`). First whether the bundled binary runs on the image.
set -euo pipefail
cd "$(dirname "$0")"
chmod 755 reversi run_autograder
./reversi --version >/dev/null || {{
  echo "the bundled reversi binary does not run on this image: one built on Debian 12" >&2
  echo "needs glibc 2.34 or newer (Ubuntu 22.04 or later); or bundle a static one" >&2
  echo "(make static; reversi package --binary target/x86_64-unknown-linux-gnu/release/reversi)" >&2
  exit 1
}}
apt-get update
apt-get install -y --no-install-recommends {}
"#,
        packages.join(" ")
    )
}

/// Gradescope's `run_autograder`. `AUTOGRADER` may move the layout, and
/// `REVERSI_SANDBOX` choose the sandbox (for tests).
fn gradescope_run(recipe: &Recipe) -> String {
    format!(
        r#"#!/usr/bin/env bash
# Gradescope runs this for every submission (written by `reversi package gradescope`).
# The student's program runs in the sandbox: bubblewrap where the container allows it,
# else a separate unprivileged user, which must not read the cases: the source folder
# (this binary and the cases) is made root's and closed to others, the submission
# open to them.
set -u
ROOT=${{AUTOGRADER:-/autograder}}
SANDBOX=${{REVERSI_SANDBOX:-auto}}
SOURCE=$ROOT/source
BIN=$SOURCE/reversi
CASES=$SOURCE/cases
SUBMISSION=$ROOT/submission
RESULTS=$ROOT/results/results.json
mkdir -p -- "$ROOT/results"
chmod 711 -- "$ROOT"
{}
chmod -R go-rwx -- "$ROOT/results"
# The student's name, from Gradescope's submission metadata.
NAME=$(python3 -c 'import json, sys
users = json.load(open(sys.argv[1])).get("users") or []
print(", ".join(u.get("name") or u.get("email") or "" for u in users))' \
  "$ROOT/submission_metadata.json" 2>/dev/null)
[ -n "$NAME" ] || NAME=submission
{} > "$ROOT/results/grade.log" 2>&1
{}"#,
        bundle_lines("SOURCE", "SUBMISSION"),
        grade_line(recipe, "--name=\"$NAME\" --gradescope=\"$RESULTS\""),
        gradescope_ending("grade.log")
    )
}

/// The end of a Gradescope `run_autograder` after the grading wrote its log to
/// `$ROOT/results/LOG`: the log printed, and when `$RESULTS` was not written (the
/// grading itself failed), a `results.json` of score 0 with the log's end.
pub(crate) fn gradescope_ending(log: &str) -> String {
    format!(
        r#"status=$?
cat -- "$ROOT/results/{log}"
if [ ! -s "$RESULTS" ]; then
  # Grading itself failed (exit $status): tell the student, score 0.
  python3 - "$RESULTS" "$ROOT/results/{log}" <<'PY' || printf '{{"score": 0, "output": "The autograder failed; see its log."}}' > "$RESULTS"
import json, sys
log = open(sys.argv[2], errors="replace").read()[-4000:]
json.dump({{"score": 0, "output": "The autograder could not grade this submission:\n" + log}},
          open(sys.argv[1], "w"))
PY
fi
exit 0
"#
    )
}

/// Vocareum's `grade.sh`. `REVERSI_SANDBOX` may choose the sandbox (for tests).
fn vocareum_grade(recipe: &Recipe) -> String {
    format!(
        r#"#!/usr/bin/env bash
# Vocareum's custom grading script (written by `reversi package vocareum`): upload
# this folder to the assignment's library ($ASNLIB) and choose grade.sh as the
# grading script. It runs in the student's work folder and writes
# $vocareumGradeFile and $vocareumReportFile.
# The student's program runs in the sandbox: bubblewrap where the container allows it,
# else a separate unprivileged user, which must not read the cases but must read the
# student's files. Neither the library nor the work folder may allow that, so this
# grades copies: the binary and the cases in a fresh folder of root's closed to
# others, the student's files in a fresh folder open to them.
set -u
LIB=${{ASNLIB:-$(cd "$(dirname "$0")" && pwd)}}
SANDBOX=${{REVERSI_SANDBOX:-auto}}
CRITERION={criterion}
# Grading failed: the student gets 0 and the reason, and Vocareum a failed script.
fail() {{
  echo "The autograder could not grade this submission ($1)." >> "$vocareumReportFile"
  [ -s "$vocareumGradeFile" ] || printf '%s,0\n' {field} >> "$vocareumGradeFile"
  exit "$2"
}}
# The library as uploaded is readable by all: made root's and closed to others
# before any student's program runs (a separate user must not read the cases).
chown -R 0:0 -- "$LIB" 2>/dev/null || true
chmod -R go-rwx -- "$LIB" || fail "cannot make the library private" 1
PRIVATE=$(mktemp -d) && SHOWN=$(mktemp -d) || fail "no temporary folder" 1
trap 'rm -rf "$PRIVATE" "$SHOWN"' EXIT
chmod 711 -- "$SHOWN"
cp -- "$LIB/reversi" "$PRIVATE/reversi"
cp -R -- "$LIB/cases" "$PRIVATE/cases"
cp -R . "$SHOWN/submission"
BIN=$PRIVATE/reversi
CASES=$PRIVATE/cases
SUBMISSION=$SHOWN/submission
{lines}
{grade}
status=$?
[ "$status" -eq 0 ] || fail "exit $status" "$status"
exit 0
"#,
        criterion = shell_quote(&recipe.criterion),
        field = shell_quote(&vocareum::field(&recipe.criterion)),
        lines = bundle_lines("PRIVATE", "SUBMISSION"),
        grade = grade_line(recipe, "--vocareum --criterion=\"$CRITERION\"")
    )
}

/// Writes the bundle for `platform` to `out` (Gradescope: a zip file; Vocareum: a
/// new folder), holding `binary`, the cases of `cases` and the scripts.
pub fn write_bundle(
    platform: Platform,
    recipe: &Recipe,
    cases: &Path,
    binary: &Path,
    out: &Path,
) -> Result<(), PackageError> {
    if out.exists() {
        return Err(PackageError::Exists {
            path: out.display().to_string(),
        });
    }
    let (binary_at, cases_at) = match platform {
        Platform::Gradescope | Platform::Vocareum => ("reversi", "cases"),
        Platform::PrairieLearn => (prairielearn::BINARY, prairielearn::CASES),
        Platform::GithubClassroom => (github_classroom::BINARY, github_classroom::CASES),
        Platform::Autolab => (autolab::BINARY, autolab::CASES),
    };
    let mut files: Files = vec![(binary_at.into(), fs::read(binary)?, 0o755)];
    for entry in WalkDir::new(cases).sort_by_file_name() {
        let entry = entry.map_err(io::Error::from)?;
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(cases).unwrap_or(entry.path());
            let name = format!(
                "{cases_at}/{}",
                relative.to_string_lossy().replace('\\', "/")
            );
            files.push((name, fs::read(entry.path())?, 0o644));
        }
    }
    match platform {
        Platform::PrairieLearn => {
            files.extend(prairielearn::files(recipe));
            write_folder(out, &files)
        }
        Platform::GithubClassroom => {
            files.extend(github_classroom::files(recipe));
            write_folder(out, &files)
        }
        Platform::Autolab => write_folder(out, &autolab::files(recipe, files)?),
        Platform::Gradescope => {
            files.push((
                "setup.sh".into(),
                gradescope_setup(recipe).into_bytes(),
                0o755,
            ));
            files.push((
                "run_autograder".into(),
                gradescope_run(recipe).into_bytes(),
                0o755,
            ));
            write_zip(out, &files)
        }
        Platform::Vocareum => {
            files.push((
                "grade.sh".into(),
                vocareum_grade(recipe).into_bytes(),
                0o755,
            ));
            write_folder(out, &files)
        }
    }
}

/// A bundle's files: each path in the bundle, its bytes and its mode.
type Files = Vec<(String, Vec<u8>, u32)>;

/// The zip of `files`, written whole to a temporary beside `out`, then renamed.
pub(crate) fn write_zip(out: &Path, files: &Files) -> Result<(), PackageError> {
    let folder = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temporary = tempfile::NamedTempFile::new_in(folder)?;
    let mut zip = ZipWriter::new(temporary.reopen()?);
    for (name, bytes, mode) in files {
        let options = SimpleFileOptions::default().unix_permissions(*mode);
        zip.start_file(name.as_str(), options)?;
        zip.write_all(bytes)?;
    }
    zip.finish()?;
    temporary.persist_noclobber(out).map_err(|e| e.error)?;
    Ok(())
}

/// `files` under the new folder `out`, built beside it and renamed when complete.
fn write_folder(out: &Path, files: &Files) -> Result<(), PackageError> {
    use std::os::unix::fs::PermissionsExt;
    let parent = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temporary = tempfile::Builder::new()
        .prefix(".reversi-bundle-")
        .tempdir_in(parent)?;
    for (name, bytes, mode) in files {
        let path = temporary.path().join(name);
        if let Some(folder) = path.parent() {
            fs::create_dir_all(folder)?;
        }
        let mut file = File::create(&path)?;
        file.write_all(bytes)?;
        file.set_permissions(fs::Permissions::from_mode(*mode))?;
    }
    fs::set_permissions(temporary.path(), fs::Permissions::from_mode(0o755))?;
    fs::rename(temporary.keep(), out)?;
    Ok(())
}
