//! How a [`Report`] is written for people: the difference, its explanation wrapped
//! to the terminal's width, the board, the aligned trees and the candidates, and the
//! `--all` listing.

use std::fmt;

use super::*;
impl Report {
    /// Whether the file passes the comparison asked for.
    pub fn passed(&self) -> bool {
        self.identical || (self.lenient && self.lenient_identical)
    }

    /// One line: the verdict and, on a difference, its line and mistake.
    pub fn summary(&self) -> String {
        let Some(difference) = &self.difference else {
            return "identical".into();
        };
        let mut text = match difference.line {
            Some(line) => format!("line {line}"),
            None => "byte form".into(),
        };
        match difference.mistake {
            Some(mistake) => text += &format!(": {}", mistake.label()),
            None => text += ": differs",
        }
        if self.passed() {
            text = format!("identical under --lenient ({text})");
        }
        text
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(difference) = &self.difference else {
            return writeln!(f, "identical ({} bytes)", self.expected_bytes);
        };
        if self.passed() {
            write_wrapped(
                f,
                "",
                "",
                "identical under --lenient (the Fall 2014 grader ignores CR, trailing \
                 whitespace and trailing blank lines), but not byte for byte:",
            )?;
        }
        match difference.line {
            Some(line) => writeln!(f, "differ at line {line}")?,
            None => writeln!(f, "differ in byte form only (every line is the same)")?,
        }
        if let Some(expected) = &difference.expected {
            writeln!(f, "  expected: {}", shown(expected))?;
        } else if difference.line.is_some() {
            writeln!(f, "  expected: (end of file)")?;
        }
        if let Some(actual) = &difference.actual {
            writeln!(f, "  actual:   {}", shown(actual))?;
        } else if difference.line.is_some() {
            writeln!(f, "  actual:   (end of file)")?;
        }
        if let Some(node) = &difference.node {
            writeln!(f, "  node:     {}", shown(node))?;
        }
        if let Some(mistake) = difference.mistake {
            writeln!(f, "  mistake:  {}", mistake.label())?;
        }
        write_wrapped(f, "  ", "  ", &shown(&difference.explanation))?;
        if let Some(board) = &difference.board {
            writeln!(f, "  {}:", board.title)?;
            for line in board.grid.lines() {
                writeln!(f, "    {}", line.trim_end())?;
            }
        }
        if difference.mistake.is_none() && self.aligned.len() > 1 {
            writeln!(f, "  what differs, node by node ({}):", self.aligned.len())?;
            for change in self.aligned.iter().take(SHOWN_CHANGES) {
                write_wrapped(f, "    - ", "      ", &shown(&change.text()))?;
            }
            if self.aligned.len() > SHOWN_CHANGES {
                writeln!(
                    f,
                    "    - ... and {} more",
                    self.aligned.len() - SHOWN_CHANGES
                )?;
            }
        }
        if !self.candidates.is_empty() {
            let named = self
                .difference
                .as_ref()
                .is_some_and(|d| d.mistake.is_some());
            if self.ambiguous && named {
                writeln!(f, "  the programs that write your file, most likely first:")?;
            } else if self.ambiguous {
                writeln!(f, "  each of these writes your file, most likely first:")?;
            } else {
                writeln!(f, "  candidate causes, most likely first:")?;
            }
            for (i, candidate) in self.candidates.iter().enumerate() {
                write_wrapped(
                    f,
                    &format!("    {}. ", i + 1),
                    "       ",
                    &shown(&format!(
                        "{}: {}",
                        candidate.mistake.label(),
                        candidate.evidence
                    )),
                )?;
            }
        }
        for note in &self.notes {
            write_wrapped(f, "note: ", "  ", &shown(note))?;
        }
        Ok(())
    }
}

impl Report {
    /// Every distinct mistake in the file, one per line with its first line and the
    /// lines it accounts for (`check --all`).
    pub fn listing(&self) -> String {
        if self.mistakes.is_empty() {
            return "no mistakes\n".into();
        }
        let mut text = format!("mistakes in this file ({}):\n", self.mistakes.len());
        for listed in &self.mistakes {
            let line = listed
                .line
                .map_or("byte form".to_string(), |l| format!("line {l}"));
            let lines = match listed.lines {
                Some(1) => "1 line".to_string(),
                Some(n) => format!("{n} lines"),
                None => String::new(),
            };
            let fault = match (listed.from_catalogue, listed.mistake) {
                (true, Some(mistake)) => format!(" [{mistake}]"),
                _ => String::new(),
            };
            text += &format!("  {line:<11} {lines:>11}  {}{fault}\n", listed.summary);
        }
        text
    }
}

/// `text` with its control characters escaped (see [`escaped`]) for a terminal;
/// backslashes stay, since our own words hold some (`\r\n`).
pub(super) fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| escaped(&c.to_string()) != c.to_string().as_str() && c != '\\')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push(c),
            c => out.push_str(&escaped(&c.to_string())),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Width of the words in a report.
const WIDTH: usize = 88;

/// Differences of the aligned trees shown in words.
const SHOWN_CHANGES: usize = 8;

/// Writes `text` in lines of at most [`WIDTH`] characters (longer words stay whole),
/// the first starting with `first`, the others with `rest`.
fn write_wrapped(f: &mut fmt::Formatter<'_>, first: &str, rest: &str, text: &str) -> fmt::Result {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            writeln!(f, "{line}")?;
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    writeln!(f, "{line}")
}
