//! Reading a traverse log back: its lines as nodes, values, and the path of each
//! node in the tree. Tolerant of what students write (floats, odd spacing), so that
//! `check` can say what is wrong and `tree` can draw a student's log.

use crate::course_search::INFINITY;

/// The header of an alpha-beta log.
pub const ALPHA_BETA_HEADER: &str = "Node,Depth,Value,Alpha,Beta";

/// The header of a minimax log (f2014 task 2).
pub const MINIMAX_HEADER: &str = "Node,Depth,Value";

/// Lines of an output file before the log: the 8 board rows and the header.
pub const LOG_START: usize = 9;

/// One line of a traverse log, split into its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The node's name: `root`, `pass` or a cell such as `d3`.
    pub name: &'a str,
    /// The depth, when the second field is a whole number.
    pub depth: Option<u32>,
    /// The value, alpha and beta fields as written (minimax logs have only the value).
    pub values: Vec<&'a str>,
}

impl<'a> Entry<'a> {
    /// Splits one log line at its commas.
    pub fn parse(text: &'a str) -> Entry<'a> {
        let mut fields = text.split(',').map(str::trim);
        let name = fields.next().unwrap_or("");
        let depth = fields.next().and_then(|d| d.parse().ok());
        Entry {
            name,
            depth,
            values: fields.collect(),
        }
    }

    /// The value field as a number (see [`parse_value`]).
    pub fn value(&self) -> Option<i32> {
        self.values.first().and_then(|v| parse_value(v))
    }

    /// The alpha field as a number.
    pub fn alpha(&self) -> Option<i32> {
        self.values.get(1).and_then(|v| parse_value(v))
    }

    /// The beta field as a number.
    pub fn beta(&self) -> Option<i32> {
        self.values.get(2).and_then(|v| parse_value(v))
    }

    /// Whether this node is a MAX node (see [`is_max_depth`]).
    pub fn is_max(&self) -> bool {
        self.depth.is_some_and(is_max_depth)
    }

    /// Whether this print shows the node at its cut-off (see [`reaches_cutoff`]).
    pub fn reaches_cutoff(&self) -> bool {
        match (self.depth, self.value(), self.alpha(), self.beta()) {
            (Some(depth), Some(v), Some(alpha), Some(beta)) => {
                reaches_cutoff(depth, v, alpha, beta)
            }
            _ => false,
        }
    }
}

/// Whether nodes at `depth` are MAX nodes: the root's player moves at even depths
/// (a pass is a ply like any other).
pub fn is_max_depth(depth: u32) -> bool {
    depth.is_multiple_of(2)
}

/// Whether a node at `depth` with value `v` and window (`alpha`, `beta`) prunes its
/// remaining children: v >= beta at MAX, v <= alpha at MIN (equality prunes).
pub fn reaches_cutoff(depth: u32, v: i32, alpha: i32, beta: i32) -> bool {
    if is_max_depth(depth) {
        v >= beta
    } else {
        v <= alpha
    }
}

/// A value as the course prints it: a whole number, `Infinity` or `-Infinity`
/// ([`INFINITY`] and its negation).
pub fn parse_value(text: &str) -> Option<i32> {
    match text {
        "Infinity" => Some(INFINITY),
        "-Infinity" => Some(-INFINITY),
        _ => text.parse().ok(),
    }
}

/// A whole number written the way students' languages print floats (`0.0`, `-3.0`,
/// `1.0E2`): the number it stands for. `None` for anything else: values in the
/// course's form, and words (`inf`, `infinity`, `nan`), which Rust's own float parser
/// would accept (see [`parse_infinity_spelling`] for the spellings of infinity).
pub fn parse_float_value(text: &str) -> Option<i32> {
    let numeric = text.bytes().any(|b| b.is_ascii_digit())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !numeric || parse_value(text).is_some() {
        return None;
    }
    let number: f64 = text.parse().ok()?;
    (number.fract() == 0.0 && number.abs() < f64::from(INFINITY)).then_some(number as i32)
}

/// An infinity spelled otherwise than the course's `Infinity` and `-Infinity`: the
/// words `inf` and `infinity` in any case, with or without a sign (Python's and C's
/// `inf`, a hand-written `-infinity`), and the extreme integers that programs use for
/// infinity and print as numbers (`2147483647`, Java's `Integer.MAX_VALUE`;
/// `-2147483648`, `-2147483647`; the 64-bit ones). `INFINITY` or its negation; `None`
/// for anything else.
pub fn parse_infinity_spelling(text: &str) -> Option<i32> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let word = body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity");
    let extreme = matches!(
        body,
        "2147483647" | "2147483648" | "9223372036854775807" | "9223372036854775808"
    ) && (negative || !body.ends_with('8'));
    let course = matches!(text, "Infinity" | "-Infinity");
    ((word || extreme) && !course).then_some(if negative { -INFINITY } else { INFINITY })
}

/// The names of the nodes from the root to the node printed at `index`, e.g.
/// `["root", "d3", "c3"]`, rebuilt from the depths: a node at depth `d` is a child
/// of the last node printed at depth `d - 1`.
pub fn path_at<'a>(entries: &[Entry<'a>], index: usize) -> Vec<&'a str> {
    let mut stack: Vec<&'a str> = Vec::new();
    for entry in &entries[..=index.min(entries.len().saturating_sub(1))] {
        let depth = entry.depth.map_or(stack.len(), |d| d as usize);
        stack.truncate(depth);
        stack.push(entry.name);
    }
    stack
}

/// A path joined for people: `root > d3 > c3`.
pub fn path_text(path: &[&str]) -> String {
    path.join(" > ")
}

/// Whether the line at `index` is the first print of its node (its entry, or a
/// leaf): the line before it belongs to the parent, one level up.
pub fn is_first_print(entries: &[Entry], index: usize) -> bool {
    match (
        index.checked_sub(1).map(|i| entries[i].depth),
        entries[index].depth,
    ) {
        (None, _) => true,
        (Some(Some(before)), Some(depth)) => before + 1 == depth,
        _ => false,
    }
}

/// Whether the line at `index` prints a leaf: a first print not followed by a child.
pub fn is_leaf(entries: &[Entry], index: usize) -> bool {
    let next_is_child = entries.get(index + 1).is_some_and(|next| {
        next.depth
            .zip(entries[index].depth)
            .is_some_and(|(n, d)| n == d + 1)
    });
    is_first_print(entries, index) && !next_is_child
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_both_forms() {
        assert_eq!(parse_value("-Infinity"), Some(-INFINITY));
        assert_eq!(parse_value("-3"), Some(-3));
        assert_eq!(parse_value("0.0"), None);
        assert_eq!(parse_float_value("0.0"), Some(0));
        assert_eq!(parse_float_value("-3.0"), Some(-3));
        assert_eq!(parse_float_value("-inf"), None);
        assert_eq!(parse_float_value("infinity"), None);
        assert_eq!(parse_float_value("nan"), None);
        assert_eq!(parse_float_value("1.0E2"), Some(100));
        assert_eq!(parse_float_value("3"), None);
        assert_eq!(parse_float_value("2.5"), None);
    }

    #[test]
    fn spellings_of_infinity() {
        assert_eq!(parse_infinity_spelling("-inf"), Some(-INFINITY));
        assert_eq!(parse_infinity_spelling("inf"), Some(INFINITY));
        assert_eq!(parse_infinity_spelling("-infinity"), Some(-INFINITY));
        assert_eq!(parse_infinity_spelling("INF"), Some(INFINITY));
        assert_eq!(parse_infinity_spelling("2147483647"), Some(INFINITY));
        assert_eq!(parse_infinity_spelling("-2147483648"), Some(-INFINITY));
        assert_eq!(parse_infinity_spelling("2147483648"), None);
        assert_eq!(parse_infinity_spelling("Infinity"), None);
        assert_eq!(parse_infinity_spelling("-Infinity"), None);
        assert_eq!(parse_infinity_spelling("nan"), None);
        assert_eq!(parse_infinity_spelling("-3"), None);
    }

    #[test]
    fn paths_follow_depths() {
        let lines = [
            "root,0,a", "d3,1,a", "c3,2,a", "d3,1,a", "e3,2,a", "root,0,a",
        ];
        let entries: Vec<Entry> = lines.iter().map(|l| Entry::parse(l)).collect();
        assert_eq!(path_text(&path_at(&entries, 2)), "root > d3 > c3");
        assert_eq!(path_text(&path_at(&entries, 4)), "root > d3 > e3");
        assert_eq!(path_text(&path_at(&entries, 5)), "root");
        assert!(is_leaf(&entries, 2) && !is_leaf(&entries, 1) && !is_first_print(&entries, 3));
    }
}
