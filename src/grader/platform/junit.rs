//! JUnit XML, as CI systems read it: a `testsuite` per student (or per batch), a
//! `testcase` per case, the `check` explanation as the failure's text.

use std::fmt::Write;

use crate::grader::batch::Verdict;
use crate::grader::grade::StudentGrade;

/// The JUnit XML document of `grades`.
pub fn document(grades: &[StudentGrade]) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for grade in grades {
        let failures = grade
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Fail)
            .count();
        let errors = grade.total - grade.passed - failures;
        let seconds: f64 = grade.cases.iter().map(|c| c.seconds).sum();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" \
             time=\"{seconds:.3}\">",
            escape(&grade.student),
            grade.total
        );
        if let Some(file) = &grade.missing_file {
            let _ = writeln!(
                xml,
                "    <testcase name=\"submission\" classname=\"{}\">\n      <error \
                 message=\"MISSING FILE: {}\"/>\n    </testcase>",
                escape(&grade.student),
                escape(file)
            );
        }
        for case in &grade.cases {
            let _ = write!(
                xml,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\"",
                escape(&case.case),
                escape(&grade.student),
                case.seconds
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
                escape(&case.detail),
                case.verdict.word(),
                escape(&body)
            );
        }
        xml += "  </testsuite>\n";
    }
    xml += "</testsuites>\n";
    xml
}

/// `text` fit for XML 1.0 text and attributes: the characters XML cannot hold even
/// as references (C0 controls but tab, newline and CR; U+FFFE, U+FFFF) written as
/// `\u{..}`, then markup escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&apos;",
            '\t' | '\n' => out.push(c),
            '\r' => out += "&#13;",
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {
                out += &format!("\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_xml_cannot_hold_is_escaped() {
        assert_eq!(
            super::escape("a<b & \"c\"\u{1b}[2J\r\n\\r"),
            "a&lt;b &amp; &quot;c&quot;\\u{1b}[2J&#13;\n\\r"
        );
    }
}
