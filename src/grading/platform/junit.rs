//! JUnit XML, as CI systems read it: a `testsuite` per student (or per batch), a
//! `testcase` per case, the `check` explanation as the failure's text.

use std::fmt::Write;

use crate::grading::batch::Verdict;
use crate::grading::grade::StudentGrade;
use crate::printable::{html_text, printable, terminal_text};

/// What a document starts with, before the first `testsuite`.
pub const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
/// What a document ends with, after the last `testsuite`.
pub const TAIL: &str = "</testsuites>\n";
/// What a `testsuite` (a student's) starts with, alone at the start of its line.
pub const SUITE_START: &str = "  <testsuite name=\"";
/// The line that ends a `testsuite`.
pub const SUITE_END: &str = "  </testsuite>\n";

/// The JUnit XML document of `grades`.
pub fn document(grades: &[StudentGrade]) -> String {
    let mut xml = String::from(HEAD);
    for grade in grades {
        let failures = grade
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Fail)
            .count();
        let errors = grade.total - grade.passed - failures;
        let seconds = grade.cases.iter().fold(0.0, |sum, c| sum + c.seconds);
        let _ = writeln!(
            xml,
            "{SUITE_START}{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" \
             time=\"{}\">",
            attribute(&grade.student),
            grade.total,
            time(seconds)
        );
        for case in &grade.cases {
            let _ = write!(
                xml,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"",
                attribute(&case.case),
                attribute(&grade.student),
                time(case.seconds)
            );
            let element = match case.verdict {
                Verdict::Pass => {
                    xml += "/>\n";
                    continue;
                }
                Verdict::Fail => "failure",
                _ => "error",
            };
            let body = case
                .report
                .as_ref()
                .map_or_else(|| case.detail.clone(), ToString::to_string);
            let _ = writeln!(
                xml,
                ">\n      <{element} message=\"{} {}\" type=\"{}\">{}</{element}>\n    </testcase>",
                case.verdict.word(),
                one_line(&case.detail),
                case.verdict.word(),
                escape(&terminal_text(&body))
            );
        }
        xml += SUITE_END;
    }
    xml += TAIL;
    xml
}

/// Seconds as JUnit's `time` (Surefire's form: digits, a point, never a sign).
pub fn time(seconds: f64) -> String {
    format!("{:.3}", if seconds > 0.0 { seconds } else { 0.0 })
}

/// A name (a student's folder, a case) as an attribute's value: on one line, its control
/// characters escaped as the terminal shows them (a name cannot hold an element or
/// a line break), then markup escaped.
pub fn attribute(text: &str) -> String {
    escape(&printable(text))
}

/// A row's detail (text the grader already made printable, backslashes meant) as
/// an attribute's value: any control character left escaped, on one line.
fn one_line(text: &str) -> String {
    escape(
        &terminal_text(text)
            .replace('\n', "\\n")
            .replace('\t', "\\t"),
    )
}

/// `text` fit for XML 1.0 text and attributes: the characters XML cannot hold even
/// as references (C0 controls but tab, newline and CR; U+FFFE, U+FFFF) written as
/// `\u{..}`, as is CR, then markup escaped. Callers pass text already made
/// printable; this is the last guard.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{fffe}' || c == '\u{ffff}' => {
                out += &format!("\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    html_text(&out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_xml_cannot_hold_is_escaped() {
        assert_eq!(
            super::escape("a<b & \"c\"\u{1b}[2J\r\n\\r"),
            "a&lt;b &amp; &quot;c&quot;\\u{1b}[2J\\u{d}\n\\r"
        );
        assert_eq!(
            super::attribute("a\nb\"/><x\u{1b}"),
            "a\\nb&quot;/&gt;&lt;x\\u{1b}"
        );
    }
}
