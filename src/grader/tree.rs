//! `tree`: the alpha-beta tree of a traverse log as a picture, a self-contained HTML
//! page with an inline SVG, or as an indented outline.
//!
//! The tree is rebuilt from log lines (ours, from an input, or a student's file), so
//! it shows exactly what a log says. With the input known, every node also gets its
//! board, and the moves a cut-off skipped are named.

use std::fmt::Write as _;

use thiserror::Error;

use super::log::{self, Entry};
use super::replay::{square_of, Position};
use crate::board::Squares;

/// Why a log cannot be drawn.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TreeError {
    /// The log has no line after its header.
    #[error("the log is empty: expected the header line and then root,0,...")]
    Empty,
    /// A line that does not fit the tree: no depth, or a depth that skips a level.
    #[error("line {line}: {what}")]
    BadLine {
        /// The 1-based line of the file.
        line: usize,
        /// What is wrong.
        what: String,
    },
}

/// One node of the tree, with every line the log printed for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// `root`, `pass` or a cell.
    pub name: String,
    /// Its depth.
    pub depth: u32,
    /// The 1-based file line of each print.
    pub lines: Vec<usize>,
    /// Each print's fields after the depth: value, alpha, beta (or value alone).
    pub prints: Vec<Vec<String>>,
    /// Its children in log order.
    pub children: Vec<Node>,
    /// Nodes below it that are not drawn (deeper than the collapse depth).
    pub hidden: u64,
    /// The board at this node (row-major `X`, `O`, `*`), when the root is known and
    /// the path is made of legal moves.
    pub board: Option<String>,
    /// Legal moves after the last visited child that a cut-off skipped.
    pub pruned: Vec<String>,
    /// The node's last print reached its cut-off after a child (v >= beta at MAX,
    /// v <= alpha at MIN): the rest of its children were pruned.
    pub cut: bool,
    /// On the chosen line: from the root, each first child with its parent's value.
    pub chosen: bool,
    /// Where the log first differs from the expected one (see [`Tree::mark_line`]).
    pub differs: bool,
}

impl Node {
    /// Whether the root's player moves here: even depths.
    pub fn is_max(&self) -> bool {
        log::is_max_depth(self.depth)
    }

    /// The value of the last print.
    pub fn value(&self) -> &str {
        self.prints
            .last()
            .and_then(|p| p.first())
            .map_or("?", String::as_str)
    }

    /// The label of the stub drawn after the last child for what a cut-off skipped:
    /// the pruned moves, or just the cut-off when the boards are unknown.
    pub fn pruned_label(&self) -> Option<String> {
        if !self.pruned.is_empty() {
            Some(format!("✂ pruned: {}", self.pruned.join(" ")))
        } else if self.cut && self.board.is_none() {
            Some("✂ cut-off: the rest is pruned".into())
        } else {
            None
        }
    }

    /// Nodes in this subtree, itself included, drawn or not.
    pub fn size(&self) -> u64 {
        1 + self.hidden + self.children.iter().map(Node::size).sum::<u64>()
    }
}

/// A rebuilt tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The root node.
    pub root: Node,
    /// Nodes deeper than this are counted, not drawn.
    pub collapse_below: u32,
}

/// A node being built, with the position it holds.
struct Open {
    node: Node,
    position: Option<Position>,
}

impl Tree {
    /// Rebuilds the tree from the lines of an output file (board, header, log), each
    /// without its line end. `root` gives the boards; nodes deeper than
    /// `collapse_below` are only counted.
    pub fn from_output(
        lines: &[&str],
        root: Option<Position>,
        collapse_below: u32,
    ) -> Result<Tree, TreeError> {
        let start = lines
            .iter()
            .position(|l| l.starts_with("Node,"))
            .map_or(log::LOG_START, |header| header + 1);
        let entries = lines
            .iter()
            .enumerate()
            .skip(start)
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, Entry::parse(l)));
        let mut stack: Vec<Open> = Vec::new();
        let mut previous_depth: Option<u32> = None;
        for (line, entry) in entries {
            let bad = |what: String| TreeError::BadLine { line, what };
            let depth = entry
                .depth
                .ok_or_else(|| bad("expected name,depth,value,...".into()))?;
            let first_print = previous_depth.is_none_or(|p| p + 1 == depth);
            previous_depth = Some(depth);
            if depth > collapse_below {
                let anchor = stack
                    .get_mut(collapse_below as usize)
                    .ok_or_else(|| bad(format!("depth {depth} has no parent")))?;
                if first_print {
                    anchor.node.hidden += 1;
                }
                continue;
            }
            let depth_index = depth as usize;
            close_to(&mut stack, depth_index + 1);
            let print: Vec<String> = entry.values.iter().map(|v| v.to_string()).collect();
            let open_here = stack.len() == depth_index + 1;
            if !first_print && open_here {
                if let Some(open) = stack.last_mut().filter(|o| o.node.name == entry.name) {
                    open.node.prints.push(print);
                    open.node.lines.push(line);
                    continue;
                }
            }
            close_to(&mut stack, depth_index);
            if stack.len() != depth_index {
                return Err(bad(format!(
                    "{} at depth {depth} has no parent at depth {}",
                    entry.name,
                    depth_index.saturating_sub(1)
                )));
            }
            let position = match stack.last() {
                None => root,
                Some(parent) => parent.position.and_then(|p| p.child(entry.name)),
            };
            stack.push(Open {
                node: Node {
                    name: entry.name.to_string(),
                    depth,
                    lines: vec![line],
                    prints: vec![print],
                    children: Vec::new(),
                    hidden: 0,
                    board: position.map(Position::cells),
                    pruned: Vec::new(),
                    cut: false,
                    chosen: false,
                    differs: false,
                },
                position,
            });
        }
        close_to(&mut stack, 1);
        let mut open = stack.pop().ok_or(TreeError::Empty)?;
        finish(&mut open);
        let mut root = open.node;
        mark_chosen(&mut root);
        Ok(Tree {
            root,
            collapse_below,
        })
    }

    /// Marks the node printed on file line `line`, or, if no node was printed
    /// there (a line missing from this log), the last node printed before it: where
    /// the log first differs from the expected one. Returns whether one was marked.
    pub fn mark_line(&mut self, line: usize) -> bool {
        fn last_before(node: &Node, line: usize) -> Option<usize> {
            let own = node.lines.iter().copied().filter(|&l| l <= line).max();
            let below = node
                .children
                .iter()
                .filter_map(|c| last_before(c, line))
                .max();
            own.max(below)
        }
        fn mark(node: &mut Node, line: usize) -> bool {
            if node.lines.contains(&line) {
                node.differs = true;
                return true;
            }
            node.children.iter_mut().any(|c| mark(c, line))
        }
        match last_before(&self.root, line) {
            Some(printed) => mark(&mut self.root, printed),
            None => false,
        }
    }

    /// The tree as indented text, one node a line: name, kind, each print, and
    /// marks for the chosen line, cut-offs, pruned moves and hidden nodes.
    pub fn outline(&self) -> String {
        let mut out = String::new();
        outline_node(&self.root, &mut out);
        out
    }
}

/// Closes open nodes until `len` remain (the root always stays), attaching each to
/// its parent.
fn close_to(stack: &mut Vec<Open>, len: usize) {
    while stack.len() > len.max(1) {
        let mut open = stack.pop().expect("longer than len");
        finish(&mut open);
        stack
            .last_mut()
            .expect("a parent")
            .node
            .children
            .push(open.node);
    }
}

/// Sets `cut` and `pruned` once a node's prints and children are all known.
fn finish(open: &mut Open) {
    let node = &mut open.node;
    if node.children.is_empty() {
        return;
    }
    let last = node.prints.last().cloned().unwrap_or_default();
    let number = |i: usize| last.get(i).and_then(|v| log::parse_value(v));
    let cut = match (number(0), number(1), number(2)) {
        (Some(v), Some(alpha), Some(beta)) => log::reaches_cutoff(node.depth, v, alpha, beta),
        _ => false,
    };
    node.cut = cut;
    if let (true, Some(Position { board, .. })) = (cut, open.position) {
        let last_child = node.children.last().and_then(|c| square_of(&c.name));
        node.pruned = Squares(board.moves())
            .filter(|s| last_child.is_some_and(|l| s.index() > l.index()))
            .map(|s| s.to_string())
            .collect();
    }
}

fn mark_chosen(node: &mut Node) {
    node.chosen = true;
    let value = node.value().to_string();
    if let Some(child) = node.children.iter_mut().find(|c| c.value() == value) {
        mark_chosen(child);
    }
}

fn outline_node(node: &Node, out: &mut String) {
    let indent = "  ".repeat(node.depth as usize);
    let prints: Vec<String> = node.prints.iter().map(|p| p.join(",")).collect();
    let _ = write!(
        out,
        "{indent}{} {} [{}]",
        node.name,
        if node.is_max() { "MAX" } else { "MIN" },
        prints.join(" | ")
    );
    if node.chosen {
        out.push_str(" chosen");
    }
    if node.differs {
        out.push_str(" DIFFERS");
    }
    if node.cut {
        out.push_str(" cut");
    }
    if !node.pruned.is_empty() {
        let _ = write!(out, " pruned: {}", node.pruned.join(" "));
    }
    if node.hidden > 0 {
        let _ = write!(out, " +{} hidden", node.hidden);
    }
    out.push('\n');
    for child in &node.children {
        outline_node(child, out);
    }
}

/// Box and spacing sizes of the drawing, in pixels.
const BOX_WIDTH: u32 = 170;
const BOX_HEIGHT: u32 = 44;
const COLUMN_GAP: u32 = 44;
const ROW_GAP: u32 = 10;
const MARGIN: u32 = 16;

/// A node's place in the drawing.
struct Placed<'a> {
    node: &'a Node,
    x: u32,
    y: u32,
    path: String,
    /// Indices of its children's places.
    children: Vec<usize>,
    /// The row of the stub for what its cut-off pruned, if it has one.
    stub_y: Option<u32>,
}

/// Lays out the tree left to right: one row per drawn leaf (a pruned stub takes a
/// row too), each parent level with its first child, so that the root and the
/// start of every line read from the top. Returns the node's index in `placed`.
fn layout<'a>(
    node: &'a Node,
    path: String,
    next_row: &mut u32,
    placed: &mut Vec<Placed<'a>>,
) -> usize {
    let index = placed.len();
    let row_y = |row: u32| MARGIN + row * (BOX_HEIGHT + ROW_GAP);
    placed.push(Placed {
        node,
        x: MARGIN + node.depth * (BOX_WIDTH + COLUMN_GAP),
        y: row_y(*next_row),
        path: path.clone(),
        children: Vec::new(),
        stub_y: None,
    });
    if node.children.is_empty() {
        *next_row += 1;
    }
    let children = node
        .children
        .iter()
        .map(|c| layout(c, format!("{path} > {}", c.name), next_row, placed))
        .collect();
    if node.pruned_label().is_some() {
        placed[index].stub_y = Some(row_y(*next_row));
        *next_row += 1;
    }
    placed[index].children = children;
    index
}

/// An edge from the right of a box at (`x1`, `y1`) to the left of one at
/// (`x2`, `y2`): right, down the column gap, right. Siblings share the trunk.
fn elbow(out: &mut String, class: &str, (x1, y1): (u32, u32), (x2, y2): (u32, u32)) {
    let trunk = x1 + COLUMN_GAP / 2;
    let _ = writeln!(
        out,
        r#"<path class="{class}" d="M{x1},{y1} H{trunk} V{y2} H{x2}"/>"#
    );
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A value for the picture: `∞` for Infinity.
fn short(value: &str) -> String {
    value.replace("Infinity", "∞")
}

/// The SVG of the tree.
pub fn svg(tree: &Tree) -> String {
    let mut placed = Vec::new();
    let mut rows = 0;
    layout(&tree.root, "root".into(), &mut rows, &mut placed);
    let columns = placed.iter().map(|p| p.node.depth).max().unwrap_or(0) + 1;
    let width = 2 * MARGIN + columns * (BOX_WIDTH + COLUMN_GAP) + 60;
    let height = 2 * MARGIN + rows.max(1) * (BOX_HEIGHT + ROW_GAP);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
    );
    // Edges first, so boxes cover their ends; the chosen line over the others.
    let middle_of = |p: &Placed| p.y + BOX_HEIGHT / 2;
    for chosen in [false, true] {
        for parent in &placed {
            for &child in &parent.children {
                let to = &placed[child];
                if to.node.chosen == chosen {
                    let class = if chosen { "edge chosen" } else { "edge" };
                    let from = (parent.x + BOX_WIDTH, middle_of(parent));
                    elbow(&mut out, class, from, (to.x, middle_of(to)));
                }
            }
        }
    }
    for parent in &placed {
        let (Some(label), Some(y)) = (parent.node.pruned_label(), parent.stub_y) else {
            continue;
        };
        let x = parent.x + BOX_WIDTH + COLUMN_GAP;
        let height = BOX_HEIGHT / 2;
        elbow(
            &mut out,
            "edge pruned",
            (parent.x + BOX_WIDTH, middle_of(parent)),
            (x, y + height / 2),
        );
        let _ = writeln!(
            out,
            r#"<g class="stub"><rect x="{x}" y="{y}" width="{BOX_WIDTH}" height="{height}" rx="6"/><text x="{}" y="{}">{}</text></g>"#,
            x + 8,
            y + height / 2 + 4,
            escape(&label)
        );
    }
    for placed_node in &placed {
        draw_node(placed_node, &mut out);
    }
    out.push_str("</svg>\n");
    out
}

fn draw_node(placed: &Placed, out: &mut String) {
    let node = placed.node;
    let mut classes = vec!["node", if node.is_max() { "max" } else { "min" }];
    if node.children.is_empty() && node.hidden == 0 {
        classes.push("leaf");
    }
    if node.chosen {
        classes.push("chosen");
    }
    if node.differs {
        classes.push("differs");
    }
    let board = node
        .board
        .as_ref()
        .map_or(String::new(), |b| format!(r#" data-board="{b}""#));
    let last = node.prints.last().cloned().unwrap_or_default();
    let field = |i: usize| last.get(i).map_or(String::new(), |v| short(v));
    let window = if last.len() >= 3 {
        format!("α {}  β {}", field(1), field(2))
    } else {
        String::new()
    };
    let prints: Vec<String> = node
        .prints
        .iter()
        .map(|p| format!("{},{},{}", node.name, node.depth, p.join(",")))
        .collect();
    let (x, y) = (placed.x, placed.y);
    let _ = writeln!(
        out,
        r#"<g class="{}" data-path="{}"{board}><title>{} (line {})&#10;{}</title><rect x="{x}" y="{y}" width="{BOX_WIDTH}" height="{BOX_HEIGHT}" rx="6"/><text x="{}" y="{}"><tspan class="name">{}</tspan><tspan class="kind" dx="6">{}</tspan><tspan class="value" dx="8">{}</tspan></text><text class="window" x="{}" y="{}">{}</text>"#,
        classes.join(" "),
        escape(&placed.path),
        escape(&placed.path),
        node.lines[0],
        escape(&prints.join("\n")).replace('\n', "&#10;"),
        x + 8,
        y + 18,
        escape(&node.name),
        if node.is_max() { "MAX" } else { "MIN" },
        escape(&short(node.value())),
        x + 8,
        y + 36,
        escape(&window),
    );
    if node.hidden > 0 {
        let _ = write!(
            out,
            r#"<text class="hidden" x="{}" y="{}">▸ {} more below</text>"#,
            x + BOX_WIDTH + 6,
            y + BOX_HEIGHT / 2 + 4,
            node.hidden
        );
    }
    out.push_str("</g>\n");
}

const STYLE: &str = r#"
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { padding: 10px 16px; background: #fff; border-bottom: 1px solid #ddd; }
h1 { font-size: 18px; margin: 0 0 4px 0; }
.legend span { margin-right: 14px; font-size: 13px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; vertical-align: middle; margin-right: 4px; }
main { display: flex; align-items: flex-start; }
#tree { flex: 1; overflow: auto; }
aside { position: sticky; top: 0; width: 260px; padding: 12px; background: #fff; border-left: 1px solid #ddd; min-height: 300px; font-size: 13px; }
.node rect { fill: #fff; stroke: #888; stroke-width: 1.2; }
.node.min rect { fill: #f3f6ff; }
.node.leaf rect { fill: #fffbe8; }
.node.chosen rect { stroke: #e07000; stroke-width: 3; }
.node.differs rect { stroke: #d00; stroke-width: 4; fill: #ffe0e0; }
.note { color: #b00; font-size: 14px; margin: 4px 0; }
.node:hover rect { stroke: #0060c0; stroke-width: 3; cursor: pointer; }
.node .name { font-weight: bold; font-size: 14px; }
.node .kind { fill: #777; font-size: 10px; }
.node .value { font-weight: bold; }
.node .window { fill: #555; font-size: 11px; }
.node .hidden { fill: #777; font-size: 11px; font-style: italic; }
.edge { fill: none; stroke: #aaa; stroke-width: 1.3; }
.edge.chosen { stroke: #e07000; stroke-width: 3; }
.edge.pruned { stroke: #c33; stroke-dasharray: 5 4; }
.stub rect { fill: #fff0f0; stroke: #c33; stroke-dasharray: 5 4; }
.stub text { fill: #a22; font-size: 12px; }
"#;

const SCRIPT: &str = r##"
function drawBoard(board, caption) {
  const aside = document.getElementById("board");
  if (!board) { return; }
  let s = '<div><b>' + caption.replace(/&/g, "&amp;").replace(/</g, "&lt;") + '</b></div>';
  s += '<svg width="236" height="236" viewBox="0 0 236 236">';
  const files = "abcdefgh";
  for (let c = 0; c < 8; c++) { s += '<text x="' + (30 + c * 25) + '" y="14" font-size="11" text-anchor="middle">' + files[c] + '</text>'; }
  for (let r = 0; r < 8; r++) {
    s += '<text x="6" y="' + (36 + r * 25) + '" font-size="11">' + (r + 1) + '</text>';
    for (let c = 0; c < 8; c++) {
      const x = 18 + c * 25, y = 20 + r * 25, cell = board[r * 8 + c];
      s += '<rect x="' + x + '" y="' + y + '" width="25" height="25" fill="#2e8b57" stroke="#1b5e3a"/>';
      if (cell === "X" || cell === "O") {
        s += '<circle cx="' + (x + 12.5) + '" cy="' + (y + 12.5) + '" r="10" fill="' + (cell === "X" ? "#111" : "#f4f4f4") + '" stroke="#333"/>';
      }
    }
  }
  s += '</svg><div>X black, O white</div>';
  aside.innerHTML = s;
}
for (const g of document.querySelectorAll("g.node[data-board]")) {
  const show = () => drawBoard(g.dataset.board, g.dataset.path);
  g.addEventListener("mouseenter", show);
  g.addEventListener("click", show);
}
const chosen = [...document.querySelectorAll("g.node.chosen[data-board]")].pop();
if (chosen) { drawBoard(chosen.dataset.board, chosen.dataset.path + " (end of the chosen line)"); }
"##;

/// The whole page: a title, an optional note (where a log differs), a legend, the
/// SVG and a board panel (hover or click a node to see its board). No outside
/// resources.
pub fn html(tree: &Tree, title: &str, note: Option<&str>) -> String {
    let boards = if tree.root.board.is_some() {
        "hover or click a node to see its board"
    } else {
        "boards need the input file"
    };
    let drawn = tree.root.size() - hidden_total(&tree.root);
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
{note}<div class="legend"><span><span class="swatch" style="background:#e07000"></span>chosen line</span><span><span class="swatch" style="background:#fff;border:1px solid #888"></span>MAX</span><span><span class="swatch" style="background:#f3f6ff;border:1px solid #888"></span>MIN</span><span><span class="swatch" style="background:#fffbe8;border:1px solid #888"></span>leaf</span><span><span class="swatch" style="background:#fff0f0;border:1px dashed #c33"></span>pruned</span><span>value, α, β as last printed; {drawn} of {total} nodes drawn (deeper than {collapse} collapsed); {boards}</span></div>
</header>
<main>
<div id="tree">
{svg}</div>
<aside id="board">{boards}</aside>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        title = escape(title),
        note = note.map_or(String::new(), |n| format!(
            "<div class=\"note\">{}</div>\n",
            escape(n)
        )),
        total = tree.root.size(),
        collapse = tree.collapse_below,
        svg = svg(tree),
    )
}

fn hidden_total(node: &Node) -> u64 {
    node.hidden + node.children.iter().map(hidden_total).sum::<u64>()
}
