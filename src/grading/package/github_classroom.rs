//! GitHub Classroom's autograding: the `.github/` folder of the assignment's
//! template repository. `workflows/classroom.yml` is the workflow GitHub Classroom
//! reads (job `run-autograding-tests`): a grader step (`id: reversi`) runs
//! `classroom/grade.sh`, which grades the repository's files and writes the step
//! output `result`; the reporter step
//! (`classroom-resources/autograding-grading-reporter@v1`) reads it as
//! `REVERSI_RESULTS` (`runners: reversi`) and reports "Points X/Y" to GitHub
//! Classroom. The cases live in the student's repository: GitHub Classroom has no
//! hidden tests.

use super::{bundle_lines, grade_line, shell_quote, Files, Recipe};
use crate::grading::platform::points;

/// Where the binary goes in the bundle.
pub const BINARY: &str = ".github/classroom/reversi";

/// Where the cases go in the bundle.
pub const CASES: &str = ".github/classroom/cases";

/// The grader step's id: the reporter's `runners` must match `[a-zA-Z0-9]+`.
const STEP: &str = "reversi";

/// The workflow and the grader step's script.
pub fn files(recipe: &Recipe) -> Files {
    vec![
        (
            ".github/workflows/classroom.yml".into(),
            workflow(recipe).into_bytes(),
            0o644,
        ),
        (
            ".github/classroom/grade.sh".into(),
            grade_script(recipe).into_bytes(),
            0o755,
        ),
    ]
}

/// The step's `timeout-minutes`: the budget and a tenth more, in whole minutes.
fn minutes(recipe: &Recipe) -> u64 {
    ((recipe.budget * 10.0 / 9.0) / 60.0).ceil().max(1.0) as u64
}

fn workflow(recipe: &Recipe) -> String {
    let mut packages = vec!["bubblewrap".to_string()];
    packages.extend(recipe.packages.iter().map(|p| shell_quote(p)));
    let upper = STEP.to_uppercase();
    format!(
        r#"# GitHub Classroom's autograding workflow (written by `reversi package
# github-classroom`). The grader step writes its own result: a score per case.
name: Autograding Tests
'on':
- push
- repository_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
    - name: Checkout code
      uses: actions/checkout@v4
    - name: Install the sandbox and the students' language
      run: sudo apt-get update && sudo apt-get install -y --no-install-recommends {packages} || true
    - name: Reversi cases
      id: {STEP}
      timeout-minutes: {minutes}
      run: bash .github/classroom/grade.sh
    - name: Autograding Reporter
      uses: classroom-resources/autograding-grading-reporter@v1
      env:
        {upper}_RESULTS: "${{{{steps.{STEP}.outputs.result}}}}"
      with:
        runners: {STEP}
"#,
        packages = packages.join(" "),
        minutes = minutes(recipe),
    )
}

/// The grader step's script. `REVERSI_SANDBOX` may choose the sandbox (for tests).
fn grade_script(recipe: &Recipe) -> String {
    format!(
        r#"#!/usr/bin/env bash
# GitHub Classroom's grader step (written by `reversi package github-classroom`):
# grades the repository's files and appends the step output `result` to
# $GITHUB_OUTPUT, always (a score of 0 with the reason when grading fails).
# The student's program runs in the sandbox: bubblewrap, else a separate
# unprivileged user, which needs root: the runner's passwordless sudo gives it.
# It grades copies: the binary and the cases in a fresh folder of root's closed to
# others, the repository's files (without .github and .git) in one open to them.
set -u
if [ "$(id -u)" -ne 0 ] && sudo -n true 2>/dev/null; then
  exec sudo -n --preserve-env=GITHUB_OUTPUT,GITHUB_WORKSPACE,REVERSI_SANDBOX bash "$0" "$@"
fi
HERE=$(cd "$(dirname "$0")" && pwd)
WORKSPACE=${{GITHUB_WORKSPACE:-$(pwd)}}
SANDBOX=${{REVERSI_SANDBOX:-auto}}
PRIVATE=$(mktemp -d) && SHOWN=$(mktemp -d) && OUT=$(mktemp) || exit 1
trap 'rm -rf "$PRIVATE" "$SHOWN" "$OUT"' EXIT
chmod 711 -- "$SHOWN"
cp -- "$HERE/reversi" "$PRIVATE/reversi"
cp -R -- "$HERE/cases" "$PRIVATE/cases"
cp -R -- "$WORKSPACE/." "$SHOWN/submission"
rm -rf -- "$SHOWN/submission/.github" "$SHOWN/submission/.git"
BIN=$PRIVATE/reversi
CASES=$PRIVATE/cases
SUBMISSION=$SHOWN/submission
{lines}
GITHUB_OUTPUT=$OUT {grade}
status=$?
if grep -q '^result=' "$OUT"; then
  grep '^result=' "$OUT" | tail -n 1 >> "$GITHUB_OUTPUT"
else
  # The binary could not run (exit $status): no points, and why.
  printf '{{"version": 1, "status": "error", "max_score": %s, "tests": [{{"name": "grading", "status": "error", "score": 0, "message": "The autograder could not run (exit %s); see this step'"'"'s log.", "test_code": "", "filename": "", "line_no": 0, "duration": 0}}]}}' \
    {max} "$status" | base64 -w 0 | sed 's/^/result=/; $a\' >> "$GITHUB_OUTPUT"
fi
exit 0
"#,
        lines = bundle_lines("PRIVATE", "SUBMISSION"),
        grade = grade_line(recipe, "--github-classroom"),
        max = shell_quote(&points(recipe.max_score)),
    )
}
