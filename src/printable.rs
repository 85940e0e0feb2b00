//! Text from files and programs made safe to show: every report that quotes a
//! student's log, a program's standard error or a file name passes it through here,
//! so that no control byte (a terminal escape, a carriage return that rewrites the
//! line, a NUL, a newline that fakes a report row) reaches a person's terminal.

use std::borrow::Cow;
use std::fmt::Write;

/// `text` with every character that is not safe to print on one line escaped:
/// `\n`, `\r`, `\t`, `\\` as themselves, other control characters (C0, DEL, C1) and
/// the bidirectional overrides (which reorder what a terminal shows) as `\u{..}`.
/// Text with none of them is returned as it is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_char(&mut out, c);
    }
    Cow::Owned(out)
}

/// `bytes` as printable text: valid UTF-8 as [`printable`] shows it, every byte that
/// is not part of valid UTF-8 as `\xNN`.
pub fn printable_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_char(&mut out, c);
        }
        for byte in chunk.invalid() {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

/// A whole report made safe for a terminal, as the last step before it is printed:
/// its lines stay lines and its backslashes stay (parts already escaped by
/// [`printable`] keep their meaning), but any other control character, one that a
/// file or a program slipped into the report, is escaped as [`printable`] does.
pub fn terminal_text(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c != '\n' && c != '\t' && c != '\\' && needs_escape(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            push_char(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Every string of a JSON value (keys too) as [`terminal_text`] shows it: serde
/// already writes control characters as `\u001b`, but a platform that decodes the
/// JSON and shows the text as it is would show them raw.
pub fn printable_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(text) => {
            if let Cow::Owned(escaped) = terminal_text(text) {
                *text = escaped;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(printable_json),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                printable_json(&mut item);
                map.insert(terminal_text(&key).into_owned(), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Serializes a name (a student's folder, a case) as [`printable`] shows it: on one
/// line, every control character escaped. For `#[serde(serialize_with)]`.
pub fn serialize_name<S: serde::Serializer>(name: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&printable(name))
}

/// Serializes names as [`serialize_name`] does each. For `#[serde(serialize_with)]`.
pub fn serialize_names<S: serde::Serializer>(
    names: &[String],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(names.iter().map(|name| printable(name)))
}

/// `text` (already printable) as HTML or XML text or an attribute's value: `&`,
/// `<`, `>`, `"` and `'` written as entity references, so that nothing in it opens
/// an element or ends an attribute.
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&apos;",
            c => out.push(c),
        }
    }
    out
}

/// `text` (already printable, on one line) as Markdown text that shows as it is:
/// every ASCII punctuation character backslash-escaped (CommonMark: none then
/// starts emphasis, a link, a heading, a list, a table cell or a code span), and
/// `<` and `&` as character references (no raw HTML, no entity of the student's).
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out += "&lt;",
            '&' => out += "&amp;",
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` (already printable: its lines, no other control character) as a fenced
/// Markdown code block, shown as it is: the fence is a run of backticks longer than
/// any in `text` (CommonMark), so no line of it can close the block, and inside it
/// nothing is Markdown or HTML.
pub fn markdown_code_block(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let body = text.strip_suffix('\n').unwrap_or(text);
    format!("{fence}text\n{body}\n{fence}\n")
}

fn needs_escape(c: char) -> bool {
    c == '\\' || c.is_control() || is_bidi_control(c)
}

/// The Unicode characters that change the display order of the text around them.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_char(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\\' => out.push_str("\\\\"),
        c if needs_escape(c) => {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_keeps_its_lines_and_escapes_the_rest() {
        assert_eq!(
            terminal_text("actual: \0\u{1b}[2J3\r\nnext \\u{1b} line\n"),
            "actual: \\u{0}\\u{1b}[2J3\\r\nnext \\u{1b} line\n"
        );
        assert!(matches!(terminal_text("a\n\tb\\"), Cow::Borrowed(_)));
    }

    #[test]
    fn html_and_markdown_show_the_text_as_it_is() {
        assert_eq!(
            html_text("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;"
        );
        assert_eq!(
            markdown_text("**b** [l](u) <i>&amp; # x_y"),
            "\\*\\*b\\*\\* \\[l\\]\\(u\\) &lt;i\\>&amp;amp\\; \\# x\\_y"
        );
        assert_eq!(markdown_code_block("a\n"), "```text\na\n```\n");
        assert_eq!(
            markdown_code_block("x ```` y\n```"),
            "`````text\nx ```` y\n```\n`````\n"
        );
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(printable("c4,1,-3,-3,Infinity"), Cow::Borrowed(_)));
    }

    #[test]
    fn terminal_escapes_line_breaks_and_nul_are_escaped() {
        assert_eq!(
            printable("\u{1b}[2J\rPASS\ncase\0\u{7f}\u{9b}"),
            "\\u{1b}[2J\\rPASS\\ncase\\u{0}\\u{7f}\\u{9b}"
        );
    }

    #[test]
    fn a_backslash_cannot_fake_an_escape() {
        assert_eq!(printable("\\n"), "\\\\n");
    }

    #[test]
    fn bidi_overrides_are_escaped() {
        assert_eq!(printable("a\u{202e}b"), "a\\u{202e}b");
    }

    #[test]
    fn json_strings_and_keys_lose_their_control_characters() {
        let mut value = serde_json::json!({
            "a\u{1b}": ["x\u{1b}[2J", {"output": "line\n\tnext\r"}],
            "n": 1,
        });
        printable_json(&mut value);
        assert_eq!(
            value,
            serde_json::json!({
                "a\\u{1b}": ["x\\u{1b}[2J", {"output": "line\n\tnext\\r"}],
                "n": 1,
            })
        );
    }

    #[test]
    fn invalid_utf8_shows_its_bytes() {
        assert_eq!(printable_bytes(b"ok\xff\x1b"), "ok\\xff\\u{1b}");
    }
}
