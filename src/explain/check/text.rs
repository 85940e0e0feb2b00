//! The text level of a comparison: a file cut into lines and their ends, and the
//! differences of byte form alone (line ends, the final newline, a byte-order mark).

use super::*;

/// How one line of a file ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    Crlf,
    Lf,
    /// The last line, with no line end.
    None,
}

/// A file cut into lines (without `\n` or the `\r` before it) and their ends.
pub(super) struct Lines {
    pub(super) texts: Vec<String>,
    pub(super) ends: Vec<End>,
}

impl Lines {
    pub(super) fn split(bytes: &[u8]) -> Lines {
        let mut texts = Vec::new();
        let mut ends = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let (line, end, after) = match rest.iter().position(|&b| b == b'\n') {
                Some(at) => match rest[..at].strip_suffix(b"\r") {
                    Some(line) => (line, End::Crlf, &rest[at + 1..]),
                    None => (&rest[..at], End::Lf, &rest[at + 1..]),
                },
                None => (rest, End::None, &rest[rest.len()..]),
            };
            texts.push(String::from_utf8_lossy(line).into_owned());
            ends.push(end);
            rest = after;
        }
        Lines { texts, ends }
    }

    /// The lines as the Fall 2014 grader saw them: no CR, no trailing whitespace, no
    /// trailing blank lines.
    pub(super) fn lenient(&self) -> Vec<&str> {
        let mut lines: Vec<&str> = self
            .texts
            .iter()
            .map(|t| t.trim_end_matches(|c: char| c.is_whitespace()))
            .collect();
        while lines.last() == Some(&"") {
            lines.pop();
        }
        lines
    }

    pub(super) fn final_newline(&self) -> bool {
        self.ends.last().is_some_and(|&end| end != End::None)
    }
}

/// Whether a value is printed otherwise than the course prints values: as a float
/// (`0.0`) or with another spelling of infinity (`inf`, `2147483647`).
pub(super) fn odd_value(text: &str) -> bool {
    log::parse_float_value(text).is_some() || log::parse_infinity_spelling(text).is_some()
}

/// Whether every value of the log that is not in the course's form is a spelling of
/// infinity (`inf`, `-infinity`, `2147483647`), and there is one.
pub(super) fn only_inf_spellings(lines: &[String]) -> bool {
    let odd: Vec<String> = lines
        .iter()
        .skip(LOG_START)
        .flat_map(|l| {
            Entry::parse(l)
                .values
                .into_iter()
                .filter(|v| odd_value(v))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    !odd.is_empty()
        && odd
            .iter()
            .all(|v| log::parse_infinity_spelling(v).is_some())
}

pub(super) fn is_other_end(want: End, got: End) -> bool {
    matches!((want, got), (End::Crlf, End::Lf) | (End::Lf, End::Crlf))
}

pub(super) fn end_name(end: End) -> &'static str {
    match end {
        End::Crlf => "CRLF (\\r\\n)",
        End::Lf => "LF (\\n)",
        End::None => "none",
    }
}

/// `actual` is `rest` after a byte-order mark: that is the first thing to fix, and
/// what `rest` alone would get is a note.
pub(super) fn byte_order_mark(
    expected: &[u8],
    rest: &[u8],
    lenient: bool,
    problem: Option<&Problem>,
) -> Report {
    let after = check_with_input(expected, rest, lenient, problem);
    let mut notes = vec![match &after.difference {
        None => "without the mark the file is byte-identical".to_string(),
        Some(_) => format!("without the mark: {}", after.summary()),
    }];
    notes.extend(after.notes);
    Report {
        identical: false,
        lenient_identical: false,
        lenient,
        expected_bytes: expected.len(),
        difference: Some(Difference {
            board: None,
            line: Some(1),
            expected: Lines::split(expected).texts.into_iter().next(),
            actual: Some(format!(
                "<EF BB BF>{}",
                Lines::split(rest).texts.first().map_or("", String::as_str)
            )),
            node: None,
            mistake: Some(Mistake::ByteOrderMark),
            explanation: "the file starts with a UTF-8 byte-order mark (EF BB BF), which \
                          graders compare as three more bytes: write plain ASCII (in C#, \
                          encode with `new UTF8Encoding(false)` rather than \
                          `Encoding.UTF8`; in Python, not with \"utf-8-sig\")"
                .into(),
        }),
        notes,
        candidates: after.candidates,
        ambiguous: after.ambiguous,
        aligned: after.aligned,
        mistakes: vec![Listed {
            mistake: Some(Mistake::ByteOrderMark),
            from_catalogue: false,
            line: Some(1),
            lines: Some(1),
            summary: Mistake::ByteOrderMark.label().into(),
        }]
        .into_iter()
        .chain(after.mistakes)
        .collect(),
    }
}

/// Same lines, different bytes: line ends, or the final newline.
pub(super) fn byte_form(want: &Lines, got: &Lines) -> Difference {
    let mut parts = Vec::new();
    let other_ends: Vec<usize> = (0..want.ends.len())
        .filter(|&i| is_other_end(want.ends[i], got.ends[i]))
        .collect();
    if let Some(&first) = other_ends.first() {
        let between = want.ends.iter().filter(|&&e| e != End::None).count();
        let which = if other_ends.len() == between {
            "every line end".to_string()
        } else {
            format!(
                "{} of {between} line ends, first after line {}",
                other_ends.len(),
                first + 1
            )
        };
        parts.push(format!(
            "expected {} line ends, found {} ({which})",
            end_name(want.ends[first]),
            end_name(got.ends[first])
        ));
    }
    if want.final_newline() != got.final_newline() {
        parts.push(if want.final_newline() {
            "expected a line end after the last line; the file has none".into()
        } else {
            "expected no line end after the last line; the file ends with one".into()
        });
    }
    let mistake = if other_ends.is_empty() {
        Mistake::FinalNewline
    } else {
        Mistake::LineEnds
    };
    Difference {
        board: None,
        line: None,
        expected: None,
        actual: None,
        node: None,
        mistake: Some(mistake),
        explanation: format!(
            "{}. The official files join lines with CRLF and have no final newline: \
             write \"\\r\\n\" between lines and nothing after the last.",
            parts.join("; and ")
        ),
    }
}
