//! Gradescope's autograder for a gauntlet (`reversi package gradescope --arena`):
//! `autograder.zip` with this binary, `setup.sh` (the one of `package`'s Gradescope
//! bundle) and a `run_autograder` that makes the submission a class of one agent,
//! plays it against the references with `reversi arena` in the sandbox, and writes
//! `results.json` (with its leaderboard), also when the referee itself fails.

use std::fs;
use std::path::Path;

use crate::grading::package::{
    gradescope_ending, gradescope_setup, shell_quote, write_zip, PackageError, Recipe,
};
use crate::sandbox::policy::bundle_lines;

/// `run_autograder` for `flags` (the arena's flags, each one word). `AUTOGRADER`
/// may move the layout and `REVERSI_SANDBOX` choose the sandbox (for tests).
fn run_autograder(flags: &[String], openings: bool) -> String {
    let mut flags: Vec<String> = flags.iter().map(|f| shell_quote(f)).collect();
    if openings {
        flags.push("--openings=\"$SOURCE/openings.txt\"".into());
    }
    format!(
        r#"#!/usr/bin/env bash
# Gradescope runs this for every submission (written by `reversi package gradescope
# --arena`): the submission, a class of one agent, plays the references in the
# sandbox (bubblewrap where the container allows it, else a separate unprivileged
# user); the referee's folder is made root's and closed to others, the agent's copy
# open to them.
set -u
ROOT=${{AUTOGRADER:-/autograder}}
SANDBOX=${{REVERSI_SANDBOX:-auto}}
SOURCE=$ROOT/source
BIN=$SOURCE/reversi
RESULTS=$ROOT/results/results.json
CLASS=$ROOT/arena-class
SUBMISSION=$CLASS/submission
mkdir -p -- "$ROOT/results"
chmod 711 -- "$ROOT"
rm -rf -- "$CLASS"
mkdir -p -- "$CLASS"
chmod 755 -- "$CLASS"
cp -R -- "$ROOT/submission" "$SUBMISSION"
{lines}
chmod -R go-rwx -- "$ROOT/results"
"$BIN" arena {flags} --sandbox="$SANDBOX" --gradescope="$RESULTS" -- "$CLASS" > "$ROOT/results/arena.log" 2>&1
{ending}"#,
        lines = bundle_lines("SOURCE", "SUBMISSION"),
        flags = flags.join(" "),
        ending = gradescope_ending("arena.log")
    )
}

/// Writes the gauntlet's `autograder.zip` to `out` (new): `binary`, `setup.sh`
/// installing bubblewrap and `packages`, `run_autograder` playing under `flags`, and
/// the file of `openings` when the TA gave one (played as `--openings`).
pub fn write(
    flags: &[String],
    openings: Option<&Path>,
    packages: &[String],
    binary: &Path,
    out: &Path,
) -> Result<(), PackageError> {
    if out.exists() {
        return Err(PackageError::Exists {
            path: out.display().to_string(),
        });
    }
    let recipe = Recipe {
        command: None,
        flags: Vec::new(),
        criterion: String::new(),
        timeout: 0.0,
        compare: String::new(),
        packages: packages.to_vec(),
        budget: 0.0,
        max_score: 0.0,
        image: String::new(),
        student_files: Vec::new(),
        handin: String::new(),
    };
    let mut files = vec![
        ("reversi".to_string(), fs::read(binary)?, 0o755),
        (
            "setup.sh".to_string(),
            gradescope_setup(&recipe).into_bytes(),
            0o755,
        ),
        (
            "run_autograder".to_string(),
            run_autograder(flags, openings.is_some()).into_bytes(),
            0o755,
        ),
    ];
    if let Some(path) = openings {
        files.push(("openings.txt".to_string(), fs::read(path)?, 0o644));
    }
    write_zip(out, &files)
}
