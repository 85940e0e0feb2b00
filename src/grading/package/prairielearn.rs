//! PrairieLearn's external grader: a course folder to merge into the course's
//! repository. `questions/reversi/info.json` enables external grading and names
//! the image, the entrypoint, the `serverFilesCourse` folder the job gets and the
//! job's `timeout`; `questions/reversi/tests/cases/` holds the cases (PrairieLearn
//! copies the question's `tests/` to `/grade/tests`); `serverFilesCourse/reversi/`
//! holds the binary and the entrypoint `grade.sh` (copied to
//! `/grade/serverFilesCourse/reversi/`). The job runs as root with the student's
//! files in `/grade/student`, and must make `/grade/results` itself.

use super::{bundle_lines, grade_line, Files, Recipe};

/// Where the binary goes in the bundle.
pub const BINARY: &str = "serverFilesCourse/reversi/reversi";

/// Where the cases go in the bundle.
pub const CASES: &str = "questions/reversi/tests/cases";

/// The entrypoint as the job sees it.
const ENTRYPOINT: &str = "/grade/serverFilesCourse/reversi/grade.sh";

/// PrairieLearn's greatest `timeout` of a job, in seconds (its documentation).
const MAX_TIMEOUT: f64 = 600.0;

/// The question's `info.json`, `question.html` and the entrypoint.
pub fn files(recipe: &Recipe) -> Files {
    vec![
        (
            "questions/reversi/info.json".into(),
            info_json(recipe).into_bytes(),
            0o644,
        ),
        (
            "questions/reversi/question.html".into(),
            question_html(recipe).into_bytes(),
            0o644,
        ),
        (
            "serverFilesCourse/reversi/grade.sh".into(),
            entrypoint(recipe).into_bytes(),
            0o755,
        ),
    ]
}

/// The job's `timeout`: the budget and a tenth more (the grading's own end and the
/// container's), at most PrairieLearn's 600 s.
fn timeout(recipe: &Recipe) -> u64 {
    (recipe.budget * 10.0 / 9.0).ceil().min(MAX_TIMEOUT) as u64
}

fn info_json(recipe: &Recipe) -> String {
    let info = serde_json::json!({
        "uuid": uuid(),
        "title": "Reversi: the search and its traverse log",
        "topic": "Search",
        "tags": ["reversi"],
        "type": "v3",
        "gradingMethod": "External",
        "singleVariant": true,
        "externalGradingOptions": {
            "enabled": true,
            "image": recipe.image,
            "serverFilesCourse": ["reversi/"],
            "entrypoint": ENTRYPOINT,
            "timeout": timeout(recipe),
        },
    });
    serde_json::to_string_pretty(&info).expect("a JSON value serializes") + "\n"
}

/// A fresh random UUID (version 4), as every PrairieLearn question needs its own.
fn uuid() -> String {
    let mut bytes = [0u8; 16];
    if let Ok(mut random) = std::fs::File::open("/dev/urandom") {
        let _ = std::io::Read::read_exact(&mut random, &mut bytes);
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

fn question_html(recipe: &Recipe) -> String {
    let names = recipe.student_files.join(",");
    let escaped = names
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        r#"<pl-question-panel>
  <p>Upload your program. It runs on each case with <code>input.txt</code> in its
  folder and must write <code>output.txt</code>; every case is compared with the
  expected output.</p>
  <pl-file-upload file-names="{escaped}"></pl-file-upload>
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"#
    )
}

/// The entrypoint. `PL_GRADE` may move `/grade`, and `REVERSI_SANDBOX` choose the
/// sandbox (for tests).
fn entrypoint(recipe: &Recipe) -> String {
    format!(
        r#"#!/usr/bin/env bash
# PrairieLearn's external grading entrypoint (written by `reversi package
# prairielearn`): the job runs it as root in the grading container, with the
# student's files in /grade/student and the question's tests/ in /grade/tests.
# The student's program runs in the sandbox: bubblewrap where the container allows
# it, else a separate unprivileged user, which must not read the cases, the job's
# data or the results: those are made root's and closed to others, the student's
# files open to them. PrairieLearn reads /grade/results/results.json once this
# exits 0; grading that fails writes a score of 0 with the reason.
set -u
ROOT=${{PL_GRADE:-/grade}}
SANDBOX=${{REVERSI_SANDBOX:-auto}}
BIN=$ROOT/serverFilesCourse/reversi/reversi
TESTS=$ROOT/tests
CASES=$TESTS/cases
SUBMISSION=$ROOT/student
RESULTS=$ROOT/results/results.json
mkdir -p -- "$ROOT/results" "$SUBMISSION"
rm -f -- "$RESULTS"
chmod 711 -- "$ROOT"
chmod -R go-rwx -- "$ROOT/results" "$ROOT/serverFilesCourse"
[ ! -e "$ROOT/data" ] || chmod -R go-rwx -- "$ROOT/data"
chmod 700 -- "$BIN"
{lines}
LOG=$(mktemp)
{grade} > "$LOG" 2>&1
status=$?
cat -- "$LOG"
rm -f -- "$LOG"
if [ ! -s "$RESULTS" ]; then
  # The binary could not run (exit $status): the student sees a score of 0, why,
  # and whom to tell.
  printf '{{"gradable": true, "score": 0, "message": "The autograder could not run (exit %s); tell the course staff.", "output": "", "tests": []}}\n' "$status" > "$RESULTS"
fi
exit 0
"#,
        lines = bundle_lines("TESTS", "SUBMISSION"),
        grade = grade_line(recipe, "--prairielearn=\"$RESULTS\"")
    )
}
