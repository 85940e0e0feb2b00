//! The tree as one self-contained HTML page: the kept log as compact JSON in the
//! page, and a hand-written script (`page.js`, no library, nothing fetched) that
//! draws only the rows on screen, so that the page stays fast at any size.
//!
//! Text from a log reaches the page only inside the JSON (where `<` is written
//! `\u003c`, so it cannot end the script element) and is put on screen as text,
//! never as markup; text in the page's own HTML is escaped here.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::diff::Diff;
use super::{Limits, Tree};
use crate::explain::replay::Position;

/// The page's script, written by hand.
const SCRIPT: &str = include_str!("page.js");

/// The page's style sheet (the practice page's too).
pub(super) const STYLE: &str = include_str!("page.css");

/// A student's log against ours: the first difference, as `check` explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The 1-based line of the first difference.
    pub line: usize,
    /// Our line there, if our output has it.
    pub expected: Option<String>,
    /// The student's line there, if the log has it.
    pub actual: Option<String>,
    /// The known mistake's name, if it is one.
    pub mistake: Option<String>,
    /// What is wrong, in words.
    pub explanation: String,
}

/// What the page says besides the tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageText {
    /// The page's title.
    pub title: String,
    /// Facts shown under the title.
    pub notes: Vec<String>,
    /// Warnings, shown in red.
    pub warnings: Vec<String>,
    /// With a student's log: where it first differs from ours (the node
    /// [`Tree::differs`] names is the one outlined).
    pub comparison: Option<Comparison>,
    /// With a student's log and the input: the student's tree against ours, marked
    /// on the tree drawn.
    pub diff: Option<Diff>,
}

/// The kept nodes under which this many would be drawn at once; past it the page
/// opens less deep.
const OPEN_ROWS: usize = 400;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A string as a JSON string that is safe inside a script element.
fn json_string(text: &str) -> String {
    serde_json::to_string(text)
        .expect("a string is JSON")
        .replace('<', "\\u003c")
}

/// The strings of the page (names and fields), each written once.
#[derive(Default)]
struct Strings {
    index: HashMap<String, usize>,
    list: Vec<String>,
}

impl Strings {
    fn id(&mut self, text: &str) -> usize {
        if let Some(&id) = self.index.get(text) {
            return id;
        }
        self.list.push(text.to_string());
        self.index.insert(text.to_string(), self.list.len() - 1);
        self.list.len() - 1
    }
}

/// Writes `values` as a JSON array.
fn write_array(out: &mut String, key: &str, values: impl IntoIterator<Item = i64>) {
    let _ = write!(out, "\"{key}\":[");
    let mut buffer = itoa::Buffer::new();
    for (i, value) in values.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(buffer.format(value));
    }
    out.push_str("],\n");
}

/// The page's data: the kept nodes and prints, and what the script needs besides.
///
/// `nodes`: for each node, in visit order, its name (an index into `strings`), how
/// many nodes before it its parent is (0 for the root), and how many visits after
/// the node before it it comes. `prints`: for each kept line, in log order, its
/// node, its fields (an index into `strings`) and how many file lines after the
/// kept line before it it is. `cuts`: `[node, cause name, cause node or -1,
/// returned value, skipped names or null]`. `diff` (or null): `extra` and `changed`
/// node lists, `notes`: `[node, [texts]]` for the changed nodes, `missing`: `[under,
/// name, nodes below, [our lines]]`, `ourCuts`: `[node, text]`.
pub fn data(
    tree: &Tree,
    root: Option<Position>,
    comparison: Option<&Comparison>,
    diff: Option<&Diff>,
) -> String {
    let mut strings = Strings::default();
    let mut out = String::from("{\n");
    let mut previous_visit = 0;
    let nodes: Vec<i64> = tree
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(id, node)| {
            let gap = node.visit - previous_visit;
            previous_visit = node.visit;
            [
                strings.id(&node.name) as i64,
                node.parent.map_or(0, |p| (id - p) as i64),
                gap as i64,
            ]
        })
        .collect();
    write_array(&mut out, "nodes", nodes);
    let mut previous_line = 0;
    let prints: Vec<i64> = tree
        .prints
        .iter()
        .flat_map(|print| {
            let gap = print.line - previous_line;
            previous_line = print.line;
            [
                print.node as i64,
                strings.id(&print.fields) as i64,
                gap as i64,
            ]
        })
        .collect();
    write_array(&mut out, "prints", prints);
    let hidden = tree.nodes.iter().enumerate().filter(|(_, n)| n.hidden > 0);
    write_array(
        &mut out,
        "hidden",
        hidden.flat_map(|(id, n)| [id as i64, n.hidden as i64]),
    );
    let illegal = tree.nodes.iter().enumerate().filter(|(_, n)| n.illegal);
    write_array(&mut out, "illegal", illegal.map(|(id, _)| id as i64));
    let chosen = tree.nodes.iter().enumerate().filter(|(_, n)| n.chosen);
    write_array(&mut out, "chosen", chosen.map(|(id, _)| id as i64));
    out.push_str("\"cuts\":[");
    let mut first = true;
    for (id, node) in tree.nodes.iter().enumerate() {
        let Some(cut) = &node.cut else { continue };
        let skipped = match &cut.skipped {
            None => "null".to_string(),
            Some(moves) => {
                let ids: Vec<String> = moves.iter().map(|m| strings.id(m).to_string()).collect();
                format!("[{}]", ids.join(","))
            }
        };
        let _ = write!(
            out,
            "{}[{id},{},{},{},{skipped}]",
            if first { "" } else { "," },
            strings.id(&cut.by),
            cut.by_node.map_or(-1, |n| n as i64),
            strings.id(&cut.returned),
        );
        first = false;
    }
    out.push_str("],\n");
    let optional = |text: Option<&str>| text.map_or("null".to_string(), json_string);
    let cells = root.map(Position::cells);
    let _ = writeln!(out, "\"board\":{},", optional(cells.as_deref()));
    let to_move = root.map(|r| char::from(r.player.symbol()).to_string());
    let _ = writeln!(out, "\"toMove\":{},", optional(to_move.as_deref()));
    let open_at = tree.differs.or(tree.focus).map_or(-1, |n| n as i64);
    let _ = writeln!(out, "\"openAt\":{open_at},");
    let differs = tree.differs.map_or(-1, |n| n as i64);
    let _ = writeln!(out, "\"differs\":{differs},");
    let comparison = match comparison {
        None => "null".to_string(),
        Some(c) => format!(
            "{{\"line\":{},\"expected\":{},\"actual\":{},\"mistake\":{},\"explanation\":{}}}",
            c.line,
            optional(c.expected.as_deref()),
            optional(c.actual.as_deref()),
            optional(c.mistake.as_deref()),
            json_string(&c.explanation)
        ),
    };
    let _ = writeln!(out, "\"comparison\":{comparison},");
    let texts = |list: &[String]| {
        let ids: Vec<String> = list.iter().map(|t| json_string(t)).collect();
        format!("[{}]", ids.join(","))
    };
    let diff = match diff {
        None => "null".to_string(),
        Some(d) => {
            let numbers = |list: &[usize]| {
                let ids: Vec<String> = list.iter().map(usize::to_string).collect();
                format!("[{}]", ids.join(","))
            };
            let changed: Vec<usize> = d.changed.iter().map(|(n, _)| *n).collect();
            let notes: Vec<String> = d
                .changed
                .iter()
                .map(|(n, list)| format!("[{n},{}]", texts(list)))
                .collect();
            let missing: Vec<String> = d
                .missing
                .iter()
                .map(|m| {
                    format!(
                        "[{},{},{},{}]",
                        m.under,
                        json_string(&m.name),
                        m.below,
                        texts(&m.lines)
                    )
                })
                .collect();
            let cuts: Vec<String> = d
                .our_cuts
                .iter()
                .map(|(n, text)| format!("[{n},{}]", json_string(text)))
                .collect();
            format!(
                "{{\"extra\":{},\"changed\":{},\"notes\":[{}],\"missing\":[{}],\"ourCuts\":[{}],\"notShown\":{}}}",
                numbers(&d.extra),
                numbers(&changed),
                notes.join(","),
                missing.join(","),
                cuts.join(","),
                d.not_shown
            )
        }
    };
    let _ = writeln!(out, "\"diff\":{diff},");
    let _ = writeln!(out, "\"logLines\":{},", tree.log_lines);
    let _ = writeln!(out, "\"visits\":{},", tree.visits);
    let _ = writeln!(out, "\"openRows\":{OPEN_ROWS},");
    let list: Vec<String> = strings.list.iter().map(|s| json_string(s)).collect();
    let _ = writeln!(out, "\"strings\":[{}]", list.join(","));
    out.push('}');
    out
}

/// What the page says about the nodes it does not hold, and how to see them.
pub fn limits_notice(tree: &Tree) -> Vec<String> {
    let mut notices = Vec::new();
    let Limits {
        depth,
        focus,
        max_nodes,
    } = &tree.limits;
    let dropped = tree.dropped;
    if let Some(node) = tree.focus {
        notices.push(format!(
            "Focused on {}: the path to it, the nodes beside that path and its subtree; \
             the other {} nodes are counted (+N), not drawn.",
            tree.path_text(node),
            dropped.focus
        ));
    }
    if let (Some(depth), true) = (depth, dropped.depth > 0) {
        notices.push(format!(
            "Nodes deeper than --depth {depth} ({}) are counted (+N), not drawn.",
            dropped.depth
        ));
    }
    if dropped.count > 0 {
        let mut cumulative = 0;
        let fitting = tree
            .visits_by_depth
            .iter()
            .take_while(|&&count| {
                cumulative += count;
                cumulative <= *max_nodes as u64
            })
            .count();
        let example = tree.nodes[0]
            .children
            .first()
            .map_or_else(|| "d3".to_string(), |&c| tree.nodes[c].name.clone());
        let focus_hint = if focus.is_empty() {
            format!("--focus \"{example}\" (one node with its subtree and the path to it)")
        } else {
            "a deeper --focus".to_string()
        };
        let depth_hint = match fitting.checked_sub(1) {
            Some(depth) => format!(" or --depth {depth} (every node down to that depth)"),
            None => String::new(),
        };
        notices.push(format!(
            "This page shows the first {} of the log's {} nodes (in the order visited, with \
             every line they print); the {} visited later are counted (+N), not drawn. To see \
             them, narrow it: {focus_hint}{depth_hint}.",
            group(tree.nodes.len() as u64),
            group(tree.visits),
            group(dropped.count),
        ));
    }
    notices
}

/// A count with thousands separated: `7,671,092`.
pub fn group(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The header line naming where a student's log first differs: the same node the
/// tree outlines ([`Tree::differs`]).
pub fn difference_heading(tree: &Tree, comparison: &Comparison) -> String {
    let mistake = comparison.mistake.as_deref().unwrap_or("differs");
    match tree.differs {
        Some(node) => format!(
            "First difference from our output: line {}, at {} (outlined in red): {mistake}",
            comparison.line,
            tree.path_text(node)
        ),
        None => format!(
            "First difference from our output: line {}: {mistake}",
            comparison.line
        ),
    }
}

/// The whole page. No outside resources.
pub fn html(tree: &Tree, root: Option<Position>, text: &PageText) -> String {
    let mut notes = String::new();
    if let Some(comparison) = &text.comparison {
        let _ = writeln!(
            notes,
            "<div class=\"difference\" id=\"difference\">{}</div>",
            escape(&difference_heading(tree, comparison))
        );
        // No node to open on (the next board differs): the explanation goes here.
        if tree.differs.is_none() {
            let _ = writeln!(
                notes,
                "<div class=\"note\">{}</div>",
                escape(&comparison.explanation)
            );
        }
    }
    if let Some(diff) = &text.diff {
        let missing: u64 = diff.missing.iter().map(|m| 1 + m.below).sum();
        let _ = writeln!(
            notes,
            "<div class=\"note\" id=\"diff-summary\">Your tree against ours, node by node: {}              only in ours (missing from yours, green), {} only in yours (extra, purple), {} in              both that print otherwise (red){}.</div>",
            group(missing),
            group(diff.extra.len() as u64),
            group(diff.changed.len() as u64),
            if diff.not_shown > 0 {
                format!(
                    "; {} more differences lie among the nodes not drawn",
                    group(diff.not_shown as u64)
                )
            } else {
                String::new()
            }
        );
    }
    for warning in &text.warnings {
        let _ = writeln!(notes, "<div class=\"warning\">{}</div>", escape(warning));
    }
    for note in text.notes.iter().chain(&limits_notice(tree)) {
        let _ = writeln!(notes, "<div class=\"note\">{}</div>", escape(note));
    }
    let boards = if root.is_some() {
        "select a node to see its board"
    } else {
        "boards need the input file"
    };
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>{title}</h1>
{notes}<div id="controls">
<form id="search-form"><input id="search" type="search" placeholder="go to a path: d3 c3" aria-label="go to a path" autocomplete="off"> <button type="submit">Go</button></form>
<span class="group">step through the log: <button id="step-first" title="the log's first line">start</button><button id="step-back" title="the line before (p)">◀ back</button><button id="step-next" title="the next line (n)">next ▶</button><button id="step-last" title="the whole log">end</button> <span id="step-status"></span></span>
<span class="group"><button id="expand-all">expand all</button><button id="collapse-all">collapse all</button></span>
</div>
<div class="legend"><span class="key disc-x">X: black discs</span><span class="key disc-o">O: white discs</span>{to_move}<span class="key chosen">chosen line</span><span class="key max">MAX</span><span class="key min">MIN</span><span class="key cause">caused a cut-off</span><span class="key skipped">not searched</span>{diff_keys}<span>v, α, β as last printed; #N the order of the visit; lines: every log line the node printed. Keys: ↑ ↓ move, → open, ← close, n / p step, / search.</span></div>
<div id="status"></div>
</header>
<main>
<div id="pane"><div id="pathbar"></div><div id="tree" tabindex="0"><div id="canvas"></div></div></div>
<aside id="detail">{boards}</aside>
</main>
<script type="application/json" id="data">{data}</script>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        title = escape(&text.title),
        diff_keys = if text.diff.is_some() {
            "<span class=\"key missing\">only in ours</span><span class=\"key extra\">only in yours</span><span class=\"key changed\">differs</span>"
        } else {
            ""
        },
        to_move = root.map_or(String::new(), |r| format!(
            "<span>{} to move at the root: MAX</span>",
            char::from(r.player.symbol())
        )),
        data = data(tree, root, text.comparison.as_ref(), text.diff.as_ref()),
    )
}
