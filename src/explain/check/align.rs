//! Two traverse logs as trees, aligned node by node: each log line is one print of
//! a node, the node known by its path from the root (a name repeated under one parent
//! counts as a second node of that name). The alignment lists the prints the student's
//! log lacks, the prints it has beyond the expected ones, and the prints whose depth,
//! value, alpha or beta differ, in search order; `check` explains the first cause
//! from it rather than from the first line that differs.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::Mistake;
use crate::explain::log::{self, Entry};

/// A node of a log's tree.
#[derive(Clone, Debug)]
struct Node<'a> {
    name: &'a str,
    parent: Option<usize>,
    /// Among its parent's children (or the roots), how many before it share its name.
    occurrence: usize,
    children: Vec<usize>,
    /// The entries (0-based log lines) that print it, in order.
    prints: Vec<usize>,
}

/// A log read as a tree.
#[derive(Clone, Debug)]
pub(super) struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    roots: Vec<usize>,
    /// For each entry: its node and which print of that node it is.
    at: Vec<(usize, usize)>,
}

/// A node's key: the names and occurrences from the root down.
type Key<'a> = Vec<(&'a str, usize)>;

impl<'a> Tree<'a> {
    /// Reads the entries as prints of nodes: a line one level below the line before
    /// enters a child; a line at a shallower depth with the name of the node open at
    /// that depth prints it again (after a child returned); any other line enters a
    /// new node at its depth.
    pub(super) fn build(entries: &[Entry<'a>]) -> Tree<'a> {
        let mut tree = Tree {
            nodes: Vec::new(),
            roots: Vec::new(),
            at: Vec::with_capacity(entries.len()),
        };
        let mut open: Vec<usize> = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let depth = entry.depth.map_or(open.len(), |d| d as usize);
            let node = match open.get(depth) {
                Some(&node) if depth < open.len() && tree.nodes[node].name == entry.name => {
                    open.truncate(depth + 1);
                    node
                }
                _ => {
                    open.truncate(depth.min(open.len()));
                    let parent = open.last().copied();
                    let siblings = parent.map_or(&tree.roots, |p| &tree.nodes[p].children);
                    let occurrence = siblings
                        .iter()
                        .filter(|&&s| tree.nodes[s].name == entry.name)
                        .count();
                    let id = tree.nodes.len();
                    tree.nodes.push(Node {
                        name: entry.name,
                        parent,
                        occurrence,
                        children: Vec::new(),
                        prints: Vec::new(),
                    });
                    match parent {
                        Some(p) => tree.nodes[p].children.push(id),
                        None => tree.roots.push(id),
                    }
                    open.push(id);
                    id
                }
            };
            tree.at.push((node, tree.nodes[node].prints.len()));
            tree.nodes[node].prints.push(i);
        }
        tree
    }

    fn key(&self, mut node: usize) -> Key<'a> {
        let mut key = vec![(self.nodes[node].name, self.nodes[node].occurrence)];
        while let Some(parent) = self.nodes[node].parent {
            key.push((self.nodes[parent].name, self.nodes[parent].occurrence));
            node = parent;
        }
        key.reverse();
        key
    }

    /// The names from the root to the node, `root > d3 > c3`.
    pub(super) fn path_text(&self, node: usize) -> String {
        let names: Vec<&str> = self.key(node).into_iter().map(|(name, _)| name).collect();
        log::path_text(&names)
    }

    /// The node an entry prints.
    pub(super) fn node_of(&self, entry: usize) -> usize {
        self.at[entry].0
    }

    /// Which print of its node an entry is (0 for the node's entry line).
    pub(super) fn print_of(&self, entry: usize) -> usize {
        self.at[entry].1
    }

    pub(super) fn name(&self, node: usize) -> &'a str {
        self.nodes[node].name
    }

    pub(super) fn parent(&self, node: usize) -> Option<usize> {
        self.nodes[node].parent
    }

    pub(super) fn children(&self, node: usize) -> &[usize] {
        &self.nodes[node].children
    }

    pub(super) fn prints(&self, node: usize) -> &[usize] {
        &self.nodes[node].prints
    }
}

/// How a print differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The expected log prints it; the student's does not.
    Missing,
    /// The student's log prints it; the expected one does not.
    Extra,
    /// Both print it, with another depth, value, alpha or beta.
    Changed,
}

/// One difference of the alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Aligned {
    pub(super) change: Change,
    /// The expected entry (0-based log line), unless extra.
    pub(super) expected: Option<usize>,
    /// The student's entry, unless missing.
    pub(super) actual: Option<usize>,
}

/// Two logs' trees and their differences in search order.
pub(super) struct Alignment<'a> {
    pub(super) want: Tree<'a>,
    pub(super) got: Tree<'a>,
    /// For each expected node, the student's node at the same path.
    pub(super) matched: Vec<Option<usize>>,
    pub(super) differences: Vec<Aligned>,
}

impl<'a> Alignment<'a> {
    /// Aligns the student's log `act` with the expected `exp`.
    pub(super) fn new(exp: &[Entry<'a>], act: &[Entry<'a>]) -> Alignment<'a> {
        let want = Tree::build(exp);
        let got = Tree::build(act);
        let by_key: HashMap<Key, usize> = (0..got.nodes.len()).map(|n| (got.key(n), n)).collect();
        let matched: Vec<Option<usize>> = (0..want.nodes.len())
            .map(|n| by_key.get(&want.key(n)).copied())
            .collect();
        // The expected entry each of the student's entries stands for.
        let mut counterpart: Vec<Option<usize>> = vec![None; act.len()];
        // (sort key, student's entry, difference)
        let mut found: Vec<(usize, usize, Aligned)> = Vec::new();
        for (i, e) in exp.iter().enumerate() {
            let (node, print) = want.at[i];
            let other = matched[node].and_then(|m| got.nodes[m].prints.get(print).copied());
            match other {
                Some(a) => {
                    counterpart[a] = Some(i);
                    if act[a].depth != e.depth || act[a].values != e.values {
                        found.push((
                            2 * i,
                            a,
                            Aligned {
                                change: Change::Changed,
                                expected: Some(i),
                                actual: Some(a),
                            },
                        ));
                    }
                }
                None => found.push((
                    2 * i,
                    0,
                    Aligned {
                        change: Change::Missing,
                        expected: Some(i),
                        actual: None,
                    },
                )),
            }
        }
        // An extra print comes after the last expected print the student's log has
        // made before it.
        let mut anchor: Option<usize> = None;
        for (a, there) in counterpart.iter().enumerate() {
            match there {
                Some(i) => anchor = Some(anchor.map_or(*i, |x: usize| x.max(*i))),
                None => found.push((
                    anchor.map_or(0, |x| 2 * x + 1),
                    a,
                    Aligned {
                        change: Change::Extra,
                        expected: None,
                        actual: Some(a),
                    },
                )),
            }
        }
        found.sort_by_key(|&(key, a, _)| (key, a));
        Alignment {
            want,
            got,
            matched,
            differences: found.into_iter().map(|(.., d)| d).collect(),
        }
    }

    /// The student's node at the path of the expected node `node`.
    pub(super) fn counterpart(&self, node: usize) -> Option<usize> {
        self.matched[node]
    }

    /// The expected node at the path of the student's node `node`.
    pub(super) fn expected_node(&self, node: usize) -> Option<usize> {
        self.matched.iter().position(|&m| m == Some(node))
    }
}

/// The first cause of the differences, read from the alignment: what is wrong, at
/// which node, and (when every difference of the file is of that one kind) the
/// mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cause {
    /// The expected entry the cause shows at, if the expected log has it.
    pub(super) expected: Option<usize>,
    /// The student's entry at that place (what the student's log prints there).
    pub(super) actual: Option<usize>,
    /// The node's path, `root > c4`.
    pub(super) node: String,
    /// The mistake, when the alignment leaves no doubt.
    pub(super) mistake: Option<Mistake>,
    /// What is wrong, in words.
    pub(super) text: String,
}

/// The bound a node prunes on and its relation: `<= alpha -3` at MIN, `>= beta 5` at
/// MAX, from the node's print.
pub(super) fn bound_text(entry: &Entry) -> String {
    if entry.is_max() {
        format!(">= beta {}", field(entry, 2))
    } else {
        format!("<= alpha {}", field(entry, 1))
    }
}

fn field<'a>(entry: &Entry<'a>, i: usize) -> &'a str {
    entry.values.get(i).copied().unwrap_or("?")
}

fn kind(entry: &Entry) -> &'static str {
    if entry.is_max() {
        "MAX"
    } else {
        "MIN"
    }
}

impl Alignment<'_> {
    /// The student's entry where an expected entry that is missing would stand: after
    /// the student's print of the nearest expected line before it that both logs have.
    fn place_of_missing(&self, i: usize) -> usize {
        (0..i)
            .rev()
            .find_map(|k| {
                let (node, print) = self.want.at[k];
                let m = self.matched[node]?;
                self.got.nodes[m].prints.get(print).map(|&a| a + 1)
            })
            .unwrap_or(0)
    }

    /// The expected node whose story the first difference is part of: the node it
    /// prints, or for an extra node, its parent.
    fn node_of_first(&self) -> Option<usize> {
        let first = self.differences.first()?;
        match (first.expected, first.actual) {
            (Some(i), _) => Some(self.want.node_of(i)),
            (None, Some(a)) => {
                let node = self.got.node_of(a);
                let node = if self.got.print_of(a) == 0 {
                    self.got.parent(node)?
                } else {
                    node
                };
                self.expected_node(node)
            }
            (None, None) => None,
        }
    }

    /// Explains the first difference when the trees tell its cause: a line missing
    /// after a child returns (or at a cut-off), or children visited after a cut-off.
    /// `None` when the first difference is of another kind.
    pub(super) fn cause(&self, exp: &[Entry], act: &[Entry]) -> Option<Cause> {
        if let Some(cause) = self.went_on_after_cutoff(exp, act) {
            return Some(cause);
        }
        self.line_missing_after_child(exp, act)
    }

    /// The expected node `node` prunes after its last child, and the student's node
    /// at its path visits children after that one.
    fn went_on_after_cutoff(&self, exp: &[Entry], act: &[Entry]) -> Option<Cause> {
        let node = self.node_of_first()?;
        let &last = self.want.prints(node).last()?;
        let stop = &exp[last];
        if self.want.print_of(last) == 0 || !stop.reaches_cutoff() {
            return None;
        }
        let &child = self.want.children(node).last()?;
        let theirs = self.counterpart(node)?;
        let their_child = self.counterpart(child)?;
        let siblings = self.got.children(theirs);
        let after = siblings.iter().position(|&c| c == their_child)? + 1;
        // The student's node saw the same value and bound after that child: it did
        // reach the cut-off there, and went on.
        let seen = &act[*self.got.prints(theirs).get(self.want.print_of(last))?];
        let bound = |x: &Entry| if stop.is_max() { x.beta() } else { x.alpha() };
        if seen.value() != stop.value() || bound(seen) != bound(stop) {
            return None;
        }
        let extra: Vec<&str> = siblings[after..]
            .iter()
            .map(|&c| self.got.name(c))
            .collect();
        if extra.is_empty() {
            return None;
        }
        let name = stop.name;
        let first = self.differences[0];
        let mut text = format!(
            "{name} should have stopped after {} ({} = {} {}): {name} is a {} node, and once \
             its value reaches {} ({}, equality included) it prints its value with alpha and \
             beta unchanged, `{}`, and returns at once. Your log goes on to {} of {name}: {}",
            self.want.name(child),
            self.want.name(child),
            field(stop, 0),
            bound_text(stop),
            kind(stop),
            if stop.is_max() { "beta" } else { "alpha" },
            if stop.is_max() {
                "v >= beta"
            } else {
                "v <= alpha"
            },
            stop.values
                .iter()
                .fold(format!("{name},{}", stop.depth.unwrap_or(0)), |t, v| t
                    + ","
                    + v),
            if extra.len() == 1 {
                "another child".to_string()
            } else {
                format!("{} more children", extra.len())
            },
            extra.join(", ")
        );
        let mut mistake = Mistake::PrunedTooLate;
        if let Some(i) = act
            .iter()
            .position(|x| x.alpha().zip(x.beta()).is_some_and(|(a, b)| a > b))
        {
            mistake = Mistake::NoPruning;
            text += &format!(
                ". Your program does not prune at all: log line {} prints alpha {} above \
                 beta {}, which only a search that never prunes can print",
                i + 1,
                field(&act[i], 1),
                field(&act[i], 2)
            );
        }
        Some(Cause {
            expected: first.expected.or(Some(last)),
            actual: first.actual,
            node: self.want.path_text(node),
            mistake: Some(mistake),
            text,
        })
    }

    /// The first difference is a line a node prints after a child returns, and the
    /// student's log lacks it (the node itself is there).
    fn line_missing_after_child(&self, exp: &[Entry], act: &[Entry]) -> Option<Cause> {
        let first = self.differences.first()?;
        let (Change::Missing, Some(i)) = (first.change, first.expected) else {
            return None;
        };
        let node = self.want.node_of(i);
        if self.want.print_of(i) == 0 || self.counterpart(node).is_none() || i == 0 {
            return None;
        }
        let child = self.want.node_of(i - 1);
        if self.want.parent(child) != Some(node) {
            return None;
        }
        let e = &exp[i];
        let name = e.name;
        let line = e
            .values
            .iter()
            .fold(format!("{name},{}", e.depth.unwrap_or(0)), |t, v| {
                t + "," + v
            });
        let place = self.place_of_missing(i);
        // (a file that stops early is told as such)
        let next = format!("`{}`", act.get(place)?.name);
        let child_name = self.want.name(child);
        let cutoff = e.reaches_cutoff();
        let text = if cutoff {
            format!(
                "the line after {name}'s cut-off is missing: after {child_name} returns, \
                 {name} ({}) has value {} {}, so it prunes; it still prints `{line}` (alpha \
                 and beta unchanged) before it returns. Your log goes from {child_name}'s \
                 last line straight to {next}",
                kind(e),
                field(e, 0),
                bound_text(e),
            )
        } else {
            format!(
                "the line {name} prints after its child {child_name} returns is missing: \
                 after each child returns, a node prints its value, alpha and beta, here \
                 `{line}`. Your log goes from {child_name}'s last line straight to {next}"
            )
        };
        // The label only when every difference is a missing line of that kind.
        let all_alike = self.differences.iter().all(|d| {
            d.change == Change::Missing
                && d.expected.is_some_and(|k| {
                    self.want.print_of(k) > 0
                        && self.counterpart(self.want.node_of(k)).is_some()
                        && exp[k].reaches_cutoff() == cutoff
                })
        });
        Some(Cause {
            expected: Some(i),
            actual: Some(place).filter(|&p| p < act.len()),
            node: self.want.path_text(node),
            mistake: (all_alike && cutoff).then_some(Mistake::NoLineAtCutoff),
            text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(lines: &[&'static str]) -> Vec<Entry<'static>> {
        lines.iter().map(|l| Entry::parse(l)).collect()
    }

    const HANDOUT: [&str; 8] = [
        "root,0,-Infinity,-Infinity,Infinity",
        "d3,1,Infinity,-Infinity,Infinity",
        "c3,2,-3,-Infinity,Infinity",
        "d3,1,-3,-Infinity,-3",
        "root,0,-3,-3,Infinity",
        "c4,1,Infinity,-3,Infinity",
        "c3,2,-3,-3,Infinity",
        "c4,1,-3,-3,Infinity",
    ];

    #[test]
    fn a_deleted_line_is_one_missing_print() {
        let exp = entries(&HANDOUT);
        let mut act = HANDOUT.to_vec();
        act.remove(3);
        let act = entries(&act);
        let alignment = Alignment::new(&exp, &act);
        assert_eq!(
            alignment.differences,
            vec![Aligned {
                change: Change::Missing,
                expected: Some(3),
                actual: None
            }]
        );
        assert_eq!(
            alignment.want.path_text(alignment.want.node_of(6)),
            "root > c4 > c3"
        );
    }

    #[test]
    fn extra_children_come_after_the_line_they_follow() {
        let exp = entries(&HANDOUT);
        let mut act = HANDOUT.to_vec();
        act[7] = "c4,1,-3,-3,-3";
        act.push("e3,2,0,-3,-3");
        act.push("c4,1,-3,-3,-3");
        let act = entries(&act);
        let changes: Vec<Change> = Alignment::new(&exp, &act)
            .differences
            .iter()
            .map(|d| d.change)
            .collect();
        assert_eq!(changes, [Change::Changed, Change::Extra, Change::Extra]);
    }

    #[test]
    fn a_repeated_name_is_a_second_node() {
        let exp = entries(&["root,0,a", "d3,1,x", "root,0,b", "d3,1,y", "root,0,c"]);
        let tree = Tree::build(&exp);
        assert_eq!(tree.roots.len(), 1);
        assert_eq!(tree.children(tree.roots[0]).len(), 2);
        assert_eq!(tree.prints(tree.roots[0]), &[0, 2, 4]);
    }
}
