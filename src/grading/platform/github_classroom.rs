//! GitHub Classroom's grader step output: the step output `result`, base64 of
//! `{"version": 1, "status", "max_score", "tests": [...]}`, each test with `name`,
//! `status`, `score`, `message`, `test_code`, `filename`, `line_no` and `duration`
//! (as `classroom-resources/autograding-command-grader` writes it), appended to the
//! file `$GITHUB_OUTPUT` names. The reporter
//! (`classroom-resources/autograding-grading-reporter`) reads it from the
//! environment as `<STEP-ID>_RESULTS` and sums the tests' `score` into the "Points
//! X/Y" it reports, over the runners' `max_score`: a score per case is partial
//! credit, where the stock graders give a step all or nothing.

use serde_json::{json, Value};

use super::{case_text, fit, scored};
use crate::grading::batch::Verdict;
use crate::grading::grade::StudentGrade;
use crate::printable::{printable, printable_json};

/// The bound of the result's JSON, in bytes. The reporter gets the result in one
/// environment variable, base64 (4/3 of it), and Linux refuses to start a program
/// with a variable past 128 KiB (`MAX_ARG_STRLEN`).
const LIMIT: usize = 64 * 1024;

/// The result of one student's `grade`, each case worth `points`. `status` is
/// `pass` when every case passed, `error` when the submission has no program or it
/// does not build, else `fail` (the reporter fails the check for either).
pub fn result(grade: &StudentGrade, points: &[f64]) -> Value {
    let unrunnable = grade.missing_file.is_some() || grade.compile_error.is_some();
    let tests: Vec<Value> = scored(grade, points)
        .map(|(case, earned, _)| {
            let passed = case.verdict == Verdict::Pass;
            let status = match (passed, unrunnable) {
                (true, _) => "pass",
                (false, true) => "error",
                (false, false) => "fail",
            };
            test(
                &printable(&case.case),
                status,
                earned,
                case_text(case),
                case.seconds,
            )
        })
        .collect();
    let status = if unrunnable {
        "error"
    } else if grade.passed == grade.total {
        "pass"
    } else {
        "fail"
    };
    document(status, grade.max_score, tests)
}

/// The result of a grading that failed before it graded: status `error`, no
/// points, the reason as its one test's message.
pub fn failure(reason: &str, max_score: f64) -> Value {
    let message = format!("The autograder could not grade this submission: {reason}");
    document(
        "error",
        max_score,
        vec![test("grading", "error", 0.0, message, 0.0)],
    )
}

/// The result's JSON: every string printable, the whole within [`LIMIT`].
fn document(status: &str, max_score: f64, tests: Vec<Value>) -> Value {
    let mut result = json!({
        "version": 1,
        "status": status,
        "max_score": max_score,
        "tests": tests,
    });
    printable_json(&mut result);
    let why = "the result is kept under GitHub's size of a variable";
    fit(&mut result, LIMIT, why);
    result
}

/// One test as the command grader writes it (no test code, file or line: a case
/// is none of them), its duration in milliseconds.
fn test(name: &str, status: &str, score: f64, message: String, seconds: f64) -> Value {
    json!({
        "name": name,
        "status": status,
        "score": score,
        "message": message,
        "test_code": "",
        "filename": "",
        "line_no": 0,
        "duration": (seconds.max(0.0) * 1000.0).round(),
    })
}

/// The line to append to `$GITHUB_OUTPUT`: `result=` and the base64 of the JSON
/// (one line: base64 has no line end).
pub fn output_line(result: &Value) -> String {
    let json = serde_json::to_string(result).expect("a JSON value serializes");
    format!("result={}\n", base64(json.as_bytes()))
}

/// Standard base64 (RFC 4648, with padding), as Node's `Buffer.from(.., "base64")`
/// reads it.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk
            .iter()
            .enumerate()
            .fold(0u32, |word, (i, &b)| word | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_is_rfc_4648s() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foo"), "Zm9v");
        assert_eq!(super::base64(b"foobar\xff"), "Zm9vYmFy/w==");
    }
}
