//! The real validators the report tests check with (installed by `make validators`:
//! Python's xmlschema, jsonschema and markdown-it-py from PyPI), and the schemas they
//! check against (tests/schemas/): Jenkins' junit-10.xsd, Gradescope's and
//! PrairieLearn's documented results.json, GitHub Classroom's grader step result, a
//! CodeRunner combinator grader's documented outcome.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas")
}

/// The Python with the validators (`make validators`).
pub fn validators() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/validators/bin/python");
    assert!(
        python.is_file(),
        "{}: missing; run `make validators` (it installs xmlschema, jsonschema, PyYAML and \
         markdown-it-py)",
        python.display()
    );
    python
}

/// Validates `file` with `snippet` (a Python snippet given the schema and the file);
/// panics with the validator's words when invalid.
fn validate(snippet: &str, schema: &Path, file: &Path) {
    let output = Command::new(validators())
        .args(["-c", snippet])
        .arg(schema)
        .arg(file)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{} is not valid against {}:\n{}\n{}",
        file.display(),
        schema.display(),
        String::from_utf8_lossy(&output.stderr),
        fs::read_to_string(file).unwrap_or_default()
    );
}

/// Validates a JUnit XML report against Jenkins' junit-10.xsd.
pub fn validate_junit(file: &Path) {
    validate(
        "import sys, xmlschema\nxmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])",
        &schemas().join("junit-10.xsd"),
        file,
    );
}

/// Validates a JSON file against the JSON schema `schema` of tests/schemas/.
fn validate_json(schema: &str, file: &Path) {
    validate(
        "import json, sys, jsonschema\n\
         schema = json.load(open(sys.argv[1]))\n\
         jsonschema.Draft202012Validator.check_schema(schema)\n\
         jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))",
        &schemas().join(schema),
        file,
    );
}

/// Validates a Gradescope `results.json` against the schema of its documented format.
pub fn validate_gradescope(file: &Path) {
    validate_json("gradescope-results.schema.json", file);
}

/// Validates a PrairieLearn `results.json` against the schema of its documented
/// format.
pub fn validate_prairielearn(file: &Path) {
    validate_json("prairielearn-results.schema.json", file);
}

/// Validates a GitHub Classroom grader step's result (decoded) against the schema
/// of what the command grader writes and the reporter reads.
pub fn validate_github_classroom(file: &Path) {
    validate_json("github-classroom-result.schema.json", file);
}

/// Validates a CodeRunner combinator grader's outcome against the schema of its
/// documented format.
pub fn validate_coderunner(file: &Path) {
    validate_json("coderunner-combinator.schema.json", file);
}

/// Each of `texts` rendered as HTML by markdown-it-py, a CommonMark renderer, with
/// raw HTML let through (CommonMark's default): what a platform that renders
/// Markdown would show.
pub fn render_markdown(texts: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("texts.json");
    fs::write(&input, serde_json::to_string(texts).unwrap()).unwrap();
    let output = Command::new(validators())
        .args([
            "-c",
            "import json, sys\nfrom markdown_it import MarkdownIt\n\
             md = MarkdownIt('commonmark')\n\
             print(json.dumps([md.render(t) for t in json.load(open(sys.argv[1]))]))",
        ])
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}
