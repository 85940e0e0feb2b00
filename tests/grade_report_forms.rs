//! The report forms of `grade --single` checked against each platform's documented
//! contract, for an honest, a failing and a hostile submission (whose output, standard
//! error and name try to add a grade line, HTML and Markdown of their own):
//! Moodle VPL's evaluation lines read as VPL reads them, a CodeRunner combinator
//! grader's JSON against its schema, JUnit as CodeGrade reads it from
//! `$CG_JUNIT_XML_LOCATION` (and Jenkins' junit-10.xsd), Gradescope's Markdown
//! against its schema and rendered by a CommonMark renderer. Case5 is hidden: a
//! hidden row in CodeRunner's table.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::path::{Path, PathBuf};

use grading::{grade_hw_sh, official_copy, reversi_with, text, BIN};
use validators::{render_markdown, validate_coderunner, validate_gradescope, validate_junit};

/// What the hostile program writes: a grade line, a comment title, HTML, Markdown,
/// a link, a fence.
const HOSTILE: &str = "Grade :=>> 100 <script>alert(1)</script> **bold** \
                       [x](https://evil.example) <img src=x onerror=alert(1)>";

/// A submission and what it should score of the five official cases.
struct Student {
    name: &'static str,
    script: String,
    passed: usize,
}

fn students() -> Vec<Student> {
    // (the hostile one crashes where the input has no O, the last 3 lines of its
    // standard error shown; elsewhere its output differs on line 1, quoted by the
    // explanation)
    let hostile = format!(
        "if grep -q O input.txt; then printf '%s\\n```\\n# Heading\\n' '{HOSTILE}' > output.txt; \
         else printf 'Comment :=>>-Hacked\\n<|--\\n```\\nhttps://evil.example\\n%s\\n' '{HOSTILE}' >&2; \
         exit 1; fi"
    );
    vec![
        Student {
            name: "honest",
            script: format!("exec {BIN}"),
            passed: 5,
        },
        Student {
            name: "failing",
            script: format!(
                "{BIN}; if [ $(wc -l < output.txt) -gt 20 ]; then echo x >> output.txt; fi"
            ),
            passed: 3,
        },
        Student {
            name: "Grade :=>> 99 <b>x</b> **y** [z](https://evil.example)",
            script: hostile,
            passed: 0,
        },
    ]
}

/// The files written for a student.
struct Reports {
    vpl: String,
    coderunner: serde_json::Value,
    junit: String,
    gradescope: serde_json::Value,
}

/// The official cases, case5 hidden.
fn cases(dir: &Path) -> PathBuf {
    let cases = official_copy(dir);
    fs::write(cases.join("case5/visibility"), "hidden\n").unwrap();
    cases
}

fn grade(dir: &Path, student: &Student) -> Reports {
    let folder = dir.join("submission");
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join("hw.sh"), format!("{}\n", student.script)).unwrap();
    let file = |name: &str| dir.join(name);
    let mut args = grade_hw_sh(&folder, &cases(dir));
    args.extend(["--single".into(), "--name".into(), student.name.into()]);
    let output = reversi_with(
        &args,
        &[
            "--vpl",
            file("vpl.txt").to_str().unwrap(),
            "--coderunner",
            file("coderunner.json").to_str().unwrap(),
            "--junit",
            file("junit.xml").to_str().unwrap(),
            "--gradescope",
            file("results.json").to_str().unwrap(),
            "--gradescope-format",
            "md",
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    validate_coderunner(&file("coderunner.json"));
    validate_junit(&file("junit.xml"));
    validate_gradescope(&file("results.json"));
    let json = |name: &str| serde_json::from_slice(&fs::read(file(name)).unwrap()).unwrap();
    Reports {
        vpl: fs::read_to_string(file("vpl.txt")).unwrap(),
        coderunner: json("coderunner.json"),
        junit: fs::read_to_string(file("junit.xml")).unwrap(),
        gradescope: json("results.json"),
    }
}

/// VPL's reader, as its documentation and code have it: the grade is the rest of
/// the last line that starts with `Grade :=>>`, trimmed; comments are the rest of
/// each line that starts with `Comment :=>>`, and the lines between `<|--` and
/// `--|>` lines. Asserts that every line is one of ours: the grade last and alone,
/// every comment preformatted (`>`) but the score's title.
fn read_vpl(vpl: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = vpl.split('\n').collect();
    assert_eq!(lines.last(), Some(&""), "{vpl}");
    let lines = &lines[..lines.len() - 1];
    let grades: Vec<&str> = lines
        .iter()
        .filter_map(|line| line.strip_prefix("Grade :=>>"))
        .collect();
    assert_eq!(grades.len(), 1, "{vpl}");
    assert!(lines.last().unwrap().starts_with("Grade :=>>"), "{vpl}");
    let comments: Vec<String> = lines[..lines.len() - 1]
        .iter()
        .map(|line| {
            let comment = line.strip_prefix("Comment :=>>");
            assert!(comment.is_some(), "not a comment line: {line:?}\n{vpl}");
            comment.unwrap().to_string()
        })
        .collect();
    assert!(comments[0].starts_with("-Score: "), "{vpl}");
    assert!(comments[1..].iter().all(|c| c.starts_with('>')), "{vpl}");
    assert!(!vpl.contains('\r'));
    (grades[0].trim().to_string(), comments)
}

/// CodeGrade's reader of `$CG_JUNIT_XML_LOCATION` (its `cg_junit`): a `testsuites`
/// root of `testsuite` elements holding only `testcase` elements; a suite has `name`,
/// `errors`, `failures`, `tests`, which must count its `error` and `failure`
/// elements; a case has `name` and a `time` that is a number. The score is the
/// cases neither failed, in error nor skipped, of those not skipped.
fn codegrade_fraction(xml: &str) -> f64 {
    let document = roxmltree::Document::parse(xml).unwrap();
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let (mut tests, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
    for suite in root.children().filter(|n| n.is_element()) {
        assert_eq!(suite.tag_name().name(), "testsuite");
        let count = |name: &str| -> usize { suite.attribute(name).unwrap().parse().unwrap() };
        assert!(suite.attribute("name").is_some());
        let cases: Vec<_> = suite.children().filter(|n| n.is_element()).collect();
        let with = |child: &str| {
            cases
                .iter()
                .filter(|c| c.children().any(|n| n.has_tag_name(child)))
                .count()
        };
        for case in &cases {
            assert_eq!(case.tag_name().name(), "testcase");
            assert!(case.attribute("name").is_some());
            case.attribute("time").unwrap().parse::<f64>().unwrap();
        }
        assert_eq!(count("failures"), with("failure"));
        assert_eq!(count("errors"), with("error"));
        tests += count("tests");
        failures += count("failures");
        errors += count("errors");
        skipped += suite.attribute("skipped").map_or(0, |s| s.parse().unwrap());
    }
    let total = tests - skipped;
    (total - failures - errors) as f64 / total as f64
}

#[test]
fn every_report_form_keeps_to_its_contract_and_shows_student_text_as_text() {
    for student in students() {
        let dir = tempfile::tempdir().unwrap();
        let reports = grade(dir.path(), &student);
        let who = student.name;
        let passed = student.passed;
        // VPL: our grade, last and alone; the student's text only preformatted.
        let (grade, comments) = read_vpl(&reports.vpl);
        assert_eq!(grade, passed.to_string(), "{who}");
        let comments = comments.join("\n");
        assert!(comments.contains(&format!("{passed} of 5 cases passed")));
        // CodeRunner: the fraction, the table with its header first, one row a case,
        // the prologue's only elements ours.
        let outcome = &reports.coderunner;
        assert_eq!(
            outcome["fraction"].as_f64(),
            Some(passed as f64 / 5.0),
            "{who}"
        );
        let rows = outcome["testresults"].as_array().unwrap();
        assert_eq!(
            rows[0],
            serde_json::json!(["Case", "Verdict", "Explanation", "iscorrect", "ishidden"])
        );
        assert_eq!(rows.len(), 6);
        let correct = rows[1..].iter().filter(|r| r[3] == 1).count();
        assert_eq!(correct, passed, "{who}");
        // (case5 is hidden: a row the student does not see)
        let hidden: Vec<u64> = rows[1..].iter().map(|r| r[4].as_u64().unwrap()).collect();
        assert_eq!(hidden, [0, 0, 0, 0, 1]);
        let prologue = outcome["prologuehtml"].as_str().unwrap();
        let mut bare = prologue.to_string();
        for tag in ["<p>", "</p>", "<b>", "</b>", "<pre>", "</pre>"] {
            bare = bare.replace(tag, "");
        }
        assert!(!bare.contains('<'), "{who}: {prologue}");
        // CodeGrade: the fraction of cases passed.
        assert_eq!(
            codegrade_fraction(&reports.junit),
            passed as f64 / 5.0,
            "{who}"
        );
        // Gradescope: numbered, tagged tests; Markdown whose only elements are ours.
        let results = &reports.gradescope;
        assert_eq!(results["output_format"], "md");
        assert_eq!(results["score"].as_f64(), Some(passed as f64));
        let tests = results["tests"].as_array().unwrap();
        let mut texts = vec![results["output"].as_str().unwrap()];
        for (at, test) in tests.iter().enumerate() {
            assert_eq!(test["number"], (at + 1).to_string());
            assert_eq!(test["output_format"], "md");
            let tags = test["tags"].as_array().unwrap();
            assert_eq!(tags.is_empty(), test["status"] == "passed", "{test}");
            texts.push(test["output"].as_str().unwrap());
        }
        for html in render_markdown(&texts) {
            for element in ["<script", "<img", "<a ", "<h1", "<em>", "<b>"] {
                assert!(!html.contains(element), "{who}: {element} in\n{html}");
            }
            let strong = html.matches("<strong>").count();
            assert!(strong <= 1, "{who}: {html}");
        }
        if passed == 0 {
            // The student's text is there, shown as text.
            let all = format!("{}{}", reports.vpl, prologue);
            assert!(all.contains("&lt;script&gt;") && all.contains("<script>alert"));
            let rendered = render_markdown(&texts).join("");
            assert!(
                rendered.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
                "{rendered}"
            );
            let tags: Vec<&str> = tests
                .iter()
                .flat_map(|t| t["tags"].as_array().unwrap())
                .map(|t| t.as_str().unwrap())
                .collect();
            assert!(tags.contains(&"crash"), "{tags:?}");
        }
        if passed == 3 {
            assert!(tests
                .iter()
                .any(|t| !t["tags"].as_array().unwrap().is_empty() && t["tags"][0] != "fail"));
        }
    }
}
