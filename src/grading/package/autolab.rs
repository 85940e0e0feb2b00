//! Autolab's autograder: `autograde-Makefile` and `autograde.tar`. For each
//! submission Autolab copies both and the student's handin (renamed to the
//! assessment's handin name) into an empty folder, renames `autograde-Makefile` to
//! `Makefile` and runs `make` as the unprivileged user `autograde`; the last line
//! of the output is the autoresult. The Makefile unpacks `autograde/` (the binary,
//! the cases and `grade.sh`), and `grade.sh` unpacks the handin and grades it with
//! `--autolab`. Not being root, it can only use bubblewrap: where the image allows
//! no user namespaces, the autoresult gives 0 and the report says why.

use super::{grade_line, shell_quote, Files, PackageError, Recipe};

/// Where the binary goes in `autograde.tar`.
pub const BINARY: &str = "autograde/reversi";

/// Where the cases go in `autograde.tar`.
pub const CASES: &str = "autograde/cases";

/// The two files Autolab takes: `autograde-Makefile`, and `autograde.tar` holding
/// `files` (the binary and the cases) and `grade.sh`.
pub fn files(recipe: &Recipe, mut files: Files) -> Result<Files, PackageError> {
    files.push((
        "autograde/grade.sh".into(),
        grade_script(recipe).into_bytes(),
        0o755,
    ));
    Ok(vec![
        (
            "autograde-Makefile".into(),
            makefile(recipe).into_bytes(),
            0o644,
        ),
        ("autograde.tar".into(), tar(&files)?, 0o644),
    ])
}

fn makefile(recipe: &Recipe) -> String {
    // make reads `$` as its own: each is doubled.
    let handin = shell_quote(&recipe.handin).replace('$', "$$");
    format!(
        "# Autolab's autograde-Makefile (written by `reversi package autolab`): Autolab\n\
         # runs `make` with it as the Makefile, beside autograde.tar and the handin.\n\
         all:\n\
         \t@tar xf autograde.tar\n\
         \t@bash autograde/grade.sh {handin}\n"
    )
}

/// `grade.sh`: unpacks the handin into `submission/`, grades it, and makes sure the
/// last line is an autoresult. `REVERSI_SANDBOX` may choose the sandbox (tests).
fn grade_script(recipe: &Recipe) -> String {
    format!(
        r#"#!/usr/bin/env bash
# Autolab's grading (written by `reversi package autolab`), run by the Makefile as
# the user autograde. The output is the student's report, and its last line the
# autoresult Autolab reads.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
HANDIN=$1
SANDBOX=${{REVERSI_SANDBOX:-auto}}
BIN=$HERE/reversi
CASES=$HERE/cases
SUBMISSION=$PWD/submission
mkdir -p -- "$SUBMISSION"
chmod 700 -- "$HERE"
chmod 755 -- "$SUBMISSION"
if [ -f "$HANDIN" ]; then
  case "$HANDIN" in
    *.tar|*.tar.gz|*.tgz) tar xf "$HANDIN" -C "$SUBMISSION" --no-same-owner 2>&1 | tail -n 3 ;;
    *.zip) python3 -m zipfile -e "$HANDIN" "$SUBMISSION" 2>&1 | tail -n 3 ;;
    *) cp -- "$HANDIN" "$SUBMISSION/" ;;
  esac
fi
OUT=$(mktemp) && ERR=$(mktemp) || exit 1
trap 'rm -f "$OUT" "$ERR"' EXIT
{grade} > "$OUT" 2> "$ERR"
status=$?
cat -- "$ERR" "$OUT"
if ! tail -n 1 "$OUT" | grep -q '^{{"scores":'; then
  # The binary could not run (exit $status): no points, and why.
  echo "The autograder could not run (exit $status); tell the course staff."
  printf '{{"scores": {{%s: 0}}, "scoreboard": [0]}}\n' {problem}
fi
"#,
        grade = grade_line(
            recipe,
            &format!(
                "--autolab {}",
                shell_quote(&format!("--criterion={}", recipe.criterion))
            )
        ),
        problem = shell_quote(&format!("\"{}\"", recipe.criterion)),
    )
}

/// A ustar archive of `files` (POSIX.1-1988: a 512-byte header per file, its bytes
/// padded to 512, two empty blocks at the end), owned by root, dated 0.
fn tar(files: &Files) -> Result<Vec<u8>, PackageError> {
    let mut out = Vec::new();
    for (name, bytes, mode) in files {
        let mut header = [0u8; 512];
        let (prefix, base) = split_name(name)?;
        header[..base.len()].copy_from_slice(base.as_bytes());
        header[345..345 + prefix.len()].copy_from_slice(prefix.as_bytes());
        let octal = |field: &mut [u8], value: u64| {
            let text = format!("{value:0width$o}", width = field.len() - 1);
            field[..text.len()].copy_from_slice(text.as_bytes());
        };
        octal(&mut header[100..108], u64::from(*mode));
        octal(&mut header[108..116], 0);
        octal(&mut header[116..124], 0);
        octal(&mut header[124..136], bytes.len() as u64);
        octal(&mut header[136..148], 0);
        header[156] = b'0';
        header[257..263].copy_from_slice(b"ustar\0");
        header[263..265].copy_from_slice(b"00");
        header[148..156].fill(b' ');
        let sum: u32 = header.iter().map(|&b| u32::from(b)).sum();
        let text = format!("{sum:06o}\0 ");
        header[148..156].copy_from_slice(text.as_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(bytes);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    Ok(out)
}

/// A path as ustar's `prefix` (up to 155 bytes of folders) and `name` (up to 100).
fn split_name(path: &str) -> Result<(&str, &str), PackageError> {
    if path.len() <= 100 {
        return Ok(("", path));
    }
    path.char_indices()
        .filter(|&(at, c)| c == '/' && at <= 155 && path.len() - at - 1 <= 100)
        .map(|(at, _)| (&path[..at], &path[at + 1..]))
        .next()
        .ok_or_else(|| PackageError::TarPath { path: path.into() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_path_is_split_at_a_folder() {
        let long = format!("autograde/cases/{}/input.txt", "x".repeat(90));
        let (prefix, name) = super::split_name(&long).unwrap();
        assert_eq!(format!("{prefix}/{name}"), long);
        assert!(name.len() <= 100 && prefix.len() <= 155);
        assert!(super::split_name(&"y".repeat(300)).is_err());
    }
}
