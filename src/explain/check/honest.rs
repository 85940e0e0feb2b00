//! Honest uncertainty: when the case's input is known and no program of the
//! catalogue of known mistakes writes the student's file, `check` says so, shows what
//! differs node by node, and lists the candidate causes with the evidence for each,
//! most likely first. It names a mistake only when the file's text or the aligned
//! trees leave no doubt.

use serde::{Deserialize, Serialize};

use super::align::{Alignment, Change};
use super::{Difference, Mistake};
use crate::explain::diagnose::Diagnosis;
use crate::explain::log::{Entry, LOG_START};

/// A possible cause of a difference that no program of the catalogue reproduces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// The mistake it would be.
    pub mistake: Mistake,
    /// A program of the catalogue with this mistake comes near the file (the evidence
    /// says how near); false when the candidate is read from how the first differing
    /// line looks.
    pub from_catalogue: bool,
    /// What speaks for it.
    pub evidence: String,
}

/// One difference of the aligned trees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeChange {
    /// Missing, extra or changed.
    pub change: Change,
    /// The node's path, `root > c4`.
    pub node: String,
    /// The line (1-based) in the student's file, unless missing.
    pub line: Option<usize>,
    /// The expected line, unless extra.
    pub expected: Option<String>,
    /// The student's line, unless missing.
    pub actual: Option<String>,
}

impl TreeChange {
    /// The change in a few words.
    pub fn text(&self) -> String {
        let show = |x: &Option<String>| x.clone().unwrap_or_default();
        match self.change {
            Change::Missing => format!("{}: missing `{}`", self.node, show(&self.expected)),
            Change::Extra => format!(
                "{}: extra `{}` (line {})",
                self.node,
                show(&self.actual),
                self.line.unwrap_or(0)
            ),
            Change::Changed => format!(
                "{}: `{}` expected, `{}` found (line {})",
                self.node,
                show(&self.expected),
                show(&self.actual),
                self.line.unwrap_or(0)
            ),
        }
    }
}

fn entries(lines: &[String]) -> Vec<Entry<'_>> {
    lines
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect()
}

/// What differs between the two logs, node by node, in search order.
pub(super) fn tree_changes(want: &[String], got: &[String]) -> Vec<TreeChange> {
    if want.len() <= LOG_START || got.len() <= LOG_START {
        return Vec::new();
    }
    let (exp, act) = (entries(want), entries(got));
    let alignment = Alignment::new(&exp, &act);
    alignment
        .differences
        .iter()
        .map(|d| {
            let node = match (d.expected, d.actual) {
                (Some(i), _) => alignment.want.path_text(alignment.want.node_of(i)),
                (None, Some(a)) => alignment.got.path_text(alignment.got.node_of(a)),
                (None, None) => String::new(),
            };
            TreeChange {
                change: d.change,
                node,
                line: d.actual.map(|a| a + LOG_START + 1),
                expected: d.expected.map(|i| want[i + LOG_START].clone()),
                actual: d.actual.map(|a| got[a + LOG_START].clone()),
            }
        })
        .collect()
}

/// Mistakes the text of the file shows for certain, whatever the program did.
fn told_by_text(mistake: Mistake) -> bool {
    matches!(
        mistake,
        Mistake::LineEnds
            | Mistake::FinalNewline
            | Mistake::ByteOrderMark
            | Mistake::TrailingWhitespace
            | Mistake::FloatValues
            | Mistake::InfSpelling
            | Mistake::SpacedBoard
            | Mistake::MissingHeader
            | Mistake::MissingBoard
            | Mistake::IllegalMove
            | Mistake::WrongBoard
            | Mistake::MissingLines
            | Mistake::ExtraLines
    )
}

/// Whether the aligned trees name `mistake` as the first cause (see
/// [`Alignment::cause`], which names one only when the trees leave no doubt).
fn told_by_trees(mistake: Mistake, want: &[String], got: &[String]) -> bool {
    let (exp, act) = (entries(want), entries(got));
    Alignment::new(&exp, &act)
        .cause(&exp, &act)
        .is_some_and(|cause| cause.mistake == Some(mistake))
}

/// Settles a difference that the catalogue did not explain (the input was known, and
/// no program of the catalogue writes the file): a mistake named from the first
/// differing line's look alone becomes a candidate, and the catalogue's nearest
/// faults join the candidates, most likely first.
pub(super) fn settle(
    difference: &mut Difference,
    diagnosis: &Diagnosis,
    want: &[String],
    got: &[String],
) -> Vec<Candidate> {
    if let Some(mistake) = difference.mistake {
        if told_by_text(mistake) || told_by_trees(mistake, want, got) {
            return Vec::new();
        }
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut found = diagnosis.found.clone();
    found.sort_by_key(|f| std::cmp::Reverse(f.lines));
    let differing = diagnosis.unexplained + found.iter().map(|f| f.lines).sum::<usize>();
    // (a fault that only rewrites the text, line ends say, is no cause of a line
    // whose content differs; `check --all` lists it)
    for f in found.iter().filter(|f| !f.fault.rewrites_text_only()) {
        candidates.push(Candidate {
            mistake: f.fault,
            from_catalogue: true,
            evidence: format!(
                "a program with this mistake ({}) comes nearest your file: it accounts for \
                 {} of the {} lines that differ, from line {}, but does not write your file",
                f.fault, f.lines, differing, f.first_line
            ),
        });
    }
    if let Some(mistake) = difference.mistake.take() {
        if !candidates.iter().any(|c| c.mistake == mistake) {
            candidates.push(Candidate {
                mistake,
                from_catalogue: false,
                evidence: format!(
                    "how the first line that differs looks: {}",
                    difference.explanation
                ),
            });
        }
    }
    const NOT_EXPLAINED: &str = "Not explained: no program of the catalogue of known \
                                 mistakes writes your file, so this says what differs, not \
                                 why.";
    if candidates.iter().any(|c| !c.from_catalogue) {
        let changes = tree_changes(want, got);
        let first = changes.first().map_or(String::new(), |c| {
            format!(" The first difference in search order: {}.", c.text())
        });
        difference.explanation = format!("{NOT_EXPLAINED}{first}");
    } else {
        difference.explanation = format!(
            "{NOT_EXPLAINED} {}",
            super::sentences::capitalized(&difference.explanation)
        );
    }
    candidates
}
