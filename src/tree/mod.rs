//! `tree`: the alpha-beta tree of a traverse log, rebuilt from its lines (ours, from
//! an input, or a student's file), so that it shows exactly what the log says: every
//! node with each line it printed, the order of the visits, and each cut-off with the
//! child that caused it and the moves it left unsearched. [`page`] draws it as one
//! self-contained HTML page, [`Tree::outline`] as indented text.
//!
//! A log can have millions of lines: [`Limits`] keep a part of it (the nodes visited
//! first, the nodes down to a depth, or one node with the path to it) and count the
//! rest on the nearest node kept.

pub mod diff;
pub mod page;
pub mod practice;

use std::fmt::Write as _;

use thiserror::Error;

use crate::board::Squares;
use crate::explain::log::{self, LOG_START};
use crate::explain::replay::{square_of, Position};
use crate::printable::printable;

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
    /// `--focus` names a node the log does not have.
    #[error("--focus {focus}: {parent} has no child {missing} (its children: {children})")]
    NoSuchNode {
        /// The focus as asked for.
        focus: String,
        /// The path of the deepest node found.
        parent: String,
        /// The name not found among its children.
        missing: String,
        /// The names of its children, or `none`.
        children: String,
    },
    /// `--depth` would drop the node `--focus` names.
    #[error("--focus {focus} is at depth {focus_depth}, below --depth {depth}")]
    FocusBelowDepth {
        /// The focus as asked for.
        focus: String,
        /// Its depth.
        focus_depth: usize,
        /// The depth asked for.
        depth: u32,
    },
}

/// The most nodes `reversi tree` keeps unless told otherwise: a page of about this
/// many opens in about a second (see the timings in docs/tree.md).
pub const DEFAULT_MAX_NODES: u64 = 200_000;

/// Which part of a log to keep; the other nodes are counted, not kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Keep nodes down to this depth (the root is at depth 0).
    pub depth: Option<u32>,
    /// Keep only the node at the end of this path of move names from the root (the
    /// root itself not named), its subtree, the nodes on the path to it and their
    /// children; empty: keep every node.
    pub focus: Vec<String>,
    /// Keep at most this many nodes, the first ones visited.
    pub max_nodes: usize,
}

impl Default for Limits {
    /// Keep everything.
    fn default() -> Limits {
        Limits {
            depth: None,
            focus: Vec::new(),
            max_nodes: usize::MAX,
        }
    }
}

/// Splits a path as people write it (`d3 c3`, `root > d3 > c3`, `d3,c3`) into move
/// names, without the root.
pub fn parse_path(text: &str) -> Vec<String> {
    let names = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '>' | '›' | '/'))
        .filter(|name| !name.is_empty());
    names
        .enumerate()
        .filter(|&(i, name)| !(i == 0 && name == "root"))
        .map(|(_, name)| name.to_string())
        .collect()
}

/// Why a node of the log was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// Deeper than [`Limits::depth`].
    Depth,
    /// Off the path to [`Limits::focus`] and outside its subtree.
    Focus,
    /// Visited after [`Limits::max_nodes`] nodes were kept.
    Count,
}

/// How many nodes of the log were not kept, for each reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DroppedCounts {
    /// Deeper than the depth limit.
    pub depth: u64,
    /// Outside the focus.
    pub focus: u64,
    /// Past the node limit.
    pub count: u64,
}

impl DroppedCounts {
    /// All nodes not kept.
    pub fn total(&self) -> u64 {
        self.depth + self.focus + self.count
    }

    fn add(&mut self, reason: Dropped) {
        match reason {
            Dropped::Depth => self.depth += 1,
            Dropped::Focus => self.focus += 1,
            Dropped::Count => self.count += 1,
        }
    }
}

/// One line of the log, kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Print {
    /// The 1-based line of the file.
    pub line: usize,
    /// The node that printed it (an index into [`Tree::nodes`]).
    pub node: usize,
    /// The fields after the depth, each trimmed, joined by commas: `-3,-Infinity,3`.
    pub fields: String,
}

impl Print {
    /// The field at `index`: 0 the value, 1 alpha, 2 beta.
    pub fn field(&self, index: usize) -> Option<&str> {
        self.fields.split(',').nth(index)
    }
}

/// A cut-off: after its last child a node's value reached its bound (v >= beta at
/// MAX, v <= alpha at MIN), so it returned without searching the moves after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The child that caused it: the node's last child.
    pub by: String,
    /// That child, if it was kept.
    pub by_node: Option<usize>,
    /// The value that child returned (its last print's value).
    pub returned: String,
    /// The legal moves after that child (positional order) that were not searched;
    /// `None` when the board is unknown (no input, or an illegal move above).
    pub skipped: Option<Vec<String>>,
}

/// One node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// `root`, `pass` or a cell, as the log names it.
    pub name: String,
    /// Its depth.
    pub depth: u32,
    /// Its parent, `None` for the root.
    pub parent: Option<usize>,
    /// Its kept children, in log order.
    pub children: Vec<usize>,
    /// Its prints (indices into [`Tree::prints`]), in log order.
    pub prints: Vec<usize>,
    /// Its place in the order of the visits: 1 for the root, 2 for the node the log
    /// visits next, and so on (counting the nodes not kept too).
    pub visit: u64,
    /// Nodes below it that were not kept, with no kept node between.
    pub hidden: u64,
    /// Its position, when the root's is known and every move down to it is legal.
    pub position: Option<Position>,
    /// Its move is not legal in its parent's position.
    pub illegal: bool,
    /// Its cut-off, if it has one.
    pub cut: Option<Cut>,
    /// On the chosen line: from the root, each first child with its parent's value.
    pub chosen: bool,
}

impl Node {
    /// Whether the root's player moves here: even depths.
    pub fn is_max(&self) -> bool {
        log::is_max_depth(self.depth)
    }

    /// `MAX` or `MIN`.
    pub fn kind(&self) -> &'static str {
        if self.is_max() {
            "MAX"
        } else {
            "MIN"
        }
    }
}

/// A rebuilt tree: the nodes kept, in the order of their visits, the lines they
/// printed, and what was not kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The nodes kept, the root first, in the order of their visits.
    pub nodes: Vec<Node>,
    /// The lines the kept nodes printed, in log order.
    pub prints: Vec<Print>,
    /// The lines of the whole log.
    pub log_lines: u64,
    /// The nodes of the whole log.
    pub visits: u64,
    /// The nodes of the whole log at each depth.
    pub visits_by_depth: Vec<u64>,
    /// The nodes not kept, by reason.
    pub dropped: DroppedCounts,
    /// The limits applied.
    pub limits: Limits,
    /// The node at the end of [`Limits::focus`], if one was asked for.
    pub focus: Option<usize>,
    /// Where the log first differs from the expected one (see [`Tree::mark_line`]).
    pub differs: Option<usize>,
}

/// A node of the log being read, open until the log leaves it.
struct Frame<'a> {
    name: &'a str,
    /// Its last print's fields, as written.
    fields: &'a str,
    /// Its index in [`Tree::nodes`], if kept.
    kept: Option<usize>,
    /// The nearest kept node: itself or an ancestor.
    anchor: usize,
    position: Option<Position>,
    /// Why its children are not kept, if they are not.
    children_dropped: Option<Dropped>,
    /// On the path to the focus, above it.
    on_path: bool,
    /// Its last child so far: name, last fields, index if kept.
    last_child: Option<(&'a str, &'a str, Option<usize>)>,
}

/// The lines of a file, without their line ends.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// The 0-based line where the log starts: after the header (`Node,...`), or after
/// the board and header's 9 lines when there is no header.
fn log_start(text: &str) -> usize {
    lines(text)
        .position(|l| l.starts_with("Node,"))
        .map_or(LOG_START, |header| header + 1)
}

/// The log lines of an output file (after the header) as entries.
pub fn log_entries(text: &str) -> impl Iterator<Item = log::Entry<'_>> {
    lines(text)
        .skip(log_start(text))
        .filter(|l| !l.trim().is_empty())
        .map(log::Entry::parse)
}

/// The move names from the root (not named) to the node that printed file line
/// `line`, or the last line before it: where to focus to see that line.
pub fn path_to_line(text: &str, line: usize) -> Vec<String> {
    let start = log_start(text);
    let mut path: Vec<&str> = Vec::new();
    for text in lines(text).take(line).skip(start) {
        if let (name, Some(depth), _) = split_line(text) {
            path.truncate(depth as usize);
            path.push(name);
        }
    }
    path.iter().skip(1).map(|name| name.to_string()).collect()
}

/// A log line's name, depth and the fields after the depth (as written).
fn split_line(text: &str) -> (&str, Option<u32>, &str) {
    let mut parts = text.splitn(3, ',');
    let name = parts.next().unwrap_or("").trim();
    let depth = parts.next().and_then(|d| d.trim().parse().ok());
    (name, depth, parts.next().unwrap_or(""))
}

/// The field at `index` of a line's fields, trimmed.
fn field(fields: &str, index: usize) -> Option<&str> {
    fields.split(',').nth(index).map(str::trim)
}

impl Tree {
    /// Rebuilds the tree from an output file (board, header, log). `root` gives the
    /// positions; `limits` say which nodes to keep.
    pub fn from_output(
        text: &str,
        root: Option<Position>,
        limits: &Limits,
    ) -> Result<Tree, TreeError> {
        if let Some(depth) = limits.depth.filter(|&d| (d as usize) < limits.focus.len()) {
            return Err(TreeError::FocusBelowDepth {
                focus: limits.focus.join(" "),
                focus_depth: limits.focus.len(),
                depth,
            });
        }
        let start = log_start(text);
        let mut tree = Tree {
            nodes: Vec::new(),
            prints: Vec::new(),
            log_lines: 0,
            visits: 0,
            visits_by_depth: Vec::new(),
            dropped: DroppedCounts::default(),
            limits: limits.clone(),
            focus: None,
            differs: None,
        };
        let mut stack: Vec<Frame> = Vec::new();
        let mut previous_depth: Option<u32> = None;
        for (index, text) in lines(text).enumerate().skip(start) {
            if text.trim().is_empty() {
                continue;
            }
            let line = index + 1;
            let bad = |what: String| TreeError::BadLine { line, what };
            let (name, depth, fields) = split_line(text);
            let depth = depth.ok_or_else(|| bad("expected name,depth,value,...".into()))?;
            tree.log_lines += 1;
            let first_print = previous_depth.is_none_or(|p| p + 1 == depth);
            previous_depth = Some(depth);
            let level = depth as usize;
            // A print of the node open at this depth: after a child, or a leaf again.
            if !first_print && stack.get(level).is_some_and(|f| f.name == name) {
                tree.close_to(&mut stack, level + 1);
                let frame = &mut stack[level];
                frame.fields = fields;
                if let Some(id) = frame.kept {
                    tree.push_print(id, line, fields);
                }
                continue;
            }
            if level == 0 && tree.visits > 0 {
                return Err(bad(format!(
                    "{} at depth 0: a log has one root, printed first and last",
                    printable(name)
                )));
            }
            tree.close_to(&mut stack, level);
            if stack.len() != level {
                return Err(bad(format!(
                    "{} at depth {depth} has no parent at depth {}",
                    printable(name),
                    level - 1
                )));
            }
            let frame = tree.open(stack.last(), name, depth, root);
            if let Some(id) = frame.kept {
                tree.push_print(id, line, fields);
            }
            stack.push(Frame { fields, ..frame });
        }
        tree.close_to(&mut stack, 0);
        if tree.nodes.is_empty() {
            return Err(TreeError::Empty);
        }
        tree.find_focus()?;
        tree.mark_chosen();
        Ok(tree)
    }

    /// A new node at `depth` under `parent` (`None`: the root), kept or counted.
    fn open<'a>(
        &mut self,
        parent: Option<&Frame<'a>>,
        name: &'a str,
        depth: u32,
        root: Option<Position>,
    ) -> Frame<'a> {
        self.visits += 1;
        if self.visits_by_depth.len() <= depth as usize {
            self.visits_by_depth.resize(depth as usize + 1, 0);
        }
        self.visits_by_depth[depth as usize] += 1;
        let focus_len = self.limits.focus.len();
        // On the path to the focus, or the focus itself: kept past the node limit too.
        let on_the_way = parent.is_none_or(|p| {
            p.on_path
                && self
                    .limits
                    .focus
                    .get(depth as usize - 1)
                    .map(String::as_str)
                    == Some(name)
        });
        let reason = parent.and_then(|p| p.children_dropped).or_else(|| {
            (self.nodes.len() >= self.limits.max_nodes && !on_the_way).then_some(Dropped::Count)
        });
        if let (Some(reason), Some(parent)) = (reason, parent) {
            self.dropped.add(reason);
            self.nodes[parent.anchor].hidden += 1;
            return Frame {
                name,
                fields: "",
                kept: None,
                anchor: parent.anchor,
                position: None,
                children_dropped: Some(reason),
                on_path: false,
                last_child: None,
            };
        }
        let on_path = on_the_way && (depth as usize) < focus_len;
        let beside_path = parent.is_some_and(|p| p.on_path) && !on_the_way;
        let children_dropped = if beside_path {
            Some(Dropped::Focus)
        } else if self.limits.depth == Some(depth) {
            Some(Dropped::Depth)
        } else {
            None
        };
        let (position, illegal) = match parent {
            None => (root, false),
            Some(p) => {
                let position = p.position.and_then(|position| position.child(name));
                (position, p.position.is_some() && position.is_none())
            }
        };
        let id = self.nodes.len();
        let parent_id = parent.and_then(|p| p.kept);
        if let Some(parent_id) = parent_id {
            self.nodes[parent_id].children.push(id);
        }
        self.nodes.push(Node {
            name: name.to_string(),
            depth,
            parent: parent_id,
            children: Vec::new(),
            prints: Vec::new(),
            visit: self.visits,
            hidden: 0,
            position,
            illegal,
            cut: None,
            chosen: false,
        });
        if on_the_way && depth as usize == focus_len && focus_len > 0 {
            self.focus.get_or_insert(id);
        }
        Frame {
            name,
            fields: "",
            kept: Some(id),
            anchor: id,
            position,
            children_dropped,
            on_path,
            last_child: None,
        }
    }

    fn push_print(&mut self, node: usize, line: usize, fields: &str) {
        let fields: Vec<&str> = fields.split(',').map(str::trim).collect();
        self.nodes[node].prints.push(self.prints.len());
        self.prints.push(Print {
            line,
            node,
            fields: fields.join(","),
        });
    }

    /// Closes open nodes until `len` remain, finding each one's cut-off.
    fn close_to(&mut self, stack: &mut Vec<Frame>, len: usize) {
        while stack.len() > len {
            let frame = stack.pop().expect("longer than len");
            if let Some(id) = frame.kept {
                self.nodes[id].cut = cut_of(stack.len() as u32, &frame);
            }
            if let Some(parent) = stack.last_mut() {
                parent.last_child = Some((frame.name, frame.fields, frame.kept));
            }
        }
    }

    /// The deepest kept node on the path `names` from the root, and how many of the
    /// names it took to get there (all of them when the whole path is kept).
    pub fn descend(&self, names: &[String]) -> (usize, usize) {
        let mut node = 0;
        for (taken, name) in names.iter().enumerate() {
            let child = self.nodes[node]
                .children
                .iter()
                .copied()
                .find(|&c| &self.nodes[c].name == name);
            match child {
                Some(child) => node = child,
                None => return (node, taken),
            }
        }
        (node, names.len())
    }

    /// Checks that the focus asked for was found.
    fn find_focus(&self) -> Result<(), TreeError> {
        let focus = &self.limits.focus;
        if focus.is_empty() || self.focus.is_some() {
            return Ok(());
        }
        let (node, taken) = self.descend(focus);
        let Some(name) = focus.get(taken) else {
            return Ok(());
        };
        let children: Vec<&str> = self.nodes[node]
            .children
            .iter()
            .map(|&c| self.nodes[c].name.as_str())
            .collect();
        Err(TreeError::NoSuchNode {
            focus: focus.join(" "),
            parent: printable(&self.path_text(node)).into_owned(),
            missing: printable(name).into_owned(),
            children: if children.is_empty() {
                "none".into()
            } else {
                printable(&children.join(", ")).into_owned()
            },
        })
    }

    fn mark_chosen(&mut self) {
        let mut node = 0;
        loop {
            self.nodes[node].chosen = true;
            let value = self.value(node).map(str::to_string);
            let next = self.nodes[node]
                .children
                .iter()
                .copied()
                .find(|&c| self.value(c).map(str::to_string) == value);
            match next {
                Some(child) => node = child,
                None => break,
            }
        }
    }

    /// The last print of `node`.
    pub fn last_print(&self, node: usize) -> Option<&Print> {
        self.nodes[node].prints.last().map(|&p| &self.prints[p])
    }

    /// The value `node` printed last.
    pub fn value(&self, node: usize) -> Option<&str> {
        self.last_print(node).and_then(|p| p.field(0))
    }

    /// The names from the root to `node`: `["root", "d3", "c3"]`.
    pub fn path(&self, node: usize) -> Vec<&str> {
        let mut path = Vec::new();
        let mut at = Some(node);
        while let Some(id) = at {
            path.push(self.nodes[id].name.as_str());
            at = self.nodes[id].parent;
        }
        path.reverse();
        path
    }

    /// The path to `node` for people: `root > d3 > c3`.
    pub fn path_text(&self, node: usize) -> String {
        log::path_text(&self.path(node))
    }

    /// Whether the file line `line` was printed by a kept node.
    pub fn keeps_line(&self, line: usize) -> bool {
        self.prints
            .binary_search_by_key(&line, |print| print.line)
            .is_ok()
    }

    /// Marks the node that printed file line `line`, or, if no kept node printed
    /// there (a line missing from this log), the last node printed before it: where
    /// the log first differs from the expected one. Returns the node marked.
    pub fn mark_line(&mut self, line: usize) -> Option<usize> {
        let printed_before = self.prints.partition_point(|print| print.line <= line);
        let node = self.prints[..printed_before].last()?.node;
        self.differs = Some(node);
        Some(node)
    }

    /// The cut-off of `node` in words: "c3 returned -3 <= alpha -3 at this MIN node:
    /// e3, c5 were not searched".
    pub fn cut_text(&self, node: usize) -> Option<String> {
        let cut = self.nodes[node].cut.as_ref()?;
        let last = self.last_print(node)?;
        let is_max = self.nodes[node].is_max();
        let value = last.field(0).unwrap_or("?");
        let (relation, bound) = if is_max {
            (">= beta", last.field(2).unwrap_or("?"))
        } else {
            ("<= alpha", last.field(1).unwrap_or("?"))
        };
        let returned = if cut.returned == value {
            format!("{} returned {value}", cut.by)
        } else {
            format!("{} returned {}, so v = {value}", cut.by, cut.returned)
        };
        let skipped = match cut.skipped.as_deref() {
            None => "the moves after it, if any, were not searched (the input names them)".into(),
            Some([]) if cut.by == "pass" => "pass was its only child, so none was skipped".into(),
            Some([]) => format!("{} was its last move, so none was skipped", cut.by),
            Some([one]) => format!("{one} was not searched"),
            Some(moves) => format!("{} were not searched", moves.join(", ")),
        };
        Some(format!(
            "{returned} {relation} {bound} at this {} node: {skipped}",
            self.nodes[node].kind()
        ))
    }

    /// The tree as indented text, one node a line: name, kind, the order of its
    /// visit, each print with its file line, and marks for the chosen line, the
    /// difference, moves that are not legal and the child that caused a cut-off;
    /// then each cut-off explained, the moves it skipped and the nodes not kept.
    /// Text from the log is escaped (see [`printable`]).
    pub fn outline(&self) -> String {
        let mut out = String::new();
        self.outline_node(0, &mut out);
        out
    }

    fn outline_node(&self, id: usize, out: &mut String) {
        let node = &self.nodes[id];
        let indent = "  ".repeat(node.depth as usize);
        let prints: Vec<String> = node
            .prints
            .iter()
            .map(|&p| format!("{}: {}", self.prints[p].line, self.prints[p].fields))
            .collect();
        let mut text = format!(
            "{indent}{} {} #{} [{}]",
            node.name,
            node.kind(),
            node.visit,
            prints.join(" | ")
        );
        let cause = node
            .parent
            .and_then(|p| self.nodes[p].cut.as_ref())
            .is_some_and(|cut| cut.by_node == Some(id));
        for (mark, word) in [
            (node.chosen, " chosen"),
            (self.differs == Some(id), " DIFFERS"),
            (node.illegal, " not-a-legal-move"),
            (cause, " caused-the-cut-off"),
        ] {
            if mark {
                text.push_str(word);
            }
        }
        let _ = writeln!(out, "{}", printable(&text));
        for &child in &node.children {
            self.outline_node(child, out);
        }
        let inner = "  ".repeat(node.depth as usize + 1);
        if let Some(cut) = &node.cut {
            let text = self.cut_text(id).unwrap_or_default();
            let _ = writeln!(out, "{inner}✂ {}", printable(&text));
            for skipped in cut.skipped.iter().flatten() {
                let _ = writeln!(out, "{inner}{skipped} not searched");
            }
        }
        if node.hidden > 0 {
            let _ = writeln!(out, "{inner}+{} not kept", node.hidden);
        }
    }
}

/// The cut-off of a node at `depth` that the log leaves now, if it reached one.
fn cut_of(depth: u32, frame: &Frame) -> Option<Cut> {
    let (child, child_fields, by_node) = frame.last_child?;
    let number = |i: usize| field(frame.fields, i).and_then(log::parse_value);
    let (value, alpha, beta) = (number(0)?, number(1)?, number(2)?);
    if !log::reaches_cutoff(depth, value, alpha, beta) {
        return None;
    }
    let skipped = frame.position.and_then(|position| {
        if child == "pass" {
            return Some(Vec::new());
        }
        let last = square_of(child)?;
        let after = Squares(position.board.moves()).filter(|s| s.index() > last.index());
        Some(after.map(|s| s.to_string()).collect())
    });
    Some(Cut {
        by: child.to_string(),
        by_node,
        returned: field(child_fields, 0).unwrap_or("?").to_string(),
        skipped,
    })
}
