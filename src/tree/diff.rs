//! A student's tree against ours, for one picture: the alignment `check` makes of the
//! two logs (by node path; see [`crate::explain::check::tree_changes`]) read onto the
//! tree drawn (the student's), with the nodes only ours has hung where they belong.

use std::collections::{HashMap, HashSet};

use super::{parse_path, Tree};
use crate::explain::check::{Change, TreeChange};

/// A node of ours that the student's log never visits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The drawn node it hangs under.
    pub under: usize,
    /// Its move.
    pub name: String,
    /// The lines our log prints for it, in order.
    pub lines: Vec<String>,
    /// Nodes of ours below it, also missing.
    pub below: u64,
}

/// How the drawn (student's) tree differs from ours, node by node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// Drawn nodes our tree does not have (the student's log visits them, ours not).
    pub extra: Vec<usize>,
    /// Drawn nodes both trees have whose lines differ, each with what differs.
    pub changed: Vec<(usize, Vec<String>)>,
    /// Our nodes the drawn tree lacks.
    pub missing: Vec<Missing>,
    /// Drawn nodes where our search cuts off otherwise: our cut-off in words.
    pub our_cuts: Vec<(usize, String)>,
    /// Differences of the alignment not shown (their node is not drawn).
    pub not_shown: usize,
    /// The drawn node where the first difference in search order shows: the node
    /// itself, or, for a node only ours has, the drawn node it hangs under.
    pub first: Option<usize>,
}

impl Diff {
    /// Reads `changes` (ours against the student's, whose tree is `drawn`) onto the
    /// drawn tree; `ours` is our tree (drawn with the same limits, if it could be), for
    /// our cut-offs.
    pub fn new(drawn: &Tree, ours: Option<&Tree>, changes: &[TreeChange]) -> Diff {
        let mut diff = Diff::default();
        let mut changed: HashMap<usize, Vec<String>> = HashMap::new();
        let mut extra = vec![false; drawn.nodes.len()];
        let mut missing: HashMap<(usize, String), usize> = HashMap::new();
        let mut counted: HashSet<String> = HashSet::new();
        for change in changes {
            match change.change {
                Change::Changed | Change::Extra => {
                    let Some(print) = change
                        .line
                        .and_then(|l| drawn.prints.binary_search_by_key(&l, |p| p.line).ok())
                    else {
                        diff.not_shown += 1;
                        continue;
                    };
                    let node = drawn.prints[print].node;
                    diff.first.get_or_insert(node);
                    let entry = drawn.nodes[node].prints.first() == Some(&print);
                    if change.change == Change::Extra && entry {
                        extra[node] = true;
                    } else {
                        changed.entry(node).or_default().push(change_text(change));
                    }
                }
                Change::Missing => {
                    let names = parse_path(&change.node);
                    // The deepest drawn node on its path.
                    let (at, found) = drawn.descend(&names);
                    diff.first.get_or_insert(at);
                    if found == names.len() {
                        changed.entry(at).or_default().push(change_text(change));
                        continue;
                    }
                    // Below a node with undrawn nodes it may be there: say nothing.
                    if drawn.nodes[at].hidden > 0 {
                        diff.not_shown += 1;
                        continue;
                    }
                    let key = (at, names[found].clone());
                    let index = *missing.entry(key).or_insert_with(|| {
                        diff.missing.push(Missing {
                            under: at,
                            name: names[found].clone(),
                            lines: Vec::new(),
                            below: 0,
                        });
                        diff.missing.len() - 1
                    });
                    if found + 1 == names.len() {
                        if let Some(line) = &change.expected {
                            diff.missing[index].lines.push(line.clone());
                        }
                    } else if counted.insert(change.node.clone()) {
                        diff.missing[index].below += 1;
                    }
                }
            }
        }
        // Below an extra node, every node is extra too.
        for n in 1..drawn.nodes.len() {
            if let Some(p) = drawn.nodes[n].parent {
                if extra[p] {
                    extra[n] = true;
                }
            }
        }
        diff.extra = (0..drawn.nodes.len()).filter(|&n| extra[n]).collect();
        let mut changed: Vec<(usize, Vec<String>)> = changed.into_iter().collect();
        changed.sort();
        diff.changed = changed;
        if let Some(ours) = ours {
            diff.our_cuts = our_cuts(drawn, ours);
        }
        diff
    }

    /// Whether there is nothing to mark.
    pub fn is_empty(&self) -> bool {
        self.extra.is_empty() && self.changed.is_empty() && self.missing.is_empty()
    }
}

/// A change of a node that both trees have, in words.
fn change_text(change: &TreeChange) -> String {
    let show = |x: &Option<String>| x.clone().unwrap_or_default();
    match change.change {
        Change::Missing => format!(
            "ours prints `{}` here; yours does not",
            show(&change.expected)
        ),
        Change::Extra => format!(
            "yours prints `{}` (line {}); ours does not",
            show(&change.actual),
            change.line.unwrap_or(0)
        ),
        Change::Changed => format!(
            "ours prints `{}`, yours `{}` (line {})",
            show(&change.expected),
            show(&change.actual),
            change.line.unwrap_or(0)
        ),
    }
}

/// Drawn nodes where our search cuts off after another child, or does not cut off,
/// with our cut-off (or its absence) in words.
fn our_cuts(drawn: &Tree, ours: &Tree) -> Vec<(usize, String)> {
    let ours_by_path: HashMap<String, usize> = (0..ours.nodes.len())
        .map(|o| (ours.path_text(o), o))
        .collect();
    let mut found = Vec::new();
    for (n, node) in drawn.nodes.iter().enumerate() {
        let Some(&o) = ours_by_path.get(&drawn.path_text(n)) else {
            continue;
        };
        let theirs = node.cut.as_ref().map(|c| c.by.as_str());
        let our = ours.nodes[o].cut.as_ref().map(|c| c.by.as_str());
        if theirs == our || ours.nodes[o].hidden > 0 {
            continue;
        }
        let text = match ours.cut_text(o) {
            Some(text) => format!("ours: ✂ {text}"),
            None => "ours does not cut off here: it searches every child".to_string(),
        };
        found.push((n, text));
    }
    found
}
